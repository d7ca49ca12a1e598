/*
 * fuzz-live.c - libFuzzer harness for the parsers of --live and
 * --live-root (lib/live.c): kl_live_mask() on the bytes of a /proc or
 * /sys file, kl_live_symrange() on a kallsyms text (64- and 32-bit) and
 * kl_live_relpath() on each line taken as an archive member name,
 * kl_live_section() on the bytes as a supportconfig report file.
 *
 * Invariants: the mask changes only hex digits, each to '0', and masking
 * twice changes nothing more; a symbol range has lo <= hi, _text and
 * _stext inside it, and only top-bit values (or, 64-bit, text symbols
 * at or above 64 KiB: s390x before 6.5); a relative path lies inside
 * the name, does not start with '/' or "./", and is not empty.  A broken
 * invariant aborts.
 *
 * Seeds (corpus/live/): the files of tests/live-root (kallsyms of
 * the corpus boot, proc/1/status with its signal masks, the dmesg), a
 * KEY= bitmap line in the format of /proc/bus/input/devices, and a list
 * of sosreport member names, the report files of
 * tests/live-supportconfig.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Is c a hex digit? */
static int
ishex(int c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F'));
}

/* The symbol range invariants for bits. */
static void
symrange(const char *p, size_t n, unsigned bits)
{
	struct kl_symrange	r;
	size_t			k;

	k = kl_live_symrange(p, n, bits, &r);
	check(k == r.n);
	if (k == 0) {
		check(!r.have_text);
		return;
	}
	check(r.lo <= r.hi);
	/* 64-bit: the top bit, or a text symbol at or above 64 KiB. */
	check(bits == 64 ? r.lo >= 0x10000u : r.lo >= 0x80000000u &&
	    r.hi <= 0xffffffffu);
	if (r.have_text)
		check(r.lo <= r.text && r.text <= r.hi);
	if (r.have_stext)
		check(r.lo <= r.stext_addr && r.stext_addr <= r.hi);
}

/*
 * Supportconfig sections: each lies inside the bytes, after the last,
 * its kind on the header line, and no line of its body is a header.
 */
static void
sections(const char *p, size_t n)
{
	struct kl_live_section	sec;
	size_t			off = 0, last = 0, i;

	while (kl_live_section(p, n, &off, &sec)) {
		check(off > last && off <= n);
		check(sec.kind >= p + last && sec.kind + sec.klen <= p + n);
		check(sec.klen == 0 || memchr(sec.kind, '\n', sec.klen) ==
		    NULL);
		check(sec.title >= sec.kind && sec.title + sec.tlen <= p + n);
		check(sec.body <= n && sec.blen <= n - sec.body &&
		    sec.body + sec.blen == off);
		for (i = sec.body; i < sec.body + sec.blen; i++)
			if (i == sec.body || p[i - 1] == '\n')
				check(sec.body + sec.blen - i < 5 ||
				    memcmp(p + i, "#==[ ", 5) != 0);
		last = off;
	}
	check(off == n || off == last);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*a, *b, *line, *e, *end;
	const char	*rel;
	size_t		 i;

	if ((a = malloc(size + 1)) == NULL || (b = malloc(size + 1)) ==
	    NULL)
		abort();
	memcpy(a, data, size);
	a[size] = '\0';

	/* Masks: only hex digits become '0'; a second pass is a no-op. */
	(void)kl_live_mask(a, size);
	for (i = 0; i < size; i++)
		check(a[i] == (char)data[i] || (a[i] == '0' &&
		    ishex(data[i])));
	memcpy(b, a, size + 1);
	(void)kl_live_mask(b, size);
	check(memcmp(a, b, size) == 0);

	/* Supportconfig sections of the bytes as given. */
	sections((const char *)data, size);

	/* Symbol ranges of the bytes as given. */
	symrange((const char *)data, size, 64);
	symrange((const char *)data, size, 32);

	/* Each line as a member name. */
	memcpy(a, data, size);
	a[size] = '\0';
	end = a + size;
	for (line = a; line < end; line = e + 1) {
		if ((e = memchr(line, '\n', (size_t)(end - line))) == NULL)
			e = end;
		*e = '\0';
		if (strlen(line) != (size_t)(e - line))
			continue;	/* a NUL inside: not a name */
		if ((rel = kl_live_relpath(line)) == NULL)
			continue;
		check(rel >= line && rel < e);
		check(*rel != '/' && *rel != '\0' &&
		    !(rel[0] == '.' && rel[1] == '/'));
	}
	free(a);
	free(b);
	return (0);
}
