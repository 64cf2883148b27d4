#!/bin/sh
# Proves: Linaro's hackbench test definition works with our hackbench
# (tests/harness/README, section 1: automated/linux/hackbench/hackbench.sh
# of Linaro/test-definitions @ ce33f2c4): its options in one word, stderr
# mixed into the log through tee, two iterations, then its "^Time" grep
# and min/max/mean over $2 give three "pass" lines with numbers, one Time
# per run, min <= mean <= max, 2.4's defaults in each run (its pipe and
# thread switches land inside the same word: the run is the same).
# HACKBENCH=/path runs another binary (e.g. /usr/bin/hackbench, 2.4).
# test-timeout: 300
. "$top_srcdir/tests/cli/lib.sh"
need_cmd tee
HB=${HACKBENCH:-$(tool hackbench)}
[ -x "$HB" ] || skip "no hackbench at $HB"

# linaro_hackbench OUTPUT ITERATION PIPE THREADS: the harness's run and parse.
linaro_hackbench() {
	_out=$1 _iter=$2 _pipe=$3 _threads=$4
	mkdir -p "$_out"
	_log="$_out/hackbench-output-host.txt"
	_opts="-s 100 -l 100 -g 10 -f 20"
	"$_pipe" && _opts="$_opts -p"
	"$_threads" && _opts="$_opts -T"
	for _i in $(seq "$_iter"); do
		# The exit code the harness does not see, kept to check it.
		{ "$HB" "$_opts" </dev/null 2>&1 || echo "$?" >>"$_out/rc"; } | tee -a "$_log" >/dev/null
	done
	grep "^Time" "$_log" |
		awk '{ if (min == "") { min = max = $2 }
		       if ($2 > max) max = $2
		       if ($2 < min) min = $2
		       total += $2; count += 1 }
		     END { printf("hackbench-mean pass %s s\n", total / count)
		           printf("hackbench-min pass %s s\n", min)
		           printf("hackbench-max pass %s s\n", max) }' >>"$_out/result.txt"
}

# check_result OUTPUT ITERATION: what LAVA would record is right.
check_result() {
	_out=$1
	[ ! -s "$_out/rc" ] || fail "$_out: hackbench exited $(tr '\n' ' ' <"$_out/rc")"
	_n=$(grep -c '^Time' "$_out/hackbench-output-host.txt")
	[ "$_n" -eq "$2" ] || fail "$_out: $_n lines start with Time, $2 runs"
	_bad=$(grep '^Time' "$_out/hackbench-output-host.txt" | grep -Ev '^Time: [0-9]+\.[0-9]{3}$' | head -n 1)
	[ -z "$_bad" ] || fail "$_out: a Time line the awk cannot read: $_bad"
	printf '%s\n' 'hackbench-mean pass [0-9]+(\.[0-9]+)? s' 'hackbench-min pass [0-9]+\.[0-9][0-9][0-9] s' \
		'hackbench-max pass [0-9]+\.[0-9][0-9][0-9] s' >"$WORK/result.re"
	compare_regex "$_out/result.txt" "$WORK/result.re"
	awk '{ v[NR] = $3 } END { exit !(NR == 3 && v[1] > 0 && v[2] <= v[1] + 0.0005 && v[1] <= v[3] + 0.0005) }' \
		"$_out/result.txt" || fail "$_out: not min <= mean <= max: $(tr '\n' ' ' <"$_out/result.txt")"
	# The one word runs the defaults, as with 2.4: 10 groups of 20 fds.
	[ "$(grep -c '^Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)$' \
		"$_out/hackbench-output-host.txt")" -eq "$2" ] || fail "$_out: not 2.4's defaults in every run"
}

linaro_hackbench "$WORK/default" 2 false false
check_result "$WORK/default" 2
finish
