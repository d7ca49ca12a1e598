/*
 * mail.c - mail text as people paste kernel reports into it.
 *
 * Mail clients quote lines ("> ", ">> ", "> > ", "| ") and write U+00A0
 * no-break spaces where the log had spaces: raw UTF-8 (C2 A0), Latin-1
 * (A0), or quoted-printable "=C2=A0" / "=A0" when the body is encoded.
 * Framing and architecture detection must see such a line as the log
 * line it was.  Both helpers keep byte positions: the quote prefix is
 * skipped, not removed, and no-break spaces are replaced by as many
 * spaces as they take bytes, so findings still point at the file as it
 * is stored.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "kleak.h"
#include "kleak-int.h"

#ifdef KL_AVX2
#include <immintrin.h>
#endif

/*
 * The length of the mail quote prefix of b[0..n): any number of ">"
 * each with an optional following space ("> ", ">>", "> > "), or "| "
 * (a quote bar and a space); 0 when the line is not quoted.
 */
size_t
kl_mail_quote(const uint8_t *b, size_t n)
{
	size_t i = 0;

	if (b == NULL)
		return (0);
	while (i < n) {
		if (b[i] == '>') {
			i++;
			if (i < n && b[i] == ' ')
				i++;
		} else if (b[i] == '|' && i + 1 < n && b[i + 1] == ' ')
			i += 2;
		else
			break;
	}
	return (i);
}

/* Is b[i..n) the quoted-printable token "=A0" (any case)? */
static int
qp_a0(const uint8_t *b, size_t n, size_t i)
{
	return (i + 3 <= n && b[i] == '=' && (b[i + 1] == 'A' ||
	    b[i + 1] == 'a') && b[i + 2] == '0');
}

/* Is b[i..n) the quoted-printable token "=C2" (any case)? */
static int
qp_c2(const uint8_t *b, size_t n, size_t i)
{
	return (i + 3 <= n && b[i] == '=' && (b[i + 1] == 'C' ||
	    b[i + 1] == 'c') && b[i + 2] == '2');
}

/*
 * Replace the no-break spaces of b[0..n) by spaces, byte for byte:
 * UTF-8 C2 A0 (two spaces), a Latin-1 A0 after an ASCII byte or at the
 * start, and the quoted-printable "=C2=A0" (six) and "=A0" (three).
 * Returns the number of no-break spaces replaced.
 */
size_t
kl_mail_spaces(uint8_t *b, size_t n)
{
	size_t i, k = 0;

	if (b == NULL)
		return (0);
	for (i = 0; i < n; i++) {
		if (b[i] == 0xa0) {
			if (i > 0 && b[i - 1] == 0xc2) {
				b[i - 1] = ' ';
				b[i] = ' ';
				k++;
			} else if (i == 0 || b[i - 1] < 0x80) {
				b[i] = ' ';
				k++;
			}
		} else if (b[i] == '=') {
			if (qp_c2(b, n, i) && qp_a0(b, n, i + 3)) {
				memset(b + i, ' ', 6);
				i += 5;
				k++;
			} else if (qp_a0(b, n, i)) {
				memset(b + i, ' ', 3);
				i += 2;
				k++;
			}
		}
	}
	return (k);
}

/* Is b[i..n), where b[i] is '=', a quoted-printable "=A0" or "=C2"? */
static int
qp_nbsp(const uint8_t *b, size_t n, size_t i)
{
	return (qp_a0(b, n, i) || qp_c2(b, n, i));
}

/*
 * Might b[0..n) need kl_mail_quote() or kl_mail_spaces()?  Cheap: it is
 * asked of every framed line.  One pass looks for both bytes that can
 * start a no-break space (A0, and '=' of quoted-printable), 16 at a time,
 * from b[i]: the caller knows b[0..i) holds neither (kl_line_end()).
 */
int
kl_mail_suspect_from(const uint8_t *b, size_t n, size_t i)
{
	if (b == NULL || n == 0)
		return (0);
	if (b[0] == '>' || (b[0] == '|' && n > 1 && b[1] == ' '))
		return (1);
#ifdef __SSE2__
	if (n >= 16 && i < n) {
		const __m128i a0 = _mm_set1_epi8((char)0xa0);
		const __m128i eq = _mm_set1_epi8('=');
		__m128i v;
		unsigned m, k;
		size_t at;

		for (;;) {
			/* The last block ends at n, over the one before. */
			at = i + 16 <= n ? i : n - 16;
			v = _mm_loadu_si128((const __m128i *)(const void *)
			    (b + at));
			m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_cmpeq_epi8(v, a0), _mm_cmpeq_epi8(v, eq)));
			m &= ~0u << (i - at);	/* bytes seen before */
			while (m != 0) {
				k = (unsigned)__builtin_ctz(m);
				if (b[at + k] == 0xa0 || qp_nbsp(b, n, at + k))
					return (1);
				m &= m - 1;
			}
			i = at + 16;
			if (i >= n)
				return (0);
		}
	}
#endif
	for (; i < n; i++)
		if (b[i] == 0xa0 || (b[i] == '=' && qp_nbsp(b, n, i)))
			return (1);
	return (0);
}

/* Might b[0..n) need kl_mail_quote() or kl_mail_spaces()? */
int
kl_mail_suspect(const uint8_t *b, size_t n)
{
	return (kl_mail_suspect_from(b, n, 0));
}

/* kl_line_end() a byte at a time. */
size_t
kl_line_end_scalar(const uint8_t *b, size_t n, size_t *mark)
{
	size_t i, m = SIZE_MAX;

	for (i = 0; i < n && b[i] != '\n'; i++)
		if (m == SIZE_MAX && (b[i] == 0xa0 || b[i] == '=' ||
		    b[i] == '#'))
			m = i;
	*mark = m < i ? m : i;
	return (i);
}

#ifdef __SSE2__
/* kl_line_end() 16 bytes a step. */
size_t
kl_line_end_sse2(const uint8_t *b, size_t n, size_t *mark)
{
	const __m128i nl = _mm_set1_epi8('\n');
	const __m128i a0 = _mm_set1_epi8((char)0xa0);
	const __m128i eq = _mm_set1_epi8('=');
	const __m128i hs = _mm_set1_epi8('#');
	__m128i v;
	unsigned mn, mm;
	size_t i = 0, at, m = SIZE_MAX, e;

	if (n < 16)
		return (kl_line_end_scalar(b, n, mark));
	for (;;) {
		/*
		 * The last block ends at n, over the one before: the bytes
		 * read again hold no newline, and a mark there is not the
		 * first.
		 */
		at = i + 16 <= n ? i : n - 16;
		v = _mm_loadu_si128((const __m128i *)(const void *)(b + at));
		mn = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl));
		mm = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, a0), _mm_cmpeq_epi8(v, eq)),
		    _mm_cmpeq_epi8(v, hs)));
		if (mm != 0 && m == SIZE_MAX)
			m = at + (unsigned)__builtin_ctz(mm);
		if (mn != 0) {
			e = at + (unsigned)__builtin_ctz(mn);
			*mark = m < e ? m : e;
			return (e);
		}
		i = at + 16;
		if (i >= n) {
			*mark = m < n ? m : n;
			return (n);
		}
	}
}
#endif

#ifdef KL_AVX2
/*
 * kl_line_end() 32 bytes a step with AVX2; the caller checked the CPU.
 * A block with neither byte costs one mask; the last block ends at n,
 * over the one before (as in kl_line_end_sse2()).
 */
__attribute__((target("avx2"))) size_t
kl_line_end_avx2(const uint8_t *b, size_t n, size_t *mark)
{
	const __m256i nl = _mm256_set1_epi8('\n');
	const __m256i a0 = _mm256_set1_epi8((char)0xa0);
	const __m256i eq = _mm256_set1_epi8('=');
	const __m256i hs = _mm256_set1_epi8('#');
	__m256i v, vn, vs;
	uint32_t mn, mm;
	size_t i = 0, m = SIZE_MAX, e;

	if (n < 32)
		return (kl_line_end_sse2(b, n, mark));
	for (;;) {
		if (n - i < 32)
			i = n - 32;
		v = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
		vn = _mm256_cmpeq_epi8(v, nl);
		vs = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, a0),
		    _mm256_cmpeq_epi8(v, eq)), _mm256_cmpeq_epi8(v, hs));
		if (_mm256_movemask_epi8(_mm256_or_si256(vn, vs)) != 0) {
			mn = (uint32_t)_mm256_movemask_epi8(vn);
			mm = (uint32_t)_mm256_movemask_epi8(vs);
			if (mm != 0 && m == SIZE_MAX)
				m = i + (unsigned)__builtin_ctz(mm);
			if (mn != 0) {
				e = i + (unsigned)__builtin_ctz(mn);
				*mark = m < e ? m : e;
				return (e);
			}
		}
		i += 32;
		if (i >= n) {
			*mark = m < n ? m : n;
			return (n);
		}
	}
}
#endif

/*
 * The end of the line at b[0..n): the offset of its '\n', or n when it
 * has none.  *mark: the offset of the first byte before that end which
 * can start a no-break space (A0, or the '=' of quoted-printable) or
 * rsyslog's escaped newline ("#012"), or the end when there is none: for
 * kl_mail_suspect_from(), and so that a line with no '#' is not searched
 * for "#012" (scan.c).  One pass finds all, where memchr() and
 * kl_mail_suspect() made two.
 */
size_t
kl_line_end(const uint8_t *b, size_t n, size_t *mark)
{
#ifdef KL_AVX2
	if (__builtin_cpu_supports("avx2"))
		return (kl_line_end_avx2(b, n, mark));
#endif
#ifdef __SSE2__
	return (kl_line_end_sse2(b, n, mark));
#else
	return (kl_line_end_scalar(b, n, mark));
#endif
}
