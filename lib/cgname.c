// SPDX-License-Identifier: MIT
/*
 * cgname.c - systemd units and container ids read off cgroup paths.
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cgname.h"

/* Whether s starts with CGNAME_ID_LEN lowercase hex digits. */
static bool hex_id(const char *s)
{
	for (int i = 0; i < CGNAME_ID_LEN; i++)
		if (!isxdigit((unsigned char)s[i]) ||
		    isupper((unsigned char)s[i]))
			return false;
	return true;
}

/* The component [c, end) is "<prefix><id><suffix>": copy the id. */
static bool match_id(const char *c, size_t len, const char *prefix,
		     const char *suffix, char *id)
{
	size_t pl = strlen(prefix), sl = strlen(suffix);

	if (len != pl + CGNAME_ID_LEN + sl || strncmp(c, prefix, pl) ||
	    strncmp(c + pl + CGNAME_ID_LEN, suffix, sl) || !hex_id(c + pl))
		return false;
	memcpy(id, c + pl, CGNAME_ID_LEN);
	id[CGNAME_ID_LEN] = '\0';
	return true;
}

/* The next '/'-separated component at or after @c, its length in *@len;
 * NULL at the end of the path. */
static const char *next_part(const char *c, size_t *len)
{
	if (!c)
		return NULL;
	while (*c == '/')
		c++;
	*len = strcspn(c, "/");
	return *len ? c : NULL;
}

const char *cgname_container(const char *path, char *id)
{
	const char *c = path, *runtime = NULL, *prev = "";
	size_t len, prevlen = 0;

	id[0] = '\0';
	while ((c = next_part(c, &len))) {
		if (match_id(c, len, "docker-", ".scope", id))
			runtime = "docker";
		else if (match_id(c, len, "libpod-", ".scope", id) ||
			 match_id(c, len, "libpod-", "", id))
			runtime = "podman";
		else if (prevlen == 6 && !strncmp(prev, "docker", 6) &&
			 match_id(c, len, "", "", id))
			runtime = "docker";
		else if (prevlen == 6 && !strncmp(prev, "libpod", 6) &&
			 match_id(c, len, "", "", id))
			runtime = "podman";
		prev = c;
		prevlen = len;
		c += len;
	}
	if (!runtime)
		id[0] = '\0';
	return runtime;
}

static bool ends_with(const char *c, size_t len, const char *suffix)
{
	size_t sl = strlen(suffix);

	return len > sl && !strncmp(c + len - sl, suffix, sl);
}

const char *cgname_unit(const char *path, char *buf, size_t size)
{
	const char *c = path, *unit = NULL, *slice = NULL;
	size_t len, ulen = 0, slen = 0;

	buf[0] = '\0';
	while ((c = next_part(c, &len))) {
		if (ends_with(c, len, ".service") || ends_with(c, len, ".scope")) {
			unit = c;
			ulen = len;
		} else if (ends_with(c, len, ".slice") && !unit) {
			slice = c;
			slen = len;
		}
		c += len;
	}
	if (!unit) {
		unit = slice;
		ulen = slen;
	}
	if (!unit || !size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)ulen, unit);
	return buf;
}

const char *cgname_json_string(const char *text, const char *key, char *buf,
			       size_t size)
{
	char quoted[128];
	const char *p;
	size_t n = 0;

	if (!size)
		return NULL;
	buf[0] = '\0';
	snprintf(quoted, sizeof(quoted), "\"%s\"", key);
	p = strstr(text, quoted);
	if (!p)
		return NULL;
	p += strlen(quoted);
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != ':')
		return NULL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '[') {	/* a list of names: its first */
		p++;
		while (isspace((unsigned char)*p))
			p++;
	}
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		char ch = *p++;

		if (ch == '\\' && *p)
			ch = *p++;
		if (n + 1 < size)
			buf[n++] = ch;
	}
	buf[n] = '\0';
	return *p ? p + 1 : p;
}
