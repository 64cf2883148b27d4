/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pair engine's hand-over by a real-time signal sent with tgkill, to a
 * thread of this process or of a forked one alike (sigwaittest, signaltest).
 * Declared apart from rt_pair.h: the engine does not know its mechanisms.
 */
#ifndef RT_PAIR_SIGNAL_H
#define RT_PAIR_SIGNAL_H

struct rt_pair_mech;

extern const struct rt_pair_mech rt_pair_mech_signal;

#endif
