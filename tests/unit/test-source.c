// SPDX-License-Identifier: MIT
/*
 * test-source.c - unit tests of ioreport's input layer: .iorec files
 * built here from an embedded event format and hand-made ring-buffer
 * pages, in both byte orders and both long sizes, read back through
 * source_open()/source_next() and checked for merge order, field values,
 * lost-event gaps, chunk boundaries and truncation; and the block
 * request state machine fed a synthetic sequence through the same path
 * and the decode table.
 */
#include "config.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "iorec-format.h"
#include "util.h"
#include "base/err.h"
#include "sbuf.h"
#include "input/source.h"
#include "input/ftrace-guard.h"
#include "decode/decode.h"
#include "replay/block.h"
#include "tests/ftrace-text.h"

#define SUBBUF		4096
#define TEST_ID		42

static const char test_format[] =
	"name: test_ev\n"
	"ID: 42\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int b;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long long c;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"a=%u b=%d c=%llu\", REC->a, REC->b, REC->c\n";

/* One ring-buffer sub-buffer under construction. */
struct page {
	uint8_t b[SUBBUF];
	size_t off;
	bool be;
	int lsize;
	uint64_t last;
};

static void put(uint8_t *p, uint64_t v, int n, bool be)
{
	for (int i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static void page_init(struct page *pg, bool be, int lsize, uint64_t ts)
{
	memset(pg, 0, sizeof(*pg));
	pg->be = be;
	pg->lsize = lsize;
	pg->last = ts;
	put(pg->b, ts, 8, be);
	pg->off = 8 + (size_t)lsize;
}

/* Append a test_ev record: 4-byte header, 24 bytes of data. */
static void page_add(struct page *pg, uint64_t ts, int pid, uint32_t a,
		     int32_t b, uint64_t c)
{
	uint32_t delta = (uint32_t)(ts - pg->last);
	uint32_t type_len = 24 / 4;
	uint8_t *p = pg->b + pg->off;

	assert_true(delta < (1u << 27));
	pg->last = ts;
	put(p, pg->be ? type_len << 27 | delta : delta << 5 | type_len, 4,
	    pg->be);
	p += 4;
	put(p, TEST_ID, 2, pg->be);
	p[2] = 0;
	p[3] = 0;
	put(p + 4, (uint32_t)pid, 4, pg->be);
	put(p + 8, a, 4, pg->be);
	put(p + 12, (uint32_t)b, 4, pg->be);
	put(p + 16, c, 8, pg->be);
	pg->off += 28;
}

/* Write the commit word; missed > 0 flags a gap and stores its size. */
static void page_finish(struct page *pg, long missed)
{
	size_t hdr = 8 + (size_t)pg->lsize;
	uint64_t commit = pg->off - hdr;

	if (missed) {
		put(pg->b + pg->off, (uint64_t)missed, pg->lsize, pg->be);
		commit |= 1ULL << 31 | 1ULL << 30;
	}
	put(pg->b + 8, commit, pg->lsize, pg->be);
}

struct file {
	char path[64];
	int fd;
	struct iorec_writer *w;
	bool be;
	int lsize;
};

static void file_begin(struct file *f, bool be, int lsize)
{
	static const char text[] = "clock=mono\nkernel=test\nmachine=test\n";
	struct iorec_header h = {
		.endian = be ? IOREC_ENDIAN_BIG : IOREC_ENDIAN_LITTLE,
		.long_size = (uint8_t)lsize,
		.page_size = 4096,
		.subbuf_size = SUBBUF,
		.ncpus = 2,
		.text = text,
		.text_len = sizeof(text) - 1,
	};
	const char *hp = lsize == 8 ? HEADER_PAGE_64 : HEADER_PAGE_32;
	static const char snap[] = "proc\t77\t1\tsnapcomm\t/bin/x\tx\n"
				   "thread\t78\t77\tworker\n";
	static const char sys[] = "1\twrite\n0\tread\n";
	struct sbuf sb = SBUF_INIT_FATAL;
	uint8_t *hb, ph[8] = { 0 };
	size_t hl;

	strcpy(f->path, "/tmp/test-source-XXXXXX");
	f->fd = mkstemp(f->path);
	assert_true(f->fd >= 0);
	f->be = be;
	f->lsize = lsize;
	f->w = iorec_writer_new(f->fd, 1, 0);
	assert_non_null(f->w);
	assert_int_equal(iorec_header_encode(&h, &hb, &hl), 0);
	assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_HEADER, NULL, 0,
					  hb, hl, false), 0);
	free(hb);
	assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_HEADER_PAGE, NULL,
					  0, hp, strlen(hp), true), 0);
	sbuf_add(&sb, "test", 5);
	sbuf_addstr(&sb, test_format);
	assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_EVENT_FORMAT,
					  NULL, 0, sb.buf, sb.len, true), 0);
	sbuf_release(&sb);
	assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_SYSCALLS, NULL, 0,
					  sys, strlen(sys), true), 0);
	sbuf_add(&sb, ph, sizeof(ph));
	sbuf_addstr(&sb, snap);
	assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_SNAPSHOT, NULL, 0,
					  sb.buf, sb.len, true), 0);
	sbuf_release(&sb);
}

static void file_data(struct file *f, int cpu, struct page *pages, int n,
		      uint64_t first, uint64_t last)
{
	struct iorec_data_desc d = {
		.cpu = (uint32_t)cpu, .npages = (uint32_t)n,
		.subbuf_size = SUBBUF, .first_ts = first, .last_ts = last,
	};
	uint8_t desc[IOREC_DATA_DESC_LEN];
	uint8_t *body = xmalloc((size_t)n * SUBBUF);

	for (int i = 0; i < n; i++)
		memcpy(body + (size_t)i * SUBBUF, pages[i].b, SUBBUF);
	iorec_data_desc_encode(&d, desc);
	assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_DATA, desc,
					  sizeof(desc), body,
					  (size_t)n * SUBBUF, true), 0);
	free(body);
}

static void file_end(struct file *f, bool end_chunk)
{
	static const char end[] = "reason=duration\n";

	if (end_chunk)
		assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_END, NULL,
						  0, end, strlen(end), true),
				 0);
	assert_int_equal(iorec_writer_flush(f->w), 0);
	iorec_writer_free(f->w);
	close(f->fd);
}

/*
 * The standard recording: CPU 0 has events at 1000, 3000 (chunk 1) and
 * 5000 (chunk 2); CPU 1 has 2000 on page 1 and 4000, 4000 on page 2,
 * which is flagged with 7 lost events.
 */
static void write_standard(struct file *f, bool be, int lsize)
{
	struct page p[2];

	file_begin(f, be, lsize);
	page_init(&p[0], be, lsize, 1000);
	page_add(&p[0], 1000, 77, 1, -1, 0x1122334455667788ULL);
	page_add(&p[0], 3000, 77, 3, -3, 3);
	page_finish(&p[0], 0);
	file_data(f, 0, p, 1, 1000, 3000);

	page_init(&p[0], be, lsize, 1900);
	page_add(&p[0], 2000, 78, 2, -2, 2);
	page_finish(&p[0], 0);
	page_init(&p[1], be, lsize, 4000);
	page_add(&p[1], 4000, 99, 4, -4, 4);
	page_add(&p[1], 4000, 99, 6, -6, 6);
	page_finish(&p[1], 7);
	file_data(f, 1, p, 2, 2000, 4000);

	page_init(&p[0], be, lsize, 5000);
	page_add(&p[0], 5000, 77, 5, -5, 5);
	page_finish(&p[0], 0);
	file_data(f, 0, p, 1, 5000, 5000);
}

static void check_standard(const char *path)
{
	static const struct {
		uint64_t ts;
		int cpu, pid;
		uint32_t a;
		long long missed;
	} want[] = {
		{ 1000, 0, 77, 1, 0 }, { 2000, 1, 78, 2, 0 },
		{ 3000, 0, 77, 3, 0 }, { 4000, 1, 99, 4, 7 },
		{ 4000, 1, 99, 6, 0 }, { 5000, 0, 77, 5, 0 },
	};
	struct source_field *fa, *fb, *fc;
	struct source_event ev;
	struct source *src;
	struct an_err err = { 0 };
	size_t i = 0;

	src = source_open(path, &err);
	assert_int_equal(err.code, 0);
	assert_non_null(src);
	assert_int_equal(source_event_id(src, "test", "test_ev"), TEST_ID);
	fa = source_field(src, TEST_ID, "a");
	fb = source_field(src, TEST_ID, "b");
	fc = source_field(src, TEST_ID, "c");
	assert_non_null(fa);
	assert_non_null(fb);
	assert_non_null(fc);
	assert_null(source_field(src, TEST_ID, "nosuch"));

	while (source_next(src, &ev) > 0) {
		uint64_t a, c;
		int64_t b;

		assert_true(i < ARRAY_SIZE(want));
		assert_int_equal(ev.ts, want[i].ts);
		assert_int_equal(ev.cpu, want[i].cpu);
		assert_int_equal(ev.pid, want[i].pid);
		assert_int_equal(ev.id, TEST_ID);
		assert_int_equal(ev.missed, want[i].missed);
		assert_int_equal(source_field_u64(fa, &ev, &a), 0);
		assert_int_equal(a, want[i].a);
		assert_int_equal(source_field_s64(fb, &ev, &b), 0);
		assert_int_equal(b, -(int64_t)want[i].a);
		assert_int_equal(source_field_u64(fc, &ev, &c), 0);
		if (i == 0)
			assert_true(c == 0x1122334455667788ULL);
		i++;
	}
	assert_int_equal(i, ARRAY_SIZE(want));
	assert_int_equal(source_info(src)->cpus[1].missed_pages, 1);
	assert_int_equal(source_info(src)->cpus[1].missed_events, 7);
	assert_int_equal(source_info(src)->cpus[0].chunks, 2);
	assert_int_equal(source_event_types(src, (int *)&i)[0].count, 6);
	/* comms come from the snapshot's proc and thread lines */
	assert_string_equal(source_comm(src, 77), "snapcomm");
	assert_string_equal(source_comm(src, 78), "worker");
	assert_string_equal(source_syscall_name(src, 1), "write");
	assert_null(source_syscall_name(src, 2));
	source_close(src);
}

static void test_merge(bool be, int lsize)
{
	const struct source_info *in;
	struct source *src;
	struct file f;
	struct an_err err = { 0 };

	write_standard(&f, be, lsize);
	file_end(&f, true);
	check_standard(f.path);

	src = source_open(f.path, &err);
	assert_non_null(src);
	in = source_info(src);
	assert_int_equal(in->integrity, SOURCE_COMPLETE);
	assert_int_equal(in->big_endian, be);
	assert_int_equal(in->long_size, lsize);
	assert_int_equal(in->first_ts, 1000);
	assert_int_equal(in->last_ts, 5000);
	source_close(src);
	unlink(f.path);
}

static void test_le64(void **state)
{
	test_merge(false, 8);
}

static void test_be32(void **state)
{
	test_merge(true, 4);
}

static void test_be64(void **state)
{
	test_merge(true, 8);
}

static void test_le32(void **state)
{
	test_merge(false, 4);
}

/* The standard recording, with its END chunk or not, written and opened. */
static struct source *open_standard(struct file *f, bool be, int lsize,
				    bool end)
{
	struct an_err err = { 0 };
	struct source *src;

	write_standard(f, be, lsize);
	file_end(f, end);
	src = source_open(f->path, &err);
	assert_non_null(src);
	return src;
}

/* The printed line goes through libtraceevent with the file's byte order. */
static void test_format_line(void **state)
{
	struct sbuf sb = SBUF_INIT;
	struct source_event ev;
	struct file f;
	struct source *src = open_standard(&f, true, 4, true);

	assert_int_equal(source_next(src, &ev), 1);
	source_format_event(src, &ev, false, NULL, &sb);
	assert_non_null(strstr(sb.buf, "snapcomm-77"));
	assert_non_null(strstr(sb.buf, "[000]"));
	assert_non_null(strstr(sb.buf, "0.000001: test_ev:"));
	assert_non_null(strstr(sb.buf, "a=1 b=-1 c=1234605616436508552"));
	sbuf_release(&sb);
	source_close(src);
	unlink(f.path);
}

/* A file cut inside its last chunk keeps every complete chunk. */
static void test_truncated(void **state)
{
	const struct source_info *in;
	struct source_event ev;
	struct source *src;
	struct file f;
	off_t size;
	struct an_err err = { 0 };
	int n = 0, fd;

	write_standard(&f, false, 8);
	file_end(&f, false);
	fd = open(f.path, O_RDWR);
	size = lseek(fd, 0, SEEK_END);
	assert_int_equal(ftruncate(fd, size - 10), 0);
	close(fd);

	src = source_open(f.path, &err);
	assert_non_null(src);
	in = source_info(src);
	assert_int_equal(in->integrity, SOURCE_TRUNCATED);
	assert_true(in->stop_offset > 0 && in->stop_offset < (uint64_t)size);
	while (source_next(src, &ev) > 0)
		n++;
	assert_int_equal(n, 5);		/* the last CPU 0 chunk is lost */
	source_close(src);
	unlink(f.path);
}

/* No END chunk: complete chunks, but the recording was cut short. */
static void test_no_end(void **state)
{
	struct file f;
	struct source *src = open_standard(&f, false, 8, false);

	assert_int_equal(source_info(src)->integrity, SOURCE_TRUNCATED);
	assert_non_null(strstr(source_info(src)->stop_reason, "end chunk"));
	source_close(src);
	unlink(f.path);
}

/* A page whose commit word lies is skipped with a warning. */
static void test_bad_commit(void **state)
{
	struct source_event ev;
	struct source *src;
	struct page p;
	struct file f;
	char *msg;
	struct an_err err = { 0 };
	int n = 0;

	file_begin(&f, false, 8);
	page_init(&p, false, 8, 10);
	page_add(&p, 10, 1, 1, 1, 1);
	page_finish(&p, 0);
	put(p.b + 8, SUBBUF * 2, 8, false);
	file_data(&f, 0, &p, 1, 10, 10);
	file_end(&f, true);

	src = source_open(f.path, &err);
	assert_non_null(src);
	while (source_next(src, &ev) > 0)
		n++;
	assert_int_equal(n, 0);
	msg = source_warning(src);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "claims"));
	free(msg);
	source_close(src);
	unlink(f.path);
}

static void test_not_a_recording(void **state)
{
	char path[] = "/tmp/test-source-XXXXXX";
	struct source *src;
	struct an_err err = { 0 };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello world, not a trace", 24), 24);
	close(fd);
	src = source_open(path, &err);
	assert_null(src);
	assert_non_null(strstr(err.msg, "bad magic at offset 0"));
	unlink(path);

	src = source_open("/nonexistent/x.iorec", &err);
	assert_null(src);
	assert_non_null(strstr(err.msg, "cannot open"));
}

/* ------------------------------------------------------------------ */
/* Block request state machine on synthetic block_rq_* records */

#define RQ_INSERT	1101
#define RQ_ISSUE	1102
#define RQ_COMPLETE	1103

/*
 * The formats of block_rq_insert, _issue and _complete: the same fields
 * but the one at offset 28 (bytes; error in _complete).
 */
#define RQ_FORMAT(name, id, field28, signed28) \
	"name: " name "\nID: " id "\nformat:\n" COMMON_FIELDS \
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n" \
	"\tfield:" field28 ";\toffset:28;\tsize:4;\tsigned:" signed28 ";\n" \
	"\tfield:char rwbs[10];\toffset:32;\tsize:10;\tsigned:0;\n" \
	"\nprint fmt: \"%llu %s\", REC->sector, REC->rwbs\n"

static const char fmt_insert[] =
	RQ_FORMAT("block_rq_insert", "1101", "unsigned int bytes", "0");
static const char fmt_issue[] =
	RQ_FORMAT("block_rq_issue", "1102", "unsigned int bytes", "0");
static const char fmt_complete[] =
	RQ_FORMAT("block_rq_complete", "1103", "int error", "1");

/*
 * The widths and precisions of a print fmt: a constant up to 4096 (the
 * kernel's "%*pbl", (1 << 10)), a string's precision from the event
 * ("%.*s"); never a width from the event (it padded every event of dump
 * to 16 MB: a fuzz-formats hang) nor a larger one.
 */
static void test_print_widths(void **state)
{
	static const struct { const char *print; int ret; } c[] = {
		{ "\"m=%*pbl\", (1 << 10), REC->a", FTRACE_OK },
		{ "\"s=%.*s\", REC->a, REC->b", FTRACE_OK },
		{ "\"n=%016lx %-8d\", REC->a, REC->b", FTRACE_OK },
		{ "\"n=%*ld\", REC->a, REC->b", FTRACE_REWRITTEN },
		{ "\"n=%.*d\", REC->a, REC->b", FTRACE_REWRITTEN },
		{ "\"n=%*d\", (1 << 20), REC->a", FTRACE_REWRITTEN },
		{ "\"n=%*d\", 4000 + 200, REC->a", FTRACE_REWRITTEN },
		{ "\"n=%99999d\", REC->a", FTRACE_REWRITTEN },
		{ "\"n=%.5000u\", REC->a", FTRACE_REWRITTEN },
		{ "\"n=%*d\", 4096, REC->a", FTRACE_OK },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		struct ftrace_verdict v = { 0 };
		char text[1024];
		int n = snprintf(text, sizeof(text),
				 "name: e\nID: 7\nformat:\n" COMMON_FIELDS
				 "\tfield:unsigned long a;\toffset:8;\tsize:8;\tsigned:0;\n"
				 "\tfield:char b[8];\toffset:16;\tsize:8;\tsigned:0;\n"
				 "\nprint fmt: %s\n", c[i].print);

		if (ftrace_check_format(text, (size_t)n, 4096, false, &v) !=
		    c[i].ret)
			fail_msg("print fmt %s: %s", c[i].print,
				 v.error ? v.error : "accepted");
		ftrace_verdict_release(&v);
	}
}

static void file_format(struct file *f, const char *sys, const char *fmt)
{
	struct sbuf sb = SBUF_INIT_FATAL;

	sbuf_add(&sb, sys, strlen(sys) + 1);
	sbuf_addstr(&sb, fmt);
	assert_int_equal(iorec_writer_add(f->w, IOREC_CHUNK_EVENT_FORMAT,
					  NULL, 0, sb.buf, sb.len, true), 0);
	sbuf_release(&sb);
}

/* Append a block_rq_* record (44 bytes of data) to a page. */
static void page_add_rq(struct page *pg, uint64_t ts, int id, uint64_t sector,
			uint32_t nr_sector, const char *rwbs)
{
	uint32_t delta = (uint32_t)(ts - pg->last);
	uint8_t *p = pg->b + pg->off;

	pg->last = ts;
	put(p, pg->be ? 11u << 27 | delta : delta << 5 | 11u, 4, pg->be);
	p += 4;
	memset(p, 0, 44);
	put(p, (uint64_t)id, 2, pg->be);
	put(p + 4, 500, 4, pg->be);
	put(p + 8, 254u << 20 | 0, 4, pg->be);
	put(p + 16, sector, 8, pg->be);
	put(p + 24, nr_sector, 4, pg->be);
	if (id != RQ_COMPLETE)
		put(p + 28, (uint64_t)nr_sector * 512, 4, pg->be);
	memcpy(p + 32, rwbs, strlen(rwbs));
	pg->off += 48;
}

struct rq_log {
	struct blk_request rq[16];
	int n;
};

static void log_rq(const struct blk_request *rq, const struct blk_piece *pc,
		   size_t npc, void *arg)
{
	struct rq_log *l = arg;

	(void)pc;
	(void)npc;
	assert_true(l->n < 16);
	l->rq[l->n++] = *rq;
}

/*
 * Open path, decode every event of it and replay the block ones into log,
 * as the driver does.
 */
static struct replay_block *replay_whole(const char *path,
					 struct rq_log *log,
					 struct source **srcp)
{
	struct replay_block *rb;
	struct source_event ev;
	struct decoder *dec;
	struct source *src;
	struct dec_ev d;
	struct an_err err = { 0 };

	src = source_open(path, &err);
	assert_non_null(src);
	dec = decode_new(src, NULL);
	assert_non_null(dec);
	assert_true(decode_caps(dec)->block);
	rb = replay_block_new(log_rq, log);
	assert_non_null(rb);
	while (source_next(src, &ev) > 0) {
		if (ev.missed)
			replay_block_gap(rb);
		if (decode_event(dec, &ev, &d) && d.kind >= DK_RQ_INSERT &&
		    d.kind <= DK_RQ_REQUEUE)
			replay_block_feed(rb, &d);
	}
	replay_block_finish(rb);
	decode_free(dec);
	*srcp = src;
	return rb;
}

static void test_replay_block(void **state)
{
	const struct blk_anomalies *an;
	struct replay_block *rb;
	struct rq_log log = { .n = 0 };
	struct source *src;
	struct page p[2];
	struct file f;

	file_begin(&f, false, 8);
	file_format(&f, "block", fmt_insert);
	file_format(&f, "block", fmt_issue);
	file_format(&f, "block", fmt_complete);
	page_init(&p[0], false, 8, 100);
	/* a normal write: queue 50 ns, device 250 ns */
	page_add_rq(&p[0], 100, RQ_INSERT, 8, 8, "WS");
	page_add_rq(&p[0], 150, RQ_ISSUE, 8, 8, "WS");
	page_add_rq(&p[0], 400, RQ_COMPLETE, 8, 8, "WS");
	/* completion of nothing */
	page_add_rq(&p[0], 450, RQ_COMPLETE, 999, 8, "R");
	/* a flush: issued at sector 0, completed at -1, then its origin */
	page_add_rq(&p[0], 500, RQ_ISSUE, 0, 0, "FF");
	page_add_rq(&p[0], 700, RQ_COMPLETE, UINT64_MAX, 0, "FF");
	page_add_rq(&p[0], 701, RQ_COMPLETE, 0, 0, "WS");
	/* sector reuse before issue: the second insert wins */
	page_add_rq(&p[0], 800, RQ_INSERT, 16, 8, "R");
	page_add_rq(&p[0], 850, RQ_INSERT, 16, 8, "R");
	page_add_rq(&p[0], 900, RQ_ISSUE, 16, 8, "R");
	page_add_rq(&p[0], 1000, RQ_COMPLETE, 16, 8, "R");
	/* inserted before a gap ... */
	page_add_rq(&p[0], 1100, RQ_INSERT, 32, 8, "WFS");
	page_finish(&p[0], 0);
	/* ... issued after it: paired without queue time */
	page_init(&p[1], false, 8, 1200);
	page_add_rq(&p[1], 1200, RQ_ISSUE, 32, 8, "WFS");
	page_add_rq(&p[1], 1300, RQ_COMPLETE, 32, 8, "WFS");
	page_add_rq(&p[1], 1400, RQ_INSERT, 64, 8, "D");
	page_finish(&p[1], 3);
	file_data(&f, 0, p, 2, 100, 1400);
	file_end(&f, true);

	rb = replay_whole(f.path, &log, &src);
	an = replay_block_anomalies(rb);

	assert_int_equal(log.n, 4);
	assert_int_equal(log.rq[0].op, BLK_OP_WRITE);
	assert_true(log.rq[0].sync);
	assert_int_equal(log.rq[0].issue_ts - log.rq[0].insert_ts, 50);
	assert_int_equal(log.rq[0].complete_ts - log.rq[0].issue_ts, 250);
	assert_int_equal(log.rq[0].bytes, 4096);
	assert_int_equal(log.rq[0].dev, 254u << 20);
	assert_int_equal(log.rq[1].op, BLK_OP_FLUSH);
	assert_int_equal(log.rq[1].insert_ts, 0);
	assert_int_equal(log.rq[1].complete_ts - log.rq[1].issue_ts, 200);
	assert_int_equal(log.rq[2].op, BLK_OP_READ);
	assert_int_equal(log.rq[2].insert_ts, 850);
	assert_int_equal(log.rq[3].op, BLK_OP_WRITE);
	assert_true(log.rq[3].fua);
	assert_int_equal(log.rq[3].insert_ts, 0);

	assert_int_equal(an->complete_without_issue, 1);
	assert_int_equal(an->empty_complete, 1);
	assert_int_equal(an->duplicate, 1);
	assert_int_equal(an->dropped_at_gap, 1);
	assert_int_equal(an->issue_without_insert, 2);
	assert_int_equal(an->still_open, 1);
	assert_int_equal(an->negative_time, 0);
	replay_block_free(rb);
	source_close(src);
	unlink(f.path);
}

/*
 * Memory stays bounded: 70000 requests inserted and never issued (a
 * recording that lost its issues without saying so) are evicted past
 * 65536 pending, the survivors are counted open at the end.
 */
static void test_replay_block_evict(void **state)
{
	enum { NRQ = 70000, PER_PAGE = 80 };
	const int npages = (NRQ + PER_PAGE - 1) / PER_PAGE;
	const struct blk_anomalies *an;
	struct page *p = calloc((size_t)npages, sizeof(*p));
	struct rq_log log = { .n = 0 };
	struct replay_block *rb;
	struct source *src;
	struct file f;
	int k = 0;

	(void)state;
	assert_non_null(p);
	file_begin(&f, false, 8);
	file_format(&f, "block", fmt_insert);
	file_format(&f, "block", fmt_issue);
	file_format(&f, "block", fmt_complete);
	for (int i = 0; i < npages; i++) {
		page_init(&p[i], false, 8, 1000 + (uint64_t)k * 10);
		for (int j = 0; j < PER_PAGE && k < NRQ; j++, k++)
			page_add_rq(&p[i], 1000 + (uint64_t)k * 10, RQ_INSERT,
				    (uint64_t)k * 8, 8, "W");
		page_finish(&p[i], 0);
	}
	file_data(&f, 0, p, npages, 1000, 1000 + (uint64_t)NRQ * 10);
	file_end(&f, true);

	rb = replay_whole(f.path, &log, &src);
	an = replay_block_anomalies(rb);
	assert_int_equal(log.n, 0);
	/* all within 60 s: the whole table goes once, at 65536 */
	assert_int_equal(an->evicted, 65536);
	assert_int_equal(an->still_open, NRQ - 65536);
	replay_block_free(rb);
	source_close(src);
	unlink(f.path);
	free(p);
}

static void test_rwbs(void **state)
{
	struct dec_rq rq;

	blk_parse_rwbs("FWS", &rq);
	assert_int_equal(rq.op, BLK_OP_WRITE);
	assert_true(rq.preflush && rq.sync && !rq.fua);
	blk_parse_rwbs("WFS", &rq);
	assert_int_equal(rq.op, BLK_OP_WRITE);
	assert_true(!rq.preflush && rq.fua && rq.sync);
	blk_parse_rwbs("FF", &rq);
	assert_int_equal(rq.op, BLK_OP_FLUSH);
	blk_parse_rwbs("F", &rq);
	assert_int_equal(rq.op, BLK_OP_FLUSH);
	blk_parse_rwbs("FN", &rq);
	assert_int_equal(rq.op, BLK_OP_FLUSH);
	blk_parse_rwbs("RA", &rq);
	assert_int_equal(rq.op, BLK_OP_READ);
	assert_true(rq.ahead);
	blk_parse_rwbs("DS", &rq);
	assert_int_equal(rq.op, BLK_OP_DISCARD);
	blk_parse_rwbs("N", &rq);
	assert_int_equal(rq.op, BLK_OP_OTHER);
	blk_parse_rwbs("", &rq);
	assert_int_equal(rq.op, BLK_OP_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_le64),
		cmocka_unit_test(test_be32),
		cmocka_unit_test(test_be64),
		cmocka_unit_test(test_le32),
		cmocka_unit_test(test_format_line),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_no_end),
		cmocka_unit_test(test_bad_commit),
		cmocka_unit_test(test_not_a_recording),
		cmocka_unit_test(test_replay_block),
		cmocka_unit_test(test_replay_block_evict),
		cmocka_unit_test(test_rwbs),
		cmocka_unit_test(test_print_widths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
