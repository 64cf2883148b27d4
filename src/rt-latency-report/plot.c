// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plot: the OSADL-style latency plot. Number of samples on a log scale over
 * latency, one step curve per thread, each thread's max marked with a dot
 * and named in the key, the title naming the machine, kernel, preemption
 * model, command line and duration. Drawn by gnuplot into OUT.png or
 * OUT.svg, which appears whole or not at all.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "rt_cli.h"
#include "rt_output.h"
#include "rt_prog.h"

#include "axis.h"
#include "curves.h"
#include "curves_load.h"
#include "gnuplot.h"
#include "plot.h"

/* Below the y range's bottom (0.8): the outline drops out of sight there. */
#define RLR_FLOOR "0.5"
#define RLR_MAX_DISTINCT 3 /* hosts or kernels named in the title */
#define RLR_KEY_INSIDE_MAX 8 /* curves whose key fits in the plot's corner */
#define RLR_TITLE_COLUMNS 100 /* characters of a title line that fit in 1200 pixels */
#define RLR_X_SCALE 1000.0 /* gnuplot's x: the axis's position (0..1) times this */
#define RLR_PLOT_PX 1000.0 /* about the plot's width in pixels (of 1200) */
#define RLR_CHAR_PX 9.0 /* about a tick label character's width in pixels */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static const char *origin_value(const struct rlr_origin *o, bool kernel)
{
	return kernel ? o->kernel : o->host;
}

/* Whether origin k of file i has a value an earlier origin had. */
static bool seen_before(const struct rlr_plotfile *f, int i, int k, bool kernel)
{
	const char *v = origin_value(&f[i].origin[k], kernel);

	for (int i2 = 0; i2 <= i; i2++)
		for (int k2 = 0; k2 < (i2 < i ? f[i2].norigins : k); k2++)
			if (strcmp(origin_value(&f[i2].origin[k2], kernel), v) == 0)
				return true;
	return false;
}

/* "a, b, c" of the distinct values, or "N hosts" beyond RLR_MAX_DISTINCT. */
static void distinct(char *dst, size_t size, const struct rlr_plotfile *f, int nfiles,
		     bool kernel, const char *plural)
{
	size_t len = 0;
	int n = 0;

	dst[0] = '\0';
	for (int i = 0; i < nfiles; i++)
		for (int k = 0; k < f[i].norigins; k++) {
			if (seen_before(f, i, k, kernel))
				continue;
			if (++n <= RLR_MAX_DISTINCT && len < size)
				len += (size_t)snprintf(dst + len, size - len, "%s%s", n > 1 ? ", " : "",
							origin_value(&f[i].origin[k], kernel));
		}
	if (n > RLR_MAX_DISTINCT)
		snprintf(dst, size, "%d %s", n, plural);
}

static void duration(char *dst, size_t size, int64_t s)
{
	if (s < 60)
		snprintf(dst, size, "%" PRId64 " s", s);
	else if (s < 3600)
		snprintf(dst, size, "%" PRId64 " min %02" PRId64 " s", s / 60, s % 60);
	else
		snprintf(dst, size, "%" PRId64 " h %02" PRId64 " min %02" PRId64 " s", s / 3600,
			 s / 60 % 60, s % 60);
}

/*
 * t as a gnuplot string whose lines fit the image: a line longer than
 * RLR_TITLE_COLUMNS breaks at its last space that keeps it within them (or,
 * with none, at the limit, not inside a UTF-8 character).
 */
static void wrapped(FILE *script, const char *t)
{
	char out[2048];
	size_t o = 0, col = 0, last_space = 0;
	bool has_space = false;

	for (; *t && o < sizeof(out) - 2; t++) {
		if (*t == '\n') {
			out[o++] = '\n';
			col = 0;
			has_space = false;
			continue;
		}
		/* Columns are characters: a UTF-8 continuation byte adds none. */
		if (col >= RLR_TITLE_COLUMNS && ((unsigned char)*t & 0xc0) != 0x80) {
			if (has_space) { /* the words after the space go on */
				out[last_space] = '\n';
				col = o - last_space - 1;
			} else {
				out[o++] = '\n';
				col = 0;
			}
			has_space = false;
		}
		if (*t == ' ') {
			last_space = o;
			has_space = true;
		}
		out[o++] = *t;
		col += ((unsigned char)*t & 0xc0) != 0x80;
	}
	out[o] = '\0';
	rlr_gnuplot_string(script, out);
}

static void title(FILE *script, struct rlr_plotfile *f, int nfiles)
{
	char hosts[256], kernels[256], line2[512], d[48];
	size_t len = 0;
	int norigins = 0;

	for (int i = 0; i < nfiles; i++)
		norigins += f[i].norigins;
	distinct(hosts, sizeof(hosts), f, nfiles, false, "hosts");
	distinct(kernels, sizeof(kernels), f, nfiles, true, "kernels");
	if (nfiles == 1) {
		len = (size_t)snprintf(line2, sizeof(line2), "%s",
				       f->cmdline[0] ? f->cmdline : base_name(f->path));
		if (f->has_duration) {
			duration(d, sizeof(d), f->duration_s);
			len += (size_t)snprintf(line2 + len, sizeof(line2) - len, ", %s", d);
			if (f->warmup_s) {
				duration(d, sizeof(d), f->warmup_s);
				len += (size_t)snprintf(line2 + len, sizeof(line2) - len,
							" (after %s of warm-up)", d);
			}
		}
		if (f->merged)
			len += (size_t)snprintf(line2 + len, sizeof(line2) - len, ", merge of %d runs",
						f->norigins);
		/* A run stopped early or killed is never drawn as a complete one. */
		if (f->partial && len < sizeof(line2))
			snprintf(line2 + len, sizeof(line2) - len, ", PARTIAL (stopped early)");
	} else {
		len = (size_t)snprintf(line2, sizeof(line2), "%d results:", nfiles);
		for (int i = 0; i < nfiles && len < sizeof(line2); i++)
			len += (size_t)snprintf(line2 + len, sizeof(line2) - len, " %s%s",
						base_name(f[i].path), f[i].partial ? " (PARTIAL)" : "");
	}
	fputs("set title ", script);
	if (!norigins) {
		char t[1024];

		snprintf(t, sizeof(t), "Latency histogram\n%s", line2);
		wrapped(script, t);
	} else {
		char t[1280];
		bool one_machine = nfiles == 1 && !f->merged;

		snprintf(t, sizeof(t), "Latency of %s, kernel%s %s%s%s\n%s", hosts,
			 strchr(kernels, ',') || strstr(kernels, " kernels") ? "s" : "", kernels,
			 one_machine && f->preemption[0] ? ", " : "",
			 one_machine ? f->preemption : "", line2);
		wrapped(script, t);
	}
	fputc('\n', script);
}

/* x of value v on the axis. */
static double xpos(const struct rlr_axis *a, int64_t v)
{
	return rlr_axis_pos(a, (double)v) * RLR_X_SCALE;
}

/* The step outline of a curve: each bin's top, dropping to the floor in gaps. */
static void outline(FILE *script, const struct rlr_curve *c, const char *name,
		    const struct rlr_axis *a)
{
	int64_t end = -1;

	fprintf(script, "%s << EOD\n", name);
	for (size_t b = 0; b < c->nbins; b++) {
		const struct rlr_bin *x = &c->bin[b];

		if (x->low != end) {
			if (end >= 0)
				fprintf(script, "%.3f " RLR_FLOOR "\n", xpos(a, end));
			fprintf(script, "%.3f " RLR_FLOOR "\n", xpos(a, x->low));
		}
		fprintf(script, "%.3f %" PRIu64 "\n%.3f %" PRIu64 "\n", xpos(a, x->low), x->count,
			xpos(a, x->high), x->count);
		end = x->high;
	}
	fprintf(script, "%.3f " RLR_FLOOR "\nEOD\n", xpos(a, end));
}

/* The max's dot: on the bin that holds it, or at 1 beyond the histogram. */
static void max_point(FILE *script, const struct rlr_curve *c, const char *name,
		      const struct rlr_axis *a)
{
	uint64_t at = 1;

	for (size_t b = 0; b < c->nbins; b++)
		if (c->bin[b].low <= c->max && c->max < c->bin[b].high)
			at = c->bin[b].count;
	fprintf(script, "%s << EOD\n%.3f %" PRIu64 "\nEOD\n", name, xpos(a, c->max), at);
}

/* The axis all curves need (axis.h), its ticks, and the mark of its break. */
static void x_axis(FILE *s, struct rlr_plotfile *f, int nfiles, struct rlr_axis *a)
{
	struct rlr_tick t[RLR_AXIS_MAX_TICKS];
	struct rlr_axis_fit fit;
	int n;

	rlr_axis_fit_init(&fit);
	for (int i = 0; i < nfiles; i++)
		for (int k = 0; k < f[i].ncurves; k++)
			rlr_axis_fit_add(&fit, &f[i].curve[k]);
	rlr_axis_fit_done(&fit, a, f->ns);
	n = rlr_axis_ticks(a, RLR_PLOT_PX, RLR_CHAR_PX, t, RLR_AXIS_MAX_TICKS);
	fprintf(s, "set xrange [0:%.0f]\nset xtics (", RLR_X_SCALE);
	for (int k = 0; k < n; k++)
		fprintf(s, "%s\"%s\" %.3f", k ? ", " : "", t[k].label, t[k].pos * RLR_X_SCALE);
	fputs(")\n", s);
	if (a->broken) {
		char body[24];

		rlr_axis_label(body, sizeof(body), a->body, a->ns);
		fprintf(s, "set arrow from %.3f, graph 0 to %.3f, graph 1 nohead dt 2 lc rgb 'gray40'\n"
			"set label \"linear to %s, log beyond\" at %.3f, graph 1.015 right font \",9\"\n",
			RLR_AXIS_BODY_SHARE * RLR_X_SCALE, RLR_AXIS_BODY_SHARE * RLR_X_SCALE, body,
			RLR_AXIS_BODY_SHARE * RLR_X_SCALE);
	}
}

static void key(char *dst, size_t size, const struct rlr_plotfile *f, int nfiles,
		const struct rlr_curve *c)
{
	const char *unit = f->ns ? "ns" : "us";
	size_t len = 0;

	if (nfiles > 1)
		len = (size_t)snprintf(dst, size, "%s: ", base_name(f->path));
	len += (size_t)snprintf(dst + len, size - len, "thread %d", c->thread);
	if (c->cpu >= 0)
		len += (size_t)snprintf(dst + len, size - len, ", CPU %d", c->cpu);
	if (c->has_max)
		len += (size_t)snprintf(dst + len, size - len, ": max %" PRId64 " %s", c->max, unit);
	else
		len += (size_t)snprintf(dst + len, size - len, ": no samples");
	if (c->overflow && len < size)
		snprintf(dst + len, size - len, ", %" PRIu64 " beyond the histogram", c->overflow);
}

/* The largest count drawn (a bin, or a max's dot at 1). */
static uint64_t top_count(const struct rlr_plotfile *f, int nfiles)
{
	uint64_t top = 1;

	for (int i = 0; i < nfiles; i++)
		for (int k = 0; k < f[i].ncurves; k++)
			for (size_t b = 0; b < f[i].curve[k].nbins; b++)
				if (f[i].curve[k].bin[b].count > top)
					top = f[i].curve[k].bin[b].count;
	return top;
}

static void script(FILE *s, struct rlr_plotfile *f, int nfiles, bool svg)
{
	struct rlr_axis axis;
	int color = 0, ncurves = 0;
	bool first = true;

	for (int i = 0; i < nfiles; i++)
		ncurves += f[i].ncurves;
	if (svg)
		fputs("set terminal svg size 1200,800 noenhanced background rgb 'white'\n", s);
	else
		fputs("if (strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0) {\n"
		      "  set terminal pngcairo size 1200,800 noenhanced\n"
		      "} else {\n"
		      "  set terminal png size 1200,800 noenhanced\n"
		      "}\n", s);
	title(s, f, nfiles);
	fputs("set xlabel \"Latency\"\nset rmargin 6\n", s);
	x_axis(s, f, nfiles, &axis);
	/*
	 * Autoscaled, the y axis of counts all below 10 (every sample beyond a
	 * 2.4 histogram: only the max's dot at 1) spans less than a decade and
	 * gets no tick labels: it spans at least 1..10.
	 */
	fprintf(s, "set ylabel \"Number of samples\"\nset logscale y\nset yrange [0.8:%s]\n",
		top_count(f, nfiles) < 10 ? "10" : "*");
	fputs("set clip one\nunset clip two\nset grid\nset style data lines\n", s);
	/* Many threads: a key beside the plot, in small type, keeps the curves clear. */
	fputs(ncurves > RLR_KEY_INSIDE_MAX ? "set key outside right top font \",8\"\n"
					   : "set key inside right top\n", s);
	for (int i = 0; i < nfiles; i++)
		for (int k = 0; k < f[i].ncurves; k++) {
			char name[48];

			snprintf(name, sizeof(name), "$c%d_%d", i, k);
			outline(s, &f[i].curve[k], name, &axis);
			snprintf(name, sizeof(name), "$m%d_%d", i, k);
			max_point(s, &f[i].curve[k], name, &axis);
		}
	fputs("plot ", s);
	for (int i = 0; i < nfiles; i++)
		for (int k = 0; k < f[i].ncurves; k++) {
			const struct rlr_curve *c = &f[i].curve[k];
			char label[256];

			if (!c->has_max)
				continue; /* no samples: nothing to draw */
			key(label, sizeof(label), &f[i], nfiles, c);
			color++;
			if (c->nbins) {
				fprintf(s, "%s$c%d_%d with lines lw 1.5 lc %d title ", first ? "" : ", \\\n  ",
					i, k, color);
				rlr_gnuplot_string(s, label);
				fprintf(s, ", \\\n  $m%d_%d with points pt 7 ps 1.5 lc %d notitle", i, k,
					color);
			} else {
				fprintf(s, "%s$m%d_%d with points pt 7 ps 1.5 lc %d title ",
					first ? "" : ", \\\n  ", i, k, color);
				rlr_gnuplot_string(s, label);
			}
			first = false;
		}
	fputc('\n', s);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcasecmp(s + n - m, suffix) == 0;
}

static int draw(struct rlr_plotfile *f, int nfiles, const char *path, bool svg)
{
	struct rt_output o;
	struct rlr_gnuplot g;
	struct stat st;
	int err;

	if ((err = rt_output_open(&o, path))) {
		rt_prog_error_errno(-err, "cannot write '%s'", path);
		return RT_EXIT_FAILURE;
	}
	/* gnuplot writes into our temporary file; we fsync and rename it. */
	fflush(o.f);
	if (rlr_gnuplot_start(&g, fileno(o.f))) {
		rt_output_abort(&o);
		return RT_EXIT_FAILURE;
	}
	script(g.script, f, nfiles, svg);
	if (rlr_gnuplot_finish(&g)) {
		rt_output_abort(&o);
		return RT_EXIT_FAILURE;
	}
	if (fstat(fileno(o.f), &st) < 0 || st.st_size == 0) {
		rt_prog_error("gnuplot wrote no image");
		rt_output_abort(&o);
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_output_commit(&o))) {
		rt_prog_error_errno(-err, "cannot write '%s'", path);
		rt_output_abort(&o);
		return RT_EXIT_FAILURE;
	}
	return RT_EXIT_OK;
}

int rlr_plot(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "ns", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct rlr_plotfile *f;
	const char *path = NULL;
	bool text_ns = false, svg, any = false;
	int c, n, loaded = 0, rc = RT_EXIT_OK;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (c == 'o')
			path = optarg;
		else if (c == 'n')
			text_ns = true;
		else
			return rt_cli_bad_option(argc, argv, c);
	}
	n = argc - optind;
	if (!path)
		return rt_prog_usage_error("plot needs -o OUT.png or -o OUT.svg");
	svg = ends_with(path, ".svg");
	if (!svg && !ends_with(path, ".png"))
		return rt_prog_usage_error("-o: '%s' must end in .png or .svg", path);
	if (n < 1)
		return rt_prog_usage_error("plot needs at least one file: a JSON result or a "
					   "histogram text");
	f = calloc((size_t)n, sizeof(*f));
	if (!f)
		return RT_EXIT_FAILURE;
	for (; loaded < n && rc == RT_EXIT_OK; loaded++) {
		int err = rlr_plotfile_load(&f[loaded], argv[optind + loaded], text_ns);

		if (err)
			rc = err == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
		else if (f[loaded].ns != f[0].ns)
			rc = rt_prog_usage_error("'%s' (%s) and '%s' (%s) are not in the same unit",
						 f[0].path, f[0].ns ? "ns" : "us", f[loaded].path,
						 f[loaded].ns ? "ns" : "us");
		for (int k = 0; rc == RT_EXIT_OK && k < f[loaded].ncurves; k++)
			any |= f[loaded].curve[k].has_max;
	}
	if (rc == RT_EXIT_OK && !any) {
		rt_prog_error("nothing to plot: no samples in %s", n > 1 ? "any file" : f[0].path);
		rc = RT_EXIT_FAILURE;
	}
	if (rc == RT_EXIT_OK) {
		/* A gnuplot that dies early must be an error of ours, not our death. */
		signal(SIGPIPE, SIG_IGN);
		rc = draw(f, n, path, svg);
	}
	for (int i = 0; i < loaded; i++)
		rlr_plotfile_free(&f[i]);
	free(f);
	return rc;
}
