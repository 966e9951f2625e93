-- schema.sql - the SQLite schema of `ioreport db` (schema version 5).
--
-- Embedded into ioreport at build time (analyze/sink/local.mk); docs/schema.md
-- documents every table and view.  Every row belongs to a recording
-- (rec_id, or for the two bulk tables their id block), so one database
-- holds several recordings; loading a recording again replaces its rows
-- (recordings.content_id identifies it).
--
-- Conventions: times are the recording's trace clock in ns (absolute, as
-- `ioreport dump` prints them; recordings.first_ts is the start), durations
-- are ns, sizes are bytes, dev is the kernel dev_t (major << 20 | minor).
-- Small codes (op, kind) are integers resolved by the per-recording lookup
-- tables ops and syscall_kinds; the views show the names.  The bulk
-- tables store only what cannot be derived; the requests and syscalls
-- views add the derived columns (absolute times, bytes) at no cost in
-- space.
--
-- Changing a table or view means a new schema version: bump
-- DB_SCHEMA_VERSION (analyze/sink/sqlite.h) and the db_info row written with it.
-- The part before the "-- @indexes" line creates tables and views; the
-- part after it the secondary indexes, which the loader creates after its
-- bulk insert.

CREATE TABLE db_info (
	key		TEXT PRIMARY KEY,
	value		TEXT
) WITHOUT ROWID;
CREATE TABLE recordings (
	rec_id		INTEGER PRIMARY KEY,
	content_id	TEXT NOT NULL UNIQUE,	-- hash of header, snapshot, first ts
	path		TEXT NOT NULL,		-- as given to ioreport db
	format		TEXT NOT NULL,		-- 'iorec' or 'trace.dat'
	format_version	TEXT,
	host		TEXT,
	kernel		TEXT,
	machine		TEXT,
	clock		TEXT,
	cpus		INTEGER,
	page_size	INTEGER,
	long_size	INTEGER,
	big_endian	INTEGER,
	first_ts	INTEGER,		-- first event, trace clock ns
	last_ts		INTEGER,
	duration_ns	INTEGER GENERATED ALWAYS AS (last_ts - first_ts) VIRTUAL,
	events		INTEGER,		-- events read
	lost_events	INTEGER,		-- kernel counters (overrun + dropped)
	integrity	TEXT,			-- 'complete', 'truncated', 'corrupt'
	stop_reason	TEXT,			-- why reading stopped early
	file_bytes	INTEGER,
	syscall_source	TEXT,			-- 'syscalls', 'raw_syscalls' or NULL
	command		TEXT,			-- iorec -- CMD, when recorded so
	loaded_at	TEXT NOT NULL,		-- UTC, ISO 8601
	loaded_by	TEXT NOT NULL		-- 'ioreport VERSION'
);
-- The recording's own key=value texts: the header and the end chunk.
CREATE TABLE recording_meta (
	rec_id		INTEGER NOT NULL,
	section		TEXT NOT NULL,		-- 'header' or 'end'
	key		TEXT NOT NULL,
	value		TEXT,
	PRIMARY KEY (rec_id, section, key)
) WITHOUT ROWID;
-- Per CPU: data read and events lost (kernel counters and gaps in the data).
CREATE TABLE cpus (
	rec_id		INTEGER NOT NULL,
	cpu		INTEGER NOT NULL,
	events		INTEGER,
	pages		INTEGER,
	raw_bytes	INTEGER,
	stored_bytes	INTEGER,
	overrun		INTEGER,		-- kernel ring-buffer counters (STATS)
	dropped		INTEGER,
	missed_pages	INTEGER,		-- pages flagged "events lost before"
	missed_events	INTEGER,		-- known lost counts in the data
	gaps		INTEGER,		-- events preceded by a gap
	PRIMARY KEY (rec_id, cpu)
) WITHOUT ROWID;
-- The context snapshot (sysctls, mounts, block device settings, meminfo,
-- diskstats, uname) at the start and at the end of the recording.
CREATE TABLE config (
	rec_id		INTEGER NOT NULL,
	phase		TEXT NOT NULL,		-- 'start' or 'end'
	kind		TEXT NOT NULL,		-- sysctl, mount, blockdev, meminfo, ...
	name		TEXT NOT NULL,		-- vm.dirty_ratio, mount point, sda, ...
	attr		TEXT NOT NULL,		-- '' or the attribute: options, scheduler, ...
	value		TEXT,
	PRIMARY KEY (rec_id, phase, kind, name, attr)
) WITHOUT ROWID;
CREATE TABLE devices (
	rec_id		INTEGER NOT NULL,
	dev		INTEGER NOT NULL,	-- major << 20 | minor
	major		INTEGER NOT NULL,
	minor		INTEGER NOT NULL,
	name		TEXT,			-- 'sda', or NULL when not in the snapshot
	parent		TEXT,			-- the disk of a partition
	scheduler	TEXT,
	rotational	INTEGER,
	write_cache	TEXT,
	requests	INTEGER NOT NULL DEFAULT 0,	-- completed requests recorded
	PRIMARY KEY (rec_id, dev)
) WITHOUT ROWID;
CREATE TABLE ops (
	rec_id		INTEGER NOT NULL,
	op		INTEGER NOT NULL,
	name		TEXT NOT NULL,		-- read, write, flush, discard, other
	PRIMARY KEY (rec_id, op)
) WITHOUT ROWID;
CREATE TABLE syscall_kinds (
	rec_id		INTEGER NOT NULL,
	kind		INTEGER NOT NULL,
	name		TEXT NOT NULL,		-- write, pwrite64, fsync, openat, ...
	is_read		INTEGER NOT NULL,	-- returns bytes read
	is_write	INTEGER NOT NULL,	-- returns bytes written
	is_sync		INTEGER NOT NULL,	-- flushes data (fsync cost)
	is_fsync	INTEGER NOT NULL,	-- fsync or fdatasync
	PRIMARY KEY (rec_id, kind)
) WITHOUT ROWID;
-- Processes with surrogate ids: a pid reused by a new process is a new
-- row.  Columns after exit_ts are the `processes` view's aggregates.
CREATE TABLE processes (
	rec_id		INTEGER NOT NULL,
	proc_id		INTEGER NOT NULL,	-- surrogate, unique in the recording
	pid		INTEGER NOT NULL,	-- tgid
	ppid		INTEGER,
	comm		TEXT,			-- last comm
	exe		TEXT,
	at_start	INTEGER NOT NULL,	-- alive when the recording began
	guessed		INTEGER NOT NULL,	-- first seen in an event (no fork, no snapshot)
	exited		INTEGER NOT NULL,
	start_ts	INTEGER,		-- fork, NULL when alive at start
	exit_ts		INTEGER,
	syscalls	INTEGER NOT NULL DEFAULT 0,
	errors		INTEGER NOT NULL DEFAULT 0,
	read_bytes	INTEGER NOT NULL DEFAULT 0,
	write_bytes	INTEGER NOT NULL DEFAULT 0,
	fsyncs		INTEGER NOT NULL DEFAULT 0,	-- fsync + fdatasync calls
	fsync_ns	INTEGER NOT NULL DEFAULT 0,	-- their total latency (paired calls)
	fsync_max_ns	INTEGER NOT NULL DEFAULT 0,
	blk_requests	INTEGER NOT NULL DEFAULT 0,	-- block I/O attributed (attrib)
	blk_read_bytes	INTEGER NOT NULL DEFAULT 0,
	blk_write_bytes	INTEGER NOT NULL DEFAULT 0,
	blk_device_ns	INTEGER NOT NULL DEFAULT 0,	-- device time, by byte share
	journal_bytes	INTEGER NOT NULL DEFAULT 0,	-- journal commits its fsyncs waited for
	throttles	INTEGER NOT NULL DEFAULT 0,	-- balance_dirty_pages pauses
	throttle_ns	INTEGER NOT NULL DEFAULT 0,
	dstates		INTEGER NOT NULL DEFAULT 0,	-- D-state sleeps (iowait profile)
	dstate_ns	INTEGER NOT NULL DEFAULT 0,
	unit		TEXT,			-- systemd unit of its cgroup (docs/attribution.md), NULL: none
	container	TEXT,			-- Docker/Podman container name (else id's 12 digits)
	cgroup		TEXT,			-- its cgroup as --by cgroup groups it
	PRIMARY KEY (rec_id, proc_id)
) WITHOUT ROWID;
-- Every comm a process had, in order (fork, exec, prctl/rename).
CREATE TABLE comm_history (
	rec_id		INTEGER NOT NULL,
	proc_id		INTEGER NOT NULL,
	seq		INTEGER NOT NULL,	-- 0 first
	comm		TEXT NOT NULL,
	PRIMARY KEY (rec_id, proc_id, seq)
) WITHOUT ROWID;
-- Threads seen making file syscalls, with the process they belonged to.
CREATE TABLE threads (
	rec_id		INTEGER NOT NULL,
	proc_id		INTEGER NOT NULL,
	tid		INTEGER NOT NULL,
	syscalls	INTEGER NOT NULL,
	first_ts	INTEGER,
	last_ts		INTEGER,
	PRIMARY KEY (rec_id, proc_id, tid)
) WITHOUT ROWID;
-- Per process and syscall kind: the `processes` view's latency table.
CREATE TABLE process_syscalls (
	rec_id		INTEGER NOT NULL,
	proc_id		INTEGER NOT NULL,
	kind		INTEGER NOT NULL,
	calls		INTEGER NOT NULL,
	errors		INTEGER NOT NULL,
	bytes		INTEGER NOT NULL,
	unpaired	INTEGER NOT NULL,	-- exits without a known enter
	lat_count	INTEGER NOT NULL,
	lat_total_ns	INTEGER NOT NULL,
	lat_min_ns	INTEGER,
	lat_p50_ns	INTEGER,
	lat_p99_ns	INTEGER,
	lat_max_ns	INTEGER,
	PRIMARY KEY (rec_id, proc_id, kind)
) WITHOUT ROWID;
-- Files: named by path, by dev:ino, or not at all ("<unknown fd N of pid P>").
CREATE TABLE files (
	rec_id		INTEGER NOT NULL,
	file_id		INTEGER NOT NULL,
	ident		INTEGER NOT NULL,	-- first file_id of the same dev:ino (else path)
	path		TEXT,			-- NULL when unknown
	name		TEXT NOT NULL,		-- path, or the <unknown ...> label
	dev		INTEGER,		-- major << 20 | minor, when known
	ino		INTEGER,
	opener_pid	INTEGER,		-- for an unnamed file
	opener_fd	INTEGER,
	open_ts		INTEGER,		-- NULL if opened before the recording
	opens		INTEGER NOT NULL DEFAULT 0,
	reads		INTEGER NOT NULL DEFAULT 0,
	writes		INTEGER NOT NULL DEFAULT 0,
	read_bytes	INTEGER NOT NULL DEFAULT 0,
	write_bytes	INTEGER NOT NULL DEFAULT 0,
	errors		INTEGER NOT NULL DEFAULT 0,
	read_p50_ns	INTEGER,
	read_p99_ns	INTEGER,
	write_p50_ns	INTEGER,
	write_p99_ns	INTEGER,
	fsyncs		INTEGER NOT NULL DEFAULT 0,
	fsync_ns	INTEGER NOT NULL DEFAULT 0,
	fsync_max_ns	INTEGER NOT NULL DEFAULT 0,
	blk_requests	INTEGER NOT NULL DEFAULT 0,	-- block I/O attributed (attrib)
	blk_read_bytes	INTEGER NOT NULL DEFAULT 0,
	blk_write_bytes	INTEGER NOT NULL DEFAULT 0,
	blk_device_ns	INTEGER NOT NULL DEFAULT 0,
	journal_bytes	INTEGER NOT NULL DEFAULT 0,
	other_names	TEXT,			-- 'written as a.tmp,linked as b', or NULL
	unlinked	INTEGER NOT NULL DEFAULT 0,	-- its name was unlinked
	PRIMARY KEY (rec_id, file_id)
) WITHOUT ROWID;
-- The two bulk tables, request_rows and syscall_rows, hold one row per
-- block request and per syscall in as few bytes as SQLite allows: what
-- many rows share (a thread's calls on one fd, a process's requests to
-- one device) is stored once, in call_shapes and request_origins, and a row
-- refers to it by a small number; times are offsets from the base of the
-- row's id block.  Query the requests and syscalls views, which put the
-- columns back together.
--
-- Id blocks: the bulk tables number their rows (the rowid, which the
-- views call req_id and call_id) block << 10 | n (n below 1024), in
-- completion (exit) order.  A block belongs to one recording; a
-- recording's blocks are consecutive.  A syscall row stores its shape as
-- the difference to its block's ref, chosen so that most of the block's
-- rows have 0 or 1, which an SQLite record stores in no byte.
CREATE TABLE id_blocks (
	block		INTEGER PRIMARY KEY,
	rec_id		INTEGER NOT NULL,
	base_ts		INTEGER NOT NULL,	-- trace clock ns: end_ns of its rows is relative to it
	ref		INTEGER			-- syscall_rows: their shape_delta is relative to it
);
-- What a set of block requests share: device, operation and flags, the
-- tasks that queued and issued them, and their attribution.
CREATE TABLE request_origins (
	origin		INTEGER PRIMARY KEY,	-- unique in the database
	rec_id		INTEGER NOT NULL,
	dev		INTEGER NOT NULL,
	op		INTEGER NOT NULL,	-- see ops
	flags		INTEGER NOT NULL,	-- 1 preflush, 2 fua, 4 sync, 8 meta, 16 readahead
	insert_pid	INTEGER,		-- task that queued it
	issue_pid	INTEGER,		-- task that issued it
	proc_id		INTEGER,		-- attributed process (see attrib)
	file_id		INTEGER,		-- attributed file, NULL when unknown
	attrib		TEXT			-- method of the attribution (heuristic); stacked: a lower device's request for the device above, proc_id and file_id the upper one's, its bytes counted once, up there
);
-- Every completed block request, as stored.
-- req_id is the rowid: an INTEGER PRIMARY KEY column would cost a byte
-- per row.
CREATE TABLE request_rows (
	origin		INTEGER NOT NULL,	-- see request_origins
	sector		INTEGER NOT NULL,
	nr_sector	INTEGER NOT NULL,
	end_ns		INTEGER NOT NULL,	-- completion - id_blocks.base_ts
	device_ns	INTEGER,		-- issue -> complete (D2C); NULL: issue not seen
	queue_ns	INTEGER,		-- insert -> issue (I2D); NULL: not inserted
	error		INTEGER NOT NULL,
	bytes_extra	INTEGER NOT NULL	-- bytes - nr_sector * 512 (0 but for odd requests)
);
CREATE VIEW requests AS
SELECT r.rowid AS req_id, o.rec_id, o.dev, r.sector, r.nr_sector,
	r.nr_sector * 512 + r.bytes_extra AS bytes, o.op, o.flags, r.error,
	b.base_ts + r.end_ns - r.device_ns - r.queue_ns AS insert_ts,
	b.base_ts + r.end_ns - r.device_ns AS issue_ts,
	b.base_ts + r.end_ns AS complete_ts, r.queue_ns, r.device_ns,
	ifnull(r.device_ns, 0) + ifnull(r.queue_ns, 0) AS total_ns,
	o.insert_pid, o.issue_pid, o.proc_id, o.file_id, o.attrib, r.origin
FROM request_rows r
JOIN request_origins o ON o.origin = r.origin
JOIN id_blocks b ON b.block = r.rowid >> 10;

-- What syscalls share: thread, process, kind, fd, file and return value
-- (a run of equal-sized reads or writes has one shape).
CREATE TABLE call_shapes (
	shape		INTEGER PRIMARY KEY,	-- unique in the database
	rec_id		INTEGER NOT NULL,
	tid		INTEGER NOT NULL,
	proc_id		INTEGER,
	kind		INTEGER NOT NULL,	-- see syscall_kinds
	fd		INTEGER,		-- the fd read, written, synced, closed, dup-ed; an open's new fd
	file_id		INTEGER,
	ret		INTEGER NOT NULL
);
-- Every file syscall (enter -> exit), as stored.
-- call_id is the rowid, as req_id of request_rows.
CREATE TABLE syscall_rows (
	shape_delta	INTEGER NOT NULL,	-- shape - id_blocks.ref (see call_shapes)
	end_ns		INTEGER NOT NULL,	-- exit - id_blocks.base_ts
	duration_ns	INTEGER			-- enter -> exit; NULL when not paired
);
CREATE VIEW syscalls AS
SELECT s.rowid AS call_id, t.rec_id, t.tid, t.proc_id, t.kind, t.fd, t.file_id,
	b.base_ts + s.end_ns - s.duration_ns AS start_ts, s.duration_ns,
	t.ret, k.is_read | k.is_write AS rw, b.base_ts + s.end_ns AS end_ts,
	CASE WHEN (k.is_read OR k.is_write) AND t.ret > 0 THEN t.ret ELSE 0 END AS bytes,
	t.shape
FROM syscall_rows s
JOIN id_blocks b ON b.block = s.rowid >> 10
JOIN call_shapes t ON t.shape = b.ref + s.shape_delta
JOIN syscall_kinds k ON k.rec_id = t.rec_id AND k.kind = t.kind;

-- Histograms: the raw buckets, never bars.  subject says what was
-- measured: 'device' (dev, op, metric queue/device/total), 'syscall'
-- (proc_id, kind), 'file' (file_id, metric read/write/fsync).
CREATE TABLE histograms (
	rec_id		INTEGER NOT NULL,
	hist_id		INTEGER NOT NULL,
	subject		TEXT NOT NULL,
	metric		TEXT NOT NULL,
	dev		INTEGER,
	op		INTEGER,
	proc_id		INTEGER,
	kind		INTEGER,
	file_id		INTEGER,
	count		INTEGER NOT NULL,
	sum_ns		INTEGER NOT NULL,
	min_ns		INTEGER,
	max_ns		INTEGER,
	p50_ns		INTEGER,
	p90_ns		INTEGER,
	p99_ns		INTEGER,
	p999_ns		INTEGER,
	PRIMARY KEY (rec_id, hist_id)
) WITHOUT ROWID;
CREATE TABLE hist_buckets (
	rec_id		INTEGER NOT NULL,
	hist_id		INTEGER NOT NULL,
	lo_ns		INTEGER NOT NULL,	-- inclusive
	hi_ns		INTEGER NOT NULL,	-- inclusive
	count		INTEGER NOT NULL,
	PRIMARY KEY (rec_id, hist_id, lo_ns)
) WITHOUT ROWID;
-- What the state machines could not pair or decode.
CREATE TABLE anomalies (
	rec_id		INTEGER NOT NULL,
	stage		TEXT NOT NULL,		-- block, syscall, process, fd, decode
	name		TEXT NOT NULL,
	count		INTEGER NOT NULL,
	PRIMARY KEY (rec_id, stage, name)
) WITHOUT ROWID;
-- ------------------------------------------------------------------
-- Views for the common questions
CREATE VIEW request_v AS
SELECT r.rec_id, r.req_id, d.name AS device, r.dev >> 20 AS major,
	r.dev & 1048575 AS minor, r.sector, r.bytes, o.name AS op,
	(CASE WHEN r.flags & 1 THEN 'F' ELSE '' END) ||
	(CASE WHEN r.flags & 2 THEN 'U' ELSE '' END) ||
	(CASE WHEN r.flags & 4 THEN 'S' ELSE '' END) ||
	(CASE WHEN r.flags & 8 THEN 'M' ELSE '' END) ||
	(CASE WHEN r.flags & 16 THEN 'A' ELSE '' END) AS flags,
	r.error, r.insert_ts, r.issue_ts, r.complete_ts, r.queue_ns,
	r.device_ns, r.total_ns, r.insert_pid, r.issue_pid, r.proc_id,
	p.pid, p.comm, r.file_id, f.name AS file, r.attrib
FROM requests r
JOIN ops o ON o.rec_id = r.rec_id AND o.op = r.op
LEFT JOIN devices d ON d.rec_id = r.rec_id AND d.dev = r.dev
LEFT JOIN processes p ON p.rec_id = r.rec_id AND p.proc_id = r.proc_id
LEFT JOIN files f ON f.rec_id = r.rec_id AND f.file_id = r.file_id;
CREATE VIEW syscall_v AS
SELECT s.rec_id, s.call_id, s.tid, s.proc_id, p.pid, p.comm, k.name AS kind,
	s.fd, s.file_id, f.name AS file, s.bytes, s.start_ts, s.end_ts,
	s.duration_ns, s.ret
FROM syscalls s
JOIN syscall_kinds k ON k.rec_id = s.rec_id AND k.kind = s.kind
LEFT JOIN processes p ON p.rec_id = s.rec_id AND p.proc_id = s.proc_id
LEFT JOIN files f ON f.rec_id = s.rec_id AND f.file_id = s.file_id;
-- Per process: syscall latency per kind (as `ioreport processes`).
CREATE VIEW process_latency AS
SELECT ps.rec_id, p.proc_id, p.pid, p.comm, k.name AS kind, ps.calls,
	ps.errors, ps.bytes, ps.lat_total_ns, ps.lat_total_ns / nullif(ps.lat_count, 0) AS lat_avg_ns,
	ps.lat_p50_ns, ps.lat_p99_ns, ps.lat_max_ns
FROM process_syscalls ps
JOIN processes p ON p.rec_id = ps.rec_id AND p.proc_id = ps.proc_id
JOIN syscall_kinds k ON k.rec_id = ps.rec_id AND k.kind = ps.kind;
-- Per file: read, write and fsync latency of each file row.
CREATE VIEW file_latency AS
SELECT rec_id, file_id, ident, name, opens, reads, read_bytes, read_p50_ns,
	read_p99_ns, writes, write_bytes, write_p50_ns, write_p99_ns, fsyncs,
	fsync_ns, fsync_max_ns, errors
FROM files;

-- Per file identity (dev:ino, else path), as the rows of `ioreport files`.
CREATE VIEW file_totals AS
SELECT rec_id, ident, (SELECT name FROM files n WHERE n.rec_id = f.rec_id AND n.file_id = f.ident) AS name,
	sum(opens) AS opens, sum(reads) AS reads, sum(read_bytes) AS read_bytes,
	sum(writes) AS writes, sum(write_bytes) AS write_bytes,
	sum(fsyncs) AS fsyncs, sum(fsync_ns) AS fsync_ns, max(fsync_max_ns) AS fsync_max_ns,
	sum(errors) AS errors, sum(blk_requests) AS blk_requests,
	sum(blk_read_bytes) AS blk_read_bytes, sum(blk_write_bytes) AS blk_write_bytes,
	sum(blk_device_ns) AS blk_device_ns, sum(journal_bytes) AS journal_bytes
FROM files f GROUP BY rec_id, ident;

-- Per device and operation: requests, bytes and latency percentiles.
CREATE VIEW device_latency AS
SELECT h.rec_id, d.name AS device, h.dev >> 20 AS major,
	h.dev & 1048575 AS minor, o.name AS op, h.metric, h.count,
	h.sum_ns / nullif(h.count, 0) AS avg_ns, h.p50_ns, h.p90_ns, h.p99_ns,
	h.p999_ns, h.max_ns
FROM histograms h
JOIN ops o ON o.rec_id = h.rec_id AND o.op = h.op
LEFT JOIN devices d ON d.rec_id = h.rec_id AND d.dev = h.dev
WHERE h.subject = 'device';
-- The slowest operations: block requests (total time) and syscalls
-- (duration) in one list; order by duration_ns and take what you need.
CREATE VIEW slow_ops AS
SELECT rec_id, 'request' AS what, req_id AS id, comm, pid, op AS kind,
	file, device, bytes, total_ns AS duration_ns, queue_ns, device_ns,
	complete_ts AS end_ts
FROM request_v
UNION ALL
SELECT rec_id, 'syscall', call_id, comm, pid, kind, file, NULL, bytes,
	duration_ns, NULL, NULL, end_ts
FROM syscall_v WHERE duration_ns IS NOT NULL;
-- Configuration highlights side by side with the recording.
CREATE VIEW sysctls AS
SELECT rec_id, phase, name, value FROM config WHERE kind = 'sysctl';
CREATE VIEW mounts AS
SELECT rec_id, phase, name AS mountpoint,
	max(CASE WHEN attr = 'source' THEN value END) AS source,
	max(CASE WHEN attr = 'fstype' THEN value END) AS fstype,
	max(CASE WHEN attr = 'options' THEN value END) AS options,
	max(CASE WHEN attr = 'super_options' THEN value END) AS super_options,
	max(CASE WHEN attr = 'dev' THEN value END) AS dev
FROM config WHERE kind = 'mount' GROUP BY rec_id, phase, name;
-- @indexes
-- The requests of an origin (a process, a file, a device): the origins
-- are few, so a query by process or file finds its rows through them.
CREATE INDEX IF NOT EXISTS request_rows_origin ON request_rows (origin);
-- Statistics for the query planner (sqlite_stat1), sampled, of the two
-- request tables: with them a query on the requests of one process or
-- file reads its origins first and its rows through request_rows_origin
-- instead of every request.  (ANALYZE of the whole database would count
-- every syscall row.)
PRAGMA analysis_limit = 1000;
ANALYZE request_rows;
ANALYZE request_origins;
