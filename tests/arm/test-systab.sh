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

if [ $# -ge 2 ]; then
	abi=$1
	shift
	check "$abi" asm/unistd.h "$@"
else
	check x86_64 asm/unistd_64.h gcc
	check i386 asm/unistd_32.h gcc
fi
[ $n -gt 0 ] || { echo "SKIP: nothing compared"; exit 77; }
echo "compared $n syscall numbers"
exit $fail
