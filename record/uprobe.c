// SPDX-License-Identifier: MIT
/*
 * uprobe.c - file names from user space: uprobe events on the C library's
 * open functions that fetch the path argument as a string (ustring).
 *
 * On many kernels the syscall events carry a path only as a user-space
 * pointer and kprobes are not available, but uprobes usually are.  A
 * uprobe at the entry of libc's open() records the caller's pid and the
 * path; the analyzer pairs it with the open syscall that follows in the
 * same thread.  The events live in the group "iorec_PID" (dynamic events
 * are global, so the group is per recorder); they are removed at exit, and
 * groups of dead recorders are removed at the next start.
 *
 * Only processes that use the same libc file as iorec are seen (not static
 * binaries, not other chroots or containers).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "record.h"

#define UPROBE_GROUP "iorec_"

/* The registers holding the first and second argument at function entry. */
#if defined(__x86_64__)
# define ARG1 "%di"
# define ARG2 "%si"
#elif defined(__aarch64__)
# define ARG1 "%x0"
# define ARG2 "%x1"
#elif defined(__arm__)
# define ARG1 "%r0"
# define ARG2 "%r1"
#elif defined(__riscv)
# define ARG1 "%a0"
# define ARG2 "%a1"
#endif

/* libc functions that take a path: the name and which argument it is. */
static const struct {
	const char *sym;
	int arg;
} open_funcs[] = {
	{ "open", 1 }, { "open64", 1 },
	{ "openat", 2 }, { "openat64", 2 },
	{ "creat", 1 }, { "creat64", 1 },
	/* what fopen() and friends call inside libc */
	{ "__open_nocancel", 1 }, { "__open64_nocancel", 1 },
	{ "__openat_nocancel", 2 }, { "__openat64_nocancel", 2 },
};

struct seg_query {
	uintptr_t addr;
	const char *fname;
	unsigned long long offset;
	bool found;
};

/* dl_iterate_phdr callback: file offset of q->addr in object q->fname. */
static int seg_find(struct dl_phdr_info *info, size_t size, void *data)
{
	struct seg_query *q = data;
	int i;

	if (strcmp(info->dlpi_name, q->fname))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || q->addr < start ||
		    q->addr >= start + ph->p_memsz)
			continue;
		q->offset = q->addr - start + ph->p_offset;
		q->found = true;
		return 1;
	}
	return 0;
}

/*
 * Resolve @sym in the loaded libc to a file (realpath, into @file) and a
 * file offset.  Returns 0 or -1.
 */
static int libc_offset(void *libc, const char *sym, char *file, size_t size,
		       unsigned long long *offset)
{
	struct seg_query q = { 0 };
	char *real;
	Dl_info di;
	void *addr;

	addr = dlsym(libc, sym);
	if (!addr || !dladdr(addr, &di) || !di.dli_fname)
		return -1;
	q.addr = (uintptr_t)addr;
	q.fname = di.dli_fname;
	dl_iterate_phdr(seg_find, &q);
	if (!q.found)
		return -1;
	real = realpath(di.dli_fname, NULL);
	snprintf(file, size, "%s", real ? real : di.dli_fname);
	free(real);
	*offset = q.offset;
	return 0;
}

/* "__open64_nocancel" -> "libc_open64_nocancel" */
static void event_name(const char *sym, char *buf, size_t size)
{
	while (*sym == '_')
		sym++;
	snprintf(buf, size, "libc_%s", sym);
}

/*
 * Build the list of distinct probe points.  Calls @fn for each with the
 * event name, libc file, offset and fetch argument; returns how many.
 */
static int uprobe_points(int (*fn)(void *ctx, const char *event,
				   const char *file, unsigned long long off,
				   const char *fetch), void *ctx)
{
#ifdef ARG1
	unsigned long long seen[ARRAY_SIZE(open_funcs)];
	int nseen = 0, n = 0;
	void *libc;
	size_t i;

	libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	if (!libc)
		return 0;
	for (i = 0; i < ARRAY_SIZE(open_funcs); i++) {
		char file[4096], event[64];
		unsigned long long off;
		int k;

		if (libc_offset(libc, open_funcs[i].sym, file, sizeof(file),
				&off) < 0)
			continue;
		for (k = 0; k < nseen && seen[k] != off; k++)
			;
		if (k < nseen)
			continue;	/* an alias of one probed already */
		seen[nseen++] = off;
		event_name(open_funcs[i].sym, event, sizeof(event));
		if (fn(ctx, event, file, off, open_funcs[i].arg == 1 ?
		       "path=+0(" ARG1 "):ustring" :
		       "path=+0(" ARG2 "):ustring") == 0)
			n++;
	}
	dlclose(libc);
	return n;
#else
	return 0;
#endif
}

bool uprobes_supported(void)
{
	return tracefs_file_exists(NULL, "uprobe_events");
}

static int count_point(void *ctx, const char *event, const char *file,
		       unsigned long long off, const char *fetch)
{
	return 0;
}

int uprobes_available(void)
{
	if (!uprobes_supported())
		return 0;
	return uprobe_points(count_point, NULL);
}

static int create_point(void *ctx, const char *event, const char *file,
			unsigned long long off, const char *fetch)
{
	struct uprobes *u = ctx;
	struct tracefs_dynevent *d;

	if (u->n == (int)ARRAY_SIZE(u->ev))
		return -1;
	d = tracefs_uprobe_alloc(u->group, event, file, off, fetch);
	if (!d)
		return -1;
	if (tracefs_dynevent_create(d) < 0) {
		if (u->verbose)
			warning("cannot create uprobe %s at %s+0x%llx: %m",
				event, file, off);
		tracefs_dynevent_free(d);
		return -1;
	}
	u->ev[u->n] = d;
	snprintf(u->names[u->n], sizeof(u->names[0]), "%s", event);
	u->n++;
	return 0;
}

int uprobes_create(struct uprobes *u, bool verbose)
{
	memset(u, 0, sizeof(*u));
	u->verbose = verbose;
	snprintf(u->group, sizeof(u->group), UPROBE_GROUP "%d", (int)getpid());
	if (!uprobes_supported())
		return 0;
	uprobe_points(create_point, u);
	return u->n;
}

void uprobes_destroy(struct uprobes *u)
{
	int i;

	for (i = 0; i < u->n; i++) {
		if (tracefs_dynevent_destroy(u->ev[i], true) < 0)
			warning("cannot remove uprobe %s:%s: %m (remove it with: echo '-:%s/%s' >> %s/uprobe_events)",
				u->group, u->names[i], u->group, u->names[i],
				tracefs_tracing_dir());
		tracefs_dynevent_free(u->ev[i]);
	}
	u->n = 0;
}

/* "iorec_1234" -> 1234, or 0 if @group is not one of ours. */
static pid_t group_pid(const char *group)
{
	const char *p = group + strlen(UPROBE_GROUP);
	char *end;
	long pid;

	if (strncmp(group, UPROBE_GROUP, strlen(UPROBE_GROUP)) ||
	    *p < '0' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	return *end || pid <= 0 ? 0 : (pid_t)pid;
}

int uprobes_remove_stale(bool verbose)
{
	struct tracefs_dynevent **all;
	int i, removed = 0;

	if (!uprobes_supported())
		return 0;
	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE, NULL);
	for (i = 0; all && all[i]; i++) {
		char *system = NULL, *event = NULL;
		pid_t pid;

		tracefs_dynevent_info(all[i], &system, &event, NULL, NULL,
				      NULL);
		pid = system ? group_pid(system) : 0;
		if (pid && pid != getpid() && kill(pid, 0) < 0 &&
		    errno == ESRCH) {
			if (tracefs_dynevent_destroy(all[i], true) == 0) {
				removed++;
				if (verbose)
					note("removed stale uprobe %s:%s (pid %d is gone)",
					     system, event, (int)pid);
			}
		}
		free(system);
		free(event);
	}
	tracefs_dynevent_list_free(all);
	return removed;
}
