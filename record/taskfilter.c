// SPDX-License-Identifier: MIT
/*
 * taskfilter.c - the event filters that keep only the system calls asked
 * for (-P PID, --comm, --cgroup, --command-only).  They go on the
 * per-task events only (syscalls, raw_syscalls, the probes): block,
 * writeback and journal events stay system-wide, since they often fire in
 * another task's context (interrupts, flusher threads, jbd2) and the
 * analyzer attributes them from the syscalls it keeps.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record.h"

/* Filters longer than this are refused by some kernels (one page). */
#define FILTER_MAX	3900

/* Append "common_pid == TID" of every thread of @pid.  Returns how many. */
static int add_threads(struct sbuf *f, long pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	dir = opendir_raw(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		long tid;

		if (parse_long(d->d_name, 1, INT_MAX, &tid))
			continue;
		sbuf_addf(f, "%scommon_pid == %ld", f->len ? " || " : "", tid);
		n++;
	}
	closedir(dir);
	return n;
}

/*
 * The two results of asprintf() (rf, rd) into *filter and *desc: 0, or
 * -1 with both NULL (without memory).
 */
static int both(char **filter, char **desc, int rf, int rd)
{
	if (rf >= 0 && rd >= 0)
		return 0;
	if (rf >= 0)
		free(*filter);
	if (rd >= 0)
		free(*desc);
	*filter = *desc = NULL;
	return error(ERR_NOMEM);
}

int task_filter_pids(const char *list, char **filter, char **desc)
{
	struct sbuf f = SBUF_INIT, d = SBUF_INIT;
	char *copy = strdup(list), *tok, *save = NULL;
	int ret = copy ? 0 : error(ERR_NOMEM);

	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		long pid;

		if (parse_long(tok, 1, INT_MAX, &pid)) {
			ret = error("invalid pid '%s' in -P '%s' (a comma list of process ids)",
				    tok, list);
			break;
		}
		if (!add_threads(&f, pid))
			ret = error("no process %ld (-P %s): give the pid of a running process",
				    pid, list);
		sbuf_addf(&d, "%s%ld", d.len ? ", " : "pid ", pid);
	}
	sbuf_addstr(&d, " (the threads they have at the start)");
	if (!ret && (f.failed || d.failed))
		ret = error(ERR_NOMEM);
	if (!ret && !f.len)
		ret = error("-P '%s' names no process", list);
	if (!ret && f.len > FILTER_MAX)
		ret = error("-P %s: too many threads for one event filter (%zu bytes): use --cgroup or --comm",
			    list, f.len);
	free(copy);
	if (ret) {
		sbuf_release(&f);
		sbuf_release(&d);
		return -1;
	}
	*filter = sbuf_detach(&f);
	*desc = sbuf_detach(&d);
	return 0;
}

int task_filter_comm(const char *comm, char **filter, char **desc)
{
	size_t len = strlen(comm);

	if (!len || strpbrk(comm, "\"\\\n"))
		return error("invalid --comm '%s' (a process name, * and ? allowed)",
			     comm);
	if (len > 15)
		warning("--comm '%s': the kernel keeps 15 characters of a process name; matching '%.15s'",
			comm, comm);
	return both(filter, desc,
		    asprintf(filter, "comm %s \"%.15s\"",
			     strpbrk(comm, "*?[") ? "~" : "==", comm),
		    asprintf(desc, "processes named %.15s", comm));
}

/* Add the threads of the cgroup directory @dir and of its children. */
static void add_cgroup(struct sbuf *f, const char *dir, int depth)
{
	static const char *const files[] = { "cgroup.threads", "tasks" };
	char path[PATH_MAX], line[32];
	struct dirent *d;
	size_t i;
	DIR *dp;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		fp = fopen_raw(path);
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp))
			sbuf_addf(f, "%scommon_pid == %ld",
				  f->len ? " || " : "", strtol(line, NULL, 10));
		fclose(fp);
		break;
	}
	dp = depth < 16 ? opendir_raw(dir) : NULL;
	while (dp && (d = readdir(dp))) {
		struct stat st;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			add_cgroup(f, path, depth + 1);
	}
	if (dp)
		closedir(dp);
}

int task_filter_cgroup(const char *cg, char **filter, char **desc)
{
	struct sbuf f = SBUF_INIT;
	char dir[PATH_MAX];
	struct stat st;

	if (!strncmp(cg, "/sys/", 5) ||
	    (cg[0] == '/' && stat(cg, &st) == 0 && S_ISDIR(st.st_mode)))
		snprintf(dir, sizeof(dir), "%s", cg);
	else
		snprintf(dir, sizeof(dir), "/sys/fs/cgroup/%s",
			 cg + (cg[0] == '/'));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return error("no cgroup %s (%s): give a directory of /sys/fs/cgroup or a path below it",
			     cg, dir);
	add_cgroup(&f, dir, 0);
	if (f.failed) {
		sbuf_release(&f);
		return error(ERR_NOMEM);
	}
	if (!f.len) {
		sbuf_release(&f);
		return error("cgroup %s has no process now: nothing to record", dir);
	}
	if (f.len > FILTER_MAX) {
		error("cgroup %s: too many threads for one event filter (%zu bytes): use --comm or -P",
		      dir, f.len);
		sbuf_release(&f);
		return -1;
	}
	*filter = sbuf_detach(&f);
	if (asprintf(desc, "cgroup %s (the threads it has at the start)",
		     dir) < 0) {
		free(*filter);
		return error(ERR_NOMEM);
	}
	return 0;
}

int task_filter_command(int pid, const char *command, char **filter,
			char **desc)
{
	return both(filter, desc, asprintf(filter, "common_pid >= %d", pid),
		    asprintf(desc, "pid %d (the command %s) and up: its children and the processes started after it",
			     pid, command));
}
