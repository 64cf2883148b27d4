#!/bin/sh
# Proves: when hwlatdetect is killed with SIGKILL mid-run, which it cannot
# catch, its guard process still puts current_tracer, tracing_thresh and
# tracing_on back as they were.
. "$top_srcdir/tests/vm/lib.sh"

tracer_listed hwlat || skip "no hwlat tracer in this kernel"
set_unusual_state
before=$(tracer_state)
echo "before: $before"
"$TOOLS/hwlatdetect/hwlatdetect" --duration=60 --threshold=10 >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_hwlat_on "$pid"
sleep 1
kill -KILL "$pid"
wait "$pid" 2>/dev/null
# The guard sees the pipe close, waits for hwlatdetect to be gone and
# restores: 30 s of the guest's clock, whatever TCG's speed.
end=$(($(date +%s) + 30))
until [ "$(tracer_state)" = "$before" ]; do
	[ "$(date +%s)" -le "$end" ] ||
		fail "not restored 30 s after SIGKILL: before $before, now $(tracer_state)"
	sleep 0.1
done
echo "after:  $(tracer_state)"
put_defaults
pass "settings restored by the guard after SIGKILL"
