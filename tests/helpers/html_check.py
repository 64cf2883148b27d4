#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks a page written by rt-latency-report html (or Chromium's DOM of it).

  html_check.py safe FILE
      FILE loads nothing and runs nothing: the first element of its head
      after the charset is a Content-Security-Policy with default-src
      'none'; no script, iframe, object, embed, link, img, base or form
      element, no on* attribute, no href/src/action attribute, no
      "javascript:" or "url(" in any attribute.
  html_check.py text FILE STRING...
      Each STRING (Python escapes allowed: \\x01, \\u2400) is in the text
      the page shows (its elements' text, entities resolved).
  html_check.py numbers FILE JSON
      Every thread's min, max, avg and percentiles of the result JSON, and
      each broken limit's value and bound, are among the page's cells.
  html_check.py png FILE
      A screenshot that is not blank: more than 2 % of its pixels are not
      the background and it has more than 8 colours.
  html_check.py axis FILE BODY
      The latency histogram(s) of FILE (an SVG of plot, or a page) give the
      body (0 .. BODY us) at least 60 % of the plot's width, every tick label
      lies inside the image, and no two labels overlap.
Prints what is wrong and exits 1; exits 0 when all is right.
"""
import html.parser
import json
import re
import struct
import sys
import zlib

BANNED = {"script", "iframe", "object", "embed", "link", "img", "base", "form", "frame",
          "frameset", "audio", "video", "source", "track", "applet", "input", "button",
          "image", "use", "foreignobject", "a"}


def fail(msg):
    print(f"html_check: {msg}", file=sys.stderr)
    sys.exit(1)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.first_meta, self.bad = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "meta" and len(self.first_meta) < 2:
            self.first_meta.append(dict(attrs))
        if tag in BANNED:
            self.bad.append(f"element <{tag}>")
        for k, v in attrs:
            v = v or ""
            if k.startswith("on") or k in ("href", "src", "action", "formaction", "xlink:href",
                                           "srcset", "background", "poster", "data"):
                self.bad.append(f"attribute {k}={v!r} on <{tag}>")
            if "javascript:" in v.lower() or "url(" in v.lower():
                self.bad.append(f"attribute {k}={v!r} on <{tag}>")

    def handle_data(self, data):
        self.text.append(data)


def parse(path):
    p = Page()
    p.feed(open(path, encoding="utf-8", errors="strict").read())
    return p


def safe(path):
    p = parse(path)
    if p.bad:
        fail(f"{path}: {p.bad[:5]}")
    if len(p.first_meta) < 2 or p.first_meta[0].get("charset", "").lower() != "utf-8":
        fail(f"{path}: no <meta charset> first")
    csp = p.first_meta[1]
    if csp.get("http-equiv", "").lower() != "content-security-policy" or \
            "default-src 'none'" not in csp.get("content", ""):
        fail(f"{path}: no Content-Security-Policy default-src 'none' after the charset: {csp}")
    if "script-src" in csp["content"] and "'none'" not in csp["content"].split("script-src")[1]:
        fail(f"{path}: the policy allows scripts")


def text(path, strings):
    shown = "".join(parse(path).text)
    for s in strings:
        s = s.encode("latin-1", "backslashreplace").decode("unicode_escape")
        if s not in shown:
            fail(f"{path}: {s!r} is not shown")


def numbers(path, result):
    d = json.load(open(result))
    # By value: the page shows the file's "77.90" that json reads as 77.9.
    cells = {float(c) for c in re.findall(r"-?\d+(?:\.\d+)?", "\n".join(parse(path).text))}
    want = []
    for i in range(d["num_threads"]):
        t = d["thread"][str(i)]
        m = t.get("receiver", t)
        want += [("thread %d %s" % (i, k), m.get(k)) for k in ("min", "max", "avg")]
        want += [("thread %d %s" % (i, k), v) for k, v in (m.get("percentiles") or {}).items()]
    for b in (d.get("verdict") or {}).get("broken", []):
        want += [("broken value", b.get("value")), ("broken bound", b.get("bound"))]
    missing = [(w, v) for w, v in want if v is not None and float(v) not in cells]
    if missing:
        fail(f"{path}: not shown: {missing[:8]}")
    if len(want) < 4:
        fail(f"{path}: {result} has too few numbers to check")


def png_pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = ihdr
    bpp = {2: 3, 6: 4}.get(colour)
    if depth != 8 or not bpp or interlace:
        fail(f"{path}: colour type {colour}, depth {depth}")
    raw, stride, rows, prev, at = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        ftype, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return [r[x:x + 3] for r in rows[::4] for x in range(0, stride, bpp * 4)]


def png(path):
    px = png_pixels(path)
    background = max(set(px), key=px.count)
    other = sum(1 for p in px if p != background)
    if other < 0.02 * len(px) or len(set(px)) <= 8:
        fail(f"{path}: blank: {other} of {len(px)} pixels drawn, {len(set(px))} colours")


UNITS = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def value(label):
    m = re.fullmatch(r"\s*([\d.]+)\s*(ns|us|ms|s)?\s*", label)
    return float(m.group(1)) * UNITS[m.group(2) or "us"] if m else None


def axis(path, body):
    t = open(path).read()
    body = float(body)
    if "gnuplot" in t[:2000]:
        width = float(re.search(r'<svg[^>]*width="(\d+)', t).group(1))
        ticks = [(value(v), float(x)) for x, v in re.findall(
            r'<g transform="translate\(([\d.]+),[\d.]+\)"[^>]*text-anchor="middle">\s*<text>([^<]*)</text>', t)
            if value(v) is not None]
        grid = re.search(r"class=\"gridline\"\s+d='M([\d.]+),[\d.]+ L([\d.]+),", t)
        areas = [(float(grid.group(1)), float(grid.group(2)), ticks, width)]
    else:
        areas = []
        for svg in re.findall(r'<svg class="histogram".*?</svg>', t, re.S):
            width = float(re.search(r'width="([\d.]+)"', svg).group(1))
            r = re.search(r'class="plotarea" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
            ticks = [(float(v), float(x)) for x, v in re.findall(
                r'class="xlabel" x="([\d.]+)"[^>]*data-value="(\d+)"', svg)]
            areas.append((float(r.group(1)), float(r.group(1)) + float(r.group(2)), ticks, width))
    if not areas:
        fail(f"{path}: no histogram")
    for left, right, ticks, width in areas:
        at = [x for v, x in ticks if abs(v - body) < 1e-6]
        zero = [x for v, x in ticks if v == 0]
        if not at or not zero:
            fail(f"{path}: no tick at 0 and at {body:g} us: {ticks}")
        share = (at[0] - zero[0]) / (right - left)
        if share < 0.6:
            fail(f"{path}: the body 0..{body:g} us spans {share:.0%} of the width")
        xs = sorted(x for _, x in ticks)
        if xs[-1] > width - 15 or any(b - a < 30 for a, b in zip(xs, xs[1:])):
            fail(f"{path}: tick labels at {xs} (image {width:g} wide) overlap or leave it")
        print(f"body 0..{body:g} us: {share:.1%} of the width ({len(ticks)} ticks)")


def main():
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "safe":
        safe(a[1])
    elif len(a) >= 3 and a[0] == "text":
        text(a[1], a[2:])
    elif len(a) == 3 and a[0] == "numbers":
        numbers(a[1], a[2])
    elif len(a) == 2 and a[0] == "png":
        png(a[1])
    elif len(a) == 3 and a[0] == "axis":
        axis(a[1], a[2])
    else:
        fail(__doc__)


main()
