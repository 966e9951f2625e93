/* SPDX-License-Identifier: MIT */
/*
 * iorec/format.h - libiorec, the .iorec container: chunk writer and reader.
 *
 * This library handles bytes only.  It frames, checksums, compresses and
 * reads back chunks; it never parses trace events and needs neither
 * libtraceevent nor SQLite.  iorec(5) (docs/iorec.5) is the byte-level
 * specification; docs/examples/iorec-chunks.c is a small program that
 * uses it.  Build with `pkg-config --cflags --libs iorec`.
 *
 * Every function that can fail returns a negative enum iorec_error value
 * (or NULL and sets *err), and never prints or exits.  Nothing here is
 * thread-safe on one handle; distinct handles are independent.
 */
#ifndef IOREC_FORMAT_H
#define IOREC_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What libiorec.so exports: the functions of this header, nothing else. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define IOREC_API __attribute__((visibility("default")))
#else
#define IOREC_API
#endif

#define IOREC_MAGIC		"IOREC\r\n\032"	/* 8 bytes, like PNG's */
#define IOREC_MAGIC_LEN		8
#define IOREC_VERSION_MAJOR	1
#define IOREC_VERSION_MINOR	1
#define IOREC_FILE_HEADER_LEN	16	/* magic, u16 major, u16 minor, u32 zero */

#define IOREC_CHUNK_MAGIC	0x4b43524fu	/* "ORCK" read little-endian */
#define IOREC_CHUNK_HEADER_LEN	32
#define IOREC_CHUNK_MAX_STORED	(64u << 20)	/* a longer length is a lie */
#define IOREC_CHUNK_MAX_RAW	(256u << 20)
/* A DATA chunk holds at most this many bytes of sub-buffers. */
#define IOREC_DATA_MAX_PAGES_BYTES	(16u << 20)

/* Chunk flags */
#define IOREC_CF_ZSTD		0x0001	/* body is one zstd frame */

/* Chunk types; values are part of the file format. */
enum iorec_chunk_type {
	IOREC_CHUNK_HEADER	 = 1,	/* recording header, always first */
	IOREC_CHUNK_HEADER_PAGE	 = 2,	/* events/header_page text */
	IOREC_CHUNK_HEADER_EVENT = 3,	/* events/header_event text */
	IOREC_CHUNK_EVENT_FORMAT = 4,	/* "system\0" + format text */
	IOREC_CHUNK_SNAPSHOT	 = 5,	/* u32 phase + tab-separated lines */
	IOREC_CHUNK_SYSCALLS	 = 6,	/* "nr\tname\n" lines of the recording arch */
	IOREC_CHUNK_CMDLINES	 = 7,	/* saved_cmdlines text: "pid comm\n" */
	IOREC_CHUNK_DATA	 = 8,	/* data descriptor + raw sub-buffers of one CPU */
	IOREC_CHUNK_STATS	 = 9,	/* per-CPU ring-buffer stats, "cpu\tkey\tvalue\n" */
	IOREC_CHUNK_END		 = 10,	/* "key=value\n" lines, last chunk */
	IOREC_CHUNK_PRINTK	 = 11,	/* printk_formats text */
	IOREC_CHUNK_NOTE	 = 12,	/* "key=value\n" lines, free-form */
	IOREC_CHUNK_COMPAT_SYSCALLS = 13, /* "nr\tname\n" lines of the compat ABI (1.1) */
	IOREC_CHUNK_EXEC_ABI	 = 14,	/* "ts\tpid\tabi\tsource\n" lines (1.1) */
};

/* Snapshot phases */
#define IOREC_SNAP_START	0
#define IOREC_SNAP_END		1

/*
 * Errors, as an X-macro so the enum and the strings cannot drift apart.
 * Functions return the negated value.  The codes start at IOREC_E_BASE,
 * so that a negative iorec_error is never -1 or a -errno value (errno
 * values stay below 4096), nor a trace.dat error of the same library
 * (TRACEDAT_E_BASE): a caller can tell whose error it holds.
 */
#define IOREC_E_BASE	100000

#define IOREC_ERRORS							\
	_IOREC_E(IO,		"read or write failed")			\
	_IOREC_E(NOMEM,		"out of memory")				\
	_IOREC_E(NOSPC,		"no space left on device")		\
	_IOREC_E(BAD_MAGIC,	"not an iorec file (bad magic)")	\
	_IOREC_E(BAD_VERSION,	"unsupported format version")		\
	_IOREC_E(TRUNCATED,	"file ends inside a chunk")		\
	_IOREC_E(CHUNK_MAGIC,	"bad chunk magic")			\
	_IOREC_E(HEADER_CRC,	"chunk header checksum mismatch")	\
	_IOREC_E(PAYLOAD_CRC,	"chunk payload checksum mismatch")	\
	_IOREC_E(BAD_LENGTH,	"chunk length out of range")		\
	_IOREC_E(BAD_SEQ,	"chunk sequence number out of order")	\
	_IOREC_E(DECOMPRESS,	"chunk payload does not decompress")	\
	_IOREC_E(COMPRESS,	"compression failed")			\
	_IOREC_E(BAD_PAYLOAD,	"malformed chunk payload")		\
	_IOREC_E(NO_HEADER,	"first chunk is not a header chunk")	\
	_IOREC_E(AFTER_END,	"data after the end chunk")		\
	_IOREC_E(INVAL,		"invalid argument")			\
	_IOREC_E(BAD_CPU,	"data chunk of a CPU the header does not have") \
	_IOREC_E(BAD_HEADER,	"malformed recording header")

#define _IOREC_E(name, str) IOREC_E_##name,
enum iorec_error {
	IOREC_E_OK = 0,			/* "success" */
	IOREC_E_FIRST_ = IOREC_E_BASE - 1,
	IOREC_ERRORS
	IOREC_E_MAX
};
#undef _IOREC_E

/**
 * iorec_strerror - describe an error code
 * @err: an iorec_error value, negative (as returned) or positive; 0 is
 *	"success"
 *
 * Return: a static string, never NULL ("unknown error" for a value out of
 * range, an errno value among them); the caller must not free it.
 */
IOREC_API const char *iorec_strerror(int err);

/* Byte-order helpers: container integers are little-endian. */
static inline void iorec_put16(uint8_t *p, uint16_t v)
{
	p[0] = v; p[1] = v >> 8;
}
static inline void iorec_put32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}
static inline void iorec_put64(uint8_t *p, uint64_t v)
{
	iorec_put32(p, (uint32_t)v);
	iorec_put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint16_t iorec_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t iorec_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t iorec_get64(const uint8_t *p)
{
	return (uint64_t)iorec_get32(p) | (uint64_t)iorec_get32(p + 4) << 32;
}

/**
 * iorec_crc32c - CRC-32C (Castagnoli), the checksum of chunk headers and
 * payloads
 * @crc: the CRC of the bytes before @buf, 0 to start
 * @buf: the bytes
 * @len: their number
 *
 * Return: the CRC of everything so far, to pass as @crc for the next part.
 */
IOREC_API uint32_t iorec_crc32c(uint32_t crc, const void *buf, size_t len);

/*
 * HEADER chunk payload (never compressed): a fixed 32-byte part followed by
 * "key=value\n" text (clock, kernel, machine, hostname, ...).
 */
#define IOREC_ENDIAN_LITTLE	1
#define IOREC_ENDIAN_BIG	2

#define IOREC_HF_RAW_SYSCALLS	0x1	/* syscalls recorded via raw_syscalls */
#define IOREC_HF_FLIGHT		0x2	/* flight-recorder mode: head discarded */

#define IOREC_HEADER_FIXED_LEN	32

struct iorec_header {
	uint8_t  endian;	/* of the raw ring-buffer pages */
	uint8_t  long_size;	/* kernel long size, from header_page */
	uint32_t page_size;	/* machine page size */
	uint32_t subbuf_size;	/* ring-buffer sub-buffer size */
	uint32_t ncpus;		/* CPUs of the recording machine */
	uint64_t flags;		/* IOREC_HF_* */
	const char *text;	/* key=value lines, NUL-terminated */
	size_t text_len;
};

/**
 * iorec_header_encode - encode a HEADER chunk payload
 * @h: the header; @h->text (@h->text_len bytes) may be NULL
 * @out: set to a new buffer with the payload, which the caller frees
 *   with free()
 * @out_len: set to its length
 *
 * Return: 0, or -IOREC_E_NOMEM (then *@out is unchanged).
 */
IOREC_API int iorec_header_encode(const struct iorec_header *h, uint8_t **out,
				  size_t *out_len);

/**
 * iorec_header_parse - parse a HEADER chunk payload
 * @payload: the payload (struct iorec_chunk.payload of the HEADER chunk)
 * @len: its length
 * @h: filled in; @h->text points into @payload, so it is valid only as
 *   long as @payload is (for a reader: until its next call)
 *
 * Return: 0, or -IOREC_E_BAD_PAYLOAD when the payload is too short or a
 * field is out of range (byte order, long size, CPU count, sub-buffer
 * size).
 */
IOREC_API int iorec_header_parse(const uint8_t *payload, size_t len,
				 struct iorec_header *h);

/**
 * iorec_kv_get - look a key up in "key=value\n" text
 * @text: the text (HEADER, END and NOTE payloads), not NUL-terminated
 * @len: its length
 * @key: the key, NUL-terminated
 * @buf: receives the value, NUL-terminated and cut to @bufsz - 1 bytes
 * @bufsz: the size of @buf; 0 to learn the length only
 *
 * Return: the length of the whole value (which may exceed @bufsz - 1), or
 * -1 when the key is absent.
 */
IOREC_API int iorec_kv_get(const char *text, size_t len, const char *key,
			   char *buf, size_t bufsz);

/*
 * DATA chunk payload: a 32-byte descriptor, stored uncompressed so that
 * an index of the file can be built without decompressing, then the body
 * (npages * subbuf_size bytes of raw sub-buffers, zstd-compressed when the
 * chunk has IOREC_CF_ZSTD).
 */
#define IOREC_DATA_DESC_LEN	32

struct iorec_data_desc {
	uint32_t cpu;
	uint32_t npages;
	uint32_t subbuf_size;
	uint32_t flags;		/* reserved, 0 */
	uint64_t first_ts;	/* timestamp of the first event, trace clock */
	uint64_t last_ts;	/* timestamp of the last event */
};

/**
 * iorec_data_desc_encode - encode a DATA descriptor
 * @d: the descriptor
 * @out: IOREC_DATA_DESC_LEN bytes, written in the file's byte order
 */
IOREC_API void iorec_data_desc_encode(const struct iorec_data_desc *d,
				      uint8_t *out);

/**
 * iorec_data_desc_parse - parse a DATA descriptor
 * @p: the first bytes of a DATA payload
 * @len: how many bytes @p holds
 * @d: filled in
 *
 * Return: 0, or -IOREC_E_BAD_PAYLOAD when @len is below
 * IOREC_DATA_DESC_LEN or a field is out of range.
 */
IOREC_API int iorec_data_desc_parse(const uint8_t *p, size_t len,
				    struct iorec_data_desc *d);

/* ------------------------------------------------------------------ */
/* Writer */

struct iorec_writer;

/**
 * iorec_writer_new - start a .iorec stream on fd (a file or a pipe)
 * @fd: open for writing; not closed by the writer
 * @zstd_level: compression level for compressed chunks (1..19)
 * @bufsize: bytes gathered before one write(); 0 selects 1 MiB
 *
 * Writes the 16-byte file header into the buffer.  The first chunk added
 * must be a HEADER chunk (iorec_header_encode()), the last an END chunk.
 *
 * Return: a writer that the caller frees with iorec_writer_free(), or NULL
 * when memory is short.
 */
IOREC_API struct iorec_writer *iorec_writer_new(int fd, int zstd_level,
						size_t bufsize);

/**
 * iorec_writer_set_version - write an older minor version into the file
 * header
 * @w: a writer to which no chunk was added yet
 * @major: the format's major version
 * @minor: a minor version this library writes
 *
 * A copy of a recording keeps its version, so that the readers of that
 * version read it (ioreport redact).
 *
 * Return: 0, -IOREC_E_BAD_VERSION for a version this library does not
 * write, or -IOREC_E_INVAL after the first chunk.
 */
IOREC_API int iorec_writer_set_version(struct iorec_writer *w, uint16_t major,
				       uint16_t minor);

/**
 * iorec_writer_add - append one chunk
 * @w: the writer
 * @type: an enum iorec_chunk_type value
 * @prefix: bytes stored uncompressed before the body (the DATA
 *   descriptor), or NULL
 * @prefix_len: their number, 0 with a NULL @prefix
 * @body: the rest of the payload (copied; the caller keeps it)
 * @body_len: its length
 * @compress: zstd-compress the body
 *
 * The chunk is encoded into the output buffer, which is written out when
 * full.  After an error the writer refuses further chunks; what was
 * written before is a valid file.
 *
 * Return: 0, or a negative iorec_error: -IOREC_E_NOSPC on a full disk,
 * -IOREC_E_IO for another write error (iorec_writer_errno() tells which),
 * -IOREC_E_NOMEM, -IOREC_E_COMPRESS, -IOREC_E_BAD_LENGTH for a payload
 * beyond the format's limits.
 */
IOREC_API int iorec_writer_add(struct iorec_writer *w, uint16_t type,
			       const void *prefix, size_t prefix_len,
			       const void *body, size_t body_len,
			       bool compress);

/**
 * iorec_writer_add_compressed - append a chunk whose body is already
 * compressed
 * @w: the writer
 * @type: an enum iorec_chunk_type value
 * @prefix: bytes stored uncompressed before the body, or NULL
 * @prefix_len: their number
 * @zbody: one zstd frame (from iorec_compress()), copied
 * @zbody_len: its length
 * @raw_len: the length of @zbody once decompressed
 *
 * Return: as iorec_writer_add().
 */
IOREC_API int iorec_writer_add_compressed(struct iorec_writer *w,
					  uint16_t type, const void *prefix,
					  size_t prefix_len, const void *zbody,
					  size_t zbody_len, size_t raw_len);

/**
 * iorec_writer_flush - write out everything buffered
 * @w: the writer
 *
 * Return: 0, or a negative iorec_error as iorec_writer_add().
 */
IOREC_API int iorec_writer_flush(struct iorec_writer *w);

/**
 * iorec_writer_written - bytes handed to write() so far
 * @w: the writer
 *
 * Return: the count, file header included.
 */
IOREC_API uint64_t iorec_writer_written(const struct iorec_writer *w);

/**
 * iorec_writer_pending - bytes buffered, not yet written
 * @w: the writer
 *
 * Return: the count (0 just after a successful iorec_writer_flush()).
 */
IOREC_API size_t iorec_writer_pending(const struct iorec_writer *w);

/**
 * iorec_writer_raw_bytes - payload bytes appended, before compression
 * @w: the writer
 *
 * Return: the sum of the uncompressed payload lengths of all chunks.
 */
IOREC_API uint64_t iorec_writer_raw_bytes(const struct iorec_writer *w);

/**
 * iorec_writer_chunks - chunks appended
 * @w: the writer
 *
 * Return: their number, which is also the sequence number of the next.
 */
IOREC_API uint32_t iorec_writer_chunks(const struct iorec_writer *w);

/**
 * iorec_writer_errno - why a write failed
 * @w: the writer
 *
 * Return: the errno of the failed write() when the writer failed with
 * -IOREC_E_IO or -IOREC_E_NOSPC, otherwise 0.
 */
IOREC_API int iorec_writer_errno(const struct iorec_writer *w);

/**
 * iorec_writer_free - free a writer
 * @w: the writer, or NULL
 *
 * Neither flushes (call iorec_writer_flush() first) nor closes the fd.
 */
IOREC_API void iorec_writer_free(struct iorec_writer *w);

/**
 * iorec_compress - compress bytes into one zstd frame
 * @level: zstd level (1..19)
 * @src: the bytes
 * @len: their number
 * @out: set to a new buffer with the frame, which the caller frees with
 *   free()
 * @out_len: set to its length
 *
 * For iorec_writer_add_compressed(): the flight recorder keeps compressed
 * batches in memory this way.
 *
 * Return: 0, -IOREC_E_NOMEM or -IOREC_E_COMPRESS (*@out unchanged).
 */
IOREC_API int iorec_compress(int level, const void *src, size_t len,
			     uint8_t **out, size_t *out_len);

/* ------------------------------------------------------------------ */
/* Reader */

struct iorec_chunk {
	uint16_t type;
	uint16_t flags;
	uint32_t seq;
	uint64_t offset;	/* file offset of the chunk header */
	uint32_t stored_len;	/* payload bytes in the file */
	uint32_t raw_len;	/* payload bytes once decompressed */
	/* DATA chunks only: the parsed descriptor */
	struct iorec_data_desc data;
	/*
	 * The whole payload, decompressed (prefix + body), valid until the
	 * next call on the reader.  NULL when the reader was told to skip
	 * payloads (iorec_reader_next(..., false)).
	 */
	const uint8_t *payload;
	size_t payload_len;
};

struct iorec_reader;

/**
 * iorec_reader_open - open a .iorec file, or "-" for stdin
 * @path: the file
 * @err: set to 0, or to a negative iorec_error on failure
 *
 * Checks the 16-byte file header: -IOREC_E_IO when the file cannot be
 * opened or read (errno tells why), -IOREC_E_BAD_MAGIC, -IOREC_E_TRUNCATED,
 * -IOREC_E_BAD_VERSION, -IOREC_E_NOMEM.  The failure is at offset 0.
 *
 * Return: a reader that the caller closes with iorec_reader_close(), or
 * NULL with *@err set.
 */
IOREC_API struct iorec_reader *iorec_reader_open(const char *path, int *err);

/**
 * iorec_reader_open_fd - read a .iorec stream from an open fd
 * @fd: a file or a pipe, at the start of the stream; the caller keeps it
 *   and closes it after iorec_reader_close()
 * @err: as for iorec_reader_open()
 *
 * Return: as iorec_reader_open().
 */
IOREC_API struct iorec_reader *iorec_reader_open_fd(int fd, int *err);

/**
 * iorec_reader_next - read the next chunk
 * @r: the reader
 * @c: filled in; c->payload belongs to the reader and is valid until its
 *   next call
 * @load: decompress and return the payload; when false the payload is
 *   still read and its checksum verified, a DATA descriptor is parsed into
 *   c->data, but nothing is decompressed and c->payload is NULL
 *
 * Returns 1 with *c filled, 0 at a clean end (end of file at a chunk
 * boundary), or a negative iorec_error.  After an error, the reader stays
 * stopped (iorec_reader_error_offset() gives the offset of the bad chunk)
 * until iorec_reader_resync() finds the next valid chunk.
 *
 * The HEADER chunk is parsed as it is read: a DATA chunk of a CPU beyond
 * its count, or with another sub-buffer size, is an error
 * (IOREC_E_BAD_CPU, IOREC_E_BAD_PAYLOAD).
 */
IOREC_API int iorec_reader_next(struct iorec_reader *r, struct iorec_chunk *c,
				bool load);

/* A damaged part of a file, skipped by iorec_reader_resync(). */
struct iorec_gap {
	uint64_t offset;	/* where it starts: the chunk that failed */
	uint64_t length;	/* bytes skipped, to the next valid chunk or
				   to the end of the file */
	uint32_t chunks;	/* chunks lost, from the sequence numbers (0
				   when only stray bytes were skipped; at
				   least 1 when to_end) */
	int error;		/* why the chunk at offset failed (negative
				   iorec_error) */
	bool to_end;		/* no valid chunk follows */
	/*
	 * What looks like the DATA descriptor of the lost chunk (the 32
	 * bytes after its header, when they parse as one of a CPU and
	 * sub-buffer size of the header).  Unverified: its checksum is
	 * the one that failed, or unknown.
	 */
	bool have_desc;
	struct iorec_data_desc desc;
};

/**
 * iorec_reader_resync - after iorec_reader_next() failed, find the next
 * valid chunk (iorec(5), "Reading a damaged file")
 * @r: the reader
 * @gap: filled with the part skipped
 *
 * Returns 1 when a valid chunk follows: the next iorec_reader_next()
 * returns it.  Returns 0 when none does (gap->to_end; the reader stays
 * stopped).  Returns a negative iorec_error when there is nothing to
 * resynchronise to: the header chunk itself is bad (no recording), the
 * damage follows the END chunk, the input is not seekable, or the reader
 * has not failed.
 */
IOREC_API int iorec_reader_resync(struct iorec_reader *r,
				  struct iorec_gap *gap);

/**
 * iorec_reader_read_at - read one chunk again, by its offset
 * @r: the reader, of a seekable file (iorec_reader_seekable())
 * @offset: struct iorec_chunk.offset of a chunk an earlier pass read
 * @c: filled in with the chunk and its decompressed payload, which belongs
 *   to the reader and is valid until its next call
 *
 * Does not move the position of iorec_reader_next().
 *
 * Return: 1 with *@c filled, or a negative iorec_error (-IOREC_E_INVAL on
 * a pipe).
 */
IOREC_API int iorec_reader_read_at(struct iorec_reader *r, uint64_t offset,
				   struct iorec_chunk *c);

/**
 * iorec_reader_error_offset - where the last error is
 * @r: the reader
 *
 * Return: the file offset of the chunk that made iorec_reader_next() fail,
 * 0 before any error.
 */
IOREC_API uint64_t iorec_reader_error_offset(const struct iorec_reader *r);

/**
 * iorec_reader_repairs - the damaged bytes the reader mended
 * @r: the reader
 * @offset: when not NULL, set to the file offset of the last one
 *
 * A chunk whose header or payload has one damaged byte is read whole
 * when exactly one byte changed explains its CRC-32C (and a compressed
 * payload then decodes to its stated size); each such chunk read counts
 * one (a chunk read twice, by iorec_reader_read_at(), twice).
 *
 * Return: how many so far.
 */
IOREC_API uint64_t iorec_reader_repairs(const struct iorec_reader *r,
					uint64_t *offset);

/**
 * iorec_reader_seen_end - whether the END chunk was read
 * @r: the reader
 *
 * Return: true once iorec_reader_next() returned the END chunk: a file
 * that ends without one was cut (the recorder was killed, the disk full).
 */
IOREC_API bool iorec_reader_seen_end(const struct iorec_reader *r);

/**
 * iorec_reader_seekable - whether the input is a regular file
 * @r: the reader
 *
 * Return: true for a regular file (iorec_reader_read_at() and
 * iorec_reader_resync() work), false for a pipe.
 */
IOREC_API bool iorec_reader_seekable(const struct iorec_reader *r);

/**
 * iorec_reader_version - the file's format version
 * @r: the reader
 * @major: set to the major version (always IOREC_VERSION_MAJOR)
 * @minor: set to the minor version
 */
IOREC_API void iorec_reader_version(const struct iorec_reader *r,
				    uint16_t *major, uint16_t *minor);

/**
 * iorec_reader_close - close a reader
 * @r: the reader, or NULL
 *
 * Frees it and its payload buffers, and closes the file it opened
 * (iorec_reader_open(); an fd given to iorec_reader_open_fd() stays open).
 */
IOREC_API void iorec_reader_close(struct iorec_reader *r);

#ifdef __cplusplus
}
#endif

#endif /* IOREC_FORMAT_H */
