// SPDX-License-Identifier: MIT
/*
 * snapshot.c - the context snapshot taken at the start and the end of a
 * recording: clock, uname, I/O sysctls, meminfo, mounts, block device
 * queue settings, diskstats, processes, threads and their open files.
 *
 * The text is one "kind\tfield\tfield...\n" line per fact, every field
 * escaped with sbuf_add_escaped().  Sources that cannot be read (a
 * process that exited, a sysctl this kernel lacks) are skipped: a
 * snapshot is best effort and never fails.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "cgname.h"
#include "iorec-format.h"
#include "record.h"

#define PATH_MAX_SNAP	4096


/* Start a line "kind" and add each of the NULL-terminated fields. */
static void add_line(struct sbuf *sb, const char *kind, ...)
{
	va_list ap;
	const char *f;

	sbuf_addstr(sb, kind);
	va_start(ap, kind);
	while ((f = va_arg(ap, const char *))) {
		sbuf_addch(sb, '\t');
		sbuf_add_escaped(sb, f);
	}
	va_end(ap);
	sbuf_addch(sb, '\n');
}

/* Strip trailing whitespace in place; returns s. */
static char *rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Read a small file into buf, stripped.  Returns 0 or -1. */
static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open_raw(path, O_RDONLY, 0);
	size_t n = 0;

	if (fd < 0)
		return -1;
	/* a /proc or /sys file this small comes in one read: a short
	 * read is its end (no stdio: its fstat and its read of the end
	 * are two more system calls for each of ~1000 files) */
	while (n < size - 1) {
		size_t want = size - 1 - n;
		ssize_t r = read(fd, buf + n, want);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if ((size_t)r < want)
			break;
	}
	close(fd);
	buf[n] = '\0';
	rstrip(buf);
	return 0;
}

static void add_time(struct sbuf *sb)
{
	char mono[32], real[32];

	snprintf(mono, sizeof(mono), "%llu", (unsigned long long)now_mono_ns());
	snprintf(real, sizeof(real), "%llu", (unsigned long long)now_real_ns());
	add_line(sb, "time", mono, real, NULL);
}

static void add_uname(struct sbuf *sb)
{
	struct utsname u;

	if (uname(&u) < 0)
		return;
	add_line(sb, "uname", u.sysname, u.release, u.version, u.machine,
		 u.nodename, NULL);
}

static void add_sysctls(struct sbuf *sb)
{
	static const char *const names[] = {
		"vm.dirty_ratio", "vm.dirty_background_ratio",
		"vm.dirty_bytes", "vm.dirty_background_bytes",
		"vm.dirty_expire_centisecs", "vm.dirty_writeback_centisecs",
		"vm.swappiness", "vm.vfs_cache_pressure", "vm.laptop_mode",
		"vm.page-cluster", "vm.min_free_kbytes",
		"vm.overcommit_memory", "vm.block_dump",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char path[640], val[256], *p;

		snprintf(path, sizeof(path), "/proc/sys/%s", names[i]);
		for (p = path + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
		if (read_small(path, val, sizeof(val)) == 0)
			add_line(sb, "sysctl", names[i], val, NULL);
	}
}

static void add_meminfo(struct sbuf *sb)
{
	static const char *const keys[] = {
		"MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached",
		"Dirty", "Writeback", "SwapTotal", "SwapFree",
	};
	char line[256];
	FILE *f = fopen_raw("/proc/meminfo");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		unsigned long long kb;
		char val[32];
		size_t i;

		if (!colon)
			continue;
		*colon = '\0';
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(line, keys[i]))
				break;
		if (i == ARRAY_SIZE(keys) ||
		    sscanf(colon + 1, "%llu", &kb) != 1)
			continue;
		snprintf(val, sizeof(val), "%llu", kb);
		add_line(sb, "meminfo", line, val, NULL);
	}
	fclose(f);
}

/* Decode the octal escapes (\040) of /proc/self/mountinfo in place. */
static char *unoctal(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 |
				      (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return s;
}

/*
 * mountinfo: "id parent maj:min root mountpoint opts [optional...] -
 * fstype source superopts".
 */
static void add_mount_line(struct sbuf *sb, char *line)
{
	char *f[8] = { 0 }, *tok, *save = NULL, *sep;
	int n = 0;

	sep = strstr(line, " - ");
	if (!sep)
		return;
	*sep = '\0';
	for (tok = strtok_r(line, " ", &save); tok && n < 6;
	     tok = strtok_r(NULL, " ", &save))
		f[n++] = tok;
	if (n < 6)
		return;
	save = NULL;
	f[0] = strtok_r(sep + 3, " ", &save);	/* fstype */
	f[1] = strtok_r(NULL, " ", &save);	/* source */
	f[7] = strtok_r(NULL, " \n", &save);	/* super options */
	if (!f[0] || !f[1])
		return;
	add_line(sb, "mount", f[2], unoctal(f[1]), unoctal(f[4]), f[0], f[5],
		 f[7] ? f[7] : "", unoctal(f[3]), NULL);
}

static void add_mounts(struct sbuf *sb)
{
	FILE *f = fopen_raw("/proc/self/mountinfo");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		rstrip(line);
		add_mount_line(sb, line);
	}
	free(line);
	fclose(f);
}

/* The selected scheduler: "none [mq-deadline] kyber" -> "mq-deadline". */
static char *selected(char *val)
{
	char *open = strchr(val, '['), *close;

	if (!open || !(close = strchr(open, ']')))
		return val;
	*close = '\0';
	return open + 1;
}

static void add_blockdev_attr(struct sbuf *sb, const char *name,
			      const char *dev, const char *key,
			      const char *path)
{
	char val[512];

	if (read_small(path, val, sizeof(val)) < 0)
		return;
	add_line(sb, "blockdev", name, dev,  key,
		 !strcmp(key, "scheduler") ? selected(val) : val, NULL);
}

static void add_partitions(struct sbuf *sb, const char *disk)
{
	char path[512], dev[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/block/%s", disk);
	d = opendir_raw(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    strncmp(de->d_name, disk, strlen(disk)))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/%s/dev", disk,
			 de->d_name);
		if (read_small(path, dev, sizeof(dev)) < 0)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/%s/size", disk,
			 de->d_name);
		add_blockdev_attr(sb, de->d_name, dev, "size_sectors", path);
		add_line(sb, "blockdev", de->d_name, dev, "parent", disk, NULL);
	}
	closedir(d);
}

/*
 * A loop device's backing file: the file system that holds it and its
 * inode, so that the analyzer knows which device's I/O on which inode
 * is this device's (a loop worker's reads and writes of the file).
 */
static void add_backing(struct sbuf *sb, const char *name, const char *dev)
{
	char path[512], file[4096], val[64];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	if (read_small(path, file, sizeof(file)) < 0 || file[0] != '/' ||
	    stat(file, &st) < 0)
		return;
	snprintf(val, sizeof(val), "%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	add_line(sb, "blockdev", name, dev, "backing_dev", val, NULL);
	snprintf(val, sizeof(val), "%llu", (unsigned long long)st.st_ino);
	add_line(sb, "blockdev", name, dev, "backing_inode", val, NULL);
}

static void add_blockdev(struct sbuf *sb, const char *name)
{
	static const struct { const char *key, *file; } attrs[] = {
		{ "scheduler", "queue/scheduler" },
		{ "rotational", "queue/rotational" },
		{ "nr_requests", "queue/nr_requests" },
		{ "write_cache", "queue/write_cache" },
		{ "fua", "queue/fua" },
		{ "max_sectors_kb", "queue/max_sectors_kb" },
		{ "max_hw_sectors_kb", "queue/max_hw_sectors_kb" },
		{ "logical_block_size", "queue/logical_block_size" },
		{ "physical_block_size", "queue/physical_block_size" },
		{ "read_ahead_kb", "queue/read_ahead_kb" },
		{ "size_sectors", "size" },
		{ "backing_file", "loop/backing_file" },
	};
	char path[512], dev[64], size[32];
	size_t i;

	/* no medium (a loop device without a file, an empty card reader):
	 * no I/O to explain, and 13 files to read at each end */
	snprintf(path, sizeof(path), "/sys/block/%s/size", name);
	if (read_small(path, size, sizeof(size)) == 0 && !strcmp(size, "0"))
		return;
	snprintf(path, sizeof(path), "/sys/block/%s/dev", name);
	if (read_small(path, dev, sizeof(dev)) < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/%s", name,
			 attrs[i].file);
		add_blockdev_attr(sb, name, dev, attrs[i].key, path);
	}
	add_backing(sb, name, dev);
	add_partitions(sb, name);
}

static void add_blockdevs(struct sbuf *sb)
{
	DIR *d = opendir_raw("/sys/block");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			add_blockdev(sb, de->d_name);
	closedir(d);
}

static void add_diskstats(struct sbuf *sb)
{
	FILE *f = fopen_raw("/proc/diskstats");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char major[16], minor[16], name[128];
		int off = 0;

		if (sscanf(line, " %15s %15s %127s %n", major, minor, name,
			   &off) < 3 || !off)
			continue;
		add_line(sb, "diskstats", major, minor, name,
			 rstrip(line + off), NULL);
	}
	fclose(f);
}

/* Parse ppid and comm from /proc/PID/stat.  Returns 0 or -1. */
static int proc_stat(const char *dir, char *comm, size_t size, long *ppid)
{
	char path[640], buf[1024], *open, *close;

	snprintf(path, sizeof(path), "%s/stat", dir);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return -1;
	*close = '\0';
	snprintf(comm, size, "%s", open + 1);
	if (sscanf(close + 1, " %*c %ld", ppid) != 1)
		return -1;
	return 0;
}

/* /proc/PID/cmdline with NULs turned to spaces, into @sb (reset first). */
static void proc_cmdline(const char *dir, struct sbuf *sb)
{
	char path[640], *text;
	ssize_t n, i;

	sbuf_reset(sb);
	snprintf(path, sizeof(path), "%s/cmdline", dir);
	n = read_whole_file(path, &text);
	if (n < 0)
		return;
	while (n > 0 && text[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (text[i] == '\0')
			text[i] = ' ';
	sbuf_add(sb, text, (size_t)n);
	free(text);
}

/*
 * Where a walk of /proc's numbered entries (processes, then each one's
 * threads and fds) stands, for the function it calls on each entry.
 */
struct walk {
	struct sbuf *sb;
	struct sbuf *cmd;	/* one command line buffer for all processes */
	const char *dir;	/* /proc/PID, for its threads and fds */
	const char *pid;
	struct seen *seen;	/* what the processes' lines named */
};

/*
 * The mount namespaces (other than iorec's) and the container ids the
 * processes are in: each namespace's mount table and each container's
 * name are written once, after the processes.
 */
struct seen {
	unsigned long long self_ns;
	struct seen_ns {
		unsigned long long ino;
		int pid;		/* one process in it */
	} *ns;
	size_t nns, ans;
	char (*ids)[CGNAME_ID_LEN + 1];
	const char **runtimes;
	size_t nids, aids;
	bool nomem;		/* one could not be kept */
};

/* Call fn for each entry of path whose name is a number (pid, tid, fd). */
static void each_number(const char *path, const struct walk *w,
			void (*fn)(const struct walk *w, const char *name))
{
	DIR *d = opendir_raw(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			fn(w, de->d_name);
	closedir(d);
}

static void add_thread(const struct walk *w, const char *tid)
{
	char path[640], comm[64];

	if (!strcmp(tid, w->pid))
		return;
	snprintf(path, sizeof(path), "%s/task/%s/comm", w->dir, tid);
	if (read_small(path, comm, sizeof(comm)) < 0)
		return;
	add_line(w->sb, "thread", tid, w->pid, comm, NULL);
}

/* pos and flags (octal text) of /proc/PID/fdinfo/FD. */
static void fd_info(const char *dir, const char *fd, char *pos, char *flags)
{
	char path[640], buf[512], *p;

	strcpy(pos, "0");
	strcpy(flags, "0");
	snprintf(path, sizeof(path), "%s/fdinfo/%s", dir, fd);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return;
	if ((p = strstr(buf, "pos:")))
		sscanf(p + 4, " %31s", pos);
	if ((p = strstr(buf, "flags:")))
		sscanf(p + 6, " %31s", flags);
}

static void add_fd(const struct walk *w, const char *fd)
{
	char path[640], target[4096], dev[32], ino[32], pos[32], flags[32];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/fd/%s", w->dir, fd);
	if (stat(path, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
	      S_ISBLK(st.st_mode)))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	snprintf(ino, sizeof(ino), "%llu", (unsigned long long)st.st_ino);
	fd_info(w->dir, fd, pos, flags);
	add_line(w->sb, "fd", w->pid, fd, dev, ino, flags, pos, target, NULL);
}

static void seen_id(struct seen *s, const char *id, const char *runtime);

/*
 * "cgroup PID HIERARCHY CONTROLLERS PATH" for each line of
 * /proc/PID/cgroup (v2: "0::/path"; v1: one per hierarchy), and the
 * container ids the paths name.
 */
static void add_cgroups(const struct walk *w)
{
	char path[640], *text, *line, *save = NULL;

	snprintf(path, sizeof(path), "%s/cgroup", w->dir);
	if (read_whole_file(path, &text) < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2, id[CGNAME_ID_LEN + 1];
		const char *rt;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')))
			continue;
		*c1 = *c2 = '\0';
		add_line(w->sb, "cgroup", w->pid, line, c1 + 1, c2 + 1, NULL);
		rt = cgname_container(c2 + 1, id);
		if (rt)
			seen_id(w->seen, id, rt);
	}
	free(text);
}

/* "mntns PID INODE": the mount namespace of the process. */
static void add_mntns(const struct walk *w)
{
	char path[640], ino[32];
	struct seen *s = w->seen;
	struct stat st;
	size_t i;

	snprintf(path, sizeof(path), "%s/ns/mnt", w->dir);
	if (stat(path, &st) < 0)
		return;
	snprintf(ino, sizeof(ino), "%llu", (unsigned long long)st.st_ino);
	add_line(w->sb, "mntns", w->pid, ino, NULL);
	if (st.st_ino == s->self_ns)
		return;
	for (i = 0; i < s->nns; i++)
		if (s->ns[i].ino == st.st_ino)
			return;
	if (s->nns == s->ans) {
		size_t a = s->ans ? 2 * s->ans : 16;
		struct seen_ns *v = realloc(s->ns, a * sizeof(*v));

		if (!v) {
			s->nomem = true;
			return;
		}
		s->ns = v;
		s->ans = a;
	}
	s->ns[s->nns].ino = st.st_ino;
	s->ns[s->nns++].pid = atoi(w->pid);
}

static void add_process(const struct walk *all, const char *pid)
{
	char dir[64], path[96], comm[64], ppid_s[32], exe[4096];
	struct walk w = { .sb = all->sb, .dir = dir, .pid = pid,
			  .seen = all->seen };
	struct sbuf *sb = all->sb;
	long ppid;
	ssize_t n;

	snprintf(dir, sizeof(dir), "/proc/%s", pid);
	if (proc_stat(dir, comm, sizeof(comm), &ppid) < 0)
		return;
	snprintf(ppid_s, sizeof(ppid_s), "%ld", ppid);
	snprintf(path, sizeof(path), "%s/exe", dir);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	proc_cmdline(dir, all->cmd);
	add_line(sb, "proc", pid, ppid_s, comm, exe,
		 all->cmd->buf ? all->cmd->buf : "", NULL);
	/* the syscall ABI of its program: which table names its raw ids */
	if (n > 0) {
		enum rec_abi abi = elf_file_abi(path);

		if (abi != ABI_UNKNOWN)
			add_line(sb, "abi", pid, abi_name(abi), NULL);
	}
	add_cgroups(&w);
	add_mntns(&w);
	snprintf(path, sizeof(path), "%s/task", dir);
	each_number(path, &w, add_thread);
	snprintf(path, sizeof(path), "%s/fd", dir);
	each_number(path, &w, add_fd);
}

/*
 * "nsmount NS_INODE MAJ:MIN ROOT MOUNTPOINT FSTYPE": the mount table of
 * a mount namespace other than iorec's, from /proc/PID/mountinfo of one
 * process in it, so that a path seen inside is also shown as the host's.
 */
static void add_ns_mounts(struct sbuf *sb, const struct seen_ns *ns)
{
	char path[64], nsino[32], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", ns->pid);
	snprintf(nsino, sizeof(nsino), "%llu", ns->ino);
	f = fopen_raw(path);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *fld[6], *tok, *save = NULL, *sep = strstr(line, " - ");
		int n = 0;

		if (!sep)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 5;
		     tok = strtok_r(NULL, " ", &save))
			fld[n++] = tok;
		save = NULL;
		tok = strtok_r(sep + 3, " ", &save);
		if (n < 5 || !tok)
			continue;
		add_line(sb, "nsmount", nsino, fld[2], unoctal(fld[3]),
			 unoctal(fld[4]), tok, NULL);
	}
	free(line);
	fclose(f);
}

/*
 * The directory under which the container runtimes keep their state:
 * "" (the host's /var/lib), or IOREC_CONTAINER_STATE_ROOT, a fake root
 * the tests make (DIR/var/lib/docker/..., DIR/var/lib/containers/...).
 */
static const char *state_root(void)
{
	const char *r = getenv("IOREC_CONTAINER_STATE_ROOT");

	return r ? r : "";
}

/*
 * The name of container id in the runtime's state on the host (Docker:
 * containers/ID/config.v2.json "Name"; Podman: the "names" of its entry
 * in storage/overlay-containers/containers.json) into name.
 */
static bool container_name(const char *runtime, const char *id, char *name,
			   size_t size)
{
	char path[PATH_MAX_SNAP], *text;
	const char *p;
	bool ok = false;

	if (!strcmp(runtime, "docker"))
		snprintf(path, sizeof(path),
			 "%s/var/lib/docker/containers/%s/config.v2.json",
			 state_root(), id);
	else
		snprintf(path, sizeof(path), "%s/var/lib/containers/storage/"
			 "overlay-containers/containers.json", state_root());
	if (read_whole_file(path, &text) < 0)
		return false;
	if (!strcmp(runtime, "docker")) {
		ok = cgname_json_string(text, "Name", name, size) != NULL;
	} else {
		char qid[CGNAME_ID_LEN + 3];

		snprintf(qid, sizeof(qid), "\"%s\"", id);
		p = strstr(text, qid);
		ok = p && cgname_json_string(p, "names", name, size);
	}
	free(text);
	if (ok && name[0] == '/')	/* Docker's "/name" */
		memmove(name, name + 1, strlen(name));
	return ok && *name;
}

/* Note container id of runtime unless it is there. */
static void seen_id(struct seen *s, const char *id, const char *runtime)
{
	for (size_t i = 0; i < s->nids; i++)
		if (!strcmp(s->ids[i], id))
			return;
	if (s->nids == s->aids) {
		size_t a = s->aids ? 2 * s->aids : 16;
		char (*ids)[CGNAME_ID_LEN + 1] = realloc(s->ids,
							  a * sizeof(*ids));
		const char **rt;

		if (ids)
			s->ids = ids;
		rt = ids ? realloc(s->runtimes, a * sizeof(*rt)) : NULL;
		if (!rt) {
			s->nomem = true;
			return;
		}
		s->runtimes = rt;
		s->aids = a;
	}
	snprintf(s->ids[s->nids], sizeof(s->ids[0]), "%s", id);
	s->runtimes[s->nids++] = runtime;
}

/*
 * Every container the runtimes' state on the host lists, so that one
 * whose processes came and went during the recording is named too.
 */
static void state_ids(struct seen *s)
{
	char path[PATH_MAX_SNAP], *text, id[CGNAME_ID_LEN + 8];
	struct dirent *de;
	const char *p;
	DIR *d;

	snprintf(path, sizeof(path), "%s/var/lib/docker/containers",
		 state_root());
	if ((d = opendir_raw(path))) {
		while ((de = readdir(d)))
			if (strlen(de->d_name) == CGNAME_ID_LEN)
				seen_id(s, de->d_name, "docker");
		closedir(d);
	}
	snprintf(path, sizeof(path), "%s/var/lib/containers/storage/"
		 "overlay-containers/containers.json", state_root());
	if (read_whole_file(path, &text) < 0)
		return;
	for (p = text; (p = cgname_json_string(p, "id", id, sizeof(id)));)
		if (strlen(id) == CGNAME_ID_LEN)
			seen_id(s, id, "podman");
	free(text);
}

/* "container ID RUNTIME NAME" for each container a process was in. */
static void add_containers(struct sbuf *sb, struct seen *s)
{
	state_ids(s);
	for (size_t i = 0; i < s->nids; i++) {
		char name[256];

		if (!container_name(s->runtimes[i], s->ids[i], name,
				    sizeof(name)))
			name[0] = '\0';
		add_line(sb, "container", s->ids[i], s->runtimes[i], name,
			 NULL);
	}
}

static void add_processes(struct sbuf *sb)
{
	struct sbuf cmd = SBUF_INIT;
	struct seen seen = { 0 };
	struct walk w = { .sb = sb, .cmd = &cmd, .seen = &seen };
	struct stat st;

	if (stat("/proc/self/ns/mnt", &st) == 0)
		seen.self_ns = st.st_ino;
	each_number("/proc", &w, add_process);
	for (size_t i = 0; i < seen.nns; i++)
		add_ns_mounts(sb, &seen.ns[i]);
	add_containers(sb, &seen);
	free(seen.ns);
	free(seen.ids);
	free(seen.runtimes);
	if (seen.nomem || cmd.failed)
		sb->failed = true;	/* the snapshot is not whole */
	sbuf_release(&cmd);
}

static void add_self(struct sbuf *sb, const struct snap_self *self)
{
	char pid[32], ino[32];

	snprintf(pid, sizeof(pid), "%d", (int)self->pid);
	snprintf(ino, sizeof(ino), "%llu", self->out_ino);
	add_line(sb, "self", pid, self->out_dev, ino, NULL);
}

void snapshot_build(struct sbuf *sb, const struct snap_self *self)
{
	add_time(sb);
	add_uname(sb);
	add_sysctls(sb);
	add_meminfo(sb);
	add_mounts(sb);
	add_blockdevs(sb);
	add_diskstats(sb);
	add_processes(sb);
	add_self(sb, self);
	if (self->inos)
		inoset_lines(self->inos, sb, self->rotated ?
			     INODE_NAMES_ROTATE_NS : INODE_NAMES_BUDGET_NS,
			     self->rotated);
}

int snapshot_write(struct iorec_writer *w, uint32_t phase,
		   const struct snap_self *self)
{
	struct sbuf sb = SBUF_INIT;
	uint8_t head[8];
	int ret;

	iorec_put32(head, phase);
	iorec_put32(head + 4, 0);
	sbuf_add(&sb, head, sizeof(head));
	snapshot_build(&sb, self);
	ret = sb.failed ? -IOREC_E_NOMEM :
	      iorec_writer_add(w, IOREC_CHUNK_SNAPSHOT, NULL, 0, sb.buf,
			       sb.len, true);
	sbuf_release(&sb);
	return ret;
}

int snapshot_write_end(struct iorec_writer *w, const struct snap_self *self)
{
	int size = 0, ret;
	char *text;

	ret = snapshot_write(w, IOREC_SNAP_END, self);
	text = ret ? NULL : tracefs_instance_file_read(NULL, "saved_cmdlines",
							&size);
	if (text) {
		ret = iorec_writer_add(w, IOREC_CHUNK_CMDLINES, NULL, 0, text,
				       (size_t)size, true);
		free(text);
	}
	return ret;
}
