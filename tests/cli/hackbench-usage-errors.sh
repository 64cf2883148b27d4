#!/bin/sh
# Proves: bad hackbench invocations exit 2 with exactly the expected line
# plus the hint, nothing on stdout and no --json file (2.4 took 0 and text
# as errors but negative values wrapped around, and exited 1); -F without
# the permission for SCHED_FIFO, and too low a file descriptor limit, are
# one line and exit 1 before any output (2.4 printed the header first and
# hung, or left its workers blocked); an unwritable --json path likewise; a
# worker that cannot be created is one line, exit 1, and no process is left.
# test-timeout: 180
. "$top_srcdir/tests/cli/lib.sh"

while IFS='|' read -r name args; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 hackbench --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	compare_exact "$ERR" "$top_srcdir/tests/expected/hackbench/usage-$name.err"
	[ ! -e "$WORK/out.json" ] || fail "$name: --json file created"
done <<'TABLE'
groups-zero|-g 0
groups-negative|-g -1
groups-junk|--groups=2x
fds-zero|-f 0
fds-huge|--fds 100001
loops-zero|-l 0
loops-huge|-l 4294967296
datasize-huge|-s 67108865
pipe-and-inet|-p -i
duration-bad|--duration=1.5m
missing-argument|-g
unknown-short|-x
unknown-long|--priority=5
ambiguous-long|--f
too-many-tasks|-g 100000 -f 100
workload-huge|-g 1000 -f 1000 -l 4294967295 -s 67108864
TABLE

# The file descriptor limit: process mode needs 2 x fds (and a few), thread
# mode 2 x groups x fds; the soft limit is raised toward the hard one.
need_cmd prlimit
rc=0
prlimit --nofile=64:64 "$(tool hackbench)" --no-preflight -g 1 -f 40 -l 1 >"$OUT" 2>"$ERR" || rc=$?
RC=$rc
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "hackbench: 112 file descriptors needed (2 x 40 fds, and a few), but the limit (ulimit -n) is 64"
rc=0
prlimit --nofile=64:64 "$(tool hackbench)" --no-preflight -T -g 3 -f 10 -l 1 >"$OUT" 2>"$ERR" || rc=$?
RC=$rc
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "hackbench: 92 file descriptors needed (2 x 3 groups x 10 fds, and a few), but the limit (ulimit -n) is 64"
rc=0
prlimit --nofile=64:200 "$(tool hackbench)" --no-preflight -T -g 3 -f 10 -l 1 >"$OUT" 2>"$ERR" || rc=$?
RC=$rc
expect_exit 0
expect_match "$OUT" '^Time: '

# An unwritable --json path: one line, exit 1, nothing run.
run_tool_timeout 10 hackbench -g 1 -f 1 -l 1 --json="$WORK/missing/x.json"
expect_exit 1
expect_empty_stdout
expect_match "$ERR" "^hackbench: cannot write --json file '.*/missing/x\\.json': No such file or directory$"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "--json: $(wc -l <"$ERR") lines on stderr"

# -F without the permission: one line naming what is missing, exit 1.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$WORK"
	cp "$(tool hackbench)" "$WORK/hackbench"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		prlimit --rtprio=0 "$WORK/hackbench" -F -g 1 -f 1 -l 1 >"$OUT" 2>"$ERR" </dev/null || rc=$?
	if [ "$rc" -eq 126 ] || [ "$rc" -eq 127 ]; then
		echo "uid 65534 cannot run $WORK/hackbench: -F check skipped"
	else
		RC=$rc
		expect_exit 1
		expect_empty_stdout
		[ "$(wc -l <"$ERR")" -eq 1 ] || fail "-F: $(wc -l <"$ERR") lines on stderr"
		expect_match "$ERR" '^hackbench: not permitted to use SCHED_FIFO priority 1: run as root, grant CAP_SYS_NICE'
		# A worker that cannot be created (RLIMIT_NPROC): one line, exit 1, no hang,
		# and the workers already created are gone (2.4 left one behind).
		for mode in -P -T; do
			rc=0
			timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=30 \
				"$WORK/hackbench" --no-preflight $mode -g 2 -l 10 >"$OUT" 2>"$ERR" </dev/null || rc=$?
			RC=$rc
			expect_exit 1
			expect_match "$ERR" '^hackbench: cannot create worker [0-9]+ of 80 \((process|thread)\): Resource temporarily unavailable$'
			[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$mode nproc: $(wc -l <"$ERR") lines on stderr"
			expect_no_match "$OUT" '^Time:'
		done
		sleep 0.5
		[ "$(ps -u 65534 -o comm= | grep -c '^hackbench$')" -eq 0 ] ||
			fail "workers of uid 65534 left after the failed creation"
	fi
fi
finish
