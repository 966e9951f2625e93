// SPDX-License-Identifier: MIT
/*
 * view-fileowners.c - files --by unit|container|cgroup: each file's calls
 * split by the owner of the processes that made them, a table of the
 * groups and one of the files per group, or the JSON members by, groups
 * and group_files (see sink.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/err.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "sink/json.h"
#include "sink/sink.h"
#include "sink/table.h"

/* --by: each file's calls split by the owner of the processes that made them */
struct fo_row {
	char key[256];		/* owner_proc_key(), "-": of none */
	const struct file_row *f;	/* NULL in a group's row */
	size_t group;		/* its group's index (sorted) */
	uint64_t files;		/* a group's: its rows */
	uint64_t opens, reads, read_bytes, writes, write_bytes, errors;
	uint64_t fsyncs, fsync_ns, fsync_max_ns;
};

#define FOROW(r) ((const struct fo_row *)(r))
static void fo_key(const void *r, bool wide, char *b, size_t n)
{
	(void)wide;
	snprintf(b, n, "%s", FOROW(r)->key);
}

static void fo_name(const void *r, bool wide, char *b, size_t n)
{
	view_file_cell(FOROW(r)->f, wide, b, n);
}

#define FO(h, nh, nf, member) COL_U64(h, nh, nf, struct fo_row, member)
/* the columns of both tables: the groups' and their files' */
#define FO_COLS \
	FO("OPENS", NULL, table_u64, opens), \
	FO("READS", "READS", table_u64, reads), \
	FO("READ(B)", "READ", table_bytes, read_bytes), \
	FO("WRITES", "WRITES", table_u64, writes), \
	FO("WRITE(B)", "WRITE", table_bytes, write_bytes), \
	FO("ERRS", NULL, table_u64, errors), \
	FO("FSYNCS", "FSYNCS", table_u64, fsyncs), \
	FO("FSYNC-SUM(ms)", "FSYNC-SUM(ms)", table_ms, fsync_ns), \
	FO("FSYNC-MAX(ms)", NULL, table_ms, fsync_max_ns)

static const struct column fo_group_cols[] = {
	FO("FILES", "FILES", table_u64, files),
	FO_COLS,
	COL_FN("OWNER", "OWNER", true, fo_key),
};

static const struct column fo_file_cols[] = {
	COL_FN("OWNER", "OWNER", true, fo_key),
	FO_COLS,
	COL_FN("FILE", "FILE", true, fo_name),
};

static void fo_add(struct fo_row *d, const struct fo_row *c)
{
	d->opens += c->opens;
	d->reads += c->reads;
	d->read_bytes += c->read_bytes;
	d->writes += c->writes;
	d->write_bytes += c->write_bytes;
	d->errors += c->errors;
	d->fsyncs += c->fsyncs;
	d->fsync_ns += c->fsync_ns;
	if (c->fsync_max_ns > d->fsync_max_ns)
		d->fsync_max_ns = c->fsync_max_ns;
}

static uint64_t fo_moved(const struct fo_row *r)
{
	return r->read_bytes + r->write_bytes;
}

/* groups: by bytes moved, then calls, then key */
static int cmp_fo_group(const void *a, const void *b)
{
	const struct fo_row *x = a, *y = b;
	uint64_t cx = x->reads + x->writes + x->opens + x->fsyncs;
	uint64_t cy = y->reads + y->writes + y->opens + y->fsyncs;

	if (fo_moved(x) != fo_moved(y))
		return fo_moved(x) > fo_moved(y) ? -1 : 1;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* a group's files: in the group's order, then as the files view has them */
static int cmp_fo_file(const void *a, const void *b)
{
	const struct fo_row *x = a, *y = b;

	if (x->group != y->group)
		return x->group > y->group ? 1 : -1;
	if (fo_moved(x) != fo_moved(y))
		return fo_moved(x) > fo_moved(y) ? -1 : 1;
	return x->f > y->f ? 1 : x->f < y->f ? -1 : 0;
}

/*
 * The calls on the n file rows split per owner of by: the (owner, file)
 * rows into *rows (their number *nr), their groups into *groups.  0 or
 * -AN_E_NOMEM.
 */
static long fo_split(const struct file_row *v, size_t n, enum owner_by by,
		     struct fo_row **rows, size_t *nr, struct fo_row **groups)
{
	size_t nc = 0, m = 0, ng = 0;
	struct fo_row *r, *g;

	*rows = *groups = NULL;
	*nr = 0;
	for (size_t i = 0; i < n; i++)
		for (const struct fileproc *c = v[i].s->procs; c; c = c->next)
			nc++;
	r = an_calloc(nc + 1, sizeof(*r));
	g = an_calloc(nc + 1, sizeof(*g));
	if (!r || !g) {
		free(r);
		free(g);
		return -AN_E_NOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		size_t first = m;

		for (const struct fileproc *c = v[i].s->procs; c; c = c->next) {
			struct fo_row cell = { .f = &v[i] }, *d = NULL;

			owner_proc_key(c->p, by, cell.key, sizeof(cell.key));
			cell.opens = c->opens;
			cell.reads = c->reads;
			cell.read_bytes = c->read_bytes;
			cell.writes = c->writes;
			cell.write_bytes = c->write_bytes;
			cell.errors = c->errors;
			cell.fsyncs = c->fsyncs;
			cell.fsync_ns = c->fsync_ns;
			cell.fsync_max_ns = c->fsync_max_ns;
			for (size_t k = first; k < m && !d; k++)
				if (!strcmp(r[k].key, cell.key))
					d = &r[k];
			if (!d) {
				d = &r[m++];
				memcpy(d->key, cell.key, sizeof(d->key));
				d->f = cell.f;
			}
			fo_add(d, &cell);
		}
	}
	for (size_t i = 0; i < m; i++) {
		struct fo_row *d = NULL;

		for (size_t k = 0; k < ng && !d; k++)
			if (!strcmp(g[k].key, r[i].key))
				d = &g[k];
		if (!d) {
			d = &g[ng++];
			memcpy(d->key, r[i].key, sizeof(d->key));
		}
		d->files++;
		fo_add(d, &r[i]);
	}
	qsort(g, ng, sizeof(*g), cmp_fo_group);
	for (size_t i = 0; i < m; i++)
		for (size_t k = 0; k < ng; k++)
			if (!strcmp(g[k].key, r[i].key))
				r[i].group = k;
	qsort(r, m, sizeof(*r), cmp_fo_file);
	*rows = r;
	*nr = m;
	*groups = g;
	return (long)ng;
}

static void fo_json_nums(struct json *j, const struct fo_row *r)
{
	json_u64(j, "opens", r->opens);
	json_u64(j, "reads", r->reads);
	json_u64(j, "read_bytes", r->read_bytes);
	json_u64(j, "writes", r->writes);
	json_u64(j, "write_bytes", r->write_bytes);
	json_u64(j, "errors", r->errors);
	json_object_begin(j, "fsync");
	json_u64(j, "count", r->fsyncs);
	json_u64(j, "sum_ns", r->fsync_ns);
	json_u64(j, "max_ns", r->fsync_max_ns);
	json_object_end(j);
}

/* the key of a group or row: null for "-", as the processes' own */
static void fo_json_key(struct json *j, const char *by, const char *key)
{
	json_str(j, by, strcmp(key, "-") ? key : NULL);
}

/*
 * --by: the files' calls split per owner, as text (before the files'
 * table: the groups, then each group's files, the top of them) or as
 * the JSON members by, groups and group_files (--csv=groups,
 * --csv=group_files)
 */
void print_file_owners(struct sink *s, const struct file_row *v,
			      long n, long top)
{
	const char *by = owner_by_name((enum owner_by)s->by);
	struct column gc[ARRAY_SIZE(fo_group_cols)];
	struct column fc[ARRAY_SIZE(fo_file_cols)];
	struct fo_row *rows, *groups;
	char mm[BLK_DEV_STRLEN], head[16];
	size_t nr, shown, l;
	long ng;

	if (!by || n < 0)
		return;
	ng = fo_split(v, (size_t)n, (enum owner_by)s->by, &rows, &nr,
		      &groups);
	if (ng < 0) {
		sink_fail(s, (int)ng);
		return;
	}
	if (s->j) {
		struct json *j = s->j;

		json_str(j, "by", by);
		json_array_begin(j, "groups");
		for (long i = 0; i < ng; i++) {
			json_object_begin(j, NULL);
			fo_json_key(j, by, groups[i].key);
			json_u64(j, "files", groups[i].files);
			fo_json_nums(j, &groups[i]);
			json_object_end(j);
		}
		json_array_end(j);
		json_array_begin(j, "group_files");
		for (size_t i = 0; i < nr; i++) {
			const struct file_info *f = &rows[i].f->f;

			json_object_begin(j, NULL);
			fo_json_key(j, by, rows[i].key);
			json_str(j, "path", f->path);
			json_str(j, "name", file_info_name(f));
			if (f->names)
				json_str(j, "other_names", f->names);
			if (f->has_devino) {
				json_str(j, "dev", blk_mm_str(f->major,
							      f->minor, mm,
							      sizeof(mm)));
				json_u64(j, "ino", f->ino);
			} else {
				json_null(j, "dev");
				json_null(j, "ino");
			}
			fo_json_nums(j, &rows[i]);
			json_object_end(j);
		}
		json_array_end(j);
		free(rows);
		free(groups);
		return;
	}
	/* the owner's column is headed by it: UNIT, CONTAINER, CGROUP */
	memcpy(gc, fo_group_cols, sizeof(gc));
	memcpy(fc, fo_file_cols, sizeof(fc));
	l = strlen(by) < sizeof(head) ? strlen(by) : sizeof(head) - 1;
	for (size_t i = 0; i < l; i++)
		head[i] = (char)(by[i] - 'a' + 'A');
	head[l] = 0;
	gc[ARRAY_SIZE(gc) - 1].head = gc[ARRAY_SIZE(gc) - 1].narrow = head;
	fc[0].head = fc[0].narrow = head;
	fprintf(s->out, "per %s: %ld, the calls of its processes on files "
		"summed (\"-\": of none; block I/O is the files' own, "
		"below)\n\n", by, ng);
	sink_fail(s, table_print(s->out, s->wide ? 0 : SINK_WIDTH, gc,
				 (int)ARRAY_SIZE(gc), groups, (size_t)ng,
				 sizeof(*groups)));
	shown = sink_top(top, (long)nr);
	fprintf(s->out, "\nfiles per %s: %zu", by, nr);
	if (shown < nr)
		fprintf(s->out, " (top %zu shown)", shown);
	fprintf(s->out, "\n\n");
	sink_fail(s, table_print(s->out, s->wide ? 0 : SINK_WIDTH, fc,
				 (int)ARRAY_SIZE(fc), rows, shown,
				 sizeof(*rows)));
	fputc('\n', s->out);
	free(rows);
	free(groups);
}
