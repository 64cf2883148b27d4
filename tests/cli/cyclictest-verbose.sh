#!/bin/sh
# Proves: -v prints Max/Online CPUs, each thread's own interval, and exactly
# one n:c:v line per sample (three width-8 fields), cycles 0..L-1 per thread
# with the first line a real sample; -o RED prints one line per RED samples.
. "$top_srcdir/tests/cli/lib.sh"
rt_or_other

run_tool_timeout 30 cyclictest -v -p $PRIO -t 2 -l 500
expect_exit 0
expect_match "$OUT" '^Max CPUs = [0-9]+$'
expect_match "$OUT" '^Online CPUs = [0-9]+$'
expect_match "$OUT" '^Thread 0 Interval: 1000$'
expect_match "$OUT" '^Thread 1 Interval: 1500$'
grep -E '^ {0,7}[0-9]+: {0,7}[0-9]+: {0,7}-?[0-9]+$' "$OUT" >"$WORK/samples"
[ "$(wc -l <"$WORK/samples")" -eq 1000 ] || fail "$(wc -l <"$WORK/samples") sample lines, expected 1000"
awk -F: '{ t = $1 + 0; if ($2 + 0 != next_c[t]) { print "thread " t " cycle " $2 " expected " next_c[t]; exit 1 }
	next_c[t]++; if (length($1) != 8 || length($2) != 8 || length($3) != 8) { print "width: " $0; exit 1 }
	if (NR == 1 && $3 + 0 <= 0) { print "first sample not real: " $0; exit 1 } }' \
	"$WORK/samples" >"$WORK/diag" || fail "$(cat "$WORK/diag")"
expect_no_match "$OUT" '^T:'

run_tool_timeout 30 cyclictest -v -o 10 -p $PRIO -l 500
expect_exit 0
n=$(grep -cE '^ {0,7}[0-9]+: {0,7}[0-9]+: {0,7}-?[0-9]+$' "$OUT")
[ "$n" -eq 50 ] || fail "-o 10: $n lines, expected 50"

# -v -q: the samples and the summary.
run_tool_timeout 30 cyclictest -v -q -p $PRIO -l 100
expect_exit 0
check_summary "$OUT" 1 100
finish
