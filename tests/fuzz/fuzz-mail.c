/*
 * fuzz-mail.c - libFuzzer harness for the mail text helpers (lib/mail.c).
 *
 * The input is split into lines; each line is copied into a buffer of
 * its exact size (so that reading past it is caught by ASan), tested
 * with kl_mail_suspect(), its quote prefix measured and its no-break
 * spaces replaced.  Invariants: the quote is within the line and made
 * of '>', '|' and spaces; replacing changes only 0xa0, 0xc2 and the
 * bytes of "=C2=A0" / "=A0" tokens, and only into spaces; a second pass
 * finds nothing more; a line needing neither helper is not suspect;
 * kl_mail_suspect(), which reads 16 bytes at a time, says what a plain
 * byte-by-byte reading of its definition says.  kl_line_end(), run on
 * the rest of the input from each line start (a copy of its exact size),
 * finds the line's end and its first A0 or '=' as a byte-by-byte search
 * does (also 16 bytes a step), and kl_mail_suspect_from() from
 * that mark says what kl_mail_suspect() says.  A broken invariant
 * aborts.
 *
 * Seeds (corpus/mail/): lines of ../shared/corpus/mail (linux-arm-kernel
 * quoted-printable with =A0, linux-s390 d6e6bde3 with raw no-break
 * spaces, linux-mips 00933387 with deep "> > >" quoting).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* kl_mail_suspect() byte by byte, as its comment defines it. */
static int
suspect_ref(const uint8_t *b, size_t n)
{
	size_t i;

	if (n == 0)
		return (0);
	if (b[0] == '>' || (b[0] == '|' && n > 1 && b[1] == ' '))
		return (1);
	for (i = 0; i < n; i++) {
		if (b[i] == 0xa0)
			return (1);
		if (b[i] == '=' && i + 3 <= n &&
		    (((b[i + 1] == 'A' || b[i + 1] == 'a') && b[i + 2] == '0') ||
		    ((b[i + 1] == 'C' || b[i + 1] == 'c') && b[i + 2] == '2')))
			return (1);
	}
	return (0);
}

/*
 * Check kl_line_end() on b[0..n) against a byte-by-byte search: as the
 * CPU chooses (AVX2 here), and 16 bytes a step.
 */
static void
line_end(const uint8_t *b, size_t n)
{
	size_t i, e, m, rm = SIZE_MAX;

	for (i = 0; i < n && b[i] != '\n'; i++)
		if (rm == SIZE_MAX && (b[i] == 0xa0 || b[i] == '=' ||
		    b[i] == '#'))
			rm = i;
	if (rm > i)
		rm = i;
	e = kl_line_end(b, n, &m);
	check(e == i && m == rm);
#ifdef __SSE2__
	e = kl_line_end_sse2(b, n, &m);
	check(e == i && m == rm);
#endif
	check(kl_mail_suspect_from(b, i, rm) == suspect_ref(b, i));
}

/* Check the helpers on one line b[0..n). */
static void
one(const uint8_t *b, size_t n)
{
	uint8_t *c;
	size_t q, i, k;
	int sus;

	c = malloc(n > 0 ? n : 1);
	check(c != NULL);
	memcpy(c, b, n);
	sus = kl_mail_suspect(c, n);
	check(sus == suspect_ref(c, n));
	q = kl_mail_quote(c, n);
	check(q <= n);
	for (i = 0; i < q; i++)
		check(c[i] == '>' || c[i] == '|' || c[i] == ' ');
	k = kl_mail_spaces(c, n);
	for (i = 0; i < n; i++)
		if (c[i] != b[i])
			check(c[i] == ' ' && (b[i] == 0xa0 || b[i] == 0xc2 ||
			    b[i] == '=' || b[i] == 'A' || b[i] == 'a' ||
			    b[i] == 'C' || b[i] == 'c' || b[i] == '2' ||
			    b[i] == '0'));
	if (k > 0 || q > 0)
		check(sus);
	check(kl_mail_spaces(c, n) == 0);
	free(c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *e = data + size, *nl;
	uint8_t *all;

	all = malloc(size > 0 ? size : 1);
	check(all != NULL);
	memcpy(all, data, size);
	while (p < e) {
		line_end(all + (p - data), (size_t)(e - p));
		nl = memchr(p, '\n', (size_t)(e - p));
		if (nl == NULL)
			nl = e;
		one(p, (size_t)(nl - p));
		p = nl + 1;
	}
	free(all);
	return (0);
}
