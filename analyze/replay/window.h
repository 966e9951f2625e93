/* SPDX-License-Identifier: MIT */
/*
 * window.h - the per-thread windows of the replay: a thread is inside
 * ext4_writepages, inside ext4_sync_file, inside a jbd2 commit, asleep in
 * D state, or a flusher inside a writeback work, from a start event to
 * an end event.  Each such pairing is a row of one table (window.c): the
 * decoded kind that opens the window and the kinds that close it, which
 * task of the event it is about, and what lost events do to it; the
 * machine keeps the open windows and tells a listener when one closes.
 *
 * The syscall pairing (replay/syscall.h: by thread and kind, with the
 * path that may arrive late) and the block requests (replay/block.h: by
 * device and sector) are machines of their own.  Nothing here prints.
 */
#ifndef IOREPORT_REPLAY_WINDOW_H
#define IOREPORT_REPLAY_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

struct dec_ev;

enum win_id {
	WIN_WRITEPAGES,		/* ext4_writepages -> _result (dev, ino) */
	WIN_EXT4_SYNC,		/* ext4_sync_file_enter -> _exit (dev, ino) */
	WIN_COMMIT,		/* jbd2_start_commit -> jbd2_end_commit */
	WIN_DSTATE,		/* switched out in D state -> woken or run */
	WIN_WB_WORK,		/* writeback_start -> writeback_written (pages) */
	WIN_NR
};

/* An open window of a thread. */
struct win {
	bool open;
	uint64_t ts;		/* of the start event */
	int cpu;
	uint32_t dev;		/* writepages, ext4 sync: the inode's */
	uint64_t ino;
	bool datasync;		/* ext4 sync: an fdatasync */
	int64_t val;		/* writeback work: its nr_pages budget */
};

/*
 * Called when a window closes, before the closing event is handed on:
 * open is the window as it was opened, ev the event that closes it.
 */
typedef void (*win_close_fn)(void *arg, enum win_id w, int tid,
			     const struct win *open, const struct dec_ev *ev);

struct windows;

/* New windows, or NULL: no memory. */
struct windows *windows_new(void);
/* 0, or -AN_E_NOMEM once a window could not be kept for memory. */
int windows_error(const struct windows *ws);
/* Free; accepts NULL. */
void windows_free(struct windows *ws);

/* The listener of closing windows (one; NULL: none). */
void windows_on_close(struct windows *ws, win_close_fn fn, void *arg);

/* Whether kind opens or closes some window (the driver's dispatch). */
bool windows_use(const struct windows *ws, int kind);
/* Feed one decoded event: open and close the windows it starts and ends. */
void windows_feed(struct windows *ws, const struct dec_ev *ev);
/* Events were lost: close (without telling) the windows the table drops. */
void windows_gap(struct windows *ws, int cpu);

/* The window w of thread tid if it is open, else NULL. */
const struct win *windows_get(const struct windows *ws, int tid,
			      enum win_id w);
/*
 * The window w open the longest (of those whose dev is dev, when dev is
 * not 0), with its thread in *tid; NULL when none.  Only for the windows
 * the table lists (ext4 sync).
 */
const struct win *windows_oldest(const struct windows *ws, enum win_id w,
				 uint32_t dev, int *tid);
/*
 * The i-th window w open (from 0, in no set order), with its thread in
 * *tid; NULL past the last.  Only for the listed rows (ext4 sync).
 */
const struct win *windows_nth(const struct windows *ws, enum win_id w,
			      size_t i, int *tid);

#endif /* IOREPORT_REPLAY_WINDOW_H */
