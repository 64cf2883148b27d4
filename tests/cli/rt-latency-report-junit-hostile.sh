#!/bin/sh
# Proves rt-latency-report junit refuses bad input with one line on stderr,
# exit 2 (1 for a file it cannot read), nothing on stdout and no report
# (an existing one kept, no file left beside it): not JSON, not a result, a
# histogram text, wrong types, numbers beyond 64 bits, strings and member
# names XML 1.0 cannot carry (control characters, NUL, U+FFFF), a bad
# file after good ones; usage errors. And that strings
# with XML's special characters (< > & " ', tab, line breaks, "]]>",
# non-ASCII) are valid input: libxml2 escapes them, the report validates
# against junit-10.xsd and a parser reads every one back unchanged.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
need_cmd xmllint
RLR=$(tool rt-latency-report)
XSD="$top_srcdir/tests/data/junit-10.xsd"

mkdir "$WORK/in" "$WORK/out"
python3 "$HELPERS/junit_inputs.py" "$WORK/in" || exit 99
GOOD="$WORK/in/ct.json"
printf 'the report of an earlier run\n' >"$WORK/out/r.xml"
cp "$WORK/out/r.xml" "$WORK/kept.xml"

# name PYTHON-STATEMENT: a variant of ct.json (d is the document, t thread 0).
variant() {
	python3 - "$GOOD" "$WORK/in/$1.json" "$2" <<'PY' || exit 99
import json, sys
d = json.load(open(sys.argv[1]))
t = d["thread"]["0"]
exec(sys.argv[3])
with open(sys.argv[2], "w") as f:
    f.write(json.dumps(d) if not isinstance(d, str) else d)
PY
}

# refuse CODE REGEX FILE...: one line matching REGEX, exit CODE, no report.
refuse() {
	_code=$1
	_re=$2
	shift 2
	RC=0
	"$RLR" junit "$@" -o "$WORK/out/r.xml" >"$OUT" 2>"$ERR" || RC=$?
	expect_exit "$_code"
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$*: not one line on stderr: $(cat "$ERR")"
	grep -Eq "^rt-latency-report: .*$_re" "$ERR" || fail "$*: '$(cat "$ERR")' does not match '$_re'"
	cmp -s "$WORK/out/r.xml" "$WORK/kept.xml" || fail "$*: the existing report was changed"
	[ "$(ls "$WORK/out")" = r.xml ] || fail "$*: files left beside the report: $(ls "$WORK/out")"
}

printf '{"cmdline:": "cyclictest", ' >"$WORK/in/cut.json"
refuse 2 "cut.json': not JSON: it ends too early" "$WORK/in/cut.json"
printf '{"a": 1} x' >"$WORK/in/trail.json"
refuse 2 "not JSON: more after the end" "$WORK/in/trail.json"
printf '{"tool": "x"}\n' >"$WORK/in/other.json"
refuse 2 "is not a result of rt-tests-ng or rt-tests 2.4" "$WORK/in/other.json"
printf '# Histogram\n000000 000001\n# Total: 000000001\n' >"$WORK/in/hist.txt"
refuse 2 "is a histogram text: junit needs results in JSON" "$WORK/in/hist.txt"
refuse 1 "cannot read '.*missing.json': No such file or directory" "$WORK/in/missing.json"

variant nthreads 'd["num_threads"] = "2"'
refuse 2 "nthreads.json' is not a result" "$WORK/in/nthreads.json"
variant cycles 't["cycles"] = "1000"'
refuse 2 "thread.0.cycles is a string: must be a count" "$WORK/in/cycles.json"
variant negative 't["cycles"] = -1'
refuse 2 "thread.0.cycles is negative" "$WORK/in/negative.json"
variant huge 'd = json.dumps(d).replace("\"cycles\": 1000", "\"cycles\": 99999999999999999999999", 1)'
refuse 2 "thread.0.cycles is beyond 64 bits" "$WORK/in/huge.json"
variant broken 'd["verdict"]["broken"] = {"limit": "max-latency"}'
refuse 2 "verdict.broken is not an array" "$WORK/in/broken.json"
variant value 'd["verdict"]["broken"][0]["value"] = "150"'
refuse 2 'verdict.broken\[0\].value is not an integer of 64 bits' "$WORK/in/value.json"
variant bigvalue 'd = json.dumps(d).replace("\"value\": 150", "\"value\": 1e400", 1)'
refuse 2 'verdict.broken\[0\].value is not an integer of 64 bits' "$WORK/in/bigvalue.json"
variant more 'd["verdict"]["broken"][0].update(result="inconclusive", more_samples="35887")'
refuse 2 'verdict.broken\[0\].more_samples is not an integer of 64 bits' "$WORK/in/more.json"
variant reason 'd["verdict"]["broken"][0].update(result="inconclusive", reason=["x"])'
refuse 2 'verdict.broken\[0\].reason is not a string' "$WORK/in/reason.json"
variant verdict 'd["verdict"] = "fail"'
refuse 2 "verdict is a string: must be an object" "$WORK/in/verdict.json"
variant limit 'd["verdict"]["broken"][0]["limit"] = "max-latency" * 4'
refuse 2 'verdict.broken\[0\].limit: more than 24 limits or one longer than 39 bytes' \
	"$WORK/in/limit.json"
variant esc 'd["environment"]["kernel_version"] = "#1 \x1b[31mSMP"'
refuse 2 "environment.kernel_version holds the character U\+001B: XML 1.0 cannot carry it" \
	"$WORK/in/esc.json"
variant nul 'd["sysinfo"]["nodename"] = "board\x00one"'
refuse 2 "sysinfo.nodename holds the character U\+0000" "$WORK/in/nul.json"
variant ffff 'd["cmdline:"] += " \uffff"'
refuse 2 "cmdline: holds the character U\+FFFF" "$WORK/in/ffff.json"
# json-c reads a lone surrogate as U+FFFD, which XML carries.
variant surrogate 'd = json.dumps(d).replace("Test CPU", "Test \\ud800CPU", 1)'
RC=0
"$RLR" junit "$WORK/in/surrogate.json" -o "$WORK/out/sur.xml" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
grep -q "name=\"environment.cpu_model\" value=\"Test $(printf '\357\277\275')CPU\"" "$WORK/out/sur.xml" ||
	fail "a lone surrogate is not U+FFFD: $(grep cpu_model "$WORK/out/sur.xml")"
rm -f "$WORK/out/sur.xml"
variant key 'd["environment"]["bell\x07"] = 1'
refuse 2 "environment: a member name holds the character U\+0007" "$WORK/in/key.json"
variant deep 'd["environment"]["cpus"][1]["governor"] = "perf\x01"'
refuse 2 'environment.cpus\[1\].governor holds the character U\+0001' "$WORK/in/deep.json"
# The file's name is a property: one XML cannot carry is refused too.
cp "$GOOD" "$WORK/in/bell$(printf '\007').json"
refuse 2 "a result's file name holds the character U\+0007" "$WORK/in/bell"*.json
# A bad file after good ones: nothing written.
refuse 2 "esc.json': environment.kernel_version" "$GOOD" "$WORK/in/pair.json" "$WORK/in/esc.json"

# Usage errors.
RC=0
"$RLR" junit "$GOOD" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
grep -q "junit needs -o REPORT.xml" "$ERR" || fail "no -o: $(cat "$ERR")"
RC=0
"$RLR" junit -o "$WORK/out/x.xml" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
grep -q "junit needs at least one result file" "$ERR" || fail "no file: $(cat "$ERR")"
RC=0
"$RLR" junit --bogus "$GOOD" -o "$WORK/out/x.xml" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
[ ! -e "$WORK/out/x.xml" ] || fail "a usage error wrote a report"

# XML's special characters are valid input, escaped by libxml2, read back unchanged.
variant special 'd["cmdline:"] = "cyclictest --max-latency=100 -q <in >out & \"q\" \x27a\x27\tTAB\nLF\rCR ]]> µs ✓"
d["sysinfo"]["nodename"] = "a<b&c\"d\x27e>f"
d["environment"]["kernel_version"] = "]]><![CDATA[ &amp; &#1;"
d["environment"]["odd key <&>"] = "v"
d["verdict"]["broken"][0]["detail"] = "<x>"'
RC=0
"$RLR" junit "$WORK/in/special.json" -o "$WORK/out/s.xml" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
expect_empty_stderr
xmllint --noout --schema "$XSD" "$WORK/out/s.xml" 2>"$WORK/xmllint.err" ||
	fail "not valid against junit-10.xsd: $(cat "$WORK/xmllint.err")"
python3 - "$WORK/in/special.json" "$WORK/out/s.xml" <<'PY' || fail "special characters not read back unchanged"
import json, sys
import xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
suite = ET.parse(sys.argv[2]).getroot().find("testsuite")
props = {p.get("name"): p.get("value") for p in suite.iter("property")}
want = {"cmdline": d["cmdline:"], "sysinfo.nodename": d["sysinfo"]["nodename"],
        "environment.kernel_version": d["environment"]["kernel_version"],
        "environment.odd key <&>": "v"}
bad = [(k, props.get(k), v) for k, v in want.items() if props.get(k) != v]
if suite.get("hostname") != d["sysinfo"]["nodename"]:
    bad.append(("hostname", suite.get("hostname"), d["sysinfo"]["nodename"]))
for b in bad:
    print("%s: read back %r, wrote %r" % b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

exit $((FAILS > 0))
