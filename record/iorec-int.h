// SPDX-License-Identifier: MIT
/*
 * iorec-int.h - what the parts of the iorec program share: its options
 * (env), one recording's state (struct rec) and the functions each part
 * gives the others.  iorec.c: main, setup, the loop and the end;
 * options.c: the command line; check.c: --check and the sizes it states;
 * meta.c: the output, the metadata chunks and the trailer; child.c: the
 * command run under the recording; snapjob.c: rotation and the black
 * box's snapshots.
 */
#ifndef IOREC_INT_H
#define IOREC_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "iorec-format.h"
#include "record.h"

#define FLUSH_NS	(2 * 1000000000ull)	/* cut batches at least this often */
#define TICK_MS		1000			/* status and housekeeping */
#define DRAIN_NS	(200 * 1000000ull)	/* after CMD exits */
#define BATCH_MAX	(256u << 10)		/* raw bytes per DATA batch: damage
					   that no CRC mends costs at most
					   this, compression as good as 1 MiB */
#define BATCH_BUDGET	(4u << 20)		/* all CPUs' batches together */
#define BATCH_MIN	(64u << 10)


/* The command line, as parsed (options.c). */
struct env {
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
	bool no_inode_names;
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
	bool output_given;
	bool bb_opt;		/* --trigger or --keep-size given */
	bool keep_given;	/* --keep */
	bool rotate;		/* -S with --keep: rotation */
	const char *snapshot_dir;	/* --snapshot-dir: the black box */
	bool snapshot_request;	/* --snapshot: ask the running one */
	unsigned int keep;	/* --keep N snapshots (0: any) */
	uint64_t keep_bytes;	/* --keep-size SIZE (0: any) */
	struct trig *trig;	/* --trigger conditions, or NULL */
	uint64_t post_ns;	/* --post */
	uint64_t cooldown_ns;	/* --cooldown */
	const char *pid_file;	/* --pid-file */
	char **command;		/* argv after --, or NULL */
	int argc;
	char **argv;
};
extern struct env env;

/* Long options without a letter. */
enum {
	OPT_SNAPSHOT_DIR = 256,
	OPT_SNAPSHOT,
	OPT_KEEP,
	OPT_KEEP_SIZE,
	OPT_TRIGGER,
	OPT_POST,
	OPT_COOLDOWN,
	OPT_PID_FILE,
	OPT_NO_INODE_NAMES,
};

/* The flight size of a black box without -F. */
#define BLACKBOX_FLIGHT	(16u << 20)

/* --compat / --no-compat / neither */
enum { COMPAT_WANT_AUTO, COMPAT_WANT_ON, COMPAT_WANT_OFF };


/* Everything one recording owns; released by rec_release(). */
struct rec {
	struct plan plan;
	char limits_said[3][320];	/* the limits warned of at the start */
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
	struct iorec_writer *meta_w;	/* rotation: the metadata memory file's
					   writer; r->w is the current file's */
	int cur_fd;		/* rotation: the current file */
	unsigned int rot_index;	/* its number, from 1 */
	uint64_t rot_base;	/* its size with the metadata alone */
	uint64_t rot_limit;	/* rotate when it reaches this */
	char cur_path[4200];
	struct blackbox *bb;	/* --snapshot-dir */
	bool snap_wanted;	/* SIGUSR1 not yet served */
	struct inoset *inos;	/* inodes with I/O, named at the end */
	bool trig_pending;	/* a trigger waits for its --post */
	struct trig_fire fire;	/* ... this one */
	char fire_comm[32];
	uint64_t pending_at;	/* CLOCK_MONOTONIC ns of its snapshot */
	uint64_t cool_until;	/* no trigger snapshot before this */
	uint64_t snapshots;	/* submitted */
	uint64_t suppressed;	/* firings that took no snapshot */
};

/* Set by the signal handlers (iorec.c). */
extern volatile sig_atomic_t stop_signal;
extern volatile sig_atomic_t child_changed;
extern volatile sig_atomic_t snap_signal;

/* iorec.c */
double mb(uint64_t bytes);
uint64_t writer_size(struct rec *r);

/* options.c */
int usage_error(const char *fmt, const char *arg);
int parse_args(int argc, char **argv);

/* check.c */
unsigned int buffer_default(int ncpus);
size_t batch_bytes(int ncpus);
int reader_threads(int ncpus);
void collect_limits(const struct rec *r, const char *out[3],
			   bool console);
int do_check(struct rec *r);

/* meta.c */
int open_output(struct rec *r);
const char *out_name(const struct rec *r);
void note_write_error(struct rec *r, int err);
void report_write_error(const struct rec *r);
int write_metadata(struct rec *r);
struct snap_self snap_self(const struct rec *r);
void collect_stats(struct rec *r, struct sbuf *sb);
void end_text(struct rec *r, struct sbuf *sb, const char *reason);
int write_trailer_to(struct rec *r, struct iorec_writer *w,
			    const char *reason);
int write_trailer(struct rec *r);

/* child.c */
int spawn_command(struct rec *r);
int release_command(struct rec *r);
void reap_child(struct rec *r);
int child_exit_code(const struct rec *r);
void child_reason(struct rec *r);
void finish_child(struct rec *r);

/* snapjob.c */
int rot_start(struct rec *r);
bool rot_due(struct rec *r);
void rotate(struct rec *r);
int take_snapshot(struct rec *r, const struct trig_fire *fire,
			 const char *why, bool wait);
uint64_t blackbox_tick(struct rec *r, uint64_t now);

#endif /* IOREC_INT_H */
