/*
 * escape.c - make bytes from a log safe for a terminal or a JSON string.
 *
 * Every function has snprintf semantics: it returns the length the whole
 * output needs (not counting the NUL) and, when dstsz > 0, writes at most
 * dstsz - 1 bytes and a NUL.  Output is cut only between whole units: an
 * escape such as "\x1b" or a UTF-8 sequence is written entirely or not at
 * all, so a cut output is still safe and still valid UTF-8 (it may then
 * be shorter than dstsz - 1).  dst may be NULL when dstsz is 0, to ask
 * for the length.  A length that would overflow size_t saturates at
 * SIZE_MAX.
 */
#include "config.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
/* An output buffer with snprintf semantics. */
struct esc_out {
	char	*dst;
	size_t	 sz;
	size_t	 n;		/* length of the whole output so far */
	size_t	 w;		/* bytes written to dst */
	int	 full;		/* a unit did not fit: write nothing more */
};
/* clang-format on */

static const char esc_hex[] = "0123456789abcdef";

/* Start writing into dst[0..sz). */
static void
esc_init(struct esc_out *o, char *dst, size_t sz)
{
	o->dst = dst;
	o->sz = dst != NULL ? sz : 0;
	o->n = 0;
	o->w = 0;
	o->full = 0;
}

/* Append one unit of k bytes, whole or not at all. */
static void
esc_put(struct esc_out *o, const char *s, size_t k)
{
	if (!o->full && o->sz > 0 && k < o->sz - o->w) {
		memcpy(o->dst + o->w, s, k);
		o->w += k;
	} else
		o->full = 1;
	o->n = o->n > SIZE_MAX - k ? SIZE_MAX : o->n + k;
}

/*
 * Append k bytes that are one unit each (plain ASCII): as many as fit,
 * the same as k calls of esc_put() with one byte, in one copy.
 */
static void
esc_run(struct esc_out *o, const char *s, size_t k)
{
	size_t room = 0;

	if (!o->full && o->sz > 0)
		room = o->sz - 1 - o->w;
	if (room > k)
		room = k;
	if (room > 0) {
		memcpy(o->dst + o->w, s, room);
		o->w += room;
	}
	if (room < k)
		o->full = 1;
	o->n = o->n > SIZE_MAX - k ? SIZE_MAX : o->n + k;
}

/* Is c printable ASCII, which text output shows as it is? */
static inline int
esc_text_plain(uint8_t c)
{
	return ((unsigned)c - 0x20 < 0x5f);
}

/* Is c printable ASCII other than '"' and '\\', as JSON keeps it? */
static inline int
esc_json_plain(uint8_t c)
{
	return (esc_text_plain(c) && c != '"' && c != '\\');
}

/*
 * The end of the run of plain bytes at src[i, len) (src[i] is one):
 * printable ASCII, and for JSON (json set) not '"' or '\\'.
 */
static size_t
esc_plain_end(const uint8_t *src, size_t i, size_t len, int json)
{
	size_t j = i + 1;

#ifdef __SSE2__
	/* Sixteen at a time: log lines are mostly long plain runs. */
	const __m128i lo = _mm_set1_epi8(0x1f), hi = _mm_set1_epi8(0x7f);
	const __m128i q = _mm_set1_epi8('"'), b = _mm_set1_epi8('\\');
	__m128i v, ok;
	unsigned m;

	while (len - j >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(src + j));
		/* Signed: bytes from 0x80 are below 0x1f. */
		ok = _mm_and_si128(_mm_cmpgt_epi8(v, lo),
		    _mm_cmplt_epi8(v, hi));
		if (json)
			ok = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q),
			    _mm_cmpeq_epi8(v, b)), ok);
		m = (unsigned)_mm_movemask_epi8(ok);
		if (m != 0xffff)
			return (j + (size_t)__builtin_ctz(~m));
		j += 16;
	}
#endif
	if (json)
		while (j < len && esc_json_plain(src[j]))
			j++;
	else
		while (j < len && esc_text_plain(src[j]))
			j++;
	return (j);
}

/* NUL-terminate after the last whole unit; returns the full length. */
static size_t
esc_end(struct esc_out *o)
{
	if (o->sz > 0)
		o->dst[o->w] = '\0';
	return (o->n);
}

/*
 * Length of the valid RFC 3629 UTF-8 sequence at s[0..n), 0 when the
 * bytes are not one (stray continuation, overlong form, surrogate, above
 * U+10FFFF, cut short).  *cpp is the code point.
 */
static size_t
esc_utf8(const uint8_t *s, size_t n, uint32_t *cpp)
{
	uint8_t c = s[0], lo = 0x80, hi = 0xbf;
	size_t k, i;
	uint32_t cp;

	if (c < 0x80) {
		*cpp = c;
		return (1);
	}
	if (c >= 0xc2 && c <= 0xdf) {
		k = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		k = 3;
		cp = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0; /* overlong */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		k = 4;
		cp = c & 0x07;
		if (c == 0xf0)
			lo = 0x90; /* overlong */
		else if (c == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else
		return (0);
	if (n < k)
		return (0);
	for (i = 1; i < k; i++) {
		if (s[i] < lo || s[i] > hi)
			return (0);
		lo = 0x80;
		hi = 0xbf;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*cpp = cp;
	return (k);
}

/*
 * Is cp a code point a terminal or a viewer may act on rather than show:
 * C1 controls, the line and paragraph separators, and the bidirectional
 * controls that can reorder what is displayed ("Trojan Source")?
 */
static int
esc_unsafe(uint32_t cp)
{
	return ((cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	    cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069));
}

/* Append "\xNN" for the byte c. */
static void
esc_xbyte(struct esc_out *o, uint8_t c)
{
	char u[4];

	u[0] = '\\';
	u[1] = 'x';
	u[2] = esc_hex[c >> 4];
	u[3] = esc_hex[c & 0xf];
	esc_put(o, u, sizeof(u));
}

/*
 * Escape src[0..len) for a terminal.  Printable ASCII and valid UTF-8 of
 * printable code points go out as they are; TAB, CR and LF as \t \r \n;
 * every other control byte, DEL, C1 controls, separators, bidi controls
 * and each byte of invalid UTF-8 as \xNN (lower-case hex).  A backslash
 * stays a backslash: the text is for reading, and kmsg already writes
 * "\x1b" for the bytes it escaped, which is best shown as the log holds
 * it; so "\x41" in the output may be the log's own four characters.
 */
size_t
kl_esc_text(char *dst, size_t dstsz, const uint8_t *src, size_t len)
{
	struct esc_out o;
	size_t i, j, k;
	uint32_t cp;
	uint8_t c;

	esc_init(&o, dst, dstsz);
	for (i = 0; i < len; i += k) {
		c = src[i];
		k = 1;
		if (esc_text_plain(c)) {
			/* The run of printable ASCII from here, in one copy. */
			k = esc_plain_end(src, i, len, 0) - i;
			esc_run(&o, (const char *)src + i, k);
		} else if (c == '\t')
			esc_put(&o, "\\t", 2);
		else if (c == '\n')
			esc_put(&o, "\\n", 2);
		else if (c == '\r')
			esc_put(&o, "\\r", 2);
		else if (c < 0x80)
			esc_xbyte(&o, c);
		else if ((k = esc_utf8(src + i, len - i, &cp)) > 0 &&
		    !esc_unsafe(cp))
			esc_put(&o, (const char *)src + i, k);
		else {
			/* Each byte of an unsafe or invalid sequence. */
			if (k == 0)
				k = 1;
			for (j = 0; j < k; j++)
				esc_xbyte(&o, src[i + j]);
		}
	}
	return (esc_end(&o));
}

/* Is s[0..len) valid UTF-8 by RFC 3629 (no overlongs, no surrogates)? */
int
kl_utf8_valid(const uint8_t *s, size_t len)
{
	size_t i, k;
	uint32_t cp;

	for (i = 0; i < len; i += k) {
		if (s[i] < 0x80) {
			k = 1;
#ifdef __SSE2__
			/* Skip ASCII sixteen bytes at a time. */
			while (len - i - k >= 16 && _mm_movemask_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)
			    (s + i + k))) == 0)
				k += 16;
#endif
			continue;
		}
		if ((k = esc_utf8(s + i, len - i, &cp)) == 0)
			return (0);
	}
	return (1);
}

/* Append "\uNNNN" for a BMP code point. */
static void
esc_ucode(struct esc_out *o, uint32_t cp)
{
	char u[6];

	u[0] = '\\';
	u[1] = 'u';
	u[2] = esc_hex[(cp >> 12) & 0xf];
	u[3] = esc_hex[(cp >> 8) & 0xf];
	u[4] = esc_hex[(cp >> 4) & 0xf];
	u[5] = esc_hex[cp & 0xf];
	esc_put(o, u, sizeof(u));
}

/*
 * Escape src[0..len) as the body of a JSON string (no quotes): \" \\
 * \b \f \n \r \t, other controls and DEL as \u00NN; also C1 controls,
 * U+2028/U+2029 (line ends to JavaScript) and bidi controls as \uNNNN.
 * The input should be valid UTF-8 (send other text as kl_base64); an
 * invalid byte still becomes \ufffd, so the output is always valid JSON.
 */
size_t
kl_esc_json(char *dst, size_t dstsz, const uint8_t *src, size_t len)
{
	struct esc_out o;
	size_t i, k;
	uint32_t cp;
	uint8_t c;

	esc_init(&o, dst, dstsz);
	for (i = 0; i < len; i += k) {
		c = src[i];
		k = 1;
		if (esc_json_plain(c)) {
			k = esc_plain_end(src, i, len, 1) - i;
			esc_run(&o, (const char *)src + i, k);
			continue;
		}
		switch (c) {
		case '"':
			esc_put(&o, "\\\"", 2);
			break;
		case '\\':
			esc_put(&o, "\\\\", 2);
			break;
		case '\b':
			esc_put(&o, "\\b", 2);
			break;
		case '\f':
			esc_put(&o, "\\f", 2);
			break;
		case '\n':
			esc_put(&o, "\\n", 2);
			break;
		case '\r':
			esc_put(&o, "\\r", 2);
			break;
		case '\t':
			esc_put(&o, "\\t", 2);
			break;
		default:
			if (c < 0x80)
				esc_ucode(&o, c);
			else if ((k = esc_utf8(src + i, len - i, &cp)) == 0) {
				k = 1;
				esc_ucode(&o, 0xfffd);
			} else if (esc_unsafe(cp))
				esc_ucode(&o, cp);
			else
				esc_put(&o, (const char *)src + i, k);
			break;
		}
	}
	return (esc_end(&o));
}

/* Encode src[0..len) in base64 (RFC 4648, standard alphabet, padded). */
size_t
kl_base64(char *dst, size_t dstsz, const uint8_t *src, size_t len)
{
	static const char tab[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	struct esc_out o;
	size_t i;
	uint32_t v;
	char q[4];

	esc_init(&o, dst, dstsz);
	for (i = 0; i < len; i += 3) {
		v = (uint32_t)src[i] << 16;
		if (len - i > 1)
			v |= (uint32_t)src[i + 1] << 8;
		if (len - i > 2)
			v |= src[i + 2];
		q[0] = tab[v >> 18];
		q[1] = tab[(v >> 12) & 0x3f];
		q[2] = len - i > 1 ? tab[(v >> 6) & 0x3f] : '=';
		q[3] = len - i > 2 ? tab[v & 0x3f] : '=';
		esc_put(&o, q, sizeof(q));
	}
	return (esc_end(&o));
}
