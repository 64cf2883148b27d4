#!/bin/sh
# Proves: signaltest prints 2.4's "T:" lines without I: (one per thread, C =
# -l for all), -v prints exactly one n:c:v line per sample, JSON is valid
# with each thread's own CPU, -b reports the thread that exceeded the limit,
# the live frame keeps 2.4's layout, and -t 1 is a usage error.
# test-holds: global-tracing
. "$top_srcdir/tests/cli/lib.sh"
restore_tracing_on_at_exit
rt_or_other
need_python3
need_cpus 2

run_tool_timeout 30 signaltest -q -p $PRIO -t 3 -l 200 -a --json="$WORK/s.json"
expect_exit 0
check_summary "$OUT" 3 200
expect_no_match "$OUT" ' I:'
python3 - "$WORK/s.json" "$OUT" <<'PY' || fail "json: $(cat "$WORK/json.diag" 2>/dev/null)"
import json, re, sys
d = json.load(open(sys.argv[1]), parse_constant=lambda c: 1 / 0)
assert d["num_threads"] == 3 and d["rt_test_version:"] == "2.40"
cpus = [d["thread"][str(i)]["cpu"] for i in range(3)]
assert cpus[0] != cpus[1], cpus              # pinned round-robin, each its own
for line in open(sys.argv[2]):
    m = re.match(r"T: *(\d+) .* C: *(\d+) Min: *(\d+) .* Max: *(\d+)$", line)
    if m:
        t = d["thread"][m.group(1)]
        assert list(t) == ["cycles", "min", "max", "avg", "cpu", "percentiles", "percentiles_ci",
                           "latency_histogram"], list(t)
        assert t["latency_histogram"]["count"] == t["cycles"], t["latency_histogram"]["count"]
        # under a million samples the nearest rank of p99.9999 is the last one
        assert t["percentiles"]["p99.9999"] == t["max"], t["percentiles"]
        assert (t["cycles"], t["min"], t["max"]) == tuple(int(x) for x in m.groups()[1:]), line
PY
check_sched "$WORK/s.json" "$POLICY"

run_tool_timeout 30 signaltest -v -p $PRIO -t 2 -l 100
expect_exit 0
n=$(grep -cE '^ {0,7}[0-9]+: {0,7}[0-9]+: {0,7}[0-9]+$' "$OUT")
[ "$n" -eq 200 ] || fail "-v: $n sample lines, expected 200"
check_summary "$OUT" 2 100

run_tool_timeout 30 signaltest -q -p $PRIO -b 1
expect_exit 0
expect_match "$OUT" '^Thread [0-9]+ exceeded trace limit\.$'

run_tool_timeout 30 signaltest -p $PRIO -l 300
expect_exit 0
sed -n 1p "$OUT" | grep -Eq '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+/[0-9]+ [0-9]+          $' ||
	fail "frame header: $(sed -n 1p "$OUT")"
esc=$(printf '\033')
grep -q "${esc}\[3A" "$OUT" || fail "no ESC[3A between frames"
awk -v RS="$esc" 'END { printf "%s", $0 }' "$OUT" | grep '^T:' | tail -n 2 >"$WORK/final"
check_summary "$WORK/final" 2 300

run_tool signaltest -t 1
expect_exit 2
expect_text "$ERR" "signaltest: invalid --threads '1': must be 2..1024
Try 'signaltest --help' for more information."
finish
