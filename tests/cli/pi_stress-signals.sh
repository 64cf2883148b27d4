#!/bin/sh
# Proves: SIGINT and SIGTERM stop pi_stress without killing anything else
# (2.4 sent SIGTERM to its whole process group: the calling script never
# went on, and died with 143 without a summary): the summary, "# Verdict:
# PASS" and the JSON (stopped_by SIGINT/SIGTERM) of what was done, exit 0,
# and the script that ran it goes on; a stuck group (--no-pi -u, before
# the watchdog fires) is stopped too, so no thread keeps spinning.
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
	expect_match "$OUT" '^# Verdict: PASS$'
	cp "$OUT" "$WORK/$_n.out"
}
stop_run INT int
CHECKS="$CHECKS $WORK/int.json $WORK/int.out 1 0 pass SIGINT -"
stop_run TERM term -g 2
CHECKS="$CHECKS $WORK/term.json $WORK/term.out 2 0 pass SIGTERM -"
# A stuck group (the watchdog would fire after 30 s): SIGINT ends it at once.
start=$(date +%s)
stop_run INT stuck -u --no-pi --watchdog=30
took=$(($(date +%s) - start))
[ "$took" -lt 10 ] || fail "the stuck run took $took s to stop"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["inversion"] != 0 or d["stopped_by"] != "SIGINT")' \
	"$WORK/stuck.json" || fail "stuck run: inversions counted or stopped_by wrong"

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
