/*
 * mimemap.c - the map from decoded bytes back to where they are stored:
 *
 * Every decoded byte keeps where it is stored (a map of segments, per
 * message, trimmed by the caller as its scanner settles), so findings
 * point at the file as stored and a rewriter can write a token back in
 * its own encoding, in place and of the same size (kl_mime_put).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "mime-int.h"

/* The kept segment holding decoded offset dec, or NULL. */
static const struct seg *
seg_find(const struct kl_mime *m, uint64_t dec)
{
	size_t	lo = m->seg0, hi = m->nseg, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->segs[mid].dec + m->segs[mid].len <= dec)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->nseg || m->segs[lo].dec > dec)
		return (NULL);
	return (&m->segs[lo]);
}

/*
 * Where the decoded byte at offset dec of the current message is
 * stored: 0, or -1 when the map no longer holds it.
 */
int
kl_mime_place(const struct kl_mime *m, uint64_t dec, struct kl_mime_pos *pos)
{
	const struct seg	*s;
	uint64_t		 k, d;

	if ((s = seg_find(m, dec)) == NULL)
		return (-1);
	k = dec - s->dec;
	d = k;
	if (s->kind == KL_MIME_B64)
		d = (uint64_t)((s->sub + k) / 3) * 4;
	else if (s->kind != KL_MIME_LIT)
		d = 0;
	pos->offset = s->sto + d;
	pos->line = s->line;
	pos->column = s->col + d;
	pos->kind = (enum kl_mime_kind)s->kind;
	if (s->kind == KL_MIME_B64)
		pos->kind = KL_MIME_B64;
	return (0);
}

/*
 * The stored offset below which every byte is settled when the caller's
 * scanner has settled the decoded bytes below dec.
 */
uint64_t
kl_mime_settled(const struct kl_mime *m, uint64_t dec)
{
	struct kl_mime_pos	pos;

	if (kl_mime_place(m, dec, &pos) == 0)
		return (pos.offset);
	if (m->nseg > m->seg0 && dec < m->segs[m->seg0].dec)
		return (m->segs[m->seg0].sto);
	/* All given out and settled: up to the line being read. */
	if (m->dlen == 0 && m->b64n == 0 && m->entlen == 0)
		return (m->off);
	return (m->nseg > m->seg0 ? m->segs[m->nseg - 1].sto : m->off);
}

/* Forget the map below decoded offset dec (the caller settled it). */
void
kl_mime_trim(struct kl_mime *m, uint64_t dec)
{
	while (m->seg0 < m->nseg &&
	    m->segs[m->seg0].dec + m->segs[m->seg0].len <= dec)
		m->seg0++;
}

/* The base64 character of v. */
static uint8_t
b64c(unsigned v)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";

	return ((uint8_t)tab[v & 63]);
}

/*
 * Write the decoded byte at dec as c, in its stored encoding, into the
 * held stored bytes buf[0..len) (buf[0] at offset base): in place and
 * of the same size.  0, or -1 when it cannot be.
 */
int
kl_mime_put(const struct kl_mime *m, uint64_t dec, uint8_t c, uint8_t *buf,
    uint64_t base, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	struct kl_mime_pos	 pos;
	const struct seg	*s;
	uint8_t			*q, o[3];
	uint32_t		 v;
	size_t			 at, i, np;
	int			 x;

	if (kl_mime_place(m, dec, &pos) == -1 || pos.offset < base ||
	    pos.offset - base >= len)
		return (-1);
	at = (size_t)(pos.offset - base);
	q = buf + at;
	switch (pos.kind) {
	case KL_MIME_LIT:
		*q = c;
		return (0);
	case KL_MIME_QP:
		if (len - at < 3)
			return (-1);
		q[1] = (uint8_t)hex[c >> 4];
		q[2] = (uint8_t)hex[c & 15];
		return (0);
	case KL_MIME_B64:
		if (len - at < 4)
			return (-1);
		s = seg_find(m, dec);
		v = 0;
		np = 0;
		for (i = 0; i < 4; i++) {
			x = kl_b64_value(q[i]);
			if (x == -1)
				return (-1);
			if (x == -2) {
				np++;
				x = 0;
			} else if (np > 0)
				return (-1);
			v = v << 6 | (uint32_t)x;
		}
		o[0] = (uint8_t)(v >> 16);
		o[1] = (uint8_t)(v >> 8);
		o[2] = (uint8_t)v;
		i = (size_t)((s->sub + (dec - s->dec)) % 3);
		if (i >= 3 - np)
			return (-1);
		o[i] = c;
		v = (uint32_t)o[0] << 16 | (uint32_t)o[1] << 8 | o[2];
		for (i = 0; i < 4 - np; i++)
			q[i] = b64c(v >> (18 - 6 * i));
		return (0);
	default:
		return (-1);
	}
}
