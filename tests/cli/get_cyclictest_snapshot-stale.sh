#!/bin/sh
# Proves: get_cyclictest_snapshot never signals a process that is not a
# live cyclictest holding its own status object (rt-tests 2.4 sent SIGUSR2,
# which terminates a process that does not handle it, to any PID): a stale
# object of a gone run is reported as stale (stderr, exit 0 where every
# instance was asked for, exit 1 for that PID given), as is one whose PID
# is now another program's or a "cyclictest" that does not hold it; a PID
# that is no cyclictest is refused (exit 1). 2.4's layout, NULs before the
# block, is read from objects recorded from Debian's rt-tests 2.4 (the
# block after 498 NULs with -t 2, after 174 NULs with -N, the 30 NULs of an
# object before any snapshot) and printed without the NULs; an object with
# other bytes is not printed. A fake instance that dies of the signal, or
# ignores it, is reported within 1 s. "No cyclictest instance found" stays
# on stdout, once.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/get_cyclictest_snapshot-private-shm.sh"
X="$top_srcdir/tests/expected/get_cyclictest_snapshot"
P=get_cyclictest_snapshot
mkdir "$WORK/bin"
cp "$(command -v sleep)" "$WORK/bin/cyclictest" # a process named cyclictest, not one
obj() {
	echo "/dev/shm/${NS_PREFIX}cyclictest$1"
}
is_named() {
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]
}
# end PID: end a fake instance and remove its object
end() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	rm -f "$(obj "$1")"
}
alive() {
	kill -0 "$1" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$1/stat")" != Z ]
}

# Nothing there: the line of 2.4, once, exit 0.
gcs
expect_exit 0
expect_text "$OUT" "$NOT_FOUND"
expect_empty_stderr
gcs -l -s -p
expect_exit 0
expect_text "$OUT" "$NOT_FOUND"

# A stale object of a gone run.
sh -c 'exit 0' &
d=$!
wait $d
[ ! -e "/proc/$d" ] || skip "pid $d reused at once"
cp "$X/shm-2.4-t2.txt" "$(obj $d)"
gcs -l
expect_exit 0
expect_text "$OUT" "$NOT_FOUND"
expect_text "$ERR" "$P: $(obj $d) is stale: process $d is gone"
gcs
expect_exit 0
expect_text "$OUT" "$NOT_FOUND"
expect_text "$ERR" "$P: $(obj $d) is stale: process $d is gone (not signalled)"
gcs -s $d
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "$P: $(obj $d) is stale: process $d is gone (not signalled)"
gcs -p $d
expect_exit 1
expect_text "$OUT" "$NOT_FOUND"
rm -f "$(obj $d)"

# Its PID now another program's, or a "cyclictest" that does not hold it.
sleep 300 &
s=$!
started $s
"$WORK/bin/cyclictest" 300 &
f=$!
started $f
sleep 300 &
n=$!
started $n
wait_for is_named $f cyclictest || fail "fake cyclictest $f did not start"
cp "$X/shm-2.4-t2.txt" "$(obj $s)"
cp "$X/shm-2.4-t2.txt" "$(obj $f)"
gcs
expect_exit 0
expect_text "$OUT" "$NOT_FOUND"
LC_ALL=C sort >"$WORK/want" <<EOF2
$P: $(obj $s) is stale: process $s is 'sleep', not cyclictest (not signalled)
$P: $(obj $f) is stale: cyclictest $f does not hold it (not signalled)
EOF2
LC_ALL=C sort "$ERR" >"$WORK/got"
compare_exact "$WORK/got" "$WORK/want"
gcs -s $s $f
expect_exit 1
expect_empty_stdout
cat >"$WORK/want" <<EOF2
$P: $(obj $s) is stale: process $s is 'sleep', not cyclictest (not signalled)
$P: $(obj $f) is stale: cyclictest $f does not hold it (not signalled)
EOF2
compare_exact "$ERR" "$WORK/want"
# a PID that is no cyclictest and has no object
gcs -s $n
expect_exit 1
expect_text "$ERR" "$P: $n: not a cyclictest (process $n is 'sleep')"
rm -f "$(obj $s)" "$(obj $f)"
# a "cyclictest" without an object; a PID with neither process nor object
gcs -s $f
expect_exit 1
expect_text "$ERR" "$P: $f: cyclictest without a status object $(obj $f)"
gcs -p $d
expect_exit 1
expect_text "$OUT" "$NOT_FOUND"
expect_text "$ERR" "$P: $d: no such cyclictest instance (no process, no $(obj $d))"
for p in $s $f $n; do
	alive "$p" || fail "process $p was signalled"
done

# hold NULS FILE [TRAP]: a fake instance in $h, named cyclictest, holding its
# object (NULS NUL bytes then FILE). Without TRAP it is sleep, which SIGUSR2
# would end; with one, a shell that runs TRAP on SIGUSR2.
mkdir "$WORK/sh"
cp "$(command -v sh)" "$WORK/sh/cyclictest"
hold() {
	if [ -z "${3:-}" ]; then
		set -- "$1" "$2" "" "$WORK/bin/cyclictest" 'exec "$4" 300'
	else
		set -- "$1" "$2" "$3" "" 'while :; do sleep 0.1; done'
	fi
	"$WORK/sh/cyclictest" -c '
		[ -n "$3" ] && trap "$3" USR2
		o=/dev/shm/'"$NS_PREFIX"'cyclictest$$
		{ head -c "$1" /dev/zero; cat "$2"; } >"$o.new" && mv "$o.new" "$o" &&
			exec 9<"$o" && eval "$5"' \
		_ "$@" &
	h=$!
	started $h
	wait_for is_named $h cyclictest || fail "fake $h did not start"
	wait_for test -e "/proc/$h/fd/9" || fail "fake $h holds no object"
}

# 2.4's objects, printed as 2.4 did but without the NULs.
for f in "498 shm-2.4-t2.txt" "174 shm-2.4-N.txt"; do
	set -- $f
	hold "$1" "$X/$2"
	gcs -p $h
	expect_exit 0
	expect_empty_stderr
	{ cat "$X/$2"; echo; } >"$WORK/want"
	compare_exact "$OUT" "$WORK/want"
	gcs -l
	expect_exit 0
	expect_text "$OUT" "$h"
	end $h
done
# before its first snapshot: 30 NULs, an empty line
printf '' >"$WORK/empty"
hold 30 "$WORK/empty"
gcs -p
expect_exit 0
expect_text "$OUT" ""
expect_empty_stderr
end $h

# Not a status block: not printed.
printf '#---------------------------\n\033]0;owned\007\n' >"$WORK/hostile"
hold 0 "$WORK/hostile"
gcs -p $h
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "$P: $(obj $h) holds bytes that are not a status block: not printed"
end $h

# A "cyclictest" holding its object that would die of SIGUSR2 (a default
# action): not signalled. One that dies of it, or never answers: one line,
# exit 1, within 1 s.
hold 0 "$X/shm-2.4-t2.txt"
gcs -s $h
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "$P: $h: cyclictest does not take SIGUSR2 (yet): not signalled"
alive $h || fail "fake $h was signalled"
end $h
hold 0 "$X/shm-2.4-t2.txt" "exit 0"
gcs -s $h -p $h
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "$P: $h: cyclictest ended before writing its snapshot"
end $h
hold 0 "$X/shm-2.4-t2.txt" ":"
gcs -s $h
expect_exit 1
expect_text "$ERR" "$P: $h: no new snapshot in $(obj $h) within 1000 ms"
alive $h || fail "fake $h that does not answer is gone"
end $h
finish
