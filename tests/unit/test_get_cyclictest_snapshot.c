// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * get_cyclictest_snapshot's pure parts: the option forms of rt-tests 2.4's
 * argparse (values after -s/-p up to the next option, one attached value,
 * abbreviations, the last -s wins), and the reader of a status object on
 * blocks as rt-tests 2.4's cyclictest wrote them (leading NULs), torn or
 * hostile ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "instance.h"
#include "options.h"
#include "reader.h"
#include "rt_prog.h"

static int parse(struct gcs_config *cfg, const char *words)
{
	char buf[512], *argv[32];
	int argc = 0, rc;

	snprintf(buf, sizeof(buf), "get_cyclictest_snapshot %s", words);
	for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	/* the usage error text goes to stderr: not checked here */
	rc = gcs_parse_args(cfg, argc, argv);
	return rc;
}

START_TEST(forms_as_argparse)
{
	struct gcs_config c;

	ck_assert_int_eq(parse(&c, "-l"), 0);
	ck_assert(c.list && !c.snapshot.given && !c.print.given && !c.no_options);
	gcs_config_free(&c);

	ck_assert_int_eq(parse(&c, "-s 12 34 -p"), 0);
	ck_assert(c.snapshot.given && c.snapshot.count == 2);
	ck_assert_int_eq(c.snapshot.pids[0], 12);
	ck_assert_int_eq(c.snapshot.pids[1], 34);
	ck_assert(c.print.given && c.print.count == 0);
	gcs_config_free(&c);

	/* one attached value ends the list; -ls1 is -l and -s 1 */
	ck_assert_int_eq(parse(&c, "-ls1"), 0);
	ck_assert(c.list && c.snapshot.count == 1 && c.snapshot.pids[0] == 1);
	gcs_config_free(&c);
	ck_assert_int_eq(parse(&c, "--snapshot=7 -p 8"), 0);
	ck_assert(c.snapshot.count == 1 && c.snapshot.pids[0] == 7);
	ck_assert(c.print.count == 1 && c.print.pids[0] == 8);
	gcs_config_free(&c);
	ck_assert_int_eq(parse(&c, "-s1 2"), RT_EXIT_USAGE);
	gcs_config_free(&c);

	/* abbreviations; given twice, the last list counts */
	ck_assert_int_eq(parse(&c, "--li --snap 5 --pr 6 7 -s 9"), 0);
	ck_assert(c.list && c.snapshot.count == 1 && c.snapshot.pids[0] == 9);
	ck_assert(c.print.count == 2 && c.print.pids[1] == 7);
	gcs_config_free(&c);

	ck_assert_int_eq(parse(&c, ""), 0);
	ck_assert(c.no_options);
	gcs_config_free(&c);
}
END_TEST

START_TEST(usage_errors)
{
	static const char *const bad[] = {
		"-x", "123", "-l 5", "-s abc", "-s -5", "-s 0", "-p 4194305", "--", "-s -- 5",
		"--snapshot=", "--help=x", "-s 1x", "--s=",
	};
	struct gcs_config c;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(&c, bad[i]) == RT_EXIT_USAGE, "accepted: %s", bad[i]);
		gcs_config_free(&c);
	}
	ck_assert_int_eq(parse(&c, "-p 4194304"), 0);
	gcs_config_free(&c);
}
END_TEST

/* rt-tests 2.4's object after its third snapshot: 498 NULs, then the block. */
static const char block24[] =
	"#---------------------------\n"
	"# cyclictest current status:\n"
	"T: 0 (20964) P:10 I:10000 C:    355 Min:     54 Act:  114 Avg:  176 Max:    1480\n"
	"T: 1 (20965) P:10 I:10500 C:    338 Min:     54 Act:  117 Avg:  161 Max:    1084\n"
	"#---------------------------\n";

static int object_fd(const char *bytes, size_t len)
{
	FILE *f = tmpfile();
	int fd;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
	fflush(f);
	fd = dup(fileno(f));
	fclose(f);
	return fd;
}

START_TEST(reads_24_layout)
{
	size_t blen = sizeof(block24) - 1, n = 498 + blen, len;
	char *obj = calloc(1, n), *text;
	int fd;

	memcpy(obj + 498, block24, blen);
	fd = object_fd(obj, n);
	ck_assert_int_eq(gcs_read_object(fd, &text, &len), 0);
	ck_assert_uint_eq(len, blen);
	ck_assert_str_eq(text, block24);
	ck_assert(gcs_block_complete(text, len));
	free(text);
	close(fd);

	/* before any snapshot: 30 NULs, nothing to print */
	fd = object_fd(obj, 30);
	ck_assert_int_eq(gcs_read_object(fd, &text, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert(!gcs_block_complete(text, len));
	free(text);
	close(fd);
	free(obj);
}
END_TEST

START_TEST(complete_blocks)
{
	size_t blen = sizeof(block24) - 1;
	char buf[512];

	ck_assert(gcs_block_complete(block24, blen));
	/* torn: every proper prefix is incomplete */
	for (size_t i = 0; i < blen; i++)
		ck_assert_msg(!gcs_block_complete(block24, i), "prefix %zu taken as whole", i);
	/* the opening separator alone, or a title missing */
	ck_assert(!gcs_block_complete(GCS_SEPARATOR, strlen(GCS_SEPARATOR)));
	snprintf(buf, sizeof(buf), "%s%s", GCS_SEPARATOR, GCS_SEPARATOR);
	ck_assert(!gcs_block_complete(buf, strlen(buf)));
	/* no status line: still a block (a run of no thread does not exist, but it is whole) */
	snprintf(buf, sizeof(buf), "%s%s%s", GCS_SEPARATOR, GCS_TITLE, GCS_SEPARATOR);
	ck_assert(gcs_block_complete(buf, strlen(buf)));
}
END_TEST

START_TEST(hostile_bytes)
{
	static const char esc[] = "#---------------------------\n\033[2J\n";
	char nuls[] = { 'a', 0, 'b', 0, 0, 'c' };
	char *text;
	size_t len;
	int fd;

	ck_assert_uint_eq(gcs_strip_nuls(nuls, sizeof(nuls)), 3);
	ck_assert(memcmp(nuls, "abc", 3) == 0);
	ck_assert_int_eq(gcs_check_text("T: 0\tx\n", 7), 0);
	ck_assert_int_eq(gcs_check_text(esc, strlen(esc)), -EILSEQ);
	ck_assert_int_eq(gcs_check_text("\xc3\xa9", 2), -EILSEQ);
	fd = object_fd(esc, strlen(esc));
	ck_assert_int_eq(gcs_read_object(fd, &text, &len), -EILSEQ);
	close(fd);
}
END_TEST

/* /proc/PID/status of 2.4's cyclictest (SigCgt has SIGUSR2), of ours in sigtimedwait (0), of sleep. */
START_TEST(takes_usr2)
{
	static const char ct24[] = "\nName:\tcyclictest\nSigQ:\t6/96362\nSigPnd:\t0000000000000000\n"
				   "SigBlk:\t0000000000002000\nSigIgn:\t0000000000000004\n"
				   "SigCgt:\t0000000100004a02\nCapInh:\t0\n";
	static const char waiting[] = "\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000001006\n"
				      "SigCgt:\t0000001100000000\n";
	static const char blocked[] = "\nSigBlk:\t0000000000000800\nSigCgt:\t0000000000000000\n";
	static const char ignored[] = "\nSigBlk:\t0\nSigIgn:\t0000000000000800\nSigCgt:\t0\n";

	ck_assert_int_eq(gcs_takes_usr2_status(ct24), 1);
	ck_assert_int_eq(gcs_takes_usr2_status(waiting), 0);
	ck_assert_int_eq(gcs_takes_usr2_status(blocked), 1);
	ck_assert_int_eq(gcs_takes_usr2_status(ignored), 0);
	ck_assert_int_eq(gcs_takes_usr2_status("\nSigBlk:\tzz\nSigCgt:\t0\n"), -EINVAL);
	ck_assert_int_eq(gcs_takes_usr2_status("\nName:\tx\n"), -EINVAL);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("get_cyclictest_snapshot");
	TCase *opt = tcase_create("options");
	TCase *rd = tcase_create("reader");

	rt_prog_init("get_cyclictest_snapshot");
	tcase_add_test(opt, forms_as_argparse);
	tcase_add_test(opt, usage_errors);
	tcase_add_test(rd, reads_24_layout);
	tcase_add_test(rd, complete_blocks);
	tcase_add_test(rd, hostile_bytes);
	tcase_add_test(rd, takes_usr2);
	suite_add_tcase(s, opt);
	suite_add_tcase(s, rd);
	return s;
}
