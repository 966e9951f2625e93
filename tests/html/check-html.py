#!/usr/bin/env python3
"""check-html.py IOREPORT PAGE.json PAGE.html SHOT.png RECORDING [AFTER]

Judges what check-page.js read back from the page in Chromium against
the text views of the same recordings (ioreport devices, processes,
files), which do not go through the HTML sink:

- no console error, no request but the page itself, no external URL in
  the file;
- per device: the number of request points is the uniform sample the
  page promises of the device's requests (devices: REQS); the slowest
  ringed point is the device's largest D2C (devices: MAX); the
  throughput bins add up to the device's read and write bytes, the IOPS
  bins to its requests, each bar's height proportional to its value; each
  device-time histogram has the counts of the text histogram of that
  device and operation, BEFORE's and AFTER's;
- the process and file bars are the largest values of the processes and
  files views (bytes, fsync time);
- the screenshot is not blank (decoded here: PNG, zlib, filters).
Exit 0, or 1 with the failures printed.
"""
import json
import re
import struct
import subprocess
import sys
import zlib

TL_POINTS = 4000
fails = []


def fail(m):
    fails.append(m)


def run(ioreport, *args):
    return subprocess.run([ioreport] + list(args), check=True,
                          stdout=subprocess.PIPE).stdout.decode()


def sampled(n):
    """How many of n requests timeline.c keeps (stats/timeline.h)."""
    kept, stride = 0, 1
    for i in range(n):
        if i % stride:
            continue
        if kept == TL_POINTS:
            kept, stride = TL_POINTS // 2, stride * 2
            if i % stride:
                continue
        kept += 1
    return kept


def devices_text(ioreport, rec):
    """{dev: {op: reqs, bytes, d2c_max, d2c_n, hist}} from `devices`."""
    t = run(ioreport, "devices", "--wide", rec)
    out, section, hist = {}, None, None
    for line in t.split("\n"):
        if line.startswith("devices:"):
            section = "main"
            continue
        if line.startswith("device time (issue -> complete, D2C)"):
            section = "d2c"
            continue
        if re.match(r"^\S.*:$", line) or line.startswith("queue time") or \
                line.startswith("total time"):
            section = None
        m = re.match(r"^(\S+) (\S+): device time \(issue -> complete\)", line)
        if m:
            hist = out.setdefault(m.group(1), {}).setdefault(
                m.group(2), {}).setdefault("hist", {})
            section = "hist"
            continue
        f = line.split()
        if section == "main" and len(f) >= 4 and f[0] != "DEVICE":
            d = out.setdefault(f[0], {}).setdefault(f[1], {})
            d["reqs"], d["bytes"] = int(f[2]), int(f[3])
        elif section == "d2c" and len(f) >= 9 and f[0] != "DEVICE":
            d = out.setdefault(f[0], {}).setdefault(f[1], {})
            d["d2c_n"] = int(f[2])
            d["d2c_max"] = None if f[8] == "-" else float(f[8])
        elif section == "hist":
            m = re.match(r"^\s*(\d+) -> (\d+)\s*: (\d+)", line)
            if m:
                lo = int(m.group(1))
                slot = 0 if lo <= 1 else lo.bit_length() - 1
                hist[slot] = hist.get(slot, 0) + int(m.group(3))
    return out


def table(text, first_col):
    """Rows of the table whose header starts with first_col, as dicts."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.split()[:1] == [first_col]:
            head = line.split()
            rows = []
            for r in lines[i + 1:]:
                if not r.strip():
                    break
                rows.append(dict(zip(head, r.split())))
            return rows
    return []


def png_nonwhite(path):
    """Fraction of pixels of a PNG that are not white (8-bit RGB/RGBA)."""
    b = open(path, "rb").read()
    assert b[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(b):
        n, typ = struct.unpack(">I4s", b[pos:pos + 8])
        body = b[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    nonwhite = 0
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            up = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + up) & 255
            elif ft == 3:
                line[x] = (line[x] + (a + up) // 2) & 255
            elif ft == 4:
                p = a + up - c
                pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)
                pr = a if pa <= pb and pa <= pc else up if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        for x in range(0, stride, bpp):
            if line[x] < 240 or line[x + 1] < 240 or line[x + 2] < 240:
                nonwhite += 1
        prev = line
    return nonwhite / (w * h)


def proportional(bars, what):
    """Each bar's pixel size over its value is one constant (+-0.6 px)."""
    bars = [b for b in bars if b[0] > 0]
    if not bars:
        return
    big = max(bars, key=lambda b: b[0])
    k = big[1] / big[0]
    for v, px in bars:
        if abs(v * k - px) > 0.6:
            fail("%s: a bar of %s is %.1f px, not %.1f" % (what, v, px,
                                                           v * k))
            return


def main():
    ioreport, pj, html, shot = sys.argv[1:5]
    recs = sys.argv[5:]
    page = json.load(open(pj))
    if page["errors"]:
        fail("console errors: %s" % page["errors"][:3])
    if page["requests"]:
        fail("network requests: %s" % page["requests"][:3])
    text = open(html, encoding="utf-8").read()
    m = re.search(r"(https?:|ftp:)//|(src|href)=\"//", text)
    if m:
        fail("external URL in the page: %s" % text[m.start():m.start() + 60])
    if not page["findings"]:
        fail("no findings section")
    cols = ["BEFORE", "AFTER"] if len(recs) == 2 else [recs[0]]
    dt = [devices_text(ioreport, r) for r in recs]
    checked = 0
    for d in page["devs"]:
        i = cols.index(d["column"])
        truth = dt[i].get(d["dev"])
        where = "%s %s" % (d["column"], d["dev"])
        if truth is None:
            fail("%s: no such device in ioreport devices" % where)
            continue
        n = sum(o.get("reqs", 0) for o in truth.values())
        if d["requests"] != n:
            fail("%s: %d requests, devices says %d" % (where, d["requests"],
                                                      n))
        if d["pt"] != sampled(n) or d["offset_pt"] != sampled(n):
            fail("%s: %d points (offsets %d), the sample of %d requests is %d"
                 % (where, d["pt"], d["offset_pt"], n, sampled(n)))
        mx = max((o["d2c_max"] for o in truth.values()
                  if o.get("d2c_max") is not None), default=None)
        if mx is not None and (not d["slow_ms"] or
                               abs(max(d["slow_ms"]) - mx) > 0.0006):
            fail("%s: slowest drawn %s ms, devices says %s" %
                 (where, max(d["slow_ms"] or [0]), mx))
        rb = sum(v for v, _ in d["read_bins"])
        wb = sum(v for v, _ in d["write_bins"])
        if rb != truth.get("read", {}).get("bytes", 0) or \
                wb != truth.get("write", {}).get("bytes", 0):
            fail("%s: bins hold %d read, %d written bytes; devices says %s, %s"
                 % (where, rb, wb, truth.get("read", {}).get("bytes"),
                    truth.get("write", {}).get("bytes")))
        iops = sum(v for v, _ in d["iops_bins"])
        if iops != n:
            fail("%s: IOPS bins hold %d requests, not %d" % (where, iops, n))
        proportional(d["iops_bins"], where + " IOPS")
        proportional(d["read_bins"], where + " read MB/s")
        if d["depth_points"] != len(d["iops_bins"]):
            fail("%s: queue depth has %d points for %d bins" %
                 (where, d["depth_points"], len(d["iops_bins"])))
        for hg in d["hists"]:
            m = re.match(r"(\S+): device time", hg["title"])
            if not m:
                continue
            for k, series in ((i, hg["before"]), (1, hg["after"])):
                if series is hg["after"] and (len(recs) < 2 or i == 1):
                    if series:
                        fail("%s: an AFTER histogram where none belongs" % where)
                    continue
                tr = dt[k].get(d["dev"], {}).get(m.group(1), {}).get("hist", {})
                tr = {s: c for s, c in tr.items() if c}
                got = {s: c for s, c, _ in series}
                if got != tr:
                    fail("%s %s: histogram %s, devices says %s" %
                         (where, hg["title"], got, tr))
                proportional([(c, px) for _, c, px in series],
                             where + " " + hg["title"])
            checked += 1
    # the process and file bars of the first recording's column
    procs = table(run(ioreport, "processes", "--wide", "--top", "100000", recs[0]),
                  "PID")
    want = sorted((int(r["READ(B)"]) + int(r["WRITE(B)"]) for r in procs),
                  reverse=True)
    want = [v for v in want if v > 0][:15]
    got = [v for v, _ in (page["bars"]["pbytes"] or [[]])[0]]
    if got != want:
        fail("process bytes bars %s, processes says %s" % (got[:5], want[:5]))
    proportional((page["bars"]["pbytes"] or [[]])[0], "process bytes")
    fs = sorted((float(r["FSYNC(ms)"]) for r in procs), reverse=True)
    fs = [v for v in fs if v > 0][:15]
    got = [v / 1e6 for v, _ in page["bars"]["pfsync"][0]] if \
        page["bars"]["pfsync"] else []
    if len(got) != len(fs) or any(abs(a - b) > 0.0006 for a, b in
                                  zip(got, fs)):
        fail("process fsync bars %s, processes says %s" % (got[:5], fs[:5]))
    files = table(run(ioreport, "files", "--wide", "--top", "100000", recs[0]),
                  "DEV:INO")
    want = sorted((int(r["READ(B)"]) + int(r["WRITE(B)"]) for r in files),
                  reverse=True)
    want = [v for v in want if v > 0][:15]
    got = [v for v, _ in page["bars"]["fbytes"][0]] if \
        page["bars"]["fbytes"] else []
    if got != want:
        fail("file bytes bars %s, files says %s" % (got[:5], want[:5]))
    nw = png_nonwhite(shot)
    if nw < 0.02:
        fail("the screenshot is blank (%.4f of its pixels not white)" % nw)
    for f in fails[:10]:
        print("FAIL: %s" % f)
    print("%s: %d devices, %d histograms, %d svgs, load %d ms, %.1f%% of the screenshot drawn: %s"
          % (" vs ".join(recs), len(page["devs"]), checked, page["svgs"],
             page["load_ms"], nw * 100, "ok" if not fails else "%d failures"
             % len(fails)))
    sys.exit(1 if fails else 0)


main()
