// SPDX-License-Identifier: MIT
/*
 * table.c - text tables from a column spec (see table.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/units.h"
#include "sink/sink.h"
#include "sink/table.h"
#include "stats/hist.h"

/* The cell of column c of row, in the wide table or the default one. */
static void cell_of(const struct column *c, const void *row, bool wide,
		    char *buf, size_t n)
{
	const char *base = row;
	const struct hist *h;

	if (c->fmt) {
		c->fmt(row, wide, buf, n);
		return;
	}
	if (c->ptr)
		memcpy(&base, base + c->ptr - 1, sizeof(base));
	base += c->off;
	h = (const struct hist *)(const void *)base;
	if (c->what == CELL_U64)
		c->num(buf, n, *(const uint64_t *)(const void *)base, wide);
	else if (c->what == CELL_PCT)
		c->num(buf, n, hist_pct(h, c->q), wide);
	else
		c->num(buf, n, hist_avg(h), wide);
}

int table_print(FILE *out, size_t width, const struct column *cols,
		int ncols, const void *rows, size_t nrows, size_t rowsize)
{
	bool wide = !width;
	int room = 0, nc = 0;
	char cut[4096];
	char **cells = an_calloc(nrows * (size_t)ncols + 1, sizeof(*cells));
	int *w = an_calloc((size_t)ncols, sizeof(*w));
	/* the columns of this table, in their order, and their heads */
	const struct column **col = an_calloc((size_t)ncols, sizeof(*col));
	const char **head = an_calloc((size_t)ncols, sizeof(*head));
	char buf[4096];
	int rc = 0;

	if (!cells || !w || !col || !head) {
		rc = -AN_E_NOMEM;
		goto out;
	}
	for (int c = 0; c < ncols; c++) {
		if (!wide && !cols[c].narrow)
			continue;
		col[nc] = &cols[c];
		head[nc] = wide ? cols[c].head : cols[c].narrow;
		w[nc] = (int)strlen(head[nc]);
		nc++;
	}
	for (size_t r = 0; r < nrows; r++) {
		for (int c = 0; c < nc; c++) {
			char **cell = &cells[r * (size_t)ncols + (size_t)c];

			cell_of(col[c], (const char *)rows + r * rowsize, wide,
				buf, sizeof(buf));
			*cell = an_strdup(buf);
			if (!*cell) {
				rc = -AN_E_NOMEM;
				goto out;
			}
			if ((int)strlen(buf) > w[c])
				w[c] = (int)strlen(buf);
		}
	}
	if (width && nc && col[nc - 1]->left) {
		room = (int)width;
		for (int c = 0; c < nc - 1; c++)
			room -= w[c] + 2;
	}
	for (int c = 0; c < nc; c++) {
		bool last = c == nc - 1;

		fprintf(out, "%s%*s", c ? "  " : "",
			col[c]->left ? -(last ? 0 : w[c]) : w[c], head[c]);
	}
	fputc('\n', out);
	for (size_t r = 0; r < nrows; r++) {
		for (int c = 0; c < nc; c++) {
			bool last = c == nc - 1;

			const char *cell = cells[r * (size_t)ncols + (size_t)c];

			if (last && room)
				cell = sink_cut_tail(cell, room > 0 ? (size_t)room : 0,
						     cut, sizeof(cut));
			fprintf(out, "%s%*s", c ? "  " : "",
				col[c]->left ? -(last ? 0 : w[c]) : w[c], cell);
		}
		fputc('\n', out);
	}
out:
	for (size_t i = 0; cells && i < nrows * (size_t)ncols; i++)
		free(cells[i]);
	free(cells);
	free(w);
	free(col);
	free(head);
	return rc;
}

void table_csv_field(FILE *out, const char *str)
{
	if (!strpbrk(str, ",\"\n\r")) {
		fputs(str, out);
		return;
	}
	fputc('"', out);
	for (const char *p = str; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

void table_ms(char *buf, size_t n, uint64_t ns, bool wide)
{
	(void)wide;
	snprintf(buf, n, "%.3f", (double)ns / 1e6);
}

void table_us(char *buf, size_t n, uint64_t ns, bool wide)
{
	(void)wide;
	snprintf(buf, n, "%.1f", (double)ns / 1e3);
}

void table_u64(char *buf, size_t n, uint64_t v, bool wide)
{
	(void)wide;
	snprintf(buf, n, "%" PRIu64, v);
}

void table_bytes(char *buf, size_t n, uint64_t v, bool wide)
{
	if (wide)
		table_u64(buf, n, v, wide);
	else
		units_bytes_short(buf, n, v);
}
