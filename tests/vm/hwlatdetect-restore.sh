#!/bin/sh
# Proves: our hwlatdetect runs 5 s against the kernel's real hwlat tracer
# and puts current_tracer, tracing_thresh and tracing_on back as they were
# (set beforehand to values neither it nor the kernel would pick, so a
# reset to defaults is caught), and its JSON holds together. On a kernel
# without the hwlat tracer it refuses with exit 1 and a message, and
# changes nothing.
. "$top_srcdir/tests/vm/lib.sh"

set_unusual_state
before=$(tracer_state)
echo "before: $before"
json=$OUT.json
t0=$(date +%s)
rc=0
"$TOOLS/hwlatdetect/hwlatdetect" --duration=5 --threshold=10 --json="$json" \
	>"$WORK/out" 2>"$WORK/err" || rc=$?
took=$(($(date +%s) - t0))
cat "$WORK/out" "$WORK/err"
after=$(tracer_state)
echo "after:  $after (exit status $rc, $took s)"
[ "$after" = "$before" ] || fail "not restored: before $before, after $after"
put_defaults

if ! tracer_listed hwlat; then
	[ "$rc" -eq 1 ] || fail "no hwlat tracer, yet exit status $rc"
	grep -q hwlat "$WORK/err" || fail "no hwlat tracer, and no message naming it: $(head -n 1 "$WORK/err")"
	[ ! -e "$json" ] || fail "no hwlat tracer, yet a JSON file"
	pass "no hwlat tracer here: exit 1 ($(head -n 1 "$WORK/err")), settings untouched"
fi
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "exit status $rc: $(head -n 1 "$WORK/err")"
if [ "$took" -lt 4 ] || [ "$took" -gt 40 ]; then
	fail "a 5 s run took $took s"
fi
grep -q '^Samples recorded: [0-9]' "$WORK/out" || fail "no 'Samples recorded:' line"
check_hwlat_json "$json" "$rc" duration
pass "5 s run (took $took s, exit $rc, $(sed -n 's/^Samples recorded: //p' "$WORK/out") samples," \
	"$(sed -n 's/^Max Latency: //p' "$WORK/out")), tracer settings restored"
