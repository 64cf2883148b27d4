#!/bin/sh
# Proves (with --load=none, which starts no load): rt-qualify's verdict is
# its tools' verdicts: a limit no machine
# meets (--max-latency=1) is NOT FIT, exit 3, with the failing steps named
# in summary.json and stdout; a limit none can break is FIT, exit 0; the --metrics
# file says the same to Prometheus. (An unprovable claim: rt-qualify-unproven.sh.)
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$top_srcdir/tests/helpers/rt_qualify_check.py"

run_tool_timeout 90 rt-qualify -D 3 --load=none --max-latency=1 -o "$WORK/fail" \
	--metrics="$WORK/fail.prom"
expect_exit 3
python3 "$CHECK" "$WORK/fail" --result fail --steps-run 3 >"$WORK/diag" 2>&1 ||
	fail "failing limit: $(cat "$WORK/diag")"
expect_match "$OUT" '^Verdict: NOT FIT \(FAIL\)$'
expect_match "$OUT" '^  cyclictest: FAIL, max [0-9]+ us \(limit 1 us\)$'
expect_match "$WORK/fail.prom" '^rt_qualify_verdict\{kernel="[^"]*",result="fail"\} 0$'
expect_match "$WORK/fail.prom" '^rt_qualify_step_max_latency_seconds\{step="cyclictest",tool="cyclictest",result="fail"\} [0-9.]+$'

run_tool_timeout 90 rt-qualify -D 3 --load=none --max-latency=3600000000 -o "$WORK/pass" \
	--metrics="$WORK/pass.prom"
expect_exit 0
python3 "$CHECK" "$WORK/pass" --result pass --steps-run 3 >"$WORK/diag" 2>&1 ||
	fail "passing limit: $(cat "$WORK/diag")"
expect_match "$OUT" '^Verdict: FIT \(PASS\)$'
python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["load"]; sys.exit(l["name"] != "none" or l["started"] or l["cpu_s"] is not None)' \
	"$WORK/pass/summary.json" || fail "--load=none: a load started"
expect_no_match "$OUT" '^load: '
expect_match "$WORK/pass.prom" '^rt_qualify_verdict\{kernel="[^"]*",result="pass"\} 1$'

finish
