// SPDX-License-Identifier: MIT
/*
 * cmd-redact.c - `ioreport redact`: a copy of a recording with every
 * name (comms, command lines, path components, hostname, probe strings,
 * mount points) replaced by a stable pseudonym and every number, chunk
 * and event kept, so that it can go into a public bug report.  The
 * options, the mapping file and the messages; the transform is
 * input/redact.c.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "input/redact.h"
#include "input/rnames.h"

static const char redact_usage[] =
"usage: ioreport redact [OPTIONS] IN OUT\n"
"\n"
"Copy the recording IN to OUT with every name replaced by a pseudonym:\n"
"process names, command lines, path components, the hostname, probe\n"
"strings and mount points.  Numbers, events, devices and the kernel\n"
"version stay, so every view of OUT has the same numbers as IN's.\n"
"\n"
"Pseudonyms: a process name or a path component becomes name-N, or nNN\n"
"where name-N would not fit in its place, or zN (N in base 62, as long\n"
"as the name) where neither would, so that a pseudonym always fits where\n"
"its name was and two names never become one; a file-type suffix is\n"
"kept after the pseudonym of the rest, so X.db, X.db-wal and\n"
"X.db-journal become n03.db, n03.db-wal and n03.db-journal; any other\n"
"dot is part of the name (john.smith becomes n09, whole); a name with a\n"
"control character keeps one after its pseudonym (the analysis leaves\n"
"such paths out, and still does); a kernel thread keeps its prefix\n"
"(kworker~N); command-line words become arg-N, options opt-N, the\n"
"hostname host-N, and with --drop-devices and --drop-kernel devices\n"
"disk-N and the kernel kernel-N.\n"
"Names of at most two characters are kept.\n"
"\n"
"  -m, --map FILE         write NAME -> PSEUDONYM to FILE (keep it private:\n"
"                         it translates a maintainer's answer back); when\n"
"                         FILE exists its pseudonyms are used and extended,\n"
"                         so a before and an after recording match\n"
"  -b, --keep-basenames   keep the last component of every path\n"
"  -k, --keep-prefix DIR  keep paths under DIR whole (may be repeated;\n"
"                         /proc, /sys and /dev are always kept)\n"
"  -E, --no-extensions    replace the file-type suffixes too (X.db: n3)\n"
"      --drop-devices     replace device names (sda, mmcblk0p2) too\n"
"      --drop-kernel      replace the kernel release and version too\n"
"  -h, --help             this help\n"
"\n"
"Examples:\n"
"  ioreport redact x.iorec x-public.iorec\n"
"  ioreport redact -m x.map -k /usr x.iorec x-public.iorec\n";

static int write_map(struct rnames *names, const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return error("cannot write the mapping '%s': %s", path,
			     strerror(errno));
	if (rnames_write_map(names, f) < 0 || fclose(f)) {
		error("cannot write the mapping '%s': %s", path,
		      strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_redact(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "map", required_argument, NULL, 'm' },
		{ "keep-basenames", no_argument, NULL, 'b' },
		{ "keep-prefix", required_argument, NULL, 'k' },
		{ "no-extensions", no_argument, NULL, 'E' },
		{ "drop-devices", no_argument, NULL, 'D' },
		{ "drop-kernel", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rnames_opts o = { 0 };
	struct rnames *names;
	struct redact_stats st;
	struct an_err err = { 0 };
	const char *map = NULL;
	int c, code;

	o.keep_prefix = an_calloc((size_t)argc + 1, sizeof(*o.keep_prefix));
	if (!o.keep_prefix)
		return error("redact: out of memory"), 1;
	optind = 1;
	opterr = 0;		/* cmd_option() names the option */
	while ((c = getopt_long(argc, argv, ":m:bk:Eh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			map = optarg;
			break;
		case 'b':
			o.keep_basenames = true;
			break;
		case 'k':
			if (optarg[0] != '/') {
				free(o.keep_prefix);
				return usage_error(redact_usage,
						   "--keep-prefix wants an absolute path, not '%s'",
						   optarg);
			}
			o.keep_prefix[o.nkeep++] = optarg;
			break;
		case 'E':
			o.no_extensions = true;
			break;
		case 'D':
			o.drop_devices = true;
			break;
		case 'K':
			o.drop_kernel = true;
			break;
		default:	/* -h, and the errors */
			free(o.keep_prefix);
			return cmd_option(redact_usage, c, argv, NULL);
		}
	}
	if (argc - optind != 2) {
		free(o.keep_prefix);
		return usage_error(redact_usage, "redact wants IN and OUT");
	}
	if (!strcmp(argv[optind], "-") || !strcmp(argv[optind + 1], "-") ||
	    !strcmp(argv[optind], argv[optind + 1])) {
		free(o.keep_prefix);
		return usage_error(redact_usage,
				   "IN and OUT must be two files (IN is read twice), not '-'");
	}
	names = rnames_new(&o);
	if (!names) {
		free(o.keep_prefix);
		return error("redact: out of memory"), 1;
	}
	if (map && access(map, F_OK) == 0) {
		FILE *f = fopen(map, "re");
		unsigned long line = 0;
		int ret = f ? rnames_read_map(names, f, &line) : -AN_E_OPEN;

		if (f)
			fclose(f);
		if (ret < 0) {
			if (ret == -AN_E_FORMAT)
				error("%s:%lu: not a line of a redact mapping (KIND\tNAME\tPSEUDONYM); give -m a new file or that mapping",
				      map, line);
			else
				error("cannot read the mapping '%s': %s", map,
				      ret == -AN_E_NOMEM ? "out of memory" :
				      strerror(errno));
			rnames_free(names);
			free(o.keep_prefix);
			return 1;
		}
	}
	code = 1;
	if (redact_recording(argv[optind], argv[optind + 1], names, &st,
			     &err) < 0) {
		error("%s", err.msg);
	} else {
		if (st.truncated)
			warning("%s: ends inside a chunk at offset %llu; %s ends where it does",
				argv[optind],
				(unsigned long long)st.truncated_at,
				argv[optind + 1]);
		if (st.shortened)
			warning("%lu strings in events were longer as pseudonyms than their room; they were cut (use -b or -k to keep names short)",
				st.shortened);
		if (st.unknown)
			warning("%lu events of types without a format were copied as they are",
				st.unknown);
		if (!map || write_map(names, map) == 0)
			code = 0;
		else
			unlink(argv[optind + 1]);
	}
	rnames_free(names);
	free(o.keep_prefix);
	return code;
}
