// SPDX-License-Identifier: MIT
/*
 * rnames.c - the table of pseudonyms of ioreport redact and
 * the rules that cut paths, comms and command lines into names.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "base/hmap.h"
#include "base/kthread.h"
#include "sbuf.h"
#include "util.h"
#include "input/rnames.h"

struct rname {
	struct hnode h;		/* key: rname_key(kind, name) */
	enum rname_kind kind;
	char *name, *pseudo;
};

struct rnames {
	struct rnames_opts o;
	struct hmap names;	/* struct rname */
	struct rname **order;	/* in the order met */
	size_t n, alloc;
	unsigned long count[RN_NR];
	unsigned long compact;	/* zN names given (make_pseudo()) */
	int err;
};

static const char *const kind_name[RN_NR] = {
	[RN_COMM] = "comm", [RN_PART] = "path", [RN_WORD] = "word",
	[RN_OPT] = "option", [RN_HOST] = "host", [RN_DEV] = "device",
	[RN_KERNEL] = "kernel",
};

struct rnames *rnames_new(const struct rnames_opts *o)
{
	struct rnames *t = an_calloc(1, sizeof(*t));

	if (t)
		t->o = *o;
	return t;
}

void rnames_free(struct rnames *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->order[i]->name);
		free(t->order[i]->pseudo);
	}
	hmap_release(&t->names, NULL);	/* frees the entries */
	free(t->order);
	free(t);
}

const struct rnames_opts *rnames_opts(const struct rnames *t)
{
	return &t->o;
}

int rnames_err(const struct rnames *t)
{
	return t->err;
}

static uint64_t rname_key(enum rname_kind kind, const char *s)
{
	return hash_str(HASH_SEED ^ (uint64_t)kind, s);
}

/*
 * The file-type suffixes a name keeps, lower case: "X.db", "X.db-wal" and
 * "X.db-journal" stay recognisable and related ("n3.db", "n3.db-wal");
 * any other dot of a name is part of the name ("john.smith" is one
 * name, "n9" whole).
 */
static const char *const kept_ext[] = {
	"7z", "a", "aof", "bak", "bin", "bz2", "c", "cc", "cfg", "ckpt",
	"class", "conf", "cpp", "css", "csv", "dat", "db", "db3", "deb",
	"flac", "gif", "go", "gz", "h", "hpp", "htm", "html", "ibd", "idx",
	"img", "ini", "iorec", "iso", "java", "jpeg", "jpg", "js", "json",
	"ldb", "lock", "log", "lz4", "md", "mdb", "mkv", "mp3", "mp4", "npy",
	"o", "ogg", "old", "pack", "parquet", "pdf", "php", "pid", "pl",
	"png", "pt", "py", "pyc", "qcow2", "raw", "rb", "rdb", "rpm", "rs",
	"sh", "shm", "so", "sock", "sqlite", "sqlite3", "sst", "svg", "swp",
	"tar", "tmp", "toml", "ts", "tsv", "txt", "vmdk", "wal", "wav", "xml",
	"xz", "yaml", "yml", "zip", "zst",
};
/* ... and what SQLite adds after one: X.db-wal, X.db-shm, X.db-journal */
static const char *const kept_dash[] = { "wal", "shm", "journal" };

static bool in_list(const char *const *v, size_t n, const char *s,
		    size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i]) == len && !strncasecmp(v[i], s, len))
			return true;
	return false;
}

/*
 * The suffix name keeps (a pointer into it; "" when none): the longest
 * run of ".EXT" at its end, EXT of kept_ext[] and the last one perhaps
 * followed by "-wal", "-shm" or "-journal"; never all of the name.
 */
static const char *kept_suffix(const struct rnames *t, const char *name)
{
	const char *end = name + strlen(name), *suffix = end;

	if (t->o.no_extensions)
		return suffix;
	for (;;) {
		const char *dot = suffix, *dash;

		while (dot > name && dot[-1] != '.')
			dot--;
		if (dot <= name + 1)
			break;		/* no dot, or a hidden file's */
		dash = suffix == end ? memchr(dot, '-', (size_t)(end - dot)) :
		       NULL;
		if (dash && !in_list(kept_dash, ARRAY_SIZE(kept_dash),
				     dash + 1, (size_t)(end - dash - 1)))
			break;
		if (!in_list(kept_ext, ARRAY_SIZE(kept_ext), dot,
			     (size_t)((dash ? dash : suffix) - dot)))
			break;
		suffix = dot - 1;
	}
	return suffix;
}

/*
 * p (taken) with the first control character of name after it, when name
 * has one and there is room: the analysis leaves a path with a control
 * character out (decode/decode.c), and so it must the pseudonym's.
 */
static char *with_control(char *p, const char *name)
{
	const unsigned char *c = (const unsigned char *)name;
	char *q;

	while (*c && *c >= 0x20 && *c != 0x7f)
		c++;
	if (!p || !*c || strlen(p) + 1 > strlen(name))
		return p;
	q = an_asprintf("%s%c", p, *c);
	free(p);
	return q;
}

static const char b62[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/*
 * n in base 62 after prefix, padded with zeros to max characters in all
 * (at most 8 digits), or NULL when it does not fit: a pseudonym as long
 * as its name is never a kept two-letter name.
 */
static char *base62(const char *prefix, unsigned long n, size_t max)
{
	size_t pre = strlen(prefix), width;
	char digits[16];
	size_t k = sizeof(digits);

	if (max <= pre)
		return NULL;
	width = max - pre < 8 ? max - pre : 8;
	digits[--k] = '\0';
	do {
		digits[--k] = b62[n % 62];
		n /= 62;
	} while ((n || sizeof(digits) - 1 - k < width) && k);
	if (n || pre + (sizeof(digits) - 1 - k) > max)
		return NULL;
	return an_asprintf("%s%s", prefix, digits + k);
}

/* The value of "zDIGITS" in base 62, or 0 when pseudo is not one. */
static unsigned long compact_value(const char *pseudo)
{
	unsigned long v = 0;

	if (pseudo[0] != 'z' || !pseudo[1] || strlen(pseudo) > 9)
		return 0;
	for (const char *c = pseudo + 1; *c; c++) {
		const char *d = strchr(b62, *c);

		if (!d)
			return 0;
		v = v * 62 + (unsigned long)(d - b62);
	}
	return v;
}

/*
 * The pseudonym of the n-th name of kind.  A path component or a comm:
 * name-N when it is no longer than the name, else nNN (two digits at
 * least: "n5" could be a kept name), else zN with N the
 * count of such names in base 62 (a three-letter name met after the
 * hundredth: "usr" cannot be "n100"), because in an event it must fit
 * where the name was: cut, two names would become one (the kept suffix
 * is added by rnames_get()).  NULL only without memory; a pseudonym
 * longer than its name only past 3,844 three-letter zN names.
 */
static char *make_pseudo(struct rnames *t, enum rname_kind kind,
			 const char *name, unsigned long n)
{
	size_t len = strlen(name);
	size_t pre;
	char *p;

	switch (kind) {
	case RN_COMM:
		/* only aliases of long program names (rnames_exec()) */
		return NULL;
	case RN_PART:
		/* a name replay/bio-owner.c takes for a kernel thread stays one */
		if (kthread_comm(name, &pre) && pre + 2 <= len) {
			/* md~N, else md^N in base 62 ("md~10" and "md^10"
			   are other threads) */
			char *k = an_asprintf("%.*s^", (int)pre, name);

			p = an_asprintf("%.*s~%lu", (int)pre, name, n);
			if (p && k && strlen(p) > len) {
				free(p);
				p = base62(k, n, len);
			}
			free(k);
			if (p)
				return p;
		}
		p = an_asprintf("name-%lu", n);
		if (p && strlen(p) > len) {
			free(p);
			p = an_asprintf("n%02lu", n);
		}
		if (p && strlen(p) > len) {
			char *z = base62("z", t->compact + 1, len);

			if (z) {
				t->compact++;
				free(p);
				p = z;
			}
		}
		return with_control(p, name);
	case RN_WORD:
		return an_asprintf("arg-%lu", n);
	case RN_OPT:
		return an_asprintf("opt-%lu", n);
	case RN_HOST:
		return an_asprintf("host-%lu", n);
	case RN_DEV:
		return an_asprintf("disk-%lu", n);
	case RN_KERNEL:
	case RN_NR:
		break;
	}
	return an_asprintf("kernel-%lu", n);
}

/* Add name -> pseudo; returns the entry or NULL without memory. */
static struct rname *add_entry(struct rnames *t, enum rname_kind kind,
			       const char *name, char *pseudo)
{
	char *copy = an_strdup(name);
	struct rname *e;

	if (!pseudo || !copy ||
	    an_grow((void **)&t->order, &t->alloc, t->n + 1,
		    sizeof(*t->order), 256) < 0)
		goto nomem;
	e = hmap_add_new(&t->names, rname_key(kind, name), sizeof(*e));
	if (!e)
		goto nomem;
	e->kind = kind;
	e->name = copy;
	e->pseudo = pseudo;
	t->order[t->n++] = e;
	return e;
nomem:
	free(copy);
	free(pseudo);
	t->err = -AN_E_NOMEM;
	return NULL;
}

/* The entry's pseudonym when name is known as kind, else NULL. */
static const char *rnames_lookup(const struct rnames *t, enum rname_kind kind,
				 const char *name)
{
	uint64_t key = rname_key(kind, name);
	struct hnode **pp = hmap_slot(&t->names, key);

	for (; pp && *pp; pp = &(*pp)->next) {
		const struct rname *e = (const struct rname *)*pp;

		if (e->h.key == key && e->kind == kind &&
		    !strcmp(e->name, name))
			return e->pseudo;
	}
	return NULL;
}

const char *rnames_get(struct rnames *t, enum rname_kind kind,
		       const char *name)
{
	const struct rname *e;
	const char *p;
	unsigned long n;

	/* two letters name no one, and leave no room for a pseudonym */
	if (strlen(name) <= RNAMES_KEEP_LEN &&
	    (kind == RN_COMM || kind == RN_PART || kind == RN_WORD ||
	     kind == RN_OPT))
		return name;
	p = rnames_lookup(t, kind, name);
	if (p)
		return p;
	if (kind == RN_PART && !kthread_comm(name, NULL)) {
		const char *suffix = kept_suffix(t, name);

		if (*suffix) {
			/* X.db, X.db-wal: the pseudonym of X, the suffix */
			char *stem = strndup(name, (size_t)(suffix - name));
			const char *sp = stem ? rnames_get(t, kind, stem) : NULL;
			char *q = sp ? an_asprintf("%s%s", sp, suffix) : NULL;

			if (q && strlen(q) > strlen(name)) {
				/* no room for the suffix: the stem's alone */
				free(q);
				q = an_strdup(sp);
			}
			free(stem);
			if (!q) {
				t->err = -AN_E_NOMEM;
				return NULL;
			}
			e = add_entry(t, kind, name, q);
			return e ? e->pseudo : NULL;
		}
	}
	n = ++t->count[kind];
	e = add_entry(t, kind, name, make_pseudo(t, kind, name, n));
	return e ? e->pseudo : NULL;
}

int rnames_keep(struct rnames *t, enum rname_kind kind, const char *name)
{
	const char *p = rnames_lookup(t, kind, name);

	if (p)
		return 0;
	return add_entry(t, kind, name, an_strdup(name)) ? 0 : -AN_E_NOMEM;
}

static void add_pseudo(struct rnames *t, enum rname_kind kind,
		       const char *name, struct sbuf *out)
{
	const char *p = rnames_get(t, kind, name);

	/* without memory the name goes, never the original */
	sbuf_addstr(out, p ? p : "?");
}

/* "pipe:[123]", "socket:[9]", "anon_inode:[eventfd]": the kernel's */
static bool pseudo_file(const char *s)
{
	const char *c = strchr(s, ':');

	if (!c || *s == '/')
		return false;
	for (const char *p = s; p < c; p++)
		if (!islower((unsigned char)*p) && *p != '_')
			return false;
	return c[1] == '[' || !strncmp(s, "anon_inode:", 11);
}

static bool under_prefix(const struct rnames *t, const char *path)
{
	static const char *const sys[] = { "/proc", "/sys", "/dev" };

	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		size_t n = strlen(sys[i]);

		if (!strncmp(path, sys[i], n) && (!path[n] || path[n] == '/'))
			return true;
	}
	for (int i = 0; i < t->o.nkeep; i++) {
		const char *k = t->o.keep_prefix[i];
		size_t n = strlen(k);

		while (n > 1 && k[n - 1] == '/')
			n--;
		if (!strncmp(path, k, n) &&
		    (!path[n] || path[n] == '/' || k[n - 1] == '/'))
			return true;
	}
	return false;
}

void rnames_path(struct rnames *t, const char *path, struct sbuf *out)
{
	static const char deleted[] = " (deleted)";
	size_t len = strlen(path), dl = strlen(deleted);
	bool del = len > dl && !strcmp(path + len - dl, deleted);
	const char *p = path, *end = path + (del ? len - dl : len);
	char part[4096];

	if (!*path || pseudo_file(path) || under_prefix(t, path)) {
		sbuf_addstr(out, path);
		return;
	}
	while (p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		const char *e = slash ? slash : end;
		size_t n = (size_t)(e - p);

		if (n && n < sizeof(part)) {
			memcpy(part, p, n);
			part[n] = '\0';
			if (!strcmp(part, ".") || !strcmp(part, "..") ||
			    (t->o.keep_basenames && !slash))
				sbuf_addstr(out, part);
			else
				add_pseudo(t, RN_PART, part, out);
		} else if (n) {
			sbuf_addstr(out, "?");
		}
		if (slash)
			sbuf_addch(out, '/');
		p = slash ? slash + 1 : end;
	}
	if (del)
		sbuf_addstr(out, deleted);
}

/*
 * A comm is named like a path component: after an exec the analyzer
 * names a process by its program's basename (replay/proctable.c), so
 * comm and basename must become the same pseudonym.
 */
void rnames_comm(struct rnames *t, const char *comm, struct sbuf *out)
{
	const char *p;

	if (!*comm || !strcmp(comm, "<...>") || !strcmp(comm, "<idle>") ||
	    kthread_comm(comm, NULL)) {
		sbuf_addstr(out, comm);
		return;
	}
	p = rnames_lookup(t, RN_COMM, comm);
	if (p)
		sbuf_addstr(out, p);
	else
		add_pseudo(t, RN_PART, comm, out);
}

int rnames_exec(struct rnames *t, const char *path)
{
	const char *base = strrchr(path, '/'), *p;
	char comm[RNAMES_COMM_MAX + 1];

	base = base ? base + 1 : path;
	if (strlen(base) <= RNAMES_COMM_MAX || under_prefix(t, path) ||
	    t->o.keep_basenames)
		return 0;
	/* the kernel's comm: the first 15 bytes of the basename */
	memcpy(comm, base, RNAMES_COMM_MAX);
	comm[RNAMES_COMM_MAX] = '\0';
	if (rnames_lookup(t, RN_COMM, comm))
		return 0;
	p = rnames_get(t, RN_PART, base);
	if (!p)
		return -AN_E_NOMEM;
	return add_entry(t, RN_COMM, comm, an_asprintf("%.*s",
						       RNAMES_COMM_MAX, p)) ?
	       0 : -AN_E_NOMEM;
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* One word of a command line or a text. */
static void one_word(struct rnames *t, const char *w, size_t n,
		     struct sbuf *out)
{
	char buf[4096];
	const char *eq;
	size_t d;

	if (n >= sizeof(buf)) {
		sbuf_addstr(out, "?");
		return;
	}
	memcpy(buf, w, n);
	buf[n] = '\0';
	if (all_digits(buf, n) || (n == 2 && buf[0] == '-' &&
				   isalnum((unsigned char)buf[1]))) {
		sbuf_addstr(out, buf);	/* a number, a one-letter flag */
		return;
	}
	for (d = 0; d < n && buf[d] == '-'; d++)
		sbuf_addch(out, '-');
	if (d) {
		eq = strchr(buf + d, '=');
		if (eq) {
			buf[eq - buf] = '\0';
			if (buf[d])
				add_pseudo(t, RN_OPT, buf + d, out);
			sbuf_addch(out, '=');
			one_word(t, eq + 1, strlen(eq + 1), out);
		} else if (buf[d]) {
			add_pseudo(t, RN_OPT, buf + d, out);
		}
		return;
	}
	if (!isalpha((unsigned char)buf[0]) && !strchr(buf, '/')) {
		bool letter = false;

		for (size_t i = 0; i < n; i++)
			letter |= isalpha((unsigned char)buf[i]) != 0;
		if (!letter && !strchr(buf, '.')) {
			sbuf_addstr(out, buf);	/* "+5", "1:2" */
			return;
		}
	}
	if (strchr(buf, '/'))
		rnames_path(t, buf, out);
	else
		add_pseudo(t, RN_WORD, buf, out);
}

void rnames_cmdline(struct rnames *t, const char *cmd, struct sbuf *out)
{
	const char *p = cmd;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (n)
			one_word(t, p, n, out);
		p += n;
		while (*p == ' ') {
			sbuf_addch(out, ' ');
			p++;
		}
	}
}

int rnames_write_map(const struct rnames *t, FILE *f)
{
	struct sbuf line = SBUF_INIT;
	bool nomem;

	fputs("# ioreport redact: KIND\tNAME\tPSEUDONYM\n", f);
	for (size_t i = 0; i < t->n && !line.failed; i++) {
		const struct rname *e = t->order[i];

		sbuf_reset(&line);
		sbuf_addf(&line, "%s\t", kind_name[e->kind]);
		sbuf_add_escaped(&line, e->name);
		sbuf_addch(&line, '\t');
		sbuf_add_escaped(&line, e->pseudo);
		sbuf_addch(&line, '\n');
		if (!line.failed)
			fputs(line.buf, f);
	}
	nomem = line.failed;
	sbuf_release(&line);
	if (nomem) {
		errno = ENOMEM;
		return -1;
	}
	if (ferror(f)) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int rnames_read_map(struct rnames *t, FILE *f, unsigned long *line_no)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	*line_no = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		char *kind, *name, *pseudo, *save = line;
		int k;

		++*line_no;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (!n || line[0] == '#')
			continue;
		kind = strsep(&save, "\t");
		name = strsep(&save, "\t");
		pseudo = save;
		for (k = 0; k < RN_NR; k++)
			if (!strcmp(kind, kind_name[k]))
				break;
		if (k == RN_NR || !name || !pseudo || strchr(pseudo, '\t')) {
			free(line);
			return -AN_E_FORMAT;
		}
		unescape_field(name);
		unescape_field(pseudo);
		if (!add_entry(t, (enum rname_kind)k, name, an_strdup(pseudo))) {
			free(line);
			return -AN_E_NOMEM;
		}
		/* new names are numbered after the ones read */
		t->count[k]++;
		if (k == RN_PART && compact_value(pseudo) > t->compact)
			t->compact = compact_value(pseudo);
	}
	free(line);
	return 0;
}
