#!/bin/sh
# Proves rt-latency-report reads each input once: compare, merge and plot
# take a named FIFO, a pipe on stdin (/dev/stdin) and bash's <(cat FILE)
# (JSON of ours, rt-tests 2.4's JSON and the histogram text), with the
# same output as from the files themselves. Synthetic inputs.
. "$top_srcdir/tests/cli/lib.sh"
need_python3
RLR=$(tool rt-latency-report)
python3 "$HELPERS/synth_result.py" "$WORK/a.json" threads=2 cycles=400 start=1700000000
python3 "$HELPERS/synth_result.py" "$WORK/b.json" threads=2 cycles=600 base=20 start=1700000100
python3 "$HELPERS/synth_result.py" "$WORK/old.json" threads=2 cycles=600 v24=50
printf '# Histogram\n000010 000005\t000002\n000011 000003\t000004\n# Min Latencies: 00010 00010\n# Max Latencies: 00011 00011\n# Histogram Overflows: 00000 00000\n' >"$WORK/h.txt"
mkfifo "$WORK/fifo"

# same WHAT FILE CMD ARGS...: CMD's output with FILE, then with FILE read
# through a FIFO, a pipe on stdin and bash's <(cat FILE) (as /dev/fd/3).
same() {
	_what=$1 _file=$2
	shift 2
	RC=0
	"$RLR" "$@" >"$WORK/want" 2>"$ERR" </dev/null || RC=$?
	_want_rc=$RC
	[ "$RC" -eq 0 ] || [ "$RC" -eq 3 ] || fail "$_what: exit $RC: $(cat "$ERR")"
	for how in fifo stdin bash; do
		RC=0
		case $how in
		fifo)
			cat "$_file" >"$WORK/fifo" &
			_writer=$!
			# shellcheck disable=SC2046
			"$RLR" $(printf '%s\n' "$@" | sed "s|^$_file\$|$WORK/fifo|") >"$WORK/got" 2>"$ERR" </dev/null || RC=$?
			wait "$_writer" || fail "$_what: the FIFO writer failed"
			;;
		stdin)
			# shellcheck disable=SC2046
			"$RLR" $(printf '%s\n' "$@" | sed "s|^$_file\$|/dev/stdin|") <"$_file" >"$WORK/got" 2>"$ERR" || RC=$?
			;;
		bash)
			command -v bash >/dev/null 2>&1 || continue
			# shellcheck disable=SC2016
			RLR="$RLR" FILE="$_file" bash -c 'exec 3< <(cat "$FILE"); args=()
				for a in "$@"; do
					if [ "$a" = "$FILE" ]; then args+=(/dev/fd/3); else args+=("$a"); fi
				done
				"$RLR" "${args[@]}"' bash "$@" >"$WORK/got" 2>"$ERR" </dev/null || RC=$?
			;;
		esac
		[ "$RC" -eq "$_want_rc" ] || fail "$_what ($how): exit $RC, want $_want_rc: $(cat "$ERR")"
		# The file's name differs: compare what does not name it.
		sed "s|$WORK/fifo|F|g; s|/dev/stdin|F|g; s|/dev/fd/[0-9]*|F|g; s|$_file|F|g" "$WORK/got" >"$WORK/got.n"
		sed "s|$_file|F|g" "$WORK/want" >"$WORK/want.n"
		cmp -s "$WORK/got.n" "$WORK/want.n" || fail "$_what ($how): output differs: $(diff "$WORK/want.n" "$WORK/got.n" | head -5)"
	done
}

same "compare base" "$WORK/a.json" compare "$WORK/a.json" "$WORK/b.json"
same "compare run" "$WORK/b.json" compare "$WORK/a.json" "$WORK/b.json"
cp "$WORK/old.json" "$WORK/old2.json"
same "compare 2.4" "$WORK/old.json" compare "$WORK/old.json" "$WORK/old2.json"
cp "$WORK/h.txt" "$WORK/h2.txt"
same "compare text" "$WORK/h.txt" compare "$WORK/h.txt" "$WORK/h2.txt"
# merge: the output file is compared, without "inputs" file names and merged_by.
for f in a b; do
	for how in file fifo; do
		RC=0
		if [ $how = fifo ]; then
			cat "$WORK/$f.json" >"$WORK/fifo" &
			_writer=$!
			[ $f = a ] && set -- "$WORK/fifo" "$WORK/b.json" || set -- "$WORK/a.json" "$WORK/fifo"
		else
			set -- "$WORK/a.json" "$WORK/b.json"
		fi
		"$RLR" merge "$@" -o "$WORK/m_$how.json" >"$OUT" 2>"$ERR" </dev/null || RC=$?
		[ $how = fifo ] && wait "$_writer"
		expect_exit 0
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for e in d["inputs"]:
    e.pop("file")
d.pop("merged_by")
json.dump(d, open(sys.argv[1] + ".n", "w"), sort_keys=True)' "$WORK/m_$how.json"
	done
	cmp -s "$WORK/m_file.json.n" "$WORK/m_fifo.json.n" || fail "merge with $f.json from a FIFO differs"
done
# plot (when gnuplot is here): the same image from a FIFO.
if command -v gnuplot >/dev/null 2>&1; then
	for f in a.json old.json h.txt; do
		"$RLR" plot "$WORK/$f" -o "$WORK/p_file.svg" 2>"$ERR" || fail "plot $f: $(cat "$ERR")"
		cat "$WORK/$f" >"$WORK/fifo" &
		_writer=$!
		"$RLR" plot "$WORK/fifo" -o "$WORK/p_fifo.svg" 2>"$ERR" </dev/null || fail "plot $f from a FIFO: $(cat "$ERR")"
		wait "$_writer"
		cat "$WORK/$f" | "$RLR" plot /dev/stdin -o "$WORK/p_stdin.svg" 2>"$ERR" || fail "plot $f from stdin: $(cat "$ERR")"
		# Only the title may differ (it names the file where it has no command line).
		for p in fifo stdin; do
			grep -v '<text>' "$WORK/p_$p.svg" >"$WORK/p_$p.n"
			grep -v '<text>' "$WORK/p_file.svg" >"$WORK/p_file.n"
			cmp -s "$WORK/p_file.n" "$WORK/p_$p.n" || fail "plot $f from $p differs"
		done
	done
else
	echo "no gnuplot: plot from a FIFO not checked"
fi
finish
