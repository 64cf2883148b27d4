#!/bin/sh
# Proves the Prometheus rules we ship for a farm
# (contrib/prometheus/rt-tests-ng.rules.yml): promtool finds them valid,
# and promtool's rule tests (tests/data/rt-tests-ng.rules.test.yml), on two
# synthetic boards worked out by hand, get each board's p99.99 and max, the
# farm's p99.99 and the alert for the board whose verdict failed. A rule
# changed so that it computes something else fails the test.
. "$top_srcdir/tests/cli/lib.sh"
need_cmd promtool
RULES="$top_srcdir/contrib/prometheus/rt-tests-ng.rules.yml"
TESTS="$top_srcdir/tests/data/rt-tests-ng.rules.test.yml"

promtool check rules "$RULES" >"$OUT" 2>"$ERR" || fail "promtool check rules: $(cat "$OUT" "$ERR")"
expect_match "$OUT" 'SUCCESS: 5 rules found'
promtool test rules "$TESTS" >"$OUT" 2>"$ERR" || fail "promtool test rules: $(cat "$OUT" "$ERR")"
expect_match "$OUT" '^  SUCCESS$'

# The tests catch a wrong rule: the farm's p99.99 taken per board instead.
mkdir -p "$WORK/contrib/prometheus" "$WORK/tests/data"
sed 's/sum by (le) (rt_latency_seconds_bucket)/sum by (instance, le) (rt_latency_seconds_bucket)/' \
	"$RULES" >"$WORK/contrib/prometheus/rt-tests-ng.rules.yml"
cmp -s "$RULES" "$WORK/contrib/prometheus/rt-tests-ng.rules.yml" && fail "the mutation changed nothing"
cp "$TESTS" "$WORK/tests/data/"
RC=0
promtool test rules "$WORK/tests/data/rt-tests-ng.rules.test.yml" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 1
cat "$OUT" "$ERR" >"$WORK/all"
expect_match "$WORK/all" 'expr: "fleet:rt_latency_seconds:p99_99"'
expect_no_match "$WORK/all" 'expr: "instance:'
finish
