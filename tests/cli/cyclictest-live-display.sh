#!/bin/sh
# Proves: the live display keeps 2.4's frame: header "policy: fifo: loadavg:
# ..." + 10 spaces, an empty line, one T: line per thread, ESC[<threads+2>A
# before every later frame, and a final frame with the final numbers (so
# parsers that seek the last ESC read the result).
. "$top_srcdir/tests/cli/lib.sh"
need_rt

run_tool_timeout 30 cyclictest -p 80 -t 2 -i 1000 -l 600
expect_exit 0
head -n 1 "$OUT" | grep -qx '# /dev/cpu_dma_latency set to 0us' || fail "dma line not first"
sed -n 2p "$OUT" | grep -Eq '^policy: fifo: loadavg: [0-9.]+ [0-9.]+ [0-9.]+ [0-9]+/[0-9]+ [0-9]+          $' ||
	fail "header: $(sed -n 2p "$OUT")"
grep -c "$(printf '\033')\[4A" "$OUT" >"$WORK/n"
[ "$(cat "$WORK/n")" -ge 1 ] || fail "no ESC[4A frame separator"
esc=$(printf '\033')
# Like Linaro's parser: what follows the last ESC is the result.
awk -v RS="$esc" 'END { printf "%s", $0 }' "$OUT" | grep '^T:' >"$WORK/final"
check_summary "$WORK/final" 2 600
grep -q "${esc}\[[0-9]*B" "$OUT" && fail "unexpected cursor-down"

run_tool_timeout 30 cyclictest --policy=batch -t 1 -l 100
expect_exit 0
sed -n 2p "$OUT" | grep -Eq '^policy: batch: loadavg: ' || fail "batch header: $(sed -n 2p "$OUT")"
finish
