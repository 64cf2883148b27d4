#!/bin/sh
# Proves SIGINT and SIGTERM end an oslat run at once with the summary, the
# JSON and exit 0, during the pre-heat too (2.4 lost that signal and ran
# the full -D), and that no polling thread outlives the process.
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
CHECK="$top_srcdir/tests/helpers/oslat_check.py"

# run_at SIGNAL SECONDS: a -D 30 run signalled after SECONDS; sets RC and
# STOP_S (seconds from the signal to the end).
run_at() {
	rm -f "$WORK/s.json"
	"$(tool oslat)" -c 0 -D 30 --json="$WORK/s.json" --no-preflight >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	sleep "$2"
	t0=$(date +%s)
	kill -"$1" "$pid"
	RC=0
	wait "$pid" || RC=$?
	STOP_S=$(($(date +%s) - t0))
}

# sig_at SIGNAL SECONDS [empty]: the run ends at once, whole, and alone.
# Without "empty" the signal must come after the pre-heat (1 s): a loaded
# machine can stretch that, so a run stopped still in it ("Test starts..."
# not printed) is tried again later, up to 8 s, before the check fails.
sig_at() {
	_at=$2
	while :; do
		run_at "$1" "$_at"
		[ -n "${3:-}" ] || grep -q '^Test starts\.\.\.$' "$OUT" || [ "$_at" -ge 8 ] || {
			echo "$1 at $_at s: still in the pre-heat (a loaded machine), again later"
			_at=$((_at * 2))
			continue
		}
		break
	done
	expect_exit 0
	[ "$STOP_S" -le 3 ] || fail "$1 at $_at s: took $STOP_S s to end"
	python3 "$CHECK" "$OUT" "$WORK/s.json" 1 32 full $3 || fail "$1 at $_at s: summary or JSON"
	[ ! -e "/proc/$pid" ] || fail "$1 at $_at s: process $pid still there"
}

sig_at INT 0.4 empty   # pre-heat: no gap measured, "-" in the table
sig_at TERM 0.4 empty
sig_at INT 2           # test
sig_at TERM 2
finish
