// SPDX-License-Identifier: MIT
/*
 * cmd-export.c - `ioreport export`: a recording for other tools, as a
 * Chrome/Perfetto trace event JSON timeline (--perfetto OUT.json).
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
#include "sink/perfetto.h"

static const char export_usage[] =
"usage: ioreport export --perfetto OUT.json RECORDING\n"
"\n"
"  -p, --perfetto OUT   a Chrome/Perfetto trace event JSON file ('-' for\n"
"                       standard output): a track per thread with its file\n"
"                       syscalls as slices (fd, file, bytes), a process per\n"
"                       block device with each request as a slice holding\n"
"                       its queue and device phases, counters of dirty and\n"
"                       writeback pages, names, and the wall clock in the\n"
"                       metadata; open it in ui.perfetto.dev or\n"
"                       chrome://tracing\n"
"  -q, --quiet          no summary line on standard error\n"
"  -h, --help           this help\n"
"\n"
"Example:\n"
"  ioreport export --perfetto x.json x.iorec\n";

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

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "perfetto", required_argument, NULL, 'p' },
		{ "quiet",    no_argument,       NULL, 'q' },
		{ "help",     no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *perfetto = NULL;
	bool quiet = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			perfetto = optarg;
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
	if (!perfetto)
		return usage_error(export_usage, "export wants --perfetto OUT.json");
	if (argc - optind != 1)
		return usage_error(export_usage, "export wants exactly one RECORDING");
	return export_perfetto(argv[optind], perfetto, quiet);
}
