// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The instrument. A polling thread reads the clock in a loop and counts the
 * gap since the previous read; see measure.h for what each sample costs.
 * No allocation, no lock, no system call in the loop: the slow path (new
 * extremes, overflows, -T, --analyze, phase change, stop) is entered only
 * by a gap outside the thread's window or when main zeroes its span.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_mem.h"
#include "rt_sched.h"
#include "rt_time.h"

#include "measure.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
uint64_t oslat_clock(void)
{
	return __rdtsc();
}
#define clock_read() __rdtsc()
#else
uint64_t oslat_clock(void)
{
	return (uint64_t)rt_time_mono_ns();
}
#define clock_read() ((uint64_t)rt_time_mono_ns())
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static int64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static bool stopping(const struct oslat_thread *t)
{
	return rt_workers_stopping(t->run->workers);
}

/* The window of ordinary gaps: [lo, hi) with hi the first gap needing attention. */
static void set_window(struct oslat_thread *t, bool test)
{
	uint64_t hi = UINT64_MAX;

	t->lo_c = t->min_c;
	if (test) {
		hi = t->ovf_c;
		if (t->max_c < hi - 1)
			hi = t->max_c + 1;
		if (t->trace_c < hi)
			hi = t->trace_c;
		if (t->analyze_c < hi)
			hi = t->analyze_c;
	}
	atomic_store_explicit(&t->span, hi > t->lo_c ? hi - t->lo_c : 0, memory_order_relaxed);
	/* Dekker with oslat_kick(): either we see the stop or main's 0 comes after ours. */
	atomic_thread_fence(memory_order_seq_cst);
}

/* -T: the first thread over the threshold stops the trace and the run. */
static void trace_hit(struct oslat_thread *t, int64_t label)
{
	struct oslat_run *run = t->run;
	char msg[128];
	int err;

	if (!rt_workers_claim_break(run->workers, t->index, label))
		return;
	t->trace_hit_us = label;
	snprintf(msg, sizeof(msg), "oslat: Trace threshold (%" PRId64 " us) triggered on cpu %d "
		 "with %" PRId64 " us!\n", t->cfg->trace_threshold_us, t->cpu, label);
	if ((err = rt_trace_mark(&run->trace, msg)) && err != -EBADF)
		atomic_store(&run->trace_err, err);
	if ((err = rt_trace_stop(&run->trace)) && err != -EBADF)
		atomic_store(&run->trace_err, err);
	rt_workers_request_stop(run->workers);
}

/* --analyze: note the gap when it is worse than the one still pending. */
static void note_gap(struct oslat_thread *t, uint64_t d, int64_t label)
{
	struct oslat_note *n = &t->note;
	uint32_t seq = atomic_load_explicit(&n->seq, memory_order_relaxed);
	struct timespec ts;

	if (atomic_load_explicit(&n->pending, memory_order_acquire) && label <= n->gap_us)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* vDSO: no system call */
	atomic_store_explicit(&n->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	n->gap_us = label;
	n->gap_ns = (int64_t)(d * 1000 / t->mhz);
	n->end_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	n->cpu = t->cpu;
	atomic_store_explicit(&n->seq, seq + 2, memory_order_release);
	atomic_store_explicit(&n->pending, true, memory_order_release);
}

/* A test gap outside the window. false: leave the loop. */
static bool slow_test(struct oslat_thread *t, uint64_t d)
{
	const uint64_t last = (uint64_t)t->cfg->buckets - 1;
	uint64_t idx;

	if (stopping(t))
		return false;
	if (atomic_load_explicit(&t->span, memory_order_relaxed) == 0 && t->max_c && d >= t->lo_c &&
	    d < t->ovf_c && d <= t->max_c && d < t->trace_c && d < t->analyze_c) {
		/* kicked, an ordinary gap: count it as the fast path would */
		idx = d / t->mhz;
		atomic_store_explicit(&t->buckets[idx],
				      atomic_load_explicit(&t->buckets[idx], memory_order_relaxed) + 1,
				      memory_order_relaxed);
		set_window(t, true);
		return !stopping(t);
	}
	if (d < t->min_c)
		t->min_c = d;
	if (d > t->max_c)
		t->max_c = d;
	idx = d / t->mhz;
	if (idx >= last) {
		int64_t label = (int64_t)idx + 1;

		t->ovf_extra_us += idx - last;
		rt_loghist_add(t->ovf_hist, label);
		if (label > t->ovf_max_us)
			t->ovf_max_us = label;
		atomic_store_explicit(&t->ovf_count,
				      atomic_load_explicit(&t->ovf_count, memory_order_relaxed) + 1,
				      memory_order_relaxed);
		idx = last;
	}
	/* release: the overflow's histogram and surplus before its count (records) */
	atomic_store_explicit(&t->buckets[idx],
			      atomic_load_explicit(&t->buckets[idx], memory_order_relaxed) + 1,
			      memory_order_release);
	if (d >= t->analyze_c)
		note_gap(t, d, oslat_label_us(d, t->mhz));
	if (d >= t->trace_c) {
		trace_hit(t, oslat_label_us(d, t->mhz));
		return false;
	}
	set_window(t, true);
	return !stopping(t);
}

/* A pre-heat gap outside the window: a new minimum, or the phase changed. */
static bool slow_preheat(struct oslat_thread *t, uint64_t d)
{
	if (stopping(t) ||
	    atomic_load_explicit(&t->run->phase, memory_order_acquire) != OSLAT_PHASE_PREHEAT)
		return false;
	if (d < t->min_c)
		t->min_c = d;
	set_window(t, false);
	return !stopping(t);
}

/*
 * The loop. Inlined twice per workload so that the compiler sees constants;
 * per sample: the clock read, a subtraction, the window compare (span is
 * reloaded, main may zero it), the bucket index (multiply, shift) and the
 * increment (a plain load/add/store: the thread is the only writer).
 */
static inline __attribute__((always_inline)) void poll(struct oslat_thread *t, bool test,
						       bool memmove_wl)
{
	_Atomic uint64_t *b = t->buckets;
	uint64_t mult = t->mult, lo = t->lo_c, prev, now, d;
	const size_t bytes = (size_t)t->cfg->workload_bytes;
	void *src = t->src, *dst = t->dst;

	prev = test ? t->start_c : t->pre_start_c;
	for (;;) {
		if (memmove_wl)
			memmove(dst, src, bytes);
		now = clock_read();
		d = now - prev;
		prev = now;
		if (__builtin_expect(d - lo >= atomic_load_explicit(&t->span, memory_order_relaxed),
				     0)) {
			if (!(test ? slow_test(t, d) : slow_preheat(t, d)))
				break;
			lo = t->lo_c;
			continue;
		}
		if (test) { /* the pre-heat counts nothing: a run stopped in it has no samples */
			size_t i = (size_t)((d * mult) >> OSLAT_MULT_SHIFT);
			atomic_store_explicit(&b[i],
					      atomic_load_explicit(&b[i], memory_order_relaxed) + 1,
					      memory_order_relaxed);
		}
	}
	t->end_c = prev;
}

static void poll_test(struct oslat_thread *t)
{
	if (t->cfg->workload == OSLAT_WORKLOAD_MEMMOVE)
		poll(t, true, true);
	else
		poll(t, true, false);
}

static void poll_preheat(struct oslat_thread *t)
{
	if (t->cfg->workload == OSLAT_WORKLOAD_MEMMOVE)
		poll(t, false, true);
	else
		poll(t, false, false);
}

/*
 * The clock's frequency against CLOCK_MONOTONIC_RAW across a short sleep,
 * in whole MHz as 2.4 shows it. (Measured across busy polling instead, a
 * virtual machine's TSC reads up to 2% slow while its vCPU ramps up.)
 */
static void measure_mhz(struct oslat_thread *t)
{
	struct timespec nap = { 0, OSLAT_CALIBRATE_NS };
	int64_t ns0, ns;
	uint64_t c0, c;

	ns0 = raw_ns();
	c0 = clock_read();
	nanosleep(&nap, NULL);
	c = clock_read() - c0;
	ns = raw_ns() - ns0;
	t->mhz = ns > 0 ? (uint32_t)((c * 1000 + (uint64_t)ns / 2) / (uint64_t)ns) : 0;
	if (!t->mhz)
		t->mhz = 1;
}

static void preheat(struct oslat_thread *t)
{
	t->min_c = UINT64_MAX;
	t->lo_c = UINT64_MAX;
	atomic_store(&t->span, 0);
	t->pre_start_c = clock_read();
	poll_preheat(t);
	t->pre_min_c = t->min_c;
}

/* The thresholds in cycles at the frequency main settled on; buckets emptied. */
static void prepare_test(struct oslat_thread *t)
{
	const struct oslat_config *cfg = t->cfg;
	uint64_t mhz = t->mhz;

	t->mult = ((1ULL << OSLAT_MULT_SHIFT) + mhz - 1) / mhz;
	t->ovf_c = (uint64_t)(cfg->buckets - 1) * mhz;
	t->trace_c = cfg->trace_threshold_us ? (uint64_t)(cfg->trace_threshold_us - 1) * mhz
					     : UINT64_MAX;
	t->analyze_c = cfg->analyze ? (uint64_t)(cfg->analyze_us - 1) * mhz : UINT64_MAX;
	for (int64_t i = 0; i < cfg->buckets; i++)
		atomic_store_explicit(&t->buckets[i], 0, memory_order_relaxed);
	t->min_c = UINT64_MAX;
	t->max_c = 0;
	t->lo_c = UINT64_MAX;
	atomic_store(&t->span, 0);
}

static int alloc_buffers(struct oslat_thread *t)
{
	const struct oslat_config *cfg = t->cfg;
	size_t bytes = (size_t)cfg->buckets * sizeof(*t->buckets);
	void *mem;

	if (posix_memalign(&mem, 64, bytes))
		return -ENOMEM;
	t->buckets = mem;
	memset(mem, 0, bytes);
	t->ovf_hist = rt_mem_alloc_pages(sizeof(*t->ovf_hist));
	if (!t->ovf_hist)
		return -ENOMEM;
	rt_loghist_init(t->ovf_hist);
	if (cfg->workload == OSLAT_WORKLOAD_MEMMOVE && cfg->workload_bytes) {
		t->src = malloc((size_t)cfg->workload_bytes);
		t->dst = malloc((size_t)cfg->workload_bytes);
		if (!t->src || !t->dst)
			return -ENOMEM;
		memset(t->src, 1, (size_t)cfg->workload_bytes);
		memset(t->dst, 0, (size_t)cfg->workload_bytes);
	}
	return 0;
}

void *oslat_measure(void *arg)
{
	struct oslat_thread *t = arg;
	struct oslat_run *run = t->run;
	int err;

	atomic_store(&t->tid, rt_sched_gettid());
	t->ran_policy = rt_sched_policy_in_force();
	if ((err = alloc_buffers(t))) {
		t->error = -err;
		t->error_what = "allocating the measurement buffers";
		rt_workers_request_stop(run->workers);
	}
	rt_mem_prefault_stack(RT_WORKER_STACK_PREFAULT_BYTES);
	if (t->preheater)
		measure_mhz(t);
	rt_workers_arrive(run->workers);

	if (!stopping(t) && t->preheater) {
		preheat(t);
		atomic_fetch_add(&run->preheated, 1);
	}
	while (!stopping(t) && atomic_load_explicit(&run->phase, memory_order_acquire) !=
				       OSLAT_PHASE_TEST)
		cpu_relax();
	if (!stopping(t)) {
		prepare_test(t);
		t->tested = true;
		t->start_c = clock_read();
		poll_test(t);
	}
	rt_workers_finish(run->workers, t->index);
	return NULL;
}
