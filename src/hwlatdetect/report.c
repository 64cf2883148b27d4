// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <signal.h>

#include "rt_json.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_verdict_write.h"

#include "report.h"

void hwlat_print_header(FILE *f, const struct hwlat_config *cfg, const struct hwlat_result *res)
{
	fprintf(f, "hwlatdetect:  test duration %" PRIu64 " seconds\n", cfg->duration_s);
	fputs("   detector: tracer\n", f);
	fputs("   parameters:\n", f);
	fprintf(f, "        CPU list:          %s\n", cfg->cpu_list ? cfg->cpu_list : "None");
	fprintf(f, "        Latency threshold: %" PRId64 "us\n", res->threshold_us);
	fprintf(f, "        Sample window:     %" PRId64 "us\n", res->window_us);
	fprintf(f, "        Sample width:      %" PRId64 "us\n", res->width_us);
	fprintf(f, "     Non-sampling period:  %" PRId64 "us\n", res->window_us - res->width_us);
	fprintf(f, "        Output File:       %s\n", cfg->report ? cfg->report : "None");
	fputs("\nStarting test\n", f);
	fflush(f);
}

void hwlat_print_summary(FILE *f, const struct hwlat_result *res, const struct hwlat_summary *sum)
{
	fputs("test finished\n", f);
	if (sum->max_us == 0)
		fputs("Max Latency: Below threshold\n", f);
	else
		fprintf(f, "Max Latency: %" PRId64 "us\n", sum->max_us);
	fprintf(f, "Samples recorded: %" PRIu64 "\n", sum->samples);
	fprintf(f, "Samples exceeding threshold: %" PRIu64 "\n", sum->spikes);
	if (sum->has_mtbf)
		fprintf(f, "MTBF: %.3f seconds\n", sum->mtbf_s);
	if (res->has_smi) {
		uint64_t total = 0;

		for (int c = 0; c < res->smi_cpus; c++) {
			uint64_t n = (res->smi_after[c] - res->smi_before[c]) & 0xffffffffu;

			if (n) {
				total += n;
				fprintf(f, "%" PRIu64 " SMIs occured on cpu %d\n", n, res->smi_cpu[c]);
			}
		}
		fprintf(f, "SMIs during run: %" PRIu64 "\n", total);
	}
}

void hwlat_print_sample(FILE *f, const struct hwlat_sample *s)
{
	char line[128];

	hwlat_sample_format(s, line, sizeof(line));
	fprintf(f, "%s\n", line);
}

int hwlat_write_samples(FILE *f, const struct hwlat_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		hwlat_print_sample(f, &res->samples[i]);
	return ferror(f) ? -EIO : 0;
}

bool hwlat_failed(const struct hwlat_result *res, const struct hwlat_summary *sum)
{
	return sum->max_us > res->hardlimit_us;
}

bool hwlat_judge_asked(const struct hwlat_config *cfg)
{
	return cfg->common.verdict || cfg->hardlimit_us >= 0;
}

int hwlat_judge(const struct hwlat_config *cfg, struct hwlat_result *res,
		const struct hwlat_summary *sum, double done_s)
{
	struct rt_verdict *v = &res->verdict;
	uint64_t windows = res->window_us > 0 ? (uint64_t)(done_s * 1e6 / (double)res->window_us) : 0;
	char detail[96], cause[16];
	int err;

	rt_verdict_init(v);
	err = rt_verdict_add_checked(v, "windows", windows);
	if (hwlat_failed(res, sum)) {
		snprintf(detail, sizeof(detail), "max latency %" PRId64 " us > hardlimit %" PRId64
			 " us", sum->max_us, res->hardlimit_us);
		err = err ? err : rt_verdict_fail_check(v, &(struct rt_check_failure){
			.limit = "hardlimit", .subject = RT_SUBJECT_NONE, .index = -1,
			.value = sum->max_us, .bound = res->hardlimit_us, .unit = "us",
			.detail = detail });
	}
	if (res->stop_signal)
		rt_verdict_set_partial(v, rt_verdict_signal_cause(res->stop_signal, cause,
								  sizeof(cause)),
				       done_s, (double)cfg->duration_s, "s");
	else
		rt_verdict_set_done(v, done_s, (double)cfg->duration_s, "s");
	rt_verdict_finish(v);
	return err;
}

void hwlat_print_verdict(FILE *f, const struct hwlat_config *cfg, const struct hwlat_result *res)
{
	if (rt_verdict_text_shown(&res->verdict, hwlat_judge_asked(cfg) ? RT_JUDGE_ASKED
									 : RT_JUDGE_NATIVE))
		rt_verdict_write_text(f, &res->verdict, "us");
}

const char *hwlat_stopped_by(const struct hwlat_result *res)
{
	switch (res->stop_signal) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "duration";
	}
}

static void json_samples(struct rt_json *j, const struct hwlat_result *res)
{
	rt_json_array_begin(j, "samples");
	for (size_t i = 0; i < res->n; i++) {
		const struct hwlat_sample *s = &res->samples[i];

		rt_json_object_begin(j, NULL);
		rt_json_string(j, "ts", s->ts);
		rt_json_int(j, "inner_us", s->inner_us);
		rt_json_int(j, "outer_us", s->outer_us);
		if (s->cpu >= 0)
			rt_json_int(j, "cpu", s->cpu);
		else
			rt_json_null(j, "cpu");
		if (s->count >= 0)
			rt_json_int(j, "count", s->count);
		else
			rt_json_null(j, "count");
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
}

static void json_smis(struct rt_json *j, const struct hwlat_result *res)
{
	uint64_t total = 0;

	if (!res->has_smi) {
		rt_json_null(j, "smis");
		return;
	}
	rt_json_object_begin(j, "smis");
	rt_json_array_begin(j, "per_cpu");
	for (int c = 0; c < res->smi_cpus; c++) {
		uint64_t n = (res->smi_after[c] - res->smi_before[c]) & 0xffffffffu;

		total += n;
		rt_json_uint(j, NULL, n);
	}
	rt_json_array_end(j);
	rt_json_array_begin(j, "cpus"); /* the CPU of each per_cpu entry: the online ones */
	for (int c = 0; c < res->smi_cpus; c++)
		rt_json_int(j, NULL, res->smi_cpu[c]);
	rt_json_array_end(j);
	rt_json_uint(j, "total", total);
	rt_json_object_end(j);
}

int hwlat_write_json(FILE *f, const struct rt_report *rep, int return_code,
		     const struct hwlat_config *cfg, const struct hwlat_result *res,
		     const struct hwlat_summary *sum, const struct rt_env *env)
{
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	rt_json_string(&j, "detector", "tracer");
	rt_json_uint(&j, "duration_s", cfg->duration_s);
	rt_json_string(&j, "cpu_list", cfg->cpu_list);
	rt_json_int(&j, "threshold_us", res->threshold_us);
	rt_json_int(&j, "hardlimit_us", res->hardlimit_us);
	rt_json_int(&j, "window_us", res->window_us);
	rt_json_int(&j, "width_us", res->width_us);
	rt_json_string(&j, "report", cfg->report);
	if (sum->samples)
		rt_json_int(&j, "max_latency_us", sum->max_us);
	else
		rt_json_null(&j, "max_latency_us");
	rt_json_uint(&j, "samples_recorded", sum->samples);
	rt_json_uint(&j, "samples_exceeding_threshold", sum->spikes);
	if (sum->has_mtbf)
		rt_json_double(&j, "mtbf_s", sum->mtbf_s, 3);
	else
		rt_json_null(&j, "mtbf_s");
	rt_json_uint(&j, "ignored_lines", res->ignored);
	json_smis(&j, res);
	json_samples(&j, res);
	rt_json_string(&j, "stopped_by", hwlat_stopped_by(res));
	rt_verdict_write_json(&j, &res->verdict);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}

/* The report file, its line, the sample list and the verdict. */
int hwlat_finish_report(FILE *f, const struct hwlat_config *cfg, struct rt_output *file,
			const struct hwlat_result *res, const struct hwlat_summary *sum)
{
	int rc = 0, err;

	if (!cfg->quiet)
		hwlat_print_summary(f, res, sum);
	if (cfg->report) {
		err = hwlat_write_samples(file->f, res);
		if (!err)
			err = rt_output_commit(file);
		if (err) {
			rt_prog_error_errno(-rt_output_why(file, err),
					    "cannot write --report file '%s'", cfg->report);
			rc = RT_EXIT_FAILURE;
		} else if (!cfg->quiet) {
			fprintf(f, "report saved to %s (%zu samples)\n", cfg->report, res->n);
		}
	}
	if (!cfg->quiet) {
		if (!cfg->watch)
			for (size_t i = 0; i < res->n; i++)
				hwlat_print_sample(f, &res->samples[i]);
		hwlat_print_verdict(f, cfg, res);
	}
	return rc;
}
