/* SPDX-License-Identifier: MIT */
/*
 * iorec-tracedat.h - a .iorec recording converted to a trace.dat: the
 * .iorec reader fed to the trace.dat writer, bytes only.
 *
 * What goes where is in docs/tracedat.md ("The options written"): the
 * HEADER chunk gives the byte order, long size, sub-buffer (page) size,
 * CPU count and clock; HEADER_PAGE, HEADER_EVENT, EVENT_FORMAT, PRINTK and
 * CMDLINES give the metadata; the start SNAPSHOT's uname line the UNAME
 * option; STATS one CPUSTAT option per CPU; every DATA chunk its pages,
 * unchanged.
 */
#ifndef IOREC_TRACEDAT_H
#define IOREC_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iorec-format.h"
#include "tracedat.h"

struct iorec_tracedat_opts {
	int version;			/* 6 or 7; 0 selects 7 */
	bool compress;			/* version 7: compressed */
	enum tracedat_codec codec;	/* with compress: zstd (NONE selects it) or zlib */
	int zstd_level;			/* the codec's level, 0 for its default */
	uint32_t chunk_pages;		/* 0 selects 10 */
	const char *tmpdir;		/* the writer's spool; NULL: $TMPDIR or /tmp */
	const char *writer_version;	/* the VERSION option ("ioreport 0.2"), or NULL */
	/*
	 * "PID COMM\n" lines written after the recording's own saved
	 * cmdlines, e.g. the processes seen in its events (libtraceevent
	 * keeps the first name it reads for a pid), or NULL.
	 */
	const char *extra_cmdlines;
	size_t extra_cmdlines_len;
	/* Called with every page given to the writer (for tests), or NULL. */
	void (*on_page)(void *arg, uint32_t cpu, const uint8_t *page, size_t len);
	void *arg;
};

struct iorec_tracedat_result {
	int read_err;		/* 0, or the iorec_error that ended the reading */
	uint64_t read_err_offset;
	uint64_t chunks;	/* chunks of the recording read */
	uint64_t pages;		/* pages written */
	uint64_t written;	/* bytes written to fd */
	int write_errno;	/* errno of a failed write, or 0 */
};

/*
 * iorec_to_tracedat - write the recording r as a trace.dat on fd
 * @r: a reader just opened (iorec_reader_open); read to its end
 * @fd: a file or a pipe, written front to back; never closed
 * @res: filled in every case
 *
 * Returns 0 when the trace.dat is complete: a recording cut or damaged
 * after its header converts to the trace.dat of the chunks before the
 * damage, and res->read_err names the damage.  Returns a negative
 * tracedat_error when no trace.dat was written whole: the writer's error
 * (-TRACEDAT_E_NOSPC for a full disk), -TRACEDAT_E_BAD_HEADER when the
 * recording has no usable HEADER, HEADER_PAGE or HEADER_EVENT chunk
 * (res->read_err says why, when the reader stopped), -TRACEDAT_E_INVAL
 * for a DATA chunk whose CPU or sub-buffer size the header contradicts.
 */
int iorec_to_tracedat(struct iorec_reader *r, int fd,
		      const struct iorec_tracedat_opts *o,
		      struct iorec_tracedat_result *res);

#endif /* IOREC_TRACEDAT_H */
