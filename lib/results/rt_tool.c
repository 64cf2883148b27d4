// SPDX-License-Identifier: GPL-2.0-or-later
#include "rt_tool.h"

#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_signal.h"
#include "rt_verdict_write.h"

/* The control signals first: a SIGTERM during the set-up waits for the run loop. */
static int block_signals(struct rt_tool *t)
{
	int err;

	if (t->own_signals)
		return 0;
	if ((err = rt_signal_setup(&t->signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	return 0;
}

/* Before any output: the --json file, then the tool's own needs. */
static int setup(struct rt_tool *t)
{
	if (t->json_path && rt_cli_open_output(&t->json, "json", t->json_path))
		return RT_EXIT_FAILURE;
	return t->ops->setup ? t->ops->setup(t) : 0;
}

/* Stdout is flushed first: the JSON is committed after the report it describes. */
static int write_json(struct rt_tool *t, int rc)
{
	int err;

	if (!t->json.f || t->no_json || !t->ops->write_json)
		return rc;
	fflush(stdout);
	err = rt_output_why(&t->json, t->ops->write_json(t, t->json.f, rc));
	if (rt_cli_commit_json(&t->json, err, t->json_path))
		return RT_EXIT_FAILURE;
	return rc;
}

int rt_tool_run(struct rt_tool *t)
{
	int rc;

	rt_verdict_init(&t->verdict);
	if (!(rc = block_signals(t)) && !(rc = setup(t))) {
		rc = t->ops->run(t);
		rc = write_json(t, rc);
	}
	rt_output_abort(&t->json);
	rt_env_free(&t->env);
	/* before restore: a tool whose threads are stuck ends there with _Exit */
	rt_verdict_free(&t->verdict);
	if (t->ops->restore)
		t->ops->restore(t, rc);
	return rc;
}

int rt_tool_verdict_status(struct rt_tool *t, enum rt_judge how, const char *unit, int rc)
{
	if (rt_verdict_text_shown(&t->verdict, how))
		rt_verdict_write_text(stdout, &t->verdict, unit);
	return rc == RT_EXIT_OK ? rt_verdict_exit_status(&t->verdict, how) : rc;
}

int rt_tool_main(struct rt_tool *t, int argc, char *argv[])
{
	int rc;

	rt_prog_init(t->prog_name ? t->prog_name : argv[0]);
	rt_report_init(&t->rep, argc, argv);
	rc = t->ops->parse(t, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	if (t->json_option)
		t->json_path = *t->json_option;
	if (t->ops->validate && (rc = t->ops->validate(t)))
		return rc;
	return rt_prog_exit_code(rt_tool_run(t));
}
