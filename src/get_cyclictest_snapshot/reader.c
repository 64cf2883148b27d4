// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"

size_t gcs_strip_nuls(char *buf, size_t len)
{
	size_t out = 0;

	for (size_t i = 0; i < len; i++)
		if (buf[i] != '\0')
			buf[out++] = buf[i];
	return out;
}

int gcs_check_text(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c != '\n' && c != '\t' && (c < 0x20 || c > 0x7e))
			return -EILSEQ;
	}
	return 0;
}

bool gcs_block_complete(const char *text, size_t len)
{
	static const char head[] = GCS_SEPARATOR GCS_TITLE;
	static const char sep[] = GCS_SEPARATOR;
	const size_t hlen = sizeof(head) - 1, slen = sizeof(sep) - 1;

	/* the closing separator follows the title, at the start of a line */
	return len >= hlen + slen && memcmp(text, head, hlen) == 0 &&
	       memcmp(text + len - slen, sep, slen) == 0 && text[len - slen - 1] == '\n';
}

int gcs_read_object(int fd, char **text, size_t *len)
{
	size_t cap = 4096, used = 0, total = 0;
	char *buf = malloc(cap + 1);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (cap - used < 4096) {
			char *b;

			if (cap >= GCS_MAX_TEXT_BYTES) {
				err = -EFBIG;
				break;
			}
			b = realloc(buf, cap * 2 + 1);
			if (!b) {
				err = -ENOMEM;
				break;
			}
			buf = b;
			cap *= 2;
		}
		n = pread(fd, buf + used, cap - used, (off_t)total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		total += (size_t)n;
		if (total > GCS_MAX_OBJECT_BYTES) {
			err = -EFBIG;
			break;
		}
		used += gcs_strip_nuls(buf + used, (size_t)n);
	}
	if (!err)
		err = gcs_check_text(buf, used);
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
}
