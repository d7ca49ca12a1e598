/*
 * test-arch.c - architecture profiles and address lookup.
 *
 * Every row of every profile is probed at lo, hi, lo - 1 and hi + 1
 * through the public API and compared with a linear scan of the same rows
 * and a hand-written table of where each kernel half starts.  Key edges
 * are asserted with hand-written addresses as well, several taken from
 * real logs in ../shared/corpus (file named in the comment).
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
#define MAX64	U64(0xffffffffffffffff)

/* Profile names in enum order, as --arch spells them. */
static const char *const names[KL_ARCH_COUNT] = {
	NULL, "x86_64", "x86_64-5level", "i386", "arm64", "arm64-39",
	"arm64-42", "arm64-47", "arm64-52", "arm64-pre5.4", "arm", "ppc64",
	"ppc64-book3e", "ppc32", "riscv64", "riscv64-sv48", "riscv64-sv57",
	"mips64", "loongarch64", "s390x", "sparc64", "mips32",
	"riscv64-pre5.13", "riscv32",
};

/* Where the kernel half of each 64-bit profile starts (0: 32-bit/none). */
static const uint64_t kstart64[KL_ARCH_COUNT] = {
	[KL_ARCH_AUTO] = U64(0xff00000000000000),
	[KL_ARCH_X86_64] = U64(0xffff800000000000),
	[KL_ARCH_X86_64_L5] = U64(0xff00000000000000),
	[KL_ARCH_ARM64] = U64(0xffff000000000000),
	[KL_ARCH_ARM64_39] = U64(0xffffff8000000000),
	[KL_ARCH_ARM64_42] = U64(0xfffffc0000000000),
	[KL_ARCH_ARM64_47] = U64(0xffff800000000000),
	[KL_ARCH_ARM64_52] = U64(0xfff0000000000000),
	[KL_ARCH_ARM64_PRE54] = U64(0xffff000000000000),
	[KL_ARCH_PPC64] = U64(0xc000000000000000),
	[KL_ARCH_PPC64_BOOK3E] = U64(0x8000000000000000),
	[KL_ARCH_RISCV64] = U64(0xffffffc000000000),
	[KL_ARCH_RISCV64_SV48] = U64(0xffff800000000000),
	[KL_ARCH_RISCV64_SV57] = U64(0xff00000000000000),
	[KL_ARCH_MIPS64] = U64(0x8000000000000000),
	[KL_ARCH_LOONGARCH64] = U64(0x8000000000000000),
	[KL_ARCH_RISCV64_PRE513] = U64(0xffffffc000000000),
};

/* PAGE_OFFSETs tried on the 32-bit profiles (0: the default). */
static const uint64_t page_offsets[] = {
	0, U64(0xc0000000), U64(0xb0000000), U64(0x80000000),
	U64(0x78000000), U64(0x40000000), U64(0x41000000),
};

/* Build a layout that must succeed. */
static void
layout(enum kl_arch_id id, uint64_t po, struct kl_layout *l)
{
	struct kl_error err;

	kl_error_clear(&err);
	assert_int_equal(kl_arch_layout(id, po, l, &err), 0);
	assert_int_equal(err.code, KL_EOK);
}

/* The kernel half [*ks, *ke] of a resolved layout, from the test tables. */
static void
kernel_half(const struct kl_layout *l, uint64_t *ks, uint64_t *ke)
{
	enum kl_arch_id id = l->arch != NULL ? l->arch->id : KL_ARCH_AUTO;

	*ke = MAX64;
	switch (id) {
	case KL_ARCH_I386:
	case KL_ARCH_PPC32:
		*ks = l->page_offset;
		*ke = U64(0xffffffff);
		break;
	case KL_ARCH_ARM:
		*ks = l->page_offset - U64(0x1000000);
		*ke = U64(0xffffffff);
		break;
	case KL_ARCH_MIPS32:
		*ks = U64(0x80000000);	/* KSEG0 */
		*ke = U64(0xffffffff);
		break;
	case KL_ARCH_RISCV32:
		*ks = U64(0x9c800000);	/* FIXADDR_START = TASK_SIZE */
		*ke = U64(0xffffffff);
		break;
	default:
		*ks = kstart64[id];
		break;
	}
}

/* The profile a union row comes from, by address. */
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

/* Compare kl_arch_lookup(v) with a linear scan of the layout's rows. */
static void
check_value(const struct kl_layout *l, uint64_t v)
{
	struct kl_region_hit h;
	const struct kl_arch_region *r;
	enum kl_arch_id id;
	uint64_t ks, ke;
	size_t i;

	id = l->arch != NULL ? l->arch->id : KL_ARCH_AUTO;
	kl_arch_lookup(l, v, &h);
	r = NULL;
	for (i = 0; i < l->n; i++)
		if (l->row[i].lo <= v && v <= l->row[i].hi)
			r = &l->row[i];
	assert_ptr_equal(h.row, r);
	if (r == NULL) {
		kernel_half(l, &ks, &ke);
		assert_int_equal(h.region, KL_REGION_NONE);
		assert_int_equal(h.severity, KL_SEV_NONE);
		assert_int_equal(h.flags, 0);
		assert_int_equal(h.reason, v >= ks && v <= ke ? KL_SUP_HOLE :
		    KL_SUP_NOT_KERNEL);
		assert_int_equal(h.arch, id);
		return;
	}
	assert_int_equal(h.arch, id == KL_ARCH_AUTO ? union_arch(v) : id);
	assert_int_equal(h.flags, r->flags);
	if (r->region == KL_REGION_NONE) {
		assert_int_equal(h.reason, KL_SUP_VSYSCALL);
		assert_int_equal(h.region, KL_REGION_NONE);
		assert_int_equal(h.severity, KL_SEV_NONE);
	} else {
		assert_int_equal(h.reason, KL_SUP_NONE);
		assert_int_equal(h.region, r->region);
		assert_int_equal(h.severity, r->severity);
	}
}

/* Rows sorted, disjoint, documented, severities by region. */
static void
check_rows(const struct kl_layout *l)
{
	const struct kl_arch_region *r;
	size_t i;

	for (i = 0; i < l->n; i++) {
		r = &l->row[i];
		assert_true(r->lo <= r->hi);
		if (i > 0)
			assert_true(l->row[i - 1].hi < r->lo);
		assert_non_null(r->what);
		assert_true(strlen(r->what) > 0);
		assert_non_null(r->doc);
		assert_true(strncmp(r->doc, "Documentation/", 14) == 0 ||
		    strncmp(r->doc, "arch/", 5) == 0);
		switch (r->region) {
		case KL_REGION_TEXT:
		case KL_REGION_MODULES:
		case KL_REGION_KERNEL:
			assert_int_equal(r->severity, KL_SEV_HIGH);
			break;
		case KL_REGION_VMALLOC:
			/* HIGH only where the image or modules live in it. */
			if (r->severity == KL_SEV_HIGH)
				assert_true(r->flags & KL_AR_SHARED);
			else
				assert_int_equal(r->severity, KL_SEV_MEDIUM);
			break;
		case KL_REGION_DIRECT_MAP:
		case KL_REGION_VMEMMAP:
		case KL_REGION_KASAN_SHADOW:
			assert_int_equal(r->severity, KL_SEV_MEDIUM);
			break;
		case KL_REGION_FIXMAP:
		case KL_REGION_CPU_ENTRY_AREA:
		case KL_REGION_ESPFIX:
		case KL_REGION_EFI:
			assert_int_equal(r->severity, KL_SEV_LOW);
			break;
		case KL_REGION_NONE:
			/* Only the x86_64 vsyscall page. */
			assert_int_equal(r->lo, U64(0xffffffffff600000));
			assert_int_equal(r->hi, U64(0xffffffffff600fff));
			assert_int_equal(r->severity, KL_SEV_NONE);
			break;
		default:
			fail_msg("unexpected region %d", (int)r->region);
		}
	}
}

/* Probe every row edge of a layout. */
static void
check_edges(const struct kl_layout *l)
{
	size_t i;

	check_rows(l);
	for (i = 0; i < l->n; i++) {
		check_value(l, l->row[i].lo);
		check_value(l, l->row[i].hi);
		check_value(l, l->row[i].lo + (l->row[i].hi - l->row[i].lo) / 2);
		if (l->row[i].lo > 0)
			check_value(l, l->row[i].lo - 1);
		if (l->row[i].hi < MAX64)
			check_value(l, l->row[i].hi + 1);
	}
	check_value(l, 0);
	check_value(l, U64(0x00007fffffffffff));
	check_value(l, U64(0x100000000));
	check_value(l, U64(0xffffffff));
	check_value(l, MAX64);
}

/* Every profile, the union, and every tried PAGE_OFFSET, at every edge. */
static void
t_all_rows(void **state)
{
	struct kl_layout l;
	const struct kl_arch *a;
	size_t i, j, nrows;

	(void)state;
	layout(KL_ARCH_AUTO, 0, &l);
	assert_null(l.arch);
	assert_int_equal(l.page_offset, 0);
	check_edges(&l);
	nrows = l.n;
	for (i = 0; (a = kl_arch_at(i)) != NULL; i++) {
		if (!(a->flags & KL_ARCH_PAGE_OFFSET)) {
			layout(a->id, 0, &l);
			assert_ptr_equal(l.arch, a);
			if (a->flags & KL_ARCH_CONTEXT_ONLY) {
				/* No rows; see t_context_only. */
				assert_int_equal(l.n, 0);
				continue;
			}
			assert_true(l.n > 0);
			check_edges(&l);
			nrows += l.n;
			continue;
		}
		for (j = 0; j < sizeof(page_offsets) / sizeof(page_offsets[0]);
		    j++) {
			layout(a->id, page_offsets[j], &l);
			assert_int_equal(l.page_offset, page_offsets[j] != 0 ?
			    page_offsets[j] : U64(0xc0000000));
			assert_true(l.n > 0);
			check_edges(&l);
		}
		nrows += l.n;
	}
	/* 21 row-bearing profiles and the union: pin the total. */
	assert_int_equal(nrows, 174);
}

/* Expect one lookup result. */
static void
expect(const struct kl_layout *l, uint64_t v, enum kl_region region,
    enum kl_severity sev, enum kl_suppress reason)
{
	struct kl_region_hit h;

	kl_arch_lookup(l, v, &h);
	assert_int_equal(h.region, region);
	assert_int_equal(h.severity, sev);
	assert_int_equal(h.reason, reason);
	if (region == KL_REGION_NONE && reason != KL_SUP_VSYSCALL)
		assert_null(h.row);
	else
		assert_non_null(h.row);
}

#define KERN(l, v, r, s)	expect((l), U64(v), (r), (s), KL_SUP_NONE)
#define HOLE(l, v)		expect((l), U64(v), KL_REGION_NONE, \
				    KL_SEV_NONE, KL_SUP_HOLE)
#define USER(l, v)		expect((l), U64(v), KL_REGION_NONE, \
				    KL_SEV_NONE, KL_SUP_NOT_KERNEL)

/* x86_64 4-level: hand-written edges. */
static void
t_x86_64(void **state)
{
	struct kl_layout l;
	struct kl_region_hit h;

	(void)state;
	layout(KL_ARCH_X86_64, 0, &l);
	KERN(&l, 0xffffffff80000000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffff81000000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffffbfffffff, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffffc0000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xfffffffffeffffff, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xffffffffff000000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffffffffff5fffff, KL_REGION_FIXMAP, KL_SEV_LOW);
	expect(&l, U64(0xffffffffff600000), KL_REGION_NONE, KL_SEV_NONE,
	    KL_SUP_VSYSCALL);
	expect(&l, U64(0xffffffffff600fff), KL_REGION_NONE, KL_SEV_NONE,
	    KL_SUP_VSYSCALL);
	HOLE(&l, 0xffffffffff601000);
	HOLE(&l, 0xffffffffffff4111);		/* STACKLEAK poison */
	HOLE(&l, 0xffffffffffffffff);
	HOLE(&l, 0xffffffff7fffffff);
	KERN(&l, 0xffffffef00000000, KL_REGION_EFI, KL_SEV_LOW);
	KERN(&l, 0xffffff0000000000, KL_REGION_ESPFIX, KL_SEV_LOW);
	KERN(&l, 0xfffffe0000000000, KL_REGION_CPU_ENTRY_AREA, KL_SEV_LOW);
	HOLE(&l, 0xfffffe8000000000);
	KERN(&l, 0xffff888000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	/* Before v4.17 (syzkaller/guilty/3: RSP: 0018:ffff880065387378). */
	KERN(&l, 0xffff880065387378, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	/* boot/Ubuntu-20.04-FIPS-logs__dmesg.txt: a randomised stack. */
	kl_arch_lookup(&l, U64(0xffffa667c016fe48), &h);
	assert_int_equal(h.region, KL_REGION_DIRECT_MAP);
	assert_int_equal(h.flags, KL_AR_SHARED | KL_AR_RANDOMIZED);
	assert_int_equal(h.arch, KL_ARCH_X86_64);
	KERN(&l, 0xffffc8ffffffffff, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffc90000000000, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l, 0xffffc9000494fc28, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l, 0xffffea0000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffec0000000000, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	KERN(&l, 0xfffffdffffffffff, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	HOLE(&l, 0xffff87ffffffffff);
	HOLE(&l, 0xffff800000000000);
	USER(&l, 0xffff7fffffffffff);
	USER(&l, 0x00007fffffffffff);
	USER(&l, 0x0000000000000000);
	USER(&l, 0xff11000000000000);
	kl_arch_lookup(&l, U64(0xffffffffbfffffff), &h);
	assert_int_equal(h.flags, KL_AR_RANDOMIZED);
	assert_string_equal(h.row->doc, "Documentation/arch/x86/x86_64/mm.rst, "
	    "arch/x86/include/asm/page_64_types.h");
}

/* x86_64 5-level: lower regions per mm.rst, upper part as 4-level. */
static void
t_x86_64_l5(void **state)
{
	struct kl_layout l4, l5;
	struct kl_region_hit h4, h5;
	uint64_t v;

	(void)state;
	layout(KL_ARCH_X86_64_L5, 0, &l5);
	layout(KL_ARCH_X86_64, 0, &l4);
	USER(&l5, 0x00ffffffffffffff);
	USER(&l5, 0xfeffffffffffffff);
	HOLE(&l5, 0xff00000000000000);
	HOLE(&l5, 0xff0fffffffffffff);
	KERN(&l5, 0xff11000000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l5, 0xff9fffffffffffff, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l5, 0xffa0000000000000, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l5, 0xffd4000000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l5, 0xffdf000000000000, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	KERN(&l5, 0xffff888000000000, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	/* From fffffc0000000000 up the two maps agree exactly. */
	for (v = U64(0xfffffc0000000000); v != 0 && v >= U64(0xfffffc0000000000);
	    v += U64(0x10000000)) {
		kl_arch_lookup(&l4, v, &h4);
		kl_arch_lookup(&l5, v, &h5);
		assert_int_equal(h4.region, h5.region);
		assert_int_equal(h4.reason, h5.reason);
		assert_int_equal(h4.flags, h5.flags);
		assert_int_equal(h5.arch, KL_ARCH_X86_64_L5);
	}
}

/* The unknown 64-bit union: x86_64 both modes, arm64 48- and 39-bit. */
static void
t_union(void **state)
{
	struct kl_layout l;
	struct kl_region_hit h;
	struct kl_error err;

	(void)state;
	layout(KL_ARCH_AUTO, 0, &l);
	kl_arch_lookup(&l, U64(0xffffffff81000000), &h);
	assert_int_equal(h.region, KL_REGION_TEXT);
	assert_int_equal(h.arch, KL_ARCH_X86_64);
	kl_arch_lookup(&l, U64(0xffff0000c3a1f200), &h);
	assert_int_equal(h.region, KL_REGION_DIRECT_MAP);
	assert_int_equal(h.arch, KL_ARCH_ARM64);
	kl_arch_lookup(&l, U64(0xff11000012345678), &h);
	assert_int_equal(h.region, KL_REGION_DIRECT_MAP);
	assert_int_equal(h.arch, KL_ARCH_X86_64_L5);
	kl_arch_lookup(&l, U64(0xfffe000000000000), &h);
	assert_int_equal(h.region, KL_REGION_KASAN_SHADOW);
	assert_int_equal(h.arch, KL_ARCH_X86_64_L5);
	kl_arch_lookup(&l, U64(0xffff800000000000), &h);
	assert_int_equal(h.reason, KL_SUP_HOLE);
	assert_int_equal(h.arch, KL_ARCH_AUTO);
	expect(&l, U64(0xffffffffff600000), KL_REGION_NONE, KL_SEV_NONE,
	    KL_SUP_VSYSCALL);
	/* The x86_64 hole holds the arm64 39-bit kernel. */
	kl_arch_lookup(&l, U64(0xffffffc080d669c8), &h);
	assert_int_equal(h.region, KL_REGION_VMALLOC);
	assert_int_equal(h.arch, KL_ARCH_ARM64_39);
	kl_arch_lookup(&l, U64(0xffffff80d1a2b000), &h);
	assert_int_equal(h.region, KL_REGION_DIRECT_MAP);
	assert_int_equal(h.arch, KL_ARCH_ARM64_39);
	kl_arch_lookup(&l, U64(0xffffffef00000000), &h);
	assert_int_equal(h.region, KL_REGION_EFI);
	assert_int_equal(h.arch, KL_ARCH_X86_64);
	/* Too wide to include: ppc64, mips64, loongarch64 windows. */
	USER(&l, 0xc00000000022d79c);
	USER(&l, 0x9800000005dfbe80);
	USER(&l, 0x90000000012a3c48);
	USER(&l, 0xfeffffffffffffff);
	HOLE(&l, 0xff00000000000000);
	kl_error_clear(&err);
	assert_int_equal(kl_arch_layout(KL_ARCH_AUTO, U64(0xc0000000), &l,
	    &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg,
	    "--page-offset applies only to i386, arm and ppc32");
}

/* i386 at the default PAGE_OFFSET and with --page-offset 0x80000000. */
static void
t_i386(void **state)
{
	struct kl_layout l;

	(void)state;
	layout(KL_ARCH_I386, 0, &l);
	assert_int_equal(l.page_offset, U64(0xc0000000));
	USER(&l, 0xbfffffff);
	KERN(&l, 0xc0000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xc1000000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xc19b4000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xe0000000, KL_REGION_KERNEL, KL_SEV_HIGH);
	KERN(&l, 0xf87fe000, KL_REGION_KERNEL, KL_SEV_HIGH);
	KERN(&l, 0xff800000, KL_REGION_FIXMAP, KL_SEV_LOW);
	HOLE(&l, 0xfffff000);
	HOLE(&l, 0xfffffff4);			/* ERR_PTR(-ENOMEM) */
	USER(&l, 0x100000000);
	USER(&l, 0xffffffffc1000000);

	layout(KL_ARCH_I386, U64(0x80000000), &l);
	assert_int_equal(l.page_offset, U64(0x80000000));
	USER(&l, 0x7fffffff);
	KERN(&l, 0x80000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0x80ffffff, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0x81000000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0x9fffffff, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xa0000000, KL_REGION_KERNEL, KL_SEV_HIGH);
	KERN(&l, 0xc0000000, KL_REGION_KERNEL, KL_SEV_HIGH);
	KERN(&l, 0xff7fffff, KL_REGION_KERNEL, KL_SEV_HIGH);
	KERN(&l, 0xff800000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffffefff, KL_REGION_FIXMAP, KL_SEV_LOW);
	HOLE(&l, 0xfffff000);
}

/* arm and ppc32 with moved PAGE_OFFSETs. */
static void
t_arm_ppc32(void **state)
{
	struct kl_layout l;

	(void)state;
	layout(KL_ARCH_ARM, 0, &l);
	USER(&l, 0xbeffffff);
	/* arm modules at PAGE_OFFSET - 16 MiB, text at +0x8000. */
	KERN(&l, 0xbf000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xbfdfffff, KL_REGION_MODULES, KL_SEV_HIGH);
	/* boot/tf201log__dmesg.txt: PERCPU: Embedded ... @c0f7c000. */
	KERN(&l, 0xc0f7c000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xc0008000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xc2000000, KL_REGION_KERNEL, KL_SEV_HIGH);
	KERN(&l, 0xff800000, KL_REGION_FIXMAP, KL_SEV_LOW);
	HOLE(&l, 0xffc00000);
	KERN(&l, 0xffff0000, KL_REGION_FIXMAP, KL_SEV_LOW);

	/* syzkaller/report/238 (ARM-Versatile Express, VMSPLIT_2G). */
	layout(KL_ARCH_ARM, U64(0x80000000), &l);
	USER(&l, 0x7effffff);
	KERN(&l, 0x7f000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0x801a7168, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0x9a917f68, KL_REGION_KERNEL, KL_SEV_HIGH);

	layout(KL_ARCH_PPC32, 0, &l);
	/* mail/linuxppc-dev/00767a40...: NIP:  c0172ca8 (e500v2). */
	KERN(&l, 0xc0172ca8, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xc2669d60, KL_REGION_KERNEL, KL_SEV_HIGH);
	USER(&l, 0xbfffffff);
	layout(KL_ARCH_PPC32, U64(0xb0000000), &l);
	KERN(&l, 0xb0000000, KL_REGION_TEXT, KL_SEV_HIGH);
	USER(&l, 0xafffffff);
}

/* Page offsets that are refused, with their messages. */
static void
t_bad_page_offset(void **state)
{
	static const uint64_t bad[] = {
		U64(0x12345678), U64(0xd0000000), U64(0x3f000000),
		U64(0xc0800000), U64(0x40800000), U64(0x100000000),
		U64(0xffffffffc0000000),
	};
	struct kl_layout l;
	struct kl_error err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		kl_error_clear(&err);
		assert_int_equal(kl_arch_layout(KL_ARCH_I386, bad[i], &l, &err),
		    -1);
		assert_int_equal(err.code, KL_EINVAL);
		assert_non_null(strstr(err.msg, "is not a 16 MiB-aligned value "
		    "in [0x40000000, 0xc0000000]"));
	}
	kl_error_clear(&err);
	assert_int_equal(kl_arch_layout(KL_ARCH_ARM, U64(0x12345678), &l,
	    &err), -1);
	assert_string_equal(err.msg, "page offset 0x12345678 is not a 16 "
	    "MiB-aligned value in [0x40000000, 0xc0000000]");
	kl_error_clear(&err);
	assert_int_equal(kl_arch_layout(KL_ARCH_X86_64, U64(0xc0000000), &l,
	    &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg,
	    "--page-offset applies only to i386, arm and ppc32");
	kl_error_clear(&err);
	assert_int_equal(kl_arch_layout(KL_ARCH_S390X, U64(0x80000000), &l,
	    &err), -1);
	assert_string_equal(err.msg,
	    "--page-offset applies only to i386, arm and ppc32");
	kl_error_clear(&err);
	assert_int_equal(kl_arch_layout(KL_ARCH_COUNT, 0, &l, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, "unknown architecture id 24");
	assert_int_equal(kl_arch_layout(KL_ARCH_X86_64, 0, NULL, &err), -1);
	/* A NULL error pointer is allowed. */
	assert_int_equal(kl_arch_layout(KL_ARCH_I386, U64(1), &l, NULL), -1);
}

/* arm64: v5.4+ layouts per VA size and the pre-5.4 one. */
static void
t_arm64(void **state)
{
	struct kl_layout l;
	struct kl_region_hit h;

	(void)state;
	layout(KL_ARCH_ARM64, 0, &l);
	USER(&l, 0x0000ffffffffffff);
	USER(&l, 0xfffeffffffffffff);
	KERN(&l, 0xffff000000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffff7fffffffffff, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffff800000000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xffff80007fffffff, KL_REGION_MODULES, KL_SEV_HIGH);
	kl_arch_lookup(&l, U64(0xffff800080000000), &h);
	assert_int_equal(h.region, KL_REGION_VMALLOC);
	assert_int_equal(h.severity, KL_SEV_HIGH);
	assert_int_equal(h.flags, KL_AR_SHARED | KL_AR_RANDOMIZED);
	KERN(&l, 0xfffffbffefffffff, KL_REGION_VMALLOC, KL_SEV_HIGH);
	KERN(&l, 0xfffffbfff0000000, KL_REGION_FIXMAP, KL_SEV_LOW);
	HOLE(&l, 0xfffffbfffe000000);
	KERN(&l, 0xfffffbfffe800000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xfffffc0000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffffbfffffff, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	HOLE(&l, 0xffffffffc0000000);
	KERN(&l, 0xffffffffc0800000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffffffffff7fffff, KL_REGION_FIXMAP, KL_SEV_LOW);
	HOLE(&l, 0xffffffffff800000);

	/* boot/OrangePi5-OpenCL__dmesg.txt, 5.10 with 39-bit VAs. */
	layout(KL_ARCH_ARM64_39, 0, &l);
	USER(&l, 0xffffff7fffffffff);
	KERN(&l, 0xffffff8000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffff8101c020d0, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffc01108a1f0, KL_REGION_MODULES, KL_SEV_HIGH);
	/* boot/rg353v_linux__dmesg.txt, 6.6: KIMAGE_VADDR at PE + 2 GiB. */
	KERN(&l, 0xffffffc080d669c8, KL_REGION_VMALLOC, KL_SEV_HIGH);
	KERN(&l, 0xfffffffe00000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);

	layout(KL_ARCH_ARM64_42, 0, &l);
	USER(&l, 0xfffffbffffffffff);
	KERN(&l, 0xfffffc0000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xfffffe0000000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xfffffe0080000000, KL_REGION_VMALLOC, KL_SEV_HIGH);

	layout(KL_ARCH_ARM64_47, 0, &l);
	KERN(&l, 0xffff800000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffc00000000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xffffff8000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);

	/* syzkaller/report/734: swapper pgtable: 4k pages, 52-bit VAs. */
	layout(KL_ARCH_ARM64_52, 0, &l);
	USER(&l, 0xffefffffffffffff);
	KERN(&l, 0xfff0000000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffff80008c597650, KL_REGION_VMALLOC, KL_SEV_HIGH);
	KERN(&l, 0xffffffdfffffffff, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	/* Tagged: x24: 16f0000014accd90 is not kernel until untagged. */
	USER(&l, 0x16f0000014accd90);
	KERN(&l, 0xfff0000014accd90, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);

	layout(KL_ARCH_ARM64_PRE54, 0, &l);
	USER(&l, 0xfffeffffffffffff);
	KERN(&l, 0xffff000000000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xffff000008080000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffff000010080000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffff000018000000, KL_REGION_VMALLOC, KL_SEV_HIGH);
	KERN(&l, 0xffff7dfffee00000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffff7e0000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffff800000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	/* syzkaller/report/604 (4.9, 39-bit VAs): still kernel here. */
	KERN(&l, 0xffffff90080ed944, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffffffffffff, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
}

/* KASAN tag removal is arm64-only and needs bit 55. */
static void
t_untag(void **state)
{
	(void)state;
	assert_int_equal(kl_arch_untag(KL_ARCH_ARM64_52,
	    U64(0x16f0000014accd90)), U64(0xfff0000014accd90));
	assert_int_equal(kl_arch_untag(KL_ARCH_ARM64,
	    U64(0xa9ff80008c583000)), U64(0xffff80008c583000));
	assert_int_equal(kl_arch_untag(KL_ARCH_ARM64_PRE54,
	    U64(0xefff800000000137)), U64(0xffff800000000137));
	assert_int_equal(kl_arch_untag(KL_ARCH_ARM64,
	    U64(0xffff80008c583000)), U64(0xffff80008c583000));
	assert_int_equal(kl_arch_untag(KL_ARCH_ARM64,
	    U64(0x0000ffff12345678)), U64(0x0000ffff12345678));
	assert_int_equal(kl_arch_untag(KL_ARCH_ARM64_39,
	    U64(0x8b259e98d0dda300)), U64(0x8b259e98d0dda300));
	assert_int_equal(kl_arch_untag(KL_ARCH_X86_64,
	    U64(0x16f0000014accd90)), U64(0x16f0000014accd90));
	assert_int_equal(kl_arch_untag(KL_ARCH_ARM, U64(0x16f0000014accd90)),
	    U64(0x16f0000014accd90));
	assert_int_equal(kl_arch_untag(KL_ARCH_AUTO,
	    U64(0xa9ff80008c583000)), U64(0xa9ff80008c583000));
}

/* riscv64 per vm-layout.rst, with values from syzkaller reports. */
static void
t_riscv64(void **state)
{
	struct kl_layout l;

	(void)state;
	layout(KL_ARCH_RISCV64, 0, &l);
	USER(&l, 0x0000003fffffffff);
	USER(&l, 0xffffffbfffffffff);
	HOLE(&l, 0xffffffc000000000);
	KERN(&l, 0xffffffc4fea00000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffffffc500000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffc600000000, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffd600000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	/* syzkaller/report/545 (5.10): legacy image in the linear map. */
	KERN(&l, 0xffffffe000207654, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	HOLE(&l, 0xfffffff600000000);
	KERN(&l, 0xfffffff700000000, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffff00000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xffffffff7fffffff, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xffffffff80000000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffffffffffff, KL_REGION_TEXT, KL_SEV_HIGH);

	/* syzkaller/report/999: epc : ffffffff80014264 ... sp : ffff8f80.. */
	layout(KL_ARCH_RISCV64_SV48, 0, &l);
	USER(&l, 0x00007fffffffffff);
	HOLE(&l, 0xffff800000000000);
	KERN(&l, 0xffff8f8000fd7860, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l, 0xffffaf8000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffff80014264, KL_REGION_TEXT, KL_SEV_HIGH);

	layout(KL_ARCH_RISCV64_SV57, 0, &l);
	USER(&l, 0x00ffffffffffffff);
	HOLE(&l, 0xff00000000000000);
	KERN(&l, 0xff1bfffffea00000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xff20000000000000, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l, 0xff60000000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffdf000000000000, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
}

/*
 * riscv64 Sv39 before v5.13 (pgtable.h, page.h, kasan.h of v5.10-v5.12),
 * every row edge, with values from syzkaller/report/607 (5.11, KASAN).
 */
static void
t_riscv64_pre513(void **state)
{
	struct kl_layout l;
	struct kl_region_hit h;

	(void)state;
	layout(KL_ARCH_RISCV64_PRE513, 0, &l);
	USER(&l, 0x0000003fffffffff);
	USER(&l, 0xffffffbfffffffff);
	/* KASAN_SHADOW_START 2^64 - 2^38, 32 GiB; t4 : ffffffc404a90fb2. */
	KERN(&l, 0xffffffc000000000, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffc404a90fb2, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffc7ffffffff, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	HOLE(&l, 0xffffffc800000000);
	HOLE(&l, 0xffffffcefedfffff);
	/* FIXADDR_START = PCI_IO_START - PMD_SIZE. */
	KERN(&l, 0xffffffcefee00000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffffffcefeffffff, KL_REGION_FIXMAP, KL_SEV_LOW);
	/* PCI_IO_START = VMEMMAP_START - 16 MiB. */
	KERN(&l, 0xffffffceff000000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffffffceffffffff, KL_REGION_FIXMAP, KL_SEV_LOW);
	/* VMEMMAP_START = VMALLOC_START - 2^32. */
	KERN(&l, 0xffffffcf00000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffcfffffffff, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	/* VMALLOC_START = PAGE_OFFSET - 64 GiB, VMALLOC_END PAGE_OFFSET - 1. */
	KERN(&l, 0xffffffd000000000, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffdfffffffff, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	/* The image at PAGE_OFFSET: epc : ffffffe00008c762, gp in .sdata. */
	KERN(&l, 0xffffffe000000000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffe00008c762, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffe006c38208, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffe007ffffff, KL_REGION_TEXT, KL_SEV_HIGH);
	/* The linear map above it: sp : ffffffe00853fec0, to the top. */
	KERN(&l, 0xffffffe008000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffe00853fec0, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffff80000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xffffffffffffffff, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	/* The image row is shared with the linear map above the image. */
	kl_arch_lookup(&l, U64(0xffffffe000000000), &h);
	assert_int_equal(h.flags, KL_AR_SHARED);
	assert_int_equal(h.arch, KL_ARCH_RISCV64_PRE513);
	kl_arch_lookup(&l, U64(0xffffffe008000000), &h);
	assert_int_equal(h.flags, 0);
	kl_arch_lookup(&l, U64(0xffffffd000000000), &h);
	assert_int_equal(h.flags, 0);
	assert_string_equal(h.row->doc, "arch/riscv/include/asm/pgtable.h, "
	    "arch/riscv/include/asm/page.h (v5.10-v5.12)");
}

/* ppc64 book3s and book3e, with values from real reports. */
static void
t_ppc64(void **state)
{
	struct kl_layout l;

	(void)state;
	/* syzkaller/report/431 (pSeries, hash MMU). */
	layout(KL_ARCH_PPC64, 0, &l);
	KERN(&l, 0xc00000000022d79c, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xc000000001f24600, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xc00000007a3ef6e0, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	/* "BUG: Unable to handle kernel data access at 0x8000000041a25f20" */
	USER(&l, 0x8000000041a25f20);
	USER(&l, 0xbfffffffffffffff);
	/* mail/linuxppc-dev: NIP:  c0080000076a1bb4 (a module). */
	KERN(&l, 0xc0080000076a1bb4, KL_REGION_VMALLOC, KL_SEV_HIGH);
	KERN(&l, 0xc00a000000000000, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	KERN(&l, 0xc00c000000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l, 0xc00e000000000000, KL_REGION_KASAN_SHADOW, KL_SEV_MEDIUM);
	HOLE(&l, 0xc010000000000000);
	KERN(&l, 0xd000000000000000, KL_REGION_VMALLOC, KL_SEV_HIGH);
	KERN(&l, 0xf000000000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	HOLE(&l, 0xffffffffffffffff);

	layout(KL_ARCH_PPC64_BOOK3E, 0, &l);
	USER(&l, 0x7fffffffffffffff);
	KERN(&l, 0x8000000041a25f20, KL_REGION_VMALLOC, KL_SEV_HIGH);
	KERN(&l, 0x8000040000000000, KL_REGION_VMEMMAP, KL_SEV_MEDIUM);
	KERN(&l, 0x8000080000000000, KL_REGION_VMALLOC, KL_SEV_MEDIUM);
	HOLE(&l, 0x8000100000000000);
	/* mail/linux-s390/680658f9...: e5500, NIP:  c000000001357408. */
	KERN(&l, 0xc000000001357408, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xc000100000000000, KL_REGION_VMALLOC, KL_SEV_HIGH);
}

/* mips64 and loongarch64. */
static void
t_mips_loongarch(void **state)
{
	struct kl_layout l;

	(void)state;
	/* mail/linux-mips/3f9d6675...: Loongson-3, 6.19. */
	layout(KL_ARCH_MIPS64, 0, &l);
	USER(&l, 0x000000ffffffffff);
	USER(&l, 0x4000000000000000);
	KERN(&l, 0x9800000005dfbe80, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0x9000000000000000, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0x9001ffffffffffff, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	HOLE(&l, 0x9002000000000000);
	KERN(&l, 0x8001180000000800, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	KERN(&l, 0xc000000000004000, KL_REGION_VMALLOC, KL_SEV_HIGH);
	HOLE(&l, 0xc001000000000000);
	KERN(&l, 0xffffffff81afada8, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0xffffffffbfc00000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffffffffc0000000, KL_REGION_MODULES, KL_SEV_HIGH);
	KERN(&l, 0xfffffffffffdffff, KL_REGION_FIXMAP, KL_SEV_LOW);
	HOLE(&l, 0xfffffffffffffff2);

	layout(KL_ARCH_LOONGARCH64, 0, &l);
	USER(&l, 0x7fffffffffffffff);
	KERN(&l, 0x8000000000000000, KL_REGION_FIXMAP, KL_SEV_LOW);
	/* The panic line " .text @ 0x9000000003710000" (facts §4.1). */
	KERN(&l, 0x9000000003710000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0x9000000000200000, KL_REGION_TEXT, KL_SEV_HIGH);
	KERN(&l, 0x9000000108e8fd90, KL_REGION_DIRECT_MAP, KL_SEV_MEDIUM);
	HOLE(&l, 0x9001000000000000);
	KERN(&l, 0xa000000000000000, KL_REGION_FIXMAP, KL_SEV_LOW);
	KERN(&l, 0xffff800002000000, KL_REGION_VMALLOC, KL_SEV_HIGH);
	HOLE(&l, 0xfffffffffffffff2);
}

/* s390x and sparc64 have no value rule at all. */
static void
t_context_only(void **state)
{
	static const enum kl_arch_id ids[] = { KL_ARCH_S390X,
	    KL_ARCH_SPARC64 };
	static const uint64_t vals[] = { 0, U64(0x3ffe0100000),
	    U64(0x00000000fa6239fc), U64(0xffffffff81000000), MAX64 };
	struct kl_layout l;
	struct kl_region_hit h;
	size_t i, j;

	(void)state;
	for (i = 0; i < 2; i++) {
		layout(ids[i], 0, &l);
		assert_int_equal(l.n, 0);
		assert_true(l.arch->flags & KL_ARCH_CONTEXT_ONLY);
		for (j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
			kl_arch_lookup(&l, vals[j], &h);
			assert_int_equal(h.region, KL_REGION_NONE);
			assert_int_equal(h.severity, KL_SEV_NONE);
			assert_int_equal(h.reason, KL_SUP_CONTEXT_ONLY);
			assert_int_equal(h.arch, ids[i]);
			assert_null(h.row);
		}
	}
	kl_arch_lookup(NULL, U64(0xffffffff81000000), &h);
	assert_int_equal(h.reason, KL_SUP_NOT_KERNEL);
	assert_int_equal(h.arch, KL_ARCH_AUTO);
	assert_null(h.row);
}

/* Profile iteration, lookup by id and name, and the fields. */
static void
t_profiles(void **state)
{
	const struct kl_arch *a;
	enum kl_arch_id id;
	size_t i;

	(void)state;
	for (i = 0; (a = kl_arch_at(i)) != NULL; i++) {
		assert_int_equal(a->id, (enum kl_arch_id)(i + 1));
		assert_string_equal(a->name, names[i + 1]);
		assert_string_equal(kl_arch_name(a->id), names[i + 1]);
		assert_ptr_equal(kl_arch_get(a->id), a);
		assert_ptr_equal(kl_arch_byname(names[i + 1]), a);
		assert_int_equal(kl_arch_parse(names[i + 1], &id), 0);
		assert_int_equal(id, a->id);
		assert_non_null(a->descr);
		assert_true(a->bits == 32 || a->bits == 64);
		/* mips32's PAGE_OFFSET is the fixed KSEG0, riscv32's fixed. */
		assert_int_equal(a->bits == 32 && a->id != KL_ARCH_MIPS32 &&
		    a->id != KL_ARCH_RISCV32,
		    (a->flags & KL_ARCH_PAGE_OFFSET) != 0);
	}
	assert_int_equal(i, KL_ARCH_COUNT - 1);
	assert_null(kl_arch_at(KL_ARCH_COUNT));

	a = kl_arch_get(KL_ARCH_X86_64);
	assert_int_equal(a->text_base, U64(0xffffffff81000000));
	assert_int_equal(a->kaslr_align, U64(0x200000));
	assert_int_equal(a->page_offset, U64(0xffff888000000000));
	assert_int_equal(a->flags, 0);
	a = kl_arch_get(KL_ARCH_I386);
	assert_int_equal(a->flags, KL_ARCH_PAGE_OFFSET);
	assert_int_equal(a->page_offset, U64(0xc0000000));
	assert_int_equal(a->text_base, U64(0xc1000000));
	a = kl_arch_get(KL_ARCH_ARM);
	assert_int_equal(a->text_base, U64(0xc0008000));
	assert_int_equal(a->kaslr_align, 0);
	a = kl_arch_get(KL_ARCH_MIPS32);
	assert_int_equal(a->bits, 32);
	assert_int_equal(a->page_offset, U64(0x80000000));
	a = kl_arch_get(KL_ARCH_ARM64);
	assert_int_equal(a->text_base, U64(0xffff800080000000));
	assert_int_equal(a->kaslr_align, U64(0x10000));
	a = kl_arch_get(KL_ARCH_ARM64_PRE54);
	assert_int_equal(a->text_base, U64(0xffff000008080000));
	a = kl_arch_get(KL_ARCH_RISCV64);
	assert_int_equal(a->text_base, U64(0xffffffff80002000));
	a = kl_arch_get(KL_ARCH_RISCV64_PRE513);
	assert_int_equal(a->page_offset, U64(0xffffffe000000000));
	assert_int_equal(a->text_base, U64(0xffffffe000002000));
	assert_int_equal(a->kaslr_align, 0);
	a = kl_arch_get(KL_ARCH_LOONGARCH64);
	assert_int_equal(a->text_base, U64(0x9000000000200000));
	a = kl_arch_get(KL_ARCH_S390X);
	assert_int_equal(a->flags, KL_ARCH_CONTEXT_ONLY);
	assert_int_equal(a->text_base, U64(0x3ffe0100000));
	a = kl_arch_get(KL_ARCH_SPARC64);
	assert_int_equal(a->flags, KL_ARCH_CONTEXT_ONLY);
}

/* Names of ids, regions, severities, confidences, and bad inputs. */
static void
t_names(void **state)
{
	static const char *const regions[KL_REGION_COUNT] = {
		"none", "text", "modules", "direct-map", "vmalloc", "vmemmap",
		"cpu-entry-area", "espfix", "efi", "kasan-shadow", "fixmap",
		"kernel", "layout", "physical",
	};
	enum kl_arch_id id;
	int i;

	(void)state;
	for (i = 0; i < KL_REGION_COUNT; i++)
		assert_string_equal(kl_region_name((enum kl_region)i),
		    regions[i]);
	assert_string_equal(kl_region_name(KL_REGION_COUNT), "invalid");
	assert_string_equal(kl_severity_name(KL_SEV_NONE), "none");
	assert_string_equal(kl_severity_name(KL_SEV_LOW), "low");
	assert_string_equal(kl_severity_name(KL_SEV_MEDIUM), "medium");
	assert_string_equal(kl_severity_name(KL_SEV_HIGH), "high");
	assert_string_equal(kl_severity_name(KL_SEV_COUNT), "invalid");
	assert_string_equal(kl_confidence_name(KL_CONF_LOW), "low");
	assert_string_equal(kl_confidence_name(KL_CONF_MEDIUM), "medium");
	assert_string_equal(kl_confidence_name(KL_CONF_HIGH), "high");
	assert_string_equal(kl_confidence_name(KL_CONF_COUNT), "invalid");

	assert_string_equal(kl_arch_name(KL_ARCH_AUTO), "unknown");
	assert_string_equal(kl_arch_name(KL_ARCH_COUNT), "unknown");
	assert_string_equal(kl_arch_name((enum kl_arch_id)-1), "unknown");
	assert_null(kl_arch_get(KL_ARCH_AUTO));
	assert_null(kl_arch_get(KL_ARCH_COUNT));
	assert_null(kl_arch_byname("auto"));
	assert_null(kl_arch_byname("unknown"));
	assert_null(kl_arch_byname("ARM64"));
	assert_null(kl_arch_byname("x86-64"));
	assert_null(kl_arch_byname("arm64 "));
	assert_null(kl_arch_byname(""));
	assert_null(kl_arch_byname(NULL));
	id = KL_ARCH_ARM;
	assert_int_equal(kl_arch_parse("auto", &id), 0);
	assert_int_equal(id, KL_ARCH_AUTO);
	id = KL_ARCH_ARM;
	assert_int_equal(kl_arch_parse("amd64", &id), -1);
	assert_int_equal(id, KL_ARCH_ARM);
	assert_int_equal(kl_arch_parse(NULL, &id), -1);
	assert_int_equal(kl_arch_parse("riscv64-sv57", &id), 0);
	assert_int_equal(id, KL_ARCH_RISCV64_SV57);
}

/* kl_arch_refine: the arm64 v5.4-v6.4 image window, from the version. */
static void
test_refine_arm64(void **state)
{
	struct kl_layout l;
	struct kl_region_hit h;
	struct kl_error err;

	(void)state;
	/* boot/OrangePi5-OpenCL__dmesg.txt:507, Linux 5.10.110, 39-bit VAs */
	assert_int_equal(kl_arch_layout(KL_ARCH_ARM64_39, 0, &l, &err), 0);
	kl_arch_refine(&l, 0x050a6e);
	kl_arch_lookup(&l, UINT64_C(0xffffffc01108a1f0), &h);
	assert_int_equal(h.region, KL_REGION_TEXT);
	kl_arch_lookup(&l, UINT64_C(0xffffffc007ffffff), &h);
	assert_int_equal(h.region, KL_REGION_MODULES);
	kl_arch_lookup(&l, UINT64_C(0xffffffc008000000), &h);
	assert_int_equal(h.region, KL_REGION_TEXT);
	kl_arch_lookup(&l, UINT64_C(0xffffffc080000000), &h);
	assert_int_equal(h.region, KL_REGION_VMALLOC);
	/* v6.5+ keeps 2 GiB of modules; x86_64 is never touched. */
	assert_int_equal(kl_arch_layout(KL_ARCH_ARM64_39, 0, &l, &err), 0);
	kl_arch_refine(&l, 0x060600);
	kl_arch_lookup(&l, UINT64_C(0xffffffc01108a1f0), &h);
	assert_int_equal(h.region, KL_REGION_MODULES);
	assert_int_equal(kl_arch_layout(KL_ARCH_X86_64, 0, &l, &err), 0);
	kl_arch_refine(&l, 0x050a00);
	kl_arch_lookup(&l, UINT64_C(0xffffffffc0001000), &h);
	assert_int_equal(h.region, KL_REGION_MODULES);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refine_arm64),
		cmocka_unit_test(t_all_rows),
		cmocka_unit_test(t_x86_64),
		cmocka_unit_test(t_x86_64_l5),
		cmocka_unit_test(t_union),
		cmocka_unit_test(t_i386),
		cmocka_unit_test(t_arm_ppc32),
		cmocka_unit_test(t_bad_page_offset),
		cmocka_unit_test(t_arm64),
		cmocka_unit_test(t_untag),
		cmocka_unit_test(t_riscv64),
		cmocka_unit_test(t_riscv64_pre513),
		cmocka_unit_test(t_ppc64),
		cmocka_unit_test(t_mips_loongarch),
		cmocka_unit_test(t_context_only),
		cmocka_unit_test(t_profiles),
		cmocka_unit_test(t_names),
	};

	return (cmocka_run_group_tests_name("arch", tests, NULL, NULL));
}
