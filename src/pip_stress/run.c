// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_prog.h"
#include "rt_reaper.h"
#include "rt_sched.h"
#include "rt_time.h"

#include "run.h"

/* How long each step of the set-up may take before the run is given up. */
#define SETUP_TIMEOUT_NS (10 * RT_NSEC_PER_SEC)
/* After medium's work: low, then high, must be done within this. */
#define END_GRACE_NS (10 * RT_NSEC_PER_SEC)
/* The parent looks at the shared state this often while it sets the test up, */
#define POLL_MS 1
/* and then only wakes for signals (SIGCHLD too) or this often. */
#define END_POLL_MS 100

static const char *const role_names[PIP_ROLES] = {
	[PIP_LOW] = "low", [PIP_MEDIUM] = "medium", [PIP_HIGH] = "high",
};
static const int role_prio[PIP_ROLES] = {
	[PIP_LOW] = PIP_PRIO_LOW, [PIP_MEDIUM] = PIP_PRIO_MEDIUM, [PIP_HIGH] = PIP_PRIO_HIGH,
};

/* One page of anonymous shared memory: no name, gone with the last process. */
struct shared {
	pthread_mutex_t mutex;
	int low_locked, high_waiting, medium_started, medium_finished, stop_medium, high_got;
	int started_at_got, finished_at_got; /* medium's flags as high got the mutex */
	int64_t high_request_ns, high_got_ns, medium_start_ns, medium_end_ns;
	int low_prio_at_unlock;
	int policy[PIP_ROLES], prio[PIP_ROLES];
};

struct ctl {
	const struct pip_config *cfg;
	struct shared *sh;
	struct rt_reaper reaper; /* the three processes and the signals */
	pid_t pid[PIP_ROLES];
	bool reaped[PIP_ROLES];
	int cpu;
	int stop;      /* SIGINT or SIGTERM */
	bool failed;   /* a process failed (printed) */
	bool killing;
};


static int load(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------ /proc */

char pip_state_from_stat(const char *stat)
{
	const char *p = strrchr(stat, ')');

	return p && p[1] == ' ' && p[2] ? p[2] : 0;
}

int pip_rt_prio_from_stat(const char *stat)
{
	const char *p = strrchr(stat, ')');
	long prio;
	char *end;

	if (!p)
		return -1;
	/* the fields after ')' start at 3 (state); priority is field 18 */
	for (int field = 2; field < 18; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -1;
	}
	prio = strtol(p + 1, &end, 10);
	if (end == p + 1 || (*end != ' ' && *end != '\0' && *end != '\n'))
		return -1;
	/* SCHED_FIFO/RR priority N shows as -1 - N; other policies as 0..39 */
	return prio <= -2 && prio >= -100 ? (int)(-1 - prio) : 0;
}

static int read_stat(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/stat");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return n ? -errno : -EIO;
	buf[n] = '\0';
	return 0;
}

/* ------------------------------------------------------------ the three processes */

static void low(const struct pip_config *cfg, struct shared *sh)
{
	char stat[1024];
	int err = pthread_mutex_lock(&sh->mutex);

	if (err) {
		rt_prog_error_errno(err, "low priority process: cannot lock the mutex");
		_exit(RT_EXIT_FAILURE);
	}
	store(&sh->low_locked, 1);
	/* asleep while high blocks; then medium must be at work */
	while (!load(&sh->medium_started))
		usleep((useconds_t)cfg->usleep_us);
	/* the work under the mutex, while medium runs: 2.4's usleep */
	usleep((useconds_t)cfg->usleep_us);
	sh->low_prio_at_unlock = read_stat(0, stat, sizeof(stat)) ? -1 :
				 pip_rt_prio_from_stat(stat);
	err = pthread_mutex_unlock(&sh->mutex);
	if (err) {
		rt_prog_error_errno(err, "low priority process: cannot unlock the mutex");
		_exit(RT_EXIT_FAILURE);
	}
}

static void medium(const struct pip_config *cfg, struct shared *sh)
{
	int64_t start = rt_time_mono_ns(), end = start + cfg->work_ms * 1000000LL;

	sh->medium_start_ns = start;
	store(&sh->medium_started, 1);
	/* busy: no system call (the clock is the vDSO's) */
	while (!load(&sh->stop_medium)) {
		int64_t t = rt_time_mono_ns();

		if (t >= end) {
			sh->medium_end_ns = t;
			store(&sh->medium_finished, 1);
			break;
		}
	}
}

static void high(struct shared *sh)
{
	int err;

	sh->high_request_ns = rt_time_mono_ns();
	store(&sh->high_waiting, 1);
	err = pthread_mutex_lock(&sh->mutex);
	sh->high_got_ns = rt_time_mono_ns();
	if (err) {
		rt_prog_error_errno(err, "high priority process: cannot lock the mutex");
		_exit(RT_EXIT_FAILURE);
	}
	sh->started_at_got = load(&sh->medium_started);
	sh->finished_at_got = load(&sh->medium_finished);
	store(&sh->high_got, 1);
	store(&sh->stop_medium, 1);
	pthread_mutex_unlock(&sh->mutex);
}

static void child_main(struct ctl *c, enum pip_role role)
{
	struct shared *sh = c->sh;
	cpu_set_t set;
	sigset_t none;
	int err, policy, prio;

	/* rt_reaper_fork: it dies with the parent and has no signalfd */
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		rt_prog_error_errno(errno, "%s priority process: cannot run on CPU %d",
				    role_names[role], c->cpu);
		_exit(RT_EXIT_FAILURE);
	}
	if ((err = rt_sched_set(0, SCHED_FIFO, role_prio[role]))) {
		rt_prog_error_errno(-err, "%s priority process: cannot set SCHED_FIFO priority %d",
				    role_names[role], role_prio[role]);
		_exit(RT_EXIT_FAILURE);
	}
	if (rt_sched_get(0, &policy, &prio) == 0) {
		sh->policy[role] = policy;
		sh->prio[role] = prio;
	}
	switch (role) {
	case PIP_LOW: low(c->cfg, sh); break;
	case PIP_MEDIUM: medium(c->cfg, sh); break;
	case PIP_HIGH: high(sh); break;
	default: break;
	}
	_exit(RT_EXIT_OK);
}

/* ------------------------------------------------------------ the parent */

/* One of the three seen dead (rt_reaper): a failure unless asked or clean. */
static void reaped(void *ctx, const struct rt_reaper_child *rc)
{
	struct ctl *c = ctx;
	char how[96];

	if (rc->index < 0 || rc->index >= PIP_ROLES)
		return;
	c->reaped[rc->index] = true;
	if (c->killing || c->stop || !rt_reaper_failed(rc))
		return;
	/* an exit status: the process printed why */
	if (!c->failed && rc->code != CLD_EXITED) {
		rt_reaper_describe(rc, how, sizeof(how));
		rt_prog_error("the %s priority process (pid %d) %s", rc->name, (int)rc->pid, how);
	}
	c->failed = true;
}

static void take_signals(struct ctl *c)
{
	int sig = rt_reaper_take_signals(&c->reaper, reaped, c);

	if (sig && !c->stop)
		c->stop = sig;
	rt_reaper_collect(&c->reaper, false, reaped, c); /* a SIGCHLD read before */
}

static bool all_reaped(const struct ctl *c)
{
	for (int r = 0; r < PIP_ROLES; r++)
		if (c->pid[r] > 0 && !c->reaped[r])
			return false;
	return true;
}

/* Is high asleep in the mutex (it set high_waiting just before)? */
static bool high_blocked(struct ctl *c)
{
	char stat[1024];

	if (!load(&c->sh->high_waiting) || read_stat(c->pid[PIP_HIGH], stat, sizeof(stat)))
		return false;
	return pip_state_from_stat(stat) == 'S';
}

static bool low_locked(struct ctl *c)
{
	return load(&c->sh->low_locked);
}

static bool done(struct ctl *c)
{
	return all_reaped(c);
}

/*
 * Wait until cond holds, a stop, a failure or the deadline. 0 when cond
 * holds; -ETIMEDOUT; -EINTR for a stop or a failure.
 */
static int wait_until(struct ctl *c, bool (*cond)(struct ctl *), int64_t deadline_ns,
		      int poll_ms)
{
	struct pollfd p = { .fd = rt_reaper_fd(&c->reaper), .events = POLLIN };

	for (;;) {
		take_signals(c);
		if (c->stop || c->failed)
			return -EINTR;
		if (cond(c))
			return 0;
		if (rt_time_mono_ns() >= deadline_ns)
			return -ETIMEDOUT;
		if (poll(&p, 1, poll_ms) < 0 && errno != EINTR)
			return -errno;
	}
}

/* Fork the process of role: 0 or a negative errno (printed, c->failed). */
static int start(struct ctl *c, enum pip_role role)
{
	pid_t pid;

	fflush(stdout); /* the children must not inherit unwritten output */
	fflush(stderr);
	pid = rt_reaper_fork(&c->reaper, (int)role, role_names[role]);
	if (pid < 0) {
		rt_prog_error_errno(-pid, "cannot create the %s priority process",
				    role_names[role]);
		c->failed = true;
		return pid;
	}
	if (pid == 0)
		child_main(c, role);
	c->pid[role] = pid;
	return 0;
}

/* Kill the three and reap them: SIGKILL ends a process at once (a bound, not a wait). */
static void end_all(struct ctl *c)
{
	c->killing = true;
	if (rt_reaper_stop(&c->reaper, SIGKILL, 0, reaped, c))
		rt_prog_error("a process did not end after SIGKILL");
}

static int init_mutex(pthread_mutex_t *m, bool pi)
{
	pthread_mutexattr_t attr;
	int err;

	if ((err = pthread_mutexattr_init(&attr)))
		return -err;
	err = pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	if (!err)
		err = pthread_mutexattr_setprotocol(&attr, pi ? PTHREAD_PRIO_INHERIT
							     : PTHREAD_PRIO_NONE);
	if (!err)
		err = pthread_mutex_init(m, &attr);
	pthread_mutexattr_destroy(&attr);
	return -err;
}

/* The first CPU this process may use: 2.4 took CPU 0 whatever taskset said. */
static int first_allowed_cpu(void)
{
	struct rt_cpulist allowed;
	int err = rt_affinity_allowed(&allowed);

	if (err)
		return err;
	return allowed.count ? allowed.cpu[0] : -ENOENT;
}

static const char *step_name(enum pip_role role)
{
	switch (role) {
	case PIP_LOW: return "the low priority process did not take the mutex";
	case PIP_HIGH: return "the high priority process did not block on the mutex";
	default: return "the processes did not end";
	}
}

/* Create the three in order and wait for them; fills res from the shared page. */
static void run_test(struct ctl *c)
{
	struct { enum pip_role role; bool (*cond)(struct ctl *); } steps[] = {
		{ PIP_LOW, low_locked }, { PIP_HIGH, high_blocked },
	};
	int err;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (start(c, steps[i].role))
			return;
		err = wait_until(c, steps[i].cond, rt_time_mono_ns() + SETUP_TIMEOUT_NS, POLL_MS);
		if (err == -ETIMEDOUT) {
			rt_prog_error("%s within %lld s", step_name(steps[i].role),
				      SETUP_TIMEOUT_NS / RT_NSEC_PER_SEC);
			c->failed = true;
		}
		if (err)
			return;
	}
	if (start(c, PIP_MEDIUM))
		return;
	err = wait_until(c, done, rt_time_mono_ns() + c->cfg->work_ms * 1000000LL + END_GRACE_NS,
			 END_POLL_MS);
	if (err == -ETIMEDOUT) {
		rt_prog_error("%s within %lld ms of the medium priority process's start",
			      step_name(PIP_MEDIUM),
			      c->cfg->work_ms + END_GRACE_NS / 1000000LL);
		c->failed = true;
	}
}

static void fill_result(const struct ctl *c, struct pip_result *res)
{
	const struct shared *sh = c->sh;
	int got = load(&sh->high_got);

	for (int r = 0; r < PIP_ROLES; r++) {
		res->policy[r] = sh->policy[r];
		res->prio[r] = sh->prio[r];
	}
	res->low_prio_at_unlock = sh->low_prio_at_unlock;
	res->high_blocked = c->pid[PIP_MEDIUM] > 0;
	res->medium_started = load(&sh->medium_started);
	res->medium_finished = got ? sh->finished_at_got : load(&sh->medium_finished);
	if (got)
		res->high_wait_ns = sh->high_got_ns - sh->high_request_ns;
	if (got && res->medium_started && !sh->finished_at_got)
		res->medium_ran_ns = sh->high_got_ns - sh->medium_start_ns;
	else if (load(&sh->medium_finished))
		res->medium_ran_ns = sh->medium_end_ns - sh->medium_start_ns;
	res->stop_signal = c->stop;
	if (c->failed)
		res->outcome = PIP_ERROR;
	else if (!got || !c->pid[PIP_MEDIUM])
		res->outcome = PIP_STOPPED;
	else if (!sh->started_at_got)
		res->outcome = PIP_NO_INVERSION;
	else
		res->outcome = sh->finished_at_got ? PIP_UNRESOLVED : PIP_RESOLVED;
}

int pip_run(const struct pip_config *cfg, const sigset_t *signals, struct pip_result *res)
{
	struct ctl c = { .cfg = cfg };
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	int err;

	*res = (struct pip_result){ .outcome = PIP_ERROR, .cpu = -1, .low_prio_at_unlock = -1,
				    .high_wait_ns = -1, .medium_ran_ns = -1,
				    .policy = { -1, -1, -1 }, .prio = { -1, -1, -1 } };
	if (len < sizeof(struct shared))
		len = sizeof(struct shared);
	c.cpu = first_allowed_cpu();
	if (c.cpu < 0) {
		rt_prog_error_errno(-c.cpu, "cannot read the allowed CPUs");
		return RT_EXIT_FAILURE;
	}
	res->cpu = c.cpu;
	if ((err = rt_reaper_init(&c.reaper, signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		rt_reaper_destroy(&c.reaper);
		return RT_EXIT_FAILURE;
	}
	c.sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c.sh == MAP_FAILED) {
		rt_prog_error_errno(errno, "cannot map the shared memory");
		rt_reaper_destroy(&c.reaper);
		return RT_EXIT_FAILURE;
	}
	memset(c.sh, 0, sizeof(*c.sh));
	for (int r = 0; r < PIP_ROLES; r++)
		c.sh->policy[r] = c.sh->prio[r] = -1;
	c.sh->low_prio_at_unlock = -1;
	if ((err = init_mutex(&c.sh->mutex, !cfg->no_pi))) {
		rt_prog_error_errno(-err, "cannot create a process-shared %s mutex",
				    cfg->no_pi ? "plain" : "priority inheritance");
	} else if ((err = rt_sched_set(0, SCHED_FIFO, PIP_PRIO_PARENT))) {
		rt_prog_error_errno(-err, "cannot set SCHED_FIFO priority %d", PIP_PRIO_PARENT);
	} else {
		take_signals(&c); /* a signal that came before the start */
		if (!c.stop)
			run_test(&c);
		end_all(&c);
		fill_result(&c, res);
		pthread_mutex_destroy(&c.sh->mutex);
	}
	munmap(c.sh, len);
	rt_reaper_destroy(&c.reaper);
	if (err)
		return RT_EXIT_FAILURE;
	return res->outcome == PIP_ERROR ? RT_EXIT_FAILURE : RT_EXIT_OK;
}
