#!/bin/sh
# Proves: argument forms of real harnesses work: combined flags (-qmu,
# -Sp90), attached values (-i100, -h700, -a0), optional values as the next
# word (-t 2, -a 0), a value with a leading space in one word ("-h 30"), empty
# words, abbreviated long options with = or the next word (--prio=80,
# --loops 20), and the legacy -n as a no-op with one warning.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
cpu0=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | cut -d, -f1 | cut -d- -f1)
ncpu=$(nproc)

run_tool_timeout 30 cyclictest -qmu -i100 -l20 --prio=80
expect_exit 0
check_summary "$OUT" 1 20
expect_match "$OUT" '^T: 0 .* P:80 I:100 C:     20 '

run_tool_timeout 30 cyclictest -Sp90 -q -l 20
expect_exit 0
check_summary "$OUT" "$ncpu" 20
expect_match "$OUT" '^T: 0 .* P:90 '

run_tool_timeout 30 cyclictest -q -t 2 -p 80 --loops 20 "" -a "$cpu0"
expect_exit 0
check_summary "$OUT" 2 20

run_tool_timeout 30 cyclictest -q "-h 30" -p 80 -l 20 "-a$cpu0"
expect_exit 0
check_hist "$OUT" 1 30 20 0

run_tool_timeout 30 cyclictest -q -h700 -p80 -l 20 --dura 5
expect_exit 0
check_hist "$OUT" 1 700 20 0

run_tool_timeout 30 cyclictest -n -q -p 80 -l 10 --no-preflight
expect_exit 0
check_summary "$OUT" 1 10
expect_text "$ERR" "cyclictest: warning: -n is obsolete and ignored (clock_nanosleep is the default)"
finish
