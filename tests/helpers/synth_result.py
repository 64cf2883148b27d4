#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a synthetic result, whatever the machine's latencies are.

  synth_result.py OUT [OPTION=VALUE...]
    threads=N       threads (default 2)
    cycles=N        samples per thread (default 1000)
    base=US         the lowest latency (default 10): thread i's samples are
                    base+i .. base+i+spread, most of them near the bottom
    spread=US       (default 60)
    v24=BELOW       rt-tests 2.4's JSON instead of ours, its -h histogram
                    holding buckets 0..BELOW-1 (what is above lies beyond it)
    host=, kernel=, cmdline=, model=, mode=   the labels a plot shows
    start=EPOCH     start time, seconds (default 1700000000)
    duration=S      end - start (default 10)
    rc=N            return_code (default 0); verdict=pass|fail adds a verdict
    stop=CAUSE:DONE:ASKED  the verdict (verdict= first) says the run stopped
                    early: partial, stopped by CAUSE after DONE of ASKED s
    tail=US[,US...] thread 0's first samples replaced by these (a tail far
                    beyond the body)
Or from Python: synth_result.write(OUT, {"threads": "2", ...}).
The per-thread figures (cycles, min, max, avg, percentiles, histograms) are
those of the samples, computed here.
"""
import email.utils
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loghist  # noqa: E402


def samples(i, cycles, base, spread):
    """A deterministic long-tailed distribution."""
    out = []
    for k in range(cycles):
        frac = (k * 7919 % cycles) / max(cycles - 1, 1)
        out.append(base + i + int(spread * frac ** 4))
    return out


def lh_low(v):
    low = v
    while not loghist.is_bucket_low(low):
        low -= 1
    return low


def write(out, a):
    """Write the result a (OPTION: VALUE) describes into out."""
    threads = int(a.get("threads", 2))
    cycles = int(a.get("cycles", 1000))
    base, spread = int(a.get("base", 10)), int(a.get("spread", 60))
    start = int(a.get("start", 1700000000))
    dur = int(a.get("duration", 10))
    v24 = int(a["v24"]) if "v24" in a else None
    d = {
        "file_version": 1,
        "cmdline:": a.get("cmdline", "/usr/bin/cyclictest -q -m -p 80 -t %d -i 1000 -h 400" % threads),
        "rt_test_version:": "2.40",
        "start_time": email.utils.formatdate(start),
        "end_time": email.utils.formatdate(start + dur),
        "return_code": int(a.get("rc", 0)),
        "sysinfo": {"sysname": "Linux", "nodename": a.get("host", "board"),
                    "release": a.get("kernel", "6.12.0-rt"), "version": "#1 SMP PREEMPT_RT",
                    "machine": "x86_64", "realtime": 1},
        "num_threads": threads,
        "resolution_in_ns": 0,
        "thread": {},
    }
    allbuckets = {}
    for i in range(threads):
        s = samples(i, cycles, base, spread)
        if i == 0 and a.get("tail"):
            for j, v in enumerate(int(x) for x in a["tail"].split(",")):
                s[j] = v
        lin, lb = {}, {}
        for v in s:
            lin[v] = lin.get(v, 0) + 1
            lb[lh_low(v)] = lb.get(lh_low(v), 0) + 1
        t = {"histogram": {str(k): lin[k] for k in sorted(lin)} if v24 is None else
             {str(k): lin.get(k, 0) for k in range(v24)},
             "cycles": cycles, "min": min(s) if s else None, "max": max(s) if s else None,
             "avg": round(sum(s) / len(s), 2) if s else None, "cpu": i, "node": 0}
        if v24 is None:
            t["overruns"] = 0
            t["percentiles"] = {n: loghist.percentile(lb, cycles, max(s) if s else 0, p)
                                for n, p in loghist.PCTS}
            t["latency_histogram"] = {"layout": "log-linear", "exact_below": 128, "sub_buckets": 128,
                                      "count": cycles, "max": max(s) if s else None,
                                      "buckets": {str(k): lb[k] for k in sorted(lb)}}
        for k, v in lb.items():
            allbuckets[k] = allbuckets.get(k, 0) + v
        d["thread"][str(i)] = t
    if v24 is None:
        mx = max((t["max"] for t in d["thread"].values() if t["max"] is not None), default=0)
        d["environment"] = {"kernel_release": d["sysinfo"]["release"],
                            "preemption": {"model": a.get("model", "PREEMPT_RT"),
                                           "mode": a.get("mode")}}
        d["percentiles"] = {n: loghist.percentile(allbuckets, threads * cycles, mx, p)
                            for n, p in loghist.PCTS}
    if "verdict" in a:
        d["verdict"] = {"result": a["verdict"], "broken": [], "partial": False}
        if "stop" in a:
            cause, done, asked = a["stop"].split(":")
            d["verdict"]["partial"] = True
            d["verdict"]["stop"] = {"cause": cause, "done": float(done),
                                    "asked": float(asked), "unit": "s"}
    with open(out, "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    write(sys.argv[1], dict(x.split("=", 1) for x in sys.argv[2:]))
