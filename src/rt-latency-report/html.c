// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * html: the command. Reads every input once (input.h), checks it as the
 * other commands do, and writes the page into OUT, which appears whole or
 * not at all.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rt_cli.h"
#include "rt_output.h"
#include "rt_prog.h"

#include "curves_load.h"
#include "doccheck.h"
#include "html.h"
#include "html_text.h"
#include "load.h"
#include "records.h"
#include "result_json.h"

/* Whether a thread has a histogram of a layout the curves read. */
static bool has_histogram(struct json_object *thread)
{
	struct json_object *m = rlr_measured(thread), *lh = rlr_member(m, "latency_histogram");

	if (lh)
		return rlr_loghist_buckets(lh) != NULL;
	return json_object_is_type(rlr_member(m, "histogram"), json_type_object);
}

/* A JSON result's curves: those of its threads with a histogram. 0, 1 or 2. */
static int json_curves(struct rlr_html_run *r)
{
	struct json_object *doc = r->in.doc;
	int n = 0, rc;
	int64_t ns = 0;

	r->pf.path = r->path;
	/* Not a latency result (another tool's JSON, no threads): shown as it is. */
	if (!rlr_member(doc, "thread") && !rlr_member(doc, "num_threads"))
		return 0;
	if ((rc = rlr_doc_check(doc, r->path, &n)))
		return rc;
	rlr_int(doc, "resolution_in_ns", &ns);
	r->pf.ns = ns == 1;
	if (!(r->pf.curve = calloc((size_t)n, sizeof(*r->pf.curve)))) {
		rt_prog_error_errno(ENOMEM, "cannot read '%s'", r->path);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		struct json_object *t = rlr_thread(doc, i);

		if (!t || !has_histogram(t))
			continue;
		if ((rc = rlr_curve_from_json(&r->pf.curve[r->pf.ncurves], t, r->path, i))) {
			free(r->pf.curve[r->pf.ncurves].bin);
			return rc;
		}
		r->pf.ncurves++;
	}
	return 0;
}

static void run_free(struct rlr_html_run *r)
{
	rlr_plotfile_free(&r->pf);
	rlr_timeline_free(&r->tl);
	rlr_input_free(&r->in);
}

/* Read one input: 0, or 1/2 after a one-line error. */
static int run_load(struct rlr_html_run *r, const char *path, bool text_ns)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->path = path;
	if ((rc = rlr_input_load(&r->in, path)))
		return rc == RLR_INPUT_INVALID ? 2 : rc;
	r->records = rlr_records_is(r->in.data, r->in.len);
	if (r->records && rlr_timeline_read(&r->tl, r->in.data, r->in.len)) {
		rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
		return 1;
	}
	rc = r->in.doc ? json_curves(r) : rlr_plotfile_from_input(&r->pf, &r->in, text_ns);
	r->unit = r->pf.ns ? "ns" : "us";
	return rc;
}

static const char style[] =
	"body{font:14px/1.4 'DejaVu Sans',sans-serif;margin:1.5em;color:#111;max-width:80em}"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:1.6em}"
	"h3{font-size:1.05em}table{border-collapse:collapse;margin:.5em 0}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:right;vertical-align:top}"
	"th{background:#f2f2f2}td.l,th.l{text-align:left}"
	".ci{color:#555;font-size:.85em;white-space:nowrap}"
	".verdict{font-size:1.3em;font-weight:bold;padding:.4em .8em;display:inline-block;"
	"border-radius:4px}"
	".pass{background:#d9f2d9;color:#14501e}.fail{background:#f9d6d5;color:#7a1010}"
	".inconclusive{background:#fdf0c4;color:#5c4500}.none{background:#e6e6e6}"
	".partial{background:#fdf0c4;color:#5c4500;padding:.3em .6em;border-left:4px solid #c90}"
	".mono{font-family:'DejaVu Sans Mono',monospace;word-break:break-all}"
	"svg{display:block;margin:.5em 0;background:#fff}"
	"svg text{font:11px 'DejaVu Sans',sans-serif}"
	"dl.tree{margin:0}dl.tree dt{font-weight:bold}dl.tree dd{margin-left:1.2em}"
	"@media print{body{margin:0;max-width:none}h2{break-after:avoid}svg{break-inside:avoid}}";

static void head(FILE *f, const struct rlr_html_run *runs, int n, bool compare)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      /* Nothing loads: no script, no image, font, frame, form or base. */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n"
	      "<meta name=\"referrer\" content=\"no-referrer\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>", f);
	fputs(compare ? "Latency comparison: " : "Latency report: ", f);
	for (int i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		rlr_html_text(f, runs[i].path);
	}
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
}

static void page(FILE *f, struct rlr_html_run *runs, int n, const struct rlr_run *cmp)
{
	head(f, runs, n, cmp != NULL);
	if (cmp) {
		fputs("<h1>Latency comparison</h1>\n", f);
		rlr_html_compare(f, runs, cmp);
	} else if (n > 1) {
		fputs("<h1>Latency report</h1>\n", f);
		rlr_html_runs_summary(f, runs, n);
	}
	for (int i = 0; i < n; i++)
		rlr_html_run_section(f, &runs[i], n > 1 ? i + 1 : 0);
	fputs("<p class=\"ci\">Written by rt-latency-report (" PACKAGE_NAME " " PACKAGE_VERSION
	      "). Percentile intervals are distribution-free 95 % confidence intervals; "
	      "\"-\" is not known.</p>\n</body>\n</html>\n", f);
}

static int write_page(const char *path, struct rlr_html_run *runs, int n,
		      const struct rlr_run *cmp)
{
	struct rt_output o;
	int err;

	if ((err = rt_output_open(&o, path))) {
		rt_prog_error_errno(-err, "cannot write '%s'", path);
		return RT_EXIT_FAILURE;
	}
	page(o.f, runs, n, cmp);
	if ((err = rt_output_commit(&o))) {
		rt_prog_error_errno(-err, "cannot write '%s'", path);
		rt_output_abort(&o);
		return RT_EXIT_FAILURE;
	}
	return RT_EXIT_OK;
}

static bool html_name(const char *s)
{
	size_t n = strlen(s);

	return (n > 5 && strcasecmp(s + n - 5, ".html") == 0) ||
	       (n > 4 && strcasecmp(s + n - 4, ".htm") == 0);
}

/* The options: 0 with *path, *compare, *text_ns and optind at the inputs, or the usage exit. */
static int options(int argc, char *argv[], const char **path, bool *compare, bool *text_ns)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "compare", no_argument, NULL, 'c' },
		{ "ns", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (c == 'o')
			*path = optarg;
		else if (c == 'c')
			*compare = true;
		else if (c == 'n')
			*text_ns = true;
		else
			return rt_cli_bad_option(argc, argv, c);
	}
	if (!*path)
		return rt_prog_usage_error("html needs -o REPORT.html");
	if (!html_name(*path))
		return rt_prog_usage_error("-o: '%s' must end in .html", *path);
	if (optind >= argc)
		return rt_prog_usage_error("html needs at least one file: a JSON result, a records "
					   "file, a merge or a histogram text");
	if (*compare && argc - optind != 2)
		return rt_prog_usage_error("html --compare needs two files (BASE RUN), not %d",
					   argc - optind);
	return 0;
}

/* --compare: both read as compare reads them (results of one tool, in one unit). */
static int compare_and_write(const char *path, struct rlr_html_run *runs)
{
	struct rlr_run cmp[2];
	int rc = 0, loaded = 0;

	for (; loaded < 2 && !rc; loaded++)
		if ((rc = rlr_load_input(&cmp[loaded], &runs[loaded].in)))
			rc = rc == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
	if (!rc && cmp[0].ns != cmp[1].ns)
		rc = rt_prog_usage_error("'%s' (%s) and '%s' (%s) are not in the same unit",
					 runs[0].path, cmp[0].ns ? "ns" : "us", runs[1].path,
					 cmp[1].ns ? "ns" : "us");
	if (!rc)
		rc = write_page(path, runs, 2, cmp);
	for (int k = 0; k < loaded; k++)
		rlr_free(&cmp[k]);
	return rc;
}

int rlr_html(int argc, char *argv[])
{
	struct rlr_html_run *runs;
	const char *path = NULL;
	bool compare = false, text_ns = false;
	int n, loaded = 0, rc;

	if ((rc = options(argc, argv, &path, &compare, &text_ns)))
		return rc;
	n = argc - optind;
	if (!(runs = calloc((size_t)n, sizeof(*runs))))
		return RT_EXIT_FAILURE;
	for (; loaded < n && !rc; loaded++) {
		int err = run_load(&runs[loaded], argv[optind + loaded], text_ns);

		if (err)
			rc = err == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
	}
	if (!rc && compare)
		rc = compare_and_write(path, runs);
	else if (!rc)
		rc = write_page(path, runs, n, NULL);
	for (int i = 0; i < loaded; i++)
		run_free(&runs[i]);
	free(runs);
	return rc;
}
