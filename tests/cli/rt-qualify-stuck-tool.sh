#!/bin/sh
# Proves: when a stop signal comes while a tool ignores it, rt-qualify stops
# the load at once (the tool's ending does not wait behind it), SIGKILLs the
# tool after its grace, and removes what the killed tool could not: its
# tracing instance and its shm object, and only those (a live run's with
# the same names stay). The summary is written, the step marked stopped,
# exit 4 (NOT PROVEN; 3 if another step FAILed), and the session empties.
# test-holds: cpu-load
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_native
need_python3
TR=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)

# rt-qualify finds its tools beside itself: the real ones, and a cyclictest
# that ignores SIGINT and SIGTERM and leaves the objects a killed run leaves.
Q="$WORK/q"
mkdir "$Q"
cp "$(tool rt-qualify)" "$Q/rt-qualify"
for t in hwlatdetect oslat hackbench; do
	ln -s "$(cd "$top_builddir/src/$t" && pwd)/$t" "$Q/$t"
done
cat >"$Q/cyclictest" <<'EOF'
#!/bin/sh
trap '' INT TERM
[ -z "$FAKE_TR" ] || mkdir "$FAKE_TR/instances/cyclictest-$$"
: >"/dev/shm/cyclictest$$"
echo $$ >"$FAKE_PIDFILE"
exec sleep 300
EOF
chmod +x "$Q/cyclictest"

# A live process's objects of the same names: provably not left, kept.
sleep 300 &
DECOY=$!
: >"/dev/shm/cyclictest$DECOY"
[ -z "$TR" ] || mkdir "$TR/instances/cyclictest-$DECOY"
cleanup_decoy() {
	kill "$DECOY" 2>/dev/null
	rm -f "/dev/shm/cyclictest$DECOY"
	[ -z "$TR" ] || rmdir "$TR/instances/cyclictest-$DECOY" 2>/dev/null
	[ -z "${FAKE:-}" ] || { rm -f "/dev/shm/cyclictest$FAKE"; [ -z "$TR" ] || rmdir "$TR/instances/cyclictest-$FAKE" 2>/dev/null; }
	rm -rf "$WORK"
}
trap cleanup_decoy EXIT

export FAKE_TR="$TR" FAKE_PIDFILE="$WORK/fake.pid"
start_in_session "$Q/rt-qualify" -D 6 --max-latency=3600000000 -o "$WORK/r"
for _i in $(seq 1 300); do
	[ -s "$FAKE_PIDFILE" ] && break
	kill -0 "$PID" 2>/dev/null || break
	sleep 0.1
done
[ -s "$FAKE_PIDFILE" ] || { fail "the cyclictest step never started: $(head -c 300 "$ERR")"; pkill -KILL -s "$PID"; finish; }
FAKE=$(cat "$FAKE_PIDFILE")
sleep 1
[ -n "$(pgrep -s "$PID" -x hackbench)" ] || fail "no hackbench load beside the cyclictest step"
kill -TERM "$PID"

# The load ends within its own grace (10 s; 20 on a busy machine) while the
# tool, with 30 s of grace, still ignores the stop.
for _i in $(seq 1 200); do
	[ -z "$(pgrep -s "$PID" -x hackbench)" ] && break
	sleep 0.1
done
[ -z "$(pgrep -s "$PID" -x hackbench)" ] || fail "the load still runs 20 s after SIGTERM"
kill -0 "$FAKE" 2>/dev/null || fail "the stuck tool ended before its grace"

# Then the tool's grace (30 s), its SIGKILL, the summary.
for _i in $(seq 1 600); do
	[ "$(session_members "$PID")" -eq 0 ] && break
	sleep 0.1
done
[ "$(session_members "$PID")" -eq 0 ] || { fail "the session still runs 72 s after SIGTERM"; pkill -KILL -s "$PID"; }
RC=0
wait "$PID" 2>/dev/null || RC=$?
[ "$RC" -eq 4 ] || [ "$RC" -eq 3 ] || fail "exit $RC, not 4 (NOT PROVEN) or 3 (NOT FIT)"

[ ! -e "/dev/shm/cyclictest$FAKE" ] || fail "the killed tool's shm object is left"
[ -e "/dev/shm/cyclictest$DECOY" ] || fail "a live process's shm object was removed"
if [ -n "$TR" ]; then
	[ ! -d "$TR/instances/cyclictest-$FAKE" ] || fail "the killed tool's tracing instance is left"
	[ -d "$TR/instances/cyclictest-$DECOY" ] || fail "a live process's tracing instance was removed"
fi
python3 - "$WORK/r/summary.json" <<'PY' || fail "summary: $(cat "$WORK/diag" 2>/dev/null)"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["stopped_by"] == "SIGTERM", s["stopped_by"]
assert s["return_code"] == (3 if s["verdict"]["result"] == "fail" else 4), s["return_code"]
ct = [st for st in s["steps"] if st["name"] == "cyclictest"][0]
assert ct["stopped"], ct
assert s["load"]["ended_early"] is False, s["load"]
PY
finish
