/* SPDX-License-Identifier: MIT */
/*
 * tracedat.h - trace-cmd's trace.dat container, file versions 6 and 7:
 * a streaming writer and a bounded-memory reader, bytes only.
 *
 * Like the .iorec library beside it, this code never parses trace events
 * and needs neither libtraceevent, libtracecmd nor SQLite: it moves the
 * kernel's format texts and raw ring-buffer pages in and out of the
 * container, and the caller parses them (libtraceevent's kbuffer and tep).
 * docs/tracedat.md is the byte-level description of what is written and
 * read, checked against trace-cmd's trace-cmd.dat.v6(5) and .v7(5).
 *
 * The subset in one paragraph.  All numbers are in the byte order the
 * file header names (that of the recorded pages).  Version 6: the
 * metadata in a fixed order (header_page, header_event, ftrace formats,
 * event formats per system, kallsyms, printk formats, saved cmdlines),
 * the CPU count, an "options" list, a "flyrecord" table of per-CPU
 * (offset, size) and the clock, then each CPU's pages contiguous and
 * page-aligned.  Version 7: the same metadata as sections (16-byte
 * header, optionally one zstd block), options sections chained by their
 * DONE option, one BUFFER option per instance giving its clock, page size
 * and per-CPU (offset, size); with zstd, a CPU's data is a count of
 * compression chunks, each (compressed size, raw size, zstd frame) of
 * whole pages.  Latency (text) traces are recognised, not read.
 *
 * Every function that can fail returns a negative enum tracedat_error (or
 * NULL and sets *err) and never prints or exits.
 */
#ifndef TRACEDAT_H
#define TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACEDAT_MAGIC		"\027\010\104tracing"	/* 10 bytes */
#define TRACEDAT_MAGIC_LEN	10

/* Option and section ids: trace-cmd's enum tracecmd_option_id (3.1). */
enum tracedat_id {
	TRACEDAT_OPT_DONE	   = 0,	/* end of an options list; v7: next offset */
	TRACEDAT_OPT_DATE	   = 1,	/* string: timestamp offset to gtod, in us */
	TRACEDAT_OPT_CPUSTAT	   = 2,	/* string: "CPU: N\n" + per_cpu/cpuN/stats */
	TRACEDAT_OPT_BUFFER	   = 3,	/* an instance's flyrecord data (section id too) */
	TRACEDAT_OPT_TRACECLOCK	   = 4,	/* string: the trace_clock file, "[clock]" selected */
	TRACEDAT_OPT_UNAME	   = 5,	/* string: "sysname nodename release machine" */
	TRACEDAT_OPT_HOOK	   = 6,
	TRACEDAT_OPT_OFFSET	   = 7,	/* string: ns added to every timestamp */
	TRACEDAT_OPT_CPUCOUNT	   = 8,	/* u32 */
	TRACEDAT_OPT_VERSION	   = 9,	/* string: version of the writing program */
	TRACEDAT_OPT_PROCMAPS	   = 10,
	TRACEDAT_OPT_TRACEID	   = 11,	/* u64 */
	TRACEDAT_OPT_TIME_SHIFT	   = 12,
	TRACEDAT_OPT_GUEST	   = 13,
	TRACEDAT_OPT_TSC2NSEC	   = 14,	/* u32 mult, u32 shift, u64 offset */
	TRACEDAT_SEC_STRINGS	   = 15,	/* v7 sections from here on */
	TRACEDAT_SEC_HEADER_INFO   = 16,
	TRACEDAT_SEC_FTRACE_EVENTS = 17,
	TRACEDAT_SEC_EVENT_FORMATS = 18,
	TRACEDAT_SEC_KALLSYMS	   = 19,
	TRACEDAT_SEC_PRINTK	   = 20,
	TRACEDAT_SEC_CMDLINES	   = 21,
	TRACEDAT_OPT_BUFFER_TEXT   = 22,	/* a latency (text) trace */
};

#define TRACEDAT_SEC_FL_COMPRESS 0x1	/* v7 section flag: one compressed block */

/* The block compressions of version 7 (the header's compression string). */
enum tracedat_codec {
	TRACEDAT_CODEC_NONE = 0,	/* "none" */
	TRACEDAT_CODEC_ZSTD,		/* "zstd": trace-cmd's default */
	TRACEDAT_CODEC_ZLIB,		/* "zlib": older trace-cmd builds */
};

/* Limits: a value beyond them is taken for corruption. */
#define TRACEDAT_MAX_CPUS	8192u		/* CPU ids and counts */
#define TRACEDAT_MIN_PAGE	64u		/* bytes per ring-buffer page */
#define TRACEDAT_MAX_PAGE	(4u << 20)
#define TRACEDAT_CHUNK_PAGES	10u		/* pages per zstd chunk, as trace-cmd */

/* Ring-buffer page header bits (kernel ring_buffer.c, kbuffer's masks). */
#define TRACEDAT_COMMIT_MASK	((1u << 27) - 1)
#define TRACEDAT_MISSED_EVENTS	(1u << 31)
#define TRACEDAT_MISSED_STORED	(1u << 30)

/*
 * Errors: the codes start at TRACEDAT_E_BASE, apart from -1, every -errno
 * and the .iorec container's IOREC_E_BASE range.
 */
#define TRACEDAT_E_BASE	101000

#define TRACEDAT_ERRORS							\
	_TRACEDAT_E(IO,		"read or write failed")			\
	_TRACEDAT_E(NOMEM,	"out of memory")				\
	_TRACEDAT_E(NOSPC,	"no space left on device")		\
	_TRACEDAT_E(INVAL,	"invalid argument")			\
	_TRACEDAT_E(STATE,	"call out of order")			\
	_TRACEDAT_E(NOT_SEEKABLE, "trace.dat input must be a seekable file") \
	_TRACEDAT_E(BAD_MAGIC,	"not a trace.dat file (bad magic)")	\
	_TRACEDAT_E(BAD_VERSION, "unsupported trace.dat file version (6 and 7 are read)") \
	_TRACEDAT_E(TRUNCATED,	"file ends inside a structure")		\
	_TRACEDAT_E(BAD_STRING,	"string without its terminating NUL")	\
	_TRACEDAT_E(BAD_HEADER,	"malformed file header")		\
	_TRACEDAT_E(COMPRESSION, "unsupported compression (zstd, zlib and none are read)") \
	_TRACEDAT_E(BAD_SECTION, "malformed section header")		\
	_TRACEDAT_E(NO_SECTION,	"a required section is missing")	\
	_TRACEDAT_E(BAD_OPTION,	"malformed option")			\
	_TRACEDAT_E(BAD_OFFSET,	"offset or size points outside the file") \
	_TRACEDAT_E(BAD_METADATA, "malformed metadata (header, formats, kallsyms, printk, cmdlines)") \
	_TRACEDAT_E(BAD_BUFFER,	"malformed buffer (flyrecord) description") \
	_TRACEDAT_E(BAD_CHUNK,	"malformed compression chunk header")	\
	_TRACEDAT_E(DECOMPRESS,	"compressed block does not decompress to its size") \
	_TRACEDAT_E(COMPRESS,	"compression failed")			\
	_TRACEDAT_E(BAD_PAGE,	"ring-buffer page header out of bounds") \
	_TRACEDAT_E(TOO_BIG,	"item larger than the reader's item limit") \
	_TRACEDAT_E(MEMLIMIT,	"reading this file needs more than the memory limit") \
	_TRACEDAT_E(LATENCY,	"latency trace: text data, no ring-buffer pages") \
	_TRACEDAT_E(TMPFILE,	"cannot create the writer's spool file")

#define _TRACEDAT_E(name, str) TRACEDAT_E_##name,
enum tracedat_error {
	TRACEDAT_E_OK = 0,		/* "success" */
	TRACEDAT_E_FIRST_ = TRACEDAT_E_BASE - 1,
	TRACEDAT_ERRORS
	TRACEDAT_E_MAX
};
#undef _TRACEDAT_E

/* A static string for err (negative or positive).  Never NULL. */
const char *tracedat_strerror(int err);

/* ------------------------------------------------------------------ */
/* Writer
 *
 * Metadata may be given in any order and at any time before
 * tracedat_writer_finish(); each text is copied.  Pages may come for any
 * CPU in any interleaving (a .iorec interleaves its DATA chunks): each CPU
 * gathers its pages in a bounded buffer (one compression chunk with zstd)
 * that, when full, is appended to one spool file in opts.tmpdir (unlinked
 * at once), each block linked to the CPU's next.  tracedat_writer_finish()
 * then writes the whole file front to back, copying every CPU's blocks in
 * order, so the output may be a pipe and the file's CPU data is contiguous
 * per CPU as both versions require.  Memory: the metadata texts, about
 * opts.mem_limit for the page buffers, a 256 KiB output buffer and one
 * zstd context; disk: the spool, about the size of the CPU data.
 */

struct tracedat_write_opts {
	int version;		/* 6 or 7; 0 selects 7 */
	bool compress;		/* v7: compressed sections and chunks; ignored for 6 */
	enum tracedat_codec codec; /* with compress: _ZSTD (_NONE selects it) or _ZLIB */
	int zstd_level;		/* the codec's level: 0 selects 3 for zstd, 6 for zlib */
	bool big_endian;	/* byte order of the pages, hence of the file */
	uint8_t long_size;	/* the recording machine's long: 4 or 8 */
	uint32_t page_size;	/* bytes per raw page: a power of 2 */
	uint32_t ncpus;		/* CPUs of the recording; pages have cpu < ncpus */
	uint32_t chunk_pages;	/* pages per compressed chunk (at most 64 MiB); 0 selects 10 */
	size_t mem_limit;	/* page buffers of all CPUs; 0 selects 16 MiB */
	const char *tmpdir;	/* spool directory; NULL selects $TMPDIR or /tmp */
};

struct tracedat_writer;

/*
 * tracedat_writer_new - prepare a trace.dat for fd
 * @fd: open for writing (a file or a pipe); never closed by the writer
 * @opts: see struct tracedat_write_opts
 * @err: set to a negative tracedat_error on failure
 *
 * Nothing is written before tracedat_writer_finish().  Returns NULL with
 * *err = -TRACEDAT_E_INVAL for options out of range (version, long size,
 * page size, CPU count), -TRACEDAT_E_NOMEM otherwise.
 */
struct tracedat_writer *tracedat_writer_new(int fd,
					    const struct tracedat_write_opts *opts,
					    int *err);

/* The texts of events/header_page and events/header_event.  Required. */
int tracedat_writer_set_header_page(struct tracedat_writer *w,
				    const void *text, size_t len);
int tracedat_writer_set_header_event(struct tracedat_writer *w,
				     const void *text, size_t len);
/* One events/ftrace/EVENT/format text (ftrace's own events). */
int tracedat_writer_add_ftrace_format(struct tracedat_writer *w,
				      const void *text, size_t len);
/*
 * One events/SYSTEM/EVENT/format text.  Systems are written in the order
 * of their first event, each with its events in the order given.
 */
int tracedat_writer_add_event_format(struct tracedat_writer *w,
				     const char *system,
				     const void *text, size_t len);
/* /proc/kallsyms, printk_formats, saved_cmdlines texts; each may be empty. */
int tracedat_writer_set_kallsyms(struct tracedat_writer *w,
				 const void *text, size_t len);
int tracedat_writer_set_printk(struct tracedat_writer *w,
			       const void *text, size_t len);
int tracedat_writer_set_cmdlines(struct tracedat_writer *w,
				 const void *text, size_t len);
/*
 * The trace clock's name ("mono", "local", ...): written as the
 * TRACECLOCK option "[name]\n", the v6 flyrecord clock and the v7 buffer's
 * clock.  Default "local".
 */
int tracedat_writer_set_clock(struct tracedat_writer *w, const char *clock);
/*
 * Append an option written as given (len bytes of data; strings include
 * their NUL): DATE, CPUSTAT, UNAME, HOOK, OFFSET, VERSION, PROCMAPS,
 * TRACEID, TIME_SHIFT, GUEST, TSC2NSEC, or an id above 22.  The ids the
 * writer itself manages (DONE, BUFFER, TRACECLOCK, CPUCOUNT, the section
 * ids, BUFFER_TEXT) give -TRACEDAT_E_INVAL.  Options keep their order.
 */
int tracedat_writer_add_option(struct tracedat_writer *w, uint16_t id,
			       const void *data, size_t len);

/*
 * tracedat_writer_add_page - append one raw ring-buffer page of a CPU
 * @len: at most page_size; a shorter page is zero-padded
 *
 * Pages of one CPU keep their order.  Returns 0, -TRACEDAT_E_INVAL for a
 * bad cpu or length, or the error of a failed spool write (after which
 * the writer refuses everything but _free).
 */
int tracedat_writer_add_page(struct tracedat_writer *w, uint32_t cpu,
			     const void *page, size_t len);

/*
 * tracedat_writer_finish - write the whole file
 *
 * Returns 0 when every byte was written, or a negative error; either way
 * the writer accepts nothing more but tracedat_writer_free().  Output
 * writes are retried on EINTR and short writes; a full disk is
 * -TRACEDAT_E_NOSPC.
 */
int tracedat_writer_finish(struct tracedat_writer *w);

/* Bytes written to fd so far; pages added per CPU (NULL for all). */
uint64_t tracedat_writer_written(const struct tracedat_writer *w);
uint64_t tracedat_writer_pages(const struct tracedat_writer *w,
			       const uint32_t *cpu);
/* errno of the failed write or spool operation, or 0 */
int tracedat_writer_errno(const struct tracedat_writer *w);

/* Free the writer and its spool (never closes fd).  Accepts NULL. */
void tracedat_writer_free(struct tracedat_writer *w);

/* ------------------------------------------------------------------ */
/* Reader
 *
 * tracedat_reader_open() reads the file header, the options (the v6
 * options list or every v7 options section of the chain), the v7 section
 * table (every section header from the file header to the end of file,
 * so a cut file fails here) and the buffer descriptions, checking every
 * offset and size against the file size.  It loads no metadata text and
 * no page.  Then:
 *  - tracedat_reader_meta_next() yields the metadata items one at a time
 *    (a v7 compressed section is decompressed whole, once);
 *  - tracedat_stream_open() gives the pages of one CPU of one buffer, one
 *    by one (with zstd, one compression chunk at a time).
 * Memory stays below opts.mem_limit whatever the file's length: the
 * reader counts the buffers it allocates (the metadata section being
 * read, the item copy, each stream's readahead or chunk) and fails with
 * -TRACEDAT_E_MEMLIMIT rather than exceed it.
 */

#define TRACEDAT_R_SKIP_KALLSYMS 0x1	/* never read nor yield kallsyms */

struct tracedat_read_opts {
	unsigned int flags;	/* TRACEDAT_R_* */
	size_t mem_limit;	/* 0 selects 48 MiB */
	size_t item_limit;	/* largest metadata item or section; 0 selects 32 MiB */
};

struct tracedat_cpu {
	uint32_t cpu;		/* CPU id */
	uint64_t offset;	/* file offset of its data */
	uint64_t size;		/* bytes in the file (v7 zstd: the chunks, after a u32 count) */
};

struct tracedat_buffer {
	const char *name;	/* "" for the top instance */
	const char *clock;	/* v7: the buffer's clock; v6: the file's clock; may be "" */
	uint32_t page_size;
	bool compressed;	/* data in compressed chunks */
	bool latency;		/* text trace: no pages, no CPUs */
	uint64_t offset;	/* v7: its section; v6: its "flyrecord" tag */
	uint32_t ncpus;		/* entries of cpus[] */
	const struct tracedat_cpu *cpus;
};

struct tracedat_info {
	int version;			/* 6 or 7 */
	bool big_endian;
	uint8_t long_size;		/* file header: user-space long */
	uint8_t kernel_long_size;	/* header_page's commit field: 4 or 8 */
	uint32_t page_size;		/* file header */
	uint32_t page_header_size;	/* bytes before a page's events (12 or 16) */
	const char *compression;	/* "none", "zstd" or "zlib" */
	const char *compression_version;
	uint32_t ncpus;			/* v6 header count; v7 CPUCOUNT (0 when absent) */
	uint64_t file_size;
	const char *clock;		/* clock of the top buffer, from TRACECLOCK
					 * or the buffer; "" when unknown */
	const char *trace_clock;	/* TRACECLOCK option text, NULL when absent */
	const char *uname;		/* UNAME option, NULL when absent */
	const char *writer_version;	/* VERSION option, NULL when absent */
	const char *cpustats;		/* CPUSTAT options, each ending in '\n', in
					 * file order; "" when none */
	bool has_date;			/* a DATE option (timestamps to shift) */
	int64_t ts_offset;		/* DATE (us -> ns) + OFFSET options, ns */
	bool has_tsc2nsec;
	uint32_t tsc_mult, tsc_shift;
	uint64_t tsc_offset;
	uint64_t trace_id;		/* TRACEID, 0 when absent */
	uint32_t options;		/* options read */
	uint32_t unknown_options;	/* of them, skipped */
	uint32_t nbuffers;		/* buffers, the top one first when present */
};

struct tracedat_reader;

/*
 * tracedat_reader_open - open a trace.dat file
 * @path: a regular file (trace.dat is read by offsets: no pipes)
 * @opts: NULL for the defaults
 * @err: set to a negative tracedat_error on failure
 * @err_offset: when not NULL, set to the file offset of the structure
 *   that failed (0 for errors that are not in the file)
 *
 * Returns NULL on failure.  tracedat_reader_open_fd() does not take fd:
 * the caller closes it after tracedat_reader_close().
 */
struct tracedat_reader *tracedat_reader_open(const char *path,
					     const struct tracedat_read_opts *opts,
					     int *err, uint64_t *err_offset);
struct tracedat_reader *tracedat_reader_open_fd(int fd,
						const struct tracedat_read_opts *opts,
						int *err, uint64_t *err_offset);

/* The file's description; valid until tracedat_reader_close(). */
const struct tracedat_info *tracedat_reader_info(const struct tracedat_reader *r);
/* Buffer i (0 .. info->nbuffers - 1), or NULL. */
const struct tracedat_buffer *tracedat_reader_buffer(const struct tracedat_reader *r,
						     uint32_t i);
/* The index of the top buffer (name ""), or -1 when the file has none. */
int tracedat_reader_top_buffer(const struct tracedat_reader *r);

enum tracedat_meta_kind {
	TRACEDAT_META_HEADER_PAGE = 1,
	TRACEDAT_META_HEADER_EVENT,
	TRACEDAT_META_FTRACE_FORMAT,	/* system "ftrace" */
	TRACEDAT_META_EVENT_FORMAT,
	TRACEDAT_META_KALLSYMS,
	TRACEDAT_META_PRINTK,
	TRACEDAT_META_CMDLINES,
};

struct tracedat_meta {
	enum tracedat_meta_kind kind;
	const char *system;	/* the event's system (FTRACE/EVENT_FORMAT), else NULL */
	const char *data;	/* len bytes plus a NUL; valid until the next call */
	size_t len;
	uint64_t offset;	/* file offset of the item, or of its compressed section */
};

/*
 * tracedat_reader_meta_next - the next metadata item
 *
 * Items come in the order header_page, header_event, ftrace formats,
 * event formats (system by system), kallsyms, printk, cmdlines; a missing
 * v7 section or an empty text yields nothing (kallsyms, printk and
 * cmdlines of length 0 are yielded).  Returns 1 with *m filled, 0 after
 * the last item (the metadata buffers are then freed; a new call starts
 * over), or a negative error; tracedat_reader_error_offset() tells where.
 */
int tracedat_reader_meta_next(struct tracedat_reader *r, struct tracedat_meta *m);

/* File offset of the last error of the reader or of one of its streams. */
uint64_t tracedat_reader_error_offset(const struct tracedat_reader *r);

/* Memory the reader holds now, and the most it held, in bytes. */
size_t tracedat_reader_mem(const struct tracedat_reader *r, size_t *peak);

/* Close the reader, its fd when tracedat_reader_open() opened it, and
 * every stream still open.  Accepts NULL. */
void tracedat_reader_close(struct tracedat_reader *r);

/* Page streams */

struct tracedat_page {
	const uint8_t *data;	/* page_size bytes (zero-padded past len), then
				 * at least 64 readable bytes, so that a walker
				 * reading an event header just past a damaged
				 * commit stays in memory; valid until the next
				 * call on the stream */
	uint32_t len;		/* bytes of the page in the file: page_size,
				 * less for a short last page */
	uint32_t commit;	/* bytes of events after the page header */
	uint64_t ts;		/* the page's timestamp */
	int64_t lost;		/* events lost before this page: 0 none, -1 an
				 * unknown number, else the kernel's count */
	uint64_t offset;	/* file offset of the page, or (zstd) of the
				 * header of the chunk that holds it */
	uint64_t index;		/* page number in this CPU's stream, from 0 */
	uint32_t count_bytes;	/* bytes of the lost count stored after the
				 * events: 0, or the kernel's long */
};

struct tracedat_stream_stats {
	uint64_t pages;
	uint64_t lost_pages;	/* pages with the missed-events flag */
	uint64_t lost_unknown;	/* of them, without a count */
	uint64_t lost_events;	/* sum of the known counts */
	uint64_t chunks;	/* zstd chunks decompressed */
	uint64_t bytes;		/* bytes read from the file */
};

struct tracedat_stream;

/*
 * tracedat_stream_open - the pages of one CPU of a buffer
 * @buffer: index of the buffer (tracedat_reader_buffer())
 * @cpu_index: index into that buffer's cpus[] (not the CPU id)
 *
 * Returns NULL and sets *err: -TRACEDAT_E_INVAL for indexes out of range,
 * -TRACEDAT_E_LATENCY for a text trace.  A stream holds at most one
 * chunk (zstd) or a readahead of up to 256 KiB.  Any number of streams
 * may be open at once (one per CPU for a merge in time order); they share
 * the reader's file and memory limit.
 */
struct tracedat_stream *tracedat_stream_open(struct tracedat_reader *r,
					     uint32_t buffer, uint32_t cpu_index,
					     int *err);

/*
 * tracedat_stream_next - the next page
 *
 * Checks the page header against the page (commit and a stored lost count
 * inside the page) before yielding it.  Returns 1 with *pg filled, 0 at
 * the end of the CPU's data, or a negative error (then the stream stays
 * stopped; tracedat_stream_error_offset() tells where).
 */
int tracedat_stream_next(struct tracedat_stream *s, struct tracedat_page *pg);

uint64_t tracedat_stream_error_offset(const struct tracedat_stream *s);
const struct tracedat_stream_stats *tracedat_stream_stats(const struct tracedat_stream *s);
/* The CPU id the stream reads. */
uint32_t tracedat_stream_cpu(const struct tracedat_stream *s);

/* Close a stream (the reader stays open).  Accepts NULL. */
void tracedat_stream_close(struct tracedat_stream *s);

/*
 * tracedat_page_header - the header of one ring-buffer page (sub-buffer)
 * of @len bytes whose commit field is @long_size (4 or 8) bytes long:
 * pg's ts, commit (bytes of events after the header), lost (0; the count
 * the kernel stored after the events; -1 flagged without one) and
 * count_bytes.  The one decoder of the page header, for every reader of
 * pages (trace.dat streams, .iorec chunks, the redaction's scrub).
 * Returns 0; 1 when a count is flagged as stored but lies past the page
 * (lost -1); -TRACEDAT_E_BAD_PAGE when the events run past the page
 * (commit then holds the size the page claims).
 */
int tracedat_page_header(const uint8_t *page, uint32_t len,
			 unsigned int long_size, bool big_endian,
			 struct tracedat_page *pg);

/*
 * Parse a page header with the reader's layout (page_header_size,
 * kernel_long_size, byte order): the same checks as tracedat_stream_next.
 * For callers that hold pages from elsewhere.
 */
int tracedat_page_parse(const struct tracedat_reader *r, const uint8_t *page,
			uint32_t len, struct tracedat_page *pg);

#endif /* TRACEDAT_H */
