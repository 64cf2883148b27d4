#!/bin/sh
# Proves a --records file whose window has a time that is not a number of
# seconds from 0 to 10^10 (Infinity, 1e999, NaN, -Infinity, negative, 1e300,
# a string, missing, an end before the start) or a figure beyond 10^18 is
# refused by every command that reads it: exit 2 within the timeout (html
# once drew its time axis forever from an end of Infinity), one line on
# stderr naming the file, the line and the member, nothing on stdout, and
# no output file, not even a temporary one. The valid file still works.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
python3 "$HELPERS/synth_records.py" "$WORK/good.ndjson" threads=1 windows=3 total=0
# Line 3 is the second window: start_s 60.0, end_s 120.0.
grep -q '"start_s":60.0,"end_s":120.0,' "$WORK/good.ndjson" || fail "synth_records: layout changed"

# variant NAME FROM TO: good.ndjson with FROM replaced by TO (once) on line 3.
variant() {
	python3 - "$WORK/good.ndjson" "$WORK/$1.ndjson" "$2" "$3" <<'PY' || fail "variant $1"
import sys
lines = open(sys.argv[1]).read().split("\n")
assert sys.argv[3] in lines[2], sys.argv[3]
lines[2] = lines[2].replace(sys.argv[3], sys.argv[4], 1)
open(sys.argv[2], "w").write("\n".join(lines))
PY
}

# refused NAME MESSAGE: every command exits 2 with "'FILE' line 3: MESSAGE".
refused() {
	_f="$WORK/$1.ndjson"
	for _cmd in html plot merge junit compare; do
		report_refuses "$_cmd" "$_f" "$WORK/good.ndjson" "rt-latency-report: '$_f' line 3: $2"
	done
}

SECONDS_RANGE='must be a number of seconds from 0 to 10^10'
variant inf '"end_s":120.0' '"end_s":Infinity'
refused inf "end_s is not finite: $SECONDS_RANGE"
variant e999 '"end_s":120.0' '"end_s":1e999'
refused e999 "end_s is not finite: $SECONDS_RANGE"
variant nan '"end_s":120.0' '"end_s":NaN'
refused nan "end_s is not finite: $SECONDS_RANGE"
variant ninf '"start_s":60.0' '"start_s":-Infinity'
refused ninf "start_s is not finite: $SECONDS_RANGE"
variant neg '"start_s":60.0' '"start_s":-1'
refused neg "start_s is -1: $SECONDS_RANGE"
variant far '"end_s":120.0' '"end_s":1e300'
refused far "end_s is 1e+300: $SECONDS_RANGE"
variant str '"end_s":120.0' '"end_s":"120"'
refused str "end_s is a string: $SECONDS_RANGE"
variant none '"end_s":120.0,' ''
refused none "end_s is missing: $SECONDS_RANGE"
variant back '"start_s":60.0' '"start_s":130.5'
refused back "a window that ends (end_s 120) before it starts (start_s 130.5)"
# The window's figures: latencies within 10^18, as in a result.
variant max '"max":' '"max":9223372036854775806,"x":'
refused max "max is 9223372036854775806: must be an integer from -10^18 to 10^18"
variant p99 '"p99":' '"p99":-9223372036854775806,"x":'
refused p99 "percentiles.p99 is -9223372036854775806: must be an integer from -10^18 to 10^18"
variant avg '"avg":' '"avg":1e300,"x":'
refused avg "avg is 1e+300: must be a finite number from -10^18 to 10^18"

# The valid file, and the edges of the range: a page, and its time axis.
variant edge '"end_s":120.0' '"end_s":10000000000'
for f in good edge; do
	run_tool_timeout 20 rt-latency-report html -o "$WORK/$f.html" "$WORK/$f.ndjson"
	expect_exit 0
	expect_empty_stderr
	expect_match "$WORK/$f.html" '<h3>Latency over time \(3 windows\)</h3>'
	expect_no_match "$WORK/$f.html" '"-?(nan|inf)"'
done
finish
