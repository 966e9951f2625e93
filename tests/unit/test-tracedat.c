// SPDX-License-Identifier: MIT
/*
 * test-tracedat.c - unit tests of the trace.dat writer and reader: round
 * trips in every version, byte order and long size, a cut at every
 * offset, damaged bytes, crafted counts and loops, the limits, and the
 * conversion of a .iorec recording.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "iorec-tracedat.h"
#include "tracedat.h"
#include "tracedat-int.h"
#include "tests/tracedat-walk.h"

#define NCPUS 3

struct file {
	uint8_t *buf;
	size_t len;
};

struct variant {
	int version;
	bool compress;
	bool be;
	uint8_t lsize;		/* the kernel's long, header_page's commit */
	uint32_t psize;
};

static const struct variant variants[] = {
	{ 6, false, false, 8, 4096 }, { 6, false, true, 4, 256 },
	{ 7, false, false, 8, 4096 }, { 7, false, true, 8, 512 },
	{ 7, true, false, 8, 4096 }, { 7, true, true, 4, 256 },
	{ 7, true, false, 4, 1024 },
};

static const char *const systems[] = { "block", "syscalls", "block", "sched" };
static const char *const formats[] = {
	"name: block_rq_issue\nID: 1\nformat:\n", "name: sys_enter_write\nID: 2\n",
	"name: block_rq_complete\nID: 3\n", "name: sched_switch\nID: 4\n",
};
static const char kallsyms[] = "ffffffff81000000 T _stext\nffffffff81000010 t x\n";
static const char printk[] = "0xffffffff8281a98f : \"thaw\"\n";
static const char cmdlines[] = "1 init\n42 dd\n";

static int mem_fd(const uint8_t *buf, size_t len)
{
	int fd = memfd_create("tracedat-test", 0);

	assert_true(fd >= 0);
	if (len)
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
	return fd;
}

static void slurp(int fd, struct file *f)
{
	off_t len = lseek(fd, 0, SEEK_END);

	f->len = (size_t)len;
	f->buf = malloc(f->len ? f->len : 1);
	assert_non_null(f->buf);
	assert_int_equal(pread(fd, f->buf, f->len, 0), (ssize_t)f->len);
}

static char *header_page(uint8_t lsize)
{
	static char t[512];

	snprintf(t, sizeof(t),
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:%u;\tsize:4080;\tsigned:0;\n",
		 lsize, 8u + lsize);
	return t;
}

/*
 * A writer of fd, long size 8, one CPU, with the header page and a header
 * event set: the start of the small files the tests write page by page.
 */
static struct tracedat_writer *new_writer(int fd, int version, bool compress,
					  uint32_t psize)
{
	struct tracedat_write_opts o = {
		.version = version, .compress = compress, .long_size = 8,
		.page_size = psize, .ncpus = 1,
	};
	const char *hp = header_page(8);
	struct tracedat_writer *w;
	int err;

	w = tracedat_writer_new(fd, &o, &err);
	assert_non_null(w);
	assert_int_equal(tracedat_writer_set_header_page(w, hp, strlen(hp)), 0);
	assert_int_equal(tracedat_writer_set_header_event(w, "e", 1), 0);
	return w;
}

/*
 * The bytes of page i of a CPU: a kernel page header (timestamp, commit
 * with the missed-events flags, a stored lost count after the data) and
 * a fill pattern.  Page 2 of CPU 0 has 7 lost events, stored; page 3 an
 * unknown number.
 */
static void make_page(const struct variant *v, uint32_t cpu, uint32_t i,
		      uint8_t *p, int64_t *lost)
{
	uint32_t hs = 8 + v->lsize;
	uint32_t commit = (i * 37 + cpu * 11) % (v->psize - hs - v->lsize);
	uint64_t flags = 0;

	memset(p, 0, v->psize);
	td_put64(p, 1000000ull * i + cpu, v->be);
	for (uint32_t k = 0; k < commit; k++)
		p[hs + k] = (uint8_t)(i + cpu * 3 + k);
	*lost = 0;
	if (cpu == 0 && i == 2) {
		flags = TRACEDAT_MISSED_EVENTS | TRACEDAT_MISSED_STORED;
		if (v->lsize == 8)
			td_put64(p + hs + commit, 7, v->be);
		else
			td_put32(p + hs + commit, 7, v->be);
		*lost = 7;
	} else if (cpu == 0 && i == 3) {
		flags = TRACEDAT_MISSED_EVENTS;
		*lost = -1;
	}
	if (v->lsize == 8)
		td_put64(p + 8, commit | flags, v->be);
	else
		td_put32(p + 8, (uint32_t)(commit | flags), v->be);
}

/* pages per CPU: CPU 1 has none */
static uint32_t npages(uint32_t cpu, uint32_t scale)
{
	return cpu == 1 ? 0 : (cpu + 2) * scale + 3;
}

/* Write a trace.dat of variant v into f (pages interleaved across CPUs). */
static void make_file(const struct variant *v, uint32_t scale, struct file *f)
{
	struct tracedat_write_opts o = {
		.version = v->version, .compress = v->compress, .big_endian = v->be,
		.long_size = v->lsize, .page_size = v->psize, .ncpus = NCPUS,
	};
	int fd = memfd_create("tracedat-src", 0), err;
	struct tracedat_writer *w = tracedat_writer_new(fd, &o, &err);
	const char *hp = header_page(v->lsize);
	uint8_t *page = malloc(v->psize);
	uint32_t max = 0;
	int64_t lost;

	assert_non_null(w);
	assert_non_null(page);
	assert_int_equal(tracedat_writer_set_header_page(w, hp, strlen(hp)), 0);
	assert_int_equal(tracedat_writer_set_header_event(w, "# compressed entry header\n", 26), 0);
	assert_int_equal(tracedat_writer_add_ftrace_format(w, "name: function\n", 15), 0);
	assert_int_equal(tracedat_writer_add_ftrace_format(w, "name: print\n", 12), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(tracedat_writer_add_event_format(w, systems[i], formats[i],
								  strlen(formats[i])), 0);
	assert_int_equal(tracedat_writer_set_kallsyms(w, kallsyms, strlen(kallsyms)), 0);
	assert_int_equal(tracedat_writer_set_printk(w, printk, strlen(printk)), 0);
	assert_int_equal(tracedat_writer_set_cmdlines(w, cmdlines, strlen(cmdlines)), 0);
	assert_int_equal(tracedat_writer_set_clock(w, "mono"), 0);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_UNAME,
						    "Linux h 6.1 x86_64", 19), 0);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_CPUSTAT,
						    "CPU: 0\noverrun: 5\n", 19), 0);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_CPUSTAT,
						    "CPU: 2\noverrun: 0\n", 19), 0);
	for (uint32_t c = 0; c < NCPUS; c++)
		if (npages(c, scale) > max)
			max = npages(c, scale);
	for (uint32_t i = 0; i < max; i++)
		for (uint32_t c = 0; c < NCPUS; c++) {
			if (i >= npages(c, scale))
				continue;
			make_page(v, c, i, page, &lost);
			/* CPU 2's pages are given short: the writer pads them */
			assert_int_equal(tracedat_writer_add_page(w, c, page,
				c == 2 ? 8 + v->lsize + (i * 37 + c * 11) % (v->psize - 8 - 2 * v->lsize) :
				v->psize), 0);
		}
	assert_int_equal(tracedat_writer_finish(w), 0);
	assert_int_equal(tracedat_writer_pages(w, NULL), npages(0, scale) + npages(2, scale));
	assert_int_equal(tracedat_writer_written(w), (uint64_t)lseek(fd, 0, SEEK_END));
	tracedat_writer_free(w);
	slurp(fd, f);
	close(fd);
	free(page);
}

/* Read every metadata item and check them against what was written. */
static void check_meta(struct tracedat_reader *r, const struct variant *v)
{
	struct tracedat_meta m;
	const char *hp = header_page(v->lsize);
	int n = 0, ev = 0;

	while (tracedat_reader_meta_next(r, &m) > 0) {
		assert_int_equal(m.data[m.len], 0);
		switch (m.kind) {
		case TRACEDAT_META_HEADER_PAGE:
			assert_int_equal(n, 0);
			assert_int_equal(m.len, strlen(hp));
			assert_memory_equal(m.data, hp, m.len);
			break;
		case TRACEDAT_META_HEADER_EVENT:
			assert_int_equal(m.len, 26);
			break;
		case TRACEDAT_META_FTRACE_FORMAT:
			assert_string_equal(m.system, "ftrace");
			assert_string_equal(m.data, n == 2 ? "name: function\n" : "name: print\n");
			break;
		case TRACEDAT_META_EVENT_FORMAT: {
			/* grouped by system in the order of their first event */
			static const int order[] = { 0, 2, 1, 3 };

			assert_true(ev < 4);
			assert_string_equal(m.system, systems[order[ev]]);
			assert_string_equal(m.data, formats[order[ev]]);
			ev++;
			break;
		}
		case TRACEDAT_META_KALLSYMS:
			assert_string_equal(m.data, kallsyms);
			break;
		case TRACEDAT_META_PRINTK:
			assert_string_equal(m.data, printk);
			break;
		case TRACEDAT_META_CMDLINES:
			assert_string_equal(m.data, cmdlines);
			break;
		}
		n++;
	}
	assert_int_equal(n, 2 + 2 + 4 + 3);
}

/* Walk every page of every CPU and compare with make_page's. */
static void check_pages(struct tracedat_reader *r, const struct variant *v,
			uint32_t scale)
{
	const struct tracedat_buffer *b = tracedat_reader_buffer(r, 0);
	uint8_t *want = malloc(v->psize);

	assert_non_null(b);
	assert_string_equal(b->name, "");
	assert_string_equal(b->clock, "mono");
	assert_int_equal(b->page_size, v->psize);
	assert_int_equal(b->compressed, v->compress);
	assert_int_equal(b->ncpus, v->version == 6 ? NCPUS : NCPUS - 1);
	for (uint32_t k = 0; k < b->ncpus; k++) {
		struct tracedat_stream *s;
		struct tracedat_page pg;
		uint32_t cpu = b->cpus[k].cpu, i = 0;
		int err, ret;

		s = tracedat_stream_open(r, 0, k, &err);
		assert_non_null(s);
		assert_int_equal(tracedat_stream_cpu(s), cpu);
		while ((ret = tracedat_stream_next(s, &pg)) > 0) {
			int64_t lost;

			/* CPU 2's short pages came back zero-padded, as made */
			make_page(v, cpu, i, want, &lost);
			assert_int_equal(pg.len, v->psize);
			assert_memory_equal(pg.data, want, v->psize);
			assert_int_equal(pg.index, i);
			assert_int_equal(pg.ts, 1000000ull * i + cpu);
			assert_int_equal(pg.lost, lost);
			assert_int_equal(pg.commit, (i * 37 + cpu * 11) %
					 (v->psize - 8 - 2 * v->lsize));
			i++;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(i, npages(cpu, scale));
		assert_int_equal(tracedat_stream_stats(s)->pages, i);
		assert_int_equal(tracedat_stream_stats(s)->lost_pages, cpu == 0 ? 2 : 0);
		assert_int_equal(tracedat_stream_stats(s)->lost_events, cpu == 0 ? 7 : 0);
		assert_int_equal(tracedat_stream_stats(s)->lost_unknown, cpu == 0 ? 1 : 0);
		/* the end stays the end */
		assert_int_equal(tracedat_stream_next(s, &pg), 0);
		if (k)
			tracedat_stream_close(s);	/* the first: closed by the reader */
	}
	free(want);
}

static void test_roundtrip(void **state)
{
	for (size_t vi = 0; vi < sizeof(variants) / sizeof(variants[0]); vi++) {
		const struct variant *v = &variants[vi];
		struct tracedat_reader *r;
		const struct tracedat_info *in;
		struct file f;
		uint64_t off;
		int fd, err;

		make_file(v, 20, &f);
		fd = mem_fd(f.buf, f.len);
		r = tracedat_reader_open_fd(fd, NULL, &err, &off);
		assert_non_null(r);
		in = tracedat_reader_info(r);
		assert_int_equal(in->version, v->version);
		assert_int_equal(in->big_endian, v->be);
		assert_int_equal(in->long_size, v->lsize);
		assert_int_equal(in->kernel_long_size, v->lsize);
		assert_int_equal(in->page_header_size, 8 + v->lsize);
		assert_int_equal(in->page_size, v->psize);
		assert_string_equal(in->compression, v->compress ? "zstd" : "none");
		assert_int_equal(in->ncpus, NCPUS);
		assert_int_equal(in->file_size, f.len);
		assert_string_equal(in->clock, "mono");
		assert_string_equal(in->trace_clock, "[mono]\n");
		assert_string_equal(in->uname, "Linux h 6.1 x86_64");
		assert_string_equal(in->cpustats, "CPU: 0\noverrun: 5\nCPU: 2\noverrun: 0\n");
		assert_int_equal(in->nbuffers, 1);
		assert_int_equal(in->unknown_options, 0);
		assert_int_equal(tracedat_reader_top_buffer(r), 0);
		check_meta(r, v);
		check_pages(r, v, 20);
		/* a second metadata walk starts over */
		check_meta(r, v);
		tracedat_reader_close(r);
		close(fd);
		free(f.buf);
	}
}

/* The writer writes front to back: its output may be a pipe. */
static void test_pipe_output(void **state)
{
	struct tracedat_write_opts o = {
		.version = 7, .compress = true, .long_size = 8, .page_size = 4096,
		.ncpus = 2,
	};
	struct file b = { NULL, 0 };
	int p[2], fd, err, status;
	pid_t pid;
	uint8_t buf[65536] = { 0 };
	ssize_t n;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct tracedat_writer *w;
		const char *hp = header_page(8);

		close(p[0]);
		w = tracedat_writer_new(p[1], &o, &err);
		if (!w || tracedat_writer_set_header_page(w, hp, strlen(hp)) ||
		    tracedat_writer_set_header_event(w, "e", 1))
			_exit(1);
		for (uint32_t i = 0; i < 50; i++)
			if (tracedat_writer_add_page(w, i % 2, buf, 64))
				_exit(1);
		_exit(tracedat_writer_finish(w) ? 1 : 0);
	}
	close(p[1]);
	while ((n = read(p[0], buf, sizeof(buf))) > 0) {
		b.buf = realloc(b.buf, b.len + (size_t)n);
		memcpy(b.buf + b.len, buf, (size_t)n);
		b.len += (size_t)n;
	}
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	fd = mem_fd(b.buf, b.len);
	{
		uint64_t off;
		struct tracedat_reader *r = tracedat_reader_open_fd(fd, NULL, &err, &off);
		struct tracedat_stream *s;
		struct tracedat_page pg;
		int k = 0;

		assert_non_null(r);
		s = tracedat_stream_open(r, 0, 1, &err);
		assert_non_null(s);
		while (tracedat_stream_next(s, &pg) > 0)
			k++;
		assert_int_equal(k, 25);
		tracedat_reader_close(r);
	}
	close(fd);
	free(b.buf);
}

/*
 * Open and walk everything; returns 0 or the first error, with *off its
 * offset.  Must never crash, whatever the bytes.
 */
/* pages come from bytes of the file: no endless walk */
static int count_page(void *ctx, const struct tracedat_buffer *b,
		      const struct tracedat_page *pg, uint64_t n)
{
	(void)ctx;
	(void)b;
	(void)pg;
	assert_true(n <= 1000000);
	return 0;
}

static int walk_all(const uint8_t *buf, size_t len, uint64_t *off,
		    const struct tracedat_read_opts *o)
{
	struct tracedat_reader *r;
	struct tracedat_meta m;
	int fd = mem_fd(buf, len), err, ret;

	*off = 0;
	r = tracedat_reader_open_fd(fd, o, &err, off);
	if (!r) {
		close(fd);
		return err;
	}
	while ((ret = tracedat_reader_meta_next(r, &m)) > 0)
		;
	if (!ret)
		ret = tdwalk_pages(r, count_page, NULL, NULL);
	if (ret < 0)
		*off = tracedat_reader_error_offset(r);
	tracedat_reader_close(r);
	close(fd);
	return ret < 0 ? ret : 0;
}

static bool named_file_error(int err)
{
	return err < 0 && err != -TRACEDAT_E_IO && err != -TRACEDAT_E_NOMEM &&
	       err != -TRACEDAT_E_INVAL && err != -TRACEDAT_E_STATE &&
	       err > -TRACEDAT_E_MAX;
}

/* A file cut anywhere fails with a named error at or before the cut. */
static void test_cut_everywhere(void **state)
{
	for (size_t vi = 0; vi < sizeof(variants) / sizeof(variants[0]); vi++) {
		const struct variant *v = &variants[vi];
		struct file f;
		uint64_t off;

		if (v->psize > 1024)
			continue;	/* small pages: a small file, every cut */
		make_file(v, 2, &f);
		assert_int_equal(walk_all(f.buf, f.len, &off, NULL), 0);
		for (size_t cut = 0; cut < f.len; cut++) {
			int err = walk_all(f.buf, cut, &off, NULL);

			if (!named_file_error(err) || off > cut)
				fail_msg("v%d%s cut at %zu of %zu: %d (%s) at offset %llu",
					 v->version, v->compress ? "z" : "", cut, f.len, err,
					 tracedat_strerror(err), (unsigned long long)off);
		}
		free(f.buf);
	}
}

/* Damaged bytes: a named error or a clean walk, never a crash. */
static void test_damage(void **state)
{
	for (size_t vi = 0; vi < sizeof(variants) / sizeof(variants[0]); vi++) {
		const struct variant *v = &variants[vi];
		struct file f;
		uint64_t off;
		unsigned int seed = 17;

		if (v->psize > 1024)
			continue;
		make_file(v, 2, &f);
		for (size_t i = 0; i < f.len; i += 1 + f.len / 1500) {
			static const uint8_t xors[] = { 0xff, 0x01, 0x80 };

			for (size_t x = 0; x < sizeof(xors); x++) {
				int err;

				f.buf[i] ^= xors[x];
				err = walk_all(f.buf, f.len, &off, NULL);
				if (err && (!named_file_error(err) || off > f.len))
					fail_msg("v%d byte %zu ^ %#x: %d at %llu", v->version, i,
						 xors[x], err, (unsigned long long)off);
				f.buf[i] ^= xors[x];
			}
		}
		/* and random runs of random bytes */
		for (int k = 0; k < 300; k++) {
			uint8_t *d = malloc(f.len);
			size_t at = (size_t)rand_r(&seed) % f.len, n = 1 + (size_t)rand_r(&seed) % 16;
			int err;

			memcpy(d, f.buf, f.len);
			for (size_t j = at; j < at + n && j < f.len; j++)
				d[j] = (uint8_t)rand_r(&seed);
			err = walk_all(d, f.len, &off, NULL);
			assert_true(!err || named_file_error(err));
			free(d);
		}
		free(f.buf);
	}
}

/* Offsets of the two options sections of a file from make_file (v7). */
static void options_sections(const struct file *f, bool be, uint64_t *first,
			     uint64_t *second)
{
	size_t hdr = TRACEDAT_MAGIC_LEN + 2 + 6;
	uint64_t size;

	hdr += strlen((const char *)f->buf + hdr) + 1;
	hdr += strlen((const char *)f->buf + hdr) + 1;
	*first = td_get64(f->buf + hdr, be);
	size = td_get64(f->buf + *first + 8, be);
	*second = td_get64(f->buf + *first + 16 + size - 8, be);
}

static int walk_patched(const struct file *f, uint64_t at, uint64_t v64, bool be,
			uint64_t *off)
{
	uint8_t *d = malloc(f->len);
	int err;

	memcpy(d, f->buf, f->len);
	td_put64(d + at, v64, be);
	err = walk_all(d, f->len, off, NULL);
	free(d);
	return err;
}

/* Crafted structures: loops, huge counts and sizes, bad pages. */
static void test_crafted(void **state)
{
	const struct variant *v7 = &variants[4], *v6 = &variants[0];
	uint64_t first, second, off, size;
	struct file f;
	int err;

	/* a chain of options sections that loops back */
	make_file(v7, 2, &f);
	options_sections(&f, false, &first, &second);
	size = td_get64(f.buf + second + 8, false);
	assert_int_equal(walk_patched(&f, second + 16 + size - 8, first, false, &off),
			 -TRACEDAT_E_BAD_OPTION);
	assert_int_equal(walk_patched(&f, second + 16 + size - 8, second, false, &off),
			 -TRACEDAT_E_BAD_OPTION);
	/* a section that claims the whole disk */
	assert_int_equal(walk_patched(&f, first + 8, 1ull << 60, false, &off),
			 -TRACEDAT_E_TRUNCATED);
	assert_int_equal(off, first);
	free(f.buf);

	/* v6: 4 G ftrace formats of 0 bytes each end at the end of the file */
	make_file(v6, 2, &f);
	{
		size_t hp = TRACEDAT_MAGIC_LEN + 2 + 6;
		uint64_t n1 = td_get64(f.buf + hp + 12, false);
		size_t ft = hp + 12 + 8 + n1 + 13;
		uint64_t n2 = td_get64(f.buf + ft, false);
		uint8_t *d = malloc(f.len);

		ft += 8 + n2;
		memcpy(d, f.buf, f.len);
		td_put32(d + ft, 0xffffffffu, false);
		memset(d + ft + 4, 0, f.len - ft - 4);
		err = walk_all(d, f.len, &off, NULL);
		assert_int_equal(err, -TRACEDAT_E_TRUNCATED);
		/* a format longer than the file */
		memcpy(d, f.buf, f.len);
		td_put64(d + ft + 4, f.len, false);
		assert_int_equal(walk_all(d, f.len, &off, NULL), -TRACEDAT_E_TRUNCATED);
		assert_int_equal(off, ft + 4);
		free(d);
	}
	free(f.buf);
}

/* A page whose commit runs past the page: the writer carries bytes, the
 * reader names the page. */
static void test_bad_page(void **state)
{
	uint8_t page[256] = { 0 };
	int fd = memfd_create("bad-page", 0), err;
	struct tracedat_writer *w = new_writer(fd, 7, true, sizeof(page));
	struct tracedat_reader *r;
	struct tracedat_stream *s;
	struct tracedat_page pg;
	uint64_t off;

	for (int i = 0; i < 25; i++) {
		td_put64(page + 8, i == 13 ? 241 : 240, false);	/* 256 - 16 = 240 */
		assert_int_equal(tracedat_writer_add_page(w, 0, page, sizeof(page)), 0);
	}
	assert_int_equal(tracedat_writer_finish(w), 0);
	tracedat_writer_free(w);
	r = tracedat_reader_open_fd(fd, NULL, &err, &off);
	assert_non_null(r);
	s = tracedat_stream_open(r, 0, 0, &err);
	assert_non_null(s);
	for (int i = 0; i < 13; i++)
		assert_int_equal(tracedat_stream_next(s, &pg), 1);
	assert_int_equal(tracedat_stream_next(s, &pg), -TRACEDAT_E_BAD_PAGE);
	/* page 13 is in the second chunk of 10 pages, after the first */
	assert_true(tracedat_stream_error_offset(s) > tracedat_reader_buffer(r, 0)->cpus[0].offset);
	assert_int_equal(tracedat_stream_next(s, &pg), -TRACEDAT_E_BAD_PAGE);
	tracedat_reader_close(r);
	close(fd);

	/* the page parser alone */
	{
		struct file f;
		struct tracedat_reader *r2;
		uint8_t p[256] = { 0 };

		make_file(&variants[0], 1, &f);
		fd = mem_fd(f.buf, f.len);
		r2 = tracedat_reader_open_fd(fd, NULL, &err, &off);
		assert_non_null(r2);
		td_put64(p + 8, 200 | TRACEDAT_MISSED_EVENTS | TRACEDAT_MISSED_STORED, false);
		assert_int_equal(tracedat_page_parse(r2, p, 216, &pg), -TRACEDAT_E_BAD_PAGE);
		assert_int_equal(tracedat_page_parse(r2, p, 224, &pg), 0);
		assert_int_equal(tracedat_page_parse(r2, p, 15, &pg), -TRACEDAT_E_BAD_PAGE);
		tracedat_reader_close(r2);
		close(fd);
		free(f.buf);
	}
}

/* A file of one CPU's zero pages with kallsyms of klen bytes. */
static void make_simple(int version, bool compress, uint32_t psize,
			size_t klen, uint32_t pages, struct file *f)
{
	int fd = memfd_create("simple", 0);
	struct tracedat_writer *w = new_writer(fd, version, compress, psize);
	char *k = malloc(klen + 1), *pg = calloc(1, psize);

	for (size_t i = 0; i < klen; i++)
		k[i] = "0123456789abcdef T sym\n"[i % 23];
	assert_int_equal(tracedat_writer_set_kallsyms(w, k, klen), 0);
	for (uint32_t i = 0; i < pages; i++) {
		pg[0] = (char)i;	/* timestamps, not to compress to nothing */
		assert_int_equal(tracedat_writer_add_page(w, 0, pg, psize), 0);
	}
	assert_int_equal(tracedat_writer_finish(w), 0);
	tracedat_writer_free(w);
	slurp(fd, f);
	close(fd);
	free(k);
	free(pg);
}

static void test_limits(void **state)
{
	struct tracedat_read_opts o = { 0 };
	struct file f;
	uint64_t off;
	int fd, err;

	/* 10 pages of 64 KiB per chunk: 640 KiB of memory for one stream */
	make_simple(7, true, 65536, 10, 25, &f);
	o.mem_limit = 400u << 10;
	assert_int_equal(walk_all(f.buf, f.len, &off, &o), -TRACEDAT_E_MEMLIMIT);
	o.mem_limit = 2u << 20;
	assert_int_equal(walk_all(f.buf, f.len, &off, &o), 0);
	free(f.buf);

	/* kallsyms beyond the item limit fail, unless skipped (never read) */
	for (int v = 6; v <= 7; v++) {
		make_simple(v, v == 7, 4096, 100000, 3, &f);
		o.mem_limit = 0;
		o.item_limit = 65536;
		o.flags = 0;
		assert_int_equal(walk_all(f.buf, f.len, &off, &o), -TRACEDAT_E_TOO_BIG);
		o.flags = TRACEDAT_R_SKIP_KALLSYMS;
		assert_int_equal(walk_all(f.buf, f.len, &off, &o), 0);
		o.item_limit = 0;
		o.flags = 0;
		assert_int_equal(walk_all(f.buf, f.len, &off, &o), 0);
		free(f.buf);
	}

	/* not a file */
	{
		int p[2];

		assert_int_equal(pipe(p), 0);
		assert_null(tracedat_reader_open_fd(p[0], NULL, &err, &off));
		assert_int_equal(err, -TRACEDAT_E_NOT_SEEKABLE);
		close(p[0]);
		close(p[1]);
	}
	/* not a trace.dat */
	fd = mem_fd((const uint8_t *)"IOREC\r\n\032 and more bytes", 24);
	assert_null(tracedat_reader_open_fd(fd, NULL, &err, &off));
	assert_int_equal(err, -TRACEDAT_E_BAD_MAGIC);
	close(fd);
	fd = mem_fd((const uint8_t *)TRACEDAT_MAGIC "8\0\0\x08\0\x10\0\0", 18);
	assert_null(tracedat_reader_open_fd(fd, NULL, &err, &off));
	assert_int_equal(err, -TRACEDAT_E_BAD_VERSION);
	assert_int_equal(off, TRACEDAT_MAGIC_LEN);
	close(fd);
}

static void test_writer_args(void **state)
{
	struct tracedat_write_opts o = { .version = 7, .long_size = 8,
					 .page_size = 4096, .ncpus = 2 };
	struct tracedat_writer *w;
	int err, fd;

	o.page_size = 3000;
	assert_null(tracedat_writer_new(1, &o, &err));
	assert_int_equal(err, -TRACEDAT_E_INVAL);
	o.page_size = 4096;
	o.version = 5;
	assert_null(tracedat_writer_new(1, &o, &err));
	o.version = 7;
	o.ncpus = 0;
	assert_null(tracedat_writer_new(1, &o, &err));
	o.ncpus = 2;
	o.long_size = 2;
	assert_null(tracedat_writer_new(1, &o, &err));
	o.long_size = 8;

	fd = open("/dev/full", O_WRONLY);
	assert_true(fd >= 0);
	w = tracedat_writer_new(fd, &o, &err);
	assert_non_null(w);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_OPT_BUFFER, "x", 1),
			 -TRACEDAT_E_INVAL);
	assert_int_equal(tracedat_writer_add_option(w, TRACEDAT_SEC_CMDLINES, "x", 1),
			 -TRACEDAT_E_INVAL);
	assert_int_equal(tracedat_writer_set_clock(w, "[x]"), -TRACEDAT_E_INVAL);
	assert_int_equal(tracedat_writer_add_page(w, 2, "x", 1), -TRACEDAT_E_INVAL);
	assert_int_equal(tracedat_writer_add_page(w, 0, "x", 4097), -TRACEDAT_E_INVAL);
	assert_int_equal(tracedat_writer_add_event_format(w, "", "x", 1), -TRACEDAT_E_INVAL);
	/* no header_page: refused */
	assert_int_equal(tracedat_writer_finish(w), -TRACEDAT_E_STATE);
	assert_int_equal(tracedat_writer_add_page(w, 0, "x", 1), -TRACEDAT_E_STATE);
	tracedat_writer_free(w);

	/* a full disk */
	w = tracedat_writer_new(fd, &o, &err);
	assert_int_equal(tracedat_writer_set_header_page(w, "h", 1), 0);
	assert_int_equal(tracedat_writer_set_header_event(w, "e", 1), 0);
	assert_int_equal(tracedat_writer_finish(w), -TRACEDAT_E_NOSPC);
	assert_int_equal(tracedat_writer_errno(w), ENOSPC);
	tracedat_writer_free(w);
	close(fd);
	tracedat_writer_free(NULL);
	tracedat_reader_close(NULL);
	tracedat_stream_close(NULL);
}

/* A .iorec of 2 CPUs with 256-byte pages; *cut_at: an offset inside its
 * last DATA chunk.  Without hp, no HEADER_PAGE chunk. */
static void make_iorec(struct file *f, bool hp, uint64_t *cut_at)
{
	int fd = memfd_create("iorec-src", 0);
	struct iorec_writer *w = iorec_writer_new(fd, 3, 4096);
	struct iorec_header h = {
		.endian = IOREC_ENDIAN_LITTLE, .long_size = 8, .page_size = 4096,
		.subbuf_size = 256, .ncpus = 2, .text = "clock=mono\n", .text_len = 11,
	};
	static const char snap[] = "\0\0\0\0\0\0\0\0uname\tLinux\t6.1.0\t#1 SMP\tx86_64\thost\n";
	static const char stats[] = "cpu\t0\toverrun\t5\ncpu\t0\tpages\t5\ncpu\t1\toverrun\t0\n";
	const char *hpt = header_page(8);
	static const struct { uint32_t cpu, npages; } data[] = {
		{ 0, 3 }, { 1, 2 }, { 0, 2 },
	};
	uint32_t next[2] = { 0, 0 };
	uint8_t *payload;
	size_t len;

	assert_non_null(w);
	assert_int_equal(iorec_header_encode(&h, &payload, &len), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_HEADER, NULL, 0, payload, len, false), 0);
	free(payload);
	if (hp)
		assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_HEADER_PAGE, NULL, 0,
						  hpt, strlen(hpt), true), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_HEADER_EVENT, NULL, 0, "e", 1, true), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_EVENT_FORMAT, NULL, 0,
					  "block\0name: a\n", 14, true), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_EVENT_FORMAT, NULL, 0,
					  "sched\0name: b\n", 14, true), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_PRINTK, NULL, 0, printk,
					  strlen(printk), true), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_SNAPSHOT, NULL, 0, snap,
					  sizeof(snap) - 1, true), 0);
	for (size_t i = 0; i < 3; i++) {
		struct iorec_data_desc d = { .cpu = data[i].cpu, .npages = data[i].npages,
					     .subbuf_size = 256 };
		uint8_t desc[IOREC_DATA_DESC_LEN], pages[5 * 256];
		const struct variant v = { 7, false, false, 8, 256 };
		int64_t lost;

		for (uint32_t k = 0; k < d.npages; k++)
			make_page(&v, d.cpu, next[d.cpu]++, pages + k * 256, &lost);
		iorec_data_desc_encode(&d, desc);
		if (i == 2) {
			assert_int_equal(iorec_writer_flush(w), 0);
			*cut_at = (uint64_t)lseek(fd, 0, SEEK_END) + 40;
		}
		assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_DATA, desc, sizeof(desc),
						  pages, d.npages * 256, true), 0);
	}
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_STATS, NULL, 0, stats,
					  sizeof(stats) - 1, true), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_CMDLINES, NULL, 0, cmdlines,
					  strlen(cmdlines), true), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_END, NULL, 0, "reason=t\n", 9, true), 0);
	assert_int_equal(iorec_writer_flush(w), 0);
	iorec_writer_free(w);
	slurp(fd, f);
	close(fd);
}

static int convert(const struct file *in, size_t len, struct file *out,
		   const char *extra, struct iorec_tracedat_result *res)
{
	struct iorec_tracedat_opts o = { .version = 7, .compress = true,
					 .writer_version = "test 1" };
	int ifd = mem_fd(in->buf, len), ofd = memfd_create("dat", 0), err, ret;
	struct iorec_reader *r;

	lseek(ifd, 0, SEEK_SET);
	r = iorec_reader_open_fd(ifd, &err);
	assert_non_null(r);
	o.extra_cmdlines = extra;
	o.extra_cmdlines_len = extra ? strlen(extra) : 0;
	ret = iorec_to_tracedat(r, ofd, &o, res);
	iorec_reader_close(r);
	close(ifd);
	slurp(ofd, out);
	close(ofd);
	return ret;
}

/* The cmdlines item and the pages of CPU cpu of a trace.dat; the caller
 * closes *rp, then *fdp. */
static void read_back(const struct file *f, char *cmd, size_t cmdsz,
		      uint32_t cpu, uint32_t *npages, const struct tracedat_info **infop,
		      struct tracedat_reader **rp, int *fdp)
{
	int fd = mem_fd(f->buf, f->len), err;
	uint64_t off;
	struct tracedat_reader *r = tracedat_reader_open_fd(fd, NULL, &err, &off);
	struct tracedat_meta m;
	const struct variant v = { 7, false, false, 8, 256 };
	uint8_t want[256];

	assert_non_null(r);
	*cmd = 0;
	while (tracedat_reader_meta_next(r, &m) > 0)
		if (m.kind == TRACEDAT_META_CMDLINES)
			snprintf(cmd, cmdsz, "%s", m.data);
	*npages = 0;
	for (uint32_t k = 0; k < tracedat_reader_buffer(r, 0)->ncpus; k++) {
		struct tracedat_stream *s;
		struct tracedat_page pg;
		int64_t lost;

		if (tracedat_reader_buffer(r, 0)->cpus[k].cpu != cpu)
			continue;
		s = tracedat_stream_open(r, 0, k, &err);
		while (tracedat_stream_next(s, &pg) > 0) {
			make_page(&v, cpu, (*npages)++, want, &lost);
			assert_memory_equal(pg.data, want, 256);
		}
	}
	*infop = tracedat_reader_info(r);
	*rp = r;
	*fdp = fd;
}

static void test_from_iorec(void **state)
{
	struct file rec, dat;
	struct iorec_tracedat_result res;
	const struct tracedat_info *in;
	struct tracedat_reader *r;
	uint64_t cut;
	uint32_t n;
	char cmd[256];
	int fd;

	make_iorec(&rec, true, &cut);
	assert_int_equal(convert(&rec, rec.len, &dat, "77 extra\n", &res), 0);
	assert_int_equal(res.read_err, 0);
	assert_int_equal(res.pages, 7);
	assert_int_equal(res.written, dat.len);
	read_back(&dat, cmd, sizeof(cmd), 0, &n, &in, &r, &fd);
	assert_string_equal(cmd, "1 init\n42 dd\n77 extra\n");
	assert_int_equal(n, 5);
	assert_string_equal(in->clock, "mono");
	assert_string_equal(in->uname, "Linux host 6.1.0 x86_64");
	assert_string_equal(in->writer_version, "test 1");
	assert_string_equal(in->cpustats, "CPU: 0\noverrun: 5\nCPU: 1\noverrun: 0\n");
	assert_int_equal(in->page_size, 256);
	assert_int_equal(in->ncpus, 2);
	tracedat_reader_close(r);
	close(fd);
	read_back(&dat, cmd, sizeof(cmd), 1, &n, &in, &r, &fd);
	assert_int_equal(n, 2);
	tracedat_reader_close(r);
	close(fd);
	free(dat.buf);

	/* a recording cut in its last DATA chunk: what came before */
	assert_int_equal(convert(&rec, cut, &dat, "77 extra\n", &res), 0);
	assert_int_equal(res.read_err, -IOREC_E_TRUNCATED);
	assert_int_equal(res.pages, 5);
	read_back(&dat, cmd, sizeof(cmd), 0, &n, &in, &r, &fd);
	assert_string_equal(cmd, "77 extra\n");	/* the CMDLINES chunk was cut off */
	assert_int_equal(n, 3);
	assert_string_equal(in->cpustats, "");
	tracedat_reader_close(r);
	close(fd);
	free(dat.buf);
	free(rec.buf);

	/* no header_page: no trace.dat */
	make_iorec(&rec, false, &cut);
	assert_int_equal(convert(&rec, rec.len, &dat, NULL, &res), -TRACEDAT_E_BAD_HEADER);
	assert_int_equal(dat.len, 0);
	free(dat.buf);
	free(rec.buf);
}

static void test_strerror(void **state)
{
	for (int e = TRACEDAT_E_BASE; e < TRACEDAT_E_MAX; e++) {
		assert_non_null(tracedat_strerror(-e));
		assert_true(strlen(tracedat_strerror(e)) > 5);
		assert_string_not_equal(tracedat_strerror(e), "unknown error");
	}
	assert_string_equal(tracedat_strerror(0), "success");
	assert_string_equal(tracedat_strerror(-TRACEDAT_E_MAX), "unknown error");
	/* apart from -1, -errno and the .iorec codes */
	assert_string_equal(tracedat_strerror(-1), "unknown error");
	assert_string_equal(tracedat_strerror(-EPERM), "unknown error");
	assert_string_equal(tracedat_strerror(-IOREC_E_IO), "unknown error");
	assert_string_equal(iorec_strerror(-TRACEDAT_E_IO), "unknown error");
	assert_string_equal(iorec_strerror(-1), "unknown error");
	assert_true(IOREC_E_MAX < TRACEDAT_E_BASE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_pipe_output),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_crafted),
		cmocka_unit_test(test_bad_page),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_writer_args),
		cmocka_unit_test(test_from_iorec),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
