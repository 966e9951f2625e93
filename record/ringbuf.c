// SPDX-License-Identifier: MIT
/*
 * ringbuf.c - reading the per-CPU ring buffers of the instance in whole
 * sub-buffers, batching them per CPU into DATA chunks, and the flight
 * recorder that keeps only the newest compressed batches in memory.
 *
 * One thread polls every CPU's trace_pipe_raw; the kernel makes a buffer
 * readable when it is buffer_percent full, so a quiet machine costs few
 * wake-ups.  Full pages are spliced out as they come; the partial page a
 * CPU is writing is fetched every flush interval, so an idle CPU never
 * holds old events back.  kbuffer (libtraceevent) walks each page only to
 * count its events and find the first and last timestamps.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>
#include <tracefs.h>

#include "iorec-format.h"
#include "record.h"

struct rb_cpu {
	int cpu;
	int fd;			/* per_cpu/cpuN/trace_pipe_raw, owned */
	struct tracefs_cpu *tcpu;
	uint8_t *batch;		/* batch_pages sub-buffers */
	uint32_t npages;	/* sub-buffers in the batch */
	bool have_ts;
	uint64_t first_ts, last_ts;
	uint64_t batch_mono;	/* when the batch got its first page */
	uint64_t pages, missed_pages;
};

/* A compressed DATA batch kept by the flight recorder. */
struct flight_chunk {
	struct flight_chunk *next;
	uint8_t desc[IOREC_DATA_DESC_LEN];
	uint8_t *z;
	size_t zlen;
	size_t raw_len;
	uint64_t last_ts;
};

struct ringbuf {
	struct ringbuf_opts o;
	struct iorec_writer *w;
	struct rb_cpu *cpus;
	struct pollfd *pfd;
	struct kbuffer *kbuf;
	uint32_t batch_pages;
	struct ringbuf_totals t;
	struct flight_chunk *head, *tail;	/* oldest first */
	uint64_t flight_used;
	uint64_t data_limit;	/* 0: none */
	bool limit_reached;
};

void ringbuf_set_data_limit(struct ringbuf *rb, uint64_t limit)
{
	rb->data_limit = limit;
}

bool ringbuf_limit_reached(const struct ringbuf *rb)
{
	return rb->limit_reached;
}

/*
 * Write one batch under the size limit: compress it first to know its
 * size, and drop it (counted) when it would carry the file past the
 * limit.  Returns 0 or a negative iorec_error.
 */
static int limited_add(struct ringbuf *rb, const uint8_t *desc,
		       const uint8_t *batch, size_t len, uint32_t npages)
{
	uint64_t used = iorec_writer_written(rb->w) +
			iorec_writer_pending(rb->w);
	uint8_t *z;
	size_t zlen;
	int ret;

	if (rb->limit_reached) {
		rb->t.limit_dropped_pages += npages;
		return 0;
	}
	ret = iorec_compress(rb->o.zstd_level, batch, len, &z, &zlen);
	if (ret < 0)
		return ret;
	if (used + IOREC_CHUNK_HEADER_LEN + IOREC_DATA_DESC_LEN + zlen >
	    rb->data_limit) {
		rb->limit_reached = true;
		rb->t.limit_dropped_pages += npages;
		free(z);
		return 0;
	}
	ret = iorec_writer_add_compressed(rb->w, IOREC_CHUNK_DATA, desc,
					  IOREC_DATA_DESC_LEN, z, zlen, len);
	free(z);
	return ret;
}

/* Close every CPU and free everything; accepts NULL. */
void ringbuf_close(struct ringbuf *rb)
{
	struct flight_chunk *fc, *next;
	int i;

	if (!rb)
		return;
	for (i = 0; rb->cpus && i < rb->o.ncpus; i++) {
		struct rb_cpu *c = &rb->cpus[i];

		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->fd >= 0)
			close(c->fd);
		free(c->batch);
	}
	for (fc = rb->head; fc; fc = next) {
		next = fc->next;
		free(fc->z);
		free(fc);
	}
	if (rb->kbuf)
		kbuffer_free(rb->kbuf);
	free(rb->cpus);
	free(rb->pfd);
	free(rb);
}

static int cpu_open(struct ringbuf *rb, struct tracefs_instance *inst,
		    struct rb_cpu *c)
{
	char path[64];

	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", c->cpu);
	c->fd = tracefs_instance_file_open(inst, path,
					   O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0)
		return error("cannot open %s of the instance: %m", path);
	c->tcpu = tracefs_cpu_alloc_fd(c->fd, rb->o.subbuf_size, true);
	if (!c->tcpu)
		return error("cannot read %s: out of memory", path);
	/* Grows as pages come: an idle CPU's batch stays untouched. */
	c->batch = xmalloc((size_t)rb->batch_pages * rb->o.subbuf_size);
	rb->pfd[c->cpu].fd = c->fd;
	rb->pfd[c->cpu].events = POLLIN;
	return 0;
}

struct ringbuf *ringbuf_open(struct tracefs_instance *inst,
			     const struct ringbuf_opts *o,
			     struct iorec_writer *w)
{
	struct ringbuf *rb = xcalloc(1, sizeof(*rb));
	int i;

	rb->o = *o;
	rb->w = w;
	rb->batch_pages = (uint32_t)(o->batch_bytes / (size_t)o->subbuf_size);
	if (!rb->batch_pages)
		rb->batch_pages = 1;
	rb->cpus = xcalloc((size_t)o->ncpus, sizeof(*rb->cpus));
	rb->pfd = xcalloc((size_t)o->ncpus, sizeof(*rb->pfd));
	for (i = 0; i < o->ncpus; i++)
		rb->cpus[i].fd = -1;
	rb->kbuf = kbuffer_alloc(o->long_size == 4 ? KBUFFER_LSIZE_4 :
				 KBUFFER_LSIZE_8, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!rb->kbuf) {
		error("out of memory");
		goto fail;
	}
	for (i = 0; i < o->ncpus; i++) {
		rb->cpus[i].cpu = i;
		if (cpu_open(rb, inst, &rb->cpus[i]) < 0)
			goto fail;
	}
	return rb;
fail:
	ringbuf_close(rb);
	return NULL;
}

int ringbuf_wait(struct ringbuf *rb, int timeout_ms)
{
	int n = poll(rb->pfd, (nfds_t)rb->o.ncpus, timeout_ms);

	if (n < 0 && errno == EINTR)
		return -1;
	if (n < 0) {
		/* not expected with valid fds; behave as a timeout */
		return 0;
	}
	return n;
}

/* Drop the flight chunk with the oldest last_ts. */
static void flight_drop_oldest(struct ringbuf *rb)
{
	struct flight_chunk *fc, *prev = NULL, *min = rb->head, *min_prev = NULL;

	for (fc = rb->head; fc; prev = fc, fc = fc->next) {
		if (fc->last_ts < min->last_ts) {
			min = fc;
			min_prev = prev;
		}
	}
	if (min_prev)
		min_prev->next = min->next;
	else
		rb->head = min->next;
	if (rb->tail == min)
		rb->tail = min_prev;
	rb->flight_used -= min->zlen + IOREC_DATA_DESC_LEN;
	rb->t.flight_discarded++;
	if (min->last_ts > rb->t.flight_cutoff_ts)
		rb->t.flight_cutoff_ts = min->last_ts;
	free(min->z);
	free(min);
}

/* Compress a batch and keep it, dropping the oldest beyond the limit. */
static int flight_add(struct ringbuf *rb, const uint8_t *desc,
		      const uint8_t *body, size_t len, uint64_t last_ts)
{
	struct flight_chunk *fc = xcalloc(1, sizeof(*fc));
	int ret;

	ret = iorec_compress(rb->o.zstd_level, body, len, &fc->z, &fc->zlen);
	if (ret < 0) {
		free(fc);
		return ret;
	}
	memcpy(fc->desc, desc, IOREC_DATA_DESC_LEN);
	fc->raw_len = len;
	fc->last_ts = last_ts;
	if (rb->tail)
		rb->tail->next = fc;
	else
		rb->head = fc;
	rb->tail = fc;
	rb->flight_used += fc->zlen + IOREC_DATA_DESC_LEN;
	while (rb->flight_used > rb->o.flight_bytes && rb->head != rb->tail)
		flight_drop_oldest(rb);
	return 0;
}

/* Turn the CPU's batch into one DATA chunk.  Returns 0 or an iorec_error. */
static int batch_cut(struct ringbuf *rb, struct rb_cpu *c)
{
	struct iorec_data_desc d = {
		.cpu = (uint32_t)c->cpu,
		.npages = c->npages,
		.subbuf_size = (uint32_t)rb->o.subbuf_size,
		.first_ts = c->first_ts,
		.last_ts = c->last_ts,
	};
	uint8_t desc[IOREC_DATA_DESC_LEN];
	size_t len = (size_t)c->npages * rb->o.subbuf_size;
	int ret;

	if (!c->npages)
		return 0;
	iorec_data_desc_encode(&d, desc);
	if (rb->o.flight_bytes)
		ret = flight_add(rb, desc, c->batch, len, c->last_ts);
	else if (rb->data_limit)
		ret = limited_add(rb, desc, c->batch, len, c->npages);
	else
		ret = iorec_writer_add(rb->w, IOREC_CHUNK_DATA, desc,
				       sizeof(desc), c->batch, len, true);
	c->npages = 0;
	c->have_ts = false;
	c->first_ts = c->last_ts = 0;
	if (ret < 0)
		return ret;
	rb->t.chunks++;
	return 0;
}

/*
 * Account the page just read into the batch's next slot (@n bytes):
 * count events, take timestamps, keep it unless it holds nothing.
 */
static int page_add(struct ringbuf *rb, struct rb_cpu *c, int n)
{
	uint8_t *page = c->batch + (size_t)c->npages * rb->o.subbuf_size;
	unsigned long long ts;
	uint64_t events = 0;
	int missed;
	void *data;

	if (n < rb->o.subbuf_size)
		memset(page + n, 0, (size_t)(rb->o.subbuf_size - n));
	if (kbuffer_load_subbuffer(rb->kbuf, page) < 0)
		return 0;
	missed = kbuffer_missed_events(rb->kbuf);
	for (data = kbuffer_read_event(rb->kbuf, &ts); data;
	     data = kbuffer_next_event(rb->kbuf, &ts)) {
		if (!c->have_ts) {
			c->first_ts = ts;
			c->have_ts = true;
		}
		c->last_ts = ts;
		events++;
	}
	if (!events && !missed)
		return 0;
	if (!c->npages)
		c->batch_mono = now_mono_ns();
	c->npages++;
	c->pages++;
	c->missed_pages += missed != 0;
	rb->t.events += events;
	rb->t.pages++;
	rb->t.raw_bytes += (uint64_t)rb->o.subbuf_size;
	if (c->npages == rb->batch_pages)
		return batch_cut(rb, c);
	return 0;
}

/*
 * Read up to @max sub-buffers of one CPU: whole pages only (splice), or
 * with @partial also the page the kernel is still filling.
 */
static int cpu_drain(struct ringbuf *rb, struct rb_cpu *c, bool partial,
		     uint32_t max)
{
	uint32_t i;
	int n, ret;

	for (i = 0; i < max; i++) {
		uint8_t *slot = c->batch + (size_t)c->npages * rb->o.subbuf_size;

		if (partial)
			n = tracefs_cpu_flush(c->tcpu, slot);
		else
			n = tracefs_cpu_buffered_read(c->tcpu, slot, true);
		if (n <= 0)
			break;
		ret = page_add(rb, c, n);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int ringbuf_read(struct ringbuf *rb, bool all)
{
	uint64_t now = now_mono_ns();
	int i, ret;

	for (i = 0; i < rb->o.ncpus; i++) {
		struct rb_cpu *c = &rb->cpus[i];
		short rev = rb->pfd[i].revents;

		rb->pfd[i].revents = 0;
		if (rev & (POLLIN | POLLERR | POLLHUP)) {
			ret = cpu_drain(rb, c, false, 2 * rb->batch_pages);
			if (ret < 0)
				return ret;
		}
		if (all) {
			ret = cpu_drain(rb, c, true, 2 * rb->batch_pages);
			if (ret < 0)
				return ret;
		}
		if (c->npages && now - c->batch_mono >= rb->o.flush_ns) {
			ret = batch_cut(rb, c);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int ringbuf_finish(struct ringbuf *rb)
{
	struct flight_chunk *fc;
	int i, ret;

	for (i = 0; i < rb->o.ncpus; i++) {
		struct rb_cpu *c = &rb->cpus[i];

		/* tracing is off: this ends when the buffer is empty */
		ret = cpu_drain(rb, c, true, UINT32_MAX);
		if (ret < 0)
			return ret;
		ret = batch_cut(rb, c);
		if (ret < 0)
			return ret;
	}
	if (!rb->o.flight_bytes)
		return 0;
	for (fc = rb->head; fc; fc = fc->next) {
		ret = iorec_writer_add_compressed(rb->w, IOREC_CHUNK_DATA,
						  fc->desc, sizeof(fc->desc),
						  fc->z, fc->zlen, fc->raw_len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void ringbuf_totals(const struct ringbuf *rb, struct ringbuf_totals *t)
{
	*t = rb->t;
}

void ringbuf_cpu_pages(const struct ringbuf *rb, int cpu, uint64_t *pages,
		       uint64_t *missed)
{
	*pages = rb->cpus[cpu].pages;
	*missed = rb->cpus[cpu].missed_pages;
}
