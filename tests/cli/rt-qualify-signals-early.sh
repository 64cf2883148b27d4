#!/bin/sh
# Proves (rt-qualify-signals-lib.sh): SIGINT in the hardware-noise step and
# SIGTERM with cyclictest under load stop rt-qualify with a partial summary
# whose figures are the tools' own, exit 4 (3 if a step FAILed), nothing left behind.
# test-holds: cpu-load
. "$top_srcdir/tests/cli/rt-qualify-signals-lib.sh"
sig_at INT 0.5      # the hardware-noise step
sig_at TERM 4       # cyclictest under hackbench
finish
