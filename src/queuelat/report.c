// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "rt_json.h"
#include "rt_prog.h"
#include "rt_verdict_write.h"

#include "report.h"

void ql_print_header(FILE *f, const struct ql_model *m, double mhz, enum ql_tsc_source src)
{
	if (src != QL_TSC_OPTION)
		fprintf(f, "# TSC frequency: %.3f MHz, from %s\n", mhz, ql_tsc_source_text(src));
	fprintf(f, "tsc_freq_ghz = %f, cycles_to_ns = %f\n", m->tsc_freq_ghz, m->cycles_to_ns);
	fprintf(f, "max_queue_len = %" PRId64 "\n", m->max_queue_len);
	fflush(f);
}

void ql_print_hist(FILE *f, const struct ql_hist *h, double mpps)
{
	bool dots = false;

	for (int i = 0; i < QL_NBUCKETS; i++) {
		int64_t lo = (int64_t)i * QL_BUCKET_NS, hi = lo + QL_BUCKET_NS - 1;

		if (h->counts[i] == h->counts[i + 1]) {
			if (!dots)
				fputs("...\n", f);
			dots = true;
			continue;
		}
		dots = false;
		fprintf(f, "[%" PRId64 " - %" PRId64 "] = %" PRIu64, lo, hi, h->counts[i]);
		if (mpps > 0)
			fprintf(f, "  packetfillrates=[%" PRId64 " - %" PRId64 "]",
				ql_arrivals(lo, mpps), ql_arrivals(hi, mpps));
		fputc('\n', f);
	}
	fprintf(f, "[%d - END] = %" PRIu64 "\n", QL_NBUCKETS * QL_BUCKET_NS, h->counts[QL_NBUCKETS]);
}

void ql_print_calibration(FILE *f, const struct ql_result *res, double mpps)
{
	ql_print_hist(f, &res->calib, mpps);
	fprintf(f, "default_n=%zu nr_packets_drain_per_block=%" PRId64 "\n", res->block_bytes,
		res->drain_per_block);
	fflush(f);
}

/* The histogram the run ends with: the queue's, or the calibration round's if it never began. */
static const struct ql_hist *final_hist(const struct ql_result *res)
{
	return res->calibrated ? &res->main : &res->calib;
}

struct ql_summary {
	uint64_t total;
	int min, max;       /* buckets */
	uint64_t avg_ns;    /* 2.4: weighted by each bucket's upper bound */
};

static struct ql_summary summarize(const struct ql_hist *h)
{
	struct ql_summary s = { 0, -1, -1, 0 };
	uint64_t sum = 0;

	for (int i = 0; i <= QL_NBUCKETS; i++) {
		if (!h->counts[i])
			continue;
		if (s.min < 0)
			s.min = i;
		s.max = i;
		s.total += h->counts[i];
		sum += h->counts[i] * (uint64_t)(i * QL_BUCKET_NS + QL_BUCKET_NS - 1);
	}
	if (s.total)
		s.avg_ns = (uint64_t)(sum / s.total);
	return s;
}

static void print_bucket(FILE *f, const char *what, const struct ql_hist *h, int i)
{
	fprintf(f, "%s loop processing time: [%d - %d] = %" PRIu64 "\n", what, i * QL_BUCKET_NS,
		i * QL_BUCKET_NS + QL_BUCKET_NS - 1, h->counts[i]);
}

/* A signal before the timeout asked for stopped the run early; without -t a signal is its end. */
static void judge_stop(struct rt_verdict *v, const struct queuelat_config *cfg,
		       const struct ql_result *res)
{
	double done = (double)res->elapsed_ns / 1e9, asked = cfg->timeout_s ? (double)cfg->timeout_s : -1;
	char buf[32];

	if (res->stop_signal && !res->exceeded && cfg->timeout_s && !res->timed_out)
		rt_verdict_set_partial(v, rt_verdict_signal_cause(res->stop_signal, buf, sizeof(buf)),
				       done, asked, "s");
	else
		rt_verdict_set_done(v, done, asked, "s");
}

int ql_judge(struct rt_verdict *v, const struct queuelat_config *cfg, const struct ql_result *res,
	     const struct ql_model *m)
{
	char detail[160];
	int err = 0;

	rt_verdict_init(v);
	if (res->blocks)
		err = rt_verdict_add_checked(v, "blocks", res->blocks);
	if (res->exceeded) {
		struct rt_check_failure c = {
			.limit = "max-len", .subject = RT_SUBJECT_NONE, .index = -1,
			.value = res->queue_size, .bound = m->max_queue_len, .unit = "packets",
			.detail = detail,
		};

		snprintf(detail, sizeof(detail), "queue length exceeded: %" PRId64 " > %" PRId64
			 " packets after a %" PRId64 " ns block: a packet would wait more than %"
			 PRId64 " ns", res->queue_size, m->max_queue_len, res->delta_ns,
			 cfg->max_latency_ns);
		err = rt_verdict_fail_check(v, &c) ? -ENOMEM : err;
	}
	judge_stop(v, cfg, res);
	rt_verdict_finish(v);
	return err;
}

void ql_print_result(FILE *f, const struct ql_result *res, const struct ql_model *m)
{
	const struct ql_hist *h = final_hist(res);
	struct ql_summary s = summarize(h);

	if (res->exceeded)
		fprintf(f, "queue length exceeded:  queue_size=%" PRId64 " max_queue_len=%" PRId64
			"\n", res->queue_size, m->max_queue_len);
	ql_print_hist(f, h, 0);
	fputs("\n ---------------- \n", f);
	if (s.total) {
		print_bucket(f, "Min", h, s.min);
		print_bucket(f, "Max", h, s.max);
		fprintf(f, "Avg loop processing time: %" PRIu64 "\n", s.avg_ns);
	}
	fflush(f);
}

static const char *stopped_by(const struct ql_result *res)
{
	if (res->exceeded)
		return "exceeded";
	switch (res->stop_signal) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGALRM: return "SIGALRM";
	default: break;
	}
	return res->timed_out ? "timeout" : "?";
}

static void json_hist(struct rt_json *j, const struct ql_hist *h)
{
	struct ql_summary s = summarize(h);

	rt_json_object_begin(j, "histogram");
	rt_json_int(j, "bucket_ns", QL_BUCKET_NS);
	rt_json_uint(j, "samples", s.total);
	rt_json_array_begin(j, "buckets");  /* the non-empty ones */
	for (int i = 0; i <= QL_NBUCKETS; i++) {
		if (!h->counts[i])
			continue;
		rt_json_object_begin(j, NULL);
		rt_json_int(j, "from_ns", (int64_t)i * QL_BUCKET_NS);
		rt_json_uint(j, "count", h->counts[i]);
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
	if (s.total) {
		rt_json_int(j, "min_ns", (int64_t)s.min * QL_BUCKET_NS);
		rt_json_int(j, "max_ns", (int64_t)s.max * QL_BUCKET_NS + QL_BUCKET_NS - 1);
		rt_json_uint(j, "avg_ns", s.avg_ns);
	}
	rt_json_object_end(j);
}

int ql_write_json(FILE *f, const struct rt_report *rep, int return_code,
		  const struct queuelat_config *cfg, const struct ql_model *m, double mhz,
		  enum ql_tsc_source src, const struct ql_result *res, const struct rt_verdict *v,
		  const struct rt_env *env)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	rt_json_int(&j, "max_latency_ns", cfg->max_latency_ns);
	rt_json_int(&j, "cycles", cfg->cycles);
	rt_json_double(&j, "mpps", cfg->mpps, 6);
	rt_json_double(&j, "tsc_freq_mhz", mhz, 3);
	rt_json_string(&j, "tsc_freq_source", ql_tsc_source_key(src));
	rt_json_string(&j, "tsc_freq_source_detail", ql_tsc_source_text(src));
	rt_json_double(&j, "cycles_to_ns", m->cycles_to_ns, 6);
	rt_json_int(&j, "max_queue_len", m->max_queue_len);
	if (cfg->trace_queue_given)
		rt_json_int(&j, "queue_len", cfg->trace_queue_len);
	else
		rt_json_null(&j, "queue_len");
	rt_json_uint(&j, "timeout_s", cfg->timeout_s);
	rt_json_bool(&j, "calibrated", res->calibrated);
	rt_json_uint(&j, "default_n", res->block_bytes);
	rt_json_int(&j, "nr_packets_drain_per_block", res->drain_per_block);
	rt_json_uint(&j, "blocks", res->blocks);
	rt_json_int(&j, "max_queue_size", res->max_queue_size);
	rt_json_bool(&j, "exceeded", res->exceeded);
	if (res->exceeded) {
		rt_json_object_begin(&j, "exceeded_block");
		rt_json_int(&j, "queue_size", res->queue_size);
		rt_json_int(&j, "queue_dec", res->queue_dec);
		rt_json_int(&j, "queue_inc", res->queue_inc);
		rt_json_int(&j, "delta_ns", res->delta_ns);
		rt_json_object_end(&j);
	}
	rt_json_string(&j, "stopped_by", stopped_by(res));
	json_hist(&j, final_hist(res));
	rt_verdict_write_json(&j, v);
	rt_report_sched_add(&sched, res->policy);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
