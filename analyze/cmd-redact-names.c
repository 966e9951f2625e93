// SPDX-License-Identifier: MIT
/*
 * cmd-redact-names.c - the table of pseudonyms of ioreport redact and
 * the rules that cut paths, comms and command lines into names.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hmap.h"
#include "base/kthread.h"
#include "sbuf.h"
#include "util.h"
#include "cmd-redact-names.h"

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

/* The extension kept of a path component ("" when none). */
static const char *extension(const struct rnames *t, const char *name)
{
	const char *dot = strrchr(name, '.');

	if (t->o.no_extensions || !dot || dot == name || strlen(dot) > 9)
		return "";
	for (const char *p = dot + 1; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return "";
	return dot[1] ? dot : "";
}

/*
 * The pseudonym of the n-th name of kind: the long form (name-N,
 * file-N.EXT) when it is no longer than the name, else the short one
 * (nN, fN.EXT), because in an event it must fit where the name was.
 */
static char *make_pseudo(struct rnames *t, enum rname_kind kind,
			 const char *name, unsigned long n)
{
	size_t len = strlen(name);
	const char *ext;
	size_t pre;
	char *p;

	switch (kind) {
	case RN_COMM:
		/* only aliases of long program names (rnames_exec()) */
		return NULL;
	case RN_PART:
		/* a name stats/attrib.c takes for a kernel thread stays one */
		if (kthread_comm(name, &pre) && pre + 2 <= len)
			return an_asprintf("%.*s~%lu", (int)pre, name, n);
		ext = extension(t, name);
		p = *ext ? an_asprintf("file-%lu%s", n, ext) :
			   an_asprintf("name-%lu", n);
		if (p && strlen(p) > len) {
			free(p);
			p = *ext ? an_asprintf("f%lu%s", n, ext) :
				   an_asprintf("n%lu", n);
		}
		if (p && strlen(p) > len && *ext) {
			/* "C.utf8": the extension goes before the room does */
			free(p);
			p = an_asprintf("f%lu", n);
		}
		return p;
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
	/* parts share one count: "dir-3" and "file-4.db" never meet */
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
	}
	free(line);
	return 0;
}
