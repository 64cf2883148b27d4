#!/bin/sh
# Proves: --spike lists samples above the trigger in 2.4's layout with the
# total (capped list with --spike-nodes), and -F serves the status lines on a
# named pipe that is removed at exit.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
CT=$(tool cyclictest)

run_tool_timeout 30 cyclictest -q -p 80 -l 200 --spike=1 --spike-nodes=5
expect_exit 0
[ "$(grep -cE '^T: 0 Spike: {0,7}[0-9]+: TS: {0,11}[0-9]+$' "$OUT")" -eq 5 ] ||
	fail "expected 5 spike lines: $(grep -c Spike "$OUT")"
expect_match "$OUT" '^spikes = 200$'
tail -n 1 "$OUT" | grep -q '^$' || fail "no empty line after the spike list"

run_tool_timeout 30 cyclictest -q -p 80 -l 50 --spike=1000000
expect_exit 0
expect_no_match "$OUT" 'spikes ='

"$CT" -q -p 80 -t 2 -F "$WORK/fifo" >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.5
[ -p "$WORK/fifo" ] || fail "no fifo"
timeout 5 cat "$WORK/fifo" >"$WORK/fifo.out" || fail "reading the fifo failed"
check_summary "$WORK/fifo.out" 2 0
kill -INT "$pid"
wait "$pid" || fail "exit $?"
[ ! -e "$WORK/fifo" ] || fail "fifo left behind"
finish
