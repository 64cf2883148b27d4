#!/bin/sh
# Proves: a real run prints rt-tests 2.4's lines in 2.4's layout (recorded
# from Debian's 2.4: `deadline_test -i 10000 -p 20`, numbers as regexes),
# then, with --verdict only, "# Bandwidth:", "# Missed deadlines:" and
# "# Verdict:"; the verdict, the exit status and the JSON (2.4's header with
# return_code, each thread's misses, the totals, verdict, scheduling,
# environment; valid by its schema) agree with the text. PASS: at 10 % of a
# CPU with the work half the runtime (a noisy VM may still miss: up to three
# short runs). FAIL: -P 1000 makes each period's work twice the deadline, so
# every period misses: exit 3 with --verdict, the misses (deadlines and
# periods) counted per thread and in total; exit 0 and 2.4's bytes without.
# test-holds: deadline
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" != 0 ] ||
	skip "sched_rt_runtime_us is 0: no SCHED_DEADLINE bandwidth"

# 2.4's lines, one ERE each (1 thread, no adjustment line: see below).
cat >"$WORK/layout.re" <<'RE'
100000 test loops took [0-9]+us total \([0-9]+ internal\)
calculated loops for 1000us=[0-9]+
[0-9]+ test loops took [0-9]+us total \([0-9]+ internal\)
New calculated loops for 1000us=[0-9]+
Diff from last calculation: -?[0-9]+ loops
Setup:
 percent per task:10 run-percent:50 nr_cpus:[0-9]+ loops:[0-9]+ overhead:[0-9]+us
(Failed to perform task within runtime: Missed by [0-9]+ us|New overhead=[0-9]+us|  Tested at [0-9]+us of 2000us)
deadline thread [0-9]+
thread\[[0-9]+\] runtime=2000us deadline=20000us loops=[0-9]+

\[[0-9]+\]
missed deadlines  = [0-9]+
missed periods    = [0-9]+
Total adjustments = [0-9]+ us
deadline   : 20000 us
RE
# A line may repeat where 2.4 repeats it (retries, the optional adjustments
# line): squeeze those before comparing.
squeeze() {
	sed -E '/^(Failed to perform|New overhead=)/d; /^# adjustments = [0-9]+ avg: [0-9]+ us$/d' "$1" |
		awk 'NR <= 16'
}

check_json() { # FILE RC
	python3 - "$1" "$2" "$OUT" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
text = open(sys.argv[3]).read()
for k in ("file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
          "return_code", "sysinfo", "num_threads", "thread", "bandwidth",
          "missed_deadlines", "missed_periods", "nr_periods", "stopped_by", "verdict",
          "scheduling", "environment"):
    assert k in d, k
asked = "--verdict" in d["cmdline:"] or "--max-misses" in d["cmdline:"]
assert d["return_code"] == rc, (d["return_code"], rc)
if asked:
    assert d["verdict"]["result"] == ("pass" if rc == 0 else "fail")
else:
    assert rc == 0
assert d["scheduling"]["policy"] == "deadline", d["scheduling"]
total = 0
for i in range(d["num_threads"]):
    t = d["thread"][str(i)]
    m = re.search(r"\n\[%d\]\nmissed deadlines  = (\d+)\nmissed periods    = (\d+)\n" % t["tid"], text)
    assert m, t["tid"]
    assert int(m.group(1)) == t["missed_deadlines"]
    assert int(m.group(2)) == t["missed_periods"]
    assert "nr_periods : %d\n" % t["nr_periods"] in text
    total += t["missed_deadlines"] + t["missed_periods"]
    if t["missed_deadlines"] + t["missed_periods"] and d["verdict"]["result"] == "fail":
        assert any(b.get("thread") == i and b["value"] == t["missed_deadlines"] + t["missed_periods"]
                   for b in d["verdict"]["broken"]), d["verdict"]
assert total == d["missed_deadlines"] + d["missed_periods"]
assert (d["verdict"]["result"] == "pass") == (total <= (d["max_misses"] or 0))
if asked:
    assert "# Missed deadlines: %d of %d periods" % (d["missed_deadlines"], d["nr_periods"]) in text
    assert ("# Verdict: PASS\n" in text) == (rc == 0)
else:
    assert not re.search(r"^# (Verdict|Bandwidth|Missed)", text, re.M), "lines beyond 2.4 without --verdict"
PY
}

# PASS, on a real run (retried: noise can make the kernel throttle a thread).
ok=0
for try in 1 2 3; do
	run_tool_timeout 20 deadline_test --no-preflight -i 20000 -p 5 -t 1 -P 50 -D 1 \
		--verdict --json="$WORK/pass.json"
	[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] || { fail "exit $RC: $(head -c 300 "$ERR")"; break; }
	check_json "$WORK/pass.json" "$RC" || fail "JSON and text disagree (exit $RC)"
	check_schema "$WORK/pass.json" deadline_test
	if [ "$RC" -eq 0 ]; then
		ok=1
		break
	fi
	echo "try $try: deadlines missed on this machine: $(grep '^# Missed' "$OUT")"
done
[ "$ok" -eq 1 ] || fail "no PASS in 3 runs at 10 % of a CPU"
expect_empty_stderr
squeeze "$OUT" >"$WORK/head"
compare_regex "$WORK/head" "$WORK/layout.re"
expect_match "$OUT" '^runtime    : 2000 us$'
expect_match "$OUT" '^nr_periods : [1-9][0-9]*$'
expect_match "$OUT" '^max_time: [0-9]+us	min_time: [0-9]+us	avg_time: [0-9]+us$'
expect_match "$OUT" '^ctx switches vol:-?[0-9]+ nonvol:-?[0-9]+ migration:-?[0-9]+$'
expect_match "$OUT" '^highest prime: [0-9]+$'
expect_match "$OUT" '^# Bandwidth: 1 thread\(s\), 10\.0% of a CPU on [0-9]+ CPU\(s\) \(.*\)$'
tail -n 3 "$OUT" >"$WORK/tail"
printf '%s\n' '' '# Bandwidth: .*' '# Missed deadlines: 0 of [1-9][0-9]* periods, missed periods: 0' \
	'# Verdict: PASS' | tail -n 3 >"$WORK/tail.re"
compare_regex "$WORK/tail" "$WORK/tail.re"

# FAIL, certain: the work of a period is twice the deadline.
run_tool_timeout 20 deadline_test --no-preflight -i 20000 -p 10 -t 1 -P 1000 -D 1 \
	--verdict --json="$WORK/fail.json"
expect_exit 3
check_json "$WORK/fail.json" 3 || fail "JSON and text disagree (FAIL run)"
check_schema "$WORK/fail.json" deadline_test
expect_match "$OUT" '^ percent per task:20 nr_cpus:'
expect_match "$OUT" '^missed deadlines  = [1-9][0-9]*$'
expect_match "$OUT" '^# Verdict: FAIL$'
expect_match "$OUT" '^# Verdict: thread 0: max-misses: [0-9]+ deadline\(s\) and [0-9]+ period\(s\) missed in [1-9][0-9]* periods \(runtime 4000 us, deadline 20000 us\)$'
# --max-misses above what was missed turns it into a PASS
n=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["missed_deadlines"] + d["missed_periods"])' "$WORK/fail.json")
run_tool_timeout 20 deadline_test --no-preflight -i 20000 -p 10 -t 1 -P 1000 -D 1 --max-misses=100000
expect_exit 0
expect_match "$OUT" '^# Verdict: PASS$'
[ "$n" -ge 1 ] || fail "FAIL run counted $n misses"
# Without --verdict: 2.4's bytes and 2.4's exit status 0; the JSON still judges.
run_tool_timeout 20 deadline_test --no-preflight -i 20000 -p 10 -t 1 -P 1000 -D 1 \
	--json="$WORK/quiet.json"
expect_exit 0
check_json "$WORK/quiet.json" 0 || fail "JSON and text disagree (no --verdict)"
check_schema "$WORK/quiet.json" deadline_test
[ "$(tail -n 2 "$OUT" | head -n 1 | cut -c1-14)" = "highest prime:" ] ||
	fail "the last lines are not 2.4's: $(tail -n 2 "$OUT")"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["verdict"]["result"] == "fail"' \
	"$WORK/quiet.json" || fail "the JSON verdict of a run that missed is not fail"
finish
