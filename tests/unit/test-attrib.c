// SPDX-License-Identifier: MIT
/*
 * test-attrib.c - unit tests of the block I/O attribution (attrib.h),
 * one or more per rule of docs/attribution.md, fed synthetic sequences of
 * plain events, syscalls and completed requests.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"
#include "decode/decode.h"
#include "replay/syscall.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "base/kthread.h"
#include "replay/window.h"
#include "replay/block.h"
#include "replay/bio-owner.h"
#include "stats/account.h"
#include "stats/attrib.h"
#include "fixture.h"

#define DEV70	((7u << 20) | 0)
#define DEV80	((8u << 20) | 0)
#define DEV81	((8u << 20) | 1)

/* The replay the attribution reads, without a recording. */
struct fx {
	struct sysreplay *sr;
	struct filetab *ft;
	struct proctable *pt;
	struct windows *ws;
	struct owners *ow;
	struct attrib *at;
	struct replay_block *rb;	/* the bios in flight, with owners */
	struct attrib_owner *out;	/* where req() wants the owner */
	struct proc *app, *other;
	struct file *fa, *fb;
	uint64_t ts;
};

static void closed(void *arg, enum win_id w, int tid, const struct win *open,
		   const struct dec_ev *ev)
{
	attrib_window_closed(arg, w, tid, open, ev);
}

/*
 * An event to the block replay's bios, the windows, the owners, then to
 * the attribution, as the driver does.
 */
static void feed(struct fx *x, const struct dec_ev *e)
{
	if (e->kind == DK_BIO_QUEUE || e->kind == DK_BIO_MERGE ||
	    e->kind == DK_BIO_REMAP || e->kind == DK_BIO_SPLIT)
		replay_block_bio(x->rb, e);
	windows_feed(x->ws, e);
	owners_event(x->ow, e);
	attrib_event(x->at, e);
}

/* A request the block replay completed, with its bios. */
static void emit(const struct blk_request *rq, const struct blk_piece *pc,
		 size_t npc, void *arg)
{
	struct fx *x = arg;

	attrib_request(x->at, rq, pc, npc, x->out);
}

static void fx_init(struct fx *x)
{
	memset(x, 0, sizeof(*x));
	x->sr = sysreplay_new();
	x->ft = filetab_new();
	x->pt = proctable_new(x->ft);
	x->ws = windows_new();
	x->ow = owners_new(x->sr, x->pt, x->ft, x->ws, NULL);
	assert_non_null(x->ow);
	x->rb = replay_block_new(emit, x);
	assert_non_null(x->rb);
	assert_int_equal(owners_set_block(x->ow, x->rb), 0);
	x->at = attrib_new(x->ow, x->rb, x->ft, NULL);
	windows_on_close(x->ws, closed, x->at);
	x->app = proctable_get(x->pt, 100, "app", 1);
	x->other = proctable_get(x->pt, 200, "other", 1);
	x->fa = filetab_path(x->ft, "/data/a");
	x->fb = filetab_path(x->ft, "/data/b");
	fdtable_set(x->app->fds, 3, x->fa, false);
	fdtable_set(x->other->fds, 4, x->fb, false);
	x->ts = 1000;
}

static void fx_release(struct fx *x)
{
	attrib_free(x->at);
	owners_free(x->ow);
	replay_block_free(x->rb);
	windows_free(x->ws);
	proctable_free(x->pt, procstat_free);
	filetab_free(x->ft, filestat_free);
	sysreplay_free(x->sr);
}

/* e zeroed, then of kind k in pid at the next timestamp. */
static void next_ev(struct fx *x, struct dec_ev *e, enum dec_kind k, int pid)
{
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->ts = ++x->ts;
	e->pid = pid;
}

static void ev(struct fx *x, enum dec_kind k, int pid, uint32_t dev,
	       uint64_t ino)
{
	struct dec_ev e;

	next_ev(x, &e, k, pid);
	e.inode.dev = dev;
	e.inode.ino = ino;
	feed(x, &e);
}

/* A bio queued by pid; meta: flagged REQ_META ('M' in rwbs). */
static void queue_bio(struct fx *x, int pid, const char *comm, uint32_t dev,
		      uint64_t sector, uint32_t nr, bool meta)
{
	struct dec_ev e;

	next_ev(x, &e, DK_BIO_QUEUE, pid);
	e.bio.dev = dev;
	e.bio.sector = sector;
	e.bio.nr = nr;
	e.bio.meta = meta;
	snprintf(e.bio.comm, sizeof(e.bio.comm), "%s", comm);
	feed(x, &e);
}

static void bio(struct fx *x, int pid, const char *comm, uint32_t dev,
		uint64_t sector, uint32_t nr)
{
	queue_bio(x, pid, comm, dev, sector, nr, false);
}

static void meta_bio(struct fx *x, int pid, const char *comm, uint32_t dev,
		     uint64_t sector, uint32_t nr)
{
	queue_bio(x, pid, comm, dev, sector, nr, true);
}

/* block_split of the bio at sector: the remainder starts at rest. */
static void split(struct fx *x, uint32_t dev, uint64_t sector, uint64_t rest)
{
	struct dec_ev e;

	next_ev(x, &e, DK_BIO_SPLIT, 0);
	e.bio.dev = e.bio.dev2 = dev;
	e.bio.sector = sector;
	e.bio.sector2 = rest;
	feed(x, &e);
}

static void sys_in(struct fx *x, int tid, enum sys_kind k, uint64_t fd)
{
	struct sys_enter e = {
		.ts = ++x->ts, .tid = tid, .kind = k, .args = { fd },
	};

	sysreplay_enter(x->sr, &e);
}

static void sys_out(struct fx *x, int tid, enum sys_kind k)
{
	struct sys_exit e = { .ts = ++x->ts, .tid = tid, .kind = k };
	struct sys_call c;

	sysreplay_exit(x->sr, &e, &c);
}

/* pwrite64(fd) by pid, its direct I/O a bio on DEV70 inside the call. */
static void pwrite_bio(struct fx *x, int pid, const char *comm, uint64_t fd,
		       uint64_t sector, uint32_t nr)
{
	sys_in(x, pid, SK_PWRITE64, fd);
	bio(x, pid, comm, DEV70, sector, nr);
	sys_out(x, pid, SK_PWRITE64);
}

/* write(fd) by app (pid 100) in which inode ino of dev gets event k n times. */
static void app_write(struct fx *x, uint64_t fd, enum dec_kind k, uint32_t dev,
		      uint64_t ino, int n)
{
	sys_in(x, 100, SK_WRITE, fd);
	for (int i = 0; i < n; i++)
		ev(x, k, 100, dev, ino);
	sys_out(x, 100, SK_WRITE);
}

/* The flusher (pid 50) writing back inode ino of DEV70 in one bio. */
static void flush(struct fx *x, uint64_t ino, uint64_t sector, uint32_t nr)
{
	ev(x, DK_WRITEPAGES, 50, DEV70, ino);
	bio(x, 50, "kworker/u8:1", DEV70, sector, nr);
	ev(x, DK_WRITEPAGES_END, 50, DEV70, ino);
}

/*
 * A write (or read) request of nr sectors issued and completing 1000 ns
 * later, through the block replay (which hands its bios to the
 * attribution); o: its owner, or NULL.
 */
static void req(struct fx *x, uint32_t dev, uint64_t sector, uint32_t nr,
		bool write, struct attrib_owner *o)
{
	struct dec_ev e;

	memset(&e, 0, sizeof(e));
	e.kind = DK_RQ_ISSUE;
	e.ts = x->ts + 1;
	e.rq.dev = dev;
	e.rq.sector = sector;
	e.rq.nr_sector = nr;
	e.rq.bytes = (uint64_t)nr * 512;
	e.rq.op = write ? BLK_OP_WRITE : BLK_OP_READ;
	replay_block_feed(x->rb, &e);
	e.kind = DK_RQ_COMPLETE;
	e.ts = x->ts + 1001;
	x->out = o;
	replay_block_feed(x->rb, &e);
	x->out = NULL;
	assert_int_equal(replay_block_error(x->rb), 0);
	x->ts += 2000;
}

/* each test's replay, fresh */
DEFINE_FIXTURE(fx, struct fx, fx_init, fx_release)
#define FX_TEST(t)	FIXTURE_TEST(fx, t)

static struct blkio *pblk(struct proc *p)
{
	return &procstat_of(p)->blk;
}

static struct blkio *fblk(struct file *f)
{
	return &filestat_of(f)->blk;
}

/*
 * The write request app and other shared: each charged its bytes, the
 * request counted once, for app.
 */
static void assert_shared(struct fx *x, uint64_t app_bytes,
			  uint64_t other_bytes)
{
	assert_int_equal(pblk(x->app)->write_bytes, app_bytes);
	assert_int_equal(pblk(x->other)->write_bytes, other_bytes);
	assert_int_equal(pblk(x->app)->requests, 1);
	assert_int_equal(pblk(x->other)->requests, 0);
}

/* Rule "syscall": direct I/O inside write(fd) -> caller and fd's file. */
static void test_syscall_direct(void **state)
{
	struct fx *x = *state;
	struct attrib_owner o;

	pwrite_bio(x, 100, "app", 3, 1000, 8);
	req(x, DEV70, 1000, 8, true, &o);
	assert_int_equal(o.kind, AK_SYSCALL);
	assert_ptr_equal(o.proc, x->app);
	assert_ptr_equal(o.file, x->fa);
	assert_int_equal(pblk(x->app)->write_bytes, 4096);
	assert_int_equal(pblk(x->app)->requests, 1);
	assert_int_equal(pblk(x->app)->dev_ns, 1000);
	assert_int_equal(fblk(x->fa)->write_bytes, 4096);
	/* a synchronous read: same rule */
	sys_in(x, 100, SK_READ, 3);
	bio(x, 100, "app", DEV70, 5000, 16);
	req(x, DEV70, 5000, 16, false, NULL);
	assert_int_equal(pblk(x->app)->read_bytes, 8192);
	assert_int_equal(fblk(x->fa)->read_bytes, 8192);
	attrib_end(x->at);
	assert_int_equal(attrib_totals(x->at)->kind_bytes[AK_SYSCALL], 12288);
	assert_int_equal(attrib_totals(x->at)->file_bytes, 12288);
	assert_int_equal(attrib_totals(x->at)->proc_bytes, 12288);
}

/* Rule "writeback": a flusher's bios go to the dirtiers by share. */
static void test_writeback_shares(void **state)
{
	struct fx *x = *state;
	struct attrib_owner o;

	/* three folios of ino 12 dirtied by app's write to a: ties it to a */
	app_write(x, 3, DK_DIRTY_FOLIO, DEV70, 12, 3);
	ev(x, DK_DIRTY_FOLIO, 200, DEV70, 12);	/* mmap: no syscall */
	flush(x, 12, 2000, 16);
	req(x, DEV70, 2000, 16, true, &o);
	assert_int_equal(o.kind, AK_WRITEBACK);
	assert_ptr_equal(o.proc, x->app);		/* the largest share */
	assert_ptr_equal(o.file, x->fa);
	assert_shared(x, 6144, 2048);
	assert_int_equal(fblk(x->fa)->write_bytes, 8192);
	/* the dirt still pending is shared the same way */
	flush(x, 12, 3000, 8);
	req(x, DEV70, 3000, 8, true, NULL);
	assert_int_equal(pblk(x->app)->write_bytes, 6144 + 3072);
	assert_int_equal(pblk(x->other)->write_bytes, 2048 + 1024);
	/* an inode nobody dirtied: file by inode, no process */
	flush(x, 99, 4000, 8);
	req(x, DEV70, 4000, 8, true, &o);
	assert_null(o.proc);
	assert_int_equal(o.ino, 99);
	attrib_end(x->at);
	assert_int_equal(attrib_totals(x->at)->wb_noproc_bytes, 4096);
	assert_int_equal(attrib_totals(x->at)->inode_bytes, 4096);
	assert_non_null(attrib_inode_file(x->at, DEV70, 99));
}

/* Rules "fsync" and "journal": the caller pays for both. */
static void test_fsync_and_journal(void **state)
{
	struct fx *x = *state;
	struct attrib_owner o;
	const struct attrib_totals *t;

	sys_in(x, 100, SK_FSYNC, 3);
	ev(x, DK_FSYNC_ENTER, 100, DEV70, 13);	/* ties ino 13 to a */
	ev(x, DK_WRITEPAGES, 100, DEV70, 13);
	bio(x, 100, "app", DEV70, 100, 64);
	ev(x, DK_WRITEPAGES_END, 100, DEV70, 13);
	/* the commit the fsync waits for */
	ev(x, DK_COMMIT_START, 60, DEV70, 0);
	bio(x, 60, "jbd2/loop0-8", DEV70, 90000, 8);
	ev(x, DK_COMMIT_END, 60, DEV70, 0);
	ev(x, DK_FSYNC_EXIT, 100, DEV70, 13);
	sys_out(x, 100, SK_FSYNC);
	req(x, DEV70, 100, 64, true, &o);
	assert_int_equal(o.kind, AK_FSYNC);
	assert_ptr_equal(o.proc, x->app);
	assert_ptr_equal(o.file, x->fa);
	req(x, DEV70, 90000, 8, true, &o);
	assert_int_equal(o.kind, AK_JOURNAL);
	assert_null(o.proc);
	/* a commit nobody waits for */
	bio(x, 60, "jbd2/loop0-8", DEV70, 90008, 8);
	req(x, DEV70, 90008, 8, true, NULL);
	attrib_end(x->at);
	t = attrib_totals(x->at);
	assert_int_equal(pblk(x->app)->write_bytes, 32768);
	assert_int_equal(pblk(x->app)->journal_bytes, 4096);
	assert_int_equal(fblk(x->fa)->write_bytes, 32768);
	assert_int_equal(fblk(x->fa)->journal_bytes, 4096);
	assert_int_equal(t->kind_bytes[AK_FSYNC], 32768);
	assert_int_equal(t->kind_bytes[AK_JOURNAL], 8192);
	assert_int_equal(t->njournal, 1);
	assert_int_equal(t->journal[0].dev, DEV70);
	assert_int_equal(t->journal[0].bytes, 8192);
	assert_int_equal(t->journal[0].fsync_bytes, 4096);
}

/* A request carries its first bio's owner; merged bios keep their own. */
static void test_merge_and_split(void **state)
{
	struct fx *x = *state;
	struct attrib_owner o;

	pwrite_bio(x, 100, "app", 3, 0, 8);
	sys_in(x, 200, SK_PWRITE64, 4);
	bio(x, 200, "other", DEV70, 8, 8);	/* back-merged */
	ev(x, DK_BIO_MERGE, 200, DEV70, 0);
	sys_out(x, 200, SK_PWRITE64);
	req(x, DEV70, 0, 16, true, &o);
	assert_ptr_equal(o.proc, x->app);
	assert_shared(x, 4096, 4096);
	assert_int_equal(pblk(x->app)->dev_ns, 500);
	assert_int_equal(pblk(x->other)->dev_ns, 500);
	assert_int_equal(fblk(x->fb)->write_bytes, 4096);
	/* one bio split into two requests */
	pwrite_bio(x, 100, "app", 3, 100, 16);
	req(x, DEV70, 100, 8, true, NULL);
	req(x, DEV70, 108, 8, true, NULL);
	assert_int_equal(pblk(x->app)->write_bytes, 4096 + 8192);
	assert_int_equal(pblk(x->app)->requests, 3);
	/* split by the block layer, the remainder completing first */
	pwrite_bio(x, 100, "app", 3, 200, 16);
	split(x, DEV70, 200, 204);
	req(x, DEV70, 204, 12, true, &o);
	assert_ptr_equal(o.proc, x->app);
	req(x, DEV70, 200, 4, true, &o);
	assert_ptr_equal(o.proc, x->app);
	assert_int_equal(pblk(x->app)->write_bytes, 4096 + 8192 + 8192);
	/* a request no bio covers: unattributed, counted */
	req(x, DEV70, 7777, 8, true, &o);
	assert_int_equal(o.kind, AK_UNATTRIBUTED);
	attrib_end(x->at);
	assert_int_equal(attrib_totals(x->at)->bio_unmatched, 8);
	assert_int_equal(attrib_totals(x->at)->bio_pending_end, 0);
}

/* Rules "context" and "unattributed". */
static void test_context_and_unattributed(void **state)
{
	struct fx *x = *state;
	struct attrib_owner o;

	bio(x, 100, "app", DEV70, 10, 8);	/* a page fault */
	req(x, DEV70, 10, 8, false, &o);
	assert_int_equal(o.kind, AK_CONTEXT);
	assert_ptr_equal(o.proc, x->app);
	assert_null(o.file);
	bio(x, 51, "kworker/0:1H", DEV70, 20, 8);
	req(x, DEV70, 20, 8, false, &o);
	assert_int_equal(o.kind, AK_UNATTRIBUTED);
	assert_null(o.proc);
	/* a flusher writing metadata home: the file system's */
	meta_bio(x, 52, "kworker/u4:2", DEV70, 30, 2);
	req(x, DEV70, 30, 2, true, &o);
	assert_int_equal(o.kind, AK_METADATA);
	assert_null(o.proc);
	/* by comm: md127_raid1 is the kernel's, mdadm (pid 200) a program */
	bio(x, 53, "md127_raid1", DEV70, 40, 8);
	req(x, DEV70, 40, 8, true, &o);
	assert_int_equal(o.kind, AK_UNATTRIBUTED);
	bio(x, 200, "mdadm", DEV70, 50, 8);
	req(x, DEV70, 50, 8, false, &o);
	assert_int_equal(o.kind, AK_CONTEXT);
	assert_ptr_equal(o.proc, x->other);
	attrib_end(x->at);
	assert_int_equal(attrib_totals(x->at)->kind_bytes[AK_UNATTRIBUTED], 8192);
	assert_int_equal(attrib_totals(x->at)->kind_bytes[AK_METADATA], 1024);
	assert_int_equal(attrib_totals(x->at)->proc_bytes, 8192);
}

/* Kernel threads by comm: the longest name that fits, no letter after it. */
static void test_kthread_comm(void **state)
{
	static const struct { const char *comm; size_t pre; } v[] = {
		{ "kworker/u8:2", 8 }, { "jbd2/sda1-8", 5 }, { "md127", 2 },
		{ "md127_raid1", 2 }, { "loop0", 4 }, { "kswapd0", 6 },
		{ "kthreadd", 8 }, { "xfsaild/sda1", 7 }, { "xfs-buf/sda1", 3 },
		{ "dmcrypt_write/2", 8 }, { "dm-thin", 2 }, { "rcu_sched", 4 },
		{ "dmesg", 0 }, { "mdadm", 0 }, { "loopback", 0 },
		{ "kworker", 0 }, { "app", 0 }, { "", 0 }, { "md~12", 2 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		size_t pre = 99;

		assert_int_equal(kthread_comm(v[i].comm, &pre), v[i].pre > 0);
		assert_int_equal(pre, v[i].pre);
	}
}

/* An inode number freed and reused by another file (SQLite -journal, -wal). */
static void test_inode_reuse(void **state)
{
	struct fx *x = *state;
	struct attrib_owner o;

	fdtable_set(x->app->fds, 4, x->fb, false);
	app_write(x, 3, DK_DIRTY_FOLIO, DEV70, 16, 1);
	/* a weak hint (inode marked dirty) does not re-tie */
	app_write(x, 4, DK_DIRTY_INODE, DEV70, 16, 1);
	assert_ptr_equal(attrib_inode_file(x->at, DEV70, 16), x->fa);
	/* a folio dirtied by a write to the new file does */
	app_write(x, 4, DK_DIRTY_FOLIO, DEV70, 16, 1);
	assert_ptr_equal(attrib_inode_file(x->at, DEV70, 16), x->fb);
	flush(x, 16, 300, 8);
	req(x, DEV70, 300, 8, true, &o);
	assert_ptr_equal(o.file, x->fb);
	assert_int_equal(fblk(x->fb)->write_bytes, 4096);
	assert_int_equal(fblk(x->fa)->write_bytes, 0);
	assert_int_equal(owners_counts(x->ow)->inode_retied, 1);
}

/* writeback_* name the disk's bdi (8:0), ext4 the partition (8:1). */
static void test_bdi_partition(void **state)
{
	struct fx *x = *state;
	struct attrib_owner o;

	app_write(x, 3, DK_DIRTY_FOLIO, DEV80, 5, 2);
	ev(x, DK_WRITEPAGES, 50, DEV81, 5);
	ev(x, DK_DIRTY_INODE, 50, DEV80, 5);	/* learns 8:0 -> 8:1 */
	bio(x, 50, "kworker/u8:1", DEV80, 4096, 16);
	ev(x, DK_WRITEPAGES_END, 50, DEV81, 5);
	req(x, DEV80, 4096, 16, true, &o);
	assert_int_equal(o.kind, AK_WRITEBACK);
	assert_ptr_equal(o.proc, x->app);
	assert_ptr_equal(o.file, x->fa);
	assert_int_equal(o.dev, DEV81);
	assert_int_equal(pblk(x->app)->write_bytes, 8192);
}

/* Dirty throttling (the event's pause is already in ms) and D-state time. */
static void test_throttle_dstate(void **state)
{
	struct fx *x = *state;
	struct dec_ev e;

	memset(&e, 0, sizeof(e));
	e.kind = DK_BDP;
	e.pid = 100;
	e.pause = 100;			/* ms */
	feed(x, &e);
	e.pause = 0;			/* not paused */
	feed(x, &e);
	assert_int_equal(procstat_of(x->app)->throttle_ns, 100000000);
	assert_int_equal(procstat_of(x->app)->throttles, 1);

	memset(&e, 0, sizeof(e));
	e.kind = DK_SWITCH;
	e.ts = 1000;
	e.sched.prev_pid = 100;
	e.sched.prev_state = 0x2;	/* D */
	e.sched.next_pid = 0;
	feed(x, &e);
	memset(&e, 0, sizeof(e));
	e.kind = DK_WAKEUP;
	e.ts = 5000;
	e.sched.pid = 100;
	feed(x, &e);
	memset(&e, 0, sizeof(e));
	e.kind = DK_SWITCH;		/* preempted (R+): not D */
	e.ts = 6000;
	e.sched.prev_pid = 100;
	e.sched.prev_state = 0x100;
	feed(x, &e);
	e.ts = 9000;			/* switched in: no wait open */
	e.sched.prev_pid = 0;
	e.sched.prev_state = 0;
	e.sched.next_pid = 100;
	feed(x, &e);
	assert_int_equal(procstat_of(x->app)->dstate_ns, 4000);
	assert_int_equal(procstat_of(x->app)->dstates, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_syscall_direct),
		FX_TEST(test_writeback_shares),
		FX_TEST(test_fsync_and_journal),
		FX_TEST(test_merge_and_split),
		FX_TEST(test_context_and_unattributed),
		cmocka_unit_test(test_kthread_comm),
		FX_TEST(test_inode_reuse),
		FX_TEST(test_bdi_partition),
		FX_TEST(test_throttle_dstate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
