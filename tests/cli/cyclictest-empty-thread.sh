#!/bin/sh
# Proves: a thread that completed no cycle shows "-" in the summary and the
# histogram and null in the JSON, never 2.4's invented 1000000/-nan.
# test-holds: global-tracing
. "$top_srcdir/tests/cli/lib.sh"
restore_tracing_on_at_exit
need_rt
need_python3

# Thread 1 waits 0.5 s for its first wakeup; thread 0's -b ends the run first.
run_tool_timeout 30 cyclictest -q -p 80 -t 2 -d 500000 -b 1 --json="$WORK/e.json"
expect_exit 0
check_summary "$OUT" 2 0 1
expect_match "$OUT" '^T: 1 \( *[0-9]+\) P:80 I:501000 C:      0 Min:      - Act:    - Avg:    - Max:       -$'
expect_no_match "$OUT" '1000000|nan'
check_json "$WORK/e.json" 2
grep -q '"avg": null' "$WORK/e.json" || fail "no null avg"

# The histogram's "-----" for such a thread is covered by test_rt_hist.
finish
