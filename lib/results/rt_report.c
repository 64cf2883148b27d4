// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_report.h"
#include "rt_sched.h"
#include "rt_sysinfo.h"

void rt_report_init(struct rt_report *r, int argc, char *const argv[])
{
	size_t used = 0;

	r->cmdline[0] = '\0';
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]);

		if (used + n + (i ? 1 : 0) >= sizeof(r->cmdline))
			break;
		if (i)
			r->cmdline[used++] = ' ';
		memcpy(r->cmdline + used, argv[i], n);
		used += n;
		r->cmdline[used] = '\0';
	}
	r->start = time(NULL);
}

void rt_report_run_id(char *buf, size_t len, const struct timespec *start)
{
	char boot[40] = "unknown";
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = read(fd, boot, sizeof(boot) - 1);

		close(fd);
		if (n > 0) {
			boot[n] = '\0';
			boot[strcspn(boot, "\n")] = '\0';
		} else {
			snprintf(boot, sizeof(boot), "unknown");
		}
	}
	snprintf(buf, len, "%s-%ld-%" PRId64, boot, (long)getpid(),
		 (int64_t)start->tv_sec * 1000000000 + start->tv_nsec);
}

void rt_report_format_time(time_t t, char *buf, size_t len)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;
	char zone[8];

	/* Day and month names by hand: RFC 2822 wants English whatever the locale. */
	localtime_r(&t, &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf, len, "%s, %02d %s %04d %02d:%02d:%02d %s", days[tm.tm_wday % 7],
		 tm.tm_mday, months[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
		 tm.tm_sec, zone);
}

void rt_report_json_header(struct rt_json *j, const struct rt_report *r, int return_code)
{
	char when[64];

	rt_json_object_begin(j, NULL);
	rt_json_int(j, "file_version", 1);
	rt_json_string(j, "cmdline:", r->cmdline);
	rt_json_string(j, "rt_test_version:", RT_INTERFACE_VERSION);
	rt_report_format_time(r->start, when, sizeof(when));
	rt_json_string(j, "start_time", when);
	rt_report_format_time(time(NULL), when, sizeof(when));
	rt_json_string(j, "end_time", when);
	rt_json_int(j, "return_code", return_code);
	rt_report_json_sysinfo(j);
}

void rt_report_json_sysinfo(struct rt_json *j)
{
	struct rt_sysinfo si;

	rt_sysinfo_read(&si);
	rt_json_object_begin(j, "sysinfo");
	rt_json_string(j, "sysname", si.sysname);
	rt_json_string(j, "nodename", si.nodename);
	rt_json_string(j, "release", si.release);
	rt_json_string(j, "version", si.version);
	rt_json_string(j, "machine", si.machine);
	rt_json_int(j, "realtime", si.realtime);
	rt_json_object_end(j);
}

void rt_report_sched_add(struct rt_report_sched *s, int policy)
{
	if (policy < 0)
		return;
	if (s->policy < 0) {
		s->policy = policy;
		s->realtime = rt_sched_policy_is_rt(policy);
		return;
	}
	if (policy != s->policy)
		s->mixed = true;
	if (!rt_sched_policy_is_rt(policy))
		s->realtime = false;
}

void rt_report_json_scheduling(struct rt_json *j, const struct rt_report_sched *s)
{
	rt_json_object_begin(j, "scheduling");
	if (s->policy < 0)
		rt_json_null(j, "policy");
	else
		rt_json_string(j, "policy", s->mixed ? "mixed" : rt_sched_policy_name(s->policy));
	rt_json_int(j, "realtime", s->realtime ? 1 : 0);
	rt_json_object_end(j);
}

size_t rt_report_status_line(char *buf, size_t len, const struct rt_report_line *l)
{
	const struct rt_stats *s = l->stats;
	int w = l->act_avg_width, n;
	char interval[32] = "";

	if (len == 0)
		return 0;
	if (l->interval_us >= 0)
		snprintf(interval, sizeof(interval), " I:%lld", l->interval_us);
	if (rt_stats_empty(s))
		n = snprintf(buf, len, "T:%2d (%5d) P:%2d%s C:%7" PRIu64
			     " Min:%7s Act:%*s Avg:%*s Max:%8s", l->index, l->tid, l->prio, interval,
			     s->count, "-", w, "-", w, "-", "-");
	else
		n = snprintf(buf, len, "T:%2d (%5d) P:%2d%s C:%7" PRIu64 " Min:%7" PRId64
			     " Act:%*" PRId64 " Avg:%*" PRId64 " Max:%8" PRId64, l->index, l->tid,
			     l->prio, interval, s->count, s->min, w, s->last, w,
			     rt_stats_avg_int(s), s->max);
	if (n < 0)
		return 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}

void rt_report_json_min_avg_max(struct rt_json *j, const struct rt_stats *s)
{
	if (rt_stats_empty(s)) {
		rt_json_null(j, "min");
		rt_json_null(j, "avg");
		rt_json_null(j, "max");
		return;
	}
	rt_json_int(j, "min", s->min);
	rt_json_double(j, "avg", rt_stats_avg(s), 2);
	rt_json_int(j, "max", s->max);
}

void rt_report_json_cycles_min_max_avg(struct rt_json *j, const struct rt_stats *s)
{
	rt_json_uint(j, "cycles", s->count);
	if (rt_stats_empty(s)) {
		/* No sample: no number to invent. */
		rt_json_null(j, "min");
		rt_json_null(j, "max");
		rt_json_null(j, "avg");
		return;
	}
	rt_json_int(j, "min", s->min);
	rt_json_int(j, "max", s->max);
	rt_json_double(j, "avg", rt_stats_avg(s), 2);
}
