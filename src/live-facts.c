/*
 * live-facts.c - what the audited system is: its sysctls (kptr_restrict,
 * dmesg_restrict, perf_event_paranoid), no_hash_pointers, lockdown,
 * machine, release, paging, the range and _text of kallsyms and its
 * System.map, read from the running system or a captured one.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/utsname.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleakscan.h"
#include "live.h"

/* The path of a system path inside the captured root. */
const char *
facts_in_root(struct live *lv, const char *path, char *out, size_t size)
{
	if (lv->root == NULL)
		return (path);
	snprintf(out, size, "%s%s", lv->root, path);
	return (out);
}

/* The text of a fact file of the system in b; -1 when there is none. */
static int
fact_get(struct live *lv, const char *path, struct buf *b)
{
	char		rpath[PATH_MAX];
	struct rhead	h;
	size_t		i;

	b->len = 0;
	if (lv->root != NULL && (!lv->root_dir || lv->sc)) {
		for (i = 0; i < lv->nafacts; i++)
			if (strcmp(lv->afacts[i].path, path) == 0) {
				audit_buf_add(b, lv->afacts[i].b.p != NULL ?
				    lv->afacts[i].b.p : "",
				    lv->afacts[i].b.len);
				return (0);
			}
		return (-1);
	}
	memset(&h, 0, sizeof(h));
	rd_file(lv, facts_in_root(lv, path, rpath, sizeof(rpath)), b, &h);
	if ((h.err != 0 && b->len == 0) || (h.flags & RF_NOTREG))
		return (-1);
	audit_buf_add(b, "", 0);
	return (0);
}

/* An integer fact, or -1. */
static int
fact_int(struct live *lv, const char *path)
{
	struct buf	b;
	int		v = -1;

	memset(&b, 0, sizeof(b));
	if (fact_get(lv, path, &b) == 0 && b.len > 0)
		v = atoi(b.p);
	buf_free(&b);
	return (v);
}

/*
 * Load the system's map for live_symbol(): only a map of the system's
 * release (by its name), or one without a release in its name.
 */
void
facts_map_load(struct live *lv, const char *p, size_t n, const char *name)
{
	struct kl_error	 err;
	const char	*r;

	memset(&err, 0, sizeof(err));
	if (lv->fx.symtab != NULL ||
	    (lv->fx.symtab = kl_sym_load_mem(p, n, name, &err)) == NULL)
		return;
	r = kl_sym_release(lv->fx.symtab);
	if (r != NULL && lv->fx.release[0] != '\0' &&
	    strcmp(r, lv->fx.release) != 0) {
		kl_sym_free(lv->fx.symtab);
		lv->fx.symtab = NULL;
	}
}

/*
 * _text (else _stext) and _stext of a System.map file (raw or in b),
 * into fx; 0 when found.  Each line's width gives the map's bits: a
 * 32-bit map is read on a 64-bit host too.
 */
int
facts_map_text(const char *p, size_t n, struct facts *fx)
{
	struct kl_symrange	r;

	if (kl_live_symrange(p, n, 0, &r) == 0 || !r.have_text)
		return (-1);
	fx->map_text = r.text;
	fx->have_map_text = 1;
	fx->map_stext = r.stext_addr;
	fx->have_map_stext = r.have_stext;
	return (0);
}

/*
 * The link-time address kallsyms' anchor is measured against for the
 * slide: the map's symbol of the same name (_stext where kallsyms has
 * no _text: arm64, arm and mips kallsyms put _stext 0x400 to 0x10000
 * past _text), else, for _text, the profile's default base.  0 when
 * there is none.
 */
int
facts_slide_base(const struct facts *fx, uint64_t *base)
{
	const struct kl_arch	*ka;

	if (!fx->have_text)
		return (-1);
	if (fx->have_map_text) {
		if (fx->text_stext && !fx->have_map_stext)
			return (-1);
		*base = fx->text_stext ? fx->map_stext : fx->map_text;
		return (0);
	}
	if (fx->text_stext || (ka = kl_arch_get(fx->arch)) == NULL ||
	    ka->text_base == 0)
		return (-1);
	*base = ka->text_base;
	return (0);
}

/* The architecture profile of a uname machine name (la57: 5-level). */
enum kl_arch_id
facts_machine_arch(const char *m, int la57)
{
	static const struct {
		const char	*m;
		const char	*arch;
	} tab[] = {
		{ "x86_64", "x86_64" }, { "aarch64", "arm64" },
		{ "arm64", "arm64" }, { "i386", "i386" }, { "i486", "i386" },
		{ "i586", "i386" }, { "i686", "i386" }, { "armv7l", "arm" },
		{ "armv6l", "arm" }, { "ppc64le", "ppc64" },
		{ "ppc64", "ppc64" }, { "ppc", "ppc32" },
		{ "riscv64", "riscv64" }, { "mips64", "mips64" },
		{ "loongarch64", "loongarch64" }, { "s390x", "s390x" },
		{ "sparc64", "sparc64" },
	};
	enum kl_arch_id	id;
	size_t		i;

	if (strcmp(m, "x86_64") == 0 && la57 == 1 &&
	    kl_arch_parse("x86_64-l5", &id) == 0)
		return (id);
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(m, tab[i].m) == 0 &&
		    kl_arch_parse(tab[i].arch, &id) == 0)
			return (id);
	return (KL_ARCH_AUTO);
}

/* The n-th (0-based) blank-separated word of s into out. */
static void
word_at(const char *s, int n, char *out, size_t size)
{
	const char	*e;
	int		 i;

	out[0] = '\0';
	for (i = 0; *s != '\0'; i++) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		e = s;
		while (*e != '\0' && *e != ' ' && *e != '\t' && *e != '\n')
			e++;
		if (e == s)
			return;
		if (i == n) {
			snprintf(out, size, "%.*s", (int)(e - s), s);
			return;
		}
		s = e;
	}
}

/* Learn the system's facts: sysctls, arch, paging, symbols. */
void
facts_learn(struct live *lv)
{
	struct facts	*fx = &lv->fx;
	struct utsname	 un;
	struct buf	 b;
	const char	*s, *e;
	char		 w[64];
	int		 i;

	memset(&b, 0, sizeof(b));
	fx->kptr_restrict = fact_int(lv, "/proc/sys/kernel/kptr_restrict");
	fx->dmesg_restrict = fact_int(lv, "/proc/sys/kernel/dmesg_restrict");
	memset(&b, 0, sizeof(b));
	if (fact_get(lv, "/proc/sys/kernel/perf_event_paranoid", &b) == 0 &&
	    b.len > 0) {
		fx->perf_event_paranoid = atoi(b.p);
		fx->have_perf = 1;
	}
	fx->no_hash_pointers = -1;
	if (fact_get(lv, "/proc/cmdline", &b) == 0)
		fx->no_hash_pointers = strstr(b.p, "no_hash_pointers") !=
		    NULL;
	if (fact_get(lv, "/sys/kernel/security/lockdown", &b) == 0 &&
	    (s = strchr(b.p, '[')) != NULL && (e = strchr(s, ']')) != NULL)
		snprintf(fx->lockdown, sizeof(fx->lockdown), "%.*s",
		    (int)(e - s - 1), s + 1);
	if (fact_get(lv, "/proc/cpuinfo", &b) == 0 &&
	    (s = strstr(b.p, "bits physical, ")) != NULL)
		fx->vbits = atoi(s + strlen("bits physical, "));
	/* x86 clears the la57 flag unless 5-level paging is on. */
	fx->la57 = -1;
	if (fact_get(lv, "/proc/cpuinfo", &b) == 0 &&
	    (s = strstr(b.p, "\nflags")) != NULL) {
		e = strchr(s + 1, '\n');
		fx->la57 = 0;
		for (s = strstr(s, " la57"); s != NULL && (e == NULL || s < e);
		    s = strstr(s + 1, " la57"))
			if (s[5] == ' ' || s[5] == '\n' || s[5] == '\0') {
				fx->la57 = 1;
				break;
			}
	}
	if (lv->root == NULL && uname(&un) == 0) {
		snprintf(fx->machine, sizeof(fx->machine), "%s", un.machine);
		snprintf(fx->release, sizeof(fx->release), "%s", un.release);
	} else {
		if (fact_get(lv, "/proc/sys/kernel/osrelease", &b) == 0)
			word_at(b.p, 0, fx->release, sizeof(fx->release));
		if (fx->release[0] == '\0' &&
		    fact_get(lv, "/proc/version", &b) == 0)
			word_at(b.p, 2, fx->release, sizeof(fx->release));
		if (fact_get(lv, "/proc/sys/kernel/arch", &b) == 0)
			word_at(b.p, 0, fx->machine, sizeof(fx->machine));
		if (fx->machine[0] == '\0' &&
		    (fact_get(lv, "/uname", &b) == 0 ||
		    fact_get(lv, "/sos_commands/kernel/uname_-a", &b) == 0)) {
			/* uname -a: the machine is before "GNU/Linux". */
			for (i = 1; i < 32; i++) {
				word_at(b.p, i, w, sizeof(w));
				if (w[0] == '\0' || strcmp(w, "GNU/Linux") == 0)
					break;
				snprintf(fx->machine, sizeof(fx->machine),
				    "%s", w);
			}
			if (fx->release[0] == '\0')
				word_at(b.p, 2, fx->release,
				    sizeof(fx->release));
		}
	}
	fx->arch = facts_machine_arch(fx->machine, fx->la57);
	buf_free(&b);
}

/* The symbol table: kallsyms as read (privileged), and a map's _text. */
void
facts_symbols(struct live *lv)
{
	struct facts		*fx = &lv->fx;
	static struct rdata	 a, u;
	struct buf		 b;
	struct kl_symrange	 r;

	memset(&b, 0, sizeof(b));
	if (lv->root == NULL) {
		rd_ask(lv, &lv->priv, RK_FILE, "/proc/kallsyms", &a);
		if (a.ok && a.h.err == 0)
			audit_buf_add(&b, a.p, (size_t)a.h.len);
	} else
		(void)fact_get(lv, "/proc/kallsyms", &b);
	if (b.len > 0 && kl_live_symrange(b.p, b.len, lv->root != NULL ? 0 :
	    8 * sizeof(void *), &r) > 0) {
		fx->have_syms = 1;
		fx->lo = r.lo;
		fx->hi = r.hi;
		fx->text = r.text;
		fx->have_text = r.have_text;
		fx->text_stext = r.stext;
	}
	if (lv->root == NULL && fx->have_syms) {
		fx->kallsyms_known = 1;
		if (!lv->asroot)
			fx->kallsyms_everyone = 1;
		else {
			rd_ask(lv, &lv->unpriv, RK_FILE, "/proc/kallsyms", &u);
			fx->kallsyms_everyone = u.ok && u.h.err == 0 &&
			    kl_live_symrange(u.p, (size_t)u.h.len,
			    8 * sizeof(void *), &r) > 0;
		}
	}
	/* The map: the first --system-map, else System.map-RELEASE. */
	b.len = 0;
	if (lv->cli->nmaps > 0)
		snprintf(fx->map, sizeof(fx->map), "%s", lv->cli->maps[0]);
	else if (lv->root == NULL || lv->root_dir)
		snprintf(fx->map, sizeof(fx->map), "%s/boot/System.map-%s",
		    lv->root != NULL ? lv->root : "", fx->release);
	if (fx->map[0] != '\0' && !fx->have_map_text) {
		struct rhead	h;

		memset(&h, 0, sizeof(h));
		rd_file(lv, fx->map, &b, &h);
		if (b.len > 0 && facts_map_text(b.p, b.len, fx) == 0) {
			facts_map_load(lv, b.p, b.len, fx->map);
		} else
			fx->map[0] = '\0';
	}
	buf_free(&b);
}

/*
 * Feed the lines of the fact file path (a bounded copy) to the detector:
 * kallsyms values vote for the VA size of the family seen.
 */
static void
detect_file(struct live *lv, struct kl_detect *st, const char *path,
    struct buf *b, int ksyms)
{
	const char	*p, *e, *nl;
	uint64_t	 v;
	size_t		 k;

	if (fact_get(lv, path, b) != 0 || b->len == 0)
		return;
	e = b->p + (b->len < LIVE_FACT_MAX ? b->len : LIVE_FACT_MAX);
	for (p = b->p; p < e && !st->certain; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		kl_detect_line(st, (const uint8_t *)p, (size_t)(nl - p));
		for (k = 0; ksyms && p + k < nl && k < 17 &&
		    kl_hex_value((uint8_t)p[k]) >= 0; k++)
			;
		if (ksyms && k == 16 && kl_hexval((const uint8_t *)p, 16,
		    &v) == 0)
			kl_detect_value(st, v, 16);
	}
}

/*
 * The PAGE_OFFSET of an arm, i386 or ppc32 kernel whose image starts at
 * text: the highest VMSPLIT at or below it (arch/arm/Kconfig and
 * arch/x86/Kconfig: 3G 0xc0000000, 3G_OPT 0xb0000000, 2G 0x80000000,
 * 1G 0x40000000) that leaves the image within its first 512 MiB (i386
 * KASLR's KERNEL_IMAGE_SIZE; an arm image sits at +32 KiB, a relocated
 * ppc32 one higher).  0 when none does.
 */
static uint64_t
split_of(uint64_t text)
{
	static const uint64_t split[] = {UINT64_C(0xc0000000),
	    UINT64_C(0xb0000000), UINT64_C(0x80000000), UINT64_C(0x40000000)};
	size_t	i;

	for (i = 0; i < sizeof(split) / sizeof(split[0]); i++)
		if (text >= split[i] && text - split[i] < UINT64_C(0x20000000))
			return (split[i]);
	return (0);
}

/* The uname -m name of a profile, for a system that named none. */
static const char *
arch_machine(enum kl_arch_id id, const char *version)
{
	switch (id) {
	case KL_ARCH_X86_64:
	case KL_ARCH_X86_64_L5:
		return ("x86_64");
	case KL_ARCH_I386:
		return ("i686");
	case KL_ARCH_ARM:
		return ("armv7l");
	case KL_ARCH_PPC64:
	case KL_ARCH_PPC64_BOOK3E:
		return (strstr(version, "powerpc64le") != NULL ||
		    strstr(version, "ppc64le") != NULL ? "ppc64le" : "ppc64");
	case KL_ARCH_PPC32:
		return ("ppc");
	case KL_ARCH_RISCV32:
		return ("riscv32");
	case KL_ARCH_MIPS64:
		return ("mips64");
	case KL_ARCH_MIPS32:
		return ("mips");
	case KL_ARCH_LOONGARCH64:
		return ("loongarch64");
	case KL_ARCH_S390X:
		return ("s390x");
	case KL_ARCH_SPARC64:
		return ("sparc64");
	default:
		if (id >= KL_ARCH_ARM64 && id <= KL_ARCH_ARM64_PRE54)
			return ("aarch64");
		if (id >= KL_ARCH_RISCV64 && id <= KL_ARCH_RISCV64_SV57)
			return ("riscv64");
		if (id == KL_ARCH_RISCV64_PRE513)
			return ("riscv64");
		return (NULL);
	}
}

/*
 * A captured (or running) system is one machine: one architecture and
 * one layout from all its files.  The uname machine, /proc/version (its
 * compiler triplet and release suffix), /proc/cpuinfo fields, the kernel
 * config, the kallsyms names, widths and values, and the boot log are
 * read in that order by the same detector as logs (detect-line.c); the
 * kallsyms _text (or _stext) places a VMSPLIT kernel's PAGE_OFFSET.
 */
void
facts_arch(struct live *lv)
{
	struct facts	*fx = &lv->fx;
	struct kl_detect st;
	struct buf	 b, ver;
	char		 path[PATH_MAX];
	const char	*m;
	uint64_t	 po;

	memset(&b, 0, sizeof(b));
	memset(&ver, 0, sizeof(ver));
	kl_detect_init(&st);
	if (fx->machine[0] != '\0')
		kl_detect_line(&st, (const uint8_t *)fx->machine,
		    strlen(fx->machine));
	(void)fact_get(lv, "/proc/version", &ver);
	audit_buf_add(&ver, "", 0);
	detect_file(lv, &st, "/proc/version", &b, 0);
	detect_file(lv, &st, "/proc/cpuinfo", &b, 0);
	if (fx->release[0] != '\0') {
		snprintf(path, sizeof(path), "/boot/config-%s", fx->release);
		detect_file(lv, &st, path, &b, 0);
	}
	detect_file(lv, &st, "/proc/kallsyms", &b, 1);
	detect_file(lv, &st, "/var/log/dmesg", &b, 0);
	kl_detect_finish(&st);
	if (st.arch != KL_ARCH_AUTO &&
	    (fx->arch == KL_ARCH_AUTO || st.family != KL_FAM_X86))
		fx->arch = st.arch;
	/* A VMSPLIT kernel: where kallsyms puts its image, or its config. */
	po = st.page_offset;
	if (fx->have_text && (fx->arch == KL_ARCH_ARM ||
	    fx->arch == KL_ARCH_I386 || fx->arch == KL_ARCH_PPC32))
		po = split_of(fx->text);
	if (fx->arch == KL_ARCH_ARM || fx->arch == KL_ARCH_I386 ||
	    fx->arch == KL_ARCH_PPC32)
		fx->page_offset = po;
	if (fx->vbits == 0 && st.va_bits != 0)
		fx->vbits = st.va_bits;
	if (fx->machine[0] == '\0' && (m = arch_machine(fx->arch,
	    ver.p != NULL ? ver.p : "")) != NULL) {
		snprintf(fx->machine, sizeof(fx->machine), "%s", m);
		fx->machine_derived = 1;
	}
	buf_free(&b);
	buf_free(&ver);
}
