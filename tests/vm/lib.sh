# Helpers for the tests in tests/vm, sourced by each; they run inside the
# guest that scripts/check-vm boots (see run-guest.sh), as root.
# A test ends through pass, fail or skip, whose reason is its last line.
set -u

TOOLS=$top_builddir/src
TRACING=/sys/kernel/tracing
WORK=$(mktemp -d /tmp/rtng-vm.XXXXXX) || exit 1
# Debian's python3, not a user's pyenv shim: the guest has no HOME setup.
PY=/usr/bin/python3
# Where a test leaves its JSON: scripts/check-vm validates every
# RESULTS/<test>*.json against our schemas on the host once the guest is
# down (jsonschema takes 10 to 30 s per file under TCG, 1 s on the host),
# and a schema error turns the test's PASS into a FAIL.
OUT=$RESULTS/$(basename "$0" .sh)

pass() { echo "PASS: $*"; exit 0; }
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# kconfig NAME: the value of CONFIG_NAME in the booted kernel's config
# (the host passes the unpacked package's config-*), or "" when unset.
kconfig() {
	[ -r "$rtng_kconfig" ] || fail "no kernel config at '$rtng_kconfig'"
	sed -n "s/^CONFIG_$1=//p" "$rtng_kconfig"
}

# tracer_listed NAME: available_tracers lists NAME.
tracer_listed() {
	tr ' ' '\n' <"$TRACING/available_tracers" | grep -q -x "$1"
}

# tracer_state: current_tracer, tracing_thresh and tracing_on on one line.
tracer_state() {
	echo "current_tracer=$(cat "$TRACING/current_tracer")" \
		"tracing_thresh=$(cat "$TRACING/tracing_thresh")" \
		"tracing_on=$(cat "$TRACING/tracing_on")"
}

# set_unusual_state: settings no tool would leave by chance (the tool's
# own values, or the kernel's defaults), so a restore is told apart from
# a reset: tracing off, a threshold of 123 us, and the blk tracer, which
# costs nothing while no block device is traced (nop where it is absent).
set_unusual_state() {
	echo 0 >"$TRACING/tracing_on"
	echo 123 >"$TRACING/tracing_thresh"
	if tracer_listed blk; then
		echo blk >"$TRACING/current_tracer"
	else
		echo nop >"$TRACING/current_tracer"
	fi
}

# put_defaults: the kernel's defaults back, for the next test.
put_defaults() {
	echo nop >"$TRACING/current_tracer"
	echo 0 >"$TRACING/tracing_thresh"
	echo 1 >"$TRACING/tracing_on"
}

[ -r "$TRACING/available_tracers" ] || fail "no tracefs at $TRACING"

# check_hwlat_json FILE RC STOPPED_BY: hwlatdetect's --json, written by a
# run that exited RC, holds together (the host checks the schema):
# stopped_by as expected, threshold 10 us, at most one sample per window
# of the time asked for, every sample at or above the threshold, the max
# the largest sample, and exit 1 exactly when the max passed the
# hardlimit. No bound on the latencies themselves: TCG's are anything.
check_hwlat_json() {
	"$PY" - "$1" "$2" "$3" >"$WORK/hwlat.py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rc, stopped_by = int(sys.argv[2]), sys.argv[3]
def bad(why):
    print(why)
    sys.exit(1)
s = d["samples"]
lat = [max(x["inner_us"], x["outer_us"]) for x in s]
print("duration_s %s window_us %s width_us %s threshold_us %s hardlimit_us %s" %
      (d["duration_s"], d["window_us"], d["width_us"], d["threshold_us"], d["hardlimit_us"]))
print("stopped_by %s samples %d max %s latencies %s" % (d["stopped_by"], len(s), d["max_latency_us"], lat))
if d["stopped_by"] != stopped_by:
    bad("stopped_by %r, want %r" % (d["stopped_by"], stopped_by))
if d["threshold_us"] != 10:
    bad("threshold_us %r, asked for 10" % d["threshold_us"])
if not 0 < d["width_us"] <= d["window_us"]:
    bad("width %r not within window %r" % (d["width_us"], d["window_us"]))
most = d["duration_s"] * 1000000 // d["window_us"] + 1
if d["samples_recorded"] != len(s) or len(s) > most:
    bad("%d samples (samples_recorded %d), %d s of %d us windows allow %d" %
        (len(s), d["samples_recorded"], d["duration_s"], d["window_us"], most))
if any(l < d["threshold_us"] for l in lat):
    bad("a sample below the threshold: %s" % lat)
if (d["max_latency_us"] or 0) != max(lat, default=0):
    bad("max_latency_us %r, the samples' largest is %r" % (d["max_latency_us"], max(lat, default=0)))
over = max(lat, default=0) > d["hardlimit_us"]
if rc != (1 if over else 0) or d["return_code"] != rc:
    bad("exit status %d (return_code %r) with max %r against hardlimit %r" %
        (rc, d["return_code"], max(lat, default=0), d["hardlimit_us"]))
PY
	st=$?
	cat "$WORK/hwlat.py"
	[ "$st" -eq 0 ] || fail "JSON: $(tail -n 1 "$WORK/hwlat.py")"
}

# wait_hwlat_on PID: wait (up to 20 s) until PID's hwlatdetect has set
# current_tracer to hwlat; else kill it and fail.
wait_hwlat_on() {
	_i=0
	until [ "$(cat "$TRACING/current_tracer")" = hwlat ]; do
		_i=$((_i + 1))
		[ "$_i" -le 100 ] || { kill -KILL "$1"; fail "current_tracer never became hwlat"; }
		sleep 0.2
	done
}
