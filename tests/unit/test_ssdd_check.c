// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ssdd's step check on synthetic wait statuses: what the tracer expects
 * after a PTRACE_SINGLESTEP (a SIGTRAP stop of its tracee, with SIGCHLD)
 * passes, and everything else is named: the step, what was expected, what
 * happened. Also the one-line explanations of a refused PTRACE_ATTACH.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "unit.h"

#include "../../src/ssdd/check.h"

#define TRACEE 4242

static bool check(int want_sig, pid_t pid, int err, int status, bool sigchld,
		  struct ssdd_mismatch *m)
{
	struct ssdd_wait w = { .pid = pid, .err = err, .status = status, .sigchld = sigchld };

	memset(m, 0, sizeof(*m));
	return ssdd_check_wait(TRACEE, want_sig, 57, &w, m);
}

START_TEST(a_sigtrap_stop_with_sigchld_is_right)
{
	struct ssdd_mismatch m;

	ck_assert(check(SIGTRAP, TRACEE, 0, W_STOPCODE(SIGTRAP), true, &m));
	ck_assert(check(SIGSTOP, TRACEE, 0, W_STOPCODE(SIGSTOP), true, &m));
}
END_TEST

static const struct {
	int want_sig;
	pid_t pid;
	int err;
	int status;
	bool sigchld;
	const char *expected, *got;
} wrong[] = {
	{ SIGTRAP, TRACEE, 0, W_EXITCODE(0, 0), true, "SIGTRAP stop", "exit 0" },
	{ SIGTRAP, TRACEE, 0, W_EXITCODE(3, 0), true, "SIGTRAP stop", "exit 3" },
	{ SIGTRAP, TRACEE, 0, SIGKILL, true, "SIGTRAP stop", "killed by SIGKILL" },
	{ SIGTRAP, TRACEE, 0, SIGSEGV | 0x80, true, "SIGTRAP stop", "killed by SIGSEGV" },
	{ SIGTRAP, TRACEE, 0, W_STOPCODE(SIGSEGV), true, "SIGTRAP stop", "stop by SIGSEGV" },
	{ SIGTRAP, TRACEE, 0, W_STOPCODE(SIGSTOP), true, "SIGTRAP stop", "stop by SIGSTOP" },
	{ SIGTRAP, TRACEE, 0, W_STOPCODE(40), true, "SIGTRAP stop", "stop by signal 40" },
	{ SIGTRAP, TRACEE, 0, W_STOPCODE(SIGTRAP) | (6 << 16), true, "SIGTRAP stop",
	  "ptrace event 6 stop (SIGTRAP)" },
	{ SIGTRAP, TRACEE, 0, 0xffff, true, "SIGTRAP stop", "continued" },
	{ SIGTRAP, 999, 0, W_STOPCODE(SIGTRAP), true, "SIGTRAP stop", "pid 999 instead of 4242" },
	{ SIGTRAP, -1, ECHILD, 0, false, "SIGTRAP stop", "waitpid error: No child processes" },
	{ SIGTRAP, TRACEE, 0, W_STOPCODE(SIGTRAP), false, "SIGCHLD with the stop",
	  "no SIGCHLD pending" },
	{ SIGSTOP, TRACEE, 0, W_STOPCODE(SIGTRAP), true, "SIGSTOP stop", "stop by SIGTRAP" },
};

START_TEST(anything_else_names_the_step_the_expected_and_what_happened)
{
	struct ssdd_mismatch m;

	ck_assert(!check(wrong[_i].want_sig, wrong[_i].pid, wrong[_i].err, wrong[_i].status,
			 wrong[_i].sigchld, &m));
	ck_assert_uint_eq(m.step, 57);
	ck_assert_str_eq(m.expected, wrong[_i].expected);
	ck_assert_str_eq(m.got, wrong[_i].got);
}
END_TEST

START_TEST(signal_names)
{
	char b[24];

	ck_assert_str_eq(ssdd_signal_name(SIGTRAP, b, sizeof(b)), "SIGTRAP");
	ck_assert_str_eq(ssdd_signal_name(SIGSYS, b, sizeof(b)), "SIGSYS");
	ck_assert_str_eq(ssdd_signal_name(0, b, sizeof(b)), "signal 0");
	ck_assert_str_eq(ssdd_signal_name(64, b, sizeof(b)), "signal 64");
}
END_TEST

static const struct {
	struct ssdd_ptrace_policy pol;
	int err;
	const char *start, *has;
} refusals[] = {
	{ { 3, 0, true }, EPERM, "Operation not permitted: Yama forbids ptrace to everyone",
	  "ptrace_scope = 3" },
	{ { 2, 0, false }, EPERM, "Operation not permitted: Yama allows ptrace only with "
	  "CAP_SYS_PTRACE", "set the sysctl to 1" },
	{ { 2, 2, true }, EPERM, "Operation not permitted: a seccomp filter refuses ptrace",
	  "Seccomp: 2" },
	{ { -1, 2, false }, EPERM, "Operation not permitted: a seccomp filter", "profile" },
	{ { 1, 0, false }, EPERM, "Operation not permitted: ptrace was refused", "audit log" },
	{ { 3, 2, false }, ESRCH, "No such process", "No such process" },
};

START_TEST(a_refused_attach_says_which_and_what_to_change)
{
	char buf[320];

	ssdd_explain_refusal(refusals[_i].err, &refusals[_i].pol, buf, sizeof(buf));
	ck_assert_msg(strncmp(buf, refusals[_i].start, strlen(refusals[_i].start)) == 0, "%s",
		      buf);
	ck_assert_msg(strstr(buf, refusals[_i].has) != NULL, "%s", buf);
	ck_assert_ptr_null(strchr(buf, '\n'));
}
END_TEST

START_TEST(the_policy_is_read_from_proc)
{
	struct ssdd_ptrace_policy p;

	ssdd_ptrace_policy_read(&p);
	ck_assert_int_ge(p.seccomp, 0); /* every kernel of ours has the field */
	ck_assert_int_ge(p.yama_scope, -1);
	ck_assert_int_le(p.yama_scope, 3);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("ssdd_check");
	TCase *tc = tcase_create("check");

	tcase_add_test(tc, a_sigtrap_stop_with_sigchld_is_right);
	UNIT_LOOP(tc, anything_else_names_the_step_the_expected_and_what_happened, wrong);
	tcase_add_test(tc, signal_names);
	UNIT_LOOP(tc, a_refused_attach_says_which_and_what_to_change, refusals);
	tcase_add_test(tc, the_policy_is_read_from_proc);
	suite_add_tcase(s, tc);
	return s;
}
