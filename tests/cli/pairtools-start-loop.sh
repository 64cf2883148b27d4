#!/bin/sh
# Proves: no start-up race. 2.4's sigwaittest -f hangs at start in about 1
# run of 12; here 100 short starts of each tool in each mode must all finish.
. "$top_srcdir/tests/cli/lib.sh"
need_rt

for t in "sigwaittest -f" "sigwaittest" "ptsematest" "svsematest -f" "pmqtest" "signaltest"; do
	hung=0
	i=0
	while [ "$i" -lt 100 ]; do
		# shellcheck disable=SC2086
		run_tool_timeout 5 $t -q -p 80 -l 3
		[ "$RC" -eq 0 ] || hung=$((hung + 1))
		i=$((i + 1))
	done
	[ "$hung" -eq 0 ] || fail "$t: $hung of 100 starts hung or failed (last: $RC $(cat "$ERR"))"
done
finish
