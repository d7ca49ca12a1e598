/*
 * srcindex.c - the format strings of a kernel tree, and which of them
 * printed a message.
 *
 * A tree (a directory, or a tarball read in place through libarchive,
 * one member at a time) is scanned file by file with a small C lexer:
 * comments, character literals and preprocessor lines are passed over,
 * parentheses and braces are counted.  A chain of adjacent string
 * literals (joined across lines, KERN_* macros dropped, the file's
 * pr_fmt() prefix applied to pr_*() calls) that holds a conversion and
 * sits in the argument list of a call is a format.  Each line of a
 * format (a "piece": formats are cut at their newlines, as the kernel
 * prints them) is a site: file, line of the literal it starts in,
 * enclosing function, the piece.  A chain the lexer cannot follow (a
 * macro between its literals, an unterminated literal, a preprocessor
 * line inside it) is counted and never indexed: no site is a half-read
 * format.
 *
 * Each site is keyed by one literal word of its piece, the rarest of
 * the words bounded by literal text; a message is compared only with
 * the sites keyed by one of its own words.  The comparison is a
 * backtracking match of the piece against the message, each conversion
 * matching what the kernel's vsprintf prints for it (%d digits, %lx hex
 * with its width, %pS a symbol, %s any text).  The conversion that
 * printed the address token is reported.
 *
 * The kernel's printk index (debugfs printk/index/vmlinux) is a second,
 * exact source of sites.  A built index can be saved to and loaded from
 * a cache file, checked by its key and a checksum before it is trusted.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"
#include "kleak-int.h"

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
#define SI_CACHE_MAGIC	"KLSRCIX3"	/* bump when what is indexed changes */

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

static const char *const kern_macros[] = {
	"KERN_EMERG", "KERN_ALERT", "KERN_CRIT", "KERN_ERR", "KERN_WARNING",
	"KERN_NOTICE", "KERN_INFO", "KERN_DEBUG", "KERN_DEFAULT", "KERN_CONT",
	"KERN_SOH",
};

static const char *const not_calls[] = {
	"if", "for", "while", "switch", "return", "sizeof", "typeof",
	"__typeof__", "__typeof", "_Alignof", "alignof", "defined", "case",
	"do", "else", "__attribute__", "__attribute", "asm", "__asm__",
	"__asm", "volatile", "__volatile__", "goto", "inline", "_Generic",
	"_Static_assert", "static_assert", "__section", "__stringify",
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
static uint64_t
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

/* Does the identifier b[0..n) equal s? */
static int
ideq(const uint8_t *b, size_t n, const char *s)
{
	return (strlen(s) == n && memcmp(b, s, n) == 0);
}

/* Is the identifier one of the list? */
static int
inlist(const uint8_t *b, size_t n, const char *const *l, size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++)
		if (ideq(b, n, l[i]))
			return (1);
	return (0);
}

/* Append n bytes and a NUL to the arena; the offset, or -1. */
static int64_t
arena_add(struct kl_srcidx *x, const void *p, size_t n)
{
	size_t need, cap;
	uint8_t *a;
	int64_t off;

	if (n >= SI_ARENA_MAX || x->alen + n + 1 > SI_ARENA_MAX)
		return (-1);
	need = x->alen + n + 1;
	if (need > x->acap) {
		cap = x->acap ? x->acap : 65536;
		while (cap < need)
			cap *= 2;
		if ((a = realloc(x->arena, cap)) == NULL)
			return (-1);
		x->arena = a;
		x->acap = cap;
	}
	off = (int64_t)x->alen;
	if (n > 0)
		memcpy(x->arena + x->alen, p, n);
	x->arena[x->alen + n] = '\0';
	x->alen = need;
	return (off);
}

/* Append a site; -1 when memory ran out. */
static int
site_add(struct kl_srcidx *x, const struct site *s)
{
	struct site *ns;
	size_t cap;

	if (x->nsite == x->csite) {
		cap = x->csite ? x->csite * 2 : 4096;
		if (cap > UINT32_MAX ||
		    (ns = realloc(x->site, cap * sizeof(*ns))) == NULL)
			return (-1);
		x->site = ns;
		x->csite = cap;
	}
	x->site[x->nsite++] = *s;
	x->built = 0;
	return (0);
}

/* A new empty index. */
struct kl_srcidx *
kl_srcidx_new(struct kl_error *err)
{
	struct kl_srcidx *x;

	if ((x = calloc(1, sizeof(*x))) == NULL || arena_add(x, "", 0) != 0) {
		free(x);
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (NULL);
	}
	return (x);
}

/* Free an index. */
void
kl_srcidx_free(struct kl_srcidx *x)
{
	if (x == NULL)
		return;
	free(x->arena);
	free(x->site);
	free(x->key);
	free(x);
}

/* The counters of an index. */
const struct kl_srcidx_stats *
kl_srcidx_stats(const struct kl_srcidx *x)
{
	return (&x->st);
}

/* The number of sites. */
size_t
kl_srcidx_count(const struct kl_srcidx *x)
{
	return (x->nsite);
}

/* Site i, filled into out; -1 when out of range. */
int
kl_srcidx_site(const struct kl_srcidx *x, size_t i,
    struct kl_srcidx_site *out)
{
	const struct site *s;

	if (i >= x->nsite)
		return (-1);
	s = &x->site[i];
	out->file = (const char *)x->arena + s->file;
	out->function = (const char *)x->arena + s->func;
	out->format = (const char *)x->arena + s->fmt;
	out->formatlen = s->fmtlen;
	out->line = s->line;
	out->exact = (s->flags & SF_EXACT) != 0;
	return (0);
}

/*
 * Parse the conversion at f[0] == '%'.  kind CV_NONE when it is not
 * one vsprintf would take (an asm operand, a stray percent).
 */
static void
conv_parse(const uint8_t *f, size_t n, struct conv *c)
{
	size_t i = 1;
	uint8_t ch;

	memset(c, 0, sizeof(*c));
	c->width = c->prec = -1;
	c->len = 1;
	if (i < n && f[i] == '%') {
		c->kind = CV_PCT;
		c->len = 2;
		return;
	}
	for (; i < n; i++) {
		if (f[i] == '-')
			c->left = 1;
		else if (f[i] == '0')
			c->zero = 1;
		else if (f[i] == '#')
			c->alt = 1;
		else if (f[i] != '+' && f[i] != ' ')
			break;
	}
	if (i < n && f[i] == '*') {
		c->width = -2;
		i++;
	} else if (i < n && f[i] >= '1' && f[i] <= '9') {
		c->width = 0;
		while (i < n && f[i] >= '0' && f[i] <= '9') {
			if (c->width < 100000)
				c->width = c->width * 10 + (f[i] - '0');
			i++;
		}
	}
	if (i < n && f[i] == '.') {
		i++;
		c->prec = 0;
		if (i < n && f[i] == '*') {
			c->prec = -2;
			i++;
		} else
			while (i < n && f[i] >= '0' && f[i] <= '9') {
				if (c->prec < 100000)
					c->prec = c->prec * 10 + (f[i] - '0');
				i++;
			}
	}
	while (i < n && (f[i] == 'h' || f[i] == 'l' || f[i] == 'L' ||
	    f[i] == 'z' || f[i] == 'Z' || f[i] == 't' || f[i] == 'j' ||
	    f[i] == 'q'))
		i++;
	if (i >= n)
		return;
	ch = f[i++];
	switch (ch) {
	case 'd': case 'i': case 'u':
		c->kind = CV_INT;
		break;
	case 'x': case 'X':
		c->kind = CV_HEX;
		break;
	case 'o':
		c->kind = CV_OCT;
		break;
	case 'c':
		c->kind = CV_CHAR;
		break;
	case 's':
		c->kind = CV_ANY;
		break;
	case 'p':
		/* vsprintf takes every alphanumeric after %p. */
		if (i >= n || !isident(f[i]) || f[i] == '_')
			c->kind = CV_PTR;
		else if (f[i] == 'x' || f[i] == 'K')
			c->kind = CV_RAW;
		else if (f[i] == 'S' || f[i] == 's' || f[i] == 'B' ||
		    f[i] == 'F' || f[i] == 'f')
			c->kind = CV_SYM;
		else if (f[i] == 'a')
			c->kind = CV_PHYS;
		else
			c->kind = CV_ANY;
		while (i < n && isident(f[i]) && f[i] != '_')
			i++;
		break;
	default:
		return;
	}
	c->len = i;
}

/* Does the piece hold a conversion that prints an argument? */
static int
has_conv(const uint8_t *f, size_t n)
{
	struct conv c;
	size_t i;

	for (i = 0; i < n; i++) {
		if (f[i] != '%')
			continue;
		conv_parse(f + i, n - i, &c);
		if (c.kind != CV_NONE && c.kind != CV_PCT)
			return (1);
		i += c.len - 1;
	}
	return (0);
}

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

/* Pass over blanks, comments and line continuations; count lines. */
static void
lex_space(struct lex *l, int newlines)
{
	const uint8_t *b = l->b;

	while (l->i < l->n) {
		uint8_t c = b[l->i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
		    c == '\v')
			l->i++;
		else if (c == '\n' && newlines) {
			l->line++;
			l->i++;
		} else if (c == '\\' && l->i + 1 < l->n && b[l->i + 1] == '\n') {
			l->line++;
			l->i += 2;
		} else if (c == '/' && l->i + 1 < l->n && b[l->i + 1] == '*') {
			l->i += 2;
			while (l->i < l->n && !(b[l->i] == '*' &&
			    l->i + 1 < l->n && b[l->i + 1] == '/')) {
				if (b[l->i] == '\n')
					l->line++;
				l->i++;
			}
			l->i = l->i + 2 > l->n ? l->n : l->i + 2;
		} else if (c == '/' && l->i + 1 < l->n && b[l->i + 1] == '/' &&
		    newlines) {
			while (l->i < l->n && b[l->i] != '\n')
				l->i++;
		} else
			break;
	}
}

/* Decode a hex or octal escape digit value, or -1. */
static int
digitval(uint8_t c, int base)
{
	if (c >= '0' && c <= '7')
		return (c - '0');
	if (base == 16) {
		if (c >= '8' && c <= '9')
			return (c - '0');
		if (c >= 'a' && c <= 'f')
			return (c - 'a' + 10);
		if (c >= 'A' && c <= 'F')
			return (c - 'A' + 10);
	}
	return (-1);
}

/*
 * Decode the C escape at s[0] == '\\' into *out; the bytes used.  A
 * backslash-newline gives -1 in *out (nothing).
 */
static size_t
unescape(const uint8_t *s, size_t n, int *out)
{
	size_t i = 1;
	int v, d;

	if (n < 2) {
		*out = '\\';
		return (1);
	}
	switch (s[1]) {
	case 'n': *out = '\n'; return (2);
	case 't': *out = '\t'; return (2);
	case 'r': *out = '\r'; return (2);
	case 'a': *out = '\a'; return (2);
	case 'b': *out = '\b'; return (2);
	case 'f': *out = '\f'; return (2);
	case 'v': *out = '\v'; return (2);
	case 'e': *out = 0x1b; return (2);
	case '\n': *out = -1; return (2);
	case 'x':
		v = 0;
		for (i = 2; i < n && (d = digitval(s[i], 16)) >= 0; i++)
			v = (v * 16 + d) & 0xff;
		if (i == 2) {
			*out = 'x';
			return (2);
		}
		*out = v;
		return (i);
	default:
		if (digitval(s[1], 8) >= 0) {
			v = 0;
			for (i = 1; i < n && i < 4 &&
			    (d = digitval(s[i], 8)) >= 0; i++)
				v = v * 8 + d;
			*out = v & 0xff;
			return (i);
		}
		*out = s[1];
		return (2);
	}
}

/*
 * Decode the literal at b[i] == '"' onto the chain; 0, or -1 when it
 * is not terminated on its line (the lexer is left after the line).
 */
static int
lex_literal(struct lex *l, int *toolong)
{
	const uint8_t *b = l->b;
	size_t i = l->i + 1;
	int v;

	if (l->nmark < SI_MARKS) {
		l->moff[l->nmark] = l->blen;
		l->mline[l->nmark++] = l->line;
	}
	while (i < l->n && b[i] != '"') {
		if (b[i] == '\n') {
			l->i = i;
			return (-1);
		}
		if (b[i] == '\\') {
			i += unescape(b + i, l->n - i, &v);
			if (v == -1) {
				l->line++;
				continue;
			}
		} else
			v = b[i++];
		if (l->blen < SI_CHAIN_MAX)
			l->buf[l->blen++] = (uint8_t)v;
		else
			*toolong = 1;
	}
	if (i >= l->n) {
		l->i = l->n;
		return (-1);
	}
	l->i = i + 1;
	return (0);
}

/* The source line the chain byte at off came from. */
static uint32_t
mark_line(const struct lex *l, size_t off)
{
	size_t k;
	uint32_t line = l->nmark ? l->mline[0] : l->line;

	for (k = 0; k < l->nmark; k++) {
		if (l->moff[k] > off)
			break;
		line = l->mline[k];
	}
	return (line);
}

/* Index the pieces of the decoded chain; -1 when memory ran out. */
static int
emit(struct lex *l, size_t skip, int cont)
{
	struct kl_srcidx *x = l->x;
	const uint8_t *f = l->buf;
	size_t s = skip, e, ps;
	struct site st;
	int64_t off;
	int first = 1, any = 0;

	while (s < l->blen) {
		for (e = s; e < l->blen && f[e] != '\n' && f[e] != '\0'; e++)
			;
		ps = s;
		/* A level (KERN_SOH and one byte) at a piece's start. */
		while (e - ps >= 2 && f[ps] == 0x01)
			ps += 2;
		if (e > ps && has_conv(f + ps, e - ps)) {
			if (l->func == FUNC_PENDING) {
				/* Names are kept only for functions with sites. */
				if ((off = arena_add(x, l->b + l->fs, l->fl)) < 0)
					return (-1);
				l->func = (uint32_t)off;
			}
			if ((off = arena_add(x, f + ps, e - ps)) < 0)
				return (-1);
			st.file = l->file;
			st.func = l->func;
			st.fmt = (uint32_t)off;
			st.fmtlen = (uint32_t)(e - ps);
			st.line = mark_line(l, ps > skip ? ps : skip);
			st.flags = (first ? SF_FIRST : 0) |
			    (e < l->blen && f[e] == '\n' ? SF_NL : 0) |
			    (first && cont ? SF_CONT : 0);
			if (site_add(x, &st) != 0)
				return (-1);
			any = 1;
		}
		first = 0;
		if (e < l->blen && f[e] == '\0')
			break;		/* vsprintf stops at a NUL */
		s = e + 1;
	}
	if (any)
		x->st.formats++;
	return (0);
}

/* Is the identifier a known KERN_* level macro? */
static int
is_kern(const uint8_t *b, size_t n)
{
	return (n > 5 && memcmp(b, "KERN_", 5) == 0 &&
	    inlist(b, n, kern_macros, sizeof(kern_macros) /
	    sizeof(kern_macros[0])));
}

/* Does the callee take the file's pr_fmt()? */
static int
takes_prfmt(const uint8_t *b, size_t n)
{
	if (n < 4 || memcmp(b, "pr_", 3) != 0)
		return (0);
	return (!ideq(b, n, "pr_cont"));
}

/*
 * A chain of literals starts at b[i] == '"'.  Read it whole; index it
 * when it is a format passed to a call.  -1 when memory ran out.
 */
static int
lex_chain(struct lex *l)
{
	struct paren *p = l->pd > 0 ?
	    &l->ps[l->pd < SI_PARENS ? l->pd : SI_PARENS] : NULL;
	int bad = 0, toolong = 0, cont = 0, first;
	size_t skip = 0, save;
	uint32_t sline;

	l->blen = 0;
	l->nmark = 0;
	first = p != NULL && !p->over && p->args == 0 &&
	    (l->lt == T_LPAREN || l->lt == T_IDENT);
	/* What sits right before the first literal. */
	if (l->lt == T_IDENT) {
		const uint8_t *id = l->b + l->lts;

		if (is_kern(id, l->ltl))
			cont = ideq(id, l->ltl, "KERN_CONT");
		else if (ideq(id, l->ltl, "KBUILD_MODNAME")) {
			memcpy(l->buf, "%s", 2);
			l->blen = 2;
		} else if (!inlist(id, l->ltl, not_calls, sizeof(not_calls) /
		    sizeof(not_calls[0])))
			bad = 1;	/* a macro we cannot expand */
	} else if (l->lt == T_RPAREN)
		bad = 1;		/* __stringify(x) "..." */
	for (;;) {
		if (lex_literal(l, &toolong) != 0) {
			l->x->st.skip_unterminated++;
			l->lt = T_OTHER;
			return (0);
		}
		save = l->i;
		sline = l->line;
		lex_space(l, !l->indef);
		if (l->i < l->n && l->b[l->i] == '"')
			continue;
		if (l->i < l->n && isident(l->b[l->i]) &&
		    !(l->b[l->i] >= '0' && l->b[l->i] <= '9')) {
			size_t s = l->i, e = s;

			while (e < l->n && isident(l->b[e]))
				e++;
			if (is_kern(l->b + s, e - s)) {
				if (ideq(l->b + s, e - s, "KERN_CONT") &&
				    l->blen == 0)
					cont = 1;
				l->i = e;
				lex_space(l, !l->indef);
				if (l->i < l->n && l->b[l->i] == '"')
					continue;
				l->lt = T_IDENT;
				l->lts = s;
				l->ltl = e - s;
				break;
			}
			/* A string macro inside the chain: not followed. */
			bad = 1;
			l->i = save;
			l->line = sline;
			break;
		}
		if (l->i < l->n && l->b[l->i] == '#' && !l->indef) {
			bad = 1;	/* #ifdef inside the chain */
		}
		break;
	}
	if (l->lt != T_IDENT || l->i == save)
		l->lt = T_STR;
	if (p == NULL || !p->call || p->over)
		return (0);
	if (!has_conv(l->buf, l->blen))
		return (0);
	if (bad) {
		l->x->st.skip_macro++;
		return (0);
	}
	if (toolong) {
		l->x->st.skip_long++;
		return (0);
	}
	if (ideq(l->b + p->cs, p->cl, "pr_cont"))
		cont = 1;
	if (first && (takes_prfmt(l->b + p->cs, p->cl))) {
		if (l->pfx_state < 0) {
			l->x->st.skip_macro++;
			return (0);
		}
		if (l->pfx_state > 0 && l->pfxlen > 0) {
			memmove(l->buf + l->pfxlen, l->buf, l->blen);
			memcpy(l->buf, l->pfx, l->pfxlen);
			l->blen += l->pfxlen;
			for (size_t k = 0; k < l->nmark; k++)
				l->moff[k] += l->pfxlen;
			if (l->nmark > 0)
				l->moff[0] = 0;
		}
	}
	return (emit(l, skip, cont));
}

/* Read the body of #define pr_fmt(fmt) ... up to the line's end. */
static void
lex_prfmt(struct lex *l)
{
	const uint8_t *b = l->b;
	int toolong = 0, seen_fmt = 0;

	l->pfx_state = 1;
	l->pfxlen = 0;
	l->blen = 0;
	l->nmark = 0;
	for (;;) {
		lex_space(l, 0);
		if (l->i >= l->n || b[l->i] == '\n')
			break;
		if (b[l->i] == '"' && !seen_fmt) {
			if (lex_literal(l, &toolong) != 0) {
				l->pfx_state = -1;
				return;
			}
		} else if (isident(b[l->i])) {
			size_t s = l->i;

			while (l->i < l->n && isident(b[l->i]))
				l->i++;
			if (ideq(b + s, l->i - s, "fmt")) {
				seen_fmt = 1;
			} else if (seen_fmt) {
				continue;	/* arguments after fmt */
			} else if (ideq(b + s, l->i - s, "KBUILD_MODNAME")) {
				if (l->blen + 2 <= SI_CHAIN_MAX) {
					memcpy(l->buf + l->blen, "%s", 2);
					l->blen += 2;
				}
			} else
				l->pfx_state = -1;
		} else
			l->i++;
	}
	if (!seen_fmt || toolong || l->blen > SI_PREFIX_MAX)
		l->pfx_state = -1;
	if (l->pfx_state > 0) {
		memcpy(l->pfx, l->buf, l->blen);
		l->pfxlen = l->blen;
	}
}

/* Pass to the end of a preprocessor line (comments and literals too). */
static void
lex_skipline(struct lex *l)
{
	const uint8_t *b = l->b;

	while (l->i < l->n && b[l->i] != '\n') {
		if (b[l->i] == '\\' && l->i + 1 < l->n && b[l->i + 1] == '\n') {
			l->line++;
			l->i += 2;
		} else if (b[l->i] == '/' && l->i + 1 < l->n &&
		    b[l->i + 1] == '*')
			lex_space(l, 0);
		else
			l->i++;
	}
}

/* A preprocessor line at b[i] == '#'. */
static void
lex_directive(struct lex *l)
{
	const uint8_t *b = l->b;
	size_t s, e;

	l->i++;
	lex_space(l, 0);
	s = l->i;
	while (l->i < l->n && isident(b[l->i]))
		l->i++;
	e = l->i;
	if (ideq(b + s, e - s, "define")) {
		lex_space(l, 0);
		s = l->i;
		while (l->i < l->n && isident(b[l->i]))
			l->i++;
		e = l->i;
		if (ideq(b + s, e - s, "pr_fmt")) {
			while (l->i < l->n && b[l->i] != ')' &&
			    b[l->i] != '\n')
				l->i++;
			if (l->i < l->n && b[l->i] == ')')
				l->i++;
			lex_prfmt(l);
			return;
		}
		/* The body is code: read it with a state of its own. */
		l->indef = 1;
		l->sv_bd = l->bd;
		l->sv_pd = l->pd;
		l->sv_cand = l->cand;
		l->sv_func = l->func;
		l->sv_fs = l->fs;
		l->sv_fl = l->fl;
		if (e > s) {
			l->func = FUNC_PENDING;
			l->fs = s;
			l->fl = e - s;
		}
		l->lt = T_NONE;
		return;
	}
	if (ideq(b + s, e - s, "undef")) {
		lex_space(l, 0);
		s = l->i;
		while (l->i < l->n && isident(b[l->i]))
			l->i++;
		if (ideq(b + s, l->i - s, "pr_fmt"))
			l->pfx_state = 0;
	}
	lex_skipline(l);
}

/* End a #define body: back to the state before it. */
static void
lex_enddef(struct lex *l)
{
	l->indef = 0;
	l->bd = l->sv_bd;
	l->pd = l->sv_pd;
	l->cand = l->sv_cand;
	l->func = l->sv_func;
	l->fs = l->sv_fs;
	l->fl = l->sv_fl;
	l->lt = T_NONE;
}

/* Lex one file; -1 when memory ran out. */
static int
lex_file(struct lex *l)
{
	const uint8_t *b = l->b;

	l->bol = 1;
	while (l->i < l->n) {
		uint8_t c = b[l->i];

		if (c == '\n') {
			l->line++;
			l->i++;
			l->bol = 1;
			if (l->indef)
				lex_enddef(l);
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
		    c == '\v') {
			l->i++;
			continue;
		}
		if (c == '\\' && l->i + 1 < l->n && b[l->i + 1] == '\n') {
			l->line++;
			l->i += 2;
			continue;
		}
		if (c == '/' && l->i + 1 < l->n &&
		    (b[l->i + 1] == '*' || b[l->i + 1] == '/')) {
			if (b[l->i + 1] == '/' && l->indef) {
				/* A // comment ends the #define's line. */
				lex_skipline(l);
				continue;
			}
			lex_space(l, b[l->i + 1] == '/');
			continue;
		}
		if (c == '#' && l->bol && !l->indef) {
			lex_directive(l);
			continue;
		}
		l->bol = 0;
		if (isident(c) && !(c >= '0' && c <= '9')) {
			size_t s = l->i;

			while (l->i < l->n && isident(b[l->i]))
				l->i++;
			l->lt = T_IDENT;
			l->lts = s;
			l->ltl = l->i - s;
			continue;
		}
		if (c >= '0' && c <= '9') {
			while (l->i < l->n && (isident(b[l->i]) ||
			    b[l->i] == '.'))
				l->i++;
			l->lt = T_OTHER;
			continue;
		}
		if (c == '"') {
			if (lex_chain(l) != 0)
				return (-1);
			continue;
		}
		l->i++;
		switch (c) {
		case '\'':
			while (l->i < l->n && b[l->i] != '\'' &&
			    b[l->i] != '\n')
				l->i += b[l->i] == '\\' ? 2 : 1;
			if (l->i < l->n && b[l->i] == '\'')
				l->i++;
			l->lt = T_OTHER;
			break;
		case '(':
			if (l->pd < SI_PARENS) {
				struct paren *p = &l->ps[++l->pd];

				p->over = 0;
				p->args = 0;
				p->call = l->lt == T_IDENT &&
				    !inlist(b + l->lts, l->ltl, not_calls,
				    sizeof(not_calls) / sizeof(not_calls[0]));
				p->cs = l->lts;
				p->cl = l->lt == T_IDENT ? l->ltl : 0;
				if (l->pd == 1 && l->bd == 0 && !l->cand &&
				    p->call && !l->indef) {
					l->cand = 1;
					l->cs = l->lts;
					l->cl = l->ltl;
				}
			} else {
				l->ps[SI_PARENS].over = 1;
				l->pd++;
			}
			l->lt = T_LPAREN;
			break;
		case ')':
			if (l->pd > 0)
				l->pd--;
			if (l->pd > SI_PARENS)
				l->ps[SI_PARENS].over = 1;
			l->lt = T_RPAREN;
			break;
		case ',':
			if (l->pd > 0 && l->pd <= SI_PARENS)
				l->ps[l->pd].args++;
			l->lt = T_COMMA;
			break;
		case '{':
			if (l->bd == 0 && l->pd == 0 && l->cand && !l->indef) {
				l->func = FUNC_PENDING;
				l->fs = l->cs;
				l->fl = l->cl;
			}
			l->bd++;
			l->lt = T_OTHER;
			break;
		case '}':
			if (l->bd > 0)
				l->bd--;
			if (l->bd == 0 && !l->indef) {
				l->func = 0;
				l->cand = 0;
				l->pd = 0;
			}
			l->lt = T_OTHER;
			break;
		case ';':
			if (l->bd == 0 && !l->indef) {
				l->cand = 0;
				l->pd = 0;
			}
			l->lt = T_OTHER;
			break;
		case '=':
			if (l->bd == 0 && l->pd == 0 && !l->indef)
				l->cand = 0;
			l->lt = T_OTHER;
			break;
		default:
			l->lt = T_OTHER;
			break;
		}
	}
	return (0);
}

/*
 * Index the formats of one source file held in memory.  A binary file
 * (a NUL byte) is counted and skipped.  -1 when memory ran out.
 */
int
kl_srcidx_add_source(struct kl_srcidx *x, const char *name,
    const void *data, size_t len, struct kl_error *err)
{
	struct lex *l;
	int64_t off;
	int r;

	if (memchr(data, '\0', len) != NULL) {
		x->st.skip_binary++;
		return (0);
	}
	if (len > KL_SRCIDX_FILE_MAX) {
		x->st.skip_huge++;
		return (0);
	}
	if ((l = calloc(1, sizeof(*l))) == NULL ||
	    (off = arena_add(x, name, strlen(name))) < 0) {
		free(l);
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	l->x = x;
	l->b = data;
	l->n = len;
	l->line = 1;
	l->file = (uint32_t)off;
	r = lex_file(l);
	free(l);
	if (r != 0) {
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	x->st.files++;
	x->st.bytes += len;
	return (0);
}

/* Is the name one the indexer reads (a .c or .h file)? */
static int
wanted(const char *name)
{
	size_t n = strlen(name);

	return (n > 2 && name[n - 2] == '.' &&
	    (name[n - 1] == 'c' || name[n - 1] == 'h'));
}

/*
 * Is a path (relative to the tree's top) user-space code whose printf
 * formats never reach the kernel log (tools/, scripts/)?
 */
static int
userspace(const char *rel)
{
	return (strncmp(rel, "tools/", 6) == 0 ||
	    strncmp(rel, "scripts/", 8) == 0);
}

/* Read a whole file of at most max bytes into *buf; -1 with errno. */
static int
slurp(int fd, uint8_t **buf, size_t *cap, size_t *len, size_t max)
{
	ssize_t r;
	uint8_t *nb;

	*len = 0;
	for (;;) {
		if (*len == *cap) {
			size_t nc = *cap ? *cap * 2 : 1 << 20;

			if (*cap > max) {
				errno = EFBIG;
				return (-1);
			}
			if ((nb = realloc(*buf, nc)) == NULL)
				return (-1);
			*buf = nb;
			*cap = nc;
		}
		r = read(fd, *buf + *len, *cap - *len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		if (r == 0)
			return (0);
		*len += (size_t)r;
		if (*len > max) {
			errno = EFBIG;
			return (-1);
		}
	}
}

/* A directory walk. */
struct walk {
	struct kl_srcidx *x;
	uint8_t		*buf;
	size_t		 cap;
	char		 path[4096];
	size_t		 root;		/* length of the root and its '/' */
	uint64_t	 key;		/* sum of per-file hashes */
	uint64_t	 nkey;
	int		 keyonly;
};

/* Compare names for qsort. */
static int
namecmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Walk the directory w->path (of length plen); -1 on a fatal error. */
static int
walk_dir(struct walk *w, size_t plen, int depth, struct kl_error *err)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, **nn;
	size_t n = 0, cap = 0, i, nl;
	int rc = 0;

	if (depth > SI_DEPTH_MAX) {
		w->x->st.skip_unreadable++;
		return (0);
	}
	if ((d = opendir(w->path)) == NULL) {
		w->x->st.skip_unreadable++;
		return (0);
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((nn = realloc(names, cap * sizeof(*nn))) == NULL)
				goto nomem;
			names = nn;
		}
		if ((names[n] = strdup(de->d_name)) == NULL)
			goto nomem;
		n++;
	}
	closedir(d);
	d = NULL;
	if (n > 0)
		qsort(names, n, sizeof(*names), namecmp);
	for (i = 0; i < n && rc == 0; i++) {
		struct stat sb;

		nl = strlen(names[i]);
		if (plen + 1 + nl + 2 > sizeof(w->path)) {
			w->x->st.skip_unreadable++;
			continue;
		}
		w->path[plen] = '/';
		memcpy(w->path + plen + 1, names[i], nl + 1);
		if (lstat(w->path, &sb) != 0) {
			w->x->st.skip_unreadable++;
			continue;
		}
		if (S_ISDIR(sb.st_mode)) {
			memcpy(w->path + plen + 1 + nl, "/", 2);
			if (userspace(w->path + w->root)) {
				w->path[plen + 1 + nl] = '\0';
				continue;
			}
			w->path[plen + 1 + nl] = '\0';
			rc = walk_dir(w, plen + 1 + nl, depth + 1, err);
		}
		else if (S_ISREG(sb.st_mode) && wanted(names[i])) {
			const char *rel = w->path + w->root;
			uint64_t h;

			h = fnv(FNV0, rel, strlen(rel) + 1);
			h = fnv(h, &sb.st_size, sizeof(sb.st_size));
			h = fnv(h, &sb.st_mtim, sizeof(sb.st_mtim));
			w->key += h;
			w->nkey++;
			if (!w->keyonly) {
				int fd;
				size_t len;

				if (sb.st_size > KL_SRCIDX_FILE_MAX) {
					w->x->st.skip_huge++;
					continue;
				}
				if ((fd = open(w->path, O_RDONLY)) < 0) {
					w->x->st.skip_unreadable++;
					continue;
				}
				if (slurp(fd, &w->buf, &w->cap, &len,
				    KL_SRCIDX_FILE_MAX) != 0) {
					if (errno == EFBIG)
						w->x->st.skip_huge++;
					else if (errno == ENOMEM) {
						close(fd);
						goto nomem;
					} else
						w->x->st.skip_unreadable++;
					close(fd);
					continue;
				}
				close(fd);
				rc = kl_srcidx_add_source(w->x, rel, w->buf,
				    len, err);
			}
		}
	}
	w->path[plen] = '\0';
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return (rc);
nomem:
	if (d != NULL)
		closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}

/* Start a walk of the directory root. */
static int
walk_init(struct walk *w, struct kl_srcidx *x, const char *root,
    struct kl_error *err)
{
	size_t n = strlen(root);

	memset(w, 0, sizeof(*w));
	w->x = x;
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n + 2 > sizeof(w->path)) {
		kl_error_set(err, KL_EINVAL, 0, "path too long");
		return (-1);
	}
	memcpy(w->path, root, n);
	w->path[n] = '\0';
	w->root = n + 1;
	return (0);
}

/* Strip the first component of a tarball member name ("linux-6.1/"). */
static const char *
member_rel(const char *name)
{
	const char *s;

	while (name[0] == '.' && name[1] == '/')
		name += 2;
	s = strchr(name, '/');
	return (s != NULL && s[1] != '\0' ? s + 1 : name);
}

/* Index every .c and .h member of a tarball, streaming. */
static int
add_tarball(struct kl_srcidx *x, int fd, const char *path,
    struct kl_error *err)
{
	struct archive *a;
	struct archive_entry *e;
	uint8_t *buf = NULL, *nb;
	size_t cap = 0, len;
	int r, rc = 0;

	if ((a = archive_read_new()) == NULL) {
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip_streamable(a);
	archive_read_support_format_cpio(a);
	if (archive_read_open_fd(a, fd, 1 << 20) != ARCHIVE_OK) {
		kl_error_set(err, KL_EFORMAT, 0, "%s: not an archive: %s",
		    path, archive_error_string(a));
		archive_read_free(a);
		return (-1);
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		int64_t size = archive_entry_size(e);
		la_ssize_t got;

		if (name == NULL || archive_entry_filetype(e) != AE_IFREG ||
		    !wanted(name) || userspace(member_rel(name)))
			continue;
		if (size < 0 || size > KL_SRCIDX_FILE_MAX) {
			x->st.skip_huge++;
			continue;
		}
		if ((size_t)size + 1 > cap) {
			size_t nc = cap ? cap : 1 << 20;

			while (nc < (size_t)size + 1)
				nc *= 2;
			if ((nb = realloc(buf, nc)) == NULL) {
				kl_error_set(err, KL_ENOMEM, errno,
				    "out of memory");
				rc = -1;
				break;
			}
			buf = nb;
			cap = nc;
		}
		len = 0;
		while (len < (size_t)size &&
		    (got = archive_read_data(a, buf + len, (size_t)size -
		    len)) > 0)
			len += (size_t)got;
		if (len != (size_t)size) {
			/* A member cut short: never index half of it. */
			x->st.skip_unreadable++;
			if (archive_errno(a) != 0 && got < 0)
				break;
			continue;
		}
		if ((rc = kl_srcidx_add_source(x, member_rel(name), buf, len,
		    err)) != 0)
			break;
	}
	if (rc == 0 && r != ARCHIVE_EOF && r != ARCHIVE_OK &&
	    r != ARCHIVE_WARN) {
		kl_error_set(err, KL_EFORMAT, 0, "%s: %s", path,
		    archive_error_string(a) ? archive_error_string(a) :
		    "archive damaged");
		rc = -1;
	}
	archive_read_free(a);
	free(buf);
	return (rc);
}

/*
 * Index a kernel tree: a directory, or an archive (a tarball of any
 * compression libarchive knows) whose members are read in place.
 */
int
kl_srcidx_add_tree(struct kl_srcidx *x, const char *path,
    struct kl_error *err)
{
	struct stat sb;
	struct walk w;
	int fd, rc;

	if (stat(path, &sb) != 0) {
		kl_error_set(err, KL_EIO, errno, "%s: %s", path,
		    strerror(errno));
		return (-1);
	}
	if (S_ISDIR(sb.st_mode)) {
		if (walk_init(&w, x, path, err) != 0)
			return (-1);
		rc = walk_dir(&w, strlen(w.path), 0, err);
		free(w.buf);
		return (rc);
	}
	if ((fd = open(path, O_RDONLY)) < 0) {
		kl_error_set(err, KL_EIO, errno, "%s: %s", path,
		    strerror(errno));
		return (-1);
	}
	rc = add_tarball(x, fd, path, err);
	close(fd);
	return (rc);
}

/*
 * The cache key of a tree: for a directory, the names, sizes and
 * modification times of its .c and .h files; for a file, its path,
 * size, inode and modification time.  Written as hex into key.
 */
int
kl_srcidx_tree_key(const char *path, char *key, size_t keylen,
    struct kl_error *err)
{
	struct stat sb;
	struct kl_srcidx *x;
	struct walk w;
	uint64_t h;
	char *real;
	int rc;

	if (stat(path, &sb) != 0 || (real = realpath(path, NULL)) == NULL) {
		kl_error_set(err, KL_EIO, errno, "%s: %s", path,
		    strerror(errno));
		return (-1);
	}
	h = fnv(FNV0, real, strlen(real) + 1);
	free(real);
	if (S_ISDIR(sb.st_mode)) {
		if ((x = kl_srcidx_new(err)) == NULL)
			return (-1);
		if (walk_init(&w, x, path, err) != 0) {
			kl_srcidx_free(x);
			return (-1);
		}
		w.keyonly = 1;
		rc = walk_dir(&w, strlen(w.path), 0, err);
		kl_srcidx_free(x);
		if (rc != 0)
			return (-1);
		h = fnv(h, "d", 1);
		h = fnv(h, &w.key, sizeof(w.key));
		h = fnv(h, &w.nkey, sizeof(w.nkey));
	} else {
		h = fnv(h, "f", 1);
		h = fnv(h, &sb.st_size, sizeof(sb.st_size));
		h = fnv(h, &sb.st_ino, sizeof(sb.st_ino));
		h = fnv(h, &sb.st_mtim, sizeof(sb.st_mtim));
	}
	h = fnv(h, SI_CACHE_MAGIC, sizeof(SI_CACHE_MAGIC));
	if (keylen < 17) {
		kl_error_set(err, KL_EINVAL, 0, "key buffer too small");
		return (-1);
	}
	snprintf(key, keylen, "%016llx", (unsigned long long)h);
	return (0);
}

/*
 * Decode a printk index format (seq_escape_str with ESCAPE_ANY: C
 * escapes and octal) from s[0..n) into out; the decoded length.
 */
static size_t
pk_unescape(const uint8_t *s, size_t n, uint8_t *out, size_t max)
{
	size_t i = 0, o = 0;
	int v;

	while (i < n && o < max) {
		if (s[i] == '\\') {
			i += unescape(s + i, n - i, &v);
			if (v < 0)
				continue;
			out[o++] = (uint8_t)v;
		} else
			out[o++] = s[i++];
	}
	return (o);
}

/*
 * Add the sites of a printk index (debugfs printk/index/vmlinux):
 * "<level[,c]> file:line function "format"" per line.  Lines not in
 * that shape are counted (pk_malformed) and passed over.
 */
int
kl_srcidx_add_printk_index(struct kl_srcidx *x, const void *data,
    size_t len, struct kl_error *err)
{
	const uint8_t *b = data, *p, *e, *nl;
	struct lex *l;
	uint64_t line, lineno = 0;
	int64_t foff, noff;
	int cont;

	if ((l = calloc(1, sizeof(*l))) == NULL) {
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	l->x = x;
	for (p = b; p < b + len; p = nl + 1) {
		const uint8_t *f0, *f1, *c0, *fn0, *fn1, *q0, *q1;

		lineno++;
		if ((nl = memchr(p, '\n', (size_t)(b + len - p))) == NULL)
			nl = b + len;
		e = nl;
		if (e > p && e[-1] == '\r')
			e--;
		if (e == p || *p == '#')
			continue;
		x->st.pk_lines++;
		cont = 0;
		/* <level> or <level,c> or <c> */
		if (*p != '<' || (q0 = memchr(p, '>', (size_t)(e - p))) ==
		    NULL || q0 - p > 8)
			goto bad;
		if (memchr(p, 'c', (size_t)(q0 - p)) != NULL)
			cont = 1;
		f0 = q0 + 1;
		if (f0 >= e || *f0 != ' ')
			goto bad;
		f0++;
		for (f1 = f0; f1 < e && *f1 != ' '; f1++)
			;
		/* file:line: the last colon. */
		for (c0 = f1; c0 > f0 && c0[-1] != ':'; c0--)
			;
		if (c0 <= f0 + 1 || c0 == f1 || f1 >= e)
			goto bad;
		line = 0;
		for (q0 = c0; q0 < f1; q0++) {
			if (*q0 < '0' || *q0 > '9' || line > UINT32_MAX / 10)
				goto bad;
			line = line * 10 + (uint64_t)(*q0 - '0');
		}
		fn0 = f1 + 1;
		for (fn1 = fn0; fn1 < e && *fn1 != ' '; fn1++)
			;
		if (fn1 == fn0 || fn1 + 2 > e || fn1[1] != '"' || e[-1] != '"')
			goto bad;
		q0 = fn1 + 2;
		q1 = e - 1;
		if (q1 < q0)
			goto bad;
		if ((foff = arena_add(x, f0, (size_t)(c0 - 1 - f0))) < 0 ||
		    (noff = arena_add(x, fn0, (size_t)(fn1 - fn0))) < 0)
			goto nomem;
		l->blen = pk_unescape(q0, (size_t)(q1 - q0), l->buf,
		    SI_CHAIN_MAX);
		if ((size_t)(q1 - q0) > SI_CHAIN_MAX) {
			x->st.skip_long++;
			continue;
		}
		l->file = (uint32_t)foff;
		l->func = (uint32_t)noff;
		l->nmark = 1;
		l->moff[0] = 0;
		l->mline[0] = (uint32_t)line;
		l->line = (uint32_t)line;
		{
			size_t before = x->nsite, k;

			if (emit(l, 0, cont) != 0)
				goto nomem;
			for (k = before; k < x->nsite; k++)
				x->site[k].flags |= SF_EXACT;
			x->st.pk_sites += x->nsite - before;
		}
		continue;
bad:
		if (x->st.pk_malformed++ == 0)
			x->st.pk_first_bad = lineno;
	}
	free(l);
	return (0);
nomem:
	free(l);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}

/* A piece's candidate key word: hash, length, bounded by literal text. */
struct cword {
	uint64_t	 h;
	size_t		 len;
	int		 bounded;
};

/*
 * The words of a piece's literal text, at most max, into w; bounded
 * words have literal text (or the piece's line edges) on both sides.
 */
static size_t
piece_words(const uint8_t *f, size_t n, int first, struct cword *w,
    size_t max)
{
	size_t i = 0, k = 0, s;
	int lb;			/* left side is a literal or an edge */
	struct conv c;

	lb = 1;
	(void)first;
	while (i < n && k < max) {
		if (f[i] == '%') {
			conv_parse(f + i, n - i, &c);
			if (c.kind == CV_PCT) {
				lb = 1;
				i += 2;
				continue;
			}
			i += c.len;
			lb = 0;
			continue;
		}
		if (!isword(f[i])) {
			lb = 1;
			i++;
			continue;
		}
		s = i;
		while (i < n && isword(f[i]))
			i++;
		w[k].h = fnv(FNV0, f + s, i - s);
		w[k].len = i - s;
		w[k].bounded = lb && (i == n || f[i] != '%' ||
		    (i + 1 < n && f[i + 1] == '%'));
		/* Digits alone are too often printed by conversions. */
		if (i - s >= 2)
			k++;
		lb = 0;
	}
	return (k);
}

/* Compare keys by hash, then site. */
static int
keycmp(const void *a, const void *b)
{
	const struct key *ka = a, *kb = b;

	if (ka->h != kb->h)
		return (ka->h < kb->h ? -1 : 1);
	return (ka->site < kb->site ? -1 : ka->site > kb->site);
}

/* Compare hashes. */
static int
u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* How many entries of the sorted v[0..n) equal h. */
static size_t
count_eq(const uint64_t *v, size_t n, uint64_t h)
{
	size_t lo = 0, hi = n, a;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	a = lo;
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo - a);
}

#define PIECE_WORDS 64

/*
 * Build the key index: each site keyed by its rarest bounded word (a
 * word next to a conversion only when it has none).  Sites with no
 * word are counted (skip_nokey) and cannot be matched.
 */
int
kl_srcidx_build(struct kl_srcidx *x, struct kl_error *err)
{
	struct cword w[PIECE_WORDS];
	uint64_t *all = NULL;
	size_t nall = 0, call = 0, i, k, nw;

	free(x->key);
	x->key = NULL;
	x->nkey = 0;
	x->st.skip_nokey = 0;
	for (i = 0; i < x->nsite; i++) {
		const struct site *s = &x->site[i];

		nw = piece_words(x->arena + s->fmt, s->fmtlen,
		    s->flags & SF_FIRST, w, PIECE_WORDS);
		for (k = 0; k < nw; k++) {
			if (nall == call) {
				uint64_t *na;

				call = call ? call * 2 : 65536;
				if ((na = realloc(all, call * sizeof(*na))) ==
				    NULL)
					goto nomem;
				all = na;
			}
			all[nall++] = w[k].h;
		}
	}
	if (nall > 0)
		qsort(all, nall, sizeof(*all), u64cmp);
	if (x->nsite > 0 &&
	    (x->key = calloc(x->nsite, sizeof(*x->key))) == NULL)
		goto nomem;
	for (i = 0; i < x->nsite; i++) {
		const struct site *s = &x->site[i];
		size_t best = SIZE_MAX, bc = 0, cnt;

		nw = piece_words(x->arena + s->fmt, s->fmtlen,
		    s->flags & SF_FIRST, w, PIECE_WORDS);
		for (k = 0; k < nw; k++) {
			cnt = count_eq(all, nall, w[k].h);
			if (best == SIZE_MAX ||
			    w[k].bounded > w[best].bounded ||
			    (w[k].bounded == w[best].bounded &&
			    (cnt < bc || (cnt == bc &&
			    w[k].len > w[best].len)))) {
				best = k;
				bc = cnt;
			}
		}
		if (best == SIZE_MAX) {
			x->st.skip_nokey++;
			continue;
		}
		x->key[x->nkey].h = w[best].h;
		x->key[x->nkey++].site = (uint32_t)i;
	}
	free(all);
	if (x->nkey > 0)
		qsort(x->key, x->nkey, sizeof(*x->key), keycmp);
	x->built = 1;
	return (0);
nomem:
	free(all);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}

/* A match in progress. */
struct mst {
	const uint8_t	*f;
	size_t		 fn;
	const uint8_t	*m;
	size_t		 mn;
	int		 need_end;	/* the piece must end the message */
	long		 steps;
	size_t		 tok, tokend;	/* the token's span */
	/* Result: the conversion that covered the token. */
	size_t		 hit_f;		/* offset in f, SIZE_MAX none */
	size_t		 hit_len;
	size_t		 end;		/* message end of the match */
	size_t		 lit;		/* literal bytes matched */
	size_t		 any;		/* bytes taken by %s-like */
	int		 width_ok;	/* the covering width equals toklen */
	int		 anyhit;	/* any conversion will do */
};

static int match_at(struct mst *, size_t, size_t, size_t, size_t);

/* The length of the hex run at m[i]. */
static size_t
hexrun(const struct mst *st, size_t i)
{
	size_t k = i;

	while (k < st->mn && kl_isxdigit(st->m[k]))
		k++;
	return (k - i);
}

/* Try the conversion c at f[fi] taking m[mi..mi+n); then the rest. */
static int
take(struct mst *st, const struct conv *c, size_t fi, size_t mi, size_t n,
    size_t lit, size_t any)
{
	size_t hf = st->hit_f, hl = st->hit_len;
	int wok = st->width_ok;

	if (st->anyhit || (mi <= st->tok && st->tokend <= mi + n)) {
		st->hit_f = fi;
		st->hit_len = c->len;
		st->width_ok = c->width > 0 &&
		    (size_t)c->width == st->tokend - st->tok;
	}
	if (match_at(st, fi + c->len, mi + n, lit, any))
		return (1);
	st->hit_f = hf;
	st->hit_len = hl;
	st->width_ok = wok;
	return (0);
}

/* Match a number: pads, sign, digits of the class; all lengths. */
static int
take_num(struct mst *st, const struct conv *c, size_t fi, size_t mi,
    size_t lit, size_t any)
{
	size_t k = mi, pad, d0, d, tot, end;

	while (k < st->mn && st->m[k] == ' ')
		k++;
	pad = k - mi;
	if (pad > 0 && c->width <= 0 && !(c->kind == CV_INT && pad == 1))
		return (0);
	if (c->kind == CV_INT && k < st->mn &&
	    (st->m[k] == '-' || st->m[k] == '+'))
		k++;
	if (c->kind == CV_HEX && c->alt && k + 1 < st->mn &&
	    st->m[k] == '0' && (st->m[k + 1] == 'x' || st->m[k + 1] == 'X'))
		k += 2;
	d0 = k;
	while (k < st->mn && (c->kind == CV_HEX ? kl_isxdigit(st->m[k]) :
	    c->kind == CV_OCT ? (st->m[k] >= '0' && st->m[k] <= '7') :
	    (st->m[k] >= '0' && st->m[k] <= '9')))
		k++;
	/* The longest run first; vsprintf prints no leading junk. */
	for (d = k - d0; d >= 1; d--) {
		end = d0 + d;
		tot = end - mi;
		if (c->width > 0 && c->zero && !c->left && pad == 0 &&
		    d < (size_t)c->width)
			break;
		if (pad > 0 && tot != (size_t)c->width && c->width > 0)
			continue;
		if (c->left && c->width > 0) {
			size_t e2 = end;

			while (e2 < st->mn && st->m[e2] == ' ' &&
			    e2 - mi < (size_t)c->width)
				e2++;
			if (take(st, c, fi, mi, e2 - mi, lit, any))
				return (1);
			if (e2 != end)
				continue;
		}
		if (take(st, c, fi, mi, end - mi, lit, any))
			return (1);
		if (--st->steps <= 0)
			return (0);
	}
	return (0);
}

/* Match the conversion at f[fi] at m[mi]. */
static int
match_conv(struct mst *st, const struct conv *c, size_t fi, size_t mi,
    size_t lit, size_t any)
{
	size_t n, k, max;
	uint8_t next;
	int have_next;

	switch (c->kind) {
	case CV_INT:
	case CV_HEX:
	case CV_OCT:
		return (take_num(st, c, fi, mi, lit, any));
	case CV_CHAR:
		if (mi >= st->mn)
			return (0);
		return (take(st, c, fi, mi, 1, lit, any));
	case CV_RAW:
		n = hexrun(st, mi);
		if (n == 0 && mi + 8 <= st->mn &&
		    memcmp(st->m + mi, "pK-error", 8) == 0)
			n = 8;
		return (n > 0 && take(st, c, fi, mi, n, lit, any));
	case CV_PHYS:
		if (mi + 2 >= st->mn || st->m[mi] != '0' ||
		    st->m[mi + 1] != 'x')
			return (0);
		n = hexrun(st, mi + 2);
		return (n > 0 && take(st, c, fi, mi, n + 2, lit, any));
	case CV_PTR:
		n = hexrun(st, mi);
		if (n > 0)
			return (take(st, c, fi, mi, n, lit, any));
		if (mi < st->mn && st->m[mi] == '(') {
			for (k = mi; k < st->mn && st->m[k] != ')'; k++)
				;
			if (k < st->mn)
				return (take(st, c, fi, mi, k + 1 - mi, lit,
				    any));
		}
		return (0);
	case CV_SYM:
		for (k = mi; k < st->mn && st->m[k] != ' '; k++)
			;
		if (k == mi)
			return (0);
		if (k + 2 < st->mn && st->m[k + 1] == '[') {
			size_t j;

			for (j = k + 2; j < st->mn && st->m[j] != ']' &&
			    st->m[j] != ' '; j++)
				;
			if (j < st->mn && st->m[j] == ']' &&
			    take(st, c, fi, mi, j + 1 - mi, lit, any))
				return (1);
		}
		return (take(st, c, fi, mi, k - mi, lit, any));
	case CV_ANY:
		max = st->mn - mi;
		if (c->prec >= 0 && (size_t)c->prec < max)
			max = (size_t)c->prec;
		have_next = fi + c->len < st->fn && st->f[fi + c->len] != '%';
		next = have_next ? st->f[fi + c->len] : 0;
		for (n = 0; n <= max; n++) {
			if (--st->steps <= 0)
				return (0);
			if (have_next && mi + n < st->mn && st->m[mi + n] !=
			    next)
				continue;
			if (take(st, c, fi, mi, n, lit, any + n))
				return (1);
		}
		return (0);
	default:
		return (0);
	}
}

/* Match f[fi..] against m[mi..]. */
static int
match_at(struct mst *st, size_t fi, size_t mi, size_t lit, size_t any)
{
	struct conv c;

	while (fi < st->fn) {
		if (--st->steps <= 0)
			return (0);
		if (st->f[fi] == '%') {
			conv_parse(st->f + fi, st->fn - fi, &c);
			if (c.kind == CV_PCT) {
				if (mi >= st->mn || st->m[mi] != '%')
					return (0);
				fi += 2;
				mi++;
				lit++;
				continue;
			}
			if (c.kind == CV_NONE) {
				if (mi >= st->mn || st->m[mi] != '%')
					return (0);
				fi++;
				mi++;
				lit++;
				continue;
			}
			return (match_conv(st, &c, fi, mi, lit, any));
		}
		if (mi >= st->mn || st->m[mi] != st->f[fi])
			return (0);
		fi++;
		mi++;
		lit++;
	}
	if (st->need_end) {
		size_t k = mi;

		while (k < st->mn && (st->m[k] == ' ' || st->m[k] == '\r' ||
		    st->m[k] == '\t'))
			k++;
		if (k != st->mn)
			return (0);
	}
	if (st->hit_f == SIZE_MAX)
		return (0);
	st->end = mi;
	st->lit = lit;
	st->any = any;
	return (1);
}

/* Are b[0..n) all blanks and mail quotes (an indented line)? */
static int
blanks(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != ' ' && b[i] != '\t' && b[i] != '>')
			return (0);
	return (1);
}

/* The arch directory a profile's sources live in, or NULL. */
static const char *
arch_dir(enum kl_arch_id a)
{
	switch (a) {
	case KL_ARCH_X86_64: case KL_ARCH_X86_64_L5: case KL_ARCH_I386:
		return ("x86");
	case KL_ARCH_ARM64: case KL_ARCH_ARM64_39: case KL_ARCH_ARM64_42:
	case KL_ARCH_ARM64_47: case KL_ARCH_ARM64_52:
	case KL_ARCH_ARM64_PRE54:
		return ("arm64");
	case KL_ARCH_ARM:
		return ("arm");
	case KL_ARCH_PPC64: case KL_ARCH_PPC64_BOOK3E: case KL_ARCH_PPC32:
		return ("powerpc");
	case KL_ARCH_RISCV64: case KL_ARCH_RISCV64_SV48:
	case KL_ARCH_RISCV64_SV57: case KL_ARCH_RISCV64_PRE513:
		return ("riscv");
	case KL_ARCH_MIPS64:
		return ("mips");
	case KL_ARCH_LOONGARCH64:
		return ("loongarch");
	case KL_ARCH_S390X:
		return ("s390");
	case KL_ARCH_SPARC64:
		return ("sparc");
	default:
		return (NULL);
	}
}

/*
 * Compare site si with the message, the token at [tok, tokend); the
 * match is placed anywhere in [lo, hi) of the message.  The score, or
 * INT_MIN when the site did not print the token.
 */
static int
try_site(const struct kl_srcidx *x, size_t si, const uint8_t *m, size_t mn,
    size_t lo, size_t hi, size_t tok, size_t tokend, enum kl_arch_id arch,
    struct mst *out, long *total)
{
	const struct site *s = &x->site[si];
	const char *file = (const char *)x->arena + s->file, *ad;
	struct mst st;
	size_t start;
	int score;
	long budget = *total < SI_STEPS ? *total : SI_STEPS;
	long spent;
	int found = INT32_MIN;

	if (tok < lo || tokend > hi || budget <= 0)
		return (INT32_MIN);
	/* Another architecture's code did not print it. */
	if (strncmp(file, "arch/", 5) == 0 && (ad = arch_dir(arch)) != NULL &&
	    (strncmp(file + 5, ad, strlen(ad)) != 0 ||
	    file[5 + strlen(ad)] != '/'))
		return (INT32_MIN);
	spent = budget;
	for (start = lo; start <= tok && budget > 0; start++) {
		budget--;
		/*
		 * Text before the piece: a continued line's start, a
		 * wrapper's "name: " (dev_err()), or framing the caller
		 * left ("[ 12.3] ", a mail's "> "); not the middle of a
		 * sentence ("... at addr %px" is not "addr %016llx").
		 */
		if (start > lo && !(s->flags & SF_CONT) &&
		    !blanks(m + lo, start - lo) &&
		    (start - lo < 2 || m[start - 1] != ' ' ||
		    (m[start - 2] != ':' && m[start - 2] != ']' &&
		    m[start - 2] != '>')))
			continue;
		/* A piece opening with a literal starts with it. */
		if (s->fmtlen > 0 && x->arena[s->fmt] != '%' &&
		    m[start] != x->arena[s->fmt])
			continue;
		memset(&st, 0, sizeof(st));
		st.f = x->arena + s->fmt;
		st.fn = s->fmtlen;
		st.m = m;
		st.mn = hi;
		st.need_end = (s->flags & SF_NL) && hi == mn;
		st.steps = budget;
		st.tok = tok;
		st.tokend = tokend;
		st.hit_f = SIZE_MAX;
		if (match_at(&st, 0, start, 0, 0)) {
			struct conv hc;

			/*
			 * Text printed the address (%s, %pV): only a whole
			 * line with enough literal text around it says so.
			 */
			conv_parse(st.f + st.hit_f, st.fn - st.hit_f, &hc);
			if ((hc.kind == CV_ANY && (start != lo ||
			    st.end != hi || st.lit < SI_ANY_LIT)) ||
			    (hc.kind != CV_ANY && st.lit < SI_ANY_LIT &&
			    st.any > 2 * st.lit + 8)) {
				/* (or, for a short piece, text
				   conversions took most of the line) */
				budget = st.steps;
				if (budget <= 0)
					break;
				continue;
			}
			score = 1000 + 4 * (int)st.lit - (int)(st.any / 2) -
			    (int)(start - lo) - (int)(hi - st.end);
			if (start == 0)
				score += 20;
			if (st.end == mn)
				score += 20;
			if (st.width_ok)
				score += 30;
			if (s->flags & SF_EXACT)
				score += 100;
			if (strncmp(file, "arch/", 5) == 0 &&
			    (ad = arch_dir(arch)) != NULL) {
				size_t al = strlen(ad);

				if (strncmp(file + 5, ad, al) == 0 &&
				    file[5 + al] == '/')
					score += 50;
			}
			*out = st;
			budget = st.steps;
			found = score;
			break;
		}
		budget = st.steps;
		if (budget <= 0)
			break;
	}
	*total -= spent - (budget > 0 ? budget : 0);
	return (found);
}

/* Is (score a, site sa) ranked before (b, sb)?  Ties by file, line. */
static int
better(const struct kl_srcidx *x, int a, size_t sa, int b, size_t sb)
{
	const struct site *p = &x->site[sa], *q = &x->site[sb];
	int c;

	if (a != b)
		return (a > b);
	c = strcmp((const char *)x->arena + p->file,
	    (const char *)x->arena + q->file);
	if (c != 0)
		return (c < 0);
	return (p->line < q->line);
}

/* Record a result, best first, one per site. */
static void
add_result(const struct kl_srcidx *x, struct kl_srcidx_match *r,
    size_t *nr, size_t max, size_t si, int score, const struct mst *st)
{
	size_t i, j;
	const struct site *s = &x->site[si];

	for (i = 0; i < *nr; i++)
		if (r[i].site == si) {
			if (r[i].score >= score)
				return;
			memmove(&r[i], &r[i + 1], (*nr - i - 1) * sizeof(*r));
			(*nr)--;
			break;
		}
	for (i = 0; i < *nr; i++)
		if (better(x, score, si, r[i].score, r[i].site))
			break;
	if (i >= max)
		return;
	j = *nr < max ? *nr : max - 1;
	memmove(&r[i + 1], &r[i], (j - i) * sizeof(*r));
	if (*nr < max)
		(*nr)++;
	r[i].site = si;
	r[i].score = score;
	r[i].conversion[0] = '\0';
	if (st->hit_f != SIZE_MAX) {
		size_t n = st->hit_len < sizeof(r[i].conversion) ?
		    st->hit_len : sizeof(r[i].conversion) - 1;

		memcpy(r[i].conversion, x->arena + s->fmt + st->hit_f, n);
		r[i].conversion[n] = '\0';
	}
}

/* A key word of a message: its sites, key[lo..lo+n). */
struct wrange {
	size_t		 lo;
	size_t		 n;
};

/* Compare word ranges: fewer sites first, then by position. */
static int
wrcmp(const void *a, const void *b)
{
	const struct wrange *p = a, *q = b;

	if (p->n != q->n)
		return (p->n < q->n ? -1 : 1);
	return (p->lo < q->lo ? -1 : p->lo > q->lo);
}

/*
 * Is the longest literal run of site si in the message?  A cheap test
 * that turns away most candidates before the matcher runs.
 */
static int
lit_in(const struct kl_srcidx *x, size_t si, const uint8_t *m, size_t mn)
{
	const struct site *s = &x->site[si];
	const uint8_t *f = x->arena + s->fmt;
	size_t i = 0, n = s->fmtlen, bs = 0, bl = 0, rs = 0;
	struct conv c;
	char lit[SI_CHAIN_MAX];

	while (i <= n) {
		if (i == n || f[i] == '%') {
			if (i - rs > bl) {
				bs = rs;
				bl = i - rs;
			}
			if (i == n)
				break;
			conv_parse(f + i, n - i, &c);
			i += c.len;
			rs = i;
			continue;
		}
		i++;
	}
	if (bl < 3)
		return (1);
	memcpy(lit, f + bs, bl);
	return (kl_memmem(m, mn, lit, bl) != NULL);
}

/*
 * Partial matches: site si printed m[a..b) (not the token); the token
 * came from another call of the same function (a line made of
 * KERN_CONT pieces, as lockdep prints its held locks).
 */
static void
try_siblings(const struct kl_srcidx *x, size_t si, size_t a, size_t b,
    const uint8_t *m, size_t mn, size_t tok, size_t tokend,
    enum kl_arch_id arch, struct kl_srcidx_match *r, size_t *nr, size_t max,
    long *total)
{
	const struct site *s = &x->site[si];
	size_t lo, hi, j, from, to;
	struct mst st;
	int sc;

	if (tokend <= a) {
		lo = 0;
		hi = a;
	} else if (tok >= b) {
		lo = b;
		hi = mn;
	} else
		return;
	from = si > SI_SIBLINGS ? si - SI_SIBLINGS : 0;
	to = si + SI_SIBLINGS < x->nsite ? si + SI_SIBLINGS : x->nsite - 1;
	for (j = from; j <= to; j++) {
		const struct site *o = &x->site[j];

		if (j == si || o->file != s->file || o->func != s->func ||
		    o->func == 0)
			continue;
		sc = try_site(x, j, m, mn, lo, hi, tok, tokend, arch, &st,
		    total);
		if (sc == INT32_MIN)
			continue;
		add_result(x, r, nr, max, j, sc - 300, &st);
	}
}

/*
 * The sites that printed a message (one line, framing removed) whose
 * address token is msg[tok..tok+toklen), best first, at most max into
 * r.  arch (KL_ARCH_AUTO: unknown) prefers the sources of that
 * architecture.  Returns how many.
 */
size_t
kl_srcidx_match(const struct kl_srcidx *x, const uint8_t *msg, size_t len,
    size_t tok, size_t toklen, enum kl_arch_id arch,
    struct kl_srcidx_match *r, size_t max)
{
	uint32_t cand[SI_CANDS];
	struct wrange w[SI_WORDS];
	size_t nc = 0, nr = 0, nw = 0, i, k, s, lo, hi, mid;
	struct mst st;
	long total = SI_BUDGET;
	int sc;

	if (!x->built || max == 0 || tok > len || toklen > len - tok ||
	    toklen == 0)
		return (0);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
		len--;
	if (tok + toklen > len)
		return (0);
	for (i = 0; i < len && nw < SI_WORDS;) {
		uint64_t h;

		if (!isword(msg[i])) {
			i++;
			continue;
		}
		s = i;
		while (i < len && isword(msg[i]))
			i++;
		if (i - s < 2)
			continue;
		h = fnv(FNV0, msg + s, i - s);
		lo = 0;
		hi = x->nkey;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (x->key[mid].h < h)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (hi = lo; hi < x->nkey && x->key[hi].h == h; hi++)
			;
		if (hi == lo)
			continue;
		for (k = 0; k < nw && w[k].lo != lo; k++)
			;
		if (k == nw) {
			w[nw].lo = lo;
			w[nw++].n = hi - lo;
		}
	}
	/* The sites of the rarest words first: a budget, not a scan. */
	if (nw > 0)
		qsort(w, nw, sizeof(*w), wrcmp);
	for (k = 0; k < nw && nc < SI_CANDS; k++)
		for (i = w[k].lo; i < w[k].lo + w[k].n && nc < SI_CANDS; i++)
			cand[nc++] = x->key[i].site;
	for (i = 0; i < nc; i++) {
		if (total <= 0)
			break;
		if (!lit_in(x, cand[i], msg, len))
			continue;
		sc = try_site(x, cand[i], msg, len, 0, len, tok, tok + toklen,
		    arch, &st, &total);
		if (sc != INT32_MIN) {
			add_result(x, r, &nr, max, cand[i], sc, &st);
			continue;
		}
		/* Where does the keyed site sit, if not on the token? */
		{
			const struct site *o = &x->site[cand[i]];
			struct mst ps;
			size_t start;

			if (o->func == 0)
				continue;
			for (start = 0; start < len && total > 0; start++) {
				total--;
				if (o->fmtlen > 0 && x->arena[o->fmt] != '%' &&
				    msg[start] != x->arena[o->fmt])
					continue;
				memset(&ps, 0, sizeof(ps));
				ps.f = x->arena + o->fmt;
				ps.fn = o->fmtlen;
				ps.m = msg;
				ps.mn = len;
				ps.need_end = (o->flags & SF_NL) != 0;
				ps.steps = total < SI_STEPS ? total : SI_STEPS;
				ps.anyhit = 1;
				ps.hit_f = SIZE_MAX;
				if (match_at(&ps, 0, start, 0, 0)) {
					total -= (total < SI_STEPS ? total :
					    SI_STEPS) - ps.steps;
					try_siblings(x, cand[i], start, ps.end,
					    msg, len, tok, tok + toklen, arch,
					    r, &nr, max, &total);
					break;
				}
				total -= (total < SI_STEPS ? total : SI_STEPS) -
				    (ps.steps > 0 ? ps.steps : 0);
			}
		}
	}
	/* Far weaker than the best: a short piece that fits by chance. */
	for (i = 1; i < nr; i++)
		if (r[i].score < r[0].score - SI_CUTOFF)
			break;
	return (i < nr ? i : nr);
}

/* Writer of a cache file. */
struct wbuf {
	uint8_t		*b;
	size_t		 n;
	size_t		 cap;
	int		 oom;
};

/* Append bytes to a writer. */
static void
wput(struct wbuf *w, const void *p, size_t n)
{
	if (w->oom || n == 0)
		return;
	if (w->n + n > w->cap) {
		size_t cap = w->cap ? w->cap : 1 << 20;
		uint8_t *nb;

		while (cap < w->n + n)
			cap *= 2;
		if ((nb = realloc(w->b, cap)) == NULL) {
			w->oom = 1;
			return;
		}
		w->b = nb;
		w->cap = cap;
	}
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

/*
 * The cache image of an index: magic, key, counters, arena, sites,
 * and a checksum of all that.  Into *out (malloc'd), its length *len.
 */
int
kl_srcidx_save(const struct kl_srcidx *x, const char *key, uint8_t **out,
    size_t *len, struct kl_error *err)
{
	struct wbuf w = { NULL, 0, 0, 0 };
	uint64_t v, h;
	uint32_t kl = (uint32_t)strlen(key);

	wput(&w, SI_CACHE_MAGIC, 8);
	wput(&w, &kl, sizeof(kl));
	wput(&w, key, kl);
	wput(&w, &x->st, sizeof(x->st));
	v = x->alen;
	wput(&w, &v, sizeof(v));
	wput(&w, x->arena, x->alen);
	v = x->nsite;
	wput(&w, &v, sizeof(v));
	wput(&w, x->site, x->nsite * sizeof(*x->site));
	h = fnv(FNV0, w.b, w.oom ? 0 : w.n);
	wput(&w, &h, sizeof(h));
	if (w.oom) {
		free(w.b);
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	*out = w.b;
	*len = w.n;
	return (0);
}

/*
 * An index from a cache image made for key; NULL (and err) when the
 * image is damaged, of another version or of another tree.  Every
 * offset is checked before it is used.
 */
struct kl_srcidx *
kl_srcidx_load(const void *data, size_t len, const char *key,
    struct kl_error *err)
{
	const uint8_t *b = data, *p;
	struct kl_srcidx *x;
	uint32_t kl;
	uint64_t alen, nsite, h, i;
	size_t need;

	if (len < 8 + 4 + 8 || memcmp(b, SI_CACHE_MAGIC, 8) != 0)
		goto bad;
	memcpy(&h, b + len - 8, 8);
	if (fnv(FNV0, b, len - 8) != h)
		goto bad;
	len -= 8;
	p = b + 8;
	memcpy(&kl, p, 4);
	p += 4;
	if (kl != strlen(key) || (size_t)(b + len - p) < kl ||
	    memcmp(p, key, kl) != 0)
		goto bad;
	p += kl;
	if ((size_t)(b + len - p) < sizeof(struct kl_srcidx_stats) + 8)
		goto bad;
	if ((x = kl_srcidx_new(err)) == NULL)
		return (NULL);
	memcpy(&x->st, p, sizeof(x->st));
	p += sizeof(x->st);
	memcpy(&alen, p, 8);
	p += 8;
	if (alen == 0 || alen > SI_ARENA_MAX || alen > (size_t)(b + len - p) ||
	    p[alen - 1] != '\0')
		goto badx;
	free(x->arena);
	if ((x->arena = malloc(alen)) == NULL)
		goto nomem;
	memcpy(x->arena, p, alen);
	x->alen = x->acap = alen;
	p += alen;
	if ((size_t)(b + len - p) < 8)
		goto badx;
	memcpy(&nsite, p, 8);
	p += 8;
	if (nsite > UINT32_MAX || kl_mul(nsite, sizeof(struct site), &need) !=
	    0 || need != (size_t)(b + len - p))
		goto badx;
	if (nsite > 0 && (x->site = malloc(need)) == NULL)
		goto nomem;
	if (nsite > 0)
		memcpy(x->site, p, need);
	x->nsite = x->csite = nsite;
	for (i = 0; i < nsite; i++) {
		const struct site *s = &x->site[i];

		if (s->file >= alen || s->func >= alen || s->fmt >= alen ||
		    s->fmtlen >= alen - s->fmt ||
		    x->arena[s->fmt + s->fmtlen] != '\0')
			goto badx;
	}
	x->st.cached = 1;
	if (kl_srcidx_build(x, err) != 0) {
		kl_srcidx_free(x);
		return (NULL);
	}
	return (x);
nomem:
	kl_srcidx_free(x);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (NULL);
badx:
	kl_srcidx_free(x);
bad:
	kl_error_set(err, KL_EFORMAT, 0, "cache damaged or stale");
	return (NULL);
}

/* Read a whole file (at most max bytes) into memory. */
static int
read_all(const char *path, uint8_t **out, size_t *len, size_t max)
{
	uint8_t *buf = NULL;
	size_t cap = 0;
	int fd, r;

	if ((fd = open(path, O_RDONLY)) < 0)
		return (-1);
	r = slurp(fd, &buf, &cap, len, max);
	close(fd);
	if (r != 0) {
		free(buf);
		return (-1);
	}
	*out = buf;
	return (0);
}

/*
 * The index of a tree, through a cache directory (NULL: none): a cache
 * file for the tree's key is used when it checks out, else the tree is
 * indexed and the cache written (a temporary file renamed).  *cached
 * says which.  The index is built.
 */
struct kl_srcidx *
kl_srcidx_open(const char *tree, const char *cachedir, int *cached,
    struct kl_error *err)
{
	struct kl_srcidx *x;
	char key[32], path[4096], tmp[4200];
	uint8_t *img = NULL;
	size_t len;
	int fd;

	*cached = 0;
	if (kl_srcidx_tree_key(tree, key, sizeof(key), err) != 0)
		return (NULL);
	if (cachedir != NULL && (size_t)snprintf(path, sizeof(path),
	    "%s/srcidx-%s", cachedir, key) < sizeof(path) &&
	    read_all(path, &img, &len, (size_t)SI_ARENA_MAX * 2) == 0) {
		x = kl_srcidx_load(img, len, key, NULL);
		free(img);
		img = NULL;
		if (x != NULL) {
			*cached = 1;
			return (x);
		}
		/* A damaged cache is rebuilt, never trusted. */
	}
	if ((x = kl_srcidx_new(err)) == NULL)
		return (NULL);
	if (kl_srcidx_add_tree(x, tree, err) != 0 ||
	    kl_srcidx_build(x, err) != 0) {
		kl_srcidx_free(x);
		return (NULL);
	}
	if (cachedir == NULL || (size_t)snprintf(path, sizeof(path),
	    "%s/srcidx-%s", cachedir, key) >= sizeof(path))
		return (x);
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	if (kl_srcidx_save(x, key, &img, &len, NULL) == 0 &&
	    (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
		size_t off = 0;
		ssize_t w = 0;

		while (off < len && (w = write(fd, img + off, len - off)) > 0)
			off += (size_t)w;
		if (close(fd) != 0 || off != len || rename(tmp, path) != 0)
			unlink(tmp);
	}
	free(img);
	/* A cache that cannot be written costs time, not results. */
	x->st.cache_unwritten = access(path, R_OK) != 0;
	return (x);
}
