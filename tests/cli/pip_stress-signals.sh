#!/bin/sh
# Proves: nothing of pip_stress outlives it. SIGINT and SIGTERM during the
# inversion (--no-pi, so that it lasts) kill the three processes, print
# "# Verdict: FAIL: stopped by SIG... before the high priority process got
# the mutex", write the JSON (return_code 1, stopped_by) and exit 1; a
# SIGKILL of pip_stress takes the three processes with it (2.4 left medium
# spinning at SCHED_FIFO 2 and high blocked); SIGINT at random moments of
# short runs always ends in PASS (0) or a stop (1) with no process left.
# The JSON of a stopped run says the medium process had not finished: the
# stop came before the end of --work (no timing bound on a loaded machine).
# Every run is in a session of its own, which must empty.
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
need_cmd setsid
need_cmd ps
need_cmd taskset
need_native
PS=$(tool pip_stress)
CPU0=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')

# members SID: processes left in the session (zombies not yet reaped by init count).
members() {
	ps -eo sid= | grep -c "^ *$1\$"
}

# start_session ARGS...: pip_stress as the leader of a new session; sets PID.
start_session() {
	rm -f "$WORK/pid"
	setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' _ "$WORK/pid" "$PS" --no-preflight "$@" \
		>"$OUT" 2>"$ERR" </dev/null &
	for _i in $(seq 1 100); do
		[ -s "$WORK/pid" ] && break
		sleep 0.05
	done
	PID=$(cat "$WORK/pid")
}

# no_one_left SID WHAT: the session empties within 10 s (then it is cleaned up).
no_one_left() {
	for _i in $(seq 1 100); do
		[ "$(members "$1")" -eq 0 ] && return 0
		sleep 0.1
	done
	fail "$2: $(members "$1") processes of the session still run"
	pkill -KILL -s "$1" 2>/dev/null
}

CHECKS=""
for sig in INT TERM; do
	start_session --no-pi --work=20000 --json="$WORK/$sig.json"
	wait_signal_setup "$PID" pip_stress
	sleep 0.5
	kill -"$sig" "$PID"
	RC=0
	wait "$PID" || RC=$?
	expect_exit 1
	expect_empty_stderr
	expect_text "$OUT" "# Verdict: FAIL: stopped by SIG$sig before the high priority process got the mutex"
	cp "$OUT" "$WORK/$sig.out"
	CHECKS="$CHECKS $WORK/$sig.json $WORK/$sig.out SIG$sig 500 20000 0 $CPU0"
	no_one_left "$PID" "SIG$sig"
done

# SIGKILL of pip_stress in the middle of the inversion.
start_session --no-pi --work=20000
sleep 0.5
[ "$(members "$PID")" -ge 4 ] || fail "SIGKILL: the three processes did not appear"
kill -KILL "$PID"
no_one_left "$PID" "SIGKILL mid-run"

# SIGINT at random moments of a short run: PASS or stopped, never a leftover.
for i in 1 2 3 4; do
	start_session --work=50
	sleep "0.0$(awk -v s="$$$i" 'BEGIN { srand(s); printf "%d", rand() * 10 }')"
	kill -INT "$PID" 2>/dev/null
	RC=0
	wait "$PID" || RC=$?
	case $RC in
	0) expect_match "$OUT" '^# Verdict: PASS$' ;;
	1) expect_match "$OUT" '^# Verdict: FAIL: stopped by SIGINT before the high priority process got the mutex$' ;;
	*) fail "SIGINT at a random moment: exit $RC: $(cat "$ERR")" ;;
	esac
	no_one_left "$PID" "SIGINT at a random moment ($i)"
done

# shellcheck disable=SC2086
python3 "$top_srcdir/tests/helpers/pip_check.py" $CHECKS >"$WORK/diag" 2>&1 ||
	fail "JSON: $(cat "$WORK/diag")"
finish
