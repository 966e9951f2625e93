// SPDX-License-Identifier: MIT
/*
 * test-fmt-util.c - unit tests of the helpers the .iorec and trace.dat
 * code of formats/ shares: the write and the read loop through interrupted
 * and short transfers, their pwrite() and pread() forms and their errors,
 * the "no space" errno test, buffer growth to a size or by doubling (and
 * its failure), array growth (and its overflow checks), the string
 * builder and its sticky failure, and the error-table lookup.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fmt-util.h"

#define PIPE_BYTES	(8u << 20)

/*
 * In the sanitizer build: test_grow asks for more than any allocator can
 * give, to see the failure returned; ASan's default is to abort instead.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 7 + i / 4096);
}

/*
 * A slow reader on a pipe, and a timer signal without SA_RESTART every
 * millisecond: the writer's write() calls are interrupted, before any
 * byte (EINTR) or after some (a short write).  Every byte must arrive, in
 * order, and be counted once.
 */
static void test_write_all_interrupted(void **state)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } }, off = { 0 };
	struct sigaction sa;
	uint64_t done = 0;
	uint8_t *buf = malloc(PIPE_BYTES);
	int p[2], status;
	pid_t pid;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < PIPE_BYTES; i++)
		buf[i] = pattern(i);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint8_t in[4096];
		size_t got = 0;
		ssize_t n;

		close(p[1]);
		while ((n = read(p[0], in, sizeof(in))) > 0) {
			for (ssize_t i = 0; i < n; i++)
				if (in[i] != pattern(got + (size_t)i))
					_exit(2);
			got += (size_t)n;
			if (got % (256u << 10) < sizeof(in))
				usleep(2000);
		}
		_exit(n == 0 && got == PIPE_BYTES ? 0 : 3);
	}
	close(p[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	assert_int_equal(fmt_write_all(p[1], buf, PIPE_BYTES, NULL, &done), 0);
	setitimer(ITIMER_REAL, &off, NULL);
	close(p[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(done, PIPE_BYTES);
	assert_true(alarms > 0);
	free(buf);
}

/* With an offset: pwrite() there, the offset advanced, fd's own not. */
static void test_write_all_at(void **state)
{
	int fd = memfd_create("fmt-util", 0);
	uint64_t at = 100, done = 5;
	char back[8];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(fmt_write_all(fd, "abcdef", 6, &at, &done), 0);
	assert_int_equal(at, 106);
	assert_int_equal(done, 11);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
	assert_int_equal(pread(fd, back, 6, 100), 6);
	assert_memory_equal(back, "abcdef", 6);
	/* no count asked for, nothing to write */
	assert_int_equal(fmt_write_all(fd, "x", 1, NULL, NULL), 0);
	assert_int_equal(fmt_write_all(fd, NULL, 0, NULL, &done), 0);
	assert_int_equal(done, 11);
	close(fd);
}

/* A failed write: -1 with the errno of write(), nothing counted. */
static void test_write_all_errors(void **state)
{
	int fd = open("/dev/full", O_WRONLY);
	uint64_t done = 0;

	(void)state;
	if (fd < 0)
		skip();
	assert_int_equal(fmt_write_all(fd, "abc", 3, NULL, &done), -1);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(done, 0);
	close(fd);
	assert_int_equal(fmt_write_all(-1, "abc", 3, NULL, &done), -1);
	assert_int_equal(errno, EBADF);
}

/*
 * The reading side: a writer child sends the pattern in pieces with pauses
 * while a timer interrupts read() every millisecond; every byte arrives in
 * one call, in order.  Then the end of the pipe: fewer bytes, not -1.
 */
static void test_read_all_interrupted(void **state)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } }, off = { 0 };
	struct sigaction sa;
	uint8_t *buf = malloc(PIPE_BYTES + 16);
	int p[2], status;
	pid_t pid;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint8_t out[4096];

		close(p[0]);
		for (size_t sent = 0; sent < PIPE_BYTES; sent += sizeof(out)) {
			for (size_t i = 0; i < sizeof(out); i++)
				out[i] = pattern(sent + i);
			if (fmt_write_all(p[1], out, sizeof(out), NULL, NULL))
				_exit(2);
			if (sent % (256u << 10) == 0)
				usleep(2000);
		}
		_exit(0);
	}
	close(p[1]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	alarms = 0;
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	assert_int_equal(fmt_read_all(p[0], buf, PIPE_BYTES, NULL), PIPE_BYTES);
	setitimer(ITIMER_REAL, &off, NULL);
	for (size_t i = 0; i < PIPE_BYTES; i++)
		if (buf[i] != pattern(i))
			fail_msg("byte %zu differs", i);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(alarms > 0);
	/* the writer is gone: the end of the file, no error */
	assert_int_equal(fmt_read_all(p[0], buf, 16, NULL), 0);
	close(p[0]);
	free(buf);
}

/*
 * With an offset: pread() there, the offset advanced past what was read
 * (to the end of the file when it is short), fd's own offset not moved.
 */
static void test_read_all_at(void **state)
{
	int fd = memfd_create("fmt-util", 0);
	uint64_t at = 2;
	char back[8];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "abcdef", 6), 6);
	assert_int_equal(lseek(fd, 1, SEEK_SET), 1);
	assert_int_equal(fmt_read_all(fd, back, 3, &at), 3);
	assert_memory_equal(back, "cde", 3);
	assert_int_equal(at, 5);
	assert_int_equal(fmt_read_all(fd, back, 8, &at), 1);
	assert_int_equal(back[0], 'f');
	assert_int_equal(at, 6);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 1);
	/* at fd's position */
	assert_int_equal(fmt_read_all(fd, back, 2, NULL), 2);
	assert_memory_equal(back, "bc", 2);
	assert_int_equal(fmt_read_all(fd, back, 0, NULL), 0);
	close(fd);
}

/* A failed read: -1 with the errno of read(); a length past SSIZE_MAX. */
static void test_read_all_errors(void **state)
{
	char back[4];
	uint64_t at = 7;

	(void)state;
	assert_int_equal(fmt_read_all(-1, back, sizeof(back), NULL), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(fmt_read_all(-1, back, sizeof(back), &at), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(at, 7);
	assert_int_equal(fmt_read_all(0, back, (size_t)SSIZE_MAX + 1, NULL), -1);
	assert_int_equal(errno, EINVAL);
}

static void test_write_nospc(void **state)
{
	(void)state;
	assert_true(fmt_write_nospc(ENOSPC));
	assert_true(fmt_write_nospc(EDQUOT));
	assert_false(fmt_write_nospc(EIO));
	assert_false(fmt_write_nospc(0));
}

static void test_grow(void **state)
{
	void *buf = NULL;
	size_t cap = 0;

	(void)state;
	/* exact */
	assert_int_equal(fmt_grow(&buf, &cap, 10, 0), 0);
	assert_non_null(buf);
	assert_int_equal(cap, 10);
	assert_int_equal(fmt_grow(&buf, &cap, 7, 0), 0);
	assert_int_equal(cap, 10);
	free(buf);

	/* doubling from a first capacity */
	buf = NULL;
	cap = 0;
	assert_int_equal(fmt_grow(&buf, &cap, 1, 256), 0);
	assert_int_equal(cap, 256);
	memset(buf, 'x', 256);
	assert_int_equal(fmt_grow(&buf, &cap, 257, 256), 0);
	assert_int_equal(cap, 512);
	assert_int_equal(fmt_grow(&buf, &cap, 3000, 256), 0);
	assert_int_equal(cap, 4096);
	assert_int_equal(((char *)buf)[255], 'x');

	/* too much: no doubling past the overflow, the buffer kept */
	{
		void *old = buf;

		assert_int_equal(fmt_grow(&buf, &cap, SIZE_MAX, 256), -1);
		assert_ptr_equal(buf, old);
		assert_int_equal(cap, 4096);
		assert_int_equal(((char *)buf)[0], 'x');
	}
	free(buf);
}

/*
 * Arrays: capacities in elements, doubling from first; a byte size past
 * SIZE_MAX (a count from a file, on a 32-bit size_t) fails before any
 * allocation, and doubling stops short of it.
 */
static void test_grow_array(void **state)
{
	uint32_t *arr = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(fmt_grow_array((void **)&arr, &cap, 1, sizeof(*arr),
					16), 0);
	assert_int_equal(cap, 16);
	arr[15] = 7;
	assert_int_equal(fmt_grow_array((void **)&arr, &cap, 17, sizeof(*arr),
					16), 0);
	assert_int_equal(cap, 32);
	assert_int_equal(arr[15], 7);
	assert_int_equal(fmt_grow_array((void **)&arr, &cap, 20, sizeof(*arr),
					0), 0);
	assert_int_equal(cap, 32);

	/* need * size wraps: refused, the array kept */
	{
		uint32_t *old = arr;

		assert_int_equal(fmt_grow_array((void **)&arr, &cap,
						SIZE_MAX / 4 + 1, sizeof(*arr),
						16), -1);
		assert_int_equal(fmt_grow_array((void **)&arr, &cap,
						SIZE_MAX / 2, 8, 0), -1);
		assert_ptr_equal(arr, old);
		assert_int_equal(cap, 32);
		assert_int_equal(arr[15], 7);
	}
	/*
	 * the largest count that fits: doubling would wrap, so exactly that
	 * is asked for, which no allocator gives
	 */
	assert_int_equal(fmt_grow_array((void **)&arr, &cap, SIZE_MAX / 4,
					sizeof(*arr), 16), -1);
	assert_int_equal(cap, 32);
	free(arr);
}

/*
 * The string builder: appends kept in order and 0-terminated, growth from
 * 256 bytes; a failed append (here a length past SIZE_MAX) sticks, so the
 * later ones do nothing; freed, the buffer is empty and usable again.
 */
static void test_buf(void **state)
{
	struct fmt_buf b = { 0 };

	(void)state;
	fmt_buf_add(&b, NULL, 0);
	assert_false(b.oom);
	assert_int_equal(b.len, 0);
	assert_non_null(b.p);
	assert_int_equal(b.p[0], 0);
	fmt_buf_add(&b, "abc", 3);
	fmt_buf_add(&b, "de", 2);
	assert_int_equal(b.len, 5);
	assert_int_equal(b.cap, 256);
	assert_string_equal((char *)b.p, "abcde");
	for (int i = 0; i < 100; i++)
		fmt_buf_add(&b, "0123456789", 10);
	assert_int_equal(b.len, 1005);
	assert_int_equal(b.cap, 1024);
	assert_int_equal(b.p[b.len], 0);
	assert_memory_equal(b.p + 995, "0123456789", 10);

	fmt_buf_add(&b, "x", SIZE_MAX - b.len);
	assert_true(b.oom);
	assert_int_equal(b.len, 1005);
	fmt_buf_add(&b, "y", 1);
	assert_true(b.oom);
	assert_int_equal(b.len, 1005);

	fmt_buf_free(&b);
	assert_null(b.p);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	assert_false(b.oom);
	fmt_buf_add(&b, "z", 1);
	assert_string_equal((char *)b.p, "z");
	fmt_buf_free(&b);
}

static void test_strerror(void **state)
{
	static const char *const str[] = { "first", "second", "third" };

	(void)state;
	assert_string_equal(fmt_strerror(str, 500, 503, 0), "success");
	assert_string_equal(fmt_strerror(str, 500, 503, -502), "third");
	assert_string_equal(fmt_strerror(str, 500, 503, 500), "first");
	assert_string_equal(fmt_strerror(str, 500, 503, -503), "unknown error");
	assert_string_equal(fmt_strerror(str, 500, 503, -1), "unknown error");
	assert_string_equal(fmt_strerror(str, 500, 503, 499), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_all_interrupted),
		cmocka_unit_test(test_write_all_at),
		cmocka_unit_test(test_write_all_errors),
		cmocka_unit_test(test_read_all_interrupted),
		cmocka_unit_test(test_read_all_at),
		cmocka_unit_test(test_read_all_errors),
		cmocka_unit_test(test_write_nospc),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_grow_array),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
