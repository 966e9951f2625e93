// SPDX-License-Identifier: MIT
/*
 * ftrace-guard.c - the ftrace grammar check of the texts a recording
 * carries, before libtraceevent sees them (ftrace-guard.h).
 *
 * The grammar is the kernel's (trace_events.c f_show, the TP_printk()
 * expansions): a name line, an ID line, "format:", field lines, a blank
 * line after the common fields, one "print fmt:" line.  The print fmt is
 * parsed as the C expressions libtraceevent understands, by recursive
 * descent with a depth limit; anything else is "not well formed".
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/err.h"
#include "sbuf.h"
#include "input/ftrace-guard.h"
#include "input/ftrace-guard-priv.h"

#define MAX_FIELDS	256
#define MAX_NAME	128
#define MAX_DECL	256
#define MAX_TOKENS	16384
#define MAX_DEPTH	48
#define MAX_WIDTH	4096	/* of a conversion: libtraceevent pads to it */

void ftrace_verdict_release(struct ftrace_verdict *v)
{
	free(v->text);
	v->text = NULL;
	v->text_len = 0;
}

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

bool ftrace_check_system(const char *name, size_t len)
{
	if (!len || len > 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_ident((unsigned char)name[i]))
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* Fields */

struct field {
	char name[MAX_NAME + 1];
	long offset, size;
	bool dynamic;		/* __data_loc / __rel_loc */
	bool array;		/* name[...] or type[] */
	bool chars;		/* of char */
	bool common;
};

struct format {
	const char *text, *end;
	bool ftrace;
	struct field *f;
	int nf, nalloc;
	struct ftrace_verdict *v;
};

static const struct field *find_field(const struct format *fm,
				      const char *name, size_t n)
{
	for (int i = 0; i < fm->nf; i++)
		if (strlen(fm->f[i].name) == n && !memcmp(fm->f[i].name, name, n))
			return &fm->f[i];
	return NULL;
}

/* The type words of a declaration: identifiers, '*', "[]" or "[N]". */
static bool good_type(const char *p, size_t n)
{
	size_t words = 0;

	if (!n || p[0] == ' ' || p[n - 1] == ' ')
		return false;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		if (p[i] == ' ') {
			if (i + 1 < n && p[i + 1] == ' ')
				return false;
			i++;
			continue;
		}
		words++;
		while (j < n && p[j] != ' ') {
			char c = p[j];

			if (c == '[') {
				/* "char[]" or "u8[16]" ends a word */
				size_t k = j + 1;

				while (k < n && isdigit((unsigned char)p[k]))
					k++;
				if (k >= n || p[k] != ']' ||
				    (k + 1 < n && p[k + 1] != ' '))
					return false;
				j = k + 1;
				break;
			}
			if (!is_ident((unsigned char)c) && c != '*')
				return false;
			j++;
		}
		i = j;
	}
	return words >= 1 && words <= 8;
}

/*
 * "\tNAME:<decimal>;" at *q (before e) into *out, *q moved past it; else
 * a refusal naming NAME at the offset of what is wrong (base is p's).
 * NAME_REFUSALS gives the tag and the two refusals of one NAME.
 */
#define NAME_REFUSALS(name) "\t" name ":", "field without \"" name ":\"", \
	"field " name " not a decimal number within the record"

static int field_num(struct format *fm, const char **q, const char *e,
		     const char *tag, const char *missing, const char *bad,
		     const char *p, size_t base, long *out)
{
	const char *semi;

	if (!starts(*q, (size_t)(e - *q), tag))
		return refuse(fm->v, missing, base + (size_t)(*q - p));
	*q += strlen(tag);
	semi = memchr(*q, ';', (size_t)(e - *q));
	*out = semi ? decimal(*q, (size_t)(semi - *q), FTRACE_MAX_RECORD) : -1;
	if (*out < 0)
		return refuse(fm->v, bad, base + (size_t)(*q - p));
	*q = semi + 1;
	return 0;
}

/*
 * One "\tfield:DECL;\toffset:N;\tsize:N;[\tsigned:B;]" line (without the
 * newline) at p.
 */
static int parse_field(struct format *fm, const char *p, size_t n,
		       uint32_t max_record, bool common)
{
	size_t base = (size_t)(p - fm->text);
	const char *decl, *semi, *q, *e = p + n;
	size_t dn, name_end, name_start;
	struct field *f;
	long v;
	int ret;

	if (fm->nf >= MAX_FIELDS)
		return refuse(fm->v, "too many fields", base);
	if (fm->nf == fm->nalloc) {
		int nalloc = fm->nalloc ? 2 * fm->nalloc : 16;
		struct field *nf = an_reallocarray(fm->f, (size_t)nalloc,
						   sizeof(*nf));

		if (!nf)
			return FTRACE_NOMEM;
		fm->f = nf;
		fm->nalloc = nalloc;
	}
	f = &fm->f[fm->nf];
	memset(f, 0, sizeof(*f));
	f->common = common;
	if (!starts(p, n, "\tfield:"))
		return refuse(fm->v, "a field line must start with a tab and \"field:\"", base);
	decl = p + 7;
	semi = memchr(decl, ';', (size_t)(e - decl));
	if (!semi)
		return refuse(fm->v, "field declaration without ';'", base);
	dn = (size_t)(semi - decl);
	if (!dn || dn > MAX_DECL)
		return refuse(fm->v, "field declaration empty or too long", base + 7);
	if ((v = (long)ftrace_rewritten_word(decl, dn)))
		return refuse(fm->v, "LOCAL_PR_FMT, STA_PR_FMT or VIF_PR_FMT in a field declaration (libtraceevent rewrites them)", base + 6 + (size_t)v);

	/* from the end: NAME, or NAME[...] */
	name_end = dn;
	if (decl[dn - 1] == ']') {
		size_t i = dn - 1;
		int depth = 0;

		for (;;) {
			char c = decl[i];

			if (c == ']')
				depth++;
			else if (c == '[' && !--depth)
				break;
			else if (!is_ident((unsigned char)c) && c != ' ' &&
				 c != '(' && c != ')' && c != '+' && c != '*')
				return refuse(fm->v, "bad character in a field's array size", base + 7 + i);
			if (!i--)
				return refuse(fm->v, "unbalanced brackets in a field declaration", base + 7);
		}
		name_end = i;
		f->array = true;
	}
	name_start = name_end;
	while (name_start > 0 &&
	       (is_ident((unsigned char)decl[name_start - 1]) ||
		(fm->ftrace && decl[name_start - 1] == '.')))
		name_start--;
	if (name_start == name_end || name_end - name_start > MAX_NAME ||
	    !is_ident_start((unsigned char)decl[name_start]))
		return refuse(fm->v, "field without a name", base + 7 + name_start);
	if (name_start < 2 || decl[name_start - 1] != ' ')
		return refuse(fm->v, "field without a type", base + 7);
	if (!good_type(decl, name_start - 1))
		return refuse(fm->v, "field type not of the ftrace shape", base + 7);
	/* "TYPE[] NAME" only as "__data_loc char[] name" */
	if (memchr(decl, '[', name_start) &&
	    !starts(decl, dn, "__data_loc ") && !starts(decl, dn, "__rel_loc "))
		return refuse(fm->v, "brackets in a field type that is not dynamic", base + 7);
	memcpy(f->name, decl + name_start, name_end - name_start);
	if (find_field(fm, f->name, strlen(f->name)))
		return refuse(fm->v, "field declared twice", base + 7 + name_start);
	f->dynamic = starts(decl, dn, "__data_loc ") ||
		     starts(decl, dn, "__rel_loc ");
	if (memchr(decl, '[', name_start))
		f->array = true;
	for (size_t i = 0; i + 4 <= name_start; i++)
		if (!memcmp(decl + i, "char", 4))
			f->chars = true;

	/* ";\toffset:N;\tsize:N;" */
	q = semi + 1;
	ret = field_num(fm, &q, e, NAME_REFUSALS("offset"), p, base,
			&f->offset);
	if (!ret)
		ret = field_num(fm, &q, e, NAME_REFUSALS("size"), p, base,
				&f->size);
	if (ret)
		return ret;
	if (q < e) {
		if (!starts(q, (size_t)(e - q), "\tsigned:") || e - q != 10 ||
		    (q[8] != '0' && q[8] != '1') || q[9] != ';')
			return refuse(fm->v, "field line must end with \"signed:0;\" or \"signed:1;\"", base + (size_t)(q - p));
	}
	if ((uint64_t)f->offset + (uint64_t)f->size > max_record)
		return refuse(fm->v, "field reaches past the end of the record", base + 7 + name_start);
	if (f->dynamic && f->size != 4)
		return refuse(fm->v, "dynamic field whose size is not 4", base + 7 + name_start);
	if (!f->size && !f->array)
		return refuse(fm->v, "field of size 0", base + 7 + name_start);
	fm->nf++;
	return FTRACE_OK;
}

/* ------------------------------------------------------------------ */
/* The print fmt: tokens */

enum tok_kind { T_END, T_NUM, T_STR, T_CHAR, T_IDENT, T_OP };

struct tok {
	enum tok_kind kind;
	const char *p;
	size_t n;
};

struct pf {
	struct format *fm;
	struct tok *t;
	int nt, maxt, i, depth;
	const char *why;	/* the first problem */
	size_t why_off;
	uint64_t widths;	/* the arguments that are a '*' width or
				   precision, of the first 64 */
};

static bool tok_is(const struct tok *t, const char *s)
{
	return (t->kind == T_OP || t->kind == T_IDENT) && t->n == strlen(s) &&
	       !memcmp(t->p, s, t->n);
}

static bool bad(struct pf *pf, const char *why)
{
	if (!pf->why) {
		pf->why = why;
		pf->why_off = (size_t)(pf->t[pf->i].p - pf->fm->text);
	}
	return false;
}

static bool tokenize(struct pf *pf, const char *p, const char *e)
{
	static const char *const ops2[] = {
		"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	};

	pf->nt = 0;
	while (p < e) {
		struct tok *t;

		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (*p == '\n') {
			pf->why = "print fmt spans lines outside its strings";
			pf->why_off = (size_t)(p - pf->fm->text);
			return false;
		}
		if (pf->nt >= pf->maxt - 1) {
			pf->why = "print fmt too long";
			pf->why_off = (size_t)(p - pf->fm->text);
			return false;
		}
		t = &pf->t[pf->nt++];
		t->p = p;
		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (p < e && *p != q) {
				/* a newline only inside a format string */
				if ((unsigned char)*p < 0x20 && *p != '\t' &&
				    (*p != '\n' || q != '"'))
					break;
				if (*p == '\\' && p + 1 < e)
					p++;
				p++;
			}
			if (p >= e || *p != q) {
				pf->why = "unterminated string in the print fmt";
				pf->why_off = (size_t)(t->p - pf->fm->text);
				return false;
			}
			p++;
			t->kind = q == '"' ? T_STR : T_CHAR;
			if (t->kind == T_CHAR && (p - t->p < 3 || p - t->p > 4)) {
				pf->why = "bad character constant in the print fmt";
				pf->why_off = (size_t)(t->p - pf->fm->text);
				return false;
			}
		} else if (isdigit((unsigned char)*p)) {
			while (p < e && is_ident((unsigned char)*p))
				p++;
			t->kind = T_NUM;
		} else if (is_ident_start((unsigned char)*p)) {
			while (p < e && is_ident((unsigned char)*p))
				p++;
			t->kind = T_IDENT;
		} else if (strchr("+-*/%&|^~!<>?:,.()[]{}=", *p) && *p) {
			t->kind = T_OP;
			p++;
			for (size_t k = 0; k < sizeof(ops2) / sizeof(ops2[0]); k++)
				if (e - t->p >= 2 && !memcmp(t->p, ops2[k], 2)) {
					p = t->p + 2;
					break;
				}
			if (p - t->p == 1 && *t->p == '=') {
				pf->why = "assignment in the print fmt";
				pf->why_off = (size_t)(t->p - pf->fm->text);
				return false;
			}
		} else {
			pf->why = "unexpected character in the print fmt";
			pf->why_off = (size_t)(p - pf->fm->text);
			return false;
		}
		t->n = (size_t)(p - t->p);
	}
	pf->t[pf->nt].kind = T_END;
	pf->t[pf->nt].p = e;
	pf->t[pf->nt].n = 0;
	return true;
}

/* A number token: decimal, octal or hex with u/l suffixes; its value. */
static bool number(const struct tok *t, unsigned long long *val)
{
	char buf[40], *end;
	size_t n = t->n;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, t->p, n);
	buf[n] = '\0';
	while (n && strchr("uUlL", buf[n - 1]))
		buf[--n] = '\0';
	if (!n)
		return false;
	*val = strtoull(buf, &end, 0);
	return *end == '\0';
}

/* ------------------------------------------------------------------ */
/* The print fmt: expressions (the subset libtraceevent parses) */

static bool expr(struct pf *pf);
static bool unary(struct pf *pf);

static const struct tok *cur(struct pf *pf)
{
	return &pf->t[pf->i];
}

static bool accept(struct pf *pf, const char *op)
{
	if (tok_is(cur(pf), op)) {
		pf->i++;
		return true;
	}
	return false;
}

static bool expect(struct pf *pf, const char *op)
{
	return accept(pf, op) || bad(pf, "print fmt not well formed");
}

/* Words a cast is made of. */
static bool type_word(const struct tok *t)
{
	static const char *const w[] = {
		"unsigned", "signed", "char", "short", "int", "long", "void",
		"bool", "const", "struct", "u8", "u16", "u32", "u64", "s8",
		"s16", "s32", "s64", "__u8", "__u16", "__u32", "__u64",
		"__s8", "__s16", "__s32", "__s64", "size_t", "ssize_t",
		"pid_t", "dev_t", "sector_t", "gfp_t", "uid_t", "gid_t",
		"uint", "ulong", "ushort", "uchar", "__le16", "__le32",
		"__le64", "__be16", "__be32", "__be64",
	};

	if (t->kind != T_IDENT)
		return false;
	/* typedefs: pid_t, __kernel_rwf_t, ... */
	if (t->n > 2 && !memcmp(t->p + t->n - 2, "_t", 2))
		return true;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (tok_is(t, w[i]))
			return true;
	return false;
}

/* '(' type ')' at the current token? */
static bool is_cast(struct pf *pf)
{
	int i = pf->i + 1;

	if (!tok_is(&pf->t[pf->i], "(") || !type_word(&pf->t[i]))
		return false;
	while (pf->t[i].kind == T_IDENT)
		i++;
	while (tok_is(&pf->t[i], "*"))
		i++;
	return tok_is(&pf->t[i], ")");
}

/* A field of the event named by the current token. */
static const struct field *field_arg(struct pf *pf)
{
	const struct tok *t = cur(pf);
	const struct field *f;

	if (t->kind != T_IDENT)
		return bad(pf, "print fmt helper without a field"), NULL;
	f = find_field(pf->fm, t->p, t->n);
	if (!f)
		return bad(pf, "print fmt names a field the event does not have"), NULL;
	pf->i++;
	return f;
}

/* "{ VALUE, "TEXT" }" entries of __print_flags and __print_symbolic */
static bool entries(struct pf *pf)
{
	do {
		if (!expect(pf, "{") || !expr(pf) || !expect(pf, ","))
			return false;
		if (cur(pf)->kind != T_STR)
			return bad(pf, "print fmt flag without its text");
		while (cur(pf)->kind == T_STR)
			pf->i++;
		if (!expect(pf, "}"))
			return false;
	} while (accept(pf, ","));
	return expect(pf, ")");
}

static bool args_n(struct pf *pf, int n)
{
	for (int k = 0; k < n; k++)
		if ((k && !expect(pf, ",")) || !expr(pf))
			return false;
	return expect(pf, ")");
}

/* IDENT '(' ... ')' with the current token at IDENT */
static bool call(struct pf *pf)
{
	const struct tok *name = cur(pf);
	const struct field *f;

	pf->i += 2;		/* the name and '(' */
	if (tok_is(name, "__print_flags")) {
		if (!expr(pf) || !expect(pf, ","))
			return false;
		if (cur(pf)->kind != T_STR)
			return bad(pf, "__print_flags without its delimiter");
		pf->i++;
		return expect(pf, ",") && entries(pf);
	}
	if (tok_is(name, "__print_symbolic"))
		return expr(pf) && expect(pf, ",") && entries(pf);
	if (tok_is(name, "__print_hex") || tok_is(name, "__print_hex_str") ||
	    tok_is(name, "__builtin_expect"))
		return args_n(pf, 2);
	if (tok_is(name, "__print_array"))
		return args_n(pf, 3);
	if (tok_is(name, "__get_str") || tok_is(name, "__get_rel_str") ||
	    tok_is(name, "__get_bitmask") || tok_is(name, "__get_rel_bitmask") ||
	    tok_is(name, "__get_cpumask") || tok_is(name, "__get_rel_cpumask") ||
	    tok_is(name, "__get_dynamic_array") ||
	    tok_is(name, "__get_rel_dynamic_array") ||
	    tok_is(name, "__get_dynamic_array_len") ||
	    tok_is(name, "__get_rel_dynamic_array_len")) {
		f = field_arg(pf);
		if (!f)
			return false;
		if (!f->dynamic)
			return bad(pf, "print fmt reads a fixed field as a dynamic one");
		return expect(pf, ")");
	}
	if (tok_is(name, "sizeof")) {
		if (accept(pf, "REC")) {
			if (!expect(pf, "->") || !(f = field_arg(pf)))
				return false;
			if (f->array)
				return bad(pf, "sizeof of an array field");
			return expect(pf, ")");
		}
		accept(pf, "unsigned");
		if (accept(pf, "long"))
			accept(pf, "long");
		else if (!accept(pf, "int"))
			return bad(pf, "sizeof of a type libtraceevent does not know");
		return expect(pf, ")");
	}
	return bad(pf, "print fmt calls a function libtraceevent does not know");
}

static bool primary(struct pf *pf)
{
	const struct tok *t = cur(pf);
	unsigned long long v;

	switch (t->kind) {
	case T_NUM:
		if (!number(t, &v))
			return bad(pf, "bad number in the print fmt");
		pf->i++;
		return true;
	case T_STR:
		while (cur(pf)->kind == T_STR)
			pf->i++;
		return true;
	case T_CHAR:
		pf->i++;
		return true;
	case T_IDENT:
		if (tok_is(t, "REC")) {
			const struct field *f;

			pf->i++;
			if (!expect(pf, "->") || !(f = field_arg(pf)))
				return false;
			if (accept(pf, "[")) {
				if (!f->array || f->dynamic)
					return bad(pf, "print fmt indexes a field that is not an array");
				if (!expr(pf) || !expect(pf, "]"))
					return false;
			}
			return true;
		}
		if (tok_is(&pf->t[pf->i + 1], "("))
			return call(pf);
		pf->i++;		/* a symbol: an enum value, a constant */
		return true;
	case T_OP:
		/* "(REC)->field", as the ftrace system's formats write it */
		if (tok_is(t, "(") && tok_is(&pf->t[pf->i + 1], "REC") &&
		    tok_is(&pf->t[pf->i + 2], ")") &&
		    tok_is(&pf->t[pf->i + 3], "->")) {
			pf->i += 4;
			return field_arg(pf) != NULL;
		}
		if (accept(pf, "(")) {
			if (!expr(pf))
				return false;
			return expect(pf, ")");
		}
		return bad(pf, "print fmt not well formed");
	default:
		return bad(pf, "print fmt ends inside an expression");
	}
}

static bool unary(struct pf *pf)
{
	bool ok;

	if (++pf->depth > MAX_DEPTH)
		return bad(pf, "print fmt nests too deeply");
	if (accept(pf, "-") || accept(pf, "~") || accept(pf, "!") ||
	    accept(pf, "+")) {
		ok = unary(pf);
	} else if (is_cast(pf)) {
		pf->i++;
		while (cur(pf)->kind == T_IDENT)
			pf->i++;
		while (accept(pf, "*"))
			;
		pf->i++;	/* ')' */
		ok = unary(pf);
	} else {
		ok = primary(pf);
	}
	pf->depth--;
	return ok;
}

/* A non-zero integer constant, maybe in parentheses, as a divisor. */
static bool divisor(struct pf *pf)
{
	int open = 0;
	unsigned long long v;

	while (accept(pf, "("))
		open++;
	if (cur(pf)->kind != T_NUM || !number(cur(pf), &v) || !v)
		return bad(pf, "print fmt divides by something other than a non-zero constant");
	pf->i++;
	while (open--)
		if (!expect(pf, ")"))
			return false;
	return true;
}

/* Binary operators by precedence, lowest first. */
static const char *const levels[][3] = {
	{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
	{ "<", ">" }, { "<=", ">=" }, { "<<", ">>" }, { "+", "-" },
	{ "*", "/", "%" },
};
#define NLEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

/* The operator of a level (ops: up to 3) at the token, taken; else NULL. */
static const char *level_op(struct pf *pf, const char *const ops[3])
{
	const char *op = NULL;

	for (int k = 0; k < 3 && ops[k]; k++)
		if (tok_is(cur(pf), ops[k]))
			op = ops[k];
	if (op)
		pf->i++;
	return op;
}

static bool binary(struct pf *pf, int level)
{
	const char *op;

	if (level == NLEVELS)
		return unary(pf);
	if (!binary(pf, level + 1))
		return false;
	while ((op = level_op(pf, levels[level]))) {
		if (!strcmp(op, "/") || !strcmp(op, "%")) {
			if (!divisor(pf))
				return false;
			continue;
		}
		if (!binary(pf, level + 1))
			return false;
	}
	return true;
}

static bool expr(struct pf *pf)
{
	bool ok;

	if (++pf->depth > MAX_DEPTH)
		return bad(pf, "print fmt nests too deeply");
	ok = binary(pf, 0);
	if (ok && accept(pf, "?"))
		ok = expr(pf) && expect(pf, ":") && expr(pf);
	pf->depth--;
	return ok;
}

/* The decimal digits at *p (advanced past them), capped; 0 without any. */
static unsigned long digits(const char **p, const char *e)
{
	unsigned long v = 0;

	for (; *p < e && isdigit((unsigned char)**p); (*p)++)
		v = v > MAX_WIDTH ? v : v * 10 + (unsigned long)(**p - '0');
	return v;
}

/*
 * A width or precision argument: a constant of integers, parentheses,
 * +, -, *, << and | in [0, MAX_WIDTH] (the kernel's "(1 << 10)" of a
 * %*pbl), never a value of the event, which could pad an event's text to
 * gigabytes.  Evaluated left to right within each precedence level.
 */
static bool cvalue(struct pf *pf, int level, unsigned long long *v)
{
	static const char *const ops[][3] = { { "|" }, { "<<" },
					      { "+", "-" }, { "*" } };
	unsigned long long r;
	const char *op;

	if (++pf->depth > MAX_DEPTH)
		return bad(pf, "print fmt nests too deeply");
	if (level == 4) {
		bool ok;

		if (accept(pf, "("))
			ok = cvalue(pf, 0, v) && expect(pf, ")");
		else if ((ok = cur(pf)->kind == T_NUM && number(cur(pf), v)))
			pf->i++;
		pf->depth--;
		return ok || bad(pf, "print fmt takes a width or precision from the event's data");
	}
	if (!cvalue(pf, level + 1, v))
		return false;
	while ((op = level_op(pf, ops[level]))) {
		if (!cvalue(pf, level + 1, &r))
			return false;
		*v = op[0] == '|' ? *v | r : op[0] == '<' ? (r < 16 ? *v << r : ~0ULL) :
		     op[0] == '+' ? *v + r : op[0] == '-' ? *v - r : *v * r;
		if (*v > MAX_WIDTH || r > MAX_WIDTH)
			return bad(pf, "print fmt pads a conversion wider than 4096");
	}
	pf->depth--;
	return true;
}

/*
 * The conversions of the format string (the first string token and the
 * ones right after it), counted as the arguments they take; -1 when one
 * is not a printf conversion libtraceevent prints.
 */
static int conversions(struct pf *pf, int *ntok)
{
	int n = 0, i = 0;
	bool star, dot, dstar = false;

	for (; pf->t[i].kind == T_STR; i++) {
		const char *p = pf->t[i].p + 1, *e = pf->t[i].p + pf->t[i].n - 1;

		while (p < e) {
			if (*p == '\\') {
				p += 2;
				continue;
			}
			if (*p++ != '%')
				continue;
			if (p < e && *p == '%') {
				p++;
				continue;
			}
			while (p < e && strchr("-+ #0", *p))
				p++;
			star = p < e && *p == '*';
			if (star) {
				pf->widths |= n < 64 ? 1ULL << n : 0;
				n++;
				p++;
			}
			if (!star && digits(&p, e) > MAX_WIDTH)
				return -1;
			dot = p < e && *p == '.';
			if (dot) {
				p++;
				dstar = p < e && *p == '*';
				if (dstar) {
					n++;
					p++;
				}
				if (!dstar && digits(&p, e) > MAX_WIDTH)
					return -1;
			}
			while (p < e && strchr("hlLzjt", *p))
				p++;
			if (p >= e || !strchr("diouxXcsp", *p) || (star && n > 64))
				return -1;
			/* a precision bounds a string; it pads a number */
			if (dot && dstar && *p != 's')
				pf->widths |= n <= 64 ? 1ULL << (n - 1) : 0;
			if (dot && dstar && *p != 's' && n > 64)
				return -1;
			if (*p++ == 'p')
				while (p < e && isalnum((unsigned char)*p))
					p++;
			n++;
		}
	}
	*ntok = i;
	return i ? n : -1;
}

/* Is the print fmt in [p, e) well formed?  pf->why says why not. */
static bool check_print(struct pf *pf, const char *p, const char *e)
{
	int want, ntok, args = 0;

	if (!tokenize(pf, p, e))
		return false;
	pf->i = 0;
	want = conversions(pf, &ntok);
	if (want < 0) {
		pf->why_off = (size_t)(p - pf->fm->text);
		return bad(pf, "print fmt format string not of printf conversions libtraceevent prints");
	}
	pf->i = ntok;
	while (accept(pf, ",")) {
		unsigned long long w;

		if (args < 64 && (pf->widths >> args & 1)) {
			if (!cvalue(pf, 0, &w))
				return false;
			if (w > MAX_WIDTH)
				return bad(pf, "print fmt pads a conversion wider than 4096");
		} else if (!expr(pf)) {
			return false;
		}
		args++;
	}
	if (cur(pf)->kind != T_END)
		return bad(pf, "print fmt not well formed");
	if (args != want)
		return bad(pf, "print fmt conversions and arguments do not match");
	return true;
}

/* ------------------------------------------------------------------ */
/* The whole format */

/* "print fmt: " naming every field, name=value, for a refused one. */
static void neutral_print(const struct format *fm, struct sbuf *out)
{
	struct sbuf args = SBUF_INIT;
	bool first = true;

	sbuf_addstr(out, "print fmt: \"");
	for (int i = 0; i < fm->nf; i++) {
		const struct field *f = &fm->f[i];
		const char *conv;

		if (f->common)
			continue;
		if (f->dynamic && f->chars)
			conv = "%s";
		else if (f->array && f->chars)
			conv = "%s";
		else if (!f->array && !f->dynamic &&
			 (f->size == 1 || f->size == 2 || f->size == 4 ||
			  f->size == 8))
			conv = "0x%llx";
		else
			continue;
		sbuf_addf(out, "%s%s=%s", first ? "" : " ", f->name, conv);
		if (f->dynamic)
			sbuf_addf(&args, ", __get_str(%s)", f->name);
		else
			sbuf_addf(&args, ", REC->%s", f->name);
		first = false;
	}
	sbuf_addch(out, '"');
	if (args.len)
		sbuf_add(out, args.buf, args.len);
	sbuf_addch(out, '\n');
	if (args.failed)
		out->failed = true;
	sbuf_release(&args);
}

int ftrace_check_format(const char *text, size_t len, uint32_t max_record,
			bool ftrace, struct ftrace_verdict *v)
{
	struct format *fm;
	struct pf pf;
	const char *p = text, *e = text + len, *print;
	size_t n;
	bool common = true, have_type = false, have_pid = false;
	long id;
	int ret = FTRACE_OK;

	memset(v, 0, sizeof(*v));
	if (max_record > FTRACE_MAX_RECORD || !max_record)
		max_record = FTRACE_MAX_RECORD;
	if (!len || len > FTRACE_MAX_FORMAT)
		return refuse(v, "event format empty or too long", 0);
	if (memchr(text, '\0', len))
		return refuse(v, "NUL byte inside an event format",
			      (size_t)((const char *)memchr(text, '\0', len) - text));

	/* "name: NAME", "ID: N", "format:" */
	n = line_len(p, e);
	if (!starts(p, n, "name: ") || n < 7 || n - 6 > MAX_NAME)
		return refuse(v, "event format must start with \"name: \"", 0);
	for (size_t i = 6; i < n; i++)
		if (!is_ident((unsigned char)p[i]))
			return refuse(v, "bad character in the event name", i);
	p += n + 1;
	if (p >= e)
		return refuse(v, "event format ends after its name", len);
	n = line_len(p, e);
	id = starts(p, n, "ID: ") ? decimal(p + 4, n - 4, 65535) : -1;
	if (id < 0)
		return refuse(v, "event ID not a decimal number up to 65535",
			      (size_t)(p - text));
	v->id = id;
	p += n + 1;
	if (p >= e || line_len(p, e) != 7 || !starts(p, 7, "format:"))
		return refuse(v, "no \"format:\" line after the ID",
			      (size_t)(p - text));
	p += 8;

	fm = an_calloc(1, sizeof(*fm));
	if (!fm)
		return FTRACE_NOMEM;
	fm->text = text;
	fm->end = e;
	fm->ftrace = ftrace;
	fm->v = v;
	for (;;) {
		if (p >= e) {
			ret = refuse(v, "event format without a print fmt", len);
			goto out;
		}
		n = line_len(p, e);
		if (starts(p, n, "print fmt: "))
			break;
		if (n > MAX_LINE) {
			ret = refuse(v, "event format line too long",
				     (size_t)(p - text));
			goto out;
		}
		if (!n || (n == 1 && p[0] == '\t')) {
			common = false;
			p += n + 1;
			continue;
		}
		ret = parse_field(fm, p, n, max_record, common);
		if (ret < 0)
			goto out;
		if (!strcmp(fm->f[fm->nf - 1].name, "common_type") && common)
			have_type = fm->f[fm->nf - 1].size == 2 ||
				    fm->f[fm->nf - 1].size == 1 ||
				    fm->f[fm->nf - 1].size == 4;
		if (!strcmp(fm->f[fm->nf - 1].name, "common_pid") && common)
			have_pid = fm->f[fm->nf - 1].size == 4;
		p += n + 1;
	}
	if (!have_type || !have_pid) {
		ret = refuse(v, "event format without common_type and common_pid",
			     (size_t)(p - text));
		goto out;
	}
	/* the print fmt runs to the end (its strings may hold newlines) */
	print = p;
	n = (size_t)(e - p);
	while (n > 11 && (p[n - 1] == '\n' || p[n - 1] == ' ' ||
			  p[n - 1] == '\t'))
		n--;

	memset(&pf, 0, sizeof(pf));
	pf.fm = fm;
	/* a token takes a byte at least, and one more for the end */
	pf.maxt = n - 11 + 2 < MAX_TOKENS ? (int)(n - 11 + 2) : MAX_TOKENS;
	pf.t = an_reallocarray(NULL, (size_t)pf.maxt, sizeof(*pf.t));
	if (!pf.t) {
		ret = FTRACE_NOMEM;
		goto out;
	}
	if (!check_print(&pf, print + 11, print + n)) {
		struct sbuf sb = SBUF_INIT;

		sbuf_add(&sb, text, (size_t)(print - text));
		neutral_print(fm, &sb);
		v->error = pf.why ? pf.why : "print fmt not well formed";
		v->offset = pf.why ? pf.why_off : (size_t)(print - text);
		v->text_len = sb.len;
		v->text = sbuf_detach(&sb);
		ret = v->text ? FTRACE_REWRITTEN : FTRACE_NOMEM;
	}
	free(pf.t);
out:
	free(fm->f);
	free(fm);
	return ret;
}
