#!/bin/sh
# Proves GSL, and the libm it brings, are loaded only when a confidence
# interval is computed: no tool links either (no NEEDED entry), a cyclictest
# -m run has mapped neither while it measures (so it does not lock them) and
# prints the intervals at its end; where the soname configure
# found cannot be loaded (a broken file of that name first in
# LD_LIBRARY_PATH), the run still exits 0 with its percentiles, without
# intervals: no "CI" line, and null for every "percentiles_ci" entry
# (exit 0: only a --max-percentile limit would be INCONCLUSIVE).
. "$top_srcdir/tests/cli/lib.sh"
SONAME=$(sed -n 's/^#define RT_LIBGSL_SONAME "\(.*\)"$/\1/p' "$top_builddir/config.h")
[ -n "$SONAME" ] || fail "config.h has no RT_LIBGSL_SONAME"
need_root
need_cmd readelf
need_python3

for t in cyclictest cyclicdeadline oslat signaltest sigwaittest ptsematest svsematest pmqtest \
	hackbench pi_stress rt-latency-report; do
	readelf -d "$(tool "$t")" >"$WORK/dyn" 2>&1 || fail "readelf -d $t: $(head -c 200 "$WORK/dyn")"
	# rt-latency-report measures nothing and draws its log axes with libm.
	if [ "$t" = rt-latency-report ]; then
		expect_no_match "$WORK/dyn" 'NEEDED.*libgsl'
	else
		expect_no_match "$WORK/dyn" 'NEEDED.*(libgsl|libm\.so)'
	fi
done

# While it measures (3 s at 1 ms), neither is in the process' maps.
"$(tool cyclictest)" -m -q -i 1000 -l 3000 --percentiles --no-preflight >"$OUT" 2>"$ERR" &
pid=$!
sleep 1
# (ASan's runtime needs libm itself: there only GSL is looked for.)
if sanitized; then
	grep -e "/$SONAME" "/proc/$pid/maps" >"$WORK/maps" 2>/dev/null
else
	grep -e "/$SONAME" -e '/libm\.so' "/proc/$pid/maps" >"$WORK/maps" 2>/dev/null
fi
kill -0 "$pid" 2>/dev/null || fail "cyclictest ended before 1 s of a 3 s run"
[ ! -s "$WORK/maps" ] || fail "GSL or libm mapped during the measurement: $(head -n 1 "$WORK/maps")"
RC=0
wait "$pid" || RC=$?
expect_exit 0
expect_match "$OUT" '^# T: 0 p99 [0-9]+ us \(95 % CI [0-9]+-([0-9]+|\?: too few samples, [0-9]+ needed)\)$'

# GSL that cannot be loaded: percentiles without intervals.
mkdir "$WORK/libs"
printf 'not a shared library\n' >"$WORK/libs/$SONAME"
LD_LIBRARY_PATH="$WORK/libs"
export LD_LIBRARY_PATH
run_tool_timeout 20 cyclictest -q -l 200 -i 1000 --percentiles --json="$WORK/r.json" --no-preflight
unset LD_LIBRARY_PATH
expect_exit 0
expect_match "$OUT" '^# P99 Latencies: [0-9]+$'
expect_no_match "$OUT" '^# T: 0 p|CI'
python3 - "$WORK/r.json" >"$WORK/diag" 2>&1 <<'PY' || fail "$(cat "$WORK/diag")"
import json, sys
d = json.load(open(sys.argv[1]))
cis = [v for t in d["thread"].values() for v in t["percentiles_ci"].values()]
cis += list(d["percentiles_ci"].values())
assert cis and all(v is None for v in cis), cis
PY
finish
