#!/bin/sh
# Proves overruns and the warm-up on real runs. A SCHED_FIFO 99 helper on the
# measured CPU spins 2000 us five times during a -p 80 -i 200 run: each spin
# makes the thread miss at least 2000/200 - 2 = 8 periods, so every timer
# mode (absolute, -r, -x) counts 40 or more overruns, the JSON, the
# "# Overruns:" column and --max-overruns agree. --warmup=1 drops the first
# second: -l counts only what is kept (cycles = -l, -v numbers them from 0)
# and the run lasts the warm-up plus -l intervals; -D counts after it.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_rt
need_native
SPIN="$top_builddir/tests/helpers/spin"
[ -x "$SPIN" ] || skip "helper $SPIN not built"
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | cut -d, -f1 | cut -d- -f1)

for mode in "" -r -x; do
	"$(tool cyclictest)" -q -m -a "$cpu" -p 80 -i 200 -D 2 $mode --percentiles \
		--max-overruns=10 --json="$WORK/o.json" >"$OUT" 2>"$ERR" </dev/null &
	ct=$!
	# the spins must fall inside the measurement: wait for the FIFO 80 thread
	for _w in $(seq 1 100); do
		ps -L -o rtprio= -p "$ct" 2>/dev/null | grep -qw 80 && break
		sleep 0.1
	done
	sleep 0.2
	"$SPIN" "$cpu" 2000 200 5 || fail "spin helper failed"
	RC=0
	wait "$ct" || RC=$?
	expect_exit 3
	python3 - "$WORK/o.json" "$OUT" >"$WORK/o.diag" 2>&1 <<'PY' || fail "overruns (${mode:-absolute}): $(cat "$WORK/o.diag")"
import json, re, sys
d = json.load(open(sys.argv[1]))
n = d["thread"]["0"]["overruns"]
text = open(sys.argv[2]).read()
col = re.search(r"^# Overruns: (\d{5,})$", text, re.M)
line = re.search(r"^# Verdict: thread 0: max-overruns: (\d+) > 10$", text, re.M)
errs = []
if n < 40:
    errs.append("%d overruns, expected at least 40" % n)
if not col or int(col.group(1)) != n:
    errs.append("'# Overruns:' line %s vs json %d" % (col and col.group(0), n))
if not line or int(line.group(1)) != n:
    errs.append("verdict line %s vs json %d" % (line and line.group(0), n))
want = {"limit": "max-overruns", "thread": 0, "value": n, "bound": 10}
if {k: d["verdict"]["broken"][-1].get(k) for k in want} != want:
    errs.append("json verdict %s" % d["verdict"])
print("; ".join(errs) if errs else "%d overruns" % n)
sys.exit(1 if errs else 0)
PY
	echo "mode ${mode:-absolute}: $(cat "$WORK/o.diag")"
done

# Without interference and a generous interval: no overruns. Other work on
# the machine only adds overruns (a thread kept off its CPU for a period),
# so a run with more is retried: a cyclictest that invents them fails all.
idle_run() {
	run_tool_timeout 30 cyclictest -q -m -p 80 -i 10000 -l 20 --json="$WORK/idle.json"
	expect_exit 0
	_n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["thread"]["0"]["overruns"])' \
		"$WORK/idle.json" 2>/dev/null) || { fail "idle run: no overruns in its JSON"; return 0; }
	echo "20 periods of 10 ms: $_n overruns"
	[ "$_n" -le 2 ] || return 2
}
retry_bound 4 idle_run

# --warmup with -l: cycles = -l, all after the first second.
start=$(date +%s%N)
run_tool_timeout 30 cyclictest -v -m -p 80 -i 1000 -l 200 --warmup=1 --json="$WORK/w.json"
end=$(date +%s%N)
expect_exit 0
ms=$(( (end - start) / 1000000 ))
[ "$ms" -ge 1200 ] || fail "--warmup=1 -l 200 -i 1000 took $ms ms, not >= 1200"
[ "$(grep -c '^ *0: *[0-9]*: *-\{0,1\}[0-9]*$' "$OUT")" -eq 200 ] || fail "-v lines: $(grep -c '^ *0:' "$OUT")"
expect_match "$OUT" '^ +0: +0: +-?[0-9]+$'
expect_match "$OUT" '^ +0: +199: +-?[0-9]+$'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["thread"]["0"]; sys.exit(not (t["cycles"] == 200 == t["latency_histogram"]["count"]))' \
	"$WORK/w.json" || fail "warm-up: cycles or histogram count is not 200"

# --warmup with -D: the measured second comes after the warm-up second.
# Load only lengthens the run and costs cycles (late wakeups): fewer than
# 500 is retried, more than 1000 is a failure at once.
warm_duration() {
	start=$(date +%s%N)
	run_tool_timeout 30 cyclictest -q -m -p 80 -i 1000 -D 1 --warmup=1
	end=$(date +%s%N)
	expect_exit 0
	ms=$(( (end - start) / 1000000 ))
	[ "$ms" -ge 1950 ] || fail "--warmup=1 -D 1 took $ms ms, not >= 1950"
	c=$(sed -n 's/^T: 0 .* C: *\([0-9]*\) .*/\1/p' "$OUT")
	echo "--warmup=1 -D 1 -i 1000: $ms ms, C ${c:-none}"
	if [ -z "$c" ] || [ "$c" -gt 1000 ]; then
		fail "--warmup=1 -D 1 -i 1000: C ${c:-none}, not 500..1000"
		return 0
	fi
	[ "$c" -ge 500 ] || return 2
}
retry_bound 3 warm_duration
finish
