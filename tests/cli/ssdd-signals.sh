#!/bin/sh
# Proves: nothing outlives ssdd and a stopped run still reports its pairs.
# SIGINT and SIGTERM mid-run (and SIGINT to the whole process group, as
# Ctrl-C sends it, which reaches the tracees too) stop the pairs: each one
# still running gets its "STOPPED by SIG... after S of N steps" line, the
# final lines say PASS, the JSON has stopped_by and every pair's steps, the
# exit status is 0, and no tracer or tracee is left, running or stopped
# (2.4 died with 130/143 without a final line or JSON, its tracers went on).
# SIGINT at once after the start, and SIGKILL of ssdd during the start-up
# or mid-run, leave no process of its process group. A tracer killed by someone
# else is named: "pair 0: the tracer was killed by SIGKILL", exit 1.
# test-timeout: 180
. "$top_srcdir/tests/cli/lib.sh"
# In a sanitizer build, LeakSanitizer cannot stop a traced process (a
# tracee) or one whose ptrace a seccomp filter refuses: it hangs or exits
# 87. Leaks are not checked in ssdd's processes; the rest of ASan is.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
need_python3
need_cmd ps
need_native
SSDD=$(tool ssdd)

# members PGID: processes left in the process group (zombies included).
members() {
	ps -eo pgid= | grep -c "^ *$1\$"
}

# start_group ARGS...: ssdd as the leader of a new process group; sets PID.
# Not a new session: with the kernel's autogroup, a session of spinning
# tracees and single-stepping tracers starves the test's shell (a sleep 0.1
# took 30 s on a 2-CPU VM).
start_group() {
	python3 -c 'import os, sys; os.setpgid(0, 0); os.execv(sys.argv[1], sys.argv[1:])' \
		"$SSDD" --no-preflight "$@" >"$OUT" 2>"$ERR" </dev/null &
	PID=$!
	wait_signal_setup "$PID" ssdd
}

# started N: wait (up to 10 s) for N STARTING lines.
started() {
	for _i in $(seq 1 100); do
		[ "$(grep -c ': STARTING$' "$OUT")" -ge "$1" ] && return 0
		sleep 0.1
	done
	fail "the $1 pairs did not start"
}

# no_one_left PGID WHAT: the process group empties within 10 s (then it is cleaned up).
no_one_left() {
	for _i in $(seq 1 100); do
		[ "$(members "$1")" -eq 0 ] && return 0
		sleep 0.1
	done
	fail "$2: $(members "$1") processes of the group still there: $(ps -eo pgid=,pid=,stat=,comm= | grep "^ *$1 ")"
	pkill -KILL -g "$1" 2>/dev/null
}

CHECKS=""
# stop_run SIGNAL TARGET FORKS: a long run stopped once its pairs have started.
stop_run() {
	start_group -f "$3" -i 1000000000 --json="$WORK/$1.json"
	started "$3"
	kill -"$1" "$2$PID"
	RC=0
	wait "$PID" || RC=$?
	expect_exit 0
	[ "$(grep -c "^forktest#[0-9]*/[0-9]*: STOPPED by SIG$1 after [0-9]* of 1000000000 steps, no error\$" "$OUT")" -eq "$3" ] ||
		fail "SIG$1: not $3 STOPPED lines: $(cat "$OUT")"
	expect_match "$OUT" "^# Stopped by SIG$1: [0-9]+ of $(($3 * 1000000000)) steps done\$"
	# not every step was done: no "All tests PASSED.", no PASS (2.4 had no line for it)
	tail -n 1 "$OUT" | grep -Eqx "# Stopped by SIG$1: [0-9]+ of [0-9]+ steps done" ||
		fail "SIG$1: last line $(tail -n 1 "$OUT")"
	expect_no_match "$OUT" 'PASS'
	check_schema "$WORK/$1.json" ssdd
	expect_empty_stderr
	cp "$OUT" "$WORK/$1.out"
	CHECKS="$CHECKS $WORK/$1.json $WORK/$1.out $3 1000000000 SIG$1"
	no_one_left "$PID" "SIG$1"
}
stop_run INT "" 2
stop_run TERM "" 2
# Ctrl-C: SIGINT to the process group, tracers and tracees included.
mv "$WORK/INT.json" "$WORK/INT1.json"
mv "$WORK/INT.out" "$WORK/INT1.out"
CHECKS=$(echo "$CHECKS" | sed "s#$WORK/INT.json $WORK/INT.out#$WORK/INT1.json $WORK/INT1.out#")
stop_run INT - 2

# shellcheck disable=SC2086
python3 "$top_srcdir/tests/helpers/ssdd_check.py" $CHECKS >"$WORK/diag" 2>&1 ||
	fail "JSON: $(cat "$WORK/diag")"

# SIGINT at odd moments: at once, during the start-up of many pairs.
for delay in 0 0.1; do
	start_group -f 8 -i 1000000 --json="$WORK/early.json"
	sleep "$delay"
	kill -INT "$PID"
	RC=0
	wait "$PID" || RC=$?
	expect_exit 0
	expect_no_match "$OUT" 'PASS'
	check_schema "$WORK/early.json" ssdd
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); v = d["verdict"]; sys.exit(d["stopped_by"] != "SIGINT" or not v["partial"] or v["result"] == "pass" and v["checked"][0]["count"] == 0)' \
		"$WORK/early.json" || fail "SIGINT after $delay s: no JSON saying so (or a PASS of nothing)"
	no_one_left "$PID" "SIGINT after $delay s"
done

# SIGKILL of ssdd during the start-up and mid-run.
start_group -f 8 -i 1000000000
sleep 0.1
kill -KILL "$PID"
no_one_left "$PID" "SIGKILL during start-up"
start_group -f 4 -i 1000000000
started 4
kill -KILL "$PID"
no_one_left "$PID" "SIGKILL mid-run"

# A tracer killed by someone else: the pair is named, exit 1, no verdict.
start_group -f 2 -i 1000000000
started 2
tracer=$(sed -n 's/^forktest#0\/\([0-9]*\)\/[0-9]*: STARTING$/\1/p' "$OUT")
kill -KILL "$tracer"
# the main process reaps it before the SIGTERM: wait for the zombie to go
for _i in $(seq 1 100); do
	[ -e "/proc/$tracer" ] || break
	sleep 0.1
done
kill -TERM "$PID"
RC=0
wait "$PID" || RC=$?
expect_exit 1
expect_match "$OUT" "^forktest#0/$tracer: EXITING, ERROR: the tracer was killed by SIGKILL after [0-9]+ steps\$"
expect_match "$OUT" '^One or more tests FAILED\.$'
expect_no_match "$OUT" '^# Verdict:'
expect_text "$ERR" "ssdd: pair 0: the tracer was killed by SIGKILL"
no_one_left "$PID" "a tracer killed"
finish
