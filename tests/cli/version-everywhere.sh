#!/bin/sh
# Proves: AC_INIT's version is the one in NEWS, debian/changelog and the rpm
# spec, and the one the tools print.
. "$top_srcdir/tests/cli/lib.sh"
"$top_srcdir/scripts/check-version" "$top_srcdir" "$top_builddir" >"$WORK/diag" 2>&1 ||
	fail "$(cat "$WORK/diag")"
v=$(sed -n 's/^Version:[[:space:]]*//p' "$top_builddir/rpm/rt-tests-ng.spec")
for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest rt-latency-report hackbench pi_stress pip_stress deadline_test ssdd queuelat rt-migrate-test oslat hwlatdetect cyclicdeadline get_cyclictest_snapshot rt-qualify; do
	run_tool "$t" --version
	expect_exit 0
	expect_match "$OUT" "^$t \\(rt-tests-ng\\) $v\$"
done
finish
