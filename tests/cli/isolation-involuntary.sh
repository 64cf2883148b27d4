#!/bin/sh
# Involuntary context switches show up: a SCHED_FIFO 99 helper on the
# measured CPU wakes every millisecond and spins 300 us, so it preempts
# cyclictest's thread (FIFO 80, -i 200) whenever it wakes while that one
# runs. The JSON counts the thread's switches on its CPU: voluntary ones
# (at least one per sleep) and at least one involuntary one; a run in which no wakeup
# happened to overlap is retried.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
SPIN="$top_builddir/tests/helpers/spin"
[ -x "$SPIN" ] || skip "helper $SPIN not built"
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | awk -F'[,-]' '{print $NF}')
CHECK="$top_srcdir/tests/helpers/isolation_check.py"

attempt() {
	"$SPIN" "$cpu" 300 1 1500 &
	spin=$!
	sleep 0.1
	run_tool_timeout 20 cyclictest -q -m -a "$cpu" -p 80 -i 200 -l 5000 --json="$WORK/o.json"
	wait "$spin"
	[ "$RC" -eq 0 ] || { fail "cyclictest exited $RC: $(cat "$ERR")"; return 0; }
	_r=0
	python3 "$CHECK" involuntary "$WORK/o.json" "$cpu" 1000 || _r=$?
	[ "$_r" -eq 1 ] && fail "bad JSON"
	[ "$_r" -eq 2 ] && return 2
	return 0
}
retry_bound 3 attempt
finish
