// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sigwaittest: latency of a signal from a sender to a receiver blocked in
 * sigwait, threads or (-f) processes, compatible with rt-tests 2.4.
 */
#include "rt_pair.h"
#include "rt_pair_signal.h"
#include "pairs.h"

static const struct pairs_tool sigwaittest = {
	.name = "sigwaittest",
	.summary = "Measures the latency of a signal sent to a thread (or, with -f, a\n"
		   "process) blocked in sigwait().",
	.has_fork = true,
	.has_smp = true,
	.prio_floor = 0, /* 2.4: pair i runs at max(PRIO - i, 0) */
	.mech = &rt_pair_mech_signal,
};

int main(int argc, char *argv[])
{
	return pairs_main(&sigwaittest, argc, argv);
}
