/*
 * leaks-int.h - the known leak sources inside lib/: an entry of the data
 * file and the database, shared by the data file reader (leaks-parse.c)
 * and the key index and matcher (leaks.c).
 */
#ifndef LEAKS_INT_H
#define LEAKS_INT_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include "kleak.h"

#define LEAKDB_FILE_MAX	(16u << 20)	/* bytes of a data file */
#define LEAKDB_MAX	4096		/* entries */
#define MATCH_LIMIT	200000		/* PCRE2 match and depth limits */
#define DEPTH_LIMIT	10000

/* How a named value is read. */
enum vkind { VK_HEX = 0, VK_DEC, VK_KB, VK_MB };

/* A named group of an entry's pattern. */
struct group {
	int		 num;		/* capture number */
	enum vkind	 kind;
	char		*name;		/* suffix dropped */
};

/* An entry and its compiled pattern. */
struct lentry {
	struct kl_leak_entry pub;
	pcre2_code	*re;
	int		 jit;
	uint64_t	 fb[4];		/* bytes a message it matches can
					   start with (all but for an
					   anchored pattern) */
	size_t		 ngroups;
	struct group	 g[KL_LEAK_VALUES_MAX];
};

/* A distinct key: where its rare byte pair sits, who uses it. */
struct lkey {
	const char	*s;
	size_t		 len;
	size_t		 at;		/* offset of the anchor pair */
	uint16_t	 gram;
	size_t		*ent;		/* entry indices, file order */
	size_t		 nent;
	uint64_t	 fb[4];		/* union of its entries' fb */
};

/* A key's anchor pair, for the sorted index. */
struct kgram {
	uint16_t	 gram;
	size_t		 key;
};

struct kl_leakdb {
	struct lentry	*e;
	size_t		 n;
	struct lkey	*k;
	size_t		 nk;
	struct kgram	*byg;		/* keys sorted by anchor pair */
	uint8_t		 has[65536];	/* by pair (a native 16-bit load):
					   the line groups of the keys it
					   anchors (bit g: a key a message
					   of group g may hold) */
	uint8_t		 lgroup[256];	/* by first byte: 1 << its group */
	uint64_t	*eallow;	/* by first byte: the entries a
					   message starting so can match,
					   words bits each */
	size_t		 words;
	uint16_t	 first[65536];	/* pair: 1 + its first index in byg */
	size_t		 minkey;	/* shortest key */
	uint32_t	 maxcap;	/* largest capture count */
	int		 jit;		/* every pattern is JIT-compiled */
	pcre2_match_context *mctx;
};

/* Is byte c in the 256-bit set b? */
static inline int
in_set(const uint64_t *b, uint8_t c)
{
	return ((b[c >> 6] >> (c & 63)) & 1);
}

/* leaks-parse.c */
void	 kl_leaks_seterr(struct kl_error *, const char *, uint64_t,
	    const char *, ...) KL_PRINTFLIKE(4, 5);
void	 kl_leaks_nomem(struct kl_error *);
int	 kl_leaks_parse(struct kl_leakdb *, const uint8_t *, size_t,
	    const char *, struct kl_error *);

#endif /* LEAKS_INT_H */
