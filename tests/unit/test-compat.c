// SPDX-License-Identifier: MIT
/*
 * test-compat.c - unit tests of whose a raw_syscalls event is
 * (decode/compat.h, docs/iorec.5 COMPAT TASKS): the twin rule of shadow
 * mode and its exceptions, each thread's ABI from the start snapshot,
 * fork, exec (EXEC_ABI lines, exec probes) and syscalls:* events, and
 * raw mode; plus the ABI keys and lines of input/meta.h.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "input/meta.h"
#include "input/source.h"
#include "decode/compat.h"

/* aarch64 kernel, arm compat: openat is 322 for arm, 56 for aarch64 */
#define HDR(mode) \
	"syscall_abi=aarch64\ncompat_abi=arm\ncompat_syscalls=" mode "\n" \
	"compat_unshadowed=180,181\nexec_abi_probes=1\n"

static const char snap[] =
	"proc\t10\t1\tsh\t/bin/sh\tsh\n"
	"abi\t10\tarm\n"
	"abi\t20\taarch64\n"
	"thread\t21\t20\tworker\n";

/* cx made from a recording of 2 CPUs with header hdr, snap and exec. */
static void init(struct compat *cx, const char *hdr, const char *exec)
{
	struct source_info in;

	memset(&in, 0, sizeof(in));
	in.header_text = hdr;
	in.snapshot_start = snap;
	in.exec_abi = exec;
	in.nr_cpus = 2;
	assert_int_equal(compat_init(cx, &in), 0);
}

static void test_meta_abis(void **state)
{
	struct meta_abis a;
	struct meta_exec_abi *v;
	size_t n;

	(void)state;
	meta_abis(HDR("shadow"), &a);
	assert_string_equal(a.native, "aarch64");
	assert_string_equal(a.compat, "arm");
	assert_int_equal(a.mode, META_COMPAT_SHADOW);
	assert_true(a.exec_probes);
	assert_int_equal(meta_abi_kind(&a, "arm"), META_ABI_COMPAT);
	assert_int_equal(meta_abi_kind(&a, "aarch64"), META_ABI_NATIVE);
	assert_int_equal(meta_abi_kind(&a, "x86_64"), META_ABI_UNKNOWN);
	meta_abis("syscall_abi=arm\ncompat_abi=\ncompat_syscalls=none\n", &a);
	assert_int_equal(a.mode, META_COMPAT_NONE);
	meta_abis(NULL, &a);
	assert_int_equal(a.mode, META_COMPAT_NONE);
	/* sorted by time; malformed lines and unknown ABIs skipped */
	meta_abis(HDR("raw"), &a);
	assert_int_equal(meta_exec_abis("300\t7\taarch64\tcommand\n"
					"bad\t8\tarm\tcommand\n"
					"100\t9\tarm\tcommand\n"
					"200\t9\tmips\tcommand\n", &a, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].ts, 100);
	assert_int_equal(v[0].pid, 9);
	assert_int_equal(v[0].abi, META_ABI_COMPAT);
	assert_int_equal(v[1].pid, 7);
	assert_int_equal(v[1].abi, META_ABI_NATIVE);
	free(v);
}

/* Shadow mode: a raw event with its syscalls:* twin is dropped. */
static void test_twin_rule(void **state)
{
	struct compat cx;

	(void)state;
	init(&cx, HDR("shadow"), NULL);
	/* native thread 20: syscalls:sys_enter_read (63), raw 63 (arm dup2) */
	compat_mark(&cx, 20, 0, 63);
	assert_int_equal(compat_enter(&cx, 20, 0, 63), CALL_TWIN);
	assert_int_equal(compat_exit(&cx, 20), CALL_TWIN);
	/* compat thread 10, seen before: every raw event is its call */
	assert_int_equal(compat_enter(&cx, 10, 1, 322), CALL_COMPAT);
	assert_int_equal(compat_exit(&cx, 10), CALL_COMPAT);
	assert_int_equal(compat_enter(&cx, 10, 1, 4), CALL_COMPAT);
	assert_int_equal(compat_exit(&cx, 10), CALL_COMPAT);
	/* a twin on another CPU, or of another number, is none */
	compat_mark(&cx, 20, 0, 63);
	assert_int_equal(compat_enter(&cx, 20, 1, 63), CALL_COMPAT);
	compat_mark(&cx, 20, 0, 64);
	assert_int_equal(compat_enter(&cx, 20, 0, 63), CALL_COMPAT);
	/* a syscalls:* event pairs with one raw event only */
	compat_mark(&cx, 20, 0, 3);
	assert_int_equal(compat_enter(&cx, 20, 0, 3), CALL_TWIN);
	assert_int_equal(compat_enter(&cx, 20, 0, 3), CALL_COMPAT);
	compat_release(&cx);
}

/* Where the twin rule cannot tell, a native thread's raw event is dropped. */
static void test_twin_exceptions(void **state)
{
	struct compat cx;

	(void)state;
	init(&cx, HDR("shadow"), NULL);
	/* the first raw event of native thread 21 (snapshot: thread of 20) */
	assert_int_equal(compat_enter(&cx, 21, 0, 6), CALL_TWIN);
	assert_int_equal(compat_exit(&cx, 21), CALL_TWIN);
	/* the first of compat thread 10 is its own */
	assert_int_equal(compat_enter(&cx, 10, 0, 6), CALL_COMPAT);
	/* an unshadowed id of a native thread */
	compat_mark(&cx, 20, 0, 57);
	assert_int_equal(compat_enter(&cx, 20, 0, 180), CALL_TWIN);
	/* lost events on the CPU since the thread's last event */
	compat_mark(&cx, 20, 1, 57);
	compat_clock(&cx, 5, 1, true);
	assert_int_equal(compat_enter(&cx, 20, 1, 64), CALL_TWIN);
	/* an exit with no enter: by the ABI */
	assert_int_equal(compat_exit(&cx, 10), CALL_COMPAT);
	assert_int_equal(compat_exit(&cx, 10), CALL_COMPAT);
	assert_int_equal(compat_exit(&cx, 20), CALL_TWIN);
	compat_release(&cx);
}

/*
 * Where the twin rule cannot tell, a thread of unknown ABI (its fork and
 * exec among lost events, or gone before the start snapshot) is native,
 * as in raw mode: its raw event is a twin, not a 32-bit call.
 */
static void test_unknown_abi(void **state)
{
	struct compat cx;

	(void)state;
	init(&cx, HDR("shadow"), NULL);
	/* the first raw event of thread 99, which no snapshot line names */
	assert_int_equal(compat_enter(&cx, 99, 0, 6), CALL_TWIN);
	assert_int_equal(compat_exit(&cx, 99), CALL_TWIN);
	/* an unshadowed id */
	assert_int_equal(compat_enter(&cx, 99, 0, 180), CALL_TWIN);
	assert_int_equal(compat_exit(&cx, 99), CALL_TWIN);
	/* after lost events on its CPU */
	compat_clock(&cx, 10, 0, true);
	assert_int_equal(compat_enter(&cx, 99, 0, 63), CALL_TWIN);
	/* an exit with no enter */
	assert_int_equal(compat_exit(&cx, 98), CALL_TWIN);
	/* seen, no gap, no twin: the twin rule tells, a 32-bit call */
	compat_clock(&cx, 20, 0, false);
	assert_int_equal(compat_enter(&cx, 99, 0, 63), CALL_COMPAT);
	assert_int_equal(compat_exit(&cx, 99), CALL_COMPAT);
	compat_release(&cx);
}

/*
 * Lost events on the CPU of the raw event since the thread's last
 * sys_enter-type event, which was on another CPU: the twin may be among
 * them, whatever the two CPUs' counts of gaps.
 */
static void test_gap_other_cpu(void **state)
{
	struct compat cx;

	(void)state;
	init(&cx, HDR("shadow"), NULL);
	/* native thread 20 on CPU 0 after a gap there (CPU 0: 1 gap) */
	compat_clock(&cx, 100, 0, true);
	compat_mark(&cx, 20, 0, 57);
	assert_int_equal(compat_enter(&cx, 20, 0, 57), CALL_TWIN);
	/* a gap on CPU 1 (1 gap too), then its raw event there, twin lost */
	compat_clock(&cx, 200, 1, true);
	assert_int_equal(compat_enter(&cx, 20, 1, 63), CALL_TWIN);
	assert_int_equal(compat_exit(&cx, 20), CALL_TWIN);
	/* a gap before the thread's last event does not matter */
	compat_clock(&cx, 300, 1, false);
	compat_mark(&cx, 20, 1, 57);
	assert_int_equal(compat_enter(&cx, 20, 1, 57), CALL_TWIN);
	compat_clock(&cx, 400, 0, false);
	assert_int_equal(compat_enter(&cx, 20, 0, 63), CALL_COMPAT);
	compat_release(&cx);
}

/* Raw mode: the thread's ABI from snapshot, fork, exec. */
static void test_abi_of_tasks(void **state)
{
	struct compat cx;

	(void)state;
	init(&cx, HDR("raw"), "1000\t30\tarm\tcommand\n");
	assert_int_equal(compat_enter(&cx, 10, 0, 322), CALL_COMPAT);
	assert_int_equal(compat_enter(&cx, 20, 0, 56), CALL_NATIVE);
	assert_int_equal(compat_enter(&cx, 21, 0, 56), CALL_NATIVE);
	/* unknown: native */
	assert_int_equal(compat_enter(&cx, 99, 0, 56), CALL_NATIVE);
	/* a child runs its parent's ABI */
	compat_fork(&cx, 10, 11);
	assert_int_equal(compat_enter(&cx, 11, 0, 4), CALL_COMPAT);
	/* exec probes switch it */
	compat_set(&cx, 11, META_ABI_NATIVE);
	assert_int_equal(compat_enter(&cx, 11, 0, 64), CALL_NATIVE);
	/* the EXEC_ABI line of pid 30 taken by its exec at 900 */
	compat_fork(&cx, 20, 30);
	compat_clock(&cx, 900, 0, false);
	compat_exec(&cx, 30, 30, 900);
	assert_int_equal(compat_enter(&cx, 30, 0, 4), CALL_COMPAT);
	/* a line whose exec was not recorded applies from its time on */
	compat_release(&cx);
	init(&cx, HDR("raw"), "1000\t30\tarm\tcommand\n");
	compat_fork(&cx, 20, 30);
	compat_clock(&cx, 999, 0, false);
	assert_int_equal(compat_enter(&cx, 30, 0, 4), CALL_NATIVE);
	compat_clock(&cx, 1000, 0, false);
	assert_int_equal(compat_enter(&cx, 30, 0, 4), CALL_COMPAT);
	/* a non-leader thread that execs hands its ABI to the pid */
	compat_set(&cx, 41, META_ABI_COMPAT);
	compat_exec(&cx, 40, 41, 2000);
	assert_int_equal(compat_enter(&cx, 40, 0, 4), CALL_COMPAT);
	compat_release(&cx);
	/* two execs of one pid take its lines in turn */
	init(&cx, HDR("raw"), "3000\t30\taarch64\tcommand\n"
	     "1000\t30\tarm\tcommand\n2000\t31\tarm\tcommand\n");
	compat_clock(&cx, 900, 0, false);
	compat_exec(&cx, 30, 30, 900);
	assert_int_equal(compat_enter(&cx, 30, 0, 4), CALL_COMPAT);
	compat_clock(&cx, 2500, 0, false);
	assert_int_equal(compat_enter(&cx, 31, 0, 4), CALL_COMPAT);
	compat_exec(&cx, 30, 30, 2500);
	assert_int_equal(compat_enter(&cx, 30, 0, 4), CALL_NATIVE);
	/* no line left: the ABI stays */
	compat_exec(&cx, 30, 30, 4000);
	assert_int_equal(compat_enter(&cx, 30, 0, 4), CALL_NATIVE);
	compat_release(&cx);
}

/* No compat ABI, or not recorded: nothing to tell apart. */
static void test_none(void **state)
{
	struct compat cx;

	(void)state;
	init(&cx, "syscall_abi=arm\ncompat_syscalls=none\n", NULL);
	assert_int_equal(cx.mode, META_COMPAT_NONE);
	compat_release(&cx);
	init(&cx, HDR("off"), NULL);
	assert_int_equal(cx.mode, META_COMPAT_NONE);
	compat_release(&cx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta_abis),
		cmocka_unit_test(test_twin_rule),
		cmocka_unit_test(test_twin_exceptions),
		cmocka_unit_test(test_unknown_abi),
		cmocka_unit_test(test_gap_other_cpu),
		cmocka_unit_test(test_abi_of_tasks),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
