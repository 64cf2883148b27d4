#!/bin/sh
# Proves every header of lib/ and of the shared pair-tool front-end includes
# what it uses: each compiles on its own.
. "$top_srcdir/tests/cli/lib.sh"
cc=${CC:-cc}
need_cmd "${cc%% *}" # CC may carry flags: "gcc -m32"
libdirs=$(for d in "$top_srcdir"/lib/*/; do printf -- "-I%s " "${d%/}"; done)

for h in "$top_srcdir"/lib/*/*.h "$top_srcdir"/src/pairtool/*.h; do
	printf '#include "%s"\n' "$h" >"$WORK/t.c"
	# shellcheck disable=SC2086
	if ! ${CC:-cc} -fsyntax-only -Wall -Werror -D_GNU_SOURCE $NUMA_CFLAGS \
		-include "$top_builddir/config.h" $libdirs -I"$top_srcdir/src/pairtool" "$WORK/t.c" 2>"$WORK/cc.err"; then
		fail "$(basename "$h") does not compile alone: $(head -3 "$WORK/cc.err")"
	fi
done
finish
