#!/bin/sh
# Proves: SIGINT, SIGTERM or SIGHUP at a random moment (start-up, mid-run,
# around the final write) ends every tool within 1 s (on a loaded machine:
# with under 1 s of its own CPU time after the signal), with exit 0 and
# complete, valid output files, or (when the signal comes before the tool
# has taken over its signals) killed by it with no file at all; never a
# partial file, a leftover shm object, fifo or child process. A quick set
# here; TRIALS=500 sh tests/cli/signals-random-moments.sh by hand for more.
# 48 runs, each checked by python3: minutes on a loaded 2-CPU machine.
# test-timeout: 900
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_native
need_python3
trials=${TRIALS:-8}

valid_json() {
	python3 -c 'import json, sys; json.load(open(sys.argv[1]), parse_constant=lambda c: 1 / 0)' "$1"
}

i=0
while [ "$i" -lt "$trials" ]; do
	for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest; do
		case $t in
		cyclictest) args="-q -p 80 -t 2 -i 500 -h 50 --histfile=$WORK/h.txt -F $WORK/fifo" ;;
		sigwaittest) args="-q -p 80 -t 2 -f" ;;
		*) args="-q -p 80" ;;
		esac
		sig=$(shuf -n 1 -e INT TERM HUP)
		delay=$(shuf -n 1 -i 0-300)
		# shellcheck disable=SC2086
		"$(tool "$t")" $args --json="$WORK/r.json" >"$OUT" 2>"$ERR" &
		pid=$!
		sleep "$(printf '0.%03d' "$delay")"
		kids=$(pgrep -P "$pid" | tr '\n' ' ')
		signal_and_wait "$pid" "$sig"
		rc=$RC
		what="$t SIG$sig after ${delay} ms"
		stopped_in_time "$what"
		case $rc in
		0)
			valid_json "$WORK/r.json" 2>/dev/null || fail "$what: JSON missing or invalid"
			if [ "$t" = cyclictest ]; then
				check_hist "$WORK/h.txt" 2 50 0 0
			fi ;;
		129|130|143)
			# Killed before it took its signals over: then nothing was written.
			[ ! -e "$WORK/r.json" ] || fail "$what: killed (rc $rc) but left a JSON file"
			;;
		*) fail "$what: exit $rc: $(head -c 200 "$ERR")" ;;
		esac
		ls -A "$WORK" | grep -q '^\.' && fail "$what: temporary file left: $(ls -A "$WORK")"
		[ ! -e "$WORK/fifo" ] || fail "$what: fifo left"
		[ ! -e "/dev/shm/cyclictest$pid" ] || fail "$what: shm object left"
		for k in $kids; do
			state=$(awk '{ print $3 }' "/proc/$k/stat" 2>/dev/null)
			[ -z "$state" ] || [ "$state" = Z ] || fail "$what: child $k left"
		done
		rm -f "$WORK/r.json" "$WORK/h.txt"
	done
	i=$((i + 1))
done
finish
