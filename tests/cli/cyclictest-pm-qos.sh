#!/bin/sh
# Proves: /dev/cpu_dma_latency is written with --latency and held open for the
# run (first stdout line says so), and --laptop / --default-system skip it
# with 2.4's warnings and no "#" line.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
[ -w /dev/cpu_dma_latency ] || skip "/dev/cpu_dma_latency not writable"
CT=$(tool cyclictest)

"$CT" -q -p 80 --latency=7 -i 10000 >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.5
held=0
for fd in /proc/$pid/fd/*; do
	[ "$(readlink "$fd")" = /dev/cpu_dma_latency ] && held=1
done
[ "$held" -eq 1 ] || fail "/dev/cpu_dma_latency not held open during the run"
kill -INT "$pid"
wait "$pid" || fail "exit $?"
head -n 1 "$OUT" | grep -qx '# /dev/cpu_dma_latency set to 7us' || fail "first line: $(head -n 1 "$OUT")"

run_tool_timeout 30 cyclictest -q -p 80 -l 10 --laptop --no-preflight
expect_exit 0
expect_text "$ERR" "WARN: not setting cpu_dma_latency to save battery power"
expect_no_match "$OUT" '^#'
check_summary "$OUT" 1 10

run_tool_timeout 30 cyclictest -q -p 80 -l 10 --default-system --no-preflight
expect_exit 0
expect_text "$ERR" "WARN: not setting cpu_dma_latency from cyclictest"
expect_no_match "$OUT" '^#'
finish
