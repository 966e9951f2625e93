// SPDX-License-Identifier: MIT
/*
 * blackbox.c - the black box's snapshots: the flight recorder's window
 * written as a complete .iorec into a directory while recording goes on,
 * the oldest removed past --keep N or --keep-size, and the pid file
 * through which 'iorec --snapshot' finds the recorder.
 *
 * A snapshot is written by its own thread, so that a slow card never
 * stalls the readers: to a hidden temporary name, whole, with one fsync
 * of the file at the end, then renamed (and the directory synced), so no
 * reader ever sees half a file.  The file is the recording's metadata
 * (kept in memory from the start: header with the snapshot's keys,
 * formats, start snapshot), the window's DATA chunks, then a /proc
 * snapshot taken now (process names, open files), saved_cmdlines, stats
 * and an END chunk: what a recording that stops writes.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "record.h"

struct blackbox {
	char *dir;
	unsigned int keep;
	uint64_t keep_bytes;
	char *pidfile;		/* written by us, or NULL */
	struct trig *trig;
	pthread_t thread;
	bool joinable;
	int busy;		/* atomic: a snapshot is being written */
	uint64_t done_mono;	/* atomic: when the last one ended */
	struct bb_snap *job;
	uint64_t written;	/* snapshots written */
};

void bb_snap_free(struct bb_snap *s)
{
	if (!s)
		return;
	flight_copy_free(s->fc, s->nfc);
	free(s->header_extra);
	free(s->stats);
	free(s->end_text);
	free(s);
}

/* Make @dir and its parents (0755).  Returns 0 or -1 with errno. */
static int mkdir_p(const char *dir)
{
	char *p = strdup(dir), *s;
	int ret = 0;

	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			ret = -1;
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		ret = -1;
	else
		ret = 0;
	free(p);
	return ret;
}

static int write_pidfile(const char *path, const char *dir)
{
	char *parent = strdup(path), *slash = parent ? strrchr(parent, '/') :
					     NULL;
	char text[4200];
	int fd, len, ret = 0;

	if (slash && slash != parent) {
		*slash = '\0';
		mkdir_p(parent);
	}
	free(parent);
	fd = open_raw(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	len = snprintf(text, sizeof(text), "%d\n%s\n", (int)getpid(), dir);
	if (write(fd, text, (size_t)len) != len)
		ret = -1;
	close(fd);
	return ret;
}

struct blackbox *bb_open(const char *dir, unsigned int keep,
			 uint64_t keep_bytes, const char *pidfile,
			 struct trig *trig)
{
	struct blackbox *bb;
	char abs[4096];

	if (mkdir_p(dir) < 0 || access(dir, W_OK) < 0) {
		error("cannot write in the snapshot directory %s: %m (give another with --snapshot-dir)",
		      dir);
		return NULL;
	}
	bb = calloc(1, sizeof(*bb));
	if (bb)
		bb->dir = strdup(realpath(dir, abs) ? abs : dir);
	if (!bb || !bb->dir) {
		free(bb);
		error(ERR_NOMEM);
		return NULL;
	}
	bb->keep = keep;
	bb->keep_bytes = keep_bytes;
	bb->trig = trig;
	if (pidfile && *pidfile) {
		if (write_pidfile(pidfile, bb->dir) < 0)
			warning("cannot write the pid file %s: %m ('iorec --snapshot' will not find this recorder; send SIGUSR1 instead)",
				pidfile);
		else
			bb->pidfile = strdup(pidfile);	/* NULL: not removed */
	}
	return bb;
}

const char *bb_dir(const struct blackbox *bb)
{
	return bb->dir;
}

/* Is the file name one of our snapshots: iorec-*.iorec, not hidden? */
static bool is_snapshot(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "iorec-", 6) && n > 12 &&
	       !strcmp(name + n - 6, ".iorec");
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Remove the oldest snapshots (names sort by time) while there are more
 * than keep, or they hold more than keep_bytes; the newest always stays.
 */
static void prune(struct blackbox *bb)
{
	DIR *d = opendir_raw(bb->dir);
	struct dirent *de;
	char **names = NULL, path[4400];
	uint64_t *sizes = NULL, total = 0;
	size_t n = 0, cap = 0, i;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (!is_snapshot(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", bb->dir, de->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			size_t c = cap ? 2 * cap : 32;
			char **nv = realloc(names, c * sizeof(*nv));
			uint64_t *sv;

			if (nv)
				names = nv;
			sv = nv ? realloc(sizes, c * sizeof(*sv)) : NULL;
			if (!sv)
				break;	/* out of memory: keep them all */
			sizes = sv;
			cap = c;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			break;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", bb->dir, names[i]);
		sizes[i] = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
		total += sizes[i];
	}
	for (i = 0; i + 1 < n; i++) {
		if (!((bb->keep && n - i > bb->keep) ||
		      (bb->keep_bytes && total > bb->keep_bytes)))
			break;
		snprintf(path, sizeof(path), "%s/%s", bb->dir, names[i]);
		if (unlink(path) == 0)
			note("removed the old snapshot %s (--keep %u%s)", path,
			     bb->keep, bb->keep_bytes ? ", --keep-size" : "");
		total -= sizes[i];
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(sizes);
}

int meta_copy(int meta_fd, uint64_t meta_len, const char *header_extra,
	      struct iorec_writer *w)
{
	char path[64];
	struct iorec_reader *rd;
	struct iorec_chunk c;
	int fd, err = 0, ret = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", meta_fd);
	fd = open_raw(path, O_RDONLY, 0);	/* an offset of its own */
	if (fd < 0)
		return -IOREC_E_IO;
	rd = iorec_reader_open_fd(fd, &err);
	if (!rd) {
		close(fd);
		return err;
	}
	while (!ret && iorec_reader_next(rd, &c, true) > 0 &&
	       c.offset < meta_len) {
		if (c.type == IOREC_CHUNK_HEADER) {
			struct iorec_header h;
			struct sbuf sb = SBUF_INIT;
			uint8_t *buf;
			size_t len;

			ret = iorec_header_parse(c.payload, c.payload_len, &h);
			if (ret < 0)
				break;
			sbuf_add(&sb, h.text, h.text_len);
			sbuf_addstr(&sb, header_extra);
			h.text = sb.buf;
			h.text_len = sb.len;
			ret = sb.failed ? -IOREC_E_NOMEM :
			      iorec_header_encode(&h, &buf, &len);
			sbuf_release(&sb);
			if (!ret) {
				ret = iorec_writer_add(w, c.type, NULL, 0, buf,
						       len, false);
				free(buf);
			}
			continue;
		}
		ret = iorec_writer_add(w, c.type, NULL, 0, c.payload,
				       c.payload_len,
				       (c.flags & IOREC_CF_ZSTD) != 0);
	}
	iorec_reader_close(rd);
	close(fd);
	return ret;
}

/* The trailer a stopping recording writes, with the snapshot's now. */
static int write_tail(struct bb_snap *s, struct iorec_writer *w)
{
	int ret = snapshot_write_end(w, &s->self);

	if (!ret)
		ret = iorec_writer_add(w, IOREC_CHUNK_STATS, NULL, 0, s->stats,
				       s->stats_len, true);
	if (!ret)
		ret = iorec_writer_add(w, IOREC_CHUNK_END, NULL, 0, s->end_text,
				       strlen(s->end_text), false);
	return ret;
}

/* The file name: iorec-20261205T074512.123Z-TAG.iorec (UTC). */
static void snap_name(const struct bb_snap *s, char *buf, size_t n)
{
	uint64_t rt = now_real_ns();
	time_t sec = (time_t)(rt / 1000000000);
	struct tm tm;
	char stamp[32];

	gmtime_r(&sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	snprintf(buf, n, "iorec-%s.%03uZ-%s.iorec", stamp,
		 (unsigned int)(rt / 1000000 % 1000), s->tag);
}

static int snap_write(struct blackbox *bb, struct bb_snap *s, char *final,
		      size_t fsize, uint64_t *bytes)
{
	char tmp[4400], name[128];
	struct iorec_writer *w;
	size_t i;
	int fd, ret = 0, e = 0;

	snap_name(s, name, sizeof(name));
	snprintf(final, fsize, "%s/%s", bb->dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", bb->dir, name);
	fd = open_raw(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		error("cannot create %s: %m", tmp);
		return -1;
	}
	w = iorec_writer_new(fd, s->level, 0);
	if (!w)
		ret = -IOREC_E_NOMEM;
	if (!ret)
		ret = meta_copy(s->meta_fd, s->meta_len, s->header_extra, w);
	for (i = 0; !ret && i < s->nfc; i++)
		ret = iorec_writer_add_compressed(w, IOREC_CHUNK_DATA,
						  s->fc[i].desc,
						  sizeof(s->fc[i].desc),
						  s->fc[i].z, s->fc[i].zlen,
						  s->fc[i].raw_len);
	if (!ret)
		ret = write_tail(s, w);
	if (!ret)
		ret = iorec_writer_flush(w);
	if (w && iorec_writer_errno(w))
		e = iorec_writer_errno(w);
	if (!ret && fsync(fd) < 0) {
		e = errno;
		ret = -IOREC_E_IO;
	}
	*bytes = w ? iorec_writer_written(w) : 0;
	iorec_writer_free(w);
	if (close(fd) < 0 && !ret) {
		e = errno;
		ret = -IOREC_E_IO;
	}
	if (!ret && rename(tmp, final) < 0) {
		e = errno;
		ret = -IOREC_E_IO;
	}
	if (ret) {
		unlink(tmp);
		error("cannot write the snapshot %s: %s (free space in %s, or lower --keep-size)",
		      final, e ? strerror(e) : iorec_strerror(ret), bb->dir);
		return -1;
	}
	/* the oldest go as the new one appears (iorec --snapshot returns
	   then), and the one fsync of the directory keeps both */
	prune(bb);
	fd = open_raw(bb->dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd >= 0) {
		fsync(fd);	/* the rename itself survives a power cut */
		close(fd);
	}
	return 0;
}

static void *snap_main(void *arg)
{
	struct blackbox *bb = arg;
	struct bb_snap *s = bb->job;
	char final[4400];
	uint64_t bytes = 0, t0 = now_mono_ns();

	if (bb->trig)
		trig_set_writer_tid(bb->trig, (int)syscall(SYS_gettid));
	if (snap_write(bb, s, final, sizeof(final), &bytes) == 0) {
		note("snapshot %s: %.1f MiB, %s (written in %.1f s)", final,
		     (double)bytes / (1024.0 * 1024.0), s->log,
		     (double)(now_mono_ns() - t0) / 1e9);
		__atomic_fetch_add(&bb->written, 1, __ATOMIC_RELAXED);
	}
	bb->job = NULL;
	bb_snap_free(s);
	__atomic_store_n(&bb->done_mono, now_mono_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&bb->busy, 0, __ATOMIC_RELEASE);
	return NULL;
}

static void bb_join(struct blackbox *bb)
{
	if (bb->joinable) {
		pthread_join(bb->thread, NULL);
		bb->joinable = false;
	}
}

bool bb_busy(const struct blackbox *bb)
{
	return __atomic_load_n(&bb->busy, __ATOMIC_ACQUIRE);
}

uint64_t bb_done_mono(const struct blackbox *bb)
{
	return __atomic_load_n(&bb->done_mono, __ATOMIC_RELAXED);
}

int bb_submit(struct blackbox *bb, struct bb_snap *s, bool wait)
{
	if (bb_busy(bb)) {
		bb_snap_free(s);
		return -1;
	}
	bb_join(bb);
	bb->job = s;
	__atomic_store_n(&bb->busy, 1, __ATOMIC_RELEASE);
	if (wait) {
		snap_main(bb);
		return 0;
	}
	if (pthread_create(&bb->thread, NULL, snap_main, bb)) {
		warning("cannot start the snapshot writer thread: %m; writing it from the main loop");
		snap_main(bb);
		return 0;
	}
	bb->joinable = true;
	return 0;
}

void bb_close(struct blackbox *bb)
{
	if (!bb)
		return;
	bb_join(bb);
	if (bb->pidfile)
		unlink(bb->pidfile);
	free(bb->pidfile);
	free(bb->dir);
	free(bb);
}

/* ------------------------------------------------------------------ */
/* iorec --snapshot */

static size_t count_snapshots(const char *dir, char *newest, size_t n)
{
	DIR *d = opendir_raw(dir);
	struct dirent *de;
	size_t count = 0;

	if (newest)
		*newest = '\0';
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!is_snapshot(de->d_name))
			continue;
		count++;
		/* the ones SIGUSR1 asked for, not a trigger's meanwhile */
		if (newest && strstr(de->d_name, "-request.iorec") &&
		    strcmp(de->d_name, newest) > 0)
			snprintf(newest, n, "%s", de->d_name);
	}
	closedir(d);
	return count;
}

int bb_request(const char *pidfile, uint64_t timeout_ns)
{
	char text[4200], comm[64], path[64], before[256], after[256];
	FILE *f = fopen_raw(pidfile);
	uint64_t until;
	char *dir;
	long pid;
	size_t n;

	if (!f)
		return error("no running black box: cannot read %s: %m (start one with iorec --snapshot-dir DIR, or give its --pid-file)",
			     pidfile);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	dir = strchr(text, '\n');
	if (!dir || parse_long((*dir = '\0', text), 1, INT_MAX, &pid))
		return error("%s is not an iorec pid file (want a pid and a directory)",
			     pidfile);
	dir++;
	dir[strcspn(dir, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen_raw(path);
	if (!f || !fgets(comm, sizeof(comm), f) ||
	    strncmp(comm, "iorec", 5)) {
		if (f)
			fclose(f);
		return error("the black box of %s (pid %ld) is not running (a stale pid file: start it again)",
			     pidfile, pid);
	}
	fclose(f);
	count_snapshots(dir, before, sizeof(before));
	if (kill((pid_t)pid, SIGUSR1) < 0)
		return error("cannot signal pid %ld: %m (run as root)", pid);
	until = now_mono_ns() + timeout_ns;
	while (now_mono_ns() < until) {
		count_snapshots(dir, after, sizeof(after));
		if (*after && strcmp(after, before) > 0) {
			printf("%s/%s\n", dir, after);
			return 0;
		}
		usleep(50000);
	}
	return error("pid %ld did not write a snapshot in %s within %.0f s (see its log)",
		     pid, dir, (double)timeout_ns / 1e9);
}
