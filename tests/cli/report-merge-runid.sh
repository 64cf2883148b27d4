#!/bin/sh
# Proves merge refuses only a true duplicate: two runs of one host that
# started in the same second (records files of the same start) merge when
# their run ids differ, are refused as "the same run id" when equal; files
# without a run id (older ones) keep the rule of the same host and start
# time. A real run's records, and its JSON's environment, carry a run id of
# boot id, pid and start (ns).
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)
S="$HELPERS/synth_records.py"
BOOT=$(cat /proc/sys/kernel/random/boot_id)
python3 "$S" "$WORK/a.ndjson" windows=2 run_id="$BOOT-100-1767225600000000000"
python3 "$S" "$WORK/b.ndjson" windows=2 cycles=500 run_id="$BOOT-101-1767225600000000001"
python3 "$S" "$WORK/c.ndjson" windows=2 cycles=400 run_id="$BOOT-100-1767225600000000000"
python3 "$S" "$WORK/d.ndjson" windows=2 cycles=300
python3 "$S" "$WORK/e.ndjson" windows=2 cycles=200

RC=0
"$RLR" merge "$WORK/a.ndjson" "$WORK/b.ndjson" -o "$WORK/ab.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 0
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [e["run_id"] for e in d["inputs"]] == sys.argv[2:], d["inputs"]' \
	"$WORK/ab.json" "$BOOT-100-1767225600000000000" "$BOOT-101-1767225600000000001" ||
	fail "the merge's inputs do not carry their run ids"
RC=0
"$RLR" merge "$WORK/a.ndjson" "$WORK/c.ndjson" -o "$WORK/ac.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
expect_match "$ERR" "are one run \(the same run id\)"
[ ! -e "$WORK/ac.json" ] || fail "an output of a refused merge"
RC=0
"$RLR" merge "$WORK/d.ndjson" "$WORK/e.ndjson" -o "$WORK/de.json" >"$OUT" 2>"$ERR" || RC=$?
expect_exit 2
expect_match "$ERR" "are one run \(the same host and start time\)"

# A real run's records: a run id of this boot, the tool's pid, its start.
if [ "$(id -u)" -eq 0 ]; then
	run_tool_timeout 20 cyclictest -q -t 1 -i 1000 -l 50 --no-preflight --records="$WORK/r.ndjson"
	expect_exit 0
	head -n 1 "$WORK/r.ndjson" | grep -qE "\"run_id\":\"$BOOT-[0-9]+-[0-9]{19}\"" ||
		fail "no run id in the run line: $(head -c 300 "$WORK/r.ndjson")"
	# Two runs' JSON of one host, started in the same second (side by
	# side): their environments' run ids tell them apart, and they merge.
	for n in 1 2 3; do
		"$(tool cyclictest)" -q -t 1 -i 1000 -l 20 --no-preflight --json="$WORK/j1.json" >/dev/null 2>&1 &
		p1=$!
		"$(tool cyclictest)" -q -t 1 -i 1000 -l 20 --no-preflight --json="$WORK/j2.json" >/dev/null 2>&1
		wait "$p1"
		same=$(python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); print(int(a["start_time"] == b["start_time"]))' "$WORK/j1.json" "$WORK/j2.json")
		[ "$same" = 1 ] && break
	done
	RC=0
	"$RLR" merge "$WORK/j1.json" "$WORK/j2.json" -o "$WORK/j.json" >"$OUT" 2>"$ERR" || RC=$?
	expect_exit 0
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); ids = [e["run_id"] for e in d["inputs"]]; assert len(set(ids)) == 2 and all(i.startswith(sys.argv[2]) for i in ids), ids' \
		"$WORK/j.json" "$BOOT-" || fail "two runs' JSON: run ids $(head -c 300 "$WORK/j.json")"
fi
finish
