// SPDX-License-Identifier: MIT
/*
 * ftrace-guard-text.c - the ftrace guard's checks of the texts beside the
 * event formats (ftrace-guard.h): header_page, printk formats, saved
 * cmdlines and kallsyms, and the ring buffer pages' event headers.
 */
#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "sbuf.h"
#include "input/ftrace-guard.h"
#include "input/ftrace-guard-priv.h"

/* "\tfield: TYPE NAME;\toffset:N;\tsize:N;\tsigned:B;" */
static bool header_field(const char *p, size_t n, const char *decl,
			 long *off, long *size)
{
	char want[64];
	const char *q, *semi, *e = p + n;
	int k = snprintf(want, sizeof(want), "\tfield: %s;\toffset:", decl);

	if (!starts(p, n, want))
		return false;
	q = p + k;
	semi = memchr(q, ';', (size_t)(e - q));
	if (!semi || (*off = decimal(q, (size_t)(semi - q), 64)) < 0)
		return false;
	q = semi + 1;
	if (!starts(q, (size_t)(e - q), "\tsize:"))
		return false;
	q += 6;
	semi = memchr(q, ';', (size_t)(e - q));
	if (!semi || (*size = decimal(q, (size_t)(semi - q), 16 << 20)) < 0)
		return false;
	q = semi + 1;
	return q == e || (e - q == 10 && starts(q, 10, "\tsigned:") &&
			  (q[8] == '0' || q[8] == '1') && q[9] == ';');
}

int ftrace_check_header_page(const char *text, size_t len,
			     uint32_t subbuf_size, struct ftrace_verdict *v)
{
	const char *p = text, *e = text + len;
	long ts_off = -1, ts_size, c_off = -1, c_size = 0, d_off = -1, d_size;
	long o_off, o_size;

	memset(v, 0, sizeof(*v));
	if (!len || len > 4096)
		return refuse(v, "header_page empty or too long", 0);
	if (memchr(text, '\0', len))
		return refuse(v, "NUL byte inside header_page",
			      (size_t)((const char *)memchr(text, '\0', len) - text));
	/* in the kernel's order, which libtraceevent reads them in */
	while (p < e) {
		size_t n = line_len(p, e);

		if (!n) {
			p++;
			continue;
		}
		if (ts_off < 0 && header_field(p, n, "u64 timestamp", &ts_off,
					       &ts_size)) {
			if (ts_off != 0 || ts_size != 8)
				return refuse(v, "header_page timestamp not 8 bytes at offset 0", (size_t)(p - text));
		} else if (ts_off >= 0 && c_off < 0 &&
			   header_field(p, n, "local_t commit", &c_off, &c_size)) {
			if (c_off != 8 || (c_size != 4 && c_size != 8))
				return refuse(v, "header_page commit not a long at offset 8", (size_t)(p - text));
		} else if (c_off >= 0 && d_off < 0 &&
			   header_field(p, n, "int overwrite", &o_off, &o_size)) {
			;
		} else if (c_off >= 0 && d_off < 0 &&
			   header_field(p, n, "char data", &d_off, &d_size)) {
			if (c_off < 0 || d_off != 8 + c_size ||
			    (subbuf_size && (uint64_t)d_off + (uint64_t)d_size >
			     subbuf_size))
				return refuse(v, "header_page data not after the commit, inside the sub-buffer", (size_t)(p - text));
		} else {
			return refuse(v, "header_page line not of the kernel's shape", (size_t)(p - text));
		}
		p += n + 1;
	}
	if (ts_off < 0 || c_off < 0 || d_off < 0)
		return refuse(v, "header_page without timestamp, commit and data", len);
	return FTRACE_OK;
}

/* "0xADDR : \"TEXT\"" with TEXT of at least two bytes, no '"' inside */
static bool printk_line(const char *p, size_t n)
{
	size_t i = 2;

	if (n < 2 || p[0] != '0' || p[1] != 'x')
		return false;
	while (i < n && isxdigit((unsigned char)p[i]))
		i++;
	if (i == 2 || i > 18 || n - i < 7 || memcmp(p + i, " : \"", 4) ||
	    p[n - 1] != '"')
		return false;
	for (size_t k = i + 4; k < n - 1; k++)
		if (p[k] == '"' || (unsigned char)p[k] < 0x20)
			return false;
	return n - 1 - (i + 4) >= 2;
}

/* "PID COMM" with COMM of 1 to 64 printable bytes */
static bool cmdline_line(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && isdigit((unsigned char)p[i]))
		i++;
	if (!i || i > 10 || i + 1 >= n || p[i] != ' ' || n - i - 1 > 64)
		return false;
	for (size_t k = i + 1; k < n; k++)
		if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f)
			return false;
	return true;
}

char *ftrace_filter_lines(const char *text, size_t len, bool printk,
			  size_t *dropped, struct ftrace_verdict *v)
{
	struct sbuf sb = SBUF_INIT;
	const char *p = text, *e = text + len;
	char *out;

	memset(v, 0, sizeof(*v));
	*dropped = 0;
	while (p < e) {
		size_t n = line_len(p, e);
		bool ok = !memchr(p, '\0', n) &&
			  (printk ? printk_line(p, n) : cmdline_line(p, n));

		if (ok) {
			sbuf_add(&sb, p, n);
			sbuf_addch(&sb, '\n');
		} else if (n) {
			if (!*dropped)
				refuse(v, printk ? "printk format line not of the shape 0xADDR : \"FORMAT\"" :
				       "saved cmdline not of the shape PID COMM",
				       (size_t)(p - text));
			(*dropped)++;
		}
		p += n + 1;
	}
	/* sbuf_detach(): NULL (and the buffer freed) after an error */
	out = sbuf_detach(&sb);
	return out || sb.failed ? out : an_strdup("");
}

static uint32_t get32(const uint8_t *p, bool be)
{
	return (uint32_t)ftrace_num(p, 4, be);
}

/*
 * The events of one sub-buffer's data [d, d + n), walked as kbuffer
 * walks them: every event inside the data, every step forward (a
 * negative length makes kbuffer go back, and libtracecmd read forever).
 */
bool ftrace_page_events_ok(const uint8_t *d, size_t n, bool big_endian)
{
	size_t cur = 0;

	while (cur < n) {
		uint32_t w, len;

		if (n - cur < 4)
			return false;
		w = get32(d + cur, big_endian);
		/* the 5 type bits are the low ones in either byte order */
		switch (big_endian ? w >> 27 : w & 31) {
		case 29:	/* padding: a length */
			if (n - cur < 8)
				return false;
			len = get32(d + cur + 4, big_endian);
			if (len > 0x7fffffff)
				return false;
			cur += 4 + (size_t)len;
			if (!len)
				cur += 4;
			break;
		case 30:	/* time extend, time stamp */
		case 31:
			if (n - cur < 8)
				return false;
			cur += 8;
			break;
		case 0:		/* a length word, then the data */
			if (n - cur < 8)
				return false;
			len = get32(d + cur + 4, big_endian);
			if (len < 8 || len > n)
				return false;
			cur += 8 + (((size_t)len - 4 + 3) & ~(size_t)3);
			if (cur > n)
				return false;
			break;
		default:
			cur += 4 + 4 * (size_t)(big_endian ? w >> 27 : w & 31);
			if (cur > n)
				return false;
			break;
		}
	}
	return true;
}

/* "HEX TYPE NAME" with an optional "\t[MODULE]" */
int ftrace_check_kallsyms(const char *text, size_t len,
			  struct ftrace_verdict *v)
{
	const char *p = text, *e = text + len;

	memset(v, 0, sizeof(*v));
	if (memchr(text, '\0', len))
		return refuse(v, "NUL byte inside kallsyms",
			      (size_t)((const char *)memchr(text, '\0', len) - text));
	while (p < e) {
		size_t n = line_len(p, e), i = 0;

		if (n) {
			while (i < n && isxdigit((unsigned char)p[i]))
				i++;
			if (!i || i > 16 || i + 3 >= n || p[i] != ' ' ||
			    !isalpha((unsigned char)p[i + 1]) || p[i + 2] != ' ')
				return refuse(v, "kallsyms line not of the shape ADDR TYPE NAME",
					      (size_t)(p - text));
			for (size_t k = i + 3; k < n; k++)
				if ((unsigned char)p[k] < 0x20 && p[k] != '\t')
					return refuse(v, "control character in kallsyms",
						      (size_t)(p + k - text));
			if (memchr(p + i + 3, '[', n - i - 3) &&
			    p[n - 1] != ']')
				return refuse(v, "kallsyms module name not in brackets",
					      (size_t)(p - text));
		}
		p += n + 1;
	}
	return FTRACE_OK;
}
