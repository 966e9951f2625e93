// SPDX-License-Identifier: MIT
/*
 * iorec.c - the iorec recorder's main: options (options.c) or --check
 * (check.c), then set up a tracefs instance, read its per-CPU ring
 * buffers into a .iorec file (meta.c, ringbuf.c) until a time, size,
 * command (child.c) or signal ends the recording, rotating or taking the
 * black box's snapshots on the way (snapjob.c), and clean up on every
 * path.
 *
 * main() is parse -> check -> setup -> loop -> one cleanup exit path.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "iorec-int.h"

struct env env = {
	.output = "iorec.iorec",
	.profiles = PROFILE_IO,
	.threads = -1,
	.watermark = 50,
	.level = 3,
	.post_ns = 5000000000ull,
	.cooldown_ns = 60000000000ull,
	.pid_file = "/run/iorec/iorec.pid",
};

volatile sig_atomic_t stop_signal;
volatile sig_atomic_t child_changed;
volatile sig_atomic_t snap_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void on_snapshot(int sig)
{
	snap_signal = 1;
}

static void on_child(int sig)
{
	child_changed = 1;
}

/* sigaction without SA_RESTART, so poll() wakes up. */
static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void setup_signals(void)
{
	set_handler(SIGINT, on_stop_signal);
	set_handler(SIGTERM, on_stop_signal);
	set_handler(SIGHUP, on_stop_signal);
	set_handler(SIGCHLD, on_child);
	if (env.snapshot_dir)
		set_handler(SIGUSR1, on_snapshot);
	set_handler(SIGPIPE, SIG_IGN);
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGINT:	return "SIGINT";
	case SIGTERM:	return "SIGTERM";
	case SIGHUP:	return "SIGHUP";
	}
	return "signal";
}

double mb(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

/* ------------------------------------------------------------------ */
/* header page: long size and sub-buffer size */

/*
 * Read events/header_page and learn from libtraceevent the kernel's long
 * size (the size of the commit field) and the sub-buffer size.
 */
static int read_header_page(struct rec *r, struct tracefs_instance *ti)
{
	struct tep_handle *tep;
	long long kb;

	free(r->header_page);
	r->header_page = tracefs_instance_file_read(ti, "events/header_page",
						    &r->header_page_len);
	if (!r->header_page)
		return error("cannot read events/header_page: %m");
	tep = tep_alloc();
	if (!tep)
		return error(ERR_NOMEM);
	if (tep_parse_header_page(tep, r->header_page,
				  (unsigned long)r->header_page_len,
				  (int)sizeof(long)) < 0) {
		tep_free(tep);
		return error("cannot parse events/header_page");
	}
	r->long_size = tep_get_header_page_size(tep);
	r->subbuf_size = tep_get_sub_buffer_size(tep);
	tep_free(tep);
	if (r->long_size != 4 && r->long_size != 8)
		r->long_size = (int)sizeof(long);
	if (tracefs_file_exists(ti, "buffer_subbuf_size_kb") &&
	    !tracefs_instance_file_read_number(ti, "buffer_subbuf_size_kb",
					       &kb) && kb > 0)
		r->subbuf_size = (int)(kb * 1024);
	if (r->subbuf_size <= 0)
		r->subbuf_size = (int)sysconf(_SC_PAGESIZE);
	return 0;
}

/* ------------------------------------------------------------------ */
/* the loop */

static bool on_terminal(void)
{
	return !env.quiet && isatty(STDERR_FILENO);
}

static void status_line(struct rec *r, uint64_t now, uint64_t *last_events,
			uint64_t *last_ns)
{
	struct ringbuf_totals t;
	uint64_t written, raw;
	double dt = (double)(now - *last_ns) / 1e9;
	char line[160];

	ringbuf_lock(r->rb);
	written = iorec_writer_written(r->w) + iorec_writer_pending(r->w);
	raw = iorec_writer_raw_bytes(r->w);
	ringbuf_unlock(r->rb);
	ringbuf_totals(r->rb, &t);
	collect_stats(r, NULL);
	snprintf(line, sizeof(line),
		 "iorec: %.0fs  %.0f events/s  %.1f MB %s  ratio %.1fx  lost %llu",
		 (double)(now - r->start_mono) / 1e9,
		 dt > 0 ? (double)(t.events - *last_events) / dt : 0.0,
		 mb(env.flight ? 0 : written),
		 env.flight ? "written (flight: at the end)" : "written",
		 written ? (double)raw / (double)written : 0.0,
		 (unsigned long long)r->lost);
	fprintf(stderr, "\r%-79s", line);
	*last_events = t.events;
	*last_ns = now;
}

static void clear_status(void)
{
	fprintf(stderr, "\r%79s\r", "");
}

/* Bytes written and buffered, while readers may be writing. */
uint64_t writer_size(struct rec *r)
{
	uint64_t n;

	ringbuf_lock(r->rb);
	n = iorec_writer_written(r->w) + iorec_writer_pending(r->w);
	ringbuf_unlock(r->rb);
	return n;
}

/* Why should the loop stop now?  Fills r->reason and returns true. */
static bool should_stop(struct rec *r, uint64_t now, uint64_t *drain_until)
{
	if (stop_signal) {
		snprintf(r->reason, sizeof(r->reason), "signal %s",
			 signame(stop_signal));
		return true;
	}
	if (env.duration_ns && now - r->start_mono >= env.duration_ns) {
		snprintf(r->reason, sizeof(r->reason), "duration");
		return true;
	}
	if (env.max_size && !env.rotate && (ringbuf_limit_reached(r->rb) ||
	    writer_size(r) >= env.max_size)) {
		snprintf(r->reason, sizeof(r->reason), "size limit");
		return true;
	}
	if (r->child_done) {
		if (!*drain_until)
			*drain_until = now + DRAIN_NS;
		if (now >= *drain_until) {
			child_reason(r);
			return true;
		}
	}
	return false;
}

static int poll_timeout(const struct rec *r, uint64_t now, uint64_t next_tick,
			uint64_t drain_until, uint64_t wake)
{
	uint64_t until = next_tick < wake ? next_tick : wake;

	if (env.duration_ns && r->start_mono + env.duration_ns < until)
		until = r->start_mono + env.duration_ns;
	if (drain_until && drain_until < until)
		until = drain_until;
	if (until <= now)
		return 0;
	return (int)((until - now + 999999) / 1000000);
}

/*
 * The watcher enabled compat recording at a 32-bit program's exec: store
 * that program's ABI as an EXEC_ABI line (source "exec"), once.
 */
static void note_compat_exec(struct rec *r)
{
	uint64_t exec_ns, on_ns;
	char line[128];
	int pid, len, ret;

	if (!compat_watch_fired(r->cw, &pid, &exec_ns, &on_ns, true))
		return;
	len = snprintf(line, sizeof(line), "%llu\t%d\t%s\texec\n",
		       (unsigned long long)(exec_ns ? exec_ns : on_ns), pid,
		       abi_name(r->plan.compat));
	ringbuf_lock(r->rb);
	ret = iorec_writer_add(r->w, IOREC_CHUNK_EXEC_ABI, NULL, 0, line,
			       (size_t)len, false);
	if (!ret && r->meta_w)	/* and into the next files */
		ret = iorec_writer_add(r->meta_w, IOREC_CHUNK_EXEC_ABI, NULL,
				       0, line, (size_t)len, false);
	ringbuf_unlock(r->rb);
	if (ret < 0)
		note_write_error(r, ret);
}


static void record_loop(struct rec *r)
{
	uint64_t now = now_mono_ns(), next_tick = now + TICK_MS * 1000000ull;
	uint64_t last_all = now, drain_until = 0, last_events = 0;
	uint64_t last_status = now, wake = UINT64_MAX, last_drain = now;
	/* triggers pair events of two CPUs: each read whole more often */
	bool trig_drain = trig_pairs(env.trig);
	bool all;
	bool status = on_terminal();
	int ret;

	if (ringbuf_start(r->rb) < 0) {
		snprintf(r->reason, sizeof(r->reason), "no reader thread");
		return;
	}
	for (;;) {
		if (child_changed)
			reap_child(r);
		now = now_mono_ns();
		if (should_stop(r, now, &drain_until))
			break;
		ringbuf_wait(r->rb, poll_timeout(r, now, next_tick,
						 drain_until, trig_drain &&
						 last_drain + TRIG_DRAIN_NS < wake ?
						 last_drain + TRIG_DRAIN_NS : wake));
		now = now_mono_ns();
		all = now - last_all >= FLUSH_NS;
		if (all || (trig_drain && now - last_drain >= TRIG_DRAIN_NS))
			last_drain = now;
		ret = ringbuf_read(r->rb, last_drain == now);
		if (!ret && all) {
			last_all = now;
			/* what is older than FLUSH_NS reaches the file */
			ringbuf_lock(r->rb);
			if (iorec_writer_pending(r->w))
				ret = iorec_writer_flush(r->w);
			ringbuf_unlock(r->rb);
		}
		if (ret < 0) {
			note_write_error(r, ret);
			break;
		}
		if (r->cw)
			note_compat_exec(r);
		if (r->bb)
			wake = blackbox_tick(r, now_mono_ns());
		if (env.rotate && !r->write_err && rot_due(r))
			rotate(r);
		if (r->write_err)
			break;
		if (now >= next_tick) {
			next_tick = now + TICK_MS * 1000000ull;
			if (status)
				status_line(r, now, &last_events,
					    &last_status);
		}
	}
	if (status)
		clear_status();
}

/* ------------------------------------------------------------------ */
/* setup, stop and summary */

static int setup(struct rec *r)
{
	struct ringbuf_opts o;
	size_t batch;
	int ret;

	if (open_output(r) < 0)
		return -1;
	if (env.command_only) {
		char *f, *d;

		if (spawn_command(r) < 0)
			return -1;
		if (task_filter_command((int)r->child, env.command[0], &f,
					&d) < 0)
			return -1;
		plan_set_task_filter(&r->plan, NULL, f, d);
		free(f);
		free(d);
	}
	if (instance_create(&r->ri, env.buffer_kb, env.watermark) < 0)
		return -1;
	if (read_header_page(r, r->ri.ti) < 0)
		return -1;
	if (r->plan.profiles & PROFILE_IO) {
		const char *lim[3];
		int i;

		names_remove_stale(env.verbose);
		names_setup(&r->names, &r->plan, r->ri.ti, env.verbose);
		names_add_to_plan(&r->names, &r->plan);
		collect_limits(r, lim, true);
		for (i = 0; i < 3 && lim[i] && !env.quiet; i++) {
			warning("%s", lim[i]);
			snprintf(r->limits_said[i], sizeof(r->limits_said[i]),
				 "%s", lim[i]);
		}
		if (env.verbose)
			names_print(&r->names, stderr);
	}
	if (plan_enable(&r->plan, r->ri.ti) < 0)
		return -1;
	if (trig_count(env.trig) && trig_setup(env.trig, r->ri.ti, &r->plan) < 0)
		return -1;
	r->inos = inoset_new();
	if (!r->inos)
		return error(ERR_NOMEM);
	if (!env.no_inode_names && inoset_setup(r->inos, r->ri.ti) < 0)
		return -1;
	if (env.snapshot_dir) {
		r->bb = bb_open(env.snapshot_dir, env.keep, env.keep_bytes,
				env.pid_file, env.trig);
		if (!r->bb)
			return -1;
	}
	if (r->plan.compat_armed) {
		r->cw = compat_watch_start(&r->plan, r->ri.ti);
		if (!r->cw) {
			/* record them from the start rather than miss them */
			r->plan.compat_armed = false;
			plan_compat_enable(&r->plan, r->ri.ti);
		}
	}
	r->cpu_lost = calloc((size_t)r->ri.ncpus, sizeof(*r->cpu_lost));
	if (!r->cpu_lost)
		return error(ERR_NOMEM);
	batch = batch_bytes(r->ri.ncpus);
	memset(&o, 0, sizeof(o));
	o.threads = reader_threads(r->ri.ncpus);
	o.ncpus = r->ri.ncpus;
	o.subbuf_size = r->subbuf_size;
	o.long_size = r->long_size;
	o.batch_bytes = batch;
	o.flush_ns = FLUSH_NS;
	o.drain_ns = trig_pairs(env.trig) ? TRIG_DRAIN_NS : 0;
	o.zstd_level = env.level;
	o.flight_bytes = env.flight;
	o.trig = trig_count(env.trig) ? env.trig : NULL;
	o.mono_clock = !strcmp(r->ri.clock, "mono");
	o.inos = inoset_events(r->inos) ? r->inos : NULL;
	o.flight_keep = env.snapshot_dir != NULL;
	r->w = iorec_writer_new(r->out_fd, env.level, 0);
	if (!r->w)
		return error(ERR_NOMEM);
	r->rb = ringbuf_open(r->ri.ti, &o, r->w);
	if (!r->rb)
		return -1;
	if (instance_tracing(&r->ri, true) < 0)
		return -1;
	r->start_mono = now_mono_ns();
	r->start_real = now_real_ns();
	ret = write_metadata(r);
	if (!ret) {
		struct snap_self self = snap_self(r);

		uint64_t before = iorec_writer_written(r->w) +
				  iorec_writer_pending(r->w);

		self.inos = NULL;	/* names are the end's */

		ret = snapshot_write(r->w, IOREC_SNAP_START, &self);
		if (!ret && env.max_size && env.rotate) {
			/* room for the trailer, as below */
			uint64_t snap = iorec_writer_written(r->w) +
					iorec_writer_pending(r->w) - before;
			uint64_t room = snap + snap / 4 + 32768;

			r->rot_limit = env.max_size > room ?
				       env.max_size - room : 0;
		} else if (!ret && env.max_size) {
			/*
			 * Keep room under -S for the trailer: the end
			 * snapshot is about as large as the start one, plus
			 * cmdlines, stats and the end chunk.
			 */
			uint64_t snap = iorec_writer_written(r->w) +
					iorec_writer_pending(r->w) - before;
			uint64_t reserve = snap + snap / 4 + 32768;

			ringbuf_set_data_limit(r->rb,
					       env.max_size > reserve ?
					       env.max_size - reserve : 1);
		}
	}
	if (ret < 0) {
		note_write_error(r, ret);
		return 0;
	}
	if (env.command && !r->child && spawn_command(r) < 0)
		return -1;
	if (env.command && release_command(r) < 0)
		return -1;
	if (env.rotate)
		return rot_start(r);
	return 0;
}

/* Stop tracing, read what is left, and write the trailer. */
static void stop(struct rec *r)
{
	int ret;

	instance_tracing(&r->ri, false);
	if (r->rb)
		ringbuf_stop_threads(r->rb);
	if (r->cw && !r->write_err)
		note_compat_exec(r);
	if (r->write_err)
		return;
	ret = ringbuf_finish(r->rb);
	if (!ret && r->bb) {
		/* a trigger still waiting for its --post, or SIGUSR1 */
		if (snap_signal || r->snap_wanted || r->trig_pending) {
			while (bb_busy(r->bb))
				usleep(20000);
			if (r->trig_pending)
				take_snapshot(r, &r->fire, NULL, true);
			else
				take_snapshot(r, NULL, "asked for (SIGUSR1)",
					      true);
		}
		return;
	}
	if (!ret)
		ret = write_trailer(r);
	if (ret < 0)
		note_write_error(r, ret);
}

static void summary(struct rec *r)
{
	struct ringbuf_totals t;
	uint64_t written = iorec_writer_written(r->w);
	double secs = (double)(now_mono_ns() - r->start_mono) / 1e9;
	int cpu;

	ringbuf_totals(r->rb, &t);
	if (env.rotate)
		note("rotation: %u files of at most about %.1f MB, the newest %u kept; the last is %s",
		     r->rot_index, mb(env.max_size), env.keep, r->cur_path);
	note("recorded %.1f s (%s) to %s: %llu events, %.1f MB raw -> %.1f MB file (%.1fx), %llu lost",
	     secs, r->reason, out_name(r), (unsigned long long)t.events,
	     mb(t.raw_bytes), mb(written),
	     written ? (double)iorec_writer_raw_bytes(r->w) / (double)written : 0.0,
	     (unsigned long long)r->lost);
	for (cpu = 0; cpu < r->ri.ncpus; cpu++)
		if (r->cpu_lost[cpu])
			note("  cpu %d lost %llu events (ring buffer overrun or dropped: try a larger -b or lower -w)",
			     cpu, (unsigned long long)r->cpu_lost[cpu]);
	{
		uint64_t exec_ns, on_ns;
		int pid;

		if (compat_watch_fired(r->cw, &pid, &exec_ns, &on_ns, false))
			note("32-bit programs recorded from %.3f s on: pid %d exec'd a %s program (%.1f ms before)",
			     (double)(on_ns - r->start_mono) / 1e9, pid,
			     abi_name(r->plan.compat),
			     exec_ns && on_ns > exec_ns ?
			     (double)(on_ns - exec_ns) / 1e6 : 0.0);
	}
	if (t.limit_dropped_pages)
		note("size limit: %llu pages read after the limit were not written",
		     (unsigned long long)t.limit_dropped_pages);
	if (env.flight && !r->bb)
		note("flight recorder: kept the newest data, discarded %llu older chunks",
		     (unsigned long long)t.flight_discarded);
	if (r->bb)
		note("black box: %llu snapshots taken, %llu trigger firings without one (cool-down)",
		     (unsigned long long)r->snapshots,
		     (unsigned long long)r->suppressed);
	{
		const char *lim[3];

		collect_limits(r, lim, true);
		/* each once: those the start warned of are not repeated */
		for (cpu = 0; cpu < 3 && lim[cpu]; cpu++)
			if (strcmp(lim[cpu], r->limits_said[0]) &&
			    strcmp(lim[cpu], r->limits_said[1]) &&
			    strcmp(lim[cpu], r->limits_said[2]))
				warning("limit of this recording: %s", lim[cpu]);
	}
}

static void rec_release(struct rec *r)
{
	bb_close(r->bb);
	r->bb = NULL;
	compat_watch_stop(r->cw);
	r->cw = NULL;
	ringbuf_close(r->rb);
	r->rb = NULL;
	inoset_free(r->inos);
	r->inos = NULL;
	instance_destroy(&r->ri);
	names_destroy(&r->names);
	if (r->exec_pipe >= 0)
		close(r->exec_pipe);
	r->exec_pipe = -1;
	if (r->go_pipe >= 0) {
		/* a command held before its exec: it never ran */
		close(r->go_pipe);
		if (r->child) {
			kill(r->child, SIGKILL);
			waitpid(r->child, NULL, 0);
			r->child = 0;
		}
	}
	r->go_pipe = -1;
	if (r->w && !r->write_err && iorec_writer_pending(r->w))
		iorec_writer_flush(r->w);
	iorec_writer_free(r->w);
	r->w = NULL;
	iorec_writer_free(r->meta_w);
	r->meta_w = NULL;
	if (r->cur_fd >= 0)
		close(r->cur_fd);
	r->cur_fd = -1;
	if (r->out_fd >= 0 && !r->out_stdout)
		close(r->out_fd);
	r->out_fd = -1;
	free(r->header_page);
	free(r->cpu_lost);
	plan_release(&r->plan);
}

static void report_missing_user_events(const struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nev; i++)
		if (p->ev[i].user && p->ev[i].state == PLAN_MISSING)
			error("no event %s:%s on this kernel (given with -e): see %s/available_events",
			      p->ev[i].system, p->ev[i].name,
			      tracefs_tracing_dir());
}

/*
 * Shadow mode costs raw_syscalls events on every system call of every
 * program: unless --compat, or a 32-bit program runs (or is the command,
 * or iorec), arm it to start at the first 32-bit exec instead.
 */
static void plan_compat_start(struct rec *r)
{
	struct plan *p = &r->plan;

	if (p->compat_mode != COMPAT_SHADOW)
		return;
	if (env.compat == COMPAT_WANT_ON) {
		snprintf(r->compat_why, sizeof(r->compat_why),
			 "--compat was given");
		return;
	}
	if (!compat_present(p->compat, env.command ? env.command[0] : NULL,
			    r->compat_why, sizeof(r->compat_why)))
		p->compat_armed = true;
}

/* -P, --comm, --cgroup: the plan's task filter.  Returns 0 or -1. */
static int plan_task_filter(struct rec *r)
{
	char *f = NULL, *d = NULL;
	int ret = 0;

	if (env.pids)
		ret = task_filter_pids(env.pids, &f, &d);
	else if (env.comm)
		ret = task_filter_comm(env.comm, &f, &d);
	else if (env.cgroup)
		ret = task_filter_cgroup(env.cgroup, &f, &d);
	if (!ret && f)
		plan_set_task_filter(&r->plan, NULL, f, d);
	free(f);
	free(d);
	return ret;
}

/* Check time: needs the header page for sub-buffer and long sizes. */
static int prepare_check(struct rec *r)
{
	return do_check(r);
}

int main(int argc, char **argv)
{
	struct rec r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.out_fd = -1;
	r.cur_fd = -1;
	r.exec_pipe = -1;
	r.go_pipe = -1;
	util_progname = "iorec";
	ret = parse_args(argc, argv);
	if (ret >= 0)
		return ret;
	if (env.snapshot_request)
		return bb_request(env.pid_file, 60000000000ull) < 0 ? 1 : 0;
	if (tracefs_ready() < 0)
		return 1;
	if (!env.buffer_given)
		env.buffer_kb = buffer_default(instance_count_cpus(NULL));
	if (!env.check)
		instance_remove_stale(env.verbose);
	ret = names_parse(&r.names, env.names);
	if (ret == -IOREC_E_NOMEM) {
		error(ERR_NOMEM);
		ret = 1;
		goto cleanup;
	}
	if (ret < 0) {
		ret = usage_error("unknown source in --names '%s' (auto, none, or a list of strings, kprobe, eprobe, uprobe)",
				  env.names);
		goto cleanup;
	}
	ret = 1;	/* what a failure below returns */
	if (env.no_uprobes)
		names_no_uprobes(&r.names);
	/* the kernel's long size tells a 64-bit kernel to a 32-bit iorec */
	if (read_header_page(&r, NULL) < 0)
		goto cleanup;
	r.plan.no_compat = env.compat == COMPAT_WANT_OFF;
	if (plan_build(&r.plan, env.profiles, env.events, env.nevents,
		       env.raw_syscalls, r.long_size) < 0)
		goto cleanup;
	plan_compat_start(&r);
	if (plan_task_filter(&r) < 0)
		goto cleanup;
	if (env.check) {
		ret = prepare_check(&r);
		goto cleanup;
	}
	if (r.plan.nusers_missing) {
		report_missing_user_events(&r.plan);
		goto cleanup;
	}
	/* from here on, kernel state is ours to undo: signals only set a flag */
	setup_signals();
	if (!env.quiet || env.verbose)
		plan_warn_missing(&r.plan, env.verbose);
	if (r.plan.raw_syscalls && !r.plan.raw_forced && !env.quiet)
		warning("no syscalls:* events (kernel without CONFIG_FTRACE_SYSCALLS): recording raw_syscalls; the report has no per-syscall argument names, fd and count only via args[]");
	if (setup(&r) < 0) {
		/* nothing was recorded: no file that holds no recording */
		if (r.out_fd >= 0 && !r.out_stdout && !env.snapshot_dir &&
		    !env.rotate)
			unlink(env.output);
		goto cleanup;
	}
	if (!r.write_err)
		record_loop(&r);
	stop(&r);
	finish_child(&r);
	if (r.child && !env.quiet)
		note("'%s' (pid %d) is still running", env.command[0],
		     (int)r.child);
	if (r.write_err) {
		report_write_error(&r);
		ret = 1;
	} else {
		if (!env.quiet)
			summary(&r);
		ret = 0;
	}
	/* a failed recording is a failure whatever the command did */
	if (env.command && r.child_done && !r.write_err)
		ret = child_exit_code(&r);
cleanup:
	if (r.child)
		reap_child(&r);
	rec_release(&r);
	trig_free(env.trig);
	free(env.events);
	return ret;
}
