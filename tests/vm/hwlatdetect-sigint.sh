#!/bin/sh
# Proves: our hwlatdetect stopped by SIGINT in the middle of a 60 s run
# ends promptly, says so (stopped_by SIGINT in its JSON), and still puts
# current_tracer, tracing_thresh and tracing_on back as they were.
. "$top_srcdir/tests/vm/lib.sh"

tracer_listed hwlat || skip "no hwlat tracer in this kernel"
set_unusual_state
before=$(tracer_state)
echo "before: $before"
json=$OUT.json
# A non-interactive shell starts background jobs with SIGINT ignored:
# give it back its default, as a terminal's Ctrl-C would find it.
env --default-signal=INT "$TOOLS/hwlatdetect/hwlatdetect" --duration=60 --threshold=10 \
	--json="$json" >"$WORK/out" 2>"$WORK/err" &
pid=$!
# Mid-run: the tracer is on, and a couple of windows went by.
wait_hwlat_on "$pid"
sleep 2
kill -INT "$pid"
t0=$(date +%s)
i=0
while kill -0 "$pid" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -le 150 ] || { kill -KILL "$pid"; fail "still running 15 s after SIGINT"; }
	sleep 0.1
done
rc=0
wait "$pid" || rc=$?
took=$(($(date +%s) - t0))
cat "$WORK/out" "$WORK/err"
after=$(tracer_state)
echo "after:  $after (exit status $rc, $took s after SIGINT)"
[ "$after" = "$before" ] || fail "not restored after SIGINT: before $before, after $after"
put_defaults
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "exit status $rc after SIGINT: $(head -n 1 "$WORK/err")"
grep -q '^interrupted$' "$WORK/out" || fail "no 'interrupted' line"
check_hwlat_json "$json" "$rc" SIGINT
pass "stopped $took s after SIGINT (exit $rc), JSON says SIGINT, tracer settings restored"
