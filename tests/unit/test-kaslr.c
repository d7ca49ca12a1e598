/*
 * test-kaslr.c - the KASLR slide and bases of a boot segment, from the
 * lines of real logs: the panic's Kernel Offset line and the runtime
 * kallsyms lines of Debian 6.1.0-57-amd64 booted under QEMU (with the
 * true slides of their TRUTH.md), "Kernel Offset: disabled" and
 * nokaslr; frames paired with their symbols; impossible and conflicting
 * slides; region bases from leaked values; register dumps (the arm,
 * riscv and x86 oopses of syzkaller's reports) paired with small maps
 * written for the rule; bases printed by layout dumps and freed ranges.
 * The state words and kl_kaslr_wants() are in test-kaslr-line.c.
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

/*
 * i386 prints "Kernel Offset: disabled" whatever its slide: x86's
 * kaslr_enabled() needs CONFIG_RANDOMIZE_MEMORY, which only x86_64 has
 * (tests/qemu/boots/i386: slide 0x8000000, and that line).  Read while
 * the arch is open, the line's vote is taken back when it turns out i386.
 */
static void
t_off_i386(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_I386, NULL);
	line(&k, 1, "Kernel Offset: disabled");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.kaslr_off, 0);
	assert_int_equal(v.has_slide, 0);
	assert_int_equal(v.nev, 0);

	kl_kaslr_init(&k, KL_ARCH_AUTO, NULL);
	line(&k, 1, "Command line: console=ttyS0 nokaslr");
	line(&k, 9, "Kernel Offset: disabled");
	kl_kaslr_set_arch(&k, KL_ARCH_I386);
	kl_kaslr_verdict(&k, &v);
	/* The command line still says off; only line 9 is taken back. */
	assert_int_equal(v.kaslr_off, 1);
	assert_int_equal(v.nev, 1);
	assert_int_equal(v.ev[0].line, 1);

	kl_kaslr_init(&k, KL_ARCH_AUTO, NULL);
	line(&k, 9, "Kernel Offset: disabled");
	kl_kaslr_set_arch(&k, KL_ARCH_I386);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.kaslr_off, 0);
	assert_int_equal(v.has_slide, 0);
	assert_int_equal(v.nev, 0);

	/* On x86_64 it still means off. */
	kl_kaslr_init(&k, KL_ARCH_AUTO, NULL);
	line(&k, 9, "Kernel Offset: disabled");
	kl_kaslr_set_arch(&k, KL_ARCH_X86_64);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.kaslr_off, 1);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0);
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

/*
 * A 32-bit kernel's kallsyms lines have 8 digits (tests/qemu/boots/i386:
 * map _text c1000000, runtime c9000000, slide 0x8000000).
 */
static void
t_kallsyms32(void **state)
{
	static const char map[] =
	    "c1000000 T _text\n"
	    "c1000000 T _stext\n"
	    "c100166c T __switch_to_asm\n"
	    "c1a00000 T _etext\n"
	    "c2000000 B _end\n";
	struct kl_symtab *t;
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	struct kl_error err;

	(void)state;
	t = kl_sym_load_mem(map, strlen(map), "i386.map", &err);
	assert_non_null(t);
	kl_kaslr_init(&k, KL_ARCH_I386, t);
	line(&k, 1, "c9000000 T _text");
	line(&k, 2, "c900166c T __switch_to_asm");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0x8000000);
	assert_int_equal(v.slide_votes, 2);
	assert_int_equal(v.ev[0].kind, KL_EV_KALLSYMS);
	/*
	 * Digits to the end of the line, read from a buffer of their exact
	 * size (fuzz-kaslr found the read one past them:
	 * tests/fuzz/regress/kaslr-kallsyms-digits-only.txt).
	 */
	{
		char *b = malloc(16);

		assert_non_null(b);
		memcpy(b, "c9000000c9000000", 16);
		(void)kl_kaslr_line(&k, 3, (const uint8_t *)b, 16);
		memcpy(b, "c9000000 T _text", 16);
		(void)kl_kaslr_line(&k, 4, (const uint8_t *)b, 16);
		free(b);
		kl_kaslr_verdict(&k, &v);
		assert_int_equal(v.slide_votes, 3);
	}
	/* Neither 7 nor 9 digits is a kallsyms line. */
	kl_kaslr_init(&k, KL_ARCH_I386, t);
	line(&k, 1, "c900000 T _text");
	line(&k, 2, "0c9000000 T _text");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide_votes, 0);
	kl_sym_free(t);
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

/*
 * A slide off the 2 MiB step or out of range is no evidence when it is
 * inferred; the kernel's own statement is taken even then, and the
 * disagreement with the model is a conflict.
 */
static void
t_impossible(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_X86_64, slice);
	line(&k, 1, " [<ffffffff85890930>] sysrq_handle_crash+0x16/0x20");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 0);
	assert_int_equal(v.nev, 0);
	line(&k, 2, "Kernel Offset: 0x40000000 from 0xffffffff81000000");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0x40000000);
	assert_int_equal(v.outside, 1);
	assert_int_equal(v.conflicts, 1);
	assert_int_equal(v.nev, 1);
	assert_int_equal(v.ev[0].kind, KL_EV_KERNEL_OFFSET);
	/* Two statements: the first of equal votes, both conflicts. */
	line(&k, 3, "Kernel Offset: 0x4201000 from 0xffffffff81000000");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x40000000);
	assert_int_equal(v.conflicts, 2);
	/* arm (32-bit) has no KASLR: the statement is kept, against it. */
	kl_kaslr_init(&k, KL_ARCH_ARM, NULL);
	line(&k, 1, "Kernel Offset: 0x200000 from 0xc0008000");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0x200000);
	assert_int_equal(v.outside, 1);
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

/*
 * Feed lines FIRST..LAST of the console log PATH (messages after their
 * dmesg timestamps) to an x86_64 kl_kaslr with MAP: the verdict is
 * SLIDE, without conflict, KASLR off when OFF, the text base moved by it.
 */
static void
qemu_boot(const char *path, uint64_t first, uint64_t last,
    const struct kl_symtab *map, uint64_t slide, int off)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	char buf[4096];
	const char *m;
	uint64_t ln;
	size_t n;
	FILE *f;

	assert_non_null(f = fopen(path, "r"));
	kl_kaslr_init(&k, KL_ARCH_X86_64, map);
	for (ln = 1; ln <= last && fgets(buf, sizeof(buf), f) != NULL; ln++) {
		if (ln < first)
			continue;
		n = strcspn(buf, "\r\n");
		/* The message: after the dmesg timestamp. */
		m = buf;
		if (buf[0] == '[' && (m = strchr(buf, ']')) != NULL)
			m += 2;
		else
			m = buf;
		if (m > buf + n)
			m = buf + n;
		kl_kaslr_line(&k, ln, (const uint8_t *)m, (size_t)(buf + n - m));
	}
	fclose(f);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, slide);
	assert_int_equal(v.conflicts, 0);
	assert_int_equal(v.kaslr_off, off);
	assert_int_equal(v.text_base, UINT64_C(0xffffffff81000000) + slide);
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
	char path[512];
	size_t i;

	(void)state;
	if (access(FULLMAP, R_OK) != 0)
		skip();
	memset(&err, 0, sizeof(err));
	map = kl_sym_load(FULLMAP, &err);
	assert_non_null(map);
	for (i = 0; i < sizeof(boots) / sizeof(boots[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/console.log", CORPUS,
		    boots[i].dir);
		qemu_boot(path, 1, UINT64_MAX, map, boots[i].slide,
		    boots[i].off);
	}
	kl_sym_free(map);
}

/*
 * The same on the project's QEMU boots in tests/data (tests/data/
 * ATTRIBUTION): the no_hash_pointers console (TRUTH: 0x4c00000) and the
 * four boots of one console, five lines each (TRUTH: 0x4200000,
 * 0x1f600000, 0x2a400000, nokaslr), with the 20-line map slice.
 */
static void
t_qemu_own(void **state)
{
	static const uint64_t four[] = { 0x4200000, 0x1f600000, 0x2a400000,
	    0 };
	uint64_t i;

	(void)state;
	qemu_boot(TESTDATA "/x86_64-qemu-6.1-no-hash-pointers.console", 1,
	    UINT64_MAX, slice, 0x4c00000, 0);
	for (i = 0; i < 4; i++)
		qemu_boot(TESTDATA "/x86_64-qemu-6.1-four-boots.console",
		    i * 5 + 1, i * 5 + 5, slice, four[i], i == 3);
}

/* A map from text (a few lines of System.map written for one rule). */
static struct kl_symtab *
mapof(const char *text)
{
	struct kl_error err;
	struct kl_symtab *t;

	memset(&err, 0, sizeof(err));
	t = kl_sym_load_mem(text, strlen(text), "rule.map", &err);
	assert_non_null(t);
	return (t);
}

/*
 * arm: syzkaller/report/551 lines 16-18 (5.10.2, vexpress): "PC is at"
 * and "LR is at" name the symbols, "pc : [<..>] lr : [<..>]" the raw
 * values.  With jffs2_parse_param at 0x8054b718 both say slide 0.
 */
static void
t_register_arm(void **state)
{
	struct kl_symtab *t, *moved;
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	t = mapof("80008000 T _text\n8054b718 T jffs2_parse_param\n"
	    "8054b8a4 T jffs2_fill_super\n");
	kl_kaslr_init(&k, KL_ARCH_ARM, t);
	line(&k, 16, "PC is at jffs2_parse_param+0xa8/0x18c");
	line(&k, 17, "LR is at jffs2_parse_param+0x98/0x18c");
	line(&k, 18, "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: "
	    "40000013");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0);
	assert_int_equal(v.slide_votes, 2);
	/* The map's _text, not arm's default 0xc0008000 (2G/2G split). */
	assert_int_equal(v.text_base, 0x80008000);
	assert_int_equal(v.nev, 2);
	assert_int_equal(v.ev[0].kind, KL_EV_REGISTER);
	assert_int_equal(v.ev[0].line, 18);
	assert_string_equal(kl_evidence_name(v.ev[1].kind), "register");
	/*
	 * A map 1 MiB off: slide 0x100000, impossible on arm, is no
	 * evidence; arm has no KASLR, so with a map the slide is 0 by
	 * construction (no piece of evidence).
	 */
	moved = mapof("80008000 T _text\n8044b718 T jffs2_parse_param\n");
	kl_kaslr_init(&k, KL_ARCH_ARM, moved);
	line(&k, 16, "PC is at jffs2_parse_param+0xa8/0x18c");
	line(&k, 18, "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: "
	    "40000013");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0);
	assert_int_equal(v.slide_votes, 0);
	assert_int_equal(v.nev, 0);
	/* Without a map nothing is known. */
	kl_kaslr_init(&k, KL_ARCH_ARM, NULL);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 0);
	/* The raw values far below the symbol belong to another dump. */
	kl_kaslr_init(&k, KL_ARCH_ARM, t);
	line(&k, 16, "PC is at jffs2_parse_param+0xa8/0x18c");
	line(&k, 30, "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: "
	    "40000013");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide_votes, 0);
	/* "PC is at 0x0" (syzkaller/report/676): no symbol, no pair. */
	kl_kaslr_init(&k, KL_ARCH_ARM, t);
	line(&k, 13, "PC is at 0x0");
	line(&k, 15, "pc : [<00000000>]    lr : [<808eaab4>]    psr: "
	    "60000013");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.nev, 0);
	kl_sym_free(moved);
	kl_sym_free(t);
}

/*
 * riscv: syzkaller/report/607 lines 9-11 (5.11): "epc : f+off/size",
 * " ra : f+off/size", then "epc : <raw> ra : <raw> sp : <raw>".  A map
 * 2 MiB below gives slide 0x200000, twice.
 */
static void
t_register_riscv(void **state)
{
	struct kl_symtab *t;
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	t = mapof("ffffffdfffe00000 T _text\n"
	    "ffffffdfffe8c6f0 T schedule_tail\n"
	    "ffffffdfffe8c7a2 T schedule\n");
	kl_kaslr_init(&k, KL_ARCH_RISCV64, t);
	line(&k, 9, "epc : schedule_tail+0x72/0xb2");
	line(&k, 10, " ra : schedule_tail+0x70/0xb2");
	line(&k, 11, "epc : ffffffe00008c762 ra : ffffffe00008c760 sp : "
	    "ffffffe00853fec0");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0x200000);
	assert_int_equal(v.slide_votes, 2);
	assert_int_equal(v.text_base, UINT64_C(0xffffffe000000000));
	assert_int_equal(v.ev[0].kind, KL_EV_REGISTER);
	assert_int_equal(v.ev[0].line, 11);
	assert_int_equal(v.ev[0].value, 0x200000);
	kl_sym_free(t);
}

/*
 * x86: syzkaller/guilty/15 line 9 (4.x): "RIP: 0010:[<raw>]  [<raw>]
 * f+off/size" is a register; the MSR fault line prints rIP raw beside
 * %pS (arch/x86/mm/extable.c; the values are kasld-dmesg.md 4.11's
 * invented ones); i386 printed "EIP: 0060:[<raw>]" then "EIP is at
 * f+off/size" (the format of arch/x86/kernel/process_32.c before 4.10,
 * values made up).
 */
static void
t_register_x86(void **state)
{
	struct kl_symtab *t;
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	t = mapof("ffffffff81000000 T _text\n"
	    "ffffffff8107c6f0 T native_read_msr\n"
	    "ffffffff8107c730 T native_write_msr\n"
	    "ffffffff816112f0 T next_group\n"
	    "ffffffff816115d0 T propagate_mnt\n");
	kl_kaslr_init(&k, KL_ARCH_X86_64, t);
	line(&k, 9, "RIP: 0010:[<ffffffff8181134a>]  [<ffffffff8181134a>] "
	    "next_group+0x5a/0x2e0 fs/pnode.c:172");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x200000);
	assert_int_equal(v.nev, 1);
	assert_int_equal(v.ev[0].kind, KL_EV_REGISTER);
	kl_kaslr_init(&k, KL_ARCH_X86_64, t);
	line(&k, 3, "unchecked MSR access error: RDMSR from 0x1fc at rIP: "
	    "0xffffffff8e07c6f7 (native_read_msr+0x7/0x40)");
	/* Another symbol than the one at the address: another slide. */
	line(&k, 4, "unchecked MSR access error: WRMSR to 0xe01 (tried to "
	    "write 0x0000000000000000) at rIP: 0xffffffff8e07c8d4 "
	    "(native_write_msr+0x4/0x30)");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0xd000000);
	assert_int_equal(v.slide_votes, 1);
	assert_int_equal(v.conflicts, 0);	/* 0xd0001a0: not a slide */
	assert_int_equal(v.ev[0].line, 3);
	assert_int_equal(v.ev[0].kind, KL_EV_REGISTER);
	kl_sym_free(t);
	t = mapof("c1000000 T _text\nc1234550 T sysrq_handle_crash\n"
	    "c1234570 T sysrq_handle_term\n");
	kl_kaslr_init(&k, KL_ARCH_I386, t);
	line(&k, 20, "EIP: 0060:[<c1434566>] EFLAGS: 00010246 CPU: 0");
	line(&k, 21, "EIP is at sysrq_handle_crash+0x16/0x20");
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x200000);
	assert_int_equal(v.ev[0].kind, KL_EV_REGISTER);
	assert_int_equal(v.ev[0].line, 21);
	kl_sym_free(t);
}

/*
 * Bases the kernel printed: the "Virtual kernel memory layout" of
 * boot/tf201log__dmesg.txt (2.6.36, arm: .init before .text), the
 * loongarch "Kernel relocated by" line (kernel-facts 4.1), freed ranges
 * of boot/surface-book__dmesg.txt (x86_64, 4.4) and a memory map.
 */
static void
t_bases(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_ARM, NULL);
	kl_kaslr_base(&k, 42, KL_EV_LAYOUT_DUMP, KL_REGION_VMALLOC,
	    0xf0800000, 1);
	kl_kaslr_base(&k, 43, KL_EV_LAYOUT_DUMP, KL_REGION_DIRECT_MAP,
	    0xc0000000, 1);
	kl_kaslr_base(&k, 45, KL_EV_LAYOUT_DUMP, KL_REGION_MODULES,
	    0xbf000000, 1);
	kl_kaslr_base(&k, 46, KL_EV_LAYOUT_DUMP, KL_REGION_TEXT,
	    0xc0008000, 1);		/* .init */
	kl_kaslr_base(&k, 47, KL_EV_LAYOUT_DUMP, KL_REGION_TEXT,
	    0xc003a000, 1);		/* .text: higher, not the base */
	kl_kaslr_value(&k, 42, KL_REGION_KERNEL, 0xf0800000);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, 0);
	assert_int_equal(v.text_base, 0xc0008000);
	assert_int_equal(v.text_exact, 1);
	assert_int_equal(v.base[KL_REGION_MODULES], 0xbf000000);
	assert_int_equal(v.base[KL_REGION_DIRECT_MAP], 0xc0000000);
	assert_int_equal(v.base[KL_REGION_VMALLOC], 0xf0800000);
	assert_int_equal(v.disclosed, 1u << KL_REGION_TEXT |
	    1u << KL_REGION_MODULES | 1u << KL_REGION_DIRECT_MAP |
	    1u << KL_REGION_VMALLOC | 1u << KL_REGION_KERNEL);
	assert_int_equal(v.nev, 5);
	/* In line order; the value of line 42 after its layout line. */
	assert_int_equal(v.ev[0].line, 42);
	assert_string_equal(kl_evidence_name(v.ev[0].kind), "layout-dump");
	assert_int_equal(v.ev[1].line, 42);
	assert_string_equal(kl_evidence_name(v.ev[1].kind), "value");
	assert_int_equal(v.ev[4].line, 46);
	assert_string_equal(kl_evidence_name(v.ev[4].kind), "layout-dump");
	/* A lower section start after a higher one takes its vote back. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	kl_kaslr_base(&k, 1, KL_EV_LAYOUT_DUMP, KL_REGION_TEXT,
	    UINT64_C(0xffffffff85400000), 1);
	kl_kaslr_base(&k, 2, KL_EV_LAYOUT_DUMP, KL_REGION_TEXT,
	    UINT64_C(0xffffffff85200000), 1);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x4200000);
	assert_int_equal(v.slide_votes, 1);
	assert_int_equal(v.conflicts, 0);
	/* loongarch's panic notifier: the slide itself. */
	kl_kaslr_init(&k, KL_ARCH_LOONGARCH64, NULL);
	assert_int_equal(line(&k, 7, "Kernel relocated by 0x3510000"), 1);
	/* mips prints it with %pK: a hash is no slide. */
	assert_int_equal(line(&k, 8, "Kernel relocated by 0x0000000012340000"),
	    0);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.slide, 0x3510000);
	assert_int_equal(v.slide_votes, 1);
	assert_int_equal(v.text_base, UINT64_C(0x9000000003710000));
	/* Freed ranges and a memory map: values inside, one line each. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	kl_kaslr_base(&k, 21, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL,
	    0x100000, 0);
	kl_kaslr_base(&k, 22, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL, 0, 0);
	kl_kaslr_base(&k, 220, KL_EV_FREED_RANGE, KL_REGION_TEXT,
	    UINT64_C(0xffffffff820b2000), 0);
	kl_kaslr_base(&k, 524, KL_EV_FREED_RANGE, KL_REGION_DIRECT_MAP,
	    UINT64_C(0xffff88003e6d0000), 0);
	kl_kaslr_base(&k, 688, KL_EV_FREED_RANGE, KL_REGION_TEXT,
	    UINT64_C(0xffffffff81f41000), 0);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 0);
	assert_int_equal(v.text_exact, 0);
	assert_int_equal(v.text_base, UINT64_C(0xffffffff81e00000));
	assert_int_equal(v.base[KL_REGION_DIRECT_MAP],
	    UINT64_C(0xffff880000000000));
	assert_int_equal(v.base[KL_REGION_PHYSICAL], 0);
	assert_int_equal(v.entropy_bits, 4);
	assert_int_equal(v.nev, 3);
	assert_int_equal(v.ev[0].kind, KL_EV_MEMORY_MAP);
	assert_int_equal(v.ev[1].line, 220);
	assert_string_equal(kl_evidence_name(v.ev[1].kind), "freed-range");
	assert_int_equal(v.ev[2].line, 524);
}

#define TIB	(UINT64_C(1) << 40)
#define KIB64	(UINT64_C(64) << 10)

/*
 * arm64's slide ranges at their edges (arch/arm64/kernel/pi/kaslr_early.c
 * kaslr_early_init(), 6.1: BIT(VA_BITS_MIN - 3) + (seed &
 * GENMASK(VA_BITS_MIN - 3, 0)), the low 21 bits the 64 KiB physical
 * misalignment): [32 TiB, 96 TiB) for VA_BITS_MIN 48, the 48-bit and
 * the 52-bit profiles alike; from 6.6 the bottom comes down with the
 * vmalloc area.  A slide below 2 MiB is the misalignment alone.
 */
static void
t_arm64_range(void **state)
{
	static const enum kl_arch_id ids[] = { KL_ARCH_ARM64,
	    KL_ARCH_ARM64_52 };
	const int v61 = 0x060100, v66 = 0x060600;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		assert_true(kl_kaslr_range_ok(ids[i], v61, 32 * TIB));
		assert_true(kl_kaslr_range_ok(ids[i], v61, 64 * TIB));
		assert_true(kl_kaslr_range_ok(ids[i], v61, 96 * TIB - KIB64));
		assert_false(kl_kaslr_range_ok(ids[i], v61, 96 * TIB));
		assert_false(kl_kaslr_range_ok(ids[i], v61, 32 * TIB - KIB64));
		assert_false(kl_kaslr_range_ok(ids[i], v61, 64 * TIB + 4096));
		assert_true(kl_kaslr_range_ok(ids[i], v61, 0));
		assert_true(kl_kaslr_range_ok(ids[i], v61, 2 * 1024 * 1024 -
		    KIB64));
		assert_false(kl_kaslr_range_ok(ids[i], v61, 2 * 1024 * 1024));
		/* 6.6+: the middle half of the vmalloc area. */
		assert_true(kl_kaslr_range_ok(ids[i], v66, 31 * TIB));
		assert_false(kl_kaslr_range_ok(ids[i], v66, 29 * TIB));
		assert_true(kl_kaslr_range_ok(ids[i], v66, 96 * TIB - KIB64));
		/* Release unknown: any release's range. */
		assert_true(kl_kaslr_range_ok(ids[i], 0, 31 * TIB));
		assert_true(kl_kaslr_range_ok(ids[i], 0, 64 * TIB));
		assert_false(kl_kaslr_range_ok(ids[i], 0, 96 * TIB));
		/* Before 4.6 arm64 had no KASLR. */
		assert_false(kl_kaslr_range_ok(ids[i], 0x040500, 64 * TIB));
		assert_true(kl_kaslr_range_ok(ids[i], 0x040500, 0));
	}
	/* 39-bit: [64 GiB, 192 GiB). */
	assert_true(kl_kaslr_range_ok(KL_ARCH_ARM64_39, v61,
	    UINT64_C(64) << 30));
	assert_false(kl_kaslr_range_ok(KL_ARCH_ARM64_39, v61,
	    UINT64_C(192) << 30));
	/* riscv64 since 6.6 only; arm and ppc64 never. */
	assert_false(kl_kaslr_range_ok(KL_ARCH_RISCV64, 0x060100, 0x200000));
	assert_true(kl_kaslr_range_ok(KL_ARCH_RISCV64, 0x060600, 0x200000));
	assert_false(kl_kaslr_range_ok(KL_ARCH_ARM, 0, 0x200000));
	assert_false(kl_kaslr_range_ok(KL_ARCH_PPC64, 0, 0x10000));
	assert_true(kl_kaslr_range_ok(KL_ARCH_S390X, 0, 0x3f4000));
}

/*
 * arm64 slides of 64 TiB and more (the boot printed "Kernel
 * Offset: 0x56ae70200000"): from the Kernel Offset line and from
 * kallsyms lines alone, with the release of the map.  The shared boot
 * arm64-6.1.0-57-arm64-boot1 (TRUTH.md: 0x2a4436c00000) too.
 */
static void
t_arm64_high(void **state)
{
	struct kl_symtab *t;
	struct kl_kaslr k;
	struct kl_boot_verdict v;
	uint64_t s;

	(void)state;
	t = mapof("ffff800008000000 T _text\nffff800008010000 T _stext\n"
	    "ffff8000083a8ba0 t do_sys_openat2\n"
	    "ffff800009cf0000 B _end\n");
	kl_kaslr_init(&k, KL_ARCH_ARM64, t);
	kl_kaslr_set_release(&k, "6.1.0-57-arm64");
	assert_int_equal(k.kver, 0x060100);
	assert_int_equal(line(&k, 9, "Kernel Offset: 0x56ae70200000 from "
	    "0xffff800008000000"), 1);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_slide, 1);
	assert_int_equal(v.slide, UINT64_C(0x56ae70200000));
	assert_int_equal(v.outside, 0);
	assert_int_equal(v.conflicts, 0);
	assert_int_equal(v.text_base, UINT64_C(0xffffd6ae78200000));
	/* The same slide from kallsyms lines, without the panic line. */
	kl_kaslr_init(&k, KL_ARCH_ARM64, t);
	kl_kaslr_set_release(&k, "6.1.0-57-arm64");
	line(&k, 1, "ffffd6ae78210000 T _stext");
	line(&k, 2, "ffffd6ae785a8ba0 t do_sys_openat2");
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_int_equal(s, UINT64_C(0x56ae70200000));
	/* The shared boot's own values. */
	kl_kaslr_init(&k, KL_ARCH_ARM64, t);
	line(&k, 1, "ffffaa443ec10000 T _stext");
	line(&k, 2, "ffffaa443efa8ba0 t do_sys_openat2");
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_int_equal(s, UINT64_C(0x2a4436c00000));
	/* Placement: the image is text, 2 GiB around it modules. */
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa443efa8ba0),
	    KL_REGION_VMALLOC), KL_REGION_TEXT);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa443ec00000),
	    KL_REGION_VMALLOC), KL_REGION_TEXT);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa44408f0000),
	    KL_REGION_VMALLOC), KL_REGION_MODULES);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa43c1000000),
	    KL_REGION_VMALLOC), KL_REGION_MODULES);
	/* _end - 2 GiB is the window's bottom. */
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa43c08f0000),
	    KL_REGION_VMALLOC), KL_REGION_MODULES);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa43c08effff),
	    KL_REGION_VMALLOC), KL_REGION_VMALLOC);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa4500000000),
	    KL_REGION_VMALLOC), KL_REGION_VMALLOC);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffff0a7500000000),
	    KL_REGION_DIRECT_MAP), KL_REGION_DIRECT_MAP);
	/* No map, no placement. */
	kl_kaslr_set_map(&k, NULL);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0xffffaa443efa8ba0),
	    KL_REGION_VMALLOC), KL_REGION_VMALLOC);
	kl_sym_free(t);
}

/*
 * arm64's "PHYS_OFFSET: 0xfffff58b40000000" (the shared boot's panic):
 * memstart_addr, the direct map's base PAGE_OFFSET - PHYS_OFFSET.
 */
static void
t_phys_offset(void **state)
{
	struct kl_kaslr k;
	struct kl_boot_verdict v;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_ARM64, NULL);
	assert_int_equal(line(&k, 524, "PHYS_OFFSET: 0xfffff58b40000000"),
	    4);
	kl_kaslr_verdict(&k, &v);
	assert_int_equal(v.has_phys_offset, 1);
	assert_int_equal(v.phys_offset, UINT64_C(0xfffff58b40000000));
	assert_true(v.disclosed & (1u << KL_REGION_DIRECT_MAP));
	assert_int_equal(v.base[KL_REGION_DIRECT_MAP],
	    UINT64_C(0xffff0a74c0000000));
	assert_int_equal(v.nev, 1);
	assert_string_equal(kl_evidence_name(v.ev[0].kind), "phys-offset");
	/* Not arm64: nothing. */
	kl_kaslr_init(&k, KL_ARCH_X86_64, NULL);
	assert_int_equal(line(&k, 1, "PHYS_OFFSET: 0x40000000"), 0);
}

/*
 * 32-bit arm with highmem: the Memory: line gives lowmem's end, and a
 * stack above it (plus VMALLOC_OFFSET) is a vmapped one in vmalloc.
 * The 3.x wording is from corpus/boot (a 1 GiB board, 237 MiB highmem).
 */
static void
t_arm_lowmem(void **state)
{
	struct kl_kaslr k;

	(void)state;
	kl_kaslr_init(&k, KL_ARCH_ARM, NULL);
	assert_int_equal(kl_kaslr_place(&k, 0xf080dfa8,
	    KL_REGION_DIRECT_MAP), KL_REGION_DIRECT_MAP);
	line(&k, 4, "Memory: 1012480K/1048576K available (10240K kernel code, "
	    "1843K rwdata, 3508K rodata, 2048K init, 435K bss, 36096K "
	    "reserved, 0K cma-reserved, 262144K highmem)");
	assert_int_equal(k.lowmem, UINT64_C(768) << 20);
	assert_int_equal(kl_kaslr_place(&k, 0xf080dfa8,
	    KL_REGION_DIRECT_MAP), KL_REGION_VMALLOC);
	assert_int_equal(kl_kaslr_place(&k, 0xf080dfa8, KL_REGION_KERNEL),
	    KL_REGION_VMALLOC);
	/* Below high_memory + 8 MiB: still lowmem. */
	assert_int_equal(kl_kaslr_place(&k, 0xf07fffff,
	    KL_REGION_DIRECT_MAP), KL_REGION_DIRECT_MAP);
	assert_int_equal(kl_kaslr_place(&k, 0xc280dfa8,
	    KL_REGION_DIRECT_MAP), KL_REGION_DIRECT_MAP);
	/* Fixmap and the rest are left alone. */
	assert_int_equal(kl_kaslr_place(&k, 0xffc80000, KL_REGION_FIXMAP),
	    KL_REGION_FIXMAP);
	assert_int_equal(kl_kaslr_place(&k, 0xff900000, KL_REGION_KERNEL),
	    KL_REGION_KERNEL);
	/* A 2G/2G split (--page-offset 0x80000000). */
	kl_kaslr_set_page_offset(&k, 0x80000000);
	assert_int_equal(kl_kaslr_place(&k, 0xb1000000,
	    KL_REGION_DIRECT_MAP), KL_REGION_VMALLOC);
	/* The 3.x wording; no highmem, no vmalloc from it. */
	kl_kaslr_init(&k, KL_ARCH_ARM, NULL);
	line(&k, 1, "Memory: 1007916k/1007916k available, 40660k reserved, "
	    "242688K highmem");
	assert_int_equal(k.lowmem, UINT64_C(765228) * 1024);
	kl_kaslr_init(&k, KL_ARCH_ARM, NULL);
	line(&k, 1, "Memory: 36616k/36616k available, 4344k reserved, 0K "
	    "highmem");
	assert_int_equal(k.lowmem, 0);
}

/*
 * s390x, context-classified: the shared boot s390x-6.1.0-50-s390x-boot1
 * runs at its link address (KASLR disabled: CPU has no PRNG); its Call
 * Trace frames give slide 0, and a value of region kernel inside
 * [_text, _end) is text.
 */
static void
t_s390x(void **state)
{
	struct kl_symtab *t;
	struct kl_kaslr k;
	uint64_t s;

	(void)state;
	t = mapof("0000000000100000 T _text\n"
	    "00000000006bfca8 t sysrq_handle_showallcpus\n"
	    "00000000006bfd58 t sysrq_handle_show_timers\n"
	    "0000000001c00000 B _end\n");
	kl_kaslr_init(&k, KL_ARCH_S390X, t);
	kl_kaslr_set_release(&k, "6.1.0-50-s390x");
	line(&k, 1, "KASLR disabled: CPU has no PRNG");
	line(&k, 303, " [<00000000006bfcf6>] sysrq_handle_showallcpus"
	    "+0x4e/0xb0 ");
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_int_equal(s, 0);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0x6bfcf6),
	    KL_REGION_KERNEL), KL_REGION_TEXT);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0x3ff80000000),
	    KL_REGION_KERNEL), KL_REGION_KERNEL);
	/* sparc64 has no KASLR: with the map, slide 0 by construction. */
	kl_kaslr_init(&k, KL_ARCH_SPARC64, t);
	assert_int_equal(kl_kaslr_slide(&k, &s), 1);
	assert_int_equal(s, 0);
	assert_int_equal(kl_kaslr_place(&k, UINT64_C(0x6bfcf6),
	    KL_REGION_KERNEL), KL_REGION_TEXT);
	kl_sym_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_kernel_offset),
		cmocka_unit_test(t_off),
		cmocka_unit_test(t_off_i386),
		cmocka_unit_test(t_kallsyms),
		cmocka_unit_test(t_kallsyms32),
		cmocka_unit_test(t_frames),
		cmocka_unit_test(t_impossible),
		cmocka_unit_test(t_conflict),
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_qemu),
		cmocka_unit_test(t_qemu_own),
		cmocka_unit_test(t_register_arm),
		cmocka_unit_test(t_register_riscv),
		cmocka_unit_test(t_register_x86),
		cmocka_unit_test(t_bases),
		cmocka_unit_test(t_arm64_range),
		cmocka_unit_test(t_arm64_high),
		cmocka_unit_test(t_phys_offset),
		cmocka_unit_test(t_s390x),
		cmocka_unit_test(t_arm_lowmem),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
