# shellcheck shell=sh
# Sourced by the get_cyclictest_snapshot tests after lib.sh: the test goes on
# in a mount namespace of its own with an empty tmpfs on /dev/shm, so other
# tests' cyclictests are neither seen nor signalled, their start-up cleaning
# cannot remove our fake objects, and nothing is left when it ends.
need_root
need_native
if [ -z "${GCS_PRIVATE_SHM:-}" ]; then
	need_cmd unshare
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace (unshare -m)"
	rm -rf "$WORK"
	GCS_PRIVATE_SHM=1 exec unshare -m --propagation private /bin/sh "$0" "$@"
fi
mount -t tmpfs -o mode=1777 rt-tests-ng-gcs /dev/shm || skip "cannot mount a tmpfs on /dev/shm"

G=$(tool get_cyclictest_snapshot)
NOT_FOUND="No cyclictest instance found"
STARTED=
# Every process the test starts is ended at exit, whatever happens.
trap 'for _p in $STARTED; do kill -9 "$_p" 2>/dev/null; done; wait; rm -rf "$WORK"' EXIT

started() {
	STARTED="$STARTED $1"
}

# wait_for TEST...: up to 5 s for the test command to hold.
wait_for() {
	_i=0
	while ! "$@"; do
		_i=$((_i + 1))
		[ "$_i" -lt 100 ] || return 1
		sleep 0.05
	done
}

# gcs ARGS...: run get_cyclictest_snapshot (no timeout needed: it waits 1 s at most).
gcs() {
	RC=0
	"$G" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}
