/*
 * test-escape.c - terminal and JSON escaping, UTF-8 checking, base64
 * (lib/escape.c).  Each case pins one rule to exact output bytes.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"

#define B(s)	(const uint8_t *)(s), sizeof(s) - 1

/*
 * Check that fn turns in[0..n) into want: with room to spare, with room
 * for exactly the output, and with no buffer at all.
 */
static void
expect(size_t (*fn)(char *, size_t, const uint8_t *, size_t),
    const uint8_t *in, size_t n, const char *want)
{
	char buf[512];
	size_t wl = strlen(want);

	assert_true(wl < sizeof(buf));
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(fn(buf, sizeof(buf), in, n), wl);
	assert_string_equal(buf, want);
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(fn(buf, wl + 1, in, n), wl);
	assert_string_equal(buf, want);
	assert_int_equal(buf[wl + 1], 'Z');
	assert_int_equal(fn(NULL, 0, in, n), wl);
}

/* Printable ASCII goes out as it is; a backslash stays a backslash. */
static void
t_text_ascii(void **state)
{
	(void)state;
	expect(kl_esc_text, B(""), "");
	expect(kl_esc_text, B("hello, world ~!"), "hello, world ~!");
	expect(kl_esc_text, B(" !\"#$%&'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~"),
	    " !\"#$%&'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~");
	expect(kl_esc_text, B("a\\b \\x41"), "a\\b \\x41");
}

/* TAB, CR, LF by name; other C0 controls and DEL as \xNN. */
static void
t_text_controls(void **state)
{
	(void)state;
	expect(kl_esc_text, B("\t\r\n"), "\\t\\r\\n");
	expect(kl_esc_text, B("a\0b"), "a\\x00b");
	expect(kl_esc_text, B("\x01\x07\x08\x0b\x0c\x1b\x1f"),
	    "\\x01\\x07\\x08\\x0b\\x0c\\x1b\\x1f");
	expect(kl_esc_text, B("\x7f"), "\\x7f");
	/* an ANSI sequence from a console log */
	expect(kl_esc_text, B("\x1b[2J[    0.000000]"),
	    "\\x1b[2J[    0.000000]");
}

/* Valid UTF-8 of printable code points goes out as it is. */
static void
t_text_utf8(void **state)
{
	(void)state;
	expect(kl_esc_text, B("caf\xc3\xa9"), "caf\xc3\xa9");	/* U+00E9 */
	expect(kl_esc_text, B("\xc2\xa0"), "\xc2\xa0");		/* U+00A0 */
	expect(kl_esc_text, B("\xdf\xbf"), "\xdf\xbf");		/* U+07FF */
	expect(kl_esc_text, B("\xe0\xa0\x80"), "\xe0\xa0\x80");	/* U+0800 */
	expect(kl_esc_text, B("\xe2\x82\xac"), "\xe2\x82\xac");	/* U+20AC */
	expect(kl_esc_text, B("\xed\x9f\xbf"), "\xed\x9f\xbf");	/* U+D7FF */
	expect(kl_esc_text, B("\xee\x80\x80"), "\xee\x80\x80");	/* U+E000 */
	expect(kl_esc_text, B("\xef\xbf\xbd"), "\xef\xbf\xbd");	/* U+FFFD */
	expect(kl_esc_text, B("\xf0\x90\x80\x80"), "\xf0\x90\x80\x80");
	expect(kl_esc_text, B("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
	expect(kl_esc_text, B("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
}

/* C1 controls, separators and bidi controls: each byte as \xNN. */
static void
t_text_unsafe(void **state)
{
	(void)state;
	expect(kl_esc_text, B("\xc2\x80"), "\\xc2\\x80");	/* U+0080 */
	expect(kl_esc_text, B("\xc2\x9b"), "\\xc2\\x9b");	/* CSI */
	expect(kl_esc_text, B("\xc2\x9f"), "\\xc2\\x9f");	/* U+009F */
	expect(kl_esc_text, B("\xe2\x80\xa8"), "\\xe2\\x80\\xa8");
	expect(kl_esc_text, B("\xe2\x80\xa9"), "\\xe2\\x80\\xa9");
	expect(kl_esc_text, B("\xe2\x80\xae"), "\\xe2\\x80\\xae");	/* RLO */
	expect(kl_esc_text, B("\xe2\x81\xa6"), "\\xe2\\x81\\xa6");	/* LRI */
	expect(kl_esc_text, B("\xe2\x80\x8f"), "\\xe2\\x80\\x8f");	/* RLM */
	expect(kl_esc_text, B("\xd8\x9c"), "\\xd8\\x9c");	/* ALM */
	/* the neighbours are printable */
	expect(kl_esc_text, B("\xe2\x80\xa7\xe2\x80\xaf"),
	    "\xe2\x80\xa7\xe2\x80\xaf");
}

/* Every byte of invalid UTF-8 as \xNN, resuming at the next byte. */
static void
t_text_invalid(void **state)
{
	(void)state;
	/* overlong */
	expect(kl_esc_text, B("\xc0\x80"), "\\xc0\\x80");
	expect(kl_esc_text, B("\xc1\xbf"), "\\xc1\\xbf");
	expect(kl_esc_text, B("\xe0\x9f\xbf"), "\\xe0\\x9f\\xbf");
	expect(kl_esc_text, B("\xf0\x8f\xbf\xbf"), "\\xf0\\x8f\\xbf\\xbf");
	/* surrogates */
	expect(kl_esc_text, B("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	expect(kl_esc_text, B("\xed\xbf\xbf"), "\\xed\\xbf\\xbf");
	/* above U+10FFFF */
	expect(kl_esc_text, B("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
	expect(kl_esc_text, B("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
	expect(kl_esc_text, B("\xfe\xff"), "\\xfe\\xff");
	/* stray continuation bytes */
	expect(kl_esc_text, B("\x80\xbf"), "\\x80\\xbf");
	/* cut short, at the end and before ASCII */
	expect(kl_esc_text, B("\xe2\x82"), "\\xe2\\x82");
	expect(kl_esc_text, B("\xe2\x82" "A"), "\\xe2\\x82" "A");
	expect(kl_esc_text, B("\xf0\x9f\x98"), "\\xf0\\x9f\\x98");
	/* a good sequence right after a bad lead byte */
	expect(kl_esc_text, B("\xc3\xc3\xa9"), "\\xc3\xc3\xa9");
	expect(kl_esc_text, B("a\xe2\x82\xac" "b\xff" "c"),
	    "a\xe2\x82\xac" "b\\xff" "c");
}

/* snprintf semantics; a unit (escape, UTF-8 sequence) is never cut. */
static void
t_text_trunc(void **state)
{
	char buf[16];

	(void)state;
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(kl_esc_text(buf, 0, B("hello")), 5);
	assert_int_equal(buf[0], 'Z');
	assert_int_equal(kl_esc_text(buf, 1, B("hello")), 5);
	assert_string_equal(buf, "");
	assert_int_equal(kl_esc_text(buf, 5, B("hello world")), 11);
	assert_string_equal(buf, "hell");
	/* "ab\x1b" needs 6: with room for 4 the escape is left out */
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(kl_esc_text(buf, 5, B("ab\x1b")), 6);
	assert_string_equal(buf, "ab");
	assert_int_equal(kl_esc_text(buf, 6, B("ab\x1b")), 6);
	assert_string_equal(buf, "ab");
	assert_int_equal(kl_esc_text(buf, 7, B("ab\x1b")), 6);
	assert_string_equal(buf, "ab\\x1b");
	/* nothing after a unit that did not fit */
	assert_int_equal(kl_esc_text(buf, 5, B("a\x1b" "b")), 6);
	assert_string_equal(buf, "a");
	/* UTF-8 is not split */
	assert_int_equal(kl_esc_text(buf, 3, B("a\xe2\x82\xac")), 4);
	assert_string_equal(buf, "a");
	assert_int_equal(kl_esc_text(buf, 5, B("a\xe2\x82\xac")), 4);
	assert_string_equal(buf, "a\xe2\x82\xac");
	assert_int_equal(kl_esc_text(buf, 2, B("\t")), 2);
	assert_string_equal(buf, "");
}

/* RFC 3629 validity. */
static void
t_utf8_valid(void **state)
{
	(void)state;
	assert_true(kl_utf8_valid(B("")));
	assert_true(kl_utf8_valid(B("plain ascii")));
	assert_true(kl_utf8_valid(B("\0")));
	assert_true(kl_utf8_valid(B("\x7f")));
	assert_true(kl_utf8_valid(B("\xc2\x80")));	/* C1 is valid UTF-8 */
	assert_true(kl_utf8_valid(B("\xdf\xbf")));
	assert_true(kl_utf8_valid(B("\xe0\xa0\x80")));
	assert_true(kl_utf8_valid(B("\xed\x9f\xbf")));
	assert_true(kl_utf8_valid(B("\xee\x80\x80")));
	assert_true(kl_utf8_valid(B("\xef\xbf\xbf")));
	assert_true(kl_utf8_valid(B("\xf0\x90\x80\x80")));
	assert_true(kl_utf8_valid(B("\xf4\x8f\xbf\xbf")));
	assert_true(kl_utf8_valid(B("caf\xc3\xa9 \xe2\x82\xac")));
	assert_false(kl_utf8_valid(B("\x80")));
	assert_false(kl_utf8_valid(B("\xbf")));
	assert_false(kl_utf8_valid(B("\xc0\x80")));
	assert_false(kl_utf8_valid(B("\xc1\xbf")));
	assert_false(kl_utf8_valid(B("\xc2")));
	assert_false(kl_utf8_valid(B("\xc2\x41")));
	assert_false(kl_utf8_valid(B("\xc2\xc0")));
	assert_false(kl_utf8_valid(B("\xe0\x80\x80")));
	assert_false(kl_utf8_valid(B("\xe0\x9f\xbf")));
	assert_false(kl_utf8_valid(B("\xed\xa0\x80")));
	assert_false(kl_utf8_valid(B("\xed\xbf\xbf")));
	assert_false(kl_utf8_valid(B("\xe2\x82")));
	assert_false(kl_utf8_valid(B("\xf0\x80\x80\x80")));
	assert_false(kl_utf8_valid(B("\xf0\x8f\xbf\xbf")));
	assert_false(kl_utf8_valid(B("\xf4\x90\x80\x80")));
	assert_false(kl_utf8_valid(B("\xf5\x80\x80\x80")));
	assert_false(kl_utf8_valid(B("\xf8\x88\x80\x80\x80")));
	assert_false(kl_utf8_valid(B("\xfe")));
	assert_false(kl_utf8_valid(B("\xff")));
	assert_false(kl_utf8_valid(B("ok\xf0\x9f\x98")));
	assert_false(kl_utf8_valid(B("\xe2\x82\xac\x80")));
}

/*
 * Long ASCII runs are skipped a vector at a time: one bad byte, or one
 * cut sequence, at any place of a long line is still found.
 */
static void
t_utf8_valid_long(void **state)
{
	uint8_t	b[80];
	size_t	i, n;

	(void)state;
	for (n = 1; n <= sizeof(b); n++)
		for (i = 0; i < n; i++) {
			memset(b, 'a', sizeof(b));
			assert_true(kl_utf8_valid(b, n));
			b[i] = 0xff;
			assert_false(kl_utf8_valid(b, n));
			b[i] = 0x80;
			assert_false(kl_utf8_valid(b, n));
			b[i] = 0xc3;	/* a lead: valid only with its tail */
			assert_int_equal(kl_utf8_valid(b, n), 0);
			if (i + 1 < n) {
				b[i + 1] = 0xa9;
				assert_true(kl_utf8_valid(b, n));
			}
		}
}

/* JSON string bodies. */
static void
t_json(void **state)
{
	(void)state;
	expect(kl_esc_json, B(""), "");
	expect(kl_esc_json, B("a \"q\" \\ /"), "a \\\"q\\\" \\\\ /");
	expect(kl_esc_json, B("\b\f\n\r\t"), "\\b\\f\\n\\r\\t");
	expect(kl_esc_json, B("\0\x01\x1b\x1f"),
	    "\\u0000\\u0001\\u001b\\u001f");
	expect(kl_esc_json, B("\x7f"), "\\u007f");
	expect(kl_esc_json, B("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect(kl_esc_json, B("\xe2\x80\xa8\xe2\x80\xa9"), "\\u2028\\u2029");
	expect(kl_esc_json, B("\xc2\x85\xc2\x9b"), "\\u0085\\u009b");
	expect(kl_esc_json, B("\xe2\x80\xae"), "\\u202e");
	expect(kl_esc_json, B("\xc2\xa0"), "\xc2\xa0");
	/* not the input it is for, but still valid JSON */
	expect(kl_esc_json, B("a\xff" "b\xed\xa0\x80"),
	    "a\\ufffdb\\ufffd\\ufffd\\ufffd");
	expect(kl_esc_json, B("\xe2\x82"), "\\ufffd\\ufffd");
}

/* JSON truncation keeps whole escapes. */
static void
t_json_trunc(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(kl_esc_json(buf, 4, B("ab\"")), 4);
	assert_string_equal(buf, "ab");
	assert_int_equal(kl_esc_json(buf, 5, B("ab\"")), 4);
	assert_string_equal(buf, "ab\\\"");
	assert_int_equal(kl_esc_json(buf, 7, B("a\x01")), 7);
	assert_string_equal(buf, "a");
	assert_int_equal(kl_esc_json(buf, 8, B("a\x01")), 7);
	assert_string_equal(buf, "a\\u0001");
	assert_int_equal(kl_esc_json(NULL, 0, B("\xe2\x80\xa8")), 6);
}

/*
 * Cut outputs, every buffer size, on strings made of pieces whose
 * escapes are known: the output is the whole units that fit, up to the
 * first that does not (a run of plain ASCII is one unit a byte).
 */
static void
t_cut_units(void **state)
{
	static const struct {
		const char	*in, *text, *json;
	} pc[] = {
		{ "a", "a", "a" }, { "Z", "Z", "Z" }, { " ", " ", " " },
		{ "\"", "\"", "\\\"" }, { "\\", "\\", "\\\\" },
		{ "\x01", "\\x01", "\\u0001" }, { "\t", "\\t", "\\t" },
		{ "\xe2\x82\xac", "\xe2\x82\xac", "\xe2\x82\xac" },
		{ "\xff", "\\xff", "\\ufffd" }, { "\x7f", "\\x7f", "\\u007f" },
	};
	const size_t np = sizeof(pc) / sizeof(pc[0]);
	char in[256], tfull[512], jfull[512], want[512], buf[512];
	size_t tu[64], ju[64], n, k, i, d, tl, jl, w, pi;
	unsigned seed = 12345;

	(void)state;
	for (k = 0; k < 400; k++) {
		n = 0;
		tl = jl = 0;
		seed = seed * 1103515245 + 12345;
		/* up to 63 pieces: runs longer than a vector step */
		for (i = 0; i < (seed >> 16) % 64; i++) {
			seed = seed * 1103515245 + 12345;
			/* mostly letters, so runs of plain bytes form */
			pi = (seed >> 16) % 8 == 0 ? (seed >> 20) % np :
			    (seed >> 20) % 3;
			memcpy(in + n, pc[pi].in, strlen(pc[pi].in));
			n += strlen(pc[pi].in);
			tu[i] = strlen(pc[pi].text);
			ju[i] = strlen(pc[pi].json);
			memcpy(tfull + tl, pc[pi].text, tu[i]);
			memcpy(jfull + jl, pc[pi].json, ju[i]);
			tl += tu[i];
			jl += ju[i];
		}
		for (d = 0; d <= jl + 2; d++) {
			/* text */
			for (w = 0, pi = 0; pi < i && d > 0 && w + tu[pi] < d;
			    pi++)
				w += tu[pi];
			if (d <= tl + 2) {
				memcpy(want, tfull, w);
				want[w] = '\0';
				memset(buf, 'Z', sizeof(buf));
				assert_int_equal(kl_esc_text(buf, d,
				    (const uint8_t *)in, n), tl);
				if (d > 0)
					assert_string_equal(buf, want);
				else
					assert_int_equal(buf[0], 'Z');
			}
			/* JSON */
			for (w = 0, pi = 0; pi < i && d > 0 && w + ju[pi] < d;
			    pi++)
				w += ju[pi];
			memcpy(want, jfull, w);
			want[w] = '\0';
			memset(buf, 'Z', sizeof(buf));
			assert_int_equal(kl_esc_json(buf, d, (const uint8_t *)in,
			    n), jl);
			if (d > 0)
				assert_string_equal(buf, want);
		}
	}
}

/* RFC 4648 section 10 test vectors, and the last two letters. */
static void
t_base64(void **state)
{
	(void)state;
	expect(kl_base64, B(""), "");
	expect(kl_base64, B("f"), "Zg==");
	expect(kl_base64, B("fo"), "Zm8=");
	expect(kl_base64, B("foo"), "Zm9v");
	expect(kl_base64, B("foob"), "Zm9vYg==");
	expect(kl_base64, B("fooba"), "Zm9vYmE=");
	expect(kl_base64, B("foobar"), "Zm9vYmFy");
	expect(kl_base64, B("\0\xff\xfe"), "AP/+");
	expect(kl_base64, B("\xfb\xff"), "+/8=");
	expect(kl_base64, B("\0"), "AA==");
	expect(kl_base64, B("\xff\xff\xff"), "////");
}

/* Base64 truncation keeps whole quads. */
static void
t_base64_trunc(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(kl_base64(buf, 4, B("foobar")), 8);
	assert_string_equal(buf, "");
	assert_int_equal(kl_base64(buf, 5, B("foobar")), 8);
	assert_string_equal(buf, "Zm9v");
	assert_int_equal(kl_base64(buf, 8, B("foobar")), 8);
	assert_string_equal(buf, "Zm9v");
	assert_int_equal(kl_base64(buf, 9, B("foobar")), 8);
	assert_string_equal(buf, "Zm9vYmFy");
	assert_int_equal(kl_base64(NULL, 0, B("fooba")), 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_text_ascii),
		cmocka_unit_test(t_text_controls),
		cmocka_unit_test(t_text_utf8),
		cmocka_unit_test(t_text_unsafe),
		cmocka_unit_test(t_text_invalid),
		cmocka_unit_test(t_text_trunc),
		cmocka_unit_test(t_utf8_valid),
		cmocka_unit_test(t_utf8_valid_long),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_json_trunc),
		cmocka_unit_test(t_cut_units),
		cmocka_unit_test(t_base64),
		cmocka_unit_test(t_base64_trunc),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
