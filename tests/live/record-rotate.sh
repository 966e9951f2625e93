#!/usr/bin/env bash
# record-rotate.sh - -S SIZE --keep N rotates a long recording: OUT-0001.iorec,
# OUT-0002.iorec, ... each a complete recording that ioreport reads alone
# (integrity complete, end reason 'rotated', the last one's the stop's),
# the newest N kept.  With every file kept, the pages of the files add up
# to the pages the recorder read in all (the last file's end record): no
# page is lost or written twice at a rotation.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
"$IOREC" -h 2>&1 | grep -- '--keep' >/dev/null || skip "iorec has no --keep"

busy() {
	start_workload dd if=/dev/zero of=/dev/null bs=64 count=200000 status=none
}

# every file kept
busy
run_iorec -q -S 512k --keep 1000 -d 6 -o "$T/all.iorec" 2>"$T/all.err" ||
	{ cat "$T/all.err" >&2; fail "iorec -S 512k --keep 1000 failed"; }
stop_workload
[ -e "$T/all.iorec" ] && fail "-S with --keep wrote OUT itself, not OUT-NNNN.iorec"
mapfile -t files < <(find "$T" -maxdepth 1 -name 'all-*.iorec' | sort)
n=${#files[@]}
log "$n files of about 512 KiB"
[ "$n" -ge 3 ] || skip "workload too light here: only $n files in 6 s"
sum=0
for ((i = 0; i < n; i++)); do
	assert_eq "file name $((i + 1))" "$T/all-$(printf %04d $((i + 1))).iorec" "${files[i]}"
	info_to "${files[i]}" "$T/info"
	assert_complete "$T/info"
	reason=$(end_reason "$T/info")
	if ((i < n - 1)); then
		assert_eq "end reason of ${files[i]}" rotated "$reason"
	else
		assert_eq "end reason of the last file" duration "$reason"
	fi
	"$IOREPORT" info --json "${files[i]}" >"$T/info.json"
	pages=$(python3 -c 'import json,sys; print(sum(c["pages"] for c in json.load(open(sys.argv[1]))["cpu"]))' "$T/info.json")
	sum=$((sum + pages))
done
total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["end"]["pages"])' "$T/info.json")
log "pages in the files: $sum; read by the recorder: $total"
assert_eq "pages of all files against the pages read" "$total" "$sum"

# the newest 3 kept
busy
run_iorec -q -S 512k --keep 3 -d 12 -o "$T/k.iorec" 2>"$T/k.err" ||
	{ cat "$T/k.err" >&2; fail "iorec -S 512k --keep 3 failed"; }
stop_workload
mapfile -t kept < <(find "$T" -maxdepth 1 -name 'k-*.iorec' | sort)
[ "${#kept[@]}" = 3 ] || fail "--keep 3 left ${#kept[@]} files: ${kept[*]}"
last=${kept[2]##*-}
last=$((10#${last%.iorec}))
[ "$last" -ge 4 ] || skip "workload too light here: only $last files in 12 s"
for ((i = 0; i < 3; i++)); do
	assert_eq "kept file $((i + 1))" "$T/k-$(printf %04d $((last - 2 + i))).iorec" "${kept[i]}"
	info_to "${kept[i]}" "$T/info"
	assert_complete "$T/info"
done
finish
