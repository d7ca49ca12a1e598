/*
 * srcmatch.c - which sites of the index printed a message.
 *
 * A message is compared with the sites keyed by one of its words.  The
 * comparison is a backtracking match of the piece against the message,
 * each conversion matching what the kernel's vsprintf prints for it (%d
 * digits, %lx hex with its width, %pS a symbol, %s any text).  The
 * conversion that printed the address token is reported.
 *
 * Architectures: a site under arch/X/ is a candidate only when X is the
 * directory of one of the message's architectures; when none is known,
 * generic code ranks before any arch/ directory.  A result says why it
 * ranks where it does (KL_SRCM_*), so that a caller can tell why one of
 * two sites printing the same format was preferred.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "srcidx-int.h"

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
	unsigned	 why;		/* KL_SRCM_* of the result */
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
			kl_srcidx_conv_parse(st->f + fi, st->fn - fi, &c);
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
	case KL_ARCH_RISCV32:
		return ("riscv");
	case KL_ARCH_MIPS64: case KL_ARCH_MIPS32:
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

/* Where a site's file is for a mask of architectures. */
enum sarch {
	SA_GENERIC,	/* not under arch/ */
	SA_FITS,	/* under the directory of one of them */
	SA_UNKNOWN,	/* under arch/, no architecture known */
	SA_OTHER,	/* another architecture's tree */
};

/* Where file is for the architectures of mask (1u << kl_arch_id). */
static enum sarch
site_arch(const char *file, uint32_t arches)
{
	const char *ad;
	size_t n;
	unsigned a;

	if (strncmp(file, "arch/", 5) != 0)
		return (SA_GENERIC);
	if ((arches & ~(uint32_t)1) == 0)
		return (SA_UNKNOWN);
	for (a = 1; a < KL_ARCH_COUNT && a < 32; a++) {
		if (!(arches & (UINT32_C(1) << a)) ||
		    (ad = arch_dir((enum kl_arch_id)a)) == NULL)
			continue;
		n = strlen(ad);
		if (strncmp(file + 5, ad, n) == 0 && file[5 + n] == '/')
			return (SA_FITS);
	}
	return (SA_OTHER);
}

/*
 * Compare site si with the message, the token at [tok, tokend); the
 * match is placed anywhere in [lo, hi) of the message.  The score, or
 * INT_MIN when the site did not print the token.
 */
static int
try_site(const struct kl_srcidx *x, size_t si, const uint8_t *m, size_t mn,
    size_t lo, size_t hi, size_t tok, size_t tokend, uint32_t arches,
    struct mst *out, long *total)
{
	const struct site *s = &x->site[si];
	const char *file = (const char *)x->arena + s->file;
	enum sarch where;
	struct mst st;
	size_t start;
	int score;
	long budget = *total < SI_STEPS ? *total : SI_STEPS;
	long spent;
	int found = INT32_MIN;

	if (tok < lo || tokend > hi || budget <= 0)
		return (INT32_MIN);
	/* Another architecture's code did not print it. */
	if ((where = site_arch(file, arches)) == SA_OTHER)
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
			kl_srcidx_conv_parse(st.f + st.hit_f, st.fn - st.hit_f,
			    &hc);
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
			st.why = 0;
			if (st.width_ok) {
				score += 30;
				st.why |= KL_SRCM_WIDTH;
			}
			if (s->flags & SF_EXACT) {
				score += 100;
				st.why |= KL_SRCM_EXACT;
			}
			/* Its own architecture's tree first; with none
			   known, generic code first. */
			if (where == SA_FITS) {
				score += 50;
				st.why |= KL_SRCM_ARCH;
			} else if (where == SA_UNKNOWN) {
				score -= 50;
				st.why |= KL_SRCM_ARCHDIR;
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
	r[i].why = st->why;
	r[i].lit = st->lit;
	r[i].conv_off = st->hit_f;
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
			kl_srcidx_conv_parse(f + i, n - i, &c);
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
    uint32_t arches, struct kl_srcidx_match *r, size_t *nr, size_t max,
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
		sc = try_site(x, j, m, mn, lo, hi, tok, tokend, arches, &st,
		    total);
		if (sc == INT32_MIN)
			continue;
		st.why |= KL_SRCM_SIBLING;
		add_result(x, r, nr, max, j, sc - 300, &st);
	}
}

/*
 * The sites that printed a message of one architecture, arch
 * (KL_ARCH_AUTO: unknown): kl_srcidx_match_arches() with that one.
 */
size_t
kl_srcidx_match(const struct kl_srcidx *x, const uint8_t *msg, size_t len,
    size_t tok, size_t toklen, enum kl_arch_id arch,
    struct kl_srcidx_match *r, size_t max)
{
	uint32_t arches = 0;

	if (arch != KL_ARCH_AUTO && (unsigned)arch < 32)
		arches = UINT32_C(1) << arch;
	return (kl_srcidx_match_arches(x, msg, len, tok, toklen, arches, r,
	    max));
}

/*
 * The sites that printed a message (one line, framing removed) whose
 * address token is msg[tok..tok+toklen), best first, at most max into
 * r.  arches (1u << kl_arch_id; 0 or bit 0 alone: unknown) are the
 * architectures that printed it: sites under another architecture's
 * arch/ directory are out, its own rank first.  Returns how many.
 */
size_t
kl_srcidx_match_arches(const struct kl_srcidx *x, const uint8_t *msg,
    size_t len, size_t tok, size_t toklen, uint32_t arches,
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
		    arches, &st, &total);
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
					    msg, len, tok, tok + toklen, arches,
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
