/*
 * xz-mt.c - the liblzma xz reader: an xz stream decoded by liblzma's
 * threaded decoder rather than by libarchive's single-threaded filter,
 * so that the blocks of a multi-block stream (xz -T0) are decoded on
 * several cores; concatenated streams and stream padding as xz -d
 * reads them, with the messages of the libarchive path; and which
 * decoder this build has.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef HAVE_LZMA_MT
#include <errno.h>
#include <unistd.h>

#include <lzma.h>
#endif

#include "kleak.h"
#include "kleak-int.h"
#include "input-int.h"

/*
 * What decodes xz streams: "liblzma threaded", or "libarchive" (its
 * single-threaded filter).
 */
const char *
kl_input_xz_decoder(void)
{
#ifdef HAVE_LZMA_MT
	return ("liblzma threaded");
#else
	return ("libarchive");
#endif
}

#ifdef HAVE_LZMA_MT
/* clang-format off */
#define XZ_MEMSTOP	(UINT64_C(1) << 30)	/* as libarchive's xz filter */
#define XZ_THREADS_MAX	64u
/* clang-format on */


/*
 * Why liblzma stopped the stream l with ret, to report once its output
 * is out: the words of libarchive's xz filter, tidied as its messages
 * are (kl_src_cause_ar()), so that messages do not depend on the
 * decoder.
 */
static void
x_fail(struct lvl *l, lzma_ret ret)
{
	const char *why;

	l->zenomem = 0;
	switch (ret) {
	case LZMA_MEM_ERROR:
		why = "lzma library error: cannot allocate memory";
		l->zenomem = 1;
		break;
	case LZMA_MEMLIMIT_ERROR:
		why = "lzma library error: out of memory";
		l->zenomem = 1;
		break;
	case LZMA_FORMAT_ERROR:
		why = "lzma library error: format not recognized";
		break;
	case LZMA_OPTIONS_ERROR:
		why = "lzma library error: invalid options";
		break;
	case LZMA_DATA_ERROR:
		why = "lzma library error: corrupted input data";
		break;
	case LZMA_BUF_ERROR:
		why = "lzma library error: no progress is possible";
		break;
	default:
		why = "lzma decompression failed: unknown error";
		break;
	}
	snprintf(l->zerr, sizeof(l->zerr), "xz: %s", why);
}

/*
 * Decode the next block of the xz stream l into l->obuf (l->blk), or
 * find its end (l->eof) or damage (l->zerr).  liblzma reads stream
 * after stream (LZMA_CONCATENATED) and the padding between them, and
 * at the source's end (LZMA_FINISH) says whether the last one was
 * whole: a cut stream gives no progress (LZMA_BUF_ERROR), garbage
 * after a stream is corrupt data or no progress, as in libarchive.
 * Without LZMA_FAIL_FAST the decoder hands out every byte before the
 * damage first.  -1 when the input stops (a limit, a read error, a
 * callback); a source that breaks is read as cut there.
 */
static int
x_fill(struct ictx *c, struct lvl *l)
{
	lzma_stream *s = l->ist;
	lzma_ret ret;
	size_t made;

	for (;;) {
		if (l->inlen == 0 && !l->srceof && kl_src_input(c, l) < 0) {
			if (c->stop != ST_NONE)
				return (-1);
			/*
			 * The source broke (its cause is set): what came
			 * before is decoded first, as at a cut, so that the
			 * output does not depend on the threads' timing.
			 */
			l->srcfail = 1;
			l->srceof = 1;
			l->inlen = 0;
		}
		s->next_in = l->in;
		s->avail_in = l->inlen;
		s->next_out = l->obuf;
		s->avail_out = OBUF;
		ret = lzma_code(s, l->srceof ? LZMA_FINISH : LZMA_RUN);
		made = OBUF - s->avail_out;
		l->in += l->inlen - s->avail_in;
		l->inlen = s->avail_in;
		l->blk = l->obuf;
		l->blklen = made;
		if (ret == LZMA_STREAM_END)
			l->eof = 1;
		else if (ret != LZMA_OK)
			x_fail(l, ret);
		if (made > 0 || l->eof || l->zerr[0] != '\0')
			return (0);
	}
}

/* kl_src_next() for the liblzma xz stream up. */
static ssize_t
x_next(struct ictx *c, struct lvl *up, const uint8_t **pp, size_t max)
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
		if (up->zerr[0] != '\0' || (up->eof && up->srcfail)) {
			/* A broken source's cause came first. */
			if (up->zerr[0] != '\0')
				kl_src_cause_set(c,
				    up->zenomem ? KL_ENOMEM : KL_EFORMAT, 0,
				    "%s", up->zerr);
			up->hurt = 1;
			return (-1);
		}
		if (up->eof)
			return (0);
		if (x_fill(c, up) < 0) {
			up->hurt = 1;
			return (-1);
		}
	}
}

/*
 * The memory the decoder may use for threads: a quarter of the RAM (as
 * liblzma suggests), at most what libarchive's filter may use at all.
 */
static uint64_t
x_memlimit(void)
{
	uint64_t m;

	m = lzma_physmem() / 4;
	if (m == 0 || m > XZ_MEMSTOP)
		m = XZ_MEMSTOP;
	return (m);
}

/*
 * Set up l at slot k to decode its xz stream with liblzma on threads
 * cores (0: every online CPU): its threaded decoder on all but one,
 * or its plain decoder when that leaves one.
 */
struct lvl *
kl_xz_open(struct ictx *c, struct lvl *l, size_t k, unsigned threads)
{
	lzma_stream init = LZMA_STREAM_INIT;
	lzma_stream *s;
	lzma_mt mt = { 0 };
	lzma_ret ret;
	long n;

	if ((c->xst[k] == NULL &&
		(c->xst[k] = malloc(sizeof(lzma_stream))) == NULL) ||
	    (c->obuf[k] == NULL && (c->obuf[k] = malloc(OBUF)) == NULL)) {
		kl_src_cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	if (threads == 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n < 1 ? 1 : (unsigned)n;
	}
	/*
	 * One core stays with the scan, which is slower than the decoder:
	 * on two cores, decoder threads only took CPU from it (5.45 s
	 * against 4.49 s for 1 GiB, and 64 MB of RSS against 13).  One
	 * thread left: liblzma's decoder in this thread, no block buffers.
	 */
	threads = threads > 1 ? threads - 1 : 1;
	if (threads > XZ_THREADS_MAX)
		threads = XZ_THREADS_MAX;
	s = c->xst[k];
	*s = init;
	mt.flags = LZMA_CONCATENATED;
	mt.threads = threads;
	mt.timeout = 0;
	mt.memlimit_threading = x_memlimit();
	mt.memlimit_stop = XZ_MEMSTOP;
	if (threads == 1)
		ret = lzma_stream_decoder(s, XZ_MEMSTOP, LZMA_CONCATENATED);
	else
		ret = lzma_stream_decoder_mt(s, &mt);
	if (ret != LZMA_OK) {
		x_fail(l, ret);
		kl_src_cause_set(c, l->zenomem ? KL_ENOMEM : KL_EFORMAT, 0,
		    "%s", l->zerr);
		return (NULL);
	}
	l->xz = 1;
	l->ist = s;
	l->obuf = c->obuf[k];
	l->znext = x_next;
	return (l);
}

/* Free the decoder of l (its threads) if it has one. */
void
kl_xz_close(struct lvl *l)
{
	if (l->xz)
		lzma_end(l->ist);
	l->xz = 0;
}
#endif
