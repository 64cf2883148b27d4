#!/bin/sh
# Every test runs under a time limit that names it when it fires (and
# holds what it declares it holds, below): make
# check's LOG_COMPILER (SH_LOG_COMPILER for tests/cli/*.sh) runs
#   sh tests/with-timeout.sh [--tap] COMMAND... TEST
# A test's own limit is a "# test-timeout: SECONDS" line in it (scripts),
# else 600 s; RT_TEST_TIMEOUT_SCALE (a whole number) multiplies it for slow
# builds (default 3 under ASan, 4 under qemu-user, else 1). When the limit
# passes, the test and every process of its group get SIGTERM, SIGKILL
# 10 s later, and the log says which test it was
# and after how long: "TIMEOUT: tests/cli/foo.sh killed after 600 s". The
# exit status is then 99 (a hard error to automake); --tap (the unit test
# programs) also prints "Bail out!" so the TAP driver reports it.
tap=0
if [ "${1:-}" = --tap ]; then
	tap=1
	shift
fi
[ $# -ge 1 ] || { echo "usage: with-timeout.sh [--tap] COMMAND... TEST" >&2; exit 99; }
for test; do :; done # the last argument: what automake runs

limit=$(sed -n 's/^# test-timeout: *\([0-9][0-9]*\) *$/\1/p' "$test" 2>/dev/null | head -n 1)
case $test in
*.sh) ;;
*) limit= ;; # a program: its bytes are no header
esac
limit=${limit:-600}
# slower builds get longer by default: ASan (SAN_CFLAGS, from make check) x3,
# the tools under qemu-user (RT_TESTS_EMULATOR, scripts/check-i386) x4
scale=1
case ${SAN_CFLAGS:-} in *sanitize=*) scale=3 ;; esac
[ -z "${RT_TESTS_EMULATOR:-}" ] || scale=4
scale=${RT_TEST_TIMEOUT_SCALE:-$scale}
case $scale in
'' | *[!0-9]*) echo "with-timeout.sh: RT_TEST_TIMEOUT_SCALE '$scale' is not a whole number" >&2; exit 99 ;;
esac
[ "$scale" -ge 1 ] || scale=1
limit=$((limit * scale))

# What a test holds while it runs, declared once in it, in a line
# "# test-holds: NAME...". Each NAME is an exclusive flock on TMPDIR/rt-tests-ng-NAME.lock,
# so tests that would disturb each other never run at once: deadline (the
# SCHED_DEADLINE bandwidth), global-tracing (the global tracing_on and
# tracer), cpu-load (a load on every CPU), low-fifo (real-time threads at
# low priorities, 1 to 4, that spin or must progress: one test's spinning
# FIFO 2 thread stalls another's pi_stress group past its watchdog), and
# machine (the whole machine:
# such a test runs alone). Every other test holds "machine" shared. This
# shell holds them, taken before the time limit starts and in one order
# (machine first, then by name, so no two tests deadlock), and the test
# does not inherit them: a process it leaves behind cannot keep them.
holds=
case $test in
*.sh) holds=$(sed -n 's/^# test-holds: *//p' "$test" 2>/dev/null | head -n 1) ;;
esac
lockfd=3
take_lock() { # NAME s|x
	f=${TMPDIR:-/tmp}/rt-tests-ng-$1.lock
	[ -e "$f" ] || : >"$f" 2>/dev/null
	eval "exec $lockfd<\"\$f\"" || { echo "with-timeout.sh: cannot open $f" >&2; exit 99; }
	flock -w 3600 "-$2" "$lockfd" ||
		{ echo "with-timeout.sh: $test waited an hour for $f" >&2; exit 99; }
	lockfd=$((lockfd + 1))
}
mode=s
case " $holds " in *" machine "*) mode=x ;; esac
take_lock machine "$mode"
for name in $(printf '%s\n' $holds | sort -u); do
	case $name in
	machine) ;;
	deadline | global-tracing | cpu-load | low-fifo) take_lock "$name" x ;;
	*) echo "with-timeout.sh: $test holds '$name': not deadline, global-tracing, cpu-load, low-fifo or machine" >&2
		exit 99 ;;
	esac
done

# timeout(1) puts the test in a process group of its own and signals the
# whole group, so background tools the test started go with it.
rc=0
start=$(date +%s)
timeout -k 10 "$limit" "$@" 3<&- 4<&- 5<&- 6<&- || rc=$?
# 124: ended by the SIGTERM; 137 after the limit: by the SIGKILL
case $rc in
124 | 137)
	[ "$rc" -eq 124 ] || [ $(($(date +%s) - start)) -ge "$limit" ] || exit "$rc"
	msg="TIMEOUT: $test killed after $limit s (its limit: '# test-timeout:' or 600 s, x RT_TEST_TIMEOUT_SCALE)"
	echo "$msg" >&2
	if [ "$tap" -eq 1 ]; then
		echo "Bail out! $msg"
	fi
	exit 99
	;;
esac
exit "$rc"
