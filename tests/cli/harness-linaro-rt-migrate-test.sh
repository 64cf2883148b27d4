#!/bin/sh
# Proves: Linaro's rt-migrate-test test definition works with our
# rt-migrate-test (tests/harness/README, section 4; automated/linux/
# rt-migrate-test/rt-migrate-test.sh of Linaro/test-definitions @ 371ffa51
# and the older @ 0e00add2):
# - current: `rt-migrate-test -q -p 96 -D 1s -c --json=FILE` (the yaml's
#   priority, lower on more than 3 CPUs) gives a JSON that parse_rt_tests_results.py reads as
#   t<i>-min/avg/max-latency pass <integer> us for each of num_threads tasks
#   (min <= avg <= max) and "rt-migrate-test pass";
# - older: `rt-migrate-test -D 1s -c | tee LOG` parsed from the text as it
#   does (the last "Task" line's $2, the Passed!/Failed! line, each task's
#   block up to its Avg line) gives t<t>-p<2+t>-max/min/tot/avg pass <V> us
#   for the same number of tasks;
# - each run exits 0 exactly when it passed (return_code 0, "Passed!").
# A run that fails its check is retried (twice): on a shared machine other
# real-time tasks can delay ours; the layout checks hold for every run.
# RT_MIGRATE_TEST=/path runs another binary (e.g. /usr/bin/rt-migrate-test,
# 2.4, which exits 1 after "Passed!" and return_code 0: that check fails).
# test-timeout: 300
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/harness/guard.sh"
need_rt
need_python3
RMT=${RT_MIGRATE_TEST:-$(tool rt-migrate-test)}
[ -x "$RMT" ] || skip "no rt-migrate-test at $RMT (src/rt-migrate-test is not built in this tree)"
PARSE="$top_srcdir/tests/helpers/linaro_json_result.py"

# The yaml's priority, lowered where its tasks (one per CPU and one) would
# go above 99.
NCPU=$(getconf _NPROCESSORS_ONLN)
PRIO=96
[ $((PRIO + NCPU)) -le 99 ] || PRIO=$((99 - NCPU))

# The current harness, retried while the verdict is fail.
for attempt in 1 2 3; do
	guarded 30 "$RMT" -q -p "$PRIO" -D 1s -c --json="$WORK/rt-migrate-test-1.json" >"$OUT" 2>"$ERR" </dev/null
	[ "$GUARD_KILLED" -eq 0 ] || { fail "current: still running after 30 s"; break; }
	python3 "$PARSE" rt-migrate-test "$WORK/rt-migrate-test-1.json" >"$WORK/parse.diag" 2>&1 ||
		{ fail "parse_rt_tests_results.py's reading: $(head -c 600 "$WORK/parse.diag")"; break; }
	R="$WORK/rt-migrate-test-1.json.result"
	if grep -qx 'rt-migrate-test pass' "$R"; then
		[ "$RC" -eq 0 ] || fail "current: exit $RC with return_code 0 (stderr: $(head -c 300 "$ERR"))"
		break
	fi
	[ "$RC" -ne 0 ] || fail "current: exit 0 with return_code != 0"
	[ "$attempt" -lt 3 ] || fail "current: the check failed in 3 runs: $(tail -n 5 "$OUT")"
done
N=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["num_threads"])' \
	"$WORK/rt-migrate-test-1.json" 2>/dev/null) || N=0
[ "$N" -ge 2 ] || fail "current: num_threads $N"
: >"$WORK/want.re"
for t in $(seq 0 $((N - 1))); do
	for k in min avg max; do
		echo "t$t-$k-latency pass [0-9]+ us" >>"$WORK/want.re"
	done
done
echo "rt-migrate-test (pass|fail)" >>"$WORK/want.re"
compare_regex "$R" "$WORK/want.re"
awk '/-min-latency/ { mn = $3 } /-avg-latency/ { av = $3 }
     /-max-latency/ { if (!(mn <= av && av <= $3)) { print; bad = 1 } } END { exit bad }' "$R" \
	>"$WORK/order.diag" || fail "current: not min <= avg <= max: $(cat "$WORK/order.diag")"

# older_parse LOG: the older harness's reading of the text, written anew.
older_parse() {
	_log=$1
	_tn=$(grep "Task" "$_log" | tail -n 1 | awk '{ print $2 }')
	_r=$(sed -n 's/Passed!/pass/p; s/Failed!/fail/p' "$_log")
	for _t in $(seq 0 "$_tn"); do
		_p=$(grep "Task $_t" "$_log" | awk '{ print substr($4, 1, length($4) - 1) }')
		sed -n "/Task $_t/,/Avg/p" "$_log" | grep -v "Task" |
			awk -v t="$_t" -v p="$_p" -v r="$_r" \
				'{ printf("t%s-p%s-%s %s %s %s\n", t, p, tolower(substr($1, 1, length($1) - 1)), r, $2, $3) }'
	done
}

# The older harness (sh -e, the text through tee), retried likewise.
for attempt in 1 2 3; do
	RC=0
	{ guarded 30 "$RMT" -D 1s -c </dev/null 2>"$ERR"; echo "$RC" >"$WORK/older.rc"; } |
		tee "$WORK/rt-migrate-test.txt" >/dev/null
	RC=$(cat "$WORK/older.rc")
	older_parse "$WORK/rt-migrate-test.txt" >"$WORK/older-result.txt" 2>"$WORK/older.diag"
	if grep -q 'Passed!' "$WORK/rt-migrate-test.txt"; then
		[ "$RC" -eq 0 ] || fail "older: exit $RC after Passed! (stderr: $(head -c 300 "$ERR"))"
		break
	fi
	[ "$RC" -ne 0 ] || fail "older: exit 0 without Passed!"
	[ "$attempt" -lt 3 ] || fail "older: the check failed in 3 runs: $(tail -n 5 "$WORK/rt-migrate-test.txt")"
done
[ ! -s "$WORK/older.diag" ] || fail "older: the parse complained: $(head -c 300 "$WORK/older.diag")"
: >"$WORK/want.re"
for t in $(seq 0 $((N - 1))); do
	for k in max min tot avg; do
		echo "t$t-p$((2 + t))-$k +pass [0-9]+ us" >>"$WORK/want.re"
	done
done
compare_regex "$WORK/older-result.txt" "$WORK/want.re"
finish
