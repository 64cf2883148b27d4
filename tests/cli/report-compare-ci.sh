#!/bin/sh
# Proves that rt-latency-report compare says which percentiles changed
# beyond their 95 % confidence intervals, and that --significant fails only
# on those. Synthetic runs (uniform_result.py: 100 samples, one at each of
# LOW..LOW+99 us, so rank k is LOW+k-1) whose intervals are checked by
# hand: p50 ranks 40..61 (Binomial(100, 0.5): P(B <= 39) = 0.018 <= 0.025
# < P(B <= 40); P(B <= 59) = 0.972 < 0.975 <= P(B <= 60)), so 10..109
# gives 59 (49-70), 15..114 64 (54-75: overlaps), 40..139 89 (79-100:
# disjoint); p99 ranks 97..101 (beyond 100: no upper bound, so always
# overlapping). Byte for byte: the rows as before, one comment per
# disjoint pair, the counts, the verdict; intervals from the JSON, else
# from its histogram (ours without "percentiles_ci", a 2.4 file), none
# without either. Then real runs: only what noise cannot break.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)
EXP="$top_srcdir/tests/expected/rt-latency-report"

report() {
	RC=0
	(cd "$WORK" && "$RLR" "$@") >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

uniform() { # NAME ARGS...
	_n=$1
	shift
	python3 "$HELPERS/uniform_result.py" "$WORK/$_n.json" "$@" || fail "uniform_result $_n"
}
uniform u10 10
uniform u15 15
uniform u40 40
uniform u40c 40 ci=no
uniform u40n 40 ci=no hist=no
uniform u10-24 10 v24=128
uniform u40-24 40 v24=120

for case in "worse|3|u10.json u40.json" "better|0|u40.json u10.json" "overlap|0|u10.json u15.json" \
	"computed|3|u10.json u40c.json" "missing|3|u10.json u40n.json" \
	"24|3|u10-24.json u40-24.json" \
	"significant|3|--significant u10.json u40.json" \
	"significant-missing|0|--significant u10.json u40n.json"; do
	name=${case%%|*}
	rest=${case#*|}
	# shellcheck disable=SC2086
	report compare ${rest#*|}
	expect_exit "${rest%%|*}"
	expect_empty_stderr
	compare_exact "$OUT" "$EXP/compare-ci-$name.out"
done
# Disjoint, but within the tolerance: --significant passes; so does a
# change beyond the tolerance whose intervals overlap.
report compare --significant --tolerance=60 u10.json u40.json
expect_exit 0
expect_match "$OUT" '^# thread 0 p50: worse beyond the 95 % intervals: 59 us \(95 % CI 49-70\) -> 89 us \(95 % CI 79-100\)$'
expect_match "$OUT" '^# Verdict: PASS$'
report compare --significant --tolerance=5 u10.json u15.json
expect_exit 0
expect_match "$OUT" '^# --significant: 2 value\(s\) worse by more than 5% not counted: their intervals overlap or are not known$'

# Real runs. Against itself a run's intervals overlap everywhere; two runs:
# every comment line matches the JSONs' percentiles and intervals, which
# are disjoint in the direction it says, and the counts add up.
need_rt
real_run() { # FILE
	"$(tool cyclictest)" -q -m -p 80 -i 200 -l 3000 -h 2000 --no-preflight --json="$1" \
		>/dev/null 2>&1 </dev/null || fail "cyclictest for $1"
}
real_run "$WORK/r1.json"
real_run "$WORK/r2.json"
report compare --significant r1.json r1.json
expect_exit 0
expect_match "$OUT" '^# Percentiles beyond their 95 % intervals: 0 worse, 0 better \(8 overlap, 0 without an interval\)$'
# Its 2.4 form: the intervals from the 1 us -h histogram hold the JSON's.
python3 "$HELPERS/as_rt_tests_24.py" "$WORK/r1.json" "$WORK/r1-24.json"
report compare r1.json r1-24.json
expect_match "$OUT" '^# Percentiles beyond their 95 % intervals: 0 worse, 0 better \([0-8] overlap, [0-8] without an interval\)$'
report compare r1.json r2.json
[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] || fail "compare of two runs: exit $RC"
# Without "percentiles_ci", the intervals computed from the histograms are
# the tool's: the same output, but for the file names.
python3 - "$WORK/r1.json" "$WORK/r1c.json" "$WORK/r2.json" "$WORK/r2c.json" <<'PY' || exit 99
import json, sys
for src, dst in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    d = json.load(open(src))
    for o in [d] + list(d["thread"].values()):
        del o["percentiles_ci"]
    json.dump(d, open(dst, "w"))
PY
cp "$OUT" "$WORK/r12.out"
RC0=$RC
report compare r1c.json r2c.json
[ "$RC" -eq "$RC0" ] || fail "computed intervals: exit $RC, with the tool's $RC0"
sed 's/r\([12]\)c\.json/r\1.json/g' "$OUT" >"$WORK/r12c.out"
compare_exact "$WORK/r12c.out" "$WORK/r12.out"
python3 - "$OUT" "$WORK/r1.json" "$WORK/r2.json" >"$WORK/real.diag" 2>&1 <<'PY' || fail "two runs: $(head -n 4 "$WORK/real.diag")"
import json, re, sys
out = open(sys.argv[1]).read().splitlines()
base, run = (json.load(open(p)) for p in sys.argv[2:])
errors, lines = [], 0
for l in out:
    m = re.match(r"# (thread 0|all threads) (p[0-9.]+): (worse|better) beyond the 95 % intervals: "
                 r"(\d+) us \(95 % CI (\d+)-(\d+|\?)\) -> (\d+) us \(95 % CI (\d+)-(\d+|\?)\)$", l)
    if not l.startswith("# thread") and not l.startswith("# all"):
        continue
    lines += 1
    if not m:
        errors.append("line %r" % l)
        continue
    who, p, how = m.group(1), m.group(2), m.group(3)
    got = [None if x == "?" else int(x) for x in m.groups()[3:]]
    want = []
    for d in (base, run):
        o = d["thread"]["0"] if who == "thread 0" else d
        want += [o["percentiles"][p], o["percentiles_ci"][p]["low"], o["percentiles_ci"][p]["high"]]
    if got != want:
        errors.append("%s: %s, JSON %s" % (l, got, want))
    bl, bh, rl, rh = want[1], want[2], want[4], want[5]
    if not ((how == "worse" and bh is not None and rl > bh) or (how == "better" and rh is not None and rh < bl)):
        errors.append("%s: not disjoint that way" % l)
m = [re.match(r"# Percentiles beyond their 95 % intervals: (\d+) worse, (\d+) better \((\d+) overlap, (\d+) without an interval\)$", l) for l in out]
m = [x for x in m if x]
if len(m) != 1 or sum(map(int, m[0].groups())) != 8 or int(m[0].group(4)) != 0 or \
   int(m[0].group(1)) + int(m[0].group(2)) != lines:
    errors.append("counts %s for %d lines" % (m and m[0].groups(), lines))
if out[-1] not in ("# Verdict: PASS",) and not out[-1].startswith("# Verdict: FAIL ("):
    errors.append("verdict %r" % out[-1])
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
finish
