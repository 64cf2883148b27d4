// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rt_prog.h"
#include "rt_reaper.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"

#include "run.h"

/* A receiver reads at most this much at once (a socket or pipe returns less anyway). */
#define RECV_CHUNK_MAX ((size_t)4 << 20)
/* Each receiver's progress counter on a cache line of its own. */
#define PROGRESS_STRIDE 8
/* Thread stacks: the buffers are on the heap. */
#define THREAD_STACK (64 * 1024)
/* Descriptors beyond the channels: stdio, eventfds, signalfd, --json, a listener. */
#define FD_RESERVE 32

struct hb_worker {
	bool sender;
	int in_fd;            /* receiver: its channel's read end */
	const int *out_fds;   /* sender: the group's write ends */
	int nout;
	uint64_t loops;       /* sender */
	uint64_t bytes;       /* receiver: everything it must read */
	uint64_t *progress;   /* receiver: bytes read so far (shared mapping) */
	char *buf;
	size_t buf_len;
	size_t size;          /* message size */
	int ready_fd, start_fd, done_fd;
	pid_t pid;            /* process mode */
	bool reaped;
	pthread_t thread;     /* thread mode */
	bool created;
	const _Atomic int *stop; /* thread mode: set when the workers must end */
	bool joined;          /* thread mode */
	int err;              /* a failed read or write: a negative errno */
	const char *what;
};

struct round {
	const struct hackbench_config *cfg;
	struct hb_worker *w;
	uint64_t nw, created, ready, done;
	int *rx, *tx;          /* per receiver of all groups; -1 once closed */
	uint64_t nrx;
	uint64_t *progress;
	size_t progress_len;
	char *send_buf;        /* thread mode: shared by the senders (read only) */
	int ready_fd, start_fd, done_fd, sig_fd;
	struct rt_reaper *reaper; /* the workers (process mode) and the signals */
	int64_t deadline_ns;   /* CLOCK_MONOTONIC, 0 = none */
	int stop;              /* SIGINT/SIGTERM, -1 for the deadline, 0 */
	bool failed, started, killing;
	_Atomic int stop_threads; /* thread mode: the workers leave at their next wake-up */
	bool abandoned;       /* thread mode: workers that did not end keep the round's memory */
};


int hackbench_check_fd_limit(const struct hackbench_config *cfg, uint64_t *needed,
			     uint64_t *limit)
{
	struct rlimit rl;
	uint64_t channels = cfg->threads ? (uint64_t)cfg->groups * (uint64_t)cfg->fds
					 : (uint64_t)cfg->fds;

	*needed = 2 * channels + FD_RESERVE;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	*limit = rl.rlim_cur;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= *needed)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < *needed) {
		*limit = rl.rlim_max;
		return -EMFILE;
	}
	rl.rlim_cur = *needed;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -EMFILE;
	*limit = rl.rlim_cur;
	return 0;
}

/* ------------------------------------------------------------ the workers */

/* Woken by RT_SIGNAL_WAKE (EINTR) in thread mode: leave when the round stops. */
static bool told_to_stop(const struct hb_worker *w)
{
	return w->stop && atomic_load(w->stop);
}

/* The worker functions return 0 (done, or told to stop) or a negative errno (w->what). */
static int wait_start(struct hb_worker *w)
{
	uint64_t one = 1;
	struct pollfd p = { .fd = w->start_fd, .events = POLLIN };

	if (write(w->ready_fd, &one, sizeof(one)) != (ssize_t)sizeof(one)) {
		w->what = "write to the parent";
		return errno ? -errno : -EIO;
	}
	while (poll(&p, 1, -1) < 0) {
		if (errno != EINTR) {
			w->what = "poll";
			return -errno;
		}
		if (told_to_stop(w))
			return 1; /* not an error: no work */
	}
	return 0;
}

static int receive(struct hb_worker *w)
{
	uint64_t got = 0;

	while (got < w->bytes) {
		uint64_t left = w->bytes - got;
		ssize_t n = read(w->in_fd, w->buf, left < w->buf_len ? (size_t)left : w->buf_len);

		if (n > 0) {
			got += (uint64_t)n;
			__atomic_store_n(w->progress, got, __ATOMIC_RELAXED);
		} else if (n == 0) {
			w->what = "read (end of stream)";
			return -EPIPE;
		} else if (errno != EINTR) {
			w->what = "read";
			return -errno;
		} else if (told_to_stop(w)) {
			return 0;
		}
	}
	return 0;
}

static int send_all(struct hb_worker *w)
{
	for (uint64_t i = 0; i < w->loops; i++) {
		for (int j = 0; j < w->nout; j++) {
			size_t off = 0;

			while (off < w->size) {
				ssize_t n = write(w->out_fds[j], w->buf + off, w->size - off);

				if (n > 0) {
					off += (size_t)n;
				} else if (n == 0 || errno != EINTR) {
					w->what = "write";
					return n ? -errno : -EIO;
				} else if (told_to_stop(w)) {
					return 0;
				}
			}
		}
	}
	return 0;
}

static int work(struct hb_worker *w)
{
	int err = wait_start(w);

	if (err)
		return err > 0 ? 0 : err;
	return w->sender ? send_all(w) : receive(w);
}

/* err: a negative errno. */
static void worker_error(const struct hb_worker *w, uint64_t index, int err)
{
	rt_prog_error_errno(-err, "%s %llu: %s failed", w->sender ? "sender" : "receiver",
			    (unsigned long long)index, w->what ? w->what : "set-up");
}

/* A worker process (dying with its parent: rt_reaper_fork): takes signals again, runs, exits. */
static void child_main(struct hb_worker *w, uint64_t index)
{
	sigset_t none;
	int err;

	signal(SIGHUP, SIG_IGN); /* as 2.4 */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	w->buf = malloc(w->buf_len);
	if (!w->buf) {
		w->what = "allocating the message buffer";
		worker_error(w, index, -ENOMEM);
		_exit(RT_EXIT_FAILURE);
	}
	memset(w->buf, 'h', w->buf_len); /* faulted in before the start */
	if ((err = work(w))) {
		worker_error(w, index, err);
		_exit(RT_EXIT_FAILURE);
	}
	_exit(RT_EXIT_OK);
}

static void *thread_main(void *arg)
{
	struct hb_worker *w = arg;
	uint64_t one = 1;

	w->err = work(w);
	if (write(w->done_fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		w->err = w->err ? w->err : -EIO;
	return NULL;
}

/* ------------------------------------------------------------ set-up */

static int open_channel(const struct hackbench_config *cfg, int *rx, int *tx)
{
	int fds[2], l, err;
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);

	switch (cfg->transport) {
	case HB_PIPE:
		if (pipe2(fds, O_CLOEXEC))
			return -errno;
		break;
	case HB_SOCKET:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
			return -errno;
		break;
	case HB_INET:
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (l < 0)
			return -errno;
		fds[1] = -1;
		if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
		    getsockname(l, (struct sockaddr *)&a, &alen) ||
		    (fds[1] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
		    connect(fds[1], (struct sockaddr *)&a, sizeof(a)) ||
		    (fds[0] = accept4(l, NULL, NULL, SOCK_CLOEXEC)) < 0) {
			err = -errno;
			if (fds[1] >= 0)
				close(fds[1]);
			close(l);
			return err;
		}
		close(l);
		break;
	}
	*rx = fds[0];
	*tx = fds[1];
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_channels(struct round *r, uint64_t from, uint64_t to)
{
	for (uint64_t k = from; k < to; k++) {
		close_fd(&r->rx[k]);
		close_fd(&r->tx[k]);
	}
}

static int start_worker(struct round *r, uint64_t i)
{
	struct hb_worker *w = &r->w[i];
	pthread_attr_t attr;
	pid_t pid;
	int err;

	if (!r->cfg->threads) {
		pid = rt_reaper_fork(r->reaper, (int)i, w->sender ? "sender" : "receiver");
		if (pid < 0)
			return pid;
		if (pid == 0)
			child_main(w, i);
		w->pid = pid;
		w->created = true;
		return 0;
	}
	if ((err = pthread_attr_init(&attr)))
		return -err;
	err = pthread_attr_setstacksize(&attr, THREAD_STACK > PTHREAD_STACK_MIN ? THREAD_STACK
										 : PTHREAD_STACK_MIN);
	if (!err)
		err = pthread_create(&w->thread, &attr, thread_main, w);
	pthread_attr_destroy(&attr);
	if (err)
		return -err;
	w->created = true;
	return 0;
}

/* One group's channels and workers: receivers first, then senders. */
static int create_group(struct round *r, int g)
{
	const struct hackbench_config *cfg = r->cfg;
	uint64_t first = (uint64_t)g * (uint64_t)cfg->fds;
	size_t size = (size_t)cfg->datasize;
	int err;

	for (int k = 0; k < cfg->fds; k++)
		if ((err = open_channel(cfg, &r->rx[first + k], &r->tx[first + k]))) {
			rt_prog_error_errno(-err, "cannot create the %s of group %d",
					    cfg->transport == HB_PIPE ? "pipes" : "sockets", g);
			return err;
		}
	for (int k = 0; k < 2 * cfg->fds; k++) {
		uint64_t i = 2 * first + (uint64_t)k;
		struct hb_worker *w = &r->w[i];

		*w = (struct hb_worker){
			.sender = k >= cfg->fds, .size = size,
			.ready_fd = r->ready_fd, .start_fd = r->start_fd, .done_fd = r->done_fd,
			.stop = &r->stop_threads,
		};
		if (w->sender) {
			w->out_fds = &r->tx[first];
			w->nout = cfg->fds;
			w->loops = cfg->loops;
			w->buf = r->send_buf;
			w->buf_len = size;
		} else {
			w->in_fd = r->rx[first + (uint64_t)k];
			w->bytes = cfg->loops * (uint64_t)cfg->fds * cfg->datasize;
			w->progress = &r->progress[(first + (uint64_t)k) * PROGRESS_STRIDE];
			w->buf_len = size < RECV_CHUNK_MAX ? size : RECV_CHUNK_MAX;
			if (cfg->threads && !(w->buf = calloc(1, w->buf_len))) {
				rt_prog_error_errno(ENOMEM, "cannot allocate the message buffers");
				return -ENOMEM;
			}
		}
		if ((err = start_worker(r, i))) {
			rt_prog_error_errno(-err, "cannot create worker %llu of %llu (%s)",
					    (unsigned long long)i + 1, (unsigned long long)r->nw,
					    cfg->threads ? "thread" : "process");
			return err;
		}
		r->created++;
	}
	if (!cfg->threads) /* the workers have their copies */
		close_channels(r, first, first + (uint64_t)cfg->fds);
	return 0;
}

/* ------------------------------------------------------------ waiting */

/* A worker process seen dead (rt_reaper): counted done; named when it failed. */
static void reaped(void *ctx, const struct rt_reaper_child *c)
{
	struct round *r = ctx;
	struct hb_worker *w;
	char how[96];

	if (c->index < 0 || (uint64_t)c->index >= r->created)
		return;
	w = &r->w[c->index];
	w->reaped = true;
	r->done++;
	if (r->killing || r->stop || (!rt_reaper_failed(c) && r->started))
		return;
	rt_reaper_describe(c, how, sizeof(how));
	if (!r->failed)
		rt_prog_error("%s %d (pid %d) %s%s", c->name, c->index, (int)c->pid, how,
			      r->started ? "" : " before the start");
	r->failed = true;
}

static void reap_some(struct round *r)
{
	rt_reaper_collect(r->reaper, false, reaped, r);
}

static void take_signal(struct round *r)
{
	/* SIGCHLD: the dead are reaped here; SIGHUP and the others are ignored (as 2.4) */
	int sig = rt_reaper_take_signals(r->reaper, r->cfg->threads ? NULL : reaped, r);

	if (sig && !r->stop)
		r->stop = sig;
}

/* SIGINT or SIGTERM waiting, or the deadline passed? (A SIGCHLD read here is reaped later.) */
static void poll_signals(struct round *r, int timeout_ms)
{
	struct pollfd p = { .fd = r->sig_fd, .events = POLLIN };

	if (poll(&p, 1, timeout_ms) > 0)
		take_signal(r);
	if (r->deadline_ns && !r->stop && rt_time_mono_ns() >= r->deadline_ns)
		r->stop = -1;
}

/*
 * Until *count reaches target: fd (an eventfd, or -1) adds to *count; in
 * process mode a reaped worker counts in r->done. Returns early on a stop
 * (signal, deadline) or a failed worker.
 */
static void wait_for(struct round *r, int fd, uint64_t *count, uint64_t target)
{
	struct pollfd p[2] = { { .fd = r->sig_fd, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
	uint64_t v;

	if (!r->cfg->threads)
		reap_some(r);
	while (*count < target && !r->stop && !r->failed) {
		int timeout = -1;

		if (r->deadline_ns) {
			int64_t left = r->deadline_ns - rt_time_mono_ns();

			if (left <= 0) {
				r->stop = -1;
				break;
			}
			timeout = (int)((left + 999999) / 1000000);
		}
		if (poll(p, fd >= 0 ? 2 : 1, timeout) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			take_signal(r);
		if (fd >= 0 && p[1].revents && read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
			*count += v;
		if (r->deadline_ns && !r->stop && rt_time_mono_ns() >= r->deadline_ns)
			r->stop = -1;
	}
}

/* A worker that ended on its own finishes within this after the round. */
#define END_GRACE_NS (5 * RT_NSEC_PER_SEC)

/* How often the stop wakes worker threads that have not left yet. */
#define WAKE_RETRY_NS (20 * 1000 * 1000LL)

/*
 * Thread mode: join every worker within END_GRACE_NS; to stop them, a flag
 * and RT_SIGNAL_WAKE (its handler does nothing, so a blocked read or write
 * returns EINTR and the worker sees the flag), again until each has left:
 * no pthread_cancel (under qemu-user a cancelled thread blocked in read()
 * was seen never to end). Workers that do not end are left to the process
 * exit, with the round's memory (abandoned).
 */
static void end_threads(struct round *r, bool stop_them)
{
	int64_t give_up = rt_time_mono_ns() + END_GRACE_NS;
	struct timespec nap = rt_time_from_ns(WAKE_RETRY_NS);

	if (stop_them)
		atomic_store(&r->stop_threads, 1);
	for (;;) {
		uint64_t left = 0;

		for (uint64_t i = 0; i < r->created; i++) {
			struct hb_worker *w = &r->w[i];

			if (w->joined || pthread_tryjoin_np(w->thread, NULL) == 0) {
				w->joined = true;
				continue;
			}
			left++;
			if (stop_them)
				pthread_kill(w->thread, RT_SIGNAL_WAKE);
		}
		if (!left)
			return;
		if (rt_time_mono_ns() >= give_up) {
			rt_prog_error("%llu worker threads did not end within %lld s (the process exit "
				      "ends them)", (unsigned long long)left,
				      END_GRACE_NS / RT_NSEC_PER_SEC);
			r->failed = true;
			r->abandoned = true;
			return;
		}
		nanosleep(&nap, NULL);
	}
}

/* Every worker that still runs is killed (or stopped) and reaped (joined). */
static void end_workers(struct round *r, bool kill_them)
{
	r->killing = kill_them;
	if (!r->cfg->threads) {
		/* a worker left after the grace is killed: the stop is bounded */
		if (rt_reaper_stop(r->reaper, kill_them ? SIGKILL : 0, END_GRACE_NS, reaped, r))
			rt_prog_error("a worker process did not end after SIGKILL");
		rt_reaper_forget_reaped(r->reaper);
		return;
	}
	end_threads(r, kill_them);
}

/* ------------------------------------------------------------ a round */

static int round_alloc(struct round *r)
{
	const struct hackbench_config *cfg = r->cfg;

	r->nw = hackbench_tasks(cfg);
	r->nrx = (uint64_t)cfg->groups * (uint64_t)cfg->fds;
	r->w = calloc((size_t)r->nw, sizeof(*r->w));
	r->rx = malloc((size_t)r->nrx * sizeof(int));
	r->tx = malloc((size_t)r->nrx * sizeof(int));
	r->progress_len = (size_t)r->nrx * PROGRESS_STRIDE * sizeof(uint64_t);
	r->progress = mmap(NULL, r->progress_len, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->progress == MAP_FAILED)
		r->progress = NULL;
	if (cfg->threads)
		r->send_buf = malloc((size_t)cfg->datasize);
	if (!r->w || !r->rx || !r->tx || !r->progress || (cfg->threads && !r->send_buf))
		return -ENOMEM;
	if (r->send_buf)
		memset(r->send_buf, 'h', (size_t)cfg->datasize);
	for (uint64_t k = 0; k < r->nrx; k++)
		r->rx[k] = r->tx[k] = -1;
	r->ready_fd = eventfd(0, EFD_CLOEXEC);
	r->start_fd = eventfd(0, EFD_CLOEXEC);
	r->done_fd = eventfd(0, EFD_CLOEXEC);
	if (r->ready_fd < 0 || r->start_fd < 0 || r->done_fd < 0)
		return -errno;
	return 0;
}

static void round_free(struct round *r)
{
	if (r->abandoned)
		return; /* threads that did not end still use it: the process exit frees it */
	if (r->rx && r->tx)
		close_channels(r, 0, r->nrx);
	if (r->w && r->cfg->threads)
		for (uint64_t i = 0; i < r->nw; i++)
			if (!r->w[i].sender)
				free(r->w[i].buf);
	free(r->w);
	free(r->rx);
	free(r->tx);
	free(r->send_buf);
	if (r->progress)
		munmap(r->progress, r->progress_len);
	close_fd(&r->ready_fd);
	close_fd(&r->start_fd);
	close_fd(&r->done_fd);
}

static uint64_t messages_received(const struct round *r)
{
	uint64_t m = 0;

	for (uint64_t k = 0; k < r->nrx; k++)
		m += __atomic_load_n(&r->progress[k * PROGRESS_STRIDE], __ATOMIC_RELAXED) /
		     r->cfg->datasize;
	return m;
}

/* One round; fills *out when it started. 0 or RT_EXIT_FAILURE. */
static int one_round(struct round *r, struct hb_result *res, struct hb_round *out)
{
	const struct hackbench_config *cfg = r->cfg;
	int64_t start_ns = 0, end_ns;
	uint64_t one = 1, finished;
	int err, policy = -1, prio = 0; /* before -F */

	if ((err = round_alloc(r))) {
		rt_prog_error_errno(-err, "cannot set up the run");
		return RT_EXIT_FAILURE;
	}
	fflush(stdout); /* the children must not inherit unwritten output */
	for (int g = 0; g < cfg->groups && !r->stop; g++) {
		if (create_group(r, g)) {
			r->failed = true;
			break;
		}
		poll_signals(r, 0);
	}
	if (!r->failed && !r->stop && cfg->fifo) {
		if ((err = rt_sched_get(0, &policy, &prio)) ||
		    (err = rt_sched_set(0, SCHED_FIFO, 1))) {
			rt_prog_error_errno(-err, "cannot switch the main thread to SCHED_FIFO 1");
			r->failed = true;
		} else {
			res->fifo_main = true;
		}
	}
	if (!r->failed && !r->stop)
		wait_for(r, r->ready_fd, &r->ready, r->nw);
	if (!r->failed && !r->stop) {
		start_ns = rt_time_mono_ns();
		r->started = true;
		if (write(r->start_fd, &one, sizeof(one)) != (ssize_t)sizeof(one)) {
			rt_prog_error_errno(errno, "cannot start the workers");
			r->failed = true;
		}
	}
	if (r->started && !r->failed)
		wait_for(r, cfg->threads ? r->done_fd : -1, &r->done, r->nw);
	finished = r->done; /* before end_workers() reaps the rest */
	end_workers(r, r->stop || r->failed || !r->started);
	end_ns = rt_time_mono_ns();
	/* the next round's workers must not inherit -F's policy */
	if (policy >= 0 && (err = rt_sched_set(0, policy, prio)) && !r->failed) {
		rt_prog_error_errno(-err, "cannot switch the main thread back to its policy");
		r->failed = true;
	}
	if (cfg->threads)
		for (uint64_t i = 0; i < r->created && !r->stop; i++)
			if (r->w[i].err && !r->failed) {
				worker_error(&r->w[i], i, r->w[i].err);
				r->failed = true;
			}
	if (r->stop > 0)
		res->stop_signal = r->stop;
	if (r->stop < 0)
		res->duration_over = true;
	if (r->started && !r->failed) {
		bool completed = finished == r->nw;

		*out = (struct hb_round){
			.time_ns = end_ns - start_ns,
			.messages = completed ? hackbench_messages(cfg) : messages_received(r),
			.completed = completed,
			.signalled = completed ? 0 : r->created,
		};
	}
	return r->failed ? RT_EXIT_FAILURE : RT_EXIT_OK;
}

int hackbench_run(const struct hackbench_config *cfg, const sigset_t *signals,
		  struct hb_result *res, hb_round_cb cb, void *ctx)
{
	struct rt_reaper reaper;
	int64_t deadline_ns = cfg->duration_s ? rt_time_mono_ns() + (int64_t)cfg->duration_s *
							       RT_NSEC_PER_SEC : 0;
	int rc = RT_EXIT_OK, cap = 0, err;

	memset(res, 0, sizeof(*res));
	res->workers_policy = rt_sched_policy_in_force();
	/* a write to a channel whose reader is gone is an error, not the end of hackbench */
	signal(SIGPIPE, SIG_IGN);
	if ((err = rt_reaper_init(&reaper, signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		rt_reaper_destroy(&reaper);
		return RT_EXIT_FAILURE;
	}
	for (;;) {
		struct round r = { .cfg = cfg, .ready_fd = -1, .start_fd = -1, .done_fd = -1,
				   .sig_fd = rt_reaper_fd(&reaper), .reaper = &reaper,
				   .deadline_ns = deadline_ns };
		struct hb_round out = { .time_ns = -1 };

		rc = one_round(&r, res, &out);
		round_free(&r);
		if (out.time_ns >= 0) {
			if (res->nrounds == cap) {
				struct hb_round *n;

				cap = cap ? 2 * cap : 16;
				n = realloc(res->rounds, (size_t)cap * sizeof(*n));
				if (!n) {
					rt_prog_error_errno(ENOMEM, "cannot record the rounds");
					rc = RT_EXIT_FAILURE;
					break;
				}
				res->rounds = n;
			}
			res->rounds[res->nrounds++] = out;
			if (cb)
				cb(ctx, res, &out);
		}
		if (rc || r.stop || !cfg->duration_s)
			break;
	}
	res->not_started = res->nrounds == 0 && rc == RT_EXIT_OK;
	rt_reaper_destroy(&reaper);
	return rc;
}
