/*
 * verdict.c - symbol maps, the KASLR evidence of each boot segment, the
 * symbols of text findings and the per-boot report.
 *
 * The scanner shows each framed line (kl_sink.line) and the end of each
 * boot segment (kl_sink.boot).  Lines feed lib/kaslr.c and name the
 * release ("Linux version 6.1.0-18-amd64 ..."), which picks the map of
 * the segment: a --system-map whose file name carries that release, a
 * map of --system-map-dir, else the one --system-map given without a
 * release.  A "Kernel Offset: 0x... from 0x..." line becomes a finding
 * of region layout.  Text findings get "sym+0xoff/0xsize" once the slide
 * is known; with a map and no slide yet, findings wait (bounded) until
 * the segment ends or the slide shows up, so that a panic's Kernel
 * Offset line at the end still symbolises the frames above it.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleakscan.h"

#define WAIT_MAX	4096		/* findings waiting for a slide */
#define HITS_MAX	8		/* leak-source hits kept per line */
#define RING		64		/* lines of hits kept, a bit each */
_Static_assert(RING <= 64, "kindmask and virtmask: a bit a ring slot");

/* Where a leak-source entry matched: unit offsets [lo, hi). */
struct span {
	uint64_t			 lo;
	uint64_t			 hi;
	uint64_t			 rec;	/* rec_key() of its line */
	const struct kl_leak_entry	*e;
	int				 kind;	/* evidence of its values,
						   -1: plain values */
};

/*
 * The kasld line shapes (research/kasld-dmesg.md) among the leak
 * sources, and what their values are evidence of.  With a region, the
 * value named is that region's base as the kernel printed it (exact);
 * without (KL_REGION_NONE), the findings of the line are values inside
 * the region the scanner gives them; physical ones bound the physical
 * base.
 */
static const struct {
	const char		*id;
	const char		*name;		/* the value, or NULL */
	enum kl_evidence_kind	 kind;
	enum kl_region		 region;
} bases[] = {
	{ "layout-text", "lo", KL_EV_LAYOUT_DUMP, KL_REGION_TEXT },
	{ "relocated-text", "text", KL_EV_LAYOUT_DUMP, KL_REGION_TEXT },
	{ "relocated-data", NULL, KL_EV_LAYOUT_DUMP, KL_REGION_NONE },
	{ "layout-modules", "lo", KL_EV_LAYOUT_DUMP, KL_REGION_MODULES },
	{ "layout-lowmem", "lo", KL_EV_LAYOUT_DUMP, KL_REGION_DIRECT_MAP },
	{ "layout-vmalloc", "lo", KL_EV_LAYOUT_DUMP, KL_REGION_VMALLOC },
	{ "s390-vmalloc-area", "lo", KL_EV_LAYOUT_DUMP, KL_REGION_VMALLOC },
	{ "layout-vmemmap", "lo", KL_EV_LAYOUT_DUMP, KL_REGION_VMEMMAP },
	{ "free-kernel-range", NULL, KL_EV_FREED_RANGE, KL_REGION_NONE },
	{ "free-initrd-range", NULL, KL_EV_FREED_RANGE, KL_REGION_NONE },
	{ "acpi-table-virt", NULL, KL_EV_LEAK_SOURCE, KL_REGION_NONE },
	{ "ion-snapshot", NULL, KL_EV_LEAK_SOURCE, KL_REGION_NONE },
	{ "component-ops", NULL, KL_EV_LEAK_SOURCE, KL_REGION_NONE },
	{ "riscv-reloc-target", NULL, KL_EV_LEAK_SOURCE, KL_REGION_NONE },
	{ "ppc-initrd", NULL, KL_EV_LEAK_SOURCE, KL_REGION_NONE },
	{ "msr-rip", NULL, KL_EV_LEAK_SOURCE, KL_REGION_NONE },
	{ "arm64-phys-offset", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "e820-map", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "e820-map-old", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "e820-ram-buffer", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "ramdisk", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "ramdisk-move", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "node-data", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "swiotlb-mapped", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "swiotlb-mapped-at", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "swiotlb-placing", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "crashkernel-range", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "crashkernel-mb", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "reserved-pool", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "cma-reserved", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "of-reserved-mem", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "opensbi-resv", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "fdt-ignored-range", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "efi-memmap", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "efi-memmap-x86", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "numa-fake-node", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "zone-range", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "node-range", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "initmem-node", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "arm-idmap", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
	{ "acpi-table-phys", NULL, KL_EV_MEMORY_MAP, KL_REGION_PHYSICAL },
};
#define WAIT_BYTES	(8u << 20)	/* bytes of their copies */

/* A finding waiting for the slide, with copies of its bytes. */
struct waiting {
	struct kl_finding	 f;
	size_t			 text;		/* arena offsets */
	size_t			 ltext;
	int			 has_rec;
	struct kl_record	 rec;
	size_t			 field;
	size_t			 cursor;
};

static struct {
	const struct cli	*cli;
	struct kl_symtab	**maps;		/* --system-map */
	const char		**mapnames;
	size_t			 nmaps;
	struct kl_symdir	*dir;		/* --system-map-dir */
	struct kl_leakdb	*db;		/* data/leak-sources */
	/* verdict_source()'s last rule and its entry (or NULL) */
	const char		*src_rule;
	const struct kl_leak_entry *src_entry;
	int			*bix;		/* bases[] of each entry */
	size_t			 nbix;
	/* Bit r: ring[r] holds a span with a kind, of a virtual leak. */
	uint64_t		 kindmask;
	uint64_t		 virtmask;
	/*
	 * The unit offsets of the line of each ring slot.  While lines come
	 * in offset order (unsorted 0), the newest slot starting at or
	 * before an offset is the only one that can hold it.
	 */
	uint64_t		 lineoff[RING];
	uint64_t		 lastend;
	unsigned		 unsorted;
	struct kl_leakmatch	*lm;
	struct kl_leak_hit	 hits[HITS_MAX];
	struct span		 ring[RING][HITS_MAX];
	size_t			 nring[RING];
	size_t			 ringpos;
	struct kl_kaslr		 k;
	char			 release[128];
	const struct kl_symtab	*map;
	const char		*mapname;
	char			 dirmap[1024];
	char			 sym[512];	/* the last symbol formatted */
	struct waiting		*w;
	size_t			 nw;
	size_t			 wcap;
	uint8_t			*arena;
	size_t			 alen;
	size_t			 acap;
	int			 waiting;	/* findings wait in order */
	int			 physical;	/* physical findings wanted */
	uint64_t		 first[4];	/* first message bytes of the
						   lines verdict_wants() may
						   take (kl_sink.line_first) */
	/* The unit is of a captured system's present state (deslide). */
	int			 cap_on;
	char			 cap_release[128];
	const struct kl_symtab	*cap_map;
	const char		*cap_mapname;
	int			 cap_known;
	uint64_t		 cap_slide;
} vs;

/* The entry of bases[] for leak source e, by its id, or -1. */
static int
base_by_id(const struct kl_leak_entry *e)
{
	size_t	i;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (strcmp(bases[i].id, e->id) == 0)
			return ((int)i);
	return (-1);
}

/* Index bases[] by the position of the database's entries. */
static void
base_index(void)
{
	size_t	i, n = kl_leakdb_count(vs.db);

	vs.bix = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*vs.bix));
	vs.nbix = n;
	for (i = 0; i < n; i++)
		vs.bix[i] = base_by_id(kl_leakdb_entry(vs.db, i));
}

/*
 * The entry of bases[] for leak source e, or -1: by its position among
 * the database's entries (a lookup per hit), else by its id.
 */
static int
base_of(const struct kl_leak_entry *e)
{
	const char	*e0, *e1;
	size_t		 i;

	if (vs.nbix >= 2) {
		e0 = (const char *)kl_leakdb_entry(vs.db, 0);
		e1 = (const char *)kl_leakdb_entry(vs.db, 1);
		if ((const char *)e >= e0 && e1 > e0) {
			i = (size_t)((const char *)e - e0) / (size_t)(e1 - e0);
			if (i < vs.nbix && kl_leakdb_entry(vs.db, i) == e)
				return (vs.bix[i]);
		}
	}
	return (base_by_id(e));
}

/* Load the maps of the command line; exits on a map that cannot load. */
void
verdict_init(const struct cli *cli)
{
	struct kl_error	err;
	size_t		i;

	memset(&vs, 0, sizeof(vs));
	memset(vs.first, 0xff, sizeof(vs.first));
	vs.cli = cli;
	vs.physical = cli->physical ||
	    (cli->redact && cli->ropt.level >= 4);
	if (cli->nmaps > 0) {
		vs.maps = xreallocarray(NULL, cli->nmaps, sizeof(*vs.maps));
		vs.mapnames = xreallocarray(NULL, cli->nmaps,
		    sizeof(*vs.mapnames));
	}
	for (i = 0; i < cli->nmaps; i++) {
		memset(&err, 0, sizeof(err));
		if ((vs.maps[i] = kl_sym_load(cli->maps[i], &err)) == NULL)
			log_fatal("%s: %s", cli->maps[i], err.msg);
		vs.mapnames[i] = cli->maps[i];
		vs.nmaps++;
	}
	if (cli->map_dir != NULL) {
		memset(&err, 0, sizeof(err));
		if ((vs.dir = kl_symdir_open(cli->map_dir, &err)) == NULL)
			log_fatal("%s: %s", cli->map_dir, err.msg);
	}
	/*
	 * Leak sources change what is printed (rules, physical findings,
	 * the boot report), not what is counted: -c, -l, -L and -q without
	 * --physical or --baseline (whose templates are classed by them) do
	 * not need them, and do not pay for them.
	 */
	if (!vs.physical && (cli->mode != MODE_LINES || cli->quiet ||
	    cli->redact) && cli->leak_sources == NULL && cli->baseline == NULL)
		return;
	memset(&err, 0, sizeof(err));
	if (cli->leak_sources != NULL)
		vs.db = kl_leakdb_load(cli->leak_sources, &err);
	else
		vs.db = kl_leakdb_load_mem(leak_sources_data,
		    leak_sources_size, "leak-sources", &err);
	if (vs.db == NULL)
		log_fatal("%s", err.msg);
	if ((vs.lm = kl_leakmatch_new(vs.db)) == NULL)
		log_fatal("out of memory");
	base_index();
}

/* Free the maps and what waits. */
void
verdict_free(void)
{
	size_t	i;

	for (i = 0; i < vs.nmaps; i++)
		kl_sym_free(vs.maps[i]);
	free(vs.maps);
	free(vs.mapnames);
	kl_symdir_free(vs.dir);
	kl_leakmatch_free(vs.lm);
	kl_leakdb_free(vs.db);
	free(vs.bix);
	free(vs.w);
	free(vs.arena);
	memset(&vs, 0, sizeof(vs));
}

/* Are symbols or boot reports wanted at all? */
static int
active(void)
{
	return (vs.cli != NULL);
}

/*
 * The map for a segment of release (NULL or "": not known), and in
 * *name its file (name may be NULL): a --system-map whose file name
 * carries the release, the map of --system-map-dir for it, else a map
 * without a release in its name (or the only map, when the release is
 * not known).  NULL when none serves.
 */
const struct kl_symtab *
verdict_map(const char *release, const char **name)
{
	const struct kl_symtab	*t;
	const char		*r;
	struct kl_error		 err;
	size_t			 i;

	if (name != NULL)
		*name = NULL;
	if (release != NULL && release[0] != '\0') {
		for (i = 0; i < vs.nmaps; i++) {
			r = kl_sym_release(vs.maps[i]);
			if (r != NULL && strcmp(r, release) == 0) {
				if (name != NULL)
					*name = vs.mapnames[i];
				return (vs.maps[i]);
			}
		}
		if (vs.dir != NULL) {
			memset(&err, 0, sizeof(err));
			if ((t = kl_symdir_get(vs.dir, release, &err)) !=
			    NULL) {
				if (name == NULL)
					return (t);
				snprintf(vs.dirmap, sizeof(vs.dirmap), "%s",
				    kl_symdir_path(vs.dir, release));
				*name = vs.dirmap;
				return (t);
			}
		}
	}
	/*
	 * A map without a release in its name serves any segment; a map of
	 * one release serves a segment whose release is not known, when it
	 * is the only map.
	 */
	for (i = 0; i < vs.nmaps; i++)
		if (kl_sym_release(vs.maps[i]) == NULL || (vs.nmaps == 1 &&
		    (release == NULL || release[0] == '\0'))) {
			if (name != NULL)
				*name = vs.mapnames[i];
			return (vs.maps[i]);
		}
	return (NULL);
}

/*
 * Pick the map for the release of the segment (NULL: not known); in a
 * captured system's file, its own map when no other serves.
 */
static void
pick_map(void)
{
	vs.map = verdict_map(vs.release, &vs.mapname);
	if (vs.map == NULL && vs.cap_on) {
		vs.map = vs.cap_map;
		vs.mapname = vs.cap_mapname;
	}
	kl_kaslr_set_map(&vs.k, vs.map);
	kl_kaslr_set_release(&vs.k, vs.release[0] != '\0' ? vs.release :
	    vs.map != NULL ? kl_sym_release(vs.map) : NULL);
	kl_kaslr_first(&vs.k, vs.first);
}

/*
 * A segment of a file of a captured system's present state: the system's
 * release and map, and its slide as evidence (KL_EV_CAPTURE).
 */
static void
capture_apply(void)
{
	if (!vs.cap_on)
		return;
	if (vs.release[0] == '\0')
		snprintf(vs.release, sizeof(vs.release), "%s",
		    vs.cap_release);
	pick_map();
	if (vs.cap_known)
		(void)kl_kaslr_given(&vs.k, 0, KL_EV_CAPTURE, vs.cap_slide);
}

/* A new boot segment starts. */
static void
boot_start(void)
{
	kl_kaslr_init(&vs.k, vs.cli->kl.arch, NULL);
	kl_kaslr_set_page_offset(&vs.k, vs.cli->kl.page_offset);
	vs.release[0] = '\0';
	pick_map();
	capture_apply();
}

/*
 * --redact-style=deslide: the unit now begun is a file of the present
 * state of a captured system of release, map (mapname) and, when known,
 * slide: its segments take them (deslide.c).
 */
void
verdict_capture(const char *release, const struct kl_symtab *map,
    const char *mapname, int known, uint64_t slide)
{
	if (!active())
		return;
	vs.cap_on = 1;
	snprintf(vs.cap_release, sizeof(vs.cap_release), "%s",
	    release != NULL ? release : "");
	vs.cap_map = map;
	vs.cap_mapname = mapname;
	vs.cap_known = known;
	vs.cap_slide = slide;
	capture_apply();
}

/* A new unit starts. */
void
verdict_unit_begin(void)
{
	if (!active())
		return;
	vs.cap_on = 0;
	vs.nw = 0;
	vs.alen = 0;
	vs.waiting = 0;
	vs.kindmask = 0;
	vs.virtmask = 0;
	vs.lastend = 0;
	vs.unsorted = 0;
	memset(vs.nring, 0, sizeof(vs.nring));
	boot_start();
}

/*
 * "Linux version 6.1.0-18-amd64 (...)": the release of the segment.  The
 * banner may stand behind junk the framing left (console escapes).
 */
static void
release_line(const struct kl_line *l)
{
	static const char lit[] = "Linux version ";
	const uint8_t *m;
	size_t i, n, k = sizeof(lit) - 1;

	if (!l->banner)
		return;
	if ((m = memmem(l->text, l->len, lit, k)) == NULL)
		return;
	n = l->len - (size_t)(m - l->text);
	for (i = k; i < n && m[i] > ' ' && m[i] < 0x7f &&
	    i - k < sizeof(vs.release) - 1; i++)
		;
	if (i == k)
		return;
	memcpy(vs.release, m + k, i - k);
	vs.release[i - k] = '\0';
	pick_map();
}

/* Fill lf as a finding the line l makes itself: digits m[i..i+d). */
static void
line_finding(const struct kl_line *l, size_t i, size_t d, uint64_t v,
    enum kl_region region, const char *rule, const char *note,
    struct kl_finding *lf)
{
	const uint8_t	*m = l->text + l->msg;

	memset(lf, 0, sizeof(*lf));
	lf->line = l->line;
	lf->column = l->msg + i + 1;
	lf->offset = l->offset + l->msg + i;
	lf->value = v;
	lf->text = m + i;
	lf->textlen = d;
	lf->prefix = i >= 2 && m[i - 2] == '0' && (m[i - 1] | 0x20) == 'x';
	lf->arch = vs.k.arch;
	lf->region = region;
	lf->severity = region == KL_REGION_LAYOUT ? KL_SEV_HIGH : KL_SEV_LOW;
	lf->confidence = KL_CONF_HIGH;
	lf->suppressed = KL_SUP_NONE;
	lf->rule = rule;
	lf->note = note;
	lf->boot = l->boot;
	lf->ltext = l->text;
	lf->llen = l->len;
	lf->lcol = 1;
	lf->record = l->record;
	lf->lmsg = l->msg;
}

/* Is a value of a physical leak source an address (not a size, a pfn)? */
static int
phys_value(const char *name)
{
	static const char *const names[] = {
		"lo", "hi", "phys", "from_lo", "from_hi", "cr3", "pgd",
		"next", NULL
	};
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(name, names[i]) == 0)
			return (1);
	return (0);
}

/*
 * The base a kasld layout-dump line prints (bases[] with a value name):
 * "modules : 0xbf000000 - ...", ".text @ 0x...".  Every section of the
 * image (".text", ".init", riscv's "kernel") is a candidate for the
 * text base: the lowest wins (kl_kaslr_base()).
 */
static void
exact_base(const struct kl_line *l, const struct kl_leak_hit *h, int b)
{
	size_t	j;

	for (j = 0; j < h->nvalues; j++)
		if (strcmp(h->v[j].name, bases[b].name) == 0 &&
		    !h->v[j].overflow && h->v[j].len > 0)
			kl_kaslr_base(&vs.k, l->line, bases[b].kind,
			    bases[b].region, h->v[j].value, 1);
}

/*
 * Which journal field a line or finding is in (0: none).  Offsets alone
 * do not tell: in a native journal every field's offsets start at 0.
 */
static uint64_t
rec_key(const struct kl_record *r)
{
	uint64_t h;

	if (r == NULL)
		return (0);
	h = fnv64(FNV_OFFSET, &r->entry, sizeof(r->entry));
	if (r->field != NULL)
		h = fnv64(h, r->field, strlen(r->field));
	return (h | 1);
}

/*
 * The leak sources matching the line: remember where (for the rule of
 * the findings in those spans, and the evidence they are), make a
 * finding of region physical of each physical address they carry, and
 * take the bases that layout dumps print.  Returns the findings made.
 */
static size_t
leak_sources(const struct kl_line *l, struct kl_finding *out, size_t max)
{
	const uint8_t	*m = l->text + l->msg;
	const struct kl_leak_value *v;
	struct span	*sp;
	size_t		 n = l->len - l->msg, nh, i, j, k = 0, *ns;
	uint64_t	 bit, rk = rec_key(l->record);
	int		 r, b;

	ns = &vs.nring[vs.ringpos];
	*ns = 0;
	bit = (uint64_t)1 << vs.ringpos;
	vs.kindmask &= ~bit;
	vs.virtmask &= ~bit;
	r = kl_leak_match(vs.lm, m, n, vs.hits, HITS_MAX);
	nh = r < HITS_MAX ? (size_t)r : HITS_MAX;
	for (i = 0; i < nh; i++) {
		sp = &vs.ring[vs.ringpos][(*ns)++];
		sp->rec = rk;
		sp->lo = l->offset + l->msg + vs.hits[i].off;
		sp->hi = sp->lo + vs.hits[i].len;
		sp->e = vs.hits[i].entry;
		b = base_of(sp->e);
		sp->kind = b >= 0 && bases[b].name == NULL &&
		    bases[b].region == KL_REGION_NONE ? (int)bases[b].kind : -1;
		if (sp->kind >= 0)
			vs.kindmask |= bit;
		if (sp->e->class == KL_LCLASS_VIRTUAL)
			vs.virtmask |= bit;
		if (b >= 0 && bases[b].name != NULL)
			exact_base(l, &vs.hits[i], b);
		if (sp->e->class != KL_LCLASS_PHYSICAL)
			continue;
		for (j = 0; j < vs.hits[i].nvalues; j++) {
			v = &vs.hits[i].v[j];
			if (v->overflow || v->len == 0 || v->len > 16 ||
			    !phys_value(v->name))
				continue;
			/* The verdict counts it; findings only when asked. */
			if (b >= 0)
				kl_kaslr_base(&vs.k, l->line, bases[b].kind,
				    KL_REGION_PHYSICAL, v->value, 0);
			else
				kl_kaslr_value(&vs.k, l->line,
				    KL_REGION_PHYSICAL, v->value);
			if (k < max && vs.physical)
				line_finding(l, v->off, v->len, v->value,
				    KL_REGION_PHYSICAL, sp->e->id,
				    sp->e->explain, &out[k++]);
		}
	}
	if (nh > 0) {
		vs.lineoff[vs.ringpos] = l->offset;
		if (l->offset < vs.lastend)
			vs.unsorted = RING;
		else if (vs.unsorted > 0)
			vs.unsorted--;
		vs.lastend = l->offset + l->len;
		vs.ringpos = (vs.ringpos + 1) % RING;
	}
	return (k);
}

/*
 * A KASLR state line as a finding of region layout, at the word that
 * says it ("disabled", "nokaslr"): "Kernel Offset: disabled", "KASLR
 * disabled: 'nokaslr' on cmdline", "nokaslr" on the command line (off:
 * the text is at the link-time default, which the distribution's
 * System.map gives to anyone: severity high), "KASLR disabled due to
 * lack of seed" (failed: the same place on every boot of the machine:
 * medium).  Not made when rewriting: there is no number to rewrite.  The
 * rules and notes are those of data/leak-sources (kernel-offset-disabled,
 * kaslr-disabled, nokaslr-cmdline, kaslr-failed), which need not be
 * loaded.  Returns 1, or 0.
 */
static size_t
state_finding(const struct kl_line *l, int off, struct kl_finding *lf)
{
	const uint8_t	*m = l->text + l->msg;
	size_t		 n = l->len - l->msg, at, len;
	const char	*rule, *note;

	if (kl_kaslr_state(m, n, &at, &len) == KL_KSTATE_NONE)
		return (0);
	if (!off) {
		rule = "kaslr-failed";
		note = "randomisation failed: the kernel sits at the same "
		    "address on every boot of this machine";
	} else if (n >= 14 && memcmp(m, "Kernel Offset:", 14) == 0) {
		rule = "kernel-offset-disabled";
		note = "the panic notifier says KASLR is off: the text is at "
		    "the link-time default";
	} else if (m[at] == 'n') {
		rule = "nokaslr-cmdline";
		note = "booted with nokaslr: the text sits at its default "
		    "address, System.map gives every symbol";
	} else {
		rule = "kaslr-disabled";
		note = "KASLR is off: the text is at the link-time default, "
		    "every System.map address is live";
	}
	line_finding(l, at, len, 0, KL_REGION_LAYOUT, rule, note, lf);
	lf->prefix = 0;
	lf->severity = off ? KL_SEV_HIGH : KL_SEV_MEDIUM;
	return (1);
}

/*
 * The first message bytes of the lines verdict_wants() may take, for
 * the scanner to skip the others (kl_sink.line_first; banners always
 * come): it changes with the map of the segment.  NULL (every line,
 * also those with an empty message) when the leak sources are loaded.
 */
const uint64_t *
verdict_line_first(void)
{
	return (vs.lm != NULL ? NULL : vs.first);
}

/*
 * Do the words verdict_line_first() points to stay as they are for the
 * run?  They change with the map of the segment (pick_map()): not when
 * there is no map at all, nor when a map serves any release.
 */
int
verdict_first_fixed(void)
{
	size_t	i;

	if (vs.nmaps == 0 && vs.dir == NULL)
		return (1);
	for (i = 0; i < vs.nmaps; i++)
		if (kl_sym_release(vs.maps[i]) == NULL)
			return (1);
	return (0);
}

/*
 * Can the framed line l change anything here (the release, the KASLR
 * evidence, the leak-source spans) or make a finding?  Most lines
 * cannot, and the caller skips verdict_line() for them.
 */
int
verdict_wants(const struct kl_line *l)
{
	if (!active())
		return (0);
	if (l->banner || vs.lm != NULL)
		return (1);
	return (kl_kaslr_wants(&vs.k, l->text + l->msg, l->len - l->msg));
}

/* The lines that state the slide, and the finding each makes of it. */
static const struct {
	const char	*lit;		/* the digits follow */
	const char	*rule;
	const char	*note;
} slide_lines[] = {
	{ "Kernel Offset: 0x", "kernel-offset", "the panic notifier prints "
	    "the KASLR slide: _text = from + offset" },
	{ "Kernel relocated by 0x", "kernel-relocated", "the relocation "
	    "notice prints the KASLR slide" },
	{ "KERNELOFFSET=", "vmcoreinfo-kerneloffset", "the VMCOREINFO note "
	    "(kdump, makedumpfile, crash) holds the KASLR slide" },
};

/*
 * A line that states the slide (kl_kaslr_line() said 1): its value as a
 * finding of region layout, marked as the slide (KL_F_SLIDE: the
 * deslide style writes 0).  Returns 1, or 0.
 */
static size_t
slide_finding(const struct kl_line *l, struct kl_finding *lf)
{
	const uint8_t	*m = l->text + l->msg, *p;
	size_t		 n = l->len - l->msg, d, i, k;
	uint64_t	 v;

	for (k = 0; k < sizeof(slide_lines) / sizeof(slide_lines[0]); k++) {
		if ((p = memmem(m, n, slide_lines[k].lit,
		    strlen(slide_lines[k].lit))) == NULL)
			continue;
		i = (size_t)(p - m) + strlen(slide_lines[k].lit);
		v = 0;
		for (d = 0; i + d < n && d < 16 &&
		    kl_hex_value(m[i + d]) >= 0; d++)
			v = v << 4 | (uint64_t)kl_hex_value(m[i + d]);
		if (d == 0)
			return (0);
		line_finding(l, i, d, v, KL_REGION_LAYOUT, slide_lines[k].rule,
		    slide_lines[k].note, lf);
		lf->flags |= KL_F_SLIDE;
		return (1);
	}
	return (0);
}

/*
 * A framed line.  Returns the findings the line makes itself (at most
 * max, in out): the value of a line that states the slide and the words
 * of a KASLR state line (region layout), the physical addresses of known
 * leak sources (region physical).
 */
size_t
verdict_line(const struct kl_line *l, struct kl_finding *out, size_t max)
{
	const uint8_t	*m = l->text + l->msg;
	size_t		 n = l->len - l->msg, k = 0;
	int		 r;

	if (!active() || max == 0)
		return (0);
	release_line(l);
	r = kl_kaslr_line(&vs.k, l->line, m, n);
	if ((r == 2 || r == 3) && !vs.cli->redact)
		k += state_finding(l, r == 2, out);
	if (r == 1)
		k += slide_finding(l, &out[k]);
	if (vs.lm != NULL)
		k += leak_sources(l, out + k, max - k);
	return (k);
}

/* Does span sp hold off in record rk, and is it of the kind asked? */
static int
span_has(const struct span *sp, uint64_t off, uint64_t rk, int virt)
{
	return (off >= sp->lo && off < sp->hi && sp->rec == rk && (virt ?
	    sp->e->class == KL_LCLASS_VIRTUAL : sp->kind >= 0));
}

/*
 * The span of the last lines' leak-source hits that holds unit offset
 * off of journal field rk (rec_key(), 0 for text): of a virtual leak
 * (virt), or with a kind of evidence.  NULL when
 * none.  Lines in offset order: from the newest line back to the one
 * that starts at or before off; else every span.
 */
static const struct span *
ring_find(uint64_t off, uint64_t rk, int virt)
{
	uint64_t m = virt ? vs.virtmask : vs.kindmask;
	size_t	r, i, k;

	if (vs.unsorted == 0) {
		for (k = 1; k <= RING; k++) {
			r = (vs.ringpos + RING - k) % RING;
			if (vs.nring[r] == 0 || vs.lineoff[r] > off)
				continue;
			for (i = 0; (m >> r & 1) && i < vs.nring[r]; i++)
				if (span_has(&vs.ring[r][i], off, rk, virt))
					return (&vs.ring[r][i]);
			return (NULL);
		}
		return (NULL);
	}
	for (; m != 0; m &= m - 1)
		for (r = (size_t)__builtin_ctzll(m), i = 0; i < vs.nring[r];
		    i++)
			if (span_has(&vs.ring[r][i], off, rk, virt))
				return (&vs.ring[r][i]);
	return (NULL);
}

/*
 * The leak source a finding of the scanner lies in, among the last
 * lines' hits: its id (the finding's rule) and, in *explain, why it
 * leaks.  NULL when none.
 */
const char *
verdict_rule(const struct kl_finding *f, const char **explain)
{
	const struct span *sp;

	if (!active() || f->region == KL_REGION_PHYSICAL ||
	    f->region == KL_REGION_LAYOUT || vs.virtmask == 0 ||
	    (sp = ring_find(f->offset, rec_key(f->record), 1)) ==
	    NULL)
		return (NULL);
	*explain = sp->e->explain;
	return (sp->e->id);
}

/*
 * Is the finding f the value of arm64's "PHYS_OFFSET: 0x..." panic line
 * (memstart_addr: the direct map's offset, not an address)?
 */
static int
phys_offset_value(const struct kl_finding *f)
{
	static const char lit[] = "PHYS_OFFSET: 0x";
	size_t	k = sizeof(lit) - 1;
	uint64_t at;

	if (f->ltext == NULL || f->column < f->lcol ||
	    (f->arch != KL_ARCH_AUTO && (f->arch < KL_ARCH_ARM64 ||
	    f->arch > KL_ARCH_ARM64_PRE54)))
		return (0);
	at = f->column - f->lcol;
	return (at >= k && at <= f->llen && memcmp(f->ltext + at - k, lit,
	    k) == 0);
}

/*
 * The finding f placed with what the segment knows: arm64's PHYS_OFFSET
 * value is a layout finding (the verdict gives the direct map's base
 * from it); a value inside the image or the module window around it,
 * once the slide is known, is text or modules (kl_kaslr_place()).
 * Returns f, or g filled with the changed copy.
 */
const struct kl_finding *
verdict_place(const struct kl_finding *f, struct kl_finding *g)
{
	enum kl_region	r;

	if (!active() || f->suppressed != KL_SUP_NONE ||
	    f->region == KL_REGION_LAYOUT || f->region == KL_REGION_PHYSICAL)
		return (f);
	if (phys_offset_value(f)) {
		*g = *f;
		g->region = KL_REGION_LAYOUT;
		g->severity = KL_SEV_MEDIUM;
		g->rule = "arm64-phys-offset";
		g->note = "memstart_addr: virt = phys - PHYS_OFFSET + "
		    "PAGE_OFFSET, the direct map's base";
		return (g);
	}
	if ((r = kl_kaslr_place(&vs.k, f->value, f->region)) == f->region)
		return (f);
	*g = *f;
	g->region = r;
	g->severity = r == KL_REGION_TEXT || r == KL_REGION_MODULES ?
	    KL_SEV_HIGH : KL_SEV_MEDIUM;
	return (g);
}

/*
 * The symbol of a text finding, as %pS prints it, or NULL.  Also counts
 * the finding's value as evidence of its region's base.
 */
const char *
verdict_symbol(const struct kl_finding *f)
{
	if (!active() || f->suppressed != KL_SUP_NONE)
		return (NULL);
	if (f->region == KL_REGION_LAYOUT)
		return (NULL);
	if (f->region != KL_REGION_TEXT)
		return (NULL);
	if (kl_kaslr_symbol(&vs.k, f->value, vs.sym, sizeof(vs.sym)) == 0)
		return (NULL);
	return (vs.sym);
}

/*
 * Count a leaked value for the bases of the segment: as evidence of the
 * known leak source it lies in (a freed range, an ACPI table...), else
 * as a plain value.
 */
void
verdict_value(const struct kl_finding *f)
{
	const struct span *sp;

	if (!active() || f->suppressed != KL_SUP_NONE ||
	    f->region == KL_REGION_LAYOUT || f->region == KL_REGION_PHYSICAL)
		return;
	kl_kaslr_set_arch(&vs.k, f->arch);
	if (vs.kindmask != 0 &&
	    (sp = ring_find(f->offset, rec_key(f->record), 0)) != NULL) {
		kl_kaslr_base(&vs.k, f->line, (enum kl_evidence_kind)sp->kind,
		    f->region, f->value, 0);
		return;
	}
	kl_kaslr_value(&vs.k, f->line, f->region, f->value);
}

/* Should findings wait for the slide (a map, no slide yet, lines out)? */
int
verdict_should_wait(void)
{
	uint64_t	s;

	/* --follow prints a record's findings at once. */
	if (!active() || vs.map == NULL || vs.cli->mode != MODE_LINES ||
	    vs.cli->quiet || vs.cli->redact || vs.cli->follow)
		return (0);
	return (vs.waiting || !kl_kaslr_slide(&vs.k, &s));
}

/* Append n bytes to the arena; returns their offset, SIZE_MAX if full. */
static size_t
arena_add(const void *p, size_t n)
{
	size_t	off;

	if (n > WAIT_BYTES - vs.alen)
		return (SIZE_MAX);
	if (vs.alen + n > vs.acap) {
		vs.acap = vs.acap == 0 ? 65536 : vs.acap;
		while (vs.acap < vs.alen + n)
			vs.acap *= 2;
		vs.arena = xreallocarray(vs.arena, vs.acap, 1);
	}
	off = vs.alen;
	memcpy(vs.arena + off, p, n);
	vs.alen += n;
	return (off);
}

/* Keep a copy of f until the slide is known; 0, or -1 when full. */
int
verdict_wait(const struct kl_finding *f)
{
	struct waiting	*w;
	size_t		 save = vs.alen;

	if (vs.nw >= WAIT_MAX)
		return (-1);
	if (vs.nw == vs.wcap) {
		vs.wcap = vs.wcap == 0 ? 64 : vs.wcap * 2;
		vs.w = xreallocarray(vs.w, vs.wcap, sizeof(*vs.w));
	}
	w = &vs.w[vs.nw];
	memset(w, 0, sizeof(*w));
	w->f = *f;
	if ((w->text = arena_add(f->text, f->textlen)) == SIZE_MAX ||
	    (w->ltext = arena_add(f->ltext, f->llen)) == SIZE_MAX)
		goto full;
	if (f->record != NULL) {
		w->has_rec = 1;
		w->rec = *f->record;
		if ((w->field = arena_add(f->record->field,
		    strlen(f->record->field) + 1)) == SIZE_MAX)
			goto full;
		w->cursor = SIZE_MAX;
		if (f->record->cursor != NULL && (w->cursor = arena_add(
		    f->record->cursor, strlen(f->record->cursor) + 1)) ==
		    SIZE_MAX)
			goto full;
	}
	vs.nw++;
	vs.waiting = 1;
	return (0);
full:
	vs.alen = save;
	return (-1);
}

/* Hand every waiting finding, in order, to emit; then none waits. */
void
verdict_flush(void (*emit)(const struct kl_finding *, const char *))
{
	struct waiting	*w;
	struct kl_finding g;
	size_t		 i;

	for (i = 0; i < vs.nw; i++) {
		w = &vs.w[i];
		w->f.text = vs.arena + w->text;
		w->f.ltext = vs.arena + w->ltext;
		if (w->has_rec) {
			w->rec.field = (const char *)vs.arena + w->field;
			w->rec.cursor = w->cursor == SIZE_MAX ? NULL :
			    (const char *)vs.arena + w->cursor;
			w->f.record = &w->rec;
		}
		w->f = *verdict_place(&w->f, &g);
		emit(&w->f, verdict_symbol(&w->f));
	}
	vs.nw = 0;
	vs.alen = 0;
	vs.waiting = 0;
}

/*
 * What the open boot segment tells of the kernel image, for the deslide
 * style of --redact: its slide, when the evidence gives one, and where
 * the image lies at run time: the map's [_text, _end) moved by the
 * slide; with no map, from the link-time _text (the Kernel Offset line's
 * "from", else the architecture's default) on, its end not known.  arch:
 * the segment's, when decided (KL_ARCH_AUTO: as known so far).
 */
void
verdict_image(enum kl_arch_id arch, struct kl_redact_image *img)
{
	const struct kl_arch	*a;
	uint64_t		 s, lo, hi;

	memset(img, 0, sizeof(*img));
	if (!active())
		return;
	if (arch != KL_ARCH_AUTO)
		kl_kaslr_set_arch(&vs.k, arch);
	if (!kl_kaslr_slide(&vs.k, &s))
		return;
	if (vs.map != NULL && kl_sym_image(vs.map, &lo, &hi)) {
		if (lo + s < lo || hi + s < hi)
			return;
		img->hi = hi + s;
	} else if (vs.k.offset_from != 0)
		lo = vs.k.offset_from;
	else if ((a = kl_arch_get(vs.k.arch)) != NULL && a->text_base != 0)
		lo = a->text_base;
	else
		return;
	if (lo + s < lo)
		return;
	img->known = 1;
	img->slide = s;
	img->lo = lo + s;
}

/* A boot segment ended: fill its report, start the next segment. */
void
verdict_boot(const struct kl_boot *b, struct bootrep *rep)
{
	memset(rep, 0, sizeof(*rep));
	if (!active())
		return;
	if (b->arch != KL_ARCH_AUTO)
		kl_kaslr_set_arch(&vs.k, b->arch);
	rep->b = *b;
	kl_kaslr_verdict(&vs.k, &rep->v);
	snprintf(rep->release, sizeof(rep->release), "%s", vs.release);
	if (vs.mapname != NULL)
		snprintf(rep->map, sizeof(rep->map), "%s", vs.mapname);
	rep->has_map = vs.mapname != NULL;
	boot_start();
}

/*
 * The leak source whose id a finding's rule is (the rules verdict.c
 * gives are the entries' own id strings), or NULL.
 */
const struct kl_leak_entry *
verdict_source(const char *rule)
{
	const struct kl_leak_entry	*e;
	size_t				 i, n;

	if (!active() || vs.db == NULL || rule == NULL)
		return (NULL);
	/* The last answer: findings of one rule come in runs. */
	if (rule == vs.src_rule)
		return (vs.src_entry);
	n = kl_leakdb_count(vs.db);
	for (e = NULL, i = 0; i < n && e == NULL; i++)
		if (kl_leakdb_entry(vs.db, i)->id == rule)
			e = kl_leakdb_entry(vs.db, i);
	vs.src_rule = rule;
	vs.src_entry = e;
	return (e);
}
