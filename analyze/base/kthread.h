/* SPDX-License-Identifier: MIT */
/*
 * kthread.h - kernel threads told by their comm, for a process whose
 * parent is not known to be kthreadd: attribution never charges them as
 * the actor, and redact keeps their names.  One rule for both, so that a
 * redacted recording attributes as the original does.
 */
#ifndef IOREPORT_BASE_KTHREAD_H
#define IOREPORT_BASE_KTHREAD_H

#include <stdbool.h>
#include <stddef.h>

/*
 * kthread_comm - whether comm is a kernel thread's: it starts with one of
 * the kernel's thread names ("kworker/u8:2", "jbd2/sda1-8", "md127",
 * "loop0", "kswapd0") and, where that name does not end in '/', '-' or
 * '_', is not followed by a letter ("dmesg", "mdadm", "loopback" are
 * programs).  *pre, when not NULL, gets the length of the name matched
 * (redact keeps it in the pseudonym of such a comm).
 */
bool kthread_comm(const char *comm, size_t *pre);

#endif /* IOREPORT_BASE_KTHREAD_H */
