/* SPDX-License-Identifier: MIT */
/*
 * source-priv.h - the state of an open recording, shared by the two
 * halves of the input layer, source.c (opening and reading) and events.c
 * (types, fields, text).  Private to input/: the rest of the analyzer
 * sees struct source as an opaque handle (source.h).
 */
#ifndef IOREPORT_INPUT_SOURCE_PRIV_H
#define IOREPORT_INPUT_SOURCE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>

#include "input/source.h"
#include "input/damage.h"
#include "tracedat.h"

#define MAX_WARNINGS		32

/* Entries of the pid -> comm cache of source_comm(). */
#define COMM_CACHE		1024

/* Event ids above this are looked up by bisection, not by array. */
#define TYPE_ID_LIMIT		(1 << 16)

/* One DATA chunk of one CPU, from pass 1. */
struct chunk_ref {
	uint64_t offset;
	uint32_t npages;
	uint32_t stored_len;
	bool gap;		/* a damaged region (or a missing file) precedes it */
	int file;		/* a rotated set: the member it lies in */
	uint64_t first_ts, last_ts;
};

/* Per-CPU read position. */
struct cursor {
	int cpu;
	/* .iorec */
	struct chunk_ref *refs;
	size_t nrefs, refs_alloc, next_ref;
	uint8_t *buf;		/* pages of the current chunk + PAGE_SLACK */
	size_t buf_alloc;
	uint64_t max_body;	/* the largest chunk's pages (DATA_CAP) */
	size_t next_mark;	/* the first of src->marks not yet passed */
	uint64_t chunk_offset;
	uint32_t npages, page, subbuf;
	uint8_t *cur_page;
	uint8_t *page_end;	/* end of the loaded page's events */
	struct kbuffer *kbuf;
	bool page_loaded;
	long long pending_missed;
	struct tep_record rec;
	/* trace.dat: the formats/ reader's pages of this CPU */
	struct tracedat_stream *stream;
	/* both */
	bool valid;		/* rec holds the next record */
	bool done;
};

struct syscall_name {
	long nr;
	char *name;
};

/* One ABI's "NR\tNAME" table, sorted by nr. */
struct syscall_tab {
	struct syscall_name *v;
	size_t n, alloc;
};

/* A file of a rotated set beyond the first (the first is src->fd/reader). */
struct set_member {
	char *path;
	int fd;
	struct iorec_reader *reader;
};

struct source {
	struct source_info info;
	char *path;
	int fd;
	struct tep_handle *tep;		/* ours, loaded from the metadata texts */
	struct iorec_reader *reader;
	/* a rotated set: every file (members[0] is fd/reader above) */
	struct set_member *members;
	int nmembers;
	struct source_set_file *set;	/* info.set */
	struct tracedat_reader *tdr;	/* trace.dat through formats/ */
	int tdr_buffer;			/* the buffer read */
	int64_t ts_offset;		/* trace.dat: ns added to every ts */
	uint32_t tsc_mult, tsc_shift;	/* trace.dat: TSC to ns, mult 0: none */

	struct cursor *cursors;		/* info.nr_cpus of them */
	int only_cpu;
	bool started;
	int last;			/* cursor yielded last, -1 none */

	struct source_event_type *types;	/* sorted by system, name */
	int ntypes;
	int *type_index;		/* indexes of types sorted by id */
	struct source_event_type **type_by_id;	/* [id], NULL: none */
	int max_id;			/* size of type_by_id - 1 */

	/* common_type and common_pid, read without libtraceevent per event */
	int type_off, type_size, pid_off, pid_size;
	bool swap;			/* recording's byte order != host's */

	/* source_comm() answers, direct-mapped by pid */
	struct comm_cache {
		int pid;
		const char *comm;
	} comms[COMM_CACHE];

	struct syscall_tab syscalls;	/* SYSCALLS: the native ABI */
	struct syscall_tab compat;	/* COMPAT_SYSCALLS */

	struct damage_log damage;	/* damaged regions (.iorec) */
	uint64_t *marks;		/* the time spans' ends, sorted */
	size_t nmarks;
	uint64_t resident;		/* sum of the cursors' max_body */
	uint64_t meta_bytes;		/* metadata payloads loaded */

	char *warnings[MAX_WARNINGS];
	int nwarn, warn_head;
	unsigned long warn_dropped;

	struct trace_seq seq;

	/*
	 * guard: the record printed, copied before zeroes, since
	 * libtraceevent's printing reads where the format and the record's
	 * dynamic offsets say (up to 64 KiB past a field); events.c
	 */
	uint8_t *print_buf;
	size_t print_alloc, print_used;
	struct tep_record print_rec;

	bool nomem;		/* pass 1 lacked memory: the open fails */
	int read_err;		/* pass 2: -AN_E_NOMEM stops the walk */
};

/* source.c: queue a warning for source_warning() */
void source_warn(struct source *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* source.c: cursors and info.cpus up to cpu; false (src->nomem): no memory */
bool source_ensure_cpu(struct source *src, int cpu);
/* source.c: len bytes as a string; NULL (src->nomem): no memory */
char *source_dup_text(struct source *src, const uint8_t *p, size_t len);
/*
 * source.c: the metadata texts into src->tep, each checked by the guard
 * of ftrace-guard.h first, problems queued as warnings naming what and
 * offset.  source_header_page takes text (a heap copy) into
 * info.header_page; source_event_format counts a bad or replaced
 * format in info (text_at: the file offset of text when it lies there
 * uncompressed, else 0); source_cmdlines registers info.cmdlines
 * (-AN_E_NOMEM or 0).
 */
void source_header_page(struct source *src, char *text, size_t len,
			uint64_t offset, const char *what);
void source_event_format(struct source *src, const char *system,
			 const char *text, size_t tlen, uint64_t offset,
			 uint64_t text_at, const char *what);
void source_printk(struct source *src, const char *p, size_t len,
		   uint64_t offset);
int source_cmdlines(struct source *src);

/*
 * source.c: the walk of a CPU's pages, the same for both formats.
 * source_page_lost() counts a page's lost-event mark n (0: none; < 0: an
 * unknown number) on cur's CPU and on the next record.
 * source_kbuf_next() advances cur to its next event through its kbuffer
 * (cur->valid says if there is one): load() puts the next page with
 * events into the kbuffer and sets cur->cur_page, cur->page_end, cur->page
 * and cur->chunk_offset (false: no page left); long_size is the kernel's.
 * An event that does not lie inside the page's events ends the page,
 * counted as a gap of unknown size.  rec.ts is the page's clock.
 */
typedef bool (*source_load_page_fn)(struct source *src, struct cursor *cur);
void source_page_lost(struct source *src, struct cursor *cur, long long n);
void source_kbuf_next(struct source *src, struct cursor *cur,
		      source_load_page_fn load, size_t page_header_size,
		      int long_size);

/*
 * source-iorec.c: load an .iorec file open at src->fd (pass 1); 0, or a
 * negative AN_E_* with e filled.  source_iorec_load_page() is the .iorec
 * load() of source_kbuf_next().
 */
int source_iorec_load(struct source *src, struct an_err *e);
bool source_iorec_load_page(struct source *src, struct cursor *cur);

/*
 * tracedat.c: open a trace.dat (magic: the n first bytes of the file)
 * with the formats/ reader; 0 or a negative AN_E_* with e filled.
 */
int source_tracedat_load(struct source *src, const uint8_t *magic, size_t n,
			 struct an_err *e);
/* tracedat.c: advance cur to its next record (cur->valid says if any) */
void source_tracedat_next(struct source *src, struct cursor *cur);
/* tracedat.c: free the trace.dat reader and its streams */
void source_tracedat_close(struct source *src);

/*
 * events.c: the raw syscall names of a SYSCALLS or COMPAT_SYSCALLS text
 * into tab (src->nomem on failure); source_free_syscalls() frees them.
 */
void source_load_syscalls(struct source *src, struct syscall_tab *tab,
			  const char *text);
void source_free_syscalls(struct syscall_tab *tab);
/* events.c: the event types of the recording's formats; false: no memory. */
bool source_build_types(struct source *src);
/* events.c: the type of event id, or NULL (ids beyond type_by_id). */
struct source_event_type *source_find_type_slow(struct source *src, int id);
/* The type of event id, or NULL: an array lookup on the per-event path. */
static inline struct source_event_type *source_find_type(struct source *src,
							  int id)
{
	if (id >= 0 && id <= src->max_id)
		return src->type_by_id[id];
	return source_find_type_slow(src, id);
}
/* events.c: forget what was cached about src's tep before it is freed. */
void source_fields_forget(const struct source *src);

#endif /* IOREPORT_INPUT_SOURCE_PRIV_H */
