#!/bin/sh
# Proves: real rt-migrate-test runs report consistently: the per-iteration
# table, the task blocks and the JSON carry the same figures; the -c verdict
# (Passed!/Failed!, "# Verdict:", "verdict", "return_code", the exit code)
# agrees with what the run's own data says when re-judged (a real run's PASS
# or FAIL on a shared VM is not deterministic: a real migration failure can
# happen, and -m 0 makes one likely, so both are accepted when consistent;
# the check itself is unit-tested both ways in tests/unit/test_migrate);
# without -c there is no verdict and the exit is 0; the progress bar on
# stderr is 2.4's; -e gives tasks 1..N-2 one priority; --json=- follows the
# text; under taskset -c 0 the default is 2 tasks; --help keeps 2.4's
# option lines.
# test-timeout: 300
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3

CHECKS=""
n=0
# run_case NR_TASKS LOOPS CHECK ARGS...: a short run, checked at the end.
run_case() {
	_tasks=$1 _loops=$2 _check=$3
	shift 3
	n=$((n + 1))
	run_tool_timeout 60 rt-migrate-test --no-preflight -l "$_loops" -s 10 -r 5 \
		--json="$WORK/m$n.json" "$@" "$_tasks"
	case $RC in
	0 | 3) ;;
	*) fail "run $n ($*): exit $RC: $(head -c 300 "$ERR")" ;;
	esac
	cp "$OUT" "$WORK/m$n.out"
	cp "$ERR" "$WORK/m$n.err"
	CHECKS="$CHECKS $WORK/m$n.json $WORK/m$n.out $RC $_tasks $_loops $_check null"
}

# -c with the default maxerr (1000 us), and with -m 0 (a FAIL is likely)
run_case 3 5 1 -q -c
run_case 3 8 1 -c -m 0
# 2.4's progress bar: per iteration begun "\r|", 70 spaces, "|\r|", a dash
# per 1/70 of the loops done; then a newline
done_its=$(sed -n 's/^  "iterations_done": \([0-9]*\),$/\1/p' "$WORK/m2.json")
: >"$WORK/bar"
i=0
while [ "$i" -lt "${done_its:-0}" ]; do
	printf '\r|%70s|\r|' "" >>"$WORK/bar"
	d=$((i * 70 / 8))
	[ "$d" -gt 0 ] && printf "%${d}s" "" | tr ' ' '-' >>"$WORK/bar"
	i=$((i + 1))
done
echo >>"$WORK/bar"
compare_exact "$WORK/m2.err" "$WORK/bar"
# -q: nothing on stderr (2.4 wrote a newline)
[ ! -s "$WORK/m1.err" ] || fail "-q: stderr: $(head -c 200 "$WORK/m1.err")"
# without -c: no Passed!, no verdict, exit 0
run_case 2 3 0 -q
[ "$RC" -eq 0 ] || fail "without -c: exit $RC"
# -e: tasks 1 and 2 share prio + 1; the last is prio + 3; main above
run_case 4 2 0 -q -e -p 10
grep -E '^ Task [0-9] \(prio [0-9]+\)' "$WORK/m$n.out" | sed 's/ (pid.*//' >"$WORK/prios"
printf ' Task 0 (prio 10)\n Task 1 (prio 11)\n Task 2 (prio 11)\n Task 3 (prio 13)\n' \
	>"$WORK/prios.want"
compare_exact "$WORK/prios" "$WORK/prios.want"
grep -q '"main_prio": 14,' "$WORK/m$n.json" || fail "-e: main_prio is not 14"

# --verdict: judged on every iteration without stopping, the lines asked for
run_case 2 3 0 -q --verdict
case $RC in 0 | 3) ;; *) fail "--verdict: exit $RC" ;; esac
expect_match "$OUT" '^# Verdict: (PASS|FAIL)$'

# shellcheck disable=SC2086 # CHECKS: the helper's words
python3 "$HELPERS/migrate_check.py" $CHECKS || fail "the JSON and the text disagree (above)"
for j in "$WORK"/m*.json; do
	check_schema "$j" rt-migrate-test
done

# Side by side with 2.4 (Red Hat's `rt-migrate-test 2` form, -c, -D 0): the
# lines but for the numbers, the exit status (a -c FAIL is possible on a VM
# in either: then only the shape up to it), 2.4's JSON keys first in ours.
if [ -n "$(reference_tool rt-migrate-test)" ]; then
	shape() { sed -E 's/[0-9]+/N/g; s/ +/ /g' "$1" | grep -v '^ Failed!$\|^ Passed!$\|^# Verdict'; }
	for args in "-q -l 3 -s 10 -r 5 2" "-q -c -l 3 -s 10 -r 5 -m 3600000000 2" "-q -D 0 -l 2 -s 10 -r 5 2"; do
		# shellcheck disable=SC2086
		run_reference 60 rt-migrate-test $args --json="$WORK/ref.json"
		# shellcheck disable=SC2086
		run_tool_timeout 60 rt-migrate-test --no-preflight $args --json="$WORK/our.json"
		[ "$RC" -eq "$REF_RC" ] || fail "$args: exit $RC, 2.4 $REF_RC"
		shape "$REF_OUT" >"$WORK/ref.shape"
		shape "$OUT" >"$WORK/our.shape"
		compare_exact "$WORK/our.shape" "$WORK/ref.shape"
		python3 -c 'import json,sys; r=list(json.load(open(sys.argv[1]))); o=list(json.load(open(sys.argv[2]))); sys.exit(o[:len(r)] != r)' \
			"$WORK/ref.json" "$WORK/our.json" || fail "$args: 2.4's JSON keys are not first in ours"
		check_schema "$WORK/our.json" rt-migrate-test
	done
else
	echo "no 2.4 reference binary: the side-by-side part is skipped"
fi

# --json=-: the text, then the JSON document
run_tool_timeout 60 rt-migrate-test --no-preflight -q -c -l 2 -s 5 -r 2 --json=- 2
case $RC in 0 | 3) ;; *) fail "--json=-: exit $RC" ;; esac
sed -n '/^{$/,$p' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["num_threads"] == 2' ||
	fail "--json=-: no JSON document after the text"
grep -q '^ Task 1 (prio 3) (pid [0-9]*):$' "$OUT" || fail "--json=-: no text"

# NR_TASKS defaults to the CPUs allowed plus one (2.4 counted /proc/cpuinfo)
if command -v taskset >/dev/null 2>&1; then
	RC=0
	taskset -c 0 "$(tool rt-migrate-test)" --no-preflight -q -l 1 -s 5 -r 2 >"$OUT" 2>"$ERR" ||
		RC=$?
	expect_exit 0
	[ "$(grep -c '^ Task [0-9]' "$OUT")" -eq 2 ] || fail "taskset -c 0: not 2 tasks"
fi

# --help: exit 0 on stdout, 2.4's first line and its option lines kept
run_tool rt-migrate-test --help
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^rt-migrate-test 2\.40 '
for line in \
	'-e       --equal           Use equal prio for #CPU-1 tasks (requires > 2 CPUS)' \
	'-h       --help            Print this help message' \
	'-l LOOPS --loops=LOOPS     Number of iterations to run (50)' \
	'-p PRIO  --prio=PRIO       base priority to start RT tasks with (2)' \
	'-q       --quiet           print a summary only on exit' \
	'-r TIME  --run-time=TIME   Run time (ms) to busy loop the threads (20)' \
	'-s TIME  --sleep-time=TIME Sleep time (ms) between intervals (100)'; do
	grep -qxF -- "$line" "$OUT" || fail "--help lacks 2.4's line: $line"
done
grep -qF -- '-c       --check           Stop if lower prio task is quicker than higher (off)' "$OUT" ||
	fail "--help lacks 2.4's -c line"
run_tool rt-migrate-test --version
expect_exit 0
expect_match "$OUT" '^rt-migrate-test \(rt-tests-ng\) '
finish
