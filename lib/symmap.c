/*
 * symmap.c - reads a symbol map (System.map, /proc/kallsyms, plain or
 * compressed) into a symbol table: which lines are symbols, which
 * symbols the kernel keeps, and their order.
 *
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
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>

#include "kleak.h"
#include "kleak-int.h"
#include "symtab.h"

#define SYMS_MAX	(1u << 24)
#define MODS_MAX	4096u
#define POOL_MAX	((size_t)1 << 30)
#define CHUNK		65536
#define MAGIC_LEN	6

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

/* Set err to code and a message, with a line number (0: none). */
void
kl_sym_seterr(struct kl_error *err, enum kl_errcode code, int errnum,
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
		    (uint64_t)(b[i] <= '9' ? b[i] - '0' :
		    (b[i] | 0x20) - 'a' + 10);
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
	kl_sym_seterr(p->err, code, code == KL_ENOMEM ? ENOMEM : 0, t->st.lines,
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

			for (b = a; b > i && sym_cmp(&s[b - 1], &v, pool) > 0;
			    b--)
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

/* Order of name index entries a and b: by name, then by index. */
static int
name_cmp(const struct kl_symtab *t, uint32_t a, uint32_t b)
{
	int c = strcmp(t->pool + t->sym[a].name, t->pool + t->sym[b].name);

	if (c != 0)
		return (c);
	return (a < b ? -1 : a > b);
}

/*
 * The name index of the kernel symbols (kl_sym_core_find()): a merge
 * sort of their indices by name, ties by address order.  A kallsyms of
 * 120,000 lines is paired with the map line by line (kaslr-line.c): a
 * walk per lookup made that quadratic (44 s), the index 0.1 s.
 */
static int
name_index(struct kl_symtab *t)
{
	uint32_t *a, *b, *x;
	size_t n = t->ncore, w, l, m, r, i, j, k;

	if (n == 0 || n > UINT32_MAX)
		return (0);
	if ((a = malloc(n * sizeof(*a))) == NULL)
		return (-1);
	if ((b = malloc(n * sizeof(*b))) == NULL) {
		free(a);
		return (-1);
	}
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (w = 1; w < n; w *= 2) {
		for (l = 0; l < n; l += 2 * w) {
			m = l + w < n ? l + w : n;
			r = l + 2 * w < n ? l + 2 * w : n;
			for (i = l, j = m, k = l; k < r; k++)
				b[k] = i < m && (j >= r ||
				    name_cmp(t, a[i], a[j]) <= 0) ? a[i++] :
				    a[j++];
		}
		x = a;
		a = b;
		b = x;
	}
	free(b);
	t->byname = a;
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
		kl_sym_seterr(p->err, KL_EFORMAT, 0, 0, "every address is "
		    "zero: kallsyms read without privilege (kptr_restrict); "
		    "read /proc/kallsyms as root", p->name);
		return (-1);
	}
	if (t->st.malformed > p->good) {
		kl_sym_seterr(p->err, KL_EFORMAT, 0, t->st.first_bad,
		    "not a symbol map (malformed lines outnumber symbols)",
		    p->name);
		return (-1);
	}
	if (t->n == 0) {
		kl_sym_seterr(p->err, KL_EFORMAT, 0, 0, "no symbols", p->name);
		return (-1);
	}
	if (sym_sort(t->sym, t->n, t->pool) == -1)
		goto nomem;
	for (t->ncore = 0; t->ncore < t->n && t->sym[t->ncore].mod == 0;)
		t->ncore++;

	/* the kernel text start: _stext, _text, or the lowest text */
	if (kl_sym_core_find(t, "_stext", &i) ||
	    kl_sym_core_find(t, "_text", &i)) {
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
	if (kl_sym_core_find(t, "__per_cpu_start", &i) &&
	    kl_sym_core_find(t, "__per_cpu_end", &k) &&
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
	if (kl_sym_core_find(t, "_end", &i))
		t->hi = t->sym[i].addr;
	else if (t->ncore > 0)
		t->hi = t->sym[t->ncore - 1].addr;
	if (t->hi < t->lo)
		t->hi = t->lo;
	if (kl_sym_core_find(t, "_text", &i) ||
	    kl_sym_core_find(t, "_stext", &i)) {
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
	if (name_index(t) == -1)
		goto nomem;
	t->st.symbols = t->n;
	t->st.modules = t->nmod;
	return (0);
nomem:
	kl_sym_seterr(p->err, KL_ENOMEM, ENOMEM, 0, "out of memory", p->name);
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
		kl_sym_seterr(p->err, KL_ENOMEM, ENOMEM, 0, "out of memory",
		    p->name);
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
		kl_sym_seterr(p->err, KL_EFORMAT, 0, 0, msg, p->name);
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
		kl_sym_seterr(p->err, s->errnum != 0 ? KL_EIO : KL_EFORMAT,
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
			kl_sym_seterr(p->err, KL_EIO, errno, 0, "read error",
			    p->name);
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
			kl_sym_seterr(p->err, KL_EIO, errno, 0, "read error",
			    p->name);
			return (-1);
		}
		if (r == 0)
			return (0);
		n = (size_t)r;
	}
}

/* The release in a map's file name into *out (malloc'd, or NULL). */
int
kl_sym_release_of(const char *path, char **out)
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
		kl_sym_seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dn);
		return (NULL);
	}
	p->t = t;
	p->name = dn;
	p->err = err;
	if (s->mem == NULL && (s->buf = malloc(CHUNK)) == NULL) {
		kl_sym_seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dn);
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
	if (kl_sym_release_of(name, &t->release) == -1) {
		kl_sym_seterr(err, KL_ENOMEM, ENOMEM, 0, "out of memory", dn);
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
		kl_sym_seterr(err, KL_EINVAL, EINVAL, 0, "no path", "(map)");
		return (NULL);
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		kl_sym_seterr(err, KL_EIO, errno, 0, strerror(errno), path);
		return (NULL);
	}
	t = kl_sym_load_fd(fd, path, err);
	close(fd);
	return (t);
}

