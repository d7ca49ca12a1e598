/*
 * test-srclex.c - the C scanner of the source indexer: the C-literal
 * rules one by one (joined literals, KERN_* and pr_fmt() prefixes,
 * escapes, enclosing functions, what is not a format), and bad input
 * (binary, huge, unterminated, macros it cannot follow: counted, never
 * indexed).
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

/* Adjacent literals join across lines; a format is cut at newlines. */
static void
test_join(void **state)
{
	struct kl_srcidx *x;

	(void)state;
	x = one("a.c",
	    "static void f(int a)\n"
	    "{\n"
	    "\tprintk(KERN_ERR \"one %d\\n\"\n"
	    "\t       \" two \" /* c */ \"%px\\n\", a, p);\n"
	    "}\n");
	assert_int_equal(kl_srcidx_count(x), 2);
	site_is(x, 0, "a.c", 3, "f", "one %d");
	site_is(x, 1, "a.c", 4, "f", " two %px");
	assert_int_equal(kl_srcidx_stats(x)->formats, 1);
	kl_srcidx_free(x);
}

/* pr_fmt() applies to pr_*() calls, not to printk() or pr_cont(). */
static void
test_prfmt(void **state)
{
	struct kl_srcidx *x;

	(void)state;
	x = one("b.c",
	    "#define pr_fmt(fmt) \"kasan: \" fmt\n"
	    "void g(void) {\n"
	    "\tpr_err(\"at %px\\n\", p);\n"
	    "\tprintk(\"raw %px\\n\", p);\n"
	    "\tpr_cont(\"more %lx\\n\", v);\n"
	    "}\n"
	    "#undef pr_fmt\n"
	    "#define pr_fmt(fmt) KBUILD_MODNAME \": \" fmt\n"
	    "void h(void) { pr_info(\"mod %d\\n\", 1); }\n"
	    "#undef pr_fmt\n"
	    "#define pr_fmt(fmt) DRV_PREFIX fmt\n"
	    "void k(void) { pr_info(\"lost %d\\n\", 1); }\n");
	assert_int_equal(kl_srcidx_count(x), 4);
	site_is(x, 0, "b.c", 3, "g", "kasan: at %px");
	site_is(x, 1, "b.c", 4, "g", "raw %px");
	site_is(x, 2, "b.c", 5, "g", "more %lx");
	site_is(x, 3, "b.c", 9, "h", "%s: mod %d");
	/* A prefix it cannot expand: the format is not indexed. */
	assert_int_equal(kl_srcidx_stats(x)->skip_macro, 1);
	kl_srcidx_free(x);
}

/* Escapes are decoded; KERN_SOH levels inside literals dropped. */
static void
test_escapes(void **state)
{
	struct kl_srcidx *x;

	(void)state;
	x = one("c.c",
	    "void e(void) { printk(\"\\0014\\x41\\102\\t%s \\\"q\\\"\\n\", s); }\n");
	assert_int_equal(kl_srcidx_count(x), 1);
	site_is(x, 0, "c.c", 1, "e", "AB\t%s \"q\"");
	kl_srcidx_free(x);
}

/* Not formats: no conversion, not in a call, comments, asm. */
static void
test_not_formats(void **state)
{
	struct kl_srcidx *x;

	(void)state;
	x = one("d.c",
	    "static const char *t[] = { \"%d in a table\" };\n"
	    "/* printk(\"%px in a comment\"); */\n"
	    "// pr_err(\"%px too\");\n"
	    "void f(void) {\n"
	    "\tchar c = '\"';\n"
	    "\tasm volatile(\"mov %%rax, %0\" : \"=r\"(x));\n"
	    "\tif (strcmp(s, \"plain\")) return;\n"
	    "\tpr_info(\"100%% done\\n\");\n"
	    "\tWARN(1, \"after a char %lx\\n\", v);\n"
	    "}\n");
	assert_int_equal(kl_srcidx_count(x), 1);
	site_is(x, 0, "d.c", 9, "f", "after a char %lx");
	kl_srcidx_free(x);
}

/* A format in a macro body belongs to the macro; state comes back. */
static void
test_define(void **state)
{
	struct kl_srcidx *x;

	(void)state;
	x = one("e.c",
	    "#define warn_or_seq_printf(seq, fmt, ...) do { \\\n"
	    "\tif (seq) seq_printf(seq, fmt); \\\n"
	    "\telse pr_warn(\"w %d\", 1); } while (0)\n"
	    "int f(void)\n{\n\tx(\"in f %d\", 2);\n}\n");
	assert_int_equal(kl_srcidx_count(x), 2);
	site_is(x, 0, "e.c", 3, "warn_or_seq_printf", "w %d");
	site_is(x, 1, "e.c", 6, "f", "in f %d");
	kl_srcidx_free(x);
}

/* A comment on a preprocessor line ends with it; deep nesting is safe. */
static void
test_directive_comment(void **state)
{
	struct kl_srcidx *x;
	char *src;
	size_t i, n = 0;

	(void)state;
	x = one("f.c",
	    "#include <linux/x.h> /* one */\n"
	    "void f(void) { pr_err(\"kept %px\\n\", p); }\n"
	    "#if 0 /* two\n   lines */\n"
	    "void g(void) { pr_err(\"also %px\\n\", p); }\n"
	    "#endif\n");
	assert_int_equal(kl_srcidx_count(x), 2);
	site_is(x, 0, "f.c", 2, "f", "kept %px");
	site_is(x, 1, "f.c", 5, "g", "also %px");
	kl_srcidx_free(x);
	/* 300 parentheses deep, then a format: not followed, no crash. */
	src = malloc(1024);
	assert_non_null(src);
	for (i = 0; i < 300; i++)
		src[n++] = '(';
	memcpy(src + n, "f(\"deep %px\");", 14);
	n += 14;
	src[n] = '\0';
	x = one("g.c", src);
	assert_int_equal(kl_srcidx_count(x), 0);
	kl_srcidx_free(x);
	free(src);
}

/* Bad input: counted, never indexed, the lexer goes on. */
static void
test_bad_input(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	const struct kl_srcidx_stats *st;
	static const char bin[] = "pr_err(\"%px\", p);\0\x7f" "ELF";
	static const char unterm[] =
	    "void f(void) {\n\tpr_err(\"cut %px\n\", p);\n"
	    "\tpr_err(\"next %px\\n\", p);\n}\n";
	static const char eof[] = "void f(void) { pr_err(\"half %px";
	static const char mac[] =
	    "void f(void) { pr_err(DRV \": %px\\n\", p);\n"
	    "pr_err(\"a %px\" MID \"b\\n\", p);\n"
	    "pr_err(__stringify(X) \"%d\\n\", 1);\n"
	    "pr_err(\"x %d\"\n#ifdef Y\n\" y\"\n#endif\n, 1); }\n";
	char *huge;
	uint8_t m[] = "cut ffffffff81000000";
	struct kl_srcidx_match r[4];

	(void)state;
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_source(x, "bin.c", bin,
	    sizeof(bin) - 1, &err), 0);
	assert_int_equal(kl_srcidx_add_source(x, "unterm.c", unterm,
	    strlen(unterm), &err), 0);
	assert_int_equal(kl_srcidx_add_source(x, "eof.c", eof, strlen(eof),
	    &err), 0);
	assert_int_equal(kl_srcidx_add_source(x, "mac.c", mac, strlen(mac),
	    &err), 0);
	huge = malloc(KL_SRCIDX_FILE_MAX + 1);
	assert_non_null(huge);
	memset(huge, ' ', KL_SRCIDX_FILE_MAX + 1);
	memcpy(huge, "f(\"%d\");", 8);
	assert_int_equal(kl_srcidx_add_source(x, "huge.c", huge,
	    KL_SRCIDX_FILE_MAX + 1, &err), 0);
	free(huge);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	st = kl_srcidx_stats(x);
	assert_int_equal(st->skip_binary, 1);
	assert_int_equal(st->skip_huge, 1);
	assert_int_equal(st->skip_unterminated, 3);	/* the cut line's tail opens one */
	assert_int_equal(st->skip_macro, 4);
	assert_int_equal(st->files, 3);
	/* Only the one whole format after the cut line. */
	assert_int_equal(kl_srcidx_count(x), 1);
	site_is(x, 0, "unterm.c", 4, "f", "next %px");
	assert_int_equal(kl_srcidx_match(x, m, sizeof(m) - 1, 4, 16,
	    KL_ARCH_X86_64, r, 4), 0);
	kl_srcidx_free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_prfmt),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_not_formats),
		cmocka_unit_test(test_define),
		cmocka_unit_test(test_directive_comment),
		cmocka_unit_test(test_bad_input),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
