#!/bin/sh
# Proves the html report is a page a browser shows whole, offline: headless
# Chromium (the distribution's; the network off: no name resolves) loads a
# page of a real cyclictest run, its records, a killed run's records and a
# merge, a comparison, and a page of hostile labels. For each: the
# screenshot is not blank, the DOM holds the JSON's numbers (min, avg, max,
# percentiles, broken limits), the console is silent (no script error, no
# policy violation) and the page made no request (Chromium's net log has no
# URL but the browser's own services); --print-to-pdf gives a PDF (pdfinfo).
# A control page (no policy, a script error, an image from 127.0.0.1)
# proves the console and net-log checks see what they look for.
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
need_cmd chromium
need_cmd pdfinfo
RLR=$(tool rt-latency-report)
CHECK="$HELPERS/html_check.py"

# chrome PAGE ACTION...: headless, logging to $WORK/log, net log to $WORK/net.json.
chrome() {
	_page=$1
	shift
	rm -rf "$WORK/profile" "$WORK/net.json"
	mkdir "$WORK/profile"
	RC=0
	timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$WORK/profile" --host-resolver-rules="MAP * ~NOTFOUND" \
		--enable-logging=stderr --v=0 --log-net-log="$WORK/net.json" \
		--virtual-time-budget=3000 --window-size=1200,2400 "$@" "file://$_page" \
		>"$WORK/dom.html" 2>"$WORK/log" </dev/null || RC=$?
	[ "$RC" -eq 0 ] || fail "chromium on $_page: exit $RC: $(tail -n 3 "$WORK/log")"
}

# The page's own requests: URLs of the net log but the browser's services.
requests() {
	python3 - "$WORK/net.json" "$1" <<'PY'
import json, re, sys
page = "file://" + sys.argv[2]
text = open(sys.argv[1]).read()
urls = set(re.findall(r'"url":"([^"]*)"', text))
own = re.compile(r"^https?://[a-z0-9.-]*(google\.com|googleapis\.com|gstatic\.com|gvt1\.com)(:\d+)?/")
for u in sorted(urls):
    if u != page and not own.match(u):
        print(u)
PY
}

# shown PAGE JSON...: screenshot, DOM with the numbers, silent, no request.
shown() {
	_page=$1
	shift
	chrome "$_page" --screenshot="$WORK/shot.png" --dump-dom
	python3 "$CHECK" png "$WORK/shot.png" >"$WORK/diag" 2>&1 || fail "$_page: $(cat "$WORK/diag")"
	for _json in "$@"; do
		python3 "$CHECK" numbers "$WORK/dom.html" "$_json" >"$WORK/diag" 2>&1 ||
			fail "$_page: $(cat "$WORK/diag")"
	done
	! grep -E 'CONSOLE|Uncaught|Refused to' "$WORK/log" >"$WORK/diag" ||
		fail "$_page: console: $(head -c 400 "$WORK/diag")"
	requests "$_page" >"$WORK/diag"
	[ ! -s "$WORK/diag" ] || fail "$_page: requested $(head -c 400 "$WORK/diag")"
}

# The control: the checks see an error and a request where there are some.
printf '%s\n' '<!DOCTYPE html><html><head><meta charset="utf-8"><title>c</title></head><body>' \
	'<p>control</p><img src="http://127.0.0.1:9/control"><script>undefinedFn();</script></body></html>' \
	>"$WORK/control.html"
chrome "$WORK/control.html" --dump-dom
grep -q 'CONSOLE.*Uncaught' "$WORK/log" || fail "control: the script error is not in the log"
requests "$WORK/control.html" | grep -q '^http://127.0.0.1:9/control$' ||
	fail "control: the image's request is not in the net log"

# A real run (its limit broken: FAIL), its records, a killed run's, a merge.
run_tool_timeout 30 cyclictest -q -p 80 -t 2 -i 1000 -D 2 --max-latency=1 --no-preflight \
	--json="$WORK/run.json" --records="$WORK/run.ndjson" --records-interval=1
[ "$RC" -eq 3 ] || fail "cyclictest: exit $RC, expected 3 (FAIL): $(head -c 300 "$ERR")"
python3 "$HELPERS/synth_records.py" "$WORK/killed.ndjson" total=0 windows=5 spike=2
python3 "$HELPERS/synth_result.py" "$WORK/a.json" host=board-a verdict=pass start=1700000000
python3 "$HELPERS/synth_result.py" "$WORK/b.json" host=board-b verdict=fail start=1700000100 \
	tail=900
"$RLR" merge "$WORK/a.json" "$WORK/b.json" -o "$WORK/merge.json" || fail "merge"
"$RLR" html "$WORK/run.json" "$WORK/run.ndjson" "$WORK/killed.ndjson" "$WORK/merge.json" \
	-o "$WORK/all.html" || fail "html"
shown "$WORK/all.html" "$WORK/run.json" "$WORK/merge.json"
grep -q 'Verdict: FAIL' "$WORK/dom.html" || fail "all.html: no FAIL verdict"
grep -q 'Verdict: PARTIAL' "$WORK/dom.html" || fail "all.html: the killed run is not partial"
grep -q 'board-b' "$WORK/dom.html" || fail "all.html: no row of the merge's inputs"
chrome "$WORK/all.html" --print-to-pdf="$WORK/all.pdf" --no-pdf-header-footer
pdfinfo "$WORK/all.pdf" >"$WORK/pdfinfo" 2>&1 || fail "pdfinfo: $(cat "$WORK/pdfinfo")"
expect_match "$WORK/pdfinfo" '^Pages: +[1-9]'

"$RLR" html --compare "$WORK/a.json" "$WORK/run.json" -o "$WORK/cmp.html" || fail "html --compare"
shown "$WORK/cmp.html" "$WORK/a.json" "$WORK/run.json"

python3 - "$WORK/a.json" "$WORK/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = "<img src=http://127.0.0.1:9/evil><script>undefinedFn()</script></title>\"'`javascript:x\x01"
d["sysinfo"]["nodename"] = d["cmdline:"] = d["start_time"] = e
d["environment"]["preflight"] = [e]
d[e] = {e: e}
json.dump(d, open(sys.argv[2], "w"))
PY
"$RLR" html "$WORK/evil.json" -o "$WORK/evil.html" || fail "html of hostile labels"
shown "$WORK/evil.html" "$WORK/evil.json"
grep -qF '&lt;img src=http://127.0.0.1:9/evil&gt;&lt;script&gt;' "$WORK/dom.html" ||
	fail "evil.html: the labels are not shown as text"
finish
