/*
 * test-srcmatch.c - matching messages to the sites of an index: real
 * syzkaller messages to the real Linux 6.1 sources in
 * tests/srcdata/linux-6.1 (file, line, function, conversion), the
 * architecture and digit width picking between arm and arm64, and the
 * architectures of a report row: another architecture's tree never,
 * generic code first when none is known, and why one of two sites of
 * the same format was preferred.
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

/*
 * A row seen on arm and arm64 ("pgd = %x", written for this test in the
 * shape of arch/sh/mm/fault.c of Linux 6.1, which prints it too): the
 * sh site is another architecture's; unknown, the generic copy first.
 */
static void
test_arch_mask(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	struct kl_srcidx_match r[4];
	struct kl_srcidx_site s;
	static const char sh[] =
	    "static void show_pte(struct mm_struct *mm, unsigned long addr)\n"
	    "{\n\tpr_alert(\"pgd = %p\\n\", pgd);\n}\n";
	static const char arm[] =
	    "void show_pte(struct mm_struct *mm, unsigned long addr)\n"
	    "{\n\tpr_alert(\"pgd = %08lx\\n\", (unsigned long)mm->pgd);\n}\n";
	static const char gen[] =
	    "void dump_pgd(struct mm_struct *mm)\n"
	    "{\n\tpr_alert(\"pgd = %08lx\\n\", (unsigned long)mm->pgd);\n}\n";
	static const char msg[] = "pgd = c0004000";
	uint32_t armboth = (UINT32_C(1) << KL_ARCH_ARM) |
	    (UINT32_C(1) << KL_ARCH_ARM64);
	size_t n;

	(void)state;
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_source(x, "arch/sh/mm/fault.c", sh,
	    strlen(sh), &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	/* arm and arm64 (a mask of two): sh's tree is out. */
	assert_int_equal(kl_srcidx_match_arches(x, (const uint8_t *)msg,
	    strlen(msg), 6, 8, armboth, r, 4), 0);
	/* Unknown (no bit, or the unknown bit alone): a candidate. */
	assert_int_equal(kl_srcidx_match_arches(x, (const uint8_t *)msg,
	    strlen(msg), 6, 8, 1, r, 4), 1);
	assert_true(r[0].why & KL_SRCM_ARCHDIR);
	kl_srcidx_free(x);

	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_source(x, "arch/arm/mm/fault.c", arm,
	    strlen(arm), &err), 0);
	assert_int_equal(kl_srcidx_add_source(x, "mm/pgd.c", gen,
	    strlen(gen), &err), 0);
	assert_int_equal(kl_srcidx_add_source(x, "arch/sh/mm/fault.c", sh,
	    strlen(sh), &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	/* arm: its own tree first, the generic copy second, no sh. */
	n = kl_srcidx_match_arches(x, (const uint8_t *)msg, strlen(msg), 6,
	    8, armboth, r, 4);
	assert_int_equal(n, 2);
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.file, "arch/arm/mm/fault.c");
	assert_true(r[0].why & KL_SRCM_ARCH);
	assert_true(r[0].why & KL_SRCM_WIDTH);
	assert_int_equal(r[0].conv_off, 6);
	kl_srcidx_site(x, r[1].site, &s);
	assert_string_equal(s.file, "mm/pgd.c");
	assert_false(r[1].why & KL_SRCM_ARCH);
	/* Unknown: generic code first, then the arch/ copies. */
	n = kl_srcidx_match_arches(x, (const uint8_t *)msg, strlen(msg), 6,
	    8, 0, r, 4);
	assert_true(n >= 2);
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.file, "mm/pgd.c");
	assert_false(r[0].why & KL_SRCM_ARCHDIR);
	kl_srcidx_site(x, r[1].site, &s);
	assert_string_equal(s.file, "arch/arm/mm/fault.c");
	assert_true(r[1].why & KL_SRCM_ARCHDIR);
	/* One architecture alone: kl_srcidx_match() is the same. */
	assert_int_equal(kl_srcidx_match(x, (const uint8_t *)msg,
	    strlen(msg), 6, 8, KL_ARCH_ARM64, r, 4), 1);
	kl_srcidx_site(x, r[0].site, &s);
	assert_string_equal(s.file, "mm/pgd.c");
	kl_srcidx_free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_matches),
		cmocka_unit_test(test_arch_width),
		cmocka_unit_test(test_arch_mask),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
