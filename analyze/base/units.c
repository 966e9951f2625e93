// SPDX-License-Identifier: MIT
/*
 * units.c - sizes, rates and durations as text, the one convention of
 * every view, finding, diff line, help text and the HTML page (units.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "base/units.h"
#include "sbuf.h"

static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

/*
 * v divided down by 1024 until it is under 1024 (or the largest unit);
 * the number of divisions.  A value that rounds to 1024.0 at one decimal
 * goes up a unit, so no "1024.0 KiB".
 */
static int scale(double *v, int max)
{
	int u = 0;

	while (u < max && *v >= 1023.95) {
		*v /= 1024;
		u++;
	}
	return u;
}

/*
 * v with one decimal under 100 and none from 100 on (three significant
 * digits), then the unit.
 */
static void put(char *buf, size_t n, const char *sign, double v,
		const char *unit)
{
	snprintf(buf, n, v < 99.95 ? "%s%.1f%s" : "%s%.0f%s", sign, v, unit);
}

char *units_bytes(char *buf, size_t n, double bytes)
{
	double v = bytes < 0 ? -bytes : bytes;
	const char *sign = bytes < 0 ? "-" : "";
	char unit[8];
	int u;

	if (v < 1024) {
		snprintf(buf, n, "%s%.0f B", sign, v);
		return buf;
	}
	u = scale(&v, 6);
	snprintf(unit, sizeof(unit), " %s", iec[u]);
	put(buf, n, sign, v, unit);
	return buf;
}

char *units_bytes_short(char *buf, size_t n, uint64_t bytes)
{
	double v = (double)bytes;
	char unit[2] = { 0, 0 };

	if (bytes < 1024) {
		snprintf(buf, n, "%" PRIu64, bytes);
		return buf;
	}
	unit[0] = iec[scale(&v, 6)][0];
	put(buf, n, "", v, unit);
	return buf;
}

char *units_rate(char *buf, size_t n, double bytes_per_s)
{
	char b[UNITS_BUF];

	snprintf(buf, n, "%s/s", units_bytes(b, sizeof(b), bytes_per_s));
	return buf;
}

char *units_dur(char *buf, size_t n, double ns)
{
	double v = ns < 0 ? -ns : ns;
	const char *sign = ns < 0 ? "-" : "";

	/* the thresholds are where the smaller unit would print "1000" */
	if (v >= 999.5e6)
		snprintf(buf, n, "%s%.2f s", sign, v / 1e9);
	else if (v >= 999.5e3)
		put(buf, n, sign, v / 1e6, " ms");
	else
		put(buf, n, sign, v / 1e3, " us");
	return buf;
}

void units_add_bytes(struct sbuf *sb, double bytes)
{
	char b[UNITS_BUF];

	sbuf_addstr(sb, units_bytes(b, sizeof(b), bytes));
}

void units_add_rate(struct sbuf *sb, double bytes_per_s)
{
	char b[UNITS_BUF];

	sbuf_addstr(sb, units_rate(b, sizeof(b), bytes_per_s));
}

void units_add_dur(struct sbuf *sb, double ns)
{
	char b[UNITS_BUF];

	sbuf_addstr(sb, units_dur(b, sizeof(b), ns));
}
