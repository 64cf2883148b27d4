// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#include "rt_output.h"
#include "rt_prog.h"

static char dir[] = "/tmp/rt_output_test.XXXXXX";

static void make_dir(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/rt_output_test.XXXXXX");
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static char *path_in_dir(const char *name)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void read_file(const char *p, char *buf, size_t len)
{
	FILE *f = fopen(p, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

START_TEST(target_appears_only_on_commit)
{
	struct rt_output o;
	char got[64];
	struct stat st;

	ck_assert_int_eq(rt_output_open(&o, path_in_dir("out.json")), 0);
	fputs("{}\n", o.f);
	ck_assert_int_ne(access(path_in_dir("out.json"), F_OK), 0);
	ck_assert_int_eq(rt_output_commit(&o), 0);
	read_file(path_in_dir("out.json"), got, sizeof(got));
	ck_assert_str_eq(got, "{}\n");
	ck_assert_int_eq(entries(), 1); /* no temporary left */
	ck_assert_int_eq(stat(path_in_dir("out.json"), &st), 0);
	ck_assert_int_ne(st.st_mode & 0044, 0); /* not mkstemp's 0600 */
}
END_TEST

/* The process's umask as /proc says it, without changing it. */
static int proc_umask(void)
{
	char line[128];
	unsigned mask = 0777;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &mask) == 1)
			break;
	fclose(f);
	return (int)mask;
}

static atomic_bool watching;
static atomic_int umask_seen_zero;

static void *watch_umask(void *arg)
{
	(void)arg;
	while (atomic_load(&watching))
		if (proc_umask() == 0)
			atomic_fetch_add(&umask_seen_zero, 1);
	return NULL;
}

/*
 * Issue 29: the open set umask(0) and put it back: another thread creating
 * a file meanwhile got the 0666 bits. The mode is the kernel's umask of a
 * plain open, and the process's umask never changes.
 */
START_TEST(open_never_touches_the_process_umask)
{
	mode_t old = umask(027);
	struct rt_output o;
	struct stat st;
	pthread_t watcher;

	if (proc_umask() != 027) {
		umask(old);
		return; /* no Umask line in /proc (before Linux 4.7): nothing to watch */
	}
	atomic_store(&watching, true);
	ck_assert_int_eq(pthread_create(&watcher, NULL, watch_umask, NULL), 0);
	for (int i = 0; i < 2000; i++) {
		ck_assert_int_eq(rt_output_open(&o, path_in_dir("m.json")), 0);
		rt_output_abort(&o);
	}
	atomic_store(&watching, false);
	pthread_join(watcher, NULL);
	ck_assert_int_eq(atomic_load(&umask_seen_zero), 0);
	ck_assert_int_eq(rt_output_open(&o, path_in_dir("m.json")), 0);
	ck_assert_int_eq(rt_output_commit(&o), 0);
	ck_assert_int_eq(stat(path_in_dir("m.json"), &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
	ck_assert_int_eq(entries(), 1);
	umask(old);
}
END_TEST

START_TEST(abort_leaves_nothing_and_keeps_old_file)
{
	struct rt_output o;
	FILE *f = fopen(path_in_dir("keep"), "w");
	char got[64];

	fputs("old\n", f);
	fclose(f);
	ck_assert_int_eq(rt_output_open(&o, path_in_dir("keep")), 0);
	fputs("half a fi", o.f);
	rt_output_abort(&o);
	rt_output_abort(&o); /* twice is harmless */
	read_file(path_in_dir("keep"), got, sizeof(got));
	ck_assert_str_eq(got, "old\n");
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(symlink_at_target_is_replaced_not_followed)
{
	struct rt_output o;
	char victim[256], got[64];
	struct stat st;

	FILE *f = fopen(path_in_dir("victim"), "w");
	fputs("precious\n", f);
	fclose(f);
	snprintf(victim, sizeof(victim), "%s", path_in_dir("victim"));
	ck_assert_int_eq(symlink(victim, path_in_dir("link")), 0);
	ck_assert_int_eq(rt_output_open(&o, path_in_dir("link")), 0);
	fputs("new\n", o.f);
	ck_assert_int_eq(rt_output_commit(&o), 0);
	read_file(victim, got, sizeof(got));
	ck_assert_str_eq(got, "precious\n");
	ck_assert_int_eq(lstat(path_in_dir("link"), &st), 0);
	ck_assert(S_ISREG(st.st_mode));
}
END_TEST

START_TEST(missing_directory_fails_at_open)
{
	struct rt_output o;

	ck_assert_int_eq(rt_output_open(&o, path_in_dir("nodir/x.json")), -ENOENT);
	ck_assert_ptr_null(o.f);
	ck_assert_int_eq(rt_output_open(&o, ""), -EINVAL);
	ck_assert_int_eq(rt_output_open(&o, "/tmp/"), -EISDIR);
}
END_TEST

START_TEST(read_only_directory_fails_at_open)
{
	struct rt_output o;
	pid_t pid;
	int status;

	ck_assert_int_eq(chmod(dir, 0555), 0);
	/* Root ignores directory modes: try as nobody in a child process. */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(3);
		_exit(rt_output_open(&o, path_in_dir("x.json")) == -EACCES && !o.f ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_eq(entries(), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
}
END_TEST

START_TEST(stdout_dash_needs_no_file)
{
	struct rt_output o;

	ck_assert_int_eq(rt_output_open(&o, "-"), 0);
	ck_assert(o.is_stdout);
	ck_assert_ptr_eq(o.f, stdout);
	ck_assert_int_eq(rt_output_commit(&o), 0);
	ck_assert_int_eq(entries(), 0);
}
END_TEST

START_TEST(write_error_is_reported_and_cleaned)
{
	struct rt_output o;

	ck_assert_int_eq(rt_output_open(&o, path_in_dir("full")), 0);
	fclose(o.f); /* a stream that can no longer be written */
	o.f = fopen("/dev/full", "w");
	if (!o.f) {
		rt_output_abort(&o);
		return;
	}
	fputs("x", o.f);
	ck_assert_int_ne(rt_output_commit(&o), 0);
	ck_assert_int_ne(access(path_in_dir("full"), F_OK), 0);
	ck_assert_int_eq(entries(), 0);
}
END_TEST

/* stdout becomes a pipe whose reader has gone (check forks each test). */
static void stdout_to_gone_reader(void)
{
	int fds[2];

	signal(SIGPIPE, SIG_IGN);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(dup2(fds[1], STDOUT_FILENO), STDOUT_FILENO);
	close(fds[1]);
	close(fds[0]);
	setvbuf(stdout, NULL, _IOFBF, 4096);
}

START_TEST(stdout_failure_is_kept_and_later_writes_go_nowhere)
{
	stdout_to_gone_reader();
	ck_assert_int_eq(rt_output_stdout_check(false), 0); /* nothing written yet */
	ck_assert_int_eq(rt_output_stdout_error(), 0);
	for (int i = 0; i < 1000; i++)
		printf("live line %d\n", i);
	ck_assert_int_eq(rt_output_stdout_check(false), -EPIPE);
	ck_assert_int_eq(rt_output_stdout_error(), -EPIPE);
	/* Later writes succeed (to /dev/null); the first error stays. */
	for (int i = 0; i < 1000; i++)
		printf("summary line %d\n", i);
	ck_assert_int_eq(fflush(stdout), 0);
	ck_assert(!ferror(stdout));
	ck_assert_int_eq(rt_output_stdout_check(true), -EPIPE);
	ck_assert_int_eq(rt_prog_close_stdout(), -EPIPE);
}
END_TEST

START_TEST(stdout_failure_found_by_the_flush)
{
	stdout_to_gone_reader();
	printf("one line, still buffered\n");
	ck_assert_int_eq(rt_output_stdout_check(false), 0);
	ck_assert_int_eq(rt_output_stdout_check(true), -EPIPE);
	ck_assert_int_eq(rt_prog_close_stdout(), -EPIPE);
}
END_TEST

START_TEST(stdout_that_works_has_no_error)
{
	ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout));
	printf("fine\n");
	ck_assert_int_eq(rt_output_stdout_check(true), 0);
	ck_assert_int_eq(rt_prog_close_stdout(), 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_output");
	TCase *tc = tcase_create("atomic_files");

	tcase_add_checked_fixture(tc, make_dir, remove_dir);
	tcase_add_test(tc, target_appears_only_on_commit);
	tcase_add_test(tc, open_never_touches_the_process_umask);
	tcase_add_test(tc, abort_leaves_nothing_and_keeps_old_file);
	tcase_add_test(tc, symlink_at_target_is_replaced_not_followed);
	tcase_add_test(tc, missing_directory_fails_at_open);
	tcase_add_test(tc, read_only_directory_fails_at_open);
	tcase_add_test(tc, stdout_dash_needs_no_file);
	tcase_add_test(tc, write_error_is_reported_and_cleaned);
	suite_add_tcase(s, tc);
	tc = tcase_create("live_stdout");
	tcase_add_test(tc, stdout_failure_is_kept_and_later_writes_go_nowhere);
	tcase_add_test(tc, stdout_failure_found_by_the_flush);
	tcase_add_test(tc, stdout_that_works_has_no_error);
	suite_add_tcase(s, tc);
	return s;
}
