// SPDX-License-Identifier: MIT
/*
 * iorec-chunks.c - print chunks of one type of a .iorec file, for the tests
 * that check what the recorder stored (header keys, syscall tables, the
 * snapshots' abi lines, exec ABI records) without going through ioreport.
 *
 * Usage: iorec-chunks FILE TYPE   (TYPE: a number, or header, snapshot,
 *        syscalls, compat_syscalls, exec_abi, note, end)
 * The header prints its key=value text; a snapshot its lines, after a
 * "# phase N" line; other chunks their (decompressed) payload.  Exits 1
 * when the file cannot be read to its end.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iorec-format.h"

static int type_of(const char *s)
{
	static const struct { const char *name; int type; } names[] = {
		{ "header", IOREC_CHUNK_HEADER },
		{ "snapshot", IOREC_CHUNK_SNAPSHOT },
		{ "syscalls", IOREC_CHUNK_SYSCALLS },
		{ "compat_syscalls", IOREC_CHUNK_COMPAT_SYSCALLS },
		{ "exec_abi", IOREC_CHUNK_EXEC_ABI },
		{ "note", IOREC_CHUNK_NOTE },
		{ "end", IOREC_CHUNK_END },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].type;
	return atoi(s);
}

int main(int argc, char **argv)
{
	struct iorec_reader *r;
	struct iorec_chunk c;
	int err = 0, ret, type;

	if (argc != 3) {
		fprintf(stderr, "usage: iorec-chunks FILE TYPE\n");
		return 2;
	}
	type = type_of(argv[2]);
	r = iorec_reader_open(argv[1], &err);
	if (!r) {
		fprintf(stderr, "iorec-chunks: %s: %s\n", argv[1],
			iorec_strerror(err));
		return 1;
	}
	while ((ret = iorec_reader_next(r, &c, true)) > 0) {
		const uint8_t *p = c.payload;
		size_t len = c.payload_len;

		if (c.type != type)
			continue;
		if (type == IOREC_CHUNK_HEADER) {
			struct iorec_header h;

			if (iorec_header_parse(p, len, &h) < 0)
				continue;
			fwrite(h.text, 1, h.text_len, stdout);
			continue;
		}
		if (type == IOREC_CHUNK_SNAPSHOT && len >= 8) {
			printf("# phase %u\n", (unsigned int)iorec_get32(p));
			p += 8;
			len -= 8;
		}
		fwrite(p, 1, len, stdout);
	}
	iorec_reader_close(r);
	if (ret < 0) {
		fprintf(stderr, "iorec-chunks: %s: %s\n", argv[1],
			iorec_strerror(ret));
		return 1;
	}
	return 0;
}
