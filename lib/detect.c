/*
 * detect.c - --arch auto: turn the evidence of a log into a guess of its
 * architecture profile.  detect-line.c reads the lines and records what
 * they say here (kl_detect_family(), kl_detect_bits(), kl_detect_va(),
 * kl_detect_weak() ...); candidate values vote through kl_detect_value();
 * kl_detect_resolve() turns the evidence into st->arch and st->certain.
 *
 * Evidence is strong or weak:
 * - strong: a register dump line of one architecture (x86 "RIP:", arm64
 *   "pstate:", ppc "NIP:", s390 "Krnl PSW", ...), the width of its values
 *   (32- or 64-bit), the arm64 "pgtable: ..., N-bit VAs" line, the stack
 *   pointer value (VA size), the "Linux version" banner (kernel version and
 *   an arch word in the compiler triple or release string), systemd's
 *   "Detected architecture", and a few boot lines unique to one
 *   architecture ("x86/fpu:", "BIOS-e820:", "CPU features:", "riscv:").
 *   The first strong family wins; later contradicting lines are ignored.
 * - weak: "Machine model:", "Hardware name:", "DMI:", "PC is at", short
 *   "Booting Linux on physical CPU" lines and the like add to score[] and
 *   only decide when nothing strong is seen.
 *
 * The guess is certain once nothing can refine it: family and width known
 * and, where the profile depends on them, VA size (x86_64, arm64, riscv64)
 * and kernel version (arm64: before v5.4 means arm64-pre5.4; riscv64:
 * before v5.13 means riscv64-pre5.13).  Until then
 * st->arch is the best guess; kl_detect_finish() freezes it.
 *
 * Once the family is known, score[] holds votes for its VA sizes from
 * kl_detect_value() (indexed by the profile of that size); before, it
 * holds the weak family evidence.
 *
 * Limits: no log line names x86 5-level paging, so it is seen only in a
 * kernel stack pointer or in direct-map/vmalloc values; an arm64 stack
 * pointer (vmalloc, the same on 48- and 52-bit) settles 48 bits unless the
 * "pgtable: ... 52-bit VAs" line or linear-map values came first; an
 * arm64 kernel before v5.4 gets arm64-pre5.4 even with 39-bit VAs (there is
 * no pre-5.4 39-bit profile).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define U64(x) UINT64_C(x)

#define SCORE_MAX (1u << 20)
#define VOTES 2 /* values that decide a VA size */
#define VOTES_39 4 /* ... a 39-bit one (could be a 48-bit top) */
#define VOTES_42 8 /* ... a 42-bit one (could be 48-bit vmemmap) */


/* Add to a score, saturating. */
void
kl_detect_score(struct kl_detect *st, enum kl_arch_id id, unsigned n)
{
	st->flags |= KL_DF_DIRTY;
	st->score[id] =
	    st->score[id] + n > SCORE_MAX ? SCORE_MAX : st->score[id] + n;
}

/* Weak family evidence: counts only while no family is known. */
void
kl_detect_weak(struct kl_detect *st, enum kl_arch_id id, unsigned n)
{
	if (st->family == KL_FAM_NONE)
		kl_detect_score(st, id, n);
}

/* Record a strong family; the first one wins. */
void
kl_detect_family(struct kl_detect *st, int fam)
{
	if (st->family == fam || st->family != KL_FAM_NONE)
		return;
	st->family = fam;
	st->va_bits = 0;
	st->flags &= ~(unsigned)KL_DF_VA;
	st->flags |= KL_DF_DIRTY;
	memset(st->score, 0, sizeof(st->score));
}

/* Record the word size; strong evidence is final, weak fills a gap. */
void
kl_detect_bits(struct kl_detect *st, int bits, int strong)
{
	if (st->flags & KL_DF_BITS)
		return;
	if (!strong && st->bits != 0)
		return;
	st->bits = bits;
	st->flags |= KL_DF_DIRTY;
	if (strong)
		st->flags |= KL_DF_BITS;
}

/* Record the VA size; force replaces one from a weaker source. */
void
kl_detect_va(struct kl_detect *st, int va, int force)
{
	if ((st->flags & KL_DF_VA) && !force)
		return;
	st->va_bits = va;
	st->flags |= KL_DF_VA | KL_DF_DIRTY;
}

/* The VA size of a profile (for the votes in score[]). */
int
kl_detect_va_of(enum kl_arch_id id)
{
	switch (id) {
	case KL_ARCH_ARM64_39:
	case KL_ARCH_RISCV64:
	case KL_ARCH_RISCV64_PRE513:
		return (39);
	case KL_ARCH_ARM64_42:
		return (42);
	case KL_ARCH_ARM64_47:
		return (47);
	case KL_ARCH_ARM64_52:
		return (52);
	case KL_ARCH_X86_64_L5:
	case KL_ARCH_RISCV64_SV57:
		return (57);
	default:
		return (48);
	}
}

/* The best-voted of n profiles; ties go to the earlier one. */
static enum kl_arch_id
most_votes(const struct kl_detect *st, const enum kl_arch_id *c, size_t n)
{
	size_t i, best;

	best = 0;
	for (i = 1; i < n; i++)
		if (st->score[c[i]] > st->score[c[best]])
			best = i;
	return (c[best]);
}

/* The arm64 profile for a VA size, in the v5.4+ layout. */
static enum kl_arch_id
arm64_of(int va)
{
	switch (va) {
	case 36:
	case 39:
		return (KL_ARCH_ARM64_39);
	case 42:
		return (KL_ARCH_ARM64_42);
	case 47:
		return (KL_ARCH_ARM64_47);
	case 52:
		return (KL_ARCH_ARM64_52);
	default:
		return (KL_ARCH_ARM64);
	}
}

/* The arm64 profile best explaining the values seen; decide if clear. */
static enum kl_arch_id
arm64_guess(struct kl_detect *st)
{
	static const enum kl_arch_id c[] = {KL_ARCH_ARM64, KL_ARCH_ARM64_52,
	    KL_ARCH_ARM64_39, KL_ARCH_ARM64_42};
	const unsigned *s = st->score;

	if (st->flags & KL_DF_VA)
		return (arm64_of(st->va_bits));
	if (s[KL_ARCH_ARM64_52] >= VOTES)
		kl_detect_va(st, 52, 0);
	else if (s[KL_ARCH_ARM64] >= VOTES)
		kl_detect_va(st, 48, 0);
	else if (s[KL_ARCH_ARM64_42] >= VOTES_42 && s[KL_ARCH_ARM64] == 0 &&
	    s[KL_ARCH_ARM64_52] == 0)
		kl_detect_va(st, 42, 0);
	else if (s[KL_ARCH_ARM64_39] >= VOTES_39 && s[KL_ARCH_ARM64_42] == 0 &&
	    s[KL_ARCH_ARM64] == 0 && s[KL_ARCH_ARM64_52] == 0)
		kl_detect_va(st, 39, 0);
	else
		return (most_votes(st, c, sizeof(c) / sizeof(c[0])));
	return (arm64_of(st->va_bits));
}

/* The riscv64 profile best explaining the values seen. */
static enum kl_arch_id
riscv_guess(struct kl_detect *st)
{
	static const enum kl_arch_id c[] = {
	    KL_ARCH_RISCV64, KL_ARCH_RISCV64_SV48, KL_ARCH_RISCV64_SV57};
	const unsigned *s = st->score;

	if (!(st->flags & KL_DF_VA)) {
		if (s[KL_ARCH_RISCV64_SV57] >= VOTES)
			kl_detect_va(st, 57, 0);
		else if (s[KL_ARCH_RISCV64_SV48] >= VOTES)
			kl_detect_va(st, 48, 0);
		else if (s[KL_ARCH_RISCV64] >= VOTES_39 &&
		    s[KL_ARCH_RISCV64_SV48] == 0 &&
		    s[KL_ARCH_RISCV64_SV57] == 0)
			kl_detect_va(st, 39, 0);
		else
			return (most_votes(st, c, sizeof(c) / sizeof(c[0])));
	}
	if (st->va_bits == 57)
		return (KL_ARCH_RISCV64_SV57);
	if (st->va_bits == 48)
		return (KL_ARCH_RISCV64_SV48);
	return (KL_ARCH_RISCV64);
}

/* The x86_64 profile best explaining the values seen. */
static enum kl_arch_id
x86_64_guess(struct kl_detect *st)
{
	static const enum kl_arch_id c[] = {KL_ARCH_X86_64, KL_ARCH_X86_64_L5};

	if (!(st->flags & KL_DF_VA)) {
		if (st->score[KL_ARCH_X86_64_L5] >= VOTES)
			kl_detect_va(st, 57, 0);
		else if (st->score[KL_ARCH_X86_64] >= VOTES)
			kl_detect_va(st, 48, 0);
		else
			return (most_votes(st, c, sizeof(c) / sizeof(c[0])));
	}
	return (st->va_bits == 57 ? KL_ARCH_X86_64_L5 : KL_ARCH_X86_64);
}

/* The profile with the highest weak score, AUTO if none scored. */
static enum kl_arch_id
weak_guess(const struct kl_detect *st)
{
	unsigned best;
	int i, id;

	best = 0;
	id = KL_ARCH_AUTO;
	for (i = 1; i < KL_ARCH_COUNT; i++)
		if (st->score[i] > best) {
			best = st->score[i];
			id = i;
		}
	return ((enum kl_arch_id)id);
}

/* Turn the evidence so far into st->arch and st->certain. */
void
kl_detect_resolve(struct kl_detect *st)
{
	enum kl_arch_id a;
	int bits_ok, certain;

	a = KL_ARCH_AUTO;
	certain = 0;
	bits_ok = (st->flags & KL_DF_BITS) != 0;
	switch (st->family) {
	case KL_FAM_NONE:
		a = weak_guess(st);
		if (a == KL_ARCH_ARM64 && st->kver != 0 && st->kver < 0x050400)
			a = KL_ARCH_ARM64_PRE54;
		if (a == KL_ARCH_RISCV64 && st->kver != 0 &&
		    st->kver < 0x050d00)
			a = KL_ARCH_RISCV64_PRE513;
		break;
	case KL_FAM_X86:
		if (st->bits == 32) {
			/* The VMSPLIT waits for a built-in frame, as arm's. */
			a = KL_ARCH_I386;
			certain = bits_ok && st->page_offset != 0;
			break;
		}
		a = x86_64_guess(st);
		certain = st->bits == 64 && bits_ok && (st->flags & KL_DF_VA);
		break;
	case KL_FAM_ARM64:
		/*
		 * Before v5.4 the image sat in the lower half of the kernel
		 * space; since, the linear map does, and text never.
		 */
		if ((st->kver != 0 && st->kver < 0x050400) ||
		    (st->kver == 0 && (st->flags & KL_DF_ARM64_LOW))) {
			/* One pre-5.4 profile: nothing left to learn. */
			a = KL_ARCH_ARM64_PRE54;
			certain = 1;
			break;
		}
		a = arm64_guess(st);
		certain = st->kver != 0 && (st->flags & KL_DF_VA);
		break;
	case KL_FAM_ARM:
		/* The split waits for a built-in frame (arm_split()). */
		a = KL_ARCH_ARM;
		certain = st->page_offset != 0;
		break;
	case KL_FAM_PPC:
		if (st->bits == 32) {
			a = KL_ARCH_PPC32;
			certain = bits_ok;
			break;
		}
		a = (st->flags & KL_DF_BOOK3E) ? KL_ARCH_PPC64_BOOK3E
					    : KL_ARCH_PPC64;
		certain = st->bits == 64 && bits_ok;
		break;
	case KL_FAM_RISCV:
		if (st->bits == 32) {
			a = KL_ARCH_RISCV32;
			certain = bits_ok;
			break;
		}
		if (st->kver != 0 && st->kver < 0x050d00) {
			/* Sv39 only (Sv48 came in v5.17): one profile. */
			a = KL_ARCH_RISCV64_PRE513;
			certain = bits_ok;
			break;
		}
		a = riscv_guess(st);
		certain = (st->flags & KL_DF_VA) != 0;
		break;
	case KL_FAM_MIPS:
		if (st->bits == 32) {
			a = KL_ARCH_MIPS32;
			certain = bits_ok;
			break;
		}
		a = KL_ARCH_MIPS64;
		certain = st->bits == 64 && bits_ok;
		break;
	case KL_FAM_LOONGARCH:
		a = KL_ARCH_LOONGARCH64;
		certain = 1;
		break;
	case KL_FAM_S390:
		a = KL_ARCH_S390X;
		certain = 1;
		break;
	case KL_FAM_SPARC:
		a = KL_ARCH_SPARC64;
		certain = 1;
		break;
	}
	st->arch = a;
	st->certain = certain ? 1 : 0;
	st->flags &= ~(unsigned)KL_DF_DIRTY;
}

/* Start a detection state. */
void
kl_detect_init(struct kl_detect *st)
{
	memset(st, 0, sizeof(*st));
	st->arch = KL_ARCH_AUTO;
}

/* Leading one bits of v. */
static unsigned
lead_ones(uint64_t v)
{
	unsigned n;

	for (n = 0; n < 64 && (v & (U64(1) << (63 - n))) != 0; n++)
		;
	return (n);
}

/* The arm64 profile whose VA size a kernel value implies; AUTO if none. */
enum kl_arch_id
kl_detect_arm64_va(uint64_t v)
{
	unsigned vb;

	/* Untagged, in some kernel half, below the shared top 1 GiB. */
	if (v < U64(0xfff0000000000000) || v >= U64(0xffffffffc0000000))
		return (KL_ARCH_AUTO);
	vb = 64 - lead_ones(v);
	if (vb <= 39)
		return (KL_ARCH_ARM64_39);
	if (vb <= 42)
		return (KL_ARCH_ARM64_42);
	if (vb <= 48)
		return (KL_ARCH_ARM64);
	return (KL_ARCH_ARM64_52);
}

/* The riscv64 profile whose VA size a kernel value implies. */
enum kl_arch_id
kl_detect_riscv_va(uint64_t v)
{
	unsigned l;

	/* Image and modules are the same in every mode. */
	if (v < U64(0xff00000000000000) || v >= U64(0xffffffff00000000))
		return (KL_ARCH_AUTO);
	l = lead_ones(v);
	if (l >= 26)
		return (KL_ARCH_RISCV64);
	if (l >= 17)
		return (KL_ARCH_RISCV64_SV48);
	return (KL_ARCH_RISCV64_SV57);
}

/* The x86_64 profile a direct-map/vmalloc/vmemmap value implies. */
enum kl_arch_id
kl_detect_x86_va(uint64_t v)
{
	if (v >= U64(0xffff880000000000) && v < U64(0xfffffc0000000000))
		return (KL_ARCH_X86_64);
	if (v >= U64(0xff10000000000000) && v < U64(0xffdf000000000000))
		return (KL_ARCH_X86_64_L5);
	return (KL_ARCH_AUTO);
}

/*
 * Feed a candidate kernel value of ndigits hex digits.  Once the family
 * is known, values vote for its VA size (arm64, riscv64, x86_64) and a
 * 16-digit kernel pointer settles a 64-bit width (x86, ppc, mips).
 */
void
kl_detect_value(struct kl_detect *st, uint64_t value, size_t ndigits)
{
	enum kl_arch_id id;

	if (st->certain || st->family == KL_FAM_NONE || ndigits != 16)
		return;
	id = KL_ARCH_AUTO;
	switch (st->family) {
	case KL_FAM_ARM64:
		id = kl_detect_arm64_va(value);
		break;
	case KL_FAM_RISCV:
		id = kl_detect_riscv_va(value);
		break;
	case KL_FAM_X86:
		if ((id = kl_detect_x86_va(value)) != KL_ARCH_AUTO)
			kl_detect_bits(st, 64, 1);
		break;
	case KL_FAM_PPC:
		if (value >= U64(0x8000000000000000))
			kl_detect_bits(st, 64, 1);
		break;
	case KL_FAM_MIPS:
		if (value >= U64(0x8000000000000000))
			kl_detect_bits(st, 64, 1);
		break;
	default:
		break;
	}
	if (id != KL_ARCH_AUTO && !(st->flags & KL_DF_VA))
		kl_detect_score(st, id, 1);
	if (st->flags & KL_DF_DIRTY)
		kl_detect_resolve(st);
}

/* End of the input or boot: settle on the best guess. */
void
kl_detect_finish(struct kl_detect *st)
{
	if (st->certain)
		return;
	kl_detect_resolve(st);
	st->certain = 1;
}
