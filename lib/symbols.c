/*
 * symbols.c - kernel symbol maps (System.map, /proc/kallsyms) and
 * lookups that print what the kernel's %pS prints.
 *
 * Input.  One symbol a line, "ADDR TYPE NAME" (System.map, nm -n) or
 * "ADDR TYPE NAME\t[MODULE]" (/proc/kallsyms, module symbols): ADDR 1 to
 * 16 hex digits, one space, one type byte, one space, NAME (1 to 511
 * printable non-blank ASCII bytes, KSYM_NAME_LEN), optionally a tab and
 * a bracketed module name; a trailing CR is allowed, blank lines are
 * passed over.  The stream is read as it comes (read(2) on the
 * descriptor, never seeked, never held whole): plain, or compressed
 * (gzip, bzip2, xz, zstd, lz4, compress), told by magic bytes and read
 * through one libarchive reader with that one filter and the raw
 * format.  Lines longer than KL_SYM_LINE_MAX are cut off and dropped.
 *
 * Malformed lines are skipped and counted (struct kl_sym_stats, with
 * the first one's line number): real kallsyms dumps taken over a
 * console carry interleaved kernel messages, and one such line should
 * not cost the other 90,000.  The load fails (KL_EFORMAT) when nothing
 * is left (no symbol at all), when malformed lines outnumber the good
 * ones (this is not a symbol map), and when every address is zero
 * (/proc/kallsyms read without privilege: kallsyms_show_value() said
 * no, and such a map can resolve nothing).
 *
 * Which symbols are kept, as scripts/kallsyms builds the kernel's own
 * table (with CONFIG_KALLSYMS_ALL): not absolute ones (A, a; on x86_64
 * SMP the per-CPU symbols are made absolute), not undefined (U),
 * debugging (N, n) or unknown (?, -, any non-letter) ones, no weak
 * symbol at address 0 (undefined weak), and not the names
 * scripts/kallsyms ignores (its own tables, mapping symbols, linker
 * thunks and veneers, __crc_ and the like).  Data symbols are kept.  A
 * System.map still lists x86_64 per-CPU symbols as D/d at small
 * offsets: when __per_cpu_start lies below the kernel text, everything
 * in [__per_cpu_start, __per_cpu_end] is dropped.
 *
 * Order at one address (aliases) is scripts/kallsyms' compare_symbols():
 * non-weak (W, w) before weak, then names that do not look like
 * linker-script PROVIDE()s (__start_X, __stop_X, __end_X, __X_start,
 * __X_end) first, then fewer leading underscores, then file order.
 * A /proc/kallsyms dump is already in that order, and sorting it again
 * leaves it unchanged.
 *
 * Lookup of a kernel address, as kallsyms_lookup_size_offset(): only
 * inside [_stext, _end) (is_kernel() since v5.16; before that _end
 * itself was in), _text when there is no _stext, the lowest text symbol
 * when there is neither; the symbol is the first alias of the greatest
 * address <= addr, its size the distance to the next higher address in
 * the table, or to _end for the last one.  Without _end in the map the
 * range ends at the highest symbol, exclusive.
 *
 * Module symbols (kallsyms only) are looked up as the kernel's
 * find_kallsyms_symbol(): within the module whose symbols bracket the
 * address, the first symbol in file order with the greatest address <=
 * addr; its size runs to the module's next higher symbol.  A module's
 * end is not in kallsyms, so above its highest symbol nothing is found,
 * and that symbol itself has size 0 (unknown): kl_sym_format() then
 * prints no "/0xsize".
 *
 * The table is immutable once loaded: lookups only read, and any number
 * of threads may share one.  Memory: one string pool of NUL-terminated
 * names and one array of 24-byte records, both trimmed to size.
 */
#include "config.h"

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>

#include "kleak.h"
#include "kleak-int.h"

#define NAME_MAX_LEN	511		/* KSYM_NAME_LEN - 1 */
#define MOD_MAX_LEN	255		/* MODULE_NAME_LEN is 56: be lenient */
#define SYMS_MAX	(1u << 24)
#define MODS_MAX	4096u
#define POOL_MAX	((size_t)1 << 30)
#define CHUNK		65536
#define MAGIC_LEN	6
#define DIR_MAX		65536u

/* One symbol: 24 bytes. */
struct sym {
	uint64_t	 addr;
	uint32_t	 name;		/* offset in the pool */
	uint32_t	 order;		/* line order among kept symbols */
	uint16_t	 mod;		/* 0: kernel image, else module + 1 */
	char		 type;
};

/* A module: its slice of the sorted symbols. */
struct mod {
	uint32_t	 name;		/* offset in the pool */
	size_t		 first;
	size_t		 n;
	uint64_t	 lo;		/* lowest and highest address */
	uint64_t	 hi;
};

struct kl_symtab {
	struct sym		*sym;	/* kernel symbols first, by address */
	size_t			 n;
	size_t			 cap;
	size_t			 ncore;
	struct mod		*mod;
	size_t			 nmod;
	size_t			 modcap;
	char			*pool;
	size_t			 plen;
	size_t			 pcap;
	uint64_t		 lo;	/* kernel lookups in [lo, hi) */
	uint64_t		 hi;
	uint64_t		 text;
	int			 has_text;
	char			*release;
	struct kl_sym_stats	 st;
};

/* State of one load. */
struct parse {
	struct kl_symtab	*t;
	const char		*name;
	uint8_t			 line[KL_SYM_LINE_MAX];
	size_t			 len;
	int			 toolong;
	uint64_t		 good;		/* well-formed lines */
	uint64_t		 nonzero;	/* of those, address != 0 */
	size_t			 lastmod;	/* module index + 1 of the
						   line before, 0 none */
	struct kl_error		*err;
};

/* Where the bytes come from: a descriptor or memory. */
struct src {
	int		 fd;
	const uint8_t	*mem;
	size_t		 memlen;
	int		 memdone;
	uint8_t		*buf;		/* CHUNK bytes */
	size_t		 prelen;	/* bytes of buf not handed out yet */
	int		 errnum;
};

/* Names scripts/kallsyms leaves out of the kernel's table. */
static const char *const ign_name[] = {
	"kallsyms_addresses", "kallsyms_offsets", "kallsyms_relative_base",
	"kallsyms_num_syms", "kallsyms_names", "kallsyms_markers",
	"kallsyms_token_table", "kallsyms_token_index",
	"kallsyms_seqs_of_names", "_SDA_BASE_", "_SDA2_BASE_",
};
static const char *const ign_prefix[] = {
	"$", ".L", "__crc_", "__efistub_", "__kstrtab_", "__kstrtabns_",
	"__kvm_nvhe_$", "__kvm_nvhe_.L", "__AArch64ADRPThunk_",
	"__ARMV5PILongThunk_", "__ARMV7PILongThunk_",
	"__ThumbV7PILongThunk_", "__LA25Thunk_", "__microMIPS_LA25Thunk_",
	"__kcfi_typeid_",
};
static const char *const ign_suffix[] = {
	"_from_arm", "_from_thumb", "_veneer",
};
static const char *const ign_infix[] = {
	".long_branch.", ".plt_branch.",
};

/* Compression suffixes of map file names. */
static const char *const zsuffix[] = {
	".gz", ".xz", ".zst", ".zstd", ".bz2", ".lz4", ".Z",
};

/* Set err to code and a message, with a line number (0: none). */
static void
seterr(struct kl_error *err, enum kl_errcode code, int errnum,
    uint64_t line, const char *what, const char *name)
{
	if (err == NULL)
		return;
	kl_error_clear(err);
	if (line > 0)
		kl_error_set(err, code, errnum, "%s:%llu: %s", name,
		    (unsigned long long)line, what);
	else
		kl_error_set(err, code, errnum, "%s: %s", name, what);
	err->line = line;
}

/* Does b[0..n) equal the string s? */
static int
bytes_eq(const uint8_t *b, size_t n, const char *s)
{
	size_t k = strlen(s);

	return (n == k && memcmp(b, s, k) == 0);
}

/* Is the name b[0..n) one scripts/kallsyms ignores? */
static int
ignored_name(const uint8_t *b, size_t n)
{
	size_t i, k;

	for (i = 0; i < sizeof(ign_name) / sizeof(ign_name[0]); i++)
		if (bytes_eq(b, n, ign_name[i]))
			return (1);
	for (i = 0; i < sizeof(ign_prefix) / sizeof(ign_prefix[0]); i++) {
		k = strlen(ign_prefix[i]);
		if (kl_startswith(b, n, ign_prefix[i], k))
			return (1);
	}
	for (i = 0; i < sizeof(ign_suffix) / sizeof(ign_suffix[0]); i++) {
		k = strlen(ign_suffix[i]);
		if (n >= k && memcmp(b + n - k, ign_suffix[i], k) == 0)
			return (1);
	}
	for (i = 0; i < sizeof(ign_infix) / sizeof(ign_infix[0]); i++) {
		k = strlen(ign_infix[i]);
		if (kl_memmem(b, n, ign_infix[i], k) != NULL)
			return (1);
	}
	return (0);
}

/* Is the type c one of a symbol kallsyms keeps (at address addr)? */
static int
kept_type(uint8_t c, uint64_t addr)
{
	if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		return (0);
	switch (c) {
	case 'A':
	case 'a':
	case 'U':
	case 'N':
	case 'n':
		return (0);
	case 'W':
	case 'w':
	case 'V':
	case 'v':
		return (addr != 0);
	}
	return (1);
}

/* Is b[0..n) a valid symbol or module name? */
static int
name_ok(const uint8_t *b, size_t n, size_t max, int mod)
{
	size_t i;

	if (n == 0 || n > max)
		return (0);
	for (i = 0; i < n; i++) {
		if (b[i] <= 0x20 || b[i] >= 0x7f)
			return (0);
		if (mod && (b[i] == '[' || b[i] == ']'))
			return (0);
	}
	return (1);
}

/* Copy b[0..n) into the pool, NUL-terminated; offset in *off. */
static int
pool_add(struct kl_symtab *t, const uint8_t *b, size_t n, uint32_t *off)
{
	size_t need, cap;
	char *p;

	if (kl_add(t->plen, n + 1, &need) == -1 || need > POOL_MAX)
		return (-1);
	if (need > t->pcap) {
		cap = t->pcap < 65536 ? 65536 : t->pcap;
		while (cap < need)
			cap *= 2;
		if (cap > POOL_MAX)
			cap = POOL_MAX;
		if ((p = realloc(t->pool, cap)) == NULL)
			return (-1);
		t->pool = p;
		t->pcap = cap;
	}
	memcpy(t->pool + t->plen, b, n);
	t->pool[t->plen + n] = '\0';
	*off = (uint32_t)t->plen;
	t->plen = need;
	return (0);
}

/* Index + 1 of module b[0..n), added when new; 0 on failure. */
static size_t
mod_index(struct parse *p, const uint8_t *b, size_t n, enum kl_errcode *code)
{
	struct kl_symtab *t = p->t;
	struct mod *m;
	size_t i, cap;

	if (p->lastmod > 0 &&
	    bytes_eq(b, n, t->pool + t->mod[p->lastmod - 1].name))
		return (p->lastmod);
	for (i = 0; i < t->nmod; i++)
		if (bytes_eq(b, n, t->pool + t->mod[i].name))
			return (p->lastmod = i + 1);
	*code = KL_ELIMIT;
	if (t->nmod >= MODS_MAX)
		return (0);
	*code = KL_ENOMEM;
	if (t->nmod == t->modcap) {
		cap = t->modcap == 0 ? 64 : t->modcap * 2;
		if ((m = realloc(t->mod, cap * sizeof(*m))) == NULL)
			return (0);
		t->mod = m;
		t->modcap = cap;
	}
	m = &t->mod[t->nmod];
	memset(m, 0, sizeof(*m));
	if (pool_add(t, b, n, &m->name) == -1)
		return (0);
	t->nmod++;
	return (p->lastmod = t->nmod);
}

/* Take one line b[0..n) (no newline).  -1 on a fatal error. */
static int
parse_line(struct parse *p, const uint8_t *b, size_t n)
{
	struct kl_symtab *t = p->t;
	enum kl_errcode code = KL_ENOMEM;
	const uint8_t *nm, *md = NULL;
	size_t i = 0, nmlen, mdlen = 0, mod = 0, cap;
	uint64_t addr = 0;
	struct sym *s;
	uint8_t type;

	t->st.lines++;
	if (n > 0 && b[n - 1] == '\r')
		n--;
	if (n == 0)
		return (0);
	while (i < n && i < 16 && kl_isxdigit(b[i])) {
		addr = addr << 4 |
		    (uint64_t)(b[i] <= '9' ? b[i] - '0' : (b[i] | 0x20) - 'a' + 10);
		i++;
	}
	if (i == 0 || n - i < 4 || b[i] != ' ' || b[i + 2] != ' ')
		goto bad;
	type = b[i + 1];
	nm = b + i + 3;
	nmlen = n - i - 3;
	for (i = 0; i < nmlen && nm[i] != '\t'; i++)
		;
	if (i < nmlen) {
		md = nm + i + 1;
		mdlen = nmlen - i - 1;
		nmlen = i;
		if (mdlen < 3 || md[0] != '[' || md[mdlen - 1] != ']' ||
		    !name_ok(md + 1, mdlen - 2, MOD_MAX_LEN, 1))
			goto bad;
		md++;
		mdlen -= 2;
	}
	if (!name_ok(nm, nmlen, NAME_MAX_LEN, 0))
		goto bad;
	p->good++;
	if (addr != 0)
		p->nonzero++;
	if (!kept_type(type, addr) || ignored_name(nm, nmlen)) {
		t->st.ignored++;
		return (0);
	}
	if (md != NULL && (mod = mod_index(p, md, mdlen, &code)) == 0)
		goto fail;
	code = KL_ELIMIT;
	if (t->n >= SYMS_MAX)
		goto fail;
	code = KL_ENOMEM;
	if (t->n == t->cap) {
		cap = t->cap == 0 ? 4096 : t->cap * 2;
		if ((s = realloc(t->sym, cap * sizeof(*s))) == NULL)
			goto fail;
		t->sym = s;
		t->cap = cap;
	}
	s = &t->sym[t->n];
	if (pool_add(t, nm, nmlen, &s->name) == -1)
		goto fail;
	s->addr = addr;
	s->order = (uint32_t)t->n;
	s->mod = (uint16_t)mod;
	s->type = (char)type;
	t->n++;
	return (0);
bad:
	if (t->st.malformed++ == 0)
		t->st.first_bad = t->st.lines;
	return (0);
fail:
	seterr(p->err, code, code == KL_ENOMEM ? ENOMEM : 0, t->st.lines,
	    code == KL_ENOMEM ? "out of memory" :
	    "too many symbols or modules", p->name);
	return (-1);
}

/* Split b[0..n) into lines.  -1 on a fatal error. */
static int
parse_feed(struct parse *p, const uint8_t *b, size_t n)
{
	const uint8_t *nl;
	size_t k;

	while (n > 0) {
		nl = memchr(b, '\n', n);
		k = nl != NULL ? (size_t)(nl - b) : n;
		if (p->toolong) {
			/* the rest of a cut-off line: dropped */
		} else if (p->len == 0 && nl != NULL) {
			if (k > KL_SYM_LINE_MAX) {
				p->toolong = 1;
			} else if (parse_line(p, b, k) == -1)
				return (-1);
		} else if (k > KL_SYM_LINE_MAX - p->len) {
			p->toolong = 1;
			p->len = 0;
		} else {
			memcpy(p->line + p->len, b, k);
			p->len += k;
			if (nl != NULL) {
				if (parse_line(p, p->line, p->len) == -1)
					return (-1);
				p->len = 0;
			}
		}
		if (nl != NULL && p->toolong) {
			p->toolong = 0;
			p->t->st.lines++;
			if (p->t->st.malformed++ == 0)
				p->t->st.first_bad = p->t->st.lines;
		}
		if (nl == NULL)
			break;
		b += k + 1;
		n -= k + 1;
	}
	return (0);
}

/* Does the name look like a linker-script PROVIDE() symbol? */
static int
provide_like(const char *s)
{
	size_t n = strlen(s);

	if (n < 8 || s[0] != '_' || s[1] != '_')
		return (0);
	return (memcmp(s + 2, "start_", 6) == 0 ||
	    memcmp(s + 2, "stop_", 5) == 0 || memcmp(s + 2, "end_", 4) == 0 ||
	    memcmp(s + n - 6, "_start", 6) == 0 ||
	    memcmp(s + n - 4, "_end", 4) == 0);
}

/* Order of symbols: kernel first, by address, kallsyms' alias order. */
static int
sym_cmp(const struct sym *a, const struct sym *b, const char *pool)
{
	const char *na, *nb;
	int wa, wb;

	if (a->mod != b->mod)
		return (a->mod < b->mod ? -1 : 1);
	if (a->addr != b->addr)
		return (a->addr < b->addr ? -1 : 1);
	if (a->mod == 0) {
		wa = a->type == 'w' || a->type == 'W';
		wb = b->type == 'w' || b->type == 'W';
		if (wa != wb)
			return (wa - wb);
		na = pool + a->name;
		nb = pool + b->name;
		wa = provide_like(na);
		wb = provide_like(nb);
		if (wa != wb)
			return (wa - wb);
		wa = (int)strspn(na, "_");
		wb = (int)strspn(nb, "_");
		if (wa != wb)
			return (wa - wb);
	}
	return (a->order < b->order ? -1 : a->order > b->order);
}

/* Sort with sym_cmp: a stable merge sort (qsort takes no pool). */
static int
sym_sort(struct sym *s, size_t n, const char *pool)
{
	struct sym *tmp, *from, *to, *x;
	size_t w, i, l, m, r, a, b, k;

	if (n < 2)
		return (0);
	if ((tmp = malloc(n * sizeof(*tmp))) == NULL)
		return (-1);
	/* insertion-sort runs of 16, then merge */
	for (i = 0; i < n; i += 16) {
		r = i + 16 < n ? i + 16 : n;
		for (a = i + 1; a < r; a++) {
			struct sym v = s[a];

			for (b = a; b > i && sym_cmp(&s[b - 1], &v, pool) > 0; b--)
				s[b] = s[b - 1];
			s[b] = v;
		}
	}
	from = s;
	to = tmp;
	for (w = 16; w < n; w *= 2) {
		for (l = 0; l < n; l += 2 * w) {
			m = l + w < n ? l + w : n;
			r = l + 2 * w < n ? l + 2 * w : n;
			a = l;
			b = m;
			for (k = l; k < r; k++) {
				if (a < m && (b >= r || sym_cmp(&from[a],
				    &from[b], pool) <= 0))
					to[k] = from[a++];
				else
					to[k] = from[b++];
			}
		}
		x = from;
		from = to;
		to = x;
	}
	if (from != s)
		memcpy(s, from, n * sizeof(*s));
	free(tmp);
	return (0);
}

/* First index in s[lo..hi) whose address is > addr. */
static size_t
upper(const struct sym *s, size_t lo, size_t hi, uint64_t addr)
{
	size_t mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* First index in s[lo..hi) whose address is >= addr. */
static size_t
lower(const struct sym *s, size_t lo, size_t hi, uint64_t addr)
{
	size_t mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* Find the kernel symbol called name; its index in *ip. */
static int
core_find(const struct kl_symtab *t, const char *name, size_t *ip)
{
	size_t i;

	for (i = 0; i < t->ncore; i++)
		if (strcmp(t->pool + t->sym[i].name, name) == 0) {
			*ip = i;
			return (1);
		}
	return (0);
}

/* Sort, drop per-CPU offsets, find the ranges.  -1 on error. */
static int
finish(struct parse *p)
{
	struct kl_symtab *t = p->t;
	uint64_t pcs, pce, lo = 0;
	size_t i, k, j;
	struct mod *m;
	void *x;
	int haslo = 0;

	if (p->good > 0 && p->nonzero == 0) {
		seterr(p->err, KL_EFORMAT, 0, 0, "every address is zero: "
		    "kallsyms read without privilege (kptr_restrict); "
		    "read /proc/kallsyms as root", p->name);
		return (-1);
	}
	if (t->st.malformed > p->good) {
		seterr(p->err, KL_EFORMAT, 0, t->st.first_bad,
		    "not a symbol map (malformed lines outnumber symbols)",
		    p->name);
		return (-1);
	}
	if (t->n == 0) {
		seterr(p->err, KL_EFORMAT, 0, 0, "no symbols", p->name);
		return (-1);
	}
	if (sym_sort(t->sym, t->n, t->pool) == -1)
		goto nomem;
	for (t->ncore = 0; t->ncore < t->n && t->sym[t->ncore].mod == 0;)
		t->ncore++;

	/* the kernel text start: _stext, _text, or the lowest text */
	if (core_find(t, "_stext", &i) || core_find(t, "_text", &i)) {
		lo = t->sym[i].addr;
		haslo = 1;
	} else
		for (i = 0; i < t->ncore && !haslo; i++)
			if (t->sym[i].type == 'T' || t->sym[i].type == 't') {
				lo = t->sym[i].addr;
				haslo = 1;
			}
	if (!haslo && t->ncore > 0)
		lo = t->sym[0].addr;

	/* x86_64 per-CPU offsets (System.map): not addresses */
	if (core_find(t, "__per_cpu_start", &i) &&
	    core_find(t, "__per_cpu_end", &k) &&
	    (pcs = t->sym[i].addr) < lo && (pce = t->sym[k].addr) >= pcs &&
	    pce < lo) {
		for (i = j = 0; i < t->n; i++)
			if (t->sym[i].mod != 0 || t->sym[i].addr < pcs ||
			    t->sym[i].addr > pce)
				t->sym[j++] = t->sym[i];
		t->st.percpu = t->n - j;
		t->ncore -= t->n - j;
		t->n = j;
	}
	t->lo = lo;
	if (core_find(t, "_end", &i))
		t->hi = t->sym[i].addr;
	else if (t->ncore > 0)
		t->hi = t->sym[t->ncore - 1].addr;
	if (t->hi < t->lo)
		t->hi = t->lo;
	if (core_find(t, "_text", &i) || core_find(t, "_stext", &i)) {
		t->text = t->sym[i].addr;
		t->has_text = 1;
	}

	/* modules: their slices, in the order of their first line */
	for (i = t->ncore; i < t->n; i = k) {
		m = &t->mod[t->sym[i].mod - 1];
		for (k = i; k < t->n && t->sym[k].mod == t->sym[i].mod; k++)
			;
		m->first = i;
		m->n = k - i;
		m->lo = t->sym[i].addr;
		m->hi = t->sym[k - 1].addr;
	}

	/* trim */
	if (t->n < t->cap && (x = realloc(t->sym, t->n * sizeof(*t->sym)))) {
		t->sym = x;
		t->cap = t->n;
	}
	if (t->plen < t->pcap && (x = realloc(t->pool, t->plen)) != NULL) {
		t->pool = x;
		t->pcap = t->plen;
	}
	t->st.symbols = t->n;
	t->st.modules = t->nmod;
	return (0);
nomem:
	seterr(p->err, KL_ENOMEM, ENOMEM, 0, "out of memory", p->name);
	return (-1);
}

/* libarchive read callback: the peeked bytes, then the source. */
static la_ssize_t
src_read(struct archive *a, void *arg, const void **out)
{
	struct src *s = arg;
	ssize_t r;
	size_t n;

	if (s->mem != NULL) {
		n = s->memdone ? 0 : s->memlen;
		s->memdone = 1;
		*out = s->mem;
		return ((la_ssize_t)n);
	}
	if (s->prelen > 0) {
		n = s->prelen;
		s->prelen = 0;
		*out = s->buf;
		return ((la_ssize_t)n);
	}
	do
		r = read(s->fd, s->buf, CHUNK);
	while (r == -1 && errno == EINTR);
	if (r == -1) {
		s->errnum = errno;
		archive_set_error(a, errno, "read error");
		return (-1);
	}
	*out = s->buf;
	return ((la_ssize_t)r);
}

/* The libarchive filter of a stream starting with b[0..n), or -1. */
static int
magic(const uint8_t *b, size_t n, const char **what)
{
	static const uint8_t xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return (*what = "gzip", ARCHIVE_FILTER_GZIP);
	if (n >= 2 && b[0] == 0x1f && b[1] == 0x9d)
		return (*what = "compress", ARCHIVE_FILTER_COMPRESS);
	if (n >= 3 && b[0] == 'B' && b[1] == 'Z' && b[2] == 'h')
		return (*what = "bzip2", ARCHIVE_FILTER_BZIP2);
	if (n >= 6 && memcmp(b, xz, 6) == 0)
		return (*what = "xz", ARCHIVE_FILTER_XZ);
	if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f &&
	    b[3] == 0xfd)
		return (*what = "zstd", ARCHIVE_FILTER_ZSTD);
	if (n >= 4 && b[0] == 0x04 && b[1] == 0x22 && b[2] == 0x4d &&
	    b[3] == 0x18)
		return (*what = "lz4", ARCHIVE_FILTER_LZ4);
	return (-1);
}

/* Decompress the source with filter code into the parser. */
static int
read_filtered(struct parse *p, struct src *s, int code, const char *what)
{
	struct archive *a;
	struct archive_entry *e;
	la_ssize_t r;
	const char *why;
	char msg[200];
	uint8_t *out;
	int rc = -1, ec;

	if ((out = malloc(CHUNK)) == NULL || (a = archive_read_new()) == NULL) {
		free(out);
		seterr(p->err, KL_ENOMEM, ENOMEM, 0, "out of memory", p->name);
		return (-1);
	}
	if (code == ARCHIVE_FILTER_COMPRESS)
		ec = archive_read_support_filter_compress(a);
	else
		ec = archive_read_append_filter(a, code);
	if (ec == ARCHIVE_OK)
		ec = archive_read_support_format_raw(a);
	if (ec == ARCHIVE_OK &&
	    ((ec = archive_read_open(a, s, NULL, src_read, NULL)) !=
	    ARCHIVE_OK || (ec = archive_read_next_header(a, &e)) !=
	    ARCHIVE_OK) && s->errnum == 0) {
		/* the raw format found not one byte to bid on */
		snprintf(msg, sizeof(msg), "%s: no data: damaged, truncated or "
		    "empty stream", what);
		seterr(p->err, KL_EFORMAT, 0, 0, msg, p->name);
		goto out;
	}
	if (ec == ARCHIVE_OK) {
		while ((r = archive_read_data(a, out, CHUNK)) > 0)
			if (parse_feed(p, out, (size_t)r) == -1)
				goto out;
		if (r == 0)
			rc = 0;
	}
	if (rc == -1) {
		why = archive_error_string(a);
		snprintf(msg, sizeof(msg), "%s: %s", what,
		    why != NULL ? why : "cannot decompress");
		seterr(p->err, s->errnum != 0 ? KL_EIO : KL_EFORMAT,
		    s->errnum, 0, msg, p->name);
	}
out:
	archive_read_free(a);
	free(out);
	return (rc);
}

/* Read everything from s into the parser.  -1 on error. */
static int
read_all(struct parse *p, struct src *s)
{
	const char *what = NULL;
	ssize_t r;
	size_t n = 0;
	int code;

	if (s->mem != NULL) {
		code = magic(s->mem, s->memlen, &what);
		if (code == -1)
			return (parse_feed(p, s->mem, s->memlen));
		return (read_filtered(p, s, code, what));
	}
	while (n < MAGIC_LEN) {
		r = read(s->fd, s->buf + n, CHUNK - n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			seterr(p->err, KL_EIO, errno, 0, "read error", p->name);
			return (-1);
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if ((code = magic(s->buf, n, &what)) != -1) {
		s->prelen = n;
		return (read_filtered(p, s, code, what));
	}
	for (;;) {
		if (parse_feed(p, s->buf, n) == -1)
			return (-1);
		do
			r = read(s->fd, s->buf, CHUNK);
		while (r == -1 && errno == EINTR);
		if (r == -1) {
			seterr(p->err, KL_EIO, errno, 0, "read error", p->name);
			return (-1);
		}
		if (r == 0)
			return (0);
		n = (size_t)r;
	}
}

/* The release in a map's file name into *out (malloc'd, or NULL). */
static int
release_of(const char *path, char **out)
{
	static const char *const pfx[] = { "System.map-", "kallsyms-" };
	const char *b, *sl;
	size_t i, n, k;
	char *r;

	*out = NULL;
	if (path == NULL)
		return (0);
	b = (sl = strrchr(path, '/')) != NULL ? sl + 1 : path;
	for (i = 0; i < 2; i++)
		if (strncmp(b, pfx[i], strlen(pfx[i])) == 0)
			break;
	if (i == 2)
		return (0);
	b += strlen(pfx[i]);
	n = strlen(b);
	for (i = 0; i < sizeof(zsuffix) / sizeof(zsuffix[0]); i++) {
		k = strlen(zsuffix[i]);
		if (n > k && strcmp(b + n - k, zsuffix[i]) == 0) {
			n -= k;
			break;
		}
	}
	if (n == 0 || n > 200)
		return (0);
	for (i = 0; i < n; i++)
		if (!kl_isalnum((uint8_t)b[i]) && strchr("._+~-", b[i]) == NULL)
			return (0);
	if ((r = malloc(n + 1)) == NULL)
		return (-1);
	memcpy(r, b, n);
	r[n] = '\0';
	*out = r;
	return (0);
}

/* Load from a descriptor or memory. */
static struct kl_symtab *
load(struct src *s, const char *name, struct kl_error *err)
{
	struct kl_symtab *t;
	struct parse *p;
	const char *dn = name != NULL ? name : "(map)";

	kl_error_clear(err);
	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (p = calloc(1, sizeof(*p))) == NULL) {
		free(t);
		seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dn);
		return (NULL);
	}
	p->t = t;
	p->name = dn;
	p->err = err;
	if (s->mem == NULL && (s->buf = malloc(CHUNK)) == NULL) {
		seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dn);
		goto fail;
	}
	if (read_all(p, s) == -1)
		goto fail;
	/* a last line without a newline */
	if (p->toolong) {
		t->st.lines++;
		if (t->st.malformed++ == 0)
			t->st.first_bad = t->st.lines;
	} else if (p->len > 0 && parse_line(p, p->line, p->len) == -1)
		goto fail;
	if (finish(p) == -1)
		goto fail;
	if (release_of(name, &t->release) == -1) {
		seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dn);
		goto fail;
	}
	free(s->buf);
	s->buf = NULL;
	free(p);
	return (t);
fail:
	free(s->buf);
	s->buf = NULL;
	free(p);
	kl_sym_free(t);
	return (NULL);
}

/* Load a symbol map from the descriptor fd (not closed), named name. */
struct kl_symtab *
kl_sym_load_fd(int fd, const char *name, struct kl_error *err)
{
	struct src s;

	memset(&s, 0, sizeof(s));
	s.fd = fd;
	return (load(&s, name, err));
}

/* Load a symbol map from buf[0..len), named name. */
struct kl_symtab *
kl_sym_load_mem(const void *buf, size_t len, const char *name,
    struct kl_error *err)
{
	struct src s;

	memset(&s, 0, sizeof(s));
	s.fd = -1;
	s.mem = buf != NULL ? buf : (const uint8_t *)"";
	s.memlen = buf != NULL ? len : 0;
	return (load(&s, name, err));
}

/* Load a symbol map from the file at path. */
struct kl_symtab *
kl_sym_load(const char *path, struct kl_error *err)
{
	struct kl_symtab *t;
	int fd;

	if (path == NULL) {
		seterr(err, KL_EINVAL, EINVAL, 0, "no path", "(map)");
		return (NULL);
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		seterr(err, KL_EIO, errno, 0, strerror(errno), path);
		return (NULL);
	}
	t = kl_sym_load_fd(fd, path, err);
	close(fd);
	return (t);
}

/* Free a symbol table. */
void
kl_sym_free(struct kl_symtab *t)
{
	if (t == NULL)
		return;
	free(t->sym);
	free(t->mod);
	free(t->pool);
	free(t->release);
	free(t);
}

/* The kernel release from the map's file name, or NULL. */
const char *
kl_sym_release(const struct kl_symtab *t)
{
	return (t->release);
}

/* Number of symbols kept. */
size_t
kl_sym_count(const struct kl_symtab *t)
{
	return (t->n);
}

/* Counters of the load. */
const struct kl_sym_stats *
kl_sym_stats(const struct kl_symtab *t)
{
	return (&t->st);
}

/* Fill hit from symbol index i, offset and size. */
static void
hit_fill(const struct kl_symtab *t, size_t i, uint64_t addr, uint64_t size,
    struct kl_sym_hit *h)
{
	const struct sym *s = &t->sym[i];

	h->name = t->pool + s->name;
	h->module = s->mod != 0 ? t->pool + t->mod[s->mod - 1].name : NULL;
	h->addr = s->addr;
	h->offset = addr - s->addr;
	h->size = size;
	h->type = s->type;
}

/* Look addr up among module symbols. */
static int
mod_lookup(const struct kl_symtab *t, uint64_t addr, struct kl_sym_hit *h)
{
	const struct mod *m;
	size_t i, k, j, best = SIZE_MAX;
	uint64_t size = 0;

	for (i = 0; i < t->nmod; i++) {
		m = &t->mod[i];
		if (m->n == 0 || addr < m->lo || addr > m->hi)
			continue;
		k = upper(t->sym, m->first, m->first + m->n, addr);
		j = lower(t->sym, m->first, k, t->sym[k - 1].addr);
		if (best != SIZE_MAX && t->sym[best].addr >= t->sym[j].addr)
			continue;
		best = j;
		size = k < m->first + m->n ? t->sym[k].addr - t->sym[j].addr :
		    0;
	}
	if (best == SIZE_MAX)
		return (0);
	hit_fill(t, best, addr, size, h);
	return (1);
}

/* Find the symbol at link (or map) address addr: 1 found, 0 not. */
int
kl_sym_lookup(const struct kl_symtab *t, uint64_t addr, struct kl_sym_hit *h)
{
	size_t k, j;
	uint64_t end;

	memset(h, 0, sizeof(*h));
	if (t->ncore == 0 || addr < t->lo || addr >= t->hi)
		return (mod_lookup(t, addr, h));
	k = upper(t->sym, 0, t->ncore, addr);
	if (k == 0)
		return (0);
	j = lower(t->sym, 0, k, t->sym[k - 1].addr);
	end = k < t->ncore ? t->sym[k].addr : t->hi;
	hit_fill(t, j, addr, end - t->sym[j].addr, h);
	return (1);
}

/*
 * Look addr up as %pB does for call-trace entries (sprint_backtrace):
 * the symbol of addr - 1, so that a call's return address at the end
 * of a function still names that function; the offset is from addr.
 */
int
kl_sym_lookup_bt(const struct kl_symtab *t, uint64_t addr,
    struct kl_sym_hit *h)
{
	if (addr == 0 || !kl_sym_lookup(t, addr - 1, h)) {
		memset(h, 0, sizeof(*h));
		return (0);
	}
	h->offset++;
	return (1);
}

/* Append "0x" and v in lower-case hex at p; returns the new end. */
static char *
put_hex(char *p, uint64_t v)
{
	char d[16];
	int n = 0;

	*p++ = '0';
	*p++ = 'x';
	do {
		d[n++] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v != 0);
	while (n > 0)
		*p++ = d[--n];
	return (p);
}

/*
 * Print a hit as %pS does: "name+0xoff/0xsize", " [module]" after a
 * module symbol (not after BPF programs: the kernel drops "bpf"), no
 * "/0xsize" when the size is unknown.  snprintf-like: the length it
 * needs, the text cut to size - 1 bytes and NUL-terminated.
 */
int
kl_sym_format(const struct kl_sym_hit *h, char *buf, size_t size)
{
	char tmp[NAME_MAX_LEN + MOD_MAX_LEN + 64], *p = tmp;
	size_t n, k;

	n = strlen(h->name);
	if (n > NAME_MAX_LEN)
		n = NAME_MAX_LEN;
	memcpy(p, h->name, n);
	p += n;
	*p++ = '+';
	p = put_hex(p, h->offset);
	if (h->size != 0) {
		*p++ = '/';
		p = put_hex(p, h->size);
	}
	if (h->module != NULL && strcmp(h->module, "bpf") != 0) {
		n = strlen(h->module);
		if (n > MOD_MAX_LEN)
			n = MOD_MAX_LEN;
		*p++ = ' ';
		*p++ = '[';
		memcpy(p, h->module, n);
		p += n;
		*p++ = ']';
	}
	n = (size_t)(p - tmp);
	if (size > 0) {
		k = n < size - 1 ? n : size - 1;
		memcpy(buf, tmp, k);
		buf[k] = '\0';
	}
	return ((int)n);
}

/* Address of the kernel symbol called name (first by address). */
int
kl_sym_find(const struct kl_symtab *t, const char *name, uint64_t *addr)
{
	size_t i;

	if (!core_find(t, name, &i))
		return (0);
	*addr = t->sym[i].addr;
	return (1);
}

/* The map's _text (else _stext) address, 0 when it has neither. */
uint64_t
kl_sym_text(const struct kl_symtab *t)
{
	return (t->has_text ? t->text : 0);
}

/*
 * A directory of maps, loaded lazily.  Why lazy: a directory may hold
 * maps of many kernels (5 MB and some 50 ms each), while a log names
 * one or two releases.  Why no lock: the library keeps no threading
 * policy; kl_symdir_get() changes the index (it loads and caches), so
 * callers that use one kl_symdir from several threads serialise their
 * calls to it (the program resolves releases before it starts workers).
 * The tables it returns are immutable and may be shared freely.
 */
struct dent {
	char			*release;
	char			*path;
	int			 rank;		/* 0 System.map, 1 compressed,
						   2 kallsyms */
	int			 tried;
	struct kl_symtab	*tab;
	struct kl_error		 err;
};

struct kl_symdir {
	struct dent	*e;
	size_t		 n;
};

/* Rank of a map file name; -1 when it is not one. */
static int
name_rank(const char *b)
{
	size_t n = strlen(b), i, k;
	int z = 0;

	for (i = 0; i < sizeof(zsuffix) / sizeof(zsuffix[0]); i++) {
		k = strlen(zsuffix[i]);
		if (n > k && strcmp(b + n - k, zsuffix[i]) == 0)
			z = 1;
	}
	if (strncmp(b, "System.map-", 11) == 0)
		return (z);
	if (strncmp(b, "kallsyms-", 9) == 0)
		return (2);
	return (-1);
}

/* Order of entries: by release. */
static int
dent_cmp(const void *a, const void *b)
{
	const struct dent *x = a, *y = b;

	return (strcmp(x->release, y->release));
}

/* Index the maps in dir: System.map-RELEASE[.z], kallsyms-RELEASE[.z]. */
struct kl_symdir *
kl_symdir_open(const char *dir, struct kl_error *err)
{
	struct kl_symdir *d;
	struct dirent *de;
	struct dent *e;
	char *rel, *path;
	size_t i, cap = 0, n;
	DIR *dp;
	int rank;

	kl_error_clear(err);
	if ((dp = opendir(dir)) == NULL) {
		seterr(err, KL_EIO, errno, 0, strerror(errno), dir);
		return (NULL);
	}
	if ((d = calloc(1, sizeof(*d))) == NULL)
		goto nomem;
	while ((de = readdir(dp)) != NULL) {
		if ((rank = name_rank(de->d_name)) == -1)
			continue;
		if (release_of(de->d_name, &rel) == -1)
			goto nomem;
		if (rel == NULL)
			continue;
		for (i = 0; i < d->n && strcmp(d->e[i].release, rel) != 0; i++)
			;
		if (i < d->n && d->e[i].rank <= rank) {
			free(rel);
			continue;
		}
		n = strlen(dir) + strlen(de->d_name) + 2;
		if ((path = malloc(n)) == NULL) {
			free(rel);
			goto nomem;
		}
		snprintf(path, n, "%s/%s", dir, de->d_name);
		if (i < d->n) {
			free(d->e[i].release);
			free(d->e[i].path);
		} else {
			if (d->n >= DIR_MAX) {
				free(rel);
				free(path);
				closedir(dp);
				kl_symdir_free(d);
				seterr(err, KL_ELIMIT, 0, 0, "too many maps",
				    dir);
				return (NULL);
			}
			if (d->n == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				if ((e = realloc(d->e, cap * sizeof(*e))) ==
				    NULL) {
					free(rel);
					free(path);
					goto nomem;
				}
				d->e = e;
			}
			i = d->n++;
		}
		memset(&d->e[i], 0, sizeof(d->e[i]));
		d->e[i].release = rel;
		d->e[i].path = path;
		d->e[i].rank = rank;
	}
	closedir(dp);
	if (d->n > 1)
		qsort(d->e, d->n, sizeof(*d->e), dent_cmp);
	return (d);
nomem:
	closedir(dp);
	kl_symdir_free(d);
	seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dir);
	return (NULL);
}

/* Number of releases in the index. */
size_t
kl_symdir_count(const struct kl_symdir *d)
{
	return (d->n);
}

/* The i-th release, in strcmp order, or NULL. */
const char *
kl_symdir_release(const struct kl_symdir *d, size_t i)
{
	return (i < d->n ? d->e[i].release : NULL);
}

/* The map of release, loaded on first use (see above on threads). */
const struct kl_symtab *
kl_symdir_get(struct kl_symdir *d, const char *release, struct kl_error *err)
{
	struct dent key, *e;

	kl_error_clear(err);
	key.release = (char *)(uintptr_t)release;
	e = d->n > 0 ? bsearch(&key, d->e, d->n, sizeof(*d->e), dent_cmp) :
	    NULL;
	if (e == NULL) {
		seterr(err, KL_EIO, ENOENT, 0, "no symbol map for this release",
		    release);
		return (NULL);
	}
	if (!e->tried) {
		e->tried = 1;
		e->tab = kl_sym_load(e->path, &e->err);
	}
	if (e->tab == NULL && err != NULL)
		*err = e->err;
	return (e->tab);
}

/* The file of release's map in the directory, or NULL. */
const char *
kl_symdir_path(const struct kl_symdir *d, const char *release)
{
	struct dent key, *e;

	key.release = (char *)(uintptr_t)release;
	e = d->n > 0 ? bsearch(&key, d->e, d->n, sizeof(*d->e), dent_cmp) :
	    NULL;
	return (e != NULL ? e->path : NULL);
}

/* Free the index and every table it loaded. */
void
kl_symdir_free(struct kl_symdir *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->e[i].release);
		free(d->e[i].path);
		kl_sym_free(d->e[i].tab);
	}
	free(d->e);
	free(d);
}
