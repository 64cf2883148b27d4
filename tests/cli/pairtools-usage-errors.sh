#!/bin/sh
# Proves: bad invocations of signaltest, sigwaittest, ptsematest and pmqtest
# exit 2 with exactly the expected one-line message plus the hint, nothing
# on stdout and no --json file; --help, -h (as in 2.4) and --version exit 0
# on stdout.
. "$top_srcdir/tests/cli/lib.sh"

ALLOWED=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
while IFS='|' read -r t name args; do
	[ -n "$t" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 "$t" --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	sed "s/@ALLOWED@/$ALLOWED/" "$top_srcdir/tests/expected/$t/usage-$name.err" >"$WORK/expected.txt"
	compare_exact "$ERR" "$WORK/expected.txt"
	[ ! -e "$WORK/out.json" ] || fail "$t $name: --json file created"
done <<'TABLE'
signaltest|threads-one|-t 1
signaltest|threads-junk|-t 2x
signaltest|priority-100|-p 100
signaltest|affinity-outside|-a 99
signaltest|duration-bad|-D 10ms
signaltest|loops-negative|-l -3
signaltest|unknown|--interval=5
sigwaittest|interval-zero|-i 0
sigwaittest|distance-junk|-d abc
sigwaittest|affinity-outside|-a 99
sigwaittest|threads-zero|-t0
sigwaittest|threads-huge|-t 5000
sigwaittest|priority-negative|-p -1
sigwaittest|affinity-list|-a 0,1
sigwaittest|breaktrace-zero|-b 0
sigwaittest|stray|-q stray
ptsematest|fork-not-here|-f
ptsematest|interval-junk|-i 1.5
ptsematest|affinity-list|-a 0-1
ptsematest|duration-bad|-D 5x
ptsematest|missing-arg|-l
pmqtest|forcetimeout-alone|-f 2
pmqtest|timeout-range|-T 3601
pmqtest|timeout-missing|-T
pmqtest|fork-not-here|--fork
TABLE

for t in signaltest sigwaittest ptsematest svsematest pmqtest; do
	run_tool "$t" --help
	expect_exit 0
	expect_empty_stderr
	expect_match "$OUT" "^$t V 2\\.40 "
	cp "$OUT" "$WORK/help"
	run_tool "$t" -h
	expect_exit 0
	compare_exact "$OUT" "$WORK/help"
	run_tool "$t" --version
	expect_exit 0
	expect_match "$OUT" "^$t \\(rt-tests-ng\\) "
done
finish
