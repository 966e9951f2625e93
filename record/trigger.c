// SPDX-License-Identifier: MIT
/*
 * trigger.c - the black box's triggers: conditions on the events the
 * readers already walk (d2c>200ms, fsync>500ms, throttle>1s,
 * iowait>2s/10s, lost), evaluated as each page is read.
 *
 * The event ids and field offsets are resolved once, from the instance's
 * format files through libtraceevent (tep_find_field()); per event, the
 * readers compare its type with a handful of ids and read one or two
 * fields at known offsets: no event is parsed.
 *
 * A request's issue and completion, a call's entry and exit, a task's
 * switch-out in D state and its wake-up are most often on two CPUs,
 * whose pages are read in no common order.  Every such event waits in
 * one heap until every CPU has been read past its time (trig_progress()),
 * and is taken in time order (the heap full: the oldest is taken): one
 * ordering for all the pairs.  Requests in flight and fsyncs under way
 * are then kept in two small open-addressed tables; a request whose issue
 * was overwritten by a collision is simply not timed.
 *
 * iowait: a task's time in uninterruptible sleep (D state: switched out
 * with TASK_UNINTERRUPTIBLE, until its wake-up, as ioreport's D-STATE-SUM
 * counts it), summed per process over a sliding window kept as 16 buckets
 * of a 16th of the window each: it fires when a wait ends and the
 * process's sum over the window (to a 16th) passes the threshold.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "record.h"

#define TRIG_MAX	8
#define REQ_SLOTS	4096	/* power of two */
#define SYNC_SLOTS	1024
#define WAIT_SLOTS	1024	/* tasks in D state, and processes' sums */
#define WAIT_BUCKETS	16
#define IOWAIT_WINDOW	(10ull * 1000000000ull)

/* What the ids of the table below stand for. */
enum trig_ev {
	TE_ISSUE,		/* block:block_rq_issue */
	TE_COMPLETE,		/* block:block_rq_complete */
	TE_FSYNC_ENTER,		/* syscalls:sys_enter_fsync, _fdatasync */
	TE_FSYNC_EXIT,
	TE_THROTTLE,		/* writeback:balance_dirty_pages */
	TE_RAW_ENTER,		/* raw_syscalls:sys_enter (--raw-syscalls) */
	TE_RAW_EXIT,
	TE_SWITCH,		/* sched:sched_switch */
	TE_WAKEUP,		/* sched:sched_wakeup, sched_waking */
};

struct trig_id {
	int id;
	enum trig_ev ev;
	const char *call;	/* "fsync", "fdatasync" */
};

struct trig_field {
	int off, size;		/* size 0: absent */
};

/* A request issued and not completed, by device and sector. */
struct req_slot {
	uint32_t dev;
	uint64_t sector;
	uint64_t ts;		/* its issue; 0: none */
	int pid;
};

/* An fsync or fdatasync entered and not returned, by pid. */
struct sync_slot {
	int pid;		/* 0: empty */
	int fd;
	uint64_t ts;		/* its entry; 0: none */
	const char *call;
};

/* A task switched out in D state, by tid. */
struct dwait_slot {
	int tid;		/* 0: empty */
	int tgid;		/* its process (/proc/TID/status, read once) */
	uint64_t ts;		/* switched out in D then (0: not in D) */
};

/*
 * One half of a pair (issue or completion, entry or exit, switch-out in
 * D or wake-up), its fields read, waiting for every CPU's pages up to
 * its time.
 */
struct tev {
	uint64_t ts;
	uint64_t sector, bytes;	/* a request's */
	const char *call;	/* a call's: "fsync", "fdatasync" */
	uint32_t dev;
	int pid;		/* common_pid; the task switched out or woken */
	int cpu;
	int fd;			/* a call's entry */
	enum trig_ev ev;	/* the raw calls' as TE_FSYNC_ENTER/EXIT */
};
#define TEV_MAX		32768	/* queued; beyond, the oldest is taken */
#define TRIG_CPUS	1024

/* A process's D-state time over the window, by tgid. */
struct dsum_slot {
	int pid;		/* 0: empty */
	uint64_t bucket[WAIT_BUCKETS];	/* ns waited in each 16th */
	uint64_t epoch[WAIT_BUCKETS];	/* which 16th each holds */
};

struct trig {
	struct trig_cond cond[TRIG_MAX];
	int ncond;
	struct trig_id ids[12];
	int nids;
	uint8_t is_id[65536 / 8];	/* a bit per event type: one of ids[] */
	struct trig_field pid;		/* common_pid */
	struct trig_field dev, sector;	/* block events (same in both) */
	struct trig_field cdev, csector, nr_sector;
	struct trig_field fd;		/* sys_enter_fsync */
	struct trig_field pause;	/* balance_dirty_pages, ms */
	struct trig_field raw_id, raw_fd;	/* raw_syscalls: id, args[0] */
	struct trig_field prev_pid, prev_state, next_pid;	/* sched_switch */
	struct trig_field wake_pid;	/* sched_wakeup */
	uint64_t wait_window;		/* the iowait conditions' longest */
	long raw_nr[4];			/* fsync, fdatasync numbers */
	const char *raw_call[4];
	int nraw;
	int self_pid;
	volatile int writer_tid;	/* the snapshot writer: never a trigger */
	pthread_mutex_t lock;
	struct req_slot *req;
	struct sync_slot *sync;
	struct dwait_slot *dwait;
	struct dsum_slot *dsum;
	struct tev *q;			/* a min-heap on ts */
	size_t nq;
	uint64_t *progress;		/* per CPU: read up to (0: never) */
	int ncpus;			/* CPUs that reported progress */
	bool fired;
	struct trig_fire fire;
	uint64_t fired_count;
};

static const char *const kind_word[] = {
	[TRIG_D2C] = "d2c", [TRIG_FSYNC] = "fsync",
	[TRIG_THROTTLE] = "throttle", [TRIG_IOWAIT] = "iowait",
	[TRIG_LOST] = "lost",
};

struct trig *trig_new(void)
{
	struct trig *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	t->self_pid = (int)getpid();
	return t;
}

void trig_free(struct trig *t)
{
	if (!t)
		return;
	pthread_mutex_destroy(&t->lock);
	free(t->req);
	free(t->sync);
	free(t->dwait);
	free(t->dsum);
	free(t->q);
	free(t->progress);
	free(t);
}

/*
 * The block device NAME (mmcblk0, /dev/loop3) as its request events carry
 * it (major << 20 | minor), from /sys/class/block/NAME/dev; a partition
 * (mmcblk0p2) is its disk, whose requests they are.  -1: no such device.
 */
static int block_dev_of(const char *name, uint32_t *dev)
{
	char path[300];
	unsigned int ma, mi, dma, dmi;
	FILE *f;
	int n;

	if (!strncmp(name, "/dev/", 5))
		name += 5;
	if (!*name || strchr(name, '/') || strlen(name) > 255)
		return -1;
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	f = fopen_raw(path);
	if (!f)
		return -1;
	n = fscanf(f, "%u:%u", &ma, &mi);
	fclose(f);
	if (n != 2)
		return -1;
	disk_of(ma, mi, &dma, &dmi);
	if (dma)
		ma = dma, mi = dmi;
	if (ma >= 4096 || mi >= (1u << 20))
		return -1;
	*dev = ma << 20 | mi;
	return 0;
}

/*
 * The duration at p, up to the first sep (0: the end); *rest is what
 * follows sep, or NULL when there is none.  <= 0: not a duration.
 */
static int64_t duration_to(const char *p, char sep, const char **rest)
{
	const char *end = sep ? strchr(p, sep) : NULL;
	size_t len = end ? (size_t)(end - p) : strlen(p);
	char v[32];

	*rest = end ? end + 1 : NULL;
	if (len >= sizeof(v))
		return -1;
	memcpy(v, p, len);
	v[len] = 0;
	return parse_duration(v);
}

int trig_parse(struct trig *t, const char *s)
{
	struct trig_cond *c;
	const char *gt, *rest;
	int64_t ns;
	int k;

	if (t->ncond == TRIG_MAX)
		return -1;
	c = &t->cond[t->ncond];
	memset(c, 0, sizeof(*c));
	if (!strcmp(s, "lost")) {
		c->kind = TRIG_LOST;
		snprintf(c->text, sizeof(c->text), "lost");
		t->ncond++;
		return 0;
	}
	gt = strchr(s, '>');
	if (!gt)
		return -1;
	for (k = TRIG_D2C; k <= TRIG_IOWAIT; k++)
		if (strlen(kind_word[k]) == (size_t)(gt - s) &&
		    !strncmp(s, kind_word[k], (size_t)(gt - s)))
			break;
	if (k > TRIG_IOWAIT)
		return -1;
	/* iowait>TIME[/WINDOW], d2c>TIME[@DEV], KIND>TIME */
	ns = duration_to(gt + 1, k == TRIG_IOWAIT ? '/' :
			 k == TRIG_D2C ? '@' : 0, &rest);
	if (k == TRIG_IOWAIT) {
		c->window_ns = IOWAIT_WINDOW;
		if (rest) {
			int64_t w = parse_duration(rest);

			if (w <= 0)
				return -1;
			c->window_ns = (uint64_t)w;
		}
		if ((uint64_t)ns >= c->window_ns)
			return -1;
	} else if (rest && block_dev_of(rest, &c->dev) < 0) {
		return -1;	/* d2c@DEV: only requests of that device */
	}
	if (ns <= 0 || strlen(s) >= sizeof(c->text))
		return -1;
	c->kind = (enum trig_kind)k;
	c->thresh_ns = (uint64_t)ns;
	snprintf(c->text, sizeof(c->text), "%s", s);
	t->ncond++;
	return 0;
}

int trig_count(const struct trig *t)
{
	return t ? t->ncond : 0;
}

const struct trig_cond *trig_cond_at(const struct trig *t, int i)
{
	return &t->cond[i];
}

static bool has_kind(const struct trig *t, enum trig_kind k)
{
	int i;

	for (i = 0; t && i < t->ncond; i++)
		if (t->cond[i].kind == k)
			return true;
	return false;
}

bool trig_wants_sched(const struct trig *t)
{
	return has_kind(t, TRIG_IOWAIT);
}

bool trig_pairs(const struct trig *t)
{
	return has_kind(t, TRIG_IOWAIT) || has_kind(t, TRIG_D2C) ||
	       has_kind(t, TRIG_FSYNC);
}

static void take_field(struct tep_event *e, const char *name,
		       struct trig_field *f)
{
	struct tep_format_field *ff = tep_find_any_field(e, name);

	f->off = ff ? ff->offset : 0;
	f->size = ff ? ff->size : 0;
}

/* Parse one event's format from @inst into @tep; NULL when absent. */
static struct tep_event *load_event(struct tep_handle *tep,
				    struct tracefs_instance *inst,
				    const char *sys, const char *name)
{
	struct tep_event *e = NULL;
	char *fmt;
	int len = 0;

	fmt = tracefs_event_file_read(inst, sys, name, "format", &len);
	if (!fmt)
		return NULL;
	if (tep_parse_format(tep, &e, fmt, (unsigned long)len, sys))
		e = NULL;
	free(fmt);
	return e;
}

static void add_id(struct trig *t, struct tep_event *e, enum trig_ev ev,
		   const char *call)
{
	t->ids[t->nids].id = e->id;
	if (e->id >= 0 && e->id < 65536)
		t->is_id[e->id / 8] |= (uint8_t)(1u << (e->id % 8));
	t->ids[t->nids].ev = ev;
	t->ids[t->nids].call = call;
	t->nids++;
}

/* Turn the conditions of kind @k off (their events are missing). */
static void drop_kind(struct trig *t, enum trig_kind k, const char *why)
{
	int i, j;

	for (i = j = 0; i < t->ncond; i++) {
		if (t->cond[i].kind == k) {
			warning("--trigger %s is off: %s", t->cond[i].text, why);
			continue;
		}
		t->cond[j++] = t->cond[i];
	}
	t->ncond = j;
}

/* The raw_syscalls numbers of fsync and fdatasync in @abi. */
static void add_raw_numbers(struct trig *t, enum rec_abi abi)
{
	static const char *const calls[] = { "fsync", "fdatasync" };
	size_t r;
	int i;

	for (i = 0; i < 2; i++)
		for (r = 0; r < systab_len; r++) {
			long nr;

			if (strcmp(systab[r].name, calls[i]))
				continue;
			nr = systab_nr(&systab[r], abi);
			if (nr >= 0 && t->nraw < 4) {
				t->raw_nr[t->nraw] = nr;
				t->raw_call[t->nraw++] = calls[i];
			}
		}
}

/* fsync triggers through raw_syscalls: id and args[0].  Returns 0 or -1. */
static int setup_raw_fsync(struct trig *t, struct tep_handle *tep,
			   struct tracefs_instance *inst, const struct plan *p)
{
	struct tep_event *e = load_event(tep, inst, "raw_syscalls", "sys_enter");
	struct tep_event *x = load_event(tep, inst, "raw_syscalls", "sys_exit");
	struct tep_format_field *args;

	if (!e || !x)
		return -1;
	args = tep_find_any_field(e, "args");
	take_field(e, "common_pid", &t->pid);
	take_field(e, "id", &t->raw_id);
	if (!args || !t->raw_id.size)
		return -1;
	t->raw_fd.off = args->offset;
	t->raw_fd.size = args->arraylen ? args->size / args->arraylen :
			 p->abi == ABI_ARM ? 4 : 8;
	add_raw_numbers(t, p->abi);
	if (p->compat_mode == COMPAT_RAW)
		add_raw_numbers(t, p->compat);
	if (!t->nraw)
		return -1;
	add_id(t, e, TE_RAW_ENTER, NULL);
	add_id(t, x, TE_RAW_EXIT, NULL);
	return 0;
}

int trig_setup(struct trig *t, struct tracefs_instance *inst,
	       const struct plan *p)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *e;
	bool nomem = false;

	if (!tep)
		return error(ERR_NOMEM);
	if (has_kind(t, TRIG_D2C)) {
		struct tep_event *c;

		e = load_event(tep, inst, "block", "block_rq_issue");
		c = load_event(tep, inst, "block", "block_rq_complete");
		if (e && c) {
			take_field(e, "common_pid", &t->pid);
			take_field(e, "dev", &t->dev);
			take_field(e, "sector", &t->sector);
			take_field(c, "dev", &t->cdev);
			take_field(c, "sector", &t->csector);
			take_field(c, "nr_sector", &t->nr_sector);
			add_id(t, e, TE_ISSUE, NULL);
			add_id(t, c, TE_COMPLETE, NULL);
			t->req = calloc(REQ_SLOTS, sizeof(*t->req));
			nomem |= !t->req;
		} else {
			drop_kind(t, TRIG_D2C, "no block:block_rq_issue or block_rq_complete event on this kernel");
		}
	}
	if (has_kind(t, TRIG_FSYNC)) {
		static const char *const calls[] = { "fsync", "fdatasync" };
		char name[64];
		int i, before = t->nids;

		if (!(p->profiles & PROFILE_IO)) {
			drop_kind(t, TRIG_FSYNC, "the system calls are not recorded (add the profile io)");
		} else if (p->raw_syscalls) {
			if (setup_raw_fsync(t, tep, inst, p) < 0)
				drop_kind(t, TRIG_FSYNC, "no raw_syscalls events with the numbers of fsync on this kernel");
		} else {
			for (i = 0; i < 2; i++) {
				struct tep_event *x;

				snprintf(name, sizeof(name), "sys_enter_%s",
					 calls[i]);
				e = load_event(tep, inst, "syscalls", name);
				snprintf(name, sizeof(name), "sys_exit_%s",
					 calls[i]);
				x = load_event(tep, inst, "syscalls", name);
				if (!e || !x)
					continue;
				take_field(e, "common_pid", &t->pid);
				take_field(e, "fd", &t->fd);
				add_id(t, e, TE_FSYNC_ENTER, calls[i]);
				add_id(t, x, TE_FSYNC_EXIT, calls[i]);
			}
			if (t->nids == before)
				drop_kind(t, TRIG_FSYNC, "no syscalls:sys_enter_fsync/sys_exit_fsync events on this kernel");
		}
		if (t->nids > before) {
			t->sync = calloc(SYNC_SLOTS, sizeof(*t->sync));
			nomem |= !t->sync;
		}
	}
	if (has_kind(t, TRIG_THROTTLE)) {
		e = load_event(tep, inst, "writeback", "balance_dirty_pages");
		if (e) {
			take_field(e, "common_pid", &t->pid);
			take_field(e, "pause", &t->pause);
			add_id(t, e, TE_THROTTLE, NULL);
		} else {
			drop_kind(t, TRIG_THROTTLE, "no writeback:balance_dirty_pages event on this kernel");
		}
	}
	if (has_kind(t, TRIG_IOWAIT)) {
		struct tep_event *w;

		e = load_event(tep, inst, "sched", "sched_switch");
		/* the wake-up decided (waking, 4.3+), else done: one of them */
		w = load_event(tep, inst, "sched", "sched_waking");
		if (!w)
			w = load_event(tep, inst, "sched", "sched_wakeup");
		if (e)
			take_field(e, "prev_pid", &t->prev_pid);
		if (e)
			take_field(e, "prev_state", &t->prev_state);
		if (e)
			take_field(e, "next_pid", &t->next_pid);
		if (w)
			take_field(w, "pid", &t->wake_pid);
		if (e && w && t->prev_pid.size == 4 && t->next_pid.size == 4 &&
		    t->prev_state.size && t->wake_pid.size == 4) {
			take_field(e, "common_pid", &t->pid);
			add_id(t, e, TE_SWITCH, NULL);
			add_id(t, w, TE_WAKEUP, NULL);
			for (int i = 0; i < t->ncond; i++)
				if (t->cond[i].kind == TRIG_IOWAIT &&
				    t->cond[i].window_ns > t->wait_window)
					t->wait_window = t->cond[i].window_ns;
			t->dwait = calloc(WAIT_SLOTS, sizeof(*t->dwait));
			t->dsum = calloc(WAIT_SLOTS, sizeof(*t->dsum));
			nomem |= !t->dwait || !t->dsum;
		} else {
			drop_kind(t, TRIG_IOWAIT, "no sched:sched_switch and sched_wakeup events with the usual fields on this kernel");
		}
	}
	tep_free(tep);
	if (t->nids && t->pid.size != 4) {
		t->nids = 0;
		t->ncond = 0;
		memset(t->is_id, 0, sizeof(t->is_id));
		warning("--trigger: every trigger is off: unexpected common_pid field in the event formats");
	}
	if (t->nids) {
		t->q = calloc(TEV_MAX, sizeof(*t->q));
		t->progress = calloc(TRIG_CPUS, sizeof(*t->progress));
		nomem |= !t->q || !t->progress;
	}
	if (nomem)
		return error("out of memory for the triggers (free some memory and run iorec again)");
	return 0;
}

void trig_set_writer_tid(struct trig *t, int tid)
{
	__atomic_store_n(&t->writer_tid, tid, __ATOMIC_RELAXED);
}

/* An unsigned field of 1, 2, 4 or 8 bytes (host endian). */
static uint64_t field_u(const uint8_t *data, const struct trig_field *f)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (f->size) {
	case 8: memcpy(&v8, data + f->off, 8); return v8;
	case 4: memcpy(&v4, data + f->off, 4); return v4;
	case 2: memcpy(&v2, data + f->off, 2); return v2;
	case 1: return data[f->off];
	}
	return 0;
}

static int64_t field_s(const uint8_t *data, const struct trig_field *f)
{
	uint64_t v = field_u(data, f);

	if (f->size == 4)
		return (int32_t)v;
	return (int64_t)v;
}

/* The first condition of kind k that value_ns (on block device dev, 0:
 * none) meets. */
static const struct trig_cond *cond_of(const struct trig *t,
				       enum trig_kind k, uint64_t value_ns,
				       uint32_t dev)
{
	int i;

	for (i = 0; i < t->ncond; i++)
		if (t->cond[i].kind == k && (k == TRIG_LOST ||
		    value_ns > t->cond[i].thresh_ns) &&
		    (!t->cond[i].dev || t->cond[i].dev == dev))
			return &t->cond[i];
	return NULL;
}

/*
 * Lock held.  The first firing is kept until trig_take(): true when this
 * one is kept (the caller adds what it knows of the request).
 */
static bool fire(struct trig *t, const struct trig_cond *c, uint64_t ts,
		 uint64_t value_ns, int pid, int cpu, const char *detail)
{
	t->fired_count++;
	if (t->fired)
		return false;
	t->fired = true;
	memset(&t->fire, 0, sizeof(t->fire));
	t->fire.fd = -1;
	snprintf(t->fire.cond, sizeof(t->fire.cond), "%s", c->text);
	t->fire.ts = ts;
	t->fire.value_ns = value_ns;
	t->fire.pid = pid;
	t->fire.cpu = cpu;
	snprintf(t->fire.detail, sizeof(t->fire.detail), "%s", detail);
	return true;
}

static uint32_t hash_req(uint32_t dev, uint64_t sector)
{
	uint64_t h = (sector ^ ((uint64_t)dev << 40)) * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(h >> 52) & (REQ_SLOTS - 1);
}

/* A request of @dev at @sector issued at @issued, done @d2c later. */
static void d2c_done(struct trig *t, uint32_t dev, uint64_t sector,
		     uint64_t bytes, uint64_t issued, uint64_t d2c, int pid,
		     int cpu)
{
	const struct trig_cond *c = cond_of(t, TRIG_D2C, d2c, dev);
	char detail[160];

	if (!c)
		return;
	snprintf(detail, sizeof(detail),
		 "block request on %u:%u sector %llu (%llu KiB) took %.1f ms on the device",
		 dev >> 20, dev & ((1u << 20) - 1), (unsigned long long)sector,
		 (unsigned long long)bytes / 1024, (double)d2c / 1e6);
	if (fire(t, c, issued, d2c, pid, cpu, detail)) {
		t->fire.dev = dev;
		t->fire.sector = sector;
		t->fire.bytes = bytes;
	}
}

/* The pairs' halves, in time order. */
static void on_issue(struct trig *t, const struct tev *e)
{
	struct req_slot *s = &t->req[hash_req(e->dev, e->sector)];

	s->dev = e->dev;
	s->sector = e->sector;
	s->ts = e->ts;
	s->pid = e->pid;
}

static void on_complete(struct trig *t, const struct tev *e)
{
	struct req_slot *s = &t->req[hash_req(e->dev, e->sector)];
	uint64_t issued = s->ts;

	if (!issued || s->dev != e->dev || s->sector != e->sector ||
	    e->ts < issued)
		return;		/* its issue not seen, or overwritten */
	s->ts = 0;
	d2c_done(t, e->dev, e->sector, e->bytes, issued, e->ts - issued,
		 s->pid, e->cpu);
}

/* A call of @pid entered at @start, @lat long. */
static void fsync_done(struct trig *t, const struct sync_slot *s,
		       const char *call, int pid, uint64_t start, uint64_t lat,
		       int cpu)
{
	const struct trig_cond *c = cond_of(t, TRIG_FSYNC, lat, 0);
	char detail[160];

	if (!c)
		return;
	snprintf(detail, sizeof(detail), "%s(fd %d) took %.1f ms",
		 call, s->fd, (double)lat / 1e6);
	if (fire(t, c, start, lat, pid, cpu, detail)) {
		snprintf(t->fire.call, sizeof(t->fire.call), "%s", call);
		t->fire.fd = s->fd;
	}
}

static void on_fsync(struct trig *t, const struct tev *e)
{
	struct sync_slot *s = &t->sync[(uint32_t)e->pid % SYNC_SLOTS];
	uint64_t start = s->ts;

	if (e->ev == TE_FSYNC_ENTER) {
		s->pid = e->pid;
		s->fd = e->fd;
		s->ts = e->ts;
		s->call = e->call;
		return;
	}
	if (s->pid != e->pid || s->call != e->call || !start || e->ts < start)
		return;		/* its entry not seen, or overwritten */
	s->pid = 0;
	s->ts = 0;
	fsync_done(t, s, e->call, e->pid, start, e->ts - start, e->cpu);
}

static void on_throttle(struct trig *t, const uint8_t *data, uint64_t ts,
			int cpu)
{
	int64_t pause_ms = field_s(data, &t->pause);
	const struct trig_cond *c;
	char detail[160];

	if (pause_ms <= 0)
		return;
	c = cond_of(t, TRIG_THROTTLE, (uint64_t)pause_ms * 1000000ull, 0);
	if (!c)
		return;
	snprintf(detail, sizeof(detail),
		 "dirty-page throttling paused the writer %lld ms",
		 (long long)pause_ms);
	fire(t, c, ts, (uint64_t)pause_ms * 1000000ull,
	     (int)field_s(data, &t->pid), cpu, detail);
}

/*
 * The process of task @tid, from /proc (the task itself if gone), or -1
 * for a kernel thread (its "Kthread: 1", or no memory of its own on
 * kernels without that line): a flusher or jbd2 waiting on the device is
 * not a process waiting on I/O.
 */
static int tgid_of(int tid)
{
	char path[64], line[128];
	int tgid = tid, kthread = -1;
	bool vm = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen_raw(path);
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5))
			tgid = atoi(line + 5);
		else if (!strncmp(line, "Kthread:", 8))
			kthread = atoi(line + 8);
		else if (!strncmp(line, "VmSize:", 7))
			vm = true;
	fclose(f);
	if (kthread == 1 || (kthread < 0 && !vm))
		return -1;
	return tgid > 0 ? tgid : tid;
}

/*
 * Add the D state from @start to @end to process @pid's buckets; its
 * slot (the buckets of the 16ths up to @end's).
 */
static struct dsum_slot *dsum_add(struct trig *t, int pid, uint64_t start,
				  uint64_t end)
{
	struct dsum_slot *s = &t->dsum[(uint32_t)pid % WAIT_SLOTS];
	uint64_t width = t->wait_window / WAIT_BUCKETS;
	uint64_t now = end / width;
	int b;

	if (s->pid != pid) {
		memset(s, 0, sizeof(*s));
		s->pid = pid;
	}
	/* the wait's part in each 16th it spans, back to the window's start */
	for (uint64_t e = now; e + WAIT_BUCKETS > now && end > start; e--) {
		uint64_t lo = e * width > start ? e * width : start;

		b = (int)(e % WAIT_BUCKETS);
		if (s->epoch[b] > e)
			break;		/* older than the window read so far */
		if (s->epoch[b] != e) {
			s->epoch[b] = e;
			s->bucket[b] = 0;
		}
		s->bucket[b] += end - lo;
		end = lo;
		if (!e)
			break;
	}
	return s;
}

/* The D state of slot @s over the last @window before @ts (to a 16th). */
static uint64_t dsum_over(const struct trig *t, const struct dsum_slot *s,
			  uint64_t ts, uint64_t window)
{
	uint64_t width = t->wait_window / WAIT_BUCKETS;
	uint64_t now = ts / width, k = (window + width / 2) / width, sum = 0;

	if (!k)
		k = 1;
	for (int b = 0; b < WAIT_BUCKETS; b++)
		if (s->epoch[b] + k > now && s->epoch[b] <= now)
			sum += s->bucket[b];
	return sum;
}

#define TASK_UNINTERRUPTIBLE	0x2	/* prev_state's D bit */

static struct dwait_slot *dwait_of(struct trig *t, int tid)
{
	struct dwait_slot *s = &t->dwait[(uint32_t)tid % WAIT_SLOTS];

	if (s->tid != tid) {
		memset(s, 0, sizeof(*s));
		s->tid = tid;
	}
	return s;
}

/* A wait of task slot @s from @start to @end: its process's sums. */
static void dwait_done(struct trig *t, struct dwait_slot *s,
		       uint64_t start, uint64_t end, int cpu)
{
	const struct dsum_slot *d;
	const struct trig_cond *c;
	char detail[160];
	uint64_t sum;

	if (!s->tgid)
		s->tgid = tgid_of(s->tid);	/* once per task */
	if (s->tgid < 0 || s->tgid == t->self_pid)
		return;		/* a kernel thread, or one of iorec's */
	d = dsum_add(t, s->tgid, start, end);
	for (int i = 0; i < t->ncond; i++) {
		c = &t->cond[i];
		if (c->kind != TRIG_IOWAIT ||
		    (sum = dsum_over(t, d, end, c->window_ns)) <= c->thresh_ns)
			continue;
		snprintf(detail, sizeof(detail),
			 "waited %.1f ms in D state (uninterruptible, on I/O) in the %.0f s before",
			 (double)sum / 1e6, (double)c->window_ns / 1e9);
		fire(t, c, end, sum, s->tgid, cpu, detail);
		return;
	}
}

/* A scheduler half: switched out in D, or woken. */
static void on_sched(struct trig *t, const struct tev *e)
{
	struct dwait_slot *s;

	if (e->ev == TE_SWITCH) {
		dwait_of(t, e->pid)->ts = e->ts;
		return;
	}
	s = &t->dwait[(uint32_t)e->pid % WAIT_SLOTS];
	if (s->tid != e->pid || !s->ts || e->ts < s->ts)
		return;
	dwait_done(t, s, s->ts, e->ts, e->cpu);
	s->ts = 0;
}

/* One half of a pair, in time order. */
static void tev_take(struct trig *t, const struct tev *e)
{
	switch (e->ev) {
	case TE_ISSUE:
		on_issue(t, e);
		break;
	case TE_COMPLETE:
		on_complete(t, e);
		break;
	case TE_FSYNC_ENTER:
	case TE_FSYNC_EXIT:
		on_fsync(t, e);
		break;
	case TE_SWITCH:
	case TE_WAKEUP:
		on_sched(t, e);
		break;
	default:
		break;
	}
}

static void tev_pop(struct trig *t, struct tev *top)
{
	size_t i = 0;

	*top = t->q[0];
	t->q[0] = t->q[--t->nq];
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct tev x;

		if (l < t->nq && t->q[l].ts < t->q[m].ts)
			m = l;
		if (l + 1 < t->nq && t->q[l + 1].ts < t->q[m].ts)
			m = l + 1;
		if (m == i)
			break;
		x = t->q[i];
		t->q[i] = t->q[m];
		t->q[m] = x;
		i = m;
	}
}

static void tev_push(struct trig *t, const struct tev *e)
{
	size_t i;

	if (t->nq == TEV_MAX) {
		struct tev old;

		tev_pop(t, &old);
		tev_take(t, &old);
	}
	i = t->nq++;
	t->q[i] = *e;
	while (i && t->q[(i - 1) / 2].ts > t->q[i].ts) {
		struct tev x = t->q[i];

		t->q[i] = t->q[(i - 1) / 2];
		t->q[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

/* Take the queued halves every CPU has been read past. */
static void tev_drain(struct trig *t)
{
	uint64_t mark = UINT64_MAX;
	struct tev e;

	for (int c = 0; c < t->ncpus; c++)
		if (t->progress[c] && t->progress[c] < mark)
			mark = t->progress[c];
	while (t->nq && t->q[0].ts <= mark) {
		tev_pop(t, &e);
		tev_take(t, &e);
	}
}

void trig_progress(struct trig *t, int cpu, uint64_t ts)
{
	if (!t->q || cpu < 0 || cpu >= TRIG_CPUS)
		return;
	pthread_mutex_lock(&t->lock);
	if (ts > t->progress[cpu])
		t->progress[cpu] = ts;
	if (cpu >= t->ncpus)
		t->ncpus = cpu + 1;
	tev_drain(t);
	pthread_mutex_unlock(&t->lock);
}

/*
 * The half of a pair @data is, its fields read into @e; false when it is
 * none to follow (a raw call other than fsync and fdatasync, iorec's own
 * calls, a switch-out not in D, a kernel task).
 */
static bool tev_of(const struct trig *t, const struct trig_id *id,
		   const uint8_t *data, struct tev *e)
{
	int i;

	e->ev = id->ev;
	e->pid = (int)field_s(data, &t->pid);
	switch (id->ev) {
	case TE_ISSUE:
		e->dev = (uint32_t)field_u(data, &t->dev);
		e->sector = field_u(data, &t->sector);
		return true;
	case TE_COMPLETE:
		e->dev = (uint32_t)field_u(data, &t->cdev);
		e->sector = field_u(data, &t->csector);
		e->bytes = field_u(data, &t->nr_sector) * 512;
		return true;
	case TE_RAW_ENTER:
	case TE_RAW_EXIT:
		for (i = 0; i < t->nraw; i++)
			if (t->raw_nr[i] == (long)field_s(data, &t->raw_id))
				break;
		if (i == t->nraw)
			return false;
		e->call = t->raw_call[i];
		e->ev = id->ev == TE_RAW_ENTER ? TE_FSYNC_ENTER : TE_FSYNC_EXIT;
		if (e->ev == TE_FSYNC_ENTER)
			e->fd = (int)field_s(data, &t->raw_fd);
		break;
	case TE_FSYNC_ENTER:
		e->fd = (int)field_s(data, &t->fd);
		/* fall through */
	case TE_FSYNC_EXIT:
		e->call = id->call;
		break;
	case TE_SWITCH:
		if ((field_u(data, &t->prev_state) & 0xff) !=
		    TASK_UNINTERRUPTIBLE)
			return false;
		e->pid = (int)field_s(data, &t->prev_pid);
		return e->pid > 0 && e->pid != t->self_pid;
	case TE_WAKEUP:
		e->pid = (int)field_s(data, &t->wake_pid);
		return e->pid > 0 && e->pid != t->self_pid;
	default:
		return false;
	}
	/* a call: not iorec's own */
	return e->pid != t->self_pid &&
	       e->pid != __atomic_load_n(&t->writer_tid, __ATOMIC_RELAXED);
}

void trig_event(struct trig *t, const void *data, uint64_t ts, int cpu)
{
	struct tev e = { .ts = ts, .cpu = cpu };
	uint16_t type;
	int i;

	memcpy(&type, data, 2);
	if (!(t->is_id[type / 8] & (1u << (type % 8))))
		return;		/* most events: one load */
	for (i = 0; i < t->nids; i++)
		if (t->ids[i].id == type)
			break;
	if (i == t->nids)
		return;
	if (t->ids[i].ev == TE_THROTTLE) {
		pthread_mutex_lock(&t->lock);
		on_throttle(t, data, ts, cpu);
		pthread_mutex_unlock(&t->lock);
		return;
	}
	if (!tev_of(t, &t->ids[i], data, &e))
		return;		/* most raw events: no lock */
	pthread_mutex_lock(&t->lock);
	tev_push(t, &e);
	pthread_mutex_unlock(&t->lock);
}

void trig_lost(struct trig *t, uint64_t ts, int cpu)
{
	const struct trig_cond *c = cond_of(t, TRIG_LOST, 0, 0);

	if (!c)
		return;
	pthread_mutex_lock(&t->lock);
	fire(t, c, ts, 0, 0, cpu, "the ring buffer lost events");
	pthread_mutex_unlock(&t->lock);
}

bool trig_take(struct trig *t, struct trig_fire *out)
{
	bool fired;

	pthread_mutex_lock(&t->lock);
	fired = t->fired;
	if (fired)
		*out = t->fire;
	t->fired = false;
	pthread_mutex_unlock(&t->lock);
	return fired;
}

uint64_t trig_fired_count(struct trig *t)
{
	uint64_t n;

	pthread_mutex_lock(&t->lock);
	n = t->fired_count;
	pthread_mutex_unlock(&t->lock);
	return n;
}
