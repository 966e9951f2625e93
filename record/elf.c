// SPDX-License-Identifier: MIT
/*
 * elf.c - just enough ELF reading for iorec: which syscall ABI a program
 * file is (its header), and where functions are in a shared library file
 * (its .dynsym or .symtab, mapped to file offsets through the PT_LOAD
 * segments), so that uprobes can be placed without dlopen() — which a
 * static iorec does not have — and in libraries iorec itself never loads.
 *
 * ELF32 and ELF64 of either byte order are read; every offset and size
 * taken from the file is checked against the file's size.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

#define ELF_MAX_SIZE	(512u << 20)	/* a larger libc is not one */

struct elf_file {
	const uint8_t *p;
	size_t size;
	bool is64;
	bool swap;		/* file byte order differs from ours */
	uint16_t machine;
};

static uint16_t rd16(const struct elf_file *e, const void *at)
{
	uint16_t v;

	memcpy(&v, at, sizeof(v));
	return e->swap ? __builtin_bswap16(v) : v;
}

static uint32_t rd32(const struct elf_file *e, const void *at)
{
	uint32_t v;

	memcpy(&v, at, sizeof(v));
	return e->swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const struct elf_file *e, const void *at)
{
	uint64_t v;

	memcpy(&v, at, sizeof(v));
	return e->swap ? __builtin_bswap64(v) : v;
}

/* A field of a 32- or 64-bit structure: its offset and size in each. */
#define FIELD(e, base, s32, f)						\
	((e)->is64 ? rd64w((e), (base), offsetof(Elf64_##s32, f),	\
			   sizeof(((Elf64_##s32 *)0)->f)) :		\
		     rd64w((e), (base), offsetof(Elf32_##s32, f),	\
			   sizeof(((Elf32_##s32 *)0)->f)))

static uint64_t rd64w(const struct elf_file *e, const uint8_t *base,
		      size_t off, size_t size)
{
	switch (size) {
	case 1:	return base[off];
	case 2:	return rd16(e, base + off);
	case 4:	return rd32(e, base + off);
	default: return rd64(e, base + off);
	}
}

static bool in_file(const struct elf_file *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* Check the identification bytes; fill is64/swap/machine. */
static int elf_ident(struct elf_file *e)
{
	bool little = !host_big_endian();

	if (e->size < EI_NIDENT || memcmp(e->p, ELFMAG, SELFMAG))
		return -1;
	if (e->p[EI_CLASS] != ELFCLASS32 && e->p[EI_CLASS] != ELFCLASS64)
		return -1;
	if (e->p[EI_DATA] != ELFDATA2LSB && e->p[EI_DATA] != ELFDATA2MSB)
		return -1;
	e->is64 = e->p[EI_CLASS] == ELFCLASS64;
	e->swap = (e->p[EI_DATA] == ELFDATA2LSB) != little;
	if (!in_file(e, 0, e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return -1;
	e->machine = (uint16_t)FIELD(e, e->p, Ehdr, e_machine);
	return 0;
}

enum rec_abi elf_abi_of(bool is64, uint16_t machine)
{
	switch (machine) {
	case EM_X86_64:
		return is64 ? ABI_X86_64 : ABI_X32;
	case EM_386:
		return ABI_I386;
	case EM_AARCH64:
		return is64 ? ABI_AARCH64 : ABI_UNKNOWN;
	case EM_ARM:
		return is64 ? ABI_UNKNOWN : ABI_ARM;
#ifdef EM_RISCV
	case EM_RISCV:
		return is64 ? ABI_RISCV64 : ABI_UNKNOWN;
#endif
	}
	return ABI_UNKNOWN;
}

enum rec_abi elf_file_abi(const char *path)
{
	uint8_t h[sizeof(Elf64_Ehdr)];
	struct elf_file e = { .p = h };
	ssize_t n;
	int fd;

	fd = open_raw(path, O_RDONLY, 0);
	if (fd < 0)
		return ABI_UNKNOWN;
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n <= 0)
		return ABI_UNKNOWN;
	e.size = (size_t)n;
	if (elf_ident(&e) < 0)
		return ABI_UNKNOWN;
	return elf_abi_of(e.is64, e.machine);
}

/* Map a virtual address to a file offset through the PT_LOAD segments. */
static int vaddr_offset(const struct elf_file *e, uint64_t vaddr,
			uint64_t *off)
{
	uint64_t phoff = FIELD(e, e->p, Ehdr, e_phoff);
	uint64_t phentsize = FIELD(e, e->p, Ehdr, e_phentsize);
	uint64_t phnum = FIELD(e, e->p, Ehdr, e_phnum), i;

	if (phentsize < (e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) ||
	    !in_file(e, phoff, phnum * phentsize))
		return -1;
	for (i = 0; i < phnum; i++) {
		const uint8_t *ph = e->p + phoff + i * phentsize;
		uint64_t va, filesz;

		if (FIELD(e, ph, Phdr, p_type) != PT_LOAD)
			continue;
		va = FIELD(e, ph, Phdr, p_vaddr);
		filesz = FIELD(e, ph, Phdr, p_filesz);
		if (vaddr < va || vaddr - va >= filesz)
			continue;
		*off = vaddr - va + FIELD(e, ph, Phdr, p_offset);
		return 0;
	}
	return -1;
}

/* Look the wanted names up in one symbol table section. */
static void scan_symtab(const struct elf_file *e, const uint8_t *sh,
			const uint8_t *shdrs, uint64_t shentsize,
			uint64_t shnum, struct elf_sym *want, int nwant)
{
	uint64_t off = FIELD(e, sh, Shdr, sh_offset);
	uint64_t size = FIELD(e, sh, Shdr, sh_size);
	uint64_t entsize = FIELD(e, sh, Shdr, sh_entsize);
	uint64_t link = FIELD(e, sh, Shdr, sh_link), n, i;
	uint64_t stroff, strsize;
	const uint8_t *strsh;

	if (entsize < (e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym)) ||
	    !in_file(e, off, size) || link >= shnum)
		return;
	strsh = shdrs + link * shentsize;
	stroff = FIELD(e, strsh, Shdr, sh_offset);
	strsize = FIELD(e, strsh, Shdr, sh_size);
	if (!in_file(e, stroff, strsize))
		return;
	n = size / entsize;
	for (i = 0; i < n; i++) {
		const uint8_t *s = e->p + off + i * entsize;
		uint64_t name = FIELD(e, s, Sym, st_name);
		uint64_t value = FIELD(e, s, Sym, st_value);
		unsigned int info = (unsigned int)FIELD(e, s, Sym, st_info);
		uint64_t shndx = FIELD(e, s, Sym, st_shndx);
		const char *str;
		size_t maxlen;
		int k;

		if (name >= strsize || !value || shndx == SHN_UNDEF)
			continue;
		if (ELF64_ST_TYPE(info) != STT_FUNC &&
		    ELF64_ST_TYPE(info) != STT_GNU_IFUNC)
			continue;
		if (ELF64_ST_BIND(info) != STB_GLOBAL &&
		    ELF64_ST_BIND(info) != STB_WEAK &&
		    ELF64_ST_BIND(info) != STB_LOCAL)
			continue;
		str = (const char *)e->p + stroff + name;
		maxlen = (size_t)(strsize - name);
		for (k = 0; k < nwant; k++) {
			struct elf_sym *w = &want[k];
			uint64_t addr = value;

			if (w->found || strnlen(str, maxlen) == maxlen ||
			    strcmp(str, w->name))
				continue;
			/* bit 0 of an ARM function's address selects Thumb */
			w->thumb = e->machine == EM_ARM && (addr & 1);
			addr &= e->machine == EM_ARM ? ~(uint64_t)1 : ~(uint64_t)0;
			w->ifunc = ELF64_ST_TYPE(info) == STT_GNU_IFUNC;
			if (vaddr_offset(e, addr, &w->offset) == 0)
				w->found = true;
		}
	}
}

int elf_find_symbols(const char *path, struct elf_sym *want, int nwant,
		     enum rec_abi *abi)
{
	struct elf_file e = { 0 };
	uint64_t shoff, shentsize, shnum, i;
	struct stat st;
	void *map;
	int fd, k, found = 0;
	/* .dynsym first: it is what the dynamic linker resolves */
	static const uint32_t kinds[] = { SHT_DYNSYM, SHT_SYMTAB };

	for (k = 0; k < nwant; k++) {
		want[k].found = false;
		want[k].thumb = false;
		want[k].ifunc = false;
	}
	fd = open_raw(path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < EI_NIDENT || st.st_size > ELF_MAX_SIZE) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	e.p = map;
	e.size = (size_t)st.st_size;
	if (elf_ident(&e) < 0) {
		munmap(map, e.size);
		errno = ENOEXEC;
		return -1;
	}
	if (abi)
		*abi = elf_abi_of(e.is64, e.machine);
	shoff = FIELD(&e, e.p, Ehdr, e_shoff);
	shentsize = FIELD(&e, e.p, Ehdr, e_shentsize);
	shnum = FIELD(&e, e.p, Ehdr, e_shnum);
	if (shentsize >= (e.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) &&
	    in_file(&e, shoff, shnum * shentsize)) {
		for (k = 0; k < (int)ARRAY_SIZE(kinds); k++)
			for (i = 0; i < shnum; i++) {
				const uint8_t *sh = e.p + shoff + i * shentsize;

				if (FIELD(&e, sh, Shdr, sh_type) == kinds[k])
					scan_symtab(&e, sh, e.p + shoff,
						    shentsize, shnum, want,
						    nwant);
			}
	}
	munmap(map, e.size);
	for (k = 0; k < nwant; k++)
		found += want[k].found;
	return found;
}
