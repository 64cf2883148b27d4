#!/bin/sh
# Proves bad oslat invocations exit 2 with one line plus the hint on stderr,
# nothing on stdout and no --json file; missing privileges are one line,
# exit 1. Debian's 2.4 printed "oslat V 2.40"
# and its message on stdout and exited 1 (recorded here):
#   -b 4     Illegal bucket size: 4 (should be: 4-1024)      (4 is fine now)
#   -b 2000  Illegal bucket size: 2000 (should be: 4-1024)
#   -C 3     Illegal core for main thread: 3 (should be: 0-2)
#   -D 0     Illegal runtime: 0
#   -D abc   Illegal runtime: abc
#   -f 0     Illegal RT priority: 0 (should be: 1-99)
#   -m 4096  Unknown workload memory size '4096'.            (bytes now)
#   -w foo   Unknown workload 'foo'.  Please choose from: 'no', 'memmove'
#   -T 0     Parameter --trace-threshold needs to be positive
#   -c 5     libnuma: Warning: cpu argument 5 is out of range / FATAL: ...
. "$top_srcdir/tests/cli/lib.sh"

hint="Try 'oslat --help' for more information."
while IFS='|' read -r args line; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 oslat --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	printf '%s\n%s\n' "$line" "$hint" >"$WORK/want"
	compare_exact "$ERR" "$WORK/want"
	[ ! -e "$WORK/out.json" ] || fail "$args: --json file created"
done <<'TABLE'
-b 3|oslat: invalid --bucket-size '3': must be 4..1024
-b 2000|oslat: invalid --bucket-size '2000': must be 4..1024
-b 8x|oslat: invalid --bucket-size '8x': must be 4..1024
-D 0|oslat: invalid --duration '0': must be at least 1 s
-D abc|oslat: invalid --duration 'abc': must be N, Ns, Nm, Nh or Nd, at most 3650d
-D -5|oslat: invalid --duration '-5': must be N, Ns, Nm, Nh or Nd, at most 3650d
-f 0|oslat: invalid --rtprio '0': must be 1..99
-f 100|oslat: invalid --rtprio '100': must be 1..99
-m 2g|oslat: invalid --workload-mem '2g': must be N bytes or Nb, Nk, Nm, Ng, at most 1g
-m 1.5k|oslat: invalid --workload-mem '1.5k': must be N bytes or Nb, Nk, Nm, Ng, at most 1g
-w foo|oslat: invalid --workload 'foo': must be no or memmove
-T 0|oslat: invalid --trace-threshold '0': must be 1..3600000000 (us)
--analyze=0|oslat: invalid --analyze '0': must be 1..3600000000 (us)
-b|oslat: option '-b' requires an argument
-x|oslat: invalid option '-x'
--bogus|oslat: unrecognized or ambiguous option '--bogus'
--c=1|oslat: unrecognized or ambiguous option '--c=1'
--records-interval=5|oslat: --records-interval needs --records or --metrics
TABLE

# CPUs outside the affinity: -c and -C (2.4: -C 2 on 2 CPUs passed its check)
n=$(getconf _NPROCESSORS_CONF)
run_tool_timeout 10 oslat -C "$n"
expect_exit 2
expect_empty_stdout
expect_match "$ERR" "^oslat: invalid --cpu-main-thread '$n': must be one of the allowed CPUs "
[ "$(wc -l <"$ERR")" -eq 2 ] || fail "-C: not one line plus the hint"
run_tool_timeout 10 oslat -c "$n"
expect_exit 2
expect_empty_stdout
[ "$(wc -l <"$ERR")" -eq 2 ] || fail "-c: not one line plus the hint"

# Run-time errors without the privileges: one line in words, exit 1,
# nothing on stdout (2.4: a 5-line "ERROR: TEST(...)" block)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
	nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all"
	RC=0
	case "${SAN_CFLAGS:-}" in
	*sanitize=address*)
		echo "note: ASan makes mlockall a no-op that succeeds: no memlock case" ;;
	*)
		prlimit --memlock=65536:65536 $nobody "$(tool oslat)" -D 1 --no-preflight >"$OUT" 2>"$ERR" || RC=$?
		expect_exit 1
		expect_empty_stdout
		expect_text "$ERR" "oslat: cannot lock memory (needs root, CAP_IPC_LOCK or a large enough RLIMIT_MEMLOCK): Cannot allocate memory" ;;
	esac
	RC=0
	prlimit --rtprio=0:0 $nobody "$(tool oslat)" -D 1 -f 5 --no-preflight >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 1
	expect_empty_stdout
	expect_match "$ERR" '^oslat: not permitted to use SCHED_FIFO priority 5: '
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "-f without the privilege: not one line"
fi

# 4 buckets and a plain -m are accepted (2.4 refused both); --r is --rtprio
run_tool_timeout 10 oslat -b 4 -m 4096 --r=5 -c 0 -D 1 -q --no-preflight
[ "$(id -u)" -ne 0 ] || { expect_exit 0; expect_match "$OUT" '^    004 \(us\):	 [0-9]+ \(including overflows\)$'; }
finish
