// SPDX-License-Identifier: MIT
/*
 * redact.c - the redaction of a recording (redact.h): a copy with every
 * name (comms, command lines, path components, hostname, probe strings,
 * mount points) replaced by a stable pseudonym (rnames.h) and every
 * number, chunk and event kept, so that it can go into a public bug
 * report.  Two passes over IN: the first learns the probe groups, the
 * formats and the programs; the second copies each chunk, its texts
 * rewritten line by line and the strings of its raw pages in place
 * (scrub.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iorec-format.h"
#include "util.h"
#include "sbuf.h"
#include "base/err.h"
#include "base/syskind.h"
#include "input/meta.h"
#include "input/redact.h"
#include "input/rnames.h"
#include "input/scrub.h"

struct redact {
	struct rnames *names;
	struct scrub *scrub;
	const char *in;
	char uprobe_group[128], probe_group[128];
	unsigned long shortened;	/* event strings cut to fit */
	unsigned long unknown;		/* records of a type without format */
	int long_size;
	bool pairs;			/* the table read: 64-bit args in pairs */
	uint8_t *nargs;			/* raw syscall id -> registers kept */
	size_t nnargs;
	int err;
};

/* Apply fn to field (unescaped), append it escaped. */
static void add_field(struct redact *r, const char *field,
		      void (*fn)(struct rnames *, const char *, struct sbuf *),
		      struct sbuf *out)
{
	struct sbuf v = SBUF_INIT;

	if (fn) {
		fn(r->names, field, &v);
		if (v.failed)
			r->err = -AN_E_NOMEM;
		sbuf_add_escaped(out, v.buf ? v.buf : "");
	} else {
		sbuf_add_escaped(out, field);
	}
	sbuf_release(&v);
}

static void keep_name(struct rnames *t, const char *s, struct sbuf *out)
{
	(void)t;
	sbuf_addstr(out, s);
}

static void dev_name(struct rnames *t, const char *s, struct sbuf *out)
{
	if (!rnames_opts(t)->drop_devices) {
		sbuf_addstr(out, s);
		return;
	}
	if (!strncmp(s, "/dev/", 5)) {
		sbuf_addstr(out, "/dev/");
		s += 5;
	}
	s = rnames_get(t, RN_DEV, s);
	sbuf_addstr(out, s ? s : "?");
}

static void kernel_name(struct rnames *t, const char *s, struct sbuf *out)
{
	const char *p;

	if (!rnames_opts(t)->drop_kernel) {
		sbuf_addstr(out, s);
		return;
	}
	p = rnames_get(t, RN_KERNEL, s);
	sbuf_addstr(out, p ? p : "?");
}

static void host_name(struct rnames *t, const char *s, struct sbuf *out)
{
	const char *p = *s ? rnames_get(t, RN_HOST, s) : "";

	sbuf_addstr(out, p ? p : "?");
}

/* A mount's source: a device, a kernel word (tmpfs, proc) or a path. */
static void mount_source(struct rnames *t, const char *s, struct sbuf *out)
{
	if (!strcmp(s, "none") || !strcmp(s, "nodev"))
		sbuf_addstr(out, s);
	else if (!strncmp(s, "/dev/", 5))
		dev_name(t, s, out);
	else if (strchr(s, '/') || strchr(s, ':'))
		rnames_path(t, s, out);
	else
		rnames_cmdline(t, s, out);
}

/* Mount options: values that hold a path are paths (overlay, loop). */
static void mount_opts(struct rnames *t, const char *s, struct sbuf *out)
{
	const char *p = s;

	while (*p) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);

		if (eq && memchr(eq, '/', n - (size_t)(eq - p))) {
			char *v = an_asprintf("%.*s", (int)(n - (size_t)(eq + 1 - p)),
					      eq + 1);

			sbuf_add(out, p, (size_t)(eq + 1 - p));
			if (v)
				rnames_path(t, v, out);
			free(v);
		} else {
			sbuf_add(out, p, n);
		}
		p += n;
		if (*p == ',') {
			sbuf_addch(out, ',');
			p++;
		}
	}
}

typedef void (*field_fn)(struct rnames *, const char *, struct sbuf *);

/* iorec's own sentence (a limit_ key): only the paths in it go. */
static void sentence(struct rnames *t, const char *s, struct sbuf *out)
{
	const char *p = s;

	while (*p) {
		size_t n = strcspn(p, " ");
		char *w = an_asprintf("%.*s", (int)n, p);

		if (w && strchr(w, '/'))
			rnames_path(t, w, out);
		else if (w)
			sbuf_addstr(out, w);
		free(w);
		p += n;
		while (*p == ' ') {
			sbuf_addch(out, ' ');
			p++;
		}
	}
}

/* What each field of a snapshot line of kind becomes (NULL: kept). */
static field_fn snap_field(const char *kind, int i)
{
	if (!strcmp(kind, "uname"))
		return i == 5 ? host_name : i == 2 || i == 3 ? kernel_name : NULL;
	if (!strcmp(kind, "mount"))
		return i == 2 ? mount_source : i == 3 ? rnames_path :
		       i == 5 || i == 6 ? mount_opts : NULL;
	if (!strcmp(kind, "blockdev"))
		return i == 1 ? dev_name : NULL;
	if (!strcmp(kind, "diskstats"))
		return i == 3 ? dev_name : NULL;
	if (!strcmp(kind, "proc"))
		return i == 3 ? rnames_comm : i == 4 ? rnames_path :
		       i == 5 ? rnames_cmdline : NULL;
	if (!strcmp(kind, "thread"))
		return i == 3 ? rnames_comm : NULL;
	if (!strcmp(kind, "fd"))
		return i == 7 ? rnames_path : NULL;
	if (!strcmp(kind, "time") || !strcmp(kind, "sysctl") ||
	    !strcmp(kind, "meminfo") || !strcmp(kind, "abi") ||
	    !strcmp(kind, "self"))
		return NULL;
	/* a kind this version does not know: every word of it goes */
	return i ? rnames_cmdline : NULL;
}

/*
 * A line of a text (n bytes at p, without its newline) redacted onto out
 * (arg: what the kind of text wants); false to stop after a failure.
 */
typedef bool (*line_fn)(struct redact *r, const char *p, size_t n,
			const void *arg, struct sbuf *out);

/* Each line of text through fn, the newlines kept. */
static void redact_lines(struct redact *r, const char *text, size_t len,
			 line_fn fn, const void *arg, struct sbuf *out)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!fn(r, p, n, arg, out))
			break;
		if (nl)
			sbuf_addch(out, '\n');
		p += n + (nl ? 1 : 0);
	}
}

/* A line of the snapshot text (after its 8-byte head). */
static bool snapshot_line(struct redact *r, const char *p, size_t n,
			  const void *arg, struct sbuf *out)
{
	char *line = an_asprintf("%.*s", (int)n, p), *save, *f[64];
	int nf = 0;

	(void)arg;
	if (!line) {
		r->err = -AN_E_NOMEM;
		return false;
	}
	/* strsep keeps empty fields; a 64th field holds the rest */
	save = line;
	while (nf < 63 && (f[nf] = strsep(&save, "\t")))
		unescape_field(f[nf++]);
	if (save)
		f[nf++] = save;
	/* a kernel thread (kthreadd or its child) keeps its name */
	if (nf > 3 && (!strcmp(f[0], "proc") || !strcmp(f[0], "thread")) &&
	    (!strcmp(f[1], "2") || !strcmp(f[2], "2")) &&
	    rnames_keep(r->names, RN_COMM, f[3]) < 0)
		r->err = -AN_E_NOMEM;
	for (int i = 0; i < nf; i++) {
		field_fn fn = snap_field(f[0], i);

		/* blockdev NAME MAJ:MIN parent DISK, or backing_file PATH */
		if (!strcmp(f[0], "blockdev") && i == 4)
			fn = !strcmp(f[3], "parent") ? dev_name :
			     strchr(f[4], '/') ? rnames_path : NULL;
		/* mount proc /proc proc: a source that is the fstype */
		if (!strcmp(f[0], "mount") && i == 2 && nf > 4 &&
		    !strcmp(f[2], f[4]))
			fn = NULL;
		if (i)
			sbuf_addch(out, '\t');
		add_field(r, f[i], fn ? fn : keep_name, out);
	}
	free(line);
	return true;
}

/* What the value of a header, END or NOTE key becomes. */
static field_fn kv_field(const char *key, bool header)
{
	if (!strcmp(key, "hostname"))
		return host_name;
	if (!strcmp(key, "kernel") || !strcmp(key, "kversion"))
		return kernel_name;
	if (!strcmp(key, "cmdline") || !strcmp(key, "command"))
		return rnames_cmdline;
	if (!strncmp(key, "limit_", 6))
		return sentence;
	if (header)
		return NULL;	/* iorec's own words and numbers */
	if (!strcmp(key, "reason"))
		return NULL;
	return rnames_cmdline;
}

/* A "key=value" line, the value escaped (arg: a bool, the header's). */
static bool kv_line(struct redact *r, const char *p, size_t n,
		    const void *arg, struct sbuf *out)
{
	const char *eq = memchr(p, '=', n);

	if (eq) {
		char *key = an_asprintf("%.*s", (int)(eq - p), p);
		char *val = an_asprintf("%.*s", (int)(n - (size_t)(eq + 1 - p)),
					eq + 1);

		if (!key || !val) {
			r->err = -AN_E_NOMEM;
		} else {
			field_fn fn = kv_field(key, *(const bool *)arg);

			sbuf_addstr(out, key);
			sbuf_addch(out, '=');
			unescape_field(val);
			add_field(r, val, fn ? fn : keep_name, out);
		}
		free(key);
		free(val);
	} else if (n) {
		char *v = an_asprintf("%.*s", (int)n, p);

		if (v)
			add_field(r, unescape_field(v), rnames_cmdline, out);
		free(v);
	}
	return true;
}

/* "key=value\n" lines, the values escaped. */
static void redact_kv(struct redact *r, const char *text, size_t len,
		      bool header, struct sbuf *out)
{
	redact_lines(r, text, len, kv_line, &header, out);
}

/* A line of CMDLINES: "PID COMM" */
static bool cmdline_line(struct redact *r, const char *p, size_t n,
			 const void *arg, struct sbuf *out)
{
	const char *sp = memchr(p, ' ', n);
	char *comm = sp ? an_asprintf("%.*s", (int)(n - (size_t)(sp + 1 - p)),
				      sp + 1) : NULL;

	(void)arg;
	if (comm) {
		sbuf_add(out, p, (size_t)(sp + 1 - p));
		rnames_comm(r->names, comm, out);
	} else if (n) {
		sbuf_addstr(out, "?");
	}
	free(comm);
	return true;
}

/* Is this string field of an event a path? */
static bool path_field(const struct redact *r, const char *system,
		       const char *field, const char *val)
{
	if ((*r->uprobe_group && !strcmp(system, r->uprobe_group)) ||
	    (*r->probe_group && !strcmp(system, r->probe_group)))
		return true;
	if (!strcmp(field, "filename") || !strcmp(field, "pathname") ||
	    !strcmp(field, "path") || !strcmp(field, "oldname") ||
	    !strcmp(field, "newname"))
		return true;
	/* any other string with a '/' in it is taken for a path too */
	return strchr(val, '/') != NULL;
}

static void on_string(void *arg, const char *system, const char *event,
		      const char *field, char *buf, size_t cap)
{
	struct redact *r = arg;
	struct sbuf v = SBUF_INIT;

	(void)event;
	if (!*buf)
		return;
	if (strstr(field, "comm"))
		rnames_comm(r->names, buf, &v);
	else if (!strcmp(system, "block") || !strcmp(system, "writeback"))
		return;		/* rwbs, cmd, bdi names: the kernel's */
	else if (path_field(r, system, field, buf))
		rnames_path(r->names, buf, &v);
	else
		return;
	if (v.failed || !v.buf) {
		r->err = -AN_E_NOMEM;
		memset(buf, 0, cap);
	} else {
		size_t n = strlen(v.buf);

		if (n >= cap) {
			n = cap - 1;
			r->shortened++;
		}
		memcpy(buf, v.buf, n);
		memset(buf + n, 0, cap - n);
	}
	sbuf_release(&v);
}

/* meta_lines() over n bytes of a chunk's text: 0, or -AN_E_NOMEM. */
static int chunk_lines(const void *p, size_t n, const char *kind,
		       meta_line_fn fn, void *arg)
{
	char *text = an_asprintf("%.*s", (int)n, (const char *)p);
	int rc = text ? meta_lines(text, kind, fn, arg) : -AN_E_NOMEM;

	free(text);
	return rc;
}

/* The header with its text redacted and redacted=1 added. */
static int redact_header(struct redact *r, const struct iorec_chunk *c,
			 uint8_t **out, size_t *out_len)
{
	struct iorec_header h;
	struct sbuf t = SBUF_INIT;
	char buf[128];
	int ret;

	ret = iorec_header_parse(c->payload, c->payload_len, &h);
	if (ret < 0)
		return ret;
	redact_kv(r, h.text, h.text_len, true, &t);
	if (h.text_len && h.text[h.text_len - 1] != '\n')
		sbuf_addch(&t, '\n');
	if (iorec_kv_get(h.text, h.text_len, "redacted", buf, sizeof(buf)) < 0)
		sbuf_addstr(&t, "redacted=1\n");
	if (t.failed) {
		sbuf_release(&t);
		return -IOREC_E_NOMEM;
	}
	h.text = t.buf ? t.buf : "";
	h.text_len = t.len;
	ret = iorec_header_encode(&h, out, out_len);
	sbuf_release(&t);
	return ret;
}

static void on_exec(void *arg, const char *system, const char *event,
		    const char *field, char *buf, size_t cap)
{
	struct redact *r = arg;

	(void)cap;
	if (!strcmp(system, "sched") && !strcmp(event, "sched_process_exec") &&
	    !strcmp(field, "filename") && rnames_exec(r->names, buf) < 0)
		r->err = -AN_E_NOMEM;
}

static int snap_exec(char **f, int n, void *arg)
{
	struct redact *r = arg;

	if (n > 4 && rnames_exec(r->names, f[4]) < 0)
		r->err = -AN_E_NOMEM;
	return 0;
}

/* A call with a 64-bit argument: a register pair on a 32-bit ABI. */
static bool wide_arg(enum sys_kind k)
{
	switch (k) {
	case SK_PREAD64: case SK_PWRITE64: case SK_PREADV: case SK_PWRITEV:
	case SK_PREADV2: case SK_PWRITEV2: case SK_SYNC_FILE_RANGE:
	case SK_FALLOCATE: case SK_FTRUNCATE:
		return true;
	default:
		return false;
	}
}

/* A "NR\tNAME" line of a SYSCALLS table: the registers NR keeps. */
static int syscall_line(char **f, int n, void *arg)
{
	struct redact *r = arg;
	const char *name;
	enum sys_kind k;
	size_t keep = 0;
	int nr;

	/* no syscall number is this large: a hostile table allocates nothing */
	if (!meta_syscall_line(f, n, &nr, &name) || nr > 65535)
		return 0;
	k = sys_kind_lookup(name);
	if (k != SK_NONE && r->pairs && wide_arg(k))
		keep = SYS_MAX_ARGS;
	else if (k != SK_NONE)
		while (keep < SYS_MAX_ARGS && sys_kind_info(k)->fields[keep])
			keep++;
	if ((size_t)nr >= r->nnargs) {
		uint8_t *v = an_reallocarray(r->nargs, (size_t)nr + 1, 1);

		if (!v)
			return -AN_E_NOMEM;
		memset(v + r->nnargs, 0xff, (size_t)nr + 1 - r->nnargs);
		r->nargs = v;
		r->nnargs = (size_t)nr + 1;
	}
	if (r->nargs[nr] == 0xff || r->nargs[nr] < keep)
		r->nargs[nr] = (uint8_t)keep;
	return 0;
}

/*
 * A SYSCALLS or COMPAT_SYSCALLS chunk ("NR\tNAME" lines): the argument
 * registers a raw sys_enter of each id keeps.  An id no stage follows
 * keeps none (the analysis never reads them), a followed one the
 * arguments of its call, all six where a 32-bit ABI splits a 64-bit
 * argument into a pair (and ARM pads it); an id both tables list keeps
 * the larger count (the redactor does not know whose event it is), one
 * listed by neither all six.
 */
static int syscall_args(struct redact *r, const char *p, size_t len,
			bool compat, struct an_err *err)
{
	r->pairs = compat || r->long_size != 8;
	if (chunk_lines(p, len, NULL, syscall_line, r))
		return an_nomem(err, "redact");
	scrub_raw_args(r->scrub, r->nargs, r->nnargs);
	return 0;
}

/*
 * The first pass over IN: the header's probe groups, the formats for the
 * scrubber, and every program run (the snapshot's and the execs'), so
 * that the comms cut from long program names match their pseudonyms
 * whatever the order the chunks of the CPUs come in.
 */
static int prepare_chunk(struct redact *r, const struct iorec_chunk *c,
			 struct an_err *err)
{
	const uint8_t *p = c->payload;
	size_t len = c->payload_len;
	struct iorec_header h;
	uint8_t *buf;
	char v[128];
	long n;

	switch (c->type) {
	case IOREC_CHUNK_HEADER:
		if (iorec_header_parse(p, len, &h) < 0)
			return an_fail(err, AN_E_FORMAT,
				       "%s: malformed header chunk", r->in);
		if (iorec_kv_get(h.text, h.text_len, "uprobe_group", v,
				 sizeof(v)) > 0)
			snprintf(r->uprobe_group, sizeof(r->uprobe_group), "%s",
				 v);
		if (iorec_kv_get(h.text, h.text_len, "probe_group", v,
				 sizeof(v)) > 0)
			snprintf(r->probe_group, sizeof(r->probe_group), "%s",
				 v);
		r->scrub = scrub_new(h.endian == IOREC_ENDIAN_BIG,
				     h.long_size, h.subbuf_size);
		r->long_size = h.long_size;
		return r->scrub ? 0 : an_nomem(err, "redact");
	case IOREC_CHUNK_SYSCALLS:
	case IOREC_CHUNK_COMPAT_SYSCALLS:
		if (!r->scrub)
			return 0;
		return syscall_args(r, (const char *)p, len,
				    c->type == IOREC_CHUNK_COMPAT_SYSCALLS, err);
	case IOREC_CHUNK_HEADER_PAGE:
		if (scrub_header_page(r->scrub, (const char *)p, len, err) < 0)
			return an_fail(err, AN_E_FORMAT, "%s: %s", r->in,
				       err->msg);
		return 0;
	case IOREC_CHUNK_EVENT_FORMAT:
		if (scrub_format(r->scrub, p, len, err) < 0)
			return an_fail(err, AN_E_FORMAT, "%s: %s; its strings cannot be redacted",
				       r->in, err->msg);
		return 0;
	case IOREC_CHUNK_SNAPSHOT:
		if (len > 8 && chunk_lines((const char *)p + 8, len - 8, "proc",
					   snap_exec, r))
			return an_nomem(err, "redact");
		return 0;
	case IOREC_CHUNK_DATA:
		if (len < IOREC_DATA_DESC_LEN)
			return 0;
		buf = malloc(len);
		if (!buf)
			return an_nomem(err, "redact");
		memcpy(buf, p, len);
		n = scrub_pages(r->scrub, buf + IOREC_DATA_DESC_LEN,
				len - IOREC_DATA_DESC_LEN, on_exec, r, err);
		free(buf);
		if (n < 0)
			return an_fail(err, AN_E_FORMAT,
				       "%s: data chunk at offset %llu: %s",
				       r->in, (unsigned long long)c->offset,
				       err->msg);
		return 0;
	}
	return 0;
}

/* One chunk of IN, redacted, into w. */
static int copy_chunk(struct redact *r, struct iorec_writer *w,
		      const struct iorec_chunk *c, struct an_err *err)
{
	bool z = c->flags & IOREC_CF_ZSTD;
	const uint8_t *p = c->payload;
	size_t len = c->payload_len;
	struct sbuf t = SBUF_INIT;
	uint8_t *buf = NULL;
	size_t blen = 0;
	long unknown;
	int ret;

	switch (c->type) {
	case IOREC_CHUNK_HEADER:
		ret = redact_header(r, c, &buf, &blen);
		if (ret < 0)
			return an_fail(err, AN_E_FORMAT, "%s: header chunk: %s",
				       r->in, iorec_strerror(ret));
		ret = iorec_writer_add(w, c->type, NULL, 0, buf, blen, z);
		free(buf);
		return ret;
	case IOREC_CHUNK_SNAPSHOT:
		if (len < 8)
			break;
		sbuf_add(&t, p, 8);
		redact_lines(r, (const char *)p + 8, len - 8, snapshot_line,
			     NULL, &t);
		goto text;
	case IOREC_CHUNK_CMDLINES:
		redact_lines(r, (const char *)p, len, cmdline_line, NULL, &t);
		goto text;
	case IOREC_CHUNK_NOTE:
	case IOREC_CHUNK_END:
		redact_kv(r, (const char *)p, len, false, &t);
		goto text;
	case IOREC_CHUNK_DATA:
		if (len < IOREC_DATA_DESC_LEN)
			return an_fail(err, AN_E_FORMAT,
				       "%s: data chunk at offset %llu before the header",
				       r->in, (unsigned long long)c->offset);
		buf = malloc(len);
		if (!buf)
			return an_nomem(err, "redact");
		memcpy(buf, p, len);
		unknown = scrub_pages(r->scrub, buf + IOREC_DATA_DESC_LEN,
				      len - IOREC_DATA_DESC_LEN, on_string, r,
				      err);
		if (unknown < 0) {
			free(buf);
			return an_fail(err, AN_E_FORMAT,
				       "%s: data chunk at offset %llu: %s",
				       r->in, (unsigned long long)c->offset,
				       err->msg);
		}
		r->unknown += (unsigned long)unknown;
		ret = iorec_writer_add(w, c->type, buf, IOREC_DATA_DESC_LEN,
				       buf + IOREC_DATA_DESC_LEN,
				       len - IOREC_DATA_DESC_LEN, z);
		free(buf);
		return ret;
	default:
		/* formats, syscall tables, printk formats, stats, exec ABIs */
		break;
	}
	return iorec_writer_add(w, c->type, NULL, 0, p, len, z);
text:
	if (t.failed) {
		sbuf_release(&t);
		return an_nomem(err, "redact");
	}
	ret = iorec_writer_add(w, c->type, NULL, 0, t.buf ? t.buf : "", t.len,
			       z);
	sbuf_release(&t);
	return ret;
}

int redact_recording(const char *in, const char *out, struct rnames *names,
		     struct redact_stats *st, struct an_err *err)
{
	struct redact rr = { .names = names, .in = in }, *r = &rr;
	struct iorec_writer *w = NULL;
	struct iorec_reader *rd;
	struct iorec_chunk c;
	int fd = -1, ret, e = 0, code = -AN_E_FORMAT;
	bool created = false;

	memset(st, 0, sizeof(*st));
	rd = iorec_reader_open(r->in, &e);
	if (!rd)
		return an_fail(err, AN_E_FORMAT, "%s: %s (redact reads .iorec recordings, not trace.dat)",
			       r->in, iorec_strerror(e));
	/* the first pass: probe groups, formats, programs */
	while ((ret = iorec_reader_next(rd, &c, true)) > 0)
		if (prepare_chunk(r, &c, err) < 0 || r->err)
			break;
	if (r->err && !err->code)
		an_nomem(err, "redact");
	if (!err->code && !r->scrub)
		an_fail(err, AN_E_FORMAT, "%s: no header chunk", r->in);
	iorec_reader_close(rd);
	rd = NULL;
	if (err->code)
		goto done;
	rd = iorec_reader_open(r->in, &e);
	if (!rd) {
		an_fail(err, AN_E_FORMAT, "%s: %s", r->in, iorec_strerror(e));
		goto done;
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		an_fail(err, AN_E_OPEN, "cannot create '%s': %s", out,
			strerror(errno));
		goto done;
	}
	created = true;
	w = iorec_writer_new(fd, 3, 0);	/* iorec's own level */
	if (!w) {
		an_nomem(err, "redact");
		goto done;
	}
	{
		uint16_t major, minor;

		iorec_reader_version(rd, &major, &minor);
		if (iorec_writer_set_version(w, major, minor) < 0) {
			an_fail(err, AN_E_FORMAT, "%s: format %u.%u; this ioreport writes 1.0 to %u.%u (use a newer ioreport)",
				r->in, major, minor, IOREC_VERSION_MAJOR,
				IOREC_VERSION_MINOR);
			goto done;
		}
	}
	while ((ret = iorec_reader_next(rd, &c, true)) > 0) {
		ret = copy_chunk(r, w, &c, err);
		if (ret < 0)
			break;
		if (r->err) {
			ret = r->err;
			an_nomem(err, "redact");
			break;
		}
	}
	if (ret == -IOREC_E_TRUNCATED) {
		st->truncated = true;
		st->truncated_at = iorec_reader_error_offset(rd);
		ret = 0;
	}
	if (ret < 0) {
		if (!err->code)
			an_fail(err, AN_E_DAMAGED, "%s: at offset %llu: %s (redact needs an undamaged recording)",
				r->in,
				(unsigned long long)iorec_reader_error_offset(rd),
				iorec_strerror(ret));
		goto done;
	}
	ret = iorec_writer_flush(w);
	if (ret < 0 || fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		an_fail(err, AN_E_IO, "cannot write '%s': %s", out,
			ret < 0 ? iorec_strerror(ret) : strerror(errno));
		goto done;
	}
	fd = -1;
	st->shortened = r->shortened;
	st->unknown = r->unknown;
	code = 0;
done:
	iorec_writer_free(w);
	iorec_reader_close(rd);
	if (fd >= 0)
		close(fd);
	if (code && created)
		unlink(out);
	scrub_free(r->scrub);
	free(r->nargs);
	return code ? -err->code : 0;
}
