#!/bin/sh
# Proves: SIGUSR1 prints the status block on stderr and SIGUSR2 does
# nothing (no status object: that is cyclictest's), the run goes on;
# SIGINT and SIGTERM end a cyclicdeadline run with exit 0 (as 2.4)
# and what it measured: the -q block, a complete JSON that agrees with it;
# the process and its threads are gone, and the scheduler features
# (HRTICK_DL, which a runtime under 2 ms switches on where it can) are as
# they were before the run.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_native
need_python3
CD=$(tool cyclicdeadline)

features() {
	for _f in /sys/kernel/debug/sched/features /sys/kernel/debug/sched_features; do
		[ -r "$_f" ] && cat "$_f" 2>/dev/null && return
	done
	echo none
}

# start_run: a 60 s run in the background until its threads run ($pid);
# a start refused for want of bandwidth (other tests) is tried again.
start_run() {
	for _try in 1 2 3 4 5; do
		rm -f "$WORK/out.json"
		"$CD" --no-preflight -q -i 1000 -t 1 -D 60 --json="$WORK/out.json" \
			>"$OUT" 2>"$ERR" </dev/null &
		pid=$!
		_w=0
		while ! grep -qs '^thread\[' "$OUT" && kill -0 "$pid" 2>/dev/null && [ "$_w" -lt 100 ]; do
			sleep 0.1
			_w=$((_w + 1))
		done
		kill -0 "$pid" 2>/dev/null && return 0
		_rc=0
		wait "$pid" || _rc=$?
		echo "start $_try ended before the threads ran (exit $_rc): $(cat "$ERR")" >&2
		sleep 1
	done
	fail "no run started in five tries"
	finish
}

before=$(features)
for sig in INT TERM; do
	start_run
	sleep 0.5
	if [ "$sig" = INT ]; then
		kill -USR1 "$pid"
		kill -USR2 "$pid"
		sleep 0.3
		kill -0 "$pid" 2>/dev/null || fail "SIGUSR1/2 ended the run"
		expect_match "$ERR" '^# cyclicdeadline current status:$'
		expect_match "$ERR" '^T: 0 \( *[0-9]+\) I:1000 C: *[0-9]+ '
		[ ! -e "/dev/shm/${NS_PREFIX}cyclictest$pid" ] || fail "a cyclictest status object"
	fi
	kill -"$sig" "$pid"
	RC=0
	wait "$pid" || RC=$?
	expect_exit 0
	kill -0 "$pid" 2>/dev/null && fail "SIG$sig: still running"
	[ "$(grep -c '^T: 0 ' "$OUT")" -eq 1 ] || fail "SIG$sig: no -q block: $(cat "$OUT")"
	python3 - "$WORK/out.json" "$OUT" <<'PY' || fail "SIG$sig: JSON"
import json, re, sys
d = json.load(open(sys.argv[1]))
t = d["thread"]["0"]
line = [l for l in open(sys.argv[2]) if l.startswith("T: 0 ")][0]
c = int(re.search(r"C: *(\d+)", line).group(1))
assert d["return_code"] == 0 and t["cycles"] == c and c > 0, (t, line)
PY
	[ "$(features)" = "$before" ] || fail "SIG$sig: sched features changed"
done
finish
