#!/bin/sh
# Proves: rteval's hackbench load works with our hackbench (tests/harness/
# README, section 2; rteval/modules/loads/hackbench.py @ b4d3bec6): started
# as `[taskset -c CPUS] hackbench -P -g 3xCPUs -l L -s S` with stdin at
# /dev/null and its output on shared log fds, restarted as each run ends
# (exit 0 and a Time: line each), stopped with SIGKILL: after every SIGKILL
# (mid-run with rteval's defaults, with -P -g 4 and its 160 workers, and
# 50 ms after the start) no worker is left, spinning or not.
# HACKBENCH=/path runs another binary (/usr/bin/hackbench, 2.4, fails: its
# workers run on; the helper kills them).
# test-timeout: 300
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_cmd taskset
HB=${HACKBENCH:-$(tool hackbench)}
[ -x "$HB" ] || skip "no hackbench at $HB"

RC=0
python3 "$top_srcdir/tests/helpers/rteval_load.py" "$HB" "$WORK" >"$WORK/diag" 2>&1 || RC=$?
case $RC in
0) ;;
77) skip "$(cat "$WORK/diag")" ;;
*) fail "rteval's load: $(cat "$WORK/diag")" ;;
esac
finish
