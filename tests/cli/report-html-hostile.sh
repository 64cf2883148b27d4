#!/bin/sh
# Proves every field of a result is text in the html page, whatever it
# holds: backquotes, quotes, <script>, </title>, <img src=...>, javascript:
# URLs, control characters, bidi controls, bytes that are not UTF-8 (from a
# records file), in host, kernel, command line, verdict, spike, isolation,
# preflight, environment, unknown members' keys and values, and the file
# name. The page has no script, no element or attribute that loads or runs
# anything, and a policy that forbids loading; the hostile text is shown as
# written. Inputs the other commands refuse are refused with one line and
# no page (report-hostile-inputs.sh runs html on its whole corpus).
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)
CHECK="$HELPERS/html_check.py"
EVIL='q"q'"'"'q`touch PWNED` $(touch PWNED) <script>alert(1)</script></title><b>x</b> <img src=http://127.0.0.1:9/x onerror=alert(2)> javascript:alert(3) &amp; \x01\x1b[31m'
python3 "$HELPERS/synth_result.py" "$WORK/good.json" threads=2 cycles=300 verdict=fail
python3 - "$WORK/good.json" "$WORK/evil.json" "$EVIL" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = sys.argv[3].replace("\\x01", "\x01").replace("\\x1b", "\x1b") + "\u202e\n"
d["sysinfo"]["nodename"] = d["sysinfo"]["release"] = "h" + e
d["cmdline:"] = "/usr/bin/cyclictest " + e
d["start_time"] = e
d["verdict"] = {"result": "fail", "broken": [{"limit": e, "thread": 0, "value": 71, "bound": 50,
                                              "reason": e, e: e}], e: e}
d["analysis"] = {"cpu": 0, "tid": 1, "value": 71, "decomposition": {e: 3.5, "irq_latency_us": 60.1},
                 "main_blocker": {"kind": "task", "id": 7, "name": e, "priority": e, "us": 60, "share": 0.9},
                 "blockers": [{"kind": e, "name": e}], e: [e, {e: e}]}
d["isolation"] = {"cpus": [{"cpu": 0, "interrupts": {"total": 5, "by_source": {e: 5}},
                            "softirqs": {"total": 1, "by_kind": {e: 1}}}]}
d["environment"]["preflight"] = [e, "RT throttling is active " + e]
d["environment"][e] = {e: e}
d["environment"]["cpus"] = [{"cpu": 0, "governor": e, "deepest_idle_state": e, e: e}]
d[e] = [e, 1, None, {e: e}]
json.dump(d, open(sys.argv[2], "w"))
PY
NAME="$WORK/a<script>alert(4)'\"\`x\`.json"
cp "$WORK/evil.json" "$NAME"
python3 "$HELPERS/synth_records.py" "$WORK/evil.ndjson" total=0 windows=3 \
	raw_host=$(printf 'h\377\376<script>alert(5)</script>\\u0001' | od -An -tx1 | tr -d ' \n')

mkdir "$WORK/run"
page() { # OUT INPUT...: a page, exit 0, nothing printed, no canary
	_out=$1
	shift
	RC=0
	(cd "$WORK/run" && timeout 30 "$RLR" html -o "$_out" "$@") >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 0
	expect_empty_stdout
	expect_empty_stderr
	[ ! -e "$WORK/run/PWNED" ] || fail "the canary was created"
	python3 "$CHECK" safe "$_out" >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
	# Not a byte of markup from the input: every '<' of it is escaped.
	! grep -qiE '<script|<img|<b>x|</title><b>' "$_out" || fail "$_out: markup from the input"
}
page "$WORK/evil.html" "$NAME"
# Shown as written: the quotes, markup, URL; controls as Control Pictures.
python3 "$CHECK" text "$WORK/evil.html" '<script>alert(1)</script></title><b>x</b>' \
	'javascript:alert(3) &amp;' 'q"q'"'"'q`touch PWNED` $(touch PWNED)' \
	'<img src=http://127.0.0.1:9/x onerror=alert(2)>' '\u2401\u241b[31m' '[U+202E]\u240a' \
	"a<script>alert(4)'\"\`x\`.json" >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
# Bytes that are not UTF-8 (a records file's) as U+FFFD; the killed run partial.
page "$WORK/rec.html" "$WORK/evil.ndjson"
python3 "$CHECK" text "$WORK/rec.html" 'h\ufffd\ufffd<script>alert(5)</script>' \
	'Verdict: PARTIAL' >"$WORK/diag" 2>&1 || fail "$(cat "$WORK/diag")"
# Several of them, a comparison.
page "$WORK/both.html" "$NAME" "$WORK/evil.ndjson"
page "$WORK/cmp.html" --compare "$WORK/good.json" "$NAME"
# The same page whatever the file: no byte of an input in the page's markup.
expect_match "$WORK/evil.html" "default-src 'none'"

# Refused: one line, exit 1 or 2, no page.
RC=0
"$RLR" html -o "$WORK/run/x.html" "$WORK/nonexistent.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 1
RC=0
"$RLR" html -o "$WORK/run/x.pdf" "$WORK/good.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
RC=0
"$RLR" html --compare -o "$WORK/run/x.html" "$WORK/good.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
expect_match "$ERR" "^rt-latency-report: html --compare needs two files"
[ -z "$(ls -A "$WORK/run")" ] || fail "left $(ls -A "$WORK/run")"
finish
