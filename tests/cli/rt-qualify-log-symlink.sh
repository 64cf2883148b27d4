#!/bin/sh
# Proves: rt-qualify never writes a step's log through a symbolic link. A
# result directory holding <step>.log links to files of someone else's (as
# root, the open would have truncated them) stops the run at its first
# step with one line naming the log and exit 1, and the files the links
# point at are untouched.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
mkdir "$WORK/out"
for s in hardware-noise cyclictest oslat; do
	printf 'not yours\n' >"$WORK/$s.victim"
	ln -s "$WORK/$s.victim" "$WORK/out/$s.log"
done
run_tool_timeout 60 rt-qualify -D 3 --load=none --max-latency=3600000000 -o "$WORK/out"
expect_exit 1
expect_match "$ERR" "^rt-qualify: cannot create .*/out/(hardware-noise|cyclictest)\\.log: Too many levels of symbolic links$"
for s in hardware-noise cyclictest oslat; do
	[ "$(cat "$WORK/$s.victim")" = "not yours" ] || fail "$s.log: the link's target was written"
done
finish
