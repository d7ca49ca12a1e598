/*
 * candidate.c - the fast candidate finder.
 *
 * A candidate is a maximal run of hex digits, optionally after 0x or 0X,
 * bounded on both sides by a byte that is not an ASCII letter or digit
 * ('_' and every byte >= 0x80 are boundaries) or on the left by rsyslog's
 * "#012", "#011" or "#015" escape, whose length is one of the widths the
 * architecture prints (8 or 16 digits).  kl_hexrun() finds
 * the next eight hex digits in a row, 64 bytes a step with AVX2 when the
 * CPU has it, else with SSE2 (every x86_64 has it; other hosts use a
 * byte table), carrying a run over from one step to the next, so text
 * without long runs costs about one instruction per byte.
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef KL_AVX2
#include <immintrin.h>
#endif

/* Haystacks from this long are searched 32 places a step (kl_memmem()). */
#define MEMMEM_WIDE	256

/* KL_C_* classes of each byte (kleak-int.h), checked by test-candidate.c. */
const uint8_t kl_ctype[256] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x18, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17,
	0x17, 0x17, 0x08, 0x00, 0x18, 0x08, 0x10, 0x00,
	0x00, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x06,
	0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06,
	0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06,
	0x16, 0x06, 0x06, 0x08, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x17, 0x17, 0x17, 0x17, 0x17, 0x17, 0x06,
	0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06,
	0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06,
	0x06, 0x06, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
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
	x = (x & 0x0f0f0f0f0f0f0f0fULL) +
	    9 * ((x >> 6) & 0x0101010101010101ULL);
	/* Pairs, quads, then all eight, first digit the most significant. */
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

/*
 * The scalar search from buf[i], k hex digits already counted just
 * before it: kl_hexrun() of what the blocks left.
 */
static size_t
hexrun_tail(const uint8_t *buf, size_t i, size_t len, unsigned k)
{
	for (; i < len; i++) {
		if (!kl_isxdigit(buf[i])) {
			k = 0;
			continue;
		}
		if (++k == 8)
			return (i - 7);
	}
	return (len);
}

/* kl_hexrun() one byte at a time. */
size_t
kl_hexrun_scalar(const uint8_t *buf, size_t i, size_t len)
{
	return (hexrun_tail(buf, i, len, 0));
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

/*
 * One 64-byte block at i with hex-digit mask m (bit k: buf[i + k]),
 * *carry hex digits ending just before it.  Returns the first run of
 * eight that ends in the block, or SIZE_MAX and the digits it ends with.
 */
static inline size_t
hexrun_block(uint64_t m, size_t i, unsigned *carry)
{
	uint64_t r;

	/* A run that started in the blocks before. */
	if (*carry > 0 && (~m == 0 || kl_ctz64(~m) >= 8 - *carry))
		return (i - *carry);
	/* Bit k of r: bits k to k + 7 of m are set. */
	r = m & m >> 1;
	r &= r >> 2;
	r &= r >> 4;
	if (r != 0)
		return (i + kl_ctz64(r));
	*carry = (unsigned)__builtin_clzll(~m);	/* < 8, m != ~0 */
	return (SIZE_MAX);
}

/* kl_hexrun() 64 bytes a step with SSE2 (every x86_64 has it). */
size_t
kl_hexrun_sse2(const uint8_t *buf, size_t i, size_t len)
{
	uint64_t m;
	size_t r;
	unsigned carry = 0;

	while (i <= len && len - i >= 64) {
		m = (uint64_t)hexmask16(buf + i) |
		    (uint64_t)hexmask16(buf + i + 16) << 16 |
		    (uint64_t)hexmask16(buf + i + 32) << 32 |
		    (uint64_t)hexmask16(buf + i + 48) << 48;
		if ((r = hexrun_block(m, i, &carry)) != SIZE_MAX)
			return (r);
		i += 64;
	}
	return (hexrun_tail(buf, i, len, carry));
}
#endif

#ifdef KL_AVX2
/* Bit k set when p[k] is a hex digit, for 32 bytes (AVX2). */
__attribute__((target("avx2"))) static inline uint32_t
hexmask32(const uint8_t *p)
{
	__m256i v, d, l;

	v = _mm256_loadu_si256((const __m256i *)(const void *)p);
	/* As hexmask16(): a < b is b > a. */
	d = _mm256_add_epi8(v, _mm256_set1_epi8(0x50));
	l = _mm256_add_epi8(_mm256_or_si256(v, _mm256_set1_epi8(0x20)),
	    _mm256_set1_epi8(0x1f));
	d = _mm256_cmpgt_epi8(_mm256_set1_epi8(-128 + 10), d);
	l = _mm256_cmpgt_epi8(_mm256_set1_epi8(-128 + 6), l);
	return ((uint32_t)_mm256_movemask_epi8(_mm256_or_si256(d, l)));
}

/* kl_hexrun() 64 bytes a step with AVX2; the caller checked the CPU. */
__attribute__((target("avx2"))) size_t
kl_hexrun_avx2(const uint8_t *buf, size_t i, size_t len)
{
	uint64_t m;
	size_t r;
	unsigned carry = 0;

	while (i <= len && len - i >= 64) {
		m = (uint64_t)hexmask32(buf + i) |
		    (uint64_t)hexmask32(buf + i + 32) << 32;
		if ((r = hexrun_block(m, i, &carry)) != SIZE_MAX)
			return (r);
		i += 64;
	}
	return (hexrun_tail(buf, i, len, carry));
}
#endif

/*
 * The first j >= i with buf[j, j + 8) all hex digits and j + 8 <= len,
 * or len when there is none.  Reads nothing at or past len.
 */
size_t
kl_hexrun(const uint8_t *buf, size_t i, size_t len)
{
#ifdef KL_AVX2
	if (__builtin_cpu_supports("avx2"))
		return (kl_hexrun_avx2(buf, i, len));
#endif
#ifdef __SSE2__
	return (kl_hexrun_sse2(buf, i, len));
#else
	return (kl_hexrun_scalar(buf, i, len));
#endif
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
	size_t first = SIZE_MAX;

	return (kl_cand_fast_at(buf, len, len, from, &first, widths, out, max,
	    next));
}

/*
 * kl_cand_fast() for a caller that scans a longer buffer buf[0, lim) a
 * piece buf[from, len) at a time: runs are sought up to lim, so that the
 * search for the next run is one pass over the buffer, not a pass per
 * piece.  *firstp is kl_hexrun(buf, from, lim) if the caller knows it
 * (SIZE_MAX if not); on return it is kl_hexrun(buf, *next, lim), or
 * SIZE_MAX when that is not known.
 */
size_t
kl_cand_fast_at(const uint8_t *buf, size_t len, size_t lim, size_t from,
    size_t *firstp, unsigned widths, struct kl_token *out, size_t max,
    size_t *next)
{
	size_t i = from, n = 0, s, e, rl, first = *firstp;
	int prefix, glued;

	*firstp = SIZE_MAX;
	/* A run that started before from was the previous call's. */
	if (i > 0 && i < len && kl_isxdigit(buf[i]) && kl_isxdigit(buf[i - 1]))
		while (i < len && kl_isxdigit(buf[i]))
			i++;
	/* first is still the first run at or after i if i did not pass it. */
	if (first < i || first > lim)
		first = SIZE_MAX;
	while (i < len) {
		/*
		 * The first eight hex digits in a row: buf[s - 1] is not one
		 * (or s == i, where the last run ended or the scan began).
		 */
		s = first != SIZE_MAX ? first : kl_hexrun(buf, i, lim);
		first = SIZE_MAX;
		if (s >= len || len - s < 8) {
			/* None in the piece; s is the next one if past it. */
			if (s >= len)
				*firstp = s;
			break;
		}
		e = s + 8;
		while (e < len && kl_isxdigit(buf[e]))
			e++;
		rl = e - s;
		glued = prefix = 0;
		/*
		 * rsyslog's "#012" (an escaped newline; "#011" a tab, "#015"
		 * a carriage return) glued to a value: the value after it.
		 */
		if (s > 0 && buf[s - 1] == '#' && (rl == 11 || rl == 19) &&
		    buf[s] == '0' && buf[s + 1] == '1' && (buf[s + 2] == '1' ||
		    buf[s + 2] == '2' || buf[s + 2] == '5') &&
		    ((rl == 19 && (widths & 2)) ||
		    (rl == 11 && (widths & 1))) &&
		    (e == len || !kl_isalnum(buf[e])) && s + 3 >= from) {
			s += 3;
			rl -= 3;
			glued = 1;
		}
		if (((rl == 16 && (widths & 2)) || (rl == 8 && (widths & 1))) &&
		    (e == len || !kl_isalnum(buf[e])) &&
		    (glued || left_bounded(buf, s, from, &prefix))) {
			if (n == max) {
				*next = prefix ? s - 2 : s;
				*firstp = s;
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

/* kl_memmem() with the C library's memmem(), or a byte at a time. */
const uint8_t *
kl_memmem_scalar(const uint8_t *h, size_t hl, const char *nd, size_t nl)
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

#ifdef KL_AVX2
/*
 * kl_memmem() 32 places a step with AVX2, for a needle of 2 bytes or
 * more: the places where its first and last bytes both stand, each then
 * compared whole; the last places by kl_memmem_scalar().  The caller
 * checked the CPU.
 */
__attribute__((target("avx2"))) const uint8_t *
kl_memmem_avx2(const uint8_t *h, size_t hl, const char *nd, size_t nl)
{
	__m256i f, l, a, b;
	uint32_t m;
	size_t i = 0, k;

	if (nl < 2 || hl < nl)
		return (kl_memmem_scalar(h, hl, nd, nl));
	f = _mm256_set1_epi8(nd[0]);
	l = _mm256_set1_epi8(nd[nl - 1]);
	/* Places i to i + 31: the last one ends at h[i + 31 + nl - 1]. */
	while (hl - i >= 32 + nl - 1) {
		a = _mm256_loadu_si256((const __m256i *)(const void *)(h + i));
		b = _mm256_loadu_si256((const __m256i *)(const void *)
		    (h + i + nl - 1));
		m = (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
		    _mm256_cmpeq_epi8(a, f), _mm256_cmpeq_epi8(b, l)));
		while (m != 0) {
			k = (size_t)__builtin_ctz(m);
			if (memcmp(h + i + k + 1, nd + 1, nl - 2) == 0)
				return (h + i + k);
			m &= m - 1;
		}
		i += 32;
	}
	return (kl_memmem_scalar(h + i, hl - i, nd, nl));
}
#endif

/*
 * memmem for bytes, with a literal needle.  Long haystacks (a chunk's
 * half that banner_cut() searches) go 32 places a step.
 */
const uint8_t *
kl_memmem(const uint8_t *h, size_t hl, const char *nd, size_t nl)
{
#ifdef KL_AVX2
	if (hl >= MEMMEM_WIDE && nl >= 2 && __builtin_cpu_supports("avx2"))
		return (kl_memmem_avx2(h, hl, nd, nl));
#endif
	return (kl_memmem_scalar(h, hl, nd, nl));
}
