// SPDX-License-Identifier: MIT
/*
 * meta.c - what a recording says about itself beside its events (see
 * meta.h): integrity and damaged regions in words, key=value lines,
 * snapshot lines, STATS, diskstats, devices and mounts.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iorec-format.h"
#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/strlist.h"
#include "sbuf.h"
#include "input/meta.h"

const char *meta_integrity(enum source_integrity i)
{
	return i == SOURCE_COMPLETE ? "complete" :
	       i == SOURCE_TRUNCATED ? "truncated" : "corrupt";
}

char *meta_secs(char *buf, size_t n, uint64_t ts)
{
	snprintf(buf, n, "%" PRIu64 ".%06" PRIu64, ts / 1000000000,
		 ts % 1000000000 / 1000);
	return buf;
}

/* "64 KiB", "1.2 MiB", "812 B" */
static void add_bytes(struct sbuf *out, uint64_t n)
{
	if (n < 1024)
		sbuf_addf(out, "%" PRIu64 " B", n);
	else if (n < 1024 * 1024)
		sbuf_addf(out, "%.0f KiB", (double)n / 1024);
	else
		sbuf_addf(out, "%.1f MiB", (double)n / (1024 * 1024));
}

static void add_secs(struct sbuf *out, uint64_t ns)
{
	sbuf_addf(out, "%.2f s", (double)ns / 1e9);
}

void meta_damage_summary(const struct source_info *in, struct sbuf *out)
{
	const struct source_damage *r = in->damaged;
	int cpu = -2;

	if (!in->ndamaged)
		return;
	for (int i = 0; i < in->ndamaged; i++)
		if (cpu == -2 || cpu == in->damaged[i].cpu)
			cpu = in->damaged[i].cpu;
		else
			cpu = -1;
	sbuf_addf(out, "damaged: %d region%s, %" PRIu64 "%s chunk%s (",
		  in->ndamaged, in->ndamaged == 1 ? "" : "s",
		  in->damaged_chunks, in->damaged[in->ndamaged - 1].to_end ?
		  " or more" : "", in->damaged_chunks == 1 ? "" : "s");
	add_bytes(out, in->damaged_bytes);
	if (cpu >= 0)
		sbuf_addf(out, ", cpu %d", cpu);
	if (in->damaged_ns || cpu >= 0) {
		sbuf_addstr(out, ", ");
		add_secs(out, in->damaged_ns);
	}
	sbuf_addf(out, ") skipped %s offset %" PRIu64 ": %s",
		  in->ndamaged == 1 ? "at" : "from", r->offset, r->reason);
	if (in->ndamaged > 1)
		sbuf_addstr(out, ", ...");
}

void meta_damage_text(const struct source_damage *r, struct sbuf *out)
{
	sbuf_addf(out, "offset %" PRIu64 ", %" PRIu64 " bytes%s, %u%s chunk%s",
		  r->offset, r->length, r->to_end ? " (to the end)" : "",
		  r->chunks, r->to_end ? " or more" : "",
		  r->chunks == 1 ? "" : "s");
	if (r->cpu >= 0) {
		char first[META_SECS_LEN], last[META_SECS_LEN];

		sbuf_addf(out, ", cpu %d, %s to %s (", r->cpu,
			  meta_secs(first, sizeof(first), r->first_ts),
			  meta_secs(last, sizeof(last), r->last_ts));
		add_secs(out, r->last_ts - r->first_ts);
		sbuf_addch(out, ')');
	}
	sbuf_addf(out, ": %s", r->reason);
}

const char *meta_kv(const char *text, const char *key, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	if (!text || iorec_kv_get(text, strlen(text), key, buf, n) <= 0) {
		if (n)
			buf[0] = '\0';
		return NULL;
	}
	return buf;
}

bool meta_utc_offset(const char *header_text, long *sec, char *zone,
		     size_t n)
{
	char v[32], *end;
	long off;

	*sec = 0;
	if (n)
		zone[0] = '\0';
	if (!meta_kv(header_text, "utc_offset_s", v, sizeof(v)))
		return false;
	errno = 0;
	off = strtol(v, &end, 10);
	/* UTC-12 to UTC+14, and a little more for the odd historical zone */
	if (errno || *end || off < -16 * 3600 || off > 16 * 3600)
		return false;
	*sec = off;
	if (n && !meta_kv(header_text, "timezone", zone, n))
		zone[0] = '\0';
	return true;
}

bool meta_wall(const char *header_text, struct meta_wall *w)
{
	char rt[32], mt[32], clk[16], zone[16];
	long utc, a;

	memset(w, 0, sizeof(*w));
	if (!meta_kv(header_text, "start_realtime_ns", rt, sizeof(rt)) ||
	    !meta_kv(header_text, "start_mono_ns", mt, sizeof(mt)) ||
	    (meta_kv(header_text, "clock", clk, sizeof(clk)) &&
	     strcmp(clk, "mono")))
		return false;
	w->real_ns = strtoull(rt, NULL, 10);
	w->mono_ns = strtoull(mt, NULL, 10);
	if (!w->real_ns || !w->mono_ns)
		return false;
	w->local_ns = w->real_ns;
	snprintf(w->zone, sizeof(w->zone), " UTC");
	if (meta_utc_offset(header_text, &utc, zone, sizeof(zone))) {
		w->local_ns += (uint64_t)((int64_t)utc * 1000000000);
		a = utc < 0 ? -utc : utc;
		snprintf(w->zone, sizeof(w->zone), " %c%02ld:%02ld%s%s",
			 utc < 0 ? '-' : '+', a / 3600, a / 60 % 60,
			 zone[0] ? " " : "", zone);
	}
	return true;
}

int meta_kv_each(const char *text, meta_kv_fn fn, void *arg)
{
	int rc = 0;

	for (const char *p = text; !rc && p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *eq = memchr(p, '=', len);

		if (eq && eq > p)
			rc = fn(p, (size_t)(eq - p), eq + 1,
				len - (size_t)(eq + 1 - p), arg);
		p = nl ? nl + 1 : NULL;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Snapshot lines */

static int split_tabs(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		char *tab = strchr(line, '\t');

		f[n++] = line;
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

int meta_lines(const char *text, const char *kind, meta_line_fn fn,
	       void *arg)
{
	size_t klen = kind ? strlen(kind) : 0, alloc = 0;
	const char *p = text;
	char *line = NULL;
	int rc = 0;

	while (!rc && p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!kind || (len > klen && !strncmp(p, kind, klen) &&
			      p[klen] == '\t')) {
			char *f[META_FIELDS];
			int n;

			if (an_grow(&line, &alloc, len + 1, 1, 256)) {
				rc = -AN_E_NOMEM;
				break;
			}
			memcpy(line, p, len);
			line[len] = '\0';
			n = split_tabs(line, f, META_FIELDS);
			for (int i = 0; i < n; i++)
				unescape_field(f[i]);
			rc = fn(f, n, arg);
		}
		p = nl ? nl + 1 : NULL;
	}
	free(line);
	return rc;
}

uint32_t meta_devt(const char *majmin)
{
	unsigned int ma, mi;

	if (!majmin || !blk_dev_parse(majmin, BLK_DEV_SCANF, &ma, &mi))
		return 0;
	return blk_mkdev(ma, mi & BLK_MINOR_MASK);
}

struct name_q {
	uint32_t dev;
	char *buf;
	size_t n;
	bool found;
};

static int find_name(char **f, int n, void *arg)
{
	struct name_q *q = arg;

	if (n >= 3 && meta_devt(f[2]) == q->dev) {
		snprintf(q->buf, q->n, "%s", f[1]);
		q->found = true;
		return 1;
	}
	return 0;
}

const char *meta_dev_name(const char *snap, uint32_t dev, char *buf,
			  size_t n)
{
	struct name_q q = { dev, buf, n, false };

	meta_lines(snap, "blockdev", find_name, &q);
	return q.found ? buf : NULL;
}

struct parent_q {
	uint32_t dev;
	char disk[128];
	uint32_t disk_dev;
};

static int find_parent(char **f, int n, void *arg)
{
	struct parent_q *q = arg;

	if (n >= 5 && !strcmp(f[3], "parent") && meta_devt(f[2]) == q->dev)
		snprintf(q->disk, sizeof(q->disk), "%s", f[4]);
	return 0;
}

static int find_disk_dev(char **f, int n, void *arg)
{
	struct parent_q *q = arg;

	if (n >= 3 && !q->disk_dev && !strcmp(f[1], q->disk))
		q->disk_dev = meta_devt(f[2]);
	return 0;
}

uint32_t meta_disk_of(const char *snap, uint32_t dev)
{
	struct parent_q q = { .dev = dev };

	if (!snap)
		return dev;
	meta_lines(snap, "blockdev", find_parent, &q);
	if (!q.disk[0])
		return dev;
	meta_lines(snap, "blockdev", find_disk_dev, &q);
	return q.disk_dev ? q.disk_dev : dev;
}

/* blockdev lines: "blockdev NAME MAJ:MIN [ATTR VALUE]" */
static int add_bdev(char **f, int n, void *arg)
{
	struct meta_bdevs *b = arg;
	uint32_t dev;
	size_t i;

	if (n < 3 || !(dev = meta_devt(f[2])))
		return 0;
	for (i = 0; i < b->n; i++)
		if (b->v[i].dev == dev)
			break;
	if (i == b->n) {
		char *name = strdup(f[1]);

		if (!name || an_grow(&b->v, &b->alloc, b->n + 1,
				     sizeof(*b->v), 16)) {
			free(name);
			return -AN_E_NOMEM;
		}
		b->v[b->n++] = (struct meta_bdev){ .name = name, .dev = dev,
						  .disk = dev };
	}
	return 0;
}

static int cmp_bdev(const void *x, const void *y)
{
	return strcmp(((const struct meta_bdev *)x)->name,
		      ((const struct meta_bdev *)y)->name);
}

static int add_parent(char **f, int n, void *arg)
{
	struct meta_bdevs *b = arg;
	struct meta_bdev key = { .name = n >= 5 ? f[4] : NULL }, *disk;
	uint32_t dev;

	if (n < 5 || strcmp(f[3], "parent") || !(dev = meta_devt(f[2])))
		return 0;
	disk = bsearch(&key, b->v, b->n, sizeof(*b->v), cmp_bdev);
	for (size_t i = 0; disk && i < b->n; i++)
		if (b->v[i].dev == dev)
			b->v[i].disk = disk->dev;
	return 0;
}

/* "blockdev NAME MAJ:MIN backing_file|backing_dev|backing_inode VALUE" */
static int add_backing(char **f, int n, void *arg)
{
	struct meta_bdevs *b = arg;
	uint32_t dev;

	if (n < 5 || strncmp(f[3], "backing_", 8) || !(dev = meta_devt(f[2])))
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		struct meta_bdev *d = &b->v[i];

		if (d->dev != dev)
			continue;
		if (!strcmp(f[3], "backing_file") && !d->backing && f[4][0]) {
			d->backing = strdup(f[4]);
			if (!d->backing)
				return -AN_E_NOMEM;
		} else if (!strcmp(f[3], "backing_dev")) {
			d->backing_fs = meta_devt(f[4]);
		} else if (!strcmp(f[3], "backing_inode")) {
			d->backing_ino = strtoull(f[4], NULL, 10);
		}
	}
	return 0;
}

int meta_bdevs_load(struct meta_bdevs *b, const char *snap)
{
	int rc;

	memset(b, 0, sizeof(*b));
	rc = meta_lines(snap, "blockdev", add_bdev, b);
	if (rc < 0) {
		meta_bdevs_release(b);
		return rc;
	}
	if (b->n)
		qsort(b->v, b->n, sizeof(*b->v), cmp_bdev);
	rc = meta_lines(snap, "blockdev", add_parent, b);
	if (!rc)
		rc = meta_lines(snap, "blockdev", add_backing, b);
	for (size_t i = 0; !rc && i < b->n; i++)
		if (b->v[i].backing && !b->v[i].backing_fs)
			meta_mount_of(snap, b->v[i].backing,
				      &b->v[i].backing_fs);
	return rc;
}

bool meta_bdevs_has(const struct meta_bdevs *b, const char *name)
{
	struct meta_bdev key = { .name = (char *)name };

	return b->n && bsearch(&key, b->v, b->n, sizeof(*b->v), cmp_bdev);
}

uint32_t meta_bdevs_disk_of(const struct meta_bdevs *b, uint32_t dev)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i].dev == dev)
			return b->v[i].disk;
	return dev;
}

void meta_bdevs_release(struct meta_bdevs *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].name);
		free(b->v[i].backing);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}

struct mnt_q {
	const char *path;
	size_t best;
	uint32_t dev;
};

/* Whether mount point dir (of length len) holds path. */
static bool mount_holds(const char *dir, size_t len, const char *path)
{
	/* "/" holds everything; "/mnt" does not hold "/mntx" */
	return !strncmp(path, dir, len) &&
	       (len <= 1 || path[len] == '/' || path[len] == '\0');
}

static int find_mount(char **f, int n, void *arg)
{
	struct mnt_q *q = arg;
	size_t l;

	if (n < 5)
		return 0;
	l = strlen(f[3]);
	if (!mount_holds(f[3], l, q->path))
		return 0;
	if (l >= q->best) {
		q->best = l;
		q->dev = meta_devt(f[1]);
	}
	return 0;
}

size_t meta_mount_of(const char *snap, const char *path, uint32_t *dev)
{
	struct mnt_q q = { path, 0, 0 };

	if (!snap || !path || path[0] != '/')
		return 0;
	meta_lines(snap, "mount", find_mount, &q);
	if (q.best)
		*dev = q.dev;
	return q.best;
}

static int add_mount(char **f, int n, void *arg)
{
	struct meta_mounts *m = arg;
	struct meta_mount *e;

	if (n < 5)
		return 0;
	if (an_grow(&m->v, &m->alloc, m->n + 1, sizeof(*m->v), 16))
		return -AN_E_NOMEM;
	e = &m->v[m->n];
	e->dir = an_strdup(f[3]);
	if (!e->dir)
		return -AN_E_NOMEM;
	e->len = strlen(e->dir);
	e->dev = meta_devt(f[1]);
	m->n++;
	return 0;
}

int meta_mounts_load(struct meta_mounts *m, const char *snap)
{
	int rc;

	memset(m, 0, sizeof(*m));
	rc = meta_lines(snap, "mount", add_mount, m);
	if (rc < 0)
		meta_mounts_release(m);
	return rc < 0 ? rc : 0;
}

size_t meta_mounts_of(const struct meta_mounts *m, const char *path,
		      uint32_t *dev)
{
	size_t best = 0;

	if (!path || path[0] != '/')
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct meta_mount *e = &m->v[i];

		if (e->len < best || !mount_holds(e->dir, e->len, path))
			continue;
		/* the last of equal mount points is the one on top */
		best = e->len;
		*dev = e->dev;
	}
	return best;
}

void meta_mounts_release(struct meta_mounts *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].dir);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

bool meta_mount_opt(const char *opts, const char *opt, char *val, size_t n)
{
	size_t l = strlen(opt), len;
	const char *p = opts, *item;

	while (strlist_next(&p, &item, &len)) {
		if (len < l || strncmp(item, opt, l) ||
		    (len != l && item[l] != '='))
			continue;
		if (val && n) {
			size_t vl = len > l ? len - l - 1 : 0;

			if (vl >= n)
				vl = n - 1;
			memcpy(val, item + l + (len > l), vl);
			val[vl] = '\0';
		}
		return true;
	}
	return false;
}

bool meta_mount_barrier(const char *opts)
{
	char v[16];

	if (meta_mount_opt(opts, "nobarrier", NULL, 0))
		return false;
	if (meta_mount_opt(opts, "barrier", v, sizeof(v)))
		return strcmp(v, "0") != 0;
	return true;
}

/* ------------------------------------------------------------------ */
/* diskstats */

bool meta_syscall_line(char **f, int n, int *nr, const char **name)
{
	long v;

	if (n < 2 || !*f[1] || parse_long(f[0], 0, INT_MAX, &v))
		return false;
	*nr = (int)v;
	*name = f[1];
	return true;
}

bool meta_diskstats_line(char **f, int n, struct meta_diskstats *d)
{
	const char *p;
	char mm[48], *e;
	int k;

	if (n < 5 || strcmp(f[0], "diskstats"))
		return false;
	memset(d, 0, sizeof(*d));
	snprintf(mm, sizeof(mm), "%s:%s", f[1], f[2]);
	d->dev = meta_devt(mm);
	snprintf(d->name, sizeof(d->name), "%s", f[3]);
	for (k = 0, p = f[4]; k < META_DS_MAX && *p; k++) {
		d->v[k] = strtoull(p, &e, 10);
		if (e == p)
			break;
		p = e;
	}
	d->n = k;
	return k >= 7;
}

struct ds_q {
	uint32_t dev;
	struct meta_diskstats *d;
	bool found;
};

static int find_ds(char **f, int n, void *arg)
{
	struct ds_q *q = arg;
	struct meta_diskstats d;

	if (!meta_diskstats_line(f, n, &d) || d.dev != q->dev)
		return 0;
	*q->d = d;
	q->found = true;
	return 1;
}

bool meta_diskstats(const char *snap, uint32_t dev, struct meta_diskstats *d)
{
	struct ds_q q = { dev, d, false };

	meta_lines(snap, "diskstats", find_ds, &q);
	return q.found;
}

/* ------------------------------------------------------------------ */
/* STATS */

static int kstat_line(char **f, int n, void *arg)
{
	struct meta_kstats *k = arg;
	struct meta_kcpu *c;
	uint64_t v;
	int cpu;

	if (n < 4 || strcmp(f[0], "cpu"))
		return 0;
	cpu = atoi(f[1]);
	if (cpu < 0 || cpu > 65535)
		return 0;
	if (cpu >= k->n) {
		c = an_reallocarray(k->cpu, (size_t)cpu + 1, sizeof(*c));
		if (!c)
			return -AN_E_NOMEM;
		memset(c + k->n, 0, sizeof(*c) * (size_t)(cpu + 1 - k->n));
		k->cpu = c;
		k->n = cpu + 1;
	}
	c = &k->cpu[cpu];
	c->seen = true;
	v = strtoull(f[3], NULL, 10);
	if (!strcmp(f[2], "overrun")) {
		c->overrun = v;
		k->overrun += v;
	} else if (!strcmp(f[2], "dropped events")) {
		c->dropped = v;
		k->dropped += v;
	} else if (!strcmp(f[2], "missed_pages")) {
		c->missed_pages = v;
	}
	return 0;
}

int meta_kstats(const char *stats, struct meta_kstats *k)
{
	int rc;

	memset(k, 0, sizeof(*k));
	k->present = stats != NULL;
	rc = meta_lines(stats, NULL, kstat_line, k);
	if (rc < 0)
		meta_kstats_release(k);
	return rc < 0 ? rc : 0;
}

void meta_kstats_release(struct meta_kstats *k)
{
	free(k->cpu);
	memset(k, 0, sizeof(*k));
}

/* ------------------------------------------------------------------ */
/* ABIs of tasks */

void meta_abis(const char *hdr, struct meta_abis *a)
{
	char mode[16];

	memset(a, 0, sizeof(*a));
	meta_kv(hdr, "syscall_abi", a->native, sizeof(a->native));
	meta_kv(hdr, "compat_abi", a->compat, sizeof(a->compat));
	meta_kv(hdr, "compat_unshadowed", a->unshadowed,
		sizeof(a->unshadowed));
	meta_kv(hdr, "compat_syscalls", mode, sizeof(mode));
	a->mode = !*a->compat ? META_COMPAT_NONE :
		  !strcmp(mode, "shadow") ? META_COMPAT_SHADOW :
		  !strcmp(mode, "raw") ? META_COMPAT_RAW :
		  !strcmp(mode, "off") ? META_COMPAT_OFF : META_COMPAT_NONE;
	meta_kv(hdr, "exec_abi_probes", mode, sizeof(mode));
	a->exec_probes = !strcmp(mode, "1");
}

enum meta_abi meta_abi_kind(const struct meta_abis *a, const char *name)
{
	if (!name || !*name)
		return META_ABI_UNKNOWN;
	if (*a->native && !strcmp(name, a->native))
		return META_ABI_NATIVE;
	if (*a->compat && !strcmp(name, a->compat))
		return META_ABI_COMPAT;
	return META_ABI_UNKNOWN;
}

static const struct {
	const char *key, *words;
} name_source_words[] = {
	{ "strings", "the path strings of the syscall events" },
	{ "kprobe", "a kprobe on the kernel's open path" },
	{ "eprobe", "eprobes on the open syscalls' events" },
	{ "uprobe", "uprobes on the C library's open functions" },
	{ "snapshot", "the fd snapshots (with inode joins)" },
	{ "inode", "the inodes that had I/O, named through the file system at the end" },
};

bool meta_name_sources(const char *hdr, struct sbuf *out)
{
	char v[256], *save = NULL;
	int n = 0, total = 0;

	if (!meta_kv(hdr, "name_sources", v, sizeof(v)))
		return false;
	for (char *p = v; *p; p++)
		total += *p == ',';
	total++;
	for (char *w = strtok_r(v, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		const char *words = w;

		for (size_t i = 0; i < ARRAY_SIZE(name_source_words); i++)
			if (!strcmp(w, name_source_words[i].key))
				words = name_source_words[i].words;
		sbuf_addf(out, "%s%s", !n ? "" : n == total - 1 ? " and " :
			  ", ", words);
		n++;
	}
	return true;
}

const char *meta_limit(const char *hdr, int n, char *buf, size_t len)
{
	char key[16];

	snprintf(key, sizeof(key), "limit_%d", n);
	return meta_kv(hdr, key, buf, len);
}

struct exec_walk {
	const struct meta_abis *a;
	struct meta_exec_abi *v;
	size_t n, alloc;
	int err;
};

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	*v = strtoull(s, &end, 10);
	return !*end;
}

static int exec_line(char **f, int n, void *arg)
{
	struct exec_walk *w = arg;
	struct meta_exec_abi e, *v;
	uint64_t pid;

	if (n < 3 || !parse_u64(f[0], &e.ts) || !parse_u64(f[1], &pid) ||
	    !pid || pid > INT32_MAX)
		return 0;
	e.pid = (int)pid;
	e.abi = meta_abi_kind(w->a, f[2]);
	if (e.abi == META_ABI_UNKNOWN)
		return 0;
	v = an_push(&w->v, &w->n, &w->alloc, sizeof(*w->v), 8);
	if (!v) {
		w->err = -AN_E_NOMEM;
		return 1;
	}
	*v = e;
	return 0;
}

static int cmp_exec(const void *x, const void *y)
{
	const struct meta_exec_abi *a = x, *b = y;

	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

int meta_exec_abis(const char *text, const struct meta_abis *a,
		   struct meta_exec_abi **out, size_t *n)
{
	struct exec_walk w = { .a = a };
	int rc = meta_lines(text, NULL, exec_line, &w);

	if (rc < 0 || w.err) {
		free(w.v);
		*out = NULL;
		*n = 0;
		return -AN_E_NOMEM;
	}
	if (w.n)
		qsort(w.v, w.n, sizeof(*w.v), cmp_exec);
	*out = w.v;
	*n = w.n;
	return 0;
}
