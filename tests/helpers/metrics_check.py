# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of the tools' --metrics files (Prometheus text format 0.0.4).

metrics_check.py file PROM JSON UNIT_NS VERDICT
    PROM is the last version of a run whose --json is JSON: per thread the
    cumulative counts at every bound equal the JSON's lossless histogram
    recomputed here, +Inf and _count the samples, the maximum the JSON's;
    the bounds are the documented ones; rt_verdict is VERDICT (1, 0, or
    "none": absent).
metrics_check.py partial PROM
    A version written during the run: every histogram cumulative and
    consistent (+Inf = _count = rt_samples_total).
metrics_check.py free-ports N
    N free loopback TCP ports, one a line.
metrics_check.py fleet URL MERGED.json SAMPLES EXPRS_FILE
    Against a Prometheus at URL that scrapes the boards: waits until
    sum(rt_latency_seconds_count) is SAMPLES, then checks that
    histogram_quantile over sum by (le) lies in the bucket of the bounds
    that holds rt-latency-report merge's percentile, and evaluates every
    expression of EXPRS_FILE (one a line; "#" comments) without error and
    with a result ("!EXPR": with none), retrying a few seconds for rules.
"""
import json
import re
import socket
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from loghist import bucket_high  # noqa: E402

NOMINAL_NS = [1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
              1000000, 2000000, 5000000, 10000000, 20000000, 50000000, 100000000]
LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)')


def bounds(unit_ns):
    """The largest bucket end at or below each nominal bound (independent of the C code)."""
    out = []
    for ns in NOMINAL_NS:
        v = ns // unit_ns
        best = None
        low = 0
        while low <= v:
            high = bucket_high(low)
            if high <= v:
                best = high
            low = high + 1
        out.append(best)
    return out


def parse(path, errors):
    samples = []
    typed = {}
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            typed[name] = kind
            continue
        if line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            errors.append("line %d unparsable: %r" % (n, line))
            continue
        labels = {}
        rest = m.group(3) or ""
        while rest:
            lm = LABEL.match(rest)
            if not lm:
                errors.append("line %d labels: %r" % (n, rest))
                break
            labels[lm.group(1)] = lm.group(2)
            rest = rest[lm.end():]
        samples.append((m.group(1), labels, float(m.group(4))))
    return samples, typed


def histograms(samples, errors):
    """{thread: {"le": [(bound_s, count)], "inf", "count", "sum", "samples", "max"}}"""
    h = {}
    for name, labels, value in samples:
        t = labels.get("thread", labels.get("pair"))
        if t is None:
            continue
        for key in ("tool", "cpu", "kernel", "preempt"):
            if key not in labels:
                errors.append("%s: no label %s" % (name, key))
        e = h.setdefault(int(t), {"le": []})
        if name == "rt_latency_seconds_bucket":
            if labels["le"] == "+Inf":
                e["inf"] = value
            else:
                e["le"].append((float(labels["le"]), labels["le"], value))
        elif name == "rt_latency_seconds_count":
            e["count"] = value
        elif name == "rt_latency_seconds_sum":
            e["sum"] = value
        elif name == "rt_samples_total":
            e["samples"] = value
        elif name == "rt_latency_max_seconds":
            e["max"] = value
    for t, e in h.items():
        counts = [c for _, _, c in e["le"]] + [e.get("inf")]
        if any(b is None or a > b for a, b in zip(counts, counts[1:])):
            errors.append("thread %d: not cumulative: %s" % (t, counts))
        if not e.get("inf") == e.get("count") == e.get("samples"):
            errors.append("thread %d: +Inf %s, _count %s, rt_samples_total %s" %
                          (t, e.get("inf"), e.get("count"), e.get("samples")))
    return h


def check_file(prom, json_path, unit_ns, verdict, errors):
    samples, typed = parse(prom, errors)
    h = histograms(samples, errors)
    want = bounds(unit_ns)
    result = json.load(open(json_path))
    threads = result["thread"]
    if typed.get("rt_latency_seconds") != "histogram":
        errors.append("rt_latency_seconds is not a histogram: %s" % typed)
    if len(h) != len(threads):
        errors.append("%d series, the JSON has %d threads" % (len(h), len(threads)))
    for key, th in threads.items():
        e = h.get(int(key))
        if e is None:
            continue
        th = th.get("receiver", th)  # a pair: its receiver's latencies
        lh = th["latency_histogram"]
        got = [(s, c) for _, s, c in e["le"]]
        if [round(float(s) * 1e9 / unit_ns) for s, _ in got] != want:
            errors.append("thread %s: bounds %s, want %s" % (key, [s for s, _ in got], want))
        for (s, c), b in zip(got, want):
            exact = sum(n for low, n in lh["buckets"].items() if bucket_high(int(low)) <= b)
            if c != exact:
                errors.append("thread %s: le=%s counts %d, the JSON's histogram %d" %
                              (key, s, c, exact))
        th = dict(th)
        th.setdefault("cycles", lh["count"])
        th.setdefault("max", lh["max"])
        if e["count"] != th["cycles"] or e["count"] != lh["count"]:
            errors.append("thread %s: _count %s, cycles %s" % (key, e["count"], th["cycles"]))
        if th["cycles"] and abs(e.get("max", -1) - th["max"] * unit_ns / 1e9) > 1e-12:
            errors.append("thread %s: max %s, JSON %s" % (key, e.get("max"), th["max"]))
        if th["cycles"] and "min" in th and not th["min"] * th["cycles"] * unit_ns / 1e9 - 1e-9 <= e["sum"] <= \
                th["max"] * th["cycles"] * unit_ns / 1e9 + 1e-9:
            errors.append("thread %s: _sum %s out of count*min..count*max" % (key, e["sum"]))
        if th["cycles"] and isinstance(th.get("avg"), (int, float)) and \
                abs(e["sum"] / th["cycles"] - th["avg"] * unit_ns / 1e9) > \
                1.01 * unit_ns / 1e9:
            errors.append("thread %s: _sum/_count %s, avg %s" % (key, e["sum"] / th["cycles"],
                                                                 th["avg"]))
    v = [value for name, _, value in samples if name == "rt_verdict"]
    if verdict == "none" and v:
        errors.append("rt_verdict %s without limits" % v)
    if verdict != "none" and v != [float(verdict)]:
        errors.append("rt_verdict %s, want %s" % (v, verdict))


def query(url, expr, at=None):
    args = {"query": expr}
    if at is not None:
        args["time"] = "%.3f" % at
    with urllib.request.urlopen(url + "/api/v1/query?" + urllib.parse.urlencode(args),
                                timeout=10) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError("%s: %s" % (expr, body))
    return body["data"]


def scalar(data):
    res = data["result"]
    if data["resultType"] == "scalar":
        return float(res[1])
    if len(res) != 1:
        raise RuntimeError("want one value, got %s" % res)
    return float(res[0]["value"][1])


def check_fleet(url, merged_path, samples, exprs_path, errors):
    deadline = time.time() + 20
    got = None
    while time.time() < deadline:
        try:
            got = scalar(query(url, "sum(rt_latency_seconds_count)"))
            # both boards' final files: the samples, and the verdicts
            if got == samples and scalar(query(url, "count(rt_verdict)")) == 2:
                break
        except (OSError, RuntimeError, ValueError):
            pass
        time.sleep(0.5)
    else:
        errors.append("Prometheus has %s samples, the runs %d" % (got, samples))
        return
    at = time.time()
    le = sorted(float(r["metric"]["le"]) for r in
                query(url, "sum by (le) (rt_latency_seconds_bucket)", at)["result"]
                if r["metric"]["le"] != "+Inf")
    merged = json.load(open(merged_path))
    for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
        prom = scalar(query(url, "histogram_quantile(%s, sum by (le) (rt_latency_seconds_bucket))"
                            % q, at))
        p_s = merged["percentiles"][name] / 1e6
        # Prometheus' bucket of its estimate: (lo, hi]
        hi = next((b for b in le if prom <= b + 1e-12), None)
        lo = max([0.0] + [b for b in le if b < (hi if hi is not None else float("inf")) - 1e-12])
        if hi is None:  # above the last bound: Prometheus answers the last bound
            ok = p_s > le[-1] and abs(prom - le[-1]) < 1e-12
        else:
            ok = lo < p_s + 1e-12 and p_s <= hi + 1e-12
        print("%s: Prometheus %.9f s in (%s, %s], merge %.9f s" % (name, prom, lo, hi, p_s))
        if not ok:
            errors.append("%s: Prometheus %.9f s (bucket %s..%s), merge %.9f s" %
                          (name, prom, lo, hi, p_s))
    total = sum(t["cycles"] for t in merged["thread"].values())
    if total != samples:
        errors.append("merge has %d samples, the runs %d" % (total, samples))
    if exprs_path:
        # rules evaluate every second: a few seconds for their first results
        deadline = time.time() + 10
        for line in open(exprs_path, encoding="utf-8"):
            expr = line.strip()
            if not expr or expr.startswith("#"):
                continue
            empty = expr.startswith("!")
            expr = expr.lstrip("!")
            while True:
                try:
                    data = query(url, expr)
                    err = None
                    if empty and data["result"]:
                        err = "a result where none is due: %s: %s" % (expr, data["result"])
                    elif not empty and not data["result"]:
                        err = "no result: %s" % expr
                except (OSError, RuntimeError) as e:
                    err = "%s: %s" % (expr, e)
                if not err or time.time() > deadline:
                    break
                time.sleep(0.5)
            if err:
                errors.append(err)
            else:
                print("ok: %s%s" % ("(none) " if empty else "", expr))


def main():
    errors = []
    cmd = sys.argv[1]
    if cmd == "file":
        check_file(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], errors)
    elif cmd == "partial":
        samples, _ = parse(sys.argv[2], errors)
        h = histograms(samples, errors)
        print(int(sum(e.get("count", 0) for e in h.values())))
    elif cmd == "free-ports":
        socks = []
        for _ in range(int(sys.argv[2])):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        for s in socks:
            print(s.getsockname()[1])
            s.close()
    elif cmd == "fleet":
        check_fleet(sys.argv[2], sys.argv[3], int(sys.argv[4]),
                    sys.argv[5] if len(sys.argv) > 5 else None, errors)
    for e in errors:
        print("error:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
