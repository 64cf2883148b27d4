#!/bin/sh
# Proves: deadline_test counts missed periods in its verdict, not only missed
# deadlines (issue 29: a thread starved for whole periods passed). The whole
# process is stopped (SIGSTOP) for 1 s in a 4 s run at a 20 ms period: the
# thread misses ~50 periods while its work, once it runs again, mostly ends
# within its deadline. With --max-misses=5 the verdict is FAIL, exit 3, its
# broken entry counts deadlines and periods together, the JSON is valid by
# its schema; without --verdict the same run exits 0 (2.4's status).
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_native
need_python3
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" != 0 ] ||
	skip "sched_rt_runtime_us is 0: no SCHED_DEADLINE bandwidth"

# starve ARGS...: the run, stopped for 1 s once its thread runs. 2: it never started.
starve() {
	rm -f "$WORK/out.json"
	RC=0
	timeout -k 2 30 "$(tool deadline_test)" --no-preflight -i 20000 -p 5 -t 1 -D 4 \
		--json="$WORK/out.json" "$@" >"$OUT" 2>"$ERR" </dev/null &
	_pid=$!
	_t0=$(date +%s)
	# till the thread line or the tool's end (timeout bounds it): a busy
	# machine may hold the set-up back for long
	while ! grep -qs '^thread\[' "$OUT" && kill -0 "$_pid" 2>/dev/null; do
		sleep 0.1
	done
	if ! grep -qs '^thread\[' "$OUT"; then
		wait "$_pid" || RC=$?
		echo "not started, ended after $(($(date +%s) - _t0)) s (exit $RC): stderr: $(head -c 300 "$ERR"); stdout: $(tail -c 300 "$OUT" | tr '\n' '|')"
		return 2
	fi
	sleep 0.5
	# the timeout process is the parent: stop the tool itself
	_tool=$(pgrep -P "$_pid" -x deadline_test || echo "$_pid")
	kill -STOP "$_tool"
	sleep 1
	kill -CONT "$_tool"
	wait "$_pid" || RC=$?
	return 0
}

judged() {
	starve --max-misses=5 || return 2
	expect_exit 3
	python3 - "$WORK/out.json" <<'PY' || { fail "JSON: $(cat "$WORK/diag")"; return 0; }
import json, sys
d = json.load(open(sys.argv[1]))
t = d["thread"]["0"]
assert t["missed_periods"] >= 10, ("the stop missed no periods", t)
v = d["verdict"]
assert v["result"] == "fail", v
b = [e for e in v["broken"] if e.get("thread") == 0][0]
assert b["limit"] == "max-misses" and b["bound"] == 5, b
assert b["value"] == t["missed_deadlines"] + t["missed_periods"], (b, t)
print("missed deadlines %d, missed periods %d" % (t["missed_deadlines"], t["missed_periods"]))
PY
	check_schema "$WORK/out.json" deadline_test
	expect_match "$OUT" '^# Verdict: FAIL$'
	expect_match "$OUT" '^# Verdict: thread 0: max-misses: [0-9]+ deadline\(s\) and [1-9][0-9]+ period\(s\) missed'
	return 0
}
retry_bound 3 judged

measured() {
	starve || return 2
	expect_exit 0
	expect_no_match "$OUT" '^# (Verdict|Bandwidth|Missed)'
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]["result"] == "fail" and d["thread"]["0"]["missed_periods"] >= 10' \
		"$WORK/out.json" || fail "no --verdict: the JSON verdict is not fail"
	return 0
}
retry_bound 3 measured
finish
