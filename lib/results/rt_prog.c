// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_output.h"
#include "rt_prog.h"

/* Set once by rt_prog_init() before any thread starts; read-only afterwards. */
static const char *prog_name = "rt-tests-ng";

void rt_prog_init(const char *argv0)
{
	const char *slash;

	if (!argv0 || !*argv0)
		return;
	slash = strrchr(argv0, '/');
	prog_name = slash ? slash + 1 : argv0;
}

const char *rt_prog_name(void)
{
	return prog_name;
}

static void vmessage(int errnum, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

int rt_prog_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(0, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog_name);
	return RT_EXIT_USAGE;
}

int rt_prog_range_error(const char *optname, const char *arg, long long min,
			long long max, const char *unit)
{
	if (unit && *unit)
		return rt_prog_usage_error("invalid --%s '%s': must be %lld..%lld (%s)",
					   optname, arg, min, max, unit);
	return rt_prog_usage_error("invalid --%s '%s': must be %lld..%lld", optname, arg,
				   min, max);
}

void rt_prog_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(0, fmt, ap);
	va_end(ap);
}

void rt_prog_error_errno(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(errnum, fmt, ap);
	va_end(ap);
}

void rt_prog_print_version(FILE *out)
{
	fprintf(out, "%s (%s) %s\n", prog_name, PACKAGE_NAME, PACKAGE_VERSION);
	fprintf(out, "rt-tests interface %s\n", RT_INTERFACE_VERSION);
}

int rt_prog_close_stdout(void)
{
	int err = rt_output_stdout_check(true);

	if (fclose(stdout) != 0 && !err && errno != EBADF)
		err = -errno;
	if (err)
		rt_prog_error_errno(-err, "writing standard output");
	return err;
}

int rt_prog_exit_code(int rc)
{
	if (rt_prog_close_stdout() && rc == RT_EXIT_OK)
		return RT_EXIT_FAILURE;
	return rc;
}
