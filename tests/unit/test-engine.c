/*
 * test-engine.c - the PCRE2 reference engine, and the differential check
 * that the fast finder gives exactly the same tokens.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"
#include "kleak-int.h"

static struct kl_engine *eng;
static void *md;

/* Compile the engine once for the group. */
static int
setup(void **state)
{
	struct kl_options o;
	struct kl_error err;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.engine = KL_ENGINE_PCRE2;
	if ((eng = kl_engine_new(&o, &err)) == NULL)
		return (-1);
	md = kl_engine_mdata(eng);
	return (md == NULL ? -1 : 0);
}

/* Free the engine. */
static int
teardown(void **state)
{
	(void)state;
	kl_engine_mdata_free(md);
	kl_engine_free(eng);
	return (0);
}

/* Compare both finders over buf from every start in [0, starts). */
static void
same(const uint8_t *buf, size_t len, size_t starts, unsigned widths)
{
	struct kl_token a[64], b[64];
	size_t na, nb, i, from, nexta, nextb;

	for (from = 0; from < starts && from <= len; from++) {
		size_t fa = from, fb = from;

		do {
			na = kl_cand_fast(buf, len, fa, widths, a, 3, &nexta);
			nb = kl_cand_pcre2(eng, md, buf, len, fb, widths, b, 3,
			    &nextb);
			assert_int_equal(na, nb);
			for (i = 0; i < na; i++) {
				assert_int_equal(a[i].start, b[i].start);
				assert_int_equal(a[i].len, b[i].len);
				assert_int_equal(a[i].prefix, b[i].prefix);
				assert_true(a[i].value == b[i].value);
			}
			fa = nexta;
			fb = nextb;
		} while (na == 3);
	}
}

/* Hand-picked shapes from real logs. */
static void
t_shapes(void **state)
{
	static const char *cases[] = {
		"RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246",
		"[<ffffffff81234567>] func+0x12/0x40",
		"Freeing unused kernel memory: 1476K (ffffffff81f41000 - ffffffff820b2000)",
		"ACPI: SSDT 0xFFFF8881010B6000 0005DC (v02 PmRef  Cpu0Ist)",
		"nf_conntrack_ffff88003d5e8000 0x0xffffffff81000000 a0xffffffff81000000",
		"pc : [<c0123456>]    lr : [<c0234567>]    psr: 60000013",
		"ffffffff810000001 fffffff81000000 ffffffff81000000",
		"0x 0x1 0xg 0x12345678 X12345678 _12345678_",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		same((const uint8_t *)cases[i], strlen(cases[i]),
		    strlen(cases[i]) + 1, 3);
		same((const uint8_t *)cases[i], strlen(cases[i]), 1, 1);
		same((const uint8_t *)cases[i], strlen(cases[i]), 1, 2);
	}
}

/* Random bytes drawn from an alphabet that makes boundary cases common. */
static void
t_random(void **state)
{
	static const char alpha[] = "0123456789abcdefABCDEFxXg_ -:[<>]\n\0\x80";
	uint8_t buf[512];
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t i, round, len;

	(void)state;
	for (round = 0; round < 20000; round++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		len = (size_t)(x % sizeof(buf));
		for (i = 0; i < len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* Mostly hex digits, so that long runs happen. */
			if ((x >> 8) % 4 != 0)
				buf[i] = (uint8_t)alpha[(x >> 16) % 22];
			else
				buf[i] = (uint8_t)alpha[(x >> 16) %
				    (sizeof(alpha) - 1)];
		}
		same(buf, len, round % 50 == 0 ? len + 1 : 2, 3);
		same(buf, len, 1, 1 + (unsigned)(round % 2));
	}
}

/* The version string is PCRE2's, and JIT status is a boolean. */
static void
t_version(void **state)
{
	char v[64];

	(void)state;
	kl_engine_pcre2_version(v, sizeof(v));
	assert_true(v[0] >= '1' && v[0] <= '9');
	assert_true(strchr(v, '.') != NULL);
	assert_true(kl_engine_jit(eng) == 0 || kl_engine_jit(eng) == 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_shapes),
		cmocka_unit_test(t_random),
		cmocka_unit_test(t_version),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
