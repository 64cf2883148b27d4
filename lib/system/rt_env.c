// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_isolation_preflight.h"

#define RT_ENV_FILE_MAX 4096
#define RT_ENV_MAX_IDLE_STATES 64

/*
 * The file's first RT_ENV_FILE_MAX bytes into buf (RT_ENV_FILE_MAX + 1
 * long) without trailing white space: its length, or -errno. One open and,
 * for the small files of /proc and /sys, one read: a short read is the end.
 */
static ssize_t read_into(const char *root, const char *rel, char *buf)
{
	char path[PATH_MAX];
	size_t n = 0;
	int fd, err = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", root, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	while (n < RT_ENV_FILE_MAX) {
		size_t want = RT_ENV_FILE_MAX - n;
		ssize_t r = read(fd, buf + n, want);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		n += (size_t)r;
		if ((size_t)r < want)
			break;
	}
	close(fd);
	if (err)
		return err;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return (ssize_t)n;
}

/* The same as a string of its own, or NULL with *err the errno (may be NULL). */
static char *vread_text(const char *root, int *err, const char *fmt, va_list ap)
{
	char rel[PATH_MAX], buf[RT_ENV_FILE_MAX + 1], *s;
	ssize_t n;

	vsnprintf(rel, sizeof(rel), fmt, ap);
	if ((n = read_into(root, rel, buf)) < 0) {
		if (err)
			*err = (int)-n;
		return NULL;
	}
	if (!(s = strndup(buf, (size_t)n)) && err)
		*err = ENOMEM;
	return s;
}

static char *read_text(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *read_text(const char *root, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vread_text(root, NULL, fmt, ap);
	va_end(ap);
	return s;
}

static char *read_text_err(const char *root, int *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static char *read_text_err(const char *root, int *err, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vread_text(root, err, fmt, ap);
	va_end(ap);
	return s;
}

static int64_t read_int(const char *root, const char *path, int64_t missing)
{
	char buf[RT_ENV_FILE_MAX + 1], *end;
	long long v;

	if (read_into(root, path, buf) < 0)
		return missing;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		v = missing;
	return v;
}

/* The CPUs of a sysfs list ("0-3,8"); NULL for an empty or bad one. */
static struct bitmask *cpu_set(const char *list)
{
	return list && *list && strcmp(list, "(null)") ? numa_parse_cpustring_all(list) : NULL;
}

static int count_list(const char *list)
{
	struct bitmask *b;
	int n;

	if (!list)
		return -1;
	if (!(b = cpu_set(list)))
		return 0;
	n = (int)numa_bitmask_weight(b);
	numa_bitmask_free(b);
	return n;
}

/* The value of "name=" on the kernel command line, or NULL. */
static char *cmdline_param(const char *cmdline, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = cmdline; p && *p;) {
		const char *end = p + strcspn(p, " ");

		if ((size_t)(end - p) > len && strncmp(p, name, len) == 0 && p[len] == '=')
			return strndup(p + len + 1, (size_t)(end - p) - len - 1);
		p = *end ? end + 1 : end;
	}
	return NULL;
}

/* From the version string and /sys/kernel/realtime: what the kernel says of itself. */
static void preempt_model(struct rt_env *e, const char *root)
{
	const char *version = e->version;

	e->preempt_model_source = "kernel_version";
	if (read_int(root, "/sys/kernel/realtime", 0) == 1) {
		e->preempt_model = strdup("PREEMPT_RT");
		e->preempt_model_source = "/sys/kernel/realtime";
	} else if (version && strstr(version, "PREEMPT_RT")) {
		e->preempt_model = strdup("PREEMPT_RT");
	} else if (version && strstr(version, "PREEMPT_DYNAMIC")) {
		e->preempt_model = strdup("PREEMPT_DYNAMIC");
	} else {
		for (const char *p = version ? strstr(version, "PREEMPT") : NULL; p;
		     p = strstr(p + 1, "PREEMPT"))
			if ((p == version || p[-1] == ' ') && (p[7] == ' ' || p[7] == '\0'))
				e->preempt_model = strdup("PREEMPT");
	}
	if (!e->preempt_model)
		e->preempt_model_source = NULL;
}

/* Where debugfs is mounted, from /proc/mounts; *known false when that is unreadable. */
static char *debugfs_dir(const char *root, bool *known)
{
	char path[PATH_MAX], *line = NULL, *dir = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/mounts", root);
	*known = (f = fopen(path, "re")) != NULL;
	while (f && !dir && getline(&line, &cap, f) > 0) {
		char dev[256], mnt[PATH_MAX], type[64];

		/* a mount point with a space (\040) is not worth unescaping here */
		if (sscanf(line, "%255s %4095s %63s", dev, mnt, type) == 3 &&
		    strcmp(type, "debugfs") == 0 && !strchr(mnt, '\\'))
			dir = strdup(mnt);
	}
	free(line);
	if (f)
		fclose(f);
	return dir;
}

/*
 * PREEMPT_DYNAMIC's current mode from debugfs sched/preempt ("none voluntary
 * (full) lazy"), and where it came from; or why it is not known.
 */
static void preempt_mode(struct rt_env *e, const char *root)
{
	bool mounts_known;
	char *dir = debugfs_dir(root, &mounts_known), *s = NULL, *open, *close;
	char path[PATH_MAX + 32], why[PATH_MAX + 128];
	bool unmounted = !dir && mounts_known;
	int err = 0;

	snprintf(path, sizeof(path), "%s/sched/preempt", dir ? dir : "/sys/kernel/debug");
	free(dir);
	if (!unmounted)
		s = read_text_err(root, &err, "%s", path);
	if (s && (open = strchr(s, '(')) && (close = strchr(open, ')'))) {
		e->preempt_mode = strndup(open + 1, (size_t)(close - open - 1));
		e->preempt_mode_source = strdup(path);
		free(s);
		return;
	}
	if (s)
		snprintf(why, sizeof(why), "%s names no current mode in parentheses",
			 path);
	else if (unmounted)
		snprintf(why, sizeof(why), "debugfs not mounted");
	else if (err == ENOENT && e->preempt_model &&
		 strcmp(e->preempt_model, "PREEMPT_DYNAMIC") == 0)
		snprintf(why, sizeof(why), "no %s (a kernel without CONFIG_SCHED_DEBUG)",
			 path);
	else if (err == ENOENT)
		snprintf(why, sizeof(why), "no dynamic preemption (PREEMPT_DYNAMIC off)");
	else
		snprintf(why, sizeof(why), "%s not readable: %s", path, strerror(err));
	free(s);
	e->preempt_mode_unknown = strdup(why);
}

/* How many cpuidle states cpu has (state0 .. stateN-1); 0 without cpuidle. */
static int idle_state_count(const char *root, int cpu)
{
	char path[PATH_MAX];
	uint64_t seen = 0;
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpuidle", root, cpu);
	if (!(dir = opendir(path)))
		return 0;
	while ((d = readdir(dir))) {
		char *end;
		unsigned long k;

		if (strncmp(d->d_name, "state", 5) != 0 ||
		    !isdigit((unsigned char)d->d_name[5]))
			continue;
		k = strtoul(d->d_name + 5, &end, 10);
		if (!*end && k < RT_ENV_MAX_IDLE_STATES)
			seen |= 1ULL << k;
	}
	closedir(dir);
	while (n < RT_ENV_MAX_IDLE_STATES && (seen >> n & 1))
		n++;
	return n;
}

/*
 * Deepest enabled cpuidle state of cpu (the highest-numbered one not
 * disabled), looked for from the deepest down: a few files, not every
 * state's three.
 */
static void idle_state(const char *root, struct rt_env_cpu *c)
{
	c->idle_exit_us = -1;
	for (int k = idle_state_count(root, c->cpu) - 1; k >= 0; k--) {
		char path[128];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
			 c->cpu, k);
		if (read_int(root, path, 0) != 0)
			continue;
		c->idle_name = read_text(root,
					 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
					 c->cpu, k);
		if (!c->idle_name)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
			 c->cpu, k);
		c->idle_exit_us = read_int(root, path, -1);
		return;
	}
}

/* "flags : ... hypervisor ..." of /proc/cpuinfo (x86); -1 where there are no flags. */
static int cpuinfo_hypervisor(const char *cpuinfo)
{
	for (const char *p = cpuinfo; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *end = p + strcspn(p, "\n");

		if (strncmp(p, "flags", 5) != 0 || (p[5] != '\t' && p[5] != ' ' && p[5] != ':'))
			continue;
		for (const char *h = strstr(p, " hypervisor"); h && h < end; h = strstr(h + 1, " hypervisor"))
			if (h + 11 == end || h[11] == ' ')
				return 1;
		return 0;
	}
	return -1;
}

static char *cpuinfo_field(const char *cpuinfo, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = cpuinfo; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, name, len) == 0 && (p[len] == '\t' || p[len] == ' ' || p[len] == ':')) {
			const char *v = strchr(p, ':'), *end;

			if (!v)
				return NULL;
			for (v++; *v == ' '; v++)
				;
			end = v + strcspn(v, "\n");
			return strndup(v, (size_t)(end - v));
		}
	}
	return NULL;
}

/* Is a process named comm running? Each /proc/PID/comm opened from /proc's fd. */
static int process_running(const char *root, const char *comm)
{
	char path[PATH_MAX], name[64];
	size_t len = strlen(comm);
	struct dirent *d;
	DIR *dir;
	int found = 0;

	snprintf(path, sizeof(path), "%s/proc", root);
	if (!(dir = opendir(path)))
		return 0;
	while (!found && (d = readdir(dir))) {
		char rel[300];
		ssize_t n;
		int fd;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(rel, sizeof(rel), "%s/comm", d->d_name);
		if ((fd = openat(dirfd(dir), rel, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, name, sizeof(name));
		close(fd);
		while (n > 0 && isspace((unsigned char)name[n - 1]))
			n--;
		found = n >= 0 && (size_t)n == len && memcmp(name, comm, len) == 0;
	}
	closedir(dir);
	return found;
}

void rt_env_add_measured(struct rt_cpulist *l, int cpu, const struct rt_cpulist *allowed)
{
	if (cpu < 0) {
		for (unsigned i = 0; i < allowed->count; i++)
			rt_env_add_measured(l, allowed->cpu[i], allowed);
		return;
	}
	if (!rt_affinity_contains(l, cpu) && l->count < CPU_SETSIZE)
		l->cpu[l->count++] = cpu;
}

int rt_env_open(struct rt_env *e, const char *root, const struct rt_cpulist *measured)
{
	struct timespec now;

	memset(e, 0, sizeof(*e));
	e->rt_runtime_us = RT_ENV_NOT_EXPOSED;
	e->rt_period_us = RT_ENV_NOT_EXPOSED;
	e->smt = -1;
	e->hypervisor = -1;
	e->cpus_online = -1;
	e->cpus_present = -1;
	clock_gettime(CLOCK_REALTIME, &now);
	rt_report_run_id(e->run_id, sizeof(e->run_id), &now);
	e->root = strdup(root);
	e->cpus = calloc(measured->count ? measured->count : 1, sizeof(*e->cpus));
	if (!e->root || !e->cpus) {
		rt_env_free(e);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < measured->count; i++) {
		struct rt_env_cpu *c = &e->cpus[e->ncpus++];

		c->cpu = measured->cpu[i];
		c->idle_exit_us = -1;
	}
	return 0;
}

/* What rt_env_preflight() judges (see RT_ENV_PART_PREFLIGHT). */
static void read_preflight_part(struct rt_env *e)
{
	const char *root = e->root;
	struct bitmask *isolated;
	char *cpuinfo;

	e->cmdline = read_text(root, "/proc/cmdline");
	e->rcu_nocbs = cmdline_param(e->cmdline, "rcu_nocbs");
	e->isolcpus = read_text(root, "/sys/devices/system/cpu/isolated");
	e->nohz_full = read_text(root, "/sys/devices/system/cpu/nohz_full");
	if (e->nohz_full && strcmp(e->nohz_full, "(null)") == 0)
		e->nohz_full[0] = '\0';
	e->rt_runtime_us = read_int(root, "/proc/sys/kernel/sched_rt_runtime_us",
				    RT_ENV_NOT_EXPOSED);
	e->rt_period_us = read_int(root, "/proc/sys/kernel/sched_rt_period_us", RT_ENV_NOT_EXPOSED);
	cpuinfo = read_text(root, "/proc/cpuinfo");
	e->hypervisor = cpuinfo_hypervisor(cpuinfo);
	e->hypervisor_type = read_text(root, "/sys/hypervisor/type");
	if (e->hypervisor_type && e->hypervisor < 0)
		e->hypervisor = 1;
	e->cpu_model = cpuinfo_field(cpuinfo, "model name");
	free(cpuinfo);
	isolated = cpu_set(e->isolcpus);
	for (unsigned i = 0; i < e->ncpus; i++) {
		struct rt_env_cpu *c = &e->cpus[i];

		c->governor = read_text(root, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
					c->cpu);
		c->isolated = isolated && numa_bitmask_isbitset(isolated, (unsigned)c->cpu);
		idle_state(root, c);
	}
	if (isolated)
		numa_bitmask_free(isolated);
}

/* The rest of the JSON's "environment" (see RT_ENV_PART_REPORT). */
static void read_report_part(struct rt_env *e)
{
	const char *root = e->root;
	char *online, *present, *active;

	e->release = read_text(root, "/proc/sys/kernel/osrelease");
	e->version = read_text(root, "/proc/sys/kernel/version");
	preempt_model(e, root);
	preempt_mode(e, root);
	e->clocksource = read_text(root, "/sys/devices/system/clocksource/clocksource0/"
				   "current_clocksource");
	active = read_text(root, "/sys/devices/system/cpu/smt/active");
	e->smt = active ? strcmp(active, "1") == 0 : -1;
	free(active);
	getrlimit(RLIMIT_RTPRIO, &e->rtprio);
	getrlimit(RLIMIT_MEMLOCK, &e->memlock);
	e->irqbalance = process_running(root, "irqbalance");
	online = read_text(root, "/sys/devices/system/cpu/online");
	present = read_text(root, "/sys/devices/system/cpu/present");
	e->cpus_online = count_list(online);
	e->cpus_present = count_list(present);
	free(online);
	free(present);
}

int rt_env_read_parts(struct rt_env *e, unsigned parts)
{
	if (!e->root || !e->cpus)
		return -EINVAL;
	if ((parts & RT_ENV_PART_PREFLIGHT) && !(e->parts & RT_ENV_PART_PREFLIGHT))
		read_preflight_part(e);
	if ((parts & RT_ENV_PART_REPORT) && !(e->parts & RT_ENV_PART_REPORT))
		read_report_part(e);
	e->parts |= parts & RT_ENV_PART_ALL;
	return 0;
}

int rt_env_read_at(struct rt_env *e, const char *root, const struct rt_cpulist *measured)
{
	int err = rt_env_open(e, root, measured);

	return err ? err : rt_env_read_parts(e, RT_ENV_PART_ALL);
}

int rt_env_read(struct rt_env *e, const struct rt_cpulist *measured)
{
	return rt_env_read_at(e, "", measured);
}

static void drop_preflight(struct rt_env *e)
{
	for (unsigned i = 0; i < e->npreflight; i++)
		free(e->preflight[i]);
	free(e->preflight);
	e->preflight = NULL;
	e->npreflight = 0;
}

void rt_env_free(struct rt_env *e)
{
	for (unsigned i = 0; i < e->ncpus; i++) {
		free(e->cpus[i].governor);
		free(e->cpus[i].idle_name);
	}
	free(e->cpus);
	free(e->release);
	free(e->version);
	free(e->cmdline);
	free(e->preempt_model);
	free(e->preempt_mode);
	free(e->preempt_mode_source);
	free(e->preempt_mode_unknown);
	for (unsigned i = 0; i < e->npreflight; i++)
		free(e->preflight[i]);
	free(e->preflight);
	free(e->isolcpus);
	free(e->nohz_full);
	free(e->rcu_nocbs);
	free(e->clocksource);
	free(e->hypervisor_type);
	free(e->cpu_model);
	free(e->root);
	memset(e, 0, sizeof(*e));
}

/* A count or flag, null when negative (not exposed). */
static void json_known(struct rt_json *j, const char *key, int64_t v)
{
	if (v < 0)
		rt_json_null(j, key);
	else
		rt_json_int(j, key, v);
}

static void json_limit(struct rt_json *j, const char *key, rlim_t v)
{
	if (v == RLIM_INFINITY)
		rt_json_string(j, key, "unlimited");
	else
		rt_json_uint(j, key, (uint64_t)v);
}

static void json_rlimit(struct rt_json *j, const char *key, const struct rlimit *r)
{
	rt_json_object_begin(j, key);
	json_limit(j, "soft", r->rlim_cur);
	json_limit(j, "hard", r->rlim_max);
	rt_json_object_end(j);
}

void rt_env_write_json(struct rt_json *j, const struct rt_env *e)
{
	rt_json_object_begin(j, "environment");
	rt_json_string(j, "kernel_release", e->release);
	rt_json_string(j, "kernel_version", e->version);
	rt_json_string(j, "kernel_cmdline", e->cmdline);
	rt_json_object_begin(j, "preemption");
	rt_json_string(j, "model", e->preempt_model);
	rt_json_string(j, "mode", e->preempt_mode);
	rt_json_string(j, "model_source", e->preempt_model_source);
	rt_json_string(j, "mode_source", e->preempt_mode_source);
	rt_json_string(j, "mode_unknown_reason", e->preempt_mode_unknown);
	rt_json_object_end(j);
	rt_json_string(j, "isolcpus", e->isolcpus);
	rt_json_string(j, "nohz_full", e->nohz_full);
	rt_json_string(j, "rcu_nocbs", e->rcu_nocbs);
	rt_json_string(j, "clocksource", e->clocksource);
	rt_json_array_begin(j, "cpus");
	for (unsigned i = 0; i < e->ncpus; i++) {
		const struct rt_env_cpu *c = &e->cpus[i];

		rt_json_object_begin(j, NULL);
		rt_json_int(j, "cpu", c->cpu);
		rt_json_int(j, "isolated", c->isolated);
		rt_json_string(j, "governor", c->governor);
		if (c->idle_name) {
			rt_json_object_begin(j, "deepest_idle_state");
			rt_json_string(j, "name", c->idle_name);
			json_known(j, "exit_latency_us", c->idle_exit_us);
			rt_json_object_end(j);
		} else {
			rt_json_null(j, "deepest_idle_state");
		}
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
	json_known(j, "smt", e->smt);
	if (e->rt_runtime_us == RT_ENV_NOT_EXPOSED)
		rt_json_null(j, "sched_rt_runtime_us");
	else
		rt_json_int(j, "sched_rt_runtime_us", e->rt_runtime_us);
	if (e->rt_period_us == RT_ENV_NOT_EXPOSED)
		rt_json_null(j, "sched_rt_period_us");
	else
		rt_json_int(j, "sched_rt_period_us", e->rt_period_us);
	json_rlimit(j, "rlimit_rtprio", &e->rtprio);
	json_rlimit(j, "rlimit_memlock", &e->memlock);
	rt_json_object_begin(j, "hypervisor");
	json_known(j, "present", e->hypervisor);
	rt_json_string(j, "type", e->hypervisor_type);
	rt_json_object_end(j);
	rt_json_int(j, "irqbalance", e->irqbalance);
	rt_json_string(j, "cpu_model", e->cpu_model);
	json_known(j, "cpus_online", e->cpus_online);
	json_known(j, "cpus_present", e->cpus_present);
	rt_json_array_begin(j, "preflight");
	for (unsigned i = 0; i < e->npreflight; i++)
		rt_json_string(j, NULL, e->preflight[i]);
	rt_json_array_end(j);
	/* two runs of one second on one host are still two runs (merge) */
	rt_json_string(j, "run_id", e->run_id);
	rt_json_object_end(j);
}

/* "0,1" of the measured CPUs that match, into buf. */
static bool cpus_where(const struct rt_env *e, bool (*match)(const struct rt_env_cpu *),
		       char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < e->ncpus && used < len; i++)
		if (match(&e->cpus[i]))
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "",
						 e->cpus[i].cpu);
	return used > 0;
}

static bool not_isolated(const struct rt_env_cpu *c)
{
	return !c->isolated;
}

static bool slow_governor(const struct rt_env_cpu *c)
{
	return c->governor && strcmp(c->governor, "performance") != 0;
}

static bool deep_idle(const struct rt_env_cpu *c)
{
	return c->idle_name && c->idle_exit_us > RT_ENV_DEEP_IDLE_US;
}

/* Append one warning; false (and all dropped) when out of memory. */
static bool warn(struct rt_env *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool warn(struct rt_env *e, const char *fmt, ...)
{
	char **m = realloc(e->preflight, (e->npreflight + 1) * sizeof(*m));
	va_list ap;
	int n;

	if (m) {
		e->preflight = m;
		va_start(ap, fmt);
		n = vasprintf(&m[e->npreflight], fmt, ap);
		va_end(ap);
		if (n >= 0) {
			e->npreflight++;
			return true;
		}
	}
	return false;
}

static int keep_warning(void *ctx, const char *line)
{
	return rt_env_preflight_add(ctx, "%s", line);
}

/* rt_isolation_preflight() on e's measured CPUs, its warnings kept in e. */
static int isolation_warnings(struct rt_env *e)
{
	struct rt_cpulist measured = { 0 };
	const struct rt_isolation_preflight_in in = {
		.root = e->root ? e->root : "",
		.cpus = &measured,
		.nohz_full = e->nohz_full,
		.rcu_nocbs = e->rcu_nocbs,
		.cmdline = e->cmdline,
	};

	for (unsigned i = 0; i < e->ncpus && measured.count < CPU_SETSIZE; i++)
		measured.cpu[measured.count++] = e->cpus[i].cpu;
	return rt_isolation_preflight(&in, keep_warning, e);
}

int rt_env_preflight(struct rt_env *e, const struct rt_env_run *run)
{
	char cpus[256];
	bool ok = true;

	if (e->root && (e->parts & RT_ENV_PART_PREFLIGHT) == 0 &&
	    rt_env_read_parts(e, RT_ENV_PART_PREFLIGHT))
		return -ENOMEM;
	drop_preflight(e);
	e->judged = true;
	if (!run->realtime)
		ok = warn(e, "measuring without a real-time priority (no -p, or "
			  "SCHED_OTHER): these are not real-time latencies");
	if (ok && e->rt_runtime_us >= 0)
		ok = warn(e, "RT throttling is active (kernel.sched_rt_runtime_us %" PRId64
			  " of %" PRId64 "): a real-time task running that long is stopped",
			  e->rt_runtime_us, e->rt_period_us);
	if (ok && e->isolcpus && *e->isolcpus &&
	    cpus_where(e, not_isolated, cpus, sizeof(cpus)))
		ok = warn(e, "measured CPU(s) %s not isolated while CPU(s) %s are", cpus,
			  e->isolcpus);
	if (ok && cpus_where(e, slow_governor, cpus, sizeof(cpus)))
		ok = warn(e, "cpufreq governor other than performance on measured CPU(s) %s",
			  cpus);
	if (ok && !run->pm_qos_held && cpus_where(e, deep_idle, cpus, sizeof(cpus)))
		ok = warn(e, "idle states deeper than %d us exit latency enabled on "
			  "measured CPU(s) %s", RT_ENV_DEEP_IDLE_US, cpus);
	if (ok && e->hypervisor == 1)
		ok = warn(e, "running in a virtual machine (hypervisor %s): the host's "
			  "scheduling adds latency the guest cannot see",
			  e->hypervisor_type ? e->hypervisor_type
					     : "not named by the kernel");
	if (ok && run->isolation && isolation_warnings(e))
		ok = false;
	if (ok)
		return 0;
	drop_preflight(e);
	return -ENOMEM;
}

int rt_env_preflight_add(struct rt_env *e, const char *fmt, ...)
{
	char **m = realloc(e->preflight, (e->npreflight + 1) * sizeof(*m));
	va_list ap;
	int n;

	if (!m)
		return -ENOMEM;
	e->preflight = m;
	va_start(ap, fmt);
	n = vasprintf(&m[e->npreflight], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	e->npreflight++;
	return 0;
}
