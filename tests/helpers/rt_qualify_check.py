#!/usr/bin/env python3
"""Check an rt-qualify result directory: summary.json's shape, and that its
figures are the tools' own (each step's result, max, samples and verdict
object equal those of the tool's JSON), the overall verdict follows the
steps', the load's CPU time is there when a load ran, junit.xml parses.

usage: rt_qualify_check.py DIR [--result R] [--partial] [--load NAME]
                           [--min-load-share F] [--steps-run N]
Exit 0 when all holds, 1 with the reasons on stderr.
"""
import argparse
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return (isinstance(a, (int, float)) and isinstance(b, (int, float))
                and math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6))
    return a == b and type(a) is type(b)


def tool_figures(doc):
    if "max_latency_us" in doc:  # hwlatdetect
        return doc["max_latency_us"], doc.get("samples_recorded", 0)
    mx, n = None, 0
    for t in doc.get("thread", {}).values():
        if isinstance(t.get("max"), int):
            mx = t["max"] if mx is None else max(mx, t["max"])
        n += t.get("cycles", t.get("samples", 0))
    return mx, n


def check_step(d, st):
    name = st["name"]
    for k, typ in (("tool", str), ("ran", bool), ("stopped", bool), ("result", str),
                   ("samples", int), ("duration_s", int)):
        check(isinstance(st.get(k), typ), f"{name}: {k} is not a {typ.__name__}")
    check(st["result"] in ("pass", "fail", "inconclusive", "error", "not run"),
          f"{name}: result {st['result']!r}")
    if not st["ran"]:
        check(st["result"] == "not run", f"{name}: not run but result {st['result']}")
        return False
    path = os.path.join(d, st["json"])
    if not os.path.exists(path):
        check(st["result"] == "error" and st["verdict"] is None,
              f"{name}: no {st['json']} but result {st['result']}")
        return True
    with open(path) as f:
        doc = json.load(f)
    v = doc.get("verdict")
    check(isinstance(v, dict), f"{name}: the tool's JSON has no verdict")
    if isinstance(v, dict):
        check(st["result"] == v.get("result"),
              f"{name}: result {st['result']} but the tool's {v.get('result')}")
        check(same(st["verdict"], v), f"{name}: verdict {st['verdict']} != the tool's {v}")
    mx, n = tool_figures(doc)
    check(st["max_latency_us"] == mx, f"{name}: max {st['max_latency_us']} != the tool's {mx}")
    check(st["samples"] == n, f"{name}: samples {st['samples']} != the tool's {n}")
    check(st["exit_code"] == doc.get("return_code", st["exit_code"]),
          f"{name}: exit {st['exit_code']} but the tool's return_code {doc.get('return_code')}")
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--result")
    ap.add_argument("--partial", action="store_true")
    ap.add_argument("--load")
    ap.add_argument("--min-load-share", type=float)
    ap.add_argument("--steps-run", type=int)
    a = ap.parse_args()
    with open(os.path.join(a.dir, "summary.json")) as f:
        s = json.load(f)
    for k in ("cmdline:", "start_time", "end_time", "return_code", "verdict", "findings",
              "load", "steps", "files", "environment", "limits", "measured_cpus"):
        check(k in s, f"summary.json has no {k}")
    steps = s["steps"]
    check([st["name"] for st in steps] == ["hardware-noise", "cyclictest", "oslat"],
          f"steps {[st['name'] for st in steps]}")
    ran = sum(check_step(a.dir, st) for st in steps)
    # a step stopped before its first sample fails in its tool, not the machine
    results = ["inconclusive" if st["result"] == "fail" and st["stopped"] and not st["samples"]
               else st["result"] for st in steps]
    v = s["verdict"]
    want = ("fail" if "fail" in results else
            "pass" if all(r == "pass" for r in results) and not v["partial"]
            and not s["load"]["ended_early"] else "inconclusive")
    check(v["result"] == want, f"verdict {v['result']}, steps {results}: expected {want}")
    check(v["partial"] == (s["stopped_by"] is not None), "partial without stopped_by")
    rc = {"pass": 0, "fail": 3}.get(v["result"], 4)
    check(s["return_code"] in (rc, 1), f"return_code {s['return_code']} for {v['result']}")
    for f_ in s["findings"]:
        check(f_["kind"] in ("problem", "note") and isinstance(f_["what"], str),
              f"finding {f_}")
    if a.result:
        check(v["result"] == a.result, f"verdict {v['result']}, expected {a.result}")
    check(v["partial"] == a.partial, f"partial {v['partial']}, expected {a.partial}")
    if a.steps_run is not None:
        check(ran == a.steps_run, f"{ran} steps ran, expected {a.steps_run}")
    load = s["load"]
    if a.load:
        check(load["name"] == a.load, f"load {load['name']}, expected {a.load}")
    if a.min_load_share is not None:
        check(load["started"] and isinstance(load["cpu_s"], (int, float)),
              f"load: no CPU time ({load})")
        if isinstance(load.get("cpu_share"), (int, float)):
            check(a.min_load_share <= load["cpu_share"] <= 1.05,
                  f"load used {load['cpu_share']} of its CPUs, expected at least "
                  f"{a.min_load_share}")
    if s["files"]["junit"]:
        ET.parse(os.path.join(a.dir, "junit.xml"))
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
