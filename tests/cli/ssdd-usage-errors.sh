#!/bin/sh
# Proves: bad ssdd invocations exit 2 with exactly one line naming the
# option and its range (plus the hint), nothing on stdout and no --json file
# (2.4 ran no pair for -f 0, -1 or abc and printed "All tests PASSED.",
# and for -i 0 left its tracees spinning forever); an unwritable --json path
# is one line and exit 1 before any output; ptrace refused by a seccomp
# filter is one line saying which and what to change, exit 1; a pair that cannot be created
# (RLIMIT_NPROC) is one line, exit 1, the pairs already running are stopped
# and reported, and no process is left (2.4 exited at once and left them).
# test-timeout: 180
. "$top_srcdir/tests/cli/lib.sh"
# In a sanitizer build, LeakSanitizer cannot stop a traced process (a
# tracee) or one whose ptrace a seccomp filter refuses: it hangs or exits
# 87. Leaks are not checked in ssdd's processes; the rest of ASan is.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
need_python3

while IFS='|' read -r args line; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 ssdd --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	printf '%s\n%s\n' "$line" "Try 'ssdd --help' for more information." >"$WORK/want"
	compare_exact "$ERR" "$WORK/want"
	[ ! -e "$WORK/out.json" ] || fail "$args: --json file created"
done <<'TABLE'
-f 0|ssdd: invalid --forks '0': must be 1..100000
-f -1|ssdd: invalid --forks '-1': must be 1..100000
--forks=abc|ssdd: invalid --forks 'abc': must be 1..100000
-f 100001|ssdd: invalid --forks '100001': must be 1..100000
-i 0|ssdd: invalid --iters '0': must be 1..2147483647
--iters=-5|ssdd: invalid --iters '-5': must be 1..2147483647
-i 10x|ssdd: invalid --iters '10x': must be 1..2147483647
-i 2147483648|ssdd: invalid --iters '2147483648': must be 1..2147483647
--tracee-exit-after=-1|ssdd: invalid --tracee-exit-after '-1': must be 0..1000000000
-f|ssdd: option '-f' requires an argument
--iters|ssdd: option '--iters' requires an argument
-x|ssdd: invalid option '-x'
--priority=5|ssdd: unrecognized or ambiguous option '--priority=5'
TABLE

# An unwritable --json path: one line, exit 1, nothing run.
run_tool_timeout 10 ssdd -f 1 -i 1 --json="$WORK/missing/x.json"
expect_exit 1
expect_empty_stdout
expect_match "$ERR" "^ssdd: cannot write --json file '.*/missing/x\\.json': No such file or directory$"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "--json: $(wc -l <"$ERR") lines on stderr"

# ptrace refused (a seccomp filter, as a container's profile): one line
# saying which and what to change, exit 1, no verdict; no tracee left (2.4
# printed "attach failed.  errno 1" and left every tracee spinning).
# The interpreter itself, not a wrapper (a pyenv shim is a chain of ~30
# shell processes: a second of CPU, the most of this case on a loaded
# machine). The bound is a guard against a hang, not a timing check: -k,
# as ssdd blocks SIGTERM. A kill before ssdd's header is a start-up starved
# by the machine (the kill then leaves no JSON and no line, as ssdd has not
# blocked SIGTERM yet): tried again, twice; a kill after it fails.
PY=$(python3 -c 'import sys; print(sys.executable)') || PY=python3
for try in 1 2 3; do
	rc=0
	rm -f "$WORK/eperm.json"
	timeout -k 5 30 setsid "$PY" "$top_srcdir/tests/helpers/no_ptrace.py" "$(tool ssdd)" \
		--no-preflight -f 2 -i 10 --json="$WORK/eperm.json" >"$OUT" 2>"$ERR" </dev/null || rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		if grep -q '^#main' "$OUT"; then
			fail "EPERM: ssdd started but did not end within 30 s (exit $rc): $(cat "$OUT" "$ERR")"
			break
		fi
		echo "EPERM try $try: not started within 30 s (exit $rc): the machine is starved"
		continue
	fi
	break
done
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	grep -q '^#main' "$OUT" || fail "EPERM: ssdd did not start in 3 tries of 30 s"
elif [ "$rc" -eq 77 ]; then
	echo "seccomp check skipped: $(cat "$OUT")"
else
	RC=$rc
	expect_exit 1
	expect_text "$ERR" "ssdd: pair 0: PTRACE_ATTACH failed: Operation not permitted: a seccomp filter refuses ptrace (Seccomp: 2 in /proc/self/status): allow ptrace in the container's or service's profile"
	expect_match "$OUT" '^forktest#0/[0-9]+: EXITING, ERROR: PTRACE_ATTACH failed: Operation not permitted$'
	expect_match "$OUT" '^One or more tests FAILED\.$'
	expect_no_match "$OUT" '^# Verdict:'
	check_schema "$WORK/eperm.json" ssdd
	python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["verdict"]["result"] != "fail")' \
		"$WORK/eperm.json" || fail "EPERM: the JSON's verdict is not fail"
	grep -q '"return_code": 1,' "$WORK/eperm.json" || fail "EPERM: return_code is not 1"
	for pid in $(sed -n 's/^forktest#[0-9]*\/[0-9]*\/\([0-9]*\): STARTING$/\1/p' "$OUT"); do
		! [ -e "/proc/$pid" ] || [ "$(cut -d' ' -f3 "/proc/$pid/stat")" = Z ] ||
			fail "EPERM: tracee $pid left: $(cat "/proc/$pid/stat")"
	done
fi

# Too many processes for the pairs: one line, exit 1, none left behind.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && command -v prlimit >/dev/null 2>&1; then
	chmod 755 "$WORK"
	mkdir "$WORK/nobody" && chmod 777 "$WORK/nobody"
	cp "$(tool ssdd)" "$WORK/ssdd"
	rc=0
	timeout -k 5 30 setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=20 \
		"$WORK/ssdd" --no-preflight -f 30 -i 1000 --json="$WORK/nobody/nproc.json" \
		>"$OUT" 2>"$ERR" </dev/null || rc=$?
	if [ "$rc" -eq 126 ] || [ "$rc" -eq 127 ]; then
		echo "uid 65534 cannot run $WORK/ssdd: RLIMIT_NPROC check skipped"
	else
		RC=$rc
		expect_exit 1
		[ "$(wc -l <"$ERR")" -eq 1 ] || fail "nproc: $(wc -l <"$ERR") lines on stderr: $(cat "$ERR")"
		expect_match "$ERR" '^ssdd: (cannot create the tracer of pair [0-9]+ of 30|pair [0-9]+: fork of the tracee failed): Resource temporarily unavailable \(too many processes: see ulimit -u\)$'
		expect_match "$OUT" '^One or more tests FAILED\.$'
		expect_no_match "$OUT" '^# Verdict:'
		check_schema "$WORK/nobody/nproc.json" ssdd
		python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["verdict"]["result"] != "fail")' \
			"$WORK/nobody/nproc.json" || fail "nproc: the JSON's verdict is not fail"
		grep -q '"return_code": 1,' "$WORK/nobody/nproc.json" || fail "nproc: return_code is not 1"
		sleep 0.5
		[ "$(ps -u 65534 -o stat=,comm= | grep -v '^Z' | grep -c 'ssdd$')" -eq 0 ] ||
			fail "processes of uid 65534 left after the failed creation"
	fi
fi
finish
