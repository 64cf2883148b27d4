/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a cyclictest status object (/dev/shm/cyclictest<PID>). Both
 * cyclictests write the same block on SIGUSR2:
 *   #---------------------------
 *   # cyclictest current status:
 *   T: 0 ( 7279) P: 0 I:10000 C:    235 Min:    105 Act:  124 Avg:  292 Max:    3286
 *   #---------------------------
 * rt-tests 2.4's object starts as 30 NUL bytes, and from its second snapshot
 * on holds a run of NULs (as long as the previous contents) before the
 * block: NUL bytes are skipped wherever they are. The content is untrusted:
 * only printable ASCII, tabs and newlines are accepted.
 */
#ifndef GCS_READER_H
#define GCS_READER_H

#include <stdbool.h>
#include <stddef.h>

#define GCS_SEPARATOR "#---------------------------\n"
#define GCS_TITLE "# cyclictest current status:\n"

/* At most this much text (NULs not counted) and this much in all. */
#define GCS_MAX_TEXT_BYTES (4u << 20)
#define GCS_MAX_OBJECT_BYTES (256u << 20)

/* Drop the NUL bytes of buf[0..len): the new length. */
size_t gcs_strip_nuls(char *buf, size_t len);

/* Only printable ASCII, TAB and newline: 0, else -EILSEQ. */
int gcs_check_text(const char *text, size_t len);

/* The text is a whole status block: separator, title, lines, separator. */
bool gcs_block_complete(const char *text, size_t len);

/*
 * Read the object open as fd from its start, NULs skipped: 0 with a
 * malloc'd NUL-terminated *text of *len bytes; -EFBIG when too large,
 * -EILSEQ for bytes no status block has, or -errno.
 */
int gcs_read_object(int fd, char **text, size_t *len);

#endif
