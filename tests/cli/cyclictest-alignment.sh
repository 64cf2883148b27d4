#!/bin/sh
# Proves: -A aligns the threads' first wakeups to one start (thread N shifted
# by N*USEC) and --secaligned starts at a full second: both measure normally;
# -M still ends with the final frame.
. "$top_srcdir/tests/cli/lib.sh"
need_rt

run_tool_timeout 30 cyclictest -q -p 80 -t 3 -A 100 -l 100
expect_exit 0
check_summary "$OUT" 3 100

run_tool_timeout 30 cyclictest -q -p 80 -t 2 -A -l 100
expect_exit 0
check_summary "$OUT" 2 100

# 10 wakeups from the next second + 250 ms: well under 3 s; a loaded machine
# can only make it slower, so a slow run is tried again before it fails
for try in 1 2 3; do
	t0=$(date +%s%N)
	run_tool_timeout 30 cyclictest -q -p 80 --secaligned=250000 -l 10
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -lt 3000 ] && break
done
expect_exit 0
check_summary "$OUT" 1 10
[ "$ms" -lt 3000 ] || fail "--secaligned took $ms ms, three times"

run_tool_timeout 30 cyclictest -M -p 80 -l 300
expect_exit 0
esc=$(printf '\033')
awk -v RS="$esc" 'END { printf "%s", $0 }' "$OUT" | grep '^T:' >"$WORK/final"
check_summary "$WORK/final" 1 300
finish
