// SPDX-License-Identifier: MIT
/*
 * findings-device.c - the rules of the devices: a slow device and the SD
 * card's small scattered writes (slow-device), reads the page cache
 * missed (read-misses).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "base/units.h"
#include "replay/proctable.h"
#include "stats/findings-int.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "stats/stats.h"

/* ------------------------------------------------------------------ */
/* A slow device, and the SD card's small scattered writes */

void rule_device(struct ctx *c)
{
	const struct stats *st = c->st;

	for (size_t i = 0; i < st->ndev; i++) {
		const struct devstat *d = &st->dev[i];
		uint64_t avg = hist_avg(&d->device), p90, lo, hi;
		const struct blk_done *own;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		bool sd, quiet;
		char buf[96];
		double busy;

		if ((d->op != BLK_OP_READ && d->op != BLK_OP_WRITE) ||
		    d->reqs < SLOW_MIN_REQS)
			continue;
		p90 = hist_pct(&d->device, 90);
		quiet = avg < SLOW_AVG_NS && p90 < SLOW_P90_NS;
		if (quiet && !c->all)
			continue;
		sd = !quiet && d->op == BLK_OP_WRITE && 2 * d->small >= d->reqs &&
		     2 * d->seq < d->reqs;
		/* the time lost: its requests' device time, at most the
		 * time the device was busy (iostat's %util of the recording) */
		busy = fmin((double)d->device.sum,
			    (double)stats_dev_busy(st, d->dev));
		x = fnd_add(c, sd ? "small-scattered-writes" : "slow-device",
			FND_HIGH, (uint64_t)busy);
		if (x)
			x->quiet = quiet;
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		fnd_ent(c, x, "device", buf, d->dev);
		fnd_ev_view(x, "devices");
		fnd_evs(c, x, "device", buf);
		fnd_evs(c, x, "op", d->op == BLK_OP_READ ? "read" : "write");
		fnd_evn(x, "requests", (double)d->reqs);
		fnd_evn(x, "bytes", (double)d->bytes);
		fnd_evn(x, "d2c.avg_ns", (double)avg);
		fnd_evn(x, "d2c.p50_ns", (double)hist_pct(&d->device, 50));
		fnd_evn(x, "d2c.p90_ns", (double)p90);
		fnd_evn(x, "d2c.max_ns", (double)d->device.max);
		fnd_evn(x, "d2c.sum_ns", (double)d->device.sum);
		fnd_evn(x, "i2d.avg_ns", (double)hist_avg(&d->queue));
		fnd_num(x, "small_share", (double)d->small / (double)d->reqs);
		fnd_num(x, "sequential_share", (double)d->seq / (double)d->reqs);
		sbuf_addf(&sb, quiet ? "%s %ss: %" PRIu64 " requests (" :
			  "%s is slow for %ss: %" PRIu64 " requests (",
			  buf, d->op == BLK_OP_READ ? "read" : "write", d->reqs);
		units_add_bytes(&sb, (double)d->bytes);
		sbuf_addstr(&sb, "), device time (issue to complete) p50 ");
		units_add_dur(&sb, (double)hist_pct(&d->device, 50));
		sbuf_addstr(&sb, ", p90 ");
		units_add_dur(&sb, (double)p90);
		sbuf_addstr(&sb, ", max ");
		units_add_dur(&sb, (double)d->device.max);
		sbuf_addstr(&sb, ", mean ");
		units_add_dur(&sb, (double)avg);
		lo = fnd_hist_below(&d->device, BIMODAL_LO_NS);
		hi = fnd_hist_from(&d->device, BIMODAL_HI_NS);
		if (5 * lo >= d->reqs && 5 * hi >= d->reqs) {
			fnd_num(x, "fast_share", (double)lo / (double)d->reqs);
			fnd_num(x, "slow_share", (double)hi / (double)d->reqs);
			sbuf_addstr(&sb, "; bimodal: ");
			fnd_add_pct(&sb, (double)lo, (double)d->reqs);
			sbuf_addstr(&sb, " under 1 ms, ");
			fnd_add_pct(&sb, (double)hi, (double)d->reqs);
			sbuf_addstr(&sb, " over 20 ms");
		}
		if (sd) {
			sbuf_addstr(&sb, "; ");
			fnd_add_pct(&sb, (double)d->small, (double)d->reqs);
			sbuf_addstr(&sb, " are small (16 KiB or less) and ");
			fnd_add_pct(&sb, (double)(d->reqs - d->seq),
				(double)d->reqs);
			sbuf_addstr(&sb, " scattered, the signature of an SD card or cheap flash that must rewrite a whole erase block for many of them");
		}
		if (!sd && d->small && d->small < d->reqs &&
		    d->small_dev_ns <= d->device.sum) {
			/* by size: the small ones against the rest */
			double big = (double)(d->device.sum - d->small_dev_ns) /
				     (double)(d->reqs - d->small);

			fnd_num(x, "small_d2c_avg_ns", (double)d->small_dev_ns /
			    (double)d->small);
			fnd_num(x, "large_d2c_avg_ns", big);
			sbuf_addf(&sb, "; by size: %" PRIu64 " of 16 KiB or less, mean ",
				  d->small);
			units_add_dur(&sb, (double)d->small_dev_ns / (double)d->small);
			sbuf_addf(&sb, ", %" PRIu64 " larger ones, mean ",
				  d->reqs - d->small);
			units_add_dur(&sb, big);
		}
		if (quiet)
			;
		else if (d->queue.count && d->queue.sum > d->device.sum)
			sbuf_addstr(&sb, "; most of the time is spent queued before the device (I2D), not in it");
		else
			sbuf_addstr(&sb, "; the time is the device's own (issue to complete), not queueing");
		own = fnd_slow_owner(c, d->dev, d->op);
		if (own) {
			int pid;
			const char *comm, *file = stats_request_file(st, own);

			stats_request_owner(own, &pid, &comm);
			sbuf_addf(&sb, "; the slowest were %s (pid %d)'s", comm,
				  pid);
			fnd_ent(c, x, "process", comm, pid);
			if (file) {
				sbuf_addf(&sb, " on %s", file);
				fnd_ent(c, x, "file", file, -1);
			}
		}
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "devices");
	}
}


/* ------------------------------------------------------------------ */
/* Read misses */

static uint64_t read_ns(const struct procstat *ps)
{
	uint64_t s = 0;

	for (int k = 0; k < SK_NR; k++)
		if (sys_kinds[k].flags & SKF_READ)
			s += procstat_kind(ps, k)->lat.sum;
	return s;
}

/* Whether the process of id made calls on the file of fs (opened, read,
 * mapped, wrote it). */
static bool file_of_proc(const struct filestat *fs, int id)
{
	for (const struct fileproc *q = fs->procs; q; q = q->next)
		if (q->p && q->p->id == id)
			return true;
	return false;
}

void rule_reads(struct ctx *c)
{
	struct file_row *fr = NULL;
	long nf = -1;

	for (long i = 0; i < c->nprocs; i++) {
		const struct proc_row *r = &c->procs[i];
		const struct procstat *ps = r->ps;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		uint64_t ns;
		int shown = 0;

		if (!ps || ps->blk.read_bytes < READ_MIN_BYTES)
			continue;
		ns = read_ns(ps);
		if (ns < FSYNC_MIN_NS)
			continue;
		if (nf < 0) {
			nf = rows_files(c->st, &fr);
			if (nf < 0) {
				c->err = (int)nf;
				return;
			}
		}
		x = fnd_add(c, "read-misses", 10 * ns >= c->dur ? FND_WARNING :
			FND_INFO, ns);
		fnd_ent(c, x, "process", r->p.comm, r->p.pid);
		fnd_num(x, "read_ns", (double)ns);
		fnd_ev_view(x, "processes");
		fnd_evn(x, "pid", r->p.pid);
		fnd_evn(x, "read_bytes", (double)ps->read_bytes);
		fnd_evn(x, "block.read_bytes", (double)ps->blk.read_bytes);
		owner_who(&sb, &r->p);
		sbuf_addstr(&sb, " waited ");
		units_add_dur(&sb, (double)ns);
		sbuf_addstr(&sb, " in read calls for ");
		units_add_bytes(&sb, (double)ps->read_bytes);
		sbuf_addstr(&sb, " (READ); the devices read ");
		units_add_bytes(&sb, (double)ps->blk.read_bytes);
		sbuf_addstr(&sb, " for it (BLK-R), not from the page cache (cold cache, or too little memory to keep it): its read calls' and also the pages of files it mapped, readahead and file-system metadata, each byte counted once, on the topmost device (a stacked device's on the one above)");
		/* the named files with the most block reads, most first */
		for (long last = -1; nf > 0 && shown < 3; shown++) {
			long best = -1;
			const char *name;
			char buf[96];
			uint32_t dev;

			for (long k = 0; k < nf; k++) {
				uint64_t b = fr[k].s->blk.read_bytes;

				/* named files: an fd whose open was not
				 * seen says nothing to the reader; and
				 * files of its own calls only */
				if (!fr[k].f.path || b < READ_MIN_BYTES / 4 ||
				    !file_of_proc(fr[k].s, r->p.id) ||
				    (last >= 0 &&
				     (b > fr[last].s->blk.read_bytes ||
				      (b == fr[last].s->blk.read_bytes &&
				       k <= last))))
					continue;
				if (best < 0 ||
				    b > fr[best].s->blk.read_bytes)
					best = k;
			}
			if (best < 0)
				break;
			last = best;
			name = file_info_name(&fr[best].f);
			/* each size the sentence says is one of its numbers */
			fnd_num(x, shown == 0 ? "top_file_device_read_bytes" :
				shown == 1 ? "second_file_device_read_bytes" :
				"third_file_device_read_bytes",
				(double)fr[best].s->blk.read_bytes);
			sbuf_addstr(&sb, shown ? ", " : "; of the files it opened, those read most from the devices (by anyone): ");
			units_add_bytes(&sb, (double)fr[best].s->blk.read_bytes);
			sbuf_addf(&sb, " for %s", name);
			fnd_ent(c, x, "file", name, -1);
			dev = fnd_path_dev(c, fr[best].f.path);
			if (!shown && dev) {
				stats_dev_name(c->st, dev, buf, sizeof(buf));
				sbuf_addf(&sb, " (%s)", buf);
				fnd_ent(c, x, "device", buf, dev);
			}
		}
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "files");
	}
	if (nf > 0)
		rows_files_release(fr, nf);
	else
		free(fr);
}
