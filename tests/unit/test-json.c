// SPDX-License-Identifier: MIT
/*
 * test-json.c - unit tests of the JSON writer: commas and nesting,
 * escaping (quotes, controls, valid and invalid UTF-8), numbers (and
 * json_num's integers and doubles), misuse detection, and a histogram
 * written as bucket bounds.
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

#include "sink/json.h"
#include "stats/hist.h"

struct mem {
	char *buf;
	size_t len;
	FILE *f;
	struct json j;
};

static void mem_open(struct mem *m, bool compact)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	json_init(&m->j, m->f);
	m->j.compact = compact;
}

/*
 * Finish and close m: json_finish must find the document whole and m hold
 * want, or (want NULL) find it misused.
 */
static void mem_check(struct mem *m, const char *want)
{
	int rc = json_finish(&m->j);

	fclose(m->f);
	if (want) {
		assert_int_equal(rc, 0);
		assert_string_equal(m->buf, want);
	} else {
		assert_int_equal(rc, -1);
	}
	free(m->buf);
}

static void test_nesting(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m, true);
	json_object_begin(&m.j, NULL);
	json_str(&m.j, "a", "x");
	json_u64(&m.j, "b", 18446744073709551615ULL);
	json_i64(&m.j, "c", -5);
	json_array_begin(&m.j, "d");
	json_bool(&m.j, NULL, true);
	json_null(&m.j, NULL);
	json_object_begin(&m.j, NULL);
	json_object_end(&m.j);
	json_array_begin(&m.j, NULL);
	json_array_end(&m.j);
	json_array_end(&m.j);
	json_double(&m.j, "e", 1.5);
	json_double(&m.j, "f", 0.0 / 0.0);
	json_str(&m.j, "g", NULL);
	json_object_end(&m.j);
	mem_check(&m,
		"{\"a\":\"x\",\"b\":18446744073709551615,\"c\":-5,"
		"\"d\":[true,null,{},[]],\"e\":1.5,\"f\":null,\"g\":null}\n");
}

static void test_pretty(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m, false);
	json_object_begin(&m.j, NULL);
	json_u64(&m.j, "a", 1);
	json_array_begin(&m.j, "b");
	json_u64(&m.j, NULL, 2);
	json_array_end(&m.j);
	json_object_end(&m.j);
	mem_check(&m, "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n");
}

static void test_escape(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m, true);
	json_array_begin(&m.j, NULL);
	json_str(&m.j, NULL, "q\"b\\s/n\nt\tr\rc\x01\x7f");
	json_str(&m.j, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	json_str(&m.j, NULL, "bad\xff\xc3(\xed\xa0\x80");
	json_strn(&m.j, NULL, "abcdef", 3);
	json_array_end(&m.j);
	mem_check(&m,
		"[\"q\\\"b\\\\s/n\\nt\\tr\\rc\\u0001\\u007f\","
		"\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
		"\"bad\\u00ff\\u00c3(\\u00ed\\u00a0\\u0080\",\"abc\"]\n");
}

/* json_num: integers as integers, the rest as doubles, NaN/inf null */
static void test_num(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m, true);
	json_array_begin(&m.j, NULL);
	json_num(&m.j, NULL, 42);
	json_num(&m.j, NULL, -3);
	json_num(&m.j, NULL, 0.25);
	json_num(&m.j, NULL, 1e16);
	json_num(&m.j, NULL, 0.0 / 0.0);
	json_num(&m.j, NULL, 1.0 / 0.0);
	json_array_end(&m.j);
	mem_check(&m, "[42,-3,0.25,1e+16,null,null]\n");
}

static void test_misuse(void **state)
{
	struct mem m;

	(void)state;
	mem_open(&m, true);		/* unclosed */
	json_object_begin(&m.j, NULL);
	mem_check(&m, NULL);

	mem_open(&m, true);		/* key in an array */
	json_array_begin(&m.j, NULL);
	json_u64(&m.j, "k", 1);
	json_array_end(&m.j);
	mem_check(&m, NULL);

	mem_open(&m, true);		/* wrong closer */
	json_object_begin(&m.j, NULL);
	json_array_end(&m.j);
	mem_check(&m, NULL);
}

static void test_hist(void **state)
{
	struct hist h = HIST_INIT;
	struct mem m;

	(void)state;
	hist_add(&h, 10);
	hist_add(&h, 10);
	hist_add(&h, 1000);
	mem_open(&m, true);
	json_object_begin(&m.j, NULL);
	json_hist(&m.j, "h", &h);
	json_object_end(&m.j);
	mem_check(&m,
		"{\"h\":{\"count\":3,\"sum_ns\":1020,\"avg_ns\":340,\"min_ns\":10,"
		"\"max_ns\":1000,\"p50_ns\":10,\"p90_ns\":1000,"
		"\"p99_ns\":1000,\"p999_ns\":1000,"
		"\"buckets\":[[10,10,2],[992,1023,1]]}}\n");
	hist_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_num),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_hist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
