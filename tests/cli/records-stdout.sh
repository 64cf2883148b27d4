#!/bin/sh
# Proves that with --records=- standard output holds the records and nothing
# else, in every tool that has --records: every line of stdout is a JSON
# object (json.loads), the first the run line and the last the total line,
# while the summary, the percentile lines and the verdict (and cyclictest's
# "# /dev/cpu_dma_latency" line) go to stderr.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3

ndjson_only() { # TOOL: $OUT is records alone
	python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert all(isinstance(l, dict) for l in lines), "not objects"
assert lines and lines[0]["type"] == "run" and lines[-1]["type"] == "total", \
    [l.get("type") for l in lines]
' "$OUT" >"$WORK/diag" 2>&1 || fail "$1: stdout is not NDJSON only: $(tail -n 1 "$WORK/diag"); $(head -c 300 "$OUT")"
}

for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest; do
	run_tool_timeout 30 "$t" -q -p 80 -D 2 --records-interval=1 --no-preflight \
		--percentiles --max-percentile=99.9:1000000 --percentile-claim=point --records=-
	expect_exit 0
	ndjson_only "$t"
	expect_match "$ERR" '^# P99 Latencies:'
	expect_match "$ERR" '^# Verdict: PASS'
	case $t in
	cyclictest) expect_match "$ERR" '^# /dev/cpu_dma_latency set to'
		expect_match "$ERR" '^T: 0 ' ;;
	signaltest) expect_match "$ERR" '^T: 0 ' ;;
	*) expect_match "$ERR" '^#1 -> #0, Min' ;;
	esac
done
finish
