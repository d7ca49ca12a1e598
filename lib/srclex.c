/*
 * srclex.c - the C scanner: finds the printk-style calls of a source
 * file and the format strings in them.
 *
 * A small C lexer: comments, character literals and preprocessor lines
 * are passed over, parentheses and braces are counted.  A chain of
 * adjacent string literals (joined across lines, KERN_* macros dropped,
 * the file's pr_fmt() prefix applied to pr_*() calls) that holds a
 * conversion and sits in the argument list of a call is a format.  Each
 * line of a format (a "piece": formats are cut at their newlines, as
 * the kernel prints them) is a site: file, line of the literal it
 * starts in, enclosing function, the piece.  A chain the lexer cannot
 * follow (a macro between its literals, an unterminated literal, a
 * preprocessor line inside it) is counted and never indexed: no site is
 * a half-read format.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "srcidx-int.h"

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


/* Does the piece hold a conversion that prints an argument? */
static int
has_conv(const uint8_t *f, size_t n)
{
	struct conv c;
	size_t i;

	for (i = 0; i < n; i++) {
		if (f[i] != '%')
			continue;
		kl_srcidx_conv_parse(f + i, n - i, &c);
		if (c.kind != CV_NONE && c.kind != CV_PCT)
			return (1);
		i += c.len - 1;
	}
	return (0);
}


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
		} else if (c == '\\' && l->i + 1 < l->n &&
		    b[l->i + 1] == '\n') {
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
size_t
kl_srcidx_unescape(const uint8_t *s, size_t n, int *out)
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
			i += kl_srcidx_unescape(b + i, l->n - i, &v);
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
int
kl_srcidx_emit(struct lex *l, size_t skip, int cont)
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
				/* Names kept only for functions with sites. */
				if ((off = kl_srcidx_arena_add(x, l->b + l->fs,
				    l->fl)) < 0)
					return (-1);
				l->func = (uint32_t)off;
			}
			if ((off = kl_srcidx_arena_add(x, f + ps, e - ps)) < 0)
				return (-1);
			st.file = l->file;
			st.func = l->func;
			st.fmt = (uint32_t)off;
			st.fmtlen = (uint32_t)(e - ps);
			st.line = mark_line(l, ps > skip ? ps : skip);
			st.flags = (first ? SF_FIRST : 0) |
			    (e < l->blen && f[e] == '\n' ? SF_NL : 0) |
			    (first && cont ? SF_CONT : 0);
			if (kl_srcidx_site_add(x, &st) != 0)
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
	return (kl_srcidx_emit(l, skip, cont));
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
	    (off = kl_srcidx_arena_add(x, name, strlen(name))) < 0) {
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
