/*
 * test-detect.c - --arch auto from the log: the guesses a log's evidence
 * leads to (the line-by-line evidence is in test-detect-line.c).
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

/* Lines every architecture prints say nothing; finish keeps AUTO. */
static void
t_no_evidence(void **state)
{
	/* From boot/anyka-cams__dmesg.txt and qemu/...-boot1/dmesg.log. */
	static const char *const lines[] = {
		"NET: Registered protocol family 1",
		"Calibrating delay loop... 199.47 BogoMIPS (lpj=997376)",
		"Memory: 55104K/65536K available (2873K kernel code, 133K "
		    "rwdata, 776K rodata, 116K init, 148K bss, 10432K "
		    "reserved, 0K cma-reserved)",
		"Kernel command line: console=ttyS0,115200n8 root=/dev/sda1",
		"Freeing unused kernel memory: 116K",
		"random: crng init done",
		"",
		"[",
		"[    0.000000]",
		"<6>",
		"Call Trace:",
		" [<ffffffff8235d088>] reserve_bootmem_region+0xa8/0x184",
	};
	struct kl_detect st;
	size_t i;

	(void)state;
	kl_detect_init(&st);
	expect(&st, KL_ARCH_AUTO, 0);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		line(&st, lines[i]);
	/* Values mean nothing while the family is unknown. */
	kl_detect_value(&st, U64(0xffffffc01108a1f0), 16);
	kl_detect_value(&st, U64(0xffff888000000000), 16);
	expect(&st, KL_ARCH_AUTO, 0);
	assert_int_equal(st.family, KL_FAM_NONE);
	assert_int_equal(st.lines, sizeof(lines) / sizeof(lines[0]));
	kl_detect_line(&st, NULL, 0);
	assert_int_equal(st.lines, sizeof(lines) / sizeof(lines[0]) + 1);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_AUTO, 1);
}

/* x86_64: the register dump, and the stack pointer for the VA size. */
static void
t_x86_64(void **state)
{
	struct kl_detect st;

	(void)state;
	/* syzkaller/guilty/56 (6.0). */
	kl_detect_init(&st);
	line(&st, "CPU: 3 PID: 12841 Comm: kworker/u16:2 Not tainted "
	    "6.0.0-rc6-syzkaller-00210-gbf682942cd26 #0");
	assert_int_equal(st.kver, 0x060000);
	expect(&st, KL_ARCH_AUTO, 0);
	line(&st, "RIP: 0010:kernel_accept+0x22d/0x350 net/socket.c:3487");
	expect(&st, KL_ARCH_X86_64, 0);
	assert_int_equal(st.bits, 64);
	line(&st, "RSP: 0018:ffffc9000494fc28 EFLAGS: 00010202");
	expect(&st, KL_ARCH_X86_64, 1);
	assert_int_equal(st.va_bits, 48);

	/* syzkaller/guilty/3 (4.12): the pre-4.17 direct map. */
	kl_detect_init(&st);
	line(&st, "RSP: 0018:ffff880065387378 EFLAGS: 00010202");
	expect(&st, KL_ARCH_X86_64, 1);

	/* boot/Ubuntu-20.04-FIPS-logs__dmesg.txt: a randomised stack. */
	kl_detect_init(&st);
	line(&st, "Linux version 5.4.0-1051-fips (buildd@lcy02-amd64-025) "
	    "(gcc version 9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04.1)) #57-Ubuntu "
	    "SMP Wed May 18 18:17:16 UTC 2022 (Ubuntu 5.4.0-1051.57-fips "
	    "5.4.181)");
	/* The arch word is only in user@host: a weak hint. */
	assert_int_equal(st.family, KL_FAM_NONE);
	assert_int_equal(st.kver, 0x050400);
	expect(&st, KL_ARCH_X86_64, 0);
	line(&st, "RSP: 002b:00007ffc94663748 EFLAGS: 00000246 ORIG_RAX: "
	    "000000000000013e");
	expect(&st, KL_ARCH_X86_64, 0);
	assert_int_equal(st.va_bits, 0);
	line(&st, "RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246");
	expect(&st, KL_ARCH_X86_64, 1);
	/* Certain: further lines are counted and otherwise ignored. */
	line(&st, "pstate: 80402009 (Nzcv daif +PAN -UAO -TCO -DIT -SSBS "
	    "BTYPE=--)");
	expect(&st, KL_ARCH_X86_64, 1);
	assert_int_equal(st.lines, 4);
}

/* x86_64 boot logs: family from boot lines, width from the banner. */
static void
t_x86_boot(void **state)
{
	struct kl_detect st;

	(void)state;
	/* qemu/x86_64-6.1.0-57-amd64-boot1/console.log */
	kl_detect_init(&st);
	line(&st, "Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)"
	    " (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils "
	    "for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 "
	    "(2026-11-26)");
	assert_int_equal(st.kver, 0x060100);
	assert_int_equal(st.family, KL_FAM_X86);
	assert_int_equal(st.bits, 64);
	expect(&st, KL_ARCH_X86_64, 0);
	/* Two direct-map values settle 4-level paging. */
	kl_detect_value(&st, U64(0xffff9d27fb3c1a00), 16);
	expect(&st, KL_ARCH_X86_64, 0);
	kl_detect_value(&st, U64(0xffffffff9a4c61e5), 16);	/* text: no vote */
	expect(&st, KL_ARCH_X86_64, 0);
	kl_detect_value(&st, U64(0xffff9d27ffc0d638), 16);
	expect(&st, KL_ARCH_X86_64, 1);

	/* boot/supermicro__dmesg.txt: Rocky 9, arch word in the release. */
	kl_detect_init(&st);
	line(&st, "Linux version 5.14.0-570.23.1.el9_6.x86_64 (mockbuild@"
	    "iad1-prod-build001.bld.equ.rockylinux.org) (gcc (GCC) 11.5.0 "
	    "20240719 (Red Hat 11.5.0-5), GNU ld version 2.35.2-63.el9) #1 SMP "
	    "PREEMPT_DYNAMIC Thu Jun 26 19:29:53 UTC 2025");
	assert_int_equal(st.kver, 0x050e00);
	assert_int_equal(st.family, KL_FAM_X86);
	expect(&st, KL_ARCH_X86_64, 0);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_X86_64, 1);

	/* qemu/x86_64-6.1.0-57-amd64-boot1/dmesg.log: family, no width. */
	kl_detect_init(&st);
	line(&st, "x86/fpu: x87 FPU will use FXSAVE");
	assert_int_equal(st.family, KL_FAM_X86);
	assert_int_equal(st.bits, 0);
	expect(&st, KL_ARCH_X86_64, 0);
	/* boot/supermicro__dmesg.txt */
	line(&st, "systemd[1]: Detected architecture x86-64.");
	assert_int_equal(st.bits, 64);
	expect(&st, KL_ARCH_X86_64, 0);
}

/* x86_64 5-level paging: no such log in the corpus, values decide. */
static void
t_x86_64_l5(void **state)
{
	struct kl_detect st;

	(void)state;
	kl_detect_init(&st);
	line(&st, "RIP: 0010:urandom_read+0x268/0x480");
	kl_detect_value(&st, U64(0xff11000012345678), 16);
	expect(&st, KL_ARCH_X86_64_L5, 0);
	kl_detect_value(&st, U64(0xffa0000000c67e38), 8);	/* not 16 */
	expect(&st, KL_ARCH_X86_64_L5, 0);
	kl_detect_value(&st, U64(0xffa0000000c67e38), 16);
	expect(&st, KL_ARCH_X86_64_L5, 1);
	assert_int_equal(st.va_bits, 57);

	/* A 5-level stack pointer in the dump (format of __show_regs). */
	kl_detect_init(&st);
	line(&st, "RSP: 0018:ffa0000000c67e38 EFLAGS: 00010246");
	expect(&st, KL_ARCH_X86_64_L5, 1);
}

/* i386: loghub__Linux_Linux_2k.log (2.6.5), then a 32-bit register. */
static void
t_i386(void **state)
{
	struct kl_detect st;

	(void)state;
	kl_detect_init(&st);
	line(&st, "Linux version 2.6.5-1.358 (bhcompile@bugs.build.redhat.com) "
	    "(gcc version 3.3.3 20040412 (Red Hat Linux 3.3.3-7)) #1 Sat May 8 "
	    "09:04:50 EDT 2004");
	assert_int_equal(st.kver, 0x020605);
	expect(&st, KL_ARCH_AUTO, 0);
	line(&st, "BIOS-provided physical RAM map:");
	expect(&st, KL_ARCH_X86_64, 0);
	line(&st, " BIOS-e820: 0000000000000000 - 00000000000a0000 (usable)");
	line(&st, "  HighMem zone: 0 pages, LIFO batch:1");
	expect(&st, KL_ARCH_I386, 0);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_I386, 1);

	/*
	 * Hand-written, format of arch/x86/kernel/process_32.c.  The
	 * profile is certain once a built-in frame tells the VMSPLIT.
	 */
	kl_detect_init(&st);
	line(&st, "EIP: 0060:[<c04e4f8b>] EFLAGS: 00010246 CPU: 0");
	expect(&st, KL_ARCH_I386, 0);
	line(&st, " [<c04e5000>] ? do_one_initcall+0x30/0x160");
	expect(&st, KL_ARCH_I386, 1);
	assert_true(st.page_offset == U64(0xc0000000));
	/* A 2G/2G kernel: its image in the first 512 MiB of 0x80000000. */
	kl_detect_init(&st);
	line(&st, "EIP: 0060:[<81234567>] EFLAGS: 00010246 CPU: 0");
	line(&st, " [<8109abcd>] bar+0x10/0x20");
	expect(&st, KL_ARCH_I386, 1);
	assert_true(st.page_offset == U64(0x80000000));
	/* A later 64-bit looking value cannot undo a register width. */
	kl_detect_init(&st);
	line(&st, "EAX: 00000000 EBX: f4e5df1c ECX: 00000001 EDX: 00000000");
	kl_detect_value(&st, U64(0xffff888000000000), 16);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_I386, 1);
}

/* arm64 5.10 with 39-bit VAs: boot/OrangePi5-OpenCL__dmesg.txt. */
static void
t_arm64_39(void **state)
{
	static const uint64_t vals[] = { U64(0xffffffc01108a1f0),
	    U64(0xffffffc011092088), U64(0xffffffc0110946c0) };
	struct kl_detect st;
	size_t i;

	(void)state;
	kl_detect_init(&st);
	line(&st, "Booting Linux on physical CPU 0x0000000000 [0x412fd050]");
	assert_int_equal(st.family, KL_FAM_ARM64);
	expect(&st, KL_ARCH_ARM64, 0);
	line(&st, "Linux version 5.10.110+ (nirvana@orangepi5) (gcc (Ubuntu "
	    "11.3.0-1ubuntu1~22.04) 11.3.0, GNU ld (GNU Binutils for Ubuntu) "
	    "2.38) #1 SMP Wed May 10 12:28:20 CEST 2023");
	assert_int_equal(st.kver, 0x050a6e);
	expect(&st, KL_ARCH_ARM64, 0);
	line(&st, "Machine model: Orange Pi 5");
	expect(&st, KL_ARCH_ARM64, 0);
	/* "rockchip-drm display-subsystem: bound ... (ops 0xffffffc0...)" */
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		kl_detect_value(&st, vals[i], 16);
		expect(&st, KL_ARCH_ARM64_39, 0);
	}
	kl_detect_value(&st, U64(0xffffffc01400bc40), 16);
	expect(&st, KL_ARCH_ARM64_39, 1);
	assert_int_equal(st.va_bits, 39);

	/* The same log's oops: the paging line, or the stack pointer. */
	kl_detect_init(&st);
	line(&st, "Linux version 5.10.110+ (nirvana@orangepi5) (gcc (Ubuntu "
	    "11.3.0-1ubuntu1~22.04) 11.3.0, GNU ld (GNU Binutils for Ubuntu) "
	    "2.38) #1 SMP Wed May 10 12:28:20 CEST 2023");
	expect(&st, KL_ARCH_AUTO, 0);
	line(&st, "user pgtable: 4k pages, 39-bit VAs, pgdp=0000000103d2e000");
	expect(&st, KL_ARCH_ARM64_39, 1);
	kl_detect_init(&st);
	line(&st, "CPU: 0 PID: 1 Comm: init Not tainted 5.10.110+ #1");
	line(&st, "sp : ffffffc01400bc40");
	expect(&st, KL_ARCH_ARM64_39, 1);
	kl_detect_init(&st);
	line(&st, "CPU: 0 PID: 1 Comm: init Not tainted 5.10.110+ #1");
	line(&st, "x29: ffffffc01400bc40 x28: ffffffc01400bd58 ");
	expect(&st, KL_ARCH_ARM64_39, 1);
}

/* arm64 48- and 52-bit, from syzkaller reports. */
static void
t_arm64_48_52(void **state)
{
	struct kl_detect st;

	(void)state;
	/* syzkaller/report/734 (6.12, KASAN tags, 52-bit). */
	kl_detect_init(&st);
	line(&st, "swapper pgtable: 4k pages, 52-bit VAs, pgdp=0000000044a53000");
	expect(&st, KL_ARCH_ARM64_52, 0);
	line(&st, "Internal error: Oops: 0000000096000005 [#1] PREEMPT SMP");
	expect(&st, KL_ARCH_ARM64_52, 0);
	line(&st, "CPU: 0 UID: 0 PID: 6560 Comm: syz.2.929 Not tainted "
	    "6.12.0-rc7-syzkaller-g5db899a34f75 #0");
	assert_int_equal(st.kver, 0x060c00);
	expect(&st, KL_ARCH_ARM64_52, 1);

	/* The same dump without the paging line: sp says 48 bits. */
	kl_detect_init(&st);
	line(&st, "CPU: 0 UID: 0 PID: 6560 Comm: syz.2.929 Not tainted "
	    "6.12.0-rc7-syzkaller-g5db899a34f75 #0");
	line(&st, "Hardware name: linux,dummy-virt (DT)");
	expect(&st, KL_ARCH_ARM64, 0);
	assert_int_equal(st.family, KL_FAM_NONE);
	line(&st, "pstate: 80402009 (Nzcv daif +PAN -UAO -TCO -DIT -SSBS "
	    "BTYPE=--)");
	assert_int_equal(st.family, KL_FAM_ARM64);
	expect(&st, KL_ARCH_ARM64, 0);
	line(&st, "pc : __hwasan_check_x0_67043363+0x4/0x30");
	line(&st, "lr : vgic_get_irq+0x7c/0x3d4");
	expect(&st, KL_ARCH_ARM64, 0);
	line(&st, "sp : ffff80008c597650");
	expect(&st, KL_ARCH_ARM64, 1);
	assert_int_equal(st.va_bits, 48);

	/* Linear-map values of 48 bits (x5 of kasld's arm64 example). */
	kl_detect_init(&st);
	line(&st, "CPU features: detected: GIC system register CPU interface");
	line(&st, "Linux version 6.4.0-nextOS-g8689f4f2ea56 (jrs@x13) "
	    "(aarch64-linux-gnu-gcc (GCC) 13.1.0, GNU ld (GNU Binutils) 2.40) "
	    "#1 SMP Sat Jul  8 11:15:11 ACST 2023");
	expect(&st, KL_ARCH_ARM64, 0);
	kl_detect_value(&st, U64(0x16f0000014accd90), 16);	/* tagged */
	kl_detect_value(&st, U64(0xffff0000c3a1f200), 16);
	expect(&st, KL_ARCH_ARM64, 0);
	kl_detect_value(&st, U64(0xffff0000c1e4a880), 16);
	expect(&st, KL_ARCH_ARM64, 1);

	/* Two fff0... linear-map values mean 52 bits. */
	kl_detect_init(&st);
	line(&st, "Linux version 6.4.0-nextOS-g8689f4f2ea56 (jrs@x13) "
	    "(aarch64-linux-gnu-gcc (GCC) 13.1.0, GNU ld (GNU Binutils) 2.40) "
	    "#1 SMP Sat Jul  8 11:15:11 ACST 2023");
	kl_detect_value(&st, U64(0xfff0000014accd90), 16);
	kl_detect_value(&st, U64(0xfff0000014acb9a0), 16);
	expect(&st, KL_ARCH_ARM64_52, 1);
}

/* arm64 before v5.4 gets the pre-5.4 profile whatever its VA size. */
static void
t_arm64_pre54(void **state)
{
	struct kl_detect st;

	(void)state;
	/* syzkaller/report/604 (4.9, 39-bit VAs). */
	kl_detect_init(&st);
	line(&st, "Internal error: Oops - SP/PC alignment exception: 8a000000 "
	    "[#1] PREEMPT SMP");
	expect(&st, KL_ARCH_ARM64, 0);
	line(&st, "CPU: 6 PID: 1942 Comm: syz-executor Not tainted "
	    "4.9.232-dirty_audio #1");
	assert_int_equal(st.kver, 0x0409e8);
	expect(&st, KL_ARCH_ARM64_PRE54, 0);
	line(&st, "PC is at 0xffffffffdeadbeef");
	line(&st, "pc : [<ffffffffdeadbeef>] lr : [<ffffff90080ed944>] pstate: "
	    "60400145");
	expect(&st, KL_ARCH_ARM64_PRE54, 1);

	/* Hand-written in the shape of Debian buster's arm64 banner. */
	kl_detect_init(&st);
	line(&st, "Linux version 4.19.0-6-arm64 (debian-kernel@lists.debian.org)"
	    " (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP Debian 4.19.67-2+"
	    "deb10u2 (2019-11-11)");
	expect(&st, KL_ARCH_ARM64_PRE54, 1);

	/* syzkaller/report/353 (4.9): only weak hints, still pre-5.4. */
	kl_detect_init(&st);
	line(&st, "CPU: 0 PID: 4 Comm: kworker/0:0 Not tainted "
	    "4.9.22-622951-geb1249894645c-dirty #15");
	line(&st, "Hardware name: linux,dummy-virt (DT)");
	line(&st, "Call trace:");
	expect(&st, KL_ARCH_ARM64_PRE54, 0);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_ARM64_PRE54, 1);
}

/* arm (32-bit) register dumps, die lines and boot lines. */
static void
t_arm(void **state)
{
	struct kl_detect st;

	(void)state;
	/*
	 * syzkaller/report/238.  The family is certain at once, the arm
	 * profile only once a built-in frame (or a symbolised pc) placed
	 * the image, which tells the VMSPLIT.
	 */
	kl_detect_init(&st);
	line(&st, "Internal error: Oops: 8000000d [#1] SMP ARM");
	expect(&st, KL_ARCH_ARM, 0);
	assert_int_equal(st.family, KL_FAM_ARM);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_ARM, 1);
	assert_true(st.page_offset == 0);	/* the default split */
	kl_detect_init(&st);
	line(&st, "PC is at 0x80b0f484");
	expect(&st, KL_ARCH_ARM, 0);
	line(&st, "pc : [<80b0f484>]    lr : [<801a7168>]    psr: 200f0013");
	expect(&st, KL_ARCH_ARM, 0);
	/* syzkaller/report/551: a symbolised pc is in the image. */
	kl_detect_init(&st);
	line(&st, "PC is at jffs2_parse_param+0xa8/0x18c");
	line(&st, "LR is at jffs2_parse_param+0x98/0x18c");
	line(&st, "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: 40000013");
	expect(&st, KL_ARCH_ARM, 1);
	assert_true(st.page_offset == U64(0x80000000));
	/* ...but not a module's. */
	kl_detect_init(&st);
	line(&st, "PC is at foo+0x8/0x20 [mymod]");
	line(&st, "pc : [<7f012008>]    lr : [<c01a7168>]    psr: 40000013");
	expect(&st, KL_ARCH_ARM, 0);
	assert_true(st.page_offset == 0);
	kl_detect_init(&st);
	line(&st, "sp : 9a917f68  ip : 9a8e8040  fp : 00000005");
	expect(&st, KL_ARCH_ARM, 0);
	/* syzkaller/report/589 */
	kl_detect_init(&st);
	line(&st, "Hardware name: ARM-Versatile Express");
	line(&st, "Backtrace: ");
	expect(&st, KL_ARCH_ARM, 0);
	line(&st, "[<82715620>] (dump_backtrace) from [<82715894>] "
	    "(show_stack+0x18/0x1c)");
	expect(&st, KL_ARCH_ARM, 1);
	assert_true(st.page_offset == U64(0x80000000));
	/* A default 3G kernel's frame confirms the default. */
	kl_detect_init(&st);
	line(&st, "[<c0108f1c>] (unwind_backtrace) from [<c010b8a8>] "
	    "(show_stack+0x10/0x14)");
	expect(&st, KL_ARCH_ARM, 1);
	assert_true(st.page_offset == U64(0xc0000000));
	/* boot/tf201log__dmesg.txt, with its raw prefix left on. */
	kl_detect_init(&st);
	line(&st, "<4>[    0.000000] CPU: ARMv7 Processor [412fc099] revision 9 "
	    "(ARMv7), cr=10c5387f");
	expect(&st, KL_ARCH_ARM, 0);
	assert_int_equal(st.family, KL_FAM_ARM);
	/* boot/anyka-cams__dmesg.txt style short id: weak, arm first. */
	kl_detect_init(&st);
	line(&st, "Booting Linux on physical CPU 0x0");
	expect(&st, KL_ARCH_ARM, 0);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_ARM, 1);
}

/* powerpc: 64-bit book3s, book3e and 32-bit. */
static void
t_ppc(void **state)
{
	struct kl_detect st;

	(void)state;
	/* syzkaller/report/431 */
	kl_detect_init(&st);
	line(&st, "LE PAGE_SIZE=64K MMU=Hash SMP NR_CPUS=2048 NUMA pSeries");
	expect(&st, KL_ARCH_PPC64, 1);
	kl_detect_init(&st);
	line(&st, "NIP:  c00000000022d79c LR: c00000000022d784 CTR: "
	    "0000000000000000");
	expect(&st, KL_ARCH_PPC64, 1);
	kl_detect_init(&st);
	line(&st, "[c00000007a3efa20] [c00000000030a060] "
	    "partition_and_rebuild_sched_domains kernel/cgroup/cpuset.c:965 "
	    "[inline]");
	expect(&st, KL_ARCH_PPC64, 1);
	kl_detect_init(&st);
	line(&st, "Faulting instruction address: 0xc00000000022d79c");
	expect(&st, KL_ARCH_PPC64, 1);
	/* mail/linuxppc-dev/f3e724d756949b3ac73c28003c9052d2e9e960b0.eml:49 */
	kl_detect_init(&st);
	line(&st, "> kernel: NIP:  c0000000002f9c70 LR: c0000000001a9b44 CTR: "
	    "c000000000049ef0");
	expect(&st, KL_ARCH_PPC64, 1);
	/* mail/linuxppc-dev/370fb5c6...: PowerMac, quoted-printable. */
	kl_detect_init(&st);
	line(&st, "BE PAGE_SIZE=3D4K MMU=3DHash SMP NR_CPUS=3D2 PowerMac");
	expect(&st, KL_ARCH_PPC64, 0);
	/* mail/linuxppc-dev/370fb5c6...: "NIP:  f1692560 LR: f16924e8" */
	line(&st, "NIP:  f1692560 LR: f16924e8 CTR: c023bcf4");
	expect(&st, KL_ARCH_PPC32, 1);
	/* mail/linuxppc-dev/7dc4695c...: quoted, with its timestamp. */
	kl_detect_init(&st);
	line(&st, "> [  457.405336] LE PAGE_SIZE=64K MMU=Hash  SMP "
	    "NR_CPUS=8192 NUMA pSeries");
	expect(&st, KL_ARCH_PPC64, 1);
	/* mail/linuxppc-dev/00767a40...: e500v2, 32-bit. */
	kl_detect_init(&st);
	line(&st, "Hardware name: MPC8544DS e500v2 0x80210030 MPC8544 DS");
	line(&st, "NIP:  c0172ca8 LR: c01731b0 CTR: 00000000");
	expect(&st, KL_ARCH_PPC32, 1);
	/* mail/linux-s390/680658f9...: e5500 under QEMU, 64-bit book3e. */
	kl_detect_init(&st);
	line(&st, "Hardware name: QEMU ppce500 e5500 0x80240020 QEMU e500");
	line(&st, "NIP:  c000000001357408 LR: c000000001357c90 CTR: "
	    "0000000000000003");
	expect(&st, KL_ARCH_PPC64_BOOK3E, 1);
	/* mail/linuxppc-dev/e51d08a7...: PowerNV is 64-bit. */
	kl_detect_init(&st);
	line(&st, "BE PAGE_SIZE=3D4K MMU=3DRadix SMP NR_CPUS=3D192 "
	    "DEBUG_PAGEALLOC NUMA PowerNV");
	expect(&st, KL_ARCH_PPC64, 1);
	/* Hand-written, arch/powerpc/kernel/traps.c __die format. */
	kl_detect_init(&st);
	line(&st, "BE PAGE_SIZE=64K MMU=Radix SMP NR_CPUS=2048 NUMA ");
	expect(&st, KL_ARCH_PPC64, 1);
	kl_detect_init(&st);
	line(&st, "LE PAGE_SIZE=64K MMU=Hash SMP NR_CPUS=2048 NUMA ");
	expect(&st, KL_ARCH_PPC64, 1);
	/* The same format on book3e: no MMU= field. */
	kl_detect_init(&st);
	line(&st, "BE PAGE_SIZE=4K SMP NR_CPUS=24 CoreNet Generic");
	expect(&st, KL_ARCH_PPC64, 0);
	line(&st, "NIP:  c000000001357408 LR: c000000001357c90 CTR: "
	    "0000000000000003");
	expect(&st, KL_ARCH_PPC64_BOOK3E, 1);
	/* mail/linuxppc-dev/a0de4be4...: systemd on ppc64le. */
	kl_detect_init(&st);
	line(&st, "systemd[1]: Detected architecture ppc64-le.");
	expect(&st, KL_ARCH_PPC64, 1);
}

/* riscv64: register dumps of 5.10 (sv39) and 6.x (sv48) kernels. */
static void
t_riscv(void **state)
{
	struct kl_detect st;

	(void)state;
	/* syzkaller/report/545 (5.10, legacy image at ffffffe0...). */
	kl_detect_init(&st);
	line(&st, "epc: ffffffe000207654 ra : ffffffe000207654 sp : "
	    "ffffffe00b777cd0");
	expect(&st, KL_ARCH_RISCV64, 1);
	assert_int_equal(st.va_bits, 39);
	/* syzkaller/report/999, prefixes left on. */
	kl_detect_init(&st);
	line(&st, "[ 9877.706821][    C0] epc : io_ring_exit_work+0x44c/0xbc0");
	expect(&st, KL_ARCH_RISCV64, 0);
	line(&st, "[ 9877.708376][    C0] epc : ffffffff80014264 ra : "
	    "ffffffff80014264 sp : ffff8f8000fd7860");
	expect(&st, KL_ARCH_RISCV64_SV48, 1);
	/* syzkaller/report/607 */
	kl_detect_init(&st);
	line(&st, "status: 0000000000000120 badaddr: 000000000cc6b0d0 cause: "
	    "000000000000000f");
	expect(&st, KL_ARCH_RISCV64, 0);
	/* boot/orangepi-rv2-notes__dmesg.txt */
	kl_detect_init(&st);
	line(&st, "Linux version 6.6.63-ky (root@test) (riscv64-unknown-linux-"
	    "gnu-gcc (g09b62c20e09) 13.2.1 20240423, GNU ld (GNU Binutils) "
	    "2.42) #1.0.0 SMP PREEMPT Wed Mar 12 09:04:00 CST 2025");
	expect(&st, KL_ARCH_RISCV64, 0);
	line(&st, "SBI specification v1.0 detected");
	expect(&st, KL_ARCH_RISCV64, 0);
	/* sv39 linear-map values (PAGE_OFFSET ffffffd800000000 in 6.6). */
	kl_detect_value(&st, U64(0xffffffd800123456), 16);
	kl_detect_value(&st, U64(0xffffffff80002000), 16);	/* no vote */
	kl_detect_value(&st, U64(0xffffffd80a000000), 16);
	kl_detect_value(&st, U64(0xffffffd80b000000), 16);
	expect(&st, KL_ARCH_RISCV64, 0);
	kl_detect_value(&st, U64(0xffffffd80c000000), 16);
	expect(&st, KL_ARCH_RISCV64, 1);
	kl_detect_init(&st);
	line(&st, "riscv: base ISA extensions acdfimv");
	kl_detect_value(&st, U64(0xff60000012345678), 16);
	kl_detect_value(&st, U64(0xff20000000001000), 16);
	expect(&st, KL_ARCH_RISCV64_SV57, 1);
}

/* riscv64 before v5.13 gets the pre-5.13 profile, from 5.13 on not. */
static void
t_riscv64_pre513(void **state)
{
	struct kl_detect st;

	(void)state;
	/* syzkaller/report/607 (5.11, qemu virt). */
	kl_detect_init(&st);
	line(&st, "CPU: 0 PID: 5233 Comm: syz-executor.1 Not tainted "
	    "5.11.0-11272-gf01e631cccab-dirty #35");
	assert_int_equal(st.kver, 0x050b00);
	line(&st, "Hardware name: riscv-virtio,qemu (DT)");
	line(&st, "epc : ffffffe00008c762 ra : ffffffe00008c760 sp : "
	    "ffffffe00853fec0");
	expect(&st, KL_ARCH_RISCV64_PRE513, 1);
	/*
	 * 5.12 is the last release with the image in the linear map; the
	 * banner's release and riscv64 triple leave nothing to learn.
	 */
	kl_detect_init(&st);
	line(&st, "Linux version 5.12.19 (root@host) (riscv64-linux-gnu-gcc "
	    "(GCC) 10.2.0) #1 SMP");
	expect(&st, KL_ARCH_RISCV64_PRE513, 1);
	/* 5.13 moved the image to KERNEL_LINK_ADDR: the sv39 profile. */
	kl_detect_init(&st);
	line(&st, "Linux version 5.13.0 (root@host) (riscv64-linux-gnu-gcc "
	    "(GCC) 10.2.0) #1 SMP");
	line(&st, "epc : ffffffff80014264 ra : ffffffff80014262 sp : "
	    "ffffffd00b777cd0");
	expect(&st, KL_ARCH_RISCV64, 1);
	/* No version: the values decide, as before. */
	kl_detect_init(&st);
	line(&st, "epc : ffffffe00008c762 ra : ffffffe00008c760 sp : "
	    "ffffffe00853fec0");
	expect(&st, KL_ARCH_RISCV64, 1);
}

/* mips: 64-bit Loongson-3 and 32-bit boards from linux-mips mail. */
static void
t_mips(void **state)
{
	struct kl_detect st;

	(void)state;
	/* mail/linux-mips/3f9d6675... */
	kl_detect_init(&st);
	line(&st, "$ 0   : 0000000000000000 0000000000000000 0000000000000001 "
	    "0000000000000000");
	expect(&st, KL_ARCH_MIPS64, 1);
	kl_detect_init(&st);
	line(&st, "PrId  : 00006305 (ICT Loongson-3)");
	expect(&st, KL_ARCH_MIPS64, 0);
	line(&st, "epc   : ffffffff81afada8 init_idle+0x130/0x270");
	expect(&st, KL_ARCH_MIPS64, 1);
	/* mail/linux-mips/25cc3d44...: 32-bit, the mips32 profile. */
	kl_detect_init(&st);
	line(&st, "epc   : 8041ecd8 0x8041ecd8");
	expect(&st, KL_ARCH_MIPS32, 1);
	assert_int_equal(st.family, KL_FAM_MIPS);
	assert_int_equal(st.bits, 32);
	/* mail/linux-s390/29df47d7...: the machine type names s390. */
	kl_detect_init(&st);
	line(&st, "Hardware name: IBM 8561 T01 703 (LPAR)");
	expect(&st, KL_ARCH_S390X, 1);
	kl_detect_init(&st);
	line(&st, "Hardware name: IBM IBM System x3650 M4");
	expect(&st, KL_ARCH_AUTO, 0);
	/* mail/linux-mips/59953097...: a call trace frame alone. */
	kl_detect_init(&st);
	line(&st, "    [<8010adec>] show_stack+0x74/0x104");
	expect(&st, KL_ARCH_MIPS32, 1);
	/* Not: an i386 frame above PAGE_OFFSET, an address without sym. */
	kl_detect_init(&st);
	line(&st, " [<c0123456>] do_page_fault+0x12/0x34");
	expect(&st, KL_ARCH_AUTO, 0);
	kl_detect_init(&st);
	line(&st, "[<80180184>] 0x80180184");
	expect(&st, KL_ARCH_AUTO, 0);
	/* The linux-mips banner of Maciej's board: family, width unknown. */
	kl_detect_init(&st);
	line(&st, "Linux version 5.9.0-00858-g865c50e1d279-dirty (macro@angie) "
	    "(mipsel-linux-gnu-gcc (GCC) 11.0.0 20200919 (experimental), GNU "
	    "ld (GNU Binutils) 2.35.50.20201006) #2 Wed Oct 14 04:01:29 CEST "
	    "2020");
	expect(&st, KL_ARCH_MIPS64, 0);
	kl_detect_value(&st, U64(0x9800000005dfbe80), 16);
	expect(&st, KL_ARCH_MIPS64, 1);
}

/* s390x, loongarch64 and sparc64. */
static void
t_others(void **state)
{
	struct kl_detect st;

	(void)state;
	/* mail/linux-s390/79528004... */
	kl_detect_init(&st);
	line(&st, "Krnl PSW : 0704d00180000000 00000000fa6239fc "
	    "(add_dma_entry+0x20c/0x2c8)");
	expect(&st, KL_ARCH_S390X, 1);
	/* loongarch: no log in the corpus; lines of traps.c formats. */
	kl_detect_init(&st);
	line(&st, "pc 90000000012a3c48 ra 90000000012a3c20 tp 9000000108e8c000 "
	    "sp 9000000108e8fd90");
	expect(&st, KL_ARCH_LOONGARCH64, 1);
	kl_detect_init(&st);
	line(&st, "  ERA: 90000000012a3c48 dump_stack_lvl+0x28/0x3c");
	expect(&st, KL_ARCH_LOONGARCH64, 1);
	kl_detect_init(&st);
	line(&st, "CPU0 revision is: 0014c010 (Loongson-64bit)");
	expect(&st, KL_ARCH_LOONGARCH64, 1);
	kl_detect_init(&st);
	line(&st, "CPU0 revision is: 00006305 (ICT Loongson-3)");
	expect(&st, KL_ARCH_MIPS64, 0);
	kl_detect_init(&st);
	line(&st, "pc 90000000012a3c4 ra 90000000012a3c20");	/* 15 digits */
	expect(&st, KL_ARCH_AUTO, 0);
	/* sparc64: arch/sparc/kernel/process_64.c show_regs format. */
	kl_detect_init(&st);
	line(&st, "TSTATE: 0000004411001606 TPC: 00000000004a5e24 TNPC: "
	    "00000000004a5e28 Y: 00000000    Not tainted");
	expect(&st, KL_ARCH_SPARC64, 1);
}

/* The first strong family wins; weak hints never override it. */
static void
t_first_wins(void **state)
{
	struct kl_detect st;

	(void)state;
	kl_detect_init(&st);
	line(&st, "Machine model: Orange Pi 5");
	expect(&st, KL_ARCH_ARM64, 0);
	line(&st, "RIP: 0010:urandom_read+0x268/0x480");
	expect(&st, KL_ARCH_X86_64, 0);
	line(&st, "pstate: 80402009 (Nzcv daif +PAN -UAO -TCO -DIT -SSBS "
	    "BTYPE=--)");
	line(&st, "Machine model: Orange Pi 5");
	line(&st, "Machine model: Orange Pi 5");
	assert_int_equal(st.family, KL_FAM_X86);
	/* Weak hints after the family must not vote for a VA size. */
	line(&st, "DMI: QEMU Standard PC (i440FX + PIIX, 1996)");
	line(&st, "DMI: QEMU Standard PC (i440FX + PIIX, 1996)");
	expect(&st, KL_ARCH_X86_64, 0);
	assert_int_equal(st.va_bits, 0);
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_X86_64, 1);
	/* Finished: nothing changes any more. */
	line(&st, "RSP: 0018:ffa0000000c67e38 EFLAGS: 00010246");
	kl_detect_value(&st, U64(0xff11000012345678), 16);
	expect(&st, KL_ARCH_X86_64, 1);
}

/*
 * A captured system's files, or a paste of them: cpuinfo fields, config
 * lines, uname, kallsyms lines (the lines of the kasld fixtures in
 * ../shared/corpus/captured, and of a riscv32 board, written here).
 */
static void
t_sysinfo(void **state)
{
	struct kl_detect st;

	(void)state;
	kl_detect_init(&st);
	line(&st, "CPU architecture: 7");
	assert_int_equal(st.family, KL_FAM_ARM);
	kl_detect_init(&st);
	line(&st, "CPU architecture: 8");
	expect(&st, KL_ARCH_ARM64, 0);
	line(&st, "CONFIG_ARM64_VA_BITS=39");
	line(&st, "Linux version 6.1.0 (x@y) (aarch64-linux-gnu-gcc) #1");
	expect(&st, KL_ARCH_ARM64_39, 1);
	kl_detect_init(&st);
	line(&st, "isa\t\t: rv32imafdc");
	expect(&st, KL_ARCH_RISCV32, 1);
	kl_detect_init(&st);
	line(&st, "isa\t\t: rv64imafdch_zicbom_zicboz");
	line(&st, "mmu\t\t: sv57");
	expect(&st, KL_ARCH_RISCV64_SV57, 1);
	kl_detect_init(&st);
	line(&st, "vendor_id       : IBM/S390");
	expect(&st, KL_ARCH_S390X, 1);
	kl_detect_init(&st);
	line(&st, "CPU Family\t\t: Loongson-64bit");
	expect(&st, KL_ARCH_LOONGARCH64, 1);
	kl_detect_init(&st);
	line(&st, "cpu\t\t: POWER9 (architected), altivec supported");
	expect(&st, KL_ARCH_PPC64, 1);
	/* x86: the vendor gives the family, the width comes elsewhere. */
	kl_detect_init(&st);
	line(&st, "vendor_id\t: GenuineIntel");
	line(&st, "address sizes\t: 36 bits physical, 32 bits virtual");
	expect(&st, KL_ARCH_I386, 0);
	kl_detect_init(&st);
	line(&st, "vendor_id\t: GenuineIntel");
	line(&st, "c1000000 T _text");
	line(&st, "c1000000 T startup_32");
	kl_detect_finish(&st);
	expect(&st, KL_ARCH_I386, 1);
	/* arch-only symbol names */
	kl_detect_init(&st);
	line(&st, "ffffffff81000000 T startup_64");
	assert_int_equal(st.family, KL_FAM_X86);
	assert_int_equal(st.bits, 64);
	kl_detect_init(&st);
	line(&st, "c0008000 T __turn_mmu_on");
	assert_int_equal(st.family, KL_FAM_ARM);
	/* config and uname */
	kl_detect_init(&st);
	line(&st, "CONFIG_ARM=y");
	line(&st, "CONFIG_PAGE_OFFSET=0x80000000");
	expect(&st, KL_ARCH_ARM, 1);
	assert_true(st.page_offset == U64(0x80000000));
	kl_detect_init(&st);
	line(&st, "Linux build 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian "
	    "6.1.76-1 (2024-02-01) x86_64 GNU/Linux");
	assert_int_equal(st.family, KL_FAM_X86);
	assert_int_equal(st.bits, 64);
	kl_detect_init(&st);
	line(&st, "mips");
	expect(&st, KL_ARCH_MIPS32, 1);
	/* A plain word of a log line is not a machine name. */
	kl_detect_init(&st);
	line(&st, "mips: no cache");
	assert_int_equal(st.family, KL_FAM_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_no_evidence),
		cmocka_unit_test(t_x86_64),
		cmocka_unit_test(t_x86_boot),
		cmocka_unit_test(t_x86_64_l5),
		cmocka_unit_test(t_i386),
		cmocka_unit_test(t_arm64_39),
		cmocka_unit_test(t_arm64_48_52),
		cmocka_unit_test(t_arm64_pre54),
		cmocka_unit_test(t_arm),
		cmocka_unit_test(t_ppc),
		cmocka_unit_test(t_riscv),
		cmocka_unit_test(t_riscv64_pre513),
		cmocka_unit_test(t_mips),
		cmocka_unit_test(t_others),
		cmocka_unit_test(t_first_wins),
		cmocka_unit_test(t_sysinfo),
	};

	return (cmocka_run_group_tests_name("detect", tests, NULL, NULL));
}
