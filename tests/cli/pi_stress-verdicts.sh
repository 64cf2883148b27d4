#!/bin/sh
# Proves: the verdict both ways on real runs. With priority inheritance
# (the default) every group's inversions are resolved, also with all
# threads on one CPU (-u), also three groups sharing it (each low thread
# yields, or the first group's would keep the others' off the CPU and the
# watchdog would fire): "# Verdict: PASS", exit 0. With --no-pi the
# medium thread keeps the low one, which holds the mutex, off the CPU the
# three share: the high thread never gets the mutex, the watchdog prints
# 2.4's "WATCHDOG triggered: group 0 is deadlocked!", the run stops long
# before -D, the verdict names the group, exit 3, and the JSON says fail
# with return_code 3 (2.4 killed its own process group instead) - with -u,
# and on the group's own CPU without it. No PASS without evidence:
# `--no-pi -u -D 2` (shorter than the 3.75 s watchdog, no inversion) prints
# no PASS, its JSON says inconclusive, exit 0 as 2.4; with --verdict it
# says INCONCLUSIVE and why, exit 4.
# test-timeout: 300
# test-holds: low-fifo
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3

CHECKS=""
# PASS: -u puts the admin thread and the group on one CPU.
run_tool_timeout 30 pi_stress --no-preflight -u -i 3000 --verdict --json="$WORK/p.json"
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^# Verdict: PASS$'
cp "$OUT" "$WORK/p.out"
CHECKS="$CHECKS $WORK/p.json $WORK/p.out 1 3000 pass inversions -"
run_tool_timeout 30 pi_stress --no-preflight -u -g 3 -i 2000 --json="$WORK/p3.json"
expect_exit 0
expect_empty_stderr
cp "$OUT" "$WORK/p3.out"
CHECKS="$CHECKS $WORK/p3.json $WORK/p3.out 3 2000 pass inversions -"

# FAIL: no priority inheritance, a 1 s watchdog; -D 15 is never reached.
fail_run() { # NAME ARGS...
	_n=$1
	shift
	start=$(date +%s)
	run_tool_timeout 30 pi_stress --no-preflight -q --no-pi --watchdog=1 -D 15 \
		--json="$WORK/$_n.json" "$@"
	took=$(($(date +%s) - start))
	expect_exit 3
	expect_text "$ERR" "WATCHDOG triggered: group 0 is deadlocked!"
	expect_match "$OUT" '^# Verdict: FAIL$'
	expect_match "$OUT" '^# Verdict: group 0: stuck: no inversion resolved in 1\.00 s \(the high priority thread never got the mutex; --no-pi: no priority inheritance\)$'
	[ "$took" -lt 12 ] || fail "$_n: the stuck run took $took s (-D 15)"
	cp "$OUT" "$WORK/$_n.out"
	CHECKS="$CHECKS $WORK/$_n.json $WORK/$_n.out 1 0 fail watchdog 0"
}
fail_run u -u
if [ "$(nproc)" -ge 2 ]; then
	fail_run pinned -g 1
else
	echo "one CPU: the run without -u is the same as with it"
fi

# Shorter than the watchdog: its check never ran, so no PASS.
run_tool_timeout 30 pi_stress --no-preflight --no-pi -u -D 2 --json="$WORK/short.json"
expect_exit 0
expect_no_match "$OUT" 'PASS'
expect_match "$OUT" '^Total inversion performed: 0$'
cp "$OUT" "$WORK/short.out"
CHECKS="$CHECKS $WORK/short.json $WORK/short.out 1 0 inconclusive duration -"
run_tool_timeout 30 pi_stress --no-preflight --no-pi -u -D 2 -q --verdict
expect_exit 4
expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
expect_match "$OUT" '^# Verdict: the run \([0-9.]+ s\) was shorter than the watchdog \(3\.75 s\): a stuck group could not be caught$'
for j in "$WORK"/*.json; do
	check_schema "$j" pi_stress
done

# shellcheck disable=SC2086
python3 "$HELPERS/pi_stress_check.py" $CHECKS >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
finish
