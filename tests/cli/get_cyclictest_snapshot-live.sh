#!/bin/sh
# Proves: get_cyclictest_snapshot lists live runs of our cyclictest (one PID
# per line, sorted as rt-tests 2.4 sorts them), -s waits for the snapshot it
# asked for (a run never snapshotted before, and stopped for 0.3 s, prints
# a whole block, where 2.4 printed the empty object at once), -p and the no-option mode print each
# block and an empty line, with that run's own threads; and a snapshot of a
# live run is its own summary at that moment: a thread that finished its -l
# loops shows exactly the numbers of the final -q summary, and a running
# one counts upward, never past -l, within the final Min/Max. A user who
# may not inspect the run is refused with one line, exit 1. In a pid
# namespace of its own (our object is then ns<INODE>-cyclictest<PID>) too.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/get_cyclictest_snapshot-private-shm.sh"
CT=$(tool cyclictest)
LINE='^T: [0-9]+ \( *[0-9]+\) P:10 I:[0-9]+ C: *[0-9]+ Min: *[0-9]+ Act: *[0-9]+ Avg: *[0-9]+ Max: *[0-9]+$'
SEP='#---------------------------'

# check_block FILE PID NTHREADS: FILE is one status block of PID, then an empty line.
check_block() {
	_n=$(wc -l <"$1")
	[ "$_n" -eq $(($3 + 4)) ] || { fail "$2: $_n lines: $(cat "$1")"; return; }
	[ "$(sed -n 1p "$1")" = "$SEP" ] || fail "$2: first line: $(sed -n 1p "$1")"
	[ "$(sed -n 2p "$1")" = "# cyclictest current status:" ] || fail "$2: no title"
	[ "$(sed -n "$(($3 + 3))p" "$1")" = "$SEP" ] || fail "$2: no closing separator"
	[ -z "$(sed -n "$(($3 + 4))p" "$1")" ] || fail "$2: no empty line at the end"
	sed -n "3,$(($3 + 2))p" "$1" >"$WORK/lines"
	grep -Evq "$LINE" "$WORK/lines" && fail "$2: bad status line: $(grep -Ev "$LINE" "$WORK/lines")"
	# the threads are that run's own
	for _tid in $(sed -n 's/^T: [0-9]* ( *\([0-9]*\)).*/\1/p' "$WORK/lines"); do
		[ -d "/proc/$2/task/$_tid" ] || fail "$2: thread $_tid is not one of its own"
	done
}

obj_of() {
	[ -e "/dev/shm/${NS_PREFIX}cyclictest$1" ]
}

# Two runs: listed, snapshotted and printed, each alone and together.
"$CT" -q -p 10 -t 2 -i 10000 -D 120 >/dev/null 2>"$WORK/a.err" </dev/null &
A=$!
started $A
"$CT" -q -p 10 -t 1 -i 20000 -D 120 >/dev/null 2>"$WORK/b.err" </dev/null &
B=$!
started $B
wait_for obj_of $A && wait_for obj_of $B || fail "no status objects: $(ls /dev/shm)"
gcs -l
expect_exit 0
expect_empty_stderr
printf '%s\n' "${NS_PREFIX}cyclictest$A" "${NS_PREFIX}cyclictest$B" | LC_ALL=C sort |
	sed 's/.*cyclictest//' >"$WORK/list.want"
compare_exact "$OUT" "$WORK/list.want"
# never snapshotted: -s waits for the block it asked for
gcs -s $A -p $A
expect_exit 0
expect_empty_stderr
check_block "$OUT" $A 2
# a run slow to answer (stopped for 0.3 s): what is printed is still the
# snapshot asked for, not the empty object of a run never snapshotted
kill -STOP $B
"$G" --snap $B --pr $B >"$OUT" 2>"$ERR" </dev/null &
g=$!
sleep 0.3
kill -CONT $B
RC=0
wait $g || RC=$?
expect_exit 0
expect_empty_stderr
check_block "$OUT" $B 1
# no option: every run, in the order of -l
gcs
expect_exit 0
expect_empty_stderr
[ "$(grep -c "^$SEP\$" "$OUT")" -eq 4 ] || fail "no option: not two blocks: $(cat "$OUT")"
first=$(head -n 1 "$WORK/list.want")
if [ "$first" = "$A" ]; then
	head -n 6 "$OUT" >"$WORK/one"
	check_block "$WORK/one" $A 2
else
	head -n 5 "$OUT" >"$WORK/one"
	check_block "$WORK/one" $B 1
fi
# -p alone prints the last snapshot without signalling
gcs -p $B
expect_exit 0
check_block "$OUT" $B 1
# without the right to inspect root's run: refused with the reason, not signalled
if command -v setpriv >/dev/null 2>&1; then
	RC=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$G" -s $A >"$OUT" 2>"$ERR" </dev/null ||
		RC=$?
	expect_exit 1
	expect_empty_stdout
	expect_text "$ERR" "get_cyclictest_snapshot: $A: cannot check the process: Permission denied"
fi
kill -INT $A $B
wait $A $B
obj_of $A && fail "object of $A left after its end"
obj_of $B && fail "object of $B left after its end"
gcs -l
expect_exit 0
expect_text "$OUT" "$NOT_FOUND"

# In a pid namespace of its own, our cyclictest names its object
# ns<INODE>-cyclictest<PID>: listed, snapshotted and printed there too.
if unshare -p -f --mount-proc true 2>/dev/null; then
	unshare -p -f --mount-proc sh -c '
		"$1" -q -p 10 -t 1 -i 10000 -D 120 >/dev/null 2>&1 </dev/null &
		a=$!
		i=0
		while ! ls /dev/shm/ns*-cyclictest$a >/dev/null 2>&1 && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		echo "pid $a"
		"$2" -l
		"$2" -s $a -p $a
		echo "rc $?"
		kill -INT $a
		wait $a' _ "$CT" "$G" >"$OUT" 2>"$ERR" </dev/null
	expect_empty_stderr
	a=$(sed -n 's/^pid //p' "$OUT")
	[ "$(sed -n 2p "$OUT")" = "$a" ] || fail "pid namespace: -l: $(cat "$OUT")"
	expect_match "$OUT" "^rc 0\$"
	[ "$(grep -c "^$SEP\$" "$OUT")" -eq 2 ] || fail "pid namespace: no block: $(cat "$OUT")"
	expect_match "$OUT" '^T: 0 \( *[0-9]+\) P:10 I:10000 C: *[0-9]+ '
else
	echo "unshare -p not permitted here: pid namespace case not checked"
fi

# field LINE NAME: the number after "NAME:" in a status line.
field() {
	printf '%s\n' "$1" | sed -n "s/.* $2: *\([0-9]*\).*/\1/p"
}

# One run whose thread 0 ends its 3 loops in milliseconds while thread 1
# takes 3 s (-d 1 s): snapshots taken in between are compared with the
# final summary. Tried again (up to 3 runs) only if the run ended before
# its snapshots could be taken (a very slow start).
exact_run() {
	"$CT" -q -p 10 -t 2 -l 3 -i 1000 -d 1000000 >"$WORK/c.out" 2>"$WORK/c.err" </dev/null &
	C=$!
	started $C
	wait_for obj_of $C || { fail "no status object of $C"; return 0; }
	_i=0 s1=
	while [ "$_i" -lt 20 ]; do
		gcs -s $C -p $C
		[ "$RC" -eq 0 ] || break
		s1=$(cat "$OUT")
		[ "$(field "$(grep '^T: 0 ' "$OUT")" C)" = 3 ] && break
		s1=
		sleep 0.1
		_i=$((_i + 1))
	done
	gcs -s $C -p $C
	s2=$(cat "$OUT")
	rc2=$RC
	wait $C || fail "cyclictest ended with $?"
	[ -n "$s1" ] && [ "$rc2" -eq 0 ] || return 1
	final0=$(grep '^T: 0 ' "$WORK/c.out")
	final1=$(grep '^T: 1 ' "$WORK/c.out")
	for s in "$s1" "$s2"; do
		t0=$(printf '%s\n' "$s" | grep '^T: 0 ')
		t1=$(printf '%s\n' "$s" | grep '^T: 1 ')
		[ "$t0" = "$final0" ] || fail "finished thread: snapshot '$t0', summary '$final0'"
		[ "${t1%% C:*}" = "${final1%% C:*}" ] || fail "thread 1: '$t1' vs '$final1'"
		c=$(field "$t1" C)
		[ "$c" -le 3 ] || fail "thread 1: C $c past -l 3"
		[ "$c" -ge "${prev_c:-0}" ] || fail "thread 1: C went down from $prev_c to $c"
		prev_c=$c
		if [ "$c" -gt 0 ]; then
			[ "$(field "$t1" Min)" -ge "$(field "$final1" Min)" ] ||
				fail "thread 1: Min $(field "$t1" Min) below the final $(field "$final1" Min)"
			[ "$(field "$t1" Max)" -le "$(field "$final1" Max)" ] ||
				fail "thread 1: Max $(field "$t1" Max) above the final $(field "$final1" Max)"
		fi
	done
	[ "$(field "$final1" C)" = 3 ] || fail "thread 1 ended with C $(field "$final1" C)"
	return 0
}
tries=0
until exact_run; do
	tries=$((tries + 1))
	[ "$tries" -lt 3 ] || { fail "no snapshot of a live run in 3 runs: $(cat "$ERR")"; break; }
done
finish
