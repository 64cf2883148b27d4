#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a synthetic --records file (JSON lines) of cyclictest's layout.

  synth_records.py OUT [OPTION=VALUE...]
    threads=N     threads (default 2)
    windows=N     windows per thread (default 10)
    interval=S    seconds a window (default 60)
    cycles=N      samples a window and thread (default 600)
    spike=W       window W of thread 0 holds a sample of spike_us (default none)
    spike_us=US   (default 5000)
    total=0|1     write the total line (default 1; 0: a killed run)
    host=, kernel=, cmdline=   labels (any text: hostile ones too)
    raw_host=HEX  the host name's bytes, as hex (bytes that are not UTF-8)
    run_id=ID     the run line's run id (default: none, as older files)
Every window's figures are those of its samples, computed here.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loghist  # noqa: E402


def lh_low(v):
    while not loghist.is_bucket_low(v):
        v -= 1
    return v


def window(i, w, a):
    cycles = int(a.get("cycles", 600))
    s = [8 + i + (k * 7919 % cycles) * 40 // cycles for k in range(cycles)]
    if i == 0 and a.get("spike") is not None and int(a["spike"]) == w:
        s[0] = int(a.get("spike_us", 5000))
    lb = {}
    for v in s:
        lb[lh_low(v)] = lb.get(lh_low(v), 0) + 1
    iv = float(a.get("interval", 60))
    return {"type": "window", "thread": i, "window": w,
            "start": "2026-01-01T%02d:%02d:%02d.000Z" % divmod_hms(w * iv),
            "end": "2026-01-01T%02d:%02d:%02d.000Z" % divmod_hms((w + 1) * iv),
            "start_s": w * iv, "end_s": (w + 1) * iv, "count": cycles, "min": min(s),
            "avg": round(sum(s) / len(s), 2), "max": max(s),
            "percentiles": {n: loghist.percentile(lb, cycles, max(s), p) for n, p in loghist.PCTS},
            "overruns": 0,
            "latency_histogram": {"layout": "log-linear", "exact_below": 128, "sub_buckets": 128,
                                  "count": cycles, "max": max(s),
                                  "buckets": {str(k): lb[k] for k in sorted(lb)}}}


def divmod_hms(t):
    t = int(t) % 86400
    return t // 3600, t // 60 % 60, t % 60


def main():
    out = sys.argv[1]
    a = dict(x.split("=", 1) for x in sys.argv[2:])
    threads, windows = int(a.get("threads", 2)), int(a.get("windows", 10))
    host = a.get("host", "board")
    run = {"type": "run", "tool": "cyclictest", "version": "0.1.0", "rt_test_version": "2.40",
           "cmdline": a.get("cmdline", "/usr/bin/cyclictest -q -m -p 90 -t %d --records=r" % threads),
           "start": "2026-01-01T00:00:00.000Z", "warmup_s": 0, "unit": "us",
           "records_interval_s": float(a.get("interval", 60)), "num_threads": threads,
           "sysinfo": {"sysname": "Linux", "nodename": "@HOST@", "release": a.get("kernel", "6.12.0-rt"),
                       "version": "#1 SMP PREEMPT_RT", "machine": "x86_64", "realtime": 1},
           "environment": {"kernel_release": a.get("kernel", "6.12.0-rt"),
                           "preemption": {"model": "PREEMPT_RT", "mode": None}}}
    if "run_id" in a:
        run["run_id"] = a["run_id"]
    host_bytes = bytes.fromhex(a["raw_host"]) if "raw_host" in a else json.dumps(host)[1:-1].encode()
    with open(out, "wb") as f:
        f.write(json.dumps(run, separators=(",", ":")).encode().replace(b"@HOST@", host_bytes) + b"\n")
        for w in range(windows):
            for i in range(threads):
                f.write(json.dumps(window(i, w, a), separators=(",", ":")).encode() + b"\n")
        if a.get("total", "1") == "1":
            total = {"type": "total", "end": "2026-01-02T00:00:00.000Z",
                     "duration_s": windows * float(a.get("interval", 60)), "threads": []}
            f.write(json.dumps(total, separators=(",", ":")).encode() + b"\n")


main()
