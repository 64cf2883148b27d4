// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_percentiles.h"
#include "rt_records.h"
#include "rt_report.h"
#include "rt_time.h"

int rt_records_open(struct rt_records *r, const char *path, uint64_t interval_s)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->interval_ns = (int64_t)interval_s * RT_NSEC_PER_SEC;
	r->mem = open_memstream(&r->line, &r->line_size);
	if (!r->mem)
		return -errno;
	if (strcmp(path, "-") == 0) {
		/* Standard output is the records' alone; the rest goes to stderr. */
		fflush(stdout);
		r->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
		if (r->fd >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0)
			return 0;
	} else {
		/* a symbolic link planted where the file goes is refused (ELOOP) */
		r->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
			     0644);
		if (r->fd >= 0)
			return 0;
	}
	err = -errno;
	rt_records_close(r);
	return err;
}

void rt_records_close(struct rt_records *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->mem)
		fclose(r->mem);
	r->mem = NULL;
	free(r->line);
	r->line = NULL;
}

static int64_t mono_now(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return rt_time_to_ns(&now);
}

void rt_records_start(struct rt_records *r, int64_t delay_ns)
{
	clock_gettime(CLOCK_REALTIME, &r->start_wall);
	r->start_ns = mono_now();
	rt_time_add_ns(&r->start_wall, delay_ns);
	r->start_ns += delay_ns;
	r->window_start_ns = r->start_ns;
	r->window = 0;
}

int64_t rt_records_window_due(const struct rt_records *r, int64_t now_ns)
{
	int64_t passed = now_ns - r->window_start_ns;

	if (passed < r->interval_ns)
		return -1;
	return r->window_start_ns + passed / r->interval_ns * r->interval_ns;
}

void rt_records_begin(struct rt_records *r, struct rt_json *j, const char *type)
{
	/* The stream is reused: the line starts at its beginning again. */
	rewind(r->mem);
	clearerr(r->mem);
	rt_json_init_compact(j, r->mem);
	rt_json_object_begin(j, NULL);
	rt_json_string(j, "type", type);
}

/* Write len bytes whole, continuing after a short write. 0 or -errno. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int rt_records_end(struct rt_records *r, struct rt_json *j)
{
	off_t len;
	int err;

	rt_json_object_end(j);
	err = rt_json_finish(j); /* the newline */
	if (!err && fflush(r->mem))
		err = -ENOMEM;
	len = ftello(r->mem);
	if (!err && len < 0)
		err = -errno;
	if (!err && !r->error)
		/* One write() of the whole line; a short one is continued. */
		err = write_all(r->fd, r->line, (size_t)len);
	if (err && !r->error)
		r->error = err; /* nothing more is written: only the last line can be torn */
	return err;
}

void rt_records_time(const struct rt_records *r, struct rt_json *j, const char *key, int64_t ns)
{
	int64_t wall = rt_time_to_ns(&r->start_wall) + (ns - r->start_ns);
	time_t sec = (time_t)(wall / RT_NSEC_PER_SEC);
	char buf[48], stamp[32];
	struct tm tm;

	gmtime_r(&sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, sizeof(buf), "%s.%03dZ", stamp, (int)(wall % RT_NSEC_PER_SEC / 1000000));
	rt_json_string(j, key, buf);
}

void rt_records_window_times(const struct rt_records *r, struct rt_json *j, int64_t end_ns)
{
	rt_json_uint(j, "window", r->window);
	rt_records_time(r, j, "start", r->window_start_ns);
	rt_records_time(r, j, "end", end_ns);
	rt_json_double(j, "start_s", (double)(r->window_start_ns - r->start_ns) / 1e9, 3);
	rt_json_double(j, "end_s", (double)(end_ns - r->start_ns) / 1e9, 3);
}

void rt_records_next_window(struct rt_records *r, int64_t end_ns)
{
	r->window_start_ns = end_ns;
	r->window++;
}

void rt_records_series(struct rt_json *j, const struct rt_stats *s, const struct rt_loghist *h)
{
	rt_json_uint(j, "count", s->count);
	rt_report_json_min_avg_max(j, s);
	rt_percentiles_write_json(j, "percentiles", h);
}

int rt_records_sync(struct rt_records *r)
{
	if (r->error)
		return r->error;
	if (fsync(r->fd) == 0 || errno == EINVAL || errno == EROFS)
		return 0;
	r->error = -errno;
	return r->error;
}

int rt_records_set_open(struct rt_records_set *s, const char *path, uint64_t interval_s, int n,
			bool overruns)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->rec.fd = -1;
	if (!path)
		return 0;
	s->n = n;
	s->overruns = overruns;
	s->overruns_seen = calloc((size_t)n, sizeof(*s->overruns_seen));
	s->empty = malloc(sizeof(*s->empty));
	if (!s->overruns_seen || !s->empty) {
		rt_records_set_close(s);
		return -ENOMEM;
	}
	rt_loghist_init(s->empty);
	rt_loghist_seal(s->empty, 0);
	if ((err = rt_records_open(&s->rec, path, interval_s))) {
		rt_records_set_close(s);
		return err;
	}
	s->open = true;
	s->file = true;
	return 0;
}

int rt_records_set_metrics(struct rt_records_set *s, struct rt_metrics_set *m, uint64_t interval_s,
			   int n, bool overruns)
{
	s->metrics = m;
	if (s->open)
		return 0;
	s->n = n;
	s->overruns = overruns;
	s->overruns_seen = calloc((size_t)n ? (size_t)n : 1, sizeof(*s->overruns_seen));
	s->empty = malloc(sizeof(*s->empty));
	if (!s->overruns_seen || !s->empty) {
		rt_records_set_close(s);
		s->metrics = NULL;
		return -ENOMEM;
	}
	rt_loghist_init(s->empty);
	rt_loghist_seal(s->empty, 0);
	s->rec.fd = -1;
	s->rec.interval_ns = (int64_t)interval_s * RT_NSEC_PER_SEC;
	s->open = true;
	return 0;
}

int rt_records_set_start(struct rt_records_set *s, const struct rt_records_run *run,
			 const struct rt_env *env)
{
	struct rt_json j;
	char id[96];

	if (!s->open)
		return 0;
	rt_records_start(&s->rec, (int64_t)run->warmup_s * RT_NSEC_PER_SEC);
	if (!s->file)
		return 0;
	rt_records_begin(&s->rec, &j, "run");
	rt_json_string(&j, "tool", run->tool);
	rt_json_string(&j, "version", PACKAGE_VERSION);
	rt_json_string(&j, "rt_test_version", RT_INTERFACE_VERSION);
	rt_json_string(&j, "cmdline", run->cmdline);
	rt_records_time(&s->rec, &j, "start", s->rec.start_ns);
	rt_report_run_id(id, sizeof(id), &s->rec.start_wall);
	rt_json_string(&j, "run_id", id);
	rt_json_uint(&j, "warmup_s", run->warmup_s);
	rt_json_string(&j, "unit", run->unit);
	rt_json_uint(&j, "records_interval_s", run->interval_s);
	rt_json_int(&j, "num_threads", s->n);
	rt_report_json_sysinfo(&j);
	rt_env_write_json(&j, env);
	rt_records_end(&s->rec, &j);
	return rt_records_sync(&s->rec);
}

/*
 * One line per series for the window ending at end_ns, from half i of each.
 * The last window (final: the run's results) takes the overruns counted
 * after the last sample too (a thread that overran past -D's end), so that
 * the windows add up to the totals.
 */
static void write_window(struct rt_records_set *s, struct rt_window *const *w, unsigned i,
			 int64_t end_ns, const struct rt_series *final)
{
	for (int k = 0; k < s->n; k++) {
		struct rt_window_half *h = w[k] ? rt_window_take(w[k], i) : NULL;
		uint64_t total = h && h->has_overruns ? h->overruns_total : s->overruns_seen[k];
		uint64_t overruns;
		struct rt_stats none;
		struct rt_json j;

		if (final && final[k].overruns >= 0)
			total = (uint64_t)final[k].overruns;
		overruns = total - s->overruns_seen[k];
		s->overruns_seen[k] = total;
		rt_stats_init(&none);
		if (s->metrics)
			rt_metrics_set_add(s->metrics, k, h ? &h->stats : &none,
					   h ? &h->hist : s->empty, overruns);
		if (!s->file)
			goto next;
		rt_records_begin(&s->rec, &j, "window");
		rt_json_int(&j, "thread", k);
		rt_records_window_times(&s->rec, &j, end_ns);
		rt_records_series(&j, h ? &h->stats : &none, h ? &h->hist : NULL);
		if (s->overruns)
			rt_json_uint(&j, "overruns", overruns);
		rt_loghist_write_json(&j, "latency_histogram", h ? &h->hist : s->empty);
		rt_records_end(&s->rec, &j);
next:
		if (w[k])
			rt_window_clear(w[k], i);
	}
	if (s->metrics && !final)
		rt_metrics_set_flush(s->metrics, s->iso); /* an error is kept for the end */
	if (s->iso && s->file) {
		struct rt_json j;

		rt_records_begin(&s->rec, &j, "isolation");
		rt_records_window_times(&s->rec, &j, end_ns);
		rt_isolation_write_json(&j, s->iso, final ? RT_ISOLATION_LAST : RT_ISOLATION_WINDOW);
		rt_records_end(&s->rec, &j);
	}
	if (s->file)
		rt_records_sync(&s->rec);
	rt_records_next_window(&s->rec, end_ns);
}

static bool all_quiet(const struct rt_records_set *s, struct rt_window *const *w)
{
	for (int k = 0; k < s->n; k++)
		if (w[k] && !rt_window_quiet(w[k]))
			return false;
	return true;
}

void rt_records_set_poll(struct rt_records_set *s, struct rt_window *const *w)
{
	int64_t end;

	if (!s->open)
		return;
	if (!s->pending && (end = rt_records_window_due(&s->rec, mono_now())) >= 0) {
		/* Every series switches at once: the halves stay in step. */
		for (int k = 0; k < s->n; k++)
			if (w[k])
				rt_window_switch(w[k]);
		if (s->iso)
			rt_isolation_mark_window(s->iso); /* a failed read: null */
		s->old = s->cur;
		s->cur ^= 1;
		s->pending = true;
		s->pending_end_ns = end;
	}
	if (s->pending && all_quiet(s, w)) {
		write_window(s, w, s->old, s->pending_end_ns, NULL);
		s->pending = false;
	}
}

int rt_records_set_finish(struct rt_records_set *s, struct rt_window *const *w,
			  const struct rt_series *series)
{
	int64_t end = mono_now();
	struct rt_json j;

	if (!s->open)
		return 0;
	/* The series have ended: every half is quiet. */
	if (s->pending)
		write_window(s, w, s->old, s->pending_end_ns, NULL);
	s->pending = false;
	/* Ended within the warm-up: no window was measured. */
	if (end > s->rec.window_start_ns)
		write_window(s, w, s->cur, end, series);
	if (!s->file)
		return 0;
	rt_records_begin(&s->rec, &j, "total");
	rt_records_time(&s->rec, &j, "end", end);
	rt_json_double(&j, "duration_s",
		       end > s->rec.start_ns ? (double)(end - s->rec.start_ns) / 1e9 : 0.0, 3);
	rt_json_array_begin(&j, "threads");
	for (int k = 0; k < s->n; k++) {
		rt_json_object_begin(&j, NULL);
		rt_json_int(&j, "thread", k);
		rt_records_series(&j, &series[k].stats, series[k].hist);
		if (s->overruns)
			rt_json_int(&j, "overruns", series[k].overruns);
		rt_json_object_end(&j);
	}
	rt_json_array_end(&j);
	if (rt_percentiles_write_json_total(&j, "percentiles", series, s->n) && !s->rec.error)
		s->rec.error = -ENOMEM;
	if (s->iso)
		rt_isolation_write_json(&j, s->iso, RT_ISOLATION_RUN);
	rt_records_end(&s->rec, &j);
	rt_records_sync(&s->rec);
	return s->rec.error;
}

void rt_records_set_isolation(struct rt_records_set *s, struct rt_isolation *iso)
{
	s->iso = s->open ? iso : NULL;
}

void rt_records_set_close(struct rt_records_set *s)
{
	if (s->open && s->file)
		rt_records_close(&s->rec);
	s->open = false;
	s->file = false;
	s->metrics = NULL;
	free(s->overruns_seen);
	s->overruns_seen = NULL;
	free(s->empty);
	s->empty = NULL;
}
