/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ssdd's checks, pure functions (unit-tested on synthetic wait statuses):
 * is what waitpid() returned after a PTRACE_SINGLESTEP (or the attach) the
 * stop the tracer expects, and why ptrace was refused.
 */
#ifndef SSDD_CHECK_H
#define SSDD_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A step that went wrong: step 0 is the attach, 1..iters the single steps. */
struct ssdd_mismatch {
	uint64_t step;
	char expected[48];   /* "SIGTRAP stop", "SIGCHLD with the stop", ... */
	char got[112];       /* "exit 0", "killed by SIGKILL", "stop by SIGSEGV", ... */
};

/* What one waitpid() returned, and whether SIGCHLD came with it. */
struct ssdd_wait {
	pid_t pid;           /* waitpid's return value */
	int err;             /* its errno when pid < 0 */
	int status;
	bool sigchld;        /* a SIGCHLD was pending afterwards */
};

/*
 * Did the wait report tracee stopped by want_sig (SIGTRAP after a step,
 * SIGSTOP after the attach), with its SIGCHLD? true, or false with *m
 * filled for step.
 */
bool ssdd_check_wait(pid_t tracee, int want_sig, uint64_t step, const struct ssdd_wait *w,
		     struct ssdd_mismatch *m);

/* "SIGTRAP", "SIGKILL", ... or "signal N". */
const char *ssdd_signal_name(int sig, char *buf, size_t len);

/* What the system says about ptrace, read by ssdd_ptrace_policy_read(). */
struct ssdd_ptrace_policy {
	int yama_scope;      /* kernel.yama.ptrace_scope, -1 without Yama */
	int seccomp;         /* the Seccomp: field of /proc/self/status, -1 unknown */
	bool cap_sys_ptrace; /* in the effective set */
};

void ssdd_ptrace_policy_read(struct ssdd_ptrace_policy *p);

/*
 * Why PTRACE_ATTACH failed with err (positive errno), and what to change:
 * one sentence into buf, without a final period.
 */
void ssdd_explain_refusal(int err, const struct ssdd_ptrace_policy *p, char *buf, size_t len);

#endif
