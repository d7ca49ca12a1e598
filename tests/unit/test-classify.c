/*
 * test-classify.c - kl_classify(), kl_anchors_add(), kl_suppress_name().
 *
 * Every case is a real log line from ../shared/corpus/ (file and line
 * cited; the dmesg timestamp, caller id and mail quoting are cut, since
 * kl_ctx.msg is the message part), classified in the real layout tables
 * of arch.c.  A few cases are hand-written, marked so, where no real line
 * shows the rule: each pins one rule.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define NOPO	0		/* the profile's default PAGE_OFFSET */
#define SUP(x)	KL_SUP_##x
#define REG(x)	KL_REGION_##x
#define CONF(x)	KL_CONF_##x
#define NOFL	0u
#define STK	KL_V_STACK
#define ANC	KL_V_ANCHOR
#define CTX	KL_V_CONTEXT

/* One token of one line and what it must classify as. */
struct tcase {
	const char		*src;	/* corpus file:line, or "hand-written" */
	enum kl_arch_id		 arch;
	uint64_t		 po;
	const char		*msg;	/* the message part of the line */
	const char		*tok;	/* the token's digits */
	unsigned		 nth;	/* which occurrence of tok, 0-based */
	enum kl_region		 region;
	enum kl_suppress	 sup;
	enum kl_confidence	 conf;
	const char		*rule;
	unsigned		 flags;
};

static const struct tcase cases[] = {
	/* --- look-alikes decided by value ----------------------------- */
	/* null */
	{ "syzkaller/guilty/51:131", KL_ARCH_ARM64, NOPO,
	  "page:00000000645d0634 refcount:1 mapcount:0 "
	  "mapping:0000000000000000 index:0xfdff000022c9c000 pfn:0x62c9c",
	  "0000000000000000", 0, REG(NONE), SUP(NULL), CONF(HIGH), "null",
	  NOFL },
	/* hashed: page:%p */
	{ "syzkaller/guilty/51:131", KL_ARCH_ARM64, NOPO,
	  "page:00000000645d0634 refcount:1 mapcount:0 "
	  "mapping:0000000000000000 index:0xfdff000022c9c000 pfn:0x62c9c",
	  "00000000645d0634", 0, REG(NONE), SUP(HASHED), CONF(HIGH),
	  "hashed", NOFL },
	/* hashed vs real: the same label with a raw pointer */
	{ "syzkaller/guilty/40:90", KL_ARCH_X86_64, NOPO,
	  "page:ffffea00070db180 count:1 mapcount:0 mapping:ffff8801da800340 "
	  "index:0xffff8801c36c6380",
	  "ffffea00070db180", 0, REG(VMEMMAP), SUP(NONE), CONF(HIGH),
	  "struct-page", ANC },
	/* a register printed with %016lx is a number, not a hash */
	{ "syzkaller/guilty/66:14", KL_ARCH_X86_64, NOPO,
	  "RDX: ffffffff7301ca7e RSI: ffff8880bfffcfde RDI: 00000000ffffffff",
	  "00000000ffffffff", 0, REG(NONE), SUP(NOT_KERNEL), CONF(HIGH),
	  "not-kernel", NOFL },
	/* err-ptr: -ENOSYS from a syscall, -1 */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:891", KL_ARCH_X86_64, NOPO,
	  "RAX: ffffffffffffffda RBX: ffffffffffffffff RCX: 00007f6fd687573d",
	  "ffffffffffffffda", 0, REG(NONE), SUP(ERR_PTR), CONF(HIGH),
	  "err-ptr", NOFL },
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:891", KL_ARCH_X86_64, NOPO,
	  "RAX: ffffffffffffffda RBX: ffffffffffffffff RCX: 00007f6fd687573d",
	  "ffffffffffffffff", 0, REG(NONE), SUP(ERR_PTR), CONF(HIGH),
	  "err-ptr", NOFL },
	/* err-ptr edges (hand-written): -MAX_ERRNO is one, -4096 is not */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "BUG: unable to handle page fault for address: fffffffffffff001",
	  "fffffffffffff001", 0, REG(NONE), SUP(ERR_PTR), CONF(HIGH),
	  "err-ptr", NOFL },
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "BUG: unable to handle page fault for address: fffffffffffff000",
	  "fffffffffffff000", 0, REG(NONE), SUP(MASK), CONF(HIGH), "mask",
	  NOFL },
	/* err-ptr at the 32-bit width: -EREMOTEIO */
	{ "boot/tf201log__dmesg.txt:553", KL_ARCH_ARM, NOPO,
	  "isl29028 2-0044: Write to device reg 14 fails status ffffff87",
	  "ffffff87", 0, REG(NONE), SUP(ERR_PTR), CONF(HIGH), "err-ptr",
	  NOFL },
	/* mask */
	{ "qemu/x86_64-6.1.0-57-amd64-boot1/console.log:759", KL_ARCH_X86_64,
	  NOPO, "RBP: 0000000036241c00 R08: fefefefefefefeff "
	  "R09: ffffffffffff0000",
	  "ffffffffffff0000", 0, REG(NONE), SUP(MASK), CONF(HIGH), "mask",
	  NOFL },
	/* masks vs ffffffff81000000, a text address that is not one */
	{ "qemu/x86_64-6.1.0-57-amd64-boot5-no_hash_pointers/console.log:830",
	  KL_ARCH_X86_64, NOPO, "Kernel Offset: 0x4c00000 from "
	  "0xffffffff81000000 (relocation range: "
	  "0xffffffff80000000-0xffffffffbfffffff)",
	  "ffffffff81000000", 0, REG(NONE), SUP(CONSTANT), CONF(HIGH),
	  "constant", NOFL },
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "Freeing unused kernel memory: 1476K (ffffffff81000000 - "
	  "ffffffff81171000)",
	  "ffffffff81000000", 0, REG(TEXT), SUP(NONE), CONF(MEDIUM), "value",
	  NOFL },
	{ "qemu/x86_64-6.1.0-57-amd64-boot5-no_hash_pointers/console.log:830",
	  KL_ARCH_X86_64, NOPO, "Kernel Offset: 0x4c00000 from "
	  "0xffffffff81000000 (relocation range: "
	  "0xffffffff80000000-0xffffffffbfffffff)",
	  "ffffffff80000000", 0, REG(NONE), SUP(MASK), CONF(HIGH), "mask",
	  NOFL },
	{ "qemu/x86_64-6.1.0-57-amd64-boot5-no_hash_pointers/console.log:830",
	  KL_ARCH_X86_64, NOPO, "Kernel Offset: 0x4c00000 from "
	  "0xffffffff81000000 (relocation range: "
	  "0xffffffff80000000-0xffffffffbfffffff)",
	  "ffffffffbfffffff", 0, REG(NONE), SUP(MASK), CONF(HIGH), "mask",
	  NOFL },
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "modules: ffffffffc0000000-fffffffffeffffff",
	  "fffffffffeffffff", 0, REG(NONE), SUP(MASK), CONF(HIGH), "mask",
	  NOFL },
	/* mask at 32 bits: PAGE_OFFSET itself */
	{ "boot/anyka-cams__dmesg.txt:361", KL_ARCH_ARM, NOPO,
	  " playback boundary: c0000000",
	  "c0000000", 0, REG(NONE), SUP(MASK), CONF(HIGH), "mask", NOFL },
	/* poison: LIST_POISON1, LIST_POISON2 */
	{ "syzkaller/guilty/51:133", KL_ARCH_ARM64, NOPO,
	  "raw: 01ffffc000000200 dead000000000100 dead000000000122 "
	  "f6ff000004001000",
	  "dead000000000100", 0, REG(NONE), SUP(POISON), CONF(HIGH),
	  "poison", NOFL },
	{ "syzkaller/guilty/51:133", KL_ARCH_ARM64, NOPO,
	  "raw: 01ffffc000000200 dead000000000100 dead000000000122 "
	  "f6ff000004001000",
	  "dead000000000122", 0, REG(NONE), SUP(POISON), CONF(HIGH),
	  "poison", NOFL },
	/* poison: POISON_FREE in a register row, inside ppc64's c000... */
	{ "mail/linuxppc-dev/291ff8fad21a4e920e0c3567e7f024bdc018c2a1.eml:44",
	  KL_ARCH_PPC64, NOPO,
	  "GPR08: c000000002bac020 6b6b6b6b6b6b6b6b 6b6b6b6b6b6b6b6b ",
	  "6b6b6b6b6b6b6b6b", 1, REG(NONE), SUP(POISON), CONF(HIGH),
	  "poison", NOFL },
	/* poison: STACKLEAK_POISON (hand-written, the x86 register format) */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "RDX: ffffffffffff4111 RSI: 0000000000000000 RDI: 0000000000000000",
	  "ffffffffffff4111", 0, REG(NONE), SUP(POISON), CONF(HIGH),
	  "poison", NOFL },
	/* vsyscall, from the layout */
	{ "syzkaller/report/365:108", KL_ARCH_X86_64, NOPO,
	  "CR2: ffffffffff600400 CR3: 000000008f6d3000 CR4: 00000000001406e0",
	  "ffffffffff600400", 0, REG(NONE), SUP(VSYSCALL), CONF(HIGH),
	  "vsyscall", NOFL },
	/* hole, from the layout */
	{ "syzkaller/guilty/66:14", KL_ARCH_X86_64, NOPO,
	  "RDX: ffffffff7301ca7e RSI: ffff8880bfffcfde RDI: 00000000ffffffff",
	  "ffffffff7301ca7e", 0, REG(NONE), SUP(HOLE), CONF(HIGH), "hole",
	  NOFL },
	/* not-kernel: a user stack */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:890", KL_ARCH_X86_64, NOPO,
	  "RSP: 002b:00007ffc94663748 EFLAGS: 00000246 "
	  "ORIG_RAX: 000000000000013e",
	  "00007ffc94663748", 0, REG(NONE), SUP(NOT_KERNEL), CONF(HIGH),
	  "not-kernel", NOFL },
	/* context-only: s390x register row; a frame still says kernel */
	{ "mail/linux-s390/c4560e12cb1c5ecef09e58b2908ca207238a81be.eml:42",
	  KL_ARCH_S390X, NOPO,
	  "Krnl GPRS: 0000000000000000 0000030000000000 0000030000000000",
	  "0000030000000000", 0, REG(NONE), SUP(CONTEXT_ONLY), CONF(LOW),
	  "context-only", NOFL },
	{ "mail/linux-s390/c4560e12cb1c5ecef09e58b2908ca207238a81be.eml:66",
	  KL_ARCH_S390X, NOPO,
	  " [<000003ff80440dc2>] handle_pqap+0x2ba/0x468 [kvm]          ",
	  "000003ff80440dc2", 0, REG(KERNEL), SUP(NONE), CONF(MEDIUM),
	  "frame", ANC },
	/* s390x PSW: the address word is a pc, the mask is not */
	{ "mail/linux-s390/8ceeab5364cde6dbcd16621ebe1723cb5a4cf5ac.eml:19",
	  KL_ARCH_S390X, NOPO,
	  "Krnl PSW : 0704e00180000000 00000000b05ec33c "
	  "(__netif_set_xps_queue+0x3dc/0xca8)",
	  "00000000b05ec33c", 0, REG(KERNEL), SUP(NONE), CONF(MEDIUM),
	  "pc", ANC },
	{ "mail/linux-s390/8ceeab5364cde6dbcd16621ebe1723cb5a4cf5ac.eml:19",
	  KL_ARCH_S390X, NOPO,
	  "Krnl PSW : 0704e00180000000 00000000b05ec33c "
	  "(__netif_set_xps_queue+0x3dc/0xca8)",
	  "0704e00180000000", 0, REG(NONE), SUP(CONTEXT_ONLY), CONF(LOW),
	  "context-only", NOFL },
	/*
	 * s390x lockdep %px: no hashed %p there; context-only without a
	 * code address of its GiB (anchored, it is kernel: test_s390_anchor)
	 */
	{ "mail/linux-s390/8ceeab5364cde6dbcd16621ebe1723cb5a4cf5ac.eml:53",
	  KL_ARCH_S390X, NOPO,
	  " #0: 0000000089af5188 (&dev->mutex){....}-{3:3}, at: "
	  "__driver_attach+0xfe/0x208",
	  "0000000089af5188", 0, REG(NONE), SUP(CONTEXT_ONLY), CONF(LOW),
	  "context-only", NOFL },

	/* --- look-alikes decided by shape ----------------------------- */
	/* uuid: 8-digit tokens on 32-bit layouts */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:2", KL_ARCH_I386, NOPO,
	  "Command line: BOOT_IMAGE=/boot/vmlinuz-5.4.0-1051-fips "
	  "root=UUID=f6e6e7be-7dbe-455a-b5a1-78f7c49a6542 ro ipv6.disable=1",
	  "f6e6e7be", 0, REG(NONE), SUP(UUID), CONF(MEDIUM), "uuid", NOFL },
	{ "syzkaller/report/739:7", KL_ARCH_ARM, NOPO,
	  "XFS (loop4): Unmounting Filesystem "
	  "d7dc424e-7990-42cb-9f91-9cb7200a101d",
	  "d7dc424e", 0, REG(NONE), SUP(UUID), CONF(MEDIUM), "uuid", NOFL },
	/* mac, ipv6 (hand-written: no kernel printer joins a pointer-width
	 * run to colon groups; these pin the shapes) */
	{ "hand-written", KL_ARCH_I386, NOPO,
	  "eth0: link up, peer aa:bb:cc:dd:c0a80001",
	  "c0a80001", 0, REG(NONE), SUP(MAC), CONF(MEDIUM), "mac", NOFL },
	{ "hand-written", KL_ARCH_I386, NOPO,
	  "IPv6: route to fe80::c0a80001:1 failed",
	  "c0a80001", 0, REG(NONE), SUP(IPV6), CONF(MEDIUM), "ipv6", NOFL },
	/* hexdump: arm "Code:" words, PAGE_OFFSET 0x80000000 (VMSPLIT_2G) */
	{ "syzkaller/report/551:51", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "Code: e5973000 e2169602 13e09000 e1a06506 (e5934008) ",
	  "e5973000", 0, REG(NONE), SUP(HEXDUMP), CONF(MEDIUM), "hexdump",
	  NOFL },
	{ "syzkaller/report/551:51", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "Code: e5973000 e2169602 13e09000 e1a06506 (e5934008) ",
	  "e5934008", 0, REG(NONE), SUP(HEXDUMP), CONF(MEDIUM), "hexdump",
	  NOFL },
	/* hexdump: a powerpc instruction dump row with its <pc> mark; the
	 * words are 32-bit on ppc64 and ppc32 alike */
	{ "mail/linuxppc-dev/69a4e2f6613cd9f13a56d5510f204b4797b54357.eml:68",
	  KL_ARCH_PPC32, NOPO,
	  "7d1602a6 7cec42a6 40820008 7d0807b4 <7d164ba6> 7d083a14 f90d10a0 "
	  "480104fd",
	  "f90d10a0", 0, REG(NONE), SUP(HEXDUMP), CONF(MEDIUM), "hexdump",
	  NOFL },
	/* ...while a stack dump row is memory: a real leak */
	{ "syzkaller/report/551:33", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "1e60: 00000000 00000000 00000000 00000000 000000ad 00000000 "
	  "00000000 81104e88",
	  "81104e88", 0, REG(TEXT), SUP(NONE), CONF(LOW), "value", NOFL },
	/* hash: a BPF program tag, an oops id, a git index line */
	{ "syzkaller/report/493:138", KL_ARCH_X86_64, NOPO,
	  " bpf_prog_3aea14b1f6cd0d8b+0xbdd/0x1000",
	  "3aea14b1f6cd0d8b", 0, REG(NONE), SUP(HASH), CONF(MEDIUM), "hash",
	  NOFL },
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:898", KL_ARCH_X86_64, NOPO,
	  "---[ end trace 43ef301ad4cafb21 ]---",
	  "43ef301ad4cafb21", 0, REG(NONE), SUP(HASH), CONF(MEDIUM), "hash",
	  NOFL },
	{ "mail/linux-mips/599530979f0b3320d8e3433125be7b65c1644003.eml:48",
	  KL_ARCH_MIPS64, NOPO, "index 46537c2ca86a2eae..6d0fd0e055b4ba4a "
	  "100644",
	  "6d0fd0e055b4ba4a", 0, REG(NONE), SUP(HASH), CONF(MEDIUM), "hash",
	  NOFL },
	/* hash: a journal cursor (hand-written, journalctl --show-cursor) */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "-- cursor: s=739ad463348b4ceca5a9e69c95a3c93f;i=4ece7;"
	  "b=6c7c6013a8914fd3b5c9d2a5cb0f2b4a;m=10e3c1b3a;t=5e0d4b1bb0c64;"
	  "x=ffff9d2c4e1f0a37",
	  "ffff9d2c4e1f0a37", 0, REG(NONE), SUP(HASH), CONF(MEDIUM), "hash",
	  NOFL },

	/* a physical address printed raw is not-kernel, not hashed: %pR
	 * resources (the range end takes the "[mem" label), ACPI tables */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:11", KL_ARCH_X86_64, NOPO,
	  "BIOS-e820: [mem 0x0000000000000000-0x000000000009ebff] usable",
	  "000000000009ebff", 0, REG(NONE), SUP(NOT_KERNEL), CONF(HIGH),
	  "not-kernel", NOFL },
	{ "qemu/x86_64-6.1.0-57-amd64-boot5-no_hash_pointers/console.log:44",
	  KL_ARCH_X86_64, NOPO, "ACPI: RSDT 0x000000003FFE1AD8 000034 "
	  "(v01 BOCHS  BXPC     00000001 BXPC 00000001)",
	  "000000003FFE1AD8", 0, REG(NONE), SUP(NOT_KERNEL), CONF(HIGH),
	  "not-kernel", NOFL },
	/* hash: one label of a dotted host name, on a 32-bit layout */
	{ "loghub/loghub__Linux_Linux_2k.log:910", KL_ARCH_I386, NOPO,
	  "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= "
	  "rhost=c9063558.virtua.com.br ",
	  "c9063558", 0, REG(NONE), SUP(HASH), CONF(MEDIUM), "hash", NOFL },

	/* --- leaks that look like the above but are not --------------- */
	/* a range with " - " */
	{ "boot/surface-book__dmesg.txt:688", KL_ARCH_X86_64, NOPO,
	  "Freeing unused kernel memory: 1476K "
	  "(ffffffff81f41000 - ffffffff820b2000)",
	  "ffffffff820b2000", 0, REG(TEXT), SUP(NONE), CONF(MEDIUM), "value",
	  NOFL },
	/* a range with "-": both halves are the same width, not a hash */
	{ "boot/surface-book__dmesg.txt:530", KL_ARCH_X86_64, NOPO,
	  "software IO TLB [mem 0x82b68000-0x86b68000] (64MB) mapped at "
	  "[ffff880082b68000-ffff880086b67fff]",
	  "ffff880086b67fff", 0, REG(DIRECT_MAP), SUP(NONE), CONF(MEDIUM),
	  "value", NOFL },
	/* a range with "..": the end takes the label of the start */
	{ "syzkaller/report/614:5", KL_ARCH_X86_64, NOPO,
	  "BUG: stack guard page was hit at ffffc900190cfff8 "
	  "(stack is ffffc900190d0000..ffffc900190d7fff)",
	  "ffffc900190d0000", 0, REG(VMALLOC), SUP(NONE), CONF(HIGH),
	  "stack-pointer", STK | ANC },
	{ "syzkaller/report/614:5", KL_ARCH_X86_64, NOPO,
	  "BUG: stack guard page was hit at ffffc900190cfff8 "
	  "(stack is ffffc900190d0000..ffffc900190d7fff)",
	  "ffffc900190d7fff", 0, REG(VMALLOC), SUP(NONE), CONF(HIGH),
	  "stack-pointer", STK | ANC },

	/* a pair joined by '.': the second half starts with a letter but is
	 * no name label (fuzz-redact crash-5cd8057e: the first half was
	 * kept while the second was zeroed, and found on a second pass) */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "Reui.ffff888003a1c000.ffff888003a1c008 d: ffff8880",
	  "ffff888003a1c000", 0, REG(DIRECT_MAP), SUP(NONE), CONF(MEDIUM),
	  "value", NOFL },
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "Reui.ffff888003a1c000.ffff888003a1c008 d: ffff8880",
	  "ffff888003a1c008", 0, REG(DIRECT_MAP), SUP(NONE), CONF(MEDIUM),
	  "value", NOFL },
	/* ...also when a '-' follows it (crash-8d8b9907): "-" does not
	 * make the second half a name, and zeroing it must not change the
	 * first */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "Reui.ffff888003a1c000.ffff88802d680214-0",
	  "ffff888003a1c000", 0, REG(DIRECT_MAP), SUP(NONE), CONF(MEDIUM),
	  "value", NOFL },
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "Reui.ffff888003a1c000.0000000000000000-0",
	  "ffff888003a1c000", 0, REG(DIRECT_MAP), SUP(NONE), CONF(MEDIUM),
	  "value", NOFL },
	/* three in a row: the first is no more a name than the second */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "at ffff888003a1c000.ffff888003a1c008.ffff888003a1c010 x",
	  "ffff888003a1c000", 0, REG(DIRECT_MAP), SUP(NONE), CONF(MEDIUM),
	  "value", NOFL },
	/* a token-sized label is judged by what follows it, whatever its
	 * first digit: zeroed, it is still a label of the same name */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "h ffff888003a1c000.12345678.example.com",
	  "ffff888003a1c000", 0, REG(NONE), SUP(HASH), CONF(MEDIUM), "hash",
	  NOFL },
	/* ...but a hex label with more of the name after it is a name */
	{ "hand-written", KL_ARCH_I386, NOPO,
	  "rhost=c9063558.deadbeef.example.net ",
	  "c9063558", 0, REG(NONE), SUP(HASH), CONF(MEDIUM), "hash", NOFL },

	/* --- regions and context -------------------------------------- */
	/* the Ubuntu RSP: a vmapped stack inside the nominal direct map */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:873", KL_ARCH_X86_64, NOPO,
	  "RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246",
	  "ffffa667c016fe48", 0, REG(VMALLOC), SUP(NONE), CONF(HIGH),
	  "stack-pointer", STK | ANC },
	/* ...the same bytes in a window cut before "RSP": no label */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:873 (window)",
	  KL_ARCH_X86_64, NOPO,
	  "SP: 0018:ffffa667c016fe48 EFLAGS: 00010246",
	  "ffffa667c016fe48", 0, REG(DIRECT_MAP), SUP(NONE), CONF(LOW),
	  "value", NOFL },
	/* GS: per-CPU data in the direct map */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:879", KL_ARCH_X86_64, NOPO,
	  "FS:  00007f6fd6733500(0000) GS:ffff993fa4e00000(0000) "
	  "knlGS:0000000000000000",
	  "ffff993fa4e00000", 0, REG(DIRECT_MAP), SUP(NONE), CONF(HIGH),
	  "percpu", ANC },
	/* a register in the shared window, no anchor: nominal, low */
	{ "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt:877", KL_ARCH_X86_64, NOPO,
	  "R10: ffff993fa4e1c848 R11: 0000000000000000 R12: 0000000000000000",
	  "ffff993fa4e1c848", 0, REG(DIRECT_MAP), SUP(NONE), CONF(LOW),
	  "register", NOFL },
	/* the first TB of the direct-map row is direct map by value */
	{ "syzkaller/report/661:162", KL_ARCH_X86_64, NOPO,
	  ">ffff88806c856a00: 00 00 00 00 00 00 00 00 fc fc fc fc fc fc fc fc",
	  "ffff88806c856a00", 0, REG(DIRECT_MAP), SUP(NONE), CONF(HIGH),
	  "dump-row", ANC },
	{ "syzkaller/guilty/40:90", KL_ARCH_X86_64, NOPO,
	  "page:ffffea00070db180 count:1 mapcount:0 mapping:ffff8801da800340 "
	  "index:0xffff8801c36c6380",
	  "ffff8801c36c6380", 0, REG(DIRECT_MAP), SUP(NONE), CONF(MEDIUM),
	  "value", NOFL },
	/* fault and object addresses */
	{ "syzkaller/guilty/66:3", KL_ARCH_X86_64, NOPO,
	  "BUG: unable to handle page fault for address: ffff8880bfffd000",
	  "ffff8880bfffd000", 0, REG(DIRECT_MAP), SUP(NONE), CONF(HIGH),
	  "fault-address", ANC },
	{ "syzkaller/report/217:8", KL_ARCH_X86_64, NOPO,
	  "BUG: unable to handle kernel paging request at ffffffffa4493138",
	  "ffffffffa4493138", 0, REG(TEXT), SUP(NONE), CONF(HIGH),
	  "fault-address", NOFL },
	{ "syzkaller/guilty/39:11", KL_ARCH_X86_64, NOPO,
	  "Read of size 1 at addr ffffffff88000008 by task "
	  "syz-executor0/10914",
	  "ffffffff88000008", 0, REG(TEXT), SUP(NONE), CONF(HIGH),
	  "object-address", NOFL },
	/* frames: x86, arm, powerpc (sp column, core and module ip) */
	{ "syzkaller/guilty/17:6", KL_ARCH_X86_64, NOPO,
	  " [<ffffffff81c8f6cd>] __dump_stack lib/dump_stack.c:15 [inline]",
	  "ffffffff81c8f6cd", 0, REG(TEXT), SUP(NONE), CONF(HIGH), "frame",
	  NOFL },
	{ "syzkaller/report/551:42", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "[<8037e608>] (vfs_parse_fs_param) from [<8037e7dc>] "
	  "(vfs_parse_fs_string+0x90/0xd4)",
	  "8037e7dc", 0, REG(TEXT), SUP(NONE), CONF(HIGH), "frame", NOFL },
	{ "mail/linuxppc-dev/e51d08a75b43214485c698952b509a0c8c28637c.eml:98",
	  KL_ARCH_PPC64, NOPO,
	  "[c000000011edf740] [c00800001d7e0278] "
	  ".radeon_fbdev_init+0xf8/0x180 [radeon]",
	  "c000000011edf740", 0, REG(DIRECT_MAP), SUP(NONE), CONF(HIGH),
	  "stack-pointer", STK },
	{ "mail/linuxppc-dev/e51d08a75b43214485c698952b509a0c8c28637c.eml:98",
	  KL_ARCH_PPC64, NOPO,
	  "[c000000011edf740] [c00800001d7e0278] "
	  ".radeon_fbdev_init+0xf8/0x180 [radeon]",
	  "c00800001d7e0278", 0, REG(MODULES), SUP(NONE), CONF(HIGH),
	  "frame", ANC },
	/* program counters: arm register dump, powerpc NIP */
	{ "syzkaller/report/551:18", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: 40000013",
	  "8054b7b0", 0, REG(TEXT), SUP(NONE), CONF(HIGH), "pc", NOFL },
	{ "mail/linuxppc-dev/e51d08a75b43214485c698952b509a0c8c28637c.eml:70",
	  KL_ARCH_PPC64, NOPO,
	  "NIP [c0080000076a1bb4] .drm_mode_object_get+0x34/0xc0 [drm]",
	  "c0080000076a1bb4", 0, REG(MODULES), SUP(NONE), CONF(HIGH), "pc",
	  ANC },
	/* "Code: Unable to access opcode bytes at" is RIP - 42, not a dump
	 * (hand-written: the corpus lines carry user addresses) */
	{ "hand-written", KL_ARCH_X86_64, NOPO,
	  "Code: Unable to access opcode bytes at 0xffffffffc0a1b299.",
	  "ffffffffc0a1b299", 0, REG(MODULES), SUP(NONE), CONF(HIGH), "pc",
	  NOFL },
	/* riscv64 v5.11: the image in the linear map; code there is text */
	{ "syzkaller/report/607:11", KL_ARCH_RISCV64, NOPO,
	  "epc : ffffffe00008c762 ra : ffffffe00008c760 sp : ffffffe00853fec0",
	  "ffffffe00008c762", 0, REG(TEXT), SUP(NONE), CONF(MEDIUM), "pc",
	  NOFL },
	{ "syzkaller/report/607:11", KL_ARCH_RISCV64, NOPO,
	  "epc : ffffffe00008c762 ra : ffffffe00008c760 sp : ffffffe00853fec0",
	  "ffffffe00853fec0", 0, REG(DIRECT_MAP), SUP(NONE), CONF(HIGH),
	  "stack-pointer", STK },
	{ "syzkaller/report/607:24", KL_ARCH_RISCV64, NOPO,
	  "[<ffffffe00008c762>] schedule_tail+0x72/0xb2",
	  "ffffffe00008c762", 0, REG(TEXT), SUP(NONE), CONF(HIGH), "frame",
	  NOFL },
	/* arm 2G/2G: both ends of the exception stack (range continuation) */
	{ "syzkaller/report/697:41", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "Exception stack(0xdf981fa8 to 0xdf981ff0)",
	  "df981ff0", 0, REG(DIRECT_MAP), SUP(NONE), CONF(HIGH),
	  "stack-pointer", STK },
	/* --- page-table entries and bases: physical, whatever the value */
	{ "syzkaller/report/551:9", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "[00000008] *pgd=9671f835, *pte=00000000, *ppte=00000000",
	  "9671f835", 0, REG(NONE), SUP(PTE), CONF(HIGH), "page-table",
	  NOFL },
	{ "syzkaller/report/554:31", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "Control: 10c5387d  Table: 89b9006a  DAC: 00000051",
	  "89b9006a", 0, REG(NONE), SUP(PTE), CONF(HIGH), "page-table",
	  NOFL },
	{ "hand-written (x86 dump_pagetable)", KL_ARCH_X86_64, NOPO,
	  "PGD 800000010a6ab067 P4D 800000010a6ab067 PUD 10a6ac067 PMD 0 ",
	  "800000010a6ab067", 1, REG(NONE), SUP(PTE), CONF(HIGH),
	  "page-table", NOFL },
	{ "hand-written (arm64 show_pte)", KL_ARCH_ARM64, NOPO,
	  "[ffff800011a2b000] pgd=100000007fff8003, p4d=100000007fff8003",
	  "100000007fff8003", 0, REG(NONE), SUP(PTE), CONF(HIGH),
	  "page-table", NOFL },
	/* a PCI BAR in a pasted lspci listing: a bus address */
	{ "hand-written (lspci -v)", KL_ARCH_ARM, NOPO,
	  "\tMemory at e0300000 (32-bit, non-prefetchable) [size=16K]",
	  "e0300000", 0, REG(NONE), SUP(PHYSICAL), CONF(HIGH), "physical",
	  NOFL },
	/* /proc/iomem rows: bounds and unit addresses are physical
	   (tests/qemu/boots/i386 and armhf-vexpress-2g sysroots) */
	{ "own boot i386 proc/iomem", KL_ARCH_I386, NOPO,
	  "fd000000-febfffff : PCI Bus 0000:00", "febfffff", 0, REG(NONE),
	  SUP(PHYSICAL), CONF(HIGH), "physical", NOFL },
	{ "own boot armhf-vexpress-2g proc/iomem", KL_ARCH_ARM,
	  UINT64_C(0x80000000), "  80008000-80cfffff : Kernel code",
	  "80008000", 0, REG(NONE), SUP(PHYSICAL), CONF(HIGH), "physical",
	  NOFL },
	{ "own boot armhf-vexpress-2g proc/iomem", KL_ARCH_ARM,
	  UINT64_C(0x80000000), "7ffb0000-7ffb0fff : dma@7ffb0000",
	  "7ffb0000", 1, REG(NONE), SUP(PHYSICAL), CONF(HIGH), "physical",
	  NOFL },
	/* ...not a layout banner's range, nor unequal widths */
	{ "hand-written (no iomem row)", KL_ARCH_I386, NOPO,
	  "c1000000-c1ffff : x", "c1000000", 0, REG(TEXT), SUP(NONE),
	  CONF(LOW), "value", NOFL },
	/* ...but arm's mm->pgd is a virtual address (pre-4.15 %p). */
	{ "hand-written (arm 3.x do_bad_area)", KL_ARCH_ARM, NOPO,
	  "pgd = c3a84000", "c3a84000", 0, REG(KERNEL), SUP(NONE),
	  CONF(LOW), "value", NOFL },
	/* an arm fault status code is no address, whatever the split */
	{ "syzkaller/report/238:10", KL_ARCH_ARM, UINT64_C(0x80000000),
	  "Internal error: Oops: 8000000d [#1] SMP ARM", "8000000d", 0,
	  REG(NONE), SUP(HASH), CONF(MEDIUM), "hash", NOFL },
	/* --- context before ranges: no profile, the line says kernel --- */
	{ "syzkaller/report/554:31 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "[<802b3460>] (write_comp_data) from [<802b3668>] "
	  "(__sanitizer_cov_trace_const_cmp1+0x34/0x3c)",
	  "802b3460", 0, REG(TEXT), SUP(NONE), CONF(LOW), "frame", CTX },
	{ "syzkaller/report/554:31 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "[<802b3460>] (write_comp_data) from [<802b3668>] "
	  "(__sanitizer_cov_trace_const_cmp1+0x34/0x3c)",
	  "802b3668", 0, REG(TEXT), SUP(NONE), CONF(LOW), "frame", CTX },
	/* arm's %ps of an address it cannot name is no symbol */
	{ "syzkaller/report/239:16 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "[<80126484>] (warn_slowpath_fmt) from [<e0236b93>] (0xe0236b93)",
	  "e0236b93", 0, REG(KERNEL), SUP(NONE), CONF(LOW), "frame", CTX },
	{ "captured ppc64 proc/kallsyms (no arch known)", KL_ARCH_AUTO, NOPO,
	  "c000000000000000 T _stext", "c000000000000000", 0, REG(TEXT),
	  SUP(NONE), CONF(LOW), "kallsyms", CTX },
	{ "hand-written kallsyms module line (no arch known)", KL_ARCH_AUTO,
	  NOPO, "bf01a000 t foo_probe\t[foo]", "bf01a000", 0, REG(MODULES),
	  SUP(NONE), CONF(LOW), "kallsyms", CTX },
	{ "hand-written kallsyms line, x86_64", KL_ARCH_X86_64, NOPO,
	  "ffffffffc0a01000 t foo_init\t[foo]", "ffffffffc0a01000", 0,
	  REG(MODULES), SUP(NONE), CONF(HIGH), "kallsyms", NOFL },
	/* x86_64 per-CPU symbols are offsets, not addresses */
	{ "hand-written kallsyms per-CPU line (no arch known)", KL_ARCH_AUTO,
	  NOPO, "0000000000001000 D cpu_debug_store", "0000000000001000", 0,
	  REG(NONE), SUP(HASHED), CONF(HIGH), "hashed", NOFL },
	{ "boot/anyka-cams__dmesg.txt:26 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "    vmalloc : 0xc3000000 - 0xff000000   ( 960 MB)", "c3000000",
	  0, REG(VMALLOC), SUP(NONE), CONF(LOW), "layout", CTX },
	{ "boot/anyka-cams__dmesg.txt:29 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "      .text : 0xc0008000 - 0xc0379000   (3524 kB)", "c0379000",
	  0, REG(TEXT), SUP(NONE), CONF(LOW), "layout", CTX },
	{ "hand-written ppc32 banner (no arch known)", KL_ARCH_AUTO, NOPO,
	  "  * 0xf7fdf000..0xf7fff000  : fixmap", "f7fdf000", 0,
	  REG(FIXMAP), SUP(NONE), CONF(LOW), "layout", CTX },
	{ "syzkaller/report/549:20 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "Exception stack(0x814fbfb0 to 0x814fbff8)", "814fbff8", 0,
	  REG(DIRECT_MAP), SUP(NONE), CONF(LOW), "stack-pointer", STK | CTX },
	{ "syzkaller/report/551:18 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "pc : [<8054b7c0>]    lr : [<8054b7b0>]    psr: 40000013",
	  "8054b7b0", 0, REG(KERNEL), SUP(NONE), CONF(LOW), "pc", CTX },
	/* ...a user-mode psr says nothing */
	{ "hand-written arm user fault (no arch known)", KL_ARCH_AUTO, NOPO,
	  "pc : [<76f4c5d4>]    lr : [<76f4c5c0>]    psr: 60000010",
	  "76f4c5d4", 0, REG(NONE), SUP(NOT_KERNEL), CONF(HIGH),
	  "not-kernel", NOFL },
	/* ...nor a register or a fault address alone */
	{ "syzkaller/report/551:22 (no arch known)", KL_ARCH_AUTO, NOPO,
	  "r3 : 00000000  r2 : 00040000  r1 : cb584000  r0 : 00000005",
	  "cb584000", 0, REG(NONE), SUP(NOT_KERNEL), CONF(HIGH),
	  "not-kernel", NOFL },
	{ "syzkaller/report/676 (i386 selector, no arch known)", KL_ARCH_AUTO,
	  NOPO, "EIP: 0060:[<c10ab9e4>] EFLAGS: 00010246 CPU: 0",
	  "c10ab9e4", 0, REG(KERNEL), SUP(NONE), CONF(LOW), "pc", CTX },
	/* arm64 sp: a vmapped stack in the shared window */
	{ "syzkaller/guilty/59:20", KL_ARCH_ARM64, NOPO,
	  "sp : ffff80001394b9c0",
	  "ffff80001394b9c0", 0, REG(VMALLOC), SUP(NONE), CONF(HIGH),
	  "stack-pointer", STK | ANC },
};

/* Find the nth occurrence of tok in msg; fill the context. */
static void
make_ctx(const struct tcase *t, struct kl_ctx *c, uint64_t *v)
{
	const char *p = t->msg;
	unsigned i;

	for (i = 0; ; i++) {
		p = strstr(p, t->tok);
		assert_non_null(p);
		if (i == t->nth)
			break;
		p++;
	}
	memset(c, 0, sizeof(*c));
	c->msg = (const uint8_t *)t->msg;
	c->len = strlen(t->msg);
	c->tok = (size_t)(p - t->msg);
	c->toklen = strlen(t->tok);
	c->prefix = c->tok >= 2 && p[-2] == '0' && (p[-1] | 0x20) == 'x';
	c->msg_head = strstr(t->src, "(window)") == NULL;
	assert_int_equal(kl_hexval((const uint8_t *)p, c->toklen, v), 0);
}

/* The severity the brief assigns to a region. */
static enum kl_severity
sev_of(enum kl_region r)
{
	switch (r) {
	case KL_REGION_NONE:
		return (KL_SEV_NONE);
	case KL_REGION_TEXT:
	case KL_REGION_MODULES:
	case KL_REGION_KERNEL:
		return (KL_SEV_HIGH);
	case KL_REGION_DIRECT_MAP:
	case KL_REGION_VMALLOC:
	case KL_REGION_VMEMMAP:
	case KL_REGION_KASAN_SHADOW:
		return (KL_SEV_MEDIUM);
	default:
		return (KL_SEV_LOW);
	}
}

/* Classify one case with the given anchors and check every field. */
static void
check_case(const struct tcase *t, struct kl_anchors *an)
{
	struct kl_layout l;
	struct kl_error e;
	struct kl_verdict v;
	struct kl_ctx c;
	uint64_t val;

	assert_int_equal(kl_arch_layout(t->arch, t->po, &l, &e), 0);
	make_ctx(t, &c, &val);
	memset(&v, 0xa5, sizeof(v));
	kl_classify(&l, an, &c, val, &v);
	if (v.region != t->region || v.suppressed != t->sup ||
	    v.confidence != t->conf || strcmp(v.rule, t->rule) != 0 ||
	    v.flags != t->flags)
		print_error("%s: %s: got %s/%s/%s/%s/%#x\n", t->src, t->tok,
		    kl_region_name(v.region), kl_suppress_name(v.suppressed),
		    kl_confidence_name(v.confidence), v.rule, v.flags);
	assert_int_equal(v.region, t->region);
	assert_int_equal(v.suppressed, t->sup);
	assert_int_equal(v.confidence, t->conf);
	assert_string_equal(v.rule, t->rule);
	assert_int_equal(v.flags, t->flags);
	assert_int_equal(v.severity, sev_of(t->region));
	assert_int_equal(v.arch, t->arch);
}

/* Every table case, each with no anchors. */
static void
test_cases(void **state)
{
	struct kl_anchors an;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&an, 0, sizeof(an));
		check_case(&cases[i], &an);
	}
}

/* Classify a case as the scanner does: anchors added from the verdict. */
static void
feed(const struct tcase *t, struct kl_anchors *an)
{
	struct kl_layout l;
	struct kl_error e;
	struct kl_verdict v;
	struct kl_ctx c;
	uint64_t val;

	assert_int_equal(kl_arch_layout(t->arch, t->po, &l, &e), 0);
	make_ctx(t, &c, &val);
	kl_classify(&l, an, &c, val, &v);
	if (v.suppressed == KL_SUP_NONE && (v.flags & KL_V_ANCHOR))
		kl_anchors_add(an, v.region, val);
}

/* Lines 873 and 876-879 of the Ubuntu oops, as anchors and values. */
#define UB "boot/Ubuntu-20.04-FIPS-logs__dmesg.txt"
static const struct tcase ub_rsp = { UB ":873", KL_ARCH_X86_64, NOPO,
	"RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246", "ffffa667c016fe48", 0,
	REG(VMALLOC), SUP(NONE), CONF(HIGH), "stack-pointer", STK | ANC };
static const struct tcase ub_gs = { UB ":879", KL_ARCH_X86_64, NOPO,
	"FS:  00007f6fd6733500(0000) GS:ffff993fa4e00000(0000) "
	"knlGS:0000000000000000", "ffff993fa4e00000", 0,
	REG(DIRECT_MAP), SUP(NONE), CONF(HIGH), "percpu", ANC };
#define UB_RBP_LINE "RBP: ffffa667c016fed8 R08: 0000000000000000 " \
	"R09: 0000000000000000"
#define UB_R10_LINE "R10: ffff993fa4e1c848 R11: 0000000000000000 " \
	"R12: 0000000000000000"
#define UB_R14_LINE "R13: 0000000000000000 R14: ffffa667c016fe68 " \
	"R15: 0000000000000010"

/* After the stack anchor, a shared-window value near it is vmalloc. */
static void
test_anchor_stack(void **state)
{
	static const struct tcase rbp = { UB ":876", KL_ARCH_X86_64, NOPO,
		UB_RBP_LINE, "ffffa667c016fed8", 0, REG(VMALLOC), SUP(NONE),
		CONF(MEDIUM), "register", NOFL };
	static const struct tcase rbp0 = { UB ":876", KL_ARCH_X86_64, NOPO,
		UB_RBP_LINE, "ffffa667c016fed8", 0, REG(DIRECT_MAP),
		SUP(NONE), CONF(LOW), "register", NOFL };
	struct kl_anchors an;

	(void)state;
	memset(&an, 0, sizeof(an));
	check_case(&rbp0, &an);		/* nominal window, no evidence */
	feed(&ub_rsp, &an);
	assert_int_equal(an.n[KL_REGION_VMALLOC], 1);
	assert_true(an.v[KL_REGION_VMALLOC][0] == UINT64_C(0xffffa667c0000000));
	check_case(&rbp, &an);
}

/* After the GS anchor, a value in the same cluster is direct map. */
static void
test_anchor_gs(void **state)
{
	static const struct tcase r10 = { UB ":877", KL_ARCH_X86_64, NOPO,
		UB_R10_LINE, "ffff993fa4e1c848", 0, REG(DIRECT_MAP), SUP(NONE),
		CONF(MEDIUM), "register", NOFL };
	/* 13 TB above the GS anchor: beyond the direct map's reach (RAM +
	 * 10 TB padding), so vmalloc or vmemmap: a weak guess */
	static const struct tcase rbp = { UB ":876", KL_ARCH_X86_64, NOPO,
		UB_RBP_LINE, "ffffa667c016fed8", 0, REG(VMALLOC), SUP(NONE),
		CONF(LOW), "register", NOFL };
	struct kl_anchors an;

	(void)state;
	memset(&an, 0, sizeof(an));
	feed(&ub_gs, &an);
	assert_int_equal(an.n[KL_REGION_DIRECT_MAP], 1);
	assert_true(an.v[KL_REGION_DIRECT_MAP][0] ==
	    UINT64_C(0xffff993f80000000));
	check_case(&r10, &an);
	check_case(&rbp, &an);
}

/* Both anchors, in log order: every kernel value of the dump settles. */
static void
test_anchor_both(void **state)
{
	static const struct tcase r10 = { UB ":877", KL_ARCH_X86_64, NOPO,
		UB_R10_LINE, "ffff993fa4e1c848", 0, REG(DIRECT_MAP), SUP(NONE),
		CONF(MEDIUM), "register", NOFL };
	static const struct tcase r14 = { UB ":878", KL_ARCH_X86_64, NOPO,
		UB_R14_LINE, "ffffa667c016fe68", 0, REG(VMALLOC), SUP(NONE),
		CONF(MEDIUM), "register", NOFL };
	/* the second oops of the log: a new stack in the known cluster */
	static const struct tcase rsp2 = { UB ":919", KL_ARCH_X86_64, NOPO,
		"RSP: 0018:ffffa667c017fe48 EFLAGS: 00010246",
		"ffffa667c017fe48", 0, REG(VMALLOC), SUP(NONE), CONF(HIGH),
		"stack-pointer", STK | ANC };
	/* a value without context, nearest the vmalloc anchor below it */
	static const struct tcase bare = { "hand-written", KL_ARCH_X86_64,
		NOPO, "ptr ffffa6ff00001000", "ffffa6ff00001000", 0,
		REG(VMALLOC), SUP(NONE), CONF(MEDIUM), "anchor", NOFL };
	struct kl_anchors an;

	(void)state;
	memset(&an, 0, sizeof(an));
	feed(&ub_rsp, &an);
	feed(&ub_gs, &an);
	check_case(&r10, &an);
	check_case(&r14, &an);
	check_case(&rsp2, &an);
	feed(&rsp2, &an);
	assert_int_equal(an.n[KL_REGION_VMALLOC], 1);	/* same cluster */
	check_case(&bare, &an);
}

/*
 * A KASAN kernel before v5.5 (no vmapped stacks): the stack is in the
 * first TB of the direct-map row, so it is direct map, not vmalloc.
 */
static void
test_stack_direct_map(void **state)
{
	static const struct tcase rsp = { "syzkaller/report/112:22",
		KL_ARCH_X86_64, NOPO,
		"RSP: 0018:ffff8801ca577540 EFLAGS: 00010246",
		"ffff8801ca577540", 0, REG(DIRECT_MAP), SUP(NONE), CONF(HIGH),
		"stack-pointer", STK | ANC };
	struct kl_anchors an;

	(void)state;
	memset(&an, 0, sizeof(an));
	check_case(&rsp, &an);
}

/* No context at all: the value alone decides. */
static void
test_no_context(void **state)
{
	struct kl_layout l;
	struct kl_error e;
	struct kl_verdict v;

	(void)state;
	assert_int_equal(kl_arch_layout(KL_ARCH_X86_64, 0, &l, &e), 0);
	kl_classify(&l, NULL, NULL, UINT64_C(0xffffffff81000000), &v);
	assert_int_equal(v.region, KL_REGION_TEXT);
	assert_int_equal(v.confidence, KL_CONF_MEDIUM);
	assert_string_equal(v.rule, "value");
	kl_classify(&l, NULL, NULL, UINT64_C(0x00000000645d0634), &v);
	assert_int_equal(v.suppressed, KL_SUP_HASHED);
	kl_classify(&l, NULL, NULL, UINT64_C(0xffffa667c016fe48), &v);
	assert_int_equal(v.region, KL_REGION_DIRECT_MAP);
	assert_int_equal(v.confidence, KL_CONF_LOW);
	assert_int_equal(v.flags, 0);
}

/* Anchors keep distinct 1 GiB clusters, at most KL_ANCHOR_MAX each. */
static void
test_anchors_add(void **state)
{
	struct kl_anchors an;
	unsigned i;

	(void)state;
	memset(&an, 0, sizeof(an));
	kl_anchors_add(&an, KL_REGION_VMALLOC, UINT64_C(0xffffa667c016fe48));
	kl_anchors_add(&an, KL_REGION_VMALLOC, UINT64_C(0xffffa667c017fe48));
	kl_anchors_add(&an, KL_REGION_VMALLOC, UINT64_C(0xffffa667c0000000));
	assert_int_equal(an.n[KL_REGION_VMALLOC], 1);
	assert_true(an.v[KL_REGION_VMALLOC][0] == UINT64_C(0xffffa667c0000000));
	kl_anchors_add(&an, KL_REGION_VMALLOC, UINT64_C(0xffffa667bfffffff));
	assert_int_equal(an.n[KL_REGION_VMALLOC], 2);
	assert_true(an.v[KL_REGION_VMALLOC][1] == UINT64_C(0xffffa66780000000));
	for (i = 0; i < KL_ANCHOR_MAX + 3; i++)
		kl_anchors_add(&an, KL_REGION_DIRECT_MAP,
		    UINT64_C(0xffff888000000000) + (uint64_t)i * 0x40000000);
	assert_int_equal(an.n[KL_REGION_DIRECT_MAP], KL_ANCHOR_MAX);
	assert_true(an.v[KL_REGION_DIRECT_MAP][KL_ANCHOR_MAX - 1] ==
	    UINT64_C(0xffff888000000000) + (KL_ANCHOR_MAX - 1) *
	    UINT64_C(0x40000000));
	kl_anchors_add(&an, KL_REGION_NONE, UINT64_C(0xffff888000000000));
	kl_anchors_add(&an, KL_REGION_COUNT, UINT64_C(0xffff888000000000));
	assert_int_equal(an.n[KL_REGION_NONE], 0);
	kl_anchors_add(NULL, KL_REGION_TEXT, 0);
}

/*
 * Every label and phrase of classify.c's tables (and the generic register
 * names) is found: "<label>: <text address>" gets the label's rule.  This
 * also checks that the single-word table is sorted for its first-byte index
 * and that phrase_end() knows every phrase's last word.
 */
static void
test_every_label(void **state)
{
	static const struct {
		const char	*label;
		const char	*rule;
	} want[] = {
		{ "physical address", "value" },
		{ "Physical address", "value" },
		{ "phys address", "value" },
		{ "bus address", "value" },
		{ "dma address", "value" },
		{ "DMA address", "value" },
		{ "build id", "hash" },
		{ "build-id", "hash" },
		{ "Build ID", "hash" },
		{ "prog tag", "hash" },
		{ "end trace", "hash" },
		{ "stack is", "stack-pointer" },
		{ "PC is at", "pc" },
		{ "LR is at", "pc" },
		{ "instruction address", "pc" },
		{ "opcode bytes at", "pc" },
		{ "opcode bytes at RIP", "pc" },
		{ "struct page", "struct-page" },
		{ "non-canonical address", "fault-address" },
		{ "virtual address", "fault-address" },
		{ "paging request at", "fault-address" },
		{ "dereference at", "fault-address" },
		{ "at addr", "object-address" },
		{ "of addr", "object-address" },
		{ "object at", "object-address" },
		{ "unreferenced object", "object-address" },
		{ "BADV", "fault-address" },
		{ "BadVA", "fault-address" },
		{ "BuildID", "hash" },
		{ "CFAR", "pc" },
		{ "CR0", "register" },
		{ "CR2", "fault-address" },
		{ "CR3", "register" },
		{ "CR4", "register" },
		{ "CTR", "register" },
		{ "DAR", "fault-address" },
		{ "DR0", "register" },
		{ "DR1", "register" },
		{ "DR2", "register" },
		{ "DR3", "register" },
		{ "DR6", "register" },
		{ "DR7", "register" },
		{ "EAX", "register" },
		{ "EBP", "register" },
		{ "EBX", "register" },
		{ "ECX", "register" },
		{ "EDI", "register" },
		{ "EDX", "register" },
		{ "EIP", "pc" },
		{ "EPC", "pc" },
		{ "ERA", "pc" },
		{ "ESI", "register" },
		{ "ESP", "stack-pointer" },
		{ "FS", "percpu" },
		{ "GPRS", "register" },
		{ "GS", "percpu" },
		{ "GUID", "hash" },
		{ "IP", "pc" },
		{ "LR", "pc" },
		{ "MSR", "register" },
		{ "NIP", "pc" },
		{ "ORIG_RAX", "register" },
		{ "PC", "pc" },
		{ "RAX", "register" },
		{ "RBP", "register" },
		{ "RBX", "register" },
		{ "RCX", "register" },
		{ "RDI", "register" },
		{ "RDX", "register" },
		{ "RIP", "pc" },
		{ "RSI", "register" },
		{ "RSP", "stack-pointer" },
		{ "SP", "stack-pointer" },
		{ "Stack", "stack-pointer" },
		{ "WWNN", "hash" },
		{ "WWPN", "hash" },
		{ "XER", "register" },
		{ "addr", "object-address" },
		{ "address", "fault-address" },
		{ "badaddr", "fault-address" },
		{ "build_id", "hash" },
		{ "checksum", "hash" },
		{ "crc", "hash" },
		{ "crc32", "hash" },
		{ "crc32c", "hash" },
		{ "csum", "hash" },
		{ "digest", "hash" },
		{ "epc", "pc" },
		{ "era", "pc" },
		{ "fp", "register" },
		{ "git_sha", "hash" },
		{ "gp", "register" },
		{ "guid", "hash" },
		{ "hash", "hash" },
		{ "ip", "register" },
		{ "kaddr", "object-address" },
		{ "knlGS", "percpu" },
		{ "lr", "pc" },
		{ "md5", "hash" },
		{ "page", "struct-page" },
		{ "pc", "pc" },
		{ "psr", "register" },
		{ "rIP", "pc" },
		{ "ra", "pc" },
		{ "sha", "hash" },
		{ "sha1", "hash" },
		{ "sha224", "hash" },
		{ "sha256", "hash" },
		{ "sha384", "hash" },
		{ "sha512", "hash" },
		{ "sl", "register" },
		{ "sp", "stack-pointer" },
		{ "stack", "stack-pointer" },
		{ "tp", "register" },
		{ "vaddr", "object-address" },
		{ "wwn", "hash" },
		{ "wwnn", "hash" },
		{ "wwpn", "hash" },
		{ "mem", "value" },
		{ "range", "value" },
		{ "phys", "value" },
		{ "paddr", "value" },
		{ "phys_addr", "value" },
		{ "PHYS_OFFSET", "value" },
		{ "R08", "register" },
		{ "R15", "register" },
		{ "x29", "register" },
		{ "x0", "register" },
		{ "r10", "register" },
		{ "a7", "register" },
		{ "s11", "register" },
		{ "t6", "register" },
		{ "GPR31", "register" },
		{ "$ 4", "register" },
		{ "$24", "register" },
	};
	static const struct {
		const char	*label;
		const char	*rule;
	} phys[] = {
		{ "physical address", "not-kernel" },
		{ "mem", "not-kernel" },
		{ "range", "not-kernel" },
		{ "phys", "not-kernel" },
		{ "paddr", "not-kernel" },
		{ "phys_addr", "not-kernel" },
		{ "PHYS_OFFSET", "not-kernel" },
		{ "PHYS_OFFSETS", "hashed" },
		{ "rangeX", "hashed" },
	};
	struct kl_layout l;
	struct kl_error e;
	struct kl_verdict v;
	struct kl_ctx c;
	char buf[64];
	size_t i, n;

	(void)state;
	assert_int_equal(kl_arch_layout(KL_ARCH_X86_64, 0, &l, &e), 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		n = (size_t)snprintf(buf, sizeof(buf), "%s: ffffffff81234567",
		    want[i].label);
		memset(&c, 0, sizeof(c));
		c.msg = (const uint8_t *)buf;
		c.len = n;
		c.tok = n - 16;
		c.toklen = 16;
		c.msg_head = 1;
		kl_classify(&l, NULL, &c, UINT64_C(0xffffffff81234567), &v);
		if (strcmp(v.rule, want[i].rule) != 0)
			print_error("%s: got %s\n", buf, v.rule);
		assert_string_equal(v.rule, want[i].rule);
	}
	/*
	 * The physical labels, whose rule is "value" found or not: found,
	 * a small raw value is not a hashed %p (the longest label too);
	 * a longer word is no label.
	 */
	for (i = 0; i < sizeof(phys) / sizeof(phys[0]); i++) {
		n = (size_t)snprintf(buf, sizeof(buf), "%s: 0x0000000080000000",
		    phys[i].label);
		memset(&c, 0, sizeof(c));
		c.msg = (const uint8_t *)buf;
		c.len = n;
		c.tok = n - 16;
		c.toklen = 16;
		c.prefix = 1;
		c.msg_head = 1;
		kl_classify(&l, NULL, &c, UINT64_C(0x80000000), &v);
		if (strcmp(v.rule, phys[i].rule) != 0)
			print_error("%s: got %s\n", buf, v.rule);
		assert_string_equal(v.rule, phys[i].rule);
	}
}

/* The reason names, as the output prints them. */
static void
test_suppress_names(void **state)
{
	static const char *const want[KL_SUP_COUNT] = {
		"none", "not-kernel", "hole", "hashed", "null", "err-ptr",
		"mask", "vsyscall", "poison", "uuid", "mac", "ipv6",
		"hexdump", "hash", "context-only", "constant", "page-table",
		"physical",
	};
	unsigned i;

	(void)state;
	for (i = 0; i < KL_SUP_COUNT; i++)
		assert_string_equal(kl_suppress_name((enum kl_suppress)i),
		    want[i]);
	assert_string_equal(kl_suppress_name(KL_SUP_COUNT), "unknown");
}

/* The corpus mail of the s390x WARNING the anchor cases come from. */
#define S390_WARN "mail/linux-s390/8ceeab5364cde6dbcd16621ebe1723cb5a4cf5ac.eml"

/*
 * s390x: a code address anchors its GiB; a register or bare value of the
 * same boot there is kernel (rule anchor), not a flag word.
 */
static void
test_s390_anchor(void **state)
{
	static const struct tcase psw = { S390_WARN
	    ":19", KL_ARCH_S390X, NOPO, "Krnl PSW : 0704e00180000000 "
	    "00000000b05ec33c (__netif_set_xps_queue+0x3dc/0xca8)",
	    "00000000b05ec33c", 0, REG(KERNEL), SUP(NONE), CONF(MEDIUM), "pc",
	    ANC };
	static const struct tcase gprs = { S390_WARN
	    ":21", KL_ARCH_S390X, NOPO, "Krnl GPRS: 00000000e7fb8b3f "
	    "0000000080000001 00000000b1870700 00000000b0ca1d3c",
	    "00000000b1870700", 0, REG(KERNEL), SUP(NONE), CONF(LOW), "anchor",
	    NOFL };
	static const struct tcase flag = { S390_WARN
	    ":21", KL_ARCH_S390X, NOPO, "Krnl GPRS: 00000000e7fb8b3f "
	    "0000000080000001 00000000b1870700 00000000b0ca1d3c",
	    "0000000080000001", 0, REG(NONE), SUP(CONTEXT_ONLY), CONF(LOW),
	    "context-only", NOFL };
	static const struct tcase gprs0 = { S390_WARN
	    ":21 (no anchor yet)", KL_ARCH_S390X, NOPO, "Krnl GPRS: "
	    "00000000e7fb8b3f 0000000080000001 00000000b1870700 "
	    "00000000b0ca1d3c", "00000000b1870700", 0, REG(NONE),
	    SUP(CONTEXT_ONLY), CONF(LOW), "context-only", NOFL };
	struct kl_anchors an;

	(void)state;
	memset(&an, 0, sizeof(an));
	check_case(&gprs0, &an);
	feed(&psw, &an);
	check_case(&gprs, &an);
	check_case(&flag, &an);
}

/* Every suppression reason but none is exercised by the table. */
static void
test_reasons_covered(void **state)
{
	unsigned seen[KL_SUP_COUNT];
	size_t i;

	(void)state;
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		seen[cases[i].sup]++;
	for (i = 1; i < KL_SUP_COUNT; i++) {
		if (seen[i] == 0)
			print_error("no case for %s\n",
			    kl_suppress_name((enum kl_suppress)i));
		assert_true(seen[i] > 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_anchor_stack),
		cmocka_unit_test(test_anchor_gs),
		cmocka_unit_test(test_anchor_both),
		cmocka_unit_test(test_stack_direct_map),
		cmocka_unit_test(test_no_context),
		cmocka_unit_test(test_anchors_add),
		cmocka_unit_test(test_every_label),
		cmocka_unit_test(test_s390_anchor),
		cmocka_unit_test(test_suppress_names),
		cmocka_unit_test(test_reasons_covered),
	};

	return (cmocka_run_group_tests_name("classify", tests, NULL, NULL));
}
