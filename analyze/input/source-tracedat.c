// SPDX-License-Identifier: MIT
/*
 * source-tracedat.c - a trace.dat recording for source.c, checked by
 * tracedat-guard.c and then read through libtracecmd.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>
#include <trace-cmd/trace-cmd.h>

#include "iorec-format.h"
#include "util.h"
#include "base/err.h"
#include "input/source.h"
#include "input/source-priv.h"
#include "input/meta.h"
#include "input/damage.h"
#include "input/ftrace-guard.h"
#include "input/tracedat-guard.h"

/* ------------------------------------------------------------------ */
/* trace.dat */

static bool tracedat_has_data(struct tracecmd_input *h)
{
	int ncpus = tep_get_cpus(tracecmd_get_tep(h));

	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct tep_record *r = tracecmd_read_cpu_first(h, cpu);

		if (r) {
			tracecmd_free_record(r);
			return true;
		}
	}
	return false;
}

int src_tracedat_load(struct source *src, const uint8_t *magic, size_t n,
			 struct an_err *e)
{
	struct source_info *in = &src->info;
	struct tracedat_patches patches;
	const char *why;
	uint64_t off;
	int fd, ncpus, ret, *replaced;
	size_t nreplaced;

	/* The version follows the magic as a NUL-terminated decimal. */
	if (n > TRACEDAT_MAGIC_LEN)
		in->version_major = (unsigned int)atoi(
			(const char *)magic + TRACEDAT_MAGIC_LEN);
	/* guard: the structure and texts before libtracecmd trusts them */
	ret = tracedat_guard(src->fd, &patches, &why, &off);
	if (ret == -AN_E_NOMEM)
		return an_nomem(e, src->path);
	if (ret < 0)
		return an_fail(e, AN_E_DAMAGED, "%s: corrupt trace.dat at offset %llu: %s",
			       src->path, (unsigned long long)off, why);
	in->replaced_prints = patches.formats;
	in->replaced_offset = patches.first_offset;
	in->replaced_reason = patches.first_reason;
	fd = patches.n ? tracedat_patched_copy(src->fd, &patches) :
	     dup(src->fd);
	replaced = patches.ids;
	nreplaced = patches.nids;
	patches.ids = NULL;
	tracedat_patches_release(&patches);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		an_fail(e, AN_E_IO, "%s: %s", src->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(replaced);
		return -AN_E_IO;
	}
	src->handle = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!src->handle) {
		free(replaced);
		return an_fail(e, AN_E_FORMAT, "%s: cannot read this trace.dat (version %u) with libtracecmd: corrupt, truncated or of an unsupported version",
			       src->path, in->version_major);
	}
	in->trace_buffers = tracecmd_buffer_instances(src->handle);
	if (in->trace_buffers > 0 && !tracedat_has_data(src->handle)) {
		/* trace-cmd record -B: the events are in an instance */
		for (int i = 0; i < in->trace_buffers; i++) {
			struct tracecmd_input *h =
				tracecmd_buffer_instance_handle(src->handle,
								i);

			if (h && tracedat_has_data(h)) {
				src->parent = src->handle;
				src->handle = h;
				in->buffer_name = tracecmd_buffer_instance_name(
					src->parent, i);
				break;
			}
			if (h)
				tracecmd_close(h);
		}
	}
	src->tep = tracecmd_get_tep(src->handle);
	/* dump prints them as trace-cmd does (see load_meta()) */
	for (size_t i = 0; i < nreplaced; i++) {
		struct tep_event *ev = tep_find_event(src->tep, replaced[i]);

		if (ev)
			ev->flags |= TEP_EVENT_FL_FAILED;
	}
	free(replaced);
	in->big_endian = tep_is_file_bigendian(src->tep);
	in->long_size = tep_get_long_size(src->tep);
	in->page_size = (uint32_t)tep_get_page_size(src->tep);
	in->subbuf_size = (uint32_t)tep_get_sub_buffer_size(src->tep);
	if (!in->page_size)
		in->page_size = in->subbuf_size;
	ncpus = tep_get_cpus(src->tep);
	in->ncpus = ncpus > 0 ? (uint32_t)ncpus : 0;
	in->header_text = an_strdup("");
	if (!in->header_text || (ncpus > 0 && !src_ensure_cpu(src, ncpus - 1)))
		return an_nomem(e, src->path);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct tep_record *r = tracecmd_read_cpu_first(src->handle,
							       cpu);

		if (!r)
			continue;
		in->cpus[cpu].present = true;
		in->cpus[cpu].first_ts = r->ts;
		if (!in->first_ts || r->ts < in->first_ts)
			in->first_ts = r->ts;
		tracecmd_free_record(r);
	}
	/* first_ts/last_ts get their final values while iterating. */
	return 0;
}

void src_tracedat_next(struct source *src, struct cursor *cur)
{
	if (cur->trec) {
		tracecmd_free_record(cur->trec);
		cur->trec = NULL;
	}
	cur->valid = false;
	if (cur->done)
		return;
	cur->trec = src->started ? tracecmd_read_data(src->handle, cur->cpu) :
		tracecmd_read_cpu_first(src->handle, cur->cpu);
	if (!cur->trec) {
		cur->done = true;
		return;
	}
	if (cur->trec->missed_events) {
		struct source_cpu *sc = &src->info.cpus[cur->cpu];

		sc->missed_pages++;
		if (cur->trec->missed_events > 0)
			sc->missed_events +=
				(uint64_t)cur->trec->missed_events;
	}
	cur->valid = true;
}
