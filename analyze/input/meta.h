/* SPDX-License-Identifier: MIT */
/*
 * meta.h - the one reader of what a recording says about itself beside
 * its events (struct source_info of source.h): the "key=value" lines of
 * the header and end chunks, the tab-separated lines of the snapshots
 * (fields escaped), the kernel's per-CPU ring-buffer counters of the
 * STATS chunk, the diskstats lines as numbers, the block devices and
 * mounts of a snapshot, and the words of an integrity and of the damaged
 * regions reading skipped.
 *
 * Plain text in, plain values out: every stage may use it; reading the
 * events is source.h's and decode.h's.  Nothing here prints or exits.
 */
#ifndef IOREPORT_INPUT_META_H
#define IOREPORT_INPUT_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iorec-format.h"		/* IOREC_TRIGGER_LEN */
#include "input/source.h"

struct sbuf;

/* "complete", "truncated" or "corrupt". */
const char *meta_integrity(enum source_integrity i);

/* Room for any meta_secs(): "18446744073.709551" and its NUL. */
#define META_SECS_LEN	24

/*
 * meta_secs - trace time ts (ns) as seconds with microseconds,
 * "5300.123456", into buf (truncated to n, NUL-terminated); the
 * nanoseconds are cut, not rounded, so a time never prints later than
 * it was.  Every view, info and the damage words print times this way.
 * Returns buf, for a printf argument.
 */
char *meta_secs(char *buf, size_t n, uint64_t ts);

/*
 * meta_damage_summary - the damaged regions of info in one line for a
 * view, e.g. "damaged: 1 region, 1 chunk (64 KiB, cpu 1, 0.42 s)
 * skipped at offset 123456: chunk payload checksum mismatch" (no
 * newline); appends nothing when there is no damage
 */
void meta_damage_summary(const struct source_info *info, struct sbuf *out);

/*
 * meta_damage_text - one region in words: "offset 123456, 65568 bytes,
 * 1 chunk, cpu 1, 5300.123456 to 5300.543210 (0.42 s): chunk payload
 * checksum mismatch" (no newline)
 */
void meta_damage_text(const struct source_damage *r, struct sbuf *out);

/*
 * meta_kv - the value of "key=value" in a text of such lines (the first
 * one), copied into buf (truncated, NUL-terminated)
 *
 * Returns buf, or NULL (buf "") when the key is absent, its value empty,
 * or text NULL.
 */
const char *meta_kv(const char *text, const char *key, char *buf, size_t n);

/*
 * meta_kv_each - call fn for every "key=value" line of text (NULL: none),
 * in order, with the key and the value as lengths into text (not
 * NUL-terminated); lines without '=' or with an empty key are skipped.
 * Stops at the first nonzero fn() and returns it, else 0.
 */
typedef int (*meta_kv_fn)(const char *key, size_t klen, const char *val,
			  size_t vlen, void *arg);
int meta_kv_each(const char *text, meta_kv_fn fn, void *arg);

/*
 * meta_utc_offset - the recording machine's offset from UTC at the start
 * (utc_offset_s in the header) into *sec, and its time zone's name
 * (timezone, "" when absent) into zone.  False when the header has no
 * offset (recordings of iorec before 0.1.0's wall-clock zone: UTC).
 */
bool meta_utc_offset(const char *header_text, long *sec, char *zone,
		     size_t n);

/* The recording machine's wall clock against the trace clock. */
struct meta_wall {
	uint64_t real_ns;	/* CLOCK_REALTIME (UTC) at the start ... */
	uint64_t local_ns;	/* ... it on the machine's own clock ... */
	uint64_t mono_ns;	/* ... and the trace clock then */
	char zone[64];		/* " +HH:MM NAME" of local_ns, or " UTC" */
};
/*
 * meta_wall - the header's start_realtime_ns and start_mono_ns, and its
 * UTC offset, into *w: trace time t is UTC real_ns + (t - mono_ns), the
 * recording machine's local time local_ns + (t - mono_ns).  False when
 * the header has no such anchor or its trace clock is not mono (its times
 * are then on no wall clock).
 */
bool meta_wall(const char *header_text, struct meta_wall *w);

/* ------------------------------------------------------------------ */
/* Snapshot lines */

#define META_FIELDS	16

/*
 * Called with the fields of a line, unescaped (f[0] its kind), and their
 * number; a nonzero return stops the walk.
 */
typedef int (*meta_line_fn)(char **f, int n, void *arg);

/*
 * meta_lines - call fn for the lines of text whose first field is kind
 * (every line when kind is NULL)
 * @text: tab-separated lines with escaped fields; NULL: none
 *
 * Each line is split in a copy of its own (at most META_FIELDS fields,
 * the last one keeping the rest).  Returns 0, fn's nonzero return, or
 * -AN_E_NOMEM.
 */
int meta_lines(const char *text, const char *kind, meta_line_fn fn,
	       void *arg);

/* Kernel dev_t (major << 20 | minor) of "maj:min"; 0 when malformed. */
uint32_t meta_devt(const char *majmin);

/*
 * The block device name of dev in a snapshot's blockdev lines ("name
 * maj:min attr value"), copied into buf; NULL when it has none.
 */
const char *meta_dev_name(const char *snap, uint32_t dev, char *buf,
			  size_t n);

/*
 * meta_disk_of - the whole disk of a partition, from the snapshot's
 * "blockdev NAME MAJ:MIN parent DISK" lines: block requests carry the
 * disk, file systems the partition.  dev itself when it is no partition.
 */
uint32_t meta_disk_of(const char *snap, uint32_t dev);

/*
 * The snapshot's block devices read once, for the questions asked per
 * event (meta_dev_name() and meta_disk_of() walk the whole snapshot).
 */
struct meta_bdev {
	char *name;
	uint32_t dev;
	uint32_t disk;		/* the whole disk's dev; dev when no partition */
	/* a loop device: its backing file ("backing_file"), the file
	 * system that holds it ("backing_dev", else the mount whose
	 * mount point is the longest prefix of the path) and its inode
	 * ("backing_inode", 0 in recordings made before iorec stored it) */
	char *backing;
	uint32_t backing_fs;
	uint64_t backing_ino;
};

struct meta_bdevs {
	struct meta_bdev *v;	/* sorted by name */
	size_t n, alloc;
};

/* Read the blockdev lines of snap (NULL: none); 0 or -AN_E_NOMEM. */
int meta_bdevs_load(struct meta_bdevs *b, const char *snap);
/* Whether name ("sda1", not "/dev/sda1") is a block device of the snapshot. */
bool meta_bdevs_has(const struct meta_bdevs *b, const char *name);
/* The whole disk of dev, as meta_disk_of(); dev when unknown. */
uint32_t meta_bdevs_disk_of(const struct meta_bdevs *b, uint32_t dev);
void meta_bdevs_release(struct meta_bdevs *b);

/*
 * meta_path_regular - whether path names a file of a file system: absolute
 * and not under /proc, /sys or /dev (pseudo-files and device nodes).
 * Inline: the accounting asks it of every file syscall.
 */
static inline bool meta_path_regular(const char *path)
{
	if (!path || path[0] != '/')
		return false;
	switch (path[1]) {
	case 'p':
		return strncmp(path, "/proc/", 6) != 0;
	case 's':
		return strncmp(path, "/sys/", 5) != 0;
	case 'd':
		return strncmp(path, "/dev/", 5) != 0;
	default:
		return true;
	}
}

/*
 * meta_mount_of - the mount whose mount point is the longest prefix of
 * path: its device into *dev and the mount point's length.  Returns 0
 * when none matches (path not absolute, no mounts).
 */
size_t meta_mount_of(const char *snap, const char *path, uint32_t *dev);

/* The mount lines of a snapshot, read once, for many meta_mount_of(). */
struct meta_mount {
	char *dir;
	size_t len;
	uint32_t dev;
};
struct meta_mounts {
	struct meta_mount *v;
	size_t n, alloc;
};

/* Read the mount lines of snap (NULL: none); 0 or -AN_E_NOMEM. */
int meta_mounts_load(struct meta_mounts *m, const char *snap);
/* As meta_mount_of(), on the mounts read. */
size_t meta_mounts_of(const struct meta_mounts *m, const char *path,
		      uint32_t *dev);
void meta_mounts_release(struct meta_mounts *m);

/*
 * meta_mount_opt - whether the comma-separated option list has opt,
 * exactly or as "opt=value"; the value (or "") into val when val is not
 * NULL.
 */
bool meta_mount_opt(const char *opts, const char *opt, char *val, size_t n);
/* Whether the options leave write barriers on (no nobarrier, barrier=0). */
bool meta_mount_barrier(const char *opts);

/* ------------------------------------------------------------------ */
/* diskstats */

/* The numbers after "maj min name" of /proc/diskstats. */
#define META_DS_MAX	17

struct meta_diskstats {
	uint32_t dev;
	char name[64];
	int n;				/* numbers read (7 or more) */
	uint64_t v[META_DS_MAX];	/* the rest 0 */
};

/*
 * meta_syscall_line - a "NR\tNAME" line of a SYSCALLS or COMPAT_SYSCALLS
 * chunk (as meta_lines() gives it) into *nr (0 to INT_MAX) and *name;
 * false for any other line.  Fields after NAME are a later writer's and
 * are ignored.
 */
bool meta_syscall_line(char **f, int n, int *nr, const char **name);

/*
 * meta_diskstats_line - a snapshot's "diskstats MAJ MIN NAME NUMBERS"
 * line (as meta_lines() gives it) into *d; false when it is not one or
 * has fewer than 7 numbers.
 */
bool meta_diskstats_line(char **f, int n, struct meta_diskstats *d);
/* The first diskstats line of dev in snap into *d; false when none. */
bool meta_diskstats(const char *snap, uint32_t dev, struct meta_diskstats *d);

/* ------------------------------------------------------------------ */
/* STATS: "cpu\tN\tkey\tvalue" lines */

struct meta_kcpu {
	bool seen;
	uint64_t overrun, dropped, missed_pages;
};

struct meta_kstats {
	bool present;			/* the recording has a STATS chunk */
	int n;				/* CPUs 0..n-1 */
	struct meta_kcpu *cpu;
	uint64_t overrun, dropped;	/* over every CPU */
};

/* Parse the STATS text (NULL: none) into *k; 0 or -AN_E_NOMEM. */
int meta_kstats(const char *stats, struct meta_kstats *k);
void meta_kstats_release(struct meta_kstats *k);

/* ------------------------------------------------------------------ */
/* ABIs of tasks (docs/iorec.5, COMPAT TASKS) */

enum meta_abi {
	META_ABI_UNKNOWN = 0,
	META_ABI_NATIVE,	/* the header's syscall_abi: SYSCALLS names it */
	META_ABI_COMPAT,	/* its compat_abi: COMPAT_SYSCALLS names it */
};

/* The header's compat_syscalls: how 32-bit programs' calls were recorded. */
enum meta_compat_mode {
	META_COMPAT_NONE = 0,	/* "none", absent (before 1.1), unknown */
	META_COMPAT_SHADOW,	/* raw_syscalls on compat ids beside syscalls:* */
	META_COMPAT_RAW,	/* raw_syscalls on both ABIs' ids */
	META_COMPAT_OFF,	/* not recorded (a limit_ key says why) */
};

struct meta_abis {
	char native[16];	/* syscall_abi, "" when absent */
	char compat[16];	/* compat_abi, "" when none */
	enum meta_compat_mode mode;
	bool exec_probes;	/* exec_abi_probes=1 */
	char unshadowed[512];	/* compat_unshadowed: comma list of ids */
};

/* The ABI keys of a header text (NULL: none) into *a. */
void meta_abis(const char *header_text, struct meta_abis *a);
/* Which of a's ABIs the name is ("arm", "x86_64"...). */
enum meta_abi meta_abi_kind(const struct meta_abis *a, const char *name);

/*
 * meta_name_sources - the header's name_sources ("kprobe,snapshot") in
 * words for a view ("a kprobe on the kernel's open path and the fd
 * snapshots"), appended to out; false (nothing appended) when the header
 * has no such key (recorded before format 1.1, or a trace.dat).
 */
bool meta_name_sources(const char *header_text, struct sbuf *out);

/* limit_1..META_LIMITS of a header: what the recording cannot have. */
#define META_LIMITS	3
/*
 * The header's limit_N (1-based) into buf, or NULL (buf "") when it has
 * none.
 */
const char *meta_limit(const char *header_text, int n, char *buf, size_t len);

/* One EXEC_ABI line: PID runs a program of ABI from its exec at or before TS. */
struct meta_exec_abi {
	uint64_t ts;
	int pid;
	enum meta_abi abi;
};

/*
 * meta_exec_abis - the EXEC_ABI lines of text (NULL: none) whose ABI is
 * one of a's, sorted by time, into a new array *out (free() it) of *n
 * entries; malformed lines are skipped.  Returns 0 or -AN_E_NOMEM.
 */
int meta_exec_abis(const char *text, const struct meta_abis *a,
		   struct meta_exec_abi **out, size_t *n);

#endif /* IOREPORT_INPUT_META_H */
