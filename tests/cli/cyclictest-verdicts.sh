#!/bin/sh
# Proves cyclictest's verdicts: a limit far below any latency FAILs with exit
# 3 and one line per thread naming the limit, the value and the bound, after
# the unchanged 2.4 summary; generous limits PASS with exit 0 (a p99.9999
# of 200 samples only with --percentile-claim=point: by default it is
# INCONCLUSIVE, exit 4, needing 3688678 more samples); the JSON carries
# the same verdict and return code; bad limit forms are usage errors (exit
# 2). Runs stopped by a signal: cyclictest-verdicts-stopped.sh.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
rt_or_other

# Far below: every thread's max is at least 1 us.
run_tool_timeout 30 cyclictest -q $MLOCK -p $PRIO -t 2 -i 1000 -l 200 --max-latency=0 \
	--max-percentile=50:0 --json="$WORK/f.json"
expect_exit 3
check_summary "$OUT" 2 200
sed -n '1,/^T: 1 /d;p' "$OUT" >"$WORK/after"
cat >"$WORK/after.re" <<'RE'
# Verdict: FAIL
# Verdict: thread 0: max-latency: [1-9][0-9]* > 0 us
# Verdict: thread 0: max-percentile=50: [1-9][0-9]* > 0 us
# Verdict: thread 1: max-latency: [1-9][0-9]* > 0 us
# Verdict: thread 1: max-percentile=50: [1-9][0-9]* > 0 us
RE
compare_regex "$WORK/after" "$WORK/after.re"
check_json "$WORK/f.json" 2 "$OUT"
check_schema "$WORK/f.json" cyclictest
python3 - "$WORK/f.json" "$OUT" <<'PY' || fail "verdict json disagrees with the text"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["return_code"] == 3, d["return_code"]
v = d["verdict"]
assert v["result"] == "fail"
text = [l for l in open(sys.argv[2]) if l.startswith("# Verdict: thread")]
assert len(text) == len(v["broken"]) == 4, (text, v)
for line, b in zip(text, v["broken"]):
    assert line == "# Verdict: thread %d: %s: %d > %d us\n" % (
        b["thread"], b["limit"], b["value"], b["bound"]), (line, b)
    t = d["thread"][str(b["thread"])]
    want = t["max"] if b["limit"] == "max-latency" else t["percentiles"]["p50"]
    assert b["value"] == want, (b, want)
PY

# Generous: PASS, exit 0, the verdict the last line after the 2.4 summary
# (p99.9999 of 200 samples: on the point estimate, --percentile-claim=point).
run_tool_timeout 30 cyclictest -q $MLOCK -p $PRIO -t 2 -i 1000 -l 200 \
	--max-latency=3600000000 --max-percentile=99.9999:3600000000 --max-overruns=1000000 \
	--percentile-claim=point
expect_exit 0
check_summary "$OUT" 2 200
[ "$(tail -n 1 "$OUT")" = "# Verdict: PASS" ] || fail "last line: $(tail -n 1 "$OUT")"
[ "$(grep -c '^# Verdict' "$OUT")" -eq 1 ] || fail "more than one verdict line"

# The default, proven reading: 200 samples cannot bound a p99.9999 from
# above (3688878 needed), however generous the limit: INCONCLUSIVE, exit 4,
# the estimate being the samples that bound it. The lenient reading passed above.
run_tool_timeout 30 cyclictest -q $MLOCK -p $PRIO -i 1000 -l 200 \
	--max-percentile=99.9999:3600000000 --json="$WORK/i.json"
expect_exit 4
sed -n '/^# Verdict/p' "$OUT" >"$WORK/inc"
cat >"$WORK/inc.re" <<'RE'
# Verdict: INCONCLUSIVE
# Verdict: thread 0: max-percentile=99\.9999: INCONCLUSIVE: [0-9]+ us, 95 % CI [0-9]+-\?, need 3688678 more samples, 3688878 in all
RE
compare_regex "$WORK/inc" "$WORK/inc.re"
python3 - "$WORK/i.json" <<'PY' || fail "json of an inconclusive run"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["return_code"] == 4
v = d["verdict"]
assert v["result"] == "inconclusive", v
b, = v["broken"]
assert b["result"] == "inconclusive" and b["high"] is None and b["more_samples"] == 3688678, b
assert b["samples_needed"] == 3688878, b
assert b["low"] == d["thread"]["0"]["percentiles_ci"]["p99.9999"]["low"], b
assert v["checked"] == [{"what": "samples", "count": 200}] and v["partial"] is False, v
PY
check_schema "$WORK/i.json" cyclictest

# Issue 29: an INCONCLUSIVE percentile needs what rt-latency-report plan says
# (36887 samples for p99.99), never "1 more": 480 samples need 36407 more
# (the bound an hour away: a loaded machine's latency cannot break it).
run_tool_timeout 30 cyclictest -q $MLOCK -p $PRIO -i 1000 -l 480 \
	--max-percentile=99.99:3600000000 --json="$WORK/p.json"
expect_exit 4
expect_match "$OUT" '^# Verdict: thread 0: max-percentile=99\.99: INCONCLUSIVE: .*, need 36407 more samples, 36887 in all$'
"$top_builddir/src/rt-latency-report/rt-latency-report" plan --percentile=99.99 >"$WORK/plan" 2>&1 &&
	expect_match "$WORK/plan" '^Samples: 36887 '
check_schema "$WORK/p.json" cyclictest

# --verdict without a limit: judged (every thread measured), PASS, exit 0;
# the JSON has the verdict with or without it.
run_tool_timeout 30 cyclictest -q $MLOCK -p $PRIO -t 2 -i 1000 -l 50 --verdict \
	--json="$WORK/v.json"
expect_exit 0
[ "$(tail -n 1 "$OUT")" = "# Verdict: PASS" ] || fail "--verdict: $(tail -n 1 "$OUT")"
check_schema "$WORK/v.json" cyclictest

# No limit: no verdict line, exit 0 (nothing changes without the options);
# the JSON has the verdict all the same.
run_tool_timeout 30 cyclictest -q $MLOCK -p $PRIO -i 1000 -l 50 --json="$WORK/n.json"
expect_exit 0
expect_no_match "$OUT" '^# (Verdict|P[0-9])'
check_schema "$WORK/n.json" cyclictest
python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; assert v["result"] == "pass" and v["checked"][0]["count"] == 50, v' \
	"$WORK/n.json" || fail "no limit: JSON verdict"

# Bad forms: one line naming the option and what it accepts, exit 2, no file.
for bad in --max-percentile=99.9 --max-percentile=101:5 --max-percentile=99.99999:5 \
	--max-latency=-1 --max-overruns=x --warmup=1.5; do
	run_tool cyclictest -q -l 1 --json="$WORK/bad.json" "$bad"
	expect_exit 2
	[ "$(wc -l <"$ERR")" -eq 2 ] || fail "$bad: $(cat "$ERR")"
	expect_match "$ERR" "^cyclictest: invalid ${bad%%=*} "
	expect_match "$ERR" "^cyclictest: invalid --[a-z-]+ '[^']*': must be"
	[ ! -e "$WORK/bad.json" ] || fail "$bad: --json file written"
done
finish
