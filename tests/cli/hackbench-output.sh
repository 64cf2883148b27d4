#!/bin/sh
# Proves: hackbench's lines are 2.4's byte for byte (header, Time:) in
# process and thread mode over sockets, pipes and TCP; the JSON has its keys
# in order and agrees with the arguments and the text (a completed run passes
# groups x fds x fds x loops messages); --help, -h and --version exit 0 on
# stdout; the odd forms harnesses pass are accepted as 2.4 takes them: the
# long options and their abbreviations (--d is still --datasize), Linaro's
# options in one word (only the leading number counts, with a warning), the
# old positional form (ignored, with a warning).
# test-timeout: 300
. "$top_srcdir/tests/cli/lib.sh"
need_python3

header() { # MODE GROUPS FDS LOOPS SIZE
	printf 'Running in %s mode with %d groups using %d file descriptors each (== %d tasks)\n' \
		"$1" "$2" $(($3 * 2)) $(($2 * $3 * 2))
	printf 'Each sender will pass %d messages of %d bytes\n' "$4" "$5"
}

# run_case MODE TRANSPORT ARGS...: -g 2 -f 3 -l 100 -s 64 with ARGS; its
# JSON is checked at the end, with all the others (one Python start).
CHECKS=""
n=0
run_case() {
	_mode=$1 _tr=$2
	shift 2
	n=$((n + 1))
	run_tool_timeout 60 hackbench -g 2 -f 3 -l 100 -s 64 --no-preflight --json="$WORK/h$n.json" "$@"
	expect_exit 0
	expect_empty_stderr
	header "$_mode" 2 3 100 64 >"$WORK/want"
	head -n 2 "$OUT" >"$WORK/got"
	compare_exact "$WORK/got" "$WORK/want"
	printf '%s\n' 'Time: [0-9]+\.[0-9][0-9][0-9]' >"$WORK/time.re"
	tail -n +3 "$OUT" >"$WORK/rest"
	compare_regex "$WORK/rest" "$WORK/time.re"
	cp "$OUT" "$WORK/h$n.out"
	CHECKS="$CHECKS $WORK/h$n.json $WORK/h$n.out $_mode $_tr 2 3 100 64 null"
}
run_case process socket
run_case process pipe -p
run_case process inet -i
run_case threaded socket -T
run_case threaded pipe -T --pipe
run_case threaded inet --threads --inet
run_case process socket -T -P
run_case threaded pipe --process --thr --pi

# shellcheck disable=SC2086
python3 "$top_srcdir/tests/helpers/hackbench_check.py" $CHECKS >"$WORK/diag" 2>&1 ||
	fail "JSON: $(cat "$WORK/diag")"

# Long options, = or a separate word, and abbreviations; --d is --datasize.
for args in "--groups=1 --fds=2 --loops=3 --datasize=50" "--gr 1 --fd 2 --lo 3 --d 50" \
	"-g1 -f2 -l3 --d=50" "--groups 1 -f 2 --loops=3 --da=50"; do
	# shellcheck disable=SC2086
	run_tool_timeout 30 hackbench --no-preflight $args
	expect_exit 0
	header process 1 2 3 50 >"$WORK/want"
	head -n 2 "$OUT" >"$WORK/got"
	compare_exact "$WORK/got" "$WORK/want"
done

# Linaro's one word: -s " 100 -l 100 -g 10 -f 20", so only -s 100 counts (as 2.4):
# the defaults, 10 groups of 20 fds, 100 loops.
run_tool_timeout 120 hackbench "-s 100 -l 100 -g 10 -f 20"
expect_exit 0
header process 10 20 100 100 >"$WORK/want"
head -n 2 "$OUT" >"$WORK/got"
compare_exact "$WORK/got" "$WORK/want"
expect_match "$OUT" '^Time: [0-9]+\.[0-9]{3}$'
expect_match "$ERR" "^hackbench: warning: --datasize: ignoring ' -l 100 -g 10 -f 20' after the number, as rt-tests 2\\.4 does"
# The same word given for another option.
run_tool_timeout 60 hackbench -T --no-preflight "-l 5 -g 1 -f 1"
expect_exit 0
header threaded 10 20 5 100 >"$WORK/want"
head -n 2 "$OUT" >"$WORK/got"
compare_exact "$WORK/got" "$WORK/want"
expect_text "$ERR" "hackbench: warning: --loops: ignoring ' -g 1 -f 1' after the number, as rt-tests 2.4 does (options given as one argument?)"

# The old positional form: ignored, with a warning; the run uses the options.
run_tool_timeout 30 hackbench --no-preflight 10 process 100 -g 1 -f 1 -l 1
expect_exit 0
header process 1 1 1 100 >"$WORK/want"
head -n 2 "$OUT" >"$WORK/got"
compare_exact "$WORK/got" "$WORK/want"
expect_text "$ERR" "hackbench: warning: ignoring 3 argument(s) that are not options, from '10' (as rt-tests 2.4 does)"

# --json=- after the text.
run_tool_timeout 30 hackbench --no-preflight -g 1 -f 2 -l 5 --json=-
expect_exit 0
expect_match "$OUT" '^Time: '
sed -n '/^{/,$p' "$OUT" >"$WORK/stdout.json"
grep -q '^  "stopped_by": null,$' "$WORK/stdout.json" || fail "--json=-: no JSON after the text"
expect_no_match "$OUT" '^# Verdict:'
for j in "$WORK"/*.json; do
	check_schema "$j" hackbench
done

# --verdict: the judgement asked for (2.4 judges nothing: only then), exit 0 on PASS.
run_tool_timeout 30 hackbench --no-preflight -g 1 -f 2 -l 5 --verdict --json="$WORK/v.json"
expect_exit 0
tail -n 1 "$OUT" | grep -qx '# Verdict: PASS' || fail "--verdict: $(tail -n 1 "$OUT")"
check_schema "$WORK/v.json" hackbench
# -D 0: no time limit, one run as without -D.
run_tool_timeout 30 hackbench --no-preflight -g 1 -f 2 -l 5 -D 0
expect_exit 0
[ "$(grep -c '^Time: ' "$OUT")" -eq 1 ] || fail "-D 0: $(cat "$OUT")"

# Side by side with 2.4 (its Linaro one-word form too): the lines but for the
# numbers, the same exit status.
if [ -n "$(reference_tool hackbench)" ]; then
	for args in "-g 2 -f 3 -l 50" "-T -g 1 -f 2 -l 20 -s 64" "-p -l 20"; do
		# shellcheck disable=SC2086
		run_reference 60 hackbench $args
		# shellcheck disable=SC2086
		run_tool_timeout 60 hackbench --no-preflight $args
		[ "$RC" -eq "$REF_RC" ] || fail "$args: exit $RC, 2.4 $REF_RC"
		sed -E 's/[0-9.]+/N/g' "$REF_OUT" >"$WORK/ref.shape"
		sed -E 's/[0-9.]+/N/g' "$OUT" >"$WORK/our.shape"
		compare_exact "$WORK/our.shape" "$WORK/ref.shape"
	done
else
	echo "no 2.4 reference binary: the side-by-side part is skipped"
fi

run_tool hackbench --help
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^hackbench V 2\.40 '
cp "$OUT" "$WORK/help"
run_tool hackbench -h
expect_exit 0
compare_exact "$OUT" "$WORK/help"
run_tool hackbench --version
expect_exit 0
expect_match "$OUT" '^hackbench \(rt-tests-ng\) '
finish
