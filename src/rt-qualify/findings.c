// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_isolation.h"

#include "findings.h"

#define FIX_ISOLATE "boot with isolcpus=managed_irq,domain,CPUS nohz_full=CPUS " \
	"rcu_nocbs=CPUS irqaffinity=HOUSEKEEPING (CPU 0 and its sibling stay housekeeping)"

int rtq_findings_add(struct rtq_findings *f, bool problem, const char *fix, const char *fmt, ...)
{
	struct rtq_finding *n = realloc(f->item, (f->n + 1) * sizeof(*n));
	va_list ap;
	int len;

	if (!n)
		return -ENOMEM;
	f->item = n;
	va_start(ap, fmt);
	len = vasprintf(&n[f->n].what, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	n[f->n].problem = problem;
	n[f->n].fix = fix;
	f->n++;
	f->problems += problem;
	return 0;
}

/* One of lib's preflight sentences, with how much it matters and its fix. */
static int from_preflight(struct rtq_findings *f, const char *w, bool isolated)
{
	if (strstr(w, "RT throttling"))
		return rtq_findings_add(f, false, "sysctl -w kernel.sched_rt_runtime_us=-1 (then a runaway "
			   "real-time task can hang its CPU)", "%s", w);
	if (strstr(w, "cpufreq governor"))
		return rtq_findings_add(f, true, "cpupower frequency-set -g performance (or write "
			   "performance to /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor)",
			   "%s", w);
	if (strstr(w, "idle states"))
		return rtq_findings_add(f, false, "the application holds /dev/cpu_dma_latency at 0 as "
			   "cyclictest does, or boot with processor.max_cstate=1 "
			   "intel_idle.max_cstate=0", "%s", w);
	if (strstr(w, "virtual machine"))
		return rtq_findings_add(f, false, "qualify the bare metal the application runs on, or pin "
			   "and isolate the vCPUs on the host", "%s", w);
	if (strstr(w, "device interrupt"))
		return rtq_findings_add(f, isolated, "write the housekeeping CPUs to /proc/irq/N/"
			   "smp_affinity_list (irqaffinity= at boot) and keep irqbalance off "
			   "them (IRQBALANCE_BANNED_CPULIST)", "%s", w);
	if (strstr(w, "housekeeping"))
		return rtq_findings_add(f, isolated, FIX_ISOLATE, "%s", w);
	if (strstr(w, "not isolated while"))
		return rtq_findings_add(f, true, "measure only isolated CPUs (--cpus), or isolate these too: "
			   FIX_ISOLATE, "%s", w);
	return rtq_findings_add(f, false, NULL, "%s", w);
}

static bool any_isolated(const struct rt_env *e)
{
	for (unsigned i = 0; i < e->ncpus; i++)
		if (e->cpus[i].isolated)
			return true;
	return false;
}

/* The kernel and the CPUs: the preemption model, isolation, SMT, irqbalance. */
static int kernel_findings(struct rtq_findings *f, const struct rt_env *e, bool isolated)
{
	int err = 0;

	if (!e->preempt_model)
		err = rtq_findings_add(f, true, "boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64, "
			  "RHEL: kernel-rt)", "the kernel's preemption model is unknown");
	else if (strcmp(e->preempt_model, "PREEMPT_RT") != 0)
		err = rtq_findings_add(f, true, "boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64, "
			  "RHEL: kernel-rt)", "the kernel is %s, not PREEMPT_RT: long "
			  "non-preemptible sections remain", e->preempt_model);
	if (!err && !isolated && !any_isolated(e) && e->cpus_online != 1)
		err = rtq_findings_add(f, false, FIX_ISOLATE, "no CPU is isolated: the measured CPUs run "
			  "the load and everything else too");
	if (!err && e->smt == 1)
		err = rtq_findings_add(f, false, "boot with nosmt, or isolate both siblings of a core "
			  "(cpuN/topology/thread_siblings_list)", "SMT is on: a measured CPU "
			  "shares its core with a sibling that may run anything");
	if (!err && e->irqbalance == 1 && isolated)
		err = rtq_findings_add(f, false, "stop irqbalance (systemctl disable --now irqbalance) or "
			  "set IRQBALANCE_BANNED_CPULIST to the isolated CPUs",
			  "irqbalance runs: it may move interrupts onto the measured CPUs");
	return err;
}

int rtq_findings_collect(struct rtq_findings *out, struct rt_env *e, bool isolated)
{
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = false,
					.isolation = true };
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = rt_env_preflight(e, &how)) || (err = kernel_findings(out, e, isolated)))
		return err;
	for (unsigned i = 0; i < e->npreflight && !err; i++)
		err = from_preflight(out, e->preflight[i], isolated);
	return err ? err : rtq_findings_memory(out);
}

void rtq_findings_free(struct rtq_findings *f)
{
	for (unsigned i = 0; i < f->n; i++)
		free(f->item[i].what);
	free(f->item);
	memset(f, 0, sizeof(*f));
}

void rtq_findings_print(FILE *out, const struct rtq_findings *f)
{
	for (unsigned i = 0; i < f->n; i++) {
		fprintf(out, "%s: %s\n", f->item[i].problem ? "problem" : "note", f->item[i].what);
		if (f->item[i].fix)
			fprintf(out, "  fix: %s\n", f->item[i].fix);
	}
	if (!f->n)
		fputs("no findings: the set-up looks right for real-time work\n", out);
}

void rtq_findings_write_json(struct rt_json *j, const struct rtq_findings *f)
{
	rt_json_array_begin(j, "findings");
	for (unsigned i = 0; i < f->n; i++) {
		rt_json_object_begin(j, NULL);
		rt_json_string(j, "kind", f->item[i].problem ? "problem" : "note");
		rt_json_string(j, "what", f->item[i].what);
		rt_json_string(j, "fix", f->item[i].fix);
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
}
