#!/bin/sh
# Proves the latency axis of plot (SVG and PNG) and of the html report shows
# the body and the tail at once: on synthetic data with a 50 ms max and all
# other samples under 100 us, the body (0..100 us) spans at least 60 % of
# the plot's width (measured from the SVG's coordinates), the tail's ticks
# reach the max, and the tick labels neither overlap nor leave the image,
# also for an oslat-like max of 1.5 s; curves and max dots sit where the
# tick labels say (plot_check.py maps through the broken axis). A short
# tail (a lone sample at 434 us, three times the 150 us body: no 1-2-5
# value fits beside the break's label) still has a tick in it.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_cmd gnuplot
RLR=$(tool rt-latency-report)
CHECK="$HELPERS/html_check.py"

python3 "$HELPERS/synth_result.py" "$WORK/tail.json" threads=2 cycles=5000 base=5 spread=90 \
	tail=200,1000,5000,20000,50000
python3 "$HELPERS/synth_result.py" "$WORK/oslat.json" threads=2 cycles=2000 base=1 spread=40 \
	tail=1500000
python3 "$HELPERS/synth_result.py" "$WORK/plain.json" threads=2 cycles=2000 base=10 spread=60
python3 "$HELPERS/synth_result.py" "$WORK/short.json" threads=1 cycles=2000 base=50 spread=90 \
	tail=434

for f in tail oslat plain short; do
	RC=0
	timeout 30 "$RLR" plot "$WORK/$f.json" -o "$WORK/$f.svg" >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 0
	python3 "$HELPERS/plot_check.py" svg "$WORK/$f.svg" "$WORK/$f.json" >"$WORK/diag" 2>&1 ||
		fail "$f.svg: $(cat "$WORK/diag")"
	RC=0
	timeout 30 "$RLR" html "$WORK/$f.json" -o "$WORK/$f.html" >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 0
done
# The body's share, measured in the plot's and in the page's SVG.
for f in "$WORK/tail.svg" "$WORK/tail.html"; do
	python3 "$CHECK" axis "$f" 100 >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
	cat "$WORK/diag"
done
expect_match "$WORK/tail.svg" '<text>50 ms</text>'
expect_match "$WORK/tail.svg" '<text>linear to 100 us, log beyond</text>'
expect_match "$WORK/tail.html" '>50 ms</text>'
# oslat's 1.5 s: its tick is there, inside the image (html_check: labels fit).
python3 "$CHECK" axis "$WORK/oslat.html" 40 >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
expect_match "$WORK/oslat.svg" '<text>1 s</text>'
python3 - "$WORK/oslat.svg" <<'PY' || fail "oslat.svg: a tick label leaves the image"
import re, sys
t = open(sys.argv[1]).read()
for x, label in re.findall(r'<g transform="translate\(([\d.]+),[\d.]+\)"[^>]*text-anchor="middle">\s*<text>([^<]*)</text>', t):
    # 12-point Arial: at most 7 px a character.
    if float(x) + len(label) * 7 / 2 > 1200 or float(x) - len(label) * 7 / 2 < 0:
        sys.exit("%s at %s" % (label, x))
PY
expect_match "$WORK/short.svg" '<text>linear to 150 us, log beyond</text>'
expect_match "$WORK/short.svg" '<text>250 us</text>'
# No tail far beyond the body: one linear axis, no break.
expect_no_match "$WORK/plain.svg" 'log beyond'
# The PNG draws both curves.
RC=0
timeout 30 "$RLR" plot "$WORK/tail.json" -o "$WORK/tail.png" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
python3 "$HELPERS/plot_check.py" png "$WORK/tail.png" 2 >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
finish
