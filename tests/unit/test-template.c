/*
 * test-template.c - message templates, classes, fingerprints, masking
 * (lib/template.c).
 *
 * Lines come from ../shared/corpus (file:line above each) unless named
 * after the one rule they pin.  The same printk in another log format
 * (mail quote, syslog file, journal MESSAGE) must give the same template.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"

#define C(s)	(const uint8_t *)(s), sizeof(s) - 1

/* The template of a whole line, classed by rule and region. */
static void
tpl(const uint8_t *p, size_t n, const char *rule, enum kl_region r,
    struct kl_template *t)
{
	kl_template_make(p, n, 0, t);
	t->tclass = kl_template_class(t, rule, r, NULL);
	kl_template_fingerprint(t);
}

/* Check a line's template text and class. */
static void
want(const uint8_t *p, size_t n, const char *rule, enum kl_region r,
    const char *text, enum kl_tclass c)
{
	struct kl_template t;

	tpl(p, n, rule, r, &t);
	assert_string_equal(t.text, text);
	assert_int_equal(t.len, strlen(text));
	assert_int_equal(t.tclass, c);
	assert_int_equal(strlen(t.fp), KL_FP_LEN);
}

/* KASAN's access line: one template for every task, size and format. */
static void
test_kasan_access(void **state)
{
	struct kl_template a, b, c, d, e;
	const char *w = "Read of size %d at addr %x by task %s/%d";

	(void)state;
	/* syzkaller/report/472:7 */
	tpl(C("[   50.517125][    C1] Read of size 8 at addr ffff8881d411fca8 "
	    "by task swapper/1/0"), "object-address", KL_REGION_DIRECT_MAP, &a);
	assert_string_equal(a.text, w);
	assert_int_equal(a.tclass, KL_TC_REPORT);
	/* syzkaller/report/661:7 */
	tpl(C("[   54.510560][ T3608] Read of size 1 at addr ffff88806c856a40 "
	    "by task syz-executor371/3608"), "object-address",
	    KL_REGION_DIRECT_MAP, &b);
	/* the same line quoted in a mail, in a syslog file, in a journal */
	tpl(C("> > [   54.510560][ T3608] Read of size 1 at addr "
	    "ffff88806c856a40 by task syz-executor371/3608"), "object-address",
	    KL_REGION_DIRECT_MAP, &c);
	tpl(C("Dec  4 10:00:00 build7 kernel: [   54.510560] Read of size 1 "
	    "at addr ffff88806c856a40 by task syz-executor371/3608\r"),
	    "object-address", KL_REGION_DIRECT_MAP, &d);
	tpl(C("Read of size 1 at addr ffff88806c856a40 by task "
	    "syz-executor371/3608"), "object-address", KL_REGION_DIRECT_MAP,
	    &e);
	assert_string_equal(a.fp, b.fp);
	assert_string_equal(a.fp, c.fp);
	assert_string_equal(a.fp, d.fp);
	assert_string_equal(a.fp, e.fp);
	assert_true(a.hash == e.hash);
}

/* Frames: old x86 [<addr>] with source lines, arm, mail-quoted arm64. */
static void
test_frames(void **state)
{
	struct kl_template a, b;

	(void)state;
	/* syzkaller/report/10:7 */
	want(C("[ 1019.110825] IP: [<ffffffff810a376f>] "
	    "__call_rcu.constprop.76+0x1f/0x280 kernel/rcu/tree.c:3046"),
	    "frame", KL_REGION_TEXT, "IP: [<%x>] %pS", KL_TC_FRAME);
	/* mail/linux-arm-kernel/2196da18b72ade84671dda169200db907e3bebac.eml:66 */
	tpl(C("> > [<ffffff80080ead58>] __atomic_notifier_call_chain+0xa8/0x130"),
	    "frame", KL_REGION_TEXT, &a);
	tpl(C("[   12.000001] [<ffffffff81000010>] ? do_one_initcall+0x10/0x20 "
	    "[ext4]"), "frame", KL_REGION_TEXT, &b);
	assert_string_equal(a.text, "[<%x>] %pS");
	assert_string_equal(a.fp, b.fp);
	want(C("> > PC is at [<ffffff8008cccbc0>] xhci_irq+0x728/0x2364"),
	    "pc", KL_REGION_TEXT, "PC is at [<%x>] %pS", KL_TC_FRAME);
	/* arm unwinder: rule "frame" */
	want(C("[<c010c2a4>] (unwind_backtrace) from [<c0109f6c>] "
	    "(show_stack+0x10/0x14)"), "frame", KL_REGION_TEXT,
	    "[<%x>] (%pS) from [<%x>] (%pS)", KL_TC_FRAME);
}

/* Register dumps, lockdep, dumps, kallsyms, layout. */
static void
test_shapes(void **state)
{
	(void)state;
	/* syzkaller/report/10 */
	want(C("[   42.392217] RSP: 002b:00007ffff4d34f28 EFLAGS: 00000246 "
	    "ORIG_RAX: 000000000000002c"), "stack-pointer", KL_REGION_TEXT,
	    "RSP: %x:%x EFLAGS: %x ORIG_RAX: %x", KL_TC_REGISTER);
	want(C("RSP: 0018:ffffc90000abbd08 EFLAGS: 00010246"), "value",
	    KL_REGION_VMALLOC, "RSP: %x:%x EFLAGS: %x", KL_TC_REGISTER);
	want(C("x29: ffff80000a5b3c90 x28: 0000000000000000"), "value",
	    KL_REGION_VMALLOC, "x29: %x x28: %x", KL_TC_REGISTER);
	/* syzkaller/report/747:95 */
	want(C("[  492.255064][T24950]  #0: ffffffff8f76e570 (cb_lock){++++}-"
	    "{4:4}, at: genl_rcv+0x19/0x40"), "value", KL_REGION_TEXT,
	    "#%d: %x (%s){%s}-{%d:%d}, at: %pS", KL_TC_REPORT);
	/* syzkaller's symbolised frames: the source line goes */
	want(C("[  492.255064][T24950]  #0: ffffffff8f76e570 (cb_lock){++++}-"
	    "{4:4}, at: genl_rcv+0x19/0x40 net/netlink/genetlink.c:811"),
	    "value", KL_REGION_TEXT, "#%d: %x (%s){%s}-{%d:%d}, at: %pS",
	    KL_TC_REPORT);
	/*
	 * s390 show_code(): one template for the disassembly, whatever the
	 * instruction (mail/linux-s390, written here with other values)
	 */
	want(C("[    8.532575] Krnl Code: 00000000b05ec32e: c0e500187331\t"
	    "brasl\t%r14,00000000b08fa990"), "value", KL_REGION_KERNEL,
	    "Krnl Code: %x: ...", KL_TC_POINTER);
	want(C("[    8.532575] Krnl Code:#00000000b05ec338: af000000\tmc\t0,0"),
	    "value", KL_REGION_KERNEL, "Krnl Code: %x: ...", KL_TC_POINTER);
	want(C("                          >00000000b05ec33c: ec76fed8007c\t"
	    "cgij\t%r7,0,6,00000000b05ec0ec"), "value", KL_REGION_KERNEL,
	    "%x: ...", KL_TC_REPORT);
	/* a raw stack dump has no word: a report */
	want(C("ffff8880123f7d10: ffffffff81234567 0000000000000000"),
	    "value", KL_REGION_TEXT, "%x: %x %x", KL_TC_REPORT);
	want(C(">ffff8880743a2f80: fc fc fc fc 00 00 00 fb fb fb fb fb"),
	    "dump-row", KL_REGION_DIRECT_MAP, "%x: %*ph", KL_TC_REPORT);
	want(C(" ffff8880743a2f00: fa fb [fb] fb fc fc fc fc"), "dump-row",
	    KL_REGION_DIRECT_MAP, "%x: %*ph", KL_TC_REPORT);
	/* qemu/x86_64-6.1.0-57-amd64-boot1/console.log:357 */
	want(C("ffffffff85200000 T startup_64"), "value", KL_REGION_TEXT,
	    "%px %c %s", KL_TC_FILE);
	want(C("ffffffffc0a01000 t ext4_fill_super\t[ext4]"), "value",
	    KL_REGION_MODULES, "%px %c %s", KL_TC_FILE);
	/* qemu/x86_64-6.1.0-57-amd64-boot2/console.log:804 */
	want(C("[    5.312162] Kernel Offset: 0x1f600000 from 0xffffffff81000000 "
	    "(relocation range: 0xffffffff80000000-0xffffffffbfffffff)"),
	    "kernel-offset", KL_REGION_LAYOUT, "Kernel Offset: 0x%x from 0x%x "
	    "(relocation range: 0x%x-0x%x)", KL_TC_LAYOUT);
	want(C("CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.1.0-57-amd64 #1 "
	    "Debian 6.1.192-3"), "value", KL_REGION_TEXT,
	    "CPU: %d PID: %d Comm: %s Not tainted %s", KL_TC_POINTER);
	/* words of hex letters stay, a percent sign doubles */
	want(C("added 50% of cafe at ffff888012345678"), "value",
	    KL_REGION_DIRECT_MAP, "added %d%% of cafe at %x", KL_TC_POINTER);
	/* syzkaller/report/10:6 via "** N printk messages dropped **" */
	want(C("** 3 printk messages dropped ** [ 1019.110825] BUG: unable to "
	    "handle kernel paging request at 00000000ffffff8a"),
	    "fault-address", KL_REGION_TEXT,
	    "BUG: unable to handle kernel paging request at %x", KL_TC_REPORT);
}

/* Cut lines and long messages end with "..."; nothing overflows. */
static void
test_cut(void **state)
{
	struct kl_template t;
	uint8_t big[3000];
	size_t i;

	(void)state;
	kl_template_make(C("Read of size 8 at addr ffff8881d411fca8"),
	    KL_F_TAIL_CUT, &t);
	assert_string_equal(t.text, "Read of size %d at addr %x...");
	assert_true(t.flags & KL_TPL_CUT);
	for (i = 0; i < sizeof(big); i++)
		big[i] = i % 3 == 2 ? ' ' : 'g' + i % 3;
	kl_template_make(big, sizeof(big), 0, &t);
	assert_true(t.len <= KL_TPL_MAX);
	assert_int_equal(strlen(t.text), t.len);
	assert_memory_equal(t.text + t.len - 3, "...", 3);
	kl_template_make(NULL, 0, 0, &t);
	assert_string_equal(t.text, "");
}

/* The fingerprint is pinned: it must not change across releases. */
static void
test_fingerprint(void **state)
{
	struct kl_template t;

	(void)state;
	tpl(C("Read of size 1 at addr ffff88806c856a40 by task x/1"),
	    "object-address", KL_REGION_DIRECT_MAP, &t);
	assert_string_equal(t.fp, "bde1c7907c9fd2d8");
	tpl(C("ffffffff85200000 T startup_64"), "value", KL_REGION_TEXT, &t);
	assert_string_equal(t.fp, "028f0b1680323b81");
	/* the class is hashed too */
	t.tclass = KL_TC_POINTER;
	kl_template_fingerprint(&t);
	assert_string_not_equal(t.fp, "028f0b1680323b81");
}

/* Names of classes go both ways. */
static void
test_names(void **state)
{
	enum kl_tclass c;
	int i;

	(void)state;
	for (i = 0; i < KL_TC_COUNT; i++) {
		assert_int_equal(kl_tclass_parse(kl_tclass_name(i), &c), 0);
		assert_int_equal(c, i);
	}
	assert_int_equal(kl_tclass_parse("nope", &c), -1);
}

/* Masking keeps the digits that name the region. */
static void
test_mask(void **state)
{
	char s[] = "RIP ffffffff81234567 dm 0xffff888012345678 c0123456 1234 "
	    "wordffffffff81234567 ffffffffffffffff";

	(void)state;
	assert_int_equal(kl_mask_addr((uint8_t *)s, strlen(s)), 7 + 11 + 7);
	assert_string_equal(s, "RIP ffffffff8xxxxxxx dm 0xffff8xxxxxxxxxxx "
	    "cxxxxxxx 1234 wordffffffff81234567 ffffffffffffffff");
}

/* Syslog hosts, in the three header forms. */
static void
test_host(void **state)
{
	static const char *const lines[] = {
		"Dec  4 10:00:00 build7 kernel: [    1.0] x",
		"2024-01-02T03:04:05.123456+00:00 build7 kernel: x",
		"<6>1 2024-01-02T03:04:05Z build7 kernel - - - x",
	};
	struct kl_frame fr;
	size_t i, off, len;

	(void)state;
	for (i = 0; i < 3; i++) {
		kl_frame_line((const uint8_t *)lines[i], strlen(lines[i]),
		    KL_LINE_PLAIN, KL_FORMAT_AUTO, &fr);
		assert_int_equal(kl_template_host((const uint8_t *)lines[i],
		    fr.msg, &off, &len), 1);
		assert_int_equal(len, 6);
		assert_memory_equal(lines[i] + off, "build7", 6);
	}
	kl_frame_line(C("[    1.000000] x"), KL_LINE_PLAIN, KL_FORMAT_AUTO,
	    &fr);
	assert_int_equal(kl_template_host(C("[    1.000000] x"), &off, &len), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kasan_access),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_mask),
		cmocka_unit_test(test_host),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
