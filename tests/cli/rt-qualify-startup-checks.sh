#!/bin/sh
# Proves: rt-qualify checks what it needs before it measures anything. A
# --metrics file it cannot write or a -o directory it cannot use is a
# usage error (exit 2), no right to cyclictest's SCHED_FIFO 90 a run-time
# error (exit 1): each one line on stderr, nothing on stdout, and at once
# although an hour was asked for (no step ran), with no result directory
# and no file left beside --metrics (its probe included). --setup-only
# writes nothing, so it checks neither path. Needs no privileges: as root,
# the cases about rights run as nobody.
# test-timeout: 300
. "$top_srcdir/tests/cli/lib.sh"

# The unprivileged runs: as nobody when we are root, else as we are.
if [ "$(id -u)" -eq 0 ]; then
	need_cmd setpriv
	AS_USER="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	chmod a+rx "$WORK"
else
	AS_USER=""
fi
# One measured CPU: a run that did start (the bug) loads one CPU only.
CPU=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
F="$WORK/files"

# fresh: an empty $F, writable by the unprivileged runs.
fresh() {
	rm -rf "$F" && mkdir "$F" && chmod 777 "$F"
}

# refused STATUS ERE AS ARGS...: rt-qualify ARGS (run by AS, "" as we are)
# asked for an hour ends before a 20 s timeout (else 124) with STATUS,
# stderr the one line "rt-qualify: " matching ERE, nothing on stdout.
refused() {
	_st=$1 _re=$2 _as=$3
	shift 3
	RC=0
	$_as timeout -k 2 20 "$(tool rt-qualify)" -D 1h --load=none --cpus="$CPU" "$@" \
		>"$OUT" 2>"$ERR" </dev/null || RC=$?
	expect_exit "$_st"
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$*: stderr is not one line: $(cat "$ERR")"
	expect_match "$ERR" "^rt-qualify: $_re\$"
}

# left WHAT NAME...: $F holds exactly NAME... (nothing when none).
left() {
	_what=$1
	shift
	_want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
	_got=$(cd "$F" && ls -A | sort)
	[ "$_got" = "$_want" ] || fail "$_what: left in the directory: $(echo $_got)"
}

fresh
refused 1 "cannot write --metrics file '$F/none/x.prom': No such file or directory" "" \
	--metrics="$F/none/x.prom" -o "$F/out"
left "--metrics in a missing directory"

fresh
refused 1 "cannot write --metrics file '$F/': Is a directory" "" --metrics="$F/" -o "$F/out"
left "--metrics naming a directory"

fresh
refused 1 "cannot create the result directory '$F/none/out': No such file or directory" "" \
	-o "$F/none/out" --metrics="$F/x.prom"
left "-o in a missing directory"

fresh
: >"$F/afile"
refused 1 "cannot use the result directory '$F/afile': Not a directory" "" -o "$F/afile"
left "-o naming a file" afile

# a directory only root may write in
fresh
mkdir "$F/ro" && chmod 555 "$F/ro"
refused 1 "cannot create the result directory '$F/ro/out': Permission denied" "$AS_USER" \
	-o "$F/ro/out"
refused 1 "cannot use the result directory '$F/ro': Permission denied" "$AS_USER" -o "$F/ro"
refused 1 "cannot write --metrics file '$F/ro/x.prom': Permission denied" "$AS_USER" \
	--metrics="$F/ro/x.prom" -o "$F/out"
left "unwritable directories" ro
[ -z "$(ls -A "$F/ro")" ] || fail "unwritable directory: left $(ls -A "$F/ro")"

# no right to SCHED_FIFO 90: good paths, so the --metrics probe ran and left nothing
if $AS_USER chrt -f 90 true 2>/dev/null || [ "$($AS_USER sh -c 'ulimit -H -r')" = unlimited ] ||
	[ "$($AS_USER sh -c 'ulimit -H -r')" -ge 90 ]; then
	echo "not tested: this user may use SCHED_FIFO 90"
else
	fresh
	refused 1 "not permitted to use SCHED_FIFO priority 90: .*" "$AS_USER" \
		--metrics="$F/x.prom" -o "$F/out"
	left "no real-time rights"
fi

# --setup-only writes nothing: its paths are not checked
fresh
RC=0
timeout -k 2 20 "$(tool rt-qualify)" --setup-only --metrics="$F/none/x.prom" -o "$F/none/out" \
	>"$OUT" 2>"$ERR" </dev/null || RC=$?
[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] || fail "--setup-only: exit $RC (stderr: $(cat "$ERR"))"
expect_empty_stderr
left "--setup-only"
finish
