#!/bin/sh
# Proves: --help prints the usage with every long option of 2.4 on stdout and
# exits 0; --version names the package and the rt-tests interface level.
. "$top_srcdir/tests/cli/lib.sh"

run_tool cyclictest --help
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^cyclictest V 2\.40 '
expect_match "$OUT" '^Usage:$'
for opt in affinity aligned breaktrace clock default-system distance duration fifo \
	histogram histofall histfile interval json laptop latency loops mainaffinity \
	mlockall refresh_on_max nsecs oscope priority policy priospread quiet relative \
	resolution secaligned system smp spike spike-nodes smi threads tracemark \
	unbuffered verbose dbg_cyclictest posix_timers help version; do
	grep -q -- "--$opt\\b" "$OUT" || fail "--help does not mention --$opt"
done

run_tool cyclictest --version
expect_exit 0
expect_match "$OUT" '^cyclictest \(rt-tests-ng\) [0-9]+\.[0-9]+\.[0-9]+$'
expect_match "$OUT" '^rt-tests interface 2\.40$'

# Long options may be abbreviated; --prio is the spelling 2.4's help shows.
run_tool cyclictest --vers
expect_exit 0
expect_match "$OUT" '^cyclictest \(rt-tests-ng\)'
finish
