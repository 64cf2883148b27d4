#!/bin/sh
# Proves: no hackbench worker outlives its parent: SIGKILL of hackbench in
# process mode, while it creates its workers or while they run, leaves no
# process of its session (2.4's workers ran on); SIGINT mid-run prints
# "signaling N worker threads to terminate" and the Time: of what was done,
# writes the JSON (stopped_by SIGINT) and exits 0, in process and thread mode
# (2.4 died with 130 in thread mode, printing nothing); -D runs rounds until
# SIGTERM or its end and reports them, in the text and the JSON alike.
# test-timeout: 180
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_cmd setsid
need_cmd ps
HB=$(tool hackbench)

# start_session ARGS...: hackbench in a session of its own; sets PID.
start_session() {
	start_in_session "$HB" --no-preflight "$@"
}

# SIGKILL while creating the workers, and once all 160 run.
start_session -g 4 -l 1000000
sleep 0.2
kill -KILL "$PID"
session_empties "$PID" "SIGKILL during start-up"
start_session -g 4 -l 1000000
for i in $(seq 1 200); do
	[ "$(session_members "$PID")" -ge 161 ] && break
	sleep 0.1
done
[ "$(session_members "$PID")" -ge 161 ] || fail "the 160 workers did not appear"
sleep 0.5
kill -KILL "$PID"
session_empties "$PID" "SIGKILL mid-run"

# The JSON files are checked at the end, in one Python start.
CHECKS=""
# SIGINT mid-run: retried later when it came before the workers were released.
sigint_run() { # MODE ARGS...
	_mode=$1
	shift
	for _wait in 1 3 6; do
		start_session -g 2 -f 5 -l 100000000 --json="$WORK/i.json" "$@"
		wait_signal_setup "$PID" hackbench
		sleep "$_wait"
		kill -INT "$PID"
		RC=0
		wait "$PID" || RC=$?
		grep -q 'No measurements available' "$ERR" || break
	done
	expect_exit 0
	expect_match "$OUT" '^signaling 20 worker threads to terminate$'
	expect_match "$OUT" '^Time: [0-9]+\.[0-9][0-9][0-9]$'
	cp "$OUT" "$WORK/$_mode.out"
	cp "$WORK/i.json" "$WORK/$_mode.json"
	CHECKS="$CHECKS $WORK/$_mode.json $WORK/$_mode.out $_mode socket 2 5 100000000 100 SIGINT"
	session_empties "$PID" "SIGINT $_mode"
}
sigint_run process
sigint_run threaded -T

# -D as a steady load, stopped by SIGTERM: rounds reported, promptly.
start_session -D 600 -g 1 -f 2 -l 20000 --json="$WORK/d.json"
wait_signal_setup "$PID" hackbench
sleep 2
kill -TERM "$PID"
t0=$(date +%s)
RC=0
wait "$PID" || RC=$?
[ $(($(date +%s) - t0)) -le 5 ] || fail "-D: $(($(date +%s) - t0)) s from SIGTERM to exit"
expect_exit 0
expect_match "$OUT" '^Rounds: [0-9]+ \([0-9]+ completed\), messages: [0-9]+, time: [0-9]+\.[0-9][0-9][0-9] s, [0-9]+ messages/s$'
cp "$OUT" "$WORK/d.out"
CHECKS="$CHECKS $WORK/d.json $WORK/d.out process socket 1 2 20000 100 SIGTERM"
session_empties "$PID" "-D SIGTERM"

# -D that ends by itself, in thread mode over pipes.
t0=$(date +%s)
run_tool_timeout 60 hackbench --no-preflight -T -p -D 1 -g 1 -f 2 -l 2000 --json="$WORK/e.json"
expect_exit 0
[ $(($(date +%s) - t0)) -ge 1 ] || fail "-D 1 ended after less than 1 s"
cp "$OUT" "$WORK/e.out"
CHECKS="$CHECKS $WORK/e.json $WORK/e.out threaded pipe 1 2 2000 100 duration"
# shellcheck disable=SC2086
python3 "$top_srcdir/tests/helpers/hackbench_check.py" $CHECKS >"$WORK/diag" 2>&1 ||
	fail "JSON: $(cat "$WORK/diag")"
finish
