/*
 * test-srcfix.c - the fix of a call site, on C written for this test in
 * the kernel's style: each rewrite (%px, an integer conversion of a
 * pointer cast, %pK for a file's content, the width argument of %0*lx,
 * KERN_CONT and pr_fmt() formats, chains over lines) and each refusal
 * (an integer, an unknown type, a macro, a split conversion), then the
 * unified diff (context, the function line, a file without a last
 * newline).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kleak.h"

/* The fixed text of src (NULL: no fix; *why set), the leak at convs. */
static char *
fix(const char *src, uint64_t line, const char *fmt, const char *func,
    const size_t *convs, size_t nconv, enum kl_srcfix_why *why)
{
	struct kl_error err = { 0 };
	struct kl_srcfix fx;
	uint8_t *out;
	size_t len;

	assert_int_equal(kl_srcfix_make((const uint8_t *)src, strlen(src), line,
	    fmt, strlen(fmt), func, convs, nconv, &fx, &err), 0);
	*why = fx.why;
	if (fx.why != KL_FIX_OK) {
		kl_srcfix_free(&fx);
		return (NULL);
	}
	assert_int_equal(kl_srcfix_apply((const uint8_t *)src, strlen(src), &fx,
	    &out, &len, &err), 0);
	kl_srcfix_free(&fx);
	return ((char *)out);
}

/* Fix src and compare with want. */
static void
fixed_is(const char *src, uint64_t line, const char *fmt, const char *func,
    size_t conv, const char *want)
{
	enum kl_srcfix_why why;
	char *out;

	out = fix(src, line, fmt, func, &conv, 1, &why);
	assert_int_equal(why, KL_FIX_OK);
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

/* No fix of src, for the reason want. */
static void
refused(const char *src, uint64_t line, const char *fmt, const char *func,
    size_t conv, enum kl_srcfix_why want)
{
	enum kl_srcfix_why why;

	assert_null(fix(src, line, fmt, func, &conv, 1, &why));
	assert_int_equal(why, want);
}

/* The rewrites. */
static void
test_rewrites(void **state)
{
	(void)state;
	/* %px becomes %p. */
	fixed_is("void f(struct w *w)\n{\n\tpr_info(\"w at %px\\n\", w);\n}\n",
	    3, "w at %px", "f", 5,
	    "void f(struct w *w)\n{\n\tpr_info(\"w at %p\\n\", w);\n}\n");
	/* 0x%lx of a cast pointer: %p, no 0x, no cast. */
	fixed_is("void f(void *map, int n)\n{\n"
	    "\tpr_info(\"map 0x%lx n %d\\n\", (unsigned long) map, n);\n}\n",
	    3, "map 0x%lx n %d", "f", 6,
	    "void f(void *map, int n)\n{\n"
	    "\tpr_info(\"map %p n %d\\n\", map, n);\n}\n");
	/* A member whose struct the file defines; an array local. */
	fixed_is("struct w {\n\tint n;\n\tvoid __iomem *base;\n};\n"
	    "void f(struct w *w)\n{\n\tchar buf[8];\n"
	    "\tdev_err(d, \"%08lx %llx\\n\", (unsigned long)w->base,\n"
	    "\t\t(u64)buf);\n}\n",
	    8, "%08lx %llx", "f", 0,
	    "struct w {\n\tint n;\n\tvoid __iomem *base;\n};\n"
	    "void f(struct w *w)\n{\n\tchar buf[8];\n"
	    "\tdev_err(d, \"%p %p\\n\", w->base,\n\t\tbuf);\n}\n");
	/* A file's content: %pK. */
	fixed_is("static int w_show(struct seq_file *m, void *v)\n{\n"
	    "\tseq_printf(m, \"%px\\n\", v);\n\treturn 0;\n}\n",
	    3, "%px", "w_show", 0,
	    "static int w_show(struct seq_file *m, void *v)\n{\n"
	    "\tseq_printf(m, \"%pK\\n\", v);\n\treturn 0;\n}\n");
	fixed_is("static ssize_t base_show(struct device *d, "
	    "struct device_attribute *a, char *buf)\n{\n"
	    "\tstruct w *w = dev_get_drvdata(d);\n\n"
	    "\treturn sprintf(buf, \"%lx\\n\", (unsigned long)&w->n);\n}\n",
	    5, "%lx", "base_show", 0,
	    "static ssize_t base_show(struct device *d, "
	    "struct device_attribute *a, char *buf)\n{\n"
	    "\tstruct w *w = dev_get_drvdata(d);\n\n"
	    "\treturn sprintf(buf, \"%pK\\n\", &w->n);\n}\n");
	/* %pK in the log: %p. */
	fixed_is("void f(void *p)\n{\n\tpr_err(\"p=%pK\\n\", p);\n}\n",
	    3, "p=%pK", "f", 2,
	    "void f(void *p)\n{\n\tpr_err(\"p=%p\\n\", p);\n}\n");
	/* %0*lx: its width argument goes too. */
	fixed_is("void f(void *sp, int field)\n{\n"
	    "\tprintk(\"sp %0*lx\\n\", field, (unsigned long)sp);\n}\n",
	    3, "sp %0*lx", "f", 3,
	    "void f(void *sp, int field)\n{\n"
	    "\tprintk(\"sp %p\\n\", sp);\n}\n");
	/* KERN_CONT before the format. */
	fixed_is("void f(void *i)\n{\n\tprintk(KERN_CONT \"%px\", i);\n}\n",
	    3, "%px", "f", 0,
	    "void f(void *i)\n{\n\tprintk(KERN_CONT \"%p\", i);\n}\n");
	/* The file's pr_fmt() prefix in the site's format. */
	fixed_is("#define pr_fmt(fmt) KBUILD_MODNAME \": \" fmt\n"
	    "void f(void *p)\n{\n\tpr_warn(\"at %px\\n\", p);\n}\n",
	    4, "%s: at %px", "f", 7,
	    "#define pr_fmt(fmt) KBUILD_MODNAME \": \" fmt\n"
	    "void f(void *p)\n{\n\tpr_warn(\"at %p\\n\", p);\n}\n");
	/* A chain over lines: every raw conversion of the call. */
	fixed_is("void f(void *a, void *b)\n{\n\tpr_err(\"a %px \"\n"
	    "\t       \"b %px\\n\", a, b);\n}\n",
	    3, "a %px b %px", "f", 8,
	    "void f(void *a, void *b)\n{\n\tpr_err(\"a %p \"\n"
	    "\t       \"b %p\\n\", a, b);\n}\n");
}

/* The refusals. */
static void
test_refusals(void **state)
{
	(void)state;
	/* An unsigned long address: a cast would be needed. */
	refused("void f(unsigned long addr)\n{\n"
	    "\tpr_alert(\"at %08lx\\n\", addr);\n}\n",
	    3, "at %08lx", "f", 3, KL_FIX_INTEGER);
	/* A cast of an integer. */
	refused("void f(phys_addr_t pa)\n{\n"
	    "\tpr_info(\"pa %lx\\n\", (unsigned long)pa);\n}\n",
	    3, "pa %lx", "f", 3, KL_FIX_INTEGER);
	/* A member of a struct defined elsewhere. */
	refused("void f(struct pt_regs *regs)\n{\n"
	    "\tpr_info(\"sp %lx\\n\", (unsigned long)regs->sp);\n}\n",
	    3, "sp %lx", "f", 3, KL_FIX_UNKNOWN);
	/* A cast of a part of an expression. */
	refused("void f(void *p)\n{\n"
	    "\tpr_info(\"end %lx\\n\", (unsigned long)p + 4);\n}\n",
	    3, "end %lx", "f", 4, KL_FIX_EXPR);
	/* In a macro's body. */
	refused("#define WDBG(p) pr_debug(\"w %px\\n\", p)\n", 1, "w %px",
	    "WDBG", 2, KL_FIX_MACRO);
	/* A conversion split over two literals. */
	refused("void f(void *p)\n{\n\tpr_info(\"p %\" \"px\\n\", p);\n}\n",
	    3, "p %px", "f", 2, KL_FIX_SPLIT);
	/* The format is not at the line any more. */
	refused("void f(void *p)\n{\n\tpr_info(\"p %px\\n\", p);\n}\n",
	    2, "p %px", "f", 2, KL_FIX_NOCALL);
	/* No argument: the conversions of a wrapper's va_list. */
	refused("void f(void)\n{\n\tpr_info(\"p %px\\n\");\n}\n",
	    3, "p %px", "f", 2, KL_FIX_NOARG);
	/* An empty literal at the line: no piece, and no read of it. */
	refused("void f(void *p)\n{\n\tpr_info(\"\", p);\n}\n",
	    3, "p %px", "f", 2, KL_FIX_NOCALL);
}

/* The diff of a file and its fix. */
static void
test_diff(void **state)
{
	static const char a[] =
	    "int x;\n\nvoid f(void *p)\n{\n\tint i;\n\n\ti = 1;\n"
	    "\tpr_info(\"p %px\\n\", p);\n\ti++;\n\treturn;\n}\n";
	static const char b[] =
	    "int x;\n\nvoid f(void *p)\n{\n\tint i;\n\n\ti = 1;\n"
	    "\tpr_info(\"p %p\\n\", p);\n\ti++;\n\treturn;\n}\n";
	struct kl_error err = { 0 };
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(kl_srcfix_diff((const uint8_t *)a, strlen(a),
	    (const uint8_t *)b, strlen(b), "drivers/w.c", &out, &len, &err), 0);
	assert_string_equal(out,
	    "diff --git a/drivers/w.c b/drivers/w.c\n"
	    "--- a/drivers/w.c\n+++ b/drivers/w.c\n"
	    "@@ -5,7 +5,7 @@ void f(void *p)\n"
	    " \tint i;\n \n \ti = 1;\n"
	    "-\tpr_info(\"p %px\\n\", p);\n+\tpr_info(\"p %p\\n\", p);\n"
	    " \ti++;\n \treturn;\n }\n");
	assert_int_equal(len, strlen(out));
	free(out);
	/* No newline at the end of the file. */
	assert_int_equal(kl_srcfix_diff((const uint8_t *)"a\nb", 3,
	    (const uint8_t *)"a\nc", 3, "x.c", &out, &len, &err), 0);
	assert_string_equal(out, "diff --git a/x.c b/x.c\n--- a/x.c\n"
	    "+++ b/x.c\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n"
	    "+c\n\\ No newline at end of file\n");
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rewrites),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_diff),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
