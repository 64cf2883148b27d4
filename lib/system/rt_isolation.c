// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_irqtab.h"
#include "rt_isolation.h"
#include "rt_smi.h"

#define MAX_IDLE 16       /* cpuidle states kept per CPU */
#define MAX_FREQ 32       /* cpufreq frequencies kept per CPU */
#define IDLE_NAME_MAX 24
#define TABLE_BUF_MIN (64 * 1024)
#define SMALL_BUF 4096
#define TOP_SOURCES 3
/* time_in_state counts in units of 10 ms (USER_HZ 100) */
#define FREQ_UNIT_MS 10

/* Per CPU and snapshot, the extras in one row: SMI, thermal, idle, freq. */
enum { X_SMI, X_CORE, X_PKG, X_IDLE, X_FREQ = X_IDLE + MAX_IDLE, X_N = X_FREQ + MAX_FREQ };

struct cpu_extra {
	int cpu;
	int msr_fd;                    /* -1: no SMI counter */
	char *core_path, *pkg_path;    /* thermal_throttle counts, NULL: none */
	unsigned nidle;
	char idle_name[MAX_IDLE][IDLE_NAME_MAX];
	char *idle_path[MAX_IDLE];     /* stateK/time (us) */
	char *freq_path;               /* cpufreq/stats/time_in_state, NULL: none */
	unsigned nfreq;
	uint64_t freq_khz[MAX_FREQ];
};

struct thread {
	char *path;                    /* /proc/TGID/task/TID/status */
	int cpu;
	int idx;                       /* measured index of cpu, -1 */
};

/* A snapshot, or the difference of two. */
struct counts {
	uint64_t *irq, *soft;          /* [source][measured CPU] */
	bool *irq_on, *soft_on;        /* [measured CPU]: its column was there */
	uint64_t *ctx;                 /* [thread][2]: voluntary, involuntary */
	bool *ctx_on;                  /* [thread]: read */
	uint64_t *x;                   /* [measured CPU][X_N] */
	bool ok;                       /* taken */
};

enum { S_START, S_MARK, S_NOW, S_END, D_RUN, D_WINDOW, D_LAST, NCOUNTS };

struct rt_isolation {
	char *root;
	int *cpus;
	unsigned ncpus;
	struct cpu_extra *extra;
	struct thread *threads;
	unsigned nthreads, cap_threads;
	struct rt_irqtab irq, soft;
	char *irq_path, *soft_path;
	char *buf, *sbuf;              /* the tables are read into them */
	size_t buf_size, sbuf_size;
	char small[SMALL_BUF];         /* status and sysfs files */
	struct counts c[NCOUNTS];
	bool allocated;
};

static char *path_of(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *path_of(const char *root, const char *fmt, ...)
{
	char rel[PATH_MAX], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	return asprintf(&p, "%s%s", root, rel) < 0 ? NULL : p;
}

/*
 * The whole of a file in one read() where it fits, into buf (size bytes,
 * NUL-terminated): its length, -EFBIG when it did not fit, or -errno.
 */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == size - 1) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	buf[len] = '\0';
	return err ? err : (ssize_t)len;
}

static bool exists(const char *path)
{
	return path && access(path, R_OK) == 0;
}

/* A decimal number at the start of s (after blanks): 0 and false when none. */
static bool number(const char *s, uint64_t *v)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno == 0;
}

static uint64_t read_number(struct rt_isolation *iso, const char *path)
{
	uint64_t v = 0;

	if (path && read_file(path, iso->small, sizeof(iso->small)) >= 0)
		number(iso->small, &v);
	return v;
}

static void probe_idle(struct rt_isolation *iso, struct cpu_extra *x)
{
	for (unsigned k = 0; k < MAX_IDLE; k++) {
		char *name = path_of(iso->root, "/sys/devices/system/cpu/cpu%d/cpuidle/state%u/name",
				     x->cpu, k);
		ssize_t n = name ? read_file(name, iso->small, sizeof(iso->small)) : -ENOMEM;

		free(name);
		if (n < 0)
			return;
		iso->small[strcspn(iso->small, "\n")] = '\0';
		snprintf(x->idle_name[k], IDLE_NAME_MAX, "%.*s", IDLE_NAME_MAX - 1, iso->small);
		x->idle_path[k] = path_of(iso->root,
					  "/sys/devices/system/cpu/cpu%d/cpuidle/state%u/time",
					  x->cpu, k);
		if (!exists(x->idle_path[k])) {
			free(x->idle_path[k]);
			x->idle_path[k] = NULL;
			return;
		}
		x->nidle = k + 1;
	}
}

/* "freq time" lines: the frequencies now, their times into t (when not NULL). */
static unsigned parse_freq(const char *s, uint64_t *khz, uint64_t *t, unsigned max)
{
	unsigned n = 0;

	for (const char *p = s; *p && n < max; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
		uint64_t f, v;
		const char *q = p;

		if (!number(q, &f))
			break;
		q += strspn(q, " \t");
		q += strspn(q, "0123456789");
		if (!number(q, &v))
			break;
		if (khz)
			khz[n] = f;
		if (t)
			t[n] = v;
		n++;
	}
	return n;
}

static void probe_freq(struct rt_isolation *iso, struct cpu_extra *x)
{
	x->freq_path = path_of(iso->root, "/sys/devices/system/cpu/cpu%d/cpufreq/stats/time_in_state",
			       x->cpu);
	if (!x->freq_path || read_file(x->freq_path, iso->small, sizeof(iso->small)) < 0 ||
	    !(x->nfreq = parse_freq(iso->small, x->freq_khz, NULL, MAX_FREQ))) {
		free(x->freq_path);
		x->freq_path = NULL;
	}
}

static void probe_cpu(struct rt_isolation *iso, struct cpu_extra *x)
{
	char *msr = path_of(iso->root, "/dev/cpu/%d/msr", x->cpu);

	x->msr_fd = msr ? rt_smi_open(msr) : -1;
	free(msr);
	x->core_path = path_of(iso->root,
			       "/sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count",
			       x->cpu);
	x->pkg_path = path_of(iso->root,
			      "/sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count",
			      x->cpu);
	if (!exists(x->core_path)) {
		free(x->core_path);
		x->core_path = NULL;
	}
	if (!exists(x->pkg_path)) {
		free(x->pkg_path);
		x->pkg_path = NULL;
	}
	probe_idle(iso, x);
	probe_freq(iso, x);
}

int rt_isolation_create(struct rt_isolation **out, const char *root,
			const struct rt_cpulist *measured)
{
	struct rt_isolation *iso = calloc(1, sizeof(*iso));
	unsigned n = measured->count;

	*out = NULL;
	if (!iso)
		return -ENOMEM;
	iso->root = strdup(root);
	iso->cpus = calloc(n ? n : 1, sizeof(*iso->cpus));
	iso->extra = calloc(n ? n : 1, sizeof(*iso->extra));
	iso->buf_size = TABLE_BUF_MIN;
	iso->buf = malloc(iso->buf_size);
	iso->sbuf_size = SMALL_BUF * 4;
	iso->sbuf = malloc(iso->sbuf_size);
	iso->irq_path = path_of(root, "/proc/interrupts");
	iso->soft_path = path_of(root, "/proc/softirqs");
	if (!iso->root || !iso->cpus || !iso->extra || !iso->buf || !iso->sbuf || !iso->irq_path ||
	    !iso->soft_path) {
		rt_isolation_free(iso);
		return -ENOMEM;
	}
	iso->ncpus = n;
	for (unsigned i = 0; i < n; i++) {
		iso->cpus[i] = measured->cpu[i];
		iso->extra[i].cpu = measured->cpu[i];
		iso->extra[i].msr_fd = -1;
	}
	if (rt_irqtab_init(&iso->irq, true, iso->cpus, n) ||
	    rt_irqtab_init(&iso->soft, false, iso->cpus, n)) {
		rt_isolation_free(iso);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++)
		probe_cpu(iso, &iso->extra[i]);
	*out = iso;
	return 0;
}

static void free_counts(struct counts *c)
{
	free(c->irq);
	free(c->soft);
	free(c->irq_on);
	free(c->soft_on);
	free(c->ctx);
	free(c->ctx_on);
	free(c->x);
	memset(c, 0, sizeof(*c));
}

void rt_isolation_free(struct rt_isolation *iso)
{
	if (!iso)
		return;
	for (unsigned i = 0; iso->extra && i < iso->ncpus; i++) {
		struct cpu_extra *x = &iso->extra[i];

		if (x->msr_fd >= 0)
			close(x->msr_fd);
		free(x->core_path);
		free(x->pkg_path);
		free(x->freq_path);
		for (unsigned k = 0; k < MAX_IDLE; k++)
			free(x->idle_path[k]);
	}
	for (unsigned t = 0; t < iso->nthreads; t++)
		free(iso->threads[t].path);
	for (int k = 0; k < NCOUNTS; k++)
		free_counts(&iso->c[k]);
	rt_irqtab_free(&iso->irq);
	rt_irqtab_free(&iso->soft);
	free(iso->threads);
	free(iso->extra);
	free(iso->cpus);
	free(iso->buf);
	free(iso->sbuf);
	free(iso->irq_path);
	free(iso->soft_path);
	free(iso->root);
	free(iso);
}

static int measured_index(const struct rt_isolation *iso, int cpu)
{
	for (unsigned i = 0; i < iso->ncpus; i++)
		if (iso->cpus[i] == cpu)
			return (int)i;
	return -1;
}

int rt_isolation_add_thread(struct rt_isolation *iso, pid_t tgid, pid_t tid, int cpu)
{
	struct thread *t;

	if (iso->allocated)
		return -EBUSY;
	if (iso->nthreads == iso->cap_threads) {
		unsigned cap = iso->cap_threads ? 2 * iso->cap_threads : 8;

		if (!(t = realloc(iso->threads, cap * sizeof(*t))))
			return -ENOMEM;
		iso->threads = t;
		iso->cap_threads = cap;
	}
	t = &iso->threads[iso->nthreads];
	if (!(t->path = path_of(iso->root, "/proc/%d/task/%d/status", (int)tgid, (int)tid)))
		return -ENOMEM;
	t->cpu = cpu;
	t->idx = cpu >= 0 ? measured_index(iso, cpu) : -1;
	iso->nthreads++;
	return 0;
}

/* Read a table whole into *buf, growing it when it did not fit. */
static int read_table(const char *path, char **buf, size_t *size)
{
	ssize_t n;

	while ((n = read_file(path, *buf, *size)) == -EFBIG) {
		char *b = realloc(*buf, 2 * *size);

		if (!b)
			return -ENOMEM;
		*buf = b;
		*size *= 2;
	}
	return n < 0 ? (int)n : 0;
}

static int alloc_counts(struct rt_isolation *iso, struct counts *c)
{
	size_t n = iso->ncpus ? iso->ncpus : 1, t = iso->nthreads ? iso->nthreads : 1;

	c->irq = calloc(rt_irqtab_capacity(&iso->irq) * n, sizeof(*c->irq));
	c->soft = calloc(rt_irqtab_capacity(&iso->soft) * n, sizeof(*c->soft));
	c->irq_on = calloc(n, sizeof(bool));
	c->soft_on = calloc(n, sizeof(bool));
	c->ctx = calloc(2 * t, sizeof(*c->ctx));
	c->ctx_on = calloc(t, sizeof(bool));
	c->x = calloc(n * X_N, sizeof(*c->x));
	return c->irq && c->soft && c->irq_on && c->soft_on && c->ctx && c->ctx_on && c->x
	       ? 0 : -ENOMEM;
}

/* The first snapshot learns the tables' sources from what it read, then sizes every snapshot. */
static int learn(struct rt_isolation *iso)
{
	int err;

	if ((err = rt_irqtab_parse(&iso->irq, iso->buf, NULL, NULL)) ||
	    (err = rt_irqtab_parse(&iso->soft, iso->sbuf, NULL, NULL)))
		return err;
	for (int k = 0; k < NCOUNTS; k++)
		if ((err = alloc_counts(iso, &iso->c[k])))
			return err;
	iso->allocated = true;
	return 0;
}

static void read_ctx(struct rt_isolation *iso, struct counts *c)
{
	for (unsigned t = 0; t < iso->nthreads; t++) {
		const char *v, *nv;

		c->ctx_on[t] = false;
		if (read_file(iso->threads[t].path, iso->small, sizeof(iso->small)) < 0)
			continue;
		v = strstr(iso->small, "\nvoluntary_ctxt_switches:");
		nv = strstr(iso->small, "\nnonvoluntary_ctxt_switches:");
		c->ctx_on[t] = v && nv && number(v + 25, &c->ctx[2 * t]) &&
			       number(nv + 28, &c->ctx[2 * t + 1]);
	}
}

static void read_extra(struct rt_isolation *iso, struct counts *c)
{
	for (unsigned i = 0; i < iso->ncpus; i++) {
		struct cpu_extra *x = &iso->extra[i];
		uint64_t *row = c->x + (size_t)i * X_N, v;

		if (x->msr_fd >= 0 && !rt_smi_read(x->msr_fd, &v))
			row[X_SMI] = v;
		row[X_CORE] = read_number(iso, x->core_path);
		row[X_PKG] = read_number(iso, x->pkg_path);
		for (unsigned k = 0; k < x->nidle; k++)
			row[X_IDLE + k] = read_number(iso, x->idle_path[k]);
		if (x->freq_path && read_file(x->freq_path, iso->small, sizeof(iso->small)) >= 0)
			parse_freq(iso->small, NULL, row + X_FREQ, x->nfreq);
	}
}

static int snapshot(struct rt_isolation *iso, struct counts *c)
{
	int err;

	c->ok = false;
	if ((err = read_table(iso->irq_path, &iso->buf, &iso->buf_size)) ||
	    (err = read_table(iso->soft_path, &iso->sbuf, &iso->sbuf_size)) ||
	    (!iso->allocated && (err = learn(iso))) ||
	    (err = rt_irqtab_parse(&iso->irq, iso->buf, c->irq, c->irq_on)) ||
	    (err = rt_irqtab_parse(&iso->soft, iso->sbuf, c->soft, c->soft_on)))
		return err;
	read_ctx(iso, c);
	read_extra(iso, c);
	c->ok = true;
	return 0;
}

/*
 * b - a of a counter. The kernel's per-CPU interrupt counts are 32 bits: a
 * value far back near 2^32 wrapped; any other step back (an IRQ freed and
 * requested again) counts nothing.
 */
static uint64_t diff(uint64_t a, uint64_t b)
{
	if (b >= a)
		return b - a;
	if (a <= UINT32_MAX && a - b > (1ULL << 31))
		return b + (1ULL << 32) - a;
	return 0;
}

static void subtract(const struct rt_isolation *iso, const struct counts *a, const struct counts *b,
		     struct counts *d)
{
	size_t n = iso->ncpus;

	d->ok = a->ok && b->ok;
	if (!d->ok)
		return;
	for (size_t i = 0; i < n; i++) {
		d->irq_on[i] = a->irq_on[i] && b->irq_on[i];
		d->soft_on[i] = a->soft_on[i] && b->soft_on[i];
	}
	for (size_t k = 0; k < rt_irqtab_capacity(&iso->irq) * n; k++)
		d->irq[k] = d->irq_on[k % n] ? diff(a->irq[k], b->irq[k]) : 0;
	for (size_t k = 0; k < rt_irqtab_capacity(&iso->soft) * n; k++)
		d->soft[k] = d->soft_on[k % n] ? diff(a->soft[k], b->soft[k]) : 0;
	for (unsigned t = 0; t < iso->nthreads; t++) {
		d->ctx_on[t] = a->ctx_on[t] && b->ctx_on[t];
		d->ctx[2 * t] = d->ctx_on[t] ? diff(a->ctx[2 * t], b->ctx[2 * t]) : 0;
		d->ctx[2 * t + 1] = d->ctx_on[t] ? diff(a->ctx[2 * t + 1], b->ctx[2 * t + 1]) : 0;
	}
	for (size_t k = 0; k < n * X_N; k++)
		d->x[k] = diff(a->x[k], b->x[k]);
}

static void copy_counts(const struct rt_isolation *iso, const struct counts *from, struct counts *to)
{
	size_t n = iso->ncpus, t = iso->nthreads;

	memcpy(to->irq, from->irq, rt_irqtab_capacity(&iso->irq) * n * sizeof(*to->irq));
	memcpy(to->soft, from->soft, rt_irqtab_capacity(&iso->soft) * n * sizeof(*to->soft));
	memcpy(to->irq_on, from->irq_on, n * sizeof(bool));
	memcpy(to->soft_on, from->soft_on, n * sizeof(bool));
	memcpy(to->ctx, from->ctx, 2 * t * sizeof(*to->ctx));
	memcpy(to->ctx_on, from->ctx_on, t * sizeof(bool));
	memcpy(to->x, from->x, n * X_N * sizeof(*to->x));
	to->ok = from->ok;
}

int rt_isolation_start(struct rt_isolation *iso)
{
	int err = snapshot(iso, &iso->c[S_START]);

	if (!err)
		copy_counts(iso, &iso->c[S_START], &iso->c[S_MARK]);
	return err;
}

int rt_isolation_mark_window(struct rt_isolation *iso)
{
	int err;

	if (!iso->allocated)
		return -EINVAL;
	err = snapshot(iso, &iso->c[S_NOW]);
	subtract(iso, &iso->c[S_MARK], &iso->c[S_NOW], &iso->c[D_WINDOW]);
	if (!err)
		copy_counts(iso, &iso->c[S_NOW], &iso->c[S_MARK]);
	return err;
}

int rt_isolation_end(struct rt_isolation *iso)
{
	int err;

	if (!iso->allocated)
		return -EINVAL;
	err = snapshot(iso, &iso->c[S_END]);
	subtract(iso, &iso->c[S_START], &iso->c[S_END], &iso->c[D_RUN]);
	subtract(iso, &iso->c[S_MARK], &iso->c[S_END], &iso->c[D_LAST]);
	return err;
}

static const struct counts *span_counts(const struct rt_isolation *iso, enum rt_isolation_span s)
{
	const struct counts *c;

	if (!iso || !iso->allocated)
		return NULL;
	c = &iso->c[s == RT_ISOLATION_RUN ? D_RUN : s == RT_ISOLATION_WINDOW ? D_WINDOW : D_LAST];
	return c->ok ? c : NULL;
}

/* Sum of a table's column i (i < 0: every measured CPU's). */
static uint64_t table_sum(const struct rt_isolation *iso, const struct rt_irqtab *t,
			  const uint64_t *v, int i)
{
	uint64_t sum = 0;

	for (unsigned s = 0; s < t->nsrc; s++)
		for (unsigned k = 0; k < iso->ncpus; k++)
			if (i < 0 || (unsigned)i == k)
				sum += v[(size_t)s * iso->ncpus + k];
	return sum;
}

static void json_table(struct rt_json *j, const char *key, const char *by,
		       const struct rt_isolation *iso, const struct rt_irqtab *t,
		       const uint64_t *v, int i)
{
	rt_json_object_begin(j, key);
	rt_json_uint(j, "total", table_sum(iso, t, v, i));
	rt_json_object_begin(j, by);
	for (unsigned s = 0; s < t->nsrc; s++) {
		uint64_t n = 0;

		for (unsigned k = 0; k < iso->ncpus; k++)
			if (i < 0 || (unsigned)i == k)
				n += v[(size_t)s * iso->ncpus + k];
		if (n)
			rt_json_uint(j, t->src[s].name, n);
	}
	rt_json_object_end(j);
	rt_json_object_end(j);
}

/* The context switches of the threads on measured CPU i (i < 0: all threads). */
static void ctx_sums(const struct rt_isolation *iso, const struct counts *c, int i, uint64_t *vol,
		     uint64_t *invol, unsigned *threads)
{
	*vol = *invol = 0;
	*threads = 0;
	for (unsigned t = 0; t < iso->nthreads; t++) {
		if (i >= 0 && iso->threads[t].idx != i)
			continue;
		(*threads)++;
		*vol += c->ctx[2 * t];
		*invol += c->ctx[2 * t + 1];
	}
}

static void json_ctx(struct rt_json *j, const struct rt_isolation *iso, const struct counts *c,
		     int i)
{
	uint64_t vol, invol;
	unsigned threads;

	ctx_sums(iso, c, i, &vol, &invol, &threads);
	rt_json_object_begin(j, "context_switches");
	rt_json_uint(j, "threads", threads);
	rt_json_uint(j, "voluntary", vol);
	rt_json_uint(j, "involuntary", invol);
	rt_json_object_end(j);
}

static void json_extra(struct rt_json *j, const struct cpu_extra *x, const uint64_t *row)
{
	char key[32];

	if (x->msr_fd >= 0)
		rt_json_uint(j, "smi", row[X_SMI]);
	else
		rt_json_null(j, "smi");
	if (x->core_path || x->pkg_path) {
		rt_json_object_begin(j, "thermal_throttle");
		rt_json_uint(j, "core", row[X_CORE]);
		rt_json_uint(j, "package", row[X_PKG]);
		rt_json_object_end(j);
	} else {
		rt_json_null(j, "thermal_throttle");
	}
	if (x->nidle) {
		rt_json_object_begin(j, "idle_time_us");
		for (unsigned k = 0; k < x->nidle; k++)
			rt_json_uint(j, x->idle_name[k], row[X_IDLE + k]);
		rt_json_object_end(j);
	} else {
		rt_json_null(j, "idle_time_us");
	}
	if (x->nfreq) {
		rt_json_object_begin(j, "freq_time_ms");
		for (unsigned k = 0; k < x->nfreq; k++) {
			snprintf(key, sizeof(key), "%" PRIu64, x->freq_khz[k]);
			rt_json_uint(j, key, row[X_FREQ + k] * FREQ_UNIT_MS);
		}
		rt_json_object_end(j);
	} else {
		rt_json_null(j, "freq_time_ms");
	}
}

void rt_isolation_write_json(struct rt_json *j, const struct rt_isolation *iso,
			     enum rt_isolation_span span)
{
	const struct counts *c = span_counts(iso, span);
	uint64_t smi = 0;
	bool any_smi = false;

	if (!c) {
		rt_json_null(j, "isolation");
		return;
	}
	rt_json_object_begin(j, "isolation");
	rt_json_array_begin(j, "cpus");
	for (unsigned i = 0; i < iso->ncpus; i++) {
		const struct cpu_extra *x = &iso->extra[i];

		rt_json_object_begin(j, NULL);
		rt_json_int(j, "cpu", iso->cpus[i]);
		if (c->irq_on[i])
			json_table(j, "interrupts", "by_source", iso, &iso->irq, c->irq, (int)i);
		else
			rt_json_null(j, "interrupts");
		if (c->soft_on[i])
			json_table(j, "softirqs", "by_kind", iso, &iso->soft, c->soft, (int)i);
		else
			rt_json_null(j, "softirqs");
		json_ctx(j, iso, c, (int)i);
		json_extra(j, x, c->x + (size_t)i * X_N);
		rt_json_object_end(j);
		if (x->msr_fd >= 0) {
			any_smi = true;
			smi += c->x[(size_t)i * X_N + X_SMI];
		}
	}
	rt_json_array_end(j);
	rt_json_object_begin(j, "total");
	json_table(j, "interrupts", "by_source", iso, &iso->irq, c->irq, -1);
	json_table(j, "softirqs", "by_kind", iso, &iso->soft, c->soft, -1);
	json_ctx(j, iso, c, -1);
	if (any_smi)
		rt_json_uint(j, "smi", smi);
	else
		rt_json_null(j, "smi");
	rt_json_object_end(j);
	rt_json_object_end(j);
}

int rt_isolation_sums(const struct rt_isolation *iso, enum rt_isolation_span span, int cpu,
		      struct rt_isolation_sums *out)
{
	const struct counts *c = span_counts(iso, span);
	int i = cpu < 0 ? -1 : measured_index(iso, cpu);
	unsigned threads;

	memset(out, 0, sizeof(*out));
	if (!c)
		return -ENODATA;
	if (cpu >= 0 && i < 0)
		return -ENOENT;
	out->known = i < 0 || (c->irq_on[i] && c->soft_on[i]);
	out->interrupts = table_sum(iso, &iso->irq, c->irq, i);
	out->softirqs = table_sum(iso, &iso->soft, c->soft, i);
	ctx_sums(iso, c, i, &out->voluntary, &out->involuntary, &threads);
	return 0;
}

/* " (nvme0q2 1190, LOC 13)": the largest sources of column i, most first. */
static void text_top(FILE *out, const struct rt_isolation *iso, const struct rt_irqtab *t,
		     const uint64_t *v, unsigned i)
{
	unsigned shown[TOP_SOURCES];
	unsigned n = 0;

	for (; n < TOP_SOURCES; n++) {
		uint64_t best = 0;
		unsigned pick = 0;

		for (unsigned s = 0; s < t->nsrc; s++) {
			uint64_t c = v[(size_t)s * iso->ncpus + i];
			bool taken = false;

			for (unsigned k = 0; k < n; k++)
				taken |= shown[k] == s;
			if (!taken && c > best) {
				best = c;
				pick = s;
			}
		}
		if (!best)
			break;
		shown[n] = pick;
		fprintf(out, "%s%s %" PRIu64, n ? ", " : " (", t->src[pick].name, best);
	}
	if (n)
		fputc(')', out);
}

void rt_isolation_write_text(FILE *out, const struct rt_isolation *iso)
{
	const struct counts *c = span_counts(iso, RT_ISOLATION_RUN);
	struct rt_isolation_sums all;
	unsigned threads;
	uint64_t vol, invol;

	if (!c)
		return;
	for (unsigned i = 0; i < iso->ncpus; i++) {
		const struct cpu_extra *x = &iso->extra[i];
		const uint64_t *row = c->x + (size_t)i * X_N;

		fprintf(out, "# Isolation: CPU %d: ", iso->cpus[i]);
		if (c->irq_on[i]) {
			fprintf(out, "%" PRIu64 " interrupts", table_sum(iso, &iso->irq, c->irq, (int)i));
			text_top(out, iso, &iso->irq, c->irq, i);
		} else {
			fputs("interrupts not known (CPU offline)", out);
		}
		if (c->soft_on[i]) {
			fprintf(out, ", %" PRIu64 " softirqs", table_sum(iso, &iso->soft, c->soft, (int)i));
			text_top(out, iso, &iso->soft, c->soft, i);
		}
		ctx_sums(iso, c, (int)i, &vol, &invol, &threads);
		if (threads)
			fprintf(out, ", %" PRIu64 " involuntary switches", invol);
		if (x->msr_fd >= 0)
			fprintf(out, ", %" PRIu64 " SMIs", row[X_SMI]);
		if (row[X_CORE] + row[X_PKG])
			fprintf(out, ", %" PRIu64 " thermal throttling events", row[X_CORE] + row[X_PKG]);
		fputc('\n', out);
	}
	rt_isolation_sums(iso, RT_ISOLATION_RUN, -1, &all);
	fprintf(out, "# Isolation: all measured CPUs: %" PRIu64 " interrupts, %" PRIu64
		" softirqs; %u thread%s: %" PRIu64 " voluntary, %" PRIu64 " involuntary switches\n",
		all.interrupts, all.softirqs, iso->nthreads, iso->nthreads == 1 ? "" : "s", all.voluntary, all.involuntary);
}
