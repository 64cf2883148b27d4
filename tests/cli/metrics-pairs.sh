#!/bin/sh
# Proves --metrics in the pair tools (the shared engine): promtool finds
# nothing to report, the per-pair cumulative counts are exactly those of
# the receivers' --json lossless histograms, label pair, the verdict with
# a limit; an unwritable directory is a one-line error before the run.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$HELPERS/metrics_check.py"
need_promtool

for t in signaltest ptsematest; do
	rm -f "$WORK/p.prom"
	run_tool_timeout 20 "$t" -q -D 1 -p 80 --no-preflight --max-latency=3600000000 \
		--metrics="$WORK/p.prom" --json="$WORK/p.json"
	expect_exit 0
	promtool_clean "$WORK/p.prom" "$t"
	python3 "$CHECK" file "$WORK/p.prom" "$WORK/p.json" 1000 1 >"$WORK/check.diag" 2>&1 ||
		fail "$t: $(head -n 6 "$WORK/check.diag")"
	expect_match "$WORK/p.prom" "^rt_samples_total\\{tool=\"$t\",pair=\"0\",cpu=\""
	expect_no_match "$WORK/p.prom" '^rt_overruns_total'
done

run_tool ptsematest -q -D 1 --metrics="$WORK/none/m.prom"
expect_exit 1
expect_text "$ERR" "ptsematest: cannot write --metrics file '$WORK/none/m.prom': No such file or directory"
finish
