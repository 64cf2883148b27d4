#!/bin/sh
# Proves: -b stops the run at the first latency above the limit and prints
# the 2.4 "# Thread Ids/Break thread/Break value" lines (exit 0); with
# --tracemark the marker lands in the ftrace buffer and tracing_on drops to 0.
# test-holds: global-tracing
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_tracefs
T=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
[ -n "$T" ] || T=/sys/kernel/tracing
restore_tracing_on_at_exit
echo 1 >"$T/tracing_on"

# 1 us is always exceeded on the first wakeup.
run_tool_timeout 30 cyclictest -q -p 80 -t 2 -b 1 --tracemark -l 100000
expect_exit 0
check_summary "$OUT" 2 0 1
expect_match "$OUT" '^# Thread Ids:( [0-9]{5,})( [0-9]{5,})$'
expect_match "$OUT" '^# Break thread: [0-9]+$'
expect_match "$OUT" '^# Break value: [0-9]+$'
bt=$(sed -n 's/^# Break thread: //p' "$OUT")
bv=$(sed -n 's/^# Break value: //p' "$OUT")
grep -Eq "^T: *[0-9]+ \( *$bt\) .* Max: *$bv$" "$OUT" || fail "break thread/value not in the summary"
[ "$(cat "$T/tracing_on")" = 0 ] || fail "tracing_on not 0 after the break"
grep -q "hit latency threshold ([0-9]* > 1)" "$T/trace" || fail "trace marker missing"
c=$(awk '/^T:/ { s += $0 ~ / C: *[0-9]+ / ? 0 : 0; sub(/.* C: */, ""); s += $1 } END { print s }' "$OUT")
[ "$c" -lt 100 ] || fail "the run did not stop at the break ($c cycles)"
finish
