// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * junit: results as JUnit XML for CI (Jenkins, GitLab): a <testsuite> per
 * input, its test cases from junit_cases.c, its command line, host, kernel
 * and environment as <properties>. Written with libxml2's xmlTextWriter
 * (which escapes) into memory, then to the output beside the target and
 * renamed: a bad input leaves no file.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_output.h"
#include "rt_prog.h"

#include "input.h"
#include "junit.h"
#include "junit_cases.h"
#include "result_json.h"

struct writer {
	xmlTextWriterPtr w;
	int bad; /* a libxml2 call failed */
};

static void start(struct writer *x, const char *element)
{
	x->bad |= xmlTextWriterStartElement(x->w, BAD_CAST element) < 0;
}

static void end(struct writer *x)
{
	x->bad |= xmlTextWriterEndElement(x->w) < 0;
}

static void attr(struct writer *x, const char *name, const char *value)
{
	x->bad |= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) < 0;
}

static void attr_u64(struct writer *x, const char *name, uint64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "%" PRIu64, v);
	attr(x, name, s);
}

static void property(struct writer *x, const char *name, const char *value)
{
	start(x, "property");
	attr(x, "name", name);
	attr(x, "value", value);
	end(x);
}

/*
 * Every scalar under o as a property "prefix.key[.key...]" (arrays [i]);
 * nulls left out. Names are whole (never cut inside a character); json-c
 * nests at most 32 deep.
 */
static void flatten(struct writer *x, const char *prefix, struct json_object *o)
{
	char *name;

	if (!o)
		return;
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val) {
			if (asprintf(&name, "%s.%s", prefix, key) < 0) {
				x->bad = 1;
				return;
			}
			flatten(x, name, val);
			free(name);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t k = 0; k < json_object_array_length(o); k++) {
			if (asprintf(&name, "%s[%zu]", prefix, k) < 0) {
				x->bad = 1;
				return;
			}
			flatten(x, name, json_object_array_get_idx(o, k));
			free(name);
		}
	} else {
		property(x, prefix, json_object_get_string(o));
	}
}

/* A number of seconds or loops: whole when it is, else to the millisecond. */
static void format_number(char *buf, size_t size, double v)
{
	if (v > -1e15 && v < 1e15 && v == (double)(int64_t)v)
		snprintf(buf, size, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, size, "%.3f", v);
}

/* A measure as a property, "unknown" when the result does not say (-1). */
static void number_property(struct writer *x, const char *name, double v)
{
	char buf[40] = "unknown";

	if (v >= 0)
		format_number(buf, sizeof(buf), v);
	property(x, name, buf);
}

static void properties(struct writer *x, const struct rlr_jsuite *s)
{
	static const char *const top[] = { "cmdline:", "rt_test_version:", "start_time",
					   "end_time", "return_code" };
	struct json_object *doc = s->doc;
	char name[32];

	start(x, "properties");
	property(x, "file", s->path);
	property(x, "tool", s->tool);
	for (size_t k = 0; k < sizeof(top) / sizeof(*top); k++) {
		struct json_object *m = rlr_member(doc, top[k]);

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(top[k], ":"), top[k]);
		if (m && !json_object_is_type(m, json_type_object) &&
		    !json_object_is_type(m, json_type_array))
			property(x, name, json_object_get_string(m));
	}
	if (rlr_text(rlr_member(doc, "verdict"), "result"))
		property(x, "verdict", rlr_text(rlr_member(doc, "verdict"), "result"));
	if (s->partial) {
		property(x, "partial", "true");
		property(x, "stop.cause", s->cause);
		number_property(x, "stop.done", s->done);
		number_property(x, "stop.asked", s->asked);
		property(x, "stop.unit", s->unit);
	}
	flatten(x, "sysinfo", rlr_member(doc, "sysinfo"));
	flatten(x, "scheduling", rlr_member(doc, "scheduling"));
	flatten(x, "environment", rlr_member(doc, "environment"));
	end(x);
}

/* The host, "localhost" when the result does not name it (JUnit's rule). */
static const char *host_of(const struct rlr_jsuite *s)
{
	const char *h = rlr_text(rlr_member(s->doc, "sysinfo"), "nodename");

	return h && h[strspn(h, " \t\r\n")] ? h : "localhost";
}

static void testcase(struct writer *x, const struct rlr_jcase *c, const char *classname,
		     const char *time_s)
{
	static const char *const element[] = { [RLR_JFAILURE] = "failure",
					       [RLR_JERROR] = "error",
					       [RLR_JSKIPPED] = "skipped" };
	static const char *const type[] = { [RLR_JFAILURE] = "rt-tests-ng.limit",
					    [RLR_JERROR] = "rt-tests-ng.error",
					    [RLR_JSKIPPED] = "rt-tests-ng.not-run" };

	start(x, "testcase");
	attr(x, "name", c->name);
	attr(x, "classname", classname);
	attr(x, "time", time_s);
	if (c->kind != RLR_JPASS) {
		start(x, element[c->kind]);
		attr(x, "message", c->message);
		attr(x, "type", c->type ? c->type : type[c->kind]);
		if (c->text)
			x->bad |= xmlTextWriterWriteString(x->w, BAD_CAST c->text) < 0;
		end(x);
	}
	end(x);
}

static void suite(struct writer *x, const struct rlr_jsuite *s, int id)
{
	char *classname, time_s[40], stamp[32];
	const char *host = host_of(s);
	struct tm tm;
	time_t t = (time_t)s->start_s;

	/* Jenkins splits the class name at its last dot: TOOL.HOST. */
	if (asprintf(&classname, "%s.%s", s->tool, host) < 0) {
		x->bad = 1;
		return;
	}
	for (char *p = classname + strlen(s->tool) + 1; *p; p++)
		if (*p == '.')
			*p = '_';
	format_number(time_s, sizeof(time_s), s->time_s);
	start(x, "testsuite");
	attr(x, "name", s->tool);
	attr_u64(x, "tests", s->ncases);
	attr_u64(x, "failures", s->failures);
	attr_u64(x, "errors", s->errors);
	attr_u64(x, "skipped", s->skipped);
	attr(x, "time", time_s);
	/* JUnit's timestamp has no zone: UTC. */
	if (s->start_s >= 0 && gmtime_r(&t, &tm) && tm.tm_year + 1900 <= 9999 &&
	    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm))
		attr(x, "timestamp", stamp);
	attr(x, "hostname", host);
	attr_u64(x, "id", (uint64_t)id);
	attr(x, "package", "rt-tests-ng");
	properties(x, s);
	for (size_t k = 0; k < s->ncases; k++)
		testcase(x, &s->cases[k], classname, time_s);
	start(x, "system-out");
	if (s->partial)
		x->bad |= xmlTextWriterWriteString(x->w, BAD_CAST s->stop_text) < 0;
	end(x);
	start(x, "system-err");
	end(x);
	end(x);
	free(classname);
}

/* The whole report in memory: 0, or 1 (libxml2 failed). */
static int write_xml(xmlBufferPtr buf, const struct rlr_jsuite *suites, int n)
{
	struct writer x = { xmlNewTextWriterMemory(buf, 0), 0 };
	uint64_t tests = 0, failures = 0, errors = 0;
	double time_s = 0;
	char total[40];

	if (!x.w)
		return 1;
	for (int k = 0; k < n; k++) {
		tests += suites[k].ncases;
		failures += suites[k].failures;
		errors += suites[k].errors;
		time_s += suites[k].time_s;
	}
	x.bad |= xmlTextWriterSetIndent(x.w, 1) < 0;
	x.bad |= xmlTextWriterSetIndentString(x.w, BAD_CAST "  ") < 0;
	x.bad |= xmlTextWriterStartDocument(x.w, NULL, "UTF-8", NULL) < 0;
	start(&x, "testsuites");
	attr(&x, "name", "rt-latency-report junit");
	attr_u64(&x, "tests", tests);
	attr_u64(&x, "failures", failures);
	attr_u64(&x, "errors", errors);
	format_number(total, sizeof(total), time_s);
	attr(&x, "time", total);
	for (int k = 0; k < n; k++)
		suite(&x, &suites[k], k);
	end(&x);
	x.bad |= xmlTextWriterEndDocument(x.w) < 0;
	xmlFreeTextWriter(x.w);
	return x.bad ? 1 : 0;
}

/* Start and length of a run from its start_time and end_time. */
static void run_time(struct rlr_jsuite *s)
{
	int64_t start_s, end_s;
	bool has_start = rlr_rfc2822(rlr_text(s->doc, "start_time"), &start_s);

	s->start_s = has_start && start_s >= 0 ? start_s : -1;
	s->time_s = has_start && rlr_rfc2822(rlr_text(s->doc, "end_time"), &end_s) &&
		    end_s >= start_s && end_s - start_s < INT32_MAX ? (double)(end_s - start_s) : 0;
	/* A run stopped early: the time it measured, as its verdict says. */
	if (s->partial && s->done >= 0 && s->done < INT32_MAX && strcmp(s->unit, "s") == 0)
		s->time_s = s->done;
}

/* Write buf to path (beside it, then renamed): 0 or 1 after a one-line error. */
static int commit(const char *path, xmlBufferPtr buf)
{
	struct rt_output o = { 0 };
	int err = rt_output_open(&o, path);

	if (err) {
		rt_prog_error_errno(-err, "cannot write '%s'", path);
		return 1;
	}
	fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), o.f);
	if ((err = rt_output_commit(&o))) {
		rt_prog_error_errno(-rt_output_why(&o, err), "cannot write '%s'", path);
		rt_output_abort(&o);
		return 1;
	}
	return 0;
}

int rlr_junit(int argc, char *argv[])
{
	struct rlr_input *in = NULL;
	struct rlr_jsuite *suites = NULL;
	xmlBufferPtr buf = NULL;
	const char *path = NULL;
	int first, n, loaded = 0, rc;
	uint64_t tests = 0, failures = 0, errors = 0, skipped = 0;

	if ((rc = rlr_output_and_inputs(argc, argv, "junit", "REPORT.xml", "result file", &path,
					&first)))
		return rc;
	n = argc - first;
	in = calloc((size_t)n, sizeof(*in));
	suites = calloc((size_t)n, sizeof(*suites));
	if (!in || !suites) {
		rt_prog_error("out of memory");
		rc = RT_EXIT_FAILURE;
	}
	for (int k = 0; k < n && rc == RT_EXIT_OK; k++, loaded++) {
		const char *name = argv[first + k];
		int err = rlr_input_load(&in[k], name);

		if (err) {
			rc = err == 2 || err == RLR_INPUT_INVALID ? RT_EXIT_USAGE
								  : RT_EXIT_FAILURE;
			break;
		}
		if (!in[k].doc) {
			rt_prog_error("'%s' is a histogram text: junit needs results in JSON", name);
			rc = RT_EXIT_USAGE;
		} else if ((err = rlr_junit_check(name, in[k].doc)) ||
			   (err = rlr_junit_cases(&suites[k], name, in[k].doc))) {
			if (err == 1)
				rt_prog_error("out of memory");
			rc = err == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
		} else {
			run_time(&suites[k]);
			tests += suites[k].ncases;
			failures += suites[k].failures;
			errors += suites[k].errors;
			skipped += suites[k].skipped;
		}
	}
	if (rc == RT_EXIT_OK) {
		if (!(buf = xmlBufferCreate()) || write_xml(buf, suites, n)) {
			rt_prog_error("cannot write '%s': libxml2 could not build the XML", path);
			rc = RT_EXIT_FAILURE;
		} else {
			rc = commit(path, buf);
		}
	}
	/* What a CI log shows, the counts a JUnit reader must find in the file. */
	if (rc == RT_EXIT_OK && strcmp(path, "-") != 0)
		printf("%s: %d suites, %" PRIu64 " tests, %" PRIu64 " failures, %" PRIu64
		       " errors, %" PRIu64 " skipped\n", path, n, tests, failures, errors, skipped);
	if (buf)
		xmlBufferFree(buf);
	for (int k = 0; k < loaded && in && suites; k++) {
		rlr_junit_suite_free(&suites[k]);
		rlr_input_free(&in[k]);
	}
	free(in);
	free(suites);
	xmlCleanupParser();
	return rc;
}
