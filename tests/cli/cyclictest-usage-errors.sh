#!/bin/sh
# Proves: each bad invocation exits 2 with exactly the expected one-line
# message plus the hint on stderr, nothing on stdout, and no output file.
. "$top_srcdir/tests/cli/lib.sh"

EXP="$top_srcdir/tests/expected/cyclictest"
ALLOWED=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
# name|arguments (split on spaces; the json/histfile paths are under $WORK)
while IFS='|' read -r name args; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 cyclictest --json="$WORK/out.json" --histfile="$WORK/h.txt" $args
	expect_exit 2
	expect_empty_stdout
	# The allowed CPU set is the machine's: substitute it into the expectation.
	sed "s/@ALLOWED@/$ALLOWED/" "$EXP/usage-$name.err" >"$WORK/expected.txt"
	compare_exact "$ERR" "$WORK/expected.txt"
	[ ! -e "$WORK/out.json" ] || fail "$name: --json file created"
	[ ! -e "$WORK/h.txt" ] || fail "$name: --histfile created"
	[ -z "$(ls -A "$WORK" | grep -v -e '^stdout$' -e '^stderr$' -e '^expected.txt$')" ] ||
		fail "$name: stray files: $(ls -A "$WORK")"
done <<'TABLE'
interval-zero|-i 0
interval-negative|-i -5
interval-junk|-i 100x
interval-huge|-i 1000001
clock-two|-c 2
duration-bad-suffix|-D 5x
duration-fraction|-D 1.5m
threads-not-number|-t abc
threads-zero|-t0
priority-100|-p 100
priority-negative|-p -1
affinity-outside|-a 99
affinity-garbage|-a x-y
histogram-zero|-h 0
histogram-huge|-H 1000001
loops-negative|-l -1
distance-junk|-d 1e3
oscope-without-verbose|-o 5
policy-unknown|--policy=deadline
policy-batch-with-prio|--policy=batch -p 80
aligned-and-secaligned|-A 10 --secaligned
system-and-posix|-s -x
tracemark-without-break|--tracemark
unknown-long|--frobnicate
unknown-short|-z
ambiguous-long|--pri 80
missing-argument|-i
stray-word|-q stray
latency-negative|--latency=-5
spike-nodes-zero|--spike=10 --spike-nodes=0
smi-unpinned|--smi
mainaffinity-outside|--mainaffinity=99
affinity-overflow|-a 0-0500000000000000000000
TABLE
finish
