// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "rt_json.h"

void rt_json_init(struct rt_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->misuse = false;
	j->compact = false;
	for (int i = 0; i < RT_JSON_MAX_DEPTH; i++) {
		j->has_members[i] = false;
		j->is_array[i] = false;
	}
}

/* Length of a valid UTF-8 sequence starting at s, or 0 if invalid. */
static int utf8_seq_len(const unsigned char *s)
{
	int len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void rt_json_write_escaped(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int len;

		switch (*s) {
		case '"':  fputs("\\\"", f); s++; continue;
		case '\\': fputs("\\\\", f); s++; continue;
		case '\n': fputs("\\n", f); s++; continue;
		case '\r': fputs("\\r", f); s++; continue;
		case '\t': fputs("\\t", f); s++; continue;
		case '\b': fputs("\\b", f); s++; continue;
		case '\f': fputs("\\f", f); s++; continue;
		default: break;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
			s++;
			continue;
		}
		len = utf8_seq_len(s);
		if (len == 0) {
			/* Not UTF-8: keep the byte visible as its Latin-1 code point. */
			fprintf(f, "\\u%04x", *s);
			s++;
			continue;
		}
		fwrite(s, 1, (size_t)len, f);
		s += len;
	}
	fputc('"', f);
}

void rt_json_init_compact(struct rt_json *j, FILE *f)
{
	rt_json_init(j, f);
	j->compact = true;
}

/* A newline and the indentation of the current depth (nothing when compact). */
static void indent(struct rt_json *j)
{
	if (j->compact)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator, newline, indentation and "key": for the next member. */
static void member(struct rt_json *j, const char *key)
{
	if (j->depth == 0) {
		j->misuse = true; /* a value outside the root object */
		return;
	}
	if (j->has_members[j->depth])
		fputc(',', j->f);
	j->has_members[j->depth] = true;
	indent(j);
	if (j->is_array[j->depth])
		return; /* array elements have no key */
	rt_json_write_escaped(j->f, key ? key : "");
	fputs(j->compact ? ":" : ": ", j->f);
}

static void open_level(struct rt_json *j, const char *key, bool array)
{
	if (j->depth > 0)
		member(j, key);
	else if (array)
		j->misuse = true; /* the root is an object */
	if (j->depth + 1 >= RT_JSON_MAX_DEPTH) {
		j->misuse = true;
		return;
	}
	fputc(array ? '[' : '{', j->f);
	j->depth++;
	j->has_members[j->depth] = false;
	j->is_array[j->depth] = array;
}

static void close_level(struct rt_json *j, bool array)
{
	if (j->depth == 0 || j->is_array[j->depth] != array) {
		j->misuse = true;
		return;
	}
	if (j->has_members[j->depth]) {
		j->depth--;
		indent(j);
	} else {
		j->depth--;
	}
	fputc(array ? ']' : '}', j->f);
}

void rt_json_object_begin(struct rt_json *j, const char *key)
{
	open_level(j, key, false);
}

void rt_json_object_end(struct rt_json *j)
{
	close_level(j, false);
}

void rt_json_array_begin(struct rt_json *j, const char *key)
{
	open_level(j, key, true);
}

void rt_json_array_end(struct rt_json *j)
{
	close_level(j, true);
}

void rt_json_int(struct rt_json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void rt_json_uint(struct rt_json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void rt_json_double(struct rt_json *j, const char *key, double v, int decimals)
{
	member(j, key);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	fprintf(j->f, "%.*f", decimals, v);
}

void rt_json_string(struct rt_json *j, const char *key, const char *v)
{
	member(j, key);
	if (v)
		rt_json_write_escaped(j->f, v);
	else
		fputs("null", j->f);
}

void rt_json_null(struct rt_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void rt_json_bool(struct rt_json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

int rt_json_finish(struct rt_json *j)
{
	fputc('\n', j->f);
	if (j->misuse || j->depth != 0)
		return -EINVAL;
	return ferror(j->f) ? -EIO : 0;
}
