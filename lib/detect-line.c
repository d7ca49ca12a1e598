/*
 * detect-line.c - --arch auto: what one log line says about the
 * architecture (register dumps, banners, frames, boot lines), recorded as
 * evidence with detect.c's setters; and whether a line starts a report.
 *
 * kl_detect_line() sees the message span of every line until the guess is
 * certain.  It must cost next to nothing on the lines that say nothing,
 * which is almost all of them: it skips leftover prefixes (mail quoting,
 * a timestamp, a caller id), switches on the first byte and compares a few
 * literals at the message start.  Only lines that already matched a
 * literal get a mid-line search (banner words, the oops header's kernel
 * version, "(ARMv", "MMU=", " sp : ").  No allocation, no regex.
 *
 * The evidence and how it decides are described in detect.c.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"

#define U64(x) UINT64_C(x)

/* Count the hex digits at p (at most 17) and return the first 16's value. */
static inline size_t
hexrun(const uint8_t *p, const uint8_t *e, uint64_t *v)
{
	uint64_t x;
	size_t n;
	int d;

	x = 0;
	for (n = 0; p + n < e && n < 17 && (d = kl_hex_value(p[n])) >= 0; n++)
		if (n < 16)
			x = x << 4 | (uint64_t)d;
	*v = x;
	return (n);
}

/* Skip spaces and tabs. */
static inline const uint8_t *
skip_sp(const uint8_t *p, const uint8_t *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return (p);
}

/* Does [p, e) start with the literal? */
#define SW(p, e, lit) kl_startswith((p), (size_t)((e) - (p)), KL_LIT(lit))

/* Find the literal n in [h, e); NULL if absent. */
static const uint8_t *
find(const uint8_t *h, const uint8_t *e, const char *n, size_t nl)
{
	const uint8_t *p, *last;

	if (h >= e || (size_t)(e - h) < nl)
		return (NULL);
	last = e - nl + 1; /* one past the last start */
	while (h < last &&
	    (p = memchr(h, (unsigned char)n[0], (size_t)(last - h))) != NULL) {
		if (memcmp(p, n, nl) == 0)
			return (p);
		h = p + 1;
	}
	return (NULL);
}
#define FIND(h, e, lit) find((h), (e), KL_LIT(lit))

/*
 * Can a prefix skip_prefix() skips start with c: the quoting and indent
 * it skips, '<', a digit, 'k' or '['?  Most messages start with none.
 */
static inline int
prefix_byte(uint8_t c)
{
	static const uint64_t first[4] = {
		(UINT64_C(1) << '\t') | (UINT64_C(1) << ' ') |
		    (UINT64_C(0x3ff) << '0') | (UINT64_C(1) << '<') |
		    (UINT64_C(1) << '>'),
		(UINT64_C(1) << ('[' - 64)) | (UINT64_C(1) << ('`' - 64)) |
		    (UINT64_C(1) << ('k' - 64)),
		0, 0
	};

	return ((first[c / 64] >> (c % 64)) & 1);
}

/*
 * Skip what is left of a prefix before the message: mail quoting ("> "),
 * a raw <N> level, a z/VM console "00: " before a timestamp, a
 * [ 12.345678] timestamp and a [  T123] caller id.  A bracket holding hex
 * letters (a ppc stack frame) is message.
 */
static const uint8_t *
skip_prefix(const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;
	int i, mark;

	for (i = 0; i < 4; i++) {
		if (p == e || !prefix_byte(*p))
			break;
		while (p < e && (*p == ' ' || *p == '\t' || *p == '>' ||
		    *p == '`'))
			p++;
		if (p == e)
			break;
		q = p + 1;
		if (*p == '<') {
			while (q < e && q - p < 5 && *q >= '0' && *q <= '9')
				q++;
			if (q == p + 1 || q == e || *q != '>')
				break;
		} else if (e - p > 4 && *p >= '0' && *p <= '9' && p[1] >= '0' &&
		    p[1] <= '9' && p[2] == ':' && p[3] == ' ' && p[4] == '[') {
			q = p + 3; /* "NN: " of a z/VM console */
		} else if (*p == 'k' && e - p > 8 &&
		    memcmp(p, "kernel: ", 8) == 0) {
			q = p + 7; /* a syslog tag left by quoting */
		} else if (*p == '[') {
			mark = 0;
			for (; q < e && q - p < 24; q++) {
				if (*q == '.' || *q == 'T' || *q == 'C')
					mark = 1;
				else if (*q != ' ' && (*q < '0' || *q > '9'))
					break;
			}
			if (!mark || q == e || *q != ']')
				break;
		} else
			break;
		p = q + 1;
	}
	return (p);
}

/* Parse "X.Y[.Z]" into X * 65536 + Y * 256 + Z; 0 if not a version. */
static int
parse_version(const uint8_t *p, const uint8_t *e)
{
	int part[3], i, n;

	for (i = 0; i < 3; i++) {
		part[i] = 0;
		for (n = 0; p < e && *p >= '0' && *p <= '9' && n < 4; n++)
			part[i] = part[i] * 10 + (*p++ - '0');
		if (n == 0) {
			if (i < 2)
				return (0);
			break;
		}
		if (i == 2 || p == e || *p != '.')
			break;
		p++;
	}
	if (i < 1 || part[0] < 2 || part[0] > 99 || part[1] > 255)
		return (0);
	if (i < 2)
		part[2] = 0;
	return (part[0] << 16 | part[1] << 8 | (part[2] > 255 ? 255 : part[2]));
}

/* A stack pointer value settles the VA size of the family seen. */
static void
stack_value(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	enum kl_arch_id id;
	uint64_t v;

	if (hexrun(p, e, &v) != 16)
		return;
	switch (st->family) {
	case KL_FAM_ARM64:
		id = kl_detect_arm64_va(v);
		break;
	case KL_FAM_RISCV:
		id = kl_detect_riscv_va(v);
		break;
	case KL_FAM_X86:
		id = kl_detect_x86_va(v);
		break;
	default:
		return;
	}
	if (id != KL_ARCH_AUTO)
		kl_detect_va(st, kl_detect_va_of(id), 0);
}

/* Width of a register value at p (after spaces): 32, 64 or 0. */
static int
reg_width(const uint8_t *p, const uint8_t *e)
{
	uint64_t v;
	size_t n;

	n = hexrun(skip_sp(p, e), e, &v);
	if (n == 16)
		return (64);
	if (n == 8)
		return (32);
	return (0);
}

/* A family seen with its word size (strong evidence of both). */
static void
family_bits(struct kl_detect *st, int fam, int bits)
{
	kl_detect_family(st, fam);
	if (st->family == fam)
		kl_detect_bits(st, bits, 1);
}

/* A family seen with the width of the register value at p. */
static void
family_width(struct kl_detect *st, int fam, const uint8_t *p, const uint8_t *e)
{
	int w;

	kl_detect_family(st, fam);
	if (st->family == fam && (w = reg_width(p, e)) != 0)
		kl_detect_bits(st, w, 1);
}

/* A word that names an architecture: its family and width (0: either). */
struct arch_word {
	const char	*w;
	size_t		 n;		/* strlen(w) */
	int		 fam;
	int		 bits;
};
#define AW(s, f, b)	{ s, sizeof(s) - 1, f, b }

/* clang-format off */
/* Words of the banner naming an architecture, most specific first. */
static const struct arch_word banner_words[] = {
	AW("aarch64", KL_FAM_ARM64, 64),
	AW("arm64", KL_FAM_ARM64, 64),
	AW("x86_64", KL_FAM_X86, 64),
	AW("x86-64", KL_FAM_X86, 64),
	AW("amd64", KL_FAM_X86, 64),
	AW("i686", KL_FAM_X86, 32),
	AW("i586", KL_FAM_X86, 32),
	AW("i486", KL_FAM_X86, 32),
	AW("i386", KL_FAM_X86, 32),
	AW("-686", KL_FAM_X86, 32),
	AW("riscv64", KL_FAM_RISCV, 64),
	AW("riscv32", KL_FAM_RISCV, 32),
	AW("powerpc64", KL_FAM_PPC, 64),
	AW("ppc64", KL_FAM_PPC, 64),
	AW("powerpc", KL_FAM_PPC, 0),
	AW("-4kc-malta", KL_FAM_MIPS, 32),
	AW("-5kc-malta", KL_FAM_MIPS, 64),
	AW("mips32r", KL_FAM_MIPS, 32),
	AW("mips64r", KL_FAM_MIPS, 64),
	AW("mips64", KL_FAM_MIPS, 64),
	AW("octeon", KL_FAM_MIPS, 64),
	AW("loongson-3", KL_FAM_MIPS, 64),
	AW("mipsel", KL_FAM_MIPS, 0),
	AW("mips-", KL_FAM_MIPS, 0),
	AW("loongarch64", KL_FAM_LOONGARCH, 64),
	AW("loong64", KL_FAM_LOONGARCH, 64),
	AW("s390", KL_FAM_S390, 64),
	AW("sparc64", KL_FAM_SPARC, 64),
	AW("armv7", KL_FAM_ARM, 32),
	AW("armv6", KL_FAM_ARM, 32),
	AW("armv5", KL_FAM_ARM, 32),
	AW("armhf", KL_FAM_ARM, 32),
	AW("armel", KL_FAM_ARM, 32),
	AW("armmp", KL_FAM_ARM, 32),
	AW("arm-", KL_FAM_ARM, 32),
};
/* clang-format on */
#define NWORDS (sizeof(banner_words) / sizeof(banner_words[0]))

/* The default profile of a family, for weak scores. */
static enum kl_arch_id
family_default(int fam)
{
	static const enum kl_arch_id d[] = {
	    KL_ARCH_AUTO,
	    KL_ARCH_X86_64,
	    KL_ARCH_ARM64,
	    KL_ARCH_ARM,
	    KL_ARCH_PPC64,
	    KL_ARCH_RISCV64,
	    KL_ARCH_MIPS64,
	    KL_ARCH_LOONGARCH64,
	    KL_ARCH_S390X,
	    KL_ARCH_SPARC64,
	};

	if (fam < 0 || (size_t)fam >= sizeof(d) / sizeof(d[0]))
		return (KL_ARCH_AUTO);
	return (d[fam]);
}

/* The first banner word found in [p, e), NULL if none. */
static const struct arch_word *
banner_word(const uint8_t *p, const uint8_t *e)
{
	size_t i;

	for (i = 0; i < NWORDS; i++)
		if (find(p, e, banner_words[i].w, banner_words[i].n) != NULL)
			return (&banner_words[i]);
	return (NULL);
}

/*
 * "Linux version 5.10.110+ (user@host) (aarch64-linux-gnu-gcc ...) #1 ...":
 * the kernel version, then an arch word in the compiler part or in the
 * release string (strong); one in user@host is only a weak hint, since
 * hosts cross-compile.
 */
static void
banner(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const struct arch_word *w;
	const uint8_t *rel, *rele, *host, *hoste;
	int v;

	rel = p + sizeof("Linux version ") - 1;
	if ((rele = memchr(rel, ' ', (size_t)(e - rel))) == NULL)
		rele = e;
	if ((v = parse_version(rel, rele)) != 0)
		st->kver = v;
	st->flags |= KL_DF_DIRTY;
	host = hoste = skip_sp(rele, e);
	if (host < e && *host == '(' &&
	    (hoste = memchr(host, ')', (size_t)(e - host))) != NULL)
		hoste++;
	else
		hoste = host;
	if ((w = banner_word(hoste, e)) != NULL ||
	    (w = banner_word(rel, rele)) != NULL) {
		kl_detect_family(st, w->fam);
		if (st->family == w->fam && w->bits != 0)
			kl_detect_bits(st, w->bits, 1);
	} else if ((w = banner_word(host, hoste)) != NULL)
		kl_detect_weak(st, family_default(w->fam), 1);
}

/* "systemd[1]: Detected architecture x86-64." */
static void
systemd_arch(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	static const struct arch_word words[] = {
#define SW_(s, f, b) {s ".", sizeof(s), f, b}
	    SW_("x86-64", KL_FAM_X86, 64),
	    SW_("x86", KL_FAM_X86, 32),
	    SW_("arm64", KL_FAM_ARM64, 64),
	    SW_("arm", KL_FAM_ARM, 32),
	    SW_("arm-be", KL_FAM_ARM, 32),
	    SW_("ppc64", KL_FAM_PPC, 64),
	    SW_("ppc64-le", KL_FAM_PPC, 64),
	    SW_("ppc", KL_FAM_PPC, 32),
	    SW_("ppc-le", KL_FAM_PPC, 32),
	    SW_("riscv64", KL_FAM_RISCV, 64),
	    SW_("riscv32", KL_FAM_RISCV, 32),
	    SW_("mips64", KL_FAM_MIPS, 64),
	    SW_("mips64-le", KL_FAM_MIPS, 64),
	    SW_("mips", KL_FAM_MIPS, 32),
	    SW_("mips-le", KL_FAM_MIPS, 32),
	    SW_("loongarch64", KL_FAM_LOONGARCH, 64),
	    SW_("s390x", KL_FAM_S390, 64),
	    SW_("sparc64", KL_FAM_SPARC, 64),
#undef SW_
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (kl_startswith(p, (size_t)(e - p), words[i].w, words[i].n)) {
			kl_detect_family(st, words[i].fam);
			if (st->family == words[i].fam)
				kl_detect_bits(st, words[i].bits, 1);
			return;
		}
}

/* arm64 "swapper pgtable: 4k pages, 39-bit VAs, pgdp=..." */
static void
pgtable(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;
	int va;

	if ((q = FIND(p, e, "pages, ")) == NULL)
		return;
	q += sizeof("pages, ") - 1;
	for (va = 0; q < e && *q >= '0' && *q <= '9' && va < 100; q++)
		va = va * 10 + (*q - '0');
	if (!SW(q, e, "-bit VAs"))
		return;
	if (va != 36 && va != 39 && va != 42 && va != 47 && va != 48 &&
	    va != 52)
		return;
	kl_detect_family(st, KL_FAM_ARM64);
	if (st->family != KL_FAM_ARM64)
		return;
	kl_detect_bits(st, 64, 1);
	kl_detect_va(st, va == 36 ? 39 : va, 1);
}

/*
 * The release at p (up to a blank), as an oops header or uname prints
 * it: a distribution's flavour suffix names the architecture
 * ("6.1.0-50-5kc-malta", "6.12.94+deb13-powerpc64le", "5.10.0-21-armmp").
 */
static void
release_word(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const struct arch_word *w;
	const uint8_t *q;

	if ((q = memchr(p, ' ', (size_t)(e - p))) != NULL)
		e = q;
	if (parse_version(p, e) == 0 || (w = banner_word(p, e)) == NULL)
		return;
	kl_detect_family(st, w->fam);
	if (st->family == w->fam && w->bits != 0)
		kl_detect_bits(st, w->bits, 1);
}

/* The oops header "CPU: 0 PID: 1 Comm: x Not tainted 5.10.2 #14". */
static void
oops_header(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;
	int v;

	if (st->kver != 0 || (q = FIND(p, e, "ainted")) == NULL)
		return;
	/* Skip ":", the taint letters and "(" (older kernels). */
	for (q += 6; q < e &&
	     (*q == ':' || *q == ' ' || *q == '(' || (*q >= 'A' && *q <= 'Z'));
	     q++)
		;
	if ((v = parse_version(q, e)) != 0)
		st->kver = v;
	st->flags |= KL_DF_DIRTY;
	release_word(st, q, e);
}

/* The powerpc die line "LE PAGE_SIZE=64K MMU=Hash SMP ... pSeries". */
static void
ppc_die(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;

	kl_detect_family(st, KL_FAM_PPC);
	if (st->family != KL_FAM_PPC)
		return;
	if (*p == 'L' || FIND(p, e, "pSeries") != NULL ||
	    FIND(p, e, "PowerNV") != NULL)
		kl_detect_bits(st, 64, 1);
	if ((q = FIND(p, e, "MMU=")) == NULL) {
		st->flags |= KL_DF_PPC_E | KL_DF_DIRTY;
		return;
	}
	q += 4;
	if (SW(q, e, "3D")) /* quoted-printable mail */
		q += 2;
	if (SW(q, e, "Radix"))
		kl_detect_bits(st, 64, 1);
}

/* A 64-bit ppc with a book3e hint (no MMU= in the die line, e5500) is one. */
static void
ppc_book3e(struct kl_detect *st)
{
	if (st->family == KL_FAM_PPC && st->bits == 64 &&
	    (st->flags & KL_DF_PPC_E))
		st->flags |= KL_DF_BOOK3E | KL_DF_DIRTY;
}

/* powerpc "NIP:  c00000000022d79c LR: ..." and other register lines. */
static void
ppc_reg(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	family_width(st, KL_FAM_PPC, p, e);
	ppc_book3e(st);
}

/* A ppc call trace frame "[c00000007a3efa20] [c00000000030a060] ...". */
static void
ppc_frame(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;
	size_t n, m;

	n = hexrun(p + 1, e, &v);
	if (n != 8 && n != 16)
		return;
	p += 1 + n;
	if (!SW(p, e, "] ["))
		return;
	m = hexrun(p + 3, e, &v);
	if (m != n || p + 3 + m >= e || p[3 + m] != ']')
		return;
	kl_detect_family(st, KL_FAM_PPC);
	if (st->family == KL_FAM_PPC)
		kl_detect_bits(st, (int)n * 4, 1);
	ppc_book3e(st);
}

/* The i386 VMSPLIT whose first 512 MiB hold the built-in function at v. */
static void
x86_split(struct kl_detect *st, uint64_t v)
{
	static const uint64_t split[] = {U64(0xc0000000), U64(0xb0000000),
	    U64(0x80000000), U64(0x40000000)};
	size_t i;

	for (i = 0; i < sizeof(split) / sizeof(split[0]); i++)
		if (v >= split[i] && v - split[i] < U64(0x20000000)) {
			st->page_offset = split[i];
			st->flags |= KL_DF_DIRTY;
			return;
		}
}

/*
 * A mips32 call trace frame "[<8010adec>] show_stack+0x74/0x104": eight
 * digits in KSEG0 (0x80000000 to 0x9fffffff, addrspace.h), then a
 * symbol with its offset.  i386 frames look alike but sit at or above
 * PAGE_OFFSET 0xc0000000 (a 2G/2G split is the exception); arm frames
 * go "(sym) from [<...>]".
 */
static void
mips32_frame(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;
	const uint8_t *q;

	if (hexrun(p, e, &v) != 8 || !SW(p + 8, e, ">] "))
		return;
	q = p + 11;
	if (q < e && *q == '?')		/* x86: "[<c10ab9e4>] ? sym+..." */
		q = skip_sp(q + 1, e);
	if (q >= e || !((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
	    *q == '_'))
		return;
	if ((q = FIND(q, e, "+0x")) == NULL || FIND(q, e, "/0x") == NULL)
		return;
	/*
	 * An i386 built-in function: the image lies in the first 512 MiB
	 * above PAGE_OFFSET (KASLR's KERNEL_IMAGE_SIZE), which tells the
	 * VMSPLIT (arch/x86/Kconfig: 3G, 3G_OPT 0xb0000000, 2G, 1G).
	 */
	if (st->family == KL_FAM_X86 && st->bits == 32) {
		if (st->page_offset == 0 && FIND(q, e, " [") == NULL)
			x86_split(st, v);
		return;
	}
	if (v < U64(0x80000000) || v > U64(0x9fffffff))
		return;
	kl_detect_family(st, KL_FAM_MIPS);
	if (st->family == KL_FAM_MIPS)
		kl_detect_bits(st, 32, 1);
}

/*
 * A 64-bit frame "[<a800000000169874>] sym+0x74/0x104": in the cached
 * XKPHYS windows (CCA 3 0x98..., CCA 5 0xa8...) only a mips64 kernel
 * runs (addrspace.h); a LoongArch kernel sits at 0x9000... (DMW1), which
 * is only remembered for the "Code:" line.  ffffffff8... frames are
 * mips64 CKSEG0 or x86_64 alike and say nothing by themselves.
 */
static void
frame64(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;
	const uint8_t *q;

	if (hexrun(p, e, &v) != 16 || !SW(p + 16, e, ">] "))
		return;
	q = p + 19;
	if (q >= e || !((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
	    *q == '_') || FIND(q, e, "+0x") == NULL)
		return;
	/*
	 * s390's show_stack() ends a frame with a blank (" [<%016lx>]
	 * %pSR \n", arch/s390/kernel/dumpstack.c), and only s390 puts
	 * kernel text in the low 4 GiB.
	 */
	if ((v >> 32) == 0 && e > q && e[-1] == ' ' && FIND(q, e, "/0x") !=
	    NULL) {
		family_bits(st, KL_FAM_S390, 64);
		return;
	}
	/* A built-in function of an arm64 kernel before v5.4. */
	if ((v >> 47) == U64(0x1fffe) && FIND(q, e, " [") == NULL)
		st->flags |= KL_DF_ARM64_LOW | KL_DF_DIRTY;
	switch (v >> 56) {
	case 0x98:
	case 0xa8:
		kl_detect_family(st, KL_FAM_MIPS);
		if (st->family == KL_FAM_MIPS)
			kl_detect_bits(st, 64, 1);
		break;
	case 0x90:
		st->flags |= KL_DF_FR_LOONG;
		break;
	default:
		break;
	}
}

/*
 * The VMSPLIT of an arm kernel from a frame "[<817b2528>] (dump_backtrace)
 * from": a built-in function (no " [module]" after its name) lies in the
 * kernel image, which starts at PAGE_OFFSET + TEXT_OFFSET.  The image's
 * first 128 MiB above one of the splits (VMSPLIT_3G 0xc0000000, 3G_OPT
 * 0xb0000000, 2G 0x80000000, 1G 0x40000000, arch/arm/Kconfig) say which
 * the kernel has; modules sit below PAGE_OFFSET, so a module frame says
 * nothing.  Until a frame says so, an arm segment is not certain (see
 * kl_detect_resolve()): syzbot's Versatile Express kernels are 2G ones.
 */
static void
arm_split(struct kl_detect *st, uint64_t v, const uint8_t *p, const uint8_t *e)
{
	static const uint64_t split[] = {U64(0xc0000000), U64(0xb0000000),
	    U64(0x80000000), U64(0x40000000)};
	const uint8_t *q;
	size_t i;

	if (st->page_offset != 0 ||
	    (q = memchr(p, ')', (size_t)(e - p))) == NULL || q == p ||
	    memchr(p, '[', (size_t)(q - p)) != NULL ||
	    memchr(p, ' ', (size_t)(q - p)) != NULL)
		return;
	for (i = 0; i < sizeof(split) / sizeof(split[0]); i++)
		if (v >= split[i] && v < split[i] + U64(0x08000000)) {
			st->page_offset = split[i];
			st->flags |= KL_DF_DIRTY;
			return;
		}
}

/* An arm backtrace frame "[<80de0078>] (dump_backtrace) from [<...>]". */
static void
arm_frame(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;
	size_t n;

	n = hexrun(p, e, &v);
	if (n == 8 && SW(p + 8, e, ">] (") &&
	    FIND(p + 12, e, ") from [<") != NULL) {
		kl_detect_family(st, KL_FAM_ARM);
		if (st->family == KL_FAM_ARM)
			arm_split(st, v, p + 12, e);
	} else if (n == 16)
		frame64(st, p, e);
	else
		mips32_frame(st, p, e);
}

/*
 * mips "Code: 10400028  2402fff0  de420000 <dc432880> 0203182b": 32-bit
 * words with the faulting one in <> (arch/mips/kernel/traps.c
 * show_code(); LoongArch copied it).  x86 prints bytes, arm, arm64 and
 * riscv put the faulting word in (), powerpc says "Instruction dump:".
 */
static void
code_line(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;
	int words = 0, mark = 0;

	while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
		e--;
	while ((p = skip_sp(p, e)) < e) {
		if (*p == '<') {
			if (hexrun(p + 1, e, &v) != 8 || !SW(p + 9, e, ">"))
				return;
			mark++;
			p += 10;
		} else if (hexrun(p, e, &v) == 8 && (p + 8 == e || p[8] == ' '))
			p += 8;
		else
			return;
		words++;
	}
	if (mark != 1 || words < 2)
		return;
	kl_detect_family(st, (st->flags & KL_DF_FR_LOONG) ? KL_FAM_LOONGARCH :
	    KL_FAM_MIPS);
}

/*
 * mips "$24   : 0000000000000000 ffffffff8..." register lines ("$%2d   :"
 * every fourth register, arch/mips/kernel/traps.c __show_regs()).
 */
static void
mips_reg(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	if (e - p < 7 || (p[1] != ' ' && (p[1] < '0' || p[1] > '9')) ||
	    p[2] < '0' || p[2] > '9' || memcmp(p + 3, "   :", 4) != 0)
		return;
	family_width(st, KL_FAM_MIPS, p + 7, e);
}

/*
 * "ra    : ffffffff80123456 sym+0x..." (mips __show_regs(); LoongArch
 * prints the same, its kernel at 0x9000... in DMW1).
 */
static void
ra_line(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;

	if (hexrun(skip_sp(p, e), e, &v) == 16 && (v >> 48) == 0x9000)
		family_width(st, KL_FAM_LOONGARCH, p, e);
	else
		family_width(st, KL_FAM_MIPS, p, e);
}

/*
 * "PC is at [<ffffff8008cccbc0>] xhci_irq+0x728/0x2364" (arm64 vendor
 * kernels before v4.16): 16 digits where arm prints 8.  Without a
 * bracketed value the line is a weak hint for arm.
 */
static void
pc_is_at(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;

	if (SW(p, e, "[<") && reg_width(p + 2, e) == 64) {
		kl_detect_family(st, KL_FAM_ARM64);
		if (st->family == KL_FAM_ARM64)
			kl_detect_bits(st, 64, 1);
		return;
	}
	kl_detect_weak(st, KL_ARCH_ARM, 1);
	/* "PC is at jffs2_parse_param+0xa8/0x18c": the pc is in the image. */
	st->flags &= ~(unsigned)KL_DF_PC_BUILTIN;
	if (p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    *p == '_') && (q = FIND(p, e, "+0x")) != NULL &&
	    FIND(q, e, "/0x") != NULL && FIND(q, e, " [") == NULL)
		st->flags |= KL_DF_PC_BUILTIN;
}

/* "epc :" (riscv, one space or none) or "epc   :" (mips, three). */
static void
epc_line(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;
	size_t sp;

	for (q = p + 3, sp = 0; q < e && *q == ' '; q++)
		sp++;
	if (q == e || *q != ':')
		return;
	q++;
	if (sp <= 1) {
		family_width(st, KL_FAM_RISCV, q, e);
		if (st->family == KL_FAM_RISCV &&
		    (q = FIND(q, e, " sp : ")) != NULL)
			stack_value(st, q + 6, e);
	} else if (sp == 3)
		family_width(st, KL_FAM_MIPS, q, e);
}

/* arm "pc : [<c01751ac>] ..." / arm64 "pc : [<ffff...>]" or "pc : sym". */
static void
arm_pc(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	static const uint8_t pc_name[] = "x)";	/* a built-in's "(name)" */
	uint64_t v;
	int w;

	p = skip_sp(p, e);
	if (!SW(p, e, "[<")) {
		kl_detect_family(st, KL_FAM_ARM64);
		return;
	}
	if ((w = reg_width(p + 2, e)) == 64)
		kl_detect_family(st, KL_FAM_ARM64);
	else if (w == 32) {
		kl_detect_family(st, KL_FAM_ARM);
		/* The pc the "PC is at" line before placed in the image. */
		if (st->family == KL_FAM_ARM &&
		    (st->flags & KL_DF_PC_BUILTIN) &&
		    hexrun(p + 2, e, &v) == 8)
			arm_split(st, v, pc_name, pc_name + 2);
	}
	st->flags &= ~(unsigned)KL_DF_PC_BUILTIN;
}

/* arm/arm64 "sp : ffffffc01400bc40" (arm: 8 digits, then "ip :"). */
static void
arm_sp(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	int w;

	p = skip_sp(p, e);
	if ((w = reg_width(p, e)) == 32) {
		kl_detect_family(st, KL_FAM_ARM);
		return;
	}
	if (w != 64)
		return;
	kl_detect_family(st, KL_FAM_ARM64);
	stack_value(st, p, e);
}

/* x86_64 "RSP: 0018:ffffc90000c67e38 EFLAGS: ..." or "RSP <ffff...>". */
static void
x86_rsp(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;

	kl_detect_family(st, KL_FAM_X86);
	if (st->family != KL_FAM_X86)
		return;
	kl_detect_bits(st, 64, 1);
	p = skip_sp(p, e);
	if (p < e && *p == '<')
		p++;
	else if (hexrun(p, e, &v) == 4 && p + 4 < e && p[4] == ':')
		p += 5;
	stack_value(st, p, e);
}

/* arm "Internal error: Oops: 5 [#1] PREEMPT SMP ARM" (or THUMB2). */
static void
arm_internal(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	while (e > p && (e[-1] == ' ' || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	if ((size_t)(e - p) > 4 && memcmp(e - 4, " ARM", 4) == 0)
		kl_detect_family(st, KL_FAM_ARM);
	else if ((size_t)(e - p) > 7 && memcmp(e - 7, " THUMB2", 7) == 0)
		kl_detect_family(st, KL_FAM_ARM);
	else
		kl_detect_weak(st, KL_ARCH_ARM64, 2);
}

/* "Booting Linux on physical CPU 0x0000000000 [0x412fd050]". */
static void
arm_booting(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	uint64_t v;
	size_t n;

	n = SW(p, e, "0x") ? hexrun(p + 2, e, &v) : 0;
	if (n == 10) /* arm64 since v4.14: 0x%010lx */
		kl_detect_family(st, KL_FAM_ARM64);
	else {
		/* arm, or arm64 before v4.14: both print "0x%x". */
		kl_detect_weak(st, KL_ARCH_ARM, 2);
		kl_detect_weak(st, KL_ARCH_ARM64, 1);
	}
}

/* LoongArch "pc 90000000012a3c48 ra 90000000012a3c20 tp ..." after "pc ". */
static int
loong_pc(const uint8_t *p, const uint8_t *e)
{
	uint64_t v;

	return (hexrun(p, e, &v) == 16 && SW(p + 16, e, " ra "));
}

/* "Hardware name: ..." (the oops header's DMI/DT line): weak hints. */
static void
hardware_name(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	/* Freescale e500 family: the 64-bit cores are book3e. */
	if (FIND(p, e, "e500") != NULL || FIND(p, e, "e5500") != NULL ||
	    FIND(p, e, "e6500") != NULL)
		st->flags |= KL_DF_PPC_E | KL_DF_DIRTY;
	/* "IBM 8561 T01 703 (LPAR)": a z/Architecture machine type. */
	if (e - p > 9 && memcmp(p, "IBM ", 4) == 0 && p[4] >= '0' &&
	    p[4] <= '9' && p[5] >= '0' && p[5] <= '9' && p[6] >= '0' &&
	    p[6] <= '9' && p[7] >= '0' && p[7] <= '9' && p[8] == ' ')
		kl_detect_family(st, KL_FAM_S390);
	/* arm32 boards: syzbot's vexpress, any DT machine of arch/arm. */
	if (FIND(p, e, "ARM-Versatile") != NULL ||
	    FIND(p, e, "Generic DT based system") != NULL)
		kl_detect_weak(st, KL_ARCH_ARM, 2);
	else if (FIND(p, e, "riscv") != NULL)
		kl_detect_weak(st, KL_ARCH_RISCV64, 2);
	else if (FIND(p, e, "(DT)") != NULL)
		kl_detect_weak(st, KL_ARCH_ARM64, 1);
	else if (FIND(p, e, "BIOS") != NULL)
		kl_detect_weak(st, KL_ARCH_X86_64, 1);
}

/*
 * A "key<tabs>: value" line of /proc/cpuinfo: the value of key (*vp),
 * or 0 when the line is not one.  Keys are matched whole.
 */
static int
cpuinfo_key(const uint8_t *p, const uint8_t *e, const char *key,
    const uint8_t **vp)
{
	size_t n;
	const uint8_t *q;

	if (*p != (uint8_t)key[0])
		return (0);
	n = strlen(key);
	if ((size_t)(e - p) <= n || memcmp(p, key, n) != 0)
		return (0);
	for (q = p + n; q < e && (*q == ' ' || *q == '\t'); q++)
		;
	if (q >= e || *q != ':')
		return (0);
	*vp = skip_sp(q + 1, e);
	return (1);
}

/* The family and width an uname -m machine name stands for. */
static int
machine_word(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	static const struct arch_word m[] = {
	    AW("x86_64", KL_FAM_X86, 64), AW("i686", KL_FAM_X86, 32),
	    AW("i586", KL_FAM_X86, 32), AW("i386", KL_FAM_X86, 32),
	    AW("aarch64", KL_FAM_ARM64, 64), AW("arm64", KL_FAM_ARM64, 64),
	    AW("armv7l", KL_FAM_ARM, 32), AW("armv6l", KL_FAM_ARM, 32),
	    AW("armv5tejl", KL_FAM_ARM, 32), AW("ppc64le", KL_FAM_PPC, 64),
	    AW("ppc64", KL_FAM_PPC, 64), AW("ppc", KL_FAM_PPC, 32),
	    AW("riscv64", KL_FAM_RISCV, 64), AW("riscv32", KL_FAM_RISCV, 32),
	    AW("mips64", KL_FAM_MIPS, 64), AW("mips", KL_FAM_MIPS, 32),
	    AW("loongarch64", KL_FAM_LOONGARCH, 64),
	    AW("s390x", KL_FAM_S390, 64), AW("sparc64", KL_FAM_SPARC, 64),
	};
	size_t i;

	if (e - p < 3 || e - p > 11)
		return (0);
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if ((size_t)(e - p) == m[i].n &&
		    memcmp(p, m[i].w, m[i].n) == 0) {
			kl_detect_family(st, m[i].fam);
			if (st->family == m[i].fam)
				kl_detect_bits(st, m[i].bits, 1);
			return (1);
		}
	return (0);
}

/*
 * What a system file says of its machine, as a captured system or a
 * paste holds it: /proc/cpuinfo fields (arm "CPU architecture: 7", arm64
 * "... 8", riscv "isa : rv64imafdc" and "mmu : sv39", s390 "vendor_id :
 * IBM/S390", LoongArch "CPU Family : Loongson-64bit", mips "cpu model :
 * MIPS 24Kc", powerpc "cpu : POWER9", "platform : pSeries", x86
 * "vendor_id : GenuineIntel" with "address sizes"), the kernel config
 * (CONFIG_X86_64=y, CONFIG_ARM64_VA_BITS=39, CONFIG_PAGE_OFFSET=...), the
 * machine of "uname -m" or "uname -a".  Returns 1 when the line was one.
 */
static int
sysinfo_line(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *v, *q;
	uint64_t po;
	int n;

	while (e > p && (e[-1] == ' ' || e[-1] == '\r' || e[-1] == '\t'))
		e--;
	/* Cheap tests first: most log lines are none of these. */
	if (e - p <= 11 && memchr(p, ':', (size_t)(e - p)) == NULL)
		return (machine_word(st, p, e));
	switch (*p) {
	case 'C':
	case 'L':
		break;
	case 'a':
	case 'c':
	case 'i':
	case 'm':
	case 'p':
	case 'v':
		if (memchr(p, ':', (size_t)(e - p) < 24 ? (size_t)(e - p) :
		    24) != NULL)
			break;
		return (0);
	default:
		return (0);
	}
	if (cpuinfo_key(p, e, "CPU architecture", &v)) {
		if (SW(v, e, "8") || SW(v, e, "AArch64"))
			family_bits(st, KL_FAM_ARM64, 64);
		else if (v < e && *v >= '4' && *v <= '7')
			family_bits(st, KL_FAM_ARM, 32);
	} else if (cpuinfo_key(p, e, "isa", &v)) {
		if (SW(v, e, "rv64"))
			family_bits(st, KL_FAM_RISCV, 64);
		else if (SW(v, e, "rv32"))
			family_bits(st, KL_FAM_RISCV, 32);
	} else if (cpuinfo_key(p, e, "mmu", &v)) {
		if (SW(v, e, "sv39") || SW(v, e, "sv48") || SW(v, e, "sv57")) {
			family_bits(st, KL_FAM_RISCV, 64);
			if (st->family == KL_FAM_RISCV)
				kl_detect_va(st, (v[2] - '0') * 10 + v[3] - '0',
				    1);
		} else if (SW(v, e, "sv32"))
			family_bits(st, KL_FAM_RISCV, 32);
	} else if (cpuinfo_key(p, e, "vendor_id", &v)) {
		if (SW(v, e, "IBM/S390"))
			family_bits(st, KL_FAM_S390, 64);
		else if (SW(v, e, "GenuineIntel") || SW(v, e, "AuthenticAMD") ||
		    SW(v, e, "HygonGenuine") || SW(v, e, "CentaurHauls"))
			kl_detect_family(st, KL_FAM_X86);
	} else if (cpuinfo_key(p, e, "address sizes", &v)) {
		/* x86 only: "39 bits physical, 48 bits virtual". */
		if ((q = FIND(v, e, "physical, ")) != NULL &&
		    st->family == KL_FAM_X86) {
			if (SW(q + 10, e, "32 bits virtual"))
				kl_detect_bits(st, 32, 1);
			else if (SW(q + 10, e, "48 bits virtual") ||
			    SW(q + 10, e, "57 bits virtual"))
				kl_detect_bits(st, 64, 0);
		}
	} else if (cpuinfo_key(p, e, "CPU Family", &v)) {
		if (SW(v, e, "Loongson-64bit"))
			family_bits(st, KL_FAM_LOONGARCH, 64);
	} else if (cpuinfo_key(p, e, "cpu model", &v)) {
		if (SW(v, e, "MIPS") || SW(v, e, "ICT Loongson") ||
		    SW(v, e, "Cavium Octeon") || SW(v, e, "Ingenic") ||
		    SW(v, e, "Broadcom BMIPS"))
			kl_detect_family(st, KL_FAM_MIPS);
	} else if (cpuinfo_key(p, e, "cpu", &v)) {
		if (SW(v, e, "POWER") || SW(v, e, "PPC970"))
			family_bits(st, KL_FAM_PPC, 64);
		else if (SW(v, e, "e500") || SW(v, e, "e300") ||
		    SW(v, e, "74") || SW(v, e, "e200") || SW(v, e, "8xx"))
			kl_detect_family(st, KL_FAM_PPC);
	} else if (cpuinfo_key(p, e, "platform", &v)) {
		if (SW(v, e, "pSeries") || SW(v, e, "PowerNV"))
			family_bits(st, KL_FAM_PPC, 64);
	} else if (SW(p, e, "CONFIG_")) {
		p += 7;
		if (SW(p, e, "X86_64=y"))
			family_bits(st, KL_FAM_X86, 64);
		else if (SW(p, e, "X86_32=y"))
			family_bits(st, KL_FAM_X86, 32);
		else if (SW(p, e, "ARM64=y"))
			family_bits(st, KL_FAM_ARM64, 64);
		else if (SW(p, e, "ARM=y"))
			family_bits(st, KL_FAM_ARM, 32);
		else if (SW(p, e, "PPC64=y"))
			family_bits(st, KL_FAM_PPC, 64);
		else if (SW(p, e, "PPC32=y"))
			family_bits(st, KL_FAM_PPC, 32);
		else if (SW(p, e, "RISCV=y"))
			kl_detect_family(st, KL_FAM_RISCV);
		else if (SW(p, e, "MIPS=y"))
			kl_detect_family(st, KL_FAM_MIPS);
		else if (SW(p, e, "LOONGARCH=y"))
			family_bits(st, KL_FAM_LOONGARCH, 64);
		else if (SW(p, e, "S390=y"))
			family_bits(st, KL_FAM_S390, 64);
		else if (SW(p, e, "64BIT=y"))
			kl_detect_bits(st, 64, 1);
		else if (SW(p, e, "32BIT=y"))
			kl_detect_bits(st, 32, 1);
		else if (SW(p, e, "ARM64_VA_BITS=") && st->family ==
		    KL_FAM_ARM64) {
			for (n = 0, q = p + 14; q < e && *q >= '0' &&
			    *q <= '9' && n < 100; q++)
				n = n * 10 + (*q - '0');
			if (n == 39 || n == 42 || n == 47 || n == 48 || n == 52)
				kl_detect_va(st, n, 1);
		} else if (SW(p, e, "PAGE_OFFSET=0x") &&
		    hexrun(p + 14, e, &po) == 8 && st->page_offset == 0 &&
		    (po == U64(0x40000000) || po == U64(0x80000000) ||
		    po == U64(0xb0000000) || po == U64(0xc0000000))) {
			st->page_offset = po;
			st->flags |= KL_DF_DIRTY;
		}
	} else if (SW(p, e, "Linux ") && e - p > 10 &&
	    memcmp(e - 10, " GNU/Linux", 10) == 0) {
		/* uname -a: the machine word before "GNU/Linux". */
		for (q = e - 10; q > p && q[-1] != ' '; q--)
			;
		(void)machine_word(st, q, e - 10);
	} else
		return (0);
	return (1);
}

/*
 * A kallsyms or System.map line "c000000000000000 T _stext": the
 * address width is the kernel's word size; symbols only one architecture
 * has name it (its entry code: head.S and the exception vectors); the
 * value's shape is a weak hint where only one kernel puts its image
 * (powerpc64 c000..., LoongArch DMW 9000..., s390x 000003ff...).
 */
static void
ksym_line(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	static const struct {
		const char	*s;
		int		 fam;
		int		 bits;	/* 0: from the width */
	} names[] = {
		{ "startup_64", KL_FAM_X86, 64 },
		{ "x86_64_start_kernel", KL_FAM_X86, 64 },
		{ "i386_start_kernel", KL_FAM_X86, 32 },
		{ "primary_entry", KL_FAM_ARM64, 64 },
		{ "__primary_switch", KL_FAM_ARM64, 64 },
		{ "el1h_64_sync", KL_FAM_ARM64, 64 },
		{ "__turn_mmu_on", KL_FAM_ARM, 32 },
		{ "vector_swi", KL_FAM_ARM, 32 },
		{ "__dabt_svc", KL_FAM_ARM, 32 },
		{ "__start_initialization_multiplatform", KL_FAM_PPC, 64 },
		{ "system_call_common", KL_FAM_PPC, 64 },
		{ "transfer_to_handler", KL_FAM_PPC, 32 },
		{ "_start_kernel", KL_FAM_RISCV, 0 },
		{ "handle_exception", KL_FAM_RISCV, 0 },
		{ "__r4k_wait", KL_FAM_MIPS, 0 },
		{ "handle_sys", KL_FAM_MIPS, 0 },
		{ "handle_syscall", KL_FAM_LOONGARCH, 64 },
		{ "startup_continue", KL_FAM_S390, 64 },
		{ "pgm_check_handler", KL_FAM_S390, 64 },
	};
	const uint8_t *q;
	uint64_t v;
	size_t n, i;
	int bits;

	n = hexrun(p, e, &v);
	if ((n != 8 && n != 16) || e - p < (ptrdiff_t)n + 4 || p[n] != ' ' ||
	    p[n + 2] != ' ' || strchr("TtDdBbRrWwVvAa", p[n + 1]) == NULL ||
	    p[n + 1] == '\0' || v == 0)
		return;
	bits = (int)n * 4;
	q = p + n + 3;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((size_t)(e - q) >= strlen(names[i].s) &&
		    memcmp(q, names[i].s, strlen(names[i].s)) == 0 &&
		    (q + strlen(names[i].s) == e ||
		    !kl_iswordch(q[strlen(names[i].s)]))) {
			family_bits(st, names[i].fam,
			    names[i].bits != 0 ? names[i].bits : bits);
			return;
		}
	if (bits == 64 && (v >> 60) == 0xc)
		kl_detect_weak(st, KL_ARCH_PPC64, 1);
	else if (bits == 64 && (v >> 32) == U64(0x90000000))
		kl_detect_weak(st, KL_ARCH_LOONGARCH64, 1);
	else if (bits == 64 && (v >> 40) == 0x3)
		kl_detect_weak(st, KL_ARCH_S390X, 1);
	kl_detect_bits(st, bits, 0);
}

/*
 * Functions of one architecture's entry and exception code, as call
 * traces and "PC is at" lines name them: the family, and its width when
 * only one width has the function.  Kept in the order of their first
 * bytes, which frame_func() searches; of the names with the same first
 * byte the first that matches wins.
 */
static const struct arch_word arch_funcs[] = {
	AW("__dabt_svc", KL_FAM_ARM, 32),
	AW("__irq_svc", KL_FAM_ARM, 32),
	AW("__dabt_usr", KL_FAM_ARM, 32),
	AW("__irq_usr", KL_FAM_ARM, 32),
	AW("__s390x_sys_", KL_FAM_S390, 64),
	AW("__arm64_sys_", KL_FAM_ARM64, 64),
	AW("__x64_sys_", KL_FAM_X86, 64),
	AW("__ia32_sys_", KL_FAM_X86, 0),
	AW("__riscv_sys_", KL_FAM_RISCV, 64),
	AW("__se_sys_", KL_FAM_NONE, 0),
	AW("asm_exc_page_fault", KL_FAM_X86, 0),
	AW("asm_sysvec_apic_timer_interrupt", KL_FAM_X86, 0),
	AW("do_syscall_64", KL_FAM_X86, 64),
	AW("do_mem_abort", KL_FAM_ARM64, 64),
	AW("do_debug_exception", KL_FAM_ARM64, 64),
	AW("do_DataAbort", KL_FAM_ARM, 32),
	AW("do_trap_ecall_u", KL_FAM_RISCV, 0),
	AW("entry_SYSCALL_64_after_hwframe", KL_FAM_X86, 64),
	AW("entry_SYSCALL_64", KL_FAM_X86, 64),
	AW("entry_INT80_32", KL_FAM_X86, 32),
	AW("el0_svc", KL_FAM_ARM64, 64),
	AW("el0t_64_sync", KL_FAM_ARM64, 64),
	AW("el0t_64_sync_handler", KL_FAM_ARM64, 64),
	AW("el1h_64_sync", KL_FAM_ARM64, 64),
	AW("el1h_64_irq", KL_FAM_ARM64, 64),
	AW("el1_sync", KL_FAM_ARM64, 64),
	AW("el1_irq", KL_FAM_ARM64, 64),
	AW("el1_dbg", KL_FAM_ARM64, 64),
	AW("el0_sync", KL_FAM_ARM64, 64),
	AW("ext_int_handler", KL_FAM_S390, 64),
	AW("handle_sys64", KL_FAM_MIPS, 64),
	AW("handle_sysn32", KL_FAM_MIPS, 64),
	AW("invoke_syscall", KL_FAM_ARM64, 64),
	AW("interrupt_return_srr", KL_FAM_PPC, 64),
	AW("io_int_handler", KL_FAM_S390, 64),
	AW("pgm_check_handler", KL_FAM_S390, 64),
	AW("ret_fast_syscall", KL_FAM_ARM, 32),
	AW("system_call_exception", KL_FAM_PPC, 0),
	AW("system_call_common", KL_FAM_PPC, 64),
	AW("syscall_common", KL_FAM_MIPS, 0),
	AW("vector_swi", KL_FAM_ARM, 32),
};

/*
 * A symbolised frame or pc ("sym+0x1c/0x40") naming a function of
 * arch_funcs[]: the name before the first "+0x" of the line ("__x64_sys_"
 * and the like are prefixes of the syscall wrappers).
 */
static void
frame_func(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q, *s;
	size_t i, n, k, lo, hi;

	if ((q = FIND(p, e, "+0x")) == NULL)
		return;
	for (s = q; s > p && (kl_iswordch(s[-1]) || s[-1] == '.'); s--)
		;
	n = (size_t)(q - s);
	if (n < 6)
		return;
	/* arch_funcs[] is in the order of first bytes: its run for *s. */
	lo = 0;
	hi = sizeof(arch_funcs) / sizeof(arch_funcs[0]);
	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		if ((uint8_t)arch_funcs[i].w[0] < *s)
			lo = i + 1;
		else
			hi = i;
	}
	for (i = lo; i < sizeof(arch_funcs) / sizeof(arch_funcs[0]) &&
	    (uint8_t)arch_funcs[i].w[0] == *s; i++) {
		if (s[1] != (uint8_t)arch_funcs[i].w[1])
			continue;
		k = arch_funcs[i].n;
		if (k > n || memcmp(s, arch_funcs[i].w, k) != 0 ||
		    (k < n && arch_funcs[i].w[k - 1] != '_'))
			continue;
		if (arch_funcs[i].fam == KL_FAM_NONE)
			return;
		kl_detect_family(st, arch_funcs[i].fam);
		if (st->family == arch_funcs[i].fam && arch_funcs[i].bits != 0)
			kl_detect_bits(st, arch_funcs[i].bits, 1);
		return;
	}
}

/*
 * The second bytes of the messages detect_line() can learn from, by first
 * byte: the first two bytes of each of its literals, of sysinfo_line()'s
 * keys and of machine_word()'s words; any hex digit after a lower-case
 * one (ksym_line(): a run of 8 or 16).  DL_ANY: '[' and '$' read on.  A
 * message that starts with no pair here, and has no '+' for frame_func(),
 * tells nothing: detect_may() spares it the calls.  A literal added to
 * detect_line() without its pair here is never read (test-detect-line's
 * t_may_exact feeds every line of the test logs both ways).
 */
#define DL_HEX	"0123456789abcdefABCDEF"
static const char DL_ANY[] = "";
static const char *const dl_second[128] = {
	['$'] = DL_ANY, ['['] = DL_ANY,
	['0'] = DL_HEX, ['1'] = DL_HEX, ['2'] = DL_HEX, ['3'] = DL_HEX,
	['4'] = DL_HEX, ['5'] = DL_HEX, ['6'] = DL_HEX, ['7'] = DL_HEX,
	['8'] = DL_HEX, ['9'] = DL_HEX,
	['B'] = "aoIE",		/* Backtrace, Booting, BIOS-, BE PAGE_SIZE */
	['C'] = "aPoO",		/* Call trace, CPU, Code, CONFIG_ */
	['D'] = "M",		/* DMA32, DMI */
	['E'] = "IARS",		/* EIP, EAX, ERA, ESTAT */
	['F'] = "a",		/* Faulting instruction address */
	['G'] = "P",		/* GPR00 */
	['H'] = "ai",		/* Hardware name, HighMem */
	['I'] = "nP",		/* Internal error, IP: [< */
	['K'] = "r",		/* Krnl PSW, Krnl GPRS */
	['L'] = "iERa",		/* Linux, LE PAGE_SIZE, LR is at, Last */
	['M'] = "aSM",		/* Machine model, MSR, MMU */
	['N'] = "I",		/* NIP */
	['P'] = "CrR",		/* PC is at, PrId, PRID, PROMLIB */
	['R'] = "IASE",		/* RIP, RAX, RSP, REGS */
	['S'] = "B",		/* SBI */
	['T'] = "S",		/* TSTATE */
	['a'] = DL_HEX "ar",	/* address sizes; aarch64, arm* */
	['b'] = DL_HEX, ['c'] = DL_HEX "p",	/* cpu, cpu model */
	['d'] = DL_HEX,
	['e'] = DL_HEX "pr",	/* epc, era (and e820) */
	['f'] = DL_HEX,
	['g'] = "e",		/* general protection fault */
	['i'] = "s653",		/* isa; i686, i586, i386 */
	['l'] = "ro",		/* lr :; loongarch64 */
	['m'] = "mi",		/* mmu; mips* */
	['p'] = "cslp",		/* pc, pstate, platform, ppc* */
	['r'] = "ia",		/* riscv, ra */
	['s'] = "pwyt3",	/* sp, swapper, systemd, status, s390x */
	['u'] = "s",		/* user pgtable */
	['v'] = "e",		/* vendor_id */
	['x'] = "82",		/* x86/, x86_64, x29 */
};

/* Can detect_line() learn anything from the message p? */
static inline int
detect_may(const struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	const char *s;

	if (e - p < 2 || p[0] >= 128 || p[1] == '\0')
		return (1);
	if ((s = dl_second[p[0]]) != NULL &&
	    (s == DL_ANY || strchr(s, p[1]) != NULL))
		return (1);
	return (st->family == KL_FAM_NONE &&
	    memchr(p, '+', (size_t)(e - p)) != NULL);
}

/* Look at one line; see the comment at the top of this file. */
static void
detect_line(struct kl_detect *st, const uint8_t *p, const uint8_t *e)
{
	if (st->family == KL_FAM_NONE && memchr(p, '+', (size_t)(e - p)))
		frame_func(st, p, e);
	if (sysinfo_line(st, p, e))
		return;
	if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')) {
		ksym_line(st, p, e);
		if (*p >= 'a' && *p <= 'f' && *p != 'e')
			return;
	}
	switch (*p) {
	case '$':
		mips_reg(st, p, e);
		break;
	case '[':
		if (SW(p, e, "[<"))
			arm_frame(st, p + 2, e);
		else
			ppc_frame(st, p, e);
		break;
	case 'B':
		if (SW(p, e, "Backtrace:"))
			kl_detect_weak(st, KL_ARCH_ARM, 1);
		else if (SW(p, e, "Booting Linux on physical CPU "))
			arm_booting(st, p + 30, e);
		else if (SW(p, e, "BIOS-e820:") ||
		    SW(p, e, "BIOS-provided physical RAM map"))
			kl_detect_family(st, KL_FAM_X86);
		else if (SW(p, e, "BE PAGE_SIZE="))
			ppc_die(st, p, e);
		break;
	case 'C':
		if (SW(p, e, "Call trace:")) /* x86 & co: "Call Trace:" */
			kl_detect_weak(st, KL_ARCH_ARM64, 1);
		else if (SW(p, e, "CPU: ")) {
			if (p + 5 < e && p[5] >= '0' && p[5] <= '9')
				oops_header(st, p + 5, e);
			else if (FIND(p + 5, e, "(ARMv") != NULL)
				kl_detect_family(st, KL_FAM_ARM);
		} else if (SW(p, e, "Code: "))
			code_line(st, p + 5, e);
		else if (SW(p, e, "CPU features: "))
			kl_detect_family(st, KL_FAM_ARM64);
		else if (SW(p, e, "CPU0 revision is: ")) {
			if (FIND(p, e, "(Loongson-64bit") != NULL ||
			    FIND(p, e, "(Loongson-32bit") != NULL)
				kl_detect_family(st, KL_FAM_LOONGARCH);
			else
				kl_detect_family(st, KL_FAM_MIPS);
		}
		break;
	case 'D':
		if (SW(p, e, "DMA32 "))
			kl_detect_bits(st, 64, 0);
		else if (SW(p, e, "DMI: "))
			kl_detect_weak(st, KL_ARCH_X86_64, 1);
		break;
	case 'E':
		if (SW(p, e, "EIP: ") || SW(p, e, "EAX: ")) {
			kl_detect_family(st, KL_FAM_X86);
			if (st->family == KL_FAM_X86)
				kl_detect_bits(st, 32, 1);
		} else if (SW(p, e, "ERA: ") || SW(p, e, "ESTAT: "))
			kl_detect_family(st, KL_FAM_LOONGARCH);
		break;
	case 'F':
		if (SW(p, e, "Faulting instruction address: 0x"))
			ppc_reg(st, p + 32, e);
		break;
	case 'G':
		if (SW(p, e, "GPR00: "))
			ppc_reg(st, p + 7, e);
		break;
	case 'H':
		if (SW(p, e, "Hardware name: "))
			hardware_name(st, p + 15, e);
		else if (SW(p, e, "HighMem zone:") || SW(p, e, "HighMem  [mem"))
			kl_detect_bits(st, 32, 0);
		break;
	case 'I':
		if (SW(p, e, "Internal error: "))
			arm_internal(st, p, e);
		else if (SW(p, e, "IP: [<")) /* x86 page fault, < v4.15 */
			family_width(st, KL_FAM_X86, p + 6, e);
		break;
	case 'K':
		if (SW(p, e, "Krnl PSW") || SW(p, e, "Krnl GPRS"))
			kl_detect_family(st, KL_FAM_S390);
		break;
	case 'L':
		if (SW(p, e, "Linux version "))
			banner(st, p, e);
		else if (SW(p, e, "LE PAGE_SIZE="))
			ppc_die(st, p, e);
		else if (SW(p, e, "LR is at "))
			pc_is_at(st, p + 9, e);
		else if (SW(p, e, "Last Breaking-Event-Address:"))
			kl_detect_family(st,
			    KL_FAM_S390); /* s390 show_regs() */
		break;
	case 'M':
		if (SW(p, e, "Machine model: "))
			kl_detect_weak(st, KL_ARCH_ARM64, 1);
		else if (SW(p, e, "MSR: "))
			ppc_reg(st, p + 5, e);
		else if (SW(p, e, "MMU: Book3E")) {
			kl_detect_family(st, KL_FAM_PPC);
			if (st->family == KL_FAM_PPC)
				st->flags |= KL_DF_BOOK3E | KL_DF_DIRTY;
		}
		break;
	case 'N':
		if (SW(p, e, "NIP: "))
			ppc_reg(st, p + 5, e);
		break;
	case 'P':
		if (SW(p, e, "PC is at "))
			pc_is_at(st, p + 9, e);
		else if (SW(p, e, "PrId  : "))
			kl_detect_family(st, KL_FAM_MIPS);
		else if (SW(p, e, "PRID: "))
			kl_detect_family(st, KL_FAM_LOONGARCH);
		else if (SW(p, e, "PROMLIB: "))
			kl_detect_family(st, KL_FAM_SPARC);
		break;
	case 'R':
		if (SW(p, e, "RIP: ") || SW(p, e, "RIP  [<") ||
		    SW(p, e, "RAX: ")) {
			kl_detect_family(st, KL_FAM_X86);
			if (st->family == KL_FAM_X86)
				kl_detect_bits(st, 64, 1);
		} else if (SW(p, e, "RSP: ") || SW(p, e, "RSP <"))
			x86_rsp(st, p + 4, e);
		else if (SW(p, e, "REGS: "))
			ppc_reg(st, p + 6, e);
		break;
	case 'S':
		if (SW(p, e, "SBI specification") ||
		    SW(p, e, "SBI implementation"))
			kl_detect_family(st, KL_FAM_RISCV);
		break;
	case 'T':
		if (SW(p, e, "TSTATE: "))
			kl_detect_family(st, KL_FAM_SPARC);
		break;
	case 'e':
		if (SW(p, e, "epc"))
			epc_line(st, p, e);
		else if (SW(p, e, "era   :") || SW(p, e, "era:"))
			kl_detect_family(st, KL_FAM_LOONGARCH);
		else if (SW(p, e, "e820: "))
			kl_detect_family(st, KL_FAM_X86);
		break;
	case 'g':
		if (SW(p, e, "general protection fault"))
			kl_detect_family(st, KL_FAM_X86);
		break;
	case 'l':
		if (SW(p, e, "lr : "))
			kl_detect_family(st, KL_FAM_ARM64);
		break;
	case 'p':
		if (SW(p, e, "pc : "))
			arm_pc(st, p + 5, e);
		else if (SW(p, e, "pstate: "))
			kl_detect_family(st, KL_FAM_ARM64);
		else if (SW(p, e, "pc ") && loong_pc(p + 3, e))
			kl_detect_family(st, KL_FAM_LOONGARCH);
		break;
	case 'r':
		if (SW(p, e, "riscv: ") || SW(p, e, "riscv-"))
			kl_detect_family(st, KL_FAM_RISCV);
		else if (SW(p, e, "ra    : "))
			ra_line(st, p + 7, e);
		break;
	case 's':
		if (SW(p, e, "sp : "))
			arm_sp(st, p + 5, e);
		else if (SW(p, e, "swapper pgtable: "))
			pgtable(st, p + 17, e);
		else if (SW(p, e, "systemd[1]: Detected architecture "))
			systemd_arch(st, p + 34, e);
		else if (SW(p, e, "status: ") && FIND(p, e, " badaddr: "))
			kl_detect_family(st, KL_FAM_RISCV);
		break;
	case 'u':
		if (SW(p, e, "user pgtable: "))
			pgtable(st, p + 14, e);
		break;
	case 'x':
		if (SW(p, e, "x86/"))
			kl_detect_family(st, KL_FAM_X86);
		else if (SW(p, e, "x29: ")) {
			kl_detect_family(st, KL_FAM_ARM64);
			stack_value(st, skip_sp(p + 5, e), e);
		}
		break;
	default:
		break;
	}
}

/* Feed the message span of one line; all: read it whatever it starts with. */
static void
detect_msg(struct kl_detect *st, const uint8_t *msg, size_t len, int all)
{
	const uint8_t *p, *e;

	st->lines++;
	if (st->certain || msg == NULL || len == 0)
		return;
	e = msg + len;
	if ((p = skip_prefix(msg, e)) == e)
		return;
	if (all || detect_may(st, p, e))
		detect_line(st, p, e);
	if (st->flags & KL_DF_DIRTY)
		kl_detect_resolve(st);
}

/* Feed the message span of one line. */
void
kl_detect_line(struct kl_detect *st, const uint8_t *msg, size_t len)
{
	detect_msg(st, msg, len, 0);
}

/* kl_detect_line() without detect_may(): what it must equal, for tests. */
void
kl_detect_line_all(struct kl_detect *st, const uint8_t *msg, size_t len)
{
	detect_msg(st, msg, len, 1);
}

/*
 * Does this message start a report (kl_scan's report segments): a
 * "Linux version" banner, the "CPU: 0 PID: 1 Comm: x" or "Hardware name:"
 * line of an oops header, or "Oops", "BUG:", "Unable to handle kernel",
 * "Internal error: Oops", "KASAN:" headers.  Prefixes are skipped as for
 * kl_detect_line().
 */
int
kl_detect_report(const uint8_t *msg, size_t len)
{
	const uint8_t *p, *e;

	if (msg == NULL || len == 0)
		return (0);
	e = msg + len;
	/* Past the indent, most lines have no prefix: no call for them. */
	for (p = msg; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	if (p == e || (prefix_byte(*p) && (p = skip_prefix(p, e)) == e))
		return (0);
	switch (*p) {
	case 'B':
		return (SW(p, e, "BUG: "));
	case 'C':
		return (SW(p, e, "CPU: ") && p + 5 < e && p[5] >= '0' &&
		    p[5] <= '9' && FIND(p + 5, e, " PID: ") != NULL &&
		    FIND(p + 5, e, " Comm: ") != NULL);
	case 'H':
		return (SW(p, e, "Hardware name: "));
	case 'I':
		return (SW(p, e, "Internal error: Oops"));
	case 'K':
		return (SW(p, e, "KASAN: "));
	case 'L':
		return (SW(p, e, "Linux version "));
	case 'O':
		return (SW(p, e, "Oops"));
	case 'U':
		return (SW(p, e, "Unable to handle kernel "));
	default:
		return (0);
	}
}
