#!/bin/sh
# Proves hwlatdetect --metrics against a fake tracefs tree fed with known
# samples: the file at the start (zero series for tracing_cpumask's CPUs),
# during the run (after a --records-interval) and at the end after SIGINT
# (with rt_verdict) and SIGTERM (without --hardlimit: none) equals, byte for
# byte, the one computed independently by tests/helpers/hwlat_metrics.py
# (buckets at the documented bounds, a bucket's edge included, a latency
# past the last bound, a CPU outside the mask, a line naming no CPU, the
# count fields as spikes); promtool has nothing to say about any version;
# every version a reader saw was whole, each was a new file renamed over
# FILE after fsync (strace) and nothing is left beside it; no hwlat tracer
# and an unwritable directory leave no file.
. "$top_srcdir/tests/cli/lib.sh"
lsan_ignore_libtracefs
. "$top_srcdir/tests/helpers/hwlat_fake.sh"
need_cmd mkfifo
need_python3
need_promtool
grep -q '^#define HAVE_TRACEFS 1' "$top_builddir/config.h" || skip "built without libtracefs"
EXPECT="$HELPERS/hwlat_metrics.py"
F="$WORK/tracefs"
fake_tree "$F"
fake_state "$F" >"$WORK/state.before"
D="$WORK/prom"
mkdir "$D" "$WORK/snap"
M="$D/hw.prom"

# norm FILE: the machine's kernel and preemption labels as K and P
norm() {
	sed -E 's/kernel="[^"]*",preempt="[^"]*"/kernel="K",preempt="P"/' "$1"
}
# same WHAT FILE SAMPLES VERDICT CPUS: FILE is the computed file
same() {
	python3 "$EXPECT" expect "$3" 10 "$4" "$5" >"$WORK/$1.want" || exit 99
	norm "$2" >"$WORK/$1.got"
	compare_exact "$WORK/$1.got" "$WORK/$1.want"
	promtool_clean "$2" "$1"
}
# samples_in FILE: the sum of rt_samples_total
samples_in() {
	awk '/^rt_samples_total\{/ { n += $2 } END { print n + 0 }' "$1" 2>/dev/null
}
# wait_for COND...: up to 15 s
wait_for() {
	for _i in $(seq 1 150); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
has_samples() { [ -s "$M" ] && [ "$(samples_in "$M")" -eq "$1" ]; }
# lines SAMPLES: the trace lines of SAMPLES (CPU -1: a line that names none)
lines() {
	_seq=0
	while read -r cpu inner outer count; do
		_seq=$((_seq + 1))
		ts=1764624000.00000${_seq}000
		extra=
		[ "$count" -lt 0 ] || extra=count:$count
		if [ "$cpu" -lt 0 ]; then
			printf '           <...>-4321    d...   100.%06d: #%d inner/outer(us): %d/%d ts:%s%s\n' \
				"$_seq" "$_seq" "$inner" "$outer" "$ts" "${extra:+ $extra}"
		else
			hwlat_line "$cpu" "$_seq" "$inner" "$outer" "$ts" "$extra"
		fi
	done <"$1"
}

# ------------------------------------------------------------- SIGINT, staged
# 499 us ends a bucket (le="0.000499"), 500 us is past it, 150 ms past the
# last bound; CPU 5 is outside the mask "3"; one line names no CPU.
cat >"$WORK/a.samples" <<'X'
1 12 11 3
0 25 9 1
1 8 30 -1
5 150000 30 2
0 499 3 1
0 500 1 1
-1 40 2 -1
X
lines "$WORK/a.samples" >"$WORK/a.lines"
: >"$WORK/none.samples"
# the feeder writes the samples when told (go), and holds trace_pipe until done
# shellcheck disable=SC2016
timeout 60 sh -c 'exec 3>"$1"; while [ ! -e "$2" ]; do sleep 0.05; done; cat "$3" >&3
	while [ ! -e "$4" ]; do sleep 0.05; done' _ "$F/trace_pipe" "$WORK/go" "$WORK/a.lines" \
	"$WORK/done" &
feeder=$!
HWLATDETECT_TRACEFS=$F timeout -k 2 60 "$HWLAT_TEST_TOOL" --duration=60 --threshold=10 \
	--hardlimit=15 --records-interval=1 --metrics="$M" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
wait_for test -s "$M" || fail "no --metrics file at the start"
cp "$M" "$WORK/start.prom"
ino_start=$(stat -c %i "$M")
# a reader copying the file while it is replaced
( i=0; while [ ! -e "$WORK/done" ] && [ $i -lt 2000 ]; do
	cp "$M" "$WORK/snap/$i" 2>/dev/null; i=$((i + 1)); sleep 0.01; done ) &
reader=$!
touch "$WORK/go"
wait_for has_samples 7 || fail "the samples did not reach the file in 15 s: $(samples_in "$M")"
cp "$M" "$WORK/mid.prom"
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
touch "$WORK/done"
wait "$feeder" "$reader"
expect_exit 1
expect_empty_stderr
expect_match "$OUT" '^interrupted$'
expect_match "$OUT" '^Samples exceeding threshold: 10$'
same start "$WORK/start.prom" "$WORK/none.samples" none 0,1
same mid "$WORK/mid.prom" "$WORK/a.samples" none 0,1
same end "$M" "$WORK/a.samples" 0 0,1
expect_match "$M" "^rt_verdict\\{tool=\"hwlatdetect\",kernel=\"$(uname -r)\",preempt=\"[^\"]*\"\\} 0\$"
[ "$(stat -c %i "$M")" != "$ino_start" ] || fail "the file was rewritten in place, not replaced"
# every version a reader saw is one whole version
for s in "$WORK"/snap/*; do
	[ -s "$s" ] || continue
	tail -n 1 "$s" | grep -q '^rt_hwlat_threshold_seconds{' || fail "partial file seen: $s"
done
# shellcheck disable=SC2012
ls "$WORK"/snap | head -n 1 | grep -q . || fail "the reader copied nothing"
for s in $(md5sum "$WORK"/snap/* | sort -u -k1,1 | cut -d' ' -f3); do
	promtool_clean "$s" "a version seen during the run"
done
[ "$(ls -A "$D")" = hw.prom ] || fail "left in the directory: $(ls -A "$D")"
fake_state "$F" >"$WORK/state.after"
compare_exact "$WORK/state.after" "$WORK/state.before"

# ------------------------- SIGTERM, --cpu-list's mask, no --hardlimit: no verdict
rm -f "$M"
printf '2 40 11 -1\n' >"$WORK/b.samples"
lines "$WORK/b.samples" >"$WORK/b.lines"
feed "$F/trace_pipe" "$WORK/b.lines" 30
HWLATDETECT_TRACEFS=$F timeout -k 2 60 "$HWLAT_TEST_TOOL" --duration=60 --threshold=10 \
	--cpu-list=0,2-3,33 --records-interval=1 --metrics="$M" --quiet >"$OUT" 2>"$ERR" \
	</dev/null &
pid=$!
wait_for has_samples 1 || fail "SIGTERM: the sample did not reach the file in 15 s"
kill -TERM "$pid"
RC=0
wait "$pid" || RC=$?
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
expect_exit 1
expect_empty_stdout
expect_empty_stderr
same sigterm "$M" "$WORK/b.samples" none 0,2,3,33
[ "$(ls -A "$D")" = hw.prom ] || fail "SIGTERM: left in the directory: $(ls -A "$D")"
fake_state "$F" >"$WORK/state.after"
compare_exact "$WORK/state.after" "$WORK/state.before"

# --------------------------- atomic replacement, seen in the system calls
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	rm -f "$M"
	feed "$F/trace_pipe" "$WORK/b.lines" 2
	RC=0
	# LeakSanitizer cannot work in a traced process (it exits 87): not here.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		HWLATDETECT_TRACEFS=$F timeout -k 2 60 strace -f -o "$WORK/strace.log" \
			-e trace=openat,fsync,rename,renameat,renameat2 "$HWLAT_TEST_TOOL" --duration=3 \
			--threshold=10 --records-interval=1 --metrics="$M" --quiet >"$OUT" 2>"$ERR" \
			</dev/null || RC=$?
	wait "$feeder"
	expect_exit 1
	n=$(python3 "$EXPECT" strace "$WORK/strace.log" "$M" 2>"$WORK/strace.diag") ||
		fail "strace: $(head -n 3 "$WORK/strace.diag")"
	# the start, a version per second of the 3, the end
	[ "$n" -ge 3 ] || fail "strace: $n versions of the file, want 3 or more"
	same strace "$M" "$WORK/b.samples" none 0,1
else
	echo "note: strace case not run: strace cannot trace here"
fi

# ------------------------------------- no hwlat tracer, unwritable directory
rm -f "$M"
echo "blk function nop" >"$F/available_tracers"
RC=0
HWLATDETECT_TRACEFS=$F timeout -k 2 30 "$HWLAT_TEST_TOOL" --duration=1 --metrics="$M" \
	>"$OUT" 2>"$ERR" </dev/null || RC=$?
expect_exit 1
expect_match "$ERR" '^hwlatdetect: the kernel has no hwlat tracer'
[ -z "$(ls -A "$D")" ] || fail "no tracer: left in the directory: $(ls -A "$D")"
echo "hwlat blk function nop" >"$F/available_tracers"
RC=0
HWLATDETECT_TRACEFS=$F timeout -k 2 30 "$HWLAT_TEST_TOOL" --duration=1 \
	--metrics="$WORK/none/m.prom" >"$OUT" 2>"$ERR" </dev/null || RC=$?
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "hwlatdetect: cannot write --metrics file '$WORK/none/m.prom': No such file or directory"
fake_state "$F" >"$WORK/state.after"
compare_exact "$WORK/state.after" "$WORK/state.before"
finish
