#!/bin/sh
# Proves: at start cyclictest removes /dev/shm/cyclictest<PID> objects left by
# dead processes (2.4 left them after SIGKILL) and keeps those of live ones;
# after SIGKILL the next run cleans up.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
[ -d /dev/shm ] || skip "no /dev/shm"

# A PID that is surely dead: a finished child's.
sh -c 'exit 0' &
dead=$!
wait "$dead"
: >"/dev/shm/${NS_PREFIX}cyclictest$dead"
sleep 100 &
alive=$!
: >"/dev/shm/${NS_PREFIX}cyclictest$alive"

run_tool_timeout 30 cyclictest -q -p 80 -l 10
expect_exit 0
expect_exit 0
[ ! -e "/dev/shm/${NS_PREFIX}cyclictest$dead" ] || fail "stale object of dead PID $dead kept"
[ -e "/dev/shm/${NS_PREFIX}cyclictest$alive" ] || fail "object of live PID $alive removed"
kill "$alive"
rm -f "/dev/shm/${NS_PREFIX}cyclictest$alive"

"$(tool cyclictest)" -q -p 80 >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ -e "/dev/shm/${NS_PREFIX}cyclictest$pid" ] || fail "no object while running (test premise)"
run_tool_timeout 30 cyclictest -q -p 80 -l 10
[ ! -e "/dev/shm/${NS_PREFIX}cyclictest$pid" ] || fail "object left by SIGKILLed $pid not cleaned"
finish
