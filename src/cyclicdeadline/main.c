// SPDX-License-Identifier: GPL-2.0-or-later
/* cyclicdeadline: cyclictest's measurement from SCHED_DEADLINE threads, rt-tests 2.4 compatible. */
#include <stdio.h>

#include "rt_cyclic_front.h"
#include "rt_cyclic_run.h"
#include "rt_hrtick.h"
#include "rt_prog.h"
#include "rt_tool.h"

#include "options.h"
#include "report.h"

#define HRTICK_BELOW_US 2000 /* runtimes below this want HRTICK_DL */

/* What the run needs beside the configuration: its face and HRTICK_DL. */
struct cdl_own {
	struct cyclictest_front front;
	struct rt_hrtick hrtick;
};

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	cyclicdeadline_config_init(t->cfg);
	return cyclicdeadline_parse_args(t->cfg, argc, argv);
}

static int check(struct rt_tool *t)
{
	struct cyclicdeadline_config *cfg = t->cfg;
	struct cdl_own *o = t->own;
	int rc = cyclicdeadline_config_check(cfg);

	if (rc)
		return rc;
	cyclicdeadline_front_init(&o->front, cfg);
	cfg->ct.front = &o->front;
	return 0;
}

/* With the signals blocked: SIGINT/SIGTERM end the run, and HRTICK_DL is put back. */
static int setup(struct rt_tool *t)
{
	const struct cyclicdeadline_config *cfg = t->cfg;
	struct cdl_own *o = t->own;
	enum rt_hrtick_state state;

	if (cyclicdeadline_runtime_us(cfg, 0) < HRTICK_BELOW_US &&
	    rt_hrtick_enable(&o->hrtick, &state) < 0)
		rt_prog_error("warning: runtimes below %d us need HRTICK_DL in debugfs "
			      "sched/features, which cannot be enabled here: the kernel enforces "
			      "them at tick granularity", HRTICK_BELOW_US);
	return 0;
}

static int run(struct rt_tool *t)
{
	const struct cyclicdeadline_config *cfg = t->cfg;

	cyclicdeadline_print_setup(stdout, cfg);
	return cyclictest_run(&cfg->ct, &t->rep, &t->signals);
}

static void restore(struct rt_tool *t, int rc)
{
	struct cdl_own *o = t->own;

	(void)rc;
	rt_hrtick_restore(&o->hrtick);
}

static const struct rt_tool_ops ops = { .parse = parse, .validate = check, .setup = setup,
					.run = run, .restore = restore };

int main(int argc, char *argv[])
{
	struct cyclicdeadline_config cfg;
	struct cdl_own own = { .hrtick = RT_HRTICK_INIT };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .own = &own };

	return rt_tool_main(&t, argc, argv);
}
