// SPDX-License-Identifier: MIT
/*
 * check.c - iorec --check: whether recording is possible here and with
 * what (tracefs, clock, buffers, readers, syscalls, 32-bit programs, file
 * names, limits), and the sizes the recording takes from the CPU count.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <tracefs.h>

#include "iorec-int.h"

/* ------------------------------------------------------------------ */
/* --check */

static bool clock_available(const char *name)
{
	char *clocks = tracefs_instance_file_read(NULL, "trace_clock", NULL);
	bool found = false;
	char *tok, *save = NULL;

	for (tok = clocks ? strtok_r(clocks, " \n", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (*tok == '[')
			tok++;
		tok[strcspn(tok, "]")] = '\0';
		if (!strcmp(tok, name))
			found = true;
	}
	free(clocks);
	return found;
}

/* Can the output be created?  Returns NULL or the reason. */
static const char *output_problem(void)
{
	static char why[256];
	char *dir, *slash;
	int ok;

	if (!strcmp(env.output, "-"))
		return isatty(STDOUT_FILENO) ? "stdout is a terminal" : NULL;
	dir = strdup(env.output);
	if (!dir)
		return "out of memory";
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	ok = access(dir, W_OK) == 0;
	snprintf(why, sizeof(why), "cannot write in %s: %s", dir,
		 strerror(errno));
	free(dir);
	return ok ? NULL : why;
}

/*
 * The per-CPU buffer when -b is not given: 1/256 of the memory for all
 * CPUs together, from 1 MiB to 8 MiB per CPU (a 1 GB four-core board gets
 * 1 MiB per CPU, a machine of 4 GB or more per CPU 8 MiB).
 */
unsigned int buffer_default(int ncpus)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t kb;

	if (pages <= 0 || psize <= 0 || ncpus < 1)
		return 2048;
	kb = (uint64_t)pages * (uint64_t)psize / 1024 / 256 / (uint64_t)ncpus;
	if (kb < 1024)
		kb = 1024;
	if (kb > 8192)
		kb = 8192;
	return (unsigned int)(kb & ~3ull);
}

/* Reader threads when -T is not given: none on 1-2 CPUs. */
static int threads_default(int ncpus)
{
	if (ncpus <= 2)
		return 0;
	return ncpus / 2 > 32 ? 32 : (ncpus + 1) / 2;
}

/* What the readers hold in memory, in MB (see iorec(1), OVERHEAD). */
static double reader_memory_mb(int ncpus, int threads, size_t batch)
{
	int zctx = threads > 1 ? threads : 1;

	/* batches, per context its zstd state (~1.2 MB at level 3), its
	 * output buffer and the pages one splice holds in a CPU's pipe
	 * until they are read (a batch: kernel memory, for a moment), the
	 * writer's 1 MiB buffer */
	return mb((uint64_t)ncpus * batch) +
	       zctx * (1.2 + mb(2 * batch + batch / 128 + 512)) + 1.0;
}

/* Raw bytes per DATA batch of each CPU: BATCH_BUDGET shared out. */
size_t batch_bytes(int ncpus)
{
	size_t batch = BATCH_BUDGET / (size_t)(ncpus > 0 ? ncpus : 1);

	if (batch > BATCH_MAX)
		batch = BATCH_MAX;
	if (batch < BATCH_MIN)
		batch = BATCH_MIN;
	return batch;
}

/* The reader threads of this run (0: the main loop reads). */
int reader_threads(int ncpus)
{
	int th = env.threads >= 0 ? env.threads : threads_default(ncpus);

	return th <= 1 ? 0 : th > ncpus ? ncpus : th;
}

static void check_print_readers(int ncpus)
{
	int th = reader_threads(ncpus);
	char who[96];

	if (th)
		snprintf(who, sizeof(who),
			 "%d threads, each reading and compressing %d%s CPU%s",
			 th, ncpus / th, ncpus % th ? " or more" : "",
			 ncpus / th > 1 || ncpus % th ? "s" : "");
	else
		snprintf(who, sizeof(who), "the main loop reads every CPU");
	printf("  readers      %s, at nice %d where allowed;\n"
	       "               at most %.1f MB of batches, pipes and compression state\n",
	       who, READER_NICE,
	       reader_memory_mb(ncpus, th, batch_bytes(ncpus)));
}

/* The number of ids in a raw_syscalls filter "id == 1 || id == 2". */
static int count_ids(const char *filter)
{
	int n = 0;

	while (filter && (filter = strstr(filter, "id == "))) {
		n++;
		filter += 6;
	}
	return n;
}

static void check_print_syscalls(const struct plan *p)
{
	if (!(p->profiles & PROFILE_IO))
		printf("  syscalls     not recorded (profile io not selected)\n");
	else if (p->raw_syscalls)
		printf("  syscalls     raw_syscalls:sys_enter/sys_exit filtered on %d syscall ids (%s); the report has no per-syscall argument names, fd and count only via args[]\n",
		       count_ids(p->raw_filter),
		       p->raw_forced ? "--raw-syscalls" :
		       "fallback: no syscalls:* events, kernel lacks CONFIG_FTRACE_SYSCALLS");
	else
		printf("  syscalls     syscalls:* events for %d of %d I/O syscalls; the enters of ioctl\n"
		       "               only for FIONCLEX/FIOCLEX and of mmap only for MAP_SHARED (their\n"
		       "               exits all: an exit has no arguments to filter on)\n",
		       p->nsyscalls_found, p->nsyscalls);
}

/* What is done for 32-bit (compat) programs on this kernel. */
static void check_print_compat(const struct rec *r)
{
	const struct plan *p = &r->plan;

	if (!(p->profiles & PROFILE_IO))
		return;
	switch (p->compat_mode) {
	case COMPAT_NONE:
		printf("  32-bit       none: %s (%s kernel)\n",
		       p->compat_why ? p->compat_why : "no compat ABI",
		       abi_name(p->abi));
		break;
	case COMPAT_SHADOW:
		printf("  32-bit       %s programs on this %s kernel: the syscalls:* events skip them;\n"
		       "               raw_syscalls filtered on the %s ids, with %d native marker events\n"
		       "               (a raw event without a syscalls:* twin comes from a 32-bit program)%s%s\n",
		       abi_name(p->compat), abi_name(p->abi),
		       abi_name(p->compat), p->nmarkers,
		       p->unshadowed && *p->unshadowed ? "; ids without marker: " : "",
		       p->unshadowed ? p->unshadowed : "");
		if (p->compat_armed)
			printf("               OFF until a 32-bit program starts (none runs now; they fire on\n"
			       "               every system call): switched on at its exec, within milliseconds;\n"
			       "               the calls it makes before then (its loader's) are not recorded;\n"
			       "               --compat records from the start, --no-compat never\n");
		else
			printf("               on from the start: %s\n", r->compat_why);
		break;
	case COMPAT_RAW:
		printf("  32-bit       %s programs on this %s kernel: raw_syscalls filtered on %s and %s ids;\n"
		       "               ABI per process from the snapshots, the command and exec probes\n",
		       abi_name(p->compat), abi_name(p->abi), abi_name(p->abi),
		       abi_name(p->compat));
		break;
	case COMPAT_OFF:
		printf("  32-bit       NOT RECORDED: %s programs can run on this %s kernel, but %s\n",
		       abi_name(p->compat), abi_name(p->abi),
		       p->compat_why ? p->compat_why : "their syscalls cannot be recorded");
		break;
	}
	if (p->compat_mode != COMPAT_NONE && p->compat_why &&
	    p->compat_mode != COMPAT_OFF)
		printf("               (%s)\n", p->compat_why);
}

/*
 * The file-name chain, for real: every probe promised is created and
 * enabled in a scratch instance, which is removed again with the probes.
 */
static void check_print_names(struct rec *r)
{
	struct rec_instance scratch;
	char ino[512];

	if (!(r->plan.profiles & PROFILE_IO))
		return;
	memset(&scratch, 0, sizeof(scratch));
	names_remove_stale(env.verbose);
	if (instance_create(&scratch, 64, 50) < 0) {
		printf("  file names   cannot try the probes: no scratch instance\n");
		return;
	}
	names_setup(&r->names, &r->plan, scratch.ti, env.verbose);
	inoset_check(scratch.ti, ino, sizeof(ino));
	instance_destroy(&scratch);
	names_destroy(&r->names);
	printf("  file names   tried in order (each probe created and enabled, then removed):\n");
	names_print(&r->names, stdout);
	printf("       inode     %s\n", ino);
}

/*
 * The limitations of this recording, as stored in the header; @console
 * leaves out the armed 32-bit path's, a condition --check states.
 */
void collect_limits(const struct rec *r, const char *out[3],
			   bool console)
{
	const struct plan *p = &r->plan;
	static char compat[320], syscalls[200];
	uint64_t exec_ns, on_ns;
	const char *lim;
	int n = 0, pid;

	out[0] = out[1] = out[2] = NULL;
	if (!(p->profiles & PROFILE_IO))
		return;
	if (p->raw_unnumbered) {
		snprintf(syscalls, sizeof(syscalls),
			 "no syscalls are recorded: raw_syscalls would need the syscall numbers of the %s ABI, which iorec does not have",
			 abi_name(p->abi));
		out[n++] = syscalls;
	}
	if (p->compat_mode == COMPAT_OFF) {
		snprintf(compat, sizeof(compat),
			 "syscalls of 32-bit (%s) programs are not recorded: %s",
			 abi_name(p->compat),
			 p->compat_why ? p->compat_why : "no raw_syscalls");
		out[n++] = compat;
	} else if (p->compat_armed && !console) {
		snprintf(compat, sizeof(compat),
			 "syscalls of 32-bit (%s) programs are recorded from the first one's exec on: that program's first calls (within milliseconds of its exec) are missing",
			 abi_name(p->compat));
		out[n++] = compat;
	}
	lim = names_limit(&r->names, p);
	/* the 32-bit programs' names matter on the console only once one
	 * has run: armed and not fired, the machine had none */
	if (lim && console && p->compat_armed && strstr(lim, "32-bit") &&
	    !compat_watch_fired(r->cw, &pid, &exec_ns, &on_ns, false))
		lim = NULL;
	if (lim)
		out[n++] = lim;
}

static void check_print_limits(void)
{
	printf("  stop         ");
	if (env.command)
		printf("when '%s' exits, ", env.command[0]);
	if (env.duration_ns)
		printf("after %.3g s, ", (double)env.duration_ns / 1e9);
	if (env.max_size)
		printf("at %.1f MB, ", mb(env.max_size));
	printf("on Ctrl-C, SIGTERM or SIGHUP\n");
	if (env.flight)
		printf("  flight       keep the last %.1f MB of compressed data in memory\n",
		       mb(env.flight));
	if (env.snapshot_dir) {
		int i;

		printf("  black box    snapshots into %s on SIGUSR1 (iorec --snapshot, pid file %s)",
		       env.snapshot_dir, env.pid_file);
		for (i = 0; i < trig_count(env.trig); i++)
			printf("%s%s", i ? ", " : " and when ",
			       trig_cond_at(env.trig, i)->text);
		printf(";\n               %.0f s after a trigger, at most one per %.0f s",
		       (double)env.post_ns / 1e9,
		       (double)env.cooldown_ns / 1e9);
		if (env.keep)
			printf("; at most %u kept", env.keep);
		if (env.keep_bytes)
			printf("; at most %.1f MB kept", mb(env.keep_bytes));
		printf("\n");
	}
}

int do_check(struct rec *r)
{
	struct plan *p = &r->plan;
	const char *outp = output_problem();
	size_t nok = plan_count_ok(p), nmiss = 0, i;
	bool mono = clock_available("mono");
	struct utsname u;
	bool possible;
	int ncpus = instance_count_cpus(NULL);

	for (i = 0; i < p->nev; i++)
		nmiss += p->ev[i].state == PLAN_MISSING;
	possible = nok > 0 && !p->nusers_missing && !outp;
	uname(&u);
	printf("iorec --check: recording is %s\n",
	       possible ? "possible" : "NOT possible");
	printf("  tracefs      %s (instance iorec-PID, the top level is not touched)\n",
	       tracefs_tracing_dir());
	printf("  kernel       %s %s, %d CPUs, page %ld, sub-buffer %d, long %d\n",
	       u.release, u.machine, ncpus, sysconf(_SC_PAGESIZE),
	       r->subbuf_size, r->long_size);
	printf("  clock        %s\n", mono ? "mono (same timeline as CLOCK_MONOTONIC)" :
	       "global (mono unavailable: event times will not match CLOCK_MONOTONIC)");
	printf("  buffers      %u KB per CPU (%u KB in all%s), wake-up at %u%% full\n",
	       env.buffer_kb, env.buffer_kb * (unsigned int)ncpus,
	       env.buffer_given ? "" : ", from the memory and CPU count",
	       env.watermark);
	check_print_readers(ncpus);
	printf("  profiles     %s\n", plan_profile_names(p->profiles));
	check_print_syscalls(p);
	if (p->task_desc || env.command_only)
		printf("  only         system calls of %s;\n"
		       "               block, writeback, journal and process events of the whole machine\n",
		       p->task_desc ? p->task_desc :
		       "the command, its children and any process started after it");
	check_print_compat(r);
	check_print_names(r);
	printf("  output       %s (zstd level %d)%s%s\n",
	       strcmp(env.output, "-") ? env.output : "stdout", env.level,
	       outp ? ": " : "", outp ? outp : "");
	check_print_limits();
	printf("  events       %zu to record, %zu missing\n", nok, nmiss);
	plan_print_events(p, stdout, env.verbose);
	if (p->nusers_missing)
		printf("  -e events that do not exist: see %s/available_events\n",
		       tracefs_tracing_dir());
	{
		const char *lim[3];
		int i;

		collect_limits(r, lim, false);
		for (i = 0; i < 3 && lim[i]; i++)
			printf("  LIMIT        %s\n", lim[i]);
	}
	return possible ? 0 : 1;
}
