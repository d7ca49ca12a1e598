/*
 * live.c - the library side of --live and --live-root: what a file of a
 * live or captured system says that is not an address (signal masks,
 * bitmaps), the symbol range of a kallsyms text, and where a member of a
 * captured archive sits in the system it came from.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

/* Is c a hex digit? */
static int
ishex(int c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F'));
}

/* The length of the hex-digit run at p (at most n). */
static size_t
hexlen(const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n && ishex((unsigned char)p[i]); i++)
		;
	return (i);
}

/*
 * Zero, in place, what leaking_addresses.pl knows for masks and not
 * addresses: the signal masks of /proc/PID/status (SigBlk:, SigIgn:,
 * SigCgt:, SigPnd:, ShdPnd:) and bitmaps printed as a short hex word then
 * two or more 16-digit words (input capabilities, KEY=).  Only hex
 * digits change, each to '0'; returns the number of lines changed.
 */
size_t
kl_live_mask(char *p, size_t n)
{
	static const char *const sig[] = {
		"SigBlk:", "SigIgn:", "SigCgt:", "SigPnd:", "ShdPnd:", NULL
	};
	char	*l, *e, *end = p + n, *s, *w;
	size_t	 i, k, words, changed = 0;
	int	 hit;

	for (l = p; l < end; l = e + 1) {
		if ((e = memchr(l, '\n', (size_t)(end - l))) == NULL)
			e = end;
		for (i = 0; sig[i] != NULL; i++)
			if ((size_t)(e - l) >= strlen(sig[i]) &&
			    memcmp(l, sig[i], strlen(sig[i])) == 0)
				break;
		if (sig[i] != NULL) {
			for (s = l + strlen(sig[i]); s < e; s++)
				if (ishex((unsigned char)*s))
					*s = '0';
			changed++;
			continue;
		}
		hit = 0;
		for (s = l; s < e; s++) {
			if (!ishex((unsigned char)*s) || (s > l &&
			    ishex((unsigned char)s[-1])))
				continue;
			k = hexlen(s, (size_t)(e - s));
			if (k >= 16)
				continue;
			/* A short word, then 16-digit words. */
			for (w = s + k, words = 1; e - w >= 17 && *w == ' ' &&
			    hexlen(w + 1, (size_t)(e - w - 1)) == 16 &&
			    (e - w == 17 || !ishex((unsigned char)w[17]));
			    w += 17)
				words++;
			if (words < 3)
				continue;
			for (; s < w; s++)
				if (*s != ' ')
					*s = '0';
			s--;
			hit = 1;
		}
		changed += hit;
	}
	return (changed);
}

/*
 * The range of kernel symbols of a kallsyms (or System.map) text and its
 * _text (or, where it has no _text line, as the kasld captures and arm
 * and mips kallsyms trimmed to their anchors, its _stext), for a kernel
 * of the given bits (32 or 64): values with the top bit set only
 * (per-CPU offsets and zeros are not addresses).  bits 0: each line's
 * width says (8 or 16 digits), and a kernel symbol is one with its top
 * half set (64-bit; s390x's 000003ff... too) or at or above 0x10000000
 * (32-bit).  A 64-bit text symbol (type T or t) at or above 64 KiB is
 * one too: s390x kernels before 6.5 run at 0x100000, where per-CPU
 * offsets (type A, D, B) never are text.  Returns the number of such
 * symbols.
 */
size_t
kl_live_symrange(const char *p, size_t n, unsigned bits,
    struct kl_symrange *r)
{
	const char	*e, *end = p + n, *q;
	uint64_t	 v, top, stext = 0;
	size_t		 k;
	int		 have_stext = 0;

	memset(r, 0, sizeof(*r));
	for (; p < end; p = e + 1) {
		if ((e = memchr(p, '\n', (size_t)(end - p))) == NULL)
			e = end;
		k = hexlen(p, (size_t)(e - p));
		if (k == 0 || p + k >= e || p[k] != ' ' ||
		    (bits != 0 ? k > bits / 4 : k != 8 && k != 16))
			continue;
		for (v = 0, q = p; q < p + k; q++)
			v = v << 4 | (uint64_t)(*q <= '9' ? *q - '0' :
			    (*q | 0x20) - 'a' + 10);
		if (bits == 0)
			top = k == 8 ? UINT64_C(0x10000000) :
			    UINT64_C(1) << 32;
		else
			top = bits == 32 ? UINT64_C(0x80000000) :
			    UINT64_C(1) << 63;
		if ((bits == 32 || k == 8) && v > UINT64_C(0xffffffff))
			continue;
		if (v < top && (bits == 32 || k == 8 ||
		    v < UINT64_C(0x10000) || p + k + 2 >= e ||
		    (p[k + 1] != 'T' && p[k + 1] != 't') || p[k + 2] != ' '))
			continue;
		if (r->n == 0 || v < r->lo)
			r->lo = v;
		if (r->n == 0 || v > r->hi)
			r->hi = v;
		r->n++;
		/* "ADDR T _text", "ADDR T _stext" */
		if (e - p >= (ptrdiff_t)k + 8 && memcmp(e - 6, " _text", 6) ==
		    0 && e[-7] != ' ') {
			r->text = v;
			r->have_text = 1;
		} else if (e - p >= (ptrdiff_t)k + 9 &&
		    memcmp(e - 7, " _stext", 7) == 0 && e[-8] != ' ' &&
		    !have_stext) {
			stext = v;
			have_stext = 1;
		}
	}
	r->stext_addr = stext;
	r->have_stext = have_stext;
	if (!r->have_text && have_stext) {
		r->text = stext;
		r->have_text = 1;
		r->stext = 1;
	}
	return (r->n);
}

/*
 * Where a member of a captured archive sits, relative to the captured
 * system's root: "proc/...", "sys/...", "var/...", "boot/...",
 * "sos_commands/..." as they are, else with the one top directory
 * (sosreport-HOST-DATE/, scc_HOST_DATE/) taken off.  Leading "./" and
 * "/" go.  NULL when the member is the top directory itself.
 */
/* p without leading "./" and "/". */
static const char *
skip_dots(const char *p)
{
	for (;;) {
		if (p[0] == '.' && p[1] == '/')
			p += 2;
		else if (p[0] == '/')
			p++;
		else
			return (p);
	}
}

/* p relative to the captured system's root, or NULL for the top dir. */
const char *
kl_live_relpath(const char *p)
{
	static const char *const tops[] = {
		"proc/", "sys/", "var/", "boot/", "sos_commands/", NULL
	};
	const char	*s;
	size_t		 i;

	p = skip_dots(p);
	for (i = 0; tops[i] != NULL; i++)
		if (strncmp(p, tops[i], strlen(tops[i])) == 0)
			return (p);
	if ((s = strchr(p, '/')) == NULL)
		return (NULL);
	s = skip_dots(s + 1);
	return (*s != '\0' ? s : NULL);
}

/* The end of the line at p[i..n): the offset of its newline, or n. */
static size_t
eol(const char *p, size_t n, size_t i)
{
	const char	*e = memchr(p + i, '\n', n - i);

	return (e != NULL ? (size_t)(e - p) : n);
}

/* Does a section header ("#==[ ") start at p[i..n)? */
static int
is_header(const char *p, size_t n, size_t i)
{
	return (n - i >= 5 && memcmp(p + i, "#==[ ", 5) == 0);
}

/*
 * The next section of a supportconfig report file p[*off..n) into sec;
 * 0 when there is none.  A section is a header line "#==[ KIND ]===#",
 * a title line "# WHAT" (a path or a command) and a body up to the next
 * header; bytes before the first header are not a section.  *off moves
 * past the section.
 */
int
kl_live_section(const char *p, size_t n, size_t *off,
    struct kl_live_section *sec)
{
	size_t	i = *off, e, k;

	while (i < n && !is_header(p, n, i))
		i = eol(p, n, i) + 1;
	if (i >= n) {
		*off = n;
		return (0);
	}
	e = eol(p, n, i);
	for (k = i + 5; k < e && p[k] != ']'; k++)
		;
	sec->kind = p + i + 5;
	sec->klen = k - (i + 5);
	while (sec->klen > 0 && sec->kind[sec->klen - 1] == ' ')
		sec->klen--;
	i = e < n ? e + 1 : n;
	sec->title = p + i;
	sec->tlen = 0;
	if (n - i >= 2 && p[i] == '#' && p[i + 1] == ' ') {
		e = eol(p, n, i);
		sec->title = p + i + 2;
		sec->tlen = e - (i + 2);
		i = e < n ? e + 1 : n;
	}
	sec->body = i;
	while (i < n && !is_header(p, n, i))
		i = eol(p, n, i) + 1;
	if (i > n)
		i = n;
	sec->blen = i - sec->body;
	*off = i;
	return (1);
}
