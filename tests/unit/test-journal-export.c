/*
 * test-journal-export.c - journalctl -o export: text and binary fields,
 * lengths past the end or huge, bad names, long lines, missing newlines,
 * stream ends, CRLF copies; and an entry written back in the format.
 */

#include "config.h"

#include "journal-harness.h"

/* Export: text fields, offsets, entries, metadata. */
static void
t_export_text(void **state)
{
	static const char s[] =
	    "__CURSOR=s=ab;i=1\n"		/* 0, value at 9 */
	    "__REALTIME_TIMESTAMP=42\n"		/* 18, value at 39 */
	    "_BOOT_ID=b1\n"			/* 42, value at 51 */
	    "MESSAGE=x=1\n"			/* 54, value at 62 */
	    "EMPTY=\n"				/* 66, value at 72 */
	    "\n"				/* 73 */
	    "\n"				/* 74: extra blank line */
	    "MESSAGE=two\n"			/* 75, value at 83 */
	    "__NEW_THING=\tok\n"		/* 87, value at 99 */
	    "\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.rc_end, 0);
	assert_int_equal(c.e[0].index, 0);
	assert_int_equal(c.e[0].offset, 0);
	assert_string_equal(c.e[0].cursor, "s=ab;i=1");
	assert_int_equal(c.e[0].realtime, 42);
	assert_string_equal(c.e[0].boot_id, "b1");
	assert_int_equal(c.e[0].nf, 5);
	IS(&c.e[0].f[0], "__CURSOR", "s=ab;i=1", 9, 1);
	IS(&c.e[0].f[1], "__REALTIME_TIMESTAMP", "42", 39, 1);
	IS(&c.e[0].f[2], "_BOOT_ID", "b1", 51, 1);
	IS(&c.e[0].f[3], "MESSAGE", "x=1", 62, 1);
	IS(&c.e[0].f[4], "EMPTY", "", 72, 1);
	assert_int_equal(c.e[1].index, 1);
	assert_int_equal(c.e[1].offset, 75);
	assert_null(c.e[1].cursor);
	assert_int_equal(c.e[1].realtime, 0);
	assert_null(c.e[1].boot_id);
	IS(&c.e[1].f[0], "MESSAGE", "two", 83, 1);
	IS(&c.e[1].f[1], "__NEW_THING", "\tok", 99, 1);
	assert_int_equal(c.st.entries, 2);
	assert_int_equal(c.st.delivered, 2);
	coll_free(&c);
}

/* Export: binary fields (the example of JOURNAL_EXPORT_FORMATS.md). */
static void
t_export_binary(void **state)
{
	static const char s[] =
	    "_TRANSPORT=journal\n"		/* 0 */
	    "MESSAGE\n\x07\0\0\0\0\0\0\0foo\nbar\n"	/* 19, data at 35 */
	    "MESSAGE\n\0\0\0\0\0\0\0\0\n"	/* 43, data at 59 */
	    "CODE_FILE=<string>\n"		/* 60 */
	    "\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.e[0].nf, 4);
	IS(&c.e[0].f[0], "_TRANSPORT", "journal", 11, 1);
	IS(&c.e[0].f[1], "MESSAGE", "foo\nbar", 35, 1);
	IS(&c.e[0].f[2], "MESSAGE", "", 59, 1);
	IS(&c.e[0].f[3], "CODE_FILE", "<string>", 70, 1);
	coll_free(&c);
}

/* Export: a binary length past the end of the stream. */
static void
t_export_past_end(void **state)
{
	static const char s[] =
	    "MESSAGE=one\n\n"			/* entry 0 */
	    "_TRANSPORT=kernel\n"		/* entry 1 at 13 */
	    "MESSAGE\n\x64\0\0\0\0\0\0\0"	/* name at 31, data at 47 */
	    "0123456789";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_int_equal(c.err[0].code, KL_EFORMAT);
	assert_int_equal(c.err[0].line, 4);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 13): binary field "
	    "MESSAGE at offset 31: length 100 runs past the end of the "
	    "stream (10 bytes left)");
	assert_int_equal(c.rc_end, 0);
	/* what was read is delivered, to be scanned */
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[1].partial, 1);
	assert_int_equal(c.e[1].nf, 2);
	IS(&c.e[1].f[1], "MESSAGE", "0123456789", 47, 1);
	coll_free(&c);
}

/* Export: a length of 2^63 is damage; the next entry is read. */
static void
t_export_len_huge(void **state)
{
	static const char s[] =
	    "A=1\n"
	    "MESSAGE\n\0\0\0\0\0\0\0\x80"	/* name at 4 */
	    "garbage\n\n"			/* skipped: 9 bytes */
	    "MESSAGE=next\n\n";			/* entry 1 at 29 */
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): binary field "
	    "MESSAGE at offset 4: length 9223372036854775808 exceeds the 64 "
	    "MiB entry limit; skipping to the next blank line");
	assert_int_equal(c.err[0].line, 2);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 1);
	IS(&c.e[0].f[0], "A", "1", 2, 1);
	assert_int_equal(c.e[1].index, 1);
	assert_int_equal(c.e[1].offset, 29);
	assert_int_equal(c.e[1].partial, 0);
	IS(&c.e[1].f[0], "MESSAGE", "next", 37, 1);
	assert_int_equal(c.st.skipped, 9);
	coll_free(&c);
}

/* Export: bad names; a text field is dropped, a binary one resyncs. */
static void
t_export_bad_names(void **state)
{
	static const char s[] =
	    "message=lower\n"			/* 0: dropped */
	    "1ABC=digit\n"			/* 14: dropped */
	    "OK=yes\n"				/* 25 */
	    "\n"
	    "hello world\n"			/* 33: resync */
	    "BIN\n\x01\0\0\0\0\0\0\0x\n"
	    "\n"
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "=65\n"				/* 60: 65 bytes: dropped */
	    "B=b\n\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 4);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): invalid field "
	    "name \"message\" at offset 0; field dropped");
	assert_int_equal(c.err[0].line, 1);
	assert_string_equal(c.err[1].msg, "entry 0 (offset 0): invalid field "
	    "name \"1ABC\" at offset 14; field dropped");
	assert_string_equal(c.err[2].msg, "entry 1 (offset 33): invalid field "
	    "name \"hello\\x20world\" at offset 33; skipping to the next "
	    "blank line");
	assert_int_equal(c.err[2].line, 5);
	assert_string_equal(c.err[3].msg, "entry 2 (offset 60): invalid field "
	    "name \"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "AAAA\" at offset 60; field dropped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 1);
	IS(&c.e[0].f[0], "OK", "yes", 28, 1);
	assert_int_equal(c.e[1].index, 2);
	assert_int_equal(c.e[1].nf, 1);
	IS(&c.e[1].f[0], "B", "b", 131, 1);
	assert_int_equal(c.st.entries, 3);
	coll_free(&c);
}

/* Export: a line longer than a name with no '=' or newline yet. */
static void
t_export_long_line(void **state)
{
	char s[300];
	struct coll c;

	(void)state;
	memset(s, 'X', 200);
	memcpy(s + 200, " tail\n\nA=1\n\n", 12);
	parse_all(KL_UNIT_EXPORT, s, 212, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): invalid field "
	    "name \"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
	    "XXXXXXX...\" at offset 0 (too long); skipping to the next blank "
	    "line");
	assert_int_equal(c.n, 1);
	assert_int_equal(c.e[0].index, 1);
	IS(&c.e[0].f[0], "A", "1", 209, 1);
	assert_int_equal(c.st.skipped, 206 - 66 + 1);
	coll_free(&c);
}

/* Export: no newline after binary data. */
static void
t_export_no_newline(void **state)
{
	static const char s[] =
	    "A=1\nMESSAGE\n\x03\0\0\0\0\0\0\0abcX\nB=2\n\nC=3\n\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): binary field "
	    "MESSAGE at offset 4: 'X' at offset 23 after its 3 bytes of data, "
	    "not a newline; skipping to the next blank line");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].nf, 1);
	assert_int_equal(c.e[0].partial, 1);
	IS(&c.e[1].f[0], "C", "3", 32, 1);
	coll_free(&c);
}

/* Export: how streams end. */
static void
t_export_ends(void **state)
{
	struct coll c;

	(void)state;
	/* no final blank line: delivered, no error */
	parse_all(KL_UNIT_EXPORT, "A=1\nB=2\n", 8, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.e[0].nf, 2);
	coll_free(&c);
	/* no final newline either */
	parse_all(KL_UNIT_EXPORT, "A=1\nB=2", 7, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	IS(&c.e[0].f[1], "B", "2", 6, 1);
	coll_free(&c);
	/* cut in a name */
	parse_all(KL_UNIT_EXPORT, "A=1\n\nA=1\nMESS", 13, &c);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 5): the stream "
	    "ends inside field name \"MESS\" at offset 9");
	assert_int_equal(c.e[1].partial, 1);
	coll_free(&c);
	/* cut in a length */
	parse_all(KL_UNIT_EXPORT, "A=1\nMESSAGE\n\x03\0\0", 15, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): the stream "
	    "ends inside the length of binary field MESSAGE at offset 4");
	coll_free(&c);
	/* binary data complete, its newline missing: fine */
	parse_all(KL_UNIT_EXPORT, "MESSAGE\n\x02\0\0\0\0\0\0\0ab", 18, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	IS(&c.e[0].f[0], "MESSAGE", "ab", 16, 1);
	coll_free(&c);
	/* nothing at all, or only blank lines */
	parse_all(KL_UNIT_EXPORT, "\n\n\r\n", 4, &c);
	assert_int_equal(c.n, 0);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.st.entries, 0);
	coll_free(&c);
}

/* Export: CRLF line ends read like LF (text values never end in CR). */
static void
t_export_crlf(void **state)
{
	static const char s[] =
	    "A=1\r\nMESSAGE\r\n\x02\0\0\0\0\0\0\0\r\n\r\n\r\nB=2\r\n\r\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	IS(&c.e[0].f[0], "A", "1", 2, 1);
	IS(&c.e[0].f[1], "MESSAGE", "\r\n", 22, 1);
	IS(&c.e[1].f[0], "B", "2", 30, 1);
	coll_free(&c);
}

/* An entry written back as journalctl -o export prints it. */
static int
export_cat(void *arg, const void *p, size_t n)
{
	struct { char b[256]; size_t n; } *o = arg;

	if (n > sizeof(o->b) - o->n)
		return (-1);
	memcpy(o->b + o->n, p, n);
	o->n += n;
	return (0);
}

/* kl_journal_export: __ fields, _BOOT_ID, the rest; binary when needed. */
static void
t_export_write(void **state)
{
	struct kl_jfield f[] = {
		{ "__CURSOR", (const uint8_t *)"c", 1, 0, 0 },
		{ "MESSAGE", (const uint8_t *)"a\tb", 3, 0, 0 },
		{ "_BOOT_ID", (const uint8_t *)"b1", 2, 0, 0 },
		{ "X", (const uint8_t *)"l1\nl2", 5, 0, 0 },
		{ "Y", (const uint8_t *)"\xff", 1, 0, 0 },
	};
	struct kl_jentry e;
	struct { char b[256]; size_t n; } o;
	const char want[] = "__CURSOR=c\n_BOOT_ID=b1\nMESSAGE=a\tb\n"
	    "X\n\5\0\0\0\0\0\0\0l1\nl2\nY\n\1\0\0\0\0\0\0\0\xff\n\n";

	(void)state;
	memset(&e, 0, sizeof(e));
	e.fields = f;
	e.nfields = 5;
	o.n = 0;
	assert_int_equal(kl_journal_export(&e, export_cat, &o), 0);
	assert_int_equal(o.n, sizeof(want) - 1);
	assert_memory_equal(o.b, want, sizeof(want) - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_export_text),
		cmocka_unit_test(t_export_binary),
		cmocka_unit_test(t_export_past_end),
		cmocka_unit_test(t_export_len_huge),
		cmocka_unit_test(t_export_bad_names),
		cmocka_unit_test(t_export_long_line),
		cmocka_unit_test(t_export_no_newline),
		cmocka_unit_test(t_export_ends),
		cmocka_unit_test(t_export_crlf),
		cmocka_unit_test(t_export_write),
	};

	return (cmocka_run_group_tests(tests, real_setup, real_teardown));
}
