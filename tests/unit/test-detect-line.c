/*
 * test-detect-line.c - what single log lines say to --arch auto
 * (detect-line.c): the evidence list line by line, leftover prefixes,
 * and the lines that start a report.
 *
 * Lines are real log lines from ../shared/corpus (file named in each
 * comment), passed as the message span the scanner gives (after the
 * timestamp or syslog prefix) unless the test is about a leftover prefix.
 * The few hand-written lines follow a kernel format string named next to
 * them, for architectures the corpus has no log of.
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
#include "lines-harness.h"

#define U64(x)	UINT64_C(x)

/* Feed one line. */
static void
line(struct kl_detect *st, const char *s)
{
	kl_detect_line(st, (const uint8_t *)s, strlen(s));
}

/* Expect a guess and a certainty. */
static void
expect(const struct kl_detect *st, enum kl_arch_id arch, int certain)
{
	if (st->arch != arch || st->certain != certain)
		fail_msg("got %s certain=%d, want %s certain=%d",
		    kl_arch_name(st->arch), st->certain, kl_arch_name(arch),
		    certain);
}

/* Does the line s start a report? */
static int
report(const char *s)
{
	return (kl_detect_report((const uint8_t *)s, strlen(s)));
}

/*
 * Issue 14 rules: mips64 from its own lines and frames, the arm64 "PC is
 * at [<16 digits>]" of 4.x vendor kernels, s390's Last Breaking-Event-
 * Address, the arm VMSPLIT from frames, and the report headers.
 */
static void
t_report_rules(void **state)
{
	struct kl_detect st;

	(void)state;
	/* mail/linux-mips/f8c6a247...: CKSEG0 frames, then the Code: line. */
	kl_detect_init(&st);
	line(&st, ">   [<ffffffff8235d088>] reserve_bootmem_region+0xa8/0x184");
	expect(&st, KL_ARCH_AUTO, 0);
	line(&st, ">   Code: 10400028  2402fff0  de420000 <dc432880> 0203182b "
	    "14600022");
	expect(&st, KL_ARCH_MIPS64, 0);
	/* x86 bytes and arm words in () are not mips. */
	kl_detect_init(&st);
	line(&st, "Code: 48 89 e5 <0f> 0b 5d c3");
	line(&st, "Code: e5933000 e3530000 (e5932000)");
	expect(&st, KL_ARCH_AUTO, 0);
	/* An XKPHYS (CCA 5) frame is mips64, never sparc64. */
	kl_detect_init(&st);
	line(&st, "[<a800000000169874>] show_stack+0x74/0x104");
	expect(&st, KL_ARCH_MIPS64, 1);
	/* mips register lines past $ 0, and ra. */
	kl_detect_init(&st);
	line(&st, "$24   : 0000000000000000 ffffffff94001ce0");
	expect(&st, KL_ARCH_MIPS64, 1);
	kl_detect_init(&st);
	line(&st, "ra    : 8010adec show_stack+0x74/0x104");
	expect(&st, KL_ARCH_MIPS32, 1);
	kl_detect_init(&st);
	line(&st, "ra    : 90000000012a3c20 dump_stack_lvl+0x28/0x3c");
	expect(&st, KL_ARCH_LOONGARCH64, 1);
	/* mail/linux-arm-kernel/4ff7d3ea...: arm64, not arm. */
	kl_detect_init(&st);
	line(&st, "PC is at [<ffffff8008cccbc0>] xhci_irq+0x728/0x2364");
	assert_int_equal(st.family, KL_FAM_ARM64);
	kl_detect_init(&st);
	line(&st, "PC is at xhci_irq+0x728/0x2364");
	expect(&st, KL_ARCH_ARM, 0);
	/* mail/linux-s390/0714a7f5... */
	kl_detect_init(&st);
	line(&st, "  Last Breaking-Event-Address:");
	expect(&st, KL_ARCH_S390X, 1);
	/* arm 2G/2G (syzkaller, ARM-Versatile Express 6.3). */
	kl_detect_init(&st);
	line(&st, "[<817b2528>] (dump_backtrace) from [<817b261c>] "
	    "(show_stack+0x18/0x1c arch/arm/kernel/traps.c:256)");
	expect(&st, KL_ARCH_ARM, 1);
	assert_true(st.page_offset == U64(0x80000000));
	kl_detect_init(&st);
	line(&st, "[<bf0a1b2c>] (foo [mymod]) from [<c0100000>] (bar+0x1/0x2)");
	assert_true(st.page_offset == 0);
	kl_detect_init(&st);
	line(&st, "[<c0108f1c>] (unwind_backtrace) from [<c010b8a8>] "
	    "(show_stack+0x10/0x14)");
	assert_true(st.page_offset == U64(0xc0000000));
	/* Report headers, past quotes and timestamps. */
	assert_true(report("> [  1.0] BUG: KASAN: "
	    "use-after-free in foo"));
	assert_true(report("CPU: 1 PID: 1 Comm: swapper/0 "
	    "Not tainted 6.1.0 #1"));
	assert_true(report("Hardware name: IBM 8561 T01 703 "
	    "(LPAR)"));
	assert_true(report("Unable to handle kernel paging "
	    "request at virtual address 0000000000000000"));
	assert_true(report("Oops[#1]:"));
	assert_true(report("Linux version 6.1.0-57-amd64"));
	assert_false(report("CPU: 0 PID: 1 at foo"));
	assert_false(report("Call Trace:"));
	assert_false(report("BUGS: none"));
	/* Each byte a header or a skipped prefix can start with. */
	assert_true(report("  \tOops: 0000 [#1] SMP"));
	assert_true(report("`BUG: soft lockup`"));
	assert_true(report("<4>BUG: unable to handle page fault"));
	assert_true(report("00: [    1.0] Oops: 0000 [#1]"));
	assert_true(report("kernel: BUG: scheduling while atomic"));
	assert_true(report("[  T1] Internal error: Oops: 96000004"));
	assert_true(report("KASAN: slab-out-of-bounds in foo"));
	assert_false(report("Serial: 8250/16550 driver"));
	assert_false(report("  ? foo+0x1/0x2"));
	assert_false(report("x BUG: y"));
	assert_false(report("   "));
}

/* Prefixes left on the message are skipped; look-alikes are not taken. */
static void
t_prefixes(void **state)
{
	struct kl_detect st;

	(void)state;
	kl_detect_init(&st);
	line(&st, ">> [  424.579101][ T5233] Krnl PSW : 0704d00180000000 "
	    "000003ff80440dc2 (handle_pqap+0x2");
	expect(&st, KL_ARCH_S390X, 1);
	kl_detect_init(&st);
	line(&st, "<6>[    1.702674] Booting Linux on physical CPU 0x0000000000 "
	    "[0x412fd050]");
	assert_int_equal(st.family, KL_FAM_ARM64);
	/* boot/supermicro__dmesg.txt: "amd_pstate:" is not "pstate:". */
	kl_detect_init(&st);
	line(&st, "amd_pstate: driver load is disabled, boot with specific mode "
	    "to enable this");
	line(&st, "intel_pstate: HWP enabled");
	line(&st, "CPU: Physical Processor ID: 0");
	line(&st, "[00000ea3] *pgd=00000000");
	line(&st, "Tainted: G             L      syzkaller #0");
	expect(&st, KL_ARCH_AUTO, 0);
	assert_int_equal(st.kver, 0);
	/* An x86 user-mode RSP and a non-kernel sp give no VA size. */
	line(&st, "sp : 0000ffffe2a1b2c0");
	expect(&st, KL_ARCH_ARM64, 0);
	assert_int_equal(st.va_bits, 0);
}

/* One line each: the evidence list, line by line. */
static void
t_evidence(void **state)
{
	static const struct {
		const char	*line;
		enum kl_arch_id	 arch;
		int		 certain;
		int		 family;
		int		 bits;
	} c[] = {
		/* syzkaller/report/162: the pre-v4.9 RIP summary line. */
		{ "RIP  [<ffffffff8123487f>] __lock_acquire+0x61f/0x4b50",
		  KL_ARCH_X86_64, 0, KL_FAM_X86, 64 },
		/* syzkaller/guilty/56 */
		{ "RAX: dffffc0000000000 RBX: 0000000000000000 RCX: "
		  "0000000000000000", KL_ARCH_X86_64, 0, KL_FAM_X86, 64 },
		/* syzkaller/report/10: x86 page fault before v4.15. */
		{ "IP: [<ffffffff810a376f>] __call_rcu.constprop.76+0x1f/0x280 "
		  "kernel/rcu/tree.c:3046", KL_ARCH_X86_64, 0, KL_FAM_X86, 64 },
		/* syzkaller/report/100 */
		{ "general protection fault: 0000 [#1] SMP KASAN",
		  KL_ARCH_X86_64, 0, KL_FAM_X86, 0 },
		/* boot/Ubuntu-20.04-FIPS-logs__dmesg.txt */
		{ "e820: BIOS-provided physical RAM map:", KL_ARCH_X86_64, 0,
		  KL_FAM_X86, 0 },
		/* qemu/x86_64-6.1.0-57-amd64-boot1/dmesg.log: width only. */
		{ "  DMA32    [mem 0x0000000001000000-0x000000003ffdffff]",
		  KL_ARCH_AUTO, 0, KL_FAM_NONE, 64 },
		/*
		 * systemd on a 32-bit x86 (src/basic/architecture.c); the
		 * VMSPLIT waits for a frame.
		 */
		{ "systemd[1]: Detected architecture x86.", KL_ARCH_I386, 0,
		  KL_FAM_X86, 32 },
		/* boot/OrangePi5-OpenCL__dmesg.txt */
		{ "systemd[1]: Detected architecture arm64.", KL_ARCH_ARM64, 0,
		  KL_FAM_ARM64, 64 },
		/* boot/orangepi-rv2-notes__dmesg.txt */
		{ "systemd[1]: Detected architecture riscv64.",
		  KL_ARCH_RISCV64, 0, KL_FAM_RISCV, 64 },
		{ "riscv-pmu-sbi: SBI PMU extension is available",
		  KL_ARCH_RISCV64, 0, KL_FAM_RISCV, 0 },
		{ "SBI implementation ID=0x1 Version=0x10003",
		  KL_ARCH_RISCV64, 0, KL_FAM_RISCV, 0 },
		/* boot/rg353v_linux__dmesg.txt */
		{ "CPU features: detected: GIC system register CPU interface",
		  KL_ARCH_ARM64, 0, KL_FAM_ARM64, 0 },
		/* mail/linuxppc-dev/431-style registers (syzkaller/report/431) */
		{ "MSR:  800000010280b033 <SF,VEC,VSX,EE,FP,ME,IR,DR,RI,LE,TM[E]>"
		  "  CR: 22824428  XER: 20000000", KL_ARCH_PPC64, 1,
		  KL_FAM_PPC, 64 },
		{ "REGS: c00000007a3ef6e0 TRAP: 0380   Not tainted  "
		  "(5.4.0-rc2-00104-g9e208aa06c21)", KL_ARCH_PPC64, 1,
		  KL_FAM_PPC, 64 },
		{ "GPR00: c00000000022d784 c00000007a3ef970 c000000001f24600 "
		  "0000000000004000 ", KL_ARCH_PPC64, 1, KL_FAM_PPC, 64 },
		/* mail/linuxppc-dev/00767a40...: 32-bit */
		{ "MSR:  00021000 <CE,ME>  CR: 24004288  XER: 20000000",
		  KL_ARCH_PPC32, 1, KL_FAM_PPC, 32 },
		/* Quoted-printable radix die line (hand-written). */
		{ "BE PAGE_SIZE=3D64K MMU=3DRadix SMP NR_CPUS=3D2048 NUMA ",
		  KL_ARCH_PPC64, 1, KL_FAM_PPC, 64 },
		/* arch/powerpc/mm/nohash/tlb.c */
		{ "MMU: Book3E HW tablewalk enabled", KL_ARCH_PPC64_BOOK3E, 0,
		  KL_FAM_PPC, 0 },
		/* mail/linux-s390/c4560e12...: z/VM console prefix, quoted. */
		{ "> 00: [  424.579282] Krnl GPRS: 0000000000000000 "
		  "0000030000000000 0000030000000000", KL_ARCH_S390X, 1,
		  KL_FAM_S390, 0 },
		/* loongarch formats (arch/loongarch/kernel/traps.c). */
		{ "ESTAT: 000c0000 [BRK] (IS= ECode=12 EsubCode=0)",
		  KL_ARCH_LOONGARCH64, 1, KL_FAM_LOONGARCH, 0 },
		{ " PRID: 0014c011 (Loongson-64bit, Loongson-3A5000)",
		  KL_ARCH_LOONGARCH64, 1, KL_FAM_LOONGARCH, 0 },
		{ "era   : 90000000002f5a2c kernel_init+0x1c/0x13c",
		  KL_ARCH_LOONGARCH64, 1, KL_FAM_LOONGARCH, 0 },
		/* sparc64 OpenBoot banner (arch/sparc/prom/misc_64.c). */
		{ "PROMLIB: Sun IEEE Boot Prom 'OBP 4.30.4.d 2011/07/06 14:29'",
		  KL_ARCH_SPARC64, 1, KL_FAM_SPARC, 0 },
		/* Look-alikes that must stay unknown. */
		{ "IP: routing cache hash table of 8192 buckets, 64Kbytes",
		  KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		{ "epc  : 80244654", KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		{ "status: 0000000000000120", KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		{ "user pgtable: 4k pages, 40-bit VAs, pgdp=0000000103d2e000",
		  KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		{ "systemd[1]: Detected architecture alpha.", KL_ARCH_AUTO, 0,
		  KL_FAM_NONE, 0 },
		{ "Linux version", KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		{ "00: 12 34 56 78", KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		/*
		 * frame_func(): a symbolised frame's function names the
		 * family (and the width where only one has it), found in
		 * arch_funcs[] by its first byte.  Names of several first-
		 * byte runs; names sharing two bytes (do_syscall_64,
		 * do_mem_abort, do_DataAbort); a prefix entry and its
		 * longer neighbour (el0t_64_sync, el0t_64_sync_handler);
		 * the '_' ends of the syscall wrappers; the generic
		 * __se_sys_ (no family); names not in the table.
		 */
		{ " do_syscall_64+0x35/0x80", KL_ARCH_X86_64, 0, KL_FAM_X86,
		  64 },
		{ " do_mem_abort+0x48/0xa0", KL_ARCH_ARM64, 0, KL_FAM_ARM64,
		  64 },
		{ " do_DataAbort+0x40/0xa4", KL_ARCH_ARM, 0, KL_FAM_ARM, 32 },
		{ " el0t_64_sync_handler+0x1c/0x40", KL_ARCH_ARM64, 0,
		  KL_FAM_ARM64, 64 },
		{ " entry_SYSCALL_64_after_hwframe+0x63/0xcd", KL_ARCH_X86_64,
		  0, KL_FAM_X86, 64 },
		{ " __x64_sys_ioctl+0x8b/0xc0", KL_ARCH_X86_64, 0, KL_FAM_X86,
		  64 },
		{ " __arm64_sys_read+0x20/0x30", KL_ARCH_ARM64, 0,
		  KL_FAM_ARM64, 64 },
		{ " ext_int_handler+0x11e/0x128", KL_ARCH_S390X, 1,
		  KL_FAM_S390, 64 },
		{ " handle_sysn32+0x3c/0x90", KL_ARCH_MIPS64, 1, KL_FAM_MIPS,
		  64 },
		{ " interrupt_return_srr+0x0/0x1a0", KL_ARCH_PPC64, 1,
		  KL_FAM_PPC, 64 },
		{ " ret_fast_syscall+0x0/0x54", KL_ARCH_ARM, 0, KL_FAM_ARM,
		  32 },
		{ " vector_swi+0x6c/0xc0", KL_ARCH_ARM, 0, KL_FAM_ARM, 32 },
		{ " __se_sys_ioctl+0x8b/0xc0", KL_ARCH_AUTO, 0, KL_FAM_NONE,
		  0 },
		{ " __x64_sysfs_foo+0x8b/0xc0", KL_ARCH_AUTO, 0, KL_FAM_NONE,
		  0 },
		{ " schedule+0x4e/0xc0", KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		{ " do_something+0x4e/0xc0", KL_ARCH_AUTO, 0, KL_FAM_NONE, 0 },
		{ " zap_pte_range+0x4e/0xc0", KL_ARCH_AUTO, 0, KL_FAM_NONE,
		  0 },
	};
	struct kl_detect st;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		kl_detect_init(&st);
		line(&st, c[i].line);
		if (st.arch != c[i].arch || st.certain != c[i].certain ||
		    st.family != c[i].family || st.bits != c[i].bits)
			fail_msg("line %zu \"%s\": got %s/%d fam %d bits %d", i,
			    c[i].line, kl_arch_name(st.arch), st.certain,
			    st.family, st.bits);
	}
}

/* Do two guesses differ in anything but the lines counted? */
static int
differ(const struct kl_detect *a, const struct kl_detect *b)
{
	return (a->arch != b->arch || a->certain != b->certain ||
	    a->family != b->family || a->bits != b->bits ||
	    a->va_bits != b->va_bits || a->kver != b->kver ||
	    memcmp(a->score, b->score, sizeof(a->score)) != 0 ||
	    a->flags != b->flags || a->page_offset != b->page_offset ||
	    a->lines != b->lines);
}

/* Two guesses fed each line, as the scanner gives it and whole. */
struct both {
	struct kl_detect	 a[2];	/* kl_detect_line() */
	struct kl_detect	 b[2];	/* kl_detect_line_all() */
};

/* A new file: both start again. */
static void
both_start(void *arg, const char *path)
{
	struct both *w = arg;
	int k;

	(void)path;
	for (k = 0; k < 2; k++) {
		kl_detect_init(&w->a[k]);
		kl_detect_init(&w->b[k]);
	}
}

/*
 * Feed a line to kl_detect_line() and to kl_detect_line_all() (no first-
 * byte filter), as the scanner gives it (the message span) and whole; the
 * guesses must stay equal.  Both start again once certain, so that the
 * whole file is read.
 */
static void
both_line(void *arg, const char *path, size_t no, const uint8_t *line,
    size_t len)
{
	struct both *w = arg;
	struct kl_frame fr;
	int k;

	kl_frame_line(line, len, KL_LINE_PLAIN, KL_FORMAT_AUTO, &fr);
	kl_detect_line(&w->a[0], line + fr.msg, len - fr.msg);
	kl_detect_line_all(&w->b[0], line + fr.msg, len - fr.msg);
	kl_detect_line(&w->a[1], line, len);
	kl_detect_line_all(&w->b[1], line, len);
	for (k = 0; k < 2; k++) {
		if (differ(&w->a[k], &w->b[k]))
			fail_msg("%s:%zu: the filter changed what \"%.*s\" "
			    "says (%s, %s certain=%d fam %d, read in full: "
			    "%s certain=%d fam %d)", path, no, (int)len,
			    (const char *)line, k ? "whole line" : "message",
			    kl_arch_name(w->a[k].arch), w->a[k].certain,
			    w->a[k].family, kl_arch_name(w->b[k].arch),
			    w->b[k].certain, w->b[k].family);
		if (w->a[k].certain) {
			kl_detect_init(&w->a[k]);
			kl_detect_init(&w->b[k]);
		}
	}
}

/*
 * detect_may() skips a message only when detect_line() would learn
 * nothing from it: the project's own logs and lines, then the corpus's
 * logs, reports, mail and captured systems when ../shared is there.
 */
static void
t_may_exact(void **state)
{
	struct both w;

	(void)state;
	assert_true(lh_dir(TESTDATA, 1, both_start, both_line, &w) > 1000);
	(void)lh_dir(LH_CORPUS, 6, both_start, both_line, &w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_report_rules),
		cmocka_unit_test(t_prefixes),
		cmocka_unit_test(t_evidence),
		cmocka_unit_test(t_may_exact),
	};

	return (cmocka_run_group_tests_name("detect-line", tests, NULL,
	    NULL));
}
