#!/usr/bin/env bash
# blackbox-service.sh - iorec-blackbox.service as the package installs
# it: its ExecStart with the settings of debian/iorec.default (expanded
# as systemd does: ${VAR} one argument, $VAR split into words), only the
# program, the snapshot directory and the pid file moved into the test's
# directory, starts the black box with every shipped trigger resolved;
# 'iorec --snapshot' gets a complete snapshot from it, logged in one
# line; SIGTERM (systemctl stop) ends it with status 0, its pid file
# removed.  systemd-analyze verify finds nothing wrong with the unit
# beyond the absent /usr/bin/iorec where the package is not installed.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
unit=$top_srcdir/debian/iorec.iorec-blackbox.service
defaults=$top_srcdir/debian/iorec.default
[ -f "$unit" ] || skip "no $unit (not a source tree with debian/)"

if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify "$unit" >"$T/verify" 2>&1 || true
	if grep -v -e 'is not executable' -e "Command 'man " "$T/verify" | grep -q .; then
		cat "$T/verify" >&2
		fail "systemd-analyze verify finds problems in the unit"
	fi
fi

exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
[ -n "$exec_start" ] || fail "no ExecStart= in $unit"
# the unit's Environment= defaults, then the shipped file, as systemd does
eval "$(sed -n 's/^Environment=//p' "$unit" | tr ' ' '\n' | sed -n "s/^\([A-Z_]*\)=\(.*\)/\1='\2'/p")"
# shellcheck disable=SC1090
. "$defaults"
SNAPSHOT_DIR=$T/snaps
cmd=${exec_start//\/usr\/bin\/iorec/$IOREC}
cmd=${cmd//\/run\/iorec\/iorec.pid/$T/pid}
# ${VAR}: one argument; $VAR: words
cmd=$(sed -E 's/\$\{([A-Z_]+)\}/"${\1}"/g' <<<"$cmd")
log "ExecStart: $cmd"
eval "set -- $cmd"
env --default-signal=INT "$@" 2>"$T/service.err" &
BB=$!
track_pid "$BB"
wait_instance "$BB" 20 || { cat "$T/service.err" >&2; fail "the service's command did not start"; }
for ((i = 0; i < 100; i++)); do [ -s "$T/pid" ] && break; sleep 0.05; done
sleep 1
kill -0 "$BB" || { cat "$T/service.err" >&2; fail "the service's command stopped"; }

"$IOREC" --snapshot --pid-file "$T/pid" >"$T/req" 2>&1 || { cat "$T/req" "$T/service.err" >&2; fail "iorec --snapshot failed"; }
snap=$(cat "$T/req")
case $snap in "$T"/snaps/iorec-*-request.iorec) ;; *) fail "iorec --snapshot printed '$snap'" ;; esac
info_to "$snap" "$T/info"
assert_complete "$T/info"
assert_grep '^ *snapshot: +request$' "$T/info" "ioreport info of the service's snapshot"

kill -TERM "$BB"
wait_exit "$BB" 60
assert_eq "exit status after SIGTERM" 0 "$RC"
[ -e "$T/pid" ] && fail "the pid file is left after SIGTERM"
n=$(grep -c "^iorec: snapshot $snap: " "$T/service.err" || true)
assert_eq "log lines of the snapshot" 1 "$n"
finish
