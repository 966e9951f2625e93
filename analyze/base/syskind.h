/* SPDX-License-Identifier: MIT */
/*
 * syskind.h - the file syscalls ioreport replays: their kinds, what each
 * does (reads, writes, syncs, opens, closes, dups) and which argument is
 * its fd, path or flags, and the field names of its syscalls:sys_enter_
 * event in ABI order.  Shared by the decode table, the replay and the
 * views.
 */
#ifndef IOREPORT_BASE_SYSKIND_H
#define IOREPORT_BASE_SYSKIND_H

#include <stdbool.h>
#include <stdint.h>

enum sys_kind {
	SK_NONE = 0,
	SK_READ, SK_WRITE, SK_PREAD64, SK_PWRITE64, SK_READV, SK_WRITEV,
	SK_PREADV, SK_PWRITEV, SK_PREADV2, SK_PWRITEV2,
	SK_FSYNC, SK_FDATASYNC, SK_SYNC_FILE_RANGE, SK_SYNC, SK_SYNCFS,
	SK_OPEN, SK_OPENAT, SK_OPENAT2, SK_CREAT, SK_CLOSE, SK_CLOSE_RANGE,
	SK_DUP, SK_DUP2, SK_DUP3, SK_FCNTL,
	SK_RENAME, SK_RENAMEAT, SK_RENAMEAT2, SK_UNLINK, SK_UNLINKAT,
	SK_FTRUNCATE, SK_FALLOCATE, SK_SENDFILE, SK_COPY_FILE_RANGE,
	SK_IOCTL,
	SK_SPLICE, SK_TEE, SK_VMSPLICE, SK_LINK, SK_LINKAT,
	SK_MMAP, SK_MUNMAP, SK_MREMAP, SK_MSYNC,
	SK_IO_SUBMIT, SK_IO_GETEVENTS, SK_IO_PGETEVENTS, SK_IO_CANCEL,
	SK_IO_DESTROY,
	/* libaio requests (replay/aio.c), submit -> reaped */
	SK_AIO_READ, SK_AIO_WRITE, SK_AIO_FSYNC,
	/* io_uring requests (replay/uring.c), accounted like syscalls */
	SK_URING_READ, SK_URING_WRITE, SK_URING_FSYNC, SK_URING_SYNC,
	SK_NR
};

/* What a kind does (sys_kind_info.flags). */
#define SKF_READ	0x01	/* ret >= 0: bytes read from fd_in */
#define SKF_WRITE	0x02	/* ret >= 0: bytes written to fd_out */
#define SKF_SYNC	0x04	/* flushes data (fsync cost) */
#define SKF_FSYNC	0x08	/* fsync/fdatasync: counted as "fsync" */
#define SKF_OPEN	0x10	/* ret >= 0: a new fd */
#define SKF_CLOSE	0x20
#define SKF_DUP		0x40
#define SKF_META	0x80	/* namespace / size change */
#define SKF_ENTER_FILTERED 0x100	/* enters filtered when recorded: exits alone are normal */

#define SYS_MAX_ARGS	6

/* The argument values the replay reads (the same on x86, arm, arm64 and
 * riscv) */
#define OPEN_CLOEXEC	02000000	/* O_CLOEXEC */
#define CLOSE_RANGE_CLOEXEC_FLAG (1U << 2)
#define FCNTL_DUPFD		0
#define FCNTL_SETFD		2
#define FCNTL_DUPFD_CLOEXEC	1030
#define FD_CLOEXEC_FLAG		1
#define RENAME_EXCHANGE_FLAG	(1U << 1)
#define AT_REMOVEDIR_FLAG	0x200
#define IOCTL_FIONCLEX		0x5450
#define IOCTL_FIOCLEX		0x5451

struct sys_kind_info {
	const char *name;	/* the syscalls:sys_enter_NAME event's NAME */
	unsigned int flags;
	int fd_in;		/* arg index of the fd read from, or -1 */
	int fd_out;		/* arg index of the fd written to / synced, or -1 */
	int path_arg;		/* arg index of the path (open*, creat), or -1 */
	int flags_arg;		/* arg index of the open flags, or -1 */
	/* syscalls:sys_enter_NAME field names in ABI order (NULL-ended) */
	const char *fields[SYS_MAX_ARGS + 1];
};

extern const struct sys_kind_info sys_kinds[SK_NR];
static inline const struct sys_kind_info *sys_kind_info(enum sys_kind k)
{
	return &sys_kinds[(unsigned int)k < SK_NR ? k : SK_NONE];
}
/*
 * The kind of a syscall name as the recording names it ("pread64",
 * "sendfile", "fcntl64", ...), or SK_NONE if it is not one we replay.
 */
enum sys_kind sys_kind_lookup(const char *name);

/* The records of a syscall as the stages pass them on. */

struct sys_enter {
	uint64_t ts;
	int tid;
	int cpu;
	enum sys_kind kind;
	uint64_t args[SYS_MAX_ARGS];	/* ABI order, zero when unknown */
	const char *path;		/* path string if the event had one, or NULL */
};

struct sys_exit {
	uint64_t ts;
	int tid;
	int cpu;
	enum sys_kind kind;
	int64_t ret;
};

/* A completed call (or, with paired false, an exit whose enter is unknown). */
struct sys_call {
	enum sys_kind kind;
	int tid;
	bool paired;			/* false: args/start unknown */
	uint64_t start;			/* enter ts */
	uint64_t end;			/* exit ts */
	uint64_t args[SYS_MAX_ARGS];
	int64_t ret;
	const char *path;		/* valid until the next sysreplay call */
	const char *path2;		/* rename, link: the new name, or NULL */
};

/*
 * The fd a call acts on: the new fd of a successful open, else for a
 * paired call the fd it writes, syncs or reads, or the first argument of
 * close/dup/fcntl; -1 when none is known.
 */
int sys_call_fd(const struct sys_call *c);

#endif /* IOREPORT_BASE_SYSKIND_H */
