// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Run the program's suite and print its results as TAP on stdout, for
 * automake's TAP driver. check writes TAP itself; a test that ended with
 * unit_skip() is a failure to check, and becomes "ok N - name # SKIP why".
 *
 * Cases tagged UNIT_TAG_RT need what make check does not have (root,
 * real-time scheduling): the program runs every other case, and run
 * under a name ending in ".rt" (a link make check-rt makes) only those.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

static void print_tap_line(const char *line)
{
	const char *skip = strstr(line, ": " UNIT_SKIP_PREFIX);

	if (strncmp(line, "not ok ", 7) == 0 && skip) {
		printf("ok %.*s # SKIP %s", (int)(skip - line - 7), line + 7,
		       skip + 2 + strlen(UNIT_SKIP_PREFIX));
		return;
	}
	fputs(line, stdout);
}

static bool named_for_check_rt(const char *argv0)
{
	size_t n = strlen(argv0);

	return n > 3 && strcmp(argv0 + n - 3, ".rt") == 0;
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/rt-tests-ng-unit.XXXXXX";
	SRunner *sr;
	char line[4096];
	FILE *tap;
	int fd = mkstemp(path);

	if (fd < 0) {
		perror("unit: mkstemp");
		return 99; /* a hard error to the harness */
	}
	close(fd);
	sr = srunner_create(unit_suite());
	srunner_set_tap(sr, path);
	if (argc > 0 && named_for_check_rt(argv[0]))
		srunner_run_tagged(sr, NULL, NULL, UNIT_TAG_RT, NULL, CK_SILENT);
	else
		srunner_run_tagged(sr, NULL, NULL, NULL, UNIT_TAG_RT, CK_SILENT);
	srunner_free(sr);
	tap = fopen(path, "r");
	unlink(path);
	if (!tap) {
		perror("unit: reading the TAP output");
		return 99;
	}
	while (fgets(line, sizeof(line), tap))
		print_tap_line(line);
	fclose(tap);
	/* Failures are in the TAP lines; the exit status says the run completed. */
	return 0;
}
