/* SPDX-License-Identifier: MIT */
/*
 * fdtable.h - the files a recording touched (struct file, one table for
 * the whole recording) and the per-process fd tables that map a process's
 * fd numbers to them, replayed from open/close/dup/fork/exec.
 *
 * A file is known by dev:ino (from snapshot fd lines), by path (from the
 * syscall events when they carry one, or a late hook), or not at all: an
 * fd opened during the recording on a kernel whose syscall events carry
 * only user pointers is a file without a name until someone names it
 * (file_set_name()).  Nothing here prints.
 *
 * Memory: a file that cannot be made is the table's one spare file
 * (never NULL: the replay goes on) and filetab_error() says so; an fd
 * table that cannot be made is NULL, which every fdtable_* function
 * takes as an empty table.
 */
#ifndef IOREPORT_FDTABLE_H
#define IOREPORT_FDTABLE_H

#include <stdbool.h>
#include <stdint.h>

struct file {
	int id;			/* creation order, unique */
	char *path;		/* NULL while unknown */
	bool has_devino;
	unsigned int major, minor;
	uint64_t ino;
	int pid;		/* for an unnamed file: opener and fd, */
	int fd;			/* to label it "<unknown fd N of pid P>" */
	uint64_t open_ts;	/* enter ts of its open, 0 if before recording */
	char *names;		/* its other names, "written as a.tmp,
				   linked as b", or NULL */
	bool unlinked;		/* its (last) name was unlinked */
	char *host_path;	/* path as the host sees it, when the
				   process that named it was in another
				   mount namespace; else NULL */
	signed char path_class;	/* what a user worked out from path, kept
				   for it: 0 after every change of path */
	void *user;		/* the aggregator's data (struct filestat) */
	void *tie;		/* the attribution's inode that events of
				   calls on this file showed, or NULL */
	uint64_t tie_ts;	/* when events first showed that inode */
};

struct filetab_stats {
	uint64_t files;
	uint64_t unnamed;	/* files created without a name */
	uint64_t named_late;	/* of which named afterwards */
	uint64_t named_inode;	/* of which by an inode hint */
	uint64_t inode_hints;	/* inode hints of the end snapshot */
};

struct filetab;

/*
 * file_set_host_path - the path of f as the host sees it (f was named
 * in another mount namespace), also listed in its other names as "host
 * path HOST"; once, and not when it is f's path.
 */
void file_set_host_path(struct filetab *ft, struct file *f, const char *host);

/* A new table, or NULL: no memory. */
struct filetab *filetab_new(void);
/* 0, or -AN_E_NOMEM once something could not be kept for memory. */
int filetab_error(const struct filetab *ft);
/* Free every file; free_user (may be NULL) frees file.user.  Accepts NULL. */
void filetab_free(struct filetab *ft, void (*free_user)(void *));

/* Find or create the file dev:ino (path, may be NULL, names it if unnamed). */
struct file *filetab_devino(struct filetab *ft, unsigned int major,
			    unsigned int minor, uint64_t ino, const char *path);
/* The file dev:ino, or NULL (nothing is created). */
struct file *filetab_find_devino(struct filetab *ft, unsigned int major,
				 unsigned int minor, uint64_t ino);
/*
 * Tie f to dev:ino learnt from an event (bio-owner.c: an inode dirtied or
 * synced inside a syscall on f's fd).  A file that has one keeps it.
 */
void filetab_set_devino(struct filetab *ft, struct file *f,
			unsigned int major, unsigned int minor, uint64_t ino);
/* Find or create the file known only by path. */
struct file *filetab_path(struct filetab *ft, const char *path);
/* A new file without a name, opened by pid as fd at ts. */
struct file *filetab_anon(struct filetab *ft, int pid, int fd, uint64_t ts);
/*
 * Name an unnamed file (late: end snapshot, uprobe).  A file that
 * already has a name keeps it.  dev:ino may be given (has_devino).
 */
void file_set_name(struct filetab *ft, struct file *f, const char *path,
		   bool has_devino, unsigned int major, unsigned int minor,
		   uint64_t ino);
/* The file known by path, or NULL (nothing is created). */
struct file *filetab_find_path(struct filetab *ft, const char *path);
/*
 * Names that change: rename f to newpath (the file that had newpath, if
 * any, loses it); RENAME_EXCHANGE of a and b; unlink of f's name; a new
 * link newpath to f.  Each keeps the old name in f->names.
 */
void file_rename(struct filetab *ft, struct file *f, const char *newpath);
void file_exchange(struct filetab *ft, struct file *a, struct file *b);
void file_unlink(struct filetab *ft, struct file *f);
void file_link(struct filetab *ft, struct file *f, const char *newpath);
/* The display name: path, or "<unknown fd N of pid P>" (static buffer). */
const char *file_name(const struct file *f);
/*
 * file_devino_name - "<dev MAJ:MIN ino N>", the name of a file known only
 * by its device and inode (every view spells it so), into buf of n bytes
 * (FILE_DEVINO_LEN holds any); returns buf.
 */
#define FILE_DEVINO_LEN	48
const char *file_devino_name(uint32_t dev, uint64_t ino, char *buf, size_t n);

/*
 * Names of inodes learnt at the end of the recording through the file
 * system (the end snapshot's "inode" lines: iorec opened each inode that
 * had I/O by handle and read its path).  filetab_inode_hint() keeps one
 * (the first of a dev:ino; path "" and gone: the inode was free, its file
 * deleted and closed; born not 0: the "reused" lines, the inode number
 * was given to the file of path at trace time born, after I/O of another
 * file on it); filetab_inode_name() gives the path, or NULL, and
 * *unlinked when the file had lost that name or is gone (NULL for a
 * reused inode: which file its I/O was is known only by a file's time).
 */
void filetab_inode_hint(struct filetab *ft, unsigned int major,
			unsigned int minor, uint64_t ino, const char *path,
			bool unlinked, bool gone, uint64_t born);
const char *filetab_inode_name(const struct filetab *ft, unsigned int major,
			       unsigned int minor, uint64_t ino,
			       bool *unlinked);
/*
 * file_name_by_inode - name f (without a path) from the inode hint of
 * dev:ino, f keeping no dev:ino of its own unless it had it; true when
 * named (counted in filetab_stats' named_inode).  An inode that was gone
 * leaves f unnamed, unlinked and known by dev:ino; a reused one, when f
 * was tied to it (f->tie_ts) before the new file was, unnamed and
 * unlinked (f was the file deleted before its number was given again;
 * dev:ino is the new file's identity, not f's).  born is when the
 * recording saw the number given (ext4_allocate_inode), else 0; then a
 * reused line's birth (statx, the kernel's coarse clock, a tick behind)
 * counts, or holder, when the inode's last file was tied to it, if later.
 */
bool file_name_by_inode(struct filetab *ft, struct file *f,
			unsigned int major, unsigned int minor, uint64_t ino,
			uint64_t born, uint64_t holder);

size_t filetab_count(const struct filetab *ft);
struct file *filetab_at(const struct filetab *ft, size_t i);
const struct filetab_stats *filetab_stats(const struct filetab *ft);

/* ------------------------------------------------------------------ */
/* Per-process fd tables */

struct fdtable_stats {
	uint64_t opens;
	uint64_t closes;
	uint64_t close_unknown;		/* close of an fd we did not know */
	uint64_t dup_unknown;		/* dup of an fd we did not know */
	uint64_t io_unknown;		/* I/O on an fd we did not know */
	uint64_t exec_closed;		/* close-on-exec fds closed at exec */
	uint64_t names_followed;	/* renames, unlinks, links applied */
	uint64_t names_unknown;		/* of a name no file of the
					   recording has */
	uint64_t names_unnamed;		/* whose names were not recorded */
};

struct fdtable;

/*
 * file_set_host_path - the path of f as the host sees it (f was named
 * in another mount namespace), also listed in its other names as "host
 * path HOST"; once, and not when it is f's path.
 */
void file_set_host_path(struct filetab *ft, struct file *f, const char *host);

/* A new table, or NULL: no memory. */
struct fdtable *fdtable_new(void);
/* A copy for a forked child: same files, same flags; NULL: no memory. */
struct fdtable *fdtable_copy(const struct fdtable *t);
void fdtable_free(struct fdtable *t);

/* Install f as fd (replacing what was there); 0, or -AN_E_NOMEM. */
int fdtable_set(struct fdtable *t, int fd, struct file *f, bool cloexec);
/* The file of fd, or NULL. */
struct file *fdtable_get(const struct fdtable *t, int fd);
/* Close fd: returns 0, or -1 if it was not open. */
int fdtable_close(struct fdtable *t, int fd);
/* close_range(lo, hi): close them, or with cloexec_only mark them. */
void fdtable_close_range(struct fdtable *t, unsigned int lo, unsigned int hi,
			 bool cloexec_only);
/* newfd = dup(oldfd): 0, -1 if oldfd was not open, or -AN_E_NOMEM. */
int fdtable_dup(struct fdtable *t, int oldfd, int newfd, bool cloexec);
void fdtable_set_cloexec(struct fdtable *t, int fd, bool cloexec);
/* exec: close the close-on-exec fds; returns how many. */
int fdtable_exec(struct fdtable *t);
/* Iterate the open fds: *pos = 0 first; false at the end. */
bool fdtable_next(const struct fdtable *t, size_t *pos, int *fd,
		  struct file **f);
size_t fdtable_size(const struct fdtable *t);

/*
 * The process's shared mappings of files (mmap MAP_SHARED), kept with its
 * fd table: copied at fork, dropped at exec.  A mapping replaces what
 * it overlaps; 0, or -AN_E_NOMEM.
 */
int fdtable_map(struct fdtable *t, uint64_t start, uint64_t len,
		struct file *f);
void fdtable_unmap(struct fdtable *t, uint64_t start, uint64_t len);
/* The file mapped at addr, or NULL. */
struct file *fdtable_map_file(const struct fdtable *t, uint64_t addr);
/*
 * The file of the shared mappings that can be inode ino of file system
 * dev (0: unknown): the mapped file known as dev:ino; else the one mapped
 * file whose inode is unknown, when every other mapped file is known as
 * another inode; else NULL.
 */
struct file *fdtable_map_of_inode(const struct fdtable *t, uint32_t dev,
				  uint64_t ino);

#endif /* IOREPORT_FDTABLE_H */
