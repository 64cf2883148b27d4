#!/bin/sh
# Proves: bad deadline_test invocations exit 2 with exactly the expected
# line plus the hint, nothing on stdout and no --json file (2.4 took text
# as 0 through atoi, wrapped negative values, ignored what followed a
# non-option word, and exited 1 or 255); --help goes to stdout with exit 0
# and lists 2.4's options in 2.4's wording; without CAP_SYS_NICE the run
# is one line naming it and exit 1 before any output (2.4 printed its
# calibration and exited 0 with "Thread 0 failed: Failed sched_setattr").
. "$top_srcdir/tests/cli/lib.sh"

ALLOWED=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)
HINT="Try 'deadline_test --help' for more information."
while IFS='|' read -r args line; do
	[ -n "$args" ] || continue
	rm -f "$WORK/out.json"
	# shellcheck disable=SC2086
	run_tool_timeout 30 deadline_test --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	printf 'deadline_test: %s\n%s\n' "$line" "$HINT" |
		sed "s/ALLOWED/$ALLOWED/" >"$WORK/expected.err"
	compare_exact "$ERR" "$WORK/expected.err"
	[ ! -e "$WORK/out.json" ] || fail "$args: --json file created"
done <<'TABLE'
-p 0|invalid --percent '0': must be 1..100 (%)
-p 101|invalid --percent '101': must be 1..100 (%)
-p abc|invalid --percent 'abc': must be 1..100 (%)
-P 0|invalid --run-percent '0': must be 1..1000 (%)
-P 1001|invalid --run-percent '1001': must be 1..1000 (%)
-t 0|invalid --threads '0': must be 1..1024
-t abc|invalid --threads 'abc': must be 1..1024
-t 1025|invalid --threads '1025': must be 1..1024
-i -1|invalid --interval '-1': must be 1..4194304 (us)
-i 0|invalid --interval '0': must be 1..4194304 (us)
-i 4194305|invalid --interval '4194305': must be 1..4194304 (us)
-s 1x|invalid --step '1x': must be 0..4194304 (us)
-r 99|invalid --rt-prio '99': must be 0..98
-r -1|invalid --rt-prio '-1': must be 0..98
-c 5000|invalid --cpus '5000': must be a CPU list within the allowed CPUs ALLOWED
-c 1-0|invalid --cpus '1-0': a CPU range must ascend (LOW-HIGH)
-b -c 0|--bind|-b and --cpus|-c cannot be used together
-i 4000000 -s 200000 -t 2|invalid --step 200000 with --threads 2: the last deadline would be 4200000 us, more than 4194304 us
-D 1.5m|invalid --duration '1.5m': must be N, Ns, Nm, Nh or Nd, at most 3650d
--max-misses=-1|invalid --max-misses '-1': must be 0..9223372036854775807
-x|invalid option '-x'
-t|option '-t' requires an argument
--p|unrecognized or ambiguous option '--p'
--bogus|unrecognized or ambiguous option '--bogus'
5 -p 20|unexpected argument '5'
TABLE

# --help: stdout, exit 0, 2.4's first line and option lines (with our long names)
run_tool deadline_test --help
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^deadline_test V 2\.40 \(rt-tests-ng [0-9.]+\)$'
for o in '-b +--bind +Bind on the last cpu\. \(shortcut for -c <lastcpu>\)' \
	'-c CPUSET --cpus=CPUSET +Comma/hyphen separated list of CPUs to run deadline' \
	'-h +--help +Show this help menu' \
	'-i INTV +--interval=INTV +The shortest deadline for the tasks' \
	'-r PRIO +--rt-prio=PRIO +Add an RT task with given prio to stress system' \
	'-s STEP +--step=STEP +The amount to increase the deadline for each task in us' \
	'-t NUM +--threads=NUM +The number of threads to run as deadline \(default 2\)'; do
	expect_match "$OUT" "^$o"
done
run_tool deadline_test -h
expect_exit 0
[ -s "$OUT" ] || fail "-h: no help"

# An unwritable --json path: one line before anything runs, exit 1, no file.
run_tool_timeout 30 deadline_test -t 1 -D 1 --json="$WORK/missing/x.json"
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "deadline_test: cannot write --json file '$WORK/missing/x.json': No such file or directory"
[ ! -e "$WORK/missing" ] || fail "--json: $WORK/missing created"

# No CAP_SYS_NICE: one line, exit 1, no output, no JSON.
need_root
need_cmd setpriv
rc=0
rm -f "$WORK/out.json"
chmod 777 "$WORK"
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	"$(tool deadline_test)" --json="$WORK/out.json" -D 1 -t 1 >"$OUT" 2>"$ERR" || rc=$?
RC=$rc
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "deadline_test: SCHED_DEADLINE refused (EPERM): no CAP_SYS_NICE: run as root or with CAP_SYS_NICE (RLIMIT_RTPRIO does not admit SCHED_DEADLINE)"
[ ! -e "$WORK/out.json" ] || fail "EPERM: --json file created"
finish
