/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parser of the kernel's per-CPU counter tables, /proc/interrupts and
 * /proc/softirqs: a header naming the online CPUs ("CPU0 CPU3 ..."), then
 * one line per source, "KEY: count count ... [description]". It keeps the
 * counts of the measured CPUs only, in a caller's array, without
 * allocating: the sources are learnt on the first parse (the table is
 * sized then) and found again by key, in order, on the next ones.
 * Prints nothing; returns 0 or -errno.
 */
#ifndef RT_IRQTAB_H
#define RT_IRQTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_IRQTAB_KEY_MAX 16    /* "LOC", "123", "NET_RX" with the NUL */
#define RT_IRQTAB_NAME_MAX 64   /* "nvme0q2": an IRQ's action name(s), cut */
#define RT_IRQTAB_MAX_CPU 8192  /* CPUs numbered above are not measured */
#define RT_IRQTAB_SPARE 64      /* sources that may appear after the first parse */

struct rt_irqtab_src {
	char key[RT_IRQTAB_KEY_MAX];
	char name[RT_IRQTAB_NAME_MAX]; /* what the text calls it */
};

struct rt_irqtab {
	bool named;                    /* numbered lines carry an action name (interrupts) */
	const int *cpus;               /* the measured CPUs */
	unsigned ncpus;
	struct rt_irqtab_src *src;     /* the sources known, in the order first seen */
	unsigned nsrc, cap;            /* a source beyond cap is skipped (and counted) */
	unsigned skipped;              /* sources dropped for want of room, last parse */
	unsigned bad_lines;            /* lines rejected (garbled, overflowed), last parse */
	int *col_cpu;                  /* scratch: the measured index of each column, -1 */
	uint64_t *vals;                /* scratch: one line's counts */
	unsigned maxcols;
};

/*
 * cpus (ncpus of them, kept by reference) are the measured CPUs; named:
 * /proc/interrupts (numbered lines get their action name). 0 or -ENOMEM.
 */
int rt_irqtab_init(struct rt_irqtab *t, bool named, const int *cpus, unsigned ncpus);
void rt_irqtab_free(struct rt_irqtab *t);

/*
 * Parse text (NUL-terminated). The first parse learns the sources and
 * sizes the table (their number plus RT_IRQTAB_SPARE; counts may be NULL
 * then); later ones allocate nothing. counts[src * ncpus + i] gets source src's count on
 * measured CPU i (0 where the source or the CPU's column is missing);
 * counts holds rt_irqtab_capacity() * ncpus values. present[i] says
 * whether CPU i had a column (a CPU offline has none). A line that is not
 * "KEY: N N ..." with one count per column and every count below 2^64 is
 * rejected (bad_lines); a line with a single count (ERR, MIS: not per
 * CPU) is left out. -EINVAL when there is no header, -ENOMEM.
 */
int rt_irqtab_parse(struct rt_irqtab *t, const char *text, uint64_t *counts, bool *present);

/* How many sources a counts array must hold (0 before the first parse). */
unsigned rt_irqtab_capacity(const struct rt_irqtab *t);

#endif
