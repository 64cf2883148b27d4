#!/bin/sh
# Proves cyclictest's verdict of a run stopped by SIGINT: in the middle of
# -D 10 it is judged on what it measured, partial, with the cause and the
# time measured of the time asked, and with nothing broken it is
# INCONCLUSIVE (exit 4, an empty "broken"), never a PASS; before its first sample
# (-i 1 s) it FAILs ("no samples", exit 3), not partial (without -D or -l
# the signal is its end); the JSON carries the same verdict and return
# code. (make check-rt: a signal at a moment.)
. "$top_srcdir/tests/cli/lib.sh"
need_python3
rt_or_other

# Stopped by SIGINT in the middle of -D 10: judged on what it measured,
# partial, the cause and the time measured of the time asked: INCONCLUSIVE.
"$(tool cyclictest)" -q $MLOCK -p $PRIO -i 1000 -D 10 --verdict \
	--json="$WORK/s.json" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 1
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_exit 4
expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
expect_no_match "$OUT" 'PASS'
expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT after [0-9.]+ of 10 s$'
check_schema "$WORK/s.json" cyclictest
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d["verdict"]; assert d["return_code"] == 4 and v["result"] == "inconclusive" and v["broken"] == [] and v["partial"] and v["stop"]["cause"] == "SIGINT" and 0 < v["stop"]["done"] < 10 and v["stop"]["asked"] == 10, v' \
	"$WORK/s.json" || fail "stopped: JSON verdict"

# Stopped before the first sample (-i 1 s, SIGINT after 0.3 s): FAIL.
"$(tool cyclictest)" -q $MLOCK -p $PRIO -i 1000000 --max-latency=1000000 \
	--json="$WORK/e.json" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 0.3
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_exit 3
expect_match "$OUT" '^T: 0 .* C: +0 '
sed -n '/^# Verdict/p' "$OUT" >"$WORK/empty"
expect_text "$WORK/empty" "# Verdict: FAIL
# Verdict: thread 0: no samples, nothing was measured"
python3 - "$WORK/e.json" <<'PY' || fail "json of an empty run"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["return_code"] == 3
v = d["verdict"]
assert v["result"] == "fail" and v["checked"] == [], v
assert [(b["limit"], b["thread"], b["value"], b["bound"]) for b in v["broken"]] == \
    [("samples", 0, 0, 1)], v
assert v["partial"] is False and v["stop"]["cause"] == "completed", v  # no -D/-l: SIGINT is its end
assert all(v is None for v in d["thread"]["0"]["percentiles"].values())
assert all(v is None for v in d["percentiles"].values())
PY
check_schema "$WORK/e.json" cyclictest

finish
