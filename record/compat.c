// SPDX-License-Identifier: MIT
/*
 * compat.c - recording 32-bit (compat) programs' syscalls only where one
 * runs.  Their calls cost raw_syscalls events filtered on the compat ids,
 * and those tracepoints fire on every system call of every program: on a
 * machine without a 32-bit program that is pure cost.  So, unless one runs
 * already (compat_present()), iorec prepares the compat events without
 * enabling them and a watcher thread waits for the first exec of a 32-bit
 * program: a second small instance (iorecx-PID) holds only
 * sched_process_exec, whose trace_pipe wakes the thread at each exec; the
 * thread reads the new program's ELF class from /proc/PID/exe and, for a
 * 32-bit one, enables the compat events in the recording's instance.  The
 * calls that program makes between its exec and that moment (its dynamic
 * loader's first ones, typically a millisecond) are not recorded.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "record.h"

/* Is the program of /proc/@pid, or the file @path, of ABI @compat? */
static bool exe_is(const char *pid, enum rec_abi compat)
{
	char path[300];

	snprintf(path, sizeof(path), "/proc/%s/exe", pid);
	return elf_file_abi(path) == compat;
}

/* The path execvp() would run for @cmd, into @out; false if none. */
static bool resolve_command(const char *cmd, char *out, size_t size)
{
	const char *path = getenv("PATH"), *p, *colon;

	if (strchr(cmd, '/')) {
		snprintf(out, size, "%s", cmd);
		return true;
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; p; p = colon ? colon + 1 : NULL) {
		int len;

		colon = strchr(p, ':');
		len = colon ? (int)(colon - p) : (int)strlen(p);
		snprintf(out, size, "%.*s/%s", len, len ? p : ".", cmd);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

bool compat_present(enum rec_abi compat, const char *command,
		    char *why, size_t size)
{
	char path[4096];
	struct dirent *d;
	DIR *dir;
	bool found = false;

	if (abi_self() == compat) {
		snprintf(why, size, "iorec itself is a %s program",
			 abi_name(compat));
		return true;
	}
	if (command && resolve_command(command, path, sizeof(path)) &&
	    elf_file_abi(path) == compat) {
		snprintf(why, size, "the command %s is a %s program", path,
			 abi_name(compat));
		return true;
	}
	dir = opendir_raw("/proc");
	if (!dir)
		return false;
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		if (exe_is(d->d_name, compat)) {
			snprintf(why, size, "process %s runs a %s program",
				 d->d_name, abi_name(compat));
			found = true;
		}
	}
	closedir(dir);
	return found;
}

struct compat_watch {
	struct rec_instance ri;		/* iorecx-PID */
	struct tracefs_instance *ti;	/* ri.ti */
	struct plan *plan;
	struct tracefs_instance *rec;	/* the recording's instance */
	int fd;				/* trace_pipe of ti */
	int stop[2];			/* a byte on stop[1] ends the thread */
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	/* under lock: */
	bool on;
	int pid;
	uint64_t exec_ns, on_ns;	/* the exec seen, compat on (mono) */
	bool reported;
};

/*
 * The "pid=N" and time of a trace_pipe line of sched_process_exec
 * ("comm-1 [000] ..... 12.345678: sched_process_exec: filename=/x
 * pid=12 old_pid=12"), or 0.
 */
static int exec_line_pid(const char *line, uint64_t *ts)
{
	const char *ev = strstr(line, ": sched_process_exec: ");
	const char *p, *colon;
	long pid = 0;

	if (!ev)
		return 0;
	/* the filename may hold anything: the last " pid=" is the field */
	for (p = strstr(ev, " pid="); p; p = strstr(p + 1, " pid="))
		pid = strtol(p + 5, NULL, 10);
	*ts = 0;
	for (colon = ev; colon > line && colon[-1] != ' '; colon--)
		;
	if (colon < ev) {
		double secs = strtod(colon, NULL);

		*ts = (uint64_t)(secs * 1e9);
	}
	return pid > 0 && pid <= 0x7fffffff ? (int)pid : 0;
}

/* Enable the compat events once, from the watcher thread. */
static void watch_fire(struct compat_watch *cw, int pid, uint64_t ts)
{
	plan_compat_enable(cw->plan, cw->rec);
	pthread_mutex_lock(&cw->lock);
	cw->on = true;
	cw->pid = pid;
	cw->exec_ns = ts;
	cw->on_ns = now_mono_ns();
	pthread_mutex_unlock(&cw->lock);
}

static void *watch_main(void *arg)
{
	struct compat_watch *cw = arg;
	char buf[8192];
	size_t have = 0;
	bool on = false;

	while (!on) {
		struct pollfd pfd[2] = {
			{ .fd = cw->fd, .events = POLLIN },
			{ .fd = cw->stop[0], .events = POLLIN },
		};
		ssize_t n;
		char *line, *nl;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents)
			break;
		n = read(cw->fd, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		for (line = buf; !on && (nl = strchr(line, '\n'));
		     line = nl + 1) {
			uint64_t ts;
			char pid[16];
			int p;

			*nl = '\0';
			p = exec_line_pid(line, &ts);
			if (!p)
				continue;
			snprintf(pid, sizeof(pid), "%d", p);
			if (exe_is(pid, cw->plan->compat)) {
				watch_fire(cw, p, ts);
				on = true;
			}
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* a line longer than the buffer */
	}
	/* nothing more to watch: stop its events */
	tracefs_trace_off(cw->ti);
	return NULL;
}

struct compat_watch *compat_watch_start(struct plan *p,
					struct tracefs_instance *rec)
{
	struct compat_watch *cw = calloc(1, sizeof(*cw));
	const char *clock = "mono";

	if (!cw) {
		error("out of memory (use --compat or --no-compat)");
		return NULL;
	}
	cw->plan = p;
	cw->rec = rec;
	cw->fd = -1;
	cw->stop[0] = cw->stop[1] = -1;
	pthread_mutex_init(&cw->lock, NULL);
	snprintf(cw->ri.name, sizeof(cw->ri.name), INSTANCE_EXEC_PREFIX "%d",
		 (int)getpid());
	cw->ri.ti = tracefs_instance_create(cw->ri.name);
	cw->ti = cw->ri.ti;
	if (!cw->ti) {
		error("cannot create tracefs instance %s: %m (use --compat or --no-compat)",
		      cw->ri.name);
		goto fail;
	}
	tracefs_trace_off(cw->ti);
	if (tracefs_instance_file_write(cw->ti, "trace_clock", clock) < 0)
		tracefs_instance_file_write(cw->ti, "trace_clock", "global");
	tracefs_instance_set_buffer_size(cw->ti, 16, -1);
	/* the enable file itself: tracefs_event_enable() would match its
	 * names as patterns against every event of every system */
	if (tracefs_event_file_write(cw->ti, "sched", "sched_process_exec",
				     "enable", "1") < 0) {
		error("cannot enable sched:sched_process_exec in %s: %m (use --compat or --no-compat)",
		      cw->ri.name);
		goto fail;
	}
	cw->fd = tracefs_instance_file_open(cw->ti, "trace_pipe",
					    O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (cw->fd < 0 || pipe2(cw->stop, O_CLOEXEC) < 0) {
		error("cannot open the trace_pipe of %s: %m (use --compat or --no-compat)",
		      cw->ri.name);
		goto fail;
	}
	if (tracefs_trace_on(cw->ti) < 0) {
		error("cannot turn tracing on in %s: %m (use --compat or --no-compat)",
		      cw->ri.name);
		goto fail;
	}
	if (pthread_create(&cw->thread, NULL, watch_main, cw)) {
		error("cannot start the 32-bit exec watcher: %m (use --compat or --no-compat)");
		goto fail;
	}
	cw->running = true;
	return cw;
fail:
	compat_watch_stop(cw);
	return NULL;
}

void compat_watch_stop(struct compat_watch *cw)
{
	if (!cw)
		return;
	if (cw->running) {
		char c = 0;

		if (write(cw->stop[1], &c, 1) < 0)
			pthread_cancel(cw->thread);
		pthread_join(cw->thread, NULL);
		cw->running = false;
	}
	if (cw->fd >= 0)
		close(cw->fd);
	if (cw->stop[0] >= 0) {
		close(cw->stop[0]);
		close(cw->stop[1]);
	}
	instance_destroy(&cw->ri);
	pthread_mutex_destroy(&cw->lock);
	free(cw);
}

bool compat_watch_fired(struct compat_watch *cw, int *pid, uint64_t *exec_ns,
			uint64_t *on_ns, bool once)
{
	bool on, report;

	if (!cw)
		return false;
	pthread_mutex_lock(&cw->lock);
	on = cw->on;
	report = on && (!once || !cw->reported);
	if (report) {
		cw->reported = cw->reported || once;
		*pid = cw->pid;
		*exec_ns = cw->exec_ns;
		*on_ns = cw->on_ns;
	}
	pthread_mutex_unlock(&cw->lock);
	return report;
}
