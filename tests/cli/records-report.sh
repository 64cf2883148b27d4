#!/bin/sh
# Proves that rt-latency-report reads a --records file as the run it
# describes: a cyclictest run killed (SIGKILL) after ~6 of its 20 s, and an
# svsematest one (windows per pair receiver), give a "partial" result whose
# histograms are their window lines added up (merge), a valid plot, and a
# compare with itself that changes nothing; a torn last line is ignored; the
# records of a run that ended read back equal to its --json exactly.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
RLR=$(tool rt-latency-report)
CHECK="$HELPERS/records_result.py"

result_ok() { # MERGED RECORDS partial|complete [JSON]
	python3 "$CHECK" "$@" >"$WORK/diag" 2>&1 || fail "$2: $(head -n 5 "$WORK/diag")"
}

killed_run() { # NAME SECONDS TOOL ARGS...: records of a run killed after SECONDS
	_name=$1 _secs=$2
	shift 2
	_tool=$(tool "$1")
	shift
	"$_tool" "$@" --records-interval=1 --no-preflight --records="$WORK/$_name.ndjson" \
		--json="$WORK/$_name.json" >/dev/null 2>&1 </dev/null &
	_pid=$!
	sleep "$_secs"
	kill -KILL "$_pid"
	wait "$_pid" 2>/dev/null
	[ ! -e "$WORK/$_name.json" ] || fail "$_name: a --json after SIGKILL"
}

reads_killed() { # NAME TOOL
	f="$WORK/$1.ndjson"
	RC=0
	"$RLR" merge -o "$WORK/$1-m.json" "$f" >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 0
	result_ok "$WORK/$1-m.json" "$f" partial
	[ "$(grep -c '"type":"window"' "$f")" -ge 6 ] || fail "$1: fewer than 3 windows before the kill"
	RC=0
	"$RLR" compare "$f" "$f" >"$OUT" 2>"$ERR" || RC=$?
	# nothing worse, but a killed run: INCONCLUSIVE (exit 4), never a complete PASS
	expect_exit 4
	expect_match "$OUT" "^# rt-latency-report compare: .*[(]$2, us, "
	awk '$1 != "#" && $1 != "thread" && $NF != "+0.0%" { bad = 1 } END { exit bad }' "$OUT" ||
		fail "$1: compare with itself shows a change: $(cat "$OUT")"
	# A killed run is never read as a complete one.
	expect_match "$OUT" "^# .*/$1.ndjson: PARTIAL: the run stopped early"
	expect_match "$OUT" '^# Verdict: INCONCLUSIVE [(]no value worse, but .* stopped early[)]$'
	if command -v gnuplot >/dev/null 2>&1; then
		RC=0
		"$RLR" plot "$f" -o "$WORK/$1.png" >"$OUT" 2>"$ERR" || RC=$?
		expect_exit 0
		python3 "$HELPERS/plot_check.py" png "$WORK/$1.png" 2 >"$WORK/diag" 2>&1 ||
			fail "$1: plot: $(head -n 3 "$WORK/diag")"
		RC=0
		"$RLR" plot "$f" -o "$WORK/$1.svg" >"$OUT" 2>"$ERR" || RC=$?
		expect_exit 0
		# The curves of the records are those of the result merge made of them.
		python3 "$HELPERS/plot_check.py" svg "$WORK/$1.svg" "$WORK/$1-m.json" \
			>"$WORK/diag" 2>&1 || fail "$1: plot: $(head -n 3 "$WORK/diag")"
	else
		echo "note: no gnuplot, the plot of the records is not checked"
	fi
}

killed_run crash 6.5 cyclictest -q -m -p 80 -t 2 -i 1000 -D 20
reads_killed crash cyclictest
killed_run pairs 4.5 svsematest -q -p 80 -t 2 -i 1000 -D 20
reads_killed pairs svsematest

# A torn last line (a kill inside a write) is ignored: the same result.
cp "$WORK/crash.ndjson" "$WORK/torn.ndjson"
printf '{"type":"window","thread":0,"window":99,"start":"2026-' >>"$WORK/torn.ndjson"
RC=0
"$RLR" merge -o "$WORK/torn-m.json" "$WORK/torn.ndjson" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
result_ok "$WORK/torn-m.json" "$WORK/torn.ndjson" partial
# A broken line inside is an error naming it (as any unreadable input:
# exit 1), no output.
{ head -n 2 "$WORK/crash.ndjson"; echo '{"type":"window","thread":0,'; tail -n 1 "$WORK/crash.ndjson"; } \
	>"$WORK/bad.ndjson"
RC=0
"$RLR" merge -o "$WORK/bad-m.json" "$WORK/bad.ndjson" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 1
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "not one error line: $(cat "$ERR")"
expect_match "$ERR" "^rt-latency-report: '.*/bad.ndjson' line 3: "
[ ! -e "$WORK/bad-m.json" ] || fail "an output after a broken records line"

# Runs that ended: their records read back as their --json, exactly.
for t in cyclictest svsematest; do
	rm -f "$WORK/c.ndjson"
	run_tool_timeout 30 "$t" -q -p 80 -t 2 -i 1000 -D 3 --records-interval=1 --no-preflight \
		--records="$WORK/c.ndjson" --json="$WORK/c.json"
	expect_exit 0
	RC=0
	"$RLR" merge -o "$WORK/c-m.json" "$WORK/c.ndjson" >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 0
	result_ok "$WORK/c-m.json" "$WORK/c.ndjson" complete "$WORK/c.json"
done
finish
