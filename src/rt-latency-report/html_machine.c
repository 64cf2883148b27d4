// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine and the run: host, kernel, preemption model, kernel command
 * line, clock source, CPUs with their governor and idle state, the tool's
 * command line and times; every other environment member as it is.
 */
#include <json-c/json.h>
#include <string.h>

#include "html.h"
#include "html_text.h"
#include "result_json.h"

/* environment members shown by name (the rest follow as they are). */
static const char *const named[] = { "kernel_release", "kernel_version", "kernel_cmdline",
				     "preemption", "cpus", "preflight", NULL };

static void row(FILE *f, const char *name, struct json_object *o, const char *key, bool mono)
{
	if (!o || !json_object_object_get_ex(o, key, NULL))
		return;
	fprintf(f, "<tr><th class=\"l\">%s</th><td class=\"l%s\">", name, mono ? " mono" : "");
	rlr_html_tree(f, rlr_member(o, key), 1);
	fputs("</td></tr>\n", f);
}

static void preemption(FILE *f, struct json_object *p)
{
	if (!p)
		return;
	fputs("<tr><th class=\"l\">Preemption model</th><td class=\"l\">", f);
	rlr_html_member(f, p, "model");
	if (rlr_member(p, "mode")) {
		fputs(" (", f);
		rlr_html_member(f, p, "mode");
		fputs(")", f);
	} else if (rlr_member(p, "mode_unknown_reason")) {
		fputs(" (mode not known: ", f);
		rlr_html_member(f, p, "mode_unknown_reason");
		fputs(")", f);
	}
	fputs("</td></tr>\n", f);
}

static void cpus(FILE *f, struct json_object *list)
{
	size_t n = json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;

	if (!n)
		return;
	fputs("<h3>CPUs</h3>\n<table><tr><th>CPU</th><th>Isolated</th><th class=\"l\">Governor</th>"
	      "<th class=\"l\">Deepest idle state</th><th class=\"l\">Other</th></tr>\n", f);
	for (size_t k = 0; k < n; k++) {
		struct json_object *c = json_object_array_get_idx(list, k);

		fputs("<tr>", f);
		rlr_html_td_member(f, c, "cpu");
		rlr_html_td_member(f, c, "isolated");
		rlr_html_td_member(f, c, "governor");
		rlr_html_td_member(f, c, "deepest_idle_state");
		fputs("<td class=\"l\">", f);
		json_object_object_foreach(c, key, val) {
			if (strcmp(key, "cpu") && strcmp(key, "isolated") && strcmp(key, "governor") &&
			    strcmp(key, "deepest_idle_state")) {
				rlr_html_text(f, key);
				fputs(": ", f);
				rlr_html_value(f, val);
				fputs(" ", f);
			}
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static bool is_named(const char *key)
{
	for (int k = 0; named[k]; k++)
		if (strcmp(named[k], key) == 0)
			return true;
	return false;
}

void rlr_html_machine(FILE *f, const struct rlr_html_run *r)
{
	struct json_object *doc = r->in.doc, *si = rlr_member(doc, "sysinfo");
	struct json_object *env = rlr_member(doc, "environment");

	if (!doc)
		return;
	fputs("<h2>Machine and run</h2>\n<table class=\"machine\">\n", f);
	row(f, "Host", si, "nodename", false);
	row(f, "Kernel", si, "release", false);
	row(f, "Kernel version", si, "version", false);
	row(f, "Architecture", si, "machine", false);
	preemption(f, rlr_member(env, "preemption"));
	row(f, "Kernel command line", env, "kernel_cmdline", true);
	row(f, "Command line", doc, "cmdline:", true);
	row(f, "Start", doc, "start_time", false);
	row(f, "End", doc, "end_time", false);
	row(f, "Return code", doc, "return_code", false);
	row(f, "rt-tests version", doc, "rt_test_version:", false);
	row(f, "Run id", doc, "run_id", true);
	row(f, "Scheduling", doc, "scheduling", false);
	if (env && json_object_is_type(env, json_type_object)) {
		json_object_object_foreach(env, key, val) {
			(void)val;
			if (is_named(key))
				continue;
			fputs("<tr><th class=\"l\">", f);
			rlr_html_text(f, key);
			fputs("</th><td class=\"l\">", f);
			rlr_html_tree(f, val, 1);
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
	cpus(f, rlr_member(env, "cpus"));
}
