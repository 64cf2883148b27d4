#!/bin/sh
# oslat's isolation counters agree with the kernel's own: /proc/interrupts
# and /proc/softirqs read just before and just after a run polling one CPU;
# every count of the JSON's "isolation" object lies between 0 and the
# kernel's difference (noise only adds to the kernel's), the totals are the
# sums. --isolation prints the two "# Isolation:" lines after the summary;
# --records has an isolation line per window adding up to the run's; the
# default text is unchanged (no such line, the same shape).
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | awk -F'[,-]' '{print $NF}')
CHECK="$top_srcdir/tests/helpers/isolation_check.py"

cat /proc/interrupts >"$WORK/irq.before"
cat /proc/softirqs >"$WORK/soft.before"
run_tool_timeout 15 oslat -c "$cpu" -D 2 --json="$WORK/o.json" --isolation \
	--records="$WORK/r.jsonl" --records-interval=1
cat /proc/interrupts >"$WORK/irq.after"
cat /proc/softirqs >"$WORK/soft.after"
expect_exit 0
python3 -c 'import json,sys; assert list(json.load(open(sys.argv[1])))[-1] == "isolation"' \
	"$WORK/o.json" || fail "\"isolation\" is not the JSON's last key"
python3 "$CHECK" bounds "$WORK/o.json" "$cpu" "$WORK/irq.before" "$WORK/irq.after" \
	"$WORK/soft.before" "$WORK/soft.after" --and shape "$WORK/o.json" 1 \
	--and records "$WORK/r.jsonl" "$WORK/o.json" >"$WORK/b.diag" 2>&1 ||
	fail "$(cat "$WORK/b.diag")"
grep '^# Isolation:' "$OUT" >"$WORK/iso.lines" || true
[ "$(wc -l <"$WORK/iso.lines")" -eq 2 ] || fail "expected 2 '# Isolation:' lines: $(cat "$OUT")"
expect_match "$WORK/iso.lines" "^# Isolation: CPU $cpu: [0-9]+ interrupts( \\([^)]*\\))?, [0-9]+ softirqs( \\([^)]*\\))?, [0-9]+ involuntary switches\$"
expect_match "$WORK/iso.lines" '^# Isolation: all measured CPUs: [0-9]+ interrupts, [0-9]+ softirqs; 1 thread: [0-9]+ voluntary, [0-9]+ involuntary switches$'
tail -n 2 "$OUT" | cmp -s - "$WORK/iso.lines" || fail "the '# Isolation:' lines are not last"

# Default text: no such line, the same shape as with --isolation less its lines
shape() {
	sed -e 's/[0-9][0-9]*/N/g' -e 's/  */ /g' "$1"
}
grep -v '^# Isolation:' "$OUT" | shape /dev/stdin >"$WORK/iso.shape"
run_tool_timeout 15 oslat -c "$cpu" -D 2 --json="$WORK/p.json"
expect_exit 0
expect_no_match "$OUT" 'Isolation'
shape "$OUT" >"$WORK/plain.shape"
cmp -s "$WORK/plain.shape" "$WORK/iso.shape" || fail "--isolation changed the other lines"
finish
