// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_signal.h"
#include "rt_time.h"

#include "run.h"

#define POLL_NS (100 * 1000 * 1000LL) /* 2.4 reads trace_pipe every 0.1 s */
#define LINE_MAX_LEN 1024

static void RT_PRINTF(2, 3) dbg(const struct hwlat_config *cfg, const char *fmt, ...)
{
	va_list ap;

	if (!cfg->debug)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int write_failed(int err, enum hwlat_file f, const char *value)
{
	rt_prog_error_errno(-err, "cannot write '%s' to the tracefs file %s", value,
			    hwlat_file_name(f));
	return RT_EXIT_FAILURE;
}

static int put_int(struct hwlat_tracer *t, enum hwlat_file f, int64_t v)
{
	char buf[32];
	int err;

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	if ((err = hwlat_tracer_write(t, f, buf)))
		return write_failed(err, f, buf);
	return 0;
}

static int get_int(enum hwlat_file f, int64_t *v)
{
	int err = hwlat_tracer_read_int(f, v);

	if (err) {
		rt_prog_error_errno(-err, "cannot read the tracefs file %s", hwlat_file_name(f));
		return RT_EXIT_FAILURE;
	}
	return 0;
}

int hwlat_apply(const struct hwlat_config *cfg, struct hwlat_tracer *t, struct hwlat_result *res)
{
	int64_t cur;
	int err;

	if (put_int(t, HWLAT_TRACING_ON, 0))
		return RT_EXIT_FAILURE;
	if ((err = hwlat_tracer_write(t, HWLAT_CURRENT_TRACER, "hwlat")))
		return write_failed(err, HWLAT_CURRENT_TRACER, "hwlat");
	if (cfg->threshold_us >= 0) {
		if (put_int(t, HWLAT_THRESH, cfg->threshold_us))
			return RT_EXIT_FAILURE;
		dbg(cfg, "threshold set to %" PRId64 "us", cfg->threshold_us);
	}
	if (get_int(HWLAT_THRESH, &res->threshold_us))
		return RT_EXIT_FAILURE;
	res->hardlimit_us = cfg->hardlimit_us >= 0 ? cfg->hardlimit_us : res->threshold_us;
	dbg(cfg, "hardlimit set to %" PRId64 "us", res->hardlimit_us);
	if (cfg->window_us >= 0) {
		if (get_int(HWLAT_WIDTH, &cur))
			return RT_EXIT_FAILURE;
		/* the kernel keeps width < window */
		if (cfg->window_us <= cur) {
			dbg(cfg, "shrinking width to %" PRId64 " for new window of %" PRId64,
			    cfg->window_us / 2, cfg->window_us);
			if (put_int(t, HWLAT_WIDTH, cfg->window_us / 2))
				return RT_EXIT_FAILURE;
		}
		dbg(cfg, "window parameter = %" PRId64, cfg->window_us);
		if (put_int(t, HWLAT_WINDOW, cfg->window_us))
			return RT_EXIT_FAILURE;
		dbg(cfg, "window for sampling set to %" PRId64 "us", cfg->window_us);
	}
	if (cfg->width_us >= 0) {
		if (get_int(HWLAT_WINDOW, &cur))
			return RT_EXIT_FAILURE;
		if (cfg->width_us >= cur) {
			dbg(cfg, "widening window to %" PRId64 " for new width of %" PRId64,
			    cfg->width_us * 2, cfg->width_us);
			if (put_int(t, HWLAT_WINDOW, cfg->width_us * 2))
				return RT_EXIT_FAILURE;
		}
		dbg(cfg, "width parameter = %" PRId64, cfg->width_us);
		if (put_int(t, HWLAT_WIDTH, cfg->width_us))
			return RT_EXIT_FAILURE;
		dbg(cfg, "sample width set to %" PRId64 "us", cfg->width_us);
	}
	dbg(cfg, "test duration is %" PRIu64 "s", cfg->duration_s);
	if (cfg->cpu_list) {
		dbg(cfg, "set tracing_cpumask to %s", cfg->cpumask);
		if ((err = hwlat_tracer_write(t, HWLAT_CPUMASK, cfg->cpumask)))
			return write_failed(err, HWLAT_CPUMASK, cfg->cpumask);
	}
	if (get_int(HWLAT_WINDOW, &res->window_us) || get_int(HWLAT_WIDTH, &res->width_us))
		return RT_EXIT_FAILURE;
	return 0;
}

static int add_sample(struct hwlat_result *res, const struct hwlat_sample *s)
{
	if (res->n == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 64;
		struct hwlat_sample *m = realloc(res->samples, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		res->samples = m;
		res->cap = cap;
	}
	res->samples[res->n++] = *s;
	return 0;
}

/* The lines of trace_pipe, split across reads. */
struct lines {
	char buf[LINE_MAX_LEN];
	size_t len;
	bool overlong; /* the current line did not fit: dropped up to its newline */
};

static int take_line(const struct hwlat_config *cfg, struct hwlat_result *res, const char *line,
		     const struct hwlat_hooks *hooks)
{
	struct hwlat_sample s;

	if (hwlat_sample_parse(line, &s)) {
		if (line[strspn(line, " \t\r")]) {
			res->ignored++;
			dbg(cfg, "ignoring a trace line that is no hwlat sample: %.200s", line);
		}
		return 0;
	}
	if (add_sample(res, &s))
		return -ENOMEM;
	if (hooks->sample)
		hooks->sample(hooks->ctx, &s);
	return 0;
}

/* Read what trace_pipe holds now. 0 or -errno. */
static int drain(const struct hwlat_config *cfg, struct hwlat_result *res, int fd,
		 struct lines *l, const struct hwlat_hooks *hooks)
{
	char chunk[4096];

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0; /* a FIFO without writer: nothing now */
		for (ssize_t i = 0; i < n; i++) {
			char c = chunk[i];

			if (c == '\n') {
				l->buf[l->len] = '\0';
				if (!l->overlong && take_line(cfg, res, l->buf, hooks))
					return -ENOMEM;
				if (l->overlong)
					res->ignored++;
				l->len = 0;
				l->overlong = false;
			} else if (l->len + 1 < sizeof(l->buf)) {
				l->buf[l->len++] = c == '\0' ? ' ' : c;
			} else {
				l->overlong = true;
			}
		}
	}
}


/* /dev/cpu_dma_latency 0 while it samples (2.4: "c-states disabled"); -1 without. */
static int c_states_off(const struct hwlat_config *cfg)
{
	int32_t zero = 0;
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, &zero, sizeof(zero)) != (ssize_t)sizeof(zero)) {
		close(fd);
		return -1;
	}
	dbg(cfg, "c-states disabled");
	return fd;
}

static int start(const struct hwlat_config *cfg, struct hwlat_tracer *t, struct hwlat_result *res)
{
	int64_t thresh;

	dbg(cfg, "enabling detector module (threshold: %" PRId64 ")", res->threshold_us);
	if (put_int(t, HWLAT_TRACING_ON, 1))
		return RT_EXIT_FAILURE;
	res->started = true;
	/* 2.4 puts the threshold back if enabling changed it */
	if (get_int(HWLAT_THRESH, &thresh))
		return RT_EXIT_FAILURE;
	if (thresh != res->threshold_us) {
		dbg(cfg, "start: threshold reset by start, fixing");
		if (put_int(t, HWLAT_THRESH, res->threshold_us))
			return RT_EXIT_FAILURE;
	}
	dbg(cfg, "detector module enabled (threshold: %" PRId64 ")", res->threshold_us);
	return 0;
}

int hwlat_measure(const struct hwlat_config *cfg, struct hwlat_tracer *t, const sigset_t *set,
		  struct hwlat_result *res, const struct hwlat_hooks *hooks)
{
	struct lines *l = calloc(1, sizeof(*l));
	int64_t end;
	int err, rc = 0, dma_fd;

	if (!l) {
		rt_prog_error("out of memory");
		return RT_EXIT_FAILURE;
	}
	if ((err = hwlat_tracer_open_pipe(t))) {
		rt_prog_error_errno(-err, "cannot open the tracefs file trace_pipe");
		free(l);
		return RT_EXIT_FAILURE;
	}
	dma_fd = c_states_off(cfg);
	if ((rc = start(cfg, t, res)))
		goto stop;
	end = rt_time_mono_ns() + (int64_t)cfg->duration_s * RT_NSEC_PER_SEC;
	for (;;) {
		int64_t left = end - rt_time_mono_ns();
		int sig;

		if ((err = drain(cfg, res, t->pipe_fd, l, hooks))) {
			rt_prog_error_errno(-err, "cannot read the tracefs file trace_pipe");
			rc = RT_EXIT_FAILURE;
			break;
		}
		if (hooks->tick)
			hooks->tick(hooks->ctx);
		if (left <= 0)
			break;
		sig = rt_signal_wait(set, left < POLL_NS ? left : POLL_NS);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			res->stop_signal = sig;
			break;
		}
	}
stop:
	dbg(cfg, "disabling detector module");
	if (res->started && put_int(t, HWLAT_TRACING_ON, 0))
		rc = RT_EXIT_FAILURE;
	/* what the tracer wrote before it stopped */
	if (!rc && (err = drain(cfg, res, t->pipe_fd, l, hooks))) {
		rt_prog_error_errno(-err, "cannot read the tracefs file trace_pipe");
		rc = RT_EXIT_FAILURE;
	}
	if (dma_fd >= 0) {
		close(dma_fd);
		dbg(cfg, "c-states enabled");
	}
	dbg(cfg, "detector module disabled");
	free(l);
	return rc;
}

/*
 * The online CPUs, whose MSRs can be read: an offline CPU (of
 * _SC_NPROCESSORS_CONF) has none and must not disable SMI counts for all.
 */
static int online_cpus(struct hwlat_result *res)
{
	static struct rt_cpulist online; /* CPU_SETSIZE entries: not on the stack */
	char line[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	int n = 0;

	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (rt_opt_parse_cpulist(line, &online))
		return 0;
	for (unsigned i = 0; i < online.count && n < HWLAT_SMI_CPUS; i++)
		res->smi_cpu[n++] = online.cpu[i];
	return n;
}

void hwlat_read_smis(struct hwlat_result *res, bool after)
{
	uint64_t *into = after ? res->smi_after : res->smi_before;
	int ncpus;

	if (after && !res->has_smi)
		return;
	ncpus = after ? res->smi_cpus : online_cpus(res);
	for (int k = 0; k < ncpus; k++) {
		int c = res->smi_cpu[k];
		char path[64];
		uint64_t v = 0;
		int fd;

		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", c);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || pread(fd, &v, sizeof(v), 0x34) != (ssize_t)sizeof(v)) {
			if (fd >= 0)
				close(fd);
			/* unreadable: no SMI lines at all (2.4 without rdmsr) */
			res->has_smi = false;
			return;
		}
		close(fd);
		into[k] = v & 0xffffffffu; /* MSR_SMI_COUNT: bits 31:0 */
	}
	res->smi_cpus = ncpus;
	res->has_smi = ncpus > 0;
}

void hwlat_result_free(struct hwlat_result *res)
{
	free(res->samples);
	res->samples = NULL;
	res->n = res->cap = 0;
	rt_verdict_free(&res->verdict);
}
