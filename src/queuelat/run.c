// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_sched.h"
#include "rt_time.h"

#include "run.h"

#define CALIB_ROUND_NS 20000000LL   /* 20 ms of samples per calibration round */
#define CALIB_MAX_SAMPLES 50000
#define CALIB_MAX_ROUNDS 40
#define CALIB_KEEP 1024

void ql_model_init(struct ql_model *m, const struct queuelat_config *cfg)
{
	double maxq, drain;

	m->tsc_freq_ghz = cfg->freq_mhz / 1000.0;
	m->cycles_to_ns = 1.0 / m->tsc_freq_ghz;
	m->packet_ns = (double)cfg->cycles * m->cycles_to_ns;
	maxq = (double)cfg->max_latency_ns / m->packet_ns;
	drain = (double)cfg->max_latency_ns / 2.0 / m->packet_ns;
	m->max_queue_len = maxq > 4e18 ? INT64_MAX : (int64_t)maxq;
	m->drain_per_block = drain > 4e18 ? INT64_MAX : (int64_t)drain;
	m->target_ns = cfg->max_latency_ns / 2;
}

int64_t ql_arrivals(int64_t ns, double mpps)
{
	double v = (double)ns * mpps / 1000.0;

	return v > 4e18 ? INT64_MAX / 4 : (int64_t)v;
}

void ql_hist_add(struct ql_hist *h, int64_t ns)
{
	int64_t b = ns < 0 ? 0 : ns / QL_BUCKET_NS;

	h->counts[b > QL_NBUCKETS ? QL_NBUCKETS : b]++;
}

uint64_t ql_hist_total(const struct ql_hist *h)
{
	uint64_t t = 0;

	for (int i = 0; i <= QL_NBUCKETS; i++)
		t += h->counts[i];
	return t;
}

struct ql_thread {
	const struct queuelat_config *cfg;
	const struct ql_model *m;
	int marker_fd;
	struct ql_result *res;
	ql_calibrated_fn done;
	void *ctx;
	char *src, *dst;
	int64_t deadline_ns;        /* the timeout, 0 = none */
	int64_t samples[CALIB_KEEP]; /* a calibration round's first durations */
};

/*
 * Stopping: the measuring thread takes SIGINT, SIGTERM, SIGHUP and SIGALRM
 * itself (the other threads block them), in a handler that only records
 * the signal: under chrt on one CPU the main thread, at the same priority,
 * would never get to run while the queue spins. The thread checks the flag
 * and the timeout after each block.
 */
static volatile sig_atomic_t stop_signal;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGALRM };

static void on_stop(int sig)
{
	stop_signal = sig;
}

static inline int64_t block(struct ql_thread *t, size_t n)
{
	int64_t t0 = rt_time_mono_ns(), t1;

	memmove(t->dst, t->src, n);
	__asm__ volatile("" : : "r"(t->dst) : "memory");
	t1 = rt_time_mono_ns();
	return t1 - t0;
}

static bool stopped(struct ql_thread *t)
{
	if (stop_signal)
		return true;
	if (t->deadline_ns && rt_time_mono_ns() >= t->deadline_ns) {
		t->res->timed_out = true;
		return true;
	}
	return false;
}

/*
 * One round at n bytes into res->calib: the most frequent duration (the
 * bucket's middle), or the median when most took longer than the histogram.
 */
static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int64_t calib_round(struct ql_thread *t, size_t n)
{
	struct ql_hist *h = &t->res->calib;
	int64_t start = rt_time_mono_ns();
	uint64_t best = 0;
	int mode = 0, s;

	memset(h, 0, sizeof(*h));
	for (s = 0; s < CALIB_MAX_SAMPLES && !stopped(t); s++) {
		int64_t d = block(t, n);

		ql_hist_add(h, d);
		if (s < CALIB_KEEP)
			t->samples[s] = d;
		if (s >= 10 && rt_time_mono_ns() - start > CALIB_ROUND_NS)
			break;
	}
	for (int i = 0; i <= QL_NBUCKETS; i++)
		if (h->counts[i] > best) {
			best = h->counts[i];
			mode = i;
		}
	if (mode == QL_NBUCKETS) {
		int kept = s < CALIB_KEEP ? s + 1 : CALIB_KEEP;

		if (s >= CALIB_MAX_SAMPLES || stopped(t))
			kept = s < CALIB_KEEP ? s : CALIB_KEEP;
		if (kept <= 0)
			return 0;
		qsort(t->samples, (size_t)kept, sizeof(t->samples[0]), cmp_i64);
		return t->samples[kept / 2];
	}
	return (int64_t)mode * QL_BUCKET_NS + QL_BUCKET_NS / 2;
}

/* 2.4 stepped by 1000 bytes from 100000; scaling by the ratio gets there in a few rounds. */
static void calibrate(struct ql_thread *t)
{
	struct ql_result *res = t->res;
	int64_t target = t->m->target_ns, mode = 0;
	size_t n = QL_START_BYTES;

	for (int round = 0; round < CALIB_MAX_ROUNDS && !stopped(t); round++) {
		double next;

		mode = calib_round(t, n);
		if (stopped(t))
			return;
		if (llabs(mode - target) <= QL_CALIB_TOLERANCE_NS ||
		    llabs(mode - target) <= target / 20)
			break;
		next = (double)n * (double)target / (double)(mode > 50 ? mode : 50);
		if (next > QL_MAX_BYTES)
			next = QL_MAX_BYTES;
		if (next < 64)
			next = 64;
		if ((size_t)next == n) {
			res->calib_limited = n == QL_MAX_BYTES && mode < target;
			break;
		}
		n = (size_t)next;
	}
	res->calib_mode_ns = mode;
	res->block_bytes = n;
	res->drain_per_block = t->m->drain_per_block;
	if (res->calib_limited)     /* the block drains what fits in its own duration */
		res->drain_per_block = (int64_t)((double)mode / t->m->packet_ns);
	res->calibrated = true;
}

static void mark_text(struct ql_thread *t, const char *line, int len)
{
	if (len > 0 && write(t->marker_fd, line, (size_t)len) < 0)
		t->marker_fd = -1;  /* no more markers; the run goes on */
}

static void mark_block(struct ql_thread *t, int64_t q, int64_t dec, int64_t inc, int64_t delta)
{
	char line[160];

	if (t->marker_fd >= 0)
		mark_text(t, line, snprintf(line, sizeof(line), "memmove block queue_size=%" PRId64
					    " queue_dec=%" PRId64 " queue_inc=%" PRId64
					    " delta=%" PRId64 " ns\n", q, dec, inc, delta));
}

static void mark_exceeded(struct ql_thread *t, int64_t q, int64_t maxq)
{
	char line[160];

	if (t->marker_fd >= 0)
		mark_text(t, line, snprintf(line, sizeof(line), "queue length exceeded: "
					    "queue_size=%" PRId64 " max_queue_len=%" PRId64 "\n",
					    q, maxq));
}

static void queue_loop(struct ql_thread *t)
{
	struct ql_result *res = t->res;
	const struct queuelat_config *cfg = t->cfg;
	const int64_t dec = res->drain_per_block, maxq = t->m->max_queue_len;
	const bool trace = cfg->trace_queue_given;
	int64_t q = 0;

	for (int i = 0; i < QL_WARMUP_BLOCKS; i++)
		block(t, res->block_bytes);
	while (!stopped(t)) {
		int64_t delta = block(t, res->block_bytes);
		int64_t inc = ql_arrivals(delta, cfg->mpps);

		ql_hist_add(&res->main, delta);
		res->blocks++;
		q += inc - dec;
		if (q < 0)
			q = 0;
		if (q > res->max_queue_size)
			res->max_queue_size = q;
		if (trace && q > cfg->trace_queue_len)
			mark_block(t, q, dec, inc, delta);
		if (q > maxq) {
			res->exceeded = true;
			res->queue_size = q;
			res->queue_dec = dec;
			res->queue_inc = inc;
			res->delta_ns = delta;
			if (!trace)
				mark_block(t, q, dec, inc, delta);
			mark_exceeded(t, q, maxq);
			return;
		}
	}
}

static void *measure(void *arg)
{
	struct ql_thread *t = arg;
	int prio;

	sigset_t mine;

	sigemptyset(&mine);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&mine, stop_signals[i]);
	pthread_sigmask(SIG_UNBLOCK, &mine, NULL);
	if (rt_sched_get(0, &t->res->policy, &prio))
		t->res->policy = -1;
	calibrate(t);
	if (t->res->calibrated && !stopped(t)) {
		t->done(t->ctx, t->res);
		queue_loop(t);
	}
	t->res->stop_signal = stop_signal;
	return NULL;
}

int ql_run(const struct queuelat_config *cfg, const struct ql_model *m, int marker_fd,
	   struct ql_result *res, ql_calibrated_fn done, void *ctx)
{
	struct ql_thread t = {
		.cfg = cfg, .m = m, .marker_fd = marker_fd, .res = res, .done = done, .ctx = ctx,
	};
	struct sigaction sa = { .sa_handler = on_stop };
	pthread_t tid;
	int err;

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (sigaction(stop_signals[i], &sa, NULL))
			return res->error = -errno;
	if (cfg->timeout_s)
		t.deadline_ns = rt_time_mono_ns() + (int64_t)cfg->timeout_s * RT_NSEC_PER_SEC;

	res->policy = -1;
	t.src = malloc(QL_MAX_BYTES);
	t.dst = malloc(QL_MAX_BYTES);
	if (!t.src || !t.dst) {
		err = -ENOMEM;
		goto out;
	}
	/* every page present before the first block: no fault is measured */
	memset(t.src, 0x5a, QL_MAX_BYTES);
	memset(t.dst, 0, QL_MAX_BYTES);
	res->start_ns = rt_time_mono_ns();
	if ((err = -pthread_create(&tid, NULL, measure, &t)))
		goto out;
	pthread_join(tid, NULL);
	res->elapsed_ns = rt_time_mono_ns() - res->start_ns;
out:
	free(t.src);
	free(t.dst);
	res->error = err;
	return err;
}
