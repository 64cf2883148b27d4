#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check pip_stress's --json against the run's exit code and text output.

usage: pip_check.py [JSON STDOUT EXPECT USLEEP_US WORK_MS PI CPU]...
(several runs in one call: a Python start costs seconds on a loaded machine)
EXPECT: pass, fail (--no-pi: unresolved), SIGINT or SIGTERM (stopped).

Proves: the keys and their order (2.4's header, pip_stress's keys, then
"verdict", "scheduling" and "environment"); the configuration as asked;
the three processes at SCHED_FIFO 1, 2, 3 ("scheduling": fifo, realtime 1);
a pass: return_code 0, resolved 1, 2.4's line as "result", medium not
finished, low released the mutex at the high priority (3: priority
inheritance seen from /proc), high_wait_ns >= usleep; a fail: return_code
3, resolved 0, medium finished its whole work (medium_ran_ns >= work) and
low released the mutex at its own priority 1; a stop: return_code 0 (4
with --verdict), stopped_by the signal, resolved null, the verdict
INCONCLUSIVE and partial with the signal as its cause (judged on what was
measured: nothing was decided); "# Verdict:" lines only with --verdict or
on a FAIL, agreeing with the JSON's verdict.
"""
import json
import sys

KEYS = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
        "return_code", "sysinfo", "usleep_us", "work_ms", "priority_inheritance", "cpu",
        "processes", "inversion", "resolved", "result", "high_wait_ns", "medium_ran_ns",
        "medium_finished", "low_priority_at_unlock", "stopped_by", "verdict", "scheduling",
        "environment"]
LINE = "Successfully used priority inheritance to handle an inversion"


def to_dict(pairs):
    """The object_pairs_hook's lists of pairs, back to dicts all the way down."""
    if isinstance(pairs, list) and all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
        return {k: to_dict(v) for k, v in pairs}
    if isinstance(pairs, list):
        return [to_dict(v) for v in pairs]
    return pairs


def check(args):
    path, out, expect = args[0:3]
    usleep_us, work_ms, pi, cpu = (int(x) for x in args[3:7])
    errors = []

    def want(cond, what):
        if not cond:
            errors.append(what)

    with open(path, encoding="utf-8") as f:
        pairs = json.load(f, object_pairs_hook=lambda p: p)
    keys = [k for k, _ in pairs]
    want(keys == KEYS, f"keys {keys}")
    d = dict(pairs)
    want(d["file_version"] == 1, "file_version")
    want(d["rt_test_version:"] == "2.40", "rt_test_version:")
    want(d["usleep_us"] == usleep_us, f"usleep_us {d['usleep_us']}")
    want(d["work_ms"] == work_ms, f"work_ms {d['work_ms']}")
    want(d["priority_inheritance"] == pi, f"priority_inheritance {d['priority_inheritance']}")
    want(d["cpu"] == cpu, f"cpu {d['cpu']}")
    procs = [dict(p) for p in d["processes"]]
    want([p["role"] for p in procs] == ["low", "medium", "high"], f"roles {procs}")
    verdict = to_dict(d["verdict"])
    asked = "--verdict" in d["cmdline:"]
    with open(out, encoding="utf-8") as f:
        lines = f.read().splitlines()
    vlines = [l for l in lines if l.startswith("# Verdict:")]
    shown = asked or verdict["result"] == "fail"
    want(bool(vlines) == shown, f"verdict lines {vlines} (asked {asked})")
    if vlines:
        want(vlines[0] == "# Verdict: " + verdict["result"].upper(), f"verdict {vlines}")
    text = [l for l in lines if not l.startswith("# Verdict:")]
    if expect in ("pass", "fail"):
        want([(p["policy"], p["priority"]) for p in procs] ==
             [("fifo", 1), ("fifo", 2), ("fifo", 3)], f"processes {procs}")
        want(dict(d["scheduling"]) == {"policy": "fifo", "realtime": 1},
             f"scheduling {d['scheduling']}")
        want(d["inversion"] == 1, "inversion")
        want(d["stopped_by"] is None, f"stopped_by {d['stopped_by']}")
        want(d["high_wait_ns"] >= usleep_us * 1000, f"high_wait_ns {d['high_wait_ns']}")
    if expect == "pass":
        want(d["return_code"] == 0, f"return_code {d['return_code']}")
        want(verdict["result"] == "pass", f"verdict {verdict}")
        want(d["resolved"] == 1 and d["result"] == LINE, "resolved/result")
        want(text == [LINE], f"stdout {lines}")
        want(d["medium_finished"] == 0, "medium_finished")
        want(0 <= d["medium_ran_ns"] < work_ms * 1000000, f"medium_ran_ns {d['medium_ran_ns']}")
        want(d["low_priority_at_unlock"] == 3, f"low_priority_at_unlock {d['low_priority_at_unlock']}")
    elif expect == "fail":
        want(d["return_code"] == 3, f"return_code {d['return_code']}")
        want(verdict["result"] == "fail", f"verdict {verdict}")
        want(d["resolved"] == 0 and d["result"] is None, "resolved/result")
        want(text == [] and len(vlines) == 2 and vlines[1].startswith(
            "# Verdict: process 2: inversion: medium finished its "), f"stdout {lines}")
        want(d["medium_finished"] == 1, "medium_finished")
        want(d["medium_ran_ns"] >= work_ms * 1000000, f"medium_ran_ns {d['medium_ran_ns']}")
        want(d["high_wait_ns"] >= work_ms * 1000000, f"high_wait_ns {d['high_wait_ns']}")
        want(d["low_priority_at_unlock"] == 1, f"low_priority_at_unlock {d['low_priority_at_unlock']}")
    else:
        want(d["return_code"] == (4 if asked else 0), f"return_code {d['return_code']}")
        want(d["stopped_by"] == expect, f"stopped_by {d['stopped_by']}")
        want(d["resolved"] is None and d["inversion"] == 0, "resolved/inversion")
        want(d["medium_finished"] == 0, "medium_finished")
        want(verdict["result"] == "inconclusive" and verdict["partial"] and
             verdict["stop"]["cause"] == expect, f"verdict {verdict}")
    want(isinstance(dict(d["environment"]).get("preflight"), list), "environment")
    return [f"{path}: {e}" for e in errors]


def main():
    args = sys.argv[1:]
    if not args or len(args) % 7:
        sys.exit(__doc__)
    errors = []
    for i in range(0, len(args), 7):
        errors += check(args[i:i + 7])
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
