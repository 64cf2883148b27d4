#!/bin/sh
# Proves: in fork mode (sigwaittest -f, svsematest -f; ptsematest and
# pmqtest have no fork mode) a child that dies -- SIGKILL, SIGSEGV, SIGBUS
# or an exit, right after the start, mid-run or during the last interval --
# ends the run promptly (the parent once hung forever): exit 1, one line
# "TOOL: child PID (#K) killed by signal N (NAME)" / "exited with status 3",
# a "# Failed:" line after the summary, valid JSON naming the child in its
# pair's "failed" array (return_code 1), a "failed" record before the
# totals, a FAIL verdict naming it; no process and no SysV set left. A
# SIGSTOPped child does not hold up SIGINT: it is killed and named.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
need_cmd ipcs
ulimit -c 0 # SIGSEGV and SIGBUS: no core files
BOUND_MS=3000 # the hang was endless; the engine notices within 100 ms

key_of() {
	printf '0x%08x' $((0x53000000 + $1))
}

# children PID: wait until the run has forked its two children, print them.
children() {
	_w=0
	while [ "$(pgrep -P "$1" | wc -l)" -lt 2 ] && [ "$_w" -lt 200 ]; do
		sleep 0.01
		_w=$((_w + 1))
	done
	pgrep -P "$1" | tr '\n' ' '
}

# The outputs of a run whose child KID (#IDX) died of CAUSE (an ERE).
check_failed() { # WHAT TOOL PID KID IDX CAUSE
	_what=$1 _tool=$2 _pid=$3 _kid=$4 _idx=$5 _cause=$6
	expect_exit 1
	expect_match "$ERR" "^$_tool: child $_kid \\(#$_idx\\) $_cause\$"
	[ "$(grep -c ': child ' "$ERR")" -eq 1 ] || fail "$_what: not one child line: $(cat "$ERR")"
	expect_match "$OUT" "^# Failed: #$_idx \\(pid $_kid\\) of pair 0: $_cause\$"
	expect_match "$OUT" '^# Verdict: FAIL$'
	expect_match "$OUT" "^# Verdict: pair 0 \\(#1 -> #0\\): failed: child $_kid \\(#$_idx\\) $_cause\$"
	python3 - "$WORK/d.json" "$WORK/r.jsonl" "$_kid" "$_idx" "$_cause" >"$WORK/py.diag" 2>&1 <<'EOF' ||
import json, re, sys
doc = json.load(open(sys.argv[1]), parse_constant=lambda c: 1 / 0)
kid, idx, cause = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
assert doc["return_code"] == 1, "return_code %r" % doc["return_code"]
f = doc["thread"]["0"]["failed"]
assert len(f) == 1 and f[0]["pid"] == kid and f[0]["participant"] == idx, f
assert f[0]["role"] == ("receiver" if idx == 0 else "sender"), f
assert re.fullmatch(cause, f[0]["cause"]), f
assert ("signal" in f[0]) != ("exit_status" in f[0]), f
assert list(doc["thread"]["0"]) == ["sender", "receiver", "failed"], list(doc["thread"]["0"])
v = doc["verdict"]
assert v["result"] == "fail" and v["broken"][-1]["limit"] == "failed" and \
    v["broken"][-1]["value"] == kid, v
recs = [json.loads(l) for l in open(sys.argv[2])]
assert recs[0]["type"] == "run" and recs[-1]["type"] == "total", [r["type"] for r in recs]
fl = [r for r in recs if r["type"] == "failed"]
assert len(fl) == 1 and fl[0]["pid"] == kid and re.fullmatch(cause, fl[0]["cause"]), fl
EOF
		fail "$_what: $(tail -3 "$WORK/py.diag")"
	left=$(pgrep -P "$_pid")
	[ -z "$left" ] || fail "$_what: processes left: $left"
	for k in $KIDS; do
		state=$(awk '{ print $3 }' "/proc/$k/stat" 2>/dev/null)
		[ -z "$state" ] || [ "$state" = Z ] || fail "$_what: child $k still runs ($state)"
	done
	! ipcs -s | grep -q "^$(key_of "$_pid") " || fail "$_what: SysV set of $_pid left"
	rm -f "$WORK/d.json" "$WORK/r.jsonl"
}

# dead TOOL MOMENT WHO SIG: kill child WHO (0 receiver, 1 sender) at MOMENT;
# a few tries, as on a busy machine the run may be over before the kill.
dead() {
	_try=1
	while ! dead_once "$@"; do
		[ "$_try" -ge 3 ] && { fail "$*: the run ended before the kill, 3 times"; return; }
		_try=$((_try + 1))
	done
}

dead_once() {
	_tool=$1 _when=$2 _who=$3 _sig=$4
	intv=500000
	case $_when in
	start) dur=3 nap=0 ;;
	mid) dur=4 nap=1 ;;
	last) dur=6 nap=4.5 intv=2000000 ;; # the last interval: 4..6 s
	esac
	# gdb takes seconds to attach and call _exit: the run must outlast it.
	[ "$_sig" = exit ] && dur=30
	"$(tool "$_tool")" -f -q -p 80 -i $intv -D $dur --max-latency=1000000 \
		--json="$WORK/d.json" --records="$WORK/r.jsonl" >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	KIDS=$(children "$pid")
	sleep $nap
	# The lower pid is the receiver #0 (forked first).
	kid=$(echo "$KIDS" | tr ' ' '\n' | sed '/^$/d' | sort -n | sed -n "$((_who + 1))p")
	[ -n "$kid" ] || { fail "$_tool: no children"; kill -KILL "$pid"; wait "$pid"; return 0; }
	t0=$(date +%s%N)
	if [ "$_sig" = exit ]; then
		timeout 20 gdb -p "$kid" -batch -nx -ex 'call (void)_exit(3)' >/dev/null 2>&1
		t0=$(date +%s%N)
		cause='exited with status 3'
	else
		cause="killed by signal [0-9]+ \\([A-Za-z ]+\\)(, core dumped)?"
		# ASan catches SIGSEGV and SIGBUS itself and exits with its own status
		case "$_sig:${SAN_CFLAGS:-}" in
		SEGV:*sanitize=address* | BUS:*sanitize=address*) cause="exited with status [0-9]+" ;;
		esac
		if ! kill -"$_sig" "$kid" 2>/dev/null; then
			wait "$pid"
			echo "$_tool $_when: the run ended before the kill; again"
			return 1
		fi
	fi
	RC=0
	wait "$pid" || RC=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "$_tool $_when #$_who $_sig: exit $RC after $ms ms"
	[ "$ms" -lt "$BOUND_MS" ] || fail "$_tool $_when $_sig: $ms ms after the child died"
	check_failed "$_tool $_when #$_who $_sig" "$_tool" "$pid" "$kid" "$_who" "$cause"
}

dead sigwaittest start 1 KILL
dead sigwaittest mid 1 KILL
dead sigwaittest mid 0 SEGV
dead sigwaittest last 0 KILL
dead svsematest start 0 KILL
dead svsematest mid 1 BUS
dead svsematest last 1 KILL
if gdb --version >/dev/null 2>&1; then
	dead sigwaittest mid 0 exit
	dead svsematest mid 1 exit
else
	echo "no gdb: the case of a child calling _exit(3) is not tried"
fi

# A stopped child cannot leave its loop: SIGINT still ends the run, the
# child is killed after 500 ms and named as such.
for t in sigwaittest svsematest; do
	"$(tool "$t")" -f -q -p 80 --max-latency=1000000 --json="$WORK/d.json" \
		--records="$WORK/r.jsonl" >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	KIDS=$(children "$pid")
	sleep 0.5
	kid=$(echo "$KIDS" | tr ' ' '\n' | sed '/^$/d' | sort -n | head -1)
	kill -STOP "$kid"
	sleep 0.2
	t0=$(date +%s%N)
	kill -INT "$pid"
	RC=0
	wait "$pid" || RC=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "$t SIGINT with #0 stopped: exit $RC after $ms ms"
	[ "$ms" -lt "$BOUND_MS" ] || fail "$t: $ms ms after SIGINT with a stopped child"
	check_failed "$t stopped child" "$t" "$pid" "$kid" 0 \
		'did not stop within 500 ms: killed by signal 9 \(Killed\)'
done
finish
