#!/bin/sh
# Proves verdicts, percentiles and the warm-up in signaltest, sigwaittest,
# ptsematest, svsematest and pmqtest: --max-latency=0 FAILs with exit 3 and
# one line per pair/thread, after the 2.4 block, a pair named by its number
# and its tasks as the display numbers them ("pair 1 (#3 -> #2)", byte for
# byte, with the display's maxima; the same pair, sender and receiver in the
# JSON); generous limits PASS; --percentiles prints one column
# per pair/thread, equal to the JSON, and every reported percentile is within
# 1% + 1 us above the exact one of the -v samples (signaltest); with -f the
# forked receivers fill the histogram too; --warmup=1 makes -l count only
# what comes after the first second; --max-overruns is cyclictest's only.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
rt_or_other

for t in sigwaittest ptsematest svsematest pmqtest; do
	run_tool_timeout 30 $t -q -p $PRIO -t 2 -i 500 -l 200 --max-latency=0 --percentiles \
		--json="$WORK/$t.json"
	expect_exit 3
	check_pairs "$OUT" 2 200 "$WORK/$t.json"
	sed -n '/^# P50/,$p' "$OUT" >"$WORK/after"
	cat >"$WORK/after.re" <<'RE'
# P50 Latencies: [0-9][0-9][0-9][0-9][0-9]+ [0-9][0-9][0-9][0-9][0-9]+
# P90 Latencies: [0-9][0-9][0-9][0-9][0-9]+ [0-9][0-9][0-9][0-9][0-9]+
# P99 Latencies: [0-9][0-9][0-9][0-9][0-9]+ [0-9][0-9][0-9][0-9][0-9]+
# P99\.9 Latencies: [0-9][0-9][0-9][0-9][0-9]+ [0-9][0-9][0-9][0-9][0-9]+
# P99\.99 Latencies: [0-9][0-9][0-9][0-9][0-9]+ [0-9][0-9][0-9][0-9][0-9]+
# P99\.999 Latencies: [0-9][0-9][0-9][0-9][0-9]+ [0-9][0-9][0-9][0-9][0-9]+
# P99\.9999 Latencies: [0-9][0-9][0-9][0-9][0-9]+ [0-9][0-9][0-9][0-9][0-9]+
RE
	# The intervals, one line per pair and percentile (values: unit tests).
	for i in 0 1; do
		for p in 50 90 99 99.9 99.99 99.999 99.9999; do
			printf '# T: %s p%s [0-9]+ us [(]95 %% CI [0-9]+-([0-9]+|[?]: too few samples, [0-9]+ needed)[)]\n' \
				"$i" "$(echo "$p" | sed 's/[.]/[.]/g')"
		done
	done >>"$WORK/after.re"
	cat >>"$WORK/after.re" <<'RE'
# Verdict: FAIL
# Verdict: pair 0 \(#1 -> #0\): max-latency: [1-9][0-9]* > 0 us
# Verdict: pair 1 \(#3 -> #2\): max-latency: [1-9][0-9]* > 0 us
RE
	compare_regex "$WORK/after" "$WORK/after.re"
	# Byte for byte: each pair's line names the tasks of its display line
	# "#S -> #R, Min .., Max M" and says M.
	sed -n 's/^\(#[0-9]* -> #[0-9]*\), Min .*, Max *\([0-9]*\)$/\1 \2/p' "$OUT" |
		awk 'BEGIN { print "# Verdict: FAIL" }
			{ printf "# Verdict: pair %d (%s %s %s): max-latency: %s > 0 us\n",
				NR - 1, $1, $2, $3, $4 }' >"$WORK/verdict.want"
	grep '^# Verdict' "$OUT" >"$WORK/verdict.got" || true
	compare_exact "$WORK/verdict.got" "$WORK/verdict.want"
	python3 - "$WORK/$t.json" "$OUT" <<'PY' || fail "$t: text and JSON disagree"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["return_code"] == 3 and d["verdict"]["result"] == "fail"
want = [{"limit": "max-latency", "pair": i, "sender": 2 * i + 1, "receiver": 2 * i,
         "value": d["thread"][str(i)]["receiver"]["max"], "bound": 0} for i in range(2)]
got = [{k: b[k] for k in ("limit", "pair", "sender", "receiver", "value", "bound")}
       for b in d["verdict"]["broken"]]
assert got == want, (d["verdict"]["broken"], want)
assert all(b["unit"] == "us" and b["reason"] == "%d > 0 us" % b["value"]
           for b in d["verdict"]["broken"]), d["verdict"]
text = open(sys.argv[2]).read()
for i in range(2):
    r = d["thread"][str(i)]["receiver"]
    assert r["latency_histogram"]["count"] == d["thread"][str(i)]["sender"]["samples"], i
    for name, v in r["percentiles"].items():
        m = re.search(r"^# P%s Latencies: (\d+) (\d+)$" % re.escape(name[1:]), text, re.M)
        assert int(m.group(i + 1)) == v, (name, m.group(0), v)
PY
	check_schema "$WORK/$t.json" $t

	run_tool_timeout 30 $t -q -p $PRIO -i 500 -l 100 --max-latency=3600000000 \
		--max-percentile=99.9:3600000000 --percentile-claim=point
	expect_exit 0
	[ "$(tail -n 1 "$OUT")" = "# Verdict: PASS" ] || fail "$t: last line $(tail -n 1 "$OUT")"

	start=$(date +%s%N)
	run_tool_timeout 30 $t -q -p $PRIO -i 1000 -l 100 --warmup=1 --json="$WORK/w.json"
	end=$(date +%s%N)
	expect_exit 0
	[ $(( (end - start) / 1000000 )) -ge 1100 ] || fail "$t --warmup=1 -l 100 -i 1000 ended early"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["thread"]["0"]["receiver"]; sys.exit(r["latency_histogram"]["count"] != 100)' \
		"$WORK/w.json" || fail "$t --warmup: not 100 samples kept"
	check_schema "$WORK/w.json" $t

	# Issue 29: --verdict judges without a limit; SIGINT in the middle of -D 10
	# is judged on what was measured and says partial, INCONCLUSIVE (exit 4)
	# with nothing broken; stopped before the first sample (-i 1 s) it is
	# never a PASS.
	"$(tool $t)" -q -p $PRIO -i 1000 -D 10 --verdict --json="$WORK/s.json" >"$OUT" 2>"$ERR" \
		</dev/null &
	pid=$!
	sleep 1
	kill -INT "$pid"
	RC=0
	wait "$pid" || RC=$?
	expect_exit 4
	expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
	expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT after [0-9.]+ of 10 s$'
	check_schema "$WORK/s.json" $t
	"$(tool $t)" -q -p $PRIO -i 1000000 -D 10 --verdict --json="$WORK/e.json" >"$OUT" \
		2>"$ERR" </dev/null &
	pid=$!
	sleep 0.3
	kill -INT "$pid"
	RC=0
	wait "$pid" || RC=$?
	check_schema "$WORK/e.json" $t
	python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; assert v["partial"] and v["result"] != "pass", v' \
		"$WORK/e.json" || fail "$t stopped at once: JSON verdict"
	run_tool $t -D 1 junk
	expect_exit 2

	run_tool $t -q -l 1 --max-overruns=1
	expect_exit 2
	expect_match "$ERR" "^$t: unrecognized or ambiguous option '--max-overruns=1'"
done

# sigwaittest -f: the forked receivers' histograms are in shared memory.
run_tool_timeout 30 sigwaittest -f -q -p $PRIO -t 2 -i 500 -l 150 --json="$WORK/f.json"
expect_exit 0
check_pairs "$OUT" 2 150 "$WORK/f.json"
check_schema "$WORK/f.json" sigwaittest

# signaltest: exact percentiles of every -v sample, one column per thread.
run_tool_timeout 30 signaltest -v -p $PRIO -t 3 -l 400 --percentiles --max-latency=0 \
	--json="$WORK/s.json"
expect_exit 3
check_schema "$WORK/s.json" signaltest
python3 - "$WORK/s.json" "$OUT" >"$WORK/s.diag" 2>&1 <<'PY' || fail "signaltest percentiles: $(cat "$WORK/s.diag")"
import json, re, sys
d = json.load(open(sys.argv[1]))
samples = {}
text = open(sys.argv[2]).read()
for m in re.finditer(r"^ *(\d+): *\d+: *(-?\d+)$", text, re.M):
    samples.setdefault(int(m.group(1)), []).append(int(m.group(2)))
pcts = [("p50", 500000), ("p90", 900000), ("p99", 990000), ("p99.9", 999000),
        ("p99.99", 999900), ("p99.999", 999990), ("p99.9999", 999999)]
for i in range(3):
    t = d["thread"][str(i)]
    v = sorted(samples[i])
    assert len(v) == t["cycles"] == t["latency_histogram"]["count"], (i, len(v), t["cycles"])
    cols = {}
    for name, pm in pcts:
        exact = v[max(1, -(-len(v) * pm // 1000000)) - 1]
        got = t["percentiles"][name]
        assert exact <= got <= exact + exact // 100 + 1, (i, name, got, exact)
        m = re.search(r"^# P%s Latencies:((?: \d{5,}){3})$" % re.escape(name[1:]), text, re.M)
        assert int(m.group(1).split()[i]) == got, (name, m.group(0))
v = d["verdict"]["broken"]
assert [b["thread"] for b in v] == [0, 1, 2] and all(b["limit"] == "max-latency" for b in v), v
PY

# signaltest (issue 29): SIGINT in the middle of -D 10 with --verdict: judged
# on what was measured, and partial: INCONCLUSIVE, exit 4.
"$(tool signaltest)" -q -p $PRIO -D 10 --verdict --json="$WORK/st.json" >"$OUT" 2>"$ERR" \
	</dev/null &
pid=$!
sleep 1
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_exit 4
expect_match "$OUT" '^# Verdict: INCONCLUSIVE$'
expect_match "$OUT" '^# Verdict: partial: stopped by SIGINT after [0-9.]+ of 10 s$'
check_schema "$WORK/st.json" signaltest
finish
