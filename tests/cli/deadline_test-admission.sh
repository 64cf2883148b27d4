#!/bin/sh
# Proves: admission-control refusals are one line each, exit 1, with no
# thread left running: EBUSY (3 threads of 66 % of a CPU each on 2 CPUs ask
# 198 %, more than the 190 % that sched_rt_runtime_us 950000 admits) says
# what was asked, admitted and free and what to change; EPERM for an
# affinity narrower than the root domain (taskset, -b) names the CPUs and
# what to do (2.4 moved every task of the system into cpusets for -b);
# EINVAL (a period below sched_deadline_period_min_us) gives the range.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_cpus 2

rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
per=$(cat /proc/sys/kernel/sched_rt_period_us)
ncpu=$(nproc)
if [ "$rt" -lt 0 ] || [ $((rt * ncpu * 100 / per)) -ge $((66 * 3 * ncpu / 2)) ]; then
	skip "admission control admits $rt/$per on $ncpu CPUs: no EBUSY to provoke"
fi

# EBUSY: -p 100 on N CPUs with t = N + 1 threads: each thread 100 x N / t %.
t=$((ncpu + 1))
run_tool_timeout 20 deadline_test --no-preflight -i 10000 -p 100 -t "$t" -D 5
expect_exit 1
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "EBUSY: not one line: $(cat "$ERR")"
expect_match "$ERR" "^deadline_test: SCHED_DEADLINE refused \(EBUSY\): $t thread\(s\) ask [0-9.]+% of a CPU in all \(thread [0-9]+: [0-9]+/[0-9]+ us = [0-9.]+%\), but sched_rt_runtime_us $rt / sched_rt_period_us $per on $ncpu CPU\(s\) admit [0-9.]+%, of which [0-9.]+% is free \([0-9]+ other SCHED_DEADLINE thread\(s\) hold [0-9.]+%\): lower -p or -t, or raise /proc/sys/kernel/sched_rt_runtime_us$"
expect_no_match "$OUT" '^missed deadlines'

# EPERM: pinned to one CPU of several.
need_cmd taskset
rc=0
taskset -c 0 "$(tool deadline_test)" --no-preflight -i 20000 -p 10 -t 1 -D 5 >"$OUT" 2>"$ERR" </dev/null || rc=$?
RC=$rc
expect_exit 1
expect_match "$ERR" "^deadline_test: SCHED_DEADLINE refused \(EPERM\): thread 0 may run on CPUs 0 only, but the kernel admits a SCHED_DEADLINE thread only when its affinity covers its whole root domain \(CPUs [0-9,-]+ here\): run without taskset, or in an exclusive cpuset of those CPUs$"
run_tool_timeout 20 deadline_test --no-preflight -b -i 20000 -p 10 -t 1 -D 5
expect_exit 1
last=$(awk '/^Cpus_allowed_list:/ { n = split($2, a, /[-,]/); print a[n] }' /proc/self/status)
expect_match "$ERR" "^deadline_test: SCHED_DEADLINE refused \(EPERM\): -c/-b pins the threads to CPUs $last, but .* \(deadline_test creates none\)$"
expect_match "$OUT" "^ percent per task:10 nr_cpus:1 \($last\) loops:"

# EINVAL: a period below the kernel's minimum (or, on a slow try, a
# runtime shorter than the overhead: 2.4's two lines); exit 1 either way.
min=$(cat /proc/sys/kernel/sched_deadline_period_min_us 2>/dev/null || echo 100)
if [ "$min" -gt 50 ]; then
	run_tool_timeout 20 deadline_test --no-preflight -i 50 -p 100 -t 1 -D 5
	expect_exit 1
	grep -Eq "^deadline_test: SCHED_DEADLINE refused \(EINVAL\): thread 0: runtime [0-9]+ us, deadline = period 50 us: the kernel wants 1 us <= runtime <= deadline and a period within sched_deadline_period_min_us..max_us \($min\.\.[0-9]+ us\): change -i, -s or -p$" "$ERR" ||
		grep -q '^Run time too short: ' "$ERR" || fail "EINVAL: $(cat "$ERR")"
fi
finish
