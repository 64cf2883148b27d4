#!/bin/sh
# Proves: SIGINT and SIGTERM mid-run end within 1 s (on a loaded machine:
# with under 1 s of the tool's own CPU, stopped_in_time) with exit 0, the summary,
# a complete histogram file and valid JSON, and remove the shm snapshot
# object; SIGUSR1 prints the status block on stderr and the run goes on;
# SIGUSR2 fills /dev/shm/cyclictest<PID> (mode 0600) with the same block.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_native
need_python3
CT=$(tool cyclictest)

for sig in INT TERM; do
	"$CT" -q -p 80 -t 2 -i 10000 -h 100 --histfile="$WORK/h.txt" --json="$WORK/j.json" \
		>"$OUT" 2>"$ERR" &
	pid=$!
	wait_started "$pid"
	sleep 0.5
	[ -e "/dev/shm/cyclictest$pid" ] || fail "no shm object while running"
	kill -USR1 "$pid"
	kill -USR2 "$pid"
	sleep 0.3
	if [ -e "/dev/shm/cyclictest$pid" ]; then
		mode=$(stat -c %a "/dev/shm/cyclictest$pid")
		[ "$mode" = 600 ] || fail "shm mode $mode, expected 600"
		grep -q '^# cyclictest current status:$' "/dev/shm/cyclictest$pid" ||
			fail "SIGUSR2 snapshot missing"
	fi
	signal_and_wait "$pid" "$sig"
	[ "$RC" -eq 0 ] || fail "SIG$sig: exit $RC"
	stopped_in_time "SIG$sig"
	[ ! -e "/dev/shm/cyclictest$pid" ] || fail "SIG$sig: shm object left behind"
	grep -q '^# cyclictest current status:$' "$ERR" || fail "SIGUSR1 block missing on stderr"
	grep -q '^#---------------------------$' "$ERR" || fail "SIGUSR1 separator missing"
	check_hist "$WORK/h.txt" 2 100 0 0
	check_json "$WORK/j.json" 2
	rm -f "$WORK/h.txt" "$WORK/j.json"
done

# Without -q the last live frame is the result; with a long interval too.
"$CT" -p 80 -i 1000000 -q >"$OUT" 2>"$ERR" &
pid=$!
wait_started "$pid"
sleep 0.5
signal_and_wait "$pid" INT
stopped_in_time "-i 1000000: SIGINT"
check_summary "$OUT" 1 0 1
finish
