/* SPDX-License-Identifier: MIT */
/*
 * tracedat-rd.h - the trace.dat reader's own state and helpers, shared by
 * its files (not installed): tracedat-reader.c opens a file (header,
 * options, buffers, version 6's layout), tracedat-rdio.c counts its
 * memory and reads it (readahead, cursors over the file or a decompressed
 * section, compressed blocks), tracedat-meta.c yields its metadata items
 * and tracedat-stream.c the pages of each CPU.
 */
#ifndef TRACEDAT_RD_H
#define TRACEDAT_RD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracedat.h"
#include "tracedat-codec.h"

#define RBUF_SIZE	(64u << 10)	/* readahead for sequential parsing */
#define STREAM_RA_MAX	(256u << 10)	/* readahead of an uncompressed stream */
#define MAX_BUFFERS	256u		/* instances */
#define MAX_STRING	4096u		/* names, clocks, compression strings */
#define MAX_OPT_TEXT	(64u << 10)	/* one UNAME, VERSION, TRACECLOCK, CPUSTAT */
#define MAX_CPUSTATS	(4u << 20)	/* all CPUSTAT options */
#define MAX_OPTION	(16u << 20)	/* an interpreted option's data */
#define SLACK		64u		/* zeroes after a stream's last page */

struct rbuffer {
	struct tracedat_buffer pub;
	char *name;
	char *clock;
	struct tracedat_cpu *cpus;
	uint32_t v6_ncpus;	/* v6 instances: entries in their flyrecord table */
};

/* A position in a structure: in the file, or in a decompressed section. */
struct cur {
	const uint8_t *mem;	/* NULL: the file */
	uint64_t pos, end;	/* file offsets, or indexes into mem */
	uint64_t base;		/* mem: the section's file offset, for errors */
	int overrun;		/* the error for reading past end */
};

/*
 * Where tracedat_reader_meta_next() stands.  A v7 section is opened in a
 * call of its own (M_NEXT_GROUP), never in the call that yields the last
 * item of the section before, whose data may point into that section.
 */
enum meta_phase {
	M_START, M_NEXT_GROUP, M_HEADER_PAGE, M_HEADER_EVENT,
	M_FTRACE_COUNT, M_FTRACE, M_EVENTS_COUNT, M_SYSTEM, M_EVENT,
	M_SINGLE, M_DONE,
};

struct tracedat_reader {
	int fd;
	bool own_fd;
	bool be;
	struct tracedat_read_opts o;
	struct tracedat_info info;
	uint64_t fsize;
	uint64_t err_off;
	size_t mem, mem_peak;

	char *compression, *compression_version;
	char *trace_clock, *uname, *writer_version, *clock;
	char *cpustats;
	size_t cpustats_len;
	bool v6_clock_follows;	/* a TRACECLOCK option: a v6 clock after flyrecord */

	struct rbuffer *buf;
	uint32_t nbuf;
	size_t buf_cap;		/* elements allocated in buf */
	int pending_v6_buffer;	/* v6: index of the instance a CPUCOUNT may follow */

	uint64_t sec_off[TRACEDAT_SEC_CMDLINES + 1];	/* v7 sections by id */
	uint64_t v6_meta;	/* v6: offset of "header_page" */
	uint32_t commit_size;

	/* sequential readahead */
	uint8_t *rbuf;
	size_t rbuf_cap;
	uint64_t rbuf_off;
	size_t rbuf_len;

	/* metadata iteration */
	enum meta_phase phase;
	int group;		/* index into groups[] */
	struct cur mc;
	uint8_t *sec;		/* a decompressed section */
	size_t sec_size;
	uint8_t *item;		/* an item read from the file, NUL-terminated */
	size_t item_cap;
	uint8_t *clobbered;	/* the byte replaced by an item's NUL in sec */
	uint8_t clobbered_val;
	uint32_t count, index, nev, iev;
	char system[MAX_STRING];

	enum tracedat_codec codec;	/* the header's compression */
	struct td_codec_ctx cctx;
	uint8_t *zin;		/* compressed input of a chunk */
	size_t zin_cap;

	struct tracedat_stream *streams;
};

/* A v7 section header. */
struct sec_hdr {
	uint16_t id, flags;
	uint32_t desc;
	uint64_t size;
	uint64_t data;		/* file offset of the data */
};

struct tracedat_stream {
	struct tracedat_reader *r;
	struct tracedat_stream *next, **pprev;
	const struct tracedat_buffer *b;
	uint32_t cpu;
	uint32_t page_size;
	bool compressed;
	uint64_t pos, end;	/* the CPU's data still to read */
	uint32_t nchunks, chunk;
	uint8_t *buf;		/* readahead, or one decompressed chunk */
	size_t cap;
	size_t blen, bpos;
	uint64_t buf_off;	/* file offset of buf[0], or of the chunk header */
	uint64_t index;
	int err;
	uint64_t err_off;
	struct tracedat_stream_stats st;
};

void tdr_cur_file(struct cur *c, uint64_t pos, uint64_t end, int overrun);
uint64_t tdr_cur_left(const struct cur *c);
void tdr_cur_mem(struct cur *c, const uint8_t *mem, size_t len,
		 uint64_t base, int overrun);
/* The file offset to report for the cursor's position. */
uint64_t tdr_cur_off(const struct cur *c);
int tdr_cur_read(struct tracedat_reader *r, struct cur *c, void *dst,
		 size_t n);
/* The size of width bytes (4 or 8) that precedes an item at c. */
int tdr_cur_size(struct tracedat_reader *r, struct cur *c, int width,
		 uint64_t *n);
int tdr_cur_skip(struct tracedat_reader *r, struct cur *c, uint64_t n);
/* A NUL-terminated string of at most cap - 1 bytes. */
int tdr_cur_string(struct tracedat_reader *r, struct cur *c, char *dst,
		   size_t cap);
int tdr_cur_u16(struct tracedat_reader *r, struct cur *c, uint16_t *v);
int tdr_cur_u32(struct tracedat_reader *r, struct cur *c, uint32_t *v);
int tdr_cur_u64(struct tracedat_reader *r, struct cur *c, uint64_t *v);
/* A string inside an option's data, NUL within len. */
const char *tdr_data_string(const uint8_t *data, size_t len, size_t *pos);
int tdr_expect(struct tracedat_reader *r, struct cur *c, const char *tag,
	       size_t len, int err);
int tdr_fail(struct tracedat_reader *r, int err, uint64_t off);
/*
 * Decompress the block "u32 compressed size, u32 raw size, data" found at
 * the start of [off, off + size) into *out (counted, raw size + 1 bytes
 * for a NUL).  errs_at is the offset reported for malformed blocks.
 */
int tdr_load_block(struct tracedat_reader *r, uint64_t off, uint64_t size,
		   uint64_t errs_at, uint8_t **out, size_t *out_cap,
		   size_t *out_len);
void tdr_mem_free(struct tracedat_reader *r, uint8_t **buf, size_t *cap);
/* Resize a counted buffer to at least n bytes. */
int tdr_mem_grow(struct tracedat_reader *r, uint8_t **buf, size_t *cap,
		 size_t n);
/* Read exactly n bytes at off; a short read is a cut file. */
int tdr_pread_all(struct tracedat_reader *r, void *dst, size_t n,
		  uint64_t off);
/* Read n bytes at off through the readahead buffer. */
int tdr_ra_read(struct tracedat_reader *r, void *dst, size_t n,
		uint64_t off);
int tdr_read_sec_hdr(struct tracedat_reader *r, uint64_t off,
		     struct sec_hdr *s);
void tdr_restore_clobbered(struct tracedat_reader *r);
/* Skip "u32|u64 size, data" at c. */
int tdr_skip_sized(struct tracedat_reader *r, struct cur *c, int width);

#endif /* TRACEDAT_RD_H */
