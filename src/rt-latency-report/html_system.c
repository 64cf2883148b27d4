// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What disturbed each CPU (the isolation audit: interrupts by source,
 * softirqs by kind, context switches), the preflight warnings with what to
 * change, and the machine: kernel, preemption model, command lines,
 * governors and idle states.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_text.h"
#include "result_json.h"

struct count_entry {
	const char *key;
	int64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct count_entry *x = a, *y = b;

	return (x->n < y->n) - (x->n > y->n);
}

/* "LOC 4002, RES 220, ...": an object of counts, largest first. */
static void counts(FILE *f, struct json_object *o)
{
	struct count_entry *e;
	size_t n = 0;

	if (!o || !json_object_is_type(o, json_type_object)) {
		rlr_html_value(f, o);
		return;
	}
	if (!(e = calloc((size_t)json_object_object_length(o) + 1, sizeof(*e))))
		return;
	json_object_object_foreach(o, key, val) {
		e[n].key = key;
		e[n++].n = json_object_get_int64(val);
	}
	qsort(e, n, sizeof(*e), by_count);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", " : "", f);
		rlr_html_text(f, e[k].key);
		fprintf(f, " %lld", (long long)e[k].n);
	}
	free(e);
}

static void iso_row(FILE *f, struct json_object *c, const char *name)
{
	struct json_object *irq = rlr_member(c, "interrupts"), *soft = rlr_member(c, "softirqs");
	struct json_object *cs = rlr_member(c, "context_switches");

	fputs("<tr><th>", f);
	if (name)
		fputs(name, f);
	else
		rlr_html_member(f, c, "cpu");
	fputs("</th>", f);
	rlr_html_td_member(f, irq, "total");
	fputs("<td class=\"l\">", f);
	counts(f, rlr_member(irq, "by_source"));
	fputs("</td>", f);
	rlr_html_td_member(f, soft, "total");
	fputs("<td class=\"l\">", f);
	counts(f, rlr_member(soft, "by_kind"));
	fputs("</td>", f);
	rlr_html_td_member(f, cs, "voluntary");
	rlr_html_td_member(f, cs, "involuntary");
	rlr_html_td_member(f, c, "smi");
	rlr_html_td_member(f, c, "thermal_throttle");
	rlr_html_td_member(f, c, "idle_time_us");
	fputs("</tr>\n", f);
}

/* What to change for a preflight warning (constant advice by its words). */
static const char *advice(const char *w)
{
	static const char *const map[][2] = {
		{ "RT throttling", "sysctl kernel.sched_rt_runtime_us=-1 for the run" },
		{ "virtual machine", "measure on bare metal: the host's scheduling is not seen" },
		{ "affinity of device interrupt", "move the IRQs to housekeeping CPUs "
		  "(/proc/irq/N/smp_affinity_list, irqaffinity= on the kernel command line)" },
		{ "not isolated", "boot with isolcpus=, nohz_full= and rcu_nocbs= naming the measured CPUs" },
		{ "governor", "cpupower frequency-set -g performance" },
		{ "idle states", "disable deep C-states (cpupower idle-set -D 10, or "
		  "processor.max_cstate=1)" },
		{ "real-time priority", "run with -p 80 (SCHED_FIFO) as root" },
		{ "irqbalance", "stop irqbalance during the run" },
		{ "SMT", "disable SMT (echo off > /sys/devices/system/cpu/smt/control)" },
	};

	for (size_t k = 0; w && k < sizeof(map) / sizeof(map[0]); k++)
		if (strstr(w, map[k][0]))
			return map[k][1];
	return "-";
}

static void preflight(FILE *f, struct json_object *list)
{
	size_t n = json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;

	if (!n)
		return;
	fputs("<h3>Preflight warnings</h3>\n<table><tr><th class=\"l\">Warning</th>"
	      "<th class=\"l\">What to change</th></tr>\n", f);
	for (size_t k = 0; k < n; k++) {
		struct json_object *w = json_object_array_get_idx(list, k);

		fputs("<tr><td class=\"l\">", f);
		rlr_html_value(f, w);
		fputs("</td><td class=\"l\">", f);
		fputs(advice(json_object_is_type(w, json_type_string) ? json_object_get_string(w)
									: NULL), f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

void rlr_html_isolation(FILE *f, const struct rlr_html_run *r)
{
	struct json_object *iso = r->tl.isolation ?: rlr_member(r->in.doc, "isolation");
	struct json_object *cpus = rlr_member(iso, "cpus");
	struct json_object *pre = rlr_member(rlr_member(r->in.doc, "environment"), "preflight");
	size_t n = json_object_is_type(cpus, json_type_array) ? json_object_array_length(cpus) : 0;

	if (!n && !pre)
		return;
	fputs("<h2>Isolation</h2>\n", f);
	if (n) {
		fputs(r->tl.isolation && !r->tl.isolation_total
		      ? "<p>Audit of the last window recorded (the run has no total line).</p>\n"
		      : "", f);
		fputs("<table class=\"isolation\"><tr><th>CPU</th><th>Interrupts</th>"
		      "<th class=\"l\">by source</th><th>Softirqs</th><th class=\"l\">by kind</th>"
		      "<th>Switches (voluntary)</th><th>(involuntary)</th><th>SMI</th>"
		      "<th>Thermal throttle</th><th>Idle (us)</th></tr>\n", f);
		for (size_t k = 0; k < n; k++)
			iso_row(f, json_object_array_get_idx(cpus, k), NULL);
		if (rlr_member(iso, "total"))
			iso_row(f, rlr_member(iso, "total"), "all");
		fputs("</table>\n", f);
	}
	preflight(f, pre);
}
