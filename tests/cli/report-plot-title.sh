#!/bin/sh
# Proves plot's title fits the image and shows the measured time: a line
# longer than 100 characters (a long command line, long host and kernel
# names) is wrapped at a space, nothing is lost and the duration stays
# visible; with --warmup the duration is the time measured after it. And
# "rt-latency-report COMMAND --help" prints the help, exit 0. Synthetic
# inputs.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)

for c in compare merge plot; do
	RC=0
	"$RLR" "$c" --help >"$OUT" 2>"$ERR" </dev/null || RC=$?
	expect_exit 0
	expect_empty_stderr
	expect_match "$OUT" "^rt-latency-report $c "
done
need_cmd gnuplot

# title_lines SVG: the title's lines (the last <text> elements after the keys).
check_title() { # SVG WANT...: every title line fits; WANT (joined) is in it
	python3 - "$@" >"$WORK/t.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/t.diag")"
import re, sys
from xml.sax.saxutils import unescape
texts = [unescape(t) for t in re.findall(r"<text>([^<]*)</text>", open(sys.argv[1]).read())]
start = next(i for i, t in enumerate(texts) if t.startswith("Latency of") or t == "Latency histogram")
title = texts[start:]
if any(len(t) > 100 for t in title):
    sys.exit("a title line of %d characters: %r" % (max(map(len, title)), title))
joined = " ".join(title)
for want in sys.argv[2:]:
    if want not in joined:
        sys.exit("%r not in the title %r" % (want, title))
PY
}

long="/usr/local/bin/cyclictest -q -m -p 95 -t 4 -a 0-3 -i 200 -D 15 --policy=fifo -h 2000 --histfile=/var/lib/qa-farm/results/rack7/board12.hist"
[ "${#long}" -gt 130 ] || fail "the command line is short"
python3 "$HELPERS/synth_result.py" "$WORK/long.json" threads=2 duration=15 "cmdline=$long"
"$RLR" plot "$WORK/long.json" -o "$WORK/long.svg" 2>"$ERR" || fail "plot: $(cat "$ERR")"
check_title "$WORK/long.svg" "${long#/usr/local/bin/}, 15 s"
# Three long host names and kernels: the first line wraps too.
for n in 1 2 3; do
	python3 "$HELPERS/synth_result.py" "$WORK/h$n.json" threads=1 start=$((1700000000 + n)) \
		"host=board-with-a-rather-long-host-name-number-$n.lab.example.com" \
		"kernel=6.12.0-rt$n-long-local-version-string"
done
"$RLR" plot "$WORK/h1.json" "$WORK/h2.json" "$WORK/h3.json" -o "$WORK/hosts.svg" 2>"$ERR" || fail "plot: $(cat "$ERR")"
check_title "$WORK/hosts.svg" "number-3.lab.example.com, kernels 6.12.0-rt1" "3 results: h1.json h2.json h3.json"
# --warmup=5 of a 15 s run: 10 s measured (in either form of the option).
for w in "--warmup=5" "--warmup 5s"; do
	python3 "$HELPERS/synth_result.py" "$WORK/w.json" duration=15 "cmdline=/usr/bin/cyclictest -q $w -D 10"
	"$RLR" plot "$WORK/w.json" -o "$WORK/w.svg" 2>"$ERR" || fail "plot: $(cat "$ERR")"
	check_title "$WORK/w.svg" "cyclictest -q $w -D 10, 10 s (after 5 s of warm-up)"
done
finish
