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
 * out every byte it could inflate).  On a non-blocking descriptor, EAGAIN ends the
 * input (/dev/kmsg opened O_NONBLOCK).
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
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define PEEK_MAX	(64u << 10)	/* prefix read ahead of a stream */
#define PEEK_TEXT	4096u		/* ...or this much without a NUL */
#define SNIFF_MAX	(64u << 10)	/* bytes kl_input_sniff() looks at */
#define NUL_BLOCK	32		/* NULs in a row that are padding */
#define CHUNK		(256u << 10)	/* data callback size */
#define RBUF		(128u << 10)	/* a reader's read buffer */
#define NAME_BUF	1024		/* a derived member name */
#define LVL_MAX		(2 * KL_INPUT_DEPTH_MAX + 2)
#define DEF_DEPTH	8
#define DEF_RATIO	4000
#define RATIO_FLOOR	(UINT64_C(64) << 20)
#define RETRY_MAX	4096		/* failed headers in a row */
#define AHEAD_MAX	(UINT64_C(64) << 20) /* read ahead by a reader */
#define OBUF		(256u << 10)	/* an ISA-L inflater's output */
#define SLOT		(1u << 20)	/* a slot of the pipeline's ring */
#define NSLOT		4		/* slots in the ring */

/* What a prefix starts. */
enum cont {
	C_NONE = 0,			/* a unit */
	C_FILTER,			/* a compressed stream */
	C_ARCHIVE,			/* an archive */
};

/* Why the input stops early. */
enum stop {
	ST_NONE = 0,
	ST_LIMIT,			/* max_total or max_ratio */
	ST_IO,				/* read(2) failed */
	ST_CB,				/* a callback asked to */
};

/* Where an ISA-L gzip inflater is in its stream. */
enum zstate {
	Z_MEMBER = 0,			/* inside a gzip member */
	Z_AFTER,			/* after a member */
	Z_PAD,				/* in zeros after the last member */
};

/* How a stream was delivered. */
enum sres {
	S_UNIT = 0,			/* as a unit, or an error unit */
	S_NESTED,			/* through a reader that finished */
};

struct ictx;
struct pipeline;

/* One libarchive reader, and the stream it reads. */
struct lvl {
	struct ictx	*c;
	struct archive	*a;
	struct lvl	*up;		/* reader it pulls from; NULL: fd */
	int		 filter;	/* a compression, not an archive */
	int		 code;		/* ARCHIVE_FILTER_* or _FORMAT_* */
	const char	*name;		/* "gzip", "tar" */
	const uint8_t	*pre;		/* the stream's prefix */
	size_t		 prelen;
	uint8_t		*rbuf;
	uint64_t	 pos;		/* bytes handed to libarchive */
	uint64_t	 out;		/* bytes libarchive handed out */
	uint64_t	 over;		/* consumed - out, counted */
	int		 eof;		/* output (of this entry) ended */
	int		 hurt;		/* reading the output failed */
	int		 seek;		/* 7z on a regular file */
	uint64_t	 fdpos;		/* fd offset, relative to base */
	int		 gz;		/* check the gzip trailer */
	int		 srceof;	/* the source said end of data */
	uint32_t	 crc;
	uint8_t		 tail[8];	/* last bytes of the source */
	size_t		 ntail;
	const uint8_t	*blk;		/* rest of the entry's data block */
	size_t		 blklen;
	uint64_t	 hole;		/* zeros due before blk (sparse) */
	uint64_t	 opos;		/* entry offset handed out */
	int		 warned;	/* the block came with a warning */
	const uint8_t	*lastp;		/* last block given to libarchive */
	size_t		 lastn;
	uint64_t	 gzsig;		/* gzip headers seen past byte 0 */
	uint8_t		 hist[2];	/* last two bytes given */
	int		 isal;		/* gzip inflated by ISA-L, no reader */
	void		*ist;		/* its struct inflate_state */
	uint8_t		*obuf;		/* its output buffer (OBUF) */
	const uint8_t	*in;		/* source bytes not inflated yet */
	size_t		 inlen;
	uint8_t		 carry[8];	/* bytes inflate gave back */
	const uint8_t	*savin;		/* the input to go on with after */
	size_t		 savinlen;
	enum zstate	 zs;
	uint64_t	 members;	/* gzip members begun */
	uint64_t	 mout;		/* output of the current member */
	char		 zerr[96];	/* damage due after the output */
};

/* The state of one kl_input_fd() call. */
struct ictx {
	int				 fd;
	const char			*path;
	const struct kl_input_ops	*ops;
	unsigned			 max_depth;
	uint64_t			 max_member;	/* UINT64_MAX: none */
	uint64_t			 max_total;
	uint64_t			 max_ratio;
	uint64_t			 disk;		/* st_size, 0: unknown */
	int				 seekable;
	int64_t				 base;		/* fd offset at start */
	uint64_t			 raw;		/* bytes read(2) */
	int				 fdeof;
	int				 fdfail;
	uint64_t			 expanded;
	enum stop			 stop;
	struct kl_error			 cause;		/* not reported yet */
	int				 whole;		/* cause has no offset */
	const char			*chain[LVL_MAX + 1];
	size_t				 nchain;
	uint8_t				*chunk;
	uint8_t				*pre[LVL_MAX + 1];
	uint8_t				*rbuf[LVL_MAX];
	uint8_t				*obuf[LVL_MAX];
	void				*ist[LVL_MAX];
	char				*dname[LVL_MAX];
	struct lvl			 lvl[LVL_MAX];
	int				 crcok;
	int				 noisal;	/* zlib for gzip */
	struct pipeline			*pl;		/* producer side */
	uint32_t			 crctab[8][256];
};
/* clang-format on */

static enum sres stream(
    struct ictx *, struct lvl *, size_t, unsigned, const char *, const char *);
static enum sres stream_pre(struct ictx *, struct lvl *, size_t, size_t,
    unsigned, const char *, const char *);
static int pl_stopped(struct ictx *);
static void pl_flush(struct ictx *);
static void cause_set(struct ictx *, enum kl_errcode, int, const char *, ...)
    KL_PRINTFLIKE(4, 5);
static void cause_whole(struct ictx *, const char *, ...) KL_PRINTFLIKE(2, 3);

/* Fill in the CRC-32 (IEEE 802.3, reflected) slicing-by-8 tables. */
static void
crc_init(uint32_t t[8][256])
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

/* Little-endian 32-bit value at p. */
static uint32_t
le32(const uint8_t *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

/* Little-endian 64-bit value at p. */
static uint64_t
le64(const uint8_t *p)
{
	return ((uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32);
}

/* Continue the CRC-32 crc over p[0..n). */
static uint32_t
crc_update(const uint32_t t[8][256], uint32_t crc, const uint8_t *p, size_t n)
{
	uint32_t a, b;

	crc = ~crc;
	while (n >= 8) {
		a = crc ^ le32(p);
		b = le32(p + 4);
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

/* Is b a journal field name byte ([A-Z0-9_])? */
static int
is_fieldc(uint8_t b)
{
	return ((b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_');
}

/*
 * Does b[0..n) start a journalctl -o export stream?  Either the first
 * line is "__CURSOR=", or every line of the first entry (up to a blank
 * line or the end of what is there) is a field: NAME=value, or NAME
 * alone followed by a little-endian 64-bit length, the data and a
 * newline; NAME of [A-Z0-9_], not starting with a digit, at most 64
 * bytes; and some field is MESSAGE or a trusted one (starting with _).
 */
static int
sniff_export(const uint8_t *b, size_t n)
{
	const uint8_t *nl;
	size_t i, j, fields;
	uint64_t len;
	int good;

	if (kl_startswith(b, n, KL_LIT("__CURSOR=")))
		return (1);
	i = 0;
	fields = 0;
	good = 0;
	while (i < n && b[i] != '\n') {
		for (j = i; j < n && j - i <= 64 && is_fieldc(b[j]); j++)
			;
		if (j == n)
			break; /* the prefix ends in a name */
		if (j == i || j - i > 64 || (b[i] >= '0' && b[i] <= '9'))
			return (0);
		if (j - i == 7 && memcmp(b + i, "MESSAGE", 7) == 0)
			good = 1;
		if (b[i] == '_')
			good = 1;
		fields++;
		if (b[j] == '=') {
			nl = memchr(b + j, '\n', n - j);
			if (nl == NULL)
				break;
			i = (size_t)(nl - b) + 1;
		} else if (b[j] == '\n') {
			if (n - j - 1 < 8)
				break;
			len = le64(b + j + 1);
			if (len >= n - j - 9)
				break; /* the prefix ends in the data */
			i = j + 9 + (size_t)len;
			if (b[i] != '\n')
				return (0);
			i++;
		} else
			return (0);
	}
	return (fields > 0 && good);
}

/*
 * Does b[0..n) start a journalctl -o json (or json-seq, json-pretty)
 * stream: a '{' first (after white space and an RS), and a "__CURSOR"
 * or "MESSAGE" key in what is there?
 */
static int
sniff_json(const uint8_t *b, size_t n)
{
	static const char *const keys[] = {"\"__CURSOR\"", "\"MESSAGE\""};
	const uint8_t *p, *end;
	size_t i, k, len;

	i = 0;
	while (i < n &&
	    (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n' ||
		b[i] == 0x1e))
		i++;
	if (i == n || b[i] != '{')
		return (0);
	end = b + n;
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		len = strlen(keys[k]);
		p = b + i;
		while ((p = kl_memmem(p, (size_t)(end - p), keys[k], len)) !=
		    NULL) {
			p += len;
			while (p < end &&
			    (*p == ' ' || *p == '\t' || *p == '\r' ||
				*p == '\n'))
				p++;
			if (p < end && *p == ':')
				return (1);
		}
	}
	return (0);
}

/* Length of the valid UTF-8 sequence at b[0..n), 0 if invalid or cut. */
static size_t
utf8_len(const uint8_t *b, size_t n)
{
	size_t k, i;

	if (b[0] >= 0xc2 && b[0] <= 0xdf)
		k = 2;
	else if (b[0] >= 0xe0 && b[0] <= 0xef)
		k = 3;
	else if (b[0] >= 0xf0 && b[0] <= 0xf4)
		k = 4;
	else
		return (0);
	if (n < k)
		return (0);
	for (i = 1; i < k; i++)
		if ((b[i] & 0xc0) != 0x80)
			return (0);
	return (k);
}

/* Are the eight bytes at p all printable ASCII (0x20 to 0x7e)? */
static inline int
printable8(const uint8_t *p)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t w, del;

	memcpy(&w, p, 8);
	/* A byte of 0x7f becomes zero; then find a byte below 0x20. */
	del = w ^ (0x7f * ones);
	return (((w | ((w - 0x20 * ones) & ~w) |
	    ((del - ones) & ~del)) & high) == 0);
}

/*
 * Is b[0..n) binary rather than text?  An ELF header is; otherwise the
 * evidence is counted over the first SNIFF_MAX bytes: one point per
 * control byte other than TAB, LF, VT, FF, CR and ESC (escape sequences
 * are text); one point per run of fewer than NUL_BLOCK NUL bytes, none
 * for a longer run (a log with a few NULs, or with a block of them from
 * an unclean shutdown, stays text; so does a stream of zeros, which
 * then meets the ratio limit if it is a bomb); a quarter point per
 * byte that is not valid UTF-8 (Latin-1 text stays text).  Binary when the
 * points pass 8% of the non-NUL bytes.  Real logs, crash dumps holding
 * some binary included, stay below 4%; executables, libraries, message
 * catalogs and compressed data are above 9%.
 */
static int
sniff_binary(const uint8_t *b, size_t n)
{
	uint64_t pts4, text;
	size_t i, k;
	uint8_t c;

	if (kl_startswith(b, n, KL_LIT("\177ELF")))
		return (1);
	if (n > SNIFF_MAX)
		n = SNIFF_MAX;
	pts4 = 0;
	text = 0;
	for (i = 0; i < n; i += k) {
		/* Eight printable ASCII bytes at a time, the common case. */
		if (n - i >= 8 && printable8(b + i)) {
			text += 8;
			k = 8;
			continue;
		}
		c = b[i];
		k = 1;
		if (c == 0) {
			while (i + k < n && b[i + k] == 0)
				k++;
			if (k < NUL_BLOCK)
				pts4 += 4;
			continue;
		}
		text++;
		if (c < 0x20) {
			if (c != '\t' && c != '\n' && c != '\v' && c != '\f' &&
			    c != '\r' && c != 0x1b)
				pts4 += 4;
		} else if (c == 0x7f)
			pts4 += 4;
		else if (c >= 0x80) {
			k = utf8_len(b + i, n - i);
			if (k == 0) {
				/* A sequence cut by the prefix end is no sign. */
				if (n - i >= 4)
					pts4++;
				k = 1;
			} else
				text += k - 1;
		}
	}
	return (pts4 * 25 > text * 8);
}

/* What the first bytes of a unit say it holds. */
enum kl_unit_kind
kl_input_sniff(const uint8_t *b, size_t n)
{
	if (b == NULL || n == 0)
		return (KL_UNIT_TEXT);
	if (kl_startswith(b, n, KL_LIT("LPKSHHRH")))
		return (KL_UNIT_JOURNAL);
	if (sniff_export(b, n))
		return (KL_UNIT_EXPORT);
	if (sniff_json(b, n))
		return (KL_UNIT_JSON);
	if (sniff_binary(b, n))
		return (KL_UNIT_BINARY);
	return (KL_UNIT_TEXT);
}

/* Is b[0..n) a tar header with a valid checksum (any variant)? */
static int
is_tar(const uint8_t *b, size_t n)
{
	uint64_t chk, usum;
	int64_t ssum;
	size_t i;
	int digits;

	if (n < 512 || b[0] == 0)
		return (0);
	i = 148;
	while (i < 156 && b[i] == ' ')
		i++;
	chk = 0;
	digits = 0;
	for (; i < 156 && b[i] >= '0' && b[i] <= '7'; i++) {
		chk = chk * 8 + (uint64_t)(b[i] - '0');
		digits++;
	}
	if (digits == 0)
		return (0);
	for (; i < 156; i++)
		if (b[i] != ' ' && b[i] != 0)
			return (0);
	usum = 8 * ' ';
	ssum = 8 * ' ';
	for (i = 0; i < 512; i++) {
		if (i >= 148 && i < 156)
			continue;
		usum += b[i];
		ssum += (int8_t)b[i];
	}
	return (chk == usum || (ssum >= 0 && chk == (uint64_t)ssum));
}

/* Are b[0..n) all characters of the set (octal or hex digits)? */
static int
all_digits(const uint8_t *b, size_t n, int hex)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i] >= '0' && b[i] <= '7')
			continue;
		if (hex &&
		    ((b[i] >= '8' && b[i] <= '9') ||
			(b[i] >= 'a' && b[i] <= 'f') ||
			(b[i] >= 'A' && b[i] <= 'F')))
			continue;
		return (0);
	}
	return (1);
}

/* Is b[0..n) a cpio header: odc, newc/crc, or binary of either order? */
static int
is_cpio(const uint8_t *b, size_t n)
{
	size_t ns;

	if (n >= 76 && memcmp(b, "070707", 6) == 0)
		return (all_digits(b + 6, 70, 0));
	if (n >= 110 &&
	    (memcmp(b, "070701", 6) == 0 || memcmp(b, "070702", 6) == 0))
		return (all_digits(b + 6, 104, 1));
	if (n >= 26 &&
	    ((b[0] == 0xc7 && b[1] == 0x71) ||
		(b[0] == 0x71 && b[1] == 0xc7))) {
		ns = b[0] == 0xc7 ? (size_t)(b[20] | b[21] << 8)
				  : (size_t)(b[20] << 8 | b[21]);
		return (ns > 0 && 26 + ns <= n && b[26 + ns - 1] == 0);
	}
	return (0);
}

/* Is b[0..n) an lzma_alone header (as xz-utils and the LZMA SDK write)? */
static int
is_lzma(const uint8_t *b, size_t n)
{
	uint32_t d;
	uint64_t size;
	int k;

	if (n < 14 || b[0] > (4 * 5 + 4) * 9 + 8 || b[13] != 0)
		return (0);
	d = le32(b + 1);
	size = le64(b + 5);
	if (size != UINT64_MAX && size > (UINT64_C(1) << 48))
		return (0);
	for (k = 12; k <= 30; k++)
		if (d == (UINT32_C(1) << k) ||
		    d == (UINT32_C(1) << k) + (UINT32_C(1) << (k - 1)))
			return (1);
	return (0);
}

/* What b[0..n), the start of a stream, is; *code the libarchive code. */
static enum cont
container(const uint8_t *b, size_t n, int *code)
{
	static const uint8_t xz[] = {0xfd, '7', 'z', 'X', 'Z', 0};
	static const uint8_t zst[] = {0x28, 0xb5, 0x2f, 0xfd};
	static const uint8_t lz4[] = {0x04, 0x22, 0x4d, 0x18};
	static const uint8_t lz4l[] = {0x02, 0x21, 0x4c, 0x18};
	static const uint8_t sz[] = {'7', 'z', 0xbc, 0xaf, 0x27, 0x1c};

	*code = 0;
	if (n >= 4 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8 &&
	    (b[3] & 0xe0) == 0) {
		*code = ARCHIVE_FILTER_GZIP;
		return (C_FILTER);
	}
	if (n >= 3 && b[0] == 0x1f && b[1] == 0x9d && (b[2] & 0x60) == 0 &&
	    (b[2] & 0x1f) >= 9 && (b[2] & 0x1f) <= 16) {
		*code = ARCHIVE_FILTER_COMPRESS;
		return (C_FILTER);
	}
	if (n >= 10 && memcmp(b, "BZh", 3) == 0 && b[3] >= '1' && b[3] <= '9' &&
	    (memcmp(b + 4, "1AY&SY", 6) == 0 ||
		memcmp(b + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0)) {
		*code = ARCHIVE_FILTER_BZIP2;
		return (C_FILTER);
	}
	if (n >= sizeof(xz) && memcmp(b, xz, sizeof(xz)) == 0) {
		*code = ARCHIVE_FILTER_XZ;
		return (C_FILTER);
	}
	if (n >= 4 && memcmp(b, zst, 4) == 0) {
		*code = ARCHIVE_FILTER_ZSTD;
		return (C_FILTER);
	}
	if (n >= 4 && (memcmp(b, lz4, 4) == 0 || memcmp(b, lz4l, 4) == 0)) {
		*code = ARCHIVE_FILTER_LZ4;
		return (C_FILTER);
	}
	if (is_lzma(b, n)) {
		*code = ARCHIVE_FILTER_LZMA;
		return (C_FILTER);
	}
	if (n >= 8 && b[0] == 'P' && b[1] == 'K' &&
	    ((b[2] == 3 && b[3] == 4) || (b[2] == 5 && b[3] == 6) ||
		(((b[2] == 7 && b[3] == 8) || (b[2] == '0' && b[3] == '0')) &&
		    memcmp(b + 4, "PK\003\004", 4) == 0))) {
		*code = ARCHIVE_FORMAT_ZIP;
		return (C_ARCHIVE);
	}
	if (n >= sizeof(sz) && memcmp(b, sz, sizeof(sz)) == 0) {
		*code = ARCHIVE_FORMAT_7ZIP;
		return (C_ARCHIVE);
	}
	if (n >= 8 && memcmp(b, "!<arch>\n", 8) == 0) {
		*code = ARCHIVE_FORMAT_AR;
		return (C_ARCHIVE);
	}
	if (is_cpio(b, n)) {
		*code = ARCHIVE_FORMAT_CPIO;
		return (C_ARCHIVE);
	}
	if (is_tar(b, n)) {
		*code = ARCHIVE_FORMAT_TAR;
		return (C_ARCHIVE);
	}
	if (n >= 32774 && memcmp(b + 32769, "CD001", 5) == 0) {
		*code = ARCHIVE_FORMAT_ISO9660;
		return (C_ARCHIVE);
	}
	return (C_NONE);
}

/*
 * What b[0..n), the start of a stream, is, as the input layer decides
 * it: 1 and *filter_code an ARCHIVE_FILTER_* for a compressed stream,
 * 2 and *format_code an ARCHIVE_FORMAT_* for an archive, 0 for neither.
 */
int
kl_input_container(const uint8_t *b, size_t n, int *filter_code,
    int *format_code)
{
	enum cont kind;
	int code;

	kind = container(b, n, &code);
	*filter_code = kind == C_FILTER ? code : 0;
	*format_code = kind == C_ARCHIVE ? code : 0;
	return (kind == C_FILTER ? 1 : kind == C_ARCHIVE ? 2 : 0);
}

/*
 * The name of a libarchive filter (filter non-zero) or format code, as
 * units and messages give it: "gzip", "xz", "tar", "zip", ...
 */
const char *
kl_input_code_name(int filter, int code)
{
	if (filter) {
		switch (code) {
		case ARCHIVE_FILTER_GZIP:
			return ("gzip");
		case ARCHIVE_FILTER_BZIP2:
			return ("bzip2");
		case ARCHIVE_FILTER_COMPRESS:
			return ("compress");
		case ARCHIVE_FILTER_LZMA:
			return ("lzma");
		case ARCHIVE_FILTER_XZ:
			return ("xz");
		case ARCHIVE_FILTER_LZ4:
			return ("lz4");
		case ARCHIVE_FILTER_ZSTD:
			return ("zstd");
		}
		return ("filter");
	}
	switch (code) {
	case ARCHIVE_FORMAT_TAR:
		return ("tar");
	case ARCHIVE_FORMAT_CPIO:
		return ("cpio");
	case ARCHIVE_FORMAT_ZIP:
		return ("zip");
	case ARCHIVE_FORMAT_7ZIP:
		return ("7z");
	case ARCHIVE_FORMAT_AR:
		return ("ar");
	case ARCHIVE_FORMAT_ISO9660:
		return ("iso9660");
	}
	return ("archive");
}

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

/* Record the first error of the input; later ones only follow from it. */
static void
cause_set(
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
static void
cause_whole(struct ictx *c, const char *fmt, ...)
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
static void
cause_clear(struct ictx *c)
{
	kl_error_clear(&c->cause);
	c->whole = 0;
}

/* Record libarchive's error on l as the cause. */
static void
cause_ar(struct ictx *c, struct lvl *l)
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
		cause_set(
		    c, e == ENOMEM ? KL_ENOMEM : KL_EFORMAT, 0, "%s", buf);
		return;
	}
	cause_set(
	    c, e == ENOMEM ? KL_ENOMEM : KL_EFORMAT, 0, "%s: %s", l->name, buf);
}

/* The name to show for the innermost member, or the input. */
static const char *
inner_name(const struct ictx *c)
{
	return (c->nchain > 0 ? c->chain[c->nchain - 1] : c->path);
}

/* Turn the pending cause into the error of a unit, off bytes into it. */
static void
take_cause(struct ictx *c, uint64_t off, struct kl_error *e)
{
	char nm[96];
	const char *name;

	*e = c->cause;
	if (c->cause.code == KL_EFORMAT) {
		name = inner_name(c);
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
	cause_clear(c);
}

/* The most the input may still expand before max_total or max_ratio. */
static uint64_t
room(const struct ictx *c, int *ratio)
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
static void
trip(struct ictx *c, int ratio)
{
	uint64_t denom;

	denom = c->disk > c->raw ? c->disk : c->raw;
	if (ratio)
		cause_set(c, KL_ELIMIT, 0,
		    "ratio limit reached: %" PRIu64
		    " bytes expanded from %" PRIu64 " (max_ratio %" PRIu64
		    " to 1)",
		    c->expanded, denom, c->max_ratio);
	else
		cause_set(c, KL_ELIMIT, 0,
		    "total size limit reached: %" PRIu64
		    " bytes expanded (max_total %" PRIu64 ")",
		    c->expanded, c->max_total);
	c->stop = ST_LIMIT;
}

/* Count d more bytes expanded outside units; -1 when a limit is hit. */
static int
grow(struct ictx *c, uint64_t d)
{
	uint64_t left;
	int ratio;

	left = room(c, &ratio);
	if (d > left) {
		c->expanded += left;
		trip(c, ratio);
		return (-1);
	}
	c->expanded += d;
	return (0);
}

/*
 * Bring an archive reader's overhead up to date: what its format took
 * from the source (not what was read ahead) beyond what it handed out.
 */
static int
over_update(struct ictx *c, struct lvl *l)
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
	return (grow(c, o));
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
		pl_flush(c);
	do
		r = read(c->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		r = 0;
	if (r < 0) {
		cause_set(c, KL_EIO, errno,
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
static int
all_zero(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return (0);
	return (1);
}

static ssize_t src_next(
    struct ictx *, struct lvl *, const uint8_t **, uint8_t *, size_t, size_t);
#ifdef HAVE_ISAL
static ssize_t z_next(struct ictx *, struct lvl *, const uint8_t **, size_t);
#endif

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
		if (!all_zero(l->lastp + l->lastn - left, (size_t)left))
			return (1);
		t = 2;
	}
	while (!l->srceof) {
		r = src_next(c, l->up, &p, l->rbuf, RBUF, SIZE_MAX);
		if (r < 0)
			return (-1);
		if (r == 0)
			break;
		if (!all_zero(p, (size_t)r))
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
		cause_set(c, KL_EFORMAT, 0,
		    "gzip: data after the end of the compressed stream");
		l->hurt = 1;
		return (-1);
	}
	/* After padding, where the trailer was is not known. */
	if (t == 2 || l->ntail < 8)
		return (0);
	want = le32(l->tail);
	len = le32(l->tail + 4);
	if (len == (uint32_t)l->out && want != l->crc)
		cause_set(c, KL_EFORMAT, 0,
		    "gzip: crc mismatch (stored %08" PRIx32
		    ", computed %08" PRIx32 ")",
		    want, l->crc);
	else if (len != (uint32_t)l->out && l->gzsig == 0)
		cause_set(c, KL_EFORMAT, 0,
		    "gzip: length mismatch (stored %" PRIu32 ", got %" PRIu32
		    ")",
		    len, (uint32_t)l->out);
	else
		return (0);
	l->hurt = 1;
	return (-1);
}

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
 * The next bytes of a stream, at most max: of the input when up is NULL
 * (read into scratch), else of the entry up is on (libarchive's own
 * block, or zeros in scratch for a sparse hole), so that every byte
 * before a break is handed out.  *pp points at them; 0 at the end, -1
 * on error (the cause is set).
 */
static ssize_t
src_next(struct ictx *c, struct lvl *up, const uint8_t **pp, uint8_t *scratch,
    size_t ssz, size_t max)
{
	const void *b;
	la_int64_t off;
	size_t len, n;
	int r;

	*pp = scratch;
	if (max > SSIZE_MAX)
		max = SSIZE_MAX;
	if (c->pl != NULL && pl_stopped(c)) {
		c->stop = ST_CB;
		return (-1);
	}
	if (up == NULL)
		return (fd_read(c, scratch, ssz < max ? ssz : max));
#ifdef HAVE_ISAL
	if (up->isal)
		return (z_next(c, up, pp, max));
#endif
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
			cause_ar(c, up);
			return (-1);
		}
		if (r == ARCHIVE_WARN) {
			/* The data is good, what follows is not (zip CRC). */
			up->warned = 1;
			up->hurt = 1;
			cause_ar(c, up);
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
		(void)over_update(c, up);
	return ((ssize_t)n);
}

/* Keep the last eight bytes a gzip reader was given. */
static void
tail_keep(struct lvl *l, const uint8_t *p, size_t n)
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

#ifdef HAVE_ISAL
/*
 * The next source bytes of the ISA-L gzip stream l: the prefix again,
 * then the source.  0 at its end (l->srceof), -1 on error.
 */
static int
z_input(struct ictx *c, struct lvl *l)
{
	const uint8_t *p;
	ssize_t r;

	if (l->pos < l->prelen) {
		l->in = l->pre + l->pos;
		l->inlen = l->prelen - (size_t)l->pos;
	} else {
		r = src_next(c, l->up, &p, l->rbuf, RBUF, SIZE_MAX);
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
		want = le32(l->tail);
		len = le32(l->tail + 4);
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
		z_damage(l, "gzip: data after the end of the compressed stream");
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
		if (l->inlen == 0 && !l->srceof && z_input(c, l) < 0)
			return (-1);
		if (l->zs == Z_PAD) {
			if (!all_zero(l->in, l->inlen)) {
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
			tail_keep(l, l->in, used);
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

/* src_next() for the ISA-L gzip stream up. */
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
			cause_set(c, KL_EFORMAT, 0, "%s", up->zerr);
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
#endif

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
	cause_set(c, KL_EFORMAT, 0,
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
				cause_set(c, KL_EIO, errno, "seek error: %s",
				    strerror(errno));
				c->stop = ST_IO;
				return (ARCHIVE_FATAL);
			}
			l->fdpos = l->pos;
			c->fdeof = 0;
		}
		r = src_next(c, l->up, &p, l->rbuf, RBUF, SIZE_MAX);
		if (r < 0)
			return (ARCHIVE_FATAL);
		if (r == 0)
			l->srceof = 1;
		*bufp = p;
		l->fdpos += (uint64_t)r;
	}
	if (l->gz && r > 0) {
		tail_keep(l, *bufp, (size_t)r);
		gz_sigs(l, *bufp, (size_t)r);
	}
	if (r > 0) {
		l->lastp = *bufp;
		l->lastn = (size_t)r;
	}
	l->pos += (uint64_t)r;
	if (!l->seek && ahead(c, l) < 0)
		return (ARCHIVE_FATAL);
	if (!l->filter && over_update(c, l) < 0)
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
static void
err_unit(struct ictx *c, const char *pending, const char *filter, uint64_t off)
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
		take_cause(c, off, &e);
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

	left = room(c, &ratio);
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
		cause_set(c, KL_ELIMIT, 0,
		    "member size limit reached: more than %" PRIu64
		    " bytes (max_member)",
		    c->max_member);
	else
		trip(c, ratio);
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
		r = src_next(c, up, &p, c->chunk, CHUNK, SIZE_MAX);
		if (r <= 0)
			break;
		n = (size_t)r;
	}
	if (c->stop == ST_CB) {
		cause_clear(c);
		(void)c->ops->end(c->ops->arg, &u, NULL);
	} else if (c->cause.code != KL_EOK) {
		take_cause(c, done, &e);
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
static int
fill(struct ictx *c, struct lvl *up, size_t k, size_t *np)
{
	const uint8_t *p;
	size_t n;
	ssize_t r;

	*np = 0;
	if (c->pre[k] == NULL && (c->pre[k] = malloc(PEEK_MAX)) == NULL) {
		cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
		return (-1);
	}
	n = 0;
	while (n < PEEK_MAX) {
		r = src_next(
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

/* Set up l at slot k to inflate its gzip stream with ISA-L. */
static struct lvl *
z_open(struct ictx *c, struct lvl *l, size_t k)
{
	struct inflate_state *s;

	if ((c->ist[k] == NULL &&
		(c->ist[k] = malloc(sizeof(struct inflate_state))) == NULL) ||
	    (c->obuf[k] == NULL && (c->obuf[k] = malloc(OBUF)) == NULL)) {
		cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	s = c->ist[k];
	isal_inflate_init(s);
	s->crc_flag = ISAL_GZIP;
	l->isal = 1;
	l->ist = s;
	l->obuf = c->obuf[k];
	l->members = 1;
	return (l);
}
#else
#define ISAL_GZ(c, l) 0
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
	    (!ISAL_GZ(c, l) && (l->a = archive_read_new()) == NULL)) {
		cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	l->rbuf = c->rbuf[k];
#ifdef HAVE_ISAL
	if (l->filter && code == ARCHIVE_FILTER_GZIP && !c->noisal)
		return (z_open(c, l, k));
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
				crc_init(c->crctab);
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
		cause_ar(c, l);
		archive_read_free(l->a);
		l->a = NULL;
		return (NULL);
	}
	return (l);
}

/* Free the reader of l. */
static void
lvl_close(struct lvl *l)
{
	if (l->a != NULL)
		archive_read_free(l->a);
	l->a = NULL;
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

	while ((r = src_next(c, l, &p, c->chunk, CHUNK, SIZE_MAX)) > 0)
		if (grow(c, (uint64_t)r) < 0)
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

	parent = pending != NULL ? pending : inner_name(c);
	r = l->isal ? ARCHIVE_OK : archive_read_next_header(l->a, &e);
	if (r == ARCHIVE_EOF)
		l->eof = 1;
	else if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
		cause_ar(c, l);
		err_unit(c, derive(c, l, k, parent), l->name, 0);
		return;
	}
	name = derive(c, l, k, parent);
	if (stream(c, l, k + 1, depth, name, l->name) != S_NESTED ||
	    c->stop != ST_NONE || l->hurt)
		return;
	if (drain(c, l) < 0)
		err_unit(c, NULL, l->name, l->out);
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
			err_unit(c, NULL, filter, hdr_off(l));
			break;
		}
		if (r == ARCHIVE_EOF)
			break;
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			if (l->hurt) {
				/* Reported on the member it broke. */
				cause_clear(c);
				break;
			}
			/* Damage is reported where it starts, not per retry. */
			cause_ar(c, l);
			if (fails++ == 0)
				err_unit(c, NULL, filter, hdr_off(l));
			else
				cause_clear(c);
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
			cause_whole(c, "%s: encrypted, no passphrase: not read",
			    l->name);
			err_unit(c, NULL, filter, 0);
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

	if (fill(c, up, k, &n) < 0) {
		err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	/* The input cannot be read at all: the -1 return says so. */
	if (k == 0 && n == 0 && c->cause.code != KL_EOK)
		return (S_UNIT);
	return (stream_pre(c, up, k, n, depth, pending, filter));
}

/* stream(), its prefix of n bytes read. */
static enum sres
stream_pre(struct ictx *c, struct lvl *up, size_t k, size_t n,
    unsigned depth, const char *pending, const char *filter)
{
	struct lvl *l;
	enum cont kind;
	unsigned nd;
	int code;

	kind = container(c->pre[k], n, &code);
	if (kind == C_NONE) {
		leaf(c, up, k, n, pending, filter);
		return (S_UNIT);
	}
	/* A compressed archive is one level. */
	nd = kind == C_ARCHIVE && up != NULL && up->filter ? depth : depth + 1;
	if (nd > c->max_depth || k >= LVL_MAX) {
		cause_set(c, KL_ELIMIT, 0,
		    "nesting limit reached: more than %u levels (max_depth)",
		    c->max_depth);
		err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	if (kind == C_ARCHIVE && code == ARCHIVE_FORMAT_7ZIP &&
	    (up != NULL || !c->seekable)) {
		cause_whole(c,
		    "7z: needs seeking, cannot be read from a "
		    "pipe or inside another archive");
		err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	l = lvl_open(c, up, k, n, kind, code);
	if (l == NULL && kind == C_FILTER) {
		/* Broken from the start: the unit it would have been. */
		l = &c->lvl[k];
		err_unit(c, derive(c, l, k, pending ? pending : inner_name(c)),
		    l->name, 0);
		return (S_UNIT);
	}
	if (l == NULL) {
		err_unit(c, pending, filter, 0);
		return (S_UNIT);
	}
	if (l->filter)
		run_filter(c, l, k, nd, pending);
	else
		run_archive(c, l, k, nd);
	lvl_close(l);
	return (S_NESTED);
}

/*
 * The pipeline.  A compressed input or an archive is read, decompressed
 * and split into units on a producer thread, while the caller's thread
 * runs the callbacks: the producer's callbacks are the rec_*() below,
 * which append records (begin, data, end) to the slots of a small ring;
 * the caller's thread plays them in order through the caller's ops.
 * Every callback is thus called on the caller's thread, in the same
 * order, with the same bytes (data may come in other pieces).  When a
 * callback asks to stop, the consumer ends the unit as the producer
 * would have (end() after data(), nothing after begin()), tells the
 * producer to stop and drops what it sends from then on.
 */
enum rtype {
	R_BEGIN = 1,
	R_DATA,
	R_END,
};

/* A unit as the caller's thread gets it: a copy of the producer's. */
struct punit {
	struct kl_unit	 u;
	const char	*members[LVL_MAX + 1];
	char		 names[];	/* the names, NUL-terminated */
};

/* A record in a slot; data follows a R_DATA record, padded. */
struct rhdr {
	int		 type;
	size_t		 len;		/* data bytes */
	struct punit	*pu;		/* R_BEGIN */
	struct kl_error	 err;		/* R_END */
	int		 haserr;
};

/* The ring between the producer and the caller's thread. */
struct pipeline {
	pthread_mutex_t			 mu;
	pthread_cond_t			 nonempty;
	pthread_cond_t			 nonfull;
	uint8_t				*slot[NSLOT];
	size_t				 fill[NSLOT];	/* bytes of records */
	unsigned			 head;		/* next to play */
	unsigned			 count;		/* slots published */
	int				 done;		/* producer finished */
	atomic_int			 cancel;	/* consumer stopped */
	int				 nomem;
	unsigned			 cur;		/* slot being filled */
	const struct kl_input_ops	*ops;		/* the caller's */
	struct kl_input_ops		 rops;		/* the rec_*() */
	struct ictx			*c;
	size_t				 n;		/* the prefix */
};

/* Round n up to the alignment of a record header. */
static size_t
ralign(size_t n)
{
	return ((n + _Alignof(struct rhdr) - 1) &
	    ~(size_t)(_Alignof(struct rhdr) - 1));
}

/* Hand the slot being filled to the consumer; wait for a free one. */
static void
pl_publish(struct pipeline *pl)
{
	pthread_mutex_lock(&pl->mu);
	pl->count++;
	pthread_cond_signal(&pl->nonempty);
	while (pl->count == NSLOT)
		pthread_cond_wait(&pl->nonfull, &pl->mu);
	pthread_mutex_unlock(&pl->mu);
	pl->cur = (pl->cur + 1) % NSLOT;
	pl->fill[pl->cur] = 0;
}

/*
 * Room for a record with len data bytes (at least want of them) in the
 * slot being filled: the address of its header.
 */
static struct rhdr *
pl_room(struct pipeline *pl, size_t want)
{
	size_t need;

	need = ralign(sizeof(struct rhdr)) + ralign(want);
	if (pl->fill[pl->cur] + need > SLOT)
		pl_publish(pl);
	return ((struct rhdr *)(void *)(pl->slot[pl->cur] + pl->fill[pl->cur]));
}

/* Append a record without data. */
static int
pl_put(struct pipeline *pl, const struct rhdr *h)
{
	struct rhdr *d;

	d = pl_room(pl, 0);
	*d = *h;
	pl->fill[pl->cur] += ralign(sizeof(struct rhdr));
	return (atomic_load(&pl->cancel));
}

/* Producer begin(): copy the unit, names and all. */
static int
rec_begin(void *arg, const struct kl_unit *u)
{
	struct pipeline *pl = arg;
	struct punit *pu;
	struct rhdr h;
	size_t i, len, tot, o;

	if (atomic_load(&pl->cancel))
		return (1);
	tot = 0;
	for (i = 0; i < u->nmembers; i++)
		if (kl_add(tot, strlen(u->members[i]) + 1, &tot) < 0)
			return (pl->nomem = 1);
	if (kl_add(tot, sizeof(*pu), &tot) < 0 || (pu = malloc(tot)) == NULL)
		return (pl->nomem = 1);
	pu->u = *u;
	pu->u.members = pu->members;
	o = 0;
	for (i = 0; i < u->nmembers; i++) {
		len = strlen(u->members[i]) + 1;
		memcpy(pu->names + o, u->members[i], len);
		pu->members[i] = pu->names + o;
		o += len;
	}
	memset(&h, 0, sizeof(h));
	h.type = R_BEGIN;
	h.pu = pu;
	return (pl_put(pl, &h));
}

/* Producer data(): copy the bytes, in pieces that fit the slots. */
static int
rec_data(void *arg, const struct kl_unit *u, const void *p, size_t n)
{
	struct pipeline *pl = arg;
	struct rhdr *d;
	size_t take, room;

	(void)u;
	while (n > 0) {
		if (atomic_load(&pl->cancel))
			return (1);
		d = pl_room(pl, n < 4096 ? n : 4096);
		room = SLOT - pl->fill[pl->cur] - ralign(sizeof(struct rhdr));
		take = n < room ? n : room;
		memset(d, 0, sizeof(*d));
		d->type = R_DATA;
		d->len = take;
		memcpy((uint8_t *)d + ralign(sizeof(struct rhdr)), p, take);
		pl->fill[pl->cur] += ralign(sizeof(struct rhdr)) + ralign(take);
		p = (const uint8_t *)p + take;
		n -= take;
	}
	return (atomic_load(&pl->cancel));
}

/* Producer end(). */
static int
rec_end(void *arg, const struct kl_unit *u, const struct kl_error *e)
{
	struct pipeline *pl = arg;
	struct rhdr h;

	(void)u;
	memset(&h, 0, sizeof(h));
	h.type = R_END;
	if (e != NULL) {
		h.err = *e;
		h.haserr = 1;
	}
	return (pl_put(pl, &h));
}

/* The producer thread: the input, from its prefix on. */
static void *
producer(void *arg)
{
	struct pipeline *pl = arg;

	(void)stream_pre(pl->c, NULL, 0, pl->n, 0, NULL, NULL);
	pthread_mutex_lock(&pl->mu);
	if (pl->fill[pl->cur] > 0)
		pl->count++;
	pl->done = 1;
	pthread_cond_signal(&pl->nonempty);
	pthread_mutex_unlock(&pl->mu);
	return (NULL);
}

/*
 * Play the records of slot b[0..n) through the caller's ops; *cur is the
 * unit begun.  Returns 1 once a callback asked to stop (*stopped).
 */
static void
pl_play(struct pipeline *pl, const uint8_t *b, size_t n, struct punit **cur,
    int *stopped)
{
	const struct kl_input_ops *ops = pl->ops;
	const struct rhdr *h;
	size_t o;

	for (o = 0; o < n;) {
		h = (const struct rhdr *)(const void *)(b + o);
		o += ralign(sizeof(struct rhdr));
		switch (h->type) {
		case R_BEGIN:
			free(*cur);
			*cur = h->pu;
			if (*stopped)
				break;
			if (ops->begin(ops->arg, &(*cur)->u) != 0) {
				*stopped = 1;
				free(*cur);
				*cur = NULL;
			}
			break;
		case R_DATA:
			o += ralign(h->len);
			if (*stopped || *cur == NULL)
				break;
			if (ops->data(ops->arg, &(*cur)->u,
				b + o - ralign(h->len), h->len) != 0) {
				*stopped = 1;
				(void)ops->end(ops->arg, &(*cur)->u, NULL);
				free(*cur);
				*cur = NULL;
			}
			break;
		case R_END:
			if (!*stopped && *cur != NULL &&
			    ops->end(ops->arg, &(*cur)->u,
				h->haserr ? &h->err : NULL) != 0)
				*stopped = 1;
			free(*cur);
			*cur = NULL;
			break;
		}
	}
}

/*
 * Read the input of c (its prefix of n bytes read) through the
 * pipeline.  -1 when no thread could be started: read it here.
 */
static int
piped(struct ictx *c, size_t n)
{
	struct pipeline *pl;
	struct punit *cur;
	sigset_t all, old;
	pthread_t t;
	unsigned i;
	int stopped, r;

	if ((pl = calloc(1, sizeof(*pl))) == NULL)
		return (-1);
	for (i = 0; i < NSLOT; i++)
		if ((pl->slot[i] = malloc(SLOT)) == NULL)
			goto fail;
	if (pthread_mutex_init(&pl->mu, NULL) != 0)
		goto fail;
	if (pthread_cond_init(&pl->nonempty, NULL) != 0) {
		pthread_mutex_destroy(&pl->mu);
		goto fail;
	}
	if (pthread_cond_init(&pl->nonfull, NULL) != 0) {
		pthread_cond_destroy(&pl->nonempty);
		pthread_mutex_destroy(&pl->mu);
		goto fail;
	}
	atomic_init(&pl->cancel, 0);
	pl->ops = c->ops;
	pl->rops.arg = pl;
	pl->rops.begin = rec_begin;
	pl->rops.data = rec_data;
	pl->rops.end = rec_end;
	pl->rops.flags = c->ops->flags;
	pl->c = c;
	pl->n = n;
	c->ops = &pl->rops;
	c->pl = pl;
	/* Signals are the caller's thread's business. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&t, NULL, producer, pl);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		c->ops = pl->ops;
		c->pl = NULL;
		pthread_cond_destroy(&pl->nonfull);
		pthread_cond_destroy(&pl->nonempty);
		pthread_mutex_destroy(&pl->mu);
		goto fail;
	}
	cur = NULL;
	stopped = 0;
	pthread_mutex_lock(&pl->mu);
	for (;;) {
		while (pl->count == 0 && !pl->done)
			pthread_cond_wait(&pl->nonempty, &pl->mu);
		if (pl->count == 0)
			break;
		pthread_mutex_unlock(&pl->mu);
		pl_play(pl, pl->slot[pl->head], pl->fill[pl->head], &cur,
		    &stopped);
		if (stopped)
			atomic_store(&pl->cancel, 1);
		pthread_mutex_lock(&pl->mu);
		pl->head = (pl->head + 1) % NSLOT;
		pl->count--;
		pthread_cond_signal(&pl->nonfull);
	}
	pthread_mutex_unlock(&pl->mu);
	pthread_join(t, NULL);
	free(cur);
	c->ops = pl->ops;
	c->pl = NULL;
	if (stopped) {
		c->stop = ST_CB;
		cause_clear(c);
	} else if (pl->nomem) {
		c->stop = ST_NONE;
		cause_clear(c);
		cause_set(c, KL_ENOMEM, ENOMEM, "out of memory");
	}
	pthread_cond_destroy(&pl->nonfull);
	pthread_cond_destroy(&pl->nonempty);
	pthread_mutex_destroy(&pl->mu);
	for (i = 0; i < NSLOT; i++)
		free(pl->slot[i]);
	free(pl);
	return (0);
fail:
	for (i = 0; i < NSLOT; i++)
		free(pl->slot[i]);
	free(pl);
	return (-1);
}

/* Has the caller's thread stopped the producer of c? */
static int
pl_stopped(struct ictx *c)
{
	return (atomic_load(&c->pl->cancel));
}

/* Hand what the producer of c has to the caller's thread now. */
static void
pl_flush(struct ictx *c)
{
	if (c->pl->fill[c->pl->cur] > 0)
		pl_publish(c->pl);
}

/* Free what c holds. */
static void
ctx_free(struct ictx *c)
{
	size_t i;

	for (i = 0; i < LVL_MAX; i++) {
		lvl_close(&c->lvl[i]);
		free(c->rbuf[i]);
		free(c->obuf[i]);
		free(c->ist[i]);
		free(c->dname[i]);
	}
	for (i = 0; i < LVL_MAX + 1; i++)
		free(c->pre[i]);
	free(c->chunk);
	free(c);
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
	if (fill(c, NULL, 0, &n) < 0)
		err_unit(c, NULL, NULL, 0);
	else if (n == 0 && c->cause.code != KL_EOK)
		; /* The input cannot be read at all: the -1 return says so. */
	else if (nothread || container(c->pre[0], n, &code) == C_NONE ||
	    piped(c, n) < 0)
		(void)stream_pre(c, NULL, 0, n, 0, NULL, NULL);
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
