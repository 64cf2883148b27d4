#!/bin/sh
# Proves: without root, CAP_SYS_NICE or RLIMIT_RTPRIO each tool asked for a
# real-time priority prints one line naming what is missing and how to
# grant it, exits 1 and prints nothing on stdout; at SCHED_OTHER the tools
# run unprivileged, report real numbers, and their JSON says the run was
# not real-time.
. "$top_srcdir/tests/cli/lib.sh"
need_root
need_cmd setpriv
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all prlimit --rtprio=0 "$@"
}
nobody true 2>/dev/null || skip "setpriv cannot drop to uid 65534 here"
# The build tree may be where uid 65534 cannot look (a checkout in /root):
# the tools (static in librttest, nothing else from the tree) are copied.
chmod 755 "$WORK"
mkdir -m 755 "$WORK/bin"
mkdir -m 777 "$WORK/nobody"
for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest; do
	cp "$(tool "$t")" "$WORK/bin/$t"
done
tool() {
	echo "$WORK/bin/$1"
}
nobody test -x "$(tool cyclictest)" ||
	skip "uid 65534 cannot reach $WORK (TMPDIR=${TMPDIR:-/tmp} is not searchable for it)"

for t in "cyclictest -p 80 -l 10" "signaltest -p 80 -l 10" "sigwaittest -p 80 -l 10" \
	"ptsematest -p 80 -l 10" "svsematest -p 80 -l 10" "pmqtest -p 80 -l 10" \
	"cyclictest --policy=rr -p 10 -l 10"; do
	# shellcheck disable=SC2086
	set -- $t
	bin=$(tool "$1")
	shift
	rc=0
	nobody "$bin" "$@" >"$OUT" 2>"$ERR" </dev/null || rc=$?
	[ "$rc" -eq 1 ] || fail "$t: exit $rc, expected 1"
	expect_empty_stdout
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "$t: $(wc -l <"$ERR") lines on stderr"
	expect_match "$ERR" 'not permitted to use SCHED_(FIFO|RR) priority [0-9]+: run as root, grant CAP_SYS_NICE'
	expect_match "$ERR" 'RLIMIT_RTPRIO'
	expect_match "$ERR" 'limits\.conf'
done

rc=0
nobody "$(tool cyclictest)" -q -l 100 --json="$WORK/nobody/u.json" >"$OUT" 2>"$ERR" </dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "unprivileged SCHED_OTHER run: exit $rc: $(cat "$ERR")"
check_summary "$OUT" 1 100
expect_match "$OUT" '^T: 0 \( *[0-9]+\) P: 0 I:1000 C:    100 '
[ -s "$WORK/nobody/u.json" ] || fail "no JSON from the unprivileged run"
check_sched "$WORK/nobody/u.json" other
rc=0
nobody "$(tool cyclictest)" -q -l 100 --policy=other --json="$WORK/nobody/o.json" >"$OUT" 2>"$ERR" </dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "unprivileged --policy=other: exit $rc: $(cat "$ERR")"
check_sched "$WORK/nobody/o.json" other
for t in signaltest sigwaittest ptsematest svsematest pmqtest; do
	rc=0
	nobody "$(tool "$t")" -q -l 50 --json="$WORK/nobody/$t.json" >"$OUT" 2>"$ERR" </dev/null || rc=$?
	[ "$rc" -eq 0 ] || fail "$t unprivileged: exit $rc: $(cat "$ERR")"
	check_sched "$WORK/nobody/$t.json" other
done
finish
