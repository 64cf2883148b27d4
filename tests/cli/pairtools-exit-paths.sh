#!/bin/sh
# Proves: every way a pair tool's run ends leaves the machine as it was,
# for threads (pmqtest: POSIX message queues) and for -f processes
# (svsematest -f: a SysV semaphore set): SIGINT, SIGTERM, SIGHUP, a dead
# child (-f), SIGPIPE on stdout (`| head -c 1`) and ENOSPC on the --json
# file (a full tmpfs in a private mount namespace). After each: no process
# of the run left, nothing of its pid in /dev/shm or /dev/mqueue, no SysV
# set of its pid, no FIFO and no temporary file beside the outputs, nobody
# of the run holding /dev/cpu_dma_latency, the --records file whole (every
# line JSON, the last the totals) and the exit status as documented (0 for
# a signal, 1 for a dead child, a closed stdout or a full disk; the JSON
# of a run whose stdout closed says 1 too).
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
need_cmd ipcs
ulimit -c 0

key_of() {
	printf '0x%08x' $((0x53000000 + $1))
}

# started PID: the run is measuring (its IPC objects exist); print its children.
started() {
	sleep 0.8
	pgrep -P "$1" | tr '\n' ' '
}

# The machine after run PID (children KIDS) of TOOL ended; DIR held its outputs.
clean() { # WHAT PID KIDS DIR
	_what=$1 _pid=$2 _kids=$3 _dir=$4
	for p in $_pid $_kids; do
		state=$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)
		[ -z "$state" ] || [ "$state" = Z ] || fail "$_what: process $p left ($state)"
		ls -l "/proc/$p/fd" 2>/dev/null | grep -q cpu_dma_latency &&
			fail "$_what: $p holds /dev/cpu_dma_latency"
	done
	[ -z "$(pgrep -P "$_pid")" ] || fail "$_what: children of $_pid left"
	ls /dev/shm | grep -q -- "$_pid" && fail "$_what: /dev/shm: $(ls /dev/shm | grep -- "$_pid")"
	if [ -d /dev/mqueue ]; then
		ls /dev/mqueue | grep -q -- "-$_pid-" &&
			fail "$_what: /dev/mqueue: $(ls /dev/mqueue | grep -- "-$_pid-")"
	fi
	ipcs -s | grep -q "^$(key_of "$_pid") " && fail "$_what: SysV set $(key_of "$_pid") left"
	[ -z "$(find "$_dir" -type p)" ] || fail "$_what: FIFO left: $(find "$_dir" -type p)"
	# The outputs are written beside and renamed: no temporary file stays.
	left=$(find "$_dir" -type f ! -name r.jsonl ! -name d.json ! -name 'std*' ! -name fill \
		! -name rc ! -name pid)
	[ -z "$left" ] || fail "$_what: files left: $left"
	python3 - "$_dir/r.jsonl" >"$WORK/rec.diag" 2>&1 <<'EOF' || fail "$_what: records: $(tail -2 "$WORK/rec.diag")"
import json, sys
raw = open(sys.argv[1]).read()
assert raw.endswith("\n"), "the last line is cut"
recs = [json.loads(l) for l in raw.splitlines()]
assert recs[0]["type"] == "run" and recs[-1]["type"] == "total", [r["type"] for r in recs]
EOF
}

# A whole JSON file with this return code.
json_rc() { # WHAT FILE RC
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["return_code"] == int(sys.argv[2]), d["return_code"]' "$2" "$3" 2>"$WORK/j.diag" ||
		fail "$1: JSON: $(tail -1 "$WORK/j.diag")"
}

run_dir() {
	rm -rf "$WORK/run"
	mkdir "$WORK/run"
	echo "$WORK/run"
}

for mode in threads fork; do
	if [ $mode = threads ]; then
		T=pmqtest F=""
	else
		T=svsematest F=-f
	fi
	# The three signals end a run normally: exit 0, everything written.
	for sig in INT TERM HUP; do
		d=$(run_dir)
		"$(tool $T)" $F -q -p 80 -t 2 --json="$d/d.json" --records="$d/r.jsonl" \
			>"$d/stdout" 2>"$d/stderr" </dev/null &
		pid=$!
		kids=$(started "$pid")
		kill -"$sig" "$pid"
		RC=0
		wait "$pid" || RC=$?
		[ "$RC" -eq 0 ] || fail "$T $F SIG$sig: exit $RC"
		expect_match "$d/stdout" '^#3 -> #2, Min '
		json_rc "$T $F SIG$sig" "$d/d.json" 0
		clean "$T $F SIG$sig" "$pid" "$kids" "$d"
	done

	# SIGPIPE: the live display's reader goes away; the run goes on to its
	# end, writes its files, and says that stdout failed.
	d=$(run_dir)
	(
		"$(tool $T)" $F -p 80 -t 2 -D 2 --json="$d/d.json" --records="$d/r.jsonl" \
			2>"$d/stderr" </dev/null &
		echo $! >"$d/pid"
		RC=0
		wait $! || RC=$?
		echo "$RC" >"$d/rc"
	) | head -c 1 >/dev/null
	RC=$(cat "$d/rc")
	pid=$(cat "$d/pid")
	[ "$RC" -eq 1 ] || fail "$T $F SIGPIPE: exit $RC, expected 1 (a closed stdout is an error)"
	expect_match "$d/stderr" "^$T: .*(stdout|standard output)"
	json_rc "$T $F SIGPIPE" "$d/d.json" 1 # the JSON says stdout failed too
	clean "$T $F SIGPIPE" "$pid" "" "$d"

	# ENOSPC: the JSON file cannot be written; no half file, no temporary.
	if unshare -m true 2>/dev/null; then
		d=$(run_dir)
		mkdir "$d/full"
		RC=0
		unshare -m sh -c '
			mount --make-rprivate / 2>/dev/null
			mount -t tmpfs -o size=8k tmpfs "$1/full" || exit 99
			dd if=/dev/zero of="$1/full/fill" bs=1k count=64 2>/dev/null
			echo $$ >"$1/pid"
			exec "$2" $3 -q -p 80 -t 2 -D 1 --json="$1/full/d.json" --records="$1/r.jsonl" \
				>"$1/stdout" 2>"$1/stderr" </dev/null' sh "$d" "$(tool $T)" "$F" || RC=$?
		[ "$RC" -ne 99 ] || skip "cannot mount a tmpfs in a private mount namespace"
		[ "$RC" -eq 1 ] || fail "$T $F ENOSPC: exit $RC, expected 1"
		# (lib/results/rt_json reports the stream's error as EIO, not as ENOSPC)
		expect_match "$d/stderr" "^$T: cannot write --json file '$d/full/d.json': "
		expect_match "$d/stdout" '^#3 -> #2, Min '
		[ -z "$(ls -A "$d/full")" ] || fail "$T $F ENOSPC: the namespace's tmpfs leaked"
		clean "$T $F ENOSPC" "$(cat "$d/pid")" "" "$d"
	else
		echo "SKIP part: unshare -m is not permitted: ENOSPC not tried"
	fi
done

# A dead child (-f only; threads cannot die alone).
d=$(run_dir)
"$(tool svsematest)" -f -q -p 80 -t 2 --json="$d/d.json" --records="$d/r.jsonl" \
	>"$d/stdout" 2>"$d/stderr" </dev/null &
pid=$!
kids=$(started "$pid")
kill -KILL "$(echo "$kids" | tr ' ' '\n' | sed '/^$/d' | sort -n | tail -1)"
RC=0
wait "$pid" || RC=$?
[ "$RC" -eq 1 ] || fail "svsematest -f dead child: exit $RC"
expect_match "$d/stderr" '^svsematest: child [0-9]+ \(#3\) killed by signal 9 \(Killed\)$'
json_rc "svsematest -f dead child" "$d/d.json" 1
clean "svsematest -f dead child" "$pid" "$kids" "$d"
finish
