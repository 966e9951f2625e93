// SPDX-License-Identifier: MIT
/*
 * cmd-convert.c - `ioreport convert --to trace.dat`: a .iorec recording
 * rewritten as trace-cmd's trace.dat (file version 6, or 7 with or
 * without zstd) for trace-cmd report and KernelShark.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "sbuf.h"
#include "input/meta.h"
#include "input/source.h"
#include "iorec-format.h"
#include "iorec-tracedat.h"

static const char convert_usage[] =
"usage: ioreport convert --to trace.dat [-o OUT] [--dat-version 6|7]\n"
"                        [--zstd[=LEVEL] | --zlib[=LEVEL]] [--chunk-pages N] IN.iorec\n"
"\n"
"  -t, --to FORMAT      the format to write: trace.dat (the only one)\n"
"  -o, --output OUT     the file to write ('-' for standard output);\n"
"                       default IN with .dat in place of .iorec\n"
"  -V, --dat-version N  trace.dat file version 6 or 7 (default 7)\n"
"  -z, --zstd[=LEVEL]   version 7: compress sections and pages with zstd\n"
"                       (level 1 to 19, default 3)\n"
"      --zlib[=LEVEL]   version 7: compress with zlib instead, for trace-cmd\n"
"                       builds without zstd (level 1 to 9, default 6)\n"
"      --chunk-pages N  pages per compressed chunk (default 10, as trace-cmd)\n"
"  -h, --help           this help\n"
"\n"
"The trace.dat holds the recording's raw ring-buffer pages unchanged, its\n"
"event formats, header page, printk formats, saved cmdlines (then the\n"
"names of the processes of the snapshots), clock, uname and per-CPU\n"
"ring-buffer counters; trace-cmd report, trace-cmd dump and KernelShark\n"
"open it.  A cut or damaged recording converts up to its damage.\n"
"\n"
"Example:\n"
"  ioreport convert --to trace.dat -o x.dat x.iorec && trace-cmd report x.dat\n";

/* "PID COMM" of a snapshot's proc and thread lines, appended to arg. */
static int add_comm(char **f, int n, void *arg)
{
	struct sbuf *s = arg;

	if (n >= 4 && (!strcmp(f[0], "proc") || !strcmp(f[0], "thread")) &&
	    *f[3] && !strchr(f[3], '\n'))
		sbuf_addf(s, "%d %s\n", atoi(f[1]), f[3]);
	return 0;
}

/*
 * The names of the processes and threads of the recording's snapshots,
 * as saved cmdlines lines: trace-cmd then names the tasks the kernel's
 * saved_cmdlines no longer held, as ioreport does.
 */
static int snapshot_cmdlines(const char *path, struct sbuf *out)
{
	struct an_err err;
	struct source *src = source_open(path, &err);
	const struct source_info *in;
	int ret = 0;

	if (!src) {
		error("%s", err.msg);
		return -1;
	}
	in = source_info(src);
	if (in->kind != SOURCE_IOREC) {
		error("%s is already a trace.dat; convert reads .iorec recordings",
		      path);
		ret = -1;
	} else if (meta_lines(in->snapshot_start, NULL, add_comm, out) < 0 ||
		   meta_lines(in->snapshot_end, NULL, add_comm, out) < 0 ||
		   out->failed) {
		error("%s: %s", path, an_strerror(AN_E_NOMEM));
		ret = -1;
	}
	source_close(src);
	return ret;
}

/* IN with its .iorec replaced by .dat (or .dat appended). */
static char *default_output(const char *in)
{
	size_t n = strlen(in);

	if (n > 6 && !strcmp(in + n - 6, ".iorec"))
		n -= 6;
	return an_asprintf("%.*s.dat", (int)n, in);
}

int cmd_convert(int argc, char **argv)
{
	enum { OPT_CHUNK = 256, OPT_ZLIB };
	static const struct option opts[] = {
		{ "to",          required_argument, NULL, 't' },
		{ "output",      required_argument, NULL, 'o' },
		{ "dat-version", required_argument, NULL, 'V' },
		{ "zstd",        optional_argument, NULL, 'z' },
		{ "zlib",        optional_argument, NULL, OPT_ZLIB },
		{ "chunk-pages", required_argument, NULL, OPT_CHUNK },
		{ "help",        no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct iorec_tracedat_opts o = { .version = 7 };
	struct iorec_tracedat_result res;
	struct sbuf extra = SBUF_INIT;
	struct iorec_reader *r = NULL;
	const char *to = NULL, *in;
	char *out = NULL, *tmp = NULL;
	int c, fd = -1, ret = 1, err;
	long v;

	optind = 1;
	opterr = 0;		/* cmd_option() names the option */
	while ((c = getopt_long(argc, argv, ":t:o:V:z::h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			to = optarg;
			break;
		case 'o':
			free(out);
			out = an_strdup(optarg);
			break;
		case 'V':
			if (parse_count(convert_usage, "dat-version", optarg, 6,
					7, &v))
				goto usage;
			o.version = (int)v;
			break;
		case 'z':
		case OPT_ZLIB:
			if (o.compress) {
				free(out);
				return usage_error(convert_usage, "--zstd and --zlib exclude each other, and each is given once");
			}
			o.compress = true;
			o.codec = c == 'z' ? TRACEDAT_CODEC_ZSTD :
			       TRACEDAT_CODEC_ZLIB;
			if (optarg) {
				if (parse_count(convert_usage, c == 'z' ?
						"zstd" : "zlib", optarg, 1,
						c == 'z' ? 19 : 9, &v))
					goto usage;
				o.zstd_level = (int)v;
			}
			break;
		case OPT_CHUNK:
			if (parse_count(convert_usage, "chunk-pages", optarg, 1,
					4096, &v))
				goto usage;
			o.chunk_pages = (uint32_t)v;
			break;
		default:	/* -h, and the errors */
			free(out);
			return cmd_option(convert_usage, c, argv, NULL);
		}
	}
	if (!to || strcmp(to, "trace.dat")) {
		free(out);
		return usage_error(convert_usage, to ? "convert writes --to trace.dat, not '%s'" :
				   "convert wants --to trace.dat%s", to ? to : "");
	}
	if (o.compress && o.version != 7) {
		free(out);
		return usage_error(convert_usage, "%s needs --dat-version 7 (version 6 has no compression)",
				   o.codec == TRACEDAT_CODEC_ZLIB ? "--zlib" : "--zstd");
	}
	if (argc - optind != 1) {
		free(out);
		return usage_error(convert_usage, "convert wants exactly one IN.iorec");
	}
	in = argv[optind];
	if (!strcmp(in, "-")) {
		free(out);
		return usage_error(convert_usage, "convert reads a file, not standard input");
	}
	if (!out && !(out = default_output(in))) {
		error("%s: %s", in, an_strerror(AN_E_NOMEM));
		return 1;
	}

	if (snapshot_cmdlines(in, &extra) < 0)
		goto done;
	r = iorec_reader_open(in, &err);
	if (!r) {
		error("%s: %s at offset 0", in, iorec_strerror(err));
		goto done;
	}
	if (!strcmp(out, "-")) {
		fd = STDOUT_FILENO;
	} else {
		/* written beside OUT, renamed over it when complete */
		fd = cmd_create_tmp(out, &tmp);
		if (fd < 0) {
			error("cannot create '%s': %s (check the directory and its space)",
			      tmp ? tmp : out, tmp ? strerror(errno) :
			      an_strerror(AN_E_NOMEM));
			free(tmp);
			tmp = NULL;
			goto done;
		}
	}
	o.writer_version = "ioreport " PACKAGE_VERSION;
	o.extra_cmdlines = extra.buf;
	o.extra_cmdlines_len = extra.len;
	err = iorec_to_tracedat(r, fd, &o, &res);
	if (err) {
		if (err == -TRACEDAT_E_BAD_HEADER && res.read_err)
			error("%s: %s at offset %llu, before the recording's header was read; nothing to convert",
			      in, iorec_strerror(res.read_err),
			      (unsigned long long)res.read_err_offset);
		else if (err == -TRACEDAT_E_BAD_HEADER)
			error("%s: no usable header, header_page or header_event chunk; nothing to convert",
			      in);
		else
			error("cannot write '%s': %s%s%s", out,
			      tracedat_strerror(err),
			      res.write_errno ? ": " : "",
			      res.write_errno ? strerror(res.write_errno) : "");
		goto done;
	}
	if (tmp) {
		if (fsync(fd) < 0 || close(fd) < 0) {
			fd = -1;
			error("cannot write '%s': %s", out, strerror(errno));
			goto done;
		}
		fd = -1;
		if (rename(tmp, out) < 0) {
			error("cannot rename '%s' to '%s': %s", tmp, out,
			      strerror(errno));
			goto done;
		}
		free(tmp);
		tmp = NULL;
	}
	if (res.read_err)
		warning("%s: %s at offset %llu; converted the %llu chunks before it",
			in, iorec_strerror(res.read_err),
			(unsigned long long)res.read_err_offset,
			(unsigned long long)res.chunks);
	ret = 0;
done:
	if (fd >= 0 && fd != STDOUT_FILENO)
		close(fd);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	iorec_reader_close(r);
	sbuf_release(&extra);
	free(out);
	return ret;
usage:
	free(out);
	return 2;
}
