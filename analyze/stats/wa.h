/* SPDX-License-Identifier: MIT */
/*
 * wa.h - write amplification, jbd2 commit statistics and fsync/flush
 * accounting of one recording.
 *
 * Two inputs, fed by the caller:
 *  - wa_request(): every completed block request with its owner (the
 *    analysis' on_request hook with AN_ATTRIB): device bytes split into
 *    file data, journal, metadata and other, flush/FUA counts;
 *  - wa_feed() + wa_timed_request(): every event in time order and every
 *    request as it completes in that order: jbd2_run_stats per file
 *    system, ext4_sync_file_enter/exit intervals per thread, and the
 *    flushes that completed while an fsync waited on the same device.
 * The method (what is measured, what is apportioned) is written down in
 * docs/write-amplification.md.  Nothing here prints.
 */
#ifndef IOREPORT_WA_H
#define IOREPORT_WA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/blk.h"
#include "stats/hist.h"

struct dec_ev;
struct blk_request;
struct blk_done;

/* Classes of device write bytes. */
enum wa_class {
	WA_DATA,	/* file data: writeback, fsync and direct I/O of a file */
	WA_JOURNAL,	/* jbd2: the journal's own requests */
	WA_META,	/* metadata: REQ_META requests, the block device's own
			   buffers, and writeback of no file */
	WA_OTHER,	/* no owner known (a request with no bio seen) */
	WA_NCLASS
};

const char *wa_class_name(enum wa_class c);

/* One block device (kernel dev_t major << 20 | minor of the requests). */
struct wa_dev {
	uint32_t dev;
	struct blk_tally ops;		/* completed requests by operation */
	uint64_t cls[WA_NCLASS];	/* write bytes by class */
	uint64_t preflush, fua;		/* writes carrying PREFLUSH / FUA */
	uint64_t flush_ns;		/* device time of the flush requests
					   and of the preflush/FUA writes */
	/* jbd2_run_stats of the file system on this device */
	uint64_t commits, handles, blocks, blocks_logged;
	uint64_t commit_logging_ms;	/* jiffies converted at output */
	uint64_t commit_logging_j;	/* sum of "logging" in jiffies */
	/* application bytes (syscalls) on files of this device: set by
	 * the caller from the file table (wa_add_app) */
	uint64_t app_bytes;
	/* diskstats between the start and end snapshots */
	bool ds;
	uint64_t ds_write_bytes, ds_writes, ds_flushes;
};

/* Its read, write and flush requests: what wa counts a device by. */
static inline uint64_t wa_dev_rwf(const struct wa_dev *d)
{
	return d->ops.n[BLK_OP_READ] + d->ops.n[BLK_OP_WRITE] +
	       d->ops.n[BLK_OP_FLUSH];
}

/* fsync intervals of one thread on one inode (ext4_sync_file_*). */
struct wa_fsync {
	int tid;
	uint32_t fsdev;		/* file system dev_t (kernel encoding) */
	uint64_t ino;
	uint64_t count, errors, datasync;
	uint64_t last_ts;	/* of the last exit */
	struct hist lat;	/* enter -> exit */
	uint64_t flushes;	/* flush requests completed while it waited */
	uint64_t flush_ns;	/* their device time, shared among the
				   fsyncs waiting on that device */
	uint64_t write_bytes;	/* write bytes completed while it waited,
				   shared likewise */
};

struct wa_stats {
	bool jbd2;		/* jbd2_run_stats recorded */
	bool ext4_sync;		/* ext4_sync_file_enter/exit recorded */
	uint64_t requests;	/* seen by wa_request */
	/*
	 * The view filters asked for processes or files (-p/-c/-f): the
	 * jbd2 commits are the file system's, not split by owner, and are
	 * left out; the diskstats counts are whole devices over the whole
	 * recording, left out under any filter but -d.
	 */
	bool jbd2_not_split, diskstats_not_split;
};

struct wa {
	struct wa_dev *dev;	/* sorted by dev after wa_end() */
	size_t ndev, adev;
	struct wa_fsync *fs;
	size_t nfs, afs;
	struct wa_stats st;
	uint64_t app_all;	/* written by file syscalls, all files */
	uint64_t app_unplaced;	/* of which to files of no known device */
	/* private */
	struct wa_priv *p;
};

/*
 * wa_new - the write amplification of one recording
 * @jbd2, @ext4_sync: whether it has jbd2_run_stats and ext4_sync_file
 *   (decode.h's dec_caps): absent events leave their part empty
 * @disk_of: maps a file system dev_t to the dev_t of the disk its
 *   requests carry (partition -> whole disk); NULL: identity
 *
 * NULL: no memory.
 */
struct wa *wa_new(bool jbd2, bool ext4_sync,
		  uint32_t (*disk_of)(uint32_t, void *), void *arg);
void wa_free(struct wa *w);
/*
 * wa_set_filter - the view filters of the pass (NULL: none): an fsync
 * counts when it began inside the time window on a device -d keeps (its
 * process and file are the rows' to filter, rows.c), a jbd2 commit when
 * it ran inside the window on such a device and no process or file is
 * asked; diskstats only for the devices -d keeps and without any other
 * filter
 */
struct view_filter;
void wa_set_filter(struct wa *w, const struct view_filter *f);
/* 0, or -AN_E_NOMEM once a device or fsync could not be kept for memory. */
int wa_error(const struct wa *w);

/* Every decoded jbd2_run_stats, in order. */
void wa_event(struct wa *w, const struct dec_ev *ev);
/*
 * The ext4 fsyncs: the window table pairs ext4_sync_file_enter and exit
 * (replay/window.c's WIN_EXT4_SYNC row, dropped at lost events on their
 * CPU); wa shares the flushes and writes of the device among those open
 * (wa_timed_request()) and counts each as it closes (wa_fsync(): open is
 * the window, ev the exit).
 */
struct windows;
struct win;
void wa_set_windows(struct wa *w, const struct windows *ws);
void wa_fsync(struct wa *w, int tid, const struct win *open,
	      const struct dec_ev *ev);
/* Every completed request of the timed pass, as it completes. */
void wa_timed_request(struct wa *w, const struct blk_request *rq);
/* Every completed request with its owner (the attributed pass). */
void wa_request(struct wa *w, const struct blk_done *d);
/* The device's diskstats at the start (a) and end (b) snapshots. */
struct meta_diskstats;
void wa_diskstats(struct wa *w, const struct meta_diskstats *a,
		  const struct meta_diskstats *b);
/* Application bytes written to a file on fs dev fsdev. */
void wa_add_app(struct wa *w, uint32_t fsdev, uint64_t bytes);
/* End of the passes: sort, convert jiffies with hz. */
void wa_end(struct wa *w, int hz);
/*
 * wa_finish - the end of the pass: the application bytes of every file
 * of ft (NULL: none) on its file system's device (dev:ino, else the
 * mount of its path in the start snapshot), the diskstats of the
 * devices between the snapshots, then wa_end()
 */
struct filetab;
void wa_finish(struct wa *w, struct filetab *ft, const char *snap_start,
	       const char *snap_end, int hz);

/* The device entry, created when absent. */
struct wa_dev *wa_dev_get(struct wa *w, uint32_t dev);
/* Totals over every device into *t (dev 0). */
void wa_total(const struct wa *w, struct wa_dev *t);
/*
 * Totals over the devices the overall ratio counts (wa_overall(): those
 * with application bytes and device writes), so that the overall data,
 * journal, metadata and other bytes add up to its device writes.
 */
void wa_total_counted(const struct wa *w, struct wa_dev *t);

/*
 * wa_overall - the overall write amplification's inputs: over the
 * devices with both application bytes and device writes, the
 * application bytes, the device write bytes and diskstats' write bytes
 */
void wa_overall(const struct wa *w, uint64_t *app, uint64_t *dev,
		uint64_t *ds);

/* Whether a device is one the views show (it did or was meant to do I/O). */
bool wa_dev_shown(const struct wa_dev *d);

#endif /* IOREPORT_WA_H */
