#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validate a cyclictest --json file against the rt-tests 2.4 schema.

usage: json_check.py FILE THREADS [SUMMARY_FILE]

Proves: the file parses as JSON (NaN/Infinity rejected), the header keys in
2.4 order with their trailing colons (and ours after them: "scheduling",
"environment", "percentiles", "percentiles_ci", maybe "verdict"), per-thread keys in order (ours after 2.4's),
histogram counts not above cycles, the lossless histogram and percentiles
consistent (see loghist.py), and, given the -q summary, that
cycles/min/max/avg agree with the text.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loghist  # noqa: E402


def reject_constant(name):
    raise ValueError("non-JSON constant " + name)


def main():
    path, threads = sys.argv[1], int(sys.argv[2])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text, parse_constant=reject_constant,
                     object_pairs_hook=lambda pairs: pairs)
    plain = json.loads(text)
    errors = []
    top = [k for k, _ in doc]
    want = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
            "return_code", "sysinfo", "num_threads", "resolution_in_ns", "thread", "scheduling",
            "environment", "percentiles", "percentiles_ci"]
    if top[-1:] == ["isolation"]:  # last, when read (isolation_check.py checks it)
        top = top[:-1]
    if top not in (want, want + ["verdict"], want + ["analysis"], want + ["analysis", "verdict"]):
        errors.append("top-level keys %s" % top)
    d = {k: v for k, v in doc}
    si = [k for k, _ in d["sysinfo"]]
    if si != ["sysname", "nodename", "release", "version", "machine", "realtime"]:
        errors.append("sysinfo keys %s" % si)
    if d["rt_test_version:"] != "2.40" or d["file_version"] != 1:
        errors.append("version fields")
    date = r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d [+-]\d{4}$"
    for k in ("start_time", "end_time"):
        if not re.match(date, d[k]):
            errors.append("%s not RFC 2822: %r" % (k, d[k]))
    if d["num_threads"] != threads:
        errors.append("num_threads %s" % d["num_threads"])
    thr = d["thread"]
    if [k for k, _ in thr] != [str(i) for i in range(threads)]:
        errors.append("thread keys %s" % [k for k, _ in thr])
    per = {}
    for k, v in thr:
        keys = [x for x, _ in v]
        if keys != ["histogram", "cycles", "min", "max", "avg", "cpu", "node", "overruns",
                    "percentiles", "percentiles_ci", "latency_histogram"]:
            errors.append("thread %s keys %s" % (k, keys))
        t = dict(v)
        loghist.check_series(plain["thread"][k], "thread " + k, errors)
        if not isinstance(t.get("overruns"), int) or t["overruns"] < 0:
            errors.append("thread %s: overruns %r" % (k, t.get("overruns")))
        hsum = sum(c for _, c in t["histogram"])
        if hsum > t["cycles"]:
            errors.append("thread %s histogram %d > cycles %d" % (k, hsum, t["cycles"]))
        if t["cycles"] == 0:
            if t["min"] is not None or t["max"] is not None or t["avg"] is not None:
                errors.append("thread %s: numbers without samples" % k)
        elif not (t["min"] <= t["avg"] <= t["max"]):
            errors.append("thread %s: not min <= avg <= max" % k)
        per[int(k)] = t
    loghist.check_total(plain, list(plain["thread"].values()), errors)
    if len(sys.argv) > 3:
        with open(sys.argv[3], encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^T: *(\d+) \( *\d+\) P: *\d+ I:\d+ C: *(\d+) Min: *(\S+) Act: *\S+ Avg: *(\S+) Max: *(\S+)", line)
                if not m:
                    continue
                i, c, mn, avg, mx = m.groups()
                t = per[int(i)]
                if int(c) != t["cycles"]:
                    errors.append("thread %s cycles %s vs %s" % (i, c, t["cycles"]))
                # The summary truncates the mean, the JSON rounds it to 2
                # decimals: 47.996 is "47" and 48.00.
                if mn != "-" and (int(mn) != t["min"] or int(mx) != t["max"]
                                  or not t["avg"] - 1.0051 < int(avg) <= t["avg"] + 0.0051):
                    errors.append("thread %s: summary %s/%s/%s vs json %s/%s/%s" % (
                        i, mn, avg, mx, t["min"], t["avg"], t["max"]))
    for e in errors:
        print("json: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
