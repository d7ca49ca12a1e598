/*
 * symbols.c - the symbol table once loaded (symmap.c reads it): lookups
 * that print what the kernel's %pS prints, and its counters.
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

#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "symtab.h"

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

/*
 * Find the kernel symbol called name, the first by address of those so
 * called; its index in *ip.  By the name index once the table is built
 * (a binary search), by a walk while it is being built.
 */
int
kl_sym_core_find(const struct kl_symtab *t, const char *name, size_t *ip)
{
	size_t i, lo = 0, hi = t->ncore, mid;

	if (t->byname == NULL) {
		for (i = 0; i < t->ncore; i++)
			if (strcmp(t->pool + t->sym[i].name, name) == 0) {
				*ip = i;
				return (1);
			}
		return (0);
	}
	/* The first entry whose name is >= name. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(t->pool + t->sym[t->byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->ncore ||
	    strcmp(t->pool + t->sym[t->byname[lo]].name, name) != 0)
		return (0);
	*ip = t->byname[lo];
	return (1);
}

/* Free a symbol table. */
void
kl_sym_free(struct kl_symtab *t)
{
	if (t == NULL)
		return;
	free(t->sym);
	free(t->byname);
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

	if (!kl_sym_core_find(t, name, &i))
		return (0);
	*addr = t->sym[i].addr;
	return (1);
}

/*
 * The kernel image of the map, [_text, _end) at link time: its _text
 * (else _stext, else its lowest text symbol) and _end (else just past
 * its highest kernel symbol: a kallsyms has no _end, and its last symbol
 * is in the image).  Returns 1, or 0 for a map of modules only.
 */
int
kl_sym_image(const struct kl_symtab *t, uint64_t *lo, uint64_t *hi)
{
	size_t i;

	if (t->ncore == 0)
		return (0);
	*lo = t->has_text ? t->text : t->lo;
	*hi = t->hi;
	if (!kl_sym_core_find(t, "_end", &i) && *hi < UINT64_MAX)
		(*hi)++;
	return (*hi > *lo);
}

/* The map's _text (else _stext) address, 0 when it has neither. */
uint64_t
kl_sym_text(const struct kl_symtab *t)
{
	return (t->has_text ? t->text : 0);
}

