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

	s = scrub_new(false, 8, SUBBUF);
	assert_non_null(s);
	assert_int_equal(scrub_header_page(s, header_page, sizeof(header_page) - 1,
					   &err), 0);
	assert_int_equal(scrub_format(s, (const uint8_t *)format,
				      sizeof(format) - 1, &err), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
