#!/bin/sh
# Proves: tests/with-timeout.sh holds what a test declares it holds (its
# test-holds line) while the test runs, and only then. Inside a test that
# holds deadline (or low-fifo), that lock is taken exclusively and the
# machine lock shared; inside one that holds machine, the machine lock is
# taken exclusively; a test that declares nothing holds the machine lock
# shared and nothing else. The test itself has none of the locks' descriptors (a
# process it leaves behind cannot keep a lock), the locks are free once it
# has ended, and an unknown name is a hard error (99) that names it. The
# locks live in TMPDIR: this test's own, not the suite's.
. "$top_srcdir/tests/cli/lib.sh"
WRAP="$top_srcdir/tests/with-timeout.sh"
LOCKS="$WORK/locks"
mkdir "$LOCKS"

# probe NAME MODE: "free" if a MODE (s or x) flock on NAME's lock is had at once.
cat >"$WORK/probe.sh" <<'EOF'
probe() {
	if flock -n "-$2" "$TMPDIR/rt-tests-ng-$1.lock" true; then echo "$1 $2 free"; else echo "$1 $2 held"; fi
}
# Descriptors that point at a lock file.
for fd in /proc/$$/fd/*; do
	case $(readlink "$fd") in *rt-tests-ng-*.lock) echo "inherited $(readlink "$fd")" ;; esac
done
EOF

# script NAME HOLDS: a test script that declares HOLDS and reports what it sees.
script() {
	{
		echo '#!/bin/sh'
		[ -z "$2" ] || echo "# test-holds: $2"
		echo ". \"$WORK/probe.sh\""
		echo 'probe machine s; probe machine x; probe deadline x; probe global-tracing x'
	} >"$WORK/$1.sh"
}

run() {
	RC=0
	TMPDIR="$LOCKS" sh "$WRAP" sh "$WORK/$1.sh" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

script plain ""
run plain
expect_exit 0
expect_text "$OUT" "machine s free
machine x held
deadline x free
global-tracing x free"

script deadline "deadline"
run deadline
expect_exit 0
expect_text "$OUT" "machine s free
machine x held
deadline x held
global-tracing x free"

script both "global-tracing deadline"
run both
expect_exit 0
expect_text "$OUT" "machine s free
machine x held
deadline x held
global-tracing x held"

script fifo "low-fifo"
echo 'probe low-fifo x' >>"$WORK/fifo.sh"
run fifo
expect_exit 0
expect_text "$OUT" "machine s free
machine x held
deadline x free
global-tracing x free
low-fifo x held"

script alone "machine"
run alone
expect_exit 0
expect_text "$OUT" "machine s held
machine x held
deadline x free
global-tracing x free"

# Nothing is held once the wrapper has returned.
for l in machine deadline global-tracing low-fifo; do
	flock -n -x "$LOCKS/rt-tests-ng-$l.lock" true || fail "$l still held after the test"
done

script bad "deadline gpu"
run bad
expect_exit 99
expect_match "$ERR" "holds 'gpu'"
expect_empty_stdout

finish
