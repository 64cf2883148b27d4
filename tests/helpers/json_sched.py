#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check the "scheduling" object any tool's --json ends with.

usage: json_sched.py FILE POLICY

Proves: the file is valid JSON with "scheduling" after every rt-tests 2.4
key and before only our later additions ("environment", "percentiles", "percentiles_ci", "verdict"), holding exactly "policy" then "realtime";
policy is POLICY and realtime is 1 exactly for fifo and rr.
"""
import json
import sys


def main():
    path, want = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f, object_pairs_hook=lambda pairs: pairs,
                        parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    errors = []
    keys = [k for k, _ in doc]
    if keys[-1:] == ["isolation"]:  # our last addition, when read
        keys = keys[:-1]
    if "scheduling" not in keys or \
       keys[keys.index("scheduling") + 1:] not in (
           ["environment", "percentiles", "percentiles_ci"],
           ["environment", "percentiles", "percentiles_ci", "verdict"],
           ["environment", "percentiles", "percentiles_ci", "analysis"],
           ["environment", "percentiles", "percentiles_ci", "analysis", "verdict"]):
        errors.append("top-level keys %s: 'scheduling' is not the last of 2.4's" % keys)
    else:
        sched = dict(doc)["scheduling"]
        keys = [k for k, _ in sched]
        if keys != ["policy", "realtime"]:
            errors.append("scheduling keys %s" % keys)
        s = dict(sched)
        if s.get("policy") != want:
            errors.append("policy %r, expected %r" % (s.get("policy"), want))
        rt = 1 if want in ("fifo", "rr") else 0
        if s.get("realtime") != rt:
            errors.append("realtime %r with policy %s, expected %d" % (s.get("realtime"), want, rt))
    for e in errors:
        print("scheduling: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
