#!/usr/bin/env python3
"""check-redact.py IOREPORT ORIG RED [EXTRA_NAME...]

Checks a recording RED made by `ioreport redact ORIG RED` against ORIG:

- the names of ORIG, read from ORIG itself (its snapshot's comms,
  executables, command lines, open files and mount points, its saved
  cmdlines, its header's hostname and command lines, and the comms and
  path strings of its events as `ioreport dump` prints them), plus
  EXTRA_NAMES, appear nowhere in RED: not in any view's text or JSON,
  not in `ioreport dump`, not in the decompressed bytes of any chunk;
- every view of RED has the numbers of ORIG's: the same JSON keys with the
  same numbers (as a multiset of key path and value, since rows that tie
  may sort by name), and the same numbers in the text;
- `ioreport info` of RED says it is redacted.

Names of at most 2 characters are kept by redact (there is no room for a
pseudonym), file extensions are kept (".db"), and words of ioreport's
own vocabulary or of the kernel's texts (event formats, syscall and
printk tables) are not names ("which", "addr"); so are the kernel's own words (kernel threads, /proc, /sys,
/dev paths, file systems): they are not checked, nor is "iorec" (the
recorder's name is also the format's).  Exit 0 when all holds,
1 with the first failures printed.
"""
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# processes, files and the report's lists: every row (a cut at --top ties
# by name, and names change: two processes of the same bytes and calls
# at the cut of the report's ten traded places in a busy CI recording)
VIEWS = ["summary", "devices", "processes --top 100000", "files --top 100000",
         "slow", "snoop", "wa", "fsync", "dirty", "report --top 100000"]
KTHREAD = ("kworker/", "jbd2/", "ksoftirqd/", "kswapd", "kcompactd",
           "khugepaged", "kthreadd", "rcu_", "migration/", "writeback",
           "flush-", "loop", "kdamond", "md", "dm", "kblockd", "scsi_",
           "nvme", "irq/", "ext4-", "kcryptd", "xfs", "btrfs-", "swapper/")
fails = []


def run(ioreport, args, path):
    """Exit status and output; with --json only standard output (the
    warnings on standard error are checked by the text run)."""
    p = subprocess.run([ioreport] + args.split() + [path],
                       stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE if "--json" in args.split()
                       else subprocess.STDOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def chunk_bytes(path):
    return subprocess.run([sys.executable, os.path.join(HERE,
                                                        "chunk-bytes.py"),
                           path], check=True,
                          stdout=subprocess.PIPE).stdout


def unescape(s):
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(
        m.group(1), m.group(1)), s)


def kept_path(p):
    return re.match(r"^/(proc|sys|dev)(/|$)", p) or re.match(
        r"^[a-z_]+:(\[|)", p)


def add_path(names, p):
    if kept_path(p):
        return
    p = p.replace(" (deleted)", "")
    for c in p.split("/"):
        if c not in ("", ".", ".."):
            names.add(c)


def add_words(names, text):
    for w in text.split(" "):
        if not w or re.fullmatch(r"-?[0-9]+|-[A-Za-z0-9]", w):
            continue
        w = w.lstrip("-")  # "-I./include": the option I./include
        if "/" in w:
            for part in w.split("="):
                add_path(names, part)
        else:
            names.update(x for x in re.split(r"[=]", w) if x)


def names_of(ioreport, orig):
    """The names ORIG holds, from its bytes and its events."""
    names, kthreads = set(), set()
    raw = chunk_bytes(orig).decode("utf-8", "replace")
    for line in raw.split("\n"):
        f = [unescape(x) for x in line.split("\t")]
        kind = f[0][-8:]  # a chunk's binary head may precede the first
        if kind.endswith("proc") and len(f) >= 6:
            names.add(f[3])
            if "2" in (f[1], f[2]):  # kthreadd and its children
                kthreads.add(f[3])
            add_path(names, f[4])
            add_words(names, f[5])
        elif kind.endswith("thread") and len(f) >= 4:
            names.add(f[3])
        elif kind.endswith("fd") and len(f) >= 8:
            add_path(names, f[7])
        elif kind.endswith("mount") and len(f) >= 5:
            add_path(names, f[3])
            kthreads.add(f[4])  # a file system type is the kernel's word
        elif kind.endswith("blockdev") and len(f) >= 5 and "/" in f[4]:
            add_path(names, f[4])
        elif kind.endswith("uname") and len(f) >= 6:
            names.add(f[5])
        m = re.match(r".*(hostname|cmdline|command)=(.*)", line)
        if m and m.group(2):
            if m.group(1) == "hostname":
                names.add(m.group(2))
            else:
                add_words(names, unescape(m.group(2)))
    _, dump = run(ioreport, "dump", orig)
    for m in re.finditer(r"comm=(\S+)", dump):
        names.add(m.group(1))
    for m in re.finditer(r'(?:path|filename)="?(/[^" ]*)', dump):
        add_path(names, m.group(1))
    for m in re.finditer(r"^\s*(.+)-\d+\s+\[\d+\]", dump, re.M):
        names.add(m.group(1).strip())
    # ioreport's own words ("which", "write") and the kernel's (the event
    # formats, syscall tables, printk formats: "addr") are no one's names
    vocab = set(re.findall(rb"[A-Za-z0-9_]+", open(ioreport, "rb").read()))
    vocab |= set(re.findall(rb"[A-Za-z0-9_]+", subprocess.run(
        [sys.executable, os.path.join(HERE, "chunk-bytes.py"), orig,
         "2,3,4,6,11,13"], check=True, stdout=subprocess.PIPE).stdout))
    return {n for n in names if len(n) > 2 and not n.startswith(KTHREAD)
            and n not in ("<...>", "<idle>", "iorec") and n not in kthreads
            and re.search("[A-Za-z]", n) and not all(
                t in vocab for t in re.findall(rb"[A-Za-z0-9_]+", n.encode()))}


def token_re(names):
    # a name as a whole token: not inside a longer word or pseudonym, nor
    # a file's extension (".db", ".bash": kept by design)
    alt = "|".join(re.escape(n) for n in sorted(names, key=len,
                                                reverse=True))
    return re.compile(r"(?<![A-Za-z0-9_.])(?:%s)(?![A-Za-z0-9_])" % alt)


def numbers_json(v, path="", out=None):
    if out is None:
        out = collections.Counter()
    if isinstance(v, dict):
        for k, x in v.items():
            numbers_json(x, path + "/" + k, out)
    elif isinstance(v, list):
        for x in v:
            numbers_json(x, path + "[]", out)
    elif isinstance(v, bool) or v is None:
        out[(path, repr(v))] += 1
    elif isinstance(v, (int, float)):
        out[(path, v)] += 1
    elif not path.endswith("/comms[]"):
        # a process's names: two that differ only past the 15 bytes of a
        # comm share a pseudonym, so the list may be shorter
        out[(path, "str")] += 1
    return out


# a number, not digits inside a name: \w is any letter, so "caf\u00e9123"
# holds none (a tag of digits after a letter outside ASCII did)
NUM = re.compile(r"(?<![\w./~-])-?[0-9]+(?:\.[0-9]+)?(?![\w~])")


RAW_ARGS = re.compile(r"(sys_enter: +NR -?[0-9]+) \([^)\n]*\)")


def numbers_text(t):
    return collections.Counter(NUM.findall(t))


def fail(msg):
    fails.append(msg)


def main():
    ioreport, orig, red = sys.argv[1:4]
    names = names_of(ioreport, orig) | set(sys.argv[4:])
    if not names:
        fail("no names found in %s: nothing to check" % orig)
    if os.environ.get("CHECK_REDACT_VERBOSE"):
        print(" ".join(sorted(names)))
    tok = token_re(names) if names else None
    checked = 0

    def leak(where, text):
        # the views name the file they read: the path the test gave
        text = text.replace(red, "RED")
        m = tok.search(text) if tok else None
        if m:
            s = max(0, m.start() - 60)
            fail("%s: '%s' survives: ...%s..." % (where, m.group(0),
                                               text[s:m.end() + 30]))

    for view in VIEWS:
        for js in ("", " --json"):
            rc1, a = run(ioreport, view + js, orig)
            rc2, b = run(ioreport, view + js, red)
            where = "%s%s" % (view, js)
            if rc1 != rc2:
                fail("%s: exit %d, not %d" % (where, rc2, rc1))
            leak(where, b)
            if js:
                try:
                    na, nb = (numbers_json(json.loads(x)) for x in (a, b))
                except ValueError as e:
                    fail("%s: not JSON: %s" % (where, e))
                    continue
            else:
                na, nb = numbers_text(a), numbers_text(b)
            if na != nb:
                d = list((na - nb).items())[:3] + list((nb - na).items())[:3]
                fail("%s: numbers differ: %s" % (where, d))
            checked += 1
    _, da = run(ioreport, "dump", orig)
    _, db = run(ioreport, "dump", red)
    leak("dump", db)
    # a raw sys_enter's registers that its call does not take are zeroed
    # (they hold what the program left there, text included)
    da, db = (RAW_ARGS.sub(r"\1", x) for x in (da, db))
    if numbers_text(da) != numbers_text(db):
        fail("dump: numbers differ")
    leak("chunk bytes", chunk_bytes(red).decode("latin-1"))
    # the hostname, however short
    host = re.search(rb"hostname=([^\n]*)", chunk_bytes(orig))
    rb_ = chunk_bytes(red)
    if host and host.group(1) and (b"hostname=" + host.group(1) + b"\n" in rb_
                                   or b"\t" + host.group(1) + b"\n" in rb_):
        fail("the hostname %r survives" % host.group(1))
    _, info = run(ioreport, "info", red)
    if not re.search(r"^\s*redacted:\s+yes", info, re.M):
        fail("info does not say the recording is redacted")
    _, info_o = run(ioreport, "info", orig)
    if re.search(r"redacted:", info_o):
        fail("info of the original says redacted")
    for f in fails[:8]:
        print("FAIL: %s: %s" % (os.path.basename(orig), f))
    print("%s: %d names checked in %d views, dump and chunk bytes: %s" %
          (os.path.basename(orig), len(names), checked,
           "ok" if not fails else "%d failures" % len(fails)))
    sys.exit(1 if fails else 0)


main()
