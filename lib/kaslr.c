/*
 * kaslr.c - what one boot segment of a log tells about the kernel's
 * randomised layout: the KASLR slide and the bases of the other regions.
 * The lines are read by kaslr-line.c (kl_kaslr_line()); this file keeps
 * the evidence and the votes, and decides the slide and the verdict.
 *
 * Evidence, each kept with its line:
 *  - "Kernel Offset: 0x%lx from 0x%lx" (x86, arm64, riscv, ppc BookE
 *    panic notifiers) and "Kernel relocated by 0x%lx" (loongarch) give
 *    the slide itself; "Kernel Offset: disabled", an opt-out "KASLR
 *    disabled: 'nokaslr' on cmdline." and a "nokaslr" command line give
 *    slide 0; "KASLR disabled due to lack of seed" (randomisation failed)
 *    gives no slide but is kept as evidence;
 *  - with a symbol map, a raw address printed beside the symbol it
 *    resolves to: call-trace frames "[<ffffffff81234567>] f+0x12/0x40"
 *    (x86, arm64, arm, mips, loongarch before 4.15-ish) and powerpc's
 *    "[c...] [c...] f+0x../0x.." (the second value is the pc), and
 *    /proc/kallsyms lines "ffffffff85200000 T _text" with runtime
 *    addresses: slide = value - (link address of f + offset);
 *  - with a map, register dumps whose raw value and symbol are both
 *    printed: x86 "RIP: 0010:[<a>]  [<a>] f+0x5a/0x2e0" and "at rIP: 0xa
 *    (f+0x7/0x40)", arm "PC is at f+../.." / "LR is at ..." before
 *    "pc : [<a>]    lr : [<b>]    psr: ...", i386 "EIP is at f+.."
 *    after "EIP: 0060:[<a>]", riscv "epc : f+.." / " ra : g+.." before
 *    "epc : a ra : b sp : c";
 *  - bases printed by the kernel (kl_kaslr_base(), from the known leak
 *    sources): layout dumps, "Freeing ... memory: nK (a - b)", memory
 *    maps for the physical base;
 *  - leaked values of each region (kl_kaslr_value()): the lowest one,
 *    aligned down to the region's randomisation step, bounds its base.
 * A slide must be a multiple of the architecture's KASLR step and lie in
 * its relocation range; independent pieces must agree.  The slide with
 * the most votes wins; any other is reported as a conflict, never
 * averaged.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define GIB	(UINT64_C(1) << 30)
#define MIB	(UINT64_C(1) << 20)

/* KASLR facts of an architecture (kernel-facts.md §3.12). */
struct kinfo {
	enum kl_arch_id	 arch;
	uint64_t	 step;		/* KASLR step of the image, 0: none */
	uint64_t	 range;		/* of the slides (krange rows) */
	unsigned	 bits;		/* text entropy: log2(range / step) */
	unsigned	 near_bits;	/* left when only a raw text value is
					   known: log2(image size / step) */
	uint64_t	 data_step;	/* step of the direct map & co. */
};

/* clang-format off */
static const struct kinfo kinfos[] = {
	/* x86_64: CONFIG_PHYSICAL_ALIGN 2 MiB, image in a 1 GiB window;
	   RANDOMIZE_MEMORY moves the direct map, vmalloc and vmemmap by
	   PUD (1 GiB) steps. */
	{ KL_ARCH_X86_64, 2 * MIB, GIB, 9, 4, GIB },
	{ KL_ARCH_X86_64_L5, 2 * MIB, GIB, 9, 4, GIB },
	{ KL_ARCH_I386, 2 * MIB, 512 * MIB, 8, 4, 0 },
	/* arm64: EFI_KIMG_ALIGN 64 KiB over 2^(VA_BITS_MIN - 2). */
	{ KL_ARCH_ARM64, 64 << 10, UINT64_C(1) << 46, 30, 9, GIB },
	{ KL_ARCH_ARM64_39, 64 << 10, UINT64_C(1) << 37, 21, 9, GIB },
	{ KL_ARCH_ARM64_42, 64 << 10, UINT64_C(1) << 40, 24, 9, GIB },
	{ KL_ARCH_ARM64_47, 64 << 10, UINT64_C(1) << 45, 29, 9, GIB },
	{ KL_ARCH_ARM64_52, 64 << 10, UINT64_C(1) << 46, 30, 9, GIB },
	{ KL_ARCH_ARM64_PRE54, 64 << 10, UINT64_C(1) << 46, 30, 9, GIB },
	{ KL_ARCH_RISCV64, 2 * MIB, GIB, 9, 4, 0 },
	{ KL_ARCH_RISCV64_SV48, 2 * MIB, GIB, 9, 4, 0 },
	{ KL_ARCH_RISCV64_SV57, 2 * MIB, GIB, 9, 4, 0 },
	{ KL_ARCH_PPC32, 16 << 10, 512 * MIB, 15, 10, 0 },
	{ KL_ARCH_MIPS64, 64 << 10, GIB, 14, 9, 0 },
	{ KL_ARCH_LOONGARCH64, 64 << 10, 256 * MIB, 12, 9, 0 },
	/* s390x: THREAD_SIZE steps over the memory (entropy depends on
	   its size: not counted). */
	{ KL_ARCH_S390X, 16 << 10, 0, 0, 0, 0 },
};
/* clang-format on */

#define KV(a, b)	((a) << 16 | (b) << 8)	/* 0xMMmm00, as kver */
#define TIB		(UINT64_C(1) << 40)

/*
 * The slides a kernel release can have, from the code that draws them
 * (man/kleakscan.1, KASLR RANGES, has the same table).  A slide s of a
 * row is lo <= s < hi, a multiple of step, or below small (arm64: the
 * physical misalignment inside 2 MiB that head.S keeps in the offset
 * even without KASLR).  Releases [since, until); until 0: still.
 */
struct krange {
	enum kl_arch_id	 arch;
	int		 since;
	int		 until;
	uint64_t	 lo;
	uint64_t	 hi;
	uint64_t	 step;
	uint64_t	 small;
};

/*
 * arm64 before 6.6: arch/arm64/kernel/pi/kaslr_early.c (6.1)
 * kaslr_early_init() returns BIT(VA_BITS_MIN - 3) + (seed &
 * GENMASK(VA_BITS_MIN - 3, 0)); head.S __primary_switch clears its low
 * 21 bits and ORs in the 64 KiB-aligned misalignment: [2^(m-3),
 * 2^(m-3) + 2^(m-2)).  (arch/arm64/kernel/kaslr.c before 5.19: the same
 * middle half.)  From 6.6, "arm64: kaslr: Adjust randomization range
 * dynamically": range = (VMALLOC_END - KIMAGE_VADDR) / 2, offset range/2
 * + range * seed / 2^64, below the same top; the vmalloc area is at
 * least 15/16 of 2^(m-1) less 2 GiB of modules, so the bottom is taken
 * as 2^(m-3) * 15/16 - 1 GiB.
 */
#define A64_LO(m)	(UINT64_C(1) << ((m) - 3))
#define A64_HI(m)	(A64_LO(m) + (UINT64_C(1) << ((m) - 2)))
#define A64_LO66(m)	(A64_LO(m) / 16 * 15 - GIB)
#define A64(id, m)							\
	{ id, KV(4, 6), KV(6, 6), A64_LO(m), A64_HI(m), 64 << 10, 2 * MIB }, \
	{ id, KV(6, 6), 0, A64_LO66(m), A64_HI(m), 64 << 10, 2 * MIB }

/* clang-format off */
static const struct krange kranges[] = {
	/* arch/x86/boot/compressed/kaslr.c find_random_virt_addr():
	   CONFIG_PHYSICAL_ALIGN slots from LOAD_PHYSICAL_ADDR (16 MiB) to
	   KERNEL_IMAGE_SIZE (1 GiB; 512 MiB on i386). */
	{ KL_ARCH_X86_64, KV(3, 14), 0, 0, GIB - 14 * MIB, 2 * MIB, 0 },
	{ KL_ARCH_X86_64_L5, KV(4, 14), 0, 0, GIB - 14 * MIB, 2 * MIB, 0 },
	{ KL_ARCH_I386, KV(3, 14), 0, 0, 512 * MIB, 2 * MIB, 0 },
	A64(KL_ARCH_ARM64, 48),
	A64(KL_ARCH_ARM64_52, 48),	/* VA_BITS_MIN 48 */
	A64(KL_ARCH_ARM64_PRE54, 48),
	A64(KL_ARCH_ARM64_39, 39),
	A64(KL_ARCH_ARM64_42, 42),
	A64(KL_ARCH_ARM64_47, 47),
	/* arch/riscv/mm/init.c setup_vm(): (seed % nr_pos) * PMD_SIZE,
	   nr_pos = (PUD_SIZE - kernel size) / PMD_SIZE. */
	{ KL_ARCH_RISCV64, KV(6, 6), 0, 0, GIB, 2 * MIB, 0 },
	{ KL_ARCH_RISCV64_SV48, KV(6, 6), 0, 0, GIB, 2 * MIB, 0 },
	{ KL_ARCH_RISCV64_SV57, KV(6, 6), 0, 0, GIB, 2 * MIB, 0 },
	/* arch/powerpc/mm/nohash/kaslr_booke.c kaslr_choose_location():
	   round_down(offset, SZ_16K) inside linear_sz <= 512 MiB. */
	{ KL_ARCH_PPC32, KV(5, 5), 0, 0, 512 * MIB, 16 << 10, 0 },
	/* arch/mips/kernel/relocate.c determine_relocation_address():
	   (random << 16) & (RANDOMIZE_BASE_MAX_OFFSET - 1), at most 1 GiB
	   on 64-bit, plus the image length when below it. */
	{ KL_ARCH_MIPS64, KV(4, 7), 0, 0, GIB + 256 * MIB, 64 << 10, 0 },
	/* arch/loongarch/kernel/relocate.c determine_relocation_address():
	   the same draw, RANDOMIZE_BASE_MAX_OFFSET at most 256 MiB. */
	{ KL_ARCH_LOONGARCH64, KV(6, 3), 0, 0, 512 * MIB, 64 << 10, 0 },
	/* arch/s390/boot/kaslr.c get_random_base() (6.1): a THREAD_SIZE
	   aligned place in the memory below ident_map_size; startup.c
	   __kaslr_offset = random_lma - default_lma. */
	{ KL_ARCH_S390X, KV(5, 2), 0, 0, 4 * TIB, 16 << 10, 0 },
};
/* clang-format on */

/* The KASLR facts of arch; a no-KASLR entry for the others. */
static const struct kinfo *
kinfo(enum kl_arch_id arch)
{
	static const struct kinfo none = { KL_ARCH_AUTO, 0, 0, 0, 0, 0 };
	size_t i;

	for (i = 0; i < sizeof(kinfos) / sizeof(kinfos[0]); i++)
		if (kinfos[i].arch == arch)
			return (&kinfos[i]);
	return (&none);
}

/*
 * Does a row of arch hold s for release kver (0: any release)?  Returns
 * 1 yes, 0 no, -1 when no row applies (no KASLR: the arch has none, or
 * the release predates it).
 */
static int
in_krange(enum kl_arch_id arch, int kver, uint64_t s)
{
	const struct krange *r;
	size_t i;
	int any = 0;

	for (i = 0; i < sizeof(kranges) / sizeof(kranges[0]); i++) {
		r = &kranges[i];
		if (r->arch != arch || (kver != 0 && (kver < r->since ||
		    (r->until != 0 && kver >= r->until))))
			continue;
		any = 1;
		if (s % r->step == 0 && ((s >= r->lo && s < r->hi) ||
		    s < r->small))
			return (1);
	}
	return (any ? 0 : -1);
}

/* Can the kernel release kver of arch have slide s?  (kl_kaslr.h) */
int
kl_kaslr_range_ok(enum kl_arch_id arch, int kver, uint64_t s)
{
	int r = in_krange(arch, kver, s);

	return (r < 0 ? s == 0 : r);
}

/* Start the evidence of a boot segment. */
void
kl_kaslr_init(struct kl_kaslr *k, enum kl_arch_id arch,
    const struct kl_symtab *map)
{
	memset(k, 0, sizeof(*k));
	k->arch = arch;
	kl_kaslr_set_map(k, map);
}

static void	unvote(struct kl_kaslr *, uint64_t);

/*
 * An i386 segment takes back what "Kernel Offset: disabled" read before
 * its arch was known said (kaslr_off() in kaslr-line.c): its vote for
 * slide 0, its evidence, and KASLR off unless another line said so.
 */
static void
i386_offset_line(struct kl_kaslr *k)
{
	size_t i, j;
	unsigned n;

	for (n = 0; n < k->off_x86; n++)
		unvote(k, 0);
	k->off -= (int)k->off_x86;
	k->nev_total -= k->off_x86;
	for (i = 0; i < k->nev;) {
		for (n = 0; n < k->off_x86; n++)
			if (k->ev[i].kind == KL_EV_KASLR_OFF &&
			    k->ev[i].line == k->off_x86_line[n])
				break;
		if (n == k->off_x86) {
			i++;
			continue;
		}
		for (j = i; j + 1 < k->nev; j++)
			k->ev[j] = k->ev[j + 1];
		k->nev--;
	}
}

/*
 * The architecture became known (after init, with --arch auto).  A text
 * base the kernel printed before (a layout banner read while the arch
 * was undecided) votes now, against the profile's link-time base.
 */
void
kl_kaslr_set_arch(struct kl_kaslr *k, enum kl_arch_id arch)
{
	const struct kl_arch *a;
	uint64_t v = k->exact[KL_REGION_TEXT];
	int late;

	late = k->arch == KL_ARCH_AUTO && arch != KL_ARCH_AUTO &&
	    (k->has_exact & (1u << KL_REGION_TEXT)) &&
	    (k->map == NULL || kl_sym_text(k->map) == 0);
	if (k->arch == KL_ARCH_AUTO && arch == KL_ARCH_I386)
		i386_offset_line(k);
	k->off_x86 = 0;
	k->arch = arch;
	if (late && (a = kl_arch_get(arch)) != NULL && a->text_base != 0 &&
	    v >= a->text_base)
		(void)kl_kaslr_vote(k, v - a->text_base);
}

/* The symbol map to use from now on (NULL for none). */
void
kl_kaslr_set_map(struct kl_kaslr *k, const struct kl_symtab *map)
{
	k->map = map;
	k->img_text = k->img_end = 0;
	if (map == NULL)
		return;
	k->img_text = kl_sym_text(map);
	if (!kl_sym_find(map, "_end", &k->img_end) || k->img_end <=
	    k->img_text)
		k->img_end = 0;
}

/* Is c a decimal digit? */
static int
isdig(char c)
{
	return (c >= '0' && c <= '9');
}

/* PAGE_OFFSET given for the run (--page-offset; 0: the profile's). */
void
kl_kaslr_set_page_offset(struct kl_kaslr *k, uint64_t po)
{
	k->page_offset = po;
}

/*
 * The kernel release of the segment ("6.1.0-57-arm64", from its banner
 * or its map; NULL: not known): picks the slide ranges of that release.
 */
void
kl_kaslr_set_release(struct kl_kaslr *k, const char *release)
{
	unsigned long a = 0, b = 0;
	const char *p = release;

	k->kver = 0;
	if (p == NULL || !isdig(*p))
		return;
	while (isdig(*p) && a < 256)
		a = a * 10 + (unsigned long)(*p++ - '0');
	if (*p++ != '.' || !isdig(*p))
		return;
	while (isdig(*p) && b < 256)
		b = b * 10 + (unsigned long)(*p++ - '0');
	if (a >= 2 && a < 256 && b < 256)
		k->kver = KV((int)a, (int)b);
}

/* Keep one piece of evidence (the first KL_EVIDENCE_MAX of them). */
void
kl_kaslr_keep(struct kl_kaslr *k, uint64_t line, enum kl_evidence_kind kind,
    enum kl_region region, uint64_t value)
{
	struct kl_evidence *e;

	k->nev_total++;
	if (k->nev >= KL_EVIDENCE_MAX)
		return;
	e = &k->ev[k->nev++];
	e->line = line;
	e->kind = kind;
	e->region = region;
	e->value = value;
}

/*
 * Can s be a slide of the architecture (and release, when known)?
 * While the architecture is not known yet, any page-aligned value below
 * 2^47 (arm64's 96 TiB) can; kl_kaslr_slide() checks again.
 */
static int
valid(const struct kl_kaslr *k, uint64_t s)
{
	if (k->arch == KL_ARCH_AUTO)
		return (s % 4096 == 0 && s < (UINT64_C(1) << 47));
	return (kl_kaslr_range_ok(k->arch, k->kver, s));
}

/*
 * Count a vote for slide s; returns 0, or -1 when s is impossible.  A
 * slide the kernel stated itself (stated: "Kernel Offset:", "Kernel
 * relocated by") counts even outside the modelled range: the verdict
 * reports the disagreement as a conflict.
 */
int
kl_kaslr_vote_as(struct kl_kaslr *k, uint64_t s, int stated)
{
	size_t i;

	if (!stated && !valid(k, s))
		return (-1);
	for (i = 0; i < k->nslides; i++)
		if (k->slide[i] == s) {
			k->votes[i]++;
			k->stated[i] |= stated != 0;
			return (0);
		}
	if (k->nslides < KL_SLIDES_MAX) {
		k->slide[k->nslides] = s;
		k->stated[k->nslides] = stated != 0;
		k->votes[k->nslides++] = 1;
	}
	return (0);
}

/* Count a vote for slide s; returns 0, or -1 when s is impossible. */
int
kl_kaslr_vote(struct kl_kaslr *k, uint64_t s)
{
	return (kl_kaslr_vote_as(k, s, 0));
}

/*
 * A slide the caller knows from outside the segment's lines (a captured
 * system's kallsyms read with its map: KL_EV_CAPTURE): a vote, kept as
 * evidence of kind at line.  Returns 0, or -1 when s is impossible.
 */
int
kl_kaslr_given(struct kl_kaslr *k, uint64_t line, enum kl_evidence_kind kind,
    uint64_t s)
{
	if (kl_kaslr_vote(k, s) == -1)
		return (-1);
	kl_kaslr_keep(k, line, kind, KL_REGION_TEXT, s);
	return (0);
}

/* Take back a vote for slide s. */
static void
unvote(struct kl_kaslr *k, uint64_t s)
{
	size_t i;

	for (i = 0; i < k->nslides; i++)
		if (k->slide[i] == s) {
			if (--k->votes[i] > 0)
				return;
			k->nslides--;
			memmove(&k->slide[i], &k->slide[i + 1],
			    (k->nslides - i) * sizeof(k->slide[0]));
			memmove(&k->votes[i], &k->votes[i + 1],
			    (k->nslides - i) * sizeof(k->votes[0]));
			memmove(&k->stated[i], &k->stated[i + 1],
			    (k->nslides - i) * sizeof(k->stated[0]));
			return;
		}
}

/* Is arch one of the arm64 profiles? */
int
kl_kaslr_arm64(enum kl_arch_id arch)
{
	return (arch >= KL_ARCH_ARM64 && arch <= KL_ARCH_ARM64_PRE54);
}

/* A leaked (not suppressed) value of region: bounds the region's base. */
void
kl_kaslr_value(struct kl_kaslr *k, uint64_t line, enum kl_region region,
    uint64_t v)
{
	if (region <= KL_REGION_NONE || region >= KL_REGION_COUNT)
		return;
	if (k->seen[region] == 0 || v < k->low[region]) {
		if (k->seen[region] == 0)
			kl_kaslr_keep(k, line, KL_EV_VALUE, region, v);
		k->low[region] = v;
	}
	k->seen[region]++;
}

/* Was evidence of this kind for this region kept already? */
static int
kept(const struct kl_kaslr *k, enum kl_evidence_kind kind,
    enum kl_region region)
{
	size_t i;

	for (i = 0; i < k->nev; i++)
		if (k->ev[i].kind == kind && k->ev[i].region == region)
			return (1);
	return (0);
}

/*
 * A value a known leak source prints, of kind (layout dump, freed
 * range, memory map, ...): exact, it is the base of region itself
 * ("modules : 0xbf000000 - 0xc0000000", ".text @ 0x9000000003710000";
 * of the image's sections, the lowest start: arm 2.6.36 prints .init
 * before .text), else a value inside the region that bounds its base as
 * leaked values do.  The first line of each kind and region is kept as
 * evidence.  An exact text base gives the slide when the link-time text
 * base is known (the map's _text, else the architecture's default).
 */
void
kl_kaslr_base(struct kl_kaslr *k, uint64_t line, enum kl_evidence_kind kind,
    enum kl_region region, uint64_t v, int exact)
{
	const struct kl_arch *a;
	uint64_t link;
	unsigned bit = 1u << region;

	if (region <= KL_REGION_NONE || region >= KL_REGION_COUNT)
		return;
	if (!exact) {
		if (!kept(k, kind, region))
			kl_kaslr_keep(k, line, kind, region, v);
		if (k->seen[region] == 0 || v < k->low[region])
			k->low[region] = v;
		k->seen[region]++;
		return;
	}
	if ((k->has_exact & bit) && v >= k->exact[region])
		return;
	if (region == KL_REGION_TEXT)
		link = k->map != NULL && kl_sym_text(k->map) != 0 ?
		    kl_sym_text(k->map) : (a = kl_arch_get(k->arch)) != NULL ?
		    a->text_base : 0;
	else
		link = 0;
	/* A lower section start replaces the base, and its vote. */
	if ((k->has_exact & bit) && link != 0 && k->exact[region] >= link)
		unvote(k, k->exact[region] - link);
	k->has_exact |= bit;
	k->exact[region] = v;
	kl_kaslr_keep(k, line, kind, region, v);
	if (link != 0 && v >= link)
		(void)kl_kaslr_vote(k, v - link);
}

/*
 * Has the architecture (for the release, when known) no KASLR at all?
 * Then, with a map, the image is at its link address by construction.
 */
static int
no_kaslr(const struct kl_kaslr *k)
{
	if (k->arch == KL_ARCH_AUTO)
		return (0);
	return (in_krange(k->arch, k->kver, 0) < 0);
}

/*
 * The index of the winning slide: the most votes among the possible
 * ones and those the kernel stated (a stated one wins a tie); SIZE_MAX
 * when none.
 */
static size_t
best_slide(const struct kl_kaslr *k)
{
	size_t i, best = SIZE_MAX;

	for (i = 0; i < k->nslides; i++) {
		if (!k->stated[i] && !valid(k, k->slide[i]))
			continue;
		if (best == SIZE_MAX || k->votes[i] > k->votes[best] ||
		    (k->votes[i] == k->votes[best] && k->stated[i] &&
		    !k->stated[best]))
			best = i;
	}
	return (best);
}

/*
 * The slide of the segment, if the evidence gives one: 1, else 0.  On
 * an architecture without KASLR, with a map, the slide is 0.
 */
int
kl_kaslr_slide(const struct kl_kaslr *k, uint64_t *slide)
{
	size_t best = best_slide(k);

	if (best == SIZE_MAX) {
		if (k->map == NULL || !no_kaslr(k))
			return (0);
		*slide = 0;
		return (1);
	}
	*slide = k->slide[best];
	return (1);
}

/*
 * Symbolise a runtime text address v with the map and the slide, as %pS
 * prints it.  Returns the length written, or 0 when it cannot.
 */
int
kl_kaslr_symbol(const struct kl_kaslr *k, uint64_t v, char *buf, size_t sz)
{
	struct kl_sym_hit h;
	uint64_t s;
	int n;

	if (k->map == NULL || !kl_kaslr_slide(k, &s) || v < s)
		return (0);
	if (!kl_sym_lookup(k->map, v - s, &h) || h.module != NULL)
		return (0);
	n = kl_sym_format(&h, buf, sz);
	return (n > 0 && (size_t)n < sz ? n : 0);
}

/*
 * 32-bit arm: a value the scanner put in the direct map or the shared
 * kernel row ("Exception stack(0xf080dfa8 to 0xf080dff0)") lies in
 * vmalloc when the log's Memory: line puts lowmem's end below it:
 * vmalloc starts 8 MiB above high_memory (VMALLOC_OFFSET) and ends at
 * VMALLOC_END 0xff800000 (Documentation/arch/arm/memory.rst).
 */
static enum kl_region
arm_vmalloc(const struct kl_kaslr *k, uint64_t v, enum kl_region region)
{
	const struct kl_arch *a;
	uint64_t po = k->page_offset;

	if (k->lowmem == 0 || (region != KL_REGION_DIRECT_MAP &&
	    region != KL_REGION_KERNEL))
		return (region);
	if (po == 0 && (a = kl_arch_get(KL_ARCH_ARM)) != NULL)
		po = a->page_offset;
	if (po == 0 || po + k->lowmem < po)
		return (region);
	if (v >= po + k->lowmem + 8 * MIB && v < UINT64_C(0xff800000))
		return (KL_REGION_VMALLOC);
	return (region);
}

/*
 * The region of a value v the scanner gave region, once the slide is
 * known: inside the map's [_text, _end) plus the slide it is the image
 * (text): arm64's image inside vmalloc, values s390x and sparc64 cannot
 * place by range.  On arm64 the window of 2 GiB around the image is the
 * module area: arch/arm64/kernel/kaslr.c kaslr_init() (6.1) draws
 * module_alloc_base in [_end - 2 GiB, _stext) (or [_etext - 128 MiB,
 * _stext) without RANDOMIZE_MODULE_REGION_FULL), and 6.5+ keeps modules
 * within 2 GiB of the image.  Other regions stay as they are.
 */
enum kl_region
kl_kaslr_place(const struct kl_kaslr *k, uint64_t v, enum kl_region region)
{
	uint64_t s, lo, hi;

	if (k->arch == KL_ARCH_ARM)
		return (arm_vmalloc(k, v, region));
	if (region != KL_REGION_VMALLOC && region != KL_REGION_KERNEL &&
	    region != KL_REGION_MODULES)
		return (region);
	if (k->map == NULL || k->img_text == 0 || k->img_end == 0 ||
	    !kl_kaslr_slide(k, &s))
		return (region);
	lo = k->img_text + s;
	hi = k->img_end + s;
	if (lo < k->img_text || hi < lo)
		return (region);
	if (v >= lo && v < hi)
		return (KL_REGION_TEXT);
	if (region == KL_REGION_VMALLOC && kl_kaslr_arm64(k->arch) &&
	    hi - lo < 2 * GIB && v >= hi - 2 * GIB && v < lo + 2 * GIB)
		return (KL_REGION_MODULES);
	return (region);
}

/* What the segment discloses, for the report. */
void
kl_kaslr_verdict(const struct kl_kaslr *k, struct kl_boot_verdict *v)
{
	const struct kl_arch *a = kl_arch_get(k->arch);
	const struct kinfo *ki = kinfo(k->arch);
	uint64_t s, step, link;
	size_t i;
	int r;

	memset(v, 0, sizeof(*v));
	v->arch = k->arch;
	v->kaslr_off = k->off != 0;
	v->kaslr_failed = k->failed;
	v->has_phys_offset = k->has_phys_offset;
	v->phys_offset = k->phys_offset;
	v->entropy_bits = ki->bits;
	v->nev = k->nev;
	v->nev_total = k->nev_total;
	memcpy(v->ev, k->ev, k->nev * sizeof(k->ev[0]));
	/*
	 * In line order: a line's own evidence comes as it is read, the
	 * values of its findings when the segment's architecture is
	 * decided, which may be lines later.
	 */
	for (i = 1; i < v->nev; i++) {
		struct kl_evidence e = v->ev[i];
		size_t j;

		for (j = i; j > 0 && v->ev[j - 1].line > e.line; j--)
			v->ev[j] = v->ev[j - 1];
		v->ev[j] = e;
	}
	if (kl_kaslr_slide(k, &s)) {
		v->has_slide = 1;
		v->slide = s;
		for (i = 0; i < k->nslides; i++)
			if (k->slide[i] == s) {
				v->slide_votes = k->votes[i];
				/* The kernel's word against the model. */
				if (!valid(k, s)) {
					v->conflicts++;
					v->outside = 1;
				}
			} else if (valid(k, k->slide[i]) || k->stated[i])
				v->conflicts++;
		/* The link-time _text: the panic line's, the map's, the
		   architecture's default. */
		if (k->offset_from != 0)
			link = k->offset_from;
		else if (k->map != NULL && kl_sym_text(k->map) != 0)
			link = kl_sym_text(k->map);
		else
			link = a != NULL ? a->text_base : 0;
		v->text_base = link + s;
		v->text_exact = 1;
		v->disclosed |= 1u << KL_REGION_TEXT;
		v->base[KL_REGION_TEXT] = v->text_base;
		v->entropy_bits = 0;
	}
	for (r = KL_REGION_TEXT; r < KL_REGION_COUNT; r++) {
		if (k->has_exact & (1u << r)) {
			/* The kernel printed the base itself. */
			v->disclosed |= 1u << r;
			if (r != KL_REGION_TEXT) {
				v->base[r] = k->exact[r];
				continue;
			}
			if (!v->text_exact) {
				v->text_base = v->base[r] = k->exact[r];
				v->text_exact = 1;
				v->entropy_bits = 0;
			}
			continue;
		}
		if (k->seen[r] == 0)
			continue;
		v->disclosed |= 1u << r;
		if (r == KL_REGION_TEXT) {
			if (v->text_exact)
				continue;
			/* Only raw text values: the base is near below. */
			step = ki->step != 0 ? ki->step : 4096;
			v->text_base = k->low[r] - k->low[r] % step;
			v->base[r] = v->text_base;
			if (ki->bits != 0)
				v->entropy_bits = ki->near_bits;
			continue;
		}
		step = ki->data_step != 0 ? ki->data_step : 4096;
		v->base[r] = k->low[r] - k->low[r] % step;
	}
}

/* The name of an evidence kind, for reports. */
const char *
kl_evidence_name(enum kl_evidence_kind kind)
{
	static const char *const names[] = {
		[KL_EV_KERNEL_OFFSET] = "kernel-offset",
		[KL_EV_KASLR_OFF] = "kaslr-off",
		[KL_EV_FRAME] = "frame",
		[KL_EV_KALLSYMS] = "kallsyms",
		[KL_EV_VALUE] = "value",
		[KL_EV_REGISTER] = "register",
		[KL_EV_KASLR_FAILED] = "kaslr-failed",
		[KL_EV_LAYOUT_DUMP] = "layout-dump",
		[KL_EV_FREED_RANGE] = "freed-range",
		[KL_EV_LEAK_SOURCE] = "leak-source",
		[KL_EV_MEMORY_MAP] = "memory-map",
		[KL_EV_PHYS_OFFSET] = "phys-offset",
		[KL_EV_CAPTURE] = "capture",
	};

	if ((size_t)kind >= sizeof(names) / sizeof(names[0]) ||
	    names[kind] == NULL)
		return ("unknown");
	return (names[kind]);
}
