// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"

static const char *const names[] = {
	[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT", [SIGILL] = "SIGILL",
	[SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT", [SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE",
	[SIGKILL] = "SIGKILL", [SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV",
	[SIGUSR2] = "SIGUSR2", [SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM",
	[SIGTERM] = "SIGTERM", [SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT",
	[SIGSTOP] = "SIGSTOP", [SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN",
	[SIGTTOU] = "SIGTTOU", [SIGURG] = "SIGURG", [SIGXCPU] = "SIGXCPU",
	[SIGXFSZ] = "SIGXFSZ", [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF",
	[SIGWINCH] = "SIGWINCH", [SIGIO] = "SIGIO", [SIGSYS] = "SIGSYS",
};

const char *ssdd_signal_name(int sig, char *buf, size_t len)
{
	if (sig > 0 && (size_t)sig < sizeof(names) / sizeof(names[0]) && names[sig])
		return names[sig];
	snprintf(buf, len, "signal %d", sig);
	return buf;
}

static void describe(const struct ssdd_wait *w, pid_t tracee, char *got, size_t len)
{
	char b[24];

	if (w->pid < 0)
		snprintf(got, len, "waitpid error: %s", strerror(w->err));
	else if (w->pid != tracee)
		snprintf(got, len, "pid %d instead of %d", (int)w->pid, (int)tracee);
	else if (WIFEXITED(w->status))
		snprintf(got, len, "exit %d", WEXITSTATUS(w->status));
	else if (WIFSIGNALED(w->status))
		snprintf(got, len, "killed by %s", ssdd_signal_name(WTERMSIG(w->status), b, sizeof(b)));
	else if (WIFSTOPPED(w->status) && (w->status >> 16))
		snprintf(got, len, "ptrace event %d stop (%s)", w->status >> 16,
			 ssdd_signal_name(WSTOPSIG(w->status), b, sizeof(b)));
	else if (WIFSTOPPED(w->status))
		snprintf(got, len, "stop by %s", ssdd_signal_name(WSTOPSIG(w->status), b, sizeof(b)));
	else if (WIFCONTINUED(w->status))
		snprintf(got, len, "continued");
	else
		snprintf(got, len, "wait status 0x%x", (unsigned)w->status);
}

bool ssdd_check_wait(pid_t tracee, int want_sig, uint64_t step, const struct ssdd_wait *w,
		     struct ssdd_mismatch *m)
{
	char b[24];

	if (w->pid == tracee && WIFSTOPPED(w->status) && WSTOPSIG(w->status) == want_sig &&
	    !(w->status >> 16)) {
		if (w->sigchld)
			return true;
		m->step = step;
		snprintf(m->expected, sizeof(m->expected), "SIGCHLD with the stop");
		snprintf(m->got, sizeof(m->got), "no SIGCHLD pending");
		return false;
	}
	m->step = step;
	snprintf(m->expected, sizeof(m->expected), "%s stop",
		 ssdd_signal_name(want_sig, b, sizeof(b)));
	describe(w, tracee, m->got, sizeof(m->got));
	return false;
}

static int read_int_file(const char *path, int *out)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", out) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

void ssdd_ptrace_policy_read(struct ssdd_ptrace_policy *p)
{
	char line[256];
	FILE *f;

	p->yama_scope = -1;
	p->seccomp = -1;
	p->cap_sys_ptrace = false;
	if (read_int_file("/proc/sys/kernel/yama/ptrace_scope", &p->yama_scope))
		p->yama_scope = -1;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (strncmp(line, "Seccomp:", 8) == 0)
			p->seccomp = atoi(line + 8);
		else if (sscanf(line, "CapEff: %llx", &caps) == 1)
			p->cap_sys_ptrace = (caps >> 19) & 1; /* CAP_SYS_PTRACE */
	}
	fclose(f);
}

void ssdd_explain_refusal(int err, const struct ssdd_ptrace_policy *p, char *buf, size_t len)
{
	if (err != EPERM && err != EACCES) {
		snprintf(buf, len, "%s", strerror(err));
		return;
	}
	if (p->yama_scope >= 3)
		snprintf(buf, len, "%s: Yama forbids ptrace to everyone "
			 "(kernel.yama.ptrace_scope = 3, which only a reboot undoes)", strerror(err));
	else if (p->yama_scope == 2 && !p->cap_sys_ptrace)
		snprintf(buf, len, "%s: Yama allows ptrace only with CAP_SYS_PTRACE "
			 "(kernel.yama.ptrace_scope = 2): run ssdd as root or set the sysctl to 1",
			 strerror(err));
	else if (p->seccomp == 2)
		snprintf(buf, len, "%s: a seccomp filter refuses ptrace (Seccomp: 2 in "
			 "/proc/self/status): allow ptrace in the container's or service's profile",
			 strerror(err));
	else
		snprintf(buf, len, "%s: ptrace was refused (an LSM such as SELinux or AppArmor, or "
			 "a container's policy): allow ptrace of own children, see the audit log",
			 strerror(err));
}
