#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check rt_quantile_ci against scipy's exact binomial (an independent computation).

Usage: quantile_ci_check.py PATH/TO/tests/helpers/quantile_ci

For many (n, p, confidence), from n = 1 to 1e11 and p = 50 % to 99.9999 %,
the ranks l and u of the distribution-free interval must be those scipy gives:
  l = the largest rank with P(B <= l - 1) <= tail,
  u = the smallest rank with P(B <= u - 1) >= 1 - tail,
B ~ Binomial(n, p), tail = (1 - confidence) / 2. A rank may differ by one
only where scipy's own distribution function is within its accuracy
(1e-9, or n * 1e-17 at large n) of the tail: scipy cannot decide that side. The fewest samples whose upper
rank exists must be the smallest n with p^n <= tail.
Prints one line per mismatch and a summary; exit 1 on any mismatch.
"""
import math
import subprocess
import sys

from scipy.stats import binom

PCTS = [500000, 900000, 990000, 999000, 999900, 999990, 999999, 123456, 999950]
NS = [1, 2, 5, 6, 10, 37, 100, 1000, 2999, 10000, 68871, 100000, 368887, 368888,
      1000000, 3688878, 10**7, 123456789, 10**8, 10**9, 10**10, 6 * 10**10, 10**11]
CONFS = [95, 90, 99]


def ranks(n, pm, conf):
    p = pm / 1e6
    tail = (100 - conf) / 200.0
    d = binom(n, p)
    # u - 1: smallest k with F(k) >= 1 - tail
    k = int(d.ppf(1 - tail))
    while k > 0 and d.cdf(k - 1) >= 1 - tail:
        k -= 1
    while k < n and d.cdf(k) < 1 - tail:
        k += 1
    u = k + 1
    # l: smallest k with F(k) > tail (then l - 1 = k - 1 is the largest with F <= tail)
    k = max(int(d.ppf(tail)) - 1, 0)
    while k > 0 and d.cdf(k - 1) > tail:
        k -= 1
    while k < n and d.cdf(k) <= tail:
        k += 1
    return k, u, d, tail


def near(d, k, level, n):
    # scipy's binomial (cephes' incomplete beta) loses about n * 1e-17 of
    # accuracy: at n = 1e11, p = 50 % it is 2.6e-8 off the normal limit,
    # which is exact there to 1e-11; one rank moves F by 3.7e-7.
    return abs(d.cdf(k) - level) < max(1e-9, n * 1e-17)


def main():
    prog = sys.argv[1]
    cases = [(n, pm, c) for c in CONFS for pm in PCTS for n in NS if c == 95 or n <= 10**9]
    lines = "".join("%d %d %d\n" % c for c in cases)
    lines += "".join("min %d %d\n" % (pm, c) for c in CONFS for pm in PCTS)
    out = subprocess.run([prog], input=lines, capture_output=True, text=True, check=True).stdout
    got = out.splitlines()
    bad = 0
    for (n, pm, conf), line in zip(cases, got):
        w = line.split()
        if w[3] == "error":
            print("MISMATCH n=%d p=%d conf=%d: error %s" % (n, pm, conf, w[4]))
            bad += 1
            continue
        l, u = int(w[3]), int(w[4])
        el, eu, d, tail = ranks(n, pm, conf)
        ok_l = l == el or (abs(l - el) == 1 and near(d, min(l, el), tail, n))
        ok_u = u == eu or (abs(u - eu) == 1 and near(d, min(u, eu) - 1, 1 - tail, n))
        if not (ok_l and ok_u):
            print("MISMATCH n=%d p=%d conf=%d: got l=%d u=%d, scipy l=%d u=%d"
                  % (n, pm, conf, l, u, el, eu))
            bad += 1
    for line in got[len(cases):]:
        w = line.split()
        pm, conf, n = int(w[1]), int(w[2]), int(w[3])
        p, tail = pm / 1e6, (100 - conf) / 200.0
        # smallest n with p^n <= tail, so that F(n - 1) = 1 - p^n >= 1 - tail
        en = math.ceil(math.log(tail) / math.log1p(-(1e6 - pm) / 1e6))
        while en > 1 and binom(en - 1, p).cdf(en - 2) >= 1 - tail:
            en -= 1
        while binom(en, p).cdf(en - 1) < 1 - tail:
            en += 1
        if n != en:
            print("MISMATCH min samples p=%d conf=%d: got %d, scipy %d" % (pm, conf, n, en))
            bad += 1
    if len(got) != len(cases) + len(CONFS) * len(PCTS):
        print("MISMATCH: %d lines for %d cases" % (len(got), len(cases)))
        bad += 1
    print("quantile_ci_check: %d cases, %d mismatches" % (len(got), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
