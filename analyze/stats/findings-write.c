// SPDX-License-Identifier: MIT
/*
 * findings-write.c - the rules of buffered writing: dirty-page
 * throttling (dirty-throttling) and write amplification
 * (write-amplification).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/units.h"
#include "input/meta.h"
#include "stats/dirty.h"
#include "stats/findings-int.h"
#include "stats/rows.h"
#include "stats/stats.h"
#include "stats/wa.h"

/* ------------------------------------------------------------------ */
/* Dirty throttling */

void rule_dirty(struct ctx *c)
{
	const struct dirty *d = c->st->dirty;
	struct dirty_row *v;
	long n;

	if (!d || !d->pause_ms)
		return;
	n = rows_dirty(c->st, &v);
	if (n < 0) {
		c->err = (int)n;
		return;
	}
	for (long i = 0; i < n && i < 3; i++) {
		const struct dirty_row *r = &v[i];
		uint64_t ns = dirty_ms2ns(r->pause_ms), mem = fnd_memtotal(c);
		double th = (double)(d->max_thresh * d->page_size);
		double bg = (double)(d->max_bg_thresh * d->page_size);
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		const char *keys[] = { "vm.dirty_bytes", "vm.dirty_ratio",
			"vm.dirty_background_bytes",
			"vm.dirty_background_ratio" };

		if (!r->pause_ms)
			break;
		x = fnd_add(c, "dirty-throttling", 10 * ns >= c->dur ?
			FND_HIGH : FND_WARNING, ns);
		fnd_ent(c, x, "process", r->comm, r->pid);
		fnd_ev_view(x, "dirty");
		fnd_evn(x, "pid", r->pid);
		fnd_evn(x, "throttle_events", (double)r->bdp);
		fnd_evn(x, "paused_events", (double)r->paused);
		fnd_evn(x, "paused_ns", (double)ns);
		fnd_evn(x, "max_pause_ns", (double)dirty_ms2ns(r->max_ms));
		sbuf_addf(&sb, "%s (pid %d) was paused by balance_dirty_pages %"
			  PRIu64 " times for ", r->comm, r->pid, r->paused);
		units_add_dur(&sb, (double)ns);
		sbuf_addstr(&sb, " (longest ");
		units_add_dur(&sb, (double)dirty_ms2ns(r->max_ms));
		sbuf_addstr(&sb, ")");
		if (d->gds_samples) {
			double peak = (double)(d->max_dirty * d->page_size);

			fnd_evn(x, "max_dirty_bytes", peak);
			fnd_evn(x, "dirty_thresh_bytes_max", th);
			fnd_evn(x, "background_thresh_bytes_max", bg);
			sbuf_addstr(&sb, ": it dirtied pages faster than its device wrote them; dirty data peaked at ");
			units_add_bytes(&sb, peak);
			sbuf_addstr(&sb, peak < th ? ", under the dirty threshold of " :
				    ", past the dirty threshold of ");
			units_add_bytes(&sb, th);
			sbuf_addstr(&sb, " (background writeback from ");
			units_add_bytes(&sb, bg);
			sbuf_addstr(&sb, ")");
			if (mem) {
				fnd_num(x, "memtotal_bytes", (double)mem);
				sbuf_addstr(&sb, ", ");
				fnd_add_pct(&sb, th, (double)mem);
				sbuf_addstr(&sb, " and ");
				fnd_add_pct(&sb, bg, (double)mem);
				sbuf_addstr(&sb, " of the ");
				units_add_bytes(&sb, (double)mem);
				sbuf_addstr(&sb, " of memory");
			}
		}
		for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
			const char *val = fnd_sysctl_of(c, keys[k]);
			char kv[128];

			if (!val || !strcmp(val, "0"))
				continue;
			snprintf(kv, sizeof(kv), "%s=%s", keys[k], val);
			fnd_ent(c, x, "sysctl", kv, -1);
		}
		if (x && x->nent > 1) {
			sbuf_addstr(&sb, ", set by");
			for (int k = 1; k < x->nent; k++)
				sbuf_addf(&sb, " %s", x->ent[k].name);
		}
		if (d->gds_samples && (double)(d->max_dirty * d->page_size) < th)
			sbuf_addstr(&sb, "; the kernel throttles a writer before the global threshold when its device's share of the dirty pages is over that device's part of the limit");
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "dirty");
	}
	free(v);
}


/* ------------------------------------------------------------------ */
/* Write amplification with its cause */

void rule_wa(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct wa *wa = st->wa;
	struct wa_row *v = NULL;
	long n = 0;

	if (!wa)
		return;
	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		const struct devstat *ds = fnd_devstat_of(st, d->dev, BLK_OP_WRITE);
		const struct cfg_mount *m = fnd_mount_on(c, d->dev);
		double ratio, extra, lost;
		int cause = WA_JOURNAL;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		char buf[96];
		uint64_t fs = 0;

		if (!d->app_bytes || d->ops.bytes[BLK_OP_WRITE] <= d->app_bytes)
			continue;
		ratio = (double)d->ops.bytes[BLK_OP_WRITE] / (double)d->app_bytes;
		extra = (double)(d->ops.bytes[BLK_OP_WRITE] - d->app_bytes);
		if (ratio < WA_MIN_RATIO || extra < WA_MIN_EXTRA)
			continue;
		for (int k = WA_JOURNAL; k < WA_NCLASS; k++)
			if (d->cls[k] > d->cls[cause])
				cause = k;
		for (size_t k = 0; k < wa->nfs; k++)
			if (fnd_disk_of(c, wa->fs[k].fsdev) == d->dev)
				fs += wa->fs[k].count;
		lost = ds ? (double)ds->device.sum * extra /
			    (double)d->ops.bytes[BLK_OP_WRITE] : 0;
		x = fnd_add(c, "write-amplification", ratio >= 3 ? FND_WARNING :
			FND_INFO, (uint64_t)fmin(lost, c->dur));
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		fnd_ent(c, x, "device", buf, d->dev);
		fnd_num(x, "ratio", ratio);
		fnd_ev_view(x, "wa");
		fnd_evs(c, x, "device", buf);
		fnd_evn(x, "app_write_bytes", (double)d->app_bytes);
		fnd_evn(x, "write_bytes", (double)d->ops.bytes[BLK_OP_WRITE]);
		fnd_evn(x, "data_bytes", (double)d->cls[WA_DATA]);
		fnd_evn(x, "journal_bytes", (double)d->cls[WA_JOURNAL]);
		fnd_evn(x, "metadata_bytes", (double)d->cls[WA_META]);
		fnd_evn(x, "other_bytes", (double)d->cls[WA_OTHER]);
		sbuf_addf(&sb, "%s wrote %.2fx what the applications wrote (",
			  buf, ratio);
		units_add_bytes(&sb, (double)d->ops.bytes[BLK_OP_WRITE]);
		sbuf_addstr(&sb, " for ");
		units_add_bytes(&sb, (double)d->app_bytes);
		sbuf_addstr(&sb, "); most of the rest is ");
		if (cause == WA_JOURNAL && m && !strcmp(m->data, "journal"))
			sbuf_addstr(&sb, "the journal: data=journal writes every block twice");
		else if (cause == WA_JOURNAL && fs) {
			fnd_num(x, "app_write_bytes_per_fsync",
				(double)d->app_bytes / (double)fs);
			sbuf_addf(&sb, "the journal: %" PRIu64 " fsyncs of about ", fs);
			units_add_bytes(&sb, (double)d->app_bytes / (double)fs);
			sbuf_addstr(&sb, " each commit a journal transaction apiece");
		} else if (cause == WA_JOURNAL)
			sbuf_addstr(&sb, "the journal");
		else if (cause == WA_META)
			sbuf_addstr(&sb, "metadata (inodes, bitmaps, directories)");
		else
			sbuf_addstr(&sb, "writes of no known owner");
		sbuf_addstr(&sb, " (");
		units_add_bytes(&sb, (double)d->cls[cause]);
		sbuf_addstr(&sb, ")");
		if (!v && st->have_sys) {
			n = rows_wa(st, true, &v);
			if (n < 0) {
				c->err = (int)n;
				n = 0;
			}
		}
		for (long k = 0; k < n; k++)
			if (v[k].app) {
				sbuf_addf(&sb, "; the top writer is %s (pid %d)",
					  v[k].name, v[k].pid);
				fnd_ent(c, x, "process", v[k].name, v[k].pid);
				break;
			}
		if (m)
			fnd_ent(c, x, "mount", m->dir, meta_devt(m->dev));
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "wa");
	}
	rows_wa_release(v, n);
}
