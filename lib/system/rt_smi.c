// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "rt_smi.h"

#define MSR_SMI_COUNT 0x34

int rt_smi_read(int fd, uint64_t *count)
{
	uint64_t v;
	ssize_t got = pread(fd, &v, sizeof(v), MSR_SMI_COUNT);

	if (got != (ssize_t)sizeof(v))
		return got < 0 ? -errno : -EIO;
	*count = v & 0xffffffffu; /* bits 63:32 are reserved */
	return 0;
}

int rt_smi_open(const char *path)
{
	uint64_t v;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	if ((err = rt_smi_read(fd, &v))) {
		close(fd);
		return err;
	}
	return fd;
}
