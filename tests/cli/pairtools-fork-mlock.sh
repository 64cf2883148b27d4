#!/bin/sh
# Proves: the -f children of sigwaittest and svsematest lock their memory
# as their parent does (mlockall is not inherited across fork; 2.4's and
# our first -f children ran with VmLck 0): during a run as root, VmLck in
# /proc/<child>/status is above 0 for every child.
. "$top_srcdir/tests/cli/lib.sh"
need_rt
case "${SAN_CFLAGS:-}" in
*sanitize=address*) skip "ASan makes mlockall a no-op that succeeds: VmLck stays 0" ;;
esac

vmlck_kb() {
	awk '/^VmLck:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

for t in sigwaittest svsematest; do
	# -D 60, ended by SIGINT: a busy machine may delay this shell for seconds.
	"$(tool "$t")" -f -q -p 80 -t 2 -D 60 >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	sleep 1.5
	kids=$(pgrep -P "$pid")
	[ "$(echo "$kids" | wc -w)" -eq 4 ] || fail "$t: $(echo "$kids" | wc -w) children, expected 4"
	parent=$(vmlck_kb "$pid")
	[ "${parent:-0}" -gt 0 ] || fail "$t: the parent's VmLck is ${parent:-unreadable}"
	for k in $kids; do
		kb=$(vmlck_kb "$k")
		echo "$t: child $k VmLck ${kb:-?} kB (parent ${parent:-?} kB)"
		[ "${kb:-0}" -gt 0 ] || fail "$t: child $k runs with VmLck ${kb:-unreadable} kB"
	done
	kill -INT "$pid"
	RC=0
	wait "$pid" || RC=$?
	expect_exit 0
done
finish
