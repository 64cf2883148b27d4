#!/bin/sh
# Proves: --smi either counts SMIs (x86 with a readable MSR 0x34: an SMI
# column in the summary) or fails with one clear error and exit 1, never
# runs without telling.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | cut -d, -f1 | cut -d- -f1)

run_tool_timeout 30 cyclictest -q -p 80 -l 20 -a "$cpu" --smi
if dd if="/dev/cpu/$cpu/msr" bs=8 count=1 skip=$((0x34 / 8)) iflag=skip_bytes of=/dev/null 2>/dev/null; then
	expect_exit 0
	expect_match "$OUT" '^T: 0 .* SMI: *[0-9]+$'
else
	expect_exit 1
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "expected one error line: $(cat "$ERR")"
	expect_match "$ERR" "^cyclictest: --smi: cannot read the SMI counter \\(MSR 0x34\\) of CPU $cpu"
fi
finish
