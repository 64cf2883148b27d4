#!/bin/sh
# Proves pmqtest's -T and -f work where 2.4's did not: with -T alone every
# hand-over arrives (2.4 aborted after two cycles), with -f above -T each
# delayed hand-over times out exactly once, is still received and measured
# from its send (TO in the text = timeoutcount in the JSON), and SIGINT ends
# a run whose sender holds a message back within a second. No queue is ever
# visible in the mqueue file system, not even while a run lasts or after
# SIGKILL; a queue of a dead run is removed at the next start, one of a
# living process is not; two runs at once do not collide (2.4's fixed names
# did). Bad -T/-f values are usage errors.
. "$top_srcdir/tests/cli/lib.sh"
need_root # to mount the mqueue file system and look at the queues
need_rt
need_python3
PRIO=80
PMQ=$(tool pmqtest)

# -T alone: 200 hand-overs, none timed out.
run_tool_timeout 30 pmqtest -q -p "$PRIO" -T 1 -l 200 --json="$WORK/t.json"
expect_exit 0
check_pairs "$OUT" 1 200 "$WORK/t.json"
expect_match "$OUT" '^#0: ID[0-9]+, P[0-9]+, CPU-?[0-9]+, I1000; #1: ID[0-9]+, P[0-9]+, CPU-?[0-9]+, TO 0, Cycles 200$'

# -f 3 -T 2: the first hand-over is not held back, the second is, by 3 s: one
# timeout at 2 s, the message at 3 s, its latency from the send, not 3 s.
run_tool_timeout 30 pmqtest -q -p "$PRIO" -T 2 -f 3 -l 2 --json="$WORK/f.json"
expect_exit 0
check_pairs "$OUT" 1 2 "$WORK/f.json"
expect_match "$OUT" ', TO 1, Cycles 2$'
max=$(sed -n 's/^#1 -> #0, .*Max *\([0-9]*\)$/\1/p' "$OUT")
[ "${max:-9999999}" -lt 1000000 ] || fail "-f's hold-back counted as latency: Max $max us"

# SIGINT while the sender holds a message back for 30 s.
"$PMQ" -q -p "$PRIO" -T 1 -f 30 >"$OUT" 2>"$ERR" </dev/null &
pid=$!
sleep 1.5
start=$(date +%s%N)
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
took=$((($(date +%s%N) - start) / 1000000))
expect_exit 0
expect_match "$OUT" ', TO [0-9]+, Cycles 1$'
[ "$took" -lt 1000 ] || fail "SIGINT took $took ms to end a held-back hand-over"

# Bad values: one line, exit 2.
for args in "-T 3601" "-T -1" "-T x" "-f 2" "-f 2 -T 0" "--fork" "-f"; do
	# shellcheck disable=SC2086
	run_tool pmqtest -q -l 1 $args
	expect_exit 2
	expect_empty_stdout
	head -n 1 "$ERR" | grep -Eq '^pmqtest: .*(timeout|option)' ||
		fail "pmqtest $args: $(head -n 1 "$ERR")"
done

# The queues, seen through an mqueue mount of our own.
MQ=$WORK/mq
mkdir -p "$MQ"
mount -t mqueue none "$MQ" || fail "cannot mount the mqueue file system"
trap 'umount "$MQ" 2>/dev/null; rm -rf "$WORK"' EXIT
mine() { ls "$MQ" | grep "^${NS_PREFIX}pmqtest-$1-" || true; }

"$PMQ" -q -p "$PRIO" -t 2 >"$OUT" 2>"$ERR" </dev/null &
a=$!
"$PMQ" -q -p "$PRIO" -t 2 >"$WORK/out2" 2>"$WORK/err2" </dev/null &
b=$!
sleep 1
[ -z "$(mine $a)$(mine $b)" ] || fail "queues visible while the runs last: $(mine $a) $(mine $b)"
[ "$(ls -l /proc/$a/fd | grep -c "/${NS_PREFIX}pmqtest-$a-[0-3] (deleted)")" -eq 4 ] ||
	fail "run $a does not hold its 4 unlinked queues"
kill -INT "$a"
kill -KILL "$b"
RC=0
wait "$a" || RC=$?
expect_exit 0
expect_match "$OUT" '^#3 -> #2, Min '
wait "$b" 2>/dev/null
[ -z "$(mine $a)$(mine $b)" ] || fail "queues left after SIGINT/SIGKILL"

# What a run killed between open and unlink would leave.
sh -c 'exit 0' &
dead=$!
wait "$dead"
: >"$MQ/${NS_PREFIX}pmqtest-$dead-0"
: >"$MQ/${NS_PREFIX}pmqtest-$$-0"
run_tool_timeout 30 pmqtest -q -p "$PRIO" -l 10
expect_exit 0
[ -z "$(mine "$dead")" ] || fail "the dead run's queue pmqtest-$dead-0 was not removed"
[ -n "$(mine $$)" ] || fail "the queue of a living process was removed"
rm -f "$MQ/${NS_PREFIX}pmqtest-$$-0"
finish
