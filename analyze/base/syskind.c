// SPDX-License-Identifier: MIT
/*
 * syskind.c - the table of syscall kinds (see syskind.h) and the other
 * names the syscall tables of various architectures give them.
 */
#include "config.h"

#include <string.h>

#include "util.h"
#include "base/syskind.h"


#define RD	SKF_READ
#define WR	SKF_WRITE

const struct sys_kind_info sys_kinds[SK_NR] = {
	[SK_NONE]	= { "none", 0, -1, -1, -1, -1, { NULL } },
	[SK_READ]	= { "read", RD, 0, -1, -1, -1, { "fd", "buf", "count" } },
	[SK_WRITE]	= { "write", WR, -1, 0, -1, -1, { "fd", "buf", "count" } },
	[SK_PREAD64]	= { "pread64", RD, 0, -1, -1, -1, { "fd", "buf", "count", "pos" } },
	[SK_PWRITE64]	= { "pwrite64", WR, -1, 0, -1, -1, { "fd", "buf", "count", "pos" } },
	[SK_READV]	= { "readv", RD, 0, -1, -1, -1, { "fd", "vec", "vlen" } },
	[SK_WRITEV]	= { "writev", WR, -1, 0, -1, -1, { "fd", "vec", "vlen" } },
	[SK_PREADV]	= { "preadv", RD, 0, -1, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h" } },
	[SK_PWRITEV]	= { "pwritev", WR, -1, 0, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h" } },
	[SK_PREADV2]	= { "preadv2", RD, 0, -1, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h", "flags" } },
	[SK_PWRITEV2]	= { "pwritev2", WR, -1, 0, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h", "flags" } },
	[SK_FSYNC]	= { "fsync", SKF_SYNC | SKF_FSYNC, -1, 0, -1, -1, { "fd" } },
	[SK_FDATASYNC]	= { "fdatasync", SKF_SYNC | SKF_FSYNC, -1, 0, -1, -1, { "fd" } },
	[SK_SYNC_FILE_RANGE] = { "sync_file_range", SKF_SYNC, -1, 0, -1, -1, { "fd", "offset", "nbytes", "flags" } },
	[SK_SYNC]	= { "sync", SKF_SYNC, -1, -1, -1, -1, { NULL } },
	[SK_SYNCFS]	= { "syncfs", SKF_SYNC, -1, 0, -1, -1, { "fd" } },
	[SK_OPEN]	= { "open", SKF_OPEN, -1, -1, 0, 1, { "filename", "flags", "mode" } },
	[SK_OPENAT]	= { "openat", SKF_OPEN, -1, -1, 1, 2, { "dfd", "filename", "flags", "mode" } },
	[SK_OPENAT2]	= { "openat2", SKF_OPEN, -1, -1, 1, -1, { "dfd", "filename", "how", "usize" } },
	[SK_CREAT]	= { "creat", SKF_OPEN, -1, -1, 0, -1, { "pathname", "mode" } },
	[SK_CLOSE]	= { "close", SKF_CLOSE, -1, -1, -1, -1, { "fd" } },
	[SK_CLOSE_RANGE] = { "close_range", SKF_CLOSE, -1, -1, -1, -1, { "fd", "max_fd", "flags" } },
	[SK_DUP]	= { "dup", SKF_DUP, -1, -1, -1, -1, { "fildes" } },
	[SK_DUP2]	= { "dup2", SKF_DUP, -1, -1, -1, -1, { "oldfd", "newfd" } },
	[SK_DUP3]	= { "dup3", SKF_DUP, -1, -1, -1, -1, { "oldfd", "newfd", "flags" } },
	[SK_FCNTL]	= { "fcntl", SKF_DUP, -1, -1, -1, -1, { "fd", "cmd", "arg" } },
	/* path_arg: the old name (the new one comes as sys_call.path2) */
	[SK_RENAME]	= { "rename", SKF_META, -1, -1, 0, -1, { "oldname", "newname" } },
	[SK_RENAMEAT]	= { "renameat", SKF_META, -1, -1, 1, -1, { "olddfd", "oldname", "newdfd", "newname" } },
	[SK_RENAMEAT2]	= { "renameat2", SKF_META, -1, -1, 1, -1, { "olddfd", "oldname", "newdfd", "newname", "flags" } },
	[SK_UNLINK]	= { "unlink", SKF_META, -1, -1, 0, -1, { "pathname" } },
	[SK_UNLINKAT]	= { "unlinkat", SKF_META, -1, -1, 1, -1, { "dfd", "pathname", "flag" } },
	[SK_FTRUNCATE]	= { "ftruncate", SKF_META, -1, 0, -1, -1, { "fd", "length" } },
	[SK_FALLOCATE]	= { "fallocate", SKF_META, -1, 0, -1, -1, { "fd", "mode", "offset", "len" } },
	[SK_SENDFILE]	= { "sendfile64", RD | WR, 1, 0, -1, -1, { "out_fd", "in_fd", "offset", "count" } },
	[SK_COPY_FILE_RANGE] = { "copy_file_range", RD | WR, 0, 2, -1, -1, { "fd_in", "off_in", "fd_out", "off_out", "len", "flags" } },
	/* recorded for FIOCLEX/FIONCLEX only (iorec filters the enter on cmd) */
	[SK_IOCTL]	= { "ioctl", SKF_DUP | SKF_ENTER_FILTERED, -1, -1, -1, -1, { "fd", "cmd", "arg" } },
	[SK_LINK]	= { "link", SKF_META, -1, -1, 0, -1, { "oldname", "newname" } },
	[SK_LINKAT]	= { "linkat", SKF_META, -1, -1, 1, -1, { "olddfd", "oldname", "newdfd", "newname", "flags" } },
	/* shared file mappings (iorec records the enters of MAP_SHARED only) */
	[SK_MMAP]	= { "mmap", SKF_META | SKF_ENTER_FILTERED, -1, -1, -1, -1, { "addr", "len", "prot", "flags", "fd", "off" } },
	[SK_MUNMAP]	= { "munmap", SKF_META, -1, -1, -1, -1, { "addr", "len" } },
	[SK_MREMAP]	= { "mremap", SKF_META, -1, -1, -1, -1, { "addr", "old_len", "new_len", "flags", "new_addr" } },
	/* the file is the one mapped at start */
	[SK_MSYNC]	= { "msync", SKF_SYNC, -1, -1, -1, -1, { "start", "len", "flags" } },
	/* Linux AIO: the requests are SK_AIO_* (replay/aio.c) */
	[SK_IO_SUBMIT]	= { "io_submit", 0, -1, -1, -1, -1, { "ctx_id", "nr", "iocbpp" } },
	[SK_IO_GETEVENTS] = { "io_getevents", 0, -1, -1, -1, -1, { "ctx_id", "min_nr", "nr", "events", "timeout" } },
	[SK_IO_PGETEVENTS] = { "io_pgetevents", 0, -1, -1, -1, -1, { "ctx_id", "min_nr", "nr", "events", "timeout", "usig" } },
	[SK_IO_CANCEL]	= { "io_cancel", 0, -1, -1, -1, -1, { "ctx_id", "iocb", "result" } },
	[SK_IO_DESTROY]	= { "io_destroy", 0, -1, -1, -1, -1, { "ctx" } },
	[SK_AIO_READ]	= { "aio_read", RD, 0, -1, -1, -1, { NULL } },
	[SK_AIO_WRITE]	= { "aio_write", WR, -1, 0, -1, -1, { NULL } },
	[SK_AIO_FSYNC]	= { "aio_fsync", SKF_SYNC | SKF_FSYNC, -1, 0, -1, -1, { NULL } },
	[SK_SPLICE]	= { "splice", RD | WR, 0, 2, -1, -1, { "fd_in", "off_in", "fd_out", "off_out", "len", "flags" } },
	[SK_TEE]	= { "tee", RD | WR, 0, 1, -1, -1, { "fdin", "fdout", "len", "flags" } },
	[SK_VMSPLICE]	= { "vmsplice", WR, -1, 0, -1, -1, { "fd", "uiov", "nr_segs", "flags" } },
	/* io_uring requests, submit -> complete: no syscall event, args[0] the fd */
	[SK_URING_READ]	= { "uring_read", RD, 0, -1, -1, -1, { NULL } },
	[SK_URING_WRITE] = { "uring_write", WR, -1, 0, -1, -1, { NULL } },
	[SK_URING_FSYNC] = { "uring_fsync", SKF_SYNC | SKF_FSYNC, -1, 0, -1, -1, { NULL } },
	[SK_URING_SYNC]	= { "uring_sync_file_range", SKF_SYNC, -1, 0, -1, -1, { NULL } },
};

#undef RD
#undef WR

/* Other names of the same calls in the syscall tables of various arches. */
static const struct {
	const char *name;
	enum sys_kind kind;
} aliases[] = {
	{ "sendfile", SK_SENDFILE },
	{ "pread", SK_PREAD64 },
	{ "pwrite", SK_PWRITE64 },
	{ "fcntl64", SK_FCNTL },
	{ "ftruncate64", SK_FTRUNCATE },
	{ "arm_sync_file_range", SK_SYNC_FILE_RANGE },
	{ "sync_file_range2", SK_SYNC_FILE_RANGE },
	{ "mmap_pgoff", SK_MMAP },	/* mmap2 of i386 and arm: same fields but pgoff */
};

enum sys_kind sys_kind_lookup(const char *name)
{
	if (!name)
		return SK_NONE;
	for (int k = 1; k < SK_NR; k++)
		if (!strcmp(sys_kinds[k].name, name))
			return k;
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].name, name))
			return aliases[i].kind;
	return SK_NONE;
}

int sys_call_fd(const struct sys_call *c)
{
	const struct sys_kind_info *ki = sys_kind_info(c->kind);

	if ((ki->flags & SKF_OPEN) && c->ret >= 0)
		return (int)c->ret;
	if (!c->paired)
		return -1;
	if (ki->fd_out >= 0)
		return (int)c->args[ki->fd_out];
	if (ki->fd_in >= 0)
		return (int)c->args[ki->fd_in];
	switch (c->kind) {
	case SK_CLOSE:
	case SK_CLOSE_RANGE:
	case SK_DUP:
	case SK_DUP2:
	case SK_DUP3:
	case SK_FCNTL:
	case SK_IOCTL:
		return (int)c->args[0];	/* fd, fildes or oldfd */
	default:
		return -1;
	}
}
