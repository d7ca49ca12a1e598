/*
 * repack.c - --redact on an archive or a compressed file: read it with
 * libarchive and write it back in the same format and compression.
 *
 * The input is taken apart level by level as lib/input.c does (the same
 * magic bytes, kl_input_container(), decide what a stream is, and the
 * same names go on the member chain), and every level read gets a
 * writer of the same kind:
 *
 *  - a compressed stream (gzip, bzip2, xz, lzma, zstd, lz4, compress):
 *    a reader with that filter and the raw format, a writer with that
 *    filter and the raw format; what comes out of the one goes, as a
 *    stream again, into the other (a tarball, or a log);
 *  - an archive (tar as ustar, pax or GNU; cpio odc or newc; zip): a
 *    reader and a writer of that format, opened once the first header
 *    says which variant it is.  Every member goes out with the metadata
 *    it came with (name, mode, owner, times, type, link target) and, for
 *    a regular file, its data: a text log is rewritten as a unit of its
 *    own, through the same callbacks (kleakscan.c) and the same
 *    rewriter (rewrite.c) as a plain file; a member that is itself an
 *    archive or a compressed stream is repacked into a temporary file
 *    (tar and cpio headers need the size first), or copied as it was
 *    when nothing in it was rewritten; anything else (binary data,
 *    journals) is copied byte for byte.
 *
 * Everything streams: per level a prefix (PEEK_MAX) and a read buffer;
 * nested members go through tmpfile(), never memory.  Formats libarchive
 * cannot write back as they were (7z, ar, ISO 9660, cpio with CRCs or in
 * binary, legacy lz4) are refused before anything of them is written.
 * The first error (damage, a limit, a refused format) ends the input:
 * one line naming the input and member, and the destination is marked
 * failed so that -o and --in-place leave their files as they were.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "kleakscan.h"

#define PEEK_MAX	(64u << 10)	/* prefix read ahead of a stream */
#define PEEK_TEXT	4096u		/* ...or this much without a NUL */
#define RBUF		(128u << 10)	/* a level's read buffer */
#define CHAIN_MAX	(2 * KL_INPUT_DEPTH_MAX + 2)
#define DEF_DEPTH	8
#define DEF_RATIO	4000
#define RATIO_FLOOR	(UINT64_C(64) << 20)
#define GZ_HDR		10		/* libarchive's gzip header */

/* The state of one input being repacked. */
struct rp {
	const struct cli		*cli;
	const struct kl_input_ops	*ops;
	const char			*name;
	const char			*chain[CHAIN_MAX];
	size_t				 nchain;
	unsigned			 max_depth;
	uint64_t			 max_member;
	uint64_t			 max_total;
	uint64_t			 max_ratio;
	uint64_t			 raw;		/* bytes read(2) */
	uint64_t			 expanded;	/* bytes of leaves */
	/* start of a file input, or -1 */
	off_t				 start;
	uint64_t			 disk;		/* its size, or 0 */
	int				 failed;	/* an error was said */
	struct buf			 disp;
};

/* Where a stream is read from. */
struct src {
	struct rp	*rp;
	int		 fd;		/* the input, when up is NULL */
	struct archive	*up;		/* the reader whose data this is */
	uint8_t		*pre;		/* the prefix, handed out first */
	size_t		 prelen;
	int		 pregiven;
	uint8_t		*buf;
	FILE		*tee;		/* a copy of what is read, or NULL */
	char		 err[256];	/* why a read failed */
};

/* A writer of one level, opened when the first byte is due. */
struct wlvl {
	struct archive	*w;
	int		 open;
	int		 raw;		/* raw format: one entry to start */
	struct dst	*out;		/* where it writes */
};

/* Where a stream is written to. */
struct dst {
	struct rp	*rp;
	FILE		*fp;		/* a temporary file, or else */
	struct wlvl	*wl;		/* the entry data of a writer, or
					   else rewrite_out() */
	uint64_t	 n;		/* bytes written */
	const uint8_t	*hdr;		/* a gzip header to put in place */
	size_t		 hdrlen;	/* ...of the one the writer makes */
	size_t		 skip;		/* bytes of that still to drop */
};

static int	stream(struct rp *, struct src *, struct dst *, unsigned,
		    const char *, const char *, int);

static void	rp_error(struct rp *, const char *, ...) KL_PRINTFLIKE(2, 3);

/* Report the first error of the input, naming the member it is in. */
static void
rp_error(struct rp *rp, const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	rewrite_fail();
	if (rp->failed)
		return;
	rp->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error_esc(print_unit_name(&rp->disp, rp->name, strlen(rp->name),
	    rp->chain, rp->nchain), 0, "%s: not rewritten", msg);
}

/* Push name (if any) on the member chain; returns what to pop. */
static size_t
push(struct rp *rp, const char *name)
{
	if (name == NULL || rp->nchain >= CHAIN_MAX)
		return (0);
	rp->chain[rp->nchain++] = name;
	return (1);
}

/* Read up to n bytes from below s (not its prefix); -1 with s->err. */
static ssize_t
src_below(struct src *s, void *p, size_t n)
{
	ssize_t	r;

	if (s->up != NULL) {
		r = archive_read_data(s->up, p, n);
		if (r < 0) {
			snprintf(s->err, sizeof(s->err), "%s",
			    archive_error_string(s->up) != NULL ?
			    archive_error_string(s->up) : "read error");
			return (-1);
		}
		return (r);
	}
	do
		r = read(s->fd, p, n);
	while (r == -1 && errno == EINTR);
	if (r == -1) {
		snprintf(s->err, sizeof(s->err), "%s", strerror(errno));
		return (-1);
	}
	s->rp->raw += (uint64_t)r;
	return (r);
}

/*
 * Read the prefix of s: PEEK_MAX bytes, or PEEK_TEXT without a NUL, or
 * what there is.  Returns 0, or -1 with s->err.
 */
static int
src_fill(struct src *s)
{
	ssize_t	r;

	s->pre = xmalloc(PEEK_MAX);
	s->prelen = 0;
	while (s->prelen < PEEK_MAX) {
		r = src_below(s, s->pre + s->prelen, PEEK_MAX - s->prelen);
		if (r < 0)
			return (-1);
		if (r == 0)
			break;
		s->prelen += (size_t)r;
		if (s->prelen >= PEEK_TEXT &&
		    memchr(s->pre, 0, PEEK_TEXT) == NULL)
			break;
	}
	return (0);
}

/* The next bytes of s, its prefix first; 0 at the end, -1 with s->err. */
static ssize_t
src_read(struct src *s, const void **pp)
{
	ssize_t	r;

	if (!s->pregiven) {
		s->pregiven = 1;
		if (s->prelen > 0) {
			*pp = s->pre;
			r = (ssize_t)s->prelen;
			goto out;
		}
	}
	if (s->buf == NULL)
		s->buf = xmalloc(RBUF);
	if ((r = src_below(s, s->buf, RBUF)) <= 0)
		return (r);
	*pp = s->buf;
out:
	if (s->tee != NULL && fwrite(*pp, 1, (size_t)r, s->tee) != (size_t)r) {
		snprintf(s->err, sizeof(s->err), "cannot write a temporary "
		    "file: %s", strerror(errno));
		return (-1);
	}
	return (r);
}

/* Free what s holds. */
static void
src_free(struct src *s)
{
	free(s->pre);
	free(s->buf);
	s->pre = s->buf = NULL;
}

/* libarchive's read callback: the next bytes of a src. */
static la_ssize_t
src_cb(struct archive *a, void *arg, const void **pp)
{
	struct src	*s = arg;
	ssize_t		 r;

	if ((r = src_read(s, pp)) < 0)
		archive_set_error(a, EIO, "%s", s->err);
	return (r);
}

/*
 * A zip is read from its central directory, where the modes are: from
 * the input file itself when it is one, else from a temporary copy.
 */
struct zsrc {
	int		 fd;
	off_t		 start;
	uint8_t		*buf;
};

/* libarchive's read callback for a zip. */
static la_ssize_t
zsrc_read(struct archive *a, void *arg, const void **pp)
{
	struct zsrc	*z = arg;
	ssize_t		 r;

	do
		r = read(z->fd, z->buf, RBUF);
	while (r == -1 && errno == EINTR);
	if (r == -1)
		archive_set_error(a, errno, "%s", strerror(errno));
	*pp = z->buf;
	return (r);
}

/* libarchive's seek callback for a zip. */
static la_int64_t
zsrc_seek(struct archive *a, void *arg, la_int64_t off, int whence)
{
	struct zsrc	*z = arg;
	off_t		 o;

	if (whence == SEEK_SET)
		o = lseek(z->fd, z->start + off, SEEK_SET);
	else
		o = lseek(z->fd, off, whence);
	if (o == -1) {
		archive_set_error(a, errno, "%s", strerror(errno));
		return (ARCHIVE_FATAL);
	}
	return (o - z->start);
}

/*
 * Make z a seekable copy of s: s's own file, or a temporary file holding
 * all of s.  Returns 0, or -1 after saying why.
 */
static int
zsrc_open(struct rp *rp, struct src *s, struct zsrc *z, FILE **tmp)
{
	const void	*p;
	ssize_t		 r;

	z->buf = xmalloc(RBUF);
	*tmp = NULL;
	if (s->up == NULL && rp->start != -1) {
		z->fd = s->fd;
		z->start = rp->start;
		if (lseek(z->fd, z->start, SEEK_SET) != -1) {
			s->pregiven = 1;	/* read again from the file */
			return (0);
		}
	}
	if ((*tmp = tmpfile()) == NULL) {
		rp_error(rp, "cannot make a temporary file: %s",
		    strerror(errno));
		return (-1);
	}
	while ((r = src_read(s, &p)) > 0)
		if (fwrite(p, 1, (size_t)r, *tmp) != (size_t)r) {
			rp_error(rp, "cannot write a temporary file: %s",
			    strerror(errno));
			return (-1);
		}
	if (r < 0) {
		rp_error(rp, "zip: %s", s->err);
		return (-1);
	}
	if (fflush(*tmp) == EOF) {
		rp_error(rp, "cannot write a temporary file: %s",
		    strerror(errno));
		return (-1);
	}
	z->fd = fileno(*tmp);
	z->start = 0;
	(void)lseek(z->fd, 0, SEEK_SET);
	return (0);
}

static int	wlvl_open(struct wlvl *);

/* Write n bytes to d; -1 on failure (said by the caller). */
static int
dst_write(struct dst *d, const void *p, size_t n)
{
	la_ssize_t	r;

	if (d->rp->failed)
		return (-1);
	if (n == 0)
		return (0);
	if (d->fp != NULL) {
		if (fwrite(p, 1, n, d->fp) != n)
			return (-1);
	} else if (d->wl != NULL) {
		if (!d->wl->open && wlvl_open(d->wl) == -1)
			return (-1);
		r = archive_write_data(d->wl->w, p, n);
		if (r < 0 || (size_t)r != n)
			return (-1);
	} else if (rewrite_out(p, n) == -1)
		return (-1);
	d->n += n;
	return (0);
}

/* libarchive's write callback: write to a dst. */
static la_ssize_t
dst_cb(struct archive *a, void *arg, const void *p, size_t n)
{
	struct dst	*d = arg;
	const uint8_t	*b = p;
	size_t		 k, len = n;

	/* The input's gzip header (name, mtime) for libarchive's. */
	if (d->skip > 0) {
		if (d->skip == GZ_HDR && dst_write(d, d->hdr, d->hdrlen) == -1)
			goto fail;
		k = len < d->skip ? len : d->skip;
		d->skip -= k;
		b += k;
		len -= k;
	}
	if (dst_write(d, b, len) == -1) {
fail:
		if (rewrite_werror() != NULL)
			archive_set_error(a, EIO, "%s", rewrite_werror());
		else
			archive_set_error(a, EIO, "cannot write the output: %s",
			    strerror(errno));
		return (-1);
	}
	return ((la_ssize_t)n);
}

/* The rewriter's output for a text unit: the dst it goes to. */
static int
leaf_cb(void *arg, const void *p, size_t n)
{
	return (dst_write(arg, p, n));
}

/* Open the writer of l on its dst; a raw writer gets its one entry. */
static int
wlvl_open(struct wlvl *l)
{
	struct archive_entry	*e;
	int			 r;

	l->open = 1;
	r = archive_write_open2(l->w, l->out, NULL, dst_cb, NULL, NULL);
	if (r == ARCHIVE_OK && l->raw) {
		if ((e = archive_entry_new()) == NULL)
			return (-1);
		archive_entry_set_pathname(e, "data");
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		r = archive_write_header(l->w, e);
		archive_entry_free(e);
	}
	return (r == ARCHIVE_OK ? 0 : -1);
}

/*
 * Count n more bytes of a leaf of ubytes so far against the limits;
 * -1 with msg set when one is reached.
 */
static int
limits(struct rp *rp, uint64_t ubytes, size_t n, char *msg, size_t msgsize)
{
	uint64_t	rb, denom;

	rp->expanded += n;
	if (ubytes + n > rp->max_member) {
		snprintf(msg, msgsize, "member size limit reached: more than "
		    "%" PRIu64 " bytes (max_member)", rp->max_member);
		return (-1);
	}
	if (rp->expanded > rp->max_total) {
		snprintf(msg, msgsize, "total size limit reached: %" PRIu64
		    " bytes expanded (max_total %" PRIu64 ")", rp->expanded,
		    rp->max_total);
		return (-1);
	}
	denom = rp->disk > rp->raw ? rp->disk : rp->raw;
	rb = denom > UINT64_MAX / rp->max_ratio ? UINT64_MAX :
	    denom * rp->max_ratio;
	if (rp->expanded > RATIO_FLOOR && rp->expanded > rb) {
		snprintf(msg, msgsize, "ratio limit reached: %" PRIu64
		    " bytes expanded from %" PRIu64 " (max_ratio %" PRIu64
		    " to 1)", rp->expanded, denom, rp->max_ratio);
		return (-1);
	}
	return (0);
}

/* How a leaf with these first bytes is taken, after --format. */
static enum kl_unit_kind
leaf_kind(const struct src *s)
{
	return (unit_kind(kl_input_sniff(s->pre, s->prelen)));
}

/*
 * A leaf stream (no container): a text log is rewritten into d as a
 * unit named pending (if not NULL) through the program's callbacks;
 * anything else is copied.  Returns 0, or -1 after saying why.
 */
static int
leaf(struct rp *rp, struct src *s, struct dst *d, const char *pending,
    const char *filter)
{
	const struct kl_input_ops	*ops = rp->ops;
	struct kl_unit			 u;
	struct kl_error			 err;
	const void			*p;
	uint64_t			 ubytes, start, errs;
	size_t				 pushed;
	ssize_t				 r;
	char				 why[300];
	enum kl_unit_kind		 kind;
	int				 text, rc = 0, stop = 0;

	pushed = push(rp, pending);
	kind = leaf_kind(s);
	/* A native journal goes in too: the unit refuses it. */
	text = kind == KL_UNIT_TEXT || kind == KL_UNIT_EXPORT ||
	    kind == KL_UNIT_JSON || kind == KL_UNIT_JOURNAL;
	memset(&u, 0, sizeof(u));
	u.path = rp->name;
	u.members = rp->chain;
	u.nmembers = rp->nchain;
	u.kind = kl_input_sniff(s->pre, s->prelen);
	u.filter = filter;
	memset(&err, 0, sizeof(err));
	why[0] = '\0';
	errs = log_errors();
	start = d->n;
	ubytes = 0;
	if (text) {
		rewrite_target(leaf_cb, d);
		if (ops->begin(ops->arg, &u) != 0) {
			rewrite_target(NULL, NULL);
			rp_error(rp, "cannot start the unit");
			rc = -1;
			goto out;
		}
	}
	for (;;) {
		if ((r = src_read(s, &p)) <= 0) {
			if (r < 0)
				snprintf(why, sizeof(why), "%s", s->err);
			break;
		}
		if (limits(rp, ubytes, (size_t)r, why, sizeof(why)) == -1)
			break;
		ubytes += (uint64_t)r;
		if (text) {
			if (!stop && ops->data(ops->arg, &u, p, (size_t)r) != 0)
				stop = 1;
		} else if (dst_write(d, p, (size_t)r) == -1) {
			if (rewrite_werror() != NULL)
				snprintf(why, sizeof(why), "%s",
				    rewrite_werror());
			else
				snprintf(why, sizeof(why), "cannot write the "
				    "output: %s", strerror(errno));
			break;
		}
	}
	if (text) {
		/* An error cut the unit short: its end says so. */
		if (why[0] != '\0')
			kl_error_set(&err, KL_EFORMAT, 0, "%s: not rewritten",
			    why);
		(void)ops->end(ops->arg, &u, why[0] != '\0' ? &err : NULL);
		rewrite_target(NULL, NULL);
		if (log_errors() != errs) {
			rewrite_fail();
			rp->failed = 1;
			rc = -1;
		} else if (stop || d->n - start != ubytes) {
			rp_error(rp, "the rewritten member has %" PRIu64
			    " bytes, not %" PRIu64, d->n - start, ubytes);
			rc = -1;
		}
	} else if (why[0] != '\0') {
		rp_error(rp, "%s", why);
		rc = -1;
	}
out:
	rp->nchain -= pushed;
	return (rc);
}

/* The base name of s: after the last '/', unless that leaves nothing. */
static const char *
base_name(const char *s)
{
	const char	*b, *p;

	b = s;
	for (p = s; *p != '\0'; p++)
		if (*p == '/' && p[1] != '\0')
			b = p + 1;
	return (b);
}

/*
 * The name of what a compression holds, as lib/input.c gives it: the
 * name in the gzip header, else the base name of parent without the
 * compression's suffix.  A new string.
 */
static char *
derive(int code, const uint8_t *p, size_t n, const char *parent)
{
	static const struct {
		int		 code;
		const char	*suf;
		const char	*repl;
	} sufs[] = {
		{ ARCHIVE_FILTER_GZIP, ".gz", "" },
		{ ARCHIVE_FILTER_GZIP, ".tgz", ".tar" },
		{ ARCHIVE_FILTER_GZIP, ".taz", ".tar" },
		{ ARCHIVE_FILTER_GZIP, "-gz", "" },
		{ ARCHIVE_FILTER_GZIP, ".z", "" },
		{ ARCHIVE_FILTER_BZIP2, ".bz2", "" },
		{ ARCHIVE_FILTER_BZIP2, ".bz", "" },
		{ ARCHIVE_FILTER_BZIP2, ".tbz2", ".tar" },
		{ ARCHIVE_FILTER_BZIP2, ".tbz", ".tar" },
		{ ARCHIVE_FILTER_XZ, ".xz", "" },
		{ ARCHIVE_FILTER_XZ, ".txz", ".tar" },
		{ ARCHIVE_FILTER_LZMA, ".lzma", "" },
		{ ARCHIVE_FILTER_LZMA, ".tlz", ".tar" },
		{ ARCHIVE_FILTER_ZSTD, ".zst", "" },
		{ ARCHIVE_FILTER_ZSTD, ".zstd", "" },
		{ ARCHIVE_FILTER_ZSTD, ".tzst", ".tar" },
		{ ARCHIVE_FILTER_LZ4, ".lz4", "" },
		{ ARCHIVE_FILTER_COMPRESS, ".Z", "" },
		{ ARCHIVE_FILTER_COMPRESS, ".taZ", ".tar" },
	};
	const uint8_t	*z;
	char		*d;
	size_t		 i, len, sl, rl;

	if (code == ARCHIVE_FILTER_GZIP && n >= 10 && (p[3] & 0x08) != 0) {
		i = 10;
		if ((p[3] & 0x04) != 0)
			i = n >= 12 ? 12 + (size_t)(p[10] | p[11] << 8) : n;
		if (i < n && (z = memchr(p + i, 0, n - i)) != NULL &&
		    z > p + i && z - (p + i) < 1024)
			return (xstrdup((const char *)p + i));
	}
	parent = base_name(parent);
	len = strlen(parent);
	for (i = 0; i < sizeof(sufs) / sizeof(sufs[0]); i++) {
		sl = strlen(sufs[i].suf);
		if (sufs[i].code != code || len <= sl ||
		    memcmp(parent + len - sl, sufs[i].suf, sl) != 0)
			continue;
		rl = strlen(sufs[i].repl);
		d = xmalloc(len - sl + rl + 1);
		memcpy(d, parent, len - sl);
		memcpy(d + len - sl, sufs[i].repl, rl + 1);
		return (d);
	}
	return (xstrdup(parent));
}

/*
 * The length of the gzip header at p[0..n) (flags, mtime, extra field,
 * name, comment, header CRC), or 0 when it is not all there.
 */
static size_t
gz_header(const uint8_t *p, size_t n)
{
	const uint8_t	*z;
	size_t		 i = GZ_HDR;

	if (n < GZ_HDR || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8)
		return (0);
	if ((p[3] & 0x04) != 0) {
		if (n < i + 2)
			return (0);
		i += 2 + (size_t)(p[10] | p[11] << 8);
	}
	if ((p[3] & 0x08) != 0) {
		if (i >= n || (z = memchr(p + i, 0, n - i)) == NULL)
			return (0);
		i = (size_t)(z - p) + 1;
	}
	if ((p[3] & 0x10) != 0) {
		if (i >= n || (z = memchr(p + i, 0, n - i)) == NULL)
			return (0);
		i = (size_t)(z - p) + 1;
	}
	if ((p[3] & 0x02) != 0)
		i += 2;
	return (i <= n ? i : 0);
}

/* The message of the reader or writer a, for an error. */
static const char *
ar_msg(struct archive *a)
{
	return (archive_error_string(a) != NULL ? archive_error_string(a) :
	    "unknown error");
}

/*
 * A compressed stream (code) read from s: decompress it, repack what it
 * holds and compress that into d with the same compression.
 */
static int
filter_level(struct rp *rp, struct src *s, struct dst *d, int code,
    unsigned depth, const char *pending)
{
	static const uint8_t	 lz4legacy[] = { 0x02, 0x21, 0x4c, 0x18 };
	struct archive		*a = NULL;
	struct archive_entry	*e;
	struct wlvl		 wl;
	struct src		 in;
	struct dst		 out;
	const void		*p;
	const char		*fname = kl_input_code_name(1, code);
	char			*name;
	ssize_t			 r;
	int			 rc = -1;

	name = derive(code, s->pre, s->prelen, pending != NULL ? pending :
	    rp->nchain > 0 ? rp->chain[rp->nchain - 1] : rp->name);
	memset(&wl, 0, sizeof(wl));
	memset(&in, 0, sizeof(in));
	if (code == ARCHIVE_FILTER_LZ4 && s->prelen >= 4 &&
	    memcmp(s->pre, lz4legacy, 4) == 0) {
		rp_error(rp, "lz4: the legacy format cannot be written back");
		goto out;
	}
	if ((a = archive_read_new()) == NULL ||
	    (wl.w = archive_write_new()) == NULL)
		log_fatal("out of memory");
	if ((code == ARCHIVE_FILTER_COMPRESS ?
	    archive_read_support_filter_compress(a) :
	    archive_read_append_filter(a, code)) < ARCHIVE_WARN ||
	    archive_read_support_format_raw(a) < ARCHIVE_WARN ||
	    archive_read_support_format_empty(a) < ARCHIVE_WARN ||
	    archive_read_open(a, s, NULL, src_cb, NULL) < ARCHIVE_WARN ||
	    archive_error_string(a) != NULL) {
		rp_error(rp, "%s: %s", fname, ar_msg(a));
		goto out;
	}
	if (archive_write_add_filter(wl.w, code) != ARCHIVE_OK ||
	    archive_write_set_format_raw(wl.w) != ARCHIVE_OK ||
	    archive_write_set_bytes_per_block(wl.w, 0) != ARCHIVE_OK) {
		rp_error(rp, "%s: cannot be written back: %s", fname,
		    ar_msg(wl.w));
		goto out;
	}
	wl.raw = 1;
	wl.out = d;
	/* Keep the name and mtime a gzip header holds. */
	if (code == ARCHIVE_FILTER_GZIP &&
	    (d->hdrlen = gz_header(s->pre, s->prelen)) > 0) {
		d->hdr = s->pre;
		d->skip = GZ_HDR;
	}
	r = archive_read_next_header(a, &e);
	if (r != ARCHIVE_EOF && r < ARCHIVE_WARN) {
		rp_error(rp, "%s: %s", fname, ar_msg(a));
		goto out;
	}
	memset(&out, 0, sizeof(out));
	out.rp = rp;
	out.wl = &wl;
	if (r != ARCHIVE_EOF) {
		in.rp = rp;
		in.up = a;
		if (src_fill(&in) == -1) {
			rp_error(rp, "%s: %s", fname, in.err);
			goto out;
		}
		if (stream(rp, &in, &out, depth, name, fname, 1) == -1)
			goto out;
		/* What follows an archive's end: read it, for its errors. */
		while ((r = src_read(&in, &p)) > 0)
			continue;
		if (r < 0) {
			rp_error(rp, "%s: %s", fname, in.err);
			goto out;
		}
	}
	if ((!wl.open && wlvl_open(&wl) == -1) ||
	    archive_write_close(wl.w) != ARCHIVE_OK) {
		rp_error(rp, "%s: %s", fname, ar_msg(wl.w));
		goto out;
	}
	rc = 0;
out:
	d->hdr = NULL;
	d->hdrlen = d->skip = 0;
	src_free(&in);
	if (a != NULL)
		archive_read_free(a);
	if (wl.w != NULL) {
		if (rc == -1)
			rp->failed = 1;	/* no more bytes out */
		archive_write_free(wl.w);
	}
	free(name);
	return (rc);
}

/*
 * Set the writer w to write the format the reader a read (its first
 * header seen, or none); -1 when libarchive cannot write it back.
 */
static int
set_format(struct archive *w, struct archive *a, int code)
{
	int	f = archive_format(a);

	switch (f) {
	case ARCHIVE_FORMAT_TAR_USTAR:
	case ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE:
	case ARCHIVE_FORMAT_TAR_PAX_RESTRICTED:
	case ARCHIVE_FORMAT_TAR_GNUTAR:
		break;
	case ARCHIVE_FORMAT_CPIO_POSIX:
	case ARCHIVE_FORMAT_CPIO_SVR4_NOCRC:
		if (archive_write_set_bytes_per_block(w, 512) != ARCHIVE_OK)
			return (-1);
		break;
	case ARCHIVE_FORMAT_ZIP:
		if (archive_write_set_bytes_per_block(w, 0) != ARCHIVE_OK)
			return (-1);
		break;
	default:
		/* Nothing read (an empty archive): the plainest variant. */
		if (code == ARCHIVE_FORMAT_TAR &&
		    (f == ARCHIVE_FORMAT_TAR || f == 0))
			f = ARCHIVE_FORMAT_TAR_USTAR;
		else if (code == ARCHIVE_FORMAT_ZIP && f == 0)
			f = ARCHIVE_FORMAT_ZIP;
		else
			return (-1);
		break;
	}
	return (archive_write_set_format(w, f) == ARCHIVE_OK ? 0 : -1);
}

/* Copy the temporary file fp whole into the entry data of w. */
static int
copy_file(struct rp *rp, FILE *fp, struct archive *w)
{
	uint8_t	*b;
	size_t	 n;
	int	 rc = 0;

	b = xmalloc(RBUF);
	rewind(fp);
	while ((n = fread(b, 1, RBUF, fp)) > 0)
		if (archive_write_data(w, b, n) != (la_ssize_t)n) {
			rp_error(rp, "%s", ar_msg(w));
			rc = -1;
			break;
		}
	if (rc == 0 && ferror(fp)) {
		rp_error(rp, "cannot read a temporary file: %s",
		    strerror(errno));
		rc = -1;
	}
	free(b);
	return (rc);
}

/*
 * A member that is itself an archive or a compressed stream: repack it
 * into a temporary file (keeping a copy of it as it came), then write
 * the header with the size of whichever goes out and copy it in.
 */
static int
nested(struct rp *rp, struct src *s, struct archive *w,
    struct archive_entry *e, unsigned depth, const char *filter)
{
	struct dst	 d;
	const void	*p;
	FILE		*fp, *orig, *use;
	uint64_t	 before;
	off_t		 size;
	ssize_t		 r;
	int		 rc = -1;

	if ((fp = tmpfile()) == NULL || (orig = tmpfile()) == NULL) {
		rp_error(rp, "cannot make a temporary file: %s",
		    strerror(errno));
		if (fp != NULL)
			fclose(fp);
		return (-1);
	}
	memset(&d, 0, sizeof(d));
	d.rp = rp;
	d.fp = fp;
	s->tee = orig;
	before = rewrite_count();
	if (stream(rp, s, &d, depth, NULL, filter, 0) == -1)
		goto out;
	while ((r = src_read(s, &p)) > 0)
		continue;
	if (r < 0) {
		rp_error(rp, "%s", s->err);
		goto out;
	}
	/* Nothing rewritten: the member as it was, byte for byte. */
	use = rewrite_count() == before ? orig : fp;
	if (fflush(use) == EOF || (size = ftello(use)) == -1) {
		rp_error(rp, "cannot write a temporary file: %s",
		    strerror(errno));
		goto out;
	}
	archive_entry_set_size(e, (la_int64_t)size);
	if (archive_write_header(w, e) < ARCHIVE_WARN) {
		rp_error(rp, "%s", ar_msg(w));
		goto out;
	}
	rc = copy_file(rp, use, w);
out:
	s->tee = NULL;
	fclose(fp);
	fclose(orig);
	return (rc);
}

/* One regular member with data, read from a, written to w. */
static int
member(struct rp *rp, struct archive *a, struct archive *w,
    struct archive_entry *e, unsigned depth, const char *filter)
{
	struct wlvl	 wl;
	struct src	 s;
	struct dst	 d;
	int		 f, g, rc = -1;

	memset(&s, 0, sizeof(s));
	s.rp = rp;
	s.up = a;
	if (src_fill(&s) == -1) {
		rp_error(rp, "%s", s.err);
		goto out;
	}
	if (kl_input_container(s.pre, s.prelen, &f, &g) != 0) {
		rc = nested(rp, &s, w, e, depth, filter);
		goto out;
	}
	if (archive_write_header(w, e) < ARCHIVE_WARN) {
		rp_error(rp, "%s", ar_msg(w));
		goto out;
	}
	memset(&wl, 0, sizeof(wl));
	wl.w = w;
	wl.open = 1;
	memset(&d, 0, sizeof(d));
	d.rp = rp;
	d.wl = &wl;
	if (leaf(rp, &s, &d, NULL, filter) == -1)
		goto out;
	if (archive_entry_size_is_set(e) &&
	    d.n != (uint64_t)archive_entry_size(e)) {
		rp_error(rp, "%" PRIu64 " bytes of data, the header says %"
		    PRId64, d.n, (int64_t)archive_entry_size(e));
		goto out;
	}
	rc = 0;
out:
	src_free(&s);
	return (rc);
}

/*
 * An archive (code) read from s: every member out to d, in order, as
 * it came, text logs rewritten.
 */
static int
archive_level(struct rp *rp, struct src *s, struct dst *d, int code,
    unsigned depth, const char *filter)
{
	struct archive		*a, *w;
	struct archive_entry	*e;
	struct zsrc		 z;
	FILE			*ztmp = NULL;
	const char		*fmt = kl_input_code_name(0, code), *name;
	size_t			 pushed;
	int			 r, rc = -1, open = 0, data;

	if (code != ARCHIVE_FORMAT_TAR && code != ARCHIVE_FORMAT_CPIO &&
	    code != ARCHIVE_FORMAT_ZIP) {
		rp_error(rp, "cannot rewrite %s archives: libarchive cannot "
		    "write them back as they were", fmt);
		return (-1);
	}
	if ((a = archive_read_new()) == NULL ||
	    (w = archive_write_new()) == NULL)
		log_fatal("out of memory");
	memset(&z, 0, sizeof(z));
	if (code == ARCHIVE_FORMAT_TAR)
		r = archive_read_support_format_tar(a);
	else if (code == ARCHIVE_FORMAT_CPIO)
		r = archive_read_support_format_cpio(a);
	else {
		if (zsrc_open(rp, s, &z, &ztmp) == -1)
			goto out;
		r = archive_read_support_format_zip_seekable(a);
		if (r >= ARCHIVE_WARN)
			r = archive_read_set_seek_callback(a, zsrc_seek);
	}
	if (r >= ARCHIVE_WARN)
		r = code == ARCHIVE_FORMAT_ZIP ?
		    archive_read_open(a, &z, NULL, zsrc_read, NULL) :
		    archive_read_open(a, s, NULL, src_cb, NULL);
	if (r < ARCHIVE_WARN) {
		rp_error(rp, "%s: %s", fmt, ar_msg(a));
		goto out;
	}
	for (;;) {
		r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			rp_error(rp, "%s: %s", fmt, ar_msg(a));
			goto out;
		}
		if (!open) {
			if (set_format(w, a, code) == -1) {
				rp_error(rp, "cannot rewrite %s archives: "
				    "libarchive cannot write them back as "
				    "they were", archive_format_name(a));
				goto out;
			}
			if (archive_write_open2(w, d, NULL, dst_cb, NULL,
			    NULL) != ARCHIVE_OK) {
				rp_error(rp, "%s: %s", fmt, ar_msg(w));
				goto out;
			}
			open = 1;
		}
		name = archive_entry_pathname(e);
		pushed = push(rp, name != NULL ? name : "");
		if (archive_entry_is_encrypted(e)) {
			rp_error(rp, "%s: encrypted, no passphrase: cannot "
			    "be rewritten", fmt);
			goto out;
		}
		/* A sparse file goes out whole. */
		archive_entry_sparse_clear(e);
		data = archive_entry_filetype(e) == AE_IFREG &&
		    archive_entry_hardlink(e) == NULL &&
		    (!archive_entry_size_is_set(e) ||
		    archive_entry_size(e) > 0);
		if (data) {
			if (member(rp, a, w, e, depth, filter) == -1)
				goto out;
		} else if (archive_write_header(w, e) < ARCHIVE_WARN) {
			rp_error(rp, "%s", ar_msg(w));
			goto out;
		}
		if (archive_write_finish_entry(w) < ARCHIVE_WARN) {
			rp_error(rp, "%s", ar_msg(w));
			goto out;
		}
		rp->nchain -= pushed;
	}
	if (!open) {
		if (set_format(w, a, code) == -1 ||
		    archive_write_open2(w, d, NULL, dst_cb, NULL, NULL) !=
		    ARCHIVE_OK) {
			rp_error(rp, "%s: cannot be written back: %s", fmt,
			    ar_msg(w));
			goto out;
		}
	}
	if (archive_write_close(w) != ARCHIVE_OK) {
		rp_error(rp, "%s: %s", fmt, ar_msg(w));
		goto out;
	}
	rc = 0;
out:
	archive_read_free(a);
	if (rc == -1)
		rp->failed = 1;	/* no more bytes out */
	archive_write_free(w);
	free(z.buf);
	if (ztmp != NULL)
		fclose(ztmp);
	return (rc);
}

/*
 * The stream s (prefix read) into d, within depth levels: a leaf named
 * pending, or a container repacked.  under: s is the output of a
 * compression (a compressed archive is one level, not two).
 */
static int
stream(struct rp *rp, struct src *s, struct dst *d, unsigned depth,
    const char *pending, const char *filter, int under)
{
	unsigned	nd;
	size_t		pushed;
	int		f, g, kind, rc;

	kind = kl_input_container(s->pre, s->prelen, &f, &g);
	if (kind == 0)
		return (leaf(rp, s, d, pending, filter));
	nd = kind == 2 && under ? depth : depth + 1;
	if (nd > rp->max_depth) {
		pushed = push(rp, pending);
		rp_error(rp, "nesting limit reached: more than %u levels "
		    "(max_depth)", rp->max_depth);
		rp->nchain -= pushed;
		return (-1);
	}
	if (kind == 1)
		return (filter_level(rp, s, d, f, nd, pending));
	rc = archive_level(rp, s, d, g, nd, under ? filter : NULL);
	return (rc);
}

/*
 * Repack the input on fd (named name), an archive or a compressed
 * stream whose first npre bytes, already read from offset start (-1:
 * not a file), are pre: through ops
 * for its text members, to the destination through rewrite_out().
 * Returns 0, or -1 after saying why (the destination is failed).
 */
int
repack_input(const struct cli *cli, const struct kl_input_ops *ops,
    const char *name, int fd, off_t start, const uint8_t *pre, size_t npre)
{
	struct rp	rp;
	struct src	s;
	struct dst	d;
	struct stat	st;
	int		rc;

	memset(&rp, 0, sizeof(rp));
	rp.cli = cli;
	rp.ops = ops;
	rp.name = name;
	rp.max_depth = cli->limits.max_depth ? cli->limits.max_depth :
	    DEF_DEPTH;
	rp.max_member = cli->limits.max_member ? cli->limits.max_member :
	    UINT64_MAX;
	rp.max_total = cli->limits.max_total ? cli->limits.max_total :
	    UINT64_MAX;
	rp.max_ratio = cli->limits.max_ratio ? cli->limits.max_ratio :
	    DEF_RATIO;
	rp.raw = npre;
	rp.start = start;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		rp.disk = (uint64_t)st.st_size;
	memset(&s, 0, sizeof(s));
	s.rp = &rp;
	s.fd = fd;
	s.pre = xmalloc(npre > 0 ? npre : 1);
	memcpy(s.pre, pre, npre);
	s.prelen = npre;
	memset(&d, 0, sizeof(d));
	d.rp = &rp;
	rewrite_repack(1);
	rc = stream(&rp, &s, &d, 0, NULL, NULL, 0);
	rewrite_repack(0);
	src_free(&s);
	buf_free(&rp.disp);
	return (rc);
}
