#!/bin/sh
# Proves --analyze names a real disturbance: a SCHED_FIFO 99 task
# (tests/helpers/spin) busy for 3 ms every 100 ms on the polled CPU makes
# gaps of about 3 ms, and each explained one names "task spin (pid P)".
# Retried against the VM's own noise; the spinner is killed by its pid;
# the private trace instance is gone afterwards.
# test-holds: machine
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
need_tracefs
need_trace_analysis sched_switch irq_handler_entry
SPIN="$top_builddir/tests/helpers/spin"
[ -x "$SPIN" ] || skip "tests/helpers/spin not built"
cpu=$(python3 -c "
import os; c = sorted(os.sched_getaffinity(0)); print(c[-1])")
trap 'kill -9 $sp 2>/dev/null; rm -rf "$WORK"' EXIT

ok=0
for try in 1 2 3; do
	# bursts for 30 s: a slow start (ASan) must not outlast them; killed after
	"$SPIN" "$cpu" 3000 100 300 &
	sp=$!
	# (--analyze under ASan on a loaded machine takes many seconds to start)
	run_tool_timeout 90 oslat -q -c "$cpu" -D 3 --analyze=1000 --json="$WORK/a.json" --no-preflight
	kill -9 "$sp" 2>/dev/null
	wait "$sp" 2>/dev/null
	[ "$RC" -eq 0 ] || { fail "exit $RC: $(head -c 300 "$ERR")"; break; }
	if grep -Eq "^# Gap: CPU $cpu: [0-9]+ us: task spin \(pid $sp\) [0-9]+ us" "$OUT"; then
		ok=1
		break
	fi
done
[ "$ok" = 1 ] || fail "no gap named the spinner (pid $sp): $(grep '^# Gap' "$OUT" | head -3)"
python3 - "$WORK/a.json" "$sp" <<'PY' || fail "JSON analysis"
import json, sys
a = json.load(open(sys.argv[1]))["analysis"]
named = [b for g in a["gaps"] for b in g["blockers"] if b["kind"] == "task" and b["pid"] == int(sys.argv[2])]
assert named and named[0]["name"] == "spin", a
PY
T=$(sed -n 's/^[^ ]* \([^ ]*\) tracefs .*/\1/p' /proc/mounts | head -n 1)
! ls "$T/instances" 2>/dev/null | grep -q "^oslat-" || fail "a trace instance was left: $(ls "$T/instances")"
finish
