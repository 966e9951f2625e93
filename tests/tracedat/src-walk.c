// SPDX-License-Identifier: MIT
/*
 * src-walk.c - walks a recording through ioreport's input layer
 * (source_open, source_next) and prints what it yields, a test program,
 * not installed: the event types, then per CPU the events, the records
 * that carry lost events and their counts, and a hash of every record's
 * timestamp, size and bytes (tdtool.h), so that the two trace.dat paths
 * (the formats/ reader, and libtracecmd with IOREPORT_TRACEDAT=libtracecmd)
 * can be compared event for event.  -e prints one line per event instead.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "input/source.h"
#include "tdtool.h"

struct cpu {
	uint64_t events, lost, lost_events, hash;
};

int main(int argc, char **argv)
{
	struct source_event ev;
	struct an_err err;
	struct source *src;
	struct source_event_type *t;
	const struct source_info *in;
	struct cpu *cpus;
	bool each = argc == 3 && !strcmp(argv[1], "-e");
	uint64_t total = 0;
	int n, ret;
	char *w;

	if (argc != 2 && !each) {
		fprintf(stderr, "usage: src-walk [-e] RECORDING\n");
		return 2;
	}
	src = source_open(argv[argc - 1], &err);
	if (!src) {
		fprintf(stderr, "src-walk: %s\n", err.msg);
		return 1;
	}
	in = source_info(src);
	cpus = calloc((size_t)in->nr_cpus + 1, sizeof(*cpus));
	if (!cpus)
		return 1;
	for (int i = 0; i < in->nr_cpus; i++)
		cpus[i].hash = TD_FNV_INIT;
	while ((ret = source_next(src, &ev)) > 0) {
		struct cpu *c = &cpus[ev.cpu];

		c->events++;
		total++;
		if (ev.missed) {
			c->lost++;
			if (ev.missed > 0)
				c->lost_events += (uint64_t)ev.missed;
		}
		c->hash = td_fnv_record(c->hash, ev.ts, (uint32_t)ev.size,
					ev.data);
		if (each)
			printf("%d %" PRIu64 " %d %d %lld\n", ev.cpu, ev.ts,
			       ev.id, ev.size, ev.missed);
	}
	while ((w = source_warning(src))) {
		fprintf(stderr, "src-walk: warning: %s\n", w);
		free(w);
	}
	if (ret < 0) {
		fprintf(stderr, "src-walk: %s\n", an_strerror(ret));
		return 1;
	}
	t = source_event_types(src, &n);
	if (!each) {
		printf("types %d\n", n);
		for (int i = 0; i < n; i++)
			printf("type %s:%s %d %" PRIu64 "\n", t[i].system,
			       t[i].name, t[i].id, t[i].count);
		for (int i = 0; i < in->nr_cpus; i++)
			if (cpus[i].events)
				printf("cpu %d events %" PRIu64 " lost %" PRIu64
				       " lost_events %" PRIu64 " hash %016"
				       PRIx64 "\n", i, cpus[i].events,
				       cpus[i].lost, cpus[i].lost_events,
				       cpus[i].hash);
		printf("events %" PRIu64 "\n", total);
	}
	free(cpus);
	source_close(src);
	return 0;
}
