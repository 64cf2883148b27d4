#!/bin/sh
# Proves rt-latency-report plot draws what the results hold: a valid
# 1200x800 PNG with every thread's curve drawn, and an SVG whose curves,
# read back through its axes, span each thread's histogram, peak at its
# largest count and mark its max, with keys naming thread, CPU and max and a
# title naming host, kernel, preemption model, command line and duration.
# Inputs: our JSON of a real run (cyclictest, a pair tool, -N), the -h and
# -H text of the same run, rt-tests 2.4's JSON, a merge, several files, a
# tail beyond the 1 us buckets. Failures: gnuplot missing, failing, killed
# or writing nothing, and bad input: one line, exit 1 or 2, no output file,
# an existing file kept.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_cmd gnuplot
rt_or_other
RLR=$(tool rt-latency-report)
CT=$(tool cyclictest)
IMG="$WORK/img"
mkdir "$IMG"

report() {
	RC=0
	"$RLR" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

check_svg() { # SVG INPUT...
	python3 "$HELPERS/plot_check.py" svg "$@" >"$WORK/plot.diag" 2>&1 ||
		fail "$(head -n 5 "$WORK/plot.diag")"
}

check_png() { # PNG CURVES
	python3 "$HELPERS/plot_check.py" png "$@" >"$WORK/plot.diag" 2>&1 ||
		fail "$(head -n 5 "$WORK/plot.diag")"
}

plot_ok() { # OUT INPUT...: exit 0, nothing printed
	_o=$1
	shift
	report plot "$@" -o "$_o"
	expect_exit 0
	expect_empty_stdout
	expect_empty_stderr
}

# Nothing but the images: no temporary file left behind.
no_leftovers() {
	_left=$(ls -A "$IMG" | grep '^\.' || true)
	[ -z "$_left" ] || fail "left in the output directory: $_left"
}

# One real run: its JSON and its -h text hold the same samples.
# shellcheck disable=SC2086
"$CT" -q $MLOCK -p "$PRIO" -t 2 -i 500 -D 2 -h 400 --histfile="$WORK/hist.txt" \
	--no-preflight --json="$WORK/run.json" >/dev/null 2>&1 </dev/null || fail "cyclictest run"

plot_ok "$IMG/run.png" "$WORK/run.json"
check_png "$IMG/run.png" 2
plot_ok "$IMG/run.svg" "$WORK/run.json"
check_svg "$IMG/run.svg" "$WORK/run.json"
# The title: where and how the run ran, from its JSON.
python3 - "$WORK/run.json" "$IMG/run.svg" >"$WORK/title.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/title.diag")"
import json, re, sys
from email.utils import parsedate_to_datetime
from xml.sax.saxutils import escape
d = json.load(open(sys.argv[1]))
texts = re.findall(r"<text>([^<]*)</text>", open(sys.argv[2]).read())
pre = d["environment"]["preemption"]
model = pre["model"] + (" (%s)" % pre["mode"] if pre["mode"] else "")
line1 = "Latency of %s, kernel %s, %s" % (d["sysinfo"]["nodename"], d["sysinfo"]["release"], model)
secs = (parsedate_to_datetime(d["end_time"]) - parsedate_to_datetime(d["start_time"])).seconds
cmd = d["cmdline:"].split(" ", 1)
cmd = "cyclictest " + cmd[1]
if len(cmd) > 159:  # a long command line is cut
    cmd = cmd[:156] + "..."
line2 = "%s, %d s" % (cmd, secs)
# Lines longer than 100 characters wrap at a space.
joined = " ".join(texts[texts.index(escape(line1)):])
for want in (line1, line2):
    if escape(want) not in joined:
        sys.exit("title line %r not in %s" % (want, texts[-3:]))
PY

# The -h text of the same run: the same curves (and maxima) as the JSON.
plot_ok "$IMG/hist.svg" "$WORK/hist.txt"
check_svg "$IMG/hist.svg" "$WORK/hist.txt"
expect_match "$IMG/hist.svg" '<text>Latency histogram</text>'
python3 - "$IMG/run.svg" "$IMG/hist.svg" >"$WORK/same.diag" 2>&1 <<'PY' || fail "$(cat "$WORK/same.diag")"
import re, sys
maxima = [re.findall(r"<text>thread \d+[^<]*: max (\d+) us", open(p).read()) for p in sys.argv[1:]]
if maxima[0] != maxima[1] or len(maxima[0]) != 2:
    sys.exit("maxima of the JSON %s and of the text %s differ" % tuple(maxima))
PY
# With -H the text has an "all threads" column: still one curve per thread.
# shellcheck disable=SC2086
"$CT" -q $MLOCK -p "$PRIO" -t 2 -i 500 -l 400 -H 300 --histfile="$WORK/histall.txt" \
	--no-preflight >/dev/null 2>&1 </dev/null || fail "cyclictest -H run"
plot_ok "$IMG/histall.png" "$WORK/histall.txt"
check_png "$IMG/histall.png" 2
plot_ok "$IMG/histall.svg" "$WORK/histall.txt"
check_svg "$IMG/histall.svg" "$WORK/histall.txt"
# --ns: the text of a -N run.
plot_ok "$IMG/histns.svg" --ns "$WORK/hist.txt"
expect_match "$IMG/histns.svg" '<text>[0-9.]+ (ns|us|ms)</text>'
expect_match "$IMG/histns.svg" '<text>thread 0: max [0-9]+ ns'

# Layout checks on synthetic results, whatever this machine's latencies:
# rt-tests 2.4's JSON (its -h histogram of 30 buckets, and the samples of
# 10..70 us that fell beyond it), one whose every sample is beyond it (a
# machine slower than its -h: only the max's dot, at 1 sample, and a y axis
# that still has tick labels), and a tail bucket 32 us wide.
python3 "$HELPERS/synth_result.py" "$WORK/syn.json" threads=2 cycles=2000 base=10 spread=60
python3 "$HELPERS/synth_result.py" "$WORK/old.json" threads=2 cycles=2000 base=10 spread=60 v24=30
python3 "$HELPERS/synth_result.py" "$WORK/beyond.json" threads=2 cycles=4000 base=500 spread=900 v24=30
python3 "$HELPERS/synth_result.py" "$WORK/beyond1.json" threads=2 cycles=4000 base=29 spread=900 v24=30
plot_ok "$IMG/beyond.svg" "$WORK/beyond.json"
check_svg "$IMG/beyond.svg" "$WORK/beyond.json"
expect_match "$IMG/beyond.svg" '<text>thread 0, CPU 0: max 1400 us, 4000 beyond the histogram</text>'
plot_ok "$IMG/beyond1.svg" "$WORK/beyond1.json"
check_svg "$IMG/beyond1.svg" "$WORK/beyond1.json"
plot_ok "$IMG/beyond.png" "$WORK/beyond.json"
check_png "$IMG/beyond.png" 2
python3 - "$WORK/syn.json" "$WORK/tail.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["thread"]["0"]
t["latency_histogram"]["buckets"]["4096"] = 1  # a tail bucket 32 us wide
t["latency_histogram"]["count"] += 1
t["max"] = t["latency_histogram"]["max"] = 4100
json.dump(d, open(sys.argv[2], "w"))
PY
plot_ok "$IMG/old.svg" "$WORK/old.json"
check_svg "$IMG/old.svg" "$WORK/old.json"
expect_match "$IMG/old.svg" 'beyond the histogram</text>'
expect_match "$IMG/old.svg" '<text>Latency of [^<]*, kernel [^<,]*</text>'
plot_ok "$IMG/tail.svg" "$WORK/tail.json"
check_svg "$IMG/tail.svg" "$WORK/tail.json"
expect_match "$IMG/tail.svg" '<text>thread 0, CPU 0: max 4100 us</text>'

# A merge (of runs on one host) and several files in one plot.
"$RLR" merge "$WORK/run.json" "$WORK/tail.json" -o "$WORK/merged.json" 2>"$ERR" ||
	fail "merge: $(cat "$ERR")"
plot_ok "$IMG/merged.svg" "$WORK/merged.json"
check_svg "$IMG/merged.svg" "$WORK/merged.json"
expect_match "$IMG/merged.svg" ', merge of 2 runs</text>'
plot_ok "$IMG/two.svg" "$WORK/run.json" "$WORK/old.json"
check_svg "$IMG/two.svg" "$WORK/run.json" "$WORK/old.json"
expect_match "$IMG/two.svg" '<text>2 results: run.json old.json</text>'
# Results of other hosts and kernels: the title names them, or counts them.
python3 - "$WORK/run.json" "$WORK" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for n in range(1, 5):
    d["sysinfo"]["nodename"] = "board%d" % n
    d["sysinfo"]["release"] = "6.12.%d-rt" % (n % 2)
    json.dump(d, open("%s/board%d.json" % (sys.argv[2], n), "w"))
PY
host=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["sysinfo"]["nodename"], d["sysinfo"]["release"])' "$WORK/run.json")
plot_ok "$IMG/hosts.svg" "$WORK/run.json" "$WORK/board1.json" "$WORK/board2.json"
expect_match "$IMG/hosts.svg" "<text>Latency of ${host% *}, board1, board2, kernels ${host#* }, 6.12.1-rt, 6.12.0-rt</text>"
plot_ok "$IMG/boards.svg" "$WORK/run.json" "$WORK"/board[1-4].json
check_svg "$IMG/boards.svg" "$WORK/run.json" "$WORK"/board[1-4].json
expect_match "$IMG/boards.svg" "<text>Latency of 5 hosts, kernels ${host#* }, 6.12.1-rt, 6.12.0-rt</text>"
# Ten curves: the key moves beside the plot, in small type.
[ "$(grep -c 'font-size="8.00"' "$IMG/boards.svg")" -eq 10 ] || fail "boards.svg: the key is not in small type"
[ "$(grep -c 'font-size="8.00"' "$IMG/run.svg")" -eq 0 ] || fail "run.svg: a key of 2 curves in small type"

# A pair tool (the receiver's latency) and a -N run.
"$(tool ptsematest)" -q -p "$PRIO" -t 2 -l 300 -i 500 --no-preflight --json="$WORK/pair.json" \
	>/dev/null 2>&1 </dev/null || fail "ptsematest run"
plot_ok "$IMG/pair.svg" "$WORK/pair.json"
check_svg "$IMG/pair.svg" "$WORK/pair.json"
# shellcheck disable=SC2086
"$CT" -q $MLOCK -p "$PRIO" -t 1 -N -l 300 -i 500 --no-preflight --json="$WORK/ns.json" \
	>/dev/null 2>&1 </dev/null || fail "cyclictest -N run"
plot_ok "$IMG/ns.svg" "$WORK/ns.json"
check_svg "$IMG/ns.svg" "$WORK/ns.json"
expect_match "$IMG/ns.svg" '<text>[0-9.]+ (ns|us|ms)</text>'
no_leftovers

# gnuplot missing, failing, killed, writing nothing: exit 1, one line, no
# image, and an image already there is kept.
echo "an older plot" >"$IMG/keep.png"
RC=0
PATH=/nonexistent "$RLR" plot "$WORK/run.json" -o "$IMG/keep.png" >"$OUT" 2>"$ERR" </dev/null || RC=$?
expect_exit 1
expect_text "$ERR" "rt-latency-report: cannot run gnuplot: No such file or directory (it draws the plots: apt-get install gnuplot-nox, or dnf install gnuplot)"
mkdir "$WORK/fake"
for body in 'cat >/dev/null; echo "line 3: boom" >&2; exit 1' 'cat >/dev/null; exit 0' \
	'kill -9 $$'; do
	printf '#!/bin/sh\n%s\n' "$body" >"$WORK/fake/gnuplot"
	chmod +x "$WORK/fake/gnuplot"
	RC=0
	PATH="$WORK/fake:$PATH" "$RLR" plot "$WORK/run.json" -o "$IMG/keep.png" \
		>"$OUT" 2>"$ERR" </dev/null || RC=$?
	expect_exit 1
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "gnuplot '$body': $(cat "$ERR")"
	case $body in
	*boom*) expect_text "$ERR" "rt-latency-report: gnuplot failed: line 3: boom" ;;
	*exit\ 0) expect_text "$ERR" "rt-latency-report: gnuplot wrote no image" ;;
	*kill*) expect_text "$ERR" "rt-latency-report: gnuplot was killed by signal 9" ;;
	esac
	expect_text "$IMG/keep.png" "an older plot"
done
no_leftovers

# Bad input: one line (and the usage hint for usage errors), no image.
echo "neither JSON nor a histogram" >"$WORK/garbage.txt"
echo '{"a": 1}' >"$WORK/other.json"
printf '# Histogram\n000000 000001\t000002\n000001 000003\n' >"$WORK/badrow.txt"
python3 - "$WORK/old.json" "$WORK/nohist.json" "$WORK/empty.json" "$WORK/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["thread"]["1"]["histogram"]
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[4]))
d["thread"]["1"]["latency_histogram"]["buckets"]["257"] = 1  # inside bucket 256..257
json.dump(d, open(sys.argv[2].replace("nohist", "badkey"), "w"))
d = json.load(open(sys.argv[4]))
for t in d["thread"].values():
    t["latency_histogram"]["buckets"] = {}
    t["max"] = None
json.dump(d, open(sys.argv[3], "w"))
PY
while IFS='|' read -r code lines args re; do
	# shellcheck disable=SC2086
	report plot $args
	expect_exit "$code"
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq "$lines" ] || fail "plot $args: $(cat "$ERR")"
	expect_match "$ERR" "^rt-latency-report: $re"
	expect_text "$IMG/keep.png" "an older plot"
done <<EOF
2|2|$WORK/run.json|plot needs -o OUT.png or -o OUT.svg
2|2|$WORK/run.json -o $IMG/keep.pdf|-o: '.*/keep.pdf' must end in .png or .svg
2|2|-o $IMG/keep.png|plot needs at least one file
2|2|--bogus $WORK/run.json -o $IMG/keep.png|unrecognized or ambiguous option '--bogus'
1|1|$WORK/missing.json -o $IMG/keep.png|cannot read '.*/missing.json': No such file or directory
1|1|$WORK/garbage.txt -o $IMG/keep.png|cannot read '.*/garbage.txt': neither JSON nor cyclictest's histogram text
2|1|$WORK/other.json -o $IMG/keep.png|'.*/other.json' is not a result of rt-tests-ng or rt-tests 2.4
2|1|$WORK/badrow.txt -o $IMG/keep.png|'.*/badrow.txt' line 3: not a row of cyclictest's histogram
2|1|$WORK/badkey.json -o $IMG/keep.png|'.*/badkey.json' thread 1: bucket '257' is not a bucket of its histogram
2|1|$WORK/nohist.json -o $IMG/keep.png|'.*/nohist.json' thread 1: no histogram to plot \(rt-tests 2.4 writes one with -h\)
2|2|$WORK/run.json $WORK/ns.json -o $IMG/keep.png|'.*/run.json' \(us\) and '.*/ns.json' \(ns\) are not in the same unit
1|1|$WORK/empty.json -o $IMG/keep.png|nothing to plot: no samples in .*/empty.json
1|1|$WORK/run.json -o $WORK/nodir/x.png|cannot write '.*/nodir/x.png': No such file or directory
EOF
no_leftovers
report --help
expect_match "$OUT" '^rt-latency-report plot FILE\.\.\. -o OUT\.png\|OUT\.svg \[--ns\]$'
finish
