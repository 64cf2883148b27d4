#!/bin/sh
# Proves the Prometheus rules we ship for a farm
# (contrib/prometheus/rt-tests-ng.rules.yml): promtool finds them valid,
# and promtool's rule tests (tests/data/rt-tests-ng.rules.test.yml), on two
# synthetic boards worked out by hand, get each board's p99.99 and max, the
# farm's p99.99 and the alert for the board whose verdict failed, each per
# tool. A rule changed so that it computes something else (the farm's
# figure per board, a board's tools mixed) fails the test.
. "$top_srcdir/tests/cli/lib.sh"
need_cmd promtool
RULES="$top_srcdir/contrib/prometheus/rt-tests-ng.rules.yml"
TESTS="$top_srcdir/tests/data/rt-tests-ng.rules.test.yml"

promtool check rules "$RULES" >"$OUT" 2>"$ERR" || fail "promtool check rules: $(cat "$OUT" "$ERR")"
expect_match "$OUT" 'SUCCESS: 5 rules found'
promtool test rules "$TESTS" >"$OUT" 2>"$ERR" || fail "promtool test rules: $(cat "$OUT" "$ERR")"
expect_match "$OUT" '^  SUCCESS$'

# The tests catch a wrong rule: mutate RULES with SED; the test must fail
# on the expression matching WANT and no other.
mutant() { # SED WANT
	mkdir -p "$WORK/contrib/prometheus" "$WORK/tests/data"
	sed "$1" "$RULES" >"$WORK/contrib/prometheus/rt-tests-ng.rules.yml"
	cmp -s "$RULES" "$WORK/contrib/prometheus/rt-tests-ng.rules.yml" &&
		fail "the mutation $1 changed nothing"
	cp "$TESTS" "$WORK/tests/data/"
	RC=0
	promtool test rules "$WORK/tests/data/rt-tests-ng.rules.test.yml" >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 1
	cat "$OUT" "$ERR" >"$WORK/all"
	expect_match "$WORK/all" "expr: \"$2"
	expect_no_match "$WORK/all" "expr: \"$3"
}
# The farm's p99.99 taken per board instead.
mutant 's/sum by (tool, le) (rt_latency_seconds_bucket)/sum by (instance, tool, le) (rt_latency_seconds_bucket)/' \
	'fleet:rt_latency_seconds:p99_99' 'instance:'
# A board's tools mixed: hwlatdetect's spikes in cyclictest's p99.99.
mutant 's/sum by (instance, tool, le)/sum by (instance, le)/' \
	'instance:rt_latency_seconds:p99_99' 'fleet:'
finish
