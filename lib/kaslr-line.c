/*
 * kaslr-line.c - what one log line says of the kernel's randomised
 * layout: the stated slide ("Kernel Offset:", "Kernel relocated by"), the
 * KASLR state, raw addresses beside the symbols they resolve to (frames,
 * register dumps, /proc/kallsyms lines) and memory lines, kept as
 * evidence and votes with kaslr.c's kl_kaslr_keep() and kl_kaslr_vote().
 * What the evidence decides is described in kaslr.c.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

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
	if (kl_kaslr_vote(k, v - (link + off)) == 0)
		kl_kaslr_keep(k, line, kind, KL_REGION_TEXT, v - (link + off));
}

/*
 * "Kernel Offset: 0x4200000 from 0xffffffff81000000"; loongarch's
 * "Kernel relocated by 0x3510000"; the VMCOREINFO note's
 * "KERNELOFFSET=4200000" (kernel/vmcore_info.c, as makedumpfile and
 * crash print it).
 */
static int
kernel_offset(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	static const char lit[] = "Kernel Offset: ";
	static const char reloc[] = "Kernel relocated by 0x";
	static const char note[] = "KERNELOFFSET=";
	size_t i;
	uint64_t off, from;

	if (kl_startswith(m, n, KL_LIT(note))) {
		i = sizeof(note) - 1;
		if (i + 1 < n && m[i + 1] == 'x')
			return (0);
		if (!hex_at(m, n, &i, &off) || (i < n && m[i] != '\r' &&
		    m[i] != ' '))
			return (0);
		if (kl_kaslr_vote_as(k, off, 1) == 0)
			kl_kaslr_keep(k, line, KL_EV_KERNEL_OFFSET,
			    KL_REGION_TEXT, off);
		return (1);
	}
	if (kl_startswith(m, n, KL_LIT(reloc))) {
		/* loongarch %lx; mips %pK, maybe hashed (8 zeros first). */
		i = sizeof(reloc) - 1;
		if (!hex_at(m, n, &i, &off) || (i - (sizeof(reloc) - 1) ==
		    16 && off >> 32 == 0))
			return (0);
		if (kl_kaslr_vote_as(k, off, 1) == 0)
			kl_kaslr_keep(k, line, KL_EV_KERNEL_OFFSET,
			    KL_REGION_TEXT, off);
		return (1);
	}
	if (!kl_startswith(m, n, KL_LIT(lit)))
		return (0);
	i = sizeof(lit) - 1;
	if (!hex_at(m, n, &i, &off))
		return (0);
	if (!kl_startswith(m + i, n - i, KL_LIT(" from ")))
		return (0);
	i += 6;
	if (!hex_at(m, n, &i, &from))
		return (0);
	if (kl_kaslr_vote_as(k, off, 1) == 0) {
		kl_kaslr_keep(k, line, KL_EV_KERNEL_OFFSET, KL_REGION_TEXT,
		    off);
		k->offset_from = from;
	}
	return (1);
}

/*
 * arm64's panic notifier: "PHYS_OFFSET: 0xfffff58b40000000" prints
 * memstart_addr, and __phys_to_virt(x) is (x - PHYS_OFFSET) | PAGE_OFFSET
 * (arch/arm64/include/asm/memory.h): the direct map's base, virt = phys
 * + PAGE_OFFSET - PHYS_OFFSET, negative when the linear map is
 * randomised.  Kept as the exact base of the direct map.  Returns 1 for
 * the line, else 0.
 */
static int
phys_offset(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	static const char lit[] = "PHYS_OFFSET: 0x";
	const struct kl_arch *a;
	size_t i = sizeof(lit) - 3;
	uint64_t p;

	if (!kl_startswith(m, n, KL_LIT(lit)) || !hex_at(m, n, &i, &p))
		return (0);
	if (!kl_kaslr_arm64(k->arch) && k->arch != KL_ARCH_AUTO)
		return (0);
	a = kl_arch_get(kl_kaslr_arm64(k->arch) ? k->arch : KL_ARCH_ARM64);
	if (a == NULL)
		return (0);
	k->phys_offset = p;
	k->has_phys_offset = 1;
	kl_kaslr_base(k, line, KL_EV_PHYS_OFFSET, KL_REGION_DIRECT_MAP,
	    a->page_offset - p, 1);
	return (1);
}

/* Decimal digits ending at m[e - 1], with a K or k after: KiB, or 0. */
static uint64_t
kib_before(const uint8_t *m, size_t e)
{
	size_t i = e, d = 0;
	uint64_t v = 0, mul = 1;

	while (i > 0 && m[i - 1] >= '0' && m[i - 1] <= '9' && d < 12) {
		v += (uint64_t)(m[--i] - '0') * mul;
		mul *= 10;
		d++;
	}
	return (d == 0 || d == 12 ? 0 : v);
}

/*
 * "Memory: 1012480K/1048576K available (..., 262144K highmem)" (mem_init;
 * 3.x: "Memory: 1007916k/1007916k available, 40660k reserved, 242688K
 * highmem"): on a 32-bit kernel with highmem, lowmem is the RAM less
 * highmem, and high_memory (vmalloc starts 8 MiB above it) is PAGE_OFFSET
 * plus that.  Returns 1 when the line gives it.
 */
static int
memory_line(struct kl_kaslr *k, const uint8_t *m, size_t n)
{
	const uint8_t *p, *h;
	uint64_t total, high;
	size_t i;

	if (!kl_startswith(m, n, KL_LIT("Memory: ")) ||
	    (p = memchr(m, '/', n)) == NULL)
		return (0);
	for (i = (size_t)(p - m) + 1; i < n && m[i] >= '0' && m[i] <= '9';
	    i++)
		;
	if (i >= n || (m[i] | 0x20) != 'k' || (total = kib_before(m, i)) == 0)
		return (0);
	if ((h = kl_memmem(m, n, KL_LIT("K highmem"))) == NULL &&
	    (h = kl_memmem(m, n, KL_LIT("k highmem"))) == NULL)
		return (0);
	high = kib_before(m, (size_t)(h - m));
	if (high == 0 || high >= total)
		return (0);
	k->lowmem = (total - high) * 1024;
	return (1);
}

/* The wordings of the KASLR state (kasld-dmesg.md 4.15). */
static const struct {
	const char		*lit;
	size_t			 len;
	enum kl_kaslr_state	 state;
} kstates[] = {
	{ KL_LIT("Kernel Offset: disabled"), KL_KSTATE_OFF },
	{ KL_LIT("KASLR disabled: 'nokaslr' on cmdline"), KL_KSTATE_OFF },
	{ KL_LIT("KASLR disabled: 'kaslr' not on cmdline"), KL_KSTATE_OFF },
	{ KL_LIT("KASLR disabled on command line"), KL_KSTATE_OFF },
	{ KL_LIT("KASLR is disabled"), KL_KSTATE_OFF },
	{ KL_LIT("KASLR disabled due to lack of seed"), KL_KSTATE_FAILED },
	{ KL_LIT("KASLR disabled due to FDT remapping failure"),
	    KL_KSTATE_FAILED },
	{ KL_LIT("KASLR disabled: CPU has no PRNG"), KL_KSTATE_FAILED },
	{ KL_LIT("KASLR disabled: not enough memory"), KL_KSTATE_FAILED },
};

/*
 * What the message m[0..n) says of the KASLR state: off (an opt-out,
 * the kernel at its link-time default: "Kernel Offset: disabled", "KASLR
 * disabled: 'nokaslr' on cmdline.", "nokaslr" on the command line),
 * failed ("KASLR disabled due to lack of seed": no random offset, but
 * not the default either), or none.  An unknown "KASLR disabled"
 * wording is none, as kasld does.  *at and *len give the word that says
 * it: "disabled", or "nokaslr".
 */
enum kl_kaslr_state
kl_kaslr_state(const uint8_t *m, size_t n, size_t *at, size_t *len)
{
	const uint8_t *p;
	size_t i, j;

	for (i = 0; i < sizeof(kstates) / sizeof(kstates[0]); i++)
		if (kl_startswith(m, n, kstates[i].lit, kstates[i].len)) {
			/* Every wording holds the word "disabled". */
			p = kl_memmem(m, kstates[i].len, KL_LIT("disabled"));
			*at = p != NULL ? (size_t)(p - m) : 0;
			*len = p != NULL ? 8 : kstates[i].len;
			return (kstates[i].state);
		}
	if (!kl_startswith(m, n, KL_LIT("Command line: ")) &&
	    !kl_startswith(m, n, KL_LIT("Kernel command line: ")))
		return (KL_KSTATE_NONE);
	for (i = 0; (p = kl_memmem(m + i, n - i, KL_LIT("nokaslr"))) != NULL;
	    i = j + 7) {
		j = (size_t)(p - m);
		if ((j == 0 || m[j - 1] == ' ') &&
		    (j + 7 == n || m[j + 7] == ' ' || m[j + 7] == '\r')) {
			*at = j;
			*len = 7;
			return (KL_KSTATE_OFF);
		}
	}
	return (KL_KSTATE_NONE);
}

/* KASLR switched off or failed: 2 (off) or 3 (failed), else 0. */
static int
kaslr_off(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	size_t at, len;

	switch (kl_kaslr_state(m, n, &at, &len)) {
	case KL_KSTATE_OFF:
		/*
		 * x86's dump_kernel_offset() prints "Kernel Offset:
		 * disabled" unless kaslr_enabled(), which also needs
		 * CONFIG_RANDOMIZE_MEMORY (arch/x86/include/asm/setup.h):
		 * x86_64 only, so an i386 kernel prints it whatever its
		 * slide, and it says nothing there.
		 */
		if (kl_startswith(m, n, KL_LIT("Kernel Offset: disabled"))) {
			if (k->arch == KL_ARCH_I386)
				return (0);
			if (k->arch == KL_ARCH_AUTO && k->off_x86 < 4)
				k->off_x86_line[k->off_x86++] = line;
			else if (k->arch == KL_ARCH_AUTO)
				return (0);
		}
		k->off++;
		kl_kaslr_keep(k, line, KL_EV_KASLR_OFF, KL_REGION_TEXT, 0);
		(void)kl_kaslr_vote(k, 0);
		return (2);
	case KL_KSTATE_FAILED:
		k->failed = 1;
		kl_kaslr_keep(k, line, KL_EV_KASLR_FAILED, KL_REGION_TEXT, 0);
		return (3);
	default:
		return (0);
	}
}

/* "ffffffff85200000 T _text" (/proc/kallsyms or nm, runtime addresses). */
static int
kallsyms_line(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	size_t i = 0, s;
	uint64_t v, link;
	char name[128];

	/* 16 digits, or 8 on a 32-bit kernel (i386, arm, ppc32, mips). */
	if (n < 12 || !hex_at(m, n, &i, &v) || (i != 16 && i != 8) ||
	    i >= n || m[i] != ' ')
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
	if (kl_kaslr_vote(k, v - link) == 0)
		kl_kaslr_keep(k, line, KL_EV_KALLSYMS, KL_REGION_TEXT,
		    v - link);
	return (1);
}

/*
 * "SYMBOL(init_uts_ns)=ffffffff86c1a000": the VMCOREINFO note prints
 * symbols at their run-time address (VMCOREINFO_SYMBOL()), in hex
 * without 0x.  With a map, a slide vote as a kallsyms line.
 */
static int
vmcoreinfo_symbol(struct kl_kaslr *k, uint64_t line, const uint8_t *m,
    size_t n)
{
	static const char lit[] = "SYMBOL(";
	size_t i = sizeof(lit) - 1, s;
	uint64_t v, link;
	char name[128];

	if (!kl_startswith(m, n, KL_LIT(lit)))
		return (0);
	for (s = i; i < n && is_symc(m[i]); i++)
		;
	if (i == s || i - s >= sizeof(name) || i + 2 >= n || m[i] != ')' ||
	    m[i + 1] != '=')
		return (0);
	memcpy(name, m + s, i - s);
	name[i - s] = '\0';
	i += 2;
	if ((i + 1 < n && m[i + 1] == 'x') || !hex_at(m, n, &i, &v) ||
	    (i < n && m[i] != '\r' && m[i] != ' '))
		return (0);
	if (v == 0 || !kl_sym_find(k->map, name, &link) || v < link)
		return (1);
	if (kl_kaslr_vote(k, v - link) == 0)
		kl_kaslr_keep(k, line, KL_EV_KALLSYMS, KL_REGION_TEXT,
		    v - link);
	return (1);
}

/*
 * Frames: a raw address in brackets ("[<ffffffff81234567>]" or powerpc's
 * "[c000000000123456]") directly followed by the symbol it is.
 */
static void
frames(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n,
    enum kl_evidence_kind kind)
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
			pair(k, line, kind, v, name, off);
	}
}

/* Lines of a register dump further apart than this are not paired. */
#define REG_SPAN	4

/* Pair register r's symbol and raw value when both are recent. */
static void
reg_pair(struct kl_kaslr *k, int r, uint64_t line)
{
	struct kl_kaslr_reg *g = &k->reg[r];

	if (g->line == 0 || g->raw_line == 0 ||
	    line - (g->line < g->raw_line ? g->line : g->raw_line) > REG_SPAN)
		return;
	pair(k, line, KL_EV_REGISTER, g->raw, g->name, g->off);
	g->line = g->raw_line = 0;
}

/* Register r holds the raw value v at line. */
static void
reg_raw(struct kl_kaslr *k, int r, uint64_t line, uint64_t v)
{
	k->reg[r].raw_line = line;
	k->reg[r].raw = v;
	reg_pair(k, r, line);
}

/* The symbolised registers: "PC is at f+0x../0x.." and the like. */
static const struct {
	const char	*lit;
	size_t		 len;
	int		 reg;
} symregs[] = {
	{ KL_LIT("PC is at "), 0 },	/* arm, arm64 before 4.16 */
	{ KL_LIT("LR is at "), 1 },
	{ KL_LIT("EIP is at "), 0 },	/* i386 before 4.10 */
	{ KL_LIT("epc : "), 0 },	/* riscv */
	{ KL_LIT("ra : "), 1 },
};

/*
 * A register dump line that prints a register's symbol, or its raw
 * value: "PC is at f+0x58/0xa8" then "pc : [<8015df40>]    lr :
 * [<801559ec>]    psr: 60000093" (arm); "EIP: 0060:[<c1234567>]
 * EFLAGS: ..." then "EIP is at f+0x16/0x20" (i386); "epc : f+0x72/0xb2"
 * then "epc : ffffffe00008c762 ra : ffffffe00008c760 sp : ..." (riscv).
 * The symbol and the value of one register, a few lines apart, pair.
 */
static void
registers(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	size_t i, j;
	uint64_t v, off;
	char name[128];

	for (i = 0; i < sizeof(symregs) / sizeof(symregs[0]); i++) {
		if (!kl_startswith(m, n, symregs[i].lit, symregs[i].len))
			continue;
		j = symregs[i].len;
		if (symoff_at(m, n, &j, name, sizeof(name), &off)) {
			struct kl_kaslr_reg *g = &k->reg[symregs[i].reg];

			g->line = line;
			g->off = off;
			memcpy(g->name, name, sizeof(g->name));
			reg_pair(k, symregs[i].reg, line);
			return;
		}
		break;
	}
	/* arm, arm64 before 4.16: "pc : [<a>]    lr : [<b>]    psr: ..." */
	if (kl_startswith(m, n, KL_LIT("pc : [<"))) {
		j = 7;
		if (!hex_at(m, n, &j, &v) || !kl_startswith(m + j, n - j,
		    KL_LIT(">]")))
			return;
		reg_raw(k, 0, line, v);
		j = skip_blank(m, n, j + 2);
		if (kl_startswith(m + j, n - j, KL_LIT("lr : [<"))) {
			j += 7;
			if (hex_at(m, n, &j, &v) && kl_startswith(m + j, n - j,
			    KL_LIT(">]")))
				reg_raw(k, 1, line, v);
		}
		return;
	}
	/* riscv: "epc : a ra : b sp : c" */
	if (kl_startswith(m, n, KL_LIT("epc : "))) {
		j = 6;
		if (!hex_at(m, n, &j, &v) || j != 6 + 16)
			return;
		reg_raw(k, 0, line, v);
		if (kl_startswith(m + j, n - j, KL_LIT(" ra : "))) {
			j += 6;
			if (hex_at(m, n, &j, &v))
				reg_raw(k, 1, line, v);
		}
		return;
	}
	/* i386: "EIP: 0060:[<c1234567>] EFLAGS: 00010246 CPU: 0" */
	if (kl_startswith(m, n, KL_LIT("EIP: ")) && n > 15 &&
	    kl_startswith(m + 9, n - 9, KL_LIT(":[<"))) {
		j = 12;
		if (hex_at(m, n, &j, &v) && kl_startswith(m + j, n - j,
		    KL_LIT(">]")))
			reg_raw(k, 0, line, v);
	}
}

/* x86 "... at rIP: 0xffffffff8e07c6f7 (native_read_msr+0x7/0x40)". */
static void
msr_rip(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	static const char lit[] = " at rIP: 0x";
	const uint8_t *p;
	size_t j;
	uint64_t v, off;
	char name[128];

	if ((p = kl_memmem(m, n, KL_LIT(lit))) == NULL)
		return;
	j = (size_t)(p - m) + sizeof(lit) - 1;
	if (!hex_at(m, n, &j, &v) || !kl_startswith(m + j, n - j,
	    KL_LIT(" (")))
		return;
	j += 2;
	if (symoff_at(m, n, &j, name, sizeof(name), &off) && j < n &&
	    m[j] == ')')
		pair(k, line, KL_EV_REGISTER, v, name, off);
}

/*
 * Can kl_kaslr_line() learn anything from the message m?  Without a map
 * only the lines starting "Kern" ("Kernel Offset: ", "Kernel relocated
 * by 0x", "Kernel command line: "), "KERN" ("KERNELOFFSET="), "KASL"
 * (kstates[]) or "Comm" ("Command line: ") can; with one, also frames,
 * registers and kallsyms lines.  Cheap, for callers that skip the call
 * on most lines.
 */
int
kl_kaslr_wants(const struct kl_kaslr *k, const uint8_t *m, size_t n)
{
	if (n < 8)
		return (0);
	if (k->map != NULL)
		return (1);
	switch (m[0]) {
	case 'K':
		return ((m[1] == 'e' && m[2] == 'r' && m[3] == 'n') ||
		    (m[1] == 'E' && m[2] == 'R' && m[3] == 'N') ||
		    (m[1] == 'A' && m[2] == 'S' && m[3] == 'L'));
	case 'C':
		return (m[1] == 'o' && m[2] == 'm' && m[3] == 'm');
	case 'P':
		return (m[1] == 'H' && m[2] == 'Y' && m[3] == 'S');
	case 'M':
		return (m[1] == 'e' && m[2] == 'm' && m[3] == 'o');
	default:
		return (0);
	}
}

/*
 * The first bytes of the messages kl_kaslr_wants() may take, in the
 * four words of set (bit c of word c / 64): 'K', 'C', 'P' and 'M', any
 * with a map.
 */
void
kl_kaslr_first(const struct kl_kaslr *k, uint64_t *set)
{
	memset(set, k->map != NULL ? 0xff : 0, 4 * sizeof(*set));
	if (k->map == NULL) {
		set['K' / 64] |= (uint64_t)1 << ('K' % 64);
		set['C' / 64] |= (uint64_t)1 << ('C' % 64);
		set['P' / 64] |= (uint64_t)1 << ('P' % 64);
		set['M' / 64] |= (uint64_t)1 << ('M' % 64);
	}
}

/*
 * Look at one line of the boot segment (its message).  Returns what the
 * line itself discloses of the layout: 1 for a slide ("Kernel Offset:
 * 0x..", "Kernel relocated by 0x..", "KERNELOFFSET=.."), 2 for KASLR
 * off, 3 for a failed randomisation (kl_kaslr_state()), 4 for arm64's
 * "PHYS_OFFSET: 0x..", else 0.
 */
int
kl_kaslr_line(struct kl_kaslr *k, uint64_t line, const uint8_t *m, size_t n)
{
	size_t b;
	int r;

	if (!kl_kaslr_wants(k, m, n))
		return (0);
	switch (m[0]) {
	case 'K':
		if (kernel_offset(k, line, m, n))
			return (1);
		/* FALLTHROUGH */
	case 'C':
		if ((r = kaslr_off(k, line, m, n)) != 0)
			return (r);
		break;
	case 'P':
		if (phys_offset(k, line, m, n))
			return (4);
		break;
	case 'M':
		(void)memory_line(k, m, n);
		break;
	default:
		if (k->map != NULL && kl_isxdigit(m[0]) &&
		    kallsyms_line(k, line, m, n))
			return (0);
		if (k->map != NULL && m[0] == 'S' &&
		    vmcoreinfo_symbol(k, line, m, n))
			return (0);
		break;
	}
	/* Frames and registers say something only with a map. */
	if (k->map == NULL)
		return (0);
	b = skip_blank(m, n, 0);
	if (memchr(m, '[', n) != NULL) {
		if (memchr(m, '+', n) != NULL)
			frames(k, line, m, n, kl_startswith(m + b, n - b,
			    KL_LIT("RIP")) ? KL_EV_REGISTER : KL_EV_FRAME);
	} else if (memchr(m, '+', n) != NULL)
		msr_rip(k, line, m, n);
	if (n - b > 6)
		registers(k, line, m + b, n - b);
	return (0);
}
