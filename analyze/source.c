// SPDX-License-Identifier: MIT
/*
 * source.c - the one file of ioreport that decodes recordings: .iorec
 * files through the formats/ reader plus libtraceevent's kbuffer and tep
 * handle, trace.dat files through libtracecmd; both yield events from all
 * CPUs merged in timestamp order.
 *
 * An .iorec file is read in two passes.  Pass 1 walks every chunk header,
 * loads the metadata (header, header_page, event formats, snapshots,
 * cmdlines, stats, end) into a tep handle and strings, and indexes the
 * DATA chunks per CPU.  Pass 2 (source_next) keeps, per CPU, a cursor on
 * one decompressed chunk and a kbuffer on one of its pages, and always
 * yields the smallest next timestamp; memory stays bounded by one chunk
 * per CPU whatever the length of the recording.  The byte order and long
 * size of the pages are the recording machine's, from the HEADER chunk.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>
#include <trace-cmd/trace-cmd.h>

#include "iorec-format.h"
#include "util.h"
#include "source.h"
#include "input/damage.h"
#include "input/ftrace-guard.h"
#include "input/tracedat-guard.h"

#define TRACEDAT_MAGIC		"\027\010\104tracing"
#define TRACEDAT_MAGIC_LEN	10

/* The ring buffer's commit word (see the kernel's ring_buffer.c). */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_COMMIT_MASK		((1ULL << 27) - 1)

/* Zeroes after a chunk's pages so kbuffer never reads past our buffer. */
#define PAGE_SLACK		64

#define MAX_WARNINGS		32

/* Entries of the pid -> comm cache of source_comm(). */
#define COMM_CACHE		1024

/* Event ids above this are looked up by bisection, not by array. */
#define TYPE_ID_LIMIT		(1 << 16)

/*
 * Memory caps (docs/iorec.5, "Memory"): the pages pass 2 holds at once,
 * one chunk per CPU, and the metadata of pass 1, whatever the frames
 * claim to expand to.  A chunk beyond a cap is a damaged region.
 */
#define DATA_CAP		(1ull << 30)
#define META_CAP		(256ull << 20)

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

	struct syscall_name *syscalls;
	size_t nsyscalls;

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
	 * dynamic offsets say (up to 64 KiB past a field)
	 */
	uint8_t *print_buf;
	size_t print_alloc, print_used;
	struct tep_record print_rec;
};

/* Zeroes after a record printed (PRINT_SLACK), see struct source. */
#define PRINT_SLACK		(256u << 10)

static __attribute__((format(printf, 2, 3)))
void queue_warning(struct source *src, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (src->nwarn >= MAX_WARNINGS) {
		src->warn_dropped++;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg) {
		src->warn_dropped++;
		return;
	}
	src->warnings[(src->warn_head + src->nwarn++) % MAX_WARNINGS] = msg;
}

char *source_warning(struct source *src)
{
	char *msg;

	if (!src->nwarn) {
		if (!src->warn_dropped)
			return NULL;
		msg = xasprintf("%s: %lu more warnings not shown", src->path,
				src->warn_dropped);
		src->warn_dropped = 0;
		return msg;
	}
	msg = src->warnings[src->warn_head];
	src->warn_head = (src->warn_head + 1) % MAX_WARNINGS;
	src->nwarn--;
	return msg;
}

/*
 * Whether the fields of swap_tep's recording need a byte swap (swap_val):
 * remembered for the last handle asked, since asking libtraceevent costs
 * a call per field read (field_swap); source_close() forgets its handle
 * before freeing it.
 */
static const struct tep_handle *swap_tep;
static bool swap_val;

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* Make sure cursors (and info.cpus) exist for cpu. */
static void ensure_cpu(struct source *src, int cpu)
{
	int n = src->info.nr_cpus;

	if (cpu < n)
		return;
	src->cursors = xrealloc(src->cursors, sizeof(*src->cursors) * (cpu + 1));
	src->info.cpus = xrealloc(src->info.cpus,
				  sizeof(*src->info.cpus) * (cpu + 1));
	memset(src->cursors + n, 0, sizeof(*src->cursors) * (cpu + 1 - n));
	memset(src->info.cpus + n, 0, sizeof(*src->info.cpus) * (cpu + 1 - n));
	for (; n <= cpu; n++)
		src->cursors[n].cpu = n;
	src->info.nr_cpus = cpu + 1;
}

static char *dup_text(const uint8_t *p, size_t len)
{
	char *s = xmalloc(len + 1);

	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

/* ------------------------------------------------------------------ */
/* Pass 1: .iorec metadata and index */

static int cmp_syscall(const void *a, const void *b)
{
	const struct syscall_name *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static void load_syscalls(struct source *src, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[256];
		char *tab, *end;
		long nr;

		if (len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			tab = strchr(line, '\t');
			if (tab) {
				*tab = '\0';
				nr = strtol(line, &end, 10);
				if (end != line && !*end && tab[1]) {
					src->syscalls = xrealloc(src->syscalls,
						sizeof(*src->syscalls) *
						(src->nsyscalls + 1));
					src->syscalls[src->nsyscalls].nr = nr;
					src->syscalls[src->nsyscalls].name =
						xstrdup(tab + 1);
					src->nsyscalls++;
				}
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (src->nsyscalls)	/* no valid line: no array, no qsort(NULL) */
		qsort(src->syscalls, src->nsyscalls, sizeof(*src->syscalls),
		      cmp_syscall);
}

const char *source_syscall_name(struct source *src, long nr)
{
	struct syscall_name key = { .nr = nr }, *s;

	if (!src->nsyscalls)	/* no bsearch(NULL) either */
		return NULL;
	s = bsearch(&key, src->syscalls, src->nsyscalls, sizeof(key),
		    cmp_syscall);
	return s ? s->name : NULL;
}

/*
 * Register the comms of a snapshot's proc and thread lines, so events of
 * processes that never passed through saved_cmdlines are named.
 */
static void register_snapshot_comms(struct source *src, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line, *f[4], *save = NULL;
		int n = 0;

		if ((len > 5 && !strncmp(p, "proc\t", 5)) ||
		    (len > 7 && !strncmp(p, "thread\t", 7))) {
			line = dup_text((const uint8_t *)p, len);
			for (char *t = strtok_r(line, "\t", &save); t && n < 4;
			     t = strtok_r(NULL, "\t", &save))
				f[n++] = t;
			/* proc PID PPID COMM ...; thread TID PID COMM */
			if (n == 4)
				tep_register_comm(src->tep,
						  unescape_field(f[3]),
						  atoi(f[1]));
			free(line);
		}
		p = nl ? nl + 1 : NULL;
	}
}

static void index_data(struct source *src, const struct iorec_chunk *c)
{
	const struct iorec_data_desc *d = &c->data;
	struct source_cpu *sc;
	struct cursor *cur;

	if (d->subbuf_size < 16 || !d->npages) {
		queue_warning(src, "%s: data chunk at offset %llu has %u pages of %u bytes; skipped",
			      src->path, (unsigned long long)c->offset,
			      d->npages, d->subbuf_size);
		return;
	}
	ensure_cpu(src, (int)d->cpu);
	cur = &src->cursors[d->cpu];
	/* damage: the pages all CPUs hold at once stay under DATA_CAP */
	if ((uint64_t)d->npages * d->subbuf_size > cur->max_body) {
		uint64_t body = (uint64_t)d->npages * d->subbuf_size;

		if (src->resident - cur->max_body + body > DATA_CAP) {
			damage_add_chunk(&src->damage, c->offset,
					 IOREC_CHUNK_HEADER_LEN + c->stored_len,
					 d, "data chunks of all CPUs beyond the 1 GiB memory cap");
			return;
		}
		src->resident += body - cur->max_body;
		cur->max_body = body;
	}
	if (cur->nrefs == cur->refs_alloc) {
		cur->refs_alloc = cur->refs_alloc ? cur->refs_alloc * 2 : 16;
		cur->refs = xrealloc(cur->refs,
				     sizeof(*cur->refs) * cur->refs_alloc);
	}
	cur->refs[cur->nrefs].offset = c->offset;
	cur->refs[cur->nrefs].npages = d->npages;
	cur->refs[cur->nrefs].stored_len = c->stored_len;
	cur->refs[cur->nrefs].first_ts = d->first_ts;
	cur->refs[cur->nrefs].last_ts = d->last_ts;
	damage_chunk(&src->damage, d);
	cur->refs[cur->nrefs].gap = false;	/* set by publish_damage() */
	cur->nrefs++;

	sc = &src->info.cpus[d->cpu];
	if (!sc->present || d->first_ts < sc->first_ts)
		sc->first_ts = d->first_ts;
	if (!sc->present || d->last_ts > sc->last_ts)
		sc->last_ts = d->last_ts;
	sc->present = true;
	sc->chunks++;
	sc->pages += d->npages;
	sc->raw_bytes += (uint64_t)d->npages * d->subbuf_size;
	sc->stored_bytes += IOREC_CHUNK_HEADER_LEN + c->stored_len;
}

static int setup_tep(struct source *src, const struct iorec_header *h)
{
	struct source_info *in = &src->info;

	in->big_endian = h->endian == IOREC_ENDIAN_BIG;
	in->long_size = h->long_size;
	in->page_size = h->page_size;
	in->subbuf_size = h->subbuf_size;
	in->ncpus = h->ncpus;
	in->flags = h->flags;
	free((char *)in->header_text);
	in->header_text = dup_text((const uint8_t *)h->text, h->text_len);

	src->tep = tep_alloc();
	if (!src->tep)
		return -1;
	tep_set_file_bigendian(src->tep, in->big_endian ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(src->tep, host_big_endian() ? TEP_BIG_ENDIAN :
				TEP_LITTLE_ENDIAN);
	tep_set_long_size(src->tep, h->long_size);
	tep_set_page_size(src->tep, (int)h->subbuf_size);
	tep_set_cpus(src->tep, (int)h->ncpus);
	ensure_cpu(src, (int)h->ncpus - 1);
	return 0;
}

/* Handle one metadata chunk whose payload is loaded. */
static void load_meta(struct source *src, const struct iorec_chunk *c)
{
	struct source_info *in = &src->info;
	const uint8_t *p = c->payload;
	size_t len = c->payload_len;

	switch (c->type) {
	case IOREC_CHUNK_HEADER_PAGE: {
		char *text = dup_text(p, len);
		struct ftrace_verdict v;

		free((char *)in->header_page);
		in->header_page = text;
		/* guard: only the kernel's shape reaches libtraceevent */
		if (ftrace_check_header_page(text, len, in->subbuf_size,
					     &v) < 0)
			queue_warning(src, "%s: header_page at offset %llu: %s at byte %zu; page headers are read with long size %d",
				      src->path,
				      (unsigned long long)c->offset, v.error,
				      v.offset, in->long_size);
		else if (tep_parse_header_page(src->tep, text, len,
					       in->long_size))
			queue_warning(src, "%s: header_page at offset %llu does not parse; page headers are read with long size %d",
				      src->path,
				      (unsigned long long)c->offset,
				      in->long_size);
		break;
	}
	case IOREC_CHUNK_EVENT_FORMAT: {
		const uint8_t *nul = memchr(p, '\0', len);
		enum tep_errno e;

		in->format_chunks++;
		if (!nul) {
			in->bad_formats++;
			queue_warning(src, "%s: event format chunk at offset %llu has no system name; skipped",
				      src->path, (unsigned long long)c->offset);
			break;
		}
		/* guard: the ftrace grammar before libtraceevent */
		{
			const char *text = (const char *)nul + 1;
			size_t tlen = len - (size_t)(nul + 1 - p);
			struct ftrace_verdict v = { 0 };
			int g = -1;

			if (!ftrace_check_system((const char *)p,
						 (size_t)(nul - p)))
				v.error = "system name not of [A-Za-z0-9_]";
			else
				g = ftrace_check_format(text, tlen,
							in->subbuf_size,
							!strcmp((const char *)p,
								"ftrace"), &v);
			if (g >= 0 && tep_find_event(src->tep, (int)v.id)) {
				v.error = "event ID of an earlier format";
				g = -1;
			}
			if (g < 0) {
				in->bad_formats++;
				queue_warning(src, "%s: event format chunk at offset %llu: %s at byte %zu of the format; its events are not decoded",
					      src->path,
					      (unsigned long long)c->offset,
					      v.error, v.offset);
				ftrace_verdict_release(&v);
				break;
			}
			/*
			 * A print fmt replaced by a neutral one (g > 0) is
			 * no warning: real kernels have some libtraceevent
			 * cannot evaluate (jiffies_to_msecs(), ...); info
			 * tells.
			 */
			if (g > 0 && !in->replaced_prints++) {
				/* a byte of the file, unless compressed */
				in->replaced_offset = c->offset;
				if (!(c->flags & IOREC_CF_ZSTD))
					in->replaced_offset +=
						IOREC_CHUNK_HEADER_LEN +
						(uint64_t)(text -
							   (const char *)p) +
						v.offset;
				in->replaced_reason = v.error;
			}
			e = tep_parse_event(src->tep, v.text ? v.text : text,
					    v.text ? v.text_len : tlen,
					    (const char *)p);
			ftrace_verdict_release(&v);
		}
		/* A print format libtraceevent cannot evaluate still leaves
		 * the fields usable, so only a hard failure counts. */
		if (e && e != TEP_ERRNO__READ_PRINT_FAILED &&
		    e != TEP_ERRNO__READ_FORMAT_FAILED) {
			char buf[128];

			in->bad_formats++;
			tep_strerror(src->tep, e, buf, sizeof(buf));
			queue_warning(src, "%s: event format of %s at offset %llu: %s; its events print as unknown",
				      src->path, (const char *)p,
				      (unsigned long long)c->offset, buf);
		}
		break;
	}
	case IOREC_CHUNK_SNAPSHOT: {
		uint32_t phase;
		char *text;

		if (len < 8) {
			queue_warning(src, "%s: snapshot chunk at offset %llu is too short; skipped",
				      src->path, (unsigned long long)c->offset);
			break;
		}
		phase = iorec_get32(p);
		text = dup_text(p + 8, len - 8);
		if (phase == IOREC_SNAP_START) {
			free((char *)in->snapshot_start);
			in->snapshot_start = text;
		} else {
			free((char *)in->snapshot_end);
			in->snapshot_end = text;
		}
		break;
	}
	case IOREC_CHUNK_SYSCALLS:
		free((char *)in->syscalls);
		in->syscalls = dup_text(p, len);
		load_syscalls(src, in->syscalls);
		if (!src->nsyscalls)
			queue_warning(src, "%s: syscalls chunk at offset %llu has no \"NR\tNAME\" line; raw syscall numbers are not named",
				      src->path, (unsigned long long)c->offset);
		break;
	case IOREC_CHUNK_CMDLINES:
		free((char *)in->cmdlines);
		in->cmdlines = dup_text(p, len);
		break;
	case IOREC_CHUNK_STATS:
		free((char *)in->stats);
		in->stats = dup_text(p, len);
		break;
	case IOREC_CHUNK_END:
		free((char *)in->end_text);
		in->end_text = dup_text(p, len);
		in->seen_end = true;
		break;
	case IOREC_CHUNK_PRINTK: {
		struct ftrace_verdict v;
		size_t dropped;
		/* guard: only well-formed lines reach libtraceevent */
		char *text = ftrace_filter_lines((const char *)p, len, true,
						 &dropped, &v);

		if (dropped)
			queue_warning(src, "%s: printk formats at offset %llu: %zu lines left out, the first at byte %zu: %s",
				      src->path, (unsigned long long)c->offset,
				      dropped, v.offset, v.error);
		tep_parse_printk_formats(src->tep, text);
		free(text);
		break;
	}
	default:
		break;		/* HEADER_EVENT, NOTE, unknown: nothing to do */
	}
}

/* ------------------------------------------------------------------ */
/* Damage: resynchronisation and the regions of source_info */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Where the gap markers go (struct source_event.missed): the first event
 * of every CPU at or after each end of a region's time span, when the
 * span is known; else the first event of every CPU's next chunk after
 * the region in the file.
 */
static void place_marks(struct source *src)
{
	struct source_info *in = &src->info;

	free(src->marks);
	src->marks = xcalloc((size_t)in->ndamaged * 2 + 1, sizeof(uint64_t));
	src->nmarks = 0;
	for (int i = 0; i < in->ndamaged; i++) {
		const struct source_damage *r = &in->damaged[i];

		if (r->cpu >= 0) {
			src->marks[src->nmarks++] = r->first_ts;
			src->marks[src->nmarks++] = r->last_ts;
			continue;
		}
		for (int c = 0; c < in->nr_cpus; c++) {
			struct cursor *cur = &src->cursors[c];

			for (size_t k = cur->next_ref; k < cur->nrefs; k++)
				if (cur->refs[k].offset > r->offset) {
					cur->refs[k].gap = true;
					break;
				}
		}
	}
	if (src->nmarks > 1)
		qsort(src->marks, src->nmarks, sizeof(uint64_t), cmp_u64);
	/* what each CPU has yielded is behind its next mark */
	for (int c = 0; c < in->nr_cpus; c++) {
		struct cursor *cur = &src->cursors[c];
		uint64_t last = in->cpus[c].events ? in->cpus[c].last_event_ts : 0;

		cur->next_mark = 0;
		while (in->cpus[c].events && cur->next_mark < src->nmarks &&
		       src->marks[cur->next_mark] <= last)
			cur->next_mark++;
	}
}

/* Put the regions into info; any region makes the file corrupt. */
static void publish_damage(struct source *src)
{
	struct source_info *in = &src->info;

	damage_publish(&src->damage, in);
	if (!in->ndamaged)
		return;
	place_marks(src);
	in->integrity = SOURCE_CORRUPT;
	in->stop_offset = in->damaged[0].offset;
	in->stop_reason = in->damaged[0].reason;
}

/*
 * Pass 1 met damage (err from iorec_reader_next): note the region and
 * resynchronise after it.  Returns 1 to go on reading, 0 to stop (a cut,
 * or nothing valid after the damage).
 */
static int skip_damage(struct source *src, int err)
{
	struct iorec_gap gap;
	struct stat st;
	int ret = iorec_reader_resync(src->reader, &gap);

	if (ret > 0 || (ret == 0 && gap.error != -IOREC_E_TRUNCATED)) {
		damage_add_gap(&src->damage, &gap, iorec_strerror(gap.error));
		return ret;
	}
	if (err == -IOREC_E_AFTER_END && !fstat(src->fd, &st)) {
		/* what follows the end chunk is not the recording's */
		memset(&gap, 0, sizeof(gap));
		gap.offset = iorec_reader_error_offset(src->reader);
		gap.length = (uint64_t)st.st_size > gap.offset ?
			     (uint64_t)st.st_size - gap.offset : 0;
		gap.to_end = true;
		gap.error = err;
		damage_add_gap(&src->damage, &gap, iorec_strerror(err));
	}
	return 0;
}

static int iorec_load(struct source *src, char **errmsg)
{
	struct source_info *in = &src->info;
	struct iorec_chunk c;
	uint16_t major, minor;
	bool have_header = false;
	int err, ret;

	src->reader = iorec_reader_open_fd(src->fd, &err);
	if (!src->reader) {
		if (err == -IOREC_E_BAD_VERSION)
			*errmsg = xasprintf("%s: .iorec format version not supported by this ioreport (it reads %d.x); upgrade ioreport",
					    src->path, IOREC_VERSION_MAJOR);
		else
			*errmsg = xasprintf("%s: %s at offset 0", src->path,
					    iorec_strerror(err));
		return -1;
	}
	iorec_reader_version(src->reader, &major, &minor);
	in->version_major = major;
	in->version_minor = minor;
	in->file_bytes = IOREC_FILE_HEADER_LEN;

	for (;;) {
		ret = iorec_reader_next(src->reader, &c, false);
		if (ret == 0)
			break;
		if (ret < 0) {
			int regions = src->damage.n;

			/* damage: resynchronise after it, or stop */
			if (have_header && skip_damage(src, ret) > 0)
				continue;
			if (src->damage.n == regions) {
				in->integrity = ret == -IOREC_E_TRUNCATED ?
					SOURCE_TRUNCATED : SOURCE_CORRUPT;
				in->stop_offset =
					iorec_reader_error_offset(src->reader);
				in->stop_reason = iorec_strerror(ret);
			}
			break;
		}
		in->chunks++;
		in->file_bytes = c.offset + IOREC_CHUNK_HEADER_LEN +
				 c.stored_len;
		if (c.type == IOREC_CHUNK_DATA) {
			if (have_header)
				index_data(src, &c);
			continue;
		}
		/* damage: metadata stays under META_CAP */
		if (have_header && src->meta_bytes + c.raw_len > META_CAP) {
			damage_add_chunk(&src->damage, c.offset,
					 IOREC_CHUNK_HEADER_LEN + c.stored_len,
					 NULL, "metadata beyond the 256 MiB cap");
			continue;
		}
		src->meta_bytes += c.raw_len;
		ret = iorec_reader_read_at(src->reader, c.offset, &c);
		if (ret < 0) {
			queue_warning(src, "%s: chunk at offset %llu (type %u): %s; skipped",
				      src->path, (unsigned long long)c.offset,
				      c.type, iorec_strerror(ret));
			continue;
		}
		if (c.type == IOREC_CHUNK_HEADER) {
			struct iorec_header h;

			if (have_header)
				continue;
			ret = iorec_header_parse(c.payload, c.payload_len, &h);
			if (ret < 0) {
				*errmsg = xasprintf("%s: corrupt at offset %llu: header chunk: %s",
						    src->path,
						    (unsigned long long)c.offset,
						    iorec_strerror(ret));
				return -1;
			}
			if (setup_tep(src, &h) < 0) {
				*errmsg = xasprintf("%s: out of memory",
						    src->path);
				return -1;
			}
			damage_init(&src->damage, h.ncpus);
			have_header = true;
			continue;
		}
		if (have_header)
			load_meta(src, &c);
	}

	if (!have_header && in->integrity == SOURCE_COMPLETE) {
		*errmsg = xasprintf("%s: truncated at offset %llu: the file ends after its file header; it holds no recording",
				    src->path,
				    (unsigned long long)in->file_bytes);
		return -1;
	}
	if (!have_header) {
		*errmsg = xasprintf("%s: %s at offset %llu: %s; the file holds no recording header",
				    src->path,
				    in->integrity == SOURCE_TRUNCATED ?
				    "truncated" : "corrupt",
				    (unsigned long long)in->stop_offset,
				    in->stop_reason ? in->stop_reason :
				    "no chunks");
		return -1;
	}
	if (in->integrity == SOURCE_COMPLETE && !in->seen_end) {
		in->integrity = SOURCE_TRUNCATED;
		in->stop_offset = in->file_bytes;
		in->stop_reason = "no end chunk (the recording was cut short)";
	}
	/* damage: the regions, which make the file corrupt */
	if (in->integrity == SOURCE_TRUNCATED) {
		in->truncated = true;
		in->truncated_offset = in->stop_offset;
		in->truncated_reason = in->stop_reason;
	}
	publish_damage(src);

	/* First registration wins: saved_cmdlines, then the snapshots. */
	if (in->cmdlines) {
		struct ftrace_verdict v;
		size_t dropped;
		char *text = ftrace_filter_lines(in->cmdlines,
						 strlen(in->cmdlines), false,
						 &dropped, &v);

		if (dropped)
			queue_warning(src, "%s: saved cmdlines: %zu lines left out, the first at byte %zu: %s",
				      src->path, dropped, v.offset, v.error);
		tep_parse_saved_cmdlines(src->tep, text);
		free(text);
	}
	register_snapshot_comms(src, in->snapshot_start);
	register_snapshot_comms(src, in->snapshot_end);

	for (int i = 0; i < in->nr_cpus; i++) {
		struct source_cpu *sc = &in->cpus[i];

		if (!sc->present)
			continue;
		if (!in->first_ts || sc->first_ts < in->first_ts)
			in->first_ts = sc->first_ts;
		if (sc->last_ts > in->last_ts)
			in->last_ts = sc->last_ts;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Pass 2: .iorec cursors */

static uint64_t read_long(struct source *src, const uint8_t *p)
{
	uint64_t v = 0;
	int n = src->info.long_size;

	for (int i = 0; i < n; i++) {
		if (src->info.big_endian)
			v = v << 8 | p[i];
		else
			v |= (uint64_t)p[i] << (8 * i);
	}
	return v;
}

/* Load the next DATA chunk of cur into its buffer.  false: none left. */
static bool cursor_load_chunk(struct source *src, struct cursor *cur)
{
	struct iorec_chunk c;

	while (cur->next_ref < cur->nrefs) {
		const struct chunk_ref *ref = &cur->refs[cur->next_ref++];
		size_t body;
		int ret;

		ret = iorec_reader_read_at(src->reader, ref->offset, &c);
		if (ret < 0) {
			struct iorec_data_desc d = {
				.cpu = (uint32_t)cur->cpu,
				.first_ts = ref->first_ts,
				.last_ts = ref->last_ts,
			};

			queue_warning(src, "%s: data chunk at offset %llu (cpu %d): %s; its events are skipped",
				      src->path,
				      (unsigned long long)ref->offset,
				      cur->cpu, iorec_strerror(ret));
			/* damage: a region, and a gap before what follows */
			damage_add_chunk(&src->damage, ref->offset,
					 IOREC_CHUNK_HEADER_LEN + ref->stored_len,
					 &d, iorec_strerror(ret));
			publish_damage(src);
			cur->pending_missed = -1;
			continue;
		}
		if (ref->gap)
			cur->pending_missed = -1;	/* damage before it */
		body = c.payload_len - IOREC_DATA_DESC_LEN;
		if (cur->buf_alloc < body + PAGE_SLACK) {
			free(cur->buf);
			cur->buf_alloc = body + PAGE_SLACK;
			cur->buf = xmalloc(cur->buf_alloc);
		}
		memcpy(cur->buf, c.payload + IOREC_DATA_DESC_LEN, body);
		memset(cur->buf + body, 0, PAGE_SLACK);
		cur->chunk_offset = ref->offset;
		cur->npages = c.data.npages;
		cur->subbuf = c.data.subbuf_size;
		cur->page = 0;
		return true;
	}
	return false;
}

/* Load the next non-empty page of cur into its kbuffer.  false: none left. */
static bool cursor_load_page(struct source *src, struct cursor *cur)
{
	struct source_cpu *sc = &src->info.cpus[cur->cpu];
	int hdr = 8 + src->info.long_size;

	for (;;) {
		uint64_t commit, size;
		uint8_t *page;

		if (cur->page >= cur->npages) {
			if (!cursor_load_chunk(src, cur))
				return false;
			continue;
		}
		page = cur->buf + (size_t)cur->page * cur->subbuf;
		cur->page++;
		commit = read_long(src, page + 8);
		size = commit & RB_COMMIT_MASK;
		if (size + hdr > cur->subbuf) {
			queue_warning(src, "%s: data chunk at offset %llu (cpu %d): page %u claims %llu bytes of data in a %u-byte sub-buffer; page skipped",
				      src->path,
				      (unsigned long long)cur->chunk_offset,
				      cur->cpu, cur->page - 1,
				      (unsigned long long)size, cur->subbuf);
			cur->pending_missed = -1;
			continue;
		}
		if (commit & RB_MISSED_EVENTS) {
			long long n = -1;

			if ((commit & RB_MISSED_STORED) &&
			    size + hdr + src->info.long_size <= cur->subbuf)
				n = (long long)read_long(src,
							 page + hdr + size);
			sc->missed_pages++;
			if (n > 0)
				sc->missed_events += (uint64_t)n;
			if (n > 0 && cur->pending_missed > 0)
				cur->pending_missed += n;
			else if (!cur->pending_missed || n < 0)
				cur->pending_missed = n;
		}
		if (!size)
			continue;
		/* guard: kbuffer trusts the events' lengths */
		if (!ftrace_page_events_ok(page + hdr, (size_t)size,
					   src->info.big_endian)) {
			queue_warning(src, "%s: data chunk at offset %llu (cpu %d): page %u has an event that runs past its data; page skipped",
				      src->path,
				      (unsigned long long)cur->chunk_offset,
				      cur->cpu, cur->page - 1);
			cur->pending_missed = -1;
			continue;
		}
		if (kbuffer_load_subbuffer(cur->kbuf, page) < 0)
			continue;
		cur->cur_page = page;
		return true;
	}
}

/* Advance cur to its next record (cur->valid says if there is one). */
static void iorec_cursor_next(struct source *src, struct cursor *cur)
{
	unsigned long long ts;
	void *data = NULL;

	cur->valid = false;
	if (cur->done)
		return;
	if (!cur->kbuf) {
		cur->kbuf = kbuffer_alloc(src->info.long_size == 8 ?
					  KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					  src->info.big_endian ?
					  KBUFFER_ENDIAN_BIG :
					  KBUFFER_ENDIAN_LITTLE);
		if (!cur->kbuf) {
			queue_warning(src, "%s: out of memory reading cpu %d",
				      src->path, cur->cpu);
			cur->done = true;
			return;
		}
	}
	for (;;) {
		int size;

		if (cur->page_loaded)
			data = kbuffer_next_event(cur->kbuf, &ts);
		while (!data) {
			if (!cursor_load_page(src, cur)) {
				cur->page_loaded = false;
				cur->done = true;
				return;
			}
			cur->page_loaded = true;
			data = kbuffer_read_event(cur->kbuf, &ts);
		}
		size = kbuffer_event_size(cur->kbuf);
		if (size <= 0 || (uint8_t *)data + size >
		    cur->cur_page + cur->subbuf) {
			queue_warning(src, "%s: data chunk at offset %llu (cpu %d): bad event length %d in page %u; rest of page skipped",
				      src->path,
				      (unsigned long long)cur->chunk_offset,
				      cur->cpu, size, cur->page - 1);
			cur->page_loaded = false;
			cur->pending_missed = -1;
			data = NULL;
			continue;
		}
		memset(&cur->rec, 0, sizeof(cur->rec));
		cur->rec.ts = ts;
		cur->rec.cpu = cur->cpu;
		cur->rec.data = data;
		cur->rec.size = size;
		cur->rec.record_size = size;
		cur->rec.offset = cur->chunk_offset;
		cur->rec.missed_events = cur->pending_missed;
		cur->rec.locked = 1;
		cur->pending_missed = 0;
		cur->valid = true;
		return;
	}
}

/* ------------------------------------------------------------------ */
/* trace.dat */

static bool tracedat_has_data(struct tracecmd_input *h)
{
	int ncpus = tep_get_cpus(tracecmd_get_tep(h));

	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct tep_record *r = tracecmd_read_cpu_first(h, cpu);

		if (r) {
			tracecmd_free_record(r);
			return true;
		}
	}
	return false;
}

static int tracedat_load(struct source *src, const uint8_t *magic, size_t n,
			 char **errmsg)
{
	struct source_info *in = &src->info;
	struct tracedat_patches patches;
	const char *why;
	uint64_t off;
	int fd, ncpus;

	/* The version follows the magic as a NUL-terminated decimal. */
	if (n > TRACEDAT_MAGIC_LEN)
		in->version_major = (unsigned int)atoi(
			(const char *)magic + TRACEDAT_MAGIC_LEN);
	/* guard: the structure and texts before libtracecmd trusts them */
	if (tracedat_guard(src->fd, &patches, &why, &off) < 0) {
		*errmsg = xasprintf("%s: corrupt trace.dat at offset %llu: %s",
				    src->path, (unsigned long long)off, why);
		return -1;
	}
	in->replaced_prints = patches.formats;
	in->replaced_offset = patches.first_offset;
	in->replaced_reason = patches.first_reason;
	fd = patches.n ? tracedat_patched_copy(src->fd, &patches) :
	     dup(src->fd);
	tracedat_patches_release(&patches);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		*errmsg = xasprintf("%s: %s", src->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	src->handle = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!src->handle) {
		*errmsg = xasprintf("%s: cannot read this trace.dat (version %u) with libtracecmd: corrupt, truncated or of an unsupported version",
				    src->path, in->version_major);
		return -1;
	}
	in->trace_buffers = tracecmd_buffer_instances(src->handle);
	if (in->trace_buffers > 0 && !tracedat_has_data(src->handle)) {
		/* trace-cmd record -B: the events are in an instance */
		for (int i = 0; i < in->trace_buffers; i++) {
			struct tracecmd_input *h =
				tracecmd_buffer_instance_handle(src->handle,
								i);

			if (h && tracedat_has_data(h)) {
				src->parent = src->handle;
				src->handle = h;
				in->buffer_name = tracecmd_buffer_instance_name(
					src->parent, i);
				break;
			}
			if (h)
				tracecmd_close(h);
		}
	}
	src->tep = tracecmd_get_tep(src->handle);
	in->big_endian = tep_is_file_bigendian(src->tep);
	in->long_size = tep_get_long_size(src->tep);
	in->page_size = (uint32_t)tep_get_page_size(src->tep);
	in->subbuf_size = (uint32_t)tep_get_sub_buffer_size(src->tep);
	if (!in->page_size)
		in->page_size = in->subbuf_size;
	ncpus = tep_get_cpus(src->tep);
	in->ncpus = ncpus > 0 ? (uint32_t)ncpus : 0;
	in->header_text = xstrdup("");
	if (ncpus > 0)
		ensure_cpu(src, ncpus - 1);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct tep_record *r = tracecmd_read_cpu_first(src->handle,
							       cpu);

		if (!r)
			continue;
		in->cpus[cpu].present = true;
		in->cpus[cpu].first_ts = r->ts;
		if (!in->first_ts || r->ts < in->first_ts)
			in->first_ts = r->ts;
		tracecmd_free_record(r);
	}
	/* first_ts/last_ts get their final values while iterating. */
	return 0;
}

static void tracedat_cursor_next(struct source *src, struct cursor *cur)
{
	if (cur->trec) {
		tracecmd_free_record(cur->trec);
		cur->trec = NULL;
	}
	cur->valid = false;
	if (cur->done)
		return;
	cur->trec = src->started ? tracecmd_read_data(src->handle, cur->cpu) :
		tracecmd_read_cpu_first(src->handle, cur->cpu);
	if (!cur->trec) {
		cur->done = true;
		return;
	}
	if (cur->trec->missed_events) {
		struct source_cpu *sc = &src->info.cpus[cur->cpu];

		sc->missed_pages++;
		if (cur->trec->missed_events > 0)
			sc->missed_events +=
				(uint64_t)cur->trec->missed_events;
	}
	cur->valid = true;
}

/* ------------------------------------------------------------------ */
/* Event types */

static int cmp_type_name(const void *a, const void *b)
{
	const struct source_event_type *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

static struct source *cmp_src;	/* qsort has no context argument */

static int cmp_type_id(const void *a, const void *b)
{
	int x = cmp_src->types[*(const int *)a].id;
	int y = cmp_src->types[*(const int *)b].id;

	return x < y ? -1 : x > y;
}

static void build_types(struct source *src)
{
	int n = tep_get_events_count(src->tep);
	struct tep_event **list = tep_list_events(src->tep, TEP_EVENT_SORT_ID);

	src->ntypes = 0;
	src->types = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*src->types));
	for (int i = 0; list && list[i] && i < n; i++) {
		struct source_event_type *t = &src->types[src->ntypes++];

		t->id = list[i]->id;
		t->system = list[i]->system ? list[i]->system : "";
		t->name = list[i]->name ? list[i]->name : "";
	}
	qsort(src->types, src->ntypes, sizeof(*src->types), cmp_type_name);
	src->type_index = xcalloc(src->ntypes ? src->ntypes : 1, sizeof(int));
	for (int i = 0; i < src->ntypes; i++)
		src->type_index[i] = i;
	cmp_src = src;
	qsort(src->type_index, src->ntypes, sizeof(int), cmp_type_id);
	cmp_src = NULL;

	/* direct lookup by id for the per-event path (ids are small) */
	src->max_id = -1;
	for (int i = 0; i < src->ntypes; i++)
		if (src->types[i].id > src->max_id &&
		    src->types[i].id < TYPE_ID_LIMIT)
			src->max_id = src->types[i].id;
	src->type_by_id = xcalloc((size_t)src->max_id + 1,
				  sizeof(*src->type_by_id));
	for (int i = 0; i < src->ntypes; i++)
		if (src->types[i].id >= 0 && src->types[i].id <= src->max_id)
			src->type_by_id[src->types[i].id] = &src->types[i];

	/* the common fields are the same in every event */
	src->type_size = src->pid_size = 0;
	src->swap = tep_is_file_bigendian(src->tep) != host_big_endian();
	for (int i = 0; list && list[i] && i < n; i++) {
		struct tep_format_field *ft, *fp;

		ft = tep_find_common_field(list[i], "common_type");
		fp = tep_find_common_field(list[i], "common_pid");
		if (!ft || !fp)
			continue;
		src->type_off = ft->offset;
		src->type_size = ft->size;
		src->pid_off = fp->offset;
		src->pid_size = fp->size;
		break;
	}
}

static struct source_event_type *find_type(struct source *src, int id)
{
	int lo = 0, hi = src->ntypes - 1;

	if (id >= 0 && id <= src->max_id)
		return src->type_by_id[id];

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		struct source_event_type *t =
			&src->types[src->type_index[mid]];

		if (t->id == id)
			return t;
		if (t->id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

struct source_event_type *source_event_types(struct source *src, int *n)
{
	*n = src->ntypes;
	return src->types;
}

const struct source_event_type *source_event_type(struct source *src, int id)
{
	return find_type(src, id);
}

int source_event_id(struct source *src, const char *system, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(src->tep, system, name);

	return e ? e->id : -1;
}

/* ------------------------------------------------------------------ */
/* Open, iterate, close */

/* Copy standard input to an unlinked temporary file; returns its fd. */
static int spool_stdin(char **errmsg)
{
	const char *dir = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/ioreport-XXXXXX", dir && *dir ? dir : "/tmp");
	char buf[65536];
	int fd = mkstemp(tmpl);

	if (fd < 0) {
		*errmsg = xasprintf("cannot create a temporary file in %s to hold standard input: %s (set TMPDIR)",
				    dir && *dir ? dir : "/tmp", strerror(errno));
		free(tmpl);
		return -1;
	}
	unlink(tmpl);
	free(tmpl);
	for (;;) {
		ssize_t k = read(STDIN_FILENO, buf, sizeof(buf));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			*errmsg = xasprintf("cannot read standard input: %s",
					    strerror(errno));
			close(fd);
			return -1;
		}
		if (k == 0)
			break;
		if (write_full(fd, buf, (size_t)k) < 0) {
			*errmsg = xasprintf("cannot spool standard input to a temporary file: %s (set TMPDIR to a larger filesystem)",
					    strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

struct source *source_open(const char *path, char **errmsg)
{
	struct source *src = xcalloc(1, sizeof(*src));
	uint8_t magic[64];
	ssize_t n;
	int ret;

	*errmsg = NULL;
	src->path = xstrdup(strcmp(path, "-") ? path : "<stdin>");
	src->info.path = src->path;
	src->only_cpu = -1;
	src->last = -1;
	src->fd = -1;
	trace_seq_init(&src->seq);
	tep_set_loglevel(TEP_LOG_NONE);
	tracecmd_set_loglevel(TEP_LOG_NONE);

	if (!strcmp(path, "-")) {
		src->fd = spool_stdin(errmsg);
	} else {
		struct stat st;

		src->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (src->fd < 0) {
			*errmsg = xasprintf("cannot open '%s': %s", path,
					    strerror(errno));
		} else if (fstat(src->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			*errmsg = xasprintf("'%s' is a directory, not a recording",
					    path);
		}
	}
	if (*errmsg)
		goto fail;

	do {
		n = pread(src->fd, magic, sizeof(magic) - 1, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		*errmsg = xasprintf("cannot read '%s': %s", src->path,
				    strerror(errno));
		goto fail;
	}
	magic[n] = '\0';
	if (n == 0) {
		*errmsg = xasprintf("%s: empty file, not an iorec or trace.dat recording",
				    src->path);
		goto fail;
	}
	if (n >= IOREC_MAGIC_LEN && !memcmp(magic, IOREC_MAGIC,
					     IOREC_MAGIC_LEN)) {
		src->info.kind = SOURCE_IOREC;
		ret = iorec_load(src, errmsg);
	} else if (n >= TRACEDAT_MAGIC_LEN &&
		   !memcmp(magic, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN)) {
		src->info.kind = SOURCE_TRACEDAT;
		ret = tracedat_load(src, magic, (size_t)n, errmsg);
	} else {
		*errmsg = xasprintf("%s: not an iorec or trace.dat file (bad magic at offset 0)",
				    src->path);
		ret = -1;
	}
	if (ret < 0)
		goto fail;
	build_types(src);
	return src;
fail:
	source_close(src);
	return NULL;
}

void source_close(struct source *src)
{
	struct source_info *in;

	if (!src)
		return;
	if (swap_tep == src->tep)
		swap_tep = NULL;
	in = &src->info;
	for (int i = 0; i < in->nr_cpus; i++) {
		struct cursor *cur = &src->cursors[i];

		free(cur->refs);
		free(cur->buf);
		kbuffer_free(cur->kbuf);
		if (cur->trec)
			tracecmd_free_record(cur->trec);
	}
	free(src->cursors);
	free(in->cpus);
	/* a trace.dat handle owns its tep; an .iorec tep is ours */
	if (src->handle)
		tracecmd_close(src->handle);
	if (src->parent)
		tracecmd_close(src->parent);
	if (!src->handle && !src->parent && src->tep)
		tep_free(src->tep);
	iorec_reader_close(src->reader);
	if (src->fd >= 0)
		close(src->fd);
	free((char *)in->header_text);
	free((char *)in->header_page);
	free((char *)in->snapshot_start);
	free((char *)in->snapshot_end);
	free((char *)in->syscalls);
	free((char *)in->cmdlines);
	free((char *)in->stats);
	free((char *)in->end_text);
	for (size_t i = 0; i < src->nsyscalls; i++)
		free(src->syscalls[i].name);
	free(src->syscalls);
	damage_release(&src->damage);
	free(src->marks);
	free(src->types);
	free(src->type_index);
	free(src->type_by_id);
	while (src->nwarn) {
		free(src->warnings[src->warn_head]);
		src->warn_head = (src->warn_head + 1) % MAX_WARNINGS;
		src->nwarn--;
	}
	trace_seq_destroy(&src->seq);
	free(src->print_buf);
	free(src->path);
	free(src);
}

const struct source_info *source_info(struct source *src)
{
	return &src->info;
}

void source_set_cpu(struct source *src, int cpu)
{
	src->only_cpu = cpu;
}

static void cursor_next(struct source *src, struct cursor *cur)
{
	if (src->info.kind == SOURCE_IOREC)
		iorec_cursor_next(src, cur);
	else
		tracedat_cursor_next(src, cur);
}

static struct tep_record *cursor_rec(struct cursor *cur)
{
	return cur->trec ? cur->trec : &cur->rec;
}

/* An unsigned integer of 1, 2, 4 or 8 bytes in the recording's order. */
static inline uint64_t read_num(const struct source *src, const void *p,
				int size)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		memcpy(&v16, p, 2);
		return src->swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return src->swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return src->swap ? __builtin_bswap64(v64) : v64;
	default:
		return 0;
	}
}

int source_next(struct source *src, struct source_event *ev)
{
	struct source_info *in = &src->info;
	struct cursor *best = NULL;
	struct tep_record *rec;
	struct source_event_type *t;
	struct source_cpu *sc;

	if (!src->started) {
		for (int i = 0; i < in->nr_cpus; i++) {
			if (src->only_cpu >= 0 && i != src->only_cpu) {
				src->cursors[i].done = true;
				continue;
			}
			cursor_next(src, &src->cursors[i]);
		}
		src->started = true;
	} else if (src->last >= 0) {
		cursor_next(src, &src->cursors[src->last]);
	}
	src->last = -1;

	for (int i = 0; i < in->nr_cpus; i++) {
		struct cursor *cur = &src->cursors[i];

		if (cur->valid &&
		    (!best || cursor_rec(cur)->ts < cursor_rec(best)->ts))
			best = cur;
	}
	if (!best)
		return 0;
	src->last = best->cpu;
	rec = cursor_rec(best);

	ev->ts = rec->ts;
	ev->cpu = best->cpu;
	ev->data = rec->data;
	ev->size = rec->size;
	ev->missed = rec->missed_events;
	/* damage: the first event at or after an end of a lost span */
	if (best->next_mark < src->nmarks &&
	    src->marks[best->next_mark] <= rec->ts) {
		while (best->next_mark < src->nmarks &&
		       src->marks[best->next_mark] <= rec->ts)
			best->next_mark++;
		if (!ev->missed)
			ev->missed = -1;
	}
	ev->priv = rec;
	if (src->type_size && src->type_off + src->type_size <= rec->size &&
	    src->pid_off + src->pid_size <= rec->size) {
		ev->id = (int)read_num(src, (const char *)rec->data +
				       src->type_off, src->type_size);
		ev->pid = (int)read_num(src, (const char *)rec->data +
					src->pid_off, src->pid_size);
	} else {
		/*
		 * guard: no format gave the common fields, or the record is
		 * too short for them: libtraceevent would read them anyway
		 */
		ev->id = -1;
		ev->pid = 0;
	}

	t = find_type(src, ev->id);
	if (t)
		t->count++;
	sc = &in->cpus[best->cpu];
	if (!sc->events)
		sc->first_event_ts = ev->ts;
	sc->last_event_ts = ev->ts;
	sc->events++;
	if (in->kind == SOURCE_TRACEDAT) {
		/* trace.dat has no index with time ranges: learn them. */
		if (!in->first_ts || ev->ts < in->first_ts)
			in->first_ts = ev->ts;
		if (ev->ts > in->last_ts)
			in->last_ts = ev->ts;
		if (!sc->first_ts || ev->ts < sc->first_ts)
			sc->first_ts = ev->ts;
		if (ev->ts > sc->last_ts)
			sc->last_ts = ev->ts;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* Fields and printing */

struct source_field *source_field(struct source *src, int id,
				  const char *name)
{
	struct tep_event *e = tep_find_event(src->tep, id);

	if (!e)
		return NULL;
	return (struct source_field *)tep_find_any_field(e, name);
}

/* Does the field lie inside the record (offset and size non-negative)? */
static inline bool field_inside(const struct tep_format_field *field,
				const struct source_event *ev)
{
	return field->offset >= 0 && field->size >= 0 && ev->size >= 0 &&
	       (long long)field->offset + field->size <= ev->size;
}

static inline bool field_swap(const struct tep_format_field *field)
{
	const struct tep_handle *tep = field->event->tep;

	if (tep != swap_tep) {
		swap_val = tep_is_file_bigendian((struct tep_handle *)tep) !=
			   host_big_endian();
		swap_tep = tep;
	}
	return swap_val;
}

int source_field_u64(const struct source_field *f,
		     const struct source_event *ev, uint64_t *val)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	const char *p;
	unsigned long long v;
	bool swap;

	/* the offset and size are ints from a format text: never trusted */
	if (!field || !field_inside(field, ev))
		return -1;
	/* the common case without libtraceevent's general path */
	p = (const char *)ev->data + field->offset;
	swap = field_swap(field);
	switch (field->size) {
	case 1:
		*val = *(const uint8_t *)p;
		return 0;
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		*val = swap ? __builtin_bswap16(x) : x;
		return 0;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		*val = swap ? __builtin_bswap32(x) : x;
		return 0;
	}
	case 8: {
		uint64_t x;

		memcpy(&x, p, 8);
		*val = swap ? __builtin_bswap64(x) : x;
		return 0;
	}
	default:
		break;
	}
	if (tep_read_number_field(field, ev->data, &v))
		return -1;
	*val = v;
	return 0;
}

int source_field_s64(const struct source_field *f,
		     const struct source_event *ev, int64_t *val)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	uint64_t v;

	if (source_field_u64(f, ev, &v))
		return -1;
	if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size < 8 &&
	    (v & (1ULL << (field->size * 8 - 1))))
		v |= ~0ULL << (field->size * 8);
	*val = (int64_t)v;
	return 0;
}

int source_field_str(const struct source_field *f,
		     const struct source_event *ev, char *buf, size_t bufsz)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	unsigned int off, len;
	size_t n;

	if (!field || !bufsz || !field_inside(field, ev))
		return -1;
	off = (unsigned int)field->offset;
	len = (unsigned int)field->size;
	if (field->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (tep_read_number_field(field, ev->data, &loc))
			return -1;
		off = (unsigned int)(loc & 0xffff);
		len = (unsigned int)(loc >> 16) & 0xffff;
		if (field->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(field->offset + field->size);
	}
	if ((uint64_t)off + len > (uint64_t)ev->size)
		return -1;
	n = strnlen((const char *)ev->data + off, len);
	if (n >= bufsz)
		n = bufsz - 1;
	memcpy(buf, (const char *)ev->data + off, n);
	buf[n] = '\0';
	return 0;
}

/* guard: ev's record copied in front of PRINT_SLACK zeroes. */
static struct tep_record *print_record(struct source *src,
				       const struct source_event *ev)
{
	struct tep_record *rec = ev->priv;
	size_t size = rec->size > 0 ? (size_t)rec->size : 0;

	if (src->print_alloc < size + PRINT_SLACK) {
		free(src->print_buf);
		src->print_alloc = size + PRINT_SLACK;
		src->print_buf = xcalloc(1, src->print_alloc);
	} else {
		memset(src->print_buf, 0, src->print_used);
	}
	memcpy(src->print_buf, rec->data, size);
	src->print_used = size;
	src->print_rec = *rec;
	src->print_rec.data = src->print_buf;
	return &src->print_rec;
}

void source_format_event(struct source *src, const struct source_event *ev,
			 bool raw, struct strbuf *out)
{
	struct tep_record *rec = print_record(src, ev);
	const struct source_event_type *t = find_type(src, ev->id);
	const char *name = t ? t->name : "(NULL)";
	int len = (int)strlen(name);

	trace_seq_reset(&src->seq);
	tep_print_event(src->tep, &src->seq, rec, "%16s-%-5d [%03d]",
			TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU);
	tep_print_event(src->tep, &src->seq, rec, " %6.1000d:", TEP_PRINT_TIME);
	trace_seq_printf(&src->seq, " %s: %*s", name, len < 20 ? 20 - len : 0,
			 "");
	tep_print_event(src->tep, &src->seq, rec, "%s",
			raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	trace_seq_terminate(&src->seq);
	if (src->seq.len && src->seq.buffer[src->seq.len - 1] == '\n')
		src->seq.len--;
	strbuf_add(out, src->seq.buffer, src->seq.len);
}

void source_format_fields(struct source *src, const struct source_event *ev,
			  bool raw, struct strbuf *out)
{
	struct tep_record *rec = print_record(src, ev);

	trace_seq_reset(&src->seq);
	tep_print_event(src->tep, &src->seq, rec, "%s",
			raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	trace_seq_terminate(&src->seq);
	while (src->seq.len && src->seq.buffer[src->seq.len - 1] == '\n')
		src->seq.len--;
	strbuf_add(out, src->seq.buffer, src->seq.len);
}

const char *source_comm(struct source *src, int pid)
{
	struct comm_cache *cc = &src->comms[(unsigned int)pid % COMM_CACHE];
	const char *c;

	if (cc->comm && cc->pid == pid)
		return cc->comm;
	c = tep_data_comm_from_pid(src->tep, pid);
	if (!c)
		c = "<...>";
	/* libtraceevent keeps its comm strings until the handle is freed */
	cc->pid = pid;
	cc->comm = c;
	return c;
}

/* ------------------------------------------------------------------ */
/* Array elements and string-ness of fields (used by decode-sys.c) */

int source_field_array_u64(const struct source_field *f,
			   const struct source_event *ev, int idx,
			   uint64_t *val)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	unsigned int esize;
	long long off;

	if (!field || idx < 0 || !(field->flags & TEP_FIELD_IS_ARRAY) ||
	    (field->flags & TEP_FIELD_IS_DYNAMIC))
		return -1;
	esize = field->elementsize;
	if (!field->arraylen || (unsigned int)idx >= field->arraylen ||
	    (esize != 1 && esize != 2 && esize != 4 && esize != 8))
		return -1;
	off = (long long)field->offset + (long long)idx * esize;
	if (field->offset < 0 || off + esize > ev->size ||
	    (long long)idx * esize + esize > (long long)field->size)
		return -1;
	*val = tep_read_number(field->event->tep,
			       (const char *)ev->data + off, (int)esize);
	return 0;
}

bool source_field_is_string(const struct source_field *f)
{
	const struct tep_format_field *field = (const struct tep_format_field *)f;

	if (!field || (field->flags & TEP_FIELD_IS_POINTER) || !field->type)
		return false;
	if (!(field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	return strstr(field->type, "char") != NULL;
}

/* Does the print argument tree a read field `name`? */
static bool arg_uses_field(const struct tep_print_arg *a, const char *name)
{
	if (!a)
		return false;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return a->field.name && !strcmp(a->field.name, name);
	case TEP_PRINT_OP:
		return arg_uses_field(a->op.left, name) ||
		       arg_uses_field(a->op.right, name);
	case TEP_PRINT_TYPE:
		return arg_uses_field(a->typecast.item, name);
	default:
		return false;
	}
}

static long find_divisor(const struct tep_print_arg *a, const char *name)
{
	long v;

	for (; a; a = a->next) {
		if (a->type == TEP_PRINT_TYPE) {
			v = find_divisor(a->typecast.item, name);
			if (v)
				return v;
		}
		if (a->type != TEP_PRINT_OP || !a->op.op)
			continue;
		if (!strcmp(a->op.op, "/") && a->op.right &&
		    a->op.right->type == TEP_PRINT_ATOM &&
		    arg_uses_field(a->op.left, name))
			return strtol(a->op.right->atom.atom, NULL, 0);
		v = find_divisor(a->op.left, name);
		if (!v)
			v = find_divisor(a->op.right, name);
		if (v)
			return v;
	}
	return 0;
}

long source_event_print_divisor(struct source *src, int id, const char *field)
{
	struct tep_event *e = tep_find_event(src->tep, id);

	return e ? find_divisor(e->print_fmt.args, field) : 0;
}
