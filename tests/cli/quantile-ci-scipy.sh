#!/bin/sh
# Proves: the ranks of the distribution-free percentile confidence interval
# (lib/numbers/rt_quantile_ci) are those of an independent computation, scipy's
# exact binomial, for n from 1 to 1e11 samples, percentiles from 12.3456 %
# to 99.9999 % and confidence 90, 95 and 99 % (the GSL continued fraction
# and, at large n near the mean, the Cornish-Fisher approximation); and the
# fewest samples that bound a percentile from above are the smallest n with
# p^n <= (1 - confidence) / 2. Synthetic input, no timing.
. "$top_srcdir/tests/cli/lib.sh"

need_python_module scipy.stats python3-scipy

python3 "$HELPERS/quantile_ci_check.py" "$top_builddir/tests/helpers/quantile_ci" >"$OUT" 2>"$ERR" ||
	fail "ranks differ from scipy: $(cat "$OUT" "$ERR")"
expect_match "$OUT" '^quantile_ci_check: 594 cases, 0 mismatches$'
finish
