#!/usr/bin/env bash
# test-systab.sh - iorec's syscall numbers (record/abi.c) are the kernel's:
# each ABI's table is compared with the __NR_ values of that
# architecture's kernel headers, evaluated by the C preprocessor.
#   test-systab.sh                 x86_64 and i386 (this machine's headers)
#   test-systab.sh ABI CC [FLAGS]  another ABI with its cross compiler
#                                  (tests/arm/qemu-arm.sh: arm, aarch64)
# A syscall the table has as -1 must be absent from the headers, and
# "sendfile64" is the kernel's name of __NR_sendfile where there is no
# __NR_sendfile64 (64-bit ABIs: the row "sendfile" is then -1).
# And on a 64-bit ABI with a 32-bit one beside it (x86_64 and i386,
# aarch64 and arm), every number of a 32-bit call iorec follows that is a
# native syscall of the headers too is followed natively or has a marker
# event: else a native program's raw_syscalls event at that number has no
# twin and looks like a 32-bit call (x86_64's fchmod, 91, is i386's munmap).
set -u
dump=${top_builddir:-.}/tests/arm/systab-dump
[ -x "$dump" ] || { echo "FAIL: $dump not built"; exit 1; }
fail=0 n=0

# check ABI HEADER CC [FLAGS...]
check() {
	local abi=$1 hdr=$2 name nr val
	shift 2
	command -v "$1" >/dev/null || { echo "SKIP: $1 missing for $abi"; return; }
	while read -r a name nr; do
		[ "$a" = "$abi" ] || continue
		# iorec's names are the tracepoints' (syscalls:sys_enter_NAME):
		# mmap_pgoff is the headers' mmap2
		local hname=$name
		[ "$name" = mmap_pgoff ] && hname=mmap2
		val=$(printf '#include <%s>\n#ifdef __NR_%s\n@ __NR_%s\n#endif\n' "$hdr" "$hname" "$hname" |
			"$@" -E -P - 2>/dev/null | sed -n 's/^@ //p')
		if [ -z "$val" ] && [ "$name" = sendfile64 ]; then
			val=$(printf '#include <%s>\n@ __NR_sendfile\n' "$hdr" | "$@" -E -P - 2>/dev/null |
				sed -n 's/^@ //p')
		fi
		[ -n "$val" ] && val=$(( $(echo "$val" | sed 's/[uUlL]//g') ))
		[ -z "$val" ] && val=-1
		# where there is no sendfile64, sendfile is it (the row above)
		if [ "$name" = sendfile ] && ! printf '#include <%s>\n__NR_sendfile64\n' "$hdr" |
			"$@" -E -P - 2>/dev/null | grep -q '^[0-9( ]'; then
			val=-1
		fi
		# i386's mmap (90) is old_mmap, one pointer to its arguments:
		# iorec leaves it out on purpose (glibc calls mmap2)
		[ "$abi" = i386 ] && [ "$name" = mmap ] && val=-1
		n=$((n + 1))
		if [ "$val" != "$nr" ]; then
			echo "FAIL: $abi $name: iorec has $nr, the kernel headers $val"
			fail=1
		fi
	done < <("$dump")
}

# check_markers NATIVE COMPAT HEADER CC [FLAGS...]
check_markers() {
	local native=$1 compat=$2 hdr=$3 a name nr
	local -A hname=() covered=()
	shift 3
	command -v "$1" >/dev/null || return
	# the headers' native syscalls by number (__NR_syscalls is a count,
	# __NR_arch_specific_syscall the start of a range)
	while read -r name nr; do
		nr=$((nr)) && hname[$nr]=${name#__NR_}
	done < <(printf '#include <%s>\n' "$hdr" | "$@" -dM -E - 2>/dev/null |
		awk '$1 == "#define" && $2 ~ /^__NR_/ &&
			$2 != "__NR_syscalls" && $2 != "__NR_arch_specific_syscall" { print $2 }' |
		{ printf '#include <%s>\n' "$hdr"; sed 's/^__NR_\(.*\)/@ \1 __NR_\1/'; } |
		"$@" -E -P - 2>/dev/null | sed -n 's/^@ /__NR_/p')
	[ ${#hname[@]} -gt 0 ] || { echo "FAIL: no __NR_ numbers in $hdr"; fail=1; return; }
	while read -r a name nr; do
		[ "$a" = "$native" ] && [ "$nr" -ge 0 ] && covered[$nr]=1
		[ "$a" = marker ] && [ "$name" = "$native" ] && covered[$nr]=1
	done < <("$dump")
	while read -r a name nr; do
		[ "$a" = "$compat" ] && [ "$nr" -ge 0 ] || continue
		m=$((m + 1))
		if [ -n "${hname[$nr]:-}" ] && [ -z "${covered[$nr]:-}" ]; then
			echo "FAIL: $compat $name ($nr) is $native's ${hname[$nr]}, which iorec neither follows nor marks (record/abi.c)"
			fail=1
		fi
	done < <("$dump")
}
m=0

if [ $# -ge 2 ]; then
	abi=$1
	shift
	check "$abi" asm/unistd.h "$@"
	[ "$abi" = aarch64 ] && check_markers aarch64 arm asm/unistd.h "$@"
else
	check x86_64 asm/unistd_64.h gcc
	check i386 asm/unistd_32.h gcc
	check_markers x86_64 i386 asm/unistd_64.h gcc
fi
[ $n -gt 0 ] || { echo "SKIP: nothing compared"; exit 77; }
if [ "$m" -gt 0 ]; then
	echo "compared $n syscall numbers; $m 32-bit numbers followed or marked natively"
else
	echo "compared $n syscall numbers"
fi
exit $fail
