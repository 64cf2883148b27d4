#!/bin/sh
# Proves: the booted kernel is what its package says. available_tracers
# lists hwlat, osnoise and timerlat exactly when the kernel's config built
# them in (Debian's PREEMPT_RT kernel does, its generic 6.1 kernel does
# not), and /sys/kernel/realtime is 1 exactly on CONFIG_PREEMPT_RT.
. "$top_srcdir/tests/vm/lib.sh"

echo "kernel: $(uname -r) $(uname -v)"
echo "available_tracers: $(cat "$TRACING/available_tracers")"
seen=""
for t in hwlat osnoise timerlat; do
	case $t in
	hwlat) opt=HWLAT_TRACER ;;
	osnoise) opt=OSNOISE_TRACER ;;
	timerlat) opt=TIMERLAT_TRACER ;;
	esac
	if [ "$(kconfig "$opt")" = y ]; then
		tracer_listed "$t" || fail "CONFIG_$opt=y but available_tracers has no $t"
		seen="$seen $t"
	else
		tracer_listed "$t" && fail "available_tracers has $t without CONFIG_$opt"
	fi
done

rt=$(cat /sys/kernel/realtime 2>/dev/null)
echo "/sys/kernel/realtime: ${rt:-absent}"
if [ "$(kconfig PREEMPT_RT)" = y ]; then
	[ "$rt" = 1 ] || fail "CONFIG_PREEMPT_RT=y but /sys/kernel/realtime is '${rt:-absent}'"
	[ -n "$seen" ] || fail "PREEMPT_RT kernel without any of hwlat, osnoise, timerlat"
	pass "PREEMPT_RT, realtime=1, tracers:$seen"
fi
[ -z "$rt" ] || [ "$rt" = 0 ] || fail "/sys/kernel/realtime is '$rt' without CONFIG_PREEMPT_RT"
pass "not PREEMPT_RT, no realtime flag, tracers:${seen:- none of hwlat/osnoise/timerlat}, as configured"
