/* SPDX-License-Identifier: MIT */
/*
 * source.h - ioreport's input layer: opens a recording (.iorec or
 * trace-cmd's trace.dat) and yields its events from all CPUs merged in
 * timestamp order.
 *
 * Only input/ (source.c, events.c) includes the libtraceevent headers;
 * the rest of ioreport sees plain structs and opaque handles.  Event fields
 * are read through struct source_field handles, looked up once per event
 * type and then used for every record of that type.
 *
 * Nothing here prints or exits: failures return NULL or a negative
 * AN_E_* with the caller's struct an_err filled (base/err.h), and
 * problems met while reading (a chunk that does not decompress, a bad
 * page) are queued as warnings (source_warning()).
 */
#ifndef IOREPORT_SOURCE_H
#define IOREPORT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_err;
struct sbuf;

enum source_kind {
	SOURCE_IOREC = 1,
	SOURCE_TRACEDAT,
};

enum source_integrity {
	SOURCE_COMPLETE = 0,	/* read to its end chunk (or trace.dat read) */
	SOURCE_TRUNCATED,	/* ends early: cut inside a chunk, or no end chunk */
	SOURCE_CORRUPT,		/* a damaged chunk; what precedes it is used */
};

/* One event, valid until the next source_next() call on its source. */
struct source_event {
	uint64_t ts;		/* trace clock, ns */
	int cpu;
	int id;			/* event type id (see source_event_types) */
	int pid;		/* common_pid */
	const void *data;	/* the raw record: common fields + payload */
	int size;
	/*
	 * Events were lost on this CPU just before this one (ring-buffer
	 * overrun): 0 none, > 0 how many, -1 some (count unknown).  State
	 * machines must not pair events across such a gap.
	 */
	long long missed;
	void *priv;		/* source.c's record; do not touch */
};

/* An event type present in the recording's formats. */
struct source_event_type {
	int id;
	const char *system;
	const char *name;
	uint64_t count;		/* records yielded so far by source_next() */
};

/* Per-CPU facts about the recording. */
struct source_cpu {
	bool present;		/* has at least one data chunk / buffer */
	uint32_t chunks;	/* .iorec: DATA chunks */
	uint64_t pages;		/* sub-buffers */
	uint64_t raw_bytes;	/* raw sub-buffer bytes */
	uint64_t stored_bytes;	/* bytes in the file (chunk headers included) */
	uint64_t first_ts;	/* from the chunk descriptors (.iorec) */
	uint64_t last_ts;
	/* Filled while iterating with source_next(): */
	uint64_t events;
	uint64_t missed_pages;	/* pages flagged "events lost before" */
	uint64_t missed_events;	/* sum of known lost counts */
	uint64_t first_event_ts;
	uint64_t last_event_ts;
	/* Damaged regions known to be this CPU's (see source_damage): */
	uint32_t damaged_chunks;
	uint64_t damaged_ns;		/* their time span */
};

/*
 * A damaged part of an .iorec file that reading skipped (docs/iorec.5,
 * "Reading a damaged file"): reading went on at the next valid chunk, and
 * the first event of every CPU after it is marked as preceded by lost
 * events (source_event.missed), so no pair spans it.
 */
struct source_damage {
	uint64_t offset;	/* where it starts in the file */
	uint64_t length;	/* bytes skipped */
	uint32_t chunks;	/* chunks lost, from the sequence numbers (0:
				   only stray bytes; at least this when
				   to_end) */
	bool to_end;		/* it runs to the end of the file */
	int cpu;		/* whose data was lost, -1 unknown */
	uint64_t first_ts;	/* the time span lost, when cpu >= 0 */
	uint64_t last_ts;
	bool exact;		/* cpu and span from a verified descriptor */
	const char *reason;	/* what was wrong (static text) */
};

/*
 * One file of a rotated set (iorec -S SIZE --keep N: OUT-0001.iorec,
 * OUT-0002.iorec, ...) read as one recording, in the order read.
 */
struct source_set_file {
	const char *path;
	unsigned int index;	/* its rotation_index (the NNNN of its name) */
	uint64_t bytes;		/* its size read */
	uint64_t chunks;	/* its DATA chunks */
	uint64_t first_ts;	/* its data's span, from the descriptors */
	uint64_t last_ts;
	bool end;		/* it has its end chunk */
	/*
	 * Before it: files of the rotation missing from the set (removed,
	 * or not given), and the time between the previous file's data and
	 * its own, over the CPUs (0 for a seamless rotation).
	 */
	unsigned int missing_before;
	uint64_t gap_ns;
	/* a CPU's data starts before the previous file's ended: ns */
	uint64_t overlap_ns;
};

/* What the recording says about itself.  Strings are NUL-terminated. */
struct source_info {
	enum source_kind kind;
	const char *path;
	unsigned int version_major;	/* .iorec format, or trace.dat version */
	unsigned int version_minor;

	/* Header: machine of the recording. */
	bool big_endian;
	int long_size;
	uint32_t page_size;
	uint32_t subbuf_size;
	uint32_t ncpus;
	uint64_t flags;			/* IOREC_HF_* (.iorec only) */
	const char *header_text;	/* "key=value\n" lines ("" if none) */

	/* .iorec metadata chunks, NULL when absent. */
	const char *header_page;
	const char *snapshot_start;	/* snapshot lines, without the phase */
	const char *snapshot_end;
	const char *syscalls;		/* "nr\tname\n" */
	const char *compat_syscalls;	/* the same, of the compat ABI (1.1) */
	const char *exec_abi;		/* "ts\tpid\tabi\tsource\n" lines of
					   every EXEC_ABI chunk (1.1) */
	const char *cmdlines;
	const char *stats;		/* "cpu\tN\tkey\tvalue\n" */
	const char *end_text;		/* END chunk "key=value\n" */

	/* Chunk accounting (.iorec). */
	uint64_t chunks;
	uint64_t file_bytes;		/* bytes up to the last good chunk */
	uint32_t format_chunks;
	uint32_t bad_formats;		/* event formats libtraceevent refused */
	/*
	 * Event formats whose print fmt was not well formed and was
	 * replaced by a neutral one (their fields, name=value): how many,
	 * and the first one's file offset and reason.
	 */
	uint32_t replaced_prints;
	uint64_t replaced_offset;
	const char *replaced_reason;

	int nr_cpus;			/* size of cpus[] */
	struct source_cpu *cpus;

	uint64_t first_ts;		/* over all CPUs, 0 when no data */
	uint64_t last_ts;

	/*
	 * SOURCE_CORRUPT when any damaged region was skipped: stop_offset
	 * and stop_reason are then the first region's; SOURCE_TRUNCATED
	 * when the file was only cut short.
	 */
	enum source_integrity integrity;
	uint64_t stop_offset;		/* where reading stopped, if not complete */
	const char *stop_reason;	/* why */
	/* Also cut short (a region can come before the cut): */
	bool truncated;
	uint64_t truncated_offset;
	const char *truncated_reason;

	/*
	 * The damaged regions skipped, in file order (.iorec).  Reading
	 * the events may add some (a DATA chunk whose zstd frame does not
	 * decompress is found only then): look again after the walk.
	 * meta.h puts them into words.
	 */
	int ndamaged;
	const struct source_damage *damaged;
	uint64_t damaged_bytes;		/* their lengths summed */
	uint64_t damaged_chunks;	/* chunks lost in them */
	uint64_t damaged_ns;		/* time spans known, summed */
	bool seen_end;			/* .iorec: END chunk read */
	int trace_buffers;		/* trace.dat: extra buffer instances */
	const char *buffer_name;	/* trace.dat: the instance read, if not the top */
	/*
	 * A rotated set read as one recording (source_open() of OUT.iorec
	 * when OUT-NNNN.iorec exist): its files, in rotation order (0: a
	 * single file).  The metadata and start snapshot are the first
	 * file's, the end snapshot, stats and end chunk the last file's;
	 * each CPU's data follows from file to file.
	 */
	int set_files;
	const struct source_set_file *set;
};

struct source;

/*
 * source_open - open a recording for reading
 * @path: a .iorec or trace.dat file, or "-" for standard input (spooled
 *   to an unlinked temporary file first), or the OUT.iorec of a rotation
 *   (iorec -o OUT.iorec -S SIZE --keep N) when that file does not exist
 *   and OUT-NNNN.iorec files do: those files read as one recording, in
 *   order, the files missing between them and any gap or overlap of
 *   their data said in warnings (info->set)
 * @err: on failure filled with a one-line message naming the problem
 *   and, where there is one, the fix
 *
 * Detects the format by its magic, reads every metadata chunk and indexes
 * the data.  A truncated or corrupt .iorec file still opens: what precedes
 * the damage is used and info->integrity says where reading stopped.
 * Returns NULL when the file is unreadable or neither format.
 */
struct source *source_open(const char *path, struct an_err *err);

/* Free everything; accepts NULL. */
void source_close(struct source *src);

const struct source_info *source_info(struct source *src);
/*
 * The events the data says were lost before its flagged pages, over every
 * CPU, as far as reading has gone; *pages gets how many pages were flagged.
 */
uint64_t source_info_missed(const struct source_info *in, uint64_t *pages);

/*
 * source_next - the next event over all CPUs in timestamp order (ties go
 * to the lower CPU)
 *
 * Returns 1 with *ev filled, 0 at the end.  Damaged data is skipped with a
 * warning queued, so the walk itself does not fail, except for memory:
 * -AN_E_NOMEM when a chunk cannot be held (the walk stops).
 */
int source_next(struct source *src, struct source_event *ev);

/*
 * Restrict source_next() to one CPU (cpu < 0: all).  Call before the
 * first source_next().
 */
void source_set_cpu(struct source *src, int cpu);

/*
 * source_warning - take the oldest queued warning
 *
 * Returns a heap string the caller frees, or NULL if none is queued.
 */
char *source_warning(struct source *src);

/* Event types, sorted by system then name; *n set to their number. */
struct source_event_type *source_event_types(struct source *src, int *n);
/* The type with this id, or NULL. */
const struct source_event_type *source_event_type(struct source *src, int id);
/* The id of SYSTEM:NAME, or -1 when the recording lacks it. */
int source_event_id(struct source *src, const char *system, const char *name);

/* A field of one event type (opaque; owned by the source). */
struct source_field;

/*
 * source_field - look up a field of event type id by name (common fields
 * such as common_pid included).  Returns NULL when absent.
 */
struct source_field *source_field(struct source *src, int id,
				  const char *name);
/* Read a numeric field of ev.  Returns 0, or -1 if it cannot be read. */
int source_field_u64(const struct source_field *f,
		     const struct source_event *ev, uint64_t *val);
/* Same, sign-extended when the field is signed. */
int source_field_s64(const struct source_field *f,
		     const struct source_event *ev, int64_t *val);
/*
 * Copy a string field (char[N] or __data_loc char[]) of ev into buf
 * (NUL-terminated, truncated).  Returns 0, or -1.
 */
int source_field_str(const struct source_field *f,
		     const struct source_event *ev, char *buf, size_t bufsz);

/*
 * source_format_event - append one line like trace-cmd report's:
 * "COMM-PID [CPU] SECONDS.USECS: EVENT: fields" (no newline)
 * @raw: print the fields as name=value instead of the event's print format
 * @when: the time to print instead of SECONDS.USECS, or NULL
 */
void source_format_event(struct source *src, const struct source_event *ev,
			 bool raw, const char *when, struct sbuf *out);
/* Append only the fields part of that line (no newline). */
void source_format_fields(struct source *src, const struct source_event *ev,
			  bool raw, struct sbuf *out);

/*
 * Event filters of the ftrace grammar, parsed and evaluated by
 * libtraceevent's filter (tep_filter_*), as trace-cmd report -F: each
 * expression "EVENTS: EXPR", EVENTS a comma-separated list of EVENT,
 * SYS/EVENT or SYS:EVENT (regular expressions, SYS alone: every event of
 * SYS), EXPR comparisons of the event's fields (==, !=, <, <=, >, >=, ~
 * with a glob on strings, & on numbers), COMM and CPU, joined with &&,
 * || and !, in parentheses; without ": EXPR" every event of EVENTS.
 */
struct source_filter;
/* A filter with no expression yet; NULL when out of memory. */
struct source_filter *source_filter_new(struct source *src);
/*
 * source_filter_add - add one expression to f
 *
 * Returns 0; or -1 with the reason in why (n bytes): libtraceevent's
 * message, an event the recording does not have, or an expression that
 * is false for every event it names (a field the event does not have).
 */
int source_filter_add(struct source_filter *f, const char *expr, char *why,
		      size_t n);
/*
 * source_filter_match - whether f keeps ev: 1 when an expression names
 * ev's event and is true for it, 0 when not, -AN_E_NOMEM.
 */
int source_filter_match(struct source_filter *f, const struct source_event *ev);
void source_filter_free(struct source_filter *f);

/* The command name known for pid ("<...>" when unknown).  Never NULL. */
const char *source_comm(struct source *src, int pid);

/*
 * The recording machine's syscall name for nr (from the SYSCALLS chunk),
 * or NULL.  Never the analyzing host's table.
 */
const char *source_syscall_name(struct source *src, long nr);
/* The same from the COMPAT_SYSCALLS chunk: a 32-bit program's numbers. */
const char *source_compat_syscall_name(struct source *src, long nr);

/*
 * Array fields and string-ness (decode/decode.c): read element idx of a
 * numeric array field (unsigned long args[6]) in the recording's byte
 * order; returns 0, or -1 when f is not such an array or idx is out of
 * range.
 */
int source_field_array_u64(const struct source_field *f,
			   const struct source_event *ev, int idx,
			   uint64_t *val);
/*
 * True when f holds characters (char[N] or __data_loc char[]), false for
 * a pointer (a syscall's user-space "const char *") or a number.
 */
bool source_field_is_string(const struct source_field *f);
/*
 * The fields of event type id after prev (NULL: the first), the common_*
 * ones left out, in the format's order; NULL after the last or when the
 * type is unknown.  Its name: source_field_name().
 */
const struct source_field *source_field_next(struct source *src, int id,
					     const struct source_field *prev);
const char *source_field_name(const struct source_field *f);
/*
 * What a field holds: SOURCE_FIELD_STRING (source_field_str()),
 * _ARRAY of *nelem numbers (source_field_array_u64()), _SIGNED or
 * _UNSIGNED (source_field_s64()/_u64()), _BYTES (a dynamic array of
 * other things: *nelem is 0).
 */
enum source_field_kind {
	SOURCE_FIELD_UNSIGNED,
	SOURCE_FIELD_SIGNED,
	SOURCE_FIELD_STRING,
	SOURCE_FIELD_ARRAY,
	SOURCE_FIELD_BYTES,
};
enum source_field_kind source_field_kind(const struct source_field *f,
					 int *nelem);
/*
 * The constant an expression of field is divided by in the event type's
 * print format ("(jiffies - REC->dirtied_when) / 250": 250, the
 * recording kernel's HZ), or 0 when there is none.
 */
long source_event_print_divisor(struct source *src, int id, const char *field);

#endif /* IOREPORT_SOURCE_H */
