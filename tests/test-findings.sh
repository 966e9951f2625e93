#!/usr/bin/env bash
# test-findings.sh - the story samples give the findings their authors
# reached (samples/README.md): 000, hass's database and WAL on the slow
# card, whose small scattered writes wait in the device; 001, a flush per
# fsync from ext4's barriers, named with the mount option, gone with
# barrier=0; 002, dd throttled by balance_dirty_pages at the thresholds
# vm.dirty_bytes and vm.dirty_background_bytes set.  And the diff of
# 001 judges the fsync latency and the flushes beyond noise.
set -u
cd "$top_srcdir" || exit 1
export LC_ALL=C
fail=0
bad() { echo "FAIL: $*"; fail=1; }
command -v python3 >/dev/null || { echo "SKIP: python3 needed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check SAMPLE NAME PYTHON-EXPR: the expression over the findings of
# SAMPLE (tests/findings-query.py says what it sees) must be true
check() {
	local s=samples/$1.iorec
	[ -f "$tmp/$1.json" ] || "$IOREPORT" findings --json "$s" >"$tmp/$1.json" ||
		{ bad "ioreport findings --json $s failed"; return; }
	python3 tests/findings-query.py "$tmp/$1.json" "$3" >/dev/null || bad "$1: $2"
}

# story 000: the card (loop1) with hass's .db and .db-wal
check story000-sqlite-before "the card's small scattered writes, slow in the device, hass's on the .db" \
	"(x := one('small-scattered-writes', device='loop1', process='hass')) and x['numbers']['d2c_p90_ns'] > 20e6 and any(n.endswith('home-assistant_v2.db') for n in names(x, 'file')) and 'not queueing' in x['sentence']"
check story000-sqlite-before "hass's fsyncs on its .db and .db-wal on the card" \
	"(x := one('fsync', process='hass', device='loop1')) and any(n.endswith('.db') for n in names(x, 'file')) and any(n.endswith('.db-wal') for n in names(x, 'file'))"
check story000-sqlite-before "the slow card ranks first" \
	"[x['rule'] for x in f if not x['caveat']][0] == 'small-scattered-writes'"
check story000-sqlite-after "after the cleanup the card is no longer slow" \
	"not one('small-scattered-writes', device='loop1') and not one('slow-device', device='loop1')"
# story 001: barriers, a flush per fsync, the mount option
check story001-barrier "the flushes of loop0, one per fsync, from the mount with barriers on" \
	"(x := one('flushes', device='loop0')) and 0.9 <= x['numbers']['flushes_per_fsync'] <= 1.5 and 'mounted with barriers on' in x['sentence'] and names(x, 'mount')"
check story001-barrier "bcfg2-server's fsyncs on loop0" \
	"(x := one('fsync', process='bcfg2-server', device='loop0')) and x['numbers']['fsync_calls'] == 1204"
check story001-nobarrier "no flushes without barriers" "not one('flushes', device='loop0')"
# story 002: dd throttled, at the thresholds the sysctls set
check story002-dirty-default "dd throttled below vm.dirty_bytes' threshold" \
	"(x := one('dirty-throttling', process='dd')) and x['numbers']['paused_ns'] > 0 and abs(x['numbers']['dirty_thresh_bytes'] - 106954752) < 0.02 * 106954752 and 'vm.dirty_bytes=106954752' in names(x, 'sysctl') and 'vm.dirty_background_bytes=53477376' in names(x, 'sysctl')"
check story002-dirty-tuned "the tuned background threshold" \
	"(x := one('dirty-throttling', process='dd')) and abs(x['numbers']['background_thresh_bytes'] - 80740352) < 0.02 * 80740352"

# the diff of story 001: fsync latency and flushes beyond noise
"$IOREPORT" diff --json samples/story001-barrier.iorec samples/story001-nobarrier.iorec >"$tmp/d.json" ||
	bad "ioreport diff --json failed"
python3 - "$tmp/d.json" <<'PY' || bad "story 001 diff: fsync latency or flushes not significant, or a same-count metric significant"
import json, sys
j = json.load(open(sys.argv[1]))
s = j['sections']
def row(sec, key):
    return [r for r in s[sec] if r['key'] == key][0]['metrics']
p = row('processes', 'bcfg2-server')
w = row('write_amplification', 'loop0')
ok = p['fsync_p50_ns']['significant'] is True and p['fsync_p50_ns']['test'] == 'mann-whitney-u'
ok = ok and w['flushes']['significant'] is True and w['flushes']['test'] == 'poisson-rate'
# the same 1204 fsyncs on both sides are no change
ok = ok and p['fsyncs']['significant'] is False and p['fsyncs']['p'] > 0.5
# bytes are not tested
ok = ok and p['write_bytes']['significant'] is None
sys.exit(0 if ok else 1)
PY
exit $fail
