// SPDX-License-Identifier: MIT
/*
 * json.c - the streaming JSON writer of json.h.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sink/json.h"
#include "stats/hist.h"

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

static void newline(struct json *j)
{
	if (j->compact)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void put_escaped(FILE *f, const char *s, size_t len);

/* Comma, newline, indentation and key before a value. */
static void member(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->has_member[j->depth - 1])
			fputc(',', j->f);
		j->has_member[j->depth - 1] = true;
		newline(j);
		if (j->in_array[j->depth - 1] != !key)
			j->misuse = true;	/* key in array or none in object */
	} else if (key) {
		j->misuse = true;
	}
	if (key) {
		put_escaped(j->f, key, strlen(key));
		fputs(j->compact ? ":" : ": ", j->f);
	}
}

static void open_level(struct json *j, const char *key, char c, bool array)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth >= JSON_MAX_DEPTH) {
		j->misuse = true;
		return;
	}
	j->has_member[j->depth] = false;
	j->in_array[j->depth] = array;
	j->depth++;
}

static void close_level(struct json *j, char c, bool array)
{
	bool had;

	if (j->depth <= 0 || j->in_array[j->depth - 1] != array) {
		j->misuse = true;
		return;
	}
	had = j->has_member[j->depth - 1];
	j->depth--;
	if (had)
		newline(j);
	fputc(c, j->f);
}

void json_object_begin(struct json *j, const char *key)
{
	open_level(j, key, '{', false);
}

void json_object_end(struct json *j)
{
	close_level(j, '}', false);
}

void json_array_begin(struct json *j, const char *key)
{
	open_level(j, key, '[', true);
}

void json_array_end(struct json *j)
{
	close_level(j, ']', true);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void put_escaped(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = s[i];
		size_t u;

		switch (c) {
		case '"': fputs("\\\"", f); continue;
		case '\\': fputs("\\\\", f); continue;
		case '\n': fputs("\\n", f); continue;
		case '\t': fputs("\\t", f); continue;
		case '\r': fputs("\\r", f); continue;
		case '\b': fputs("\\b", f); continue;
		case '\f': fputs("\\f", f); continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else if ((u = utf8_len(s + i, len - i))) {
			fwrite(s + i, 1, u, f);
			i += u - 1;
		} else {
			fprintf(f, "\\u%04x", c);	/* not UTF-8: Latin-1 */
		}
	}
	fputc('"', f);
}

void json_strn(struct json *j, const char *key, const char *s, size_t len)
{
	member(j, key);
	if (s)
		put_escaped(j->f, s, len);
	else
		fputs("null", j->f);
}

void json_str(struct json *j, const char *key, const char *s)
{
	json_strn(j, key, s, s ? strlen(s) : 0);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_double(struct json *j, const char *key, double v)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.9g", v);
	else
		fputs("null", j->f);
}

void json_num(struct json *j, const char *key, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		json_i64(j, key, (int64_t)v);
	else
		json_double(j, key, v);
}

void json_us(struct json *j, const char *key, uint64_t ns)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

void json_bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void json_u64s(struct json *j, const void *base,
	       const struct json_u64_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_u64(j, f[i].key,
			 *(const uint64_t *)((const char *)base + f[i].off));
}

int json_finish(struct json *j)
{
	if (j->depth)
		j->misuse = true;
	fputc('\n', j->f);
	if (fflush(j->f) || ferror(j->f))
		return -1;
	return j->misuse ? -1 : 0;
}

/* The members every latency object has (docs/json/common.schema.json). */
static void lat_members(struct json *j, const struct hist *h)
{
	json_u64(j, "count", h->count);
	json_u64(j, "sum_ns", h->sum);
	json_u64(j, "avg_ns", hist_avg(h));
	json_u64(j, "min_ns", h->count ? h->min : 0);
	json_u64(j, "max_ns", h->max);
	json_u64(j, "p50_ns", hist_pct(h, 50));
	json_u64(j, "p90_ns", hist_pct(h, 90));
	json_u64(j, "p99_ns", hist_pct(h, 99));
	json_u64(j, "p999_ns", hist_pct(h, 99.9));
}

void json_lat(struct json *j, const char *key, const struct hist *h)
{
	json_object_begin(j, key);
	lat_members(j, h);
	json_object_end(j);
}

void json_hist(struct json *j, const char *key, const struct hist *h)
{
	uint64_t lo, hi, n;
	int pos = 0;

	json_object_begin(j, key);
	lat_members(j, h);
	json_array_begin(j, "buckets");
	while (hist_next_bucket(h, &pos, &lo, &hi, &n)) {
		bool c = j->compact;

		/* one bucket per line: [lo, hi, count] */
		json_array_begin(j, NULL);
		j->compact = true;
		json_u64(j, NULL, lo);
		json_u64(j, NULL, hi);
		json_u64(j, NULL, n);
		json_array_end(j);
		j->compact = c;
	}
	json_array_end(j);
	json_object_end(j);
}

void json_sizes(struct json *j, const char *key, const struct sizehist *h)
{
	json_object_begin(j, key);
	json_u64(j, "count", h->count);
	json_u64(j, "bytes", h->bytes);
	json_array_begin(j, "buckets");
	for (int k = 0; k < SIZEHIST_SLOTS; k++) {
		uint64_t lo, hi;
		bool c = j->compact;

		if (!h->n[k])
			continue;
		sizehist_bounds(k, &lo, &hi);
		/* one bucket per line: [lo, hi, count], bytes inclusive */
		json_array_begin(j, NULL);
		j->compact = true;
		json_u64(j, NULL, lo);
		json_u64(j, NULL, hi);
		json_u64(j, NULL, h->n[k]);
		json_array_end(j);
		j->compact = c;
	}
	json_array_end(j);
	json_object_end(j);
}
