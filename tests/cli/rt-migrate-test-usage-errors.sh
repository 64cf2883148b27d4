#!/bin/sh
# Proves: bad rt-migrate-test invocations exit 2 with exactly one line plus
# the hint, nothing on stdout and no --json file (2.4 printed its help and
# exited 0, crashed with SIGFPE after the run for -l 0, ran zero tasks for
# NR_TASKS 0 or text, and ran past priority 99 at SCHED_OTHER); the odd
# forms 2.4 takes still work: abbreviations (--p and --pr are still --prio
# beside --preflight), --opt=V and --opt V, words after NR_TASKS (ignored,
# with a warning).
# test-timeout: 180
. "$top_srcdir/tests/cli/lib.sh"

while IFS='|' read -r args msg; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 rt-migrate-test --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	printf 'rt-migrate-test: %s\nTry '"'"'rt-migrate-test --help'"'"' for more information.\n' \
		"$msg" >"$WORK/want"
	compare_exact "$ERR" "$WORK/want"
	[ ! -e "$WORK/out.json" ] || fail "$args: --json file created"
done <<'TABLE'
-l 0|invalid --loops '0': must be 1..1000000
--loops=-1|invalid --loops '-1': must be 1..1000000
-p 98 3|invalid --prio 98 with 3 tasks: they take priorities 98..100 and the main thread 101, above 99
--prio 0|invalid --prio '0': must be 1..98
-r 0|invalid --run-time '0': must be 1..3600000 (ms)
--sleep-time=1x|invalid --sleep-time '1x': must be 0..3600000 (ms)
-m abc|invalid --maxerr 'abc': must be 0..3600000000 (us)
-D 1.5m|invalid --duration '1.5m': must be N, Ns, Nm, Nh or Nd, at most 3650d
0|invalid NR_TASKS '0': must be 1..98
abc|invalid NR_TASKS 'abc': must be 1..98
-1|invalid option '-1'
-x|invalid option '-x'
--bogus|unrecognized or ambiguous option '--bogus'
-l|option '-l' requires an argument
TABLE

# The forms 2.4 accepts
need_root
run_tool_timeout 30 rt-migrate-test --no-preflight --p 5 --qu --sl=5 --run 2 --lo 1 2
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^ Task 0 \(prio 5\) \(pid [0-9]+\):$'
expect_match "$OUT" '^ Task 1 \(prio 6\) \(pid [0-9]+\):$'
# words after NR_TASKS: no harness passes any (Red Hat's: `rt-migrate-test 2`)
run_tool_timeout 30 rt-migrate-test --no-preflight -l 1 2 extra words
expect_exit 2
expect_empty_stdout
expect_text "$ERR" "rt-migrate-test: unexpected argument 'extra'
Try 'rt-migrate-test --help' for more information."
# -D 0: no time limit, as 2.4 (the loops end the run)
run_tool_timeout 30 rt-migrate-test --no-preflight -q -D 0 -l 2 -s 5 -r 1 2
expect_exit 0
expect_match "$OUT" '^ Task 1 \(prio 3\) \(pid [0-9]+\):$'
run_tool_timeout 30 rt-migrate-test --no-preflight -q --pr=7 -l 1 -s 1 -r 1 1
expect_exit 0
expect_match "$OUT" '^ Task 0 \(prio 7\) \(pid [0-9]+\):$'
finish
