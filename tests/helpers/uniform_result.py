#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a synthetic cyclictest result whose intervals are easy to check by hand.

  uniform_result.py OUT LOW [N] [ci=no] [hist=no] [v24=BELOW] [start=EPOCH]
One thread of N samples (default 100), one at each of LOW .. LOW+N-1 us, so
the sample of rank k is LOW+k-1: "percentiles" by nearest rank and
"percentiles_ci" from the ranks of loghist.ci_ranks (an independent
computation of rt_quantile_ci's), as cyclictest writes them.
ci=no leaves "percentiles_ci" out (a result that has none), hist=no both
histograms (nothing to compute intervals from). v24=BELOW
writes rt-tests 2.4's JSON instead: no percentiles, only the -h histogram
of buckets 0..BELOW-1 (the samples above it lie beyond it).
"""
import email.utils
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loghist  # noqa: E402


def ci(buckets, count, maximum):
    out = {}
    for name, pm in loghist.PCTS:
        l, u = loghist.ci_ranks(count, pm)
        out[name] = {"low": loghist.rank_bucket(buckets, l) if l >= 1 else 0,
                     "high": min(loghist.bucket_high(loghist.rank_bucket(buckets, u)), maximum)
                     if u <= count else None,
                     "confidence": 95}
    return out


def main(argv):
    out, low = argv[1], int(argv[2])
    n = int(argv[3]) if len(argv) > 3 and "=" not in argv[3] else 100
    opts = dict(a.split("=", 1) for a in argv[3:] if "=" in a)
    s = list(range(low, low + n))
    assert s[-1] < 256, "1 us buckets only: values below 256"
    buckets = {v: 1 for v in s}
    start = int(opts.get("start", 1700000000))
    pct = {name: loghist.percentile(buckets, n, s[-1], pm) for name, pm in loghist.PCTS}
    below = int(opts.get("v24", 256))
    t = {"histogram": {str(v): (1 if v in buckets else 0) for v in range(below)},
         "cycles": n, "min": s[0], "max": s[-1], "avg": round(sum(s) / n, 2), "cpu": 0, "node": 0}
    d = {"file_version": 1, "cmdline:": "/usr/bin/cyclictest -q -m -p 80 -h %d" % below,
         "rt_test_version:": "2.40", "start_time": email.utils.formatdate(start),
         "end_time": email.utils.formatdate(start + 1), "return_code": 0,
         "sysinfo": {"sysname": "Linux", "nodename": "board", "release": "6.12.0-rt",
                     "version": "#1 SMP PREEMPT_RT", "machine": "x86_64", "realtime": 1},
         "num_threads": 1, "resolution_in_ns": 0, "thread": {"0": t}}
    if "v24" not in opts:
        t["overruns"] = 0
        t["percentiles"] = pct
        t["percentiles_ci"] = ci(buckets, n, s[-1])
        t["latency_histogram"] = {"layout": "log-linear", "exact_below": 128, "sub_buckets": 128,
                                  "count": n, "max": s[-1],
                                  "buckets": {str(v): 1 for v in s}}
        d["percentiles"] = dict(pct)
        d["percentiles_ci"] = ci(buckets, n, s[-1])
        if opts.get("ci") == "no":
            del t["percentiles_ci"], d["percentiles_ci"]
    if opts.get("hist") == "no":
        t.pop("latency_histogram", None)
        t.pop("histogram")
    with open(out, "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
