#!/bin/sh
# Proves, beside Debian's rt-tests 2.4 on this machine (SKIP without it):
# the same options give the same lines (numbers aside: the calibration, the
# setup line, the thread lines, each thread's block with its labels and
# TABs) and the same exit status 0 whatever was missed (2.4 only measures;
# ours judges with --verdict only). 2.4 always runs 10 s: both run at once
# (two threads of 10 % of a CPU each), ours for 2 s.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_reference deadline_test
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" != 0 ] ||
	skip "sched_rt_runtime_us is 0: no SCHED_DEADLINE bandwidth"

# shape FILE: numbers as N, 2.4's repeatable lines (retries, adjustments) left out.
shape() {
	sed -E '/^(Failed to perform|New overhead=|  Tested at )/d; /^# adjustments = /d' "$1" |
		sed -E 's/-?[0-9]+/N/g'
}

try() {
	# at once: 2.4 in the background (run_reference's way, its status from wait)
	timeout -k 2 25 "$(reference_tool deadline_test)" -i 20000 -p 10 -t 1 \
		>"$REF_OUT" 2>"$REF_ERR" </dev/null &
	_ref=$!
	run_tool_timeout 20 deadline_test --no-preflight -i 20000 -p 10 -t 1 -D 2
	REF_RC=0
	wait "$_ref" || REF_RC=$?
	if [ "$RC" -eq 1 ] || [ "$REF_RC" -ne 0 ]; then
		echo "a run could not start (ours $RC, 2.4 $REF_RC): $(head -c 200 "$ERR") $(head -c 200 "$REF_ERR")"
		return 2
	fi
	return 0
}
retry_bound 3 try
expect_exit 0
shape "$OUT" >"$WORK/ours"
shape "$REF_OUT" >"$WORK/ref"
compare_exact "$WORK/ours" "$WORK/ref"
expect_match "$OUT" '^max_time: [0-9]+us	min_time: [0-9]+us	avg_time: [0-9]+us$'
finish
