#!/bin/sh
# Proves rt-latency-report junit's layout on synthetic results (no
# measurement): one suite per file in their order, one case per thread or
# pair and per limit (the command line's, abbreviated or not, and the
# verdict's), the broken limit as a failure with its figures, nothing
# measured (no samples, a dead worker, an exit status of 1) as an error, a
# --max-percentile claim the run did not prove (inconclusive) as a failure
# of type "rt-tests-ng.inconclusive" saying what it needs,
# rt-migrate-test without -c skipped, the environment as properties; the
# file byte for byte, the same bytes on a second run and through -o -,
# valid against Jenkins' junit-10.xsd (xmllint), and read back by
# junitparser with the counts of the summary line.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_cmd xmllint
need_python_module junitparser python3-junitparser
RLR=$(tool rt-latency-report)
XSD="$top_srcdir/tests/data/junit-10.xsd"
EXP="$top_srcdir/tests/expected/rt-latency-report"

mkdir "$WORK/in"
python3 "$HELPERS/junit_inputs.py" "$WORK/in" || exit 99
cd "$WORK/in" || exit 99
set -- ct.json pair.json mig.json hb.json dead.json nolimit.json

RC=0
"$RLR" junit "$@" -o r.xml >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_empty_stderr
expect_text "$OUT" "r.xml: 6 suites, 13 tests, 1 failures, 4 errors, 2 skipped"
compare_exact r.xml "$EXP/junit-layout.xml"
xmllint --noout --schema "$XSD" r.xml 2>"$WORK/xmllint.err" ||
	fail "not valid against junit-10.xsd: $(cat "$WORK/xmllint.err")"
counts=$(python3 "$HELPERS/junit_check.py" r.xml "$OUT") || fail "junitparser disagrees (above)"
[ "$counts" = "suites=6 tests=13 failures=1 errors=4 skipped=2" ] ||
	fail "junitparser counted $counts"

# Byte-stable: nothing of the moment of the report goes into it.
"$RLR" junit "$@" -o again.xml >/dev/null 2>&1 || fail "second run failed"
cmp -s r.xml again.xml || fail "a second report of the same files differs"
# -o -: the XML on stdout, no summary line.
RC=0
"$RLR" junit "$@" -o - >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
cmp -s r.xml "$OUT" || fail "-o - wrote other bytes than -o FILE"

# The suites follow the files' order; one file, one suite.
"$RLR" junit nolimit.json ct.json --output=two.xml >"$OUT" 2>&1 || fail "two files: exit $?"
expect_text "$OUT" "two.xml: 2 suites, 6 tests, 1 failures, 1 errors, 0 skipped"
[ "$(grep -o 'property name="file" value="[^"]*"' two.xml | tr '\n' ' ')" = \
	'property name="file" value="nolimit.json" property name="file" value="ct.json" ' ] ||
	fail "suites not in the files' order: $(grep 'name="file"' two.xml)"

# A passing run and a failing one name the same cases.
python3 - ct.json <<'PY' || exit 99
import json, sys
d = json.load(open(sys.argv[1]))
d["verdict"] = {"result": "pass", "broken": []}
d["return_code"] = 0
json.dump(d, open("pass.json", "w"))
PY
"$RLR" junit pass.json -o pass.xml >"$OUT" 2>&1 || fail "pass.json: exit $?"
expect_text "$OUT" "pass.xml: 1 suites, 4 tests, 0 failures, 0 errors, 0 skipped"
[ "$(grep -o '<testcase name="[^"]*"' pass.xml)" = "$(grep -o '<testcase name="[^"]*"' r.xml | head -n 4)" ] ||
	fail "a passing run names other cases than a failing one"

# The scheduler tools, read from the shared verdict object alone: pi_stress
# groups (stuck: failure; no inversions: inconclusive), ssdd pairs (a
# mismatch: failure; died: error), deadline_test threads (over --max-misses:
# failure; no periods: error), rt-migrate-test -c tasks (the one overtaken
# fails), queuelat's run-wide limit and pip_stress's process.
set -- pi.json ssdd.json dl.json migc.json ql.json pip.json
RC=0
"$RLR" junit "$@" -o s.xml >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_empty_stderr
expect_text "$OUT" "s.xml: 6 suites, 12 tests, 7 failures, 2 errors, 0 skipped"
compare_exact s.xml "$EXP/junit-sched.xml"
xmllint --noout --schema "$XSD" s.xml 2>"$WORK/xmllint.err" ||
	fail "s.xml not valid against junit-10.xsd: $(cat "$WORK/xmllint.err")"
counts=$(python3 "$HELPERS/junit_check.py" s.xml "$OUT") || fail "junitparser disagrees (above)"
[ "$counts" = "suites=6 tests=12 failures=7 errors=2 skipped=0" ] ||
	fail "junitparser counted $counts (s.xml)"

# A merge has a verdict but no broken limits per thread: its limits are
# skipped (not judged), its verdict a case of its own.
python3 - ct.json <<'PY' || exit 99
import json, sys
d = json.load(open(sys.argv[1]))
d["sysinfo"]["nodename"] = "board2"
json.dump(d, open("ct2.json", "w"))
PY
"$RLR" merge ct.json ct2.json -o m.json >/dev/null 2>&1 || fail "merge failed"
"$RLR" junit m.json -o m.xml >"$OUT" 2>&1 || fail "junit of a merge: exit $?"
expect_text "$OUT" "m.xml: 1 suites, 5 tests, 1 failures, 0 errors, 4 skipped"
grep -q '<testcase name="verdict" classname="cyclictest.board1_lab" time="10">' m.xml ||
	fail "no verdict case in the merge's report"
counts=$(python3 "$HELPERS/junit_check.py" m.xml "$OUT") || fail "junitparser disagrees (m.xml)"

# Claims not proven: failures of their own type ("need N more samples",
# else the verdict's reason, with the figures), beside a broken limit's;
# a verdict of inconclusive alone is such a failure too. junitparser reads
# the same results, types and messages.
RC=0
"$RLR" junit inc.json incv.json -o i.xml >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_empty_stderr
expect_text "$OUT" "i.xml: 2 suites, 6 tests, 4 failures, 0 errors, 1 skipped"
compare_exact i.xml "$EXP/junit-inconclusive.xml"
xmllint --noout --schema "$XSD" i.xml 2>"$WORK/xmllint.err" ||
	fail "i.xml not valid against junit-10.xsd: $(cat "$WORK/xmllint.err")"
counts=$(python3 "$HELPERS/junit_check.py" i.xml "$OUT") || fail "junitparser disagrees (i.xml)"
[ "$counts" = "suites=2 tests=6 failures=4 errors=0 skipped=1" ] ||
	fail "junitparser counted $counts (i.xml)"
python3 - i.xml >"$WORK/types" 2>&1 <<'PY' || fail "junitparser: $(cat "$WORK/types")"
import sys
from junitparser import JUnitXml
for suite in JUnitXml.fromfile(sys.argv[1]):
    for case in suite:
        for r in case.result:
            print("%s|%s|%s|%s" % (case.name, type(r).__name__, r.type, r.message))
PY
expect_text "$WORK/types" "thread 0: max-percentile=99.99|Failure|rt-tests-ng.inconclusive|max-percentile=99.99: INCONCLUSIVE: need 35887 more samples (60 us, 95 % CI 45-?, limit 50 us)
thread 1: max-percentile=99.99|Failure|rt-tests-ng.inconclusive|max-percentile=99.99: INCONCLUSIVE: more samples would not decide (70 us, 95 % CI 45-?, limit 50 us)
thread 1: max-percentile=50|Failure|rt-tests-ng.limit|max-percentile=50: 6 > 4 us
thread 0: max-percentile=99.99|Skipped|rt-tests-ng.not-run|not judged: the result has no verdict per thread (a --records file, a merge, a run that did not end)
verdict|Failure|rt-tests-ng.inconclusive|INCONCLUSIVE: thread 0: p99.99 60 us, 95 % CI 45-?"

exit $((FAILS > 0))
