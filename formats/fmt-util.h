/* SPDX-License-Identifier: MIT */
/*
 * fmt-util.h - helpers shared by the .iorec and the trace.dat code of
 * libiorec (not installed, not exported), each written once for both
 * containers.
 */
#ifndef FMT_UTIL_H
#define FMT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * fmt_strerror - the string of an error code in a table built from an
 * X-macro error list (IOREC_ERRORS, TRACEDAT_ERRORS)
 * @str: the strings, str[0] for the code @base
 * @base: the first code of the list
 * @max: one past the last code
 * @err: the code, negative (as returned) or positive; 0 is "success"
 *
 * Return: a static string, "unknown error" for a code out of range.
 */
const char *fmt_strerror(const char *const *str, int base, int max, int err);

/*
 * fmt_write_all - write all of buf to fd, retrying on EINTR and short
 * writes
 * @at: NULL to write at fd's position (fd may be a pipe); else the file
 *   offset to pwrite() at, advanced past what was written
 * @done: NULL, or a count increased by every byte written, also by those
 *   written before a failure
 *
 * Return: 0, or -1 with errno set (EIO for a write that wrote nothing).
 */
int fmt_write_all(int fd, const void *buf, size_t len, uint64_t *at,
		  uint64_t *done);

/*
 * fmt_write_nospc - whether the errno of a failed write says the file
 * system or the user's quota is full (ENOSPC, EDQUOT): the writers report
 * that as their "no space" error, which a user can act on, rather than as
 * a plain I/O error
 */
bool fmt_write_nospc(int err);

/*
 * fmt_read_all - read len bytes from fd into buf, retrying on EINTR and
 * short reads; only the end of the file stops it early
 * @at: NULL to read at fd's position (fd may be a pipe); else the file
 *   offset to pread() at, advanced past what was read, also by the bytes
 *   read before a failure (so *at names where the file ended or failed)
 *
 * Return: the bytes read, len or fewer at the end of the file; or -1 with
 * errno set for a failed read, or EINVAL for len past SSIZE_MAX.
 */
ssize_t fmt_read_all(int fd, void *buf, size_t len, uint64_t *at);

/*
 * fmt_grow_array - make the heap array *buf of *cap elements of size bytes
 * hold need elements
 * @size: the bytes of one element, not 0
 * @first: 0 to grow to need elements exactly; else the capacity an empty
 *   array starts with, doubled until it holds need (an array appended to
 *   one element at a time is then reallocated only a few times)
 *
 * The byte size is checked: need * size past SIZE_MAX fails (with a
 * 32-bit size_t a count read from a file can get there), and doubling
 * stops short of it, growing to exactly need instead.
 *
 * Return: 0, or -1 when out of memory or past SIZE_MAX bytes (*buf and
 * *cap unchanged).
 */
int fmt_grow_array(void **buf, size_t *cap, size_t need, size_t size,
		   size_t first);

/*
 * fmt_grow - fmt_grow_array() of bytes: make the heap buffer *buf of *cap
 * bytes hold need bytes, exactly (first 0) or doubling from first
 *
 * Return: 0, or -1 when out of memory (*buf and *cap unchanged).
 */
static inline int fmt_grow(void **buf, size_t *cap, size_t need, size_t first)
{
	return fmt_grow_array(buf, cap, need, 1, first);
}

/*
 * struct fmt_buf - a byte string on the heap, built by appending; zeroed,
 * it is empty
 * @p: the bytes, NULL until the first append; after a successful append
 *   p[len] is 0, so a text built in it is also a C string
 * @len: the bytes appended
 * @cap: the bytes allocated
 * @oom: an append failed (out of memory, or len past SIZE_MAX): the string
 *   is incomplete, and every later append does nothing, so that a builder
 *   appends all its pieces and checks oom once at the end
 */
struct fmt_buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

/*
 * fmt_buf_add - append len bytes of data (NULL when len is 0) to b,
 * growing it by doubling from 256 bytes
 *
 * Nothing is returned: a failure sets b->oom (see struct fmt_buf) and
 * leaves the bytes appended before it.
 */
void fmt_buf_add(struct fmt_buf *b, const void *data, size_t len);

/* fmt_buf_free - free b's bytes; b is then empty, oom cleared. */
void fmt_buf_free(struct fmt_buf *b);

#endif /* FMT_UTIL_H */
