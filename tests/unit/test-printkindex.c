/*
 * test-printkindex.c - the printk index parser: exact sites, escapes,
 * flags, malformed lines.
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

#define TREE	TESTDATA "/../srcdata/linux-6.1"
#define PKIDX	TESTDATA "/printk-index-6.1.txt"

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

/* Read a whole test file. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	b[n] = '\0';
	*len = (size_t)n;
	return (b);
}

/* The printk index: exact sites, escapes, flags, malformed lines. */
static void
test_printk_index(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	struct kl_srcidx_match r[4];
	struct kl_srcidx_site s;
	const struct kl_srcidx_stats *st;
	static const char m[] =
	    "kmemleak: unreferenced object 0xffff8882d78c9ea0 (size 96):";
	static const char q[] = "quoted \"ffffffff81000000\" end";
	size_t len, n;
	char *b;

	(void)state;
	b = slurp(PKIDX, &len);
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_printk_index(x, b, len, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	st = kl_srcidx_stats(x);
	assert_int_equal(st->pk_lines, 12);
	assert_int_equal(st->pk_malformed, 3);
	assert_int_equal(st->pk_sites, 11);
	site_is(x, 0, "mm/kasan/report.c", 252, "describe_object_addr",
	    "The buggy address belongs to the object at %px");
	site_is(x, 1, "mm/kasan/report.c", 252, "describe_object_addr",
	    " which belongs to the cache %s of size %d");
	kl_srcidx_site(x, 0, &s);
	assert_int_equal(s.exact, 1);
	n = kl_srcidx_match(x, (const uint8_t *)m, strlen(m), 32, 16,
	    KL_ARCH_X86_64, r, 4);
	assert_int_equal(n, 1);
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.file, "mm/kmemleak.c");
	assert_int_equal(s.line, 360);
	assert_string_equal(r[0].conversion, "%08lx");
	/* \" and \\ come back as the bytes. */
	n = kl_srcidx_match(x, (const uint8_t *)q, strlen(q), 8, 16,
	    KL_ARCH_X86_64, r, 4);
	assert_int_equal(n, 1);
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.format, "quoted \"%px\" end");
	kl_srcidx_free(x);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printk_index),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
