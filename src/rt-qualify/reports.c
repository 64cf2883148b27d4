// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_prog.h"

#include "child.h"
#include "reports.h"
#include "run.h"
#include "steps.h"
#include "tools.h"

/* rt-latency-report makes a report of a day's run in seconds; a bound all the same. */
#define REPORT_GRACE_NS (120 * 1000000000LL)

/* Run rt-latency-report with a's words; its exit code, or -1 when it did not run. */
static int run_report(const struct rtq_plan *p, const struct rtq_argv *a, int log_fd)
{
	struct rtq_spawn s = { .path = a->v[0], .argv = a->v, .dirfd = p->dirfd,
			       .log_fd = log_fd };
	pid_t pid = rtq_child_spawn(p->reaper, &s);

	if (pid < 0)
		return -1;
	rt_reaper_stop_one(p->reaper, pid, 0, REPORT_GRACE_NS, NULL, NULL);
	return rtq_child_exit_code(p->reaper, pid);
}

/* "PATH COMMAND", the JSON files of the steps (only: that one) that wrote one, "-o OUT". */
static int report_argv(const struct rtq_plan *p, const char *path, const char *cmd,
		       const char *out, int only, struct rtq_argv *a)
{
	int files = 0;

	memset(a, 0, sizeof(*a));
	a->v[a->n++] = (char *)path;
	a->v[a->n++] = (char *)cmd;
	for (int i = 0; i < RTQ_NSTEPS; i++) {
		char name[160];

		snprintf(name, sizeof(name), "%s.json", p->step[i].file);
		if ((only >= 0 && i != only) || !p->step[i].verdict ||
		    faccessat(p->dirfd, name, R_OK, 0))
			continue;
		snprintf(a->store + a->used, sizeof(a->store) - a->used, "%s", name);
		a->v[a->n++] = a->store + a->used;
		a->used += strlen(name) + 1;
		files++;
	}
	a->v[a->n++] = (char *)"-o";
	a->v[a->n++] = (char *)out;
	a->v[a->n] = NULL;
	return files;
}

static bool has_html(const struct rtq_plan *p, const char *path, int log_fd)
{
	char *const argv[] = { (char *)path, (char *)"html", (char *)"--help", NULL };
	struct rtq_argv a = { .n = 3 };

	memcpy(a.v, argv, sizeof(argv));
	return run_report(p, &a, log_fd) == 0;
}

void rtq_reports_make(const struct rtq_plan *p, struct rtq_files *files)
{
	char path[PATH_MAX];
	struct rtq_argv a;
	int log_fd;

	memset(files, 0, sizeof(*files));
	if (rtq_tool_path(p->self_dir, "rt-latency-report", path, sizeof(path))) {
		snprintf(files->html_note, sizeof(files->html_note),
			 "rt-latency-report not found beside rt-qualify: no junit.xml, no report.html");
		return;
	}
	if ((log_fd = rtq_open_log(p, "rt-latency-report")) < 0)
		return;
	if (report_argv(p, path, "junit", "junit.xml", -1, &a) > 0)
		files->junit = run_report(p, &a, log_fd) == 0;
	if (!has_html(p, path, log_fd)) {
		snprintf(files->html_note, sizeof(files->html_note),
			 "this rt-latency-report has no html command yet: no report.html");
	} else {
		/* all steps in one page; else the main measurement alone */
		if (report_argv(p, path, "html", "report.html", -1, &a) > 0)
			files->html = run_report(p, &a, log_fd) == 0;
		if (!files->html &&
		    report_argv(p, path, "html", "report.html", RTQ_STEP_CYCLICTEST, &a) > 0)
			files->html = run_report(p, &a, log_fd) == 0;
		if (!files->html)
			snprintf(files->html_note, sizeof(files->html_note),
				 "rt-latency-report html failed: see rt-latency-report.log");
	}
	close(log_fd);
}
