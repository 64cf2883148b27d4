#!/bin/sh
# Each --records window carries an "isolation" line, and the windows add up
# to the total line's isolation, which is the JSON's; the same for a pair
# tool (sigwaittest: two threads counted, with -f two processes).
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | awk -F'[,-]' '{print $NF}')
CHECK="$top_srcdir/tests/helpers/isolation_check.py"

# run_patient TOOL ARGS...: a 2 s run, given 30 s; killed by that (a machine
# so loaded it did not get through its start-up), it is run again, twice at
# most: what is checked is the files of a run that ended, not its speed.
run_patient() {
	for _try in 1 2 3; do
		run_tool_timeout 30 "$@"
		case $RC in
		124 | 137) echo "$1: killed by its 30 s timeout (attempt $_try)" ;;
		*) return 0 ;;
		esac
	done
}

run_patient cyclictest -q -m -a "$cpu" -p 80 -i 1000 -D 2 --records-interval=1 \
	--records="$WORK/r.ndjson" --json="$WORK/o.json"
expect_exit 0
checks="records $WORK/r.ndjson $WORK/o.json"
grep -q '"type":"isolation","window":1,' "$WORK/r.ndjson" || fail "fewer than 2 windows"

for f in "" -f; do
	run_patient sigwaittest -q $f -a "$cpu" -p 80 -i 1000 -D 2 --records-interval=1 \
		--records="$WORK/p$f.ndjson" --json="$WORK/p$f.json" --isolation
	expect_exit 0
	checks="$checks --and records $WORK/p$f.ndjson $WORK/p$f.json --and shape $WORK/p$f.json 2"
	expect_match "$OUT" "^# Isolation: CPU $cpu: [0-9]+ interrupts.*, [0-9]+ involuntary switches\$"
	expect_match "$OUT" '^# Isolation: all measured CPUs: .*; 2 threads: '
done
# shellcheck disable=SC2086 # WORK has no blanks (mktemp)
python3 "$CHECK" $checks >"$WORK/r.diag" 2>&1 || fail "$(cat "$WORK/r.diag")"
finish
