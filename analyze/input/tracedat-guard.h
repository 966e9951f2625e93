/* SPDX-License-Identifier: MIT */
/*
 * tracedat-guard.h - checks the structure of a trace-cmd trace.dat file
 * (file versions 6 and 7) before libtracecmd opens it, since libtracecmd
 * trusts the sizes, counts and offsets it reads and hands the texts to
 * libtraceevent.
 *
 * The walk follows what libtracecmd 3.1 reads when it opens a file and
 * prepares its data: every size and count against the bytes that are
 * there, every offset inside the file, every string terminated where
 * libtracecmd's reader needs it, every options chain without a loop,
 * compressed blocks (zstd) that decompress within caps, every event
 * format, header_page, printk and kallsyms text through the ftrace
 * grammar (ftrace-guard.h), and options libtracecmd mishandles refused.
 * Its work and the work it lets libtracecmd do are linear in the file's
 * size: the sizes to decompress are capped, so opening a file takes
 * bounded time whatever the bytes.
 */
#ifndef IOREPORT_TRACEDAT_GUARD_H
#define IOREPORT_TRACEDAT_GUARD_H

#include <stdint.h>

#include <stddef.h>

/*
 * Bytes to write over the file before libtracecmd reads it: an event
 * format whose print fmt is not well formed gets the neutral
 * `print fmt: ""` (padded with spaces to the same length, recompressed
 * in place in a compressed section), so that only checked texts reach
 * libtraceevent and nothing else in the file moves.
 */
struct tracedat_patch {
	uint64_t offset;
	size_t len;
	unsigned char *bytes;
};

struct tracedat_patches {
	struct tracedat_patch *v;
	size_t n, alloc;
	/* formats whose print fmt is replaced; the first: where, and why */
	unsigned int formats;
	uint64_t first_offset;
	const char *first_reason;
};

/*
 * tracedat_guard - may libtracecmd open this trace.dat?
 * @fd: the file, read with pread() (its offset is left alone)
 * @patches: filled with what to write over a copy of the file first
 *   (release with tracedat_patches_release())
 * @why: set to a static text naming the problem
 * @off: set to the file offset where it is
 *
 * Returns 0 when it may (after the patches), -1 when not (*why, *off
 * set), -AN_E_NOMEM when memory ran out checking it.
 */
int tracedat_guard(int fd, struct tracedat_patches *patches,
		   const char **why, uint64_t *off);
void tracedat_patches_release(struct tracedat_patches *p);

/*
 * tracedat_patched_copy - a copy of the file at fd with the patches
 * written over it, in an unlinked temporary file of $TMPDIR (or /tmp)
 *
 * Returns its fd, at offset 0, or -1 with errno set.
 */
int tracedat_patched_copy(int fd, const struct tracedat_patches *p);

#endif /* IOREPORT_TRACEDAT_GUARD_H */
