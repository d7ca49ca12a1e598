/*
 * test-label.c - kl_label_context(): the kind of context, symbol and
 * module flags that the bytes around a token give.
 *
 * Lines are real ones from ../shared/corpus/ (file and line cited, the
 * message part only), as in test-classify.c; each row pins what label.c
 * reads from it, before any region is looked at.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* One token of one line and the context it must read as. */
struct lcase {
	const char	*src;
	const char	*msg;
	const char	*tok;	/* the token's digits */
	unsigned	 nth;	/* which occurrence of tok, 0-based */
	int		 head;	/* msg starts at the real message start */
	enum kl_ck	 kind;
	int		 sym;
	int		 module;
};

static const struct lcase cases[] = {
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:891",
	  "RAX: ffffffffffffffda RBX: ffffffffffffffff RCX: 00007f6fd687573d",
	  "ffffffffffffffff", 0, 1, KL_CK_REG, 0, 0 },
	/* the "0018:" selector is skipped back to the label */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:873",
	  "RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246",
	  "ffffa667c016fe48", 0, 1, KL_CK_STACK, 0, 0 },
	/* ...cut before "RSP": "SP" may be the end of a longer word */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:873 (window)",
	  "SP: 0018:ffffa667c016fe48 EFLAGS: 00010246",
	  "ffffa667c016fe48", 0, 0, KL_CK_NONE, 0, 0 },
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:879",
	  "FS:  00007f6fd6733500(0000) GS:ffff993fa4e00000(0000) "
	  "knlGS:0000000000000000",
	  "ffff993fa4e00000", 0, 1, KL_CK_PERCPU, 0, 0 },
	/* a later column of a register row */
	{ "mail/linuxppc-dev/291ff8fad21a4e920e0c3567e7f024bdc018c2a1.eml:44",
	  "GPR08: c000000002bac020 6b6b6b6b6b6b6b6b 6b6b6b6b6b6b6b6b ",
	  "6b6b6b6b6b6b6b6b", 1, 1, KL_CK_REG, 0, 0 },
	{ "syzkaller/guilty/51:131",
	  "page:00000000645d0634 refcount:1 mapcount:0 "
	  "mapping:0000000000000000 index:0xfdff000022c9c000 pfn:0x62c9c",
	  "00000000645d0634", 0, 1, KL_CK_PAGE, 0, 0 },
	/* a frame without "+0x../0x..": no symbol */
	{ "syzkaller/guilty/17:6",
	  " [<ffffffff81c8f6cd>] __dump_stack lib/dump_stack.c:15 [inline]",
	  "ffffffff81c8f6cd", 0, 1, KL_CK_FRAME, 0, 0 },
	{ "syzkaller/report/551:42",
	  "[<8037e608>] (vfs_parse_fs_param) from [<8037e7dc>] "
	  "(vfs_parse_fs_string+0x90/0xd4)",
	  "8037e7dc", 0, 1, KL_CK_FRAME, 1, 0 },
	/* powerpc "[sp] [ip] sym+off/size [module]" */
	{ "mail/linuxppc-dev/e51d08a75b43214485c698952b509a0c8c28637c.eml:98",
	  "[c000000011edf740] [c00800001d7e0278] "
	  ".radeon_fbdev_init+0xf8/0x180 [radeon]",
	  "c000000011edf740", 0, 1, KL_CK_STACK, 0, 0 },
	{ "mail/linuxppc-dev/e51d08a75b43214485c698952b509a0c8c28637c.eml:98",
	  "[c000000011edf740] [c00800001d7e0278] "
	  ".radeon_fbdev_init+0xf8/0x180 [radeon]",
	  "c00800001d7e0278", 0, 1, KL_CK_FRAME, 1, 1 },
	{ "syzkaller/report/551:18",
	  "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: 40000013",
	  "8054b7b0", 0, 1, KL_CK_PC, 0, 0 },
	/* the end of a range takes the label of its start */
	{ "syzkaller/report/697:41",
	  "Exception stack(0xdf981fa8 to 0xdf981ff0)",
	  "df981ff0", 0, 1, KL_CK_STACK, 0, 0 },
	/* s390 PSW: the address word is a pc, with its symbol */
	{ "mail/linux-s390/8ceeab5364cde6dbcd16621ebe1723cb5a4cf5ac.eml:19",
	  "Krnl PSW : 0704e00180000000 00000000b05ec33c "
	  "(__netif_set_xps_queue+0x3dc/0xca8)",
	  "00000000b05ec33c", 0, 1, KL_CK_PC, 1, 0 },
	{ "syzkaller/report/661:162",
	  ">ffff88806c856a00: 00 00 00 00 00 00 00 00 fc fc fc fc fc fc fc fc",
	  "ffff88806c856a00", 0, 1, KL_CK_ROW, 0, 0 },
	{ "loghub/loghub__Linux_Linux_2k.log:910",
	  "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= "
	  "rhost=c9063558.virtua.com.br ",
	  "c9063558", 0, 1, KL_CK_NONE, 0, 0 },
	/* ACPI table lines print a physical address */
	{ "qemu/x86_64-6.1.0-57-amd64-boot5-no_hash_pointers/console.log:44",
	  "ACPI: RSDT 0x000000003FFE1AD8 000034 "
	  "(v01 BOCHS  BXPC     00000001 BXPC 00000001)",
	  "000000003FFE1AD8", 0, 1, KL_CK_PHYS, 0, 0 },
};

/* Each case reads as its kind, symbol and module flags. */
static void
test_cases(void **state)
{
	const struct lcase *t;
	struct kl_cinfo ci;
	struct kl_ctx c;
	const char *p;
	size_t i;
	unsigned k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = &cases[i];
		p = t->msg;
		for (k = 0;; k++) {
			p = strstr(p, t->tok);
			assert_non_null(p);
			if (k == t->nth)
				break;
			p++;
		}
		memset(&c, 0, sizeof(c));
		c.msg = (const uint8_t *)t->msg;
		c.len = strlen(t->msg);
		c.tok = (size_t)(p - t->msg);
		c.toklen = strlen(t->tok);
		c.prefix = c.tok >= 2 && p[-2] == '0' && (p[-1] | 0x20) == 'x';
		c.msg_head = t->head;
		memset(&ci, 0x55, sizeof(ci));
		kl_label_context(&c, &ci);
		if (ci.kind != t->kind || ci.sym != t->sym ||
		    ci.module != t->module)
			print_error("%s: %s: kind %d sym %d module %d\n",
			    t->src, t->tok, (int)ci.kind, ci.sym, ci.module);
		assert_int_equal(ci.valid, 1);
		assert_int_equal(ci.kind, t->kind);
		assert_int_equal(ci.sym, t->sym);
		assert_int_equal(ci.module, t->module);
	}
}

/* No message, or a token that does not fit in it: nothing is read. */
static void
test_invalid(void **state)
{
	static const char m[] = "RIP: 0010:ffffffff81234567";
	struct kl_cinfo ci;
	struct kl_ctx c;

	(void)state;
	kl_label_context(NULL, &ci);
	assert_int_equal(ci.valid, 0);
	assert_int_equal(ci.kind, KL_CK_NONE);
	memset(&c, 0, sizeof(c));
	c.msg = (const uint8_t *)m;
	c.len = sizeof(m) - 1;
	c.tok = 10;
	c.toklen = 16;
	c.msg_head = 1;
	kl_label_context(&c, &ci);
	assert_int_equal(ci.valid, 1);
	assert_int_equal(ci.kind, KL_CK_PC);
	c.toklen = 17;
	kl_label_context(&c, &ci);
	assert_int_equal(ci.valid, 0);
	assert_int_equal(ci.kind, KL_CK_NONE);
	c.toklen = 0;
	kl_label_context(&c, &ci);
	assert_int_equal(ci.valid, 0);
	/* a 0x prefix needs two bytes before the token */
	c.toklen = 16;
	c.tok = 1;
	c.len = 17;
	c.prefix = 1;
	kl_label_context(&c, &ci);
	assert_int_equal(ci.valid, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_invalid),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
