#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check ssdd's JSON against its arguments and its text output.

usage: ssdd_check.py JSON STDOUT FORKS ITERS OUTCOME [JSON STDOUT FORKS ITERS OUTCOME]...

OUTCOME: pass (every pair did every step), fail (pair 0 failed, the others
passed), SIGINT or SIGTERM (stopped: every pair stopped or passed).

Proves: 2.4's keys first and in order, then ssdd's (forks, iters, pairs,
steps, steps_expected, stopped_by, verdict, scheduling, environment);
return_code is the exit status the outcome calls for; each pair's pids are
those of its STARTING line, its steps agree with its result (all of them
when it passed, fewer otherwise) and with its STOPPED line; the steps add
up; the verdict (lib's one) names the failed pair's step as the text does,
"All tests PASSED." only for a run that did every step (not after a stop),
"# Verdict:" lines only with --verdict or on a FAIL, a stop is partial.
"""
import json
import re
import sys

HEADER = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
          "return_code", "sysinfo"]
KEYS = HEADER + ["forks", "iters", "pairs", "steps", "steps_expected", "stopped_by",
                 "error", "verdict", "scheduling", "environment"]
PAIR_KEYS = ["pair", "tracer_pid", "tracee_pid", "steps", "result", "time_ns", "steps_per_s"]


def to_dict(pairs):
    """The object_pairs_hook's lists of pairs, back to dicts all the way down."""
    if isinstance(pairs, list) and pairs and all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
        return {k: to_dict(x) for k, x in pairs}
    if isinstance(pairs, list):
        return [to_dict(x) for x in pairs]
    return pairs


def check(path, out_path, forks, iters, outcome):
    errors = []
    with open(path, encoding="utf-8") as f:
        d = json.load(f, object_pairs_hook=lambda kv: kv)
    keys = [k for k, _ in d]
    if keys != KEYS:
        return ["keys %s" % keys]
    d = dict(d)
    with open(out_path, encoding="utf-8") as f:
        text = f.read().splitlines()
    want_rc = {"pass": 0, "fail": 3, "SIGINT": 0, "SIGTERM": 0}[outcome]
    if d["return_code"] != want_rc:
        errors.append("return_code %s, expected %d" % (d["return_code"], want_rc))
    if d["forks"] != forks or d["iters"] != iters:
        errors.append("forks/iters %s/%s" % (d["forks"], d["iters"]))
    if d["steps_expected"] != forks * iters:
        errors.append("steps_expected %s" % d["steps_expected"])
    starting = {}
    stopped = {}
    for line in text:
        m = re.fullmatch(r"forktest#(\d+)/(\d+)/(\d+): STARTING", line)
        if m:
            starting[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
        m = re.fullmatch(r"forktest#(\d+)/(\d+): STOPPED by (SIG\w+) after (\d+) of (\d+) "
                         r"steps, no error", line)
        if m:
            stopped[int(m.group(1))] = (int(m.group(2)), m.group(3), int(m.group(4)))
    pairs = d["pairs"]
    if len(pairs) != forks:
        return errors + ["%d pairs" % len(pairs)]
    total = 0
    for i, p in enumerate(pairs):
        keys = [k for k, _ in p]
        p = dict(p)
        want = PAIR_KEYS + (["step", "expected", "got"] if p["result"] == "fail" else [])
        if keys != want:
            errors.append("pair %d keys %s" % (i, keys))
            continue
        total += p["steps"]
        if p["pair"] != i or starting.get(i) != (p["tracer_pid"], p["tracee_pid"]):
            errors.append("pair %d: pids %s, STARTING line %s" % (i, (p["tracer_pid"], p["tracee_pid"]), starting.get(i)))
        if p["result"] == "pass":
            if p["steps"] != iters or not p["time_ns"] or p["time_ns"] <= 0 or p["steps_per_s"] <= 0:
                errors.append("pair %d passed with %s" % (i, p))
        elif p["result"] == "fail":
            if outcome != "fail" or i != 0 or p["step"] != p["steps"] + 1 or p["steps"] >= iters \
                    or p["time_ns"] is not None:
                errors.append("pair %d failed: %s" % (i, p))
        elif p["result"] == "stopped":
            if outcome not in ("SIGINT", "SIGTERM") or p["steps"] >= iters or \
                    stopped.get(i) != (p["tracer_pid"], outcome, p["steps"]):
                errors.append("pair %d stopped: %s, line %s" % (i, p, stopped.get(i)))
        else:
            errors.append("pair %d: result %s" % (i, p["result"]))
    if d["steps"] != total:
        errors.append("steps %s, pairs add up to %d" % (d["steps"], total))
    v = to_dict(d["verdict"])
    asked = "--verdict" in d["cmdline:"]
    vlines = [l for l in text if l.startswith("# Verdict:")]
    plain = [l for l in text if not l.startswith("# Verdict:")]
    if bool(vlines) != (asked or v["result"] == "fail"):
        errors.append("verdict lines %s" % vlines)
    if outcome == "fail":
        p0 = dict(pairs[0])
        b = v["broken"]
        if v["result"] != "fail" or len(b) != 1 or b[0]["pair"] != 0 or b[0]["limit"] != "step" \
                or b[0]["value"] != p0["step"]:
            errors.append("verdict %s" % v)
        want = "# Verdict: pair 0 (#%d -> #%d): step: step %d: expected %s, got %s" % (
            p0["tracer_pid"], p0["tracee_pid"], p0["step"], p0["expected"], p0["got"])
        if vlines != ["# Verdict: FAIL", want] or plain[-1] != "One or more tests FAILED.":
            errors.append("text ends %s, expected %s" % (text[-3:], want))
    elif outcome == "pass":
        if v["result"] != "pass" or v["broken"] != [] or d["error"] is not None or v["partial"]:
            errors.append("verdict %s" % v)
        if plain[-1] != "All tests PASSED.":
            errors.append("text ends %s" % text[-2:])
    else:
        if not v["partial"] or v["stop"]["cause"] != outcome or v["result"] == "fail":
            errors.append("verdict %s" % v)
        if "All tests PASSED." in plain:
            errors.append("a stopped run says All tests PASSED.")
    want_stop = outcome if outcome in ("SIGINT", "SIGTERM") else None
    if d["stopped_by"] != want_stop:
        errors.append("stopped_by %s" % d["stopped_by"])
    sched = d["scheduling"]
    if [k for k, _ in sched] != ["policy", "realtime"]:
        errors.append("scheduling %s" % sched)
    return errors


def main():
    args = sys.argv[1:]
    if not args or len(args) % 5:
        sys.exit(__doc__)
    bad = []
    for i in range(0, len(args), 5):
        path, out, forks, iters, outcome = args[i:i + 5]
        bad += ["%s: %s" % (path, e) for e in check(path, out, int(forks), int(iters), outcome)]
    for e in bad:
        print(e)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
