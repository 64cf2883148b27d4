#!/bin/sh
# Proves: usage errors exit 2 with one line (and the hint) on stderr and
# nothing on stdout, numbers are range-checked (2.4 took -t 0 as 1, -s -1,
# -i 0 died later, -D 5x as 5); -a takes the next word only when it is not
# an option (2.4: "-a -D 5" gave "Invalid cpu input '-D'"); -h and
# --version exit 0 on stdout; -a with a proper subset of the CPUs is
# refused with one line, exit 1, before anything runs.
. "$top_srcdir/tests/cli/lib.sh"

# usage_error ERROR-LINE ARGS...
usage_error() {
	_want=$1
	shift
	run_tool cyclicdeadline "$@"
	expect_exit 2
	expect_empty_stdout
	printf '%s\n%s\n' "cyclicdeadline: $_want" "Try 'cyclicdeadline --help' for more information." \
		>"$WORK/want.err"
	compare_exact "$ERR" "$WORK/want.err"
}

usage_error "invalid --threads '0': must be 1..1024" -t 0
usage_error "invalid --threads 'abc': must be 1..1024" --thr=abc
usage_error "invalid --interval '0': must be 2..1000000 (us)" -i 0
usage_error "invalid --interval '1': must be 2..1000000 (us)" --interval 1
usage_error "invalid --step '-1': must be 0..1000000 (us)" -s -1
usage_error "invalid --breaktrace '0': must be 1..3600000000 (us)" -b 0
usage_error "--tracemark needs --breaktrace" --tracemark
usage_error "--analyze needs a threshold: --analyze=USEC or --breaktrace=USEC" --analyze
usage_error "unrecognized or ambiguous option '--bogus'" --bogus
usage_error "unexpected argument 'x'" -q x
usage_error "option '--json' requires an argument" --json
# -a does not take an option as its CPUSET: the error is -D's.
run_tool cyclicdeadline -a -D 5x
expect_exit 2
expect_match "$ERR" "^cyclicdeadline: invalid --duration '5x'"
expect_empty_stdout

run_tool cyclicdeadline -h
expect_exit 0
expect_empty_stderr
head -n 1 "$OUT" | grep -Eq '^cyclicdeadline V 2\.40 ' || fail "-h: first line $(head -n 1 "$OUT")"
run_tool cyclicdeadline --version
expect_exit 0
expect_match "$OUT" 'rt-tests-ng'

if [ "$(nproc)" -ge 2 ]; then
	run_tool cyclicdeadline -a 0 -q -D 1
	expect_exit 1
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "-a 0: not one line: $(cat "$ERR")"
	expect_match "$ERR" "^cyclicdeadline: -a 0: a SCHED_DEADLINE thread's affinity must cover its whole root domain \(CPUs [0-9,-]+ here\), and cyclicdeadline creates no cpusets: run it in an exclusive cpuset of CPUs 0 .* and omit -a$"
fi
finish
