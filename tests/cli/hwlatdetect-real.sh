#!/bin/sh
# Proves, on the real kernel: without the hwlat tracer, hwlatdetect says so
# in one line naming CONFIG_HWLAT_TRACER, exits 1 and changes nothing in
# tracefs (2.4: a DetectorNotAvailable traceback); with it, a 2 s run
# reports, passes under a hardlimit no latency can reach, and leaves the
# global tracing settings as they were.
# test-holds: global-tracing
. "$top_srcdir/tests/cli/lib.sh"
lsan_ignore_libtracefs
need_tracefs
grep -q '^#define HAVE_TRACEFS 1' "$top_builddir/config.h" || skip "built without libtracefs"
T=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
[ -n "$T" ] || T=/sys/kernel/tracing
state() {
	for f in tracing_on current_tracer tracing_thresh tracing_cpumask; do
		printf '%s: %s\n' "$f" "$(cat "$T/$f")"
	done
	for f in width window; do
		[ -e "$T/hwlat_detector/$f" ] && printf '%s: %s\n' "$f" "$(cat "$T/hwlat_detector/$f")"
	done
	return 0
}
state >"$WORK/state.before"
# Not root: one line, exit 1, nothing changed (2.4: a RuntimeError traceback).
if command -v setpriv >/dev/null 2>&1; then
	RC=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$(tool hwlatdetect)" --duration=1 \
		>"$OUT" 2>"$ERR" </dev/null || RC=$?
	expect_exit 1
	expect_empty_stdout
	expect_text "$ERR" "hwlatdetect: cannot read $T/available_tracers: Permission denied (hwlatdetect needs root)"
else
	echo "note: the not-root case was not run: no setpriv"
fi
if ! grep -qw hwlat "$T/available_tracers"; then
	run_tool_timeout 20 hwlatdetect --duration=2
	expect_exit 1
	expect_empty_stdout
	expect_text "$ERR" "hwlatdetect: the kernel has no hwlat tracer (available_tracers: $(cat "$T/available_tracers")): it needs CONFIG_HWLAT_TRACER=y"
	state >"$WORK/state.after"
	compare_exact "$WORK/state.after" "$WORK/state.before"
	echo "note: this kernel has no hwlat tracer: the 2 s real run was not done"
	finish
fi
# The kernel's hwlat tracer is a single one: skip when someone uses it.
[ "$(cat "$T/current_tracer")" = nop ] || skip "the global tracer is busy ($(cat "$T/current_tracer"))"
run_tool_timeout 20 hwlatdetect --duration=2 --window=100ms --width=10ms --hardlimit=3600s \
	--json="$WORK/real.json"
expect_exit 0
expect_match "$OUT" '^hwlatdetect:  test duration 2 seconds$'
expect_match "$OUT" '^test finished$'
expect_match "$OUT" '^Samples recorded: [0-9]+$'
expect_match "$OUT" '^# Verdict: PASS$'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]["result"] == "pass"' \
	"$WORK/real.json" || fail "JSON"
state >"$WORK/state.after"
compare_exact "$WORK/state.after" "$WORK/state.before"
finish
