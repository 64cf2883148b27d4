#!/bin/sh
# Proves every lib/*.h includes what it uses: each compiles on its own.
. "$top_srcdir/tests/cli/lib.sh"
need_cmd "${CC:-cc}"

for h in "$top_srcdir"/lib/*.h; do
	printf '#include "%s"\n' "$h" >"$WORK/t.c"
	# shellcheck disable=SC2086
	if ! ${CC:-cc} -fsyntax-only -Wall -Werror -D_GNU_SOURCE $NUMA_CFLAGS \
		-include "$top_builddir/config.h" -I"$top_srcdir/lib" "$WORK/t.c" 2>"$WORK/cc.err"; then
		fail "$(basename "$h") does not compile alone: $(head -3 "$WORK/cc.err")"
	fi
done
finish
