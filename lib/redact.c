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
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define HOLD_DEFAULT	(16u << 20)

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
}

/* Free a rewriter. */
void
kl_redact_free(struct kl_redact *r)
{
	if (r == NULL)
		return;
	free(r->buf);
	free(r);
}

/* Does the level ask for this finding to be rewritten? */
int
kl_redact_wants(const struct kl_redact_opts *o, const struct kl_finding *f)
{
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
 * Write the digits that replace the token f in the chosen style: what
 * %pK prints at kptr_restrict=2 for a pointer of the token's width, or
 * what %p prints for it (a keyed hash).
 */
static void
replacement(const struct kl_redact *r, const struct kl_finding *f,
    uint8_t *d)
{
	struct kl_pk_ctx ctx;
	char out[17];
	size_t i, n = f->textlen;
	int upper = 0, len;

	if (n != 8 && n != 16) {
		/* no pointer width: zeros all the same */
		memset(d, '0', n);
		return;
	}
	if (r->o.style == KL_REDACT_ZERO) {
		memset(&ctx, 0, sizeof(ctx));
		ctx.kptr_restrict = 2;
		ctx.ptr_bits = n == 16 ? 64 : 32;
		len = kl_pk_format(0, NULL, &ctx, out, sizeof(out), NULL);
	} else
		len = kl_pk_hash_digits(f->value, r->o.key,
		    n == 16 ? 64 : 32, out);
	if (len != (int)n) {
		memset(d, '0', n);
		return;
	}
	for (i = 0; i < n; i++)
		if (f->text[i] >= 'A' && f->text[i] <= 'F')
			upper = 1;
	for (i = 0; i < n; i++) {
		d[i] = (uint8_t)out[i];
		if (upper && d[i] >= 'a' && d[i] <= 'f')
			d[i] = (uint8_t)(d[i] - 'a' + 'A');
	}
}

/*
 * Rewrite the digits of a finding in a JSON value decoded from escapes
 * or byte numbers (a record that is not exact): its offset is the
 * record's plus the token's place in the decoded value, and the record
 * must be held from the byte before its value on.
 */
static int
redact_json(struct kl_redact *r, const struct kl_finding *f,
    struct kl_error *err)
{
	const struct kl_record *rec = f->record;
	uint8_t d[64];
	uint64_t lo;
	size_t at, where;

	lo = r->base + r->head;
	if (rec->offset <= lo || rec->offset - r->base >= r->len ||
	    f->offset < rec->offset || f->textlen > sizeof(d)) {
		kl_error_set(err, KL_EINVAL, 0, "JSON value at byte %llu is "
		    "not held by the rewriter",
		    (unsigned long long)rec->offset);
		return (-1);
	}
	replacement(r, f, d);
	at = (size_t)(rec->offset - lo);
	if (kl_journal_json_patch(r->buf + r->head, r->len - r->head, at,
	    (size_t)(f->offset - rec->offset), d, f->textlen, &where,
	    err) == -1) {
		if (err != NULL)
			err->line = f->line;
		return (-1);
	}
	r->where = lo + where;
	r->changed++;
	return (1);
}

/*
 * Rewrite the digits of finding f if the level asks for it.  Returns 1
 * when rewritten, 0 when left alone, -1 when its bytes are not held (a
 * caller that settled too far: a bug) or, in a JSON value, made by an
 * escape.
 */
int
kl_redact_finding(struct kl_redact *r, const struct kl_finding *f,
    struct kl_error *err)
{
	uint64_t lo;

	if (!kl_redact_wants(&r->o, f))
		return (0);
	if (f->record != NULL && !f->record->exact)
		return (redact_json(r, f, err));
	lo = r->base + r->head;
	if (f->offset < lo || f->offset - r->base > r->len ||
	    f->textlen > r->len - (size_t)(f->offset - r->base)) {
		kl_error_set(err, KL_EINVAL, 0, "token at byte %llu is not "
		    "held by the rewriter", (unsigned long long)f->offset);
		return (-1);
	}
	replacement(r, f, r->buf + (size_t)(f->offset - r->base));
	r->where = f->offset;
	r->changed++;
	return (1);
}

/* Write out the held bytes below unit offset upto. */
int
kl_redact_settle(struct kl_redact *r, uint64_t upto, struct kl_error *err)
{
	size_t end;

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

/* Is more held than the configured bound? */
int
kl_redact_full(const struct kl_redact *r)
{
	return (r->len - r->head > r->o.max_hold);
}

/* The unit is complete: write out everything held. */
int
kl_redact_end(struct kl_redact *r, struct kl_error *err)
{
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
