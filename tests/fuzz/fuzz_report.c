// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for rt-latency-report's readers: whatever the bytes of
 * an input, rlr_input_parse (JSON, or histogram text) and what compare and
 * plot read of it (our JSON, rt-tests 2.4's JSON, cyclictest's -h text:
 * rlr_load_input, rlr_plotfile_from_input) end with 0 or a one-line error,
 * never a crash, undefined behaviour, a leak or a hang. The seeds in
 * corpus/report hold each format.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "curves.h"
#include "curves_load.h"
#include "input.h"
#include "load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rlr_input in = { .path = "fuzz" };
	struct rlr_plotfile f;
	struct rlr_run r;

	if (size > (1 << 20))
		return 0;
	in.data = malloc(size + 1);
	if (!in.data)
		return 0;
	memcpy(in.data, data, size);
	in.data[size] = '\0';
	in.len = size;
	if (rlr_input_parse(in.path, in.data, in.len, &in.doc) == 0) {
		if (rlr_load_input(&r, &in) == 0)
			rlr_free(&r);
		rlr_plotfile_from_input(&f, &in, false);
		rlr_plotfile_free(&f);
	}
	rlr_input_free(&in);
	return 0;
}
