#!/bin/sh
# Proves: every way a cyclictest run ends leaves the machine as it was and
# its other outputs whole. SIGINT, SIGTERM, SIGHUP (exit 0); SIGPIPE from
# `| head -c 1`, a -F reader that goes away, a --records pipe whose reader
# exits (the run goes on, exit 1 only for an output that really failed, one
# line naming it); ENOSPC on --json, --histfile and --records (a full 16k
# tmpfs in a private mount namespace: exit 1, the failed output named, no
# partial or temporary file, the other outputs complete); a tracefs write
# that fails (-b with tracing_on bound to /dev/full, --analyze with a fake
# instances directory, both in a private mount namespace). After each: the
# process is gone, /dev/shm/cyclictest<PID>, the -F fifo and our tracing
# instance are gone, the global tracing_on and current_tracer are unchanged,
# the process holds no /dev/cpu_dma_latency, no child is left, the records
# file's last line is the total line.
# test-holds: global-tracing
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_native
need_python3
need_cmd timeout
need_cmd pgrep
CT=$(tool cyclictest)
START_S=$(date +%s)

T=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
[ -n "$T" ] && [ -r "$T/tracing_on" ] || T=""
tracing_state() {
	[ -n "$T" ] && printf '%s %s\n' "$(cat "$T/tracing_on")" "$(cat "$T/current_tracer")"
}
TRACING_BEFORE=$(tracing_state)

# --analyze too when this build and kernel can (its instance must go as well).
ANALYZE=""
"$CT" -q -l 1 -i 100 --analyze=3600000000 >/dev/null 2>"$WORK/probe.err" </dev/null &&
	ANALYZE="--analyze=3600000000"
[ -n "$ANALYZE" ] || echo "note: runs without --analyze: $(head -c 200 "$WORK/probe.err")"

# Private mount namespaces for ENOSPC and the tracefs write failures.
NS=""
if command -v unshare >/dev/null 2>&1 &&
	unshare -m --propagation private sh -c 'mount -t tmpfs -o size=16k none "$1"' sh "$WORK" \
		2>"$WORK/ns.err"; then
	NS=yes
else
	echo "note: ENOSPC and tracefs cases not run: no private mount namespace" \
		"($(head -c 200 "$WORK/ns.err"))"
fi

# Files of one case under $D.
new_case() {
	echo "case $1 at $(($(date +%s) - START_S)) s"
	CASE=$1
	D="$WORK/$CASE"
	mkdir -p "$D"
	OUT="$D/stdout" ERR="$D/stderr"
}

# The options every case uses: all the outputs and the state a run creates
# (the tracing instance in the signal cases: its set-up is slow).
common_opts() {
	_a=""
	case $CASE in sig*) _a=$ANALYZE ;; esac
	echo "-m -p 80 -t 2 -i 1000 -h 50 --histfile=$D/h.txt --json=$D/j.json" \
		"--records=$D/r.jsonl --records-interval=1 -F $D/fifo $_a"
}

# check_clean PID: nothing of the run is left on the machine.
check_clean() {
	_pid=$1
	! kill -0 "$_pid" 2>/dev/null || fail "$CASE: process $_pid still there"
	[ ! -e "/dev/shm/cyclictest$_pid" ] || fail "$CASE: /dev/shm/cyclictest$_pid left"
	[ ! -e "$D/fifo" ] || fail "$CASE: -F fifo left"
	find /proc/[0-9]*/fd -lname /dev/cpu_dma_latency 2>/dev/null |
		grep -q "^/proc/$_pid/" && fail "$CASE: /dev/cpu_dma_latency still held"
	pgrep -P $$ >"$WORK/children" && fail "$CASE: processes left: $(cat "$WORK/children")"
	if [ -n "$T" ]; then
		ls "$T/instances" | grep -E "^cyclictest-(.*-)?$_pid\$" >"$WORK/inst" &&
			fail "$CASE: tracing instance left: $(cat "$WORK/inst")"
		# Another test may switch the global trace for a moment: wait for it.
		_i=0
		while [ "$(tracing_state)" != "$TRACING_BEFORE" ] && [ $_i -lt 30 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		[ "$(tracing_state)" = "$TRACING_BEFORE" ] ||
			fail "$CASE: global tracing_on/current_tracer '$(tracing_state)'," \
				"was '$TRACING_BEFORE'"
	fi
}

# check_outputs [json|hist|records]...: those outputs are complete. One
# python3 for the records and the JSON's return_code (into $D/json_rc).
check_outputs() {
	_rec=- _json=-
	for _o in "$@"; do
		case $_o in
		json) check_json "$D/j.json" 2 ;;
		hist) check_hist "$D/h.txt" 2 50 0 0 ;;
		records) _rec="$D/r.jsonl" ;;
		esac
	done
	[ -e "$D/j.json" ] && _json="$D/j.json"
	python3 - "$_rec" "$_json" >"$D/json_rc" 2>"$WORK/rec.diag" <<'EOF' ||
import json, sys
if sys.argv[1] != "-":
    data = open(sys.argv[1], "rb").read()
    assert data.endswith(b"\n"), "records: last line not whole"
    lines = [json.loads(l) for l in data.decode().splitlines()]
    assert lines[0]["type"] == "run", "records: first line is not the run line"
    assert lines[-1]["type"] == "total", "records: last line is %s, not total" % lines[-1]["type"]
if sys.argv[2] != "-":
    print(json.load(open(sys.argv[2]))["return_code"])
EOF
		fail "$CASE: $(tail -n 1 "$WORK/rec.diag")"
	ls -A "$D" | grep '^\.' >"$WORK/tmpfiles" && fail "$CASE: temporary files left: $(cat "$WORK/tmpfiles")"
}

json_rc() {
	cat "$D/json_rc"
}

# One line of stderr names the failed output, and it is the last line.
expect_last_err() {
	[ "$(tail -n 1 "$ERR")" = "$1" ] || fail "$CASE: last stderr line '$(tail -n 1 "$ERR")', expected '$1'"
}

# ------------------------------------------------------------ signals
for sig in INT TERM HUP; do
	new_case "sig$sig"
	# shellcheck disable=SC2046
	"$CT" $(common_opts) >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	# the shm object exists while it runs, so its absence later means something
	# (--analyze under ASan on a loaded machine takes seconds to start)
	i=0
	while [ ! -e "/dev/shm/cyclictest$pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "/dev/shm/cyclictest$pid" ] || fail "$CASE: no /dev/shm/cyclictest$pid while running"
	sleep 1
	kill -"$sig" "$pid"
	RC=0
	wait "$pid" || RC=$?
	[ "$RC" -eq 0 ] || fail "$CASE: exit $RC (stderr: $(head -c 300 "$ERR"))"
	check_outputs json hist records
	check_clean "$pid"
done

# ------------------------------------------------------------ SIGPIPE
new_case sigpipe  # with the tracing instance too
# shellcheck disable=SC2046
("$CT" $(common_opts) -D 1 2>"$ERR" </dev/null &
	echo $! >"$D/pid"
	wait $!
	echo $? >"$D/rc") | head -c 1 >"$OUT"
RC=$(cat "$D/rc")
[ "$RC" -eq 1 ] || fail "$CASE: exit $RC, expected 1 (stderr: $(head -c 300 "$ERR"))"
expect_last_err "cyclictest: writing standard output: Broken pipe"
[ "$(grep -c '^cyclictest: ' "$ERR")" -eq 1 ] || fail "$CASE: more than one error line"
check_outputs json hist records
[ "$(json_rc)" = 1 ] || fail "$CASE: JSON return_code is not 1"
check_clean "$(cat "$D/pid")"

# ------------------------------------------------------------ -F reader gone
new_case fifo
# shellcheck disable=SC2046
# (a long run, stopped by SIGINT once the reader has read: a loaded machine
# may take seconds for the readers below)
"$CT" $(common_opts) -q -D 60 >"$OUT" 2>"$ERR" </dev/null &
pid=$!
i=0
while [ ! -p "$D/fifo" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
# Readers that open and close at once: the listing meets no reader (EPIPE).
for i in 1 2 3 4 5 6 7 8 9 10; do
	kill -0 "$pid" 2>/dev/null && timeout 1 sh -c ': <"$1"' sh "$D/fifo" 2>/dev/null
done
# Then one that reads: the fifo still serves.
kill -0 "$pid" 2>/dev/null && timeout 10 cat "$D/fifo" >"$D/listing" 2>/dev/null
kill -INT "$pid" 2>/dev/null
RC=0
wait "$pid" || RC=$?
grep -q '^T: 0 ' "$D/listing" || fail "$CASE: the fifo stopped serving readers"
case $RC in
0) expect_no_match "$ERR" "fifo" ;;
1) expect_last_err "cyclictest: writing the fifo '$D/fifo': Broken pipe" ;;
*) fail "$CASE: exit $RC (stderr: $(head -c 300 "$ERR"))" ;;
esac
check_outputs json hist records
check_clean "$pid"

# ------------------------------------------------------------ --records pipe gone
new_case recpipe
mkfifo "$D/rpipe"
head -c 1 <"$D/rpipe" >/dev/null &
reader=$!
# shellcheck disable=SC2046
"$CT" $(common_opts) -q -D 1 --records="$D/rpipe" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
RC=0
wait "$pid" || RC=$?
wait "$reader"
[ "$RC" -eq 1 ] || fail "$CASE: exit $RC, expected 1"
expect_last_err "cyclictest: records '$D/rpipe': Broken pipe"
check_outputs json hist
[ "$(json_rc)" = 1 ] || fail "$CASE: JSON return_code is not 1"
rm -f "$D/rpipe"
check_clean "$pid"

# ------------------------------------------------------------ ENOSPC
# In a private mount namespace: a 16k tmpfs, filled; the named output goes there.
cat >"$WORK/enospc.sh" <<'EOF'
tiny=$1 which=$2 D=$3
shift 3
mount -t tmpfs -o size=16k rt-tests-ng-tiny "$tiny" || exit 99
dd if=/dev/zero of="$tiny/fill" bs=4096 2>/dev/null
"$@" >"$D/stdout" 2>"$D/stderr" </dev/null &
echo $! >"$D/pid"
wait $!
echo $? >"$D/rc"
ls -A "$tiny" >"$D/tiny.ls"
[ ! -f "$tiny/r.jsonl" ] || cp "$tiny/r.jsonl" "$D/r.tiny"
umount "$tiny"
EOF
enospc() {
	new_case "enospc-$1"
	mkdir -p "$D/tiny"
	# shellcheck disable=SC2046
	set -- "$1" $(common_opts) -q -D 1
	case $1 in
	json) set -- "$@" --json="$D/tiny/j.json" ;;
	hist) set -- "$@" --histfile="$D/tiny/h.txt" ;;
	records) set -- "$@" --records="$D/tiny/r.jsonl" ;;
	esac
	_which=$1
	shift
	unshare -m --propagation private sh "$WORK/enospc.sh" "$D/tiny" "$_which" "$D" "$CT" "$@"
	RC=$(cat "$D/rc" 2>/dev/null || echo none)
	[ "$RC" = 1 ] || fail "$CASE: exit $RC, expected 1 (stderr: $(head -c 300 "$ERR"))"
}
if [ -n "$NS" ]; then
	enospc json
	expect_last_err "cyclictest: cannot write --json file '$D/tiny/j.json': No space left on device"
	[ "$(cat "$D/tiny.ls")" = fill ] || fail "$CASE: left in the full fs: $(cat "$D/tiny.ls")"
	check_outputs hist records
	check_clean "$(cat "$D/pid")"

	enospc hist
	expect_last_err "cyclictest: cannot write --histfile '$D/tiny/h.txt': No space left on device"
	[ "$(cat "$D/tiny.ls")" = fill ] || fail "$CASE: left in the full fs: $(cat "$D/tiny.ls")"
	check_outputs json records
	[ "$(json_rc)" = 1 ] || fail "$CASE: JSON return_code is not 1"
	check_clean "$(cat "$D/pid")"

	enospc records
	expect_last_err "cyclictest: records '$D/tiny/r.jsonl': No space left on device"
	[ "$(tr '\n' ' ' <"$D/tiny.ls")" = "fill r.jsonl " ] ||
		fail "$CASE: left in the full fs: $(cat "$D/tiny.ls")"
	# Whatever reached the records file is whole lines.
	[ ! -s "$D/r.tiny" ] || [ "$(tail -c 1 "$D/r.tiny" | od -An -c | tr -d ' ')" = '\n' ] ||
		fail "$CASE: a partial records line"
	check_outputs json hist
	[ "$(json_rc)" = 1 ] || fail "$CASE: JSON return_code is not 1"
	check_clean "$(cat "$D/pid")"
fi

# ------------------------------------------------------------ tracefs write fails
# Only inside a private mount namespace: the machine's tracefs is never written.
cat >"$WORK/tracefs.sh" <<'EOF'
D=$1 src=$2 target=$3 how=$4
shift 4
if [ "$how" = bind ]; then
	mount --bind "$src" "$target" || exit 99
else
	mount -t tmpfs -o size=64k rt-tests-ng-fake "$target" || exit 99
fi
"$@" >"$D/stdout" 2>"$D/stderr" </dev/null &
echo $! >"$D/pid"
wait $!
echo $? >"$D/rc"
ls -A "$target" >"$D/target.ls" 2>/dev/null
EOF
if [ -n "$NS" ] && [ -n "$T" ]; then
	# -b: the break's write of 0 to tracing_on fails (ENOSPC from /dev/full).
	new_case tracefs-break
	# shellcheck disable=SC2046
	unshare -m --propagation private sh "$WORK/tracefs.sh" "$D" /dev/full "$T/tracing_on" bind \
		"$CT" $(common_opts) -q -b 1 -D 5
	RC=$(cat "$D/rc" 2>/dev/null || echo none)
	[ "$RC" = 1 ] || fail "$CASE: exit $RC, expected 1 (stderr: $(head -c 300 "$ERR"))"
	expect_match "$ERR" "^cyclictest: -b: writing the tracefs file tracing_on: No space left on device\$"
	grep -q '^# Break thread: ' "$OUT" || fail "$CASE: the break was not hit"
	check_outputs json hist records
	check_clean "$(cat "$D/pid")"

	# --analyze: the instance's first setting fails (a fake instances directory).
	if [ -n "$ANALYZE" ]; then
		new_case tracefs-analyze
		# shellcheck disable=SC2046
		unshare -m --propagation private sh "$WORK/tracefs.sh" "$D" none "$T/instances" tmpfs \
			"$CT" $(common_opts) $ANALYZE -q -D 2
		RC=$(cat "$D/rc" 2>/dev/null || echo none)
		[ "$RC" = 1 ] || fail "$CASE: exit $RC, expected 1 (stderr: $(head -c 300 "$ERR"))"
		expect_match "$ERR" "^cyclictest: --analyze: "
		[ ! -s "$D/target.ls" ] || fail "$CASE: instance left: $(cat "$D/target.ls")"
		for f in j.json h.txt; do
			[ ! -e "$D/$f" ] || fail "$CASE: $f written by a run that did not start"
		done
		check_outputs
		check_clean "$(cat "$D/pid")"
	fi
else
	echo "note: tracefs write failures not run (needs tracefs and a private mount namespace)"
fi
finish
