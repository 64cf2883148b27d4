#!/bin/sh
# Proves --self-check passes on an idle machine (make check runs this test
# after all others, see Makefile.am): every sample is found in the trace,
# the expiry cyclictest computed equals the one hrtimer_start armed, and at
# least 99% of the wakeup timestamps are within 2 us of the kernel's view
# beyond what the trace explains; exit 0 and "# Self-check: PASS" (a FAIL
# exits 3); the JSON "self_check" holds the same figures and verdict. The
# systematic part (every sample found, expiry exact, a verdict that
# matches the share) holds on every attempt; the 99% share is retried, and
# a VM whose host keeps it from that share 8 times over skips with the
# figures. The
# global tracing settings are the same afterwards and no instance is left.
# test-holds: machine
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_rt
need_tracefs
need_native
need_trace_analysis sched_switch hrtimer_start sys_exit
CT=$(tool cyclictest)
tracing_global_state >"$WORK/before"

# The systematic part must hold on every attempt: every sample found, the
# expiry exact, and the verdict and exit code what the printed share says.
# Only the timing (the share within 2 us) may suffer from noise: retried.
best=0
check_self() {
	rc=0
	"$CT" -q -m -p 80 --self-check --json="$WORK/sc.json" >"$OUT" 2>"$ERR" </dev/null || rc=$?
	cat "$OUT"
	# The JSON holds the same figures and verdict as the text.
	python3 - "$WORK/sc.json" "$OUT" <<'PY' || return 1
import json, re, sys
c = json.load(open(sys.argv[1]))["self_check"]
text = open(sys.argv[2]).read()
m = re.search(r"# Self-check: (\d+) samples on CPU (\d+), (\d+) found in the trace, (\d+) agree", text)
assert m and (c["samples"], c["cpu"], c["found_in_trace"], c["agree"]) == tuple(map(int, m.groups())), c
assert 0 < c["switched_in"] <= c["found_in_trace"] == 1000, c
assert c["expiry_us"]["p50"] == 0.0 and c["verdict"] in ("PASS", "FAIL"), c
assert ("# Self-check: %s (" % c["verdict"]) in text and c["reason"] is None, c
assert c["switch_in_to_sys_exit_us"]["p50"] > 0.0, c
PY
	grep -q '^# Self-check: 1000 samples on CPU [0-9]*, 1000 found in the trace, ' "$OUT" || return 1
	grep -q "^# Self-check: our expiry vs hrtimer_start's: p50 0.0 us, p99 0.0 us" "$OUT" || return 1
	share=$(sed -n 's/^# Self-check: .* agree within 2 us (\([0-9]*\)\.\([0-9]\)%)$/\1\2/p' "$OUT")
	[ -n "$share" ] || return 1
	[ "$share" -gt "$best" ] && best=$share
	if [ "$share" -ge 990 ]; then
		[ "$rc" -eq 0 ] && grep -q '^# Self-check: PASS' "$OUT" && return 0
		return 1
	fi
	# a check that ran and failed exits 3 (1 is "could not run")
	[ "$rc" -eq 3 ] && grep -q '^# Self-check: FAIL' "$OUT" || return 1
	sleep 3 # host noise, invisible to the trace
	return 2
}
i=1
while :; do
	r=0
	check_self || r=$?
	[ "$r" -eq 2 ] || break
	[ "$i" -ge 8 ] && break
	i=$((i + 1))
done
case $r in
0) ;;
1) fail "the measurement disagrees with the trace beyond noise (attempt $i)" ;;
2) # Only the timing, 8 times: noise. In a VM whose host steals time unseen
	# (no steal accounting) that is the machine, not the measurement.
	if grep -qw hypervisor /proc/cpuinfo || [ -s /sys/hypervisor/type ]; then
		tracing_global_state >"$WORK/after"
		compare_exact "$WORK/after" "$WORK/before"
		[ "$FAILS" -eq 0 ] || finish
		skip "the host adds noise the guest cannot see: best of 8 attempts $((best / 10)).$((best % 10))% within 2 us (99% needed); the systematic checks passed every time"
	fi
	fail "above the upper bound in 8 attempts (best $((best / 10)).$((best % 10))%)" ;;
esac
tracing_global_state >"$WORK/after"
compare_exact "$WORK/after" "$WORK/before"
finish
