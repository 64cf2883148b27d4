#!/bin/sh
# Proves a run whose semaphore set is removed under it (ipcrm -s, a cleaner)
# ends at once instead of spinning on the failing semop until -D: one line
# naming the set, exit 1, the JSON (return_code 1) and the records still
# complete, no process left; threads and -f processes.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_cmd ipcs
need_cmd ipcrm
need_python3
SV=$(tool svsematest)

key_of() { # PID: the set's first key (see svsematest-ipc-cleanup.sh)
	if [ -z "$NS_PREFIX" ]; then
		printf '0x%08x' $((0x53000000 + $1))
	else
		printf '0x%08x' $((0x54000000 | ((NS_INO + $1 * 65537) & 0xffffff)))
	fi
}
set_id() { # PID: the id of its set, waiting up to 5 s for it
	_w=0
	while [ "$_w" -lt 50 ]; do
		_id=$(ipcs -s | awk -v k="$(key_of "$1")" '$1 == k { print $2 }')
		[ -n "$_id" ] && { echo "$_id"; return 0; }
		sleep 0.1
		_w=$((_w + 1))
	done
	return 1
}
alive() { # PID: not yet reaped nor a zombie
	[ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

for fork in "" -f; do
	rm -f "$WORK/run.json" "$WORK/rec.jsonl"
	"$SV" -q $fork -p 80 -D 20 --json="$WORK/run.json" --records="$WORK/rec.jsonl" \
		>"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	if ! id=$(set_id "$pid"); then
		fail "svsematest $fork: no set $(key_of "$pid")"
		kill "$pid"
		wait "$pid"
		continue
	fi
	sleep 1
	children=$(pgrep -P "$pid" || true)
	ipcrm -s "$id" || fail "ipcrm -s $id"
	# It ends within 2 s (it used to spin until -D 20 ran out).
	_w=0
	while alive "$pid" && [ "$_w" -lt 20 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	if alive "$pid"; then
		fail "svsematest $fork still runs 2 s after its set was removed"
		kill "$pid"
	fi
	RC=0
	wait "$pid" || RC=$?
	expect_exit 1
	expect_match "$ERR" "^svsematest: the semaphore set $id was removed during the run \\(Identifier removed\\)\$"
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "svsematest $fork: not exactly one line on stderr: $(cat "$ERR")"
	expect_match "$OUT" '^#1 -> #0, Min '
	python3 - "$WORK/run.json" "$WORK/rec.jsonl" <<'PY' || fail "svsematest $fork: outputs"
import json, sys
run = json.load(open(sys.argv[1]))
assert run["return_code"] == 1, run["return_code"]
assert run["thread"]["0"]["receiver"]["max"] >= run["thread"]["0"]["receiver"]["min"]
types = [json.loads(l)["type"] for l in open(sys.argv[2])]
assert types[0] == "run" and types[-1] == "total", types
PY
	for c in $children; do
		! alive "$c" || fail "svsematest -f: child $c left running"
	done
	! ipcs -s | grep -q "^$(key_of "$pid") " || fail "a set of run $pid left behind"
done
finish
