#!/bin/sh
# Proves: sigwaittest -f runs sender and receiver as processes (IDs are
# PIDs), SIGINT/SIGTERM end every tool within 1 s (also in a 5 s interval;
# on a loaded machine: with under 1 s of its own CPU time after the
# signal, 3 s under ASan) with exit 0, the summary
# and valid JSON, leaving no process and no shm object; SIGKILL of the
# parent takes the -f children with it.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3

for t in "sigwaittest -f" "sigwaittest" "ptsematest" "svsematest" "svsematest -f" "pmqtest"; do
	# shellcheck disable=SC2086
	set -- $t
	"$(tool "$1")" ${2:-} -q -p 80 -t 2 --json="$WORK/s.json" >"$OUT" 2>"$ERR" &
	pid=$!
	# a loaded machine may take its time to start: wait for the set-up, not a fixed time
	wait_started "$pid"
	sleep 0.5
	kids=$(pgrep -P "$pid" | wc -l)
	if [ "${2:-}" = -f ]; then
		for _w in $(seq 1 100); do
			[ "$kids" -lt 4 ] || break
			sleep 0.1
			kids=$(pgrep -P "$pid" | wc -l)
		done
		[ "$kids" -eq 4 ] || fail "-f: $kids child processes, expected 4"
	fi
	signal_and_wait "$pid" INT
	[ "$RC" -eq 0 ] || fail "$t: exit $RC"
	stopped_in_time "$t: SIGINT"
	check_pairs "$OUT" 2 0 "$WORK/s.json"
	[ -z "$(pgrep -P "$pid")" ] || fail "$t: processes left behind"
	rm -f "$WORK/s.json"
done

# A receiver asleep for a 5 s interval does not hold up the stop either.
for t in "ptsematest" "svsematest -f"; do
	# shellcheck disable=SC2086
	set -- $t
	"$(tool "$1")" ${2:-} -q -p 80 -i 5000000 >"$OUT" 2>"$ERR" &
	pid=$!
	wait_started "$pid"
	sleep 1
	signal_and_wait "$pid" INT
	[ "$RC" -eq 0 ] || fail "$t -i 5000000: exit $RC"
	stopped_in_time "$t -i 5000000: SIGINT"
done

"$(tool signaltest)" -q -p 80 -t 3 >"$OUT" 2>"$ERR" &
pid=$!
wait_started "$pid"
sleep 0.3
kill -TERM "$pid"
wait "$pid" || fail "signaltest: exit $?"
check_summary "$OUT" 3 0

# SIGKILL: the children of -f die with their parent.
"$(tool sigwaittest)" -f -q -p 80 -t 2 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kids=$(pgrep -P "$pid" | tr '\n' ' ')
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 0.3
for k in $kids; do
	# Gone, or a zombie waiting for init to reap it: either way not running.
	state=$(awk '{ print $3 }' "/proc/$k/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] || fail "child $k survived SIGKILL of its parent ($state)"
done
# The engine shares memory through an anonymous mapping: no named object.
ls /dev/shm | grep -q sigwait && fail "shm object left: $(ls /dev/shm)"
finish
