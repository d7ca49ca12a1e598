/*
 * srcidx-int.h - the source index as its files share it: limits, sites
 * and keys, parsed conversions, the lexer state the C scanner
 * (srclex.c) and the printk index reader (printkindex.c) fill.
 */
#ifndef SRCIDX_INT_H
#define SRCIDX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "kleak.h"

#define SI_ARENA_MAX	(1u << 31)	/* bytes of names and pieces */
#define SI_CHAIN_MAX	8192		/* decoded bytes of one format */
#define SI_MARKS	128		/* literals of a chain with lines */
#define SI_PARENS	256		/* nesting the lexer follows */
#define SI_PREFIX_MAX	256		/* bytes of a pr_fmt() prefix */
#define SI_DEPTH_MAX	64		/* directory nesting */
#define SI_STEPS	20000		/* matcher steps per piece */
#define SI_BUDGET	400000		/* matcher steps per message */
#define SI_CANDS	4096		/* sites compared per message */
#define SI_WORDS	512		/* words of a message looked up */
#define SI_SIBLINGS	64		/* same-function sites tried */
#define SI_ANY_LIT	12		/* literal bytes a %s hit needs */
#define SI_CUTOFF	100		/* results kept below the best */
#define FUNC_PENDING	UINT32_MAX	/* a name not in the arena yet */
#define SI_CACHE_MAGIC	"KLSRCIX4"	/* bump when what is indexed changes */

/* Site flags. */
#define SF_FIRST	0x1	/* the first line of its format */
#define SF_NL		0x2	/* ends with a newline */
#define SF_CONT		0x4	/* KERN_CONT / pr_cont: continues a line */
#define SF_EXACT	0x8	/* from a printk index */

/* One site: a line of a format. */
struct site {
	uint32_t	 file;		/* arena offsets */
	uint32_t	 func;
	uint32_t	 fmt;
	uint32_t	 fmtlen;
	uint32_t	 line;
	uint32_t	 flags;
};

/* A key word and the site it leads to. */
struct key {
	uint64_t	 h;
	uint32_t	 site;
};

struct kl_srcidx {
	uint8_t			*arena;
	size_t			 alen;
	size_t			 acap;
	struct site		*site;
	size_t			 nsite;
	size_t			 csite;
	struct key		*key;		/* sorted by h */
	size_t			 nkey;
	int			 built;
	struct kl_srcidx_stats	 st;
	/* The tree's files besides its sources (kl_srcidx_meta()). */
	uint32_t		 meta[KL_SRCIDX_META_COUNT];	/* arena */
	uint32_t		 metalen[KL_SRCIDX_META_COUNT];
	/* Its directories: arena offsets, sorted by name once built. */
	uint32_t		*dir;
	size_t			 ndir;
	size_t			 cdir;
	uint32_t		 lastdir;	/* the last one added */
};

/* Conversion kinds, by what they print. */
enum cv {
	CV_NONE = 0,
	CV_PCT,		/* %% */
	CV_INT,		/* %d %i %u */
	CV_HEX,		/* %x %X */
	CV_OCT,		/* %o */
	CV_CHAR,	/* %c */
	CV_ANY,		/* %s, %pd, %pV, ...: any text */
	CV_PTR,		/* %p: hashed hex, (____ptrval____), (null) */
	CV_RAW,		/* %px %pK: hex */
	CV_SYM,		/* %pS %ps %pB %pF: sym+0xoff/0xsize [mod] */
	CV_PHYS,	/* %pa: 0x then hex */
};

/* A parsed conversion. */
struct conv {
	enum cv		 kind;
	size_t		 len;		/* bytes of the spec in the format */
	int		 width;		/* -1 none, -2 '*' */
	int		 prec;		/* -1 none, -2 '*' */
	int		 zero;
	int		 left;
	int		 alt;		/* '#' */
};

/* Is c a C identifier byte? */
static inline int
isident(uint8_t c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_');
}

/* Is c a word byte of a message (what keys are made of)? */
static inline int
isword(uint8_t c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_');
}

/* FNV-1a of bytes, continuing from h. */
static inline uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return (h);
}
#define FNV0 0xcbf29ce484222325ULL

/* Lexer state of one file. */
struct lex {
	struct kl_srcidx *x;
	const uint8_t	*b;
	size_t		 n;
	size_t		 i;
	uint32_t	 line;
	uint32_t	 file;		/* arena offsets */
	uint32_t	 func;
	int		 bd;		/* brace depth */
	int		 pd;		/* paren depth */
	struct paren {
		uint8_t	 call;
		uint8_t	 over;		/* deeper than SI_PARENS */
		uint32_t args;		/* commas seen */
		size_t	 cs, cl;	/* callee */
	}		 ps[SI_PARENS + 1];
	enum { T_NONE, T_IDENT, T_RPAREN, T_LPAREN, T_COMMA, T_STR,
	    T_OTHER } lt;
	size_t		 lts, ltl;	/* span of the last identifier */
	int		 cand;		/* function candidate seen */
	size_t		 cs, cl;
	int		 bol;		/* only blanks since the newline */
	/* The #define being read, whose body is code of its own. */
	int		 indef;
	int		 sv_bd, sv_pd, sv_cand;
	uint32_t	 sv_func;
	size_t		 sv_fs, sv_fl;
	/* The function (or macro) name not interned yet: b[fs..fs+fl). */
	size_t		 fs, fl;
	/* The file's pr_fmt(): 0 none, 1 prefix, -1 not followed. */
	int		 pfx_state;
	uint8_t		 pfx[SI_PREFIX_MAX];
	size_t		 pfxlen;
	/* The chain being decoded. */
	uint8_t		 buf[SI_CHAIN_MAX + SI_PREFIX_MAX];
	size_t		 blen;
	size_t		 nmark;
	size_t		 moff[SI_MARKS];
	uint32_t	 mline[SI_MARKS];
};

/* srcindex.c: the arena and the sites; a conversion of a format. */
int	 kl_srcidx_dirs_sort(struct kl_srcidx *);
int64_t	 kl_srcidx_arena_add(struct kl_srcidx *, const void *, size_t);
int	 kl_srcidx_site_add(struct kl_srcidx *, const struct site *);
void	 kl_srcidx_conv_parse(const uint8_t *, size_t, struct conv *);

/* srclex.c: a C escape; the sites of a decoded chain. */
size_t	 kl_srcidx_unescape(const uint8_t *, size_t, int *);
int	 kl_srcidx_emit(struct lex *, size_t, int);

/* srctree.c: read a descriptor to its end (at most max bytes). */
int	 kl_srcidx_slurp(int, uint8_t **, size_t *, size_t *, size_t);

#endif /* SRCIDX_INT_H */
