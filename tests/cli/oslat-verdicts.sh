#!/bin/sh
# Proves the verdict both ways on real runs: a limit no gap can reach
# passes (exit 0, "# Verdict: PASS", JSON verdict), --max-latency=0 fails
# (every gap is at least 1 us by 2.4's labels: exit 3, the CPU named, JSON
# return_code 3); and -T keeps 2.4's two stderr lines and exit 1 but now
# also the summary and the JSON (the global tracing_on is put back).
# test-holds: global-tracing
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3

run_tool_timeout 15 oslat -q -c 0 -D 1 --max-latency=3600000000 --max-percentile=50:3600000000 \
	--json="$WORK/p.json" --no-preflight
expect_exit 0
expect_match "$OUT" '^# Verdict: PASS$'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]["result"] == "pass" and d["return_code"] == 0, d["verdict"]' \
	"$WORK/p.json" || fail "PASS: JSON verdict"

run_tool_timeout 15 oslat -q -c 0 -D 1 --max-latency=0 --json="$WORK/f.json" --no-preflight
expect_exit 3
expect_match "$OUT" '^# Verdict: FAIL'
expect_match "$OUT" '^# Verdict: thread 0: max-latency: [0-9]+ > 0 us$'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]["result"] == "fail" and d["return_code"] == 3' \
	"$WORK/f.json" || fail "FAIL: JSON verdict"
check_schema "$WORK/p.json" oslat
check_schema "$WORK/f.json" oslat

# Issue 29: stray words are a usage error (2.4 ignored them; no harness passes one).
run_tool oslat -D 1 junk
expect_exit 2
expect_empty_stdout
expect_match "$ERR" "^oslat: unexpected argument 'junk'$"
# -D 0 is refused, as 2.4 refused it ("Illegal runtime").
run_tool oslat -D 0
expect_exit 2

# Stopped in the middle of -D 10: judged on what it measured, partial;
# nothing broken, but the run not proven: INCONCLUSIVE, exit 4.
"$(tool oslat)" -q -c 0 -D 10 --verdict --no-preflight --json="$WORK/s.json" \
	>"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 2.5
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_exit 4
[ "$(grep '^# Verdict' "$OUT" | sed 's/after [0-9.]* of/after T of/')" = "# Verdict: INCONCLUSIVE
# Verdict: partial: stopped by SIGINT after T of 10 s" ] || fail "stopped: verdict lines: $(grep '^# Verdict' "$OUT")"
check_schema "$WORK/s.json" oslat
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d["verdict"]; assert d["return_code"] == 4 and v["result"] == "inconclusive" and v["broken"] == [] and v["partial"] and v["stop"]["cause"] == "SIGINT" and v["stop"]["asked"] == 10, v' \
	"$WORK/s.json" || fail "stopped: JSON verdict"

# Stopped in the pre-heat, before anything was measured: never PASS; a
# thread that had no chance to measure proves nothing (INCONCLUSIVE).
"$(tool oslat)" -q -c 0 -D 10 --verdict --no-preflight --json="$WORK/e.json" \
	>"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 0.3
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_exit 4
expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
expect_match "$OUT" '^# Verdict: thread 0: no samples, nothing was measured$'
expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT after 0 of 10 s$'
check_schema "$WORK/e.json" oslat
python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; assert v["result"] == "inconclusive" and v["partial"] and [b.get("result") for b in v["broken"]] == ["inconclusive"], v' \
	"$WORK/e.json" || fail "stopped in the pre-heat: JSON verdict"

need_tracefs
restore_tracing_on_at_exit
run_tool_timeout 15 oslat -q -c 0 -D 10 -T 1 --json="$WORK/t.json" --no-preflight
expect_exit 1
expect_match "$ERR" '^INFO: debugfs mountpoint: /.*/$'
expect_match "$ERR" '^oslat: Trace threshold \(1 us\) triggered on cpu 0 with [0-9]+ us!$'
expect_match "$ERR" '^Stopping the test\.$'
expect_match "$OUT" '^     Maximum:	 [0-9]+ \(us\)$'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["return_code"] == 1 and d["thread"]["0"]["samples"] >= 1' \
	"$WORK/t.json" || fail "-T: JSON"
finish
