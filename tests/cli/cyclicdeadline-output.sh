#!/bin/sh
# Proves: cyclicdeadline prints rt-tests 2.4's lines in 2.4's layout (the
# lines below were recorded from Debian's 2.4 /usr/bin/cyclicdeadline on
# this kind of VM: `-q -i 10000 -t 2 -D 1 --json=F`; numbers become
# regexes): the header, the -q block, the live display (ESC [nA before each
# frame after the first, and a final newline, which 2.4 did not write), -b's
# "# Break" lines; the JSON has 2.4's keys in 2.4's order, then ours, and
# agrees with the text.
# test-holds: deadline global-tracing
. "$top_srcdir/tests/cli/lib.sh"
# -b stops the global trace (tracing_on 0), as 2.4 did: put back at exit.
restore_tracing_on_at_exit
need_root
need_python3
CD=$(tool cyclicdeadline)

# cd_run ARGS...: one run; a start the kernel refused for want of bandwidth
# (other tests' SCHED_DEADLINE threads) is tried again, up to five times.
cd_run() {
	for _try in 1 2 3 4 5; do
		RC=0
		timeout -k 2 30 "$CD" --no-preflight "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
		{ [ "$RC" -eq 1 ] && grep -q '(EBUSY)' "$ERR"; } || return 0
		sleep 1
	done
}

cat >"$WORK/recorded-2.4.txt" <<'REC'
Using all CPUS
interval: 6000:10000
  Tested at 6us of 6000us
interval: 6300:10500
  Tested at 3us of 6300us
deadline thread 11656
deadline thread 11657
thread[11656] runtime=6000us deadline=10000us
main thread 11652
thread[11657] runtime=6300us deadline=10500us
T: 0 (11656) I:10000 C:    100 Min:      6 Act:   51 Avg:  173 Max:    1304
T: 1 (11657) I:10500 C:     96 Min:      7 Act:   48 Avg:  139 Max:    1038
REC
# compare_regex's awk may lack ERE intervals: the widths are checked with grep.
T_RE='T: *[0-9]+ \( *[0-9]+\) I:[0-9]+ C: *[0-9]+ Min: *[0-9]+ Act: *[0-9]+ Avg: *[0-9]+ Max: *[0-9]+'
T_WIDTHS='T:[ 0-9]{2} \([ 0-9]{5}\) I:[0-9]+ C:[ 0-9]{7} Min:[ 0-9]{7} Act:[ 0-9]{5} Avg:[ 0-9]{5} Max:[ 0-9]{8}'
# widths FILE N: N lines of FILE are T: lines of 2.4's widths.
widths() {
	[ "$(grep -Ecx "$T_WIDTHS" "$1")" -eq "$2" ] || fail "$1: not $2 T: lines of 2.4's widths"
}
cat >"$WORK/lines.re" <<REC
Using all CPUS
interval: 6000:10000
  Tested at [0-9]+us of 6000us
interval: 6300:10500
  Tested at [0-9]+us of 6300us
deadline thread [0-9]+
deadline thread [0-9]+
main thread [0-9]+
thread\[[0-9]+\] runtime=6000us deadline=10000us
thread\[[0-9]+\] runtime=6300us deadline=10500us
$T_RE
$T_RE
REC
# Every line 2.4 printed has its pattern among ours (2.4's order varies).
grep -Exvf "$WORK/lines.re" "$WORK/recorded-2.4.txt" >"$WORK/unmatched" &&
	fail "2.4's lines without a pattern: $(cat "$WORK/unmatched")"
widths "$WORK/recorded-2.4.txt" 2

cd_run -q -i 10000 -t 2 -D 1 --json="$WORK/out.json"
expect_exit 0
compare_regex "$OUT" "$WORK/lines.re"
widths "$OUT" 2
python3 - "$WORK/out.json" "$OUT" <<'PY' || fail "JSON"
import json, re, sys
d = json.load(open(sys.argv[1]), object_pairs_hook=lambda p: p)
keys = [k for k, _ in d]
want = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
        "return_code", "sysinfo", "num_threads", "resolution_in_ns", "thread"]
assert keys[:len(want)] == want, keys
assert keys[len(want):len(want) + 2] == ["scheduling", "environment"], keys
d = dict(d)
assert d["num_threads"] == 2 and d["resolution_in_ns"] == 0 and d["return_code"] == 0
assert dict(d["scheduling"])["policy"] == "deadline", d["scheduling"]
threads = dict(d["thread"])
assert list(threads) == ["0", "1"]
text = [l for l in open(sys.argv[2]) if l.startswith("T:")]
for i, line in enumerate(text):
    t = threads[str(i)]
    tk = [k for k, _ in t]
    assert tk[:4] == ["cycles", "min", "max", "avg"], tk
    assert tk[4:7] == ["interval_us", "runtime_us", "overruns"], tk
    t = dict(t)
    m = re.search(r"C: *(\d+) Min: *(\d+) Act: *\d+ Avg: *(\d+) Max: *(\d+)", line)
    c, mn, av, mx = map(int, m.groups())
    assert (t["cycles"], t["min"], t["max"]) == (c, mn, mx), (t, line)
    assert abs(t["avg"] - av) <= 1 and mn <= t["avg"] <= mx, (t, line)
    assert c > 0 and t["interval_us"] == 10000 + 500 * i
    assert t["runtime_us"] == t["interval_us"] * 60 // 100
PY

# The live display: frames every 100 ms, each after the first preceded by
# ESC [2A; the last one ends with a newline.
cd_run -i 10000 -t 2 -D 1
expect_exit 0
[ "$(tail -c 1 "$OUT" | od -An -c | tr -d ' ')" = '\n' ] || fail "live output: no final newline"
esc=$(printf '\033')
grep -c "^${esc}\[2AT: 0 " "$OUT" >"$WORK/frames" || true
[ "$(cat "$WORK/frames")" -ge 2 ] || fail "live output: $(cat "$WORK/frames") redrawn frames"
sed "s/^${esc}\[2A//" "$OUT" | tail -n 2 >"$WORK/last"
printf '%s\n%s\n' "$T_RE" "$T_RE" >"$WORK/last.re"
compare_regex "$WORK/last" "$WORK/last.re"
widths "$WORK/last" 2
expect_no_match "$OUT" "${esc}\[[0-9]+B"

# -b: the first latency above 1 us ends the run (exit 0, as 2.4) with its lines.
cd_run -q -i 10000 -D 10 -b 1
expect_exit 0
tail -n 2 "$OUT" >"$WORK/break"
printf '%s\n%s\n' '# Break thread: [0-9]+' '# Break value: [0-9]+' >"$WORK/break.re"
compare_regex "$WORK/break" "$WORK/break.re"
tid=$(sed -n 's/^deadline thread //p' "$OUT")
expect_match "$WORK/break" "^# Break thread: $tid\$"
v=$(sed -n 's/^# Break value: //p' "$OUT")
# above 1000 ns, shown in whole us: 1001..1999 ns print as 1
[ "$v" -ge 1 ] || fail "-b 1: break value $v"
finish
