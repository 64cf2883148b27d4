#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Read an rt-tests --json file as Linaro's test definitions do.

usage: linaro_json_result.py TESTNAME FILE...

Writes to FILE.result (one Python start for all: it costs seconds on a
loaded machine; the harness runs one per file) the result lines Linaro's automated/lib/
parse_rt_tests_results.py (Linaro/test-definitions @ 71b374b1; see
tests/harness/README) prints for it, written anew from its description:
  "num_threads" present: for i in 0..num_threads-1, thread["<i>"] (or its
  "receiver") gives "t<i>-min-latency pass <min> us", then avg, max;
  "num_irqs" present: irq["<i>"] likewise as "i<i>-..."; else, "inversion"
  present: "inversion pass <inversion> count" and an empty line;
  then "<TESTNAME> pass" when int(return_code) == 0, else "<TESTNAME> fail".
A key it needs and does not find fails as there (no FILE.result, exit 1,
the key named on stderr).
Besides, stricter than the harness (exit 1, on stderr): the numbers it
reads are JSON integers (return_code, inversion, num_threads, min/avg/max),
not booleans, strings or floats; cyclicdeadline's avg is a number (2.4
writes it with two decimals).
"""
import json
import sys


def strict_int(what, value, problems):
    if not isinstance(value, int) or isinstance(value, bool):
        problems.append("%s is %r, not a JSON integer" % (what, value))


def strict_number(what, value, problems):
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        problems.append("%s is %r, not a JSON number" % (what, value))


FLOAT_AVG = ("cyclicdeadline",)


def parse(name, path, data):
    problems = []
    lines = []
    try:
        if "num_threads" in data:
            strict_int("num_threads", data["num_threads"], problems)
            for i in range(int(data["num_threads"])):
                t = data["thread"][str(i)]
                if "receiver" in t:
                    t = t["receiver"]
                for key in ("min", "avg", "max"):
                    check = strict_number if key == "avg" and name in FLOAT_AVG else strict_int
                    check("thread %d %s" % (i, key), t[key], problems)
                    lines.append("t%d-%s-latency pass %s us" % (i, key, t[key]))
        if "num_irqs" in data:
            for i in range(int(data["num_irqs"])):
                q = data["irq"][str(i)]
                for key in ("min", "avg", "max"):
                    lines.append("i%d-%s-latency pass %s us" % (i, key, q[key]))
        elif "inversion" in data:
            strict_int("inversion", data["inversion"], problems)
            lines.append("inversion pass %s count" % data["inversion"])
            lines.append("")
        strict_int("return_code", data["return_code"], problems)
        lines.append("%s %s" % (name, "pass" if int(data["return_code"]) == 0 else "fail"))
    except (KeyError, TypeError, ValueError) as e:
        print("%s: the harness's parser fails here: %s %s" % (path, type(e).__name__, e),
              file=sys.stderr)
        return 1
    with open(path + ".result", "w", encoding="utf-8") as f:
        for ln in lines:
            f.write(ln + "\n")
    for p in problems:
        print("%s: %s" % (path, p), file=sys.stderr)
    return 1 if problems else 0


def main():
    rc = 0
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: %s" % (path, e), file=sys.stderr)
            rc = 1
            continue
        rc |= parse(sys.argv[1], path, data)
    return rc


if __name__ == "__main__":
    sys.exit(main())
