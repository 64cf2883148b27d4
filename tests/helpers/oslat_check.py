#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check an oslat run's stdout (and JSON) against rt-tests 2.4's layout.

Usage: oslat_check.py STDOUT JSON|- NTHREADS BUCKETS quiet|full [empty]

The expected lines are the ones Debian's 2.4 /usr/bin/oslat printed here
(`oslat -D 2 --json=o.json`), numbers as regexes:
    oslat V 2.40
    Total runtime: \t\t2 seconds
    Thread priority: \tdefault
    CPU list: \t\tall
    CPU for main thread: \t0
    Workload: \t\tno
    Workload mem: \t\t0 (KiB)
    Preheat cores: \t\t2
    (blank)
    Pre-heat for 1 seconds...
    Test starts...
    Test completed.
    (blank)
            Core:\t 0 1
    Counter Freq:\t 2096 2092 (Mhz)
        001 (us):\t 14370177 13341252
        ...
        032 (us):\t 544 642 (including overflows)
         Minimum:\t 1 1 (us)
         Average:\t 1.118 1.129 (us)
         Maximum:\t 89589 331348 (us)
         Max-Min:\t 89588 331347 (us)
        Duration:\t 2.033 2.142 (sec)
    (blank)
and 2.4's JSON keys: file_version, "cmdline:", "rt_test_version:",
start_time, end_time, return_code, sysinfo, num_threads, thread.N with cpu,
freq, min, avg, max, duration, histogram (non-zero buckets by label).
"""
import json
import re
import sys

out, jpath, n, nb, mode = sys.argv[1:6]
empty = len(sys.argv) > 6 and sys.argv[6] == "empty"
n, nb = int(n), int(nb)
lines = open(out).read().split("\n")
bad = []


def expect(i, pattern):
    if i >= len(lines) or not re.fullmatch(pattern, lines[i]):
        bad.append("line %d: %r !~ %r" % (i + 1, lines[i] if i < len(lines) else None, pattern))


num = r" \d+" * n
i = 0
expect(0, r"oslat V 2\.40")
i = 1
if i < len(lines) and lines[i].startswith("WARNING: Running SCHED_FIFO"):
    expect(i, r"WARNING: Running SCHED_FIFO workload on CPU 0 may hang the thread")
    i += 1
if mode == "full":
    for pat in [r"Total runtime: \t\t\d+ seconds", r"Thread priority: \t(default|SCHED_FIFO:\d+)",
                r"CPU list: \t\t\S+", r"CPU for main thread: \t\d+", r"Workload: \t\t(no|memmove)",
                r"Workload mem: \t\t\d+ \(KiB\)", r"Preheat cores: \t\t\d+", r"",
                r"Pre-heat for \d+ seconds\.\.\."]:
        expect(i, pat)
        i += 1
    if i < len(lines) and lines[i].startswith("Global bias set to"):
        expect(i, r"Global bias set to \d+ \(us\)")
        i += 1
    if not empty:
        expect(i, r"Test starts\.\.\.")
        expect(i + 1, r"Test completed\.")
        expect(i + 2, r"")
        i += 3
expect(i, r"        Core:\t" + num)
expect(i + 1, r"Counter Freq:\t" + num + r" \(Mhz\)")
i += 2
counts = [[0] * nb for _ in range(n)]
first_label = None
for b in range(nb):
    m = re.fullmatch(r"    (\d{3,}) \(us\):\t((?: \d+){%d})( \(including overflows\))?" % n, lines[i])
    if not m:
        bad.append("bucket row %d: %r" % (b, lines[i]))
        break
    if first_label is None:
        first_label = int(m.group(1))
    if int(m.group(1)) != first_label + b or bool(m.group(3)) != (b == nb - 1):
        bad.append("bucket label/overflow mark: %r" % lines[i])
    for t, v in enumerate(m.group(2).split()):
        counts[t][b] = int(v)
    i += 1
val = r" -" * n if empty else num
avg = r" -" * n if empty else r" \d+\.\d{3}" * n
expect(i, r"     Minimum:\t" + val + r" \(us\)")
expect(i + 1, r"     Average:\t" + avg + r" \(us\)")
expect(i + 2, r"     Maximum:\t" + val + r" \(us\)")
expect(i + 3, r"     Max-Min:\t" + val + r" \(us\)")
expect(i + 4, r"    Duration:\t" + r" \d+\.\d{3}" * n + r" \(sec\)")
expect(i + 5, r"")
if not empty and not bad:
    mins = [int(v) for v in lines[i].split("\t")[1].split()[:-1]]
    maxs = [int(v) for v in lines[i + 2].split("\t")[1].split()[:-1]]
    avgs = [float(v) for v in lines[i + 1].split("\t")[1].split()[:-1]]
    for t in range(n):
        if not (mins[t] <= maxs[t] and sum(counts[t]) > 0):
            bad.append("thread %d: min %d max %d" % (t, mins[t], maxs[t]))
        if not (mins[t] - 0.0005 <= avgs[t] - (first_label - 1) <= maxs[t] + 0.0005):
            bad.append("thread %d: average %f outside min..max" % (t, avgs[t]))

if jpath != "-":
    d = json.load(open(jpath))
    keys = list(d)
    want = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
            "return_code", "sysinfo", "num_threads", "thread"]
    if keys[:len(want)] != want:
        bad.append("JSON keys %r" % keys)
    for k in ["scheduling", "environment", "percentiles"]:
        if k not in d:
            bad.append("JSON lacks %s" % k)
    if d["num_threads"] != n:
        bad.append("num_threads")
    for t in range(n):
        th = d["thread"][str(t)]
        tk = list(th)
        if tk[:7] != ["cpu", "freq", "min", "avg", "max", "duration", "histogram"]:
            bad.append("thread keys %r" % tk)
        hist = {int(k): v for k, v in th["histogram"].items()}
        text = {first_label + b: c for b, c in enumerate(counts[t]) if c}
        if hist != text:
            bad.append("thread %d: JSON histogram differs from the text" % t)
        # empty too: a run stopped in the pre-heat shows no count in its rows
        if th["samples"] != sum(counts[t]):
            bad.append("thread %d: samples %d, buckets sum %d" % (t, th["samples"], sum(counts[t])))
        if not empty and th["latency_histogram"]["count"] != th["samples"]:
            bad.append("thread %d: lossless histogram count" % t)
        if not empty and th["latency_histogram"]["max"] != th["max"]:
            bad.append("thread %d: lossless histogram max" % t)

if bad:
    print("\n".join(bad))
    sys.exit(1)
