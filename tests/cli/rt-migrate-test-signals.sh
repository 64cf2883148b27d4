#!/bin/sh
# Proves: SIGINT, SIGTERM and SIGHUP end an rt-migrate-test run at the end
# of the current iteration with the whole report (table, task blocks,
# JSON with stopped_by and a partial verdict) and a non-zero exit, 128 + the signal
# (2.4: SIGINT exit 1, SIGTERM killed it with no output), and the process is
# gone; -D ends a run with exit 0 (2.4: 1) and stopped_by "duration"; a
# stop before the first iteration still reports (an INCONCLUSIVE verdict:
# nothing was checked, "# Verdict:" lines with --verdict, exit 4); without the permission for SCHED_FIFO it stops before the
# run with one line and exit 1 (2.4 ran at SCHED_OTHER and exited 0).
# test-timeout: 180
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
MT=$(tool rt-migrate-test)

CHECKS=""
n=0
# stop_run SIGNAL WAIT ARGS...: start a long run, signal it after WAIT s.
# -c with the largest maxerr: the verdict is there, but a real migration
# failure (possible on a VM) cannot end the run before the signal.
stop_run() {
	_sig=$1 _wait=$2
	shift 2
	n=$((n + 1))
	"$MT" --no-preflight -q -c -m 3600000000 -l 100000 -s 20 -r 5 --json="$WORK/s$n.json" "$@" 2 \
		>"$OUT" 2>"$ERR" </dev/null &
	_pid=$!
	# its signals are taken once the tasks exist (main + 2 threads)
	for _i in $(seq 1 200); do
		[ "$(ls "/proc/$_pid/task" 2>/dev/null | wc -l)" -ge 3 ] && break
		sleep 0.05
	done
	sleep "$_wait"
	kill "-$_sig" "$_pid"
	RC=0
	wait "$_pid" || RC=$?
	kill -0 "$_pid" 2>/dev/null && fail "$_sig: process $_pid still there"
	cp "$OUT" "$WORK/s$n.out"
}

for sig in INT:130 TERM:143 HUP:129; do
	stop_run "${sig%:*}" 1
	[ "$RC" -eq "${sig#*:}" ] || fail "SIG${sig%:*}: exit $RC"
	expect_match "$OUT" '^Parent pid: [0-9]+$'
	expect_no_match "$OUT" '^# Verdict:'
	check_schema "$WORK/s$n.json" rt-migrate-test
	grep -q "\"stopped_by\": \"SIG${sig%:*}\"" "$WORK/s$n.json" ||
		fail "SIG${sig%:*}: stopped_by: $(grep stopped_by "$WORK/s$n.json")"
	CHECKS="$CHECKS $WORK/s$n.json $WORK/s$n.out $RC 2 100000 1 SIG${sig%:*}"
done

# -D: exit 0 (2.4: 1), stopped_by duration
n=$((n + 1))
run_tool_timeout 30 rt-migrate-test --no-preflight -q -c -m 3600000000 -l 100000 -s 20 -r 5 \
	-D 1 --json="$WORK/s$n.json" 2
expect_exit 0
cp "$OUT" "$WORK/s$n.out"
CHECKS="$CHECKS $WORK/s$n.json $WORK/s$n.out $RC 2 100000 1 duration"
# shellcheck disable=SC2086 # CHECKS: the helper's words
python3 "$HELPERS/migrate_check.py" $CHECKS || fail "the reports disagree (above)"

# SIGINT before the first iteration ended: still a report; asked, not a PASS
stop_run INT 0.5 -s 5000 --verdict
[ "$RC" -eq 4 ] || fail "early SIGINT: exit $RC"
expect_text "$ERR" "No measurements available"
expect_match "$OUT" '^Iter:      0       1  $'
expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT'
check_schema "$WORK/s$n.json" rt-migrate-test
grep -q '"iterations_done": 0,' "$WORK/s$n.json" || fail "early SIGINT: iterations_done"

# -s 0: the main thread never sleeps; SIGINT still ends the run
stop_run INT 1 -s 0
[ "$RC" -eq 130 ] || fail "-s 0: SIGINT: exit $RC"
grep -q '"stopped_by": "SIGINT",' "$WORK/s$n.json" || fail "-s 0: stopped_by"

# No permission for SCHED_FIFO: one line, exit 1, nothing else
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	RC=0
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$MT" --no-preflight -q -l 1 2 >"$WORK/np.out" 2>"$WORK/np.err" </dev/null || RC=$?
	OUT=$WORK/np.out ERR=$WORK/np.err
	expect_exit 1
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "no permission: $(cat "$ERR")"
	expect_match "$ERR" '^rt-migrate-test: not permitted to use SCHED_FIFO priority 4: '
else
	echo "no setpriv or no user nobody: the unprivileged case is not checked"
fi
finish
