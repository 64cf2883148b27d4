#!/bin/sh
# Proves: the threads really run with the policy and priority asked for
# (fifo, rr, batch, idle, --priospread), are pinned round-robin with -a and
# -S, and are not pinned without -a; --mainaffinity pins only the main thread;
# the JSON "scheduling" object names the policy in force.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_cpus 2
CT=$(tool cyclictest)
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)

# inspect ARGS...: start a run, then print "tid policy prio cpus" per thread.
inspect() {
	"$CT" -q -i 10000 "$@" >"$OUT" 2>"$ERR" &
	pid=$!
	sleep 0.5
	# Under qemu-user (an i386 build on a kernel without IA32 emulation) the
	# emulator's own thread, started before main(), is the first after main.
	emu_tid=""
	case $(readlink "/proc/$pid/exe") in
	*qemu*) emu_tid=$(ls "/proc/$pid/task" | sort -n | sed -n 2p) ;;
	esac
	for task in /proc/$pid/task/*; do
		tid=${task##*/}
		[ "$tid" = "$pid" ] || [ "$tid" = "$emu_tid" ] && continue
		pol=$(chrt -p "$tid" | sed -n 's/.*scheduling policy: //p')
		pri=$(chrt -p "$tid" | sed -n 's/.*scheduling priority: //p')
		cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$task/status")
		echo "$tid $pol $pri $cpus"
	done >"$WORK/threads"
	main_cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status")
	kill -INT "$pid"
	wait "$pid" || fail "$*: exit $?"
}

inspect -p 80 -t 2
[ "$(grep -c 'SCHED_FIFO 80' "$WORK/threads")" -eq 2 ] || fail "-p 80: $(cat "$WORK/threads")"
awk -v a="$allowed" '$4 != a { exit 1 }' "$WORK/threads" || fail "pinned without -a: $(cat "$WORK/threads")"

inspect --policy=rr -p 50
grep -q 'SCHED_RR 50' "$WORK/threads" || fail "rr: $(cat "$WORK/threads")"

inspect --policy=batch
grep -q 'SCHED_BATCH 0' "$WORK/threads" || fail "batch: $(cat "$WORK/threads")"

inspect --policy=idle
grep -q 'SCHED_IDLE 0' "$WORK/threads" || fail "idle: $(cat "$WORK/threads")"

# The JSON reports the policy the kernel says the threads ran under.
for p in "fifo -p 10" "rr -p 50" "other" "batch" "idle"; do
	# shellcheck disable=SC2086
	set -- $p
	run_tool_timeout 30 cyclictest -q -i 200 -l 20 -t 2 --policy="$@" --json="$WORK/p.json"
	expect_exit 0
	check_sched "$WORK/p.json" "$1"
done

inspect -p 80 -t 3 --priospread
sort -n "$WORK/threads" | awk '{ print $3 }' | tr '\n' ' ' >"$WORK/prios"
[ "$(cat "$WORK/prios")" = "80 79 78 " ] || fail "priospread: $(cat "$WORK/prios")"

inspect -p 80 -t 2 -a 0-1
sort -n "$WORK/threads" | awk '{ print $4 }' | tr '\n' ' ' >"$WORK/cpus"
[ "$(cat "$WORK/cpus")" = "0 1 " ] || fail "-a 0-1: $(cat "$WORK/cpus")"

inspect -p 80 -t 3 -a 1
[ "$(awk '$4 == "1"' "$WORK/threads" | wc -l)" -eq 3 ] || fail "-a 1: $(cat "$WORK/threads")"

inspect -p 80 -S
[ "$(wc -l <"$WORK/threads")" -eq "$(nproc)" ] || fail "-S: $(wc -l <"$WORK/threads") threads"
sort -n "$WORK/threads" | awk '{ print $4 }' | tr '\n' ',' >"$WORK/cpus"
[ "$(cat "$WORK/cpus")" = "0,1," ] || fail "-S cpus: $(cat "$WORK/cpus")"

inspect -p 80 -a 1 --mainaffinity=0
[ "$main_cpus" = 0 ] || fail "--mainaffinity=0: main on $main_cpus"
awk '$4 != "1" { exit 1 }' "$WORK/threads" || fail "--mainaffinity moved a measurement thread"
finish
