/*
 * test-leaks.c - the leak-sources data file and its matcher: every
 * entry against the real line it was written from (exact id, values and
 * spans), look-alikes that must not match (hashed %p, (____ptrval____),
 * modern forms), the hit count of every entry
 * over tests/data and ../shared/corpus (skipped when missing), with the
 * keyed matcher checked against the run-every-pattern reference.  The
 * parser's errors are in test-leaks-parse.c.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kleak.h"
#include "kleak-int.h"

#define DB	SRCDATA "/leak-sources"
#define CORPUS	TESTDATA "/../../../shared/corpus"
#define MAXHITS	16

static struct kl_leakdb *db;
static struct kl_leakmatch *lm;

/* One entry's real line: the ids it matches and their values. */
struct lcase {
	const char	*ids;		/* space-separated, file order */
	const char	*msg;		/* message part of the line */
	const char	*values;	/* "name=0xhex ..." of all hits */
};

static const struct lcase cases[] = {
	/* syzkaller/guilty/4:44 */
	{ "kernel-offset-x86",
	    "Kernel Offset: 0x6000000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)",
	    "offset=0x6000000 base=0xffffffff81000000 lo=0xffffffff80000000 hi=0xffffffffbfffffff" },
	/* kernel-facts 4.1 (arch/arm64/kernel/setup.c, riscv and ppc patch mails): */
	{ "kernel-offset",
	    "Kernel Offset: 0x1f2e0000 from 0xffff800008000000",
	    "offset=0x1f2e0000 base=0xffff800008000000" },
	/* kernel-facts 4.1 (arm64_panic_block_dump): PHYS_OFFSET: 0x40000000 */
	{ "arm64-phys-offset",
	    "PHYS_OFFSET: 0x40000000",
	    "phys=0x40000000" },
	/* kernel-facts 4.1 (loongarch relocate.c, LKML panic logs): Kernel relocated by 0x3510000 */
	{ "kernel-relocated",
	    "Kernel relocated by 0x3510000",
	    "offset=0x3510000" },
	/* kernel-facts 4.1 (loongarch relocate.c):  .text @ 0x9000000003710000 */
	{ "relocated-text",
	    " .text @ 0x9000000003710000",
	    "text=0x9000000003710000" },
	/* kernel-facts 4.1 (loongarch relocate.c):  .data @ 0x9000000004e30000, .bss  @ 0x... */
	{ "relocated-data",
	    " .data @ 0x9000000004e30000",
	    "addr=0x9000000004e30000" },
	/* boot/OrangePi5-OpenCL__dmesg.txt:133 */
	{ "kaslr-failed",
	    "KASLR disabled due to lack of seed",
	    "" },
	/* kasld-dmesg 4.15 (arch/x86/boot/compressed/kaslr.c, arm64 kaslr.c, loongarch): */
	{ "kaslr-disabled",
	    "KASLR disabled: 'nokaslr' on cmdline.",
	    "" },
	/* syzkaller/report/661:264 */
	{ "kernel-offset-disabled",
	    "Kernel Offset: disabled",
	    "" },
	/* kasld-dmesg 4.15 (drivers/firmware/efi/libstub): EFI_RNG_PROTOCOL unavailable */
	{ "efi-rng-unavailable",
	    "EFI_RNG_PROTOCOL unavailable",
	    "" },
	/* boot/tf201log__dmesg.txt:38 */
	{ "layout-banner",
	    "Virtual kernel memory layout:",
	    "" },
	/* boot/tf201log__dmesg.txt:47 */
	{ "layout-text",
	    "      .text : 0xc003a000 - 0xc060d000   (5964 kB)",
	    "lo=0xc003a000 hi=0xc060d000" },
	/* boot/tf201log__dmesg.txt:45 */
	{ "layout-modules",
	    "    modules : 0xbf000000 - 0xbfe00000   (  14 MB)",
	    "lo=0xbf000000 hi=0xbfe00000" },
	/* boot/tf201log__dmesg.txt:43 */
	{ "layout-lowmem",
	    "    lowmem  : 0xc0000000 - 0xf0000000   ( 768 MB)",
	    "lo=0xc0000000 hi=0xf0000000" },
	/* boot/tf201log__dmesg.txt:42 */
	{ "layout-vmalloc",
	    "    vmalloc : 0xf0800000 - 0xf8000000   ( 120 MB)",
	    "lo=0xf0800000 hi=0xf8000000" },
	/* kasld-dmesg 4.17 (arm64 <= v4.15, riscv CONFIG_DEBUG_VM): */
	{ "layout-vmemmap",
	    "       vmemmap : 0xff1c000000000000 - 0xff20000000000000   (1024 TB)",
	    "lo=0xff1c000000000000 hi=0xff20000000000000" },
	/* boot/tf201log__dmesg.txt:40 */
	{ "layout-fixed",
	    "    fixmap  : 0xfff00000 - 0xfffe0000   ( 896 kB)",
	    "lo=0xfff00000 hi=0xfffe0000" },
	/* kernel-facts 4.2 (arch/powerpc/mm/mem.c before 2020):   * 0xfffdf000..0xfffff000  : fixmap */
	{ "layout-ppc32",
	    "  * 0xfffdf000..0xfffff000  : fixmap",
	    "lo=0xfffdf000 hi=0xfffff000" },
	/* kasld-dmesg 4.17 (s390 boot debug): vmalloc area:        0x0000037fe0000000-0x000003bfe0000000 */
	{ "s390-vmalloc-area",
	    "vmalloc area:        0x0000037fe0000000-0x000003bfe0000000",
	    "lo=0x37fe0000000 hi=0x3bfe0000000" },
	/* boot/surface-book__dmesg.txt:220 */
	{ "free-kernel-range",
	    "Freeing SMP alternatives memory: 28K (ffffffff820b2000 - ffffffff820b9000)",
	    "size=0x7000 lo=0xffffffff820b2000 hi=0xffffffff820b9000" },
	/* boot/surface-book__dmesg.txt:524 */
	{ "free-initrd-range",
	    "Freeing initrd memory: 25772K (ffff88003e6d0000 - ffff88003fffb000)",
	    "size=0x192b000 lo=0xffff88003e6d0000 hi=0xffff88003fffb000" },
	/* syzkaller/guilty/66:3 */
	{ "x86-fault-address",
	    "BUG: unable to handle page fault for address: ffff8880bfffd000",
	    "addr=0xffff8880bfffd000" },
	/* syzkaller/guilty/66:6 */
	{ "x86-page-table",
	    "PGD 1a201067 P4D 1a201067 PUD 23ffff067 PMD 23fffe067 PTE 0",
	    "pgd=0x1a201067 next=0x1a201067" },
	/* syzkaller/guilty/15:9 */
	{ "x86-rip-raw",
	    "RIP: 0010:[<ffffffff8181134a>]  [<ffffffff8181134a>] next_group+0x5a/0x2e0 fs/pnode.c:172",
	    "text=0xffffffff8181134a" },
	/* syzkaller/report/743:101 */
	{ "x86-code-unable",
	    "Code: Unable to access opcode bytes at 0x7f7ace38e8ff.",
	    "addr=0x7f7ace38e8ff" },
	/* syzkaller/guilty/56:10 */
	{ "x86-rsp",
	    "RSP: 0018:ffffc9000494fc28 EFLAGS: 00010202",
	    "sp=0xffffc9000494fc28" },
	/* syzkaller/guilty/3:17 */
	{ "x86-gprs",
	    "RAX: 000000002000000d RBX: 1ffff1000ca70e71 RCX: 1ffffffff0a1912c",
	    "r1=0x2000000d r2=0x1ffff1000ca70e71 r3=0x1ffffffff0a1912c" },
	/* syzkaller/guilty/56:16 */
	{ "x86-gs-base",
	    "FS:  0000000000000000(0000) GS:ffff88802cb00000(0000) knlGS:0000000000000000",
	    "fs=0x0 gs=0xffff88802cb00000 knlgs=0x0" },
	/* syzkaller/guilty/56:18 */
	{ "x86-cr3",
	    "CR2: 00007fa6e1a8c920 CR3: 000000004bba0000 CR4: 0000000000150ee0",
	    "cr2=0x7fa6e1a8c920 cr3=0x4bba0000" },
	/* kernel-facts 4.4 (x86_32 __show_regs): EAX: 00000000 EBX: f5d0e000 ECX: c1c4a6c0 EDX: 00000001 */
	{ "i386-gprs",
	    "EAX: 00000000 EBX: f5d0e000 ECX: c1c4a6c0 EDX: 00000001",
	    "r1=0x0 r2=0xf5d0e000 r3=0xc1c4a6c0 r4=0x1" },
	/* syzkaller/report/536:5 */
	{ "fault-virtual-address",
	    "Unable to handle kernel paging request at virtual address dfffa00000000003",
	    "addr=0xdfffa00000000003" },
	/* syzkaller/report/734:20 */
	{ "arm64-pgdp",
	    "swapper pgtable: 4k pages, 52-bit VAs, pgdp=0000000044a53000",
	    "phys=0x44a53000" },
	/* syzkaller/report/734:21 */
	{ "arm64-pte",
	    "[efff800000000137] pgd=1000000049992003, p4d=1000000049993003, pud=0000000000000000",
	    "addr=0xefff800000000137 pgd=0x1000000049992003" },
	/* syzkaller/guilty/59:20 */
	{ "arm64-sp",
	    "sp : ffff80001394b9c0",
	    "sp=0xffff80001394b9c0" },
	/* syzkaller/guilty/59:21 */
	{ "arm64-gprs",
	    "x29: ffff80001394ba10 x28: 0000000000000008 x27: ffff0001fefefc80",
	    "r1=0xffff80001394ba10 r2=0x8 r3=0xffff0001fefefc80" },
	/* syzkaller/report/551:18 */
	{ "pc-lr-raw",
	    "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: 40000013",
	    "pc=0x8054b7c0 lr=0x8054b7b0" },
	/* syzkaller/report/549:20 */
	{ "exception-stack",
	    "Exception stack(0x814fbfb0 to 0x814fbff8)",
	    "lo=0x814fbfb0 hi=0x814fbff8" },
	/* syzkaller/report/551:25 */
	{ "stack-limit",
	    "Process syz-executor.0 (pid: 24993, stack limit = 0x9c3a9348)",
	    "addr=0x9c3a9348" },
	/* syzkaller/report/443:13 */
	{ "bracket-trace",
	    " [<ffffffff82a350bb>] schedule+0x9b/0x1c0",
	    "text=0xffffffff82a350bb" },
	/* syzkaller/report/431:14 */
	{ "ppc-nip-lr",
	    "NIP:  c00000000022d79c LR: c00000000022d784 CTR: 0000000000000000",
	    "text=0xc00000000022d79c lr=0xc00000000022d784" },
	/* syzkaller/report/431:26 */
	{ "ppc-nip-sym",
	    "NIP [c00000000022d79c] partition_sched_domains_locked+0x1ac/0x5f0 kernel/sched/topology.c:2216",
	    "text=0xc00000000022d79c" },
	/* syzkaller/report/431:27 */
	{ "ppc-lr-sym",
	    "LR [c00000000022d784] cpumask_first include/linux/cpumask.h:214 [inline]",
	    "text=0xc00000000022d784" },
	/* syzkaller/report/431:30 */
	{ "ppc-trace",
	    "[c00000007a3efa20] [c00000000030a060] partition_and_rebuild_sched_domains kernel/cgroup/cpuset.c:965 [inline]",
	    "sp=0xc00000007a3efa20 text=0xc00000000030a060" },
	/* syzkaller/report/431:15 */
	{ "ppc-regs",
	    "REGS: c00000007a3ef6e0 TRAP: 0380   Not tainted  (5.4.0-rc2-00104-g9e208aa06c21)",
	    "sp=0xc00000007a3ef6e0" },
	/* syzkaller/report/431:18 */
	{ "ppc-gprs",
	    "GPR00: c00000000022d784 c00000007a3ef970 c000000001f24600 0000000000004000 ",
	    "r1=0xc00000000022d784 r2=0xc00000007a3ef970 r3=0xc000000001f24600 r4=0x4000" },
	/* syzkaller/report/431:8 */
	{ "ppc-fault-ip",
	    "Faulting instruction address: 0xc00000000022d79c",
	    "text=0xc00000000022d79c" },
	/* syzkaller/report/607:11 */
	{ "riscv-epc-ra",
	    "epc : ffffffe00008c762 ra : ffffffe00008c760 sp : ffffffe00853fec0",
	    "text=0xffffffe00008c762 ra=0xffffffe00008c760 sp=0xffffffe00853fec0" },
	/* syzkaller/report/607:12 */
	{ "riscv-gprs",
	    " gp : ffffffe006c38208 tp : ffffffe009bb16c0 t0 : 0000000000000000",
	    "r1=0xffffffe006c38208 r2=0xffffffe009bb16c0 r3=0x0" },
	/* mail/linux-mips/d3b5449adc2a0d7e3857bf99d5eda639cf7585d5.eml:25 */
	{ "mips-epc-ra",
	    "epc   : 801be4f0 cmpxchg_futex_value_locked+0x2c/0x78",
	    "text=0x801be4f0" },
	/* kasld-dmesg 4.1 (loongarch show_regs, LKML panic logs): */
	{ "loongarch-pc-ra",
	    "pc 90000000012a3c48 ra 90000000012a3c20 tp 9000000108e8c000 sp 9000000108e8fd90",
	    "text=0x90000000012a3c48 ra=0x90000000012a3c20 tp=0x9000000108e8c000 sp=0x9000000108e8fd90" },
	/* kernel-facts 4.4 (arch/sparc/mm/fault_64.c): tsk->{mm,active_mm}->pgd = fffff80012345000 */
	{ "sparc-pgd",
	    "tsk->{mm,active_mm}->pgd = fffff80012345000",
	    "addr=0xfffff80012345000" },
	/* syzkaller/guilty/49:6 */
	{ "lockdep-irq-stamp",
	    "hardirqs last  enabled at (35791814): [<ffffffff89000d42>] asm_sysvec_irq_work+0x12/0x20 arch/x86/include/asm/idtentry.h:657",
	    "text=0xffffffff89000d42" },
	/* syzkaller/guilty/8:6 */
	{ "kasan-access",
	    "Read of size 8 at addr ffff8800397d2fe0 by task syz-executor0/4289",
	    "size=0x8 addr=0xffff8800397d2fe0" },
	/* syzkaller/guilty/40:85 */
	{ "kasan-object",
	    "The buggy address belongs to the object at ffff8801c36c6680",
	    "addr=0xffff8801c36c6680" },
	/* syzkaller/guilty/40:90 */
	{ "kasan-page",
	    "page:ffffea00070db180 count:1 mapcount:0 mapping:ffff8801da800340 index:0xffff8801c36c6380",
	    "page=0xffffea00070db180" },
	/* syzkaller/guilty/51:140 */
	{ "kasan-shadow-row",
	    ">ffff000022c9c000: fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe",
	    "addr=0xffff000022c9c000" },
	/* kernel-facts 4.6 (mm/kasan/report.c, arm64): */
	{ "kasan-shadow-range",
	    "Possible KASAN shadow access for range [dfff800000000000..dfff80000000000f]",
	    "lo=0xdfff800000000000 hi=0xdfff80000000000f" },
	/* syzkaller/guilty/47:4 */
	{ "kmemleak-object",
	    "unreferenced object 0xffff888109e0af00 (size 192):",
	    "addr=0xffff888109e0af00 size=0xc0" },
	/* syzkaller/report/592:8 */
	{ "kfence-access",
	    "Out-of-bounds write at 0xffff8c2aae23bfff (1B left of kfence-#29):",
	    "addr=0xffff8c2aae23bfff" },
	/* kasld-dmesg 4.11 (arch/x86/mm/extable.c): */
	{ "msr-rip",
	    "unchecked MSR access error: RDMSR from 0x1fc at rIP: 0xffffffff8e07c6f7 (native_read_msr+0x7/0x40)",
	    "text=0xffffffff8e07c6f7" },
	/* kasld-dmesg 4.23 (arch/riscv/kernel/module.c): */
	{ "riscv-reloc-target",
	    "nf_conntrack: target ffffffff9ac02000 can not be addressed by the 32-bit offset from PC = 0000000031c4b7e2",
	    "text=0xffffffff9ac02000" },
	/* kasld-dmesg 4.23 (arch/riscv/kernel/module.c, sibling message): */
	{ "riscv-got-symbol",
	    "can not generate the GOT entry for symbol = ffffffff9ac02000 from PC = 0000000031c4b7e2",
	    "text=0xffffffff9ac02000" },
	/* kasld-dmesg 4.3 (drivers/staging/android/ion): ion_snapshot: 0x6f400000 map to 0xe1a05000 and copy to 0xc1b2e4a8 */
	{ "ion-snapshot",
	    "ion_snapshot: 0x6f400000 map to 0xe1a05000 and copy to 0xc1b2e4a8",
	    "phys=0x6f400000 addr=0xe1a05000 text=0xc1b2e4a8" },
	/* boot/OrangePi5-OpenCL__dmesg.txt:507 */
	{ "component-ops",
	    "rockchip-drm display-subsystem: bound fdd90000.vop (ops 0xffffffc01108a1f0)",
	    "text=0xffffffc01108a1f0" },
	/* syzkaller/report/317:35 */
	{ "e820-map",
	    "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable",
	    "lo=0x0 hi=0x9fbff" },
	/* loghub/loghub__Linux_Linux_2k.log:1913 */
	{ "e820-map-old",
	    " BIOS-e820: 0000000000000000 - 00000000000a0000 (usable)",
	    "lo=0x0 hi=0xa0000" },
	/* boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:429 */
	{ "e820-ram-buffer",
	    "e820: reserve RAM buffer [mem 0x0009ec00-0x0009ffff]",
	    "lo=0x9ec00 hi=0x9ffff" },
	/* boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:61 */
	{ "ramdisk",
	    "RAMDISK: [mem 0x2dc45000-0x32e19fff]",
	    "lo=0x2dc45000 hi=0x32e19fff" },
	/* kernel-facts 4.8 (arch/x86/kernel/setup.c relocate_initrd): */
	{ "ramdisk-move",
	    "Move RAMDISK from [mem 0x3412e000-0x3608dfff] to [mem 0x37a00000-0x3995ffff]",
	    "from_lo=0x3412e000 from_hi=0x3608dfff lo=0x37a00000 hi=0x3995ffff" },
	/* syzkaller/report/317:78 */
	{ "node-data",
	    "NODE_DATA(0) allocated [mem 0x21fffa000-0x21fffdfff]",
	    "lo=0x21fffa000 hi=0x21fffdfff" },
	/* boot/OrangePi5-OpenCL__dmesg.txt:42 */
	{ "swiotlb-mapped",
	    "software IO TLB: mapped [mem 0x00000000ec000000-0x00000000f0000000] (64MB)",
	    "lo=0xec000000 hi=0xf0000000 size=0x4000000" },
	/* boot/surface-book__dmesg.txt:530 */
	{ "swiotlb-mapped-at",
	    "software IO TLB [mem 0x82b68000-0x86b68000] (64MB) mapped at [ffff880082b68000-ffff880086b67fff]",
	    "lo=0x82b68000 hi=0x86b68000 size=0x4000000 vlo=0xffff880082b68000 vhi=0xffff880086b67fff" },
	/* kasld-dmesg 4.24: Placing software IO TLB between 0xb4600000 and 0xb8600000 */
	{ "swiotlb-placing",
	    "Placing software IO TLB between 0xb4600000 and 0xb8600000",
	    "lo=0xb4600000 hi=0xb8600000" },
	/* boot/supermicro__dmesg.txt:609 */
	{ "crashkernel-range",
	    "crashkernel reserved: 0x0000000055000000 - 0x0000000075000000 (512 MB)",
	    "lo=0x55000000 hi=0x75000000 size=0x20000000" },
	/* kasld-dmesg 4.6 (old x86): Reserving 256MB of memory at 2800MB for crashkernel (System RAM: 16267MB) */
	{ "crashkernel-mb",
	    "Reserving 256MB of memory at 2800MB for crashkernel (System RAM: 16267MB)",
	    "size=0x10000000 base=0xaf000000" },
	/* boot/OrangePi5-OpenCL__dmesg.txt:7 */
	{ "reserved-pool",
	    "Reserved memory: created CMA memory pool at 0x00000001ff800000, size 8 MiB",
	    "phys=0x1ff800000 size=0x800000" },
	/* boot/rg353v_linux__dmesg.txt:14 */
	{ "cma-reserved",
	    "cma: Reserved 16 MiB at 0x000000007e800000 on node -1",
	    "size=0x1000000 phys=0x7e800000" },
	/* boot/orangepi-rv2-notes__dmesg.txt:12 */
	{ "of-reserved-mem",
	    "OF: reserved mem: 0x0000000058000000..0x000000006fffffff (393216 KiB) map reusable linux,cma",
	    "lo=0x58000000 hi=0x6fffffff size=0x18000000" },
	/* boot/orangepi-rv2-notes__dmesg.txt:13 */
	{ "of-reserved-mem opensbi-resv",
	    "OF: reserved mem: 0x0000000000000000..0x000000000007ffff (512 KiB) nomap non-reusable mmode_resv0@0",
	    "lo=0x0 hi=0x7ffff size=0x80000 phys=0x0" },
	/* kasld-dmesg 4.9 (drivers/of/fdt.c): OF: fdt: Ignoring memory range 0x40000000 - 0x40200000 */
	{ "fdt-ignored-range",
	    "OF: fdt: Ignoring memory range 0x40000000 - 0x40200000",
	    "lo=0x40000000 hi=0x40200000" },
	/* kasld-dmesg 4.10 (drivers/firmware/efi/efi-init.c, efi=debug): */
	{ "efi-memmap",
	    "efi:   0x000040200000-0x0000422effff [Loader Code |   |  |  |  |  |  |  |  |  |   |WB|WT|WC|UC]",
	    "lo=0x40200000 hi=0x422effff" },
	/* kasld-dmesg 4.10 (arch/x86/platform/efi/efi.c, efi=debug): */
	{ "efi-memmap-x86",
	    "efi: mem07: [Loader Code|   |  |  |  |  |  |  |  |  |   |WB|WT|WC|UC] range=[0x0000000001000000-0x0000000002f3ffff] (31MB)",
	    "lo=0x1000000 hi=0x2f3ffff" },
	/* kasld-dmesg 4.12 (drivers/base/arch_numa.c): NUMA: Faking a node at [mem 0x0000000040000000-0x000000013fffffff] */
	{ "numa-fake-node",
	    "NUMA: Faking a node at [mem 0x0000000040000000-0x000000013fffffff]",
	    "lo=0x40000000 hi=0x13fffffff" },
	/* syzkaller/report/317:80 */
	{ "zone-range",
	    "  DMA      [mem 0x0000000000001000-0x0000000000ffffff]",
	    "lo=0x1000 hi=0xffffff" },
	/* syzkaller/report/317:85 */
	{ "node-range",
	    "  node   0: [mem 0x0000000000001000-0x000000000009efff]",
	    "lo=0x1000 hi=0x9efff" },
	/* syzkaller/report/317:89 */
	{ "initmem-node",
	    "Initmem setup node 0 [mem 0x0000000000001000-0x000000021fffffff]",
	    "lo=0x1000 hi=0x21fffffff" },
	/* syzkaller/report/317:54 */
	{ "last-pfn",
	    "last_pfn = 0x220000 max_arch_pfn = 0x400000000",
	    "pfn=0x220000" },
	/* boot/anyka-cams__dmesg.txt:42 */
	{ "arm-idmap",
	    "Setting up static identity map for 0x81ab7810 - 0x81ab7868",
	    "lo=0x81ab7810 hi=0x81ab7868" },
	/* mail/linuxppc-dev/a0de4be417a2c81bb1f4ea72a5bd6c0ed0706884.eml:143 */
	{ "ppc-initrd",
	    "Found initrd at 0xc000000003350000:0xc000000004d9bd2d",
	    "lo=0xc000000003350000 hi=0xc000000004d9bd2d" },
	/* syzkaller/report/317:61 */
	{ "acpi-table-phys",
	    "ACPI: RSDP 0x00000000000F2A50 000014 (v00 Google)",
	    "phys=0xf2a50" },
	/* boot/surface-book__dmesg.txt:286 */
	{ "acpi-table-virt",
	    "ACPI: SSDT 0xFFFF880265122800 00063F (v02 PmRef  Cpu0Ist  00003000 INTL 20141107)",
	    "addr=0xffff880265122800" },
	/* kernel-facts 4.10 (/proc/modules, arm64): test 12288 0 - Live 0xffff800000fc0000 (O) */
	{ "proc-modules",
	    "test 12288 0 - Live 0xffff800000fc0000 (O)",
	    "addr=0xffff800000fc0000" },
	/* kernel-facts 4.10 (tracefs printk_formats): 0xffffffff82a1b2c0 : "%s: %d\n" */
	{ "printk-formats",
	    "0xffffffff82a1b2c0 : \"%s: %d\\n\"",
	    "addr=0xffffffff82a1b2c0" },
	/* captured/x86_64/.../proc/iomem (kernel/resource.c r_show()) */
	{ "iomem",
	    "  01000000-01e00fff : Kernel code",
	    "lo=0x1000000 hi=0x1e00fff" },
	/* kernel-facts 4.10 (/proc/vmallocinfo): 0xffffc90000000000-0xffffc90000002000    8192 acpi_os_map_iomem+0x1a/0x20 phys=... */
	{ "vmallocinfo",
	    "0xffffc90000000000-0xffffc90000002000    8192 acpi_os_map_iomem+0x1a/0x20 phys=...",
	    "lo=0xffffc90000000000 hi=0xffffc90000002000" },
	/* kernel-facts 4.10 (/proc/timer_list before v4.15):   .base:       ffff88003fc0e180 */
	{ "timer-list-base",
	    "  .base:       ffff88003fc0e180",
	    "addr=0xffff88003fc0e180" },
	/* qemu/x86_64-6.1.0-57-amd64-boot5-no_hash_pointers/dmesg.log:14 */
	{ "unhashed-banner",
	    "** This system shows unhashed kernel memory addresses   **",
	    "" },
	/* qemu/x86_64-6.1.0-57-amd64-nokaslr/dmesg.log:75 */
	{ "nokaslr-cmdline",
	    "Kernel command line: console=ttyS0 panic=-1 oops=panic loglevel=7 nokaslr dumpkallsyms",
	    "" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* A hit count per entry id. */
struct lcount {
	const char	*id;
	unsigned	 n;
};

/*
 * Hits per entry over every line of tests/data/ (framed by
 * kl_frame_line, so the message part is matched): the project's QEMU
 * boots and the logs of tests/data/written.  Checked by reading the
 * lines: e.g. x86-gprs is the 25 RAX/RDX/RBP/R10/R13 lines (grep -cE
 * '(RAX|RDX|RBP|R10|R13): [0-9a-f]{16} R': 10 of the written x86_64
 * oops, 5 of the written report, 10 of the no_hash_pointers boot),
 * x86-rsp the two "RSP: 0018:" lines of the written oops, e820-map the
 * 20 BIOS-e820 lines (6 written, 14 of the QEMU boot), bracket-trace the
 * 33 "[<...>]" frames that start a message (13 of the written report, 7
 * of the written mips32 mail, 6 of the arm64 "PC is at" mail, 7 of the
 * s390x lockdep mail: the "([<...>]" one is not; the quoted mips64
 * frames are not framed), lockdep-irq-stamp the 4 lines of that s390x
 * mail, ppc-trace the 8 frames and ppc-gprs the 5 GPR rows of the
 * written ppc64 oops, arm64-gprs the 10 x-register rows of the written
 * arm64 oops.
 */
static const struct lcount data_counts[] = {
	{ "acpi-table-phys", 16 },
	{ "arm-idmap", 1 },
	{ "arm64-gprs", 10 },
	{ "arm64-pgdp", 1 },
	{ "arm64-phys-offset", 1 },
	{ "arm64-pte", 1 },
	{ "arm64-sp", 1 },
	{ "bracket-trace", 33 },
	{ "component-ops", 2 },
	{ "e820-map", 20 },
	{ "e820-ram-buffer", 4 },
	{ "fault-virtual-address", 2 },
	{ "initmem-node", 3 },
	{ "kaslr-failed", 1 },
	{ "kernel-offset", 1 },
	{ "kernel-offset-disabled", 1 },
	{ "kernel-offset-x86", 5 },
	{ "last-pfn", 2 },
	{ "layout-banner", 1 },
	{ "layout-fixed", 2 },
	{ "layout-lowmem", 1 },
	{ "layout-modules", 1 },
	{ "layout-text", 4 },
	{ "layout-vmalloc", 1 },
	{ "lockdep-irq-stamp", 4 },
	{ "mips-epc-ra", 2 },
	{ "node-data", 3 },
	{ "node-range", 6 },
	{ "nokaslr-cmdline", 1 },
	{ "of-reserved-mem", 1 },
	{ "opensbi-resv", 1 },
	{ "ppc-fault-ip", 1 },
	{ "ppc-gprs", 5 },
	{ "ppc-lr-sym", 1 },
	{ "ppc-nip-lr", 1 },
	{ "ppc-nip-sym", 1 },
	{ "ppc-regs", 1 },
	{ "ppc-trace", 8 },
	{ "ramdisk", 3 },
	{ "reserved-pool", 1 },
	{ "unhashed-banner", 2 },
	{ "x86-cr3", 1 },
	{ "x86-gprs", 25 },
	{ "x86-gs-base", 2 },
	{ "x86-page-table", 1 },
	{ "x86-rsp", 2 },
	{ "zone-range", 9 },
};

/*
 * Hits per entry over every log of ../shared/corpus (files in byte
 * order of their paths, each line framed).  The same readings as above,
 * over the whole corpus: 574 syzkaller reports, boot logs, mail, qemu.
 */
static const struct lcount corpus_counts[] = {
	{ "acpi-table-phys", 216 },
	{ "acpi-table-virt", 13 },
	{ "arm-idmap", 1 },
	{ "arm64-gprs", 249 },
	{ "arm64-pgdp", 5 },
	{ "arm64-phys-offset", 1 },
	{ "arm64-pte", 4 },
	{ "arm64-sp", 20 },
	{ "bracket-trace", 3300 },
	{ "cma-reserved", 6 },
	{ "component-ops", 6 },
	{ "crashkernel-range", 1 },
	{ "e820-map", 212 },
	{ "e820-map-old", 5 },
	{ "e820-ram-buffer", 48 },
	{ "exception-stack", 46 },
	{ "fault-virtual-address", 26 },
	{ "free-initrd-range", 1 },
	{ "free-kernel-range", 4 },
	{ "initmem-node", 39 },
	{ "kasan-access", 54 },
	{ "kasan-object", 44 },
	{ "kasan-page", 42 },
	{ "kasan-shadow-row", 54 },
	{ "kaslr-failed", 3 },
	{ "kernel-offset", 3 },
	{ "kernel-offset-disabled", 144 },
	{ "kernel-offset-x86", 5 },
	{ "kfence-access", 3 },
	{ "kmemleak-object", 12 },
	{ "last-pfn", 25 },
	{ "layout-banner", 2 },
	{ "layout-fixed", 5 },
	{ "layout-lowmem", 2 },
	{ "layout-modules", 2 },
	{ "layout-text", 7 },
	{ "layout-vmalloc", 2 },
	{ "lockdep-irq-stamp", 113 },
	{ "mips-epc-ra", 12 },
	{ "node-data", 21 },
	{ "node-range", 81 },
	{ "nokaslr-cmdline", 6 },
	{ "numa-fake-node", 4 },
	{ "of-reserved-mem", 12 },
	{ "opensbi-resv", 1 },
	{ "pc-lr-raw", 14 },
	{ "ppc-fault-ip", 18 },
	{ "ppc-gprs", 76 },
	{ "ppc-initrd", 1 },
	{ "ppc-lr-sym", 25 },
	{ "ppc-nip-lr", 21 },
	{ "ppc-nip-sym", 23 },
	{ "ppc-regs", 24 },
	{ "ppc-trace", 222 },
	{ "ramdisk", 20 },
	{ "reserved-pool", 4 },
	{ "riscv-epc-ra", 2 },
	{ "riscv-gprs", 27 },
	{ "stack-limit", 11 },
	{ "swiotlb-mapped", 7 },
	{ "swiotlb-mapped-at", 1 },
	{ "unhashed-banner", 3 },
	{ "x86-code-unable", 8 },
	{ "x86-cr3", 242 },
	{ "x86-fault-address", 27 },
	{ "x86-gprs", 3860 },
	{ "x86-gs-base", 242 },
	{ "x86-page-table", 35 },
	{ "x86-rip-raw", 16 },
	{ "x86-rsp", 369 },
	{ "zone-range", 66 },
};

/* Load the data file and make a matcher for the group. */
static int
setup(void **state)
{
	struct kl_error err;

	(void)state;
	if ((db = kl_leakdb_load(DB, &err)) == NULL) {
		fprintf(stderr, "%s\n", err.msg);
		return (-1);
	}
	return ((lm = kl_leakmatch_new(db)) == NULL ? -1 : 0);
}

/* Free them. */
static int
teardown(void **state)
{
	(void)state;
	kl_leakmatch_free(lm);
	kl_leakdb_free(db);
	return (0);
}

/* Write the ids and the values of hits[0..n) to ids and vals. */
static void
describe(const struct kl_leak_hit *h, int n, char *ids, size_t il,
    char *vals, size_t vl)
{
	size_t io = 0, vo = 0, j;
	int i;

	ids[0] = vals[0] = '\0';
	for (i = 0; i < n; i++) {
		io += (size_t)snprintf(ids + io, il - io, "%s%s",
		    i ? " " : "", h[i].entry->id);
		for (j = 0; j < h[i].nvalues; j++)
			vo += (size_t)snprintf(vals + vo, vl - vo,
			    "%s%s=0x%llx", vo ? " " : "", h[i].v[j].name,
			    (unsigned long long)h[i].v[j].value);
	}
}

/* Match msg with the keyed matcher and the reference; both must agree. */
static int
match2(const char *msg, size_t len, struct kl_leak_hit *h)
{
	struct kl_leak_hit r[MAXHITS];
	char a[512], b[512], c[1024], d[1024];
	int n, m;

	n = kl_leak_match(lm, (const uint8_t *)msg, len, h, MAXHITS);
	m = kl_leak_match_all(lm, (const uint8_t *)msg, len, r, MAXHITS);
	assert_int_equal(n, m);
	describe(h, n > MAXHITS ? MAXHITS : n, a, sizeof(a), c, sizeof(c));
	describe(r, m > MAXHITS ? MAXHITS : m, b, sizeof(b), d, sizeof(d));
	assert_string_equal(a, b);
	assert_string_equal(c, d);
	return (n);
}

/* One entry on its line: exact ids, values, spans, key. */
static void
test_entry(void **state)
{
	const struct lcase *c = *state;
	struct kl_leak_hit h[MAXHITS];
	char ids[512], vals[1024], digits[40];
	size_t len = strlen(c->msg), j;
	int n, i;

	n = match2(c->msg, len, h);
	assert_true(n >= 1 && n <= MAXHITS);
	describe(h, n, ids, sizeof(ids), vals, sizeof(vals));
	assert_string_equal(ids, c->ids);
	assert_string_equal(vals, c->values);
	for (i = 0; i < n; i++) {
		assert_true(h[i].off + h[i].len <= len);
		assert_non_null(strstr(c->msg, h[i].entry->key));
		for (j = 0; j < h[i].nvalues; j++) {
			const struct kl_leak_value *v = &h[i].v[j];

			assert_false(v->overflow);
			assert_true(v->off >= h[i].off &&
			    v->off + v->len <= h[i].off + h[i].len);
			assert_true(v->len > 0 && v->len < sizeof(digits));
			memcpy(digits, c->msg + v->off, v->len);
			digits[v->len] = '\0';
			/* hex values are the digits of their span */
			if (strcmp(v->name, "size") != 0 &&
			    strcmp(v->name, "base") != 0 &&
			    strcmp(c->ids, "crashkernel-mb") != 0)
				assert_true(strtoull(digits, NULL, 16) ==
				    v->value);
		}
	}
}

/* Every entry of the file has exactly one case above, and no more. */
static void
test_all_entries(void **state)
{
	const struct kl_leak_entry *e;
	size_t i, k, seen;

	(void)state;
	assert_int_equal(kl_leakdb_count(db), 98);
	assert_null(kl_leakdb_entry(db, 98));
	for (i = 0; i < kl_leakdb_count(db); i++) {
		e = kl_leakdb_entry(db, i);
		seen = 0;
		for (k = 0; k < NCASES; k++) {
			const char *p = strstr(cases[k].ids, e->id);
			size_t l = strlen(e->id);

			if (p != NULL && (p[l] == '\0' || p[l] == ' ') &&
			    (p == cases[k].ids || p[-1] == ' ') &&
			    (strcmp(cases[k].ids, e->id) == 0 ||
			    strncmp(cases[k].ids, "of-reserved-mem ", 16) == 0))
				seen++;
		}
		/* of-reserved-mem also matches the opensbi line */
		assert_int_equal(seen, strcmp(e->id, "of-reserved-mem") == 0 ?
		    2 : 1);
	}
}

/*
 * The first-byte filter lets every entry's own real line through (each
 * id of each case above, at the first byte of its message), and rules
 * out what it should: the 35 anchored patterns start with a known set
 * of bytes, the others with any.
 */
static void
test_first_bytes(void **state)
{
	const struct kl_leak_entry *e;
	const char *p, *q;
	size_t i, k, l, n, restricted = 0;
	unsigned c;

	(void)state;
	for (k = 0; k < NCASES; k++)
		for (p = cases[k].ids; *p != '\0'; p = *q ? q + 1 : q) {
			q = strchr(p, ' ');
			if (q == NULL)
				q = p + strlen(p);
			l = (size_t)(q - p);
			for (i = 0; i < kl_leakdb_count(db); i++) {
				e = kl_leakdb_entry(db, i);
				if (strlen(e->id) == l &&
				    strncmp(e->id, p, l) == 0)
					break;
			}
			assert_true(i < kl_leakdb_count(db));
			assert_true(kl_leakdb_first_ok(db, i,
			    (uint8_t)cases[k].msg[0]));
		}
	for (i = 0; i < kl_leakdb_count(db); i++) {
		e = kl_leakdb_entry(db, i);
		for (n = 0, c = 0; c < 256; c++)
			n += (size_t)kl_leakdb_first_ok(db, i, (uint8_t)c);
		if (n < 256)
			restricted++;
		if (strcmp(e->id, "x86-gprs") == 0) {
			/* ^(?:RAX|RDX|RBP|R10|R13): 'R' or 'r' */
			assert_int_equal(n, 2);
			assert_true(kl_leakdb_first_ok(db, i, 'R'));
			assert_false(kl_leakdb_first_ok(db, i, 'E'));
		}
		if (strcmp(e->id, "bracket-trace") == 0) {
			/* ^\s*(?:\?\s+)?\[< */
			assert_true(kl_leakdb_first_ok(db, i, ' '));
			assert_true(kl_leakdb_first_ok(db, i, '\t'));
			assert_true(kl_leakdb_first_ok(db, i, '?'));
			assert_true(kl_leakdb_first_ok(db, i, '['));
			assert_false(kl_leakdb_first_ok(db, i, 'a'));
			assert_false(kl_leakdb_first_ok(db, i, '<'));
		}
		if (strcmp(e->id, "kernel-offset-x86") == 0)
			assert_int_equal(n, 256);
	}
	assert_int_equal(restricted, 36);
	assert_false(kl_leakdb_first_ok(db, kl_leakdb_count(db), 'R'));
}

/* Entry metadata as the file gives it. */
static void
test_metadata(void **state)
{
	const struct kl_leak_entry *e;

	(void)state;
	e = kl_leakdb_entry(db, 0);
	assert_string_equal(e->id, "kernel-offset-x86");
	assert_int_equal(e->families, 1u << KL_FAM_X86);
	assert_int_equal(e->discloses, KL_LD_TEXT | KL_LD_MODULES |
	    KL_LD_LAYOUT);
	assert_int_equal(e->class, KL_LCLASS_VIRTUAL);
	assert_null(e->fixed);
	assert_string_equal(e->key, "Kernel Offset: 0x");
	/* the continuation line is joined with nothing */
	assert_string_equal(e->pattern, "Kernel Offset: 0x(?<offset>"
	    "[0-9a-f]{1,16}) from 0x(?<base>[0-9a-f]{1,16})\\x20\\(relocation"
	    " range: 0x(?<lo>[0-9a-f]{1,16})-0x(?<hi>[0-9a-f]{1,16})\\)");
	assert_string_equal(e->explain,
	    "the panic notifier prints the KASLR slide: _text = base + offset");
	assert_int_equal(e->line, 39);
	e = kl_leakdb_entry(db, 1);
	assert_int_equal(e->families, 1u << KL_FAM_ARM64 |
	    1u << KL_FAM_RISCV | 1u << KL_FAM_PPC);
	e = kl_leakdb_entry(db, 19);
	assert_string_equal(e->id, "free-kernel-range");
	assert_string_equal(e->fixed, "adb1fe9ae2ee (v4.10)");
	/* "any": every family, and unknown (KL_FAM_NONE) too */
	assert_int_equal(e->families, 0x3ff);
	assert_int_equal(e->discloses, KL_LD_TEXT | KL_LD_DIRECT_MAP);
	e = kl_leakdb_entry(db, 6);
	assert_string_equal(e->id, "kaslr-failed");
	assert_int_equal(e->class, KL_LCLASS_LAYOUT);
	e = kl_leakdb_entry(db, 8);
	assert_string_equal(e->id, "kernel-offset-disabled");
	assert_int_equal(e->class, KL_LCLASS_LAYOUT);
	e = kl_leakdb_entry(db, 96);
	assert_string_equal(e->id, "unhashed-banner");
}

/* Exact spans of the x86 Kernel Offset line. */
static void
test_spans(void **state)
{
	static const char m[] = "Kernel Offset: 0x6000000 from "
	    "0xffffffff81000000 (relocation range: 0xffffffff80000000-"
	    "0xffffffffbfffffff)";
	struct kl_leak_hit h[MAXHITS];

	(void)state;
	assert_int_equal(match2(m, sizeof(m) - 1, h), 1);
	assert_int_equal(h[0].off, 0);
	assert_int_equal(h[0].len, sizeof(m) - 1);
	assert_int_equal(h[0].nvalues, 4);
	assert_string_equal(h[0].v[0].name, "offset");
	assert_int_equal(h[0].v[0].off, 17);
	assert_int_equal(h[0].v[0].len, 7);
	assert_string_equal(h[0].v[1].name, "base");
	assert_int_equal(h[0].v[1].off, 32);
	assert_int_equal(h[0].v[1].len, 16);
	assert_int_equal(h[0].v[2].off, 70);
	assert_int_equal(h[0].v[3].off, 89);
	assert_int_equal(h[0].v[3].len, 16);
}

/* More hits than room: the count is all of them, the first are kept. */
static void
test_max(void **state)
{
	static const char m[] = "OF: reserved mem: 0x0000000000000000.."
	    "0x000000000007ffff (512 KiB) nomap non-reusable mmode_resv0@0";
	struct kl_leak_hit h[1];

	(void)state;
	assert_int_equal(kl_leak_match(lm, (const uint8_t *)m, sizeof(m) - 1,
	    h, 1), 2);
	assert_string_equal(h[0].entry->id, "of-reserved-mem");
	assert_int_equal(h[0].v[2].value, 512 * 1024);
	assert_int_equal(kl_leak_match(lm, (const uint8_t *)m, sizeof(m) - 1,
	    NULL, 0), 2);
}

/* Look-alikes that must not match anything. */
static void
test_negative(void **state)
{
	static const char *const neg[] = {
		/* hashed %p (v4.15+): 00000000 and 8 hash digits */
		"hardirqs last  enabled at (331): [<00000000eed64b41>] "
		    "slab_alloc mm/slab.c:3378 [inline]",
		" [<00000000b05ec33c>] __netif_set_xps_queue+0x3dc/0xca8",
		"page:00000000645d0634 refcount:1 mapcount:0 mapping:"
		    "0000000000000000 index:0xfdff000022c9c000 pfn:0x62c9c",
		"      .text : 0x(____ptrval____) - 0x(____ptrval____)",
		"found SMP MP-table at [mem 0x000f2c80-0x000f2c8f] mapped at "
		    "[(____ptrval____)]",
		"Freeing initrd memory: 20480K (00000000b5e40000 - "
		    "00000000b7240000)",
		/* modern forms that carry no address (Kernel Offset:
		   disabled does: kernel-offset-disabled) */
		"Freeing unused kernel image (initmem) memory: 2748K",
		"Freeing initrd memory: 20480K",
		"RIP: 0010:__lock_acquire+0x61f/0x4b50",
		"BUG: kernel NULL pointer dereference, address: "
		    "0000000000000008",
		"e820: update [mem 0x00000000-0x00000fff] usable ==> reserved",
		"ACPI: Dynamic OEM Table Load:",
		"KASLR enabled",
		"Kernel command line: console=ttyS0 nokaslrx",
		"pc : __pi_strlen+0x10/0x20",
		"Kernel relocated by 0x0000000012345678",
		/* user-space RIP is not 0010 */
		"RIP: 0033:0x457579",
		"", "K", "[<",
	};
	struct kl_leak_hit h[MAXHITS];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(neg) / sizeof(neg[0]); i++) {
		if (match2(neg[i], strlen(neg[i]), h) != 0)
			fail_msg("'%s' matched %s", neg[i], h[0].entry->id);
	}
}

/* Loading a file: missing, and the installed default path. */
static void
test_load_file(void **state)
{
	struct kl_error err;
	struct kl_leakdb *d;

	(void)state;
	assert_null(kl_leakdb_load("/nonexistent/leak-sources", &err));
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, ENOENT);
	assert_string_equal(err.msg,
	    "/nonexistent/leak-sources: No such file or directory");
	assert_null(kl_leakdb_load(TESTDATA, &err));
	assert_string_equal(err.msg, TESTDATA ": not a regular file");
	/* NULL is the installed file: there or not, the path is that */
	d = kl_leakdb_load(NULL, &err);
	if (d == NULL)
		assert_string_equal(err.msg, PKGDATADIR "/leak-sources: "
		    "No such file or directory");
	else
		assert_int_equal(kl_leakdb_count(d), 98);
	kl_leakdb_free(d);
	assert_int_equal(kl_leakdb_jit(db), kl_leakdb_jit(db) ? 1 : 0);
}

/* Per-id hit counts of one run over files. */
struct tally {
	const struct kl_leakdb *db;
	unsigned	 n[128];
	uint64_t	 lines;
};

/* Match every line of a file (framed) and count hits per entry. */
static void
tally_file(const char *path, struct tally *t)
{
	struct kl_leak_hit h[MAXHITS];
	enum kl_line_kind prev = KL_LINE_PLAIN;
	struct kl_frame fr;
	const char *p, *nl, *end;
	char *buf;
	size_t len, ll, i, k;
	FILE *f;
	long sz;
	int n;

	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	sz = ftell(f);
	rewind(f);
	assert_non_null(buf = malloc((size_t)sz + 1));
	len = fread(buf, 1, (size_t)sz, f);
	assert_int_equal(len, (size_t)sz);
	fclose(f);
	for (p = buf, end = buf + len; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		ll = (size_t)(nl - p);
		kl_frame_line((const uint8_t *)p, ll, prev, KL_FORMAT_AUTO,
		    &fr);
		prev = fr.kind;
		if (ll > 0 && p[ll - 1] == '\r')
			ll--;
		n = match2(p + fr.msg, ll - fr.msg, h);
		for (i = 0; i < (size_t)n && i < MAXHITS; i++)
			for (k = 0; k < kl_leakdb_count(t->db); k++)
				if (kl_leakdb_entry(t->db, k) == h[i].entry)
					t->n[k]++;
		t->lines++;
	}
	free(buf);
}

/* Compare with sorting by name in C order. */
static int
cmp_str(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Tally every regular file under dir, in byte order of paths. */
static void
tally_dir(const char *dir, struct tally *t)
{
	char *names[1024], path[4096];
	struct dirent *de;
	struct stat sb;
	size_t n = 0, i;
	DIR *dp;

	assert_non_null(dp = opendir(dir));
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		assert_true(n < 1024);
		names[n++] = strdup(de->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		assert_int_equal(stat(path, &sb), 0);
		if (S_ISDIR(sb.st_mode))
			tally_dir(path, t);
		else if (S_ISREG(sb.st_mode))
			tally_file(path, t);
		free(names[i]);
	}
}

/* Compare a tally with a table: exact counts, zero for the rest. */
static void
check_tally(const struct tally *t, const struct lcount *c, size_t nc)
{
	const struct kl_leak_entry *e;
	size_t k, i;
	unsigned want, bad = 0;

	for (k = 0; k < kl_leakdb_count(t->db); k++) {
		e = kl_leakdb_entry(t->db, k);
		want = 0;
		for (i = 0; i < nc; i++)
			if (strcmp(c[i].id, e->id) == 0)
				want = c[i].n;
		if (t->n[k] != want) {
			print_error("%s: %u hits, want %u\n", e->id, t->n[k],
			    want);
			bad++;
		}
	}
	if (bad > 0)
		fail_msg("%u entries with other counts", bad);
	for (i = 0; i < nc; i++) {
		for (k = 0; k < kl_leakdb_count(t->db); k++)
			if (strcmp(c[i].id, kl_leakdb_entry(t->db, k)->id) == 0)
				break;
		assert_true(k < kl_leakdb_count(t->db));
	}
}

/* Every line of tests/data. */
static void
test_data_counts(void **state)
{
	struct tally t;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.db = db;
	tally_dir(TESTDATA, &t);
	check_tally(&t, data_counts, sizeof(data_counts) /
	    sizeof(data_counts[0]));
}

/* Every line of ../shared/corpus, when it is there. */
static void
test_corpus_counts(void **state)
{
	struct tally t;
	struct stat sb;

	(void)state;
	if (stat(CORPUS, &sb) == -1) {
		skip();
		return;
	}
	memset(&t, 0, sizeof(t));
	t.db = db;
	/* The logs; captured/ holds systems (sysroots), not logs. */
	tally_dir(CORPUS "/boot", &t);
	tally_dir(CORPUS "/loghub", &t);
	tally_dir(CORPUS "/mail", &t);
	tally_dir(CORPUS "/qemu", &t);
	tally_dir(CORPUS "/syzkaller", &t);
	check_tally(&t, corpus_counts, sizeof(corpus_counts) /
	    sizeof(corpus_counts[0]));
}

int
main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_all_entries),
		cmocka_unit_test(test_first_bytes),
		cmocka_unit_test(test_metadata),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_negative),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_data_counts),
		cmocka_unit_test(test_corpus_counts),
	};
	struct CMUnitTest t[NCASES + sizeof(fixed) / sizeof(fixed[0])];
	size_t i, n = 0;

	for (i = 0; i < NCASES; i++) {
		memset(&t[n], 0, sizeof(t[n]));
		t[n].name = cases[i].ids;
		t[n].test_func = test_entry;
		t[n].initial_state = (void *)&cases[i];
		n++;
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		t[n++] = fixed[i];
	return (_cmocka_run_group_tests("leaks", t, n, setup, teardown));
}
