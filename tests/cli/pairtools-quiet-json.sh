#!/bin/sh
# Proves: sigwaittest and svsematest (threads and -f processes), ptsematest
# and pmqtest (with its TO column) print the 2.4 block with one line pair per -t, Cycles = -l for every pair (each runs to
# its own count), intervals I + i*d, priorities P-i (ptsematest not below 1,
# -S all equal), valid JSON in the 2.4 schema agreeing with the text and
# saying whether every thread ran real-time, and
# intervals of 1 s and more shown and measured whole.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3

for t in "sigwaittest" "sigwaittest -f" "ptsematest" "svsematest" "svsematest -f" "pmqtest"; do
	# shellcheck disable=SC2086
	run_tool_timeout 30 $t -q -p 80 -t 3 -i 500 -d 250 -l 200 --json="$WORK/p.json"
	[ "$RC" -eq 0 ] || fail "$t: exit $RC: $(cat "$ERR")"
	check_pairs "$OUT" 3 200 "$WORK/p.json"
	check_sched "$WORK/p.json" fifo
	to=
	[ "$t" = pmqtest ] && to='TO 0, '
	expect_match "$OUT" "^#0: ID[0-9]+, P80, CPU-?[0-9]+, I500; #1: ID[0-9]+, P80, CPU-?[0-9]+, ${to}Cycles 200\$"
	expect_match "$OUT" '^#2: ID[0-9]+, P79, CPU-?[0-9]+, I750; '
	expect_match "$OUT" '^#4: ID[0-9]+, P78, CPU-?[0-9]+, I1000; '
done

run_tool_timeout 30 sigwaittest -q -p 1 -t 2 -l 20 --json="$WORK/m.json"
expect_exit 0
expect_match "$OUT" '^#2: ID[0-9]+, P0, '   # sigwaittest goes down to 0 (SCHED_OTHER)
check_sched "$WORK/m.json" mixed             # so part of the run was not real-time
run_tool_timeout 30 ptsematest -q -p 1 -t 2 -l 20
expect_exit 0
expect_match "$OUT" '^#2: ID[0-9]+, P1, '   # ptsematest stops at 1

run_tool_timeout 30 ptsematest -q -p 80 -S -l 50
expect_exit 0
ncpu=$(nproc)
check_pairs "$OUT" "$ncpu" 50
[ "$(grep -c ', P80, ' "$OUT")" -eq "$ncpu" ] || fail "-S: not all pairs at P80"

run_tool_timeout 30 sigwaittest -q -p 80 -i 1000000 -l 2
expect_exit 0
check_pairs "$OUT" 1 2
expect_match "$OUT" ', I1000000; '
max=$(sed -n 's/.*Max *\([0-9]*\)$/\1/p' "$OUT")
[ "$max" -lt 500000 ] || fail "-i 1000000: Max $max us"
finish
