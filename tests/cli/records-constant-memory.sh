#!/bin/sh
# Proves --records runs in constant memory: cyclictest (2 threads) and
# svsematest (2 pairs of forked processes) write a window every second for
# 28 s, and their resident memory after 24 windows is that after 4 (no -m,
# so any page a window added would show), give or take 16 KiB of allocator
# noise; their records hold every window, and the windows add up to the
# totals.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
MAXGROW_KB=16
# ASan keeps freed blocks in quarantine to catch late uses: without it the
# heap is reused as in the real build.
case "${SAN_CFLAGS:-}" in
*sanitize=address*)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
	export ASAN_OPTIONS ;;
esac
DURATION=28

rss_kb() { # PID...: resident KiB of the processes summed
	_sum=0
	for _p in "$@"; do
		_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$_p/status" 2>/dev/null) || _kb=0
		_sum=$((_sum + ${_kb:-0}))
	done
	echo "$_sum"
}

"$(tool cyclictest)" -q -p 80 -t 2 -i 1000 -D "$DURATION" --records-interval=1 --no-preflight \
	--records="$WORK/ct.jsonl" >/dev/null 2>"$WORK/ct.err" </dev/null &
ct=$!
"$(tool svsematest)" -q -p 80 -t 2 -f -i 1000 -D "$DURATION" --records-interval=1 --no-preflight \
	--records="$WORK/sv.jsonl" >/dev/null 2>"$WORK/sv.err" </dev/null &
sv=$!
sleep 4.5
sv_all="$sv $(pgrep -P "$sv" | tr '\n' ' ')"
# shellcheck disable=SC2086
early_ct=$(rss_kb "$ct") early_sv=$(rss_kb $sv_all)
sleep 20
# shellcheck disable=SC2086
late_ct=$(rss_kb "$ct") late_sv=$(rss_kb $sv_all)
echo "cyclictest RSS ${early_ct} KiB -> ${late_ct} KiB; svsematest (all processes) ${early_sv} KiB -> ${late_sv} KiB"
[ "$early_ct" -gt 0 ] && [ "$early_sv" -gt 0 ] || fail "no process to measure"
[ "$late_ct" -le $((early_ct + MAXGROW_KB)) ] ||
	fail "cyclictest grew from ${early_ct} to ${late_ct} KiB over 20 windows"
[ "$late_sv" -le $((early_sv + MAXGROW_KB)) ] ||
	fail "svsematest grew from ${early_sv} to ${late_sv} KiB over 20 windows"
RC=0
wait "$ct" || RC=$?
expect_exit 0
RC=0
wait "$sv" || RC=$?
expect_exit 0
python3 "$HELPERS/records_check.py" "$WORK/ct.jsonl" cyclictest 2 $((DURATION - 1)) complete \
	>"$WORK/rec.diag" 2>&1 || fail "cyclictest: $(head -n 5 "$WORK/rec.diag")"
python3 "$HELPERS/records_check.py" "$WORK/sv.jsonl" svsematest 2 $((DURATION - 1)) complete \
	>"$WORK/rec.diag" 2>&1 || fail "svsematest: $(head -n 5 "$WORK/rec.diag")"
finish
