#!/bin/sh
# Proves: no start-up race. 2.4's sigwaittest -f hangs at start in about 1
# run of 12; here 100 short starts of each tool in each mode must all finish.
# An ASan build makes 25 (each start costs it five times as much): the race
# is hunted natively, and what ASan adds, checked memory, 25 starts give.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
starts=100
! sanitized || starts=25

for t in "sigwaittest -f" "sigwaittest" "ptsematest" "svsematest -f" "pmqtest" "signaltest"; do
	hung=0
	i=0
	while [ "$i" -lt "$starts" ]; do
		# shellcheck disable=SC2086
		run_tool_timeout 5 $t -q -p 80 -l 3
		[ "$RC" -eq 0 ] || hung=$((hung + 1))
		i=$((i + 1))
	done
	[ "$hung" -eq 0 ] || fail "$t: $hung of $starts starts hung or failed (last: $RC $(cat "$ERR"))"
done
finish
