#!/bin/sh
# Proves cyclictest --records on real runs: whole JSON lines, the run line
# with the environment, one line per thread per --records-interval window,
# windows adding up to the totals (counts, min, max, overruns) and to the
# --json file, at the end and after SIGINT; after SIGKILL every line is
# whole and only the open window is lost; the file is appended to; bad uses
# are usage errors (exit 2), an unopenable file a run error before the run.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CT=$(tool cyclictest)
CHECK="$HELPERS/records_check.py"

records_ok() { # FILE THREADS MIN_WINDOWS MODE [JSON]
	python3 "$CHECK" "$1" cyclictest "$2" "$3" "$4" ${5:+"$5"} >"$WORK/rec.diag" 2>&1 ||
		fail "$(head -n 6 "$WORK/rec.diag")"
}

# -D 3, 1 s windows: three windows (and the few samples after the third).
run_tool_timeout 30 cyclictest -q -m -p 80 -t 2 -D 3 --records-interval=1 --no-preflight \
	--records="$WORK/r.jsonl" --json="$WORK/r.json"
expect_exit 0
records_ok "$WORK/r.jsonl" 2 3 complete "$WORK/r.json"

# SIGINT: the totals line is written, and the windows still add up.
"$CT" -q -m -p 80 -t 2 -i 500 --records-interval=1 --no-preflight --records="$WORK/i.jsonl" \
	--json="$WORK/i.json" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 2.5
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
expect_exit 0
records_ok "$WORK/i.jsonl" 2 2 complete "$WORK/i.json"

# SIGKILL: every line whole, the windows so far there, no totals.
"$CT" -q -m -p 80 -t 2 --records-interval=1 --no-preflight --records="$WORK/k.jsonl" \
	>/dev/null 2>&1 </dev/null &
pid=$!
sleep 3.5
kill -KILL "$pid"
wait "$pid" 2>/dev/null
records_ok "$WORK/k.jsonl" 2 2 killed

# Appended to: a second run adds its own run line.
before=$(wc -l <"$WORK/r.jsonl")
run_tool_timeout 30 cyclictest -q -p 80 -l 100 --no-preflight --records="$WORK/r.jsonl"
expect_exit 0
[ "$(wc -l <"$WORK/r.jsonl")" -eq $((before + 3)) ] || fail "the second run did not append 3 lines"
[ "$(grep -c '"type":"run"' "$WORK/r.jsonl")" -eq 2 ] || fail "not two run lines"

# To stdout with -q: the records lines are there.
run_tool_timeout 30 cyclictest -q -p 80 -l 100 --no-preflight --records=-
expect_exit 0
grep '^{' "$OUT" >"$WORK/s.jsonl"
records_ok "$WORK/s.jsonl" 1 1 complete

# Usage errors: one line and the hint, exit 2, nothing run.
for args in "--records=-" "-q -v --records=-" "-q --records-interval=5" \
	"-q --records=x --records-interval=0" "-q --records=x --records-interval=5x"; do
	# shellcheck disable=SC2086
	run_tool_timeout 10 cyclictest -l 10 $args
	expect_exit 2
	[ "$(wc -l <"$ERR")" -eq 2 ] || fail "$args: $(cat "$ERR")"
	expect_match "$ERR" '^cyclictest: .*records'
done
run_tool_timeout 10 cyclictest -q -l 10 --records=/nonexistent/dir/r.jsonl
expect_exit 1
expect_match "$ERR" "^cyclictest: cannot open --records file '/nonexistent/dir/r.jsonl'"
expect_no_match "$OUT" '^T:'
finish
