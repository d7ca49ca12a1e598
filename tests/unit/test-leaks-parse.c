/*
 * test-leaks-parse.c - the leak-sources data file reader: the parser's
 * errors with the line they name, and what continuation lines, quotes,
 * CRLF and comments give.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kleak.h"

/* A minimal valid stanza with one line replaced (or none). */
static const char *const good[] = {
	"id: a", "arch: x86", "class: virtual", "discloses: text",
	"fixed: -", "key: ab", "pattern: ab(?<v>[0-9a-f]+)", "explain: x",
};

/* Load text and return the error message ("" when it loads). */
static const char *
load_err(const char *text, struct kl_error *err)
{
	struct kl_leakdb *d;

	memset(err, 0, sizeof(*err));
	d = kl_leakdb_load_mem(text, strlen(text), "leak-sources", err);
	if (d != NULL) {
		kl_leakdb_free(d);
		return ("");
	}
	return (err->msg);
}

/* Build the good stanza with line i replaced by rep (i < 0: none). */
static void
stanza(char *buf, size_t sz, int i, const char *rep)
{
	size_t o = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < 8; k++) {
		if (k == i && rep == NULL)
			continue;
		o += (size_t)snprintf(buf + o, sz - o, "%s\n",
		    k == i ? rep : good[k]);
	}
}

/* Parser errors, with the line they name. */
static void
test_parse_errors(void **state)
{
	static const char *const gro = "pattern: (?<a>a)(?<b>b)(?<c>c)"
	    "(?<d>d)(?<e>e)(?<f>f)(?<g>g)(?<h>h)(?<i>i)";
	struct kl_error err;
	static char huge[KL_LEAKDB_LINE_MAX + 1];
	char buf[1024], two[2048];
	int k;

	(void)state;
	stanza(buf, sizeof(buf), -1, NULL);
	assert_string_equal(load_err(buf, &err), "");
	stanza(buf, sizeof(buf), 1, "foo: x86");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:2: unknown key 'foo'");
	assert_int_equal(err.code, KL_EFORMAT);
	assert_int_equal(err.line, 2);
	for (k = 1; k < 8; k++) {
		char want[128];

		stanza(buf, sizeof(buf), k, NULL);
		snprintf(want, sizeof(want), "leak-sources:1: entry 'a' has "
		    "no '%s'", good[k][0] == 'a' ? "arch" :
		    k == 2 ? "class" : k == 3 ? "discloses" : k == 4 ?
		    "fixed" : k == 5 ? "key" : k == 6 ? "pattern" : "explain");
		assert_string_equal(load_err(buf, &err), want);
	}
	stanza(buf, sizeof(buf), 0, NULL);
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:1: entry without 'id'");
	stanza(buf, sizeof(buf), 1, "arch: x86 vax");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:2: unknown arch 'vax'");
	stanza(buf, sizeof(buf), 1, "arch: any x86");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:2: unknown arch 'any'");
	stanza(buf, sizeof(buf), 3, "discloses: text heap");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:4: unknown disclosure 'heap'");
	stanza(buf, sizeof(buf), 3, "discloses: any");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:4: unknown disclosure 'any'");
	stanza(buf, sizeof(buf), 2, "class: virt");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:3: unknown class 'virt'");
	stanza(buf, sizeof(buf), 0, "id: A_b");
	assert_string_equal(load_err(buf, &err), "leak-sources:1: bad id 'A_b'");
	stanza(buf, sizeof(buf), 5, "key: x");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:6: key 'x' is shorter than 2 bytes");
	stanza(buf, sizeof(buf), 4, "fixed:   ");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:5: empty value of 'fixed'");
	stanza(buf, sizeof(buf), 4, "fixed -");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:5: expected 'key: value'");
	stanza(buf, sizeof(buf), 6, "pattern: ab(?<v>[0-9a-f]+");
	assert_string_equal(load_err(buf, &err), "leak-sources:7: pattern of "
	    "'a': missing closing parenthesis at offset 16");
	assert_int_equal(err.line, 7);
	stanza(buf, sizeof(buf), 6, gro);
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:7: pattern of 'a': more than 8 named groups");
	stanza(buf, sizeof(buf), 2, "class: virtual\narch: arm");
	assert_string_equal(load_err(buf, &err),
	    "leak-sources:4: duplicate key 'arch' (line 2)");
	stanza(buf, sizeof(buf), -1, NULL);
	snprintf(two, sizeof(two), "%s\n# comment\n\n%s", buf, buf);
	assert_string_equal(load_err(two, &err),
	    "leak-sources:12: duplicate id 'a' (line 1)");
	assert_string_equal(load_err("  pattern: x\n", &err),
	    "leak-sources:1: continuation line without a key above");
	assert_string_equal(load_err("", &err), "leak-sources: no entries");
	assert_string_equal(load_err("# only a comment\n\n", &err),
	    "leak-sources: no entries");
	assert_int_equal(kl_leakdb_load_mem("id: a\0\n", 7, "x", &err) ==
	    NULL, 1);
	assert_string_equal(err.msg, "x:1: NUL byte");
	memset(huge, 'a', sizeof(huge));
	memcpy(huge, "explain: ", 9);
	assert_null(kl_leakdb_load_mem(huge, KL_LEAKDB_LINE_MAX, "x", &err));
	assert_string_equal(err.msg, "x:1: entry without 'id'");
	assert_null(kl_leakdb_load_mem(huge, sizeof(huge), "x", &err));
	assert_string_equal(err.msg, "x:1: line longer than 8192 bytes");
}

/* What continuation lines, quotes, CRLF and comments give. */
static void
test_parse_forms(void **state)
{
	static const char text[] =
	    "# a comment\r\n"
	    "id: two-lines\r\n"
	    "arch: arm   arm64\r\n"
	    "class: physical\r\n"
	    "discloses: physical layout\r\n"
	    "fixed: v4.10\r\n"
	    "key: \" at \"\r\n"
	    "# comments do not end a stanza\r\n"
	    "pattern: (?<lo_kb>\\d+)K\r\n"
	    "\t\\x20at (?<hi_mb>\\d+)M (?<n_dec>\\d+) (?<h>\\S+)\r\n"
	    "explain: one\r\n"
	    "  two   \r\n";
	static const char m[] = "12K at 3M 99 0x1";
	static const char big[] = "12K at 3M 99 0x10000000000000000";
	struct kl_leakmatch *m2;
	struct kl_leakdb *d;
	struct kl_error err;
	struct kl_leak_hit h[2];
	const struct kl_leak_entry *e;

	(void)state;
	d = kl_leakdb_load_mem(text, sizeof(text) - 1, "t", &err);
	assert_non_null(d);
	e = kl_leakdb_entry(d, 0);
	assert_string_equal(e->key, " at ");
	assert_string_equal(e->pattern,
	    "(?<lo_kb>\\d+)K\\x20at (?<hi_mb>\\d+)M (?<n_dec>\\d+) (?<h>\\S+)");
	assert_string_equal(e->explain, "one two");
	assert_string_equal(e->fixed, "v4.10");
	assert_int_equal(e->families, 1u << KL_FAM_ARM | 1u << KL_FAM_ARM64);
	assert_int_equal(e->discloses, KL_LD_PHYSICAL | KL_LD_LAYOUT);
	assert_int_equal(e->class, KL_LCLASS_PHYSICAL);
	assert_int_equal(e->line, 2);
	m2 = kl_leakmatch_new(d);
	assert_non_null(m2);
	assert_int_equal(kl_leak_match(m2, (const uint8_t *)m, sizeof(m) - 1,
	    h, 2), 1);
	assert_int_equal(h[0].nvalues, 4);
	assert_string_equal(h[0].v[0].name, "lo");
	assert_int_equal(h[0].v[0].value, 12 * 1024);
	assert_string_equal(h[0].v[1].name, "hi");
	assert_int_equal(h[0].v[1].value, 3 * 1048576);
	assert_string_equal(h[0].v[2].name, "n");
	assert_int_equal(h[0].v[2].value, 99);
	assert_string_equal(h[0].v[3].name, "h");
	assert_int_equal(h[0].v[3].value, 1);
	assert_false(h[0].v[3].overflow);
	/* 17 significant hex digits do not fit */
	assert_int_equal(kl_leak_match(m2, (const uint8_t *)big,
	    sizeof(big) - 1, h, 2), 1);
	assert_true(h[0].v[3].overflow);
	assert_int_equal(h[0].v[3].value, 0);
	kl_leakmatch_free(m2);
	kl_leakdb_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_forms),
	};

	return (cmocka_run_group_tests_name("leaks-parse", tests, NULL,
	    NULL));
}
