#!/bin/sh
# Proves: every tool's JSON "environment" holds what this machine's /proc
# and /sys say (kernel, preemption model and mode, or why the mode is
# unknown, isolation, clocksource, the measured CPUs' governors and idle
# states, SMT, RT throttling, limits, hypervisor, irqbalance, CPU model and
# count; null where the kernel has no file), for the CPUs measured (a
# pinned thread's, or every allowed CPU), and its "preflight" list holds
# exactly the warnings the machine's state calls for, also with
# --no-preflight. The "WARN: preflight:" lines go only where a person reads
# them: stderr is byte for byte empty of them when it is a file or a pipe
# (a script merging stderr sees 2.4's bytes), holds exactly the JSON's
# warnings with --preflight and on a terminal (a pty from script(1)), and
# none with --no-preflight, also on a terminal. With debugfs mounted (in a
# private mount namespace) the mode, or the read error, is what root and
# uid 65534 get from sched/preempt.
# hackbench (a load) too, without the warnings about measuring.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
need_python3
ENV_CHECK="$HELPERS/env_check.py"
# The interpreter itself, once (a pyenv shim costs seconds a call).
PY=$(python3 -c 'import sys; print(sys.executable)')
ALLOWED=$("$PY" -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')
FIRST=${ALLOWED%%,*}

# env_ok JSON CPUS REALTIME PMQOS SHOWN: the environment, its preflight list,
# and stderr's WARN lines (SHOWN 1: the list's, 0: none).
env_ok() {
	"$PY" "$ENV_CHECK" "$1" "$2" "$3" "$4" "$ERR" "$5" >"$WORK/env.diag" 2>&1 ||
		fail "$(head -n 8 "$WORK/env.diag")"
}

# warn_lines JSON: the "WARN: preflight:" lines the JSON's list gives.
warn_lines() {
	"$PY" -c 'import json, sys
for w in json.load(open(sys.argv[1]))["environment"]["preflight"]:
    print("WARN: preflight: " + w)' "$1"
}

# Pinned, real-time, /dev/cpu_dma_latency held at 0: stderr is a file, so
# it stays empty, byte for byte.
run_tool_timeout 30 cyclictest -q -m -p 80 -a "$FIRST" -t 1 -l 50 --json="$WORK/c.json"
expect_exit 0
expect_empty_stderr
env_ok "$WORK/c.json" "$FIRST" 1 1 0
# Not pinned, SCHED_OTHER, --preflight: every allowed CPU is measured, and
# stderr is exactly the JSON's warnings (the first about the priority).
run_tool_timeout 30 cyclictest -q -l 50 --preflight --json="$WORK/o.json"
expect_exit 0
env_ok "$WORK/o.json" "$ALLOWED" 0 1 1
warn_lines "$WORK/o.json" >"$WORK/o.warn"
compare_exact "$ERR" "$WORK/o.warn"
expect_match "$ERR" '^WARN: preflight: measuring without a real-time priority'
# --no-preflight: none on stderr, all in the JSON; the last of the two wins.
run_tool_timeout 30 cyclictest -q -l 20 --preflight --no-preflight --json="$WORK/n.json"
expect_exit 0
expect_empty_stderr
env_ok "$WORK/n.json" "$ALLOWED" 0 1 0
run_tool_timeout 30 cyclictest -q -l 20 --no-preflight --preflight --json="$WORK/n.json"
expect_exit 0
warn_lines "$WORK/n.json" >"$WORK/n.warn"
compare_exact "$ERR" "$WORK/n.warn"

for t in sigwaittest ptsematest svsematest pmqtest; do
	run_tool_timeout 30 "$t" -q -p 80 -a "$FIRST" -l 20 --json="$WORK/p.json"
	expect_exit 0
	expect_empty_stderr
	env_ok "$WORK/p.json" "$FIRST" 1 0 0
	run_tool_timeout 30 "$t" -q -l 20 --preflight --json="$WORK/p.json"
	expect_exit 0
	env_ok "$WORK/p.json" "$ALLOWED" 0 0 1
	warn_lines "$WORK/p.json" >"$WORK/p.warn"
	compare_exact "$ERR" "$WORK/p.warn"
done
run_tool_timeout 30 signaltest -q -l 20 --json="$WORK/s.json"
expect_exit 0
expect_empty_stderr
env_ok "$WORK/s.json" "$ALLOWED" 0 0 0
# hackbench, a load: every allowed CPU, and no warning about its priority or idle states.
run_tool_timeout 30 hackbench -g 1 -f 2 -l 10 --json="$WORK/h.json"
expect_exit 0
env_ok "$WORK/h.json" "$ALLOWED" 1 1 0
run_tool_timeout 30 hackbench -g 1 -f 2 -l 10 --no-preflight
expect_exit 0
expect_no_match "$ERR" 'preflight'

# The issue's script: stderr merged into a pipe starts with 2.4's first line.
timeout -k 2 30 "$(tool sigwaittest)" -q -p 90 -D 1 2>&1 </dev/null | head -n 1 >"$OUT"
grep -Eq '^#0: ID[0-9]+, P90, CPU[0-9]+, I1000; #1: ID[0-9]+, P90, CPU[0-9]+, Cycles [0-9]+$' \
	"$OUT" || fail "sigwaittest 2>&1 | head -1: $(cat "$OUT")"

# On a terminal: the warnings, before the run's own lines, without asking;
# --no-preflight silences them there too.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	for cmd in "cyclictest -q -p 80 -l 20" "sigwaittest -q -p 80 -l 20" \
		"pmqtest -q -l 20"; do
		# shellcheck disable=SC2086
		set -- $cmd
		bin=$(tool "$1")
		shift
		timeout -k 2 30 script -qec "$bin $* --json=$WORK/t.json" /dev/null </dev/null |
			tr -d '\r' >"$OUT" || fail "$cmd on a pty: exit status"
		grep '^WARN: preflight: ' "$OUT" >"$WORK/t.got" || true
		warn_lines "$WORK/t.json" >"$WORK/t.warn"
		compare_exact "$WORK/t.got" "$WORK/t.warn"
		grep -q '^WARN' "$WORK/t.warn" || echo "note: no preflight warning on this machine"
		timeout -k 2 30 script -qec "$bin $* --no-preflight" /dev/null </dev/null |
			tr -d '\r' >"$OUT" || fail "$cmd --no-preflight on a pty: exit status"
		expect_no_match "$OUT" 'preflight'
		expect_match "$OUT" '^(T: 0|#1 -> #0)'
	done
else
	echo "note: script(1) cannot give a pty here: the terminal case is not checked"
fi

# debugfs mounted, in a mount namespace of our own (the machine's stays as
# it is): the mode, or why root and uid 65534 cannot read it, as the
# checker reads it in the same namespace.
chmod 755 "$WORK"
mkdir -m 777 "$WORK/ns"
cp "$(tool pmqtest)" "$ENV_CHECK" "$WORK/ns/"
if unshare -m --propagation private true 2>/dev/null; then
	rc=0
	unshare -m --propagation private sh -c '
		d=/sys/kernel/debug
		grep -q " debugfs " /proc/mounts || mount -t debugfs none "$d" || exit 77
		cd "$1" || exit 1
		./pmqtest -q -l 5 --json=root.json >/dev/null 2>&1 &&
			"$3" env_check.py root.json "$2" 0 0 || exit 1
		# uid 65534 needs an interpreter it can reach
		if command -v setpriv >/dev/null &&
			setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c 1; then
			setpriv --reuid=65534 --regid=65534 --clear-groups ./pmqtest -q -l 5 \
				--json=nobody.json >/dev/null 2>&1 &&
				setpriv --reuid=65534 --regid=65534 --clear-groups \
					/usr/bin/python3 env_check.py nobody.json "$2" 0 0 || exit 1
		fi
		"$3" -c "import json, os, sys
for f in filter(os.path.exists, sys.argv[1:]):
    p = json.load(open(f))[\"environment\"][\"preemption\"]
    print(f, p[\"mode\"], p[\"mode_source\"], p[\"mode_unknown_reason\"])" root.json nobody.json
	' _ "$WORK/ns" "$ALLOWED" "$PY" >"$WORK/ns.diag" 2>&1 || rc=$?
	case $rc in
	0) sed 's/^/debugfs mounted: /' "$WORK/ns.diag" ;;
	77) echo "note: debugfs cannot be mounted here: only the unmounted case is checked" ;;
	*) fail "debugfs mounted: $(head -n 8 "$WORK/ns.diag")" ;;
	esac
	# The machine's own mounts did not change.
	grep -q " $WORK" /proc/mounts && fail "a mount is left under $WORK"
else
	echo "note: no private mount namespace here: only this machine's debugfs state is checked"
fi
finish
