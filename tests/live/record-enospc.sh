#!/usr/bin/env bash
# record-enospc.sh - iorec writing to a full filesystem stops with exit 1
# and a "no space left" message, and what it wrote reads back.
. "$(dirname "$0")/lib.sh"
need_root_tracefs

# 8 MiB ext4 on a loop device: about 6 MiB free for the recording.
make_loop_ext4 8

# A flood of tiny syscalls, far more events than 6 MiB can hold.
start_workload dd if=/dev/zero of=/dev/null bs=16 count=200000 status=none

f=$MNT/full.iorec
rc=0
run_iorec --timeout 40 -q -d 30 -o "$f" 2>"$T/rec.err" || rc=$?
cat "$T/rec.err" >&2
[ "$rc" != 137 ] || fail "iorec did not stop within 40 s"
assert_eq "iorec exit status on a full disk" 1 "$rc"
grep -qi 'no space left' "$T/rec.err" || fail "iorec's message does not say 'no space left'"
[ "$(wc -l <"$T/rec.err")" -le 3 ] || fail "iorec printed more than a short error on ENOSPC"
log "file: $(stat -c %s "$f") bytes, df: $(df -k --output=avail "$MNT" | tail -n 1) KiB free"

info_to "$f" "$T/info" "the ENOSPC file"
line=$(info_integrity "$T/info")
log "integrity: $line"
case $line in
*corrupt*) fail "file written up to ENOSPC reads as corrupt: $line" ;;
*truncated* | *complete*) ;;
*) cat "$T/info" >&2; fail "integrity is neither truncated nor complete: '$line'" ;;
esac
n=$("$IOREPORT" dump "$f" 2>/dev/null | wc -l || true)
log "dump: $n events"
[ "$n" -gt 0 ] || fail "no events readable from the ENOSPC file"

finish
