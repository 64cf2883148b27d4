#!/bin/sh
# Proves: Linaro's cyclicdeadline test definition works with our
# cyclicdeadline (tests/harness/README, section 5;
# automated/linux/cyclicdeadline/cyclicdeadline.sh of Linaro/test-definitions
# @ 1c632fe0): its one run, `cyclicdeadline -q -i 1000 -s 500 -t 1 -D 1m
# --json=FILE` (-D 2s here), under `sh -e` ends by itself with exit 0
# (2.4 exits 1 here, where HRTICK_DL cannot be enabled, and the harness
# stops), and parse_rt_tests_results.py reads the JSON as
# "t0-min-latency pass N us", avg, max and "cyclicdeadline pass".
# A start refused for want of bandwidth (other tests' SCHED_DEADLINE
# threads, not the harness's case) is tried again.
# CYCLICDEADLINE=/path runs another binary.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/harness/guard.sh"
need_root
need_python3
CD=${CYCLICDEADLINE:-$(tool cyclicdeadline)}
[ -x "$CD" ] || skip "no cyclicdeadline at $CD"

mkdir -p "$WORK/output"
for _try in 1 2 3 4 5; do
	rm -f "$WORK/output/cyclicdeadline.json"
	guarded 30 sh -ec '"$1" -q -i "$2" -s "$3" -t "$4" -D "$5" --json="$6"' _ "$CD" 1000 500 1 2s \
		"$WORK/output/cyclicdeadline.json" >"$OUT" 2>"$ERR" </dev/null
	{ [ "$RC" -eq 1 ] && grep -q '(EBUSY)' "$ERR"; } || break
	sleep 1
done
expect_exit 0
[ -s "$WORK/output/cyclicdeadline.json" ] || fail "no JSON"
python3 "$top_srcdir/tests/helpers/linaro_json_result.py" cyclicdeadline \
	"$WORK/output/cyclicdeadline.json" >"$WORK/parse.diag" 2>&1 ||
	fail "parse_rt_tests_results.py's reading: $(head -c 600 "$WORK/parse.diag")"
printf '%s\n' 't0-min-latency pass [0-9]+ us' 't0-avg-latency pass [0-9]+(\.[0-9]+)? us' \
	't0-max-latency pass [0-9]+ us' 'cyclicdeadline pass' >"$WORK/want.re"
compare_regex "$WORK/output/cyclicdeadline.json.result" "$WORK/want.re"
finish
