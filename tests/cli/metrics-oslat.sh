#!/bin/sh
# Proves oslat --metrics: promtool finds nothing to report in the file,
# mid-run and at the end; the last version's cumulative counts at every
# bound are exactly those of the --json lossless histogram, with the
# verdict and the polled CPUs' isolation counters; an unwritable
# directory is a one-line error before the run (exit 1).
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
need_cpus 2
CHECK="$HELPERS/metrics_check.py"
need_promtool

mkdir "$WORK/d"
M="$WORK/d/oslat.prom"
RC=0
"$(tool oslat)" -q -c 0,1 -D 3 --records-interval=1 --no-preflight --max-latency=3600000000 \
	--metrics="$M" --json="$WORK/o.json" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 2.5
if [ -s "$M" ]; then
	cp "$M" "$WORK/mid.prom"
	promtool_clean "$WORK/mid.prom"
	python3 "$CHECK" partial "$WORK/mid.prom" >/dev/null 2>"$WORK/check.diag" ||
		fail "mid-run file: $(head -n 5 "$WORK/check.diag")"
else
	fail "no metrics file during the run"
fi
wait $pid || RC=$?
expect_exit 0
promtool_clean "$M"
python3 "$CHECK" file "$M" "$WORK/o.json" 1000 1 >"$WORK/check.diag" 2>&1 ||
	fail "$(head -n 6 "$WORK/check.diag")"
expect_match "$M" '^rt_latency_seconds_bucket\{tool="oslat",thread="1",cpu="1",'
expect_match "$M" '^rt_cpu_interrupts_total\{tool="oslat",cpu="0",'
[ "$(ls -A "$WORK/d")" = oslat.prom ] || fail "left in the directory: $(ls -A "$WORK/d")"

run_tool oslat -q -D 1 --metrics="$WORK/none/m.prom"
expect_exit 1
expect_text "$ERR" "oslat: cannot write --metrics file '$WORK/none/m.prom': No such file or directory"
finish
