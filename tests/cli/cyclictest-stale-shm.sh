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

# SIGKILL, then the next run cleans up. Another test's cyclictest may start
# between the kill and ours and remove the object first (the same cleanup):
# then the kill is tried again, so that ours is seen doing it.
tries=0
cleaned_by=""
by_other="another test's next run"
while [ -z "$cleaned_by" ] && [ "$tries" -lt 5 ]; do
	tries=$((tries + 1))
	"$(tool cyclictest)" -q -p 80 >/dev/null 2>&1 &
	pid=$!
	obj=/dev/shm/${NS_PREFIX}cyclictest$pid
	_w=0
	while [ ! -e "$obj" ] && [ "$_w" -lt 150 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	[ -e "$obj" ] || fail "no object while running (test premise)"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	if [ -e "$obj" ]; then
		run_tool_timeout 30 cyclictest -q -p 80 -l 10
		expect_exit 0
		[ ! -e "$obj" ] || fail "object left by SIGKILLed $pid not cleaned"
		cleaned_by="this test's next run"
	else
		echo "try $tries: another cyclictest start removed $obj first"
		sleep 1
	fi
done
echo "the killed run's object was removed by ${cleaned_by:-$by_other}"
finish
