/*
 * test-json.c - journalctl -o json, json-seq and json-pretty: strings
 * and escapes, byte arrays and repeated fields, invalid UTF-8, malformed
 * and truncated streams; and values patched in their raw JSON text.
 */

#include "config.h"

#include "journal-harness.h"

/* JSON: strings, escapes, offsets and exactness. */
static void
t_json_strings(void **state)
{
	static const char s[] =
	    "{\"__CURSOR\":\"s=1;i=2\",\"__REALTIME_TIMESTAMP\":\"77\","
	    "\"MESSAGE\":\"a\\nb \\u00e9 \\ud83d\\ude00 \\u0000 \\\"q\\\" \\/\","
	    "\"_BOOT_ID\" : \"bb\" , \"N\":12.5e3,\"T\":true}\n";
	struct coll c;
	const struct cfield *f;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.e[0].offset, 0);
	assert_string_equal(c.e[0].cursor, "s=1;i=2");
	assert_int_equal(c.e[0].realtime, 77);
	assert_string_equal(c.e[0].boot_id, "bb");
	assert_int_equal(c.e[0].nf, 6);
	IS(&c.e[0].f[0], "__CURSOR", "s=1;i=2", 13, 1);
	f = &c.e[0].f[2];
	IS(f, "MESSAGE", "a\nb \xc3\xa9 \xf0\x9f\x98\x80 \0 \"q\" /", 61, 0);
	IS(&c.e[0].f[3], "_BOOT_ID", "bb", 117, 1);
	IS(&c.e[0].f[4], "N", "12.5e3", 127, 1);
	IS(&c.e[0].f[5], "T", "true", 138, 1);
	coll_free(&c);
}

/* JSON: byte arrays, repeated fields, null. */
static void
t_json_arrays(void **state)
{
	static const char s[] =
	    "{\"MESSAGE\":[98,97,100,32,255,0],"		/* [ at 11 */
	    "\"L\":[\"a\",null,[1,2],[],\"b\"],"		/* 31 */
	    "\"Z\":null,\"E\":[]}\n"
	    "{\"MESSAGE\":[ 104 , 105 ]}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].nf, 5);
	IS(&c.e[0].f[0], "MESSAGE", "bad \xff\0", 11, 0);
	IS(&c.e[0].f[1], "L", "a", 38, 1);
	IS(&c.e[0].f[2], "L", "\x01\x02", 46, 0);
	IS(&c.e[0].f[3], "L", "", 52, 0);
	IS(&c.e[0].f[4], "L", "b", 56, 1);
	IS(&c.e[1].f[0], "MESSAGE", "hi", 88, 0);
	assert_int_equal(c.e[1].offset, 77);
	assert_int_equal(c.st.nulls, 2);
	coll_free(&c);
}

/* JSON: invalid UTF-8 is kept as it is; lone surrogates are U+FFFD. */
static void
t_json_invalid_utf8(void **state)
{
	static const char s[] =
	    "{\"MESSAGE\":\"bad \xff\xfe \xc3( ok\"}\n"
	    "{\"MESSAGE\":\"\\ud800x\\udc00\\ud800\\u0041\\ud800\"}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	IS(&c.e[0].f[0], "MESSAGE", "bad \xff\xfe \xc3( ok", 12, 1);
	IS(&c.e[1].f[0], "MESSAGE", "\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd"
	    "A\xef\xbf\xbd", 39, 0);
	coll_free(&c);
}

/* JSON: json-seq, and a record cut short by the next RS. */
static void
t_json_seq(void **state)
{
	static const char s[] =
	    "\x1e{\"A\":\"1\"}\n"
	    "\x1e{\"A\":\"2\",\"B\":\"cut\x1e{\"A\":\"3\"}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 12): record "
	    "separator at offset 29 inside an entry: entry truncated");
	assert_int_equal(c.err[0].line, 2);
	assert_int_equal(c.n, 3);
	IS(&c.e[1].f[0], "A", "2", 18, 1);
	assert_int_equal(c.e[1].nf, 1);
	assert_int_equal(c.e[1].partial, 1);
	IS(&c.e[2].f[0], "A", "3", 36, 1);
	assert_int_equal(c.e[2].index, 2);
	coll_free(&c);
}

/* JSON: malformed lines are reported by line; the next lines are read. */
static void
t_json_malformed(void **state)
{
	static const char s[] =
	    "{\"A\":\"1\"}\n"				/* line 1 */
	    "not json\n"				/* 2 */
	    "{\"A\":\"2\",\"B\" \"x\"}\n"		/* 3: no ':' */
	    "{\"a\":\"lower\",\"C\":\"3\"}\n"		/* 4: dropped */
	    "{\"A\":\"x\\q\"}\n"			/* 5: bad escape */
	    "{\"A\":\"new\nline\"}\n"			/* 6 */
	    "{\"A\":[1,\"s\"]}\n"			/* 8 */
	    "{\"A\":[256]}\n"				/* 9 */
	    "{\"A\":{}}\n"				/* 10 */
	    "{\"D\":\"4\"}\n";				/* 11 */
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 8);
	assert_string_equal(c.err[0].msg, "expected '{' at offset 10, found "
	    "'n'");
	assert_int_equal(c.err[0].line, 2);
	assert_string_equal(c.err[1].msg, "entry 1 (offset 19): expected ':' "
	    "at offset 32, found '\"'");
	assert_int_equal(c.err[1].line, 3);
	assert_string_equal(c.err[2].msg, "entry 2 (offset 37): invalid field "
	    "name \"a\" at offset 39; member dropped");
	assert_int_equal(c.err[2].line, 4);
	assert_string_equal(c.err[3].msg, "entry 3 (offset 59): invalid "
	    "escape at offset 66: 'q' after a backslash");
	assert_int_equal(c.err[3].line, 5);
	/* the rest of the broken line is part of the damage: no error */
	assert_string_equal(c.err[4].msg, "entry 4 (offset 71): unterminated "
	    "string at offset 80 (newline)");
	assert_int_equal(c.err[4].line, 6);
	assert_string_equal(c.err[5].msg, "entry 5 (offset 88): string at "
	    "offset 96 in a byte array");
	assert_int_equal(c.err[5].line, 8);
	assert_string_equal(c.err[6].msg, "entry 6 (offset 102): invalid "
	    "value 256 at offset 108");
	assert_int_equal(c.err[6].line, 9);
	assert_string_equal(c.err[7].msg, "entry 7 (offset 114): expected a "
	    "value at offset 119, found '{'");
	assert_int_equal(c.err[7].line, 10);
	assert_int_equal(c.n, 4);
	IS(&c.e[0].f[0], "A", "1", 6, 1);
	IS(&c.e[1].f[0], "A", "2", 25, 1);
	assert_int_equal(c.e[1].partial, 1);
	assert_int_equal(c.e[2].nf, 1);
	IS(&c.e[2].f[0], "C", "3", 55, 1);
	assert_int_equal(c.e[2].partial, 1);
	IS(&c.e[3].f[0], "D", "4", 129, 1);
	assert_int_equal(c.e[3].index, 8);
	assert_int_equal(c.rc_end, 0);
	assert_int_equal(c.st.entries, 9);
	coll_free(&c);
}

/* JSON: json-pretty objects over many lines. */
static void
t_json_pretty(void **state)
{
	static const char s[] =
	    "{\n\t\"A\" : \"1\",\n\t\"B\" : [\n\t\t104,\n\t\t105\n\t]\n}\n"
	    "{\n\t\"A\" : \"2\"\n}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	IS(&c.e[0].f[0], "A", "1", 10, 1);
	IS(&c.e[0].f[1], "B", "hi", 21, 0);
	IS(&c.e[1].f[0], "A", "2", 51, 1);
	coll_free(&c);
}

/* JSON: a truncated last entry: reported, what was read delivered. */
static void
t_json_truncated(void **state)
{
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, "{\"A\":\"1\"}\n{\"A\":\"2\",\"B\":\"par", 27,
	    &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 10): the stream "
	    "ends inside the entry (truncated object)");
	assert_int_equal(c.err[0].line, 2);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[1].partial, 1);
	IS(&c.e[1].f[1], "B", "par", 24, 1);
	coll_free(&c);
	/* in a name, in a byte array, after a value */
	parse_all(KL_UNIT_JSON, "{\"A\":\"1\",\"BB", 12, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.e[0].nf, 1);
	coll_free(&c);
	parse_all(KL_UNIT_JSON, "{\"A\":[104,105,10", 16, &c);
	assert_int_equal(c.n, 1);
	IS(&c.e[0].f[0], "A", "hi", 5, 0);
	coll_free(&c);
	parse_all(KL_UNIT_JSON, "{\"A\":\"1\"", 8, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 1);
	coll_free(&c);
}

/* Patch decoded bytes [d, d+n) of the JSON value at raw[at]: 0 or -1. */
static int
patch(char *raw, size_t at, size_t d, const char *repl, size_t *where)
{
	struct kl_error err;

	memset(&err, 0, sizeof(err));
	return (kl_journal_json_patch((uint8_t *)raw, strlen(raw), at, d,
	    (const uint8_t *)repl, strlen(repl), where, &err));
}

/* A string: decoded offsets map back across every kind of escape. */
static void
t_json_patch_string(void **state)
{
	/* \n \" \u00e9 (2 bytes) \ud83d\ude00 (4) \udc00 (U+FFFD, 3) \\ */
	char raw[] = "\"caf\\u00e9 \\\"q\\\"\\n\\ud83d\\ude00\\udc00\\\\ "
	    "R10: ffff888003a1c000 done\"";
	const char *want = "\"caf\\u00e9 \\\"q\\\"\\n\\ud83d\\ude00\\udc00"
	    "\\\\ R10: 0000000000000000 done\"";
	size_t where = 0;

	(void)state;
	/* decoded: "caf" 3 + e9 2 + " \"q\"\n" 5 + 4 + 3 + "\\ R10: " 7 */
	assert_int_equal(patch(raw, 1, 24, "0000000000000000", &where), 0);
	assert_string_equal(raw, want);
	assert_int_equal(where, strstr(want, "0000") - want);
	/* A digit made by an escape is refused, nothing changed. */
	strcpy(raw, "\"R10: \\u0066fff888003a1c000\"");
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), -1);
	assert_string_equal(raw, "\"R10: \\u0066fff888003a1c000\"");
	/* The held bytes end before the span does. */
	strcpy(raw, "\"R10: ffff8880");
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), -1);
	/* The value ends before the span. */
	strcpy(raw, "\"R10\",\"ffff888003a1c000\"");
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), -1);
}

/* A byte array: the numbers rewritten in their own width. */
static void
t_json_patch_array(void **state)
{
	/* "R10: ffff888003a1c000" with white space as json-pretty has */
	char raw[] = ":[82,49,48,58,32,102,102,102,102,56,56,56,48,48,51,97,"
	    "49,99,48, 48 ,48]}";
	char low[] = ":[102,102,102,102,56,56,56,48,48,51,48,48,48,48,49,"
	    "48]";
	size_t where = 0;

	(void)state;
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), 0);
	assert_string_equal(raw, ":[82,49,48,58,32,48,48,48,48,48,48,48,48,"
	    "48,48,48,48,48,48,48,48      ]}");
	assert_int_equal(where, 17);
	/* Hash letters d-f (100-102) fit where wide numbers were... */
	assert_int_equal(patch(low, 1, 0, "00000000d000d000", &where), 0);
	assert_string_equal(low, ":[48,48,48,48,48,48,48,48,100,48,48,48,"
	    "100,48,48,48  ]");
	/* ...and go up to D-F (68-70) when they do not. */
	strcpy(low, ":[102,102,102,102,56,56,56,48,48,51,48,48,48,48,49,48]");
	assert_int_equal(patch(low, 1, 0, "00000000ddddddd0", &where), 0);
	assert_string_equal(low, ":[48,48,48,48,48,48,48,48,68,68,68,68,68,"
	    "68,68,48    ]");
	/* Not a byte array, or cut short: refused. */
	strcpy(low, ":[1,\"x\"]");
	assert_int_equal(patch(low, 1, 0, "00", &where), -1);
	strcpy(low, ":[102,102");
	assert_int_equal(patch(low, 1, 0, "000", &where), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_json_strings),
		cmocka_unit_test(t_json_arrays),
		cmocka_unit_test(t_json_invalid_utf8),
		cmocka_unit_test(t_json_seq),
		cmocka_unit_test(t_json_malformed),
		cmocka_unit_test(t_json_pretty),
		cmocka_unit_test(t_json_truncated),
		cmocka_unit_test(t_json_patch_string),
		cmocka_unit_test(t_json_patch_array),
	};

	return (cmocka_run_group_tests(tests, real_setup, real_teardown));
}
