// SPDX-License-Identifier: MIT
/*
 * test-diff.c - unit tests of the aggregators behind `ioreport wa`,
 * `fsync`, `dirty` and `diff`: the config comparison of two snapshots
 * (snapcmp.c), the write amplification classes, diskstats deltas and the
 * fsync/flush join (wa.c), and the throttling/writeback time series
 * (dirty.c), fed synthetic decoded events (decode.h).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"
#include "input/meta.h"
#include "decode/decode.h"
#include "replay/window.h"
#include "stats/attrib.h"
#include "stats/wa.h"
#include "stats/dirty.h"
#include "stats/snapcmp.h"


#define DEV(ma, mi) ((uint32_t)(ma) << 20 | (mi))

/* A decoded event of kind k at ts in task pid on CPU 0. */
static struct dec_ev event(enum dec_kind k, uint64_t ts, int pid)
{
	struct dec_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = k;
	ev.ts = ts;
	ev.pid = pid;
	return ev;
}

static struct dec_ev fsync_enter(uint64_t ts, int pid, uint32_t dev,
				 uint64_t ino, bool datasync)
{
	struct dec_ev ev = event(DK_FSYNC_ENTER, ts, pid);

	ev.inode.dev = dev;
	ev.inode.ino = ino;
	ev.inode.datasync = datasync;
	return ev;
}

/* ------------------------------------------------------------------ */
/* snapcmp */

static const char snap_before[] =
	"uname\tLinux\t6.1.0\t#1\tx86_64\thost\n"
	"sysctl\tvm.dirty_ratio\t20\n"
	"sysctl\tvm.dirty_background_ratio\t10\n"
	"sysctl\tvm.swappiness\t60\n"
	"meminfo\tMemTotal\t1000\n"
	"mount\t254:0\t/dev/vda\t/\text4\trw,relatime\trw\n"
	"mount\t7:1\t/dev/loop1\t/tmp/a/mnt\text4\trw,relatime\trw\n"
	"mount\t0:5\ttmpfs\t/dev/shm\ttmpfs\trw\trw\n"
	"blockdev\tloop1\t7:1\tscheduler\tnone\n"
	"blockdev\tloop1\t7:1\trotational\t1\n"
	"blockdev\tsda\t8:0\tscheduler\tmq-deadline\n"
	"blockdev\tsda1\t8:1\tparent\tsda\n"
	"diskstats\t7\t1\tloop1\t1 0 8 0 10 0 800 5 0 0 0 0 0 0 3 1\n";

static const char snap_after[] =
	"uname\tLinux\t6.1.0\t#1\tx86_64\thost\n"
	"sysctl\tvm.dirty_ratio\t2\n"
	"sysctl\tvm.dirty_background_ratio\t10\n"
	"sysctl\tvm.swappiness\t60\n"
	"sysctl\tvm.new_knob\t7\n"
	"meminfo\tMemTotal\t1000\n"
	"mount\t254:0\t/dev/vda\t/\text4\trw,relatime\trw\n"
	"mount\t7:2\t/dev/loop2\t/tmp/b/mnt\text4\trw,relatime\trw,nobarrier,data=journal\n"
	"blockdev\tloop2\t7:2\tscheduler\tmq-deadline\n"
	"blockdev\tloop2\t7:2\trotational\t1\n";

static bool used_loops(uint32_t dev, int side, void *arg)
{
	(void)arg;
	(void)side;
	return dev == DEV(7, 1) || dev == DEV(7, 2);
}

static const struct snapdiff_item *find_item(const struct snapdiff *sd,
					     const char *what, const char *key)
{
	for (size_t i = 0; i < sd->n; i++)
		if (!strcmp(sd->v[i].what, what) &&
		    !strncmp(sd->v[i].key, key, strlen(key)))
			return &sd->v[i];
	return NULL;
}

static void test_snapdiff(void **state)
{
	struct snapdiff sd = { 0 };
	const struct snapdiff_item *it;
	char buf[256];

	(void)state;
	snapdiff_compute(&sd, NULL, snap_before, NULL, snap_after, used_loops,
			 NULL, NULL);
	it = find_item(&sd, "sysctl", "vm.dirty_ratio");
	assert_non_null(it);
	assert_string_equal(it->before, "20");
	assert_string_equal(it->after, "2");
	it = find_item(&sd, "sysctl", "vm.new_knob");
	assert_non_null(it);
	assert_null(it->before);
	assert_null(find_item(&sd, "sysctl", "vm.swappiness"));
	assert_null(find_item(&sd, "kernel", "kernel"));
	/* the loop file systems are matched although dir and device moved */
	it = find_item(&sd, "mount", "/tmp/a/mnt");
	assert_non_null(it);
	assert_non_null(it->note);
	assert_non_null(strstr(it->note, "+nobarrier"));
	assert_non_null(strstr(it->note, "barrier on -> off"));
	assert_non_null(strstr(it->note, "data=ordered -> data=journal"));
	/* the root fs did no I/O here: not compared; tmpfs neither */
	assert_null(find_item(&sd, "mount", "/dev/shm"));
	it = find_item(&sd, "blockdev", "loop1 scheduler");
	assert_non_null(it);
	assert_string_equal(it->before, "none");
	assert_string_equal(it->after, "mq-deadline");
	assert_null(find_item(&sd, "blockdev", "loop1 rotational"));
	assert_string_equal(snapdiff_path(&sd, "/tmp/b/mnt/db", buf,
					  sizeof(buf)), "/tmp/a/mnt/db");
	assert_string_equal(snapdiff_path(&sd, "/tmp/b/mntx", buf,
					  sizeof(buf)), "/tmp/b/mntx");
	assert_int_equal(snapdiff_dev(&sd, DEV(7, 2)), DEV(7, 1));
	assert_int_equal(snapdiff_dev(&sd, DEV(8, 0)), DEV(8, 0));
	snapdiff_release(&sd);

	/* same snapshot: nothing */
	snapdiff_compute(&sd, NULL, snap_before, NULL, snap_before,
			 used_loops, NULL, NULL);
	assert_int_equal(sd.n, 0);
	snapdiff_release(&sd);
}

/*
 * The same SD card as mmcblk0 on one machine and sda on the next: its
 * root file system on partition 2 matched by mount point, and the disks,
 * which the block requests name, matched with it.
 */
static const char snap_card_b[] =
	"mount\t179:2\t/dev/mmcblk0p2\t/\text4\trw,relatime\trw\n"
	"mount\t179:1\t/dev/mmcblk0p1\t/boot\tvfat\trw\trw\n"
	"blockdev\tmmcblk0\t179:0\tscheduler\tmq-deadline\n"
	"blockdev\tmmcblk0p1\t179:1\tparent\tmmcblk0\n"
	"blockdev\tmmcblk0p2\t179:2\tparent\tmmcblk0\n";
static const char snap_card_a[] =
	"mount\t8:2\t/dev/sda2\t/\text4\trw,relatime\trw\n"
	"mount\t8:1\t/dev/sda1\t/boot\tvfat\trw\trw\n"
	"blockdev\tsda\t8:0\tscheduler\tmq-deadline\n"
	"blockdev\tsda1\t8:1\tparent\tsda\n"
	"blockdev\tsda2\t8:2\tparent\tsda\n";

static bool used_card(uint32_t dev, int side, void *arg)
{
	(void)arg;
	(void)side;
	return dev >> 20 == 179 || dev >> 20 == 8;
}

static void test_snapdiff_disks(void **state)
{
	struct snapdiff sd = { 0 };

	(void)state;
	snapdiff_compute(&sd, NULL, snap_card_b, NULL, snap_card_a, used_card,
			 NULL, NULL);
	assert_int_equal(sd.err, 0);
	assert_int_equal(snapdiff_dev(&sd, DEV(8, 2)), DEV(179, 2));
	assert_int_equal(snapdiff_dev(&sd, DEV(8, 1)), DEV(179, 1));
	assert_int_equal(snapdiff_dev(&sd, DEV(8, 0)), DEV(179, 0));
	/* a device of neither */
	assert_int_equal(snapdiff_dev(&sd, DEV(7, 0)), DEV(7, 0));
	snapdiff_release(&sd);
}

/*
 * The workload moved to a new mount on another loop device while the old
 * one stays mounted, idle (issue 25 item 7): the old mount point is in
 * both snapshots, but the file system that did the I/O in AFTER is the
 * new one, and it is the one compared with BEFORE's.
 */
static const char snap_moved_b[] =
	"mount\t254:0\t/dev/vda\t/\text4\trw,relatime\trw\n"
	"mount\t7:1\t/dev/loop1\t/tmp/a/mnt\text4\trw,relatime\trw\n";
static const char snap_moved_a[] =
	"mount\t254:0\t/dev/vda\t/\text4\trw,relatime\trw\n"
	"mount\t7:1\t/dev/loop1\t/tmp/a/mnt\text4\trw,relatime\trw\n"
	"mount\t7:2\t/dev/loop2\t/tmp/b/mnt\text4\trw,relatime\trw\n";

static bool used_moved(uint32_t dev, int side, void *arg)
{
	(void)arg;
	return dev == DEV(254, 0) || dev == (side ? DEV(7, 2) : DEV(7, 1));
}

static bool used_both(uint32_t dev, int side, void *arg)
{
	(void)arg;
	(void)side;
	return dev == DEV(254, 0) || dev == DEV(7, 1) || dev == DEV(7, 2);
}

static const char *const moved_b[] = { "/tmp/a/mnt/db", "/tmp/a/mnt/db-wal",
	"/usr/lib/x", NULL };
static const char *const moved_a[] = { "/tmp/b/mnt/db", "/tmp/b/mnt/db-wal",
	"/usr/lib/x", "/tmp/a/mnt/lost+found", NULL };
static const char *const *const moved_files[2] = { moved_b, moved_a };

static void test_snapdiff_moved(void **state)
{
	struct snapdiff sd = { 0 };
	char buf[256];

	(void)state;
	snapdiff_compute(&sd, NULL, snap_moved_b, NULL, snap_moved_a,
			 used_moved, NULL, NULL);
	assert_int_equal(sd.err, 0);
	assert_string_equal(snapdiff_path(&sd, "/tmp/b/mnt/db", buf,
					  sizeof(buf)), "/tmp/a/mnt/db");
	assert_int_equal(snapdiff_dev(&sd, DEV(7, 2)), DEV(7, 1));
	assert_int_equal(sd.nmp, 1);
	assert_non_null(strstr(sd.mp[0].why, "only file system of its type"));
	/* the root file system, used on both sides, stays itself */
	assert_int_equal(snapdiff_dev(&sd, DEV(254, 0)), DEV(254, 0));
	/* nothing to say about options: they are the same */
	assert_int_equal(sd.n, 0);
	snapdiff_release(&sd);

	/* both mounted on both sides, and a stray read on the new one in
	 * BEFORE: the files below them say which is which */
	snapdiff_compute(&sd, NULL, snap_moved_a, NULL, snap_moved_a,
			 used_both, NULL, moved_files);
	assert_int_equal(sd.err, 0);
	assert_string_equal(snapdiff_path(&sd, "/tmp/b/mnt/db-wal", buf,
					  sizeof(buf)), "/tmp/a/mnt/db-wal");
	assert_int_equal(snapdiff_dev(&sd, DEV(7, 2)), DEV(7, 1));
	assert_non_null(strstr(sd.mp[0].why, "the same files"));
	assert_int_equal(snapdiff_dev(&sd, DEV(254, 0)), DEV(254, 0));
	snapdiff_release(&sd);
}

/* ------------------------------------------------------------------ */
/* wa */

static struct blk_done done(uint32_t dev, enum blk_op op, uint64_t bytes,
			    enum attrib_kind kind, bool file, bool meta)
{
	static int dummy_file;
	struct blk_done d;

	memset(&d, 0, sizeof(d));
	d.rq.dev = dev;
	d.rq.op = op;
	d.rq.bytes = bytes;
	d.rq.meta = meta;
	d.rq.issue_ts = 1000;
	d.rq.complete_ts = 3000;
	d.attributed = true;
	d.own.kind = kind;
	d.own.file = file ? (struct file *)&dummy_file : NULL;
	return d;
}

static uint32_t part_to_disk(uint32_t dev, void *arg)
{
	(void)arg;
	return dev == DEV(8, 1) ? DEV(8, 0) : dev;
}

static void test_wa_classes(void **state)
{
	struct wa *w = wa_new(false, false, part_to_disk, NULL);
	struct blk_done d;
	struct wa_dev t, *dv;

	(void)state;
	d = done(DEV(8, 0), BLK_OP_WRITE, 4096, AK_WRITEBACK, true, false);
	wa_request(w, &d);
	d = done(DEV(8, 0), BLK_OP_WRITE, 8192, AK_JOURNAL, false, false);
	d.rq.preflush = d.rq.fua = true;
	wa_request(w, &d);
	d = done(DEV(8, 0), BLK_OP_WRITE, 1024, AK_WRITEBACK, true, true);
	wa_request(w, &d);
	d = done(DEV(8, 0), BLK_OP_WRITE, 512, AK_WRITEBACK, false, false);
	wa_request(w, &d);
	d = done(DEV(8, 0), BLK_OP_WRITE, 256, AK_UNATTRIBUTED, false, false);
	wa_request(w, &d);
	d = done(DEV(8, 0), BLK_OP_FLUSH, 0, AK_JOURNAL, false, false);
	wa_request(w, &d);
	d = done(DEV(8, 0), BLK_OP_READ, 65536, AK_SYSCALL, true, false);
	wa_request(w, &d);
	wa_add_app(w, DEV(8, 1), 4096);		/* the partition's file system */
	wa_end(w, 250);

	assert_int_equal(w->ndev, 1);
	dv = &w->dev[0];
	assert_int_equal(dv->dev, DEV(8, 0));
	assert_int_equal(dv->ops.bytes[BLK_OP_WRITE], 4096 + 8192 + 1024 + 512 + 256);
	assert_int_equal(dv->cls[WA_DATA], 4096);
	assert_int_equal(dv->cls[WA_JOURNAL], 8192);
	assert_int_equal(dv->cls[WA_META], 1024 + 512);
	assert_int_equal(dv->cls[WA_OTHER], 256);
	assert_int_equal(dv->ops.n[BLK_OP_FLUSH], 1);
	assert_int_equal(dv->preflush, 1);
	assert_int_equal(dv->fua, 1);
	assert_int_equal(dv->flush_ns, 2 * 2000);
	assert_int_equal(dv->ops.bytes[BLK_OP_READ], 65536);
	assert_int_equal(dv->app_bytes, 4096);
	wa_total(w, &t);
	assert_int_equal(t.ops.bytes[BLK_OP_WRITE], dv->ops.bytes[BLK_OP_WRITE]);
	wa_free(w);
}

/* The diskstats of dev from its numbers, as a snapshot line gives them. */
static struct meta_diskstats ds(uint32_t dev, const char *numbers)
{
	char maj[16], min[16], name[] = "x", kind[] = "diskstats", num[128];
	char *f[] = { kind, maj, min, name, num };
	struct meta_diskstats d;

	snprintf(maj, sizeof(maj), "%u", dev >> 20);
	snprintf(min, sizeof(min), "%u", dev & 0xfffff);
	snprintf(num, sizeof(num), "%s", numbers);
	assert_true(meta_diskstats_line(f, 5, &d));
	return d;
}

static void test_wa_diskstats(void **state)
{
	struct wa *w = wa_new(false, false, NULL, NULL);
	struct meta_diskstats a, b;

	(void)state;
	/* fields (iostats.rst): reads merged sectors ms writes merged
	 * sectors ms inflight io_ms weighted discards merged sectors ms
	 * flushes flush_ms; index 14 is ms discarding, not flushes */
	a = ds(DEV(7, 1), "1 0 8 0 10 0 800 5 0 0 0 0 0 0 9 3 1");
	b = ds(DEV(7, 1), "1 0 8 0 25 0 2848 9 0 0 0 0 0 0 99 7 2");
	wa_diskstats(w, &a, &b);
	assert_int_equal(w->ndev, 1);
	assert_true(w->dev[0].ds);
	assert_int_equal(w->dev[0].ds_write_bytes, (2848 - 800) * 512);
	assert_int_equal(w->dev[0].ds_writes, 15);
	assert_int_equal(w->dev[0].ds_flushes, 4);
	/* a counter that went backwards (device re-created): ignored */
	a = ds(DEV(7, 2), "1 0 8 0 25 0 2848");
	b = ds(DEV(7, 2), "1 0 8 0 10 0 800");
	wa_diskstats(w, &a, &b);
	assert_int_equal(w->ndev, 1);
	wa_free(w);
}

/* The window table closes an ext4 fsync: wa counts it (the driver's way). */
static void fsync_closed(void *arg, enum win_id w, int tid,
			 const struct win *open, const struct dec_ev *ev)
{
	if (w == WIN_EXT4_SYNC)
		wa_fsync(arg, tid, open, ev);
}

/* wa over a window table, as the driver wires them */
static struct wa *wa_windows(struct windows **ws)
{
	struct wa *w = wa_new(true, true, NULL, NULL);

	*ws = windows_new();
	assert_non_null(w);
	assert_non_null(*ws);
	windows_on_close(*ws, fsync_closed, w);
	wa_set_windows(w, *ws);
	return w;
}

static void test_wa_fsync_join(void **state)
{
	struct windows *ws;
	struct wa *w = wa_windows(&ws);
	struct dec_ev ev;
	struct blk_request rq;

	(void)state;
	ev = fsync_enter(1000, 10, DEV(7, 1), 12, true);
	windows_feed(ws, &ev);
	ev = fsync_enter(1100, 11, DEV(7, 1), 13, false);
	windows_feed(ws, &ev);
	/* a flush on the device while two fsyncs wait: one each, time shared */
	memset(&rq, 0, sizeof(rq));
	rq.dev = DEV(7, 1);
	rq.op = BLK_OP_FLUSH;
	rq.issue_ts = 1200;
	rq.complete_ts = 1600;
	wa_timed_request(w, &rq);
	/* a flush on another device: no one's */
	rq.dev = DEV(7, 2);
	wa_timed_request(w, &rq);
	ev = event(DK_FSYNC_EXIT, 2000, 10);
	windows_feed(ws, &ev);
	/* a write while only thread 11 waits */
	rq.dev = DEV(7, 1);
	rq.op = BLK_OP_WRITE;
	rq.bytes = 4096;
	wa_timed_request(w, &rq);
	ev = event(DK_FSYNC_EXIT, 2500, 11);
	windows_feed(ws, &ev);
	/* an exit without enter: no fsync */
	ev = event(DK_FSYNC_EXIT, 2600, 12);
	windows_feed(ws, &ev);
	ev = event(DK_JBD2_RUN, 2700, 99);
	ev.jbd2.dev = DEV(7, 1);
	ev.jbd2.handles = 3;
	ev.jbd2.blocks = 5;
	ev.jbd2.blocks_logged = 7;
	ev.jbd2.logging = 250;
	wa_event(w, &ev);
	wa_end(w, 250);

	assert_int_equal(w->nfs, 2);
	assert_int_equal(w->fs[0].tid, 10);
	assert_int_equal(w->fs[0].ino, 12);
	assert_int_equal(w->fs[0].count, 1);
	assert_int_equal(w->fs[0].datasync, 1);
	assert_int_equal(w->fs[0].flushes, 1);
	assert_int_equal(w->fs[0].flush_ns, 200);
	assert_int_equal(w->fs[0].write_bytes, 0);
	assert_int_equal(hist_max(&w->fs[0].lat), 1000);
	assert_int_equal(w->fs[1].count, 1);
	assert_int_equal(w->fs[1].datasync, 0);
	assert_int_equal(w->fs[1].flushes, 1);
	assert_int_equal(w->fs[1].flush_ns, 200);
	assert_int_equal(w->fs[1].write_bytes, 4096);
	assert_int_equal(hist_max(&w->fs[1].lat), 1400);
	assert_int_equal(w->ndev, 1);
	assert_int_equal(w->dev[0].commits, 1);
	assert_int_equal(w->dev[0].blocks_logged, 7);
	assert_int_equal(w->dev[0].commit_logging_ms, 1000);
	wa_free(w);
	windows_free(ws);
}

static void test_wa_fsync_gap(void **state)
{
	struct windows *ws;
	struct wa *w = wa_windows(&ws);
	struct dec_ev ev;

	(void)state;
	ev = fsync_enter(1000, 10, DEV(7, 1), 12, false);
	ev.cpu = 1;
	windows_feed(ws, &ev);
	ev = fsync_enter(1000, 11, DEV(7, 1), 13, false);
	ev.cpu = 0;
	windows_feed(ws, &ev);
	windows_gap(ws, 0);	/* lost events on CPU 0: thread 11's goes */
	ev = event(DK_FSYNC_EXIT, 2000, 10);
	windows_feed(ws, &ev);
	ev = event(DK_FSYNC_EXIT, 2100, 11);
	windows_feed(ws, &ev);
	windows_gap(ws, 1);
	ev = fsync_enter(3000, 10, DEV(7, 1), 12, false);
	ev.cpu = 1;
	windows_feed(ws, &ev);
	windows_gap(ws, 1);	/* and now thread 10's */
	ev = event(DK_FSYNC_EXIT, 4000, 10);
	windows_feed(ws, &ev);
	wa_end(w, 250);
	/* thread 10's first fsync only: no fsync spans lost events on its CPU */
	assert_int_equal(w->nfs, 1);
	assert_int_equal(w->fs[0].tid, 10);
	assert_int_equal(w->fs[0].count, 1);
	assert_int_equal(hist_max(&w->fs[0].lat), 1000);
	wa_free(w);
	windows_free(ws);
}

/* ------------------------------------------------------------------ */
/* dirty */

static void work_closed(void *arg, enum win_id w, int tid,
			const struct win *open, const struct dec_ev *ev)
{
	(void)tid;
	if (w == WIN_WB_WORK)
		dirty_work_done(arg, open, ev);
}

static struct dec_ev gds(uint64_t ts, uint64_t dirty, uint64_t wb,
			 uint64_t bg, uint64_t th, uint64_t written)
{
	struct dec_ev ev = event(DK_DIRTY_STATE, ts, 1);

	ev.gds.nr_dirty = dirty;
	ev.gds.nr_writeback = wb;
	ev.gds.bg_thresh = bg;
	ev.gds.thresh = th;
	ev.gds.limit = th;
	ev.gds.has_written = true;
	ev.gds.written = written;
	return ev;
}

static void test_dirty(void **state)
{
	const struct dirty_caps caps = { true, true, true };
	struct dirty *d = dirty_new(&caps, 4096);
	struct windows *ws = windows_new();
	struct dirty_slot out[2];
	struct dec_ev ev;
	struct blk_request rq;
	uint64_t t0 = 10 * DIRTY_SLOT_NS, w;

	(void)state;
	windows_on_close(ws, work_closed, d);
	dirty_begin(d, t0 + 1);
	ev = gds(t0 + 1, 100, 5, 1000, 2000, 50);
	dirty_event(d, &ev);
	ev = event(DK_BDP, t0 + 2, 42);
	ev.pause = 20;
	dirty_event(d, &ev);
	ev = event(DK_BDP, t0 + 3, 42);
	dirty_event(d, &ev);
	ev = event(DK_BDP, t0 + 4, 43);
	ev.pause = 20;
	dirty_event(d, &ev);
	ev = event(DK_WB_START, t0 + DIRTY_SLOT_NS, 7);
	ev.wb.pages = 1024;
	windows_feed(ws, &ev);
	ev = event(DK_WB_WRITTEN, t0 + DIRTY_SLOT_NS + 5, 7);
	ev.wb.pages = 1000;
	ev.wb.reason = 0;
	windows_feed(ws, &ev);
	/* a written without its start: nothing */
	ev = event(DK_WB_WRITTEN, t0 + DIRTY_SLOT_NS + 6, 8);
	windows_feed(ws, &ev);
	ev = gds(t0 + 2 * DIRTY_SLOT_NS + 1, 300, 9, 500, 1000, 80);
	dirty_event(d, &ev);
	memset(&rq, 0, sizeof(rq));
	rq.op = BLK_OP_WRITE;
	rq.bytes = 8192;
	rq.complete_ts = t0 + 2 * DIRTY_SLOT_NS + 9;
	dirty_request(d, &rq);
	dirty_end(d);

	assert_int_equal(d->nslot, 3);
	assert_int_equal(d->bdp, 3);
	assert_int_equal(d->bdp_paused, 2);
	assert_int_equal(d->pause_ms, 40);
	assert_int_equal(d->max_dirty, 300);
	assert_int_equal(d->min_bg_thresh, 500);
	assert_int_equal(d->max_thresh, 2000);
	assert_int_equal(d->written, 30);
	assert_int_equal(d->wb_pages[0], 24);
	assert_int_equal(d->wb_works, 1);
	assert_int_equal(d->write_bytes, 8192);
	assert_int_equal(d->ntask, 2);
	assert_int_equal(d->task[0].tid, 42);	/* longest pause first */
	assert_int_equal(d->task[0].bdp, 2);
	assert_int_equal(dirty_ms2ns(d->pause_ms), 40000000);

	w = dirty_rebin(d, out, 2);
	assert_int_equal(w, 2 * DIRTY_SLOT_NS);
	assert_int_equal(out[0].bdp, 3);
	assert_int_equal(out[0].wb_pages[0], 24);
	assert_int_equal(out[0].nr_dirty, 100);
	assert_int_equal(out[1].nr_dirty, 300);
	assert_int_equal(out[1].written, 30);
	assert_int_equal(out[1].write_bytes, 8192);
	windows_free(ws);
	dirty_free(d);
}

/* A writeback work does not pair across lost events. */
static void test_dirty_work_gap(void **state)
{
	const struct dirty_caps caps = { true, true, true };
	struct dirty *d = dirty_new(&caps, 4096);
	struct windows *ws = windows_new();
	struct dec_ev ev;

	(void)state;
	windows_on_close(ws, work_closed, d);
	ev = event(DK_WB_START, 100, 7);
	ev.wb.pages = 1024;
	windows_feed(ws, &ev);
	windows_gap(ws, 1);
	ev = event(DK_WB_WRITTEN, 200, 7);
	windows_feed(ws, &ev);
	assert_int_equal(d->wb_works, 0);
	windows_free(ws);
	dirty_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapdiff),
		cmocka_unit_test(test_snapdiff_disks),
		cmocka_unit_test(test_snapdiff_moved),
		cmocka_unit_test(test_wa_classes),
		cmocka_unit_test(test_wa_diskstats),
		cmocka_unit_test(test_wa_fsync_join),
		cmocka_unit_test(test_wa_fsync_gap),
		cmocka_unit_test(test_dirty),
		cmocka_unit_test(test_dirty_work_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
