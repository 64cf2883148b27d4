#!/bin/sh
# Proves: our cyclictest runs on this kernel at SCHED_FIFO 80 with locked
# memory, two threads for 3 s, exits 0, and its --json is valid (the 2.4
# layout, agreeing with the -q summary, our schema: checked on the host) and
# describes this machine: sysinfo.realtime and the preemption model match
# the kernel's config (PREEMPT_RT read from /sys/kernel/realtime; on a
# PREEMPT_DYNAMIC kernel the mode from debugfs, which the guest mounts).
# The numbers are checked with bounds TCG cannot break (it adds 8-20 ms
# spikes, and misses periods on a busy host): measured plus missed
# periods (overruns) 80-100% of what 3 s hold, at least a tenth of them
# measured, min <= avg <= max < 1 s.
. "$top_srcdir/tests/vm/lib.sh"

json=$OUT.json
rc=0
"$TOOLS/cyclictest/cyclictest" -D 3 -i 1000 -t 2 -p 80 -m -q --json="$json" \
	>"$OUT.out" 2>"$WORK/err" || rc=$?
cat "$OUT.out" "$WORK/err"
[ "$rc" -eq 0 ] || fail "cyclictest exit status $rc: $(head -n 1 "$WORK/err")"
[ -s "$json" ] || fail "no JSON written"
# The JSON's 2.4 layout and its agreement with the -q summary in $OUT.out
# are checked on the host (cyclictest-json.host), at native speed.

if [ "$(kconfig PREEMPT_RT)" = y ]; then
	model=PREEMPT_RT rt=1 mode=
elif [ "$(kconfig PREEMPT_DYNAMIC)" = y ]; then
	model=PREEMPT_DYNAMIC rt=0
	# The boot mode is the one the config chose as default.
	if [ "$(kconfig PREEMPT)" = y ]; then mode=full
	elif [ "$(kconfig PREEMPT_VOLUNTARY)" = y ]; then mode=voluntary
	else mode=none
	fi
else
	model=any rt=0 mode=
fi

rc=0
"$PY" - "$json" "$model" "$rt" "$mode" >"$WORK/py" 2>&1 <<'PY' || rc=$?
import json, sys
path, model, rt, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(path))
p = d["environment"]["preemption"]
print("preemption:", p, "sysinfo.realtime:", d["sysinfo"]["realtime"])
def bad(why):
    print(why)
    sys.exit(1)
if model != "any" and p["model"] != model:
    bad("preemption model %r, the kernel is %s" % (p["model"], model))
if model == "PREEMPT_RT" and p["model_source"] != "/sys/kernel/realtime":
    bad("PREEMPT_RT not read from /sys/kernel/realtime: %r" % p["model_source"])
if mode and p["mode"] != mode:
    bad("preemption mode %r, the kernel boots %r (%s)" % (p["mode"], mode, p.get("mode_unknown_reason")))
if d["sysinfo"]["realtime"] != rt:
    bad("sysinfo.realtime %r, want %d" % (d["sysinfo"]["realtime"], rt))
if d["return_code"] != 0:
    bad("return_code %r" % d["return_code"])
for n, t in sorted(d["thread"].items()):
    interval = 1000 + 500 * int(n)   # -i 1000, the default distance 500
    most = 3000000 // interval + 1
    periods = t["cycles"] + t["overruns"]
    print("thread %s: cycles %d overruns %d (periods at most %d) min %d avg %s max %d" %
          (n, t["cycles"], t["overruns"], most, t["min"], t["avg"], t["max"]))
    # TCG on a busy host misses up to half the periods: those count as
    # overruns, and measured plus missed periods follow the wall clock.
    if not (most * 8 // 10 <= periods <= most and t["cycles"] >= most // 10):
        bad("thread %s: %d cycles + %d overruns, 3 s at %d us allow %d..%d periods, %d measured" %
            (n, t["cycles"], t["overruns"], interval, most * 8 // 10, most, most // 10))
    if not 0 <= t["min"] <= t["avg"] <= t["max"] < 1000000:
        bad("thread %s: min %s avg %s max %s out of order or above 1 s" % (n, t["min"], t["avg"], t["max"]))
PY
cat "$WORK/py"
[ "$rc" -eq 0 ] || fail "$(tail -n 1 "$WORK/py")"
pass "exit 0, valid JSON, model $model${mode:+ ($mode)}, realtime=$rt, periods and min/avg/max in bounds"
