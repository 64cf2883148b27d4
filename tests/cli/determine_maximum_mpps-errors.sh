#!/bin/sh
# Proves: determine_maximum_mpps checks its options (one line on stderr,
# exit 2; 2.4 printed the usage and exited 0, accepted -p 1x, stopped
# parsing at a stray word); a value is never run as code; a probe that
# cannot run (no privilege for chrt) stops the search with exit 1 where 2.4
# counted it as a success; a probe that measured nothing (queuelat's
# INCONCLUSIVE, exit 4) is run three times before the search stops; SIGINT
# stops the running probe and the search at once (2.4 went on); no
# temporary file and no queuelat is left behind.
. "$top_srcdir/tests/cli/lib.sh"
need_cmd bash
need_cmd taskset
need_cmd chrt
DMM="$top_srcdir/src/queuelat/determine_maximum_mpps"
mkdir "$WORK/tmp" "$WORK/bin"
# a name only this test's processes carry
ln -s "$(cd "$(dirname "$(tool queuelat)")" && pwd)/queuelat" "$WORK/bin/ql"
QL="$WORK/bin/ql"
chmod 755 "$WORK" "$WORK/bin" # for the unprivileged run

dmm() {
	RC=0
	TMPDIR="$WORK/tmp" timeout -k 2 10 bash "$DMM" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

while IFS='|' read -r args line; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	dmm -Q "$QL" $args
	expect_exit 2
	expect_empty_stdout
	expect_text "$ERR" "$line"
done <<'TABLE'
-p 0|determine_maximum_mpps: PRIO must be a number between 1 and 99
-p 1x|determine_maximum_mpps: PRIO must be a number between 1 and 99
-f -r|determine_maximum_mpps: Specify -f or -r, but not both
-m 0|determine_maximum_mpps: invalid -m '0': must be an integer from 1 to 1000000000
-a 0;touch|determine_maximum_mpps: invalid -a '0;touch': must be a CPU list such as 0,3,7-11
-F 2e3|determine_maximum_mpps: invalid -F '2e3': must be a frequency in MHz such as 2096 or 2095.9
-x|determine_maximum_mpps: no such option: -x
--bogus|determine_maximum_mpps: no such option: --bogus
extra -p 100|determine_maximum_mpps: unexpected argument 'extra'
TABLE
# Words that bash would run as code: refused, nothing run (every option is checked alike).
for opt in -a -p -F; do
	dmm -Q "$QL" "$opt" '$(touch '"$WORK"'/pwned)'
	expect_exit 2
	[ ! -e "$WORK/pwned" ] || fail "$opt: input ran as code"
done
dmm -Q "$WORK/nonexistent"
expect_exit 1
expect_text "$ERR" "determine_maximum_mpps: '$WORK/nonexistent' is not an executable file (-Q or QUEUELAT)"
dmm -h
expect_exit 0
expect_match "$OUT" '^-Q path$'
# --help as users type it (2.4 and the first version here: "no such option: --")
dmm --help
expect_exit 0
expect_empty_stderr
expect_match "$OUT" '^-Q path$'
# Beside 2.4 (where unpacked): its help is the first part of ours, line for line; both exit 0.
if [ -n "$(reference_tool determine_maximum_mpps)" ]; then
	REF_RC=0
	timeout -k 2 10 bash "$(reference_tool determine_maximum_mpps)" -h >"$WORK/ref.help" 2>&1 </dev/null ||
		REF_RC=$?
	[ "$REF_RC" -eq 0 ] || fail "2.4's -h exited $REF_RC"
	head -n "$(wc -l <"$WORK/ref.help")" "$OUT" >"$WORK/ours.help"
	compare_exact "$WORK/ours.help" "$WORK/ref.help"
else
	echo "not checked: 2.4's help (Debian's rt-tests 2.4 is not unpacked: scripts/install-deps)"
fi
# -a is checked before the search, not when the first probe fails
dmm -Q "$QL" -a 4095
expect_exit 2
expect_empty_stdout
expect_match "$ERR" "^determine_maximum_mpps: invalid -a '4095': not a CPU this process may run on"
[ -z "$(ls -A "$WORK/tmp")" ] || fail "left behind: $(ls -A "$WORK/tmp")"

# Unprivileged: chrt -f 1 fails, the search stops at the first probe.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$QL" 2>/dev/null; then
	chmod 777 "$WORK/tmp"
	RC=0
	TMPDIR="$WORK/tmp" timeout -k 2 10 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=-all bash "$DMM" -Q "$QL" -t 1 >"$OUT" 2>"$ERR" </dev/null || RC=$?
	expect_exit 1
	expect_match "$ERR" '^determine_maximum_mpps: the probe at 3 Mpps failed \(exit 1\): '
	expect_no_match "$OUT" '^success$'
	[ -z "$(ls -A "$WORK/tmp")" ] || fail "unprivileged: left behind: $(ls -A "$WORK/tmp")"
else
	echo "not checked: the unprivileged probe (needs root, setpriv, a build tree nobody can read)"
fi

# A probe that measures nothing (a queuelat starved while it calibrates:
# INCONCLUSIVE, exit 4, no "exceeded"): tried three times, then one line, exit 1.
if [ "$(id -u)" -eq 0 ] && chrt -f 1 true 2>/dev/null; then
	cat >"$WORK/bin/ql-nothing" <<'SH'
#!/bin/sh
echo run >>"$(dirname "$0")/ql-nothing.runs"
echo '# Verdict: INCONCLUSIVE'
exit 4
SH
	chmod 755 "$WORK/bin/ql-nothing"
	RC=0
	TMPDIR="$WORK/tmp" timeout -k 2 30 bash "$DMM" -Q "$WORK/bin/ql-nothing" -t 1 >"$OUT" 2>"$ERR" \
		</dev/null || RC=$?
	expect_exit 1
	expect_match "$ERR" '^determine_maximum_mpps: the probe at 3 Mpps failed \(exit 4\): # Verdict: INCONCLUSIVE$'
	[ "$(wc -l <"$WORK/bin/ql-nothing.runs")" -eq 3 ] ||
		fail "a probe that measured nothing ran $(wc -l <"$WORK/bin/ql-nothing.runs") times, not 3"
	[ -z "$(ls -A "$WORK/tmp")" ] || fail "nothing measured: left behind: $(ls -A "$WORK/tmp")"
else
	echo "not checked: the probe that measures nothing (needs SCHED_FIFO for chrt)"
fi

# SIGINT during a 30 s probe: the script ends well before the probe would, 130, nothing left.
# (A background job of a script starts with SIGINT ignored, which bash cannot
# trap: env --default-signal gives it the terminal's Ctrl-C disposition.)
if [ "$(id -u)" -eq 0 ] && chrt -f 1 true 2>/dev/null &&
	env --default-signal=INT true 2>/dev/null; then
	# its own session: the probes are found by it, not another test's queuelat
	TMPDIR="$WORK/tmp" setsid env --default-signal=INT bash "$DMM" -Q "$QL" -m 100000000 -n 500 -F 2000 >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	sleep 2
	pgrep -s "$pid" -f "$QL" >/dev/null || fail "no probe running after 2 s"
	kill -INT "$pid"
	start=$(date +%s)
	RC=0
	wait "$pid" || RC=$?
	[ $(($(date +%s) - start)) -le 15 ] || fail "SIGINT took more than 15 s (the probe lasts 30 s)"
	expect_exit 130
	sleep 0.2
	! pgrep -s "$pid" -f "$QL" >/dev/null || fail "a queuelat outlived the script"
	[ -z "$(ls -A "$WORK/tmp")" ] || fail "SIGINT: left behind: $(ls -A "$WORK/tmp")"
	expect_no_match "$OUT" '^success$'
else
	echo "not checked: SIGINT (needs root, SCHED_FIFO and env --default-signal)"
fi
finish
