// SPDX-License-Identifier: MIT
/*
 * table.c - text tables from a column spec (see table.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "sink/table.h"
#include "stats/hist.h"

/* The cell of column c of row. */
static void cell_of(const struct column *c, const void *row, char *buf,
		    size_t n)
{
	const char *base = row;

	if (c->fmt) {
		c->fmt(row, buf, n);
		return;
	}
	if (c->ptr)
		memcpy(&base, base + c->ptr - 1, sizeof(base));
	base += c->off;
	if (c->what == CELL_U64)
		c->num(buf, n, *(const uint64_t *)(const void *)base);
	else if (c->what == CELL_PCT)
		c->num(buf, n, hist_pct((const struct hist *)(const void *)base,
					c->q));
	else
		c->num(buf, n, hist_avg((const struct hist *)(const void *)base));
}

int table_print(FILE *out, const struct column *cols, int ncols,
		const void *rows, size_t nrows, size_t rowsize)
{
	return table_print_fit(out, 0, cols, ncols, rows, nrows, rowsize);
}

/* The cell of the last column, cut to room with "..." for its start. */
static const char *fit(const char *cell, int room, char *buf, size_t n)
{
	size_t len = strlen(cell);

	if (room < 8 || len <= (size_t)room)
		return cell;
	snprintf(buf, n, "...%s", cell + len - (size_t)(room - 3));
	return buf;
}

int table_print_fit(FILE *out, size_t width, const struct column *cols,
		    int ncols, const void *rows, size_t nrows, size_t rowsize)
{
	int room = 0;
	char cut[4096];
	char **cells = an_calloc(nrows * (size_t)ncols + 1, sizeof(*cells));
	int *w = an_calloc((size_t)ncols, sizeof(*w));
	char buf[4096];
	int rc = 0;

	if (!cells || !w) {
		rc = -AN_E_NOMEM;
		goto out;
	}
	for (int c = 0; c < ncols; c++)
		w[c] = (int)strlen(cols[c].head);
	for (size_t r = 0; r < nrows; r++) {
		for (int c = 0; c < ncols; c++) {
			char **cell = &cells[r * (size_t)ncols + (size_t)c];

			cell_of(&cols[c], (const char *)rows + r * rowsize,
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
	if (width && cols[ncols - 1].left) {
		room = (int)width;
		for (int c = 0; c < ncols - 1; c++)
			room -= w[c] + 2;
	}
	for (int c = 0; c < ncols; c++) {
		bool last = c == ncols - 1;

		fprintf(out, "%s%*s", c ? "  " : "",
			cols[c].left ? -(last ? 0 : w[c]) : w[c], cols[c].head);
	}
	fputc('\n', out);
	for (size_t r = 0; r < nrows; r++) {
		for (int c = 0; c < ncols; c++) {
			bool last = c == ncols - 1;

			const char *cell = cells[r * (size_t)ncols + (size_t)c];

			if (last && room)
				cell = fit(cell, room, cut, sizeof(cut));
			fprintf(out, "%s%*s", c ? "  " : "",
				cols[c].left ? -(last ? 0 : w[c]) : w[c], cell);
		}
		fputc('\n', out);
	}
out:
	for (size_t i = 0; cells && i < nrows * (size_t)ncols; i++)
		free(cells[i]);
	free(cells);
	free(w);
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

int table_csv(FILE *out, const struct column *cols, int ncols,
	      const void *rows, size_t nrows, size_t rowsize)
{
	char buf[4096];

	for (int c = 0; c < ncols; c++) {
		if (c)
			fputc(',', out);
		table_csv_field(out, cols[c].head);
	}
	fputc('\n', out);
	for (size_t r = 0; r < nrows; r++) {
		for (int c = 0; c < ncols; c++) {
			cell_of(&cols[c], (const char *)rows + r * rowsize,
				buf, sizeof(buf));
			if (c)
				fputc(',', out);
			table_csv_field(out, buf);
		}
		fputc('\n', out);
	}
	return 0;
}

void table_ms(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%.3f", (double)ns / 1e6);
}

void table_us(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%.1f", (double)ns / 1e3);
}

void table_size(char *buf, size_t n, uint64_t v)
{
	static const char unit[] = "KMGTPE";
	double x = (double)v;
	int u = -1;

	if (v < 1024) {
		snprintf(buf, n, "%" PRIu64, v);
		return;
	}
	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	snprintf(buf, n, x < 99.95 ? "%.1f%c" : "%.0f%c", x, unit[u]);
}

void table_u64(char *buf, size_t n, uint64_t v)
{
	snprintf(buf, n, "%" PRIu64, v);
}
