// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict at the top of a run: PASS, FAIL, INCONCLUSIVE or none (no
 * limit asked), never a plain PASS for a run stopped early or killed (a
 * records file without its total line), each broken limit with its value,
 * bound, interval and, for INCONCLUSIVE, the samples the claim needs; any
 * member the page does not know by name is shown as it is.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <string.h>

#include "html.h"
#include "html_text.h"
#include "result_json.h"

static struct json_object *verdict_of(const struct rlr_html_run *r)
{
	return rlr_member(r->in.doc, "verdict");
}

/* Whether the run did not end as asked: "partial" in the result or its verdict, no total line. */
static bool partial(const struct rlr_html_run *r)
{
	struct json_object *doc = r->in.doc;

	return rlr_partial(doc) || (r->records && !r->tl.total);
}

const char *rlr_html_result(const struct rlr_html_run *r)
{
	const char *v = rlr_text(verdict_of(r), "result");

	if (v && strcmp(v, "pass") == 0 && partial(r))
		return "partial";
	if (v && (strcmp(v, "pass") == 0 || strcmp(v, "fail") == 0 ||
		  strcmp(v, "inconclusive") == 0))
		return v;
	return partial(r) ? "partial" : NULL;
}

static const char *const known[] = { "limit", "thread", "pair", "sender", "receiver", "group",
				     "value", "bound", "low", "high", "confidence", "result",
				     "more_samples", "reason", "detail", NULL };

static bool is_known(const char *key)
{
	for (int k = 0; known[k]; k++)
		if (strcmp(known[k], key) == 0)
			return true;
	return false;
}

/* "thread 0", "pair 1 (#3 -> #2)", "group 2": what the entry names. */
static void series(FILE *f, struct json_object *b)
{
	static const char *const kinds[] = { "thread", "pair", "group" };
	bool any = false;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (rlr_member(b, kinds[k])) {
			fprintf(f, "%s%s ", any ? ", " : "", kinds[k]);
			rlr_html_member(f, b, kinds[k]);
			any = true;
		}
	if (rlr_member(b, "sender") || rlr_member(b, "receiver")) {
		fputs(" (#", f);
		rlr_html_member(f, b, "sender");
		fputs(" -&gt; #", f);
		rlr_html_member(f, b, "receiver");
		fputc(')', f);
	}
	if (!any)
		fputs("-", f);
}

static void other_members(FILE *f, struct json_object *b)
{
	bool first = true;

	json_object_object_foreach(b, key, val) {
		if (is_known(key))
			continue;
		fputs(first ? "" : "; ", f);
		rlr_html_text(f, key);
		fputs(": ", f);
		rlr_html_value(f, val);
		first = false;
	}
}

static void broken_row(FILE *f, struct json_object *b, const char *unit)
{
	fputs("<tr><td class=\"l\">", f);
	series(f, b);
	fputs("</td><td class=\"l\">", f);
	rlr_html_member(f, b, "limit");
	fputs("</td><td>", f);
	rlr_html_latency(f, rlr_member(b, "value"), unit);
	fputs("</td><td>", f);
	rlr_html_latency(f, rlr_member(b, "bound"), unit);
	fputs("</td><td>", f);
	if (rlr_member(b, "low")) {
		rlr_html_member(f, b, "low");
		fputs(" &ndash; ", f);
		rlr_html_member(f, b, "high");
		fputs(" (", f);
		rlr_html_member(f, b, "confidence");
		fputs(" %)", f);
	}
	fputs("</td><td class=\"l\">", f);
	rlr_html_text(f, rlr_text(b, "result") ?: "fail");
	fputs("</td><td>", f);
	if (json_object_object_get_ex(b, "more_samples", NULL))
		rlr_html_member(f, b, "more_samples");
	fputs("</td><td class=\"l\">", f);
	if (rlr_member(b, "reason") || rlr_member(b, "detail"))
		rlr_html_value(f, rlr_member(b, "reason") ?: rlr_member(b, "detail"));
	fputs("</td><td class=\"l\">", f);
	other_members(f, b);
	fputs("</td></tr>\n", f);
}

static void broken_table(FILE *f, struct json_object *broken, const char *unit)
{
	size_t n = json_object_is_type(broken, json_type_array) ? json_object_array_length(broken) : 0;

	if (!n)
		return;
	fputs("<table class=\"broken\"><tr><th class=\"l\">Series</th><th class=\"l\">Limit</th>"
	      "<th>Measured</th><th>Bound</th><th>95 % interval</th><th class=\"l\">Result</th>"
	      "<th>More samples needed</th><th class=\"l\">Reason</th><th class=\"l\">Other</th>"
	      "</tr>\n", f);
	for (size_t k = 0; k < n; k++)
		broken_row(f, json_object_array_get_idx(broken, k), unit);
	fputs("</table>\n", f);
}

static const char *banner(const char *result)
{
	if (!result)
		return "NO VERDICT (no limit was asked for)";
	if (strcmp(result, "pass") == 0)
		return "PASS";
	if (strcmp(result, "fail") == 0)
		return "FAIL";
	if (strcmp(result, "inconclusive") == 0)
		return "INCONCLUSIVE";
	return "PARTIAL: the run stopped early; judged on what it measured";
}

/* Why a run is partial, in words. */
static void partial_note(FILE *f, const struct rlr_html_run *r)
{
	struct json_object *rec = rlr_member(r->in.doc, "records");

	if (!partial(r))
		return;
	fputs("<p class=\"partial\">Partial run: ", f);
	if (r->records && !r->tl.total) {
		fputs("the records file has no total line (the run was killed); ", f);
		rlr_html_member(f, rec, "windows");
		fputs(" window lines cover ", f);
		rlr_html_member(f, rec, "start");
		fputs(" to ", f);
		rlr_html_member(f, rec, "end");
		fputs(".", f);
	} else {
		struct json_object *stop = rlr_member(verdict_of(r), "stop");

		fputs("the run stopped before the time asked for", f);
		if (stop) {
			fputs(" (", f);
			rlr_html_member(f, stop, "cause");
			fputs(": ", f);
			rlr_html_member(f, stop, "done");
			fputs(" of ", f);
			rlr_html_member(f, stop, "asked");
			fputs(" ", f);
			rlr_html_member(f, stop, "unit");
			fputs(" measured)", f);
		}
		fputs(".", f);
	}
	fputs(" Its figures are those of the time measured only.</p>\n", f);
}

void rlr_html_verdict(FILE *f, const struct rlr_html_run *r)
{
	struct json_object *v = verdict_of(r);
	const char *result = rlr_html_result(r);
	const char *inner = rlr_text(v, "result");

	fprintf(f, "<p><span class=\"verdict %s\">Verdict: %s</span>", result ? result : "none",
		banner(result));
	if (result && strcmp(result, "partial") == 0 && inner) {
		fputs(" (the tool's verdict on the time measured: ", f);
		rlr_html_text(f, inner);
		fputc(')', f);
	}
	fputs("</p>\n", f);
	partial_note(f, r);
	broken_table(f, rlr_member(v, "broken"), r->unit);
	if (v && json_object_is_type(v, json_type_object)) {
		bool others = false;

		json_object_object_foreach(v, key, val) {
			(void)val;
			others |= strcmp(key, "result") != 0 && strcmp(key, "broken") != 0;
		}
		if (others) {
			fputs("<details><summary>The verdict as written</summary>", f);
			rlr_html_tree(f, v, 0);
			fputs("</details>\n", f);
		}
	}
}
