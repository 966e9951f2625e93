// SPDX-License-Identifier: MIT
/*
 * test-rnames.c - unit tests of the pseudonyms of ioreport redact
 * (input/rnames.c): in an event a path's pseudonym must fit where the
 * path was, and two names must never become one, however many names a
 * recording holds (a busy machine's recording named 1,627 files, and its
 * three-letter names met after the hundredth were cut to fit: two files
 * became one).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/kthread.h"
#include "sbuf.h"
#include "input/rnames.h"

#define NAMES	6000

/* The i-th made-up name of len letters (distinct for distinct i). */
static void name_of(char *buf, size_t len, unsigned i)
{
	for (size_t k = 0; k < len; k++) {
		buf[len - 1 - k] = (char)('a' + i % 26);
		i /= 26;
	}
	buf[len] = '\0';
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every pseudonym of a name of 3 to 6 letters is no longer, all differ,
   none is a kept two-letter name. */
static void fits_and_distinct(void **state)
{
	struct rnames_opts o = { 0 };
	struct rnames *t = rnames_new(&o);
	char **seen = calloc(NAMES, sizeof(*seen));
	char name[8];

	(void)state;
	assert_non_null(t);
	assert_non_null(seen);
	for (unsigned i = 0; i < NAMES; i++) {
		size_t len = 3 + i % 4;
		const char *p;

		name_of(name, len, i);
		p = rnames_get(t, RN_PART, name);
		assert_non_null(p);
		if (strlen(p) > len)
			fail_msg("'%s' became '%s', longer", name, p);
		assert_true(strlen(p) > RNAMES_KEEP_LEN);
		seen[i] = strdup(p);
		/* the same name, the same pseudonym */
		assert_string_equal(rnames_get(t, RN_PART, name), p);
	}
	qsort(seen, NAMES, sizeof(*seen), cmp_str);
	for (unsigned i = 1; i < NAMES; i++)
		if (!strcmp(seen[i - 1], seen[i]))
			fail_msg("two names became '%s'", seen[i]);
	for (unsigned i = 0; i < NAMES; i++)
		free(seen[i]);
	free(seen);
	rnames_free(t);
}

/* A path's pseudonym is no longer than the path, with a kept suffix. */
static void path_fits(void **state)
{
	struct rnames_opts o = { 0 };
	struct rnames *t = rnames_new(&o);
	char name[8];
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;

	(void)state;
	assert_non_null(t);
	for (unsigned i = 0; i < 2000; i++) {	/* numbers past 1,000 */
		name_of(name, 5, i);
		assert_non_null(rnames_get(t, RN_PART, name));
	}
	rnames_path(t, "/usr/lib/abc.db", &a);
	rnames_path(t, "/usr/lib/abc", &b);
	assert_false(a.failed || b.failed);
	assert_true(strlen(a.buf) <= strlen("/usr/lib/abc.db"));
	assert_true(strlen(b.buf) <= strlen("/usr/lib/abc"));
	assert_non_null(strstr(a.buf, ".db"));
	assert_string_not_equal(a.buf, b.buf);
	assert_string_not_equal(a.buf, "/usr/lib/abc.db");
	sbuf_release(&a);
	sbuf_release(&b);
	rnames_free(t);
}

/* A kernel thread's pseudonym stays a kernel thread's, and fits. */
static void kthread_fits(void **state)
{
	struct rnames_opts o = { 0 };
	struct rnames *t = rnames_new(&o);
	char name[8];
	const char *p, *q;

	(void)state;
	assert_non_null(t);
	for (unsigned i = 0; i < 500; i++) {
		name_of(name, 4, i);
		assert_non_null(rnames_get(t, RN_PART, name));
	}
	p = rnames_get(t, RN_PART, "md127");
	assert_non_null(p);
	assert_true(strlen(p) <= 5);
	assert_true(kthread_comm(p, NULL));
	q = rnames_get(t, RN_PART, "md126");
	assert_non_null(q);
	assert_string_not_equal(p, q);
	rnames_free(t);
}

/* Names read back from a mapping keep theirs; new ones take others. */
static void map_continues(void **state)
{
	struct rnames_opts o = { 0 };
	struct rnames *t = rnames_new(&o), *u = rnames_new(&o);
	char name[8], *buf = NULL, *first;
	size_t size = 0;
	unsigned long line;
	FILE *f = open_memstream(&buf, &size);

	(void)state;
	assert_non_null(t);
	assert_non_null(u);
	assert_non_null(f);
	for (unsigned i = 0; i < 300; i++) {
		name_of(name, 3, i);
		assert_non_null(rnames_get(t, RN_PART, name));
	}
	name_of(name, 3, 299);
	first = strdup(rnames_get(t, RN_PART, name));
	assert_int_equal(rnames_write_map(t, f), 0);
	fclose(f);
	f = fmemopen(buf, size, "r");
	assert_non_null(f);
	assert_int_equal(rnames_read_map(u, f, &line), 0);
	fclose(f);
	assert_string_equal(rnames_get(u, RN_PART, name), first);
	for (unsigned i = 300; i < 400; i++) {
		const char *p;

		name_of(name, 3, i);
		p = rnames_get(u, RN_PART, name);
		assert_non_null(p);
		assert_true(strlen(p) <= 3);
		/* none of the mapping's pseudonyms */
		for (unsigned k = 0; k < 300; k++) {
			char old[8];

			name_of(old, 3, k);
			if (!strcmp(p, rnames_get(u, RN_PART, old)))
				fail_msg("'%s' and '%s' both became '%s'",
					 name, old, p);
		}
	}
	free(first);
	free(buf);
	rnames_free(t);
	rnames_free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fits_and_distinct),
		cmocka_unit_test(path_fits),
		cmocka_unit_test(kthread_fits),
		cmocka_unit_test(map_continues),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
