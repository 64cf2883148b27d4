// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>
#endif

#include "rt_outside.h"
#include "rt_smi.h"
#include "rt_time.h"

/* Samples kept per CPU: at a 10 ms poll, 5 s of them. */
#define RING 512
/* /proc/stat's cpu lines come first; the rest (intr, ...) is not needed. */
#define STAT_BYTES (128 * 1024)

struct sample {
	int64_t ts_ns, steal_ns, smi;
};

struct cpu_probe {
	int cpu, msr_fd;
	size_t next, count;
	struct sample ring[RING];
};

struct rt_outside_probe {
	size_t n;
	long user_hz;
	char *buf;
	struct cpu_probe *cpu;
};

void rt_outside_init(struct rt_outside *o)
{
	*o = (struct rt_outside){ .hypervisor = -1, .steal_ns = -1, .smi = -1, .window_ns = -1 };
}

int64_t rt_outside_tick_ns(void)
{
	struct timespec r;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &r) || r.tv_sec || r.tv_nsec <= 1)
		return 0;
	return r.tv_nsec;
}

/* The first line of a small file, without its newline; false when unreadable or empty. */
static bool first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

/* The hypervisor's vendor signature (cpuid 0x40000000) as a name. */
static void vendor_name(const char *sig, char *name, size_t len)
{
	static const char *const known[][2] = {
		{ "KVMKVMKVM", "KVM" }, { "Microsoft Hv", "Hyper-V" }, { "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" }, { "TCGTCGTCGTCG", "QEMU TCG" }, { "bhyve bhyve ", "bhyve" },
		{ "ACRNACRNACRN", "ACRN" }, { " lrpepyh  vr", "Parallels" },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(sig, known[i][0])) {
			snprintf(name, len, "%s", known[i][1]);
			return;
		}
	/* another: its signature, where it is printable */
	for (; sig[n] && n + 1 < len; n++) {
		if (sig[n] < ' ' || sig[n] > '~')
			break;
		name[n] = sig[n];
	}
	while (n > 0 && name[n - 1] == ' ')
		n--;
	if (len)
		name[n] = '\0';
}

void rt_outside_hypervisor(int *present, char *name, size_t len)
{
	char type[32];

	*present = -1;
	if (len)
		name[0] = '\0';
#if defined(__i386__) || defined(__x86_64__)
	{
		unsigned a, b, c, d;
		char vendor[13];

		if (__get_cpuid(1, &a, &b, &c, &d)) {
			*present = (c >> 31) & 1;
			if (*present) {
				__cpuid(0x40000000, a, b, c, d);
				memcpy(vendor, &b, 4);
				memcpy(vendor + 4, &c, 4);
				memcpy(vendor + 8, &d, 4);
				vendor[12] = '\0';
				vendor_name(vendor, name, len);
			}
		}
	}
#endif
	if (first_line("/sys/hypervisor/type", type, sizeof(type))) {
		*present = 1;
		if (len && !name[0])
			snprintf(name, len, "%s", type);
	}
}

int64_t rt_outside_parse_steal(const char *stat, int cpu, long user_hz)
{
	char key[24];
	const char *p = stat;
	size_t klen;
	long long v[8];

	snprintf(key, sizeof(key), "cpu%d ", cpu);
	klen = strlen(key);
	while (p && *p) {
		if (!strncmp(p, key, klen)) {
			if (sscanf(p + klen, "%lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
				   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8 || user_hz <= 0)
				return -1;
			return v[7] * (1000000000 / user_hz);
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

int rt_outside_open(struct rt_outside_probe **out, const int *cpu, size_t n)
{
	struct rt_outside_probe *p = calloc(1, sizeof(*p));
	char path[48];

	if (!p)
		return -ENOMEM;
	p->buf = malloc(STAT_BYTES);
	p->cpu = calloc(n ? n : 1, sizeof(*p->cpu));
	if (!p->buf || !p->cpu) {
		rt_outside_close(p);
		return -ENOMEM;
	}
	p->n = n;
	p->user_hz = sysconf(_SC_CLK_TCK);
	for (size_t i = 0; i < n; i++) {
		p->cpu[i].cpu = cpu[i];
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu[i]);
		p->cpu[i].msr_fd = rt_smi_open(path);
	}
	*out = p;
	return 0;
}

void rt_outside_sample(struct rt_outside_probe *p)
{
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, p->buf, STAT_BYTES - 1) : -1;
	int64_t now = rt_time_mono_ns();

	if (fd >= 0)
		close(fd);
	p->buf[got > 0 ? got : 0] = '\0';
	for (size_t i = 0; i < p->n; i++) {
		struct cpu_probe *c = &p->cpu[i];
		struct sample *s = &c->ring[c->next];
		uint64_t v;

		s->ts_ns = now;
		s->steal_ns = rt_outside_parse_steal(p->buf, c->cpu, p->user_hz);
		s->smi = c->msr_fd >= 0 && !rt_smi_read(c->msr_fd, &v) ? (int64_t)v : -1;
		c->next = (c->next + 1) % RING;
		if (c->count < RING)
			c->count++;
	}
}

static const struct sample *nth(const struct cpu_probe *c, size_t k)
{
	return &c->ring[(c->next + RING - c->count + k) % RING]; /* k = 0: the oldest */
}

void rt_outside_fill(struct rt_outside_probe *p, int cpu, int64_t from_ns, int64_t to_ns,
		     struct rt_outside *o)
{
	const struct sample *before = NULL, *after = NULL;
	struct cpu_probe *c = NULL;

	rt_outside_init(o);
	rt_outside_hypervisor(&o->hypervisor, o->hypervisor_name, sizeof(o->hypervisor_name));
	for (size_t i = 0; p && i < p->n; i++)
		if (p->cpu[i].cpu == cpu)
			c = &p->cpu[i];
	if (!c)
		return;
	if (!c->count || nth(c, c->count - 1)->ts_ns < to_ns)
		rt_outside_sample(p);
	for (size_t k = 0; k < c->count; k++) {
		const struct sample *s = nth(c, k);

		if (s->ts_ns <= from_ns)
			before = s;
		if (s->ts_ns >= to_ns && !after)
			after = s;
	}
	if (!before || !after)
		return;
	o->window_ns = after->ts_ns - before->ts_ns;
	if (before->steal_ns >= 0 && after->steal_ns >= before->steal_ns)
		o->steal_ns = after->steal_ns - before->steal_ns;
	if (before->smi >= 0 && after->smi >= before->smi)
		o->smi = after->smi - before->smi;
}

void rt_outside_close(struct rt_outside_probe *p)
{
	if (!p)
		return;
	for (size_t i = 0; p->cpu && i < p->n; i++)
		if (p->cpu[i].msr_fd >= 0)
			close(p->cpu[i].msr_fd);
	free(p->cpu);
	free(p->buf);
	free(p);
}
