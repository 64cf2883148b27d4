#!/bin/sh
# Proves: an output path that cannot be written is reported before anything
# is measured: one line on stderr naming the option and the path, exit 1,
# nothing on stdout, no file left; over-long arguments are one-line usage
# errors (exit 2).
. "$top_srcdir/tests/cli/lib.sh"
long=$(head -c 5000 /dev/zero | tr '\0' 7)

while IFS='|' read -r t args want; do
	[ -n "$t" ] || continue
	args=$(printf '%s' "$args" | sed "s|@W@|$WORK|g")
	# shellcheck disable=SC2086
	run_tool_timeout 10 "$t" -l 5 $args
	expect_exit 1
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$t $args: $(wc -l <"$ERR") lines on stderr: $(cat "$ERR")"
	expect_match "$ERR" "^$t: $want"
	[ -z "$(find "$WORK" -mindepth 1 ! -name stdout ! -name stderr ! -name expected.txt)" ] ||
		fail "$t $args: left $(ls -A "$WORK")"
done <<'TABLE'
cyclictest|--json=@W@/missing/x.json|cannot write --json file '.*/missing/x\.json': No such file or directory$
cyclictest|--json=@W@/|cannot write --json file '.*/': Is a directory$
cyclictest|-h 10 --histfile=@W@/missing/h.txt|cannot write --histfile file '.*/missing/h\.txt': No such file or directory$
cyclictest|-F @W@/missing/fifo|cannot create '.*/missing/fifo': No such file or directory$
signaltest|--json=@W@/missing/x.json|cannot write --json file '.*': No such file or directory$
signaltest|--json=@W@/|cannot write --json file '.*': Is a directory$
sigwaittest|--json=@W@/missing/x.json|cannot write --json file '.*': No such file or directory$
sigwaittest|-f --json=@W@/|cannot write --json file '.*': Is a directory$
ptsematest|--json=@W@/missing/x.json|cannot write --json file '.*': No such file or directory$
ptsematest|--json=/proc/version|cannot write --json file '/proc/version': .*$
hackbench|-g 1 -f 1 --json=@W@/missing/x.json|cannot write --json file '.*/missing/x\.json': No such file or directory$
hackbench|-g 1 -f 1 --json=@W@/|cannot write --json file '.*': Is a directory$
TABLE

for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest; do
	run_tool_timeout 10 "$t" -l "$long"
	expect_exit 2
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 2 ] || fail "$t: over-long -l: $(wc -l <"$ERR") lines"
	expect_match "$ERR" "^$t: invalid --loops '7{5000}': must be 0\\.\\."
done
finish
