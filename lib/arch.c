/*
 * arch.c - architecture profiles: kernel virtual address layouts as tables.
 *
 * Every profile is one static table of struct kl_arch_region rows, sorted
 * by address and non-overlapping, each row citing the kernel document or
 * header it comes from.  Holes are the gaps between rows: a value in the
 * kernel half of the address space but in no row is a KL_SUP_HOLE, a value
 * below the kernel half (user space, non-canonical) is KL_SUP_NOT_KERNEL.
 * A row whose region is KL_REGION_NONE marks a fixed mapping that holds no
 * secret (the x86_64 legacy vsyscall page): lookup reports it with reason
 * KL_SUP_VSYSCALL.
 *
 * Layouts change between kernel versions.  Where two versions disagree the
 * rows take the union that loses least: the wider window, region names of
 * the version that is most common in the field, and KL_AR_SHARED on rows
 * whose value alone cannot tell two regions apart.
 *
 * The 32-bit profiles (i386, arm, ppc32) are written for the default
 * PAGE_OFFSET 0xc0000000; rows marked in the profile's rel[] array move
 * with the PAGE_OFFSET given to kl_arch_layout().
 *
 * arm64 KASAN tagged pointers (SW_TAGS, HW_TAGS/MTE) carry a tag in bits
 * 63:56, e.g. 16f0000014accd90 for the linear-map address fff0000014accd90.
 * Lookup does not untag: any 64-bit word with bit 55 set and the next byte
 * all ones would then classify as kernel, and random data (hashes, stack
 * canaries, register noise) hits that about once in 256 values.  Callers
 * that have context for a tagged pointer (an arm64 register dump of a
 * KASAN kernel) call kl_arch_untag() first.
 */
#include "config.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define U64(x)		UINT64_C(x)
#define SZ_16M		U64(0x1000000)
#define DEF_PO32	U64(0xc0000000)	/* default 32-bit PAGE_OFFSET */

/* Row bounds that move with PAGE_OFFSET (32-bit profiles). */
#define REL_LO		0x1
#define REL_HI		0x2
#define REL_BOTH	(REL_LO | REL_HI)

/* Shorter names for the table columns. */
#define R_TEXT		KL_REGION_TEXT
#define R_MOD		KL_REGION_MODULES
#define R_DMAP		KL_REGION_DIRECT_MAP
#define R_VMAL		KL_REGION_VMALLOC
#define R_VMEM		KL_REGION_VMEMMAP
#define R_CEA		KL_REGION_CPU_ENTRY_AREA
#define R_ESPF		KL_REGION_ESPFIX
#define R_EFI		KL_REGION_EFI
#define R_KASAN		KL_REGION_KASAN_SHADOW
#define R_FIX		KL_REGION_FIXMAP
#define R_KERN		KL_REGION_KERNEL
#define S_HI		KL_SEV_HIGH
#define S_MED		KL_SEV_MEDIUM
#define S_LO		KL_SEV_LOW
#define F_SH		KL_AR_SHARED
#define F_RND		KL_AR_RANDOMIZED
#define F_SHR		(KL_AR_SHARED | KL_AR_RANDOMIZED)

#define DOC_X86		"Documentation/arch/x86/x86_64/mm.rst"
#define DOC_X86_IMG	"Documentation/arch/x86/x86_64/mm.rst, " \
			"arch/x86/include/asm/page_64_types.h"
#define DOC_X86_KASLR	"Documentation/arch/x86/x86_64/mm.rst, " \
			"arch/x86/mm/kaslr.c"
#define DOC_I386	"arch/x86/include/asm/pgtable_32_areas.h, " \
			"arch/x86/Kconfig"
#define DOC_ARM64	"Documentation/arch/arm64/memory.rst"
#define DOC_ARM64_H	"arch/arm64/include/asm/memory.h"
#define DOC_ARM64_OLD	"Documentation/arm64/memory.txt, " \
			"arch/arm64/include/asm/memory.h (v4.x-v5.3)"
#define DOC_ARM		"Documentation/arch/arm/memory.rst"
#define DOC_PPC_RADIX	"arch/powerpc/include/asm/book3s/64/radix.h"
#define DOC_PPC_HASH	"arch/powerpc/include/asm/book3s/64/hash.h"
#define DOC_PPC_PAGE	"arch/powerpc/include/asm/page.h"
#define DOC_PPC_NOHASH	"arch/powerpc/include/asm/nohash/64/pgtable.h"
#define DOC_RISCV	"Documentation/arch/riscv/vm-layout.rst"
#define DOC_RISCV_OLD	"arch/riscv/include/asm/pgtable.h, " \
			"arch/riscv/include/asm/page.h (v5.10-v5.12)"
#define DOC_RISCV_KASAN	"arch/riscv/include/asm/kasan.h (v5.10-v5.12)"
#define DOC_RISCV_IMG	"arch/riscv/include/asm/page.h, " \
			"arch/riscv/mm/init.c (v5.10-v5.11)"
#define DOC_MIPS	"arch/mips/include/asm/addrspace.h"
#define DOC_MIPS_PGT	"arch/mips/include/asm/pgtable-64.h"
#define DOC_RISCV32	"arch/riscv/include/asm/pgtable.h (32BIT)"
#define DOC_MIPS32	"arch/mips/include/asm/addrspace.h, " \
			"arch/mips/include/asm/mach-generic/spaces.h"
#define DOC_LOONG	"arch/loongarch/include/asm/addrspace.h"
#define DOC_LOONG_PGT	"arch/loongarch/include/asm/pgtable.h"

/*
 * x86_64 above the KASLR memory window: identical in 4- and 5-level
 * paging (mm.rst, "Identical layout ... from here on").
 */
#define X86_64_UPPER_ROWS X86_64_UPPER_A, X86_64_UPPER_B
#define X86_64_UPPER_A \
	{ U64(0xfffffe0000000000), U64(0xfffffe7fffffffff), R_CEA, S_LO, 0, \
	  "cpu_entry_area mapping", DOC_X86 }, \
	{ U64(0xffffff0000000000), U64(0xffffff7fffffffff), R_ESPF, S_LO, 0, \
	  "%esp fixup stacks (ESPFIX)", DOC_X86 }
#define X86_64_UPPER_B \
	{ U64(0xffffffef00000000), U64(0xfffffffeffffffff), R_EFI, S_LO, 0, \
	  "EFI runtime services mapping", DOC_X86 }, \
	{ U64(0xffffffff80000000), U64(0xffffffffbfffffff), R_TEXT, S_HI, \
	  F_RND, "kernel text mapping (KERNEL_IMAGE_SIZE 1 GiB with KASLR; " \
	  "modules from ffffffffa0000000 without it)", DOC_X86_IMG }, \
	{ U64(0xffffffffc0000000), U64(0xfffffffffeffffff), R_MOD, S_HI, \
	  F_RND, "module mapping space (MODULES_VADDR with KASLR)", \
	  DOC_X86_IMG }, \
	{ U64(0xffffffffff000000), U64(0xffffffffff5fffff), R_FIX, S_LO, 0, \
	  "kernel-internal fixmap range", DOC_X86 }, \
	{ U64(0xffffffffff600000), U64(0xffffffffff600fff), KL_REGION_NONE, \
	  KL_SEV_NONE, 0, "legacy vsyscall page (fixed, not a leak)", DOC_X86 }

/*
 * x86_64 4-level below the upper part.  With CONFIG_RANDOMIZE_MEMORY the
 * bases of the direct map, vmalloc and vmemmap move, in that order, inside
 * [ffff888000000000, vaddr_end = fffffe0000000000) in 1 GiB steps
 * (arch/x86/mm/kaslr.c), so a base can land in a nominal hole: a real
 * Ubuntu 5.4 oops prints RSP: 0018:ffffa667c016fe48, a vmapped stack inside
 * the nominal direct-map window.  We therefore close the holes: every row
 * from the direct map to vaddr_end is KL_AR_SHARED, each row runs up to
 * the start of the next region, and the hole below vaddr_end counts as
 * vmemmap, the last randomised region.  The KASAN shadow keeps its row
 * (KASAN turns RANDOMIZE_MEMORY off) but is shared as well, since without
 * KASAN the randomised vmemmap may sit there.  The direct-map row starts at
 * ffff880000000000, the __PAGE_OFFSET of kernels before v4.17; since then
 * the first 0.5 TB of it is the PTI LDT remap.
 */
#define X86_64_L4_LOWER_ROWS \
	{ U64(0xffff880000000000), U64(0xffffc8ffffffffff), R_DMAP, S_MED, \
	  F_SHR, "direct mapping of physical memory (page_offset_base; " \
	  "ffff880000000000 before v4.17)", DOC_X86_KASLR }, \
	{ U64(0xffffc90000000000), U64(0xffffe9ffffffffff), R_VMAL, S_MED, \
	  F_SHR, "vmalloc/ioremap space, vmapped stacks (vmalloc_base)", \
	  DOC_X86_KASLR }, \
	{ U64(0xffffea0000000000), U64(0xffffebffffffffff), R_VMEM, S_MED, \
	  F_SHR, "virtual memory map, struct page array (vmemmap_base)", \
	  DOC_X86_KASLR }, \
	{ U64(0xffffec0000000000), U64(0xfffffbffffffffff), R_KASAN, S_MED, \
	  F_SH, "KASAN shadow memory (randomised vmemmap without KASAN)", \
	  DOC_X86_KASLR }, \
	{ U64(0xfffffc0000000000), U64(0xfffffdffffffffff), R_VMEM, S_MED, \
	  F_SHR, "hole below vaddr_end, reachable by the randomised vmemmap", \
	  DOC_X86_KASLR }

/* x86_64 5-level lower part: same treatment as the 4-level one. */
#define X86_64_L5_LOWER_ROWS \
	{ U64(0xff10000000000000), U64(0xff9fffffffffffff), R_DMAP, S_MED, \
	  F_SHR, "direct mapping of physical memory (page_offset_base; LDT " \
	  "remap in its first 0.25 PB)", DOC_X86_KASLR }, \
	{ U64(0xffa0000000000000), U64(0xffd3ffffffffffff), R_VMAL, S_MED, \
	  F_SHR, "vmalloc/ioremap space, vmapped stacks (vmalloc_base)", \
	  DOC_X86_KASLR }, \
	{ U64(0xffd4000000000000), U64(0xffdeffffffffffff), R_VMEM, S_MED, \
	  F_SHR, "virtual memory map, struct page array (vmemmap_base)", \
	  DOC_X86_KASLR }

static const struct kl_arch_region x86_64_rows[] = {
	X86_64_L4_LOWER_ROWS,
	X86_64_UPPER_ROWS,
};

static const struct kl_arch_region x86_64_l5_rows[] = {
	X86_64_L5_LOWER_ROWS,
	{ U64(0xffdf000000000000), U64(0xfffffbffffffffff), R_KASAN, S_MED,
	  F_SH, "KASAN shadow memory (randomised vmemmap without KASAN)",
	  DOC_X86_KASLR },
	{ U64(0xfffffc0000000000), U64(0xfffffdffffffffff), R_VMEM, S_MED,
	  F_SHR, "hole below vaddr_end, reachable by the randomised vmemmap",
	  DOC_X86_KASLR },
	X86_64_UPPER_ROWS,
};

/*
 * The unknown 64-bit union, used when the log gives no evidence of its
 * architecture: the x86_64 4-level map from ffff800000000000 up, the
 * x86_64 5-level regions below it (its KASAN shadow clipped where the
 * arm64 linear map starts) and the arm64 48-bit linear map.  The ppc64
 * (c000...), mips64 and loongarch64 (8000.../9000...) windows are left out
 * on purpose: each covers a sixteenth or more of the 64-bit space, and
 * random 64-bit data (hashes, checksums, canaries) would hit them.  The
 * unused x86_64 hole [ffffff8000000000, ffffffef00000000) holds the
 * arm64 39-bit kernel (Android and older distribution kernels: linear
 * map, then modules and vmalloc with the KASLR image) and the riscv64
 * sv39 vmalloc and linear map: a value there is a kernel address on
 * those machines and on no x86_64.  Each hit reports the profile its row
 * comes from; that is decided by address (union_arch()).
 */
static const struct kl_arch_region union_rows[] = {
	X86_64_L5_LOWER_ROWS,
	{ U64(0xffdf000000000000), U64(0xfffeffffffffffff), R_KASAN, S_MED,
	  F_SH, "x86_64 5-level KASAN shadow memory (below the arm64 linear "
	  "map)", DOC_X86 },
	{ U64(0xffff000000000000), U64(0xffff7fffffffffff), R_DMAP, S_MED, 0,
	  "arm64 48-bit kernel logical memory map (linear map)", DOC_ARM64 },
	X86_64_L4_LOWER_ROWS,
	X86_64_UPPER_A,
	{ U64(0xffffff8000000000), U64(0xffffffbfffffffff), R_DMAP, S_MED, 0,
	  "arm64 39-bit kernel logical memory map (linear map)", DOC_ARM64 },
	{ U64(0xffffffc000000000), U64(0xffffffeeffffffff), R_VMAL, S_HI,
	  F_SH, "arm64 39-bit modules and vmalloc with the KASLR image; "
	  "riscv64 sv39 vmalloc and linear map", DOC_ARM64 },
	X86_64_UPPER_B,
};

/*
 * i386: the kernel is everything from PAGE_OFFSET.  The image sits in
 * lowmem at PAGE_OFFSET + CONFIG_PHYSICAL_START (16 MiB), and KASLR moves
 * it inside KERNEL_IMAGE_SIZE (512 MiB); lowmem holds the heap as well.
 * Above come the rest of lowmem (up to ~896 MiB), vmalloc with the
 * modules (MODULES_VADDR = VMALLOC_START), pkmap: their boundaries depend
 * on RAM size, so they are one row.  Fixmap and cpu_entry_area fill the
 * top 8 MiB; the last page is left as a hole (ERR_PTR values).
 */
static const struct kl_arch_region i386_rows[] = {
	{ U64(0xc0000000), U64(0xc0ffffff), R_DMAP, S_MED, F_SH,
	  "lowmem direct map below the kernel load address", DOC_I386 },
	{ U64(0xc1000000), U64(0xdfffffff), R_TEXT, S_HI, F_SHR,
	  "kernel image in lowmem (PAGE_OFFSET + 16 MiB, KASLR within "
	  "KERNEL_IMAGE_SIZE 512 MiB)", DOC_I386 },
	{ U64(0xe0000000), U64(0xff7fffff), R_KERN, S_HI, F_SH,
	  "lowmem, vmalloc/ioremap with the modules, pkmap (boundaries "
	  "depend on RAM size)", DOC_I386 },
	{ U64(0xff800000), U64(0xffffefff), R_FIX, S_LO, 0,
	  "fixmap, cpu_entry_area, LDT remap", DOC_I386 },
};
static const unsigned char i386_rel[] = { REL_BOTH, REL_BOTH, REL_LO, 0 };

/*
 * arm64 since v5.4 ("arm64: mm: Flip kernel VA space"): the linear map at
 * the bottom [PAGE_OFFSET, PAGE_END), then 2 GiB for modules (v6.5+; before
 * v6.5 BPF JIT, modules and the non-KASLR image at PAGE_END + 128/256 MiB),
 * then vmalloc, which holds the image and the modules under KASLR: HIGH and
 * shared.  At the top: fixmap and PCI I/O below vmemmap (v5.11-v6.8, as in
 * memory.rst), vmemmap up to -1 GiB and PCI I/O and fixmap above it (v6.9+,
 * memory.h).  The vmemmap row is their union; the 5.4-5.10 top layout
 * (vmemmap at -VMEMMAP_SIZE - 2 MiB) falls inside it too.  The KASAN
 * shadow, when enabled, is the top of the linear-map window.
 */
#define ARM64_ROWS(po, pe, pe2g, vend, fix, fixe, pci, pcie, vmm, what) \
	{ U64(po), U64(pe) - 1, R_DMAP, S_MED, 0, \
	  "kernel logical memory map (linear map" what ")", DOC_ARM64 }, \
	{ U64(pe), U64(pe2g) - 1, R_MOD, S_HI, F_SH, \
	  "modules (v6.5+); BPF JIT, modules and the non-KASLR image before", \
	  DOC_ARM64_H }, \
	{ U64(pe2g), U64(vend), R_VMAL, S_HI, F_SHR, \
	  "vmalloc, holding the kernel image and modules under KASLR", \
	  DOC_ARM64 }, \
	{ U64(fix), U64(fixe), R_FIX, S_LO, 0, \
	  "fixed mappings (v5.11-v6.8)", DOC_ARM64 }, \
	{ U64(pci), U64(pcie), R_FIX, S_LO, 0, \
	  "PCI I/O space (v5.11-v6.8)", DOC_ARM64 }, \
	{ U64(vmm), U64(0xffffffffbfffffff), R_VMEM, S_MED, 0, \
	  "vmemmap (up to -1 GiB from v6.9)", DOC_ARM64_H }, \
	{ U64(0xffffffffc0800000), U64(0xffffffffc17fffff), R_FIX, S_LO, 0, \
	  "PCI I/O space (v6.9+)", DOC_ARM64_H }, \
	{ U64(0xffffffffc1800000), U64(0xffffffffff7fffff), R_FIX, S_LO, 0, \
	  "fixed mappings (v6.9+, below FIXADDR_TOP)", DOC_ARM64_H }

static const struct kl_arch_region arm64_rows[] = {
	ARM64_ROWS(0xffff000000000000, 0xffff800000000000, 0xffff800080000000,
	    0xfffffbffefffffff, 0xfffffbfff0000000, 0xfffffbfffdffffff,
	    0xfffffbfffe800000, 0xfffffbffff7fffff, 0xfffffc0000000000,
	    "; KASAN shadow from ffff600000000000"),
};

static const struct kl_arch_region arm64_39_rows[] = {
	ARM64_ROWS(0xffffff8000000000, 0xffffffc000000000, 0xffffffc080000000,
	    0xfffffffdefffffff, 0xfffffffdf0000000, 0xfffffffdfdffffff,
	    0xfffffffdfe800000, 0xfffffffdff7fffff, 0xfffffffe00000000,
	    ", 4K pages"),
};

static const struct kl_arch_region arm64_42_rows[] = {
	ARM64_ROWS(0xfffffc0000000000, 0xfffffe0000000000, 0xfffffe0080000000,
	    0xfffffffeefffffff, 0xfffffffef0000000, 0xfffffffefdffffff,
	    0xfffffffefe800000, 0xfffffffeff7fffff, 0xffffffff00000000,
	    ", 64K pages"),
};

static const struct kl_arch_region arm64_47_rows[] = {
	ARM64_ROWS(0xffff800000000000, 0xffffc00000000000, 0xffffc00080000000,
	    0xffffff7fefffffff, 0xffffff7ff0000000, 0xffffff7ffdffffff,
	    0xffffff7ffe800000, 0xffffff7fff7fffff, 0xffffff8000000000,
	    ", 16K pages"),
};

static const struct kl_arch_region arm64_52_rows[] = {
	ARM64_ROWS(0xfff0000000000000, 0xffff800000000000, 0xffff800080000000,
	    0xfffffbffefffffff, 0xfffffbfff0000000, 0xfffffbfffdffffff,
	    0xfffffbfffe800000, 0xfffffbffff7fffff, 0xfffffc0000000000,
	    "; from ffff000000000000 on 48-bit hardware"),
};

/*
 * arm64 before v5.4, 48-bit: VA_START ffff000000000000 holds the modules
 * (128 MiB; from v5.0 the BPF JIT region first), then the image
 * (KIMAGE_VADDR = MODULES_END: _text ffff000008080000 up to v4.20,
 * ffff000010080000 in v5.0-v5.3), vmalloc (the image under KASLR, v4.6+),
 * fixmap, PCI I/O and vmemmap below PAGE_OFFSET, and the linear map in the
 * upper half.  Values are those of the v4.x boot-time layout banner.
 */
static const struct kl_arch_region arm64_pre54_rows[] = {
	{ U64(0xffff000000000000), U64(0xffff000007ffffff), R_MOD, S_HI, F_SH,
	  "modules (BPF JIT from v5.0; KASAN shadow first when enabled)",
	  DOC_ARM64_OLD },
	{ U64(0xffff000008000000), U64(0xffff000017ffffff), R_TEXT, S_HI, F_SH,
	  "kernel image at KIMAGE_VADDR (modules then image in v5.0-v5.3)",
	  DOC_ARM64_OLD },
	{ U64(0xffff000018000000), U64(0xffff7dffbffeffff), R_VMAL, S_HI,
	  F_SHR, "vmalloc, holding the kernel image and modules under KASLR",
	  DOC_ARM64_OLD },
	{ U64(0xffff7dfffe000000), U64(0xffff7dfffebfffff), R_FIX, S_LO, 0,
	  "fixed mappings", DOC_ARM64_OLD },
	{ U64(0xffff7dfffee00000), U64(0xffff7dffffdfffff), R_FIX, S_LO, 0,
	  "PCI I/O space", DOC_ARM64_OLD },
	{ U64(0xffff7e0000000000), U64(0xffff7fffffffffff), R_VMEM, S_MED, 0,
	  "vmemmap", DOC_ARM64_OLD },
	{ U64(0xffff800000000000), U64(0xffffffffffffffff), R_DMAP, S_MED, 0,
	  "kernel logical memory map (linear map, upper half)",
	  DOC_ARM64_OLD },
};

/*
 * arm (32-bit): modules 16 MiB below PAGE_OFFSET (pkmap in their top
 * 2 MiB with HIGHMEM; with KASAN its shadow sits below them), the image at
 * PAGE_OFFSET + TEXT_OFFSET (0x8000) at the bottom of the direct-mapped
 * RAM, then RAM and vmalloc (boundary at high_memory + 8 MiB), then the
 * fixed windows at the top.  No KASLR.
 */
static const struct kl_arch_region arm_rows[] = {
	{ U64(0xbf000000), U64(0xbfffffff), R_MOD, S_HI, 0,
	  "kernel modules (PAGE_OFFSET - 16 MiB; pkmap at the top with "
	  "HIGHMEM)", DOC_ARM },
	{ U64(0xc0000000), U64(0xc1ffffff), R_TEXT, S_HI, F_SH,
	  "kernel image at PAGE_OFFSET + TEXT_OFFSET, bottom of the "
	  "direct-mapped RAM", DOC_ARM },
	{ U64(0xc2000000), U64(0xff7fffff), R_KERN, S_HI, F_SH,
	  "direct-mapped RAM, then vmalloc/ioremap up to VMALLOC_END "
	  "(boundary at high_memory + 8 MiB; modules spill here with "
	  "ARM_MODULE_PLTS)", DOC_ARM },
	{ U64(0xff800000), U64(0xffbfffff), R_FIX, S_LO, 0,
	  "firmware DT blob mapping", DOC_ARM },
	{ U64(0xffc80000), U64(0xffefffff), R_FIX, S_LO, 0,
	  "fixmap mapping region", DOC_ARM },
	{ U64(0xfffe0000), U64(0xffffefff), R_FIX, S_LO, 0,
	  "TCM, vector page, cache aliasing and copy_user_page windows",
	  DOC_ARM },
};
static const unsigned char arm_rel[] = { REL_BOTH, REL_BOTH, REL_LO, 0, 0,
    0 };

/*
 * ppc64 book3s: the linear map at KERNELBASE c000000000000000 holds the
 * image at its bottom (no KASLR), then from c008000000000000 the radix
 * (and hash 64K) non-linear area: vmalloc with the modules, the I/O map,
 * vmemmap, KASAN shadow; older radix kernels swapped the I/O map and
 * vmemmap, hence shared rows.  Hash 4K puts vmalloc at c0003d0000000000,
 * inside the linear row.  Before v5.2 hash kernels used their own regions:
 * vmalloc and I/O at d000000000000000, vmemmap at f000000000000000.
 */
static const struct kl_arch_region ppc64_rows[] = {
	{ U64(0xc000000000000000), U64(0xc000000003ffffff), R_TEXT, S_HI, F_SH,
	  "kernel image at the bottom of the linear map", DOC_PPC_PAGE },
	{ U64(0xc000000004000000), U64(0xc007ffffffffffff), R_DMAP, S_MED, 0,
	  "linear map of physical memory", DOC_PPC_RADIX },
	{ U64(0xc008000000000000), U64(0xc009ffffffffffff), R_VMAL, S_HI, F_SH,
	  "vmalloc, holding the modules", DOC_PPC_RADIX },
	{ U64(0xc00a000000000000), U64(0xc00bffffffffffff), R_VMAL, S_MED, F_SH,
	  "I/O remap (vmemmap in older radix kernels)", DOC_PPC_RADIX },
	{ U64(0xc00c000000000000), U64(0xc00dffffffffffff), R_VMEM, S_MED, F_SH,
	  "vmemmap (I/O remap in older radix kernels)", DOC_PPC_RADIX },
	{ U64(0xc00e000000000000), U64(0xc00fffffffffffff), R_KASAN, S_MED,
	  F_SH, "KASAN shadow (I/O remap in older radix kernels)",
	  DOC_PPC_RADIX },
	{ U64(0xd000000000000000), U64(0xd0003fffffffffff), R_VMAL, S_HI, F_SH,
	  "vmalloc with the modules, and I/O remap (hash, before v5.2)",
	  DOC_PPC_HASH },
	{ U64(0xf000000000000000), U64(0xf0003fffffffffff), R_VMEM, S_MED, 0,
	  "vmemmap (hash, before v5.2)", DOC_PPC_HASH },
};

/*
 * ppc64 book3e (e5500/e6500): the image and linear map at c000000000000000
 * as on book3s; the non-linear area (KERN_VIRT_START) at
 * 8000000000000000 in current kernels, at c000100000000000 before.
 */
static const struct kl_arch_region ppc64e_rows[] = {
	{ U64(0x8000000000000000), U64(0x800003ffffffffff), R_VMAL, S_HI, F_SH,
	  "vmalloc, holding the modules", DOC_PPC_NOHASH },
	{ U64(0x8000040000000000), U64(0x800007ffffffffff), R_VMEM, S_MED, 0,
	  "vmemmap", DOC_PPC_NOHASH },
	{ U64(0x8000080000000000), U64(0x80000fffffffffff), R_VMAL, S_MED, 0,
	  "PIO and ioremap space", DOC_PPC_NOHASH },
	{ U64(0xc000000000000000), U64(0xc000000003ffffff), R_TEXT, S_HI, F_SH,
	  "kernel image at the bottom of the linear map", DOC_PPC_PAGE },
	{ U64(0xc000000004000000), U64(0xc0000fffffffffff), R_DMAP, S_MED, 0,
	  "linear map of physical memory", DOC_PPC_PAGE },
	{ U64(0xc000100000000000), U64(0xc0001fffffffffff), R_VMAL, S_HI, F_SH,
	  "vmalloc, vmemmap and ioremap (older kernels: KERN_VIRT_START "
	  "c000100000000000)", DOC_PPC_NOHASH },
};

/*
 * ppc32: everything from PAGE_OFFSET (KERNELBASE, the image at its
 * bottom; KASLR on BookE only).  The book3s32/8xx module window at
 * PAGE_OFFSET - 256 MiB is left out: on BookE that range is user space
 * (TASK_SIZE = PAGE_OFFSET) and would report user stacks.
 */
static const struct kl_arch_region ppc32_rows[] = {
	{ U64(0xc0000000), U64(0xc1ffffff), R_TEXT, S_HI, F_SH,
	  "kernel image at KERNELBASE, bottom of lowmem", DOC_PPC_PAGE },
	{ U64(0xc2000000), U64(0xffffefff), R_KERN, S_HI, F_SH,
	  "lowmem, vmalloc with the modules, ioremap, pkmap, fixmap",
	  DOC_PPC_PAGE },
};
static const unsigned char ppc32_rel[] = { REL_BOTH, REL_LO };

/*
 * riscv64, per vm-layout.rst.  The image and modules are the same in all
 * modes.  Before ~v5.13 the image sat in the linear map at
 * ffffffe000000000: on sv39 those values land in the direct-map row
 * (riscv64-pre5.13 below is that layout, chosen by the kernel release).
 */
#define RISCV_TOP_ROWS \
	{ U64(0xffffffff00000000), U64(0xffffffff7fffffff), R_MOD, S_HI, \
	  F_RND, "modules, BPF (anchored to the image)", DOC_RISCV }, \
	{ U64(0xffffffff80000000), U64(0xffffffffffffffff), R_TEXT, S_HI, \
	  F_RND, "kernel image (KERNEL_LINK_ADDR; KASLR from v6.6)", DOC_RISCV }

static const struct kl_arch_region riscv_39_rows[] = {
	{ U64(0xffffffc4fea00000), U64(0xffffffc4feffffff), R_FIX, S_LO, 0,
	  "fixmap", DOC_RISCV },
	{ U64(0xffffffc4ff000000), U64(0xffffffc4ffffffff), R_FIX, S_LO, 0,
	  "PCI io", DOC_RISCV },
	{ U64(0xffffffc500000000), U64(0xffffffc5ffffffff), R_VMEM, S_MED, 0,
	  "vmemmap", DOC_RISCV },
	{ U64(0xffffffc600000000), U64(0xffffffd5ffffffff), R_VMAL, S_MED, 0,
	  "vmalloc/ioremap space", DOC_RISCV },
	{ U64(0xffffffd600000000), U64(0xfffffff5ffffffff), R_DMAP, S_MED, 0,
	  "direct mapping of all physical memory (legacy image at "
	  "ffffffe000000000)", DOC_RISCV },
	{ U64(0xfffffff700000000), U64(0xfffffffeffffffff), R_KASAN, S_MED, 0,
	  "kasan", DOC_RISCV },
	RISCV_TOP_ROWS,
};

static const struct kl_arch_region riscv_48_rows[] = {
	{ U64(0xffff8d7ffea00000), U64(0xffff8d7ffeffffff), R_FIX, S_LO, 0,
	  "fixmap", DOC_RISCV },
	{ U64(0xffff8d7fff000000), U64(0xffff8d7fffffffff), R_FIX, S_LO, 0,
	  "PCI io", DOC_RISCV },
	{ U64(0xffff8d8000000000), U64(0xffff8f7fffffffff), R_VMEM, S_MED, 0,
	  "vmemmap", DOC_RISCV },
	{ U64(0xffff8f8000000000), U64(0xffffaf7fffffffff), R_VMAL, S_MED, 0,
	  "vmalloc/ioremap space", DOC_RISCV },
	{ U64(0xffffaf8000000000), U64(0xffffef7fffffffff), R_DMAP, S_MED, 0,
	  "direct mapping of all physical memory", DOC_RISCV },
	{ U64(0xffffef8000000000), U64(0xfffffffeffffffff), R_KASAN, S_MED, 0,
	  "kasan", DOC_RISCV },
	RISCV_TOP_ROWS,
};

static const struct kl_arch_region riscv_57_rows[] = {
	{ U64(0xff1bfffffea00000), U64(0xff1bfffffeffffff), R_FIX, S_LO, 0,
	  "fixmap", DOC_RISCV },
	{ U64(0xff1bffffff000000), U64(0xff1bffffffffffff), R_FIX, S_LO, 0,
	  "PCI io", DOC_RISCV },
	{ U64(0xff1c000000000000), U64(0xff1fffffffffffff), R_VMEM, S_MED, 0,
	  "vmemmap", DOC_RISCV },
	{ U64(0xff20000000000000), U64(0xff5fffffffffffff), R_VMAL, S_MED, 0,
	  "vmalloc/ioremap space", DOC_RISCV },
	{ U64(0xff60000000000000), U64(0xffdeffffffffffff), R_DMAP, S_MED, 0,
	  "direct mapping of all physical memory", DOC_RISCV },
	{ U64(0xffdf000000000000), U64(0xfffffffeffffffff), R_KASAN, S_MED, 0,
	  "kasan", DOC_RISCV },
	RISCV_TOP_ROWS,
};

/*
 * riscv64 Sv39 before v5.13 ("riscv: Move kernel mapping outside of
 * linear mapping"): CONFIG_PAGE_OFFSET ffffffe000000000 (MAXPHYSMEM_128GB),
 * KERN_VIRT_SIZE = -PAGE_OFFSET, the linear map from PAGE_OFFSET to the
 * top with the image at its bottom, and below it vmalloc (VMALLOC_SIZE =
 * KERN_VIRT_SIZE / 2, holding the modules and the BPF JIT), vmemmap
 * (1 << 32), PCI io (16 MiB) and the fixmap (PMD_SIZE); the KASAN shadow
 * from ffffffc000000000 (2^64 - 2^38, 32 GiB).  The image row is the
 * 128 MiB early mapping the image had to fit (MAX_EARLY_MAPPING_SIZE,
 * v5.7-v5.11) and is shared: the linear map goes on above the image.
 * Module code in vmalloc is told from its symbol ("[mod]") by the frame
 * rules, as on the current layouts.
 * A MAXPHYSMEM_2GB kernel (PAGE_OFFSET ffffffff80000000) is not
 * described; its code still reads as text from the frame rules.
 */
static const struct kl_arch_region riscv_pre513_rows[] = {
	{ U64(0xffffffc000000000), U64(0xffffffc7ffffffff), R_KASAN, S_MED, 0,
	  "kasan", DOC_RISCV_KASAN },
	{ U64(0xffffffcefee00000), U64(0xffffffcefeffffff), R_FIX, S_LO, 0,
	  "fixmap", DOC_RISCV_OLD },
	{ U64(0xffffffceff000000), U64(0xffffffceffffffff), R_FIX, S_LO, 0,
	  "PCI io", DOC_RISCV_OLD },
	{ U64(0xffffffcf00000000), U64(0xffffffcfffffffff), R_VMEM, S_MED, 0,
	  "vmemmap", DOC_RISCV_OLD },
	{ U64(0xffffffd000000000), U64(0xffffffdfffffffff), R_VMAL, S_MED, 0,
	  "vmalloc/ioremap space (modules and BPF too)", DOC_RISCV_OLD },
	{ U64(0xffffffe000000000), U64(0xffffffe007ffffff), R_TEXT, S_HI, F_SH,
	  "kernel image at PAGE_OFFSET, bottom of the linear map",
	  DOC_RISCV_IMG },
	{ U64(0xffffffe008000000), U64(0xffffffffffffffff), R_DMAP, S_MED, 0,
	  "linear map of physical memory (KERN_VIRT_SIZE 128 GiB)",
	  DOC_RISCV_OLD },
};

/*
 * mips64: the ISA segments.  XKPHYS is cut into its eight cache-attribute
 * windows, each 2^49 bytes of physical address (Octeon I/O uses bit 48),
 * rather than taken whole: that keeps random 64-bit data out.  Modules are
 * in CKSSEG when the kernel is linked in CKSEG0 (KBUILD_64BIT_SYM32), else
 * in XKSEG with vmalloc.
 */
#define MIPS_XKPHYS(cca, what) \
	{ U64(0x8000000000000000) | (U64(cca) << 59), \
	  (U64(0x8000000000000000) | (U64(cca) << 59)) + U64(0x1ffffffffffff), \
	  R_DMAP, S_MED, 0, "XKPHYS direct window, " what, DOC_MIPS }

static const struct kl_arch_region mips64_rows[] = {
	MIPS_XKPHYS(0, "CCA 0"),
	MIPS_XKPHYS(1, "CCA 1"),
	MIPS_XKPHYS(2, "uncached (CCA 2)"),
	MIPS_XKPHYS(3, "cached (CCA 3)"),
	MIPS_XKPHYS(4, "CCA 4"),
	MIPS_XKPHYS(5, "cached coherent (CCA 5)"),
	MIPS_XKPHYS(6, "CCA 6"),
	MIPS_XKPHYS(7, "uncached accelerated (CCA 7)"),
	{ U64(0xc000000000000000), U64(0xc000ffffffffffff), R_VMAL, S_HI, F_SH,
	  "XKSEG: vmalloc/ioremap (modules unless linked in CKSEG0)",
	  DOC_MIPS_PGT },
	{ U64(0xffffffff80000000), U64(0xffffffff9fffffff), R_TEXT, S_HI,
	  F_RND, "CKSEG0: kernel image, cached unmapped", DOC_MIPS },
	{ U64(0xffffffffa0000000), U64(0xffffffffbfffffff), R_FIX, S_LO, 0,
	  "CKSEG1: uncached window on the low 512 MiB (device registers)",
	  DOC_MIPS },
	{ U64(0xffffffffc0000000), U64(0xffffffffffbfffff), R_MOD, S_HI, 0,
	  "CKSSEG: modules (MODULE_START)", DOC_MIPS_PGT },
	{ U64(0xffffffffffc00000), U64(0xfffffffffffdffff), R_FIX, S_LO, 0,
	  "fixmap (below FIXADDR_TOP)", DOC_MIPS_PGT },
};

/*
 * mips32: the fixed segments of the 32-bit ISA (addrspace.h KSEG0..3).
 * KSEG0 (CAC_BASE) holds the image (linked at 0x80100000 or so) and the
 * cached lowmem, KSEG1 (UNCAC_BASE, IO_BASE) the uncached window on the
 * same low 512 MiB, mostly device registers.  KSEG2/KSEG3 from MAP_BASE
 * 0xc0000000 are mapped: vmalloc with the modules (32-bit kernels have no
 * MODULE_START), pkmap and the fixmap below FIXADDR_TOP 0xfffe0000
 * (mach-generic/spaces.h).
 */
static const struct kl_arch_region mips32_rows[] = {
	{ U64(0x80000000), U64(0x9fffffff), R_KERN, S_HI, 0,
	  "KSEG0: kernel image and lowmem, cached unmapped", DOC_MIPS32 },
	{ U64(0xa0000000), U64(0xbfffffff), R_FIX, S_LO, 0,
	  "KSEG1: uncached window on the low 512 MiB (device registers)",
	  DOC_MIPS32 },
	{ U64(0xc0000000), U64(0xfffdffff), R_VMAL, S_HI, F_SH,
	  "KSEG2/KSEG3 from MAP_BASE: vmalloc with the modules, pkmap, "
	  "fixmap", DOC_MIPS32 },
};

/*
 * loongarch64: the DMW direct windows in XKPRANGE (48-bit physical),
 * the image at DMW1 + 2 MiB with KASLR up to +256 MiB, and XKVRANGE from
 * vm_map_base = -(1 << vabits), i.e. ffff800000000000 or ffff000000000000,
 * holding modules, vmalloc, vmemmap, kfence and fixmap in a layout that
 * moves with vabits: one shared row.
 */
static const struct kl_arch_region loongarch64_rows[] = {
	{ U64(0x8000000000000000), U64(0x8000ffffffffffff), R_FIX, S_LO, 0,
	  "DMW0 uncached direct window (I/O)", DOC_LOONG },
	{ U64(0x9000000000000000), U64(0x900000001fffffff), R_TEXT, S_HI,
	  F_SHR, "kernel image at DMW1 + 2 MiB (KASLR up to +256 MiB), bottom "
	  "of the cached direct map", DOC_LOONG },
	{ U64(0x9000000020000000), U64(0x9000ffffffffffff), R_DMAP, S_MED, 0,
	  "DMW1 cached direct map of physical memory (PAGE_OFFSET)",
	  DOC_LOONG },
	{ U64(0xa000000000000000), U64(0xa000ffffffffffff), R_FIX, S_LO, 0,
	  "DMW2 write-combining direct window", DOC_LOONG },
	{ U64(0xffff000000000000), U64(0xfffffffffffeffff), R_VMAL, S_HI, F_SH,
	  "XKVRANGE: modules, vmalloc, vmemmap, fixmap (from vm_map_base)",
	  DOC_LOONG_PGT },
};

/*
 * riscv32 (sv32; arch/riscv/include/asm/pgtable.h, CONFIG_PAGE_OFFSET
 * 0xc0000000 for 32BIT in arch/riscv/Kconfig): the kernel virtual space
 * KERN_VIRT_SIZE is 1 GiB (512 PGD entries of 4 MiB, halved); vmalloc
 * (with the modules: MODULES_VADDR = VMALLOC_START) is the 512 MiB below
 * PAGE_OFFSET, vmemmap the 32 MiB below it, then 16 MiB of PCI I/O and
 * the 8 MiB fixmap (TASK_SIZE = FIXADDR_START).  The image is linked at
 * PAGE_OFFSET (KERNEL_LINK_ADDR), at the start of the linear map; no
 * KASLR (riscv has it on 64BIT only).
 */
static const struct kl_arch_region riscv32_rows[] = {
	{ U64(0x9c800000), U64(0x9cffffff), R_FIX, S_LO, 0,
	  "fixmap", DOC_RISCV32 },
	{ U64(0x9d000000), U64(0x9dffffff), R_FIX, S_LO, 0,
	  "PCI I/O space", DOC_RISCV32 },
	{ U64(0x9e000000), U64(0x9fffffff), R_VMEM, S_MED, 0,
	  "vmemmap", DOC_RISCV32 },
	{ U64(0xa0000000), U64(0xbfffffff), R_VMAL, S_HI, F_SH,
	  "vmalloc, holding the modules", DOC_RISCV32 },
	{ U64(0xc0000000), U64(0xc3ffffff), R_TEXT, S_HI, F_SH,
	  "kernel image at PAGE_OFFSET, the start of the linear map",
	  DOC_RISCV32 },
	{ U64(0xc4000000), U64(0xffffffff), R_DMAP, S_MED, 0,
	  "linear map of lowmem", DOC_RISCV32 },
};

/* A profile: its public description, its table and its kernel half. */
struct arch_def {
	struct kl_arch			 arch;
	const struct kl_arch_region	*rows;
	const unsigned char		*rel;	/* REL_* per row, or NULL */
	size_t				 n;
	/* lowest kernel-half address */
	uint64_t			 kstart;
	uint64_t			 kend;	 /* highest address */
};

#define ROWS(t)		(t), NULL, sizeof(t) / sizeof((t)[0])
#define ROWS_REL(t, r)	(t), (r), sizeof(t) / sizeof((t)[0])
#define NOROWS		NULL, NULL, 0
#define A64		U64(0xffffffffffffffff)
#define A32		U64(0xffffffff)

/* Profiles in enum kl_arch_id order, starting at KL_ARCH_X86_64. */
static const struct arch_def arch_defs[] = {
	{ { KL_ARCH_X86_64, "x86_64", "x86-64, 4-level paging (48-bit VA)",
	    64, 0, U64(0xffff888000000000), U64(0xffffffff81000000),
	    U64(0x200000) }, ROWS(x86_64_rows), U64(0xffff800000000000), A64 },
	{ { KL_ARCH_X86_64_L5, "x86_64-5level",
	    "x86-64, 5-level paging (57-bit VA)",
	    64, 0, U64(0xff11000000000000), U64(0xffffffff81000000),
	    U64(0x200000) }, ROWS(x86_64_l5_rows), U64(0xff00000000000000),
	  A64 },
	{ { KL_ARCH_I386, "i386",
	    "x86 32-bit; PAGE_OFFSET from VMSPLIT (default 0xc0000000)",
	    32, KL_ARCH_PAGE_OFFSET, DEF_PO32, U64(0xc1000000),
	    U64(0x200000) }, ROWS_REL(i386_rows, i386_rel), DEF_PO32, A32 },
	{ { KL_ARCH_ARM64, "arm64", "AArch64, 48-bit VA, v5.4+ layout",
	    64, 0, U64(0xffff000000000000), U64(0xffff800080000000),
	    U64(0x10000) }, ROWS(arm64_rows), U64(0xffff000000000000), A64 },
	{ { KL_ARCH_ARM64_39, "arm64-39",
	    "AArch64, 39-bit VA (4K pages, 3 levels), v5.4+ layout",
	    64, 0, U64(0xffffff8000000000), U64(0xffffffc080000000),
	    U64(0x10000) }, ROWS(arm64_39_rows), U64(0xffffff8000000000),
	  A64 },
	{ { KL_ARCH_ARM64_42, "arm64-42",
	    "AArch64, 42-bit VA (64K pages, 2 levels), v5.4+ layout",
	    64, 0, U64(0xfffffc0000000000), U64(0xfffffe0080000000),
	    U64(0x20000) }, ROWS(arm64_42_rows), U64(0xfffffc0000000000),
	  A64 },
	{ { KL_ARCH_ARM64_47, "arm64-47",
	    "AArch64, 47-bit VA (16K pages, 3 levels), v5.4+ layout",
	    64, 0, U64(0xffff800000000000), U64(0xffffc00080000000),
	    U64(0x10000) }, ROWS(arm64_47_rows), U64(0xffff800000000000),
	  A64 },
	{ { KL_ARCH_ARM64_52, "arm64-52",
	    "AArch64, 52-bit VA (LVA/LPA2), v5.4+ layout",
	    64, 0, U64(0xfff0000000000000), U64(0xffff800080000000),
	    U64(0x10000) }, ROWS(arm64_52_rows), U64(0xfff0000000000000),
	  A64 },
	{ { KL_ARCH_ARM64_PRE54, "arm64-pre5.4",
	    "AArch64, 48-bit VA, layout before v5.4 (linear map on top)",
	    64, 0, U64(0xffff800000000000), U64(0xffff000008080000),
	    U64(0x10000) }, ROWS(arm64_pre54_rows), U64(0xffff000000000000),
	  A64 },
	{ { KL_ARCH_ARM, "arm",
	    "ARM 32-bit; PAGE_OFFSET from VMSPLIT (default 0xc0000000)",
	    32, KL_ARCH_PAGE_OFFSET, DEF_PO32, U64(0xc0008000), 0 },
	  ROWS_REL(arm_rows, arm_rel), DEF_PO32 - SZ_16M, A32 },
	{ { KL_ARCH_PPC64, "ppc64", "PowerPC 64-bit Book3S (radix or hash)",
	    64, 0, U64(0xc000000000000000), U64(0xc000000000000000), 0 },
	  ROWS(ppc64_rows), U64(0xc000000000000000), A64 },
	{ { KL_ARCH_PPC64_BOOK3E, "ppc64-book3e",
	    "PowerPC 64-bit Book3E (e5500, e6500)",
	    64, 0, U64(0xc000000000000000), U64(0xc000000000000000), 0 },
	  ROWS(ppc64e_rows), U64(0x8000000000000000), A64 },
	{ { KL_ARCH_PPC32, "ppc32",
	    "PowerPC 32-bit; CONFIG_PAGE_OFFSET (default 0xc0000000)",
	    32, KL_ARCH_PAGE_OFFSET, DEF_PO32, DEF_PO32, U64(0x4000) },
	  ROWS_REL(ppc32_rows, ppc32_rel), DEF_PO32, A32 },
	{ { KL_ARCH_RISCV64, "riscv64", "RISC-V 64-bit, Sv39 paging",
	    64, 0, U64(0xffffffd600000000), U64(0xffffffff80002000),
	    U64(0x200000) }, ROWS(riscv_39_rows), U64(0xffffffc000000000),
	  A64 },
	{ { KL_ARCH_RISCV64_SV48, "riscv64-sv48", "RISC-V 64-bit, Sv48 paging",
	    64, 0, U64(0xffffaf8000000000), U64(0xffffffff80002000),
	    U64(0x200000) }, ROWS(riscv_48_rows), U64(0xffff800000000000),
	  A64 },
	{ { KL_ARCH_RISCV64_SV57, "riscv64-sv57", "RISC-V 64-bit, Sv57 paging",
	    64, 0, U64(0xff60000000000000), U64(0xffffffff80002000),
	    U64(0x200000) }, ROWS(riscv_57_rows), U64(0xff00000000000000),
	  A64 },
	{ { KL_ARCH_MIPS64, "mips64",
	    "MIPS64: XKPHYS windows, XKSEG, kernel in CKSEG0",
	    64, 0, U64(0x9800000000000000), U64(0xffffffff80100000),
	    U64(0x10000) }, ROWS(mips64_rows), U64(0x8000000000000000), A64 },
	{ { KL_ARCH_LOONGARCH64, "loongarch64",
	    "LoongArch64: DMW direct windows, XKVRANGE",
	    64, 0, U64(0x9000000000000000), U64(0x9000000000200000),
	    U64(0x10000) }, ROWS(loongarch64_rows), U64(0x8000000000000000),
	  A64 },
	{ { KL_ARCH_S390X, "s390x",
	    "s390x: separate address spaces, classified by context only",
	    64, KL_ARCH_CONTEXT_ONLY, 0, U64(0x3ffe0100000), U64(0x4000) },
	  NOROWS, 0, 0 },
	{ { KL_ARCH_SPARC64, "sparc64",
	    "SPARC64: separate address spaces, classified by context only",
	    64, KL_ARCH_CONTEXT_ONLY, U64(0xfffff80000000000), U64(0x400000),
	    0 }, NOROWS, 0, 0 },
	{ { KL_ARCH_MIPS32, "mips32",
	    "MIPS32: KSEG0 image and lowmem, KSEG1, KSEG2/3 mapped",
	    32, 0, U64(0x80000000), U64(0x80100000), 0 },
	  ROWS(mips32_rows), U64(0x80000000), A32 },
	{ { KL_ARCH_RISCV64_PRE513, "riscv64-pre5.13",
	    "RISC-V 64-bit, Sv39, before v5.13 (image in the linear map)",
	    64, 0, U64(0xffffffe000000000), U64(0xffffffe000002000), 0 },
	  ROWS(riscv_pre513_rows), U64(0xffffffc000000000), A64 },
	{ { KL_ARCH_RISCV32, "riscv32",
	    "RISC-V 32-bit, Sv32, PAGE_OFFSET 0xc0000000",
	    32, 0, DEF_PO32, DEF_PO32, 0 },
	  ROWS(riscv32_rows), U64(0x9c800000), A32 },
};

/* clang-format on */

#define NDEFS (sizeof(arch_defs) / sizeof(arch_defs[0]))
_Static_assert(NDEFS == KL_ARCH_COUNT - 1, "one profile per arch id");
#define UNION_KSTART U64(0xff00000000000000)

/* The internal description of a profile, or NULL. */
static const struct arch_def *
arch_def(enum kl_arch_id id)
{
	if ((int)id <= (int)KL_ARCH_AUTO || (size_t)id > NDEFS)
		return (NULL);
	return (&arch_defs[id - 1]);
}

/* The public profile for an id; NULL for KL_ARCH_AUTO and bad ids. */
const struct kl_arch *
kl_arch_get(enum kl_arch_id id)
{
	const struct arch_def *d;

	if ((d = arch_def(id)) == NULL)
		return (NULL);
	return (&d->arch);
}

/* The i-th profile in enum order, NULL past the end (for --list-arches). */
const struct kl_arch *
kl_arch_at(size_t i)
{
	if (i >= NDEFS)
		return (NULL);
	return (&arch_defs[i].arch);
}

/* The profile of an exact name, NULL if none ("auto" is not a profile). */
const struct kl_arch *
kl_arch_byname(const char *name)
{
	size_t i;

	if (name == NULL)
		return (NULL);
	for (i = 0; i < NDEFS; i++)
		if (strcmp(arch_defs[i].arch.name, name) == 0)
			return (&arch_defs[i].arch);
	return (NULL);
}

/* Parse a --arch value: a profile name or "auto"; -1 if unknown. */
int
kl_arch_parse(const char *name, enum kl_arch_id *id)
{
	const struct kl_arch *a;

	if (name != NULL && strcmp(name, "auto") == 0) {
		*id = KL_ARCH_AUTO;
		return (0);
	}
	if ((a = kl_arch_byname(name)) == NULL)
		return (-1);
	*id = a->id;
	return (0);
}

/* The name of a profile; "unknown" for KL_ARCH_AUTO and bad ids. */
const char *
kl_arch_name(enum kl_arch_id id)
{
	const struct arch_def *d;

	if ((d = arch_def(id)) == NULL)
		return ("unknown");
	return (d->arch.name);
}

/* Is po a PAGE_OFFSET a VMSPLIT-style kernel can have? */
static int
page_offset_ok(uint64_t po)
{
	return ((po & (SZ_16M - 1)) == 0 && po >= U64(0x40000000) &&
	    po <= DEF_PO32);
}

/* Resolve a profile (or the unknown union) for a PAGE_OFFSET into out. */
int
kl_arch_layout(enum kl_arch_id id, uint64_t page_offset, struct kl_layout *out,
    struct kl_error *err)
{
	const struct arch_def *d;
	const struct kl_arch_region *src;
	uint64_t po;
	size_t i, n;

	if (out == NULL) {
		kl_error_set(err, KL_EINVAL, 0, "no layout to fill");
		return (-1);
	}
	memset(out, 0, sizeof(*out));
	if (id == KL_ARCH_AUTO) {
		d = NULL;
		src = union_rows;
		n = sizeof(union_rows) / sizeof(union_rows[0]);
		po = 0;
	} else if ((d = arch_def(id)) == NULL) {
		kl_error_set(
		    err, KL_EINVAL, 0, "unknown architecture id %d", (int)id);
		return (-1);
	} else {
		src = d->rows;
		n = d->n;
		po = d->arch.page_offset;
	}
	if (d == NULL || (d->arch.flags & KL_ARCH_PAGE_OFFSET) == 0) {
		if (page_offset != 0) {
			kl_error_set(err, KL_EINVAL, 0,
			    "--page-offset applies "
			    "only to i386, arm and ppc32");
			return (-1);
		}
	} else if (page_offset != 0) {
		if (!page_offset_ok(page_offset)) {
			kl_error_set(err, KL_EINVAL, 0,
			    "page offset 0x%" PRIx64
			    " is not a 16 MiB-aligned value in [0x40000000, "
			    "0xc0000000]",
			    page_offset);
			return (-1);
		}
		po = page_offset;
	}
	if (n > KL_LAYOUT_MAX) {
		kl_error_set(err, KL_ELIMIT, 0,
		    "layout of %s has too many rows", kl_arch_name(id));
		return (-1);
	}
	out->arch = d != NULL ? &d->arch : NULL;
	out->page_offset = po;
	out->n = n;
	for (i = 0; i < n; i++) {
		out->row[i] = src[i];
		if (d == NULL || d->rel == NULL)
			continue;
		/* Unsigned wrap-around keeps PAGE_OFFSET - x right. */
		if (d->rel[i] & REL_LO)
			out->row[i].lo = src[i].lo - DEF_PO32 + po;
		if (d->rel[i] & REL_HI)
			out->row[i].hi = src[i].hi - DEF_PO32 + po;
	}
	return (0);
}

/* The profile a row of the unknown union comes from, by address. */
static enum kl_arch_id
union_arch(uint64_t v)
{
	if (v < U64(0xffff000000000000))
		return (KL_ARCH_X86_64_L5);
	if (v < U64(0xffff800000000000))
		return (KL_ARCH_ARM64);
	if (v >= U64(0xffffff8000000000) && v < U64(0xffffffef00000000))
		return (KL_ARCH_ARM64_39);
	return (KL_ARCH_X86_64);
}

/* The row holding v (binary search), NULL if none. */
static const struct kl_arch_region *
find_row(const struct kl_layout *l, uint64_t v)
{
	size_t lo, hi, mid;

	lo = 0;
	hi = l->n;
	while (lo < hi) { /* first row with row.lo > v */
		mid = lo + (hi - lo) / 2;
		if (l->row[mid].lo <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || v > l->row[lo - 1].hi)
		return (NULL);
	return (&l->row[lo - 1]);
}

/* Classify v in layout l; every field of hit is set. */
void
kl_arch_lookup(const struct kl_layout *l, uint64_t v, struct kl_region_hit *hit)
{
	const struct arch_def *d;
	const struct kl_arch_region *r;
	uint64_t kstart, kend;

	hit->region = KL_REGION_NONE;
	hit->severity = KL_SEV_NONE;
	hit->flags = 0;
	hit->reason = KL_SUP_NOT_KERNEL;
	hit->arch = KL_ARCH_AUTO;
	hit->row = NULL;
	if (l == NULL)
		return;
	d = l->arch != NULL ? arch_def(l->arch->id) : NULL;
	if (d != NULL) {
		hit->arch = d->arch.id;
		if (d->arch.flags & KL_ARCH_CONTEXT_ONLY) {
			hit->reason = KL_SUP_CONTEXT_ONLY;
			return;
		}
		kstart = d->rel != NULL && l->n > 0 ? l->row[0].lo : d->kstart;
		kend = d->kend;
	} else {
		kstart = UNION_KSTART;
		kend = A64;
	}
	if ((r = find_row(l, v)) == NULL) {
		if (v >= kstart && v <= kend)
			hit->reason = KL_SUP_HOLE;
		return;
	}
	if (d == NULL)
		hit->arch = union_arch(v);
	hit->row = r;
	hit->flags = r->flags;
	if (r->region == KL_REGION_NONE) {
		hit->reason = KL_SUP_VSYSCALL;
		return;
	}
	hit->region = r->region;
	hit->severity = r->severity;
	hit->reason = KL_SUP_NONE;
}

/*
 * Remove an arm64 KASAN pointer tag: bits 63:56 become ones when bit 55
 * (the TTBR1 select) is set.  Other profiles and untagged values come back
 * unchanged.  See the comment at the top of this file for when to use it.
 */
uint64_t
kl_arch_untag(enum kl_arch_id id, uint64_t v)
{
	if (id < KL_ARCH_ARM64 || id > KL_ARCH_ARM64_PRE54)
		return (v);
	if ((v & (U64(1) << 55)) == 0)
		return (v);
	return (v | U64(0xff00000000000000));
}

/* The name of a region. */
const char *
kl_region_name(enum kl_region r)
{
	static const char *const names[KL_REGION_COUNT] = {
	    "none",
	    "text",
	    "modules",
	    "direct-map",
	    "vmalloc",
	    "vmemmap",
	    "cpu-entry-area",
	    "espfix",
	    "efi",
	    "kasan-shadow",
	    "fixmap",
	    "kernel",
	    "layout",
	    "physical",
	};

	if ((unsigned)r >= KL_REGION_COUNT)
		return ("invalid");
	return (names[r]);
}

/* The name of a severity. */
const char *
kl_severity_name(enum kl_severity s)
{
	static const char *const names[KL_SEV_COUNT] = {
	    "none",
	    "low",
	    "medium",
	    "high",
	};

	if ((unsigned)s >= KL_SEV_COUNT)
		return ("invalid");
	return (names[s]);
}

/* The name of a confidence level. */
const char *
kl_confidence_name(enum kl_confidence c)
{
	static const char *const names[KL_CONF_COUNT] = {
	    "low",
	    "medium",
	    "high",
	};

	if ((unsigned)c >= KL_CONF_COUNT)
		return ("invalid");
	return (names[c]);
}

/*
 * Refine a layout with the kernel version the log gave (kver as in
 * struct kl_detect, 0 when unknown).  arm64 v5.4-v6.4 without KASLR ran
 * the image from PAGE_END + 128 MiB (5.16+, and 5.4/5.10/5.15 stable
 * with b89ddf4cca43) or + 256 MiB (before): the first 128 MiB stay
 * "modules" (BPF JIT or modules), the next 640 MiB become the image.
 */
void
kl_arch_refine(struct kl_layout *l, int kver)
{
	struct kl_arch_region *r;
	size_t i;

	if (l == NULL || l->arch == NULL || kver < 0x050400 ||
	    kver >= 0x060500 || l->n + 1 > KL_LAYOUT_MAX)
		return;
	switch (l->arch->id) {
	case KL_ARCH_ARM64:
	case KL_ARCH_ARM64_39:
	case KL_ARCH_ARM64_42:
	case KL_ARCH_ARM64_47:
	case KL_ARCH_ARM64_52:
		break;
	default:
		return;
	}
	for (i = 0; i < l->n; i++) {
		r = &l->row[i];
		if (r->region != KL_REGION_MODULES ||
		    r->hi - r->lo + 1 != U64(0x80000000))
			continue;
		memmove(r + 2, r + 1, (l->n - i - 1) * sizeof(*r));
		l->n++;
		r[1] = r[0];
		r[0].hi = r[0].lo + U64(0x8000000) - 1;
		r[0].what = "BPF JIT or modules (v5.4-v6.4)";
		r[1].lo = r[0].hi + 1;
		r[1].region = KL_REGION_TEXT;
		r[1].what = "kernel image without KASLR (v5.4-v6.4), "
		    "or modules";
		return;
	}
}
