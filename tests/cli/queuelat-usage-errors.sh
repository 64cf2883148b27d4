#!/bin/sh
# Proves: bad queuelat invocations exit 2 with exactly one line on stderr
# naming the option (plus the project's "Try ... --help" hint) (2.4 took text as 0, -c 0 gave max_queue_len =
# -2147483648, -f 0 gave cycles_to_ns = inf, an unknown option printed the
# help and exited 0, a missing required option printed a line on stdout and
# exited 1), nothing on stdout and no --json file; --help keeps 2.4's lines.
. "$top_srcdir/tests/cli/lib.sh"
HINT="Try 'queuelat --help' for more information."

while IFS='|' read -r args line; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	run_tool_timeout 10 queuelat --json="$WORK/out.json" $args
	expect_exit 2
	expect_empty_stdout
	expect_text "$ERR" "$line
$HINT"
	[ ! -e "$WORK/out.json" ] || fail "$args: --json file created"
done <<'TABLE'
-m 400 -c 10 -p 3 -f 0|queuelat: invalid --freq '0': must be a number above 0 and at most 1e+06 (MHz)
-m 400 -c 10 -p 3 -f abc|queuelat: invalid --freq 'abc': must be a number above 0 and at most 1e+06 (MHz)
-m 400 -c 10 -p 3 -f nan|queuelat: invalid --freq 'nan': must be a number above 0 and at most 1e+06 (MHz)
-m 400 -c 0 -p 3|queuelat: invalid --cycles '0': must be 1..1000000000 (cycles)
-m 400 -c -5 -p 3|queuelat: invalid --cycles '-5': must be 1..1000000000 (cycles)
-m abc -c 10 -p 3|queuelat: invalid --max-len 'abc': must be 1 ns to 1 s: N (ns), Nns, Nus, Nms or Ns
-m 0 -c 10 -p 3|queuelat: invalid --max-len '0': must be 1 ns to 1 s: N (ns), Nns, Nus, Nms or Ns
-m 20xs -c 10 -p 3|queuelat: invalid --max-len '20xs': must be 1 ns to 1 s: N (ns), Nns, Nus, Nms or Ns
-m 2s -c 10 -p 3|queuelat: invalid --max-len '2s': must be 1 ns to 1 s: N (ns), Nns, Nus, Nms or Ns
-m 1.5us -c 10 -p 3|queuelat: invalid --max-len '1.5us': must be 1 ns to 1 s: N (ns), Nns, Nus, Nms or Ns
-m 400 -c 10 -p 0|queuelat: invalid --packets '0': must be a number above 0 and at most 100000 (million packets per second)
-m 400 -c 10 -p 1x|queuelat: invalid --packets '1x': must be a number above 0 and at most 100000 (million packets per second)
-m 400 -c 10 -p 3 -q -1|queuelat: invalid --queue-len '-1': must be 0..1000000000 (packets)
-m 400 -c 10 -p 3 -t 1.5m|queuelat: invalid --timeout '1.5m': must be N, Ns, Nm, Nh or Nd, at most 3650d
-m 400 -c 10|queuelat: options -m, -c and -p are required (-f too with rt-tests 2.4)
-c 10 -p 3|queuelat: options -m, -c and -p are required (-f too with rt-tests 2.4)
-m 400 -c 10 -p 3 extra|queuelat: unexpected argument 'extra'
-m 20us -c 100 -p 100 -f 1000 -t 60s junk|queuelat: unexpected argument 'junk'
TABLE

# An unknown option and a missing value: one line too (the texts are rt_cli's).
for args in "-x" "--bogus" "-m"; do
	# shellcheck disable=SC2086
	run_tool_timeout 10 queuelat $args
	expect_exit 2
	expect_empty_stdout
	if [ "$(wc -l <"$ERR")" -ne 2 ] || [ "$(sed -n 2p "$ERR")" != "$HINT" ]; then
		fail "$args: not one line and the hint: $(cat "$ERR")"
	fi
done

# --help: 2.4's first line (plus our version), and its option lines, byte for byte.
run_tool_timeout 10 queuelat --help
expect_exit 0
expect_match "$OUT" '^queuelat V 2\.40 \(rt-tests-ng [^)]*\)$'
for line in \
	'-c N     --cycles N        number of cycles to process one packet (int)' \
	'-h       --help            show this help menu' \
	'-m LEN   --max-len LEN     maximum latency allowed, in nanoseconds (int)' \
	'-p F     --packets F       million packets per second (float)'; do
	grep -qxF -- "$line" "$OUT" || fail "--help lacks: $line"
done
for start in '-f F     --freq F          TSC frequency in MHz (float)' \
	'-q N     --queue-len N     minimum queue len to print trace (int)' \
	'-t TIME  --timeout TIME    timeout, in seconds (int)'; do
	grep -qF -- "$start" "$OUT" || fail "--help lacks: $start"
done
# getopt_long abbreviations as in 2.4 (--p is still --packets beside --preflight)
run_tool_timeout 10 queuelat --max=400 --cyc 10 --p=3 --fr=0
expect_exit 2
expect_text "$ERR" "queuelat: invalid --freq '0': must be a number above 0 and at most 1e+06 (MHz)
$HINT"
finish
