/* SPDX-License-Identifier: MIT */
/*
 * findings.h - answers instead of tables: after the pass, a table of
 * rules reads the finished aggregates of struct stats (devices, the rows
 * of processes and files, write amplification, fsync intervals, dirty
 * throttling, the snapshots) and yields findings, each one plain
 * sentence naming the process, the files and the device with the
 * numbers behind it and the command that shows more, ranked by the time
 * people lose.  Caveats (lost events, a damaged file, missing event
 * types, I/O that could not be named) come after them.  The rules, their
 * thresholds and what can fool them are in docs/findings.md.  Nothing
 * here prints.
 */
#ifndef IOREPORT_STATS_FINDINGS_H
#define IOREPORT_STATS_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stats;

enum fnd_severity { FND_INFO, FND_WARNING, FND_HIGH };

/* "info", "warning", "high" ("caveat" for a caveat: fnd_label()). */
const char *fnd_severity_name(enum fnd_severity s);

#define FND_ENTITIES	8
#define FND_NUMBERS	14
#define FND_EVIDENCE	16

/* What a finding names: a process, a file, a device, a mount, a sysctl. */
struct fnd_entity {
	const char *kind;	/* "process", "file", "device", "mount",
				   "sysctl" */
	char *name;		/* comm, path, device name, mount point,
				   "key=value" (owned) */
	int64_t id;		/* pid, kernel dev_t; -1 when none */
};

/*
 * A number of the finding's own, one no view prints (a share, a ratio,
 * a rate); the key carries its unit (_ns, _bytes, _share).  What a view
 * prints is evidence (struct fnd_evidence), never a number too.
 */
struct fnd_number {
	const char *key;
	double v;
};

/*
 * A field of the view a finding's numbers come from: its key is the
 * view's JSON member (a dotted path into a nested object, "d2c.p50_ns"),
 * its value the one that view prints.  The keys device, op, pid and path
 * select the view's row; the others are its fields.
 */
struct fnd_evidence {
	const char *key;
	char *str;		/* a string value (owned), or NULL: v */
	double v;
};

struct finding {
	const char *rule;	/* the rule's id ("fsync", "slow-device" ...) */
	enum fnd_severity sev;
	bool caveat;		/* about the data, not the machine */
	uint64_t lost_ns;	/* the time people lose: the rank */
	char *sentence;		/* one plain sentence (owned) */
	char *more;		/* the command that shows more (owned) */
	struct fnd_entity ent[FND_ENTITIES];
	int nent;
	struct fnd_number num[FND_NUMBERS];
	int nnum;
	const char *view;	/* the view the evidence is of, or NULL */
	struct fnd_evidence ev[FND_EVIDENCE];
	int nev;
	/*
	 * under the rule's thresholds: kept only by findings_compute_all()
	 * for the diff, to say what became of a finding that is gone
	 */
	bool quiet;
};

struct findings {
	struct finding *v;	/* by lost_ns, then caveats */
	size_t n, alloc;
};

/*
 * findings_compute - run every rule over the finished pass st into *f
 * (zeroed first)
 *
 * st must come from a pass with at least the block replay; each rule
 * looks only at what the pass computed (no syscalls: no fsync rule, and
 * a caveat says so).  Returns 0, or -AN_E_NOMEM (f released).
 */
int findings_compute(const struct stats *st, struct findings *f);
/* The same with the quiet findings (under their rules' thresholds) too. */
int findings_compute_all(const struct stats *st, struct findings *f);
void findings_release(struct findings *f);

/* What a finding's text and JSON call its severity: its severity, or "caveat". */
const char *fnd_label(const struct finding *x);

/* The rank order of two struct finding (qsort): lost_ns, severity, caveats
 * after the findings of time lost. */
int findings_cmp(const void *a, const void *b);

/* A finding of BEFORE and its match in AFTER (same rule, same first
 * entity name): either may be NULL (new, gone) or quiet (under the
 * rule's thresholds there). */
struct fnd_change {
	const struct finding *b, *a;
	int64_t delta_ns;	/* a's lost_ns - b's */
};

/*
 * findings_changes - the findings of two recordings paired, ranked by
 * how much time they lose or win (|delta_ns|), caveats of either last;
 * b and a from findings_compute_all(): a finding under its thresholds
 * in AFTER is paired with one over them in BEFORE (and the other way),
 * never listed alone
 *
 * Returns how many (*out allocated, caller frees), or -AN_E_NOMEM.
 */
long findings_changes(const struct findings *b, const struct findings *a,
		      struct fnd_change **out);

/*
 * An entity's name as both sides compare it: side 0 (BEFORE) or 1
 * (AFTER), in buf or a name of its own (stats/diffpair.h: a device,
 * mount or file of AFTER named as BEFORE names it, a kworker by role).
 */
typedef const char *(*fnd_key_fn)(const struct fnd_entity *e, int side,
				   char *buf, size_t n, void *arg);

/* findings_changes, the first entities compared by key (NULL: by name). */
long findings_changes_by(const struct findings *b, const struct findings *a,
			 fnd_key_fn key, void *arg, struct fnd_change **out);

#endif /* IOREPORT_STATS_FINDINGS_H */
