#!/bin/sh
# Proves rt-latency-report merge on real runs: thread N of the merge is
# thread N of both runs added (histogram buckets exactly, cycles, min, max,
# overruns; pair tools: receiver and sender samples), percentiles and their
# 95 % intervals ("percentiles_ci", right after "percentiles", also when the
# inputs have none) are those of the summed histogram (per thread and
# overall), a one-thread run merged alone keeps its own intervals, "inputs" keeps each
# run's file, host, kernel and totals, and the result reads like a run
# (compare, merge again); bad inputs: one line, exit 1 or 2, no output file.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
RLR=$(tool rt-latency-report)

report() {
	RC=0
	"$RLR" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

check_merge() { # MERGED INPUT...
	python3 - "$HELPERS" "$@" <<'PY' >"$WORK/merge.diag" 2>&1 || fail "$(head -n 6 "$WORK/merge.diag")"
import json, sys
sys.path.insert(0, sys.argv[1])
import loghist
merged = json.load(open(sys.argv[2]))
ins = [json.load(open(p)) for p in sys.argv[3:]]
errors = []
def part(t):
    return t.get("receiver", t)
every = {}
for i in range(merged["num_threads"]):
    m = part(merged["thread"][str(i)])
    srcs = [part(d["thread"][str(i)]) for d in ins if str(i) in d["thread"]]
    want = {}
    for s in srcs:
        for low, n in s["latency_histogram"]["buckets"].items():
            want[int(low)] = want.get(int(low), 0) + n
            every[int(low)] = every.get(int(low), 0) + n
    got = {int(k): v for k, v in m["latency_histogram"]["buckets"].items()}
    if got != want:
        errors.append("thread %d: buckets are not the sum" % i)
    count = sum(want.values())
    if m["latency_histogram"]["count"] != count or m.get("cycles", count) != count:
        errors.append("thread %d: count %s/%s, want %d" % (i, m.get("cycles"), m["latency_histogram"]["count"], count))
    if m["min"] != min(s["min"] for s in srcs) or m["max"] != max(s["max"] for s in srcs):
        errors.append("thread %d: min/max %s/%s" % (i, m["min"], m["max"]))
    if "overruns" in m and m["overruns"] != sum(s["overruns"] for s in srcs):
        errors.append("thread %d: overruns" % i)
    for name, pm in loghist.PCTS:
        if m["percentiles"][name] != loghist.percentile(want, count, m["max"], pm):
            errors.append("thread %d: %s %s" % (i, name, m["percentiles"][name]))
    loghist.check_ci(m, "thread %d" % i, errors, want, count, m["max"])
    if "sender" in merged["thread"][str(i)]:
        if merged["thread"][str(i)]["sender"]["samples"] != sum(d["thread"][str(i)]["sender"]["samples"] for d in ins):
            errors.append("thread %d: sender samples" % i)
top = max(part(merged["thread"][str(i)])["max"] for i in range(merged["num_threads"]))
for name, pm in loghist.PCTS:
    if merged["percentiles"][name] != loghist.percentile(every, sum(every.values()), top, pm):
        errors.append("overall %s" % name)
loghist.check_ci(merged, "overall", errors, every, sum(every.values()), top)
# The interval sits right after its values, as the tools write it.
for label, o in [("overall", merged)] + [("thread %d" % i, part(merged["thread"][str(i)]))
                                         for i in range(merged["num_threads"])]:
    keys = list(o)
    if keys.index("percentiles_ci") != keys.index("percentiles") + 1:
        errors.append("%s: keys %s" % (label, keys))
if [e["file"] for e in merged["inputs"]] != sys.argv[3:] or \
   any(e["host"] != d["sysinfo"]["nodename"] or e["kernel"] != d["sysinfo"]["release"]
       for e, d in zip(merged["inputs"], ins)):
    errors.append("inputs %s" % merged["inputs"])
# Each "inputs" entry describes the file it names, alone.
for e in merged["inputs"]:
    d = json.load(open(e["file"]))
    ts = [part(d["thread"][str(i)]) for i in range(d["num_threads"])]
    want = {"host": d["sysinfo"]["nodename"], "kernel": d["sysinfo"]["release"],
            "start_time": d["start_time"], "num_threads": d["num_threads"],
            "cycles": [t["latency_histogram"]["count"] for t in ts], "max": [t["max"] for t in ts]}
    got = {k: e.get(k) for k in want}
    if got != want:
        errors.append("inputs entry of %s: %s, want %s" % (e["file"], got, want))
if not merged["merged_by"].startswith("rt-latency-report merge") and "merge" not in merged["merged_by"]:
    errors.append("merged_by %s" % merged["merged_by"])
for e in errors:
    print("merge: " + e)
sys.exit(1 if errors else 0)
PY
}

run_json() { # FILE TOOL ARGS...
	_f=$1
	_t=$2
	shift 2
	"$(tool "$_t")" -q -p 80 --no-preflight --json="$_f" "$@" >/dev/null 2>&1 </dev/null ||
		fail "$_t $* for $_f"
}

# (A second apart: runs of one host that start in the same second are one run.)
run_json "$WORK/a.json" cyclictest -m -t 2 -l 400
sleep 1
run_json "$WORK/b.json" cyclictest -m -t 2 -l 300 -i 700
sleep 1
run_json "$WORK/c.json" cyclictest -m -t 2 -l 300
report merge "$WORK/a.json" "$WORK/b.json" -o "$WORK/ab.json"
expect_exit 0
check_merge "$WORK/ab.json" "$WORK/a.json" "$WORK/b.json"
# It reads like a run: compared with itself, merged again.
report compare "$WORK/ab.json" "$WORK/ab.json"
expect_exit 0
report merge "$WORK/ab.json" "$WORK/c.json" -o "$WORK/abc.json"
expect_exit 0
check_merge "$WORK/abc.json" "$WORK/ab.json" "$WORK/c.json"
# One-thread runs: merged alone, a run keeps the intervals cyclictest
# computed (per thread and overall, byte for byte as JSON values); two
# merged: the thread's interval is the overall one (one histogram).
run_json "$WORK/one1.json" cyclictest -m -l 500
sleep 1
run_json "$WORK/one2.json" cyclictest -m -l 700
report merge "$WORK/one1.json" -o "$WORK/one.json"
expect_exit 0
check_merge "$WORK/one.json" "$WORK/one1.json"
report merge "$WORK/one1.json" "$WORK/one2.json" -o "$WORK/one12.json"
expect_exit 0
check_merge "$WORK/one12.json" "$WORK/one1.json" "$WORK/one2.json"
python3 - "$WORK/one1.json" "$WORK/one.json" "$WORK/one12.json" >"$WORK/one.diag" 2>&1 <<'PY' ||
import json, sys
run, alone, both = (json.load(open(p)) for p in sys.argv[1:])
for key, a, b in [("thread 0", run["thread"]["0"], alone["thread"]["0"]), ("overall", run, alone),
                  ("two runs' thread 0", both["thread"]["0"], both)]:
    if json.dumps(a["percentiles_ci"]) != json.dumps(b["percentiles_ci"]):
        sys.exit("%s: %s, want %s" % (key, b["percentiles_ci"], a["percentiles_ci"]))
PY
	fail "one-thread merge: $(cat "$WORK/one.diag")"

# The same run twice: the same file, a copy, the same run id (an edited
# copy; a merge, whose environment is its first input's, with that input):
# refused.
cp "$WORK/a.json" "$WORK/copy.json"
sed 's/"file_version": 1/"file_version": 1, "edited": 1/' "$WORK/a.json" >"$WORK/edited.json"
for case in "a.json a.json|the same file" "a.json copy.json|the same content" \
	"a.json edited.json|the same run id" "ab.json a.json|the same run id"; do
	set -- ${case%|*}
	report merge "$WORK/$1" "$WORK/$2" -o "$WORK/twice.json"
	expect_exit 2
	expect_text "$ERR" "rt-latency-report: '$WORK/$1' and '$WORK/$2' are one run (${case#*|}): merged, its samples would count twice"
	[ ! -e "$WORK/twice.json" ] || fail "merge $case: output written"
done

# Verdicts and times (synthetic): a failed input fails the merge, which
# names it; return_code is the highest; the times span the inputs'.
python3 "$HELPERS/synth_result.py" "$WORK/v1.json" start=1700000000 duration=60 verdict=pass
python3 "$HELPERS/synth_result.py" "$WORK/v2.json" start=1700000500 duration=10 verdict=fail rc=3
python3 "$HELPERS/synth_result.py" "$WORK/v3.json" start=1699999000 duration=10 host=other
for set in "v1 v3|0|pass" "v1 v2 v3|3|fail"; do
	set -- ${set%%|*}
	files=""
	for f; do files="$files $WORK/$f.json"; done
	# shellcheck disable=SC2086
	report merge $files -o "$WORK/v.json"
	expect_exit 0
	python3 - "$WORK/v.json" "${set#*|}" >"$WORK/v.diag" 2>&1 <<'PY' || fail "verdicts ($set): $(cat "$WORK/v.diag")"
import json, sys
d = json.load(open(sys.argv[1]))
rc, result = sys.argv[2].split("|")
ins = [json.load(open(e["file"])) for e in d["inputs"]]
if d["return_code"] != int(rc) or d["verdict"]["result"] != result:
    sys.exit("return_code %s verdict %s" % (d["return_code"], d["verdict"]))
bad = [e["file"] for e, i in zip(d["inputs"], ins) if i["return_code"] or i.get("verdict", {}).get("result", "pass") != "pass"]
if d["verdict"]["failed_inputs"] != bad:
    sys.exit("failed_inputs %s, want %s" % (d["verdict"]["failed_inputs"], bad))
for e, i in zip(d["inputs"], ins):
    want = (i["return_code"], i.get("verdict", {}).get("result"), i["start_time"], i["end_time"], i["cmdline:"])
    if (e["return_code"], e["verdict"], e["start_time"], e["end_time"], e["cmdline"]) != want:
        sys.exit("inputs entry %s, want %s" % (e, want))
from email.utils import parsedate_to_datetime as p
if p(d["start_time"]) != min(p(i["start_time"]) for i in ins) or p(d["end_time"]) != max(p(i["end_time"]) for i in ins):
    sys.exit("times %s .. %s" % (d["start_time"], d["end_time"]))
PY
done

# Runs of 500 and 1500 cycles (synthetic: the figures are known): every
# entry of "inputs" is its own file's, whichever is the template.
python3 "$HELPERS/synth_result.py" "$WORK/s500.json" threads=2 cycles=500 base=10 spread=40 start=1700000000
python3 "$HELPERS/synth_result.py" "$WORK/s1500.json" threads=2 cycles=1500 base=30 spread=90 start=1700000100
for order in "s500 s1500" "s1500 s500"; do
	# shellcheck disable=SC2086
	set -- $order
	report merge "$WORK/$1.json" "$WORK/$2.json" -o "$WORK/s.json"
	expect_exit 0
	check_merge "$WORK/s.json" "$WORK/$1.json" "$WORK/$2.json"
done
python3 - "$WORK/s.json" >"$WORK/s.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/s.diag")"
import json, sys
e = json.load(open(sys.argv[1]))["inputs"]
if [x["cycles"] for x in e] != [[1500, 1500], [500, 500]] or [x["max"] for x in e] != [[120, 121], [50, 51]]:
    sys.exit("inputs: %s" % e)
PY

run_json "$WORK/p.json" pmqtest -t 2 -l 300
sleep 1
run_json "$WORK/q.json" pmqtest -t 2 -l 200
report merge "$WORK/p.json" "$WORK/q.json" -o "$WORK/pq.json"
expect_exit 0
check_merge "$WORK/pq.json" "$WORK/p.json" "$WORK/q.json"

# Bad inputs: nothing written.
python3 - "$WORK/a.json" "$WORK/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["start_time"] = "Tue, 14 Nov 2023 22:13:20 +0000"  # another run
d["environment"]["run_id"] = "another-run"
for t in d["thread"].values():
    t.pop("latency_histogram", None)
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["start_time"] = "Tue, 14 Nov 2023 22:13:20 +0000"
d["environment"]["run_id"] = "another-run"
d["thread"]["0"]["latency_histogram"]["buckets"]["257"] = 1  # inside bucket 256..257
json.dump(d, open(sys.argv[2].replace("old", "badkey"), "w"))
PY
echo "not json" >"$WORK/bad.json"
for case in "2|$WORK/a.json $WORK/p.json|not results of the same tool" \
	"2|$WORK/a.json $WORK/old.json|no latency_histogram of the log-linear layout" \
	"2|$WORK/a.json $WORK/badkey.json|thread 0: bucket '257' is not a bucket of the layout" \
	"1|$WORK/bad.json $WORK/a.json|cannot read"; do
	want=${case%%|*}
	rest=${case#*|}
	files=${rest%%|*}
	msg=${rest#*|}
	# shellcheck disable=SC2086
	report merge $files -o "$WORK/out.json"
	expect_exit "$want"
	expect_match "$ERR" "$msg"
	[ ! -e "$WORK/out.json" ] || fail "merge $files: output written"
done
report merge "$WORK/a.json"
expect_exit 2
expect_match "$ERR" 'merge needs -o OUT.json'
finish
