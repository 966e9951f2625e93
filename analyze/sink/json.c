// SPDX-License-Identifier: MIT
/*
 * json.c - the streaming JSON writer of json.h.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sink/json.h"
#include "sink/table.h"
#include "stats/hist.h"

static void csv_open(struct json *j, const char *key, bool array);
static void csv_close(struct json *j);
static void csv_scalar(struct json *j, const char *key, const char *s,
		       size_t len, bool str);

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
	if (j->csv)
		csv_open(j, key, array);
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
	if (j->csv)
		csv_close(j);
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
	if (j->csv)
		csv_scalar(j, key, s, len, true);
}

/* A number, true, false or null as the JSON text t (null: NULL). */
static void scalar(struct json *j, const char *key, const char *t)
{
	member(j, key);
	fputs(t ? t : "null", j->f);
	if (j->csv)
		csv_scalar(j, key, t, t ? strlen(t) : 0, false);
}

void json_str(struct json *j, const char *key, const char *s)
{
	json_strn(j, key, s, s ? strlen(s) : 0);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	char t[32];

	snprintf(t, sizeof(t), "%" PRIu64, v);
	scalar(j, key, t);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	char t[32];

	snprintf(t, sizeof(t), "%" PRId64, v);
	scalar(j, key, t);
}

void json_double(struct json *j, const char *key, double v)
{
	char t[40];

	snprintf(t, sizeof(t), "%.9g", v);
	scalar(j, key, isfinite(v) ? t : NULL);
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
	char t[40];

	snprintf(t, sizeof(t), "%" PRIu64 ".%03u", ns / 1000,
		 (unsigned int)(ns % 1000));
	scalar(j, key, t);
}

void json_bool(struct json *j, const char *key, bool v)
{
	scalar(j, key, v ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	scalar(j, key, NULL);
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

/* ------------------------------------------------------------------ */
/* One table of the document as CSV (json_csv_begin()) */

struct csv_row {
	size_t n;
	size_t *col;		/* the column of each cell */
	char **val;
};

struct json_csv {
	const char *table;	/* the dotted path of the table's array */
	FILE *out, *null;
	/* per level (j->depth after opening it): its key, whether an array */
	char *key[JSON_MAX_DEPTH + 2];
	bool arr[JSON_MAX_DEPTH + 2];
	int table_lvl;		/* level of the table's array, 0: outside */
	bool found, in_row;
	/* a nested array of a row: its compact JSON into a memory stream */
	int raw_lvl;		/* 0: none */
	FILE *raw, *saved_f;
	char *raw_buf, *raw_col;
	size_t raw_len;
	bool saved_compact;
	char **cols;		/* the header, in the order first seen */
	size_t ncols, acols;
	size_t *hint;		/* the column of the previous row's i-th cell */
	size_t nhint;
	struct csv_row row, *rows;
	size_t nrows, arows;
	char **tables;		/* the other arrays seen, for the error */
	size_t ntables;
	bool oom;
};

static char *csv_strdup(struct json_csv *c, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		c->oom = true;
	return d;
}

static bool csv_grow(struct json_csv *c, void *pp, size_t *alloc, size_t n,
		     size_t size)
{
	void **p = pp;
	size_t a = *alloc ? *alloc * 2 : 16;
	void *np;

	if (n < *alloc)
		return true;
	np = realloc(*p, a * size);
	if (!np) {
		c->oom = true;
		return false;
	}
	*p = np;
	*alloc = a;
	return true;
}

/* The keys of levels from..to joined by dots, then key (when not NULL). */
static char *csv_path(struct json_csv *c, int from, int to, const char *key)
{
	size_t len = 1;
	char *p;

	for (int l = from; l <= to; l++)
		len += strlen(c->key[l] ? c->key[l] : "") + 1;
	len += key ? strlen(key) + 1 : 0;
	p = malloc(len);
	if (!p) {
		c->oom = true;
		return NULL;
	}
	*p = '\0';
	for (int l = from; l <= to; l++) {
		if (*p)
			strcat(p, ".");
		strcat(p, c->key[l] ? c->key[l] : "");
	}
	if (key) {
		if (*p)
			strcat(p, ".");
		strcat(p, key);
	}
	return p;
}

/* The column of name (taking it), added at the end when new. */
static size_t csv_column(struct json_csv *c, char *name)
{
	size_t i = c->row.n;

	if (i < c->nhint && c->hint[i] < c->ncols &&
	    !strcmp(c->cols[c->hint[i]], name)) {
		free(name);
		return c->hint[i];
	}
	for (size_t k = 0; k < c->ncols; k++)
		if (!strcmp(c->cols[k], name)) {
			free(name);
			return k;
		}
	if (!csv_grow(c, &c->cols, &c->acols, c->ncols, sizeof(*c->cols))) {
		free(name);
		return 0;
	}
	c->cols[c->ncols] = name;
	return c->ncols++;
}

/* A cell of the current row: column name (taken), value val (taken). */
static void csv_cell(struct json_csv *c, char *name, char *val)
{
	struct csv_row *r = &c->row;
	size_t col, *ncol;
	char **nval;

	if (!name || !val || c->oom) {
		free(name);
		free(val);
		return;
	}
	col = csv_column(c, name);
	if (c->oom) {
		free(val);
		return;
	}
	ncol = realloc(r->col, (r->n + 1) * sizeof(*r->col));
	if (ncol)
		r->col = ncol;
	nval = ncol ? realloc(r->val, (r->n + 1) * sizeof(*r->val)) : NULL;
	if (nval)
		r->val = nval;
	if (!ncol || !nval) {
		c->oom = true;
		free(val);
		return;
	}
	if (r->n >= c->nhint) {
		size_t *h = realloc(c->hint, (r->n + 1) * sizeof(*h));

		if (h) {
			c->hint = h;
			c->nhint = r->n + 1;
		}
	}
	if (r->n < c->nhint)
		c->hint[r->n] = col;
	r->col[r->n] = col;
	r->val[r->n++] = val;
}

static void csv_row_free(struct csv_row *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->val[i]);
	free(r->col);
	free(r->val);
	memset(r, 0, sizeof(*r));
}

static void csv_open(struct json *j, const char *key, bool array)
{
	struct json_csv *c = j->csv;
	int l = j->depth + 1;
	char *path;

	if (c->raw_lvl || l > JSON_MAX_DEPTH)
		return;
	free(c->key[l]);
	c->key[l] = key ? csv_strdup(c, key) : NULL;
	c->arr[l] = array;
	if (c->table_lvl && l == c->table_lvl + 1) {
		/* an element of the table: an object is a row */
		c->in_row = !array;
		return;
	}
	if (c->table_lvl && c->in_row && l > c->table_lvl + 1) {
		if (!array)
			return;
		/* a nested array: one cell of its compact JSON */
		c->raw = open_memstream(&c->raw_buf, &c->raw_len);
		if (!c->raw) {
			c->oom = true;
			return;
		}
		c->raw_col = csv_path(c, c->table_lvl + 2, l - 1, key);
		c->raw_lvl = l;
		c->saved_f = j->f;
		c->saved_compact = j->compact;
		j->f = c->raw;
		j->compact = true;
		return;
	}
	if (c->table_lvl || !array)
		return;
	/* an array outside the table: the table when its path is table's */
	for (int k = 2; k < l; k++)
		if (c->arr[k])
			return;		/* inside another array */
	path = csv_path(c, 2, l, NULL);
	if (!path)
		return;
	if (!strcmp(path, c->table)) {
		c->table_lvl = l;
		c->found = true;
		free(path);
		return;
	}
	for (size_t k = 0; k < c->ntables; k++)
		if (!strcmp(c->tables[k], path)) {
			free(path);
			return;
		}
	char **t = realloc(c->tables, (c->ntables + 1) * sizeof(*t));

	if (!t) {
		c->oom = true;
		free(path);
		return;
	}
	c->tables = t;
	c->tables[c->ntables++] = path;
}

static void csv_close(struct json *j)
{
	struct json_csv *c = j->csv;
	int l = j->depth + 1;

	if (c->raw_lvl) {
		if (l != c->raw_lvl)
			return;
		j->f = c->saved_f;
		j->compact = c->saved_compact;
		c->raw_lvl = 0;
		if (fclose(c->raw))
			c->oom = true;
		c->raw = NULL;
		csv_cell(c, c->raw_col, c->raw_buf);
		c->raw_col = NULL;
		c->raw_buf = NULL;
		return;
	}
	if (c->table_lvl && l == c->table_lvl) {
		c->table_lvl = 0;
	} else if (c->table_lvl && l == c->table_lvl + 1 && c->in_row) {
		c->in_row = false;
		if (!csv_grow(c, &c->rows, &c->arows, c->nrows,
			      sizeof(*c->rows)))
			csv_row_free(&c->row);
		else
			c->rows[c->nrows++] = c->row;
		memset(&c->row, 0, sizeof(c->row));
	}
	if (l <= JSON_MAX_DEPTH) {
		free(c->key[l]);
		c->key[l] = NULL;
	}
}

/*
 * A string as the JSON says it: valid UTF-8 as it is, other bytes as
 * their Latin-1 reading (see put_escaped()).
 */
static char *csv_text(struct json_csv *c, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	char *d = malloc(2 * len + 1), *p = d;

	if (!d) {
		c->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < len && s[i]; i++) {
		size_t u;

		if (s[i] < 0x80) {
			*p++ = (char)s[i];
		} else if ((u = utf8_len(s + i, len - i))) {
			memcpy(p, s + i, u);
			p += u;
			i += u - 1;
		} else {
			*p++ = (char)(0xc0 | s[i] >> 6);
			*p++ = (char)(0x80 | (s[i] & 0x3f));
		}
	}
	*p = '\0';
	return d;
}

static void csv_scalar(struct json *j, const char *key, const char *s,
		       size_t len, bool str)
{
	struct json_csv *c = j->csv;
	char *v;

	if (c->raw_lvl || !c->table_lvl || !c->in_row ||
	    j->depth <= c->table_lvl || !key)
		return;
	if (!s)
		v = csv_strdup(c, "");
	else if (str)
		v = csv_text(c, s, len);
	else
		v = csv_strdup(c, s);
	csv_cell(c, csv_path(c, c->table_lvl + 2, j->depth, key), v);
}

static void csv_free(struct json_csv *c)
{
	for (size_t r = 0; r < c->nrows; r++)
		csv_row_free(&c->rows[r]);
	csv_row_free(&c->row);
	free(c->rows);
	for (size_t k = 0; k < c->ncols; k++)
		free(c->cols[k]);
	free(c->cols);
	free(c->hint);
	for (size_t k = 0; k < c->ntables; k++)
		free(c->tables[k]);
	free(c->tables);
	for (int l = 0; l < JSON_MAX_DEPTH + 2; l++)
		free(c->key[l]);
	if (c->raw)
		fclose(c->raw);
	free(c->raw_buf);
	free(c->raw_col);
	fclose(c->null);
	free(c);
}

int json_csv_begin(struct json *j, const char *table, FILE *out)
{
	struct json_csv *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	c->null = fopen("/dev/null", "w");
	if (!c->null) {
		free(c);
		return -1;
	}
	c->table = table;
	c->out = out;
	j->f = c->null;
	j->csv = c;
	return 0;
}

int json_csv_finish(struct json *j, char **why)
{
	struct json_csv *c = j->csv;
	size_t len = 1;
	int rc = 0;

	*why = NULL;
	if (!c)
		return -1;
	if (c->oom) {
		rc = -1;
	} else if (!c->found) {
		for (size_t k = 0; k < c->ntables; k++)
			len += strlen(c->tables[k]) + 2;
		*why = malloc(len);
		if (*why) {
			**why = '\0';
			for (size_t k = 0; k < c->ntables; k++) {
				if (k)
					strcat(*why, ", ");
				strcat(*why, c->tables[k]);
			}
		}
		rc = *why ? -2 : -1;
	} else if (c->nrows) {
		const char **cell = calloc(c->ncols, sizeof(*cell));

		if (!cell)
			rc = -1;
		for (size_t k = 0; cell && k < c->ncols; k++) {
			if (k)
				fputc(',', c->out);
			table_csv_field(c->out, c->cols[k]);
		}
		if (cell)
			fputc('\n', c->out);
		for (size_t r = 0; cell && r < c->nrows; r++) {
			for (size_t k = 0; k < c->ncols; k++)
				cell[k] = "";
			for (size_t i = 0; i < c->rows[r].n; i++)
				cell[c->rows[r].col[i]] = c->rows[r].val[i];
			for (size_t k = 0; k < c->ncols; k++) {
				if (k)
					fputc(',', c->out);
				table_csv_field(c->out, cell[k]);
			}
			fputc('\n', c->out);
		}
		free(cell);
		if (fflush(c->out) || ferror(c->out))
			rc = -1;
	}
	csv_free(c);
	j->csv = NULL;
	return rc;
}

void json_csv_abort(struct json *j)
{
	if (j->csv)
		csv_free(j->csv);
	j->csv = NULL;
}

