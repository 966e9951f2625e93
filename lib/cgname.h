/* SPDX-License-Identifier: MIT */
/*
 * cgname.h - the names a cgroup path says by itself, shared by the
 * recorder (which container ids to look up in a runtime's state) and the
 * analyzer (units and containers of processes): a systemd unit
 * (".../foo.service", ".../session-2.scope", a user's slice) and a
 * Docker/Podman container id ("docker-<id>.scope", "/docker/<id>",
 * "libpod-<id>.scope", "/libpod-<id>").  Pure string work, no I/O.
 */
#ifndef IOREC_CGNAME_H
#define IOREC_CGNAME_H

#include <stddef.h>

#define CGNAME_ID_LEN	64	/* hex digits of a container id */

/*
 * cgname_container - the container id in cgroup path (the deepest one)
 * into id (CGNAME_ID_LEN + 1 bytes).  Returns the runtime whose naming
 * it follows ("docker" or "podman"), or NULL (id set to "") when the
 * path names no container.
 */
const char *cgname_container(const char *path, char *id);

/*
 * cgname_unit - the systemd unit of cgroup path into buf: its deepest
 * component ending in ".service" or ".scope", else its deepest ".slice"
 * ("user-1000.slice").  Returns buf, or NULL (buf "") when none.
 */
const char *cgname_unit(const char *path, char *buf, size_t size);

/*
 * cgname_json_string - the JSON string value of "key" that follows
 * position from in text ("Name": "/ha" gives /ha), unescaped for the
 * plain escapes (\" \\ \/), into buf.  Returns the position after it, or
 * NULL when there is no such key.  For the runtimes' state files: a
 * name lookup, not a JSON parser.
 */
const char *cgname_json_string(const char *text, const char *key, char *buf,
			       size_t size);

#endif /* IOREC_CGNAME_H */
