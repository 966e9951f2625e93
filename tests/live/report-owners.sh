#!/usr/bin/env bash
# report-owners.sh - processes attributed to their cgroup, systemd unit,
# container and mount namespace, with the bytes each wrote as the truth.
# The test makes its cgroups (under the cgroup v2 root, else under the v1
# pids hierarchy) with the names systemd and the container runtimes give
# theirs, and fakes the runtimes' state on the host (Docker's
# config.v2.json, Podman's containers.json) under a root given to iorec by
# IOREC_CONTAINER_STATE_ROOT:
#   unit      a shell moved into .../iorec-wN.service before the recording
#             (start snapshot), which then execs dd (3 MiB);
#   docker    a shell that moves itself into .../docker-ID.scope during
#             the recording (cgroup_attach_task) and forks dd (2 MiB);
#   podman    a shell in .../libpod-ID.scope from before the recording,
#             forking dd (1 MiB);
#   mntns     dd in its own mount namespace (unshare -m) writing through a
#             bind mount standing in for a container volume (1.5 MiB):
#             its file shows the path inside and the host path.
# Each filter (--unit, --container by name and by id, --cgroup) keeps its
# writer's file with exactly its bytes and no other writer's file, and
# processes --by unit|container|cgroup sums each group's writers' bytes
# exactly (and every group is the sum of its processes' rows), as do wa
# --by (application write bytes), fsync --by (each dd's one fsync) and
# files --by (each group's writer's file, its bytes and fsync):
# 0 wrong attributions.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event syscalls:sys_enter_write
need_cmd unshare mount

# cgkey: how --by cgroup names the test's namespace cgroup (on v1 one of
# the hierarchies not at their root, "pids:PATH")
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	CGFS=/sys/fs/cgroup		# v2
	cgpre=
elif [ -d /sys/fs/cgroup/pids ]; then
	CGFS=/sys/fs/cgroup/pids	# v1
	cgpre=pids:
else
	skip "no cgroup v2 root and no cgroup v1 pids hierarchy mounted"
fi
top=iorec-t$$.slice
unit=iorec-w$$.service
did=$(printf 'docker %s' $$ | sha256sum | cut -c1-64)	# 64 hex digits
pid_=$(printf 'podman %s' $$ | sha256sum | cut -c1-64)
cgkey=$cgpre/$top/ns
mkdir "$CGFS/$top" || skip "cannot make a cgroup under $CGFS"
on_exit "rmdir '$CGFS/$top'"
for d in "$unit" "docker-$did.scope" "libpod-$pid_.scope" ns; do
	mkdir "$CGFS/$top/$d"
	on_exit "rmdir '$CGFS/$top/$d' 2>/dev/null || true"
done

# the runtimes' state, as they keep it on the host
S=$T/state
mkdir -p "$S/var/lib/docker/containers/$did" \
	"$S/var/lib/containers/storage/overlay-containers"
printf '{"ID":"%s","Name":"/homeassistant","State":{"Running":true}}\n' "$did" \
	>"$S/var/lib/docker/containers/$did/config.v2.json"
printf '[{"id":"%064x","names":["other"]},{"id":"%s","names":["zigbee2mqtt"],"image":"x"}]\n' 7 "$pid_" \
	>"$S/var/lib/containers/storage/overlay-containers/containers.json"
export IOREC_CONTAINER_STATE_ROOT=$S

make_loop_ext4 64
mkdir -p "$MNT/vol" "$T/inside" "$T/go"
unique_dd
# each writer waits (without a child process) until the recording runs:
# a read of its fifo $T/go/NAME, which the recorded command opens
for w in unit docker podman ns; do mkfifo "$T/go/$w"; done
waiter='read x <"$0"'

sh -c "$waiter; exec $DD if=/dev/zero of=$MNT/unit.out bs=64k count=48 conv=fsync status=none" "$T/go/unit" &
w_unit=$!
echo "$w_unit" >"$CGFS/$top/$unit/cgroup.procs"
track_pid "$w_unit"
sh -c "$waiter; echo \$\$ >$CGFS/$top/docker-$did.scope/cgroup.procs; $DD if=/dev/zero of=$MNT/ha.out bs=64k count=32 conv=fsync status=none" "$T/go/docker" &
w_docker=$!
track_pid "$w_docker"
sh -c "$waiter; $DD if=/dev/zero of=$MNT/zigbee.out bs=64k count=16 conv=fsync status=none" "$T/go/podman" &
w_podman=$!
echo "$w_podman" >"$CGFS/$top/libpod-$pid_.scope/cgroup.procs"
track_pid "$w_podman"
unshare -m sh -c "mount --make-rprivate / && mount --bind $MNT/vol $T/inside && echo \$\$ >$CGFS/$top/ns/cgroup.procs && $waiter && exec $DD if=/dev/zero of=$T/inside/ha.db bs=64k count=24 conv=fsync status=none" "$T/go/ns" &
w_ns=$!
track_pid "$w_ns"
sleep 0.3

run_iorec -q -o "$T/o.iorec" -- sh -c "for w in unit docker podman ns; do echo go >$T/go/\$w; done; wait_for() { while kill -0 \$1 2>/dev/null; do sleep 0.05; done; }; wait_for $w_unit; wait_for $w_docker; wait_for $w_podman; wait_for $w_ns; sync" ||
	fail "iorec exited $?"
for p in $w_unit $w_docker $w_podman $w_ns; do
	wait "$p" || fail "a writer (pid $p) failed"
done
[ "$(lost_events "$T/o.iorec")" = 0 ] || log "warning: the recording lost events"

# written FILTER...: "FILE BYTES" of the test's files with written bytes
# that ioreport files keeps with FILTER (the shell that moves itself
# writes its pid to cgroup.procs: those 5 bytes are its container's too)
written() {
	"$IOREPORT" files --csv "$@" "$T/o.iorec" 2>/dev/null |
		python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if int(r["write_bytes"]) > 0:
        o = r["other_names"]
        print(r["name"] + ("  (%s)" % o if o else ""), r["write_bytes"])' |
		grep "^$T/" | sort
}
check() {	# WHAT EXPECTED FILTER...
	local what=$1 want got
	want=$(printf "%s\n" "$2" | sort)
	shift 2
	got=$(written "$@")
	log "$what: $(echo "$got" | tr '\n' ';')"
	[ "$got" = "$want" ] || fail "$what ($*): expected '$want', got '$got'"
}
check unit "$MNT/unit.out 3145728" --unit "$unit"
check "unit without .service" "$MNT/unit.out 3145728" --unit "${unit%.service}"
check "docker container by name" "$MNT/ha.out 2097152" --container homeassistant
check "docker container by id" "$MNT/ha.out 2097152" --container "${did:0:12}"
check "podman container" "$MNT/zigbee.out 1048576" --container zigbee2mqtt
check cgroup "$T/inside/ha.db  (host path $MNT/vol/ha.db) 1572864" --cgroup "/$top/ns"
# the whole slice: every writer, each file once
check slice "$MNT/ha.out 2097152
$MNT/unit.out 3145728
$MNT/zigbee.out 1048576
$T/inside/ha.db  (host path $MNT/vol/ha.db) 1572864" --cgroup "/$top"
# processes: the unit holds its writer alone (dd exec'd in its pid);
# a unit that does not exist holds none (a file's rows keep its block
# I/O under any process filter: the processes view is the one to ask)
pids() {
	"$IOREPORT" processes --csv "$@" "$T/o.iorec" 2>/dev/null |
		python3 -c '
import csv, sys
print(" ".join(sorted(r["pid"] for r in csv.DictReader(sys.stdin))))'
}
assert_eq "processes of --unit $unit" "$w_unit" "$(pids --unit "$unit")"
assert_eq "processes of --unit no-such-unit" "" "$(pids --unit no-such-unit)"
# --by: each group's write_bytes (JSON; its CSV and text give the same),
# which must be the sum of its processes' own rows and, for the test's
# groups, the bytes their writers wrote: dd's, and the 'echo $$' of the
# shell that moves itself into the Docker scope (its pid and a newline)
group_written() {	# BY KEY: write_bytes of the group KEY of --by BY
	"$IOREPORT" processes --json --by "$1" "$T/o.iorec" 2>/dev/null |
		python3 -c '
import json, sys
by, key = sys.argv[1:3]
j = json.load(sys.stdin)
assert j["by"] == by, j["by"]
procs = j["processes"]
sums = {}
for p in procs:
    g = sums.setdefault(p[by], [0, 0, 0, 0])
    g[0] += 1
    g[1] += p["write_bytes"]
    g[2] += p["calls"]
    g[3] += p["block"]["write_bytes"]
for g in j["groups"]:
    want = sums.pop(g[by], None)
    got = [g["processes"], g["write_bytes"], g["calls"], g["block"]["write_bytes"]]
    if want != got:
        sys.exit("group %r of --by %s: %s, its processes sum to %s" % (g[by], by, got, want))
if sums:
    sys.exit("--by %s: processes of no group: %s" % (by, sorted(map(str, sums))))
# a cgroup key on v1 is each hierarchy not at its root, comma-separated
print(" ".join(str(g["write_bytes"]) for g in j["groups"]
               if g[by] == key or key in (g[by] or "").split(",")))' "$1" "$2"
}
assert_eq "--by unit $unit" 3145728 "$(group_written unit "$unit")"
assert_eq "--by container homeassistant" "$((2097152 + ${#w_docker} + 1))" \
	"$(group_written container homeassistant)"
assert_eq "--by container zigbee2mqtt" 1048576 "$(group_written container zigbee2mqtt)"
assert_eq "--by cgroup $cgkey" 1572864 "$(group_written cgroup "$cgkey")"
# wa --by: the same groups' application write bytes; fsync --by: each
# writer's dd made one fsync (conv=fsync), its group's only call
wa_written() {	# BY KEY
	"$IOREPORT" wa --json --by "$1" "$T/o.iorec" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(" ".join(str(g["app_write_bytes"]) for g in j["groups"] if g[sys.argv[1]] == sys.argv[2]))' "$1" "$2"
}
assert_eq "wa --by unit $unit" 3145728 "$(wa_written unit "$unit")"
assert_eq "wa --by container homeassistant" "$((2097152 + ${#w_docker} + 1))" \
	"$(wa_written container homeassistant)"
fsyncs() {	# BY KEY
	"$IOREPORT" fsync --json --by "$1" "$T/o.iorec" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(" ".join(str(g["fsync"] + g["fdatasync"]) for g in j["groups"]
               if sys.argv[2] in (g[sys.argv[1]] or "").split(",")))' "$1" "$2"
}
assert_eq "fsync --by container zigbee2mqtt" 1 "$(fsyncs container zigbee2mqtt)"
assert_eq "fsync --by cgroup $cgkey" 1 "$(fsyncs cgroup "$cgkey")"
# files --by: each group's files are its writer's, with their bytes and
# the one fsync, and the group is the sum of its files
group_files() {	# BY KEY: "FILE BYTES FSYNCS" of the group KEY's files in $T
	"$IOREPORT" files --json --by "$1" "$T/o.iorec" 2>/dev/null | python3 -c '
import json, sys
by, key, t = sys.argv[1:4]
j = json.load(sys.stdin)
assert j["by"] == by, j["by"]
mine = lambda k: k == key or key in (k or "").split(",")
for g in j["groups"]:
    rows = [r for r in j["group_files"] if r[by] == g[by]]
    for k in ("write_bytes", "read_bytes", "writes", "opens"):
        if g[k] != sum(r[k] for r in rows):
            sys.exit("files group %r: %s %d, its files %d" % (g[by], k, g[k], sum(r[k] for r in rows)))
for r in j["group_files"]:
    if mine(r[by]) and r["write_bytes"] and r["name"].startswith(t + "/"):
        o = r.get("other_names")
        print(r["name"] + ("  (%s)" % o if o else ""), r["write_bytes"], r["fsync"]["count"])' "$1" "$2" "$T" | sort
}
assert_eq "files --by unit $unit" "$MNT/unit.out 3145728 1" "$(group_files unit "$unit")"
assert_eq "files --by container homeassistant" "$MNT/ha.out 2097152 1" \
	"$(group_files container homeassistant)"
assert_eq "files --by container zigbee2mqtt" "$MNT/zigbee.out 1048576 1" \
	"$(group_files container zigbee2mqtt)"
assert_eq "files --by cgroup $cgkey" "$T/inside/ha.db  (host path $MNT/vol/ha.db) 1572864 1" \
	"$(group_files cgroup "$cgkey")"
# the CSV is the JSON's groups; the text table has the group's row
csvw=$("$IOREPORT" processes --csv --by container "$T/o.iorec" 2>/dev/null |
	python3 -c '
import csv, sys
print(" ".join(r["write_bytes"] for r in csv.DictReader(sys.stdin) if r["container"] == "zigbee2mqtt"))')
assert_eq "--by container --csv zigbee2mqtt" 1048576 "$csvw"
# (the text whole first: grep -q leaving a pipe early would kill the
# writer with SIGPIPE, a failed pipeline under pipefail)
txt=$("$IOREPORT" processes --wide --by unit "$T/o.iorec" 2>/dev/null)
grep -qE "^ +1 .* 3145728 .* $unit\$" <<<"$txt" ||
	fail "processes --by unit --wide has no row of 1 process and 3145728 bytes written for $unit"
# processes --wide: the UNIT and CONTAINER columns of the writers' rows
"$IOREPORT" processes --wide --top 100000 "$T/o.iorec" 2>/dev/null | python3 -c '
import sys
pid, unit = int(sys.argv[1]), sys.argv[2]
lines = sys.stdin.read().splitlines()
h = next(i for i, l in enumerate(lines) if l.lstrip().startswith("PID ") and " UNIT " in l)
head = lines[h]
cu, cc, cm = head.index(" UNIT ") + 1, head.index(" CONTAINER ") + 1, head.index(" COMMS")
rows = {}
for l in lines[h + 1:]:
    if not l.strip():
        break
    rows[int(l.split()[0])] = (l[cu:cc].strip(), l[cc:cm + 1].strip(), l[cm + 1:].strip())
bad = []
if rows.get(pid, ("",))[:2] != (unit, "-"):
    bad.append("unit writer %d: %s" % (pid, rows.get(pid)))
ha = [r for r in rows.values() if r[1] == "homeassistant"]
if not any("dd" in r[2].split(" ")[0].split(",") for r in ha) or any(r[0] == unit for r in ha):
    bad.append("container homeassistant rows: %s" % ha)
if bad:
    sys.exit("processes --wide: " + "; ".join(bad))
' "$w_unit" "$unit" || fail "processes --wide: the writers' UNIT and CONTAINER columns"
# findings --by: each finding in the group of the process it names, as
# tests/check-findings-by.py computes it from findings and processes
for by in unit container cgroup; do
	python3 "$top_srcdir/tests/check-findings-by.py" "$IOREPORT" "$T/o.iorec" $by >&2 ||
		fail "findings --by $by"
done
finish
