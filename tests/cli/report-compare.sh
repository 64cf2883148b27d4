#!/bin/sh
# Proves rt-latency-report compare: a run against itself passes (exit 0,
# every change +0.0%); a value grown by more than the tolerance fails
# (exit 3, its row marked, the change computed right) and passes with a
# larger --tolerance; a real run with a 3 ms block on the measured CPU
# fails against a quiet baseline; 2.4 JSON (no percentiles) compares its
# maxima; bad input: one line, exit 1 (unreadable, not JSON) or 2.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
RLR=$(tool rt-latency-report)
CT=$(tool cyclictest)
cp "$top_builddir/tests/helpers/spin" "$WORK/blocker"

report() {
	RC=0
	"$RLR" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

baseline() { # FILE
	"$CT" -q -m -p 80 -a 0 -t 1 -D 2 --no-preflight --json="$1" >/dev/null 2>&1 </dev/null ||
		fail "cyclictest for $1"
}

baseline "$WORK/base.json"
report compare "$WORK/base.json" "$WORK/base.json"
expect_exit 0
[ "$(grep -c '^[0-9a-z]* *p[0-9.]* .* +0.0%$\|^[0-9a-z]* *max .* +0.0%$' "$OUT")" -eq 10 ] ||
	fail "self-compare: not 10 rows of +0.0%: $(cat "$OUT")"
expect_match "$OUT" '^# Verdict: PASS$'

# p99.9 of thread 0 and overall grown by 50%, p50 by 5%.
python3 - "$WORK/base.json" "$WORK/grown.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in (d["thread"]["0"]["percentiles"], d["percentiles"]):
    p["p99.9"] = p["p99.9"] * 3 // 2 + 2
    p["p50"] = p["p50"] * 105 // 100
json.dump(d, open(sys.argv[2], "w"))
PY
report compare "$WORK/base.json" "$WORK/grown.json"
expect_exit 3
expect_match "$OUT" '^0 +p99\.9 +[0-9]+ +[0-9]+ +\+5[0-9]\.[0-9]%  worse$'
expect_match "$OUT" '^all +p99\.9 .*  worse$'
expect_no_match "$OUT" '^0 +p50 .*worse'
expect_match "$OUT" '^# Verdict: FAIL \(2 value\(s\) worse by more than 10%\)$'
report compare --tolerance=200 "$WORK/base.json" "$WORK/grown.json"
expect_exit 0

# A real 3 ms block on the measured CPU: worse than a quiet baseline. Noise
# only adds latency: a noisy baseline may hide it, so that case is retried.
blocked_run() {
	baseline "$WORK/quiet.json"
	"$WORK/blocker" 0 3000 150 10 &
	bpid=$!
	"$CT" -q -m -p 80 -a 0 -t 1 -D 2 --no-preflight --json="$WORK/blocked.json" \
		>/dev/null 2>&1 </dev/null
	wait "$bpid"
	report compare "$WORK/quiet.json" "$WORK/blocked.json"
	[ "$RC" -eq 3 ] && grep -q '^0 *max .* worse$' "$OUT" && return 0
	# The baseline's own spike as bad as the block: noise, again.
	[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] && return 2
	cat "$ERR"
	return 1
}
retry_bound 4 blocked_run

# rt-tests 2.4's JSON has no percentiles: only the maxima compare.
python3 - "$WORK/base.json" "$WORK/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("scheduling", "environment", "percentiles"):
    d.pop(k, None)
for t in d["thread"].values():
    t.pop("percentiles", None)
    t.pop("latency_histogram", None)
json.dump(d, open(sys.argv[2], "w"))
PY
report compare "$WORK/old.json" "$WORK/base.json"
expect_exit 0
expect_match "$OUT" '^0 +p99 +- +[0-9]+ +n/a$'
expect_match "$OUT" '^0 +max +[0-9]+ +[0-9]+ +\+0\.0%$'

# Bad input.
echo "not json" >"$WORK/bad.json"
echo '{"a": 1}' >"$WORK/other.json"
report compare "$WORK/bad.json" "$WORK/base.json"
expect_exit 1
expect_match "$ERR" "^rt-latency-report: cannot read '.*/bad.json': "
report compare "$WORK/missing.json" "$WORK/base.json"
expect_exit 1
report compare "$WORK/other.json" "$WORK/base.json"
expect_exit 2
expect_match "$ERR" "^rt-latency-report: '.*/other.json' is not a result of rt-tests-ng"
"$(tool pmqtest)" -q -l 20 --no-preflight --json="$WORK/pmq.json" >/dev/null 2>&1 </dev/null
report compare "$WORK/base.json" "$WORK/pmq.json"
expect_exit 2
expect_match "$ERR" 'are not results of the same tool in the same unit'
for args in "compare" "compare a" "compare --tolerance=-1 a b" "frob" "compare --bogus a b"; do
	# shellcheck disable=SC2086
	report $args
	expect_exit 2
	[ "$(wc -l <"$ERR")" -eq 2 ] || fail "$args: $(cat "$ERR")"
	expect_empty_stdout
done
report --help
expect_exit 0
expect_match "$OUT" '^rt-latency-report compare BASE.json RUN.json'
finish
