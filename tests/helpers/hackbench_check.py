#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check hackbench's --json against its arguments and its text output.

usage: hackbench_check.py [JSON STDOUT MODE TRANSPORT GROUPS FDS LOOPS DATASIZE STOPPED_BY]...
(several runs in one call: a Python start costs seconds on a loaded machine)

Proves: the keys and their order (2.4's header, hackbench's keys, then
"scheduling" and "environment"); mode, transport and the workload as asked;
tasks = 2 x groups x fds; a completed round passed groups x fds x fds x loops
messages, a stopped one fewer; the totals are the sums of the rounds;
messages_per_s = messages / time; stopped_by as expected ("null" for none);
each round's Time: line on stdout is its time_ns truncated to ms, preceded by
"signaling N worker threads to terminate" exactly when it was stopped; with
-D the "Rounds:" line agrees; "scheduling" says the workers ran at
SCHED_OTHER ("policy": "other", "realtime": 0).
"""
import json
import re
import sys

KEYS = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
        "return_code", "sysinfo", "mode", "transport", "groups", "fds", "tasks", "loops",
        "datasize", "fifo", "duration_s", "rounds", "rounds_completed", "messages",
        "time_ns", "messages_per_s", "stopped_by", "verdict", "scheduling", "environment"]
ROUND_KEYS = ["time_ns", "messages", "messages_per_s", "completed"]


def near(a, b):
    return abs(a - b) <= max(0.011, 1e-9 * abs(b))


def check(args):
    path, out, mode, transport = args[0:4]
    groups, fds, loops, size = (int(x) for x in args[4:8])
    stopped = None if args[8] == "null" else args[8]
    errors = []
    with open(path, encoding="utf-8") as f:
        pairs = json.load(f, object_pairs_hook=lambda p: p,
                          parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    keys = [k for k, _ in pairs]
    if keys != KEYS:
        errors.append("keys %s, expected %s" % (keys, KEYS))
    d = dict(pairs)
    want = {"mode": mode, "transport": transport, "groups": groups, "fds": fds,
            "tasks": 2 * groups * fds, "loops": loops, "datasize": size,
            "stopped_by": stopped}
    for k, v in want.items():
        if d.get(k) != v:
            errors.append("%s: %r, expected %r" % (k, d.get(k), v))
    full = groups * fds * fds * loops
    rounds = [dict(r) for r in d.get("rounds", [])]
    for i, r in enumerate(rounds):
        if [k for k, _ in d["rounds"][i]] != ROUND_KEYS:
            errors.append("round %d keys %s" % (i, [k for k, _ in d["rounds"][i]]))
        if r["completed"] == 1 and r["messages"] != full:
            errors.append("round %d completed with %d messages, expected %d" % (i, r["messages"], full))
        if r["completed"] == 0 and not 0 <= r["messages"] <= full:
            errors.append("round %d stopped with %d messages (of %d)" % (i, r["messages"], full))
        if r["time_ns"] <= 0:
            errors.append("round %d time_ns %d" % (i, r["time_ns"]))
        elif not near(r["messages_per_s"], r["messages"] * 1e9 / r["time_ns"]):
            errors.append("round %d messages_per_s %s" % (i, r["messages_per_s"]))
    if rounds:
        if d["rounds_completed"] != sum(r["completed"] for r in rounds):
            errors.append("rounds_completed %d" % d["rounds_completed"])
        if d["messages"] != sum(r["messages"] for r in rounds):
            errors.append("messages %d is not the sum of the rounds" % d["messages"])
        if d["time_ns"] != sum(r["time_ns"] for r in rounds):
            errors.append("time_ns %d is not the sum of the rounds" % d["time_ns"])
        if not near(d["messages_per_s"], d["messages"] * 1e9 / d["time_ns"]):
            errors.append("messages_per_s %s" % d["messages_per_s"])
    # The text: Time: lines (and signaling lines) in the order of the rounds.
    with open(out, encoding="utf-8") as f:
        lines = f.read().splitlines()
    body = [l for l in lines if l.startswith(("Time: ", "signaling "))]
    expect = []
    for r in rounds:
        if not r["completed"]:
            expect.append("signaling %d worker threads to terminate" % (2 * groups * fds))
        expect.append("Time: %d.%03d" % (r["time_ns"] // 10**9, r["time_ns"] % 10**9 // 10**6))
    if body != expect:
        errors.append("stdout lines %s, expected %s from the JSON" % (body, expect))
    totals = [l for l in lines if l.startswith("Rounds: ")]
    if d.get("duration_s"):
        t = d["time_ns"]
        line = "Rounds: %d (%d completed), messages: %d, time: %d.%03d s, %.0f messages/s" % (
            len(rounds), d["rounds_completed"], d["messages"], t // 10**9, t % 10**9 // 10**6,
            d["messages"] * 1e9 / t if t else 0)
        if not totals or totals[0].rsplit(",", 1)[0] != line.rsplit(",", 1)[0]:
            errors.append("total line %s, expected %s" % (totals, line))
    elif totals:
        errors.append("a Rounds: line without -D")
    if d.get("scheduling") != [("policy", "other"), ("realtime", 0)]:
        errors.append("scheduling %s" % d.get("scheduling"))
    for e in errors:
        print("%s: %s" % (path, e))
    return not errors


def main():
    args = sys.argv[1:]
    if not args or len(args) % 9:
        sys.exit("usage: hackbench_check.py [JSON STDOUT MODE TRANSPORT GROUPS FDS LOOPS "
                 "DATASIZE STOPPED_BY]...")
    ok = True
    for i in range(0, len(args), 9):
        ok = check(args[i:i + 9]) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
