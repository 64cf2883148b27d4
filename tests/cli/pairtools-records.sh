#!/bin/sh
# Proves --records in every pair tool (threads and -f processes): whole
# JSON lines, the run line naming the tool, one window line per pair (per
# thread for signaltest) every --records-interval, windows adding up to the
# totals and to the --json file; after SIGKILL every line is whole;
# --records=- without -q is a usage error.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
CHECK="$HELPERS/records_check.py"

records_ok() { # FILE TOOL SERIES MIN_WINDOWS MODE [JSON]
	python3 "$CHECK" "$@" >"$WORK/rec.diag" 2>&1 || fail "$2: $(head -n 6 "$WORK/rec.diag")"
}

for t in "sigwaittest" "sigwaittest -f" "ptsematest" "svsematest -f" "pmqtest"; do
	# shellcheck disable=SC2086
	set -- $t
	rm -f "$WORK/r.jsonl"
	run_tool_timeout 30 "$1" ${2:-} -q -p 80 -t 2 -D 3 --records-interval=1 --no-preflight \
		--records="$WORK/r.jsonl" --json="$WORK/r.json"
	expect_exit 0
	records_ok "$WORK/r.jsonl" "$1" 2 3 complete "$WORK/r.json"
done
rm -f "$WORK/r.jsonl"
run_tool_timeout 30 signaltest -q -p 80 -t 3 -D 2 --records-interval=1 --no-preflight \
	--records="$WORK/r.jsonl"
expect_exit 0
records_ok "$WORK/r.jsonl" signaltest 3 2 complete

# SIGKILL of a -f run: the lines so far are whole.
"$(tool svsematest)" -q -f -p 80 --records-interval=1 --no-preflight --records="$WORK/k.jsonl" \
	>/dev/null 2>&1 </dev/null &
pid=$!
sleep 3.5
kill -KILL "$pid"
wait "$pid" 2>/dev/null
records_ok "$WORK/k.jsonl" svsematest 1 2 killed

for t in pmqtest signaltest; do
	run_tool_timeout 10 "$t" -l 10 --records=-
	expect_exit 2
	expect_match "$ERR" "^$t: --records=- needs -q"
done
finish
