// SPDX-License-Identifier: MIT
/*
 * cmd-export.c - `ioreport export`: a recording for other tools, as a
 * Chrome/Perfetto trace event JSON timeline (--perfetto OUT.json), fio
 * iologs with a job file that replays them (--fio DIR).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "driver.h"
#include "sink/fio.h"
#include "sink/perfetto.h"

static const char export_usage[] =
"usage: ioreport export --perfetto OUT.json RECORDING\n"
"       ioreport export --fio DIR RECORDING\n"
"\n"
"  -p, --perfetto OUT   a Chrome/Perfetto trace event JSON file ('-' for\n"
"                       standard output): a track per thread with its file\n"
"                       syscalls as slices (fd, file, bytes), a process per\n"
"                       block device with each request as a slice holding\n"
"                       its queue and device phases, counters of dirty and\n"
"                       writeback pages, names, and the wall clock in the\n"
"                       metadata; open it in ui.perfetto.dev or\n"
"                       chrome://tracing\n"
"  -f, --fio DIR        fio iolog (version 3) files in DIR, one per process\n"
"                       with file I/O (reads, writes, fsync, fdatasync as\n"
"                       fsync, hole punches), DIR/replay.fio, one job per iolog, and\n"
"                       DIR/layout.fio, which writes the files it reads;\n"
"                       replay in directory D: cd D && export IOLOGS=DIR &&\n"
"                       fio DIR/layout.fio && fio DIR/replay.fio\n"
"  -q, --quiet          no summary line on standard error\n"
"  -h, --help           this help\n"
"\n"
"Examples:\n"
"  ioreport export --perfetto x.json x.iorec\n"
"  ioreport export --fio /tmp/r x.iorec\n"
"  cd /mnt/t && export IOLOGS=/tmp/r && fio $IOLOGS/layout.fio && fio $IOLOGS/replay.fio\n";

/* Write the Perfetto JSON of path to out; 0 or 1 after saying why. */
static int export_perfetto(const char *path, const char *out, bool quiet)
{
	struct driver d = { 0 };
	struct perfetto_counts n;
	struct perfetto *p = NULL;
	struct an_err err;
	FILE *f = NULL;
	char *tmp = NULL;
	int ret = 1, rc;

	if (driver_open(&d, path, &err) < 0) {
		error("%s", err.msg);
		goto out;
	}
	if (strcmp(out, "-")) {
		int fd;

		tmp = an_asprintf("%s.tmp-XXXXXX", out);
		fd = tmp ? mkstemp(tmp) : -1;
		if (fd >= 0)
			fchmod(fd, 0644);
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
	d.want = AN_BLOCK | AN_SYS | AN_ATTRIB | AN_DIRTY;
	d.on_request = perfetto_request;
	d.on_request_arg = p;
	d.on_call = perfetto_call;
	d.on_call_arg = p;
	if (driver_run(&d, &err) < 0) {
		error("%s", err.msg);
		goto out;
	}
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
	if (!d.st.have_sys && !quiet)
		warning("%s: %s; the threads have no syscall slices", path,
			d.sys_why[0] ? d.sys_why : "no syscall events");
	if (!quiet)
		fprintf(stderr, "%s: %llu syscall slices on %llu threads of %llu processes, %llu requests on %llu devices, %llu dirty samples\n",
			out, (unsigned long long)n.calls,
			(unsigned long long)n.threads,
			(unsigned long long)n.processes,
			(unsigned long long)n.requests,
			(unsigned long long)n.devices,
			(unsigned long long)n.counters);
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
static int export_fio(const char *path, const char *dir, bool quiet)
{
	struct driver d = { 0 };
	struct fio_export *fx = NULL;
	struct fio_counts n;
	struct an_err err;
	int ret = 1;

	if (driver_open(&d, path, &err) < 0) {
		error("%s", err.msg);
		goto out;
	}
	fx = fio_export_new(dir, &d.st, &err);
	if (!fx) {
		error("%s", err.msg);
		goto out;
	}
	d.want = AN_SYS;
	d.on_call = fio_export_call;
	d.on_call_arg = fx;
	if (driver_run(&d, &err) < 0) {
		error("%s", err.msg);
		goto out;
	}
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
	if (!quiet)
		fprintf(stderr, "%s: %llu iologs, %llu files: %llu reads (%llu B), %llu writes (%llu B), %llu fsyncs, %llu fdatasyncs, %llu trims; %llu calls on no regular file left out\n",
			dir, (unsigned long long)n.procs,
			(unsigned long long)n.files,
			(unsigned long long)n.reads,
			(unsigned long long)n.read_bytes,
			(unsigned long long)n.writes,
			(unsigned long long)n.write_bytes,
			(unsigned long long)n.syncs,
			(unsigned long long)n.datasyncs,
			(unsigned long long)n.trims,
			(unsigned long long)n.skipped);
	ret = 0;
out:
	fio_export_free(fx);
	driver_close(&d);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "perfetto", required_argument, NULL, 'p' },
		{ "fio",      required_argument, NULL, 'f' },
		{ "quiet",    no_argument,       NULL, 'q' },
		{ "help",     no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *perfetto = NULL, *fio = NULL;
	bool quiet = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			perfetto = optarg;
			break;
		case 'f':
			fio = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(export_usage, stdout);
			return 0;
		default:
			return usage_error(export_usage, "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (!perfetto == !fio)
		return usage_error(export_usage, "export wants one of --perfetto OUT.json and --fio DIR");
	if (argc - optind != 1)
		return usage_error(export_usage, "export wants exactly one RECORDING");
	if (fio)
		return export_fio(argv[optind], fio, quiet);
	return export_perfetto(argv[optind], perfetto, quiet);
}
