/*
 * print-sarif.c - --sarif: the report as a SARIF 2.1.0 log.
 *
 * One run; one result per template row, its occurrences in the result's
 * properties.  Rules are per class and region ("pointer/text"): the
 * row's region is the most severe one it leaks; "security-severity" is
 * 8.0 for high (text, modules), 5.5 for medium, 3.0 for low.  Each result
 * has the template's fingerprint as partial fingerprint "kleakscan/v1"
 * and, with --baseline, a baselineState ("unchanged" or "new").  The
 * location is the first example's log line: the input as a URI (file://
 * for an absolute path, a relative reference otherwise) and its line;
 * the member chain of an archive is in the location's properties.
 * Addresses in examples are masked as in --report.
 */
#include "config.h"

#include <sys/stat.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleakscan.h"

#define SARIF_SCHEMA	"https://json.schemastore.org/sarif-2.1.0.json"
#define INFO_URI	"https://github.com/kleakscan/kleakscan"

static void	log_location(const struct kl_report_row *);

static struct buf	sf_a;
static struct buf	sf_b;

/* Write s[0..n) as a JSON string: bytes that are not UTF-8 as \xNN. */
static void
sstr(const void *s, size_t n)
{
	const uint8_t	*p = s;
	size_t		 k;

	if (!kl_utf8_valid(p, n)) {
		k = kl_esc_text(NULL, 0, p, n);
		buf_reserve(&sf_a, k + 1);
		(void)kl_esc_text(sf_a.p, sf_a.size, p, n);
		p = (const uint8_t *)sf_a.p;
		n = k;
	}
	k = kl_esc_json(NULL, 0, p, n);
	buf_reserve(&sf_b, k + 1);
	(void)kl_esc_json(sf_b.p, sf_b.size, p, n);
	printf("\"%s\"", sf_b.p);
}

/* Write a C string as a JSON string. */
static void
scstr(const char *s)
{
	sstr(s, strlen(s));
}

/*
 * An absolute path without "." and ".." segments and repeated slashes
 * (file URIs must not have them), in a new string.
 */
static char *
clean_path(const char *path)
{
	char	*out, *q;
	const char *p = path, *e;
	size_t	 n;

	out = xmalloc(strlen(path) + 2);
	q = out;
	while (*p != '\0') {
		while (*p == '/')
			p++;
		for (e = p; *e != '\0' && *e != '/'; e++)
			;
		n = (size_t)(e - p);
		if (n == 0 || (n == 1 && p[0] == '.'))
			;
		else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (q > out && *--q != '/')
				;
		} else {
			*q++ = '/';
			memcpy(q, p, n);
			q += n;
		}
		p = e;
	}
	if (q == out)
		*q++ = '/';
	*q = '\0';
	return (out);
}

/* Write a path as a URI: file:///abs/path or a relative reference. */
static void
suri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;
	struct buf	*b = &sf_a;
	char		*abs = NULL;
	size_t		 n = 0;

	if (path[0] == '/')
		path = abs = clean_path(path);
	p = (const unsigned char *)path;
	buf_reserve(b, 3 * strlen(path) + 16);
	if (p[0] == '/')
		n += (size_t)snprintf(b->p, b->size, "file://");
	for (; *p != '\0'; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
			b->p[n++] = (char)*p;
		else {
			b->p[n++] = '%';
			b->p[n++] = hex[*p >> 4];
			b->p[n++] = hex[*p & 0xf];
		}
	}
	b->p[n] = '\0';
	printf("\"%s\"", b->p);
	free(abs);
}

/* The region a row's rule is named after: its most severe. */
static enum kl_region
row_region(const struct kl_report_row *r)
{
	enum kl_region		best = KL_REGION_NONE;
	size_t			i;
	int			sev, bsev = -1;

	for (i = 0; i < KL_REGION_COUNT; i++) {
		if (!(r->regions & (1u << i)))
			continue;
		switch ((enum kl_region)i) {
		case KL_REGION_TEXT:
		case KL_REGION_MODULES:
		case KL_REGION_LAYOUT:
			sev = 3;
			break;
		case KL_REGION_PHYSICAL:
		case KL_REGION_FIXMAP:
		case KL_REGION_ESPFIX:
		case KL_REGION_CPU_ENTRY_AREA:
			sev = 1;
			break;
		default:
			sev = 2;
			break;
		}
		if (sev > bsev) {
			bsev = sev;
			best = (enum kl_region)i;
		}
	}
	return (best);
}

/* The SARIF level of a severity. */
static const char *
level(enum kl_severity s)
{
	switch (s) {
	case KL_SEV_HIGH:
		return ("error");
	case KL_SEV_MEDIUM:
		return ("warning");
	default:
		return ("note");
	}
}

/* The security-severity of a severity. */
static const char *
secsev(enum kl_severity s)
{
	switch (s) {
	case KL_SEV_HIGH:
		return ("8.0");
	case KL_SEV_MEDIUM:
		return ("5.5");
	default:
		return ("3.0");
	}
}

/* What a class means, for the rule's description. */
static const char *
class_text(enum kl_tclass c)
{
	static const char *const t[KL_TC_COUNT] = {
		"A message prints a kernel pointer (%px, %lx, %x, or %p with "
		"hashing off): fix the call site.",
		"A known leak source of data/leak-sources prints a kernel "
		"address.",
		"A KASAN, KFENCE, SLUB, kmemleak, lockdep or oops report "
		"prints a kernel address.",
		"A register dump prints kernel addresses.",
		"A stack-trace frame prints a raw kernel address.",
		"A file's content (kallsyms, a /proc file) lists kernel "
		"addresses.",
		"A line discloses the kernel's layout or KASLR offset.",
	};

	return (t[c < KL_TC_COUNT ? c : 0]);
}

/* A rule: a class and a region, with the severity of its worst row. */
struct srule {
	enum kl_tclass		 c;
	enum kl_region		 r;
	enum kl_severity	 sev;
};

/* The index of the rule of (c, r) in rules[0..*n), added if new. */
static size_t
rule_of(struct srule *rules, size_t *n, enum kl_tclass c, enum kl_region r,
    enum kl_severity sev)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if (rules[i].c == c && rules[i].r == r) {
			if (sev > rules[i].sev)
				rules[i].sev = sev;
			return (i);
		}
	rules[*n].c = c;
	rules[*n].r = r;
	rules[*n].sev = sev;
	return ((*n)++);
}

/* Write the rules. */
static void
rules_out(const struct srule *rules, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		printf("%s{\"id\":\"%s/%s\",\"name\":\"%s-leak-%s\","
		    "\"shortDescription\":{\"text\":\"A %s line leaks a %s "
		    "address.\"},\"fullDescription\":{\"text\":",
		    i > 0 ? "," : "", kl_tclass_name(rules[i].c),
		    kl_region_name(rules[i].r), kl_tclass_name(rules[i].c),
		    kl_region_name(rules[i].r), kl_tclass_name(rules[i].c),
		    kl_region_name(rules[i].r));
		scstr(class_text(rules[i].c));
		printf("},\"helpUri\":\"%s\",\"help\":{\"text\":", INFO_URI);
		scstr(class_text(rules[i].c));
		printf("},\"defaultConfiguration\":{\"level\":\"%s\"},"
		    "\"properties\":{\"security-severity\":\"%s\","
		    "\"tags\":[\"security\",\"kernel-address-leak\"]}}",
		    level(rules[i].sev), secsev(rules[i].sev));
	}
}

/*
 * Write the location of a row: the call site in the kernel source when
 * --kernel-source or --printk-index found one (relative to the tree,
 * uriBaseId KERNELSRC; the log line then is a related location), else
 * its first example's line.
 */
static void
location(const struct kl_report_row *r)
{
	const struct kl_srcidx	*x = callsite_index();
	struct kl_srcidx_match	 m[1];
	struct kl_srcidx_site	 s;

	if (x == NULL || callsite_row(r, m, 1) != 1 ||
	    kl_srcidx_site(x, m[0].site, &s) != 0) {
		fputs("\"locations\":[", stdout);
		log_location(r);
		putchar(']');
		return;
	}
	fputs("\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
	    "{\"uri\":", stdout);
	suri(s.file[0] == '/' ? s.file + 1 : s.file);
	printf(",\"uriBaseId\":\"KERNELSRC\"},\"region\":{\"startLine\":%"
	    PRIu64 "}}", s.line > 0 ? s.line : 1);
	if (s.function[0] != '\0') {
		fputs(",\"logicalLocations\":[{\"name\":", stdout);
		scstr(s.function);
		fputs(",\"kind\":\"function\"}]", stdout);
	}
	fputs(",\"message\":{\"text\":", stdout);
	{
		char	*t;
		size_t	 n = s.formatlen + 64;

		t = xmalloc(n);
		n = (size_t)snprintf(t, n, "printed by the format \"");
		memcpy(t + n, s.format, s.formatlen);
		n += s.formatlen;
		memcpy(t + n, "\", ", 3);
		n += 3;
		n += (size_t)snprintf(t + n, 40, "conversion %s",
		    m[0].conversion);
		sstr(t, n);
		free(t);
	}
	fputs("}}],\"relatedLocations\":[", stdout);
	log_location(r);
	putchar(']');
}

/* Write the first example's log line as a location object. */
static void
log_location(const struct kl_report_row *r)
{
	const struct kl_report_ex *e = &r->first;
	size_t	i;

	fputs("{\"id\":0,\"physicalLocation\":{\"artifactLocation\":"
	    "{\"uri\":", stdout);
	suri(e->path != NULL ? e->path : "-");
	printf("},\"region\":{\"startLine\":%" PRIu64 "}}", e->line > 0 ?
	    e->line : 1);
	if (e->nmembers > 0) {
		fputs(",\"properties\":{\"members\":[", stdout);
		for (i = 0; i < e->nmembers; i++) {
			if (i > 0)
				putchar(',');
			scstr(e->members[i]);
		}
		fputs("]}", stdout);
	}
	putchar('}');
}

/* Write a JSON array of a set. */
static void
sset(const struct kl_strset *s)
{
	size_t	i;

	putchar('[');
	for (i = 0; i < s->n; i++) {
		if (i > 0)
			putchar(',');
		scstr(s->v[i]);
	}
	putchar(']');
}

/* A C string as a JSON string, or null. */
static void
scstr_null(const char *s)
{
	if (s != NULL)
		scstr(s);
	else
		fputs("null", stdout);
}

/*
 * --fix-dir: the properties "maintainers" (every recipient of the call
 * site's file: maintainers, reviewers, lists), "fix_patch" and
 * "fix_reason" of a result.
 */
static void
fix_props(const struct kl_report_row *r)
{
	const struct rowfix		*rf = fix_row(r);
	const struct kl_maint_list	*l;
	size_t				 i;

	if (rf == NULL || rf->state == FIXR_NONE)
		return;
	fputs(",\"maintainers\":[", stdout);
	if ((l = fix_who(rf)) != NULL)
		for (i = 0; i < l->n; i++) {
			if (i > 0)
				putchar(',');
			scstr(l->who[i].addr);
		}
	printf("],\"fix_kind\":\"%s\",\"fix_patch\":", fix_kind(rf));
	if (fix_patch_name(rf) != NULL)
		scstr(fix_patch_name(rf));
	else
		fputs("null", stdout);
	fputs(",\"fix_reason\":", stdout);
	if (rf->state != FIXR_PATCH && rf->why != NULL)
		scstr(rf->why);
	else
		fputs("null", stdout);
}

#define SARIF_EDITS	32	/* replacements of a fix */

/*
 * The "fixes" of a result with a patch: one fix, its artifactChanges
 * in the call site's file (relative to KERNELSRC), each replacement a
 * deleted region and the text inserted there.
 */
static void
fixes(const struct kl_report_row *r)
{
	const struct rowfix	*rf = fix_row(r);
	const struct kl_srcidx	*x = callsite_index();
	struct kl_srcidx_match	 m;
	struct kl_srcidx_site	 s;
	struct fixedit		 e[SARIF_EDITS];
	size_t			 n, i;

	if ((n = fix_edits(rf, e, SARIF_EDITS)) == 0 ||
	    callsite_row(r, &m, 1) != 1 || kl_srcidx_site(x, m.site, &s) != 0)
		return;
	fputs(",\"fixes\":[{\"description\":{\"text\":", stdout);
	{
		char	t[512];

		snprintf(t, sizeof(t), "Print the pointer hashed (%s), as "
		    "the patch %s does", fix_patch_name(rf) != NULL &&
		    strstr(e[0].text, "K") != NULL ? "%pK" : "%p",
		    fix_patch_name(rf));
		scstr(t);
	}
	fputs("},\"artifactChanges\":[{\"artifactLocation\":{\"uri\":",
	    stdout);
	suri(s.file);
	fputs(",\"uriBaseId\":\"KERNELSRC\"},\"replacements\":[", stdout);
	for (i = 0; i < n; i++) {
		printf("%s{\"deletedRegion\":{\"startLine\":%" PRIu64
		    ",\"startColumn\":%" PRIu64 ",\"endLine\":%" PRIu64
		    ",\"endColumn\":%" PRIu64 "}", i > 0 ? "," : "",
		    e[i].line, e[i].col, e[i].eline, e[i].ecol);
		if (e[i].text[0] != '\0') {
			fputs(",\"insertedContent\":{\"text\":", stdout);
			scstr(e[i].text);
			putchar('}');
		}
		putchar('}');
	}
	fputs("]}]}]", stdout);
}

/* Write a result for row r. */
static void
result(const struct cli *cli, const struct kl_report_row *r, size_t rule,
    const struct srule *rules)
{
	size_t	i;
	int	first;

	printf("{\"ruleId\":\"%s/%s\",\"ruleIndex\":%zu,\"level\":\"%s\","
	    "\"message\":{\"text\":", kl_tclass_name(rules[rule].c),
	    kl_region_name(rules[rule].r), rule, level(r->severity));
	{
		char	*m;
		size_t	 n = r->t.len + 128;

		m = xmalloc(n);
		snprintf(m, n, "%s leaks kernel addresses: %" PRIu64
		    " findings in %" PRIu64 " inputs. Template: ",
		    kl_tclass_name(r->t.tclass), r->count, r->inputs);
		i = strlen(m);
		memcpy(m + i, r->t.text, r->t.len);
		sstr(m, i + r->t.len);
		free(m);
	}
	fputs("},", stdout);
	location(r);
	printf(",\"partialFingerprints\":{\"kleakscan/v1\":\"%s\"}", r->t.fp);
	if (cli->baseline != NULL)
		printf(",\"baselineState\":\"%s\"", r->baselined ?
		    "unchanged" : "new");
	fputs(",\"properties\":{\"template\":", stdout);
	sstr(r->t.text, r->t.len);
	printf(",\"fingerprint\":\"%s\",\"class\":\"%s\",\"severity\":\"%s\","
	    "\"count\":%" PRIu64 ",\"inputs\":%" PRIu64 ",\"boots\":%" PRIu64
	    ",\"hosts\":%zu,\"host_names\":", r->t.fp,
	    kl_tclass_name(r->t.tclass), kl_severity_name(r->severity),
	    r->count, r->inputs, r->boots, r->hosts.n);
	sset(&r->hosts);
	fputs(",\"regions\":[", stdout);
	for (i = 0, first = 1; i < KL_REGION_COUNT; i++)
		if (r->regions & (1u << i)) {
			printf("%s\"%s\"", first ? "" : ",",
			    kl_region_name((enum kl_region)i));
			first = 0;
		}
	fputs("],\"arches\":[", stdout);
	for (i = 0, first = 1; i < KL_ARCH_COUNT && i < 32; i++)
		if (r->arches & (UINT32_C(1) << i)) {
			printf("%s\"%s\"", first ? "" : ",",
			    kl_arch_name((enum kl_arch_id)i));
			first = 0;
		}
	fputs("],\"releases\":", stdout);
	sset(&r->releases);
	fputs(",\"source\":", stdout);
	if (r->source != NULL)
		scstr(r->source);
	else
		fputs("null", stdout);
	fputs(",\"fixed\":", stdout);
	if (r->fixed != NULL)
		scstr(r->fixed);
	else
		fputs("null", stdout);
	fputs(",\"conversion\":", stdout);
	scstr(report_conversion(r));
	if (callsite_newest() != NULL)
		report_fix_state(r, scstr_null);
	fix_props(r);
	fputs(",\"examples\":[", stdout);
	report_json_example(&r->first);
	putchar(',');
	report_json_example(&r->last);
	putchar(']');
	putchar('}');
	fixes(r);
	putchar('}');
}

/*
 * The run's originalUriBaseIds: KERNELSRC, the tree call sites are
 * relative to (a directory as a file URI; a tarball only described).
 */
static void
base_ids(const struct cli *cli)
{
	struct stat	sb;
	char		*t;
	size_t		 n;

	if (callsite_index() == NULL || cli->kernel_source == NULL)
		return;
	fputs("\"originalUriBaseIds\":{\"KERNELSRC\":{", stdout);
	if (stat(cli->kernel_source, &sb) == 0 && S_ISDIR(sb.st_mode) &&
	    (t = realpath(cli->kernel_source, NULL)) != NULL) {
		const unsigned char *p;

		fputs("\"uri\":\"file://", stdout);
		for (p = (const unsigned char *)t; *p != '\0'; p++)
			if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' &&
			    *p <= 'z') || (*p >= '0' && *p <= '9') ||
			    strchr("-._~/", *p) != NULL)
				putchar(*p);
			else
				printf("%%%02X", *p);
		fputs(t[1] != '\0' ? "/\"" : "\"", stdout);
		free(t);
	} else {
		fputs("\"description\":{\"text\":", stdout);
		n = strlen(cli->kernel_source) + 32;
		t = xmalloc(n);
		snprintf(t, n, "the top of the tree in %s",
		    cli->kernel_source);
		scstr(t);
		free(t);
		putchar('}');
	}
	fputs("}},", stdout);
}

/* Print the SARIF log of rows[0..n). */
void
sarif_print(const struct cli *cli, struct kl_report_row **row, size_t n,
    const struct totals *t)
{
	struct srule	*rules;
	size_t		*ri, nr = 0, i;
	uint64_t	 base = 0;

	rules = xreallocarray(NULL, n + 1, sizeof(*rules));
	ri = xreallocarray(NULL, n + 1, sizeof(*ri));
	for (i = 0; i < n; i++)
		ri[i] = rule_of(rules, &nr, row[i]->t.tclass,
		    row_region(row[i]), row[i]->severity);
	printf("{\"$schema\":\"%s\",\"version\":\"2.1.0\",\"runs\":[{"
	    "\"tool\":{\"driver\":{\"name\":\"kleakscan\",\"version\":\"%s\","
	    "\"informationUri\":\"%s\",\"rules\":[", SARIF_SCHEMA,
	    PACKAGE_VERSION, INFO_URI);
	rules_out(rules, nr);
	fputs("]}},", stdout);
	base_ids(cli);
	printf("\"invocations\":[{\"executionSuccessful\":%s}],"
	    "\"results\":[", t->errors == 0 ? "true" : "false");
	for (i = 0; i < n; i++) {
		if (i > 0)
			putchar(',');
		result(cli, row[i], ri[i], rules);
		base += row[i]->baselined;
	}
	printf("],\"properties\":{\"findings\":%" PRIu64 ",\"inputs\":%"
	    PRIu64 ",\"templates\":%zu", t->findings, t->inputs, n);
	if (cli->baseline != NULL)
		printf(",\"baselined\":%" PRIu64 ",\"new\":%" PRIu64, base,
		    (uint64_t)n - base);
	fputs("}}]}\n", stdout);
	free(rules);
	free(ri);
}
