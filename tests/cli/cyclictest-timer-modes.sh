#!/bin/sh
# Proves: every timer mode measures (relative -r, nanosleep -s, POSIX timers
# -x, CLOCK_REALTIME -c 1, named clocks), with sane invariants, and -D ends
# the run on time with the summary: each thread stops at its first wakeup
# past the end, so -D 2 -i 1000 never counts more than 2000 cycles (noise
# only skips periods), and a thread asleep for a longer interval is stopped
# soon after the end.
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
# at least 2 s; the cycles below bound it from above (a loaded machine can
# only delay the start and the exit, not add cycles to -D 2)
[ "$ms" -ge 1900 ] && [ "$ms" -lt 15000 ] || fail "-D 2 took $ms ms"
c=$(sed -n 's/.* C: *\([0-9]*\) .*/\1/p' "$OUT")
[ "$c" -ge 1500 ] && [ "$c" -le 2000 ] || fail "-D 2 -i 1000: $c cycles"

for mode in "-x" "-c 1"; do
	# shellcheck disable=SC2086
	run_tool_timeout 30 cyclictest -q -p 80 -i 1000 -D 1 $mode
	expect_exit 0
	c=$(sed -n 's/.* C: *\([0-9]*\) .*/\1/p' "$OUT")
	[ "$c" -ge 500 ] && [ "$c" -le 1000 ] || fail "-D 1 -i 1000 $mode: $c cycles"
done

t0=$(date +%s%N)
run_tool_timeout 30 cyclictest -q -p 80 -i 300000 -D 1
ms=$((($(date +%s%N) - t0) / 1000000))
expect_exit 0
c=$(sed -n 's/.* C: *\([0-9]*\) .*/\1/p' "$OUT")
# -D ends the run at 1 s, not after a whole interval more; the upper
# bounds leave room for a loaded machine, which can only delay the stop
# (a run that waited for the next intervals would take far longer).
[ "$c" -ge 1 ] && [ "$c" -le 8 ] || fail "-D 1 -i 300000: $c cycles"
[ "$ms" -ge 1000 ] && [ "$ms" -lt 15000 ] || fail "-D 1 -i 300000 took $ms ms"
finish
