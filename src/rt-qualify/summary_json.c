// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.json: the overall verdict, each step's (its tool's verdict object copied), the load. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "rt_json.h"
#include "rt_output.h"
#include "rt_prog.h"

#include "summary.h"

/* A json-c value, written again through rt_json (the suite's one writer). */
static void copy_value(struct rt_json *j, const char *key, struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_object:
		rt_json_object_begin(j, key);
		json_object_object_foreach(v, k, m)
			copy_value(j, k, m);
		rt_json_object_end(j);
		break;
	case json_type_array:
		rt_json_array_begin(j, key);
		for (size_t i = 0; i < json_object_array_length(v); i++)
			copy_value(j, NULL, json_object_array_get_idx(v, i));
		rt_json_array_end(j);
		break;
	case json_type_int: rt_json_int(j, key, json_object_get_int64(v)); break;
	case json_type_double: rt_json_double(j, key, json_object_get_double(v), 6); break;
	case json_type_boolean: rt_json_bool(j, key, json_object_get_boolean(v)); break;
	case json_type_string: rt_json_string(j, key, json_object_get_string(v)); break;
	default: rt_json_null(j, key); break;
	}
}

static void write_step(struct rt_json *j, const struct rtq_step *st)
{
	char name[160];

	rt_json_object_begin(j, NULL);
	rt_json_string(j, "name", st->name);
	rt_json_string(j, "tool", st->tool);
	rt_json_bool(j, "under_load", st->under_load);
	rt_json_uint(j, "duration_s", st->duration_s);
	rt_json_bool(j, "ran", st->ran);
	rt_json_bool(j, "stopped", st->stopped);
	if (st->exit_code >= 0)
		rt_json_int(j, "exit_code", st->exit_code);
	else
		rt_json_null(j, "exit_code");
	rt_json_double(j, "elapsed_s", st->elapsed_s, 3);
	rt_json_string(j, "result", st->result);
	if (st->max_us >= 0)
		rt_json_int(j, "max_latency_us", st->max_us);
	else
		rt_json_null(j, "max_latency_us");
	rt_json_uint(j, "samples", st->samples);
	snprintf(name, sizeof(name), "%s.json", st->file);
	rt_json_string(j, "json", st->ran ? name : NULL);
	snprintf(name, sizeof(name), "%s.records", st->file);
	rt_json_string(j, "records", st->ran ? name : NULL);
	snprintf(name, sizeof(name), "%s.log", st->file);
	rt_json_string(j, "log", st->ran ? name : NULL);
	rt_json_string(j, "note", st->note[0] ? st->note : NULL);
	if (st->verdict)
		copy_value(j, "verdict", st->verdict);
	else
		rt_json_null(j, "verdict");
	rt_json_object_end(j);
}

static void write_load(struct rt_json *j, const struct rtq_plan *p)
{
	const struct rtq_load_run *l = &p->load;
	double cpu_s, wall_s;
	char cpus[256];

	rt_affinity_format(&p->load_cpus, cpus, sizeof(cpus));
	rt_json_object_begin(j, "load");
	rt_json_string(j, "name", rtq_load_name(p->cfg->load));
	rt_json_string(j, "cpus", p->cfg->load == RTQ_LOAD_NONE ? NULL : cpus);
	rt_json_bool(j, "started", l->started);
	rt_json_bool(j, "ended_early", l->ended_early);
	if (rtq_load_figures(p, &cpu_s, &wall_s)) {
		rt_json_double(j, "cpu_s", cpu_s, 3);
		rt_json_double(j, "measured_s", wall_s, 3);
		rt_json_double(j, "cpu_share", cpu_s / (wall_s * p->load_cpus.count), 3);
	} else {
		rt_json_null(j, "cpu_s");
		rt_json_null(j, "measured_s");
		rt_json_null(j, "cpu_share");
	}
	if (l->started && l->child.reaped)
		rt_json_double(j, "cpu_total_s", (double)(l->child.ru.ru_utime.tv_sec +
				l->child.ru.ru_stime.tv_sec) + (double)(l->child.ru.ru_utime.tv_usec +
				l->child.ru.ru_stime.tv_usec) / 1e6, 3);
	else
		rt_json_null(j, "cpu_total_s");
	rt_json_object_end(j);
}

static void write_verdict(struct rt_json *j, const struct rtq_overall *o,
			  const struct rtq_plan *p)
{
	rt_json_object_begin(j, "verdict");
	rt_json_string(j, "result", o->result);
	rt_json_array_begin(j, "broken");
	for (int i = 0; i < RTQ_NSTEPS; i++)
		if (strcmp(p->step[i].result, "pass") != 0 && p->step[i].ran) {
			rt_json_object_begin(j, NULL);
			rt_json_string(j, "step", p->step[i].name);
			rt_json_string(j, "result", p->step[i].result);
			rt_json_object_end(j);
		}
	rt_json_array_end(j);
	rt_json_array_begin(j, "reasons");
	for (int i = 0; i < o->nreasons; i++)
		rt_json_string(j, NULL, o->reasons[i]);
	rt_json_array_end(j);
	rt_json_bool(j, "partial", o->partial);
	rt_json_object_end(j);
}

static void write_plan(struct rt_json *j, const struct rtq_plan *p)
{
	char cpus[256];

	rt_json_uint(j, "duration_s", p->cfg->duration_s);
	rt_affinity_format(&p->measured, cpus, sizeof(cpus));
	rt_json_string(j, "measured_cpus", cpus);
	rt_json_bool(j, "isolated", p->isolated);
	rt_json_bool(j, "hwlat_tracer", p->hwlat);
	rt_json_object_begin(j, "limits");
	rt_json_int(j, "max_latency_us", p->cfg->max_latency_us);
	rt_json_array_begin(j, "max_percentile");
	for (int k = 0; k < p->cfg->npct; k++)
		rt_json_string(j, NULL, p->cfg->pct[k]);
	rt_json_array_end(j);
	rt_json_object_end(j);
}

static int write_doc(FILE *f, const struct rtq_plan *p, const struct rtq_overall *o,
		     const struct rtq_findings *fi, const struct rt_env *env,
		     const struct rt_report *rep, const struct rtq_files *files)
{
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, o->exit_code);
	write_plan(&j, p);
	write_verdict(&j, o, p);
	rt_json_string(&j, "stopped_by", !p->stop_signal ? NULL : p->stop_signal == SIGINT ?
		       "SIGINT" : p->stop_signal == SIGTERM ? "SIGTERM" : "SIGHUP");
	rtq_findings_write_json(&j, fi);
	write_load(&j, p);
	rt_json_array_begin(&j, "steps");
	for (int i = 0; i < RTQ_NSTEPS; i++)
		write_step(&j, &p->step[i]);
	rt_json_array_end(&j);
	rt_json_object_begin(&j, "files");
	rt_json_string(&j, "junit", files->junit ? "junit.xml" : NULL);
	rt_json_string(&j, "html", files->html ? "report.html" : NULL);
	rt_json_string(&j, "note", files->html_note[0] ? files->html_note : NULL);
	rt_json_object_end(&j);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}

int rtq_summary_write(const struct rtq_plan *p, const struct rtq_overall *o,
		      const struct rtq_findings *f, const struct rt_env *env,
		      const struct rt_report *rep, const struct rtq_files *files)
{
	char path[PATH_MAX + 16];
	struct rt_output out;
	int err;

	snprintf(path, sizeof(path), "%s/summary.json", p->dir);
	if ((err = rt_output_open(&out, path)))
		return err;
	err = write_doc(out.f, p, o, f, env, rep, files);
	err = err ? rt_output_why(&out, err) : rt_output_commit(&out);
	rt_output_abort(&out);
	return err;
}
