// SPDX-License-Identifier: MIT
/*
 * names.c - where the names of files opened during a recording come from:
 * a chain of sources tried in order, each used only when it names opens
 * the earlier ones do not:
 *
 *   strings  the syscall events themselves carry the path (newer kernels)
 *   kprobe   a kprobe on the kernel's open path (do_sys_openat2) fetches
 *            the user's path string: every program, static or not, any C
 *            library, 32-bit (compat) programs too (CONFIG_KPROBE_EVENTS)
 *   eprobe   eprobes on syscalls:sys_enter_open* dereference the filename
 *            pointer (CONFIG_EPROBE_EVENTS); native programs only, as the
 *            syscalls:* events skip compat tasks
 *   uprobe   uprobes on the C library's open functions with a ustring
 *            argument (CONFIG_UPROBE_EVENTS): dynamically linked programs
 *            of the kernel's own ABI using a libc iorec found; not Thumb
 *            code (the ARM kernel refuses it), not AArch32 code on arm64
 *   snapshot fd snapshots at start and end, inode joins: always
 *
 * Every probe is an event of the group iorec_PID with a string field
 * "path", fired in the opening thread around its open call: the contract
 * the analyzer reads (a path hint for the thread's pending or next open).
 * A source is used only after its probes were created and enabled in an
 * instance; --check does the same in a scratch instance.  Dynamic events
 * are global, so the group is per recorder; it is removed at exit, and
 * groups of dead recorders are removed at the next start.
 *
 * Where 32-bit programs run on a 64-bit kernel and kprobes exist, two more
 * kprobes, exec_native and exec_compat, fire in a task that execs a
 * program of the kernel's own ABI or of the compat ABI (the kernel's
 * arch_setup_additional_pages and its compat twin): the analyzer learns
 * each process's ABI from them, in the event stream.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <tracefs.h>

#include "record.h"

#define MAX_LIBCS	4

#define NAME_SRC(name, word) word,
static const char *const src_words[NS_NR] = { NAME_SRC_LIST };
#undef NAME_SRC

static void set_default_order(struct names *n)
{
	int i;

	n->norder = 0;
	for (i = 0; i < NS_SNAPSHOT; i++)
		n->order[n->norder++] = (enum name_src)i;
}

int names_parse(struct names *n, const char *list)
{
	char *copy, *tok, *save = NULL;
	int i, ret = 0;

	n->allowed = 0;
	n->norder = 0;
	if (!list || !strcmp(list, "auto")) {
		set_default_order(n);
		for (i = 0; i < NS_SNAPSHOT; i++)
			n->allowed |= 1u << i;
		return 0;
	}
	if (!strcmp(list, "none"))
		return 0;
	copy = strdup(list);
	if (!copy)
		return -IOREC_E_NOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NS_SNAPSHOT; i++)
			if (!strcmp(tok, src_words[i]))
				break;
		if (i == NS_SNAPSHOT) {
			ret = -1;
			break;
		}
		if (!(n->allowed & (1u << i)))
			n->order[n->norder++] = (enum name_src)i;
		n->allowed |= 1u << i;
	}
	free(copy);
	return ret;
}

void names_no_uprobes(struct names *n)
{
	n->no_uprobes = true;
	n->allowed &= ~(1u << NS_UPROBE);
}

/* ------------------------------------------------------------------ */
/* probes */

/*
 * The register holding argument @idx (0-based) at a kernel function's
 * entry, on a kernel of ABI @abi; NULL when unknown.
 */
static const char *kernel_arg_reg(enum rec_abi abi, int idx)
{
	static const char *const x86_64[] = { "%di", "%si", "%dx", "%cx" };
	static const char *const i386[] = { "%ax", "%dx", "%cx" };
	static const char *const aarch64[] = { "%x0", "%x1", "%x2", "%x3" };
	static const char *const arm[] = { "%r0", "%r1", "%r2", "%r3" };
	static const char *const riscv64[] = { "%a0", "%a1", "%a2", "%a3" };

	if (idx < 0 || idx > 3)
		return NULL;
	switch (abi) {
	case ABI_X86_64:	return x86_64[idx];
	case ABI_I386:		return idx < 3 ? i386[idx] : NULL;
	case ABI_AARCH64:	return aarch64[idx];
	case ABI_ARM:		return arm[idx];
	case ABI_RISCV64:	return riscv64[idx];
	default:		return NULL;
	}
}

/* Enable group:event in @inst.  Returns 0 or -1 with errno set. */
static int enable_in(struct tracefs_instance *inst, const char *group,
		     const char *event)
{
	return tracefs_event_file_write(inst, group, event, "enable", "1") < 0 ?
	       -1 : 0;
}

/*
 * Remove a probe: first without force, which the kernel grants when no
 * instance has it enabled (at the end: the recording's instance is gone
 * by then); with force (libtracefs disables it in every instance first,
 * listing every event of every system of each: some 2,500 stats a
 * recording) only when that fails, as for a probe dropped during set-up
 * while enabled.  Returns what tracefs_dynevent_destroy does.
 */
static int destroy_probe(struct tracefs_dynevent *d)
{
	if (tracefs_dynevent_destroy(d, false) == 0)
		return 0;
	return tracefs_dynevent_destroy(d, true);
}

/*
 * Create @d (taking it) and enable it in @inst.  On success it is kept in
 * n->pr[] and 0 is returned; otherwise it is removed again, *err gets the
 * errno and -1 is returned.
 */
static int keep_probe(struct names *n, struct tracefs_dynevent *d,
		      const char *event, enum name_src src, bool marker,
		      struct tracefs_instance *inst, int *err)
{
	struct name_probe *pr;

	if (!d) {
		*err = errno ? errno : ENOMEM;
		return -1;
	}
	if (n->npr == NAMES_MAX_PROBES) {
		tracefs_dynevent_free(d);
		*err = ENOSPC;
		return -1;
	}
	errno = 0;
	if (tracefs_dynevent_create(d) < 0) {
		*err = errno ? errno : EINVAL;
		tracefs_dynevent_free(d);
		return -1;
	}
	if (enable_in(inst, n->group, event) < 0) {
		*err = errno ? errno : EINVAL;
		destroy_probe(d);
		tracefs_dynevent_free(d);
		return -1;
	}
	pr = &n->pr[n->npr++];
	pr->ev = d;
	snprintf(pr->event, sizeof(pr->event), "%s", event);
	pr->src = src;
	pr->abi_marker = marker;
	return 0;
}

/* Remove the probes of @src created so far. */
static void drop_source(struct names *n, enum name_src src)
{
	int i, k = 0;

	for (i = 0; i < n->npr; i++) {
		if (n->pr[i].src != src) {
			n->pr[k++] = n->pr[i];
			continue;
		}
		destroy_probe(n->pr[i].ev);
		tracefs_dynevent_free(n->pr[i].ev);
	}
	n->npr = k;
}

/* ------------------------------------------------------------------ */
/* strings: does the kernel's openat event carry the path itself? */

static bool syscall_strings(void)
{
	char *fmt = tracefs_event_file_read(NULL, "syscalls",
					    "sys_enter_openat", "format", NULL);
	char *line;
	bool str = false;

	if (!fmt)
		return false;
	line = strstr(fmt, " filename;");
	if (line) {
		while (line > fmt && line[-1] != '\n')
			line--;
		str = strstr(line, "__data_loc") && strstr(line, "char") &&
		      strstr(line, "char") < strstr(line, " filename;");
		if (!str && strstr(line, "char filename["))
			str = true;
	}
	free(fmt);
	return str;
}

static void try_strings(struct names *n, const struct plan *p)
{
	if (p->raw_syscalls) {
		snprintf(n->result[NS_STRINGS], sizeof(n->result[0]),
			 "no: syscalls recorded through raw_syscalls carry no strings");
		return;
	}
	if (!syscall_strings()) {
		snprintf(n->result[NS_STRINGS], sizeof(n->result[0]),
			 "no: syscalls:sys_enter_openat carries the path as a user pointer only");
		return;
	}
	n->used[NS_STRINGS] = true;
	n->native = true;
	snprintf(n->result[NS_STRINGS], sizeof(n->result[0]),
		 "yes: the syscall events carry the path strings (%s programs)",
		 p->compat_mode == COMPAT_NONE ? "all" : "native");
}

/* ------------------------------------------------------------------ */
/* kprobe */

static bool kprobes_supported(void)
{
	return trace_path_exists("kprobe_events");
}

static void try_kprobe(struct names *n, const struct plan *p,
		       struct tracefs_instance *inst)
{
	static const char *const funcs[] = { "do_sys_openat2", "do_sys_open" };
	const char *reg = kernel_arg_reg(p->abi, 1);
	char fetch[64];
	size_t i;
	int err = 0;

	if (!kprobes_supported()) {
		snprintf(n->result[NS_KPROBE], sizeof(n->result[0]),
			 "no: kernel without CONFIG_KPROBE_EVENTS");
		return;
	}
	if (!reg) {
		snprintf(n->result[NS_KPROBE], sizeof(n->result[0]),
			 "no: argument registers of a %s kernel unknown",
			 abi_name(p->abi));
		return;
	}
	snprintf(fetch, sizeof(fetch), "path=+0(%s):ustring", reg);
	for (i = 0; i < ARRAY_SIZE(funcs); i++) {
		struct tracefs_dynevent *d;

		errno = 0;
		d = tracefs_kprobe_alloc(n->group, "kopen", funcs[i], fetch);
		if (keep_probe(n, d, "kopen", NS_KPROBE, false, inst, &err) == 0) {
			n->used[NS_KPROBE] = true;
			n->native = true;
			if (p->compat_mode == COMPAT_SHADOW ||
			    p->compat_mode == COMPAT_RAW)
				n->compat = true;
			snprintf(n->result[NS_KPROBE], sizeof(n->result[0]),
				 "yes: kprobe %s:kopen on %s(), path=+0(%s):ustring; every program%s; costs an event per open",
				 n->group, funcs[i], reg,
				 n->compat ? ", 32-bit ones too" : "");
			return;
		}
	}
	snprintf(n->result[NS_KPROBE], sizeof(n->result[0]),
		 "no: cannot place a kprobe on %s(): %s", funcs[0],
		 strerror(err));
}

/*
 * exec_native/exec_compat: kprobes on the functions that map a new
 * program's vdso, one per ABI, called by every ELF exec after the task
 * switched ABI.  Only where compat programs exist and kprobes too.
 */
static void try_exec_abi(struct names *n, const struct plan *p,
			 struct tracefs_instance *inst)
{
	static const char *const compat_funcs[] = {
		"compat_arch_setup_additional_pages",
		"aarch32_setup_additional_pages",
	};
	size_t i;
	int err = 0;

	if ((p->compat_mode != COMPAT_SHADOW && p->compat_mode != COMPAT_RAW) ||
	    !kprobes_supported() || !(n->allowed & (1u << NS_KPROBE)))
		return;
	if (keep_probe(n, tracefs_kprobe_alloc(n->group, "exec_native",
					       "arch_setup_additional_pages",
					       NULL),
		       "exec_native", NS_KPROBE, true, inst, &err) < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(compat_funcs); i++)
		if (keep_probe(n, tracefs_kprobe_alloc(n->group, "exec_compat",
						       compat_funcs[i], NULL),
			       "exec_compat", NS_KPROBE, true, inst, &err) == 0) {
			n->exec_abi = true;
			return;
		}
	/* one without the other tells nothing */
	for (i = 0; i < (size_t)n->npr; i++)
		if (n->pr[i].abi_marker) {
			destroy_probe(n->pr[i].ev);
			tracefs_dynevent_free(n->pr[i].ev);
			n->pr[i] = n->pr[--n->npr];
			break;
		}
}

/* ------------------------------------------------------------------ */
/* eprobe */

/*
 * Does eprobe @event of our group read the path an open passes?  Some
 * kernels (Debian 12's 6.1 among them) take a syscall event's "const
 * char *" field for a string of the record and give the probe's ustring
 * fetch a wrong address: every path is empty.  Tried in a scratch
 * instance of its own (iorecp-PID, removed at once): an openat of a path
 * that does not exist, whose event must carry it.  1 yes, 0 no, -1 the
 * test could not be made (then the probe is trusted).
 */
static int eprobe_reads_paths(const struct names *n, const char *event)
{
	struct tracefs_instance *ti;
	char name[64], path[96], *text;
	int ret = -1;

	snprintf(name, sizeof(name), INSTANCE_PROBE_PREFIX "%d", (int)getpid());
	snprintf(path, sizeof(path), "/nonexistent/iorec-eprobe-check-%d-%ld",
		 (int)getpid(), (long)now_mono_ns());
	ti = tracefs_instance_create(name);
	if (!ti)
		return -1;
	if (enable_in(ti, n->group, event) == 0 &&
	    tracefs_trace_on(ti) == 0) {
		int fd = open_raw(path, O_RDONLY, 0);

		if (fd >= 0)
			close(fd);
		tracefs_trace_off(ti);
		tracefs_event_file_write(ti, n->group, event, "enable", "0");
		text = tracefs_instance_file_read(ti, "trace", NULL);
		if (text)
			ret = strstr(text, path) != NULL;
		free(text);
	}
	tracefs_instance_destroy(ti);
	tracefs_instance_free(ti);
	return ret;
}

static void try_eprobe(struct names *n, const struct plan *p,
		       struct tracefs_instance *inst)
{
	static const struct { const char *event, *field, *name; } targets[] = {
		{ "sys_enter_openat", "filename", "eopenat" },
		{ "sys_enter_open", "filename", "eopen" },
		{ "sys_enter_openat2", "filename", "eopenat2" },
		{ "sys_enter_creat", "pathname", "ecreat" },
	};
	int err = 0, ok = 0, tried = 0;
	size_t i;

	if (!trace_path_exists("events/syscalls")) {
		snprintf(n->result[NS_EPROBE], sizeof(n->result[0]),
			 "no: no syscalls:* events to attach to (kernel without CONFIG_FTRACE_SYSCALLS)");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		char fetch[64];

		if (!trace_event_exists("syscalls", targets[i].event))
			continue;
		tried++;
		snprintf(fetch, sizeof(fetch), "path=+0($%s):ustring",
			 targets[i].field);
		errno = 0;
		if (keep_probe(n, tracefs_eprobe_alloc(n->group,
						       targets[i].name,
						       "syscalls",
						       targets[i].event, fetch),
			       targets[i].name, NS_EPROBE, false, inst,
			       &err) == 0)
			ok++;
	}
	if (!ok) {
		snprintf(n->result[NS_EPROBE], sizeof(n->result[0]),
			 "no: %s",
			 !tried ? "no syscalls:sys_enter_open* events" :
			 err == ENOENT || err == EINVAL || err == ENODEV ?
			 "kernel without CONFIG_EPROBE_EVENTS" : strerror(err));
		return;
	}
	if (trace_event_exists(n->group, "eopenat") &&
	    eprobe_reads_paths(n, "eopenat") == 0) {
		snprintf(n->result[NS_EPROBE], sizeof(n->result[0]),
			 "no: this kernel's eprobes read no path: an openat of a known path gave an empty one, a bug of some 6.x kernels");
		return;
	}
	n->used[NS_EPROBE] = true;
	n->native = true;
	snprintf(n->result[NS_EPROBE], sizeof(n->result[0]),
		 "yes: %d eprobes %s:eopen* on syscalls:sys_enter_open*, path=+0($filename):ustring; native programs only",
		 ok, n->group);
}

/* ------------------------------------------------------------------ */
/* uprobe: the C libraries of the running processes, read as ELF files */

/*
 * libc functions that take a path: the name and which argument it is,
 * and the argument of a second path (renames, links: the new name, as
 * "path2") or -1.
 */
static const struct {
	const char *sym;
	int arg, arg2;
} open_funcs[] = {
	{ "open", 0, -1 }, { "open64", 0, -1 },
	{ "openat", 1, -1 }, { "openat64", 1, -1 },
	{ "creat", 0, -1 }, { "creat64", 0, -1 },
	/* what fopen() and friends call inside glibc */
	{ "__open_nocancel", 0, -1 }, { "__open64_nocancel", 0, -1 },
	{ "__openat_nocancel", 1, -1 }, { "__openat64_nocancel", 1, -1 },
	/* names that change: the analyzer follows a file to its new name */
	{ "rename", 0, 1 }, { "renameat", 1, 3 }, { "renameat2", 1, 3 },
	{ "unlink", 0, -1 }, { "unlinkat", 1, -1 },
	{ "link", 0, 1 }, { "linkat", 1, 3 },
};

struct libc_file {
	char path[4096];
	dev_t dev;
	ino_t ino;
};

struct libc_list {
	struct libc_file f[16];
	int n;
};

/* Is @base the file name of a C library (glibc or musl)? */
static bool libc_name(const char *base)
{
	return !strncmp(base, "libc.so", 7) || !strncmp(base, "libc-", 5) ||
	       !strncmp(base, "libc.musl", 9) || !strncmp(base, "ld-musl-", 8);
}

static void libc_add(struct libc_list *l, const char *path)
{
	struct stat st;
	int i;

	if (l->n == (int)ARRAY_SIZE(l->f) || stat(path, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return;
	for (i = 0; i < l->n; i++)
		if (l->f[i].dev == st.st_dev && l->f[i].ino == st.st_ino)
			return;
	snprintf(l->f[l->n].path, sizeof(l->f[0].path), "%s", path);
	l->f[l->n].dev = st.st_dev;
	l->f[l->n].ino = st.st_ino;
	l->n++;
}

/* Are @a and @b the same file? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Add the C libraries that process @pid maps. */
static void libc_scan_maps(struct libc_list *l, const char *pid,
			   const char *self)
{
	char path[300], line[4608], last[4608] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	f = fopen_raw(path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/'), *base;
		char full[4608 + 64];

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		base = strrchr(file, '/') + 1;
		if (!libc_name(base) || strstr(file, " (deleted)") ||
		    !strcmp(file, last))
			continue;	/* a library maps 4 or 5 ranges: once */
		snprintf(last, sizeof(last), "%s", file);
		/* another mount namespace's file: through its root */
		snprintf(full, sizeof(full), "/proc/%s/root%s", pid, file);
		if (!strcmp(pid, self) || same_file(full, file))
			libc_add(l, file);
		else
			libc_add(l, full);
	}
	fclose(f);
}

/*
 * The C libraries mapped by running processes (through /proc/PID/root,
 * so that a container's libc is its own), iorec's own first.
 */
static void libc_scan_procs(struct libc_list *l)
{
	DIR *d = opendir_raw("/proc");
	struct dirent *de;
	char self[32];

	snprintf(self, sizeof(self), "%d", (int)getpid());
	libc_scan_maps(l, self, self);
	while (d && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			libc_scan_maps(l, de->d_name, self);
	if (d)
		closedir(d);
}

/* Where a C library of @abi usually is, for a system not running one yet. */
static void libc_known_paths(struct libc_list *l, enum rec_abi abi)
{
	static const struct { enum rec_abi abi; const char *path; } known[] = {
		{ ABI_X86_64, "/lib/x86_64-linux-gnu/libc.so.6" },
		{ ABI_X86_64, "/lib64/libc.so.6" },
		{ ABI_X86_64, "/lib/ld-musl-x86_64.so.1" },
		{ ABI_AARCH64, "/lib/aarch64-linux-gnu/libc.so.6" },
		{ ABI_AARCH64, "/lib64/libc.so.6" },
		{ ABI_AARCH64, "/lib/ld-musl-aarch64.so.1" },
		{ ABI_ARM, "/lib/arm-linux-gnueabihf/libc.so.6" },
		{ ABI_ARM, "/lib/ld-musl-armhf.so.1" },
		{ ABI_I386, "/lib/i386-linux-gnu/libc.so.6" },
		{ ABI_RISCV64, "/lib/riscv64-linux-gnu/libc.so.6" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (known[i].abi == abi)
			libc_add(l, known[i].path);
}

/* "__open64_nocancel" -> "libc_open64_nocancel" (libc2_... for the 2nd) */
static void uprobe_event_name(int lib, const char *sym, char *buf,
			      size_t size)
{
	while (*sym == '_')
		sym++;
	if (lib)
		snprintf(buf, size, "libc%d_%s", lib + 1, sym);
	else
		snprintf(buf, size, "libc_%s", sym);
}

/* Why uprobes in a libc of @abi cannot name opens on a @kernel kernel. */
static const char *uprobe_abi_problem(enum rec_abi abi, enum rec_abi kernel)
{
	if (abi == kernel)
		return NULL;
	if (kernel == ABI_AARCH64 && abi == ABI_ARM)
		return "the arm64 kernel cannot place uprobes in 32-bit (AArch32) code";
	if (kernel == ABI_X86_64 && abi == ABI_I386)
		return "uprobes cannot fetch a 32-bit program's stack arguments on a 64-bit kernel";
	return "not the kernel's ABI";
}

/* Probe one libc file: returns how many functions were probed. */
static int uprobe_libc(struct names *n, const struct plan *p,
		       struct tracefs_instance *inst, const char *path,
		       int lib, struct sbuf *why, int *err)
{
	struct elf_sym want[ARRAY_SIZE(open_funcs)];
	uint64_t seen[ARRAY_SIZE(open_funcs)];
	enum rec_abi abi = ABI_UNKNOWN;
	const char *problem;
	int nseen = 0, ok = 0, nthumb = 0, found;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(open_funcs); i++) {
		memset(&want[i], 0, sizeof(want[i]));
		want[i].name = open_funcs[i].sym;
	}
	found = elf_find_symbols(path, want, (int)ARRAY_SIZE(want), &abi);
	if (found <= 0) {
		sbuf_addf(why, "%s%s: %s", why->len ? "; " : "", path,
			    found < 0 ? strerror(errno) : "no open functions in its symbols");
		return 0;
	}
	problem = uprobe_abi_problem(abi, p->abi);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		nthumb += want[i].found && want[i].thumb;
	if (!problem && nthumb)
		problem = "Thumb-2 code: the ARM kernel cannot place uprobes on Thumb instructions";
	if (problem) {
		sbuf_addf(why, "%s%s (%s): %s", why->len ? "; " : "", path,
			    abi_name(abi), problem);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *reg = NULL, *reg2 = NULL;
		char event[64], fetch[128];
		int k;

		if (!want[i].found || want[i].ifunc)
			continue;
		for (k = 0; k < nseen && seen[k] != want[i].offset; k++)
			;
		if (k < nseen)
			continue;	/* an alias of one probed already */
		seen[nseen++] = want[i].offset;
		reg = kernel_arg_reg(abi, open_funcs[i].arg);
		if (!reg)
			continue;
		/* user registers: at a function's entry, as the C ABI says */
		if (abi == ABI_I386)
			continue;
		if (open_funcs[i].arg2 >= 0) {
			reg2 = kernel_arg_reg(abi, open_funcs[i].arg2);
			if (!reg2)
				continue;
		}
		uprobe_event_name(lib, open_funcs[i].sym, event, sizeof(event));
		if (reg2)
			snprintf(fetch, sizeof(fetch),
				 "path=+0(%s):ustring path2=+0(%s):ustring", reg,
				 reg2);
		else
			snprintf(fetch, sizeof(fetch), "path=+0(%s):ustring",
				 reg);
		errno = 0;
		if (keep_probe(n, tracefs_uprobe_alloc(n->group, event, path,
						       want[i].offset, fetch),
			       event, NS_UPROBE, false, inst, err) == 0)
			ok++;
	}
	if (!ok)
		sbuf_addf(why, "%s%s: cannot place uprobes: %s",
			    why->len ? "; " : "", path, strerror(*err));
	return ok;
}

/*
 * libaio: a uprobe libaio_io_submit on io_submit(ctx, nr, iocbs) of the
 * libaio library fetches nr and, of the first AIO_PROBE_IOCBS iocbs,
 * aio_fildes, aio_lio_opcode and aio_nbytes (struct iocb: offsets 20, 16
 * and 32 on every ABI), which the syscall events cannot give: the
 * analyzer puts each request on its fd's file.  Returns 1 when placed.
 */
#define AIO_PROBE_IOCBS	8

static int uprobe_libaio(struct names *n, const struct plan *p,
			 struct tracefs_instance *inst, int *err)
{
	static const char *const paths[] = {
		"/lib/x86_64-linux-gnu/libaio.so.1t64",
		"/lib/x86_64-linux-gnu/libaio.so.1",
		"/lib/aarch64-linux-gnu/libaio.so.1t64",
		"/lib/aarch64-linux-gnu/libaio.so.1",
		"/lib/riscv64-linux-gnu/libaio.so.1t64",
		"/lib/riscv64-linux-gnu/libaio.so.1",
		"/lib/arm-linux-gnueabihf/libaio.so.1t64",
		"/lib/arm-linux-gnueabihf/libaio.so.1",
		"/usr/lib/libaio.so.1",
		"/lib64/libaio.so.1",
	};
	struct elf_sym want = { .name = "io_submit" };
	enum rec_abi abi = ABI_UNKNOWN;
	struct sbuf f = SBUF_INIT;
	const char *nr, *iocbs;
	int ptr, i;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(paths); k++) {
		want.found = false;
		if (access(paths[k], R_OK) == 0 &&
		    elf_find_symbols(paths[k], &want, 1, &abi) == 1 &&
		    want.found && !want.ifunc && !want.thumb && abi == p->abi)
			break;
	}
	if (k == ARRAY_SIZE(paths))
		return 0;
	nr = kernel_arg_reg(abi, 1);
	iocbs = kernel_arg_reg(abi, 2);
	if (!nr || !iocbs || abi == ABI_I386)
		return 0;
	ptr = abi == ABI_ARM ? 4 : 8;
	sbuf_addf(&f, "nr=%s:s64", nr);
	for (i = 0; i < AIO_PROBE_IOCBS; i++)
		sbuf_addf(&f, " fd%d=+20(+%d(%s)):s32 op%d=+16(+%d(%s)):u16 len%d=+32(+%d(%s)):u64",
			    i, i * ptr, iocbs, i, i * ptr, iocbs, i, i * ptr,
			    iocbs);
	if (f.failed) {
		sbuf_release(&f);
		return 0;	/* out of memory: no probe */
	}
	errno = 0;
	i = keep_probe(n, tracefs_uprobe_alloc(n->group, "libaio_io_submit",
					       paths[k], want.offset, f.buf),
		       "libaio_io_submit", NS_UPROBE, false, inst, err);
	sbuf_release(&f);
	return i == 0;
}

static void try_uprobe(struct names *n, const struct plan *p,
		       struct tracefs_instance *inst)
{
	struct sbuf why = SBUF_INIT;	/* cut short without memory */
	struct libc_list l = { .n = 0 };
	int i, lib = 0, total = 0, err = 0, k_aio;
	size_t used = 0;

	if (!trace_path_exists("uprobe_events")) {
		snprintf(n->result[NS_UPROBE], sizeof(n->result[0]),
			 "no: kernel without CONFIG_UPROBE_EVENTS");
		return;
	}
	libc_scan_procs(&l);
	libc_known_paths(&l, p->abi);
	n->uprobe_libs[0] = '\0';
	for (i = 0; i < l.n && lib < MAX_LIBCS; i++) {
		int k = uprobe_libc(n, p, inst, l.f[i].path, lib, &why, &err);

		if (!k)
			continue;
		total += k;
		used += (size_t)snprintf(n->uprobe_libs + used,
					 used < sizeof(n->uprobe_libs) ?
					 sizeof(n->uprobe_libs) - used : 0,
					 "%s%s", lib ? "," : "", l.f[i].path);
		if (used >= sizeof(n->uprobe_libs))
			used = sizeof(n->uprobe_libs) - 1;
		lib++;
	}
	if (!total) {
		snprintf(n->result[NS_UPROBE], sizeof(n->result[0]), "no: %.480s",
			 why.len ? why.buf : "no C library found");
		sbuf_release(&why);
		return;
	}
	n->used[NS_UPROBE] = true;
	n->native = true;
	k_aio = uprobe_libaio(n, p, inst, &err);
	snprintf(n->result[NS_UPROBE], sizeof(n->result[0]),
		 "yes: %d uprobes %s:libc_* on %.240s; dynamically linked programs of that C library only%s; a trap per call, up to 1 s to remove at the end",
		 total, n->group, n->uprobe_libs,
		 k_aio ? "; libaio_io_submit on libaio (its requests' files)" :
		 "; no libaio found (libaio requests are on no file)");
	sbuf_release(&why);
}

/* ------------------------------------------------------------------ */
/* the chain */

void names_setup(struct names *n, const struct plan *p,
		 struct tracefs_instance *inst, bool verbose)
{
	bool compat_wanted = p->compat_mode == COMPAT_SHADOW ||
			     p->compat_mode == COMPAT_RAW;
	int i;

	n->verbose = verbose;
	n->npr = 0;
	n->native = n->compat = n->exec_abi = false;
	memset(n->used, 0, sizeof(n->used));
	memset(n->result, 0, sizeof(n->result));
	snprintf(n->group, sizeof(n->group), GROUP_PREFIX "%d", (int)getpid());
	if (!n->norder && n->allowed)
		set_default_order(n);
	for (i = 0; i < NS_SNAPSHOT; i++)
		if (!(n->allowed & (1u << i)))
			snprintf(n->result[i], sizeof(n->result[0]),
				 "off (%s)", i == NS_UPROBE && n->no_uprobes ?
				 "--no-uprobes" : "--names");
	if (p->profiles & PROFILE_IO) {
		for (i = 0; i < n->norder; i++) {
			enum name_src s = n->order[i];

			if (!(n->allowed & (1u << s)))
				continue;
			/* kprobes alone add 32-bit programs' opens */
			if (n->native && (n->compat || !compat_wanted ||
					  s != NS_KPROBE)) {
				snprintf(n->result[s], sizeof(n->result[0]),
					 "not needed: %s names these opens",
					 n->used[NS_KPROBE] ? "the kprobe" :
					 n->used[NS_EPROBE] ? "the eprobes" :
					 n->used[NS_STRINGS] ?
					 "the syscall events' strings" :
					 "an earlier source");
				continue;
			}
			switch (s) {
			case NS_STRINGS: try_strings(n, p); break;
			case NS_KPROBE:	try_kprobe(n, p, inst); break;
			case NS_EPROBE:	try_eprobe(n, p, inst); break;
			case NS_UPROBE:	try_uprobe(n, p, inst); break;
			default:	break;
			}
			if (!n->used[s])
				drop_source(n, s);
		}
		try_exec_abi(n, p, inst);
	}
	n->used[NS_SNAPSHOT] = true;
	snprintf(n->result[NS_SNAPSHOT], sizeof(n->result[0]),
		 "yes: fds open at the start and end snapshots, inodes of writeback/ext4 events");
}

void names_add_to_plan(const struct names *n, struct plan *p)
{
	int i;

	for (i = 0; i < n->npr; i++)
		plan_add_ok(p, n->group, n->pr[i].event,
			    n->pr[i].abi_marker ?
			    "the ABI of programs exec'd during the recording" :
			    "files opened during the recording are named only through inodes");
}

void names_destroy(struct names *n)
{
	int i;

	for (i = 0; i < n->npr; i++) {
		if (destroy_probe(n->pr[i].ev) < 0)
			warning("cannot remove probe %s:%s: %m (remove it with: echo '-:%s/%s' >> %s/dynamic_events)",
				n->group, n->pr[i].event, n->group,
				n->pr[i].event, tracefs_tracing_dir());
		tracefs_dynevent_free(n->pr[i].ev);
	}
	n->npr = 0;
}

void names_sources(const struct names *n, char *buf, size_t size)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < NS_NR && used < size; i++)
		if (n->used[i])
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 used ? "," : "", src_words[i]);
}

void names_print(const struct names *n, FILE *f)
{
	int i, k = 0;

	for (i = 0; i < NS_NR; i++) {
		if (!n->result[i][0])
			continue;
		fprintf(f, "    %d. %-9s %s\n", ++k, src_words[i], n->result[i]);
	}
	if (n->exec_abi)
		fprintf(f, "       exec ABI  kprobes %s:exec_native/exec_compat tell each exec'd program's ABI\n",
			n->group);
}

const char *names_limit(const struct names *n, const struct plan *p)
{
	bool compat = p->compat_mode == COMPAT_SHADOW ||
		      p->compat_mode == COMPAT_RAW;

	static char why[sizeof(n->result[0]) + 128];

	if (!(p->profiles & PROFILE_IO))
		return NULL;
	if (!n->native && !n->compat) {
		/* why: what the sources asked for said, the first that failed */
		for (int i = 0; i < n->norder; i++) {
			enum name_src s = n->order[i];

			if (s < NS_SNAPSHOT && (n->allowed & (1u << s)) &&
			    !strncmp(n->result[s], "no: ", 4)) {
				snprintf(why, sizeof(why), "files opened during the recording are named only from the fd snapshots and inodes (%s: %s)",
					 src_words[s], n->result[s] + 4);
				return why;
			}
		}
		return "files opened during the recording are named only from the fd snapshots and inodes";
	}
	if (compat && !n->compat)
		return "files opened by 32-bit programs during the recording are named only from the fd snapshots and inodes";
	if (n->used[NS_UPROBE] && !n->used[NS_KPROBE] && !n->used[NS_EPROBE] &&
	    !n->used[NS_STRINGS])
		return "files opened by static programs, programs of another C library and direct syscalls are named only from the fd snapshots and inodes";
	return NULL;
}

int names_remove_stale(bool verbose)
{
	struct tracefs_dynevent **all;
	int i, removed = 0;

	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE |
				       TRACEFS_DYNEVENT_KPROBE |
				       TRACEFS_DYNEVENT_EPROBE, NULL);
	for (i = 0; all && all[i]; i++) {
		char *system = NULL, *event = NULL;
		pid_t pid;

		tracefs_dynevent_info(all[i], &system, &event, NULL, NULL,
				      NULL);
		pid = system ? stale_owner(system, GROUP_PREFIX) : 0;
		if (pid) {
			if (tracefs_dynevent_destroy(all[i], true) == 0) {
				removed++;
				if (verbose)
					note("removed stale probe %s:%s (pid %d is gone)",
					     system, event, (int)pid);
			}
		}
		free(system);
		free(event);
	}
	tracefs_dynevent_list_free(all);
	return removed;
}
