/* SPDX-License-Identifier: MIT */
/*
 * snapcmp.h - what changed in the machine between two recordings, from
 * their headers and start snapshots: kernel and machine, I/O sysctls,
 * memory size, mounts and their options (barrier, data=, commit=), block
 * queue settings (the snapshot lines read by input/meta.h).
 *
 * Mounts that hold the same files (paths below the mount point with I/O
 * on both sides) are matched first; then mounts that did I/O with mounts
 * that did I/O on the other side: by mount point, then by source device, then, when exactly
 * one used file system of a type is left on each side, with each other
 * (an A/B test often mounts the same kind of file system at a new
 * temporary directory on another loop device, and the old one may stay
 * mounted, idle); the rest by mount point and source device.  The matches give a map of
 * the AFTER recording's mount points and devices to the BEFORE one's, so
 * files and devices can be compared across the two.  Nothing here prints.
 */
#ifndef IOREPORT_SNAPCMP_H
#define IOREPORT_SNAPCMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One difference. */
struct snapdiff_item {
	const char *what;	/* "kernel", "machine", "sysctl", "mount",
				   "blockdev", "memory" (static) */
	char *key;		/* "vm.dirty_ratio", "/mnt/db", "loop1 scheduler" */
	char *before;		/* NULL: absent before */
	char *after;		/* NULL: absent after */
	char *note;		/* human reading, e.g. "barrier on -> off", or NULL */
};

struct snapdiff {
	struct snapdiff_item *v;
	size_t n, alloc;
	/* AFTER mount points and devices -> BEFORE ones (only those that differ) */
	struct snap_mpmap {
		char *after, *before;
		const char *why;	/* how they were matched (static) */
	} *mp;
	size_t nmp, amp;
	struct snap_devmap { uint32_t after, before; } *dm;
	size_t ndm, adm;
	int err;		/* -AN_E_NOMEM: the comparison is not whole */
};

/*
 * snapdiff_compute - compare two recordings
 * @hdr_b, @snap_b: header "key=value" text and start snapshot of BEFORE
 *   (either may be NULL)
 * @used: whether a device (kernel dev_t) did I/O in the recording side
 *   (0: BEFORE, 1: AFTER); mounts and block devices of devices unused in
 *   both are not compared
 * @files: the paths of the files with I/O of each side (NULL-terminated
 *   arrays), or NULL
 *
 * Fills *sd (zeroed by the caller); release with snapdiff_release().
 * Returns 0, or -AN_E_NOMEM (what was had is in sd: release it).
 */
int snapdiff_compute(struct snapdiff *sd, const char *hdr_b,
		      const char *snap_b, const char *hdr_a,
		      const char *snap_a,
		      bool (*used)(uint32_t dev, int side, void *),
		      void *arg, const char *const *const files[2]);
void snapdiff_release(struct snapdiff *sd);

/*
 * An AFTER path as the BEFORE recording would name it (its mount point
 * replaced), in buf; path itself when no mount moved.
 */
const char *snapdiff_path(const struct snapdiff *sd, const char *path,
			  char *buf, size_t n);
/* An AFTER device as the BEFORE recording's device, or dev. */
uint32_t snapdiff_dev(const struct snapdiff *sd, uint32_t dev);

#endif /* IOREPORT_SNAPCMP_H */
