/* SPDX-License-Identifier: MIT */
/*
 * record.h - internal interfaces between the parts of iorec: the event
 * plan (profile.c), the tracefs instance (instance.c), the context snapshot
 * (snapshot.c) and the per-CPU ring-buffer reader (ringbuf.c).
 *
 * None of these functions exit, for memory or anything else (only the
 * forked command's child _exit()s when its exec fails): iorec.c's main()
 * decides.  Which error a function returns follows what failed:
 *  - setting up (options, the plan, the instance, the probes, the
 *    readers): -1 after printing one error line with error();
 *  - writing the recording (the writer, the reader threads' chunks, the
 *    snapshots, the trailer): a negative iorec_error, -IOREC_E_NOMEM when
 *    memory ran out, kept by note_write_error() and printed once by
 *    report_write_error(); the recording stops and the file stays
 *    readable up to its last complete chunk.
 * tests/test-layout.sh fails on an exiting allocator or exit() here.
 */
#ifndef IOREC_RECORD_H
#define IOREC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "iorec-format.h"
#include "sbuf.h"
#include "util.h"

/* The one line of iorec's own memory running out: the problem, the fix. */
#define ERR_NOMEM	"out of memory (free some memory and run iorec again)"

struct tracefs_instance;
struct iorec_writer;

/* ------------------------------------------------------------------ */
/* abi.c: syscall ABIs and their numbers; elf.c: ELF headers and symbols */

/*
 * The ABIs and their names (abi_name()), as an X-macro so that a value
 * cannot be added without its name.
 */
#define REC_ABI_LIST						\
	REC_ABI(UNKNOWN,	"unknown")			\
	REC_ABI(X86_64,		"x86_64")			\
	REC_ABI(I386,		"i386")				\
	REC_ABI(X32,		"x32")				\
	REC_ABI(AARCH64,	"aarch64")			\
	REC_ABI(ARM,		"arm")		/* arm EABI */	\
	REC_ABI(RISCV64,	"riscv64")

#define REC_ABI(name, word) ABI_##name,
enum rec_abi { REC_ABI_LIST ABI_NR };
#undef REC_ABI

#define SYSTAB_COLUMNS 5

/* One syscall of interest and its number in each ABI (-1: none). */
struct systab_row {
	const char *name;	/* the kernel's name: syscalls:sys_enter_NAME */
	short nr[SYSTAB_COLUMNS];
	bool optional;		/* newer syscalls, absent on older kernels */
	const char *cost;	/* what the analysis loses without it */
};

extern const struct systab_row systab[];
extern const size_t systab_len;

/* A native syscall number shared with a compat syscall of interest. */
struct marker_def {
	int nr;
	const char *events[2];	/* syscalls:sys_enter_NAME names to try */
};

/* "x86_64", "i386", "aarch64", "arm", ... ("unknown"), static storage. */
const char *abi_name(enum rec_abi abi);
/* Does iorec carry the syscall numbers of @abi? */
bool abi_has_table(enum rec_abi abi);
/* The number of @row in @abi, or -1. */
long systab_nr(const struct systab_row *row, enum rec_abi abi);
/* The ABI iorec was built for. */
enum rec_abi abi_self(void);
/*
 * abi_kernel - the running kernel's native syscall ABI, from uname's
 * machine corrected by the kernel's long size (4 or 8, from header_page;
 * 0 when unknown), so that a 32-bit iorec on a 64-bit kernel gets it right.
 */
enum rec_abi abi_kernel(int kernel_long_size);
/*
 * abi_compat - the compat ABI of 32-bit programs on a kernel of ABI
 * @native (i386 on x86_64, arm on aarch64), or ABI_UNKNOWN with *why
 * saying why there is none.  *why may also be set (to a caveat) when one
 * is returned.
 */
enum rec_abi abi_compat(enum rec_abi native, const char **why);
/* Native syscalls sharing numbers with compat ones (NULL, 0: none). */
const struct marker_def *abi_markers(enum rec_abi native, size_t *n);

/* The ABI of an ELF file's class and machine. */
enum rec_abi elf_abi_of(bool is64, uint16_t machine);
/* The ABI of the ELF file @path (its header only), or ABI_UNKNOWN. */
enum rec_abi elf_file_abi(const char *path);

/* A function looked up by elf_find_symbols(). */
struct elf_sym {
	const char *name;	/* in: the symbol */
	bool found;		/* out: defined, and inside a PT_LOAD segment */
	bool thumb;		/* out: an ARM Thumb function (odd address) */
	bool ifunc;		/* out: a GNU indirect function */
	uint64_t offset;	/* out: file offset of its first instruction */
};

/*
 * elf_find_symbols - find each of @want in the .dynsym, then .symtab, of
 * the ELF file @path, and its file offset (what a uprobe needs).  *abi (may
 * be NULL) gets the file's ABI.  Returns how many were found, or -1 with
 * errno set when the file cannot be read or is not ELF.
 */
int elf_find_symbols(const char *path, struct elf_sym *want, int nwant,
		     enum rec_abi *abi);

/* ------------------------------------------------------------------ */
/* profile.c: which events to record */

#define PROFILE_IO	0x1
#define PROFILE_IOWAIT	0x2

enum plan_state {
	PLAN_OK,		/* present, will be enabled */
	PLAN_MISSING,		/* absent: costs the analysis something */
	PLAN_REPLACED,		/* absent, another event stands in */
	PLAN_SKIPPED,		/* not needed (e.g. syscalls:* under raw mode) */
};

struct plan_event {
	char *system;
	char *name;
	const char *cost;	/* what the analysis loses without it */
	const char *note;	/* "replaced by ..." and such, may be NULL */
	enum plan_state state;
	bool optional;		/* absence is normal on many kernels */
	bool user;		/* asked for with -e */
	bool marker;		/* a native syscall recorded only as a marker */
};

/* How the syscalls of 32-bit (compat) programs are recorded. */
enum compat_mode {
	COMPAT_NONE,		/* the kernel runs no compat programs */
	COMPAT_SHADOW,		/* raw_syscalls on compat ids + native markers */
	COMPAT_RAW,		/* raw mode: raw_syscalls on both ABIs' ids */
	COMPAT_OFF,		/* compat programs exist but are not recorded */
};

struct plan {
	struct plan_event *ev;
	size_t nev;
	size_t alloc;
	unsigned int profiles;	/* PROFILE_* */
	bool raw_syscalls;	/* record raw_syscalls:* with an id filter */
	bool raw_forced;	/* --raw-syscalls rather than a fallback */
	char *raw_filter;	/* "id == 0 || id == 1 ..." or NULL */
	bool raw_unnumbered;	/* raw mode impossible: no syscall table */
	enum rec_abi abi;	/* the kernel's native syscall ABI */
	enum rec_abi compat;	/* its compat ABI, or ABI_UNKNOWN */
	enum compat_mode compat_mode;
	bool no_compat;		/* --no-compat: set before plan_build() */
	bool compat_armed;	/* shadow events prepared, not enabled until
				   a 32-bit program starts (compat.c) */
	const char *compat_why;	/* why none/off, or a caveat; may be NULL */
	char *unshadowed;	/* compat ids without a native marker: "180,181" */
	char *task_filter;	/* only these tasks' syscalls: a filter on
				   common_pid or comm, or NULL for all */
	char *task_desc;	/* what it keeps, in words ("pid 12, 13") */
	int nmarkers;		/* marker events in the plan */
	int nsyscalls;		/* syscalls of interest on this machine */
	int nsyscalls_found;	/* of which syscalls:* events exist */
	int nusers_missing;	/* -e events that do not exist */
	bool nomem;		/* something could not be kept: the plan
				   fails (plan_build, plan_enable) */
	struct plan_event spare;	/* what plan_add() gives then */
};

/*
 * plan_build - decide which events to record
 * @p: zeroed plan to fill; release with plan_release()
 * @profiles: PROFILE_* bits
 * @user_events: -e arguments ("sys:event" or "sys:*"), @nuser of them
 * @raw_syscalls: --raw-syscalls was given
 * @kernel_long_size: from header_page (4 or 8; 0 unknown), for abi_kernel()
 *
 * Looks only at the top-level events directory (read-only).  Returns 0, or
 * -1 when the events directory cannot be read.
 */
int plan_build(struct plan *p, unsigned int profiles, char **user_events,
	       int nuser, bool raw_syscalls, int kernel_long_size);
/* "none", "shadow", "raw", "off": the header's compat_syscalls value. */
const char *plan_compat_word(enum compat_mode m);
void plan_release(struct plan *p);
/* Number of events in state PLAN_OK. */
size_t plan_count_ok(const struct plan *p);
/* Print the plan's event lines to f; verbose also lists the present ones. */
void plan_print_events(const struct plan *p, FILE *f, bool verbose);
/* Warn (stderr) about every missing non-optional event, once. */
void plan_warn_missing(const struct plan *p, bool verbose);
/*
 * plan_enable - set the raw_syscalls filter and enable every PLAN_OK event
 * in @inst.  An event that fails to enable is turned into PLAN_MISSING with
 * a warning.  Returns the number enabled, or -1 if none could be.
 */
int plan_enable(struct plan *p, struct tracefs_instance *inst);
/*
 * plan_set_task_filter - record the syscalls of the tasks @filter (an
 * event filter on common_pid or comm; NULL: every task) keeps, described
 * by @desc.  With @inst, the filters of the enabled events are rewritten
 * at once.  Returns 0, or -1 when one could not be set (with a warning).
 */
int plan_set_task_filter(struct plan *p, struct tracefs_instance *inst,
			 const char *filter, const char *desc);
/*
 * plan_compat_enable - enable the events of 32-bit programs' syscalls
 * that plan_enable() left off in an armed plan: the markers first, then
 * raw_syscalls (so no native raw event goes without its twin).  Returns
 * 0, or -1 when one failed (with a warning).
 */
int plan_compat_enable(struct plan *p, struct tracefs_instance *inst);
/*
 * plan_write_formats - append one EVENT_FORMAT chunk per enabled event and
 * the SYSCALLS chunk.  Returns 0 or a negative iorec_error.
 */
int plan_write_formats(const struct plan *p, struct tracefs_instance *inst,
		       struct iorec_writer *w);
/* Profile names as a comma list ("io,iowait"), static storage. */
const char *plan_profile_names(unsigned int profiles);
/* Parse a -p list into PROFILE_* bits; -1 on an unknown name. */
int plan_parse_profiles(const char *list);

/* Add an event known to exist (a uprobe iorec created) as PLAN_OK. */
void plan_add_ok(struct plan *p, const char *system, const char *name,
		 const char *cost);

/* ------------------------------------------------------------------ */
/* compat.c: 32-bit programs' syscalls only when one runs */

/*
 * compat_present - does a program of the compat ABI run or is about to:
 * iorec itself, the -- @command (may be NULL), or a process now.  *why
 * says which.
 */
bool compat_present(enum rec_abi compat, const char *command, char *why,
		    size_t size);
struct compat_watch;
/*
 * compat_watch_start - watch execs (instance iorecx-PID) and, at the first
 * of a 32-bit program, plan_compat_enable(@p, @rec) from its own thread.
 * Returns NULL after printing an error.
 */
struct compat_watch *compat_watch_start(struct plan *p,
					struct tracefs_instance *rec);
/* Stop the watcher and remove its instance; accepts NULL. */
void compat_watch_stop(struct compat_watch *cw);
/*
 * compat_watch_fired - has the watcher enabled compat recording: the pid
 * of the 32-bit program, its exec's trace time and when compat went on
 * (CLOCK_MONOTONIC ns).  With @once, true only the first time.
 */
bool compat_watch_fired(struct compat_watch *cw, int *pid, uint64_t *exec_ns,
			uint64_t *on_ns, bool once);

/* ------------------------------------------------------------------ */
/* taskfilter.c: only the system calls asked for */

/*
 * task_filter_pids/comm/cgroup - the event filter (*filter) and its words
 * (*desc; both to free) keeping the syscalls of the processes of a -P
 * list (their threads now), of a process name (* and ? allowed), of a
 * cgroup's threads now (a path under /sys/fs/cgroup, its children too).
 * Return 0, or -1 after printing the error.
 */
int task_filter_pids(const char *list, char **filter, char **desc);
int task_filter_comm(const char *comm, char **filter, char **desc);
int task_filter_cgroup(const char *cg, char **filter, char **desc);
/*
 * --command-only: the command @pid and every process started after it;
 * 0, or -1 after printing the error.
 */
int task_filter_command(int pid, const char *command, char **filter,
			char **desc);

/* ------------------------------------------------------------------ */
/* names.c: where file names come from (the fallback chain) */

struct tracefs_dynevent;
struct tracefs_instance;

/*
 * The sources of file names, in the default order of the chain, with the
 * words of --names and --check: an X-macro, as the ABIs above.
 */
#define NAME_SRC_LIST						\
	/* path strings in the syscall events */		\
	NAME_SRC(STRINGS,	"strings")			\
	/* kprobe on the kernel's open path */			\
	NAME_SRC(KPROBE,	"kprobe")			\
	/* eprobes on syscalls:sys_enter_open* */		\
	NAME_SRC(EPROBE,	"eprobe")			\
	/* uprobes on the C library's open functions */		\
	NAME_SRC(UPROBE,	"uprobe")			\
	/* fd snapshots and inode joins: always */		\
	NAME_SRC(SNAPSHOT,	"snapshot")

#define NAME_SRC(name, word) NS_##name,
enum name_src { NAME_SRC_LIST NS_NR };
#undef NAME_SRC

#define NAMES_MAX_PROBES 128

struct name_probe {
	struct tracefs_dynevent *ev;
	char event[48];
	enum name_src src;
	bool abi_marker;	/* exec_native/exec_compat, not a path */
};

struct names {
	char group[32];		/* "iorec_PID": the analyzer's path-hint group */
	struct name_probe pr[NAMES_MAX_PROBES];
	int npr;
	unsigned int allowed;	/* 1 << NS_* the user allows */
	enum name_src order[NS_NR];
	int norder;
	bool used[NS_NR];	/* gives names in this recording */
	char result[NS_NR][512];	/* what happened, for --check */
	bool no_uprobes;	/* --no-uprobes */
	bool native, compat;	/* open calls of both ABIs are named */
	bool exec_abi;		/* exec_native/exec_compat kprobes recorded */
	char uprobe_libs[512];	/* libc files probed, comma list */
	bool verbose;
};

/*
 * names_parse - parse a --names list ("auto", "none", or a comma list of
 * strings, kprobe, eprobe, uprobe in the order to try) into @n.  Returns
 * 0, -1 on an unknown word, or -IOREC_E_NOMEM (nothing printed).
 */
int names_parse(struct names *n, const char *list);
/* --no-uprobes: take uprobes out of the chain. */
void names_no_uprobes(struct names *n);
/*
 * names_setup - walk the chain for the plan @p: for each source, in order,
 * that would name what the earlier ones do not, create its probes (group
 * iorec_PID) and enable them in @inst (the recording's instance, or a
 * scratch one for --check); a source whose probes cannot be created or
 * enabled is removed again and the next one is tried.  Fills n->result[]
 * and n->used[].  Never fails: the fd snapshots are always there.
 */
void names_setup(struct names *n, const struct plan *p,
		 struct tracefs_instance *inst, bool verbose);
/* Add every probe names_setup() kept to the plan, as PLAN_OK events. */
void names_add_to_plan(const struct names *n, struct plan *p);
/* Remove every probe created; safe to call twice. */
void names_destroy(struct names *n);
/* The sources used, in order: "kprobe,snapshot". */
void names_sources(const struct names *n, char *buf, size_t size);
/* One line per source tried, for --check. */
void names_print(const struct names *n, FILE *f);
/* What the recording cannot name, one sentence, or NULL. */
const char *names_limit(const struct names *n, const struct plan *p);
/* Remove probe groups iorec_PID whose PID is dead.  Returns how many. */
int names_remove_stale(bool verbose);

/* ------------------------------------------------------------------ */
/* instance.c: the tracefs instance iorec-PID */

/* What iorec names its instance (PREFIX PID) and its probe groups. */
#define INSTANCE_PREFIX	"iorec-"
#define GROUP_PREFIX	"iorec_"
/* The instance of the 32-bit exec watcher (compat.c). */
#define INSTANCE_EXEC_PREFIX	"iorecx-"
/* The scratch instance that tries a file-name probe (names.c). */
#define INSTANCE_PROBE_PREFIX	"iorecp-"
/*
 * stale_owner - the pid of a name iorec gave a tracefs object, prefix and
 * pid ("iorec-1234", "iorec_1234"), when that process is gone (and is not
 * this one); 0 when name is not such a name or its iorec still runs.
 */
pid_t stale_owner(const char *name, const char *prefix);

struct rec_instance {
	struct tracefs_instance *ti;
	char name[32];
	char clock[16];		/* "mono", or "global" as a fallback */
	int ncpus;		/* per-CPU buffers of the instance */
};

/*
 * tracefs_ready - make sure tracefs is mounted (mounting it if needed).
 * Returns 0, or -1 after printing the one-line error.
 */
int tracefs_ready(void);
/*
 * Whether REL (a file or folder under tracefs's top level) or the event
 * SYSTEM:NAME exists, by the path tracefs_ready() found: libtracefs's
 * own tracefs_*_exists(NULL, ...) read /proc/mounts again at every call
 * (250 times in a recording of 1 s, a sixth of its CPU).
 */
bool trace_path_exists(const char *rel);
bool trace_event_exists(const char *system, const char *name);
/* Remove instances iorec-PID whose PID is dead.  Returns how many. */
int instance_remove_stale(bool verbose);
/*
 * instance_create - create instances/iorec-PID and configure it: tracing
 * off, clock mono (or global), buffer size, buffer_percent, own pid
 * excluded.  Returns 0 or -1 (the instance is then already removed).
 */
int instance_create(struct rec_instance *ri, unsigned int buffer_kb,
		    unsigned int percent);
/* Remove the instance and free it; safe to call twice or on a failed one. */
void instance_destroy(struct rec_instance *ri);
/* Turn tracing on or off in the instance.  Returns 0 or -1. */
int instance_tracing(struct rec_instance *ri, bool on);
/* Number of possible CPUs that have a per_cpu buffer directory. */
int instance_count_cpus(struct tracefs_instance *ti);
/*
 * instance_stats - append "cpu\tN\tkey\tvalue\n" lines of
 * per_cpu/cpuN/stats to @sb and return the sum of overrun + dropped
 * events of cpu N via *lost.  Returns 0 or -1 when stats are unreadable.
 */
int instance_cpu_stats(struct rec_instance *ri, int cpu, struct sbuf *sb,
		       uint64_t *lost);

/* ------------------------------------------------------------------ */
/* snapshot.c: the context snapshot */

struct inoset;

struct snap_self {
	pid_t pid;
	const char *out_dev;	/* "major:minor", or "" for a pipe */
	unsigned long long out_ino;
	struct inoset *inos;	/* end snapshots: its inode lines; or NULL */
	bool rotated;		/* a rotation's file: inoset_lines() cached */
};

/*
 * snapshot_build - append the snapshot text (time, uname, sysctl, meminfo,
 * mount, blockdev, diskstats, proc, abi, thread, fd, self lines) to @sb.
 * Unreadable sources are skipped silently (processes come and go).
 */
void snapshot_build(struct sbuf *sb, const struct snap_self *self);

/*
 * snapshot_write - build a snapshot of @phase (IOREC_SNAP_*) and append it
 * as a SNAPSHOT chunk.  Returns 0 or a negative iorec_error.
 */
int snapshot_write(struct iorec_writer *w, uint32_t phase,
		   const struct snap_self *self);

/*
 * snapshot_write_end - the end snapshot and saved_cmdlines (when readable)
 * to @w, the first part of every recording's trailer; the caller adds the
 * STATS and END chunks.  Returns 0 or a negative iorec_error.
 */
int snapshot_write_end(struct iorec_writer *w, const struct snap_self *self);

/* ------------------------------------------------------------------ */
/* ringbuf.c: reading the per-CPU buffers in batches */

struct ringbuf;

struct ringbuf_opts {
	int ncpus;
	int subbuf_size;
	int long_size;
	size_t batch_bytes;	/* raw bytes per batch, per CPU */
	uint64_t flush_ns;	/* cut a batch at least this often */
	uint64_t drain_ns;	/* read every CPU's partial page this often
				   (0: flush_ns) */
	int zstd_level;
	uint64_t flight_bytes;	/* 0: write through; else keep last N bytes */
	int threads;		/* reader threads (CPU groups); <= 1: none,
				   the main loop reads */
	struct trig *trig;	/* evaluated on every event read, or NULL */
	bool mono_clock;	/* the trace clock is CLOCK_MONOTONIC's */
	struct inoset *inos;	/* fed every event read, or NULL */
	bool flight_keep;	/* ringbuf_finish() leaves the kept chunks
				   in memory (snapshots), not in the writer */
};

/* The nice value of the reader threads (and of the main loop). */
#define READER_NICE	(-10)

struct ringbuf_totals {
	uint64_t events;
	uint64_t pages;
	uint64_t raw_bytes;	/* raw page bytes read */
	uint64_t chunks;
	uint64_t flight_discarded;
	uint64_t flight_cutoff_ts;
	uint64_t limit_dropped_pages;	/* not written: past the size limit */
};

/*
 * ringbuf_open - open per_cpu/cpuN/trace_pipe_raw of every CPU of @inst
 * (non-blocking) and allocate the batches.  Returns NULL after printing
 * an error.  Free with ringbuf_close().
 */
struct ringbuf *ringbuf_open(struct tracefs_instance *inst,
			     const struct ringbuf_opts *o,
			     struct iorec_writer *w);
void ringbuf_close(struct ringbuf *rb);
/*
 * ringbuf_start - raise the readers' priority (nice READER_NICE, where
 * allowed) and, with threads, start one per CPU group.  From then on, in
 * threaded mode, every use of the writer is between ringbuf_lock() and
 * ringbuf_unlock() (no-ops without threads).  Returns 0 or -1.
 */
int ringbuf_start(struct ringbuf *rb);
/* Stop and join the reader threads (ringbuf_finish() does it too). */
void ringbuf_stop_threads(struct ringbuf *rb);
/* The reader threads, 0 when the main loop reads. */
int ringbuf_threads(const struct ringbuf *rb);
void ringbuf_lock(struct ringbuf *rb);
void ringbuf_unlock(struct ringbuf *rb);
/*
 * ringbuf_wait - poll() the CPU buffers for up to @timeout_ms (with
 * threads: only wait).  Returns the number of readable CPUs, 0 on
 * timeout, -1 on EINTR.
 */
int ringbuf_wait(struct ringbuf *rb, int timeout_ms);
/*
 * ringbuf_read - read what is ready: full pages from the CPUs poll()
 * reported, and, when @all, everything (partial pages too) from every
 * CPU.  Cuts batches that are full or older than flush_ns.  Returns 0 or a
 * negative iorec_error from the writer.  With threads, only the first
 * error a thread met.
 */
int ringbuf_read(struct ringbuf *rb, bool all);
/*
 * ringbuf_finish - read the rest of every CPU (tracing must be off), cut
 * every batch and, in flight mode, write the kept chunks.  Returns 0 or a
 * negative iorec_error.
 */
int ringbuf_finish(struct ringbuf *rb);
void ringbuf_totals(const struct ringbuf *rb, struct ringbuf_totals *t);
/*
 * ringbuf_set_data_limit - write DATA chunks only while the output stays
 * under @limit bytes (0: no limit); a batch that would pass it is dropped
 * and counted, and ringbuf_limit_reached() turns true.
 */
void ringbuf_set_data_limit(struct ringbuf *rb, uint64_t limit);
/*
 * ringbuf_set_writer - from now on, DATA chunks go to @w (rotation); the
 * caller holds ringbuf_lock().  Returns the writer used until now.
 */
struct iorec_writer *ringbuf_set_writer(struct ringbuf *rb,
					struct iorec_writer *w);
bool ringbuf_limit_reached(const struct ringbuf *rb);
/* A copy of one kept flight chunk (ringbuf_flight_copy()). */
struct flight_copy {
	uint8_t desc[IOREC_DATA_DESC_LEN];
	uint8_t *z;
	size_t zlen;
	size_t raw_len;
};

/*
 * ringbuf_flight_copy - the flight recorder's window as it is now: in the
 * main-loop mode, every CPU's partial page and batch is read and cut
 * first (with reader threads, the batches they have cut: up to flush_ns
 * older).  Returns the copies, oldest first (free with
 * flight_copy_free()), and their number in *n; NULL with *n = 0 on an
 * empty window; *err gets 0, the writer error a reader met, or
 * -IOREC_E_NOMEM (no copy then).
 */
struct flight_copy *ringbuf_flight_copy(struct ringbuf *rb, size_t *n,
					int *err);
void flight_copy_free(struct flight_copy *fc, size_t n);
/* Pages of @cpu read so far, and of those, pages flagged with lost events. */
void ringbuf_cpu_pages(const struct ringbuf *rb, int cpu, uint64_t *pages,
		       uint64_t *missed);

/* ------------------------------------------------------------------ */
/* trigger.c: the black box's triggers */

enum trig_kind { TRIG_D2C, TRIG_FSYNC, TRIG_THROTTLE, TRIG_IOWAIT,
		 TRIG_LOST };

struct trig_cond {
	enum trig_kind kind;
	uint64_t thresh_ns;	/* fires above it (0 for lost) */
	uint64_t window_ns;	/* iowait: over this long (default 10 s) */
	uint32_t dev;		/* d2c@DEV: only this device (the block
				   events' major << 20 | minor), 0: any */
	char text[IOREC_TRIGGER_LEN];	/* as given: "fsync>500ms" */
};

/* What fired: the first firing since the last trig_take(). */
struct trig_fire {
	char cond[IOREC_TRIGGER_LEN];	/* the condition's text */
	uint64_t ts;		/* trace time of the request or call start */
	uint64_t value_ns;	/* the time measured (0 for lost) */
	int pid;		/* who issued it (0: unknown) */
	int cpu;
	char call[16];		/* fsync or fdatasync ("" otherwise) */
	int fd;			/* the call's fd (-1: none) */
	uint32_t dev;		/* a request's kernel dev_t (0: none) */
	uint64_t sector;	/* and its first sector and bytes */
	uint64_t bytes;
	char detail[160];	/* one sentence */
};

struct trig;

/* NULL without memory. */
struct trig *trig_new(void);
/* Free; accepts NULL. */
void trig_free(struct trig *t);
/*
 * trig_parse - add a condition: "d2c>DURATION", "fsync>DURATION",
 * "throttle>DURATION" or "lost".  Returns 0, or -1 when it is none.
 */
int trig_parse(struct trig *t, const char *cond);
int trig_count(const struct trig *t);
/* Does a condition need the scheduler's events (iowait: profile iowait)? */
bool trig_wants_sched(const struct trig *t);
/*
 * Does a condition pair two events (d2c, fsync, iowait)?  They wait until
 * every CPU has been read past them: then every CPU is read whole each
 * TRIG_DRAIN_NS.
 */
bool trig_pairs(const struct trig *t);
const struct trig_cond *trig_cond_at(const struct trig *t, int i);
/*
 * trig_setup - resolve the event ids and field offsets the conditions
 * need from the format files of @inst (libtraceevent), once: fsync
 * through syscalls:sys_enter/exit_fsync and _fdatasync, or under
 * --raw-syscalls through raw_syscalls and their numbers.  A condition
 * whose events this kernel lacks is turned off with a warning saying
 * why (the black box still answers SIGUSR1).  Returns 0, or -1 when
 * memory is short.
 */
int trig_setup(struct trig *t, struct tracefs_instance *inst,
	       const struct plan *p);
/* The snapshot writer's thread: its fsyncs never fire. */
void trig_set_writer_tid(struct trig *t, int tid);
/* One event (the record's data) read from @cpu at trace time @ts. */
void trig_event(struct trig *t, const void *data, uint64_t ts, int cpu);
/*
 * trig_progress - every event of @cpu up to @ts has been read (the CPUs'
 * pages come in no common order: the conditions that pair events of two
 * CPUs, iowait's, take them in time order up to the slowest CPU's).
 */
void trig_progress(struct trig *t, int cpu, uint64_t ts);
/* An event being written as its CPU is read is at most this old. */
#define TRIG_SETTLE_NS	(10 * 1000000ull)
/* How often the CPUs are read whole for trig_progress() (iowait). */
#define TRIG_DRAIN_NS	(200 * 1000000ull)
/* A page of @cpu flagged with lost events. */
void trig_lost(struct trig *t, uint64_t ts, int cpu);
/* The first firing since the last call, if any. */
bool trig_take(struct trig *t, struct trig_fire *out);
/* Every firing so far, taken or not. */
uint64_t trig_fired_count(struct trig *t);

/* ------------------------------------------------------------------ */
/* inodes.c: names of the inodes that had I/O, through the file system */

struct inoset *inoset_new(void);
void inoset_free(struct inoset *s);
/* The disk of partition ma:mi (sysfs), or 0:0 when it is none. */
void disk_of(unsigned int ma, unsigned int mi, unsigned int *dma,
	     unsigned int *dmi);
/*
 * inoset_setup - resolve the ids and the device and inode fields of the
 * events of @inst that carry an inode (ext4 fsync and writepages, page
 * cache adds, dirtied inodes and folios).  Returns 0 or -1.
 */
int inoset_setup(struct inoset *s, struct tracefs_instance *inst);
/* How many of those events the recording has (0: no names this way). */
int inoset_events(const struct inoset *s);
/* Called by the readers for every event: keep its inode, if it has one. */
void inoset_event(struct inoset *s, const void *data, uint64_t ts, int cpu);
/*
 * inoset_lines - the snapshot's "inode" lines (docs/iorec.5): each inode
 * kept, opened by handle on its mount and named, for at most @budget_ns;
 * then one "inodes" line of counts.  @cached (a rotation's files): the
 * lines of inodes an earlier call named are repeated as they were, and
 * only the new ones named, so that each file costs its own inodes and
 * not the whole recording's.  Safe while the readers run.
 */
void inoset_lines(struct inoset *s, struct sbuf *sb, uint64_t budget_ns,
		  bool cached);
/* The longest an end snapshot spends naming inodes (then it stops). */
#define INODE_NAMES_BUDGET_NS	(2 * 1000000000ull)
/*
 * ... and a rotation's, whose names are taken while the main loop, the
 * reader on one or two CPUs, waits: 13,600 inodes took 0.4 s each time,
 * and a busy machine's buffers overflowed at every rotation.  What is
 * not named in time is named by the next rotation's.
 */
#define INODE_NAMES_ROTATE_NS	(100 * 1000000ull)
/* iorec --check: whether this kernel and file system give these names. */
void inoset_check(struct tracefs_instance *inst, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* blackbox.c: snapshots of the flight window into a directory */

/* One snapshot to write, built by the main loop; bb_submit() owns it. */
struct bb_snap {
	char tag[24];		/* in the file name: "signal", "fsync" */
	int meta_fd;		/* the recording's metadata (a memory file) */
	uint64_t meta_len;	/* its bytes that are whole chunks */
	char *header_extra;	/* key=value lines added to the header */
	struct flight_copy *fc;	/* the window's DATA chunks */
	size_t nfc;
	char *stats;		/* STATS text */
	size_t stats_len;
	char *end_text;		/* END text */
	struct snap_self self;
	int level;
	char log[640];		/* the log line's end: what fired */
};

/*
 * meta_copy - append to @w (a new writer) the chunks of the metadata
 * memory file @meta_fd up to @meta_len, the header's text followed by
 * @header_extra ("key=value\n" lines).  Returns 0 or a negative
 * iorec_error.
 */
int meta_copy(int meta_fd, uint64_t meta_len, const char *header_extra,
	      struct iorec_writer *w);

struct blackbox;

/*
 * bb_open - make the snapshot directory @dir (writable, or NULL after an
 * error line) and write @pidfile ("PID\nDIR\n"; NULL: none; a failure is
 * a warning).  Keep at most @keep snapshots (0: any number) and
 * @keep_bytes of them (0: no bound).  @trig (may be NULL) learns the
 * writer thread, whose fsyncs must not fire.
 */
struct blackbox *bb_open(const char *dir, unsigned int keep,
			 uint64_t keep_bytes, const char *pidfile,
			 struct trig *trig);
/* The directory, made absolute. */
const char *bb_dir(const struct blackbox *bb);
/*
 * bb_submit - write @s (freed here) by a thread of its own, or here when
 * @wait.  Returns 0, or -1 when a snapshot is still being written (@s is
 * dropped).  Each snapshot logs one line, and removes the oldest past
 * the limits.
 */
int bb_submit(struct blackbox *bb, struct bb_snap *s, bool wait);
bool bb_busy(const struct blackbox *bb);
/* CLOCK_MONOTONIC ns when the last snapshot ended (0: none yet). */
uint64_t bb_done_mono(const struct blackbox *bb);
void bb_snap_free(struct bb_snap *s);
/* Wait for the writer, remove the pid file, free; accepts NULL. */
void bb_close(struct blackbox *bb);
/*
 * bb_request - iorec --snapshot: signal the recorder of @pidfile
 * (SIGUSR1) and wait up to @timeout_ns for its new snapshot, whose path
 * is printed.  Returns 0, or -1 after one error line.
 */
int bb_request(const char *pidfile, uint64_t timeout_ns);

#endif /* IOREC_RECORD_H */
