#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a tool's JSON "environment" against this machine's /proc and /sys.

usage: env_check.py JSON CPUS REALTIME PMQOS [STDERR SHOWN]

Proves: every field equals what /proc, /sys and the limits say (read here
independently), null where the kernel has no such file, and the preemption
mode's source or the reason it is unknown is what reading debugfs here
gives; "cpus" lists the CPUS given (comma-separated, in order); "preflight"
holds exactly the warnings this machine's state calls for (REALTIME: 1 when
the run was real-time, PMQOS: 1 when cyclictest held /dev/cpu_dma_latency),
each once. With STDERR: when SHOWN is 1 its "WARN: preflight: " lines are
those of the JSON, byte for byte and in order; when 0 it has none.
"""
import errno
import glob
import json
import os
import re
import resource
import sys


def text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().rstrip()
    except OSError:
        return None


def number(path):
    t = text(path)
    return int(t) if t is not None and re.fullmatch(r"-?\d+", t) else None


def count_list(lst):
    if lst is None:
        return None
    n = 0
    for part in filter(None, lst.split(",")):
        a, _, b = part.partition("-")
        n += int(b or a) - int(a) + 1
    return n


def in_list(lst, cpu):
    for part in filter(None, (lst or "").split(",")):
        a, _, b = part.partition("-")
        if int(a) <= cpu <= int(b or a):
            return True
    return False


def debugfs_dir():
    """The first debugfs mount point, None when none; False when /proc/mounts is unreadable."""
    try:
        with open("/proc/mounts", encoding="utf-8") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 3 and fields[2] == "debugfs" and "\\" not in fields[1]:
                    return fields[1]
    except OSError:
        return False
    return None


def preempt_mode(model):
    """(mode, mode_source, mode_unknown_reason) as reading debugfs here gives them."""
    d = debugfs_dir()
    if d is None:
        return None, None, "debugfs not mounted"
    path = (d or "/sys/kernel/debug") + "/sched/preempt"
    try:
        with open(path, encoding="utf-8") as f:
            content = f.read()
    except OSError as e:
        if e.errno == errno.ENOENT and model == "PREEMPT_DYNAMIC":
            return None, None, "no %s (a kernel without CONFIG_SCHED_DEBUG)" % path
        if e.errno == errno.ENOENT:
            return None, None, "no dynamic preemption (PREEMPT_DYNAMIC off)"
        return None, None, "%s not readable: %s" % (path, os.strerror(e.errno))
    m = re.search(r"\(([^)]*)\)", content)
    if not m:
        return None, None, "%s names no current mode in parentheses" % path
    return m.group(1), path, None


def limit(v):
    return "unlimited" if v == resource.RLIM_INFINITY else v


def expected(cpus):
    version = text("/proc/sys/kernel/version")
    source = "kernel_version"
    if text("/sys/kernel/realtime") == "1":
        model, source = "PREEMPT_RT", "/sys/kernel/realtime"
    elif "PREEMPT_RT" in (version or ""):
        model = "PREEMPT_RT"
    elif "PREEMPT_DYNAMIC" in (version or ""):
        model = "PREEMPT_DYNAMIC"
    elif re.search(r"(^| )PREEMPT( |$)", version or ""):
        model = "PREEMPT"
    else:
        model, source = None, None
    mode, mode_source, unknown = preempt_mode(model)
    cmdline = text("/proc/cmdline")
    nocbs = re.search(r"(?:^| )rcu_nocbs=(\S+)", cmdline or "")
    nohz = text("/sys/devices/system/cpu/nohz_full")
    cpuinfo = text("/proc/cpuinfo") or ""
    flags = re.search(r"^flags\s*:(.*)$", cpuinfo, re.M)
    model_name = re.search(r"^model name\s*:\s*(.*)$", cpuinfo, re.M)
    smt = text("/sys/devices/system/cpu/smt/active")
    hv_type = text("/sys/hypervisor/type")
    present = (None if not flags else int("hypervisor" in flags.group(1).split()))
    if hv_type is not None and present is None:
        present = 1
    comms = [text(p) for p in glob.glob("/proc/[0-9]*/comm")]
    cpu_objs = []
    for cpu in cpus:
        base = "/sys/devices/system/cpu/cpu%d" % cpu
        idle = None
        for k in range(64):
            name = text("%s/cpuidle/state%d/name" % (base, k))
            if name is None:
                break
            if number("%s/cpuidle/state%d/disable" % (base, k)) not in (0, None):
                continue
            idle = {"name": name, "exit_latency_us": number("%s/cpuidle/state%d/latency" % (base, k))}
        cpu_objs.append({"cpu": cpu,
                         "isolated": int(in_list(text("/sys/devices/system/cpu/isolated"), cpu)),
                         "governor": text(base + "/cpufreq/scaling_governor"),
                         "deepest_idle_state": idle})
    return {
        "kernel_release": text("/proc/sys/kernel/osrelease"),
        "kernel_version": version,
        "kernel_cmdline": cmdline,
        "preemption": {"model": model, "mode": mode, "model_source": source,
                       "mode_source": mode_source, "mode_unknown_reason": unknown},
        "isolcpus": text("/sys/devices/system/cpu/isolated"),
        "nohz_full": "" if nohz == "(null)" else nohz,
        "rcu_nocbs": nocbs.group(1) if nocbs else None,
        "clocksource": text("/sys/devices/system/clocksource/clocksource0/current_clocksource"),
        "cpus": cpu_objs,
        "smt": None if smt is None else int(smt == "1"),
        "sched_rt_runtime_us": number("/proc/sys/kernel/sched_rt_runtime_us"),
        "sched_rt_period_us": number("/proc/sys/kernel/sched_rt_period_us"),
        "rlimit_rtprio": dict(zip(("soft", "hard"),
                                  map(limit, resource.getrlimit(resource.RLIMIT_RTPRIO)))),
        "rlimit_memlock": dict(zip(("soft", "hard"),
                                   map(limit, resource.getrlimit(resource.RLIMIT_MEMLOCK)))),
        "hypervisor": {"present": present, "type": hv_type},
        "irqbalance": int("irqbalance" in comms),
        "cpu_model": model_name.group(1) if model_name else None,
        "cpus_online": count_list(text("/sys/devices/system/cpu/online")),
        "cpus_present": count_list(text("/sys/devices/system/cpu/present")),
        "preflight": None,  # checked against expected_warnings()
        "run_id": None,  # boot id, pid, start: checked below
    }


def expected_warnings(env, realtime, pmqos):
    want = []
    if not realtime:
        want.append("measuring without a real-time priority")
    if env["sched_rt_runtime_us"] is not None and env["sched_rt_runtime_us"] >= 0:
        want.append("RT throttling is active")
    if env["isolcpus"] and any(not c["isolated"] for c in env["cpus"]):
        want.append("not isolated while")
    if any(c["governor"] not in (None, "performance") for c in env["cpus"]):
        want.append("cpufreq governor other than performance")
    if not pmqos and any(c["deepest_idle_state"] and
                         (c["deepest_idle_state"]["exit_latency_us"] or 0) > 10
                         for c in env["cpus"]):
        want.append("idle states deeper than")
    if env["hypervisor"]["present"] == 1:
        want.append("running in a virtual machine")
    return want


def main():
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
    cpus = [int(c) for c in sys.argv[2].split(",")]
    errors = []
    got = doc.get("environment")
    want = expected(cpus)
    if got is None:
        errors.append("no environment object")
    else:
        if list(got) != list(want):
            errors.append("keys %s, expected %s" % (list(got), list(want)))
        for key in want:
            if key.startswith("rlimit_") and isinstance(got.get(key), dict):
                # the tool may raise its soft limit up to the hard one
                w, g = want[key], got[key]
                if g.get("hard") != w["hard"] or g.get("soft") not in (w["soft"], w["hard"]):
                    errors.append("%s: %r, the test's limits are %r" % (key, g, w))
            elif key == "preflight":
                continue
            elif key == "run_id":
                boot = open("/proc/sys/kernel/random/boot_id").read().strip()
                if not re.fullmatch(re.escape(boot) + r"-[0-9]+-[0-9]{19}", got.get(key) or ""):
                    errors.append("run_id %r: not boot id, pid, start in ns" % got.get(key))
            elif got.get(key) != want[key]:
                errors.append("%s: %r, /proc and /sys say %r" % (key, got.get(key), want[key]))
    if got is not None:
        pre = got.get("preflight")
        expect = expected_warnings(want, sys.argv[3] == "1", sys.argv[4] == "1")
        if not isinstance(pre, list) or not all(isinstance(w, str) for w in pre):
            errors.append("preflight: %r is no list of strings" % (pre,))
            pre = []
        # rt_isolation's warnings (cyclictest and the pair tools) come last
        every = pre
        pre = [w for w in pre if " in the affinity of device interrupt" not in w and
               "not isolated from kernel housekeeping" not in w]
        if len(pre) != len(expect) or any(w not in ln for w, ln in zip(expect, pre)) or \
           every[:len(pre)] != pre:
            errors.append("preflight %s, expected ones about %s (in that order)" % (pre, expect))
        if len(sys.argv) > 5:
            lines = [ln for ln in open(sys.argv[5], encoding="utf-8").read().splitlines()
                     if ln.startswith("WARN: preflight: ")]
            shown = ["WARN: preflight: " + w for w in every] if sys.argv[6] == "1" else []
            if lines != shown:
                errors.append("stderr's preflight lines %s, expected %s" % (lines, shown))
    for e in errors:
        print("env: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
