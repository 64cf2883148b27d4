// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_irqtab.h"

int rt_irqtab_init(struct rt_irqtab *t, bool named, const int *cpus, unsigned ncpus)
{
	memset(t, 0, sizeof(*t));
	t->named = named;
	t->cpus = cpus;
	t->ncpus = ncpus;
	t->maxcols = RT_IRQTAB_MAX_CPU;
	t->col_cpu = malloc(t->maxcols * sizeof(*t->col_cpu));
	t->vals = malloc((ncpus ? ncpus : 1) * sizeof(*t->vals));
	if (t->col_cpu && t->vals)
		return 0;
	rt_irqtab_free(t);
	return -ENOMEM;
}

void rt_irqtab_free(struct rt_irqtab *t)
{
	free(t->src);
	free(t->col_cpu);
	free(t->vals);
	memset(t, 0, sizeof(*t));
}

unsigned rt_irqtab_capacity(const struct rt_irqtab *t)
{
	return t->cap;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The header: one "CPUn" per column; col_cpu[c] becomes the measured index
 * of column c's CPU, or -1. Returns the number of columns, 0 when bad.
 */
static unsigned parse_header(struct rt_irqtab *t, const char *p, const char *eol, bool *present)
{
	unsigned n = 0;

	for (unsigned i = 0; present && i < t->ncpus; i++)
		present[i] = false;
	for (p = skip_blank(p); p < eol; p = skip_blank(p)) {
		long cpu = 0;

		if (strncmp(p, "CPU", 3) != 0 || !isdigit((unsigned char)p[3]) || n == t->maxcols)
			return 0;
		for (p += 3; isdigit((unsigned char)*p) && cpu < RT_IRQTAB_MAX_CPU * 10L; p++)
			cpu = cpu * 10 + (*p - '0');
		if (p < eol && !is_blank(*p))
			return 0;
		t->col_cpu[n] = -1;
		for (unsigned i = 0; i < t->ncpus; i++) {
			if (t->cpus[i] == cpu) {
				t->col_cpu[n] = (int)i;
				if (present)
					present[i] = true;
			}
		}
		n++;
	}
	return n;
}

/* "nvme0q2" of "IR-PCI-MSI 512000-edge      nvme0q2": after the last run of blanks. */
static void action_name(const char *p, const char *eol, char *out, size_t len)
{
	const char *start = NULL, *end = eol;

	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	for (const char *q = p; q + 1 < end; q++)
		if (is_blank(q[0]) && is_blank(q[1]))
			start = q;
	if (!start) /* a single word: it is the name */
		for (const char *q = p; q < end; q++)
			if (is_blank(*q))
				start = q;
	start = start ? skip_blank(start) : p;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* Two IRQs of one name (or an IRQ named LOC): the later one gets ":KEY". */
static void unique_name(struct rt_irqtab *t, unsigned s)
{
	struct rt_irqtab_src *n = &t->src[s];

	for (unsigned o = 0; o < s; o++) {
		if (strcmp(t->src[o].name, n->name) == 0) {
			size_t len = strlen(n->name), room = sizeof(n->name) - strlen(n->key) - 2;

			snprintf(n->name + (len < room ? len : room), sizeof(n->name) - (len < room ? len : room),
				 ":%s", n->key);
			return;
		}
	}
}

static int find_source(struct rt_irqtab *t, const char *key, unsigned hint)
{
	if (hint < t->nsrc && strcmp(t->src[hint].key, key) == 0)
		return (int)hint;
	for (unsigned s = 0; s < t->nsrc; s++)
		if (strcmp(t->src[s].key, key) == 0)
			return (int)s;
	return -1;
}

/*
 * One line: its key, and its counts of the measured CPUs into vals.
 * Returns the number of counts read, or -1 for a bad line; *rest is the
 * description after them.
 */
static int parse_line(const struct rt_irqtab *t, const char *p, const char *eol, unsigned ncols,
		      char *key, uint64_t *vals, const char **rest)
{
	const char *k = p = skip_blank(p);
	unsigned got = 0;

	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	if (p == k || *p != ':' || (size_t)(p - k) >= RT_IRQTAB_KEY_MAX)
		return -1;
	memcpy(key, k, (size_t)(p - k));
	key[p - k] = '\0';
	for (p++; got < ncols; got++) {
		uint64_t v = 0;

		p = skip_blank(p);
		if (p >= eol || !isdigit((unsigned char)*p))
			break;
		for (; isdigit((unsigned char)*p); p++) {
			unsigned d = (unsigned)(*p - '0');

			if (v > (UINT64_MAX - d) / 10)
				return -1; /* overflowed */
			v = v * 10 + d;
		}
		if (p < eol && !is_blank(*p))
			return -1;
		if (t->col_cpu[got] >= 0)
			vals[t->col_cpu[got]] = v;
	}
	*rest = p;
	return (int)got;
}

static unsigned count_lines(const char *p)
{
	unsigned n = 0;

	for (; (p = strchr(p, '\n')); p++)
		n++;
	return n + 1;
}

int rt_irqtab_parse(struct rt_irqtab *t, const char *text, uint64_t *counts, bool *present)
{
	const char *eol = text + strcspn(text, "\n"), *p;
	unsigned ncols, hint = 0;

	ncols = parse_header(t, text, eol, present);
	if (!ncols)
		return -EINVAL;
	if (!t->cap) {
		t->cap = count_lines(eol) + RT_IRQTAB_SPARE;
		t->src = calloc(t->cap, sizeof(*t->src));
		if (!t->src) {
			t->cap = 0;
			return -ENOMEM;
		}
	}
	if (counts)
		memset(counts, 0, (size_t)t->cap * t->ncpus * sizeof(*counts));
	t->skipped = t->bad_lines = 0;
	for (p = *eol ? eol + 1 : eol; *p; p = *eol ? eol + 1 : eol) {
		uint64_t *v = t->vals;
		char key[RT_IRQTAB_KEY_MAX];
		const char *rest = eol;
		int got, s;

		eol = p + strcspn(p, "\n");
		if (skip_blank(p) == eol)
			continue;
		memset(v, 0, t->ncpus * sizeof(*v));
		got = parse_line(t, p, eol, ncols, key, v, &rest);
		if (got == 1 && ncols > 1 && skip_blank(rest) >= eol - (eol > p && eol[-1] == '\r'))
			continue; /* ERR, MIS: one count for all CPUs */
		if (got != (int)ncols) {
			t->bad_lines++;
			continue;
		}
		if ((s = find_source(t, key, hint)) < 0) {
			if (t->nsrc == t->cap) {
				t->skipped++;
				continue;
			}
			s = (int)t->nsrc++;
			strcpy(t->src[s].key, key);
			if (t->named && isdigit((unsigned char)key[0]))
				action_name(rest, eol, t->src[s].name, sizeof(t->src[s].name));
			if (!t->src[s].name[0])
				snprintf(t->src[s].name, sizeof(t->src[s].name), "%s", key);
			unique_name(t, (unsigned)s);
		}
		hint = (unsigned)s + 1;
		if (counts)
			memcpy(counts + (size_t)s * t->ncpus, v, t->ncpus * sizeof(*v));
	}
	return 0;
}
