# SPDX-License-Identifier: GPL-2.0-or-later
"""The lossless histogram of our JSON ("latency_histogram"), read back.

check_series(obj, label, errors) proves, for an object holding cycles (or
none), min, max, "percentiles" and "latency_histogram": the histogram's
counts sum to the sample count, its max is the max, every bucket key is a
bucket's lowest value, and every percentile is the nearest-rank bucket
bound capped at the max (recomputed here), non-decreasing, within min..max;
and "percentiles_ci", beside "percentiles": each percentile's 95 % interval
{"low", "high", "confidence"} recomputed from the exact binomial (scipy
when it is there, else a plain sum of the binomial terms), low from the
bucket bottom and high from the bucket top capped at the max (null when
the upper rank is past the last sample).
"""
import math

PCTS = [("p50", 500000), ("p90", 900000), ("p99", 990000), ("p99.9", 999000),
        ("p99.99", 999900), ("p99.999", 999990), ("p99.9999", 999999)]


def bucket_high(low, exact=128, sub=128):
    """Highest value of the bucket whose lowest value is low."""
    if low < exact:
        return low
    e = low.bit_length() - 1
    width = 1 << (e - (sub.bit_length() - 1))
    return low + width - 1


def is_bucket_low(low, exact=128, sub=128):
    if low < exact:
        return low >= 0
    e = low.bit_length() - 1
    return low % (1 << (e - (sub.bit_length() - 1))) == 0


def percentile(buckets, count, maximum, permyriad):
    """Nearest rank (rank = ceil(count * p / 100)), upper bucket bound capped at max."""
    if count == 0:
        return None
    rank = max(1, -(-count * permyriad // 1000000))
    seen = 0
    for low in sorted(buckets):
        seen += buckets[low]
        if seen >= rank:
            return min(bucket_high(low), maximum)
    return maximum


def ci_ranks(n, permyriad, confidence=95):
    """Ranks l, u: l the largest with P(B <= l-1) <= tail, u the smallest with P(B <= u-1) >= 1 - tail."""
    p, tail = permyriad / 1e6, (100 - confidence) / 200.0
    try:
        from scipy.stats import binom
        cdf = binom(n, p).cdf
        k = max(int(binom(n, p).ppf(tail)) - 1, 0)
        while k > 0 and cdf(k - 1) > tail:
            k -= 1
        while k < n and cdf(k) <= tail:
            k += 1
        l = k
        k = int(binom(n, p).ppf(1 - tail))
        while k > 0 and cdf(k - 1) >= 1 - tail:
            k -= 1
        while k < n and cdf(k) < 1 - tail:
            k += 1
        return l, k + 1
    except ImportError:
        pass
    if p >= 1:
        return n, n + 1
    # The binomial terms in log space, summed from 0: F(k) = P(B <= k).
    lp, lq, total, logt = math.log(p), math.log1p(-p), 0.0, None
    l = u = None
    for k in range(n + 1):
        logt = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                + k * lp + (n - k) * lq)
        total += math.exp(logt)
        if l is None and total > tail:
            l = k          # F(k) > tail first here: l - 1 = k - 1
        if u is None and total >= 1 - tail:
            u = k + 1
            break
    return l, (u if u is not None else n + 1)


def rank_bucket(buckets, rank):
    seen = 0
    for low in sorted(buckets):
        seen += buckets[low]
        if seen >= rank:
            return low
    return max(buckets)


def check_ci(obj, label, errors, buckets, count, maximum, pct_key="percentiles"):
    ci = obj.get(pct_key + "_ci")
    if ci is None or list(ci) != [n for n, _ in PCTS]:
        errors.append("%s: %s_ci keys %s" % (label, pct_key, ci and list(ci)))
        return
    for name, pm in PCTS:
        got = ci[name]
        if count == 0:
            if got is not None:
                errors.append("%s: %s interval without samples" % (label, name))
            continue
        if got is None or list(got) != ["low", "high", "confidence"] or got["confidence"] != 95:
            errors.append("%s: %s interval %s" % (label, name, got))
            continue
        if count > 200000 and not _have_scipy():
            want_ok = got["low"] <= obj[pct_key][name] and \
                (got["high"] is None or obj[pct_key][name] <= got["high"])
            if not want_ok:
                errors.append("%s: %s interval %s around %s" % (label, name, got, obj[pct_key][name]))
            continue
        l, u = ci_ranks(count, pm)
        low = rank_bucket(buckets, l) if l >= 1 else 0
        high = min(bucket_high(rank_bucket(buckets, u)), maximum) if u <= count else None
        if (got["low"], got["high"]) != (low, high):
            errors.append("%s: %s interval %s-%s, ranks %d..%d give %s-%s" %
                          (label, name, got["low"], got["high"], l, u, low, high))


def _have_scipy():
    try:
        import scipy.stats  # noqa: F401
        return True
    except ImportError:
        return False


def merge(hists):
    """Add histograms: the histogram of one run that saw all their samples."""
    buckets, count, maximum = {}, 0, None
    for h in hists:
        for k, v in h["buckets"].items():
            buckets[int(k)] = buckets.get(int(k), 0) + v
        count += h["count"]
        if h["max"] is not None and (maximum is None or h["max"] > maximum):
            maximum = h["max"]
    return buckets, count, maximum


def check_series(obj, label, errors, count_key="cycles"):
    h = obj.get("latency_histogram")
    pct = obj.get("percentiles")
    if pct is None or list(pct) != [n for n, _ in PCTS]:
        errors.append("%s: percentiles keys %s" % (label, pct and list(pct)))
        return
    if h is None:
        errors.append("%s: no latency_histogram" % label)
        return
    if list(h) != ["layout", "exact_below", "sub_buckets", "count", "max", "buckets"] or \
       (h["layout"], h["exact_below"], h["sub_buckets"]) != ("log-linear", 128, 128):
        errors.append("%s: latency_histogram header %s" % (label, list(h)))
        return
    buckets = {int(k): v for k, v in h["buckets"].items()}
    count = sum(buckets.values())
    if count != h["count"] or (count_key and obj.get(count_key) not in (None, count)):
        errors.append("%s: histogram holds %d samples, count %s, %s %s" %
                      (label, count, h["count"], count_key, obj.get(count_key)))
    if any(not is_bucket_low(k) or v <= 0 for k, v in buckets.items()):
        errors.append("%s: a bucket key is not a bucket's low value" % label)
    if h["max"] != obj.get("max"):
        errors.append("%s: histogram max %s != max %s" % (label, h["max"], obj.get("max")))
    prev = None
    for name, pm in PCTS:
        want = percentile(buckets, count, h["max"], pm)
        got = pct[name]
        if got != want:
            errors.append("%s: %s is %s, the histogram gives %s" % (label, name, got, want))
        if got is not None:
            if prev is not None and got < prev:
                errors.append("%s: %s decreases" % (label, name))
            if obj.get("min") is not None and not (obj["min"] <= got <= obj["max"]):
                errors.append("%s: %s=%s outside min..max" % (label, name, got))
            prev = got
    check_ci(obj, label, errors, buckets, count, h["max"])


def check_total(doc, series, errors):
    """The top-level percentiles are those of all series' histograms added."""
    buckets, count, maximum = merge([s["latency_histogram"] for s in series
                                     if "latency_histogram" in s])
    for name, pm in PCTS:
        want = percentile(buckets, count, maximum, pm)
        if doc["percentiles"][name] != want:
            errors.append("top-level %s is %s, the merged histograms give %s" %
                          (name, doc["percentiles"][name], want))
    check_ci(doc, "top-level", errors, buckets, count, maximum if maximum is not None else 0)
