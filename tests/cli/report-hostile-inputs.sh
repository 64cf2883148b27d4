#!/bin/sh
# Proves every rt-latency-report command (compare, merge, plot, html) refuses
# hostile inputs with one line on stderr and exit 1 or 2, in bounded time
# (timeout) and memory (ulimit -v), and that nothing else happens: nothing
# on stdout, no output file, no canary. The corpus is generated here: deep
# nesting, a 1 GiB file (sparse) and a 300 MiB stream, 10^6 threads, NaN
# and Infinity, 64-bit overflow in every count, wrong types, a NUL byte,
# bytes that are not UTF-8, what follows the document, malformed histogram
# texts. Labels with quotes, backquotes, newlines and control characters
# are valid: compare and merge accept them (merge's output is valid JSON
# keeping them) and run nothing. Duplicate keys: json-c keeps the last.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)
H="$WORK/h"
RUN="$WORK/run"
mkdir "$H" "$RUN"
GOOD="$WORK/good.json"
python3 "$HELPERS/synth_result.py" "$GOOD" threads=2 cycles=200 host=good start=1600000000

# Memory bound (an ASan build reserves more address space than any bound).
LIMIT_KB=1048576
if (ulimit -v "$LIMIT_KB" && "$RLR" --version) >/dev/null 2>&1; then
	ULIMIT="ulimit -v $LIMIT_KB"
else
	ULIMIT=":"
	echo "ulimit -v $LIMIT_KB: the binary cannot run under it (sanitizers?): time bound only"
fi

python3 - "$GOOD" "$H" <<'PY'
import copy, json, sys
good = json.load(open(sys.argv[1]))
d = sys.argv[2]
def put(name, doc):
    with open("%s/%s" % (d, name), "wb") as f:
        f.write(doc if isinstance(doc, bytes) else json.dumps(doc).encode())
def variant(name, fn):
    doc = copy.deepcopy(good)
    fn(doc, doc["thread"]["0"])
    put(name, doc)
text = json.dumps(good)
put("deep.json", b'{"a":' + b"[" * 100000 + b"]" * 100000 + b"}")
put("deep-thread.json", text.replace('"cpu": 0', '"cpu": ' + "[" * 40 + "]" * 40, 1).encode())
put("threads.json", b'{"rt_test_version:": "2.40", "cmdline:": "cyclictest", "num_threads": 1000000, "thread": {'
    + b",".join(b'"%d": {}' % i for i in range(1000000)) + b"}}")
put("nan.json", text.replace('"avg": ', '"avg": NaN, "x": ', 1).encode())
put("inf.json", text.replace('"max": ', '"max": Infinity, "x": ', 1).encode())
put("ninf.json", text.replace('"min": ', '"min": -Infinity, "x": ', 1).encode())
big = 18446744073709551616
for key in ("cycles", "overruns", "min", "max", "cpu"):
    variant("over-%s.json" % key, lambda doc, t, key=key: t.__setitem__(key, big))
variant("over-count.json", lambda doc, t: t["latency_histogram"].__setitem__("count", big))
variant("over-bucket.json", lambda doc, t: t["latency_histogram"]["buckets"].__setitem__("10", big))
variant("over-linear.json", lambda doc, t: t["histogram"].__setitem__("10", big))
variant("over-pct.json", lambda doc, t: t["percentiles"].__setitem__("p99", big))
variant("over-allpct.json", lambda doc, t: doc["percentiles"].__setitem__("p50", -big))
variant("over-rc.json", lambda doc, t: doc.__setitem__("return_code", big))
variant("over-threads.json", lambda doc, t: doc.__setitem__("num_threads", big))
variant("sum-buckets.json", lambda doc, t: t["latency_histogram"].__setitem__("buckets", {"10": 2**62, "11": 2**62}))
variant("type-cycles.json", lambda doc, t: t.__setitem__("cycles", "200"))
variant("type-max.json", lambda doc, t: t.__setitem__("max", True))
variant("type-avg.json", lambda doc, t: t.__setitem__("avg", "12.5"))
variant("type-thread.json", lambda doc, t: doc["thread"].__setitem__("0", [1, 2]))
variant("type-lh.json", lambda doc, t: t.__setitem__("latency_histogram", "log-linear"))
variant("type-buckets.json", lambda doc, t: t["latency_histogram"].__setitem__("buckets", [1, 2]))
variant("type-bucket.json", lambda doc, t: t["latency_histogram"]["buckets"].__setitem__("10", 1.5))
variant("type-sysinfo.json", lambda doc, t: doc.__setitem__("sysinfo", "Linux"))
variant("type-host.json", lambda doc, t: doc["sysinfo"].__setitem__("nodename", ["a"]))
variant("type-pcts.json", lambda doc, t: doc.__setitem__("percentiles", [1, 2]))
variant("type-nthreads.json", lambda doc, t: doc.__setitem__("num_threads", "2"))
variant("type-thread-obj.json", lambda doc, t: doc.__setitem__("thread", [good["thread"]["0"]]))
variant("neg-count.json", lambda doc, t: t.__setitem__("cycles", -5))
variant("zero-threads.json", lambda doc, t: doc.__setitem__("num_threads", 0))
put("nul.json", text.replace('"good"', '"go\\u0000od"', 1).encode().replace(b"\\u0000", b"\x00"))
put("latin1.json", text.replace('"good"', '"g\xf6od"', 1).encode("latin-1"))
put("overlong.json", text.encode().replace(b'"good"', b'"g\xc0\xafod"', 1))
put("surrogate.json", text.encode().replace(b'"good"', b'"g\xed\xa0\x80od"', 1))
put("trailing.json", (text + "\n{}").encode())
put("truncated.json", text[: len(text) // 2].encode())
put("empty.json", b"")
put("notjson.json", b"{not json")
put("text-range.txt", b"# Histogram\n000010 99999999999999999999999\n# Max Latencies: 00010\n")
put("text-columns.txt", b"# Histogram\n000010" + b"\t1" * 5000 + b"\n")
put("text-sign.txt", b"# Histogram\n000010 -5\n")
put("text-nul.txt", b"# Histogram\n000010 \x00 5\n")
put("text-order.txt", b"# Histogram\n000011 1\n000010 1\n")
put("text-none.txt", b"# Histogram\n# Max Latencies: 00010\n")
# Valid, if hostile, labels: accepted.
ok = copy.deepcopy(good)
s = "q\"q'q`touch PWNED`\nn\\n\x01\x1b[31m$(touch PWNED)"
ok["sysinfo"]["nodename"] = ok["sysinfo"]["release"] = ok["cmdline:"] = "/usr/bin/cyclictest " + s
ok["start_time"] = "Sun, 13 Sep 2020 12:26:40 -0000"
put("labels.json.ok", ok)
dup = json.dumps(dict(good, start_time="Sat, 14 Nov 2020 00:00:00 -0000"))
open("%s/dup.json.ok" % d, "w").write(dup.replace('"num_threads": 2', '"num_threads": 7, "num_threads": 2', 1))
PY
truncate -s 1G "$H/sparse.json"
{ printf '{"a": "'; truncate -s 1G "$H/sparse2"; cat "$H/sparse2"; } >/dev/null 2>&1 || true

run() { # CMD ARGS...: bounded in time and memory, in $RUN (canary's place)
	RC=0
	(cd "$RUN" && eval "$ULIMIT" && exec timeout -k 2 30 "$RLR" "$@") >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

refused() { # WHAT CMD ARGS...
	_what=$1
	shift
	run "$@"
	[ "$RC" -eq 1 ] || [ "$RC" -eq 2 ] || fail "$_what: exit $RC (124: timeout): $(head -c 300 "$ERR")"
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$_what: not one line: $(head -c 300 "$ERR")"
	expect_match "$ERR" '^rt-latency-report: '
	expect_empty_stdout
	[ -z "$(ls -A "$RUN")" ] || fail "$_what: left $(ls -A "$RUN")"
	rm -rf "${RUN:?}"/* "$RUN"/.[!.]* 2>/dev/null || true
}

n=0
for f in "$H"/*.json "$H"/*.txt; do
	b=$(basename "$f")
	refused "compare $b" compare "$f" "$GOOD"
	refused "merge $b" merge "$GOOD" "$f" -o "$RUN/out.json"
	refused "plot $b" plot "$f" -o "$RUN/out.svg"
	refused "html $b" html "$f" -o "$RUN/out.html"
	n=$((n + 1))
done
[ "$n" -ge 45 ] || fail "only $n hostile files"
run plot "$H/sparse.json" -o "$RUN/out.png"
expect_exit 1
expect_text "$ERR" "rt-latency-report: cannot read '$H/sparse.json': larger than 256 MiB (the most an input may hold)"
# A stream beyond the limit is cut at it, and refused.
RC=0
(eval "$ULIMIT" && head -c 300000000 /dev/zero | timeout -k 2 30 "$RLR" compare /dev/stdin "$GOOD") \
	>"$OUT" 2>"$ERR" || RC=$?
expect_exit 1
expect_text "$ERR" "rt-latency-report: cannot read '/dev/stdin': larger than 256 MiB (the most an input may hold)"

# Hostile labels are text: compare and merge accept them, run nothing, and
# the merge is valid JSON with them kept (plot: report-plot-injection.sh).
for f in "$H"/*.ok; do
	run compare "$f" "$GOOD"
	expect_exit 0
	run merge "$GOOD" "$f" -o "$WORK/merged.json"
	expect_exit 0
	[ ! -e "$RUN/PWNED" ] || fail "$f: the canary was created"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["inputs"]) == 2' \
		"$WORK/merged.json" || fail "$f: the merge is not valid JSON"
done
expect_match "$WORK/merged.json" '"num_threads": 2,'
finish
