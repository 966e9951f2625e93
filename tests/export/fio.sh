#!/usr/bin/env bash
# fio.sh - `ioreport export --fio`: a recorded writer with a known pattern
# (34 pwrites of 4096 bytes, an fsync after every 8 of the first 32, an
# fdatasync after each of the last 2) replayed by fio on a loop ext4: the
# recording holds that pattern (its sys_exit events in 'ioreport dump
# --json'), the writer's iolog replays it, and fio's own counts of the
# replay (its JSON: write ios and bytes, syncs) equal the recording's, the
# file it wrote has the recorded size.  A child then writes another file:
# the export of -p CHILD holds only its calls, of -f GLOB only that
# file's, and --per-file gives one iolog per file.  Needs root, tracefs and fio
# (scripts/install-deps.sh); skipped otherwise.  On a sample (no root
# needed): every iolog starts with the version 3 line, its timestamps
# never go back, its files are added and opened before use, and
# replay.fio names one job per iolog.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
need_cmd python3
[ -x "$IOREPORT" ] || fail "$IOREPORT not built"

# the iologs' shape, on a sample
d=$T/sample
"$IOREPORT" export --fio "$d" "$top_srcdir/samples/story000-sqlite-before.iorec" 2>"$T/s.err" ||
	fail "export --fio on a sample: $(cat "$T/s.err")"
python3 - "$d" <<'EOF2' || fail "sample iologs: see above"
import os, re, sys
d = sys.argv[1]
logs = sorted(f for f in os.listdir(d) if f.endswith('.iolog'))
assert logs, 'no iolog'
job = open(os.path.join(d, 'replay.fio')).read()
for f in logs:
    lines = open(os.path.join(d, f)).read().splitlines()
    assert lines[0] == 'fio version 3 iolog', '%s: first line %r' % (f, lines[0])
    last, added, opened = 0, set(), set()
    for l in lines[1:]:
        p = l.split(' ')
        ts = int(p[0])
        assert ts >= last, '%s: time goes back: %s' % (f, l)
        last = ts
        if p[2] == 'add':
            added.add(p[1])
        elif p[2] == 'open':
            assert p[1] in added, '%s: open before add: %s' % (f, l)
            opened.add(p[1])
        elif p[2] == 'close':
            assert p[1] in opened, '%s: close before open: %s' % (f, l)
        else:
            assert p[2] in ('read', 'write', 'sync', 'datasync', 'trim') and len(p) == 5, '%s: bad line %s' % (f, l)
            assert p[1] in opened, '%s: I/O before open: %s' % (f, l)
    assert 'read_iolog=${IOLOGS}/%s\n' % f in job, 'replay.fio has no job for %s' % f
print('%d iologs' % len(logs))
EOF2
log "ok: sample: $(ls "$d" | grep -c '\.iolog$') iologs of the version 3 shape, a job each in replay.fio"

[ "$(id -u)" = 0 ] || { log "PASS (sample only: the replay needs root)"; exit 0; }
need_root_tracefs
need_cmd fio
need_event syscalls:sys_enter_pwrite64 syscalls:sys_enter_fsync syscalls:sys_enter_fdatasync
make_loop_ext4 64
f=$MNT/known.db
# the writer's 32 pwrites of 4096 bytes to known.db with an fsync after
# every 8, 2 more each with an fdatasync, and its child's 5 to other.db
record_known() {	# [IOREC-OPTION...]
	rm -f "$MNT/known.db" "$MNT/other.db"
	run_iorec -q "$@" -o "$T/known.iorec" -- \
		python3 "$top_srcdir/tests/export/writer.py" "$f" 32 8 2 "$MNT/other.db" 2>"$T/known.err" ||
		fail "iorec failed: $(tail -n 3 "$T/known.err")"
}
# fail_cmp: the comparison's complaint, and what ioreport info says of
# the recording's integrity and losses
fail_cmp() {
	fail "$(cat "$T/cmp"); ioreport info: $("$IOREPORT" info "$T/known.iorec" 2>&1 |
		grep -iE 'integrity|lost|damag|overrun|dropped' | tr -s ' \n' ' ')"
}
# a loaded machine can overrun the ring buffer; the recording then says
# so, and the pattern is recorded again with buffers 8 times as large
# (events missing from a recording that says it lost none fail below)
record_whole "$T/known.iorec" record_known
lost=$(lost_events "$T/known.iorec") || fail "ioreport info --json on the recording failed"
"$IOREPORT" dump --json --raw "$T/known.iorec" >"$T/known.dump" 2>/dev/null || fail "dump failed"
out=$T/replay
"$IOREPORT" export --fio "$out" "$T/known.iorec" 2>"$T/x.err" || fail "export --fio: $(cat "$T/x.err")"
log "export: $(cat "$T/x.err")"
job=$(grep -l ' f[0-9]*-known\.db add$' "$out"/*.iolog | head -n 1)
[ -n "$job" ] || fail "no iolog writes known.db: $(ls "$out")"
job=$(basename "$job" .iolog)
pid=${job%%-*}
mkdir "$MNT/replay"
# the files this job reads, laid out first (the others' are not needed)
lay=()
for n in $(awk '$3 == "read" { print $2 }' "$out/$job.iolog" | sort -u); do
	lay+=(--section="layout-$n")
done
(cd "$MNT/replay" && export IOLOGS=$out &&
	{ [ ${#lay[@]} = 0 ] || fio "${lay[@]}" "$out/layout.fio" >/dev/null; } &&
	fio --output-format=json --output="$T/fio.json" --section="$job" \
	"$out/replay.fio") >"$T/fio.log" 2>&1 ||
	fail "fio failed: $(tail -n 5 "$T/fio.log") $(head -c 600 "$T/fio.json" 2>/dev/null)"
LOST=$lost python3 - "$T/known.dump" "$pid" "$T/fio.json" "$job" "$MNT/replay" >"$T/cmp" 2>&1 <<'EOF2' || fail_cmp
import glob, json, os, sys
dump, pid, fio, job, rdir = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
ev = [e for e in json.load(open(dump))['events'] if e.get('pid') == pid]
def exits(name):
    return [e['fields']['ret'] for e in ev
            if e.get('event') == 'sys_exit_' + name]
# the writer's own calls (its other writes, to stdout or pipes, are no file I/O)
enter = [e for e in ev if e.get('event') == 'sys_enter_pwrite64']
pw = exits('pwrite64')
rec = {'writes': len(pw), 'write_bytes': sum(pw),
       'syncs': len(exits('fsync')) + len(exits('fdatasync'))}
want = {'writes': 34, 'write_bytes': 34 * 4096, 'syncs': 6}
if rec != want:
    sys.exit('the recording holds %s, the writer made %s (it says it lost %s events)'
             % (rec, want, os.environ.get('LOST', '?')))
j = [x for x in json.load(open(fio))['jobs'] if x['jobname'] == job]
if len(j) != 1:
    sys.exit('fio ran no job %s' % job)
j = j[0]
got = {'writes': j['write']['total_ios'], 'write_bytes': j['write']['io_bytes'],
       'syncs': j['sync']['total_ios']}
if j['error'] or got != rec:
    sys.exit('fio replayed %s (error %d), the recording has %s' % (got, j['error'], rec))
size = [os.path.getsize(p) for p in glob.glob(os.path.join(rdir, 'f*-known.db'))]
if size != [34 * 4096]:
    sys.exit('the replayed file has sizes %s, not [%d]' % (size, 34 * 4096))
print('recording = fio replay: %s; the file %d bytes' % (got, size[0]))
EOF2
log "ok: $(cat "$T/cmp")"

# the view filters and --per-file: each export holds exactly the calls of
# the process or file asked, as the writers made them
child=$(grep -l ' f[0-9]*-other\.db add$' "$out"/*.iolog | head -n 1)
child=$(basename "${child:-x}" .iolog)
child=${child%%-*}
[ "$child" -gt 0 ] 2>/dev/null || fail "no iolog writes other.db: $(ls "$out")"
iolog_counts() {	# DIR: "FILE writes bytes syncs" per iolog file name
	awk '$3 == "write" { w[FILENAME" "$2]++; b[FILENAME" "$2] += $5 }
	     $3 == "sync" { s[FILENAME" "$2]++ }
	     $3 == "add" { a[FILENAME" "$2] = 1 }
	     END { for (k in a) { split(k, p, " "); n = p[1]; sub(".*/", "", n);
		   printf "%s %s %d %d %d\n", n, p[2], w[k], b[k], s[k] } }' "$1"/*.iolog | sort
}
"$IOREPORT" export -q --fio "$T/onep" -p "$child" "$T/known.iorec" 2>"$T/x.err" || fail "export --fio -p: $(cat "$T/x.err")"
got=$(iolog_counts "$T/onep" | sed 's/^[^ ]* f[0-9]*-/ /')
[ "$got" = " other.db 5 40960 1" ] || fail "export --fio -p $child (the child): $got, not other.db 5 writes of 40960 B and 1 sync"
"$IOREPORT" export --fio "$T/onef" -f '*/known.db' "$T/known.iorec" 2>"$T/x.err" || fail "export --fio -f: $(cat "$T/x.err")"
grep -q '^filter: file \*/known.db; kept .*[0-9]* of [0-9]* syscalls$' "$T/x.err" || fail "export --fio -f said: $(cat "$T/x.err")"
got=$(iolog_counts "$T/onef" | sed 's/^[^ ]* f[0-9]*-/ /')
[ "$got" = " known.db 34 139264 6" ] || fail "export --fio -f '*/known.db': $got, not known.db 34 writes of 139264 B and 6 syncs"
"$IOREPORT" export -q --fio "$T/perf" --per-file -f "$MNT/*" "$T/known.iorec" 2>"$T/x.err" || fail "export --fio --per-file: $(cat "$T/x.err")"
got=$(iolog_counts "$T/perf" | awk '{ n = $1; sub(/^f[0-9]*-/, "", n); sub(/\.iolog$/, "", n); m = $2; sub(/^f[0-9]*-/, "", m); print n, m, $3, $4, $5 }' | sort)
want=$(printf 'known.db known.db 34 139264 6\nother.db other.db 5 40960 1')
[ "$got" = "$want" ] || fail "export --fio --per-file: iologs $(echo $got), not one per file: $(echo $want)"
grep -q '^read_iolog=${IOLOGS}/f[0-9]*-known.db.iolog$' "$T/perf/replay.fio" &&
	grep -q '^read_iolog=${IOLOGS}/f[0-9]*-other.db.iolog$' "$T/perf/replay.fio" ||
	fail "replay.fio of --per-file has no job per file: $(grep read_iolog "$T/perf/replay.fio")"
log "ok: -p child: other.db 5 writes, 40960 B, 1 sync; -f known.db: 34 writes, 139264 B, 6 syncs; --per-file: one iolog and job per file"
log "PASS"
