// SPDX-License-Identifier: GPL-2.0-or-later
/* cyclictest: periodic timer wakeup latency, compatible with rt-tests 2.4. */
#include "rt_cyclic_run.h"
#include "rt_tool.h"

#include "options.h"

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	cyclictest_config_init(t->cfg);
	return cyclictest_parse_args(t->cfg, argc, argv);
}

static int check(struct rt_tool *t)
{
	return cyclictest_config_check(t->cfg);
}

static int run(struct rt_tool *t)
{
	return cyclictest_run(t->cfg, &t->rep, &t->signals);
}

static const struct rt_tool_ops ops = { .parse = parse, .validate = check, .run = run };

int main(int argc, char *argv[])
{
	struct cyclictest_config cfg;
	struct rt_tool t = { .ops = &ops, .cfg = &cfg };

	return rt_tool_main(&t, argc, argv);
}
