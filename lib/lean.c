/*
 * lean.c - which lines the scanner may pass over unread.
 *
 * Most lines hold no candidate and say nothing the scanner or its sink
 * reads: no report header (kl_detect_report()), no boot banner, no
 * unhashed-pointer banner, no line the sink asked for and, while the
 * segment is undecided, nothing detection learns from.  What each of
 * those reads starts a message with one of a few heads: "BUG: ",
 * "Linux version ", "Kernel Offset: ", "RIP: ", or one byte ('*').  A
 * message starts after a blank, '>', '`', ']' or ')' (framing and
 * skip_prefix() stop only there) or at the line's start: never after a
 * letter or a digit.  So a line that holds none of the heads at a word
 * start (a byte after one that is no ASCII letter or digit) cannot start
 * its message with one, wherever framing puts the message start.  A few
 * heads count anywhere: the bytes of a no-break space in a mail, and
 * what detection finds inside a message ("+0x", "#012").
 *
 * kl_lean_next() finds the next head in the window, 32 bytes a step with
 * AVX2 (nibble tables of each head's first two bytes in eight buckets,
 * as Hyperscan's Teddy, and a word-start mask), else a byte at a time.
 * The scanner passes over whole lines up to it (scan.c, lean_run()).  A
 * head found inside a message costs a framed line, nothing more.
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#ifdef KL_AVX2
#include <immintrin.h>
#endif

/* The chain of heads that start with the bytes a, b. */
#define LEAN_PAIR(a, b)	((((unsigned)(a) << 3) ^ (unsigned)(b)) & 1023)

/* Start again. */
void
kl_lean_init(struct kl_lean *t)
{
	memset(t, 0, sizeof(*t));
}

/*
 * The bucket of first byte c: one for each high nibble of the letters
 * (0x40-0x7f), one each for 0x20-0x2f and 0x30-0x3f, one for the rest.
 * Few first bytes share a bucket but those that share a high nibble, so
 * the nibble tables take few other bytes for them.
 */
static unsigned
lean_bucket(uint8_t c)
{
	switch (c >> 4) {
	case 2:
		return (4);
	case 3:
		return (5);
	case 4: case 5: case 6: case 7:
		return ((unsigned)(c >> 4) - 4);
	case 0xa: case 0xb: case 0xc: case 0xd: case 0xe: case 0xf:
		return (6);
	default:
		return (7);
	}
}

/*
 * Put byte c, and the byte after it (any, when next is -1), in the
 * nibble tables.  A byte pair that is in no bucket starts no head; a
 * pair in one may (the tables merge what shares a bucket).  anywhere: a
 * head of c counts off a word start too.
 */
static void
lean_nibble(struct kl_lean *t, uint8_t c, int next, int anywhere)
{
	uint8_t bit = (uint8_t)(1u << lean_bucket(c));
	unsigned i;

	t->lo[c & 15] |= bit;
	t->hi[c >> 4] |= bit;
	if (anywhere)
		t->anywhere |= bit;
	if (next < 0) {
		for (i = 0; i < 16; i++) {
			t->lo2[i] |= bit;
			t->hi2[i] |= bit;
		}
	} else {
		t->lo2[next & 15] |= bit;
		t->hi2[(next >> 4) & 15] |= bit;
	}
}

/* Any line with byte c in it is read. */
void
kl_lean_byte(struct kl_lean *t, uint8_t c)
{
	t->first[c] |= KL_LEAN_ANY;
	lean_nibble(t, c, -1, 1);
}

/*
 * A line with the head h (1 to 4 bytes; a longer literal gives its first
 * four) at a word start, or anywhere, is read.  Returns -1 when the table
 * is full, and then reads every line with h's first byte.
 */
int
kl_lean_head(struct kl_lean *t, const char *h, size_t n, int anywhere)
{
	uint8_t c = (uint8_t)h[0], b[4], m[4];
	size_t i;

	if (n == 0)
		return (0);
	if (n > 4)
		n = 4;
	if (n == 1 || t->nheads == KL_LEAN_HEADS) {
		kl_lean_byte(t, c);
		return (n == 1 ? 0 : -1);
	}
	for (i = 0; i < 4; i++) {
		b[i] = i < n ? (uint8_t)h[i] : 0;
		m[i] = i < n ? 0xff : 0;
	}
	memcpy(&t->heads[t->nheads].v, b, 4);
	memcpy(&t->heads[t->nheads].mask, m, 4);
	t->heads[t->nheads].anywhere = anywhere != 0;
	t->heads[t->nheads].next = t->chain[LEAN_PAIR(b[0], b[1])];
	t->nheads++;
	t->chain[LEAN_PAIR(b[0], b[1])] = (uint8_t)t->nheads;
	t->first[c] |= anywhere ? KL_LEAN_AHEAD : KL_LEAN_HEAD;
	lean_nibble(t, c, (uint8_t)h[1], anywhere);
	return (0);
}

/* Can a message start at p[i] (i > 0: p[i - 1] is there to read)? */
static inline int
lean_ws(const uint8_t *p, size_t i)
{
	return (i == 0 || !kl_isalnum(p[i - 1]));
}

/*
 * Does a head start at p[i], with p[i, n) the rest of the line?  ws: at
 * a word start.  A head that n cuts short counts.
 */
static inline int
lean_at(const struct kl_lean *t, const uint8_t *p, size_t i, size_t n,
    int ws)
{
	uint32_t w;
	unsigned k, f = t->first[p[i]];

	if (f & KL_LEAN_ANY)
		return (1);
	if (!ws && !(f & KL_LEAN_AHEAD))
		return (0);
	if (n - i < 4)
		return (f != 0);
	memcpy(&w, p + i, 4);
	for (k = t->chain[LEAN_PAIR(p[i], p[i + 1])]; k != 0;
	    k = t->heads[k - 1].next)
		if ((ws || t->heads[k - 1].anywhere) &&
		    (w & t->heads[k - 1].mask) == t->heads[k - 1].v)
			return (1);
	return (0);
}

/* kl_lean_next(), a byte at a time. */
size_t
kl_lean_next_scalar(const struct kl_lean *t, const uint8_t *p, size_t i,
    size_t n)
{
	for (; i < n; i++)
		if (t->first[p[i]] != 0 && lean_at(t, p, i, n, lean_ws(p, i)))
			return (i);
	return (n);
}

#ifdef KL_AVX2
/*
 * The bytes of the block at q that may start a head: a bit for each.
 * The byte before the block, q[-1], is read for the word starts.
 */
__attribute__((target("avx2"))) static inline uint32_t
lean_block(const uint8_t *q, __m256i lo, __m256i hi, __m256i lo2,
    __m256i hi2, __m256i anywhere)
{
	const __m256i nib = _mm256_set1_epi8(0x0f);
	__m256i v, w, u, m, al, dg;

	v = _mm256_loadu_si256((const __m256i *)(const void *)q);
	w = _mm256_loadu_si256((const __m256i *)(const void *)(q + 1));
	u = _mm256_loadu_si256((const __m256i *)(const void *)(q - 1));
	m = _mm256_and_si256(
	    _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib)),
	    _mm256_shuffle_epi8(hi,
	    _mm256_and_si256(_mm256_srli_epi16(v, 4), nib))),
	    _mm256_and_si256(_mm256_shuffle_epi8(lo2, _mm256_and_si256(w, nib)),
	    _mm256_shuffle_epi8(hi2,
	    _mm256_and_si256(_mm256_srli_epi16(w, 4), nib))));
	/* The byte before: a letter ((u | 0x20) - 'a' <= 25) or a digit. */
	al = _mm256_sub_epi8(_mm256_or_si256(u, _mm256_set1_epi8(0x20)),
	    _mm256_set1_epi8('a'));
	al = _mm256_cmpeq_epi8(_mm256_min_epu8(al, _mm256_set1_epi8(25)), al);
	dg = _mm256_sub_epi8(u, _mm256_set1_epi8('0'));
	dg = _mm256_cmpeq_epi8(_mm256_min_epu8(dg, _mm256_set1_epi8(9)), dg);
	/* After one, only the buckets of heads that count anywhere. */
	m = _mm256_and_si256(m, _mm256_or_si256(anywhere,
	    _mm256_andnot_si256(_mm256_or_si256(al, dg),
	    _mm256_set1_epi8(-1))));
	return (~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m,
	    _mm256_setzero_si256())));
}

/*
 * kl_lean_next() 32 bytes a step (and the bytes either side of each),
 * reading on to end; the caller checked the CPU.
 */
__attribute__((target("avx2"))) size_t
kl_lean_next_avx2(const struct kl_lean *t, const uint8_t *p, size_t i,
    size_t n, size_t end)
{
#define LEAN_TAB(x) _mm256_broadcastsi128_si256( \
	_mm_loadu_si128((const __m128i *)(const void *)(x)))
	const __m256i lo = LEAN_TAB(t->lo), hi = LEAN_TAB(t->hi);
	const __m256i lo2 = LEAN_TAB(t->lo2), hi2 = LEAN_TAB(t->hi2);
	const __m256i anywhere = _mm256_set1_epi8((char)t->anywhere);
#undef LEAN_TAB
	uint32_t bits;
	size_t k, m;

	/* The first byte has none before it to read. */
	if (i == 0 && n > 0) {
		if (t->first[p[0]] != 0 && lean_at(t, p, 0, n, 1))
			return (0);
		i = 1;
	}
	/*
	 * The blocks read the byte after each; the last three bytes, where
	 * a head may be cut short (and count), are read alone.
	 */
	m = n - i > 3 ? n - 3 : i;
	while (i < m && end - i >= 33) {
		bits = lean_block(p + i, lo, hi, lo2, hi2, anywhere);
		if (m - i < 32)
			bits &= ((uint32_t)1 << (m - i)) - 1;
		while (bits != 0) {
			k = i + (unsigned)__builtin_ctz(bits);
			if (lean_at(t, p, k, n, lean_ws(p, k)))
				return (k);
			bits &= bits - 1;
		}
		i += 32;
	}
	return (kl_lean_next_scalar(t, p, i < m ? i : m, n));
}
#endif

/*
 * The first byte of p[i, n) that starts a head of t (a head that n cuts
 * short counts), or n.  The bytes up to end (at least n) may be read,
 * and p[i - 1] when i > 0; at i == 0 a word starts.
 */
size_t
kl_lean_next(const struct kl_lean *t, const uint8_t *p, size_t i, size_t n,
    size_t end)
{
#ifdef KL_AVX2
	if (__builtin_cpu_supports("avx2"))
		return (kl_lean_next_avx2(t, p, i, n, end));
#else
	(void)end;
#endif
	return (kl_lean_next_scalar(t, p, i, n));
}
