// SPDX-License-Identifier: MIT
/*
 * cmd-redact.c - `ioreport redact`: a copy of a recording with every
 * name (comms, command lines, path components, hostname, probe strings,
 * mount points) replaced by a stable pseudonym and every number, chunk
 * and event kept, so that it can go into a public bug report.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iorec-format.h"
#include "util.h"
#include "cmd.h"
#include "cmd-redact-names.h"
#include "base/err.h"
#include "sbuf.h"
#include "base/syskind.h"
#include "input/meta.h"
#include "input/scrub.h"

static const char redact_usage[] =
"usage: ioreport redact [OPTIONS] IN OUT\n"
"\n"
"Copy the recording IN to OUT with every name replaced by a pseudonym:\n"
"process names, command lines, path components, the hostname, probe\n"
"strings and mount points.  Numbers, events, devices and the kernel\n"
"version stay, so every view of OUT has the same numbers as IN's.\n"
"\n"
"Pseudonyms: a process name or a path component becomes name-N, or nNN\n"
"where name-N would not fit in its place, or zN (N in base 62, as long\n"
"as the name) where neither would, so that a pseudonym always fits where\n"
"its name was and two names never become one; a file-type suffix is\n"
"kept after the pseudonym of the rest, so X.db, X.db-wal and\n"
"X.db-journal become n03.db, n03.db-wal and n03.db-journal; any other\n"
"dot is part of the name (john.smith becomes n09, whole); a name with a\n"
"control character keeps one after its pseudonym (the analysis leaves\n"
"such paths out, and still does); a kernel thread keeps its prefix\n"
"(kworker~N); command-line words become arg-N, options opt-N, the\n"
"hostname host-N, and with --drop-devices and --drop-kernel devices\n"
"disk-N and the kernel kernel-N.\n"
"Names of at most two characters are kept.\n"
"\n"
"  -m, --map FILE         write NAME -> PSEUDONYM to FILE (keep it private:\n"
"                         it translates a maintainer's answer back); when\n"
"                         FILE exists its pseudonyms are used and extended,\n"
"                         so a before and an after recording match\n"
"  -b, --keep-basenames   keep the last component of every path\n"
"  -k, --keep-prefix DIR  keep paths under DIR whole (may be repeated;\n"
"                         /proc, /sys and /dev are always kept)\n"
"  -E, --no-extensions    replace the file-type suffixes too (X.db: n3)\n"
"      --drop-devices     replace device names (sda, mmcblk0p2) too\n"
"      --drop-kernel      replace the kernel release and version too\n"
"  -h, --help             this help\n"
"\n"
"Examples:\n"
"  ioreport redact x.iorec x-public.iorec\n"
"  ioreport redact -m x.map -k /usr x.iorec x-public.iorec\n";

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

static int write_map(struct redact *r, const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return error("cannot write the mapping '%s': %s", path,
			     strerror(errno));
	if (rnames_write_map(r->names, f) < 0 || fclose(f)) {
		error("cannot write the mapping '%s': %s", path,
		      strerror(errno));
		return -1;
	}
	return 0;
}

/* Read IN chunk by chunk and write OUT; returns the exit code. */
static int redact_file(struct redact *r, const char *out, const char *map)
{
	struct iorec_writer *w = NULL;
	struct iorec_reader *rd;
	struct iorec_chunk c;
	struct an_err err = { 0 };
	int fd = -1, ret, e = 0, code = 1;
	bool created = false;

	rd = iorec_reader_open(r->in, &e);
	if (!rd) {
		error("%s: %s (redact reads .iorec recordings, not trace.dat)",
		      r->in, iorec_strerror(e));
		return 1;
	}
	/* the first pass: probe groups, formats, programs */
	while ((ret = iorec_reader_next(rd, &c, true)) > 0)
		if (prepare_chunk(r, &c, &err) < 0 || r->err)
			break;
	if (r->err && !err.code)
		an_nomem(&err, "redact");
	if (err.code) {
		error("%s", err.msg);
		iorec_reader_close(rd);
		return 1;
	}
	if (!r->scrub) {
		error("%s: no header chunk", r->in);
		iorec_reader_close(rd);
		return 1;
	}
	iorec_reader_close(rd);
	rd = iorec_reader_open(r->in, &e);
	if (!rd) {
		error("%s: %s", r->in, iorec_strerror(e));
		return 1;
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create '%s': %s", out, strerror(errno));
		goto done;
	}
	created = true;
	w = iorec_writer_new(fd, 3, 0);	/* iorec's own level */
	if (!w) {
		error("redact: out of memory");
		goto done;
	}
	{
		uint16_t major, minor;

		iorec_reader_version(rd, &major, &minor);
		if (iorec_writer_set_version(w, major, minor) < 0) {
			error("%s: format %u.%u; this ioreport writes 1.0 to %u.%u (use a newer ioreport)",
			      r->in, major, minor, IOREC_VERSION_MAJOR,
			      IOREC_VERSION_MINOR);
			goto done;
		}
	}
	while ((ret = iorec_reader_next(rd, &c, true)) > 0) {
		ret = copy_chunk(r, w, &c, &err);
		if (ret < 0)
			break;
		if (r->err) {
			ret = r->err;
			an_nomem(&err, "redact");
			break;
		}
	}
	if (ret == -IOREC_E_TRUNCATED) {
		warning("%s: ends inside a chunk at offset %llu; %s ends where it does",
			r->in,
			(unsigned long long)iorec_reader_error_offset(rd), out);
		ret = 0;
	}
	if (ret < 0) {
		if (err.code)
			error("%s", err.msg);
		else
			error("%s: at offset %llu: %s (redact needs an undamaged recording)",
			      r->in,
			      (unsigned long long)iorec_reader_error_offset(rd),
			      iorec_strerror(ret));
		goto done;
	}
	ret = iorec_writer_flush(w);
	if (ret < 0 || fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		error("cannot write '%s': %s", out,
		      ret < 0 ? iorec_strerror(ret) : strerror(errno));
		goto done;
	}
	fd = -1;
	if (r->shortened)
		warning("%lu strings in events were longer as pseudonyms than their room; they were cut (use -b or -k to keep names short)",
			r->shortened);
	if (r->unknown)
		warning("%lu events of types without a format were copied as they are",
			r->unknown);
	if (map && write_map(r, map) < 0)
		goto done;
	code = 0;
done:
	iorec_writer_free(w);
	iorec_reader_close(rd);
	if (fd >= 0)
		close(fd);
	if (code && created)
		unlink(out);
	return code;
}

int cmd_redact(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "map", required_argument, NULL, 'm' },
		{ "keep-basenames", no_argument, NULL, 'b' },
		{ "keep-prefix", required_argument, NULL, 'k' },
		{ "no-extensions", no_argument, NULL, 'E' },
		{ "drop-devices", no_argument, NULL, 'D' },
		{ "drop-kernel", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rnames_opts o = { 0 };
	struct redact r = { 0 };
	const char *map = NULL;
	int c, code;

	o.keep_prefix = an_calloc((size_t)argc + 1, sizeof(*o.keep_prefix));
	if (!o.keep_prefix)
		return error("redact: out of memory"), 1;
	optind = 1;
	opterr = 0;		/* cmd_option() names the option */
	while ((c = getopt_long(argc, argv, ":m:bk:Eh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			map = optarg;
			break;
		case 'b':
			o.keep_basenames = true;
			break;
		case 'k':
			if (optarg[0] != '/') {
				free(o.keep_prefix);
				return usage_error(redact_usage,
						   "--keep-prefix wants an absolute path, not '%s'",
						   optarg);
			}
			o.keep_prefix[o.nkeep++] = optarg;
			break;
		case 'E':
			o.no_extensions = true;
			break;
		case 'D':
			o.drop_devices = true;
			break;
		case 'K':
			o.drop_kernel = true;
			break;
		default:	/* -h, and the errors */
			free(o.keep_prefix);
			return cmd_option(redact_usage, c, argv, NULL);
		}
	}
	if (argc - optind != 2) {
		free(o.keep_prefix);
		return usage_error(redact_usage, "redact wants IN and OUT");
	}
	if (!strcmp(argv[optind], "-") || !strcmp(argv[optind + 1], "-") ||
	    !strcmp(argv[optind], argv[optind + 1])) {
		free(o.keep_prefix);
		return usage_error(redact_usage,
				   "IN and OUT must be two files (IN is read twice), not '-'");
	}
	r.in = argv[optind];
	r.names = rnames_new(&o);
	if (!r.names) {
		free(o.keep_prefix);
		return error("redact: out of memory"), 1;
	}
	if (map && access(map, F_OK) == 0) {
		FILE *f = fopen(map, "re");
		unsigned long line = 0;
		int ret = f ? rnames_read_map(r.names, f, &line) : -AN_E_OPEN;

		if (f)
			fclose(f);
		if (ret < 0) {
			if (ret == -AN_E_FORMAT)
				error("%s:%lu: not a line of a redact mapping (KIND\tNAME\tPSEUDONYM); give -m a new file or that mapping",
				      map, line);
			else
				error("cannot read the mapping '%s': %s", map,
				      ret == -AN_E_NOMEM ? "out of memory" :
				      strerror(errno));
			rnames_free(r.names);
			free(o.keep_prefix);
			return 1;
		}
	}
	code = redact_file(&r, argv[optind + 1], map);
	rnames_free(r.names);
	scrub_free(r.scrub);
	free(r.nargs);
	free(o.keep_prefix);
	return code;
}
