#!/usr/bin/env python3
"""Checks an image drawn by rt-latency-report plot against its input.

  plot_check.py png FILE CURVES
      FILE is a whole, valid PNG of 1200x800 (every chunk's CRC, the image
      data inflates to its exact size) in which the first CURVES colours of
      gnuplot's palette are drawn.
  plot_check.py svg FILE INPUT [INPUT...]
      FILE is well-formed SVG whose curves are those of the inputs (our or
      rt-tests 2.4's JSON, read here independently, or cyclictest's -h text):
      for each thread with samples, a plot whose key is "[file: ]thread N[,
      CPU C]: max M us[, O beyond the histogram]", whose outline spans the
      histogram from its lowest bucket to the end of its highest, whose top
      is at the largest count, and whose dot sits at the max. Positions are
      mapped back to values through the axes' tick labels ("0", "25 us",
      "1.5 ms"): linear up to the last tick in line with the first two, then
      logarithmic (the broken axis of rt-latency-report(1)).
Prints what is wrong and exits 1; exits 0 when all is right.
"""
import json
import math
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loghist  # noqa: E402

PALETTE = [(148, 0, 211), (0, 158, 115), (86, 180, 233), (230, 159, 0)]


def fail(msg):
    print(f"plot_check: {msg}", file=sys.stderr)
    sys.exit(1)


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        ftype = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
            elif ftype != 0:
                fail(f"scanline filter {ftype}")
        rows.append(bytes(line))
        prev = line
    return rows


def check_png(path, curves):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: no PNG signature")
    pos, idat, ihdr, end = 8, b"", None, False
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(ctype + body) != crc:
            fail(f"{path}: bad CRC in chunk {ctype}")
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat += body
        elif ctype == b"IEND":
            end = True
        pos += 12 + length
    if not ihdr or not end:
        fail(f"{path}: no IHDR or IEND")
    width, height, depth, colour, _, _, interlace = ihdr
    if (width, height) != (1200, 800):
        fail(f"{path}: {width}x{height}, not 1200x800")
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or not channels or interlace:
        fail(f"{path}: colour type {colour}, depth {depth}, interlace {interlace}")
    raw = zlib.decompress(idat)
    if len(raw) != height * (1 + width * channels):
        fail(f"{path}: image data of {len(raw)} bytes")
    rows = unfilter(raw, width, height, channels)
    for k in range(curves):
        rgb = bytes(PALETTE[k])
        n = sum(sum(1 for x in range(0, width * channels, channels)
                    if row[x:x + 3] == rgb) for row in rows)
        if n < 20:
            fail(f"{path}: curve {k} (colour {PALETTE[k]}) drawn in {n} pixels")


def curves_of_json(path):
    d = json.load(open(path))
    ns = d.get("resolution_in_ns") == 1
    out = []
    for i in range(d["num_threads"]):
        t = d["thread"][str(i)]
        m = t.get("receiver", t)
        lh = m.get("latency_histogram")
        if lh:
            bins = [(int(k), loghist.bucket_high(int(k)) + 1, v) for k, v in lh["buckets"].items() if v]
            overflow = 0
        else:
            bins = [(int(k), int(k) + 1, v) for k, v in m["histogram"].items() if v]
            overflow = max(0, m.get("cycles", 0) - sum(b[2] for b in bins))
        if m.get("max") is None:
            continue
        cpu = m.get("cpu", -1)
        key = f"thread {i}" + (f", CPU {cpu}" if cpu is not None and cpu >= 0 else "")
        out.append((key, m["max"], overflow, sorted(bins)))
    return out, ns


def curves_of_text(path):
    cols, rows, summary = None, [], {}
    lines = open(path).read().split("\n")
    start = lines.index("# Histogram") + 1
    for line in lines[start:]:
        if line.startswith("#") or not line.strip():
            name, _, vals = line.partition(":")
            if name in ("# Min Latencies", "# Max Latencies", "# Histogram Overflows"):
                summary[name] = [int(v) for v in vals.split()]
            continue
        v = [int(x) for x in line.split()]
        rows.append(v)
    threads = len(summary["# Min Latencies"])
    out = []
    for i in range(threads):
        bins = [(r[0], r[0] + 1, r[1 + i]) for r in rows if r[1 + i]]
        out.append((f"thread {i}", summary["# Max Latencies"][i],
                    summary["# Histogram Overflows"][i], bins))
    return out, False


UNITS = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def number(s, ns=False):
    """A tick label as a value in the plot's unit (us, or ns with ns)."""
    m = re.fullmatch(r"\s*(-?[\d.]+)\s*(ns|us|ms|s)?\s*", s)
    v = float(m.group(1))
    return v * UNITS[m.group(2)] * (1e3 if ns else 1) if m.group(2) else v


def x_mapping(xt):
    """Value -> x through the ticks: linear while in line, log beyond."""
    (v0, x0), (v1, x1) = xt[0], xt[1]
    slope = (x1 - x0) / (v1 - v0)
    lin = 1
    while lin + 1 < len(xt) and abs(x0 + (xt[lin + 1][0] - v0) * slope - xt[lin + 1][1]) < 0.6:
        lin += 1
    body = xt[lin][0]

    def linear(v):
        return x0 + (v - v0) * slope

    def px(v):
        if v <= body or lin == len(xt) - 1:
            return linear(v)
        k = next((k for k in range(lin, len(xt) - 1) if v <= xt[k + 1][0]), len(xt) - 2)
        (va, xa), (vb, xb) = xt[k], xt[k + 1]
        return xa + (math.log10(v) - math.log10(va)) * (xb - xa) / (math.log10(vb) - math.log10(va))
    px.linear = linear
    return px


def check_svg(path, inputs):
    text = open(path).read()
    ET.fromstring(text.encode())  # well-formed
    ticks = re.findall(r'<g transform="translate\(([\d.]+),([\d.]+)\)"[^>]*text-anchor="(middle|end)">'
                       r'\s*<text>([^<]*)</text>', text)
    ticks = [t for t in ticks if re.fullmatch(r"\s*-?[\d.]+\s*(ns|us|ms|s)?\s*", t[3])]
    ns = any((curves_of_json(f)[1] if open(f).read(1) == "{" else False) for f in inputs)
    xt = [(number(v, ns), float(x)) for x, y, a, v in ticks if a == "middle"]
    yt = [(number(v), float(y) - 3.9) for x, y, a, v in ticks if a == "end"]
    if len(xt) < 2 or len(yt) < 2:
        fail(f"{path}: axes without tick labels")
    px = x_mapping(xt)
    # A broken axis names a value in its tail, or its far end cannot be read.
    if "log beyond</text>" in text and px(xt[-1][0] * 2) == px.linear(xt[-1][0] * 2):
        fail(f"{path}: the axis is broken but no tick labels its tail")
    (w0, y0), (w1, y1) = yt[0], yt[-1]
    py = lambda v: y0 + (math.log10(v) - math.log10(w0)) * (y1 - y0) / (math.log10(w1) - math.log10(w0))
    groups = re.split(r'<g id="gnuplot_plot_\d+" >', text)[1:]
    plots = []
    for g in groups:
        g = g.split("</g>\n\t</g>")[0]  # the title after the last plot is not its
        keys = re.findall(r"<text>([^<]*)</text>", g)
        paths = re.findall(r"<path stroke='([^']*)'\s+d='([^']*)'", g)
        dots = re.findall(r"href='#gpPt6' transform='translate\(([\d.]+),([\d.]+)\)", g)
        # A plot of points alone shows its point in the key too, right of
        # the key's text on its line: that is not a max dot.
        kt = re.findall(r'<g transform="translate\(([\d.]+),([\d.]+)\)"[^>]*text-anchor="end">\s*<text>', g)
        if kt:
            kx, ky = float(kt[0][0]), float(kt[0][1]) - 3.9
            dots = [d for d in dots if not (kx < float(d[0]) < kx + 80 and abs(float(d[1]) - ky) < 3)]
        plots.append((keys[0] if keys else None, paths, dots))
    expected = []
    multi = len(inputs) > 1
    for f in inputs:
        curves, ns = (curves_of_json(f) if open(f).read(1) == "{" else curves_of_text(f))
        unit = "ns" if ns else "us"
        for key, mx, overflow, bins in curves:
            label = (f"{os.path.basename(f)}: " if multi else "") + f"{key}: max {mx} {unit}"
            if overflow:
                label += f", {overflow} beyond the histogram"
            expected.append((label, mx, bins))
    keys = [p[0] for p in plots if p[0]]
    if keys != [e[0] for e in expected]:
        fail(f"{path}: keys {keys}, expected {[e[0] for e in expected]}")
    for label, mx, bins in expected:
        i = next(k for k, p in enumerate(plots) if p[0] == label)
        _, paths, dots = plots[i]
        if bins:
            pts = [tuple(map(float, c.split(",")))
                   for c in re.findall(r"[\d.]+,[\d.]+", " ".join(d for _, d in paths))][2:]
            above = [p for p in pts if p[1] < py(1) + 1]
            lo, hi = min(p[0] for p in above), max(p[0] for p in above)
            top = min(p[1] for p in above)
            want_top = py(max(b[2] for b in bins))
            if abs(lo - px(bins[0][0])) > 1.5 or abs(hi - px(bins[-1][1])) > 1.5:
                fail(f"{label}: outline spans x {lo:.1f}..{hi:.1f}, expected "
                     f"{px(bins[0][0]):.1f}..{px(bins[-1][1]):.1f}")
            if abs(top - want_top) > 1.5:
                fail(f"{label}: top at y {top:.1f}, expected {want_top:.1f}")
            dots = dots or plots[i + 1][2]
        at = next((b[2] for b in bins if b[0] <= mx < b[1]), 1)
        if len(dots) != 1:
            fail(f"{label}: {len(dots)} max dots")
        dx, dy = map(float, dots[0])
        if abs(dx - px(mx)) > 1.5 or abs(dy - py(at)) > 1.5:
            fail(f"{label}: max dot at ({dx:.1f}, {dy:.1f}), expected "
                 f"({px(mx):.1f}, {py(at):.1f})")


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "png":
        check_png(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "svg":
        check_svg(sys.argv[2], sys.argv[3:])
    else:
        fail("usage: plot_check.py png FILE CURVES | svg FILE INPUT...")


main()
