#!/bin/sh
# Proves: one hackbench worker killed (SIGKILL of a worker process) ends
# the run as an error, exit 1, the worker named on stderr, and with
# --verdict as a FAIL, never a PASS (it printed "# Verdict: PASS" before):
# "# Verdict: FAIL", the "workers" line, the partial line; the JSON says
# return_code 1, result fail, partial with the cause "error: a worker
# failed", and validates; no process of the run is left.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
HB=$(tool hackbench)

start_in_session "$HB" --no-preflight -g 1 -f 2 -l 100000000 --verdict --json="$WORK/k.json"
wait_signal_setup "$PID" hackbench
# 1 group of 2 senders and 2 receivers: four worker processes
for _i in $(seq 1 200); do
	[ "$(pgrep -P "$PID" | wc -l)" -ge 4 ] && break
	sleep 0.05
done
w=$(pgrep -P "$PID" | head -n 1)
[ -n "$w" ] || fail "no worker process appeared"
kill -KILL "$w"
RC=0
wait "$PID" || RC=$?
expect_exit 1
expect_match "$ERR" "^hackbench: (sender|receiver) [0-9]+ \\(pid $w\\) killed by signal 9"
expect_match "$OUT" '^# Verdict: FAIL$'
expect_match "$OUT" '^# Verdict: workers: a worker failed: not every group ran \(its error is on stderr\)$'
expect_match "$OUT" '^# Verdict: partial: stopped by error: a worker failed'
expect_no_match "$OUT" 'PASS'
python3 - "$WORK/k.json" <<'PY' || fail "JSON of the killed worker's run"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdict"]
assert d["return_code"] == 1, d["return_code"]
assert v["result"] == "fail" and v["partial"] is True, v
assert v["stop"]["cause"] == "error: a worker failed", v["stop"]
assert [b["limit"] for b in v["broken"]] == ["workers"], v["broken"]
PY
check_schema "$WORK/k.json" hackbench
session_empties "$PID" "a killed worker"
finish
