// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_time.h"

#include "progress.h"

#define MAX_METRIC "rt_latency_max_seconds"

/* The largest rt_latency_max_seconds sample of the exposition text in buf. */
static int64_t worst_of(char *buf)
{
	int64_t worst = -1;

	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		const char *sp;
		double s;

		if (strncmp(line, MAX_METRIC, strlen(MAX_METRIC)) != 0 ||
		    (line[strlen(MAX_METRIC)] != '{' && line[strlen(MAX_METRIC)] != ' ') ||
		    !(sp = strrchr(line, ' ')))
			continue;
		s = strtod(sp + 1, NULL);
		if (isfinite(s) && s >= 0 && s < 1e6 && (int64_t)(s * 1e6 + 0.5) > worst)
			worst = (int64_t)(s * 1e6 + 0.5);
	}
	return worst;
}

int64_t rtq_progress_worst_us(int dirfd, const char *name)
{
	char buf[64 * 1024];
	ssize_t n = -1;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return worst_of(buf);
}

void rtq_progress_live(const struct rtq_plan *p, int i, int64_t elapsed_ns)
{
	const struct rtq_step *st = &p->step[i];
	int64_t el = elapsed_ns / RT_NSEC_PER_SEC, left = (int64_t)st->duration_s - el;
	char prom[160], worst[48] = "no latency yet";
	int64_t w;

	if (!p->tty)
		return;
	snprintf(prom, sizeof(prom), "%s.prom", st->file);
	if ((w = rtq_progress_worst_us(p->dirfd, prom)) >= 0)
		snprintf(worst, sizeof(worst), "worst so far %lld us", (long long)w);
	printf("\r\033[K[%d/%d] %s: %lld s elapsed, %lld s left, %s", i + 1, RTQ_NSTEPS, st->name,
	       (long long)el, (long long)(left > 0 ? left : 0), worst);
	fflush(stdout);
}

void rtq_progress_step(const struct rtq_plan *p, int i)
{
	const struct rtq_step *st = &p->step[i];
	char upper[16];
	size_t k;

	if (p->tty)
		fputs("\r\033[K", stdout);
	printf("[%d/%d] %s: %s, %llu s", i + 1, RTQ_NSTEPS, st->name, st->tool,
	       (unsigned long long)st->duration_s);
	if (st->under_load && p->cfg->load != RTQ_LOAD_NONE)
		printf(", under %s load", rtq_load_name(p->cfg->load));
	else if (st->under_load)
		fputs(", no load", stdout);
	if (!st->ran) {
		puts(": not run");
		return;
	}
	for (k = 0; st->result[k] && k < sizeof(upper) - 1; k++)
		upper[k] = (char)(st->result[k] >= 'a' && st->result[k] <= 'z' ? st->result[k] - 32
									       : st->result[k]);
	upper[k] = '\0';
	if (st->stopped)
		printf(": stopped after %.1f s", st->elapsed_s);
	printf(": %s", upper);
	if (st->max_us >= 0)
		printf(", max %lld us", (long long)st->max_us);
	printf(", %llu samples", (unsigned long long)st->samples);
	if (!strcmp(st->result, "error"))
		printf(" (exit %d, see %s.log)", st->exit_code, st->file);
	putchar('\n');
	if (st->note[0])
		printf("      note: %s\n", st->note);
	fflush(stdout);
}
