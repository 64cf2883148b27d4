#!/bin/sh
# Proves the --analyze tracefs instance's name is unique across pid
# namespaces, that a run never uses an instance it did not create, and that
# the stale cleanup only removes what is provably gone: two runs with
# --analyze=50 started at once in two `unshare -pf --mount-proc` namespaces
# (both pid 1) both succeed with complete results, each with its own
# instances/ns<INODE>-cyclictest-1; of two instances named for another
# namespace, the one whose lock a live process holds is kept and the one
# whose lock is free is removed; a run that finds an instance of its own
# name (not locked, its pid alive: itself) refuses it with exit 1 and leaves
# it; no instance is left after.
# test-holds: machine
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_rt
need_tracefs
need_native
need_cmd unshare
need_cmd flock
need_trace_analysis sched_switch
unshare -pf --mount-proc true 2>/dev/null ||
	skip "cannot create pid namespaces (unshare -pf --mount-proc)"
CT=$(cd "$(dirname "$(tool cyclictest)")" && pwd)/cyclictest # cd below
I=$T/instances
# The instances of pid 1 of real namespaces (whose inodes have 10 digits).
ours() { ls "$I" | grep -Ec '^ns[0-9]{6,}-cyclictest-1$' || true; }
# Only names this test makes or checks are compared: other tests may run.
mine() { ls "$I" | grep -E '^(ns[0-9]+-)?cyclictest-1$' || true; }
mine >"$WORK/before"
before=$(ours)

# Another namespace's instances (inode 123 is never a namespace's): one
# held by a live process, one whose holder is gone.
held=$I/ns123-cyclictest-1
free=$I/ns124-cyclictest-1
mkdir "$held" "$free" || fail "cannot create the fake instances"
hold_lock "$held"

for r in a b; do
	mkdir "$WORK/$r"
	(cd "$WORK/$r" && exec unshare -pf --mount-proc "$CT" -q -p 80 -i 1000 -D 3 \
		--analyze=50 --json="$WORK/$r.json" >"$WORK/$r.out" 2>"$WORK/$r.err" </dev/null) &
	eval "pid_$r=\$!"
done
_w=0
while [ "$(ours)" -lt $((before + 2)) ] && [ "$_w" -lt 25 ]; do
	sleep 0.1
	_w=$((_w + 1))
done
[ "$(ours)" -ge $((before + 2)) ] ||
	fail "the two runs do not each have an instance at once: $(ls "$I" | tr '\n' ' ')"
for r in a b; do
	RC=0
	eval "wait \$pid_$r" || RC=$?
	ERR=$WORK/$r.err
	expect_exit 0
	check_summary "$WORK/$r.out" 1 0
	expect_match "$WORK/$r.out" '^# Spike: '
	check_json "$WORK/$r.json" 1 "$WORK/$r.out"
done
[ -d "$held" ] || fail "the instance of a live run of another namespace was removed"
[ ! -d "$free" ] || fail "the instance of a gone run of another namespace was kept"

# An instance of the run's own name that it did not create: refused, kept.
RC=0
sh -c 'echo $$ >"$3"; mkdir "$1/cyclictest-$$" && exec "$2" -q -p 80 -l 10 --analyze=50' \
	sh "$I" "$CT" "$WORK/own.pid" >"$OUT" 2>"$ERR" </dev/null || RC=$?
expect_exit 1
expect_match "$ERR" '^cyclictest: --analyze.*creating the tracefs instance: one of this name exists and is not ours'
own=$I/cyclictest-$(cat "$WORK/own.pid")
[ -d "$own" ] || fail "the instance the run did not create was removed"
rmdir "$own" 2>/dev/null

kill "$holder"
wait "$holder" 2>/dev/null
rmdir "$held" "$free" 2>/dev/null
mine >"$WORK/after"
compare_exact "$WORK/after" "$WORK/before"
finish
