#!/bin/sh
# Proves: man pages and --help cannot drift apart: every long option of each
# tool's --help is in its man page and the reverse, and the pages lint clean.
. "$top_srcdir/tests/cli/lib.sh"
need_cmd groff
"$top_srcdir/scripts/check-manpages" "$top_builddir" "$top_srcdir" >"$WORK/diag" 2>&1 ||
	fail "$(cat "$WORK/diag")"
finish
