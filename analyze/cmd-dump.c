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
#include "sbuf.h"
#include "driver.h"
#include "input/meta.h"
#include "input/source.h"
#include "sink/json.h"
#include "sink/sink.h"

static const char dump_usage[] =
"usage: ioreport dump [--cpu N] [--events SYS:EVENT[,...]] [--filter EXPR]...\n"
"                     [FILTERS] [--raw] [--wallclock|--trace-clock] [--json] FILE\n"
"\n"
"      --cpu N          only the events of CPU N\n"
"  -e, --events LIST    only these events: SYS:EVENT, SYS:* or SYS, EVENT;\n"
"                       comma-separated, may be repeated\n"
"  -F, --filter 'EVENTS: EXPR'\n"
"                       only the events EXPR is true for, as trace-cmd\n"
"                       report -F (libtraceevent's filter): EVENTS is EVENT,\n"
"                       SYS:EVENT, SYS/EVENT or SYS, comma-separated; EXPR\n"
"                       compares the event's fields (--raw shows them),\n"
"                       COMM and CPU with == != < <= > >= (strings: == !=\n"
"                       and ~ with a glob, quoted), joined by && || ! and\n"
"                       ( ); no ': EXPR': every event of EVENTS.  May be\n"
"                       repeated for other events (an event's last one\n"
"                       counts); events no filter names are left out\n"
"  -p, --pid PID[,PID]  only the events of these tasks (the event's pid)\n"
"  -c, --comm NAME[,NAME] only the events of the processes that had one of\n"
"                       these names at any time, and of their threads\n"
"  -d, --dev DEV[,DEV]  only the events of these block devices (name or\n"
"                       MAJ:MIN; events without a dev field are left out)\n"
"      --since SEC, --until SEC\n"
"                       only the events of that window: seconds after the\n"
"                       first event, or times of day HH:MM:SS\n"
"      --wallclock      times of day of the recording machine instead of\n"
"                       seconds from the first event (JSON: \"wallclock\")\n"
"      --trace-clock    seconds of the trace clock instead of seconds from\n"
"                       the first event (--since and --until take each)\n"
"  -r, --raw            print fields as name=value instead of the event's format\n"
"                       (with --json: \"fields\" an object of typed values)\n"
"  -j, --json           one JSON object with an \"events\" array, one per line\n"
"  -h, --help           this help\n"
"\n"
"Lines read COMM-PID [CPU] SECONDS.USECS: EVENT: fields, the seconds from\n"
"the first event.  Events lost in the\n"
"kernel ring buffer show as 'CPU N: [LOST EVENTS]' where the gap is.\n";

static struct {
	int cpu;
	bool raw, json, wallclock, trace_clock;
	struct sbuf events;	/* comma-separated list, as given */
	char **exprs;		/* --filter, as given */
	size_t nexprs;
	struct source_filter *sf;	/* their filter, NULL: none */
	struct view_filter filter;	/* -p --comm -d --since --until */
	bool filtered;
	uint64_t first_ts;	/* what the times count from */
	struct source_field **dev;	/* the "dev" field of each event id */
	bool *dev_known;		/* dev[id] looked up */
	int ndev;
	struct meta_bdevs bdevs;
} env;

/* The dev field of ev's type, looked up once per type; NULL: none. */
static const struct source_field *dev_field(struct source *src,
					    const struct source_event *ev)
{
	if (ev->id < 0)
		return NULL;
	if (ev->id >= env.ndev) {
		int n = ev->id + 64;
		struct source_field **v = an_reallocarray(env.dev, (size_t)n,
							  sizeof(*v));
		bool *k;

		if (!v)
			return NULL;
		env.dev = v;
		k = an_reallocarray(env.dev_known, (size_t)n, sizeof(*k));
		if (!k)
			return NULL;
		env.dev_known = k;
		memset(k + env.ndev, 0, (size_t)(n - env.ndev) * sizeof(*k));
		env.ndev = n;
	}
	if (!env.dev_known[ev->id]) {
		env.dev[ev->id] = source_field(src, ev->id, "dev");
		env.dev_known[ev->id] = true;
	}
	return env.dev[ev->id];
}

/* --wallclock: the time of day of ts on the recording's clock, or NULL. */
static const char *when(struct source *src, uint64_t ts, char *buf, size_t n)
{
	return sink_wallclock(source_info(src), ts, false, buf, n) ? buf : NULL;
}

/*
 * The first event of the recording, whatever -e and -c keep: the time
 * --since and --until count from, as in the views.
 */
static void saw_event(const struct source_event *ev)
{
	if (env.filtered && !env.filter.base_ts)
		env.filter.base_ts = ev->ts ? ev->ts : 1;
	if (!env.first_ts)
		env.first_ts = ev->ts ? ev->ts : 1;
}

/*
 * Seconds from the first event, the time the lines print by default (as
 * the views and biosnoop do; what --since counts).
 */
static const char *from_first(uint64_t ts, char *buf, size_t n)
{
	return meta_secs(buf, n, ts >= env.first_ts ? ts - env.first_ts : 0);
}

static bool keep_task_dev(struct source *src, const struct source_event *ev);

/*
 * Whether the filters keep ev: 1, 0, or -AN_E_NOMEM (--filter's copy of
 * the record).
 */
static int keep_event(struct source *src, const struct source_event *ev)
{
	if (!keep_task_dev(src, ev))
		return 0;
	return env.sf ? source_filter_match(env.sf, ev) : 1;
}

/* Whether -p, -c, -d, --since and --until keep ev. */
static bool keep_task_dev(struct source *src, const struct source_event *ev)
{
	struct view_filter *f = &env.filter;

	if (!env.filtered)
		return true;
	if (!filter_time(f, ev->ts) ||
	    !filter_task(f, ev->pid, source_comm(src, ev->pid)))
		return false;
	if (f->ndevs) {
		const struct source_field *df = dev_field(src, ev);
		uint64_t dev;

		if (!df || source_field_u64(df, ev, &dev) < 0)
			return false;
		return filter_dev(f, (uint32_t)dev,
				  meta_bdevs_disk_of(&env.bdevs, (uint32_t)dev));
	}
	return true;
}

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
	list = env.events.failed ? NULL : an_strdup(env.events.buf);
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

/* --filter: the expressions into env.sf; 0, or -1 after an error line. */
static int build_exprs(struct source *src, const char *path)
{
	char why[512];

	env.sf = source_filter_new(src);
	if (!env.sf) {
		error("%s: %s", path, an_strerror(AN_E_NOMEM));
		return -1;
	}
	for (size_t i = 0; i < env.nexprs; i++)
		if (source_filter_add(env.sf, env.exprs[i], why, sizeof(why)) < 0) {
			error("%s: --filter '%s': %s; write EVENT: FIELD OP VALUE, e.g. 'block_rq_issue: nr_sector > 8 && comm ~ \"kworker*\"' (an event's fields: ioreport dump --raw -e EVENT FILE; the events: ioreport info FILE)",
			      path, env.exprs[i], why);
			return -1;
		}
	return 0;
}

/*
 * --json --raw: the event's own fields as an object of typed values:
 * numbers (signed where the format says so), strings, arrays of numbers;
 * null for a field the record does not hold (shorter than its format
 * says) and for a dynamic array of anything but characters.
 */
static void json_fields(struct json *j, struct source *src,
			const struct source_event *ev)
{
	const struct source_field *f = NULL;
	char str[4096];

	json_object_begin(j, "fields");
	while ((f = source_field_next(src, ev->id, f))) {
		const char *name = source_field_name(f);
		uint64_t u;
		int64_t s;
		int n;

		switch (source_field_kind(f, &n)) {
		case SOURCE_FIELD_STRING:
			if (source_field_str(f, ev, str, sizeof(str)))
				json_null(j, name);
			else
				json_str(j, name, str);
			break;
		case SOURCE_FIELD_ARRAY:
			json_array_begin(j, name);
			for (int i = 0; i < n; i++)
				if (source_field_array_u64(f, ev, i, &u))
					json_null(j, NULL);
				else
					json_u64(j, NULL, u);
			json_array_end(j);
			break;
		case SOURCE_FIELD_SIGNED:
			if (source_field_s64(f, ev, &s))
				json_null(j, name);
			else
				json_i64(j, name, s);
			break;
		case SOURCE_FIELD_UNSIGNED:
			if (source_field_u64(f, ev, &u))
				json_null(j, name);
			else
				json_u64(j, name, u);
			break;
		case SOURCE_FIELD_BYTES:
			json_null(j, name);
			break;
		}
	}
	json_object_end(j);
}

/* The events as one JSON object, one compact event object per line. */
static int dump_json(struct source *src, const char *path, const bool *want,
		     int maxid)
{
	struct sbuf fields = SBUF_INIT;
	const struct source_info *in;
	struct source_event ev;
	struct json j;
	char wall[64];
	int ret = 0;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_u64(&j, "schema_version", JSON_SCHEMA_VERSION);
	json_str(&j, "recording", path);
	json_array_begin(&j, "events");
	while ((ret = source_next(src, &ev)) > 0) {
		const struct source_event_type *t;
		int keep = 1;

		saw_event(&ev);
		if (want && (ev.id < 0 || ev.id > maxid || !want[ev.id]))
			keep = 0;
		else
			keep = keep_event(src, &ev);
		if (keep < 0) {
			ret = keep;
			break;
		}
		if (!keep && !ev.missed)
			continue;
		t = source_event_type(src, ev.id);
		json_object_begin(&j, NULL);
		j.compact = true;
		json_u64(&j, "ts_ns", ev.ts);
		if (env.wallclock)
			json_str(&j, "wallclock", when(src, ev.ts, wall,
						       sizeof(wall)));
		json_i64(&j, "cpu", ev.cpu);
		if (ev.missed)
			json_i64(&j, "lost_before", ev.missed);
		if (!keep) {
			/* a filtered-out event that carries a gap */
			json_object_end(&j);
			j.compact = false;
			continue;
		}
		json_i64(&j, "pid", ev.pid);
		json_str(&j, "comm", source_comm(src, ev.pid));
		json_str(&j, "system", t ? t->system : NULL);
		json_str(&j, "event", t ? t->name : NULL);
		if (env.raw) {
			json_fields(&j, src, &ev);
		} else {
			sbuf_reset(&fields);
			source_format_fields(src, &ev, false, &fields);
			json_strn(&j, "fields", fields.buf ? fields.buf : "",
				  fields.len);
		}
		json_object_end(&j);
		j.compact = false;
	}
	json_array_end(&j);
	if (ret < 0 || fields.failed) {
		error("%s: %s", path, an_strerror(ret < 0 ? ret : AN_SBUF_ERR(&fields)));
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
		{ "events", required_argument, NULL, 'e' },
		{ "raw",    no_argument,       NULL, 'r' },
		{ "json",   no_argument,       NULL, 'j' },
		{ "help",   no_argument,       NULL, 'h' },
		{ "pid",    required_argument, NULL, 'p' },
		{ "comm",   required_argument, NULL, 'c' },
		{ "dev",    required_argument, NULL, 'd' },
		{ "since",  required_argument, NULL, OPT_SINCE },
		{ "until",  required_argument, NULL, OPT_UNTIL },
		{ "wallclock", no_argument,    NULL, OPT_WALLCLOCK },
		{ "trace-clock", no_argument,  NULL, OPT_TRACE_CLOCK },
		{ "cpu",    required_argument, NULL, OPT_CMD },
		{ "filter", required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	struct sbuf line = SBUF_INIT;
	struct source_event ev;
	struct driver d = { 0 };
	char wall[64];
	struct source *src;
	bool *want = NULL;
	int maxid = 0, c, ret = 0;
	long v;

	env.cpu = -1;
	optind = 1;
	opterr = 0;		/* the messages below name the option */
	while ((c = getopt_long(argc, argv, ":c:e:F:rjhp:d:", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
		case 'd':
		case 'c':
		case OPT_COMM:
		case OPT_SINCE:
		case OPT_UNTIL:
			if (parse_filter(dump_usage, c == OPT_COMM ? 'c' : c,
					 optarg, &env.filter))
				return 2;
			env.filtered = true;
			break;
		case OPT_CMD:	/* --cpu */
			if (parse_count(dump_usage, "cpu", optarg, 0, 65535, &v))
				return 2;
			env.cpu = (int)v;
			break;
		case 'e':
			if (env.events.len)
				sbuf_addch(&env.events, ',');
			sbuf_addstr(&env.events, optarg);
			break;
		case 'F': {
			char **v = an_reallocarray(env.exprs, env.nexprs + 1,
						   sizeof(*v));

			if (!v) {
				error("%s", an_strerror(AN_E_NOMEM));
				return 1;
			}
			env.exprs = v;
			env.exprs[env.nexprs++] = optarg;
			break;
		}
		case 'r':
			env.raw = true;
			break;
		case OPT_WALLCLOCK:
			env.wallclock = true;
			break;
		case OPT_TRACE_CLOCK:
			env.trace_clock = true;
			break;
		case 'j':
			env.json = true;
			break;
		default:	/* -h, and the errors */
			return cmd_option(dump_usage, c, argv, NULL);
		}
	}
	if (check_filter(dump_usage, &env.filter))
		return 2;
	if (argc - optind != 1) {
		sbuf_release(&env.events);
		return usage_error(dump_usage, "dump wants exactly one FILE");
	}

	/*
	 * the events themselves, without the stages; the filters' names and
	 * times of day resolved as in the views
	 */
	if (cmd_open(&d, argv[optind], 0, &env.filter)) {
		ret = 1;
		goto out;
	}
	src = d.src;
	if (env.filtered) {
		if (meta_bdevs_load(&env.bdevs, d.info->snapshot_start) < 0) {
			ret = 1;
			goto out;
		}
		d.filter = NULL;	/* the driver does not run */
	}
	if (env.events.len &&
	    build_filter(src, argv[optind], &want, &maxid) < 0) {
		ret = 1;
		goto out;
	}
	if (env.nexprs && build_exprs(src, argv[optind]) < 0) {
		ret = 1;
		goto out;
	}
	if (env.cpu >= 0 && env.cpu >= source_info(src)->nr_cpus)
		warning("%s: no CPU %d in this recording (it has %d)",
			argv[optind], env.cpu, source_info(src)->nr_cpus);
	source_set_cpu(src, env.cpu);
	/* a .iorec knows its first event before reading (--cpu reads one CPU) */
	if (env.filtered && source_info(src)->first_ts)
		env.filter.base_ts = source_info(src)->first_ts;
	env.first_ts = source_info(src)->first_ts;
	if (env.wallclock && !when(src, source_info(src)->first_ts, wall,
				   sizeof(wall)))
		warning("%s: no wall clock in the recording (start_realtime_ns and start_mono_ns of a mono-clock header): times are seconds of the trace clock",
			argv[optind]);

	if (env.json) {
		ret = dump_json(src, argv[optind], want, maxid);
		goto out;
	}
	while ((ret = source_next(src, &ev)) > 0) {
		saw_event(&ev);
		if (ev.missed > 0)
			printf("CPU %d: [LOST %lld EVENTS]\n", ev.cpu,
			       ev.missed);
		else if (ev.missed < 0)
			printf("CPU %d: [LOST EVENTS]\n", ev.cpu);
		if (want && (ev.id < 0 || ev.id > maxid || !want[ev.id]))
			continue;
		if ((c = keep_event(src, &ev)) < 0) {
			ret = c;
			break;
		}
		if (!c)
			continue;
		sbuf_reset(&line);
		source_format_event(src, &ev, env.raw,
				    env.wallclock ? when(src, ev.ts, wall,
							 sizeof(wall)) :
				    env.trace_clock ?
				    meta_secs(wall, sizeof(wall), ev.ts) :
				    from_first(ev.ts, wall, sizeof(wall)),
				    &line);
		sbuf_addch(&line, '\n');
		if (line.failed)
			break;
		fwrite(line.buf, 1, line.len, stdout);
	}
	if (ret < 0 || line.failed) {
		error("%s: %s", argv[optind],
		      an_strerror(ret < 0 ? ret : AN_SBUF_ERR(&line)));
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
	source_filter_free(env.sf);
	free(env.exprs);
	free(env.dev);
	free(env.dev_known);
	meta_bdevs_release(&env.bdevs);
	sbuf_release(&line);
	sbuf_release(&env.events);
	filter_release(&env.filter);
	driver_close(&d);
	return ret;
}
