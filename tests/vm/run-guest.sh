#!/bin/sh
# Runs inside the guest that scripts/check-vm boots, as root, in a chroot
# of the host's root filesystem (read-only 9p under a tmpfs overlay).
# usage: run-guest.sh SRC TREE RESULTS [NAME[,NAME...]]
#   SRC      the source tree (the host's path), which holds the tests
#   TREE     the build tree whose tools are under test (the host's path)
#   RESULTS  a directory shared with the host: "summary" gets the
#            BEGIN/result lines, NAME.log each test's output
#   NAME     tests/vm/NAME.sh; default every test there
# Each test exits 0 PASS, 77 SKIP, anything else FAIL, and says why on its
# last line. BEGIN lines go to the console too: if the kernel panics or
# hangs, the host names the test from them.
set -u
src=$1
tree=$2
res=$3
shift 3
export top_srcdir="$src" top_builddir="$tree" RESULTS="$res"
export rtng_flavour="${rtng_flavour:-}" rtng_kconfig="${rtng_kconfig:-}"
per_test=${rtng_test_timeout:-120}

# The host timestamps this file: its mtime is when the guest came up.
read -r up _ </proc/uptime
echo "UP $up $(uname -r)" >"$res/up"

names=$(echo "${1:-}" | tr ',' ' ')
if [ -z "$names" ]; then
	names=$(cd "$src/tests/vm" && ls ./*.sh | sed 's|^\./||; s|\.sh$||' |
		grep -v -x -e run-guest -e lib)
fi

for n in $names; do
	echo "BEGIN test $n" >>"$res/summary"
	echo "rtng-vm: BEGIN test $n"
	read -r t0 _ </proc/uptime
	rc=0
	if [ -f "$src/tests/vm/$n.sh" ]; then
		# The test's own bound, well inside the host's: a hung tool
		# fails its test and the others still run.
		timeout -k 5 "$per_test" sh "$src/tests/vm/$n.sh" >"$res/$n.log" 2>&1 </dev/null ||
			rc=$?
	else
		echo "FAIL: no tests/vm/$n.sh" >"$res/$n.log"
		rc=1
	fi
	why=$(grep -E '^(PASS|FAIL|SKIP): ' "$res/$n.log" | tail -n 1 | sed 's/^[A-Z]*: //')
	case $rc in
	0) r=PASS ;;
	77) r=SKIP ;;
	124|137) r=FAIL why="timed out after $per_test s" ;;
	*) r=FAIL ;;
	esac
	[ -n "$why" ] || why="exit status $rc, no reason given"
	read -r t1 _ </proc/uptime
	echo "TIME $n $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" >>"$res/summary"
	echo "$r $n: $why" >>"$res/summary"
	echo "rtng-vm: $r $n: $why"
done
echo "DONE" >>"$res/summary"
sync
