#!/bin/sh
# Proves: a start the kernel refuses exits 1 with one line saying which
# refusal and what to change (2.4 printed "WARN: Thread 0 failed" and
# exited 0), and no T: line: a real EBUSY (a run of 2 threads holds 120 %
# of a CPU; a second one asks 120 % more, beyond sched_rt_runtime_us'
# 95 % of each CPU, sysctls untouched), EPERM for a thread that may run on
# one CPU of several (taskset), EPERM without CAP_SYS_NICE.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_native
need_cpus 2
CD=$(tool cyclicdeadline)
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
per=$(cat /proc/sys/kernel/sched_rt_period_us)
ncpu=$(nproc)
[ "$ncpu" -eq 2 ] && [ "$rt" -ge 0 ] && [ $((rt * 100 / per)) -lt 120 ] ||
	skip "$ncpu CPUs, sched_rt_runtime_us $rt / $per: two runs of two threads fit"

# The holder: 2 threads of 60 %, tried again while other tests hold bandwidth.
for _try in 1 2 3 4 5 6 7 8; do
	"$CD" --no-preflight -q -i 100000 -t 2 -D 15 >"$WORK/holder.out" 2>"$WORK/holder.err" </dev/null &
	holder=$!
	_w=0
	while ! grep -qs '^thread\[' "$WORK/holder.out" && kill -0 "$holder" 2>/dev/null &&
		[ "$_w" -lt 100 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	kill -0 "$holder" 2>/dev/null && break
	wait "$holder" 2>/dev/null
	holder=
	sleep 1
done
[ -n "$holder" ] || skip "no bandwidth for the holder run in 8 tries: $(cat "$WORK/holder.err")"
run_tool_timeout 20 cyclicdeadline --no-preflight -q -i 100000 -t 2 -D 1
kill -TERM "$holder"
wait "$holder" 2>/dev/null
expect_exit 1
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "EBUSY: not one line: $(cat "$ERR")"
expect_match "$ERR" "^cyclicdeadline: SCHED_DEADLINE refused \(EBUSY\): 2 thread\(s\) ask 120\.0% of a CPU in all \(thread [01]: 60[03]00/100[05]00 us = 60\.0%\), but sched_rt_runtime_us $rt / sched_rt_period_us $per on $ncpu CPU\(s\) admit [0-9.]+%, of which [0-9.]+% is free \([0-9]+ other SCHED_DEADLINE thread\(s\) hold [0-9.]+%\): run fewer threads \(-t\) or stop the other SCHED_DEADLINE tasks, or raise /proc/sys/kernel/sched_rt_runtime_us$"
expect_no_match "$OUT" '^T:'

# EPERM: pinned to one CPU of several.
RC=0
taskset -c 0 "$CD" --no-preflight -q -i 10000 -D 1 >"$OUT" 2>"$ERR" </dev/null || RC=$?
expect_exit 1
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "taskset: not one line: $(cat "$ERR")"
expect_match "$ERR" "^cyclicdeadline: SCHED_DEADLINE refused \(EPERM\): thread 0 may run on CPUs 0 only, but the kernel admits a SCHED_DEADLINE thread only when its affinity covers its whole root domain \(CPUs [0-9,-]+ here\): run without taskset, or in an exclusive cpuset of those CPUs$"
expect_no_match "$OUT" '^T:'

# EPERM: no CAP_SYS_NICE.
if command -v setpriv >/dev/null; then
	RC=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$CD" --no-preflight -q -i 10000 -D 1 \
		>"$OUT" 2>"$ERR" </dev/null || RC=$?
	expect_exit 1
	grep -v 'HRTICK' "$ERR" >"$WORK/err"
	expect_text "$WORK/err" "cyclicdeadline: SCHED_DEADLINE refused (EPERM): no CAP_SYS_NICE: run as root or with CAP_SYS_NICE (RLIMIT_RTPRIO does not admit SCHED_DEADLINE)"
	expect_no_match "$OUT" '^T:'
fi
finish
