#!/bin/sh
# Proves rt-latency-report checks the numbers of its inputs: an integer
# given as a string, a double, NaN or beyond 64 bits is refused by compare,
# merge and plot with one line naming the file and the member, exit 2;
# counts that add up beyond 64 bits (a histogram, cycles of a merge, all
# threads) are refused the same way; percentiles of 2e13 samples (where
# total * permyriad once overflowed) are right; compare's change between
# values of opposite 64-bit extremes does not overflow. Synthetic inputs.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)
S="$WORK/s.json"
python3 "$HELPERS/synth_result.py" "$S" threads=2 cycles=300

edit() { # OUT PYTHON (d is the document)
	python3 - "$S" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t0 = d["thread"]["0"]
lh = t0["latency_histogram"]
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d) if isinstance(d, dict) else d)
PY
}

refused() { # FILE ERE: compare, merge and plot refuse it, exit 2, one line
	for cmd in compare merge plot; do
		case $cmd in
		compare) set -- "$1" "$2" "$S" "$1" ;;
		merge) set -- "$1" "$2" "$S" "$1" -o "$WORK/out.json" ;;
		plot) set -- "$1" "$2" "$1" -o "$WORK/out.svg" ;;
		esac
		_f=$1 _re=$2
		shift 2
		RC=0
		"$RLR" "$cmd" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
		expect_exit 2
		[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$cmd $(basename "$_f"): $(cat "$ERR")"
		expect_match "$ERR" "^rt-latency-report: '$_f'$_re"
		expect_empty_stdout
		[ ! -e "$WORK/out.json" ] && [ ! -e "$WORK/out.svg" ] || fail "$cmd $_f: output written"
		set -- "$_f" "$_re"
	done
}

edit "$WORK/str.json" 't0["max"] = str(t0["max"])'
refused "$WORK/str.json" ': thread\.0\.max is a string: must be an integer$'
edit "$WORK/dbl.json" 't0["cycles"] = 300.5'
refused "$WORK/dbl.json" ': thread\.0\.cycles is a fractional number: must be a count'
edit "$WORK/nan.json" 'd = json.dumps(d).replace("\"avg\": %s" % json.dumps(t0["avg"]), "\"avg\": NaN", 1)'
refused "$WORK/nan.json" ': thread\.0\.avg is not finite: must be a finite number$'
edit "$WORK/neg.json" 'lh["buckets"]["10"] = -1'
refused "$WORK/neg.json" ': thread\.0\.latency_histogram\.buckets\.10 is negative: must be a count'
edit "$WORK/big.json" 'd = json.dumps(d).replace("\"count\": 300", "\"count\": 18446744073709551616", 1)'
refused "$WORK/big.json" ': thread\.0\.latency_histogram\.count is beyond 64 bits'
edit "$WORK/pct.json" 't0["percentiles"]["p99"] = 1.5'
refused "$WORK/pct.json" ': thread\.0\.percentiles\.p99 is a fractional number: must be an integer'
edit "$WORK/host.json" 'd["sysinfo"]["nodename"] = 7'
refused "$WORK/host.json" ': sysinfo\.nodename is an integer: must be a string$'
edit "$WORK/nthr.json" 'd["num_threads"] = "2"'
refused "$WORK/nthr.json" ' is not a result of rt-tests-ng or rt-tests 2.4'
# Counts whose sum is beyond 64 bits: one histogram, and all threads.
edit "$WORK/sum.json" 'lh["buckets"] = {"10": 6000000000000000000, "11": 6000000000000000000}; lh["count"] = 1; t0["cycles"] = 1'
refused "$WORK/sum.json" ': thread\.0\.latency_histogram\.buckets add up beyond 64 bits$'
edit "$WORK/sum24o.json" 't0["histogram"] = {"10": 6000000000000000000, "11": 6000000000000000000}'
python3 "$HELPERS/as_rt_tests_24.py" "$WORK/sum24o.json" "$WORK/sum24.json"
RC=0
"$RLR" plot "$WORK/sum24.json" -o "$WORK/out.svg" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
expect_text "$ERR" "rt-latency-report: '$WORK/sum24.json': thread.0.histogram add up beyond 64 bits"
edit "$WORK/sumall.json" '
for t in d["thread"].values():
    t["latency_histogram"]["buckets"] = t["histogram"] = {"10": 6000000000000000000}
    t["cycles"] = t["latency_histogram"]["count"] = 6000000000000000000'
python3 "$HELPERS/as_rt_tests_24.py" "$WORK/sumall.json" "$WORK/sumall24.json"
RC=0
"$RLR" compare "$WORK/sumall24.json" "$WORK/sumall24.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
expect_text "$ERR" "rt-latency-report: '$WORK/sumall24.json': the threads' samples add up beyond 64 bits"
RC=0
"$RLR" merge "$WORK/sumall.json" -o "$WORK/out.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
expect_text "$ERR" "rt-latency-report: the samples of all threads add up beyond 64 bits"
# Two inputs whose cycles add up beyond 64 bits.
edit "$WORK/half.json" '
for t in d["thread"].values():
    t["latency_histogram"]["buckets"] = {"10": 5000000000000000000}
    t["cycles"] = t["latency_histogram"]["count"] = 5000000000000000000
d["thread"]["1"]["latency_histogram"]["buckets"] = {"10": 1}'
cp "$WORK/half.json" "$WORK/half2.json"
sed -i 's/"start_time": "[^"]*"/"start_time": "Tue, 14 Nov 2023 23:00:00 -0000"/' "$WORK/half2.json"
RC=0
"$RLR" merge "$WORK/half.json" "$WORK/half2.json" -o "$WORK/out.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
expect_match "$ERR" "^rt-latency-report: '.*/half2.json' thread 0: the cycles of the inputs add up beyond 64 bits$"
[ ! -e "$WORK/out.json" ] || fail "merge beyond 64 bits: output written"

# 2e13 samples: p50 of two buckets of 1e13 is the first, p99 the second
# (total * permyriad overflowed at 1.8e13 and gave nonsense).
edit "$WORK/many.json" '
for t in d["thread"].values():
    t["latency_histogram"]["buckets"] = {"10": 10**13, "20": 10**13}
    t["cycles"] = t["latency_histogram"]["count"] = 2 * 10**13
    t["max"] = 20
    del t["percentiles"]
    t["histogram"] = {"10": 10**13, "20": 10**13}
del d["percentiles"]'
python3 "$HELPERS/as_rt_tests_24.py" "$WORK/many.json" "$WORK/many24.json"
RC=0
"$RLR" compare "$WORK/many24.json" "$WORK/many24.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_match "$OUT" '^0      p50             10         10'
expect_match "$OUT" '^all    p50             10         10'
expect_match "$OUT" '^all    p99\.99          20         20'

# Opposite extremes of the range (10^18; beyond: report-latency-range.sh):
# the change is computed without overflow.
edit "$WORK/lo.json" 't0["percentiles"]["p50"] = -1000000000000000000'
edit "$WORK/hi.json" 't0["percentiles"]["p50"] = 1000000000000000000'
RC=0
"$RLR" compare "$WORK/lo.json" "$WORK/hi.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 3
expect_match "$OUT" '^0      p50     -1000000000000000000 1000000000000000000 \+200000000000000000000\.0%  worse$'
finish
