#!/bin/sh
# Proves: rt-latency-report plan prints the fewest samples whose confidence
# interval of a percentile has an upper bound (the smallest n with p^n <=
# (1 - C) / 2: 3688 for p99.9, 368887 for p99.999 at 95 %, 529830 at 99 %)
# and the run they take per thread and over N threads together, byte for
# byte; bad arguments are one usage line, exit 2, nothing on stdout.
. "$top_srcdir/tests/cli/lib.sh"

run_tool rt-latency-report plan --percentile=99.999 --interval=200 --threads=4
expect_exit 0
expect_text "$OUT" "Percentile: p99.999, 95 % confidence
Samples: 368887 (the fewest whose 95 % confidence interval has an upper bound, so that a claim can be proven)
Each thread's claim: 368887 samples per thread, 1 min 14 s at 200 us
The claim on all 4 threads together: 92222 samples per thread, 18.4 s at 200 us"

run_tool rt-latency-report plan --percentile 99.9
expect_exit 0
expect_text "$OUT" "Percentile: p99.9, 95 % confidence
Samples: 3688 (the fewest whose 95 % confidence interval has an upper bound, so that a claim can be proven)
Each thread's claim: 3688 samples per thread, 3.7 s at 1000 us
The claim on all 1 threads together: 3688 samples per thread, 3.7 s at 1000 us"

run_tool rt-latency-report plan --percentile=99.999 --confidence=99 --interval=1000000
expect_exit 0
expect_match "$OUT" '^Samples: 529830 '
expect_match "$OUT" "^Each thread's claim: 529830 samples per thread, 6 d 3 h 10 min 30 s at 1000000 us$"

while IFS='|' read -r args msg; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_tool rt-latency-report plan $args
	expect_exit 2
	expect_empty_stdout
	expect_match "$ERR" "^rt-latency-report: $msg"
done <<'TABLE'
--interval=100|plan needs --percentile P
--percentile=100|invalid --percentile '100': must be above 0
--percentile=99.99999|invalid --percentile '99.99999'
--percentile=99 --confidence=100|invalid --confidence '100': must be 1..99
--percentile=99 --interval=0|invalid --interval '0'
--percentile=99 --threads=0|invalid --threads '0'
--percentile=99 x.json|plan takes no files: 'x.json'
TABLE
finish
