/*
 * kaslr.c - what one boot segment of a log tells about the kernel's
 * randomised layout: the KASLR slide and the bases of the other regions.
 *
 * Evidence, each kept with its line:
 *  - "Kernel Offset: 0x%lx from 0x%lx" (x86, arm64, riscv, ppc BookE
 *    panic notifiers) gives the slide itself; "Kernel Offset: disabled",
 *    "KASLR disabled ..." and a "nokaslr" command line give slide 0;
 *  - with a symbol map, a raw address printed beside the symbol it
 *    resolves to: call-trace frames "[<ffffffff81234567>] f+0x12/0x40"
 *    (x86, arm64, arm, mips, loongarch before 4.15-ish) and powerpc's
 *    "[c...] [c...] f+0x../0x.." (the second value is the pc), and
 *    /proc/kallsyms lines "ffffffff85200000 T _text" with runtime
 *    addresses: slide = value - (link address of f + offset);
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
	uint64_t	 range;		/* slides lie in [0, range) */
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
	/* arm64: EFI_KIMG_ALIGN 64 KiB inside half the vmalloc area. */
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
	{ KL_ARCH_LOONGARCH64, 64 << 10, GIB, 14, 9, 0 },
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

/* Start the evidence of a boot segment. */
void
kl_kaslr_init(struct kl_kaslr *k, enum kl_arch_id arch,
    const struct kl_symtab *map)
{
	memset(k, 0, sizeof(*k));
	k->arch = arch;
	k->map = map;
}

/* The architecture became known (after init, with --arch auto). */
void
kl_kaslr_set_arch(struct kl_kaslr *k, enum kl_arch_id arch)
{
	k->arch = arch;
}

/* The symbol map to use from now on (NULL for none). */
void
kl_kaslr_set_map(struct kl_kaslr *k, const struct kl_symtab *map)
{
	k->map = map;
}

/* Keep one piece of evidence (the first KL_EVIDENCE_MAX of them). */
static void
keep(struct kl_kaslr *k, uint64_t line, enum kl_evidence_kind kind,
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
 * Can s be a slide of the architecture?  While it is not known yet, any
 * page-aligned value below 2^46 can; kl_kaslr_slide() checks again.
 */
static int
valid(const struct kl_kaslr *k, uint64_t s)
{
	const struct kinfo *ki = kinfo(k->arch);

	if (k->arch == KL_ARCH_AUTO)
		return (s % 4096 == 0 && s < (UINT64_C(1) << 46));
	if (ki->step == 0)
		return (s == 0);
	return (s % ki->step == 0 && s < ki->range);
}

/* Count a vote for slide s; returns 0, or -1 when s is impossible. */
static int
vote(struct kl_kaslr *k, uint64_t s)
{
	size_t i;

	if (!valid(k, s))
		return (-1);
	for (i = 0; i < k->nslides; i++)
		if (k->slide[i] == s) {
			k->votes[i]++;
			return (0);
		}
	if (k->nslides < KL_SLIDES_MAX) {
		k->slide[k->nslides] = s;
		k->votes[k->nslides++] = 1;
	}
	return (0);
}

/* Parse hex digits (an optional 0x first) at b[*i..n); 0 when none. */
static int
hex_at(const uint8_t *b, size_t n, size_t *i, uint64_t *v)
{
	size_t j = *i, d = 0;
	uint64_t x = 0;

	if (j + 1 < n && b[j] == '0' && (b[j + 1] == 'x' || b[j + 1] == 'X'))
		j += 2;
	while (j < n && kl_isxdigit(b[j]) && d < 17) {
		x = x << 4 | (uint64_t)(b[j] <= '9' ? b[j] - '0' :
		    (b[j] | 0x20) - 'a' + 10);
		j++;
		d++;
	}
	if (d == 0 || d > 16)
		return (0);
	*i = j;
	*v = x;
	return (1);
}

/* Skip spaces and tabs. */
static size_t
skip_blank(const uint8_t *b, size_t n, size_t i)
{
	while (i < n && (b[i] == ' ' || b[i] == '\t'))
		i++;
	return (i);
}

/* Is b a byte of a C symbol name (with the '.' of f.cold, f.isra.0)? */
static int
is_symc(uint8_t b)
{
	return (kl_isalnum(b) || b == '_' || b == '.' || b == '$');
}

/*
 * Parse "name+0xoff/0xsize" at b[*i..n) (%pS/%pB text), not followed by
 * a " [module]".  Copies the name to name[0..namesz).  Returns 1 when
 * found.
 */
static int
symoff_at(const uint8_t *b, size_t n, size_t *i, char *name, size_t namesz,
    uint64_t *off)
{
	size_t j = *i, s = *i, ln;
	uint64_t size;

	while (j < n && is_symc(b[j]))
		j++;
	ln = j - s;
	if (ln == 0 || ln >= namesz || j >= n || b[j] != '+')
		return (0);
	j++;
	if (j + 1 >= n || b[j] != '0' || b[j + 1] != 'x' ||
	    !hex_at(b, n, &j, off))
		return (0);
	if (j >= n || b[j] != '/')
		return (0);
	j++;
	if (!hex_at(b, n, &j, &size))
		return (0);
	if (j < n && kl_isalnum(b[j]))
		return (0);
	/* A module symbol: " [ext4]" follows. */
	if (j + 1 < n && b[j] == ' ' && b[j + 1] == '[')
		return (0);
	memcpy(name, b + s, ln);
	name[ln] = '\0';
	*i = j;
	return (1);
}

/* A raw address v printed as the location name+off: a slide vote. */
static void
pair(struct kl_kaslr *k, uint64_t line, enum kl_evidence_kind kind,
    uint64_t v, const char *name, uint64_t off)
{
	uint64_t link;

	if (k->map == NULL || !kl_sym_find(k->map, name, &link))
		return;
	if (v < link + off)
		return;
	if (vote(k, v - (link + off)) == 0)
		keep(k, line, kind, KL_REGION_TEXT, v - (link + off));
}

/* "Kernel Offset: 0x4200000 from 0xffffffff81000000" or "...: disabled". */
static int
kernel_offset(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	static const char lit[] = "Kernel Offset: ";
	size_t i;
	uint64_t off, from;

	if (!kl_startswith(m, n, KL_LIT(lit)))
		return (0);
	i = sizeof(lit) - 1;
	if (kl_startswith(m + i, n - i, KL_LIT("disabled"))) {
		k->off = 1;
		keep(k, line, KL_EV_KASLR_OFF, KL_REGION_TEXT, 0);
		(void)vote(k, 0);
		return (1);
	}
	if (!hex_at(m, n, &i, &off))
		return (0);
	if (!kl_startswith(m + i, n - i, KL_LIT(" from ")))
		return (0);
	i += 6;
	if (!hex_at(m, n, &i, &from))
		return (0);
	if (vote(k, off) == 0) {
		keep(k, line, KL_EV_KERNEL_OFFSET, KL_REGION_TEXT, off);
		k->offset_from = from;
	}
	return (1);
}

/* KASLR switched off: "KASLR disabled ...", "nokaslr" on the command line. */
static int
kaslr_off(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	const uint8_t *p;
	size_t i;

	if (kl_startswith(m, n, KL_LIT("KASLR disabled")) ||
	    kl_startswith(m, n, KL_LIT("KASLR is disabled"))) {
		k->off = 1;
		keep(k, line, KL_EV_KASLR_OFF, KL_REGION_TEXT, 0);
		(void)vote(k, 0);
		return (1);
	}
	if (!kl_startswith(m, n, KL_LIT("Command line: ")) &&
	    !kl_startswith(m, n, KL_LIT("Kernel command line: ")))
		return (0);
	for (i = 0; (p = kl_memmem(m + i, n - i, KL_LIT("nokaslr"))) != NULL;
	    i = (size_t)(p - m) + 7) {
		size_t at = (size_t)(p - m);

		if ((at == 0 || m[at - 1] == ' ') &&
		    (at + 7 == n || m[at + 7] == ' ')) {
			k->off = 1;
			keep(k, line, KL_EV_KASLR_OFF, KL_REGION_TEXT, 0);
			(void)vote(k, 0);
			return (1);
		}
	}
	return (0);
}

/* "ffffffff85200000 T _text" (/proc/kallsyms or nm, runtime addresses). */
static int
kallsyms_line(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	size_t i = 0, s;
	uint64_t v, link;
	char name[128];

	if (n < 20 || !hex_at(m, n, &i, &v) || i != 16 || m[i] != ' ')
		return (0);
	i++;
	if (i + 2 >= n || !kl_isalnum(m[i]) || m[i + 1] != ' ')
		return (0);
	i += 2;
	s = i;
	while (i < n && is_symc(m[i]))
		i++;
	if (i == s || i - s >= sizeof(name) || (i < n && m[i] != '\t' &&
	    m[i] != ' ' && m[i] != '\r'))
		return (0);
	memcpy(name, m + s, i - s);
	name[i - s] = '\0';
	if (v == 0 || k->map == NULL || !kl_sym_find(k->map, name, &link) ||
	    v < link)
		return (1);
	if (vote(k, v - link) == 0)
		keep(k, line, KL_EV_KALLSYMS, KL_REGION_TEXT, v - link);
	return (1);
}

/*
 * Frames: a raw address in brackets ("[<ffffffff81234567>]" or powerpc's
 * "[c000000000123456]") directly followed by the symbol it is.
 */
static void
frames(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	const uint8_t *p;
	size_t i = 0, j;
	uint64_t v, off;
	char name[128];

	while (i < n && (p = memchr(m + i, '[', n - i)) != NULL) {
		j = (size_t)(p - m) + 1;
		i = j;
		if (j < n && m[j] == '<')
			j++;
		if (!hex_at(m, n, &j, &v) || j - i < 8)
			continue;
		if (j < n && m[j] == '>')
			j++;
		if (j >= n || m[j] != ']')
			continue;
		j = skip_blank(m, n, j + 1);
		if (symoff_at(m, n, &j, name, sizeof(name), &off))
			pair(k, line, KL_EV_FRAME, v, name, off);
	}
}

/*
 * Look at one line of the boot segment (its message).  Returns 1 when
 * the line itself is a disclosure of layout (a Kernel Offset line).
 */
int
kl_kaslr_line(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	if (n < 8)
		return (0);
	switch (m[0]) {
	case 'K':
		if (kernel_offset(k, line, m, n))
			return (1);
		/* FALLTHROUGH */
	case 'C':
		if (kaslr_off(k, line, m, n))
			return (0);
		break;
	default:
		if (k->map != NULL && kl_isxdigit(m[0]) &&
		    kallsyms_line(k, line, m, n))
			return (0);
		break;
	}
	/* Frames say something only with a map. */
	if (k->map != NULL && memchr(m, '+', n) != NULL &&
	    memchr(m, '[', n) != NULL)
		frames(k, line, m, n);
	return (0);
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
			keep(k, line, KL_EV_VALUE, region, v);
		k->low[region] = v;
	}
	k->seen[region]++;
}

/* The slide of the segment, if the evidence gives one: 1, else 0. */
int
kl_kaslr_slide(const struct kl_kaslr *k, uint64_t *slide)
{
	size_t i, best = SIZE_MAX;

	for (i = 0; i < k->nslides; i++)
		if (valid(k, k->slide[i]) && (best == SIZE_MAX ||
		    k->votes[i] > k->votes[best]))
			best = i;
	if (best == SIZE_MAX)
		return (0);
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

/* What the segment discloses, for the report. */
void
kl_kaslr_verdict(const struct kl_kaslr *k, struct kl_boot_verdict *v)
{
	const struct kl_arch *a = kl_arch_get(k->arch);
	const struct kinfo *ki = kinfo(k->arch);
	uint64_t s, step;
	size_t i;
	int r;

	memset(v, 0, sizeof(*v));
	v->arch = k->arch;
	v->kaslr_off = k->off;
	v->entropy_bits = ki->bits;
	v->nev = k->nev;
	v->nev_total = k->nev_total;
	memcpy(v->ev, k->ev, k->nev * sizeof(k->ev[0]));
	if (kl_kaslr_slide(k, &s)) {
		v->has_slide = 1;
		v->slide = s;
		for (i = 0; i < k->nslides; i++)
			if (k->slide[i] == s)
				v->slide_votes = k->votes[i];
			else if (valid(k, k->slide[i]))
				v->conflicts++;
		v->text_base = (k->offset_from != 0 ? k->offset_from :
		    a != NULL ? a->text_base : 0) + s;
		v->text_exact = 1;
		v->disclosed |= 1u << KL_REGION_TEXT;
		v->base[KL_REGION_TEXT] = v->text_base;
		v->entropy_bits = 0;
	}
	for (r = KL_REGION_TEXT; r < KL_REGION_COUNT; r++) {
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
	};

	if ((size_t)kind >= sizeof(names) / sizeof(names[0]) ||
	    names[kind] == NULL)
		return ("unknown");
	return (names[kind]);
}
