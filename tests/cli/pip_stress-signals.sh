#!/bin/sh
# Proves: nothing of pip_stress outlives it. SIGINT and SIGTERM during the
# inversion (--no-pi, so that it lasts) kill the three processes, write
# the JSON (stopped_by; the verdict INCONCLUSIVE, partial: a stop is no
# FAIL, and nothing was decided before it) and exit 0; with --verdict
# "# Verdict: INCONCLUSIVE" and the partial line, exit 4; a
# SIGKILL of pip_stress takes the three processes with it (2.4 left medium
# spinning at SCHED_FIFO 2 and high blocked); SIGINT at random moments of
# short runs always ends in PASS or a stop (exit 4 with --verdict) with no
# process left.
# The JSON of a stopped run says the medium process had not finished: the
# stop came before the end of --work (no timing bound on a loaded machine).
# Every run is in a session of its own, which must empty.
# test-timeout: 180
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
need_cmd setsid
need_cmd ps
need_cmd taskset
need_native
PS=$(tool pip_stress)
CPU0=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')

# start_session ARGS...: pip_stress in a session of its own; sets PID.
start_session() {
	start_in_session "$PS" --no-preflight "$@"
}

CHECKS=""
for sig in INT TERM; do
	if [ $sig = INT ]; then
		start_session --no-pi --work=20000 --json="$WORK/$sig.json"
	else
		start_session --no-pi --work=20000 --verdict --json="$WORK/$sig.json"
	fi
	wait_signal_setup "$PID" pip_stress
	sleep 0.5
	kill -"$sig" "$PID"
	RC=0
	wait "$PID" || RC=$?
	expect_empty_stderr
	if [ $sig = INT ]; then
		expect_exit 0
		expect_empty_stdout
	else
		expect_exit 4
		expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
		expect_match "$OUT" "^# Verdict: partial: stopped by SIG$sig"
	fi
	check_schema "$WORK/$sig.json" pip_stress
	cp "$OUT" "$WORK/$sig.out"
	CHECKS="$CHECKS $WORK/$sig.json $WORK/$sig.out SIG$sig 500 20000 0 $CPU0"
	session_empties "$PID" "SIG$sig"
done

# SIGKILL of pip_stress in the middle of the inversion.
start_session --no-pi --work=20000
sleep 0.5
[ "$(session_members "$PID")" -ge 4 ] || fail "SIGKILL: the three processes did not appear"
kill -KILL "$PID"
session_empties "$PID" "SIGKILL mid-run"

# SIGINT at random moments of a short run: PASS or stopped, never a leftover.
for i in 1 2 3 4; do
	start_session --work=50 --verdict
	sleep "0.0$(awk -v s="$$$i" 'BEGIN { srand(s); printf "%d", rand() * 10 }')"
	kill -INT "$PID" 2>/dev/null
	RC=0
	wait "$PID" || RC=$?
	case $RC in
	0) expect_match "$OUT" '^# Verdict: PASS$' ;;
	4) expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
	   expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT' ;;
	*) fail "SIGINT at a random moment: exit $RC: $(cat "$ERR")" ;;
	esac
	session_empties "$PID" "SIGINT at a random moment ($i)"
done

# shellcheck disable=SC2086
python3 "$top_srcdir/tests/helpers/pip_check.py" $CHECKS >"$WORK/diag" 2>&1 ||
	fail "JSON: $(cat "$WORK/diag")"
finish
