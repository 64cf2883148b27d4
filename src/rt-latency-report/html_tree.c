// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Any JSON value as nested tables of escaped text: what the page shows of
 * members it does not know by name (a newer tool's, another tool's result).
 */
#include <json-c/json.h>

#include "html.h"
#include "html_text.h"

#define TREE_MAX_DEPTH 8
#define TREE_MAX_ITEMS 200 /* members or elements shown of one object or array */

void rlr_html_tree(FILE *f, struct json_object *v, int depth)
{
	size_t n = 0;

	if (depth >= TREE_MAX_DEPTH || !v || (!json_object_is_type(v, json_type_object) &&
					      !json_object_is_type(v, json_type_array))) {
		rlr_html_value(f, v);
		return;
	}
	fputs("<table class=\"tree\">", f);
	if (json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		for (size_t k = 0; k < n && k < TREE_MAX_ITEMS; k++) {
			fprintf(f, "<tr><th class=\"l\">%zu</th><td class=\"l\">", k);
			rlr_html_tree(f, json_object_array_get_idx(v, k), depth + 1);
			fputs("</td></tr>", f);
		}
	} else {
		json_object_object_foreach(v, key, val) {
			if (++n > TREE_MAX_ITEMS)
				continue;
			fputs("<tr><th class=\"l\">", f);
			rlr_html_text(f, key);
			fputs("</th><td class=\"l\">", f);
			rlr_html_tree(f, val, depth + 1);
			fputs("</td></tr>", f);
		}
	}
	if (n > TREE_MAX_ITEMS)
		fprintf(f, "<tr><td colspan=\"2\" class=\"l\">... %zu more</td></tr>",
			n - TREE_MAX_ITEMS);
	fputs("</table>", f);
}
