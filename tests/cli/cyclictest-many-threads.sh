#!/bin/sh
# Proves: 256 threads on this machine's CPUs all start and every one of
# them measures all its loops (rt-tests 2.4 reports about half), with the
# summary and JSON agreeing; and a -t 256 run with the live display ends on
# SIGINT with exit 0, a whole final frame and valid JSON.
. "$top_srcdir/tests/cli/lib.sh"
rt_or_other
need_python3
CT=$(tool cyclictest)

run_tool_timeout 60 cyclictest -q $MLOCK -p $PRIO -t 256 -d 0 -i 1000 -l 100 --json="$WORK/j.json"
expect_exit 0
check_summary "$OUT" 256 100
check_json "$WORK/j.json" 256 "$OUT"

"$CT" $MLOCK -p "$PRIO" -t 256 -i 1000 --json="$WORK/live.json" >"$OUT" 2>"$ERR" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || fail "SIGINT at -t 256: exit $rc ($(head -c 200 "$ERR"))"
esc=$(printf '\033')
grep -q "${esc}\\[258A" "$OUT" || fail "no redraw of the 256-line frame"
# The last frame: everything after the last cursor-up, one line per thread.
awk -v RS="$esc" 'END { printf "%s", $0 }' "$OUT" | grep '^T:' >"$WORK/final"
[ "$(wc -l <"$WORK/final")" -eq 256 ] || fail "final frame: $(wc -l <"$WORK/final") thread lines"
check_summary "$WORK/final" 256 0 1
check_json "$WORK/live.json" 256
finish
