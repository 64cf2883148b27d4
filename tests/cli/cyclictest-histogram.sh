#!/bin/sh
# Proves: -h/-H print the 2.4 histogram: every bucket row, Total + Overflows
# = loops per thread, rows add up to Total, the -H sum column adds up, Max
# is the highest non-empty bucket when nothing overflowed, the -q summary is
# suppressed, --histfile moves exactly that text into the file, and -h sets
# the distance to 0 with 2.4's warning when -d was given.
. "$top_srcdir/tests/cli/lib.sh"
rt_or_other

run_tool_timeout 30 cyclictest -q -p $PRIO -t 2 -h 2000 -l 300
expect_exit 0
check_hist "$OUT" 2 2000 300 0
expect_no_match "$OUT" '^T:'
tail -n 1 "$OUT" | grep -q '^$' || fail "no trailing empty line"

run_tool_timeout 30 cyclictest -q -p $PRIO -t 2 -H 50 -d 100 -l 300 --no-preflight
expect_exit 0
check_hist "$OUT" 2 50 300 1
expect_text "$(err_without_dma)" "WARN: distance is ignored and set to 0, if histogram enabled"
expect_match "$OUT" '^# Max Latencies: [0-9]{5} [0-9]{5} [0-9]{5}$'

# One thread with -H: no sum column, as 2.4.
run_tool_timeout 30 cyclictest -q -p $PRIO -H 2000 -l 100
expect_exit 0
check_hist "$OUT" 1 2000 100 0

# A tiny histogram overflows: the cycle list is capped at US entries + others.
run_tool_timeout 30 cyclictest -q -p $PRIO -h 3 -l 50
expect_exit 0
check_hist "$OUT" 1 3 50 0
expect_match "$OUT" '^# Thread 0:( [0-9]{5}){1,3}( # [0-9]{5} others)?$'

run_tool_timeout 30 cyclictest -q -p $PRIO -t 2 -h 500 -l 200 --histfile="$WORK/hist.txt"
expect_exit 0
if [ -n "$DMA" ]; then expect_text "$OUT" "$DMA"; else expect_empty_stdout; fi
check_hist "$WORK/hist.txt" 2 500 200 0
head -n 1 "$WORK/hist.txt" | grep -qx '# Histogram' || fail "histfile does not start with # Histogram"
finish
