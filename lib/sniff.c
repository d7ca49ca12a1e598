/*
 * sniff.c - what the first bytes of a stream are: a unit of text, a
 * journal export or JSON stream, binary data, or a compressed stream or
 * an archive that libarchive reads (by magic bytes, never by name).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <archive.h>

#include "kleak.h"
#include "kleak-int.h"
#include "input-int.h"

#define SNIFF_MAX	(64u << 10)	/* bytes kl_input_sniff() looks at */
#define NUL_BLOCK	32		/* NULs in a row that are padding */

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
			len = kl_le64(b + j + 1);
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
				/* A sequence cut by the prefix end: no sign. */
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

/*
 * Is b[0..n) an lzma_alone header (as xz-utils and the LZMA SDK write)?
 * The properties byte is (pb * 5 + lp) * 9 + lc, and liblzma takes only
 * lc + lp <= 4 (LZMA_LCLP_MAX): a device-tree property that passes the
 * other tests ("19 00 20 00 00 ...") is refused there.
 */
static int
is_lzma(const uint8_t *b, size_t n)
{
	uint32_t d;
	uint64_t size;
	int k;

	if (n < 14 || b[0] > (4 * 5 + 4) * 9 + 8 || b[13] != 0 ||
	    b[0] % 9 + b[0] / 9 % 5 > 4)
		return (0);
	d = kl_le32(b + 1);
	size = kl_le64(b + 5);
	if (size != UINT64_MAX && size > (UINT64_C(1) << 48))
		return (0);
	for (k = 12; k <= 30; k++)
		if (d == (UINT32_C(1) << k) ||
		    d == (UINT32_C(1) << k) + (UINT32_C(1) << (k - 1)))
			return (1);
	return (0);
}

/*
 * Past the skippable frames (magic 0x184D2A50 to 0x184D2A5F, a 32-bit
 * length, that many bytes) at the start of b[0..n): where the first
 * frame that is not one starts, or n when the prefix ends first.  pzstd
 * writes one before each zstd frame; zstd and lz4 share the magic.
 */
static size_t
past_skippable(const uint8_t *b, size_t n)
{
	size_t i;
	uint32_t len;

	i = 0;
	while (n - i >= 8 && (b[i] & 0xf0) == 0x50 && b[i + 1] == 0x2a &&
	    b[i + 2] == 0x4d && b[i + 3] == 0x18) {
		len = kl_le32(b + i + 4);
		if (len > n - i - 8)
			return (n);
		i += 8 + (size_t)len;
	}
	return (i);
}

/* What b[0..n), the start of a stream, is; *code the libarchive code. */
enum cont
kl_sniff_container(const uint8_t *b, size_t n, int *code)
{
	static const uint8_t xz[] = {0xfd, '7', 'z', 'X', 'Z', 0};
	static const uint8_t zst[] = {0x28, 0xb5, 0x2f, 0xfd};
	static const uint8_t lz4[] = {0x04, 0x22, 0x4d, 0x18};
	static const uint8_t lz4l[] = {0x02, 0x21, 0x4c, 0x18};
	static const uint8_t sz[] = {'7', 'z', 0xbc, 0xaf, 0x27, 0x1c};
	size_t i;

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
	/* Skippable frames first (pzstd): the frame after them decides. */
	if ((i = past_skippable(b, n)) > 0 && n - i >= 4) {
		if (memcmp(b + i, zst, 4) == 0) {
			*code = ARCHIVE_FILTER_ZSTD;
			return (C_FILTER);
		}
		if (memcmp(b + i, lz4, 4) == 0) {
			*code = ARCHIVE_FILTER_LZ4;
			return (C_FILTER);
		}
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

	kind = kl_sniff_container(b, n, &code);
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
