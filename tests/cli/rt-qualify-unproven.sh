#!/bin/sh
# Proves: a percentile claim 3 s of samples cannot prove (the 99.9999th)
# makes rt-qualify's verdict NOT PROVEN (exit 4), or NOT FIT (exit 3) when a
# CPU measured nothing beside another test's real-time hog, never FIT, with
# the tools' verdicts copied into summary.json as they wrote them.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$top_srcdir/tests/helpers/rt_qualify_check.py"

run_tool_timeout 90 rt-qualify -D 3 --load=none --max-latency=3600000000 \
	--max-percentile=99.9999:3600000000 -o "$WORK/unproven"
case $RC in
4) expect_match "$OUT" '^Verdict: NOT PROVEN \(INCONCLUSIVE\)$' ;;
3) expect_match "$OUT" '^Verdict: NOT FIT \(FAIL\)$' ;;
*) fail "exit $RC, not 4 (NOT PROVEN) or 3 (NOT FIT)" ;;
esac
python3 "$CHECK" "$WORK/unproven" --steps-run 3 >"$WORK/diag" 2>&1 ||
	fail "unprovable claim: $(cat "$WORK/diag")"
expect_no_match "$OUT" '^Verdict: FIT'
finish
