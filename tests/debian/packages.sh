#!/usr/bin/env bash
# packages.sh - the Debian packages as a user gets them: dpkg-buildpackage
# -us -uc -b on a copy of the sources, lintian with no error, the four
# packages installed for real (apt-get install ./*.deb, dependencies from
# the archive), then iorec --check, ioreport on the samples compared with
# tests/golden/, the documents, man pages and completions in place, the
# example program built against the installed libiorec-dev; the packages
# are purged again on every exit path.
#
# Not part of `make check` (it builds the whole tree once more, about as
# long as one build and no tests: DEB_BUILD_OPTIONS=nocheck, as make
# distcheck runs the suite on the same sources); scripts/test.sh runs it.
# Needs root (apt-get, dpkg); skips (77) without it or on a host with any
# of the packages already installed.  IOREC_DEB_KEEP=DIR keeps the .debs
# and the lintian report in DIR; IOREC_DEB_PREBUILT=DIR takes the .debs and
# the .changes from DIR instead of building them.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (apt-get install of the packages)"
command -v apt-get >/dev/null && command -v dpkg >/dev/null || skip "needs a Debian system"
pkgs=(iorec ioreport libiorec0 libiorec-dev)
for p in "${pkgs[@]}"; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		skip "package $p is installed already: this test installs and purges it"
	fi
done
"$top/scripts/install-deps.sh" --packaging || fail "scripts/install-deps.sh --packaging failed"

T=$(mktemp -d "${TMPDIR:-/tmp}/iorec-deb.XXXXXX")
installed=0
cleanup() {
	if [ $installed = 1 ]; then
		apt_locked apt-get purge -y -q -o DPkg::Lock::Timeout=600 "${pkgs[@]}" >"$T/purge.log" 2>&1 ||
			{ echo "packages.sh: apt-get purge failed:"; cat "$T/purge.log"; }
	fi
	if [ -n "${IOREC_DEB_KEEP:-}" ]; then
		mkdir -p "$IOREC_DEB_KEEP"
		cp "$T"/*.deb "$T"/*.changes "$T"/*.buildinfo "$T"/lintian.txt "$T"/build.log "$IOREC_DEB_KEEP"/ 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# the sources: what git tracks (or the unpacked tarball), nothing built
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
src=$T/iorec-$version
copy_sources "$src"
upstream=$(sed -n 's/^AC_INIT(\[iorec\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[ "$upstream" = "$version" ] ||
	fail "debian/changelog is at $version, configure.ac at $upstream: add a changelog entry (dch -v $upstream)"

start=$(date +%s)
if [ -n "${IOREC_DEB_PREBUILT:-}" ]; then
	cp "$IOREC_DEB_PREBUILT"/*.deb "$IOREC_DEB_PREBUILT"/*.changes "$IOREC_DEB_PREBUILT"/*.buildinfo "$T"/ ||
		fail "no .debs and .changes in $IOREC_DEB_PREBUILT"
else
	(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
		nice -n 10 dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1 ||
		{ tail -40 "$T/build.log"; fail "dpkg-buildpackage -us -uc -b failed"; }
	echo "dpkg-buildpackage -us -uc -b: $(( $(date +%s) - start )) s"
fi
arch=$(dpkg --print-architecture)
debs=()
for p in "${pkgs[@]}"; do
	d=$(ls "$T/${p}_${version}_$arch.deb" 2>/dev/null) || fail "no ${p}_${version}_$arch.deb built"
	debs+=("$d")
	echo "built $(basename "$d"): $(stat -c %s "$d") bytes"
done

# lintian: errors fail the test, warnings are printed
changes=$(ls "$T"/iorec_"${version}"_"$arch".changes) || fail "no .changes file"
lintian --fail-on error --tag-display-limit 0 "$changes" >"$T/lintian.txt" 2>&1
lrc=$?
grep -E '^[EW]: ' "$T/lintian.txt"
[ $lrc = 0 ] || fail "lintian reports errors (exit $lrc)"
echo "lintian: $(grep -c '^E: ' "$T/lintian.txt") errors, $(grep -c '^W: ' "$T/lintian.txt") warnings"

# the recorder package is the recorder alone: no analyzer libraries
deps=$(dpkg-deb -f "$T/iorec_${version}_$arch.deb" Depends)
echo "iorec Depends: $deps"
for lib in libtracecmd libsqlite3 libiorec; do
	! grep -q "$lib" <<<"$deps" || fail "the package iorec depends on $lib"
done
for lib in libtracefs libzstd; do
	grep -q "$lib" <<<"$deps" || fail "the package iorec does not depend on $lib"
done
# the analyzer reads trace.dat with its own reader: libtracecmd is only
# the test suite's oracle
deps=$(dpkg-deb -f "$T/ioreport_${version}_$arch.deb" Depends)
echo "ioreport Depends: $deps"
! grep -q libtracecmd <<<"$deps" || fail "the package ioreport depends on libtracecmd"
dpkg-deb -c "$T/iorec_${version}_$arch.deb" >"$T/iorec.contents"
grep -q 'usr/bin/ioreport' "$T/iorec.contents" && fail "the package iorec holds ioreport"

# installed for real, with the dependencies from the archive
installed=1
apt_locked env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	-o DPkg::Lock::Timeout=600 "${debs[@]}" >"$T/install.log" 2>&1 ||
	{ tail -20 "$T/install.log"; fail "apt-get install of the built packages failed"; }
for f in /usr/bin/iorec /usr/bin/ioreport /usr/share/man/man1/iorec.1.gz \
	/usr/share/man/man1/ioreport.1.gz /usr/share/man/man5/iorec.5.gz \
	/usr/share/bash-completion/completions/iorec \
	/usr/share/bash-completion/completions/ioreport \
	/usr/share/doc/ioreport/schema.md /usr/share/doc/ioreport/attribution.md \
	/usr/share/doc/ioreport/write-amplification.md /usr/share/doc/ioreport/walkthrough.md \
	/usr/share/doc/iorec/copyright /usr/include/iorec/format.h \
	/usr/share/doc/libiorec-dev/examples/list-chunks.c; do
	[ -e "$f" ] || fail "$f is not installed"
done
# the black box's unit and settings, installed disabled and not running
unit=$(ls /usr/lib/systemd/system/iorec-blackbox.service /lib/systemd/system/iorec-blackbox.service 2>/dev/null | head -n 1)
[ -n "$unit" ] || fail "iorec-blackbox.service is not installed"
[ -f /etc/default/iorec ] || fail "/etc/default/iorec is not installed"
dpkg-query -W -f='${Conffiles}' iorec | grep -q ' /etc/default/iorec ' ||
	fail "/etc/default/iorec is not a conffile of iorec"
[ -e /etc/systemd/system/multi-user.target.wants/iorec-blackbox.service ] &&
	fail "iorec-blackbox.service is enabled by the installation (it must be disabled by default)"
pgrep -x iorec >/dev/null && pgrep -a -x iorec | grep -q -- '--snapshot-dir /var/lib/iorec' &&
	fail "the installation started the black box"
# systemd accepts the unit as installed (its command, its directives)
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify --man=no "$unit" >"$T/verify" 2>&1 ||
		{ cat "$T/verify"; fail "systemd-analyze verify rejects $unit"; }
	echo "systemd-analyze verify: $unit accepted"
fi

# iorec --check on this kernel (tracefs is there: it must say it can record)
/usr/bin/iorec --check >"$T/check.out" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$T/check.out"; fail "installed iorec --check exits $rc"; }
echo "iorec --check: $(wc -l <"$T/check.out") lines, exit 0"
v=$(/usr/bin/iorec --version 2>&1)
grep -q "$version" <<<"$v" || fail "installed iorec --version does not say $version"

# ioreport on the samples: the golden outputs
cd "$src" || fail "cd $src"
n=0
for s in story001-barrier.iorec story000-sqlite-before.iorec tracecmd.dat; do
	for v in devices info; do
		g=tests/golden/$s/$v
		[ -f "$g" ] || continue
		# as tests/test-golden.sh writes them: the output, then its exit code
		out=$(LC_ALL=C TZ=UTC /usr/bin/ioreport "$v" "samples/$s" 2>&1)
		printf '%s\nexit %s\n' "$out" $? >"$T/out"
		diff -u "$g" "$T/out" >"$T/diff" || { head -20 "$T/diff"; fail "installed ioreport $v samples/$s differs from $g"; }
		n=$((n + 1))
	done
done
[ $n -ge 4 ] || fail "only $n golden outputs compared"
echo "installed ioreport: $n outputs equal to tests/golden/"

# libiorec-dev: the example, with pkg-config, on a sample
cc -Wall -Werror -o "$T/list-chunks" /usr/share/doc/libiorec-dev/examples/list-chunks.c \
	$(pkg-config --cflags --libs iorec) || fail "the example does not build against libiorec-dev"
ldd "$T/list-chunks" >"$T/ldd" 2>&1
grep -qE 'libiorec.so.0 => (/usr)?/lib/' "$T/ldd" || { cat "$T/ldd"; fail "the example does not load the installed libiorec.so.0"; }
"$T/list-chunks" samples/story001-barrier.iorec >"$T/chunks" || fail "list-chunks samples/story001-barrier.iorec failed"
# its DATA chunks are those ioreport info counts per CPU
want=$(/usr/bin/ioreport info samples/story001-barrier.iorec |
	awk '/^cpus:/ { f = 1; next } f && $1 == "CPU" { next } f && $1 ~ /^[0-9]+$/ { s += $2; next } f { f = 0 } END { print s + 0 }')
got=$(grep -c "$(printf '\tDATA\t')" "$T/chunks")
grep -q '^# [0-9]* chunks, complete$' "$T/chunks" ||
	fail "list-chunks did not read samples/story001-barrier.iorec to its end"
echo "list-chunks (installed libiorec): $(grep -vc '^#' "$T/chunks") chunks, $got DATA (ioreport info: $want)"
[ "$got" -gt 0 ] && [ "$got" = "$want" ] || fail "list-chunks counts $got DATA chunks, ioreport info $want"
# the completions load and complete
got=$(bash -c '. /usr/share/bash-completion/completions/ioreport; COMP_WORDS=(ioreport dev); COMP_CWORD=1; _ioreport; printf "%s\n" "${COMPREPLY[@]}"')
grep -qx devices <<<"$got" || fail "the installed completion does not complete 'ioreport dev'"
echo "PASS: packages built, lintian clean of errors, installed, used and purged"
