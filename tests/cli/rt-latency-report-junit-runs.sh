#!/bin/sh
# Proves rt-latency-report junit on real runs: cyclictest with a generous
# --max-latency (every case passes) and with --max-latency=0 (every thread
# fails, the failure carrying the limit and the figures), ptsematest with
# --max-latency=0 (every pair fails), ssdd (a case per pair), rt-migrate-test
# without -c (a case per task: its verdict checks the order on every
# iteration since issue 29) and hackbench (its verdict's case): one report,
# and cyclictest with a p99.99 claim 200 samples cannot prove (exit 4,
# inconclusive: a failure of type "rt-tests-ng.inconclusive" with the run's figures),
# valid against junit-10.xsd, read back by junitparser with our summary's
# counts. Noise only adds latency: a latency of 0 us (the one thing that
# could make --max-latency=0 pass) and one beyond 1 s are retried.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
need_cmd xmllint
need_python_module junitparser python3-junitparser
RLR=$(tool rt-latency-report)
XSD="$top_srcdir/tests/data/junit-10.xsd"
cd "$WORK" || exit 99

# run_until CODE TOOL ARGS...: up to 3 short runs until TOOL exits CODE.
run_until() {
	_want=$1
	_t=$2
	shift 2
	for _try in 1 2 3; do
		RC=0
		"$(tool "$_t")" "$@" >"$WORK/run.out" 2>"$WORK/run.err" </dev/null || RC=$?
		[ "$RC" -eq "$_want" ] && return 0
	done
	fail "$_t exited $RC, not $_want, three times: $(head -c 300 "$WORK/run.err")"
	return 1
}

run_until 0 cyclictest -q -t 2 -p 80 -i 500 -l 200 --max-latency=1000000 --json=pass.json
run_until 3 cyclictest -q -t 2 -p 80 -i 500 -l 200 --max-latency=0 --json=fail.json
run_until 3 ptsematest -q -t 2 -p 80 -l 100 --max-latency=0 --json=pair.json
run_until 0 ssdd -f 2 -i 100 --json=ssdd.json
run_until 0 rt-migrate-test -q -l 2 -r 5 -s 10 --json=mig.json
run_until 0 hackbench -g 1 -l 10 --json=hb.json
[ "$FAILS" -eq 0 ] || exit 1
ntasks=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["num_threads"])' mig.json)

RC=0
"$RLR" junit pass.json fail.json pair.json ssdd.json mig.json hb.json -o report.xml \
	>"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_empty_stderr
tests=$((2 + 2 + 2 + 2 + ntasks + 1))
expect_text "$OUT" "report.xml: 6 suites, $tests tests, 4 failures, 0 errors, 0 skipped"
xmllint --noout --schema "$XSD" report.xml 2>"$WORK/xmllint.err" ||
	fail "not valid against junit-10.xsd: $(cat "$WORK/xmllint.err")"
counts=$(python3 "$HELPERS/junit_check.py" report.xml "$OUT") || fail "junitparser disagrees (above)"
[ "$counts" = "suites=6 tests=$tests failures=4 errors=0 skipped=0" ] ||
	fail "junitparser counted $counts"

# The failures: the limit and the run's own figures.
python3 - <<'PY' || fail "the failures do not carry the limit and the figures"
import json, re, sys
import xml.etree.ElementTree as ET
root = ET.parse("report.xml").getroot()
suites = root.findall("testsuite")
bad = []
for suite, path in zip(suites, ["pass.json", "fail.json", "pair.json"]):
    doc = json.load(open(path))
    for i in range(doc["num_threads"]):
        t = doc["thread"][str(i)]
        m = t.get("receiver", t)
        label = ("pair %d" if "receiver" in t else "thread %d") % i
        case = [c for c in suite.findall("testcase") if c.get("name") == label + ": max-latency"]
        if len(case) != 1:
            bad.append("%s: no case '%s: max-latency'" % (path, label))
            continue
        f = case[0].find("failure")
        if path == "pass.json":
            if len(case[0]):
                bad.append("%s %s: not a pass" % (path, label))
            continue
        if f is None or f.get("message") != "max-latency: %d > 0 us" % m["max"]:
            bad.append("%s %s: message %r" % (path, label, None if f is None else f.get("message")))
        elif not re.search(r"\bmax %d us\b" % m["max"], f.text or "") or \
                "samples " not in f.text:
            bad.append("%s %s: text %r" % (path, label, f.text))
props = {p.get("name"): p.get("value") for p in suites[1].iter("property")}
doc = json.load(open("fail.json"))
for k, v in [("cmdline", doc["cmdline:"]), ("environment.kernel_release",
             doc["environment"]["kernel_release"]), ("sysinfo.nodename",
             doc["sysinfo"]["nodename"]), ("verdict", "fail"), ("return_code", "3")]:
    if props.get(k) != v:
        bad.append("property %s: %r, the result says %r" % (k, props.get(k), v))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# p99.99 of 200 samples has no upper bound (36887 needed), and a lower
# bound over 1 s is beyond noise: inconclusive, whatever the machine.
run_until 4 cyclictest -q -t 2 -p 80 -i 500 -l 200 --max-percentile=99.99:1000000 --json=inc.json
RC=0
"$RLR" junit inc.json -o inc.xml >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_text "$OUT" "inc.xml: 1 suites, 2 tests, 2 failures, 0 errors, 0 skipped"
xmllint --noout --schema "$XSD" inc.xml 2>"$WORK/xmllint.err" ||
	fail "inc.xml not valid against junit-10.xsd: $(cat "$WORK/xmllint.err")"
python3 "$HELPERS/junit_check.py" inc.xml "$OUT" >/dev/null || fail "junitparser disagrees (inc.xml)"
python3 - inc.xml inc.json <<'PY' || fail "the inconclusive claims are not failures saying what they need"
import json, sys
from junitparser import Failure, JUnitXml
doc = json.load(open(sys.argv[2]))
want = {}
for b in doc["verdict"]["broken"]:
    if b.get("result") != "inconclusive":
        sys.exit("verdict entry %s is not inconclusive" % b)
    high = "?" if b["high"] is None else b["high"]
    want["thread %d: max-percentile=99.99" % b["thread"]] = (
        "max-percentile=99.99: INCONCLUSIVE: need %d more samples (%d us, 95 %% CI %d-%s, "
        "limit 1000000 us)" % (b["more_samples"], b["value"], b["low"], high))
got = {}
for suite in JUnitXml.fromfile(sys.argv[1]):
    for case in suite:
        for r in case.result:
            if isinstance(r, Failure) and r.type == "rt-tests-ng.inconclusive":
                got[case.name] = r.message
if got != want or len(want) != 2:
    sys.exit("failures %s, want %s" % (got, want))
PY

exit $((FAILS > 0))
