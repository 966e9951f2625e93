/* SPDX-License-Identifier: MIT */
/*
 * fixture.h - cmocka fixtures made from a type's init and release, for the
 * unit tests whose every test starts from a fresh one (test-attrib.c,
 * test-sysreplay.c): the test finds it in *state, and it is released
 * after the test even when an assertion fails.
 */
#ifndef TESTS_UNIT_FIXTURE_H
#define TESTS_UNIT_FIXTURE_H

#include <stdlib.h>

/*
 * name_setup and name_teardown: a type allocated and made by
 * init(type *), then released by release(type *) and freed.
 */
#define DEFINE_FIXTURE(name, type, init, release)			\
static int name##_setup(void **state)					\
{									\
	type *p = malloc(sizeof(*p));					\
									\
	if (!p)								\
		return -1;						\
	init(p);							\
	*state = p;							\
	return 0;							\
}									\
									\
static int name##_teardown(void **state)				\
{									\
	release(*state);						\
	free(*state);							\
	return 0;							\
}

/* test t run with the fixture name */
#define FIXTURE_TEST(name, t)						\
	cmocka_unit_test_setup_teardown(t, name##_setup, name##_teardown)

#endif
