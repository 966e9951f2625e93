// SPDX-License-Identifier: MIT
/*
 * kthread.c - the comms of kernel threads (kthread.h).
 */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "base/kthread.h"

/* The kernel's thread names, as the start of a comm. */
static const char *const kthread_pre[] = {
	"kworker/", "jbd2/", "ksoftirqd/", "kswapd", "kcompactd",
	"khugepaged", "kthreadd", "rcu_", "migration/", "writeback",
	"flush-", "loop", "kdamond", "md", "dm", "kblockd", "scsi_",
	"nvme", "irq/", "ext4-", "kcryptd", "xfs", "xfsaild", "btrfs-",
	"swapper/", "dmcrypt_",
};

bool kthread_comm(const char *comm, size_t *pre)
{
	size_t best = 0;

	/* the longest name that fits: "xfsaild/sda1" is xfsaild's, not xfs' */
	for (size_t i = 0; i < sizeof(kthread_pre) / sizeof(kthread_pre[0]);
	     i++) {
		size_t n = strlen(kthread_pre[i]);

		if (n > best && !strncmp(comm, kthread_pre[i], n) &&
		    (strchr("/-_", kthread_pre[i][n - 1]) ||
		     !isalpha((unsigned char)comm[n])))
			best = n;
	}
	if (pre)
		*pre = best;
	return best > 0;
}
