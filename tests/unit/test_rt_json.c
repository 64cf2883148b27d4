// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_json.h"

static char *buf;
static size_t len;
static FILE *mem;
static struct rt_json j;

static void open_doc(void)
{
	mem = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(mem);
	rt_json_init(&j, mem);
}

static char *close_doc(int want_err)
{
	ck_assert_int_eq(rt_json_finish(&j), want_err);
	fclose(mem);
	return buf;
}

START_TEST(nested_objects_two_space_indent_in_order)
{
	static const char want[] = "{\n"
				   "  \"b\": 1,\n"
				   "  \"a\": {\n"
				   "    \"x\": -2,\n"
				   "    \"e\": {}\n"
				   "  },\n"
				   "  \"u\": 18446744073709551615\n"
				   "}\n";

	open_doc();
	rt_json_object_begin(&j, NULL);
	rt_json_int(&j, "b", 1);
	rt_json_object_begin(&j, "a");
	rt_json_int(&j, "x", -2);
	rt_json_object_begin(&j, "e");
	rt_json_object_end(&j);
	rt_json_object_end(&j);
	rt_json_uint(&j, "u", UINT64_MAX);
	rt_json_object_end(&j);
	ck_assert_str_eq(close_doc(0), want);
	free(buf);
}
END_TEST

static const struct {
	const char *in, *want;
} esc_cases[] = {
	{ "plain", "\"plain\"" },
	{ "say \"hi\"", "\"say \\\"hi\\\"\"" },
	{ "back\\slash", "\"back\\\\slash\"" },
	{ "tab\there\nnl\rcr", "\"tab\\there\\nnl\\rcr\"" },
	{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
	{ "\b\f", "\"\\b\\f\"" },
	{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },            /* valid UTF-8 kept */
	{ "bad\xff\xc3", "\"bad\\u00ff\\u00c3\"" },      /* invalid bytes escaped */
	{ "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" }, /* surrogate rejected */
	{ "\xc0\xaf", "\"\\u00c0\\u00af\"" },            /* overlong rejected */
	{ "", "\"\"" },
};

START_TEST(escapes_every_string)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	rt_json_write_escaped(f, esc_cases[_i].in);
	fclose(f);
	ck_assert_str_eq(out, esc_cases[_i].want);
	free(out);
}
END_TEST

START_TEST(keys_are_escaped_too)
{
	open_doc();
	rt_json_object_begin(&j, NULL);
	rt_json_string(&j, "cmdline:", "a \"b\"");
	rt_json_object_end(&j);
	ck_assert_str_eq(close_doc(0), "{\n  \"cmdline:\": \"a \\\"b\\\"\"\n}\n");
	free(buf);
}
END_TEST

START_TEST(never_nan_or_inf)
{
	open_doc();
	rt_json_object_begin(&j, NULL);
	rt_json_double(&j, "nan", NAN, 2);
	rt_json_double(&j, "inf", -INFINITY, 2);
	rt_json_double(&j, "avg", 79.5, 2);
	rt_json_string(&j, "s", NULL);
	rt_json_null(&j, "n");
	rt_json_object_end(&j);
	ck_assert_str_eq(close_doc(0), "{\n  \"nan\": null,\n  \"inf\": null,\n"
				       "  \"avg\": 79.50,\n  \"s\": null,\n  \"n\": null\n}\n");
	free(buf);
}
END_TEST

START_TEST(unbalanced_is_reported)
{
	open_doc();
	rt_json_object_begin(&j, NULL);
	rt_json_object_begin(&j, "open");
	close_doc(-EINVAL);
	free(buf);

	open_doc();
	rt_json_object_end(&j);
	close_doc(-EINVAL);
	free(buf);

	open_doc();
	rt_json_int(&j, "outside", 1);
	close_doc(-EINVAL);
	free(buf);
}
END_TEST

START_TEST(too_deep_is_reported)
{
	open_doc();
	rt_json_object_begin(&j, NULL);
	for (int i = 0; i < RT_JSON_MAX_DEPTH + 2; i++)
		rt_json_object_begin(&j, "d");
	ck_assert(j.misuse);
	fclose(mem);
	free(buf);
}
END_TEST

START_TEST(stream_error_is_reported)
{
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		unit_skip("no /dev/full on this machine");
	}
	setvbuf(f, NULL, _IONBF, 0);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), -EIO);
	fclose(f);
}
END_TEST

START_TEST(arrays_hold_values_and_objects_without_keys)
{
	open_doc();
	rt_json_object_begin(&j, NULL);
	rt_json_array_begin(&j, "a");
	rt_json_int(&j, NULL, 1);
	rt_json_object_begin(&j, NULL);
	rt_json_string(&j, "k", "v");
	rt_json_object_end(&j);
	rt_json_array_end(&j);
	rt_json_array_begin(&j, "empty");
	rt_json_array_end(&j);
	rt_json_object_end(&j);
	ck_assert_str_eq(close_doc(0), "{\n  \"a\": [\n    1,\n    {\n      \"k\": \"v\"\n    }\n  ],\n"
				       "  \"empty\": []\n}\n");
	free(buf);
}
END_TEST

START_TEST(mismatched_array_end_is_misuse)
{
	open_doc();
	rt_json_object_begin(&j, NULL);
	rt_json_array_begin(&j, "a");
	rt_json_object_end(&j);
	close_doc(-EINVAL);
	free(buf);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_json");
	TCase *tc = tcase_create("layout");

	tcase_add_test(tc, nested_objects_two_space_indent_in_order);
	tcase_add_test(tc, never_nan_or_inf);
	tcase_add_test(tc, unbalanced_is_reported);
	tcase_add_test(tc, too_deep_is_reported);
	tcase_add_test(tc, stream_error_is_reported);
	suite_add_tcase(s, tc);
	tc = tcase_create("escaping");
	UNIT_LOOP(tc, escapes_every_string, esc_cases);
	tcase_add_test(tc, keys_are_escaped_too);
	tcase_add_test(tc, arrays_hold_values_and_objects_without_keys);
	tcase_add_test(tc, mismatched_array_end_is_misuse);
	suite_add_tcase(s, tc);
	return s;
}
