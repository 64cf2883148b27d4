#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads an rt-latency-report junit report back with junitparser.

  junit_check.py REPORT.xml SUMMARY
    SUMMARY: the line rt-latency-report printed ("R: N suites, T tests, F
    failures, E errors, S skipped").

junitparser (python3-junitparser, the parser many CI tools use) counts the
cases of every suite by their result (failure, error, skipped, else
passed); those counts must be the suite's own attributes, the suites' sums
the <testsuites> attributes and our summary line. Every case's time is its
suite's, the <testsuites> time the sum of the suites'. Prints
"suites=N tests=T failures=F errors=E skipped=S" and exits 0, or names
the first mismatch and exits 1.
"""
import re
import sys

from junitparser import Error, Failure, JUnitXml, Skipped


def main():
    report, summary = sys.argv[1], open(sys.argv[2]).read().strip()
    xml = JUnitXml.fromfile(report)
    bad = []
    total = {"suites": 0, "tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    time_sum = 0.0
    for suite in xml:
        counted = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in suite:
            counted["tests"] += 1
            kinds = [type(r) for r in case.result]
            if len(kinds) > 1:
                bad.append("%s/%s: %d results" % (suite.name, case.name, len(kinds)))
            if Failure in kinds:
                counted["failures"] += 1
            elif Error in kinds:
                counted["errors"] += 1
            elif Skipped in kinds:
                counted["skipped"] += 1
            if case.time != suite.time:
                bad.append("%s/%s: time %s, its suite's %s" % (suite.name, case.name,
                                                              case.time, suite.time))
        for key, n in counted.items():
            if getattr(suite, key) != n:
                bad.append("suite %s: %s=%s, junitparser counts %d" % (
                    suite.name, key, getattr(suite, key), n))
            total[key] += n
        total["suites"] += 1
        time_sum += suite.time
    for key in ("tests", "failures", "errors"):
        if int(xml._elem.get(key)) != total[key]:
            bad.append("testsuites %s=%s, the suites add up to %d" % (key, xml._elem.get(key),
                                                                     total[key]))
    if float(xml._elem.get("time")) != time_sum:
        bad.append("testsuites time=%s, the suites add up to %s" % (xml._elem.get("time"),
                                                                  time_sum))
    m = re.fullmatch(r".*: (\d+) suites, (\d+) tests, (\d+) failures, (\d+) errors, "
                     r"(\d+) skipped", summary)
    if not m:
        bad.append("summary line not understood: %r" % summary)
    else:
        said = dict(zip(("suites", "tests", "failures", "errors", "skipped"),
                        (int(x) for x in m.groups())))
        if said != total:
            bad.append("summary %s, junitparser %s" % (said, total))
    if bad:
        for b in bad:
            print("junit_check: " + b, file=sys.stderr)
        return 1
    print(" ".join("%s=%d" % kv for kv in total.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
