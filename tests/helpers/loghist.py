# SPDX-License-Identifier: GPL-2.0-or-later
"""The lossless histogram of our JSON ("latency_histogram"), read back.

check_series(obj, label, errors) proves, for an object holding cycles (or
none), min, max, "percentiles" and "latency_histogram": the histogram's
counts sum to the sample count, its max is the max, every bucket key is a
bucket's lowest value, and every percentile is the nearest-rank bucket
bound capped at the max (recomputed here), non-decreasing, within min..max.
"""

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


def check_total(doc, series, errors):
    """The top-level percentiles are those of all series' histograms added."""
    buckets, count, maximum = merge([s["latency_histogram"] for s in series
                                     if "latency_histogram" in s])
    for name, pm in PCTS:
        want = percentile(buckets, count, maximum, pm)
        if doc["percentiles"][name] != want:
            errors.append("top-level %s is %s, the merged histograms give %s" %
                          (name, doc["percentiles"][name], want))
