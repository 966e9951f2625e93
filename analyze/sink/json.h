/* SPDX-License-Identifier: MIT */
/*
 * json.h - a small streaming JSON writer shared by every view of
 * ioreport: it escapes strings, nests objects and arrays and places the
 * commas, so the sinks only say what to write.  Output is deterministic
 * (the order of the calls) and indented by two spaces per level.
 *
 * Numbers are written raw (ns, bytes), never formatted for people.
 * Strings are escaped per RFC 8259; bytes that are not valid UTF-8 are
 * written as \u00XX (their Latin-1 reading), so the output is always
 * valid JSON whatever a comm or path holds.
 */
#ifndef IOREPORT_JSON_H
#define IOREPORT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	32

struct json {
	FILE *f;
	int depth;
	bool has_member[JSON_MAX_DEPTH];	/* a member written at this level */
	bool in_array[JSON_MAX_DEPTH];
	bool compact;		/* no newlines or indentation */
	bool misuse;		/* unbalanced or too deep: json_finish fails */
	struct json_csv *csv;	/* json_csv_begin(): one table as CSV */
};

/* Start writing to f (nothing is written yet). */
void json_init(struct json *j, FILE *f);

/*
 * Every call below takes the member's key: a string inside an object,
 * NULL inside an array or for the top-level value.
 */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);

void json_str(struct json *j, const char *key, const char *s);	/* NULL: null */
/* A string of at most len bytes (stops at a NUL). */
void json_strn(struct json *j, const char *key, const char *s, size_t len);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_double(struct json *j, const char *key, double v);	/* NaN/inf: null */
/*
 * json_num - v as an integer when it is one (a count, ns, bytes), else as
 * json_double() (a share, a ratio; NaN/inf: null)
 */
void json_num(struct json *j, const char *key, double v);
/* ns as microseconds with three decimals (exact, not a double) */
void json_us(struct json *j, const char *key, uint64_t ns);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);

/* A uint64_t member of a struct as a JSON member: its key and offset. */
struct json_u64_field {
	const char *key;
	size_t off;
};
#define JSON_U64(key, type, member)	{ key, offsetof(type, member) }
/* The n members f of the struct at base, in order. */
void json_u64s(struct json *j, const void *base,
	       const struct json_u64_field *f, size_t n);

/*
 * json_finish - end the document with a newline and flush
 *
 * Returns 0, or -1 when the calls were unbalanced or writing failed.
 */
int json_finish(struct json *j);

/*
 * json_csv_begin - turn j into the CSV of one table of the document: the
 * array of objects at the dotted path table (the keys of the objects
 * that hold it from the top-level object: "devices", "summary.devices")
 *
 * Each object of that array is a row; its scalar members are cells
 * (strings as they are, numbers as the JSON writes them, true/false,
 * null an empty cell), a nested object's members are columns named by
 * the dotted path ("i2d.p50_ns"), a nested array is one cell holding
 * its compact JSON.  The header is every column in the order first
 * seen.  Nothing else of the document is written.  j writes its JSON to
 * a stream that discards it (j->f is replaced); the CSV goes to out at
 * json_csv_finish().
 *
 * Returns 0, or -1 when out of memory.
 */
int json_csv_begin(struct json *j, const char *table, FILE *out);
/*
 * json_csv_finish - after json_finish(): print the table's CSV (nothing
 * when it had no rows) and release what json_csv_begin() took
 *
 * Returns 0; -1 when out of memory or the output failed (*why NULL);
 * -2 when the document has no table of that path, with *why a malloc'd
 * "its tables are a, b, c" (the caller's to free).
 */
int json_csv_finish(struct json *j, char **why);
/* Release what json_csv_begin() took, printing nothing (after a failure). */
void json_csv_abort(struct json *j);

struct hist;
/*
 * json_hist - a histogram as the one latency object of every view:
 * count, sum_ns, avg_ns, min_ns, max_ns, p50/p90/p99/p999 _ns and
 * "buckets": [[lo_ns, hi_ns, count], ...] with the inclusive bounds of
 * every non-empty bucket; json_lat() the same without the buckets.
 */
void json_hist(struct json *j, const char *key, const struct hist *h);
void json_lat(struct json *j, const char *key, const struct hist *h);

struct sizehist;
/*
 * json_sizes - request sizes (stats/hist.h's bitesize slots): count,
 * bytes and "buckets": [[lo_bytes, hi_bytes, count], ...] with the
 * inclusive bounds of every non-empty slot.
 */
void json_sizes(struct json *j, const char *key, const struct sizehist *h);

/* The version of the JSON vocabulary (docs/json/), first in every object. */
#define JSON_SCHEMA_VERSION	3

#endif /* IOREPORT_JSON_H */
