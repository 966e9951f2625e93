// SPDX-License-Identifier: MIT
/*
 * iorec2dat.c - converts a .iorec recording to a trace.dat with
 * iorec_to_tracedat() (formats/iorec-tracedat.h), a test program, not
 * installed.
 *
 * -H FILE writes, per CPU, the page count and a hash of the page bytes
 * given to the writer: the truth the trace.dat reader's output is
 * compared with.  -C FILE adds its "PID COMM" lines to the cmdlines.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iorec-tracedat.h"
#include "tdtool.h"

static const char usage[] =
"usage: iorec2dat [-V 6|7] [-z] [-l LEVEL] [-c PAGES] [-H HASHFILE] [-C CMDLINES] -o OUT IN.iorec\n"
"  -V VERSION   trace.dat file version (default 7)\n"
"  -z           zstd-compress (version 7)\n"
"  -l LEVEL     zstd level (default 3)\n"
"  -c PAGES     pages per zstd chunk (default 10)\n"
"  -H FILE      write \"cpu N pages P hash H\" lines of the pages written\n"
"  -C FILE      \"PID COMM\" lines to add to the recording's cmdlines\n"
"  -o OUT       the trace.dat to write ('-' for stdout)\n";

struct cpuhash {
	uint64_t pages, hash;
};

static struct cpuhash hash[TRACEDAT_MAX_CPUS];

static void on_page(void *arg, uint32_t cpu, const uint8_t *page, size_t len)
{
	if (cpu < TRACEDAT_MAX_CPUS) {
		hash[cpu].hash = td_fnv(hash[cpu].hash, page, len);
		hash[cpu].pages++;
	}
}

static int write_hashes(const char *path)
{
	FILE *f = fopen(path, "w");
	uint32_t n = 0;

	if (!f)
		return -1;
	for (uint32_t i = 0; i < TRACEDAT_MAX_CPUS; i++)
		if (hash[i].pages)
			n = i + 1;
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "cpu %u pages %llu hash %016llx\n", i,
			(unsigned long long)hash[i].pages,
			(unsigned long long)hash[i].hash);
	return fclose(f) ? -1 : 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (*len + 4096 > cap) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (!n)
			break;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct iorec_tracedat_opts o = { .version = 7, .arg = NULL };
	struct iorec_tracedat_result res;
	struct iorec_reader *r;
	const char *out = NULL, *in, *hashfile = NULL, *cmdfile = NULL;
	char *extra = NULL;
	int opt, err, fd, ret;

	while ((opt = getopt(argc, argv, "V:zl:c:H:C:o:h")) != -1) {
		switch (opt) {
		case 'V': o.version = atoi(optarg); break;
		case 'z': o.compress = true; break;
		case 'l': o.zstd_level = atoi(optarg); break;
		case 'c': o.chunk_pages = (uint32_t)atoi(optarg); break;
		case 'H': hashfile = optarg; break;
		case 'C': cmdfile = optarg; break;
		case 'o': out = optarg; break;
		default:
			fputs(usage, opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1 || !out) {
		fputs(usage, stderr);
		return 2;
	}
	in = argv[optind];
	for (uint32_t i = 0; i < TRACEDAT_MAX_CPUS; i++)
		hash[i].hash = TD_FNV_INIT;
	o.on_page = on_page;
	o.writer_version = "iorec " PACKAGE_VERSION;
	if (cmdfile && !(extra = slurp(cmdfile, &o.extra_cmdlines_len))) {
		fprintf(stderr, "iorec2dat: %s: %s\n", cmdfile, strerror(errno));
		return 1;
	}
	o.extra_cmdlines = extra;
	r = iorec_reader_open(in, &err);
	if (!r) {
		fprintf(stderr, "iorec2dat: %s: %s\n", in, iorec_strerror(err));
		free(extra);
		return 1;
	}
	fd = strcmp(out, "-") ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : 1;
	if (fd < 0) {
		fprintf(stderr, "iorec2dat: %s: %s\n", out, strerror(errno));
		iorec_reader_close(r);
		free(extra);
		return 1;
	}
	err = iorec_to_tracedat(r, fd, &o, &res);
	if (res.read_err)
		fprintf(stderr, "iorec2dat: %s: %s at offset %llu%s\n", in,
			iorec_strerror(res.read_err),
			(unsigned long long)res.read_err_offset,
			err ? "" : "; converted what came before");
	if (err)
		fprintf(stderr, "iorec2dat: %s: %s%s%s\n", out, tracedat_strerror(err),
			res.write_errno ? ": " : "",
			res.write_errno ? strerror(res.write_errno) : "");
	ret = err ? 1 : 0;
	if (!err && hashfile && write_hashes(hashfile)) {
		fprintf(stderr, "iorec2dat: %s: %s\n", hashfile, strerror(errno));
		ret = 1;
	}
	iorec_reader_close(r);
	free(extra);
	if (fd != 1 && close(fd) && !ret) {
		fprintf(stderr, "iorec2dat: %s: %s\n", out, strerror(errno));
		ret = 1;
	}
	return ret;
}
