#!/bin/sh
# Proves: SIGINT, SIGTERM and SIGHUP while hwlatdetect samples end the run
# at once with "interrupted" and the full report (the samples read so far),
# the exit status by the hardlimit, and every tracer setting back at its old
# value (2.4 died at SIGTERM leaving the tracer running), after SIGKILL by
# the guard process it leaves (which is gone then too); a full disk under
# --report is one line, exit 1, no partial file, and the settings restored.
. "$top_srcdir/tests/cli/lib.sh"
lsan_ignore_libtracefs
. "$top_srcdir/tests/helpers/hwlat_fake.sh"
need_cmd mkfifo
need_native
grep -q '^#define HAVE_TRACEFS 1' "$top_builddir/config.h" || skip "built without libtracefs"
F="$WORK/tracefs"
fake_tree "$F"
fake_state "$F" >"$WORK/state.before"
hwlat_line 1 1 40 11 1764624000.000001000 >"$WORK/one"

for sig in INT TERM HUP; do
	# the feeder holds trace_pipe open: the tool samples until the signal
	feed "$F/trace_pipe" "$WORK/one" 30
	# emptied now: the wait below must not see the last run's sample
	: >"$OUT"
	HWLATDETECT_TRACEFS=$F timeout -k 2 30 "$HWLAT_TEST_TOOL" --duration=60 --threshold=10 \
		--hardlimit=30 --watch --report="$WORK/sig.rpt" >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	for _i in $(seq 1 100); do
		grep -q '^ts: ' "$OUT" && break
		sleep 0.1
	done
	grep -q '^ts: ' "$OUT" || fail "SIG$sig: no sample seen in 10 s"
	fake_state "$F" >"$WORK/state.during"
	expect_match "$WORK/state.during" '^current_tracer: hwlat$'
	kill -"$sig" "$pid"
	RC=0
	wait "$pid" || RC=$?
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	expect_exit 1
	expect_empty_stderr
	sed -n '/^ts: /,$p' "$OUT" >"$WORK/tail"
	cat >"$WORK/expected" <<X
ts: 1764624000.000001000, inner:40, outer:11
interrupted
test finished
Max Latency: 40us
Samples recorded: 1
Samples exceeding threshold: 1
report saved to $WORK/sig.rpt (1 samples)
# Verdict: FAIL
# Verdict: hardlimit: max latency 40 us > hardlimit 30 us
X
	expect_match "$WORK/tail" "^# Verdict: partial: stopped by SIG$sig after [0-9.]* of 60 s\$"
	sed -i '/^# Verdict: partial: /d' "$WORK/tail"
	compare_exact "$WORK/tail" "$WORK/expected"
	expect_text "$WORK/sig.rpt" "ts: 1764624000.000001000, inner:40, outer:11"
	fake_state "$F" >"$WORK/state.after"
	compare_exact "$WORK/state.after" "$WORK/state.before"
done

# SIGKILL cannot be caught: the guard child hwlatdetect leaves behind
# writes the settings back, and is gone itself.
feed "$F/trace_pipe" "$WORK/one" 30
: >"$OUT"
HWLATDETECT_TRACEFS=$F timeout -k 2 30 "$HWLAT_TEST_TOOL" --duration=60 --threshold=10 \
	--watch --report="$WORK/killed.rpt" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
for _i in $(seq 1 100); do
	grep -q '^ts: ' "$OUT" && break
	sleep 0.1
done
fake_state "$F" >"$WORK/state.during"
expect_match "$WORK/state.during" '^current_tracer: hwlat$'
# the tool itself, not timeout: its child is the tool
tpid=$(pgrep -P "$pid" | head -n 1)
[ -n "$tpid" ] && kill -KILL "$tpid"
wait "$pid" 2>/dev/null
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
for _i in $(seq 1 50); do
	fake_state "$F" >"$WORK/state.after"
	cmp -s "$WORK/state.after" "$WORK/state.before" && break
	sleep 0.1
done
compare_exact "$WORK/state.after" "$WORK/state.before"
for _i in $(seq 1 50); do
	pgrep -f "$WORK/killed.rpt" >/dev/null || break
	sleep 0.1
done
! pgrep -f "$WORK/killed.rpt" >/dev/null || fail "SIGKILL: a process is left: $(pgrep -af "$WORK/killed.rpt")"
[ ! -e "$WORK/killed.rpt" ] || fail "SIGKILL: a --report file was written"

# A full disk under --report, in a private mount namespace.
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	mkdir "$WORK/small"
	feed "$F/trace_pipe" "$WORK/one"
	cat >"$WORK/full.sh" <<'X'
mount -t tmpfs -o size=4k tmpfs "$1" || exit 99
dd if=/dev/zero of="$1/fill" bs=1k count=8 2>/dev/null
shift
"$@"
X
	RC=0
	HWLATDETECT_TRACEFS=$F timeout -k 2 30 unshare -m --propagation private sh "$WORK/full.sh" \
		"$WORK/small" "$HWLAT_TEST_TOOL" --duration=1 --threshold=10 --hardlimit=50 \
		--report="$WORK/small/hw.rpt" >"$OUT" 2>"$ERR" </dev/null || RC=$?
	wait "$feeder"
	if [ "$RC" -eq 99 ]; then
		echo "note: full-disk case not run: cannot mount a tmpfs here"
	else
		expect_exit 1
		expect_text "$ERR" "hwlatdetect: cannot write --report file '$WORK/small/hw.rpt': No space left on device"
		expect_no_match "$OUT" '^report saved'
		expect_match "$OUT" '^ts: 1764624000.000001000, inner:40, outer:11$'
		fake_state "$F" >"$WORK/state.after"
		compare_exact "$WORK/state.after" "$WORK/state.before"
	fi
else
	echo "note: full-disk case not run: no private mount namespace"
fi
finish
