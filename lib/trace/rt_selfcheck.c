// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "rt_selfcheck.h"
#include "rt_spike_write.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank of the sorted v[0..n): p in percent. */
static int64_t rank(const int64_t *v, size_t n, unsigned p)
{
	size_t k = (n * p + 99) / 100;

	return n ? v[(k ? k : 1) - 1] : -1;
}

static int64_t absdiff(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

/* Event lists of the task, in time order, walked forward with the samples. */
struct cursor {
	const struct rt_ev *ev;
	size_t n, i;
	enum rt_ev_type type;
	int tid;
};

static bool mine(const struct cursor *c, size_t i)
{
	return c->ev[i].type == c->type && c->ev[i].pid == c->tid;
}

/*
 * The thread's arming of this wakeup: of its hrtimer_start events up to
 * its wakeup (since the cursor's last stop, the previous wakeup), the one
 * whose expiry is closest to due; other hrtimers started in its context
 * (the scheduler's) differ. A thread held up after the previous wakeup
 * arms after due: the bound is the wakeup, not due.
 */
static const struct rt_ev *arming(struct cursor *c, int64_t due, int64_t woke)
{
	const struct rt_ev *found = NULL;

	for (; c->i < c->n && c->ev[c->i].ts_ns <= woke; c->i++)
		if (mine(c, c->i) &&
		    (!found || absdiff(c->ev[c->i].expires, due) <= absdiff(found->expires, due)))
			found = &c->ev[c->i];
	return found;
}

/*
 * The last event of the cursor's kind in [from, to]: the switch-in that
 * ended the sleep, not an earlier one after a preemption before it.
 */
static const struct rt_ev *last_in(struct cursor *c, int64_t from, int64_t to)
{
	const struct rt_ev *found = NULL;

	while (c->i < c->n && c->ev[c->i].ts_ns < from)
		c->i++;
	for (; c->i < c->n && c->ev[c->i].ts_ns <= to; c->i++)
		if (mine(c, c->i))
			found = &c->ev[c->i];
	return found;
}

/* The first event of the cursor's kind in [from, to]. */
static const struct rt_ev *first_in(struct cursor *c, int64_t from, int64_t to)
{
	while (c->i < c->n && c->ev[c->i].ts_ns < from)
		c->i++;
	for (size_t i = c->i; i < c->n && c->ev[i].ts_ns <= to; i++)
		if (mine(c, i)) {
			c->i = i + 1;
			return &c->ev[i];
		}
	return NULL;
}

/*
 * Time in [from, to] on cpu that the trace explains: hard IRQs, softirqs
 * and the thread (tid) switched out. Starts at index i (the event at from).
 */
static int64_t explained_ns(const struct rt_ev *ev, size_t n, size_t i, int cpu, int tid,
			    int64_t from, int64_t to)
{
	int64_t total = 0, since = 0;
	int depth = 0;
	bool out = false;

	for (; i < n && ev[i].ts_ns <= to; i++) {
		const struct rt_ev *e = &ev[i];
		bool busy = depth > 0 || out;

		if (e->cpu != cpu)
			continue;
		switch (e->type) {
		case RT_EV_IRQ_ENTRY:
		case RT_EV_TIMER_IRQ_ENTRY:
		case RT_EV_SOFTIRQ_ENTRY:
			depth++;
			break;
		case RT_EV_IRQ_EXIT:
		case RT_EV_TIMER_IRQ_EXIT:
		case RT_EV_SOFTIRQ_EXIT:
			depth -= depth > 0;
			break;
		case RT_EV_SWITCH:
			if (e->prev_pid == tid)
				out = true;
			if (e->pid == tid)
				out = false;
			break;
		default:
			break;
		}
		if (!busy && (depth > 0 || out))
			since = e->ts_ns;
		else if (busy && !(depth > 0 || out))
			total += e->ts_ns - (since > from ? since : from);
	}
	if (depth > 0 || out)
		total += to - (since > from ? since : from);
	return total;
}

/*
 * The timer interrupt that ran the armed expiry: the first timer IRQ or
 * hrtimer expiry on cpu from the expiry on, before the return. -1: none
 * (the thread did not sleep, or the trace lacks it).
 */
static int64_t irq_delay(const struct rt_ev *ev, size_t n, size_t from, int cpu, int64_t expires,
			 int64_t until)
{
	for (size_t i = from; i < n && ev[i].ts_ns <= until; i++)
		if (ev[i].cpu == cpu && ev[i].ts_ns >= expires &&
		    (ev[i].type == RT_EV_TIMER_IRQ_ENTRY || ev[i].type == RT_EV_HRTIMER_ENTRY))
			return ev[i].ts_ns - expires;
	return -1;
}

/* The IRQ figures from the delays of the samples that have one. */
static void irq_figures(int64_t *irq, size_t ni, struct rt_selfcheck_result *r)
{
	r->irq_found = ni;
	r->irq_late = 0;
	for (size_t k = 0; k < ni; k++)
		r->irq_late += irq[k] > RT_SELFCHECK_IRQ_LATE_NS;
	qsort(irq, ni, sizeof(*irq), cmp_i64);
	r->irq_p50 = rank(irq, ni, 50);
	r->irq_p99 = rank(irq, ni, 99);
	r->irq_max = ni ? irq[ni - 1] : -1;
}

/* The per-sample figures of the samples found in the trace, and their counts. */
struct matches {
	int64_t *expiry, *diff, *back, *ret_ns, *irq;
	bool *cold;
	int64_t floor[2];   /* the least ret_ns after idle [0] and after another task [1] */
	size_t m, nb, ni;   /* found samples, of them switched in, with an IRQ delay */
};

static void matches_free(struct matches *mt)
{
	free(mt->irq);
	free(mt->expiry);
	free(mt->diff);
	free(mt->back);
	free(mt->ret_ns);
	free(mt->cold);
}

/* Room for ns samples in each array. 0 or -ENOMEM (nothing left allocated). */
static int matches_alloc(struct matches *mt, size_t ns)
{
	*mt = (struct matches){ .floor = { INT64_MAX, INT64_MAX } };
	mt->expiry = calloc(ns ? ns : 1, sizeof(*mt->expiry));
	mt->diff = calloc(ns ? ns : 1, sizeof(*mt->diff));
	mt->back = calloc(ns ? ns : 1, sizeof(*mt->back));
	mt->ret_ns = calloc(ns ? ns : 1, sizeof(*mt->ret_ns));
	mt->cold = calloc(ns ? ns : 1, sizeof(*mt->cold));
	mt->irq = calloc(ns ? ns : 1, sizeof(*mt->irq));
	if (!mt->expiry || !mt->diff || !mt->back || !mt->ret_ns || !mt->cold || !mt->irq) {
		matches_free(mt);
		return -ENOMEM;
	}
	return 0;
}

/* Each sample's arming, switch-in and return in the trace, walked forward once. */
static void match_samples(const struct rt_ev *ev, size_t n, int tid,
			  const struct rt_selfcheck_sample *s, size_t ns, struct matches *mt)
{
	struct cursor arm = { ev, n, 0, RT_EV_HRTIMER_START, tid };
	struct cursor in = { ev, n, 0, RT_EV_SWITCH, tid };
	struct cursor ret = { ev, n, 0, RT_EV_SYS_EXIT, tid };
	size_t m = 0;

	for (size_t k = 0; k < ns; k++) {
		/*
		 * Armed, then returned from the syscall by woke; switched in
		 * last before the return (unless it was due already and never
		 * slept).
		 */
		const struct rt_ev *a = arming(&arm, s[k].due_ns, s[k].woke_ns);
		const struct rt_ev *x = a ? first_in(&ret, a->ts_ns, s[k].woke_ns) : NULL;
		const struct rt_ev *sw = x ? last_in(&in, a->ts_ns, x->ts_ns) : NULL;

		if (!x)
			continue;
		mt->expiry[m] = absdiff(s[k].due_ns, a->expires);
		mt->ret_ns[m] = s[k].woke_ns - x->ts_ns -
				explained_ns(ev, n, (size_t)(x - ev), x->cpu, tid, x->ts_ns,
					     s[k].woke_ns);
		if (sw)
			mt->back[mt->nb++] = x->ts_ns - sw->ts_ns;
		if (sw && sw->ts_ns > a->expires &&
		    (mt->irq[mt->ni] = irq_delay(ev, n, (size_t)(a - ev), x->cpu, a->expires,
						 sw->ts_ns)) >= 0)
			mt->ni++;
		/* After another task than idle, caches and TLB are cold: a fixed cost of its own. */
		mt->cold[m] = sw && sw->prev_pid != 0;
		if (mt->ret_ns[m] < mt->floor[mt->cold[m]])
			mt->floor[mt->cold[m]] = mt->ret_ns[m];
		m++;
	}
	mt->m = m;
}

/* The result's figures from the matched samples (their arrays sorted in place). */
static void summarize(struct matches *mt, struct rt_selfcheck_result *r)
{
	size_t m = mt->m, nb = mt->nb;

	/*
	 * From sys_exit to the thread's clock read there is a fixed cost (the
	 * rest of the exit path, the trace event's own, the vDSO read): its
	 * floor over the run is explained; what a sample adds to it is not.
	 */
	for (size_t k = 0; k < m; k++) {
		mt->diff[k] = mt->ret_ns[k] - mt->floor[mt->cold[k]];
		if (mt->expiry[k] <= RT_SELFCHECK_TOLERANCE_NS &&
		    mt->diff[k] <= RT_SELFCHECK_TOLERANCE_NS)
			r->agree++;
	}
	r->matched = m;
	r->switched = nb;
	r->ret_floor = !m ? -1 : mt->floor[0] < mt->floor[1] ? mt->floor[0] : mt->floor[1];
	qsort(mt->expiry, m, sizeof(*mt->expiry), cmp_i64);
	qsort(mt->diff, m, sizeof(*mt->diff), cmp_i64);
	qsort(mt->back, nb, sizeof(*mt->back), cmp_i64);
	r->expiry_p50 = rank(mt->expiry, m, 50);
	r->expiry_p99 = rank(mt->expiry, m, 99);
	r->expiry_max = m ? mt->expiry[m - 1] : -1;
	r->diff_p50 = rank(mt->diff, m, 50);
	r->diff_p99 = rank(mt->diff, m, 99);
	r->diff_max = m ? mt->diff[m - 1] : -1;
	r->ret_p50 = rank(mt->back, nb, 50);
	r->ret_p99 = rank(mt->back, nb, 99);
	irq_figures(mt->irq, mt->ni, r);
}

int rt_selfcheck_compare(const struct rt_ev *ev, size_t n, int tid,
			 const struct rt_selfcheck_sample *s, size_t ns,
			 struct rt_selfcheck_result *r)
{
	struct matches mt;

	*r = (struct rt_selfcheck_result){ .samples = ns };
	if (matches_alloc(&mt, ns))
		return -ENOMEM;
	match_samples(ev, n, tid, s, ns, &mt);
	summarize(&mt, r);
	matches_free(&mt);
	return 0;
}

bool rt_selfcheck_pass(const struct rt_selfcheck_result *r)
{
	return r->samples > 0 && r->agree * 100 >= r->samples * RT_SELFCHECK_PASS_PCT;
}

enum rt_selfcheck_verdict rt_selfcheck_verdict(const struct rt_selfcheck_result *r)
{
	if (rt_selfcheck_why_not(r))
		return RT_SELFCHECK_NOT_CHECKED;
	return rt_selfcheck_pass(r) ? RT_SELFCHECK_PASS : RT_SELFCHECK_FAIL;
}

const char *rt_selfcheck_why_not(const struct rt_selfcheck_result *r)
{
	if (!r->samples)
		return "no samples";
	if (!r->matched)
		return "the trace holds no arming and return of the thread's sleeps";
	if (!r->switched)
		return "the trace holds no switch-in of the thread";
	return NULL;
}

static const char *verdict_name(enum rt_selfcheck_verdict v)
{
	return v == RT_SELFCHECK_PASS ? "PASS" : v == RT_SELFCHECK_FAIL ? "FAIL" : "not checked";
}

/*
 * "# Self-check: IRQ late (more than 20 us after the expiry): 1.2% of
 * 9876 samples; expiry -> IRQ entry p50 ..., p99 ..., max ...".
 */
static void write_irq_text(FILE *f, const struct rt_selfcheck_result *r)
{
	uint64_t pm = r->irq_found ? r->irq_late * 1000 / r->irq_found : 0;

	if (!r->irq_found) {
		fputs("# Self-check: IRQ late: not checked (no timer interrupt in the trace)\n", f);
		return;
	}
	fprintf(f, "# Self-check: IRQ late (more than %d us after the expiry): %" PRIu64 ".%" PRIu64
		"%% of %" PRIu64 " samples", RT_SELFCHECK_IRQ_LATE_NS / 1000, pm / 10, pm % 10,
		r->irq_found);
	rt_spike_write_us(f, "; expiry -> IRQ entry p50", r->irq_p50);
	rt_spike_write_us(f, ", p99", r->irq_p99);
	rt_spike_write_us(f, ", max", r->irq_max);
	fputc('\n', f);
}

void rt_selfcheck_write_text(FILE *f, const struct rt_selfcheck_result *r, int cpu)
{
	enum rt_selfcheck_verdict v = rt_selfcheck_verdict(r);

	uint64_t pm = r->samples ? r->agree * 1000 / r->samples : 0;

	fprintf(f, "# Self-check: %" PRIu64 " samples on CPU %d, %" PRIu64 " found in the trace, "
		"%" PRIu64 " agree within %d us (%" PRIu64 ".%" PRIu64 "%%)\n", r->samples, cpu,
		r->matched, r->agree, RT_SELFCHECK_TOLERANCE_NS / 1000, pm / 10, pm % 10);
	rt_spike_write_us(f, "# Self-check: our expiry vs hrtimer_start's: p50", r->expiry_p50);
	rt_spike_write_us(f, ", p99", r->expiry_p99);
	rt_spike_write_us(f, ", max", r->expiry_max);
	fputc('\n', f);
	rt_spike_write_us(f, "# Self-check: our wakeup vs sys_exit beyond the fixed", r->ret_floor);
	rt_spike_write_us(f, ": p50", r->diff_p50);
	rt_spike_write_us(f, ", p99", r->diff_p99);
	rt_spike_write_us(f, ", max", r->diff_max);
	fputc('\n', f);
	write_irq_text(f, r);
	if (r->switched) {
		rt_spike_write_us(f, "# Self-check: switch-in -> sys_exit: p50", r->ret_p50);
		rt_spike_write_us(f, ", p99", r->ret_p99);
		fputc('\n', f);
	} else {
		fputs("# Self-check: switch-in -> sys_exit: not checked (no switch-in in the trace)\n",
		      f);
	}
	if (v == RT_SELFCHECK_NOT_CHECKED)
		fprintf(f, "# Self-check: not checked on CPU %d: %s\n", cpu, rt_selfcheck_why_not(r));
	else
		fprintf(f, "# Self-check: %s (at least %d%% must agree)\n", verdict_name(v),
			RT_SELFCHECK_PASS_PCT);
}

static void json_us(struct rt_json *j, const char *key, int64_t ns)
{
	if (ns < 0)
		rt_json_null(j, key);
	else
		rt_json_double(j, key, (double)ns / 1000.0, 1);
}

void rt_selfcheck_write_json(struct rt_json *j, const struct rt_selfcheck_result *r, int cpu)
{
	enum rt_selfcheck_verdict v = rt_selfcheck_verdict(r);

	rt_json_object_begin(j, "self_check");
	rt_json_int(j, "cpu", cpu);
	rt_json_uint(j, "samples", r->samples);
	rt_json_uint(j, "found_in_trace", r->matched);
	rt_json_uint(j, "switched_in", r->switched);
	rt_json_uint(j, "agree", r->agree);
	rt_json_double(j, "agree_share", r->samples ? (double)r->agree / (double)r->samples : 0.0, 4);
	rt_json_double(j, "pass_share", RT_SELFCHECK_PASS_PCT / 100.0, 2);
	rt_json_double(j, "tolerance_us", RT_SELFCHECK_TOLERANCE_NS / 1000.0, 1);
	rt_json_object_begin(j, "expiry_us");
	json_us(j, "p50", r->matched ? r->expiry_p50 : -1);
	json_us(j, "p99", r->matched ? r->expiry_p99 : -1);
	json_us(j, "max", r->matched ? r->expiry_max : -1);
	rt_json_object_end(j);
	json_us(j, "return_floor_us", r->ret_floor);
	rt_json_object_begin(j, "wakeup_beyond_floor_us");
	json_us(j, "p50", r->matched ? r->diff_p50 : -1);
	json_us(j, "p99", r->matched ? r->diff_p99 : -1);
	json_us(j, "max", r->matched ? r->diff_max : -1);
	rt_json_object_end(j);
	rt_json_object_begin(j, "switch_in_to_sys_exit_us");
	json_us(j, "p50", r->switched ? r->ret_p50 : -1);
	json_us(j, "p99", r->switched ? r->ret_p99 : -1);
	rt_json_object_end(j);
	rt_json_object_begin(j, "irq_late");
	rt_json_double(j, "threshold_us", RT_SELFCHECK_IRQ_LATE_NS / 1000.0, 1);
	rt_json_uint(j, "samples", r->irq_found);
	rt_json_uint(j, "late", r->irq_late);
	if (r->irq_found)
		rt_json_double(j, "share", (double)r->irq_late / (double)r->irq_found, 4);
	else
		rt_json_null(j, "share");
	json_us(j, "p50", r->irq_found ? r->irq_p50 : -1);
	json_us(j, "p99", r->irq_found ? r->irq_p99 : -1);
	json_us(j, "max", r->irq_found ? r->irq_max : -1);
	rt_json_object_end(j);
	rt_json_string(j, "verdict", verdict_name(v));
	rt_json_string(j, "reason", rt_selfcheck_why_not(r));
	rt_json_object_end(j);
}
