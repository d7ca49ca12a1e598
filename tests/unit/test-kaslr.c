/*
 * test-kaslr.c - the KASLR slide and bases of a boot segment, from the
 * lines of real logs: the panic's Kernel Offset line and the runtime
 * kallsyms lines of Debian 6.1.0-57-amd64 booted under QEMU (with the
 * true slides of their TRUTH.md), "Kernel Offset: disabled" and
 * nokaslr; frames paired with their symbols; impossible and conflicting
 * slides; region bases from leaked values.
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
#define CORPUS	TESTDATA "/../../../shared/corpus/qemu"
#define FULLMAP	CORPUS "/System.map-6.1.0-57-amd64.xz"

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

/* boot1's panic line: the slide and the runtime _text, no map needed. */
static void
t_kernel_offset(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	uint64_t s;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	assert_int_equal(line(&k, 808, "Kernel Offset: 0x4200000 from "
	    "0xffffffff81000000 (relocation range: 0xffffffff80000000-"
	    "0xffffffffbfffffff)"), 1);
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_int_equal(s, 0x4200000);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.text_base, UINT64_C(0xffffffff85200000));
	assert_int_equal(v.text_exact, 1);
	assert_int_equal(v.entropy_bits, 0);
	assert_int_equal(v.disclosed, 1u << KL_REGION_TEXT);
	assert_int_equal(v.nev, 1);
	assert_int_equal(v.ev[0].line, 808);
	assert_int_equal(v.ev[0].kind, KL_EV_KERNEL_OFFSET);
	assert_string_equal(kl_evidence_name(v.ev[0].kind), "kernel-offset");
}

/* KASLR off: the panic line, the x86 boot line, the command line. */
static void
t_off(void **state)
{
	static const char *const lines[] = {
		"Kernel Offset: disabled",
		"KASLR disabled: 'nokaslr' on cmdline.",
		"Command line: console=ttyS0 nokaslr panic=-1",
		"Kernel command line: root=/dev/vda nokaslr",
	};
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
		line(&k, 1, lines[i]);
		kl_kaslr_verdict(&k, &v);
		assert_int_equal(v.kaslr_off, 1);
		assert_int_equal(v.has_slide, 1);
		assert_int_equal(v.slide, 0);
		assert_int_equal(v.text_base, UINT64_C(0xffffffff81000000));
		assert_int_equal(v.ev[0].kind, KL_EV_KASLR_OFF);
	}
	/* Not the option itself. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	line(&k, 1, "Command line: console=ttyS0 nokaslrx kaslr");
	line(&k, 2, "Unknown kernel command line parameters \"nokaslr\"");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 0);
	assert_int_equal(v.entropy_bits, 9);
}

/* Runtime kallsyms lines (boot1's init script printed them) and a map. */
static void
t_kallsyms(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	char buf[128];

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, slice);
	line(&k, 357, "ffffffff85200000 T startup_64");
	line(&k, 359, "ffffffff85200000 T _text");
	line(&k, 360, "ffffffff85564470 T do_sys_open");
	line(&k, 363, "ffffffff85c01cb0 T panic");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x4200000);
	assert_int_equal(v.slide_votes, 4);
	assert_int_equal(v.conflicts, 0);
	assert_int_equal(v.ev[2].kind, KL_EV_KALLSYMS);
	assert_int_equal(v.ev[2].line, 360);
	/* Every text address of the boot is now symbolised, as %pS. */
	assert_int_equal(kl_kaslr_symbol(&k, UINT64_C(0xffffffff85890926),
	    buf, sizeof(buf)), strlen("sysrq_handle_crash+0x16/0x20"));
	assert_string_equal(buf, "sysrq_handle_crash+0x16/0x20");
	/* Without a map the same lines say nothing about the slide. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	line(&k, 359, "ffffffff85200000 T _text");
	assert_int_equal(kl_kaslr_slide(&k, &v.slide), 0);
	assert_int_equal(kl_kaslr_symbol(&k, UINT64_C(0xffffffff85890926),
	    buf, sizeof(buf)), 0);
}

/* Frames: "[<addr>] sym+off/size" pairs; modules and others ignored. */
static void
t_frames(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, slice);
	line(&k, 10, " [<ffffffff85890926>] sysrq_handle_crash+0x16/0x20");
	line(&k, 11, " [<ffffffff85c01e18>] ? panic+0x168/0x2f4");
	line(&k, 12, "RIP: 0010:[<ffffffff85890926>]  [<ffffffff85890926>] "
	    "sysrq_handle_crash+0x16/0x20");
	/* A module frame and a symbol the map lacks: no vote. */
	line(&k, 13, " [<ffffffffc0a12345>] ext4_fill_super+0x10/0x20 [ext4]");
	line(&k, 14, " [<ffffffff85890926>] no_such_symbol+0x16/0x20");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x4200000);
	assert_int_equal(v.slide_votes, 2);	/* lines 10 and 12 */
	assert_int_equal(v.ev[0].line, 10);
	assert_int_equal(v.ev[0].kind, KL_EV_FRAME);
	assert_int_equal(v.ev[1].line, 12);
	/* powerpc: "[sp] [pc] sym+off/size": the second value is the pc. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, slice);
	line(&k, 5, "[c0000000ffd8f9f0] [ffffffff85c01cb0] panic+0x0/0x2f4");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x4200000);
}

/* A slide off the 2 MiB step or out of range is no evidence. */
static void
t_impossible(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, slice);
	line(&k, 1, " [<ffffffff85890930>] sysrq_handle_crash+0x16/0x20");
	line(&k, 2, "Kernel Offset: 0x4201000 from 0xffffffff81000000");
	line(&k, 3, "Kernel Offset: 0x40000000 from 0xffffffff81000000");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 0);
	assert_int_equal(v.nev, 0);
	/* arm (32-bit) has no KASLR: only slide 0 is possible. */
	kl_kaslr_init(&k, KL_ARCH_ARM, NULL);
	line(&k, 1, "Kernel Offset: 0x200000 from 0xc0008000");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 0);
}

/* Disagreeing evidence: the majority wins, the rest is reported. */
static void
t_conflict(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, slice);
	line(&k, 1, "ffffffff85200000 T _text");
	line(&k, 2, "ffffffffa0600000 T startup_64");	/* boot2's */
	line(&k, 3, "ffffffff85c01cb0 T panic");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x4200000);
	assert_int_equal(v.slide_votes, 2);
	assert_int_equal(v.conflicts, 1);
}

/* Leaked values: bases at the randomisation step (1 GiB on x86_64). */
static void
t_values(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	/* The Ubuntu 5.4 oops: GS: per-CPU data, RSP a vmalloc'd stack. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	kl_kaslr_value(&k, 13, KL_REGION_DIRECT_MAP,
	    UINT64_C(0xffff993fa4e00000));
	kl_kaslr_value(&k, 11, KL_REGION_VMALLOC,
	    UINT64_C(0xffffa667c016fe48));
	kl_kaslr_value(&k, 14, KL_REGION_DIRECT_MAP,
	    UINT64_C(0xffff993f9a3b4000));
	kl_kaslr_value(&k, 20, KL_REGION_TEXT, UINT64_C(0xffffffffa0612345));
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.disclosed, 1u << KL_REGION_DIRECT_MAP |
	    1u << KL_REGION_VMALLOC | 1u << KL_REGION_TEXT);
	assert_int_equal(v.base[KL_REGION_DIRECT_MAP],
	    UINT64_C(0xffff993f80000000));
	assert_int_equal(v.base[KL_REGION_VMALLOC],
	    UINT64_C(0xffffa667c0000000));
	/* A raw text value: the base is at most this, 2 MiB aligned. */
	assert_int_equal(v.text_exact, 0);
	assert_int_equal(v.text_base, UINT64_C(0xffffffffa0600000));
	assert_int_equal(v.entropy_bits, 4);
	assert_int_equal(v.nev, 3);	/* the first value of each region */
}

/* The real QEMU boots: every console log gives its TRUTH.md slide. */
static void
t_qemu(void **state)
{
	static const struct {
		const char *dir;
		uint64_t slide;
		int off;
	} boots[] = {
		{ "x86_64-6.1.0-57-amd64-boot1", 0x4200000, 0 },
		{ "x86_64-6.1.0-57-amd64-boot2", 0x1f600000, 0 },
		{ "x86_64-6.1.0-57-amd64-boot3", 0x2a400000, 0 },
		{ "x86_64-6.1.0-57-amd64-boot5-no_hash_pointers", 0x4c00000,
		    0 },
		{ "x86_64-6.1.0-57-amd64-nokaslr", 0, 1 },
	};
	struct kl_error err;
	struct kl_symtab *map;
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	char path[512], buf[4096];
	const char *m;
	size_t i, n;
	uint64_t ln;
	FILE *f;

	(void)state;
	if (access(FULLMAP, R_OK) != 0)
		skip();
	memset(&err, 0, sizeof(err));
	map = kl_sym_load(FULLMAP, &err);
	assert_non_null(map);
	for (i = 0; i < sizeof(boots) / sizeof(boots[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/console.log", CORPUS,
		    boots[i].dir);
		assert_non_null(f = fopen(path, "r"));
		kl_kaslr_init(&k, KL_ARCH_X86_64, map);
		for (ln = 1; fgets(buf, sizeof(buf), f) != NULL; ln++) {
			n = strcspn(buf, "\r\n");
			/* The message: after the dmesg timestamp. */
			m = buf;
			if (buf[0] == '[' && (m = strchr(buf, ']')) != NULL)
				m += 2;
			else
				m = buf;
			if (m > buf + n)
				m = buf + n;
			kl_kaslr_line(&k, ln, (const uint8_t *)m,
			    (size_t)(buf + n - m));
		}
		fclose(f);
		kl_kaslr_verdict(&k, &v);
		assert_int_equal(v.has_slide, 1);
		assert_int_equal(v.slide, boots[i].slide);
		assert_int_equal(v.conflicts, 0);
		assert_int_equal(v.kaslr_off, boots[i].off);
		assert_int_equal(v.text_base,
		    UINT64_C(0xffffffff81000000) + boots[i].slide);
	}
	kl_sym_free(map);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_kernel_offset),
		cmocka_unit_test(t_off),
		cmocka_unit_test(t_kallsyms),
		cmocka_unit_test(t_frames),
		cmocka_unit_test(t_impossible),
		cmocka_unit_test(t_conflict),
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_qemu),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
