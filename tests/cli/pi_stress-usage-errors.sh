#!/bin/sh
# Proves: bad pi_stress invocations exit 2 with exactly the expected line
# plus the hint, nothing on stdout and no --json file, and nothing runs (2.4
# took text and 0 silently, ran for ever after a word that was not an
# option, and ran a bad --sched only to kill its own process group at the
# end); an unwritable --json path is one line, exit 1, before any output;
# without the permission for SCHED_FIFO (uid 65534, no RLIMIT_RTPRIO) it is
# one line naming what is missing, exit 1, nothing on stdout (2.4:
# "main: boosting to max priority: 0x1").
# test-timeout: 180
. "$top_srcdir/tests/cli/lib.sh"

while IFS='|' read -r args want; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 pi_stress --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	printf 'pi_stress: %s\nTry '\''pi_stress --help'\'' for more information.\n' "$want" \
		>"$WORK/want"
	compare_exact "$ERR" "$WORK/want"
	[ ! -e "$WORK/out.json" ] || fail "$args: --json file created"
done <<'TABLE'
-g 0|invalid --groups '0': must be 1..1024
-g -1|invalid --groups '-1': must be 1..1024
--groups=2x|invalid --groups '2x': must be 1..1024
-g 1025|invalid --groups '1025': must be 1..1024
-i 0|invalid --inversions '0': must be 1..1000000000000
--inv=abc|invalid --inversions 'abc': must be 1..1000000000000
--duration=1.5m|invalid --duration '1.5m': must be N, Ns, Nm, Nh or Nd, at most 3650d
-s id=foo|invalid --sched id 'foo': must be low, med or high
-s policy=fifo|invalid --sched 'policy=fifo': id=low, id=med or id=high is required
-s id=low,prio=3|invalid --sched 'id=low,prio=3': unknown key 'prio' (id, policy, priority, nice, runtime, deadline, period)
--sched=id=low,priority=100|invalid --sched priority '100': must be 1..99
-s id=high,policy=deadline,runtime=100|invalid --sched 'id=high,policy=deadline,runtime=100': deadline needs runtime, deadline and period (ns)
-s id=high,policy=deadline,runtime=300,deadline=200,period=400|invalid --sched 'id=high,policy=deadline,runtime=300,deadline=200,period=400': must be runtime <= deadline <= period
-s id=med,policy=fifo,nice=3|invalid --sched 'id=med,policy=fifo,nice=3': fifo takes priority only
-s id=med,policy=other,priority=3|invalid --sched 'id=med,policy=other,priority=3': other takes nice only
-s id=med,policy=xyz|invalid --sched policy 'xyz': must be fifo, rr, other, batch, idle or deadline
-s id|invalid --sched 'id': 'id' is not key=value
-s id=med,priority=3|invalid --sched: the med priority (3) must be below the high one (3)
-s id=low,policy=rr,priority=2 -r|invalid --sched: the low priority (2) must be below the med one (2)
--watchdog=0|invalid --watchdog '0': must be 1..3600 s
foo -D 5|unexpected argument 'foo'
-x|invalid option '-x'
--bogus|unrecognized or ambiguous option '--bogus'
--v|unrecognized or ambiguous option '--v'
-g|option '-g' requires an argument
TABLE

# An unwritable --json: one line, exit 1, before the banner.
run_tool_timeout 10 pi_stress --no-preflight -i 1 --json="$WORK/no/such/dir/out.json"
expect_exit 1
expect_empty_stdout
expect_match "$ERR" "^pi_stress: .*no/such/dir/out\\.json"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "unwritable --json: $(wc -l <"$ERR") lines on stderr"

# No privileges (as tests/cli/privileges.sh: a copy where uid 65534 can reach it).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 755 "$WORK"
	cp "$(tool pi_stress)" "$WORK/pi_stress" && chmod 755 "$WORK/pi_stress"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		prlimit --rtprio=0 "$WORK/pi_stress" -D 1 --no-preflight >"$OUT" 2>"$ERR" </dev/null ||
		rc=$?
	RC=$rc
	if grep -q 'Permission denied' "$ERR"; then
		echo "uid 65534 cannot reach $WORK: privileges not checked"
	else
		expect_exit 1
		expect_empty_stdout
		expect_match "$ERR" '^pi_stress: not permitted to use SCHED_FIFO priority 4: '
		[ "$(wc -l <"$ERR")" -eq 1 ] || fail "no privileges: $(wc -l <"$ERR") lines on stderr"
	fi
fi
finish
