# shellcheck shell=sh
# Helpers for black-box tests of the built binaries. Source it from a test:
#   . "$top_srcdir/tests/cli/lib.sh"
# Exit codes follow automake's harness: 0 PASS, 1 FAIL, 77 SKIP, 99 ERROR.

: "${top_builddir:?run through make check (top_builddir unset)}"
: "${top_srcdir:?run through make check (top_srcdir unset)}"

TEST_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rt-tests-ng.$TEST_NAME.XXXXXX") || exit 99
OUT="$WORK/stdout"
ERR="$WORK/stderr"
RC=0
FAILS=0
# Seconds since the epoch at the start: finish() prints the test's wall
# time, so a slow test shows in its log (CI time is budgeted).
T_START=$(date +%s)
trap 'rm -rf "$WORK"' EXIT

# The prefix of the names of the objects the tools create where every pid
# namespace sees them (lib/system/rt_owner.h): empty in the initial pid namespace,
# "ns<INODE>-" in any other (a container, an unshare'd build).
NS_INO=$(stat -L -c %i /proc/self/ns/pid 2>/dev/null) || NS_INO=4026531836
NS_PREFIX=
[ "$NS_INO" = 4026531836 ] || NS_PREFIX=ns$NS_INO-

# The tests' python3: the build tree's link to configure's PYTHON3
# (Makefile.am), under make check and run by hand alike.
if [ -e "$top_builddir/tests/python/python3" ]; then
	PATH=$(cd "$top_builddir/tests/python" && pwd):$PATH
fi

# Path of a built tool; tests never take one from PATH.
tool() {
	echo "$top_builddir/src/$1/$1"
}

# Debian's rt-tests 2.4, unpacked by scripts/install-deps where no PATH
# looks: the compatibility tests run it beside ours.
RT_REFERENCE_DIR=${RT_REFERENCE_DIR:-/var/cache/rt-tests-ng/reference}

# reference_tool TOOL: the path of 2.4's TOOL, or nothing when it is absent.
reference_tool() {
	for _d in usr/bin usr/sbin; do
		[ -x "$RT_REFERENCE_DIR/$_d/$1" ] && echo "$RT_REFERENCE_DIR/$_d/$1" && return 0
	done
	return 0
}

# need_reference TOOL: SKIP with the reason unless 2.4's TOOL is there.
need_reference() {
	[ -n "$(reference_tool "$1")" ] ||
		skip "Debian's rt-tests 2.4 is not unpacked in $RT_REFERENCE_DIR (scripts/install-deps)"
}

# run_reference SECONDS TOOL ARGS...: run 2.4's TOOL as run_tool_timeout
# runs ours, into REF_OUT, REF_ERR and REF_RC (need_reference first).
REF_OUT="$WORK/ref.stdout"
REF_ERR="$WORK/ref.stderr"
REF_RC=0
run_reference() {
	_s=$1
	_p=$(reference_tool "$2")
	shift 2
	REF_RC=0
	timeout -k 2 "$_s" "$_p" "$@" >"$REF_OUT" 2>"$REF_ERR" </dev/null || REF_RC=$?
}

# run_tool TOOL ARGS...: run it, capture stdout, stderr and the exit code.
run_tool() {
	_t=$1
	shift
	RC=0
	"$(tool "$_t")" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

# run_tool_timeout SECONDS TOOL ARGS...: the same, killed after SECONDS.
run_tool_timeout() {
	_s=$1
	_t=$2
	shift 2
	RC=0
	timeout -k 2 "$_s" "$(tool "$_t")" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

fail() {
	echo "FAIL: $*" >&2
	FAILS=$((FAILS + 1))
}

# Print the reason and report SKIP (never PASS) to the harness.
skip() {
	echo "SKIP: $*"
	exit 77
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (SCHED_FIFO, mlockall, /dev/cpu_dma_latency)"
}

need_cpus() {
	[ "$(nproc)" -ge "$1" ] || skip "needs $1 CPUs, this machine has $(nproc)"
}

# Signals at random moments under qemu-user (an i386 build on a kernel
# without IA32 emulation, see scripts/check-i386) once aborted in the
# emulator: these tests need the tools to run natively.
need_native() {
	[ -z "${RT_TESTS_EMULATOR:-}" ] ||
		skip "the tools run under $RT_TESTS_EMULATOR here, whose signal emulation is not exact"
}

# sanitized: the tools are an AddressSanitizer build (scripts/check-sanitizers).
sanitized() {
	case "${SAN_CFLAGS:-}" in
	*sanitize=address*) return 0 ;;
	esac
	return 1
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip "needs the command '$1'"
}

need_tracefs() {
	need_root
	grep -qs ' tracefs ' /proc/mounts || [ -e /sys/kernel/tracing/tracing_on ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		skip "needs tracefs (not mounted and cannot be mounted)"
}

# need_trace_analysis EVENT...: cyclictest built with libtracefs, and the
# kernel has the events; sets T to the tracefs directory. (After need_tracefs.)
need_trace_analysis() {
	"$(tool cyclictest)" -q -l 1 -i 100 --analyze=3600000000 --analyze-output="$WORK/probe.txt" \
		>/dev/null 2>"$WORK/probe.err" </dev/null || true
	! grep -q 'built without libtracefs' "$WORK/probe.err" ||
		skip "this build has no libtracefs/libtraceevent"
	T=$(sed -n 's/^[^ ]* \([^ ]*\) tracefs .*/\1/p' /proc/mounts | head -n 1)
	[ -n "$T" ] || T=/sys/kernel/tracing
	for _e in "$@"; do
		grep -q ":$_e\$" "$T/available_events" || skip "the kernel has no $_e event"
	done
}

# hold_lock PATH: a live process holds an flock on PATH (a run's object of
# another namespace, as far as a cleaner can tell) until it is killed or the
# test's shell is gone; its pid is in $holder. Returns once the lock is
# held: a probe that can take it means the holder has not got there yet.
hold_lock() {
	(
		exec 9<"$1"
		flock -x 9
		while kill -0 $$ 2>/dev/null; do sleep 0.2 9<&-; done
	) &
	holder=$!
	_w=0
	while flock -n -x "$1" true; do
		_w=$((_w + 1))
		[ "$_w" -le 600 ] || fail "no process took the lock on $1 in 60 s"
		sleep 0.1
	done
}

# LeakSanitizer: libtracefs keeps strings it caches (the tracing
# directory) for the life of the process; they are not ours to free.
lsan_ignore_libtracefs() {
	printf 'leak:libtracefs.so\n' >"$WORK/lsan.supp"
	# readable by the runs a test makes as nobody
	chmod a+x "$WORK" && chmod a+r "$WORK/lsan.supp"
	LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$WORK/lsan.supp:print_suppressions=0"
	export LSAN_OPTIONS
}

# wait_signal_setup PID COMM: wait (up to 10 s) until PID runs COMM and
# blocks SIGINT and SIGTERM, i.e. its signal set-up is done. Until then a
# background job's SIGINT is ignored (sh sets it so for `&`) and lost: a
# sanitizer build spends tens of ms before main(), and a shell or wrapper
# that execs COMM blocks every signal for a moment.
wait_signal_setup() {
	for _i in $(seq 1 200); do
		if [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]; then
			_blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
			[ -n "$_blk" ] && [ $((0x$_blk & 0x4002)) -eq $((0x4002)) ] && return 0
		fi
		sleep 0.05
	done
	fail "pid $1 never ran $2 with SIGINT and SIGTERM blocked"
}

# session_members SID: processes left in session SID (zombies not yet
# reaped by init count).
session_members() {
	ps -eo sid= | grep -c "^ *$1\$"
}

# start_in_session PROGRAM ARGS...: PROGRAM as the leader of a new session
# (its pid is the session id), stdout and stderr to $OUT and $ERR; sets PID.
start_in_session() {
	rm -f "$WORK/pid"
	setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' _ "$WORK/pid" "$@" \
		>"$OUT" 2>"$ERR" </dev/null &
	for _i in $(seq 1 100); do
		[ -s "$WORK/pid" ] && break
		sleep 0.05
	done
	PID=$(cat "$WORK/pid")
}

# session_empties SID WHAT: the session empties within 10 s (else it fails
# and the session is killed).
session_empties() {
	for _i in $(seq 1 100); do
		[ "$(session_members "$1")" -eq 0 ] && return 0
		sleep 0.1
	done
	fail "$2: $(session_members "$1") processes of the session still run"
	pkill -KILL -s "$1" 2>/dev/null
}

# need_promtool: Prometheus' promtool in $PROMTOOL (Debian's first: a
# PATH wrapper may hide it), else SKIP.
need_promtool() {
	PROMTOOL=/usr/bin/promtool
	[ -x "$PROMTOOL" ] || PROMTOOL=$(command -v promtool) ||
		skip "needs promtool (Debian: prometheus; scripts/install-deps installs it)"
}

# promtool_clean FILE [WHAT]: promtool check metrics accepts FILE and has
# nothing to say about it.
promtool_clean() {
	"$PROMTOOL" check metrics <"$1" >"$WORK/promtool.out" 2>&1 ||
		fail "${2:+$2: }promtool check metrics: $(head -n 5 "$WORK/promtool.out")"
	[ ! -s "$WORK/promtool.out" ] || fail "${2:+$2: }promtool says: $(head -n 5 "$WORK/promtool.out")"
}

# -b writes 0 to the global tracing_on (as 2.4 does, to freeze the trace):
# a test that runs it puts the machine's value back when it exits, and
# holds global-tracing (tests/with-timeout.sh): two -b tests at once
# would each save the other's 0 and leave the machine at 0.
restore_tracing_on_at_exit() {
	_tdir=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	[ -n "$_tdir" ] && [ -w "$_tdir/tracing_on" ] || return 0
	_was_on=$(cat "$_tdir/tracing_on")
	trap 'echo "$_was_on" >"$_tdir/tracing_on"; rm -rf "$WORK"' EXIT
}

# The global trace's settings and the instance list (compare before/after).
tracing_global_state() {
	for _f in tracing_on current_tracer trace_clock set_event buffer_size_kb tracing_cpumask; do
		printf '%s: %s\n' "$_f" "$(tr '\n' ' ' <"$T/$_f")"
	done
	ls "$T/instances"
}

expect_exit() {
	[ "$RC" -eq "$1" ] || fail "exit code $RC, expected $1 (stderr: $(head -c 300 "$ERR"))"
}

expect_empty_stdout() {
	[ ! -s "$OUT" ] || fail "stdout not empty: $(head -c 200 "$OUT")"
}

expect_empty_stderr() {
	[ ! -s "$ERR" ] || fail "stderr not empty: $(head -c 300 "$ERR")"
}

# compare_exact FILE EXPECTED: byte-for-byte comparison, diff on failure.
compare_exact() {
	if ! cmp -s "$1" "$2"; then
		fail "$1 differs from $2"
		diff -u "$2" "$1" | head -40 >&2
	fi
}

# expect_text FILE TEXT: FILE holds exactly TEXT (plus a final newline).
expect_text() {
	printf '%s\n' "$2" >"$WORK/expected.txt"
	compare_exact "$1" "$WORK/expected.txt"
}

# compare_regex FILE RE_FILE: line N of FILE matches ERE line N of RE_FILE,
# and both have the same number of lines.
compare_regex() {
	if ! awk -v refile="$2" '
		BEGIN { while ((getline re < refile) > 0) res[++n] = re }
		{ m++; if (m > n || $0 !~ ("^" res[m] "$")) { print "line " m ": " $0; bad = 1; exit } }
		END { if (!bad && m != n) { print "lines: " m ", expected " n; bad = 1 } exit bad }
	' "$1" >"$WORK/regex.diag"; then
		fail "$1 does not match $2: $(cat "$WORK/regex.diag")"
	fi
}

# expect_match FILE ERE: at least one line of FILE matches.
expect_match() {
	grep -Eq -- "$2" "$1" || fail "no line of $(basename "$1") matches /$2/"
}

expect_no_match() {
	! grep -Eq -- "$2" "$1" || fail "a line of $(basename "$1") matches /$2/: $(grep -E -m1 -- "$2" "$1")"
}

# Finish: PASS when no check failed.
finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "$TEST_NAME: $FAILS check(s) failed"
		exit 1
	fi
	echo "$TEST_NAME: ok ($(($(date +%s) - T_START)) s)"
	exit 0
}

# report_refuses CMD INPUT OTHER ERRLINE: rt-latency-report CMD (html,
# plot, merge, junit; compare: INPUT beside OTHER) refuses INPUT: exit 2
# within 20 s (an endless loop fails, 124), stderr exactly the one line
# ERRLINE, nothing on stdout, no output file left in $WORK/out.
report_refuses() {
	_in=$2
	_err=$4
	mkdir -p "$WORK/out"
	case $1 in
	html) set -- html -o "$WORK/out/r.html" "$_in" ;;
	plot) set -- plot -o "$WORK/out/r.svg" "$_in" ;;
	merge) set -- merge -o "$WORK/out/r.json" "$_in" ;;
	junit) set -- junit -o "$WORK/out/r.xml" "$_in" ;;
	compare) set -- compare "$_in" "$3" ;;
	esac
	RC=0
	timeout -k 2 20 "$(tool rt-latency-report)" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
	[ "$RC" -eq 2 ] || fail "$1 $_in: exit $RC, expected 2 (124: timeout): $(head -c 200 "$ERR")"
	printf '%s\n' "$_err" >"$WORK/expected.err"
	cmp -s "$ERR" "$WORK/expected.err" ||
		fail "$1 $_in: stderr '$(head -c 300 "$ERR")', expected '$_err'"
	expect_empty_stdout
	[ -z "$(ls -A "$WORK/out")" ] || fail "$1 $_in: left $(ls -A "$WORK/out")"
	rm -rf "$WORK/out" && mkdir "$WORK/out"
}

# ---------------------------------------------------------------- cyclictest checks
HELPERS="$top_srcdir/tests/helpers"

# check_summary FILE THREADS LOOPS [allow_empty]: status-line invariants.
check_summary() {
	awk -v threads="$2" -v loops="$3" -v allow_empty="${4:-0}" \
		-f "$HELPERS/ct_summary.awk" "$1" >"$WORK/summary.diag" ||
		fail "summary: $(head -5 "$WORK/summary.diag")"
}

# check_hist FILE THREADS BUCKETS LOOPS SUM: histogram layout and invariants.
check_hist() {
	awk -v threads="$2" -v buckets="$3" -v loops="$4" -v sum="$5" \
		-f "$HELPERS/ct_hist.awk" "$1" >"$WORK/hist.diag" ||
		fail "$(head -5 "$WORK/hist.diag")"
}

# check_json FILE THREADS [SUMMARY]: schema, validity, agreement with the text.
check_json() {
	python3 "$HELPERS/json_check.py" "$@" >"$WORK/json.diag" 2>&1 ||
		fail "$(head -5 "$WORK/json.diag")"
	check_schema "$1" auto
}

# check_schema FILE TOOL [--lines]: FILE validates against schema/TOOL.schema.json
# (python3-jsonschema; SKIP with the reason when it is missing). TOOL "auto":
# the tool of the JSON's "cmdline:", when it has a schema (check_json and
# check_pairs call it so).
check_schema() {
	_rc=0
	python3 "$top_srcdir/tests/helpers/validate_json.py" --schema-dir "$top_srcdir/schema" \
		${3:+"$3"} "$1" "$2" >"$WORK/schema.diag" 2>&1 || _rc=$?
	case $_rc in
	0) ;;
	77) [ "$2" = auto ] || skip "$(head -1 "$WORK/schema.diag")" ;;
	*) fail "schema $2: $(head -5 "$WORK/schema.diag")" ;;
	esac
}

# check_sched FILE POLICY: the JSON says which policy the threads ran under.
check_sched() {
	python3 "$HELPERS/json_sched.py" "$@" >"$WORK/sched.diag" 2>&1 ||
		fail "$1: $(head -3 "$WORK/sched.diag")"
}

need_python3() {
	need_cmd python3
}

# need_python_module MODULE PACKAGE: SKIP unless the tests' Python imports MODULE.
need_python_module() {
	need_python3
	python3 -c "import $1" 2>/dev/null || skip "needs $2 (python3 cannot import $1)"
}

# A measurement as root at SCHED_FIFO; SKIP when RT scheduling is not permitted.
need_rt() {
	need_root
	chrt -f 1 true 2>/dev/null || skip "SCHED_FIFO not permitted here"
}

# Layout and JSON tests: as root at SCHED_FIFO 80; otherwise (the make check
# of a package build, as a normal user) unprivileged at SCHED_OTHER, so the
# output is still checked and only real-time cases skip. Sets PRIO (80 or 0),
# POLICY (fifo or other), MLOCK (-m as root) and DMA (cyclictest's first line
# as root, empty otherwise).
rt_or_other() {
	if [ "$(id -u)" -eq 0 ] && chrt -f 1 true 2>/dev/null; then
		PRIO=80 POLICY=fifo MLOCK=-m DMA="# /dev/cpu_dma_latency set to 0us"
	else
		PRIO=0 POLICY=other MLOCK="" DMA=""
		echo "not root: measuring at SCHED_OTHER (layout and JSON)"
	fi
}

# stderr without the PM QoS warning an unprivileged cyclictest prints.
err_without_dma() {
	grep -v 'cpu_dma_latency' "$ERR" >"$WORK/err.nodma" || true
	echo "$WORK/err.nodma"
}

# Run a latency test a few times: a run above the upper bound is retried
# (noise only adds latency); below the lower bound it fails at once.
# retry_bound N CMD...: CMD returns 0 ok, 1 too low (fail), 2 too high (retry).
retry_bound() {
	_n=$1
	shift
	_i=1
	while :; do
		_r=0
		"$@" || _r=$?
		case $_r in
		0) return 0 ;;
		1) fail "below the lower bound (attempt $_i)"; return 1 ;;
		esac
		[ "$_i" -ge "$_n" ] && { fail "above the upper bound in $_n attempts"; return 1; }
		_i=$((_i + 1))
	done
}

# CPU time of this shell's waited-for children, in ms, from `times` written
# to FILE by the shell itself (a command substitution would ask a subshell).
_children_cpu_ms() {
	awk 'NR == 2 { ms = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]);
		ms += p[1] * 60000 + p[2] * 1000 } printf "%d\n", ms }' "$1"
}

# signal_and_wait PID SIG: send SIG to PID (a child of this shell) and wait
# for it. Sets RC (its exit status), STOP_MS (wall time from the signal to
# the end of the wait) and STOP_CPU_MS (CPU time PID and the children it
# reaped used after the signal, to 10 ms): on a loaded machine the wall time
# is the scheduler's, the CPU time stays the tool's own.
signal_and_wait() {
	_tck=$(getconf CLK_TCK)
	_pre=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat" 2>/dev/null) || _pre=0
	times >"$WORK/times.0"
	_t0=$(date +%s%N)
	kill -"$2" "$1" 2>/dev/null
	RC=0
	wait "$1" || RC=$?
	STOP_MS=$((($(date +%s%N) - _t0) / 1000000))
	times >"$WORK/times.1"
	STOP_CPU_MS=$(($(_children_cpu_ms "$WORK/times.1") - $(_children_cpu_ms "$WORK/times.0") -
		${_pre:-0} * 1000 / _tck))
	[ "$STOP_CPU_MS" -ge 0 ] || STOP_CPU_MS=0
}

# wait_started PID: wait (up to 20 s) until PID has started a thread or a
# child process: its control signals are taken over by then (rt_signal
# blocks them before any thread starts), however slowly a loaded machine
# ran its start-up. (wait_signal_setup cannot tell once the main thread
# sleeps in sigtimedwait, which unblocks them while it waits.)
wait_started() {
	for _i in $(seq 1 200); do
		[ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -gt 1 ] && return 0
		[ -n "$(pgrep -P "$1")" ] && return 0
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	fail "pid $1 started no thread nor child process"
}

# stopped_in_time WHAT [WALL_MS]: after signal_and_wait, the tool ended
# within WALL_MS (default 1000) of the signal; when the machine made it
# slower, its own CPU time after the signal (which, for a signal during the
# start-up, includes finishing it) stays under 1 s (3 s for an ASan build),
# i.e. it would have ended in time on a CPU of its own, and it still ended
# within 20 s (a tool that never reacts).
stopped_in_time() {
	_cpu_max=1000
	sanitized && _cpu_max=3000
	[ "$STOP_MS" -lt "${2:-1000}" ] && return 0
	if [ "$STOP_CPU_MS" -ge "$_cpu_max" ] || [ "$STOP_MS" -ge 20000 ]; then
		fail "$1: $STOP_MS ms to exit, $STOP_CPU_MS ms of CPU after the signal"
		return 1
	fi
	echo "$1: $STOP_MS ms to exit on a loaded machine, $STOP_CPU_MS ms of its own CPU"
}

# check_pairs STDOUT PAIRS LOOPS [JSON]: sigwaittest/ptsematest block and JSON.
check_pairs() {
	python3 "$HELPERS/pair_check.py" "$@" >"$WORK/pair.diag" 2>&1 ||
		fail "$(head -5 "$WORK/pair.diag")"
	[ -z "${4:-}" ] || check_schema "$4" auto
}
