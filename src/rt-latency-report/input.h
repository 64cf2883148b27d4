/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One input of rt-latency-report read once, whole, into memory (so a FIFO
 * or <(...) works), bounded in size, and parsed from there: the one entry
 * point every command reads its files through.
 */
#ifndef RLR_INPUT_H
#define RLR_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct json_object;

/* The most an input may hold: a day's result is a few MiB. */
#define RLR_INPUT_MAX_BYTES ((size_t)256 << 20)

struct rlr_input {
	const char *path;
	char *data;               /* the bytes, with a NUL after them */
	size_t len;
	struct json_object *doc;  /* the parsed JSON; NULL: histogram text */
	bool regular;             /* a regular file: dev and ino name it */
	dev_t dev;
	ino_t ino;
};

/*
 * rlr_input_load() of a --records file whose window has a member of the
 * wrong type or out of range (doccheck.c): the usage error (exit 2) of
 * every command, as such a member of a JSON result.
 */
#define RLR_INPUT_INVALID 3

/*
 * Read path once and parse it: 0; 1 after a one-line error (cannot be
 * read, larger than RLR_INPUT_MAX_BYTES), 2 (read, but begins like JSON
 * and is not, or a --records file that is not one) or RLR_INPUT_INVALID.
 */
int rlr_input_load(struct rlr_input *in, const char *path);
void rlr_input_free(struct rlr_input *in);

/*
 * The bytes of one input (path names it in errors) parsed: 0 with *doc the
 * JSON document, or NULL when they are not JSON (the histogram text, read
 * from the same bytes); 1 after a one-line error, 2 after one of a
 * --records window (rlr_records_doc). Readers of other formats hook in here.
 */
int rlr_input_parse(const char *path, const char *data, size_t len, struct json_object **doc);

/*
 * The arguments of a command that writes one file from its inputs, "-o FILE
 * INPUT..." (or --output): *path, and *first the index of the first input
 * in argv. 0, or the exit code of a usage error after its message ("CMD
 * needs -o OUT", "CMD needs at least one INPUT").
 */
int rlr_output_and_inputs(int argc, char *argv[], const char *cmd, const char *out,
			  const char *input, const char **path, int *first);

/* Length of the valid UTF-8 sequence at s (NUL-terminated), or 0. */
size_t rlr_utf8_len(const unsigned char *s);

#endif
