#!/usr/bin/env python3
"""check-html.py IOREPORT PAGE.json PAGE.html SHOT.png RECORDING [AFTER]

Judges what check-page.js read back from the page in Chromium (a 1280 px
window) against the text views of the same recordings (ioreport devices,
processes, files, dirty), which do not go through the HTML sink, and
against what a person must be able to read.  Each failure starts with the
name of its check:

- load: no console error, no request but the page itself, no external
  URL in the file, a findings section; size: the file is under 3 MiB;
- width: nothing wider than the window (document scrollWidth);
- overlap / clipped / stroke: no text box over another text of its plot
  or outside its plot, no outline (stroke) on a text;
- legend: each legend swatch has marks of its series and their colour is
  the swatch's; opcolour: the marks of an operation all have one colour,
  read's is not write's; iops-read: the IOPS bins draw the device's read
  and write requests (devices: REQS) in the read and write colours;
- units: every axis with ticks says its unit in its label ("time (s)")
  or in each tick ("1 ms"), no "2^" tick; barsaxis: no numeric y axis on
  the bar charts;
- order: devices in order of the total time of their requests
  (devices: N x AVG of "total time"), the page's time within rounding;
- queue: no queue-time histogram of a device whose queue time devices
  calls not measurable;
- rate: the rate bins are at least 100 ms (or one bin), said in a note;
- heatmap: a heat map per device and side, holding every issued request
  (devices: N of "device time") in the slots of the text histogram;
- pair: the <title> and the heading name both recordings, the paired
  findings are at the top (the first section, above every device), each
  row's two sides share their scales and top; alone: no "AFTER" on the
  page; changes: the paired findings' rows are ioreport diff --json's
  (rank, gone/changed/new, rule, severity BEFORE and AFTER, significance,
  the time lost or won), a significant one marked "*" in its cell;
- pauses: the throttle pauses marked are those dirty counts;
- numbers: points, slowest request, bins, histograms and bars equal the
  text views' (as before: sample sizes, sums, proportional heights);
- script: hovering an IOPS bin shows its value (its title, with the
  bin's request count) beside the pointer, inside the window; dragging
  across a row's time plot from 25% to 50% of its frame shows that span
  of time on both sides (the same ticks, the first one at the drag's
  start) without enlarging the plot, Escape puts the ticks back;
  nojs: with scripts off the page is the same to read (as many plots,
  paired findings and tooltips, nothing wider than the window);
- the screenshot is not blank.
Exit 0, or 1 with the failures printed.
"""
import json
import os
import re
import struct
import subprocess
import sys
import zlib

TL_POINTS = 4000
TOP_BARS = 12
fails = []


def fail(check, m):
    fails.append("%s: %s" % (check, m))


def run(ioreport, *args):
    return subprocess.run([ioreport] + list(args), check=True,
                          stdout=subprocess.PIPE).stdout.decode()


def sampled(n, every=1):
    """How many of n requests timeline.c keeps (stats/timeline.h), and
    of those the page draws, 1 in every (or every one)."""
    kept, stride = 0, 1
    for i in range(n):
        if i % stride:
            continue
        if kept == TL_POINTS:
            kept, stride = TL_POINTS // 2, stride * 2
            if i % stride:
                continue
        kept += 1
    return kept if every == 1 else -(-kept // every)


def stride_of(n):
    """The timeline's stride after n requests."""
    stride = 1
    while sampled(n) < -(-n // stride):
        stride *= 2
    return stride


def devices_text(ioreport, rec):
    """{dev: {op: reqs, bytes, d2c_max, d2c_n, total_n, total_avg, hist,
    noqueue}} from `devices --wide`."""
    t = run(ioreport, "devices", "--wide", rec)
    out, section, hist, head = {}, None, None, None
    for line in t.split("\n"):
        if line.startswith("devices:"):
            section, head = "main", None
            continue
        for name, key in (("device time (issue -> complete, D2C)", "d2c"),
                          ("total time", "total"), ("queue time", "queue")):
            if line.startswith(name):
                section, head = key, None
                break
        else:
            if re.match(r"^\S.*:$", line):
                section = None
        if line.startswith(("device time (issue", "total time",
                            "queue time")):
            continue
        m = re.match(r"^(\S+) (\S+): device time \(issue -> complete\)", line)
        if m:
            hist = out.setdefault(m.group(1), {}).setdefault(
                m.group(2), {}).setdefault("hist", {})
            section = "hist"
            continue
        f = line.split()
        if f[:1] == ["DEVICE"]:
            head = f
            continue
        if not f or head is None and section != "hist":
            continue
        if section == "main" and len(f) >= 4:
            d = out.setdefault(f[0], {}).setdefault(f[1], {})
            d["reqs"], d["bytes"] = int(f[2]), int(f[3])
        elif section == "d2c" and len(f) >= 9:
            d = out.setdefault(f[0], {}).setdefault(f[1], {})
            d["d2c_n"] = int(f[2])
            d["d2c_max"] = None if f[8] == "-" else float(f[8])
        elif section == "total" and len(f) >= 4:
            d = out.setdefault(f[0], {}).setdefault(f[1], {})
            d["total_n"] = int(f[2])
            d["total_avg"] = 0.0 if f[3] == "-" else float(f[3])
        elif section == "queue" and "measurable:" in line:
            out.setdefault(f[0], {}).setdefault(f[1], {})["noqueue"] = True
        elif section == "hist":
            u = re.match(r"^\s*(usecs|msecs|secs)\s*:", line)
            if u:
                # a histogram drawn in msecs or secs (devices picks the
                # unit) has rows the page's us slots do not map onto:
                # only its count is compared
                hist["unit"] = u.group(1)
                continue
            m = re.match(r"^\s*(\d+) -> (\d+)\s*: (\d+)", line)
            if m:
                lo = int(m.group(1))
                slot = 0 if lo <= 1 else lo.bit_length() - 1
                hist[slot] = hist.get(slot, 0) + int(m.group(3))
    return out


SNOOP = {}


def snoop_slots(ioreport, rec):
    """{dev: {slot: requests}}: every issued request of `snoop --json` by
    the log2 slot of its device time in us (slot 0 also under 1 us, the
    last of 24 also above)."""
    if rec not in SNOOP:
        out = {}
        for r in json.loads(run(ioreport, "snoop", "--json", rec))["requests"]:
            if not r.get("issue_ns"):
                continue
            us = r["d2c_ns"] // 1000
            slot = min(max(us.bit_length() - 1, 0), 23)
            d = out.setdefault(r["device"], {})
            d[slot] = d.get(slot, 0) + 1
        SNOOP[rec] = out
    return SNOOP[rec]


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
            fail("numbers", "%s: a bar of %s is %.1f px, not %.1f" %
                 (what, v, px, v * k))
            return


UNIT = re.compile(r"\((s|ms|us|B|KiB|MiB|GiB|TiB|[KMGT]?i?B/s|requests|"
                  r"requests/s|count|log2 buckets|log scale)\)$")
TICK_UNIT = re.compile(r"^-?[\d.]+ (us|ms|s)$")


def layout(page, recs):
    """The checks of what a person sees."""
    if page["scroll_width"] > page["inner_width"]:
        fail("width", "the page is %d px wide in a %d px window (widest: %s)"
             % (page["scroll_width"], page["inner_width"], page["widest"]))
    for o in page["overlaps"][:5]:
        fail("overlap", "in '%s' the text '%s' lies over '%s'" % tuple(o))
    for c in page["clipped"][:5]:
        fail("clipped", "in '%s' the text '%s' %s leaves its plot %s" %
             tuple(c))
    for s in page["leaks"][:3]:
        fail("stroke", "in '%s' the text '%s' has an outline %s" % tuple(s))
    for plot, text, want, nmarks, bad, scale in page["legend"]:
        if not nmarks and not scale:
            fail("legend", "'%s': legend '%s' names no mark" % (plot, text))
        elif bad:
            fail("legend", "'%s': legend '%s' is %s, its marks %s" %
                 (plot, text, want, bad))
    colours = {}
    for op, c in page["opmarks"]:
        colours.setdefault(op, set()).add(c)
    for op, cs in colours.items():
        if len(cs) > 1:
            fail("opcolour", "%s marks in %d colours: %s" %
                 (op, len(cs), sorted(cs)))
    if colours.get("read") and colours.get("read") == colours.get("write"):
        fail("opcolour", "read and write marks in the same colour")
    for plot, ax, lab, ticks in page["axes"]:
        if any("^" in t for t in ticks):
            fail("units", "'%s' %s ticks are powers: %s" % (plot, ax,
                                                           ticks[:3]))
        elif not (lab and UNIT.search(lab)) and \
                not (ticks and all(TICK_UNIT.match(t) for t in ticks)):
            fail("units", "'%s': the %s axis '%s' (ticks %s) has no unit" %
                 (plot, ax, lab, ticks[:3]))
    for c, charts in page["bars"].items():
        for ch in charts:
            if ch["yticks"]:
                fail("barsaxis", "the %s bar chart has a numeric y axis" % c)
    if len(recs) == 2:
        if not all(os.path.basename(r) in page["title"] for r in recs):
            fail("pair", "the title '%s' does not name both recordings" %
                 page["title"])
        if not page["paired"]:
            fail("pair", "no paired findings (gone/changed/new) at the top")
        if not all(r in page["h1"] for r in recs):
            fail("pair", "the heading '%s' does not name both recordings" %
                 page["h1"])
        if not page["first_h2"].startswith("what changed") or \
           not 0 <= page["findings_top"] < page["device_top"]:
            fail("pair", "the paired findings are not the first thing: first "
                 "section '%s', at %d px, the first device at %d px" %
                 (page["first_h2"], page["findings_top"], page["device_top"]))
        if not page["rows"]:
            fail("pair", "no rows of BEFORE and AFTER")
        for r in page["rows"]:
            if r["sides"] != ["BEFORE", "AFTER"]:
                fail("pair", "row '%s' has sides %s" % (r["metric"],
                                                        r["sides"]))
                continue
            if r["tops"][0] != r["tops"][1]:
                fail("pair", "row '%s': BEFORE at %d px, AFTER at %d px" %
                     (r["metric"], r["tops"][0], r["tops"][1]))
            a, b = r["scales"]
            if a and b and a != b:
                fail("pair", "row '%s': BEFORE's scales %s, AFTER's %s" %
                     (r["metric"], a, b))
    elif page["text_after"]:
        fail("pair", "the page of one recording speaks of AFTER (%s)" %
             page["footer"][:80])


def devices(ioreport, page, recs):
    """The device plots against `ioreport devices`."""
    dt = [devices_text(ioreport, r) for r in recs]
    side_ix = {"ONE": 0, "BEFORE": 0, "AFTER": 1}
    checked = 0
    # the order: the total time of the requests, largest first
    lost = {}
    for dev, ops in dt[0].items():
        lost[dev] = sum(o.get("total_n", 0) * o.get("total_avg", 0) * 1e6
                        for o in ops.values())
    order = [d["dev"] for d in page["devs"]]
    want = sorted((d for d in lost if any(o.get("reqs") for o in
                                          dt[0][d].values())),
                  key=lambda d: -lost[d])
    if order[:len(want)] != want:
        fail("order", "devices in the order %s, by time lost %s (%s)" %
             (order, want, ", ".join("%s %.0f ms" % (d, lost[d] / 1e6)
                                     for d in want)))
    for d in page["devs"]:
        if d["dev"] in lost and d.get("lost_ns") is not None and \
                abs(d["lost_ns"] - lost[d["dev"]]) > 0.001 * lost[d["dev"]] + 1e6:
            fail("order", "%s: %.3f ms of request time, devices says %.3f" %
                 (d["dev"], d["lost_ns"] / 1e6, lost[d["dev"]] / 1e6))
    for d in page["devs"]:
        for side, s in d["sides"].items():
            i = side_ix.get(side, 0)
            truth = dt[i].get(d["dev"])
            where = "%s %s" % (side, d["dev"])
            if truth is None:
                fail("numbers", "%s: no such device in ioreport devices" %
                     where)
                continue
            n = sum(o.get("reqs", 0) for o in truth.values())
            m = re.search(r"(\d+) of (\d+) requests drawn \(1 in (\d+)",
                          s.get("lat_note") or "")
            every = int(m.group(3)) // stride_of(n) if m else 1
            want = sampled(n, every)
            if not m or int(m.group(1)) != want or int(m.group(2)) != n:
                fail("numbers", "%s: the note says '%s', the sample of %d "
                     "requests is %d" % (where, m and m.group(0), n, want))
            if s["pt"] != want or s["offset_pt"] != want:
                fail("numbers", "%s: %d points (offsets %d), the sample of "
                     "%d requests is %d" % (where, s["pt"], s["offset_pt"],
                                            n, want))
            mx = max((o["d2c_max"] for o in truth.values()
                      if o.get("d2c_max") is not None), default=None)
            if mx is not None and (not s["slow_ms"] or
                                   abs(max(s["slow_ms"]) - mx) > 0.0006):
                fail("numbers", "%s: slowest drawn %s ms, devices says %s" %
                     (where, max(s["slow_ms"] or [0]), mx))
            rb = sum(v for v, _ in s["read_bins"])
            wb = sum(v for v, _ in s["write_bins"])
            if rb != truth.get("read", {}).get("bytes", 0) or \
                    wb != truth.get("write", {}).get("bytes", 0):
                fail("numbers", "%s: bins hold %d read, %d written bytes; "
                     "devices says %s, %s" % (where, rb, wb,
                                              truth.get("read", {}).get("bytes"),
                                              truth.get("write", {}).get("bytes")))
            iops = sum(v for v, _ in s["iops_bins"])
            if iops != n:
                fail("numbers", "%s: IOPS bins hold %d requests, not %d" %
                     (where, iops, n))
            nr = truth.get("read", {}).get("reqs", 0)
            nw = truth.get("write", {}).get("reqs", 0)
            if s["iops_read"] != nr or s["iops_write"] != nw:
                fail("iops-read", "%s: IOPS bins draw %d requests as read "
                     "and %d as write; devices says %d reads, %d writes" %
                     (where, s["iops_read"], s["iops_write"], nr, nw))
            proportional(s["iops_bins"], where + " IOPS")
            proportional(s["read_bins"], where + " read MB/s")
            m = re.search(r"(\d+) bins of ([\d.]+) (us|ms|s)\b",
                          s.get("bin_note") or "")
            if not m:
                fail("rate", "%s: the rate plots do not say their bin width"
                     % where)
            else:
                w = float(m.group(2)) * {"us": 1e-6, "ms": 1e-3,
                                         "s": 1}[m.group(3)]
                if w < 0.1 and int(m.group(1)) > 1:
                    fail("rate", "%s: rates over bins of %s %s" %
                         (where, m.group(2), m.group(3)))
            if not s.get("heatmap"):
                fail("heatmap", "%s: no latency heat map" % where)
            else:
                slots = {}
                for sl, c in s["heat"]:
                    slots[sl] = slots.get(sl, 0) + c
                tr = snoop_slots(ioreport, recs[i]).get(d["dev"], {})
                if slots != tr:
                    fail("heatmap", "%s: heat map slots %s, snoop's "
                         "requests %s" % (where, slots, tr))
        for hg in d["hists"]:
            m = re.match(r"(?:\S+ )?(\S+): (device|queue) time", hg["title"])
            if not m:
                fail("units", "%s: histogram '%s'" % (d["dev"], hg["title"]))
                continue
            if m.group(2) == "queue":
                if any(dt[i].get(d["dev"], {}).get(m.group(1), {})
                       .get("noqueue") for i in range(len(recs))):
                    fail("queue", "%s: a queue-time histogram where devices "
                         "says not measurable" % d["dev"])
                continue
            for k, series in ((0, hg["before"]), (1, hg["after"])):
                if k >= len(recs):
                    if series:
                        fail("numbers", "%s: an AFTER histogram where none "
                             "belongs" % d["dev"])
                    continue
                tr = dt[k].get(d["dev"], {}).get(m.group(1), {}).get("hist", {})
                unit = tr.get("unit", "usecs")
                tr = {sl: c for sl, c in tr.items() if sl != "unit" and c}
                got = {sl: c for sl, c, _ in series}
                if unit != "usecs":
                    got, tr = sum(got.values()), sum(tr.values())
                if got != tr:
                    fail("numbers", "%s %s: histogram %s, devices says %s" %
                         (d["dev"], hg["title"], got, tr))
                proportional([(c, px) for _, c, px in series],
                             d["dev"] + " " + hg["title"])
            checked += 1
    return checked


def changes(ioreport, page, recs):
    """The paired findings against ioreport diff --json's."""
    if len(recs) != 2:
        return
    d = json.loads(run(ioreport, "diff", "--json", "--top", "1000", *recs))
    want = []
    for c in d["findings"]:
        sig = ("not tested" if c["significance"] is None else
               "significant" if c["significant"] else "noise")
        want.append((c["rank"], c["change"], c["rule"],
                     c.get("rule_before") or "", c.get("rule_after") or "",
                     c["severity_before"] or "-", c["severity_after"] or "-",
                     sig, c["delta_lost_ns"]))
    got = [(r["rank"], r["change"], r["rule"], r.get("rule_before") or "",
            r.get("rule_after") or "", r["sev_before"],
            r["sev_after"], r["signif"], r["delta_ns"])
           for r in page["changes"]]
    # diff prints its top 5; the page all of them, the same first
    if not want or got[:len(want)] != want:
        fail("changes", "the page's paired findings %s, ioreport diff's %s" %
             (got[:len(want)], want))
    for r in page["changes"]:
        cell = r["cells"][4] if len(r["cells"]) > 4 else ""
        if not cell.startswith(("* " if r["signif"] == "significant" else "")
                               + r["signif"]):
            fail("changes", "row %d: significance cell '%s' for %s" %
                 (r["rank"], cell, r["signif"]))
        rb, ra = r.get("rule_before") or "", r.get("rule_after") or ""
        two = "%s \u2192 %s" % (rb, ra) if rb and ra and rb != ra else r["rule"]
        if r["cells"][2] != two:
            fail("changes", "row %d: finding cell '%s', not '%s'" %
                 (r["rank"], r["cells"][2], two))
        if r["cells"][3] != "%s \u2192 %s" % (r["sev_before"], r["sev_after"]):
            fail("changes", "row %d: severity cell '%s'" % (r["rank"],
                                                             r["cells"][3]))


def script(page):
    """The hover, the zoom, and the page with scripts off."""
    it = page.get("inter", {})
    h = it.get("hover")
    if h is not None:
        if not h["shown"] or h["tip"] != h["title"] or \
           "%d requests" % h["n"] not in (h["tip"] or ""):
            fail("script", "hover on an IOPS bin of %d requests shows %r "
                 "(its title %r)" % (h["n"], h["tip"], h["title"]))
        if h["right"] > page["inner_width"]:
            fail("script", "the hover box ends at %d px" % h["right"])
    z = it.get("zoom")
    if z is not None:
        t = z["ticks"]
        if len(t) == 2 and t[0] != t[1]:
            fail("script", "after a drag the sides' time ticks differ: %s" % t)
        try:
            first = float(t[0][0])
        except (ValueError, IndexError):
            first = float("nan")
        span = z["to"] - z["from"]
        if not abs(first - z["from"]) <= 0.02 * span + 0.0005 or \
           t == it["ticks0"]:
            fail("script", "a drag over %.3f-%.3f s shows ticks %s" %
                 (z["from"], z["to"], t[0]))
        if z["enlarged"]:
            fail("script", "a drag enlarged the plot")
        if it["ticks_reset"] != it["ticks0"]:
            fail("script", "Escape leaves ticks %s, not %s" %
                 (it["ticks_reset"][0], it["ticks0"][0]))
    n = it.get("nojs")
    if n is None:
        fail("nojs", "the page was not read with scripts off")
        return
    if n["scroll_width"] > page["inner_width"] or not n["findings"] or \
       n["svgs"] != page["svgs"] or n["changes"] != len(page["changes"]) or \
       n["tip"] or not n["titles"]:
        fail("nojs", "with scripts off: %s (with them: %d svgs, %d changes)"
             % (n, page["svgs"], len(page["changes"])))


def bars(ioreport, page, recs):
    """The process and file bars of the first recording."""
    def first(c):
        for ch in page["bars"].get(c, []):
            if ch["side"] in ("ONE", "BEFORE"):
                return ch["bars"]
        return []
    procs = table(run(ioreport, "processes", "--wide", "--top", "100000",
                      recs[0]), "PID")
    want = sorted((int(r["READ(B)"]) + int(r["WRITE(B)"]) for r in procs),
                  reverse=True)
    want = [v for v in want if v > 0][:TOP_BARS]
    got = [v for v, _ in first("pbytes")]
    if got != want:
        fail("numbers", "process bytes bars %s, processes says %s" %
             (got[:5], want[:5]))
    proportional(first("pbytes"), "process bytes")
    fs = sorted((float(r["FSYNC-SUM(ms)"]) for r in procs), reverse=True)
    fs = [v for v in fs if v > 0][:TOP_BARS]
    got = [v / 1e6 for v, _ in first("pfsync")]
    if len(got) != len(fs) or any(abs(a - b) > 0.0006 for a, b in
                                  zip(got, fs)):
        fail("numbers", "process fsync bars %s, processes says %s" %
             (got[:5], fs[:5]))
    files = table(run(ioreport, "files", "--wide", "--top", "100000",
                      recs[0]), "DEV:INO")
    want = sorted((int(r["READ(B)"]) + int(r["WRITE(B)"]) for r in files),
                  reverse=True)
    want = [v for v in want if v > 0][:TOP_BARS]
    got = [v for v, _ in first("fbytes")]
    if got != want:
        fail("numbers", "file bytes bars %s, files says %s" % (got[:5],
                                                              want[:5]))


def pauses(ioreport, page, recs):
    for i, rec in enumerate(recs):
        m = re.search(r"(\d+) events, (\d+) paused", run(ioreport, "dirty",
                                                         rec))
        want = int(m.group(2)) if m else 0
        side = ("BEFORE", "AFTER")[i] if len(recs) == 2 else "ONE"
        got = sum(n for s, n in page["pauses"] if s == side)
        if got != want:
            fail("pauses", "%s: %d throttle pauses marked, dirty says %d" %
                 (rec, got, want))


def main():
    ioreport, pj, html, shot = sys.argv[1:5]
    recs = sys.argv[5:]
    page = json.load(open(pj))
    if page["errors"]:
        fail("load", "console errors: %s" % page["errors"][:3])
    if page["requests"]:
        fail("load", "network requests: %s" % page["requests"][:3])
    text = open(html, encoding="utf-8").read()
    m = re.search(r"(https?:|ftp:)//|(src|href)=\"//", text)
    if m:
        fail("load", "external URL in the page: %s" %
             text[m.start():m.start() + 60])
    if not page["findings"]:
        fail("load", "no findings section")
    size = os.path.getsize(html)
    if size >= 3 * 1024 * 1024:
        fail("size", "the page is %d bytes, not under 3 MiB" % size)
    layout(page, recs)
    checked = devices(ioreport, page, recs)
    bars(ioreport, page, recs)
    changes(ioreport, page, recs)
    script(page)
    pauses(ioreport, page, recs)
    nw = png_nonwhite(shot)
    if nw < 0.02:
        fail("blank", "the screenshot is blank (%.4f of its pixels not "
             "white)" % nw)
    for f in fails[:25]:
        print("FAIL: %s" % f)
    if len(fails) > 25:
        print("FAIL: ... %d more" % (len(fails) - 25))
    print("%s: %d devices, %d histograms, %d svgs, %d bytes, load %d ms, "
          "%.1f%% of the screenshot drawn: %s"
          % (" vs ".join(recs), len(page["devs"]), checked, page["svgs"],
             size, page["load_ms"], nw * 100,
             "ok" if not fails else "%d failures (%s)" %
             (len(fails), ", ".join(sorted(set(f.split(":")[0]
                                               for f in fails))))))
    sys.exit(1 if fails else 0)


main()
