/* SPDX-License-Identifier: MIT */
/*
 * units.h - the one way ioreport writes sizes, rates and durations as text.
 *
 * Sizes are binary (powers of 1024) with their IEC names.  In sentences,
 * help texts, the HTML page and the diff's lines a size is "512 B",
 * "7.1 KiB", "18.3 MiB", "1.2 GiB" and a rate "12.3 MiB/s"; in a compact
 * table cell it is the short form of ls -h and df -h, "512", "7.1K",
 * "18.3M" (K = KiB, M = MiB), and a column of plain numbers says its unit
 * in its header ("APP-W(MiB)", "MiB/s").  Durations are "812 us",
 * "12.3 ms", "1.24 s".  JSON and the database keep raw integers (bytes,
 * ns): these functions are for text only.
 *
 * Each function writes into the caller's buffer (and returns it) or adds
 * to a struct sbuf; none allocates, fails or prints.
 */
#ifndef IOREPORT_UNITS_H
#define IOREPORT_UNITS_H

#include <stddef.h>
#include <stdint.h>

struct sbuf;

#define UNITS_KIB	1024.0
#define UNITS_MIB	(1024.0 * 1024.0)
#define UNITS_GIB	(1024.0 * 1024.0 * 1024.0)

/* Room for any of the strings below, NUL included. */
#define UNITS_BUF	24

/* A size as a number of MiB (for columns headed "(MiB)" and "MiB/s"). */
static inline double units_mib(double bytes)
{
	return bytes / UNITS_MIB;
}

/* "512 B", "7.1 KiB", "18.3 MiB", "250 MiB", "1.2 GiB" */
char *units_bytes(char *buf, size_t n, double bytes);
/* "512", "7.1K", "18.3M", "250M", "1.2G": a table cell (ls -h) */
char *units_bytes_short(char *buf, size_t n, uint64_t bytes);
/* "812 KiB/s", "12.3 MiB/s" */
char *units_rate(char *buf, size_t n, double bytes_per_s);
/* "0.4 us", "812 us", "12.3 ms", "250 ms", "1.24 s" */
char *units_dur(char *buf, size_t n, double ns);

void units_add_bytes(struct sbuf *sb, double bytes);
void units_add_rate(struct sbuf *sb, double bytes_per_s);
void units_add_dur(struct sbuf *sb, double ns);

#endif /* IOREPORT_UNITS_H */
