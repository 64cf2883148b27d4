#!/bin/sh
# Proves: Linaro's pi-stress test definition works with our pi_stress
# (tests/harness/README, section 3; automated/linux/pi-stress/pi-stress.sh
# of Linaro/test-definitions @ 0f565a27 and the older @ 31c87bab): started
# in the foreground with SIGTERM ignored (the harness's trap '' TERM), as
# `pi_stress -q --duration D [--mlockall] [--rr] --json=FILE` once, and
# twice with --mlockall --rr, each ends by itself with exit 0 and a JSON
# that the harness's parse_rt_tests_results.py reads as "inversion pass N
# count" (N > 0, an integer) and "pi-stress pass" (prefixed
# "iteration-<i>-" for more than one iteration); the older form
# `pi_stress --duration D "" ""` (empty words for its switches off) exits
# 0, which check_return records as a pass.
# PI_STRESS=/path runs another binary (e.g. /usr/bin/pi_stress, 2.4).
# test-timeout: 300
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/harness/guard.sh"
need_rt
need_python3
PI=${PI_STRESS:-$(tool pi_stress)}
[ -x "$PI" ] || skip "no pi_stress at $PI (src/pi_stress is not built in this tree)"

# current OUTPUT ITERATIONS DURATION MLOCKALL RR: the current harness's runs.
current() {
	_out=$1 _iter=$2 _dur=$3 _m='' _r=''
	"$4" && _m=--mlockall
	"$5" && _r=--rr
	mkdir -p "$_out"
	(
		trap '' TERM
		for _i in $(seq "$_iter"); do
			# shellcheck disable=SC2086
			guarded 30 "$PI" -q --duration "$_dur" $_m $_r \
				--json="$_out/pi-stress-$_i.json" >>"$_out/stdout" 2>>"$_out/stderr" </dev/null
			echo "$RC" >>"$_out/rc"
		done
	)
	[ "$(sort -u "$_out/rc")" = 0 ] ||
		fail "$_out: pi_stress exited $(tr '\n' ' ' <"$_out/rc") (stderr: $(head -c 300 "$_out/stderr"))"
}

# results OUTPUT ITERATIONS: the harness's result.txt from the parsed files,
# checked against what LAVA should record.
results() {
	_out=$1 _iter=$2
	: >"$WORK/want.re"
	for _i in $(seq "$_iter"); do
		_p=
		[ "$_iter" -ne 1 ] && _p="iteration-$_i-"
		sed "s|^|$_p|g" "$_out/pi-stress-$_i.json.result" >>"$_out/result.txt"
		printf '%s\n' "${_p}inversion pass [1-9][0-9]* count" "${_p}" "${_p}pi-stress pass" >>"$WORK/want.re"
	done
	compare_regex "$_out/result.txt" "$WORK/want.re"
}

current "$WORK/plain" 1 1s false false
current "$WORK/mlock-rr" 2 1 true true

# The older harness: its switches as words, empty when off; check_return.
trap '' TERM
guarded 30 "$PI" --duration 1 "" "" >"$OUT" 2>"$ERR" </dev/null
trap - TERM
if [ "$RC" -eq 0 ]; then
	echo "pi-stress pass" >"$WORK/older.txt"
else
	echo "pi-stress fail" >"$WORK/older.txt"
	fail "older form --duration 1 '' '': exit $RC (stderr: $(head -c 300 "$ERR"))"
fi
expect_text "$WORK/older.txt" "pi-stress pass"

# The parser, once for all files (one Python start).
python3 "$top_srcdir/tests/helpers/linaro_json_result.py" pi-stress "$WORK/plain/pi-stress-1.json" \
	"$WORK/mlock-rr/pi-stress-1.json" "$WORK/mlock-rr/pi-stress-2.json" >"$WORK/parse.diag" 2>&1 ||
	fail "parse_rt_tests_results.py's reading: $(head -c 600 "$WORK/parse.diag")"
results "$WORK/plain" 1
results "$WORK/mlock-rr" 2
finish
