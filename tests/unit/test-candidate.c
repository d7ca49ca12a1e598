/*
 * test-candidate.c - boundary rules of the fast candidate finder.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"
#include "kleak-int.h"

#define W8	1
#define W16	2

/* Run the finder over a literal; return the token count. */
static size_t
find(const char *s, size_t len, unsigned widths, struct kl_token *t,
    size_t max)
{
	size_t next;

	return (kl_cand_fast((const uint8_t *)s, len, 0, widths, t, max,
	    &next));
}
#define FIND(s, w, t) find((s), sizeof(s) - 1, (w), (t), 16)

/* A bare 16-digit run is one token at its first digit. */
static void
t_bare(void **state)
{
	struct kl_token t[16];

	(void)state;
	assert_int_equal(FIND("ffffffff81000000", W16, t), 1);
	assert_int_equal(t[0].start, 0);
	assert_int_equal(t[0].len, 16);
	assert_int_equal(t[0].prefix, 0);
	assert_true(t[0].value == 0xffffffff81000000ULL);
}

/* 0x and 0X prefixes are recognised and not part of the digits. */
static void
t_prefix(void **state)
{
	struct kl_token t[16];

	(void)state;
	assert_int_equal(FIND("at 0xffffffff81000000.", W16, t), 1);
	assert_int_equal(t[0].start, 5);
	assert_int_equal(t[0].prefix, 1);
	assert_int_equal(FIND("SSDT 0XFFFF8881010B6000 0005DC", W16, t), 1);
	assert_int_equal(t[0].prefix, 1);
	assert_true(t[0].value == 0xffff8881010b6000ULL);
	/* The 0 of 0x must itself be bounded. */
	assert_int_equal(FIND("a0xffffffff81000000", W16, t), 0);
	assert_int_equal(FIND("10xffffffff81000000", W16, t), 0);
	assert_int_equal(FIND("0x0xffffffff81000000", W16, t), 0);
}

/* Runs longer or shorter than the width, or glued to letters, are not. */
static void
t_bounds(void **state)
{
	struct kl_token t[16];

	(void)state;
	assert_int_equal(FIND("ffffffff810000001", W16, t), 0);
	assert_int_equal(FIND("fffffff81000000", W16, t), 0);
	assert_int_equal(FIND("gffffffff81000000", W16, t), 0);
	assert_int_equal(FIND("ffffffff81000000g", W16, t), 0);
	assert_int_equal(FIND("ffffffff81000000z ffffffff81000000", W16, t), 1);
	assert_int_equal(t[0].start, 18);
	/* Punctuation, '_' and non-ASCII bytes are boundaries. */
	assert_int_equal(FIND("[<ffffffff81234567>]", W16, t), 1);
	assert_int_equal(t[0].start, 2);
	assert_int_equal(FIND("nf_conntrack_ffff88003d5e8000", W16, t), 1);
	assert_int_equal(t[0].start, 13);
	assert_int_equal(FIND("\xc3\xa9" "ffffffff81000000" "\xc3\xa9", W16, t), 1);
	assert_int_equal(t[0].start, 2);
}

/*
 * rsyslog escapes control bytes as "#ooo": a value glued behind "#012"
 * (newline), "#011" (tab) or "#015" (carriage return) is a token; other
 * escapes, or a letter there, are not boundaries.
 */
static void
t_rsyslog(void **state)
{
	struct kl_token t[16];

	(void)state;
	assert_int_equal(FIND("x#012ffff888103b2c400 y", W16, t), 1);
	assert_int_equal(t[0].start, 5);
	assert_int_equal(t[0].len, 16);
	assert_true(t[0].value == 0xffff888103b2c400ULL);
	assert_int_equal(FIND("#011c0a1b2c3)", W8, t), 1);
	assert_int_equal(t[0].start, 4);
	assert_int_equal(FIND("#015c0a1b2c3", W8 | W16, t), 1);
	assert_int_equal(FIND("#013ffff888103b2c400", W16, t), 0);
	assert_int_equal(FIND("a012ffff888103b2c400", W16, t), 0);
	assert_int_equal(FIND("#012ffff888103b2c4001", W16, t), 0);
	assert_int_equal(FIND("#01zdeadbeef", W8, t), 0);
	/* Without the width asked for, nothing. */
	assert_int_equal(FIND("#012ffff888103b2c400", W8, t), 0);
}

/* NUL bytes are data and boundaries. */
static void
t_nul(void **state)
{
	struct kl_token t[16];
	const char s[] = "\0ffffffff81000000\0ffff888000000000";

	(void)state;
	assert_int_equal(find(s, sizeof(s) - 1, W16, t, 16), 2);
	assert_int_equal(t[0].start, 1);
	assert_int_equal(t[1].start, 18);
}

/* Width selection: 8, 16 or both. */
static void
t_widths(void **state)
{
	struct kl_token t[16];

	(void)state;
	assert_int_equal(FIND("pc : [<c0123456>] ffffffff81000000", W8, t), 1);
	assert_true(t[0].value == 0xc0123456ULL);
	assert_int_equal(FIND("pc : [<c0123456>] ffffffff81000000", W16, t), 1);
	assert_true(t[0].value == 0xffffffff81000000ULL);
	assert_int_equal(FIND("pc : [<c0123456>] ffffffff81000000",
	    W8 | W16, t), 2);
	/* A 16-digit run is not two 8-digit ones. */
	assert_int_equal(FIND("ffffffff81000000", W8, t), 0);
}

/* Tokens at the very end, and runs cut short by the buffer end. */
static void
t_edges(void **state)
{
	struct kl_token t[16];

	(void)state;
	assert_int_equal(FIND("x ffffffff81000000", W16, t), 1);
	assert_int_equal(FIND("ffffffff8100000", W16, t), 0);
	assert_int_equal(FIND("", W16, t), 0);
	assert_int_equal(FIND("1234567", W8, t), 0);
	assert_int_equal(FIND("12345678", W8, t), 1);
}

/* A full output array resumes where it stopped; from skips a started run. */
static void
t_resume(void **state)
{
	const char s[] = "ffffffff81000000 ffffffff81000010 ffffffff81000020";
	struct kl_token t[4];
	size_t next, n;

	(void)state;
	n = kl_cand_fast((const uint8_t *)s, sizeof(s) - 1, 0, W16, t, 1,
	    &next);
	assert_int_equal(n, 1);
	assert_int_equal(next, 17);
	n = kl_cand_fast((const uint8_t *)s, sizeof(s) - 1, next, W16, t, 4,
	    &next);
	assert_int_equal(n, 2);
	assert_int_equal(t[0].start, 17);
	assert_int_equal(next, sizeof(s) - 1);
	/* Resuming before a 0x token keeps its prefix. */
	n = kl_cand_fast((const uint8_t *)"0x12345678 0x12345679", 21, 0, W8,
	    t, 1, &next);
	assert_int_equal(next, 11);
	n = kl_cand_fast((const uint8_t *)"0x12345678 0x12345679", 21, next,
	    W8, t, 4, &next);
	assert_int_equal(n, 1);
	assert_int_equal(t[0].prefix, 1);
	/* Starting inside the first run: it belongs to an earlier call. */
	n = kl_cand_fast((const uint8_t *)s, sizeof(s) - 1, 3, W16, t, 4,
	    &next);
	assert_int_equal(n, 2);
	assert_int_equal(t[0].start, 17);
}

/* kl_hexval parses both cases and rejects non-hex and long input. */
static void
t_hexval(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(kl_hexval((const uint8_t *)"FfFf0000", 8, &v), 0);
	assert_true(v == 0xffff0000ULL);
	assert_int_equal(kl_hexval((const uint8_t *)"12g4", 4, &v), -1);
	assert_int_equal(kl_hexval((const uint8_t *)"00000000000000000", 17,
	    &v), -1);
}

/* Token values in both cases, every digit at every place. */
static void
t_values(void **state)
{
	struct kl_token t[16];

	(void)state;
	assert_int_equal(FIND("DeadBeefCafe0189 aBcD2345 0x0123456789abcdef",
	    W8 | W16, t), 3);
	assert_true(t[0].value == 0xdeadbeefcafe0189ULL);
	assert_true(t[1].value == 0xabcd2345ULL);
	assert_true(t[2].value == 0x0123456789abcdefULL);
	assert_int_equal(FIND("FEDCBA98 76543210", W8, t), 2);
	assert_true(t[0].value == 0xfedcba98ULL);
	assert_true(t[1].value == 0x76543210ULL);
}

/* Each KL_C_* class of kl_ctype, against its definition. */
static void
t_ctype(void **state)
{
	unsigned c;
	int hex, alnum;

	(void)state;
	for (c = 0; c < 256; c++) {
		hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		    (c >= 'A' && c <= 'F');
		alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z');
		assert_int_equal(!!(kl_ctype[c] & KL_C_HEX), hex);
		assert_int_equal(!!(kl_ctype[c] & KL_C_ALNUM), alnum);
		assert_int_equal(!!(kl_ctype[c] & KL_C_WORD),
		    alnum || c == '_');
		assert_int_equal(!!(kl_ctype[c] & KL_C_LABELSEP),
		    c == ' ' || c == '\t' || c == ':' || c == '[' || c == '<' ||
		    c == '(' || c == '=');
		assert_int_equal(!!(kl_ctype[c] & KL_C_DUMP),
		    hex || c == ' ' || c == 'X' || c == '<' || c == '>' ||
		    c == '(' || c == ')');
		assert_int_equal(kl_ctype[c] & ~0x1f, 0);
	}
}

/* The first run of eight hex digits at or after i, byte by byte. */
static size_t
naive_hexrun(const uint8_t *b, size_t i, size_t len)
{
	size_t j, d;

	for (j = i; j + 8 <= len; j++) {
		for (d = 0; d < 8 && kl_isxdigit(b[j + d]); d++)
			continue;
		if (d == 8)
			return (j);
	}
	return (len);
}

/* kl_hexrun and each of its variants (the AVX2 one if the CPU has it). */
static size_t (*const hexruns[])(const uint8_t *, size_t, size_t) = {
	kl_hexrun, kl_hexrun_scalar,
#ifdef __SSE2__
	kl_hexrun_sse2,
#endif
#ifdef KL_AVX2
	kl_hexrun_avx2,
#endif
};
#define NHEXRUNS	(sizeof(hexruns) / sizeof(hexruns[0]))

/* kl_hexrun at every start over runs that cross the 64-byte steps. */
static void
t_hexrun(void **state)
{
	uint8_t b[400];
	size_t i, k, len, v, pos;
	uint32_t x = 1;

	(void)state;
	for (v = 0; v < NHEXRUNS; v++) {
		size_t (*hr)(const uint8_t *, size_t, size_t) = hexruns[v];

#ifdef KL_AVX2
		if (hr == kl_hexrun_avx2 && !__builtin_cpu_supports("avx2"))
			continue;
#endif
		/* Exact positions: seven digits are not a run, eight are. */
		memset(b, ' ', sizeof(b));
		memcpy(b + 30, "1234567", 7);
		memcpy(b + 40, "abcdefAB", 8);
		assert_int_equal(hr(b, 0, 100), 40);
		assert_int_equal(hr(b, 41, 100), 100);
		assert_int_equal(hr(b, 0, 47), 47);	/* cut at len */
		assert_int_equal(hr(b, 0, 48), 40);
		memcpy(b + 24, "0123456789", 10);		/* over 32 */
		assert_int_equal(hr(b, 0, 100), 24);
		assert_int_equal(hr(b, 25, 100), 25);
		assert_int_equal(hr(b, 29, 100), 29);	/* to 37 */
		assert_int_equal(hr(b, 30, 100), 40);
		assert_int_equal(hr(b, 100, 100), 100);
		assert_int_equal(hr(b, 101, 100), 100);

		/*
		 * Seven digits and a dash, as in the no-address benchmark,
		 * with one run of eight moved over every 64-byte seam.
		 */
		for (pos = 0; pos + 8 <= sizeof(b); pos++) {
			for (i = 0; i < sizeof(b); i++)
				b[i] = i % 8 == 7 ? '-' : "0123456789abcdef"[i % 16];
			memcpy(b + pos, "fedcba98", 8);
			for (i = 0; i < sizeof(b); i += 13) {
				assert_int_equal(hr(b, i, sizeof(b)),
				    naive_hexrun(b, i, sizeof(b)));
				assert_int_equal(hr(b, i, pos + 7),
				    naive_hexrun(b, i, pos + 7));
			}
		}

		/* Against a byte-by-byte search, in pseudo-random text. */
		for (k = 0; k < 100; k++) {
			for (i = 0; i < sizeof(b); i++) {
				x = x * 1103515245 + 12345;
				b[i] = (x >> 16) % 8 != 0 ?
				    "0aF9x:g\xff"[(x >> 20) % 4] :
				    (uint8_t)(x >> 24);
			}
			len = sizeof(b) - (k % 80);
			for (i = 0; i <= len; i++)
				assert_int_equal(hr(b, i, len),
				    naive_hexrun(b, i, len));
		}
	}
}

/* Compare two finder results: the tokens and where to resume. */
static void
same_tokens(const struct kl_token *a, size_t na, size_t nexta,
    const struct kl_token *b, size_t nb, size_t nextb)
{
	size_t i;

	assert_int_equal(na, nb);
	assert_int_equal(nexta, nextb);
	for (i = 0; i < na; i++) {
		assert_int_equal(a[i].start, b[i].start);
		assert_int_equal(a[i].len, b[i].len);
		assert_int_equal(a[i].prefix, b[i].prefix);
		assert_true(a[i].value == b[i].value);
	}
}

/* kl_cand_fast_at over buf[0, lim) from a hint; check the hint it returns. */
static size_t
cand_at(const uint8_t *buf, size_t len, size_t lim, size_t from,
    size_t first, struct kl_token *t, size_t *next)
{
	size_t n;

	n = kl_cand_fast_at(buf, len, lim, from, &first, 3, t, 3, next);
	if (first != SIZE_MAX)
		assert_int_equal(first, kl_hexrun(buf, *next, lim));
	return (n);
}

/*
 * kl_cand_fast_at over a piece of a longer buffer, with the first run
 * known (as the scanner knows it), unknown or wrong (before from), finds
 * what kl_cand_fast finds in the piece alone, and hands back the next
 * run after it when it knows it.
 */
static void
t_cand_at(void **state)
{
	static const char *const pieces[] = {
		"ffffffff81000000", "0x12345678", "deadbeef", "0X0000abcd",
		"1234567", "ffff888012345678abc", " ", ":", "_", "x", "0x",
		"[<", ">]", "g", "0xffffffffa0001234",
	};
	struct kl_token a[3], b[3];
	uint8_t buf[200];
	size_t i, k, len, lim, from, na, nb, nexta, nextb;
	uint32_t x = 7;

	(void)state;
	for (k = 0; k < 300; k++) {
		for (len = 0; len < 160;) {
			const char *p;

			x = x * 1103515245 + 12345;
			p = pieces[(x >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
			for (i = 0; p[i] != '\0' && len < 160; i++)
				buf[len++] = (uint8_t)p[i];
		}
		/* What follows the piece: a run, or text with a run later. */
		memset(buf + len, k % 2 ? 'f' : ' ', sizeof(buf) - len);
		memcpy(buf + sizeof(buf) - 9, "abcdef01", 8);
		len -= k % 50;
		for (lim = len; lim <= sizeof(buf); lim += sizeof(buf) - len) {
			for (from = 0; from <= len; from++) {
				nb = kl_cand_fast(buf, len, from, 3, b, 3, &nextb);
				na = cand_at(buf, len, lim, from,
				    kl_hexrun(buf, from, lim), a, &nexta);
				same_tokens(a, na, nexta, b, nb, nextb);
				na = cand_at(buf, len, lim, from, SIZE_MAX, a,
				    &nexta);
				same_tokens(a, na, nexta, b, nb, nextb);
				if (from > 0) {
					na = cand_at(buf, len, lim, from,
					    from - 1, a, &nexta);
					same_tokens(a, na, nexta, b, nb, nextb);
				}
			}
			if (lim == sizeof(buf))
				break;
		}
	}
}

/* The first place of nd in h by the definition, or NULL. */
static const uint8_t *
memmem_ref(const uint8_t *h, size_t hl, const char *nd, size_t nl)
{
	size_t i;

	for (i = 0; i + nl <= hl; i++)
		if (memcmp(h + i, nd, nl) == 0)
			return (h + i);
	return (NULL);
}

/*
 * kl_memmem() and each variant: needles of 1 to 40 bytes put at every
 * place of haystacks around the 32-place steps and MEMMEM_WIDE, with
 * their first and last bytes strewn elsewhere (near misses), each
 * haystack exactly hl bytes (a read past it shows under the sanitizers).
 */
static void
t_memmem(void **state)
{
	static const char nd[] = "Linux version 6.1.0-57-amd64 (debian-k)";
	const uint8_t *(*const fns[])(const uint8_t *, size_t, const char *,
	    size_t) = {
		kl_memmem, kl_memmem_scalar,
#ifdef KL_AVX2
		kl_memmem_avx2,
#endif
	};
	static const size_t hls[] = { 0, 1, 31, 32, 33, 63, 64, 65, 255, 256,
		257, 300, 511, 1000 };
	uint8_t *h;
	size_t nl, hi, hl, at, i, v;

	(void)state;
	for (nl = 1; nl < sizeof(nd); nl += nl < 4 ? 1 : 5)
		for (hi = 0; hi < sizeof(hls) / sizeof(hls[0]); hi++) {
			hl = hls[hi];
			h = malloc(hl > 0 ? hl : 1);
			assert_non_null(h);
			for (at = 0; at <= hl; at += at < 80 ? 1 : 37) {
				for (i = 0; i < hl; i++)
					h[i] = i % 7 == 0 ? (uint8_t)nd[0] :
					    i % 11 == 0 ? (uint8_t)nd[nl - 1] :
					    'a' + i % 13;
				if (at + nl <= hl)
					memcpy(h + at, nd, nl);
				for (v = 0; v < sizeof(fns) / sizeof(fns[0]);
				    v++) {
#ifdef KL_AVX2
					if (fns[v] == kl_memmem_avx2 &&
					    !__builtin_cpu_supports("avx2"))
						continue;
#endif
					assert_ptr_equal(fns[v](h, hl, nd, nl),
					    memmem_ref(h, hl, nd, nl));
				}
			}
			free(h);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_bare),
		cmocka_unit_test(t_prefix),
		cmocka_unit_test(t_bounds),
		cmocka_unit_test(t_rsyslog),
		cmocka_unit_test(t_nul),
		cmocka_unit_test(t_widths),
		cmocka_unit_test(t_edges),
		cmocka_unit_test(t_resume),
		cmocka_unit_test(t_hexval),
		cmocka_unit_test(t_ctype),
		cmocka_unit_test(t_hexrun),
		cmocka_unit_test(t_cand_at),
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_memmem),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
