# shellcheck shell=sh disable=SC2034
# Sourced by tests/cli/harness-*.sh (after tests/cli/lib.sh).

# guarded SECONDS CMD...: run CMD in the foreground, as a harness does, so
# that it inherits the caller's signal dispositions unchanged (timeout(1)
# would reset an ignored SIGTERM, which Linaro's pi-stress.sh relies on),
# and SIGKILL it if it still runs after SECONDS. Sets RC (137 when killed)
# and GUARD_KILLED (1 when killed).
guarded() {
	_gs=$1
	shift
	rm -f "$WORK/guard.pid" "$WORK/guard.killed"
	(
		_gn=0
		while [ "$_gn" -lt $((_gs * 10)) ]; do
			sleep 0.1
			_gn=$((_gn + 1))
			[ -s "$WORK/guard.pid" ] || continue
			kill -0 "$(cat "$WORK/guard.pid")" 2>/dev/null || exit 0
		done
		: >"$WORK/guard.killed"
		kill -KILL "$(cat "$WORK/guard.pid")" 2>/dev/null
	) &
	_gwd=$!
	RC=0
	sh -c 'echo $$ >"$1"; shift; exec "$@"' _ "$WORK/guard.pid" "$@" || RC=$?
	wait "$_gwd" 2>/dev/null
	GUARD_KILLED=0
	[ ! -e "$WORK/guard.killed" ] || GUARD_KILLED=1
}
