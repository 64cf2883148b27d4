#!/bin/sh
# Proves: -q prints the dma line first and one 2.4-layout status line per
# thread after the run, with C = -l for every thread (each thread runs to its
# own count, also the slower one), Min <= Act/Avg <= Max, priority and
# per-thread interval I + N*d as requested.
. "$top_srcdir/tests/cli/lib.sh"
rt_or_other

run_tool_timeout 30 cyclictest -q $MLOCK -p $PRIO -t 3 -i 500 -d 250 -l 400
expect_exit 0
lines=3
if [ -n "$DMA" ]; then
	head -n 1 "$OUT" >"$WORK/first"
	expect_text "$WORK/first" "$DMA"
	lines=4
fi
check_summary "$OUT" 3 400
expect_match "$OUT" "^T: 0 \\( *[0-9]+\\) P: {0,1}$PRIO I:500 C:    400 "
expect_match "$OUT" "^T: 1 \\( *[0-9]+\\) P: {0,1}$PRIO I:750 C:    400 "
expect_match "$OUT" "^T: 2 \\( *[0-9]+\\) P: {0,1}$PRIO I:1000 C:    400 "
[ "$(wc -l <"$OUT")" -eq $lines ] || fail "expected $lines lines, got $(wc -l <"$OUT")"

# -N: nanoseconds, Act/Avg 8 wide.
run_tool_timeout 30 cyclictest -q -N -p $PRIO -l 100
expect_exit 0
check_summary "$OUT" 1 100
expect_match "$OUT" "^T: 0 \\( *[0-9]+\\) P: {0,1}$PRIO I:1000 C:    100 Min: *[0-9]+ Act: {0,7}[0-9]+ Avg: {0,7}[0-9]+ Max: *[0-9]+\$"
min_ns=$(sed -n 's/.*Min: *\([0-9]*\).*/\1/p' "$OUT")
[ "$min_ns" -ge 1000 ] || fail "-N Min $min_ns ns is below 1 us: not nanoseconds?"
finish
