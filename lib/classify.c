/*
 * classify.c - decide what one candidate token is.
 *
 * kl_classify() is called once per candidate token (a maximal run of 8 or
 * 16 hex digits, see candidate.c).  In order:
 *   1. value look-alikes (kl_lookalike_value(), lookalike.c): null,
 *      hashed, err-ptr, poison, mask;
 *   2. shape look-alikes from the bytes around the token
 *      (kl_lookalike_shape()): uuid, mac/ipv6, hexdump, hash;
 *   3. the region from the layout (kl_arch_lookup()): not-kernel, hole,
 *      vsyscall and context-only come from there;
 *   4. the label before the token or the shape of a frame or dump row
 *      (kl_label_context(), label.c) refines region and confidence, and
 *      in shared windows per-boot anchors (struct kl_anchors, 1 GiB
 *      clusters) do.
 * It allocates nothing, keeps no state, and looks at a bounded number of
 * bytes around the token.  When unsure it does not suppress.
 *
 * Rule ids (struct kl_verdict.rule; stable, they appear in the output):
 *
 *   value           no context: region from the value alone
 *   anchor          no context, value in a shared window: region from
 *                   the anchors
 *   register        a general register label: RAX:, R12:, x19:, r7 :,
 *                   a0 :, GPR00:, $ 4 :, Krnl GPRS:, and the later
 *                   columns of such a row
 *   stack-pointer   RSP:, ESP:, SP:, sp :, Stack: (, stack(, "stack is",
 *                   the first column of a powerpc "[sp] [ip] sym" frame
 *   pc              RIP:, EIP:, IP:, rIP:, pc :, PC:, lr :, LR:, NIP,
 *                   CFAR:, epc :, ra :, era :, "PC is at", "LR is at",
 *                   "instruction address:", "opcode bytes at"
 *   frame           a call-trace frame: [<addr>], or the ip column of
 *                   a powerpc "[sp] [ip] sym+0x1/0x2" frame
 *   percpu          GS:, knlGS:, FS: (per-CPU base in kernel mode)
 *   struct-page     page:, page=, "struct page"
 *   fault-address   CR2:, address:, "virtual address", "paging request
 *                   at", "dereference at", "non-canonical address",
 *                   badaddr:, BadVA:, BADV:, DAR:, "[addr] pgd="
 *   object-address  "at addr", "of addr", "object at", "unreferenced
 *                   object", addr=, vaddr=, kaddr=
 *   dump-row        the address column of a hex dump row, as in KASAN's
 *                   "ffff88806b2a0f00: fa fb fb ..." shadow rows
 *
 * A suppressed token carries the name of its reason as its rule
 * (kl_suppress_name(): "null", "hashed", "err-ptr", "poison", "mask",
 * "uuid", "mac", "ipv6", "hexdump", "hash", "not-kernel", "hole",
 * "vsyscall", "context-only"); the conditions are at each function.
 *
 * Confidence of a leak: outside a shared row, medium from the value alone
 * and high when the context agrees (agrees()).  In a shared row: high
 * when the context decides (context_region()), or on x86_64 when the value
 * is in the first TB of the direct map (x86_dm_zone()) and the context
 * agrees; medium from the value there or from anchors (anchor_region());
 * else low, keeping the row's nominal region.  KL_V_ANCHOR marks a 64-bit
 * verdict that context decided in a shared row: the caller adds it to the
 * anchors.  Severity follows the final region (region_sev[]).
 */
#include "config.h"

#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

/* clang-format off */
#define GIB		UINT64_C(0x40000000)
#define DM_PAD		(UINT64_C(10) << 40)	/* x86_64 direct-map padding */

/* The rule id of each enum kl_ck (label.c). */
static const char *const ck_rule[] = {
	"value", "register", "stack-pointer", "pc", "frame", "percpu",
	"struct-page", "fault-address", "object-address", "dump-row",
	"hash", "value", "kallsyms", "layout", "page-table", "physical",
};

/* Severity of a region. */
static const enum kl_severity region_sev[KL_REGION_COUNT] = {
	[KL_REGION_NONE] = KL_SEV_NONE,
	[KL_REGION_TEXT] = KL_SEV_HIGH,
	[KL_REGION_MODULES] = KL_SEV_HIGH,
	[KL_REGION_DIRECT_MAP] = KL_SEV_MEDIUM,
	[KL_REGION_VMALLOC] = KL_SEV_MEDIUM,
	[KL_REGION_VMEMMAP] = KL_SEV_MEDIUM,
	[KL_REGION_CPU_ENTRY_AREA] = KL_SEV_LOW,
	[KL_REGION_ESPFIX] = KL_SEV_LOW,
	[KL_REGION_EFI] = KL_SEV_LOW,
	[KL_REGION_KASAN_SHADOW] = KL_SEV_MEDIUM,
	[KL_REGION_FIXMAP] = KL_SEV_LOW,
	[KL_REGION_KERNEL] = KL_SEV_HIGH,
	[KL_REGION_LAYOUT] = KL_SEV_LOW,
	[KL_REGION_PHYSICAL] = KL_SEV_LOW,
};

static const char *const sup_names[KL_SUP_COUNT] = {
	[KL_SUP_NONE] = "none",
	[KL_SUP_NOT_KERNEL] = "not-kernel",
	[KL_SUP_HOLE] = "hole",
	[KL_SUP_HASHED] = "hashed",
	[KL_SUP_NULL] = "null",
	[KL_SUP_ERR_PTR] = "err-ptr",
	[KL_SUP_MASK] = "mask",
	[KL_SUP_CONSTANT] = "constant",
	[KL_SUP_VSYSCALL] = "vsyscall",
	[KL_SUP_POISON] = "poison",
	[KL_SUP_UUID] = "uuid",
	[KL_SUP_MAC] = "mac",
	[KL_SUP_IPV6] = "ipv6",
	[KL_SUP_HEXDUMP] = "hexdump",
	[KL_SUP_HASH] = "hash",
	[KL_SUP_CONTEXT_ONLY] = "context-only",
	[KL_SUP_PTE] = "page-table",
	[KL_SUP_PHYSICAL] = "physical",
};

/* The x86_64 order of the randomised regions (arch/x86/mm/kaslr.c). */
static const enum kl_region x86_ord[] = {
	KL_REGION_DIRECT_MAP, KL_REGION_VMALLOC, KL_REGION_VMEMMAP,
};

/* How context_region() came to its answer. */
#define CTX_DECIDED	0	/* the context alone: an anchor */
#define CTX_ROW		1	/* the context agrees with the row's region */
#define CTX_DERIVED	2	/* the context and an anchor or the value */

/* clang-format on */

/* Name of a suppression reason ("none" for a leak). */
const char *
kl_suppress_name(enum kl_suppress s)
{
	if ((unsigned)s >= KL_SUP_COUNT)
		return ("unknown");
	return (sup_names[s]);
}

/* Is the context kind one whose values the kernel prints raw (%lx)? */
static int
raw_printed(enum kl_ck k)
{
	switch (k) {
	case KL_CK_REG:
	case KL_CK_STACK:
	case KL_CK_PC:
	case KL_CK_PERCPU:
	case KL_CK_FAULT:
	case KL_CK_OBJECT:
	case KL_CK_PHYS:
		return (1);
	default:
		return (0);
	}
}

/* Is the profile x86_64 (RANDOMIZE_MEMORY shared windows)? */
static int
is_x86_64(enum kl_arch_id id)
{
	return (id == KL_ARCH_X86_64 || id == KL_ARCH_X86_64_L5);
}

/* Is the profile an arm64 one? */
static int
is_arm64(enum kl_arch_id id)
{
	return (id >= KL_ARCH_ARM64 && id <= KL_ARCH_ARM64_PRE54);
}

/* Is the profile a riscv64 one? */
static int
is_riscv64(enum kl_arch_id id)
{
	return ((id >= KL_ARCH_RISCV64 && id <= KL_ARCH_RISCV64_SV57) ||
	    id == KL_ARCH_RISCV64_PRE513);
}

/* Index of r in the x86_64 order direct map < vmalloc < vmemmap, or -1. */
static int
x86_order(enum kl_region r)
{
	switch (r) {
	case KL_REGION_DIRECT_MAP:
		return (0);
	case KL_REGION_VMALLOC:
		return (1);
	case KL_REGION_VMEMMAP:
		return (2);
	default:
		return (-1);
	}
}

/* How far a region reaches from its lowest address, in the layout. */
static uint64_t
region_span(const struct kl_layout *l, enum kl_region r)
{
	uint64_t span = 0, d;
	size_t i;

	if (r == KL_REGION_TEXT || r == KL_REGION_MODULES)
		return (2 * GIB); /* arm64: modules within 2 GiB of text */
	for (i = 0; i < l->n && i < KL_LAYOUT_MAX; i++) {
		if (l->row[i].region != r || l->row[i].hi < l->row[i].lo)
			continue;
		d = l->row[i].hi - l->row[i].lo;
		if (d > span)
			span = d;
	}
	return (span);
}

/* Number of anchor clusters of r (bounded by KL_ANCHOR_MAX). */
static unsigned
anchor_n(const struct kl_anchors *a, enum kl_region r)
{
	if (a == NULL)
		return (0);
	return (a->n[r] < KL_ANCHOR_MAX ? a->n[r] : KL_ANCHOR_MAX);
}

/* Lowest anchor cluster of r in *min; 0 when r has none. */
static int
anchor_min(const struct kl_anchors *a, enum kl_region r, uint64_t *min)
{
	unsigned i, n;

	if ((n = anchor_n(a, r)) == 0)
		return (0);
	*min = a->v[r][0];
	for (i = 1; i < n; i++)
		if (a->v[r][i] < *min)
			*min = a->v[r][i];
	return (1);
}

/* Does an anchor cluster of r equal cl? */
static int
anchor_has(const struct kl_anchors *a, enum kl_region r, uint64_t cl)
{
	unsigned i, n;

	n = anchor_n(a, r);
	for (i = 0; i < n; i++)
		if (a->v[r][i] == cl)
			return (1);
	return (0);
}

/*
 * On x86_64, is the cluster cl within reach of the direct map, that is
 * below the highest direct-map anchor plus 10 TB?  RANDOMIZE_MEMORY
 * (arch/x86/mm/kaslr.c) sizes the direct map as RAM rounded up to a TB
 * plus CONFIG_RANDOMIZE_MEMORY_PHYSICAL_PADDING (default 0xa, 10 TB, with
 * MEMORY_HOTPLUG as in distro kernels) and starts vmalloc after it, so
 * every vmalloc or vmemmap address lies at least 10 TB above any real
 * direct-map address; without randomisation vmalloc is 64 TB above.
 */
static int
x86_dm_reach(const struct kl_anchors *a, uint64_t cl)
{
	uint64_t max = 0;
	unsigned i, n;

	if ((n = anchor_n(a, KL_REGION_DIRECT_MAP)) == 0)
		return (0);
	for (i = 0; i < n; i++)
		if (a->v[KL_REGION_DIRECT_MAP][i] > max)
			max = a->v[KL_REGION_DIRECT_MAP][i];
	return (cl < max || cl - max < DM_PAD);
}

/*
 * On x86_64, is v in the first TB of the direct-map row?  Nothing else
 * can be there: RANDOMIZE_MEMORY starts the direct map at or above the
 * row's start (page_offset_base; ffff880000000000 before v4.17,
 * ffff888000000000 since) and vmalloc after at least one TB of it (the
 * direct map is sized in whole TBs), and without randomisation the direct
 * map is there anyway.  This decides most direct-map values of a machine
 * with less than a TB of RAM by value alone.
 */
static int
x86_dm_zone(const struct kl_region_hit *h, uint64_t v)
{
	return (h->row != NULL && h->row->region == KL_REGION_DIRECT_MAP &&
	    v >= h->row->lo && v - h->row->lo < (UINT64_C(1) << 40));
}

/*
 * Region of a value in a shared 64-bit window from the anchors; NONE
 * when they cannot tell.  *conf is MEDIUM, or LOW for a weak guess.
 *   1. x86_64: within the direct map's reach (x86_dm_reach()), the
 *      direct map; a vmalloc anchor there came from a direct-map stack.
 *   2. The value's 1 GiB cluster is an anchor cluster: that region (none
 *      when two regions claim it, as arm64 v5.4-v6.4 without KASLR keeps
 *      image, modules and the first vmalloc pages in one GiB).
 *   3. x86_64.  RANDOMIZE_MEMORY (arch/x86/mm/kaslr.c) keeps the order
 *      direct map < vmalloc < vmemmap and puts each base on a 1 GiB
 *      boundary after the end of the previous region, so no cluster
 *      holds two regions and a region starts at or below its lowest
 *      anchor.  The value belongs to the region r of the highest lowest-
 *      anchor at or below it, if within r's reach (10 TB for the direct
 *      map, see x86_dm_reach(); the row size for vmalloc and vmemmap).
 *      Beyond it, the value is in a region above r, up to and including
 *      the next anchored one: when that is a single region, it; else a
 *      LOW guess, the nominal region if it is one of them, else the
 *      next.  Below every anchor, or in the KASAN shadow row (KASAN
 *      kernels are not randomised): no answer.
 *   4. Elsewhere (arm64): the nearest anchor within its region's reach
 *      (2 GiB for text and modules, the row size otherwise).
 */
static enum kl_region
anchor_region(const struct kl_layout *l, const struct kl_anchors *a,
    const struct kl_region_hit *h, uint64_t v, enum kl_confidence *conf)
{
	enum kl_region r, best = KL_REGION_NONE;
	uint64_t cl = v & ~(GIB - 1), min = 0, span, d, bestd = UINT64_MAX;
	unsigned i, n;
	int top = -1, j, last, nom;

	*conf = KL_CONF_MEDIUM;
	if (a == NULL)
		return (KL_REGION_NONE);
	if (is_x86_64(h->arch) && x86_dm_reach(a, cl))
		return (KL_REGION_DIRECT_MAP);
	for (r = KL_REGION_TEXT; r < KL_REGION_COUNT; r++) {
		if (!anchor_has(a, r, cl))
			continue;
		if (best != KL_REGION_NONE)
			return (KL_REGION_NONE); /* two claim it */
		best = r;
	}
	if (best != KL_REGION_NONE)
		return (best);
	if (is_x86_64(h->arch)) {
		/* KASAN shadow row: KASAN kernels are not randomised. */
		if (x86_order(h->region) < 0)
			return (KL_REGION_NONE);
		for (i = 0; i < 3; i++)
			if (anchor_min(a, x86_ord[i], &d) && d <= cl) {
				top = (int)i;
				min = d;
			}
		if (top < 0)
			return (KL_REGION_NONE);
		span = top == 0 ? DM_PAD : region_span(l, x86_ord[top]);
		if (span == 0 || cl - min <= span)
			return (x86_ord[top]);
		/*
		 * Beyond its reach: one of the regions above, up to the next
		 * anchored one (which may start below its lowest anchor).
		 */
		for (j = top + 1; j < 3 && anchor_n(a, x86_ord[j]) == 0; j++)
			;
		last = j < 3 ? j : 2;
		if (last <= top)
			return (KL_REGION_NONE);
		if (last == top + 1)
			return (x86_ord[last]);
		*conf = KL_CONF_LOW;
		nom = x86_order(h->region);
		return (
		    nom > top && nom <= last ? h->region : x86_ord[top + 1]);
	}
	for (r = KL_REGION_TEXT; r < KL_REGION_COUNT; r++) {
		n = anchor_n(a, r);
		span = region_span(l, r);
		for (i = 0; i < n; i++) {
			d = cl > a->v[r][i] ? cl - a->v[r][i] : a->v[r][i] - cl;
			if ((span == 0 || d <= span) && d < bestd) {
				bestd = d;
				best = r;
			}
		}
	}
	return (best);
}

/* Does the context agree with a region decided by value? */
static int
agrees(enum kl_ck k, enum kl_region r, unsigned width)
{
	switch (k) {
	case KL_CK_STACK:
		return (r == KL_REGION_VMALLOC || r == KL_REGION_DIRECT_MAP ||
		    r == KL_REGION_TEXT || r == KL_REGION_KERNEL);
	case KL_CK_PC:
	case KL_CK_FRAME:
	case KL_CK_KSYM:
		return (r == KL_REGION_TEXT || r == KL_REGION_MODULES ||
		    r == KL_REGION_KERNEL);
	case KL_CK_PERCPU:
		return (r == KL_REGION_DIRECT_MAP || r == KL_REGION_KERNEL);
	case KL_CK_PAGE:
		return (r == KL_REGION_VMEMMAP || r == KL_REGION_KERNEL ||
		    (width == 32 && r == KL_REGION_DIRECT_MAP));
	case KL_CK_FAULT:
	case KL_CK_OBJECT:
	case KL_CK_ROW:
		return (r != KL_REGION_NONE);
	default:
		return (0);
	}
}

/*
 * The region the context decides for a value in a shared row, or NONE;
 * *how says how (CTX_*).
 * x86_64 (the RANDOMIZE_MEMORY window, where the row says nothing):
 *   stack-pointer  vmalloc (CONFIG_VMAP_STACK, default since v4.9), but
 *                  the direct map when the value is within the direct
 *                  map's reach of a direct-map anchor (x86_dm_reach(): a
 *                  kernel without vmapped stacks, such as KASAN kernels
 *                  before v5.5);
 *   percpu         the direct map (GS points at the embedded first percpu
 *                  chunk, the default allocator);
 *   struct-page    vmemmap.
 * Other arches (a row shared by regions the value cannot separate):
 *   pc, frame,     modules when "[module]" follows the symbol (or it is a
 *   kallsyms       bpf_prog_ JIT image); text when a core-kernel symbol
 *                  follows; else the row's own text or modules region, and
 *                  in a vmalloc or kernel row text on arm64 (the KASLR
 *                  image) and modules elsewhere (modules live in vmalloc);
 *   stack-pointer  vmalloc on arm64 (vmapped stacks) and in vmalloc rows;
 *                  the direct map (lowmem stacks) in direct-map and kernel
 *                  rows; no decision in a text row (init_stack is in the
 *                  image);
 *   struct-page    vmemmap in a vmemmap row; the direct map in a 32-bit
 *                  lowmem row (flat mem_map).
 */
static enum kl_region
context_region(const struct kl_anchors *a, const struct kl_region_hit *h,
    const struct kl_cinfo *ci, uint64_t v, unsigned width, int *how)
{
	uint64_t cl = v & ~(GIB - 1);
	enum kl_region rr = h->region;

	*how = CTX_DECIDED;
	if (is_x86_64(h->arch)) {
		switch (ci->kind) {
		case KL_CK_STACK:
			if (x86_dm_reach(a, cl)) {
				*how = CTX_DERIVED;
				return (KL_REGION_DIRECT_MAP);
			}
			return (KL_REGION_VMALLOC);
		case KL_CK_PERCPU:
			return (KL_REGION_DIRECT_MAP);
		case KL_CK_PAGE:
			return (KL_REGION_VMEMMAP);
		default:
			return (KL_REGION_NONE);
		}
	}
	switch (ci->kind) {
	case KL_CK_PC:
	case KL_CK_FRAME:
	case KL_CK_KSYM:
		if (rr != KL_REGION_TEXT && rr != KL_REGION_MODULES &&
		    rr != KL_REGION_VMALLOC && rr != KL_REGION_KERNEL &&
		    rr != KL_REGION_DIRECT_MAP)
			return (KL_REGION_NONE);
		if (ci->module)
			return (KL_REGION_MODULES);
		if (ci->sym)
			return (KL_REGION_TEXT);
		*how = CTX_ROW;
		if (rr == KL_REGION_TEXT || rr == KL_REGION_MODULES)
			return (rr);
		if (rr == KL_REGION_VMALLOC || rr == KL_REGION_KERNEL)
			return (is_arm64(h->arch) ? KL_REGION_TEXT
						  : KL_REGION_MODULES);
		return (KL_REGION_NONE);
	case KL_CK_STACK:
		if (is_arm64(h->arch) || rr == KL_REGION_VMALLOC) {
			if (rr == KL_REGION_VMALLOC)
				*how = CTX_ROW;
			return (KL_REGION_VMALLOC);
		}
		if (rr == KL_REGION_DIRECT_MAP || rr == KL_REGION_KERNEL) {
			if (rr == KL_REGION_DIRECT_MAP)
				*how = CTX_ROW;
			return (KL_REGION_DIRECT_MAP);
		}
		return (KL_REGION_NONE);
	case KL_CK_PAGE:
		if (rr == KL_REGION_VMEMMAP) {
			*how = CTX_ROW;
			return (KL_REGION_VMEMMAP);
		}
		if (width == 32 &&
		    (rr == KL_REGION_TEXT || rr == KL_REGION_DIRECT_MAP ||
			rr == KL_REGION_KERNEL))
			return (KL_REGION_DIRECT_MAP);
		return (KL_REGION_NONE);
	default:
		return (KL_REGION_NONE);
	}
}

/*
 * Context before ranges: the region a line's own words give a value that
 * no layout row holds (the architecture or its layout is unknown, or
 * wrong), or NONE.  Only contexts the kernel prints for kernel addresses
 * alone decide:
 *   frame, pc      with a symbol after the value ("[<X>] sym+0x1/0x2",
 *                  arm's "[<X>] (sym) from", "NIP [X] sym+..", "ra : X
 *                  sym+.."): text, or modules for "[mod]" and BPF;
 *   kallsyms       "X T sym" lines of /proc/kallsyms and System.map
 *                  (text, data, bss and rodata types): text, or modules;
 *   layout         a bound in the kernel half of a row of the boot's
 *                  "Virtual kernel memory layout:" banner: the region the
 *                  row names (label.c, banner_rows[]);
 *   frame          without a symbol, a value in the kernel half: a
 *                  64-bit value with its top bit set, or a 32-bit one at
 *                  or above 0x40000000 (the lowest PAGE_OFFSET, VMSPLIT_1G);
 *   pc, stack      a stack range ("Stack: (A to B)", "Exception stack(A
 *                  to B)", "Task stack: [A..B]"), or a register of a line
 *                  that says kernel mode (x86 "RIP: 0010:", i386 "EIP:
 *                  0060:", an arm psr not in USR mode), or a value that
 *                  only a kernel has: 64-bit top bit set, 32-bit at or
 *                  above 0xc0000000 (above every split's user space): a
 *                  pc is kernel, a stack vmalloc on 64-bit machines
 *                  (VMAP_STACK) and the direct map (lowmem) on 32-bit;
 * Register, fault and object labels never decide alone: such values are
 * user addresses as often as kernel ones.  *sev gets the severity.
 */
static enum kl_region
context_first(const struct kl_cinfo *ci, uint64_t v, unsigned width,
    enum kl_severity *sev)
{
	int top, kernel_half;

	/*
	 * A 64-bit value with its top half clear is a hashed %p or a
	 * number wherever a profile does not say otherwise (s390x is
	 * context-only and decided before this).
	 */
	if (width == 64 && (v >> 32) == 0)
		return (KL_REGION_NONE);
	top = width == 64 ? (v >> 63) != 0 : v >= UINT64_C(0xc0000000);
	kernel_half = width == 64 ? (v >> 63) != 0 : v >= UINT64_C(0x40000000);
	*sev = KL_SEV_HIGH;
	switch (ci->kind) {
	case KL_CK_KSYM:
		if (width == 64 ? (v >> 32) == 0 : v < UINT64_C(0x10000000))
			return (KL_REGION_NONE);	/* per-CPU offsets */
		return (ci->module ? KL_REGION_MODULES : KL_REGION_TEXT);
	case KL_CK_BANNER:
		*sev = region_sev[ci->bregion];
		return (kernel_half ? ci->bregion : KL_REGION_NONE);
	case KL_CK_FRAME:
	case KL_CK_PC:
		if (ci->sym)
			return (
			    ci->module ? KL_REGION_MODULES : KL_REGION_TEXT);
		if ((ci->kind == KL_CK_FRAME && kernel_half) || ci->kmode ||
		    top)
			return (KL_REGION_KERNEL);
		return (KL_REGION_NONE);
	case KL_CK_STACK:
		/*
		 * Vmapped on 64-bit machines (VMAP_STACK, the default of
		 * x86_64, arm64, ppc64, riscv64, s390x), lowmem on 32-bit.
		 */
		*sev = KL_SEV_MEDIUM;
		if ((ci->range && v >= UINT64_C(0x10000000)) || ci->kmode ||
		    top)
			return (width == 64 ? KL_REGION_VMALLOC :
			    KL_REGION_DIRECT_MAP);
		return (KL_REGION_NONE);
	default:
		return (KL_REGION_NONE);
	}
}

/* Is v a power of two plus a byte (0x80000001): a flag word? */
static int
flag_word(uint64_t v)
{
	uint64_t hi = v & ~UINT64_C(0xff);

	return ((hi & (hi - 1)) == 0);
}

/*
 * Fill out for a suppressed token.  The confidence is that of the
 * suppression: high for a reason taken from the value, medium for one
 * taken from the shape around it, low when the arch cannot tell.
 */
static void
suppress(struct kl_verdict *out, enum kl_suppress why, enum kl_arch_id arch)
{
	out->region = KL_REGION_NONE;
	out->severity = KL_SEV_NONE;
	switch (why) {
	case KL_SUP_UUID:
	case KL_SUP_MAC:
	case KL_SUP_IPV6:
	case KL_SUP_HEXDUMP:
	case KL_SUP_HASH:
		out->confidence = KL_CONF_MEDIUM;
		break;
	case KL_SUP_CONTEXT_ONLY:
		out->confidence = KL_CONF_LOW;
		break;
	default:
		out->confidence = KL_CONF_HIGH;
		break;
	}
	out->suppressed = why;
	out->arch = arch;
	out->rule = kl_suppress_name(why);
	out->flags = 0;
}

/* Classify one candidate token with value v. */
void
kl_classify(const struct kl_layout *l, const struct kl_anchors *a,
    const struct kl_ctx *c, uint64_t v, struct kl_verdict *out)
{
	struct kl_region_hit h;
	struct kl_cinfo ci;
	enum kl_suppress why;
	enum kl_region r;
	enum kl_confidence conf;
	enum kl_arch_id arch;
	unsigned width;
	int ctxonly, code, how;

	if (l == NULL) {
		suppress(out, KL_SUP_NOT_KERNEL, KL_ARCH_UNKNOWN);
		return;
	}
	arch = l->arch != NULL ? l->arch->id : KL_ARCH_UNKNOWN;
	ctxonly = l->arch != NULL && (l->arch->flags & KL_ARCH_CONTEXT_ONLY);
	if (c != NULL && (c->toklen == 8 || c->toklen == 16))
		width = (unsigned)c->toklen * 4;
	else
		width = l->arch != NULL && l->arch->bits == 32 ? 32 : 64;
	kl_label_context(c, &ci);
	code = ci.kind == KL_CK_PC || ci.kind == KL_CK_FRAME ||
	    ci.kind == KL_CK_STACK;
	/* A page-table entry holds a physical frame, whatever its value. */
	if (ci.kind == KL_CK_PTE || ci.kind == KL_CK_BAR) {
		suppress(out, ci.kind == KL_CK_PTE ? KL_SUP_PTE :
		    KL_SUP_PHYSICAL, arch);
		return;
	}

	/* 1. Look-alikes, before the region. */
	/*
	 * On s390x every kernel address has its top 32 bits clear: a
	 * 00000000xxxxxxxx value (lockdep's %px) is no hashed %p there.
	 */
	why = kl_lookalike_value(v, width, raw_printed(ci.kind) ||
	    (ctxonly && code) || arch == KL_ARCH_S390X);
	/*
	 * A kallsyms line names what sits there: ppc64's _stext at
	 * c000000000000000 is an address, not PAGE_MASK.
	 */
	if (why == KL_SUP_MASK && ci.kind == KL_CK_KSYM)
		why = KL_SUP_NONE;
	if (why == KL_SUP_NONE && ci.valid)
		why = kl_lookalike_shape(c, ci.kind);
	if (why != KL_SUP_NONE) {
		suppress(out, why, arch);
		return;
	}

	/* 2. The region, from the layout. */
	kl_arch_lookup(l, v, &h);
	if (h.region == KL_REGION_NONE) {
		/*
		 * A kallsyms line of s390x below 1 MiB (its lowest image
		 * address, the 0x100000 of kernels before v6.2) is a per-CPU
		 * offset.
		 */
		if (h.reason == KL_SUP_CONTEXT_ONLY &&
		    (code || (ci.kind == KL_CK_KSYM &&
		    v >= UINT64_C(0x100000)))) {
			/*
			 * s390x, sparc64: only the context says kernel.  A
			 * code address anchors its GiB for the registers.
			 */
			out->region = KL_REGION_KERNEL;
			out->severity = region_sev[KL_REGION_KERNEL];
			out->confidence = KL_CONF_MEDIUM;
			out->suppressed = KL_SUP_NONE;
			out->arch = h.arch;
			out->rule = ck_rule[ci.kind];
			out->flags = ci.kind == KL_CK_STACK ? KL_V_STACK :
			    ci.kind == KL_CK_STACK || width != 64 ? 0 :
			    KL_V_ANCHOR;
			return;
		}
		/*
		 * ...and a register of a kernel-mode dump ("Krnl GPRS:" and
		 * its rows) in the GiB of a code address of the same boot
		 * is the kernel's: the identity-mapped image and heap of an
		 * s390x kernel before v6.2 share the low GiBs.  A power of
		 * two plus a small number (0x80000001) is a flag word.
		 */
		if (h.reason == KL_SUP_CONTEXT_ONLY && width == 64 &&
		    (ci.kind == KL_CK_REG || ci.kind == KL_CK_NONE) &&
		    v >= UINT64_C(0x100000) &&
		    !flag_word(v) &&
		    anchor_has(a, KL_REGION_KERNEL, v & ~(GIB - 1))) {
			out->region = KL_REGION_KERNEL;
			out->severity = region_sev[KL_REGION_KERNEL];
			out->confidence = KL_CONF_LOW;
			out->suppressed = KL_SUP_NONE;
			out->arch = h.arch;
			out->rule = "anchor";
			out->flags = 0;
			return;
		}
		/* 2b. Context before ranges (context_first()). */
		if (h.reason != KL_SUP_VSYSCALL && ci.valid &&
		    (r = context_first(&ci, v, width, &out->severity)) !=
		    KL_REGION_NONE) {
			out->region = r;
			out->confidence = KL_CONF_LOW;
			out->suppressed = KL_SUP_NONE;
			out->arch = arch;
			out->rule = ck_rule[ci.kind];
			out->flags = KL_V_CONTEXT |
			    (ci.kind == KL_CK_STACK ? KL_V_STACK : 0);
			return;
		}
		suppress(out,
		    h.reason != KL_SUP_NONE ? h.reason : KL_SUP_NOT_KERNEL,
		    h.arch);
		return;
	}

	/* 3. Context, then anchors (64-bit: 1 GiB clusters). */
	out->suppressed = KL_SUP_NONE;
	out->arch = h.arch;
	out->flags = ci.kind == KL_CK_STACK ? KL_V_STACK : 0;
	out->rule = ck_rule[ci.kind];
	r = h.region;
	if ((h.flags & KL_AR_SHARED) == 0) {
		/*
		 * A code address with a resolved symbol is text (or a module)
		 * even in a direct-map or vmalloc row: riscv64 before v5.13
		 * and large ppc64 images run from the linear map.
		 */
		code = ci.kind == KL_CK_PC || ci.kind == KL_CK_FRAME ||
		    ci.kind == KL_CK_KSYM;
		if (code && ci.sym &&
		    (r == KL_REGION_DIRECT_MAP || r == KL_REGION_VMALLOC ||
		    r == KL_REGION_KERNEL))
			r = ci.module ? KL_REGION_MODULES : KL_REGION_TEXT;
		out->confidence =
		    agrees(ci.kind, r, width) ? KL_CONF_HIGH : KL_CONF_MEDIUM;
		/*
		 * Without a symbol, only on riscv64, whose image was in the
		 * linear map before v5.13 ("riscv: Move kernel mapping outside
		 * of linear mapping"): code there is that image (medium).
		 */
		if (code && !ci.sym && r == KL_REGION_DIRECT_MAP &&
		    is_riscv64(h.arch))
			r = KL_REGION_TEXT;
	} else if (is_x86_64(h.arch) && x86_dm_zone(&h, v)) {
		r = KL_REGION_DIRECT_MAP;
		if (agrees(ci.kind, r, width)) {
			out->confidence = KL_CONF_HIGH;
			out->flags |= KL_V_ANCHOR;
		} else
			out->confidence = KL_CONF_MEDIUM;
	} else if ((r = context_region(a, &h, &ci, v, width, &how)) !=
	    KL_REGION_NONE) {
		out->confidence = KL_CONF_HIGH;
		if (how == CTX_DECIDED && width == 64)
			out->flags |= KL_V_ANCHOR;
	} else if (width == 64 &&
	    (r = anchor_region(l, a, &h, v, &conf)) != KL_REGION_NONE) {
		out->confidence = conf;
		if (ci.kind == KL_CK_NONE || ci.kind == KL_CK_PHYS)
			out->rule = "anchor";
	} else {
		r = h.region;
		out->confidence = KL_CONF_LOW;
	}
	out->region = r;
	/* The layout row knows best (arm64 vmalloc may hold the image). */
	out->severity = r == h.region && h.severity != KL_SEV_NONE ?
	    h.severity : region_sev[r];
}

/* Remember the 1 GiB cluster of v as evidence for region r. */
void
kl_anchors_add(struct kl_anchors *a, enum kl_region r, uint64_t v)
{
	uint64_t cl = v & ~(GIB - 1);

	if (a == NULL || r <= KL_REGION_NONE || r >= KL_REGION_COUNT)
		return;
	if (anchor_has(a, r, cl) || a->n[r] >= KL_ANCHOR_MAX)
		return;
	a->v[r][a->n[r]++] = cl;
}
