// SPDX-License-Identifier: MIT
/*
 * test-meta.c - unit tests of the metadata reader (input/meta.h): the
 * snapshot lines with escaped fields, key=value lines, the STATS chunk's
 * counters, diskstats, devices, partitions and mounts of a snapshot; the
 * "MAJ:MIN" texts of base/blk.h they read devices with.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/blk.h"
#include "input/meta.h"

#define DEV(ma, mi) ((uint32_t)(ma) << 20 | (mi))

static const char snap[] =
	"mount\t254:0\t/dev/vda\t/\text4\trw,relatime\trw\n"
	"mount\t7:1\t/dev/loop1\t/tmp/a/mnt\text4\trw,relatime\trw\n"
	"blockdev\tloop1\t7:1\tscheduler\tnone\n"
	"blockdev\tsda\t8:0\tscheduler\tmq-deadline\n"
	"blockdev\tsda1\t8:1\tparent\tsda\n"
	"proc\t12\t1\ta\\tb\\\\c\t/bin/x\n"
	"diskstats\t7\t1\tloop1\t1 0 8 0 10 0 800 5 0 0 0 0 0 0 3 1\n"
	"diskstats\t7\t2\tloop2\t1 0 8\n";

struct seen {
	int lines;
	char comm[32];
};

static int count(char **f, int n, void *arg)
{
	struct seen *s = arg;

	s->lines++;
	if (!strcmp(f[0], "proc") && n >= 4)
		snprintf(s->comm, sizeof(s->comm), "%s", f[3]);
	return 0;
}

static int stop(char **f, int n, void *arg)
{
	(void)f;
	(void)n;
	++*(int *)arg;
	return 7;
}

static void test_lines(void **state)
{
	struct seen s = { 0 };
	int calls = 0;

	(void)state;
	assert_int_equal(meta_lines(snap, NULL, count, &s), 0);
	assert_int_equal(s.lines, 8);
	/* fields are unescaped: \t a tab, \\ a backslash */
	assert_string_equal(s.comm, "a\tb\\c");
	memset(&s, 0, sizeof(s));
	assert_int_equal(meta_lines(snap, "mount", count, &s), 0);
	assert_int_equal(s.lines, 2);
	/* a nonzero return stops the walk and is returned */
	assert_int_equal(meta_lines(snap, "blockdev", stop, &calls), 7);
	assert_int_equal(calls, 1);
	assert_int_equal(meta_lines(NULL, NULL, count, &s), 0);
}

static void test_kv(void **state)
{
	static const char hdr[] = "kernel=6.1\nempty=\nkernel=7\nmachine=x86_64";
	char buf[16];

	(void)state;
	assert_string_equal(meta_kv(hdr, "kernel", buf, sizeof(buf)), "6.1");
	assert_string_equal(meta_kv(hdr, "machine", buf, sizeof(buf)), "x86_64");
	assert_null(meta_kv(hdr, "empty", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_null(meta_kv(hdr, "kern", buf, sizeof(buf)));
	assert_null(meta_kv(NULL, "kernel", buf, sizeof(buf)));
	assert_string_equal(meta_integrity(SOURCE_COMPLETE), "complete");
	assert_string_equal(meta_integrity(SOURCE_TRUNCATED), "truncated");
	assert_string_equal(meta_integrity(SOURCE_CORRUPT), "corrupt");
}

/* Every key=value line in order; lines without '=' or key skipped. */
static int collect_kv(const char *key, size_t klen, const char *val,
		      size_t vlen, void *arg)
{
	char *out = arg;
	size_t l = strlen(out);

	snprintf(out + l, 256 - l, "[%.*s|%.*s]", (int)klen, key, (int)vlen,
		 val);
	return !strncmp(key, "stop", klen) ? 7 : 0;
}

static void test_kv_each(void **state)
{
	char out[256] = "";

	(void)state;
	assert_int_equal(meta_kv_each("a=1\nno equals\n=x\nb=\nc=3=4",
				      collect_kv, out), 0);
	assert_string_equal(out, "[a|1][b|][c|3=4]");
	out[0] = '\0';
	assert_int_equal(meta_kv_each("x=1\nstop=2\ny=3\n", collect_kv, out),
			 7);
	assert_string_equal(out, "[x|1][stop|2]");
	assert_int_equal(meta_kv_each(NULL, collect_kv, out), 0);
}

static void test_kstats(void **state)
{
	static const char stats[] =
		"cpu\t0\toverrun\t5\n"
		"cpu\t0\tdropped events\t2\n"
		"cpu\t2\toverrun\t7\n"
		"cpu\t2\tmissed_pages\t3\n"
		"cpu\t-1\toverrun\t1\n"
		"cpu\t2\n";
	struct meta_kstats k;

	(void)state;
	assert_int_equal(meta_kstats(stats, &k), 0);
	assert_true(k.present);
	assert_int_equal(k.n, 3);
	assert_true(k.cpu[0].seen && !k.cpu[1].seen && k.cpu[2].seen);
	assert_int_equal(k.cpu[0].overrun, 5);
	assert_int_equal(k.cpu[0].dropped, 2);
	assert_int_equal(k.cpu[2].missed_pages, 3);
	/* no CPU -1; a line of too few fields is left out */
	assert_int_equal(k.overrun, 12);
	assert_int_equal(k.dropped, 2);
	meta_kstats_release(&k);
	assert_int_equal(meta_kstats(NULL, &k), 0);
	assert_false(k.present);
	assert_int_equal(k.n, 0);
}

static void test_readers(void **state)
{
	struct meta_diskstats d;
	char buf[64];
	uint32_t dev = 0;

	(void)state;
	assert_int_equal(meta_devt("7:1"), DEV(7, 1));
	assert_int_equal(meta_devt("bad"), 0);
	assert_string_equal(meta_dev_name(snap, DEV(7, 1), buf, sizeof(buf)),
			    "loop1");
	assert_null(meta_dev_name(snap, DEV(9, 9), buf, sizeof(buf)));
	assert_int_equal(meta_disk_of(snap, DEV(8, 1)), DEV(8, 0));
	assert_int_equal(meta_disk_of(snap, DEV(7, 1)), DEV(7, 1));
	assert_true(meta_diskstats(snap, DEV(7, 1), &d));
	assert_string_equal(d.name, "loop1");
	assert_int_equal(d.n, 16);
	assert_int_equal(d.v[6], 800);
	assert_int_equal(d.v[16], 0);
	/* fewer than 7 numbers: no diskstats */
	assert_false(meta_diskstats(snap, DEV(7, 2), &d));
	assert_false(meta_diskstats(snap, DEV(7, 9), &d));
	assert_int_equal(meta_mount_of(snap, "/tmp/a/mnt/x", &dev),
			 strlen("/tmp/a/mnt"));
	assert_int_equal(dev, DEV(7, 1));
	assert_int_equal(meta_mount_of(snap, "/etc/passwd", &dev), 1);
	assert_int_equal(dev, DEV(254, 0));
	assert_int_equal(meta_mount_of(snap, "/tmp/a/mntx", &dev), 1);
	assert_int_equal(meta_mount_of(snap, "pipe:[1]", &dev), 0);
	assert_true(meta_mount_barrier("rw,relatime"));
	assert_false(meta_mount_barrier("rw,nobarrier"));
	assert_false(meta_mount_barrier("rw,barrier=0"));
	assert_true(meta_mount_barrier("rw,barrier=1"));
	assert_true(meta_mount_opt("rw,data=journal", "data", buf, sizeof(buf)));
	assert_string_equal(buf, "journal");
	assert_false(meta_mount_opt("rw,database=1", "data", buf, sizeof(buf)));
}

/* Each reader of "MAJ:MIN" takes what it took before base/blk.h. */
static void test_devices(void **state)
{
	unsigned int ma = 0, mi = 0;
	const char *end;
	char mm[BLK_DEV_STRLEN];

	(void)state;
	/* as sscanf("%u:%u"): blanks, a sign (wrapped), any text after */
	end = blk_dev_parse(" 8:\t1 x", BLK_DEV_SCANF, &ma, &mi);
	assert_non_null(end);
	assert_string_equal(end, " x");
	assert_int_equal(ma, 8);
	assert_int_equal(mi, 1);
	assert_non_null(blk_dev_parse("-1:+2", BLK_DEV_SCANF, &ma, &mi));
	assert_int_equal(ma, 0xffffffffu);
	assert_int_equal(mi, 2);
	assert_null(blk_dev_parse("8 :1", BLK_DEV_SCANF, &ma, &mi));
	assert_null(blk_dev_parse("8:", BLK_DEV_SCANF, &ma, &mi));
	/* a bdi name: digits only, each at most 32 bits */
	assert_null(blk_dev_parse(" 8:1", BLK_DEV_DIGITS, &ma, &mi));
	assert_null(blk_dev_parse("8:+1", BLK_DEV_DIGITS, &ma, &mi));
	assert_null(blk_dev_parse("4294967296:1", BLK_DEV_DIGITS, &ma, &mi));
	assert_null(blk_dev_parse("btrfs-1", BLK_DEV_DIGITS, &ma, &mi));
	end = blk_dev_parse("4294967295:0-x", BLK_DEV_DIGITS, &ma, &mi);
	assert_non_null(end);
	assert_string_equal(end, "-x");
	assert_int_equal(ma, 0xffffffffu);
	assert_int_equal(mi, 0);
	/* meta_devt() keeps the minor out of the major; MKDEV does not */
	assert_int_equal(meta_devt("8:1048577"), DEV(8, 1));
	assert_int_equal(blk_mkdev(8, 1048577), DEV(9, 1));
	assert_int_equal(meta_devt(" 7:1trailing"), DEV(7, 1));
	assert_string_equal(blk_dev_str(DEV(259, 1048575), mm, sizeof(mm)),
			    "259:1048575");
	assert_string_equal(blk_mm_str(0xffffffffu, 0xffffffffu, mm,
				       sizeof(mm)), "4294967295:4294967295");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_kv_each),
		cmocka_unit_test(test_kstats),
		cmocka_unit_test(test_readers),
		cmocka_unit_test(test_devices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
