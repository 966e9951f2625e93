// SPDX-License-Identifier: MIT
/*
 * writer.c - a workload with known bytes for the ARM and 32-bit tests:
 * O_DIRECT pwrite()s, buffered write()s + fsync(), small writev()s +
 * fdatasync() to three named files, then read()s one of them back, and
 * sync()s.
 *
 * Usage: writer DIR [TAG]
 * Files DIR/TAG-direct.dat, DIR/TAG-buffered.dat, DIR/TAG-small.dat (TAG
 * defaults to "w").  It prints one line per file with the calls and bytes,
 * which the tests compare with what the recording shows; exits 0 only if
 * every call did all it was asked.  Built for every architecture the tests
 * run (cross-compiled, -m32), so it uses only the C library.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define DIRECT_N	16
#define DIRECT_SZ	65536
#define BUF_N		32
#define BUF_SZ		16384
#define SMALL_N		50
#define SMALL_SZ	100	/* each writev: two iovecs of this */

static int die(const char *what, const char *path)
{
	fprintf(stderr, "writer: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		die("open", path);
	return fd;
}

static void close_or_die(int fd, const char *path)
{
	if (close(fd) < 0)
		die("close", path);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	const char *tag = argc > 2 ? argv[2] : "w";
	char path[3][4096];
	char small[2][SMALL_SZ];
	struct iovec iov[2];
	void *block;
	char *buf;
	long done;
	int fd, i;

	if (argc < 2) {
		fprintf(stderr, "usage: writer DIR [TAG]\n");
		return 2;
	}
	snprintf(path[0], sizeof(path[0]), "%s/%s-direct.dat", dir, tag);
	snprintf(path[1], sizeof(path[1]), "%s/%s-buffered.dat", dir, tag);
	snprintf(path[2], sizeof(path[2]), "%s/%s-small.dat", dir, tag);
	if (posix_memalign(&block, 4096, DIRECT_SZ))
		return 1;
	buf = malloc(BUF_SZ);
	if (!buf)
		return 1;

	/* O_DIRECT: each pwrite goes to the device as it is */
	fd = open_or_die(path[0], O_CREAT | O_TRUNC | O_WRONLY | O_DIRECT);
	for (i = 0; i < DIRECT_N; i++) {
		memset(block, 'A' + i % 26, DIRECT_SZ);
		if (pwrite(fd, block, DIRECT_SZ, (off_t)i * DIRECT_SZ) != DIRECT_SZ)
			die("pwrite", path[0]);
	}
	close_or_die(fd, path[0]);
	printf("writer: %d %s pwrite64 %d bytes %ld\n", (int)getpid(), path[0],
	       DIRECT_N, (long)DIRECT_N * DIRECT_SZ);

	/* buffered writes, then one fsync */
	fd = open_or_die(path[1], O_CREAT | O_TRUNC | O_WRONLY);
	for (i = 0; i < BUF_N; i++) {
		memset(buf, 'a' + i % 26, BUF_SZ);
		if (write(fd, buf, BUF_SZ) != BUF_SZ)
			die("write", path[1]);
	}
	if (fsync(fd) < 0)
		die("fsync", path[1]);
	close_or_die(fd, path[1]);
	printf("writer: %d %s write %d bytes %ld fsync 1\n", (int)getpid(),
	       path[1], BUF_N, (long)BUF_N * BUF_SZ);

	/* small vector writes, then one fdatasync */
	fd = open_or_die(path[2], O_CREAT | O_TRUNC | O_WRONLY);
	memset(small[0], 'x', SMALL_SZ);
	memset(small[1], 'y', SMALL_SZ);
	iov[0].iov_base = small[0];
	iov[0].iov_len = SMALL_SZ;
	iov[1].iov_base = small[1];
	iov[1].iov_len = SMALL_SZ;
	for (i = 0; i < SMALL_N; i++)
		if (writev(fd, iov, 2) != 2 * SMALL_SZ)
			die("writev", path[2]);
	if (fdatasync(fd) < 0)
		die("fdatasync", path[2]);
	close_or_die(fd, path[2]);
	printf("writer: %d %s writev %d bytes %ld fdatasync 1\n", (int)getpid(),
	       path[2], SMALL_N, (long)SMALL_N * 2 * SMALL_SZ);

	/*
	 * read the buffered file back (from the page cache), a few ticks of
	 * the kernel's clock after the file was made: a cached read of an
	 * fd whose open has no name (a 32-bit program on a kernel without
	 * kprobes) is tied to its inode only by the access time's update
	 * (relatime), which a read within the tick the file was created in
	 * does not make (docs/attribution.md); on a fast device the whole
	 * writer took less than a tick, and the reads were on no file
	 */
	usleep(50000);
	fd = open_or_die(path[1], O_RDONLY);
	for (i = 0, done = 0; i < BUF_N; i++, done += BUF_SZ)
		if (read(fd, buf, BUF_SZ) != BUF_SZ)
			die("read", path[1]);
	close_or_die(fd, path[1]);
	printf("writer: %d %s read %d bytes %ld\n", (int)getpid(), path[1],
	       BUF_N, done);
	/* metadata too, so that the device is quiet when the writer ends */
	sync();
	free(buf);
	free(block);
	return 0;
}
