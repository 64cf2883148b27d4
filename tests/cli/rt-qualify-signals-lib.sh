# shellcheck shell=sh
# Sourced by rt-qualify-signals-*.sh, which call sig_at (two runs each: a
# test stays short on a busy machine).
# Proves: SIGINT or SIGTERM at any moment of an rt-qualify run (the noise
# step, cyclictest under load, oslat under load) stops the tool and the
# load, writes a partial summary.json whose figures are the tools' own,
# exits 3 (not proven), and leaves no process, tracing instance or shared
# memory object behind; a SIGKILL of rt-qualify takes its children with it.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
need_native
CHECK="$top_srcdir/tests/helpers/rt_qualify_check.py"
TR=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)

instances() {
	[ -n "$TR" ] && ls "$TR/instances" 2>/dev/null | grep -v '^$' | sort
}

# Shared memory objects (cyclictest's status, NAME<PID>) that appeared during
# the run and are still there once their process is dead. (Still there: a
# concurrent test's tool may remove its own and exit between the listing
# and the look at its pid.)
left_shm() {
	ls /dev/shm | sort | comm -13 "$WORK/shm.before" - | while read -r _o; do
		_p=$(printf '%s' "$_o" | sed -n 's/.*[^0-9]\([0-9][0-9]*\)$/\1/p')
		[ -n "$_p" ] && [ ! -d "/proc/$_p" ] && [ -e "/dev/shm/$_o" ] && echo "$_o"
	done
}

# Instances that appeared during the run and are still there once their
# tool (NAME-PID) is dead: left behind (other tests' live tools may own new
# ones meanwhile, and remove them just after the listing).
left_instances() {
	instances | comm -13 "$WORK/inst.before" - | while read -r _i; do
		[ -d "/proc/${_i##*-}" ] || [ ! -d "$TR/instances/$_i" ] || echo "$_i"
	done
}

# sig_at SIGNAL SECONDS: a -D 6 run (noise ~2 s, cyclictest ~3 s, oslat ~3 s) signalled then.
sig_at() {
	_d="$WORK/s-$1-$2"
	instances >"$WORK/inst.before"
	ls /dev/shm | sort >"$WORK/shm.before"
	start_in_session "$(tool rt-qualify)" -D 6 --max-latency=3600000000 -o "$_d"
	# started: its first child (SigBlk tells nothing: sigtimedwait shows them unblocked)
	wait_started "$PID"
	sleep "$2"
	kill -"$1" "$PID"
	session_empties "$PID" "$1 at $2 s"
	echo "$1 at $2 s: ended $(date +%T)"
	RC=0
	wait "$PID" 2>/dev/null || RC=$?
	left_instances >"$WORK/inst.left"
	[ ! -s "$WORK/inst.left" ] || fail "$1 at $2 s: tracing instances left: $(cat "$WORK/inst.left")"
	left_shm >"$WORK/shm.left"
	[ ! -s "$WORK/shm.left" ] || fail "$1 at $2 s: shared memory left: $(cat "$WORK/shm.left")"
	# a SIGKILLed rt-qualify writes nothing; its children ended cleanly (above)
	if [ "$1" = KILL ]; then
		return
	fi
	[ -s "$_d/summary.json" ] || { fail "$1 at $2 s: no summary.json ($(head -c 300 "$ERR"))"; return; }
	python3 "$CHECK" "$_d" --partial >"$WORK/diag" 2>&1 || fail "$1 at $2 s: $(cat "$WORK/diag")"
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); sys.exit(s["stopped_by"] != "SIG" + sys.argv[2] or s["return_code"] != (3 if s["verdict"]["result"] == "fail" else 4))' \
		"$_d/summary.json" "$1" || fail "$1 at $2 s: stopped_by or return_code wrong"
	# NOT PROVEN: no limit (an hour) can break. A step the signal did not
	# stop may FAIL all the same on a CPU that measured nothing (a test
	# beside this one hogged it at SCHED_FIFO); the stopped step never.
	grep -q '^Verdict: NOT PROVEN (INCONCLUSIVE)$' "$OUT" || python3 - "$_d/summary.json" <<'PY' ||
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
fails = [st for st in steps if st["result"] == "fail"]
sys.exit(not fails or any(st["stopped"] or {b.get("limit") for b in st["verdict"]["broken"]} != {"samples"}
                          for st in fails))
PY
		fail "$1 at $2 s: not NOT PROVEN: $(grep -A4 '^Verdict' "$OUT" | tr '\n' '|')"
}

