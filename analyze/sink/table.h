/* SPDX-License-Identifier: MIT */
/*
 * table.h - a text table from one column spec that gives both the header
 * and the cells: each column has its head (units in it: "LAT(ms)"), its
 * side and a function that formats a row's cell; widths fit the widest
 * cell, the last column is not padded.
 */
#ifndef IOREPORT_SINK_TABLE_H
#define IOREPORT_SINK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct column {
	const char *head;
	bool left;
	void (*fmt)(const void *row, char *buf, size_t n);
};

/*
 * table_print - nrows rows of rowsize bytes at rows, one line each
 *
 * Returns 0, or -AN_E_NOMEM (nothing printed).
 */
int table_print(FILE *out, const struct column *cols, int ncols,
		const void *rows, size_t nrows, size_t rowsize);
/*
 * table_print_fit - the same, fitted into width columns (0: no limit): a
 * left-aligned last column (a name, a path) is cut to what is left, its
 * start replaced by "..." so that its end survives
 */
int table_print_fit(FILE *out, size_t width, const struct column *cols,
		    int ncols, const void *rows, size_t nrows, size_t rowsize);
/* One CSV field: as is, or quoted when it holds a comma, quote or newline. */
void table_csv_field(FILE *out, const char *str);
/* The same table as CSV: the heads, then one line per row, quoted. */
int table_csv(FILE *out, const struct column *cols, int ncols,
	      const void *rows, size_t nrows, size_t rowsize);
/* A size for people ("7.1M", see sink_size()). */
void table_size(char *buf, size_t n, uint64_t v);

/* The cell formats of the tables. */
void table_ms(char *buf, size_t n, uint64_t ns);	/* "%.3f" ms */
void table_us(char *buf, size_t n, uint64_t ns);	/* "%.1f" us */
void table_u64(char *buf, size_t n, uint64_t v);

#endif /* IOREPORT_SINK_TABLE_H */
