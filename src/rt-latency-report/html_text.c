// SPDX-License-Identifier: GPL-2.0-or-later
#include <json-c/json.h>
#include <stdbool.h>
#include <string.h>

#include "html_text.h"
#include "input.h"

/* U+202A..U+202E, U+2066..U+2069: they would reorder what follows them. */
static bool reorders(const unsigned char *p, size_t n)
{
	return n == 3 && p[0] == 0xe2 &&
	       ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
		(p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

/* The length of a valid UTF-8 character at p (of left bytes), or 0. */
static size_t char_len(const unsigned char *p, size_t left)
{
	unsigned char buf[5] = { 0 };
	size_t n = left < 4 ? left : 4;

	memcpy(buf, p, n);
	n = rlr_utf8_len(buf);
	return n && n <= left ? n : 0;
}

static void one(FILE *f, const unsigned char *p, size_t n)
{
	if (n == 1 && (p[0] < 0x20 || p[0] == 0x7f))
		/* U+2400 + c, U+2421 for DEL: visible, inert. */
		fprintf(f, "&#x%x;", p[0] == 0x7f ? 0x2421 : 0x2400 + p[0]);
	else if (n == 1 && p[0] == '&')
		fputs("&amp;", f);
	else if (n == 1 && p[0] == '<')
		fputs("&lt;", f);
	else if (n == 1 && p[0] == '>')
		fputs("&gt;", f);
	else if (n == 1 && p[0] == '"')
		fputs("&quot;", f);
	else if (n == 1 && p[0] == '\'')
		fputs("&#39;", f);
	else if (reorders(p, n))
		fprintf(f, "[U+%04X]", (unsigned)((p[0] & 0x0f) << 12 | (p[1] & 0x3f) << 6 |
						   (p[2] & 0x3f)));
	else
		fwrite(p, 1, n, f);
}

void rlr_html_textn(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t k = 0; k < len;) {
		size_t n = char_len(p + k, len - k);

		if (!n) {
			fputs("&#xfffd;", f);
			k++;
			continue;
		}
		one(f, p + k, n);
		k += n;
	}
}

void rlr_html_text(FILE *f, const char *s)
{
	if (!s)
		fputs("-", f);
	else
		rlr_html_textn(f, s, strlen(s));
}

void rlr_html_value(FILE *f, struct json_object *v)
{
	const char *s;

	if (!v) {
		fputs("-", f);
		return;
	}
	if (json_object_is_type(v, json_type_string)) {
		rlr_html_textn(f, json_object_get_string(v), (size_t)json_object_get_string_len(v));
		return;
	}
	s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	rlr_html_text(f, s);
}

void rlr_html_member(FILE *f, struct json_object *o, const char *key)
{
	struct json_object *m = NULL;

	rlr_html_value(f, o && json_object_object_get_ex(o, key, &m) ? m : NULL);
}

void rlr_html_td_member(FILE *f, struct json_object *o, const char *key)
{
	fputs("<td>", f);
	rlr_html_member(f, o, key);
	fputs("</td>", f);
}

void rlr_html_latency(FILE *f, struct json_object *v, const char *unit)
{
	rlr_html_value(f, v);
	if (v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))) {
		fputc(' ', f);
		rlr_html_text(f, unit);
	}
}
