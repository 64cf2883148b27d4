# shellcheck shell=sh
# A fake tracefs tree for hwlatdetect (HWLATDETECT_TRACEFS=DIR), sourced by
# tests/cli/hwlatdetect-*.sh after lib.sh.

# The test build of hwlatdetect: only it reads HWLATDETECT_TRACEFS (the
# shipped binary never takes its tracefs from the environment).
HWLAT_TEST_TOOL=$top_builddir/tests/helpers/hwlatdetect-test

# fake_tree DIR: the files hwlatdetect reads and writes, with values that
# differ from every value the tests set, and trace_pipe as a FIFO.
fake_tree() {
	rm -rf "$1"
	mkdir -p "$1/hwlat_detector" || exit 99
	echo "hwlat blk function nop" >"$1/available_tracers"
	echo nop >"$1/current_tracer"
	echo 1 >"$1/tracing_on"
	echo 0 >"$1/tracing_thresh"
	echo 3 >"$1/tracing_cpumask"
	echo 500000 >"$1/hwlat_detector/width"
	echo 1000000 >"$1/hwlat_detector/window"
	mkfifo "$1/trace_pipe" || exit 99
}

# fake_state DIR: the settings, one "file: value" line each.
fake_state() {
	for _f in tracing_on current_tracer tracing_thresh tracing_cpumask hwlat_detector/width \
		hwlat_detector/window; do
		printf '%s: %s\n' "$_f" "$(cat "$1/$_f")"
	done
}

# hwlat_line CPU SEQ INNER OUTER TS [EXTRA]: a line as the kernel's hwlat tracer writes it.
hwlat_line() {
	printf '           <...>-4321    [%03d] d...   100.%06d: #%-5d inner/outer(us): %4d/%-5d ts:%s%s\n' \
		"$1" "$2" "$2" "$3" "$4" "$5" "${6:+ $6}"
}

# feed FIFO FILE [SECONDS]: once hwlatdetect opens the FIFO, write FILE's
# lines into it and hold it open for SECONDS (default 0); in the
# background, given up after 15 s.
feed() {
	timeout 15 sh -c 'exec 3>"$1"; cat "$2" >&3; sleep "$3"' _ "$1" "$2" "${3:-0}" &
	feeder=$!
}

# The tool with the fake tree; stdout, stderr and the exit code as run_tool.
run_fake() {
	_dir=$1
	shift
	RC=0
	HWLATDETECT_TRACEFS=$_dir timeout -k 2 30 "$HWLAT_TEST_TOOL" "$@" >"$OUT" 2>"$ERR" \
		</dev/null || RC=$?
}
