// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_hrtick.h"

static bool find_debugfs(char *dir, size_t len)
{
	char line[1024], mnt[256], type[64];
	FILE *f = fopen("/proc/mounts", "re");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s %63s", mnt, type) == 2 && strcmp(type, "debugfs") == 0) {
			snprintf(dir, len, "%s", mnt);
			found = true;
		}
	fclose(f);
	return found;
}

/* Is feature `name` listed, and is it on ("NAME") or off ("NO_NAME")? -1 absent. */
static int feature_state(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n) {
		bool word_end = p[n] == '\0' || p[n] == ' ' || p[n] == '\n';

		if (!word_end)
			continue;
		if (p - list >= 3 && strncmp(p - 3, "NO_", 3) == 0 &&
		    (p - list == 3 || p[-4] == ' '))
			return 0;
		if (p == list || p[-1] == ' ')
			return 1;
	}
	return -1;
}

int rt_hrtick_enable_file(struct rt_hrtick *s, const char *path)
{
	static const char *const names[] = { "HRTICK_DL", "HRTICK" };
	char list[4096];
	ssize_t n;
	int fd, ret = 0;

	s->restore[0] = '\0';
	snprintf(s->path, sizeof(s->path), "%s", path);
	if ((fd = open(s->path, O_RDWR | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, list, sizeof(list) - 1);
	list[n > 0 ? n : 0] = '\0';
	for (int i = 0; i < 2 && n > 0; i++) {
		int st = feature_state(list, names[i]);
		size_t len = strlen(names[i]);

		if (st < 0)
			continue;
		if (st == 1) {
			ret = 1;
		} else if (write(fd, names[i], len) == (ssize_t)len) {
			snprintf(s->restore, sizeof(s->restore), "NO_%s", names[i]);
			ret = 2;
		}
		break;
	}
	close(fd);
	return ret;
}

int rt_hrtick_enable(struct rt_hrtick *s)
{
	char dir[256], path[512];

	s->path[0] = s->restore[0] = '\0';
	if (!find_debugfs(dir, sizeof(dir)))
		return 0;
	snprintf(path, sizeof(path), "%s/sched/features", dir);
	if (access(path, F_OK)) {
		snprintf(path, sizeof(path), "%s/sched_features", dir);
		if (access(path, F_OK))
			return 0;
	}
	return rt_hrtick_enable_file(s, path);
}

void rt_hrtick_restore(struct rt_hrtick *s)
{
	int fd;

	if (!s->restore[0])
		return;
	if ((fd = open(s->path, O_WRONLY | O_CLOEXEC)) >= 0) {
		if (write(fd, s->restore, strlen(s->restore)) < 0) {
			/* nothing more to do: the run is over */
		}
		close(fd);
	}
	s->restore[0] = '\0';
}
