// SPDX-License-Identifier: MIT
/*
 * instance.c - the tracefs instance iorec records into: mounting tracefs,
 * creating and configuring instances/iorec-PID, removing it on every exit
 * path, and removing the ones a killed iorec left behind.
 *
 * Only the instance is ever written to; the top-level instance,
 * ftrace_enabled and set_ftrace_filter are never touched.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "record.h"

/* tracefs's top level, as tracefs_ready() found it */
static char tracing_dir[PATH_MAX];

bool trace_path_exists(const char *rel)
{
	char p[PATH_MAX + 256];

	if (!*tracing_dir)	/* not looked for yet: libtracefs's way */
		return tracefs_file_exists(NULL, rel) ||
		       tracefs_dir_exists(NULL, rel);
	snprintf(p, sizeof(p), "%s/%s", tracing_dir, rel);
	return access(p, F_OK) == 0;
}

bool trace_event_exists(const char *system, const char *name)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "events/%s/%s/format", system, name);
	return trace_path_exists(rel);
}

int tracefs_ready(void)
{
	const char *path;

	if (geteuid() != 0)
		return error("tracing needs root (run with sudo)");
	/* finds tracefs, mounting it when it is not (and caches the path) */
	path = tracefs_tracing_dir();
	if (!path)
		return error("tracefs not found: enable CONFIG_FTRACE and mount it: mount -t tracefs nodev /sys/kernel/tracing");
	if (!tracefs_dir_exists(NULL, "instances"))
		return error("%s/instances missing: this kernel cannot host a separate trace instance (needs Linux 3.15+)",
			     path);
	snprintf(tracing_dir, sizeof(tracing_dir), "%s", path);
	return 0;
}

pid_t stale_owner(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	long pid;

	/* a pid is digits alone, and at most INT_MAX (pid_t on every ABI) */
	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]) ||
	    parse_long(name + n, 1, INT_MAX, &pid) || pid == getpid())
		return 0;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH ? (pid_t)pid : 0;
}

/*
 * Remove ti's directory.  Another program that has one of its files open
 * (trace-cmd walking every instance's events, a shell reading its trace)
 * makes rmdir fail with EBUSY for as long as it does: try again for up
 * to two seconds before giving up.  Returns 0 or -1 (errno set).
 */
static int instance_rmdir(struct tracefs_instance *ti)
{
	const struct timespec pause = { 0, 50 * 1000 * 1000 };
	int ret, tries = 40;

	while ((ret = tracefs_instance_destroy(ti)) < 0 && errno == EBUSY &&
	       --tries > 0)
		nanosleep(&pause, NULL);
	return ret;
}

/* Remove one instance by name.  Returns 0 or -1. */
static int instance_remove_name(const char *name)
{
	struct tracefs_instance *ti;
	int ret;

	ti = tracefs_instance_alloc(NULL, name);
	if (!ti)
		return -1;
	/* Its tracing may still run into the buffers: stop it first. */
	tracefs_trace_off(ti);
	ret = instance_rmdir(ti);
	tracefs_instance_free(ti);
	return ret;
}

struct stale_walk {
	bool verbose;
	int removed;
};

/* tracefs_instances_walk() callback: remove @name if its iorec is gone. */
static int stale_one(const char *name, void *data)
{
	struct stale_walk *sw = data;
	pid_t pid = stale_owner(name, INSTANCE_PREFIX);

	if (!pid)
		pid = stale_owner(name, INSTANCE_EXEC_PREFIX);
	if (!pid)
		pid = stale_owner(name, INSTANCE_PROBE_PREFIX);
	if (!pid)
		return 0;
	if (instance_remove_name(name) < 0) {
		warning("cannot remove stale instance %s: %m", name);
		return 0;
	}
	sw->removed++;
	if (sw->verbose)
		note("removed stale instance %s (pid %d is gone)", name,
		     (int)pid);
	return 0;
}

/*
 * Walk the names ourselves: tracefs_instances(regex) of libtracefs 1.6
 * leaks its compiled regex.
 */
int instance_remove_stale(bool verbose)
{
	struct stale_walk sw = { .verbose = verbose };

	tracefs_instances_walk(stale_one, &sw);
	return sw.removed;
}

/* Write @val to an instance file; returns 0 or -1 (errno set). */
static int inst_write(struct tracefs_instance *ti, const char *file,
		      const char *val)
{
	return tracefs_instance_file_write(ti, file, val) < 0 ? -1 : 0;
}

/* Set the trace clock to mono, else global.  Returns 0 or -1. */
static int instance_set_clock(struct rec_instance *ri)
{
	static const char *const clocks[] = { "mono", "global" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		if (!inst_write(ri->ti, "trace_clock", clocks[i])) {
			snprintf(ri->clock, sizeof(ri->clock), "%s", clocks[i]);
			if (i)
				warning("trace clock 'mono' unavailable, using '%s' (event times will not match CLOCK_MONOTONIC)",
					clocks[i]);
			return 0;
		}
	}
	return error("cannot set the trace clock of instance %s: %m",
		     ri->name);
}

int instance_count_cpus(struct tracefs_instance *ti)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	int n = 0;
	long i;

	if (conf < 1)
		conf = 1;
	for (i = 0; i < conf; i++) {
		char path[64];

		snprintf(path, sizeof(path), "per_cpu/cpu%ld", i);
		if (!tracefs_dir_exists(ti, path))
			break;
		n++;
	}
	return n;
}

static int instance_configure(struct rec_instance *ri, unsigned int buffer_kb,
			      unsigned int percent)
{
	char val[32];

	if (tracefs_trace_off(ri->ti) < 0)
		return error("cannot stop tracing in instance %s: %m",
			     ri->name);
	if (instance_set_clock(ri) < 0)
		return -1;
	if (tracefs_instance_set_buffer_size(ri->ti, buffer_kb, -1) < 0)
		return error("cannot set buffer_size_kb to %u: %m (try a smaller -b)",
			     buffer_kb);
	snprintf(val, sizeof(val), "%u", percent);
	if (tracefs_file_exists(ri->ti, "buffer_percent") &&
	    inst_write(ri->ti, "buffer_percent", val) < 0)
		warning("cannot set buffer_percent to %u: %m", percent);
	/*
	 * iorec's own syscalls are left out by a common_pid filter on the
	 * syscall events only (plan_enable()), never by set_event_notrace_pid:
	 * that drops every event raised while iorec is the current task of a
	 * CPU, interrupt-context block completions of other tasks' I/O
	 * included, and those losses are counted nowhere.
	 */
	ri->ncpus = instance_count_cpus(ri->ti);
	if (ri->ncpus < 1)
		return error("instance %s has no per-CPU buffers", ri->name);
	return 0;
}

int instance_create(struct rec_instance *ri, unsigned int buffer_kb,
		    unsigned int percent)
{
	snprintf(ri->name, sizeof(ri->name), INSTANCE_PREFIX "%d",
		 (int)getpid());
	if (tracefs_instance_exists(ri->name) &&
	    instance_remove_name(ri->name) < 0)
		return error("instance %s exists and cannot be removed: %m",
			     ri->name);
	ri->ti = tracefs_instance_create(ri->name);
	if (!ri->ti)
		return error("cannot create tracefs instance %s: %m", ri->name);
	if (instance_configure(ri, buffer_kb, percent) < 0) {
		instance_destroy(ri);
		return -1;
	}
	return 0;
}

void instance_destroy(struct rec_instance *ri)
{
	if (!ri->ti)
		return;
	tracefs_trace_off(ri->ti);
	/* Disabling first lets rmdir succeed even on older kernels. */
	tracefs_event_disable(ri->ti, NULL, NULL);
	if (instance_rmdir(ri->ti) < 0)
		warning("cannot remove tracefs instance %s: %m (remove it with: rmdir %s/instances/%s)",
			ri->name, tracefs_tracing_dir(), ri->name);
	tracefs_instance_free(ri->ti);
	ri->ti = NULL;
}

int instance_tracing(struct rec_instance *ri, bool on)
{
	int ret = on ? tracefs_trace_on(ri->ti) : tracefs_trace_off(ri->ti);

	if (ret < 0)
		return error("cannot turn tracing %s in instance %s: %m",
			     on ? "on" : "off", ri->name);
	return 0;
}

/* Parse a leading unsigned number of a stats value ("123" or "12.5"). */
static uint64_t stat_u64(const char *v)
{
	return strtoull(v, NULL, 10);
}

int instance_cpu_stats(struct rec_instance *ri, int cpu, struct sbuf *sb,
		       uint64_t *lost)
{
	char path[64], *text, *line, *save = NULL;

	*lost = 0;
	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(ri->ti, path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		char *val;

		if (!colon)
			continue;
		*colon = '\0';
		val = colon + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		if (!strcmp(line, "overrun") || !strcmp(line, "dropped events"))
			*lost += stat_u64(val);
		if (sb) {
			sbuf_addf(sb, "cpu\t%d\t", cpu);
			sbuf_add_escaped(sb, line);
			sbuf_addch(sb, '\t');
			sbuf_add_escaped(sb, val);
			sbuf_addch(sb, '\n');
		}
	}
	free(text);
	return 0;
}
