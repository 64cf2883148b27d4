#!/bin/sh
# Proves cyclictest --metrics on real runs: promtool (Prometheus' own
# checker) finds nothing to report in the file, during the run and at the
# end; the last version's cumulative counts at every documented bound are
# exactly those of the run's --json lossless histogram, +Inf and _count the
# samples, the maximum the JSON's, rt_verdict only with a limit; the file
# is rewritten every --records-interval (with or without --records) and no
# temporary file is left; SIGTERM's end writes the last version; cyclicdeadline has it too; -N gives the nanosecond bounds; an empty name
# or "-" is a usage error (exit 2), an unwritable directory a one-line
# error before the run (exit 1).
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$HELPERS/metrics_check.py"
need_promtool

file_ok() { # PROM JSON UNIT_NS VERDICT
	python3 "$CHECK" file "$@" >"$WORK/check.diag" 2>&1 ||
		fail "$(head -n 6 "$WORK/check.diag")"
}

# Two threads, 1 s windows, a limit: a version at the start, after each
# window (read here mid-run) and the last one.
mkdir "$WORK/d"
M="$WORK/d/ct.prom"
RC=0
"$(tool cyclictest)" -q -m -p 80 -t 2 -i 1000 -D 4 --records-interval=1 --no-preflight \
	--max-latency=3600000000 --metrics="$M" --json="$WORK/r.json" \
	>"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 2.5
if [ -s "$M" ]; then
	cp "$M" "$WORK/mid.prom"
	promtool_clean "$WORK/mid.prom"
	mid=$(python3 "$CHECK" partial "$WORK/mid.prom" 2>"$WORK/check.diag") ||
		fail "mid-run file: $(head -n 5 "$WORK/check.diag")"
	[ "${mid:-0}" -gt 0 ] || fail "mid-run file has no samples after two 1 s windows"
	expect_no_match "$WORK/mid.prom" '^rt_verdict'
else
	fail "no metrics file during the run"
fi
wait $pid || RC=$?
expect_exit 0
promtool_clean "$M"
file_ok "$M" "$WORK/r.json" 1000 1
total=$(python3 "$CHECK" partial "$M")
[ "$total" -gt "${mid:-0}" ] || fail "the last version ($total samples) not beyond mid-run ($mid)"
[ "$(ls -A "$WORK/d")" = ct.prom ] || fail "left in the directory: $(ls -A "$WORK/d")"

# Ended by SIGTERM (no -D): the last version has the whole run and its verdict.
RC=0
"$(tool cyclictest)" -q -m -p 80 -t 1 -i 1000 --no-preflight --max-latency=3600000000 \
	--metrics="$M" --json="$WORK/t.json" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid || RC=$?
expect_exit 0
promtool_clean "$M"
file_ok "$M" "$WORK/t.json" 1000 1

# -N, no limit, with --records: nanosecond bounds, no verdict; pinned
# threads: the isolation counters of their CPU.
run_tool_timeout 20 cyclictest -q -m -p 80 -t 1 -a 0 -i 1000 -D 1 -N --no-preflight \
	--records="$WORK/r.jsonl" --metrics="$M" --json="$WORK/n.json"
expect_exit 0
promtool_clean "$M"
file_ok "$M" "$WORK/n.json" 1 none
expect_match "$M" '^rt_latency_seconds_bucket\{tool="cyclictest",thread="0",cpu="0",kernel="[^"]*",preempt="[^"]*",le="0\.000000999"\} [0-9]+$'
expect_match "$M" '^rt_cpu_interrupts_total\{tool="cyclictest",cpu="0",'
expect_match "$WORK/r.jsonl" '"type":"total"'

# cyclicdeadline, a front of the same engine: its own tool label.
run_tool_timeout 20 cyclicdeadline -q -t 1 -D 1 --no-preflight --metrics="$M" --json="$WORK/cd.json"
expect_exit 0
promtool_clean "$M"
file_ok "$M" "$WORK/cd.json" 1000 none
expect_match "$M" '^rt_samples_total\{tool="cyclicdeadline",thread="0",'

# Usage errors: the line and the hint, exit 2; an unwritable place: one line, exit 1,
# before the run (nothing measured, nothing created).
run_tool cyclictest -q -D 1 --metrics=
expect_exit 2
expect_text "$ERR" "cyclictest: invalid --metrics '': needs a file name
Try 'cyclictest --help' for more information."
run_tool cyclictest -q -D 1 --metrics=-
expect_exit 2
expect_match "$ERR" "^cyclictest: invalid --metrics '-': needs a file name"
run_tool cyclictest -q -D 1 --records-interval=5
expect_exit 2
expect_text "$ERR" "cyclictest: --records-interval needs --records or --metrics
Try 'cyclictest --help' for more information."
run_tool cyclictest -q -D 1 --metrics="$WORK/none/m.prom"
expect_exit 1
expect_text "$ERR" "cyclictest: cannot write --metrics file '$WORK/none/m.prom': No such file or directory"
expect_empty_stdout
finish
