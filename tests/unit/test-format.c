// SPDX-License-Identifier: MIT
/*
 * test-format.c - unit tests of the .iorec container: round trip, a cut at
 * every offset, every kind of corruption the reader must name, and the
 * bounds of the HEADER's and DATA descriptors' fields.
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
#include <unistd.h>
#include <cmocka.h>

#include "iorec-format.h"

struct file {
	uint8_t *buf;
	size_t len;
	/* chunk boundaries: start offsets and the offset past the last */
	uint64_t starts[64];
	int nchunks;
};

/* Write bytes into an anonymous file and return an fd positioned at 0. */
static int mem_fd(const uint8_t *buf, size_t len)
{
	int fd = memfd_create("iorec-test", 0);

	assert_true(fd >= 0);
	if (len)
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static void slurp(int fd, struct file *f)
{
	off_t len = lseek(fd, 0, SEEK_END);

	f->len = (size_t)len;
	f->buf = malloc(f->len);
	assert_non_null(f->buf);
	assert_int_equal(pread(fd, f->buf, f->len, 0), (ssize_t)f->len);
}

/* Build a file with a header, texts, several DATA chunks and an END. */
static void make_file(struct file *f)
{
	int fd = memfd_create("iorec-src", 0);
	struct iorec_writer *w = iorec_writer_new(fd, 3, 4096);
	struct iorec_header h = {
		.endian = IOREC_ENDIAN_LITTLE, .long_size = 8,
		.page_size = 4096, .subbuf_size = 256, .ncpus = 2,
		.text = "clock=mono\nkernel=6.1\n", .text_len = 22,
	};
	uint8_t *hp, pages[256 * 4], desc[IOREC_DATA_DESC_LEN];
	size_t hlen;
	int i;

	assert_non_null(w);
	assert_int_equal(iorec_header_encode(&h, &hp, &hlen), 0);
	f->nchunks = 0;
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_HEADER, NULL, 0, hp,
					  hlen, false), 0);
	free(hp);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_HEADER_PAGE, NULL, 0,
					  "field: u64 timestamp;", 21, true), 0);
	for (i = 0; i < 6; i++) {
		struct iorec_data_desc d = {
			.cpu = (uint32_t)(i % 2), .npages = 4,
			.subbuf_size = 256, .first_ts = 1000u * i,
			.last_ts = 1000u * i + 999,
		};

		for (size_t k = 0; k < sizeof(pages); k++)
			pages[k] = (uint8_t)(k * 7 + i + (k / 13));
		iorec_data_desc_encode(&d, desc);
		assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_DATA, desc,
						  sizeof(desc), pages,
						  sizeof(pages), i != 3), 0);
	}
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_END, NULL, 0,
					  "reason=test\n", 12, false), 0);
	assert_int_equal(iorec_writer_flush(w), 0);
	assert_int_equal(iorec_writer_chunks(w), 9);
	iorec_writer_free(w);
	slurp(fd, f);
	close(fd);

	/* Find the chunk boundaries from the headers' lengths. */
	{
		uint64_t off = IOREC_FILE_HEADER_LEN;

		while (off < f->len) {
			f->starts[f->nchunks++] = off;
			off += IOREC_CHUNK_HEADER_LEN +
			       iorec_get32(f->buf + off + 12);
		}
		assert_int_equal(off, f->len);
		f->starts[f->nchunks] = off;
	}
}

/* Read everything; returns chunks read, *err the final status. */
static int read_all(const uint8_t *buf, size_t len, int *err, uint64_t *eoff)
{
	struct iorec_chunk c;
	struct iorec_reader *r;
	int fd = mem_fd(buf, len), n = 0, ret;

	r = iorec_reader_open_fd(fd, err);
	if (!r) {
		close(fd);
		*eoff = 0;
		return -1;
	}
	while ((ret = iorec_reader_next(r, &c, true)) > 0)
		n++;
	*err = ret;
	*eoff = iorec_reader_error_offset(r);
	iorec_reader_close(r);
	close(fd);
	return n;
}

static void test_crc32c(void **state)
{
	(void)state;
	assert_int_equal(iorec_crc32c(0, "123456789", 9), 0xE3069283u);
	assert_int_equal(iorec_crc32c(iorec_crc32c(0, "1234", 4), "56789", 5),
			 0xE3069283u);
}

/* Bit-at-a-time reference for the table-driven CRC. */
static uint32_t crc_ref(const uint8_t *p, size_t len)
{
	uint32_t c = 0xffffffffu;

	while (len--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
	}
	return ~c;
}

static void test_crc32c_long(void **state)
{
	uint8_t buf[1031];
	unsigned int seed = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand_r(&seed);
	/* every alignment and a spread of lengths through the 8-byte path */
	for (size_t off = 0; off < 9; off++)
		for (size_t len = 0; len + off <= sizeof(buf); len += 37)
			assert_int_equal(iorec_crc32c(0, buf + off, len),
					 crc_ref(buf + off, len));
}

static void test_roundtrip(void **state)
{
	struct file f;
	struct iorec_chunk c;
	struct iorec_reader *r;
	struct iorec_header h;
	int err, fd, n = 0;
	char v[32];

	(void)state;
	make_file(&f);
	fd = mem_fd(f.buf, f.len);
	r = iorec_reader_open_fd(fd, &err);
	assert_non_null(r);
	while (iorec_reader_next(r, &c, true) > 0) {
		assert_int_equal(c.seq, n);
		assert_int_equal(c.offset, f.starts[n]);
		if (n == 0) {
			assert_int_equal(c.type, IOREC_CHUNK_HEADER);
			assert_int_equal(iorec_header_parse(c.payload,
						c.payload_len, &h), 0);
			assert_int_equal(h.ncpus, 2);
			assert_int_equal(h.subbuf_size, 256);
			assert_int_equal(iorec_kv_get(h.text, h.text_len,
						      "kernel", v, sizeof(v)), 3);
			assert_string_equal(v, "6.1");
			assert_int_equal(iorec_kv_get(h.text, h.text_len,
						      "nope", v, sizeof(v)), -1);
		}
		if (c.type == IOREC_CHUNK_DATA) {
			int i = n - 2;

			assert_int_equal(c.data.cpu, i % 2);
			assert_int_equal(c.data.npages, 4);
			assert_int_equal(c.payload_len,
					 IOREC_DATA_DESC_LEN + 1024);
			assert_int_equal(c.payload[IOREC_DATA_DESC_LEN + 100],
					 (uint8_t)(700 + i + 100 / 13));
			assert_int_equal(!!(c.flags & IOREC_CF_ZSTD), i != 3);
		}
		n++;
	}
	assert_int_equal(n, 9);
	assert_true(iorec_reader_seen_end(r));
	/* random access by offset, as an index would */
	assert_int_equal(iorec_reader_read_at(r, f.starts[4], &c), 0);
	assert_int_equal(c.type, IOREC_CHUNK_DATA);
	assert_int_equal(c.data.first_ts, 2000);
	iorec_reader_close(r);
	close(fd);
	free(f.buf);
}

/* A cut at any byte offset reads back every chunk that ends before it. */
static void test_cut_everywhere(void **state)
{
	struct file f;
	uint64_t eoff;
	int err;

	(void)state;
	make_file(&f);
	for (size_t cut = 0; cut <= f.len; cut++) {
		int n = read_all(f.buf, cut, &err, &eoff);
		int complete = 0;

		if (cut < IOREC_MAGIC_LEN) {
			assert_int_equal(n, -1);
			assert_int_equal(err, -IOREC_E_BAD_MAGIC);
			continue;
		}
		if (cut < IOREC_FILE_HEADER_LEN) {
			assert_int_equal(n, -1);
			assert_int_equal(err, -IOREC_E_TRUNCATED);
			continue;
		}
		while (complete < f.nchunks && f.starts[complete + 1] <= cut)
			complete++;
		assert_int_equal(n, complete);
		if (cut == f.starts[complete]) {
			assert_int_equal(err, 0);	/* clean boundary */
		} else {
			assert_int_equal(err, -IOREC_E_TRUNCATED);
			assert_int_equal(eoff, f.starts[complete]);
		}
	}
	free(f.buf);
}

/*
 * A real recording (samples/rawsyscalls.iorec) cut at a dense sample of
 * offsets: every byte of the first 4 KiB and around every chunk boundary,
 * every 7th byte elsewhere.  Each cut reads back exactly the chunks that
 * end before it and stops with "truncated" at the first incomplete one.
 */
static void test_cut_real_sample(void **state)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	uint64_t starts[4096];
	int nchunks = 0;
	uint8_t *buf;
	FILE *f;
	long len;
	uint64_t off;
	size_t cuts = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/samples/rawsyscalls.iorec",
		 top ? top : ".");
	f = fopen(path, "rb");
	if (!f)
		skip();
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	for (off = IOREC_FILE_HEADER_LEN; off < (uint64_t)len;
	     off += IOREC_CHUNK_HEADER_LEN + iorec_get32(buf + off + 12)) {
		assert_true(nchunks < 4095);
		starts[nchunks++] = off;
	}
	assert_int_equal(off, (uint64_t)len);
	starts[nchunks] = off;
	assert_true(nchunks > 10);

	for (uint64_t cut = IOREC_FILE_HEADER_LEN; cut <= (uint64_t)len; cut++) {
		int complete = 0, n, err;
		uint64_t eoff;
		bool near = cut < 4096;

		while (complete < nchunks && starts[complete + 1] <= cut)
			complete++;
		near = near || cut - starts[complete] < 40 ||
		       (complete < nchunks && starts[complete + 1] - cut < 40);
		if (!near && cut % 7)
			continue;
		cuts++;
		n = read_all(buf, cut, &err, &eoff);
		assert_int_equal(n, complete);
		if (cut == starts[complete]) {
			assert_int_equal(err, 0);
		} else {
			assert_int_equal(err, -IOREC_E_TRUNCATED);
			assert_int_equal(eoff, starts[complete]);
		}
	}
	print_message("cut %s at %zu offsets (%d chunks, %ld bytes)\n", path,
		      cuts, nchunks, len);
	free(buf);
}

/* Rewrite the header CRC of the chunk at off after editing its header. */
static void reseal(uint8_t *buf, uint64_t off)
{
	iorec_put32(buf + off + 28, iorec_crc32c(0, buf + off, 28));
}

static void expect(const uint8_t *buf, size_t len, int want_err,
		   uint64_t want_off, int want_n)
{
	uint64_t eoff;
	int err, n = read_all(buf, len, &err, &eoff);

	assert_int_equal(err, want_err);
	assert_int_equal(n, want_n);
	if (want_n >= 0)
		assert_int_equal(eoff, want_off);
}

static void test_corruption(void **state)
{
	struct file f;
	uint8_t *b;
	uint64_t c4;

	(void)state;
	make_file(&f);
	b = malloc(f.len);
	c4 = f.starts[4];

	memcpy(b, f.buf, f.len);
	b[0] = 'X';
	expect(b, f.len, -IOREC_E_BAD_MAGIC, 0, -1);

	memcpy(b, f.buf, f.len);
	iorec_put16(b + 8, 2);
	expect(b, f.len, -IOREC_E_BAD_VERSION, 0, -1);

	/* two damaged bytes in a payload (one is mended: test_mend_one) */
	memcpy(b, f.buf, f.len);
	b[c4 + IOREC_CHUNK_HEADER_LEN + 40] ^= 0x10;
	b[c4 + IOREC_CHUNK_HEADER_LEN + 41] ^= 0x10;
	expect(b, f.len, -IOREC_E_PAYLOAD_CRC, c4, 4);

	/* two in a chunk header */
	memcpy(b, f.buf, f.len);
	b[c4 + 13] ^= 0x01;
	b[c4 + 17] ^= 0x01;
	expect(b, f.len, -IOREC_E_HEADER_CRC, c4, 4);

	memcpy(b, f.buf, f.len);
	b[c4] ^= 0xff;
	b[c4 + 1] ^= 0xff;
	expect(b, f.len, -IOREC_E_CHUNK_MAGIC, c4, 4);

	/* a lying length, resealed: longer than the file */
	memcpy(b, f.buf, f.len);
	iorec_put32(b + c4 + 12, 60u << 20);
	reseal(b, c4);
	expect(b, f.len, -IOREC_E_TRUNCATED, c4, 4);

	/* a lying length beyond any chunk */
	memcpy(b, f.buf, f.len);
	iorec_put32(b + c4 + 12, 0xfffffff0u);
	reseal(b, c4);
	expect(b, f.len, -IOREC_E_BAD_LENGTH, c4, 4);

	/* a lying length that stays inside the file */
	memcpy(b, f.buf, f.len);
	iorec_put32(b + c4 + 12, iorec_get32(b + c4 + 12) - 8);
	reseal(b, c4);
	expect(b, f.len, -IOREC_E_PAYLOAD_CRC, c4, 4);

	/* a sequence gap */
	memcpy(b, f.buf, f.len);
	iorec_put32(b + c4 + 8, 7);
	reseal(b, c4);
	expect(b, f.len, -IOREC_E_BAD_SEQ, c4, 4);

	/* a file that does not start with a header chunk */
	memcpy(b, f.buf, f.len);
	iorec_put16(b + f.starts[0] + 4, IOREC_CHUNK_NOTE);
	reseal(b, f.starts[0]);
	expect(b, f.len, -IOREC_E_NO_HEADER, f.starts[0], 0);

	/* a DATA descriptor whose page count disagrees with the length */
	memcpy(b, f.buf, f.len);
	iorec_put32(b + c4 + IOREC_CHUNK_HEADER_LEN + 4, 5);
	iorec_put32(b + c4 + 20, iorec_crc32c(0, b + c4 + 32,
					      iorec_get32(b + c4 + 12)));
	reseal(b, c4);
	expect(b, f.len, -IOREC_E_BAD_LENGTH, c4, 4);

	/* garbage in a zstd body with a valid checksum */
	memcpy(b, f.buf, f.len);
	memset(b + c4 + 32 + IOREC_DATA_DESC_LEN + 4, 0xA5, 8);
	iorec_put32(b + c4 + 20, iorec_crc32c(0, b + c4 + 32,
					      iorec_get32(b + c4 + 12)));
	reseal(b, c4);
	expect(b, f.len, -IOREC_E_DECOMPRESS, c4, 4);

	/* a chunk after the end chunk */
	{
		size_t extra = f.starts[2] - f.starts[1];
		uint8_t *big = malloc(f.len + extra);

		memcpy(big, f.buf, f.len);
		memcpy(big + f.len, f.buf + f.starts[1], extra);
		iorec_put32(big + f.len + 8, 9);
		reseal(big, f.len);
		expect(big, f.len + extra, -IOREC_E_AFTER_END, f.len, 9);
		free(big);
	}
	free(b);
	free(f.buf);
}

/* Random damage: the reader must always stop, and never crash. */
static void test_random_damage(void **state)
{
	struct file f;
	uint8_t *b;
	unsigned int seed = 12345;

	(void)state;
	make_file(&f);
	b = malloc(f.len);
	for (int it = 0; it < 3000; it++) {
		uint64_t eoff;
		int err, n;

		memcpy(b, f.buf, f.len);
		for (int k = 0; k < 1 + it % 4; k++)
			b[rand_r(&seed) % f.len] ^= (uint8_t)(1 + rand_r(&seed) % 255);
		n = read_all(b, f.len, &err, &eoff);
		assert_true(n <= f.nchunks);
		assert_true(err <= 0);
		if (err < 0 && n >= 0)
			assert_true(eoff <= f.len);
	}
	free(b);
	free(f.buf);
}

/*
 * One damaged byte anywhere after the file header, of any value: every
 * chunk is read whole, each payload equal to the intact file's, and the
 * reader counts one mend at that byte's offset.
 */
static void test_mend_one(void **state)
{
	struct file f;
	uint8_t *b;
	unsigned int seed = 777;
	int mended = 0;

	(void)state;
	make_file(&f);
	b = malloc(f.len);
	for (size_t pos = 16; pos < f.len; pos++) {
		struct iorec_chunk c, o;
		struct iorec_reader *r, *ro;
		int fd, fdo, err, n = 0, ret;
		uint64_t at = 0;

		memcpy(b, f.buf, f.len);
		b[pos] ^= (uint8_t)(1 + rand_r(&seed) % 255);
		fd = mem_fd(b, f.len);
		fdo = mem_fd(f.buf, f.len);
		r = iorec_reader_open_fd(fd, &err);
		ro = iorec_reader_open_fd(fdo, &err);
		assert_non_null(r);
		assert_non_null(ro);
		while ((ret = iorec_reader_next(r, &c, true)) > 0) {
			assert_int_equal(iorec_reader_next(ro, &o, true), 1);
			assert_int_equal(c.type, o.type);
			assert_int_equal(c.payload_len, o.payload_len);
			assert_memory_equal(c.payload, o.payload, c.payload_len);
			n++;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(n, f.nchunks);
		assert_int_equal(iorec_reader_repairs(r, &at), 1);
		assert_int_equal(at, pos);
		mended++;
		iorec_reader_close(r);
		iorec_reader_close(ro);
		close(fd);
		close(fdo);
	}
	assert_int_equal(mended, (int)f.len - 16);
	free(b);
	free(f.buf);
}

static void test_writer_enospc(void **state)
{
	/* /dev/full fails every write with ENOSPC */
	int fd = open("/dev/full", O_WRONLY);
	struct iorec_writer *w;
	uint8_t big[8192] = { 0 };

	(void)state;
	if (fd < 0)
		skip();
	w = iorec_writer_new(fd, 1, 4096);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_NOTE, NULL, 0, big,
					  sizeof(big), false),
			 -IOREC_E_NOSPC);
	assert_int_equal(iorec_writer_errno(w), ENOSPC);
	/* a failed writer refuses further chunks */
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_NOTE, NULL, 0, "x", 1,
					  false), -IOREC_E_NOSPC);
	iorec_writer_free(w);
	close(fd);
}

/* A copy keeps an older minor version; only before the first chunk. */
static void test_writer_version(void **state)
{
	static const char text[] = "kernel=6.1\n";
	struct iorec_header h = {
		.endian = IOREC_ENDIAN_LITTLE, .long_size = 8,
		.page_size = 4096, .subbuf_size = 256, .ncpus = 1,
		.text = text, .text_len = sizeof(text) - 1,
	};
	int fd = memfd_create("iorec-version", 0), err;
	struct iorec_writer *w = iorec_writer_new(fd, 1, 0);
	struct iorec_reader *r;
	struct iorec_chunk c;
	uint16_t major, minor;
	uint8_t *hb;
	size_t hl;

	(void)state;
	assert_true(fd >= 0);
	assert_non_null(w);
	assert_int_equal(iorec_writer_set_version(w, 2, 0),
			 -IOREC_E_BAD_VERSION);
	assert_int_equal(iorec_writer_set_version(w, 1,
						  IOREC_VERSION_MINOR + 1),
			 -IOREC_E_BAD_VERSION);
	assert_int_equal(iorec_writer_set_version(w, 1, 0), 0);
	assert_int_equal(iorec_header_encode(&h, &hb, &hl), 0);
	assert_int_equal(iorec_writer_add(w, IOREC_CHUNK_HEADER, NULL, 0, hb,
					  hl, false), 0);
	free(hb);
	assert_int_equal(iorec_writer_set_version(w, 1, 1), -IOREC_E_INVAL);
	assert_int_equal(iorec_writer_flush(w), 0);
	iorec_writer_free(w);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	r = iorec_reader_open_fd(fd, &err);
	assert_non_null(r);
	iorec_reader_version(r, &major, &minor);
	assert_int_equal(major, 1);
	assert_int_equal(minor, 0);
	assert_int_equal(iorec_reader_next(r, &c, true), 1);
	assert_int_equal(c.type, IOREC_CHUNK_HEADER);
	iorec_reader_close(r);
	close(fd);
}

/* h encoded, then parsed: iorec_header_parse()'s answer. */
static int header_round(const struct iorec_header *h)
{
	struct iorec_header back;
	uint8_t *hb;
	size_t hl;
	int ret;

	assert_int_equal(iorec_header_encode(h, &hb, &hl), 0);
	ret = iorec_header_parse(hb, hl, &back);
	if (!ret)
		assert_int_equal(back.ncpus, h->ncpus);
	free(hb);
	return ret;
}

/* d encoded, then parsed: iorec_data_desc_parse()'s answer. */
static int desc_round(const struct iorec_data_desc *d)
{
	struct iorec_data_desc back;
	uint8_t desc[IOREC_DATA_DESC_LEN];
	int ret;

	iorec_data_desc_encode(d, desc);
	ret = iorec_data_desc_parse(desc, sizeof(desc), &back);
	if (!ret)
		assert_int_equal(back.cpu, d->cpu);
	return ret;
}

/*
 * The bounds of the fixed fields: a HEADER of IOREC_MAX_CPUS CPUs is
 * read, one more is not; so a DATA descriptor's CPU number is below
 * IOREC_MAX_CPUS.  IOREC_MAX_CPUS itself used to pass: the reader checks
 * the CPU against the HEADER's count only once it has one, so a DATA
 * chunk read by offset before it (iorec_reader_read_at()), or a
 * descriptor a libiorec user parses, could name a CPU no recording has.
 * Sub-buffer sizes from IOREC_MIN_SUBBUF to IOREC_MAX_SUBBUF.
 */
static void test_field_bounds(void **state)
{
	/* a CPU count (HEADER) or number (DATA), sub-buffer size, answer */
	static const struct {
		uint32_t cpus, subbuf;
		int ret;
	} hcase[] = {
		{ IOREC_MAX_CPUS, IOREC_MIN_SUBBUF, 0 },
		{ IOREC_MAX_CPUS + 1, IOREC_MIN_SUBBUF, -IOREC_E_BAD_PAYLOAD },
		{ 0, IOREC_MIN_SUBBUF, -IOREC_E_BAD_PAYLOAD },
		{ 1, IOREC_MAX_SUBBUF, 0 },
		{ 1, IOREC_MIN_SUBBUF - 1, -IOREC_E_BAD_PAYLOAD },
		{ 1, IOREC_MAX_SUBBUF + 1, -IOREC_E_BAD_PAYLOAD },
	}, dcase[] = {
		{ IOREC_MAX_CPUS - 1, IOREC_MAX_SUBBUF, 0 },
		{ IOREC_MAX_CPUS, IOREC_MAX_SUBBUF, -IOREC_E_BAD_PAYLOAD },
		{ 0, IOREC_MIN_SUBBUF, 0 },
		{ 0, IOREC_MIN_SUBBUF - 1, -IOREC_E_BAD_PAYLOAD },
		{ 0, IOREC_MAX_SUBBUF + 1, -IOREC_E_BAD_PAYLOAD },
	};
	struct iorec_header h = {
		.endian = IOREC_ENDIAN_LITTLE, .long_size = 8,
		.page_size = 4096,
	};
	struct iorec_data_desc d = { .npages = 1, .first_ts = 1, .last_ts = 2 };

	(void)state;
	for (size_t i = 0; i < sizeof(hcase) / sizeof(hcase[0]); i++) {
		h.ncpus = hcase[i].cpus;
		h.subbuf_size = hcase[i].subbuf;
		assert_int_equal(header_round(&h), hcase[i].ret);
	}
	for (size_t i = 0; i < sizeof(dcase) / sizeof(dcase[0]); i++) {
		d.cpu = dcase[i].cpus;
		d.subbuf_size = dcase[i].subbuf;
		assert_int_equal(desc_round(&d), dcase[i].ret);
	}
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(iorec_strerror(-IOREC_E_PAYLOAD_CRC),
			    "chunk payload checksum mismatch");
	assert_string_equal(iorec_strerror(0), "success");
	assert_string_equal(iorec_strerror(-9999), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_crc32c_long),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_cut_real_sample),
		cmocka_unit_test(test_corruption),
		cmocka_unit_test(test_random_damage),
		cmocka_unit_test(test_mend_one),
		cmocka_unit_test(test_writer_enospc),
		cmocka_unit_test(test_writer_version),
		cmocka_unit_test(test_field_bounds),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
