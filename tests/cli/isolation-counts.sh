#!/bin/sh
# The isolation counters agree with the kernel's own: a cyclictest run pinned
# to one CPU while loopback UDP traffic sent from that CPU raises NET_RX
# softirqs there. The test reads /proc/interrupts and /proc/softirqs just
# before the start and just after the end: every count of the JSON lies
# between 0 and the kernel's difference (noise only adds to the kernel's),
# the totals are the sums, and the CPU saw its timer. --isolation prints
# one line per measured CPU and one for the run after the summary; without
# it the text is what it was (the same lines, in the same shape).
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | awk -F'[,-]' '{print $NF}')
CHECK="$top_srcdir/tests/helpers/isolation_check.py"

FLOOD="$top_builddir/tests/helpers/udpflood"
[ -x "$FLOOD" ] || skip "helper $FLOOD not built"

# Loopback UDP from $cpu: NET_RX softirqs on that CPU, from before the start
# to after the end.
"$FLOOD" "$cpu" 3000 "$WORK/flooding" >"$WORK/flood.out" &
TRAFFIC=$!
i=0
while [ ! -e "$WORK/flooding" ] && [ "$i" -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -e "$WORK/flooding" ] || fail "the traffic helper did not start"
cat /proc/interrupts >"$WORK/irq.before"
cat /proc/softirqs >"$WORK/soft.before"
run_tool_timeout 20 cyclictest -q -m -a "$cpu" -p 80 -i 500 -l 2000 --isolation \
	--json="$WORK/o.json"
cat /proc/interrupts >"$WORK/irq.after"
cat /proc/softirqs >"$WORK/soft.after"
wait "$TRAFFIC" || fail "the traffic helper failed"
expect_exit 0
python3 "$CHECK" bounds "$WORK/o.json" "$cpu" "$WORK/irq.before" "$WORK/irq.after" \
	"$WORK/soft.before" "$WORK/soft.after" --and shape "$WORK/o.json" 1 \
	--and netrx "$WORK/o.json" "$cpu" >"$WORK/b.diag" 2>&1 || fail "$(cat "$WORK/b.diag")"
grep '^# Isolation:' "$OUT" >"$WORK/iso.lines" || true
[ "$(wc -l <"$WORK/iso.lines")" -eq 2 ] || fail "expected 2 '# Isolation:' lines: $(cat "$OUT")"
expect_match "$WORK/iso.lines" "^# Isolation: CPU $cpu: [0-9]+ interrupts \\(LOC [0-9]+|.*\\), [0-9]+ softirqs( \\([^)]*\\))?, [0-9]+ involuntary switches\$"
expect_match "$WORK/iso.lines" '^# Isolation: all measured CPUs: [0-9]+ interrupts, [0-9]+ softirqs; 1 thread: [0-9]+ voluntary, [0-9]+ involuntary switches$'
# the lines come last, after the summary
tail -n 2 "$OUT" | cmp -s - "$WORK/iso.lines" || fail "the '# Isolation:' lines are not last"

# Default text: no such line, also with --json; the same shape as without
shape() {
	sed -e 's/[0-9][0-9]*/N/g' -e 's/  */ /g' "$1"
}
run_tool_timeout 20 cyclictest -q -m -a "$cpu" -p 80 -i 500 -l 100
expect_exit 0
shape "$OUT" >"$WORK/plain.shape"
run_tool_timeout 20 cyclictest -q -m -a "$cpu" -p 80 -i 500 -l 100 --json="$WORK/p.json"
expect_exit 0
shape "$OUT" >"$WORK/json.shape"
cmp -s "$WORK/plain.shape" "$WORK/json.shape" || fail "--json changed the text: $(cat "$OUT")"
[ "$(wc -l <"$OUT")" -eq 2 ] || fail "expected 2 lines: $(cat "$OUT")"
expect_no_match "$OUT" 'Isolation'
run_tool_timeout 20 cyclictest -q -m -a "$cpu" -p 80 -i 500 -l 100 --isolation
expect_exit 0
grep -v '^# Isolation:' "$OUT" | shape /dev/stdin >"$WORK/iso.shape"
cmp -s "$WORK/plain.shape" "$WORK/iso.shape" || fail "--isolation changed the other lines"
finish
