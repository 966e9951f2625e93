/* SPDX-License-Identifier: MIT */
/*
 * summary.h - what the summary view shows beside the counts: per device
 * the diskstats of the start and end snapshots next to the requests the
 * trace saw complete, and the configuration that shapes I/O (the I/O
 * sysctls, the mounts of the file systems on the devices that did I/O,
 * with their barrier, data= and commit=, and those devices' queue
 * settings).  Computed from the stats and the snapshots; nothing here
 * prints.
 */
#ifndef IOREPORT_STATS_SUMMARY_H
#define IOREPORT_STATS_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stats;

/*
 * Fields after "maj min name" (Documentation/admin-guide/iostats.rst)
 * in diskstats' own units: 0 reads, 2 sectors read, 4 writes, 6 sectors
 * written, 11 discards, 13 sectors discarded, 15 flushes (kernels >=
 * 5.5), 9 ms doing I/O.
 */
enum { DS_R, DS_RS, DS_W, DS_WS, DS_D, DS_DS, DS_F, DS_IOMS, DS_N };
extern const char *const ds_key[DS_N];	/* "reads", "read_sectors", ... */

/* One device that moved, by diskstats or by the trace. */
struct ds_row {
	uint32_t dev;
	char name[64];
	uint32_t disk;		/* the whole disk of a partition, else dev */
	bool reset;		/* a counter went backwards */
	uint64_t delta[DS_N];	/* end - start */
	uint64_t trace[DS_N];	/* what the trace saw (no io_ms) */
};

/*
 * summary_diskstats_rows - the devices of the start snapshot's diskstats that
 * moved between the snapshots or in the trace, in snapshot order
 *
 * Returns how many (*rows allocated, caller frees; NULL when none), or
 * -AN_E_NOMEM.
 */
long summary_diskstats_rows(const struct stats *st, struct ds_row **rows);

/* A block device of the snapshot. */
struct cfg_bdev {
	char name[64], mm[32], parent[64];
	char scheduler[64], rotational[8], write_cache[32];
	bool io;		/* it (not a partition of it) did I/O */
};

/*
 * Whether a file system type is one whose mounts shape I/O: ext2, ext3,
 * ext4, xfs, btrfs, f2fs, vfat, exfat.  The summary's config and info's
 * settings show these and no others.
 */
bool summary_fs_of_interest(const char *fstype);

/*
 * Whether a sysctl shapes I/O: vm.dirty_*, vm.swappiness,
 * vm.vfs_cache_pressure.  The summary's config and info's settings show
 * these and no others.
 */
bool summary_sysctl_of_interest(const char *key);

/*
 * What an ext2/3/4 mount without data= or commit= gets
 * (Documentation/admin-guide/ext4.rst): the summary marks it as the
 * default, snapcmp compares a missing option as it.
 */
#define SUMMARY_EXT_DATA	"ordered"
#define SUMMARY_EXT_COMMIT	"5"	/* seconds */

/* A mounted file system of interest (summary_fs_of_interest()). */
struct cfg_mount {
	char *dev, *source, *dir, *fstype, *options, *super;
	bool barrier;
	bool ext;		/* ext2/3/4: data= and commit= apply */
	char data[64];		/* "" when the default (SUMMARY_EXT_DATA) */
	char commit[32];	/* "" when the default (SUMMARY_EXT_COMMIT) */
};

/* A sysctl of interest (summary_sysctl_of_interest()). */
struct cfg_sysctl {
	char *key, *value;
};

struct config {
	bool snapshot;			/* the recording has a start snapshot */
	struct cfg_sysctl *sysctl;	/* in snapshot order */
	size_t nsysctl, asysctl;
	struct cfg_mount *mount;	/* on devices that did I/O */
	size_t nmount, amount;
	struct cfg_bdev *bdev;		/* every block device; .io says which */
	size_t nbdev, abdev;
};

/*
 * What a recording can measure of one device's requests, in btt's words
 * (Q bio queued, I inserted, D issued, C completed): without an I/O
 * scheduler (the start snapshot says "none") or without any
 * block_rq_insert of it, requests go straight to the driver, so Q2I and
 * I2D are not measured and the total is D2C; with bio events, Q2C is.
 */
struct dev_measure {
	char scheduler[64];	/* the snapshot's, "" when unknown */
	bool inserts;		/* a request of it was inserted */
	bool i2d;		/* I2D measurable (a scheduler, inserts) */
	bool q2c;		/* Q2C measured: requests whose first bio's
				   queueing was recorded */
	const char *total;	/* what the total time is: "I2C" or "D2C" */
	const char *why;	/* not measurable: why, in words; else NULL */
};

/* Fill *m for device dev (the start snapshot and the finished pass). */
void summary_measure(const struct stats *st, uint32_t dev,
		     struct dev_measure *m);

/* Fill *c (zeroed first); 0, or -AN_E_NOMEM (c released). */
int summary_config(const struct stats *st, struct config *c);
void summary_config_release(struct config *c);

#endif /* IOREPORT_STATS_SUMMARY_H */
