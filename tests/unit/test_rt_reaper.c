// SPDX-License-Identifier: GPL-2.0-or-later
/* The reaper: names every death, stops within its bound, children die with the parent. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

#include "rt_reaper.h"
#include "rt_time.h"

struct seen {
	int n;
	int index[8];
	char how[8][80];
};

static void on_death(void *ctx, const struct rt_reaper_child *c)
{
	struct seen *s = ctx;

	if (s->n < 8) {
		s->index[s->n] = c->index;
		rt_reaper_describe(c, s->how[s->n], sizeof(s->how[0]));
	}
	s->n++;
}

/* Poll the reaper's descriptor until n deaths were seen (at most 5 s). */
static void wait_deaths(struct rt_reaper *r, struct seen *s, int n)
{
	int64_t end = rt_time_mono_ns() + 5 * RT_NSEC_PER_SEC;
	struct pollfd p = { .fd = rt_reaper_fd(r), .events = POLLIN };

	while (s->n < n && rt_time_mono_ns() < end)
		if (poll(&p, 1, 100) > 0)
			rt_reaper_take_signals(r, on_death, s);
}

/* A child of the reaper's that exits with status at once. */
static pid_t fork_exiting(struct rt_reaper *r, int index, const char *name, int status)
{
	pid_t pid = rt_reaper_fork(r, index, name);

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(status);
	return pid;
}

START_TEST(names_the_dead_child_and_how_it_died)
{
	struct rt_reaper r;
	struct seen s = { 0 };
	pid_t a, b;

	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	a = rt_reaper_fork(&r, 7, "sender 7");
	ck_assert_int_ge(a, 0);
	if (a == 0)
		_exit(3);
	b = rt_reaper_fork(&r, 8, "receiver 8");
	ck_assert_int_ge(b, 0);
	if (b == 0)
		for (;;)
			pause();
	wait_deaths(&r, &s, 1);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(s.index[0], 7);
	ck_assert_str_eq(s.how[0], "exited with status 3");
	ck_assert(rt_reaper_failed(rt_reaper_find(&r, a)));
	ck_assert_str_eq(rt_reaper_find(&r, a)->name, "sender 7");
	kill(b, SIGKILL);
	wait_deaths(&r, &s, 2);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(s.index[1], 8);
	ck_assert_str_eq(s.how[1], "killed by signal 9 (Killed)");
	ck_assert_uint_eq(rt_reaper_alive(&r), 0);
	ck_assert_ptr_null(rt_reaper_find(&r, getpid()));
	rt_reaper_destroy(&r);
}
END_TEST

/*
 * A child that takes SIGTERM as term says and SIGINT by default (check's
 * own handlers would kill our group), then waits.
 */
static void child_waits(int ready_fd, void (*term)(int))
{
	signal(SIGTERM, term);
	signal(SIGINT, SIG_DFL);
	if (write(ready_fd, "r", 1) != 1)
		_exit(2);
	for (;;)
		pause();
}

START_TEST(stop_ends_a_child_that_ignores_sigterm_within_the_bound)
{
	struct rt_reaper r;
	struct seen s = { 0 };
	int64_t t0;
	pid_t polite, deaf;
	int ready[2];
	char c;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	polite = rt_reaper_fork(&r, 0, "polite");
	ck_assert_int_ge(polite, 0);
	if (polite == 0)
		child_waits(ready[1], SIG_DFL);
	deaf = rt_reaper_fork(&r, 1, "deaf");
	ck_assert_int_ge(deaf, 0);
	if (deaf == 0)
		child_waits(ready[1], SIG_IGN);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	t0 = rt_time_mono_ns();
	ck_assert_int_eq(rt_reaper_stop(&r, SIGTERM, 200 * 1000 * 1000LL, on_death, &s), 0);
	/* the bound is what the reaper controls: 200 ms grace plus a SIGKILL; 10 s of slack */
	ck_assert_int_lt(rt_time_mono_ns() - t0, 10 * RT_NSEC_PER_SEC);
	ck_assert_int_eq(s.n, 2);
	ck_assert(!rt_reaper_find(&r, polite)->killed);
	ck_assert(rt_reaper_find(&r, deaf)->killed);
	ck_assert_int_eq(rt_reaper_find(&r, deaf)->status, SIGKILL);
	ck_assert_uint_eq(rt_reaper_alive(&r), 0);
	ck_assert_int_eq(kill(deaf, 0), -1); /* reaped: no zombie left */
	rt_reaper_destroy(&r);
}
END_TEST

START_TEST(keep_leaves_a_zombie_until_the_stop)
{
	struct rt_reaper r;
	struct seen s = { 0 };
	int64_t end = rt_time_mono_ns() + 5 * RT_NSEC_PER_SEC;
	pid_t pid;

	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	pid = fork_exiting(&r, 4, "worker 4", 0);
	/* (the stop below finds it dead: no SIGTERM is sent) */
	while (s.n == 0 && rt_time_mono_ns() < end) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };

		ck_assert_int_ge(rt_reaper_collect(&r, true, on_death, &s), 0);
		nanosleep(&nap, NULL);
	}
	ck_assert_int_eq(s.n, 1);
	ck_assert(!rt_reaper_failed(rt_reaper_find(&r, pid)));
	ck_assert_int_eq(kill(pid, 0), 0); /* the zombie holds its pid */
	ck_assert_uint_eq(rt_reaper_alive(&r), 1);
	ck_assert_int_eq(rt_reaper_stop(&r, SIGTERM, RT_NSEC_PER_SEC, on_death, &s), 0);
	ck_assert_int_eq(s.n, 1); /* not reported twice */
	ck_assert_int_eq(kill(pid, 0), -1);
	rt_reaper_destroy(&r);
}
END_TEST

/* The state letter of pid in /proc, 0 when it is gone. */
static char proc_state(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%*d %*s %c", &state) != 1)
		state = 0;
	fclose(f);
	return state;
}

/* The grandchild of a killed parent dies with it: PR_SET_PDEATHSIG. */
START_TEST(child_dies_with_its_parent)
{
	int fds[2];
	pid_t mid, grandchild = 0;
	int status;
	int64_t end;

	ck_assert_int_eq(pipe(fds), 0);
	mid = fork();
	ck_assert_int_ge(mid, 0);
	if (mid == 0) {
		struct rt_reaper r;
		pid_t pid;

		if (rt_reaper_init(&r, NULL))
			_exit(2);
		pid = rt_reaper_fork(&r, 0, "orphan");
		if (pid == 0)
			for (;;)
				pause();
		if (write(fds[1], &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
			_exit(2);
		for (;;)
			pause();
	}
	ck_assert_int_eq(read(fds[0], &grandchild, sizeof(grandchild)), (ssize_t)sizeof(grandchild));
	ck_assert_int_gt(grandchild, 0);
	ck_assert_int_eq(kill(grandchild, 0), 0);
	kill(mid, SIGKILL);
	ck_assert_int_eq(waitpid(mid, &status, 0), mid);
	end = rt_time_mono_ns() + 5 * RT_NSEC_PER_SEC;
	/* reparented and killed: gone, or a zombie its new parent has not reaped yet */
	while (proc_state(grandchild) && proc_state(grandchild) != 'Z' && rt_time_mono_ns() < end) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };

		nanosleep(&nap, NULL);
	}
	ck_assert(proc_state(grandchild) == 0 || proc_state(grandchild) == 'Z');
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/* stop_one ends the one child asked for; the other runs on, unreaped, and is stopped later. */
START_TEST(stop_one_leaves_the_others_running)
{
	struct rt_reaper r;
	struct seen s = { 0 };
	pid_t tool, load;
	int ready[2];
	char c;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	load = rt_reaper_fork(&r, 0, "load");
	ck_assert_int_ge(load, 0);
	if (load == 0)
		child_waits(ready[1], SIG_DFL);
	tool = rt_reaper_fork(&r, 1, "tool");
	ck_assert_int_ge(tool, 0);
	if (tool == 0)
		child_waits(ready[1], SIG_DFL);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(rt_reaper_stop_one(&r, tool, SIGINT, 5 * RT_NSEC_PER_SEC, on_death, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(s.index[0], 1);
	ck_assert_str_eq(s.how[0], "killed by signal 2 (Interrupt)");
	ck_assert_int_eq(rt_reaper_exit_code(rt_reaper_find(&r, tool)), 128 + SIGINT);
	ck_assert(!rt_reaper_find(&r, tool)->killed);
	ck_assert_int_eq(kill(tool, 0), -1); /* reaped */
	ck_assert_uint_eq(rt_reaper_alive(&r), 1);
	ck_assert(!rt_reaper_find(&r, load)->ended);
	ck_assert_int_eq(proc_state(load) != 0 && proc_state(load) != 'Z', 1);
	/* again: nothing more to do; a pid not ours is refused */
	ck_assert_int_eq(rt_reaper_stop_one(&r, tool, SIGKILL, 0, on_death, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(rt_reaper_stop_one(&r, getpid(), SIGTERM, 0, on_death, &s), -ESRCH);
	ck_assert_int_eq(rt_reaper_stop(&r, SIGTERM, 5 * RT_NSEC_PER_SEC, on_death, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(s.index[1], 0);
	ck_assert_uint_eq(rt_reaper_alive(&r), 0);
	rt_reaper_destroy(&r);
	close(ready[0]);
	close(ready[1]);
}
END_TEST

/* stop_one's bound: a child deaf to the polite signal is SIGKILLed after the grace. */
START_TEST(stop_one_kills_a_deaf_child_after_the_grace)
{
	struct rt_reaper r;
	pid_t deaf;
	int ready[2];
	char c;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	deaf = rt_reaper_fork(&r, 0, "deaf");
	ck_assert_int_ge(deaf, 0);
	if (deaf == 0)
		child_waits(ready[1], SIG_IGN);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(rt_reaper_stop_one(&r, deaf, SIGTERM, 100 * 1000 * 1000LL, NULL, NULL), 0);
	ck_assert(rt_reaper_find(&r, deaf)->killed);
	ck_assert_int_eq(rt_reaper_exit_code(rt_reaper_find(&r, deaf)), 128 + SIGKILL);
	ck_assert_int_eq(kill(deaf, 0), -1);
	rt_reaper_destroy(&r);
	close(ready[0]);
	close(ready[1]);
}
END_TEST

/* Burn about ms of CPU time in user space. */
static void burn_cpu(int ms)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static int64_t cpu_ms(const struct rusage *ru)
{
	return (int64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000 +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1000;
}

/* The reaped child's usage comes with it: by the signalfd, by stop_one, and by rt_reaper_reap. */
START_TEST(reaped_child_brings_its_cpu_time)
{
	struct rt_reaper r;
	struct seen s = { 0 };
	struct rt_reaper_child one;
	pid_t a, b, c;

	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	a = rt_reaper_fork(&r, 0, "burner");
	ck_assert_int_ge(a, 0);
	if (a == 0) {
		burn_cpu(300);
		_exit(0);
	}
	wait_deaths(&r, &s, 1);
	ck_assert_int_eq(s.n, 1);
	ck_assert(rt_reaper_find(&r, a)->reaped);
	/* CPU time is counted in ticks: 300 ms burnt is well over 100 */
	ck_assert_int_ge(cpu_ms(&rt_reaper_find(&r, a)->ru), 100);
	b = rt_reaper_fork(&r, 1, "burner 2");
	ck_assert_int_ge(b, 0);
	if (b == 0) {
		burn_cpu(300);
		_exit(0);
	}
	ck_assert_int_eq(rt_reaper_stop_one(&r, b, 0, 30 * RT_NSEC_PER_SEC, NULL, NULL), 0);
	ck_assert(!rt_reaper_failed(rt_reaper_find(&r, b)));
	ck_assert_int_ge(cpu_ms(&rt_reaper_find(&r, b)->ru), 100);
	c = rt_reaper_fork_one();
	ck_assert_int_ge(c, 0);
	if (c == 0) {
		burn_cpu(300);
		_exit(5);
	}
	ck_assert_int_eq(rt_reaper_reap(c, &one), 0);
	ck_assert_int_eq(rt_reaper_exit_code(&one), 5);
	ck_assert_int_ge(cpu_ms(&one.ru), 100);
	rt_reaper_destroy(&r);
}
END_TEST

static int term_fd = -1;

static void say_term(int sig)
{
	char t = 'T';

	(void)sig;
	if (write(term_fd, &t, 1) != 1)
		_exit(3);
	_exit(0);
}

/* A child of a reaper whose death_signal is SIGTERM gets SIGTERM (not SIGKILL) when its parent dies. */
START_TEST(death_signal_is_the_callers)
{
	int ready[2], told[2], status;
	struct pollfd p;
	pid_t mid, grandchild = 0;
	char t = 0;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(told), 0);
	mid = fork();
	ck_assert_int_ge(mid, 0);
	if (mid == 0) {
		struct rt_reaper r;
		pid_t pid;

		if (rt_reaper_init(&r, NULL))
			_exit(2);
		r.death_signal = SIGTERM;
		pid = rt_reaper_fork(&r, 0, "tool");
		if (pid == 0) {
			term_fd = told[1];
			signal(SIGTERM, say_term);
			pid = getpid();
			if (write(ready[1], &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
				_exit(2);
			for (;;)
				pause();
		}
		for (;;)
			pause();
	}
	close(told[1]);
	ck_assert_int_eq(read(ready[0], &grandchild, sizeof(grandchild)), (ssize_t)sizeof(grandchild));
	ck_assert_int_gt(grandchild, 0);
	kill(mid, SIGKILL);
	ck_assert_int_eq(waitpid(mid, &status, 0), mid);
	p = (struct pollfd){ .fd = told[0], .events = POLLIN };
	ck_assert_int_eq(poll(&p, 1, 10 * 1000), 1);
	ck_assert_int_eq(read(told[0], &t, 1), 1);
	ck_assert_int_eq(t, 'T');
	close(told[0]);
	close(ready[0]);
	close(ready[1]);
}
END_TEST

/* A child of the tool's own (not the reaper's) keeps its status for the tool. */
START_TEST(leaves_another_childs_status_alone)
{
	struct rt_reaper r;
	struct seen s = { 0 };
	int status = 0;
	pid_t other;

	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	other = fork();
	ck_assert_int_ge(other, 0);
	if (other == 0)
		_exit(5);
	/* dead before ours, so it heads the list of zombies */
	ck_assert_int_eq(waitid(P_PID, (id_t)other, &(siginfo_t){ 0 }, WEXITED | WNOWAIT), 0);
	fork_exiting(&r, 1, "mine", 0);
	wait_deaths(&r, &s, 1);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.how[0], "exited with status 0");
	ck_assert_int_eq(waitpid(other, &status, 0), other);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	rt_reaper_destroy(&r);
}
END_TEST

/* A child of the reaper's that someone else reaped did not succeed: how it ended is unknown. */
START_TEST(a_child_reaped_elsewhere_is_not_a_success)
{
	struct rt_reaper r;
	struct seen s = { 0 };
	const struct rt_reaper_child *c;
	int status = 0;
	pid_t pid;

	ck_assert_int_eq(rt_reaper_init(&r, NULL), 0);
	pid = fork_exiting(&r, 2, "worker 2", 3);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(rt_reaper_stop(&r, SIGTERM, RT_NSEC_PER_SEC, on_death, &s), 0);
	ck_assert_int_eq(s.n, 1);
	c = rt_reaper_find(&r, pid);
	ck_assert_int_eq(c->code, RT_REAPER_UNKNOWN);
	ck_assert(rt_reaper_failed(c));
	ck_assert_int_eq(rt_reaper_exit_code(c), -1);
	ck_assert_str_eq(s.how[0], "ended, but was reaped elsewhere: how is unknown");
	rt_reaper_destroy(&r);
}
END_TEST

START_TEST(describe_says_how)
{
	struct rt_reaper_child c = { .ended = true, .code = CLD_DUMPED, .status = SIGSEGV };
	char buf[80];

	rt_reaper_describe(&c, buf, sizeof(buf));
	ck_assert_str_eq(buf, "dumped core on signal 11 (Segmentation fault)");
	c.ended = false;
	rt_reaper_describe(&c, buf, sizeof(buf));
	ck_assert_str_eq(buf, "still running");
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_reaper");
	TCase *tc = tcase_create("reaper");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, names_the_dead_child_and_how_it_died);
	tcase_add_test(tc, stop_ends_a_child_that_ignores_sigterm_within_the_bound);
	tcase_add_test(tc, keep_leaves_a_zombie_until_the_stop);
	tcase_add_test(tc, child_dies_with_its_parent);
	tcase_add_test(tc, stop_one_leaves_the_others_running);
	tcase_add_test(tc, stop_one_kills_a_deaf_child_after_the_grace);
	tcase_add_test(tc, reaped_child_brings_its_cpu_time);
	tcase_add_test(tc, death_signal_is_the_callers);
	tcase_add_test(tc, leaves_another_childs_status_alone);
	tcase_add_test(tc, a_child_reaped_elsewhere_is_not_a_success);
	tcase_add_test(tc, describe_says_how);
	suite_add_tcase(s, tc);
	return s;
}
