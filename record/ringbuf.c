// SPDX-License-Identifier: MIT
/*
 * ringbuf.c - reading the per-CPU ring buffers of the instance in whole
 * sub-buffers, batching them per CPU into DATA chunks, and the flight
 * recorder that keeps only the newest compressed batches in memory.
 *
 * The CPUs are split into groups, each read by one thread (on a machine
 * of one or two CPUs, one group read by the main loop, no thread at all).
 * A group polls its CPUs' trace_pipe_raw; the kernel makes a buffer
 * readable when it is buffer_percent full, so a quiet machine costs few
 * wake-ups.  Full pages are spliced out as they come, as many as the
 * batch has room for in one splice() and one read() through the CPU's
 * own pipe; the partial page a CPU is writing is fetched every flush
 * interval, so an idle CPU never holds old events back.  kbuffer
 * (libtraceevent) walks each page only to count its events and find the
 * first and last timestamps.  A group
 * compresses its batches with its own zstd context, outside any lock, and
 * appends the chunk to the one writer under the writer lock: the chunks of
 * one CPU are written in time order (one group owns the CPU), those of
 * different CPUs interleave, which is what iorec(5) allows.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <kbuffer.h>
#include <tracefs.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "iorec-format.h"
#include "record.h"

struct rb_cpu {
	int cpu;
	int fd;			/* per_cpu/cpuN/trace_pipe_raw, owned */
	struct tracefs_cpu *tcpu;
	int pipe[2];		/* full pages spliced in, read out at once */
	size_t pipe_cap;	/* bytes the pipe holds; 0: no splice */
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

/* The CPUs one thread reads, and what that thread owns. */
struct rb_group {
	struct ringbuf *rb;
	struct rb_cpu *cpus;
	int ncpus;
	struct pollfd *pfd;	/* ncpus + 1: the last is the stop pipe */
	struct kbuffer *kbuf;
	ZSTD_CCtx *cctx;	/* its own compression context */
	uint8_t *zbuf;
	size_t zcap;
	uint64_t events, pages, raw_bytes, chunks;	/* atomic adds */
	uint64_t last_all;
	pthread_t thread;
	bool running;
};

struct ringbuf {
	struct ringbuf_opts o;
	struct iorec_writer *w;
	uint32_t batch_pages;
	struct rb_group *g;
	int ngroups;
	bool threaded;
	bool pipes;		/* a pipe per CPU: the descriptors allow it */
	int stop[2];		/* a byte on stop[1] ends the threads */
	int err;		/* first writer error of a thread (atomic) */
	pthread_mutex_t wlock;	/* the writer and what follows, threaded */
	struct flight_chunk *head, *tail;	/* oldest first */
	uint64_t flight_used;
	uint64_t flight_discarded, flight_cutoff_ts;
	uint64_t data_limit;	/* 0: none */
	bool limit_reached;
	uint64_t limit_dropped_pages;
};

#define ADD(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define GET(p)		__atomic_load_n((p), __ATOMIC_RELAXED)

void ringbuf_lock(struct ringbuf *rb)
{
	if (rb && rb->threaded)
		pthread_mutex_lock(&rb->wlock);
}

void ringbuf_unlock(struct ringbuf *rb)
{
	if (rb && rb->threaded)
		pthread_mutex_unlock(&rb->wlock);
}

void ringbuf_set_data_limit(struct ringbuf *rb, uint64_t limit)
{
	rb->data_limit = limit;
}

struct iorec_writer *ringbuf_set_writer(struct ringbuf *rb,
					struct iorec_writer *w)
{
	struct iorec_writer *old = rb->w;

	rb->w = w;
	return old;
}

bool ringbuf_limit_reached(const struct ringbuf *rb)
{
	return GET(&rb->limit_reached);
}

/* Compress a batch with the group's context into g->zbuf. */
static int group_compress(struct rb_group *g, const uint8_t *src, size_t len,
			  size_t *zlen)
{
	size_t n, bound = ZSTD_compressBound(len);

	if (!g->cctx) {
		g->cctx = ZSTD_createCCtx();
		if (!g->cctx)
			return -IOREC_E_NOMEM;
		ZSTD_CCtx_setParameter(g->cctx, ZSTD_c_compressionLevel,
				       g->rb->o.zstd_level);
	}
	if (g->zcap < bound) {
		free(g->zbuf);
		g->zbuf = malloc(bound);
		g->zcap = g->zbuf ? bound : 0;
		if (!g->zbuf)
			return -IOREC_E_NOMEM;
	}
	n = ZSTD_compress2(g->cctx, g->zbuf, g->zcap, src, len);
	if (ZSTD_isError(n))
		return ZSTD_getErrorCode(n) == ZSTD_error_memory_allocation ?
		       -IOREC_E_NOMEM : -IOREC_E_COMPRESS;
	*zlen = n;
	return 0;
}

/*
 * Append a compressed batch under the size limit (writer lock held):
 * drop it (counted) when it would carry the file past the limit.
 */
static int limited_add(struct ringbuf *rb, const uint8_t *desc,
		       const uint8_t *z, size_t zlen, size_t len,
		       uint32_t npages)
{
	uint64_t used = iorec_writer_written(rb->w) +
			iorec_writer_pending(rb->w);

	if (rb->limit_reached ||
	    used + IOREC_CHUNK_HEADER_LEN + IOREC_DATA_DESC_LEN + zlen >
	    rb->data_limit) {
		__atomic_store_n(&rb->limit_reached, true, __ATOMIC_RELAXED);
		rb->limit_dropped_pages += npages;
		return 0;
	}
	return iorec_writer_add_compressed(rb->w, IOREC_CHUNK_DATA, desc,
					   IOREC_DATA_DESC_LEN, z, zlen, len);
}

static void group_release(struct rb_group *g)
{
	int i;

	for (i = 0; g->cpus && i < g->ncpus; i++) {
		struct rb_cpu *c = &g->cpus[i];

		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->pipe[0] >= 0) {
			close(c->pipe[0]);
			close(c->pipe[1]);
		}
		if (c->fd >= 0)
			close(c->fd);
		free(c->batch);
	}
	if (g->kbuf)
		kbuffer_free(g->kbuf);
	ZSTD_freeCCtx(g->cctx);
	free(g->zbuf);
	free(g->cpus);
	free(g->pfd);
}

/* Close every CPU and free everything; accepts NULL. */
void ringbuf_close(struct ringbuf *rb)
{
	struct flight_chunk *fc, *next;
	int i;

	if (!rb)
		return;
	ringbuf_stop_threads(rb);
	for (i = 0; rb->g && i < rb->ngroups; i++)
		group_release(&rb->g[i]);
	for (fc = rb->head; fc; fc = next) {
		next = fc->next;
		free(fc->z);
		free(fc);
	}
	if (rb->stop[0] >= 0) {
		close(rb->stop[0]);
		close(rb->stop[1]);
	}
	pthread_mutex_destroy(&rb->wlock);
	free(rb->g);
	free(rb);
}

/*
 * The CPU's own pipe, as large as a batch: one splice() moves every full
 * page the kernel has (up to the batch's room) and one read() copies
 * them, where a page at a time costs two system calls per page, a tenth
 * of the recorder's time under a storm.  Without it (no pipe, a kernel
 * that will not splice), libtracefs reads a page at a time.  Two more
 * descriptors per CPU: only where the limit on open files leaves room
 * for them and the rest (a machine of hundreds of CPUs under the usual
 * 1024 reads a page at a time, as it did).
 */
static bool pipes_fit(int ncpus)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return false;
	return rl.rlim_cur == RLIM_INFINITY ||
	       (rlim_t)ncpus * 4 + 64 <= rl.rlim_cur;
}

static void pipe_open(struct ringbuf *rb, struct rb_cpu *c)
{
	int want = (int)(rb->batch_pages * (uint32_t)rb->o.subbuf_size), got;

	if (pipe2(c->pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		c->pipe[0] = c->pipe[1] = -1;
		return;
	}
	fcntl(c->pipe[1], F_SETPIPE_SZ, want);	/* may be refused: smaller */
	got = fcntl(c->pipe[1], F_GETPIPE_SZ);
	c->pipe_cap = got >= rb->o.subbuf_size ?
		      (size_t)got / (size_t)rb->o.subbuf_size *
		      (size_t)rb->o.subbuf_size : 0;
}

static int cpu_open(struct ringbuf *rb, struct tracefs_instance *inst,
		    struct rb_group *g, int i)
{
	struct rb_cpu *c = &g->cpus[i];
	char path[64];

	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", c->cpu);
	c->fd = tracefs_instance_file_open(inst, path,
					   O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0)
		return error("cannot open %s of the instance: %m", path);
	c->tcpu = tracefs_cpu_alloc_fd(c->fd, rb->o.subbuf_size, true);
	if (!c->tcpu)
		return error("cannot read %s: out of memory", path);
	if (rb->pipes)
		pipe_open(rb, c);
	/* Grows as pages come: an idle CPU's batch stays untouched. */
	c->batch = malloc((size_t)rb->batch_pages * rb->o.subbuf_size);
	if (!c->batch)
		return error("out of memory for the batch of CPU %d (free some memory and run iorec again)",
			     c->cpu);
	g->pfd[i].fd = c->fd;
	g->pfd[i].events = POLLIN;
	return 0;
}

/* Open the CPUs first, first + 1, ... of group @g (@n of them). */
static int group_open(struct ringbuf *rb, struct tracefs_instance *inst,
		      struct rb_group *g, int first, int n)
{
	int i;

	g->rb = rb;
	g->ncpus = n;
	g->cpus = calloc((size_t)n, sizeof(*g->cpus));
	if (!g->cpus)
		return error(ERR_NOMEM);
	for (i = 0; i < n; i++) {
		/* what group_release() closes */
		g->cpus[i].fd = -1;
		g->cpus[i].pipe[0] = g->cpus[i].pipe[1] = -1;
	}
	g->pfd = calloc((size_t)n + 1, sizeof(*g->pfd));
	if (!g->pfd)
		return error(ERR_NOMEM);
	g->pfd[n].fd = rb->stop[0];
	g->pfd[n].events = POLLIN;
	g->kbuf = kbuffer_alloc(rb->o.long_size == 4 ? KBUFFER_LSIZE_4 :
				KBUFFER_LSIZE_8, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!g->kbuf)
		return error(ERR_NOMEM);
	for (i = 0; i < n; i++) {
		g->cpus[i].cpu = first + i;
		if (cpu_open(rb, inst, g, i) < 0)
			return -1;
	}
	return 0;
}

struct ringbuf *ringbuf_open(struct tracefs_instance *inst,
			     const struct ringbuf_opts *o,
			     struct iorec_writer *w)
{
	struct ringbuf *rb = calloc(1, sizeof(*rb));
	int i, first = 0;

	if (!rb) {
		error(ERR_NOMEM);
		return NULL;
	}
	rb->o = *o;
	rb->w = w;
	rb->stop[0] = rb->stop[1] = -1;
	pthread_mutex_init(&rb->wlock, NULL);
	rb->batch_pages = (uint32_t)(o->batch_bytes / (size_t)o->subbuf_size);
	if (!rb->batch_pages)
		rb->batch_pages = 1;
	rb->ngroups = o->threads < 1 ? 1 :
		      o->threads > o->ncpus ? o->ncpus : o->threads;
	rb->threaded = rb->ngroups > 1;
	rb->pipes = pipes_fit(o->ncpus);
	if (rb->threaded && pipe2(rb->stop, O_CLOEXEC) < 0) {
		error("cannot create a pipe: %m");
		goto fail;
	}
	rb->g = calloc((size_t)rb->ngroups, sizeof(*rb->g));
	if (!rb->g) {
		error(ERR_NOMEM);
		goto fail;
	}
	for (i = 0; i < rb->ngroups; i++) {
		/* spread the CPUs evenly: the first groups take one more */
		int n = o->ncpus / rb->ngroups + (i < o->ncpus % rb->ngroups);

		if (group_open(rb, inst, &rb->g[i], first, n) < 0)
			goto fail;
		first += n;
	}
	return rb;
fail:
	ringbuf_close(rb);
	return NULL;
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
	rb->flight_discarded++;
	if (min->last_ts > rb->flight_cutoff_ts)
		rb->flight_cutoff_ts = min->last_ts;
	free(min->z);
	free(min);
}

/*
 * Keep a compressed batch (writer lock held), dropping the oldest.
 * Returns 0, or -IOREC_E_NOMEM (the batch is not kept).
 */
static int flight_add(struct ringbuf *rb, const uint8_t *desc,
		      const uint8_t *z, size_t zlen, size_t len,
		      uint64_t last_ts)
{
	struct flight_chunk *fc = calloc(1, sizeof(*fc));

	if (fc)
		fc->z = malloc(zlen);
	if (!fc || !fc->z) {
		free(fc);
		return -IOREC_E_NOMEM;
	}
	memcpy(fc->z, z, zlen);
	fc->zlen = zlen;
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
static int batch_cut(struct rb_group *g, struct rb_cpu *c)
{
	struct ringbuf *rb = g->rb;
	struct iorec_data_desc d = {
		.cpu = (uint32_t)c->cpu,
		.npages = c->npages,
		.subbuf_size = (uint32_t)rb->o.subbuf_size,
		.first_ts = c->first_ts,
		.last_ts = c->last_ts,
	};
	uint8_t desc[IOREC_DATA_DESC_LEN];
	size_t len = (size_t)c->npages * rb->o.subbuf_size, zlen;
	int ret;

	if (!c->npages)
		return 0;
	iorec_data_desc_encode(&d, desc);
	ret = group_compress(g, c->batch, len, &zlen);
	if (!ret) {
		ringbuf_lock(rb);
		if (rb->o.flight_bytes)
			ret = flight_add(rb, desc, g->zbuf, zlen, len,
					 c->last_ts);
		else if (rb->data_limit)
			ret = limited_add(rb, desc, g->zbuf, zlen, len,
					  c->npages);
		else
			ret = iorec_writer_add_compressed(rb->w,
							  IOREC_CHUNK_DATA,
							  desc, sizeof(desc),
							  g->zbuf, zlen, len);
		ringbuf_unlock(rb);
	}
	c->npages = 0;
	c->have_ts = false;
	c->first_ts = c->last_ts = 0;
	if (ret < 0)
		return ret;
	ADD(&g->chunks, 1);
	return 0;
}

/*
 * Account the page just read into the batch's next slot (@n bytes):
 * count events, take timestamps, keep it unless it holds nothing.
 */
static int page_add(struct rb_group *g, struct rb_cpu *c, int n)
{
	struct ringbuf *rb = g->rb;
	uint8_t *page = c->batch + (size_t)c->npages * rb->o.subbuf_size;
	unsigned long long ts;
	uint64_t events = 0;
	int missed;
	void *data;

	if (n < rb->o.subbuf_size)
		memset(page + n, 0, (size_t)(rb->o.subbuf_size - n));
	if (kbuffer_load_subbuffer(g->kbuf, page) < 0)
		return 0;
	missed = kbuffer_missed_events(g->kbuf);
	for (data = kbuffer_read_event(g->kbuf, &ts); data;
	     data = kbuffer_next_event(g->kbuf, &ts)) {
		if (rb->o.trig) {
			if (missed && !events)
				trig_lost(rb->o.trig, ts, c->cpu);
			trig_event(rb->o.trig, data, ts, c->cpu);
		}
		if (rb->o.inos)
			inoset_event(rb->o.inos, data, ts, c->cpu);
		if (!c->have_ts) {
			c->first_ts = ts;
			c->have_ts = true;
		}
		c->last_ts = ts;
		events++;
	}
	if (rb->o.trig && events)
		trig_progress(rb->o.trig, c->cpu, c->last_ts);
	if (!events && !missed)
		return 0;
	if (!c->npages)
		c->batch_mono = now_mono_ns();
	c->npages++;
	ADD(&c->pages, 1);
	ADD(&c->missed_pages, missed != 0);
	ADD(&g->events, events);
	ADD(&g->pages, 1);
	ADD(&g->raw_bytes, (uint64_t)rb->o.subbuf_size);
	if (c->npages == rb->batch_pages)
		return batch_cut(g, c);
	return 0;
}

/*
 * Splice the CPU's full pages (at most @max, and no more than the batch
 * has room for) into its pipe and read them into the batch in one go.
 * Returns the pages read (0: none ready), or an iorec_error; a kernel
 * that refuses the splice turns the pipe off (libtracefs reads on).
 */
static int pipe_drain(struct rb_group *g, struct rb_cpu *c, uint32_t max)
{
	size_t subbuf = (size_t)g->rb->o.subbuf_size;
	size_t room = (size_t)(g->rb->batch_pages - c->npages);
	size_t want, got = 0, k, pages;
	uint8_t *base = c->batch + (size_t)c->npages * subbuf;
	ssize_t n;
	int ret;

	if (room > max)
		room = max;
	want = room * subbuf;
	if (want > c->pipe_cap)
		want = c->pipe_cap;
	n = splice(c->fd, NULL, c->pipe[1], NULL, want,
		   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	if (n <= 0) {
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			c->pipe_cap = 0;	/* page by page from now on */
		return 0;
	}
	while (got < (size_t)n) {
		ssize_t r = read(c->pipe[0], base + got, (size_t)n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;	/* cannot happen: the pipe holds n bytes */
		got += (size_t)r;
	}
	pages = got / subbuf;
	for (k = 0; k < pages; k++) {
		uint8_t *src = base + k * subbuf;
		uint8_t *dst = c->batch + (size_t)c->npages * subbuf;

		/* an empty page page_add() did not keep leaves a hole */
		if (src != dst)
			memmove(dst, src, subbuf);
		ret = page_add(g, c, (int)subbuf);
		if (ret < 0)
			return ret;
	}
	return (int)pages;
}

/*
 * Read up to @max sub-buffers of one CPU: whole pages only (splice), or
 * with @partial also the page the kernel is still filling.
 */
static int cpu_drain(struct rb_group *g, struct rb_cpu *c, bool partial,
		     uint32_t max)
{
	int subbuf = g->rb->o.subbuf_size;
	bool full_done = false;	/* no full page left to splice */
	uint32_t i;
	int n, ret;

	for (i = 0; i < max;) {
		uint8_t *slot = c->batch + (size_t)c->npages * subbuf;

		/* the full pages first, many at once; then, with @partial,
		 * the rest a page at a time */
		if (c->pipe_cap && !full_done) {
			ret = pipe_drain(g, c, max - i);
			if (ret < 0)
				return ret;
			if (ret) {
				i += (uint32_t)ret;
				continue;
			}
			full_done = true;
			if (!partial)
				break;
		}
		if (partial)
			n = tracefs_cpu_flush(c->tcpu, slot);
		else
			n = tracefs_cpu_buffered_read(c->tcpu, slot, true);
		if (n <= 0)
			break;
		ret = page_add(g, c, n);
		if (ret < 0)
			return ret;
		i++;
	}
	/* all of it read: every event up to now (the trace clock's mono) */
	if (g->rb->o.trig && partial && i < max && g->rb->o.mono_clock)
		trig_progress(g->rb->o.trig, c->cpu,
			      now_mono_ns() - TRIG_SETTLE_NS);
	return 0;
}

/* Read what poll() said is ready, and with @all everything. */
static int group_read(struct rb_group *g, bool all)
{
	struct ringbuf *rb = g->rb;
	uint64_t now = now_mono_ns();
	int i, ret;

	for (i = 0; i < g->ncpus; i++) {
		struct rb_cpu *c = &g->cpus[i];
		short rev = g->pfd[i].revents;

		g->pfd[i].revents = 0;
		if (rev & (POLLIN | POLLERR | POLLHUP)) {
			ret = cpu_drain(g, c, false, 2 * rb->batch_pages);
			if (ret < 0)
				return ret;
		}
		if (all) {
			ret = cpu_drain(g, c, true, 2 * rb->batch_pages);
			if (ret < 0)
				return ret;
		}
		if (c->npages && now - c->batch_mono >= rb->o.flush_ns) {
			ret = batch_cut(g, c);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/*
 * Raise the calling thread's priority: a reader starved by the traced
 * load, not the buffer size, is what loses events on a busy machine.
 * Nice -10 (where allowed: root), never a real-time class, which a
 * reader busy with a storm could use to starve the machine.
 */
static void raise_priority(void)
{
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), READER_NICE);
}

static void *group_main(void *arg)
{
	struct rb_group *g = arg;
	struct ringbuf *rb = g->rb;
	uint64_t every = rb->o.drain_ns ? rb->o.drain_ns : rb->o.flush_ns;
	int timeout = (int)(every / 1000000);

	raise_priority();
	g->last_all = now_mono_ns();
	for (;;) {
		uint64_t now;
		bool all;
		int ret;

		if (poll(g->pfd, (nfds_t)g->ncpus + 1, timeout) < 0 &&
		    errno != EINTR)
			break;
		if (g->pfd[g->ncpus].revents)
			break;
		now = now_mono_ns();
		all = now - g->last_all >= every;
		if (all)
			g->last_all = now;
		ret = group_read(g, all);
		if (ret < 0) {
			int zero = 0;

			__atomic_compare_exchange_n(&rb->err, &zero, ret, false,
						    __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED);
			break;
		}
	}
	return NULL;
}

int ringbuf_start(struct ringbuf *rb)
{
	int i;

	raise_priority();	/* the main loop reads, or watches */
	if (!rb->threaded)
		return 0;
	for (i = 0; i < rb->ngroups; i++) {
		if (pthread_create(&rb->g[i].thread, NULL, group_main,
				   &rb->g[i]))
			return error("cannot start reader thread %d: %m", i);
		rb->g[i].running = true;
	}
	return 0;
}

void ringbuf_stop_threads(struct ringbuf *rb)
{
	char c = 0;
	int i;

	if (!rb->threaded || rb->stop[1] < 0 || !rb->g)
		return;
	if (write(rb->stop[1], &c, 1) < 0)
		warning("cannot stop the reader threads: %m");
	for (i = 0; i < rb->ngroups; i++)
		if (rb->g[i].running) {
			pthread_join(rb->g[i].thread, NULL);
			rb->g[i].running = false;
		}
}

int ringbuf_threads(const struct ringbuf *rb)
{
	return rb->threaded ? rb->ngroups : 0;
}

int ringbuf_wait(struct ringbuf *rb, int timeout_ms)
{
	int n;

	if (rb->threaded)	/* the threads read: only keep time */
		n = poll(NULL, 0, timeout_ms);
	else
		n = poll(rb->g[0].pfd, (nfds_t)rb->g[0].ncpus, timeout_ms);
	if (n < 0 && errno == EINTR)
		return -1;
	if (n < 0) {
		/* not expected with valid fds; behave as a timeout */
		return 0;
	}
	return n;
}

int ringbuf_read(struct ringbuf *rb, bool all)
{
	if (rb->threaded)
		return GET(&rb->err);
	return group_read(&rb->g[0], all);
}

int ringbuf_finish(struct ringbuf *rb)
{
	struct flight_chunk *fc;
	int i, j, ret;

	ringbuf_stop_threads(rb);
	ret = GET(&rb->err);
	if (ret < 0)
		return ret;
	/* the threads are gone: the writer is the main thread's again */
	rb->threaded = false;
	for (j = 0; j < rb->ngroups; j++) {
		struct rb_group *g = &rb->g[j];

		for (i = 0; i < g->ncpus; i++) {
			struct rb_cpu *c = &g->cpus[i];

			/* tracing is off: this ends when the buffer is empty */
			ret = cpu_drain(g, c, true, UINT32_MAX);
			if (ret < 0)
				return ret;
			ret = batch_cut(g, c);
			if (ret < 0)
				return ret;
		}
	}
	if (!rb->o.flight_bytes || rb->o.flight_keep)
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

/* Read every CPU's partial page and cut every batch (main-loop mode). */
static int cut_all(struct ringbuf *rb)
{
	struct rb_group *g = &rb->g[0];
	int i, ret;

	ret = group_read(g, true);
	for (i = 0; !ret && i < g->ncpus; i++)
		ret = batch_cut(g, &g->cpus[i]);
	return ret;
}

struct flight_copy *ringbuf_flight_copy(struct ringbuf *rb, size_t *n,
					int *err)
{
	struct flight_chunk *fc;
	struct flight_copy *out;
	size_t i = 0, count = 0;

	*n = 0;
	*err = rb->threaded ? GET(&rb->err) : cut_all(rb);
	if (*err < 0)
		return NULL;
	ringbuf_lock(rb);
	for (fc = rb->head; fc; fc = fc->next)
		count++;
	out = count ? calloc(count, sizeof(*out)) : NULL;
	for (fc = rb->head; out && fc; fc = fc->next, i++) {
		memcpy(out[i].desc, fc->desc, sizeof(fc->desc));
		out[i].z = malloc(fc->zlen);
		if (!out[i].z) {
			flight_copy_free(out, i);
			out = NULL;
			break;
		}
		memcpy(out[i].z, fc->z, fc->zlen);
		out[i].zlen = fc->zlen;
		out[i].raw_len = fc->raw_len;
	}
	ringbuf_unlock(rb);
	if (count && !out) {
		*err = -IOREC_E_NOMEM;
		return NULL;
	}
	*n = count;
	return out;
}

void flight_copy_free(struct flight_copy *fc, size_t n)
{
	size_t i;

	for (i = 0; fc && i < n; i++)
		free(fc[i].z);
	free(fc);
}

void ringbuf_totals(const struct ringbuf *rb, struct ringbuf_totals *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < rb->ngroups; i++) {
		t->events += GET(&rb->g[i].events);
		t->pages += GET(&rb->g[i].pages);
		t->raw_bytes += GET(&rb->g[i].raw_bytes);
		t->chunks += GET(&rb->g[i].chunks);
	}
	t->flight_discarded = rb->flight_discarded;
	t->flight_cutoff_ts = rb->flight_cutoff_ts;
	t->limit_dropped_pages = rb->limit_dropped_pages;
}

void ringbuf_cpu_pages(const struct ringbuf *rb, int cpu, uint64_t *pages,
		       uint64_t *missed)
{
	int i;

	*pages = *missed = 0;
	for (i = 0; i < rb->ngroups; i++) {
		const struct rb_group *g = &rb->g[i];

		if (cpu >= g->cpus[0].cpu && cpu < g->cpus[0].cpu + g->ncpus) {
			*pages = GET(&g->cpus[cpu - g->cpus[0].cpu].pages);
			*missed = GET(&g->cpus[cpu - g->cpus[0].cpu].missed_pages);
		}
	}
}
