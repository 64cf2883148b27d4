// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracer.h"

static const char *const names[HWLAT_NFILES] = {
	[HWLAT_TRACING_ON] = "tracing_on",
	[HWLAT_CURRENT_TRACER] = "current_tracer",
	[HWLAT_THRESH] = "tracing_thresh",
	[HWLAT_WIDTH] = "hwlat_detector/width",
	[HWLAT_WINDOW] = "hwlat_detector/window",
	[HWLAT_CPUMASK] = "tracing_cpumask",
};

const char *hwlat_file_name(enum hwlat_file f)
{
	return names[f];
}

#ifndef HAVE_TRACEFS

bool hwlat_tracer_built(void)
{
	return false;
}

int hwlat_tracer_find(const char *dir, char *tracers, size_t len)
{
	(void)dir;
	if (len)
		tracers[0] = '\0';
	return -ENOTSUP;
}

const char *hwlat_tracer_dir(void)
{
	return "";
}

int hwlat_tracer_save(struct hwlat_tracer *t, enum hwlat_file *failed)
{
	(void)t;
	*failed = HWLAT_TRACING_ON;
	return -ENOTSUP;
}

int hwlat_tracer_write(struct hwlat_tracer *t, enum hwlat_file f, const char *value)
{
	(void)t;
	(void)f;
	(void)value;
	return -ENOTSUP;
}

int hwlat_tracer_read_int(enum hwlat_file f, int64_t *value)
{
	(void)f;
	*value = 0;
	return -ENOTSUP;
}

int hwlat_tracer_open_pipe(struct hwlat_tracer *t)
{
	t->pipe_fd = -1;
	return -ENOTSUP;
}

int hwlat_tracer_restore(struct hwlat_tracer *t, enum hwlat_file *failed)
{
	(void)t;
	(void)failed;
	return 0;
}

#else /* HAVE_TRACEFS */

#include <tracefs.h>

bool hwlat_tracer_built(void)
{
	return true;
}

static int errno_or(int fallback)
{
	return errno ? -errno : fallback;
}

/* The file's text without its trailing newline, into buf. 0 or -errno. */
static int read_text(const char *name, char *buf, size_t len)
{
	char *text;
	size_t n;

	errno = 0;
	text = tracefs_instance_file_read(NULL, name, NULL);
	if (!text)
		return errno_or(-EIO);
	n = strcspn(text, "\n");
	if (n >= len) {
		free(text);
		return -EOVERFLOW;
	}
	memcpy(buf, text, n);
	buf[n] = '\0';
	free(text);
	return 0;
}

static bool has_detector_dir(void)
{
	char *path = tracefs_get_tracing_file("hwlat_detector");
	struct stat st;
	bool ok = path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	tracefs_put_tracing_file(path);
	return ok;
}

int hwlat_tracer_find(const char *dir, char *tracers, size_t len)
{
	char list[1024], copy[1024], *save = NULL;
	int err;

	if (len)
		tracers[0] = '\0';
	if (dir && tracefs_set_tracing_dir((char *)dir) < 0)
		return errno_or(-ENODEV);
	if (!tracefs_tracing_dir())
		return -ENODEV;
	if ((err = read_text("available_tracers", list, sizeof(list))))
		return err;
	snprintf(tracers, len, "%s", list);
	memcpy(copy, list, sizeof(copy));
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (strcmp(w, "hwlat") == 0)
			return has_detector_dir() ? 0 : -ENOENT;
	return -ENOENT;
}

const char *hwlat_tracer_dir(void)
{
	const char *d = tracefs_tracing_dir();

	return d ? d : "";
}

int hwlat_tracer_save(struct hwlat_tracer *t, enum hwlat_file *failed)
{
	int err;

	t->pipe_fd = -1;
	for (int f = 0; f < HWLAT_NFILES; f++) {
		t->written[f] = false;
		if ((err = read_text(names[f], t->saved[f], sizeof(t->saved[f])))) {
			*failed = (enum hwlat_file)f;
			return err;
		}
	}
	return 0;
}

static int write_text(enum hwlat_file f, const char *value)
{
	errno = 0;
	if (tracefs_instance_file_write(NULL, names[f], value) < (int)strlen(value))
		return errno_or(-EIO);
	return 0;
}

int hwlat_tracer_write(struct hwlat_tracer *t, enum hwlat_file f, const char *value)
{
	t->written[f] = true; /* a failed write may still have changed it */
	return write_text(f, value);
}

int hwlat_tracer_write_int(struct hwlat_tracer *t, enum hwlat_file f, int64_t value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, value);
	return hwlat_tracer_write(t, f, buf);
}

int hwlat_tracer_read_int(enum hwlat_file f, int64_t *value)
{
	char buf[64], *end;
	long long v;
	int err;

	if ((err = read_text(names[f], buf, sizeof(buf))))
		return err;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (end == buf || *end || errno || v < 0)
		return -EINVAL;
	*value = v;
	return 0;
}

int hwlat_tracer_open_pipe(struct hwlat_tracer *t)
{
	errno = 0;
	t->pipe_fd = tracefs_instance_file_open(NULL, "trace_pipe", O_RDONLY | O_NONBLOCK);
	return t->pipe_fd < 0 ? errno_or(-EIO) : 0;
}

static void put_back(struct hwlat_tracer *t, enum hwlat_file f, int *first, enum hwlat_file *failed)
{
	int err;

	if (!t->written[f])
		return;
	err = write_text(f, t->saved[f]);
	if (err && !*first) {
		*first = err;
		*failed = f;
	}
	if (!err)
		t->written[f] = false;
}

int hwlat_tracer_restore(struct hwlat_tracer *t, enum hwlat_file *failed)
{
	long long old_width = strtoll(t->saved[HWLAT_WIDTH], NULL, 10);
	int64_t cur_window = 0;
	int first = 0;

	if (t->pipe_fd >= 0) {
		close(t->pipe_fd);
		t->pipe_fd = -1;
	}
	if (t->written[HWLAT_TRACING_ON] && write_text(HWLAT_TRACING_ON, "0") && !first) {
		first = errno_or(-EIO);
		*failed = HWLAT_TRACING_ON;
	}
	put_back(t, HWLAT_CURRENT_TRACER, &first, failed);
	put_back(t, HWLAT_THRESH, &first, failed);
	/* the kernel keeps width < window: the old width first only if the window allows it */
	if (hwlat_tracer_read_int(HWLAT_WINDOW, &cur_window) == 0 && old_width < cur_window) {
		put_back(t, HWLAT_WIDTH, &first, failed);
		put_back(t, HWLAT_WINDOW, &first, failed);
	} else {
		put_back(t, HWLAT_WINDOW, &first, failed);
		put_back(t, HWLAT_WIDTH, &first, failed);
	}
	put_back(t, HWLAT_CPUMASK, &first, failed);
	put_back(t, HWLAT_TRACING_ON, &first, failed);
	return first;
}

#endif
