#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a result that rt-latency-report made of a --records file.

usage: records_result.py MERGED.json RECORDS.ndjson partial|complete [JSON]

Proves: MERGED (the output of `merge -o MERGED.json RECORDS`) has, per thread
(pair tools: the receiver), a latency_histogram whose count is the sum of
the window lines' counts and whose buckets are the windows' added bucket by
bucket, min/max the extremes of the windows'; "partial" as given; "records"
covering from the first window's start to the last one's end; the run
line's cmdline, sysinfo and environment. With JSON (the run's --json):
every thread's latency_histogram, min and max equal to the JSON's.
Only whole lines of RECORDS count (a torn last line is ignored).
"""
import json
import sys


def measured(t):
    return t.get("receiver", t)


def main():
    merged = json.load(open(sys.argv[1], encoding="utf-8"))
    raw = open(sys.argv[2], encoding="utf-8").read()
    lines = [json.loads(text) for text in raw[:raw.rfind("\n") + 1].splitlines()]
    mode = sys.argv[3]
    errors = []
    run = [ln for ln in lines if ln["type"] == "run"][-1]
    windows = [ln for ln in lines if ln["type"] == "window"]
    if merged.get("partial") is not (mode == "partial"):
        errors.append("partial is %s, want %s" % (merged.get("partial"), mode == "partial"))
    if merged["cmdline:"] != run["cmdline"] or merged.get("environment") != run["environment"] \
       or merged.get("sysinfo") != run["sysinfo"]:
        errors.append("cmdline, environment or sysinfo are not the run line's")
    cover = merged.get("records", {})
    if windows and (cover.get("start") != windows[0]["start"] or
                    cover.get("end") != windows[-1]["end"] or
                    cover.get("windows") != len(windows)):
        errors.append("records coverage %s, windows %s .. %s" %
                      (cover, windows[0]["start"], windows[-1]["end"]))
    for t in range(run["num_threads"]):
        mine = [w for w in windows if w["thread"] == t]
        h = measured(merged["thread"][str(t)])["latency_histogram"]
        buckets = {}
        for w in mine:
            for k, c in w["latency_histogram"]["buckets"].items():
                buckets[k] = buckets.get(k, 0) + c
        count = sum(w["count"] for w in mine)
        if h["count"] != count or h["buckets"] != buckets:
            errors.append("thread %d: histogram count %d, windows %d (buckets equal: %s)" %
                          (t, h["count"], count, h["buckets"] == buckets))
        full = [w for w in mine if w["count"]]
        m = measured(merged["thread"][str(t)])
        if full and (m["min"], m["max"]) != (min(w["min"] for w in full),
                                             max(w["max"] for w in full)):
            errors.append("thread %d: min/max %s/%s, not the windows'" % (t, m["min"], m["max"]))
    if len(sys.argv) > 4:
        doc = json.load(open(sys.argv[4], encoding="utf-8"))
        for t in range(run["num_threads"]):
            a = measured(doc["thread"][str(t)])
            b = measured(merged["thread"][str(t)])
            for key in ("min", "max", "latency_histogram"):
                if a[key] != b[key]:
                    errors.append("thread %d: %s differs from the --json: %.100s vs %.100s" %
                                  (t, key, a[key], b[key]))
    for e in errors:
        print("records result: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
