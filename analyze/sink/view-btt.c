// SPDX-License-Identifier: MIT
/*
 * view-btt.c - the devices view's btt tables (stats/btt.h): Q2Q, the
 * share of Q2C per phase (btt's Device Overhead), the D2D seek
 * distances, as text and as the devices JSON's "btt" member.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "base/blk.h"
#include "stats/btt.h"
#include "stats/summary.h"
#include "sink/json.h"
#include "sink/histtext.h"
#include "sink/sink.h"

/* The share n of d, a fraction; NaN (JSON null) when d is 0. */
static double share(uint64_t n, uint64_t d)
{
	return d ? (double)n / (double)d : 0.0 / 0.0;
}

/* A percentage with 2 decimals, or "-" when there is nothing to share. */
static const char *pct2(char *buf, size_t n, uint64_t v, uint64_t d, bool has)
{
	if (!d || !has)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f", 100.0 * (double)v / (double)d);
	return buf;
}

static void json_phases(struct sink *s, const struct bttdev *b)
{
	static const struct {
		const char *ns, *sh;
		size_t off;
	} ph[] = {
		{ "q2i_ns", "q2i_share", offsetof(struct bttdev, q2i) },
		{ "q2m_ns", "q2m_share", offsetof(struct bttdev, q2m) },
		{ "i2d_ns", "i2d_share", offsetof(struct bttdev, i2d) },
		{ "m2d_ns", "m2d_share", offsetof(struct bttdev, m2d) },
		{ "d2c_ns", "d2c_share", offsetof(struct bttdev, d2c) },
	};
	struct json *j = s->j;

	json_object_begin(j, "phases");
	json_u64(j, "bios", b->bios);
	json_u64(j, "merged", b->merged);
	json_u64(j, "inserted", b->inserted);
	json_u64(j, "q2c_ns", b->q2c);
	for (size_t i = 0; i < sizeof(ph) / sizeof(ph[0]); i++) {
		uint64_t v = *(const uint64_t *)((const char *)b + ph[i].off);

		json_u64(j, ph[i].ns, v);
		json_double(j, ph[i].sh, share(v, b->q2c));
	}
	json_object_end(j);
}

/* Room for the log2 bins of any distance: bin 0, then 2^0 .. 2^63. */
#define SEEK_BINS	65

static void json_seek(struct sink *s, const struct bttdev *b)
{
	struct json *j = s->j;
	uint64_t bins[SEEK_BINS];

	json_object_begin(j, "seek");
	json_u64(j, "seeks", b->seeks);
	json_u64(j, "sequential", b->zero);
	json_u64(j, "forward", b->forward);
	json_u64(j, "backward", b->backward);
	json_double(j, "sequential_share", share(b->zero, b->seeks));
	json_u64(j, "sum_sectors", b->abs_sum);
	json_double(j, "mean_sectors", share(b->abs_sum, b->seeks));
	json_u64(j, "median_sectors", hist_pct(&b->dist, 50));
	json_u64(j, "p90_sectors", hist_pct(&b->dist, 90));
	json_u64(j, "max_sectors", b->dist.max);
	/* the text's log2 bins, [lo, hi, count] inclusive, the empty left out */
	hist_bins(&b->dist, 1, bins, SEEK_BINS);
	json_array_begin(j, "buckets");
	for (int i = 0; i < SEEK_BINS; i++) {
		bool c = j->compact;

		if (!bins[i])
			continue;
		json_array_begin(j, NULL);
		j->compact = true;
		json_u64(j, NULL, i ? 1ULL << (i - 1) : 0);
		json_u64(j, NULL, i ? (1ULL << (i - 1)) * 2 - 1 : 0);
		json_u64(j, NULL, bins[i]);
		json_array_end(j);
		j->compact = c;
	}
	json_array_end(j);
	json_object_end(j);
}

static void btt_json(struct sink *s)
{
	struct stats *a = s->st;
	struct json *j = s->j;

	json_array_begin(j, "btt");
	for (size_t i = 0; i < a->nbtt; i++) {
		const struct bttdev *b = &a->btt[i];
		char mm[32];

		json_object_begin(j, NULL);
		json_str(j, "dev", blk_dev_str(b->dev, mm, sizeof(mm)));
		json_str(j, "device", sink_dev_name(s, b->dev));
		if (a->bio_events) {
			json_hist(j, "q2q", &b->q2q);
			json_phases(s, b);
		} else {
			json_null(j, "q2q");
			json_null(j, "phases");
		}
		json_seek(s, b);
		json_object_end(j);
	}
	json_array_end(j);
}

static const char *dev_col(struct sink *s, uint32_t dev, char *buf, size_t n)
{
	return s->wide ? sink_dev_name(s, dev) :
	       sink_head(s, sink_dev_name(s, dev), 10, buf, n);
}

void view_btt(struct sink *s)
{
	struct stats *a = s->st;
	int dw = s->wide ? 20 : 10;
	char nb[64];

	if (s->j) {
		btt_json(s);
		return;
	}
	if (!a->nbtt)
		return;
	if (a->bio_events) {
		fprintf(s->out, "\nbio inter-arrival (a bio queued -> the next on the device, btt's Q2Q):\n");
		fprintf(s->out, "  %-*s %8s %10s %10s %10s %10s %10s %10s\n", dw,
			"DEVICE", "N", "AVG(ms)", "P50(ms)", "P90(ms)",
			"P99(ms)", "P99.9(ms)", "MAX(ms)");
		for (size_t i = 0; i < a->nbtt; i++) {
			const struct hist *h = &a->btt[i].q2q;

			fprintf(s->out, "  %-*s %8" PRIu64, dw,
				dev_col(s, a->btt[i].dev, nb, sizeof(nb)),
				h->count);
			if (!h->count) {
				fprintf(s->out, " %10s %10s %10s %10s %10s %10s\n",
					"-", "-", "-", "-", "-", "-");
				continue;
			}
			fprintf(s->out, " %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n",
				(double)hist_avg(h) / 1e6,
				(double)hist_pct(h, 50) / 1e6,
				(double)hist_pct(h, 90) / 1e6,
				(double)hist_pct(h, 99) / 1e6,
				(double)hist_pct(h, 99.9) / 1e6,
				(double)h->max / 1e6);
		}
		fprintf(s->out, "\nshare of Q2C per phase, summed over the bios (btt's Device Overhead; Q2I = Q2G + G2I):\n");
		fprintf(s->out, "  %-*s %8s %8s %12s %7s %7s %7s %7s %7s\n", dw,
			"DEVICE", "BIOS", "MERGED", "Q2C-SUM(ms)", "Q2I%",
			"Q2M%", "I2D%", "M2D%", "D2C%");
		for (size_t i = 0; i < a->nbtt; i++) {
			const struct bttdev *b = &a->btt[i];
			char qi[16], qm[16], id[16], md[16], dc[16];
			struct dev_measure m;
			bool ins;

			/* as the I2D table: not without an I/O scheduler */
			summary_measure(a, b->dev, &m);
			ins = m.i2d && b->inserted;

			fprintf(s->out, "  %-*s %8" PRIu64 " %8" PRIu64
				" %12.3f %7s %7s %7s %7s %7s\n", dw,
				dev_col(s, b->dev, nb, sizeof(nb)), b->bios,
				b->merged, (double)b->q2c / 1e6,
				pct2(qi, sizeof(qi), b->q2i, b->q2c, ins),
				pct2(qm, sizeof(qm), b->q2m, b->q2c, b->merged),
				pct2(id, sizeof(id), b->i2d, b->q2c, ins),
				pct2(md, sizeof(md), b->m2d, b->q2c, b->merged),
				pct2(dc, sizeof(dc), b->d2c, b->q2c, true));
		}
	}
	fprintf(s->out, "\nseek distance from the request issued before (btt's D2D, sectors; 0: sequential or overlapping):\n");
	fprintf(s->out, "  %-*s %8s %6s %6s %6s %12s %10s %10s %12s\n", dw,
		"DEVICE", "SEEKS", "SEQ%", "FWD%", "BWD%", "MEAN", "MEDIAN",
		"P90", "MAX");
	for (size_t i = 0; i < a->nbtt; i++) {
		const struct bttdev *b = &a->btt[i];
		char sq[16], fw[16], bw[16];

		fprintf(s->out, "  %-*s %8" PRIu64, dw,
			dev_col(s, b->dev, nb, sizeof(nb)), b->seeks);
		if (!b->seeks) {
			fprintf(s->out, " %6s %6s %6s %12s %10s %10s %12s\n", "-",
				"-", "-", "-", "-", "-", "-");
			continue;
		}
		fprintf(s->out, " %6s %6s %6s %12.1f %10" PRIu64 " %10" PRIu64
			" %12" PRIu64 "\n",
			pct2(sq, sizeof(sq), b->zero, b->seeks, true),
			pct2(fw, sizeof(fw), b->forward, b->seeks, true),
			pct2(bw, sizeof(bw), b->backward, b->seeks, true),
			(double)b->abs_sum / (double)b->seeks,
			hist_pct(&b->dist, 50), hist_pct(&b->dist, 90),
			b->dist.max);
	}
}

void view_btt_hist(struct sink *s)
{
	struct stats *a = s->st;

	for (size_t i = 0; !s->j && !s->no_hist && i < a->nbtt; i++) {
		if (!a->btt[i].dist.count)
			continue;
		fprintf(s->out, "\n%s: seek distance (D2D, |sectors|)\n",
			sink_dev_name(s, a->btt[i].dev));
		hist_text_count(s->out, &a->btt[i].dist, "sectors");
	}
}
