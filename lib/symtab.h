/*
 * symtab.h - the layout of a loaded symbol table, shared by the files
 * that build it (symmap.c), read it (symbols.c) and name its files
 * (symdir.c).
 */
#ifndef SYMTAB_H
#define SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "kleak.h"

#define NAME_MAX_LEN	511		/* KSYM_NAME_LEN - 1 */
#define MOD_MAX_LEN	255		/* MODULE_NAME_LEN is 56: be lenient */

/* One symbol: 24 bytes. */
struct sym {
	uint64_t	 addr;
	uint32_t	 name;		/* offset in the pool */
	uint32_t	 order;		/* line order among kept symbols */
	uint16_t	 mod;		/* 0: kernel image, else module + 1 */
	char		 type;
};

/* A module: its slice of the sorted symbols. */
struct mod {
	uint32_t	 name;		/* offset in the pool */
	size_t		 first;
	size_t		 n;
	uint64_t	 lo;		/* lowest and highest address */
	uint64_t	 hi;
};

struct kl_symtab {
	struct sym		*sym;	/* kernel symbols first, by address */
	size_t			 n;
	size_t			 cap;
	size_t			 ncore;
	struct mod		*mod;
	size_t			 nmod;
	size_t			 modcap;
	char			*pool;
	size_t			 plen;
	size_t			 pcap;
	uint64_t		 lo;	/* kernel lookups in [lo, hi) */
	uint64_t		 hi;
	uint64_t		 text;
	int			 has_text;
	uint32_t		*byname;	/* kernel symbols by name, then
					   by address (kl_sym_core_find) */
	char			*release;
	struct kl_sym_stats	 st;
};

/* Compression suffixes of map file names. */
static const char *const zsuffix[] = {
	".gz", ".xz", ".zst", ".zstd", ".bz2", ".lz4", ".Z",
};

#endif /* SYMTAB_H */
