#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks of the "isolation" object of a --json file or a --records file.

isolation_check.py bounds JSON CPU IRQ_BEFORE IRQ_AFTER SOFT_BEFORE SOFT_AFTER
    every count of CPU lies between 0 and the kernel's own difference of the
    tables read before the start and after the end; totals are the sums;
    the CPU saw at least one LOC interrupt.
isolation_check.py involuntary JSON CPU [MIN_VOLUNTARY]
    the thread on CPU were switched out involuntarily at least once
    (exit 2: none, for the caller to retry).
isolation_check.py records RECORDS [JSON]
    one isolation line per window, and the windows add up to the total
    line's isolation (and to the JSON's).
isolation_check.py shape JSON THREADS
    the object's layout, threads counted.
isolation_check.py netrx JSON CPU
    loopback traffic sent from CPU shows as NET_RX softirqs there.
Several: CHECK ARGS... --and CHECK ARGS...
"""
import json
import sys


def table(path, named):
    """{display name: {cpu: count}} as rt_isolation names the sources."""
    lines = open(path).read().splitlines()
    cpus = [int(w[3:]) for w in lines[0].split()]
    out = {}
    for line in lines[1:]:
        key, _, rest = line.partition(':')
        key = key.strip()
        words = rest.split()
        if len(words) < len(cpus) or not all(w.isdigit() for w in words[:len(cpus)]):
            continue
        name = key
        if named and key.isdigit():
            desc = rest.rstrip()
            cut = desc.rfind('  ')
            name = desc[cut:].strip() if cut >= 0 else words[-1]
        if name in out:
            name = name + ':' + key
        out[name] = {c: int(w) for c, w in zip(cpus, words)}
    return out


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def summed(obj, by):
    if obj['total'] != sum(obj[by].values()):
        fail('%s total %d is not the sum of %s' % (by, obj['total'], obj[by]))


def cpu_entry(iso, cpu):
    for c in iso['cpus']:
        if c['cpu'] == cpu:
            return c
    fail('no entry for CPU %d' % cpu)


def check_totals(iso):
    for kind, by in (('interrupts', 'by_source'), ('softirqs', 'by_kind')):
        summed(iso['total'][kind], by)
        n = 0
        for c in iso['cpus']:
            summed(c[kind], by)
            n += c[kind]['total']
        if n != iso['total'][kind]['total']:
            fail('%s: the CPUs sum to %d, the total says %d' % (kind, n, iso['total'][kind]['total']))


def bounds(args):
    iso = json.load(open(args[0]))['isolation']
    cpu = int(args[1])
    check_totals(iso)
    c = cpu_entry(iso, cpu)
    for kind, by, before, after, named in (
            ('interrupts', 'by_source', args[2], args[3], True),
            ('softirqs', 'by_kind', args[4], args[5], False)):
        b, a = table(before, named), table(after, named)
        for name, n in c[kind][by].items():
            if name not in a:
                fail('%s source %s not in the kernel table' % (kind, name))
            kernel = a[name][cpu] - b.get(name, {}).get(cpu, 0)
            if not 0 <= n <= kernel:
                fail('%s %s on CPU %d: ours %d, the kernel counted %d around the run' %
                     (kind, name, cpu, n, kernel))
            print('%s %s: ours %d <= kernel %d' % (kind, name, n, kernel))
    if c['interrupts']['by_source'].get('LOC', 0) < 1:
        fail('no local timer interrupt on CPU %d: %s' % (cpu, c['interrupts']))


def involuntary(args):
    iso = json.load(open(args[0]))['isolation']
    c = cpu_entry(iso, int(args[1]))
    print('context switches: %s' % c['context_switches'])
    if c['context_switches']['threads'] != 1:
        fail('%d threads counted on CPU %s' % (c['context_switches']['threads'], args[1]))
    if len(args) > 2 and c['context_switches']['voluntary'] < int(args[2]):
        fail('fewer voluntary switches than %s sleeps' % args[2])
    if c['context_switches']['involuntary'] < 1:
        sys.exit(2)


def add(acc, iso):
    for c in iso['cpus']:
        a = acc.setdefault(c['cpu'], {})
        for kind, by in (('interrupts', 'by_source'), ('softirqs', 'by_kind')):
            for name, n in c[kind][by].items():
                a[(kind, name)] = a.get((kind, name), 0) + n
        for k in ('voluntary', 'involuntary'):
            a[k] = a.get(k, 0) + c['context_switches'][k]


def records(args):
    lines = [json.loads(l) for l in open(args[0]) if l.endswith('\n')]
    windows = sorted({l['window'] for l in lines if l['type'] == 'window'})
    iso_lines = [l for l in lines if l['type'] == 'isolation']
    if [l['window'] for l in iso_lines] != windows:
        fail('isolation lines of windows %s, windows %s' % ([l['window'] for l in iso_lines], windows))
    total = [l for l in lines if l['type'] == 'total']
    if len(total) != 1:
        fail('%d total lines' % len(total))
    acc, want = {}, {}
    for l in iso_lines:
        check_totals(l['isolation'])
        add(acc, l['isolation'])
    add(want, total[0]['isolation'])
    clean = lambda d: {c: {k: v for k, v in x.items() if v} for c, x in d.items()}
    if clean(acc) != clean(want):
        fail('the windows add up to %s, the total says %s' % (clean(acc), clean(want)))
    if len(args) > 1:
        js = json.load(open(args[1]))['isolation']
        if js != total[0]['isolation']:
            fail('the JSON isolation differs from the records total')
    print('%d windows add up to the total' % len(windows))


def shape(args):
    iso = json.load(open(args[0]))['isolation']
    check_totals(iso)
    keys = ['cpu', 'interrupts', 'softirqs', 'context_switches', 'smi', 'thermal_throttle',
            'idle_time_us', 'freq_time_ms']
    for c in iso['cpus']:
        if list(c) != keys:
            fail('CPU entry keys %s' % list(c))
    if list(iso['total']) != ['interrupts', 'softirqs', 'context_switches', 'smi']:
        fail('total keys %s' % list(iso['total']))
    if iso['total']['context_switches']['threads'] != int(args[1]):
        fail('%d threads counted, %s expected' % (iso['total']['context_switches']['threads'], args[1]))


COMMANDS = {'bounds': bounds, 'involuntary': involuntary, 'records': records,
            'shape': shape, 'netrx': None}


def netrx(args):
    c = cpu_entry(json.load(open(args[0]))['isolation'], int(args[1]))
    if c['softirqs']['by_kind'].get('NET_RX', 0) < 1:
        fail('no NET_RX softirq counted on CPU %s' % args[1])


COMMANDS['netrx'] = netrx
# Several checks in one run (python starts slowly on a loaded machine):
# COMMAND ARGS... [--and COMMAND ARGS...]...
words = sys.argv[1:]
while words:
    n = words.index('--and') if '--and' in words else len(words)
    COMMANDS[words[0]](words[1:n])
    words = words[n + 1:]
