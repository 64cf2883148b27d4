#!/bin/sh
# Proves the status object's name is unique across pid namespaces and that
# the stale cleanup only removes what is provably gone: two runs started at
# once in two `unshare -pf --mount-proc` namespaces (both pid 1) both
# succeed with complete JSON, each with its own /dev/shm/ns<INODE>-cyclictest1;
# a run of the initial namespace started meanwhile leaves their objects
# alone (their locks are held); of two objects named for another
# namespace, the one whose lock a live process holds is kept and the one
# whose lock is free (its run is gone) is removed; nothing is left after.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_rt
need_native
need_cmd unshare
need_cmd flock
[ -d /dev/shm ] || skip "no /dev/shm"
unshare -pf --mount-proc true 2>/dev/null ||
	skip "cannot create pid namespaces (unshare -pf --mount-proc)"
CT=$(tool cyclictest)
# obj UNSHARE_PID: the object of the run unshare forked (its pid namespace's
# inode names it), or nothing while there is no child yet. Other tests may
# run cyclictest in namespaces meanwhile: only these two objects count.
obj() {
	_c=$(pgrep -P "$1" | head -n 1)
	[ -n "$_c" ] || return 0
	_ns=$(readlink "/proc/$_c/ns/pid" 2>/dev/null) || return 0
	_ns=${_ns#pid:\[}
	echo "/dev/shm/ns${_ns%]}-cyclictest1"
}
both() { [ -n "$obj_a" ] && [ -e "$obj_a" ] && [ -n "$obj_b" ] && [ -e "$obj_b" ]; }
# still_there OBJ INODE: OBJ is the very file the run made. A namespace's
# inode number is reused once it is gone, so a namespace another test makes
# after ours may own the same name: its object is a new file.
still_there() { [ "$(stat -c %i "$1" 2>/dev/null)" = "$2" ]; }

# Another namespace's objects (inode 123 is never a namespace's): one held
# by a live process, one whose holder is gone.
held=/dev/shm/ns123-cyclictest1
free=/dev/shm/ns124-cyclictest1
: >"$held"
: >"$free"
hold_lock "$held"

for r in a b; do
	unshare -pf --mount-proc "$CT" -q -p 80 -i 1000 -D 5 --json="$WORK/$r.json" \
		>"$WORK/$r.out" 2>"$WORK/$r.err" </dev/null &
	eval "pid_$r=\$!"
done
obj_a="" obj_b=""
_w=0
while ! both && [ "$_w" -lt 25 ]; do
	sleep 0.1
	_w=$((_w + 1))
	obj_a=$(obj "$pid_a")
	obj_b=$(obj "$pid_b")
done
[ "$obj_a" != "$obj_b" ] || fail "the two namespaces' runs have one name: $obj_a"
both || fail "the two runs do not each have an object at once: $(ls /dev/shm | grep cyclictest1)"
ino_a=$(stat -c %i "$obj_a")
ino_b=$(stat -c %i "$obj_b")
run_tool_timeout 30 cyclictest -q -p 80 -l 10
expect_exit 0
both || fail "a run of the initial namespace removed a live object: $(ls /dev/shm | grep cyclictest1)"
[ -e "$held" ] || fail "the object of a live run of another namespace was removed"
[ ! -e "$free" ] || fail "the object of a gone run of another namespace was kept"
for r in a b; do
	RC=0
	eval "wait \$pid_$r" || RC=$?
	ERR=$WORK/$r.err
	expect_exit 0
	check_summary "$WORK/$r.out" 1 0
	check_json "$WORK/$r.json" 1 "$WORK/$r.out"
done
kill "$holder"
wait "$holder" 2>/dev/null
rm -f "$held" "$free"
! still_there "$obj_a" "$ino_a" || fail "object left: $obj_a"
! still_there "$obj_b" "$ino_b" || fail "object left: $obj_b"
finish
