/*
 * srcfix.c - the fix of a call site that printed a raw kernel pointer:
 * the call found again in its file, its format's conversions paired
 * with their arguments, and the edits that make each raw one print the
 * pointer hashed (Documentation/core-api/printk-formats.rst):
 *
 *   %px                          becomes %p
 *   %lx %llx %08lx %x %#lx ...   of a pointer cast to an integer
 *   (with "0x" before it)        becomes %p, the cast dropped
 *   either, in a seq_file or     becomes %pK: "if (and only if) you are
 *   sysfs show routine           printing addresses as a content of a
 *                                virtual file ... use %pK"
 *
 * The argument of an integer conversion is an integer (the compiler
 * checks printk formats) unless it is cast to one: then what is cast is
 * a pointer when it is '&' of something, a cast to a pointer type, or a
 * name, member or call whose declaration in the file (the function, its
 * parameters, file scope, a struct defined there, a prototype) has a '*'
 * or is an array; a few kernel macros and helpers that give pointers are
 * known by name.  Anything else is left alone, and the fix says why
 * (KL_FIX_*): an integer (a register value, an address kept in an
 * unsigned long) would need a cast to (void *) that is a maintainer's
 * choice, and an unknown type is never guessed.
 *
 * kl_srcfix_diff() writes the unified diff of a file and its fixed text
 * (3 lines of context, git's function line after each @@).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "srcidx-int.h"

#define FX_CONTEXT	3	/* lines of context in a hunk */
#define FX_WINDOW	400	/* lines a diff compares at most */

/* Token kinds. */
enum tk { TK_IDENT, TK_NUM, TK_STR, TK_CHR, TK_PUNCT };

/* A token of the file. */
struct tok {
	enum tk		 kind;
	size_t		 off, len;
	uint32_t	 line;
	int		 depth;		/* braces open before it */
};

/* The file, tokenized. */
struct fx {
	const uint8_t	*b;
	size_t		 n;
	struct tok	*t;
	size_t		 nt, ct;
	size_t		*pp;		/* preprocessor line spans: off, end */
	size_t		 npp, cpp;
	int		 oom;
};

/* A decoded format: bytes and where each came from. */
struct chain {
	uint8_t		*d;
	size_t		*src;		/* file offset, SIZE_MAX: synthetic */
	size_t		 n;
	size_t		 t0, t1;	/* its tokens [t0, t1) */
};

/* Is the token the punctuation (or identifier) s? */
static int
teq(const struct fx *f, size_t i, const char *s)
{
	size_t n = strlen(s);

	return (i < f->nt && f->t[i].len == n &&
	    memcmp(f->b + f->t[i].off, s, n) == 0);
}

/* Append a token. */
static void
tok_add(struct fx *f, enum tk kind, size_t off, size_t len, uint32_t line,
    int depth)
{
	struct tok *nt;

	if (f->oom)
		return;
	if (f->nt == f->ct) {
		f->ct = f->ct ? f->ct * 2 : 4096;
		if ((nt = realloc(f->t, f->ct * sizeof(*nt))) == NULL) {
			f->oom = 1;
			return;
		}
		f->t = nt;
	}
	f->t[f->nt].kind = kind;
	f->t[f->nt].off = off;
	f->t[f->nt].len = len;
	f->t[f->nt].line = line;
	f->t[f->nt].depth = depth;
	f->nt++;
}

/* Record a preprocessor line [off, end). */
static void
pp_add(struct fx *f, size_t off, size_t end)
{
	size_t *np;

	if (f->oom)
		return;
	if (f->npp + 2 > f->cpp) {
		f->cpp = f->cpp ? f->cpp * 2 : 256;
		if ((np = realloc(f->pp, f->cpp * sizeof(*np))) == NULL) {
			f->oom = 1;
			return;
		}
		f->pp = np;
	}
	f->pp[f->npp++] = off;
	f->pp[f->npp++] = end;
}

/* Two- and three-byte operators, longest first. */
static const char *const opers[] = {
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
	"!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"##", NULL,
};

/* Tokenize the file: comments and preprocessor lines left out. */
static void
lex(struct fx *f)
{
	const uint8_t *b = f->b;
	size_t i = 0, s, k;
	uint32_t line = 1;
	int depth = 0, bol = 1;

	while (i < f->n && !f->oom) {
		uint8_t c = b[i];

		if (c == '\n') {
			line++;
			i++;
			bol = 1;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
		    c == '\v') {
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < f->n && b[i + 1] == '\n') {
			line++;
			i += 2;
			continue;
		}
		if (c == '/' && i + 1 < f->n && b[i + 1] == '*') {
			for (i += 2; i < f->n && !(b[i] == '*' &&
			    i + 1 < f->n && b[i + 1] == '/'); i++)
				line += b[i] == '\n';
			i = i + 2 > f->n ? f->n : i + 2;
			continue;
		}
		if (c == '/' && i + 1 < f->n && b[i + 1] == '/') {
			while (i < f->n && b[i] != '\n')
				i++;
			continue;
		}
		if (c == '#' && bol) {
			/* A directive: to its end, continuations included. */
			s = i;
			while (i < f->n && b[i] != '\n') {
				if (b[i] == '\\' && i + 1 < f->n &&
				    b[i + 1] == '\n') {
					line++;
					i++;
				} else if (b[i] == '/' && i + 1 < f->n &&
				    b[i + 1] == '*') {
					i += 2;
					while (i < f->n && !(b[i] == '*' &&
					    i + 1 < f->n && b[i + 1] == '/'))
						line += b[i++] == '\n';
					i++;
				}
				i++;
			}
			pp_add(f, s, i);
			continue;
		}
		bol = 0;
		s = i;
		if (isident(c) && !(c >= '0' && c <= '9')) {
			while (i < f->n && isident(b[i]))
				i++;
			/* L"...", u8"...": the prefix belongs to the string */
			if (i < f->n && (b[i] == '"' || b[i] == '\'') &&
			    i - s <= 2)
				goto quoted;
			tok_add(f, TK_IDENT, s, i - s, line, depth);
			continue;
		}
		if (c >= '0' && c <= '9') {
			while (i < f->n && (isident(b[i]) || b[i] == '.'))
				i++;
			tok_add(f, TK_NUM, s, i - s, line, depth);
			continue;
		}
		if (c == '"' || c == '\'') {
quoted:
			c = b[i];
			for (i++; i < f->n && b[i] != c && b[i] != '\n'; i++)
				if (b[i] == '\\' && i + 1 < f->n)
					i++;
			if (i < f->n && b[i] == c)
				i++;
			tok_add(f, c == '"' ? TK_STR : TK_CHR, s, i - s, line,
			    depth);
			continue;
		}
		for (k = 0; opers[k] != NULL; k++)
			if (i + strlen(opers[k]) <= f->n &&
			    memcmp(b + i, opers[k], strlen(opers[k])) == 0)
				break;
		if (opers[k] != NULL) {
			tok_add(f, TK_PUNCT, s, strlen(opers[k]), line, depth);
			i += strlen(opers[k]);
			continue;
		}
		if (c == '}' && depth > 0)
			depth--;
		tok_add(f, TK_PUNCT, s, 1, line, depth);
		if (c == '{')
			depth++;
		i++;
	}
}

/* Is a KERN_ level macro the identifier token i? */
static int
is_kern(const struct fx *f, size_t i)
{
	return (f->t[i].kind == TK_IDENT && f->t[i].len > 5 &&
	    memcmp(f->b + f->t[i].off, "KERN_", 5) == 0);
}

/* Append a decoded byte to a chain. */
static int
ch_put(struct chain *c, uint8_t v, size_t src, size_t *cap)
{
	uint8_t *nd;
	size_t *ns;

	if (c->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		if ((nd = realloc(c->d, *cap)) == NULL)
			return (-1);
		c->d = nd;
		if ((ns = realloc(c->src, *cap * sizeof(*ns))) == NULL)
			return (-1);
		c->src = ns;
	}
	c->d[c->n] = v;
	c->src[c->n++] = src;
	return (0);
}

/*
 * Decode the chain of literals that starts at token i (KERN_ levels
 * between them dropped, a KBUILD_MODNAME before them read as "%s"):
 * into c, with the file offset of each byte.  -1: no memory.
 */
static int
decode(struct fx *f, size_t i, struct chain *c)
{
	size_t cap = 0, j, k, e;
	int v;

	memset(c, 0, sizeof(*c));
	c->t0 = i;
	if (i > 0 && teq(f, i - 1, "KBUILD_MODNAME")) {
		c->t0 = i - 1;
		if (ch_put(c, '%', SIZE_MAX, &cap) != 0 ||
		    ch_put(c, 's', SIZE_MAX, &cap) != 0)
			return (-1);
	}
	for (j = i; j < f->nt; j++) {
		if (is_kern(f, j))
			continue;
		if (f->t[j].kind != TK_STR)
			break;
		/* The bytes between the quotes (a prefix passed). */
		k = f->t[j].off;
		while (f->b[k] != '"')
			k++;
		e = f->t[j].off + f->t[j].len - 1;
		for (k++; k < e;) {
			size_t s = k;

			if (f->b[k] == '\\') {
				k += kl_srcidx_unescape(f->b + k, e - k, &v);
				if (v < 0)
					continue;
			} else
				v = f->b[k++];
			if (ch_put(c, (uint8_t)v, k - s == 1 ? s : SIZE_MAX,
			    &cap) != 0)
				return (-1);
		}
	}
	while (j > i && is_kern(f, j - 1))
		j--;
	c->t1 = j;
	return (0);
}

/* The callee of the call whose '(' is token p, or SIZE_MAX. */
static size_t
callee_of(const struct fx *f, size_t p)
{
	static const char *const kw[] = { "if", "for", "while", "switch",
	    "return", "sizeof", "typeof", "__typeof__", NULL };
	size_t k;

	if (p == 0 || f->t[p - 1].kind != TK_IDENT)
		return (SIZE_MAX);
	for (k = 0; kw[k] != NULL; k++)
		if (teq(f, p - 1, kw[k]))
			return (SIZE_MAX);
	return (p - 1);
}

/* The token closing the bracket opened at token i, or SIZE_MAX. */
static size_t
closing(const struct fx *f, size_t i)
{
	int d = 0;

	for (; i < f->nt; i++) {
		if (f->t[i].kind != TK_PUNCT || f->t[i].len != 1)
			continue;
		switch (f->b[f->t[i].off]) {
		case '(': case '[': case '{':
			d++;
			break;
		case ')': case ']': case '}':
			if (--d == 0)
				return (i);
			if (d < 0)
				return (SIZE_MAX);
			break;
		}
	}
	return (SIZE_MAX);
}

/* The arguments of a call: token ranges [a, b). */
struct args {
	size_t		 lp, rp;	/* its parentheses */
	size_t		 n;
	size_t		 a[64], b[64];
};

/* Split the arguments of the call whose '(' is token lp. */
static int
split_args(const struct fx *f, size_t lp, struct args *g)
{
	size_t i, s;
	int d = 0;

	g->lp = lp;
	if ((g->rp = closing(f, lp)) == SIZE_MAX)
		return (-1);
	g->n = 0;
	s = lp + 1;
	for (i = lp + 1; i <= g->rp; i++) {
		if (f->t[i].kind == TK_PUNCT && f->t[i].len == 1) {
			uint8_t c = f->b[f->t[i].off];

			if (c == '(' || c == '[' || c == '{')
				d++;
			else if ((c == ')' || c == ']' || c == '}') &&
			    i != g->rp)
				d--;
		}
		if (d == 0 && (i == g->rp || teq(f, i, ","))) {
			if (g->n == 64)
				return (-1);
			g->a[g->n] = s;
			g->b[g->n++] = i;
			s = i + 1;
		}
	}
	if (g->n == 1 && g->a[0] == g->b[0])
		g->n = 0;
	return (0);
}

/* Does a preprocessor line fall inside [off, end)? */
static int
pp_inside(const struct fx *f, size_t off, size_t end)
{
	size_t i;

	for (i = 0; i < f->npp; i += 2)
		if (f->pp[i] >= off && f->pp[i] < end)
			return (1);
	return (0);
}

/* Is line (1-based) of the file inside a preprocessor line? */
static int
pp_line(const struct fx *f, uint64_t line)
{
	size_t i, off = 0;
	uint64_t l = 1;

	while (off < f->n && l < line)
		l += f->b[off++] == '\n';
	for (i = 0; i < f->npp; i += 2)
		if (f->pp[i] <= off && off < f->pp[i + 1] + 1)
			return (1);
	return (0);
}

/* Integer type words a cast of a pointer is made with. */
static const char *const int_words[] = {
	"unsigned", "signed", "long", "int", "short", "char", "u8", "u16",
	"u32", "u64", "s8", "s16", "s32", "s64", "__u8", "__u16", "__u32",
	"__u64", "__s32", "__s64", "uintptr_t", "intptr_t", "size_t",
	"ssize_t", "ulong", "uint", "ptrdiff_t", "kernel_ulong_t", NULL,
};

/* Qualifiers that may sit among the words of a type. */
static const char *const quals[] = {
	"const", "volatile", "__iomem", "__user", "__rcu", "__percpu",
	"__force", "__kernel", "restrict", "__restrict", "register",
	"static", "extern", "__maybe_unused", "__always_unused",
	"__initdata", "__read_mostly", "__ro_after_init", NULL,
};

/* Is token i one of the words? */
static int
in_words(const struct fx *f, size_t i, const char *const *w)
{
	for (; *w != NULL; w++)
		if (teq(f, i, *w))
			return (1);
	return (0);
}

/*
 * Is [a, b) a cast "( words [*...] )" at its start?  Its end token (the
 * ')') in *end; *ptr when it casts to a pointer, *isint when every word
 * is an integer type word.
 */
static int
is_cast(const struct fx *f, size_t a, size_t b, size_t *end, int *ptr,
    int *isint)
{
	size_t i, words = 0;

	*ptr = 0;
	*isint = 1;
	if (a >= b || !teq(f, a, "("))
		return (0);
	for (i = a + 1; i < b && !teq(f, i, ")"); i++) {
		if (teq(f, i, "*")) {
			*ptr = 1;
			continue;
		}
		if (f->t[i].kind != TK_IDENT)
			return (0);
		if (in_words(f, i, quals))
			continue;
		if (teq(f, i, "struct") || teq(f, i, "union") ||
		    teq(f, i, "enum")) {
			*isint = 0;
			continue;
		}
		if (!in_words(f, i, int_words)) {
			/* A typedef (pgd_t, struct tag) or not a type. */
			*isint = 0;
			if (!(i + 1 < b && (teq(f, i + 1, "*") ||
			    teq(f, i + 1, ")"))) && !(i > a + 1 &&
			    (teq(f, i - 1, "struct") ||
			    teq(f, i - 1, "union"))))
				return (0);
		}
		words++;
	}
	if (i >= b || words == 0 || i + 1 >= b)
		return (0);
	/* "(x)" around a name alone is not a cast: a word must be one. */
	if (!*ptr && !*isint)
		return (0);
	*end = i;
	return (1);
}

/* Is token i a binary operator at the top of an expression? */
static int
binop(const struct fx *f, size_t i)
{
	static const char *const bin[] = { "+", "-", "*", "/", "%", "<<",
	    ">>", "&", "|", "^", "&&", "||", "==", "!=", "<", ">", "<=", ">=",
	    "?", ":", "=", ",", NULL };

	return (f->t[i].kind == TK_PUNCT && in_words(f, i, bin));
}

/* Has [a, b) a binary operator outside brackets (after its start)? */
static int
has_binop(const struct fx *f, size_t a, size_t b)
{
	size_t i;

	for (i = a + 1; i < b; i++) {
		if (teq(f, i, "(") || teq(f, i, "[")) {
			if ((i = closing(f, i)) == SIZE_MAX || i >= b)
				return (1);
			continue;
		}
		/* a unary operator right after another operator */
		if (binop(f, i) && !binop(f, i - 1) && !teq(f, i - 1, "("))
			return (1);
	}
	return (0);
}

/* What a declaration says of a name. */
enum decl { D_NONE, D_INT, D_PTR };

/*
 * Find the declaration of the identifier name (len n) in tokens [a, b),
 * the last one first: "type words [*...] name" followed by ';', ',',
 * '=', ')', '[' or ':', the type words preceded by '{', '}', ';', '(',
 * ',' or the file's start (top: at file scope only).  The struct tag or
 * typedef name of its type into tag (when asked).
 */
static enum decl
find_decl(const struct fx *f, size_t a, size_t b, const uint8_t *name,
    size_t n, int top, char *tag, size_t tagsz)
{
	size_t i, j, k;
	int stars;

	for (i = b; i-- > a;) {
		if ((top && f->t[i].depth != 0) ||
		    f->t[i].kind != TK_IDENT || f->t[i].len != n ||
		    memcmp(f->b + f->t[i].off, name, n) != 0)
			continue;
		if (i + 1 >= f->nt || !(teq(f, i + 1, ";") || teq(f, i + 1,
		    ",") || teq(f, i + 1, "=") || teq(f, i + 1, ")") ||
		    teq(f, i + 1, "[") || teq(f, i + 1, ":")))
			continue;
		stars = 0;
		for (j = i; j > a && (teq(f, j - 1, "*") ||
		    in_words(f, j - 1, quals)); j--)
			stars += teq(f, j - 1, "*");
		/* The type words, then what must come before them. */
		for (k = j; k > a && f->t[k - 1].kind == TK_IDENT &&
		    !teq(f, k - 1, "return") && !teq(f, k - 1, "case") &&
		    !teq(f, k - 1, "goto") && !teq(f, k - 1, "sizeof"); k--)
			;
		if (k == j)
			continue;
		if (k > 0 && !(teq(f, k - 1, "{") || teq(f, k - 1, "}") ||
		    teq(f, k - 1, ";") || teq(f, k - 1, "(") ||
		    teq(f, k - 1, ",")))
			continue;
		if (tag != NULL) {
			tag[0] = '\0';
			if (j - k >= 2 && (teq(f, j - 2, "struct") ||
			    teq(f, j - 2, "union")) &&
			    f->t[j - 1].len < tagsz) {
				memcpy(tag, f->b + f->t[j - 1].off,
				    f->t[j - 1].len);
				tag[f->t[j - 1].len] = '\0';
			} else if (f->t[j - 1].len < tagsz) {
				/* a typedef name: its struct, if defined */
				memcpy(tag, f->b + f->t[j - 1].off,
				    f->t[j - 1].len);
				tag[f->t[j - 1].len] = '\0';
			}
		}
		if (stars > 0 || teq(f, i + 1, "["))
			return (D_PTR);
		return (D_INT);
	}
	return (D_NONE);
}

/*
 * The body of "struct tag {" (or "typedef struct ... { } tag;") in the
 * file: its tokens (a, b).  0, or -1 when not defined here.
 */
static int
struct_body(const struct fx *f, const char *tag, size_t *a, size_t *b)
{
	size_t i, n = strlen(tag), e;

	for (i = 0; i + 2 < f->nt; i++) {
		if (f->t[i].depth != 0)
			continue;
		if ((teq(f, i, "struct") || teq(f, i, "union")) &&
		    teq(f, i + 1, tag) && f->t[i + 1].len == n &&
		    teq(f, i + 2, "{")) {
			*a = i + 2;
			*b = closing(f, i + 2);
			return (*b == SIZE_MAX ? -1 : 0);
		}
		if (teq(f, i, "typedef") && (teq(f, i + 1, "struct") ||
		    teq(f, i + 1, "union"))) {
			for (e = i + 2; e < f->nt && !teq(f, e, "{") &&
			    !teq(f, e, ";"); e++)
				;
			if (!teq(f, e, "{") || (*b = closing(f, e)) == SIZE_MAX)
				continue;
			if (teq(f, *b + 1, tag) && teq(f, *b + 2, ";")) {
				*a = e;
				return (0);
			}
		}
	}
	return (-1);
}

/* Kernel macros and helpers that give a pointer, by name. */
static const char *const ptr_calls[] = {
	"page_address", "lowmem_page_address", "phys_to_virt", "__va",
	"page_to_virt", "pfn_to_kaddr", "kmap", "kmap_atomic",
	"kmap_local_page", "kasan_reset_tag", "this_cpu_ptr", "per_cpu_ptr",
	"raw_cpu_ptr", "task_stack_page", "task_pt_regs", "netdev_priv",
	"dev_get_drvdata", "platform_get_drvdata", "__builtin_return_address",
	"__builtin_frame_address", "ERR_PTR", "virt_to_page", "pfn_to_page",
	"phys_to_page", "compound_head", "folio_address", "kmalloc",
	"kzalloc", "vmalloc", "container_of", NULL,
};

/* The pointer-or-not of an expression [a, b) in function (fa, fb). */
static enum decl
expr_type(const struct fx *f, size_t a, size_t b, size_t fa, size_t fb,
    char *why, size_t whysz);

/*
 * The type of a member access chain a->m.n... (or a name alone), its
 * base declared in the function (fa, call) or at file scope.
 */
static enum decl
chain_type(const struct fx *f, size_t a, size_t b, size_t fa, size_t fb,
    char *why, size_t whysz)
{
	char tag[128];
	size_t i, sa, sb;
	enum decl d;

	/* The base: a name. */
	if (f->t[a].kind != TK_IDENT)
		return (D_NONE);
	if (teq(f, a, "current") && a + 1 == b)
		return (D_PTR);
	d = find_decl(f, fa, fb, f->b + f->t[a].off, f->t[a].len, 0, tag,
	    sizeof(tag));
	/* File scope: the declarations at depth 0 before the function. */
	if (d == D_NONE)
		d = find_decl(f, 0, fa, f->b + f->t[a].off, f->t[a].len, 1,
		    tag, sizeof(tag));
	if (d == D_NONE) {
		snprintf(why, whysz, "the declaration of %.*s is not in "
		    "the file", (int)f->t[a].len, f->b + f->t[a].off);
		return (D_NONE);
	}
	/* Each member in turn: its struct defined in the file. */
	for (i = a + 1; i < b; i += 2) {
		if (teq(f, i, "[") && (i = closing(f, i)) != SIZE_MAX) {
			/* an element: the pointer or array is spent */
			d = D_INT;
			i--;
			continue;
		}
		if (!(teq(f, i, "->") || teq(f, i, ".")) || i + 1 >= b ||
		    f->t[i + 1].kind != TK_IDENT) {
			snprintf(why, whysz, "the argument is not a name or a "
			    "member");
			return (D_NONE);
		}
		if (struct_body(f, tag, &sa, &sb) != 0) {
			snprintf(why, whysz, "the type of .%.*s (struct %s) is "
			    "not defined in the file", (int)f->t[i + 1].len,
			    f->b + f->t[i + 1].off, tag);
			return (D_NONE);
		}
		d = find_decl(f, sa + 1, sb, f->b + f->t[i + 1].off,
		    f->t[i + 1].len, 0, tag, sizeof(tag));
		if (d == D_NONE) {
			snprintf(why, whysz, "member %.*s not found in struct "
			    "%s", (int)f->t[i + 1].len, f->b + f->t[i + 1].off,
			    tag);
			return (D_NONE);
		}
	}
	return (d);
}

/*
 * Is the expression [a, b) a pointer (D_PTR), an integer (D_INT), or of
 * a type the file does not say (D_NONE, why in why)?
 */
static enum decl
expr_type(const struct fx *f, size_t a, size_t b, size_t fa, size_t fb,
    char *why, size_t whysz)
{
	size_t e, k;
	int ptr, isint;

	while (a < b && teq(f, a, "(") && closing(f, a) == b - 1) {
		a++;
		b--;
	}
	if (a >= b)
		return (D_NONE);
	if (teq(f, a, "&") && !has_binop(f, a, b))
		return (D_PTR);
	if (is_cast(f, a, b, &e, &ptr, &isint))
		return (ptr ? D_PTR : isint ? D_INT : D_NONE);
	if (has_binop(f, a, b)) {
		snprintf(why, whysz, "the argument is an expression");
		return (D_NONE);
	}
	/* A call: a known helper, or a prototype in the file. */
	if (f->t[a].kind == TK_IDENT && a + 1 < b && teq(f, a + 1, "(") &&
	    closing(f, a + 1) == b - 1) {
		for (k = 0; ptr_calls[k] != NULL; k++)
			if (teq(f, a, ptr_calls[k]))
				return (D_PTR);
		for (k = 0; k + 1 < fa; k++)
			if (f->t[k].depth == 0 && f->t[k].kind == TK_IDENT &&
			    f->t[k].len == f->t[a].len && memcmp(f->b +
			    f->t[k].off, f->b + f->t[a].off, f->t[a].len) ==
			    0 && teq(f, k + 1, "(") && k > 0)
				return (teq(f, k - 1, "*") ? D_PTR : D_INT);
		snprintf(why, whysz, "what %.*s() returns is not declared in "
		    "the file", (int)f->t[a].len, f->b + f->t[a].off);
		return (D_NONE);
	}
	return (chain_type(f, a, b, fa, fb, why, whysz));
}

/* The text of tokens [a, b) of the file, squeezed, into buf. */
static void
tok_text(const struct fx *f, size_t a, size_t b, char *buf, size_t sz)
{
	size_t i, n = 0, k;

	buf[0] = '\0';
	for (i = a; i < b && n + 1 < sz; i++) {
		if (i > a && f->t[i].off > f->t[i - 1].off + f->t[i - 1].len &&
		    n + 1 < sz)
			buf[n++] = ' ';
		for (k = 0; k < f->t[i].len && n + 1 < sz; k++)
			buf[n++] = (char)f->b[f->t[i].off + k];
	}
	buf[n] = '\0';
}

/* Add an edit: [off, off+len) becomes text. */
static int
edit_add(struct kl_srcfix *fx, size_t off, size_t len, const char *text)
{
	struct kl_srcfix_edit *ne;

	if ((ne = realloc(fx->edit, (fx->nedit + 1) * sizeof(*ne))) == NULL)
		return (-1);
	fx->edit = ne;
	ne += fx->nedit++;
	ne->off = off;
	ne->len = len;
	snprintf(ne->text, sizeof(ne->text), "%s", text);
	return (0);
}

/* Say why there is no fix. */
static int
refuse(struct kl_srcfix *fx, enum kl_srcfix_why why, const char *fmt, ...)
    KL_PRINTFLIKE(3, 4);
/* Set the reason of a refused fix, its edits dropped; 0. */
static int
refuse(struct kl_srcfix *fx, enum kl_srcfix_why why, const char *fmt, ...)
{
	va_list ap;

	fx->why = why;
	va_start(ap, fmt);
	vsnprintf(fx->detail, sizeof(fx->detail), fmt, ap);
	va_end(ap);
	free(fx->edit);
	fx->edit = NULL;
	fx->nedit = 0;
	return (0);
}

/* Is a callee or function one that writes a file's content? */
static int
file_content(const struct fx *f, size_t callee, const char *function)
{
	size_t n = strlen(function);

	if (teq(f, callee, "seq_printf") || teq(f, callee, "sysfs_emit") ||
	    teq(f, callee, "sysfs_emit_at"))
		return (1);
	/* a sysfs show routine's sprintf() */
	return ((teq(f, callee, "sprintf") || teq(f, callee, "snprintf") ||
	    teq(f, callee, "scnprintf")) && n > 5 &&
	    strcmp(function + n - 5, "_show") == 0);
}

/*
 * One conversion of the call: at chain offset co (its spec c), its
 * argument g->[ai]; the edits when it prints a raw pointer; 1 when it
 * was changed, 0 when it prints no raw pointer (why in fx), -1 no
 * memory.
 */
static int
fix_conv(struct fx *f, const struct chain *ch, size_t co,
    const struct conv *c, const struct args *g, size_t ai, size_t fa,
    int restrict_, struct kl_srcfix *fx)
{
	const char *to = restrict_ ? "%pK" : "%p";
	char arg[160], why[200];
	size_t s, e, k, ce, a, b;
	int ptr, isint;
	uint8_t x = co + 2 < ch->n ? ch->d[co + 2] : 0;
	enum decl d;

	/* The spec's bytes, whole in one literal. */
	s = ch->src[co];
	for (k = 0; k < c->len; k++)
		if (co + k >= ch->n || ch->src[co + k] != s + k)
			return (refuse(fx, KL_FIX_SPLIT, "the conversion is "
			    "split across literals or escaped"), 0);
	e = s + c->len;
	if (ai >= g->n)
		return (refuse(fx, KL_FIX_NOARG, "the conversion has no "
		    "argument in the call (a va_list or a macro's)"), 0);
	a = g->a[ai];
	b = g->b[ai];
	tok_text(f, a, b, arg, sizeof(arg));
	if (c->kind == CV_RAW && x == 'x') {
		snprintf(fx->detail, sizeof(fx->detail), "%%px of %s", arg);
		return (edit_add(fx, s, e - s, to) == 0 ? 1 : -1);
	}
	if (c->kind == CV_RAW) {		/* %pK */
		if (restrict_)
			return (refuse(fx, KL_FIX_NOTRAW, "%%pK in a file's "
			    "content already follows kptr_restrict"), 0);
		snprintf(fx->detail, sizeof(fx->detail), "%%pK of %s", arg);
		return (edit_add(fx, s, e - s, to) == 0 ? 1 : -1);
	}
	if (c->kind != CV_HEX)
		return (refuse(fx, KL_FIX_NOTRAW, "%.*s prints no raw "
		    "pointer", (int)c->len, ch->d + co), 0);
	/* An integer conversion: of a pointer cast to an integer only. */
	while (a < b && teq(f, a, "(") && closing(f, a) == b - 1) {
		a++;
		b--;
	}
	/*
	 * Without a cast to an integer the argument is one: the compiler
	 * checks printk formats (a register, an address kept in an
	 * unsigned long, a constant).
	 */
	if (!is_cast(f, a, b, &ce, &ptr, &isint) || !isint)
		return (refuse(fx, KL_FIX_INTEGER, "%.*s of %s, an integer",
		    (int)c->len, ch->d + co, arg), 0);
	if (ptr)
		return (refuse(fx, KL_FIX_EXPR, "%.*s of %s: a pointer cast "
		    "for an integer conversion", (int)c->len, ch->d + co,
		    arg), 0);
	if (has_binop(f, ce + 1, b))
		return (refuse(fx, KL_FIX_EXPR, "%.*s of %s: the cast is of a "
		    "part of the expression", (int)c->len, ch->d + co, arg), 0);
	why[0] = '\0';
	if ((d = expr_type(f, ce + 1, b, fa, g->lp, why, sizeof(why))) !=
	    D_PTR)
		return (refuse(fx, d == D_INT ? KL_FIX_INTEGER : KL_FIX_UNKNOWN,
		    "%.*s of %s: %s", (int)c->len, ch->d + co, arg,
		    d == D_INT ? "a cast of an integer" : why), 0);
	/* "0x" before it goes too: %p prints no prefix. */
	if (co >= 2 && ch->d[co - 2] == '0' && ch->d[co - 1] == 'x' &&
	    ch->src[co - 2] == s - 2 && ch->src[co - 1] == s - 1)
		s -= 2;
	snprintf(fx->detail, sizeof(fx->detail), "%.*s of %s", (int)c->len,
	    ch->d + co, arg);
	if (edit_add(fx, s, e - s, to) != 0)
		return (-1);
	/* The cast dropped, and the blanks after it. */
	e = f->t[ce].off + 1;
	while (e < f->n && (f->b[e] == ' ' || f->b[e] == '\t'))
		e++;
	if (edit_add(fx, f->t[a].off, e - f->t[a].off, "") != 0)
		return (-1);
	return (1);
}

/* Drop the argument [a, b) of a call and the comma and blanks after it. */
static int
drop_arg(struct fx *f, const struct args *g, size_t ai,
    struct kl_srcfix *fx)
{
	size_t s = f->t[g->a[ai]].off, e;

	if (ai + 1 >= g->n)
		return (0);
	e = f->t[g->a[ai + 1]].off;
	return (edit_add(fx, s, e - s, ""));
}

/* Order edits by offset. */
static int
editcmp(const void *a, const void *b)
{
	const struct kl_srcfix_edit *x = a, *y = b;

	return (x->off < y->off ? -1 : x->off > y->off);
}

/*
 * The piece of the chain a site's format is: its chain offset, and the
 * bytes of the site's pr_fmt() prefix before it.  -1 when none is.
 */
static int
find_piece(const struct chain *ch, const char *fmt, size_t fmtlen,
    size_t *at, size_t *pfx)
{
	size_t s = 0, e, ps, pl;

	if (ch->d == NULL)
		return (-1);
	while (s <= ch->n) {
		for (e = s; e < ch->n && ch->d[e] != '\n' && ch->d[e] != '\0';
		    e++)
			;
		ps = s;
		while (e - ps >= 2 && ch->d[ps] == 0x01)
			ps += 2;
		pl = e - ps;
		if (pl <= fmtlen && memcmp(ch->d + ps, fmt + fmtlen - pl, pl) ==
		    0 && (pl == fmtlen || s == 0)) {
			*at = ps;
			*pfx = fmtlen - pl;
			return (0);
		}
		if (e >= ch->n || ch->d[e] == '\0')
			break;
		s = e + 1;
	}
	return (-1);
}

/* Free what a fix holds. */
void
kl_srcfix_free(struct kl_srcfix *fx)
{
	free(fx->edit);
	memset(fx, 0, sizeof(*fx));
}

/*
 * The fix of the call site at line (1-based) of the file b[0..n) whose
 * format (a line of it, as the index holds it, with the file's pr_fmt()
 * prefix for pr_*() calls) is fmt, in function: the conversions at the
 * offsets convs[0..nconv) of fmt printed the leak.  Every raw pointer
 * conversion of the call is changed; when one of the leaking ones
 * cannot be, there is no fix and fx->why and fx->detail say why.
 * Returns -1 (err set) only when memory ran out.
 */
int
kl_srcfix_make(const uint8_t *b, size_t n, uint64_t line, const char *fmt,
    size_t fmtlen, const char *function, const size_t *convs, size_t nconv,
    struct kl_srcfix *fx, struct kl_error *err)
{
	struct fx f;
	struct chain ch;
	struct args g;
	struct conv c;
	size_t i, j, k, at = 0, pfx = 0, lp, callee, argi, fa, ci;
	int d, rc = 0, changed, leaked, restricted;

	memset(fx, 0, sizeof(*fx));
	memset(&f, 0, sizeof(f));
	memset(&ch, 0, sizeof(ch));
	f.b = b;
	f.n = n;
	lex(&f);
	if (f.oom)
		goto nomem;
	/* The chain holding the piece, a literal of it on the line. */
	for (i = 0; i < f.nt; i++) {
		/* A chain's first literal (KERN_CONT "..." starts one). */
		if (f.t[i].kind != TK_STR || (i > 0 && f.t[i - 1].kind ==
		    TK_STR) || (i > 1 && is_kern(&f, i - 1) &&
		    f.t[i - 2].kind == TK_STR))
			continue;
		free(ch.d);
		free(ch.src);
		if (decode(&f, i, &ch) != 0)
			goto nomem;
		if (f.t[ch.t1 - 1].line < line || f.t[i].line > line)
			continue;
		if (find_piece(&ch, fmt, fmtlen, &at, &pfx) == 0)
			break;
	}
	if (i == f.nt) {
		if (pp_line(&f, line))
			refuse(fx, KL_FIX_MACRO, "the format is in a "
			    "preprocessor line (a macro's body)");
		else
			refuse(fx, KL_FIX_NOCALL, "the format is not at line "
			    "%llu of the file", (unsigned long long)line);
		goto out;
	}
	/* The call around it: the '(' before, its callee, its arguments. */
	for (lp = ch.t0, d = 0, argi = 0; lp-- > 0;) {
		if (teq(&f, lp, ")") || teq(&f, lp, "]"))
			d++;
		else if (teq(&f, lp, "(") || teq(&f, lp, "[")) {
			if (d-- == 0)
				break;
		} else if (d == 0 && teq(&f, lp, ","))
			argi++;
		else if (d == 0 && (teq(&f, lp, ";") || teq(&f, lp, "{") ||
		    teq(&f, lp, "}"))) {
			lp = 0;
			d = -2;
			break;
		}
	}
	if (d == -2 || lp == SIZE_MAX || !teq(&f, lp, "(") ||
	    (callee = callee_of(&f, lp)) == SIZE_MAX ||
	    split_args(&f, lp, &g) != 0 || argi >= g.n) {
		refuse(fx, KL_FIX_NOCALL, "the format is not an argument of a "
		    "call at line %llu", (unsigned long long)line);
		goto out;
	}
	if (pp_inside(&f, f.t[callee].off, f.t[g.rp].off)) {
		refuse(fx, KL_FIX_MACRO, "a preprocessor line is inside the "
		    "call");
		goto out;
	}
	snprintf(fx->callee, sizeof(fx->callee), "%.*s",
	    (int)f.t[callee].len, f.b + f.t[callee].off);
	fx->call_off = f.t[callee].off;
	fx->call_end = f.t[g.rp].off + 1;
	restricted = file_content(&f, callee, function);
	fx->restricted = restricted;
	/* The function's first token: the '{' at depth 0 before the call. */
	for (fa = callee; fa > 0 && !(teq(&f, fa, "{") &&
	    f.t[fa].depth == 0); fa--)
		;
	/* Its parameters belong to it: the ')' before the '{'. */
	if (fa > 0 && teq(&f, fa - 1, ")")) {
		for (k = fa - 1, d = 0; k > 0; k--) {
			if (teq(&f, k, ")"))
				d++;
			else if (teq(&f, k, "(") && --d == 0)
				break;
		}
		fa = k;
	}
	/* Each conversion of the chain, its argument in turn. */
	ci = argi + 1;
	changed = 0;
	for (i = 0; i < ch.n; i++) {
		if (ch.d[i] != '%')
			continue;
		kl_srcidx_conv_parse(ch.d + i, ch.n - i, &c);
		if (c.kind == CV_PCT || c.kind == CV_NONE || ch.src[i] ==
		    SIZE_MAX) {
			i += c.len - 1;
			continue;
		}
		leaked = 0;
		for (j = 0; j < nconv; j++)
			if (convs[j] >= pfx && at + convs[j] - pfx == i)
				leaked = 1;
		k = ci + (c.width == -2) + (c.prec == -2);
		/* Text, numbers, symbols, %p: nothing to change (a token
		   matched there was no pointer the call printed raw). */
		if (!(c.kind == CV_RAW || c.kind == CV_HEX)) {
			ci = k + 1;
			i += c.len - 1;
			continue;
		}
		{
			struct kl_srcfix one;

			memset(&one, 0, sizeof(one));
			rc = fix_conv(&f, &ch, i, &c, &g, k, fa, restricted,
			    &one);
			if (rc < 0) {
				kl_srcfix_free(&one);
				goto nomem;
			}
			if (rc == 0 && leaked) {
				kl_srcfix_free(fx);
				*fx = one;
				goto out;
			}
			for (j = 0; rc == 1 && j < one.nedit; j++)
				if (edit_add(fx, one.edit[j].off,
				    one.edit[j].len, one.edit[j].text) != 0) {
					kl_srcfix_free(&one);
					goto nomem;
				}
			/* %0*lx: the width argument goes with it. */
			if (rc == 1 && c.width == -2 && drop_arg(&f, &g, ci,
			    fx) != 0) {
				kl_srcfix_free(&one);
				goto nomem;
			}
			if (rc == 1) {
				changed++;
				snprintf(fx->detail, sizeof(fx->detail), "%s",
				    one.detail);
			}
			kl_srcfix_free(&one);
		}
		ci = k + 1;
		i += c.len - 1;
	}
	if (changed == 0) {
		refuse(fx, KL_FIX_NOTRAW, "no conversion of the call prints a "
		    "raw pointer");
		goto out;
	}
	fx->nconv = (size_t)changed;
	qsort(fx->edit, fx->nedit, sizeof(*fx->edit), editcmp);
	for (i = 1; i < fx->nedit; i++)
		if (fx->edit[i].off < fx->edit[i - 1].off +
		    fx->edit[i - 1].len) {
			refuse(fx, KL_FIX_EXPR, "two changes overlap");
			goto out;
		}
	fx->why = KL_FIX_OK;
out:
	free(ch.d);
	free(ch.src);
	free(f.t);
	free(f.pp);
	return (0);
nomem:
	free(ch.d);
	free(ch.src);
	free(f.t);
	free(f.pp);
	kl_srcfix_free(fx);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}

/* The file with a fix's edits applied: a new buffer in *out. */
int
kl_srcfix_apply(const uint8_t *b, size_t n, const struct kl_srcfix *fx,
    uint8_t **out, size_t *outlen, struct kl_error *err)
{
	uint8_t *o;
	size_t i, at = 0, k = 0, tl;

	if ((o = malloc(n + 64 * fx->nedit + 1)) == NULL) {
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	for (i = 0; i < fx->nedit; i++) {
		const struct kl_srcfix_edit *e = &fx->edit[i];

		if (e->off < at || e->off + e->len > n) {
			free(o);
			kl_error_set(err, KL_EINVAL, 0, "edits out of order");
			return (-1);
		}
		memcpy(o + k, b + at, e->off - at);
		k += e->off - at;
		tl = strlen(e->text);
		memcpy(o + k, e->text, tl);
		k += tl;
		at = e->off + e->len;
	}
	memcpy(o + k, b + at, n - at);
	k += n - at;
	o[k] = '\0';
	*out = o;
	*outlen = k;
	return (0);
}

/* A growing text. */
struct obuf {
	char		*p;
	size_t		 n, cap;
	int		 oom;
};

/* Append n bytes. */
static void
ob_put(struct obuf *o, const void *s, size_t n)
{
	char *np;
	size_t cap;

	if (o->oom)
		return;
	if (o->n + n + 1 > o->cap) {
		cap = o->cap ? o->cap : 4096;
		while (cap < o->n + n + 1)
			cap *= 2;
		if ((np = realloc(o->p, cap)) == NULL) {
			o->oom = 1;
			return;
		}
		o->p = np;
		o->cap = cap;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = '\0';
}

/* Append a string. */
static void
ob_puts(struct obuf *o, const char *s)
{
	ob_put(o, s, strlen(s));
}

/* The lines of a text: starts (n + 1 of them, the last at its end). */
static size_t *
lines_of(const uint8_t *b, size_t n, size_t *nl)
{
	size_t *l, i, k = 0, cnt = 1;

	for (i = 0; i < n; i++)
		cnt += b[i] == '\n';
	if ((l = malloc((cnt + 1) * sizeof(*l))) == NULL)
		return (NULL);
	l[k++] = 0;
	for (i = 0; i < n; i++)
		if (b[i] == '\n' && i + 1 < n)
			l[k++] = i + 1;
	*nl = n == 0 ? 0 : k;
	l[*nl] = n;
	return (l);
}

/* Are line i of a and line j of b the same bytes? */
static int
line_eq(const uint8_t *a, const size_t *la, size_t i, const uint8_t *b,
    const size_t *lb, size_t j)
{
	size_t x = la[i + 1] - la[i], y = lb[j + 1] - lb[j];

	return (x == y && memcmp(a + la[i], b + lb[j], x) == 0);
}

/* An operation of the script: ' ', '-' or '+', and its line. */
struct op {
	char	 c;
	size_t	 line;		/* in a for ' ' and '-', in b for '+' */
	size_t	 bline;		/* for ' ': its line in b */
};

/* Write one line of a side, with git's note when it has no newline. */
static void
put_line(struct obuf *o, char c, const uint8_t *t, const size_t *l,
    size_t i, size_t n)
{
	size_t s = l[i], e = l[i + 1];

	ob_put(o, &c, 1);
	ob_put(o, t + s, e - s);
	if (e == n && (e == s || t[e - 1] != '\n'))
		ob_puts(o, "\n\\ No newline at end of file\n");
}

/*
 * The unified diff of a (the file as it is, path relative to the tree)
 * and b (fixed), as git diff writes it: "diff --git", ---/+++ lines,
 * hunks with 3 lines of context and the function line.  Into *out.
 */
int
kl_srcfix_diff(const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
    const char *path, char **out, size_t *outlen, struct kl_error *err)
{
	struct obuf o = { NULL, 0, 0, 0 };
	size_t *la = NULL, *lb = NULL, na, nb, p = 0, s = 0, wa, wb, i, j;
	size_t nops = 0, h, e, k, oa, ob, ca, cb, f;
	unsigned *dp = NULL;
	struct op *ops = NULL;
	char hdr[160];

	if ((la = lines_of(a, an, &na)) == NULL ||
	    (lb = lines_of(b, bn, &nb)) == NULL)
		goto nomem;
	while (p < na && p < nb && line_eq(a, la, p, b, lb, p))
		p++;
	while (s < na - p && s < nb - p && line_eq(a, la, na - 1 - s, b, lb,
	    nb - 1 - s))
		s++;
	wa = na - p - s;
	wb = nb - p - s;
	if ((ops = malloc((na + nb + 1) * sizeof(*ops))) == NULL)
		goto nomem;
	for (i = 0; i < p; i++) {
		ops[nops].c = ' ';
		ops[nops].line = i;
		ops[nops++].bline = i;
	}
	if (wa <= FX_WINDOW && wb <= FX_WINDOW) {
		/* The longest common subsequence of the window. */
		if ((dp = calloc((wa + 1) * (wb + 1), sizeof(*dp))) == NULL)
			goto nomem;
		for (i = wa; i-- > 0;)
			for (j = wb; j-- > 0;) {
				unsigned down = dp[(i + 1) * (wb + 1) + j];
				unsigned right = dp[i * (wb + 1) + j + 1];

				if (line_eq(a, la, p + i, b, lb, p + j))
					dp[i * (wb + 1) + j] =
					    dp[(i + 1) * (wb + 1) + j + 1] + 1;
				else
					dp[i * (wb + 1) + j] = down > right ?
					    down : right;
			}
		for (i = j = 0; i < wa || j < wb;) {
			if (i < wa && j < wb && line_eq(a, la, p + i, b, lb,
			    p + j)) {
				ops[nops].c = ' ';
				ops[nops].line = p + i++;
				ops[nops++].bline = p + j++;
			} else if (j < wb && (i == wa ||
			    dp[i * (wb + 1) + j + 1] >=
			    dp[(i + 1) * (wb + 1) + j])) {
				ops[nops].c = '+';
				ops[nops++].line = p + j++;
			} else {
				ops[nops].c = '-';
				ops[nops++].line = p + i++;
			}
		}
		/* git puts a change's removed lines before its added ones */
		for (k = 0; k < nops; k++) {
			for (e = k; e < nops && ops[e].c != ' '; e++)
				;
			if (e > k + 1) {
				struct op tmp;
				size_t x, y;

				for (x = k + 1; x < e; x++)
					for (y = x; y > k && ops[y].c == '-' &&
					    ops[y - 1].c == '+'; y--) {
						tmp = ops[y];
						ops[y] = ops[y - 1];
						ops[y - 1] = tmp;
					}
			}
			k = e;
		}
	} else {
		for (i = 0; i < wa; i++) {
			ops[nops].c = '-';
			ops[nops++].line = p + i;
		}
		for (j = 0; j < wb; j++) {
			ops[nops].c = '+';
			ops[nops++].line = p + j;
		}
	}
	for (i = 0; i < s; i++) {
		ops[nops].c = ' ';
		ops[nops].line = na - s + i;
		ops[nops++].bline = nb - s + i;
	}
	snprintf(hdr, sizeof(hdr), "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n",
	    path, path, path, path);
	ob_puts(&o, hdr);
	/* Hunks: changes with their context, close ones joined. */
	oa = ob = 0;
	for (h = 0; h < nops;) {
		while (h < nops && ops[h].c == ' ')
			h++;
		if (h == nops)
			break;
		k = h > FX_CONTEXT ? h - FX_CONTEXT : 0;
		/* the end: past the last change whose gap is small */
		for (e = h;;) {
			while (e < nops && ops[e].c != ' ')
				e++;
			for (f = e; f < nops && ops[f].c == ' '; f++)
				;
			if (f < nops && f - e <= 2 * FX_CONTEXT)
				e = f;
			else
				break;
		}
		e = e + FX_CONTEXT < nops ? e + FX_CONTEXT : nops;
		/* where the hunk starts on each side, how long it is */
		ca = cb = 0;
		for (i = k; i < e; i++) {
			ca += ops[i].c != '+';
			cb += ops[i].c != '-';
		}
		oa = ob = SIZE_MAX;
		for (i = k; i < e && (oa == SIZE_MAX || ob == SIZE_MAX); i++) {
			if (ops[i].c != '+' && oa == SIZE_MAX)
				oa = ops[i].line;
			if (ops[i].c == ' ' && ob == SIZE_MAX)
				ob = ops[i].bline;
			if (ops[i].c == '+' && ob == SIZE_MAX)
				ob = ops[i].line;
		}
		ob_puts(&o, "@@ -");
		snprintf(hdr, sizeof(hdr), ca == 1 ? "%zu" : "%zu,%zu",
		    ca == 0 ? oa : oa + 1, ca);
		ob_puts(&o, hdr);
		snprintf(hdr, sizeof(hdr), cb == 1 ? " +%zu" : " +%zu,%zu",
		    cb == 0 ? ob : ob + 1, cb);
		ob_puts(&o, hdr);
		ob_puts(&o, " @@");
		/* git's function line: the last before the hunk that starts
		   with a letter, '_' or '$' */
		for (i = oa; oa != SIZE_MAX && i-- > 0;) {
			uint8_t c0 = a[la[i]];

			if ((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' &&
			    c0 <= 'Z') || c0 == '_' || c0 == '$') {
				size_t len = la[i + 1] - la[i];

				while (len > 0 && (a[la[i] + len - 1] == '\n' ||
				    a[la[i] + len - 1] == ' ' ||
				    a[la[i] + len - 1] == '\t'))
					len--;
				ob_put(&o, " ", 1);
				ob_put(&o, a + la[i], len > 80 ? 80 : len);
				break;
			}
		}
		ob_put(&o, "\n", 1);
		for (i = k; i < e; i++) {
			if (ops[i].c == '+')
				put_line(&o, '+', b, lb, ops[i].line, bn);
			else
				put_line(&o, ops[i].c, a, la, ops[i].line, an);
		}
		h = e;
	}
	if (o.oom)
		goto nomem;
	free(la);
	free(lb);
	free(ops);
	free(dp);
	*out = o.p;
	*outlen = o.n;
	return (0);
nomem:
	free(la);
	free(lb);
	free(ops);
	free(dp);
	free(o.p);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}
