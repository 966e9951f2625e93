// SPDX-License-Identifier: MIT
/*
 * list-chunks.c - list the chunks of a .iorec recording with libiorec: one
 * line per chunk (offset, sequence number, type, stored and decompressed
 * sizes, and for DATA chunks the CPU, page count and time range), then
 * where and why the reading stopped.
 *
 * Build it against the installed library:
 *   cc -o list-chunks list-chunks.c $(pkg-config --cflags --libs iorec)
 * Run it:
 *   ./list-chunks recording.iorec
 * It exits 0 when the file reads to its END chunk, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>

#include <iorec/format.h>

static const char *type_name(uint16_t type)
{
	static const char *const names[] = {
		[IOREC_CHUNK_HEADER] = "HEADER",
		[IOREC_CHUNK_HEADER_PAGE] = "HEADER_PAGE",
		[IOREC_CHUNK_HEADER_EVENT] = "HEADER_EVENT",
		[IOREC_CHUNK_EVENT_FORMAT] = "EVENT_FORMAT",
		[IOREC_CHUNK_SNAPSHOT] = "SNAPSHOT",
		[IOREC_CHUNK_SYSCALLS] = "SYSCALLS",
		[IOREC_CHUNK_CMDLINES] = "CMDLINES",
		[IOREC_CHUNK_DATA] = "DATA",
		[IOREC_CHUNK_STATS] = "STATS",
		[IOREC_CHUNK_END] = "END",
		[IOREC_CHUNK_PRINTK] = "PRINTK",
		[IOREC_CHUNK_NOTE] = "NOTE",
		[IOREC_CHUNK_COMPAT_SYSCALLS] = "COMPAT_SYSCALLS",
		[IOREC_CHUNK_EXEC_ABI] = "EXEC_ABI",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown";
}

int main(int argc, char **argv)
{
	struct iorec_reader *r;
	struct iorec_chunk c;
	uint16_t major, minor;
	uint64_t n = 0;
	int err, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: list-chunks FILE.iorec\n");
		return 2;
	}
	r = iorec_reader_open(argv[1], &err);
	if (!r) {
		fprintf(stderr, "list-chunks: %s: %s\n", argv[1],
			iorec_strerror(err));
		return 1;
	}
	iorec_reader_version(r, &major, &minor);
	printf("# %s: format %u.%u\n", argv[1], major, minor);
	/* Payloads are checked but not decompressed: only the sizes count. */
	while ((ret = iorec_reader_next(r, &c, false)) > 0) {
		printf("%" PRIu64 "\t%" PRIu32 "\t%s\t%" PRIu32 "\t%" PRIu32,
		       c.offset, c.seq, type_name(c.type), c.stored_len,
		       c.raw_len);
		if (c.type == IOREC_CHUNK_DATA)
			printf("\tcpu=%" PRIu32 " pages=%" PRIu32
			       " ts=%" PRIu64 "..%" PRIu64, c.data.cpu,
			       c.data.npages, c.data.first_ts, c.data.last_ts);
		putchar('\n');
		n++;
	}
	if (ret < 0)
		printf("# %" PRIu64 " chunks, stopped at offset %" PRIu64 ": %s\n",
		       n, iorec_reader_error_offset(r), iorec_strerror(ret));
	else
		printf("# %" PRIu64 " chunks, %s\n", n,
		       iorec_reader_seen_end(r) ? "complete" :
		       "cut (no END chunk)");
	ret = ret == 0 && iorec_reader_seen_end(r) ? 0 : 1;
	iorec_reader_close(r);
	return ret;
}
