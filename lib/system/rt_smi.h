/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * System management interrupts counted per CPU: MSR_SMI_COUNT (0x34, Intel,
 * bits 31:0) read through the msr driver (/dev/cpu/N/msr, root only). The
 * one reader of the counter for the isolation audit, the spike analysis,
 * cyclictest --smi and hwlatdetect.
 */
#ifndef RT_SMI_H
#define RT_SMI_H

#include <stdint.h>

/*
 * Open the counter at path (normally "/dev/cpu/N/msr") and read it once, so
 * that a CPU without it fails here and not in the middle of a run. The file
 * descriptor, or a negative errno (-EIO: no such MSR on this CPU).
 */
int rt_smi_open(const char *path);

/* The counter now, in *count. 0 or a negative errno. */
int rt_smi_read(int fd, uint64_t *count);

#endif
