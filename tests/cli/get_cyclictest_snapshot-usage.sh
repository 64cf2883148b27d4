#!/bin/sh
# Proves: get_cyclictest_snapshot's usage errors (what rt-tests 2.4's
# argparse refuses with exit 2, and PIDs that are no number in 1..4194304,
# which 2.4 passed to kill) are one line and a hint on stderr, exit 2,
# nothing on stdout and nothing done; --help starts with 2.4's usage line;
# --version; the bash completion offers its options.
. "$top_srcdir/tests/cli/lib.sh"
P=get_cyclictest_snapshot
HINT="Try '$P --help' for more information."

# usage_error ARGS... -- MESSAGE
check_usage() {
	_msg=$1
	shift
	run_tool $P "$@"
	expect_exit 2
	expect_empty_stdout
	printf '%s\n%s\n' "$P: $_msg" "$HINT" >"$WORK/want"
	compare_exact "$ERR" "$WORK/want"
}
check_usage "invalid option '-x'" -x
check_usage "unexpected argument '123'" 123
check_usage "unexpected argument '5'" -l 5
check_usage "unexpected argument '2'" -s1 2
check_usage "unexpected argument '2'" --print=1 2
check_usage "unexpected argument '--'" --
check_usage "unexpected argument '--'" -s -- 5
check_usage "invalid --snapshot 'abc': must be 1..4194304 (PID)" -s abc
check_usage "invalid --snapshot '-5': must be 1..4194304 (PID)" -s -5
check_usage "invalid --print '0': must be 1..4194304 (PID)" -l -p 0
check_usage "invalid --print '4194305': must be 1..4194304 (PID)" --pr 1 4194305
check_usage "invalid --snapshot '': must be 1..4194304 (PID)" --snapshot=
check_usage "unrecognized or ambiguous option '--help=x'" --help=x
check_usage "unrecognized or ambiguous option '--bogus'" --bogus

run_tool $P --help
expect_exit 0
expect_empty_stderr
[ "$(head -n 1 "$OUT")" = "usage: get_cyclictest_snapshot [-h] [-l] [-s [pid ...]] [-p [pid ...]]" ] ||
	fail "--help: first line is not 2.4's: $(head -n 1 "$OUT")"
run_tool $P -h
expect_exit 0
run_tool $P --version
expect_exit 0
expect_match "$OUT" "^$P \\(rt-tests-ng\\) "

# The completion: its options, and no file names after -s/-p.
bc=/usr/share/bash-completion/bash_completion
if command -v bash >/dev/null 2>&1 && [ -r "$bc" ]; then
	mkdir "$WORK/bin"
	ln -s "$(tool $P)" "$WORK/bin/$P"
	complete_words() {
		PATH="$WORK/bin:$PATH" bash --norc -c '
			. "$1"; . "$2"; shift 2
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_get_cyclictest_snapshot "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
			printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$top_srcdir/completions/rt-tests-ng" "$@"
	}
	complete_words $P --sn >"$OUT"
	expect_text "$OUT" "--snapshot"
	complete_words $P -s 1 --pr >"$OUT"
	expect_text "$OUT" "--print"
	(cd "$WORK" && complete_words $P -p b) >"$OUT"
	grep -qx bin "$OUT" && fail "-p: file names offered"
else
	echo "bash-completion not installed: completion not checked"
fi
finish
