/*
 * test-lookalike.c - kl_lookalike_value() and kl_lookalike_shape(): the
 * reason a value or the bytes around a token give, or KL_SUP_NONE.
 *
 * Values and lines are real ones from ../shared/corpus/ (file and line
 * cited; the same cases test-classify.c runs through kl_classify()), or
 * hand-written where they pin one edge of a rule.
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

#define U64(x)	UINT64_C(x)

/* A value at a width, with and without a raw-printed label. */
struct vcase {
	uint64_t		 v;
	unsigned		 width;
	int			 raw;
	enum kl_suppress	 want;
};

static const struct vcase vcases[] = {
	{ 0, 64, 0, KL_SUP_NULL },
	{ 0, 32, 1, KL_SUP_NULL },
	/* syzkaller/guilty/51:131 "page:00000000645d0634" */
	{ U64(0x00000000645d0634), 64, 0, KL_SUP_HASHED },
	/* ...the same value after a raw label is a small number */
	{ U64(0x00000000645d0634), 64, 1, KL_SUP_NONE },
	/* 32-bit: a hash is any value, no rule */
	{ U64(0x645d0634), 32, 0, KL_SUP_NONE },
	/* boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:891, -ENOSYS */
	{ U64(0xffffffffffffffda), 64, 1, KL_SUP_ERR_PTR },
	/* -MAX_ERRNO is one, -4096 a mask (hand-written) */
	{ U64(0xfffffffffffff001), 64, 1, KL_SUP_ERR_PTR },
	{ U64(0xfffffffffffff000), 64, 1, KL_SUP_MASK },
	/* boot/tf201log__dmesg.txt:553, -EREMOTEIO at 32 bits */
	{ U64(0xffffff87), 32, 0, KL_SUP_ERR_PTR },
	/* qemu/x86_64-6.1.0-57-amd64-boot1/console.log:759 */
	{ U64(0xffffffffffff0000), 64, 1, KL_SUP_MASK },
	/* the relocation range's end, and a text address that is no mask */
	{ U64(0xffffffffbfffffff), 64, 0, KL_SUP_MASK },
	{ U64(0xffffffff81000000), 64, 0, KL_SUP_NONE },
	/* boot/anyka-cams__dmesg.txt:361, PAGE_OFFSET */
	{ U64(0xc0000000), 32, 0, KL_SUP_MASK },
	/* syzkaller/guilty/51:133, LIST_POISON1, LIST_POISON2 */
	{ U64(0xdead000000000100), 64, 0, KL_SUP_POISON },
	{ U64(0xdead000000000122), 64, 0, KL_SUP_POISON },
	/* POISON_FREE words, 64- and 32-bit; STACKLEAK_POISON */
	{ U64(0x6b6b6b6b6b6b6b6b), 64, 1, KL_SUP_POISON },
	{ U64(0x6b6b6b6b), 32, 0, KL_SUP_POISON },
	{ U64(0xffffffffffff4111), 64, 1, KL_SUP_POISON },
	{ U64(0xdeadbeef), 32, 0, KL_SUP_POISON },
	/* a word of a fill byte that is no poison */
	{ U64(0x4d4d4d4d4d4d4d4d), 64, 0, KL_SUP_NONE },
	/* a value wider than the width: not decided here */
	{ U64(0x100000000), 32, 0, KL_SUP_NONE },
};

/* Every value case gives its reason. */
static void
test_value(void **state)
{
	const struct vcase *t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(vcases) / sizeof(vcases[0]); i++) {
		t = &vcases[i];
		if (kl_lookalike_value(t->v, t->width, t->raw) != t->want)
			print_error("case %zu: %llx/%u\n", i,
			    (unsigned long long)t->v, t->width);
		assert_int_equal(kl_lookalike_value(t->v, t->width, t->raw),
		    t->want);
	}
}

/* One token of one line and the reason its shape gives. */
struct scase {
	const char		*src;
	const char		*msg;
	const char		*tok;
	enum kl_ck		 kind;
	enum kl_suppress	 want;
};

static const struct scase scases[] = {
	{ "qemu/x86_64-6.1.0-57-amd64-boot5-no_hash_pointers/console.log:830",
	  "Kernel Offset: 0x4c00000 from 0xffffffff81000000 (relocation "
	  "range: 0xffffffff80000000-0xffffffffbfffffff)",
	  "ffffffff81000000", KL_CK_NONE, KL_SUP_CONSTANT },
	{ "syzkaller/report/739:7",
	  "XFS (loop4): Unmounting Filesystem "
	  "d7dc424e-7990-42cb-9f91-9cb7200a101d",
	  "d7dc424e", KL_CK_NONE, KL_SUP_UUID },
	{ "hand-written", "eth0: link up, peer aa:bb:cc:dd:c0a80001",
	  "c0a80001", KL_CK_NONE, KL_SUP_MAC },
	{ "hand-written", "IPv6: route to fe80::c0a80001:1 failed",
	  "c0a80001", KL_CK_NONE, KL_SUP_IPV6 },
	{ "syzkaller/report/551:51",
	  "Code: e5973000 e2169602 13e09000 e1a06506 (e5934008) ",
	  "e5934008", KL_CK_NONE, KL_SUP_HEXDUMP },
	{ "loghub/loghub__Linux_Linux_2k.log:910",
	  "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= "
	  "rhost=c9063558.virtua.com.br ",
	  "c9063558", KL_CK_NONE, KL_SUP_HASH },
	/* a hash label decides by itself (hand-written) */
	{ "hand-written", "digest ffffffff81234567",
	  "ffffffff81234567", KL_CK_HASH, KL_SUP_HASH },
	/* leaks that look like the above and are not */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:873",
	  "RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246",
	  "ffffa667c016fe48", KL_CK_STACK, KL_SUP_NONE },
	{ "syzkaller/report/661:162",
	  ">ffff88806c856a00: 00 00 00 00 00 00 00 00 fc fc fc fc fc fc fc fc",
	  "ffff88806c856a00", KL_CK_ROW, KL_SUP_NONE },
	{ "hand-written", "stack is ffffc900190d0000..ffffc900190d7fff",
	  "ffffc900190d7fff", KL_CK_STACK, KL_SUP_NONE },
};

/* Every shape case gives its reason. */
static void
test_shape(void **state)
{
	const struct scase *t;
	struct kl_ctx c;
	const char *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(scases) / sizeof(scases[0]); i++) {
		t = &scases[i];
		p = strstr(t->msg, t->tok);
		assert_non_null(p);
		memset(&c, 0, sizeof(c));
		c.msg = (const uint8_t *)t->msg;
		c.len = strlen(t->msg);
		c.tok = (size_t)(p - t->msg);
		c.toklen = strlen(t->tok);
		c.prefix = c.tok >= 2 && p[-2] == '0' && (p[-1] | 0x20) == 'x';
		c.msg_head = 1;
		if (kl_lookalike_shape(&c, t->kind) != t->want)
			print_error("%s: %s\n", t->src, t->tok);
		assert_int_equal(kl_lookalike_shape(&c, t->kind), t->want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_shape),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
