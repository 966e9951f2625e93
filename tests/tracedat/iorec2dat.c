// SPDX-License-Identifier: MIT
/*
 * iorec2dat.c - converts a .iorec recording to a trace.dat through the
 * formats/ reader and trace.dat writer (a test program, not installed).
 *
 * The trace.dat gets the recording's header_page, header_event, event
 * formats, printk formats and saved cmdlines, its clock, the uname of the
 * start snapshot, the kernel's per-CPU ring-buffer stats (CPUSTAT) and
 * every raw page of every CPU in order.  -H FILE writes, per CPU, the page
 * count and a hash of the page bytes given to the writer, the truth the
 * trace.dat reader's output is compared with.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iorec-format.h"
#include "tracedat.h"
#include "tdtool.h"

static const char usage[] =
"usage: iorec2dat [-V 6|7] [-z] [-l LEVEL] [-c PAGES] [-H HASHFILE] -o OUT IN.iorec\n"
"  -V VERSION   trace.dat file version (default 7)\n"
"  -z           zstd-compress (version 7)\n"
"  -l LEVEL     zstd level (default 3)\n"
"  -c PAGES     pages per zstd chunk (default 10)\n"
"  -H FILE      write \"cpu N pages P hash H\" lines of the pages written\n"
"  -o OUT       the trace.dat to write ('-' for stdout)\n";

static struct {
	struct tracedat_write_opts wo;
	const char *out, *in, *hashfile;
} env;

struct cpuhash {
	uint64_t pages, hash;
};

/* The value of one SNAPSHOT field (fields tab-separated, escapes kept). */
static size_t field(const char *line, size_t len, int n, const char **f)
{
	const char *p = line, *end = line + len;

	*f = line;
	for (int i = 0; i < n; i++) {
		const char *t = memchr(p, '\t', (size_t)(end - p));

		if (!t)
			return 0;
		p = t + 1;
	}
	*f = p;
	{
		const char *t = memchr(p, '\t', (size_t)(end - p));

		return (size_t)((t ? t : end) - p);
	}
}

/* "sysname nodename release machine" from the snapshot's uname line. */
static int add_uname(struct tracedat_writer *w, const uint8_t *pl, size_t len)
{
	const char *text = (const char *)pl + 8, *end = (const char *)pl + len;

	if (len < 8 || iorec_get32(pl) != IOREC_SNAP_START)
		return 0;
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t ll = (size_t)((nl ? nl : end) - text);

		if (ll > 6 && !memcmp(text, "uname\t", 6)) {
			const char *sys, *rel, *mach, *node;
			size_t ls = field(text, ll, 1, &sys), lr = field(text, ll, 2, &rel);
			size_t lm = field(text, ll, 4, &mach), ln = field(text, ll, 5, &node);
			char buf[1024];
			int n = snprintf(buf, sizeof(buf), "%.*s %.*s %.*s %.*s",
					 (int)ls, sys, (int)ln, node, (int)lr, rel,
					 (int)lm, mach);

			if (n < 0 || (size_t)n >= sizeof(buf))
				return -TRACEDAT_E_INVAL;
			return tracedat_writer_add_option(w, TRACEDAT_OPT_UNAME, buf,
							  (size_t)n + 1);
		}
		text += ll + 1;
	}
	return 0;
}

/*
 * CPUSTAT options from the STATS chunk's "cpu\tN\tKEY\tVALUE" lines: the
 * kernel's keys, in their order, as trace-cmd stores per_cpu/cpuN/stats
 * ("CPU: N" first); the recorder's own keys (pages, missed_pages) are not
 * the kernel's and are left out.
 */
static int add_cpustats(struct tracedat_writer *w, const uint8_t *pl, size_t len,
			uint32_t ncpus)
{
	for (uint32_t cpu = 0; cpu < ncpus; cpu++) {
		const char *p = (const char *)pl, *end = p + len;
		char *text = NULL;
		size_t tl = 0;
		FILE *f = open_memstream(&text, &tl);
		int ret, lines = 0;

		if (!f)
			return -TRACEDAT_E_NOMEM;
		fprintf(f, "CPU: %u\n", cpu);
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t ll = (size_t)((nl ? nl : end) - p);
			const char *c, *k, *v;
			size_t lc = field(p, ll, 1, &c), lk = field(p, ll, 2, &k);
			size_t lv = field(p, ll, 3, &v);
			char *ce;

			if (lc && lk && lv && strtoul(c, &ce, 10) == cpu && ce == c + lc &&
			    !(lk == 5 && !memcmp(k, "pages", 5)) &&
			    !(lk == 12 && !memcmp(k, "missed_pages", 12))) {
				fprintf(f, "%.*s: %.*s\n", (int)lk, k, (int)lv, v);
				lines++;
			}
			p += ll + 1;
		}
		fclose(f);
		ret = lines ? tracedat_writer_add_option(w, TRACEDAT_OPT_CPUSTAT,
							 text, tl + 1) : 0;
		free(text);
		if (ret)
			return ret;
	}
	return 0;
}

static int write_hashes(const struct cpuhash *h, uint32_t ncpus)
{
	FILE *f = fopen(env.hashfile, "w");

	if (!f)
		return -1;
	for (uint32_t i = 0; i < ncpus; i++)
		fprintf(f, "cpu %u pages %llu hash %016llx\n", i,
			(unsigned long long)h[i].pages, (unsigned long long)h[i].hash);
	return fclose(f) ? -1 : 0;
}

static int convert(struct iorec_reader *r, int out)
{
	struct tracedat_writer *w = NULL;
	struct cpuhash *hash = NULL;
	struct iorec_chunk c;
	uint32_t ncpus = 0, subbuf = 0;
	int ret, err = 0;

	while ((ret = iorec_reader_next(r, &c, true)) > 0) {
		const uint8_t *pl = c.payload;
		size_t len = c.payload_len;

		if (c.type == IOREC_CHUNK_HEADER) {
			struct iorec_header h;
			char clock[64];

			if ((err = iorec_header_parse(pl, len, &h)))
				break;
			env.wo.big_endian = h.endian == IOREC_ENDIAN_BIG;
			env.wo.long_size = h.long_size;
			env.wo.page_size = subbuf = h.subbuf_size;
			env.wo.ncpus = ncpus = h.ncpus;
			w = tracedat_writer_new(out, &env.wo, &err);
			hash = calloc(ncpus ? ncpus : 1, sizeof(*hash));
			if (!w || !hash) {
				fprintf(stderr, "iorec2dat: %s\n", tracedat_strerror(err));
				err = err ? err : -TRACEDAT_E_NOMEM;
				break;
			}
			for (uint32_t i = 0; i < ncpus; i++)
				hash[i].hash = TD_FNV_INIT;
			if (iorec_kv_get(h.text, h.text_len, "clock", clock,
					 sizeof(clock)) > 0)
				err = tracedat_writer_set_clock(w, clock);
			if (!err)
				err = tracedat_writer_add_option(w, TRACEDAT_OPT_VERSION,
								 "iorec " PACKAGE_VERSION,
								 sizeof("iorec " PACKAGE_VERSION));
		} else if (!w) {
			continue;
		} else if (c.type == IOREC_CHUNK_HEADER_PAGE) {
			err = tracedat_writer_set_header_page(w, pl, len);
		} else if (c.type == IOREC_CHUNK_HEADER_EVENT) {
			err = tracedat_writer_set_header_event(w, pl, len);
		} else if (c.type == IOREC_CHUNK_EVENT_FORMAT) {
			const uint8_t *nul = memchr(pl, 0, len);

			if (!nul) {
				fprintf(stderr, "iorec2dat: event format chunk at offset %llu without its system\n",
					(unsigned long long)c.offset);
				continue;
			}
			err = tracedat_writer_add_event_format(w, (const char *)pl,
							       nul + 1,
							       len - (size_t)(nul + 1 - pl));
		} else if (c.type == IOREC_CHUNK_PRINTK) {
			err = tracedat_writer_set_printk(w, pl, len);
		} else if (c.type == IOREC_CHUNK_CMDLINES) {
			err = tracedat_writer_set_cmdlines(w, pl, len);
		} else if (c.type == IOREC_CHUNK_SNAPSHOT) {
			err = add_uname(w, pl, len);
		} else if (c.type == IOREC_CHUNK_STATS) {
			err = add_cpustats(w, pl, len, ncpus);
		} else if (c.type == IOREC_CHUNK_DATA) {
			const uint8_t *pg = pl + IOREC_DATA_DESC_LEN;

			if (c.data.cpu >= ncpus || c.data.subbuf_size != subbuf) {
				fprintf(stderr, "iorec2dat: data chunk at offset %llu: cpu %u, sub-buffer size %u do not match the header\n",
					(unsigned long long)c.offset, c.data.cpu,
					c.data.subbuf_size);
				err = -TRACEDAT_E_INVAL;
				break;
			}
			for (uint32_t i = 0; i < c.data.npages && !err; i++, pg += subbuf) {
				err = tracedat_writer_add_page(w, c.data.cpu, pg, subbuf);
				hash[c.data.cpu].hash = td_fnv(hash[c.data.cpu].hash, pg, subbuf);
				hash[c.data.cpu].pages++;
			}
		}
		if (err)
			break;
	}
	if (ret < 0)
		fprintf(stderr, "iorec2dat: %s: %s at offset %llu; converting what came before\n",
			env.in, iorec_strerror(ret),
			(unsigned long long)iorec_reader_error_offset(r));
	if (!err && !w) {
		fprintf(stderr, "iorec2dat: %s: no header chunk\n", env.in);
		err = -TRACEDAT_E_INVAL;
	}
	if (!err)
		err = tracedat_writer_finish(w);
	if (err)
		fprintf(stderr, "iorec2dat: %s: %s%s%s\n", env.out, tracedat_strerror(err),
			w && tracedat_writer_errno(w) ? ": " : "",
			w && tracedat_writer_errno(w) ? strerror(tracedat_writer_errno(w)) : "");
	if (!err && env.hashfile && write_hashes(hash, ncpus)) {
		fprintf(stderr, "iorec2dat: %s: %s\n", env.hashfile, strerror(errno));
		err = -TRACEDAT_E_IO;
	}
	tracedat_writer_free(w);
	free(hash);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct iorec_reader *r;
	int opt, err, out, ret;

	env.wo.version = 7;
	while ((opt = getopt(argc, argv, "V:zl:c:H:o:h")) != -1) {
		switch (opt) {
		case 'V': env.wo.version = atoi(optarg); break;
		case 'z': env.wo.compress = true; break;
		case 'l': env.wo.zstd_level = atoi(optarg); break;
		case 'c': env.wo.chunk_pages = (uint32_t)atoi(optarg); break;
		case 'H': env.hashfile = optarg; break;
		case 'o': env.out = optarg; break;
		default:
			fputs(usage, opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1 || !env.out) {
		fputs(usage, stderr);
		return 2;
	}
	env.in = argv[optind];
	r = iorec_reader_open(env.in, &err);
	if (!r) {
		fprintf(stderr, "iorec2dat: %s: %s\n", env.in, iorec_strerror(err));
		return 1;
	}
	out = strcmp(env.out, "-") ? open(env.out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : 1;
	if (out < 0) {
		fprintf(stderr, "iorec2dat: %s: %s\n", env.out, strerror(errno));
		iorec_reader_close(r);
		return 1;
	}
	ret = convert(r, out);
	iorec_reader_close(r);
	if (out != 1 && close(out) && !ret) {
		fprintf(stderr, "iorec2dat: %s: %s\n", env.out, strerror(errno));
		ret = 1;
	}
	return ret;
}
