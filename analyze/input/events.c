// SPDX-License-Identifier: MIT
/*
 * events.c - what the events of a recording hold (see source.h): their
 * types, their fields read in the recording's byte order, their text as
 * trace-cmd report prints it, the names of tasks and raw syscalls, and
 * what a print format divides a field by.  The other half of the input
 * layer is source.c (opening and reading the recording).
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util.h"
#include "base/err.h"
#include "sbuf.h"
#include "input/meta.h"
#include "input/ftrace-guard.h"
#include "input/source.h"
#include "input/source-priv.h"

/* ------------------------------------------------------------------ */
/* Raw syscall names, from the SYSCALLS chunk */

static int cmp_syscall(const void *a, const void *b)
{
	const struct syscall_name *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

struct syscall_load {
	struct source *src;
	struct syscall_tab *tab;
};

static void add_syscall(struct syscall_load *l, long nr, const char *name)
{
	struct syscall_tab *t = l->tab;
	char *n = an_strdup(name);
	struct syscall_name *v = n ? an_push(&t->v, &t->n, &t->alloc,
					     sizeof(*t->v), 64) : NULL;

	if (!v) {
		free(n);
		l->src->nomem = true;
		return;
	}
	v->nr = nr;
	v->name = n;
}

/* A "NR\tNAME" line of the SYSCALLS chunk. */
static int syscall_line(char **f, int n, void *arg)
{
	const char *name;
	int nr;

	if (meta_syscall_line(f, n, &nr, &name))
		add_syscall(arg, nr, name);
	return 0;
}

void source_load_syscalls(struct source *src, struct syscall_tab *tab,
			  const char *text)
{
	struct syscall_load l = { src, tab };

	source_free_syscalls(tab);
	if (meta_lines(text, NULL, syscall_line, &l) < 0)
		src->nomem = true;
	if (tab->n)	/* no valid line: no array, no qsort(NULL) */
		qsort(tab->v, tab->n, sizeof(*tab->v), cmp_syscall);
}

void source_free_syscalls(struct syscall_tab *tab)
{
	for (size_t i = 0; i < tab->n; i++)
		free(tab->v[i].name);
	free(tab->v);
	tab->v = NULL;
	tab->n = tab->alloc = 0;
}

static const char *tab_name(const struct syscall_tab *t, long nr)
{
	struct syscall_name key = { .nr = nr }, *s;

	if (!t->n)	/* no bsearch(NULL) either */
		return NULL;
	s = bsearch(&key, t->v, t->n, sizeof(key), cmp_syscall);
	return s ? s->name : NULL;
}

const char *source_syscall_name(struct source *src, long nr)
{
	return tab_name(&src->syscalls, nr);
}

const char *source_compat_syscall_name(struct source *src, long nr)
{
	return tab_name(&src->compat, nr);
}

/* ------------------------------------------------------------------ */
/* Event types */

static int cmp_type_name(const void *a, const void *b)
{
	const struct source_event_type *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

static struct source *cmp_src;	/* qsort has no context argument */

static int cmp_type_id(const void *a, const void *b)
{
	int x = cmp_src->types[*(const int *)a].id;
	int y = cmp_src->types[*(const int *)b].id;

	return x < y ? -1 : x > y;
}

/* The event types of the recording's formats; false: no memory. */
bool source_build_types(struct source *src)
{
	int n = tep_get_events_count(src->tep);
	struct tep_event **list = tep_list_events(src->tep, TEP_EVENT_SORT_ID);

	src->ntypes = 0;
	src->types = an_calloc(n > 0 ? (size_t)n : 1, sizeof(*src->types));
	if (!src->types)
		return false;
	for (int i = 0; list && list[i] && i < n; i++) {
		struct source_event_type *t = &src->types[src->ntypes++];

		t->id = list[i]->id;
		t->system = list[i]->system ? list[i]->system : "";
		t->name = list[i]->name ? list[i]->name : "";
	}
	qsort(src->types, src->ntypes, sizeof(*src->types), cmp_type_name);
	src->type_index = an_calloc(src->ntypes ? (size_t)src->ntypes : 1,
				    sizeof(int));
	if (!src->type_index)
		return false;
	for (int i = 0; i < src->ntypes; i++)
		src->type_index[i] = i;
	cmp_src = src;
	qsort(src->type_index, src->ntypes, sizeof(int), cmp_type_id);
	cmp_src = NULL;

	/* direct lookup by id for the per-event path (ids are small) */
	src->max_id = -1;
	for (int i = 0; i < src->ntypes; i++)
		if (src->types[i].id > src->max_id &&
		    src->types[i].id < TYPE_ID_LIMIT)
			src->max_id = src->types[i].id;
	src->type_by_id = an_calloc((size_t)src->max_id + 1,
				    sizeof(*src->type_by_id));
	if (!src->type_by_id)
		return false;
	for (int i = 0; i < src->ntypes; i++)
		if (src->types[i].id >= 0 && src->types[i].id <= src->max_id)
			src->type_by_id[src->types[i].id] = &src->types[i];

	/* the common fields are the same in every event */
	src->type_size = src->pid_size = 0;
	src->swap = tep_is_file_bigendian(src->tep) != host_big_endian();
	for (int i = 0; list && list[i] && i < n; i++) {
		struct tep_format_field *ft, *fp;

		ft = tep_find_common_field(list[i], "common_type");
		fp = tep_find_common_field(list[i], "common_pid");
		if (!ft || !fp)
			continue;
		src->type_off = ft->offset;
		src->type_size = ft->size;
		src->pid_off = fp->offset;
		src->pid_size = fp->size;
		break;
	}
	return true;
}

struct source_event_type *source_find_type_slow(struct source *src, int id)
{
	int lo = 0, hi = src->ntypes - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		struct source_event_type *t =
			&src->types[src->type_index[mid]];

		if (t->id == id)
			return t;
		if (t->id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

struct source_event_type *source_event_types(struct source *src, int *n)
{
	*n = src->ntypes;
	return src->types;
}

const struct source_event_type *source_event_type(struct source *src, int id)
{
	return source_find_type(src, id);
}

int source_event_id(struct source *src, const char *system, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(src->tep, system, name);

	return e ? e->id : -1;
}

/*
 * Whether the fields of swap_tep's recording need a byte swap (swap_val):
 * remembered for the last handle asked, since asking libtraceevent costs
 * a call per field read (field_swap); source_close() forgets its handle
 * before freeing it.
 */
static const struct tep_handle *swap_tep;
static bool swap_val;

void source_fields_forget(const struct source *src)
{
	if (swap_tep == src->tep)
		swap_tep = NULL;
}

/* ------------------------------------------------------------------ */
/* Fields and printing */

struct source_field *source_field(struct source *src, int id,
				  const char *name)
{
	struct tep_event *e = tep_find_event(src->tep, id);

	if (!e)
		return NULL;
	return (struct source_field *)tep_find_any_field(e, name);
}

/* Does the field lie inside the record (offset and size non-negative)? */
static inline bool field_inside(const struct tep_format_field *field,
				const struct source_event *ev)
{
	return field->offset >= 0 && field->size >= 0 && ev->size >= 0 &&
	       (long long)field->offset + field->size <= ev->size;
}

static inline bool field_swap(const struct tep_format_field *field)
{
	const struct tep_handle *tep = field->event->tep;

	if (tep != swap_tep) {
		swap_val = tep_is_file_bigendian((struct tep_handle *)tep) !=
			   host_big_endian();
		swap_tep = tep;
	}
	return swap_val;
}

int source_field_u64(const struct source_field *f,
		     const struct source_event *ev, uint64_t *val)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	const char *p;
	unsigned long long v;
	bool swap;

	/* the offset and size are ints from a format text: never trusted */
	if (!field || !field_inside(field, ev))
		return -1;
	/* the common case without libtraceevent's general path */
	p = (const char *)ev->data + field->offset;
	swap = field_swap(field);
	if (field->size == 1 || field->size == 2 || field->size == 4 ||
	    field->size == 8) {
		*val = ftrace_num_swap(p, field->size, swap);
		return 0;
	}
	if (tep_read_number_field(field, ev->data, &v))
		return -1;
	*val = v;
	return 0;
}

int source_field_s64(const struct source_field *f,
		     const struct source_event *ev, int64_t *val)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	uint64_t v;

	if (source_field_u64(f, ev, &v))
		return -1;
	if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size < 8 &&
	    (v & (1ULL << (field->size * 8 - 1))))
		v |= ~0ULL << (field->size * 8);
	*val = (int64_t)v;
	return 0;
}

int source_field_str(const struct source_field *f,
		     const struct source_event *ev, char *buf, size_t bufsz)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	unsigned int off, len;
	size_t n;

	if (!field || !bufsz || !field_inside(field, ev))
		return -1;
	off = (unsigned int)field->offset;
	len = (unsigned int)field->size;
	if (field->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (tep_read_number_field(field, ev->data, &loc))
			return -1;
		off = (unsigned int)(loc & 0xffff);
		len = (unsigned int)(loc >> 16) & 0xffff;
		if (field->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(field->offset + field->size);
	}
	if ((uint64_t)off + len > (uint64_t)ev->size)
		return -1;
	n = strnlen((const char *)ev->data + off, len);
	if (n >= bufsz)
		n = bufsz - 1;
	memcpy(buf, (const char *)ev->data + off, n);
	buf[n] = '\0';
	return 0;
}

/*
 * The fields of rec after what src->seq holds, into out without the
 * trailing newline (every one when all, else one).
 */
static void seq_fields(struct source *src, struct tep_record *rec, bool raw,
		       struct sbuf *out, bool all)
{
	tep_print_event(src->tep, &src->seq, rec, "%s",
			raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	trace_seq_terminate(&src->seq);
	while (src->seq.len && src->seq.buffer[src->seq.len - 1] == '\n') {
		src->seq.len--;
		if (!all)
			break;
	}
	sbuf_add(out, src->seq.buffer, src->seq.len);
}

/* Zeroes after a record printed (PRINT_SLACK), see struct source. */
#define PRINT_SLACK		(256u << 10)

/*
 * guard: ev's record copied in front of PRINT_SLACK zeroes; NULL when
 * there is no memory for the copy (src->nomem set).
 */
static struct tep_record *print_record(struct source *src,
				       const struct source_event *ev)
{
	struct tep_record *rec = ev->priv;
	size_t size = rec->size > 0 ? (size_t)rec->size : 0;

	if (src->print_alloc < size + PRINT_SLACK) {
		free(src->print_buf);
		src->print_used = 0;
		src->print_alloc = size + PRINT_SLACK;
		src->print_buf = an_calloc(1, src->print_alloc);
		if (!src->print_buf) {
			src->print_alloc = 0;
			src->nomem = true;
			return NULL;
		}
	} else {
		memset(src->print_buf, 0, src->print_used);
	}
	memcpy(src->print_buf, rec->data, size);
	src->print_used = size;
	src->print_rec = *rec;
	src->print_rec.data = src->print_buf;
	return &src->print_rec;
}

void source_format_event(struct source *src, const struct source_event *ev,
			 bool raw, const char *when, struct sbuf *out)
{
	struct tep_record *rec = print_record(src, ev);
	const struct source_event_type *t = source_find_type(src, ev->id);
	const char *name = t ? t->name : "(NULL)";
	int len = (int)strlen(name);

	if (!rec) {
		out->failed = true;
		return;
	}
	trace_seq_reset(&src->seq);
	tep_print_event(src->tep, &src->seq, rec, "%16s-%-5d [%03d]",
			TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU);
	if (when)
		trace_seq_printf(&src->seq, " %s:", when);
	else
		tep_print_event(src->tep, &src->seq, rec, " %6.1000d:",
				TEP_PRINT_TIME);
	trace_seq_printf(&src->seq, " %s: %*s", name, len < 20 ? 20 - len : 0,
			 "");
	seq_fields(src, rec, raw, out, false);
}

void source_format_fields(struct source *src, const struct source_event *ev,
			  bool raw, struct sbuf *out)
{
	struct tep_record *rec = print_record(src, ev);

	if (!rec) {
		out->failed = true;
		return;
	}
	trace_seq_reset(&src->seq);
	seq_fields(src, rec, raw, out, true);
}

const char *source_comm(struct source *src, int pid)
{
	struct comm_cache *cc = &src->comms[(unsigned int)pid % COMM_CACHE];
	const char *c;

	if (cc->comm && cc->pid == pid)
		return cc->comm;
	c = tep_data_comm_from_pid(src->tep, pid);
	if (!c)
		c = "<...>";
	/* libtraceevent keeps its comm strings until the handle is freed */
	cc->pid = pid;
	cc->comm = c;
	return c;
}

/* ------------------------------------------------------------------ */
/* Array elements and string-ness of fields (used by decode/decode.c) */

int source_field_array_u64(const struct source_field *f,
			   const struct source_event *ev, int idx,
			   uint64_t *val)
{
	struct tep_format_field *field = (struct tep_format_field *)f;
	unsigned int esize;
	long long off;

	if (!field || idx < 0 || !(field->flags & TEP_FIELD_IS_ARRAY) ||
	    (field->flags & TEP_FIELD_IS_DYNAMIC))
		return -1;
	esize = field->elementsize;
	if (!field->arraylen || (unsigned int)idx >= field->arraylen ||
	    (esize != 1 && esize != 2 && esize != 4 && esize != 8))
		return -1;
	off = (long long)field->offset + (long long)idx * esize;
	if (field->offset < 0 || off + esize > ev->size ||
	    (long long)idx * esize + esize > (long long)field->size)
		return -1;
	*val = tep_read_number(field->event->tep,
			       (const char *)ev->data + off, (int)esize);
	return 0;
}

bool source_field_is_string(const struct source_field *f)
{
	const struct tep_format_field *field = (const struct tep_format_field *)f;

	if (!field || (field->flags & TEP_FIELD_IS_POINTER) || !field->type)
		return false;
	if (!(field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	return strstr(field->type, "char") != NULL;
}

const struct source_field *source_field_next(struct source *src, int id,
					     const struct source_field *prev)
{
	const struct tep_format_field *f;
	struct tep_event *e;

	if (prev) {
		f = ((const struct tep_format_field *)prev)->next;
	} else {
		e = tep_find_event(src->tep, id);
		f = e ? e->format.fields : NULL;
	}
	return (const struct source_field *)f;
}

const char *source_field_name(const struct source_field *f)
{
	return ((const struct tep_format_field *)f)->name;
}

enum source_field_kind source_field_kind(const struct source_field *f,
					 int *nelem)
{
	const struct tep_format_field *field = (const struct tep_format_field *)f;
	unsigned int es = field->elementsize;

	*nelem = 0;
	if (source_field_is_string(f))
		return SOURCE_FIELD_STRING;
	if (field->flags & TEP_FIELD_IS_DYNAMIC)
		return SOURCE_FIELD_BYTES;
	if (field->flags & TEP_FIELD_IS_ARRAY) {
		if (es == 1 || es == 2 || es == 4 || es == 8)
			*nelem = (int)field->arraylen;
		return *nelem ? SOURCE_FIELD_ARRAY : SOURCE_FIELD_BYTES;
	}
	return field->flags & TEP_FIELD_IS_SIGNED ? SOURCE_FIELD_SIGNED :
	       SOURCE_FIELD_UNSIGNED;
}

/* Does the print argument tree a read field `name`? */
static bool arg_uses_field(const struct tep_print_arg *a, const char *name)
{
	if (!a)
		return false;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return a->field.name && !strcmp(a->field.name, name);
	case TEP_PRINT_OP:
		return arg_uses_field(a->op.left, name) ||
		       arg_uses_field(a->op.right, name);
	case TEP_PRINT_TYPE:
		return arg_uses_field(a->typecast.item, name);
	default:
		return false;
	}
}

static long find_divisor(const struct tep_print_arg *a, const char *name)
{
	long v;

	for (; a; a = a->next) {
		if (a->type == TEP_PRINT_TYPE) {
			v = find_divisor(a->typecast.item, name);
			if (v)
				return v;
		}
		if (a->type != TEP_PRINT_OP || !a->op.op)
			continue;
		if (!strcmp(a->op.op, "/") && a->op.right &&
		    a->op.right->type == TEP_PRINT_ATOM &&
		    arg_uses_field(a->op.left, name))
			return strtol(a->op.right->atom.atom, NULL, 0);
		v = find_divisor(a->op.left, name);
		if (!v)
			v = find_divisor(a->op.right, name);
		if (v)
			return v;
	}
	return 0;
}

long source_event_print_divisor(struct source *src, int id, const char *field)
{
	struct tep_event *e = tep_find_event(src->tep, id);

	return e ? find_divisor(e->print_fmt.args, field) : 0;
}

/* ------------------------------------------------------------------ */
/* Event filters: libtraceevent's (source.h) */

struct source_filter {
	struct source *src;
	struct tep_event_filter *tf;
};

struct source_filter *source_filter_new(struct source *src)
{
	struct source_filter *f = an_calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->src = src;
	f->tf = tep_filter_alloc(src->tep);
	if (!f->tf) {
		free(f);
		return NULL;
	}
	return f;
}

/* A character of an event name or of a regular expression of names. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("_*.?[]^$|", c));
}

/*
 * expr with the SYS:EVENT of its event list written SYS/EVENT, as
 * libtraceevent wants them.  The list is what comes before the last ':'
 * that only names, ',', '/', ':' and blanks precede, when there are two
 * such (SYS:EVENT: EXPR), or all of expr when it is only that
 * (SYS:EVENT,...); a ':' in it between two name characters is a SYS:EVENT.
 */
static char *slash_systems(const char *expr)
{
	char *s = an_strdup(expr);
	size_t i, list = 0, colons = 0;

	if (!s)
		return NULL;
	for (i = 0; s[i] && (name_char(s[i]) || strchr(",/: \t", s[i])); i++)
		if (s[i] == ':') {
			colons++;
			list = i;
		}
	if (!s[i])
		list = i;
	else if (colons < 2)
		return s;
	for (i = 1; i + 1 < list; i++)
		if (s[i] == ':' && name_char(s[i - 1]) && name_char(s[i + 1]))
			s[i] = '/';
	return s;
}

/*
 * libtraceevent's message msg on one line into why (n bytes): it writes
 * the expression, a line with a caret under the place, then the error;
 * the error and the place as "at character N: TEXT".
 */
static void filter_message(const char *msg, char *why, size_t n)
{
	const char *l2 = strchr(msg, '\n'), *l3 = l2 ? strchr(l2 + 1, '\n') : NULL;
	const char *caret = l2 ? strchr(l2 + 1, '^') : NULL;
	size_t len;

	if (!l3 || !caret || caret > l3) {
		snprintf(why, n, "%s", msg);
		for (char *p = why; *p; p++)
			if (*p == '\n')
				*p = ' ';
		return;
	}
	len = strcspn(l3 + 1, "\n");
	snprintf(why, n, "%.*s at character %d of '%.*s'", (int)len, l3 + 1,
		 (int)(caret - (l2 + 1)), (int)(l2 - msg), msg);
}

/*
 * s with each glob comparison FIELD ~ "GLOB" (the kernel's filter
 * grammar) written FIELD =~ "^REGEX$", the regular expression
 * libtraceevent matches: * is .*, ? is ., [...] as it is, the other
 * characters of regular expressions escaped.  Takes s; NULL when out of
 * memory.
 */
static char *globs_to_regex(char *s)
{
	size_t len = strlen(s);
	char *d = malloc(2 * len + 4 * (len / 2 + 1) + 1), *p = d;
	bool quote = false;

	if (!d) {
		free(s);
		return NULL;
	}
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '"' && (!i || s[i - 1] != '\\'))
			quote = !quote;
		if (quote || s[i] != '~' || (i && strchr("=!", s[i - 1]))) {
			*p++ = s[i];
			continue;
		}
		*p++ = '=';
		*p++ = '~';
		while (s[i + 1] == ' ' || s[i + 1] == '\t')
			*p++ = s[++i];
		if (s[i + 1] != '"')
			continue;
		i += 2;
		*p++ = '"';
		*p++ = '^';
		for (bool cls = false; s[i] && s[i] != '"'; i++) {
			if (cls || s[i] == '[') {
				cls = s[i] != ']' || (cls && p[-1] == '[');
				*p++ = s[i];
			} else if (s[i] == '*') {
				*p++ = '.';
				*p++ = '*';
			} else if (s[i] == '?') {
				*p++ = '.';
			} else if (s[i] == '\\' && s[i + 1]) {
				*p++ = s[i++];
				*p++ = s[i];
			} else {
				if (strchr(".^$+(){}|", s[i]))
					*p++ = '\\';
				*p++ = s[i];
			}
		}
		*p++ = '$';
		if (!s[i])
			break;
		*p++ = '"';
	}
	*p = '\0';
	free(s);
	return d;
}

int source_filter_add(struct source_filter *f, const char *expr, char *why,
		      size_t n)
{
	char *s = slash_systems(expr);

	if (s)
		s = globs_to_regex(s);
	enum tep_errno rc;
	int status;
	pid_t child;

	if (!s) {
		snprintf(why, n, "%s", an_strerror(AN_E_NOMEM));
		return -1;
	}
	/*
	 * libtraceevent (1.7) crashes on an expression that ends inside a
	 * comparison or after && (a NULL operand): parsed in a child first.
	 * The child says 0 (parsed) or 3 (refused); anything else is its
	 * crash, whether a signal or a sanitizer's own exit status, and a
	 * sanitizer's report of it goes to /dev/null with the child's stderr.
	 */
	child = fork();
	if (child == 0) {
		struct tep_event_filter *t;
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDERR_FILENO);
		t = tep_filter_alloc(f->src->tep);
		_exit(t && tep_filter_add_filter_str(t, s) == 0 ? 0 : 3);
	}
	if (child > 0 && waitpid(child, &status, 0) == child &&
	    !(WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
				    WEXITSTATUS(status) == 3))) {
		snprintf(why, n, "libtraceevent cannot parse it (its parser crashed on it): an operator lacks its right side, or a string its closing quote");
		free(s);
		return -1;
	}
	rc = tep_filter_add_filter_str(f->tf, s);
	if (rc == TEP_ERRNO__FILTER_NOT_FOUND ||
	    rc == TEP_ERRNO__EVENT_NOT_FOUND) {
		snprintf(why, n, "no event of the recording is named by '%.*s'",
			 (int)strcspn(expr, ":"), expr);
		free(s);
		return -1;
	}
	if (rc < 0 || rc > 0) {
		char msg[256];

		if (tep_filter_strerror(f->tf, rc, msg, sizeof(msg)) < 0)
			snprintf(msg, sizeof(msg), "error %d", (int)rc);
		filter_message(msg, why, n);
		free(s);
		return -1;
	}
	free(s);
	/* a field the event has not: libtraceevent makes it false */
	for (int i = 0; i < f->tf->filters; i++) {
		struct tep_filter_type *t = &f->tf->event_filters[i];

		if (!t->filter || t->filter->type != TEP_FILTER_ARG_BOOLEAN ||
		    t->filter->boolean.value != TEP_FILTER_FALSE)
			continue;
		snprintf(why, n, "it is false for every %s:%s event: a field it names is not one of the event's (strings are quoted: comm == \"bash\")",
			 t->event->system, t->event->name);
		return -1;
	}
	return 0;
}

int source_filter_match(struct source_filter *f, const struct source_event *ev)
{
	struct tep_record *rec = print_record(f->src, ev);

	if (!rec)
		return -AN_E_NOMEM;
	return tep_filter_match(f->tf, rec) == TEP_ERRNO__FILTER_MATCH;
}

void source_filter_free(struct source_filter *f)
{
	if (!f)
		return;
	tep_filter_free(f->tf);
	free(f);
}
