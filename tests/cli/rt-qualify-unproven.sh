#!/bin/sh
# Proves: a percentile claim 3 s of samples cannot prove (the 99.9999th)
# makes rt-qualify's verdict NOT FIT or NOT PROVEN (exit 3), never FIT, with
# the tools' verdicts copied into summary.json as they wrote them.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$top_srcdir/tests/helpers/rt_qualify_check.py"

run_tool_timeout 90 rt-qualify -D 3 --load=none --max-latency=3600000000 \
	--max-percentile=99.9999:3600000000 -o "$WORK/unproven"
expect_exit 3
python3 "$CHECK" "$WORK/unproven" --steps-run 3 >"$WORK/diag" 2>&1 ||
	fail "unprovable claim: $(cat "$WORK/diag")"
expect_no_match "$OUT" '^Verdict: FIT'
finish
