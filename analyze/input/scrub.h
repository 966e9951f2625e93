/* SPDX-License-Identifier: MIT */
/*
 * scrub.h - rewrites the strings inside the raw ring-buffer pages of a
 * recording in place (for ioreport redact): every char[N] and
 * __data_loc char[] field of every record is handed to a callback that
 * may overwrite it within its room, and bytes no reader uses (beyond a
 * page's commit, inside padding events) are zeroed, so no stale name
 * survives.  Lengths, offsets and every other byte stay as they were.
 *
 * Nothing here prints or exits.
 */
#ifndef IOREPORT_SCRUB_H
#define IOREPORT_SCRUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_err;
struct scrub;

/*
 * The callback: field @field of event @system:@event holds the string
 * buf (NUL-terminated within cap bytes, which is the field's whole room).
 * It may rewrite buf[0..cap-1]; what follows its NUL is zeroed after.
 */
typedef void (*scrub_fn)(void *arg, const char *system, const char *event,
			 const char *field, char *buf, size_t cap);

/*
 * scrub_new - a scrubber for pages of this byte order, long size and
 * sub-buffer size.  Returns NULL on allocation failure.
 */
struct scrub *scrub_new(bool big_endian, int long_size, uint32_t subbuf_size);
void scrub_free(struct scrub *s);

/*
 * scrub_header_page, scrub_format - hand the recording's header_page
 * text and an EVENT_FORMAT payload ("system\0format") to the scrubber
 * (checked by ftrace-guard first).  Return 0, or -AN_E_FORMAT with err
 * filled when the text is refused: events of that type then keep their
 * strings, which the caller must treat as a failure to redact.
 */
int scrub_header_page(struct scrub *s, const char *text, size_t len,
		      struct an_err *err);
int scrub_format(struct scrub *s, const uint8_t *payload, size_t len,
		 struct an_err *err);

/*
 * scrub_raw_args - how many argument registers of each raw syscall id a
 * reader may use: nargs[id] for the ids below n (6 or more: all six),
 * all six of any other.  The rest of a raw_syscalls:sys_enter record's args[] is zeroed
 * (registers a call does not take hold what the program left there, text
 * included).  nargs stays the caller's; without this call all are kept.
 */
void scrub_raw_args(struct scrub *s, const uint8_t *nargs, size_t n);

/*
 * scrub_pages - rewrite n bytes of whole sub-buffers in place
 *
 * Returns the number of records whose type is unknown (their bytes are
 * kept as they are: the caller decides), or -AN_E_FORMAT when a page is
 * malformed (err says which).
 */
long scrub_pages(struct scrub *s, uint8_t *pages, size_t n, scrub_fn fn,
		 void *arg, struct an_err *err);

#endif /* IOREPORT_SCRUB_H */
