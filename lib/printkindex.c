/*
 * printkindex.c - reads the kernel's printk index (debugfs
 * printk/index/vmlinux), a second, exact source of sites.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "srcidx-int.h"

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
			i += kl_srcidx_unescape(s + i, n - i, &v);
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
		if ((foff = kl_srcidx_arena_add(x, f0,
		    (size_t)(c0 - 1 - f0))) < 0 ||
		    (noff = kl_srcidx_arena_add(x, fn0,
		    (size_t)(fn1 - fn0))) < 0)
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

			if (kl_srcidx_emit(l, 0, cont) != 0)
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
