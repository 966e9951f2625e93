// SPDX-License-Identifier: MIT
/*
 * inodes.c - names of the files that had I/O, through the file system
 * itself: the (device, inode) pairs that the events the readers already
 * walk carry (ext4 fsync and writepages, a page added to the page cache,
 * an inode or a folio dirtied) are kept in a bounded table, and at the end
 * of the recording (and in each black-box snapshot) each is opened by
 * handle (open_by_handle_at() on its mount with a FILEID_INO32_GEN handle
 * of generation 0, which ext2/3/4 take as "any generation") and named by
 * the link of /proc/self/fd/N.  The end snapshot carries them as "inode"
 * lines (docs/iorec.5): the names of files whose opens the recording has
 * without a name (statically linked programs on kernels without
 * kprobes), and of inodes no open of the recording names at all.
 *
 * Per event: the type is compared with a handful of ids and two fields
 * are read at known offsets (tep_find_field(), as trigger.c does); an
 * event of the same inode as the previous one on its CPU costs nothing
 * more, a new one takes a mutex and an open-addressed slot.  An inode
 * whose number was freed and given to a new file after its I/O is told
 * by the new file's birth time (statx btime, later than the first event
 * of the inode): its "reused" line names the new file from its birth on,
 * and readers leave the I/O before unnamed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "record.h"

#define INO_SLOTS	32768	/* power of two; at most 3/4 used */
#define INO_MAX		(INO_SLOTS / 4 * 3)
#define INO_CPUS	1024	/* CPUs with a "last inode" cache */
#define FILEID_INO32_GEN_TYPE 1	/* include/linux/exportfs.h */

enum ino_ev { IE_DEV, IE_BDI };	/* dev_t field, or a bdi name "MAJ:MIN" */

struct ino_id {
	int id;
	enum ino_ev kind;
	bool alloc;			/* ext4_allocate_inode: a new file */
	int dev_off, dev_size;		/* dev_t, or char name[] */
	int ino_off, ino_size;
};

struct ino_slot {
	uint32_t dev;			/* kernel dev_t (MAJ << 20 | MIN) */
	bool bdi;			/* dev is a bdi, not a file system */
	uint64_t ino;			/* 0: empty */
	uint64_t first_ts;		/* trace time of its first event */
	uint64_t alloc_ts;		/* its last ext4_allocate_inode: a
					   new file (reused: after I/O) */
	char *line;			/* its lines as a rotation's end
					   snapshot named it ("": none), or
					   NULL (inoset_lines()) */
	uint64_t line_alloc;		/* alloc_ts when it was named */
	int8_t line_rc;			/* name_one()'s answer then */
};

struct inoset {
	struct ino_id ids[8];
	int nids;
	uint8_t is_id[65536 / 8];	/* a bit per event type: one of ids[] */
	pthread_mutex_t lock;
	struct ino_slot *slot;
	size_t n;
	uint64_t dropped;		/* not kept: the table was full */
	uint64_t last[INO_CPUS];	/* per CPU: hash of the last inode */
};

struct inoset *inoset_new(void)
{
	struct inoset *s = calloc(1, sizeof(*s));

	if (s)
		pthread_mutex_init(&s->lock, NULL);
	return s;
}

void inoset_free(struct inoset *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	for (size_t i = 0; s->slot && i < INO_SLOTS; i++)
		free(s->slot[i].line);
	free(s->slot);
	free(s);
}

/* Parse one event's format from @inst into @tep; NULL when absent. */
static struct tep_event *load_event(struct tep_handle *tep,
				    struct tracefs_instance *inst,
				    const char *sys, const char *name)
{
	struct tep_event *e = NULL;
	char *fmt;
	int len = 0;

	if (!tracefs_event_file_exists(inst, sys, name, "enable"))
		return NULL;
	fmt = tracefs_event_file_read(inst, sys, name, "format", &len);
	if (!fmt)
		return NULL;
	if (tep_parse_format(tep, &e, fmt, (unsigned long)len, sys))
		e = NULL;
	free(fmt);
	return e;
}

static void add_id(struct inoset *s, struct tep_handle *tep,
		   struct tracefs_instance *inst, const char *sys,
		   const char *name, const char *devf, const char *inof,
		   enum ino_ev kind, bool alloc)
{
	struct tep_event *e = load_event(tep, inst, sys, name);
	struct tep_format_field *d, *i;
	struct ino_id *id;

	if (!e || s->nids == (int)(sizeof(s->ids) / sizeof(s->ids[0])))
		return;
	d = tep_find_field(e, devf);
	i = tep_find_field(e, inof);
	if (!d || !i || (i->size != 4 && i->size != 8) ||
	    (kind == IE_DEV && d->size != 4) || (kind == IE_BDI && d->size < 8))
		return;
	id = &s->ids[s->nids++];
	id->id = e->id;
	if (e->id >= 0 && e->id < 65536)
		s->is_id[e->id / 8] |= (uint8_t)(1u << (e->id % 8));
	id->kind = kind;
	id->alloc = alloc;
	id->dev_off = d->offset;
	id->dev_size = d->size;
	id->ino_off = i->offset;
	id->ino_size = i->size;
}

int inoset_setup(struct inoset *s, struct tracefs_instance *inst)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return error(ERR_NOMEM);
	add_id(s, tep, inst, "ext4", "ext4_sync_file_enter", "dev", "ino",
	       IE_DEV, false);
	add_id(s, tep, inst, "ext4", "ext4_writepages", "dev", "ino", IE_DEV,
	       false);
	add_id(s, tep, inst, "filemap", "mm_filemap_add_to_page_cache",
	       "s_dev", "i_ino", IE_DEV, false);
	add_id(s, tep, inst, "writeback", "writeback_dirty_inode", "name",
	       "ino", IE_BDI, false);
	add_id(s, tep, inst, "writeback", "writeback_dirty_folio", "name",
	       "ino", IE_BDI, false);
	add_id(s, tep, inst, "writeback", "writeback_dirty_page", "name",
	       "ino", IE_BDI, false);
	/* a new file: the number of an inode seen before was reused */
	add_id(s, tep, inst, "ext4", "ext4_allocate_inode", "dev", "ino",
	       IE_DEV, true);
	tep_free(tep);
	return 0;
}

int inoset_events(const struct inoset *s)
{
	return s ? s->nids : 0;
}

static uint64_t hash_ino(uint32_t dev, bool bdi, uint64_t ino)
{
	uint64_t h = (ino ^ ((uint64_t)dev << 40) ^ ((uint64_t)bdi << 63)) *
		     0x9E3779B97F4A7C15ull;

	return h ? h : 1;
}

/* "MAJ:MIN" of a bdi name to a kernel dev_t; 0 when it is not one. */
static uint32_t bdi_dev(const uint8_t *name, int size)
{
	uint32_t ma = 0, mi = 0;
	int i = 0, digits;

	/* by hand: one per writeback event, where sscanf() was 1% of the
	 * recorder's time under a write storm */
	for (digits = 0; i < size && name[i] >= '0' && name[i] <= '9' &&
	     digits < 8; i++, digits++)
		ma = ma * 10 + (uint32_t)(name[i] - '0');
	if (!digits || i >= size || name[i++] != ':')
		return 0;
	for (digits = 0; i < size && name[i] >= '0' && name[i] <= '9' &&
	     digits < 8; i++, digits++)
		mi = mi * 10 + (uint32_t)(name[i] - '0');
	if (!digits || !ma || ma >= 4096 || mi >= (1u << 20))
		return 0;
	return ma << 20 | mi;
}

/* Lock held: keep dev:ino (first seen at ts). */
static void keep(struct inoset *s, uint32_t dev, bool bdi, uint64_t ino,
		 uint64_t h, uint64_t ts, bool alloc)
{
	size_t i = (size_t)(h >> 40) & (INO_SLOTS - 1);

	if (!s->slot)
		s->slot = calloc(INO_SLOTS, sizeof(*s->slot));
	if (!s->slot) {
		s->dropped++;	/* out of memory: not kept */
		return;
	}
	for (;; i = (i + 1) & (INO_SLOTS - 1)) {
		struct ino_slot *x = &s->slot[i];

		if (!x->ino)
			break;
		if (x->ino == ino && x->dev == dev && x->bdi == bdi) {
			/* each CPU's events come in order, the CPUs' not */
			if (ts < x->first_ts)
				x->first_ts = ts;
			if (alloc && ts > x->alloc_ts)
				x->alloc_ts = ts;
			return;
		}
	}
	if (s->n >= INO_MAX) {
		s->dropped++;
		return;
	}
	s->slot[i].dev = dev;
	s->slot[i].bdi = bdi;
	s->slot[i].ino = ino;
	s->slot[i].first_ts = ts;
	s->slot[i].alloc_ts = alloc ? ts : 0;
	s->n++;
}

void inoset_event(struct inoset *s, const void *data, uint64_t ts, int cpu)
{
	const uint8_t *p = data;
	const struct ino_id *id = NULL;
	uint16_t type;
	uint32_t dev;
	uint64_t ino, h;
	int i;

	memcpy(&type, data, 2);
	if (!(s->is_id[type / 8] & (1u << (type % 8))))
		return;		/* most events: one load */
	for (i = 0; i < s->nids; i++)
		if (s->ids[i].id == type) {
			id = &s->ids[i];
			break;
		}
	if (!id)
		return;
	if (id->ino_size == 8) {
		memcpy(&ino, p + id->ino_off, 8);
	} else {
		uint32_t v;

		memcpy(&v, p + id->ino_off, 4);
		ino = v;
	}
	if (id->kind == IE_BDI) {
		dev = bdi_dev(p + id->dev_off, id->dev_size);
	} else {
		memcpy(&dev, p + id->dev_off, 4);
		if (!(dev >> 20))	/* major 0: no block device */
			dev = 0;
	}
	if (!dev || !ino)
		return;
	h = hash_ino(dev, id->kind == IE_BDI, ino);
	if (cpu >= 0 && cpu < INO_CPUS && !id->alloc) {
		if (__atomic_load_n(&s->last[cpu], __ATOMIC_RELAXED) == h)
			return;
		__atomic_store_n(&s->last[cpu], h, __ATOMIC_RELAXED);
	}
	pthread_mutex_lock(&s->lock);
	keep(s, dev, id->kind == IE_BDI, ino, h, ts, id->alloc);
	pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------------ */
/* Resolution */

struct ino_mount {
	unsigned int ma, mi;
	char *dir;
	int fd;			/* -1: not opened yet; -2: cannot be */
	bool whole;		/* the file system's root is mounted there */
};

static char *unoctal(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 +
				      (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
	return s;
}

/* The mounts of block devices (major > 0), from our mountinfo. */
static struct ino_mount *read_mounts(size_t *n)
{
	FILE *f = fopen_raw("/proc/self/mountinfo");
	struct ino_mount *m = NULL;
	size_t cap = 0;
	char *line = NULL;
	size_t len = 0;

	*n = 0;
	if (!f)
		return NULL;
	while (getline(&line, &len, f) > 0) {
		unsigned int ma, mi;
		char root[PATH_MAX], dir[PATH_MAX];

		if (sscanf(line, "%*d %*d %u:%u %4095s %4095s", &ma, &mi, root,
			   dir) != 4 || !ma)
			continue;
		if (*n == cap) {
			size_t c = cap ? cap * 2 : 16;
			struct ino_mount *v = realloc(m, c * sizeof(*v));

			if (!v)
				break;	/* out of memory: the mounts so far */
			m = v;
			cap = c;
		}
		m[*n].ma = ma;
		m[*n].mi = mi;
		m[*n].dir = strdup(unoctal(dir));
		if (!m[*n].dir)
			break;
		m[*n].fd = -1;
		m[*n].whole = !strcmp(root, "/");
		(*n)++;
	}
	free(line);
	fclose(f);
	return m;
}

void disk_of(unsigned int ma, unsigned int mi, unsigned int *dma,
	     unsigned int *dmi)
{
	char path[96], buf[32];
	FILE *f;

	*dma = *dmi = 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", ma, mi);
	snprintf(buf, sizeof(buf), "/sys/dev/block/%u:%u/partition", ma, mi);
	if (access(buf, F_OK))
		return;
	f = fopen_raw(path);
	if (!f)
		return;
	if (fscanf(f, "%u:%u", dma, dmi) != 2)
		*dma = *dmi = 0;
	fclose(f);
}

/* The mount of file system ma:mi to open handles on, or NULL. */
static struct ino_mount *mount_of(struct ino_mount *m, size_t n,
				  unsigned int ma, unsigned int mi)
{
	struct ino_mount *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (m[i].ma == ma && m[i].mi == mi && m[i].fd != -2 &&
		    (!best || (m[i].whole && !best->whole)))
			best = &m[i];
	if (best && best->fd == -1) {
		best->fd = open_raw(best->dir, O_RDONLY | O_DIRECTORY, 0);
		if (best->fd < 0)
			best->fd = -2;
	}
	return best && best->fd >= 0 ? best : NULL;
}

/*
 * The file system of bdi ma:mi: itself when mounted, else the one
 * mounted partition of that disk (none when there are several: an inode
 * number names a file of each).
 */
static struct ino_mount *mount_of_bdi(struct ino_mount *m, size_t n,
				      unsigned int ma, unsigned int mi)
{
	struct ino_mount *one = NULL;

	for (size_t i = 0; i < n; i++)
		if (m[i].ma == ma && m[i].mi == mi)
			return mount_of(m, n, ma, mi);
	for (size_t i = 0; i < n; i++) {
		unsigned int dma, dmi;

		disk_of(m[i].ma, m[i].mi, &dma, &dmi);
		if (dma != ma || dmi != mi)
			continue;
		if (one && (one->ma != m[i].ma || one->mi != m[i].mi))
			return NULL;
		one = &m[i];
	}
	return one ? mount_of(m, n, one->ma, one->mi) : NULL;
}

struct ino_name {
	unsigned int ma, mi;
	uint64_t ino;
	char path[PATH_MAX];
	bool unlinked;
	uint64_t born_real;	/* rc 2: the file's birth (CLOCK_REALTIME ns) */
};

/* Whether path is dir or under it. */
static bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return true;
	return !strncmp(path, dir, n) && (path[n] == 0 || path[n] == '/');
}

/* Whether the file of sx (its inode number asked) is mt's root. */
static bool is_root(const struct ino_mount *mt, const struct statx *sx)
{
	struct stat st;

	return (sx->stx_mask & STATX_INO) && !fstat(mt->fd, &st) &&
	       st.st_ino == sx->stx_ino;
}

/*
 * Name inode @ino of the file system mounted at @mt, first seen at
 * @first_real (CLOCK_REALTIME ns).  0; 1: the inode is free (the file
 * was deleted, and closed); 2: named, but its number was reused: the
 * file holding it now was born (out->born_real) after the inode's first
 * I/O seen, which was another file's; or -1: not a file system that
 * takes these handles.
 */
static int name_one(const struct ino_mount *mt, uint64_t ino,
		    uint64_t first_real, struct ino_name *out)
{
	struct {
		struct file_handle fh;
		uint32_t v[2];
	} h;
	struct statx sx;
	char link[64];
	ssize_t len;
	int fd;

	if (ino > UINT32_MAX)
		return -1;
	memset(&h, 0, sizeof(h));
	h.fh.handle_bytes = 8;
	h.fh.handle_type = FILEID_INO32_GEN_TYPE;
	h.v[0] = (uint32_t)ino;
	h.v[1] = 0;			/* generation: any */
	out->ma = mt->ma;
	out->mi = mt->mi;
	out->ino = ino;
	fd = open_by_handle_at(mt->fd, &h.fh, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ESTALE ? 1 : -1;
	out->born_real = 0;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_BTIME | STATX_INO, &sx))
		sx.stx_mask = 0;
	if ((sx.stx_mask & STATX_BTIME) && first_real &&
	    (uint64_t)sx.stx_btime.tv_sec * 1000000000ull +
	    sx.stx_btime.tv_nsec > first_real)
		out->born_real = (uint64_t)sx.stx_btime.tv_sec * 1000000000ull +
				 sx.stx_btime.tv_nsec;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, out->path, sizeof(out->path) - 1);
	close(fd);
	if (len <= 0 || out->path[0] != '/')
		return -1;
	out->path[len] = 0;
	out->unlinked = len > 10 &&
			!strcmp(out->path + len - 10, " (deleted)");
	if (out->unlinked)
		out->path[len - 10] = 0;
	/*
	 * The kernel may find the inode without its directory (its dentry
	 * no longer cached, "disconnected"): the path then reads "/", which
	 * is no name of it.  Nor is a path outside this mount.
	 */
	if (!path_under(out->path, mt->dir) ||
	    (!strcmp(out->path, "/") && !is_root(mt, &sx)))
		return -1;
	return out->born_real ? 2 : 0;
}

/*
 * When the number of file-system inode v[i] was given to a new file after
 * I/O of another file on it: its last allocation, if an event of it (or
 * of the same inode by its bdi, the writeback events') came before; or 0.
 */
static uint64_t reused_at(const struct ino_slot *v, size_t n, size_t i,
			  struct ino_mount *m, size_t nm)
{
	const struct ino_slot *x = &v[i];
	uint64_t first = x->first_ts;

	if (!x->alloc_ts || x->bdi)
		return 0;
	for (size_t j = 0; j < n && first >= x->alloc_ts; j++)
		if (v[j].bdi && v[j].ino == x->ino && v[j].first_ts < first &&
		    mount_of_bdi(m, nm, v[j].dev >> 20, v[j].dev & 0xfffff) ==
		    mount_of(m, nm, x->dev >> 20, x->dev & 0xfffff))
			first = v[j].first_ts;
	return x->alloc_ts > first ? x->alloc_ts : 0;
}

/*
 * The line of inode v[i], appended to @out; name_one()'s answer, 3 for
 * none (a bdi's events of an inode whose file system's line is there),
 * or -1 when it could not be named.
 */
static int one_lines(const struct ino_slot *v, size_t n, size_t i,
		     struct ino_mount *m, size_t nm, uint64_t real_off,
		     struct ino_name *nm1, struct sbuf *out)
{
	unsigned int ma = v[i].dev >> 20, mi = v[i].dev & 0xfffff;
	struct ino_mount *mt;
	uint64_t born;
	int rc = -1;

	mt = v[i].bdi ? mount_of_bdi(m, nm, ma, mi) : mount_of(m, nm, ma, mi);
	/* a reuse the allocation showed needs no birth time */
	born = mt ? reused_at(v, n, i, m, nm) : 0;
	if (mt)
		rc = name_one(mt, v[i].ino, born ? 0 :
			      v[i].first_ts + real_off, nm1);
	if (rc == 0 && born) {
		rc = 2;
		nm1->born_real = born + real_off;
	}
	if (rc < 0)
		return -1;
	/* bdi and file-system events of one inode: one line */
	if (v[i].bdi) {
		uint32_t fsdev = mt->ma << 20 | mt->mi;

		for (size_t j = 0; j < n; j++)
			if (!v[j].bdi && v[j].ino == v[i].ino &&
			    v[j].dev == fsdev)
				return 3;
	}
	/*
	 * reused: the name holds for the file born at BORN (trace clock)
	 * and not for the I/O before, another file's; a kind of its own,
	 * which readers that do not know it skip
	 */
	sbuf_addf(out, "%s\t%u:%u\t%llu\thandle\t", rc == 2 ? "reused" : "inode",
		  nm1->ma, nm1->mi, (unsigned long long)nm1->ino);
	if (rc != 1)
		sbuf_add_escaped(out, nm1->path);
	sbuf_addf(out, "\t%s", rc == 1 ? "gone" :
		  nm1->unlinked ? "unlinked" : "");
	if (rc == 2)
		sbuf_addf(out, "\t%llu", (unsigned long long)
			  (nm1->born_real > real_off ?
			   nm1->born_real - real_off : 0));
	sbuf_addf(out, "\n");
	return rc;
}

void inoset_lines(struct inoset *s, struct sbuf *sb, uint64_t budget_ns,
		  bool cached)
{
	struct ino_slot *v;
	struct ino_mount *m;
	size_t *at, n = 0, nm = 0, named = 0, gone = 0, failed = 0;
	uint64_t real_off = now_real_ns() - now_mono_ns();
	uint64_t until = now_mono_ns() + budget_ns;
	struct ino_name *nm1 = malloc(sizeof(*nm1));
	struct sbuf one = SBUF_INIT;

	/* the table, and (cached) the lines of inodes named before */
	pthread_mutex_lock(&s->lock);
	v = calloc(s->n ? s->n : 1, sizeof(*v));
	at = calloc(s->n ? s->n : 1, sizeof(*at));
	if (!nm1 || !v || !at) {
		pthread_mutex_unlock(&s->lock);
		free(nm1);
		free(v);
		free(at);
		sb->failed = true;	/* the snapshot cannot be whole */
		return;
	}
	for (size_t i = 0; s->slot && i < INO_SLOTS; i++) {
		if (!s->slot[i].ino)
			continue;
		v[n] = s->slot[i];
		/* a cached line that cannot be copied is made again */
		v[n].line = cached && v[n].line &&
			    v[n].line_alloc == v[n].alloc_ts ?
			    strdup(v[n].line) : NULL;
		at[n++] = i;
	}
	pthread_mutex_unlock(&s->lock);
	m = read_mounts(&nm);
	for (size_t i = 0; i < n; i++) {
		int rc;

		if (v[i].line) {
			rc = v[i].line_rc;
			sbuf_addstr(sb, v[i].line);
			free(v[i].line);
			v[i].line = NULL;
		} else if (now_mono_ns() > until) {
			failed++;	/* past the budget: not named */
			continue;
		} else {
			sbuf_reset(&one);
			rc = one_lines(v, n, i, m, nm, real_off, nm1, &one);
			if (rc < 0) {
				failed++;
				continue;
			}
			sbuf_add(sb, one.buf ? one.buf : "", one.len);
			if (cached) {	/* NULL: named again next time */
				v[i].line = strdup(one.buf ? one.buf : "");
				v[i].line_rc = (int8_t)rc;
			}
		}
		named += rc == 0 || rc == 2;
		gone += rc == 1;
	}
	/* keep what was named for the next rotation's snapshot */
	if (cached) {
		pthread_mutex_lock(&s->lock);
		for (size_t i = 0; i < n; i++) {
			struct ino_slot *x = &s->slot[at[i]];

			if (!v[i].line)
				continue;
			if (x->ino == v[i].ino && x->dev == v[i].dev &&
			    x->bdi == v[i].bdi && x->alloc_ts == v[i].alloc_ts) {
				free(x->line);
				x->line = v[i].line;
				x->line_alloc = v[i].alloc_ts;
				x->line_rc = v[i].line_rc;
			} else {
				free(v[i].line);
			}
		}
		pthread_mutex_unlock(&s->lock);
	}
	sbuf_addf(sb, "inodes\t%zu\t%zu\t%zu\t%zu\t%llu\t%llu\n", n, named,
		  gone, failed, (unsigned long long)s->dropped,
		  (unsigned long long)((now_mono_ns() + budget_ns - until) /
				       1000));
	for (size_t i = 0; i < nm; i++) {
		if (m[i].fd >= 0)
			close(m[i].fd);
		free(m[i].dir);
	}
	if (one.failed)
		sb->failed = true;
	sbuf_release(&one);
	free(m);
	free(v);
	free(at);
	free(nm1);
}

void inoset_check(struct tracefs_instance *inst, char *buf, size_t size)
{
	struct inoset *s = inoset_new();
	struct ino_mount *m;
	struct ino_name *nm1 = malloc(sizeof(*nm1));
	struct ino_mount *mt;
	struct stat st;
	size_t nm = 0;
	int rc = -1, err = 0;

	if (!s || !nm1) {
		snprintf(buf, size, "no: out of memory");
		inoset_free(s);
		free(nm1);
		return;
	}
	inoset_setup(s, inst);
	m = read_mounts(&nm);
	if (!stat(".", &st)) {
		mt = mount_of(m, nm, major(st.st_dev), minor(st.st_dev));
		errno = 0;
		if (mt)
			rc = name_one(mt, st.st_ino, 0, nm1);
		err = errno;
	}
	if (!inoset_events(s))
		snprintf(buf, size, "no: none of the events that carry an inode (ext4, filemap, writeback) on this kernel");
	else if (rc == 0)
		snprintf(buf, size, "yes: %d events carry the inodes with I/O, each named at the end by open_by_handle_at (tried on the current directory's file system: it works); costs a bit test per event read, a table of at most %d inodes (%zu KiB), up to %llu s at the end",
			 inoset_events(s), INO_MAX,
			 (size_t)INO_SLOTS * sizeof(struct ino_slot) / 1024,
			 (unsigned long long)(INODE_NAMES_BUDGET_NS / 1000000000ull));
	else
		snprintf(buf, size, "%s: open_by_handle_at on the current directory's file system: %s (it needs root, and ext2/3/4 or a file system that takes 32-bit inode handles)",
			 err == EPERM ? "no" : "maybe",
			 err ? strerror(err) : "not a block device's file system");
	for (size_t i = 0; i < nm; i++) {
		if (m[i].fd >= 0)
			close(m[i].fd);
		free(m[i].dir);
	}
	free(m);
	free(nm1);
	inoset_free(s);
}
