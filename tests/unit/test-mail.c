/*
 * test-mail.c - mail text helpers (lib/mail.c): quote prefixes and
 * no-break spaces, byte for byte.  The quoted-printable line is the
 * one the issue cites from linux-arm-kernel; the others pin one rule.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"
#include "kleak-int.h"

#define Q(s)	kl_mail_quote((const uint8_t *)(s), sizeof(s) - 1)

/* Quote prefixes: "> ", ">> ", "> > ", "| ", and what is not one. */
static void
t_quote(void **state)
{
	(void)state;
	assert_int_equal(Q("> [    1.0] x"), 2);
	assert_int_equal(Q(">> [    1.0] x"), 3);
	assert_int_equal(Q("> > > NIP:  c0000000"), 6);
	assert_int_equal(Q(">[    1.0] x"), 1);
	assert_int_equal(Q("| [    1.0] x"), 2);
	assert_int_equal(Q("|x"), 0);
	assert_int_equal(Q("[    1.0] > x"), 0);
	assert_int_equal(Q(">"), 1);
	assert_int_equal(Q(""), 0);
	assert_int_equal(kl_mail_quote(NULL, 3), 0);
}

/* Check that kl_mail_spaces turns in[] into want[], k replacements. */
static void
spaces(const char *in, const char *want, size_t k)
{
	uint8_t b[128];
	size_t n = strlen(in);

	assert_true(n < sizeof(b));
	memcpy(b, in, n);
	assert_int_equal(kl_mail_spaces(b, n), k);
	assert_int_equal(strlen(want), n);
	assert_memory_equal(b, want, n);
}

/* No-break spaces: UTF-8, Latin-1, QP; other bytes left alone. */
static void
t_spaces(void **state)
{
	(void)state;
	spaces("> [=A0=A0 49.993493] 9f40: c0281ccc",
	    "> [       49.993493] 9f40: c0281ccc", 2);
	spaces("NIP:=C2=A0 c000000001357408", "NIP:       c000000001357408", 1);
	spaces("a\xc2\xa0" "b", "a  b", 1);
	spaces("\xa0x\xa0", " x ", 2);
	/* U+00E0 (C3 A0) is a letter, not a space. */
	spaces("\xc3\xa0 b", "\xc3\xa0 b", 0);
	spaces("x=a0y=3D", "x   y=3D", 1);
	spaces("=C2", "=C2", 0);
	spaces("=A", "=A", 0);
	assert_int_equal(kl_mail_spaces(NULL, 4), 0);
}

/* The cheap test that decides whether a line needs a copy. */
static void
t_suspect(void **state)
{
	(void)state;
	assert_true(kl_mail_suspect((const uint8_t *)"> x", 3));
	assert_true(kl_mail_suspect((const uint8_t *)"| x", 3));
	assert_true(kl_mail_suspect((const uint8_t *)"a=A0", 4));
	assert_true(kl_mail_suspect((const uint8_t *)"a=c2", 4));
	assert_true(kl_mail_suspect((const uint8_t *)"a\xa0", 2));
	assert_false(kl_mail_suspect((const uint8_t *)"a=B0 x|y", 8));
	assert_false(kl_mail_suspect((const uint8_t *)"[    1.0] x > y", 15));
	assert_false(kl_mail_suspect(NULL, 0));
}

/*
 * The 16-byte blocks of kl_mail_suspect(): every position of a no-break
 * space or a quoted-printable one, in lines of every length up to three
 * blocks, is seen (the last block overlaps the one before), "=A" cut at
 * the end of the line is not one, and a line of '=' without one is not
 * suspect however long.  The buffer is exactly n bytes, so a read past
 * the line shows under the sanitizers.
 */
static void
t_suspect_blocks(void **state)
{
	static const char *const marks[] = { "\xa0", "=A0", "=a0", "=C2",
	    "=c2" };
	uint8_t *b;
	size_t n, at, k, ml;

	(void)state;
	for (n = 1; n <= 48; n++) {
		b = malloc(n);
		assert_non_null(b);
		memset(b, 'x', n);
		assert_false(kl_mail_suspect(b, n));
		memset(b, '=', n);
		assert_false(kl_mail_suspect(b, n));
		for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++) {
			ml = strlen(marks[k]);
			for (at = 0; at + ml <= n; at++) {
				memset(b, 'x', n);
				memcpy(b + at, marks[k], ml);
				assert_true(kl_mail_suspect(b, n));
			}
			/* Cut by the end of the line: no token. */
			if (ml == 3 && n >= 2) {
				memset(b, 'x', n);
				memcpy(b + n - 2, marks[k], 2);
				assert_false(kl_mail_suspect(b, n));
			}
		}
		free(b);
	}
}

/* kl_line_end() and each of its variants (the AVX2 one if the CPU has it). */
static size_t (*const line_ends[])(const uint8_t *, size_t, size_t *) = {
	kl_line_end, kl_line_end_scalar,
#ifdef __SSE2__
	kl_line_end_sse2,
#endif
#ifdef KL_AVX2
	kl_line_end_avx2,
#endif
};

/*
 * Every variant of kl_line_end() on b[0..n): the end is e, the mark m;
 * kl_mail_suspect_from() from the mark says what kl_mail_suspect() says.
 */
static void
check_line_end(const uint8_t *b, size_t n, size_t e, size_t m)
{
	size_t v, ge, gm;

	for (v = 0; v < sizeof(line_ends) / sizeof(line_ends[0]); v++) {
#ifdef KL_AVX2
		if (line_ends[v] == kl_line_end_avx2 &&
		    !__builtin_cpu_supports("avx2"))
			continue;
#endif
		ge = line_ends[v](b, n, &gm);
		assert_int_equal(ge, e);
		assert_int_equal(gm, m);
	}
	assert_int_equal(kl_mail_suspect_from(b, e, m), kl_mail_suspect(b, e));
}

/*
 * kl_line_end(): a newline, and an A0, a '=' or a '#' with another of
 * them three bytes on, at every position of buffers of every length up to five
 * 32-byte blocks; the mark before, at and after the newline, and no
 * newline at all.  Each buffer is exactly n bytes (a read past it shows
 * under the sanitizers).
 */
static void
t_line_end(void **state)
{
	static const uint8_t marks[] = { 0xa0, '=', '#' };
	uint8_t *b;
	size_t n, nl, at, k, m;

	(void)state;
	for (n = 0; n <= 160; n++) {
		b = malloc(n > 0 ? n : 1);
		assert_non_null(b);
		for (nl = 0; nl <= n; nl++)
			for (at = 0; at <= n; at += at < 70 ? 1 : 7)
				for (k = 0; k < 3; k++) {
					memset(b, 'x', n);
					if (nl < n)
						b[nl] = '\n';
					m = SIZE_MAX;
					if (at < n && at != nl)
						b[m = at] = marks[k];
					if (at + 3 < n && at + 3 != nl) {
						b[at + 3] = marks[(k + 1) % 3];
						if (m == SIZE_MAX)
							m = at + 3;
					}
					check_line_end(b, n, nl,
					    m < nl ? m : nl);
				}
		free(b);
	}
	/* A quoted-printable no-break space after the mark is found. */
	b = (uint8_t *)"[    1.0] a=b x=C2=A0y\nz";
	check_line_end(b, strlen((char *)b), 22, 11);
	assert_true(kl_mail_suspect_from(b, 22, 11));
	assert_false(kl_mail_suspect_from(b, 11, 11));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_quote),
		cmocka_unit_test(t_spaces),
		cmocka_unit_test(t_suspect),
		cmocka_unit_test(t_suspect_blocks),
		cmocka_unit_test(t_line_end),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
