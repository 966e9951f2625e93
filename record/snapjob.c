// SPDX-License-Identifier: MIT
/*
 * snapjob.c - files iorec writes while it records: the rotation of -S
 * SIZE --keep N and the black box's snapshots (SIGUSR1, triggers).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "iorec-int.h"

/* ------------------------------------------------------------------ */
/* rotation: -S SIZE --keep N */

/* File @index of the rotation: OUT-0001.iorec (OUT less its .iorec). */
static void rot_path(unsigned int index, char *buf, size_t n)
{
	size_t len = strlen(env.output);

	if (len > 6 && !strcmp(env.output + len - 6, ".iorec"))
		len -= 6;
	snprintf(buf, n, "%.*s-%04u.iorec", (int)len, env.output, index);
}

/*
 * Open the next file of the rotation with the recording's metadata and
 * remove the one that falls out of --keep.  Returns its writer, or NULL
 * after an error line.
 */
static struct iorec_writer *rot_open(struct rec *r, int *fd, char *path,
				     size_t n)
{
	struct sbuf extra = SBUF_INIT;
	struct iorec_writer *w;
	char old[4200];
	int ret;

	ringbuf_lock(r->rb);
	ret = iorec_writer_flush(r->meta_w);
	ringbuf_unlock(r->rb);
	if (ret < 0) {
		error("cannot keep the metadata in memory: %s", iorec_strerror(ret));
		return NULL;
	}
	rot_path(r->rot_index + 1, path, n);
	*fd = open_raw(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (*fd < 0) {
		error("cannot create %s: %m (the recording stops)", path);
		return NULL;
	}
	w = iorec_writer_new(*fd, env.level, 0);
	if (!w) {
		close(*fd);
		error(ERR_NOMEM);
		return NULL;
	}
	sbuf_addf(&extra, "rotation_index=%u\nrotation_keep=%u\n",
		  r->rot_index + 1, env.keep);
	ret = extra.failed ? -IOREC_E_NOMEM :
	      meta_copy(r->out_fd, iorec_writer_written(r->meta_w), extra.buf,
			w);
	sbuf_release(&extra);
	if (!ret)
		ret = iorec_writer_flush(w);
	if (ret < 0) {
		error("cannot write %s: %s (the recording stops)", path,
		      iorec_writer_errno(w) ? strerror(iorec_writer_errno(w)) :
		      iorec_strerror(ret));
		iorec_writer_free(w);
		close(*fd);
		unlink(path);
		return NULL;
	}
	r->rot_index++;
	if (r->rot_index > env.keep) {
		rot_path(r->rot_index - env.keep, old, sizeof(old));
		unlink(old);
	}
	return w;
}

/* The first file: from now on r->w is a file's, r->meta_w the memory's. */
int rot_start(struct rec *r)
{
	struct iorec_writer *w;
	int fd;

	r->meta_w = r->w;
	w = rot_open(r, &fd, r->cur_path, sizeof(r->cur_path));
	if (!w)
		return -1;
	ringbuf_lock(r->rb);
	ringbuf_set_writer(r->rb, w);
	r->w = w;
	r->cur_fd = fd;
	r->rot_base = iorec_writer_written(w);
	ringbuf_unlock(r->rb);
	return 0;
}

/*
 * Has the current file reached -S less room for its trailer?  A file
 * holds at least some data beside its metadata, and may pass -S by the
 * batches that were being compressed (at most 1 MiB raw per CPU).
 */
bool rot_due(struct rec *r)
{
	uint64_t size = writer_size(r);

	return size >= r->rot_limit && size > r->rot_base + (64u << 10);
}

/* The current file reached its size: finish it, go on in the next. */
void rotate(struct rec *r)
{
	struct iorec_writer *w, *old;
	char path[sizeof(r->cur_path)];
	int fd, oldfd, ret;

	w = rot_open(r, &fd, path, sizeof(path));
	if (!w) {
		snprintf(r->reason, sizeof(r->reason), "cannot open the next file");
		stop_signal = SIGTERM;	/* ends the loop, files complete */
		return;
	}
	ringbuf_lock(r->rb);
	old = ringbuf_set_writer(r->rb, w);
	r->w = w;
	oldfd = r->cur_fd;
	r->cur_fd = fd;
	r->rot_base = iorec_writer_written(w);
	ringbuf_unlock(r->rb);
	/* the readers write to the new file: the old one is ours alone */
	ret = write_trailer_to(r, old, "rotated");
	if (ret < 0)
		warning("%s: %s; that file is readable up to its last complete chunk",
			r->cur_path, iorec_writer_errno(old) ?
			strerror(iorec_writer_errno(old)) : iorec_strerror(ret));
	iorec_writer_free(old);
	close(oldfd);
	memcpy(r->cur_path, path, sizeof(path));
}

/* ------------------------------------------------------------------ */
/* the black box */

/* The seconds the window's chunks span, from their descriptors. */
static double window_secs(const struct flight_copy *fc, size_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	struct iorec_data_desc d;
	size_t i;

	for (i = 0; i < n; i++) {
		if (iorec_data_desc_parse(fc[i].desc, sizeof(fc[i].desc),
					  &d) < 0)
			continue;
		if (d.first_ts && d.first_ts < lo)
			lo = d.first_ts;
		if (d.last_ts > hi)
			hi = d.last_ts;
	}
	return hi > lo ? (double)(hi - lo) / 1e9 : 0.0;
}

/*
 * Hand the flight window to the snapshot writer: @fire is the trigger
 * (NULL: SIGUSR1 or the end).  Returns 0, or -1 when one is still being
 * written (try again later).
 */
int take_snapshot(struct rec *r, const struct trig_fire *fire,
			 const char *why, bool wait)
{
	struct sbuf hx = SBUF_INIT, st = SBUF_INIT, et = SBUF_INIT;
	struct bb_snap *s;
	int err = 0;

	if (bb_busy(r->bb))
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s) {
		note_write_error(r, -IOREC_E_NOMEM);
		return 0;
	}
	s->fc = ringbuf_flight_copy(r->rb, &s->nfc, &err);
	if (err < 0) {
		bb_snap_free(s);
		note_write_error(r, err);
		return 0;
	}
	ringbuf_lock(r->rb);
	err = iorec_writer_flush(r->w);
	s->meta_len = iorec_writer_written(r->w);
	ringbuf_unlock(r->rb);
	if (err < 0) {
		bb_snap_free(s);
		note_write_error(r, err);
		return 0;
	}
	s->meta_fd = r->out_fd;
	s->self = snap_self(r);
	s->level = env.level;
	collect_stats(r, &st);
	s->stats = st.buf;
	s->stats_len = st.len;
	end_text(r, &et, fire ? "snapshot (trigger)" : why);
	s->end_text = et.buf;
	sbuf_addf(&hx, "snapshot=%s\nsnapshot_realtime_ns=%llu\nsnapshot_mono_ns=%llu\n",
		  fire ? "trigger" : "request",
		  (unsigned long long)now_real_ns(),
		  (unsigned long long)now_mono_ns());
	if (fire) {
		sbuf_addf(&hx, "trigger=%s\ntrigger_ts=%llu\ntrigger_value_ns=%llu\ntrigger_pid=%d\ntrigger_cpu=%d\n",
			  fire->cond, (unsigned long long)fire->ts,
			  (unsigned long long)fire->value_ns, fire->pid,
			  fire->cpu);
		sbuf_addstr(&hx, "trigger_comm=");
		sbuf_add_escaped(&hx, r->fire_comm);
		sbuf_addstr(&hx, "\ntrigger_detail=");
		sbuf_add_escaped(&hx, fire->detail);
		sbuf_addf(&hx, "\ntrigger_post_ns=%llu\n",
			  (unsigned long long)env.post_ns);
		if (*fire->call)
			sbuf_addf(&hx, "trigger_call=%s\ntrigger_fd=%d\n",
				  fire->call, fire->fd);
		if (fire->dev)
			sbuf_addf(&hx, "trigger_dev=%u:%u\ntrigger_sector=%llu\ntrigger_bytes=%llu\n",
				  fire->dev >> 20, fire->dev & ((1u << 20) - 1),
				  (unsigned long long)fire->sector,
				  (unsigned long long)fire->bytes);
		snprintf(s->tag, sizeof(s->tag), "%.*s",
			 (int)strcspn(fire->cond, "><"), fire->cond);
		snprintf(s->log, sizeof(s->log),
			 "%.1f s of events, triggered by %s: pid %d (%s) %s",
			 window_secs(s->fc, s->nfc), fire->cond, fire->pid,
			 r->fire_comm, fire->detail);
	} else {
		snprintf(s->tag, sizeof(s->tag), "%s",
			 strstr(why, "SIGUSR1") ? "request" : "end");
		snprintf(s->log, sizeof(s->log), "%.1f s of events, %s",
			 window_secs(s->fc, s->nfc), why);
	}
	s->header_extra = hx.buf;
	if (hx.failed || st.failed || et.failed) {
		bb_snap_free(s);
		note_write_error(r, -IOREC_E_NOMEM);
		return 0;
	}
	bb_submit(r->bb, s, wait);
	r->snapshots++;
	return 0;
}

/* The comm of @pid now, or the kernel's last for it, or "?". */
static void comm_of(int pid, char *buf, size_t n)
{
	char path[64], *text, *line, *save = NULL;
	FILE *f;

	snprintf(buf, n, "?");
	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen_raw(path);
	if (f && fgets(buf, (int)n, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
		return;
	}
	if (f)
		fclose(f);
	/* gone already: saved_cmdlines has "pid comm" lines */
	text = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		if (atoi(line) == pid && strchr(line, ' ')) {
			snprintf(buf, n, "%s", strchr(line, ' ') + 1);
			break;
		}
	free(text);
}

/* SIGUSR1 and the triggers: snapshots due now.  Returns when to wake. */
uint64_t blackbox_tick(struct rec *r, uint64_t now)
{
	struct trig_fire f;
	uint64_t wake = UINT64_MAX;

	if (snap_signal) {
		snap_signal = 0;
		r->snap_wanted = true;
	}
	if (r->snap_wanted &&
	    take_snapshot(r, NULL, "asked for (SIGUSR1)", false) == 0)
		r->snap_wanted = false;
	if (r->snap_wanted)
		wake = now + 100000000ull;
	if (env.trig && trig_take(env.trig, &f)) {
		if (r->trig_pending || now < r->cool_until) {
			r->suppressed++;
			if (env.verbose)
				note("trigger %s fired (%s), within the cool-down or a pending snapshot: no snapshot",
				     f.cond, f.detail);
		} else {
			uint64_t end = f.ts + f.value_ns;

			r->fire = f;
			comm_of(f.pid, r->fire_comm, sizeof(r->fire_comm));
			r->trig_pending = true;
			/* trace time is CLOCK_MONOTONIC's (clock mono) */
			if (strcmp(r->ri.clock, "mono") || end > now)
				end = now;
			r->pending_at = end + env.post_ns;
		}
	}
	if (r->trig_pending && now >= r->pending_at &&
	    take_snapshot(r, &r->fire, NULL, false) == 0) {
		r->trig_pending = false;
		r->cool_until = now + env.cooldown_ns;
	}
	if (r->trig_pending)
		wake = r->pending_at > now ? r->pending_at : now + 100000000ull;
	return wake;
}
