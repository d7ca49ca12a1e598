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

/* _text of a System.map file (raw or in b), into *v; 0 when found. */
int
facts_map_text(const char *p, size_t n, uint64_t *v)
{
	struct kl_symrange	r;

	if (kl_live_symrange(p, n, 8 * sizeof(void *), &r) == 0 ||
	    !r.have_text)
		return (-1);
	*v = r.text;
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
	if (b.len > 0 && kl_live_symrange(b.p, b.len, 8 * sizeof(void *),
	    &r) > 0) {
		fx->have_syms = 1;
		fx->lo = r.lo;
		fx->hi = r.hi;
		fx->text = r.text;
		fx->have_text = r.have_text;
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
		if (b.len > 0 &&
		    facts_map_text(b.p, b.len, &fx->map_text) == 0) {
			fx->have_map_text = 1;
			facts_map_load(lv, b.p, b.len, fx->map);
		} else
			fx->map[0] = '\0';
	}
	buf_free(&b);
}
