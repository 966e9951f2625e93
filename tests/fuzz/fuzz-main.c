// SPDX-License-Identifier: MIT
/*
 * fuzz-main.c - the main() of a fuzz target built without libFuzzer: it
 * runs the target once on every file named on the command line and on
 * every file of every directory named (sorted by name), so that `make
 * check` replays the committed corpora and reproducers.  With --cuts it
 * also runs every prefix of each file at a stride, as a file cut short.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"
#include "fuzz.h"

static int run_file(const char *path, int cuts)
{
	char *buf;
	ssize_t len = read_whole_file(path, &buf);

	if (len < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)buf, (size_t)len);
	if (cuts)
		for (ssize_t cut = 0; cut < len; cut += 1 + len / 256)
			LLVMFuzzerTestOneInput((const uint8_t *)buf,
					       (size_t)cut);
	free(buf);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int cuts, unsigned long *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t nn = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, sizeof(*names) * (nn + 1));
		names[nn++] = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, nn, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nn; i++) {
		struct stat st;

		if (!stat(names[i], &st) && S_ISREG(st.st_mode)) {
			if (run_file(names[i], cuts) < 0)
				rc = -1;
			(*n)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long n = 0;
	int cuts = 0, rc = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (!strcmp(argv[i], "--cuts")) {
			cuts = 1;
			continue;
		}
		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], cuts, &n) < 0)
				rc = 1;
		} else {
			if (run_file(argv[i], cuts) < 0)
				rc = 1;
			n++;
		}
	}
	printf("%s: %lu inputs replayed\n", argv[0], n);
	return rc;
}
