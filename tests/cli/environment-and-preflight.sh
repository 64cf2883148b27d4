#!/bin/sh
# Proves: every tool's JSON "environment" holds what this machine's /proc
# and /sys say (kernel, preemption, isolation, clocksource, the measured
# CPUs' governors and idle states, SMT, RT throttling, limits, hypervisor,
# irqbalance, CPU model and count; null where the kernel has no file), for
# the CPUs measured (a pinned thread's, or every allowed CPU); before the
# run, stderr has exactly the "WARN: preflight:" lines the machine's state
# calls for, each once, also with -q; --no-preflight silences them.
# hackbench (a load) too, without the warnings about measuring.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
ENV_CHECK="$HELPERS/env_check.py"
ALLOWED=$(python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')
FIRST=${ALLOWED%%,*}

env_ok() { # JSON CPUS REALTIME PMQOS
	python3 "$ENV_CHECK" "$1" "$2" "$ERR" "$3" "$4" >"$WORK/env.diag" 2>&1 ||
		fail "$(head -n 8 "$WORK/env.diag")"
}

# Pinned, real-time, /dev/cpu_dma_latency held at 0.
run_tool_timeout 30 cyclictest -q -m -p 80 -a "$FIRST" -t 1 -l 50 --json="$WORK/c.json"
expect_exit 0
env_ok "$WORK/c.json" "$FIRST" 1 1
# Not pinned, SCHED_OTHER: every allowed CPU is measured, and the run is warned about.
run_tool_timeout 30 cyclictest -q -l 50 --json="$WORK/o.json"
expect_exit 0
env_ok "$WORK/o.json" "$ALLOWED" 0 1
expect_match "$ERR" '^WARN: preflight: measuring without a real-time priority'
# --no-preflight: none of them.
run_tool_timeout 30 cyclictest -q -l 20 --no-preflight
expect_exit 0
expect_no_match "$ERR" 'preflight'

for t in sigwaittest ptsematest svsematest pmqtest; do
	run_tool_timeout 30 "$t" -q -p 80 -a "$FIRST" -l 20 --json="$WORK/p.json"
	expect_exit 0
	env_ok "$WORK/p.json" "$FIRST" 1 0
	run_tool_timeout 30 "$t" -q -l 20 --no-preflight
	expect_exit 0
	expect_no_match "$ERR" 'preflight'
done
run_tool_timeout 30 signaltest -q -l 20 --json="$WORK/s.json"
expect_exit 0
env_ok "$WORK/s.json" "$ALLOWED" 0 0
# hackbench, a load: every allowed CPU, and no warning about its priority or idle states.
run_tool_timeout 30 hackbench -g 1 -f 2 -l 10 --json="$WORK/h.json"
expect_exit 0
env_ok "$WORK/h.json" "$ALLOWED" 1 1
run_tool_timeout 30 hackbench -g 1 -f 2 -l 10 --no-preflight
expect_exit 0
expect_no_match "$ERR" 'preflight'
finish
