// SPDX-License-Identifier: MIT
/*
 * systab-dump.c - print iorec's syscall table (record/abi.c) as
 * "ABI NAME NR" lines, and the native numbers its marker events cover as
 * "marker ABI NR" lines, for tests/arm/test-systab.sh to compare with the
 * kernel headers of each architecture.
 */
#include "config.h"

#include <stdio.h>

#include "record.h"

int main(void)
{
	static const enum rec_abi abis[] = {
		ABI_X86_64, ABI_I386, ABI_AARCH64, ABI_ARM, ABI_RISCV64,
	};
	const struct marker_def *m;
	size_t i, k, n = 0;

	for (k = 0; k < sizeof(abis) / sizeof(abis[0]); k++) {
		for (i = 0; i < systab_len; i++)
			printf("%s %s %ld\n", abi_name(abis[k]), systab[i].name,
			       systab_nr(&systab[i], abis[k]));
		m = abi_markers(abis[k], &n);
		for (i = 0; m && i < n; i++)
			printf("marker %s %d\n", abi_name(abis[k]), m[i].nr);
	}
	return 0;
}
