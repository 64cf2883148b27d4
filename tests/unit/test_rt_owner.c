// SPDX-License-Identifier: GPL-2.0-or-later
/* Names per pid namespace, the owner's lock and the proof that a run is gone. */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#include "rt_instance.h"
#include "rt_owner.h"

static const struct {
	const char *name, *stem;
	int ok;
	pid_t pid;
	uint64_t ino;
	const char *tail;
} names[] = {
	{ "cyclictest42", "cyclictest", 1, 42, RT_OWNER_INIT_PIDNS, "" },
	{ "ns4026532178-cyclictest1", "cyclictest", 1, 1, 4026532178u, "" },
	{ "pmqtest-7-3", "pmqtest-", 1, 7, RT_OWNER_INIT_PIDNS, "-3" },
	{ "ns5-pmqtest-7-3", "pmqtest-", 1, 7, 5, "-3" },
	{ "cyclictest", "cyclictest", 0, 0, 0, NULL },
	{ "cyclictest0", "cyclictest", 0, 0, 0, NULL },
	{ "cyclictest007", "cyclictest", 0, 0, 0, NULL },
	{ "cyclictest-1", "cyclictest", 0, 0, 0, NULL },
	{ "cyclictest+1", "cyclictest", 0, 0, 0, NULL },
	{ "cyclictest99999999999", "cyclictest", 0, 0, 0, NULL },
	{ "ns-cyclictest1", "cyclictest", 0, 0, 0, NULL },
	{ "ns12cyclictest1", "cyclictest", 0, 0, 0, NULL },
	{ "ns4026531836-cyclictest1", "cyclictest", 0, 0, 0, NULL }, /* the initial one: no prefix */
	{ "ns99999999999999999999-cyclictest1", "cyclictest", 0, 0, 0, NULL },
	{ "xcyclictest1", "cyclictest", 0, 0, 0, NULL },
};

START_TEST(names_parse_and_reject)
{
	struct rt_owner o;
	const char *tail = NULL;
	int rc = rt_owner_parse(names[_i].name, names[_i].stem, &o, &tail);

	if (!names[_i].ok) {
		ck_assert_msg(rc == -EINVAL, "%s accepted", names[_i].name);
		return;
	}
	ck_assert_msg(rc == 0, "%s refused", names[_i].name);
	ck_assert_int_eq(o.pid, names[_i].pid);
	ck_assert_uint_eq(o.pidns_ino, names[_i].ino);
	ck_assert_str_eq(tail, names[_i].tail);
}
END_TEST

START_TEST(prefix_only_outside_the_initial_namespace)
{
	struct rt_owner o = { .pid = 1, .pidns_ino = RT_OWNER_INIT_PIDNS }, self;
	char p[RT_OWNER_PREFIX_MAX];
	struct stat st;

	rt_owner_prefix(p, &o);
	ck_assert_str_eq(p, "");
	o.pidns_ino = UINT64_MAX;
	rt_owner_prefix(p, &o);
	ck_assert_str_eq(p, "ns18446744073709551615-");
	rt_owner_self(&self);
	ck_assert_int_eq(self.pid, getpid());
	if (stat("/proc/self/ns/pid", &st) == 0)
		ck_assert_uint_eq(self.pidns_ino, (uint64_t)st.st_ino);
}
END_TEST

static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	ck_assert_int_gt(pid, 0);
	waitpid(pid, NULL, 0);
	return pid;
}

START_TEST(gone_only_when_the_lock_is_free)
{
	char dir[] = "/tmp/test_rt_owner.XXXXXX", path[64];
	struct rt_owner self, other = { .pid = 1, .pidns_ino = 123 }, dead;
	int a, b;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/obj", dir);
	rt_owner_self(&self);
	dead = self;
	dead.pid = dead_pid();
	a = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	ck_assert_int_ge(a, 0);
	ck_assert_int_eq(rt_owner_hold(a, path), 0);
	b = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(b, 0);
	/* Held: alive, whatever the name says. */
	ck_assert(!rt_owner_gone(b, path, &other));
	ck_assert(!rt_owner_gone(b, path, &dead));
	close(a);
	/* Free: another namespace's is gone; ours needs a dead pid too. */
	self.pid = getppid();
	ck_assert(!rt_owner_gone(b, path, &self));
	ck_assert(rt_owner_gone(b, path, &dead));
	close(b);
	b = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert(rt_owner_gone(b, path, &other));
	/* The cleaner holds it now: a creator that comes late must wait. */
	a = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_int_eq(rt_owner_hold(a, path), -EBUSY);
	close(a);
	close(b);
	/* A name that now refers to another object is neither held nor removed. */
	a = open(path, O_RDWR | O_CLOEXEC);
	unlink(path);
	b = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	ck_assert_int_eq(rt_owner_hold(a, path), -EAGAIN);
	ck_assert(!rt_owner_gone(a, path, &other));
	close(a);
	close(b);
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * Issue 29: in a child pid namespace (a container sharing /dev/shm) the
 * cleaner took 2.4's unprefixed "cyclictest<PID>" of a live host run for
 * stale and removed it. A child of a new pid namespace (root only) must
 * leave it, and still take another child namespace's free object.
 */
/* In a child pid namespace: the host's 2.4 object stays, another namespace's free one goes. */
static int judge_from_child_namespace(const char *path, const struct rt_owner *host)
{
	struct rt_owner self, other = { .pid = 1, .pidns_ino = 123 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	rt_owner_self(&self);
	if (fd < 0 || self.pidns_ino == RT_OWNER_INIT_PIDNS)
		return 2;
	/* host's unlocked 2.4 object, its pid not even visible: alive */
	if (rt_owner_gone(fd, path, host))
		return 1;
	/* another child namespace's (ours, prefixed) with a free lock: gone */
	return rt_owner_gone(fd, path, &other) ? 0 : 3;
}

START_TEST(a_child_namespace_leaves_the_hosts_24_objects)
{
	char dir[] = "/tmp/test_rt_owner.XXXXXX", path[64];
	struct rt_owner host = { .pid = getpid(), .pidns_ino = RT_OWNER_INIT_PIDNS };
	int status;
	pid_t pid;

	if (geteuid() != 0)
		return; /* needs root (CAP_SYS_ADMIN): the namespace cannot be made */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/obj", dir);
	close(open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600));
	/*
	 * The namespace is made in a child of the test, never in the test
	 * itself (whose later children, LeakSanitizer's tracer among them,
	 * would land in a namespace whose init is gone); all leave by _exit.
	 */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pid_t inner;

		if (unshare(CLONE_NEWPID) < 0)
			_exit(77);
		inner = fork(); /* the first child of the new namespace */
		if (inner == 0)
			_exit(judge_from_child_namespace(path, &host));
		if (inner < 0 || waitpid(inner, &status, 0) != inner || !WIFEXITED(status))
			_exit(4);
		_exit(WEXITSTATUS(status));
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	unlink(path);
	rmdir(dir);
	if (WEXITSTATUS(status) == 77)
		return; /* no pid namespace could be made here */
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

START_TEST(instances_are_ours_or_provably_gone)
{
	char dir[] = "/tmp/test_rt_owner.XXXXXX", path[PATH_MAX], name[64], mine[64];
	char prefix[RT_OWNER_PREFIX_MAX];
	struct rt_owner self;
	int fd, fd2, held;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/instances", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	rt_owner_self(&self);
	rt_owner_prefix(prefix, &self);
	snprintf(mine, sizeof(mine), "%stool-%d", prefix, (int)self.pid);
	ck_assert_int_eq(rt_instance_create(dir, "tool", name, sizeof(name), &fd), 0);
	ck_assert_str_eq(name, mine);
	/* Never one that exists. */
	ck_assert_int_eq(rt_instance_create(dir, "tool", name, sizeof(name), &fd2), -EEXIST);
	ck_assert_int_eq(fd2, -1);
	/* Other namespaces' (inode 123, 124 are never one's): held, free; a dead pid of ours. */
	snprintf(path, sizeof(path), "%s/instances/ns123-tool-1", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	held = open(path, O_RDONLY | O_DIRECTORY);
	ck_assert_int_eq(rt_owner_hold(held, path), 0);
	snprintf(path, sizeof(path), "%s/instances/ns124-tool-1", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/instances/%stool-%d", dir, prefix, (int)dead_pid());
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/instances/ns124-other-1", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	rt_instance_clean_stale(dir, "tool");
	snprintf(path, sizeof(path), "%s/instances/%s", dir, mine);
	ck_assert_msg(access(path, F_OK) == 0, "our live instance was removed");
	snprintf(path, sizeof(path), "%s/instances/ns123-tool-1", dir);
	ck_assert_msg(access(path, F_OK) == 0, "a held instance was removed");
	snprintf(path, sizeof(path), "%s/instances/ns124-tool-1", dir);
	ck_assert_msg(access(path, F_OK) < 0, "a free instance of another namespace was kept");
	snprintf(path, sizeof(path), "%s/instances/ns124-other-1", dir);
	ck_assert_msg(access(path, F_OK) == 0, "another tool's instance was removed");
	rmdir(path);
	close(held);
	snprintf(path, sizeof(path), "%s/instances/ns123-tool-1", dir);
	rmdir(path);
	rt_instance_remove(dir, name, fd);
	snprintf(path, sizeof(path), "%s/instances", dir);
	ck_assert_msg(rmdir(path) == 0, "instances left");
	rmdir(dir);
}
END_TEST

static bool is_dash_number(const char *tail)
{
	return tail[0] == '-' && tail[1] >= '0' && tail[1] <= '9' && !tail[2];
}

static void make_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* A killed tool's files go; a live pid's, another stem's, a foreign tail stay. */
START_TEST(clean_removes_only_what_the_gone_left)
{
	char dir[] = "/tmp/test_rt_owner.XXXXXX", dead[64], live[64], other[64], q[64], bad[64];
	pid_t gone = dead_pid();

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(dead, sizeof(dead), "tool%d", (int)gone);
	snprintf(live, sizeof(live), "tool%d", (int)getppid());
	snprintf(other, sizeof(other), "tooled%d", (int)gone);
	snprintf(q, sizeof(q), "tool%d-3", (int)gone);
	snprintf(bad, sizeof(bad), "tool%d-x", (int)gone);
	make_file(dir, dead);
	make_file(dir, live);
	make_file(dir, other);
	make_file(dir, q);
	make_file(dir, bad);
	ck_assert_int_eq(rt_owner_clean(dir, "tool", RT_OWNER_DIRS, NULL), 0);
	ck_assert_msg(exists(dir, dead), "a file taken for a directory");
	ck_assert_int_eq(rt_owner_clean(dir, "tool", RT_OWNER_FILES, NULL), 0);
	ck_assert_msg(!exists(dir, dead), "the dead run's file was kept");
	ck_assert_msg(exists(dir, live) && exists(dir, other) && exists(dir, q) && exists(dir, bad),
		      "a live run's, another stem's or a tailed file was removed");
	ck_assert_int_eq(rt_owner_clean(dir, "tool", RT_OWNER_FILES, is_dash_number), 0);
	ck_assert_msg(!exists(dir, q) && exists(dir, bad), "the tail was not the caller's to judge");
	ck_assert_int_eq(rt_owner_clean("/nonexistent/rt-owner", "tool", RT_OWNER_FILES, NULL),
			 -ENOENT);
	for (const char *n[] = { live, other, bad, NULL }, **p = n; *p; p++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", dir, *p);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_owner");
	TCase *tc = tcase_create("owner");

	UNIT_LOOP(tc, names_parse_and_reject, names);
	tcase_add_test(tc, prefix_only_outside_the_initial_namespace);
	tcase_add_test(tc, gone_only_when_the_lock_is_free);
	tcase_add_test(tc, instances_are_ours_or_provably_gone);
	tcase_add_test(tc, a_child_namespace_leaves_the_hosts_24_objects);
	tcase_add_test(tc, clean_removes_only_what_the_gone_left);
	suite_add_tcase(s, tc);
	return s;
}
