// SPDX-License-Identifier: MIT
/*
 * test-diff.c - unit tests of the aggregators behind `ioreport wa`,
 * `fsync`, `dirty` and `diff`: the config comparison of two snapshots
 * (snapcmp.c), the write amplification classes, diskstats deltas and the
 * fsync/flush join (wa.c), and the throttling/writeback time series
 * (dirty.c).  Events are synthetic: a tiny stand-in for source.c gives
 * each event its fields as name/value pairs.
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
#include "input/source.h"
#include "replay/block.h"
#include "driver.h"
#include "stats/wa.h"
#include "stats/dirty.h"
#include "stats/snapcmp.h"

/* ------------------------------------------------------------------ */
/* A stand-in for source.c: event ids by name, fields as name=value */

static const char *const event_names[] = {
	NULL, "jbd2:jbd2_run_stats", "ext4:ext4_sync_file_enter",
	"ext4:ext4_sync_file_exit", "writeback:balance_dirty_pages",
	"writeback:global_dirty_state", "writeback:writeback_written",
	"writeback:writeback_start",
};

struct fake_field {
	const char *name;
	int64_t val;
};

int source_event_id(struct source *src, const char *system, const char *name)
{
	char full[128];

	(void)src;
	snprintf(full, sizeof(full), "%s:%s", system, name);
	for (size_t i = 1; i < ARRAY_SIZE(event_names); i++)
		if (!strcmp(event_names[i], full))
			return (int)i;
	return -1;
}

struct source_field *source_field(struct source *src, int id,
				  const char *name)
{
	(void)src;
	(void)id;
	return (struct source_field *)name;
}

static int fake_get(const struct source_field *f,
		    const struct source_event *ev, int64_t *v)
{
	const struct fake_field *ff = ev->data;

	for (; ff && ff->name; ff++)
		if (!strcmp(ff->name, (const char *)f)) {
			*v = ff->val;
			return 0;
		}
	return -1;
}

int source_field_u64(const struct source_field *f,
		     const struct source_event *ev, uint64_t *val)
{
	int64_t v;

	if (fake_get(f, ev, &v) < 0)
		return -1;
	*val = (uint64_t)v;
	return 0;
}

int source_field_s64(const struct source_field *f,
		     const struct source_event *ev, int64_t *val)
{
	return fake_get(f, ev, val);
}

static struct source_info fake_info = { .page_size = 4096 };

const struct source_info *source_info(struct source *src)
{
	(void)src;
	return &fake_info;
}

#define SRC ((struct source *)&fake_info)
#define DEV(ma, mi) ((uint32_t)(ma) << 20 | (mi))

static struct source_event event(int id, uint64_t ts, int pid,
				 const struct fake_field *f)
{
	struct source_event ev = { 0 };

	ev.ts = ts;
	ev.id = id;
	ev.pid = pid;
	ev.data = f;
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

static bool used_loops(uint32_t dev, void *arg)
{
	(void)arg;
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
			 NULL);
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
			 used_loops, NULL);
	assert_int_equal(sd.n, 0);
	snapdiff_release(&sd);
}

static void test_snap_readers(void **state)
{
	char buf[128];
	uint32_t dev = 0;

	(void)state;
	assert_int_equal(snap_devt("7:1"), DEV(7, 1));
	assert_int_equal(snap_devt("bad"), 0);
	assert_int_equal(snap_disk_of(snap_before, DEV(8, 1)), DEV(8, 0));
	assert_int_equal(snap_disk_of(snap_before, DEV(7, 1)), DEV(7, 1));
	assert_true(snap_diskstats(snap_before, DEV(7, 1), buf, sizeof(buf)));
	assert_string_equal(buf, "1 0 8 0 10 0 800 5 0 0 0 0 0 0 3 1");
	assert_false(snap_diskstats(snap_before, DEV(7, 9), buf, sizeof(buf)));
	assert_int_equal(snap_mount_of(snap_before, "/tmp/a/mnt/x", &dev),
			 strlen("/tmp/a/mnt"));
	assert_int_equal(dev, DEV(7, 1));
	assert_int_equal(snap_mount_of(snap_before, "/etc/passwd", &dev), 1);
	assert_int_equal(dev, DEV(254, 0));
	assert_int_equal(snap_mount_of(snap_before, "pipe:[1]", &dev), 0);
	assert_true(snap_opt_barrier("rw,relatime"));
	assert_false(snap_opt_barrier("rw,nobarrier"));
	assert_false(snap_opt_barrier("rw,barrier=0"));
	assert_true(snap_opt_barrier("rw,barrier=1"));
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
	struct wa *w = wa_new(NULL, part_to_disk, NULL);
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
	assert_int_equal(dv->write_bytes, 4096 + 8192 + 1024 + 512 + 256);
	assert_int_equal(dv->cls[WA_DATA], 4096);
	assert_int_equal(dv->cls[WA_JOURNAL], 8192);
	assert_int_equal(dv->cls[WA_META], 1024 + 512);
	assert_int_equal(dv->cls[WA_OTHER], 256);
	assert_int_equal(dv->flushes, 1);
	assert_int_equal(dv->preflush, 1);
	assert_int_equal(dv->fua, 1);
	assert_int_equal(dv->flush_ns, 2 * 2000);
	assert_int_equal(dv->read_bytes, 65536);
	assert_int_equal(dv->app_bytes, 4096);
	wa_total(w, &t);
	assert_int_equal(t.write_bytes, dv->write_bytes);
	wa_free(w);
}

static void test_wa_diskstats(void **state)
{
	struct wa *w = wa_new(NULL, NULL, NULL);

	(void)state;
	/* fields (iostats.rst): reads merged sectors ms writes merged
	 * sectors ms inflight io_ms weighted discards merged sectors ms
	 * flushes flush_ms; index 14 is ms discarding, not flushes */
	wa_diskstats(w, DEV(7, 1),
		     "1 0 8 0 10 0 800 5 0 0 0 0 0 0 9 3 1",
		     "1 0 8 0 25 0 2848 9 0 0 0 0 0 0 99 7 2");
	assert_int_equal(w->ndev, 1);
	assert_true(w->dev[0].ds);
	assert_int_equal(w->dev[0].ds_write_bytes, (2848 - 800) * 512);
	assert_int_equal(w->dev[0].ds_writes, 15);
	assert_int_equal(w->dev[0].ds_flushes, 4);
	/* a counter that went backwards (device re-created): ignored */
	wa_diskstats(w, DEV(7, 2), "1 0 8 0 25 0 2848", "1 0 8 0 10 0 800");
	assert_int_equal(w->ndev, 1);
	wa_free(w);
}

static void test_wa_fsync_join(void **state)
{
	struct wa *w = wa_new(SRC, NULL, NULL);
	const struct fake_field enter[] = {
		{ "dev", DEV(7, 1) }, { "ino", 12 }, { "datasync", 1 },
		{ NULL, 0 }
	};
	const struct fake_field enter2[] = {
		{ "dev", DEV(7, 1) }, { "ino", 13 }, { "datasync", 0 },
		{ NULL, 0 }
	};
	const struct fake_field ret0[] = { { "ret", 0 }, { NULL, 0 } };
	const struct fake_field run[] = {
		{ "dev", DEV(7, 1) }, { "handle_count", 3 }, { "blocks", 5 },
		{ "blocks_logged", 7 }, { "logging", 250 }, { NULL, 0 }
	};
	struct source_event ev;
	struct blk_request rq;

	(void)state;
	assert_true(w->st.ext4_sync);
	assert_true(w->st.jbd2);
	ev = event(2, 1000, 10, enter);
	wa_feed(w, &ev);
	ev = event(2, 1100, 11, enter2);
	wa_feed(w, &ev);
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
	ev = event(3, 2000, 10, ret0);
	wa_feed(w, &ev);
	/* a write while only thread 11 waits */
	rq.dev = DEV(7, 1);
	rq.op = BLK_OP_WRITE;
	rq.bytes = 4096;
	wa_timed_request(w, &rq);
	ev = event(3, 2500, 11, ret0);
	wa_feed(w, &ev);
	/* an exit without enter */
	ev = event(3, 2600, 12, ret0);
	wa_feed(w, &ev);
	ev = event(1, 2700, 99, run);
	wa_feed(w, &ev);
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
	assert_int_equal(w->fs[1].flushes, 1);
	assert_int_equal(w->fs[1].flush_ns, 200);
	assert_int_equal(w->fs[1].write_bytes, 4096);
	assert_int_equal(hist_max(&w->fs[1].lat), 1400);
	assert_int_equal(w->st.fsync_exit_unmatched, 1);
	assert_int_equal(w->ndev, 1);
	assert_int_equal(w->dev[0].commits, 1);
	assert_int_equal(w->dev[0].blocks_logged, 7);
	assert_int_equal(w->dev[0].commit_logging_ms, 1000);
	wa_free(w);
}

static void test_wa_fsync_gap(void **state)
{
	struct wa *w = wa_new(SRC, NULL, NULL);
	const struct fake_field enter[] = {
		{ "dev", DEV(7, 1) }, { "ino", 12 }, { NULL, 0 }
	};
	const struct fake_field ret0[] = { { "ret", 0 }, { NULL, 0 } };
	struct source_event ev;

	(void)state;
	ev = event(2, 1000, 10, enter);
	ev.cpu = 1;
	wa_feed(w, &ev);
	ev = event(4, 1500, 77, NULL);	/* any event after lost ones */
	ev.cpu = 1;
	ev.missed = 5;
	wa_feed(w, &ev);
	ev = event(3, 2000, 10, ret0);
	wa_feed(w, &ev);
	wa_end(w, 250);
	assert_int_equal(w->st.fsync_dropped_at_gap, 1);
	assert_int_equal(w->st.fsync_exit_unmatched, 1);
	assert_int_equal(w->fs[0].count, 0);
	wa_free(w);
}

/* ------------------------------------------------------------------ */
/* dirty */

static void test_dirty(void **state)
{
	struct dirty *d = dirty_new(SRC);
	const struct fake_field bdp[] = { { "pause", 20 }, { "paused", 0 },
					  { NULL, 0 } };
	const struct fake_field bdp0[] = { { "pause", 0 }, { NULL, 0 } };
	const struct fake_field gds1[] = {
		{ "nr_dirty", 100 }, { "nr_writeback", 5 },
		{ "background_thresh", 1000 }, { "dirty_thresh", 2000 },
		{ "dirty_limit", 2000 }, { "nr_written", 50 }, { NULL, 0 }
	};
	const struct fake_field gds2[] = {
		{ "nr_dirty", 300 }, { "nr_writeback", 9 },
		{ "background_thresh", 500 }, { "dirty_thresh", 1000 },
		{ "dirty_limit", 1000 }, { "nr_written", 80 }, { NULL, 0 }
	};
	const struct fake_field wbs[] = { { "nr_pages", 1024 }, { NULL, 0 } };
	const struct fake_field wbw[] = { { "nr_pages", 1000 },
					  { "reason", 0 }, { NULL, 0 } };
	struct dirty_slot out[2];
	struct source_event ev;
	struct blk_request rq;
	uint64_t t0 = 10 * DIRTY_SLOT_NS, w;

	(void)state;
	assert_true(d->have_bdp && d->have_gds && d->have_wb);
	ev = event(5, t0 + 1, 1, gds1);
	dirty_feed(d, &ev);
	ev = event(4, t0 + 2, 42, bdp);
	dirty_feed(d, &ev);
	ev = event(4, t0 + 3, 42, bdp0);
	dirty_feed(d, &ev);
	ev = event(4, t0 + 4, 43, bdp);
	dirty_feed(d, &ev);
	ev = event(7, t0 + DIRTY_SLOT_NS, 7, wbs);
	dirty_feed(d, &ev);
	ev = event(6, t0 + DIRTY_SLOT_NS + 5, 7, wbw);
	dirty_feed(d, &ev);
	ev = event(5, t0 + 2 * DIRTY_SLOT_NS + 1, 1, gds2);
	dirty_feed(d, &ev);
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
	dirty_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapdiff),
		cmocka_unit_test(test_snap_readers),
		cmocka_unit_test(test_wa_classes),
		cmocka_unit_test(test_wa_diskstats),
		cmocka_unit_test(test_wa_fsync_join),
		cmocka_unit_test(test_wa_fsync_gap),
		cmocka_unit_test(test_dirty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
