#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check pi_stress's --json against its arguments and its text output.

usage: pi_stress_check.py [JSON STDOUT GROUPS INVERSIONS_LIMIT VERDICT STOPPED_BY STUCK]...
(several runs in one call). STUCK: comma-separated stuck groups, or "-".

Proves: the keys and their order (2.4's header and "inversion", then ours,
then "scheduling" and "environment"); "inversion" is the total the text's
"Total inversion performed:" line shows and the sum of the groups'; with a
limit every group did exactly that many; inversions_per_s agrees with
inversion / elapsed_ns; return_code is 3 for fail, else 0 (2.4 judges a
stuck group itself; INCONCLUSIVE exits 0, 4 with --verdict); the verdict's
"stuck" entries and each group's "stuck" agree; a "# Verdict:" line, when
the text has one, agrees.
"""
import json
import re
import sys

KEYS = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
        "return_code", "sysinfo", "inversion", "groups", "inversions_limit", "duration_s",
        "uniprocessor", "priority_inheritance", "elapsed_ns", "inversions_per_s", "group",
        "threads", "watchdog_ms", "stopped_by", "verdict", "scheduling", "environment"]
GROUP_KEYS = ["group", "inversions", "inversions_per_s", "stuck"]


def check(path, out, groups, limit, verdict, stopped_by, stuck):
    errs = []
    with open(path) as f:
        d = json.load(f)
    if list(d) != KEYS:
        errs.append("keys %s" % list(d))
        return errs
    if d["file_version"] != 1 or d["rt_test_version:"] != "2.40":
        errs.append("header")
    text = open(out).read()
    m = re.search(r"^Total inversion performed: (\d+)$", text, re.M)
    if not m or int(m.group(1)) != d["inversion"]:
        errs.append("text total %s, json %s" % (m and m.group(1), d["inversion"]))
    if d["groups"] != groups or len(d["group"]) != groups:
        errs.append("groups %s" % d["groups"])
    per = [g["inversions"] for g in d["group"]]
    if sum(per) != d["inversion"]:
        errs.append("sum of groups %s != %s" % (sum(per), d["inversion"]))
    for i, g in enumerate(d["group"]):
        if list(g) != GROUP_KEYS or g["group"] != i:
            errs.append("group %d: %s" % (i, g))
    if limit and per != [limit] * groups:
        errs.append("with -i %d: %s" % (limit, per))
    if d["elapsed_ns"] > 0:
        want = d["inversion"] * 1e9 / d["elapsed_ns"]
        if abs(want - d["inversions_per_s"]) > 0.011:
            errs.append("inversions_per_s %s, want %s" % (d["inversions_per_s"], want))
    if d["verdict"]["result"] != verdict:
        errs.append("verdict %s" % d["verdict"])
    asked = "--verdict" in d["cmdline:"]
    if d["return_code"] != (3 if verdict == "fail" else 4 if asked and verdict != "pass" else 0):
        errs.append("return_code %s" % d["return_code"])
    want_stuck = [] if stuck == "-" else [int(x) for x in stuck.split(",")]
    got_stuck = [b["group"] for b in d["verdict"]["broken"] if b["limit"] == "stuck"]
    if got_stuck != want_stuck:
        errs.append("stuck entries %s" % got_stuck)
    if [i for i, g in enumerate(d["group"]) if g["stuck"]] != want_stuck:
        errs.append("groups' stuck flags")
    if d["stopped_by"] != (None if stopped_by == "null" else stopped_by):
        errs.append("stopped_by %s" % d["stopped_by"])
    line = re.search(r"^# Verdict: (PASS|FAIL|INCONCLUSIVE)$", text, re.M)
    if line and line.group(1).lower() != verdict:
        errs.append("text verdict")
    if bool(line) != (asked or verdict == "fail"):
        errs.append("a '# Verdict:' line %s" % ("printed unasked" if line else "missing"))
    return errs


def main(argv):
    bad = 0
    for i in range(0, len(argv), 7):
        a = argv[i:i + 7]
        errs = check(a[0], a[1], int(a[2]), int(a[3]), a[4], a[5], a[6])
        for e in errs:
            print("%s: %s" % (a[0], e))
        bad += len(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
