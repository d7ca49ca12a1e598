/*
 * gzip-isal.c - the ISA-L gzip reader: a gzip stream inflated by
 * isal_inflate() rather than libarchive, member after member, each
 * one's CRC and length checked, with the messages of the libarchive
 * path; and which inflater this build has.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ISAL
#include <errno.h>
#include <inttypes.h>

#include <isa-l/igzip_lib.h>
#endif

#include "kleak.h"
#include "kleak-int.h"
#include "input-int.h"

/* What inflates gzip streams: "ISA-L", or "zlib" (through libarchive). */
const char *
kl_input_inflater(void)
{
#ifdef HAVE_ISAL
	return ("ISA-L");
#else
	return ("zlib");
#endif
}

#ifdef HAVE_ISAL

/* Damage of the gzip stream l, to report once its output is out. */
static void
z_damage(struct lvl *l, const char *msg)
{
	if (l->zerr[0] == '\0')
		snprintf(l->zerr, sizeof(l->zerr), "%s", msg);
}

/*
 * Why ISA-L stopped the member of l with ret: the same words as the
 * libarchive path, so that messages do not depend on the inflater.  A
 * checksum is the trailer's, the last eight bytes inflate took.
 */
static void
z_fail(struct lvl *l, struct inflate_state *s, int ret)
{
	uint32_t want, len;

	if (ret == ISAL_INCORRECT_CHECKSUM && l->ntail == 8) {
		want = kl_le32(l->tail);
		len = kl_le32(l->tail + 4);
		if (len != (uint32_t)l->mout)
			snprintf(l->zerr, sizeof(l->zerr),
			    "gzip: length mismatch (stored %" PRIu32
			    ", got %" PRIu32 ")",
			    len, (uint32_t)l->mout);
		else
			snprintf(l->zerr, sizeof(l->zerr),
			    "gzip: crc mismatch (stored %08" PRIx32
			    ", computed %08" PRIx32 ")",
			    want, s->crc);
	} else if (l->members > 1 && l->mout == 0 &&
	    (ret == ISAL_INVALID_WRAPPER || ret == ISAL_UNSUPPORTED_METHOD))
		z_damage(l,
		    "gzip: data after the end of the compressed stream");
	else
		z_damage(l, "gzip decompression failed");
}

/*
 * Inflate the next block of the gzip stream l into l->obuf (l->blk),
 * or find its end (l->eof) or damage (l->zerr).  Members follow each
 * other as gzip -d reads them; zeros after the last are padding; other
 * bytes after it are damage.  -1 when the source cannot be read.
 */
static int
z_fill(struct ictx *c, struct lvl *l)
{
	struct inflate_state *s = l->ist;
	size_t used, made, avail, back;
	int ret;

	for (;;) {
		if (l->inlen == 0 && l->savinlen > 0) {
			l->in = l->savin;
			l->inlen = l->savinlen;
			l->savinlen = 0;
		}
		if (l->inlen == 0 && !l->srceof && kl_src_input(c, l) < 0)
			return (-1);
		if (l->zs == Z_PAD) {
			if (!kl_src_all_zero(l->in, l->inlen)) {
				z_damage(l, "gzip: data after the end of the "
					    "compressed stream");
				return (0);
			}
			l->inlen = 0;
			if (l->srceof) {
				l->eof = 1;
				return (0);
			}
			continue;
		}
		if (l->zs == Z_AFTER) {
			if (l->inlen == 0) {
				l->eof = 1;
				return (0);
			}
			if (l->in[0] == 0) {
				l->zs = Z_PAD;
				continue;
			}
			if (l->in[0] != 0x1f ||
			    (l->inlen > 1 && l->in[1] != 0x8b)) {
				z_damage(l, "gzip: data after the end of the "
					    "compressed stream");
				return (0);
			}
			isal_inflate_reset(s);
			s->crc_flag = ISAL_GZIP;
			l->zs = Z_MEMBER;
			l->members++;
			l->mout = 0;
		}
		avail = l->inlen < UINT32_MAX ? l->inlen : UINT32_MAX;
		s->next_in = (uint8_t *)(uintptr_t)l->in;
		s->avail_in = (uint32_t)avail;
		s->next_out = l->obuf;
		s->avail_out = OBUF;
		ret = isal_inflate(s);
		made = OBUF - s->avail_out;
		if (s->avail_in > avail) {
			/*
			 * At a member's end inflate gives back the bytes it
			 * read ahead, some of them from the input before this
			 * one: they are the last of l->tail.  Read them from
			 * a copy, then go on with the rest of this input.
			 */
			back = s->avail_in - avail;
			if (back > l->ntail || back > sizeof(l->carry)) {
				z_damage(l, "gzip decompression failed");
				return (0);
			}
			memcpy(l->carry, l->tail + l->ntail - back, back);
			l->ntail -= back;
			l->savin = l->in;
			l->savinlen = l->inlen;
			l->in = l->carry;
			l->inlen = back;
		} else {
			used = avail - s->avail_in;
			kl_src_tail_keep(l, l->in, used);
			l->in += used;
			l->inlen -= used;
		}
		l->mout += made;
		if (ret != ISAL_DECOMP_OK)
			z_fail(l, s, ret);
		else if (s->block_state == ISAL_BLOCK_FINISH)
			l->zs = Z_AFTER;
		else if (made == 0 && l->inlen == 0 && l->srceof)
			z_damage(l, "gzip: truncated gzip input");
		l->blk = l->obuf;
		l->blklen = made;
		if (made > 0 || l->zerr[0] != '\0')
			return (0);
	}
}

/* kl_src_next() for the ISA-L gzip stream up. */
static ssize_t
z_next(struct ictx *c, struct lvl *up, const uint8_t **pp, size_t max)
{
	size_t n;

	for (;;) {
		if (up->blklen > 0) {
			n = up->blklen < max ? up->blklen : max;
			*pp = up->blk;
			up->blk += n;
			up->blklen -= n;
			up->out += n;
			return ((ssize_t)n);
		}
		if (up->hurt)
			return (-1);
		if (up->zerr[0] != '\0') {
			kl_src_cause_set(c, KL_EFORMAT, 0, "%s", up->zerr);
			up->hurt = 1;
			return (-1);
		}
		if (up->eof)
			return (0);
		if (z_fill(c, up) < 0) {
			up->hurt = 1;
			return (-1);
		}
	}
}

/* Set up l at slot k to inflate its gzip stream with ISA-L. */
struct lvl *
kl_isal_open(struct ictx *c, struct lvl *l, size_t k)
{
	struct inflate_state *s;

	if ((c->ist[k] == NULL &&
		(c->ist[k] = malloc(sizeof(struct inflate_state))) == NULL) ||
	    (c->obuf[k] == NULL && (c->obuf[k] = malloc(OBUF)) == NULL)) {
		kl_src_cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	s = c->ist[k];
	isal_inflate_init(s);
	s->crc_flag = ISAL_GZIP;
	l->isal = 1;
	l->ist = s;
	l->obuf = c->obuf[k];
	l->members = 1;
	l->znext = z_next;
	return (l);
}
#endif
