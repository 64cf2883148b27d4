#!/bin/sh
# Proves: the verdict both ways on real runs: --max-latency of an hour
# passes (exit 0, "# Verdict: PASS"), --max-latency=0 fails (a wakeup is
# never 0 us late everywhere: exit 3, "# Verdict: FAIL", the JSON's verdict
# and return_code 3); --percentiles prints its lines after 2.4's.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
CD=$(tool cyclicdeadline)

cd_run() {
	for _try in 1 2 3 4 5; do
		RC=0
		timeout -k 2 30 "$CD" --no-preflight "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
		{ [ "$RC" -eq 1 ] && grep -q '(EBUSY)' "$ERR"; } || return 0
		sleep 1
	done
}

cd_run -q -i 10000 -D 1 --max-latency=3600000000 --percentiles --json="$WORK/pass.json"
expect_exit 0
expect_match "$OUT" '^# Verdict: PASS$'
expect_match "$OUT" '^# P99 Latencies: [0-9]+$'
tail -n 1 "$OUT" | grep -q '^# Verdict: PASS$' || fail "PASS: not the last line"

cd_run -q -i 10000 -D 1 --max-latency=0 --json="$WORK/fail.json"
expect_exit 3
expect_match "$OUT" '^# Verdict: FAIL'
expect_match "$OUT" '^# Verdict: thread 0: max-latency: [0-9]+ > 0 us$'
python3 - "$WORK/pass.json" "$WORK/fail.json" <<'PY' || fail "JSON verdicts"
import json, sys
p = json.load(open(sys.argv[1]))
f = json.load(open(sys.argv[2]))
assert p["return_code"] == 0 and p["verdict"]["result"] == "pass", p["verdict"]
assert f["return_code"] == 3 and f["verdict"]["result"] == "fail", f["verdict"]
assert f["verdict"]["broken"][0]["limit"] == "max-latency", f["verdict"]
assert "p99" in p["thread"]["0"]["percentiles"]
PY
check_schema "$WORK/pass.json" cyclicdeadline
check_schema "$WORK/fail.json" cyclicdeadline

# --verdict without a limit, stopped by SIGINT in the middle of -D 10: what it
# measured passed, but partial: INCONCLUSIVE, exit 4; no limit and no
# --verdict: no verdict line.
"$CD" --no-preflight -q -i 10000 -D 10 --verdict --json="$WORK/s.json" >"$OUT" 2>"$ERR" \
	</dev/null &
pid=$!
sleep 1.5
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
if grep -q '(EBUSY)' "$ERR"; then
	echo "note: SCHED_DEADLINE busy: the stopped case was not run"
else
	expect_exit 4
	expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
	expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT after [0-9.]+ of 10 s$'
	check_schema "$WORK/s.json" cyclicdeadline
fi
cd_run -q -i 10000 -D 1 --json="$WORK/n.json"
expect_exit 0
expect_no_match "$OUT" '^# Verdict'
check_schema "$WORK/n.json" cyclicdeadline
finish
