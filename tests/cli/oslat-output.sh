#!/bin/sh
# Proves oslat's stdout is rt-tests 2.4's layout (the lines Debian's 2.4
# printed here are in tests/helpers/oslat_check.py, numbers as regexes):
# header with TABs, the table with %03d labels and "(including overflows)",
# Minimum/Average/Maximum/Max-Min/Duration; -q keeps the version line and the
# table; -B shifts the labels; the JSON has 2.4's keys in 2.4's order, then
# ours, and agrees with the text; --json=- follows the summary; -w memmove
# takes -m as a plain byte count; --percentiles and --records add their
# lines; -f on CPU 0 warns on stdout as 2.4 does.
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
CHECK="$top_srcdir/tests/helpers/oslat_check.py"
n=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')

run_tool_timeout 15 oslat -D 1 --json="$WORK/o.json"
expect_exit 0
python3 "$CHECK" "$OUT" "$WORK/o.json" "$n" 32 full || fail "default run: layout or JSON"
expect_match "$OUT" '^     Maximum:	( [0-9]+)+ \(us\)$'

run_tool_timeout 15 oslat -q -c 0 -b 8 -B --json=- --no-preflight
expect_exit 0
head -n 17 "$OUT" >"$WORK/text"
python3 "$CHECK" "$WORK/text" - 1 8 quiet || fail "-q -B: layout"
expect_match "$WORK/text" '^    002 \(us\):	 [0-9]+$'
tail -n +18 "$OUT" >"$WORK/j.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["bias_us"] >= 1 and d["num_threads"] == 1' \
	"$WORK/j.json" || fail "--json=- after the summary"

run_tool_timeout 15 oslat -c 0 -w memmove -m 4096 --percentiles --records="$WORK/r.jsonl"
expect_exit 0
expect_match "$OUT" '^Workload: 		memmove$'
expect_match "$OUT" '^Workload mem: 		4 \(KiB\)$'
expect_match "$OUT" '^# P99\.9 Latencies: [0-9]{5}$'
[ "$(grep -c '"type"' "$WORK/r.jsonl")" -ge 3 ] || fail "--records: too few lines"

# -f on CPU 0: 2.4's warning on stdout after the version line, also with -q.
# Another test's FIFO thread on CPU 0 can starve ours for the whole second
# (then it measured nothing, and the layout is the empty one): retried.
fifo_cpu0() {
	run_tool_timeout 15 oslat -q -f 1 -c 0 -D 1 --json="$WORK/f.json" --no-preflight
	# only an empty run is retried: a failed one, or a bad JSON, is
	# reported by the checks below
	[ "$RC" -eq 0 ] || return 0
	python3 -c 'import json, sys
try:
    empty = json.load(open(sys.argv[1]))["thread"]["0"]["samples"] == 0
except Exception:
    empty = False
sys.exit(2 if empty else 0)' "$WORK/f.json"
}
retry_bound 3 fifo_cpu0
expect_exit 0
[ "$(sed -n 2p "$OUT")" = "WARNING: Running SCHED_FIFO workload on CPU 0 may hang the thread" ] ||
	fail "-f on CPU 0: no warning on line 2"
python3 "$CHECK" "$OUT" "$WORK/f.json" 1 32 quiet || fail "-f: layout"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["scheduling"]["policy"] == "fifo", d["scheduling"]' \
	"$WORK/f.json" || fail "-f: scheduling"

run_tool_timeout 5 oslat -v
expect_exit 0
expect_match "$OUT" '^oslat V 2\.40$'
finish
