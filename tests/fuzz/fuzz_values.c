// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the value parsers (numbers, durations, policies,
 * CPU lists, percentile limits) and the JSON writer: every string written through rt_json must
 * come out as a valid JSON document with valid UTF-8, whatever the bytes.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_json.h"
#include "rt_opt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- a strict validator for what rt_json emits: objects, strings, numbers, null */
static const char *p;

static void ws(void)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
}

static bool string(void)
{
	if (*p++ != '"')
		return false;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0)
			return false;
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return false;
				p += 5;
			} else if (*p && strchr("\"\\/bfnrt", *p)) {
				p++;
			} else {
				return false;
			}
			continue;
		}
		if (c < 0x80) {
			p++;
			continue;
		}
		/* UTF-8: lead byte and the right number of continuation bytes. */
		int n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c <= 0xdf ? 1 : -1;
		if (n < 0)
			return false;
		for (int i = 1; i <= n; i++)
			if (((unsigned char)p[i] & 0xc0) != 0x80)
				return false;
		p += n + 1;
	}
	p++;
	return true;
}

static bool value(int depth);

static bool object(int depth)
{
	if (*p++ != '{' || depth > 32)
		return false;
	ws();
	if (*p == '}') {
		p++;
		return true;
	}
	for (;;) {
		ws();
		if (!string())
			return false;
		ws();
		if (*p++ != ':')
			return false;
		ws();
		if (!value(depth + 1))
			return false;
		ws();
		if (*p == ',') {
			p++;
			continue;
		}
		return *p++ == '}';
	}
}

static bool value(int depth)
{
	if (*p == '{')
		return object(depth);
	if (*p == '"')
		return string();
	if (strncmp(p, "null", 4) == 0) {
		p += 4;
		return true;
	}
	const char *s = p;
	if (*p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > s && (s[0] != '-' || p > s + 1);
}

static bool valid_document(const char *doc)
{
	p = doc;
	ws();
	if (!object(0))
		return false;
	ws();
	return *p == '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *doc = NULL;
	size_t len = 0;
	struct rt_cpulist cpus;
	struct rt_json j;
	long long ll;
	uint64_t u;
	uint32_t pm;
	int pol;
	double d;
	FILE *f;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	rt_opt_parse_ll(s, -1000, 1000, &ll);
	rt_opt_parse_duration(s, 3650ULL * 86400, &u);
	rt_opt_parse_policy(s, &pol);
	rt_opt_parse_cpulist(s, &cpus);
	if (rt_opt_parse_percentile_limit(s, 1000, &pm, &ll) == 0 &&
	    (pm == 0 || pm > 1000000 || ll < 0 || ll > 1000))
		abort(); /* accepted a percentile or bound out of range */

	f = open_memstream(&doc, &len);
	if (f) {
		memcpy(&d, data, size >= sizeof(d) ? sizeof(d) : 0);
		if (size < sizeof(d))
			d = (double)size;
		rt_json_init(&j, f);
		rt_json_object_begin(&j, NULL);
		rt_json_string(&j, s, s);
		rt_json_object_begin(&j, s);
		rt_json_double(&j, "d", d, (int)(size % 12));
		rt_json_int(&j, "i", (int64_t)size - 5);
		rt_json_object_end(&j);
		rt_json_object_end(&j);
		if (rt_json_finish(&j) != 0)
			abort();
		fclose(f);
		if (!valid_document(doc))
			abort(); /* rt_json wrote something that is not JSON */
		free(doc);
	}
	free(s);
	return 0;
}
