// SPDX-License-Identifier: MIT
/*
 * tdat-synth.c - writes a trace.dat of known events in a chosen byte
 * order and kernel long size through the formats/ writer, and prints the
 * lines 'trace-cmd report' must print for it (a test program).
 *
 * One event type, test:foo (common fields, then an int x), on 2 CPUs, 3
 * pages of 5 events each: CPU c's event i has timestamp 1 s + 2 us * i +
 * 1 us * c, pid 42 + c (cmdlines: 42 foo, 43 bar) and x = 100 * c + i.
 * CPU 0's second page says 3 events were lost before it.  The pages are
 * built byte by byte as the kernel lays them out (header_page: timestamp,
 * commit of the long size, data; event header: 5 bits type_len, 27 bits
 * time delta, in the high bits on a big-endian machine), so a reader that
 * gets the byte order or the long size wrong prints other lines.
 */
#include "config.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat.h"
#include "tracedat-int.h"
#include "tests/ftrace-text.h"

#define NPAGES 3
#define PER_PAGE 5
#define PAGE 4096

static const char fmt[] =
	"name: foo\nID: 7\nformat:\n" COMMON_FIELDS
	"\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"x=%d\", REC->x\n";

static uint64_t ts_of(int cpu, int i)
{
	return 1000000000ull + 2000ull * (uint64_t)i + 1000ull * (uint64_t)cpu;
}

static void put_long(uint8_t *p, uint64_t v, int lsize, bool be)
{
	if (lsize == 8)
		td_put64(p, v, be);
	else
		td_put32(p, (uint32_t)v, be);
}

int main(int argc, char **argv)
{
	struct tracedat_write_opts o = { .version = 7, .long_size = 8,
					 .page_size = PAGE, .ncpus = 2 };
	struct tracedat_writer *w;
	const char *out = NULL;
	char hp[512];
	int opt, fd, err;

	while ((opt = getopt(argc, argv, "V:zbl:o:")) != -1) {
		switch (opt) {
		case 'V': o.version = atoi(optarg); break;
		case 'z': o.compress = true; break;
		case 'b': o.big_endian = true; break;
		case 'l': o.long_size = (uint8_t)atoi(optarg); break;
		case 'o': out = optarg; break;
		default:
			fputs("usage: tdat-synth [-V 6|7] [-z] [-b] [-l 4|8] -o OUT\n", stderr);
			return 2;
		}
	}
	if (!out) {
		fputs("usage: tdat-synth [-V 6|7] [-z] [-b] [-l 4|8] -o OUT\n", stderr);
		return 2;
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(out);
		return 1;
	}
	w = tracedat_writer_new(fd, &o, &err);
	if (!w) {
		fprintf(stderr, "tdat-synth: %s\n", tracedat_strerror(err));
		return 1;
	}
	snprintf(hp, sizeof(hp),
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n",
		 o.long_size, 8 + o.long_size, PAGE - 8 - o.long_size);
	err = tracedat_writer_set_header_page(w, hp, strlen(hp));
	if (!err)
		err = tracedat_writer_set_header_event(w, "# compressed entry header\n", 26);
	if (!err)
		err = tracedat_writer_add_event_format(w, "test", fmt, strlen(fmt));
	if (!err)
		err = tracedat_writer_set_cmdlines(w, "42 foo\n43 bar\n", 14);
	if (!err)
		err = tracedat_writer_set_clock(w, "mono");
	for (int c = 0; c < 2 && !err; c++) {
		for (int p = 0; p < NPAGES && !err; p++) {
			uint8_t page[PAGE] = { 0 };
			uint8_t *e = page + 8 + o.long_size;
			uint64_t commit = PER_PAGE * 16;

			td_put64(page, ts_of(c, p * PER_PAGE), o.big_endian);
			for (int k = 0; k < PER_PAGE; k++, e += 16) {
				/* type_len 3: 12 bytes of data; delta from the last */
				uint32_t tl = 3, delta = k ? 2000 : 0;

				td_put32(e, o.big_endian ? tl << 27 | delta : delta << 5 | tl,
					 o.big_endian);
				td_put16(e + 4, 7, o.big_endian);
				td_put32(e + 8, 42u + (uint32_t)c, o.big_endian);
				td_put32(e + 12, (uint32_t)(100 * c + p * PER_PAGE + k),
					 o.big_endian);
			}
			if (c == 0 && p == 1) {
				put_long(e, 3, o.long_size, o.big_endian);
				commit |= TRACEDAT_MISSED_EVENTS | TRACEDAT_MISSED_STORED;
			}
			put_long(page + 8, commit, o.long_size, o.big_endian);
			err = tracedat_writer_add_page(w, (uint32_t)c, page, sizeof(page));
		}
	}
	if (!err)
		err = tracedat_writer_finish(w);
	tracedat_writer_free(w);
	if (close(fd) && !err)
		err = -TRACEDAT_E_IO;
	if (err) {
		fprintf(stderr, "tdat-synth: %s: %s\n", out, tracedat_strerror(err));
		return 1;
	}
	/* what trace-cmd report prints, spaces squeezed */
	for (int i = 0; i < NPAGES * PER_PAGE; i++)
		for (int c = 0; c < 2; c++) {
			uint64_t ts = ts_of(c, i);

			if (c == 0 && i == PER_PAGE)
				printf("CPU:0 [3 EVENTS DROPPED]\n");
			printf("%s-%d [%03d] %llu.%06llu: foo: x=%d\n", c ? "bar" : "foo",
			       42 + c, c, (unsigned long long)(ts / 1000000000ull),
			       (unsigned long long)(ts % 1000000000ull / 1000), 100 * c + i);
		}
	return 0;
}
