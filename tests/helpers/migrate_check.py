#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check rt-migrate-test's --json against its text output, its exit code and
its own per-iteration data.

usage: migrate_check.py [JSON STDOUT EXIT NR_TASKS LOOPS CHECK STOPPED_BY]...
(several runs in one call: a Python start costs seconds on a loaded machine;
CHECK is 0 or 1, STOPPED_BY "null" for none)

Proves: the keys and their order (2.4's header and keys, then ours, then
"scheduling" and "environment"); the per-iteration table on stdout is the
JSON's "iterations"; each task block's Max/Min/Tot/Avg and the JSON's
min/max/total/avg are those of its start times; the verdict agrees with the
data: re-judging every iteration here (a task that started more than maxerr
after the nearest lower-priority task before it, with fewer loops, after that
one's end, or ending more than maxerr after it) finds the same first task out
of order, or none; Passed!/Failed! (-c), the "# Verdict:" lines (only with
--verdict, or a -c FAIL), "verdict" (lib's one: partial after a signal),
"return_code" and the exit code (0, 3 for a -c or asked FAIL, 4 for an asked
INCONCLUSIVE, 128 + the stopping signal) all say the same; the tasks ran at SCHED_FIFO.
"""
import json
import re
import sys

KEYS = ["file_version", "cmdline:", "rt_test_version:", "start_time", "end_time",
        "return_code", "sysinfo", "num_threads", "thread", "loops", "iterations_done",
        "run_time_ms", "sleep_time_ms", "maxerr_us", "equal", "check", "duration_s",
        "main_prio", "stopped_by", "iterations", "verdict", "scheduling", "environment"]
THREAD_KEYS = ["prio", "min", "avg", "max", "total", "tid", "end_min", "end_max",
               "loops_min", "loops_max", "loops_total"]
SIGNALS = {"SIGINT": 2, "SIGTERM": 15, "SIGHUP": 1}
errors = []


def check(cond, what):
    if not cond:
        errors.append(what)


def judge(doc, n):
    """The first (iteration, task, lower) out of order, or None."""
    prio = [doc["thread"][str(t)]["prio"] for t in range(n)]
    maxerr = doc["maxerr_us"]
    for i, it in enumerate(doc["iterations"]):
        st, en, lo = it["start"], it["len"], it["loops"]
        for t in range(1, n):
            low = [j for j in range(t) if prio[j] < prio[t]]
            if not low:
                continue
            j = low[-1]
            if st[t] - st[j] > maxerr and (lo[t] < lo[j] or st[t] > en[j]
                                           or en[t] - en[j] > maxerr):
                return i, t, j
    return None


def table(text, n):
    """The per-iteration rows of stdout: [(start, len, loops)...]."""
    lines = text.split("\n")
    check(lines[0] == "Iter: " + "".join("%6d  " % t for t in range(n)), "Iter: line")
    rows, k = [], 1
    while k < len(lines) and re.match(r"^ *\d+:   ", lines[k]):
        def cols(line, head):
            check(line.startswith(head), "row %r" % line)
            fields = re.findall(r" *-?\d+  ", line[len(head):])
            vals = [int(x) for x in fields]
            check(head + "".join("%6d  " % v for v in vals) == line and len(vals) == n,
                  "columns of %r" % line)
            return vals
        check(lines[k].startswith("%4d:   " % len(rows)), "iteration number %r" % lines[k])
        rows.append((cols(lines[k], lines[k][:8]), cols(lines[k + 1], " len:   "),
                     cols(lines[k + 2], " loops: ")))
        check(lines[k + 3] == "", "blank line after iteration %d" % len(rows))
        k += 4
    return rows, lines[k:]


def one(path, out_path, exit_code, n, loops, want_check, stopped_by):
    with open(path) as f:
        doc = json.load(f)
    with open(out_path) as f:
        text = f.read()
    exit_code, n, loops = int(exit_code), int(n), int(loops)
    want_check = want_check == "1"
    stopped_by = None if stopped_by == "null" else stopped_by
    check(list(doc) == KEYS, "keys %s" % list(doc))
    check(doc["num_threads"] == n and doc["loops"] == loops, "num_threads/loops")
    check(doc["check"] == want_check, "check")
    check(doc["stopped_by"] == stopped_by or (stopped_by is None and doc["stopped_by"] == "check"),
          "stopped_by %s" % doc["stopped_by"])
    its = doc["iterations"]
    check(len(its) == doc["iterations_done"] and len(its) <= loops, "iterations_done")
    if stopped_by is None and doc["stopped_by"] is None:
        check(len(its) == loops, "a run not stopped did all its loops")
    rows, rest = table(text, n)
    check([(r["start"], r["len"], r["loops"]) for r in its] == [tuple(r) for r in rows],
          "the table is the JSON's iterations")
    check(re.match(r"^Parent pid: \d+$", rest[0]) is not None, "Parent pid line")
    k = 1
    for t in range(n):
        th = doc["thread"][str(t)]
        check(list(th) == THREAD_KEYS, "thread keys %s" % list(th))
        starts = [r["start"][t] for r in its]
        if starts:
            check(th["min"] == min(starts) and th["max"] == max(starts), "min/max task %d" % t)
            check(th["total"] == sum(starts) and th["avg"] == sum(starts) // len(starts),
                  "total/avg task %d" % t)
        block = rest[k:k + 6]
        check(block == [" Task %d (prio %d) (pid %d):" % (t, th["prio"], th["tid"]),
                        "   Max: %d us" % th["max"], "   Min: %d us" % th["min"],
                        "   Tot: %d us" % th["total"], "   Avg: %d us" % th["avg"], ""],
              "task block %d: %s" % (t, block))
        k += 6
    tail = rest[k:]
    found = judge(doc, n)
    v = doc["verdict"]
    asked = "--verdict" in doc["cmdline:"]
    failed = v["result"] == "fail"
    # the verdict judges every iteration measured (-c stopped at the first failure)
    check(failed == (found is not None), "verdict %s, re-judged %s" % (v["result"], found))
    vl = [l for l in tail if l.startswith("# Verdict:")]
    plain = [l for l in tail if not l.startswith("# Verdict:")]
    shown = asked or (want_check and failed)
    check(bool(vl) == shown, "verdict lines %s (asked %s)" % (vl, asked))
    if vl:
        check(vl[0] == "# Verdict: " + v["result"].upper(), "verdict line %r" % vl[0])
    if want_check and its:
        check(plain == [" Failed!" if failed else " Passed!", ""], "Passed!/Failed! %r" % plain)
    else:
        check(plain == [""], "no -c: nothing after the task blocks: %s" % plain)
    if failed:
        i, t, j = found
        b = v["broken"][0]
        check((b["limit"], b["task"]) == ("order", t), "broken %s, re-judged %s" % (b, found))
        if want_check:
            check(i == len(its) - 1, "-c stops at the first failure")
        if vl:
            check(vl[1].startswith("# Verdict: task %d: order: iteration %d: task %d (prio %d) "
                                   "started %d us after task %d (prio %d), which ran first" %
                                   (t, i, t, doc["thread"][str(t)]["prio"],
                                    its[i]["start"][t] - its[i]["start"][j], j,
                                    doc["thread"][str(j)]["prio"])), "reason %r" % vl[1])
    if failed and (want_check or asked):
        want_rc = 3
    elif asked and v["result"] != "pass":
        want_rc = 4
    else:
        want_rc = 128 + SIGNALS[stopped_by] if stopped_by in SIGNALS else 0
    check(exit_code == want_rc, "exit %d, expected %d" % (exit_code, want_rc))
    check(v["partial"] == (stopped_by in SIGNALS), "partial %s, stopped by %s" % (v["partial"], stopped_by))
    check(doc["return_code"] == exit_code, "return_code %d, exit %d" % (doc["return_code"],
                                                                         exit_code))
    check(doc["scheduling"] == {"policy": "fifo", "realtime": 1}, "scheduling")


def main(argv):
    if not argv or len(argv) % 7:
        sys.exit(__doc__)
    for k in range(0, len(argv), 7):
        before = len(errors)
        one(*argv[k:k + 7])
        for e in errors[before:]:
            print("%s: %s" % (argv[k], e))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
