/* SPDX-License-Identifier: MIT */
/*
 * ftrace-guard.h - checks the kernel texts a recording carries (event
 * formats, header_page, printk formats, saved cmdlines) against the
 * ftrace grammar before any of them reaches libtraceevent, whose parser
 * trusts them.
 *
 * An event format is kept only with the field shapes the kernel prints
 * (offsets and sizes decimal, inside the record, a common_type and a
 * common_pid), and a print fmt that is well formed: one format string
 * whose conversions match its arguments, then C expressions over the
 * event's own fields, the helpers libtraceevent knows with their arity,
 * and divisions only by non-zero constants.  A format with good fields
 * and any other print fmt is kept with a neutral print fmt (its fields,
 * name=value).  Anything else is refused with a named error and the
 * offset in the text where it is.
 *
 * Bytes only: nothing here includes libtraceevent.  Functions never
 * print or exit.
 */
#ifndef IOREPORT_FTRACE_GUARD_H
#define IOREPORT_FTRACE_GUARD_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * ftrace_rewritten_word - 1 + the offset in p of the first word that
 * libtraceevent's tokenizer rewrites into a string, 0 when none:
 * LOCAL_PR_FMT, STA_PR_FMT and VIF_PR_FMT, its workaround for an old
 * mac80211 print fmt, which leaks the word's type when it comes in a
 * field declaration (found by the fuzz-tracedat campaign).
 */
static inline size_t ftrace_rewritten_word(const char *p, size_t n)
{
	static const char *const w[] = { "LOCAL_PR_FMT", "STA_PR_FMT",
					 "VIF_PR_FMT" };

	for (size_t i = 0, j; i < n; i = j + 1) {
		for (j = i; j < n && (p[j] == '_' || isalnum((unsigned char)p[j])); j++)
			;
		for (size_t k = 0; k < 3 && j > i; k++)
			if (j - i == strlen(w[k]) && !memcmp(p + i, w[k], j - i))
				return i + 1;
	}
	return 0;
}

/*
 * ftrace_num_swap - the n-byte (1 to 8) unsigned number at p, its bytes
 * reversed when swap (the recording's byte order is not the host's): the
 * one reader of a recording's numbers (event headers and fields, ring-
 * buffer page headers, trace.dat sections)
 */
static inline uint64_t ftrace_num_swap(const void *p, int n, bool swap)
{
	const uint8_t *b = p;
	uint64_t v = 0;
	uint32_t v32;
	uint16_t v16;

	switch (n) {
	case 1:
		return b[0];
	case 2:
		memcpy(&v16, p, 2);
		return swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v, p, 8);
		return swap ? __builtin_bswap64(v) : v;
	default:
		break;
	}
	/* 3, 5, 6, 7 bytes: as the host's order or the other */
	for (int i = 0; i < n && i < 8; i++) {
		bool first_high = swap != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);

		v = first_high ? v << 8 | b[i] : v | (uint64_t)b[i] << (8 * i);
	}
	return v;
}

/* The same, in the recording's order (be: big-endian). */
static inline uint64_t ftrace_num(const uint8_t *p, int n, bool be)
{
	return ftrace_num_swap(p, n,
			       be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__));
}

/* The largest record a field may reach into (a 16-bit kernel limit). */
#define FTRACE_MAX_RECORD	65536u
/* The longest event format text accepted. */
#define FTRACE_MAX_FORMAT	(256u << 10)

/* What a check found. */
struct ftrace_verdict {
	const char *error;	/* NULL: fine as it is; else a static text */
	size_t offset;		/* where in the text */
	char *text;		/* a text to use instead (heap), or NULL */
	size_t text_len;
	long id;		/* an event format's ID, when not refused */
};

enum {
	FTRACE_NOMEM = -2,	/* out of memory checking it */
	FTRACE_REFUSED = -1,	/* do not hand the text to libtraceevent */
	FTRACE_OK = 0,		/* hand it over as it is */
	FTRACE_REWRITTEN = 1,	/* hand v->text over instead (v->error,
				   v->offset: why the print fmt was replaced) */
};

/*
 * ftrace_check_format - check one event format text (events/S/E/format)
 * @max_record: the largest record of the recording (its sub-buffer size)
 * @ftrace: the text is of the "ftrace" system, whose field names may
 *   hold a '.'
 *
 * Returns FTRACE_OK, FTRACE_REWRITTEN, FTRACE_REFUSED or FTRACE_NOMEM,
 * and fills v (release with ftrace_verdict_release()).
 */
int ftrace_check_format(const char *text, size_t len, uint32_t max_record,
			bool ftrace, struct ftrace_verdict *v);

/* A system name: [A-Za-z0-9_]+, at most 64 bytes.  */
bool ftrace_check_system(const char *name, size_t len);

/*
 * ftrace_check_header_page - check events/header_page: the timestamp,
 * commit (of the long size) and data fields where the kernel puts them
 * @subbuf_size: the sub-buffer size the data must fit
 *
 * Returns FTRACE_OK or FTRACE_REFUSED.
 */
int ftrace_check_header_page(const char *text, size_t len,
			     uint32_t subbuf_size, struct ftrace_verdict *v);

/*
 * ftrace_filter_lines - keep the well-formed lines of a printk_formats
 * text ("0xADDR : \"FORMAT\"") or of a saved_cmdlines text ("PID COMM"),
 * as a new NUL-terminated heap text
 * @printk: which of the two
 * @dropped: set to the number of lines left out; v->offset to the first
 *   (v->error names what was wrong with it)
 *
 * Returns the text, or NULL when out of memory.
 */
char *ftrace_filter_lines(const char *text, size_t len, bool printk,
			  size_t *dropped, struct ftrace_verdict *v);

/*
 * ftrace_check_kallsyms - check a /proc/kallsyms text (trace.dat):
 * "ADDR TYPE NAME [MODULE]" lines.  Returns FTRACE_OK or FTRACE_REFUSED.
 */
int ftrace_check_kallsyms(const char *text, size_t len,
			  struct ftrace_verdict *v);

/*
 * ftrace_page_events_ok - may kbuffer walk the events of a sub-buffer's
 * data (n bytes, the commit size, after the page header)?  Every event
 * must lie inside the data and every step go forward: with a negative
 * length kbuffer goes back, and a reader loops forever.
 */
bool ftrace_page_events_ok(const uint8_t *data, size_t n, bool big_endian);

/* Free v->text; accepts a zeroed verdict. */
void ftrace_verdict_release(struct ftrace_verdict *v);

#endif /* IOREPORT_FTRACE_GUARD_H */
