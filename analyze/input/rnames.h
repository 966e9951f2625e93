/* SPDX-License-Identifier: MIT */
/*
 * rnames.h - the stable pseudonyms of ioreport redact (redact.h): one
 * table from every name met (a comm, a path component, a command-line
 * word, a hostname, a device) to its pseudonym, the same name always
 * getting the same pseudonym within one run, and the rules that cut a
 * path, a command line or a comm into the names they hold.
 *
 * Functions return NULL (or a negative AN_E_*) on allocation failure and
 * never print.
 */
#ifndef IOREPORT_INPUT_RNAMES_H
#define IOREPORT_INPUT_RNAMES_H

#include <stdbool.h>
#include <stdio.h>

struct sbuf;

/* Comms, path components and words this long or shorter are kept. */
#define RNAMES_KEEP_LEN	2
/* The kernel's TASK_COMM_LEN less its NUL. */
#define RNAMES_COMM_MAX	15

/* What a name is: its pseudonym's shape and its line in the mapping. */
enum rname_kind {
	RN_COMM,	/* a comm cut from a long program name (rnames_exec()) */
	RN_PART,	/* a path component or a comm: name-N, nN or zN, file-N.EXT
			   or fN.EXT (a kernel thread's prefix kept: md~N) */
	RN_WORD,	/* a command-line word: arg-N */
	RN_OPT,		/* the name of a --option: opt-N */
	RN_HOST,	/* host-N */
	RN_DEV,		/* disk-N (with --drop-devices) */
	RN_KERNEL,	/* kernel-N (with --drop-kernel) */
	RN_NR
};

struct rnames_opts {
	bool keep_basenames;	/* the last component of a path kept */
	bool no_extensions;	/* fN without the .EXT */
	bool drop_devices;	/* device names replaced too */
	bool drop_kernel;	/* kernel release and version replaced */
	const char **keep_prefix;	/* paths under these are kept whole */
	int nkeep;
};

struct rnames;

struct rnames *rnames_new(const struct rnames_opts *o);
void rnames_free(struct rnames *t);
const struct rnames_opts *rnames_opts(const struct rnames *t);

/*
 * The pseudonym of name as kind (owned by t; name itself when it is kept),
 * or NULL without memory.
 */
const char *rnames_get(struct rnames *t, enum rname_kind kind,
		       const char *name);

/*
 * The redacted forms, appended to out: a path (components one by one,
 * "/", "." and ".." kept, kept prefixes and kernel pseudo-files such as
 * "pipe:[N]" kept), a comm, a command line (words split at spaces), and
 * any other text (words with a '/' as paths, words with a letter as
 * words).
 */
void rnames_path(struct rnames *t, const char *path, struct sbuf *out);
void rnames_comm(struct rnames *t, const char *comm, struct sbuf *out);
void rnames_cmdline(struct rnames *t, const char *cmd, struct sbuf *out);

/*
 * rnames_keep - keep name as it is (a kernel thread's comm the snapshot
 * shows as a child of kthreadd).  Returns 0 or -AN_E_NOMEM.
 */
int rnames_keep(struct rnames *t, enum rname_kind kind, const char *name);

/*
 * rnames_exec - a program at path runs: its comm (its basename's first 15
 * bytes) becomes the first 15 bytes of its basename's pseudonym, as the
 * kernel would have cut it.  Call it for every program before the comms
 * are met.  Returns 0 or -AN_E_NOMEM.
 */
int rnames_exec(struct rnames *t, const char *path);

/*
 * Write the mapping, "KIND\tNAME\tPSEUDONYM\n" with the fields escaped,
 * in the order the names were met.  Returns 0 or -1 (errno set).
 */
int rnames_write_map(const struct rnames *t, FILE *f);

/*
 * rnames_read_map - add the names of a mapping written by
 * rnames_write_map(), so that a second recording gets the same
 * pseudonyms.  Returns 0, -AN_E_FORMAT (*line_no: the bad line) or
 * -AN_E_NOMEM.
 */
int rnames_read_map(struct rnames *t, FILE *f, unsigned long *line_no);

/* Whether the table failed to allocate at some point (-AN_E_NOMEM). */
int rnames_err(const struct rnames *t);

#endif /* IOREPORT_INPUT_RNAMES_H */
