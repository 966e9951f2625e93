// SPDX-License-Identifier: MIT
/*
 * abi.c - syscall ABIs: the numbers of the file syscalls iorec records in
 * each ABI (x86_64, i386, aarch64, arm EABI, riscv64), which ABI the
 * running kernel speaks natively and which compat ABI its 32-bit programs
 * use, whatever ABI iorec itself was built for.
 *
 * The numbers are data (the kernel's syscall tables: arch/x86/entry/
 * syscalls/syscall_{64,32}.tbl, arch/arm/tools/syscall.tbl and the generic
 * include/uapi/asm-generic/unistd.h), never the build host's
 * <sys/syscall.h>: an armhf iorec on an arm64 kernel must number
 * aarch64 programs' calls too.  tests/test-systab.sh checks them against
 * the kernel headers of each architecture.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "record.h"

#define REC_ABI(name, word) word,
static const char *const abi_names[ABI_NR] = { REC_ABI_LIST };
#undef REC_ABI

const char *abi_name(enum rec_abi abi)
{
	return abi >= 0 && abi < ABI_NR ? abi_names[abi] : "unknown";
}

#define C_OPEN	"fds opened during the recording are not named or followed"
#define C_CLOSE	"closed fds stay in the fd table (wrong file attribution)"
#define C_READ	"no latency or bytes of these reads"
#define C_WRITE	"no latency or bytes of these writes"
#define C_SYNC	"no cost of this flush"
#define C_DUP	"fd copies are not followed (I/O on them is unnamed)"
#define C_NAME	"renames and unlinks are not shown"
#define C_AIO	"libaio requests have no latency, bytes or file"
#define C_MAP	"pages written through shared mappings are on no file"
#define C_CLOEXEC "close-on-exec set or cleared by ioctl is not followed (fds lost or kept at exec)"
#define C_SIZE	"truncates and preallocations are not shown"
#define C_COPY	"in-kernel copies are not counted"
#define C_URING	"io_uring submissions are not seen (their block I/O still is)"

/*
 * The syscalls of interest.  name is the kernel's name, the one of
 * syscalls:sys_enter_NAME; -1 where an ABI has no such call.  Columns:
 * x86_64, i386, aarch64 (generic), arm EABI, riscv64 (generic).
 */
#define NO -1
const struct systab_row systab[] = {
	/* name              x86_64 i386 aarch64 arm riscv64 */
	{ "open",            {   2,    5,  NO,    5,  NO }, false, C_OPEN },
	{ "openat",          { 257,  295,  56,  322,  56 }, false, C_OPEN },
	{ "openat2",         { 437,  437, 437,  437, 437 }, true,  C_OPEN },
	{ "creat",           {  85,    8,  NO,    8,  NO }, false, C_OPEN },
	{ "close",           {   3,    6,  57,    6,  57 }, false, C_CLOSE },
	{ "close_range",     { 436,  436, 436,  436, 436 }, true,  C_CLOSE },
	{ "read",            {   0,    3,  63,    3,  63 }, false, C_READ },
	{ "write",           {   1,    4,  64,    4,  64 }, false, C_WRITE },
	{ "pread64",         {  17,  180,  67,  180,  67 }, false, C_READ },
	{ "pwrite64",        {  18,  181,  68,  181,  68 }, false, C_WRITE },
	{ "readv",           {  19,  145,  65,  145,  65 }, false, C_READ },
	{ "writev",          {  20,  146,  66,  146,  66 }, false, C_WRITE },
	{ "preadv",          { 295,  333,  69,  361,  69 }, false, C_READ },
	{ "pwritev",         { 296,  334,  70,  362,  70 }, false, C_WRITE },
	{ "preadv2",         { 327,  378, 286,  392, 286 }, true,  C_READ },
	{ "pwritev2",        { 328,  379, 287,  393, 287 }, true,  C_WRITE },
	{ "fsync",           {  74,  118,  82,  118,  82 }, false, C_SYNC },
	{ "fdatasync",       {  75,  148,  83,  148,  83 }, false, C_SYNC },
	{ "sync_file_range", { 277,  314,  84,   NO,  84 }, false, C_SYNC },
	{ "sync_file_range2",{  NO,   NO,  NO,  341,  NO }, false, C_SYNC },
	{ "sync",            { 162,   36,  81,   36,  81 }, false, C_SYNC },
	{ "syncfs",          { 306,  344, 267,  373, 267 }, false, C_SYNC },
	{ "msync",           {  26,  144, 227,  144, 227 }, false, C_SYNC },
	{ "mmap",            {   9,   NO, 222,   NO, 222 }, false, C_MAP },
	{ "mmap_pgoff",      {  NO,  192,  NO,  192,  NO }, false, C_MAP },
	{ "munmap",          {  11,   91, 215,   91, 215 }, false, C_MAP },
	{ "mremap",          {  25,  163, 216,  163, 216 }, false, C_MAP },
	{ "dup",             {  32,   41,  23,   41,  23 }, false, C_DUP },
	{ "dup2",            {  33,   63,  NO,   63,  NO }, false, C_DUP },
	{ "dup3",            { 292,  330,  24,  358,  24 }, false, C_DUP },
	{ "fcntl",           {  72,   55,  25,   55,  25 }, false, C_DUP },
	{ "fcntl64",         {  NO,  221,  NO,  221,  NO }, false, C_DUP },
	{ "rename",          {  82,   38,  NO,   38,  NO }, false, C_NAME },
	{ "renameat",        { 264,  302,  38,  329,  NO }, false, C_NAME },
	{ "renameat2",       { 316,  353, 276,  382, 276 }, false, C_NAME },
	{ "unlink",          {  87,   10,  NO,   10,  NO }, false, C_NAME },
	{ "unlinkat",        { 263,  301,  35,  328,  35 }, false, C_NAME },
	{ "link",            {  86,    9,  NO,    9,  NO }, false, C_NAME },
	{ "linkat",          { 265,  303,  37,  330,  37 }, false, C_NAME },
	{ "ftruncate",       {  77,   93,  46,   93,  46 }, false, C_SIZE },
	{ "ftruncate64",     {  NO,  194,  NO,  194,  NO }, false, C_SIZE },
	{ "fallocate",       { 285,  324,  47,  352,  47 }, false, C_SIZE },
	/* the 64-bit-offset sendfile: the kernel names it sendfile64 */
	{ "sendfile64",      {  40,  239,  71,  239,  71 }, false, C_COPY },
	{ "sendfile",        {  NO,  187,  NO,  187,  NO }, false, C_COPY },
	{ "copy_file_range", { 326,  377, 285,  391, 285 }, true,  C_COPY },
	{ "splice",          { 275,  313,  76,  340,  76 }, false, C_COPY },
	{ "tee",             { 276,  315,  77,  342,  77 }, false, C_COPY },
	{ "vmsplice",        { 278,  316,  75,  343,  75 }, false, C_COPY },
	{ "io_uring_enter",  { 426,  426, 426,  426, 426 }, true,  C_URING },
	{ "io_submit",       { 209,  248,   2,  246,   2 }, false, C_AIO },
	{ "io_getevents",    { 208,  247,   4,  245,   4 }, false, C_AIO },
	{ "io_pgetevents",   { 333,  385, 292,  399, 292 }, true,  C_AIO },
	{ "io_cancel",       { 210,  249,   3,  247,   3 }, false, C_AIO },
	{ "io_destroy",      { 207,  246,   1,  244,   1 }, false, C_AIO },
	/* recorded for FIOCLEX/FIONCLEX: the enter is filtered on cmd */
	{ "ioctl",           {  16,   54,  29,   54,  29 }, false, C_CLOEXEC },
};
const size_t systab_len = ARRAY_SIZE(systab);

/* Column of an ABI in systab[].nr, or -1. */
static int abi_column(enum rec_abi abi)
{
	switch (abi) {
	case ABI_X86_64:	return 0;
	case ABI_I386:		return 1;
	case ABI_AARCH64:	return 2;
	case ABI_ARM:		return 3;
	case ABI_RISCV64:	return 4;
	default:		return -1;
	}
}

bool abi_has_table(enum rec_abi abi)
{
	return abi_column(abi) >= 0;
}

long systab_nr(const struct systab_row *row, enum rec_abi abi)
{
	int col = abi_column(abi);

	return col < 0 ? -1 : row->nr[col];
}

/*
 * Native syscalls whose numbers are those of a compat syscall of interest
 * (x86_64's 5, fstat, is i386's open): the marker events that let the
 * analyzer tell a native task's raw_syscalls event from a compat task's
 * (see abi_markers()).  The kernel's event names (newfstat) are tried in
 * order; a number without any is reported as unshadowed.
 */
static const struct marker_def x86_64_markers[] = {
	{ 4, { "newstat", "stat" } }, { 5, { "newfstat", "fstat" } },
	{ 6, { "newlstat", "lstat" } }, { 8, { "lseek" } },
	{ 10, { "mprotect" } }, { 36, { "getitimer" } },
	{ 38, { "setitimer" } }, { 41, { "socket" } },
	{ 54, { "setsockopt" } },
	{ 55, { "getsockopt" } }, { 63, { "newuname", "uname" } },
	{ 91, { "fchmod" } },
	{ 93, { "fchown" } }, { 118, { "getresuid" } },
	{ 144, { "sched_setscheduler" } }, { 145, { "sched_getscheduler" } },
	{ 146, { "sched_get_priority_max" } },
	{ 148, { "sched_rr_get_interval" } }, { 163, { "acct" } },
	{ 180, { NULL } },			/* nfsservctl: not implemented */
	{ 181, { NULL } },			/* getpmsg: not implemented */
	{ 187, { "readahead" } }, { 192, { "lgetxattr" } },
	{ 194, { "listxattr" } },
	{ 221, { "fadvise64" } }, { 239, { "get_mempolicy" } },
	{ 246, { "kexec_load" } }, { 247, { "waitid" } },
	{ 248, { "add_key" } }, { 249, { "request_key" } },
	{ 301, { "fanotify_mark" } }, { 302, { "prlimit64" } },
	{ 303, { "name_to_handle_at" } }, { 313, { "finit_module" } },
	{ 314, { "sched_setattr" } }, { 315, { "sched_getattr" } },
	{ 324, { "membarrier" } },
	{ 330, { "pkey_alloc" } }, { 333, { "io_pgetevents" } },
	{ 334, { "rseq" } },
};

static const struct marker_def aarch64_markers[] = {
	{ 3, { "io_cancel" } }, { 4, { "io_getevents" } },
	{ 5, { "setxattr" } }, { 6, { "lsetxattr" } },
	{ 8, { "getxattr" } }, { 9, { "lgetxattr" } },
	{ 10, { "fgetxattr" } },
	{ 36, { "symlinkat" } }, { 41, { "pivot_root" } },
	{ 54, { "fchownat" } },
	{ 55, { "fchown" } }, { 91, { "capset" } }, { 93, { "exit" } },
	{ 118, { "sched_setparam" } }, { 144, { "setgid" } },
	{ 145, { "setreuid" } }, { 146, { "setuid" } },
	{ 148, { "getresuid" } }, { 163, { "getrlimit" } },
	{ 180, { "mq_open" } },
	{ 181, { "mq_unlink" } }, { 187, { "msgctl", "old_msgctl" } },
	{ 192, { "semtimedop" } },
	{ 194, { "shmget" } }, { 221, { "execve" } },
	{ 239, { "move_pages" } },
};

const struct marker_def *abi_markers(enum rec_abi native, size_t *n)
{
	switch (native) {
	case ABI_X86_64:
		*n = ARRAY_SIZE(x86_64_markers);
		return x86_64_markers;
	case ABI_AARCH64:
		*n = ARRAY_SIZE(aarch64_markers);
		return aarch64_markers;
	default:
		*n = 0;
		return NULL;
	}
}

enum rec_abi abi_self(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return ABI_X32;
#elif defined(__x86_64__)
	return ABI_X86_64;
#elif defined(__i386__)
	return ABI_I386;
#elif defined(__aarch64__)
	return ABI_AARCH64;
#elif defined(__arm__)
	return ABI_ARM;
#elif defined(__riscv) && __riscv_xlen == 64
	return ABI_RISCV64;
#else
	return ABI_UNKNOWN;
#endif
}

enum rec_abi abi_kernel(int kernel_long_size)
{
	struct utsname u;
	const char *m;
	enum rec_abi abi = ABI_UNKNOWN;

	if (uname(&u) < 0)
		return abi_self();
	m = u.machine;
	/*
	 * A 32-bit program on a 64-bit kernel may be told a 32-bit machine
	 * (armv8l on arm64, i686 under setarch): the kernel's long size,
	 * from its own header_page, decides.
	 */
	if (!strcmp(m, "x86_64"))
		abi = ABI_X86_64;
	else if (m[0] == 'i' && m[1] && !strcmp(m + 2, "86"))
		abi = ABI_I386;
	else if (!strcmp(m, "aarch64") || !strcmp(m, "arm64") ||
		 !strcmp(m, "aarch64_be"))
		abi = ABI_AARCH64;
	else if (!strncmp(m, "arm", 3))
		abi = ABI_ARM;
	else if (!strcmp(m, "riscv64"))
		abi = ABI_RISCV64;
	if (kernel_long_size == 8 && abi == ABI_I386)
		abi = ABI_X86_64;
	if (kernel_long_size == 8 && abi == ABI_ARM)
		abi = ABI_AARCH64;
	if (kernel_long_size == 4 && abi == ABI_AARCH64)
		abi = ABI_ARM;
	return abi;
}

/* Does /proc/kallsyms name one of @syms?  -1 when it cannot be read. */
static int kallsyms_has(const char *const *syms, size_t n)
{
	FILE *f = fopen_raw("/proc/kallsyms");
	char line[512];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, ' ');
		size_t i;

		if (!name)
			continue;
		name++;
		name[strcspn(name, "\t\n")] = '\0';
		for (i = 0; i < n; i++)
			if (!strcmp(name, syms[i]))
				found = 1;
	}
	fclose(f);
	return found;
}

enum rec_abi abi_compat(enum rec_abi native, const char **why)
{
	static const char *const ia32[] = {
		"ia32_sys_call_table", "ia32_sys_call", "__ia32_sys_read",
	};
	static const char *const a32[] = {
		"compat_sys_call_table", "__arm64_compat_sys_sigreturn",
		"compat_arm_syscall",
	};
	enum rec_abi compat;
	int has;

	*why = NULL;
	switch (native) {
	case ABI_X86_64:
		compat = ABI_I386;
		has = kallsyms_has(ia32, ARRAY_SIZE(ia32));
		break;
	case ABI_AARCH64:
		compat = ABI_ARM;
		has = kallsyms_has(a32, ARRAY_SIZE(a32));
		break;
	default:
		*why = "no 32-bit compat ABI on this architecture";
		return ABI_UNKNOWN;
	}
	/* iorec itself is a 32-bit program on this kernel: there is one */
	if (abi_self() == compat)
		return compat;
	if (has == 0) {
		*why = native == ABI_X86_64 ?
		       "kernel without CONFIG_IA32_EMULATION" :
		       "kernel without CONFIG_COMPAT";
		return ABI_UNKNOWN;
	}
	if (native == ABI_X86_64) {
		char cmd[4096];
		FILE *f = fopen_raw("/proc/cmdline");

		if (f && fgets(cmd, sizeof(cmd), f) &&
		    (strstr(cmd, "ia32_emulation=0") ||
		     strstr(cmd, "ia32_emulation=false") ||
		     strstr(cmd, "ia32_emulation=off"))) {
			fclose(f);
			*why = "IA32 emulation disabled on the kernel command line";
			return ABI_UNKNOWN;
		}
		if (f)
			fclose(f);
	}
	if (has < 0)
		*why = "assumed: /proc/kallsyms is not readable";
	return compat;
}
