#!/bin/sh
# Every test runs under a time limit that names it when it fires: make
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

# timeout(1) puts the test in a process group of its own and signals the
# whole group, so background tools the test started go with it.
rc=0
start=$(date +%s)
timeout -k 10 "$limit" "$@" || rc=$?
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
