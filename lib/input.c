/*
 * input.c - read one input and hand the units in it to the caller.
 *
 * An input is a file or a pipe, read through its descriptor from where
 * it stands: never seeked (one exception: a 7z archive, which cannot be
 * read any other way, when the descriptor is a regular file), never read
 * whole into memory.  The first bytes of every stream (the input, an
 * archive member, the output of a decompressor) are read ahead into a
 * bounded prefix (PEEK_MAX, or PEEK_TEXT bytes without a NUL) and
 * handed on with the rest, so nothing is lost and pipes work.  The
 * prefix decides, by magic bytes and never by name:
 *
 *  - compression: gzip, bzip2, xz, lzma, zstd, lz4, compress (.Z): one
 *    libarchive reader with that one filter and the raw format; what
 *    comes out is a stream again (a tarball, or a log);
 *  - archive: tar (v7, ustar, pax, GNU), cpio (binary, odc, newc), zip,
 *    7z, ar, ISO 9660: one libarchive reader with that one format, no
 *    filter; every regular-file member is a stream again (directories,
 *    links without data, devices and the like are skipped);
 *  - anything else is a unit: kl_input_sniff() says what it holds.
 *
 * Plain input takes a fast path: read(2) in CHUNK pieces straight to the
 * data callback, no libarchive.  A nested stream is read by a reader
 * whose read callback pulls from archive_read_data() of the reader
 * above: streaming, no temporary files, one reader per level.
 *
 * Names.  A unit's member chain (outermost first) holds one name per
 * archive member it is in and, when a compressed stream holds the unit
 * itself, the name of that stream: the name in the gzip header, else
 * the base name of what was compressed with the compression suffix
 * dropped ("kern.log.2.gz" gives "kern.log.2").  A compressed archive
 * ("bundle.tar.xz") adds no name of its own: its members follow.  Names
 * are the archive's bytes, as they are.  unit.filter names the
 * compression of the innermost container: the unit's own compressed
 * stream, or the compression around the archive the unit is a member
 * of (xz for a member of bundle.tar.xz); NULL when there is none.
 *
 * Levels.  Every archive and every compressed stream opened is one
 * level, except that a compressed archive (a .tar.gz) is one level, not
 * two; max_depth bounds the levels around a unit (default 8, at most
 * KL_INPUT_DEPTH_MAX).  A stream that would need a deeper level is a
 * unit of its own that ends with a KL_ELIMIT error; the next member
 * follows.
 *
 * Callbacks.  Every begin() that returns 0 is followed by exactly one
 * end(), also after a callback asked to stop (that end's return is then
 * ignored); a begin() that returns non-zero begins nothing.  A binary
 * unit gets begin() and end() and no data, unless ops->flags has
 * KL_INPUT_ALL_DATA (the caller forces a format); with KL_INPUT_TOP_DATA
 * a binary input, or its decompressed stream, is a text unit (it was
 * named); a journal file (native
 * format) gets its data like text; a unit made to carry an error has
 * kind KL_UNIT_TEXT and no data.
 *
 * Limits (struct kl_limits, 0 means the default):
 *  - max_depth: 8 levels;
 *  - max_member: bytes of one unit inside a container; unlimited;
 *  - max_total: bytes expanded from one input; unlimited;
 *  - max_ratio: bytes expanded against the input's size (fstat; on a
 *    pipe, against the bytes read so far): 4000 to 1, and only once
 *    more than RATIO_FLOOR (64 MiB) were expanded, so that small files
 *    of any ratio pass.
 * Bytes expanded are the bytes of every unit (scanned or skipped) plus
 * what archive readers consumed beyond the members they handed out
 * (headers, padding, data they skipped): the work done, counted once,
 * checked continuously, also inside libarchive's read callbacks.  No
 * reader may hold more than AHEAD_MAX (64 MiB) read ahead and not yet
 * consumed (libarchive sizes some read-aheads from headers: a cpio name
 * "4 GiB long" inside a gzip stream would fill memory uncounted).
 * max_member stops that unit and the next member follows; max_total and
 * max_ratio stop the whole input.  Units never get more data than a
 * limit allows: the data stops at the limit exactly.
 *
 * Errors.  Each is reported exactly once: to end() of the unit it cut
 * short, after the data that could be read; a damaged container (a
 * broken header between members, a bad gzip CRC after the last member)
 * gets a unit of its own (its member chain, no data) whose end() says
 * so; only when no unit can carry an error (the input cannot be read at
 * all, a bad argument, no memory at the start) is it the -1 return.
 * Damage is KL_EFORMAT "NAME: broken at byte N: WHY", N counting the
 * unit's own bytes (for a container, its stream's), WHY starting with
 * the layer ("xz: ", "tar: "); limits are KL_ELIMIT; read errors KL_EIO.
 * Encrypted members ("NAME: zip: encrypted, no passphrase: not read")
 * and 7z archives that cannot be seeked are KL_EFORMAT too.  A
 * compressor in libarchive drops the output block it was filling when
 * its input breaks, so up to 64 KiB before a break in a compressed
 * stream may be missing (not for gzip inflated by ISA-L, which hands
 * out every byte it could inflate).  On a non-blocking descriptor,
 * EAGAIN ends the input (/dev/kmsg opened O_NONBLOCK).
 * libarchive leaves gzip CRCs unchecked: they are checked here (CRC-32
 * of the output against the last member's trailer, when its length
 * field matches the output length, so multi-member files never give a
 * false alarm below 4 GiB).
 *
 * gzip.  Built with ISA-L (HAVE_ISAL), a gzip stream is inflated by
 * isal_inflate() and not by libarchive: every member of a multi-member
 * stream is read and each one's CRC and length checked (by ISA-L; the
 * stored and computed values come from the trailer it took); the
 * messages are those of the libarchive path.  KLEAKSCAN_NO_ISAL in the
 * environment (a test hook) takes the libarchive path.
 *
 * xz.  Built with liblzma 5.4 or later (HAVE_LZMA_MT), an xz stream is
 * decoded by liblzma's threaded decoder (lzma_stream_decoder_mt()) and
 * not by libarchive: the blocks of a multi-block stream (what xz -T0
 * writes) are decoded on lim->threads - 1 threads (0: every online CPU),
 * leaving a core to the scan; when that is one, liblzma's plain decoder
 * runs in the reading thread (so does a stream of one block, or blocks
 * without sizes),
 * concatenated streams and padding read as xz -d reads them, with the
 * memory limit of libarchive's filter (1 GiB) and its messages.  Every
 * byte before damage is handed out.  KLEAKSCAN_NO_LZMA_MT in the
 * environment (a test hook) takes the libarchive path.
 *
 * Threads.  A compressed input or an archive is read on a producer
 * thread; the callbacks run on the caller's thread (see "The
 * pipeline" below).  KLEAKSCAN_NO_PIPELINE (a test hook) reads on the
 * caller's thread.
 *
 * Memory is bounded and flat: one CHUNK buffer, per level a prefix, a
 * read buffer and a name buffer, all kept for the whole input and
 * reused by every member (and ISA-L's state and an OBUF buffer per
 * gzip level); libarchive's own state is freed with each nested
 * reader; the pipeline's ring is NSLOT slots of SLOT bytes.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"
#include "kleak-int.h"
#include "input-int.h"

#define DEF_DEPTH	8
#define DEF_RATIO	4000

/* Free what c holds. */
static void
ctx_free(struct ictx *c)
{
	size_t i;

	for (i = 0; i < LVL_MAX; i++) {
		kl_arc_close(&c->lvl[i]);
		free(c->rbuf[i]);
		free(c->obuf[i]);
		free(c->ist[i]);
		free(c->xst[i]);
		free(c->dname[i]);
	}
	for (i = 0; i < LVL_MAX + 1; i++)
		free(c->pre[i]);
	free(c->chunk);
	free(c);
}

/*
 * Read the input of c (its prefix of n bytes read) through the
 * pipeline.  -1 when no thread could be started: read it here.
 */
static int
piped(struct ictx *c, size_t n)
{
	int r;

	if ((r = kl_pipe_run(c, n, kl_arc_stream_pre)) < 0)
		return (-1);
	if (r == 1) {
		c->stop = ST_CB;
		kl_src_cause_clear(c);
	} else if (r == 2) {
		c->stop = ST_NONE;
		kl_src_cause_clear(c);
		kl_src_cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
	}
	return (0);
}

/*
 * Read the input on fd (named name) and call ops for every unit in it.
 * Returns 0 when the input was read through (units may have ended with
 * errors: end() said so), 1 when a callback asked to stop, -1 when the
 * input could not be read at all (err says why).
 */
int
kl_input_fd(int fd, const char *name, const struct kl_limits *lim,
    const struct kl_input_ops *ops, struct kl_error *err)
{
	struct ictx *c;
	struct stat st;
	off_t off;
	size_t n;
	int code, nothread, ret;

	kl_error_clear(err);
	if (fd < 0 || ops == NULL || ops->begin == NULL || ops->data == NULL ||
	    ops->end == NULL) {
		kl_error_set(err, KL_EINVAL, EINVAL, "bad input arguments");
		return (-1);
	}
	if (lim != NULL && lim->max_depth > KL_INPUT_DEPTH_MAX) {
		kl_error_set(err, KL_EINVAL, EINVAL, "max_depth %u is above %u",
		    lim->max_depth, KL_INPUT_DEPTH_MAX);
		return (-1);
	}
	if (fstat(fd, &st) == -1) {
		kl_error_set(err, KL_EIO, errno, "%s", strerror(errno));
		return (-1);
	}
	if (S_ISDIR(st.st_mode)) {
		kl_error_set(err, KL_EIO, EISDIR, "%s", strerror(EISDIR));
		return (-1);
	}
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->chunk = malloc(CHUNK)) == NULL) {
		free(c);
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		return (-1);
	}
	c->fd = fd;
	c->path = name != NULL ? name : "-";
	/* A test hook: gzip through libarchive and zlib, as without ISA-L. */
	c->noisal = getenv("KLEAKSCAN_NO_ISAL") != NULL;
	/* A test hook: xz through libarchive, as without liblzma 5.4. */
	c->nolzmamt = getenv("KLEAKSCAN_NO_LZMA_MT") != NULL;
	c->xzthreads = lim != NULL ? lim->threads : 0;
	c->ops = ops;
	c->max_depth =
	    lim != NULL && lim->max_depth ? lim->max_depth : DEF_DEPTH;
	c->max_member =
	    lim != NULL && lim->max_member ? lim->max_member : UINT64_MAX;
	c->max_total =
	    lim != NULL && lim->max_total ? lim->max_total : UINT64_MAX;
	c->max_ratio =
	    lim != NULL && lim->max_ratio ? lim->max_ratio : DEF_RATIO;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		off = lseek(fd, 0, SEEK_CUR);
		if (off >= 0 && off <= st.st_size) {
			c->seekable = 1;
			c->base = off;
			c->disk = (uint64_t)(st.st_size - off);
		}
	}
	/* A test hook: no thread, as before the pipeline. */
	nothread = getenv("KLEAKSCAN_NO_PIPELINE") != NULL;
	if (kl_arc_fill(c, NULL, 0, &n) < 0)
		kl_arc_err_unit(c, NULL, NULL, 0);
	else if (n == 0 && c->cause.code != KL_EOK)
		; /* The input cannot be read at all: the -1 return says so. */
	else if (nothread ||
	    kl_sniff_container(c->pre[0], n, &code) == C_NONE ||
	    piped(c, n) < 0)
		(void)kl_arc_stream_pre(c, NULL, 0, n, 0, NULL, NULL);
	if (c->stop == ST_CB)
		ret = 1;
	else if (c->cause.code != KL_EOK) {
		if (err != NULL)
			*err = c->cause;
		ret = -1;
	} else
		ret = 0;
	ctx_free(c);
	return (ret);
}
