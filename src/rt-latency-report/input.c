// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_prog.h"

#include "input.h"
#include "records.h"

size_t rlr_utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static int too_big(const char *path)
{
	rt_prog_error("cannot read '%s': larger than %zu MiB (the most an input may hold)", path,
		      RLR_INPUT_MAX_BYTES >> 20);
	return 1;
}

/* The whole of path in memory, read once: 0, or 1 after a one-line error. */
static int read_all(struct rlr_input *in, const char *path)
{
	size_t cap = 0;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		rt_prog_error_errno(errno, "cannot read '%s'", path);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	in->regular = S_ISREG(st.st_mode);
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > RLR_INPUT_MAX_BYTES) {
		close(fd);
		return too_big(path);
	}
	for (;;) {
		ssize_t got;

		if (in->len == cap) {
			size_t ncap = cap ? cap * 2 : 64 << 10;
			char *d;

			if (ncap > RLR_INPUT_MAX_BYTES + 1)
				ncap = RLR_INPUT_MAX_BYTES + 1; /* one byte more tells it is too big */
			if (!(d = realloc(in->data, ncap + 1))) {
				close(fd);
				rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
				return 1;
			}
			in->data = d;
			cap = ncap;
		}
		got = read(fd, in->data + in->len, cap - in->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rt_prog_error_errno(errno, "cannot read '%s'", path);
			close(fd);
			return 1;
		}
		if (!got)
			break;
		in->len += (size_t)got;
		if (in->len > RLR_INPUT_MAX_BYTES) {
			close(fd);
			return too_big(path);
		}
	}
	close(fd);
	if (!in->data && !(in->data = malloc(1))) {
		rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
		return 1;
	}
	in->data[in->len] = '\0';
	return 0;
}

static int not_json(const char *path, const char *why, size_t at)
{
	rt_prog_error("cannot read '%s': not JSON: %s at byte %zu", path, why, at);
	return 1;
}

/*
 * What json-c would build, counted before it builds it: objects (each
 * allocates a hash table) and values. A result of 4096 threads has some
 * 30000 objects; 10^6 empty threads (14 MB) would take json-c 500 MB.
 */
#define RLR_MAX_OBJECTS (1u << 18)
#define RLR_MAX_VALUES (1u << 22)

static const char *too_many(const char *data, size_t len, size_t *at)
{
	size_t objects = 0, values = 0;
	bool in_string = false;

	for (size_t k = 0; k < len; k++) {
		char c = data[k];

		if (in_string) {
			if (c == '\\')
				k++;
			else if (c == '"')
				in_string = false;
			continue;
		}
		*at = k;
		if (c == '"')
			in_string = true;
		else if (c == '{' && ++objects > RLR_MAX_OBJECTS)
			return "more than 262144 objects";
		else if ((c == ',' || c == '[' || c == '{') && ++values > RLR_MAX_VALUES)
			return "more than 4194304 values";
	}
	return NULL;
}

int rlr_input_parse(const char *path, const char *data, size_t len, struct json_object **doc)
{
	const unsigned char *p = (const unsigned char *)data;
	struct json_tokener *tok;
	size_t at = strspn(data, " \t\r\n"), end;
	enum json_tokener_error err;

	*doc = NULL;
	if (rlr_records_is(data, len))
		return rlr_records_doc(data, len, path, doc); /* the run it describes */
	if (at >= len || data[at] != '{')
		return 0; /* not JSON: the histogram text reader says what it is */
	/* JSON is UTF-8 (RFC 8259), and json-c would stop at a NUL. */
	for (size_t k = 0, n; k < len; k += n ? n : 1)
		if (!p[k] || !(n = rlr_utf8_len(p + k)))
			return not_json(path, p[k] ? "not UTF-8" : "a NUL byte", k);
	if (len > INT32_MAX)
		return not_json(path, "too long", 0);
	{
		const char *why = too_many(data, len, &at);

		if (why) {
			rt_prog_error("cannot read '%s': %s (at byte %zu): not a result", path, why, at);
			return 1;
		}
	}
	if (!(tok = json_tokener_new())) {
		rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
		return 1;
	}
	*doc = json_tokener_parse_ex(tok, data, (int)len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (err != json_tokener_success || !*doc) {
		json_object_put(*doc);
		*doc = NULL;
		return not_json(path, err == json_tokener_continue ? "it ends too early"
				: json_tokener_error_desc(err), end);
	}
	if (end + strspn(data + end, " \t\r\n") != len) {
		json_object_put(*doc);
		*doc = NULL;
		return not_json(path, "more after the end", end);
	}
	return 0;
}

int rlr_input_load(struct rlr_input *in, const char *path)
{
	int rc;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (read_all(in, path)) {
		rlr_input_free(in);
		return 1;
	}
	if ((rc = rlr_input_parse(path, in->data, in->len, &in->doc))) {
		rlr_input_free(in);
		return rc == 2 ? RLR_INPUT_INVALID : 2;
	}
	return 0;
}

void rlr_input_free(struct rlr_input *in)
{
	json_object_put(in->doc);
	free(in->data);
	in->doc = NULL;
	in->data = NULL;
	in->len = 0;
}

int rlr_output_and_inputs(int argc, char *argv[], const char *cmd, const char *out,
			  const char *input, const char **path, int *first)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*path = NULL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (c != 'o')
			return rt_cli_bad_option(argc, argv, c);
		*path = optarg;
	}
	if (!*path)
		return rt_prog_usage_error("%s needs -o %s", cmd, out);
	if (optind >= argc)
		return rt_prog_usage_error("%s needs at least one %s", cmd, input);
	*first = optind;
	return 0;
}
