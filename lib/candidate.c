/*
 * candidate.c - the fast candidate finder.
 *
 * A candidate is a maximal run of hex digits, optionally after 0x or 0X,
 * bounded on both sides by a byte that is not an ASCII letter or digit
 * ('_' and every byte >= 0x80 are boundaries), whose length is one of the
 * widths the architecture prints (8 or 16 digits).  kl_hexrun() finds
 * the next eight hex digits in a row, 32 bytes a step with SSE2 (every
 * x86_64 has it; other hosts use a byte table), so text without long
 * runs costs a few instructions per byte.
 */
#include "config.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "kleak.h"
#include "kleak-int.h"

/* KL_C_HEX | KL_C_ALNUM per byte. */
const uint8_t kl_ctype[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0,
	0, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
	0, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Value of one hex digit (the caller checked it is one). */
static inline unsigned
hexdigit(uint8_t c)
{
	/* '0'-'9' keep their low nibble; 'A'-'F', 'a'-'f' (bit 6) add 9. */
	return ((c & 0xf) + 9 * (c >> 6));
}

/* Parse 8 bytes known to be hex digits, eight at once. */
static inline uint64_t
hexval8(const uint8_t *p)
{
	uint64_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&x, p, 8);	/* p[0] in the low byte */
#else
	int i;

	for (i = 7; i >= 0; i--)
		x = x << 8 | p[i];
#endif
	/* Each byte to its nibble: '0'-'9' keep it, letters (bit 6) add 9. */
	x = (x & 0x0f0f0f0f0f0f0f0fULL) + 9 * ((x >> 6) & 0x0101010101010101ULL);
	/* Pairs, quads, then all eight, the first digit the most significant. */
	x = ((x << 4) | (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = ((x << 8) | (x >> 16)) & 0x0000ffff0000ffffULL;
	x = ((x << 16) | (x >> 32)) & 0x00000000ffffffffULL;
	return (x);
}

/* Parse n <= 16 bytes known to be hex digits. */
static inline uint64_t
hexval_unchecked(const uint8_t *p, size_t n)
{
	uint64_t x = 0;
	size_t i;

	if (n == 8)
		return (hexval8(p));
	if (n == 16)
		return (hexval8(p) << 32 | hexval8(p + 8));
	for (i = 0; i < n; i++)
		x = (x << 4) | hexdigit(p[i]);
	return (x);
}

#ifdef __SSE2__
/* Bit k set when p[k] is a hex digit, for 16 bytes. */
static inline unsigned
hexmask16(const uint8_t *p)
{
	__m128i v, d, l;

	v = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* '0'-'9' + 0x50 and ('a'-'f' | 0x20) + 0x1f are the lowest int8s. */
	d = _mm_add_epi8(v, _mm_set1_epi8(0x50));
	l = _mm_add_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)),
	    _mm_set1_epi8(0x1f));
	d = _mm_cmplt_epi8(d, _mm_set1_epi8(-128 + 10));
	l = _mm_cmplt_epi8(l, _mm_set1_epi8(-128 + 6));
	return ((unsigned)_mm_movemask_epi8(_mm_or_si128(d, l)));
}
#endif

/*
 * The first j >= i with buf[j, j + 8) all hex digits and j + 8 <= len,
 * or len when there is none.  Reads nothing at or past len.
 */
size_t
kl_hexrun(const uint8_t *buf, size_t i, size_t len)
{
	size_t k;
#ifdef __SSE2__
	uint32_t m;

	/* 32 bytes a step: bit k of m & m>>1 & ... is a run of 8 at k. */
	while (i <= len && len - i >= 32) {
		m = hexmask16(buf + i) | (uint32_t)hexmask16(buf + i + 16) << 16;
		m &= m >> 1;
		m &= m >> 2;
		m &= m >> 4;
		m &= 0x1ffffff;		/* runs that end inside the 32 */
		if (m != 0)
			return (i + (size_t)__builtin_ctz(m));
		i += 25;
	}
#endif
	for (k = 0; i < len; i++) {
		if (!kl_isxdigit(buf[i])) {
			k = 0;
			continue;
		}
		if (++k == 8)
			return (i - 7);
	}
	return (len);
}

/* Parse up to 16 hex digits into *v; -1 if any byte is not hex. */
int
kl_hexval(const uint8_t *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (n > 16)
		return (-1);
	for (i = 0; i < n; i++) {
		if (!kl_isxdigit(p[i]))
			return (-1);
		x = (x << 4) | hexdigit(p[i]);
	}
	*v = x;
	return (0);
}

/*
 * Is the run starting at s left-bounded?  Sets *prefix when the run
 * follows a 0x/0X whose 0 is itself bounded; a token with its prefix
 * must start at or after from.
 */
static inline int
left_bounded(const uint8_t *buf, size_t s, size_t from, int *prefix)
{
	*prefix = 0;
	if (s == 0 || !kl_isalnum(buf[s - 1]))
		return (1);
	if (s >= from + 2 && (buf[s - 1] | 0x20) == 'x' && buf[s - 2] == '0' &&
	    (s == 2 || !kl_isalnum(buf[s - 3]))) {
		*prefix = 1;
		return (1);
	}
	return (0);
}

/*
 * Find candidates starting in buf[from, len).  A run that reaches len
 * is taken as bounded there: the caller cuts buffers at boundary bytes.
 * widths: bit 0 for 8 digits, bit 1 for 16.  Writes at most max tokens
 * and sets *next to where a further call should resume.
 */
size_t
kl_cand_fast(const uint8_t *buf, size_t len, size_t from, unsigned widths,
    struct kl_token *out, size_t max, size_t *next)
{
	size_t i = from, n = 0, s, e, rl;
	int prefix;

	/* A run that started before from was the previous call's. */
	if (i > 0 && i < len && kl_isxdigit(buf[i]) && kl_isxdigit(buf[i - 1]))
		while (i < len && kl_isxdigit(buf[i]))
			i++;
	while (i < len) {
		/*
		 * The first eight hex digits in a row: buf[s - 1] is not one
		 * (or s == i, where the last run ended or the scan began).
		 */
		s = kl_hexrun(buf, i, len);
		if (s == len)
			break;
		e = s + 8;
		while (e < len && kl_isxdigit(buf[e]))
			e++;
		rl = e - s;
		if (((rl == 16 && (widths & 2)) || (rl == 8 && (widths & 1))) &&
		    (e == len || !kl_isalnum(buf[e])) &&
		    left_bounded(buf, s, from, &prefix)) {
			if (n == max) {
				*next = prefix ? s - 2 : s;
				return (n);
			}
			out[n].start = s;
			out[n].len = rl;
			out[n].prefix = prefix;
			out[n].value = hexval_unchecked(buf + s, rl);
			n++;
		}
		i = e;
	}
	*next = len;
	return (n);
}

/* memmem for bytes, with a literal needle. */
const uint8_t *
kl_memmem(const uint8_t *h, size_t hl, const char *nd, size_t nl)
{
#ifdef HAVE_MEMMEM
	return (memmem(h, hl, nd, nl));
#else
	size_t i;

	if (nl == 0)
		return (h);
	for (i = 0; i + nl <= hl; i++)
		if (h[i] == (uint8_t)nd[0] && memcmp(h + i, nd, nl) == 0)
			return (h + i);
	return (NULL);
#endif
}
