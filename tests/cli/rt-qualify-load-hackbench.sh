#!/bin/sh
# Proves (rt-qualify-load-lib.sh): rt-qualify under hackbench, as rteval runs it
# (3 groups per load CPU: 240 tasks here, a large share even of a busy
# machine), measures with the load really running, into a directory whose
# figures are the tools' own.
# test-holds: cpu-load
LOAD=hackbench MIN_SHARE=0.05
. "$top_srcdir/tests/cli/rt-qualify-load-lib.sh"
