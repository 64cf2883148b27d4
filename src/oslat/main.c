// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oslat: busy-polling threads measure the gaps in their CPU time (OS
 * latency), compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include "rt_tool.h"

#include "options.h"
#include "run.h"

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return oslat_parse_args(t->cfg, argc, argv);
}

static int run(struct rt_tool *t)
{
	return oslat_run(t->cfg, &t->rep, &t->signals);
}

static const struct rt_tool_ops ops = { .parse = parse, .run = run };

int main(int argc, char *argv[])
{
	struct oslat_config cfg;
	struct rt_tool t = { .ops = &ops, .cfg = &cfg };

	return rt_tool_main(&t, argc, argv);
}
