/*
 * test-kaslr-line.c - what single log lines say to the KASLR reader
 * (kaslr-line.c): the KASLR state words, and which lines kl_kaslr_wants()
 * lets through to kl_kaslr_line(), with and without a map.
 */
#include "config.h"

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

#define SLICE	TESTDATA "/x86_64-debian-6.1.0-57-System.map.slice"

static struct kl_symtab *slice;

/* Feed one line (a message, as framing gives it) to k. */
static int
line(struct kl_kaslr *k, uint64_t n, const char *s)
{
	return (kl_kaslr_line(k, n, (const uint8_t *)s, strlen(s)));
}

static int
setup(void **state)
{
	struct kl_error err;

	(void)state;
	memset(&err, 0, sizeof(err));
	slice = kl_sym_load(SLICE, &err);
	return (slice == NULL ? -1 : 0);
}

static int
teardown(void **state)
{
	(void)state;
	kl_sym_free(slice);
	return (0);
}

/*
 * The KASLR state words: syzkaller/report/680:71 of the corpus, the
 * Orange Pi 5 boot (line 133), the qemu nokaslr boot (line 79);
 * a failed randomisation gives no slide.
 */
static void
t_state(void **state)
{
	static const struct {
		const char		*s;
		enum kl_kaslr_state	 st;
		size_t			 at;
		size_t			 len;
	} cases[] = {
		{ "Kernel Offset: disabled", KL_KSTATE_OFF, 15, 8 },
		{ "KASLR disabled due to lack of seed", KL_KSTATE_FAILED, 6,
		    8 },
		{ "Kernel command line: console=ttyS0 panic=-1 oops=panic "
		    "loglevel=7 nokaslr dumpkallsyms", KL_KSTATE_OFF, 66, 7 },
		{ "KASLR disabled on command line", KL_KSTATE_OFF, 6, 8 },
		{ "KASLR is disabled.", KL_KSTATE_OFF, 9, 8 },
		{ "KASLR disabled: CPU has no PRNG", KL_KSTATE_FAILED, 6, 8 },
		/* An unknown wording says nothing (kasld's rule). */
		{ "KASLR disabled for a reason of tomorrow", KL_KSTATE_NONE,
		    0, 0 },
		{ "Unknown kernel command line parameters \"nokaslr "
		    "dumpkallsyms\", will be passed to user space.",
		    KL_KSTATE_NONE, 0, 0 },
	};
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	size_t i, at, len;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		at = len = 0;
		assert_int_equal(kl_kaslr_state((const uint8_t *)cases[i].s,
		    strlen(cases[i].s), &at, &len), cases[i].st);
		assert_int_equal(at, cases[i].at);
		assert_int_equal(len, cases[i].len);
	}
	kl_kaslr_init(&k, KL_ARCH_ARM64_39, NULL);
	assert_int_equal(line(&k, 133, cases[1].s), 3);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 0);
	assert_int_equal(v.kaslr_off, 0);
	assert_int_equal(v.kaslr_failed, 1);
	assert_int_equal(v.nev, 1);
	assert_int_equal(v.ev[0].kind, KL_EV_KASLR_FAILED);
	assert_string_equal(kl_evidence_name(v.ev[0].kind), "kaslr-failed");
	kl_kaslr_init(&k, KL_ARCH_ARM64, NULL);
	assert_int_equal(line(&k, 71, cases[0].s), 2);
	assert_int_equal(line(&k, 72, "Kernel Offset: 0x1f2e0000 from "
	    "0xffff800008000000"), 1);
}

/*
 * The lines kl_kaslr_wants() lets through: every wording the tests
 * above feed (each kstates[] one, the offset and relocation lines, both
 * command lines) without a map; common oops lines only with one.
 */
static void
t_wants(void **state)
{
	static const char *const yes[] = {
		"Kernel Offset: 0x6000000 from 0xffffffff81000000 "
		    "(relocation range: 0xffffffff80000000-0xffffffffbfffffff)",
		"Kernel Offset: disabled",
		"Kernel relocated by 0x3510000",
		"KASLR disabled: 'nokaslr' on cmdline",
		"KASLR disabled: 'kaslr' not on cmdline",
		"KASLR disabled on command line",
		"KASLR is disabled.",
		"KASLR disabled due to lack of seed",
		"KASLR disabled due to FDT remapping failure",
		"KASLR disabled: CPU has no PRNG",
		"KASLR disabled: not enough memory",
		"Command line: console=ttyS0 nokaslr panic=-1",
		"Kernel command line: console=ttyS0 panic=-1 oops=panic "
		    "loglevel=7 nokaslr dumpkallsyms",
		"PHYS_OFFSET: 0xfffff58b40000000",
		"Memory: 1007916k/1007916k available, 40660k reserved, "
		    "242688K highmem",
		"KERNELOFFSET=4200000",
	};
	static const char *const no[] = {
		"Call Trace:",
		"Code: 48 89 df e8 2b 9c fd ff",
		"CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.1.0 #1",
		"Key type id_resolver registered",
		"ffffffff85200000 T _text",
		" [<ffffffff81000000>] do_one_initcall+0x50/0x1f0",
		"Kern",
	};
	struct kl_kaslr k;
	uint64_t set[4];
	size_t i, n;
	unsigned c;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	/* kl_kaslr_first(): 'K', 'C', 'P', 'M': every first of yes[]. */
	kl_kaslr_first(&k, set);
	for (n = 0, c = 0; c < 256; c++)
		n += (size_t)((set[c / 64] >> (c % 64)) & 1);
	assert_int_equal(n, 4);
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		c = (uint8_t)yes[i][0];
		assert_true((set[c / 64] >> (c % 64)) & 1);
	}
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(kl_kaslr_wants(&k, (const uint8_t *)yes[i],
		    strlen(yes[i])));
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(kl_kaslr_wants(&k, (const uint8_t *)no[i],
		    strlen(no[i])));
	kl_kaslr_set_map(&k, slice);
	kl_kaslr_first(&k, set);
	assert_true(set[0] == UINT64_MAX && set[1] == UINT64_MAX &&
	    set[2] == UINT64_MAX && set[3] == UINT64_MAX);
	for (i = 0; i + 1 < sizeof(no) / sizeof(no[0]); i++)
		assert_true(kl_kaslr_wants(&k, (const uint8_t *)no[i],
		    strlen(no[i])));
	/* Shorter than any wording: never. */
	assert_false(kl_kaslr_wants(&k, (const uint8_t *)no[6], 4));
}

/*
 * The VMCOREINFO note as makedumpfile -g and crash print it: its
 * KERNELOFFSET= line states the slide (hex, no 0x; 0 when none), its
 * SYMBOL()= lines pair with a map as kallsyms lines do; lines that only
 * look like them say nothing.
 */
static void
t_vmcoreinfo(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	uint64_t s;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	assert_int_equal(line(&k, 1, "KERNELOFFSET=4200000"), 1);
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_true(s == 0x4200000);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.nev, 1);
	assert_int_equal(v.ev[0].kind, KL_EV_KERNEL_OFFSET);
	assert_int_equal(v.ev[0].line, 1);
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	assert_int_equal(line(&k, 1, "KERNELOFFSET=0"), 1);
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_true(s == 0);
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	assert_int_equal(line(&k, 1, "KERNELOFFSET=0x4200000"), 0);
	assert_int_equal(line(&k, 2, "KERNELOFFSET=42g0000"), 0);
	assert_int_equal(line(&k, 3, "KERNELOFFSET="), 0);
	assert_int_equal(kl_kaslr_slide(&k, &s), 0);
	/* SYMBOL(): runtime addresses; with the map, slide votes. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, slice);
	assert_int_equal(line(&k, 1, "SYMBOL(_stext)=ffffffff85200000"), 0);
	assert_int_equal(line(&k, 2, "SYMBOL(panic)=ffffffff85c01cb0"), 0);
	assert_int_equal(line(&k, 3, "SYMBOL(no_such)=ffffffff85c01cb0"), 0);
	assert_int_equal(line(&k, 4, "SYMBOL(panic)=0xffffffff85c01cb0"), 0);
	assert_int_equal(line(&k, 5, "SYMBOL(panic) = ffffffff85c01cb0"), 0);
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_true(s == 0x4200000);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide_votes, 2);
	assert_int_equal(v.nev, 2);
	assert_int_equal(v.ev[0].kind, KL_EV_KALLSYMS);
	assert_int_equal(v.ev[1].line, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_state),
		cmocka_unit_test(t_wants),
		cmocka_unit_test(t_vmcoreinfo),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
