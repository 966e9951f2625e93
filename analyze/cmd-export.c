// SPDX-License-Identifier: MIT
/*
 * cmd-export.c - `ioreport export`: a recording for other tools, as a
 * Chrome/Perfetto trace event JSON timeline (--perfetto OUT.json), fio
 * iologs with a job file that replays them (--fio DIR).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "driver.h"
#include "sink/fio.h"
#include "sink/perfetto.h"

static const char export_usage[] =
"usage: ioreport export --perfetto OUT.json [FILTERS] RECORDING\n"
"       ioreport export --fio DIR [--per-file] [FILTERS] RECORDING\n"
"\n"
"      --perfetto OUT   a Chrome/Perfetto trace event JSON file ('-' for\n"
"                       standard output): a track per thread with its file\n"
"                       syscalls as slices (fd, file, bytes), a process per\n"
"                       block device with each request as a slice holding\n"
"                       its queue and device phases, counters of dirty and\n"
"                       writeback pages, names, and the wall clock in the\n"
"                       metadata; open it in ui.perfetto.dev or\n"
"                       chrome://tracing\n"
"      --fio DIR        fio iolog (version 3) files in DIR, one per process\n"
"                       with file I/O (reads, writes, fsync, fdatasync as\n"
"                       fsync, hole punches), DIR/replay.fio, one job per\n"
"                       iolog, and DIR/layout.fio, which writes the files it\n"
"                       reads; replay in directory D: cd D && export\n"
"                       IOLOGS=DIR && fio DIR/layout.fio && fio DIR/replay.fio\n"
"      --per-file       with --fio: one iolog (and job) per file instead of\n"
"                       per process\n"
VIEW_FILTER_HELP
"      --min-ms MS      only requests and syscalls that took MS ms or more\n"
"  -q, --quiet          no summary line on standard error\n"
"  -h, --help           this help\n"
"\n"
"The filters keep what they keep in the views: the syscalls and requests\n"
"of the processes, files, devices and time asked (and the dirty-page\n"
"counters of that time).\n"
"\n"
"Examples:\n"
"  ioreport export --perfetto x.json x.iorec\n"
"  ioreport export --perfetto db.json -c sqlite3 --since 2 --until 5 x.iorec\n"
"  ioreport export --fio /tmp/r x.iorec\n"
"  ioreport export --fio /tmp/r --per-file -f '/var/lib/*' x.iorec\n"
"  cd /mnt/t && export IOLOGS=/tmp/r && fio $IOLOGS/layout.fio && fio $IOLOGS/replay.fio\n";

/* What an export does, from its options. */
struct export_opts {
	const char *path;		/* the RECORDING */
	bool quiet;
	bool per_file;			/* --fio --per-file */
	struct view_filter filter;
};

/* The filter line of the views, on standard error. */
static void say_filter(struct driver *d, const struct export_opts *o)
{
	if (!o->quiet && d->filter)
		print_filter_kept(stderr, &d->st);
}

/* Write the Perfetto JSON of path to out; 0 or 1 after saying why. */
static int export_perfetto(struct export_opts *o, const char *out)
{
	const char *path = o->path;
	bool quiet = o->quiet;
	struct driver d = { 0 };
	struct perfetto_counts n;
	struct perfetto *p = NULL;
	FILE *f = NULL;
	char *tmp = NULL;
	int ret = 1, rc;

	if (cmd_open(&d, path, AN_BLOCK | AN_SYS | AN_ATTRIB | AN_DIRTY,
		     &o->filter))
		goto out;
	if (strcmp(out, "-")) {
		int fd;

		fd = cmd_create_tmp(out, &tmp);
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			error("cannot create '%s': %s (check the directory and its space)",
			      out, tmp ? strerror(errno) :
			      an_strerror(AN_E_NOMEM));
			if (fd >= 0)
				close(fd);
			goto out;
		}
	} else {
		f = stdout;
	}
	p = perfetto_new(f, &d.st);
	if (!p) {
		error("%s: %s", path, an_strerror(AN_E_NOMEM));
		goto out;
	}
	if (cmd_run(&d, perfetto_request, perfetto_call, p))
		goto out;
	flush_warnings(d.src);
	rc = perfetto_finish(p, &n);
	if (rc < 0) {
		error("cannot write '%s': %s", out, rc == -AN_E_IO ?
		      strerror(errno) : an_strerror(rc));
		goto out;
	}
	if (f != stdout) {
		rc = fclose(f);
		f = NULL;
		if (rc || rename(tmp, out) < 0) {
			error("cannot write '%s': %s", out, strerror(errno));
			goto out;
		}
		free(tmp);
		tmp = NULL;
	}
	say_filter(&d, o);
	if (!d.st.have_sys && !quiet)
		warning("%s: %s; the threads have no syscall slices", path,
			d.sys_why[0] ? d.sys_why : "no syscall events");
	if (!quiet)
		fprintf(stderr, "%s: %" PRIu64 " syscall slices on %" PRIu64
			" threads of %" PRIu64 " processes, %" PRIu64
			" requests on %" PRIu64 " devices, %" PRIu64
			" dirty samples\n", out, n.calls, n.threads,
			n.processes, n.requests, n.devices, n.counters);
	ret = 0;
out:
	if (f && f != stdout)
		fclose(f);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	perfetto_free(p);
	driver_close(&d);
	return ret;
}

/* Write the fio iologs of path into dir; 0 or 1 after saying why. */
static int export_fio(struct export_opts *o, const char *dir)
{
	const char *path = o->path;
	struct driver d = { 0 };
	struct fio_export *fx = NULL;
	struct fio_counts n;
	struct an_err err;
	int ret = 1;

	if (cmd_open(&d, path, AN_SYS, &o->filter))
		goto out;
	fx = fio_export_new(dir, &d.st, o->per_file, &err);
	if (!fx) {
		error("%s", err.msg);
		goto out;
	}
	if (cmd_run(&d, NULL, fio_export_call, fx))
		goto out;
	flush_warnings(d.src);
	if (!d.st.have_sys) {
		error("%s: %s; there is no file I/O to replay", path,
		      d.sys_why[0] ? d.sys_why : "no syscall events");
		goto out;
	}
	if (fio_export_finish(fx, &n, &err) < 0) {
		error("%s", err.msg);
		goto out;
	}
	say_filter(&d, o);
	if (!o->quiet)
		fprintf(stderr, "%s: %" PRIu64 " iologs, %" PRIu64 " files: %"
			PRIu64 " reads (%" PRIu64 " B), %" PRIu64 " writes (%"
			PRIu64 " B), %" PRIu64 " fsyncs, %" PRIu64
			" fdatasyncs, %" PRIu64 " trims; %" PRIu64
			" calls on no regular file left out\n", dir, n.iologs,
			n.files, n.reads, n.read_bytes, n.writes,
			n.write_bytes, n.syncs, n.datasyncs, n.trims,
			n.skipped);
	ret = 0;
out:
	fio_export_free(fx);
	driver_close(&d);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	enum { OPT_PERFETTO = OPT_CMD, OPT_FIO, OPT_PER_FILE };
	static const struct option opts[] = {
		{ "perfetto", required_argument, NULL, OPT_PERFETTO },
		{ "fio",      required_argument, NULL, OPT_FIO },
		{ "per-file", no_argument,       NULL, OPT_PER_FILE },
		{ "quiet",    no_argument,       NULL, 'q' },
		{ "help",     no_argument,       NULL, 'h' },
		FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *perfetto = NULL, *fio = NULL;
	struct export_opts o = { 0 };
	int c, code;

	optind = 1;
	opterr = 0;		/* the messages below name the option */
	while ((c = getopt_long(argc, argv, ":qhp:c:d:f:", opts, NULL)) != -1) {
		switch (c) {
		case OPT_PERFETTO:
			perfetto = optarg;
			break;
		case OPT_FIO:
			fio = optarg;
			break;
		case OPT_PER_FILE:
			o.per_file = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		default:
			code = cmd_option(export_usage, c, argv, &o.filter);
			if (code >= 0)
				return code;
		}
	}
	if (check_filter(export_usage, &o.filter))
		return 2;
	if (!perfetto == !fio)
		return usage_error(export_usage, "export wants one of --perfetto OUT.json and --fio DIR");
	if (o.per_file && !fio)
		return usage_error(export_usage, "--per-file is an option of --fio");
	if (argc - optind != 1)
		return usage_error(export_usage, "export wants exactly one RECORDING");
	o.path = argv[optind];
	if (fio)
		return export_fio(&o, fio);
	return export_perfetto(&o, perfetto);
}
