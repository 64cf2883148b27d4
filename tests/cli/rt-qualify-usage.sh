#!/bin/sh
# Proves: rt-qualify's usage errors are one line on stderr, exit 2, nothing
# on stdout and no result directory; --help and --version exit 0; a missing
# stress-ng is a run-time error (exit 1) before anything is measured;
# --setup-only prints the findings (each problem or note, with its fix),
# writes nothing, and exits 3 exactly when a problem was found.
. "$top_srcdir/tests/cli/lib.sh"
cd "$WORK" || exit 99

usage_error() {
	run_tool_timeout 10 rt-qualify "$@"
	expect_exit 2
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -le 2 ] || fail "$*: more than the error and the hint: $(cat "$ERR")"
	grep -q '^rt-qualify: ' "$ERR" || fail "$*: no 'rt-qualify:' error line"
}
usage_error --duration=2
usage_error -D 5x
usage_error --load=kernel-build
usage_error --max-latency=0
usage_error --max-latency=abc
usage_error --max-percentile=99.9
usage_error --max-percentile=101:5
usage_error --cpus=4096
usage_error --output=
usage_error --no-such-option
usage_error --setup-only stray
expect_match "$ERR" "stray"
ls -d rt-qualify-* >/dev/null 2>&1 && fail "a usage error left a result directory"

run_tool_timeout 10 rt-qualify --help
expect_exit 0
for o in --output --duration --max-latency --max-percentile --load --cpus --setup-only --metrics; do
	grep -q -- "$o" "$OUT" || fail "--help does not list $o"
done
run_tool_timeout 10 rt-qualify --version
expect_exit 0
expect_match "$OUT" "rt-tests-ng"

# stress-ng asked for but not on PATH: exit 1, said why, nothing measured
RC=0
PATH=/nonexistent "$(tool rt-qualify)" --load=stress-ng -D 3 -o "$WORK/none" >"$OUT" 2>"$ERR" </dev/null || RC=$?
expect_exit 1
expect_match "$ERR" "stress-ng is not installed"
[ ! -e "$WORK/none" ] || fail "--load=stress-ng without stress-ng made a result directory"

run_tool_timeout 20 rt-qualify --setup-only
case $RC in
0) expect_no_match "$OUT" '^problem: ' ;;
3) expect_match "$OUT" '^problem: ' ;;
*) fail "--setup-only: exit $RC (stderr: $(cat "$ERR"))" ;;
esac
expect_match "$OUT" '^rt-qualify: .*measured CPU'
# every line is the header, a finding or its fix
grep -Ev '^(rt-qualify: |problem: |note: |  fix: |no findings: )' "$OUT" >"$WORK/other" &&
	fail "--setup-only: unexpected line: $(head -n 1 "$WORK/other")"
ls -d rt-qualify-* >/dev/null 2>&1 && fail "--setup-only wrote a result directory"
finish
