// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_prog.h"

#include "gnuplot.h"
#include "input.h"

extern char **environ;

int rlr_gnuplot_start(struct rlr_gnuplot *g, int out_fd)
{
	static char name[] = "gnuplot";
	char *const argv[] = { name, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t dfl;
	int pipefd[2], err;

	g->pid = -1;
	g->script = NULL;
	g->messages = tmpfile();
	if (!g->messages) {
		rt_prog_error_errno(errno, "cannot run gnuplot");
		return 1;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		rt_prog_error_errno(errno, "cannot run gnuplot");
		fclose(g->messages);
		return 1;
	}
	/* We ignore SIGPIPE (a dying gnuplot is an error we report); it must not. */
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fileno(g->messages), STDERR_FILENO);
	err = posix_spawnp(&g->pid, "gnuplot", &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(pipefd[0]);
	if (err) {
		rt_prog_error("cannot run gnuplot: %s (it draws the plots: apt-get install "
			      "gnuplot-nox, or dnf install gnuplot)", strerror(err));
		close(pipefd[1]);
		fclose(g->messages);
		g->pid = -1;
		return 1;
	}
	g->script = fdopen(pipefd[1], "w");
	if (!g->script) {
		close(pipefd[1]);
		rlr_gnuplot_finish(g);
		rt_prog_error_errno(ENOMEM, "cannot run gnuplot");
		return 1;
	}
	return 0;
}

/* The last non-empty line gnuplot wrote: its error, after the context. */
static void last_message(FILE *f, char *buf, size_t size)
{
	char *line = NULL;
	size_t lsize = 0;
	ssize_t n;

	buf[0] = '\0';
	rewind(f);
	while ((n = getline(&line, &lsize, f)) > 0) {
		char *s = line + strspn(line, " \t");

		s[strcspn(s, "\r\n")] = '\0';
		if (*s)
			snprintf(buf, size, "%s", s);
	}
	free(line);
}

int rlr_gnuplot_finish(struct rlr_gnuplot *g)
{
	int status = 0, wrote = 0;
	char why[256];

	if (g->script)
		wrote = (fflush(g->script) != 0 || ferror(g->script)) ? -1 : 0;
	if (g->script && fclose(g->script) != 0)
		wrote = -1;
	g->script = NULL;
	while (g->pid > 0 && waitpid(g->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (g->pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && wrote == 0) {
		fclose(g->messages);
		return 0;
	}
	last_message(g->messages, why, sizeof(why));
	fclose(g->messages);
	if (g->pid > 0 && WIFSIGNALED(status))
		rt_prog_error("gnuplot was killed by signal %d%s%s", WTERMSIG(status),
			      *why ? ": " : "", why);
	else if (g->pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		rt_prog_error("gnuplot ended before it read the whole plot script%s%s",
			      *why ? ": " : "", why);
	else
		rt_prog_error("gnuplot failed%s%s", *why ? ": " : "", why);
	return 1;
}

void rlr_gnuplot_string(FILE *script, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool open = false, any = false;

	/*
	 * Runs of text as single-quoted strings, which gnuplot never expands
	 * (no backquotes, no @macros, no backslash escapes) and which nothing
	 * but a quote ends; there is never one inside (gnuplot's doubled ''
	 * fails on runs of quotes): a quote is our constant "'", a line break
	 * our "\n", joined by gnuplot's '.' operator. No byte of s is ever
	 * outside single quotes.
	 */
	while (*p) {
		size_t n = rlr_utf8_len(p);

		if (*p == '\n' || *p == '\'') {
			fprintf(script, "%s%s", open ? "'." : any ? "." : "",
				*p == '\n' ? "\"\\n\"" : "\"'\"");
			open = false;
			any = true;
			p++;
			continue;
		}
		if (!open)
			fputs(any ? ".'" : "'", script);
		open = any = true;
		if (!n)
			fputc('?', script); /* not UTF-8: the image could not show it */
		else if (*p < 0x20 || *p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0))
			fputc(' ', script); /* C0, DEL and C1 controls */
		else
			fwrite(p, 1, n, script);
		p += n ? n : 1;
	}
	fputs(open ? "'" : any ? "" : "''", script);
}
