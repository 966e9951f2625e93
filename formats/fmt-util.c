// SPDX-License-Identifier: MIT
/*
 * fmt-util.c - the helpers the .iorec and the trace.dat writers and
 * readers share.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt-util.h"

const char *fmt_strerror(const char *const *str, int base, int max, int err)
{
	if (err < 0)
		err = -err;
	if (err == 0)
		return "success";
	if (err < base || err >= max)
		return "unknown error";
	return str[err - base];
}

int fmt_write_all(int fd, const void *buf, size_t len, uint64_t *at,
		  uint64_t *done)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = at ? pwrite(fd, p, len, (off_t)*at) :
				 write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		if (at)
			*at += (uint64_t)n;
		if (done)
			*done += (uint64_t)n;
	}
	return 0;
}

bool fmt_write_nospc(int err)
{
	return err == ENOSPC || err == EDQUOT;
}

ssize_t fmt_read_all(int fd, void *buf, size_t len, uint64_t *at)
{
	uint8_t *p = buf;
	size_t got = 0;

	if (len > SSIZE_MAX) {
		errno = EINVAL;
		return -1;
	}
	while (got < len) {
		ssize_t n = at ? pread(fd, p + got, len - got, (off_t)*at) :
				 read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
		if (at)
			*at += (uint64_t)n;
	}
	return (ssize_t)got;
}

int fmt_grow_array(void **buf, size_t *cap, size_t need, size_t size,
		   size_t first)
{
	size_t max = SIZE_MAX / size, n = need;
	void *nb;

	if (need <= *cap)
		return 0;
	if (need > max)
		return -1;
	if (first) {
		n = *cap ? *cap : first;
		if (n > max)
			n = need;
		/* doubling stops short of overflow: then exactly need */
		while (n < need)
			n = n > max / 2 ? need : n * 2;
	}
	nb = realloc(*buf, n * size);
	if (!nb)
		return -1;
	*buf = nb;
	*cap = n;
	return 0;
}

void fmt_buf_add(struct fmt_buf *b, const void *data, size_t len)
{
	if (b->oom)
		return;
	/* room for the terminating 0 too */
	if (len > SIZE_MAX - 1 - b->len ||
	    fmt_grow((void **)&b->p, &b->cap, b->len + len + 1, 256)) {
		b->oom = true;
		return;
	}
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	b->p[b->len] = 0;
}

void fmt_buf_free(struct fmt_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
