/*
 * test-srcindex.c - the source index itself: its sites read back, the
 * key words they are found by, and the conversions of a format.  The
 * scanner, the tree walker, the matcher, the printk index and the cache
 * have test-srclex.c, test-srctree.c, test-srcmatch.c,
 * test-printkindex.c and test-srccache.c.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kleak.h"
#include "srcidx-int.h"

#define TREE	TESTDATA "/../srcdata/linux-6.1"
#define PKIDX	TESTDATA "/printk-index-6.1.txt"

/* An index of one source text. */
static struct kl_srcidx *
one(const char *name, const char *src)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;

	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_source(x, name, src, strlen(src),
	    &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	return (x);
}

/* Site i is file:line in function with the piece fmt. */
static void
site_is(const struct kl_srcidx *x, size_t i, const char *file,
    uint64_t line, const char *func, const char *fmt)
{
	struct kl_srcidx_site s;

	assert_int_equal(kl_srcidx_site(x, i, &s), 0);
	assert_string_equal(s.file, file);
	assert_int_equal(s.line, line);
	assert_string_equal(s.function, func);
	assert_string_equal(s.format, fmt);
	assert_int_equal(s.formatlen, strlen(fmt));
}

/* Sites are read back by index; those without a literal word get no key. */
static void
test_sites_keys(void **state)
{
	struct kl_srcidx_site s;
	struct kl_srcidx *x;

	(void)state;
	x = one("a.c", "void f(void)\n{\n\tpr_err(\"%px\\n\", p);\n"
	    "\tpr_info(\"leak at %px\\n\", q);\n}\n");
	assert_int_equal(kl_srcidx_count(x), 2);
	site_is(x, 0, "a.c", 3, "f", "%px");
	site_is(x, 1, "a.c", 4, "f", "leak at %px");
	assert_int_equal(kl_srcidx_site(x, 1, &s), 0);
	assert_int_equal(s.exact, 0);
	assert_int_equal(kl_srcidx_site(x, 2, &s), -1);
	assert_int_equal(kl_srcidx_stats(x)->skip_nokey, 1);
	kl_srcidx_free(x);
}

/* The conversion at f: kind, spec length, flags, width, precision. */
static void
conv_is(const char *f, enum cv kind, size_t len, int width, int prec,
    int zero, int left)
{
	struct conv c;

	kl_srcidx_conv_parse((const uint8_t *)f, strlen(f), &c);
	assert_int_equal(c.kind, kind);
	assert_int_equal(c.len, len);
	assert_int_equal(c.width, width);
	assert_int_equal(c.prec, prec);
	assert_int_equal(c.zero, zero);
	assert_int_equal(c.left, left);
}

/* What vsprintf takes as a conversion, and what it prints. */
static void
test_conv_parse(void **state)
{
	(void)state;
	conv_is("%% done", CV_PCT, 2, -1, -1, 0, 0);
	conv_is("%016lx rest", CV_HEX, 6, 16, -1, 1, 0);
	conv_is("%-8s|", CV_ANY, 4, 8, -1, 0, 1);
	conv_is("%*.*d", CV_INT, 5, -2, -2, 0, 0);
	conv_is("%.3u", CV_INT, 4, -1, 3, 0, 0);
	conv_is("%pS+", CV_SYM, 3, -1, -1, 0, 0);
	conv_is("%pK", CV_RAW, 3, -1, -1, 0, 0);
	conv_is("%pa[", CV_PHYS, 3, -1, -1, 0, 0);
	conv_is("%pV", CV_ANY, 3, -1, -1, 0, 0);
	conv_is("%p_x", CV_PTR, 2, -1, -1, 0, 0);
	conv_is("%p", CV_PTR, 2, -1, -1, 0, 0);
	conv_is("%c", CV_CHAR, 2, -1, -1, 0, 0);
	conv_is("%o", CV_OCT, 2, -1, -1, 0, 0);
	/* asm operands and stray percents are not conversions */
	conv_is("%[reg]", CV_NONE, 1, -1, -1, 0, 0);
	conv_is("%", CV_NONE, 1, -1, -1, 0, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sites_keys),
		cmocka_unit_test(test_conv_parse),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
