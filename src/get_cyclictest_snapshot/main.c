// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * get_cyclictest_snapshot: list the running cyclictests, have them write a
 * status snapshot (SIGUSR2) and print it. Compatible with rt-tests 2.4's
 * Python script (see NEWS for what differs).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_owner.h"
#include "rt_prog.h"
#include "rt_tool.h"

#include "instance.h"
#include "options.h"
#include "reader.h"
#include "snap.h"

#define NOT_FOUND "No cyclictest instance found"

struct gcs_run {
	struct gcs_instance *found; /* the objects of /dev/shm, checked */
	size_t nfound;
	bool warned;                /* NOT_FOUND printed (once, as 2.4) */
	int rc;
};

static void not_found(struct gcs_run *r)
{
	if (!r->warned)
		puts(NOT_FOUND);
	r->warned = true;
}

/* Why in is not an instance, one line on stderr (once). */
static void explain(struct gcs_instance *in, bool stale_note)
{
	const char *p = GCS_SHM_DIR;
	char prefix[RT_OWNER_PREFIX_MAX];
	struct rt_owner self;

	rt_owner_self(&self);
	rt_owner_prefix(prefix, &self); /* the name our cyclictest gives its object */

	if (in->reported)
		return;
	in->reported = true;
	switch (in->state) {
	case GCS_LIVE: break;
	case GCS_GONE:
		rt_prog_error("%s/%s is stale: process %d is gone%s", p, in->name, (int)in->pid,
			      stale_note ? " (not signalled)" : "");
		break;
	case GCS_NOT_CYCLICTEST:
		if (in->name[0])
			rt_prog_error("%s/%s is stale: process %d is '%s', not cyclictest%s", p,
				      in->name, (int)in->pid, in->comm,
				      stale_note ? " (not signalled)" : "");
		else
			rt_prog_error("%d: not a cyclictest (process %d is '%s')", (int)in->pid,
				      (int)in->pid, in->comm);
		break;
	case GCS_NOT_HELD:
		rt_prog_error("%s/%s is stale: cyclictest %d does not hold it%s", p, in->name,
			      (int)in->pid, stale_note ? " (not signalled)" : "");
		break;
	case GCS_NO_ACCESS:
		rt_prog_error_errno(in->err, "%d: cannot check the process", (int)in->pid);
		break;
	case GCS_NO_OBJECT:
		if (in->comm[0])
			rt_prog_error("%d: cyclictest without a status object %s/%scyclictest%d",
				      (int)in->pid, p, prefix, (int)in->pid);
		else
			rt_prog_error("%d: no such cyclictest instance (no process, no "
				      "%s/%scyclictest%d)", (int)in->pid, p, prefix, (int)in->pid);
		break;
	}
}

/* The instance of an explicit PID: its live object, else the reason, printed. */
static struct gcs_instance *lookup(struct gcs_run *r, pid_t pid, struct gcs_instance *tmp)
{
	struct gcs_instance *first = NULL;

	for (size_t i = 0; i < r->nfound; i++) {
		if (r->found[i].pid != pid)
			continue;
		if (r->found[i].state == GCS_LIVE)
			return &r->found[i];
		if (!first)
			first = &r->found[i];
	}
	if (!first) {
		memset(tmp, 0, sizeof(*tmp));
		tmp->pid = pid;
		gcs_check(GCS_SHM_DIR, tmp);
		first = tmp;
	}
	explain(first, true);
	r->rc = RT_EXIT_FAILURE;
	return NULL;
}

/* -l: the live ones (and those we may not inspect: 2.4 listed them); stale ones on stderr. */
static void list(struct gcs_run *r)
{
	size_t shown = 0;

	for (size_t i = 0; i < r->nfound; i++) {
		struct gcs_instance *in = &r->found[i];

		if (in->state == GCS_LIVE || in->state == GCS_NO_ACCESS) {
			printf("%d\n", (int)in->pid);
			shown++;
		}
	}
	if (!shown)
		not_found(r);
}

static void report_snap(struct gcs_run *r, const struct gcs_snap *s)
{
	struct gcs_instance *in = s->in;

	switch (s->result) {
	case GCS_SNAP_OK: return;
	case GCS_SNAP_NOT_LIVE: explain(in, true); break;
	case GCS_SNAP_NO_HANDLER:
		rt_prog_error("%d: cyclictest does not take SIGUSR2 (yet): not signalled",
			      (int)in->pid);
		break;
	case GCS_SNAP_SIGNAL:
		rt_prog_error_errno(s->err, "%d: cannot send SIGUSR2", (int)in->pid);
		break;
	case GCS_SNAP_OPEN:
		rt_prog_error_errno(s->err, "cannot open %s/%s", GCS_SHM_DIR, in->name);
		break;
	case GCS_SNAP_EXITED:
		rt_prog_error("%d: cyclictest ended before writing its snapshot", (int)in->pid);
		break;
	case GCS_SNAP_TIMEOUT:
		rt_prog_error("%d: no new snapshot in %s/%s within %d ms", (int)in->pid,
			      GCS_SHM_DIR, in->name, GCS_SNAP_WAIT_MS);
		break;
	}
	r->rc = RT_EXIT_FAILURE;
}

/* Print an object's block (NULs skipped) and a newline, as 2.4 does; a torn one is read again. */
static void print_one(struct gcs_run *r, const struct gcs_instance *in)
{
	char path[256];
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", GCS_SHM_DIR, in->name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		rt_prog_error_errno(errno, "cannot read %s", path);
		r->rc = RT_EXIT_FAILURE;
		if (fd >= 0)
			close(fd);
		return;
	}
	if (st.st_dev != in->dev || st.st_ino != in->ino) {
		rt_prog_error("%s was replaced since it was checked", path);
		r->rc = RT_EXIT_FAILURE;
		close(fd);
		return;
	}
	/* a snapshot being written: up to 100 ms for it to be whole */
	for (int try = 0; try < 20; try++) {
		free(text);
		text = NULL;
		if ((err = gcs_read_object(fd, &text, &len)) || len == 0 ||
		    gcs_block_complete(text, len))
			break;
		usleep(5000);
	}
	close(fd);
	if (err == -EILSEQ)
		rt_prog_error("%s holds bytes that are not a status block: not printed", path);
	else if (err == -EFBIG)
		rt_prog_error("%s is too large for a status block: not printed", path);
	else if (err)
		rt_prog_error_errno(-err, "cannot read %s", path);
	else
		printf("%s\n", text);
	if (err)
		r->rc = RT_EXIT_FAILURE;
	free(text);
}

/* The targets of -s/-p: the PIDs given (each checked), else every live instance. */
static size_t targets(struct gcs_run *r, const struct gcs_pids *p, struct gcs_instance **out,
		      bool *missing)
{
	struct gcs_instance tmp;
	size_t n = 0;

	*missing = false;
	if (p->count) {
		for (int i = 0; i < p->count; i++) {
			struct gcs_instance *in = lookup(r, p->pids[i], &tmp);

			if (in)
				out[n++] = in;
			else
				*missing = true;
		}
		return n;
	}
	for (size_t i = 0; i < r->nfound; i++) {
		struct gcs_instance *in = &r->found[i];

		if (in->state == GCS_LIVE) {
			out[n++] = in;
		} else if (in->state == GCS_NO_ACCESS && !in->reported) {
			explain(in, false); /* neither signalled nor printed */
			r->rc = RT_EXIT_FAILURE;
		}
	}
	return n;
}

static void snapshot(struct gcs_run *r, const struct gcs_pids *p, struct gcs_instance **t)
{
	struct gcs_snap *v;
	bool missing;
	size_t n = targets(r, p, t, &missing);

	if (!n && !p->count)
		not_found(r);
	if (!n)
		return;
	v = calloc(n, sizeof(*v));
	if (!v) {
		rt_prog_error_errno(ENOMEM, "cannot take the snapshots");
		r->rc = RT_EXIT_FAILURE;
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i].in = t[i];
	gcs_snapshot(GCS_SHM_DIR, v, n);
	for (size_t i = 0; i < n; i++) {
		report_snap(r, &v[i]);
		if (v[i].result != GCS_SNAP_OK)
			v[i].in->snap_failed = true; /* not printed */
	}
	free(v);
}

static void print(struct gcs_run *r, const struct gcs_pids *p, struct gcs_instance **t)
{
	struct gcs_instance tmp;
	bool missing;
	size_t n;

	/* PIDs given: in their order, the line of 2.4 where one is no instance */
	for (int i = 0; i < p->count; i++) {
		struct gcs_instance *in = lookup(r, p->pids[i], &tmp);

		if (!in)
			not_found(r);
		else if (!in->snap_failed)
			print_one(r, in);
	}
	if (p->count)
		return;
	n = targets(r, p, t, &missing);
	if (!n)
		not_found(r);
	for (size_t i = 0; i < n; i++)
		if (!t[i]->snap_failed)
			print_one(r, t[i]);
}

static int run(struct rt_tool *tool)
{
	const struct gcs_config *cfg = tool->cfg;
	struct gcs_run r = { .rc = RT_EXIT_OK };
	struct gcs_pids all = { .given = true };
	struct gcs_instance **t;
	bool snap_all, notes;
	int err;

	if ((err = gcs_find(GCS_SHM_DIR, &r.found, &r.nfound)) && err != -ENOENT) {
		rt_prog_error_errno(-err, "cannot read %s", GCS_SHM_DIR);
		return RT_EXIT_FAILURE;
	}
	t = calloc(r.nfound + (size_t)cfg->snapshot.count + (size_t)cfg->print.count + 1,
		   sizeof(*t));
	if (!t) {
		rt_prog_error_errno(ENOMEM, "out of memory");
		free(r.found);
		return RT_EXIT_FAILURE;
	}
	/* Stale objects are noted where every instance is asked for. */
	snap_all = cfg->no_options || (cfg->snapshot.given && !cfg->snapshot.count);
	notes = snap_all || cfg->list || (cfg->print.given && !cfg->print.count);
	for (size_t i = 0; i < r.nfound; i++)
		if (gcs_check(GCS_SHM_DIR, &r.found[i]) != GCS_LIVE &&
		    r.found[i].state != GCS_NO_ACCESS && notes)
			explain(&r.found[i], snap_all);
	if (cfg->list)
		list(&r);
	if (cfg->snapshot.given || cfg->no_options)
		snapshot(&r, cfg->no_options ? &all : &cfg->snapshot, t);
	if (cfg->print.given || cfg->no_options)
		print(&r, cfg->no_options ? &all : &cfg->print, t);
	free(t);
	free(r.found);
	return r.rc;
}

/* A failed parse frees what it took too: restore runs after a good one only. */
static int parse(struct rt_tool *t, int argc, char *argv[])
{
	int rc;

	t->own_signals = true; /* SIGINT and SIGTERM end it as they come */
	rc = gcs_parse_args(t->cfg, argc, argv);
	if (rc)
		gcs_config_free(t->cfg);
	return rc;
}

static void restore(struct rt_tool *t, int rc)
{
	(void)rc;
	gcs_config_free(t->cfg);
}

static const struct rt_tool_ops ops = { .parse = parse, .run = run, .restore = restore };

int main(int argc, char *argv[])
{
	struct gcs_config cfg;
	struct rt_tool t = { .ops = &ops, .cfg = &cfg };

	return rt_tool_main(&t, argc, argv);
}
