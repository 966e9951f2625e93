// SPDX-License-Identifier: MIT
/*
 * options.c - iorec's command line: the usage text, each option into env,
 * and the checks between options.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "iorec-int.h"

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
"      --snapshot-dir DIR  black box: flight recorder (-F, default 16M) that writes\n"
"                          nothing until SIGUSR1, 'iorec --snapshot' or a trigger,\n"
"                          then the window as a new DIR/iorec-TIME-WHY.iorec, and\n"
"                          goes on recording\n"
"      --snapshot          ask the running black box for a snapshot; prints its file\n"
"      --trigger COND      take a snapshot when COND holds: d2c>TIME[@DEV] (a block\n"
"                          request's device time, on DEV only: mmcblk0),\n"
"                          fsync>TIME (fsync/fdatasync),\n"
"                          throttle>TIME (dirty-page throttling pause),\n"
"                          iowait>TIME[/WINDOW] (a process's D-state time in\n"
"                          WINDOW, default 10s; adds the profile iowait), lost\n"
"                          (repeatable; e.g. --trigger 'fsync>500ms')\n"
"      --post SECONDS      after a trigger, record this long before the snapshot\n"
"                          (default 5s)\n"
"      --cooldown SECONDS  no trigger snapshot within this long of the last\n"
"                          (default 60s)\n"
"      --keep N            keep at most N snapshots, removing the oldest; with -S,\n"
"                          rotate: OUT-0001.iorec, OUT-0002.iorec... of SIZE each\n"
"                          (each complete), the newest N kept\n"
"      --keep-size SIZE    keep at most SIZE of snapshots, removing the oldest\n"
"      --pid-file FILE     where the black box writes its pid for --snapshot\n"
"                          (default /run/iorec/iorec.pid)\n"
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
"      --no-inode-names    do not name the inodes that had I/O at the end (by\n"
"                          handle: the names of static programs' files)\n"
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
"  iorec --snapshot-dir /var/lib/iorec --trigger 'fsync>500ms' --keep 10\n"
"                                     # black box: snapshots when fsync is slow\n"
"  iorec -p io,iowait -d 30           # also time D-state (I/O wait) sleeps\n"
"  iorec -e ext4:ext4_da_write_begin  # add one more event\n"
"  ioreport slow.iorec                # analyze it (anywhere)\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "iorec: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (run 'iorec --help' for the options)\n");
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

/* --trigger: a comma list of conditions, or "none" (or empty). */
static int parse_triggers(const char *arg)
{
	char *list, *tok, *save = NULL;
	int ret = 0;

	env.bb_opt = true;
	if (!env.trig)
		env.trig = trig_new();
	list = env.trig ? strdup(arg) : NULL;
	if (!list)
		return error(ERR_NOMEM);
	for (tok = strtok_r(list, ", ", &save); tok && !ret;
	     tok = strtok_r(NULL, ", ", &save))
		if (strcmp(tok, "none") && trig_parse(env.trig, tok) < 0)
			ret = usage_error("invalid trigger '%s' (d2c>200ms, d2c>200ms@DEV with DEV a block device of /sys/class/block, fsync>500ms, throttle>1s, iowait>2s/10s or lost; at most 8)",
					  tok);
	free(list);
	return ret;
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
		env.output_given = true;
		break;
	case OPT_SNAPSHOT_DIR:
		if (!*arg)
			return usage_error("%s", "empty --snapshot-dir");
		env.snapshot_dir = arg;
		break;
	case OPT_SNAPSHOT:
		env.snapshot_request = true;
		break;
	case OPT_KEEP:
		if (parse_uint(arg, 0, 1000000, &u) < 0)
			return usage_error("invalid --keep '%s' (a number of snapshots; 0: any number)", arg);
		env.keep = u;
		env.keep_given = true;
		break;
	case OPT_KEEP_SIZE:
		env.bb_opt = true;
		return set_at_least(&env.keep_bytes, parse_size(arg), 0,
				    "invalid --keep-size '%s' (use 100M, 1G; 0: no bound)", arg);
	case OPT_TRIGGER:
		return parse_triggers(arg);
	case OPT_POST:
		v = parse_duration(arg);
		if (v < 0)
			return usage_error("invalid --post '%s' (use 5, 10s, 500ms)", arg);
		env.post_ns = (uint64_t)v;
		break;
	case OPT_COOLDOWN:
		v = parse_duration(arg);
		if (v < 0)
			return usage_error("invalid --cooldown '%s' (use 60, 10m)", arg);
		env.cooldown_ns = (uint64_t)v;
		break;
	case OPT_PID_FILE:
		env.pid_file = arg;
		break;
	case OPT_NO_INODE_NAMES:
		env.no_inode_names = true;
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
	case 'e': {
		char **ev = realloc(env.events,
				    (size_t)(env.nevents + 1) * sizeof(char *));

		if (!ev)
			return error(ERR_NOMEM);
		env.events = ev;
		env.events[env.nevents++] = (char *)arg;
		break;
	}
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
int parse_args(int argc, char **argv)
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
		{ "no-inode-names", no_argument, NULL, OPT_NO_INODE_NAMES },
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
		{ "snapshot-dir", required_argument, NULL, OPT_SNAPSHOT_DIR },
		{ "snapshot", no_argument, NULL, OPT_SNAPSHOT },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "keep-size", required_argument, NULL, OPT_KEEP_SIZE },
		{ "trigger", required_argument, NULL, OPT_TRIGGER },
		{ "post", required_argument, NULL, OPT_POST },
		{ "cooldown", required_argument, NULL, OPT_COOLDOWN },
		{ "pid-file", required_argument, NULL, OPT_PID_FILE },
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
	if (env.snapshot_request)
		return -1;
	if (!env.snapshot_dir && env.bb_opt)
		return usage_error("%s", "--trigger and --keep-size are for the black box: add --snapshot-dir DIR");
	/* iowait>...: the D-state waits come from the scheduler's events */
	if (trig_wants_sched(env.trig))
		env.profiles |= PROFILE_IOWAIT;
	if (!env.snapshot_dir && env.keep_given) {
		if (!env.max_size || !env.keep)
			return usage_error("%s", "--keep rotates with -S (-S SIZE --keep N: files of SIZE, the newest N kept), or bounds the black box's snapshots (--snapshot-dir)");
		if (!strcmp(env.output, "-"))
			return usage_error("%s", "-S with --keep writes files: give -o FILE, not -o -");
		env.rotate = true;
	}
	if (env.snapshot_dir) {
		if (env.output_given || env.max_size)
			return usage_error("%s", "--snapshot-dir writes its snapshots into DIR: leave out -o and -S");
		if (env.command)
			return usage_error("%s", "--snapshot-dir runs as a service: leave out the command");
		if (!env.flight)
			env.flight = BLACKBOX_FLIGHT;
	}
	return -1;
}
