// SPDX-License-Identifier: MIT
/*
 * reader.c - reads a .iorec stream chunk by chunk, checking every length,
 * checksum and sequence number; stops at damage with the offset of the
 * chunk that could not be read, and on request resynchronises to the next
 * valid chunk after it.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "fmt-util.h"
#include "iorec-format.h"

struct iorec_reader {
	int fd;
	bool own_fd;
	bool seekable;
	bool seen_header;
	bool seen_end;
	int stopped;		/* negative error once stopped, 1 at clean end */
	uint16_t major, minor;
	uint32_t next_seq;
	uint64_t offset;	/* offset of the next chunk header */
	uint64_t err_offset;
	/* from the HEADER chunk, to check DATA descriptors */
	uint32_t ncpus, subbuf_size;
	/* bytes iorec_reader_resync() may still read (see there) */
	uint64_t resync_budget;
	bool budget_set;
	uint8_t *stored;	/* payload as in the file */
	size_t stored_cap;
	uint8_t *raw;		/* decompressed payload */
	size_t raw_cap;
	ZSTD_DCtx *dctx;
	/* bytes mended from a chunk's CRC (iorec_reader_repairs()) */
	uint64_t repairs, repair_offset;
};

/*
 * Read up to n bytes at off (at the current position when not seekable):
 * fmt_read_all(), fewer only at the end of the file.
 */
static ssize_t rd(struct iorec_reader *r, void *buf, size_t n, uint64_t off)
{
	return fmt_read_all(r->fd, buf, n, r->seekable ? &off : NULL);
}

static struct iorec_reader *open_common(int fd, bool own, int *err)
{
	struct iorec_reader *r = calloc(1, sizeof(*r));
	uint8_t h[IOREC_FILE_HEADER_LEN];
	struct stat st;
	ssize_t n;

	if (!r) {
		*err = -IOREC_E_NOMEM;
		return NULL;
	}
	r->fd = fd;
	r->own_fd = own;
	r->seekable = !fstat(fd, &st) && S_ISREG(st.st_mode);
	n = rd(r, h, sizeof(h), 0);
	if (n < 0) {
		*err = -IOREC_E_IO;
		goto fail;
	}
	if (n < IOREC_MAGIC_LEN || memcmp(h, IOREC_MAGIC, IOREC_MAGIC_LEN)) {
		*err = -IOREC_E_BAD_MAGIC;
		goto fail;
	}
	if (n < (ssize_t)sizeof(h)) {
		*err = -IOREC_E_TRUNCATED;
		goto fail;
	}
	r->major = iorec_get16(h + 8);
	r->minor = iorec_get16(h + 10);
	if (r->major != IOREC_VERSION_MAJOR) {
		*err = -IOREC_E_BAD_VERSION;
		goto fail;
	}
	r->offset = IOREC_FILE_HEADER_LEN;
	*err = 0;
	return r;
fail:
	r->own_fd = false;	/* the caller still owns fd on failure */
	iorec_reader_close(r);
	return NULL;
}

struct iorec_reader *iorec_reader_open_fd(int fd, int *err)
{
	return open_common(fd, false, err);
}

struct iorec_reader *iorec_reader_open(const char *path, int *err)
{
	struct iorec_reader *r;
	int fd;

	if (!strcmp(path, "-"))
		return open_common(STDIN_FILENO, false, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = -IOREC_E_IO;
		return NULL;
	}
	r = open_common(fd, true, err);
	if (!r)
		close(fd);
	return r;
}

/* Payload prefix stored uncompressed before the zstd body, per type. */
static size_t prefix_len(uint16_t type)
{
	return type == IOREC_CHUNK_DATA ? IOREC_DATA_DESC_LEN : 0;
}

/* Count a chunk read whole after a mend (offset + 1, 0: none); 1. */
static int mended(struct iorec_reader *r, uint64_t hdr_fixed,
		  uint64_t body_fixed)
{
	if (hdr_fixed || body_fixed) {
		r->repairs++;
		r->repair_offset = (hdr_fixed ? hdr_fixed : body_fixed) - 1;
	}
	return 1;
}

/*
 * A chunk header whose magic or CRC is wrong by one byte: the one byte of
 * the 32 whose change makes both right, mended in h (1), or -1 when no
 * byte or more than one would.
 */
static int repair_header(uint8_t *h, size_t *pos)
{
	struct iorec_chunk_hdr hd;
	int found = 0;
	size_t at = 0;
	uint8_t val = 0;

	for (size_t i = 0; i < IOREC_CHUNK_HEADER_LEN; i++) {
		uint8_t orig = h[i];

		for (int v = 0; v < 256; v++) {
			if (v == orig)
				continue;
			h[i] = (uint8_t)v;
			if (!iorec_chunk_hdr_get(h, &hd)) {
				found++;
				at = i;
				val = (uint8_t)v;
			}
		}
		h[i] = orig;
	}
	if (found != 1)
		return -1;
	h[at] = val;
	*pos = at;
	return 1;
}

/*
 * Read the chunk at off into c.  Checks everything that does not depend on
 * the position in the stream (sequence and order are checked by the
 * caller).  *end is set to the offset just past the chunk.
 */
static int read_chunk(struct iorec_reader *r, uint64_t off,
		      struct iorec_chunk *c, bool load, uint64_t *end)
{
	uint8_t h[IOREC_CHUNK_HEADER_LEN];
	struct iorec_chunk_hdr hd;
	uint64_t hdr_fixed = 0, body_fixed = 0;	/* offset + 1 of a mend */
	size_t pre;
	ssize_t n;
	int ret;

	memset(c, 0, sizeof(*c));
	c->offset = off;
	n = rd(r, h, sizeof(h), off);
	if (n < 0)
		return -IOREC_E_IO;
	if (n == 0)
		return 0;
	if (n < (ssize_t)sizeof(h))
		return -IOREC_E_TRUNCATED;
	ret = iorec_chunk_hdr_get(h, &hd);
	/* one damaged byte in the header is mended where exactly one byte
	 * explains the wrong magic or CRC (a random place never does) */
	if (ret == -IOREC_E_HEADER_CRC ||
	    (ret == -IOREC_E_CHUNK_MAGIC &&
	     __builtin_popcount(iorec_get32(h) ^ IOREC_CHUNK_MAGIC) <= 8)) {
		size_t pos;

		if (repair_header(h, &pos) == 1) {
			ret = iorec_chunk_hdr_get(h, &hd);
			hdr_fixed = off + pos + 1;
		}
	}
	if (ret)
		return ret;
	c->type = hd.type;
	c->flags = hd.flags;
	c->seq = hd.seq;
	c->stored_len = hd.stored_len;
	c->raw_len = hd.raw_len;
	if (c->stored_len > IOREC_CHUNK_MAX_STORED ||
	    c->raw_len > IOREC_CHUNK_MAX_RAW ||
	    (!(c->flags & IOREC_CF_ZSTD) && c->raw_len != c->stored_len) ||
	    (c->type == IOREC_CHUNK_DATA &&
	     c->raw_len > IOREC_DATA_DESC_LEN + IOREC_DATA_MAX_PAGES_BYTES))
		return -IOREC_E_BAD_LENGTH;
	if (c->flags & ~IOREC_CF_ZSTD)
		return -IOREC_E_BAD_PAYLOAD;
	if (c->type == IOREC_CHUNK_HEADER && (c->flags & IOREC_CF_ZSTD))
		return -IOREC_E_BAD_HEADER;
	pre = prefix_len(c->type);
	if (c->stored_len < pre || c->raw_len < pre)
		return -IOREC_E_BAD_LENGTH;

	if (fmt_grow((void **)&r->stored, &r->stored_cap, c->stored_len + 1, 0))
		return -IOREC_E_NOMEM;
	n = rd(r, r->stored, c->stored_len, off + sizeof(h));
	if (n < 0)
		return -IOREC_E_IO;
	if ((size_t)n < c->stored_len)
		return -IOREC_E_TRUNCATED;
	if (hd.payload_crc != iorec_crc32c(0, r->stored, c->stored_len)) {
		size_t pos;

		/* one damaged byte: mended when exactly one byte explains the
		 * CRC (a compressed payload must then decode to its size too,
		 * below), else the chunk is damaged */
		if (hdr_fixed || iorec_crc32c_repair1(r->stored, c->stored_len,
						      hd.payload_crc, &pos) != 1)
			return -IOREC_E_PAYLOAD_CRC;
		body_fixed = off + sizeof(h) + pos + 1;
	}
	*end = off + sizeof(h) + c->stored_len;

	if (c->type == IOREC_CHUNK_DATA) {
		ret = iorec_data_desc_parse(r->stored, c->stored_len, &c->data);
		if (ret)
			return ret;
		if ((uint64_t)c->data.npages * c->data.subbuf_size + pre !=
		    c->raw_len)
			return -IOREC_E_BAD_LENGTH;
		if (r->ncpus && c->data.cpu >= r->ncpus)
			return -IOREC_E_BAD_CPU;
		if (r->subbuf_size && c->data.subbuf_size != r->subbuf_size)
			return -IOREC_E_BAD_PAYLOAD;
	}
	if (!load)
		return mended(r, hdr_fixed, body_fixed);

	if (!(c->flags & IOREC_CF_ZSTD)) {
		r->stored[c->stored_len] = 0;	/* texts read as C strings */
		c->payload = r->stored;
		c->payload_len = c->stored_len;
		return mended(r, hdr_fixed, body_fixed);
	}
	if (fmt_grow((void **)&r->raw, &r->raw_cap, (size_t)c->raw_len + 1, 0))
		return -IOREC_E_NOMEM;
	memcpy(r->raw, r->stored, pre);
	if (!r->dctx && !(r->dctx = ZSTD_createDCtx()))
		return -IOREC_E_NOMEM;
	{
		size_t want = c->raw_len - pre;
		unsigned long long fsz =
			ZSTD_getFrameContentSize(r->stored + pre,
						 c->stored_len - pre);
		size_t got;

		if (fsz != want)
			return body_fixed ? -IOREC_E_PAYLOAD_CRC :
			       -IOREC_E_DECOMPRESS;
		got = ZSTD_decompressDCtx(r->dctx, r->raw + pre, want,
					  r->stored + pre,
					  c->stored_len - pre);
		if (ZSTD_isError(got) || got != want)
			return body_fixed ? -IOREC_E_PAYLOAD_CRC :
			       -IOREC_E_DECOMPRESS;
	}
	r->raw[c->raw_len] = 0;
	c->payload = r->raw;
	c->payload_len = c->raw_len;
	return mended(r, hdr_fixed, body_fixed);
}

static int stop(struct iorec_reader *r, int err, uint64_t off)
{
	r->stopped = err;
	r->err_offset = off;
	return err;
}

int iorec_reader_next(struct iorec_reader *r, struct iorec_chunk *c, bool load)
{
	uint64_t end = r->offset;
	int ret;

	if (r->stopped)
		return r->stopped > 0 ? 0 : r->stopped;
	ret = read_chunk(r, r->offset, c, load, &end);
	if (ret == 0) {
		r->stopped = 1;
		return 0;
	}
	if (ret < 0)
		return stop(r, ret, r->offset);
	if (r->seen_end)
		return stop(r, -IOREC_E_AFTER_END, r->offset);
	if (c->seq != r->next_seq)
		return stop(r, -IOREC_E_BAD_SEQ, r->offset);
	if (!r->seen_header && c->type != IOREC_CHUNK_HEADER)
		return stop(r, -IOREC_E_NO_HEADER, r->offset);
	if (!r->seen_header) {
		/* never compressed: the stored payload is the header */
		struct iorec_header h;

		if (iorec_header_parse(r->stored, c->stored_len, &h) < 0)
			return stop(r, -IOREC_E_BAD_HEADER, r->offset);
		r->ncpus = h.ncpus;
		r->subbuf_size = h.subbuf_size;
	}
	r->seen_header = true;
	if (c->type == IOREC_CHUNK_END)
		r->seen_end = true;
	r->next_seq++;
	r->offset = end;
	return 1;
}

int iorec_reader_read_at(struct iorec_reader *r, uint64_t offset,
			 struct iorec_chunk *c)
{
	uint64_t end;
	int ret;

	if (!r->seekable)
		return -IOREC_E_INVAL;
	ret = read_chunk(r, offset, c, true, &end);
	if (ret == 0)
		return -IOREC_E_TRUNCATED;
	return ret < 0 ? ret : 0;
}

/*
 * Resynchronisation.  A candidate is a chunk that read_chunk() accepts
 * (magic, header CRC, limits, complete payload, payload CRC, descriptor)
 * and whose sequence number n is plausible after the last good chunk:
 * n >= seq, the number expected at the bad chunk, and n - seq at most the
 * bytes skipped divided by the header size (every lost chunk took at
 * least that).  The HEADER type is never a candidate.  The reads of one
 * file are bounded (resync_budget), so that a file full of forged chunk
 * headers costs linear time.
 */
#define RESYNC_WINDOW	(256u << 10)

static uint64_t file_size(struct iorec_reader *r)
{
	struct stat st;

	return fstat(r->fd, &st) ? 0 : (uint64_t)st.st_size;
}

static bool spend(struct iorec_reader *r, uint64_t n)
{
	if (n > r->resync_budget) {
		r->resync_budget = 0;
		return false;
	}
	r->resync_budget -= n;
	return true;
}

/* Is there a valid chunk at off for a resync from bad (seq expected)? */
static bool candidate(struct iorec_reader *r, uint64_t off, uint64_t bad,
		      uint32_t seq, uint64_t size, uint32_t *n)
{
	uint8_t h[IOREC_CHUNK_HEADER_LEN];
	struct iorec_chunk_hdr hd;
	struct iorec_chunk c;
	uint64_t end;

	if (off + sizeof(h) > size || rd(r, h, sizeof(h), off) != sizeof(h))
		return false;
	if (iorec_chunk_hdr_get(h, &hd))
		return false;
	*n = hd.seq;
	if (*n < seq || *n - seq > (off - bad) / IOREC_CHUNK_HEADER_LEN ||
	    hd.type == IOREC_CHUNK_HEADER ||
	    hd.stored_len > size - off - sizeof(h) || !spend(r, hd.stored_len))
		return false;
	return read_chunk(r, off, &c, false, &end) == 1;
}

/* The 32 bytes after a bad chunk's header, if they look like a descriptor. */
static void guess_desc(struct iorec_reader *r, uint64_t bad, uint64_t size,
		       struct iorec_gap *gap)
{
	uint8_t h[IOREC_CHUNK_HEADER_LEN], p[IOREC_DATA_DESC_LEN];
	struct iorec_data_desc *d = &gap->desc;
	struct iorec_chunk_hdr hd;
	bool hdr_ok;

	if (bad + sizeof(h) + sizeof(p) > size ||
	    rd(r, h, sizeof(h), bad) != sizeof(h) ||
	    rd(r, p, sizeof(p), bad + sizeof(h)) != sizeof(p))
		return;
	hdr_ok = !iorec_chunk_hdr_get(h, &hd);
	if (hdr_ok && hd.type != IOREC_CHUNK_DATA)
		return;
	if (iorec_data_desc_parse(p, sizeof(p), d) < 0 || !d->npages ||
	    d->cpu >= r->ncpus || d->subbuf_size != r->subbuf_size ||
	    (uint64_t)d->npages * d->subbuf_size > IOREC_DATA_MAX_PAGES_BYTES)
		return;
	if (hdr_ok && hd.raw_len != IOREC_DATA_DESC_LEN +
	    d->npages * d->subbuf_size)
		return;
	gap->have_desc = true;
}

int iorec_reader_resync(struct iorec_reader *r, struct iorec_gap *gap)
{
	const size_t want = RESYNC_WINDOW + IOREC_CHUNK_HEADER_LEN - 1;
	uint64_t bad = r->err_offset, size, pos, at = 0;
	uint32_t seq = r->next_seq, n = 0;
	uint8_t h[IOREC_CHUNK_HEADER_LEN];
	struct iorec_chunk_hdr hd;
	uint8_t *win = NULL;
	uint64_t claimed = 0;	/* where the damaged chunk said it ends */
	bool found = false;

	memset(gap, 0, sizeof(*gap));
	if (r->stopped >= 0 || !r->seekable)
		return -IOREC_E_INVAL;
	if (!r->seen_header || r->seen_end)
		return r->stopped;
	size = file_size(r);
	if (!r->budget_set) {
		r->resync_budget = 2 * size + 2ull * IOREC_CHUNK_MAX_STORED;
		r->budget_set = true;
	}
	gap->offset = bad;
	gap->error = r->stopped;
	guess_desc(r, bad, size, gap);

	/* The bad chunk's own length, when its header is intact. */
	if (rd(r, h, sizeof(h), bad) == sizeof(h) &&
	    !iorec_chunk_hdr_get(h, &hd) &&
	    hd.stored_len <= IOREC_CHUNK_MAX_STORED) {
		at = bad + sizeof(h) + hd.stored_len;
		claimed = at;
		found = candidate(r, at, bad, seq, size, &n);
	}
	/* Else every later offset that starts with the chunk magic. */
	for (pos = bad + 1; !found && pos + sizeof(h) <= size;
	     pos += RESYNC_WINDOW) {
		ssize_t got;

		if (!spend(r, RESYNC_WINDOW))
			break;
		if (!win)
			win = malloc(want);
		if (!win)
			return -IOREC_E_NOMEM;
		got = rd(r, win, want, pos);
		if (got < 0) {
			free(win);
			return -IOREC_E_IO;
		}
		for (ssize_t i = 0; !found && i + 4 <= got &&
		     i < (ssize_t)RESYNC_WINDOW; i++) {
			if (win[i] != (IOREC_CHUNK_MAGIC & 0xff) ||
			    iorec_get32(win + i) != IOREC_CHUNK_MAGIC)
				continue;
			at = pos + (uint64_t)i;
			found = candidate(r, at, bad, seq, size, &n);
		}
	}
	free(win);
	if (!found) {
		gap->length = size > bad ? size - bad : 0;
		gap->chunks = 1;
		gap->to_end = true;
		return 0;
	}
	gap->length = at - bad;
	gap->chunks = n - seq;
	/*
	 * A valid chunk inside what the damaged one claimed as its payload:
	 * its length was a lie (also when it pointed past the end: a "cut")
	 */
	if (gap->error == -IOREC_E_TRUNCATED || at < claimed)
		gap->error = -IOREC_E_BAD_LENGTH;
	r->offset = at;
	r->next_seq = n;
	r->stopped = 0;
	return 1;
}

uint64_t iorec_reader_error_offset(const struct iorec_reader *r)
{
	return r->err_offset;
}

bool iorec_reader_seen_end(const struct iorec_reader *r)
{
	return r->seen_end;
}

bool iorec_reader_seekable(const struct iorec_reader *r)
{
	return r->seekable;
}

void iorec_reader_version(const struct iorec_reader *r, uint16_t *major,
			  uint16_t *minor)
{
	*major = r->major;
	*minor = r->minor;
}

void iorec_reader_close(struct iorec_reader *r)
{
	if (!r)
		return;
	if (r->own_fd)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	free(r->stored);
	free(r->raw);
	free(r);
}

uint64_t iorec_reader_repairs(const struct iorec_reader *r, uint64_t *offset)
{
	if (offset)
		*offset = r->repair_offset;
	return r->repairs;
}
