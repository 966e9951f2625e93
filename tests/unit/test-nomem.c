// SPDX-License-Identifier: MIT
/*
 * test-nomem.c - the analyzer never exits and never prints a wrong
 * result for want of memory: every allocation of the pass (the stages of
 * the driver, then the rows and the diff model the sinks print from) is
 * made to fail in turn, and each run must either end in -AN_E_NOMEM
 * with a message, or (a container that grows later instead) give the
 * same numbers as the run that had all its memory.  The ASan build
 * checks that nothing leaks or is touched after free on those paths.
 *
 * The allocator is wrapped at link time (-Wl,--wrap, see local.mk): only
 * the analyzer's own calls (the static libraries) are counted and
 * failed, not those of libtraceevent or libzstd.
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
#include <execinfo.h>

#include "base/err.h"
#include "driver.h"
#include "stats/diffmodel.h"
#include "stats/dirty.h"
#include "stats/findings.h"
#include "stats/rows.h"

/* ------------------------------------------------------------------ */
/* The wrapped allocator: counts calls, fails call number fail_at */

static long calls;		/* allocations since armed */
static long fail_at = -1;	/* the one to fail, -1: none */
static int failed;		/* how many were failed */
static int armed;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
int __real_vasprintf(char **p, const char *fmt, va_list ap);

static int fail_now(void)
{
	if (!armed)
		return 0;
	if (calls++ != fail_at)
		return 0;
	failed++;
	if (getenv("NOMEM_TRACE")) {
		/* where: addr2line -f -e tests/unit/test-nomem ADDR */
		void *bt[16];

		backtrace_symbols_fd(bt, backtrace(bt, 16), 2);
	}
	return 1;
}

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

int __wrap_vasprintf(char **p, const char *fmt, va_list ap)
{
	if (fail_now()) {
		*p = NULL;
		return -1;
	}
	return __real_vasprintf(p, fmt, ap);
}

/* ------------------------------------------------------------------ */
/* One run: the pass, the rows and the diff model, as numbers */

struct digest {
	uint64_t events, requests, bytes, calls, files, wa_dev, fsyncs;
	uint64_t paused, diff_rows, anomalies;
	uint64_t findings;
};

/*
 * Run everything over path with the fail_at-th allocation failing;
 * returns 0 with *d filled, or the negative AN_E_* of the failure (its
 * message checked).
 */
static int run(const char *path, long at, struct digest *d)
{
	struct driver dr = { .want = AN_WA | AN_DIRTY, .slow_n = 10 };
	struct an_err err = { 0 };
	struct proc_row *pr = NULL;
	struct file_row *fr = NULL;
	struct diff df;
	long np = 0, nf = -1;
	int rc;

	memset(d, 0, sizeof(*d));
	calls = 0;
	fail_at = at;
	failed = 0;
	armed = 1;
	rc = driver_open(&dr, path, &err);
	if (!rc)
		rc = driver_run(&dr, &err);
	if (!rc) {
		np = rows_processes(&dr.st, false, &pr);
		nf = np < 0 ? -1 : rows_files(&dr.st, &fr);
		rc = np < 0 ? (int)np : nf < 0 ? (int)nf : 0;
	}
	if (!rc) {
		rc = diff_compute(&df, &dr.st, &dr.st);
		if (!rc) {
			for (int s = 0; s < DM_NSECT; s++)
				d->diff_rows += df.ma.s[s].n;
			diff_release(&df);
		}
	}
	if (!rc) {
		struct findings fs;

		rc = findings_compute(&dr.st, &fs);
		if (!rc) {
			d->findings = fs.n;
			findings_release(&fs);
		}
	}
	armed = 0;
	if (rc) {
		/* a failure is out of memory, said in one line */
		assert_int_equal(rc, -AN_E_NOMEM);
		if (err.code)
			assert_non_null(strstr(err.msg, "out of memory"));
	} else {
		d->events = dr.st.events;
		for (size_t i = 0; i < dr.st.ndev; i++) {
			d->requests += dr.st.dev[i].reqs;
			d->bytes += dr.st.dev[i].bytes;
		}
		for (long i = 0; i < np; i++)
			d->calls += pr[i].ps->calls;
		d->files = (uint64_t)nf;
		d->wa_dev = dr.st.wa->ndev;
		d->fsyncs = dr.st.wa->nfs;
		d->paused = dr.st.dirty->pause_ms;
		d->anomalies = dr.st.nanom;
	}
	free(pr);
	if (fr)
		rows_files_release(fr, nf);
	driver_close(&dr);
	return rc;
}

static void check_recording(const char *name, long max_runs)
{
	char path[4096];
	const char *top = getenv("top_srcdir");
	struct digest want, got;
	long total, step, errors = 0, same = 0;

	snprintf(path, sizeof(path), "%s/%s%s", top ? top : ".",
		 strchr(name, '/') ? "" : "samples/", name);
	assert_int_equal(run(path, -1, &want), 0);
	assert_int_equal(failed, 0);
	assert_true(want.events > 0);
	total = calls;
	assert_true(total > 0);
	/* every allocation while there are few, else a spread of them (the
	 * sanitizer build runs this too: a few hundred passes at most) */
	step = total > max_runs ? total / max_runs : 1;
	for (long at = 0; at < total; at += step) {
		int rc = run(path, at, &got);

		assert_int_equal(failed, 1);
		if (rc) {
			errors++;
			continue;
		}
		/* the failure was absorbed: the same numbers */
		if (memcmp(&got, &want, sizeof(want)))
			print_message("allocation %ld of %ld: not the same numbers\n",
				      at, total);
		assert_memory_equal(&got, &want, sizeof(want));
		same++;
	}
	print_message("%s: %ld allocations, %ld runs failed, %ld absorbed\n",
		      name, total, errors, same);
	assert_true(errors > 0);
}

static void test_rawsyscalls(void **state)
{
	(void)state;
	check_recording("rawsyscalls.iorec", 400);
}

static void test_story(void **state)
{
	(void)state;
	check_recording("story001-nobarrier.iorec", 100);
}

/* fio's io_uring and libaio jobs: their requests' replay fails too */
static void test_uring_aio(void **state)
{
	(void)state;
	check_recording("tests/unit/data/uring-aio.iorec", 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uring_aio),
		cmocka_unit_test(test_rawsyscalls),
		cmocka_unit_test(test_story),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
