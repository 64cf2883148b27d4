// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_loghist.h"

#include "result_json.h"

struct json_object *rlr_member(struct json_object *o, const char *key)
{
	struct json_object *m = NULL;

	return o && json_object_object_get_ex(o, key, &m) ? m : NULL;
}

bool rlr_partial(struct json_object *doc)
{
	return json_object_get_boolean(rlr_member(doc, "partial")) ||
	       json_object_get_boolean(rlr_member(rlr_member(doc, "verdict"), "partial"));
}

const char *rlr_text(struct json_object *o, const char *key)
{
	struct json_object *m = rlr_member(o, key);

	return m && json_object_is_type(m, json_type_string) ? json_object_get_string(m) : NULL;
}

bool rlr_int(struct json_object *o, const char *key, int64_t *v)
{
	struct json_object *m;

	if (!o || !json_object_object_get_ex(o, key, &m) || !m ||
	    !json_object_is_type(m, json_type_int))
		return false;
	*v = json_object_get_int64(m);
	return true;
}

struct json_object *rlr_thread(struct json_object *doc, int i)
{
	char key[16];

	snprintf(key, sizeof(key), "%d", i);
	return rlr_member(rlr_member(doc, "thread"), key);
}

struct json_object *rlr_measured(struct json_object *thread)
{
	struct json_object *rx = rlr_member(thread, "receiver");

	return rx ? rx : thread;
}

struct json_object *rlr_loghist_buckets(struct json_object *h)
{
	const char *layout = rlr_text(h, "layout");
	struct json_object *buckets = rlr_member(h, "buckets");
	int64_t exact = 0, sub = 0;

	if (!layout || strcmp(layout, "log-linear") != 0 || !buckets ||
	    !json_object_is_type(buckets, json_type_object) ||
	    !rlr_int(h, "exact_below", &exact) || exact != RT_LOGHIST_EXACT ||
	    !rlr_int(h, "sub_buckets", &sub) || sub != RT_LOGHIST_SUB)
		return NULL;
	return buckets;
}

int64_t rlr_bucket_low(const char *key, bool log_linear)
{
	char *end;
	long long low;

	errno = 0;
	low = strtoll(key, &end, 10);
	if (end == key || *end || errno || low < 0 || low > RLR_MAX_VALUE ||
	    (log_linear && rt_loghist_bucket_low(rt_loghist_index(low)) != low))
		return -1;
	return low;
}

void rlr_tool_name(char *buf, size_t len, const char *cmdline)
{
	const char *start = cmdline, *end, *slash;

	end = start + strcspn(start, " ");
	for (slash = start; (slash = memchr(slash, '/', (size_t)(end - slash))); start = ++slash)
		;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

bool rlr_rfc2822(const char *s, int64_t *t)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%a, %d %b %Y %H:%M:%S %z", &tm) : NULL;

	if (!end || *end)
		return false;
	*t = (int64_t)timegm(&tm) - tm.tm_gmtoff;
	return true;
}
