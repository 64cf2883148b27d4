// SPDX-License-Identifier: GPL-2.0-or-later
/* rt_isolation_preflight(): what routes work to the measured CPUs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_irqtab.h"
#include "rt_isolation_preflight.h"

#define IRQ_LIST_MAX 160   /* the IRQs named in the warning, then "..." */
#define LINE_MAX_LEN 1024  /* a warning: its lists are bounded well below */

/* Is cpu in a kernel CPU list ("0-3,8,10-11")? A bad list holds nothing. */
static bool in_list(const char *list, int cpu)
{
	const char *p = list;

	while (p && *p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return false;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p)
				return false;
		}
		if (cpu >= lo && cpu <= hi)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

/* "isolcpus=managed_irq,domain,2-3": the CPU list when managed_irq is among the flags. */
static const char *managed_irq_cpus(const char *cmdline, char *buf, size_t len)
{
	const char *p = cmdline ? strstr(cmdline, "isolcpus=") : NULL;
	bool managed = false;
	size_t n;

	while (p && p != cmdline && p[-1] != ' ')
		p = strstr(p + 1, "isolcpus=");
	if (!p)
		return NULL;
	p += strlen("isolcpus=");
	n = strcspn(p, " ");
	snprintf(buf, len, "%.*s", (int)n, p);
	/* flags come first; the CPU list starts at the first digit */
	for (char *f = buf; *f && !(*f >= '0' && *f <= '9');) {
		size_t w = strcspn(f, ",");

		managed |= w == strlen("managed_irq") && strncmp(f, "managed_irq", w) == 0;
		f += w + (f[w] == ',');
		if (*f >= '0' && *f <= '9') {
			memmove(buf, f, strlen(f) + 1);
			break;
		}
	}
	return managed ? buf : NULL;
}

/* Append ",N" (or "N") to a compact list, "N-M" for runs. */
static void list_add(char *buf, size_t len, int *last, int *run_start, int v)
{
	size_t used = strlen(buf);

	if (*last >= 0 && v == *last + 1) {
		*last = v;
		return;
	}
	if (*last >= 0 && *last != *run_start)
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "-%d", *last);
	if (used < len)
		snprintf(buf + used, len - used, "%s%d", used ? "," : "", v);
	*last = *run_start = v;
}

static void list_end(char *buf, size_t len, int last, int run_start)
{
	size_t used = strlen(buf);

	if (last >= 0 && last != run_start && used < len)
		snprintf(buf + used, len - used, "-%d", last);
}

/* The IRQ's CPUs: effective_affinity_list, else smp_affinity_list. */
static bool irq_cpus(const char *root, const char *irq, char *buf, size_t len)
{
	static const char *const files[] = { "effective_affinity_list", "smp_affinity_list" };

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[PATH_MAX];
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%s/proc/irq/%s/%s", root, irq, files[f]);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, buf, len - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			return true;
		}
	}
	return false;
}

/* Device interrupts (the numbered lines of /proc/interrupts) that may hit a measured CPU. */
static int irq_affinity(const struct rt_isolation_preflight_in *in, rt_isolation_preflight_say *say,
			void *ctx)
{
	const struct rt_cpulist *m = in->cpus;
	char path[PATH_MAX], cpus[256] = "", irqs[IRQ_LIST_MAX + 8] = "", aff[512];
	char line[LINE_MAX_LEN];
	int last = -1, start = -1, clast = -1, cstart = -1, err = 0;
	bool *hit = calloc(m->count ? m->count : 1, sizeof(bool));
	size_t size = 64 * 1024;
	char *text = malloc(size);
	struct rt_irqtab t = { 0 };
	ssize_t n;
	int fd;

	if (!hit || !text) {
		err = -ENOMEM;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/proc/interrupts", in->root);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		goto out; /* nothing to say */
	n = read(fd, text, size - 1);
	close(fd);
	if (n <= 0)
		goto out;
	text[n] = '\0';
	if ((err = rt_irqtab_init(&t, true, m->cpu, m->count)))
		goto out;
	if (rt_irqtab_parse(&t, text, NULL, NULL))
		goto out;
	for (unsigned s = 0; s < t.nsrc; s++) {
		bool any = false;

		if (t.src[s].key[0] < '0' || t.src[s].key[0] > '9' ||
		    !irq_cpus(in->root, t.src[s].key, aff, sizeof(aff)))
			continue;
		for (unsigned i = 0; i < m->count; i++)
			if (in_list(aff, m->cpu[i]))
				any = hit[i] = true;
		if (any)
			list_add(irqs, IRQ_LIST_MAX, &last, &start, atoi(t.src[s].key));
	}
	list_end(irqs, IRQ_LIST_MAX, last, start);
	if (strlen(irqs) >= IRQ_LIST_MAX - 1)
		strcpy(irqs + IRQ_LIST_MAX - 4, "...");
	for (unsigned i = 0; i < m->count; i++)
		if (hit[i])
			list_add(cpus, sizeof(cpus), &clast, &cstart, m->cpu[i]);
	list_end(cpus, sizeof(cpus), clast, cstart);
	if (irqs[0]) {
		snprintf(line, sizeof(line), "measured CPU(s) %s in the affinity of device "
			 "interrupt(s) %s (/proc/irq/N/effective_affinity_list)", cpus, irqs);
		err = say(ctx, line);
	}
out:
	rt_irqtab_free(&t);
	free(text);
	free(hit);
	return err;
}

/* Measured CPUs the kernel's housekeeping may still use: one line for all kinds. */
static int housekeeping(const struct rt_isolation_preflight_in *in,
			rt_isolation_preflight_say *say, void *ctx)
{
	const char *kinds[] = { "nohz_full", "rcu_nocbs", "isolcpus=managed_irq" };
	const struct rt_cpulist *m = in->cpus;
	char managed[256], msg[512] = "", line[LINE_MAX_LEN];
	const char *lists[3];
	size_t used = 0;

	lists[0] = in->nohz_full;
	lists[1] = in->rcu_nocbs;
	lists[2] = managed_irq_cpus(in->cmdline, managed, sizeof(managed));
	for (int k = 0; k < 3; k++) {
		char cpus[256] = "";
		int last = -1, start = -1;

		for (unsigned i = 0; i < m->count; i++)
			if (!lists[k] || !in_list(lists[k], m->cpu[i]))
				list_add(cpus, sizeof(cpus), &last, &start, m->cpu[i]);
		list_end(cpus, sizeof(cpus), last, start);
		if (cpus[0] && used < sizeof(msg))
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s (CPU %s)",
						 used ? ", " : "", kinds[k], cpus);
	}
	if (!msg[0])
		return 0;
	snprintf(line, sizeof(line), "measured CPU(s) not isolated from kernel housekeeping: "
		 "not in %s", msg);
	return say(ctx, line);
}

int rt_isolation_preflight(const struct rt_isolation_preflight_in *in,
			   rt_isolation_preflight_say *say, void *ctx)
{
	int err = irq_affinity(in, say, ctx);

	return err ? err : housekeeping(in, say, ctx);
}
