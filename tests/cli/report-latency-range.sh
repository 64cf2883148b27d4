#!/bin/sh
# Proves a latency beyond 10^18 (31 years in ns) in a result is refused where
# it is read, before any arithmetic: a max near INT64_MAX in our JSON, a
# bucket of rt-tests 2.4's histogram or of cyclictest's -h text at INT64_MAX,
# a "# Max Latencies:" value near it (the axis's 5 % margin and a bin's end
# overflowed: undefined behaviour). Exit 2, one line naming the file and the
# value, nothing on stdout, no output file. A latency of exactly 10^18, even
# for every sample, is valid: the page and the plot are drawn (in a UBSan
# build this proves the axis arithmetic stays inside 64 bits). Counts keep
# their whole 64-bit range (report-numbers.sh).
. "$top_srcdir/tests/cli/lib.sh"
need_python3
python3 "$HELPERS/synth_result.py" "$WORK/good.json" threads=2 cycles=200
python3 "$HELPERS/synth_result.py" "$WORK/good24.json" threads=2 cycles=200 v24=50

# with_max IN OUT MAX [all]: thread 0 gets one more sample (every sample
# with "all") of MAX, in the last bucket of the log-linear layout (2^36 and
# beyond), with the max beside it as the tools write it.
with_max() {
	python3 - "$@" <<'PY' || fail "with_max $2"
import json, sys
d = json.load(open(sys.argv[1]))
v, every = int(sys.argv[3]), len(sys.argv) > 4
t = d["thread"]["0"]
lh = t["latency_histogram"]
last = str(127 << 29)
if every:
    lh["buckets"] = {last: lh["count"]}
    t["min"] = t["avg"] = v
    t["percentiles"] = {k: v for k in t["percentiles"]}
else:
    lh["buckets"][last] = lh["buckets"].get(last, 0) + 1
    lh["count"] += 1
    t["cycles"] += 1
lh["max"] = t["max"] = v
t.pop("histogram", None)
t.pop("percentiles_ci", None)
json.dump(d, open(sys.argv[2], "w"))
PY
}

# refused FILE MESSAGE CMD...: each command exits 2 with the one line MESSAGE.
refused() {
	_f=$1
	_msg=$2
	shift 2
	for _cmd in "$@"; do
		report_refuses "$_cmd" "$_f" "$_f" "rt-latency-report: '$_f'$_msg"
	done
}

RANGE='must be an integer from -10^18 to 10^18'
with_max "$WORK/good.json" "$WORK/big.json" 9223372036854775806
refused "$WORK/big.json" ": thread.0.max is 9223372036854775806: $RANGE" \
	html plot compare merge junit
with_max "$WORK/good.json" "$WORK/over.json" 1000000000000000001
refused "$WORK/over.json" ": thread.0.max is 1000000000000000001: $RANGE" \
	html plot compare merge junit
python3 - "$WORK/good24.json" "$WORK/big24.json" <<'PY' || fail "big24.json"
import json, sys
d = json.load(open(sys.argv[1]))
d["thread"]["0"]["histogram"]["9223372036854775807"] = 1
d["thread"]["0"]["cycles"] += 1
json.dump(d, open(sys.argv[2], "w"))
PY
refused "$WORK/big24.json" " thread 0: bucket '9223372036854775807' is not a bucket of its histogram" \
	html plot compare
printf '# Histogram\n000010\t5\n9223372036854775807\t1\n# Min Latencies: 00010\n' >"$WORK/big.txt"
refused "$WORK/big.txt" " line 3: the bucket is 9223372036854775807: must be from 0 to 10^18" \
	html plot compare
printf '# Histogram\n000010\t5\n000011\t1\n# Max Latencies: 9223372036854775806\n' >"$WORK/max.txt"
refused "$WORK/max.txt" \
	' line 4: a value of "# Max Latencies:" is 9223372036854775806: must be from -10^18 to 10^18' \
	html plot compare
printf '# Histogram\n000010\t5\n# Max Latencies: 99999999999999999999999\n' >"$WORK/max64.txt"
refused "$WORK/max64.txt" \
	' line 3: a value of "# Max Latencies:" is 99999999999999999999999: must be from -10^18 to 10^18' \
	html plot compare

# 10^18 is a latency: one sample of it, and every sample.
with_max "$WORK/good.json" "$WORK/edge.json" 1000000000000000000
with_max "$WORK/good.json" "$WORK/edge-all.json" 1000000000000000000 all
printf '# Histogram\n000010\t5\n1000000000000000000\t1\n# Max Latencies: 1000000000000000000\n' \
	>"$WORK/edge.txt"
for f in edge.json edge-all.json edge.txt; do
	run_tool_timeout 20 rt-latency-report html -o "$WORK/$f.html" "$WORK/$f"
	expect_exit 0
	expect_empty_stderr
	expect_no_match "$WORK/$f.html" '"-?(nan|inf)"'
	if command -v gnuplot >/dev/null 2>&1; then
		run_tool_timeout 30 rt-latency-report plot -o "$WORK/$f.svg" "$WORK/$f"
		expect_exit 0
		expect_empty_stderr
	fi
done
finish
