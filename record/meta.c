// SPDX-License-Identifier: MIT
/*
 * meta.c - iorec's output: opening it, the metadata chunks at the start
 * (header, formats, snapshot), the end chunk and trailer, write errors.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "iorec-int.h"

/* ------------------------------------------------------------------ */
/* output */

int open_output(struct rec *r)
{
	struct stat st;

	if (env.snapshot_dir || env.rotate) {
		/* the metadata stays in memory, copied into each file */
		r->out_fd = memfd_create("iorec-metadata", MFD_CLOEXEC);
		if (r->out_fd < 0)
			return error("cannot create a memory file for the metadata: %m");
		return 0;
	} else if (!strcmp(env.output, "-")) {
		if (isatty(STDOUT_FILENO))
			return error("refusing to write binary data to a terminal: redirect stdout or use -o FILE");
		r->out_fd = STDOUT_FILENO;
		r->out_stdout = true;
	} else {
		r->out_fd = open_raw(env.output, O_CREAT | O_TRUNC | O_WRONLY, 0644);
		if (r->out_fd < 0)
			return error("cannot create %s: %m", env.output);
	}
	if (fstat(r->out_fd, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(r->out_dev, sizeof(r->out_dev), "%u:%u",
			 major(st.st_dev), minor(st.st_dev));
		r->out_ino = (unsigned long long)st.st_ino;
	}
	return 0;
}

const char *out_name(const struct rec *r)
{
	if (env.rotate)
		return r->cur_path;
	if (env.snapshot_dir)
		return r->bb ? bb_dir(r->bb) : env.snapshot_dir;
	return r->out_stdout ? "stdout" : env.output;
}

/* Remember the first writer failure and turn it into a stop reason. */
void note_write_error(struct rec *r, int err)
{
	int e = iorec_writer_errno(r->w);

	if (r->write_err)
		return;
	r->write_err = err ? err : -IOREC_E_IO;
	if (err == -IOREC_E_NOSPC || e == ENOSPC)
		snprintf(r->reason, sizeof(r->reason),
			 "no space left on device");
	else if (err == -IOREC_E_NOMEM)
		snprintf(r->reason, sizeof(r->reason), "out of memory");
	else if (e)
		snprintf(r->reason, sizeof(r->reason), "write error: %s",
			 strerror(e));
	else
		snprintf(r->reason, sizeof(r->reason), "write error: %s",
			 iorec_strerror(err));
}

void report_write_error(const struct rec *r)
{
	uint64_t done = iorec_writer_written(r->w);
	int e = iorec_writer_errno(r->w);

	if (r->write_err == -IOREC_E_NOSPC || e == ENOSPC)
		error("%s: no space left on device; recording stopped at %.1f MB, the file is readable up to its last complete chunk",
		      out_name(r), mb(done));
	else if (e == EPIPE)
		error("%s: the reader closed the pipe; recording stopped at %.1f MB",
		      out_name(r), mb(done));
	else if (r->write_err == -IOREC_E_NOMEM)
		error("%s: out of memory; recording stopped at %.1f MB, the file is readable up to its last complete chunk (free some memory and record again)",
		      out_name(r), mb(done));
	else
		error("%s: %s; recording stopped at %.1f MB, the file is readable up to its last complete chunk",
		      out_name(r), r->reason, mb(done));
}

/* ------------------------------------------------------------------ */
/* metadata chunks */

static void join_args(struct sbuf *sb, char **argv, int argc)
{
	int i;

	/* escaped: a key=value line must stay one line (see iorec(5)) */
	for (i = 0; i < argc && argv[i]; i++) {
		if (i)
			sbuf_addch(sb, ' ');
		sbuf_add_escaped(sb, argv[i]);
	}
}

/* The header keys of the syscall ABIs, file-name sources and limits. */
static void names_header(const struct rec *r, struct sbuf *sb)
{
	const struct plan *p = &r->plan;
	const char *lim[3];
	char sources[128];

	names_sources(&r->names, sources, sizeof(sources));
	if (inoset_events(r->inos) && strlen(sources) + 7 < sizeof(sources))
		strcat(sources, *sources ? ",inode" : "inode");
	sbuf_addf(sb, "uprobe_group=%s\n",
		    r->names.used[NS_UPROBE] ? r->names.group : "");
	sbuf_addf(sb, "probe_group=%s\n", r->names.npr ? r->names.group : "");
	sbuf_addf(sb, "name_sources=%s\n", sources);
	sbuf_addf(sb, "syscall_abi=%s\n", abi_name(p->abi));
	sbuf_addf(sb, "compat_abi=%s\n",
		    p->compat != ABI_UNKNOWN ? abi_name(p->compat) : "");
	sbuf_addf(sb, "compat_syscalls=%s\n", plan_compat_word(p->compat_mode));
	if (p->compat_mode == COMPAT_SHADOW) {
		sbuf_addf(sb, "compat_unshadowed=%s\n",
			    p->unshadowed ? p->unshadowed : "");
		sbuf_addf(sb, "compat_start=%s\n",
			    p->compat_armed ? "exec" : "start");
	}
	sbuf_addf(sb, "exec_abi_probes=%d\n", r->names.exec_abi);
	sbuf_addf(sb, "iorec_abi=%s\n", abi_name(abi_self()));
	collect_limits(r, lim, false);
	if (lim[0])
		sbuf_addf(sb, "limit_1=%s\n", lim[0]);
	if (lim[1])
		sbuf_addf(sb, "limit_2=%s\n", lim[1]);
	if (lim[2])
		sbuf_addf(sb, "limit_3=%s\n", lim[2]);
}

/*
 * The machine's offset from UTC and its zone's name at the start, so that
 * ioreport prints the times people see in their logs wherever it runs.
 */
static void header_zone(struct rec *r, struct sbuf *sb)
{
	time_t sec = (time_t)(r->start_real / 1000000000);
	struct tm tm;

	if (!localtime_r(&sec, &tm))
		return;
	sbuf_addf(sb, "utc_offset_s=%ld\n", (long)tm.tm_gmtoff);
	if (tm.tm_zone && tm.tm_zone[0] && !strpbrk(tm.tm_zone, "\n="))
		sbuf_addf(sb, "timezone=%s\n", tm.tm_zone);
}

static void header_text(struct rec *r, struct sbuf *sb)
{
	struct utsname u;

	memset(&u, 0, sizeof(u));
	uname(&u);
	sbuf_addf(sb, "clock=%s\n", r->ri.clock);
	sbuf_addf(sb, "kernel=%s\nkversion=%s\nmachine=%s\nhostname=%s\n",
		    u.release, u.version, u.machine, u.nodename);
	sbuf_addf(sb, "iorec_version=%s\n", PACKAGE_VERSION);
	sbuf_addf(sb, "start_realtime_ns=%llu\nstart_mono_ns=%llu\n",
		    (unsigned long long)r->start_real,
		    (unsigned long long)r->start_mono);
	header_zone(r, sb);
	sbuf_addf(sb, "instance=%s\nbuffer_kb=%u\nprofile=%s\n", r->ri.name,
		    env.buffer_kb, plan_profile_names(env.profiles));
	sbuf_addstr(sb, "cmdline=");
	join_args(sb, env.argv, env.argc);
	sbuf_addf(sb, "\noutput_dev=%s\noutput_ino=%llu\nself_pid=%d\n",
		    r->out_dev, r->out_ino, (int)getpid());
	names_header(r, sb);
	sbuf_addstr(sb, "syscall_filter=");
	if (r->plan.task_desc)
		sbuf_add_escaped(sb, r->plan.task_desc);
	sbuf_addch(sb, '\n');
	sbuf_addstr(sb, "command=");
	if (env.command)
		join_args(sb, env.command, 1 << 30);
	sbuf_addch(sb, '\n');
}

static int write_header(struct rec *r)
{
	struct sbuf sb = SBUF_INIT;
	struct iorec_header h;
	uint8_t *buf;
	size_t len;
	int ret;

	header_text(r, &sb);
	if (sb.failed) {
		sbuf_release(&sb);
		return -IOREC_E_NOMEM;
	}
	memset(&h, 0, sizeof(h));
	h.endian = host_big_endian() ? IOREC_ENDIAN_BIG : IOREC_ENDIAN_LITTLE;
	h.long_size = (uint8_t)r->long_size;
	h.page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	h.subbuf_size = (uint32_t)r->subbuf_size;
	h.ncpus = (uint32_t)r->ri.ncpus;
	h.flags = (r->plan.raw_syscalls ? IOREC_HF_RAW_SYSCALLS : 0) |
		  (env.flight ? IOREC_HF_FLIGHT : 0);
	h.text = sb.buf;
	h.text_len = sb.len;
	ret = iorec_header_encode(&h, &buf, &len);
	sbuf_release(&sb);
	if (ret < 0)
		return ret;
	ret = iorec_writer_add(r->w, IOREC_CHUNK_HEADER, NULL, 0, buf, len,
			       false);
	free(buf);
	return ret;
}

/* Append a chunk with the text of a tracefs file; absent files are skipped. */
static int write_file_chunk(struct rec *r, struct tracefs_instance *ti,
			    const char *file, uint16_t type)
{
	int size = 0, ret;
	char *text = tracefs_instance_file_read(ti, file, &size);

	if (!text)
		return 0;
	ret = iorec_writer_add(r->w, type, NULL, 0, text, (size_t)size, true);
	free(text);
	return ret;
}

int write_metadata(struct rec *r)
{
	int ret;

	ret = write_header(r);
	if (!ret)
		ret = iorec_writer_add(r->w, IOREC_CHUNK_HEADER_PAGE, NULL, 0,
				       r->header_page,
				       (size_t)r->header_page_len, true);
	if (!ret)
		ret = write_file_chunk(r, r->ri.ti, "events/header_event",
				       IOREC_CHUNK_HEADER_EVENT);
	if (!ret)
		ret = plan_write_formats(&r->plan, r->ri.ti, r->w);
	if (!ret)
		ret = write_file_chunk(r, NULL, "printk_formats",
				       IOREC_CHUNK_PRINTK);
	return ret;
}

struct snap_self snap_self(const struct rec *r)
{
	struct snap_self s = {
		.pid = getpid(),
		.out_dev = r->out_dev,
		.out_ino = r->out_ino,
		.inos = r->inos,
	};
	return s;
}

/* STATS text, and the lost-event totals kept in r. */
void collect_stats(struct rec *r, struct sbuf *sb)
{
	int cpu;

	r->lost = 0;
	for (cpu = 0; cpu < r->ri.ncpus; cpu++) {
		uint64_t lost = 0, pages = 0, missed = 0;

		instance_cpu_stats(&r->ri, cpu, sb, &lost);
		if (r->rb)
			ringbuf_cpu_pages(r->rb, cpu, &pages, &missed);
		if (sb) {
			sbuf_addf(sb, "cpu\t%d\tpages\t%llu\n", cpu,
				    (unsigned long long)pages);
			sbuf_addf(sb, "cpu\t%d\tmissed_pages\t%llu\n", cpu,
				    (unsigned long long)missed);
		}
		r->cpu_lost[cpu] = lost;
		r->lost += lost;
	}
}

/* The END chunk's text, with @reason. */
void end_text(struct rec *r, struct sbuf *sb, const char *reason)
{
	struct ringbuf_totals t;

	ringbuf_totals(r->rb, &t);
	sbuf_addf(sb, "reason=%s\n", reason);
	sbuf_addf(sb, "end_realtime_ns=%llu\nend_mono_ns=%llu\n",
		    (unsigned long long)now_real_ns(),
		    (unsigned long long)now_mono_ns());
	sbuf_addf(sb, "pages=%llu\nraw_bytes=%llu\nlost_events=%llu\n",
		    (unsigned long long)t.pages,
		    (unsigned long long)t.raw_bytes,
		    (unsigned long long)r->lost);
	{
		uint64_t exec_ns, on_ns;
		int pid;

		if (compat_watch_fired(r->cw, &pid, &exec_ns, &on_ns, false))
			sbuf_addf(sb, "compat_on_ns=%llu\ncompat_on_pid=%d\ncompat_exec_ns=%llu\n",
				    (unsigned long long)on_ns, pid,
				    (unsigned long long)exec_ns);
	}
	if (env.max_size)
		sbuf_addf(sb, "size_limit_dropped_pages=%llu\n",
			    (unsigned long long)t.limit_dropped_pages);
	if (env.flight)
		sbuf_addf(sb, "flight_discarded_chunks=%llu\nflight_cutoff_ts=%llu\n",
			    (unsigned long long)t.flight_discarded,
			    (unsigned long long)t.flight_cutoff_ts);
}

/* End snapshot, saved_cmdlines, per-CPU stats and the END chunk, to @w. */
int write_trailer_to(struct rec *r, struct iorec_writer *w,
			    const char *reason)
{
	struct snap_self self = snap_self(r);
	struct sbuf sb = SBUF_INIT;
	int ret;

	self.rotated = !strcmp(reason, "rotated");
	ret = snapshot_write_end(w, &self);
	collect_stats(r, &sb);
	if (!ret && sb.failed)
		ret = -IOREC_E_NOMEM;
	if (!ret)
		ret = iorec_writer_add(w, IOREC_CHUNK_STATS, NULL, 0, sb.buf,
				       sb.len, true);
	sbuf_reset(&sb);
	if (!ret) {
		end_text(r, &sb, reason);
		if (sb.failed)
			ret = -IOREC_E_NOMEM;
	}
	if (!ret)
		ret = iorec_writer_add(w, IOREC_CHUNK_END, NULL, 0, sb.buf,
				       sb.len, false);
	sbuf_release(&sb);
	if (!ret)
		ret = iorec_writer_flush(w);
	return ret;
}

int write_trailer(struct rec *r)
{
	return write_trailer_to(r, r->w, r->reason);
}
