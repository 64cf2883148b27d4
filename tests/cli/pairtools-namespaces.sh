#!/bin/sh
# Proves pmqtest's queue names and svsematest's SysV sets are unique across
# pid namespaces that share an IPC namespace (`unshare -pf` alone shares
# it) and that the stale cleanup only removes what is provably gone: two
# runs of each started at once in two `unshare -pf --mount-proc`
# namespaces (both pid 1) both succeed with complete results; a live
# namespaced svsematest's set is kept by a run of the initial namespace and
# the set of one killed with SIGKILL is removed by the next run; of two
# queue names of another namespace, the one whose lock a live process holds
# is kept and the one whose lock is free is removed; nothing is left.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_rt
need_native
need_cmd unshare
need_cmd flock
need_cmd ipcs
unshare -pf --mount-proc true 2>/dev/null ||
	skip "cannot create pid namespaces (unshare -pf --mount-proc)"

# ns_start NAME TOOL ARGS...: the tool as pid 1 of a new pid namespace, in
# the background; sets NAME_pid (unshare's) and waits for NAME_child.
ns_start() {
	_n=$1
	_t=$2
	shift 2
	timeout -k 2 60 unshare -pf --mount-proc --kill-child "$(tool "$_t")" "$@" \
		>"$WORK/$_n.out" 2>"$WORK/$_n.err" </dev/null &
	eval "${_n}_pid=\$!"
}
# ns_child NAME: the host pid of the namespace's pid 1 (timeout's grandchild).
ns_child() {
	eval "_c=\$${1}_pid"
	_w=0
	while [ "$(readlink "/proc/$_c/ns/pid")" = "$(readlink /proc/self/ns/pid)" ]; do
		[ "$_w" -lt 100 ] || return 1
		_n=$(cat "/proc/$_c/task/$_c/children" 2>/dev/null) || return 1
		if [ -n "$_n" ]; then
			_c=${_n%% *}
		else
			sleep 0.05
			_w=$((_w + 1))
		fi
	done
	echo "$_c"
}
ns_wait() { # NAME: its exit status in RC
	eval "_u=\$${1}_pid"
	RC=0
	wait "$_u" || RC=$?
	ERR=$WORK/$1.err
}
# The first key svsematest tries as pid 1 of the pid namespace of inode $1.
set_key() {
	printf '0x%08x' $((0x54000000 | (($1 + 65537) & 0xffffff)))
}
has_set() { ipcs -s | grep -q "^$1 "; }
wait_set() {
	_w=0
	while ! has_set "$1" && [ "$_w" -lt 50 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
}

# Two runs at once of each tool.
for t in pmqtest svsematest; do
	ns_start a "$t" -q -p 80 -t 2 -i 1000 -l 2000 --json="$WORK/a.json"
	ns_start b "$t" -q -p 80 -t 2 -i 1000 -l 2000 --json="$WORK/b.json"
	if [ "$t" = svsematest ]; then
		ca=$(ns_child a)
		cb=$(ns_child b)
		ia=$(stat -L -c %i "/proc/$ca/ns/pid")
		ib=$(stat -L -c %i "/proc/$cb/ns/pid")
		ka=$(set_key "$ia")
		kb=$(set_key "$ib")
		wait_set "$ka"
		wait_set "$kb"
		has_set "$ka" && has_set "$kb" || fail "svsematest: the two sets $ka $kb not there at once"
	fi
	for r in a b; do
		ns_wait "$r"
		expect_exit 0
		check_pairs "$WORK/$r.out" 2 2000 "$WORK/$r.json"
	done
done

# svsematest: a live run of another namespace keeps its set; a killed one's goes.
# (The live run ends by -D, after the run of the initial namespace.)
ns_start live svsematest -q -p 80 -i 1000 -D 10
ns_start dead svsematest -q -p 80 -i 1000 -D 30
clive=$(ns_child live)
cdead=$(ns_child dead)
ilive=$(stat -L -c %i "/proc/$clive/ns/pid")
idead=$(stat -L -c %i "/proc/$cdead/ns/pid")
klive=$(set_key "$ilive")
kdead=$(set_key "$idead")
wait_set "$klive"
wait_set "$kdead"
has_set "$kdead" || fail "no set $kdead of the run to kill (test premise)"
[ -n "$cdead" ] && kill -KILL "$cdead"
ns_wait dead
# Another test's svsematest may start now and remove the killed run's set
# before ours does: that is the same cleanup, so it is said, not failed.
has_set "$kdead" ||
	echo "another svsematest start removed the killed run's set $kdead first"
run_tool_timeout 30 svsematest -q -p 80 -l 10
expect_exit 0
has_set "$klive" || fail "a run of the initial namespace removed the live set $klive"
! has_set "$kdead" || fail "the killed namespaced run's set $kdead was not removed"
ns_wait live
expect_exit 0
expect_match "$WORK/live.out" '^#1 -> #0, Min '
! has_set "$klive" || fail "set $klive left after the run"

# pmqtest: queue names of another namespace (inode 123 is never one's).
need_root
MQ=$WORK/mq
mkdir -p "$MQ"
mount -t mqueue none "$MQ" || fail "cannot mount the mqueue file system"
trap 'umount "$MQ" 2>/dev/null; rm -rf "$WORK"' EXIT
: >"$MQ/ns123-pmqtest-1-0"
: >"$MQ/ns124-pmqtest-1-0"
hold_lock "$MQ/ns123-pmqtest-1-0"
run_tool_timeout 30 pmqtest -q -p 80 -l 10
expect_exit 0
[ -e "$MQ/ns123-pmqtest-1-0" ] || fail "the queue of a live run of another namespace was removed"
[ ! -e "$MQ/ns124-pmqtest-1-0" ] || fail "the queue of a gone run of another namespace was kept"
kill "$holder"
wait "$holder" 2>/dev/null
rm -f "$MQ/ns123-pmqtest-1-0" "$MQ/ns124-pmqtest-1-0"
left=$(ls "$MQ" | grep -E '^(ns[0-9]+-)?pmqtest-' || true)
[ -z "$left" ] || fail "queues left: $left"
finish
