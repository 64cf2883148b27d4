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

[ -r "$TRACING/available_tracers" ] || fail "no tracefs at $TRACING"

