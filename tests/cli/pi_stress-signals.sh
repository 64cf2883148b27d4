#!/bin/sh
# Proves: SIGINT and SIGTERM stop pi_stress without killing anything else
# (2.4 sent SIGTERM to its whole process group: the calling script never
# went on, and died with 143 without a summary): the summary and the JSON
# (stopped_by SIGINT/SIGTERM, the verdict partial and, stopped before the
# watchdog could judge, INCONCLUSIVE, never PASS) of what was done, no
# "# Verdict:" line unasked, exit 0, and the script that ran it goes on; a stuck group (--no-pi -u, before
# the watchdog fires) is stopped too, so no thread keeps spinning.
# test-timeout: 180
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
PI=$(tool pi_stress)

CHECKS=""
# stop_run SIGNAL NAME ARGS...: the run in a script that goes on after it.
stop_run() {
	_sig=$1 _n=$2
	shift 2
	rm -f "$WORK/pid" "$WORK/after"
	sh -c '"$@" & echo $! >"$0.pid"; wait $!; echo "rc=$?" >"$0.after"' "$WORK/s" \
		"$PI" --no-preflight -q -D 60 --json="$WORK/$_n.json" "$@" >"$OUT" 2>"$ERR" &
	_sh=$!
	for _i in $(seq 1 100); do
		[ -s "$WORK/s.pid" ] && break
		sleep 0.05
	done
	# the signals are blocked before the threads exist: wait for them
	_pid=$(cat "$WORK/s.pid")
	for _i in $(seq 1 200); do
		[ "$(ls "/proc/$_pid/task" 2>/dev/null | wc -l)" -ge 4 ] && break
		sleep 0.05
	done
	sleep 1
	kill "-$_sig" "$_pid"
	wait "$_sh"
	[ -f "$WORK/s.after" ] || fail "$_n: the calling script did not go on"
	[ "$(cat "$WORK/s.after" 2>/dev/null)" = "rc=0" ] ||
		fail "$_n: $(cat "$WORK/s.after" 2>/dev/null), expected rc=0 ($(head -c 300 "$ERR"))"
	rm -f "$WORK/s.pid" "$WORK/s.after"
	expect_match "$OUT" '^Total inversion performed: [0-9]+$'
	expect_no_match "$OUT" '^# Verdict:'
	check_schema "$WORK/$_n.json" pi_stress
	python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; sys.exit(not v["partial"] or v["stop"]["cause"] != sys.argv[2])' \
		"$WORK/$_n.json" "SIG$_sig" || fail "$_n: the verdict is not partial, stopped by SIG$_sig"
	cp "$OUT" "$WORK/$_n.out"
}
# A watchdog of 30 s: the stop comes before it could judge a group however
# slowly a loaded machine starts the run (at 3.75 s, a start delayed by load
# let it judge, and the run was rightly PASS).
stop_run INT int --watchdog=30
CHECKS="$CHECKS $WORK/int.json $WORK/int.out 1 0 inconclusive SIGINT -"
stop_run TERM term -g 2 --watchdog=30
CHECKS="$CHECKS $WORK/term.json $WORK/term.out 2 0 inconclusive SIGTERM -"
# A stuck group (the watchdog would fire after 30 s): SIGINT ends it at once.
# (The bound is the tool's own clock from the release to the stop, not the
# wall time of a loaded machine: before the watchdog, and stopped by SIGINT.)
stop_run INT stuck -u --no-pi --watchdog=30
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["inversion"] != 0 or d["stopped_by"] != "SIGINT" or d["elapsed_ns"] >= 29e9)' \
	"$WORK/stuck.json" || fail "stuck run: inversions counted or stopped_by wrong"

# SIGINT while another real-time task above the group's priorities spins on
# its CPU (once seen as "the threads of group 0 did not end within 3 s"):
# the stop lifts the threads above it, so they end at once.
if [ "$(nproc)" -ge 2 ] && command -v chrt >/dev/null 2>&1 && command -v taskset >/dev/null 2>&1; then
	"$PI" --no-preflight -q -D 60 >"$OUT" 2>"$ERR" &
	pid=$!
	for _i in $(seq 1 200); do
		[ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 4 ] && break
		sleep 0.05
	done
	sleep 0.5
	# the group runs on the second allowed CPU: a FIFO 2 hog there for 4 s at most
	cpu=$(taskset -pc "$pid" | sed 's/.*: //' | tr ',' '\n' | sed -n 2p | sed 's/-.*//')
	[ -n "$cpu" ] || cpu=1
	timeout 4 chrt -f 2 taskset -c "$cpu" sh -c 'while :; do :; done' &
	hog=$!
	sleep 0.3
	kill -INT "$pid"
	RC=0
	wait "$pid" || RC=$?
	kill "$hog" 2>/dev/null
	wait "$hog" 2>/dev/null
	expect_exit 0
	expect_no_match "$ERR" 'did not end'
	expect_match "$OUT" '^Total inversion performed: [0-9]+$'
else
	echo "one CPU or no chrt/taskset: the stop under a real-time hog is not tried"
fi

# SIGINT at the prompt: stdin is a FIFO that stays open and silent.
mkfifo "$WORK/in"
exec 3<>"$WORK/in"
"$PI" --no-preflight -p -i 10 <"$WORK/in" >"$OUT" 2>"$ERR" &
pid=$!
for _i in $(seq 1 200); do
	grep -q 'Press return to start test: ' "$OUT" 2>/dev/null && break
	sleep 0.05
done
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
exec 3>&-
expect_exit 0
expect_text "$ERR" "pi_stress: stopped by SIGINT before the test started"
expect_no_match "$OUT" 'Total inversion'

# SIGKILL: the threads go with the process.
"$PI" --no-preflight -q -D 60 >"$OUT" 2>"$ERR" &
pid=$!
for _i in $(seq 1 100); do
	[ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 4 ] && break
	sleep 0.05
done
[ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 4 ] || fail "the group's threads did not start"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ ! -d "/proc/$pid" ] || fail "pid $pid still exists after SIGKILL"

# shellcheck disable=SC2086
python3 "$HELPERS/pi_stress_check.py" $CHECKS >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
finish
