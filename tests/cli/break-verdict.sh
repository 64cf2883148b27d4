#!/bin/sh
# Proves: a run that a break threshold stopped (cyclictest and the pair
# tools' -b, oslat's -T) is never a PASS. With a limit or --verdict it is
# a FAIL naming the series and the threshold, and partial with the cause
# "break"; with nothing asked stdout keeps 2.4's bytes (no Verdict line,
# exit 0) while the JSON's verdict still says fail, so no reader shows it
# as PASS.
# test-holds: global-tracing
. "$top_srcdir/tests/cli/lib.sh"
need_rt
restore_tracing_on_at_exit

# verdict_json FILE: "RESULT PARTIAL CAUSE LIMIT" of FILE's verdict.
verdict_json() {
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["verdict"]
b = [x["limit"] for x in v["broken"]]
print(v["result"], v["partial"], v["stop"]["cause"], ",".join(b))' "$1"
}

# A latency of 1 us is crossed at once; -D 60 only bounds a run that is not.
J=$WORK/ct.json
run_tool_timeout 90 cyclictest -q -p 80 -t 1 -b 1 -D 60 --max-latency=100000000 --json="$J"
expect_exit 3
expect_match "$OUT" '^# Break value: [0-9]+$'
expect_match "$OUT" '^# Verdict: FAIL$'
expect_match "$OUT" '^# Verdict: thread 0: break: break threshold 1 us crossed: [0-9]+ us$'
expect_match "$OUT" '^# Verdict: partial: stopped by break after '
expect_no_match "$OUT" 'PASS'
[ "$(verdict_json "$J")" = "fail True break break" ] ||
	fail "cyclictest's JSON verdict: $(verdict_json "$J")"
check_schema "$J" cyclictest

# Nothing asked: 2.4's stdout and exit status, the JSON still no PASS.
run_tool_timeout 90 cyclictest -q -p 80 -t 1 -b 1 -D 60 --json="$J"
expect_exit 0
expect_no_match "$OUT" '^# Verdict'
[ "$(verdict_json "$J")" = "fail True break break" ] ||
	fail "cyclictest's JSON verdict with nothing asked: $(verdict_json "$J")"

J=$WORK/pt.json
run_tool_timeout 90 ptsematest -q -t 1 -b 1 -D 60 --verdict --json="$J"
expect_exit 3
expect_match "$OUT" '^# Verdict: FAIL$'
expect_match "$OUT" '^# Verdict: pair 0 \(#1 -> #0\): break: break threshold 1 us crossed: [0-9]+ us$'
expect_no_match "$OUT" 'PASS'
[ "$(verdict_json "$J")" = "fail True break break" ] ||
	fail "ptsematest's JSON verdict: $(verdict_json "$J")"

# oslat -T keeps 2.4's exit status 1; its verdict is the break's FAIL.
J=$WORK/os.json
run_tool_timeout 90 oslat -D 60 -T 1 --verdict --json="$J"
expect_exit 1
expect_match "$OUT" '^# Verdict: FAIL$'
expect_match "$OUT" '^# Verdict: cpu [0-9]+: break: break threshold 1 us crossed: [0-9]+ us$'
# (a break in the first microseconds may leave a CPU with no samples too)
case $(verdict_json "$J") in
"fail True break break" | "fail True break break,"*) ;;
*) fail "oslat's JSON verdict: $(verdict_json "$J")" ;;
esac
finish
