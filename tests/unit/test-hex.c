/*
 * test-hex.c - kl_hex_all(), kl_hex_value(): every byte value.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "kleak.h"

/* The value of every byte: 0-15 for the 22 hex digits, -1 otherwise. */
static void
test_value(void **state)
{
	unsigned c, ndig = 0;
	int v;

	(void)state;
	for (c = 0; c < 256; c++) {
		v = kl_hex_value((uint8_t)c);
		if (c >= '0' && c <= '9')
			assert_int_equal(v, (int)(c - '0'));
		else if (c >= 'a' && c <= 'f')
			assert_int_equal(v, (int)(c - 'a' + 10));
		else if (c >= 'A' && c <= 'F')
			assert_int_equal(v, (int)(c - 'A' + 10));
		else
			assert_int_equal(v, -1);
		ndig += v >= 0;
	}
	assert_int_equal(ndig, 22);
	/* 'F' | 0x20 is 'f', but 'G', 'g' and 0x86 ('f' | 0x80) are none. */
	assert_int_equal(kl_hex_value('G'), -1);
	assert_int_equal(kl_hex_value('g'), -1);
	assert_int_equal(kl_hex_value(0x86), -1);
}

/* Runs: all hex, one bad byte at each place, the empty run, NUL. */
static void
test_all(void **state)
{
	static const uint8_t tok[] = "ffff88806b2a0f00";
	uint8_t b[16];
	size_t i;

	(void)state;
	assert_true(kl_hex_all(tok, 16));
	assert_true(kl_hex_all((const uint8_t *)"0123456789abcdefABCDEF", 22));
	assert_true(kl_hex_all(tok, 0));
	for (i = 0; i < 16; i++) {
		memcpy(b, tok, 16);
		b[i] = 'x';
		assert_false(kl_hex_all(b, 16));
		assert_true(kl_hex_all(b, i));
		b[i] = '\0';
		assert_false(kl_hex_all(b, 16));
	}
	/* "0018:" of "RSP: 0018:ffffa667c016fe48": four digits, then ':'. */
	assert_true(kl_hex_all((const uint8_t *)"0018:", 4));
	assert_false(kl_hex_all((const uint8_t *)"0018:", 5));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_all),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
