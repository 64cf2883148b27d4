#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the synthetic results the rt-latency-report junit tests read.

  junit_inputs.py DIR

DIR/ct.json    cyclictest, 2 threads, limits --max-lat 100 (abbreviated, its
               value apart) and --max-percentile=99.90:80; thread 1 broke
               max-latency (150 > 100)
DIR/pair.json  ptsematest, 2 pairs, --max-latency=50; pair 1 measured
               nothing (the verdict's "samples")
DIR/mig.json   rt-migrate-test without -c: verdict null (not checked)
DIR/hb.json    hackbench that ended with exit status 1, no verdict
DIR/dead.json  signaltest whose thread 0 died (the verdict's "failed")
DIR/nolimit.json  cyclictest without limits: one case per thread, thread 1
               with 0 cycles
The scheduler tools carry the shared verdict object (issue 29):
DIR/pi.json    pi_stress, 3 groups: group 1 stuck, group 2 without inversions
               (inconclusive: nothing checked)
DIR/ssdd.json  ssdd, 3 pairs: pair 1 failed (a mismatch), pair 2 died
DIR/dl.json    deadline_test, 2 threads: thread 0 missed 5 deadlines >
               --max-misses 0, thread 1 ran no period
DIR/migc.json  rt-migrate-test -c: task 1 ran after a lower one (-c stopped
               the run after 2 of 3 loops: not partial, as the tool says)
DIR/ql.json    queuelat --verdict: the queue exceeded (a run-wide entry)
DIR/pip.json   pip_stress: the high priority process's inversion
DIR/inc.json   cyclictest, 2 threads, --max-percentile=99.99:50 not proven
               (inconclusive: thread 0 needs 35887 more samples, thread 1's
               more would not decide) and --max-percentile=50:4 (thread 1
               broke it: 6 > 4)
DIR/incv.json  cyclictest whose verdict is inconclusive without its broken
               limits (a verdict case of its own)
"""
import json
import os
import sys

ENV = {
    "kernel_release": "6.1.0-rt",
    "kernel_version": "#1 SMP PREEMPT_RT",
    "preemption": {"model": "PREEMPT_RT", "mode": None},
    "isolcpus": "1",
    "cpus": [{"cpu": 0, "isolated": 0}, {"cpu": 1, "isolated": 1}],
    "cpu_model": "Test CPU",
}


def header(cmdline, rc, start="Tue, 14 Nov 2023 22:13:20 +0000",
           end="Tue, 14 Nov 2023 22:13:30 +0000"):
    return {
        "file_version": 1,
        "cmdline:": cmdline,
        "rt_test_version:": "2.40",
        "start_time": start,
        "end_time": end,
        "return_code": rc,
        "sysinfo": {"sysname": "Linux", "nodename": "board1.lab", "release": "6.1.0-rt",
                    "machine": "x86_64", "realtime": 1},
    }


def thread(cycles, mn, avg, mx, p99):
    t = {"cycles": cycles, "min": mn, "max": mx, "avg": avg, "cpu": 0, "node": 0,
         "overruns": 0}
    if cycles:
        t["percentiles"] = {"p50": mn, "p99": p99, "p99.9": mx}
        t["latency_histogram"] = {"layout": "log-linear", "exact_below": 128,
                                  "sub_buckets": 128, "count": cycles, "max": mx,
                                  "buckets": {str(mn): cycles - 1, str(mx): 1}}
    else:
        t.update(min=None, max=None, avg=None)
    return t


def stop(cause, done, asked, unit, partial=False):
    return {"cause": cause, "done": done, "asked": asked, "unit": unit}, partial


def verdict(result, broken, checked, stopped):
    """The shared verdict object of every tool (issue 29)."""
    st, partial = stopped
    return {"result": result, "broken": broken,
            "checked": [{"what": w, "count": n} for w, n in checked],
            "partial": partial, "stop": st}


def write(d, name, doc):
    with open(os.path.join(d, name), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def main():
    d = sys.argv[1]
    ct = header("cyclictest -q -t 2 -p 90 --max-lat 100 --max-percentile=99.90:80 "
                "--json=ct.json", 3)
    ct.update(num_threads=2, resolution_in_ns=0,
              thread={"0": thread(1000, 5, 7.25, 60, 40), "1": thread(1000, 6, 9.5, 150, 70)},
              scheduling={"policy": "fifo", "realtime": 1}, environment=ENV,
              verdict={"result": "fail", "broken": [
                  {"limit": "max-latency", "thread": 1, "value": 150, "bound": 100}]})
    write(d, "ct.json", ct)

    pair = header("ptsematest -q -t 2 -l 1000 --max-latency=50 --json=pair.json", 3)
    pair.update(num_threads=2, thread={
        "0": {"sender": {"cpu": 0, "priority": 90, "samples": 1000, "interval": 1000},
              "receiver": thread(1000, 3, 4.5, 30, 20)},
        "1": {"sender": {"cpu": 1, "priority": 90, "samples": 0, "interval": 1500},
              "receiver": thread(0, 0, 0, 0, 0)}},
        environment=ENV,
        verdict={"result": "fail", "broken": [
            {"limit": "samples", "pair": 1, "sender": 3, "receiver": 2, "value": 0,
             "bound": 0}]})
    for t in pair["thread"].values():
        for k in ("cycles", "cpu", "node", "overruns"):
            t["receiver"].pop(k, None)
    write(d, "pair.json", pair)

    mig = header("rt-migrate-test -l 3 --json=mig.json", 0)
    mig.update(num_threads=2, thread={"0": {"prio": 2, "min": 20086, "avg": 20136, "max": 20198},
                                      "1": {"prio": 3, "min": 64, "avg": 107, "max": 173}},
               check=False, verdict=None, environment=ENV)
    write(d, "mig.json", mig)

    hb = header("hackbench -l 10 --json=hb.json", 1)
    hb.update(messages=0, environment=ENV)
    write(d, "hb.json", hb)

    dead = header("signaltest -q -t 2 --max-latency=200 --json=dead.json", 3)
    dead.update(num_threads=2, thread={"0": thread(10, 5, 6.0, 9, 9),
                                       "1": thread(1000, 5, 6.0, 9, 9)},
                verdict={"result": "fail", "broken": [
                    {"limit": "failed", "thread": 0, "value": 4242, "bound": 0,
                     "detail": "child 4242 killed by signal 9 (Killed)"}]})
    write(d, "dead.json", dead)

    nolimit = header("cyclictest -q -t 2 --json=nolimit.json", 0)
    nolimit.update(num_threads=2, resolution_in_ns=1,
                   thread={"0": thread(500, 1500, 1600.5, 9000, 5000), "1": thread(0, 0, 0, 0, 0)})
    write(d, "nolimit.json", nolimit)

    pi = header("pi_stress -D 10 --groups=3 --json=pi.json", 3)
    pi.update(groups=3, group=[{"group": 0, "inversions": 1000, "stuck": 0},
                               {"group": 1, "inversions": 12, "stuck": 1},
                               {"group": 2, "inversions": 0, "stuck": 0}],
              watchdog_ms=3750, verdict=verdict("fail", [
                  {"limit": "stuck", "group": 1, "value": 4000, "bound": 3750, "unit": "ms",
                   "reason": "no inversion resolved for 4000 ms"},
                  {"limit": "evidence", "group": 2, "value": 0, "bound": 0, "unit": "",
                   "result": "inconclusive", "reason": "no inversion: nothing was checked"}],
                  [("inversions", 1012)], stop("completed", 10, 10, "s")))
    write(d, "pi.json", pi)

    ssdd = header("ssdd -f 3 -i 100 --json=ssdd.json", 3)
    ssdd.update(forks=3, pairs=[
        {"pair": 0, "steps": 100, "result": "pass"},
        {"pair": 1, "steps": 41, "result": "fail", "step": 41, "expected": "41",
         "got": "40"},
        {"pair": 2, "steps": 3, "result": "died", "error": "tracee 77 killed by signal 9"}],
        verdict=verdict("fail", [
            {"limit": "step", "pair": 1, "value": 41, "bound": 100, "unit": "steps",
             "reason": "step 41: expected 41, got 40"},
            {"limit": "evidence", "pair": 2, "value": 0, "bound": 0, "unit": "",
             "reason": "tracee 77 killed by signal 9"}],
            [("steps", 144)], stop("completed", 144, 300, "steps")))
    write(d, "ssdd.json", ssdd)

    dl = header("deadline_test -D 10 --max-misses 0 --json=dl.json", 3)
    dl.update(num_threads=2, thread={"0": {"tid": 10, "missed_deadlines": 5, "nr_periods": 900},
                                     "1": {"tid": 11, "missed_deadlines": 0, "nr_periods": 0}},
              verdict=verdict("fail", [
                  {"limit": "max-misses", "thread": 0, "value": 5, "bound": 0, "unit": "",
                   "reason": "5 deadline(s) and 0 period(s) missed in 900 periods"},
                  {"limit": "evidence", "thread": 1, "value": 0, "bound": 0, "unit": "",
                   "reason": "no period completed"}],
                  [("periods", 900)], stop("completed", 10, 10, "s")))
    write(d, "dl.json", dl)

    migc = header("rt-migrate-test -c -l 3 --json=migc.json", 3)
    migc.update(num_threads=2, check=True,
                thread={"0": {"prio": 2, "min": 20086, "avg": 20136, "max": 20198},
                        "1": {"prio": 3, "min": 64, "avg": 107, "max": 1730}},
                verdict=verdict("fail", [
                    {"limit": "order", "task": 1, "value": 1730, "bound": 20, "unit": "us",
                     "reason": "iteration 1: task 1 (prio 3) started 1730 us after task 0 "
                               "(prio 2), which ran first"}],
                    [("iterations", 2)], stop("completed", 2, 3, "loops")))
    write(d, "migc.json", migc)

    ql = header("queuelat -m 20000 -c 100 -p 13 -f 2000 -t 5 --verdict --json=ql.json", 3)
    ql.update(exceeded=True, verdict=verdict("fail", [
        {"limit": "max-len", "value": 465, "bound": 419, "unit": "packets",
         "reason": "queue length exceeded: 465 > 419 packets"}],
        [("blocks", 1200)], stop("completed", 5, 5, "s")))
    write(d, "ql.json", ql)

    pip = header("pip_stress --no-pi --json=pip.json", 3)
    pip.update(inversion=1, resolved=0, verdict=verdict("fail", [
        {"limit": "inversion", "process": 2, "value": 1000, "bound": 500, "unit": "ms",
         "reason": "unresolved priority inversion: <no PI>"}],
        [("inversions", 1)], stop("completed", 1, 1, "s")))
    write(d, "pip.json", pip)

    inc = header("cyclictest -q -t 2 -l 1000 --max-percentile=99.99:50 --max-percentile=50:4 "
                 "--json=inc.json", 3)
    inc.update(num_threads=2, resolution_in_ns=0,
               thread={"0": thread(1000, 3, 4.5, 60, 40), "1": thread(1000, 6, 9.5, 70, 45)},
               environment=ENV,
               verdict={"result": "fail", "broken": [
                   {"limit": "max-percentile=99.99", "thread": 0, "value": 60, "bound": 50,
                    "low": 45, "high": None, "confidence": 95, "result": "inconclusive",
                    "more_samples": 35887, "reason": "60, 95 % CI 45-?, need 35887 more samples"},
                   {"limit": "max-percentile=99.99", "thread": 1, "value": 70, "bound": 50,
                    "low": 45, "high": None, "confidence": 95, "result": "inconclusive",
                    "more_samples": None,
                    "reason": "70, 95 % CI 45-?, more samples would not decide"},
                   {"limit": "max-percentile=50", "thread": 1, "value": 6, "bound": 4,
                    "low": 6, "high": 6, "confidence": 95}]})
    write(d, "inc.json", inc)

    incv = header("cyclictest -q -t 1 -l 1000 --max-percentile=99.99:50 --json=incv.json", 3)
    incv.update(num_threads=1, resolution_in_ns=0, thread={"0": thread(1000, 3, 4.5, 60, 40)},
                verdict={"result": "inconclusive",
                         "reason": "thread 0: p99.99 60 us, 95 % CI 45-?"})
    write(d, "incv.json", incv)


if __name__ == "__main__":
    main()
