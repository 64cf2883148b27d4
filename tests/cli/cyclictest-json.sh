#!/bin/sh
# Proves: --json writes valid JSON in the 2.4 schema and key order, after the
# threads are joined, agreeing with the -q summary; "-" writes it to stdout;
# "cmdline:" is the original argv, escaped; "scheduling" says fifo, real-time (other
# when not root: the layout is checked at SCHED_OTHER then).
. "$top_srcdir/tests/cli/lib.sh"
rt_or_other
need_python3

run_tool_timeout 30 cyclictest -q -p $PRIO -t 2 -h 1000 -l 300 --json="$WORK/ct.json"
expect_exit 0
check_json "$WORK/ct.json" 2
check_sched "$WORK/ct.json" "$POLICY"
run_tool_timeout 30 cyclictest -q -p $PRIO -t 2 -l 300 --json="$WORK/ct2.json"
expect_exit 0
check_json "$WORK/ct2.json" 2 "$OUT"
grep -q '"histogram": {}' "$WORK/ct2.json" || fail "histogram member missing without -h"

# The histogram buckets equal the text histogram's non-empty rows.
run_tool_timeout 30 cyclictest -q -p $PRIO -h 4000 -l 200 --json="$WORK/ct3.json"
expect_exit 0
awk '/^[0-9][0-9][0-9][0-9][0-9][0-9] / { if ($2 + 0) printf "%d %d\n", $1, $2 }' "$OUT" >"$WORK/text.rows"
python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["thread"]["0"]["histogram"]
for k, v in sorted(h.items(), key=lambda kv: int(kv[0])): print(int(k), v)
' "$WORK/ct3.json" >"$WORK/json.rows"
compare_exact "$WORK/json.rows" "$WORK/text.rows"

# To stdout, and an argument with a quote and a backslash stays valid JSON.
run_tool_timeout 30 cyclictest -q -p $PRIO -l 50 --json=- --histfile="$WORK/a\"b\\c"
expect_exit 0
sed -n '/^{$/,/^}$/p' "$OUT" >"$WORK/stdout.json"
check_json "$WORK/stdout.json" 1
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["cmdline:"]
assert c.endswith("--histfile=" + sys.argv[2]), c
' "$WORK/stdout.json" "$WORK/a\"b\\c" || fail "cmdline: not the original argv"
check_summary "$OUT" 1 50
finish
