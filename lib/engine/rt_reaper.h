/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one reaper of forked children (hackbench, pip_stress, ssdd, the pair
 * tools' -f, rt-qualify): children die with their parent (PR_SET_PDEATHSIG:
 * SIGKILL, or the caller's death_signal), SIGCHLD
 * and the control signals arrive on one signalfd the tool may poll beside
 * its own descriptors, every death is named (which child, how it died),
 * and the stop ends every child within a bound: a polite signal, then
 * SIGKILL. Returns 0 or a negative errno and never prints.
 */
#ifndef RT_REAPER_H
#define RT_REAPER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The code of a child someone else reaped: it ended, how is lost (never a success). */
#define RT_REAPER_UNKNOWN 0

/* How long rt_reaper_stop() waits for the SIGKILLed (a stopped or traced child may linger). */
#define RT_REAPER_KILL_WAIT_NS (2 * 1000 * 1000 * 1000LL)

struct rt_reaper_child {
	pid_t pid;
	int index;            /* the tool's number for it (worker, pair, task) */
	char name[40];        /* "sender 3", "tracer 1": for the messages */
	bool ended;           /* seen dead */
	bool reaped;          /* its pid is free again */
	bool killed;          /* by rt_reaper_stop's SIGKILL: it did not stop in time */
	int code;             /* CLD_EXITED, CLD_KILLED, CLD_DUMPED or RT_REAPER_UNKNOWN */
	int status;           /* exit status or signal number */
	struct rusage ru;     /* wait4's: its and its reaped descendants' usage, once reaped */
};

struct rt_reaper_key {
	pid_t pid;
	size_t i;             /* into child[] */
};

/* The children rt_reaper_fork made are its own; it never reaps another child. */
struct rt_reaper {
	int fd;               /* signalfd: SIGCHLD and the tool's control signals */
	sigset_t set;         /* what fd takes (blocked in the caller) */
	sigset_t old_mask;    /* the mask before rt_reaper_init, for the children */
	int stop_signal;      /* the first SIGINT or SIGTERM read, 0 none */
	int death_signal;     /* the children's PR_SET_PDEATHSIG: SIGKILL unless the caller sets it */
	size_t n, cap;
	struct rt_reaper_child *child;
	struct rt_reaper_key *by_pid; /* sorted by pid unless unsorted */
	bool unsorted;
};

/* Called for every child seen dead (not for those a stop killed on purpose: see killed). */
typedef void (*rt_reaper_death_fn)(void *ctx, const struct rt_reaper_child *c);

/*
 * Block SIGCHLD and signals (may be NULL: none beyond SIGCHLD) in the
 * calling thread and open a non-blocking signalfd on them. 0 or -errno.
 */
int rt_reaper_init(struct rt_reaper *r, const sigset_t *signals);

/* Close the signalfd (children still alive are the caller's business: rt_reaper_stop). */
void rt_reaper_destroy(struct rt_reaper *r);

/* The descriptor to poll for POLLIN beside the tool's own. */
static inline int rt_reaper_fd(const struct rt_reaper *r)
{
	return r->fd;
}

/*
 * fork(): in the parent the child's pid (> 0), recorded as index/name;
 * in the child 0, with PR_SET_PDEATHSIG(r->death_signal) set, the signalfd closed
 * and the signal mask of before rt_reaper_init restored (if the parent is
 * already gone the child exits at once, status 1). -errno on failure.
 */
pid_t rt_reaper_fork(struct rt_reaper *r, int index, const char *name);

/*
 * Read the signalfd empty: the first SIGINT or SIGTERM becomes stop_signal
 * (returned, 0 when none so far); then collect the dead (rt_reaper_collect
 * without keep). Other signals are read and ignored.
 */
int rt_reaper_take_signals(struct rt_reaper *r, rt_reaper_death_fn on_death, void *ctx);

/*
 * See which children have died and call on_death (may be NULL) for each
 * newly seen. keep: leave them zombies (their pids cannot be reused until
 * rt_reaper_stop reaps them, so a later kill reaches nobody else).
 * Returns how many were newly seen, or -errno.
 */
int rt_reaper_collect(struct rt_reaper *r, bool keep, rt_reaper_death_fn on_death, void *ctx);

/* Children not reaped yet (alive, or zombies kept by rt_reaper_collect(keep)). */
size_t rt_reaper_alive(const struct rt_reaper *r);

/*
 * End every child within a bound: send sig (SIGTERM; 0 sends nothing and
 * only waits, e.g. for children already told to stop) to the living, wait
 * up to grace_ns for them to end, SIGKILL the rest (marked killed) and reap
 * all. on_death sees every child that ends here. 0, or -ETIMEDOUT when a
 * child survived SIGKILL for RT_REAPER_KILL_WAIT_NS (e.g. stopped in D state).
 */
int rt_reaper_stop(struct rt_reaper *r, int sig, int64_t grace_ns, rt_reaper_death_fn on_death,
		   void *ctx);

/*
 * End one child within a bound and reap it, the others left running: as
 * rt_reaper_stop for pid alone (sig 0: only wait). on_death sees it if it
 * had not been seen dead. 0, -ESRCH when pid is not the reaper's, or
 * -ETIMEDOUT as rt_reaper_stop.
 */
int rt_reaper_stop_one(struct rt_reaper *r, pid_t pid, int sig, int64_t grace_ns,
		       rt_reaper_death_fn on_death, void *ctx);

/* Forget the children already reaped (a tool that forks anew each round keeps the list short). */
void rt_reaper_forget_reaped(struct rt_reaper *r);

/*
 * The same, one child at a time, for a caller that keeps its own table
 * (rt_workers' fork mode, whose table lives in a shared mapping):
 * rt_reaper_fork_one() is fork() with PR_SET_PDEATHSIG(SIGKILL) (pid in
 * the parent, 0 in the child, which exits 1 if the parent is already gone;
 * -errno); rt_reaper_peek() says whether pid died (1, c filled, the zombie
 * kept; 0 alive; -errno); rt_reaper_reap() waits for pid and reaps it
 * (0, c filled; -errno).
 */
pid_t rt_reaper_fork_one(void);
int rt_reaper_peek(pid_t pid, struct rt_reaper_child *c);
int rt_reaper_reap(pid_t pid, struct rt_reaper_child *c);

/* "killed by signal 9 (Killed)", "exited with status 1", "dumped core on signal 11 (...)". */
void rt_reaper_describe(const struct rt_reaper_child *c, char *buf, size_t len);

/* The child of pid, or NULL. */
const struct rt_reaper_child *rt_reaper_find(struct rt_reaper *r, pid_t pid);

/* A shell's exit code: the status, 128 + the signal that killed it; -1 while not ended or unknown. */
static inline int rt_reaper_exit_code(const struct rt_reaper_child *c)
{
	if (!c->ended)
		return -1;
	if (c->code == CLD_EXITED)
		return c->status;
	return c->code == CLD_KILLED || c->code == CLD_DUMPED ? 128 + c->status : -1;
}

/* Ended otherwise than by exit(0): a crash, a kill, an error status, or unknown. */
static inline bool rt_reaper_failed(const struct rt_reaper_child *c)
{
	return c->ended && (c->code != CLD_EXITED || c->status != 0);
}

#endif
