/* SPDX-License-Identifier: MIT */
/*
 * table.h - a text table from one column spec that gives both the header
 * and the cells, in its two layouts: the wide one (--wide, CSV) with
 * every column and exact numbers, and the default one, fitted into 100
 * columns, with the columns read first and sizes for people.  Each column
 * has its heads (units in them: "LAT(ms)"), its side and what its cell
 * is, a function of the row or one of the row's numbers in a cell
 * format; widths fit the widest cell, the last column is not padded.
 */
#ifndef IOREPORT_SINK_TABLE_H
#define IOREPORT_SINK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct column {
	const char *head;	/* wide */
	const char *narrow;	/* in the default table; NULL: wide only */
	bool left;
	/* the cell of a row: fmt, or else num of one number of the row */
	void (*fmt)(const void *row, bool wide, char *buf, size_t n);
	void (*num)(char *buf, size_t n, uint64_t v, bool wide);
	/*
	 * where that number is: at off in the row, or with ptr at off in
	 * the struct the pointer at ptr - 1 in the row points to
	 */
	size_t ptr, off;
	/* the uint64_t there, or of the struct hist there a percentile */
	enum { CELL_U64, CELL_PCT, CELL_AVG } what;
	double q;		/* CELL_PCT: which */
};

/*
 * A column whose cell is fn of the row, headed h (nh in the default
 * table, NULL: wide only); l: aligned left.
 */
#define COL_FN(h, nh, l, fn) \
	{ .head = (h), .narrow = (nh), .left = (l), .fmt = (fn) }
#define COL_NUM_(h, nh, nf, p, o, w, qq) \
	{ .head = (h), .narrow = (nh), .num = (nf), .ptr = (p), .off = (o), \
	  .what = (w), .q = (qq) }
/* A column of the uint64_t member of the row, in the cell format nf. */
#define COL_U64(h, nh, nf, type, member) \
	COL_NUM_(h, nh, nf, 0, offsetof(type, member), CELL_U64, 0)
/*
 * A column of the uint64_t member of the struct ptype that the row's
 * member p points to (never NULL in the rows of the table); of the
 * struct hist member there its percentile q, or its average.
 */
#define COL_AT(h, nh, nf, type, p, ptype, member) \
	COL_NUM_(h, nh, nf, offsetof(type, p) + 1, offsetof(ptype, member), \
		 CELL_U64, 0)
#define COL_PCT(h, nh, nf, type, p, ptype, member, q) \
	COL_NUM_(h, nh, nf, offsetof(type, p) + 1, offsetof(ptype, member), \
		 CELL_PCT, q)
#define COL_AVG(h, nh, nf, type, p, ptype, member) \
	COL_NUM_(h, nh, nf, offsetof(type, p) + 1, offsetof(ptype, member), \
		 CELL_AVG, 0)

/*
 * table_print - nrows rows of rowsize bytes at rows, one line each: width
 * 0 the wide table; else the default one, fitted into width columns: a
 * left-aligned last column (a name, a path) is cut to what is left, its
 * start replaced by "..." so that its end survives
 *
 * Returns 0, or -AN_E_NOMEM (nothing printed).
 */
int table_print(FILE *out, size_t width, const struct column *cols,
		int ncols, const void *rows, size_t nrows, size_t rowsize);
/* One CSV field: as is, or quoted when it holds a comma, quote or newline. */
void table_csv_field(FILE *out, const char *str);

/* The cell formats of the tables: ms "%.3f", us "%.1f", a count. */
void table_ms(char *buf, size_t n, uint64_t ns, bool wide);
void table_us(char *buf, size_t n, uint64_t ns, bool wide);
void table_u64(char *buf, size_t n, uint64_t v, bool wide);
/* bytes: exact when wide, else units_bytes_short() ("7.1M") */
void table_bytes(char *buf, size_t n, uint64_t v, bool wide);

#endif /* IOREPORT_SINK_TABLE_H */
