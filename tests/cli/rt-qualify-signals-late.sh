#!/bin/sh
# Proves (rt-qualify-signals-lib.sh): SIGINT late in the run (oslat under
# load, or cyclictest's end on a slow machine) gives a valid partial
# summary; a SIGKILL of rt-qualify takes the tools and the load with it.
# test-holds: cpu-load
. "$top_srcdir/tests/cli/rt-qualify-signals-lib.sh"
sig_at INT 6.5      # oslat under hackbench
sig_at KILL 4       # the children die with rt-qualify (session_empties checks)
finish
