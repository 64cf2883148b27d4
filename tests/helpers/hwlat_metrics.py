# SPDX-License-Identifier: GPL-2.0-or-later
"""hwlatdetect --metrics, computed here independently of the C code.

hwlat_metrics.py expect SAMPLES THRESHOLD_US VERDICT CPUS
    The whole file hwlatdetect writes for the samples of SAMPLES (one
    "CPU INNER OUTER COUNT" a line, -1: the line names no CPU / has no
    count field), with labels kernel="K",preempt="P": one series per CPU of
    CPUS (comma list, the tracing_cpumask) and per other CPU a sample names,
    rising, "any" first; buckets at the documented bounds (metrics_check's,
    from the lossless histogram's bucket ends); VERDICT 1, 0 or none.
hwlat_metrics.py strace LOG FILE
    An strace -f log of a run: every version of FILE was written to a
    temporary file, fsync'ed, then renamed over FILE; FILE itself was never
    opened for writing. Prints the number of versions.
"""
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from metrics_check import bounds  # noqa: E402

LABELS = 'kernel="K",preempt="P"'


def sec(us):
    frac = "%06d" % (us % 1000000)
    frac = frac.rstrip("0")
    return "%d%s" % (us // 1000000, "." + frac if frac else "")


def expect(samples_path, threshold_us, verdict, cpus):
    rows = [tuple(int(x) for x in line.split()) for line in open(samples_path) if line.strip()]
    counted = bool(rows) and rows[0][3] >= 0
    series = {int(c): [] for c in cpus.split(",") if c}
    for cpu, inner, outer, count in rows:
        spikes = (count if count >= 0 else 1) if counted else 1
        series.setdefault(cpu, []).append((max(inner, outer), spikes))
    out = []

    def lab(cpu):
        return 'tool="hwlatdetect",cpu="%s",%s' % ("any" if cpu < 0 else cpu, LABELS)

    out.append("# HELP rt_latency_seconds Latency of each sample: cumulative counts at "
               "or below exact bounds.")
    out.append("# TYPE rt_latency_seconds histogram")
    for cpu in sorted(series):
        vals = [v for v, _ in series[cpu]]
        for b in bounds(1000):
            out.append('rt_latency_seconds_bucket{%s,le="%s"} %d' %
                       (lab(cpu), sec(b), sum(v <= b for v in vals)))
        out.append('rt_latency_seconds_bucket{%s,le="+Inf"} %d' % (lab(cpu), len(vals)))
        out.append("rt_latency_seconds_sum{%s} %s" % (lab(cpu), sec(sum(vals))))
        out.append("rt_latency_seconds_count{%s} %d" % (lab(cpu), len(vals)))
    if any(series.values()):
        out.append("# HELP rt_latency_max_seconds Largest latency measured.")
        out.append("# TYPE rt_latency_max_seconds gauge")
        for cpu in sorted(series):
            if series[cpu]:
                out.append("rt_latency_max_seconds{%s} %s" %
                           (lab(cpu), sec(max(v for v, _ in series[cpu]))))
    out.append("# HELP rt_samples_total Latency samples measured.")
    out.append("# TYPE rt_samples_total counter")
    for cpu in sorted(series):
        out.append("rt_samples_total{%s} %d" % (lab(cpu), len(series[cpu])))
    if verdict != "none":
        out.append("# HELP rt_verdict Verdict of the run's limits: 1 PASS, 0 FAIL.")
        out.append("# TYPE rt_verdict gauge")
        out.append('rt_verdict{tool="hwlatdetect",%s} %s' % (LABELS, verdict))
    out.append("# HELP rt_hwlat_spikes_total Latencies above the threshold: the samples' "
               "count fields summed, else the samples.")
    out.append("# TYPE rt_hwlat_spikes_total counter")
    for cpu in sorted(series):
        out.append("rt_hwlat_spikes_total{%s} %d" % (lab(cpu), sum(s for _, s in series[cpu])))
    out.append("# HELP rt_hwlat_threshold_seconds The hwlat tracer's threshold "
               "(tracing_thresh): only latencies above it are samples.")
    out.append("# TYPE rt_hwlat_threshold_seconds gauge")
    out.append('rt_hwlat_threshold_seconds{tool="hwlatdetect",%s} %s' % (LABELS, sec(threshold_us)))
    print("\n".join(out))


def whole_calls(log):
    """strace -f lines, a call split by another thread's ("fsync(3 <unfinished
    ...>" then "<... fsync resumed>) = 0") joined back into one."""
    pending = {}
    for raw in open(log):
        m = re.match(r'(\d+)\s+(.*)$', raw.rstrip("\n"))
        if not m:
            continue
        pid, rest = m.groups()
        if rest.endswith("<unfinished ...>"):
            pending[pid] = rest[:-len("<unfinished ...>")].rstrip()
            continue
        resumed = re.match(r'<\.\.\. \w+ resumed>\s?(.*)$', rest)
        if resumed:
            if pid not in pending:
                continue
            rest = pending.pop(pid) + resumed.group(1)
        yield pid + " " + rest


def check_strace(log, path):
    """Per process: fd -> temporary path; a version = open tmp, fsync(fd), rename(tmp, path)."""
    opened = {}   # (pid, fd) -> tmp path
    synced = set()
    versions = 0
    errors = []
    for line in whole_calls(log):
        m = re.match(r'(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+)', line)
        if not m:
            continue
        pid, call, args, ret = m.group(1), m.group(2), m.group(3), int(m.group(4))
        names = re.findall(r'"([^"]*)"', args)
        if call == "openat" and names and ret >= 0:
            if names[0] == path and re.search(r"O_WRONLY|O_RDWR|O_TRUNC|O_CREAT", args):
                errors.append("%s opened for writing: %s" % (path, line.strip()))
            elif names[0].startswith(path.rsplit("/", 1)[0] + "/."):
                opened[(pid, ret)] = names[0]
        elif call == "fsync" and ret == 0:
            fd = int(args)
            if (pid, fd) in opened:
                synced.add(opened[(pid, fd)])
        elif call == "rename" and len(names) == 2 and names[1] == path:
            if names[0] not in synced:
                errors.append("renamed without fsync: %s" % line.strip())
            versions += 1
    for e in errors:
        print(e, file=sys.stderr)
    print(versions)
    return not errors


def main():
    if sys.argv[1] == "expect":
        expect(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    elif sys.argv[1] == "strace":
        sys.exit(0 if check_strace(sys.argv[2], sys.argv[3]) else 1)
    else:
        sys.exit("usage: hwlat_metrics.py expect|strace ...")


if __name__ == "__main__":
    main()
