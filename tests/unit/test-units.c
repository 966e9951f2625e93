// SPDX-License-Identifier: MIT
/*
 * test-units.c - unit tests of the one unit convention (base/units.h):
 * binary sizes with IEC names, the short table form of ls -h, rates in
 * MiB/s and durations in us/ms/s, at and around every boundary.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/units.h"
#include "sbuf.h"

static void test_bytes(void **state)
{
	char b[UNITS_BUF];

	(void)state;
	assert_string_equal(units_bytes(b, sizeof(b), 0), "0 B");
	assert_string_equal(units_bytes(b, sizeof(b), 512), "512 B");
	assert_string_equal(units_bytes(b, sizeof(b), 1023), "1023 B");
	assert_string_equal(units_bytes(b, sizeof(b), 1024), "1.0 KiB");
	assert_string_equal(units_bytes(b, sizeof(b), 7270), "7.1 KiB");
	/* 5,643,264 bytes: the sample's write volume, 5.38 MiB */
	assert_string_equal(units_bytes(b, sizeof(b), 5643264), "5.4 MiB");
	assert_string_equal(units_bytes(b, sizeof(b), 18.3 * UNITS_MIB), "18.3 MiB");
	assert_string_equal(units_bytes(b, sizeof(b), 250 * UNITS_MIB), "250 MiB");
	/* never "1024.0 KiB": 1048575 bytes round up a unit */
	assert_string_equal(units_bytes(b, sizeof(b), 1048575), "1.0 MiB");
	assert_string_equal(units_bytes(b, sizeof(b), 1.2 * UNITS_GIB), "1.2 GiB");
	assert_string_equal(units_bytes(b, sizeof(b), -2048), "-2.0 KiB");
}

static void test_short(void **state)
{
	char b[UNITS_BUF];

	(void)state;
	assert_string_equal(units_bytes_short(b, sizeof(b), 512), "512");
	assert_string_equal(units_bytes_short(b, sizeof(b), 7270), "7.1K");
	assert_string_equal(units_bytes_short(b, sizeof(b), 5643264), "5.4M");
	assert_string_equal(units_bytes_short(b, sizeof(b), 300 << 20), "300M");
	assert_string_equal(units_bytes_short(b, sizeof(b), 3ULL << 40), "3.0T");
}

static void test_rate_dur(void **state)
{
	char b[UNITS_BUF];

	(void)state;
	assert_string_equal(units_rate(b, sizeof(b), 12.3 * UNITS_MIB), "12.3 MiB/s");
	assert_string_equal(units_rate(b, sizeof(b), 800), "800 B/s");
	assert_string_equal(units_dur(b, sizeof(b), 400), "0.4 us");
	assert_string_equal(units_dur(b, sizeof(b), 812000), "812 us");
	assert_string_equal(units_dur(b, sizeof(b), 999600), "1.0 ms");
	assert_string_equal(units_dur(b, sizeof(b), 12.34e6), "12.3 ms");
	assert_string_equal(units_dur(b, sizeof(b), 250e6), "250 ms");
	assert_string_equal(units_dur(b, sizeof(b), 1.24e9), "1.24 s");
	assert_string_equal(units_dur(b, sizeof(b), 5040.2e6), "5.04 s");
}

static void test_sbuf(void **state)
{
	struct sbuf sb = SBUF_INIT;

	(void)state;
	units_add_bytes(&sb, 4096);
	sbuf_addstr(&sb, " in ");
	units_add_dur(&sb, 2.5e6);
	sbuf_addstr(&sb, ", ");
	units_add_rate(&sb, 1.6 * UNITS_MIB);
	assert_string_equal(sb.buf, "4.0 KiB in 2.5 ms, 1.6 MiB/s");
	sbuf_release(&sb);
	/* a buffer too small is cut, never overrun */
	char small[4];
	units_bytes(small, sizeof(small), 123456);
	assert_int_equal(strlen(small), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_rate_dur),
		cmocka_unit_test(test_sbuf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
