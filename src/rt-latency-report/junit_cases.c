// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The test cases of one result. The latency tools (cyclictest, the pair
 * tools, and any result whose verdict lists "broken" limits) give one case
 * per thread or pair and per limit: the limits are those the command line
 * set (--max-latency, --max-percentile=P:US, --max-overruns, read from
 * "cmdline:" as the tool's parser takes them) and those the verdict names,
 * so a limit has a case of the same name whether it held or not. The
 * scheduler tools give one per item they judge (pi_stress's groups, ssdd's
 * pairs, deadline_test's and rt-migrate-test's threads) and per run-wide
 * limit; any other result one case for its verdict.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "doccheck.h"
#include "input.h"
#include "junit_cases.h"
#include "result_json.h"

/* --max-latency, --max-overruns and at most 16 --max-percentile. */
#define MAX_LIMITS 24
#define LIMIT_NAME 40

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* Add a case (taking name, message and text): 0 or -ENOMEM. */
static int add(struct rlr_jsuite *s, enum rlr_jkind kind, char *name, char *message, char *text)
{
	if (!name || (kind != RLR_JPASS && !message))
		goto nomem;
	if (s->ncases == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		struct rlr_jcase *c = realloc(s->cases, ncap * sizeof(*c));

		if (!c)
			goto nomem;
		s->cases = c;
		s->cap = ncap;
	}
	s->cases[s->ncases++] = (struct rlr_jcase){ name, kind, message, text, NULL };
	s->failures += kind == RLR_JFAILURE;
	s->errors += kind == RLR_JERROR;
	s->skipped += kind == RLR_JSKIPPED;
	return 0;
nomem:
	free(name);
	free(message);
	free(text);
	return -ENOMEM;
}

/* A failure of a claim the run did not prove (add()'s contract). */
static int add_inconclusive(struct rlr_jsuite *s, char *name, char *message, char *text)
{
	int err = add(s, RLR_JFAILURE, name, message, text);

	if (!err)
		s->cases[s->ncases - 1].type = RLR_JTYPE_INCONCLUSIVE;
	return err;
}

void rlr_junit_suite_free(struct rlr_jsuite *s)
{
	for (size_t k = 0; k < s->ncases; k++) {
		free(s->cases[k].name);
		free(s->cases[k].message);
		free(s->cases[k].text);
	}
	free(s->cases);
	s->cases = NULL;
	s->ncases = s->cap = 0;
}

/* ---------------------------------------------------------------- checks */

/* The first character of s[0..len) that XML 1.0 cannot carry, or -1. */
static long xml_bad_char(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t k = 0, n; k < len; k += n) {
		if (!p[k])
			return 0;
		if (!(n = rlr_utf8_len(p + k)))
			return 0xfffd; /* not UTF-8 (input.c lets none through) */
		if (n == 1 && p[k] < 0x20 && p[k] != '\t' && p[k] != '\n' && p[k] != '\r')
			return p[k];
		if (n == 3 && p[k] == 0xef && p[k + 1] == 0xbf && p[k + 2] >= 0xbe)
			return p[k + 2] == 0xbe ? 0xfffe : 0xffff;
	}
	return -1;
}

/* where, fit for a one-line message: no control characters. */
static void printable(char *where)
{
	for (unsigned char *p = (unsigned char *)where; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
}

static int bad_char(const char *path, char *where, long c)
{
	printable(where);
	if (c == 0xfffd)
		rt_prog_error("'%s': %s holds bytes that are not UTF-8: XML cannot carry them",
			      path, where);
	else
		rt_prog_error("'%s': %s holds the character U+%04lX: XML 1.0 cannot carry it", path,
			      where, c);
	return 2;
}

/* Every string and member name under o XML can carry: 0, or 2 after a one-line error. */
static int walk(const char *path, struct json_object *o, char *where, size_t used, size_t cap)
{
	long c;

	if (json_object_is_type(o, json_type_string)) {
		c = xml_bad_char(json_object_get_string(o), (size_t)json_object_get_string_len(o));
		return c >= 0 ? bad_char(path, where, c) : 0;
	}
	if (json_object_is_type(o, json_type_array)) {
		for (size_t k = 0; k < json_object_array_length(o); k++) {
			snprintf(where + used, cap - used, "[%zu]", k);
			if (walk(path, json_object_array_get_idx(o, k), where,
				 used + strlen(where + used), cap))
				return 2;
		}
		return 0;
	}
	if (!json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, key, val) {
		snprintf(where + used, cap - used, "%s%.64s", used ? "." : "", key);
		if ((c = xml_bad_char(key, strlen(key))) >= 0) {
			where[used] = '\0';
			snprintf(where + used, cap - used, "%sa member name", used ? ": " : "");
			return bad_char(path, where, c);
		}
		if (walk(path, val, where, used + strlen(where + used), cap))
			return 2;
	}
	return 0;
}

int rlr_junit_check(const char *path, struct json_object *doc)
{
	char where[1024] = "";
	long c = xml_bad_char(path, strlen(path));
	int n;

	/* The file's name is a property too. */
	if (c >= 0) {
		rt_prog_error("a result's file name holds the character U+%04lX: XML 1.0 cannot "
			      "carry it", c);
		return 2;
	}

	if (!json_object_is_type(doc, json_type_object) || !rlr_member(doc, "rt_test_version:") ||
	    !rlr_text(doc, "cmdline:")) {
		rt_prog_error("'%s' is not a result of rt-tests-ng or rt-tests 2.4 (no "
			      "\"rt_test_version:\" or \"cmdline:\")", path);
		return 2;
	}
	if (rlr_member(doc, "thread") || rlr_member(doc, "num_threads")) {
		if (rlr_doc_check(doc, path, &n))
			return 2;
	} else if (rlr_doc_types(doc, path, 0)) {
		return 2;
	}
	return walk(path, doc, where, 0, sizeof(where));
}

/* Member key of o is an integer (absent: false); any other type is an error (2). */
static int get_int(const char *path, struct json_object *o, const char *where, const char *key,
		   int64_t *v, bool *has)
{
	struct json_object *m = rlr_member(o, key);

	*has = false;
	if (!m)
		return 0;
	if (!json_object_is_type(m, json_type_int) || json_object_get_int64(m) == INT64_MAX ||
	    json_object_get_int64(m) == INT64_MIN) {
		rt_prog_error("'%s': %s%s is not an integer of 64 bits", path, where, key);
		return 2;
	}
	*v = json_object_get_int64(m);
	*has = true;
	return 0;
}

static int want_type(const char *path, struct json_object *o, const char *where, json_type t,
		     const char *what)
{
	if (!o || json_object_is_type(o, t))
		return 0;
	rt_prog_error("'%s': %s is not %s", path, where, what);
	return 2;
}

/* A member as compact JSON, for a failure's text. */
static char *json_text(struct json_object *o)
{
	return strdup(o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED |
							 JSON_C_TO_STRING_NOSLASHESCAPE)
		      : "null");
}

static int outcome_case(struct rlr_jsuite *s, char *name, const char *result, const char *why,
			struct json_object *figures_of);

/* ------------------------------------------------------- latency tools */

struct limits {
	int n;
	char name[MAX_LIMITS][LIMIT_NAME];
};

/* Add name (once): 0, or -1 when it is too long or there are too many. */
static int limit_add(struct limits *l, const char *name)
{
	for (int k = 0; k < l->n; k++)
		if (strcmp(l->name[k], name) == 0)
			return 0;
	if (l->n == MAX_LIMITS || strlen(name) >= LIMIT_NAME)
		return -1;
	snprintf(l->name[l->n++], LIMIT_NAME, "%s", name);
	return 0;
}

/*
 * The limits the command line set, as the tool's getopt_long took them:
 * --NAME=V or --NAME V, NAME any unambiguous prefix of max-latency,
 * max-percentile or max-overruns, up to a "--".
 */
static int cmdline_limits(struct limits *l, const char *cmdline)
{
	static const char *const opts[] = { "max-latency", "max-percentile", "max-overruns" };
	char *copy = strdup(cmdline), *save = NULL, *tok;

	if (!copy)
		return -ENOMEM;
	tok = strtok_r(copy, " ", &save); /* the command */
	while (tok && (tok = strtok_r(NULL, " ", &save)) && strcmp(tok, "--") != 0) {
		char *eq = strchr(tok, '='), *val;
		size_t nlen = eq ? (size_t)(eq - tok) - 2 : strlen(tok) - 2;
		int match = -1, matches = 0;

		if (strncmp(tok, "--", 2) != 0 || nlen < 5)
			continue;
		for (int k = 0; k < 3; k++)
			if (nlen <= strlen(opts[k]) && strncmp(tok + 2, opts[k], nlen) == 0)
				match = k, matches++;
		if (matches != 1)
			continue;
		val = eq ? eq + 1 : strtok_r(NULL, " ", &save);
		if (!val)
			break;
		if (match == 1) {
			struct rt_broken b = { .kind = RT_BROKEN_PERCENTILE };
			long long bound;
			char name[LIMIT_NAME];

			if (rt_opt_parse_percentile_limit(val, LLONG_MAX, &b.permyriad, &bound))
				continue;
			rt_broken_limit_name(&b, name, sizeof(name));
			(void)limit_add(l, name); /* the tools take at most 16 */
		} else {
			(void)limit_add(l, opts[match]);
		}
	}
	free(copy);
	return 0;
}

/*
 * The figures of one thread or pair: "samples N, min A, avg B, max C us,
 * overruns D", then its percentiles.
 */
static char *figures(struct json_object *m, int64_t samples, bool has_samples, const char *unit)
{
	static const char *const keys[] = { "min", "avg", "max" };
	struct json_object *p = rlr_member(m, "percentiles");
	char line[512] = "", pct[1024] = "";
	size_t used = 0;
	int64_t overruns;
	bool latencies = false;

	if (has_samples)
		used += (size_t)snprintf(line, sizeof(line), "samples %" PRId64, samples);
	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
		struct json_object *v = rlr_member(m, keys[k]);

		if ((json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double)) && used < sizeof(line)) {
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s %s",
						 used ? ", " : "", keys[k], json_object_get_string(v));
			latencies = true;
		}
	}
	if (latencies && used < sizeof(line))
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %s", unit);
	if (used < sizeof(line) && rlr_int(m, "overruns", &overruns))
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%soverruns %" PRId64,
					 used ? ", " : "", overruns);
	used = 0;
	if (json_object_is_type(p, json_type_object)) {
		json_object_object_foreach(p, key, val) {
			/* The tools' names ("p99.9"): ASCII, so a cut never splits a character. */
			if (used < sizeof(pct) && json_object_is_type(val, json_type_int) &&
			    strlen(key) <= 16 && key[strspn(key, "p0123456789.")] == '\0')
				used += (size_t)snprintf(pct + used, sizeof(pct) - used, "%s%s %s",
							 used ? ", " : "percentiles: ", key,
							 json_object_get_string(val));
		}
	}
	return fmt("%s%s%s%s%s", line, *line && *pct ? "\n" : "", pct, *pct ? " " : "",
		   *pct ? unit : "");
}

/* The samples a thread or pair measured, where the result says. */
static bool samples_of(struct json_object *thread, int64_t *n)
{
	struct json_object *m = rlr_measured(thread);

	return rlr_int(rlr_member(m, "latency_histogram"), "count", n) ||
	       rlr_int(m, "cycles", n) || rlr_int(m, "samples", n) ||
	       rlr_int(rlr_member(thread, "sender"), "samples", n);
}

/* The verdict's entry for series i and limit (NULL: any limit), or NULL. */
static struct json_object *broken_entry(struct json_object *broken, int i, const char *limit,
					bool pair)
{
	for (size_t k = 0; broken && k < json_object_array_length(broken); k++) {
		struct json_object *b = json_object_array_get_idx(broken, k);
		int64_t who;
		const char *name = rlr_text(b, "limit");

		if (rlr_int(b, pair ? "pair" : "thread", &who) && who == i && name &&
		    (limit ? strcmp(name, limit) == 0 : true))
			return b;
	}
	return NULL;
}

static int check_broken(const char *path, struct json_object *broken)
{
	for (size_t k = 0; broken && k < json_object_array_length(broken); k++) {
		struct json_object *b = json_object_array_get_idx(broken, k);
		static const char *const ints[] = { "thread", "pair", "sender", "receiver", "value",
						    "bound", "low", "high", "confidence",
						    "more_samples" };
		static const char *const strings[] = { "limit", "detail", "result", "reason" };
		char where[64];
		int64_t v;
		bool has;

		snprintf(where, sizeof(where), "verdict.broken[%zu]", k);
		if (want_type(path, b, where, json_type_object, "an object"))
			return 2;
		snprintf(where, sizeof(where), "verdict.broken[%zu].", k);
		for (size_t j = 0; j < sizeof(ints) / sizeof(*ints); j++)
			if (get_int(path, b, where, ints[j], &v, &has))
				return 2;
		for (size_t j = 0; j < sizeof(strings) / sizeof(*strings); j++) {
			snprintf(where, sizeof(where), "verdict.broken[%zu].%s", k, strings[j]);
			if (want_type(path, rlr_member(b, strings[j]), where, json_type_string,
				      "a string"))
				return 2;
		}
	}
	return 0;
}

/*
 * A --max-percentile claim the run did not prove (verdict entry b of
 * "result": "inconclusive"): not a broken limit, nor a run that could not
 * be done, so a failure of its own type: "max-percentile=99.99:
 * INCONCLUSIVE: need 35887 more samples (1323 us, 95 % CI 1280-?, limit
 * 50000 us)", the verdict's reason when it gives no number.
 */
static int inconclusive_case(struct rlr_jsuite *s, struct json_object *m, const char *label,
			     const char *tasks, const char *limit, struct json_object *b,
			     char *name, int64_t n, bool has_n, const char *unit)
{
	int64_t value = 0, bound = 0, low = 0, high = 0, conf = 0, more = 0;
	char why[160], ci[96] = "", *fig, *message, *text;
	const char *reason = rlr_text(b, "reason"), *tail;

	rlr_int(b, "value", &value);
	rlr_int(b, "bound", &bound);
	if (rlr_int(b, "more_samples", &more)) {
		snprintf(why, sizeof(why), "need %" PRId64 " more samples", more);
	} else {
		/* The verdict's "V, 95 % CI L-H, WHY": WHY, the figures follow. */
		tail = reason ? strrchr(reason, ',') : NULL;
		snprintf(why, sizeof(why), "%s", tail && tail[1] == ' ' ? tail + 2
			 : reason ? reason : "the run did not decide");
	}
	if (rlr_int(b, "low", &low) && rlr_int(b, "confidence", &conf)) {
		if (rlr_int(b, "high", &high))
			snprintf(ci, sizeof(ci), ", %" PRId64 " %% CI %" PRId64 "-%" PRId64, conf,
				 low, high);
		else
			snprintf(ci, sizeof(ci), ", %" PRId64 " %% CI %" PRId64 "-?", conf, low);
	}
	message = fmt("%s: INCONCLUSIVE: %s (%" PRId64 " %s%s, limit %" PRId64 " %s)", limit, why,
		      value, unit, ci, bound, unit);
	fig = figures(m, n, has_n, unit);
	text = fig && message ? fmt("%s%s: %s\n%s", label, tasks, message, fig) : NULL;
	free(fig);
	return add_inconclusive(s, name, message, text);
}

/*
 * One case of series i (label "thread 0" or "pair 0") and limit (NULL: none
 * set); judged says whether the result has a verdict to judge it by.
 */
static int latency_case(struct rlr_jsuite *s, struct json_object *thread, const char *label,
			const char *limit, struct json_object *b_any, struct json_object *b,
			const char *unit, bool judged)
{
	struct json_object *m = rlr_measured(thread);
	char *name = limit ? fmt("%s: %s", label, limit) : strdup(label);
	const char *why = rlr_text(b_any, "limit");
	int64_t n = 0, who_s, who_r;
	bool has_n = samples_of(thread, &n);
	char tasks[64] = "";

	if (b && rlr_int(b, "sender", &who_s) && rlr_int(b, "receiver", &who_r))
		snprintf(tasks, sizeof(tasks), " (#%" PRId64 " -> #%" PRId64 ")", who_s, who_r);
	if (why && strcmp(why, "failed") == 0) {
		const char *detail = rlr_text(b_any, "detail") ? rlr_text(b_any, "detail")
				     : "a worker died";
		char *fig = figures(m, n, has_n, unit);
		char *text = fig ? fmt("%s: failed: %s\n%s", label, detail, fig) : NULL;

		free(fig);
		return add(s, RLR_JERROR, name, fmt("failed: %s", detail), text);
	}
	if ((why && strcmp(why, "samples") == 0) || (has_n && n == 0))
		return add(s, RLR_JERROR, name, strdup("no samples, nothing was measured"),
			   fmt("%s: no samples: a run that measured nothing never passes", label));
	if (b && rlr_text(b, "result") && strcmp(rlr_text(b, "result"), "inconclusive") == 0)
		return inconclusive_case(s, m, label, tasks, limit, b, name, n, has_n, unit);
	if (b) {
		int64_t value = 0, bound = 0;
		bool count = strcmp(limit, "max-overruns") == 0;
		char *fig = figures(m, n, has_n, unit), *text;

		rlr_int(b, "value", &value);
		rlr_int(b, "bound", &bound);
		text = fig ? fmt("%s%s: %s: %" PRId64 " > %" PRId64 "%s%s\n%s", label, tasks, limit,
				 value, bound, count ? "" : " ", count ? "" : unit, fig) : NULL;
		free(fig);
		return add(s, RLR_JFAILURE, name,
			   fmt("%s: %" PRId64 " > %" PRId64 "%s%s", limit, value, bound,
			       count ? "" : " ", count ? "" : unit), text);
	}
	if (limit && !judged)
		return add(s, RLR_JSKIPPED, name,
			   strdup("not judged: the result has no verdict per thread (a "
				  "--records file, a merge, a run that did not end)"), NULL);
	return add(s, RLR_JPASS, name, NULL, NULL);
}

static int latency_cases(struct rlr_jsuite *s, const char *path, struct json_object *doc)
{
	struct json_object *verdict = rlr_member(doc, "verdict");
	struct json_object *broken = rlr_member(verdict, "broken");
	struct limits l = { 0 };
	int64_t nthreads = 0, ns = 0;
	const char *unit = rlr_int(doc, "resolution_in_ns", &ns) && ns == 1 ? "ns" : "us";
	bool pair = false;
	int rc;

	if (want_type(path, broken, "verdict.broken", json_type_array, "an array") ||
	    check_broken(path, broken))
		return 2;
	if (cmdline_limits(&l, rlr_text(doc, "cmdline:")))
		return 1;
	for (size_t k = 0; broken && k < json_object_array_length(broken); k++) {
		struct json_object *b = json_object_array_get_idx(broken, k);
		const char *name = rlr_text(b, "limit");

		pair |= rlr_member(b, "pair") != NULL;
		if (name && strcmp(name, "samples") != 0 && strcmp(name, "failed") != 0 &&
		    limit_add(&l, name)) {
			rt_prog_error("'%s': verdict.broken[%zu].limit: more than %d limits or one "
				      "longer than %d bytes: not a verdict of rt-tests-ng", path, k,
				      MAX_LIMITS, LIMIT_NAME - 1);
			return 2;
		}
	}
	rlr_int(doc, "num_threads", &nthreads);
	for (int i = 0; i < nthreads; i++) {
		struct json_object *t = rlr_thread(doc, i);
		struct json_object *any = broken_entry(broken, i, "failed", pair);
		char label[32];

		pair |= rlr_member(t, "receiver") != NULL;
		snprintf(label, sizeof(label), "%s %d", pair ? "pair" : "thread", i);
		if (!any)
			any = broken_entry(broken, i, "samples", pair);
		if (!l.n && (rc = latency_case(s, t, label, NULL, any, NULL, unit, true)))
			return rc < 0 ? 1 : rc;
		for (int k = 0; k < l.n; k++)
			if ((rc = latency_case(s, t, label, l.name[k], any,
					       broken_entry(broken, i, l.name[k], pair), unit,
					       broken != NULL)))
				return rc < 0 ? 1 : rc;
	}
	/* A verdict without the broken limits (a merge's): a case of its own. */
	if (verdict && !broken && (rc = outcome_case(s, strdup("verdict"),
						   rlr_text(verdict, "result"),
						   rlr_text(verdict, "reason"), verdict)))
		return rc < 0 ? 1 : rc;
	return 0;
}

/* ---------------------------------------------------- scheduler tools */

/* A case from a result/outcome word: "pass", "fail", anything else an error. */
static int outcome_case(struct rlr_jsuite *s, char *name, const char *result, const char *why,
			struct json_object *figures_of)
{
	if (result && strcmp(result, "pass") == 0) {
		return add(s, RLR_JPASS, name, NULL, NULL);
	}
	if (result && strcmp(result, "inconclusive") == 0)
		return add_inconclusive(s, name, fmt("INCONCLUSIVE: %s",
						     why ? why : "the run did not prove its claim"),
					json_text(figures_of));
	return add(s, result && strcmp(result, "fail") == 0 ? RLR_JFAILURE : RLR_JERROR, name,
		   why ? strdup(why) : fmt("result: %s", result ? result : "none"),
		   json_text(figures_of));
}

/*
 * The tools judged on the shared verdict alone (issue 29): the items a tool
 * judges, as its result lists them, and the verdict's key naming one.
 */
struct items {
	const char *key;    /* the broken entries' subject: "group", "pair", "thread", "task" */
	const char *word;   /* a case's name: WORD INDEX SUFFIX */
	const char *suffix;
	size_t n;
};

static void items_of(const struct rlr_jsuite *s, struct json_object *doc, struct items *it)
{
	int64_t n = 0;

	*it = (struct items){ NULL, NULL, NULL, 0 };
	if (strcmp(s->tool, "pi_stress") == 0) {
		*it = (struct items){ "group", "group", "",
				      json_object_is_type(rlr_member(doc, "group"),
							  json_type_array)
				      ? json_object_array_length(rlr_member(doc, "group")) : 0 };
	} else if (strcmp(s->tool, "ssdd") == 0) {
		*it = (struct items){ "pair", "pair", "",
				      json_object_is_type(rlr_member(doc, "pairs"),
							  json_type_array)
				      ? json_object_array_length(rlr_member(doc, "pairs")) : 0 };
	} else if (strcmp(s->tool, "deadline_test") == 0 && rlr_int(doc, "num_threads", &n)) {
		*it = (struct items){ "thread", "thread", "", n > 0 && n < 100000 ? (size_t)n : 0 };
	} else if (strcmp(s->tool, "rt-migrate-test") == 0 && rlr_int(doc, "num_threads", &n)) {
		*it = (struct items){ "task", "thread", ": priority order",
				      n > 0 && n < 100000 ? (size_t)n : 0 };
	}
}

static char *item_name(const struct items *it, size_t i)
{
	return fmt("%s %zu%s", it->word, i, it->suffix);
}

/* The subject an entry names ("cpu", 3), or NULL for the run as a whole. */
static const char *subject_of(struct json_object *b, int64_t *index)
{
	static const char *const keys[] = { "thread", "pair", "group", "task", "cpu", "process" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		if (rlr_int(b, keys[k], index))
			return keys[k];
	return NULL;
}

/* One broken entry as a case: inconclusive, a dead worker (error) or a failure. */
static int entry_case(struct rlr_jsuite *s, char *name, struct json_object *b)
{
	const char *limit = rlr_text(b, "limit") ? rlr_text(b, "limit") : "check";
	const char *reason = rlr_text(b, "reason") ? rlr_text(b, "reason")
			     : rlr_text(b, "detail") ? rlr_text(b, "detail") : "broken";
	const char *result = rlr_text(b, "result");

	if (result && strcmp(result, "inconclusive") == 0)
		return add_inconclusive(s, name, fmt("%s: INCONCLUSIVE: %s", limit, reason),
					json_text(b));
	/* A dead worker, or a subject that checked nothing: an error, as "samples" is. */
	return add(s, strcmp(limit, "failed") == 0 || strcmp(limit, "evidence") == 0 ? RLR_JERROR
		   : RLR_JFAILURE, name, fmt("%s: %s", limit, reason), json_text(b));
}

/* The broken entries of item i (subject key), each a case; *found: how many. */
static int item_cases(struct rlr_jsuite *s, struct json_object *broken, const struct items *it,
		      size_t i, size_t *found)
{
	int rc = 0;

	*found = 0;
	for (size_t k = 0; broken && k < json_object_array_length(broken) && !rc; k++) {
		struct json_object *b = json_object_array_get_idx(broken, k);
		int64_t who;
		const char *key = subject_of(b, &who);

		if (key && strcmp(key, it->key) == 0 && who >= 0 && (size_t)who == i) {
			/* The item's case keeps its name, pass or fail; a further entry its limit's. */
			char *label = item_name(it, i);

			rc = entry_case(s, !*found || !label ? label
					: fmt("%s: %s", label, rlr_text(b, "limit")
					      ? rlr_text(b, "limit") : "check"), b);
			if (*found)
				free(label);
			(*found)++;
		}
	}
	return rc;
}

/*
 * A result judged on the shared verdict: a case per item the tool judges
 * (passed unless a broken entry names it), a case per entry about the run
 * or another subject, and the verdict's own case when it is not a pass that
 * no case shows. Without a verdict (2.4, rt-migrate-test without -c before
 * issue 29) the items are not judged: skipped.
 */
static int judged_cases(struct rlr_jsuite *s, const char *path, struct json_object *doc)
{
	struct json_object *v = rlr_member(doc, "verdict"), *broken = rlr_member(v, "broken");
	const char *result = rlr_text(v, "result");
	size_t before = s->failures + s->errors, found;
	struct items it;
	int rc = 0;

	if (want_type(path, broken, "verdict.broken", json_type_array, "an array") ||
	    check_broken(path, broken))
		return 2;
	items_of(s, doc, &it);
	for (size_t i = 0; i < it.n && !rc; i++) {
		if (!result)
			rc = add(s, RLR_JSKIPPED, item_name(&it, i),
				 strdup("not judged: the result has no verdict"), NULL);
		else if (!(rc = item_cases(s, broken, &it, i, &found)) && !found)
			rc = add(s, RLR_JPASS, item_name(&it, i), NULL, NULL);
	}
	for (size_t k = 0; broken && k < json_object_array_length(broken) && !rc; k++) {
		struct json_object *b = json_object_array_get_idx(broken, k);
		const char *limit = rlr_text(b, "limit") ? rlr_text(b, "limit") : "check";
		int64_t who = -1;
		const char *key = subject_of(b, &who);

		if (key && it.key && strcmp(key, it.key) == 0 && who >= 0 && (size_t)who < it.n)
			continue; /* an item's case already */
		rc = entry_case(s, key ? fmt("%s %" PRId64 ": %s", key, who, limit)
				: fmt("run: %s", limit), b);
	}
	if (!rc && result && (strcmp(result, "pass") != 0 || !s->ncases) &&
	    s->failures + s->errors == before)
		rc = outcome_case(s, strdup("verdict"), result, rlr_text(v, "reason"), v);
	return rc < 0 ? 1 : rc;
}

/*
 * Any other result: one case for its verdict (pip_stress, queuelat ...):
 * "pass", "fail" with its reason, else (no verdict) its exit status.
 */
static int verdict_case(struct rlr_jsuite *s, struct json_object *doc)
{
	struct json_object *v = rlr_member(doc, "verdict");
	const char *result = rlr_text(v, "result"), *reason = rlr_text(v, "reason");
	int64_t rc = 0;
	int err;

	if (!result) {
		bool has = rlr_int(doc, "return_code", &rc);

		err = add(s, !has || rc == 0 ? RLR_JPASS : RLR_JERROR, strdup("run"),
			  !has || rc == 0 ? NULL : fmt("the run ended with exit status %" PRId64, rc),
			  NULL);
	} else {
		err = outcome_case(s, strdup("verdict"), result, reason, v);
	}
	return err < 0 ? 1 : 0;
}

/* The seconds -D/--duration asked for on cmdline, or -1 (records do not say). */
static double asked_duration(const char *cmdline)
{
	char *copy = cmdline ? strdup(cmdline) : NULL, *save = NULL, *tok, *val = NULL;
	uint64_t secs;
	double asked = -1;

	for (tok = copy ? strtok_r(copy, " ", &save) : NULL; tok && !val;
	     tok = strtok_r(NULL, " ", &save)) {
		if (strcmp(tok, "--") == 0)
			break;
		if (strcmp(tok, "-D") == 0 || strcmp(tok, "--duration") == 0)
			val = strtok_r(NULL, " ", &save);
		else if (strncmp(tok, "--duration=", 11) == 0)
			val = tok + 11;
		else if (strncmp(tok, "-D", 2) == 0)
			val = tok + 2;
	}
	if (val && !rt_opt_parse_duration(val, UINT32_MAX, &secs) && secs)
		asked = (double)secs;
	free(copy);
	return asked;
}

/*
 * A run stopped early (the verdict's "partial", its "stop") or killed (a
 * records file without its total line): never a complete pass. The suite
 * says why and how much; a case of its own fails with type partial.
 */
static int partial_case(struct rlr_jsuite *s, struct json_object *doc)
{
	struct json_object *v = rlr_member(doc, "verdict"), *stop = rlr_member(v, "stop");
	struct json_object *done = rlr_member(stop, "done"), *asked = rlr_member(stop, "asked");
	const char *cause = rlr_text(stop, "cause"), *unit = rlr_text(stop, "unit");
	char of[64] = "";

	s->done = s->asked = -1;
	s->partial = json_object_get_boolean(rlr_member(v, "partial"));
	if (!s->partial && json_object_get_boolean(rlr_member(doc, "partial"))) {
		s->partial = true;
		cause = rlr_member(doc, "records") ? "killed" : "stopped";
		unit = "s";
		s->asked = asked_duration(rlr_text(doc, "cmdline:"));
		done = rlr_member(rlr_member(doc, "records"), "end_s");
		asked = NULL;
	}
	if (!s->partial)
		return 0;
	if (json_object_is_type(done, json_type_double) || json_object_is_type(done, json_type_int))
		s->done = json_object_get_double(done);
	if (json_object_is_type(asked, json_type_double) ||
	    json_object_is_type(asked, json_type_int))
		s->asked = json_object_get_double(asked);
	snprintf(s->cause, sizeof(s->cause), "%s", cause ? cause : "stopped");
	snprintf(s->unit, sizeof(s->unit), "%s", unit ? unit : "");
	if (s->done >= 0)
		snprintf(of, sizeof(of), " after %g%s%s", s->done, *s->unit ? " " : "", s->unit);
	if (s->asked >= 0)
		snprintf(of + strlen(of), sizeof(of) - strlen(of), " of %g%s%s asked", s->asked,
			 *s->unit ? " " : "", s->unit);
	snprintf(s->stop_text, sizeof(s->stop_text), "partial: %s%s%s", strcmp(s->cause, "killed")
		 && strcmp(s->cause, "stopped") ? "stopped by " : "", s->cause, of);
	if (add(s, RLR_JFAILURE, strdup("run: complete"),
		fmt("%s; judged on what it measured", s->stop_text), NULL))
		return 1;
	s->cases[s->ncases - 1].type = RLR_JTYPE_PARTIAL;
	return 0;
}

int rlr_junit_cases(struct rlr_jsuite *s, const char *path, struct json_object *doc)
{
	struct json_object *v = rlr_member(doc, "verdict");
	struct items it;
	int64_t code = 0;
	int rc;

	s->path = path;
	s->doc = doc;
	rlr_tool_name(s->tool, sizeof(s->tool), rlr_text(doc, "cmdline:"));
	if (want_type(path, v, "verdict", json_type_object, "an object"))
		return 2;
	items_of(s, doc, &it);
	if (it.key || (rlr_member(v, "broken") && !rlr_member(doc, "thread")))
		rc = judged_cases(s, path, doc);
	else if (rlr_member(v, "broken") || rlr_member(doc, "thread"))
		rc = latency_cases(s, path, doc);
	else
		rc = verdict_case(s, doc);
	if (rc || (rc = partial_case(s, doc)))
		return rc;
	/* A run that ended in error (not a verdict: 3 or 4) says so, once. */
	if (!s->errors && rlr_int(doc, "return_code", &code) && code != 0 &&
	    !rt_exit_is_verdict(code) &&
	    add(s, RLR_JERROR, strdup("exit status"),
		fmt("the run ended with exit status %" PRId64, code), NULL))
		return 1;
	if (!s->ncases && add(s, RLR_JERROR, strdup("run"),
			      strdup("no thread, pair or group: nothing was measured"), NULL))
		return 1;
	return 0;
}
