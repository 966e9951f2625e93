// SPDX-License-Identifier: MIT
/*
 * child.c - the command iorec runs under the recording (iorec -- CMD):
 * spawned stopped until the recording runs, its ABI, its end.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "iorec-int.h"

/* ------------------------------------------------------------------ */
/* the command */

/*
 * Wait until the command's exec happened (its end of the pipe closes on
 * exec) and store the ABI of the program it runs: a 64-bit iorec may run a
 * 32-bit command, whose raw syscall ids need the compat table.
 */
static int note_command_abi(struct rec *r)
{
	char path[64], line[128];
	enum rec_abi abi;
	ssize_t n;
	char c;
	int len, ret;

	do
		n = read(r->exec_pipe, &c, 1);
	while (n < 0 && errno == EINTR);
	close(r->exec_pipe);
	r->exec_pipe = -1;
	if (n != 0)
		return 0;	/* exec failed: the child says so and exits */
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)r->child);
	abi = elf_file_abi(path);
	if (abi == ABI_UNKNOWN)
		return 0;
	len = snprintf(line, sizeof(line), "%llu\t%d\t%s\tcommand\n",
		       (unsigned long long)now_mono_ns(), (int)r->child,
		       abi_name(abi));
	ret = iorec_writer_add(r->w, IOREC_CHUNK_EXEC_ABI, NULL, 0, line,
			       (size_t)len, false);
	if (ret < 0)
		note_write_error(r, ret);
	return 0;
}

/*
 * Fork the command, held before its exec until release_command(): so
 * that --command-only knows its pid before the header is written and its
 * filters are set before it runs.
 */
int spawn_command(struct rec *r)
{
	int fds[2] = { -1, -1 }, go[2];
	pid_t pid;

	fflush(NULL);
	if (pipe2(go, O_CLOEXEC) < 0)
		return error("cannot start '%s': pipe: %m", env.command[0]);
	if (pipe2(fds, O_CLOEXEC) < 0)
		fds[0] = fds[1] = -1;
	pid = fork();
	if (pid < 0) {
		if (fds[0] >= 0) {
			close(fds[0]);
			close(fds[1]);
		}
		close(go[0]);
		close(go[1]);
		return error("cannot start '%s': fork: %m", env.command[0]);
	}
	if (pid == 0) {
		struct pollfd pfd = { .fd = go[0], .events = POLLIN };
		sigset_t none;
		char c = 1;

		/*
		 * Wait in poll(), a call iorec does not record: a read would
		 * leave its exit in a --command-only recording.  The pipes
		 * are close-on-exec; iorec kills a command it does not let go.
		 */
		while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
			;
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* stdout carries the recording: give the command stderr */
		if (r->out_stdout)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(env.command[0], env.command);
		fprintf(stderr, "iorec: error: cannot run '%s': %s\n",
			env.command[0], strerror(errno));
		if (fds[1] >= 0 && write(fds[1], &c, 1) < 0)
			_exit(127);
		_exit(127);
	}
	r->child = pid;
	close(go[0]);
	r->go_pipe = go[1];
	if (fds[0] >= 0) {
		close(fds[1]);
		r->exec_pipe = fds[0];
	}
	return 0;
}

/* Let the spawned command exec, and note its ABI. */
int release_command(struct rec *r)
{
	char c = 1;
	ssize_t n;

	do
		n = write(r->go_pipe, &c, 1);
	while (n < 0 && errno == EINTR);
	close(r->go_pipe);
	r->go_pipe = -1;
	if (n != 1)
		return error("cannot start '%s': %m", env.command[0]);
	if (r->exec_pipe < 0)
		return 0;
	return note_command_abi(r);
}

void reap_child(struct rec *r)
{
	int status;

	if (!r->child)
		return;
	child_changed = 0;
	if (waitpid(r->child, &status, WNOHANG) == r->child &&
	    (WIFEXITED(status) || WIFSIGNALED(status))) {
		r->child_status = status;
		r->child_done = true;
		r->child = 0;
	}
}

int child_exit_code(const struct rec *r)
{
	if (WIFEXITED(r->child_status))
		return WEXITSTATUS(r->child_status);
	return 128 + WTERMSIG(r->child_status);
}

void child_reason(struct rec *r)
{
	if (WIFEXITED(r->child_status))
		snprintf(r->reason, sizeof(r->reason), "command exited %d",
			 WEXITSTATUS(r->child_status));
	else
		snprintf(r->reason, sizeof(r->reason),
			 "command killed by signal %d",
			 WTERMSIG(r->child_status));
}

/* After a signal stop: pass SIGTERM/SIGHUP on, and wait up to 2 s. */
void finish_child(struct rec *r)
{
	int i;

	if (!r->child)
		return;
	if (stop_signal == SIGTERM || stop_signal == SIGHUP)
		kill(r->child, stop_signal);
	for (i = 0; i < 200 && r->child; i++) {
		reap_child(r);
		if (r->child)
			usleep(10000);
	}
}
