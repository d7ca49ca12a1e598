/*
 * redact.c - rewrite a unit as kptr_restrict would have printed it.
 *
 * The rewriter holds the bytes of a unit that the scanner may still
 * report findings in, patches each finding it is asked to redact in
 * place (the same number of digits: zeros as %pK prints them at
 * kptr_restrict=2, or a keyed hash as %p prints it), and writes out
 * the bytes below the scanner's settled offset (kl_scan_settled()).
 * Nothing but the digits of a redacted token ever changes, so the
 * output has the length of the input.  A token in a JSON value decoded
 * from escapes or byte numbers (a record that is not exact) is found
 * again in the raw text from the record's start, which must be held
 * (kl_journal_json_patch()); a byte-array value's numbers are written
 * again in their own width.
 *
 * The caller feeds each piece of the unit here first, then to the
 * scanner (whose findings come back through kl_redact_finding()), then
 * calls kl_redact_settle() with the scanner's settled offset.  When more
 * than max_hold bytes are held, kl_redact_held() says so and the caller
 * asks the scanner to settle (kl_scan_settle()).  Memory: the held bytes
 * only, bounded by the scanner's window plus what waits for the
 * architecture.
 *
 * The deslide style writes each address of the kernel image as its
 * link-time value, the value less the boot's slide, and the rest as the
 * style says (zeros or the hash); the slide itself ("Kernel Offset:",
 * KL_F_SLIDE) becomes zeros, the slide of the output.  Which boot's
 * slide is known, and where its image lies, is decided only when the
 * boot segment ends: a panic prints "Kernel Offset:" after the frames
 * it de-slides.  So a token that may be an image address waits, its
 * bytes held (from it on nothing is written), until the caller says
 * what the boot's image is (kl_redact_resolve(), at the end of the
 * segment, or when too much is held: with what is known then).  Memory:
 * the held bytes and the waiting tokens, bounded by max_hold.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define HOLD_DEFAULT	(16u << 20)
#define PEND_TEXT	32		/* digits of a token that may wait */

/* A token waiting for its boot's image (deslide). */
struct pend {
	uint64_t		 off;		/* unit offset of the digits */
	uint64_t		 rec_off;	/* of its JSON value, or 0 */
	int			 json;		/* in a value not exact */
	uint64_t		 value;
	uint64_t		 line;
	uint64_t		 column;
	unsigned		 boot;
	enum kl_region		 region;
	size_t			 textlen;
	uint8_t			 text[PEND_TEXT];
};

struct kl_redact {
	struct kl_redact_opts	 o;
	int			(*write)(void *, const void *, size_t);
	void			*arg;
	uint8_t			*buf;		/* held bytes */
	size_t			 len;
	size_t			 cap;
	size_t			 head;		/* written up to here */
	uint64_t		 base;		/* unit offset of buf[0] */
	uint64_t		 changed;	/* tokens rewritten */
	uint64_t		 where;		/* unit offset of the last */
	struct pend		*pend;		/* tokens waiting (deslide) */
	size_t			 npend;
	size_t			 cpend;
	uint64_t		 pend_lo;	/* held from here while some
						   wait */
};

/*
 * Make a rewriter writing through write(arg, bytes, n), which returns 0,
 * or -1 with errno set (EIO is said when it is not).
 */
struct kl_redact *
kl_redact_new(const struct kl_redact_opts *o,
    int (*write)(void *, const void *, size_t), void *arg,
    struct kl_error *err)
{
	struct kl_redact *r;

	if (o->level < 2 || o->level > 4) {
		kl_error_set(err, KL_EINVAL, 0,
		    "restriction level %d: must be 2, 3 or 4", o->level);
		return (NULL);
	}
	if ((r = calloc(1, sizeof(*r))) == NULL) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	r->o = *o;
	if (r->o.max_hold == 0)
		r->o.max_hold = HOLD_DEFAULT;
	r->write = write;
	r->arg = arg;
	return (r);
}

/* Start a new unit at offset 0; held bytes must have been written. */
void
kl_redact_reset(struct kl_redact *r)
{
	r->len = r->head = 0;
	r->base = 0;
	r->changed = 0;
	r->where = 0;
	r->npend = 0;
}

/* Free a rewriter. */
void
kl_redact_free(struct kl_redact *r)
{
	if (r == NULL)
		return;
	free(r->buf);
	free(r->pend);
	free(r);
}

/*
 * Does the level ask for this finding to be rewritten?  The deslide
 * style always rewrites the slide (to 0): the output's addresses are at
 * slide 0, and the slide of the input is what it takes away.
 */
int
kl_redact_wants(const struct kl_redact_opts *o, const struct kl_finding *f)
{
	if (o->deslide && (f->flags & KL_F_SLIDE) &&
	    f->suppressed == KL_SUP_NONE)
		return (1);
	switch (f->suppressed) {
	case KL_SUP_NONE:
		if (f->region == KL_REGION_LAYOUT ||
		    f->region == KL_REGION_PHYSICAL)
			return (o->level >= 4);
		return (o->level >= 2);
	case KL_SUP_HASHED:
		return (o->level >= 3);
	default:
		return (0);
	}
}

/* Hold n more bytes of the unit. */
int
kl_redact_data(struct kl_redact *r, const void *p, size_t n,
    struct kl_error *err)
{
	size_t need, nc;
	uint8_t *nb;

	if (n == 0)
		return (0);
	if (r->head > 0 && r->head >= r->len / 2) {
		/* Drop what was written before growing. */
		memmove(r->buf, r->buf + r->head, r->len - r->head);
		r->len -= r->head;
		r->base += r->head;
		r->head = 0;
	}
	if (kl_add(r->len, n, &need) == -1)
		goto nomem;
	if (need > r->cap) {
		nc = r->cap == 0 ? 64 * 1024 : r->cap;
		while (nc < need)
			if (kl_mul(nc, 2, &nc) == -1)
				goto nomem;
		if ((nb = realloc(r->buf, nc)) == NULL)
			goto nomem;
		r->buf = nb;
		r->cap = nc;
	}
	memcpy(r->buf + r->len, p, n);
	r->len = need;
	return (0);
nomem:
	kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
	return (-1);
}

/*
 * How the token of value v, region and flags of finding f is written:
 * de-slid when the style says so and img places it in the kernel image
 * (or it is the slide itself), else in the style of the rest.
 */
static enum kl_redact_how
how_of(const struct kl_redact_opts *o, const struct kl_finding *f,
    uint64_t v, enum kl_region region, const struct kl_redact_image *img)
{
	enum kl_redact_how rest;

	rest = o->style == KL_REDACT_ZERO ? KL_REDACT_HOW_ZERO :
	    KL_REDACT_HOW_HASH;
	if (!o->deslide)
		return (rest);
	if (f != NULL && (f->flags & KL_F_SLIDE))
		return (KL_REDACT_HOW_DESLIDE);
	if ((f != NULL && f->suppressed != KL_SUP_NONE) ||
	    region == KL_REGION_PHYSICAL || region == KL_REGION_LAYOUT ||
	    img == NULL || !img->known || v < img->lo || img->slide > img->lo)
		return (rest);
	if (img->hi != 0 ? v < img->hi : region == KL_REGION_TEXT)
		return (KL_REDACT_HOW_DESLIDE);
	return (rest);
}

/* How the rewriter writes finding f, given the image of its boot. */
enum kl_redact_how
kl_redact_how(const struct kl_redact *r, const struct kl_finding *f,
    const struct kl_redact_image *img)
{
	return (how_of(&r->o, f, f->value, f->region, img));
}

/*
 * Write to d the n digits that replace the token text[0..n) of value v:
 * what %pK prints at kptr_restrict=2 for a pointer of the token's width
 * (zeros), what %p prints for it (a keyed hash), or link, the de-slid
 * value, in the same width.  Upper-case digits stay upper-case.
 */
static void
digits(const struct kl_redact *r, const uint8_t *text, size_t n, uint64_t v,
    enum kl_redact_how how, uint64_t link, uint8_t *d)
{
	static const char hex[] = "0123456789abcdef";
	struct kl_pk_ctx ctx;
	char out[17];
	size_t i;
	int upper = 0, len;

	if (how == KL_REDACT_HOW_DESLIDE) {
		/* Zero-padded: a smaller value keeps the width. */
		for (i = n; i > 0; i--, link >>= 4)
			d[i - 1] = (uint8_t)hex[link & 0xf];
	} else {
		if (n != 8 && n != 16) {
			/* no pointer width: zeros all the same */
			memset(d, '0', n);
			return;
		}
		if (how == KL_REDACT_HOW_ZERO) {
			memset(&ctx, 0, sizeof(ctx));
			ctx.kptr_restrict = 2;
			ctx.ptr_bits = n == 16 ? 64 : 32;
			len = kl_pk_format(0, NULL, &ctx, out, sizeof(out),
			    NULL);
		} else
			len = kl_pk_hash_digits(v, r->o.key, n == 16 ? 64 :
			    32, out);
		if (len != (int)n) {
			memset(d, '0', n);
			return;
		}
		memcpy(d, out, n);
	}
	for (i = 0; i < n; i++)
		if (text[i] >= 'A' && text[i] <= 'F')
			upper = 1;
	for (i = 0; upper && i < n; i++)
		if (d[i] >= 'a' && d[i] <= 'f')
			d[i] = (uint8_t)(d[i] - 'a' + 'A');
}

/*
 * Write the digits that replace the token f in the style of the rest:
 * zeros or the keyed hash (a token is de-slid only once its boot is
 * known: kl_redact_resolve()); the slide itself, de-slid, is 0.
 */
static void
replacement(const struct kl_redact *r, const struct kl_finding *f,
    uint8_t *d)
{
	digits(r, f->text, f->textlen, f->value, how_of(&r->o, f, f->value,
	    f->region, NULL), 0, d);
}

/*
 * Put the digits d[0..n) of a token in a JSON value decoded from escapes
 * or byte numbers (a record that is not exact): the value starts at unit
 * offset rec_off, the token at off, in its decoded bytes; the record
 * must be held from the byte before its value on.
 */
static int
patch_json(struct kl_redact *r, uint64_t rec_off, uint64_t off,
    uint64_t line, const uint8_t *d, size_t n, struct kl_error *err)
{
	uint64_t lo = r->base + r->head;
	size_t where;

	if (kl_journal_json_patch(r->buf + r->head, r->len - r->head,
	    (size_t)(rec_off - lo), (size_t)(off - rec_off), d, n, &where,
	    err) == -1) {
		if (err != NULL)
			err->line = line;
		return (-1);
	}
	r->where = lo + where;
	r->changed++;
	return (0);
}

/*
 * Are the bytes of finding f held (for a JSON value not exact: the
 * byte before its value on)?  0, or -1 and err.
 */
static int
held(const struct kl_redact *r, const struct kl_finding *f,
    struct kl_error *err)
{
	const struct kl_record *rec = f->record;
	uint64_t lo = r->base + r->head;

	if (rec != NULL && !rec->exact) {
		if (rec->offset <= lo || rec->offset - r->base >= r->len ||
		    f->offset < rec->offset || f->textlen > 64) {
			kl_error_set(err, KL_EINVAL, 0, "JSON value at byte "
			    "%llu is not held by the rewriter",
			    (unsigned long long)rec->offset);
			return (-1);
		}
		return (0);
	}
	if (f->offset < lo || f->offset - r->base > r->len ||
	    f->textlen > r->len - (size_t)(f->offset - r->base)) {
		kl_error_set(err, KL_EINVAL, 0, "token at byte %llu is not "
		    "held by the rewriter", (unsigned long long)f->offset);
		return (-1);
	}
	return (0);
}

/*
 * Keep finding f waiting for its boot's image (the deslide style):
 * 0, or -1 and err when out of memory.
 */
static int
wait_token(struct kl_redact *r, const struct kl_finding *f,
    struct kl_error *err)
{
	struct pend *p;
	size_t nc;
	uint64_t from;

	if (r->npend == r->cpend) {
		nc = r->cpend == 0 ? 256 : r->cpend;
		if (kl_mul(nc, 2, &nc) == -1 ||
		    nc > SIZE_MAX / sizeof(*r->pend) ||
		    (p = realloc(r->pend, nc * sizeof(*p))) == NULL) {
			kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
			return (-1);
		}
		r->pend = p;
		r->cpend = nc;
	}
	p = &r->pend[r->npend];
	memset(p, 0, sizeof(*p));
	p->off = f->offset;
	p->json = f->record != NULL && !f->record->exact;
	p->rec_off = p->json ? f->record->offset : 0;
	p->value = f->value;
	p->line = f->line;
	p->column = f->column;
	p->boot = f->boot;
	p->region = f->region;
	p->textlen = f->textlen;
	memcpy(p->text, f->text, f->textlen);
	from = p->json ? p->rec_off - 1 : p->off;
	if (r->npend == 0 || from < r->pend_lo)
		r->pend_lo = from;
	r->npend++;
	return (0);
}

/*
 * Rewrite the digits of finding f if the level asks for it.  Returns 1
 * when rewritten, 2 when it waits for its boot's image (deslide:
 * kl_redact_resolve()), 0 when left alone, -1 when its bytes are not
 * held (a caller that settled too far: a bug) or, in a JSON value, made
 * by an escape.
 */
int
kl_redact_finding(struct kl_redact *r, const struct kl_finding *f,
    struct kl_error *err)
{
	uint8_t d[64];

	if (!kl_redact_wants(&r->o, f))
		return (0);
	if (held(r, f, err) == -1)
		return (-1);
	if (r->o.deslide && !(f->flags & KL_F_SLIDE) &&
	    f->suppressed == KL_SUP_NONE && f->region != KL_REGION_PHYSICAL &&
	    f->region != KL_REGION_LAYOUT && f->textlen <= PEND_TEXT)
		return (wait_token(r, f, err) == -1 ? -1 : 2);
	if (f->record != NULL && !f->record->exact) {
		replacement(r, f, d);
		return (patch_json(r, f->record->offset, f->offset, f->line, d,
		    f->textlen, err) == -1 ? -1 : 1);
	}
	replacement(r, f, r->buf + (size_t)(f->offset - r->base));
	r->where = f->offset;
	r->changed++;
	return (1);
}

/* Tokens waiting for their boot's image. */
size_t
kl_redact_waiting(const struct kl_redact *r)
{
	return (r->npend);
}

/*
 * The boot of the waiting tokens is decided, its image is img (NULL:
 * not known): write each as img says (de-slid, or in the style of the
 * rest), in order, telling done(arg, token) of each when done is not
 * NULL.  Returns 0, or -1 and err (the first error) when a JSON value
 * cannot take its digits; every token is written all the same.
 */
int
kl_redact_resolve(struct kl_redact *r, const struct kl_redact_image *img,
    void (*done)(void *, const struct kl_redact_token *), void *arg,
    struct kl_error *err)
{
	struct kl_redact_token t;
	struct kl_error e;
	struct pend *p;
	uint8_t d[PEND_TEXT];
	size_t i;
	int rc = 0;

	for (i = 0; i < r->npend; i++) {
		p = &r->pend[i];
		memset(&t, 0, sizeof(t));
		t.how = how_of(&r->o, NULL, p->value, p->region, img);
		t.link = t.how == KL_REDACT_HOW_DESLIDE ? p->value -
		    img->slide : 0;
		digits(r, p->text, p->textlen, p->value, t.how, t.link, d);
		t.offset = p->off;
		if (p->json) {
			kl_error_clear(&e);
			if (patch_json(r, p->rec_off, p->off, p->line, d,
			    p->textlen, &e) == -1) {
				if (rc == 0 && err != NULL)
					*err = e;
				rc = -1;
				continue;
			}
			t.offset = r->where;
		} else {
			memcpy(r->buf + (size_t)(p->off - r->base), d,
			    p->textlen);
			r->where = p->off;
			r->changed++;
		}
		if (done == NULL)
			continue;
		t.line = p->line;
		t.column = p->column;
		t.boot = p->boot;
		t.value = p->value;
		t.text = p->text;
		t.textlen = p->textlen;
		t.region = p->region;
		done(arg, &t);
	}
	r->npend = 0;
	return (rc);
}

/* Write out the held bytes below unit offset upto. */
int
kl_redact_settle(struct kl_redact *r, uint64_t upto, struct kl_error *err)
{
	size_t end;

	/* Nothing from a waiting token on. */
	if (r->npend > 0 && upto > r->pend_lo)
		upto = r->pend_lo;
	if (upto <= r->base + r->head)
		return (0);
	end = upto - r->base > r->len ? r->len : (size_t)(upto - r->base);
	errno = 0;
	if (end > r->head && r->write(r->arg, r->buf + r->head,
	    end - r->head) != 0) {
		kl_error_set(err, KL_EIO, errno != 0 ? errno : EIO,
		    "cannot write the output");
		return (-1);
	}
	r->head = end;
	return (0);
}

/* Bytes held and not written yet. */
size_t
kl_redact_held(const struct kl_redact *r)
{
	return (r->len - r->head);
}

/* Is more held (bytes, and tokens waiting) than the configured bound? */
int
kl_redact_full(const struct kl_redact *r)
{
	return (r->len - r->head > r->o.max_hold ||
	    r->npend > r->o.max_hold / sizeof(struct pend));
}

/*
 * The unit is complete: write out everything held.  A token still
 * waiting (the caller did not resolve its boot) goes in the style of the
 * rest: never as it was.
 */
int
kl_redact_end(struct kl_redact *r, struct kl_error *err)
{
	struct kl_error e;

	kl_error_clear(&e);
	if (r->npend > 0 && kl_redact_resolve(r, NULL, NULL, NULL, &e) == -1) {
		if (err != NULL)
			*err = e;
		return (-1);
	}
	return (kl_redact_settle(r, r->base + r->len, err));
}

/* Tokens rewritten in the current unit. */
uint64_t
kl_redact_changed(const struct kl_redact *r)
{
	return (r->changed);
}

/* Unit offset of the first byte the last rewritten token changed. */
uint64_t
kl_redact_where(const struct kl_redact *r)
{
	return (r->where);
}

/*
 * The replacement digits of a finding the rewriter wants, in d
 * (f->textlen bytes): 1, or 0 when the rewriter leaves it alone.  For
 * a caller that writes them back in an encoding of its own (mail).
 */
int
kl_redact_digits(const struct kl_redact *r, const struct kl_finding *f,
    uint8_t *d)
{
	if (!kl_redact_wants(&r->o, f))
		return (0);
	replacement(r, f, d);
	return (1);
}

/*
 * As kl_redact_digits(), the token decided at once with the image of its
 * boot as known now (img, or NULL), *how telling how: for a caller that
 * cannot keep the token waiting (a mail, written in its own encoding).
 */
int
kl_redact_digits_as(const struct kl_redact *r, const struct kl_finding *f,
    const struct kl_redact_image *img, uint8_t *d, enum kl_redact_how *how)
{
	if (!kl_redact_wants(&r->o, f))
		return (0);
	*how = how_of(&r->o, f, f->value, f->region, img);
	digits(r, f->text, f->textlen, f->value, *how,
	    *how == KL_REDACT_HOW_DESLIDE && !(f->flags & KL_F_SLIDE) ?
	    f->value - img->slide : 0, d);
	return (1);
}

/*
 * The held bytes not yet written, when they hold [off, off + n): their
 * start, with *base its unit offset and *len their count; else NULL.
 */
uint8_t *
kl_redact_hold(struct kl_redact *r, uint64_t off, size_t n, uint64_t *base,
    size_t *len)
{
	uint64_t lo = r->base + r->head;

	if (off < lo || off - lo > r->len - r->head ||
	    n > r->len - r->head - (size_t)(off - lo))
		return (NULL);
	*base = lo;
	*len = r->len - r->head;
	return (r->buf + r->head);
}

/* Count a token rewritten through kl_redact_hold(), stored at where. */
void
kl_redact_count(struct kl_redact *r, uint64_t where)
{
	r->where = where;
	r->changed++;
}
