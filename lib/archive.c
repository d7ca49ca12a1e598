/*
 * archive.c - one stream into units: its prefix decides whether it is a
 * unit, a compressed stream or an archive; a libarchive reader per
 * level (its read and seek callbacks), the names of what compressed
 * streams hold, every regular member of an archive, and the delivery
 * of a unit's bytes within the limits.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "kleak.h"
#include "kleak-int.h"
#include "input-int.h"

static enum sres stream(
    struct ictx *, struct lvl *, size_t, unsigned, const char *, const char *);

/* Count gzip headers (1f 8b 08) in the n bytes at p, after byte 0. */
static void
gz_sigs(struct lvl *l, const uint8_t *p, size_t n)
{
	const uint8_t *q, *end;

	if (n == 0)
		return;
	if (l->pos >= 2 && l->hist[0] == 0x1f && l->hist[1] == 0x8b &&
	    p[0] == 0x08)
		l->gzsig++;
	if (l->pos >= 1 && l->hist[1] == 0x1f && n >= 2 && p[0] == 0x8b &&
	    p[1] == 0x08)
		l->gzsig++;
	end = p + n;
	for (q = p; q + 2 < end; q++) {
		q = memchr(q, 0x1f, (size_t)(end - q - 2));
		if (q == NULL)
			break;
		if (q[1] == 0x8b && q[2] == 0x08 && (l->pos > 0 || q > p))
			l->gzsig++;
	}
	if (n >= 2) {
		l->hist[0] = p[n - 2];
		l->hist[1] = p[n - 1];
	} else {
		l->hist[0] = l->hist[1];
		l->hist[1] = p[0];
	}
}

/*
 * Refuse to feed a reader that holds more than AHEAD_MAX bytes it has
 * not consumed: libarchive sizes some read-aheads from headers (a cpio
 * name length of 4 GiB), and those bytes would count nowhere.
 */
static int
ahead(struct ictx *c, struct lvl *l)
{
	int64_t used;

	used = archive_filter_bytes(l->a, -1);
	if (used < 0 || l->pos <= (uint64_t)used ||
	    l->pos - (uint64_t)used <= AHEAD_MAX)
		return (0);
	kl_src_cause_set(c, KL_EFORMAT, 0,
	    "%s: a header needs more than %" PRIu64 " bytes", l->name,
	    AHEAD_MAX);
	return (-1);
}

/* libarchive read callback: the prefix again, then the source. */
static la_ssize_t
lvl_read(struct archive *a, void *arg, const void **bufp)
{
	struct lvl *l = arg;
	struct ictx *c = l->c;
	const uint8_t *p;
	ssize_t r;

	(void)a;
	*bufp = NULL;
	if (c->stop != ST_NONE)
		return (ARCHIVE_FATAL);
	if (l->pos < l->prelen) {
		*bufp = l->pre + l->pos;
		r = (ssize_t)(l->prelen - l->pos);
	} else {
		if (l->seek && l->fdpos != l->pos) {
			if (lseek(c->fd, c->base + (off_t)l->pos, SEEK_SET) ==
			    -1) {
				kl_src_cause_set(c, KL_EIO, errno,
				    "seek error: %s",
				    strerror(errno));
				c->stop = ST_IO;
				return (ARCHIVE_FATAL);
			}
			l->fdpos = l->pos;
			c->fdeof = 0;
		}
		r = kl_src_next(c, l->up, &p, l->rbuf, RBUF, SIZE_MAX);
		if (r < 0)
			return (ARCHIVE_FATAL);
		if (r == 0)
			l->srceof = 1;
		*bufp = p;
		l->fdpos += (uint64_t)r;
	}
	if (l->gz && r > 0) {
		kl_src_tail_keep(l, *bufp, (size_t)r);
		gz_sigs(l, *bufp, (size_t)r);
	}
	if (r > 0) {
		l->lastp = *bufp;
		l->lastn = (size_t)r;
	}
	l->pos += (uint64_t)r;
	if (!l->seek && ahead(c, l) < 0)
		return (ARCHIVE_FATAL);
	if (!l->filter && kl_src_over_update(c, l) < 0)
		return (ARCHIVE_FATAL);
	return (r);
}

/* libarchive seek callback (7z on a regular file). */
static la_int64_t
lvl_seek(struct archive *a, void *arg, la_int64_t off, int whence)
{
	struct lvl *l = arg;
	struct ictx *c = l->c;
	int64_t np, size;

	(void)a;
	size = (int64_t)c->disk;
	switch (whence) {
	case SEEK_SET:
		np = off;
		break;
	case SEEK_CUR:
		np = (int64_t)l->pos + off;
		break;
	case SEEK_END:
		np = size + off;
		break;
	default:
		return (ARCHIVE_FATAL);
	}
	if (np < 0 || np > size)
		return (ARCHIVE_FATAL);
	l->pos = (uint64_t)np;
	return (np);
}

/* Call end() for u; a non-zero return stops the input. */
static void
unit_end(struct ictx *c, const struct kl_unit *u, const struct kl_error *e)
{
	if (c->ops->end(c->ops->arg, u, e) != 0)
		c->stop = ST_CB;
}

/* Set up u for the current member chain. */
static void
unit_init(struct ictx *c, struct kl_unit *u, enum kl_unit_kind kind,
    const char *filter)
{
	memset(u, 0, sizeof(*u));
	u->path = c->path;
	u->members = c->chain;
	u->nmembers = c->nchain;
	u->kind = kind;
	u->filter = filter;
}

/* Push name (if any) on the member chain; returns what to pop. */
static size_t
push(struct ictx *c, const char *name)
{
	if (name == NULL || c->nchain >= LVL_MAX + 1)
		return (0);
	c->chain[c->nchain++] = name;
	return (1);
}

/* A unit with no data that carries the pending cause, off bytes in. */
void
kl_arc_err_unit(struct ictx *c, const char *pending, const char *filter,
    uint64_t off)
{
	struct kl_unit u;
	struct kl_error e;
	size_t pushed;

	if (c->stop == ST_CB || c->cause.code == KL_EOK)
		return;
	pushed = push(c, pending);
	unit_init(c, &u, KL_UNIT_TEXT, filter);
	if (c->ops->begin(c->ops->arg, &u) != 0)
		c->stop = ST_CB;
	else {
		kl_src_take_cause(c, off, &e);
		unit_end(c, &u, &e);
	}
	c->nchain -= pushed;
}

/*
 * Hand p[0..n) to the data callback, as far as the limits let it; *done
 * counts the unit's bytes.  -1 when the unit is over (a limit, a stop).
 */
static int
deliver(struct ictx *c, const struct kl_unit *u, const uint8_t *p, size_t n,
    uint64_t *done)
{
	uint64_t take, left, mleft;
	int ratio, member;

	left = kl_src_room(c, &ratio);
	mleft = UINT64_MAX;
	if (u->nmembers > 0 && c->max_member != UINT64_MAX)
		mleft = c->max_member > *done ? c->max_member - *done : 0;
	member = mleft < left;
	take = member ? mleft : left;
	if (take > n)
		take = n;
	if (take > 0) {
		c->expanded += take;
		*done += take;
		if (c->ops->data(c->ops->arg, u, p, (size_t)take) != 0) {
			c->stop = ST_CB;
			return (-1);
		}
	}
	if (take == n)
		return (0);
	if (member)
		kl_src_cause_set(c, KL_ELIMIT, 0,
		    "member size limit reached: more than %" PRIu64
		    " bytes (max_member)",
		    c->max_member);
	else
		kl_src_trip(c, ratio);
	return (-1);
}

/* Is the stream read from l only decompressed, in no archive?  */
static int
no_archive(const struct lvl *l)
{
	for (; l != NULL; l = l->up)
		if (!l->filter)
			return (0);
	return (1);
}

/*
 * Deliver the stream at slot k as one unit: its prefix of n bytes, then
 * the rest from up (or the fd).
 */
static void
leaf(struct ictx *c, struct lvl *up, size_t k, size_t n, const char *pending,
    const char *filter)
{
	struct kl_unit u;
	struct kl_error e;
	const uint8_t *p;
	uint64_t done;
	size_t pushed;
	ssize_t r;

	pushed = push(c, pending);
	p = c->pre[k];
	unit_init(c, &u, kl_input_sniff(p, n), filter);
	if (u.kind == KL_UNIT_BINARY && (c->ops->flags & KL_INPUT_TOP_DATA) &&
	    no_archive(up))
		u.kind = KL_UNIT_TEXT;
	if (c->ops->begin(c->ops->arg, &u) != 0) {
		c->stop = ST_CB;
		c->nchain -= pushed;
		return;
	}
	done = 0;
	while (u.kind != KL_UNIT_BINARY ||
	    (c->ops->flags & KL_INPUT_ALL_DATA) != 0) {
		if (n > 0 && deliver(c, &u, p, n, &done) < 0)
			break;
		/* A broken source keeps failing: no cause check here. */
		if (c->stop != ST_NONE)
			break;
		r = kl_src_next(c, up, &p, c->chunk, CHUNK, SIZE_MAX);
		if (r <= 0)
			break;
		n = (size_t)r;
	}
	if (c->stop == ST_CB) {
		kl_src_cause_clear(c);
		(void)c->ops->end(c->ops->arg, &u, NULL);
	} else if (c->cause.code != KL_EOK) {
		kl_src_take_cause(c, done, &e);
		unit_end(c, &u, &e);
	} else
		unit_end(c, &u, NULL);
	c->nchain -= pushed;
}

/*
 * Read the prefix of the stream at slot k into c->pre[k]: PEEK_MAX
 * bytes, or fewer at the end, or PEEK_TEXT without a NUL (text: no
 * archive needs more to be told apart, and pipes go on at once).  A
 * read error leaves the cause set; what was read counts.
 */
int
kl_arc_fill(struct ictx *c, struct lvl *up, size_t k, size_t *np)
{
	const uint8_t *p;
	size_t n;
	ssize_t r;

	*np = 0;
	if (c->pre[k] == NULL && (c->pre[k] = malloc(PEEK_MAX)) == NULL) {
		kl_src_cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
		return (-1);
	}
	n = 0;
	while (n < PEEK_MAX) {
		r = kl_src_next(
		    c, up, &p, c->pre[k] + n, PEEK_MAX - n, PEEK_MAX - n);
		if (r <= 0)
			break;
		if (p != c->pre[k] + n)
			memcpy(c->pre[k] + n, p, (size_t)r);
		n += (size_t)r;
		if (n >= PEEK_TEXT && memchr(c->pre[k], 0, PEEK_TEXT) == NULL)
			break;
	}
	*np = n;
	return (0);
}

#ifdef HAVE_ISAL
/* Does l inflate gzip with ISA-L rather than through libarchive? */
#define ISAL_GZ(c, l) ((l)->filter && (l)->code == ARCHIVE_FILTER_GZIP && \
	!(c)->noisal)
#else
#define ISAL_GZ(c, l) 0
#endif

#ifdef HAVE_LZMA_MT
/* Does l decode xz with liblzma's threads rather than libarchive? */
#define LZMA_XZ(c, l) ((l)->filter && (l)->code == ARCHIVE_FILTER_XZ && \
	!(c)->nolzmamt)
#else
#define LZMA_XZ(c, l) 0
#endif

/* Open a reader at slot k on the stream whose prefix is c->pre[k]. */
static struct lvl *
lvl_open(struct ictx *c, struct lvl *up, size_t k, size_t n, enum cont kind,
    int code)
{
	struct lvl *l = &c->lvl[k];
	int r;

	memset(l, 0, sizeof(*l));
	l->c = c;
	l->up = up;
	l->filter = kind == C_FILTER;
	l->code = code;
	l->name = kl_input_code_name(l->filter, code);
	l->pre = c->pre[k];
	l->prelen = n;
	if ((c->rbuf[k] == NULL && (c->rbuf[k] = malloc(RBUF)) == NULL) ||
	    (!ISAL_GZ(c, l) && !LZMA_XZ(c, l) &&
		(l->a = archive_read_new()) == NULL)) {
		kl_src_cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	l->rbuf = c->rbuf[k];
#ifdef HAVE_ISAL
	if (l->filter && code == ARCHIVE_FILTER_GZIP && !c->noisal)
		return (kl_isal_open(c, l, k));
#endif
#ifdef HAVE_LZMA_MT
	if (LZMA_XZ(c, l))
		return (kl_xz_open(c, l, k, c->xzthreads));
#endif
	if (l->filter) {
		/* compress can't be appended: it reads in its init. */
		if (code == ARCHIVE_FILTER_COMPRESS)
			r = archive_read_support_filter_compress(l->a);
		else
			r = archive_read_append_filter(l->a, code);
		if (r >= ARCHIVE_WARN)
			r = archive_read_support_format_raw(l->a);
		if (r >= ARCHIVE_WARN)
			r = archive_read_support_format_empty(l->a);
		if (code == ARCHIVE_FILTER_GZIP) {
			l->gz = 1;
			if (!c->crcok)
				kl_src_crc_init(c->crctab);
			c->crcok = 1;
		}
	} else {
		switch (code) {
		case ARCHIVE_FORMAT_TAR:
			r = archive_read_support_format_tar(l->a);
			break;
		case ARCHIVE_FORMAT_CPIO:
			r = archive_read_support_format_cpio(l->a);
			break;
		case ARCHIVE_FORMAT_ZIP:
			r = archive_read_support_format_zip_streamable(l->a);
			break;
		case ARCHIVE_FORMAT_7ZIP:
			r = archive_read_support_format_7zip(l->a);
			break;
		case ARCHIVE_FORMAT_AR:
			r = archive_read_support_format_ar(l->a);
			break;
		default:
			r = archive_read_support_format_iso9660(l->a);
			break;
		}
	}
	if (r >= ARCHIVE_WARN)
		r = archive_read_set_read_callback(l->a, lvl_read);
	if (r >= ARCHIVE_WARN)
		r = archive_read_set_callback_data(l->a, l);
	if (r >= ARCHIVE_WARN && code == ARCHIVE_FORMAT_7ZIP && !l->filter) {
		l->seek = 1;
		l->fdpos = n;
		r = archive_read_set_seek_callback(l->a, lvl_seek);
	}
	if (r >= ARCHIVE_WARN)
		r = archive_read_open1(l->a);
	/*
	 * A decompressor that fails on its first block makes the format
	 * bids see no data: "empty" wins, and only the message is left.
	 */
	if (r >= ARCHIVE_WARN && l->filter &&
	    archive_error_string(l->a) != NULL)
		r = ARCHIVE_FATAL;
	if (r < ARCHIVE_WARN) {
		kl_src_cause_ar(c, l);
		archive_read_free(l->a);
		l->a = NULL;
		return (NULL);
	}
	return (l);
}

/* Free the reader of l. */
void
kl_arc_close(struct lvl *l)
{
	if (l->a != NULL)
		archive_read_free(l->a);
	l->a = NULL;
#ifdef HAVE_LZMA_MT
	kl_xz_close(l);
#endif
}

/* Base name of s: after the last '/', unless that leaves nothing. */
static const char *
base_name(const char *s, size_t *lenp)
{
	const char *b, *p;
	size_t len;

	len = strnlen(s, 65536);
	b = s;
	for (p = s; p < s + len; p++)
		if (*p == '/' && p + 1 < s + len)
			b = p + 1;
	*lenp = len - (size_t)(b - s);
	return (b);
}

/*
 * The name of what a compression at slot k holds: the gzip header's
 * name, else the base name of parent without the compression's suffix.
 */
static const char *
derive(struct ictx *c, struct lvl *l, size_t k, const char *parent)
{
	static const struct {
		int code;
		const char *suf;
		const char *repl;
	} sufs[] = {
	    {ARCHIVE_FILTER_GZIP, ".gz", ""},
	    {ARCHIVE_FILTER_GZIP, ".tgz", ".tar"},
	    {ARCHIVE_FILTER_GZIP, ".taz", ".tar"},
	    {ARCHIVE_FILTER_GZIP, "-gz", ""},
	    {ARCHIVE_FILTER_GZIP, ".z", ""},
	    {ARCHIVE_FILTER_BZIP2, ".bz2", ""},
	    {ARCHIVE_FILTER_BZIP2, ".bz", ""},
	    {ARCHIVE_FILTER_BZIP2, ".tbz2", ".tar"},
	    {ARCHIVE_FILTER_BZIP2, ".tbz", ".tar"},
	    {ARCHIVE_FILTER_XZ, ".xz", ""},
	    {ARCHIVE_FILTER_XZ, ".txz", ".tar"},
	    {ARCHIVE_FILTER_LZMA, ".lzma", ""},
	    {ARCHIVE_FILTER_LZMA, ".tlz", ".tar"},
	    {ARCHIVE_FILTER_ZSTD, ".zst", ""},
	    {ARCHIVE_FILTER_ZSTD, ".zstd", ""},
	    {ARCHIVE_FILTER_ZSTD, ".tzst", ".tar"},
	    {ARCHIVE_FILTER_LZ4, ".lz4", ""},
	    {ARCHIVE_FILTER_COMPRESS, ".Z", ""},
	    {ARCHIVE_FILTER_COMPRESS, ".taZ", ".tar"},
	};
	const uint8_t *p, *z;
	const char *b;
	char *d;
	size_t i, len, sl, flg;

	if (c->dname[k] == NULL && (c->dname[k] = malloc(NAME_BUF)) == NULL)
		return ("?");
	d = c->dname[k];
	p = l->pre;
	if (l->code == ARCHIVE_FILTER_GZIP && l->prelen >= 10 &&
	    (p[3] & 0x08) != 0) {
		i = 10;
		flg = p[3];
		if ((flg & 0x04) != 0)
			i = l->prelen >= 12 ? 12 + (size_t)(p[10] | p[11] << 8)
					    : l->prelen;
		if (i < l->prelen) {
			len =
			    l->prelen - i < NAME_BUF ? l->prelen - i : NAME_BUF;
			z = memchr(p + i, 0, len);
			if (z != NULL && z > p + i) {
				memcpy(d, p + i, (size_t)(z - (p + i)) + 1);
				return (d);
			}
		}
	}
	b = base_name(parent, &len);
	if (len >= NAME_BUF)
		len = NAME_BUF - 1;
	memcpy(d, b, len);
	d[len] = '\0';
	for (i = 0; i < sizeof(sufs) / sizeof(sufs[0]); i++) {
		if (sufs[i].code != l->code)
			continue;
		sl = strlen(sufs[i].suf);
		if (len > sl && memcmp(d + len - sl, sufs[i].suf, sl) == 0 &&
		    len - sl + strlen(sufs[i].repl) < NAME_BUF) {
			memcpy(d + len - sl, sufs[i].repl,
			    strlen(sufs[i].repl) + 1);
			break;
		}
	}
	return (d);
}

/* Drain what is left of a compressed stream, to check its end. */
static int
drain(struct ictx *c, struct lvl *l)
{
	const uint8_t *p;
	ssize_t r;

	while ((r = kl_src_next(c, l, &p, c->chunk, CHUNK, SIZE_MAX)) > 0)
		if (kl_src_grow(c, (uint64_t)r) < 0)
			return (-1);
	return (r < 0 ? -1 : 0);
}

/* Deliver the output of the compression reader l at slot k. */
static void
run_filter(struct ictx *c, struct lvl *l, size_t k, unsigned depth,
    const char *pending)
{
	struct archive_entry *e;
	const char *parent, *name;
	int r;

	parent = pending != NULL ? pending : kl_src_inner_name(c);
	r = l->znext != NULL ? ARCHIVE_OK :
	    archive_read_next_header(l->a, &e);
	if (r == ARCHIVE_EOF)
		l->eof = 1;
	else if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
		kl_src_cause_ar(c, l);
		kl_arc_err_unit(c, derive(c, l, k, parent), l->name, 0);
		return;
	}
	name = derive(c, l, k, parent);
	if (stream(c, l, k + 1, depth, name, l->name) != S_NESTED ||
	    c->stop != ST_NONE || l->hurt)
		return;
	if (drain(c, l) < 0)
		kl_arc_err_unit(c, NULL, l->name, l->out);
}

/* Where in its stream the archive reader l is. */
static uint64_t
hdr_off(struct lvl *l)
{
	int64_t o;

	o = archive_filter_bytes(l->a, 0);
	return (o > 0 ? (uint64_t)o : 0);
}

/*
 * Should this archive entry be read as a unit: a regular file (or one
 * of no type: ar members), not the name or symbol table of an ar file?
 */
static int
regular(const struct lvl *l, struct archive_entry *e, const char *name)
{
	if (archive_entry_filetype(e) != AE_IFREG &&
	    archive_entry_filetype(e) != 0)
		return (0);
	if (l->code == ARCHIVE_FORMAT_AR &&
	    (strcmp(name, "/") == 0 || strcmp(name, "//") == 0 ||
		strcmp(name, "/SYM64/") == 0))
		return (0);
	if (archive_entry_hardlink(e) != NULL)
		return (
		    archive_entry_size_is_set(e) && archive_entry_size(e) > 0);
	return (1);
}

/* Deliver every regular member of the archive reader l at slot k. */
static void
run_archive(struct ictx *c, struct lvl *l, size_t k, unsigned depth)
{
	struct archive_entry *e;
	const char *filter, *name;
	size_t pushed;
	int r, fails;

	filter = l->up != NULL && l->up->filter ? l->up->name : NULL;
	fails = 0;
	for (;;) {
		r = archive_read_next_header(l->a, &e);
		if (c->stop != ST_NONE) {
			/* A limit or a read error while skipping. */
			kl_arc_err_unit(c, NULL, filter, hdr_off(l));
			break;
		}
		if (r == ARCHIVE_EOF)
			break;
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			if (l->hurt) {
				/* Reported on the member it broke. */
				kl_src_cause_clear(c);
				break;
			}
			/* Damage is reported where it starts, not per retry. */
			kl_src_cause_ar(c, l);
			if (fails++ == 0)
				kl_arc_err_unit(c, NULL, filter, hdr_off(l));
			else
				kl_src_cause_clear(c);
			if (r == ARCHIVE_FATAL || fails >= RETRY_MAX)
				break;
			continue;
		}
		fails = 0;
		l->hurt = 0;
		l->eof = 0;
		l->warned = 0;
		l->blk = NULL;
		l->blklen = 0;
		l->hole = 0;
		l->opos = 0;
		name = archive_entry_pathname(e);
		if (name == NULL)
			name = archive_entry_pathname_utf8(e);
		if (name == NULL)
			name = "";
		if (!regular(l, e, name))
			continue;
		pushed = push(c, name);
		if (archive_entry_is_encrypted(e)) {
			kl_src_cause_whole(c,
			    "%s: encrypted, no passphrase: not read",
			    l->name);
			kl_arc_err_unit(c, NULL, filter, 0);
		} else
			(void)stream(c, l, k + 1, depth, NULL, filter);
		c->nchain -= pushed;
		if (c->stop != ST_NONE)
			break;
	}
}

/*
 * Deliver the stream at slot k, read from up (NULL: the fd), within
 * depth levels: as a unit named pending (if not NULL), or through a
 * nested reader.  filter is what unit.filter says for a unit here.
 */
static enum sres
stream(struct ictx *c, struct lvl *up, size_t k, unsigned depth,
    const char *pending, const char *filter)
{
	size_t n;

	if (kl_arc_fill(c, up, k, &n) < 0) {
		kl_arc_err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	/* The input cannot be read at all: the -1 return says so. */
	if (k == 0 && n == 0 && c->cause.code != KL_EOK)
		return (S_UNIT);
	return (kl_arc_stream_pre(c, up, k, n, depth, pending, filter));
}

/* stream(), its prefix of n bytes read. */
enum sres
kl_arc_stream_pre(struct ictx *c, struct lvl *up, size_t k, size_t n,
    unsigned depth, const char *pending, const char *filter)
{
	struct lvl *l;
	enum cont kind;
	unsigned nd;
	int code;

	kind = kl_sniff_container(c->pre[k], n, &code);
	if (kind == C_NONE) {
		leaf(c, up, k, n, pending, filter);
		return (S_UNIT);
	}
	/* A compressed archive is one level. */
	nd = kind == C_ARCHIVE && up != NULL && up->filter ? depth : depth + 1;
	if (nd > c->max_depth || k >= LVL_MAX) {
		kl_src_cause_set(c, KL_ELIMIT, 0,
		    "nesting limit reached: more than %u levels (max_depth)",
		    c->max_depth);
		kl_arc_err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	if (kind == C_ARCHIVE && code == ARCHIVE_FORMAT_7ZIP &&
	    (up != NULL || !c->seekable)) {
		kl_src_cause_whole(c,
		    "7z: needs seeking, cannot be read from a "
		    "pipe or inside another archive");
		kl_arc_err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	l = lvl_open(c, up, k, n, kind, code);
	if (l == NULL && kind == C_FILTER) {
		/* Broken from the start: the unit it would have been. */
		l = &c->lvl[k];
		kl_arc_err_unit(c, derive(c, l, k,
		    pending ? pending : kl_src_inner_name(c)),
		    l->name, 0);
		return (S_UNIT);
	}
	if (l == NULL) {
		kl_arc_err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	if (l->filter)
		run_filter(c, l, k, nd, pending);
	else
		run_archive(c, l, k, nd);
	kl_arc_close(l);
	return (S_NESTED);
}
