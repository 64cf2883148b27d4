#!/bin/sh
# Proves SIGINT and SIGTERM end an oslat run at once with the summary, the
# JSON and exit 0, during the pre-heat too (2.4 lost that signal and ran
# the full -D), and that no polling thread outlives the process.
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_python3
CHECK="$top_srcdir/tests/helpers/oslat_check.py"

# sig_at SIGNAL SECONDS [empty]: a -D 30 run signalled after SECONDS.
sig_at() {
	rm -f "$WORK/s.json"
	"$(tool oslat)" -c 0 -D 30 --json="$WORK/s.json" --no-preflight >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	sleep "$2"
	t0=$(date +%s)
	kill -"$1" "$pid"
	RC=0
	wait "$pid" || RC=$?
	t1=$(date +%s)
	expect_exit 0
	[ $((t1 - t0)) -le 3 ] || fail "$1 at $2 s: took $((t1 - t0)) s to end"
	python3 "$CHECK" "$OUT" "$WORK/s.json" 1 32 full $3 || fail "$1 at $2 s: summary or JSON"
	[ ! -e "/proc/$pid" ] || fail "$1 at $2 s: process $pid still there"
}

sig_at INT 0.4 empty   # pre-heat: no gap measured, "-" in the table
sig_at TERM 0.4 empty
sig_at INT 2           # test
sig_at TERM 2
finish
