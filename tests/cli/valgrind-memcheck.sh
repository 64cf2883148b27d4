#!/bin/sh
# Proves: under valgrind memcheck, a representative run of each tool (RT
# priorities, several threads, histogram, -v samples, JSON and histogram
# files, forked sigwaittest, a usage error, a SIGINT mid-run; compare, merge
# and plot of rt-latency-report, and their errors) has no memory error and
# leaks nothing, not even still-reachable blocks (but the loader's records
# of a library opened for good with dlopen: tests/data/dlopen.supp).
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_cmd valgrind
case "${SAN_CFLAGS:-}" in
*sanitize=address*) skip "an ASan build cannot run under valgrind" ;;
esac

n=0
LEAKS=all
# memcheck TOOL ARGS...: exec the tool under valgrind, one log per process.
memcheck() {
	_t=$1
	shift
	exec valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds="$LEAKS" \
		--errors-for-leak-kinds="$LEAKS" --suppressions="$top_srcdir/tests/data/dlopen.supp" \
		--log-file="$WORK/vg.$n.%p" "$(tool "$_t")" "$@"
}

# vg EXPECTED_EXIT TOOL ARGS...: one run under memcheck.
vg() {
	_want=$1
	shift
	n=$((n + 1))
	_rc=0
	(memcheck "$@") >"$OUT" 2>"$ERR" </dev/null &
	_pid=$!
	# A watchdog instead of timeout(1), which would stand between us and the tool.
	(sleep 120 && kill -KILL "$_pid") 2>/dev/null &
	_dog=$!
	wait "$_pid" || _rc=$?
	kill "$_dog" 2>/dev/null
	report "$_want" "$_rc" "$*"
}

report() {
	_bad=$FAILS
	[ "$2" -eq "$1" ] || fail "$3: exit $2, expected $1 (stderr: $(head -c 300 "$ERR"))"
	for _log in "$WORK"/vg.$n.*; do
		[ -s "$_log" ] && fail "$3: valgrind says: $(head -c 600 "$_log")"
	done
	[ "$FAILS" -eq "$_bad" ] && echo "clean: $3 ($(ls "$WORK"/vg.$n.* | wc -l) process(es))"
}

vg 0 cyclictest -q -m -p 80 -t 2 -i 500 -l 200 -h 200 --histfile="$WORK/h.txt" --json="$WORK/c.json"
[ -s "$WORK/h.txt" ] && [ -s "$WORK/c.json" ] || fail "cyclictest: output files missing"
vg 0 cyclictest -v -p 80 -l 50
[ "$(grep -c ':' "$OUT")" -ge 50 ] || fail "cyclictest -v: $(wc -l <"$OUT") lines"
vg 0 cyclictest -q -p 80 -S -l 50 --spike=10 --json="$WORK/s.json"
vg 2 cyclictest -i 0
vg 0 signaltest -q -m -p 80 -t 3 -l 100 --json="$WORK/st.json"
vg 0 sigwaittest -q -p 80 -t 2 -l 100 --json="$WORK/sw.json"
# A forked child holds a copy of the parent's heap, which only the parent
# frees: there, still-reachable blocks are expected, lost ones are not.
LEAKS=definite,indirect,possible
vg 0 sigwaittest -q -f -p 80 -t 2 -l 50
LEAKS=all
vg 0 ptsematest -q -p 80 -t 2 -l 100 --json="$WORK/pt.json"
vg 2 ptsematest -t abc
vg 0 rt-latency-report compare "$WORK/c.json" "$WORK/c.json"
vg 0 rt-latency-report compare "$WORK/h.txt" "$WORK/c.json"
# a -h text whose two threads add up beyond 64 bits: an error, nothing leaked
printf '# Histogram\n000000 6000000000000000000 6000000000000000000\n' >"$WORK/ovf.txt"
vg 2 rt-latency-report compare "$WORK/ovf.txt" "$WORK/c.json"
# Another run to merge with (one run twice is refused): another run id
# and start time.
sed -e 's/"start_time": "[^"]*"/"start_time": "Tue, 14 Nov 2023 22:13:20 +0000"/' \
	-e 's/"run_id": "[^"]*"/"run_id": "another-run"/' "$WORK/c.json" >"$WORK/c2.json"
grep -q '"run_id": "another-run"' "$WORK/c2.json" || fail "c2.json: no run_id to change"
vg 0 rt-latency-report merge "$WORK/c.json" "$WORK/c2.json" -o "$WORK/m.json"
vg 2 rt-latency-report merge "$WORK/c.json" "$WORK/c.json" -o "$WORK/m1.json"
vg 2 rt-latency-report merge "$WORK/c.json" "$WORK/pt.json" -o "$WORK/m2.json"
if command -v gnuplot >/dev/null 2>&1; then
	vg 0 rt-latency-report plot "$WORK/c.json" "$WORK/h.txt" "$WORK/m.json" -o "$WORK/p.svg"
	[ -s "$WORK/p.svg" ] || fail "rt-latency-report plot: no image"
fi
vg 1 rt-latency-report plot "$WORK/h.txt" "$WORK/missing.json" -o "$WORK/p2.svg"

# SIGINT mid-run: the run ends cleanly and still frees everything. The
# signal goes once both measuring threads exist (valgrind starts slowly).
n=$((n + 1))
(memcheck cyclictest -q -p 80 -t 2 -D 60 --json="$WORK/int.json") >"$OUT" 2>"$ERR" </dev/null &
pid=$!
i=0
while [ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -lt 3 ] && [ "$i" -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
report 0 "$rc" "cyclictest SIGINT"
check_summary "$OUT" 2 0
[ -s "$WORK/int.json" ] || fail "SIGINT: no JSON"
finish
