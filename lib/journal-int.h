/*
 * journal-int.h - the state of a journal export or JSON stream parser,
 * shared by journal.c, journal-entry.c, journal-export.c and json.c only.
 */
#ifndef JOURNAL_INT_H
#define JOURNAL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "kleak.h"

#define NAME_LEN	64		/* longest valid field name */
#define KBUF		(NAME_LEN + 2)	/* name bytes kept: room for a CR */
#define LIT_MAX		32		/* longest JSON literal */
#define ARENA_KEEP	(1u << 20)	/* larger arenas are freed after use */
#define FIELDS_KEEP	1024
#define RS		0x1e		/* json-seq record separator */

/* Parser states. */
enum {
	E_BOL = 0,	/* export: at a line start */
	E_NAME,		/* a field name */
	E_TEXT,		/* a text value */
	E_BLEN,		/* the 8 length bytes of a binary field */
	E_BDATA,	/* binary data */
	E_BNL,		/* the newline after binary data */
	E_BNL_CR,	/* a CR came where that newline should be */
	E_SKIP,		/* resynchronising: up to a blank line */

	J_TOP,		/* json: between entries */
	J_KEY0,		/* after '{': a name or '}' */
	J_KEY,		/* after ',': a name */
	J_STR,		/* inside a string */
	J_ESC,		/* after a backslash */
	J_HEX,		/* the 4 digits of \u */
	J_LOW_BS,	/* after a high surrogate: expecting '\' */
	J_LOW_U,	/* then 'u' */
	J_COLON,	/* after a name */
	J_VALUE,	/* after ':' */
	J_LIT,		/* inside null, true, false or a number */
	J_ARR0,		/* after '[': an element or ']' */
	J_ELEM,		/* after ',' in an array: an element */
	J_ANEXT,	/* after an element: ',' or ']' */
	J_MNEXT,	/* after a member: ',' or '}' */
	J_SKIP,		/* resynchronising: up to a line starting with '{' */
};

/* What the outer array of a JSON member holds. */
enum { A_NONE = 0, A_BYTES, A_REP };

/* A field of the entry being built: offsets into the arena. */
struct fld {
	size_t		 name;
	size_t		 data;
	size_t		 len;
	uint64_t	 offset;
	int		 exact;
};

struct kl_journal {
	enum kl_unit_kind	 kind;
	struct kl_journal_ops	 ops;
	int			 st;
	int			 stopped;
	int			 failed;	/* out of memory: dead */
	int			 ended;
	/* the caller's, during a call */
	struct kl_error		*err;
	const uint8_t		*b0;		/* the piece being fed */
	uint64_t		 base;		/* stream offset of b0[0] */
	uint64_t		 line;		/* line of the byte at hand */

	/* The entry being built. */
	int			 open;
	uint64_t		 index;
	uint64_t		 eoff;
	int			 partial;
	int			 drop;		/* store nothing more of it */
	uint8_t			*arena;
	size_t			 alen;
	size_t			 acap;
	struct fld		*f;
	size_t			 nf;
	size_t			 fcap;
	struct kl_jfield	*out;
	size_t			 outcap;

	/* The field being read. */
	uint8_t			 kbuf[KBUF];	/* its name, raw */
	size_t			 klen;		/* may exceed KBUF */
	uint64_t		 koff;		/* stream offset of the name */
	uint64_t		 kline;		/* its line */
	size_t			 name;		/* arena offset of the name */
	int			 named;		/* name is in the arena */
	/* the value goes to the arena */
	int			 store;
	struct fld		 cur;

	/* Export. */
	uint8_t			 lenb[8];
	unsigned		 nlenb;
	uint64_t		 blen;
	uint64_t		 need;
	/* 1 at a line start, 2 after CR */
	int			 bol;

	/* JSON. */
	int			 key;		/* the string is a name */
	int			 mdrop;		/* member dropped (bad name) */
	int			 esc;		/* the string had an escape */
	/* 0 member, 1 array, 2 nested */
	int			 depth;
	int			 akind;		/* A_* of the outer array */
	/* cur is a field being filled */
	int			 infield;
	uint64_t		 aoff;		/* offset of the array's '[' */
	uint32_t		 u;
	/* pending high surrogate, or 0 */
	uint32_t		 uhi;
	unsigned		 nu;
	char			 lit[LIT_MAX];
	unsigned		 nlit;
	uint64_t		 litoff;

	struct kl_jstats	 stats;
	struct kl_error		 first;
	int			 have_first;
};

/* Stream offset of the byte at p. */
static inline uint64_t
kl_jent_off_at(const struct kl_journal *j, const uint8_t *p)
{
	return (j->base + (uint64_t)(p - j->b0));
}

/* journal-entry.c */
int		 kl_jent_name_valid(const struct kl_journal *);
const char	*kl_jent_name_esc(const struct kl_journal *, char *, size_t);
const char	*kl_jent_byte_esc(uint8_t, char *, size_t);
int		 kl_jent_report(struct kl_journal *, const char *, ...)
		    KL_PRINTFLIKE(2, 3);
int		 kl_jent_fits(const struct kl_journal *, size_t);
int		 kl_jent_over(struct kl_journal *);
void		 kl_jent_open_entry(struct kl_journal *, uint64_t);
int		 kl_jent_commit_name(struct kl_journal *);
int		 kl_jent_start_field(struct kl_journal *, uint64_t, int);
int		 kl_jent_put(struct kl_journal *, const void *, size_t);
int		 kl_jent_end_field(struct kl_journal *);
int		 kl_jent_finish(struct kl_journal *);
int		 kl_jent_cut(struct kl_journal *);
uint64_t	 kl_jent_count_lf(const uint8_t *, size_t);
int		 kl_jent_resync(struct kl_journal *, int);

/* journal-export.c */
int		 kl_jexp_feed(struct kl_journal *, const uint8_t *,
		    const uint8_t *);
int		 kl_jexp_end(struct kl_journal *);

/* json.c */
int		 kl_json_feed(struct kl_journal *, const uint8_t *,
		    const uint8_t *);
int		 kl_json_end(struct kl_journal *);

#endif /* JOURNAL_INT_H */
