#!/bin/sh
# Proves: the bash completion completes options from each tool's --help,
# policy names after --policy, CPU numbers after -a (and "all" only for
# cyclictest and signaltest, which take a CPU set: the pair tools refuse
# it), files after --json and --records; rt-latency-report its command,
# then any file (compare and merge also read -h text; plot: an image after
# -o), and its options (--help of every command).
. "$top_srcdir/tests/cli/lib.sh"
need_cmd bash
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || skip "bash-completion is not installed ($bc)"
mkdir "$WORK/bin" && touch "$WORK/result.json" "$WORK/result-hist.txt" "$WORK/result.png"
for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest hackbench pip_stress deadline_test ssdd rt-migrate-test cyclicdeadline oslat rt-qualify; do
	ln -s "$(tool "$t")" "$WORK/bin/$t"
done

# complete WORDS...: what the completion offers for the last word.
complete_words() {
	PATH="$WORK/bin:$PATH" bash --norc -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_rt_tests_ng "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$top_srcdir/completions/rt-tests-ng" "$@"
}
complete_report() {
	bash --norc -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_rt_latency_report "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$top_srcdir/completions/rt-tests-ng" "$@"
}

complete_words cyclictest --hist >"$OUT"
grep -qx -- '--histogram=' "$OUT" || grep -qx -- '--histogram' "$OUT" || fail "--hist: $(cat "$OUT")"
grep -q -- '--histfile' "$OUT" || fail "--hist: no --histfile"
complete_words oslat --bucket >"$OUT"
grep -qx -- '--bucket-size=' "$OUT" || grep -qx -- '--bucket-size' "$OUT" || fail "oslat --bucket: $(cat "$OUT")"
complete_words cyclictest --policy f >"$OUT"
expect_text "$OUT" "fifo"
for t in cyclictest oslat cyclicdeadline ptsematest; do
	complete_words "$t" --percentile-claim "" | sort >"$OUT"
	printf 'point\nproven\n' >"$WORK/claims"
	compare_exact "$OUT" "$WORK/claims"
done
for c in /sys/devices/system/cpu/cpu[0-9]*; do echo "${c##*cpu}"; done | sort >"$WORK/cpus"
for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest; do
	complete_words "$t" -a "" | sort >"$OUT"
	case $t in
	cyclictest | signaltest) { echo all; cat "$WORK/cpus"; } | sort >"$WORK/cpus.want" ;;
	*) cp "$WORK/cpus" "$WORK/cpus.want" ;;
	esac
	compare_exact "$OUT" "$WORK/cpus.want"
	# "all" is offered exactly where the tool takes it
	rc=0
	"$(tool "$t")" -q -l 1 -a all >/dev/null 2>&1 </dev/null || rc=$?
	if grep -qx all "$OUT"; then
		[ "$rc" -eq 0 ] || fail "$t -a all: offered, but exit $rc"
	else
		[ "$rc" -eq 2 ] || fail "$t -a all: not offered, but exit $rc, expected 2"
	fi
done
complete_words cyclictest --mainaffinity "" >"$OUT"
grep -qx all "$OUT" || fail "--mainaffinity: no 'all'"
(cd "$WORK" && complete_words cyclictest --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "--json: no file name: $(cat "$OUT")"
(cd "$WORK" && complete_words pmqtest --records res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "--records: no file name: $(cat "$OUT")"
complete_report rt-latency-report co >"$OUT"
expect_text "$OUT" "compare"
(cd "$WORK" && complete_report rt-latency-report compare res) | sort >"$OUT"
printf '%s\n' result-hist.txt result.json result.png >"$WORK/files.want"
compare_exact "$OUT" "$WORK/files.want"
(cd "$WORK" && complete_report rt-latency-report compare result.json res) | sort >"$OUT"
compare_exact "$OUT" "$WORK/files.want"
(cd "$WORK" && complete_report rt-latency-report merge res) | sort >"$OUT"
compare_exact "$OUT" "$WORK/files.want"
complete_report rt-latency-report compare --h >"$OUT"
expect_text "$OUT" "--help"
complete_report rt-latency-report plo >"$OUT"
expect_text "$OUT" "plot"
complete_report rt-latency-report pl >"$OUT"
expect_text "$OUT" "plot
plan"
complete_report rt-latency-report plan --perc >"$OUT"
expect_text "$OUT" "--percentile="
(cd "$WORK" && complete_report rt-latency-report plot res) >"$OUT"
grep -q 'result-hist.txt' "$OUT" || fail "rt-latency-report plot: no histogram text: $(cat "$OUT")"
(cd "$WORK" && complete_report rt-latency-report plot result.json -o res) >"$OUT"
expect_text "$OUT" "result.png"
complete_report rt-latency-report plot --n >"$OUT"
expect_text "$OUT" "--ns"
for t in signaltest sigwaittest ptsematest svsematest pmqtest; do
	complete_words "$t" --qu >"$OUT"
	expect_text "$OUT" "--quiet"
done
# hackbench: its options; -p and -F take no value, --json a file
complete_words hackbench --gr >"$OUT"
expect_text "$OUT" "--groups"
complete_words hackbench -p --pi >"$OUT"
expect_text "$OUT" "--pipe"
complete_words hackbench -F --thr >"$OUT"
expect_text "$OUT" "--threads"
(cd "$WORK" && complete_words hackbench --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "hackbench --json: no file name: $(cat "$OUT")"
complete_words hackbench -g "" >"$OUT"
expect_text "$OUT" ""
# pip_stress: its options; -s/--work take a number, --json a file
complete_words pip_stress --no-p >"$OUT"
printf '%s\n%s\n' --no-pi --no-preflight >"$WORK/want"
sort "$OUT" | compare_exact /dev/stdin "$WORK/want"
complete_words pip_stress --us >"$OUT"
expect_text "$OUT" "--usleep"
complete_words pip_stress --work "" >"$OUT"
expect_text "$OUT" ""
(cd "$WORK" && complete_words pip_stress --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "pip_stress --json: no file name: $(cat "$OUT")"
# deadline_test: its options, CPUs after -c, nothing after -b, a file after --json
complete_words deadline_test --max >"$OUT"
expect_text "$OUT" "--max-misses"
complete_words deadline_test -b --run >"$OUT"
expect_text "$OUT" "--run-percent"
complete_words deadline_test -c "" >"$OUT"
sort "$OUT" | grep -vx all >"$WORK/got"
cmp -s "$WORK/got" "$WORK/cpus" || fail "deadline_test -c: $(cat "$OUT")"
grep -qx all "$OUT" || fail "deadline_test -c: no 'all'"
(cd "$WORK" && complete_words deadline_test --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "deadline_test --json: no file name: $(cat "$OUT")"
complete_words deadline_test -p "" >"$OUT"
expect_text "$OUT" ""
# ssdd: its options; a number after -f and -i, a file after --json
complete_words ssdd --fo >"$OUT"
expect_text "$OUT" "--forks"
complete_words ssdd -q --it >"$OUT"
expect_text "$OUT" "--iters"
complete_words ssdd -i "" >"$OUT"
expect_text "$OUT" ""
(cd "$WORK" && complete_words ssdd --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "ssdd --json: no file name: $(cat "$OUT")"
# pi_stress: its options, --json a file, --sched's ids and keys
ln -s "$(tool pi_stress)" "$WORK/bin/pi_stress"
complete_pi() {
	PATH="$WORK/bin:$PATH" bash --norc -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_rt_tests_ng_pi_stress "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$top_srcdir/completions/rt-tests-ng" "$@"
}
complete_pi pi_stress --inv >"$OUT"
expect_text "$OUT" "--inversions"
complete_pi pi_stress -q --no-p >"$OUT"
printf '%s\n' --no-pi --no-preflight >"$WORK/want"
compare_exact "$OUT" "$WORK/want"
complete_pi pi_stress -s id=h >"$OUT"
expect_text "$OUT" "id=high"
complete_pi pi_stress --sched id=high,policy=d >"$OUT"
expect_text "$OUT" "id=high,policy=deadline"
(cd "$WORK" && complete_pi pi_stress --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "pi_stress --json: no file name: $(cat "$OUT")"
# rt-migrate-test: its options; -c, -e, -h, -q take no value, --json a file
complete_words rt-migrate-test --sl >"$OUT"
expect_text "$OUT" "--sleep-time"
complete_words rt-migrate-test -c --che >"$OUT"
expect_text "$OUT" "--check"
complete_words rt-migrate-test -h --equ >"$OUT"
expect_text "$OUT" "--equal"
(cd "$WORK" && complete_words rt-migrate-test --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "rt-migrate-test --json: no file name: $(cat "$OUT")"
complete_words rt-migrate-test -p "" >"$OUT"
expect_text "$OUT" ""
# cyclicdeadline: its options; -a offers "all" (a subset is refused); a file after --json
complete_words cyclicdeadline --thr >"$OUT"
grep -qx -- '--threads=\?' "$OUT" || fail "cyclicdeadline --thr: $(cat "$OUT")"
complete_words cyclicdeadline -a "" >"$OUT"
expect_text "$OUT" "all"
(cd "$WORK" && complete_words cyclicdeadline --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "cyclicdeadline --json: no file name: $(cat "$OUT")"
finish
