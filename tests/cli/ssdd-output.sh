#!/bin/sh
# Proves: ssdd's lines are 2.4's byte for byte (#main :, #forks:, #steps:,
# an empty line, each pair's STARTING line before its EXITING line, All
# tests PASSED.) and nothing after (with --verdict "# Verdict: PASS"),
# exit 0, on a real run; -q prints only the final line; a real FAIL: with
# --tracee-exit-after, pair 0's tracee exits mid-run, its tracer names the
# pair and the step ("pair 0, step S: expected SIGTRAP stop, got exit 0"),
# the others pass, "One or more tests FAILED.", "# Verdict: FAIL" and the
# same step (2.4 judges this itself), exit 3; the JSON has 2.4's keys then
# ssdd's, agreeing with the text, return_code the exit status, valid
# against schema/ssdd.schema.json; the long options, = or a separate word,
# and abbreviations; words that are not options ignored with a warning
# (Red Hat's test runs `ssdd 10 10000`: exit 0); --help, -h, --version;
# side by side with 2.4's binary the same lines but for the numbers and
# pids, and the same exit status.
# test-timeout: 300
. "$top_srcdir/tests/cli/lib.sh"
# In a sanitizer build, LeakSanitizer cannot stop a traced process (a
# tracee) or one whose ptrace a seccomp filter refuses: it hangs or exits
# 87. Leaks are not checked in ssdd's processes; the rest of ASan is.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
need_python3
CHECKS=""

# The recorded 2.4 layout of "ssdd -f 2 -i 100" (the pairs' lines in any
# order, each STARTING before its EXITING).
layout() { # STDOUT FORKS ITERS
	printf '%s\n' '#main : [0-9]+' "#forks: $2" "#steps: $3" '' >"$WORK/head.re"
	head -n 4 "$1" >"$WORK/head"
	compare_regex "$WORK/head" "$WORK/head.re"
	awk -v forks="$2" '
		NR <= 4 { next }
		/^forktest#[0-9]+\/[0-9]+\/[0-9]+: STARTING$/ {
			split(substr($1, 10), a, "/"); start[a[1]] = a[2]; next }
		/^forktest#[0-9]+\/[0-9]+: EXITING, no error$/ {
			split(substr($1, 10), a, "/"); sub(/:$/, "", a[2])
			if (start[a[1]] != a[2]) { print "EXITING before STARTING: " $0; bad = 1 }
			done[a[1]]++; next }
		/^All tests PASSED\.$/ || /^One or more tests FAILED\.$/ || /^# Verdict: / ||
		/^forktest#0\/[0-9]+: EXITING, ERROR: / { next }
		{ print "unexpected line: " $0; bad = 1 }
		END { for (i = 0; i < forks; i++) if (!(i in start)) { print "no STARTING for " i; bad = 1 }
		      exit bad }' "$1" >"$WORK/layout.diag" || fail "layout: $(cat "$WORK/layout.diag")"
}

# A real PASS run. (Under ASan one such run in CI printed nothing in 60 s
# where it takes 0.2 s: not understood, see NEWS; one more try there.)
run_tool_timeout 60 ssdd --no-preflight -f 2 -i 1000 --json="$WORK/pass.json"
case "$RC:${SAN_CFLAGS:-}" in
124:*sanitize=address*)
	echo "note: ssdd timed out under ASan, once more"
	run_tool_timeout 60 ssdd --no-preflight -f 2 -i 1000 --json="$WORK/pass.json" ;;
esac
expect_exit 0
expect_empty_stderr
layout "$OUT" 2 1000
[ "$(grep -c ': EXITING, no error$' "$OUT")" -eq 2 ] || fail "pass: not 2 EXITING lines"
tail -n 1 "$OUT" >"$WORK/tail"
printf 'All tests PASSED.\n' >"$WORK/want"
compare_exact "$WORK/tail" "$WORK/want"
cp "$OUT" "$WORK/pass.out"
CHECKS="$CHECKS $WORK/pass.json $WORK/pass.out 2 1000 pass"

# -q: the final line only; --verdict adds the verdict asked for.
run_tool_timeout 60 ssdd --no-preflight -q -f 3 -i 200
expect_exit 0
expect_empty_stderr
compare_exact "$OUT" "$WORK/want"
run_tool_timeout 60 ssdd --no-preflight -q -f 3 -i 200 --verdict --json="$WORK/asked.json"
expect_exit 0
printf 'All tests PASSED.\n# Verdict: PASS\n' >"$WORK/want.asked"
compare_exact "$OUT" "$WORK/want.asked"


# A real FAIL: pair 0's tracee leaves its loop after 10 turns and exits.
run_tool_timeout 60 ssdd --no-preflight -f 2 -i 5000 --tracee-exit-after=10 --json="$WORK/fail.json"
expect_exit 3
expect_empty_stderr
layout "$OUT" 2 5000
expect_match "$OUT" '^forktest#0/[0-9]+: EXITING, ERROR: pair 0, step [0-9]+: expected SIGTRAP stop, got exit 0$'
expect_match "$OUT" '^forktest#1/[0-9]+: EXITING, no error$'
expect_no_match "$OUT" '^forktest#0/[0-9]+: EXITING, no error$'
step=$(sed -n 's/^forktest#0\/[0-9]*: EXITING, ERROR: pair 0, step \([0-9]*\): .*/\1/p' "$OUT")
tail -n 3 "$OUT" >"$WORK/tail"
pids=$(sed -n 's/^forktest#0\/\([0-9]*\)\/\([0-9]*\): STARTING$/#\1 -> #\2/p' "$OUT")
printf 'One or more tests FAILED.\n# Verdict: FAIL\n# Verdict: pair 0 (%s): step: step %s: expected SIGTRAP stop, got exit 0\n' \
	"$pids" "$step" >"$WORK/want.fail"
compare_exact "$WORK/tail" "$WORK/want.fail"
cp "$OUT" "$WORK/fail.out"
CHECKS="$CHECKS $WORK/fail.json $WORK/fail.out 2 5000 fail"
# -q keeps the final lines of a failure.
run_tool_timeout 60 ssdd --no-preflight -q -f 1 -i 5000 --tracee-exit-after=0
expect_exit 3
expect_match "$OUT" '^# Verdict: pair 0 \(#[0-9]+ -> #[0-9]+\): step: step [0-9]+: expected SIGTRAP stop, got exit 0$'
[ "$(wc -l <"$OUT")" -eq 3 ] || fail "-q failure: $(cat "$OUT")"

# shellcheck disable=SC2086
python3 "$top_srcdir/tests/helpers/ssdd_check.py" $CHECKS >"$WORK/diag" 2>&1 ||
	fail "JSON: $(cat "$WORK/diag")"

# Long options, = or a separate word, and abbreviations.
for args in "--forks=2 --iters=50" "--fo 2 --it 50" "-f2 -i50" "--forks 2 -i 50 --q" "--f=2 --i=50"; do
	# shellcheck disable=SC2086
	run_tool_timeout 30 ssdd --no-preflight $args
	expect_exit 0
	case $args in
	*--q*) expect_text "$OUT" "All tests PASSED." ;;
	*) layout "$OUT" 2 50 ;;
	esac
done

# Words that are not options: ignored, with a warning (2.4: silently).
run_tool_timeout 30 ssdd --no-preflight -q stray -f 1 -i 10 words
expect_exit 0
expect_text "$ERR" "ssdd: warning: ignoring 2 argument(s) that are not options, from 'stray' (as rt-tests 2.4 does)"
# Red Hat's RT test: `ssdd 10 10000` (2.4 ignores both words: 10 pairs of 10000 steps).
run_tool_timeout 60 ssdd --no-preflight -q 10 10000
expect_exit 0
expect_text "$OUT" "All tests PASSED."

# --json=- after the text.
run_tool_timeout 30 ssdd --no-preflight -q -f 1 -i 10 --json=-
expect_exit 0
sed -n '/^{/,$p' "$OUT" >"$WORK/stdout.json"
grep -q '^  "stopped_by": null,$' "$WORK/stdout.json" || fail "--json=-: no JSON after the text"
head -n 1 "$OUT" >"$WORK/head1"
printf 'All tests PASSED.\n' >"$WORK/want"
compare_exact "$WORK/head1" "$WORK/want"
check_schema "$WORK/stdout.json" ssdd
for j in "$WORK"/*.json; do
	check_schema "$j" ssdd
done

# Side by side with 2.4: the lines (sorted: the pairs end in any order) but
# for the numbers, the exit status, 2.4's JSON keys first in ours.
if [ -n "$(reference_tool ssdd)" ]; then
	shape() { sed -E 's/[0-9]+/N/g' "$1" | sort; }
	for args in "-f 2 -i 100" "-q -f 3 -i 50"; do
		# shellcheck disable=SC2086
		run_reference 60 ssdd $args --json="$WORK/ref.json"
		# shellcheck disable=SC2086
		run_tool_timeout 60 ssdd --no-preflight $args --json="$WORK/our.json"
		[ "$RC" -eq "$REF_RC" ] || fail "$args: exit $RC, 2.4 $REF_RC"
		shape "$REF_OUT" >"$WORK/ref.shape"
		shape "$OUT" >"$WORK/our.shape"
		compare_exact "$WORK/our.shape" "$WORK/ref.shape"
		python3 -c 'import json,sys; r=list(json.load(open(sys.argv[1]))); o=list(json.load(open(sys.argv[2]))); sys.exit(o[:len(r)] != r)' \
			"$WORK/ref.json" "$WORK/our.json" || fail "$args: 2.4's JSON keys are not first in ours"
		check_schema "$WORK/our.json" ssdd
	done
else
	echo "no 2.4 reference binary: the side-by-side part is skipped"
fi

run_tool ssdd --help
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^ssdd V 2\.40 '
cp "$OUT" "$WORK/help"
run_tool ssdd -h
expect_exit 0
compare_exact "$OUT" "$WORK/help"
run_tool ssdd --version
expect_exit 0
expect_match "$OUT" '^ssdd \(rt-tests-ng\) '
finish
