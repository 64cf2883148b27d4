#!/bin/sh
# Proves cyclictest's percentiles are those of the samples it took: against
# exact nearest-rank percentiles of every -v sample (in us and with -N in
# ns), each reported one is never below the exact one and at most 1% + 1
# unit above; the --percentiles lines (one column per thread, after the 2.4
# output) equal the JSON, and so do the confidence interval lines after
# them ("# T: 0 p99 52 us (95 % CI 48-61)", one per thread and percentile)
# and "percentiles_ci" (recomputed from the exact binomial: loghist.py); the lossless histogram holds every sample, and the
# top-level percentiles are those of the threads' histograms added.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
rt_or_other

check_exact() { # VERBOSE_OUT JSON THREADS
	python3 - "$@" <<'PY' || fail "percentiles vs -v samples ($1): $(cat "$WORK/pct.diag")"
import json, re, sys
out, js, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(js))
samples = {i: [] for i in range(threads)}
for line in open(out):
    m = re.match(r"^ *(\d+): *(\d+): *(-?\d+)$", line)
    if m:
        samples[int(m.group(1))].append(int(m.group(3)))
pcts = [("p50", 500000), ("p90", 900000), ("p99", 990000), ("p99.9", 999000),
        ("p99.99", 999900), ("p99.999", 999990), ("p99.9999", 999999)]
unit = "ns" if "-N" in d["cmdline:"].split() else "us"
# the fewest samples with an upper rank: the smallest n with p^n <= 2.5 %
need = {}
for name, pm in pcts:
    n = 1
    while (pm / 1e6) ** n > 0.025:
        n = max(n + 1, int(n * 1.01))
    while n > 1 and (pm / 1e6) ** (n - 1) <= 0.025:
        n -= 1
    need[name] = n
cilines = [l for l in open(out) if l.startswith("# T: ")]
errs = []
text = {}
for line in open(out):
    m = re.match(r"^# P([0-9.]+) Latencies:((?: \d{5,})+)$", line)
    if m:
        text["p" + m.group(1)] = [int(x) for x in m.group(2).split()]
if sorted(text) != sorted(n for n, _ in pcts):
    errs.append("percentile lines %s" % sorted(text))
for i in range(threads):
    v = sorted(samples[i])
    t = d["thread"][str(i)]
    if len(v) != t["cycles"] or not v:
        errs.append("thread %d: %d -v samples, %d cycles" % (i, len(v), t["cycles"]))
        continue
    for name, pm in pcts:
        rank = max(1, -(-len(v) * pm // 1000000))
        exact = v[rank - 1]
        got = t["percentiles"][name]
        if not (exact <= got <= exact + exact // 100 + 1):
            errs.append("thread %d %s: reported %d, exact %d" % (i, name, got, exact))
        if name in text and text[name][i] != got:
            errs.append("thread %d %s: text %d, json %d" % (i, name, text[name][i], got))
        ci = t["percentiles_ci"][name]
        want = "# T: %d %s %d %s (95 %% CI %d-%s)\n" % (
            i, name, got, unit, ci["low"],
            ci["high"] if ci["high"] is not None else "?: too few samples, %d needed" % need[name])
        if want not in cilines:
            errs.append("thread %d %s: no line %r" % (i, name, want))
if len(cilines) != threads * len(pcts):
    errs.append("%d interval lines" % len(cilines))
if errs:
    print("\n".join(errs))
sys.exit(1 if errs else 0)
PY
}

run_tool_timeout 60 cyclictest -v $MLOCK -p $PRIO -t 2 -i 500 -l 3000 --percentiles \
	--json="$WORK/v.json"
expect_exit 0
check_exact "$OUT" "$WORK/v.json" 2 >"$WORK/pct.diag"
check_json "$WORK/v.json" 2
# The percentile and overrun lines come last, one column per thread, then
# the 14 interval lines.
tail -n 22 "$OUT" | head -n 8 >"$WORK/tail"
cat >"$WORK/tail.re" <<'RE'
# P50 Latencies: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
# P90 Latencies: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
# P99 Latencies: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
# P99\.9 Latencies: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
# P99\.99 Latencies: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
# P99\.999 Latencies: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
# P99\.9999 Latencies: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
# Overruns: [0-9][0-9][0-9][0-9][0-9][0-9]* [0-9][0-9][0-9][0-9][0-9][0-9]*
RE
compare_regex "$WORK/tail" "$WORK/tail.re"

# In ns (-N): values far above 128, so the log-linear buckets are exercised.
run_tool_timeout 60 cyclictest -v -N $MLOCK -p $PRIO -i 500 -l 2000 --percentiles \
	--json="$WORK/n.json"
expect_exit 0
check_exact "$OUT" "$WORK/n.json" 1 >"$WORK/pct.diag"
check_json "$WORK/n.json" 1

# With -q -h: after the histogram and its footer, not inside them.
run_tool_timeout 60 cyclictest -q $MLOCK -p $PRIO -t 2 -i 1000 -l 300 -h 200 --percentiles
expect_exit 0
sed '/^# P50 Latencies/,$d' "$OUT" >"$WORK/h"
check_hist "$WORK/h" 2 200 300 0
[ "$(grep -c '^# Max Latencies' "$OUT")" -eq 1 ] || fail "a second '# Max Latencies' line"
[ "$(sed -n '/^# P50 Latencies/,$p' "$OUT" | wc -l)" -eq 22 ] ||
	fail "the percentile and interval lines are not the last 22 lines"
[ "$(grep -c '^# T: ' "$OUT")" -eq 14 ] || fail "not 14 interval lines"
finish
