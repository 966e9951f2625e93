// SPDX-License-Identifier: MIT
/*
 * source-iorec.c - an .iorec recording for source.c: pass 1 loads its
 * metadata into the tep handle and strings (through the guarded loaders
 * of source.c) and indexes its DATA chunks per CPU, resynchronising past
 * damaged chunks; pass 2 walks one decompressed chunk per CPU with a
 * kbuffer on one of its pages.
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

#include "iorec-format.h"
#include "util.h"
#include "base/err.h"
#include "input/source.h"
#include "input/source-priv.h"
#include "input/meta.h"
#include "input/damage.h"
#include "input/ftrace-guard.h"
#include "tracedat.h"

/* Zeroes after a chunk's pages so kbuffer never reads past our buffer. */
#define PAGE_SLACK		64

/*
 * Memory caps (docs/iorec.5, "Memory"): the pages pass 2 holds at once,
 * one chunk per CPU, and the metadata of pass 1, whatever the frames
 * claim to expand to.  A chunk beyond a cap is a damaged region.
 */
#define DATA_CAP		(1ull << 30)
#define META_CAP		(256ull << 20)

/*
 * The len bytes at p appended to *text (a chunk kind that may come more
 * than once), on a line of their own; src->nomem set when out of memory.
 */
static void append_text(struct source *src, const char **text,
			const uint8_t *p, size_t len)
{
	size_t have = *text ? strlen(*text) : 0;
	bool nl = have && (*text)[have - 1] != '\n';
	char *s = realloc((char *)*text, have + nl + len + 1);

	if (!s) {
		src->nomem = true;
		return;
	}
	if (nl)
		s[have++] = '\n';
	memcpy(s + have, p, len);
	s[have + len] = '\0';
	*text = s;
}

/* ------------------------------------------------------------------ */
/* Pass 1: .iorec metadata and index */

/*
 * Register the comms of a snapshot's proc and thread lines, so events of
 * processes that never passed through saved_cmdlines are named.
 */
/* proc PID PPID COMM ...; thread TID PID COMM */
static int register_comm(char **f, int n, void *arg)
{
	struct source *src = arg;

	if (n >= 4 && (!strcmp(f[0], "proc") || !strcmp(f[0], "thread")) &&
	    *f[3])
		tep_register_comm(src->tep, f[3], atoi(f[1]));
	return 0;
}

static void register_snapshot_comms(struct source *src, const char *text)
{
	meta_lines(text, NULL, register_comm, src);
}

static void index_data(struct source *src, const struct iorec_chunk *c,
		       int file)
{
	const struct iorec_data_desc *d = &c->data;
	struct source_cpu *sc;
	struct cursor *cur;

	if (d->subbuf_size < 16 || !d->npages) {
		source_warn(src, "%s: data chunk at offset %llu has %u pages of %u bytes; skipped",
			      src->path, (unsigned long long)c->offset,
			      d->npages, d->subbuf_size);
		return;
	}
	if (!source_ensure_cpu(src, (int)d->cpu))
		return;
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
	if (an_grow(&cur->refs, &cur->refs_alloc, cur->nrefs + 1,
		    sizeof(*cur->refs), 16)) {
		src->nomem = true;
		return;
	}
	cur->refs[cur->nrefs].offset = c->offset;
	cur->refs[cur->nrefs].npages = d->npages;
	cur->refs[cur->nrefs].stored_len = c->stored_len;
	cur->refs[cur->nrefs].first_ts = d->first_ts;
	cur->refs[cur->nrefs].last_ts = d->last_ts;
	damage_chunk(&src->damage, d);
	cur->refs[cur->nrefs].gap = false;	/* set by publish_damage() */
	cur->refs[cur->nrefs].file = file;
	cur->nrefs++;
	if (src->set) {
		struct source_set_file *sf = &src->set[file];

		if (!sf->chunks || d->first_ts < sf->first_ts)
			sf->first_ts = d->first_ts;
		if (d->last_ts > sf->last_ts)
			sf->last_ts = d->last_ts;
		sf->chunks++;
	}

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
	in->header_text = source_dup_text(src, (const uint8_t *)h->text, h->text_len);

	src->tep = tep_alloc();
	if (!src->tep || !in->header_text)
		return -1;
	tep_set_file_bigendian(src->tep, in->big_endian ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(src->tep, host_big_endian() ? TEP_BIG_ENDIAN :
				TEP_LITTLE_ENDIAN);
	tep_set_long_size(src->tep, h->long_size);
	tep_set_page_size(src->tep, (int)h->subbuf_size);
	tep_set_cpus(src->tep, (int)h->ncpus);
	return source_ensure_cpu(src, (int)h->ncpus - 1) ? 0 : -1;
}

/*
 * A syscall table chunk of an ABI: its text kept in *text, its names in
 * tab.  what names the chunk and whose the programs, in the warning when
 * no line names a syscall.
 */
static void load_syscalls(struct source *src, const struct iorec_chunk *c,
			  const char **text, struct syscall_tab *tab,
			  const char *what, const char *whose)
{
	free((char *)*text);
	*text = source_dup_text(src, c->payload, c->payload_len);
	if (!*text)
		return;
	source_load_syscalls(src, tab, *text);
	if (!tab->n)
		source_warn(src, "%s: %s chunk at offset %llu has no \"NR\tNAME\" line; %sraw syscall numbers are not named",
			    src->path, what, (unsigned long long)c->offset,
			    whose);
}

/*
 * A later file of a rotated set: the metadata of the recording is the
 * first file's (each file holds a copy); only what ends a file moves on
 * to the next: the end snapshot, stats and end chunk replace the
 * previous file's, its EXEC_ABI lines (all of the recording so far)
 * replace the previous, its saved cmdlines add to theirs.
 */
static void load_member_meta(struct source *src, const struct iorec_chunk *c,
			     bool *exec_seen)
{
	struct source_info *in = &src->info;
	const uint8_t *p = c->payload;
	size_t len = c->payload_len;

	switch (c->type) {
	case IOREC_CHUNK_SNAPSHOT:
		if (len >= 8 && iorec_get32(p) != IOREC_SNAP_START) {
			char *text = source_dup_text(src, p + 8, len - 8);

			if (text) {
				free((char *)in->snapshot_end);
				in->snapshot_end = text;
			}
		}
		break;
	case IOREC_CHUNK_EXEC_ABI:
		if (!*exec_seen) {
			free((char *)in->exec_abi);
			in->exec_abi = NULL;
			*exec_seen = true;
		}
		append_text(src, &in->exec_abi, p, len);
		break;
	case IOREC_CHUNK_CMDLINES:
		append_text(src, &in->cmdlines, p, len);
		break;
	case IOREC_CHUNK_STATS:
		free((char *)in->stats);
		in->stats = source_dup_text(src, p, len);
		break;
	case IOREC_CHUNK_END:
		free((char *)in->end_text);
		in->end_text = source_dup_text(src, p, len);
		in->seen_end = true;
		break;
	default:
		break;		/* the first file's copy is the one used */
	}
}

/* Handle one metadata chunk whose payload is loaded. */
static void load_meta(struct source *src, const struct iorec_chunk *c)
{
	struct source_info *in = &src->info;
	const uint8_t *p = c->payload;
	size_t len = c->payload_len;

	switch (c->type) {
	case IOREC_CHUNK_HEADER_PAGE: {
		char *text = source_dup_text(src, p, len);

		if (text)
			source_header_page(src, text, len, c->offset,
					   "header_page");
		break;
	}
	case IOREC_CHUNK_EVENT_FORMAT: {
		const uint8_t *nul = memchr(p, '\0', len);
		const char *text;

		in->format_chunks++;
		if (!nul) {
			in->bad_formats++;
			source_warn(src, "%s: event format chunk at offset %llu has no system name; skipped",
				    src->path, (unsigned long long)c->offset);
			break;
		}
		text = (const char *)nul + 1;
		source_event_format(src, (const char *)p, text,
				    len - (size_t)(nul + 1 - p), c->offset,
				    (c->flags & IOREC_CF_ZSTD) ? 0 :
				    c->offset + IOREC_CHUNK_HEADER_LEN +
				    (uint64_t)(text - (const char *)p),
				    "event format chunk");
		break;
	}
	case IOREC_CHUNK_SNAPSHOT: {
		uint32_t phase;
		char *text;

		if (len < 8) {
			source_warn(src, "%s: snapshot chunk at offset %llu is too short; skipped",
				      src->path, (unsigned long long)c->offset);
			break;
		}
		phase = iorec_get32(p);
		text = source_dup_text(src, p + 8, len - 8);
		if (!text)
			break;
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
		load_syscalls(src, c, &in->syscalls, &src->syscalls,
			      "syscalls", "");
		break;
	case IOREC_CHUNK_COMPAT_SYSCALLS:
		load_syscalls(src, c, &in->compat_syscalls, &src->compat,
			      "compat syscalls", "32-bit programs' ");
		break;
	case IOREC_CHUNK_EXEC_ABI:
		append_text(src, &in->exec_abi, p, len);
		break;
	case IOREC_CHUNK_CMDLINES:
		free((char *)in->cmdlines);
		in->cmdlines = source_dup_text(src, p, len);
		break;
	case IOREC_CHUNK_STATS:
		free((char *)in->stats);
		in->stats = source_dup_text(src, p, len);
		break;
	case IOREC_CHUNK_END:
		free((char *)in->end_text);
		in->end_text = source_dup_text(src, p, len);
		in->seen_end = true;
		break;
	case IOREC_CHUNK_PRINTK:
		source_printk(src, (const char *)p, len, c->offset);
		break;
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
 * the region in the file.  No memory: src->nomem, and no marks.
 */
static void place_marks(struct source *src)
{
	struct source_info *in = &src->info;

	free(src->marks);
	src->nmarks = 0;
	src->marks = an_calloc((size_t)in->ndamaged * 2 + 1, sizeof(uint64_t));
	if (!src->marks) {
		src->nomem = true;
		return;
	}
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
	if (src->damage.err)
		src->nomem = true;
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
 * or nothing valid after the damage), -IOREC_E_NOMEM.
 */
static int skip_damage(struct source *src, struct iorec_reader *rd, int fd,
		       int err)
{
	struct iorec_gap gap;
	struct stat st;
	int ret = iorec_reader_resync(rd, &gap);

	if (ret == -IOREC_E_NOMEM)
		return ret;
	if (ret > 0 || (ret == 0 && gap.error != -IOREC_E_TRUNCATED)) {
		damage_add_gap(&src->damage, &gap, iorec_strerror(gap.error));
		return ret;
	}
	if (err == -IOREC_E_AFTER_END && !fstat(fd, &st)) {
		/* what follows the end chunk is not the recording's */
		memset(&gap, 0, sizeof(gap));
		gap.offset = iorec_reader_error_offset(rd);
		gap.length = (uint64_t)st.st_size > gap.offset ?
			     (uint64_t)st.st_size - gap.offset : 0;
		gap.to_end = true;
		gap.error = err;
		damage_add_gap(&src->damage, &gap, iorec_strerror(err));
	}
	return 0;
}

/*
 * Whether header text b (a later file of a rotated set) is a's but for
 * its rotation_index line: the same recording.
 */
static bool same_recording(const char *a, const char *b)
{
	for (;;) {
		const char *ea, *eb;

		if (!strncmp(a, "rotation_index=", 15))
			a += strcspn(a, "\n") + (a[strcspn(a, "\n")] == '\n');
		if (!strncmp(b, "rotation_index=", 15))
			b += strcspn(b, "\n") + (b[strcspn(b, "\n")] == '\n');
		if (!*a || !*b)
			return !*a && !*b;
		ea = a + strcspn(a, "\n");
		eb = b + strcspn(b, "\n");
		if (ea - a != eb - b || memcmp(a, b, (size_t)(ea - a)))
			return false;
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
	}
}

/*
 * Pass 1 over file @file of the recording (0: the only or first file,
 * at src->fd; a later file of a rotated set: src->members[file]).
 * Returns 0, or a negative AN_E_* with e filled.
 */
static int load_file(struct source *src, int file, struct an_err *e)
{
	struct source_info *in = &src->info;
	struct iorec_reader *rd = file ? src->members[file].reader :
				  src->reader;
	int fd = file ? src->members[file].fd : src->fd;
	const char *path = file ? src->members[file].path : src->path;
	bool have_header = file > 0, exec_seen = false;
	struct iorec_chunk c;
	int ret;

	in->seen_end = false;
	for (;;) {
		uint64_t mends = iorec_reader_repairs(rd, NULL), at;

		ret = iorec_reader_next(rd, &c, false);
		if (ret > 0 && iorec_reader_repairs(rd, &at) != mends)
			source_warn(src, "%s: chunk at offset %llu: one damaged byte (offset %llu) mended from the chunk's CRC-32C; nothing lost",
				    path, (unsigned long long)c.offset,
				    (unsigned long long)at);
		if (ret == 0)
			break;
		/* no memory is no damage: the open fails */
		if (ret == -IOREC_E_NOMEM)
			return an_nomem(e, path);
		if (ret < 0) {
			int regions = src->damage.n;
			int r = have_header ? skip_damage(src, rd, fd, ret) : 0;

			/* damage: resynchronise after it, or stop */
			if (r == -IOREC_E_NOMEM)
				return an_nomem(e, path);
			if (r > 0)
				continue;
			if (src->damage.n == regions &&
			    in->integrity == SOURCE_COMPLETE) {
				in->integrity = ret == -IOREC_E_TRUNCATED ?
					SOURCE_TRUNCATED : SOURCE_CORRUPT;
				in->stop_offset = iorec_reader_error_offset(rd);
				in->stop_reason = iorec_strerror(ret);
			}
			if (file)
				source_warn(src, "%s: %s at offset %llu; the set is read on from the next file",
					    path, iorec_strerror(ret),
					    (unsigned long long)iorec_reader_error_offset(rd));
			break;
		}
		in->chunks++;
		if (!file)
			in->file_bytes = c.offset + IOREC_CHUNK_HEADER_LEN +
					 c.stored_len;
		if (src->set)
			src->set[file].bytes = c.offset +
				IOREC_CHUNK_HEADER_LEN + c.stored_len;
		if (c.type == IOREC_CHUNK_DATA) {
			if (have_header)
				index_data(src, &c, file);
			continue;
		}
		if (file && c.type != IOREC_CHUNK_HEADER &&
		    c.type != IOREC_CHUNK_SNAPSHOT &&
		    c.type != IOREC_CHUNK_EXEC_ABI &&
		    c.type != IOREC_CHUNK_CMDLINES &&
		    c.type != IOREC_CHUNK_STATS && c.type != IOREC_CHUNK_END)
			continue;	/* the first file's copy is used */
		/* damage: metadata stays under META_CAP */
		if (have_header && src->meta_bytes + c.raw_len > META_CAP) {
			damage_add_chunk(&src->damage, c.offset,
					 IOREC_CHUNK_HEADER_LEN + c.stored_len,
					 NULL, "metadata beyond the 256 MiB cap");
			continue;
		}
		src->meta_bytes += c.raw_len;
		ret = iorec_reader_read_at(rd, c.offset, &c);
		if (ret == -IOREC_E_NOMEM)
			return an_nomem(e, path);
		if (ret < 0) {
			source_warn(src, "%s: chunk at offset %llu (type %u): %s; skipped",
				      path, (unsigned long long)c.offset,
				      c.type, iorec_strerror(ret));
			continue;
		}
		if (c.type == IOREC_CHUNK_HEADER) {
			struct iorec_header h;
			char *text;

			if (have_header && !file)
				continue;
			ret = iorec_header_parse(c.payload, c.payload_len, &h);
			if (ret < 0)
				return an_fail(e, AN_E_DAMAGED, "%s: corrupt at offset %llu: header chunk: %s",
					       path,
					       (unsigned long long)c.offset,
					       iorec_strerror(ret));
			if (!file) {
				if (setup_tep(src, &h) < 0)
					return an_nomem(e, path);
				if (damage_init(&src->damage, h.ncpus) < 0)
					return an_nomem(e, path);
				have_header = true;
				continue;
			}
			/* a later file of the set: the same recording? */
			text = source_dup_text(src, (const uint8_t *)h.text,
					       h.text_len);
			if (!text)
				return an_nomem(e, path);
			ret = same_recording(in->header_text, text) &&
			      h.ncpus == in->ncpus &&
			      h.subbuf_size == in->subbuf_size &&
			      h.long_size == in->long_size;
			free(text);
			if (!ret)
				return an_fail(e, AN_E_FORMAT, "%s is not of the recording of %s (their headers differ): remove or move the files of another recording named like it",
					       path, src->members[0].path);
			continue;
		}
		if (file)
			load_member_meta(src, &c, &exec_seen);
		else if (have_header)
			load_meta(src, &c);
		if (src->nomem)
			return an_nomem(e, path);
	}

	if (!file && !have_header && in->integrity == SOURCE_COMPLETE)
		return an_fail(e, AN_E_DAMAGED, "%s: truncated at offset %llu: the file ends after its file header; it holds no recording",
			       path, (unsigned long long)in->file_bytes);
	if (!file && !have_header)
		return an_fail(e, AN_E_DAMAGED, "%s: %s at offset %llu: %s; the file holds no recording header",
			       path,
			       meta_integrity(in->integrity),
			       (unsigned long long)in->stop_offset,
			       in->stop_reason ? in->stop_reason : "no chunks");
	if (src->set)
		src->set[file].end = in->seen_end;
	if (src->set && file < src->nmembers - 1 && !in->seen_end)
		source_warn(src, "%s: no end chunk (the file was cut short); the set is read on from the next file",
			    path);
	return 0;
}

/*
 * A rotated set, after pass 1: the files missing between two of it and
 * the overlap of a CPU's data from one file to the next, said in
 * warnings and info.set; the first chunk of every CPU after missing
 * files is marked as preceded by lost events, so no pair spans them.
 */
static void check_set(struct source *src)
{
	struct source_info *in = &src->info;

	for (int k = 1; k < src->nmembers; k++) {
		struct source_set_file *sf = &src->set[k], *prev = &src->set[k - 1];

		sf->missing_before = sf->index - prev->index - 1;
	}
	for (int c = 0; c < in->nr_cpus; c++) {
		struct cursor *cur = &src->cursors[c];

		for (size_t i = 1; i < cur->nrefs; i++) {
			struct chunk_ref *r = &cur->refs[i], *p = &cur->refs[i - 1];
			struct source_set_file *sf = &src->set[r->file];

			if (r->file == p->file)
				continue;
			/* the time lost: the longest of a CPU's */
			if (sf->missing_before) {
				r->gap = true;
				if (r->first_ts > p->last_ts &&
				    r->first_ts - p->last_ts > sf->gap_ns)
					sf->gap_ns = r->first_ts - p->last_ts;
			}
			if (r->first_ts < p->last_ts &&
			    p->last_ts - r->first_ts > sf->overlap_ns)
				sf->overlap_ns = p->last_ts - r->first_ts;
		}
	}
	for (int k = 1; k < src->nmembers; k++) {
		const struct source_set_file *sf = &src->set[k];
		const struct source_set_file *prev = &src->set[k - 1];

		if (sf->missing_before == 1)
			source_warn(src, "%s: file %04u of the rotation is missing between %s and %s: %.3f s of the recording are not read",
				    src->path, prev->index + 1, prev->path,
				    sf->path, (double)sf->gap_ns / 1e9);
		else if (sf->missing_before)
			source_warn(src, "%s: files %04u-%04u of the rotation are missing between %s and %s: %.3f s of the recording are not read",
				    src->path, prev->index + 1, sf->index - 1,
				    prev->path, sf->path,
				    (double)sf->gap_ns / 1e9);
		if (sf->overlap_ns)
			source_warn(src, "%s: %s starts %.6f s before %s ends on a CPU: their events overlap and are read out of order",
				    src->path, sf->path,
				    (double)sf->overlap_ns / 1e9, prev->path);
	}
}

int source_iorec_load(struct source *src, struct an_err *e)
{
	struct source_info *in = &src->info;
	uint16_t major, minor;
	int err, ret;

	src->reader = iorec_reader_open_fd(src->fd, &err);
	if (!src->reader) {
		if (err == -IOREC_E_BAD_VERSION)
			return an_fail(e, AN_E_FORMAT, "%s: .iorec format version not supported by this ioreport (it reads %d.x); upgrade ioreport",
				       src->nmembers ? src->members[0].path : src->path,
				       IOREC_VERSION_MAJOR);
		return an_fail(e, err == -IOREC_E_NOMEM ? AN_E_NOMEM :
			       AN_E_DAMAGED, "%s: %s at offset 0",
			       src->nmembers ? src->members[0].path : src->path,
			       iorec_strerror(err));
	}
	iorec_reader_version(src->reader, &major, &minor);
	in->version_major = major;
	in->version_minor = minor;
	in->file_bytes = IOREC_FILE_HEADER_LEN;

	for (int k = 0; k < (src->nmembers ? src->nmembers : 1); k++) {
		if (k) {
			struct set_member *m = &src->members[k];

			m->reader = iorec_reader_open_fd(m->fd, &err);
			if (!m->reader)
				return an_fail(e, err == -IOREC_E_NOMEM ?
					       AN_E_NOMEM : AN_E_DAMAGED,
					       "%s: %s at offset 0", m->path,
					       iorec_strerror(err));
		}
		ret = load_file(src, k, e);
		if (ret < 0)
			return ret;
	}
	if (src->set) {
		in->file_bytes = 0;
		for (int k = 0; k < src->nmembers; k++)
			in->file_bytes += src->set[k].bytes;
		in->set = src->set;
		in->set_files = src->nmembers;
		check_set(src);
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
	if (src->nomem)
		return an_nomem(e, src->path);

	/* First registration wins: saved_cmdlines, then the snapshots. */
	if (source_cmdlines(src) < 0)
		return an_nomem(e, src->path);
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

/* Load the next DATA chunk of cur into its buffer.  false: none left. */
static bool cursor_load_chunk(struct source *src, struct cursor *cur)
{
	struct iorec_chunk c;

	while (cur->next_ref < cur->nrefs) {
		const struct chunk_ref *ref = &cur->refs[cur->next_ref++];
		size_t body;
		int ret;

		ret = iorec_reader_read_at(ref->file ?
					   src->members[ref->file].reader :
					   src->reader, ref->offset, &c);
		if (ret == -IOREC_E_NOMEM) {
			/* the walk stops: source_next() says why */
			src->read_err = -AN_E_NOMEM;
			return false;
		}
		if (ret < 0) {
			struct iorec_data_desc d = {
				.cpu = (uint32_t)cur->cpu,
				.first_ts = ref->first_ts,
				.last_ts = ref->last_ts,
			};

			source_warn(src, "%s: data chunk at offset %llu (cpu %d): %s; its events are skipped",
				      src->nmembers ?
				      src->members[ref->file].path : src->path,
				      (unsigned long long)ref->offset,
				      cur->cpu, iorec_strerror(ret));
			/* damage: a region, and a gap before what follows */
			damage_add_chunk(&src->damage, ref->offset,
					 IOREC_CHUNK_HEADER_LEN + ref->stored_len,
					 &d, iorec_strerror(ret));
			publish_damage(src);
			if (src->nomem) {
				/* the walk stops: source_next() says why */
				src->read_err = -AN_E_NOMEM;
				return false;
			}
			cur->pending_missed = -1;
			continue;
		}
		if (ref->gap)
			cur->pending_missed = -1;	/* damage before it */
		body = c.payload_len - IOREC_DATA_DESC_LEN;
		if (cur->buf_alloc < body + PAGE_SLACK) {
			free(cur->buf);
			cur->buf_alloc = body + PAGE_SLACK;
			cur->buf = malloc(cur->buf_alloc);
			if (!cur->buf) {
				/* the walk stops: source_next() says why */
				cur->buf_alloc = 0;
				src->read_err = -AN_E_NOMEM;
				return false;
			}
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
bool source_iorec_load_page(struct source *src, struct cursor *cur)
{
	int hdr = 8 + src->info.long_size;

	for (;;) {
		struct tracedat_page pg;
		uint64_t size;
		uint8_t *page;
		int rc;

		if (cur->page >= cur->npages) {
			if (!cursor_load_chunk(src, cur))
				return false;
			continue;
		}
		page = cur->buf + (size_t)cur->page * cur->subbuf;
		cur->page++;
		rc = tracedat_page_header(page, cur->subbuf,
					  (unsigned int)src->info.long_size,
					  src->info.big_endian, &pg);
		size = pg.commit;
		if (rc < 0) {
			source_warn(src, "%s: data chunk at offset %llu (cpu %d): page %u claims %llu bytes of data in a %u-byte sub-buffer; page skipped",
				      src->path,
				      (unsigned long long)cur->chunk_offset,
				      cur->cpu, cur->page - 1,
				      (unsigned long long)size, cur->subbuf);
			cur->pending_missed = -1;
			continue;
		}
		if (pg.lost)
			source_page_lost(src, cur, pg.lost);
		if (!size)
			continue;
		/* guard: kbuffer trusts the events' lengths */
		if (!ftrace_page_events_ok(page + hdr, (size_t)size,
					   src->info.big_endian)) {
			source_warn(src, "%s: data chunk at offset %llu (cpu %d): page %u has an event that runs past its data; page skipped",
				      src->path,
				      (unsigned long long)cur->chunk_offset,
				      cur->cpu, cur->page - 1);
			cur->pending_missed = -1;
			continue;
		}
		if (kbuffer_load_subbuffer(cur->kbuf, page) < 0)
			continue;
		cur->cur_page = page;
		cur->page_end = page + hdr + size;
		return true;
	}
}
