/*
 * test-srcindex.c - the kernel-source indexer: the C-literal scanner's
 * rules one by one (joined literals, KERN_* and pr_fmt() prefixes,
 * escapes, enclosing functions, what is not a format), bad input
 * (binary, huge, unterminated, macros it cannot follow: counted, never
 * indexed), matching real syzkaller messages to the real Linux 6.1
 * sources in tests/srcdata/linux-6.1 (file, line, function, conversion),
 * the architecture and digit width picking between arm and arm64, the
 * printk index parser, and the cache (round trip, damage, stale key).
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

/* A message and its token, the site it must map to. */
struct mcase {
	const char	*corpus;	/* syzkaller/report/N:LINE */
	const char	*msg;		/* framing removed */
	const char	*tok;
	const char	*file;
	uint64_t	 line;
	const char	*func;
	const char	*conv;
};

static const struct mcase mcases[] = {
	{ "472:129", "The buggy address belongs to the object at ffff8881d411fc80",
	    "ffff8881d411fc80", "mm/kasan/report.c", 252,
	    "describe_object_addr", "%px" },
	{ "472:132", " 96-byte region [ffff8881d411fc80, ffff8881d411fce0)",
	    "ffff8881d411fce0", "mm/kasan/report.c", 268,
	    "describe_object_addr", "%px" },
	{ "472:7", "Read of size 8 at addr ffff8881d411fca8 by task swapper/1/0",
	    "ffff8881d411fca8", "mm/kasan/report.c", 219,
	    "print_error_description", "%px" },
	{ "345:70", "RSP: 0018:ffff888068c37718 EFLAGS: 00010293",
	    "ffff888068c37718", "arch/x86/kernel/dumpstack.c", 150,
	    "show_iret_regs", "%016lx" },
	{ "345:71", "RAX: ffff888068c28300 RBX: ffff88805fec4340 RCX: 0000000000000000",
	    "ffff88805fec4340", "arch/x86/kernel/process_64.c", 81,
	    "__show_regs", "%016lx" },
	{ "686:18", "FS:  00007f934abfe700(0000) GS:ffff8880b9900000(0000) knlGS:0000000000000000",
	    "ffff8880b9900000", "arch/x86/kernel/process_64.c", 117,
	    "__show_regs", "%016lx" },
	{ "747:95", " #0: ffffffff8f76e570 (cb_lock){++++}-{4:4}, at: genl_rcv+0x19/0x40",
	    "ffffffff8f76e570", "kernel/locking/lockdep.c", 776,
	    "print_lock", "%px" },
};

/* Real messages of the syzkaller reports map to 6.1's lines. */
static void
test_tree_matches(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	struct kl_srcidx_match r[4];
	struct kl_srcidx_site s;
	const struct kl_srcidx_stats *st;
	size_t i, n;

	(void)state;
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_tree(x, TREE, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	st = kl_srcidx_stats(x);
	assert_int_equal(st->files, 5);
	for (i = 0; i < sizeof(mcases) / sizeof(mcases[0]); i++) {
		const struct mcase *c = &mcases[i];
		const char *t = strstr(c->msg, c->tok);

		assert_non_null(t);
		n = kl_srcidx_match(x, (const uint8_t *)c->msg,
		    strlen(c->msg), (size_t)(t - c->msg), strlen(c->tok),
		    KL_ARCH_X86_64, r, 4);
		assert_true(n >= 1);
		assert_int_equal(kl_srcidx_site(x, r[0].site, &s), 0);
		assert_string_equal(s.file, c->file);
		assert_int_equal(s.line, c->line);
		assert_string_equal(s.function, c->func);
		assert_string_equal(r[0].conversion, c->conv);
	}
	kl_srcidx_free(x);
}

/*
 * arm and arm64 print "Task stack:" with different widths: the arch and
 * the digits pick (arch/arm64/kernel/traps.c:894, arch/arm/kernel/
 * traps.c:930 of Linux 6.1, the calls alone).
 */
static void
test_arch_width(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	struct kl_srcidx_match r[4];
	struct kl_srcidx_site s;
	static const char a64[] =
	    "void panic_bad_stack(void)\n{\n"
	    "\tpr_emerg(\"Task stack:     [0x%016lx..0x%016lx]\\n\",\n"
	    "\t\t tsk_stk, tsk_stk + THREAD_SIZE);\n}\n";
	static const char a32[] =
	    "asmlinkage void handle_bad_stack(struct pt_regs *regs)\n{\n"
	    "\tpr_emerg(\"Task stack:     [0x%08lx..0x%08lx]\\n\",\n"
	    "\t\t tsk_stk, tsk_stk + THREAD_SIZE);\n}\n";
	/* syzkaller/report corpus, arm64 (6.x) */
	static const char m64[] =
	    "Task stack:     [0xffff800015fe0000..0xffff800015fe4000]";
	static const char m32[] = "Task stack:     [0xdf8e0000..0xdf8e2000]";
	size_t n;

	(void)state;
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_source(x, "arch/arm64/kernel/traps.c",
	    a64, strlen(a64), &err), 0);
	assert_int_equal(kl_srcidx_add_source(x, "arch/arm/kernel/traps.c",
	    a32, strlen(a32), &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	n = kl_srcidx_match(x, (const uint8_t *)m64, strlen(m64), 19, 16,
	    KL_ARCH_ARM64, r, 4);
	assert_int_equal(n, 1);	/* %08lx is far weaker than exact %016lx */
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.file, "arch/arm64/kernel/traps.c");
	assert_int_equal(s.line, 3);
	assert_string_equal(r[0].conversion, "%016lx");
	/* 8 digits: %016lx cannot print them; the arm site alone. */
	n = kl_srcidx_match(x, (const uint8_t *)m32, strlen(m32), 19, 8,
	    KL_ARCH_ARM, r, 4);
	assert_int_equal(n, 1);
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.file, "arch/arm/kernel/traps.c");
	assert_string_equal(r[0].conversion, "%08lx");
	/* x86_64 prints neither: another architecture's code is out. */
	assert_int_equal(kl_srcidx_match(x, (const uint8_t *)m64,
	    strlen(m64), 19, 16, KL_ARCH_X86_64, r, 4), 0);
	/* Unknown arch, 16 digits: the width still picks arm64. */
	n = kl_srcidx_match(x, (const uint8_t *)m64, strlen(m64), 19, 16,
	    KL_ARCH_AUTO, r, 4);
	assert_true(n >= 1);
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.file, "arch/arm64/kernel/traps.c");
	kl_srcidx_free(x);
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

/* Compare two indexes site by site. */
static void
same_sites(const struct kl_srcidx *a, const struct kl_srcidx *b)
{
	struct kl_srcidx_site s, t;
	size_t i;

	assert_int_equal(kl_srcidx_count(a), kl_srcidx_count(b));
	for (i = 0; i < kl_srcidx_count(a); i++) {
		kl_srcidx_site(a, i, &s);
		kl_srcidx_site(b, i, &t);
		assert_string_equal(s.file, t.file);
		assert_int_equal(s.line, t.line);
		assert_string_equal(s.function, t.function);
		assert_string_equal(s.format, t.format);
	}
}

/* The cache: round trip, damage and other keys refused, rebuilds. */
static void
test_cache(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x, *y;
	char key[32], dir[] = "/tmp/test-srcindex.XXXXXX", path[512];
	uint8_t *img;
	size_t len, i;
	int cached, fd;

	(void)state;
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_tree(x, TREE, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	assert_int_equal(kl_srcidx_tree_key(TREE, key, sizeof(key), &err), 0);
	assert_int_equal(kl_srcidx_save(x, key, &img, &len, &err), 0);
	y = kl_srcidx_load(img, len, key, &err);
	assert_non_null(y);
	assert_int_equal(kl_srcidx_stats(y)->cached, 1);
	same_sites(x, y);
	kl_srcidx_free(y);
	assert_null(kl_srcidx_load(img, len, "0000000000000000", &err));
	assert_int_equal(err.code, KL_EFORMAT);
	/* Any one byte changed is refused. */
	for (i = 0; i < len; i += len / 97 + 1) {
		img[i] ^= 0x20;
		assert_null(kl_srcidx_load(img, len, key, &err));
		img[i] ^= 0x20;
	}
	assert_null(kl_srcidx_load(img, len / 2, key, &err));
	free(img);
	/* Through a cache directory: built, then read, then rebuilt. */
	assert_non_null(mkdtemp(dir));
	y = kl_srcidx_open(TREE, dir, &cached, &err);
	assert_non_null(y);
	assert_int_equal(cached, 0);
	kl_srcidx_free(y);
	y = kl_srcidx_open(TREE, dir, &cached, &err);
	assert_non_null(y);
	assert_int_equal(cached, 1);
	same_sites(x, y);
	kl_srcidx_free(y);
	snprintf(path, sizeof(path), "%s/srcidx-%s", dir, key);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "garbage!", 8, 100), 8);
	close(fd);
	y = kl_srcidx_open(TREE, dir, &cached, &err);
	assert_non_null(y);
	assert_int_equal(cached, 0);
	same_sites(x, y);
	kl_srcidx_free(y);
	unlink(path);
	rmdir(dir);
	kl_srcidx_free(x);
}

/* Write a file of the text s, its directories made. */
static void
put(const char *dir, const char *rel, const char *s)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		(void)mkdir(path, 0700);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

/* tools/ and scripts/ are user space: their printf()s are not read. */
static void
test_userspace(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	char dir[] = "/tmp/test-srcindex-us.XXXXXX", cmd[600];

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "tools/perf/a.c", "int main(void) { printf(\"t %px\\n\", p); }\n");
	put(dir, "scripts/b.c", "int main(void) { printf(\"s %px\\n\", p); }\n");
	put(dir, "kernel/tools/k.c", "void f(void) { pr_err(\"k %px\\n\", p); }\n");
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_tree(x, dir, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	assert_int_equal(kl_srcidx_stats(x)->files, 1);
	assert_int_equal(kl_srcidx_count(x), 1);
	site_is(x, 0, "kernel/tools/k.c", 1, "f", "k %px");
	kl_srcidx_free(x);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
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
		cmocka_unit_test(test_tree_matches),
		cmocka_unit_test(test_arch_width),
		cmocka_unit_test(test_printk_index),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_userspace),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
