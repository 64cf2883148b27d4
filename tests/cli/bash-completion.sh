#!/bin/sh
# Proves: the bash completion completes options from each tool's --help,
# policy names after --policy, CPU numbers after -a, files after --json and
# --records; rt-latency-report its command, then JSON files for merge, any
# file for compare and plot (they read -h text too), an image after -o, and
# its options (--help of every command).
. "$top_srcdir/tests/cli/lib.sh"
need_cmd bash
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || skip "bash-completion is not installed ($bc)"
mkdir "$WORK/bin" && touch "$WORK/result.json" "$WORK/result-hist.txt" "$WORK/result.png"
for t in cyclictest signaltest sigwaittest ptsematest svsematest pmqtest; do
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
complete_words cyclictest --policy f >"$OUT"
expect_text "$OUT" "fifo"
complete_words cyclictest -a "" >"$OUT"
grep -qx 0 "$OUT" || fail "-a: no CPU 0: $(cat "$OUT")"
grep -qx all "$OUT" || fail "-a: no 'all'"
(cd "$WORK" && complete_words cyclictest --json res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "--json: no file name: $(cat "$OUT")"
(cd "$WORK" && complete_words pmqtest --records res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "--records: no file name: $(cat "$OUT")"
complete_report rt-latency-report co >"$OUT"
expect_text "$OUT" "compare"
(cd "$WORK" && complete_report rt-latency-report compare res) >"$OUT"
grep -q 'result.json' "$OUT" || fail "rt-latency-report compare: no JSON file: $(cat "$OUT")"
grep -q 'result-hist.txt' "$OUT" || fail "rt-latency-report compare: no histogram text: $(cat "$OUT")"
(cd "$WORK" && complete_report rt-latency-report merge res) >"$OUT"
! grep -q 'result-hist.txt' "$OUT" || fail "rt-latency-report merge: offers a histogram text: $(cat "$OUT")"
complete_report rt-latency-report compare --h >"$OUT"
expect_text "$OUT" "--help"
complete_report rt-latency-report pl >"$OUT"
expect_text "$OUT" "plot"
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
finish
