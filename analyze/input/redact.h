/* SPDX-License-Identifier: MIT */
/*
 * redact.h - a copy of a .iorec recording with every name replaced by a
 * stable pseudonym and every number, chunk and event kept (ioreport
 * redact).  Never prints: what the caller should say comes back in
 * struct redact_stats, a failure in struct an_err.
 */
#ifndef IOREPORT_INPUT_REDACT_H
#define IOREPORT_INPUT_REDACT_H

#include <stdbool.h>
#include <stdint.h>

struct rnames;
struct an_err;

/* What a redaction that succeeded has to say. */
struct redact_stats {
	unsigned long shortened;	/* event strings cut to fit */
	unsigned long unknown;		/* records of a type without format */
	bool truncated;			/* IN ends inside a chunk ... */
	uint64_t truncated_at;		/* ... at this offset: OUT ends there */
};

/*
 * redact_recording - read IN twice and write OUT (created, removed again
 * on failure) with the pseudonyms of names, which learns the new ones
 * (rnames_write_map() writes them)
 *
 * Return: 0, or -AN_E_* with err filled (one line: the file, the offset
 * where there is one, the problem and the fix).
 */
int redact_recording(const char *in, const char *out, struct rnames *names,
		     struct redact_stats *st, struct an_err *err);

#endif /* IOREPORT_INPUT_REDACT_H */
