// SPDX-License-Identifier: MIT
/*
 * snapcmp.c - config differences between two recordings' snapshots, and
 * small snapshot readers (see snapcmp.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "iorec-format.h"
#include "stats/snapcmp.h"

#define MAXF	8

static bool tok_in(const char *list, const char *tok);

/* Call fn for every line of kind in text, fields unescaped (f[0] is kind). */
static void each_line(const char *text, const char *kind,
		      void (*fn)(char **f, int n, void *arg), void *arg)
{
	size_t klen = strlen(kind);
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > klen && !strncmp(p, kind, klen) && p[klen] == '\t') {
			char *line = xmalloc(len + 1), *f[MAXF], *s = line;
			int n = 0;

			memcpy(line, p, len);
			line[len] = '\0';
			while (n < MAXF) {
				char *t = strchr(s, '\t');

				f[n++] = s;
				if (!t)
					break;
				*t = '\0';
				s = t + 1;
			}
			for (int i = 0; i < n; i++)
				unescape_field(f[i]);
			fn(f, n, arg);
			free(line);
		}
		p = nl ? nl + 1 : NULL;
	}
}

uint32_t snap_devt(const char *majmin)
{
	unsigned int ma, mi;

	if (!majmin || sscanf(majmin, "%u:%u", &ma, &mi) != 2)
		return 0;
	return ma << 20 | (mi & 0xfffff);
}

/* ------------------------------------------------------------------ */
/* Readers */

struct parent_q {
	uint32_t dev;
	char disk[128];
	uint32_t disk_dev;
};

static void find_parent(char **f, int n, void *arg)
{
	struct parent_q *q = arg;

	if (n >= 5 && !strcmp(f[3], "parent") && snap_devt(f[2]) == q->dev)
		snprintf(q->disk, sizeof(q->disk), "%s", f[4]);
}

static void find_disk_dev(char **f, int n, void *arg)
{
	struct parent_q *q = arg;

	if (n >= 3 && !q->disk_dev && !strcmp(f[1], q->disk))
		q->disk_dev = snap_devt(f[2]);
}

uint32_t snap_disk_of(const char *snap, uint32_t dev)
{
	struct parent_q q = { .dev = dev };

	if (!snap)
		return dev;
	each_line(snap, "blockdev", find_parent, &q);
	if (!q.disk[0])
		return dev;
	each_line(snap, "blockdev", find_disk_dev, &q);
	return q.disk_dev ? q.disk_dev : dev;
}

struct ds_q {
	uint32_t dev;
	char *buf;
	size_t n;
	bool found;
};

static void find_ds(char **f, int n, void *arg)
{
	struct ds_q *q = arg;
	char mm[48];

	if (n < 5 || q->found)
		return;
	snprintf(mm, sizeof(mm), "%s:%s", f[1], f[2]);
	if (snap_devt(mm) != q->dev)
		return;
	snprintf(q->buf, q->n, "%s", f[4]);
	q->found = true;
}

bool snap_diskstats(const char *snap, uint32_t dev, char *buf, size_t n)
{
	struct ds_q q = { dev, buf, n, false };

	if (!snap)
		return false;
	each_line(snap, "diskstats", find_ds, &q);
	return q.found;
}

struct mnt_q {
	const char *path;
	size_t best;
	uint32_t dev;
};

static void find_mount(char **f, int n, void *arg)
{
	struct mnt_q *q = arg;
	size_t l;

	if (n < 5)
		return;
	l = strlen(f[3]);
	if (strncmp(q->path, f[3], l))
		return;
	/* "/" matches everything; "/mnt" must not match "/mntx" */
	if (l > 1 && q->path[l] != '/' && q->path[l] != '\0')
		return;
	if (l >= q->best) {
		q->best = l;
		q->dev = snap_devt(f[1]);
	}
}

size_t snap_mount_of(const char *snap, const char *path, uint32_t *dev)
{
	struct mnt_q q = { path, 0, 0 };

	if (!snap || !path || path[0] != '/')
		return 0;
	each_line(snap, "mount", find_mount, &q);
	if (q.best)
		*dev = q.dev;
	return q.best;
}

/* Is opt (exactly, or "opt=...") in the comma list? val gets the value. */
static bool has_opt(const char *opts, const char *opt, char *val, size_t n)
{
	size_t l = strlen(opt);
	const char *p = opts;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len >= l && !strncmp(p, opt, l) &&
		    (len == l || p[l] == '=')) {
			if (val && n) {
				size_t vl = len > l ? len - l - 1 : 0;

				if (vl >= n)
					vl = n - 1;
				memcpy(val, p + l + (len > l), vl);
				val[vl] = '\0';
			}
			return true;
		}
		p = c ? c + 1 : NULL;
	}
	return false;
}

bool snap_opt_barrier(const char *opts)
{
	char v[16];

	if (has_opt(opts, "nobarrier", NULL, 0))
		return false;
	if (has_opt(opts, "barrier", v, sizeof(v)))
		return strcmp(v, "0") != 0;
	return true;
}

/* ------------------------------------------------------------------ */
/* The parsed facts of one snapshot */

struct mnt {
	uint32_t dev;
	char *src, *dir, *type, *opts;	/* opts: mount + super, deduplicated */
	int match;			/* index on the other side, -1 */
};

struct kv {
	char *key, *val;
};

struct facts {
	char *kernel, *machine, *cpus, *memtotal;
	struct kv *sysctl;
	size_t nsysctl;
	struct kv *bdev;		/* key "name\tattr" */
	size_t nbdev;
	struct mnt *mnt;
	size_t nmnt;
};

static void kv_add(struct kv **v, size_t *n, const char *k, const char *val)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].key = xstrdup(k);
	(*v)[*n].val = xstrdup(val);
	(*n)++;
}

static const char *kv_find(const struct kv *v, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].key, k))
			return v[i].val;
	return NULL;
}

static void on_uname(char **f, int n, void *arg)
{
	struct facts *fa = arg;

	if (n >= 5 && !fa->kernel) {
		fa->kernel = xasprintf("%s %s", f[2], f[3]);
		fa->machine = xstrdup(f[4]);
	}
}

static void on_sysctl(char **f, int n, void *arg)
{
	struct facts *fa = arg;

	if (n >= 3)
		kv_add(&fa->sysctl, &fa->nsysctl, f[1], f[2]);
}

static void on_meminfo(char **f, int n, void *arg)
{
	struct facts *fa = arg;

	if (n >= 3 && !strcmp(f[1], "MemTotal") && !fa->memtotal)
		fa->memtotal = xasprintf("%s kB", f[2]);
}

static void on_blockdev(char **f, int n, void *arg)
{
	struct facts *fa = arg;
	char *k;

	if (n < 5 || !strcmp(f[3], "parent") || !strcmp(f[3], "size_sectors"))
		return;
	k = xasprintf("%s\t%s\t%s", f[1], f[2], f[3]);
	kv_add(&fa->bdev, &fa->nbdev, k, f[4]);
	free(k);
}

static void add_opts(struct strbuf *sb, const char *opts)
{
	const char *p = opts;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		char *o = xmalloc(len + 1);

		memcpy(o, p, len);
		o[len] = '\0';
		if (len && (!sb->len || !tok_in(sb->buf, o))) {
			if (sb->len)
				strbuf_addch(sb, ',');
			strbuf_addstr(sb, o);
		}
		free(o);
		p = c ? c + 1 : NULL;
	}
}

static void on_mount(char **f, int n, void *arg)
{
	struct facts *fa = arg;
	struct strbuf sb = STRBUF_INIT;
	struct mnt *m;

	if (n < 6)
		return;
	fa->mnt = xrealloc(fa->mnt, (fa->nmnt + 1) * sizeof(*fa->mnt));
	m = &fa->mnt[fa->nmnt++];
	m->dev = snap_devt(f[1]);
	m->src = xstrdup(f[2]);
	m->dir = xstrdup(f[3]);
	m->type = xstrdup(f[4]);
	add_opts(&sb, f[5]);
	if (n >= 7)
		add_opts(&sb, f[6]);
	m->opts = sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
	m->match = -1;
}

static void facts_load(struct facts *fa, const char *hdr, const char *snap)
{
	char buf[256];

	memset(fa, 0, sizeof(*fa));
	if (snap) {
		each_line(snap, "uname", on_uname, fa);
		each_line(snap, "sysctl", on_sysctl, fa);
		each_line(snap, "meminfo", on_meminfo, fa);
		each_line(snap, "blockdev", on_blockdev, fa);
		each_line(snap, "mount", on_mount, fa);
	}
	if (hdr && !fa->kernel &&
	    iorec_kv_get(hdr, strlen(hdr), "kernel", buf, sizeof(buf)) >= 0)
		fa->kernel = xstrdup(buf);
	if (hdr && !fa->machine &&
	    iorec_kv_get(hdr, strlen(hdr), "machine", buf, sizeof(buf)) >= 0)
		fa->machine = xstrdup(buf);
	if (hdr && iorec_kv_get(hdr, strlen(hdr), "cpus", buf,
				sizeof(buf)) >= 0)
		fa->cpus = xstrdup(buf);
}

static void kvs_free(struct kv *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].val);
	}
	free(v);
}

static void facts_free(struct facts *fa)
{
	free(fa->kernel);
	free(fa->machine);
	free(fa->cpus);
	free(fa->memtotal);
	kvs_free(fa->sysctl, fa->nsysctl);
	kvs_free(fa->bdev, fa->nbdev);
	for (size_t i = 0; i < fa->nmnt; i++) {
		free(fa->mnt[i].src);
		free(fa->mnt[i].dir);
		free(fa->mnt[i].type);
		free(fa->mnt[i].opts);
	}
	free(fa->mnt);
}

/* ------------------------------------------------------------------ */
/* Comparison */

static void item(struct snapdiff *sd, const char *what, const char *key,
		 const char *b, const char *a, char *note)
{
	struct snapdiff_item *it;

	if (sd->n == sd->alloc) {
		sd->alloc = sd->alloc ? 2 * sd->alloc : 16;
		sd->v = xrealloc(sd->v, sd->alloc * sizeof(*sd->v));
	}
	it = &sd->v[sd->n++];
	it->what = what;
	it->key = xstrdup(key);
	it->before = b ? xstrdup(b) : NULL;
	it->after = a ? xstrdup(a) : NULL;
	it->note = note;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void cmp_str(struct snapdiff *sd, const char *what, const char *key,
		    const char *b, const char *a)
{
	if (!same(a, b))
		item(sd, what, key, b, a, NULL);
}

static void cmp_kvs(struct snapdiff *sd, const char *what,
		    const struct kv *b, size_t nb, const struct kv *a,
		    size_t na)
{
	size_t i;

	for (i = 0; i < nb; i++)
		cmp_str(sd, what, b[i].key, b[i].val, kv_find(a, na, b[i].key));
	for (i = 0; i < na; i++)
		if (!kv_find(b, nb, a[i].key))
			item(sd, what, a[i].key, NULL, a[i].val, NULL);
}

static bool mnt_interesting(const struct mnt *m,
			    bool (*used)(uint32_t, void *), void *arg)
{
	if (used && m->dev && used(m->dev, arg))
		return true;
	return false;
}

/* Is tok exactly one of the comma-separated items of list? */
static bool tok_in(const char *list, const char *tok)
{
	size_t l = strlen(tok);
	const char *p = list;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == l && !strncmp(p, tok, l))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

/* "+opt -opt" of the two option lists, and the ext4 readings. */
static char *mount_note(const char *b, const char *a)
{
	struct strbuf sb = STRBUF_INIT;
	char vb[64], va[64];
	const char *p;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const char *from = pass ? b : a, *other = pass ? a : b;

		for (p = from; p && *p;) {
			const char *c = strchr(p, ',');
			size_t len = c ? (size_t)(c - p) : strlen(p);
			char *o = xmalloc(len + 1);

			memcpy(o, p, len);
			o[len] = '\0';
			/* an exact option not in the other list */
			if (len && !tok_in(other, o))
				strbuf_addf(&sb, "%s%c%s", sb.len ? " " : "",
					    pass ? '-' : '+', o);
			free(o);
			p = c ? c + 1 : NULL;
		}
	}
	if (snap_opt_barrier(b) != snap_opt_barrier(a))
		strbuf_addf(&sb, "; barrier %s -> %s",
			    snap_opt_barrier(b) ? "on" : "off",
			    snap_opt_barrier(a) ? "on" : "off");
	if (!has_opt(b, "data", vb, sizeof(vb)))
		strcpy(vb, "ordered");
	if (!has_opt(a, "data", va, sizeof(va)))
		strcpy(va, "ordered");
	if (strcmp(vb, va))
		strbuf_addf(&sb, "; data=%s -> data=%s", vb, va);
	if (!has_opt(b, "commit", vb, sizeof(vb)))
		strcpy(vb, "5");
	if (!has_opt(a, "commit", va, sizeof(va)))
		strcpy(va, "5");
	if (strcmp(vb, va))
		strbuf_addf(&sb, "; commit=%s -> commit=%s", vb, va);
	return sb.buf ? strbuf_detach(&sb, NULL) : NULL;
}

static void devmap_add(struct snapdiff *sd, uint32_t after, uint32_t before)
{
	if (after == before || !after || !before)
		return;
	for (size_t i = 0; i < sd->ndm; i++)
		if (sd->dm[i].after == after)
			return;
	sd->dm = xrealloc(sd->dm, (sd->ndm + 1) * sizeof(*sd->dm));
	sd->dm[sd->ndm].after = after;
	sd->dm[sd->ndm].before = before;
	sd->ndm++;
}

static void match_mounts(struct facts *b, struct facts *a,
			 bool (*used)(uint32_t, void *), void *arg)
{
	size_t i, j;
	int pass;

	/* 1: same mount point; 2: same source device */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < b->nmnt; i++) {
			if (b->mnt[i].match >= 0)
				continue;
			for (j = 0; j < a->nmnt; j++) {
				if (a->mnt[j].match >= 0)
					continue;
				if (pass == 0 ? strcmp(b->mnt[i].dir, a->mnt[j].dir) :
				    (strncmp(b->mnt[i].src, "/dev/", 5) ||
				     strcmp(b->mnt[i].src, a->mnt[j].src) ||
				     strcmp(b->mnt[i].type, a->mnt[j].type)))
					continue;
				b->mnt[i].match = (int)j;
				a->mnt[j].match = (int)i;
				break;
			}
		}
	/* 3: one used unmatched file system of a type on each side */
	for (i = 0; i < b->nmnt; i++) {
		size_t nb = 0, na = 0, ja = 0;

		if (b->mnt[i].match >= 0 || !mnt_interesting(&b->mnt[i], used, arg))
			continue;
		for (j = 0; j < b->nmnt; j++)
			nb += b->mnt[j].match < 0 &&
			      !strcmp(b->mnt[j].type, b->mnt[i].type) &&
			      mnt_interesting(&b->mnt[j], used, arg);
		for (j = 0; j < a->nmnt; j++)
			if (a->mnt[j].match < 0 &&
			    !strcmp(a->mnt[j].type, b->mnt[i].type) &&
			    mnt_interesting(&a->mnt[j], used, arg)) {
				na++;
				ja = j;
			}
		if (nb == 1 && na == 1) {
			b->mnt[i].match = (int)ja;
			a->mnt[ja].match = (int)i;
		}
	}
}

void snapdiff_compute(struct snapdiff *sd, const char *hdr_b,
		      const char *snap_b, const char *hdr_a,
		      const char *snap_a, bool (*used)(uint32_t, void *),
		      void *arg)
{
	struct facts b, a;
	size_t i;

	facts_load(&b, hdr_b, snap_b);
	facts_load(&a, hdr_a, snap_a);
	cmp_str(sd, "kernel", "kernel", b.kernel, a.kernel);
	cmp_str(sd, "machine", "machine", b.machine, a.machine);
	cmp_str(sd, "machine", "cpus", b.cpus, a.cpus);
	cmp_str(sd, "memory", "MemTotal", b.memtotal, a.memtotal);
	cmp_kvs(sd, "sysctl", b.sysctl, b.nsysctl, a.sysctl, a.nsysctl);

	match_mounts(&b, &a, used, arg);
	for (i = 0; i < b.nmnt; i++) {
		struct mnt *mb = &b.mnt[i], *ma;
		char *key;

		if (mb->match < 0) {
			if (mnt_interesting(mb, used, arg))
				item(sd, "mount", mb->dir, mb->opts, NULL,
				     xasprintf("%s %s not mounted after",
					       mb->type, mb->src));
			continue;
		}
		ma = &a.mnt[mb->match];
		if (strcmp(mb->dir, ma->dir)) {
			sd->mp = xrealloc(sd->mp, (sd->nmp + 1) * sizeof(*sd->mp));
			sd->mp[sd->nmp].after = xstrdup(ma->dir);
			sd->mp[sd->nmp].before = xstrdup(mb->dir);
			sd->nmp++;
		}
		devmap_add(sd, ma->dev, mb->dev);
		if (!mnt_interesting(mb, used, arg) &&
		    !mnt_interesting(ma, used, arg))
			continue;
		if (!strcmp(mb->opts, ma->opts) && !strcmp(mb->type, ma->type))
			continue;
		key = strcmp(mb->dir, ma->dir) ?
		      xasprintf("%s (after: %s)", mb->dir, ma->dir) :
		      xstrdup(mb->dir);
		if (strcmp(mb->type, ma->type)) {
			char *bb = xasprintf("%s %s", mb->type, mb->opts);
			char *aa = xasprintf("%s %s", ma->type, ma->opts);

			item(sd, "mount", key, bb, aa,
			     xasprintf("type %s -> %s", mb->type, ma->type));
			free(bb);
			free(aa);
		} else {
			item(sd, "mount", key, mb->opts, ma->opts,
			     mount_note(mb->opts, ma->opts));
		}
		free(key);
	}
	for (i = 0; i < a.nmnt; i++)
		if (a.mnt[i].match < 0 && mnt_interesting(&a.mnt[i], used, arg))
			item(sd, "mount", a.mnt[i].dir, NULL, a.mnt[i].opts,
			     xasprintf("%s %s mounted only after",
				       a.mnt[i].type, a.mnt[i].src));

	/* block queue settings of the used devices, AFTER ones mapped */
	for (i = 0; i < b.nbdev; i++) {
		char name[128], mm[32], attr[64];
		uint32_t dev;
		const char *av = NULL;

		if (sscanf(b.bdev[i].key, "%127[^\t]\t%31[^\t]\t%63s", name,
			   mm, attr) != 3)
			continue;
		dev = snap_devt(mm);
		if (!used || !used(dev, arg))
			continue;
		for (size_t j = 0; j < a.nbdev && !av; j++) {
			char an[128], amm[32], aattr[64];

			if (sscanf(a.bdev[j].key, "%127[^\t]\t%31[^\t]\t%63s",
				   an, amm, aattr) == 3 &&
			    !strcmp(aattr, attr) &&
			    snapdiff_dev(sd, snap_devt(amm)) == dev)
				av = a.bdev[j].val;
		}
		if (av && strcmp(av, b.bdev[i].val)) {
			char *key = xasprintf("%s %s", name, attr);

			item(sd, "blockdev", key, b.bdev[i].val, av, NULL);
			free(key);
		}
	}
	facts_free(&b);
	facts_free(&a);
}

void snapdiff_release(struct snapdiff *sd)
{
	for (size_t i = 0; i < sd->n; i++) {
		free(sd->v[i].key);
		free(sd->v[i].before);
		free(sd->v[i].after);
		free(sd->v[i].note);
	}
	free(sd->v);
	for (size_t i = 0; i < sd->nmp; i++) {
		free(sd->mp[i].after);
		free(sd->mp[i].before);
	}
	free(sd->mp);
	free(sd->dm);
	memset(sd, 0, sizeof(*sd));
}

const char *snapdiff_path(const struct snapdiff *sd, const char *path,
			  char *buf, size_t n)
{
	size_t best = 0, bi = 0;

	if (!path)
		return path;
	for (size_t i = 0; i < sd->nmp; i++) {
		size_t l = strlen(sd->mp[i].after);

		if (l > best && !strncmp(path, sd->mp[i].after, l) &&
		    (path[l] == '/' || path[l] == '\0')) {
			best = l;
			bi = i;
		}
	}
	if (!best)
		return path;
	snprintf(buf, n, "%s%s", sd->mp[bi].before, path + best);
	return buf;
}

uint32_t snapdiff_dev(const struct snapdiff *sd, uint32_t dev)
{
	for (size_t i = 0; i < sd->ndm; i++)
		if (sd->dm[i].after == dev)
			return sd->dm[i].before;
	return dev;
}
