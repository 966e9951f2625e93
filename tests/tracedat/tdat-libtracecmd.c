// SPDX-License-Identifier: MIT
/*
 * tdat-libtracecmd.c - reads a trace.dat with libtracecmd's public API
 * and prints per CPU what tdat-walk prints from the formats/ reader:
 * events, records with missed events, the missed-event counts and the
 * hash of the records (a test and benchmark program, not installed).
 *
 * Default: each CPU with tracecmd_read_cpu_first() / tracecmd_read_data().
 * -i: all CPUs merged, with tracecmd_iterate_events() (the benchmark's
 * "libtracecmd iteration").  -b NAME: the buffer instance NAME instead of
 * the top one.  -w: the lines of src-walk (ioreport's input layer) for
 * the same file: "type SYSTEM:NAME ID COUNT" of every event type with
 * records, then per CPU with records "cpu N events E lost L lost_events
 * M hash H" and "events TOTAL", so a test compares the two with diff.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "tdtool.h"

struct cpu {
	uint64_t events, lost, lost_events, hash;
};

/*
 * In the sanitizer build: libtracecmd 3.1 leaks the clock name of every
 * version 6 file (extract_trace_clock's sscanf("%ms") runs for the
 * TRACECLOCK option and again for the flyrecord clock, and the first
 * string is lost).  Not ours to fix; this reference program only reads
 * through libtracecmd, so its leaks are not checked.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static struct cpu *cpus;
static int ncpus;
static struct tep_handle *tep;
static uint64_t type_count[65536];	/* records per event id */

static void take(struct tep_record *rec)
{
	struct cpu *c;

	if (rec->cpu < 0 || rec->cpu >= ncpus)
		return;
	c = &cpus[rec->cpu];
	c->events++;
	if (rec->missed_events) {
		c->lost++;
		if (rec->missed_events > 0)
			c->lost_events += (uint64_t)rec->missed_events;
	}
	c->hash = td_fnv_record(c->hash, rec->ts, (uint32_t)rec->size, rec->data);
	if (tep) {
		int id = tep_data_type(tep, rec);

		if (id >= 0 && id < 65536)
			type_count[id]++;
	}
}

static int each(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		void *data)
{
	take(rec);
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h, *top = NULL;
	const char *buffer = NULL;
	bool iterate = false, walk = false;
	uint64_t total = 0;
	int opt;

	while ((opt = getopt(argc, argv, "ib:wh")) != -1) {
		switch (opt) {
		case 'i': iterate = true; break;
		case 'w': walk = true; break;
		case 'b': buffer = optarg; break;
		default:
			fputs("usage: tdat-libtracecmd [-i] [-w] [-b BUFFER] FILE\n",
			      opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1) {
		fputs("usage: tdat-libtracecmd [-i] [-w] [-b BUFFER] FILE\n", stderr);
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(argv[optind], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "tdat-libtracecmd: %s: libtracecmd cannot open it\n",
			argv[optind]);
		return 1;
	}
	if (buffer) {
		int n = tracecmd_buffer_instances(h), i;

		for (i = 0; i < n; i++)
			if (!strcmp(tracecmd_buffer_instance_name(h, i), buffer))
				break;
		top = h;
		h = i < n ? tracecmd_buffer_instance_handle(top, i) : NULL;
		if (!h) {
			fprintf(stderr, "tdat-libtracecmd: %s: no buffer \"%s\"\n",
				argv[optind], buffer);
			tracecmd_close(top);
			return 1;
		}
	}
	ncpus = tep_get_cpus(tracecmd_get_tep(h));
	if (walk)
		tep = tracecmd_get_tep(h);
	cpus = calloc(ncpus > 0 ? (size_t)ncpus : 1, sizeof(*cpus));
	if (!cpus)
		return 1;
	for (int i = 0; i < ncpus; i++)
		cpus[i].hash = TD_FNV_INIT;
	if (iterate) {
		tracecmd_iterate_events(h, NULL, 0, each, NULL);
	} else {
		for (int i = 0; i < ncpus; i++) {
			struct tep_record *rec = tracecmd_read_cpu_first(h, i);

			while (rec) {
				take(rec);
				tracecmd_free_record(rec);
				rec = tracecmd_read_data(h, i);
			}
		}
	}
	for (int id = 0; walk && id < 65536; id++) {
		struct tep_event *ev;

		if (!type_count[id])
			continue;
		ev = tep_find_event(tep, id);
		printf("type %s:%s %d %" PRIu64 "\n", ev ? ev->system : "?",
		       ev ? ev->name : "?", id, type_count[id]);
	}
	for (int i = 0; i < ncpus; i++) {
		total += cpus[i].events;
		if (walk && !cpus[i].events)
			continue;
		printf(walk ? "cpu %d events %" PRIu64 " lost %" PRIu64
		       " lost_events %" PRIu64 " hash %016" PRIx64 "\n" :
		       "cpu %d events %" PRIu64 " kb_lost %" PRIu64
		       " kb_lost_events %" PRIu64 " rec_hash %016" PRIx64 "\n",
		       i, cpus[i].events, cpus[i].lost, cpus[i].lost_events,
		       cpus[i].hash);
	}
	printf("events %" PRIu64 "\n", total);
	free(cpus);
	tracecmd_close(h);
	tracecmd_close(top);
	return 0;
}
