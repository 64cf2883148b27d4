#!/bin/sh
# Proves: bad hwlatdetect invocations exit 2 with one line plus the hint,
# nothing on stdout, no --json, --report or --metrics file (nor a temporary
# one), and the (fake) tracefs
# untouched: values are checked before anything is written (2.4 raised
# tracebacks, exit 1, after switching current_tracer to hwlat); the
# argparse forms work (--opt=V, --opt V, prefixes) and -h/--help exit 0 on
# stdout; a run-time failure to write a tracefs file is one line, exit 1,
# with every setting it changed written back.
. "$top_srcdir/tests/cli/lib.sh"
lsan_ignore_libtracefs
. "$top_srcdir/tests/helpers/hwlat_fake.sh"
need_cmd mkfifo
grep -q '^#define HAVE_TRACEFS 1' "$top_builddir/config.h" || skip "built without libtracefs"
F="$WORK/tracefs"
fake_tree "$F"
fake_state "$F" >"$WORK/state.before"
ls -l --time-style=+%s.%N "$F" "$F/hwlat_detector" >"$WORK/files.before"

hint="Try 'hwlatdetect --help' for more information."
while IFS='|' read -r args line; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_fake "$F" --json="$WORK/out.json" --report="$WORK/out.rpt" --metrics="$WORK/out.prom" $args
	expect_exit 2
	expect_empty_stdout
	printf 'hwlatdetect: %s\n%s\n' "$line" "$hint" >"$WORK/expected.err"
	compare_exact "$ERR" "$WORK/expected.err"
	for o in "$WORK"/out.* "$WORK"/.out.*; do
		[ ! -e "$o" ] || fail "$args: an output file was created: $o"
	done
done <<'TABLE'
--duration=10ms|invalid --duration '10ms': must be N, Ns, Nm, Nh, Nd or Nw, 1 s .. 3650d
--duration 0|invalid --duration '0': must be N, Ns, Nm, Nh, Nd or Nw, 1 s .. 3650d
--duration=1.5m|invalid --duration '1.5m': must be N, Ns, Nm, Nh, Nd or Nw, 1 s .. 3650d
--duration=-5|invalid --duration '-5': must be N, Ns, Nm, Nh, Nd or Nw, 1 s .. 3650d
--duration=3651d|invalid --duration '3651d': must be N, Ns, Nm, Nh, Nd or Nw, 1 s .. 3650d
--threshold=1m|invalid --threshold '1m': must be N, Nus, Nms or Ns (microseconds by default)
--threshold=-1|invalid --threshold '-1': must be N, Nus, Nms or Ns (microseconds by default)
--hardlimit=abc|invalid --hardlimit 'abc': must be N, Nus, Nms or Ns (microseconds by default)
--hardlimit=3601s|invalid --hardlimit '3601s': must be 0 us .. 3600 s
--window=1|invalid --window '1': must be 2 us .. 3600 s
--width=0|invalid --width '0': must be 1 us .. 3600 s
--width=2.5ms|invalid --width '2.5ms': must be N, Nus, Nms or Ns (microseconds by default)
--window=100 --width=100|invalid --width 100 us with --window 100 us: the width must be less than the window
--cpu-list=abc|invalid --cpu-list 'abc': must be CPU numbers (N or N-M, separated by commas) below 4096
--cpu-list=1,|invalid --cpu-list '1,': must be CPU numbers (N or N-M, separated by commas) below 4096
--cpu-list=4096|invalid --cpu-list '4096': must be CPU numbers (N or N-M, separated by commas) below 4096
--cpu-list=3-1|invalid --cpu-list '3-1': a CPU range must ascend (LOW-HIGH)
--duration|option '--duration' requires an argument
--w=5|unrecognized or ambiguous option '--w=5'
--d|unrecognized or ambiguous option '--d'
--verbose|unrecognized or ambiguous option '--verbose'
-x|invalid option '-x'
10|unexpected argument '10'
--metrics=|invalid --metrics '': needs a file name
--metrics=-|invalid --metrics '-': needs a file name (the file is replaced, standard output cannot be)
TABLE
# --records-interval alone, as the other tools: a usage error, not ignored
run_fake "$F" --records-interval=5 --duration=1
expect_exit 2
expect_empty_stdout
printf 'hwlatdetect: %s\n%s\n' "--records-interval needs --records or --metrics" "$hint" \
	>"$WORK/expected.err"
compare_exact "$ERR" "$WORK/expected.err"
fake_state "$F" >"$WORK/state.after"
compare_exact "$WORK/state.after" "$WORK/state.before"
ls -l --time-style=+%s.%N "$F" "$F/hwlat_detector" >"$WORK/files.after"
compare_exact "$WORK/files.after" "$WORK/files.before"

# -h and --help: stdout, exit 0; every 2.4 option is in the help
for h in -h --help --he; do
	run_fake "$F" $h
	expect_exit 0
	expect_empty_stderr
	for o in duration threshold hardlimit window width report cpu-list debug quiet watch metrics; do
		expect_match "$OUT" "^ +--${o}[= ]"
	done
done

# the value forms: --opt=V, --opt V, prefixes, units
feed "$F/trace_pipe" /dev/null
run_fake "$F" --dur 1 --thresh=2ms --hardl 1s --win 1s --wid=250000us --cpu=0-1 --rep "$WORK/r"
wait "$feeder"
expect_exit 0
expect_match "$OUT" '^hwlatdetect:  test duration 1 seconds$'
expect_match "$OUT" '^        Latency threshold: 2000us$'
expect_match "$OUT" '^        Sample window:     1000000us$'
expect_match "$OUT" '^        Sample width:      250000us$'
expect_match "$OUT" '^     Non-sampling period:  750000us$'
expect_match "$OUT" '^        CPU list:          0-1$'
expect_match "$OUT" "^        Output File:       $WORK/r\$"
if [ ! -f "$WORK/r" ] || [ -s "$WORK/r" ]; then fail "--rep: no empty report file"; fi
fake_state "$F" >"$WORK/state.after"
compare_exact "$WORK/state.after" "$WORK/state.before"

# A tracefs file that cannot be written (a directory in its place): one
# line, exit 1, no report, and what was changed before it is written back.
rmdir "$F/hwlat_detector" 2>/dev/null || rm -r "$F/hwlat_detector"
mkdir -p "$F/hwlat_detector/width"
echo 1000000 >"$F/hwlat_detector/window"
run_fake "$F" --duration=1 --threshold=10 --width=300
expect_exit 1
expect_empty_stdout
expect_match "$ERR" "^hwlatdetect: cannot "
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "more than one line: $(cat "$ERR")"
[ "$(cat "$F/current_tracer")" = nop ] || fail "current_tracer left at $(cat "$F/current_tracer")"
[ "$(cat "$F/tracing_thresh")" = 0 ] || fail "tracing_thresh left at $(cat "$F/tracing_thresh")"
[ "$(cat "$F/tracing_on")" = 1 ] || fail "tracing_on left at $(cat "$F/tracing_on")"

# No hwlat tracer in the (fake) kernel: one line naming the option, exit 1, nothing written.
fake_tree "$F"
echo "blk function nop" >"$F/available_tracers"
run_fake "$F" --duration=1
expect_exit 1
expect_empty_stdout
expect_text "$ERR" "hwlatdetect: the kernel has no hwlat tracer (available_tracers: blk function nop): it needs CONFIG_HWLAT_TRACER=y"
fake_state "$F" >"$WORK/state.after"
compare_exact "$WORK/state.after" "$WORK/state.before"
finish
