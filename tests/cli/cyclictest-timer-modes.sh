#!/bin/sh
# Proves: every timer mode measures (relative -r, nanosleep -s, POSIX timers
# -x, CLOCK_REALTIME -c 1, named clocks), with sane invariants, and -D ends
# the run on time with the summary.
. "$top_srcdir/tests/cli/lib.sh"
need_rt

for mode in "-r" "-s" "-x" "-c 1" "-c realtime" "-x -c 1" "-r -t 2"; do
	threads=1
	case $mode in *"-t 2"*) threads=2 ;; esac
	# shellcheck disable=SC2086
	run_tool_timeout 30 cyclictest -q -p 80 -l 200 $mode
	[ "$RC" -eq 0 ] || fail "$mode: exit $RC: $(cat "$ERR")"
	check_summary "$OUT" "$threads" 200
	# A wakeup cannot come before its time: Min is at least 0 and below 1 s.
	awk '/^T:/ { sub(/.*Min: */, ""); if ($1 + 0 < 0 || $1 + 0 > 1000000) exit 1 }' "$OUT" ||
		fail "$mode: implausible Min"
done

t0=$(date +%s%N)
run_tool_timeout 30 cyclictest -q -p 80 -D 2
ms=$((($(date +%s%N) - t0) / 1000000))
expect_exit 0
check_summary "$OUT" 1 0
[ "$ms" -ge 1900 ] && [ "$ms" -lt 3000 ] || fail "-D 2 took $ms ms"
c=$(sed -n 's/.* C: *\([0-9]*\) .*/\1/p' "$OUT")
[ "$c" -ge 1500 ] && [ "$c" -le 2001 ] || fail "-D 2 -i 1000: $c cycles"
finish
