#!/bin/sh
# Proves (rt-qualify-load-lib.sh): rt-qualify under stress-ng (one CPU worker
# per load CPU: its fair share of a busy machine, a few per cent at least)
# measures with the load really running; SKIP where stress-ng is absent.
# test-holds: cpu-load
LOAD=stress-ng MIN_SHARE=0.01
. "$top_srcdir/tests/cli/rt-qualify-load-lib.sh"
