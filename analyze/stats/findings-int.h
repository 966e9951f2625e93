/* SPDX-License-Identifier: MIT */
/*
 * findings-int.h - what the rules of findings.c and findings-more.c
 * share: their context, the thresholds of docs/findings.md and the
 * helpers that build a finding (its entities, numbers, evidence and
 * sentence).  Private to analyze/stats/findings*.c.
 */
#ifndef IOREPORT_STATS_FINDINGS_INT_H
#define IOREPORT_STATS_FINDINGS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/blk.h"
#include "sbuf.h"
#include "stats/findings.h"
#include "stats/summary.h"

struct stats;
struct proc_row;
struct hist;
struct devstat;
struct blk_done;
struct file;
struct cfg_mount;

#define MS	1000000ULL	/* ns */

/* The thresholds of docs/findings.md. */
#define FSYNC_MIN_NS		(10 * MS)	/* fsync time worth a finding */
#define SLOW_AVG_NS		(10 * MS)	/* a slow device: average D2C */
#define SLOW_P90_NS		(20 * MS)	/* or its p90 */
#define SLOW_MIN_REQS		10
#define BIMODAL_LO_NS		(1 * MS)
#define BIMODAL_HI_NS		(20 * MS)
#define FLUSH_MIN		10
#define WA_MIN_RATIO		1.5
#define WA_MIN_EXTRA		(1024 * 1024)
#define READ_MIN_BYTES		(1024 * 1024)
#define WEAR_MIN_BYTES		(1024 * 1024)
#define WEAR_MIN_PER_DAY	1e9	/* bytes a day worth a finding */
#define UNNAMED_MAX_SHARE	0.5
#define DAY_NS			86400e9

/* What the rules share. */
/* The disks of the file systems' devices asked (meta_disk_of() walks
 * the snapshot: asked per fsync interval, it cost seconds) */
struct fnd_disks {
	size_t n;
	struct { uint32_t dev, disk; } v[16];
};

struct ctx {
	const struct stats *st;
	struct findings *f;
	const char *path;	/* of the recording, for the commands */
	struct sbuf args;	/* the view filters, for the commands */
	const char *snap;	/* start snapshot, or NULL */
	struct fnd_disks *disks;
	double dur;		/* ns */
	struct config cfg;
	struct proc_row *procs;
	long nprocs;
	bool all;		/* keep the quiet findings too */
	int err;
};

/* A finding of rule with its severity and time lost, or NULL (no memory). */
struct finding *fnd_add(struct ctx *c, const char *rule,
			enum fnd_severity sev, uint64_t lost_ns);
/* An entity of x (once per kind and name). */
void fnd_ent(struct ctx *c, struct finding *x, const char *kind,
	     const char *name, int64_t id);
/* A number of x no view prints (its key carries the unit); what a
 * view prints goes in the evidence (fnd_evn) only. */
void fnd_num(struct finding *x, const char *key, double v);
/* The view x's evidence is of; a number and a string of it (the view's
 * JSON member names, findings.h). */
void fnd_ev_view(struct finding *x, const char *view);
void fnd_evn(struct finding *x, const char *key, double v);
void fnd_evs(struct ctx *c, struct finding *x, const char *key,
	     const char *str);
/* x's sentence (sb, taken) and the command of view that shows more. */
void fnd_say(struct ctx *c, struct finding *x, struct sbuf *sb,
	     const char *view);
/* part of whole as a percentage, as the sentences write it. */
void fnd_add_pct(struct sbuf *sb, double part, double whole);
uint32_t fnd_disk_of(const struct ctx *c, uint32_t fsdev);
const struct cfg_mount *fnd_mount_on(const struct ctx *c, uint32_t dev);
const char *fnd_sysctl_of(const struct ctx *c, const char *key);
uint64_t fnd_memtotal(struct ctx *c);
const char *fnd_file_name(const struct file *f, uint32_t fsdev,
			  uint64_t ino, char *buf, size_t n);
uint32_t fnd_path_dev(const struct ctx *c, const char *path);
uint64_t fnd_hist_below(const struct hist *h, uint64_t ns);
uint64_t fnd_hist_from(const struct hist *h, uint64_t ns);
const struct devstat *fnd_devstat_of(const struct stats *st, uint32_t dev,
				     enum blk_op op);
const struct blk_done *fnd_slow_owner(const struct ctx *c, uint32_t dev,
				      enum blk_op op);
const struct blk_done *fnd_slow_of(const struct ctx *c, int pid);

/* The rules of findings-more.c: caveats, I/O wait, flash wear. */
void rule_caveats(struct ctx *c);
void rule_fsync(struct ctx *c);		/* findings-sync.c */
void rule_flush(struct ctx *c);
void rule_device(struct ctx *c);	/* findings-device.c */
void rule_reads(struct ctx *c);
void rule_dirty(struct ctx *c);		/* findings-write.c */
void rule_wa(struct ctx *c);
void rule_iowait(struct ctx *c);
void rule_wear(struct ctx *c);

#endif /* IOREPORT_STATS_FINDINGS_INT_H */
