#!/bin/sh
# Proves every command of rt-latency-report reads "partial" the one way the
# tools write it, in the verdict ("verdict": {"partial": true, "stop": ...}):
# of a full run and one stopped by SIGINT after 2.1 of 10 s, compare says
# INCONCLUSIVE with exit 4, plot marks the stopped one PARTIAL, and merge
# keeps each input's partial and stop and is partial itself, so the merge's
# JUnit has a failing partial case and its page no PASS. Before, compare,
# plot and merge read only a top-level "partial" that the tools never write:
# the stopped run was a plain pass everywhere but the page.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)
python3 "$HELPERS/synth_result.py" "$WORK/full.json" verdict=pass start=1700000000
python3 "$HELPERS/synth_result.py" "$WORK/stopped.json" verdict=pass start=1700000100 \
	stop=SIGINT:2.1:10

RC=0
"$RLR" compare "$WORK/full.json" "$WORK/stopped.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 4
expect_match "$OUT" "^# Verdict: INCONCLUSIVE \(no value worse, but .*/stopped\.json stopped early\)$"

RC=0
"$RLR" plot "$WORK/full.json" "$WORK/stopped.json" -o "$WORK/p.svg" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
grep -q 'stopped\.json (PARTIAL)' "$WORK/p.svg" || fail "the plot does not mark the stopped run PARTIAL"
! grep -q 'full\.json (PARTIAL)' "$WORK/p.svg" || fail "the plot marks the full run PARTIAL"

RC=0
"$RLR" merge "$WORK/full.json" "$WORK/stopped.json" -o "$WORK/m.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
python3 - "$WORK/m.json" >"$WORK/m.diag" 2>&1 <<'PY' || fail "merge: $(tail -n 1 "$WORK/m.diag")"
import json, sys
d = json.load(open(sys.argv[1]))
full, stopped = d["inputs"]
assert d.get("partial") is True, "the merge of a stopped run is not partial"
assert "partial" not in full and "stop" not in full, "the full input is marked: %r" % full
assert stopped.get("partial") is True, "the stopped input is not partial: %r" % stopped
assert stopped.get("stop") == {"cause": "SIGINT", "done": 2.1, "asked": 10.0, "unit": "s"}, \
    "the stopped input's stop: %r" % stopped.get("stop")
PY

RC=0
"$RLR" junit "$WORK/m.json" -o "$WORK/m.xml" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
grep -q '<failure message="partial: [^"]*" type="rt-tests-ng.partial"/>' "$WORK/m.xml" ||
	fail "the merge's JUnit has no failing partial case"

RC=0
"$RLR" html "$WORK/m.json" -o "$WORK/m.html" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
grep -q 'Verdict: PARTIAL' "$WORK/m.html" || fail "the merge's page does not say PARTIAL"
! grep -q 'Verdict: PASS' "$WORK/m.html" || fail "the merge's page says PASS"
finish
