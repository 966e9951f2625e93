// SPDX-License-Identifier: MIT
/*
 * cmd-dump.c - `ioreport dump`: every event of a recording as one text
 * line, all CPUs merged in time order, like `trace-cmd report`.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "base/sbuf.h"
#include "driver.h"
#include "input/meta.h"
#include "input/source.h"
#include "sink/json.h"
#include "sink/sink.h"

static const char dump_usage[] =
"usage: ioreport dump [--cpu N] [--events SYS:EVENT[,...]] [--raw] [--json] FILE\n"
"\n"
"  -c, --cpu N          only the events of CPU N\n"
"  -e, --events LIST    only these events: SYS:EVENT, SYS:* or SYS, EVENT;\n"
"                       comma-separated, may be repeated\n"
"  -r, --raw            print fields as name=value instead of the event's format\n"
"  -j, --json           one JSON object with an \"events\" array, one per line\n"
"  -h, --help           this help\n"
"\n"
"Lines read COMM-PID [CPU] SECONDS.USECS: EVENT: fields.  Events lost in the\n"
"kernel ring buffer show as 'CPU N: [LOST EVENTS]' where the gap is.\n";

static struct {
	int cpu;
	bool raw, json;
	struct sbuf events;	/* comma-separated list, as given */
} env;

/*
 * Mark in want[] (indexed by event id) the events named by one
 * SYS:EVENT / SYS:* / SYS / EVENT item.  Returns how many matched.
 */
static int select_events(struct source *src, const char *item, bool *want,
			 int maxid)
{
	int n, matched = 0;
	struct source_event_type *t = source_event_types(src, &n);
	const char *colon = strchr(item, ':');
	size_t syslen = colon ? (size_t)(colon - item) : 0;
	const char *name = colon ? colon + 1 : item;

	for (int i = 0; i < n; i++) {
		bool ok;

		if (colon)
			ok = strlen(t[i].system) == syslen &&
			     !strncmp(t[i].system, item, syslen) &&
			     (!strcmp(name, "*") || !strcmp(name, t[i].name));
		else
			ok = !strcmp(item, t[i].system) ||
			     !strcmp(item, t[i].name);
		if (ok && t[i].id >= 0 && t[i].id <= maxid) {
			want[t[i].id] = true;
			matched++;
		}
	}
	return matched;
}

static int build_filter(struct source *src, const char *path, bool **wantp,
			int *maxidp)
{
	int n, maxid = 0;
	struct source_event_type *t = source_event_types(src, &n);
	char *list, *item, *save = NULL;
	bool *want;

	for (int i = 0; i < n; i++)
		if (t[i].id > maxid)
			maxid = t[i].id;
	want = an_calloc((size_t)maxid + 1, sizeof(*want));
	list = env.events.err ? NULL : an_strdup(env.events.buf);
	if (!want || !list) {
		error("%s: %s", path, an_strerror(AN_E_NOMEM));
		free(want);
		free(list);
		return -1;
	}
	for (item = strtok_r(list, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (!*item)
			continue;
		if (!select_events(src, item, want, maxid)) {
			error("%s: no event '%s' in this recording; 'ioreport info %s' lists the events it holds",
			      path, item, path);
			free(list);
			free(want);
			return -1;
		}
	}
	free(list);
	*wantp = want;
	*maxidp = maxid;
	return 0;
}

/* The events as one JSON object, one compact event object per line. */
static int dump_json(struct source *src, const char *path, const bool *want,
		     int maxid)
{
	struct sbuf fields = SBUF_INIT;
	const struct source_info *in;
	struct source_event ev;
	struct json j;
	int ret = 0;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_u64(&j, "schema_version", JSON_SCHEMA_VERSION);
	json_str(&j, "recording", path);
	json_array_begin(&j, "events");
	while ((ret = source_next(src, &ev)) > 0) {
		const struct source_event_type *t;

		if (want && !ev.missed &&
		    (ev.id < 0 || ev.id > maxid || !want[ev.id]))
			continue;
		t = source_event_type(src, ev.id);
		json_object_begin(&j, NULL);
		j.compact = true;
		json_u64(&j, "ts_ns", ev.ts);
		json_i64(&j, "cpu", ev.cpu);
		if (ev.missed)
			json_i64(&j, "lost_before", ev.missed);
		if (want && (ev.id < 0 || ev.id > maxid || !want[ev.id])) {
			/* a filtered-out event that carries a gap */
			json_object_end(&j);
			j.compact = false;
			continue;
		}
		json_i64(&j, "pid", ev.pid);
		json_str(&j, "comm", source_comm(src, ev.pid));
		json_str(&j, "system", t ? t->system : NULL);
		json_str(&j, "event", t ? t->name : NULL);
		sbuf_reset(&fields);
		source_format_fields(src, &ev, env.raw, &fields);
		json_strn(&j, "fields", fields.buf ? fields.buf : "",
			  fields.len);
		json_object_end(&j);
		j.compact = false;
	}
	json_array_end(&j);
	if (ret < 0 || fields.err) {
		error("%s: %s", path, an_strerror(ret < 0 ? ret : fields.err));
		sbuf_release(&fields);
		return 1;
	}
	ret = 0;
	in = source_info(src);
	sink_integrity_json(&j, &in, NULL, 1);
	json_object_end(&j);
	if (json_finish(&j) < 0) {
		error("cannot write the dump: %s", strerror(errno));
		ret = 1;
	}
	flush_warnings(src);
	sbuf_release(&fields);
	return ret;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu",    required_argument, NULL, 'c' },
		{ "events", required_argument, NULL, 'e' },
		{ "raw",    no_argument,       NULL, 'r' },
		{ "json",   no_argument,       NULL, 'j' },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sbuf line = SBUF_INIT;
	struct source_event ev;
	struct driver d = { 0 };
	struct source *src;
	struct an_err err;
	bool *want = NULL;
	int maxid = 0, c, ret = 0;
	long v;

	env.cpu = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:e:rjh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_count(dump_usage, "cpu", optarg, 0, 65535, &v))
				return 2;
			env.cpu = (int)v;
			break;
		case 'e':
			if (env.events.len)
				sbuf_addch(&env.events, ',');
			sbuf_addstr(&env.events, optarg);
			break;
		case 'r':
			env.raw = true;
			break;
		case 'j':
			env.json = true;
			break;
		case 'h':
			fputs(dump_usage, stdout);
			return 0;
		default:
			return usage_error(dump_usage, "unknown option");
		}
	}
	if (argc - optind != 1) {
		sbuf_release(&env.events);
		return usage_error(dump_usage, "dump wants exactly one FILE");
	}

	/* the events themselves, without the stages */
	if (driver_open(&d, argv[optind], &err) < 0) {
		error("%s", err.msg);
		driver_close(&d);
		sbuf_release(&env.events);
		return 1;
	}
	src = d.src;
	if (env.events.len &&
	    build_filter(src, argv[optind], &want, &maxid) < 0) {
		ret = 1;
		goto out;
	}
	if (env.cpu >= 0 && env.cpu >= source_info(src)->nr_cpus)
		warning("%s: no CPU %d in this recording (it has %d)",
			argv[optind], env.cpu, source_info(src)->nr_cpus);
	source_set_cpu(src, env.cpu);

	if (env.json) {
		ret = dump_json(src, argv[optind], want, maxid);
		goto out;
	}
	while ((ret = source_next(src, &ev)) > 0) {
		if (ev.missed > 0)
			printf("CPU %d: [LOST %lld EVENTS]\n", ev.cpu,
			       ev.missed);
		else if (ev.missed < 0)
			printf("CPU %d: [LOST EVENTS]\n", ev.cpu);
		if (want && (ev.id < 0 || ev.id > maxid || !want[ev.id]))
			continue;
		sbuf_reset(&line);
		source_format_event(src, &ev, env.raw, &line);
		sbuf_addch(&line, '\n');
		if (line.err)
			break;
		fwrite(line.buf, 1, line.len, stdout);
	}
	if (ret < 0 || line.err) {
		error("%s: %s", argv[optind],
		      an_strerror(ret < 0 ? ret : line.err));
		ret = 1;
		goto out;
	}
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the dump: %s", strerror(errno));
		ret = 1;
	}
	flush_warnings(src);
	{
		const struct source_info *in = source_info(src);

		if (in->integrity != SOURCE_COMPLETE)
			warning("%s: %s at offset %llu: %s; events up to there were shown",
				argv[optind],
				meta_integrity(in->integrity),
				(unsigned long long)in->stop_offset,
				in->stop_reason);
	}
out:
	free(want);
	sbuf_release(&line);
	sbuf_release(&env.events);
	driver_close(&d);
	return ret;
}
