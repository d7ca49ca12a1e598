/*
 * srcindex.c - the index of a kernel tree's format strings: its sites
 * (a line of a format each: file, line, function, the piece), the
 * conversions of a format, and the key words sites are found by.
 *
 * Each site is keyed by one literal word of its piece, the rarest of
 * the words bounded by literal text; a message is compared only with
 * the sites keyed by one of its own words (srcmatch.c compares them).
 * Sites come from the C scanner (srclex.c) over a tree (srctree.c) and
 * from a printk index (printkindex.c); srccache.c saves and loads the
 * built index.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "srcidx-int.h"

/* Append n bytes and a NUL to the arena; the offset, or -1. */
int64_t
kl_srcidx_arena_add(struct kl_srcidx *x, const void *p, size_t n)
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
int
kl_srcidx_site_add(struct kl_srcidx *x, const struct site *s)
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

	if ((x = calloc(1, sizeof(*x))) == NULL ||
	    kl_srcidx_arena_add(x, "", 0) != 0) {
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
	free(x->dir);
	free(x);
}

/*
 * Which of the tree's other files a path (relative to the top) is:
 * KL_SRCIDX_MAINTAINERS, KL_SRCIDX_MAILMAP or KL_SRCIDX_VERSION (the
 * top Makefile), or -1.
 */
int
kl_srcidx_meta_name(const char *rel)
{
	if (strcmp(rel, "MAINTAINERS") == 0)
		return (KL_SRCIDX_MAINTAINERS);
	if (strcmp(rel, ".mailmap") == 0)
		return (KL_SRCIDX_MAILMAP);
	if (strcmp(rel, "Makefile") == 0)
		return (KL_SRCIDX_VERSION);
	return (-1);
}

/* The value of "NAME = value" in a Makefile's first lines, or NULL. */
static const uint8_t *
make_var(const uint8_t *b, size_t n, const char *name, size_t *len)
{
	size_t i = 0, e, k, nl = strlen(name);

	while (i < n && i < 4096) {
		for (e = i; e < n && b[e] != '\n'; e++)
			;
		if (e - i > nl && memcmp(b + i, name, nl) == 0) {
			for (k = i + nl; k < e && b[k] == ' '; k++)
				;
			if (k < e && b[k] == '=') {
				for (k++; k < e && b[k] == ' '; k++)
					;
				*len = e - k;
				while (*len > 0 && (b[k + *len - 1] == ' ' ||
				    b[k + *len - 1] == '\r'))
					(*len)--;
				return (b + k);
			}
		}
		i = e + 1;
	}
	return (NULL);
}

/*
 * Keep a file of the tree that is not a source: MAINTAINERS and
 * .mailmap whole, the release the top Makefile names ("6.1.192").  Other
 * names are passed over.  -1 when memory ran out.
 */
int
kl_srcidx_add_meta(struct kl_srcidx *x, const char *rel, const void *data,
    size_t len, struct kl_error *err)
{
	const uint8_t *v[3];
	char ver[64];
	size_t vl[3], n = 0, i;
	int64_t off;
	int which;
	static const char *const vars[] = { "VERSION", "PATCHLEVEL",
	    "SUBLEVEL" };

	if ((which = kl_srcidx_meta_name(rel)) < 0)
		return (0);
	if (which == KL_SRCIDX_VERSION) {
		for (i = 0; i < 3; i++) {
			if ((v[i] = make_var(data, len, vars[i], &vl[i])) ==
			    NULL || vl[i] == 0 || vl[i] > 8)
				return (0);	/* not a kernel's Makefile */
			memcpy(ver + n, v[i], vl[i]);
			n += vl[i];
			ver[n++] = '.';
		}
		data = ver;
		len = n - 1;
	}
	if ((off = kl_srcidx_arena_add(x, data, len)) < 0) {
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	x->meta[which] = (uint32_t)off;
	x->metalen[which] = (uint32_t)len;
	return (0);
}

/* A file of the tree kept by kl_srcidx_add_meta(), or NULL. */
const char *
kl_srcidx_meta(const struct kl_srcidx *x, enum kl_srcidx_meta which,
    size_t *len)
{
	if ((unsigned)which >= KL_SRCIDX_META_COUNT || x->meta[which] == 0)
		return (NULL);
	if (len != NULL)
		*len = x->metalen[which];
	return ((const char *)x->arena + x->meta[which]);
}

/*
 * Record a directory of the tree (n bytes of rel, relative to the top,
 * no trailing slash) and, the first time, its parents.  -1: no memory.
 */
int
kl_srcidx_add_dir(struct kl_srcidx *x, const char *rel, size_t n,
    struct kl_error *err)
{
	uint32_t *nd;
	int64_t off;
	size_t cap;

	while (n > 0 && rel[n - 1] == '/')
		n--;
	if (n == 0)
		return (0);
	if (x->lastdir != 0 && strlen((const char *)x->arena + x->lastdir) ==
	    n && memcmp(x->arena + x->lastdir, rel, n) == 0)
		return (0);
	if (x->ndir == x->cdir) {
		cap = x->cdir ? x->cdir * 2 : 1024;
		if (cap > UINT32_MAX ||
		    (nd = realloc(x->dir, cap * sizeof(*nd))) == NULL)
			goto nomem;
		x->dir = nd;
		x->cdir = cap;
	}
	if ((off = kl_srcidx_arena_add(x, rel, n)) < 0)
		goto nomem;
	x->dir[x->ndir++] = (uint32_t)off;
	x->lastdir = (uint32_t)off;
	while (n > 0 && rel[n - 1] != '/')
		n--;
	if (n > 1) {
		/* The parents: duplicates go when the list is sorted. */
		if (kl_srcidx_add_dir(x, rel, n - 1, err) != 0)
			return (-1);
		x->lastdir = (uint32_t)off;
	}
	return (0);
nomem:
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}

/* A directory being sorted: its name and arena offset. */
struct dname {
	const char	*s;
	uint32_t	 off;
};

/* Compare directories by name. */
static int
dircmp(const void *a, const void *b)
{
	return (strcmp(((const struct dname *)a)->s,
	    ((const struct dname *)b)->s));
}

/* Sort the directories by name and drop the repeated ones; -1: memory. */
int
kl_srcidx_dirs_sort(struct kl_srcidx *x)
{
	struct dname *d;
	size_t i, k;

	if (x->ndir < 2)
		return (0);
	if ((d = calloc(x->ndir, sizeof(*d))) == NULL)
		return (-1);
	for (i = 0; i < x->ndir; i++) {
		d[i].s = (const char *)x->arena + x->dir[i];
		d[i].off = x->dir[i];
	}
	qsort(d, x->ndir, sizeof(*d), dircmp);
	x->dir[0] = d[0].off;
	for (i = k = 1; i < x->ndir; i++)
		if (strcmp(d[i].s, d[k - 1].s) != 0) {
			d[k] = d[i];
			x->dir[k++] = d[i].off;
		}
	x->ndir = k;
	free(d);
	return (0);
}

/* Is rel (relative to the top, no trailing slash) a directory of it? */
int
kl_srcidx_isdir(const struct kl_srcidx *x, const char *rel)
{
	size_t lo = 0, hi = x->ndir, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp((const char *)x->arena + x->dir[mid], rel);
		if (c == 0)
			return (1);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (0);
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
void
kl_srcidx_conv_parse(const uint8_t *f, size_t n, struct conv *c)
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
			kl_srcidx_conv_parse(f + i, n - i, &c);
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
	if (kl_srcidx_dirs_sort(x) != 0) {
		kl_error_set(err, KL_ENOMEM, errno, "out of memory");
		return (-1);
	}
	x->built = 1;
	return (0);
nomem:
	free(all);
	kl_error_set(err, KL_ENOMEM, errno, "out of memory");
	return (-1);
}
