// SPDX-License-Identifier: MIT
/*
 * filter.c - the view filters (see filter.h).
 */
#include "config.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "base/blk.h"
#include "base/strlist.h"
#include "input/meta.h"
#include "base/syskind.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "stats/filter.h"

void filter_release(struct view_filter *f)
{
	if (!f)
		return;
	free(f->comm_procs);
	free(f->comm_tids);
	f->comm_procs = NULL;
	f->comm_tids = NULL;
	f->ncomm_procs = f->ncomm_tids = 0;
	f->comms_resolved = false;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

void filter_comms_resolve(struct view_filter *f, struct filter_span *v,
			  size_t n, int *tids, size_t nt)
{
	filter_release(f);
	if (nt)
		qsort(tids, nt, sizeof(*tids), cmp_int);
	f->comm_procs = v;
	f->ncomm_procs = n;
	f->comm_tids = tids;
	f->ncomm_tids = nt;
	f->comms_resolved = true;
}

/* Whether p is one of the processes -c resolved to. */
static bool comm_proc(const struct view_filter *f, const struct proc *p)
{
	uint64_t to = p->exited ? p->exit_ts : UINT64_MAX;

	for (size_t i = 0; i < f->ncomm_procs; i++) {
		const struct filter_span *s = &f->comm_procs[i];

		if (s->pid == p->pid && p->start_ts <= s->to && to >= s->from)
			return true;
	}
	return false;
}

static bool comm_tid(const struct view_filter *f, int tid)
{
	return f->ncomm_tids &&
	       bsearch(&tid, f->comm_tids, f->ncomm_tids, sizeof(int),
		       cmp_int);
}

#define OWNER_FILTERS(f) ((f)->nunits || (f)->ncontainers || (f)->ncgroups)

bool filter_active(const struct view_filter *f)
{
	return f && (f->npids || f->ncomms || f->ndevs || f->glob ||
		     OWNER_FILTERS(f) ||
		     f->have_since || f->have_until || f->min_ns);
}

bool filter_wants_owner(const struct view_filter *f)
{
	return f && (f->npids || f->ncomms || f->glob || OWNER_FILTERS(f));
}

struct find_dev {
	const char *name;
	uint32_t dev;
};

/* "blockdev NAME MAJ:MIN ..." lines: the dev_t of name */
static int find_dev(char **fl, int n, void *arg)
{
	struct find_dev *fd = arg;

	if (n >= 3 && !strcmp(fl[1], fd->name)) {
		fd->dev = meta_devt(fl[2]);
		return fd->dev != 0;
	}
	return 0;
}

const char *filter_resolve(struct view_filter *f, const char *snap)
{
	for (size_t i = 0; i < f->ndevs; i++) {
		struct find_dev fd = { f->devs[i], 0 };
		const char *n = f->devs[i];

		if (strchr(n, ':')) {
			f->devt[i] = meta_devt(n);
		} else {
			/* "/dev/sda" or "sda" */
			if (!strncmp(n, "/dev/", 5))
				fd.name = n + 5;
			if (meta_lines(snap, "blockdev", find_dev, &fd) < 0)
				fd.dev = 0;
			f->devt[i] = fd.dev;
		}
		if (!f->devt[i])
			return n;
	}
	return NULL;
}

/*
 * The trace time of time of day tod (ns after midnight of the wall clock
 * r is in: the recording machine's local time when r is shifted by its
 * UTC offset, else UTC).
 */
static uint64_t wall_ts(uint64_t r, uint64_t m, uint64_t tod)
{
	const uint64_t day = 86400ULL * 1000000000ULL;
	uint64_t midnight = r - r % day, wall = midnight + tod;

	if (wall + day / 2 < r)		/* earlier in the day: the next */
		wall += day;
	return wall >= r ? m + (wall - r) : (m > r - wall ? m - (r - wall) : 0);
}

bool filter_resolve_wall(struct view_filter *f, const char *header_text)
{
	struct meta_wall w;
	uint64_t r, m;

	if (!f->since_wall && !f->until_wall)
		return true;
	if (!meta_wall(header_text, &w))
		return false;
	/* times of day are the recording machine's, as the views print them */
	r = w.local_ns;
	m = w.mono_ns;
	snprintf(f->zone, sizeof(f->zone), "%s", w.zone);
	if (f->since_wall) {
		f->since_ns = wall_ts(r, m, f->since_tod_ns);
		f->since_abs = true;
	}
	if (f->until_wall) {
		f->until_ns = wall_ts(r, m, f->until_tod_ns);
		f->until_abs = true;
	}
	return true;
}

/* One bound: true when it is outside the recording both ways. */
static bool resolve_bound(bool have, bool wall, uint64_t *ns, bool *abs,
			  uint64_t first_ts, uint64_t last_ts)
{
	uint64_t len = last_ts - first_ts;

	if (!have || wall || *abs || *ns <= len)
		return false;
	if (*ns >= first_ts && *ns <= last_ts) {
		*abs = true;
		return false;
	}
	return true;
}

const char *filter_resolve_clock(struct view_filter *f, uint64_t first_ts,
				 uint64_t last_ts)
{
	if (!first_ts || last_ts < first_ts)
		return NULL;
	if (resolve_bound(f->have_since, f->since_wall, &f->since_ns,
			  &f->since_abs, first_ts, last_ts))
		return "--since";
	/* an end after the recording's is only no end */
	resolve_bound(f->have_until, f->until_wall, &f->until_ns,
		      &f->until_abs, first_ts, last_ts);
	return NULL;
}

uint64_t filter_start(const struct view_filter *f, uint64_t first_ts)
{
	if (!f || !f->have_since)
		return first_ts;
	return f->since_abs ? f->since_ns : first_ts + f->since_ns;
}

bool filter_time(const struct view_filter *f, uint64_t ts)
{
	uint64_t rel;

	if (!f || !(f->have_since || f->have_until))
		return true;
	rel = ts > f->base_ts ? ts - f->base_ts : 0;
	if (f->have_since && (f->since_abs ? ts : rel) < f->since_ns)
		return false;
	return !(f->have_until && (f->until_abs ? ts : rel) >= f->until_ns);
}

bool filter_dev(const struct view_filter *f, uint32_t dev, uint32_t disk)
{
	if (!f || !f->ndevs)
		return true;
	for (size_t i = 0; i < f->ndevs; i++)
		if (f->devt[i] && (f->devt[i] == dev || f->devt[i] == disk))
			return true;
	return false;
}

static bool unit_is(const char *unit, const char *want)
{
	size_t l = strlen(want);

	return unit && (!strcmp(unit, want) ||
			(!strncmp(unit, want, l) &&
			 !strcmp(unit + l, ".service")));
}

bool filter_owner(const struct view_filter *f, const struct proc *p)
{
	bool ok;

	if (!f || !OWNER_FILTERS(f))
		return true;
	if (!p)
		return false;
	if (f->nunits) {
		ok = false;
		for (size_t i = 0; i < f->nunits; i++)
			ok |= unit_is(p->unit, f->units[i]);
		if (!ok)
			return false;
	}
	if (f->ncontainers) {
		ok = false;
		for (size_t i = 0; i < f->ncontainers; i++)
			ok |= p->container &&
			      !strcmp(p->container, f->containers[i]);
		for (size_t i = 0; i < f->ncontainers && !ok; i++) {
			size_t l = strlen(f->containers[i]);

			ok |= p->container_id && l >= 4 &&
			      !strncmp(p->container_id, f->containers[i], l);
		}
		if (!ok)
			return false;
	}
	if (f->ncgroups) {
		ok = false;
		for (size_t i = 0; i < f->ncgroups; i++)
			ok |= proc_in_cgroup(p, f->cgroups[i]);
		if (!ok)
			return false;
	}
	return true;
}

bool filter_proc(const struct view_filter *f, const struct proc *p)
{
	bool ok;

	if (!f || !(f->npids || f->ncomms || OWNER_FILTERS(f)))
		return true;
	if (!p)
		return false;
	if (!filter_owner(f, p))
		return false;
	if (f->npids) {
		ok = false;
		for (size_t i = 0; i < f->npids; i++)
			ok |= p->pid == f->pids[i];
		if (!ok)
			return false;
	}
	if (f->ncomms) {
		ok = false;
		for (size_t i = 0; i < f->ncomms; i++)
			ok |= (p->comm && !strcmp(p->comm, f->comms[i])) ||
			      strlist_has(p->comms, f->comms[i],
					  strlen(f->comms[i]));
		if (!ok && f->comms_resolved)
			ok = comm_proc(f, p);
		if (!ok)
			return false;
	}
	return true;
}

bool filter_task(const struct view_filter *f, int pid, const char *comm)
{
	bool ok = !f || !f->npids;

	if (f && OWNER_FILTERS(f))
		return false;	/* no process known: no owner */
	if (!f || !(f->npids || f->ncomms))
		return true;
	for (size_t i = 0; i < f->npids; i++)
		ok |= pid == f->pids[i];
	if (!ok || !f->ncomms)
		return ok;
	for (size_t i = 0; i < f->ncomms; i++)
		if (comm && !strcmp(comm, f->comms[i]))
			return true;
	return f->comms_resolved && comm_tid(f, pid);
}

bool filter_file_dev(const struct view_filter *f, const struct file *file)
{
	uint32_t dev;

	if (!f || !f->ndevs)
		return true;
	if (!file)
		return false;
	if (file->has_devino)
		dev = blk_mkdev(file->major, file->minor);
	else if (!file->path || !f->mount_of ||
		 !(dev = f->mount_of(file->path, f->disk_arg)))
		return false;
	return filter_dev(f, dev, f->disk_of ? f->disk_of(dev, f->disk_arg) :
			  dev);
}

bool filter_call(struct view_filter *f, const struct proc *p,
		 const struct file *file, const struct sys_call *c)
{
	bool keep;

	if (!f)
		return true;
	f->calls++;
	keep = filter_time(f, c->paired ? c->start : c->end) &&
	       (!f->min_ns || (c->paired && c->end - c->start >= f->min_ns)) &&
	       filter_proc(f, p) &&
	       (!f->glob || (file && filter_path(f, file->path))) &&
	       filter_file_dev(f, file);
	f->calls_kept += keep;
	return keep;
}

bool filter_path(const struct view_filter *f, const char *path)
{
	if (!f || !f->glob)
		return true;
	return path && !fnmatch(f->glob, path, 0);
}

static void list_text(struct sbuf *out, const char **sep, const char *what,
		      const char *const *v, const int *iv, size_t n)
{
	if (!n)
		return;
	sbuf_addf(out, "%s%s ", *sep, what);
	for (size_t i = 0; i < n; i++) {
		if (v)
			sbuf_addf(out, "%s%s", i ? "," : "", v[i]);
		else
			sbuf_addf(out, "%s%d", i ? "," : "", iv[i]);
	}
	*sep = ", ";
}

/* One end of --since/--until: "from 12.000 s ", "until 10:02:03.500 UTC ". */
static void bound_text(struct sbuf *out, const struct view_filter *f,
		       const char *word, bool have, bool wall, uint64_t tod_ns,
		       uint64_t ns, bool abs)
{
	if (wall)
		sbuf_addf(out, "%s %02u:%02u:%06.3f%s ", word,
			  (unsigned)(tod_ns / 3600000000000ULL),
			  (unsigned)(tod_ns / 60000000000ULL % 60),
			  (double)(tod_ns % 60000000000ULL) / 1e9,
			  f->zone[0] ? f->zone : " UTC");
	else if (have && abs)
		sbuf_addf(out, "%s trace clock %.6f s ", word, (double)ns / 1e9);
	else if (have)
		sbuf_addf(out, "%s %.3f s ", word, (double)ns / 1e9);
}

void filter_text(const struct view_filter *f, struct sbuf *out)
{
	const char *sep = "";

	list_text(out, &sep, "pid", NULL, f->pids, f->npids);
	list_text(out, &sep, "comm", f->comms, NULL, f->ncomms);
	list_text(out, &sep, "unit", f->units, NULL, f->nunits);
	list_text(out, &sep, "container", f->containers, NULL,
		  f->ncontainers);
	list_text(out, &sep, "cgroup", f->cgroups, NULL, f->ncgroups);
	list_text(out, &sep, "device", f->devs, NULL, f->ndevs);
	if (f->glob) {
		sbuf_addf(out, "%sfile %s", sep, f->glob);
		sep = ", ";
	}
	if (f->have_since || f->have_until) {
		sbuf_addstr(out, sep);
		bound_text(out, f, "from", f->have_since, f->since_wall,
			   f->since_tod_ns, f->since_ns, f->since_abs);
		bound_text(out, f, "until", f->have_until, f->until_wall,
			   f->until_tod_ns, f->until_ns, f->until_abs);
		if (out->len && out->buf[out->len - 1] == ' ' &&
		    (f->since_wall || f->until_wall))
			out->buf[--out->len] = '\0';
		else
			sbuf_addstr(out, "of the recording");
		sep = ", ";
	}
	if (f->min_ns)
		sbuf_addf(out, "%sat least %.3f ms", sep, (double)f->min_ns / 1e6);
}

/* " OPT VALUE", the value in single quotes unless it is plain. */
static void add_arg(struct sbuf *out, const char *opt, const char *v)
{
	bool plain = *v != '\0';

	for (const char *c = v; *c; c++)
		plain &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			 (*c >= '0' && *c <= '9') || strchr("_./:,@%+=-", *c);
	sbuf_addf(out, " %s ", opt);
	if (plain) {
		sbuf_addstr(out, v);
		return;
	}
	sbuf_addch(out, '\'');
	for (const char *c = v; *c; c++)
		if (*c == '\'')
			sbuf_addstr(out, "'\\''");
		else
			sbuf_addch(out, *c);
	sbuf_addch(out, '\'');
}

/* A time of --since/--until as given: seconds, or HH:MM:SS[.frac]. */
static void time_arg(struct sbuf *out, const char *opt, bool wall,
		     uint64_t tod, uint64_t ns)
{
	char v[40];
	size_t n;

	if (wall)
		snprintf(v, sizeof(v), "%02u:%02u:%02u.%09u",
			 (unsigned)(tod / 3600000000000ULL),
			 (unsigned)(tod / 60000000000ULL % 60),
			 (unsigned)(tod / 1000000000ULL % 60),
			 (unsigned)(tod % 1000000000ULL));
	else
		snprintf(v, sizeof(v), "%" PRIu64 ".%09u", ns / UINT64_C(1000000000),
			 (unsigned)(ns % 1000000000ULL));
	n = strlen(v);
	while (v[n - 1] == '0')
		v[--n] = '\0';
	if (v[n - 1] == '.')
		v[--n] = '\0';
	add_arg(out, opt, v);
}

/* A list option: its values joined by commas. */
static void list_arg(struct sbuf *out, const char *opt,
		     const char *const *names, const int *nums, size_t n)
{
	struct sbuf v = SBUF_INIT;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		if (i)
			sbuf_addch(&v, ',');
		if (names)
			sbuf_addstr(&v, names[i]);
		else
			sbuf_addf(&v, "%d", nums[i]);
	}
	add_arg(out, opt, v.buf ? v.buf : "");
	sbuf_release(&v);
}

void filter_args(const struct view_filter *f, struct sbuf *out)
{
	if (!filter_active(f))
		return;
	list_arg(out, "-p", NULL, f->pids, f->npids);
	list_arg(out, "-c", f->comms, NULL, f->ncomms);
	list_arg(out, "--unit", f->units, NULL, f->nunits);
	list_arg(out, "--container", f->containers, NULL, f->ncontainers);
	list_arg(out, "--cgroup", f->cgroups, NULL, f->ncgroups);
	list_arg(out, "-d", f->devs, NULL, f->ndevs);
	if (f->glob)
		add_arg(out, "-f", f->glob);
	if (f->have_since)
		time_arg(out, "--since", f->since_wall, f->since_tod_ns,
			 f->since_ns);
	if (f->have_until)
		time_arg(out, "--until", f->until_wall, f->until_tod_ns,
			 f->until_ns);
}
