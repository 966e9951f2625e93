/* SPDX-License-Identifier: MIT */
/*
 * blk.h - a block request as the stages pass it on: its operation, size,
 * flags, the tasks that queued and issued it and the times of its steps;
 * the kinds of owner a bio can have; the device numbers every stage
 * reads, prints and compares.
 */
#ifndef IOREPORT_BASE_BLK_H
#define IOREPORT_BASE_BLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A device number as the recording has it: the kernel's own dev_t,
 * major << 20 | minor (MINORBITS of linux/kdev_t.h), which the block and
 * writeback events carry; not glibc's makedev() encoding.
 */
#define BLK_MINOR_BITS	20
#define BLK_MINOR_MASK	((1u << BLK_MINOR_BITS) - 1)
/*
 * Bytes of a sector, the unit of sector, nr_sector and diskstats' sector
 * counts whatever the device's own block size (the kernel's SECTOR_SIZE).
 */
#define BLK_SECTOR_SIZE	512
/* "4294967295:4294967295" and its NUL: room for any "MAJ:MIN" */
#define BLK_DEV_STRLEN	22

static inline unsigned int blk_major(uint32_t dev)
{
	return dev >> BLK_MINOR_BITS;
}

static inline unsigned int blk_minor(uint32_t dev)
{
	return dev & BLK_MINOR_MASK;
}

/*
 * The dev_t of major and minor.  Like the kernel's MKDEV() it does not
 * mask the minor: one wider than 20 bits spills into the major, and a
 * caller that must not let it (numbers read from a text) masks it first.
 */
static inline uint32_t blk_mkdev(unsigned int major, unsigned int minor)
{
	return major << BLK_MINOR_BITS | minor;
}

/*
 * blk_mm_str - "MAJ:MIN" of major and minor into buf of n bytes,
 * truncated as snprintf() does (BLK_DEV_STRLEN bytes hold any); returns
 * buf, for a printf argument.
 */
char *blk_mm_str(unsigned int major, unsigned int minor, char *buf, size_t n);

/* "MAJ:MIN" of a dev_t, as blk_mm_str(). */
static inline char *blk_dev_str(uint32_t dev, char *buf, size_t n)
{
	return blk_mm_str(blk_major(dev), blk_minor(dev), buf, n);
}

/* What blk_dev_parse() takes for each of the two numbers. */
enum blk_dev_syntax {
	/*
	 * What sscanf("%u:%u") takes: blanks and a sign before a number,
	 * which wraps to 32 bits as %u does; for texts a person typed
	 * and the snapshot's fields.
	 */
	BLK_DEV_SCANF,
	/*
	 * Decimal digits only, each number at most 2^32 - 1: how the
	 * kernel prints a device (a bdi name); fast enough for every
	 * dirtied page.
	 */
	BLK_DEV_DIGITS,
};

/*
 * blk_dev_parse - read "MAJ:MIN" at the start of s, each number as syn
 * says.  Returns the character after the minor, which may be any text:
 * a caller that wants nothing after it checks for '\0'.  NULL when s does
 * not start with a device; *major and *minor are set only on success.
 */
const char *blk_dev_parse(const char *s, enum blk_dev_syntax syn,
			  unsigned int *major, unsigned int *minor);

enum blk_op {
	BLK_OP_READ,
	BLK_OP_WRITE,
	BLK_OP_FLUSH,
	BLK_OP_DISCARD,
	BLK_OP_OTHER,
	BLK_OP_MAX
};

const char *blk_op_name(enum blk_op op);

/* One completed request. */
struct blk_request {
	uint32_t dev;		/* kernel dev_t: major << 20 | minor */
	uint64_t sector;
	uint32_t nr_sector;
	uint64_t bytes;
	enum blk_op op;
	bool preflush;		/* REQ_PREFLUSH ('F' before the op) */
	bool fua;		/* REQ_FUA ('F' after the op) */
	bool sync, meta, ahead;
	int error;
	uint64_t queue_ts;	/* block_bio_queue of its first bio (btt's
				   Q), 0 when not seen */
	uint64_t insert_ts;	/* 0 when not seen (issued directly) */
	uint64_t issue_ts;	/* 0 when not seen */
	uint64_t complete_ts;
	/*
	 * The bios merged into it whose queueing was seen (btt's M after
	 * its Q), each counted once: how many, and the sums of their Q2C
	 * (queued -> this completion), Q2M (queued -> merged) and M2D
	 * (merged -> this issue), ns
	 */
	uint32_t mbios;
	uint64_t mq2c_ns, mq2m_ns, mm2d_ns;
	int insert_pid;		/* task that queued it, -1 unknown */
	int issue_pid;
	char comm[16];		/* the comm field of the insert (else issue) event */
};

/*
 * Who a request's bytes are for, by the rule that gave a bio its owner
 * (replay/bio-owner.h; their names: attrib_kind_name() of stats/attrib.h).
 */
enum attrib_kind {
	AK_UNATTRIBUTED = 0,
	AK_JOURNAL,
	AK_FSYNC,
	AK_WRITEBACK,
	AK_SYSCALL,
	AK_CONTEXT,
	AK_METADATA,		/* file-system metadata a kernel thread wrote */
	AK_STACKED,		/* a lower device's I/O for a device stacked
				   on it: counted there, by its owner */
	AK_NR
};

/* Room for blk_rwbs(): 'F', the op, 'F', 'A', 'S', 'M' and the NUL. */
#define BLK_RWBS_LEN	8

/*
 * blk_rwbs - the op letter of rq with its flags, in the order of the
 * kernel's rwbs ("W", "FWS", "RA", "FN"...), into buf of BLK_RWBS_LEN
 * bytes; returns buf.  An op out of range prints as 'N', like
 * BLK_OP_OTHER.
 */
char *blk_rwbs(const struct blk_request *rq, char *buf);

/* Completed requests and their bytes, by operation (enum blk_op). */
struct blk_tally {
	uint64_t n[BLK_OP_MAX];
	uint64_t bytes[BLK_OP_MAX];
};

void blk_tally_add(struct blk_tally *t, const struct blk_request *rq);
/* t += o */
void blk_tally_sum(struct blk_tally *t, const struct blk_tally *o);
/* The requests of every operation. */
uint64_t blk_tally_requests(const struct blk_tally *t);

/* Q2C of a request: insert (or issue) -> complete, ns. */
static inline uint64_t blk_total_ns(const struct blk_request *rq)
{
	uint64_t start = rq->insert_ts ? rq->insert_ts : rq->issue_ts;

	return rq->complete_ts - start;
}

/*
 * The start of a request as /proc/diskstats counts it (iostat's await,
 * aqu-sz and %util): the kernel stamps a request when its first bio
 * becomes one, just after that bio was queued (btt's Q), so its first
 * bio's queueing when recorded, else its insert, else its issue.
 */
static inline uint64_t blk_start_ts(const struct blk_request *rq)
{
	if (rq->queue_ts && rq->queue_ts <= rq->complete_ts)
		return rq->queue_ts;
	return rq->insert_ts ? rq->insert_ts : rq->issue_ts;
}

/* A request's time in flight as diskstats counts it (read_ticks...). */
static inline uint64_t blk_life_ns(const struct blk_request *rq)
{
	uint64_t s = blk_start_ts(rq);

	return rq->complete_ts > s ? rq->complete_ts - s : 0;
}

#endif /* IOREPORT_BASE_BLK_H */
