#!/bin/sh
# Proves libtracefs and libtraceevent are loaded only by a run that asks for
# them: no tool links them (no NEEDED entry), and where the soname configure
# found cannot be loaded (a broken file of that name first in
# LD_LIBRARY_PATH), --analyze and --self-check fail with exit 1 and the one
# line "cyclictest: --analyze needs SONAME: REASON", before any output or
# spike file, while a run without them does not notice.
. "$top_srcdir/tests/cli/lib.sh"
SONAME=$(sed -n 's/^#define RT_LIBTRACEFS_SONAME "\(.*\)"$/\1/p' "$top_builddir/config.h")
[ -n "$SONAME" ] || skip "this build has no libtracefs/libtraceevent"
need_root
need_cmd readelf

for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest hackbench; do
	readelf -d "$(tool "$t")" >"$WORK/dyn" 2>&1 || fail "readelf -d $t: $(head -c 200 "$WORK/dyn")"
	expect_no_match "$WORK/dyn" 'NEEDED.*lib(tracefs|traceevent)\.so'
done

mkdir "$WORK/libs" "$WORK/cwd"
printf 'not a shared library\n' >"$WORK/libs/$SONAME"
cd "$WORK/cwd" || exit 99
LD_LIBRARY_PATH="$WORK/libs"
export LD_LIBRARY_PATH
SONAME_RE=$(printf '%s' "$SONAME" | sed 's/\./\\./g')
for opt in --analyze=100 --self-check; do
	run_tool_timeout 20 cyclictest -q -l 1 -i 1000 "$opt"
	expect_exit 1
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$opt: $(wc -l <"$ERR") lines on stderr, expected 1"
	expect_match "$ERR" "^cyclictest: ${opt%=*} needs $SONAME_RE: [^ ].*\$"
	[ -z "$(ls "$WORK/cwd")" ] || fail "$opt left files: $(ls "$WORK/cwd")"
done
run_tool_timeout 20 cyclictest -q -l 1 -i 1000
expect_exit 0
expect_empty_stderr
unset LD_LIBRARY_PATH
finish
