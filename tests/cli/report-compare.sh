#!/bin/sh
# Proves rt-latency-report compare: a run against itself passes (exit 0,
# every change +0.0%); a value grown by more than the tolerance fails
# (exit 3, its row marked, the change computed right) and passes with a
# larger --tolerance; a real run with a 20 ms block on the measured CPU
# fails against a quiet baseline; 2.4 JSON (no percentiles) compares its
# maxima, or with its -h histogram the percentiles that holds, as does
# cyclictest's -h text (recomputed here, equal to ours within 1 us
# buckets); a text cannot be merged; bad input: one line, exit 1
# (unreadable, neither JSON nor histogram text) or 2.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
RLR=$(tool rt-latency-report)
CT=$(tool cyclictest)
cp "$top_builddir/tests/helpers/spin" "$WORK/blocker"

report() {
	RC=0
	"$RLR" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

baseline() { # FILE
	"$CT" -q -m -p 80 -a 0 -t 1 -D 2 --no-preflight --json="$1" >/dev/null 2>&1 </dev/null ||
		fail "cyclictest for $1"
}

baseline "$WORK/base.json"
report compare "$WORK/base.json" "$WORK/base.json"
expect_exit 0
[ "$(grep -c '^[0-9a-z]* *p[0-9.]* .* +0.0%$\|^[0-9a-z]* *max .* +0.0%$' "$OUT")" -eq 10 ] ||
	fail "self-compare: not 10 rows of +0.0%: $(cat "$OUT")"
expect_match "$OUT" '^# Verdict: PASS$'

# p99.9 of thread 0 and overall grown by 50%, p50 by 5%.
python3 - "$WORK/base.json" "$WORK/grown.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in (d["thread"]["0"]["percentiles"], d["percentiles"]):
    p["p99.9"] = p["p99.9"] * 3 // 2 + 2
    p["p50"] = p["p50"] * 105 // 100
json.dump(d, open(sys.argv[2], "w"))
PY
report compare "$WORK/base.json" "$WORK/grown.json"
expect_exit 3
expect_match "$OUT" '^0 +p99\.9 +[0-9]+ +[0-9]+ +\+5[0-9]\.[0-9]%  worse$'
expect_match "$OUT" '^all +p99\.9 .*  worse$'
expect_no_match "$OUT" '^0 +p50 .*worse'
expect_match "$OUT" '^# Verdict: FAIL \(2 value\(s\) worse by more than 10%\)$'
report compare --tolerance=200 "$WORK/base.json" "$WORK/grown.json"
expect_exit 0

# A real 20 ms block on the measured CPU: worse than a quiet baseline (20 ms:
# beyond what a noisy VM adds by itself, several ms at most). Noise
# only adds latency: a noisy baseline may hide it, so that case is retried.
blocked_run() {
	baseline "$WORK/quiet.json"
	"$WORK/blocker" 0 20000 150 10 &
	bpid=$!
	"$CT" -q -m -p 80 -a 0 -t 1 -D 2 --no-preflight --json="$WORK/blocked.json" \
		>/dev/null 2>&1 </dev/null
	wait "$bpid"
	report compare "$WORK/quiet.json" "$WORK/blocked.json"
	[ "$RC" -eq 3 ] && grep -q '^0 *max .* worse$' "$OUT" && return 0
	# The baseline's own spike as bad as the block: noise, again.
	[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] && return 2
	cat "$ERR"
	return 1
}
retry_bound 4 blocked_run

# rt-tests 2.4's JSON has no percentiles: only the maxima compare.
python3 "$HELPERS/as_rt_tests_24.py" "$WORK/base.json" "$WORK/old.json"
report compare "$WORK/old.json" "$WORK/base.json"
expect_exit 0
expect_match "$OUT" '^0 +p99 +- +[0-9]+ +n/a$'
expect_match "$OUT" '^0 +max +[0-9]+ +[0-9]+ +\+0\.0%$'

# rt-tests 2.4's JSON with its -h histogram, and cyclictest's -h text: the
# percentiles their histograms hold (nearest rank, recomputed here), "-"
# where the rank falls beyond the histogram. The text, 2.4's JSON and ours
# of one run agree wherever both have a value below 256 us (1 us buckets).
"$CT" -q -m -p 80 -t 2 -i 500 -D 2 -h 60 --histfile="$WORK/h.txt" --no-preflight \
	--json="$WORK/h.json" >/dev/null 2>&1 </dev/null || fail "cyclictest -h run"
python3 "$HELPERS/as_rt_tests_24.py" "$WORK/h.json" "$WORK/h24.json"
for pair in "h.txt h24.json" "h24.json h.json" "h.txt h.json"; do
	# shellcheck disable=SC2086
	set -- $pair
	report compare "$WORK/$1" "$WORK/$2"
	python3 - "$OUT" "$WORK/h.txt" "$WORK/h.json" "$1" "$2" >"$WORK/hist.diag" 2>&1 <<'PY' ||
import json, sys
out, text, ours, base, run = sys.argv[1:]
lines = open(text).read().split("\n")
rows = [list(map(int, l.split())) for l in lines[lines.index("# Histogram") + 1:] if l and l[0] != "#"]
summ = {l.split(":")[0]: list(map(int, l.split(":")[1].split())) for l in lines
        if l.startswith(("# Max Latencies", "# Histogram Overflows"))}
def pct(counts, over, pm):
    total = sum(counts) + over
    rank = max(1, -(-total * pm // 1000000))
    seen = 0
    for v, n in enumerate(counts):
        seen += n
        if seen >= rank:
            return v
    return None
want = {}
cols = [[r[1 + i] for r in rows] for i in range(2)]
every = [a + b for a, b in zip(*cols)]
for who, counts, over, mx in (("0", cols[0], summ["# Histogram Overflows"][0], summ["# Max Latencies"][0]),
                              ("1", cols[1], summ["# Histogram Overflows"][1], summ["# Max Latencies"][1]),
                              ("all", every, sum(summ["# Histogram Overflows"][:2]), max(summ["# Max Latencies"][:2]))):
    for name, pm in (("p50", 500000), ("p99", 990000), ("p99.9", 999000), ("p99.99", 999900)):
        want[(who, name)] = pct(counts, over, pm)
    want[(who, "max")] = mx
d = json.load(open(ours))
for i in ("0", "1"):
    for name, v in d["thread"][i]["percentiles"].items():
        want[(i, name, "ours")] = v
for name, v in d["percentiles"].items():
    want[("all", name, "ours")] = v
errors, seen = [], 0
for line in open(out):
    f = line.split()
    if len(f) < 5 or f[0] not in ("0", "1", "all"):
        continue
    seen += 1
    key = (f[0], f[1])
    for col, src in ((2, base), (3, run)):
        if src == "h.json":
            exp = want.get((f[0], f[1], "ours"), want[key])
        else:
            exp = want[key]
        got = None if f[col] == "-" else int(f[col])
        if got != exp:
            errors.append("%s %s %s: %s, expected %s" % (src, f[0], f[1], f[col], exp))
    if f[2] != "-" and f[3] != "-" and int(f[2]) < 256 and int(f[3]) < 256 and f[4] != "+0.0%":
        errors.append("%s %s: %s -> %s differ within the exact range" % (f[0], f[1], f[2], f[3]))
if seen != 15 or errors:
    sys.exit("%d rows; %s" % (seen, "; ".join(errors[:4])))
PY
		fail "compare $pair: $(head -n 3 "$WORK/hist.diag")"
done
# Ranks at bucket boundaries: thread 0 one sample in each of 10..109 us,
# thread 1 99 samples at 5 us and one beyond the histogram (at 500 us).
{
	echo "# Histogram"
	v=0
	while [ "$v" -lt 120 ]; do
		a=0 b=0
		[ "$v" -ge 10 ] && [ "$v" -le 109 ] && a=1
		[ "$v" -eq 5 ] && b=99
		printf '%06d %06d\t%06d\n' "$v" "$a" "$b"
		v=$((v + 1))
	done
	echo "# Total: 000000100 000000099"
	echo "# Min Latencies: 00010 00005"
	echo "# Avg Latencies: 00059 00009"
	echo "# Max Latencies: 00109 00500"
	echo "# Histogram Overflows: 00000 00001"
} >"$WORK/ranks.txt"
report compare "$WORK/ranks.txt" "$WORK/ranks.txt"
expect_exit 0
sed -n 's/^\([0-9a-z]*\) *\(p[0-9.]*\|max\) *\([-0-9]*\) .*/\1 \2 \3/p' "$OUT" >"$WORK/ranks.got"
expect_text "$WORK/ranks.got" "0 p50 59
0 p99 108
0 p99.9 109
0 p99.99 109
0 max 109
1 p50 5
1 p99 5
1 p99.9 -
1 p99.99 -
1 max 500
all p50 10
all p99 108
all p99.9 -
all p99.99 -
all max 500"
report merge "$WORK/h.txt" "$WORK/h.json" -o "$WORK/hm.json"
expect_exit 2
expect_text "$ERR" "rt-latency-report: '$WORK/h.txt' is a histogram text: merge needs results in JSON"
[ ! -e "$WORK/hm.json" ] || fail "merge of a text wrote $WORK/hm.json"

# Bad input.
echo "not json" >"$WORK/bad.json"
echo '{"a": 1}' >"$WORK/other.json"
report compare "$WORK/bad.json" "$WORK/base.json"
expect_exit 1
expect_match "$ERR" "^rt-latency-report: cannot read '.*/bad.json': "
report compare "$WORK/missing.json" "$WORK/base.json"
expect_exit 1
report compare "$WORK/other.json" "$WORK/base.json"
expect_exit 2
expect_match "$ERR" "^rt-latency-report: '.*/other.json' is not a result of rt-tests-ng"
"$(tool pmqtest)" -q -l 20 --no-preflight --json="$WORK/pmq.json" >/dev/null 2>&1 </dev/null
report compare "$WORK/base.json" "$WORK/pmq.json"
expect_exit 2
expect_match "$ERR" 'are not results of the same tool in the same unit'
for args in "compare" "compare a" "compare --tolerance=-1 a b" "frob" "compare --bogus a b"; do
	# shellcheck disable=SC2086
	report $args
	expect_exit 2
	[ "$(wc -l <"$ERR")" -eq 2 ] || fail "$args: $(cat "$ERR")"
	expect_empty_stdout
done
report --help
expect_exit 0
expect_match "$OUT" '^rt-latency-report compare BASE.json RUN.json'
finish
