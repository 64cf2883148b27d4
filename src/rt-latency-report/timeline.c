// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "result_json.h"
#include "timeline.h"

static int add_window(struct rlr_timeline *t, struct json_object *o)
{
	struct rlr_window *w;
	int64_t k = -1;

	if (!rlr_int(o, "thread", &k) || k < 0 || k >= t->nthreads)
		return 0;
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 256;
		struct rlr_window *nw = realloc(t->w, ncap * sizeof(*nw));

		if (!nw)
			return -ENOMEM;
		t->w = nw;
		t->cap = ncap;
	}
	w = &t->w[t->n++];
	memset(w, 0, sizeof(*w));
	w->thread = (int)k;
	w->start_s = json_object_get_double(rlr_member(o, "start_s"));
	w->end_s = json_object_get_double(rlr_member(o, "end_s"));
	w->has = rlr_int(o, "max", &w->max) &&
		 rlr_int(rlr_member(o, "percentiles"), "p99", &w->p99);
	return 0;
}

static void keep_isolation(struct rlr_timeline *t, struct json_object *o)
{
	struct json_object *iso = rlr_member(o, "isolation");

	if (!iso)
		return;
	json_object_put(t->isolation);
	t->isolation = json_object_get(iso);
	t->isolation_total = strcmp(rlr_text(o, "type"), "total") == 0;
}

/* One line: a run line starts over, windows are kept, isolation remembered. */
static int line(struct rlr_timeline *t, struct json_object *o)
{
	const char *type = rlr_text(o, "type");
	int64_t n = 0;

	if (!type)
		return 0;
	if (strcmp(type, "run") == 0) {
		t->n = 0;
		t->total = false;
		json_object_put(t->isolation);
		t->isolation = NULL;
		t->nthreads = rlr_int(o, "num_threads", &n) && n > 0 && n <= 1 << 16 ? (int)n : 0;
		return 0;
	}
	if (strcmp(type, "window") == 0)
		return add_window(t, o);
	if (strcmp(type, "total") == 0)
		t->total = true;
	keep_isolation(t, o);
	return 0;
}

int rlr_timeline_read(struct rlr_timeline *t, const char *buf, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (!tok)
		return -ENOMEM;
	for (const char *p = buf, *nl; !rc && (nl = memchr(p, '\n', len - (size_t)(p - buf)));
	     p = nl + 1) {
		struct json_object *o;

		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, p, (int)(nl - p));
		if (o && json_object_is_type(o, json_type_object))
			rc = line(t, o);
		json_object_put(o);
	}
	json_tokener_free(tok);
	return rc;
}

void rlr_timeline_free(struct rlr_timeline *t)
{
	free(t->w);
	json_object_put(t->isolation);
	memset(t, 0, sizeof(*t));
}
