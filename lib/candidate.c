/*
 * candidate.c - the fast candidate finder.
 *
 * A candidate is a maximal run of hex digits, optionally after 0x or 0X,
 * bounded on both sides by a byte that is not an ASCII letter or digit
 * ('_' and every byte >= 0x80 are boundaries), whose length is one of the
 * widths the architecture prints (8 or 16 digits).  The finder looks at
 * every eighth byte first: a run of eight or more hex digits must cover
 * one of them, so text without long runs is skipped eight bytes a step.
 */
#include "config.h"

#include <string.h>

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
	if (c <= '9')
		return (c - '0');
	return ((c | 0x20) - 'a' + 10);
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
		if (i + 7 < len) {
			if (!kl_isxdigit(buf[i + 7])) {
				i += 8;
				continue;
			}
			s = i + 7;
			while (s > i && kl_isxdigit(buf[s - 1]))
				s--;
		} else {
			/* Fewer than eight bytes left: no run of eight. */
			break;
		}
		e = s + 1;
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
			(void)kl_hexval(buf + s, rl, &out[n].value);
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
