// SPDX-License-Identifier: MIT
/*
 * test-sysreplay.c - unit tests of the syscall pairing, process table,
 * fd tables and their aggregation, fed synthetic event sequences.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"
#include "replay/syscall.h"
#include "replay/uring.h"
#include "replay/aio.h"
#include "decode/decode.h"
#include "base/imap.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "stats/account.h"
#include "fixture.h"

/* ------------------------------------------------------------------ */
/* helpers */

static void enter(struct sysreplay *sr, uint64_t ts, int tid, int cpu,
		  enum sys_kind k, uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct sys_enter e = {
		.ts = ts, .tid = tid, .cpu = cpu, .kind = k,
		.args = { a0, a1, a2 },
	};

	sysreplay_enter(sr, &e);
}

static int leave(struct sysreplay *sr, uint64_t ts, int tid, int cpu,
		 enum sys_kind k, int64_t ret, struct sys_call *c)
{
	struct sys_exit x = {
		.ts = ts, .tid = tid, .cpu = cpu, .kind = k, .ret = ret,
	};

	return sysreplay_exit(sr, &x, c);
}

/* A pipeline without a source: the state machines and the aggregation. */
struct run {
	struct sysreplay *sr;
	struct filetab *ft;
	struct proctable *pt;
	struct account acct;
};

static void run_init(struct run *run)
{
	memset(run, 0, sizeof(*run));
	run->sr = sysreplay_new();
	run->ft = filetab_new();
	run->pt = proctable_new(run->ft);
	run->acct.pt = run->pt;
	run->acct.ft = run->ft;
}

static void run_release(struct run *run)
{
	proctable_free(run->pt, procstat_free);
	filetab_free(run->ft, filestat_free);
	sysreplay_free(run->sr);
}

/* cmocka fixtures: a fresh sysreplay, or a fresh pipeline. */
static int sr_setup(void **state)
{
	*state = sysreplay_new();
	return *state ? 0 : -1;
}

static int sr_teardown(void **state)
{
	sysreplay_free(*state);
	return 0;
}

DEFINE_FIXTURE(run, struct run, run_init, run_release)

/* A process table over its file table, no statistics attached. */
struct tables {
	struct filetab *ft;
	struct proctable *pt;
};

static void tables_init(struct tables *tb)
{
	tb->ft = filetab_new();
	tb->pt = proctable_new(tb->ft);
}

static void tables_release(struct tables *tb)
{
	proctable_free(tb->pt, NULL);
	filetab_free(tb->ft, NULL);
}

DEFINE_FIXTURE(tables, struct tables, tables_init, tables_release)

#define SR_TEST(t)	FIXTURE_TEST(sr, t)
#define RUN_TEST(t)	FIXTURE_TEST(run, t)
#define TABLES_TEST(t)	FIXTURE_TEST(tables, t)

/* One complete syscall of tid, accounted. */
static void call(struct run *run, uint64_t ts, uint64_t dur, int tid,
		 enum sys_kind k, uint64_t a0, uint64_t a1, uint64_t a2,
		 int64_t ret, const char *path)
{
	struct sys_enter e = {
		.ts = ts, .tid = tid, .cpu = 0, .kind = k,
		.args = { a0, a1, a2 }, .path = path,
	};
	struct sys_call c;

	sysreplay_enter(run->sr, &e);
	assert_int_equal(leave(run->sr, ts + dur, tid, 0, k, ret, &c), 1);
	account_call(&run->acct, proctable_get(run->pt, tid, "test", ts), &c);
}

/* ------------------------------------------------------------------ */
/* sysreplay */

static void test_pairing(void **state)
{
	struct sysreplay *sr = *state;
	struct sys_call c;

	enter(sr, 100, 10, 0, SK_READ, 3, 0, 4096);
	assert_int_equal(leave(sr, 350, 10, 1, SK_READ, 4096, &c), 1);
	assert_true(c.paired);
	assert_int_equal(c.end - c.start, 250);
	assert_int_equal(c.args[0], 3);
	assert_int_equal(c.args[2], 4096);
	assert_int_equal(c.ret, 4096);
	assert_int_equal(sysreplay_stats(sr)->calls, 1);
	sysreplay_finish(sr);
	assert_int_equal(sysreplay_stats(sr)->open_at_end, 0);
}

static void test_exit_without_enter(void **state)
{
	struct sysreplay *sr = *state;
	struct sys_call c;

	assert_int_equal(leave(sr, 350, 10, 0, SK_WRITE, 5, &c), 0);
	assert_false(c.paired);
	assert_int_equal(c.ret, 5);
	assert_int_equal(c.kind, SK_WRITE);
	assert_int_equal(sysreplay_stats(sr)->exit_without_enter, 1);
}

static void test_nested_threads(void **state)
{
	struct sysreplay *sr = *state;
	struct sys_call c;

	enter(sr, 100, 10, 0, SK_FSYNC, 3, 0, 0);
	enter(sr, 110, 11, 1, SK_WRITE, 4, 0, 10);
	enter(sr, 120, 12, 2, SK_READ, 5, 0, 10);
	assert_int_equal(leave(sr, 130, 11, 1, SK_WRITE, 10, &c), 1);
	assert_int_equal(c.tid, 11);
	assert_int_equal(c.end - c.start, 20);
	assert_int_equal(leave(sr, 1000, 10, 3, SK_FSYNC, 0, &c), 1);
	assert_int_equal(c.tid, 10);
	assert_int_equal(c.end - c.start, 900);
	assert_int_equal(leave(sr, 1001, 12, 2, SK_READ, 7, &c), 1);
	assert_int_equal(c.args[0], 5);
	assert_int_equal(sysreplay_stats(sr)->calls, 3);
}

static void test_superseded_mismatch_negative(void **state)
{
	struct sysreplay *sr = *state;
	const struct sysreplay_stats *st = sysreplay_stats(sr);
	struct sys_call c;

	enter(sr, 100, 10, 0, SK_READ, 3, 0, 1);
	enter(sr, 200, 10, 0, SK_WRITE, 3, 0, 1);	/* read's exit lost */
	assert_int_equal(st->enter_without_exit, 1);
	assert_int_equal(leave(sr, 300, 10, 0, SK_WRITE, 1, &c), 1);
	assert_int_equal(c.start, 200);

	enter(sr, 400, 10, 0, SK_READ, 3, 0, 1);
	assert_int_equal(leave(sr, 500, 10, 0, SK_CLOSE, 0, &c), 0);
	assert_int_equal(st->mismatched, 1);
	/* The mismatched enter is gone: the next exit has none. */
	assert_int_equal(leave(sr, 510, 10, 0, SK_READ, 0, &c), 0);
	assert_int_equal(st->exit_without_enter, 1);

	enter(sr, 900, 10, 0, SK_READ, 3, 0, 1);
	assert_int_equal(leave(sr, 800, 10, 0, SK_READ, 1, &c), 0);
	assert_int_equal(st->negative_time, 1);
}

static void test_lost_gap(void **state)
{
	struct sysreplay *sr = *state;
	const struct sysreplay_stats *st = sysreplay_stats(sr);
	struct sys_call c;

	enter(sr, 100, 10, 1, SK_READ, 3, 0, 1);
	enter(sr, 110, 11, 2, SK_READ, 4, 0, 1);
	enter(sr, 120, 12, 1, SK_WRITE, 4, 0, 1);
	sysreplay_gap(sr, 1);
	assert_int_equal(st->lost_gap, 3);
	/* Not paired across the gap, the enter of another CPU's neither */
	assert_int_equal(leave(sr, 200, 10, 1, SK_READ, 1, &c), 0);
	assert_int_equal(leave(sr, 210, 12, 1, SK_WRITE, 1, &c), 0);
	assert_int_equal(leave(sr, 220, 11, 2, SK_READ, 1, &c), 0);
	/* after the gap, pairs again */
	enter(sr, 250, 11, 2, SK_READ, 4, 0, 1);
	assert_int_equal(leave(sr, 260, 11, 2, SK_READ, 1, &c), 1);
	enter(sr, 300, 13, 0, SK_FSYNC, 4, 0, 0);
	sysreplay_finish(sr);
	assert_int_equal(st->open_at_end, 1);
}

/*
 * A thread enters on CPU 0, its exit and its next enter are lost on CPU 1
 * (it woke up there), the next exit comes on CPU 0: the two calls must
 * not be timed as one.
 */
static void test_gap_other_cpu(void **state)
{
	struct sysreplay *sr = *state;
	const struct sysreplay_stats *st = sysreplay_stats(sr);
	struct sys_call c;

	enter(sr, 100, 10, 0, SK_WRITE, 3, 0, 512);
	sysreplay_gap(sr, 1);
	assert_int_equal(leave(sr, 9000, 10, 0, SK_WRITE, 512, &c), 0);
	assert_int_equal(st->lost_gap, 1);
	assert_int_equal(st->calls, 0);
}

static void test_late_path(void **state)
{
	struct sysreplay *sr = *state;
	struct sys_call c;

	/* Before the enter (a uprobe on libc's open fires first)... */
	sysreplay_set_path(sr, 10, "/var/db/a");
	enter(sr, 100, 10, 0, SK_OPENAT, (uint64_t)-100, 0, 0);
	assert_int_equal(leave(sr, 200, 10, 0, SK_OPENAT, 3, &c), 1);
	assert_string_equal(c.path, "/var/db/a");
	/* ...or while it is waiting. */
	enter(sr, 300, 10, 0, SK_OPENAT, (uint64_t)-100, 0, 0);
	sysreplay_set_path(sr, 10, "/var/db/b");
	assert_int_equal(leave(sr, 400, 10, 0, SK_OPENAT, 4, &c), 1);
	assert_string_equal(c.path, "/var/db/b");
	/* A hint is used once. */
	enter(sr, 500, 10, 0, SK_OPENAT, (uint64_t)-100, 0, 0);
	assert_int_equal(leave(sr, 600, 10, 0, SK_OPENAT, 5, &c), 1);
	assert_null(c.path);
}

static void test_kinds(void **state)
{
	assert_int_equal(sys_kind_lookup("pwrite64"), SK_PWRITE64);
	assert_int_equal(sys_kind_lookup("sendfile"), SK_SENDFILE);
	assert_int_equal(sys_kind_lookup("sendfile64"), SK_SENDFILE);
	assert_int_equal(sys_kind_lookup("fcntl64"), SK_FCNTL);
	assert_int_equal(sys_kind_lookup("getpid"), SK_NONE);
	assert_int_equal(sys_kind_lookup(NULL), SK_NONE);
	for (int k = 1; k < SK_NR; k++)
		assert_int_equal(sys_kind_lookup(sys_kind_info(k)->name), k);
}

/* ------------------------------------------------------------------ */
/* histogram, imap */

/* The aggregates' latencies are hist.h's histograms (test-hist covers them). */
static void test_kstat_hist(void **state)
{
	struct hist a = HIST_INIT, c = HIST_INIT;
	uint64_t q;

	hist_add(&a, 300);
	hist_add(&a, 100);
	hist_add(&a, 200);
	assert_null(a.b);
	assert_int_equal(hist_pct(&a, 50), 200);	/* exact while inline */
	assert_int_equal(hist_pct(&a, 99), 300);
	for (uint64_t i = 1; i <= 1000; i++)
		hist_add(&c, i * 1000);
	hist_merge(&c, &a);
	assert_non_null(c.b);
	assert_int_equal(c.count, 1003);
	assert_int_equal(c.min, 100);
	assert_int_equal(c.max, 1000000);
	q = hist_pct(&c, 50);
	assert_true(q >= 500000 * 0.9375 && q <= 500000 * 1.0625);
	assert_int_equal(hist_pct(&c, 100), 1000000);
	hist_release(&a);
	hist_release(&c);
	assert_int_equal(hist_pct(&c, 50), 0);
}

static void test_unnamed_cap(void **state)
{
	struct filetab *ft = filetab_new();
	struct file *f, *g;

	for (int i = 0; i < 65536; i++)
		filetab_anon(ft, 1, 3, 0);
	f = filetab_anon(ft, 1, 4, 0);
	g = filetab_anon(ft, 1, 5, 0);
	assert_ptr_equal(f, g);
	assert_string_equal(file_name(f), "<more unknown files of pid 1>");
	assert_ptr_not_equal(filetab_anon(ft, 2, 3, 0), f);
	file_set_name(ft, f, "/x", false, 0, 0, 0);
	assert_null(f->path);
	assert_int_equal(filetab_count(ft), 65538);
	filetab_free(ft, NULL);
}

/*
 * The file of a page fault's inode among a process's shared mappings:
 * the mapping known as that inode; else the one whose inode is unknown
 * when every other is known as another; two unknown ones: none.
 */
static void test_map_of_inode(void **state)
{
	struct filetab *ft = filetab_new();
	struct fdtable *t = fdtable_new();
	struct file *a, *b, *c;
	const uint32_t dev = 7u << 20;

	(void)state;
	assert_non_null(ft);
	assert_non_null(t);
	a = filetab_devino(ft, 7, 0, 12, "/m/a");
	b = filetab_path(ft, "/m/b");
	c = filetab_path(ft, "/m/c");
	assert_null(fdtable_map_of_inode(t, dev, 12));
	assert_int_equal(fdtable_map(t, 0x10000, 0x4000, a), 0);
	assert_ptr_equal(fdtable_map_of_inode(t, dev, 12), a);
	assert_null(fdtable_map_of_inode(t, dev, 13));	/* a is 12 */
	assert_null(fdtable_map_of_inode(t, 8u << 20, 12));	/* other fs */
	assert_int_equal(fdtable_map(t, 0x20000, 0x4000, b), 0);
	assert_ptr_equal(fdtable_map_of_inode(t, dev, 13), b);
	assert_ptr_equal(fdtable_map_of_inode(t, dev, 12), a);
	assert_ptr_equal(fdtable_map_of_inode(t, 0, 12), a);	/* dev unknown */
	assert_int_equal(fdtable_map(t, 0x30000, 0x4000, c), 0);
	assert_null(fdtable_map_of_inode(t, dev, 13));	/* b or c */
	filetab_set_devino(ft, c, 7, 0, 14);
	assert_ptr_equal(fdtable_map_of_inode(t, dev, 13), b);
	assert_ptr_equal(fdtable_map_of_inode(t, dev, 14), c);
	fdtable_unmap(t, 0x20000, 0x4000);
	assert_null(fdtable_map_of_inode(t, dev, 13));
	fdtable_free(t);
	filetab_free(ft, NULL);
}

static void test_imap(void **state)
{
	struct imap m;
	static int vals[5000];
	size_t pos = 0, n = 0;
	int key;
	void *val;

	imap_init(&m);
	for (int i = 0; i < 5000; i++) {
		void *prev = &m;

		assert_int_equal(imap_put(&m, i * 7, &vals[i], &prev), 0);
		assert_null(prev);
	}
	for (int i = 0; i < 5000; i += 2)
		assert_ptr_equal(imap_del(&m, i * 7), &vals[i]);
	for (int i = 0; i < 5000; i++)
		assert_ptr_equal(imap_get(&m, i * 7), i % 2 ? &vals[i] : NULL);
	while (imap_next(&m, &pos, &key, &val))
		n++;
	assert_int_equal(n, 2500);
	imap_release(&m);
}

/* ------------------------------------------------------------------ */
/* fd tables and processes */

static void test_dup2_then_close(void **state)
{
	struct filetab *ft = filetab_new();
	struct fdtable *t = fdtable_new();
	struct file *a = filetab_path(ft, "/a");

	fdtable_set(t, 3, a, false);
	assert_int_equal(fdtable_dup(t, 3, 5, false), 0);
	assert_int_equal(fdtable_close(t, 3), 0);
	assert_ptr_equal(fdtable_get(t, 5), a);
	assert_null(fdtable_get(t, 3));
	assert_int_equal(fdtable_close(t, 3), -1);
	assert_int_equal(fdtable_dup(t, 3, 6, false), -1);
	assert_int_equal(fdtable_close(t, 5), 0);
	assert_int_equal(fdtable_size(t), 0);
	assert_ptr_equal(filetab_path(ft, "/a"), a);
	fdtable_free(t);
	filetab_free(ft, NULL);
}

static void test_close_range_and_exec(void **state)
{
	struct filetab *ft = filetab_new();
	struct fdtable *t = fdtable_new();

	for (int fd = 0; fd < 10; fd++)
		fdtable_set(t, fd, filetab_anon(ft, 1, fd, 0), fd == 4);
	fdtable_close_range(t, 7, ~0u, false);
	assert_int_equal(fdtable_size(t), 7);
	fdtable_close_range(t, 5, 5, true);	/* CLOSE_RANGE_CLOEXEC */
	assert_int_equal(fdtable_exec(t), 2);	/* 4 and 5 */
	assert_null(fdtable_get(t, 4));
	assert_null(fdtable_get(t, 5));
	assert_non_null(fdtable_get(t, 6));
	fdtable_free(t);
	filetab_free(ft, NULL);
}

static const char start_snap[] =
	"time\t1\t2\n"
	"proc\t100\t1\tdb\\tserver\t/usr/bin/db\tdb --x\n"
	"thread\t101\t100\tdb-worker\n"
	"fd\t100\t3\t8:1\t1234\t02100002\t0\t/var/db/data\\nfile\n"
	"fd\t100\t4\t8:1\t1235\t0100001\t0\t/var/db/log\n"
	"proc\t200\t1\tsh\t/bin/sh\tsh\n"
	"fd\t200\t5\t8:1\t1234\t02\t0\t/var/db/data\\nfile\n"
	"mystery\tline\n";

static void test_snapshot_seed(void **state)
{
	struct proctable *pt = ((struct tables *)*state)->pt;
	struct proc *p, *q;
	struct file *f;

	assert_int_equal(proctable_load_start(pt, start_snap), 2);
	p = proctable_lookup(pt, 100);
	assert_non_null(p);
	assert_string_equal(p->comm, "db\tserver");
	assert_string_equal(p->exe, "/usr/bin/db");
	assert_ptr_equal(proctable_lookup(pt, 101), p);
	f = fdtable_get(p->fds, 3);
	assert_non_null(f);
	assert_string_equal(f->path, "/var/db/data\nfile");
	assert_true(f->has_devino);
	assert_int_equal(f->major, 8);
	assert_int_equal(f->ino, 1234);
	/* Same dev:ino in another process: the same file. */
	q = proctable_lookup(pt, 200);
	assert_ptr_equal(fdtable_get(q->fds, 5), f);
	/* fd 3 was O_CLOEXEC (02000000): exec closes it, not fd 4. */
	proctable_exec(pt, 10, 100, 100, "/usr/bin/db2");
	assert_null(fdtable_get(p->fds, 3));
	assert_non_null(fdtable_get(p->fds, 4));
	assert_string_equal(p->comm, "db2");
	assert_string_equal(p->comms, "db\tserver,db2");
	assert_int_equal(proctable_stats(pt)->fds_seeded, 3);
}

static void test_fork_inherits(void **state)
{
	struct proctable *pt = ((struct tables *)*state)->pt;
	struct proc *parent, *child;
	struct file *f;

	proctable_load_start(pt, start_snap);
	parent = proctable_lookup(pt, 100);
	f = fdtable_get(parent->fds, 4);
	/* task_newtask then sched_process_fork, as the kernel emits them. */
	proctable_newtask(pt, 10, 101, 300, "db-worker", 0x11);
	proctable_fork(pt, 11, 101, 300, "db-worker");
	child = proctable_lookup(pt, 300);
	assert_non_null(child);
	assert_ptr_not_equal(child, parent);
	assert_int_equal(child->pid, 300);
	assert_int_equal(child->ppid, 100);
	assert_ptr_equal(fdtable_get(child->fds, 4), f);
	/* The child's close does not touch the parent's table. */
	assert_int_equal(fdtable_close(child->fds, 4), 0);
	assert_ptr_equal(fdtable_get(parent->fds, 4), f);
	assert_int_equal(proctable_stats(pt)->forks, 1);
	/* A thread joins its process and shares its fd table. */
	proctable_newtask(pt, 12, 100, 102, "db", CLONE_THREAD_FLAG | 0x100);
	proctable_fork(pt, 13, 100, 102, "db");
	assert_ptr_equal(proctable_lookup(pt, 102), parent);
	assert_int_equal(proctable_stats(pt)->threads, 1);
	assert_int_equal(proctable_stats(pt)->forks, 1);
	/* A thread's exit leaves the process; the last one ends it. */
	proctable_exit(pt, 20, 102, 0);
	assert_false(parent->exited);
	proctable_exit(pt, 21, 101, 0);
	proctable_exit(pt, 22, 100, 1);
	assert_true(parent->exited);
	assert_null(parent->fds);
	assert_null(proctable_lookup(pt, 100));
}

static void test_pid_reuse(void **state)
{
	struct proctable *pt = ((struct tables *)*state)->pt;
	struct proc *a, *b, *c;

	proctable_load_start(pt, "proc\t1\t0\tinit\t/sbin/init\tinit\n");
	proctable_fork(pt, 10, 1, 500, "init");
	proctable_exec(pt, 11, 500, 500, "/bin/cat");
	a = proctable_lookup(pt, 500);
	proctable_exit(pt, 20, 500, 1);
	/* Same pid, new process: not merged. */
	proctable_fork(pt, 30, 1, 500, "init");
	proctable_exec(pt, 31, 500, 500, "/bin/dd");
	b = proctable_lookup(pt, 500);
	assert_ptr_not_equal(a, b);
	assert_int_not_equal(a->id, b->id);
	assert_string_equal(a->comm, "cat");
	assert_string_equal(b->comm, "dd");
	assert_true(a->exited);
	assert_int_equal(proctable_stats(pt)->pid_reuse, 0);
	/* Exit lost: a fork of the same pid still makes a new process. */
	proctable_fork(pt, 40, 1, 500, "init");
	c = proctable_lookup(pt, 500);
	assert_ptr_not_equal(b, c);
	assert_true(b->exited);
	assert_int_equal(proctable_stats(pt)->pid_reuse, 1);
}

static void test_exec_by_thread_and_rename(void **state)
{
	struct proctable *pt = ((struct tables *)*state)->pt;
	struct proc *p;

	proctable_load_start(pt, start_snap);
	p = proctable_lookup(pt, 100);
	proctable_rename(pt, 5, 101, "flusher");
	assert_string_equal(p->comm, "db\tserver");
	proctable_rename(pt, 6, 100, "dbmain");
	assert_string_equal(p->comm, "dbmain");
	/* Thread 101 execs: it becomes pid 100. */
	proctable_exit(pt, 9, 100, 0);
	proctable_exec(pt, 10, 100, 101, "/usr/local/bin/a-very-long-program-name");
	assert_ptr_equal(proctable_lookup(pt, 100), p);
	assert_null(proctable_lookup(pt, 101));
	assert_string_equal(p->comm, "a-very-long-pro");
	assert_string_equal(p->comms, "db\tserver,flusher,dbmain,a-very-long-pro");
}

static void test_end_snapshot(void **state)
{
	struct run *run = *state;
	struct proc *p;
	struct file *f, *g;

	proctable_load_start(run->pt, "proc\t700\t1\tapp\t/bin/app\tapp\n");
	proctable_load_end(run->pt,
			   "thread\t702\t700\tapp-io\n"
			   "fd\t700\t7\t8:2\t99\t02\t0\t/srv/x.db\n");
	call(run, 100, 10, 700, SK_OPENAT, (uint64_t)-100, 0, 02000002, 7, NULL);
	call(run, 200, 10, 700, SK_OPENAT, (uint64_t)-100, 0, 0, 8, NULL);
	call(run, 300, 10, 700, SK_CLOSE, 8, 0, 0, 0, NULL);
	/* A thread never seen created: the end snapshot places it. */
	call(run, 400, 50, 702, SK_WRITE, 7, 0, 4096, 4096, NULL);
	p = proctable_lookup(run->pt, 700);
	assert_ptr_equal(proctable_lookup(run->pt, 702), p);
	f = fdtable_get(p->fds, 7);
	assert_null(f->path);
	assert_string_equal(file_name(f), "<unknown fd 7 of pid 700>");
	proctable_finish(run->pt);
	assert_string_equal(f->path, "/srv/x.db");
	assert_true(f->has_devino);
	assert_int_equal(f->ino, 99);
	assert_int_equal(((struct filestat *)f->user)->write_bytes, 4096);
	/* The closed fd 8 stays unnamed. */
	g = filetab_at(run->ft, (size_t)f->id + 1);
	assert_null(g->path);
	assert_int_equal(proctable_stats(run->pt)->fds_named_end, 1);
}

/* ------------------------------------------------------------------ */
/* aggregation */

static void test_account(void **state)
{
	struct run *run = *state;
	struct proc *p;
	struct procstat *ps;
	struct file *f;
	struct filestat *fs;

	call(run, 1000, 100, 42, SK_OPENAT, (uint64_t)-100, 0, 0101, 3, "/tmp/out");
	call(run, 2000, 200, 42, SK_WRITE, 3, 0, 1000, 1000, NULL);
	call(run, 3000, 300, 42, SK_WRITE, 3, 0, 1000, 500, NULL);
	call(run, 4000, 400, 42, SK_WRITE, 3, 0, 1000, -28, NULL);	/* ENOSPC */
	call(run, 5000, 5000, 42, SK_FSYNC, 3, 0, 0, 0, NULL);
	call(run, 11000, 7000, 42, SK_FDATASYNC, 3, 0, 0, 0, NULL);
	call(run, 20000, 50, 42, SK_DUP2, 3, 9, 0, 9, NULL);
	call(run, 21000, 50, 42, SK_CLOSE, 3, 0, 0, 0, NULL);
	call(run, 22000, 100, 42, SK_PWRITE64, 9, 0, 10, 10, NULL);
	call(run, 23000, 100, 42, SK_READ, 0, 0, 10, 7, NULL);	/* unknown fd */
	call(run, 24000, 10, 42, SK_CLOSE, 11, 0, 0, -9, NULL);	/* EBADF */

	p = proctable_lookup(run->pt, 42);
	ps = p->user;
	assert_int_equal(ps->calls, 11);
	assert_int_equal(ps->errors, 2);
	assert_int_equal(ps->write_bytes, 1510);
	assert_int_equal(ps->read_bytes, 7);
	assert_int_equal(procstat_kind(ps, SK_WRITE)->count, 3);
	assert_int_equal(procstat_kind(ps, SK_WRITE)->errors, 1);
	assert_int_equal(procstat_kind(ps, SK_WRITE)->bytes, 1500);
	assert_int_equal(procstat_kind(ps, SK_WRITE)->lat.sum, 900);
	assert_int_equal(procstat_kind(ps, SK_WRITE)->lat.max, 400);
	assert_int_equal(ps->fsync.count, 2);
	assert_int_equal(ps->fsync.sum, 12000);
	assert_int_equal(ps->fsync.max, 7000);

	f = filetab_path(run->ft, "/tmp/out");
	fs = f->user;
	assert_int_equal(fs->opens, 1);
	assert_int_equal(fs->writes, 4);
	assert_int_equal(fs->write_bytes, 1510);
	assert_int_equal(fs->fsync.count, 2);
	assert_int_equal(fs->fsync.max, 7000);
	assert_ptr_equal(fdtable_get(p->fds, 9), f);
	assert_null(fdtable_get(p->fds, 3));
	assert_int_equal(proctable_fdstats(run->pt)->io_unknown, 1);
	assert_int_equal(proctable_fdstats(run->pt)->close_unknown, 0);
}

/* What the per-call hook saw. */
struct seen {
	int n;
	enum sys_kind kind[8];
	int fd[8];
	const char *file[8];
	int pid[8];
};

static void on_call(void *arg, struct proc *p, struct file *f,
		    const struct sys_call *c)
{
	struct seen *s = arg;

	assert_true(s->n < 8);
	s->kind[s->n] = c->kind;
	s->fd[s->n] = sys_call_fd(c);
	s->file[s->n] = f && f->path ? f->path : NULL;
	s->pid[s->n] = p->pid;
	s->n++;
}

/* The hook gets every call with the file of its fd: new, used, closed. */
static void test_on_call(void **state)
{
	struct run *run = *state;
	struct seen s = { 0 };

	run->acct.on_call = on_call;
	run->acct.on_call_arg = &s;
	call(run, 10, 1, 60, SK_OPENAT, (uint64_t)-100, 0, 0, 3, "/etc/b");
	call(run, 20, 5, 60, SK_WRITE, 3, 0, 100, 100, NULL);
	call(run, 30, 1, 60, SK_DUP2, 3, 7, 0, 7, NULL);
	call(run, 40, 1, 60, SK_CLOSE, 3, 0, 0, 0, NULL);
	call(run, 50, 1, 60, SK_SYNC, 0, 0, 0, 0, NULL);
	call(run, 60, 1, 60, SK_READ, 9, 0, 10, -9, NULL);	/* EBADF */
	assert_int_equal(s.n, 6);
	assert_int_equal(s.kind[0], SK_OPENAT);
	assert_int_equal(s.fd[0], 3);
	assert_string_equal(s.file[0], "/etc/b");
	assert_int_equal(s.fd[1], 3);
	assert_string_equal(s.file[1], "/etc/b");
	assert_int_equal(s.fd[2], 3);			/* dup2: oldfd */
	assert_string_equal(s.file[2], "/etc/b");
	assert_int_equal(s.fd[3], 3);			/* close: the file it closed */
	assert_string_equal(s.file[3], "/etc/b");
	assert_int_equal(s.fd[4], -1);			/* sync: no fd */
	assert_null(s.file[4]);
	assert_int_equal(s.fd[5], 9);			/* unknown fd: made up */
	assert_null(s.file[5]);
	assert_int_equal(s.pid[5], 60);
}

static void test_account_dup_cloexec(void **state)
{
	struct run *run = *state;
	struct proc *p;

	call(run, 10, 1, 50, SK_OPEN, 0, 0, 0, 3, "/etc/a");
	call(run, 20, 1, 50, SK_FCNTL, 3, 1030, 10, 10, NULL);	/* F_DUPFD_CLOEXEC */
	call(run, 30, 1, 50, SK_DUP3, 3, 11, 02000000, 11, NULL);
	call(run, 40, 1, 50, SK_DUP, 3, 0, 0, 12, NULL);
	call(run, 50, 1, 50, SK_FCNTL, 12, 2, 1, 0, NULL);	/* F_SETFD FD_CLOEXEC */
	call(run, 60, 1, 50, SK_CLOSE_RANGE, 3, 3, 4, 0, NULL);	/* CLOEXEC */
	p = proctable_lookup(run->pt, 50);
	assert_int_equal(fdtable_size(p->fds), 4);
	proctable_exec(run->pt, 70, 50, 50, "/bin/true");
	assert_int_equal(fdtable_size(p->fds), 0);
	assert_int_equal(proctable_fdstats(run->pt)->exec_closed, 4);
}

/* ioctl FIOCLEX/FIONCLEX set and clear close-on-exec; other ioctls do not. */
static void test_ioctl_cloexec(void **state)
{
	struct run *run = *state;
	struct sys_call c;
	struct proc *p;

	call(run, 10, 1, 50, SK_OPENAT, 0, 0, 02000000, 3, "/etc/a");
	call(run, 20, 1, 50, SK_OPENAT, 0, 0, 0, 4, "/etc/b");
	call(run, 30, 1, 50, SK_OPENAT, 0, 0, 0, 5, "/etc/c");
	call(run, 40, 1, 50, SK_IOCTL, 3, 0x5450, 0, 0, NULL);	/* FIONCLEX */
	call(run, 50, 1, 50, SK_IOCTL, 4, 0x5451, 0, 0, NULL);	/* FIOCLEX */
	call(run, 60, 1, 50, SK_IOCTL, 5, 0x5401, 0, 0, NULL);	/* TCGETS */
	/* an exit of an ioctl whose enter was filtered: dropped, no anomaly */
	assert_int_equal(leave(run->sr, 70, 50, 0, SK_IOCTL, 0, &c), 0);
	assert_int_equal(sysreplay_stats(run->sr)->exit_without_enter, 0);
	assert_int_equal(sysreplay_stats(run->sr)->exits_filtered, 1);
	p = proctable_lookup(run->pt, 50);
	proctable_exec(run->pt, 80, 50, 50, "/bin/true");
	assert_int_equal(fdtable_size(p->fds), 2);
	assert_string_equal(fdtable_get(p->fds, 3)->path, "/etc/a");
	assert_null(fdtable_get(p->fds, 4));
	assert_string_equal(fdtable_get(p->fds, 5)->path, "/etc/c");
}

/* Renames, RENAME_EXCHANGE, unlinks and links move names between files. */
static void test_names(void **state)
{
	struct run *run = *state;
	struct sys_enter e = { .ts = 90, .tid = 50, .kind = SK_RENAMEAT2,
			       .args = { -100, 0, -100, 0, 2 }, .path = "/x" };
	struct sys_call c;
	struct file *tmp, *x, *y, *g;

	call(run, 10, 1, 50, SK_OPEN, 0, 0, 0, 3, "/cfg.tmp");
	call(run, 20, 1, 50, SK_OPEN, 0, 0, 0, 4, "/cfg");
	tmp = fdtable_get(proctable_lookup(run->pt, 50)->fds, 3);
	g = fdtable_get(proctable_lookup(run->pt, 50)->fds, 4);
	/* the atomic save: the old /cfg loses its name */
	sysreplay_set_path2(run->sr, 50, "/cfg");
	call(run, 30, 1, 50, SK_RENAME, 0, 0, 0, 0, "/cfg.tmp");
	assert_string_equal(tmp->path, "/cfg");
	assert_string_equal(tmp->names, "written as /cfg.tmp");
	assert_true(g->unlinked);
	assert_ptr_equal(filetab_find_path(run->ft, "/cfg"), tmp);
	assert_null(filetab_find_path(run->ft, "/cfg.tmp"));
	/* a new file at the old name is another file */
	call(run, 40, 1, 50, SK_OPEN, 0, 0, 0, 5, "/cfg.tmp");
	assert_ptr_not_equal(fdtable_get(proctable_lookup(run->pt, 50)->fds, 5),
			     tmp);
	/* exchange */
	call(run, 50, 1, 50, SK_OPEN, 0, 0, 0, 6, "/x");
	call(run, 60, 1, 50, SK_OPEN, 0, 0, 0, 7, "/y");
	x = fdtable_get(proctable_lookup(run->pt, 50)->fds, 6);
	y = fdtable_get(proctable_lookup(run->pt, 50)->fds, 7);
	sysreplay_set_path2(run->sr, 50, "/y");
	sysreplay_enter(run->sr, &e);
	assert_int_equal(leave(run->sr, 91, 50, 0, SK_RENAMEAT2, 0, &c), 1);
	account_call(&run->acct, proctable_lookup(run->pt, 50), &c);
	assert_string_equal(x->path, "/y");
	assert_string_equal(y->path, "/x");
	assert_ptr_equal(filetab_find_path(run->ft, "/x"), y);
	/* unlink, link; a rename without its names is counted */
	call(run, 100, 1, 50, SK_UNLINK, 0, 0, 0, 0, "/x");
	assert_true(y->unlinked);
	assert_null(filetab_find_path(run->ft, "/x"));
	sysreplay_set_path2(run->sr, 50, "/z");
	call(run, 110, 1, 50, SK_LINK, 0, 0, 0, 0, "/y");
	assert_ptr_equal(filetab_find_path(run->ft, "/z"), x);
	assert_string_equal(x->names, "written as /x,linked as /z");
	call(run, 120, 1, 50, SK_RENAME, 0, 0, 0, 0, NULL);
	assert_int_equal(proctable_fdstats(run->pt)->names_unnamed, 1);
	assert_int_equal(proctable_fdstats(run->pt)->names_followed, 4);
}

/* ------------------------------------------------------------------ */
/* io_uring requests */

static int uev(struct uring_replay *u, enum dec_kind k, uint64_t ts, int tid,
	       uint64_t req, int op_or_fd, int64_t res, uint64_t flags,
	       struct sys_call *c, int *owner)
{
	struct dec_ev ev = { .kind = k, .ts = ts, .pid = tid };

	ev.uring.ctx = 0x1000;
	ev.uring.req = req;
	ev.uring.user_data = req + 7;
	ev.uring.opcode = op_or_fd;
	ev.uring.fd = k == DK_URING_REGISTER ? 1 : op_or_fd;	/* nr_files */
	ev.uring.flags = flags;
	ev.uring.res = res;
	ev.uring.sq_thread = k == DK_URING_SUBMIT && tid == 99;
	return uring_feed(u, &ev, c, owner);
}

static void test_uring(void **state)
{
	struct uring_replay *u = uring_new();
	const struct sys_enter *e;
	struct sys_call c;
	int tid = 0;

	(void)state;
	assert_non_null(u);
	/* inline write on fd 5: submit, file_get, complete */
	uev(u, DK_URING_CREATE, 10, 40, 0, 6, 0, 0, &c, &tid);
	assert_int_equal(uev(u, DK_URING_SUBMIT, 100, 40, 0xa, 23, 0, 0, &c, &tid), 0);
	uev(u, DK_URING_FILE, 101, 40, 0xa, 5, 0, 0, &c, &tid);
	e = uring_current(u, 40, false);
	assert_non_null(e);
	assert_int_equal(e->kind, SK_URING_WRITE);
	assert_int_equal((int)e->args[0], 5);
	assert_int_equal(uev(u, DK_URING_COMPLETE, 300, 0, 0xa, 0, 4096, 0, &c, &tid), 1);
	assert_int_equal(c.kind, SK_URING_WRITE);
	assert_int_equal(tid, 40);
	assert_int_equal((int)c.args[0], 5);
	assert_int_equal(c.ret, 4096);
	assert_int_equal(c.end - c.start, 200);
	assert_null(uring_current(u, 40, false));
	/* one registered file: the caller's guess; SQPOLL: the ring's owner */
	assert_int_equal(uev(u, DK_URING_REGISTER, 400, 40, 0, 2, 0, 0, &c, &tid),
			 URING_FIXED_GUESS);
	uring_fixed_guess(u, 0x1000, 8);
	uev(u, DK_URING_SUBMIT, 500, 99, 0xb, 22, 0, 1, &c, &tid);
	/* punted to a worker: the worker takes it */
	uev(u, DK_URING_ASYNC, 501, 99, 0xb, 22, 0, 1, &c, &tid);
	e = uring_current(u, 77, true);
	assert_non_null(e);
	assert_int_equal(e->kind, SK_URING_READ);
	assert_int_equal((int)e->args[0], 8);
	assert_null(uring_current(u, 78, false));
	assert_int_equal(uev(u, DK_URING_COMPLETE, 600, 77, 0xb, 0, 100, 0, &c, &tid), 1);
	assert_int_equal(tid, 40);
	assert_int_equal(uring_stats(u)->fixed_guessed, 1);
	/* a completion without its submit; a request never completed */
	assert_int_equal(uev(u, DK_URING_COMPLETE, 700, 0, 0xc, 0, 1, 0, &c, &tid), 0);
	uev(u, DK_URING_SUBMIT, 800, 40, 0xd, 3, 0, 0, &c, &tid);	/* fsync */
	uev(u, DK_URING_SUBMIT, 801, 40, 0xe, 18, 0, 0, &c, &tid);	/* openat */
	uring_finish(u);
	assert_int_equal(uring_stats(u)->complete_unknown, 1);
	assert_int_equal(uring_stats(u)->open_at_end, 1);
	assert_int_equal(uring_stats(u)->fd_ops, 1);
	assert_int_equal(uring_stats(u)->completes, 2);
	uring_free(u);
}

/* libaio: iocbs from the uprobe, queued by io_submit, reaped in order */
static void test_aio(void **state)
{
	struct aio_replay *ar = aio_new();
	struct dec_aio h = { .nr = 3, .n = 2 };
	struct sys_call c = { .kind = SK_IO_SUBMIT, .tid = 7, .paired = true,
			      .start = 100, .end = 110, .ret = 3,
			      .args = { 0xc1, 3 } };
	struct sys_call out;

	(void)state;
	assert_non_null(ar);
	h.io[0].fd = 5; h.io[0].op = 1; h.io[0].len = 4096;	/* PWRITE */
	h.io[1].fd = 5; h.io[1].op = 0; h.io[1].len = 512;	/* PREAD */
	aio_hint(ar, 7, &h);
	assert_int_equal(aio_submit_fd(ar, 7), 5);
	aio_call(ar, &c);
	assert_int_equal(aio_submit_fd(ar, 7), -1);
	c = (struct sys_call){ .kind = SK_IO_GETEVENTS, .tid = 7, .paired = true,
			       .start = 200, .end = 300, .ret = 2,
			       .args = { 0xc1 } };
	aio_call(ar, &c);
	assert_int_equal(aio_next(ar, &out), 1);
	assert_int_equal(out.kind, SK_AIO_WRITE);
	assert_int_equal((int)out.args[0], 5);
	assert_int_equal(out.ret, 4096);
	assert_int_equal(out.end - out.start, 200);
	assert_int_equal(aio_next(ar, &out), 1);
	assert_int_equal(out.kind, SK_AIO_READ);
	assert_int_equal(aio_next(ar, &out), 0);
	aio_finish(ar);
	assert_int_equal(aio_stats(ar)->submitted, 3);
	assert_int_equal(aio_stats(ar)->unnamed, 1);	/* past the hint's 2 */
	assert_int_equal(aio_stats(ar)->open_at_end, 1);
	aio_free(ar);
}

/*
 * What a user worked out from a file's path (its path_class) is dropped
 * with every new path: a rename, an exchange, a late name, a link.
 */
static void test_path_class(void **state)
{
	struct filetab *ft = filetab_new();
	struct file *a, *b, *u;

	(void)state;
	assert_non_null(ft);
	a = filetab_path(ft, "/tmp/a.tmp");
	b = filetab_path(ft, "/dev/null");
	u = filetab_anon(ft, 7, 3, 0);
	assert_true(a && b && u);
	assert_int_equal(a->path_class, 0);
	a->path_class = 1;
	file_rename(ft, a, "/tmp/a");
	assert_string_equal(a->path, "/tmp/a");
	assert_int_equal(a->path_class, 0);
	a->path_class = 1;
	b->path_class = -1;
	file_exchange(ft, a, b);
	assert_string_equal(a->path, "/dev/null");
	assert_int_equal(a->path_class, 0);
	assert_int_equal(b->path_class, 0);
	u->path_class = -1;
	file_set_name(ft, u, "/var/log/x", false, 0, 0, 0);
	assert_string_equal(u->path, "/var/log/x");
	assert_int_equal(u->path_class, 0);
	filetab_free(ft, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SR_TEST(test_pairing),
		SR_TEST(test_exit_without_enter),
		SR_TEST(test_nested_threads),
		SR_TEST(test_superseded_mismatch_negative),
		SR_TEST(test_gap_other_cpu),
		SR_TEST(test_lost_gap),
		SR_TEST(test_late_path),
		cmocka_unit_test(test_kinds),
		RUN_TEST(test_ioctl_cloexec),
		RUN_TEST(test_names),
		cmocka_unit_test(test_uring),
		cmocka_unit_test(test_aio),
		cmocka_unit_test(test_kstat_hist),
		RUN_TEST(test_on_call),
		cmocka_unit_test(test_unnamed_cap),
		cmocka_unit_test(test_path_class),
		cmocka_unit_test(test_imap),
		cmocka_unit_test(test_map_of_inode),
		cmocka_unit_test(test_dup2_then_close),
		cmocka_unit_test(test_close_range_and_exec),
		TABLES_TEST(test_snapshot_seed),
		TABLES_TEST(test_fork_inherits),
		TABLES_TEST(test_pid_reuse),
		TABLES_TEST(test_exec_by_thread_and_rename),
		RUN_TEST(test_end_snapshot),
		RUN_TEST(test_account),
		RUN_TEST(test_account_dup_cloexec),
	};

	util_progname = "test-sysreplay";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
