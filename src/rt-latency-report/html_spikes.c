// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The worst spikes as --analyze wrote them ("analysis": one object, or a
 * list; "spikes": a list): the latency, its phase split as a bar and a
 * table, the culprit and every blocker, and whatever else each holds.
 */
#include <json-c/json.h>
#include <string.h>

#include "html.h"
#include "html_svg.h"
#include "html_text.h"
#include "result_json.h"

static const char *const shown[] = { "cpu", "tid", "value", "decomposition", "main_blocker",
				     "blockers", NULL };

static bool is_shown(const char *key)
{
	for (int k = 0; shown[k]; k++)
		if (strcmp(shown[k], key) == 0)
			return true;
	return false;
}

/* The phases (members of "decomposition", numbers) as a stacked bar. */
static void phase_bar(FILE *f, struct json_object *d)
{
	double total = 0, x = 0;
	size_t color = 0;

	json_object_object_foreach(d, k1, v1) {
		(void)k1;
		if (json_object_get_double(v1) > 0)
			total += json_object_get_double(v1);
	}
	if (total <= 0)
		return;
	fputs("<svg class=\"phases\" xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" "
	      "height=\"24\" viewBox=\"0 0 600 24\" role=\"img\">", f);
	json_object_object_foreach(d, key, val) {
		double w = json_object_get_double(val) > 0 ? json_object_get_double(val) / total * 600 : 0;

		fprintf(f, "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"20\" fill=\"%s\"><title>",
			x, w, rlr_svg_palette[color++ % RLR_SVG_NCOLORS]);
		rlr_html_text(f, key);
		fputs("</title></rect>", f);
		x += w;
	}
	fputs("</svg>\n", f);
}

static void phases(FILE *f, struct json_object *d)
{
	size_t color = 0;

	if (!d || !json_object_is_type(d, json_type_object))
		return;
	fputs("<p>Phase split:</p>\n", f);
	phase_bar(f, d);
	fputs("<table><tr><th class=\"l\">Phase</th><th>us</th></tr>\n", f);
	json_object_object_foreach(d, key, val) {
		fprintf(f, "<tr><td class=\"l\"><span style=\"color:%s\">&#9632;</span> ",
			rlr_svg_palette[color++ % RLR_SVG_NCOLORS]);
		rlr_html_text(f, key);
		fputs("</td><td>", f);
		rlr_html_value(f, val);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void culprit(FILE *f, struct json_object *b)
{
	if (!b)
		return;
	fputs("<p><b>Culprit:</b> ", f);
	rlr_html_member(f, b, "kind");
	fputs(" ", f);
	rlr_html_member(f, b, "name");
	fputs(" (id ", f);
	rlr_html_member(f, b, "id");
	fputs(", ", f);
	rlr_html_member(f, b, "priority");
	fputs("): ", f);
	rlr_html_member(f, b, "us");
	fputs(" us, share ", f);
	rlr_html_member(f, b, "share");
	fputs("</p>\n", f);
}

static void spike(FILE *f, struct json_object *s, const char *unit)
{
	bool rest = false;

	fputs("<h3>Spike of ", f);
	rlr_html_latency(f, rlr_member(s, "value"), unit);
	fputs(" on CPU ", f);
	rlr_html_member(f, s, "cpu");
	fputs(" (thread id ", f);
	rlr_html_member(f, s, "tid");
	fputs(")</h3>\n", f);
	phases(f, rlr_member(s, "decomposition"));
	culprit(f, rlr_member(s, "main_blocker"));
	if (rlr_member(s, "blockers")) {
		fputs("<p>Blockers:</p>\n", f);
		rlr_html_tree(f, rlr_member(s, "blockers"), 0);
	}
	json_object_object_foreach(s, key, val) {
		if (is_shown(key))
			continue;
		fputs(rest ? "" : "<table class=\"tree\">", f);
		rest = true;
		fputs("<tr><th class=\"l\">", f);
		rlr_html_text(f, key);
		fputs("</th><td class=\"l\">", f);
		rlr_html_tree(f, val, 1);
		fputs("</td></tr>\n", f);
	}
	if (rest)
		fputs("</table>\n", f);
}

/* Each spike of a value that is one object or a list of them. */
static int spikes_of(FILE *f, struct json_object *v, const char *unit)
{
	int n = 0;

	if (json_object_is_type(v, json_type_object)) {
		spike(f, v, unit);
		return 1;
	}
	if (!json_object_is_type(v, json_type_array))
		return 0;
	for (size_t k = 0; k < json_object_array_length(v); k++) {
		struct json_object *s = json_object_array_get_idx(v, k);

		if (json_object_is_type(s, json_type_object)) {
			spike(f, s, unit);
			n++;
		}
	}
	return n;
}

void rlr_html_spikes(FILE *f, const struct rlr_html_run *r)
{
	struct json_object *a = rlr_member(r->in.doc, "analysis");
	struct json_object *s = rlr_member(r->in.doc, "spikes");

	if (!a && !s)
		return;
	fputs("<h2>Worst spikes (--analyze)</h2>\n", f);
	{
	int n = spikes_of(f, a, r->unit);

	if (!(n + spikes_of(f, s, r->unit)))
		fputs("<p>No spike was analysed.</p>\n", f);
	}
}
