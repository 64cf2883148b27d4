# shellcheck shell=sh
# Sourced by rt-qualify-load-*.sh with LOAD and MIN_SHARE set (one run each:
# a test stays short on a busy machine).
# Proves: rt-qualify runs its three steps under each load (hackbench,
# stress-ng where installed; --load=none: rt-qualify-verdict.sh) and writes
# one directory whose summary.json carries the tools' own figures (each
# step's result, max, samples and verdict equal its tool's JSON); the load
# asked for is the load that ran (it used CPU time on its CPUs while the
# tools measured: a share that a loaded shared VM still gives it); and
# nothing of it runs on afterwards.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$top_srcdir/tests/helpers/rt_qualify_check.py"

# qualify LOAD MIN_SHARE: a 3 s run with LOAD, checked.
qualify() {
	_d="$WORK/q-$1"
	start_in_session "$(tool rt-qualify)" -D 3 --load="$1" --max-latency=3600000000 -o "$_d"
	session_empties "$PID" "--load=$1"
	RC=0
	wait "$PID" 2>/dev/null || RC=$?
	[ -s "$_d/summary.json" ] || { fail "--load=$1: no summary.json ($(head -c 300 "$ERR"))"; return; }
	RC=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["return_code"])' "$_d/summary.json")
	[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] || [ "$RC" -eq 4 ] ||
		fail "--load=$1: return_code $RC ($(head -c 300 "$ERR"))"
	python3 "$CHECK" "$_d" --load "$1" --steps-run 3 --min-load-share "$2" >"$WORK/diag" 2>&1 ||
		fail "--load=$1: $(cat "$WORK/diag")"
	for f in hardware-noise cyclictest oslat; do
		[ -s "$_d/$f.json" ] && [ -s "$_d/$f.records" ] && [ -s "$_d/$f.log" ] ||
			fail "--load=$1: $f's json, records or log missing"
	done
	expect_match "$OUT" '^\[1/3\] hardware-noise: (hwlatdetect|oslat)'
	expect_match "$OUT" "^\\[2/3\\] cyclictest: cyclictest, [0-9]+ s, under $1 load: "
	expect_match "$OUT" '^Verdict: '
	expect_match "$OUT" "^Results: $_d/summary.json"
}

[ "$LOAD" = hackbench ] || command -v stress-ng >/dev/null 2>&1 ||
	skip "--load=stress-ng: stress-ng is not installed"
qualify "$LOAD" "$MIN_SHARE"
expect_match "$OUT" "^load: $LOAD used [0-9.]+ CPU s in [0-9.]+ s of measurement on CPU"
[ "$LOAD" != hackbench ] || [ -s "$WORK/q-hackbench/load-hackbench.json" ] ||
	fail "hackbench wrote no JSON"
finish
