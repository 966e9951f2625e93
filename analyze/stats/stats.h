/* SPDX-License-Identifier: MIT */
/*
 * stats.h - what one pass over a recording computed, as the sinks see
 * it: the events counted, the events lost per CPU, the tasks seen, per
 * device and operation the requests and their latency histograms, the
 * slowest requests and syscalls, what the recording had, the anomaly
 * counters of every stage, and the aggregates of the other stats
 * headers (attribution, write amplification, dirty throttling; the rows
 * of processes and files of rows.h).
 *
 * The driver fills it during and after the pass; a sink reads it and
 * the functions below, never the state machines behind it.  Memory is
 * bounded whatever the length of the recording: fixed-size histograms,
 * fixed-size heaps of the N slowest, a fixed bitmap of task ids.
 */
#ifndef IOREPORT_STATS_H
#define IOREPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/blk.h"
#include "base/syskind.h"
#include "stats/hist.h"
#include "stats/account.h"
#include "stats/attrib.h"
#include "stats/busy.h"
#include "stats/btt.h"

struct source_info;
struct decoder;
struct proctable;
struct filetab;
struct wa;
struct dirty;
struct replay_block;
struct sysreplay;
struct dec_stats;
struct proc;

/* The kernel's PID_MAX_LIMIT on 64-bit: larger ids are not counted. */
#define STATS_PIDMAP_BITS	(4u * 1024 * 1024)

/* One device and operation. */
struct devstat {
	uint32_t dev;
	enum blk_op op;
	uint64_t reqs, bytes, fua, preflush, errors;
	struct hist queue;	/* insert -> issue (I2D), when both seen */
	struct hist device;	/* issue -> complete (D2C) */
	struct hist total;	/* insert (or issue) -> complete (I2C) */
	struct hist q2c;	/* first bio queued -> complete, when seen */
	struct hist q2i;	/* first bio queued -> inserted, when both seen */
	struct hist q2m;	/* a bio queued -> merged into a request (btt's
				   Q2M), when its queueing was seen */
	/* the shape of the I/O (findings.h): requests that began where the
	 * previous one of this device and operation to complete ended, and
	 * the small ones (<= STATS_SMALL bytes) with their device time */
	uint64_t seq, small, small_dev_ns;
	uint64_t small_sync_bytes;	/* of small sync/FUA/preflush ones */
	uint64_t next_sector;
	struct sizehist sizes;	/* of the requests with data (bitesize) */
	/* btt's Q and M: bios queued (block_bio_queue) and merged into a
	 * request already queued (block_bio_back/frontmerge), on this
	 * device and operation */
	uint64_t bios, merges, merged_bytes;
	/* iostat's r_await/w_await and aqu-sz: the sum of the requests'
	 * times in flight as diskstats counts them (blk_life_ns()) */
	uint64_t life_ns;
};

/* One device's busy time (iostat's %util): stats_dev_busy(). */
struct devbusy {
	uint32_t dev;
	struct busy b;
	uint64_t busy_ns;	/* after the pass */
};

/* The order of the rows of a device and operation: by device, then op. */
static inline int stats_devop_cmp(uint32_t dev_a, enum blk_op op_a,
				  uint32_t dev_b, enum blk_op op_b)
{
	if (dev_a != dev_b)
		return dev_a < dev_b ? -1 : 1;
	return (int)op_a - (int)op_b;
}

/* The bios queued and merged per device and operation (struct devstat). */
struct biostat {
	uint32_t dev;
	enum blk_op op;
	uint64_t bios, merges, merged_bytes;
	struct hist q2m;
};

/* A small request (the SD card's scattered writes): 16 KiB or less. */
#define STATS_SMALL	16384u

/* Lost events seen in the data of one CPU. */
struct lostcpu {
	uint64_t gaps;		/* records preceded by a gap */
	uint64_t events;	/* known lost counts summed */
	uint64_t unknown;	/* gaps of unknown size */
	uint64_t first_gap_ts;	/* 0: none */
	/*
	 * The time spans the CPU's events are missing from: a gap runs from
	 * the CPU's event before it (the recording's first event when none)
	 * to the one after it.
	 */
	uint64_t last_ts;	/* the CPU's latest event; 0: none yet */
	uint64_t missing_ns;	/* the gaps' spans summed */
	uint64_t longest_from;	/* the longest gap's span */
	uint64_t longest_to;
};

/* One gap, in the order read (stats->gapv, the first STATS_GAPS_MAX). */
struct lostgap {
	uint64_t from, to;	/* the CPU's events either side */
	long long events;	/* lost; -1: of unknown size */
	int cpu;
};
#define STATS_GAPS_MAX	1024

/* A completed syscall kept among the slowest (enter -> exit). */
struct slow_call {
	enum sys_kind kind;
	int pid, tid;
	char comm[16];			/* the process's comm at the call */
	int fd;				/* -1: none */
	const struct file *file;	/* of fd, or NULL (stats_call_file()) */
	uint64_t start, end;		/* enter and exit ts */
	int64_t ret;
	uint64_t bytes;			/* moved by a read/write kind */
};

/* A counter of what a stage could not pair or decode. */
struct anomaly {
	const char *stage;	/* block, syscall, process, fd, decode, attrib */
	const char *key;	/* JSON key and name in the database */
	const char *text;	/* for a text line */
	uint64_t n;
};

#define ANOMALIES_MAX	64

struct view_filter;

struct stats {
	/* the recording (meta.h reads its texts) */
	const struct source_info *info;
	struct view_filter *filter;	/* what the pass kept, or NULL */
	bool slow_all_fds;		/* slowest syscalls on every fd, not
					   only files and block devices */
	int event_types;		/* in its formats */

	/* every event */
	uint64_t events;
	uint64_t first_ts, last_ts;	/* of the events read */
	int nr_cpus;
	struct lostcpu *lost;		/* nr_cpus of them */
	struct lostgap *gapv;		/* the first gaps, in order */
	size_t ngaps, agaps;
	uint64_t tasks;			/* distinct common_pid seen (not 0) */

	/* block requests */
	bool have_block;		/* the block replay ran */
	const char *block_why;		/* why not */
	struct devstat *dev;		/* sorted by device then op */
	size_t ndev, dev_alloc;
	bool bio_events;		/* block_bio_queue recorded */
	bool merge_events;		/* block_bio_back/frontmerge recorded */
	struct devbusy *busy;		/* per device, in order of first use */
	size_t nbusy, busy_alloc;
	struct biostat *bio;		/* copied into dev at the end */
	size_t nbio, bio_alloc;
	struct bttdev *btt;		/* per device (stats/btt.h) */
	size_t nbtt, btt_alloc;
	struct {
		size_t cap, n;
		struct blk_done *v;
	} slow;				/* the N slowest, a heap */

	/* syscalls, processes, files */
	bool have_sys;			/* the syscall replay ran */
	const char *sys_why;		/* why not */
	struct {
		size_t cap, n;
		struct slow_call *v;
	} slow_calls;
	size_t processes;
	bool raw_syscalls;		/* from raw_syscalls:* (no syscalls:*) */
	bool compat_raw;		/* 32-bit programs' from raw_syscalls:* */
	uint64_t compat_calls;		/* their calls decoded */
	bool proc_events;		/* fork/exec/exit recorded */
	bool path_strings;		/* open events carried path strings */
	uint64_t path_hints;		/* paths from probe events (uprobes,
					   kprobes, eprobes) */
	struct account_stats named;	/* I/O on named files */

	/* the other aggregates, or NULL */
	const struct attrib *at;
	const struct uring_replay *ur;	/* io_uring requests, or NULL */
	const struct aio_replay *ar;	/* libaio requests, or NULL */
	const struct wa *wa;
	const struct dirty *dirty;
	int hz;				/* 250 when unknown */

	struct anomaly anom[ANOMALIES_MAX];
	size_t nanom;

	/* what the rows and names are read from (rows.h) */
	struct decoder *dec;
	struct proctable *pt;
	struct filetab *ft;
	bool ended;			/* the pass is over */
	struct stats_trigger *trig;	/* a black-box snapshot's trigger
					   (stats/trigger.h), or NULL */
	uint8_t *pidmap;
};

/* Zero st and allocate what the pass counts into; 0 or -AN_E_NOMEM. */
int stats_init(struct stats *st, int nr_cpus, size_t slow_n, bool calls);
void stats_release(struct stats *st);

/* The span of a gap on cpu before the event at ts (stats_event()). */
void stats_gap(struct stats *st, int cpu, uint64_t ts, long long missed);

/* Count one event (every event, whatever the stages). */
static inline void stats_event(struct stats *st, uint64_t ts, int cpu,
			       int pid, long long missed)
{
	unsigned int p = (unsigned int)pid;

	st->events++;
	if (!st->first_ts)
		st->first_ts = ts;
	st->last_ts = ts;
	if (missed && cpu >= 0 && cpu < st->nr_cpus) {
		struct lostcpu *l = &st->lost[cpu];

		l->gaps++;
		if (missed > 0)
			l->events += (uint64_t)missed;
		else
			l->unknown++;
		if (!l->first_gap_ts)
			l->first_gap_ts = ts;
		stats_gap(st, cpu, ts, missed);
	}
	if (cpu >= 0 && cpu < st->nr_cpus && ts > st->lost[cpu].last_ts)
		st->lost[cpu].last_ts = ts;
	if (p && p < STATS_PIDMAP_BITS &&
	    !(st->pidmap[p >> 3] & (1u << (p & 7)))) {
		st->pidmap[p >> 3] |= (uint8_t)(1u << (p & 7));
		st->tasks++;
	}
}

/*
 * A completed request: its device and operation's counts and times.
 * Returns 1 when it is sequential (it starts where the previous request
 * of its device and operation to complete ended), 0 when not, or
 * -AN_E_NOMEM.
 */
int stats_request(struct stats *st, const struct blk_request *rq);
/*
 * The shape of a read or write whose first bio is process p's
 * (attrib.h): its size and whether stats_request() found it sequential.
 */
int stats_proc_request(struct proc *p, const struct blk_request *rq,
		       bool seq);
/*
 * A bio queued (merge false) or merged into a queued request (true) on
 * disk dev: sectors of operation op; q2m_ns, for a merge whose bio's
 * queueing was seen, the time from that to the merge (else -1).  0 or
 * -AN_E_NOMEM.
 */
int stats_bio(struct stats *st, uint32_t dev, enum blk_op op,
	      uint32_t sectors, bool merge, int64_t q2m_ns);
/* Whether stats_keep_request() would keep a request (a slow heap). */
static inline bool stats_keeps_requests(const struct stats *st)
{
	return st->slow.cap != 0;
}
/* Offer a completed request with its owner to the slowest. */
void stats_keep_request(struct stats *st, const struct blk_done *d);
/* Offer a completed call of process p on file f to the slowest. */
void stats_call(struct stats *st, const struct proc *p, const struct file *f,
		const struct sys_call *c);

/* stats_end - the end of the pass: sort the devices, count the processes */
void stats_end(struct stats *st);

/*
 * The anomaly counters (stats/anomalies.c), one list in the order the
 * stages report them: stats_anomaly() adds one (ANOMALIES_MAX at most);
 * the others add a stage's whole set (the block replay's; the syscall,
 * process, fd, decode, libaio and io_uring replays'; the attribution's),
 * each called by the driver's table row of that stage.
 */
void stats_anomaly(struct stats *st, const char *stage, const char *key,
		   const char *text, uint64_t n);
void stats_anomalies_block(struct stats *st, const struct replay_block *rb);
void stats_anomalies_sys(struct stats *st, const struct sysreplay *sr,
			 const struct dec_stats *ds);
void stats_anomalies_attrib(struct stats *st);

/* The slowest requests, slowest first (sorts the heap: after the pass). */
const struct blk_done *stats_slowest(struct stats *st, size_t *n);
/* The slowest syscalls, slowest first (after the pass). */
const struct slow_call *stats_slowest_calls(struct stats *st, size_t *n);

/*
 * The file a request was attributed to, or NULL: during the pass the
 * files known so far, after it also the inodes tied at the end.
 */
const char *stats_request_file(const struct stats *st,
			       const struct blk_done *d);
/* The owner process of an attributed request: *pid (-1) and *comm. */
void stats_request_owner(const struct blk_done *d, int *pid,
			 const char **comm);
/*
 * The ids of a completed request's owner: its process and file
 * (struct proc_info.id, struct file_info.id of rows.h, -1 when unknown)
 * and the attribution rule (attrib_kind_name(), NULL when not
 * attributed).  Returns whether its file is known only by inode
 * (*dev, *ino): stats_inode_file_id() names it after the pass.
 */
bool stats_request_ids(const struct blk_done *d, int *proc_id, int *file_id,
		       const char **how, uint32_t *dev, uint64_t *ino);
/* The id of the file of inode dev:ino tied at the end, or -1. */
int stats_inode_file_id(const struct stats *st, uint32_t dev, uint64_t ino);
/* The file name of a slow call, or NULL. */
const char *stats_call_file(const struct slow_call *c);
/* The command name known for pid ("<...>" when unknown). */
const char *stats_comm(const struct stats *st, int pid);
/* The name of block device dev in the start snapshot, else "maj:min". */
const char *stats_dev_name(const struct stats *st, uint32_t dev, char *buf,
			   size_t n);

/*
 * The ns device dev had at least one request in flight, from the start
 * diskstats counts (blk_start_ts()) to the completion: iostat's io_ticks,
 * exact to the ns where the kernel counts jiffies (after the pass).
 */
uint64_t stats_dev_busy(const struct stats *st, uint32_t dev);

/*
 * What iostat -x prints for one device over a span: its requests, bytes
 * and times in flight per operation, its busy time and span.
 */
struct iostat {
	uint32_t dev;
	uint64_t span_ns;	/* the interval the rates divide by */
	uint64_t busy_ns;	/* io_ticks: at least one request in flight */
	uint64_t busy_periods;	/* of it, 0 when not known */
	uint64_t n[BLK_OP_MAX], bytes[BLK_OP_MAX];
	uint64_t life_ns[BLK_OP_MAX];	/* read_ticks, write_ticks... */
};

/* The iostat of device dev over the whole pass (after it). */
void stats_iostat(const struct stats *st, uint32_t dev, struct iostat *io);
/* aqu-sz: the sum of the times in flight over the span (time_in_queue). */
uint64_t iostat_in_queue(const struct iostat *io);
double iostat_aqu(const struct iostat *io);
/* %util: busy over the span, in percent. */
double iostat_util(const struct iostat *io);
/* Per second over the span. */
double iostat_rate(const struct iostat *io, uint64_t v);
/* r_await, w_await...: the mean time in flight of op in ns; -1 if none. */
double iostat_await(const struct iostat *io, enum blk_op op);

/* Total known lost events and gaps over the CPUs. */
uint64_t stats_lost(const struct stats *st, uint64_t *gaps);
/* last_ts - first_ts, 0 when empty. */
uint64_t stats_duration(const struct stats *st);

#endif /* IOREPORT_STATS_H */
