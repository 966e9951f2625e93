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
#include <trace-cmd/trace-cmd.h>

#include "input/source.h"
#include "input/damage.h"

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
	bool gap;		/* a damaged region precedes it */
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
	struct kbuffer *kbuf;
	bool page_loaded;
	long long pending_missed;
	struct tep_record rec;
	/* trace.dat */
	struct tep_record *trec;
	/* both */
	bool valid;		/* rec/trec holds the next record */
	bool done;
};

struct syscall_name {
	long nr;
	char *name;
};

/* One ABI's "NR\tNAME" table, sorted by nr. */
struct syscall_tab {
	struct syscall_name *v;
	size_t n;
};

struct source {
	struct source_info info;
	char *path;
	int fd;
	struct tep_handle *tep;		/* ours (.iorec) or libtracecmd's */
	struct iorec_reader *reader;
	struct tracecmd_input *handle;
	struct tracecmd_input *parent;	/* when handle is a buffer instance */

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

static inline bool source_host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

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

/* The magic that opens a trace.dat file, and its length. */
#define TRACEDAT_MAGIC		"\027\010\104tracing"
#define TRACEDAT_MAGIC_LEN	10

/* source.c: a warning for source_warning() (kept up to MAX_WARNINGS). */
void src_warn(struct source *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Make sure cursors (and info.cpus) exist for cpu; false: no memory. */
bool src_ensure_cpu(struct source *src, int cpu);
/* The len bytes at p as a string; NULL (src->nomem set): no memory. */
char *src_dup_text(struct source *src, const uint8_t *p, size_t len);

/*
 * source-iorec.c: load an .iorec file open at src->fd (pass 1); 0, or a
 * negative AN_E_* with e filled.  src_iorec_next() moves cur to the next
 * record of its CPU (cur->valid false at the end).
 */
int src_iorec_load(struct source *src, struct an_err *e);
void src_iorec_next(struct source *src, struct cursor *cur);

/*
 * source-tracedat.c: the same for a trace.dat file whose first n bytes
 * are magic.
 */
int src_tracedat_load(struct source *src, const uint8_t *magic, size_t n,
		      struct an_err *e);
void src_tracedat_next(struct source *src, struct cursor *cur);

#endif /* IOREPORT_INPUT_SOURCE_PRIV_H */
