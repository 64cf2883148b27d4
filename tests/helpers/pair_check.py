#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check sigwaittest/ptsematest/svsematest/pmqtest output: the 2.4 block and JSON.

usage: pair_check.py STDOUT PAIRS LOOPS [JSON]

Proves: PAIRS "#<2i>: ID.., P.., CPU.., I..; #<2i+1>: ..., [TO n, ]Cycles N" lines
then PAIRS "#<2i+1> -> #<2i>, Min .., Cur .., Avg .., Max .." lines (numbers
width 4), Cycles = LOOPS (when > 0), Min <= Cur/Avg <= Max, and that the
JSON (2.4 schema, valid, our "scheduling" last) agrees with the text; the
TO column (pmqtest) goes with the receiver's "timeoutcount".
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loghist  # noqa: E402

text = open(sys.argv[1], encoding="utf-8").read().split("\x1b")[-1]
pairs, loops = int(sys.argv[2]), int(sys.argv[3])
errors = []
ids = re.findall(r"^#(\d+): ID(\d+), P(\d+), CPU(-?\d+), I(\d+); #(\d+): ID(\d+), P(\d+), CPU(-?\d+), (?:TO (\d+), )?Cycles (\d+)$", text, re.M)
lat = re.findall(r"^#(\d+) -> #(\d+), Min (?=[ \d]{4,},)( *\d+), Cur (?=[ \d]{4,},)( *\d+), Avg (?=[ \d]{4,},)( *\d+), Max (?=[ \d]{4,}$)( *\d+)$", text, re.M)
if len(ids) != pairs:
    errors.append("%d id lines, expected %d" % (len(ids), pairs))
if len(lat) != pairs:
    errors.append("%d latency lines, expected %d" % (len(lat), pairs))
for i, row in enumerate(ids):
    if int(row[0]) != 2 * i or int(row[5]) != 2 * i + 1:
        errors.append("pair %d numbered %s/%s" % (i, row[0], row[5]))
    if loops and int(row[10]) != loops:
        errors.append("pair %d: Cycles %s != %d" % (i, row[10], loops))
for i, row in enumerate(lat):
    s, r, mn, cur, avg, mx = (int(x) for x in row)
    if (s, r) != (2 * i + 1, 2 * i):
        errors.append("latency line %d: #%d -> #%d" % (i, s, r))
    if not (mn <= avg <= mx and mn <= cur <= mx):
        errors.append("pair %d: not Min <= Cur/Avg <= Max" % i)
if len(sys.argv) > 4:
    doc = json.load(open(sys.argv[4], encoding="utf-8"),
                    parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    if doc["num_threads"] != pairs or doc["rt_test_version:"] != "2.40":
        errors.append("json header")
    want = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
            "return_code", "sysinfo", "num_threads", "thread", "scheduling", "environment",
            "percentiles", "percentiles_ci"]
    if list(doc) not in (want, want + ["verdict"], want + ["isolation"],
                         want + ["verdict", "isolation"]):
        errors.append("json top-level keys %s" % list(doc))
    for i in range(pairs):
        t = doc["thread"][str(i)]
        if list(t) != ["sender", "receiver"]:
            errors.append("json pair %d keys %s" % (i, list(t)))
            continue
        timeouts = i < len(ids) and ids[i][9] != ""
        if list(t["sender"]) != ["cpu", "priority", "samples", "interval"] or \
           list(t["receiver"]) != ["cpu", "priority"] + ["timeoutcount"] * timeouts + \
                ["min", "avg", "max", "percentiles", "percentiles_ci", "latency_histogram"]:
            errors.append("json pair %d member keys" % i)
        else:
            loghist.check_series(t["receiver"], "pair %d" % i, errors, count_key=None)
        if i < len(ids) and (t["sender"]["samples"] != int(ids[i][10]) or
                             t["sender"]["interval"] != int(ids[i][4]) or
                             (timeouts and t["receiver"]["timeoutcount"] != int(ids[i][9]))):
            errors.append("json pair %d: samples/interval/timeouts disagree with the text" % i)
        if i < len(lat) and (t["receiver"]["min"] != int(lat[i][2]) or
                             t["receiver"]["max"] != int(lat[i][5])):
            errors.append("json pair %d: min/max disagree with the text" % i)
    if not errors:
        loghist.check_total(doc, [doc["thread"][str(i)]["receiver"] for i in range(pairs)], errors)
for e in errors:
    print("pair: " + e)
sys.exit(1 if errors else 0)
