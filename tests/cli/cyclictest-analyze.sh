#!/bin/sh
# Proves --analyze names the cause of a spike from standard tracepoints: a
# helper named "blocker" at SCHED_FIFO 99 on the measured CPU busy-waits
# 12 ms (three times; longer than this VM's own worst wakeups, up to ~9 ms,
# so its spike is the worst one) under "cyclictest -p 80 --analyze"; the
# report's first line names blocker, its pid and FIFO 99 with at least 90%
# of the worst spike, the JSON "analysis" says the same and the trace window
# is saved to the file the report names. Also: the global tracing settings
# are identical before and after runs ended normally, by SIGINT and by
# SIGTERM, no instance is left behind, a stale instance of a dead cyclictest
# is removed, and the option errors are usage errors (also --self-check's).
# A spike made of interrupt work (60000 timerfds expiring at once on the
# measured CPU: one long local timer interrupt) is blamed on the IRQ, not on
# a task.
# test-holds: machine
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_rt
need_tracefs
need_native
need_trace_analysis sched_switch
CT=$(tool cyclictest)
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | cut -d, -f1 | cut -d- -f1)
cp "$top_builddir/tests/helpers/spin" "$WORK/blocker"

tracing_global_state >"$WORK/before"

# Wait until cyclictest PID measures: its trace instance is set up, then its
# status object (created after it, right before the threads start) exists.
started() {
	_w=0
	while [ ! -e "/dev/shm/cyclictest$1" ] && [ "$_w" -lt 200 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	sleep 0.3
}

attempt() {
	cd "$WORK" || return 1
	rm -f "$WORK"/cyclictest-spike-*.txt
	# Above the VM's usual spikes: explaining one pauses the trace for a moment.
	"$CT" -q -m -a "$cpu" -p 80 -i 1000 -D 3 --analyze=1500 --json="$WORK/a.json" \
		>"$OUT" 2>"$ERR" </dev/null &
	ct=$!
	started "$ct"
	"$WORK/blocker" "$cpu" 12000 300 3 500 &
	bp=$!
	wait "$bp"
	wait "$ct" || { echo "cyclictest exit $?: $(cat "$ERR")"; return 1; }
	cat "$OUT"
	line=$(grep '^# Spike: [0-9]* us on CPU' "$OUT")
	value=$(echo "$line" | sed -n 's/^# Spike: \([0-9]*\) us.*/\1/p')
	[ -n "$value" ] || return 1
	[ "$value" -ge 1900 ] || return 1      # the spins were not measured
	case $line in
	*"blocked by task blocker (pid $bp, FIFO 99) for "*)
		share=$(echo "$line" | sed -n 's/.*(\([0-9]*\)%)$/\1/p')
		[ "$share" -ge 90 ] || return 2
		;;
	*) return 2 ;;                          # the worst spike was the VM's own
	esac
	file=$(sed -n 's/^# Spike: trace window saved to //p' "$OUT")
	[ -s "$WORK/$file" ] || { echo "no trace file '$file'"; return 1; }
	grep -q "sched_switch: .*blocker" "$WORK/$file" || { echo "no blocker in $file"; return 1; }
	python3 - "$WORK/a.json" "$bp" "$value" "$file" <<'PY' || return 1
import json, sys
a = json.load(open(sys.argv[1]))["analysis"]
b = a["main_blocker"]
assert (b["kind"], b["id"], b["name"], b["priority"]) == ("task", int(sys.argv[2]), "blocker", "FIFO 99"), b
assert b["share"] >= 0.9 and a["value"] == int(sys.argv[3]) and a["trace_file"] == sys.argv[4], a
d = a["decomposition"]
# after the wakeup: before the switch-in, or (preempted at once) before user space
assert d["sched_latency_us"] is not None and d["sched_latency_us"] + (d["to_user_us"] or 0) >= 1000, d
PY
	return 0
}
retry_bound 3 attempt

storm() {
	cd "$WORK" || return 1
	"$CT" -q -m -a "$cpu" -p 80 -i 200 -D 4 --analyze=2000 --analyze-output="$WORK/s.txt" \
		--json="$WORK/s.json" >"$OUT" 2>"$ERR" </dev/null &
	ct=$!
	started "$ct"
	"$top_builddir/tests/helpers/irqstorm" "$cpu" 60000 1500 || { kill "$ct"; return 1; }
	wait "$ct" || return 1
	cat "$OUT"
	line=$(grep '^# Spike: [0-9]* us on CPU' "$OUT")
	case $line in
	*"blocked by irq "*|*"blocked by softirq "*)
		share=$(echo "$line" | sed -n 's/.*(\([0-9]*\)%)$/\1/p')
		[ "$share" -ge 90 ] || return 2
		python3 - "$WORK/s.json" <<'PY' || return 1
import json, sys
a = json.load(open(sys.argv[1]))["analysis"]
b = a["main_blocker"]
assert a["explained"] is True and b["kind"] in ("irq", "softirq") and b["share"] >= 0.9, a
PY
		return 0 ;;
	*"none above"*|"") return 1 ;;          # the storm was not measured
	*) return 2 ;;                          # a task spike of the VM's own won
	esac
}
retry_bound 3 storm

# Interrupted runs clean up too; a dead cyclictest's instance goes at start.
sh -c 'exit 0' &
dead=$!
wait "$dead"
mkdir "$T/instances/cyclictest-$dead" || fail "cannot create a stale instance"
for sig in INT TERM; do
	"$CT" -q -m -p 80 -i 1000 --analyze=100000 >"$OUT" 2>"$ERR" </dev/null &
	ct=$!
	started "$ct"
	[ -d "$T/instances/cyclictest-$ct" ] || fail "no instance cyclictest-$ct while running"
	[ ! -d "$T/instances/cyclictest-$dead" ] || fail "stale instance cyclictest-$dead left"
	kill -"$sig" "$ct"
	RC=0
	wait "$ct" || RC=$?
	expect_exit 0
	expect_match "$OUT" '^# Spike: none above the --analyze threshold$'
done
tracing_global_state >"$WORK/after"
compare_exact "$WORK/after" "$WORK/before"

run_tool cyclictest -q -l 1 --analyze
expect_exit 2
expect_text "$ERR" "cyclictest: --analyze needs a threshold: --analyze=USEC or --breaktrace=USEC
Try 'cyclictest --help' for more information."
run_tool cyclictest -q -l 1 --analyze-output=x.txt
expect_exit 2
expect_match "$ERR" '^cyclictest: --analyze-output needs --analyze$'
for bad in "-r" "-x" "-v" "-D 5" "-t 2" "-l 10001"; do
	run_tool cyclictest -q --self-check $bad
	expect_exit 2
	expect_match "$ERR" '^cyclictest: .*(--self-check|-l).*'
done
finish
