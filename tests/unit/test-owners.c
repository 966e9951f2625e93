// SPDX-License-Identifier: MIT
/*
 * test-owners.c - units, containers, cgroups and host paths of processes:
 * the names read off cgroup paths (lib/cgname.c), the runtimes' state
 * read for a name, the process table's cgroups from a snapshot, through
 * fork and cgroup_attach_task, the key --by cgroup groups by, the host
 * path of a path seen in another mount namespace, the words a finding
 * names a process with, the --unit/--container/--cgroup filters and the
 * groups of --by (owner_rows(): each the sums of its processes), and a
 * file's cells per process (fileproc_of()).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cgname.h"
#include "sbuf.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "stats/account.h"
#include "stats/filter.h"
#include "stats/hist.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "rng.h"

#define ID_A "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID_B "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static void test_cgname(void **state)
{
	char id[CGNAME_ID_LEN + 1], u[128];

	(void)state;
	assert_string_equal(cgname_container("/system.slice/docker-" ID_A ".scope", id), "docker");
	assert_string_equal(id, ID_A);
	assert_string_equal(cgname_container("/docker/" ID_B, id), "docker");
	assert_string_equal(id, ID_B);
	assert_string_equal(cgname_container("/machine.slice/libpod-" ID_A ".scope/container", id), "podman");
	assert_string_equal(id, ID_A);
	/* 63 digits, upper case, no runtime's naming: none */
	assert_null(cgname_container("/docker/" ID_A "0", id));
	assert_null(cgname_container("/x/" ID_A, id));
	assert_null(cgname_container("/docker-" "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef.scope", id));
	assert_string_equal(id, "");
	assert_null(cgname_container("/", id));

	assert_string_equal(cgname_unit("/system.slice/systemd-journald.service", u, sizeof(u)), "systemd-journald.service");
	assert_string_equal(cgname_unit("/user.slice/user-1000.slice/session-2.scope", u, sizeof(u)), "session-2.scope");
	assert_string_equal(cgname_unit("/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service", u, sizeof(u)), "foo.service");
	assert_string_equal(cgname_unit("/user.slice/user-1000.slice", u, sizeof(u)), "user-1000.slice");
	assert_null(cgname_unit("/", u, sizeof(u)));
	assert_null(cgname_unit("/process_api/9d37", u, sizeof(u)));
	/* a name that only ends like one */
	assert_null(cgname_unit("/.service", u, sizeof(u)));
}

static void test_json_string(void **state)
{
	char b[64];
	const char *p;

	(void)state;
	assert_non_null(cgname_json_string("{\"ID\":\"x\",\"Name\" : \"/home\\\"assistant\"}", "Name", b, sizeof(b)));
	assert_string_equal(b, "/home\"assistant");
	assert_non_null(cgname_json_string("{\"names\":[ \"zigbee2mqtt\",\"z\"]}", "names", b, sizeof(b)));
	assert_string_equal(b, "zigbee2mqtt");
	assert_null(cgname_json_string("{\"Named\":1}", "Name", b, sizeof(b)));
	/* each id of a list in turn */
	p = "[{\"id\":\"a\"},{\"id\":\"b\"}]";
	p = cgname_json_string(p, "id", b, sizeof(b));
	assert_string_equal(b, "a");
	p = cgname_json_string(p, "id", b, sizeof(b));
	assert_string_equal(b, "b");
	assert_null(cgname_json_string(p, "id", b, sizeof(b)));
	/* cut to the buffer */
	assert_non_null(cgname_json_string("{\"Name\":\"abcdefgh\"}", "Name", b, 4));
	assert_string_equal(b, "abc");
}

/*
 * A start snapshot: iorec (pid 10) on the host; pid 20 in a Docker
 * container (cgroup v2) with its own mount namespace, whose /config is
 * /srv/ha/config of the host's 8:1 (mounted at /srv); pid 30 in a
 * service on v1 (name=systemd) and a pids cgroup of its own; pid 40 in a
 * Podman container not named by the state.
 */
static const char snap[] =
	"mount\t8:1\t/dev/sda1\t/srv\text4\trw\trw\t/\n"
	"mount\t8:2\t/dev/sda2\t/\text4\trw\trw\n"
	"proc\t10\t1\tiorec\t/usr/bin/iorec\tiorec\n"
	"cgroup\t10\t0\t\t/\n"
	"mntns\t10\t4026531840\n"
	"proc\t20\t1\tpython3\t/usr/bin/python3\tpython3\n"
	"cgroup\t20\t0\t\t/system.slice/docker-" ID_A ".scope\n"
	"mntns\t20\t4026532000\n"
	"proc\t30\t1\tjournald\t/usr/lib/journald\tjournald\n"
	"cgroup\t30\t9\tname=systemd\t/system.slice/journald.service\n"
	"cgroup\t30\t8\tpids\t/mine\n"
	"cgroup\t30\t4\tmemory\t/\n"
	"mntns\t30\t4026531840\n"
	"proc\t40\t1\tnode\t/usr/bin/node\tnode\n"
	"cgroup\t40\t0\t\t/machine.slice/libpod-" ID_B ".scope\n"
	"nsmount\t4026532000\t8:2\t/var/lib/docker/overlay/x\t/\toverlay\n"
	"nsmount\t4026532000\t8:1\t/ha/config\t/config\text4\n"
	"container\t" ID_A "\tdocker\thomeassistant\n"
	"container\t" ID_B "\tpodman\t\n"
	"self\t10\t8:2\t5\n";

struct fx {
	struct filetab *ft;
	struct proctable *pt;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));

	x->ft = filetab_new();
	x->pt = proctable_new(x->ft);
	proctable_load_start(x->pt, snap);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;

	proctable_free(x->pt, NULL);
	filetab_free(x->ft, NULL);
	free(x);
	return 0;
}

static void test_snapshot(void **state)
{
	struct fx *x = *state;
	struct proc *p;
	char k[256];

	p = proctable_lookup(x->pt, 20);
	assert_string_equal(p->container, "homeassistant");
	assert_string_equal(p->container_id, ID_A);
	assert_string_equal(p->unit, "docker-" ID_A ".scope");
	assert_int_equal(p->mntns, 4026532000ULL);
	assert_string_equal(proc_cgroup_key(p, k, sizeof(k)), "/system.slice/docker-" ID_A ".scope");

	p = proctable_lookup(x->pt, 30);
	assert_null(p->container);
	assert_string_equal(p->unit, "journald.service");
	/* v1: the name=systemd path names it */
	assert_string_equal(proc_cgroup_key(p, k, sizeof(k)), "/system.slice/journald.service");
	assert_true(proc_in_cgroup(p, "/mine"));
	assert_true(proc_in_cgroup(p, "/system.slice"));
	assert_true(proc_in_cgroup(p, "/system.slice/"));
	assert_false(proc_in_cgroup(p, "/system"));
	assert_false(proc_in_cgroup(p, "/min"));

	/* a container the state does not name: its id's 12 first digits */
	p = proctable_lookup(x->pt, 40);
	assert_string_equal(p->container, "fedcba987654");

	p = proctable_lookup(x->pt, 10);
	assert_null(p->unit);
	assert_null(p->container);
	assert_string_equal(proc_cgroup_key(p, k, sizeof(k)), "/");
}

static void test_fork_attach(void **state)
{
	struct fx *x = *state;
	struct proc *c, *p;
	char k[256];

	proctable_fork(x->pt, 100, 20, 21, "sh");
	c = proctable_lookup(x->pt, 21);
	assert_string_equal(c->container, "homeassistant");
	assert_int_equal(c->mntns, 4026532000ULL);
	/* the child moves: the parent stays */
	proctable_cgroup_attach(x->pt, 200, 21, 0, "/system.slice/foo.service");
	assert_null(c->container);
	assert_string_equal(c->unit, "foo.service");
	p = proctable_lookup(x->pt, 20);
	assert_string_equal(p->container, "homeassistant");
	/* a v1 move changes that hierarchy's line only */
	proctable_cgroup_attach(x->pt, 300, 30, 8, "/other");
	p = proctable_lookup(x->pt, 30);
	assert_false(proc_in_cgroup(p, "/mine"));
	assert_true(proc_in_cgroup(p, "/other"));
	assert_string_equal(p->unit, "journald.service");
	assert_string_equal(proc_cgroup_key(p, k, sizeof(k)), "/system.slice/journald.service");
	proctable_cgroup_attach(x->pt, 400, 30, 9, "/");
	assert_null(p->unit);
	assert_string_equal(proc_cgroup_key(p, k, sizeof(k)), "pids:/other");
	assert_int_equal(proctable_stats(x->pt)->cgroup_moves, 3);
}

static void test_host_path(void **state)
{
	struct fx *x = *state;
	char b[256];

	assert_string_equal(proctable_host_path(x->pt, 4026532000ULL, "/config/home-assistant_v2.db", b, sizeof(b)),
			    "/srv/ha/config/home-assistant_v2.db");
	assert_string_equal(proctable_host_path(x->pt, 4026532000ULL, "/config", b, sizeof(b)),
			    "/srv/ha/config");
	/* the container's root: an overlay the host has no mount of */
	assert_string_equal(proctable_host_path(x->pt, 4026532000ULL, "/etc/hosts", b, sizeof(b)),
			    "/var/lib/docker/overlay/x/etc/hosts");
	/* /configx is not under /config */
	assert_string_equal(proctable_host_path(x->pt, 4026532000ULL, "/configx", b, sizeof(b)),
			    "/var/lib/docker/overlay/x/configx");
	/* the host's namespace, an unknown one, a relative path: none */
	assert_null(proctable_host_path(x->pt, 4026531840ULL, "/config/x", b, sizeof(b)));
	assert_null(proctable_host_path(x->pt, 1, "/config/x", b, sizeof(b)));
	assert_null(proctable_host_path(x->pt, 4026532000ULL, "config/x", b, sizeof(b)));
}

static void info_of(struct proc *p, struct proc_info *i)
{
	memset(i, 0, sizeof(*i));
	i->pid = p->pid;
	i->comm = p->comm;
	i->unit = p->unit;
	i->container = p->container;
	if (!proc_cgroup_key(p, i->cgroup, sizeof(i->cgroup)))
		i->cgroup[0] = '\0';
}

static void test_who_filter(void **state)
{
	struct fx *x = *state;
	struct view_filter f = { 0 };
	struct sbuf sb = SBUF_INIT;
	struct proc_info i;

	info_of(proctable_lookup(x->pt, 20), &i);
	owner_who(&sb, &i);
	assert_string_equal(sb.buf, "the homeassistant container (python3, pid 20)");
	assert_string_equal(owner_key(&i, OWNER_UNIT), "docker-" ID_A ".scope");
	sbuf_reset(&sb);
	info_of(proctable_lookup(x->pt, 30), &i);
	owner_who(&sb, &i);
	assert_string_equal(sb.buf, "journald.service (journald, pid 30)");
	assert_string_equal(owner_key(&i, OWNER_CONTAINER), "-");
	sbuf_reset(&sb);
	info_of(proctable_lookup(x->pt, 10), &i);
	owner_who(&sb, &i);
	assert_string_equal(sb.buf, "iorec (pid 10)");
	sbuf_release(&sb);

	f.units[f.nunits++] = "journald";
	assert_true(filter_proc(&f, proctable_lookup(x->pt, 30)));
	assert_false(filter_proc(&f, proctable_lookup(x->pt, 20)));
	assert_false(filter_task(&f, 30, "journald"));	/* no process known */
	f.nunits = 0;
	f.containers[f.ncontainers++] = "homeassistant";
	f.containers[f.ncontainers++] = "fedc";
	assert_true(filter_proc(&f, proctable_lookup(x->pt, 20)));
	assert_true(filter_proc(&f, proctable_lookup(x->pt, 40)));
	assert_false(filter_proc(&f, proctable_lookup(x->pt, 30)));
	f.ncontainers = 0;
	f.containers[f.ncontainers++] = "fed";	/* under 4 digits: no */
	assert_false(filter_proc(&f, proctable_lookup(x->pt, 40)));
	f.ncontainers = 0;
	f.cgroups[f.ncgroups++] = "/machine.slice";
	assert_true(filter_proc(&f, proctable_lookup(x->pt, 40)));
	assert_false(filter_proc(&f, proctable_lookup(x->pt, 20)));
	assert_true(filter_active(&f) && filter_wants_owner(&f));
}

/*
 * owner_rows: five processes of two units and none, with numbers of
 * their own; each group holds the sums of its processes, the group that
 * moved the most bytes first, and counts every process once.
 */
static void test_owner_rows(void **state)
{
	static const char *const units[5] = {
		"a.service", NULL, "b.service", "a.service", NULL,
	};
	struct procstat ps[5];
	struct proc_row r[5];
	struct owner_row *v;
	struct sbuf sb = SBUF_INIT;
	long n;

	(void)state;
	memset(ps, 0, sizeof(ps));
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 5; i++) {
		r[i].p.pid = 100 + i;
		r[i].p.comm = "w";
		r[i].p.unit = units[i];
		r[i].ps = &ps[i];
		r[i].fsyncs = (uint64_t)i + 1;
		ps[i].calls = 10u * (unsigned)(i + 1);
		ps[i].errors = (uint64_t)i;
		ps[i].read_bytes = 1000u * (unsigned)(i + 1);
		ps[i].write_bytes = 4096u << i;
		assert_int_equal(hist_add(&ps[i].fsync, 1000000u * (unsigned)(i + 1)), 0);
		ps[i].blk.requests = (uint64_t)i + 2;
		ps[i].blk.read_bytes = 512u * (unsigned)i;
		ps[i].blk.write_bytes = 8192u << i;
		ps[i].blk.dev_ns = 7000u * (unsigned)(i + 1);
		ps[i].blk.journal_bytes = 100u * (unsigned)i;
		ps[i].throttle_ns = 3u * (unsigned)i;
		ps[i].throttles = (uint64_t)i;
		ps[i].dstate_ns = 5u * (unsigned)i;
		ps[i].dstates = (uint64_t)i + 1;
	}
	n = owner_rows(r, 5, OWNER_UNIT, &v);
	assert_int_equal(n, 3);
	/* "-": pids 101 and 104, the most bytes (4096 << 4 of them) */
	assert_string_equal(v[0].key, "-");
	assert_true(v[0].none);
	assert_int_equal(v[0].procs, 2);
	assert_int_equal(v[0].calls, 20 + 50);
	assert_int_equal(v[0].errors, 1 + 4);
	assert_int_equal(v[0].read_bytes, 2000 + 5000);
	assert_int_equal(v[0].write_bytes, (4096 << 1) + (4096 << 4));
	assert_int_equal(v[0].fsyncs, 2 + 5);
	assert_int_equal(v[0].fsync_count, 2);
	assert_int_equal(v[0].fsync_ns, 2000000 + 5000000);
	assert_int_equal(v[0].fsync_max_ns, 5000000);
	assert_int_equal(v[0].blk.requests, 3 + 6);
	assert_int_equal(v[0].blk.read_bytes, 512 + 2048);
	assert_int_equal(v[0].blk.write_bytes, (8192 << 1) + (8192 << 4));
	assert_int_equal(v[0].blk.dev_ns, 14000 + 35000);
	assert_int_equal(v[0].blk.journal_bytes, 100 + 400);
	assert_int_equal(v[0].throttle_ns, 3 + 12);
	assert_int_equal(v[0].throttles, 1 + 4);
	assert_int_equal(v[0].dstate_ns, 5 + 20);
	assert_int_equal(v[0].dstates, 2 + 5);
	/* a.service: pids 100 and 103 */
	assert_string_equal(v[1].key, "a.service");
	assert_false(v[1].none);
	assert_int_equal(v[1].procs, 2);
	assert_int_equal(v[1].write_bytes, 4096 + (4096 << 3));
	assert_int_equal(v[1].fsync_max_ns, 4000000);
	/* b.service: pid 102 alone */
	assert_string_equal(v[2].key, "b.service");
	assert_int_equal(v[2].procs, 1);
	assert_int_equal(v[2].calls, 30);
	assert_int_equal(v[2].blk.write_bytes, 8192 << 2);
	free(v);
	/* by container: all of them in none */
	n = owner_rows(r, 5, OWNER_CONTAINER, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].procs, 5);
	assert_int_equal(v[0].calls, 10 + 20 + 30 + 40 + 50);
	free(v);
	/* the words without a proc_info: a .scope is no service */
	owner_words(&sb, "dd", 7, "session-2.scope", NULL);
	assert_string_equal(sb.buf, "dd (pid 7)");
	sbuf_reset(&sb);
	owner_words(&sb, "dd", 7, "x.service", "ha");
	assert_string_equal(sb.buf, "the ha container (dd, pid 7)");
	sbuf_release(&sb);
	assert_int_equal(owner_by_parse("unit"), OWNER_UNIT);
	assert_int_equal(owner_by_parse("cgroup"), OWNER_CGROUP);
	assert_int_equal(owner_by_parse("units"), OWNER_NONE);
	for (int i = 0; i < 5; i++)
		hist_release(&ps[i].fsync);
}

/*
 * A file's cells per process (stats/account.c): found, counted and kept
 * in the order of their last use, the last one first, before and after
 * they number enough to be indexed; merged into another file's.
 */
static void test_file_cells(void **state)
{
	static struct proc procs[200];
	const struct proc *order[200];
	struct filestat fs = { 0 }, sum = { 0 };
	size_t n = 0, k;
	uint64_t calls = 0;

	(void)state;
	for (int step = 0; step < 20000; step++) {
		/* a few processes at first, then all of them */
		size_t lim = step < 200 ? 10 : 200;
		const struct proc *p = &procs[rnd() % lim];
		struct fileproc *c = fileproc_of(&fs, p);

		assert_non_null(c);
		assert_ptr_equal(c->p, p);
		c->reads++;
		calls++;
		/* the model: p to the front */
		for (k = 0; k < n && order[k] != p; k++)
			;
		if (k == n)
			n++;
		memmove(&order[1], &order[0], k * sizeof(*order));
		order[0] = p;
		if (step % 997 == 0 || step == 19999) {
			const struct fileproc *q = fs.procs;

			assert_int_equal(fs.nprocs, n);
			for (k = 0; k < n; k++, q = q->next) {
				assert_non_null(q);
				assert_ptr_equal(q->p, order[k]);
				assert_true(k ? q->prev && q->prev->next == q : !q->prev);
			}
			assert_null(q);
		}
	}
	assert_non_null(fs.idx);
	assert_int_equal(fileproc_merge(&sum, &fs), 0);
	assert_int_equal(fileproc_merge(&sum, &fs), 0);
	assert_int_equal(sum.nprocs, n);
	k = 0;
	for (const struct fileproc *q = sum.procs; q; q = q->next) {
		assert_ptr_equal(fileproc_of(&fs, q->p), fileproc_of(&fs, q->p));
		assert_int_equal(q->reads, 2 * fileproc_of(&fs, q->p)->reads);
		k += q->reads;
	}
	assert_int_equal(k, 2 * calls);
	fileproc_free(&fs);
	fileproc_free(&sum);
	assert_null(fs.procs);
	assert_null(fs.idx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgname),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test_setup_teardown(test_snapshot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_attach, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_who_filter, setup, teardown),
		cmocka_unit_test(test_owner_rows),
		cmocka_unit_test(test_file_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
