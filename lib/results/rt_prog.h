/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Program identity, exit codes and the one-line user-facing messages. */
#ifndef RT_PROG_H
#define RT_PROG_H

#include <stdio.h>

/* Exit codes are interface: documented in every man page under EXIT STATUS. */
#include "rt_exit.h"

#define RT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* Remember the program name (basename of argv0) for every message. */
void rt_prog_init(const char *argv0);
const char *rt_prog_name(void);

/*
 * "prog: <message>" then "Try 'prog --help' for more information." on
 * stderr. Returns RT_EXIT_USAGE so callers can write
 * "return rt_prog_usage_error(...)".
 */
int rt_prog_usage_error(const char *fmt, ...) RT_PRINTF(1, 2);

/* "prog: invalid --NAME 'ARG': must be MIN..MAX (UNIT)"; returns RT_EXIT_USAGE. */
int rt_prog_range_error(const char *optname, const char *arg, long long min,
			long long max, const char *unit);

/* "prog: <message>" on stderr. */
void rt_prog_error(const char *fmt, ...) RT_PRINTF(1, 2);

/* "prog: <message>: <strerror(errnum)>" on stderr; errnum is positive. */
void rt_prog_error_errno(int errnum, const char *fmt, ...) RT_PRINTF(2, 3);

/* "prog (rt-tests-ng) X.Y.Z" and the rt-tests interface level. */
void rt_prog_print_version(FILE *out);

/*
 * Flush and check stdout once at exit (a full disk or a closed pipe must
 * not pass silently): on failure, or when a write failed earlier in the run
 * (rt_output_stdout_check()), print "prog: writing standard output:
 * <strerror>" on stderr. Returns 0 or that error as a negative errno.
 */
int rt_prog_close_stdout(void);

/* A tool's last step: close stdout; a failed write turns success (rc 0) into failure. */
int rt_prog_exit_code(int rc);

#endif
