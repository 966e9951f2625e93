// SPDX-License-Identifier: MIT
/*
 * test-scrub.c - unit tests of the string scrubber of ioreport redact
 * (input/scrub.c), fed a page built here with an event format of our own.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/err.h"
#include "input/scrub.h"
#include "tests/ftrace-text.h"

#define SUBBUF	4096
#define HDR	16		/* timestamp and commit of a 64-bit kernel */

static const char header_page[] = HEADER_PAGE_64;

/* "sys\0format": a char[16] and a __data_loc string after the common fields */
static const char format[] =
	"sys\0"
	"name: names\n"
	"ID: 200\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] path;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"%s %s\", REC->comm, __get_str(path)\n";

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* the host's order: the page says little */
}

/* A scrubber of a 64-bit little-endian kernel's pages, with one format. */
static struct scrub *new_scrub(const char *fmt, size_t len)
{
	struct scrub *s = scrub_new(false, 8, SUBBUF);
	struct an_err err;

	assert_non_null(s);
	assert_int_equal(scrub_header_page(s, header_page, sizeof(header_page) - 1,
					   &err), 0);
	assert_int_equal(scrub_format(s, (const uint8_t *)fmt, len, &err), 0);
	return s;
}

/* Every string becomes "file-1" (shorter than the originals). */
static void rename_all(void *arg, const char *system, const char *event,
		       const char *field, char *buf, size_t cap)
{
	(void)arg;
	(void)system;
	(void)event;
	(void)field;
	snprintf(buf, cap, "file-1");
}

/*
 * A record whose char[16] is full (no NUL: "/usr/bin/bashxyz") and whose
 * __data_loc string's room is its text without a NUL, as some events
 * store it: after the scrub, no byte of the originals' tails is left.
 */
static void test_full_strings(void **state)
{
	static const char comm[16] = "/usr/bin/bashxyz";
	static const char path[13] = "/usr/bin/bash";
	uint8_t page[SUBBUF];
	uint8_t *rec = page + HDR + 4;
	const size_t size = 28 + sizeof(path);
	const size_t padded = (size + 3) & ~(size_t)3;
	struct scrub *s;
	struct an_err err;
	long unknown;

	(void)state;
	if (*(const uint8_t *)&(uint16_t){ 1 } != 1)
		skip();		/* the page below is written little-endian */
	memset(page, 0xee, sizeof(page));
	memset(page, 0, HDR);
	put32(page + 8, (uint32_t)(4 + padded));	/* commit */
	put32(page + HDR, (uint32_t)padded / 4);	/* type_len, delta 0 */
	memset(rec, 0, padded);
	rec[0] = 200;					/* common_type */
	put32(rec + 4, 42);				/* common_pid */
	memcpy(rec + 8, comm, sizeof(comm));
	put32(rec + 24, (uint32_t)sizeof(path) << 16 | 28);
	memcpy(rec + 28, path, sizeof(path));

	s = new_scrub(format, sizeof(format) - 1);
	unknown = scrub_pages(s, page, sizeof(page), rename_all, NULL, &err);
	assert_int_equal(unknown, 0);
	assert_memory_equal(rec + 8, "file-1\0\0\0\0\0\0\0\0\0\0", 16);
	assert_memory_equal(rec + 28, "file-1\0\0\0\0\0\0\0", sizeof(path));
	assert_null(memmem(page, sizeof(page), "bash", 4));
	assert_null(memmem(page, sizeof(page), "in/", 3));
	/* past the commit: zeroed */
	for (size_t i = HDR + 4 + padded; i < SUBBUF; i++)
		assert_int_equal(page[i], 0);
	scrub_free(s);
}

static const char raw_format[] =
	"raw_syscalls\0"
	"name: sys_enter\n"
	"ID: 201\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	"\n"
	"print fmt: \"NR %ld (%lx, %lx)\", REC->id, REC->args[0], REC->args[1]\n";

/* One raw sys_enter of id nr, its six registers 1..5 and "in/bash\0". */
static void raw_page(uint8_t *page, long nr)
{
	uint8_t *rec = page + HDR + 4;

	memset(page, 0, SUBBUF);
	put32(page + 8, 4 + 64);			/* commit */
	put32(page + HDR, 64 / 4);			/* type_len 16 */
	rec[0] = 201;
	put32(rec + 4, 42);
	memcpy(rec + 8, &nr, 8);
	for (uint64_t i = 0; i < 5; i++)
		memcpy(rec + 16 + 8 * i, &(uint64_t){ i + 1 }, 8);
	memcpy(rec + 56, "in/bash", 8);
}

/*
 * The registers a raw sys_enter's call does not take are zeroed: a call
 * no stage follows keeps none, one that takes two keeps two, an id the
 * table does not list keeps all six; without a table nothing changes.
 */
static void test_raw_args(void **state)
{
	static const uint8_t nargs[] = { 2, 0, 0xff };
	static const struct { long nr; int keep; } cases[] = {
		{ 0, 2 }, { 1, 0 }, { 2, 6 }, { 3, 6 }, { -1, 6 },
	};
	uint8_t page[SUBBUF];
	const uint8_t *args = page + HDR + 4 + 16;
	struct scrub *s;
	struct an_err err;

	(void)state;
	if (*(const uint8_t *)&(uint16_t){ 1 } != 1)
		skip();
	s = new_scrub(raw_format, sizeof(raw_format) - 1);
	raw_page(page, 1);
	assert_int_equal(scrub_pages(s, page, sizeof(page), rename_all, NULL,
				     &err), 0);
	assert_non_null(memmem(page, sizeof(page), "in/bash", 7));
	scrub_raw_args(s, nargs, sizeof(nargs));
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		raw_page(page, cases[c].nr);
		assert_int_equal(scrub_pages(s, page, sizeof(page), rename_all,
					     NULL, &err), 0);
		for (int i = 0; i < 5; i++) {
			uint64_t v;

			memcpy(&v, args + 8 * i, 8);
			assert_int_equal(v, i < cases[c].keep ? (uint64_t)i + 1 : 0);
		}
		if (cases[c].keep < 6)
			assert_null(memmem(page, sizeof(page), "in/bash", 7));
		else
			assert_non_null(memmem(page, sizeof(page), "in/bash", 7));
	}
	scrub_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_strings),
		cmocka_unit_test(test_raw_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
