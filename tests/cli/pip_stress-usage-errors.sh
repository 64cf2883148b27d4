#!/bin/sh
# Proves: bad pip_stress invocations exit 2 with exactly the expected line
# plus the hint, nothing on stdout, no --json file and no process run (2.4
# printed its help and exited 1, and took -s, which it listed, as an error);
# --help and --version exit 0 on stdout, the help naming 2.4's first line
# "pip_stress V 2.40" and "-h --help ... Show this help menu."; without the
# permission for SCHED_FIFO the run is one line naming what is missing, exit
# 1, before any output (2.4: two lines, exit 1); an unwritable --json path is
# one line, exit 1, before the run.
# test-timeout: 180
. "$top_srcdir/tests/cli/lib.sh"

HINT="Try 'pip_stress --help' for more information."
while IFS='|' read -r args line; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 pip_stress --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	printf '%s\n%s\n' "pip_stress: $line" "$HINT" >"$WORK/want"
	compare_exact "$ERR" "$WORK/want"
	[ ! -e "$WORK/out.json" ] || fail "$args: --json file created"
done <<'TABLE'
-s 0|invalid --usleep '0': must be 1..1000000 (us)
-s abc|invalid --usleep 'abc': must be 1..1000000 (us)
--usleep=1000001|invalid --usleep '1000001': must be 1..1000000 (us)
-s 10x|invalid --usleep '10x': must be 1..1000000 (us)
--work=0|invalid --work '0': must be 1..60000 (ms)
--work=-5|invalid --work '-5': must be 1..60000 (ms)
--work 60001|invalid --work '60001': must be 1..60000 (ms)
-s 5000 --work=5|invalid --usleep 5000: must be less than --work (5 ms), or the medium priority process ends before the low one releases the mutex
-s|option '-s' requires an argument
--work|option '--work' requires an argument
-x|invalid option '-x'
--bogus|unrecognized or ambiguous option '--bogus'
--no|unrecognized or ambiguous option '--no'
--help=1|unrecognized or ambiguous option '--help=1'
TABLE

for h in -h --help --he; do
	run_tool pip_stress "$h"
	expect_exit 0
	expect_empty_stderr
	expect_match "$OUT" '^pip_stress V 2\.40 \('
	head -n 3 "$OUT" | tail -n 2 >"$WORK/usage"
	printf 'Usage:\npip_stress <options>\n' >"$WORK/want"
	compare_exact "$WORK/usage" "$WORK/want"
	expect_match "$OUT" '^-h +--help +Show this help menu\.$'
done
run_tool pip_stress --version
expect_exit 0
expect_match "$OUT" '^pip_stress \(rt-tests-ng\) '

# An unwritable --json path: one line, nothing run.
run_tool_timeout 10 pip_stress --no-preflight --json="$WORK/no/such/dir/p.json"
expect_exit 1
expect_empty_stdout
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "unwritable --json: $(wc -l <"$ERR") lines on stderr"
expect_match "$ERR" "^pip_stress: cannot write --json file '$WORK/no/such/dir/p.json': "

# Without the permission for SCHED_FIFO: one line, exit 1, nothing on stdout.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		prlimit --rtprio=0 true 2>/dev/null; then
	chmod 755 "$WORK"
	cp "$(tool pip_stress)" "$WORK/pip_stress"
	chmod 755 "$WORK/pip_stress"
	RC=0
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		prlimit --rtprio=0 "$WORK/pip_stress" --no-preflight >"$OUT" 2>"$ERR" </dev/null || RC=$?
	if [ "$RC" -eq 126 ]; then
		echo "uid 65534 cannot reach $WORK: the unprivileged case is not run"
	else
		expect_exit 1
		expect_empty_stdout
		[ "$(wc -l <"$ERR")" -eq 1 ] || fail "unprivileged: $(wc -l <"$ERR") lines on stderr"
		expect_match "$ERR" '^pip_stress: not permitted to use SCHED_FIFO priority 4: run as root, grant CAP_SYS_NICE'
	fi
else
	echo "not root or no setpriv: the unprivileged case is not run"
fi
finish
