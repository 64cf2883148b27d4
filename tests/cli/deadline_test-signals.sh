#!/bin/sh
# Proves: SIGINT and SIGTERM end a deadline_test run early with the whole
# report (2.4 died with 130/143 and lost its buffered output): every
# thread's block, the verdict (--verdict) saying "partial: stopped by
# SIG... after T of 60 s", the JSON with stopped_by and verdict.partial, an
# exit status that agrees with the verdict; no thread is left (the process
# is gone); a signal during the calibration also ends in a report, and
# nothing measured is never a PASS; a stopped run is never a PASS either
# (INCONCLUSIVE, exit 4, unless a miss FAILs it); a thread still waiting for
# its first period when the signal comes is INCONCLUSIVE, not FAIL.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_native
need_python3

# start_run OPTIONS...: a 60 s run with OPTIONS in the background until its
# threads run ($pid).
# Its setup tries each thread's work at SCHED_FIFO 99 and gives up when a
# loaded VM keeps overrunning the runtime, and other tests' SCHED_DEADLINE
# threads may hold the bandwidth (exit 1 before any thread runs): up to
# five starts, 2 s apart, each failed one's reason in the log.
start_run() {
	for _try in 1 2 3 4 5; do
		rm -f "$WORK/out.json"
		"$(tool deadline_test)" --no-preflight "$@" -D 60 --verdict \
			--json="$WORK/out.json" >"$OUT" 2>"$ERR" </dev/null &
		pid=$!
		_w=0
		while ! grep -qs '^thread\[' "$OUT" && kill -0 "$pid" 2>/dev/null && [ "$_w" -lt 300 ]; do
			sleep 0.1
			_w=$((_w + 1))
		done
		# (kill -0 also finds a child that has ended but is not reaped yet)
		grep -qs '^thread\[' "$OUT" && return 0
		kill -KILL "$pid" 2>/dev/null
		_rc=0
		wait "$pid" || _rc=$?
		echo "start $_try ended before the threads ran (exit $_rc): $(cat "$ERR")" >&2
		sleep 2
	done
	fail "no run started in five tries"
	finish
}

for sig in INT TERM; do
	start_run -i 20000 -p 20 -t 2 -P 50
	sleep 0.5
	kill -"$sig" "$pid"
	RC=0
	wait "$pid" || RC=$?
	# stopped early: INCONCLUSIVE (4), or FAIL (3) on a miss already seen
	[ "$RC" -eq 4 ] || [ "$RC" -eq 3 ] || fail "SIG$sig: exit $RC"
	kill -0 "$pid" 2>/dev/null && fail "SIG$sig: still running"
	[ "$(grep -c '^missed deadlines  = ' "$OUT")" -eq 2 ] || fail "SIG$sig: not two thread blocks"
	expect_match "$OUT" '^# Verdict: (INCONCLUSIVE|FAIL)$'
	expect_match "$OUT" "^# Verdict: partial: stopped by SIG$sig after [0-9.]+ of 60 s\$"
	python3 - "$WORK/out.json" "$RC" "SIG$sig" <<'PY' || fail "SIG$sig: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stopped_by"] == sys.argv[3], d["stopped_by"]
assert d["return_code"] == int(sys.argv[2])
assert d["num_threads"] == 2 and len(d["thread"]) == 2
v = d["verdict"]
assert v["partial"] is True and v["stop"]["cause"] == sys.argv[3], v
assert 0 < v["stop"]["done"] < 60 and v["stop"]["asked"] == 60, v["stop"]
PY
	check_schema "$WORK/out.json" deadline_test
done

# A 4 s period: the thread waits for its first one (it yields at the start)
# when SIGINT stops the run; it has proven nothing either way: INCONCLUSIVE
# and partial, not FAIL, exit 4.
# A try whose SIGINT came later than a loaded machine's first period is
# done again.
for _try in 1 2 3; do
	start_run -i 4000000 -p 1 -t 1
	kill -INT "$pid"
	RC=0
	wait "$pid" || RC=$?
	grep -q '^nr_periods : 0$' "$OUT" && break
	echo "try $_try: the thread completed a period before SIGINT (exit $RC): again"
done
if grep -q '^nr_periods : 0$' "$OUT"; then
	expect_exit 4
	expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
	expect_match "$OUT" '^# Verdict: thread 0: no period completed$'
	expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT after [0-9.]+ of 60 s$'
	expect_no_match "$OUT" '^# Verdict: (PASS|FAIL)$'
	python3 - "$WORK/out.json" <<'PY' || fail "no period: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdict"]
assert d["return_code"] == 4 and d["stopped_by"] == "SIGINT", d["stopped_by"]
assert v["result"] == "inconclusive" and v["partial"] is True, v
assert [b.get("result") for b in v["broken"]] == ["inconclusive"], v["broken"]
PY
	check_schema "$WORK/out.json" deadline_test
else
	fail "no period: the thread completed one before SIGINT in 3 tries"
fi

# -D 0 runs until the signal (as cyclictest -D 0): its end, not a partial run.
"$(tool deadline_test)" --no-preflight -i 20000 -p 5 -t 1 -D 0 --verdict --json="$WORK/d0.json" \
	>"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 2
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] || fail "-D 0: exit $RC: $(head -c 300 "$ERR")"
if grep -qs '^thread\[' "$OUT"; then
	expect_no_match "$OUT" '^# Verdict: partial'
	python3 - "$WORK/d0.json" <<'PY' || fail "-D 0: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["duration_s"] == 0 and d["stopped_by"] == "SIGINT", d["stopped_by"]
v = d["verdict"]
assert v["partial"] is False and v["stop"]["cause"] == "completed" and v["stop"]["asked"] is None, v
PY
	check_schema "$WORK/d0.json" deadline_test
else
	echo "-D 0: the threads did not start within 2 s on this machine: $(cat "$ERR")"
fi

# At once (during the calibration): still a report, and nothing was measured: not a PASS.
"$(tool deadline_test)" --no-preflight -i 20000 -p 5 -t 1 -D 60 --verdict >"$OUT" 2>"$ERR" </dev/null &
pid=$!
kill -TERM "$pid"
RC=0
wait "$pid" || RC=$?
if [ "$RC" -eq 143 ]; then
	# the signal came before the tool blocked it: the default action, no report
	:
else
	# the pending signal ends the run as soon as the thread starts: judged on
	# what it ran (PASS only with a period completed, and partial) or on nothing
	if grep -q '^nr_periods : 0$' "$OUT"; then
		expect_exit 4
		expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
		expect_match "$OUT" '^# Verdict: thread 0: .*no period completed'
	else
		expect_match "$OUT" '^# Verdict: partial: stopped by SIGTERM after [0-9.]+ of 60 s$'
	fi
fi
finish
