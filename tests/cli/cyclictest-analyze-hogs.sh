#!/bin/sh
# Proves --analyze names the real culprit of hogs of the shapes users meet,
# in the text and in the JSON, on the measured CPU only (cyclictest -p 90):
# - a SCHED_FIFO 99 hog of 0.3 s and one of 3 s, started through chrt and
#   taskset (exec twice: named "sh", its pid, FIFO 99, over half the spike);
# - a hog that sleeps 1 s before it spins (the CPU was idle before it);
# - a hog that raises its own priority (chrt -f -p 99 $$, then spins);
# - RT throttling: a FIFO 80 hog below the thread and an OTHER spinner; the
#   thread waits while the OTHER task runs: "RT throttling" is the headline.
# Every hog is killed by its pid (and by the trap); each shape is retried a
# few times against the VM's own noise.
# test-holds: machine
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_rt
need_tracefs
need_native
need_trace_analysis sched_switch
command -v chrt >/dev/null && command -v taskset >/dev/null || skip "needs chrt and taskset"
CT=$(tool cyclictest)
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
cpu=$(python3 -c "
import os; c = sorted(os.sched_getaffinity(0)); print(c[1] if len(c) > 1 else '')")
[ -n "$cpu" ] || skip "needs 2 CPUs (allowed: $cpus): the hog takes the measured one"

HOGS=""
cleanup_hogs() {
	for _p in $HOGS; do kill -9 "$_p" 2>/dev/null; done
	HOGS=""
}
# (lib.sh's EXIT trap removed $WORK: this one must too)
trap 'cleanup_hogs; rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM

started() {
	_w=0
	while [ ! -e "/dev/shm/cyclictest$1" ] && [ "$_w" -lt 200 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	sleep 0.5
}

# check_json PID NAME PRIORITY|KIND: the JSON says what the text says.
check_json() {
	python3 - "$WORK/h.json" "$@" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["analysis"]
b = a["main_blocker"]
assert a["explained"] is True and a["reason"] is None, a
if sys.argv[2] == "throttling":
    assert b["kind"] == "rt_throttling", b
else:
    assert (b["kind"], b["id"], b["name"], b["priority"]) == \
        ("task", int(sys.argv[2]), sys.argv[3], sys.argv[4]), b
assert b["share"] >= 0.5, b
PY
}

# shape NAME DURATION: run cyclictest, start the hog, check. 0 ok, 2 retry.
shape() {
	rm -f "$WORK/h.json"
	"$CT" -q -m -a "$cpu" -p 90 -i 1000 -D "$2" --analyze=20000 --json="$WORK/h.json" \
		--analyze-output="$WORK/h.txt" >"$OUT" 2>"$ERR" </dev/null &
	ct=$!
	started "$ct"
	case $1 in
	short | long)
		chrt -f 99 taskset -c "$cpu" sh -c 'while :; do :; done' &
		hp=$!
		HOGS="$hp"
		[ "$1" = short ] && sleep 0.3 || sleep 3
		;;
	sleep)
		chrt -f 99 taskset -c "$cpu" sh -c 'sleep 1; while :; do :; done' &
		hp=$!
		HOGS="$hp"
		sleep 1.4
		;;
	raise)
		taskset -c "$cpu" sh -c 'chrt -f -p 99 $$; while :; do :; done' &
		hp=$!
		HOGS="$hp"
		sleep 0.6
		;;
	throttle)
		taskset -c "$cpu" sh -c 'while :; do :; done' &
		op=$!
		chrt -f 80 taskset -c "$cpu" sh -c 'while :; do :; done' &
		hp=$!
		HOGS="$op $hp"
		sleep 1.8
		;;
	esac
	cleanup_hogs
	RC=0
	wait "$ct" || RC=$?
	[ "$RC" -eq 0 ] || { echo "cyclictest exit $RC: $(cat "$ERR")"; return 1; }
	line=$(grep '^# Spike: [0-9]* us on CPU' "$OUT")
	echo "$1: $line"
	case $1 in
	throttle)
		rt=$(cat /proc/sys/kernel/sched_rt_runtime_us) per=$(cat /proc/sys/kernel/sched_rt_period_us)
		case $line in
		*"blocked by RT throttling (sched_rt_runtime_us $rt of $per) for "*) ;;
		*) return 2 ;;
		esac
		check_json throttling || return 2
		;;
	*)
		case $line in
		*"blocked by task sh (pid $hp, FIFO 99) for "*) ;;
		*) return 2 ;;
		esac
		check_json "$hp" sh "FIFO 99" || return 2
		;;
	esac
	return 0
}

retry_bound 3 shape short 2
retry_bound 3 shape long 4
retry_bound 3 shape sleep 3
retry_bound 3 shape raise 2
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
if [ "$rt" -ge 0 ]; then
	retry_bound 3 shape throttle 3
else
	echo "RT throttling not checked: kernel.sched_rt_runtime_us is -1"
fi
finish
