// SPDX-License-Identifier: MIT
/*
 * view-diff.c - two recordings side by side (see sink.h): what changed
 * in the machine, every section of the diff model (stats/diffmodel.h)
 * with BEFORE, AFTER, the delta and the relative change, and the latency
 * histograms of both in one picture.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/diffmodel.h"
#include "stats/signif.h"
#include "sink/histtext.h"
#include "sink/json.h"
#include "sink/sink.h"

#define MS		1e6	/* ns per ms */

static double scale(enum dm_unit u, double v)
{
	switch (u) {
	case DM_BYTES:
	case DM_BPS:
		return units_mib(v);
	case DM_NS:
		return v / MS;
	default:
		return v;
	}
}

static void print_val(FILE *out, enum dm_unit u, const char *label, double v)
{
	if (isnan(v)) {
		fprintf(out, " %13s", "-");
		return;
	}
	v = scale(u, v);
	if (!strcmp(label, "duration(s)"))
		v /= 1000;
	if (u == DM_COUNT)
		fprintf(out, " %13.0f", v);
	else if (u == DM_RATIO)
		fprintf(out, " %13.2f", v);
	else
		fprintf(out, " %13.3f", v);
}

static double pct_change(double b, double a)
{
	if (isnan(a) || isnan(b))
		return NAN;
	if (b == 0)
		return a == 0 ? 0 : INFINITY;
	return (a - b) / fabs(b) * 100;
}

static void print_pct(FILE *out, double b, double a)
{
	double p = pct_change(b, a);

	if (isnan(b) && !isnan(a))
		fprintf(out, " %9s", "new");
	else if (isnan(a) && !isnan(b))
		fprintf(out, " %9s", "gone");
	else if (isnan(p))
		fprintf(out, " %9s", "-");
	else if (isinf(p))
		fprintf(out, " %9s", "new");
	else
		fprintf(out, " %+8.1f%%", p);
}

/* The durations of both recordings, s: the exposure of rates. */
static void secs_of(const struct diff *d, double *b, double *a)
{
	*b = (double)stats_duration(d->b) / 1e9;
	*a = (double)stats_duration(d->a) / 1e9;
}

static void section_text(struct sink *s, const struct diff *d, int sect,
			 long top)
{
	double sb_s, sa_s;
	const struct dm_section *sb = &d->mb.s[sect];
	FILE *out = s->out;
	struct dm_pair *v;
	long n = dm_pairs(d, sect, top, &v);

	if (n < 0) {
		s->err = (int)n;
		return;
	}
	secs_of(d, &sb_s, &sa_s);
	fprintf(out, "\n%s:\n", sb->name);
	if (!n)
		fprintf(out, "  (nothing in either recording)\n");
	for (long i = 0; i < n; i++) {
		fprintf(out, "  %s%s\n", v[i].key, !v[i].b ? "  (only AFTER)" :
			!v[i].a ? "  (only BEFORE)" : "");
		fprintf(out, "    %-22s %13s %13s %13s %9s\n", "", "BEFORE",
			"AFTER", "DELTA", "CHANGE");
		for (int m = 0; m < sb->nm; m++) {
			const struct dm_metric *me = &sb->m[m];
			/* a row of one side only: no 0 and -100 % for the other */
			double b = v[i].b ? dm_value(me, v[i].b) : NAN;
			double a = v[i].a ? dm_value(me, v[i].a) : NAN;

			struct dm_sig sig;

			if ((b == 0 || isnan(b)) && (a == 0 || isnan(a)))
				continue;	/* nothing on either side */
			fprintf(out, "    %-22s", me->label);
			print_val(out, me->u, me->label, b);
			print_val(out, me->u, me->label, a);
			print_val(out, me->u, me->label,
				  isnan(a) || isnan(b) ? NAN : a - b);
			print_pct(out, b, a);
			dm_signif(me, v[i].b, v[i].a, sb_s, sa_s, &sig);
			fputs(sig.significant ? "  *\n" : "\n", out);
		}
	}
	free(v);
}

static void section_json(struct sink *s, const struct diff *d, int sect,
			 long top)
{
	const struct dm_section *sb = &d->mb.s[sect];
	struct json *j = s->j;
	struct dm_pair *v;
	long n = dm_pairs(d, sect, top, &v);
	double sb_s, sa_s;

	if (n < 0) {
		s->err = (int)n;
		return;
	}
	secs_of(d, &sb_s, &sa_s);
	json_array_begin(j, sb->name);
	for (long i = 0; i < n; i++) {
		json_object_begin(j, NULL);
		json_str(j, "key", v[i].key);
		json_bool(j, "in_before", v[i].b != NULL);
		json_bool(j, "in_after", v[i].a != NULL);
		json_object_begin(j, "metrics");
		for (int m = 0; m < sb->nm; m++) {
			const struct dm_metric *me = &sb->m[m];
			double b = v[i].b ? dm_value(me, v[i].b) : NAN;
			double a = v[i].a ? dm_value(me, v[i].a) : NAN;
			struct dm_sig sig;

			dm_signif(me, v[i].b, v[i].a, sb_s, sa_s, &sig);
			json_object_begin(j, me->json);
			json_num(j, "before", b);
			json_num(j, "after", a);
			json_num(j, "delta", isnan(a) || isnan(b) ? NAN : a - b);
			json_num(j, "pct", pct_change(b, a));
			if (sig.test) {
				json_bool(j, "significant", sig.significant);
				json_double(j, "p", sig.p);
			} else {
				json_null(j, "significant");
				json_null(j, "p");
			}
			json_str(j, "test", sig_test_name(sig.test));
			json_double(j, "after_larger", sig.after_larger);
			json_object_end(j);
		}
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	free(v);
}

/* A latency picture of a row key: BEFORE's and AFTER's (either may be NULL). */
typedef void (*picture_fn)(struct sink *s, const char *key,
			   enum dm_picture pic, const struct hist *hb,
			   const struct hist *ha);

/* Each row pictured: device I2C per device+op, ext4 fsync per comm. */
static void each_picture(struct sink *s, const struct diff *d, long top,
			 picture_fn fn)
{
	static const int pictured[] = { DM_DEVICES, DM_FSYNC };

	for (size_t k = 0; k < sizeof(pictured) / sizeof(*pictured); k++) {
		const struct dm_section *sb = &d->mb.s[pictured[k]];
		const struct dm_section *sa = &d->ma.s[pictured[k]];
		struct dm_pair *v;
		long n = dm_pairs(d, pictured[k], top, &v);

		if (n < 0) {
			s->err = (int)n;
			return;
		}
		for (long i = 0; i < n; i++)
			fn(s, v[i].key, sb->pic,
			   v[i].b ? dm_picture(sb, v[i].b) : NULL,
			   v[i].a ? dm_picture(sa, v[i].a) : NULL);
		free(v);
	}
}

static void picture_text(struct sink *s, const char *key, enum dm_picture pic,
			 const struct hist *hb, const struct hist *ha)
{
	char title[600];

	if ((!hb || !hb->count) && (!ha || !ha->count))
		return;
	snprintf(title, sizeof(title), "%s %s", key, pic == DM_PIC_Q2C ?
		 "latency (I2C), BEFORE and AFTER" :
		 "fsync latency (ext4_sync_file), BEFORE and AFTER");
	hist_text_pair(s->out, title, hb, ha, 1);
}

static void picture_json(struct sink *s, const char *key, enum dm_picture pic,
			 const struct hist *hb, const struct hist *ha)
{
	struct json *j = s->j;

	json_object_begin(j, NULL);
	json_str(j, "key", key);
	json_str(j, "what", pic == DM_PIC_Q2C ? "q2c" : "fsync");
	if (hb)
		json_hist(j, "before", hb);
	else
		json_null(j, "before");
	if (ha)
		json_hist(j, "after", ha);
	else
		json_null(j, "after");
	json_object_end(j);
}

static void config_text(const struct sink *s, const struct snapdiff *sd)
{
	FILE *out = s->out;

	fprintf(out, "\nconfig changes (start snapshots):\n");
	if (!sd->n)
		fprintf(out, "  none (kernel, sysctls, mounts of the devices used, queue settings)\n");
	for (size_t i = 0; i < sd->n; i++) {
		const struct snapdiff_item *it = &sd->v[i];

		sink_printf(s, "  %-9s %-28s %s -> %s%s%s%s\n", it->what,
			it->key, it->before ? it->before : "(absent)",
			it->after ? it->after : "(absent)",
			it->note ? "   [" : "", it->note ? it->note : "",
			it->note ? "]" : "");
	}
}

static void config_json(struct json *j, const struct snapdiff *sd)
{
	json_array_begin(j, "config");
	for (size_t i = 0; i < sd->n; i++) {
		const struct snapdiff_item *it = &sd->v[i];

		json_object_begin(j, NULL);
		json_str(j, "what", it->what);
		json_str(j, "key", it->key);
		json_str(j, "before", it->before);
		json_str(j, "after", it->after);
		json_str(j, "note", it->note);
		json_object_end(j);
	}
	json_array_end(j);
}

/* Whether a section of d has a kworker row keyed by its role. */
static bool kworker_rows(const struct diff *d)
{
	static const int sect[] = { DM_PROCESSES, DM_FSYNC };

	for (size_t k = 0; k < sizeof(sect) / sizeof(*sect); k++)
		for (int side = 0; side < 2; side++) {
			const struct dm_section *s = side ? &d->ma.s[sect[k]] :
							    &d->mb.s[sect[k]];

			for (size_t i = 0; i < s->n; i++)
				if (!strcmp(s->rows[i].key, "kworker/*"))
					return true;
		}
	return false;
}

/*
 * What of AFTER is compared as what of BEFORE: the mounts matched at
 * another mount point (and why), the devices under another name, the
 * kernel workers by role.  Text, or the JSON member "pairing".
 */
static void pairing(const struct sink *s, const struct diff *d)
{
	const struct snapdiff *sd = &d->sd;
	bool kw = kworker_rows(d);

	if (s->j) {
		json_array_begin(s->j, "pairing");
	} else if (sd->nmp || sd->ndm || kw) {
		fprintf(s->out, "\npaired (what of AFTER is compared as what of BEFORE):\n");
	}
	for (size_t i = 0; i < sd->nmp; i++) {
		if (s->j) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "what", "mount");
			json_str(s->j, "before", sd->mp[i].before);
			json_str(s->j, "after", sd->mp[i].after);
			json_str(s->j, "why", sd->mp[i].why);
			json_object_end(s->j);
		} else {
			sink_printf(s, "  mount     %s (AFTER) as %s: %s; its files by their path below it\n",
				    sd->mp[i].after, sd->mp[i].before, sd->mp[i].why);
		}
	}
	for (size_t i = 0; i < sd->ndm; i++) {
		char nb[64], na[64];

		stats_dev_name(d->b, sd->dm[i].before, nb, sizeof(nb));
		stats_dev_name(d->a, sd->dm[i].after, na, sizeof(na));
		if (s->j) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "what", "device");
			json_str(s->j, "before", nb);
			json_str(s->j, "after", na);
			json_str(s->j, "why", "it holds the matched file system");
			json_object_end(s->j);
		} else {
			sink_printf(s, "  device    %s (AFTER) as %s: it holds the matched file system\n",
				    na, nb);
		}
	}
	if (kw) {
		if (s->j) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "what", "kworkers");
			json_str(s->j, "before", "kworker/*");
			json_str(s->j, "after", "kworker/*");
			json_str(s->j, "why", "the kernel's workers as one: their numbers and the work their names say change from run to run");
			json_object_end(s->j);
		} else {
			fprintf(s->out, "  kworkers  as one, kworker/*: their numbers and the work their names say change from run to run\n");
		}
	}
	if (s->j)
		json_array_end(s->j);
}

static void head_json(struct json *j, const char *key, const struct stats *st)
{
	json_object_begin(j, key);
	json_str(j, "recording", st->info->path);
	json_str(j, "view", "diff");
	json_u64(j, "duration_ns", stats_duration(st));
	json_object_end(j);
}

void view_diff(struct sink *s, const struct diff *d, long top)
{
	if (s->j) {
		head_json(s->j, "before", d->b);
		head_json(s->j, "after", d->a);
		config_json(s->j, &d->sd);
		pairing(s, d);
		json_object_begin(s->j, "sections");
		for (int k = 0; k < DM_NSECT; k++)
			section_json(s, d, k, top);
		json_object_end(s->j);
		json_array_begin(s->j, "histograms");
		each_picture(s, d, top, picture_json);
		json_array_end(s->j);
		return;
	}
	fprintf(s->out, "BEFORE: %s, %.6f s\nAFTER:  %s, %.6f s\n",
		d->b->info->path, (double)stats_duration(d->b) / 1e9,
		d->a->info->path, (double)stats_duration(d->a) / 1e9);
	fprintf(s->out, "  *: beyond run-to-run noise (docs/diff-significance.md): p < %g, a change of %.0f%% or\n"
		"     more, for latencies P(an AFTER operation is longer) outside %.2f..%.2f\n",
		SIG_ALPHA, SIG_MIN_CHANGE * 100, 0.5 - SIG_MIN_EFFECT,
		0.5 + SIG_MIN_EFFECT);
	pairing(s, d);
	config_text(s, &d->sd);
	for (int k = 0; k < DM_NSECT; k++)
		section_text(s, d, k, top);
	each_picture(s, d, top, picture_text);
}
