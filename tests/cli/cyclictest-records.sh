#!/bin/sh
# Proves cyclictest --records on real runs: whole JSON lines, the run line
# with the environment, one line per thread per --records-interval window,
# windows adding up to the totals (counts, min, max, overruns) and to the
# --json file, at the end and after SIGINT; after SIGKILL every line is
# whole and only the open window is lost; the file is appended to; with
# --records=- stdout holds the records alone; bad uses are usage errors
# (exit 2), an unopenable file a one-line run error before the run.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CT=$(tool cyclictest)
CHECK="$HELPERS/records_check.py"

records_ok() { # FILE THREADS MIN_WINDOWS MODE [JSON]
	python3 "$CHECK" "$1" cyclictest "$2" "$3" "$4" ${5:+"$5"} >"$WORK/rec.diag" 2>&1 ||
		fail "$(head -n 6 "$WORK/rec.diag")"
}

# -D 10 after a 1 s warm-up, 1 s windows: ten windows (and the few samples
# after the tenth), none for the warm-up, every boundary on the 1 s grid
# (no drift), their histograms adding up to the --json ones exactly.
run_tool_timeout 40 cyclictest -q -m -p 80 -t 2 -D 10 --warmup=1 --records-interval=1 \
	--no-preflight --records="$WORK/r.jsonl" --json="$WORK/r.json"
expect_exit 0
records_ok "$WORK/r.jsonl" 2 10 complete "$WORK/r.json"
python3 -c '
import json, sys
w = [json.loads(l) for l in open(sys.argv[1]) if "\"type\":\"window\"" in l]
assert w[0]["start_s"] == 0 and w[0]["count"] > 0, w[0]
assert len(w) // 2 <= 11, len(w)
assert all(x["end_s"] == x["window"] + 1 for x in w[:-2]), [x["end_s"] for x in w]
' "$WORK/r.jsonl" || fail "warm-up windows or boundaries off the grid"

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
# run, window, isolation, total
[ "$(wc -l <"$WORK/r.jsonl")" -eq $((before + 4)) ] || fail "the second run did not append 4 lines"
[ "$(grep -c '"type":"run"' "$WORK/r.jsonl")" -eq 2 ] || fail "not two run lines"

# To stdout with -q: nothing but the records there (the rest on stderr).
run_tool_timeout 30 cyclictest -q -p 80 -l 100 --no-preflight --records=-
expect_exit 0
records_ok "$OUT" 1 1 complete
expect_match "$ERR" '^T: 0 '
expect_match "$ERR" '^# /dev/cpu_dma_latency set to'
# Standard input closed: the records file gets fd 0 and works as any other.
RC=0
timeout -k 2 30 "$CT" -q -p 80 -l 100 --no-preflight --records="$WORK/z.jsonl" \
	>"$OUT" 2>"$ERR" <&- || RC=$?
expect_exit 0
records_ok "$WORK/z.jsonl" 1 1 complete

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
expect_match "$ERR" "^cyclictest: records '/nonexistent/dir/r.jsonl': No such file or directory\$"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "not one error line: $(cat "$ERR")"
expect_no_match "$OUT" '^T:'
finish
