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
 * start a no-break space (A0, and '=' of quoted-printable), 16 at a time.
 */
int
kl_mail_suspect(const uint8_t *b, size_t n)
{
	size_t i = 0;

	if (b == NULL || n == 0)
		return (0);
	if (b[0] == '>' || (b[0] == '|' && n > 1 && b[1] == ' '))
		return (1);
#ifdef __SSE2__
	if (n >= 16) {
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
