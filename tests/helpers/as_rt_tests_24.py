#!/usr/bin/env python3
"""Turns a JSON result of ours into what rt-tests 2.4 writes for that run.

  as_rt_tests_24.py IN OUT [BELOW]
Drops what 2.4 does not have (scheduling, environment, percentiles, the
lossless latency_histogram); keeps the -h "histogram" 2.4 writes too, with
BELOW only its buckets below BELOW (a shorter -h; the rest fall beyond it).
"""
import json
import sys

d = json.load(open(sys.argv[1]))
for k in ("scheduling", "environment", "percentiles", "percentiles_ci"):
    d.pop(k, None)
for t in d["thread"].values():
    t.pop("percentiles", None)
    t.pop("percentiles_ci", None)
    t.pop("latency_histogram", None)
    if len(sys.argv) > 3 and "histogram" in t:
        t["histogram"] = {k: v for k, v in t["histogram"].items() if int(k) < int(sys.argv[3])}
json.dump(d, open(sys.argv[2], "w"))
