/* SPDX-License-Identifier: MIT */
/*
 * fileid.h - the one identity of files: the files of the file table that
 * have the same dev:ino, or else the same path, are one file; files
 * known by neither are one by their label, the pid and fd of
 * "<unknown fd N of pid P>".  The files view merges them into one
 * row and the database stores each file's ident (the first file of its
 * identity), so the two agree.
 */
#ifndef IOREPORT_STATS_FILEID_H
#define IOREPORT_STATS_FILEID_H

#include <stdbool.h>

struct file;

/*
 * fileid_cmp - order files by identity (dev:ino, then path, then neither),
 * the files of one identity by creation order: after sorting, the files
 * of an identity are adjacent and its first is the oldest.
 */
int fileid_cmp(const struct file *x, const struct file *y);
/* Whether x and y are the same file. */
bool fileid_same(const struct file *x, const struct file *y);

#endif /* IOREPORT_STATS_FILEID_H */
