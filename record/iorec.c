// SPDX-License-Identifier: MIT
/*
 * iorec.c - the iorec recorder: options, then set up a tracefs instance,
 * read its per-CPU ring buffers into a .iorec file until a time, size,
 * command or signal ends the recording, and clean up on every path.
 *
 * main() is parse -> check -> setup -> loop -> one cleanup exit path.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "iorec-format.h"
#include "record.h"

#define FLUSH_NS	(2 * 1000000000ull)	/* cut batches at least this often */
#define TICK_MS		1000			/* status and housekeeping */
#define DRAIN_NS	(200 * 1000000ull)	/* after CMD exits */
#define BATCH_MAX	(1u << 20)		/* raw bytes per DATA batch */
#define BATCH_BUDGET	(4u << 20)		/* all CPUs' batches together */
#define BATCH_MIN	(64u << 10)

static struct env {
	const char *output;
	uint64_t duration_ns;
	uint64_t max_size;
	uint64_t flight;
	unsigned int profiles;
	char **events;
	int nevents;
	bool raw_syscalls;
	const char *names;	/* --names LIST, or NULL for auto */
	bool no_uprobes;
	int compat;		/* COMPAT_WANT_* */
	const char *pids;	/* -P LIST */
	const char *comm;	/* --comm NAME */
	const char *cgroup;	/* --cgroup PATH */
	bool command_only;	/* --command-only */
	unsigned int buffer_kb;	/* buffer_default() unless -b */
	bool buffer_given;
	int threads;		/* -1: chosen by threads_default() */
	unsigned int watermark;
	int level;
	bool check;
	bool quiet;
	bool verbose;
	char **command;		/* argv after --, or NULL */
	int argc;
	char **argv;
} env = {
	.output = "iorec.iorec",
	.profiles = PROFILE_IO,
	.threads = -1,
	.watermark = 50,
	.level = 3,
};

/* --compat / --no-compat / neither */
enum { COMPAT_WANT_AUTO, COMPAT_WANT_ON, COMPAT_WANT_OFF };

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t child_changed;

/* Everything one recording owns; released by rec_release(). */
struct rec {
	struct plan plan;
	struct names names;
	struct rec_instance ri;
	struct iorec_writer *w;
	struct ringbuf *rb;
	int out_fd;
	bool out_stdout;
	char out_dev[32];
	unsigned long long out_ino;
	int long_size;
	int subbuf_size;
	char *header_page;
	int header_page_len;
	uint64_t start_mono, start_real;
	pid_t child;		/* 0 when none or reaped */
	int exec_pipe;		/* closed by the child's exec, or -1 */
	int go_pipe;		/* a byte lets the spawned command exec, or -1 */
	int child_status;	/* wait status, valid when child_done */
	bool child_done;
	int write_err;		/* iorec_error of the failed writer, or 0 */
	char reason[160];
	uint64_t *cpu_lost;
	uint64_t lost;
	char compat_why[160];	/* why compat is on from the start */
	struct compat_watch *cw;	/* armed compat: the exec watcher */
};

static const char usage_text[] =
"Usage: iorec [OPTIONS] [-- COMMAND [ARG...]]\n"
"Record block, file-syscall, writeback, ext4/jbd2 and process events from\n"
"the kernel's ftrace ring buffers into a compressed .iorec file for ioreport.\n"
"\n"
"  -o, --output FILE       output file; '-' writes to stdout (default: iorec.iorec)\n"
"  -d, --duration SECONDS  stop after this long (accepts 10, 1.5s, 500ms, 2m)\n"
"  -S, --max-size SIZE     stop when the output file reaches SIZE (e.g. 100M)\n"
"  -F, --flight SIZE       flight recorder: keep only the last SIZE of compressed\n"
"                          data (in memory), write it at the end\n"
"  -p, --profile LIST      comma list of profiles: io (default), iowait (adds\n"
"                          sched_switch/sched_wakeup/sched_waking for D-state time)\n"
"  -e, --event SYS:EVENT   also record this event (repeatable; SYS:* for a whole system)\n"
"      --raw-syscalls      record raw_syscalls:sys_enter/sys_exit instead of\n"
"                          syscalls:* (what a kernel without CONFIG_FTRACE_SYSCALLS\n"
"                          gets automatically)\n"
"      --names LIST        where file names may come from, in order: a comma list\n"
"                          of strings, kprobe, eprobe, uprobe; 'auto' (default:\n"
"                          all, in that order) or 'none' (fd snapshots only)\n"
"      --no-uprobes        no uprobes in the C library (programs run under\n"
"                          valgrind die of SIGTRAP at open() while they are set)\n"
"      --compat            record 32-bit programs' syscalls from the start (the\n"
"                          default when one runs, or iorec or COMMAND is one)\n"
"      --no-compat         never record 32-bit programs' syscalls on a 64-bit\n"
"                          kernel (default: from the first 32-bit program's exec)\n"
"  -P, --pid PID[,PID]     record only these processes' system calls (their\n"
"                          threads at the start; block, writeback and journal\n"
"                          events stay system-wide)\n"
"      --comm NAME         record only the system calls of processes named NAME\n"
"                          (* and ? allowed)\n"
"      --cgroup PATH       record only the system calls of the threads of this\n"
"                          cgroup (and its children) at the start\n"
"      --command-only      with -- COMMAND: record only the system calls of\n"
"                          COMMAND, its children and processes started after it\n"
"  -b, --buffer-size KB    per-CPU kernel ring buffer size (default: from the\n"
"                          memory and CPU count, 1024 to 8192; --check says)\n"
"  -T, --threads N         reader threads, each reading and compressing a group\n"
"                          of CPUs (default: none on 1-2 CPUs, else one per 2\n"
"                          CPUs, at most 32; 0 or 1: the main loop reads)\n"
"  -w, --watermark PCT     wake up when a CPU buffer is PCT% full (default 50)\n"
"  -z, --level N           zstd level (default 3)\n"
"  -c, --check             print the plan and exit without recording; exit 0 if\n"
"                          recording is possible\n"
"  -q, --quiet             no status line and no end summary\n"
"  -v, --verbose           more detail (every event, stale instances removed)\n"
"  -h, --help              show this help\n"
"  -V, --version           show the version\n"
"\n"
"With -- COMMAND, iorec records while COMMAND runs (COMMAND is traced) and\n"
"exits with its exit status. Stop any recording with Ctrl-C.\n"
"\n"
"EXAMPLES:\n"
"  iorec --check                      # what can this kernel record?\n"
"  iorec -d 60 -o slow.iorec          # record 60 seconds\n"
"  iorec -o fsync.iorec -- ./dbtest   # record while a command runs\n"
"  iorec -o - | ssh host 'cat > x.iorec'   # do not write the slow disk\n"
"  iorec -F 50M -o last.iorec         # keep the last 50 MB until Ctrl-C\n"
"  iorec -p io,iowait -d 30           # also time D-state (I/O wait) sleeps\n"
"  iorec -e ext4:ext4_da_write_begin  # add one more event\n"
"  ioreport slow.iorec                # analyze it (anywhere)\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "iorec: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'iorec --help' for more information.\n");
	return 2;
}

/* parse_long() of a number without a sign (not even "-0"). */
static int parse_uint(const char *s, long min, long max, unsigned int *out)
{
	long v;

	if (*s == '-' || parse_long(s, min, max, &v))
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/*
 * Set *dst to v, the value parsed from an option's arg (-1 when it did
 * not parse), if it is at least min; else the usage error of fmt.
 */
static int set_at_least(uint64_t *dst, int64_t v, int64_t min,
			const char *fmt, const char *arg)
{
	if (v < min)
		return usage_error(fmt, arg);
	*dst = (uint64_t)v;
	return 0;
}

/* Handle one option; returns 0, or an exit code (2 usage, 0 done). */
static int parse_opt(int c, const char *arg)
{
	int64_t v;
	unsigned int u;
	char name[64];

	switch (c) {
	case 'o':
		env.output = arg;
		break;
	case 'd':
		return set_at_least(&env.duration_ns, parse_duration(arg), 1,
				    "invalid duration '%s' (use 10, 1.5s, 500ms, 2m)", arg);
	case 'S':
		return set_at_least(&env.max_size, parse_size(arg), 1,
				    "invalid size '%s' (use 100M, 1G, 512k)", arg);
	case 'F':
		return set_at_least(&env.flight, parse_size(arg), 64 << 10,
				    "invalid flight size '%s' (use 64k or more, e.g. 50M)", arg);
	case 'p':
		v = plan_parse_profiles(arg);
		if (v < 0)
			return usage_error("unknown profile in '%s' (profiles: io, iowait)", arg);
		env.profiles = (unsigned int)v;
		break;
	case 'e':
		env.events = xrealloc(env.events,
				      (size_t)(env.nevents + 1) * sizeof(char *));
		env.events[env.nevents++] = (char *)arg;
		break;
	case 'R':
		env.raw_syscalls = true;
		break;
	case 'N':
		env.names = arg;
		break;
	case 'U':
		env.no_uprobes = true;
		break;
	case 'C':
		env.compat = COMPAT_WANT_OFF;
		break;
	case 'K':
		env.compat = COMPAT_WANT_ON;
		break;
	case 'P':
		env.pids = arg;
		break;
	case 'M':
		env.comm = arg;
		break;
	case 'G':
		env.cgroup = arg;
		break;
	case 'O':
		env.command_only = true;
		break;
	case 'b':
		if (parse_uint(arg, 4, 16u << 20, &u) < 0)
			return usage_error("invalid buffer size '%s' (KB per CPU, 4 or more)", arg);
		env.buffer_kb = u;
		env.buffer_given = true;
		break;
	case 'T':
		if (parse_uint(arg, 0, 1024, &u) < 0)
			return usage_error("invalid thread count '%s' (0 to 1024)", arg);
		env.threads = (int)u;
		break;
	case 'w':
		if (parse_uint(arg, 0, 100, &u) < 0)
			return usage_error("invalid watermark '%s' (a percentage, 0 to 100)", arg);
		env.watermark = u;
		break;
	case 'z':
		if (parse_uint(arg, 1, 19, &u) < 0)
			return usage_error("invalid zstd level '%s' (1 to 19)", arg);
		env.level = (int)u;
		break;
	case 'c':
		env.check = true;
		break;
	case 'q':
		env.quiet = true;
		break;
	case 'v':
		env.verbose = true;
		break;
	case ':':
		return usage_error("option '%s' wants an argument",
				   getopt_name(env.argv, name));
	default:
		return usage_error("unknown option '%s'",
				   getopt_name(env.argv, name));
	}
	return 0;
}

/* Returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "max-size", required_argument, NULL, 'S' },
		{ "flight", required_argument, NULL, 'F' },
		{ "profile", required_argument, NULL, 'p' },
		{ "event", required_argument, NULL, 'e' },
		{ "raw-syscalls", no_argument, NULL, 'R' },
		{ "names", required_argument, NULL, 'N' },
		{ "no-uprobes", no_argument, NULL, 'U' },
		{ "no-compat", no_argument, NULL, 'C' },
		{ "compat", no_argument, NULL, 'K' },
		{ "pid", required_argument, NULL, 'P' },
		{ "comm", required_argument, NULL, 'M' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "command-only", no_argument, NULL, 'O' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "threads", required_argument, NULL, 'T' },
		{ "watermark", required_argument, NULL, 'w' },
		{ "level", required_argument, NULL, 'z' },
		{ "check", no_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	env.argc = argc;
	env.argv = argv;
	opterr = 0;		/* parse_opt() names the option */
	while ((c = getopt_long(argc, argv, "+:o:d:S:F:p:e:P:b:T:w:z:cqvhV", opts,
				NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'V') {
			printf("iorec %s\n", PACKAGE_VERSION);
			return 0;
		}
		ret = parse_opt(c, optarg);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			return usage_error("unexpected argument '%s' (put the command after --)",
					   argv[optind]);
		env.command = &argv[optind];
	}
	if (!!env.pids + !!env.comm + !!env.cgroup + env.command_only > 1)
		return usage_error("%s", "-P, --comm, --cgroup and --command-only do not go together (choose one)");
	if (env.command_only && !env.command)
		return usage_error("%s", "--command-only wants a command: iorec --command-only -- COMMAND");
	if (env.flight && env.max_size)
		return usage_error("%s", "-F and -S do not go together (-F already bounds the size)");
	if (!*env.output)
		return usage_error("%s", "empty output file name");
	return -1;
}

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	child_changed = 1;
}

/* sigaction without SA_RESTART, so poll() wakes up. */
static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void setup_signals(void)
{
	set_handler(SIGINT, on_stop_signal);
	set_handler(SIGTERM, on_stop_signal);
	set_handler(SIGHUP, on_stop_signal);
	set_handler(SIGCHLD, on_child);
	set_handler(SIGPIPE, SIG_IGN);
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGINT:	return "SIGINT";
	case SIGTERM:	return "SIGTERM";
	case SIGHUP:	return "SIGHUP";
	}
	return "signal";
}

static double mb(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

/* ------------------------------------------------------------------ */
/* header page: long size and sub-buffer size */

/*
 * Read events/header_page and learn from libtraceevent the kernel's long
 * size (the size of the commit field) and the sub-buffer size.
 */
static int read_header_page(struct rec *r, struct tracefs_instance *ti)
{
	struct tep_handle *tep;
	long long kb;

	free(r->header_page);
	r->header_page = tracefs_instance_file_read(ti, "events/header_page",
						    &r->header_page_len);
	if (!r->header_page)
		return error("cannot read events/header_page: %m");
	tep = tep_alloc();
	if (!tep)
		return error("out of memory");
	if (tep_parse_header_page(tep, r->header_page,
				  (unsigned long)r->header_page_len,
				  (int)sizeof(long)) < 0) {
		tep_free(tep);
		return error("cannot parse events/header_page");
	}
	r->long_size = tep_get_header_page_size(tep);
	r->subbuf_size = tep_get_sub_buffer_size(tep);
	tep_free(tep);
	if (r->long_size != 4 && r->long_size != 8)
		r->long_size = (int)sizeof(long);
	if (tracefs_file_exists(ti, "buffer_subbuf_size_kb") &&
	    !tracefs_instance_file_read_number(ti, "buffer_subbuf_size_kb",
					       &kb) && kb > 0)
		r->subbuf_size = (int)(kb * 1024);
	if (r->subbuf_size <= 0)
		r->subbuf_size = (int)sysconf(_SC_PAGESIZE);
	return 0;
}

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
	dir = xstrdup(env.output);
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
static unsigned int buffer_default(int ncpus)
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

	/* batches, per context its zstd state (~1.2 MB at level 3) and
	 * output buffer, the writer's 1 MiB buffer */
	return mb((uint64_t)ncpus * batch) +
	       zctx * (1.2 + mb(batch + batch / 128 + 512)) + 1.0;
}

/* Raw bytes per DATA batch of each CPU: BATCH_BUDGET shared out. */
static size_t batch_bytes(int ncpus)
{
	size_t batch = BATCH_BUDGET / (size_t)(ncpus > 0 ? ncpus : 1);

	if (batch > BATCH_MAX)
		batch = BATCH_MAX;
	if (batch < BATCH_MIN)
		batch = BATCH_MIN;
	return batch;
}

/* The reader threads of this run (0: the main loop reads). */
static int reader_threads(int ncpus)
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
	       "               at most %.1f MB of batches and compression state\n",
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

	if (!(r->plan.profiles & PROFILE_IO))
		return;
	memset(&scratch, 0, sizeof(scratch));
	names_remove_stale(env.verbose);
	if (instance_create(&scratch, 64, 50) < 0) {
		printf("  file names   cannot try the probes: no scratch instance\n");
		return;
	}
	names_setup(&r->names, &r->plan, scratch.ti, env.verbose);
	instance_destroy(&scratch);
	names_destroy(&r->names);
	printf("  file names   tried in order (each probe created and enabled, then removed):\n");
	names_print(&r->names, stdout);
}

/*
 * The limitations of this recording, as stored in the header; @console
 * leaves out the armed 32-bit path's, a condition --check states.
 */
static void collect_limits(const struct rec *r, const char *out[3],
			   bool console)
{
	const struct plan *p = &r->plan;
	static char compat[320], syscalls[200];
	int n = 0;

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
	if (names_limit(&r->names, p))
		out[n++] = names_limit(&r->names, p);
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
}

static int do_check(struct rec *r)
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

/* ------------------------------------------------------------------ */
/* output */

static int open_output(struct rec *r)
{
	struct stat st;

	if (!strcmp(env.output, "-")) {
		if (isatty(STDOUT_FILENO))
			return error("refusing to write binary data to a terminal: redirect stdout or use -o FILE");
		r->out_fd = STDOUT_FILENO;
		r->out_stdout = true;
	} else {
		r->out_fd = open(env.output,
				 O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
		if (r->out_fd < 0)
			return error("cannot create %s: %m", env.output);
	}
	if (fstat(r->out_fd, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(r->out_dev, sizeof(r->out_dev), "%u:%u",
			 major(st.st_dev), minor(st.st_dev));
		r->out_ino = (unsigned long long)st.st_ino;
	}
	return 0;
}

static const char *out_name(const struct rec *r)
{
	return r->out_stdout ? "stdout" : env.output;
}

/* Remember the first writer failure and turn it into a stop reason. */
static void note_write_error(struct rec *r, int err)
{
	int e = iorec_writer_errno(r->w);

	if (r->write_err)
		return;
	r->write_err = err ? err : -IOREC_E_IO;
	if (err == -IOREC_E_NOSPC || e == ENOSPC)
		snprintf(r->reason, sizeof(r->reason),
			 "no space left on device");
	else if (e)
		snprintf(r->reason, sizeof(r->reason), "write error: %s",
			 strerror(e));
	else
		snprintf(r->reason, sizeof(r->reason), "write error: %s",
			 iorec_strerror(err));
}

static void report_write_error(const struct rec *r)
{
	uint64_t done = iorec_writer_written(r->w);
	int e = iorec_writer_errno(r->w);

	if (r->write_err == -IOREC_E_NOSPC || e == ENOSPC)
		error("%s: no space left on device; recording stopped at %.1f MB, the file is readable up to its last complete chunk",
		      out_name(r), mb(done));
	else if (e == EPIPE)
		error("%s: the reader closed the pipe; recording stopped at %.1f MB",
		      out_name(r), mb(done));
	else
		error("%s: %s; recording stopped at %.1f MB, the file is readable up to its last complete chunk",
		      out_name(r), r->reason, mb(done));
}

/* ------------------------------------------------------------------ */
/* metadata chunks */

static void join_args(struct sbuf *sb, char **argv, int argc)
{
	int i;

	/* escaped: a key=value line must stay one line (see iorec(5)) */
	for (i = 0; i < argc && argv[i]; i++) {
		if (i)
			sbuf_addch(sb, ' ');
		sbuf_add_escaped(sb, argv[i]);
	}
}

/* The header keys of the syscall ABIs, file-name sources and limits. */
static void names_header(const struct rec *r, struct sbuf *sb)
{
	const struct plan *p = &r->plan;
	const char *lim[3];
	char sources[128];

	names_sources(&r->names, sources, sizeof(sources));
	sbuf_addf(sb, "uprobe_group=%s\n",
		    r->names.used[NS_UPROBE] ? r->names.group : "");
	sbuf_addf(sb, "probe_group=%s\n", r->names.npr ? r->names.group : "");
	sbuf_addf(sb, "name_sources=%s\n", sources);
	sbuf_addf(sb, "syscall_abi=%s\n", abi_name(p->abi));
	sbuf_addf(sb, "compat_abi=%s\n",
		    p->compat != ABI_UNKNOWN ? abi_name(p->compat) : "");
	sbuf_addf(sb, "compat_syscalls=%s\n", plan_compat_word(p->compat_mode));
	if (p->compat_mode == COMPAT_SHADOW) {
		sbuf_addf(sb, "compat_unshadowed=%s\n",
			    p->unshadowed ? p->unshadowed : "");
		sbuf_addf(sb, "compat_start=%s\n",
			    p->compat_armed ? "exec" : "start");
	}
	sbuf_addf(sb, "exec_abi_probes=%d\n", r->names.exec_abi);
	sbuf_addf(sb, "iorec_abi=%s\n", abi_name(abi_self()));
	collect_limits(r, lim, false);
	if (lim[0])
		sbuf_addf(sb, "limit_1=%s\n", lim[0]);
	if (lim[1])
		sbuf_addf(sb, "limit_2=%s\n", lim[1]);
	if (lim[2])
		sbuf_addf(sb, "limit_3=%s\n", lim[2]);
}

/*
 * The machine's offset from UTC and its zone's name at the start, so that
 * ioreport prints the times people see in their logs wherever it runs.
 */
static void header_zone(struct rec *r, struct sbuf *sb)
{
	time_t sec = (time_t)(r->start_real / 1000000000);
	struct tm tm;

	if (!localtime_r(&sec, &tm))
		return;
	sbuf_addf(sb, "utc_offset_s=%ld\n", (long)tm.tm_gmtoff);
	if (tm.tm_zone && tm.tm_zone[0] && !strpbrk(tm.tm_zone, "\n="))
		sbuf_addf(sb, "timezone=%s\n", tm.tm_zone);
}

static void header_text(struct rec *r, struct sbuf *sb)
{
	struct utsname u;

	memset(&u, 0, sizeof(u));
	uname(&u);
	sbuf_addf(sb, "clock=%s\n", r->ri.clock);
	sbuf_addf(sb, "kernel=%s\nkversion=%s\nmachine=%s\nhostname=%s\n",
		    u.release, u.version, u.machine, u.nodename);
	sbuf_addf(sb, "iorec_version=%s\n", PACKAGE_VERSION);
	sbuf_addf(sb, "start_realtime_ns=%llu\nstart_mono_ns=%llu\n",
		    (unsigned long long)r->start_real,
		    (unsigned long long)r->start_mono);
	header_zone(r, sb);
	sbuf_addf(sb, "instance=%s\nbuffer_kb=%u\nprofile=%s\n", r->ri.name,
		    env.buffer_kb, plan_profile_names(env.profiles));
	sbuf_addstr(sb, "cmdline=");
	join_args(sb, env.argv, env.argc);
	sbuf_addf(sb, "\noutput_dev=%s\noutput_ino=%llu\nself_pid=%d\n",
		    r->out_dev, r->out_ino, (int)getpid());
	names_header(r, sb);
	sbuf_addstr(sb, "syscall_filter=");
	if (r->plan.task_desc)
		sbuf_add_escaped(sb, r->plan.task_desc);
	sbuf_addch(sb, '\n');
	sbuf_addstr(sb, "command=");
	if (env.command)
		join_args(sb, env.command, 1 << 30);
	sbuf_addch(sb, '\n');
}

static int write_header(struct rec *r)
{
	struct sbuf sb = SBUF_INIT_FATAL;
	struct iorec_header h;
	uint8_t *buf;
	size_t len;
	int ret;

	header_text(r, &sb);
	memset(&h, 0, sizeof(h));
	h.endian = host_big_endian() ? IOREC_ENDIAN_BIG : IOREC_ENDIAN_LITTLE;
	h.long_size = (uint8_t)r->long_size;
	h.page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	h.subbuf_size = (uint32_t)r->subbuf_size;
	h.ncpus = (uint32_t)r->ri.ncpus;
	h.flags = (r->plan.raw_syscalls ? IOREC_HF_RAW_SYSCALLS : 0) |
		  (env.flight ? IOREC_HF_FLIGHT : 0);
	h.text = sb.buf;
	h.text_len = sb.len;
	ret = iorec_header_encode(&h, &buf, &len);
	sbuf_release(&sb);
	if (ret < 0)
		return ret;
	ret = iorec_writer_add(r->w, IOREC_CHUNK_HEADER, NULL, 0, buf, len,
			       false);
	free(buf);
	return ret;
}

/* Append a chunk with the text of a tracefs file; absent files are skipped. */
static int write_file_chunk(struct rec *r, struct tracefs_instance *ti,
			    const char *file, uint16_t type)
{
	int size = 0, ret;
	char *text = tracefs_instance_file_read(ti, file, &size);

	if (!text)
		return 0;
	ret = iorec_writer_add(r->w, type, NULL, 0, text, (size_t)size, true);
	free(text);
	return ret;
}

static int write_metadata(struct rec *r)
{
	int ret;

	ret = write_header(r);
	if (!ret)
		ret = iorec_writer_add(r->w, IOREC_CHUNK_HEADER_PAGE, NULL, 0,
				       r->header_page,
				       (size_t)r->header_page_len, true);
	if (!ret)
		ret = write_file_chunk(r, r->ri.ti, "events/header_event",
				       IOREC_CHUNK_HEADER_EVENT);
	if (!ret)
		ret = plan_write_formats(&r->plan, r->ri.ti, r->w);
	if (!ret)
		ret = write_file_chunk(r, NULL, "printk_formats",
				       IOREC_CHUNK_PRINTK);
	return ret;
}

static struct snap_self snap_self(const struct rec *r)
{
	struct snap_self s = {
		.pid = getpid(),
		.out_dev = r->out_dev,
		.out_ino = r->out_ino,
	};
	return s;
}

/* STATS text, and the lost-event totals kept in r. */
static void collect_stats(struct rec *r, struct sbuf *sb)
{
	int cpu;

	r->lost = 0;
	for (cpu = 0; cpu < r->ri.ncpus; cpu++) {
		uint64_t lost = 0, pages = 0, missed = 0;

		instance_cpu_stats(&r->ri, cpu, sb, &lost);
		if (r->rb)
			ringbuf_cpu_pages(r->rb, cpu, &pages, &missed);
		if (sb) {
			sbuf_addf(sb, "cpu\t%d\tpages\t%llu\n", cpu,
				    (unsigned long long)pages);
			sbuf_addf(sb, "cpu\t%d\tmissed_pages\t%llu\n", cpu,
				    (unsigned long long)missed);
		}
		r->cpu_lost[cpu] = lost;
		r->lost += lost;
	}
}

static int write_end_text(struct rec *r)
{
	struct sbuf sb = SBUF_INIT_FATAL;
	struct ringbuf_totals t;
	int ret;

	ringbuf_totals(r->rb, &t);
	sbuf_addf(&sb, "reason=%s\n", r->reason);
	sbuf_addf(&sb, "end_realtime_ns=%llu\nend_mono_ns=%llu\n",
		    (unsigned long long)now_real_ns(),
		    (unsigned long long)now_mono_ns());
	sbuf_addf(&sb, "pages=%llu\nraw_bytes=%llu\nlost_events=%llu\n",
		    (unsigned long long)t.pages,
		    (unsigned long long)t.raw_bytes,
		    (unsigned long long)r->lost);
	{
		uint64_t exec_ns, on_ns;
		int pid;

		if (compat_watch_fired(r->cw, &pid, &exec_ns, &on_ns, false))
			sbuf_addf(&sb, "compat_on_ns=%llu\ncompat_on_pid=%d\ncompat_exec_ns=%llu\n",
				    (unsigned long long)on_ns, pid,
				    (unsigned long long)exec_ns);
	}
	if (env.max_size)
		sbuf_addf(&sb, "size_limit_dropped_pages=%llu\n",
			    (unsigned long long)t.limit_dropped_pages);
	if (env.flight)
		sbuf_addf(&sb, "flight_discarded_chunks=%llu\nflight_cutoff_ts=%llu\n",
			    (unsigned long long)t.flight_discarded,
			    (unsigned long long)t.flight_cutoff_ts);
	ret = iorec_writer_add(r->w, IOREC_CHUNK_END, NULL, 0, sb.buf, sb.len,
			       false);
	sbuf_release(&sb);
	return ret;
}

/* End snapshot, saved_cmdlines, per-CPU stats and the END chunk. */
static int write_trailer(struct rec *r)
{
	struct snap_self self = snap_self(r);
	struct sbuf sb = SBUF_INIT_FATAL;
	int ret;

	ret = snapshot_write(r->w, IOREC_SNAP_END, &self);
	if (!ret)
		ret = write_file_chunk(r, NULL, "saved_cmdlines",
				       IOREC_CHUNK_CMDLINES);
	collect_stats(r, &sb);
	if (!ret)
		ret = iorec_writer_add(r->w, IOREC_CHUNK_STATS, NULL, 0, sb.buf,
				       sb.len, true);
	sbuf_release(&sb);
	if (!ret)
		ret = write_end_text(r);
	if (!ret)
		ret = iorec_writer_flush(r->w);
	return ret;
}

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
static int spawn_command(struct rec *r)
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
static int release_command(struct rec *r)
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

static void reap_child(struct rec *r)
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

static int child_exit_code(const struct rec *r)
{
	if (WIFEXITED(r->child_status))
		return WEXITSTATUS(r->child_status);
	return 128 + WTERMSIG(r->child_status);
}

static void child_reason(struct rec *r)
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
static void finish_child(struct rec *r)
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

/* ------------------------------------------------------------------ */
/* the loop */

static bool on_terminal(void)
{
	return !env.quiet && isatty(STDERR_FILENO);
}

static void status_line(struct rec *r, uint64_t now, uint64_t *last_events,
			uint64_t *last_ns)
{
	struct ringbuf_totals t;
	uint64_t written, raw;
	double dt = (double)(now - *last_ns) / 1e9;
	char line[160];

	ringbuf_lock(r->rb);
	written = iorec_writer_written(r->w) + iorec_writer_pending(r->w);
	raw = iorec_writer_raw_bytes(r->w);
	ringbuf_unlock(r->rb);
	ringbuf_totals(r->rb, &t);
	collect_stats(r, NULL);
	snprintf(line, sizeof(line),
		 "iorec: %.0fs  %.0f events/s  %.1f MB %s  ratio %.1fx  lost %llu",
		 (double)(now - r->start_mono) / 1e9,
		 dt > 0 ? (double)(t.events - *last_events) / dt : 0.0,
		 mb(env.flight ? 0 : written),
		 env.flight ? "written (flight: at the end)" : "written",
		 written ? (double)raw / (double)written : 0.0,
		 (unsigned long long)r->lost);
	fprintf(stderr, "\r%-79s", line);
	*last_events = t.events;
	*last_ns = now;
}

static void clear_status(void)
{
	fprintf(stderr, "\r%79s\r", "");
}

/* Bytes written and buffered, while readers may be writing. */
static uint64_t writer_size(struct rec *r)
{
	uint64_t n;

	ringbuf_lock(r->rb);
	n = iorec_writer_written(r->w) + iorec_writer_pending(r->w);
	ringbuf_unlock(r->rb);
	return n;
}

/* Why should the loop stop now?  Fills r->reason and returns true. */
static bool should_stop(struct rec *r, uint64_t now, uint64_t *drain_until)
{
	if (stop_signal) {
		snprintf(r->reason, sizeof(r->reason), "signal %s",
			 signame(stop_signal));
		return true;
	}
	if (env.duration_ns && now - r->start_mono >= env.duration_ns) {
		snprintf(r->reason, sizeof(r->reason), "duration");
		return true;
	}
	if (env.max_size && (ringbuf_limit_reached(r->rb) ||
	    writer_size(r) >= env.max_size)) {
		snprintf(r->reason, sizeof(r->reason), "size limit");
		return true;
	}
	if (r->child_done) {
		if (!*drain_until)
			*drain_until = now + DRAIN_NS;
		if (now >= *drain_until) {
			child_reason(r);
			return true;
		}
	}
	return false;
}

static int poll_timeout(const struct rec *r, uint64_t now, uint64_t next_tick,
			uint64_t drain_until)
{
	uint64_t until = next_tick;

	if (env.duration_ns && r->start_mono + env.duration_ns < until)
		until = r->start_mono + env.duration_ns;
	if (drain_until && drain_until < until)
		until = drain_until;
	if (until <= now)
		return 0;
	return (int)((until - now + 999999) / 1000000);
}

/*
 * The watcher enabled compat recording at a 32-bit program's exec: store
 * that program's ABI as an EXEC_ABI line (source "exec"), once.
 */
static void note_compat_exec(struct rec *r)
{
	uint64_t exec_ns, on_ns;
	char line[128];
	int pid, len, ret;

	if (!compat_watch_fired(r->cw, &pid, &exec_ns, &on_ns, true))
		return;
	len = snprintf(line, sizeof(line), "%llu\t%d\t%s\texec\n",
		       (unsigned long long)(exec_ns ? exec_ns : on_ns), pid,
		       abi_name(r->plan.compat));
	ringbuf_lock(r->rb);
	ret = iorec_writer_add(r->w, IOREC_CHUNK_EXEC_ABI, NULL, 0, line,
			       (size_t)len, false);
	ringbuf_unlock(r->rb);
	if (ret < 0)
		note_write_error(r, ret);
}

static void record_loop(struct rec *r)
{
	uint64_t now = now_mono_ns(), next_tick = now + TICK_MS * 1000000ull;
	uint64_t last_all = now, drain_until = 0, last_events = 0;
	uint64_t last_status = now;
	bool status = on_terminal();
	int ret;

	if (ringbuf_start(r->rb) < 0) {
		snprintf(r->reason, sizeof(r->reason), "no reader thread");
		return;
	}
	for (;;) {
		if (child_changed)
			reap_child(r);
		now = now_mono_ns();
		if (should_stop(r, now, &drain_until))
			break;
		ringbuf_wait(r->rb, poll_timeout(r, now, next_tick,
						 drain_until));
		now = now_mono_ns();
		ret = ringbuf_read(r->rb, now - last_all >= FLUSH_NS);
		if (!ret && now - last_all >= FLUSH_NS) {
			last_all = now;
			/* what is older than FLUSH_NS reaches the file */
			ringbuf_lock(r->rb);
			if (iorec_writer_pending(r->w))
				ret = iorec_writer_flush(r->w);
			ringbuf_unlock(r->rb);
		}
		if (ret < 0) {
			note_write_error(r, ret);
			break;
		}
		if (r->cw)
			note_compat_exec(r);
		if (now >= next_tick) {
			next_tick = now + TICK_MS * 1000000ull;
			if (status)
				status_line(r, now, &last_events,
					    &last_status);
		}
	}
	if (status)
		clear_status();
}

/* ------------------------------------------------------------------ */
/* setup, stop and summary */

static int setup(struct rec *r)
{
	struct ringbuf_opts o;
	size_t batch;
	int ret;

	if (open_output(r) < 0)
		return -1;
	if (env.command_only) {
		char *f, *d;

		if (spawn_command(r) < 0)
			return -1;
		task_filter_command((int)r->child, env.command[0], &f, &d);
		plan_set_task_filter(&r->plan, NULL, f, d);
		free(f);
		free(d);
	}
	if (instance_create(&r->ri, env.buffer_kb, env.watermark) < 0)
		return -1;
	if (read_header_page(r, r->ri.ti) < 0)
		return -1;
	if (r->plan.profiles & PROFILE_IO) {
		const char *lim[3];
		int i;

		names_remove_stale(env.verbose);
		names_setup(&r->names, &r->plan, r->ri.ti, env.verbose);
		names_add_to_plan(&r->names, &r->plan);
		collect_limits(r, lim, true);
		for (i = 0; i < 3 && lim[i] && !env.quiet; i++)
			warning("%s", lim[i]);
		if (env.verbose)
			names_print(&r->names, stderr);
	}
	if (plan_enable(&r->plan, r->ri.ti) < 0)
		return -1;
	if (r->plan.compat_armed) {
		r->cw = compat_watch_start(&r->plan, r->ri.ti);
		if (!r->cw) {
			/* record them from the start rather than miss them */
			r->plan.compat_armed = false;
			plan_compat_enable(&r->plan, r->ri.ti);
		}
	}
	r->cpu_lost = xcalloc((size_t)r->ri.ncpus, sizeof(*r->cpu_lost));
	batch = batch_bytes(r->ri.ncpus);
	memset(&o, 0, sizeof(o));
	o.threads = reader_threads(r->ri.ncpus);
	o.ncpus = r->ri.ncpus;
	o.subbuf_size = r->subbuf_size;
	o.long_size = r->long_size;
	o.batch_bytes = batch;
	o.flush_ns = FLUSH_NS;
	o.zstd_level = env.level;
	o.flight_bytes = env.flight;
	r->w = iorec_writer_new(r->out_fd, env.level, 0);
	if (!r->w)
		return error("out of memory");
	r->rb = ringbuf_open(r->ri.ti, &o, r->w);
	if (!r->rb)
		return -1;
	if (instance_tracing(&r->ri, true) < 0)
		return -1;
	r->start_mono = now_mono_ns();
	r->start_real = now_real_ns();
	ret = write_metadata(r);
	if (!ret) {
		struct snap_self self = snap_self(r);

		uint64_t before = iorec_writer_written(r->w) +
				  iorec_writer_pending(r->w);

		ret = snapshot_write(r->w, IOREC_SNAP_START, &self);
		if (!ret && env.max_size) {
			/*
			 * Keep room under -S for the trailer: the end
			 * snapshot is about as large as the start one, plus
			 * cmdlines, stats and the end chunk.
			 */
			uint64_t snap = iorec_writer_written(r->w) +
					iorec_writer_pending(r->w) - before;
			uint64_t reserve = snap + snap / 4 + 32768;

			ringbuf_set_data_limit(r->rb,
					       env.max_size > reserve ?
					       env.max_size - reserve : 1);
		}
	}
	if (ret < 0) {
		note_write_error(r, ret);
		return 0;
	}
	if (env.command && !r->child && spawn_command(r) < 0)
		return -1;
	if (env.command && release_command(r) < 0)
		return -1;
	return 0;
}

/* Stop tracing, read what is left, and write the trailer. */
static void stop(struct rec *r)
{
	int ret;

	instance_tracing(&r->ri, false);
	if (r->rb)
		ringbuf_stop_threads(r->rb);
	if (r->cw && !r->write_err)
		note_compat_exec(r);
	if (r->write_err)
		return;
	ret = ringbuf_finish(r->rb);
	if (!ret)
		ret = write_trailer(r);
	if (ret < 0)
		note_write_error(r, ret);
}

static void summary(struct rec *r)
{
	struct ringbuf_totals t;
	uint64_t written = iorec_writer_written(r->w);
	double secs = (double)(now_mono_ns() - r->start_mono) / 1e9;
	int cpu;

	ringbuf_totals(r->rb, &t);
	note("recorded %.1f s (%s) to %s: %llu events, %.1f MB raw -> %.1f MB file (%.1fx), %llu lost",
	     secs, r->reason, out_name(r), (unsigned long long)t.events,
	     mb(t.raw_bytes), mb(written),
	     written ? (double)iorec_writer_raw_bytes(r->w) / (double)written : 0.0,
	     (unsigned long long)r->lost);
	for (cpu = 0; cpu < r->ri.ncpus; cpu++)
		if (r->cpu_lost[cpu])
			note("  cpu %d lost %llu events (ring buffer overrun or dropped: try a larger -b or lower -w)",
			     cpu, (unsigned long long)r->cpu_lost[cpu]);
	{
		uint64_t exec_ns, on_ns;
		int pid;

		if (compat_watch_fired(r->cw, &pid, &exec_ns, &on_ns, false))
			note("32-bit programs recorded from %.3f s on: pid %d exec'd a %s program (%.1f ms before)",
			     (double)(on_ns - r->start_mono) / 1e9, pid,
			     abi_name(r->plan.compat),
			     exec_ns && on_ns > exec_ns ?
			     (double)(on_ns - exec_ns) / 1e6 : 0.0);
	}
	if (t.limit_dropped_pages)
		note("size limit: %llu pages read after the limit were not written",
		     (unsigned long long)t.limit_dropped_pages);
	if (env.flight)
		note("flight recorder: kept the newest data, discarded %llu older chunks",
		     (unsigned long long)t.flight_discarded);
	{
		const char *lim[3];

		collect_limits(r, lim, true);
		for (cpu = 0; cpu < 3 && lim[cpu]; cpu++)
			warning("limit of this recording: %s", lim[cpu]);
	}
}

static void rec_release(struct rec *r)
{
	compat_watch_stop(r->cw);
	r->cw = NULL;
	ringbuf_close(r->rb);
	r->rb = NULL;
	instance_destroy(&r->ri);
	names_destroy(&r->names);
	if (r->exec_pipe >= 0)
		close(r->exec_pipe);
	r->exec_pipe = -1;
	if (r->go_pipe >= 0) {
		/* a command held before its exec: it never ran */
		close(r->go_pipe);
		if (r->child) {
			kill(r->child, SIGKILL);
			waitpid(r->child, NULL, 0);
			r->child = 0;
		}
	}
	r->go_pipe = -1;
	if (r->w && !r->write_err && iorec_writer_pending(r->w))
		iorec_writer_flush(r->w);
	iorec_writer_free(r->w);
	r->w = NULL;
	if (r->out_fd >= 0 && !r->out_stdout)
		close(r->out_fd);
	r->out_fd = -1;
	free(r->header_page);
	free(r->cpu_lost);
	plan_release(&r->plan);
}

static void report_missing_user_events(const struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nev; i++)
		if (p->ev[i].user && p->ev[i].state == PLAN_MISSING)
			error("no event %s:%s on this kernel (given with -e): see %s/available_events",
			      p->ev[i].system, p->ev[i].name,
			      tracefs_tracing_dir());
}

/*
 * Shadow mode costs raw_syscalls events on every system call of every
 * program: unless --compat, or a 32-bit program runs (or is the command,
 * or iorec), arm it to start at the first 32-bit exec instead.
 */
static void plan_compat_start(struct rec *r)
{
	struct plan *p = &r->plan;

	if (p->compat_mode != COMPAT_SHADOW)
		return;
	if (env.compat == COMPAT_WANT_ON) {
		snprintf(r->compat_why, sizeof(r->compat_why),
			 "--compat was given");
		return;
	}
	if (!compat_present(p->compat, env.command ? env.command[0] : NULL,
			    r->compat_why, sizeof(r->compat_why)))
		p->compat_armed = true;
}

/* -P, --comm, --cgroup: the plan's task filter.  Returns 0 or -1. */
static int plan_task_filter(struct rec *r)
{
	char *f = NULL, *d = NULL;
	int ret = 0;

	if (env.pids)
		ret = task_filter_pids(env.pids, &f, &d);
	else if (env.comm)
		ret = task_filter_comm(env.comm, &f, &d);
	else if (env.cgroup)
		ret = task_filter_cgroup(env.cgroup, &f, &d);
	if (!ret && f)
		plan_set_task_filter(&r->plan, NULL, f, d);
	free(f);
	free(d);
	return ret;
}

/* Check time: needs the header page for sub-buffer and long sizes. */
static int prepare_check(struct rec *r)
{
	return do_check(r);
}

int main(int argc, char **argv)
{
	struct rec r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.out_fd = -1;
	r.exec_pipe = -1;
	r.go_pipe = -1;
	util_progname = "iorec";
	ret = parse_args(argc, argv);
	if (ret >= 0)
		return ret;
	if (tracefs_ready() < 0)
		return 1;
	if (!env.buffer_given)
		env.buffer_kb = buffer_default(instance_count_cpus(NULL));
	if (!env.check)
		instance_remove_stale(env.verbose);
	ret = 1;
	if (names_parse(&r.names, env.names) < 0) {
		ret = usage_error("unknown source in --names '%s' (auto, none, or a list of strings, kprobe, eprobe, uprobe)",
				  env.names);
		goto cleanup;
	}
	if (env.no_uprobes)
		names_no_uprobes(&r.names);
	/* the kernel's long size tells a 64-bit kernel to a 32-bit iorec */
	if (read_header_page(&r, NULL) < 0)
		goto cleanup;
	r.plan.no_compat = env.compat == COMPAT_WANT_OFF;
	if (plan_build(&r.plan, env.profiles, env.events, env.nevents,
		       env.raw_syscalls, r.long_size) < 0)
		goto cleanup;
	plan_compat_start(&r);
	if (plan_task_filter(&r) < 0)
		goto cleanup;
	if (env.check) {
		ret = prepare_check(&r);
		goto cleanup;
	}
	if (r.plan.nusers_missing) {
		report_missing_user_events(&r.plan);
		goto cleanup;
	}
	/* from here on, kernel state is ours to undo: signals only set a flag */
	setup_signals();
	if (!env.quiet || env.verbose)
		plan_warn_missing(&r.plan, env.verbose);
	if (r.plan.raw_syscalls && !r.plan.raw_forced && !env.quiet)
		warning("no syscalls:* events (kernel without CONFIG_FTRACE_SYSCALLS): recording raw_syscalls; the report has no per-syscall argument names, fd and count only via args[]");
	if (setup(&r) < 0)
		goto cleanup;
	if (!r.write_err)
		record_loop(&r);
	stop(&r);
	finish_child(&r);
	if (r.child && !env.quiet)
		note("'%s' (pid %d) is still running", env.command[0],
		     (int)r.child);
	if (r.write_err) {
		report_write_error(&r);
		ret = 1;
	} else {
		if (!env.quiet)
			summary(&r);
		ret = 0;
	}
	/* a failed recording is a failure whatever the command did */
	if (env.command && r.child_done && !r.write_err)
		ret = child_exit_code(&r);
cleanup:
	if (r.child)
		reap_child(&r);
	rec_release(&r);
	free(env.events);
	return ret;
}
