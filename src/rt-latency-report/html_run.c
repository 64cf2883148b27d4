// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One input's part of the page: its title, verdict, figures, histogram,
 * latency over time (records), spikes, isolation, machine, a merge's
 * inputs, and every other member of the result as it is.
 */
#include <json-c/json.h>
#include <string.h>

#include "html.h"
#include "html_text.h"
#include "result_json.h"

/* Members of a result the sections show (the others: "Other data"). */
static const char *const shown[] = {
	"file_version", "cmdline:", "rt_test_version:", "start_time", "end_time", "return_code",
	"sysinfo", "num_threads", "resolution_in_ns", "thread", "scheduling", "environment",
	"percentiles", "percentiles_ci", "analysis", "spikes", "verdict", "isolation", "partial",
	"records", "inputs", "merged_by", "run_id", NULL
};

static bool is_shown(const char *key)
{
	for (int k = 0; shown[k]; k++)
		if (strcmp(shown[k], key) == 0)
			return true;
	return false;
}

static void other_data(FILE *f, struct json_object *doc)
{
	bool any = false;

	if (!doc)
		return;
	json_object_object_foreach(doc, key, val) {
		if (is_shown(key))
			continue;
		if (!any)
			fputs("<h2>Other data in the result</h2>\n<table class=\"tree\">\n", f);
		any = true;
		fputs("<tr><th class=\"l\">", f);
		rlr_html_text(f, key);
		fputs("</th><td class=\"l\">", f);
		rlr_html_tree(f, val, 1);
		fputs("</td></tr>\n", f);
	}
	if (any)
		fputs("</table>\n", f);
}

static void title(FILE *f, const struct rlr_html_run *r, int index)
{
	struct json_object *si = rlr_member(r->in.doc, "sysinfo");
	struct json_object *inputs = rlr_member(r->in.doc, "inputs");

	fputs(index ? "<h2 class=\"run\">" : "<h1>", f);
	if (index)
		fprintf(f, "%d. ", index);
	if (json_object_is_type(inputs, json_type_array)) {
		fprintf(f, "Merge of %zu runs", json_object_array_length(inputs));
	} else if (si) {
		fputs(r->records ? "Records: latency of " : "Latency of ", f);
		rlr_html_member(f, si, "nodename");
		fputs(", kernel ", f);
		rlr_html_member(f, si, "release");
	} else {
		fputs(r->records ? "Records: latency" : "Latency", f);
	}
	fputs(index ? "</h2>\n" : "</h1>\n", f);
	fputs("<p>File: <span class=\"mono\">", f);
	rlr_html_text(f, r->path);
	fputs("</span>", f);
	if (rlr_member(r->in.doc, "cmdline:")) {
		fputs("<br>Command: <span class=\"mono\">", f);
		rlr_html_member(f, r->in.doc, "cmdline:");
		fputs("</span>", f);
	}
	fputs("</p>\n", f);
}

void rlr_html_run_section(FILE *f, const struct rlr_html_run *r, int index)
{
	const struct rlr_html_run *one = r;

	fputs("<section class=\"run\">\n", f);
	title(f, r, index);
	rlr_html_verdict(f, r);
	rlr_html_table(f, r);
	rlr_html_histogram(f, &one, 1);
	if (r->records)
		rlr_html_timeline(f, r);
	rlr_html_merge_inputs(f, r);
	rlr_html_spikes(f, r);
	rlr_html_isolation(f, r);
	rlr_html_machine(f, r);
	other_data(f, r->in.doc);
	fputs("</section>\n", f);
}
