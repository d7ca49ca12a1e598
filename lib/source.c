/*
 * source.c - the next bytes of a stream, from the input's descriptor or
 * from the reader of the level above (libarchive, or ISA-L through the
 * level's znext), with the input's limits counted and its first error
 * kept as the pending cause; the gzip CRC and trailer checks of the
 * libarchive gzip path.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>

#include "kleak.h"
#include "kleak-int.h"
#include "input-int.h"

/* Fill in the CRC-32 (IEEE 802.3, reflected) slicing-by-8 tables. */
void
kl_src_crc_init(uint32_t t[8][256])
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		t[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			t[k][i] = t[0][t[k - 1][i] & 0xff] ^ (t[k - 1][i] >> 8);
}

/* Continue the CRC-32 crc over p[0..n). */
static uint32_t
crc_update(const uint32_t t[8][256], uint32_t crc, const uint8_t *p, size_t n)
{
	uint32_t a, b;

	crc = ~crc;
	while (n >= 8) {
		a = crc ^ kl_le32(p);
		b = kl_le32(p + 4);
		crc = t[7][a & 0xff] ^ t[6][(a >> 8) & 0xff] ^
		    t[5][(a >> 16) & 0xff] ^ t[4][a >> 24] ^ t[3][b & 0xff] ^
		    t[2][(b >> 8) & 0xff] ^ t[1][(b >> 16) & 0xff] ^
		    t[0][b >> 24];
		p += 8;
		n -= 8;
	}
	while (n-- > 0)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return (~crc);
}

/* Record the first error of the input; later ones only follow from it. */
void
kl_src_cause_set(
    struct ictx *c, enum kl_errcode code, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (c->cause.code != KL_EOK)
		return;
	c->cause.code = code;
	c->cause.errnum = errnum;
	c->cause.line = 0;
	va_start(ap, fmt);
	vsnprintf(c->cause.msg, sizeof(c->cause.msg), fmt, ap);
	va_end(ap);
}

/* Record a KL_EFORMAT cause that is about the whole unit, not a byte. */
void
kl_src_cause_whole(struct ictx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->cause.code != KL_EOK)
		return;
	c->cause.code = KL_EFORMAT;
	c->cause.errnum = 0;
	c->cause.line = 0;
	c->whole = 1;
	va_start(ap, fmt);
	vsnprintf(c->cause.msg, sizeof(c->cause.msg), fmt, ap);
	va_end(ap);
}

/*
 * Tidy a libarchive message in place: single spaces, no final dots, a
 * capital starting a word in lower case at the start and after ": "
 * ("Lzma library error:  No progress is possible.").
 */
static void
tidy(char *s)
{
	size_t i, j;

	for (i = j = 0; s[i] != '\0'; i++) {
		if (s[i] == ' ' && j > 0 && s[j - 1] == ' ')
			continue;
		s[j++] = s[i];
	}
	s[j] = '\0';
	while (j > 0 && (s[j - 1] == '.' || s[j - 1] == ' '))
		s[--j] = '\0';
	for (i = 0; i < j; i++)
		if ((i == 0 ||
			(i >= 2 && s[i - 2] == ':' && s[i - 1] == ' ')) &&
		    s[i] >= 'A' && s[i] <= 'Z' && s[i + 1] >= 'a' &&
		    s[i + 1] <= 'z')
			s[i] = (char)(s[i] - 'A' + 'a');
}

/* Forget the pending cause: reported, or a consequence of one. */
void
kl_src_cause_clear(struct ictx *c)
{
	kl_error_clear(&c->cause);
	c->whole = 0;
}

/* Record libarchive's error on l as the cause. */
void
kl_src_cause_ar(struct ictx *c, struct lvl *l)
{
	char buf[200];
	const char *s;
	int e;

	if (c->cause.code != KL_EOK)
		return;
	s = l->a != NULL ? archive_error_string(l->a) : NULL;
	e = l->a != NULL ? archive_errno(l->a) : 0;
	if (s == NULL)
		s = "truncated or unreadable data";
	kl_esc_text(buf, sizeof(buf), (const uint8_t *)s, strnlen(s, 4096));
	tidy(buf);
	/* "gzip decompression failed" names its layer already. */
	if (strncmp(buf, l->name, strlen(l->name)) == 0 &&
	    buf[strlen(l->name)] == ' ') {
		kl_src_cause_set(
		    c, e == ENOMEM ? KL_ENOMEM : KL_EFORMAT, 0, "%s", buf);
		return;
	}
	kl_src_cause_set(
	    c, e == ENOMEM ? KL_ENOMEM : KL_EFORMAT, 0, "%s: %s", l->name, buf);
}

/* The name to show for the innermost member, or the input. */
const char *
kl_src_inner_name(const struct ictx *c)
{
	return (c->nchain > 0 ? c->chain[c->nchain - 1] : c->path);
}

/* Turn the pending cause into the error of a unit, off bytes into it. */
void
kl_src_take_cause(struct ictx *c, uint64_t off, struct kl_error *e)
{
	char nm[96];
	const char *name;

	*e = c->cause;
	if (c->cause.code == KL_EFORMAT) {
		name = kl_src_inner_name(c);
		kl_esc_text(
		    nm, sizeof(nm), (const uint8_t *)name, strnlen(name, 4096));
		/* A long name or cause is cut: the message stays a string. */
		if (c->whole) {
			if (snprintf(e->msg, sizeof(e->msg), "%s: %s", nm,
				c->cause.msg) < 0)
				e->msg[0] = '\0';
		} else if (snprintf(e->msg, sizeof(e->msg),
			       "%s: broken at byte %" PRIu64 ": %s", nm, off,
			       c->cause.msg) < 0)
			e->msg[0] = '\0';
	}
	kl_src_cause_clear(c);
}

/* The most the input may still expand before max_total or max_ratio. */
uint64_t
kl_src_room(const struct ictx *c, int *ratio)
{
	uint64_t denom, rb, tb;

	denom = c->disk > c->raw ? c->disk : c->raw;
	if (denom > UINT64_MAX / c->max_ratio)
		rb = UINT64_MAX;
	else
		rb = denom * c->max_ratio;
	if (rb < RATIO_FLOOR)
		rb = RATIO_FLOOR;
	tb = c->max_total;
	*ratio = rb < tb;
	tb = rb < tb ? rb : tb;
	return (tb > c->expanded ? tb - c->expanded : 0);
}

/* Stop the whole input: max_total or max_ratio is reached. */
void
kl_src_trip(struct ictx *c, int ratio)
{
	uint64_t denom;

	denom = c->disk > c->raw ? c->disk : c->raw;
	if (ratio)
		kl_src_cause_set(c, KL_ELIMIT, 0,
		    "ratio limit reached: %" PRIu64
		    " bytes expanded from %" PRIu64 " (max_ratio %" PRIu64
		    " to 1)",
		    c->expanded, denom, c->max_ratio);
	else
		kl_src_cause_set(c, KL_ELIMIT, 0,
		    "total size limit reached: %" PRIu64
		    " bytes expanded (max_total %" PRIu64 ")",
		    c->expanded, c->max_total);
	c->stop = ST_LIMIT;
}

/* Count d more bytes expanded outside units; -1 when a limit is hit. */
int
kl_src_grow(struct ictx *c, uint64_t d)
{
	uint64_t left;
	int ratio;

	left = kl_src_room(c, &ratio);
	if (d > left) {
		c->expanded += left;
		kl_src_trip(c, ratio);
		return (-1);
	}
	c->expanded += d;
	return (0);
}

/*
 * Bring an archive reader's overhead up to date: what its format took
 * from the source (not what was read ahead) beyond what it handed out.
 */
int
kl_src_over_update(struct ictx *c, struct lvl *l)
{
	int64_t used;
	uint64_t o;

	used = l->a != NULL ? archive_filter_bytes(l->a, 0) : 0;
	o = used > 0 && (uint64_t)used > l->out ? (uint64_t)used - l->out : 0;
	if (o < l->over) {
		c->expanded -= l->over - o;
		l->over = o;
		return (0);
	}
	o -= l->over;
	l->over += o;
	return (kl_src_grow(c, o));
}

/*
 * read(2) from the input, retrying on EINTR.  On a non-blocking
 * descriptor (/dev/kmsg opened O_NONBLOCK) "nothing now" is the end.
 */
static ssize_t
fd_read(struct ictx *c, void *buf, size_t n)
{
	ssize_t r;

	if (c->fdfail)
		return (-1);
	if (c->fdeof)
		return (0);
	/* A pipe may be slow: what is decoded goes to the caller first. */
	if (c->pl != NULL && !c->seekable)
		kl_pipe_flush(c);
	do
		r = read(c->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		r = 0;
	if (r < 0) {
		kl_src_cause_set(c, KL_EIO, errno,
		    "read error at byte %" PRIu64 ": %s", c->raw,
		    strerror(errno));
		c->fdfail = 1;
		c->stop = ST_IO;
		return (-1);
	}
	if (r == 0)
		c->fdeof = 1;
	c->raw += (uint64_t)r;
	return (r);
}

/* Is b[0..n) all zero bytes? */
int
kl_src_all_zero(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return (0);
	return (1);
}

/*
 * What follows the end of the gzip stream l: nothing (0), zeros only,
 * padding (2), or other data (1); -1 on a read error.  The bytes
 * libarchive was given and left, then the rest of the source, up to
 * the first byte that is not zero.
 */
static int
gz_trailing(struct ictx *c, struct lvl *l)
{
	const uint8_t *p;
	int64_t used;
	uint64_t left;
	ssize_t r;
	int t;

	t = 0;
	used = archive_filter_bytes(l->a, -1);
	left =
	    used >= 0 && l->pos > (uint64_t)used ? l->pos - (uint64_t)used : 0;
	if (left > 0) {
		if (left > l->lastn)
			left = l->lastn;
		if (!kl_src_all_zero(l->lastp + l->lastn - left, (size_t)left))
			return (1);
		t = 2;
	}
	while (!l->srceof) {
		r = kl_src_next(c, l->up, &p, l->rbuf, RBUF, SIZE_MAX);
		if (r < 0)
			return (-1);
		if (r == 0)
			break;
		if (!kl_src_all_zero(p, (size_t)r))
			return (1);
		t = 2;
	}
	return (t);
}

/*
 * At the end of a gzip stream's output: libarchive checks neither CRC
 * nor length, so do it here.  Data after the stream, zeros aside, is
 * damage (a stream cut short inside an archive member, or garbage).  At
 * a clean end the last eight bytes are the last member's trailer: its
 * CRC must match the output when its length does; a length that does
 * not match is damage unless the stream may hold more members (another
 * gzip header was seen: the trailer covers only the last member).
 */
static int
gz_end(struct ictx *c, struct lvl *l)
{
	uint32_t want, len;
	int t;

	if ((t = gz_trailing(c, l)) < 0) {
		l->hurt = 1;
		return (-1);
	}
	if (t == 1) {
		kl_src_cause_set(c, KL_EFORMAT, 0,
		    "gzip: data after the end of the compressed stream");
		l->hurt = 1;
		return (-1);
	}
	/* After padding, where the trailer was is not known. */
	if (t == 2 || l->ntail < 8)
		return (0);
	want = kl_le32(l->tail);
	len = kl_le32(l->tail + 4);
	if (len == (uint32_t)l->out && want != l->crc)
		kl_src_cause_set(c, KL_EFORMAT, 0,
		    "gzip: crc mismatch (stored %08" PRIx32
		    ", computed %08" PRIx32 ")",
		    want, l->crc);
	else if (len != (uint32_t)l->out && l->gzsig == 0)
		kl_src_cause_set(c, KL_EFORMAT, 0,
		    "gzip: length mismatch (stored %" PRIu32 ", got %" PRIu32
		    ")",
		    len, (uint32_t)l->out);
	else
		return (0);
	l->hurt = 1;
	return (-1);
}

/*
 * The next bytes of a stream, at most max: of the input when up is NULL
 * (read into scratch), else of the entry up is on (libarchive's own
 * block, or zeros in scratch for a sparse hole), so that every byte
 * before a break is handed out.  *pp points at them; 0 at the end, -1
 * on error (the cause is set).
 */
ssize_t
kl_src_next(struct ictx *c, struct lvl *up, const uint8_t **pp,
    uint8_t *scratch, size_t ssz, size_t max)
{
	const void *b;
	la_int64_t off;
	size_t len, n;
	int r;

	*pp = scratch;
	if (max > SSIZE_MAX)
		max = SSIZE_MAX;
	if (c->pl != NULL && kl_pipe_stopped(c)) {
		c->stop = ST_CB;
		return (-1);
	}
	if (up == NULL)
		return (fd_read(c, scratch, ssz < max ? ssz : max));
	/* gzip inflated by ISA-L, xz decoded by liblzma: no reader. */
	if (up->znext != NULL)
		return (up->znext(c, up, pp, max));
	if (up->eof)
		return (0);
	while (up->blklen == 0 && up->hole == 0) {
		/* The rest of a block that came with a warning is out. */
		if (up->warned)
			return (-1);
		r = archive_read_data_block(up->a, &b, &len, &off);
		if (r == ARCHIVE_EOF) {
			up->eof = 1;
			return (up->gz ? gz_end(c, up) : 0);
		}
		if ((r != ARCHIVE_OK && r != ARCHIVE_WARN) || off < 0 ||
		    (uint64_t)off < up->opos) {
			up->hurt = 1;
			kl_src_cause_ar(c, up);
			return (-1);
		}
		if (r == ARCHIVE_WARN) {
			/* The data is good, what follows is not (zip CRC). */
			up->warned = 1;
			up->hurt = 1;
			kl_src_cause_ar(c, up);
		}
		up->blk = b;
		up->blklen = len;
		up->hole = (uint64_t)off - up->opos;
	}
	if (up->hole > 0) {
		n = ssz < max ? ssz : max;
		if (n > up->hole)
			n = (size_t)up->hole;
		memset(scratch, 0, n);
		up->hole -= n;
	} else {
		n = up->blklen < max ? up->blklen : max;
		*pp = up->blk;
		up->blk += n;
		up->blklen -= n;
	}
	up->opos += n;
	up->out += n;
	if (up->gz)
		up->crc = crc_update(c->crctab, up->crc, *pp, n);
	if (!up->filter)
		(void)kl_src_over_update(c, up);
	return ((ssize_t)n);
}

/* Keep the last eight bytes a gzip reader was given. */
void
kl_src_tail_keep(struct lvl *l, const uint8_t *p, size_t n)
{
	size_t keep;

	if (n >= 8) {
		memcpy(l->tail, p + n - 8, 8);
		l->ntail = 8;
		return;
	}
	keep = l->ntail + n > 8 ? 8 - n : l->ntail;
	memmove(l->tail, l->tail + l->ntail - keep, keep);
	memcpy(l->tail + keep, p, n);
	l->ntail = keep + n;
}

/*
 * The next input of a decoder level l (gzip-isal.c, xz-mt.c): the rest of
 * its sniffed prefix, then what its source gives; srceof at the end.
 */
int
kl_src_input(struct ictx *c, struct lvl *l)
{
	const uint8_t *p;
	ssize_t r;

	if (l->pos < l->prelen) {
		l->in = l->pre + l->pos;
		l->inlen = l->prelen - (size_t)l->pos;
	} else {
		r = kl_src_next(c, l->up, &p, l->rbuf, RBUF, SIZE_MAX);
		if (r < 0)
			return (-1);
		if (r == 0)
			l->srceof = 1;
		l->in = p;
		l->inlen = (size_t)r;
	}
	l->pos += l->inlen;
	return (0);
}
