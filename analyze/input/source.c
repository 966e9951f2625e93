// SPDX-License-Identifier: MIT
/*
 * source.c - opening and reading recordings (with events.c,
 * source-iorec.c and tracedat.c, the only files of ioreport that include
 * libtraceevent): .iorec files through the formats/
 * reader plus libtraceevent's kbuffer and tep handle (source-iorec.c),
 * trace.dat files in tracedat.c; both yield events from all CPUs merged in
 * timestamp order, and both load their metadata texts through the guarded
 * loaders here (source_header_page() ... source_cmdlines()).
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
#include <dirent.h>
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

/* One negative code, one owner: -errno, the analyzer's, the format's. */
_Static_assert(AN_E_BASE > 4095 && AN_E_LAST < IOREC_E_BASE &&
	       IOREC_E_MAX < TRACEDAT_E_BASE,
	       "error code ranges overlap (base/err.h, iorec/format.h, tracedat.h)");


void source_warn(struct source *src, const char *fmt, ...)
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
		msg = an_asprintf("%s: %lu more warnings not shown", src->path,
				  src->warn_dropped);
		if (msg)
			src->warn_dropped = 0;
		return msg;
	}
	msg = src->warnings[src->warn_head];
	src->warn_head = (src->warn_head + 1) % MAX_WARNINGS;
	src->nwarn--;
	return msg;
}

/* Make sure cursors (and info.cpus) exist for cpu; false: no memory. */
bool source_ensure_cpu(struct source *src, int cpu)
{
	int n = src->info.nr_cpus;
	struct cursor *c;
	struct source_cpu *sc;

	if (cpu < n)
		return true;
	c = an_reallocarray(src->cursors, (size_t)cpu + 1, sizeof(*c));
	if (c)
		src->cursors = c;
	sc = c ? an_reallocarray(src->info.cpus, (size_t)cpu + 1,
				 sizeof(*sc)) : NULL;
	if (!sc) {
		src->nomem = true;
		return false;
	}
	src->info.cpus = sc;
	memset(src->cursors + n, 0, sizeof(*src->cursors) * (cpu + 1 - n));
	memset(src->info.cpus + n, 0, sizeof(*src->info.cpus) * (cpu + 1 - n));
	for (; n <= cpu; n++)
		src->cursors[n].cpu = n;
	src->info.nr_cpus = cpu + 1;
	return true;
}

/* The len bytes at p as a string; NULL (src->nomem set): no memory. */
char *source_dup_text(struct source *src, const uint8_t *p, size_t len)
{
	char *s = malloc(len + 1);

	if (!s) {
		src->nomem = true;
		return NULL;
	}
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

void source_header_page(struct source *src, char *text, size_t len,
			uint64_t offset, const char *what)
{
	struct source_info *in = &src->info;
	struct ftrace_verdict v;

	free((char *)in->header_page);
	in->header_page = text;
	/* guard: only the kernel's shape reaches libtraceevent */
	if (ftrace_check_header_page(text, len, in->subbuf_size, &v) < 0)
		source_warn(src, "%s: %s at offset %llu: %s at byte %zu; page headers are read with long size %d",
			    src->path, what, (unsigned long long)offset,
			    v.error, v.offset, in->long_size);
	else if (tep_parse_header_page(src->tep, text, len, in->long_size))
		source_warn(src, "%s: %s at offset %llu does not parse; page headers are read with long size %d",
			    src->path, what, (unsigned long long)offset,
			    in->long_size);
}

void source_event_format(struct source *src, const char *system,
			 const char *text, size_t tlen, uint64_t offset,
			 uint64_t text_at, const char *what)
{
	struct source_info *in = &src->info;
	struct ftrace_verdict v = { 0 };
	enum tep_errno e;
	int g = -1;

	/* guard: the ftrace grammar before libtraceevent */
	if (!ftrace_check_system(system, strlen(system)))
		v.error = "system name not of [A-Za-z0-9_]";
	else
		g = ftrace_check_format(text, tlen, in->subbuf_size,
					!strcmp(system, "ftrace"), &v);
	if (g == FTRACE_NOMEM) {
		src->nomem = true;
		return;
	}
	if (g >= 0 && tep_find_event(src->tep, (int)v.id)) {
		v.error = "event ID of an earlier format";
		g = -1;
	}
	if (g < 0) {
		in->bad_formats++;
		source_warn(src, "%s: %s at offset %llu: %s at byte %zu of the format; its events are not decoded",
			    src->path, what, (unsigned long long)offset,
			    v.error, v.offset);
		ftrace_verdict_release(&v);
		return;
	}
	/*
	 * A print fmt replaced by a neutral one (g > 0) is no warning: real
	 * kernels have some libtraceevent cannot evaluate
	 * (jiffies_to_msecs(), ...); info tells.
	 */
	if (g > 0 && !in->replaced_prints++) {
		/* a byte of the file, unless compressed */
		in->replaced_offset = text_at ? text_at + v.offset : offset;
		in->replaced_reason = v.error;
	}
	e = tep_parse_event(src->tep, v.text ? v.text : text,
			    v.text ? v.text_len : tlen, system);
	ftrace_verdict_release(&v);
	/* A print format libtraceevent cannot evaluate still leaves the
	 * fields usable, so only a hard failure counts. */
	if (e && e != TEP_ERRNO__READ_PRINT_FAILED &&
	    e != TEP_ERRNO__READ_FORMAT_FAILED) {
		char buf[128];

		in->bad_formats++;
		tep_strerror(src->tep, e, buf, sizeof(buf));
		source_warn(src, "%s: event format of %s at offset %llu: %s; its events print as unknown",
			    src->path, system, (unsigned long long)offset,
			    buf);
	}
}

void source_printk(struct source *src, const char *p, size_t len,
		   uint64_t offset)
{
	struct ftrace_verdict v;
	size_t dropped;
	/* guard: only well-formed lines reach libtraceevent */
	char *text = ftrace_filter_lines(p, len, true, &dropped, &v);

	if (!text) {
		src->nomem = true;
		return;
	}
	if (dropped)
		source_warn(src, "%s: printk formats at offset %llu: %zu lines left out, the first at byte %zu: %s",
			    src->path, (unsigned long long)offset, dropped,
			    v.offset, v.error);
	tep_parse_printk_formats(src->tep, text);
	free(text);
}

int source_cmdlines(struct source *src)
{
	struct source_info *in = &src->info;
	struct ftrace_verdict v;
	size_t dropped;
	char *text;

	if (!in->cmdlines)
		return 0;
	text = ftrace_filter_lines(in->cmdlines, strlen(in->cmdlines), false,
				   &dropped, &v);
	if (!text)
		return -AN_E_NOMEM;
	if (dropped)
		source_warn(src, "%s: saved cmdlines: %zu lines left out, the first at byte %zu: %s",
			    src->path, dropped, v.offset, v.error);
	tep_parse_saved_cmdlines(src->tep, text);
	free(text);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Open, iterate, close */

/* Copy standard input to an unlinked temporary file; returns its fd. */
static int spool_stdin(struct an_err *e)
{
	const char *dir = getenv("TMPDIR");
	char *tmpl = an_asprintf("%s/ioreport-XXXXXX",
				 dir && *dir ? dir : "/tmp");
	char buf[65536];
	int fd;

	if (!tmpl)
		return an_nomem(e, "standard input");
	fd = mkstemp(tmpl);
	if (fd < 0) {
		an_fail(e, AN_E_IO, "cannot create a temporary file in %s to hold standard input: %s (set TMPDIR)",
			dir && *dir ? dir : "/tmp", strerror(errno));
		free(tmpl);
		return -AN_E_IO;
	}
	unlink(tmpl);
	free(tmpl);
	for (;;) {
		ssize_t k = read(STDIN_FILENO, buf, sizeof(buf));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			an_fail(e, AN_E_IO, "cannot read standard input: %s",
				strerror(errno));
			close(fd);
			return -AN_E_IO;
		}
		if (k == 0)
			break;
		if (write_full(fd, buf, (size_t)k) < 0) {
			an_fail(e, AN_E_IO, "cannot spool standard input to a temporary file: %s (set TMPDIR to a larger filesystem)",
				strerror(errno));
			close(fd);
			return -AN_E_IO;
		}
	}
	return fd;
}

/* ------------------------------------------------------------------ */
/* A rotated set: OUT-NNNN.iorec named by OUT.iorec */

static int cmp_member(const void *a, const void *b)
{
	const struct source_set_file *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The files OUT-NNNN.iorec (NNNN: 4 to 9 digits, iorec -S --keep's
 * names) of path OUT.iorec (or OUT), in index order into src->set and
 * src->members (members[0] left to the caller), the later ones opened.
 * Returns how many (0: none), or a negative AN_E_* with e filled;
 * source_close() frees what was set.
 */
static int find_set(struct source *src, const char *path, struct an_err *e)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t blen = strlen(base), alloc = 0;
	struct source_set_file *v = NULL;
	struct dirent *de;
	char *dir;
	DIR *d;
	int n = 0;

	if (blen > 6 && !strcmp(base + blen - 6, ".iorec"))
		blen -= 6;
	dir = an_asprintf("%.*s", (int)dlen, dlen ? path : "./");
	if (!dir)
		return an_nomem(e, path);
	d = blen ? opendir(dlen ? dir : ".") : NULL;
	while (d && (de = readdir(d))) {
		const char *p = de->d_name, *digits;
		size_t nd;

		if (strncmp(p, base, blen) || p[blen] != '-')
			continue;
		digits = p + blen + 1;
		nd = strspn(digits, "0123456789");
		if (nd < 4 || nd > 9 || strcmp(digits + nd, ".iorec"))
			continue;
		if (an_grow(&v, &alloc, (size_t)n + 1, sizeof(*v), 8))
			goto nomem;
		memset(&v[n], 0, sizeof(*v));
		v[n].index = (unsigned int)strtoul(digits, NULL, 10);
		v[n].path = an_asprintf("%s%s", dir[0] == '.' && !dlen ? "" :
					dir, p);
		if (!v[n].path)
			goto nomem;
		n++;
	}
	if (d)
		closedir(d);
	free(dir);
	if (!n)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_member);
	src->set = v;
	src->nmembers = n;
	src->members = an_calloc((size_t)n, sizeof(*src->members));
	if (!src->members)
		return an_nomem(e, path);
	for (int k = 0; k < n; k++) {
		struct set_member *m = &src->members[k];

		m->path = (char *)v[k].path;
		m->fd = -1;
		if (!k)
			continue;
		m->fd = open(m->path, O_RDONLY | O_CLOEXEC);
		if (m->fd < 0)
			return an_fail(e, AN_E_OPEN, "cannot open '%s' of the rotated set %s: %s",
				       m->path, path, strerror(errno));
	}
	return n;
nomem:
	if (d)
		closedir(d);
	free(dir);
	for (int k = 0; k < n; k++)
		free((char *)v[k].path);
	free(v);
	return an_nomem(e, path);
}

struct source *source_open(const char *path, struct an_err *e)
{
	struct source *src = an_calloc(1, sizeof(*src));
	uint8_t magic[64];
	ssize_t n;
	int ret = 0;

	if (!src || !(src->path = an_strdup(strcmp(path, "-") ? path :
					    "<stdin>"))) {
		free(src);
		an_nomem(e, path);
		return NULL;
	}
	src->info.path = src->path;
	src->only_cpu = -1;
	src->last = -1;
	src->fd = -1;
	trace_seq_init(&src->seq);
	tep_set_loglevel(TEP_LOG_NONE);

	if (!strcmp(path, "-")) {
		src->fd = spool_stdin(e);
		if (src->fd < 0)
			goto fail;
	} else {
		struct stat st;

		src->fd = open(path, O_RDONLY | O_CLOEXEC);
		/* OUT.iorec of a rotation: its OUT-NNNN.iorec files */
		if (src->fd < 0 && errno == ENOENT) {
			int k = find_set(src, path, e);

			if (k < 0)
				goto fail;
			if (k > 0) {
				src->fd = open(src->set[0].path,
					       O_RDONLY | O_CLOEXEC);
				path = src->set[0].path;
			} else {
				errno = ENOENT;
			}
		}
		if (src->fd < 0) {
			an_fail(e, AN_E_OPEN, "cannot open '%s': %s", path,
				strerror(errno));
			goto fail;
		} else if (fstat(src->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			an_fail(e, AN_E_OPEN, "'%s' is a directory, not a recording",
				path);
			goto fail;
		}
	}

	do {
		n = pread(src->fd, magic, sizeof(magic) - 1, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		an_fail(e, AN_E_IO, "cannot read '%s': %s", src->path,
			strerror(errno));
		goto fail;
	}
	magic[n] = '\0';
	if (n == 0) {
		an_fail(e, AN_E_FORMAT, "%s: empty file, not an iorec or trace.dat recording",
			src->path);
		goto fail;
	}
	if (n >= IOREC_MAGIC_LEN && !memcmp(magic, IOREC_MAGIC,
					     IOREC_MAGIC_LEN)) {
		src->info.kind = SOURCE_IOREC;
		ret = source_iorec_load(src, e);
	} else if (n >= TRACEDAT_MAGIC_LEN &&
		   !memcmp(magic, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN)) {
		src->info.kind = SOURCE_TRACEDAT;
		ret = source_tracedat_load(src, magic, (size_t)n, e);
	} else {
		ret = an_fail(e, AN_E_FORMAT, "%s: not an iorec or trace.dat file (bad magic at offset 0)",
			      src->path);
	}
	if (ret < 0)
		goto fail;
	if (!source_build_types(src)) {
		an_nomem(e, src->path);
		goto fail;
	}
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
	source_fields_forget(src);
	in = &src->info;
	for (int i = 0; i < in->nr_cpus; i++) {
		struct cursor *cur = &src->cursors[i];

		free(cur->refs);
		free(cur->buf);
		kbuffer_free(cur->kbuf);
	}
	/* the trace.dat streams (tracedat.c) */
	source_tracedat_close(src);
	for (int k = 0; k < src->nmembers; k++) {
		if (src->members) {
			iorec_reader_close(src->members[k].reader);
			if (src->members[k].fd >= 0)
				close(src->members[k].fd);
		}
		free((char *)src->set[k].path);
	}
	free(src->members);
	free(src->set);
	free(src->cursors);
	free(in->cpus);
	if (src->tep)
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
	free((char *)in->compat_syscalls);
	free((char *)in->exec_abi);
	source_free_syscalls(&src->syscalls);
	source_free_syscalls(&src->compat);
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

uint64_t source_info_missed(const struct source_info *in, uint64_t *pages)
{
	uint64_t n = 0;

	*pages = 0;
	for (int i = 0; i < in->nr_cpus; i++) {
		n += in->cpus[i].missed_events;
		*pages += in->cpus[i].missed_pages;
	}
	return n;
}

void source_set_cpu(struct source *src, int cpu)
{
	src->only_cpu = cpu;
}

void source_page_lost(struct source *src, struct cursor *cur, long long n)
{
	struct source_cpu *sc = &src->info.cpus[cur->cpu];

	if (!n)
		return;
	sc->missed_pages++;
	if (n > 0)
		sc->missed_events += (uint64_t)n;
	if (n > 0 && cur->pending_missed > 0)
		cur->pending_missed += n;
	else if (!cur->pending_missed || n < 0)
		cur->pending_missed = n;
}

void source_kbuf_next(struct source *src, struct cursor *cur,
		      source_load_page_fn load, size_t page_header_size,
		      int long_size)
{
	unsigned long long ts;
	void *data = NULL;

	cur->valid = false;
	if (cur->done)
		return;
	if (!cur->kbuf) {
		cur->kbuf = kbuffer_alloc(long_size == 8 ? KBUFFER_LSIZE_8 :
					  KBUFFER_LSIZE_4,
					  src->info.big_endian ?
					  KBUFFER_ENDIAN_BIG :
					  KBUFFER_ENDIAN_LITTLE);
		if (!cur->kbuf) {
			/* the walk stops: source_next() says why */
			src->read_err = -AN_E_NOMEM;
			cur->done = true;
			return;
		}
	}
	for (;;) {
		int size;

		if (cur->page_loaded)
			data = kbuffer_next_event(cur->kbuf, &ts);
		while (!data) {
			if (!load(src, cur)) {
				cur->page_loaded = false;
				cur->done = true;
				return;
			}
			cur->page_loaded = true;
			data = kbuffer_read_event(cur->kbuf, &ts);
		}
		/* every event inside the page's events: kbuffer trusts them */
		size = kbuffer_event_size(cur->kbuf);
		if (size <= 0 ||
		    (uint8_t *)data < cur->cur_page + page_header_size ||
		    (uint8_t *)data + size > cur->page_end) {
			if (src->info.kind == SOURCE_IOREC)
				source_warn(src, "%s: data chunk at offset %llu (cpu %d): bad event length %d in page %u; rest of page skipped",
					    src->path,
					    (unsigned long long)cur->chunk_offset,
					    cur->cpu, size, cur->page - 1);
			else
				source_warn(src, "%s: cpu %d page %u at offset %llu: bad event length %d; rest of page skipped",
					    src->path, cur->cpu, cur->page,
					    (unsigned long long)cur->chunk_offset,
					    size);
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

static void cursor_next(struct source *src, struct cursor *cur)
{
	if (src->info.kind == SOURCE_IOREC)
		source_kbuf_next(src, cur, source_iorec_load_page,
				 8 + (size_t)src->info.long_size,
				 src->info.long_size);
	else
		source_tracedat_next(src, cur);
}

static struct tep_record *cursor_rec(struct cursor *cur)
{
	return &cur->rec;
}

/* An unsigned integer of 1, 2, 4 or 8 bytes in the recording's order. */
static inline uint64_t read_num(const struct source *src, const void *p,
				int size)
{
	return ftrace_num_swap(p, size, src->swap);
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
		return src->read_err;
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

	t = source_find_type(src, ev->id);
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
