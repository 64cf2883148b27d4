#!/bin/sh
# Proves a killed run is never a complete pass (issue 29): cyclictest -D 30
# --records with 2 s windows, kill -9 once two windows are written. junit
# on its records: a failing "run: complete" case of type
# rt-tests-ng.partial, no suite without a failure, the time that of the
# windows the file holds (not the 30 s asked, not 0), and properties saying
# partial, "killed" and the 30 s asked; compare says PARTIAL. The measured
# time is read from the file itself, so a slow machine cannot break it.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
RLR=$(tool rt-latency-report)
cd "$WORK" || exit 99

# cyclictest itself in the background (its own -D 30 ends it if the kill is missed).
"$(tool cyclictest)" -q -t 1 -p 80 -i 1000 -D 30 --records=k.ndjson \
	--records-interval=2s >/dev/null 2>"$ERR" </dev/null &
pid=$!
trap 'kill -9 "$pid" 2>/dev/null; rm -rf "$WORK"' EXIT
# Two whole window lines (up to 20 s on a loaded machine), then kill -9.
for _i in $(seq 1 200); do
	[ "$(grep -c '"type":"window"' k.ndjson 2>/dev/null)" -ge 2 ] && break
	sleep 0.1
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ "$(grep -c '"type":"window"' k.ndjson 2>/dev/null)" -ge 2 ] ||
	{ fail "cyclictest wrote no two windows in 20 s: $(head -c 300 "$ERR")"; exit 1; }
grep -q '"type":"total"' k.ndjson && { fail "a killed run wrote its total line"; exit 1; }

RC=0
"$RLR" junit k.ndjson -o k.xml >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_empty_stderr
expect_match "$OUT" "k.xml: 1 suites, [0-9]+ tests, [1-9][0-9]* failures"
python3 - k.xml k.ndjson <<'PY' || fail "the killed run's JUnit (above)"
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ends = [json.loads(l)["end_s"] for l in open(sys.argv[2])
        if l.endswith("\n") and json.loads(l)["type"] == "window"]
measured = max(ends)
bad = []
for suite in root.iter("testsuite"):
    if suite.get("failures") == "0" and suite.get("errors") == "0":
        bad.append("a suite without a failure: a complete pass")
    t = float(suite.get("time"))
    if not (0 < t < 30) or abs(t - measured) > 1:
        bad.append("suite time %s, the windows measured %s s" % (t, measured))
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    for k, v in [("partial", "true"), ("stop.cause", "killed"), ("stop.asked", "30"),
                 ("stop.unit", "s")]:
        if props.get(k) != v:
            bad.append("property %s: %r, not %r" % (k, props.get(k), v))
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    run = cases.get("run: complete")
    f = None if run is None else run.find("failure")
    if f is None or f.get("type") != "rt-tests-ng.partial" or "killed" not in f.get("message"):
        bad.append("no failing 'run: complete' case of type rt-tests-ng.partial")
    for name, c in cases.items():
        if float(c.get("time")) != t:
            bad.append("case %s: time %s, not the suite's %s" % (name, c.get("time"), t))
    out = suite.find("system-out").text or ""
    if "partial: killed" not in out or "30 s asked" not in out:
        bad.append("system-out %r says not partial, killed, 30 s asked" % out)
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# compare on it says PARTIAL, base and run alike.
RC=0
"$RLR" compare k.ndjson k.ndjson >"$OUT" 2>"$ERR" || RC=$?
[ "$(grep -c '^# k.ndjson: PARTIAL: ' "$OUT")" -eq 2 ] ||
	fail "compare does not say PARTIAL for the killed run: $(head -5 "$OUT")"
[ "$RC" -eq 4 ] && grep -q '^# Verdict: INCONCLUSIVE' "$OUT" ||
	fail "compare of the killed run: exit $RC, $(tail -1 "$OUT"), not INCONCLUSIVE and 4"

exit $((FAILS > 0))
