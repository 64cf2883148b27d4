#!/bin/sh
# Proves no byte of plot's input reaches gnuplot as code: hostile strings
# (backquotes, system(), quotes of both kinds, newlines, "\n" escapes,
# @macros, control characters, bytes that are not UTF-8) in every field the
# plot shows (host, kernel, preemption model and mode, command line, the
# hosts and kernels of a merge's inputs, file names given on the command
# line, in the title and in the keys), for PNG and SVG: a canary file the
# strings try to create never appears, and the image is still whole and
# valid, with the strings shown as inert text. A JSON whose labels are not
# UTF-8 is refused in one line, with no image.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_cmd gnuplot
RLR=$(tool rt-latency-report)
RUN="$WORK/run" # gnuplot's working directory: the canary would land here
mkdir "$RUN" "$WORK/in"
CANARY="$RUN/PWNED"

# The hostile strings, one per line of hostile.txt (newlines as \n there).
cat >"$WORK/hostile.txt" <<'EOF'
x`touch PWNED`y
system("touch PWNED")
" . system("touch PWNED") . "
' . system("touch PWNED") . '
'' . system("touch PWNED") . ''
\" . system(\"touch PWNED\") . \"
a\n!touch PWNED\nset output 'PWNED'
b\\n!touch PWNED\\nshell
@GPVAL_PWD @m `touch PWNED` $(touch PWNED) ${PWNED}
c\x01\x1b[31m\r\x7f\xc2\x85d `touch PWNED`
load 'PWNED'; call 'PWNED'; system 'touch PWNED'
EOF

# Results of ours (and 2.4's, and a merge) whose every label is hostile.
python3 - "$WORK/hostile.txt" "$HELPERS" "$WORK/in" <<'PY' || fail "writing the inputs"
import json, sys
sys.path.insert(0, sys.argv[2])
import synth_result
lines = [l.encode().decode("unicode_escape") for l in open(sys.argv[1]).read().splitlines()]
d = sys.argv[3]


def synth(out, kind, s):
    a = {"threads": "2", "host": "H" + s, "kernel": "K" + s, "model": "M" + s, "mode": "m" + s,
         "cmdline": "/bin/cyclictest -p 80 " + s}
    if kind.startswith("v24"):
        a["v24"] = "40"
    synth_result.write(out, a)


for n, s in enumerate(lines):
    for kind in ("ours", "v24"):
        synth("%s/%s%d.json" % (d, kind, n), kind, s)
    doc = json.load(open("%s/ours%d.json" % (d, n)))
    doc["inputs"] = [{"file": "f" + s, "host": "h" + s, "kernel": "k" + s, "start_time": None,
                      "num_threads": 2, "cycles": [1000, 1000], "max": [70, 71]}] * 2
    json.dump(doc, open("%s/merged%d.json" % (d, n), "w"))
s = "|".join(lines)
for kind in ("all", "v24all"):
    synth("%s/%s.json" % (d, kind), kind, s)
doc = json.load(open("%s/all.json" % d))
doc["inputs"] = [{"file": "f" + s, "host": "h" + s + str(k), "kernel": "k" + s, "start_time": None,
                  "num_threads": 2, "cycles": [1000, 1000], "max": [70, 71]} for k in range(2)]
json.dump(doc, open("%s/mergedall.json" % d, "w"))
PY
# File names: the same strings (no '/' in a name: it becomes '|').
python3 - "$WORK/hostile.txt" "$WORK/in" "$RUN" <<'PY' || fail "naming the inputs"
import os, shutil, sys
lines = [l.encode().decode("unicode_escape") for l in open(sys.argv[1]).read().splitlines()]
for n, s in enumerate(lines):
    name = os.fsencode(s.replace("/", "|")) + b"\xff\xfe.json"
    shutil.copy("%s/ours%d.json" % (sys.argv[2], n), os.path.join(os.fsencode(sys.argv[3]), name))
    open(os.path.join(os.fsencode(sys.argv[3]), os.fsencode(s.replace("/", "|")) + b".txt"), "w").write(
        "# Histogram\n000010 000005\n000011 000003\n# Total: 000000008\n# Min Latencies: 00010\n"
        "# Avg Latencies: 00010\n# Max Latencies: 00011\n# Histogram Overflows: 00000\n")
PY

plot() { # OUT INPUT...: run in $RUN, must draw an image and run nothing
	_o=$1
	shift
	RC=0
	(cd "$RUN" && "$RLR" plot "$@" -o "$_o") >"$OUT" 2>"$ERR" </dev/null || RC=$?
	expect_exit 0
	expect_empty_stderr
	[ ! -e "$CANARY" ] || { fail "plot $*: the canary was created"; rm -f "$CANARY"; }
	echo "$_o" >>"$WORK/images"
}

n=$(wc -l <"$WORK/hostile.txt")
i=0
while [ "$i" -lt "$n" ]; do
	plot "$WORK/ours$i.svg" "$WORK/in/ours$i.json"
	plot "$WORK/v24_$i.svg" "$WORK/in/v24$i.json"
	plot "$WORK/merged$i.svg" "$WORK/in/merged$i.json"
	i=$((i + 1))
done
# PNG: all the strings at once in every field.
plot "$WORK/all.png" "$WORK/in/all.json"
plot "$WORK/all.svg" "$WORK/in/all.json"
plot "$WORK/v24all.png" "$WORK/in/v24all.json"
plot "$WORK/mergedall.png" "$WORK/in/mergedall.json"
# Every hostile file name at once (title and keys name them), and the
# histogram texts (whose title is the file name alone).
plot "$WORK/names.svg" "$RUN"/*.json
plot "$WORK/names.png" "$RUN"/*.json
k=0
for t in "$RUN"/*.txt; do
	plot "$WORK/text$k.svg" "$t"
	k=$((k + 1))
done
plot "$WORK/text.png" "$t"
# Every image whole and valid: the PNGs' chunks and data, the SVGs
# well-formed UTF-8 with the hostile text shown as text, no control
# character in it; and one PNG's curves drawn.
python3 - "$WORK/images" >"$WORK/diag" 2>&1 <<'PY' || fail "$(head -n 3 "$WORK/diag")"
import struct, sys, zlib, xml.etree.ElementTree as ET
for path in open(sys.argv[1]).read().split("\n")[:-1]:
    data = open(path, "rb").read()
    if path.endswith(".png"):
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            sys.exit("%s: no PNG signature" % path)
        pos, idat, ends = 8, b"", False
        while pos < len(data):
            length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if zlib.crc32(ctype + body) != struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]:
                sys.exit("%s: bad CRC in %s" % (path, ctype))
            idat += body if ctype == b"IDAT" else b""
            ends |= ctype == b"IEND"
            pos += 12 + length
        if not ends or len(zlib.decompress(idat)) < 800 * 1200 * 3:
            sys.exit("%s: not a whole 1200x800 image" % path)
        continue
    root = ET.fromstring(data.decode("utf-8"))
    texts = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    if "touch PWNED" not in texts:
        sys.exit("%s: the hostile text is not shown as text: %r" % (path, texts[-300:]))
    if any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in texts.replace("\n", "")):
        sys.exit("%s: a control character in the text: %r" % (path, texts))
PY
python3 "$HELPERS/plot_check.py" png "$WORK/all.png" 2 >"$WORK/diag" 2>&1 ||
	fail "all.png: $(head -n 3 "$WORK/diag")"
# The title shows the command line's quotes and backquotes as they are.
plot "$WORK/quotes.svg" "$WORK/in/ours0.json"
expect_match "$WORK/quotes.svg" '<text>Latency of Hx`touch PWNED`y, kernel Kx`touch PWNED`y, Mx`touch PWNED`y \(mx`touch PWNED`y\)</text>'
expect_match "$WORK/quotes.svg" '<text>cyclictest -p 80 x`touch PWNED`y, 10 s</text>'
plot "$WORK/quotes.svg" "$WORK/in/ours4.json"
expect_match "$WORK/quotes.svg" "<text>Latency of H'' \\. system\\(.touch PWNED.\\) \\. '', "

# Labels that are not UTF-8 inside a JSON: refused in one line, no image.
python3 - "$WORK/in/ours0.json" "$WORK/in/latin1.json" <<'PY'
import sys
open(sys.argv[2], "wb").write(open(sys.argv[1], "rb").read().replace(b'"Hx', b'"H\xff`touch PWNED`'))
PY
RC=0
(cd "$RUN" && "$RLR" plot "$WORK/in/latin1.json" -o "$WORK/latin1.svg") >"$OUT" 2>"$ERR" </dev/null || RC=$?
expect_exit 1
expect_match "$ERR" "^rt-latency-report: cannot read '.*/latin1.json': not JSON: not UTF-8 at byte [0-9]+$"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "latin1.json: $(cat "$ERR")"
[ ! -e "$WORK/latin1.svg" ] || fail "latin1.json: an image was written"
[ ! -e "$CANARY" ] || fail "latin1.json: the canary was created"
finish
