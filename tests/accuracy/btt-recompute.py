#!/usr/bin/env python3
"""btt-recompute.py - btt's Q2Q, per-bio phase sums and D2D seeks of one
device, recomputed from raw events by a method of its own: a simulation
of btt's bookkeeping (every bio queued is an entry; an insert, merge,
issue or completion marks the pending entries inside its sectors), not
ioreport's request pairing.  It reads either 'ioreport dump --json --raw'
(block events of an iorec recording) or blkparse text printed with
-f "%a %T.%9t %S %n\\n" (the blk tracer's capture of the same run).

usage: btt-recompute.py (--dump FILE.json --dev DEV_T | --blkparse FILE)

Prints one JSON object:
  q2q_n, q2q_sum_ns          consecutive bios queued (with data)
  bios, merged, inserted     bios counted (Q and C seen), of them merged
                             (M) and first bios of inserted requests (I)
  q2c_ns, q2i_ns, q2m_ns, i2d_ns, m2d_ns, d2c_ns   sums over those bios
  seeks, seek_sum, seek_zero, seek_fwd, seek_bwd, seek_median, first_d
                             D2D distances between requests issued in
                             turn (the first request has none; first_d
                             is its sector, btt's distance for it)
  requests, d2c_req_ns       completed requests with data and their D2C
  issued                     [time, start, end] of every request issued
                             with data, in the order of the input (the
                             order the seeks are taken in)
"""
import json
import re
import sys


def events_from_dump(path, dev):
    names = {
        "block_bio_queue": "Q", "block_bio_backmerge": "M",
        "block_bio_frontmerge": "M", "block_rq_insert": "I",
        "block_rq_issue": "D", "block_rq_complete": "C",
    }
    with open(path) as f:
        doc = json.load(f)
    for e in doc["events"]:
        a = names.get(e["event"])
        if not a:
            continue
        kv = e["fields"]	# dump --json --raw: typed values
        if int(kv["dev"]) != dev:
            continue
        yield a, e["ts_ns"], int(kv["sector"]), int(kv["nr_sector"])


def events_from_blkparse(path):
    line = re.compile(r"^([QMIDC]) (\d+)\.(\d{9}) (\d+) (\d+)$")
    with open(path) as f:
        for ln in f:
            m = line.match(ln.strip())
            if m:
                a, s, ns, sec, nr = m.groups()
                yield a, int(s) * 10**9 + int(ns), int(sec), int(nr)


def seek(prev, cur):
    """btt's D2D distance from request prev to request cur."""
    (ls, le), (s, e) = prev, cur
    if ls <= s <= le or ls <= e <= le:
        return 0
    return s - le if s > le else s - ls


def seeks(reqs):
    """The D2D seek sum and count of zeros of requests (start, end) in
    this order."""
    d = [seek(a, b) for a, b in zip(reqs, reqs[1:])]
    return sum(map(abs, d)), d.count(0)


def btt(events):
    r = dict(q2q_n=0, q2q_sum_ns=0, bios=0, merged=0, inserted=0,
             q2c_ns=0, q2i_ns=0, q2m_ns=0, i2d_ns=0, m2d_ns=0, d2c_ns=0,
             seeks=0, seek_sum=0, seek_zero=0, seek_fwd=0, seek_bwd=0,
             first_d=None, requests=0, d2c_req_ns=0)
    pending = []        # the bios queued: dicts q, s, e, m, i, d
    last_q = None
    last = None         # (start, end) of the previous request issued
    dists = []
    issued = []         # [t, start, end] of every request issued
    for a, t, s, n in events:
        e = s + n
        if n == 0 and a != "Q":
            continue    # flushes and empty completions carry no data
        if a == "Q":
            if n == 0:
                continue
            if last_q is not None:
                r["q2q_n"] += 1
                r["q2q_sum_ns"] += max(t - last_q, 1)
            last_q = t
            # a bio queued again at the same sector replaces the old one
            pending = [b for b in pending if b["s"] != s or b["d"] is not None]
            pending.append(dict(q=t, s=s, e=e, m=None, i=None, d=None))
        elif a == "M":
            for b in reversed(pending):
                if b["s"] == s and b["m"] is None and b["i"] is None and b["d"] is None:
                    b["m"] = t
                    break
        elif a in "ID":
            if a == "D":
                if last is None:
                    r["first_d"] = s
                else:
                    d = seek(last, (s, e))
                    r["seeks"] += 1
                    r["seek_sum"] += abs(d)
                    r["seek_zero"] += d == 0
                    r["seek_fwd"] += d > 0
                    r["seek_bwd"] += d < 0
                    dists.append(abs(d))
                last = (s, e)
                issued.append([t, s, e])
            for b in pending:
                if b["d"] is not None or not (s <= b["s"] and b["e"] <= e):
                    continue
                if a == "I":
                    if b["m"] is None and b["i"] is None:
                        b["i"] = t
                else:
                    b["d"] = t
        elif a == "C":
            done = [b for b in pending
                    if b["d"] is not None and s <= b["s"] and b["e"] <= e]
            if done:
                r["requests"] += 1
                r["d2c_req_ns"] += t - max(b["d"] for b in done)
            for b in done:
                r["bios"] += 1
                r["q2c_ns"] += t - b["q"]
                r["d2c_ns"] += t - b["d"]
                if b["m"] is not None:
                    r["merged"] += 1
                    r["q2m_ns"] += b["m"] - b["q"]
                    r["m2d_ns"] += b["d"] - b["m"]
                elif b["i"] is not None:
                    r["inserted"] += 1
                    r["q2i_ns"] += b["i"] - b["q"]
                    r["i2d_ns"] += b["d"] - b["i"]
            pending = [b for b in pending if b not in done]
    r["issued"] = issued
    dists.sort()
    r["seek_median"] = dists[len(dists) // 2] if dists else 0
    return r


def main(argv):
    if len(argv) == 5 and argv[1] == "--dump" and argv[3] == "--dev":
        ev = events_from_dump(argv[2], int(argv[4]))
    elif len(argv) == 3 and argv[1] == "--blkparse":
        ev = events_from_blkparse(argv[2])
    else:
        sys.exit(__doc__.split("\n\n")[1])
    print(json.dumps(btt(ev), sort_keys=True))


if __name__ == "__main__":
    main(sys.argv)
