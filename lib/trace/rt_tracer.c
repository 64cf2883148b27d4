// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_instance.h"
#include "rt_tracer.h"

#ifndef HAVE_TRACEFS

bool rt_tracer_built(void)
{
	return false;
}

int rt_tracer_load(const char **why)
{
	*why = "built without libtracefs/libtraceevent";
	return -ENOTSUP;
}

int rt_tracer_open(struct rt_tracer **out, const char *tool, const cpu_set_t *cpus,
		   size_t buffer_kb, unsigned flags, const char **why)
{
	(void)tool;
	(void)cpus;
	(void)buffer_kb;
	(void)flags;
	*out = NULL;
	*why = "built without libtracefs/libtraceevent";
	return -ENOTSUP;
}

const char *rt_tracer_events(const struct rt_tracer *t)
{
	(void)t;
	return "";
}

int rt_tracer_stop(struct rt_tracer *t)
{
	(void)t;
	return -ENOTSUP;
}

int rt_tracer_filter_pid(struct rt_tracer *t, int pid)
{
	(void)t;
	(void)pid;
	return -ENOTSUP;
}

int rt_tracer_restart(struct rt_tracer *t)
{
	(void)t;
	return -ENOTSUP;
}

int rt_tracer_read(struct rt_tracer *t, int64_t from_ns, int64_t to_ns, struct rt_ev **ev,
		   size_t *n)
{
	(void)t;
	(void)from_ns;
	(void)to_ns;
	*ev = NULL;
	*n = 0;
	return -ENOTSUP;
}

int rt_tracer_consume(struct rt_tracer *t, struct rt_ev **ev, size_t *n)
{
	(void)t;
	*ev = NULL;
	*n = 0;
	return -ENOTSUP;
}

void rt_tracer_close(struct rt_tracer *t)
{
	(void)t;
}

void rt_tracer_clean_stale(const char *tool)
{
	(void)tool;
}

#else /* HAVE_TRACEFS */

#include <dlfcn.h>
#include <pthread.h>

#include <tracefs.h>
#include <event-parse.h>

/*
 * What this file calls of the two libraries, resolved by rt_tracer_load: no
 * tool links them, so a run without --analyze or --self-check does not pay
 * for loading them at start-up (about 2.7 ms of CPU and 30 page faults).
 */
#define TRACEFS_FUNCS(F)                                                                          \
	F(tracefs_tracing_dir)                                                                    \
	F(tracefs_instance_alloc)                                                                 \
	F(tracefs_instance_destroy)                                                               \
	F(tracefs_instance_free)                                                                  \
	F(tracefs_instance_file_write)                                                            \
	F(tracefs_instance_file_read)                                                             \
	F(tracefs_instance_file_clear)                                                            \
	F(tracefs_instance_set_buffer_size)                                                       \
	F(tracefs_instance_set_affinity_set)                                                      \
	F(tracefs_event_file_exists)                                                              \
	F(tracefs_event_file_read)                                                                \
	F(tracefs_event_file_write)                                                               \
	F(tracefs_event_enable)                                                                   \
	F(tracefs_iterate_raw_events)                                                             \
	F(tracefs_trace_on)                                                                       \
	F(tracefs_trace_off)
#define TRACEEVENT_FUNCS(F)                                                                       \
	F(tep_alloc)                                                                              \
	F(tep_parse_header_page)                                                                  \
	F(tep_parse_event)                                                                        \
	F(tep_get_field_val)                                                                      \
	F(tep_get_field_raw)                                                                      \
	F(tep_data_pid)                                                                           \
	F(tep_free)

/* Pointers of the headers' own types: a changed prototype fails to compile. */
static struct {
#define RT_TRACER_FN(name) __typeof__(name) *name;
	TRACEFS_FUNCS(RT_TRACER_FN)
	TRACEEVENT_FUNCS(RT_TRACER_FN)
#undef RT_TRACER_FN
} lib;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_err;
static char load_why[256];

/* "needs SONAME: " and dlerror() without its leading "PATH-OF-SONAME: ". */
static int load_failed(const char *soname)
{
	const char *msg = dlerror(), *colon;

	if (!msg)
		msg = "cannot be loaded";
	colon = strstr(msg, ": ");
	if (colon && memmem(msg, (size_t)(colon - msg), soname, strlen(soname)))
		msg = colon + 2;
	snprintf(load_why, sizeof(load_why), "needs %s: %s", soname, msg);
	return -ELIBACC;
}

/* Handles stay open for the life of the process, as a linked library would. */
#define RT_TRACER_SYM(name)                                                                       \
	if (!(lib.name = (__typeof__(lib.name))dlsym(h, #name)))                                  \
		return load_failed(soname);

static int load_tracefs(void)
{
	const char *soname = RT_LIBTRACEFS_SONAME;
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return load_failed(soname);
	TRACEFS_FUNCS(RT_TRACER_SYM)
	return 0;
}

static int load_traceevent(void)
{
	const char *soname = RT_LIBTRACEEVENT_SONAME;
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return load_failed(soname);
	TRACEEVENT_FUNCS(RT_TRACER_SYM)
	return 0;
}

#undef RT_TRACER_SYM

static void load(void)
{
	load_err = load_tracefs();
	if (!load_err)
		load_err = load_traceevent();
}

int rt_tracer_load(const char **why)
{
	pthread_once(&load_once, load);
	if (load_err)
		*why = load_why;
	return load_err;
}

/* system, event, our type, and the flag that asks for it (0: always) */
static const struct {
	const char *system, *event;
	enum rt_ev_type type;
	unsigned flag;
} events[] = {
	{ "sched", "sched_switch", RT_EV_SWITCH, 0 },
	{ "sched", "sched_wakeup", RT_EV_WAKEUP, 0 },
	{ "sched", "sched_wakeup_new", RT_EV_WAKEUP, 0 },
	{ "sched", "sched_process_exec", RT_EV_EXEC, 0 },
	{ "irq", "irq_handler_entry", RT_EV_IRQ_ENTRY, 0 },
	{ "irq", "irq_handler_exit", RT_EV_IRQ_EXIT, 0 },
	{ "irq", "softirq_entry", RT_EV_SOFTIRQ_ENTRY, 0 },
	{ "irq", "softirq_exit", RT_EV_SOFTIRQ_EXIT, 0 },
	{ "irq_vectors", "local_timer_entry", RT_EV_TIMER_IRQ_ENTRY, 0 },
	{ "irq_vectors", "local_timer_exit", RT_EV_TIMER_IRQ_EXIT, 0 },
	{ "timer", "hrtimer_expire_entry", RT_EV_HRTIMER_ENTRY, 0 },
	{ "timer", "hrtimer_expire_exit", RT_EV_HRTIMER_EXIT, 0 },
	{ "timer", "hrtimer_start", RT_EV_HRTIMER_START, RT_TRACER_ARMING },
	{ "raw_syscalls", "sys_exit", RT_EV_SYS_EXIT, RT_TRACER_ARMING },
	{ "power", "cpu_idle", RT_EV_IDLE, 0 }, /* the idle state a late timer found */
};
#define NEVENTS (sizeof(events) / sizeof(events[0]))

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

struct rt_tracer {
	struct tracefs_instance *inst;
	int inst_lock_fd;           /* held while the instance exists (rt_instance.h) */
	struct tep_handle *tep;
	char enabled[512];          /* "sched_switch sched_wakeup ..." */
	cpu_set_t cpus;             /* the traced CPUs */
	uint64_t lost[CPU_SETSIZE]; /* per CPU: overrun + dropped events seen so far */
};

bool rt_tracer_built(void)
{
	return true;
}

static int fail(const char **why, const char *step)
{
	int err = errno ? -errno : -EIO;

	*why = step;
	return err;
}

/*
 * The parser of what the instance records: the page header and the formats
 * of the enabled events. tracefs_local_events_system() parses every event
 * of the systems and loads /proc/kallsyms too, which nothing here uses;
 * it reads in 8 KiB steps, each a realloc, and under ASan the 5 MB table
 * took 14 s of every start.
 */
static int read_formats(struct rt_tracer *t, const bool *enabled, const char **why)
{
	char *text;
	int size, bad;

	errno = 0;
	if (!(t->tep = lib.tep_alloc()))
		return fail(why, "reading the event formats");
	text = lib.tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!text)
		return fail(why, "reading events/header_page");
	bad = lib.tep_parse_header_page(t->tep, text, (unsigned long)size, (int)sizeof(long));
	free(text);
	if (bad) {
		*why = "parsing events/header_page";
		return -EINVAL;
	}
	for (size_t i = 0; i < NEVENTS; i++) {
		if (!enabled[i])
			continue;
		errno = 0;
		text = lib.tracefs_event_file_read(t->inst, events[i].system, events[i].event,
						   "format", &size);
		if (!text)
			return fail(why, "reading the event formats");
		bad = lib.tep_parse_event(t->tep, text, (unsigned long)size, events[i].system) != 0;
		free(text);
		if (bad) {
			*why = "parsing the event formats";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The locked instance directory and libtracefs' handle of it. 0 or -errno,
 * with *why set and the directory removed again.
 */
static int create_instance(struct rt_tracer *t, const char *tool, const char **why)
{
	char name[64];
	int err;

	err = rt_instance_create(lib.tracefs_tracing_dir(), tool, name, sizeof(name), &t->inst_lock_fd);
	if (err) {
		*why = err == -EEXIST ? "creating the tracefs instance: one of this name exists "
					"and is not ours"
				      : "creating the tracefs instance";
		return err;
	}
	errno = 0;
	t->inst = lib.tracefs_instance_alloc(NULL, name);
	if (!t->inst) {
		err = fail(why, "creating the tracefs instance");
		rt_instance_remove(lib.tracefs_tracing_dir(), name, t->inst_lock_fd);
		return err;
	}
	return 0;
}

/* Trace clock, buffer size and CPUs (NULL: all), set while the trace is off. */
static int configure_instance(struct rt_tracer *t, const cpu_set_t *cpus, size_t buffer_kb,
			      const char **why)
{
	/* Off while it is set up, so the buffer starts with our settings. */
	lib.tracefs_trace_off(t->inst);
	if (lib.tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0)
		return fail(why, "setting the mono trace clock");
	if (lib.tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1) < 0)
		return fail(why, "setting the buffer size");
	if (cpus)
		t->cpus = *cpus;
	else
		for (int c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, &t->cpus);
	if (cpus && lib.tracefs_instance_set_affinity_set(t->inst, (cpu_set_t *)cpus, sizeof(*cpus)) < 0)
		return fail(why, "setting the traced CPUs");
	return 0;
}

/*
 * The events flags asks for that the kernel has: enabled[i] and their names
 * in t->enabled. sched_switch is needed; 0 or -errno with *why set.
 */
static int enable_events(struct rt_tracer *t, unsigned flags, bool *enabled, const char **why)
{
	for (size_t i = 0; i < NEVENTS; i++) {
		if (events[i].flag && !(flags & events[i].flag))
			continue;
		if (!lib.tracefs_event_file_exists(t->inst, events[i].system, events[i].event, "enable"))
			continue;
		if (lib.tracefs_event_enable(t->inst, events[i].system, events[i].event) < 0)
			return fail(why, "enabling the events");
		enabled[i] = true;
		if (t->enabled[0])
			strncat(t->enabled, " ", sizeof(t->enabled) - strlen(t->enabled) - 1);
		strncat(t->enabled, events[i].event, sizeof(t->enabled) - strlen(t->enabled) - 1);
	}
	if (!strstr(t->enabled, "sched_switch")) {
		*why = "the kernel has no sched_switch event";
		return -ENOTSUP;
	}
	return 0;
}

int rt_tracer_open(struct rt_tracer **out, const char *tool, const cpu_set_t *cpus,
		   size_t buffer_kb, unsigned flags, const char **why)
{
	bool enabled[NEVENTS] = { false };
	struct rt_tracer *t;
	int err;

	*out = NULL;
	err = rt_tracer_load(why);
	if (err)
		return err;
	if (!lib.tracefs_tracing_dir()) {
		*why = "tracefs is not mounted and cannot be mounted";
		return -ENODEV;
	}
	rt_tracer_clean_stale(tool);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	if ((err = create_instance(t, tool, why))) {
		free(t);
		return err;
	}
	if ((err = configure_instance(t, cpus, buffer_kb, why)) ||
	    (err = enable_events(t, flags, enabled, why)) || (err = read_formats(t, enabled, why)))
		goto out;
	if (lib.tracefs_trace_on(t->inst) < 0) {
		err = fail(why, "starting the trace");
		goto out;
	}
	*out = t;
	return 0;
out:
	rt_tracer_close(t);
	return err;
}

const char *rt_tracer_events(const struct rt_tracer *t)
{
	return t->enabled;
}

int rt_tracer_stop(struct rt_tracer *t)
{
	return lib.tracefs_trace_off(t->inst) < 0 ? -EIO : 0;
}

int rt_tracer_filter_pid(struct rt_tracer *t, int pid)
{
	char filter[32];

	snprintf(filter, sizeof(filter), "common_pid == %d", pid);
	for (size_t i = 0; i < NEVENTS; i++)
		if (events[i].flag && strstr(t->enabled, events[i].event) &&
		    lib.tracefs_event_file_write(t->inst, events[i].system, events[i].event, "filter",
					     filter) < 0)
			return errno ? -errno : -EIO;
	return 0;
}

int rt_tracer_restart(struct rt_tracer *t)
{
	lib.tracefs_trace_off(t->inst);
	lib.tracefs_instance_file_clear(t->inst, "trace");
	return lib.tracefs_trace_on(t->inst) < 0 ? -EIO : 0;
}

struct reader {
	struct rt_tracer *t;
	int64_t from, to;
	struct rt_ev *ev;
	size_t n, cap;
	int err;
};

static long long field(struct tep_event *e, struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	if (lib.tep_get_field_val(NULL, e, name, r, &v, 0) < 0)
		return -1;
	return (long long)v;
}

static void field_str(struct tep_event *e, struct tep_record *r, const char *name, char *buf,
		      size_t len)
{
	int n = 0;
	const char *p = lib.tep_get_field_raw(NULL, e, name, r, &n, 0);

	if (!p || n <= 0) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%.*s", n, p);
}

static int type_of(const struct tep_event *e)
{
	for (size_t i = 0; i < NEVENTS; i++)
		if (strcmp(e->name, events[i].event) == 0 && strcmp(e->system, events[i].system) == 0)
			return (int)events[i].type;
	return -1;
}

/* Room for one more event in rd->ev: 0, or -ENOMEM with rd untouched. */
static int grow(struct reader *rd)
{
	size_t cap = rd->cap ? 2 * rd->cap : 4096;
	struct rt_ev *m = realloc(rd->ev, cap * sizeof(*m));

	if (!m)
		return -ENOMEM;
	rd->ev = m;
	rd->cap = cap;
	return 0;
}

static void read_switch(struct tep_event *e, struct tep_record *r, struct rt_ev *ev)
{
	ev->pid = (int)field(e, r, "next_pid");
	ev->prio = (int)field(e, r, "next_prio");
	field_str(e, r, "next_comm", ev->comm, sizeof(ev->comm));
	ev->prev_pid = (int)field(e, r, "prev_pid");
	ev->prev_prio = (int)field(e, r, "prev_prio");
	/* TASK_RUNNING is 0; bits above the reported states mark a preemption */
	ev->prev_runnable = (field(e, r, "prev_state") & 0xff) == 0;
	field_str(e, r, "prev_comm", ev->prev_comm, sizeof(ev->prev_comm));
}

static void read_exec(struct tep_event *e, struct tep_record *r, struct rt_ev *ev)
{
	char file[256];
	const char *base;

	ev->pid = (int)field(e, r, "pid");
	field_str(e, r, "filename", file, sizeof(file));
	base = strrchr(file, '/');
	/* the new comm: the file's name, as the kernel cuts it */
	snprintf(ev->comm, sizeof(ev->comm), "%.*s", (int)sizeof(ev->comm) - 1,
		 base ? base + 1 : file);
}

/* The fields of ev's kind: one switch over the event kinds, read as one. */
static void read_fields(struct tep_handle *tep, struct tep_event *e, struct tep_record *r,
			struct rt_ev *ev)
{
	switch (ev->type) {
	case RT_EV_SWITCH:
		read_switch(e, r, ev);
		break;
	case RT_EV_WAKEUP:
		ev->pid = (int)field(e, r, "pid");
		ev->prio = (int)field(e, r, "prio");
		ev->target_cpu = (int)field(e, r, "target_cpu");
		ev->has_target = ev->target_cpu >= 0;
		field_str(e, r, "comm", ev->comm, sizeof(ev->comm));
		break;
	case RT_EV_IRQ_ENTRY:
		field_str(e, r, "name", ev->name, sizeof(ev->name));
		/* fall through */
	case RT_EV_IRQ_EXIT:
		ev->irq = (int)field(e, r, "irq");
		break;
	case RT_EV_HRTIMER_START:
		ev->expires = (int64_t)field(e, r, "softexpires"); /* what was asked, before slack */
		/* fall through */
	case RT_EV_SYS_EXIT:
		ev->pid = lib.tep_data_pid(tep, r);
		break;
	case RT_EV_EXEC:
		read_exec(e, r, ev);
		break;
	case RT_EV_IDLE:
		ev->irq = (int)field(e, r, "state"); /* (u32)-1 on the way out */
		break;
	case RT_EV_SOFTIRQ_ENTRY:
	case RT_EV_SOFTIRQ_EXIT:
		ev->irq = (int)field(e, r, "vec");
		if (ev->irq >= 0 && ev->irq < (int)(sizeof(softirq_names) / sizeof(softirq_names[0])))
			snprintf(ev->name, sizeof(ev->name), "%s", softirq_names[ev->irq]);
		break;
	default:
		break;
	}
}

/* libtraceevent's callback per record: the events in [from, to] of our kinds. */
static int take(struct tep_event *e, struct tep_record *r, int cpu, void *arg)
{
	struct reader *rd = arg;
	struct rt_ev *ev;
	int type = type_of(e);

	if ((int64_t)r->ts < rd->from || (int64_t)r->ts > rd->to || type < 0)
		return 0;
	if (rd->n == rd->cap && grow(rd)) {
		rd->err = -ENOMEM;
		return 1; /* stop */
	}
	ev = &rd->ev[rd->n++];
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = (int64_t)r->ts;
	ev->cpu = cpu;
	ev->type = (enum rt_ev_type)type;
	ev->cur_pid = lib.tep_data_pid(rd->t->tep, r);
	ev->cur_known = ev->cur_pid >= 0;
	read_fields(rd->t->tep, e, r, ev);
	return 0;
}

static int append_lost(struct reader *rd, int cpu, int64_t ts)
{
	struct rt_ev *m = realloc(rd->ev, (rd->n + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	rd->ev = m;
	m[rd->n++] = (struct rt_ev){ .ts_ns = ts, .cpu = cpu, .type = RT_EV_LOST, .cur_pid = -1 };
	return 0;
}

static int by_ts(const void *a, const void *b)
{
	int64_t x = ((const struct rt_ev *)a)->ts_ns, y = ((const struct rt_ev *)b)->ts_ns;

	return (x > y) - (x < y);
}

int rt_tracer_read(struct rt_tracer *t, int64_t from_ns, int64_t to_ns, struct rt_ev **ev,
		   size_t *n)
{
	struct reader rd = { .t = t, .from = from_ns, .to = to_ns };

	if (lib.tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, take, &rd) < 0 && !rd.err)
		rd.err = -EIO;
	if (rd.err) {
		free(rd.ev);
		return rd.err;
	}
	/* Per-CPU buffers come in CPU order: one timeline for the analysis. */
	if (rd.n)
		qsort(rd.ev, rd.n, sizeof(*rd.ev), by_ts);
	*ev = rd.ev;
	*n = rd.n;
	return 0;
}

/* Events the kernel lost on cpu so far: "overrun" and "dropped events" of its stats. */
static uint64_t lost_so_far(struct rt_tracer *t, int cpu)
{
	static const char *const keys[] = { "overrun:", "dropped events:" };
	char file[64], *text, *p;
	uint64_t total = 0;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	text = lib.tracefs_instance_file_read(t->inst, file, NULL);
	if (!text)
		return t->lost[cpu];
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		for (p = text; (p = strstr(p, keys[k])); p++)
			if (p == text || p[-1] == '\n')
				break;
		if (p)
			total += strtoull(p + strlen(keys[k]), NULL, 10);
	}
	free(text);
	return total;
}

int rt_tracer_consume(struct rt_tracer *t, struct rt_ev **ev, size_t *n)
{
	struct reader rd = { .t = t, .from = INT64_MIN, .to = INT64_MAX };
	struct timespec now;
	int err = 0;

	if (lib.tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, take, &rd) < 0 && !rd.err)
		rd.err = -EIO;
	if (rd.err) {
		free(rd.ev);
		return rd.err;
	}
	if (rd.n)
		qsort(rd.ev, rd.n, sizeof(*rd.ev), by_ts);
	clock_gettime(CLOCK_MONOTONIC, &now);
	for (int cpu = 0; cpu < CPU_SETSIZE && !err; cpu++) {
		uint64_t lost;
		int64_t at = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;

		if (!CPU_ISSET(cpu, &t->cpus))
			continue;
		lost = lost_so_far(t, cpu);
		if (lost == t->lost[cpu])
			continue;
		t->lost[cpu] = lost;
		/* The loss came before what this read found of the CPU. */
		for (size_t i = 0; i < rd.n; i++)
			if (rd.ev[i].cpu == cpu) {
				at = rd.ev[i].ts_ns - 1;
				break;
			}
		err = append_lost(&rd, cpu, at);
	}
	if (err) {
		free(rd.ev);
		return err;
	}
	if (rd.n)
		qsort(rd.ev, rd.n, sizeof(*rd.ev), by_ts);
	*ev = rd.ev;
	*n = rd.n;
	return 0;
}

void rt_tracer_close(struct rt_tracer *t)
{
	if (!t)
		return;
	if (t->inst) {
		lib.tracefs_trace_off(t->inst);
		lib.tracefs_instance_destroy(t->inst);
		lib.tracefs_instance_free(t->inst);
		close(t->inst_lock_fd); /* after the removal: no cleaner races us */
	}
	if (t->tep)
		lib.tep_free(t->tep);
	free(t);
}

void rt_tracer_clean_stale(const char *tool)
{
	const char *why;

	if (rt_tracer_load(&why) == 0)
		rt_instance_clean_stale(lib.tracefs_tracing_dir(), tool);
}

#endif
