#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Drive hackbench as rteval's hackbench load does, and find what it leaves.

usage: rteval_load.py HACKBENCH LOGDIR

The load (tests/harness/README, section 2; rteval/modules/loads/hackbench.py
of rteval @ b4d3bec6, written anew here): jobs = 3 x CPUs;
`[taskset -c CPUS] hackbench -P -g JOBS -l LOOPS -s DATASIZE`, stdin
/dev/null, stdout and stderr on one log fd each shared by all instances;
polled (rteval: every 1.0 s, here every 0.2 s to stay short), restarted
once it has exited; stopped with SIGKILL to the pid started, a 2 s sleep
if it is still alive (here: until it is dead, 2 s at most), then wait.

This process is a child subreaper, so a worker that outlives its hackbench
becomes its child and is seen (rteval is not one: there, such a worker runs
on under init). Checks, each printed as "FAIL: ..." (exit 1):
- phase "restart": -g 1 -l 10 -s 100 (one group, not JOBS, to stay short on
  a loaded machine; rteval's loops and datasize are settings), polled and
  restarted until two runs have ended by themselves (5 s at most, one at
  least), each with exit 0 and a "Time:" line, then the SIGKILL;
- phase "default": rteval's -l 1000 -s 1000 through taskset, as with a
  cpulist (half the CPUs, -g 3 x its CPUs), SIGKILL once all the workers
  run (or after 3 s);
- phase "g4": `hackbench -P -g 4` (2.4 leaves its 160 workers spinning),
  SIGKILL once they all run (or after 3 s);
- phase "early": SIGKILL 50 ms after the start, while workers are forked;
and after every SIGKILL: no process of the load is left once their number
has stopped going down for 3 s (killed workers may be slow to die on a
loaded machine). Any
left over is reported (with the CPU time it used over 0.5 s: spinning) and
then killed, so the machine is left as it was.
"""
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
POLL_S = 0.2
errors = []


def stat_of(pid):
    """(state, ppid, utime + stime) of a live pid, or None."""
    try:
        with open("/proc/%d/stat" % pid, encoding="ascii", errors="replace") as f:
            s = f.read()
    except OSError:
        return None
    fields = s[s.rfind(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[11]) + int(fields[12])


def children_of(ppid):
    """Pids of the live (not zombie) children of ppid."""
    kids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        st = stat_of(int(name))
        if st and st[1] == ppid and st[0] != "Z":
            kids.append(int(name))
    return kids


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def no_one_left(what):
    """After a hackbench was killed and waited for: its workers are gone."""
    me = os.getpid()
    # Killed workers may take a while to be scheduled and die on a loaded
    # machine: wait while their number goes down, 20 s at most.
    deadline = time.monotonic() + 20.0
    stalled_at = time.monotonic() + 3.0
    fewest = None
    while True:
        reap()
        left = children_of(me)
        now = time.monotonic()
        if fewest is None or len(left) < fewest:
            fewest = len(left)
            stalled_at = now + 3.0
        if not left or now > deadline or now > stalled_at:
            break
        time.sleep(0.1)
    if not left:
        return
    before = {p: stat_of(p) for p in left}
    time.sleep(0.5)
    ticks = 0
    for p in left:
        st = stat_of(p)
        if st and before[p]:
            ticks += st[2] - before[p][2]
    errors.append("%s: %d workers outlived the SIGKILL of hackbench, using %.2f s of CPU "
                  "in 0.5 s" % (what, len(left), ticks / os.sysconf("SC_CLK_TCK")))
    for p in left:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for _ in range(50):
        reap()
        if not children_of(me):
            break
        time.sleep(0.1)


class Load:
    """One instance of rteval's hackbench load."""

    def __init__(self, args, logdir, name):
        self.args = args
        self.null = os.open("/dev/null", os.O_RDWR)
        self.out_path = os.path.join(logdir, name + ".stdout")
        self.out = os.open(self.out_path, os.O_CREAT | os.O_WRONLY, 0o644)
        self.err = os.open(os.path.join(logdir, name + ".stderr"),
                           os.O_CREAT | os.O_WRONLY, 0o644)
        self.task = None
        self.ended = []

    def start(self):
        self.task = subprocess.Popen(self.args, stdin=self.null, stdout=self.out,
                                     stderr=self.err)

    def poll(self):
        """rteval's _WorkloadTask: restart an instance that has exited."""
        if self.task.poll() is not None:
            self.ended.append(self.task.wait())
            self.start()

    def cleanup(self, what):
        """rteval's _WorkloadCleanup, then the check."""
        if self.task.poll() is None:
            self.task.send_signal(signal.SIGKILL)
            # rteval sleeps 2 s here; the wait below is the same, sooner.
            for _ in range(20):
                if self.task.poll() is not None:
                    break
                time.sleep(0.1)
        self.task.wait()
        note("%s: hackbench waited for" % what)
        for fd in (self.null, self.out, self.err):
            os.close(fd)
        no_one_left(what)
        note("%s: checked" % what)

    def wait_workers(self, n, what, max_s):
        """Wait until the running hackbench has n workers (max_s at most: a
        loaded machine forks slowly; a kill while they are being created
        must leave none either). Returns how many there were."""
        deadline = time.monotonic() + max_s
        count = 0
        while time.monotonic() < deadline:
            if self.task.poll() is not None:
                errors.append("%s: hackbench ended (exit %s) before it was killed"
                              % (what, self.task.returncode))
                return count
            count = len(children_of(self.task.pid))
            if count >= n:
                time.sleep(0.3)
                break
            time.sleep(0.1)
        return count


T0 = time.monotonic()


def note(what):
    """Timings, shown with the failures (a loaded machine is slow)."""
    print("%6.2f s: %s" % (time.monotonic() - T0, what))


def main():
    hb, logdir = sys.argv[1], sys.argv[2]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("SKIP: prctl(PR_SET_CHILD_SUBREAPER): %s" % os.strerror(ctypes.get_errno()))
        return 77
    cpus = sorted(os.sched_getaffinity(0))
    jobs = 3 * len(cpus)

    # restart: short runs, restarted as they end, then killed.
    load = Load([hb, "-P", "-g", "1", "-l", "10", "-s", "100"], logdir, "restart")
    load.start()
    end = time.monotonic() + 5.0
    while time.monotonic() < end and len(load.ended) < 2:
        time.sleep(POLL_S)
        load.poll()
    time.sleep(0.1)
    load.cleanup("restart")
    if not load.ended:
        errors.append("restart: no run ended by itself in 5 s")
    if any(rc != 0 for rc in load.ended):
        errors.append("restart: exit codes %s" % load.ended)
    with open(load.out_path, encoding="utf-8", errors="replace") as f:
        times = [ln for ln in f if ln.startswith("Time:")]
    # The last run may print its Time: just before the SIGKILL.
    if not len(load.ended) <= len(times) <= len(load.ended) + 1:
        errors.append("restart: %d Time: lines for %d completed runs" % (len(times), len(load.ended)))

    # default: rteval's loops and datasize, through taskset (a cpulist).
    # rteval counts the CPUs of the cpulist: a cpulist of half the CPUs.
    sub = cpus[:max(1, len(cpus) // 2)]
    cpulist = ",".join(str(c) for c in sub)
    g = 3 * len(sub)
    load = Load(["taskset", "-c", cpulist, hb, "-P", "-g", str(g), "-l", "1000", "-s", "1000"],
                logdir, "default")
    load.start()
    n = load.wait_workers(40 * g, "default", 3.0)
    load.cleanup("default (-g %d, taskset -c %s, killed with %d workers)" % (g, cpulist, n))

    # g4: the case of the issue, 160 workers.
    load = Load([hb, "-P", "-g", "4", "-l", "1000", "-s", "1000"], logdir, "g4")
    load.start()
    n = load.wait_workers(160, "g4", 3.0)
    load.cleanup("-P -g 4 (killed with %d workers)" % n)

    # early: SIGKILL while the workers are being created.
    load = Load([hb, "-P", "-g", str(jobs), "-l", "1000", "-s", "1000"], logdir, "early")
    load.start()
    time.sleep(0.05)
    load.cleanup("SIGKILL 50 ms after the start")

    for e in errors:
        print("FAIL: " + e)
    note("done")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
