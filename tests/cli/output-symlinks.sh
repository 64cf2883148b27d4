#!/bin/sh
# Proves: no output file is written through a symbolic link. A --records
# file that is a link (cyclictest, oslat, ptsematest) is refused before
# anything is measured: exit 1, one line on stderr naming the file, nothing
# on stdout, and the link's target untouched (the open appended to it). A
# --json or --histfile path that is a link is replaced by the result, the
# target untouched (written beside and renamed over the name).
. "$top_srcdir/tests/cli/lib.sh"
rt_or_other

printf 'not yours\n' >"$WORK/victim"
ln -s "$WORK/victim" "$WORK/link"

victim_untouched() { # WHAT
	[ "$(cat "$WORK/victim")" = "not yours" ] || fail "$1: the link's target was written"
}

while IFS='|' read -r t args; do
	[ -n "$t" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 20 "$t" $args --no-preflight --records="$WORK/link"
	expect_exit 1
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$t: $(wc -l <"$ERR") lines on stderr: $(cat "$ERR")"
	expect_match "$ERR" "^$t: records '.*/link': Too many levels of symbolic links$"
	victim_untouched "$t --records"
	[ -L "$WORK/link" ] || fail "$t --records: the link was replaced"
done <<TABLE
cyclictest|-q -p $PRIO -l 5 -i 1000
oslat|-q -c 0 -D 1
ptsematest|-q -p $PRIO -l 5 -i 1000
TABLE

# Written whole: the result replaces the link, the target stays as it was.
run_tool_timeout 20 cyclictest -q -p "$PRIO" -l 5 -i 1000 --no-preflight --json="$WORK/link"
expect_exit 0
[ ! -L "$WORK/link" ] && grep -q '"thread"' "$WORK/link" || fail "--json: the link is still there"
victim_untouched "--json"
ln -s "$WORK/victim" "$WORK/hlink2"
run_tool_timeout 20 cyclictest -q -p "$PRIO" -l 5 -i 1000 -h 10 --no-preflight \
	--histfile="$WORK/hlink2"
expect_exit 0
[ ! -L "$WORK/hlink2" ] && [ -s "$WORK/hlink2" ] || fail "--histfile: the link is still there"
victim_untouched "--histfile"
finish
