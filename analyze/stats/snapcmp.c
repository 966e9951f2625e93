// SPDX-License-Identifier: MIT
/*
 * snapcmp.c - config differences between two recordings' snapshots (see
 * snapcmp.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "sbuf.h"
#include "base/strlist.h"
#include "input/meta.h"
#include "stats/snapcmp.h"
#include "stats/summary.h"

/* ------------------------------------------------------------------ */
/* The parsed facts of one snapshot */

struct mnt {
	uint32_t dev;
	char *src, *dir, *type, *opts;	/* opts: mount + super, deduplicated */
	int match;			/* index on the other side, -1 */
	const char *why;		/* how it was matched (static) */
};

struct kv {
	char *key, *val;
};

/* A file of one side: its mount (index) and its path below it. */
struct rel {
	size_t mnt;
	const char *rel;
};

struct facts {
	char *kernel, *machine, *cpus, *memtotal;
	struct kv *sysctl;
	size_t nsysctl, asysctl;
	struct kv *bdev;		/* key "name\tattr" */
	size_t nbdev, abdev;
	struct mnt *mnt;
	size_t nmnt, amnt;
	int err;			/* sticky: -AN_E_NOMEM */
};

/* s, or with the error set when it is NULL (a failed allocation). */
static char *kept(int *err, char *s)
{
	if (!s)
		*err = -AN_E_NOMEM;
	return s;
}

/*
 * Add k = val to the array *v of *n (room *alloc); without memory nothing
 * is added and *err is set.
 */
static void kv_add(struct kv **v, size_t *n, size_t *alloc, const char *k,
		   const char *val, int *err)
{
	char *ck = an_strdup(k), *cv = an_strdup(val);
	struct kv *e = ck && cv ? an_push(v, n, alloc, sizeof(**v), 16) : NULL;

	if (!e) {
		free(ck);
		free(cv);
		*err = -AN_E_NOMEM;
		return;
	}
	e->key = ck;
	e->val = cv;
}

static const char *kv_find(const struct kv *v, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].key, k))
			return v[i].val;
	return NULL;
}

static int on_uname(char **f, int n, void *arg)
{
	struct facts *fa = arg;

	if (n >= 5 && !fa->kernel) {
		fa->kernel = kept(&fa->err, an_asprintf("%s %s", f[2], f[3]));
		fa->machine = kept(&fa->err, an_strdup(f[4]));
	}
	return 0;
}

static int on_sysctl(char **f, int n, void *arg)
{
	struct facts *fa = arg;

	if (n >= 3)
		kv_add(&fa->sysctl, &fa->nsysctl, &fa->asysctl, f[1], f[2],
		       &fa->err);
	return 0;
}

static int on_meminfo(char **f, int n, void *arg)
{
	struct facts *fa = arg;

	if (n >= 3 && !strcmp(f[1], "MemTotal") && !fa->memtotal)
		fa->memtotal = kept(&fa->err, an_asprintf("%s kB", f[2]));
	return 0;
}

static int on_blockdev(char **f, int n, void *arg)
{
	struct facts *fa = arg;
	char *k;

	if (n < 5 || !strcmp(f[3], "parent") || !strcmp(f[3], "size_sectors"))
		return 0;
	k = kept(&fa->err, an_asprintf("%s\t%s\t%s", f[1], f[2], f[3]));
	if (k)
		kv_add(&fa->bdev, &fa->nbdev, &fa->abdev, k, f[4], &fa->err);
	free(k);
	return 0;
}

/* The options of the list opts not yet in sb appended, comma-separated. */
static void add_opts(struct sbuf *sb, const char *opts)
{
	const char *p = opts, *opt;
	size_t len;

	while (strlist_next(&p, &opt, &len)) {
		if (!len || (sb->len && strlist_has(sb->buf, opt, len)))
			continue;
		if (sb->len)
			sbuf_addch(sb, ',');
		sbuf_add(sb, opt, len);
	}
}

static void mnt_free(struct mnt *m)
{
	free(m->src);
	free(m->dir);
	free(m->type);
	free(m->opts);
}

static int on_mount(char **f, int n, void *arg)
{
	struct facts *fa = arg;
	struct sbuf sb = SBUF_INIT;
	struct mnt m, *v;

	if (n < 6)
		return 0;
	memset(&m, 0, sizeof(m));
	m.dev = meta_devt(f[1]);
	m.src = an_strdup(f[2]);
	m.dir = an_strdup(f[3]);
	m.type = an_strdup(f[4]);
	add_opts(&sb, f[5]);
	if (n >= 7)
		add_opts(&sb, f[6]);
	m.opts = sb.failed ? NULL : sb.buf ? sbuf_detach(&sb) : an_strdup("");
	sbuf_release(&sb);
	m.match = -1;
	v = m.src && m.dir && m.type && m.opts ?
	    an_push(&fa->mnt, &fa->nmnt, &fa->amnt, sizeof(*fa->mnt), 16) :
	    NULL;
	if (!v) {
		/* a mount that cannot be kept whole is not kept */
		mnt_free(&m);
		fa->err = -AN_E_NOMEM;
		return 0;
	}
	*v = m;
	return 0;
}

static void facts_load(struct facts *fa, const char *hdr, const char *snap)
{
	char buf[256];

	memset(fa, 0, sizeof(*fa));
	if (snap) {
		meta_lines(snap, "uname", on_uname, fa);
		meta_lines(snap, "sysctl", on_sysctl, fa);
		meta_lines(snap, "meminfo", on_meminfo, fa);
		meta_lines(snap, "blockdev", on_blockdev, fa);
		meta_lines(snap, "mount", on_mount, fa);
	}
	if (!fa->kernel && meta_kv(hdr, "kernel", buf, sizeof(buf)))
		fa->kernel = kept(&fa->err, an_strdup(buf));
	if (!fa->machine && meta_kv(hdr, "machine", buf, sizeof(buf)))
		fa->machine = kept(&fa->err, an_strdup(buf));
	if (meta_kv(hdr, "cpus", buf, sizeof(buf)))
		fa->cpus = kept(&fa->err, an_strdup(buf));
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
	for (size_t i = 0; i < fa->nmnt; i++)
		mnt_free(&fa->mnt[i]);
	free(fa->mnt);
}

/* ------------------------------------------------------------------ */
/* Comparison */

/*
 * One difference (note is taken, and may be NULL); key NULL (a failed
 * allocation) or without memory nothing is added and the error is set.
 */
static void item(struct snapdiff *sd, const char *what, const char *key,
		 const char *b, const char *a, char *note)
{
	struct snapdiff_item it = { .what = what, .note = note };

	if (key)
		it.key = an_strdup(key);
	if (b)
		it.before = an_strdup(b);
	if (a)
		it.after = an_strdup(a);
	if (!it.key || (b && !it.before) || (a && !it.after) ||
	    an_grow(&sd->v, &sd->alloc, sd->n + 1, sizeof(*sd->v), 16)) {
		free(it.key);
		free(it.before);
		free(it.after);
		free(it.note);
		sd->err = -AN_E_NOMEM;
		return;
	}
	sd->v[sd->n++] = it;
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

/* Whether m, a mount of side (0 BEFORE, 1 AFTER), did I/O there. */
static bool mnt_interesting(const struct mnt *m, int side,
			    bool (*used)(uint32_t, int, void *), void *arg)
{
	if (used && m->dev && used(m->dev, side, arg))
		return true;
	return false;
}

/* "; KEY=B -> KEY=A" when option key (def when absent) differs. */
static void opt_change(struct sbuf *sb, const char *b, const char *a,
		       const char *key, const char *def)
{
	char vb[64], va[64];

	if (!meta_mount_opt(b, key, vb, sizeof(vb)))
		snprintf(vb, sizeof(vb), "%s", def);
	if (!meta_mount_opt(a, key, va, sizeof(va)))
		snprintf(va, sizeof(va), "%s", def);
	if (strcmp(vb, va))
		sbuf_addf(sb, "; %s=%s -> %s=%s", key, vb, key, va);
}

/* "+opt -opt" of the two option lists, and the ext4 readings; NULL: none
 * (or no memory: *err set). */
static char *mount_note(const char *b, const char *a, int *err)
{
	struct sbuf sb = SBUF_INIT;
	const char *p, *opt;
	size_t len;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const char *other = pass ? a : b;

		/* an exact option not in the other list */
		for (p = pass ? b : a; strlist_next(&p, &opt, &len);)
			if (len && !strlist_has(other, opt, len))
				sbuf_addf(&sb, "%s%c%.*s", sb.len ? " " : "",
					  pass ? '-' : '+', (int)len, opt);
	}
	if (meta_mount_barrier(b) != meta_mount_barrier(a))
		sbuf_addf(&sb, "; barrier %s -> %s",
			    meta_mount_barrier(b) ? "on" : "off",
			    meta_mount_barrier(a) ? "on" : "off");
	opt_change(&sb, b, a, "data", SUMMARY_EXT_DATA);
	opt_change(&sb, b, a, "commit", SUMMARY_EXT_COMMIT);
	if (sb.failed)
		*err = -AN_E_NOMEM;
	return sbuf_detach(&sb);
}

/* The AFTER device compared with BEFORE's dev (dev itself unless mapped). */
static uint32_t after_of(const struct snapdiff *sd, uint32_t dev)
{
	for (size_t i = 0; i < sd->ndm; i++)
		if (sd->dm[i].before == dev)
			return sd->dm[i].after;
	return dev;
}

static void devmap_add(struct snapdiff *sd, uint32_t after, uint32_t before)
{
	struct snap_devmap *v;

	if (after == before || !after || !before)
		return;
	for (size_t i = 0; i < sd->ndm; i++)
		if (sd->dm[i].after == after)
			return;
	v = an_push(&sd->dm, &sd->ndm, &sd->adm, sizeof(*sd->dm), 8);
	if (!v) {
		sd->err = -AN_E_NOMEM;
		return;
	}
	v->after = after;
	v->before = before;
}

/* Why a pair of mounts was matched (match_mounts' passes). */
static const char *const match_why[] = {
	"the same files below it, with I/O on both sides",
	"the same mount point",
	"the same source device",
	"the only file system of its type that did I/O on each side",
	"the same mount point",
	"the same source device",
};

/* b's mount i and a's mount j, matched by pass. */
static void pair_mounts(struct facts *b, size_t i, struct facts *a, size_t j,
			int pass)
{
	b->mnt[i].match = (int)j;
	a->mnt[j].match = (int)i;
	b->mnt[i].why = match_why[pass];
}

/* The mount of side f whose directory holds path (longest), or -1. */
static long mount_of(const struct facts *f, const char *path)
{
	size_t best = 0;
	long bi = -1;

	for (size_t i = 0; i < f->nmnt; i++) {
		const char *d = f->mnt[i].dir;
		size_t l = strlen(d);

		if (!strcmp(d, "/"))
			l = 0;
		if ((bi < 0 || l > best) && !strncmp(path, d, l) &&
		    path[l] == '/') {
			best = l;
			bi = (long)i;
		}
	}
	return bi;
}

static int cmp_rel(const void *x, const void *y)
{
	const struct rel *a = x, *b = y;

	if (a->mnt != b->mnt)
		return a->mnt < b->mnt ? -1 : 1;
	return strcmp(a->rel, b->rel);
}

/* The files of one side as (mount, path below it), sorted; n set. */
static struct rel *rels(const struct facts *f, const char *const *files,
			size_t *n)
{
	struct rel *v;
	size_t k = 0, cnt = 0;

	*n = 0;
	if (!files)
		return NULL;
	while (files[cnt])
		cnt++;
	v = an_calloc(cnt + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < cnt; i++) {
		long m = mount_of(f, files[i]);

		if (m < 0)
			continue;
		v[k].mnt = (size_t)m;
		v[k].rel = files[i] + (strcmp(f->mnt[m].dir, "/") ?
				       strlen(f->mnt[m].dir) : 0);
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_rel);
	*n = k;
	return v;
}

/* How many paths below mount mb of b are below mount ma of a too. */
static size_t common(const struct rel *vb, size_t nb, size_t mb,
		     const struct rel *va, size_t na, size_t ma)
{
	size_t i = 0, j = 0, n = 0;

	while (i < nb && vb[i].mnt < mb)
		i++;
	while (j < na && va[j].mnt < ma)
		j++;
	while (i < nb && j < na && vb[i].mnt == mb && va[j].mnt == ma) {
		int c = strcmp(vb[i].rel, va[j].rel);

		if (!c)
			n++;
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
	return n;
}

/*
 * Pass 0: the file systems that hold the same files (the same paths
 * below their mount points, with I/O on both sides) paired, the most
 * files in common first, ties to the same mount point: the workload
 * moved to another mount or device compares with itself, even when the
 * old one stays mounted and a stray read touched the new one before.
 */
static void match_by_files(struct facts *b, struct facts *a,
			   const char *const *const files[2])
{
	size_t nb, na;
	struct rel *vb = rels(b, files ? files[0] : NULL, &nb);
	struct rel *va = rels(a, files ? files[1] : NULL, &na);

	for (;;) {
		size_t best = 0, bi = 0, bj = 0;

		for (size_t i = 0; i < b->nmnt; i++) {
			if (b->mnt[i].match >= 0)
				continue;
			for (size_t j = 0; j < a->nmnt; j++) {
				size_t c;

				if (a->mnt[j].match >= 0 ||
				    strcmp(b->mnt[i].type, a->mnt[j].type))
					continue;
				c = common(vb, nb, i, va, na, j);
				if (c > best || (c && c == best &&
						 !strcmp(b->mnt[i].dir, a->mnt[j].dir))) {
					best = c;
					bi = i;
					bj = j;
				}
			}
		}
		if (!best)
			break;
		pair_mounts(b, bi, a, bj, 0);
	}
	free(vb);
	free(va);
}

/*
 * Whether mount i of f (side) may be matched as the only one of its type:
 * unmatched, used, and its mount point holds no used file system on the
 * other side o (that one is itself, whatever a stray access did).
 */
static bool sole_candidate(const struct facts *f, size_t i, int side,
			   const struct facts *o,
			   bool (*used)(uint32_t, int, void *), void *arg)
{
	if (f->mnt[i].match >= 0 || !mnt_interesting(&f->mnt[i], side, used, arg))
		return false;
	for (size_t j = 0; j < o->nmnt; j++)
		if (!strcmp(o->mnt[j].dir, f->mnt[i].dir) &&
		    mnt_interesting(&o->mnt[j], !side, used, arg))
			return false;
	return true;
}

/*
 * The mounts of both sides paired: by the files they hold (pass 0,
 * above); then a file system that did I/O with one that did I/O on the
 * other side: by mount point, by source device, then as the only one of
 * its type left on each side, so that a workload moved to another mount
 * while the old one stays mounted (idle) compares with its old self;
 * what is left by mount point and source device whatever it did.
 */
static void match_mounts(struct facts *b, struct facts *a,
			 bool (*used)(uint32_t, int, void *), void *arg,
			 const char *const *const files[2])
{
	size_t i, j;
	int pass;

	match_by_files(b, a, files);
	/* 1, 2: same mount point, same source device, the same use */
	for (pass = 1; pass < 6; pass++) {
		if (pass == 3) {
			/* one used unmatched file system of a type each side,
			 * whose mount point holds no used one on the other */
			for (i = 0; i < b->nmnt; i++) {
				size_t nb = 0, na = 0, ja = 0;

				if (!sole_candidate(b, i, 0, a, used, arg))
					continue;
				for (j = 0; j < b->nmnt; j++)
					nb += !strcmp(b->mnt[j].type, b->mnt[i].type) &&
					      sole_candidate(b, j, 0, a, used, arg);
				for (j = 0; j < a->nmnt; j++)
					if (!strcmp(a->mnt[j].type, b->mnt[i].type) &&
					    sole_candidate(a, j, 1, b, used, arg)) {
						na++;
						ja = j;
					}
				if (nb == 1 && na == 1)
					pair_mounts(b, i, a, ja, pass);
			}
			continue;
		}
		for (i = 0; i < b->nmnt; i++) {
			const struct mnt *mb = &b->mnt[i];

			if (mb->match >= 0)
				continue;
			for (j = 0; j < a->nmnt; j++) {
				const struct mnt *ma = &a->mnt[j];

				if (ma->match >= 0)
					continue;
				if (pass < 3 &&
				    mnt_interesting(mb, 0, used, arg) !=
				    mnt_interesting(ma, 1, used, arg))
					continue;
				if (pass % 3 == 1 ? strcmp(mb->dir, ma->dir) :
				    (strncmp(mb->src, "/dev/", 5) ||
				     strcmp(mb->src, ma->src) ||
				     strcmp(mb->type, ma->type)))
					continue;
				pair_mounts(b, i, a, j, pass);
				break;
			}
		}
	}
}

/* Whether f has a mount at dir. */
static bool mount_at(const struct facts *f, const char *dir)
{
	for (size_t i = 0; i < f->nmnt; i++)
		if (!strcmp(f->mnt[i].dir, dir))
			return true;
	return false;
}

/* An AFTER mount point named as BEFORE's. */
static void mpmap_add(struct snapdiff *sd, const char *after,
		      const char *before, const char *why)
{
	struct snap_mpmap m = { an_strdup(after), an_strdup(before), why }, *v;

	v = m.after && m.before ?
	    an_push(&sd->mp, &sd->nmp, &sd->amp, sizeof(*sd->mp), 8) : NULL;
	if (!v) {
		free(m.after);
		free(m.before);
		sd->err = -AN_E_NOMEM;
		return;
	}
	*v = m;
}

int snapdiff_compute(struct snapdiff *sd, const char *hdr_b,
		     const char *snap_b, const char *hdr_a,
		     const char *snap_a, bool (*used)(uint32_t, int, void *),
		     void *arg, const char *const *const files[2])
{
	struct facts b, a;
	size_t i;

	facts_load(&b, hdr_b, snap_b);
	facts_load(&a, hdr_a, snap_a);
	if (b.err || a.err) {
		sd->err = -AN_E_NOMEM;
		goto out;
	}
	cmp_str(sd, "kernel", "kernel", b.kernel, a.kernel);
	cmp_str(sd, "machine", "machine", b.machine, a.machine);
	cmp_str(sd, "machine", "cpus", b.cpus, a.cpus);
	cmp_str(sd, "memory", "MemTotal", b.memtotal, a.memtotal);
	cmp_kvs(sd, "sysctl", b.sysctl, b.nsysctl, a.sysctl, a.nsysctl);

	match_mounts(&b, &a, used, arg, files);
	for (i = 0; i < b.nmnt; i++) {
		struct mnt *mb = &b.mnt[i], *ma;
		char *key;

		if (mb->match < 0) {
			/* its mount point holds another file system after,
			 * compared with another of BEFORE's: nothing to say */
			if (mnt_interesting(mb, 0, used, arg) &&
			    !mount_at(&a, mb->dir))
				item(sd, "mount", mb->dir, mb->opts, NULL,
				     kept(&sd->err,
					  an_asprintf("%s %s not mounted after",
						      mb->type, mb->src)));
			continue;
		}
		ma = &a.mnt[mb->match];
		if (strcmp(mb->dir, ma->dir))
			mpmap_add(sd, ma->dir, mb->dir, mb->why);
		devmap_add(sd, ma->dev, mb->dev);
		/*
		 * and their disks, which the block requests name: a card that
		 * was mmcblk0 (mmcblk0p2 mounted on /) and is sda after
		 */
		devmap_add(sd, meta_disk_of(snap_a, ma->dev),
			   meta_disk_of(snap_b, mb->dev));
		if (!mnt_interesting(mb, 0, used, arg) &&
		    !mnt_interesting(ma, 1, used, arg))
			continue;
		if (!strcmp(mb->opts, ma->opts) && !strcmp(mb->type, ma->type))
			continue;
		key = kept(&sd->err, strcmp(mb->dir, ma->dir) ?
			   an_asprintf("%s (after: %s)", mb->dir, ma->dir) :
			   an_strdup(mb->dir));
		if (strcmp(mb->type, ma->type)) {
			char *bb = an_asprintf("%s %s", mb->type, mb->opts);
			char *aa = an_asprintf("%s %s", ma->type, ma->opts);

			if (bb && aa)
				item(sd, "mount", key, bb, aa,
				     kept(&sd->err,
					  an_asprintf("type %s -> %s",
						      mb->type, ma->type)));
			else
				sd->err = -AN_E_NOMEM;
			free(bb);
			free(aa);
		} else {
			item(sd, "mount", key, mb->opts, ma->opts,
			     mount_note(mb->opts, ma->opts, &sd->err));
		}
		free(key);
	}
	for (i = 0; i < a.nmnt; i++)
		if (a.mnt[i].match < 0 && mnt_interesting(&a.mnt[i], 1, used, arg) &&
		    !mount_at(&b, a.mnt[i].dir))
			item(sd, "mount", a.mnt[i].dir, NULL, a.mnt[i].opts,
			     kept(&sd->err,
				  an_asprintf("%s %s mounted only after",
					      a.mnt[i].type, a.mnt[i].src)));

	/* block queue settings of the used devices, AFTER ones mapped */
	for (i = 0; i < b.nbdev; i++) {
		char name[128], mm[32], attr[64];
		uint32_t dev;
		const char *av = NULL;

		if (sscanf(b.bdev[i].key, "%127[^\t]\t%31[^\t]\t%63s", name,
			   mm, attr) != 3)
			continue;
		dev = meta_devt(mm);
		if (!used || !(used(dev, 0, arg) || used(dev, 1, arg)))
			continue;
		for (size_t j = 0; j < a.nbdev && !av; j++) {
			char an[128], amm[32], aattr[64];

			if (sscanf(a.bdev[j].key, "%127[^\t]\t%31[^\t]\t%63s",
				   an, amm, aattr) == 3 &&
			    !strcmp(aattr, attr) &&
			    meta_devt(amm) == after_of(sd, dev))
				av = a.bdev[j].val;
		}
		if (av && strcmp(av, b.bdev[i].val)) {
			char *key = kept(&sd->err,
					 an_asprintf("%s %s", name, attr));

			item(sd, "blockdev", key, b.bdev[i].val, av, NULL);
			free(key);
		}
	}
out:
	facts_free(&b);
	facts_free(&a);
	return sd->err;
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
