#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a --records file (newline-delimited JSON).

usage: records_check.py FILE TOOL THREADS MIN_WINDOWS complete|killed [JSON]

Proves: every line is whole JSON; the first is the "run" line (TOOL,
version, cmdline, environment, num_threads); then windows numbered from 0,
one line per thread each, each starting where the last ended (start_s of the
first 0) on the
grid of the interval (start_s and end_s multiples of it, but the last
window's end), each with its latency_histogram (count and max its window's);
with "complete" a last "total" line whose counts are the sums of
the windows', min the least minimum, max the greatest maximum, overruns the
sum, and equal to the --json file's cycles (pair tools: the receiver's
histogram count), min and max when given, and the windows' histograms adding up to the
--json histogram bucket by bucket; with "killed" no total line (and a torn
last line ignored). At least MIN_WINDOWS windows.
"""
import json
import sys


def main():
    path, tool, threads, min_windows, mode = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                                              int(sys.argv[4]), sys.argv[5])
    errors = []
    raw = open(path, encoding="utf-8").read()
    if not raw.endswith("\n"):
        if mode != "killed":
            errors.append("the file does not end with a whole line")
        # Only the last line can be torn, and only by a kill: readers drop it.
        raw = raw[:raw.rfind("\n") + 1]
    lines = []
    for n, text in enumerate(raw.splitlines(), 1):
        try:
            lines.append(json.loads(text))
        except ValueError as e:
            errors.append("line %d is not whole JSON (%s): %.80s" % (n, e, text))
    if errors:
        return report(errors)
    run = lines[0]
    if run.get("type") != "run" or run.get("tool") != tool or \
       run.get("num_threads") != threads or "environment" not in run or \
       not run.get("cmdline") or run.get("unit") not in ("us", "ns"):
        errors.append("first line is not the run line: %.200s" % run)
    windows = [ln for ln in lines[1:] if ln.get("type") == "window"]
    totals = [ln for ln in lines[1:] if ln.get("type") == "total"]
    if mode == "complete" and (len(totals) != 1 or lines[-1].get("type") != "total"):
        errors.append("%d total lines, or not last" % len(totals))
    if mode == "killed" and totals:
        errors.append("a total line after SIGKILL")
    nwin = len(windows) // threads
    if len(windows) % threads or nwin < min_windows:
        errors.append("%d window lines for %d threads (want >= %d windows)" %
                      (len(windows), threads, min_windows))
    interval = run.get("records_interval_s") or 1
    prev_end = 0.0
    for k in range(nwin):
        group = windows[k * threads:(k + 1) * threads]
        if [w["thread"] for w in group] != list(range(threads)) or \
           any(w["window"] != k for w in group):
            errors.append("window %d: threads %s, numbers %s" %
                          (k, [w["thread"] for w in group], [w["window"] for w in group]))
        if any(abs(w["start_s"] - prev_end) > 0.0015 or w["end_s"] < w["start_s"] for w in group):
            errors.append("window %d starts at %s, the last ended at %s" %
                          (k, group[0]["start_s"], prev_end))
        # On the grid: start + k * interval exactly (the last window ends
        # when the run ends, anywhere).
        last = mode == "complete" and k == nwin - 1
        for w in group:
            for key in ("start_s", "end_s") if not last else ("start_s",):
                if round(w[key] * 1000) % (interval * 1000):
                    errors.append("window %d thread %d: %s %s is not a multiple of %s s" %
                                  (k, w["thread"], key, w[key], interval))
            h = w.get("latency_histogram")
            if not isinstance(h, dict) or h.get("layout") != "log-linear" or \
               h.get("count") != w["count"] or h.get("max") != w["max"] or \
               sum(h["buckets"].values()) != w["count"]:
                errors.append("window %d thread %d: histogram %.120s does not match count %s "
                              "max %s" % (k, w["thread"], h, w["count"], w["max"]))
        prev_end = group[0]["end_s"]
        for w in group:
            if w["count"] and not (w["min"] <= w["avg"] <= w["max"]):
                errors.append("window %d thread %d: not min <= avg <= max" % (k, w["thread"]))
            if w["count"] and w["percentiles"]["p50"] is None:
                errors.append("window %d thread %d: no percentiles" % (k, w["thread"]))
    if mode == "complete" and totals:
        total = totals[0]["threads"]
        doc = json.load(open(sys.argv[6], encoding="utf-8")) if len(sys.argv) > 6 else None
        for t in range(threads):
            mine = [w for w in windows if w["thread"] == t and w["count"]]
            count = sum(w["count"] for w in windows if w["thread"] == t)
            got = total[t]
            if count != got["count"]:
                errors.append("thread %d: windows count %d, total %d" % (t, count, got["count"]))
            if mine and (min(w["min"] for w in mine) != got["min"] or
                         max(w["max"] for w in mine) != got["max"]):
                errors.append("thread %d: windows min/max %d/%d, total %s/%s" %
                              (t, min(w["min"] for w in mine), max(w["max"] for w in mine),
                               got["min"], got["max"]))
            if "overruns" in got and \
               sum(w["overruns"] for w in windows if w["thread"] == t) != got["overruns"]:
                errors.append("thread %d: window overruns do not add up" % t)
            if doc:
                j = doc["thread"][str(t)]
                if "receiver" in j:
                    j = dict(j["receiver"], cycles=j["receiver"]["latency_histogram"]["count"])
                if (j["cycles"], j["min"], j["max"]) != (got["count"], got["min"], got["max"]):
                    errors.append("thread %d: total %s/%s/%s, --json %s/%s/%s" %
                                  (t, got["count"], got["min"], got["max"],
                                   j["cycles"], j["min"], j["max"]))
                summed = {}
                for w in windows:
                    if w["thread"] == t:
                        for key, c in w["latency_histogram"]["buckets"].items():
                            summed[key] = summed.get(key, 0) + c
                if summed != j["latency_histogram"]["buckets"]:
                    errors.append("thread %d: the windows' histograms do not add up to the "
                                  "--json histogram" % t)
    return report(errors)


def report(errors):
    for e in errors:
        print("records: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
