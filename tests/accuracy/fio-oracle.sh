#!/usr/bin/env bash
# fio-oracle.sh - ioreport's syscall counts, bytes, fsyncs and latency
# percentiles against fio's own JSON, for the three engines whose I/O
# ioreport follows differently: psync (pread64/pwrite64 syscalls), libaio
# (io_submit -> io_getevents, iorec's libaio uprobe) and io_uring
# (io_uring_submit_req -> io_uring_complete).
#
# Each engine runs the same job under 'iorec --': 4 KiB O_DIRECT random
# reads and writes of a file on a loop ext4, iodepth 1 (a libaio reap then
# returns the one request in flight: ioreport pairs reaps with submits by
# age), an fsync after every 16 writes.  What each number covers and the
# tolerances (docs/accuracy.md):
#  - counts, bytes, fsyncs: fio's total_ios and io_bytes per direction and
#    its sync total_ios; equal, exactly.
#  - psync: ioreport times the call enter -> exit, fio's clat is the same
#    call timed from user space, so it holds ioreport's: p50, p90, p99 at
#    most 5% + 5 us above fio's, at most 15% + 10 us below (measured:
#    ioreport 3 to 5 us below on a quiet machine, fio's own steps around
#    the call; up to 6 us and 27% below at p50 with the machine loaded,
#    when fio is preempted between its clock reads and the call).
#  - libaio: ioreport times io_submit enter -> the io_getevents exit that
#    reaps the request, which holds fio's clat (after io_submit -> reap)
#    and is held in its lat (the request's preparation -> reap): each
#    percentile between fio's clat and lat, 5% + 5 us of slack.
#  - io_uring: ioreport times the kernel's submit -> completion events,
#    held in fio's lat; fio's clat ends when fio sees the CQE, after the
#    completion event: the lower bound has 25 us of slack for that wakeup.
#  Both sides' percentiles are histograms (fio's within 1/64, ioreport's
#  interpolated within its 1/16 buckets): the 5%.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3 fio mkfs.ext4
NIOS=${FIO_ORACLE_IOS:-4000}

make_loop_ext4 96
F=$MNT/oracle.dat
fio --name=layout --filename="$F" --size=32M --create_only=1 \
	--output="$T/layout.log" || fail "fio could not lay out $F"
sync

engines=(psync libaio io_uring)
for e in "${engines[@]}"; do
	if ! fio --enghelp 2>&1 | grep -qw "$e"; then
		log "fio has no $e engine: not checked"
		continue
	fi
	rc=0
	run_iorec -q -o "$T/$e.iorec" -- fio --name="$e" --filename="$F" \
		--size=32M --rw=randrw --bs=4k --direct=1 --ioengine="$e" \
		--iodepth=1 --number_ios="$NIOS" --fsync=16 --randrepeat=1 \
		--percentile_list=50:90:99 --lat_percentiles=1 \
		--output-format=json --output="$T/$e.fio.json" \
		2>"$T/$e.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/$e.err" >&2; fail "$e: iorec -- fio exited $rc"; }
	lost=$(lost_events "$T/$e.iorec")
	[ "$lost" = 0 ] || fail "$e: the recording lost $lost events"
	ioreport_to "$T/$e.json" processes --json -c fio -f "$F" "$T/$e.iorec"
	[ -n "${ACC_KEEP:-}" ] && { mkdir -p "$ACC_KEEP"; cp "$T/$e".* "$ACC_KEEP/"; }
	python3 - "$e" "$T/$e.fio.json" "$T/$e.json" "$TEST_NAME" <<'PY' || fail "$e: ioreport disagrees with fio (above)"
import json, sys
eng, fio_path, io_path, test = sys.argv[1:5]
fio = json.load(open(fio_path))["jobs"][0]
procs = json.load(open(io_path))["processes"]
bad = []

def log(msg):
    print("%s: %s: %s" % (test, eng, msg), file=sys.stderr)

def check(name, got, want, tol=0):
    ok = abs(got - want) <= tol
    log("%s: %s %s vs fio %s (diff %+.1f%s, tolerance %s)" % (
        "ok" if ok else "FAIL", name, got, want, got - want,
        " = %+.2f%%" % (100.0 * (got - want) / want) if want else "", tol))
    if not ok:
        bad.append(name)

def merged(kind):
    """count, bytes and the latency percentiles of a syscall kind over
    the fio processes: the job process does the I/O"""
    rows = [p["syscalls"][kind] for p in procs if kind in p["syscalls"]]
    if len(rows) > 1:
        sys.exit("%s made by %d fio processes: expected one" % (kind, len(rows)))
    return rows[0] if rows else None

kinds = {"psync": ("pread64", "pwrite64", "fsync"),
         "libaio": ("aio_read", "aio_write", "fsync"),
         "io_uring": ("uring_read", "uring_write", "uring_fsync")}[eng]
rk, wk, sk = kinds
# the slack of each bound: fio's histogram (1/64) and ioreport's (within
# its 1/16 bucket), and, for io_uring's lower bound, the wakeup between
# the kernel's completion event and fio seeing the CQE
slack_lo = 25000 if eng == "io_uring" else 5000
for ddir, kind in (("read", rk), ("write", wk)):
    f = fio[ddir]
    row = merged(kind)
    if row is None:
        sys.exit("no %s calls of fio on the file in ioreport processes" % kind)
    check("%s %s count" % (ddir, kind), row["count"], f["total_ios"])
    check("%s %s bytes" % (ddir, kind), row["bytes"], f["io_bytes"])
    clat, lat = f["clat_ns"]["percentile"], f["lat_ns"]["percentile"]
    for p, key in ((50, "p50_ns"), (90, "p90_ns"), (99, "p99_ns")):
        got = row["latency"][key]
        lo, hi = clat["%.6f" % p], lat["%.6f" % p]
        if eng == "psync":
            # the same interval: fio's clat is the call seen from user
            # space, so it holds ioreport's: above it by no more than the
            # histograms' error; below it by fio's own steps around the
            # call, which grow when fio is preempted on a loaded machine
            ok = lo * 0.85 - 10000 <= got <= lo * 1.05 + 5000
            log("%s: %s %s p%d %d ns vs fio clat %d (%+.2f%%; at most 5%% + 5 us "
                "above, 15%% + 10 us below)" % ("ok" if ok else "FAIL", ddir,
                kind, p, got, lo, 100.0 * (got - lo) / lo if lo else 0))
            if not ok:
                bad.append("%s %s p%d (fio clat)" % (ddir, kind, p))
            continue
        ok = lo * 0.95 - slack_lo <= got <= hi * 1.05 + 5000
        log("%s: %s %s p%d %d ns within fio's clat %d and lat %d" % (
            "ok" if ok else "FAIL", ddir, kind, p, got, lo, hi))
        if not ok:
            bad.append("%s %s p%d" % (ddir, kind, p))
sync = fio.get("sync", {})
row = merged(sk)
check("fsyncs (%s)" % sk, row["count"] if row else 0, sync.get("total_ios", 0))
if bad:
    sys.exit("%d disagreements: %s" % (len(bad), "; ".join(bad)))
PY
done
finish
