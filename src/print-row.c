/*
 * print-row.c - what the report printers share about a row of the
 * report: the likely conversion of its printk, the text of an example
 * (masked unless --show-addresses), and JSON strings and example objects
 * (print-report.c, print-sarif.c, print-merge.c).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kleakscan.h"

static struct {
	int		 show_addresses;	/* --show-addresses */
	struct buf	 esc;
} rr;

/* Set up for a report: show_addresses leaves examples unmasked. */
void
report_row_init(int show_addresses)
{
	rr.show_addresses = show_addresses;
}

/*
 * The likely conversion of a row's printk: %pK for file contents, %p
 * when every finding came from a boot with hashing off or a kernel
 * before v4.15 (which did not hash %p), else %px or %lx.
 */
const char *
report_conversion(const struct kl_report_row *r)
{
	size_t	i;
	int	old = r->releases.n > 0;
	unsigned maj, min;

	if (r->t.tclass == KL_TC_FILE)
		return ("%pK with kptr_restrict=0");
	if (r->t.tclass == KL_TC_LAYOUT)
		return ("%lx or %px (layout)");
	if (r->unhashed == r->count)
		return ("%p with hashing off (no_hash_pointers)");
	for (i = 0; i < r->releases.n; i++)
		if (sscanf(r->releases.v[i], "%u.%u", &maj, &min) != 2 ||
		    maj > 4 || (maj == 4 && min >= 15))
			old = 0;
	if (old)
		return ("%p before v4.15 (unhashed)");
	return ("%px or %lx");
}

/* An example's line, masked unless --show-addresses (in b, len set). */
const uint8_t *
report_example_text(const struct kl_report_ex *e, struct buf *b)
{
	buf_reserve(b, e->textlen + 1);
	if (e->textlen > 0)
		memcpy(b->p, e->text, e->textlen);
	b->p[e->textlen] = '\0';
	b->len = e->textlen;
	if (!rr.show_addresses)
		(void)kl_mask_addr((uint8_t *)b->p, b->len);
	return ((const uint8_t *)b->p);
}

/* Write a JSON string (escaped), or "bytes" base64 when not UTF-8. */
void
report_json_str(const void *s, size_t n)
{
	struct buf	*b = &rr.esc;
	size_t		 k;

	if (s == NULL) {
		fputs("null", stdout);
		return;
	}
	if (!kl_utf8_valid(s, n)) {
		k = kl_base64(NULL, 0, s, n);
		buf_reserve(b, k + 1);
		(void)kl_base64(b->p, b->size, s, n);
		printf("{\"bytes\":\"%s\"}", b->p);
		return;
	}
	k = kl_esc_json(NULL, 0, s, n);
	buf_reserve(b, k + 1);
	(void)kl_esc_json(b->p, b->size, s, n);
	printf("\"%s\"", b->p);
}

/* Write a C string as JSON, or null. */
void
report_json_cstr(const char *s)
{
	report_json_str(s, s != NULL ? strlen(s) : 0);
}

/* Write an example object. */
void
report_json_example(const struct kl_report_ex *e)
{
	struct buf	 t = { NULL, 0, 0 };
	const uint8_t	*p;
	size_t		 i;

	fputs("{\"path\":", stdout);
	report_json_cstr(e->path);
	fputs(",\"members\":[", stdout);
	for (i = 0; i < e->nmembers; i++) {
		if (i > 0)
			putchar(',');
		report_json_cstr(e->members[i]);
	}
	printf("],\"line\":%" PRIu64 ",\"timestamp\":", e->line);
	report_json_cstr(e->ts);
	fputs(",\"line_text\":", stdout);
	p = report_example_text(e, &t);
	report_json_str(p, t.len);
	printf(",\"line_cut\":%s}", e->cut ? "true" : "false");
	buf_free(&t);
}

/*
 * ,"fix_state" of a row (null without call sites, or when unknown) and
 * ,"fix_site": its site in the newest kernel given (null when gone),
 * strings written by str (NULL as null).
 */
void
report_fix_state(const struct kl_report_row *r, void (*str)(const char *))
{
	const struct kl_srcidx	*x = callsite_newest();
	struct kl_srcidx_match	 m;
	struct kl_srcidx_site	 s;
	enum fixstate		 st;

	st = x != NULL ? callsite_fix_state(r, &m) : FIX_UNKNOWN;
	fputs(",\"fix_state\":", stdout);
	str(callsite_fix_name(st));
	fputs(",\"fix_site\":", stdout);
	if ((st != FIX_OPEN && st != FIX_FIXED) ||
	    kl_srcidx_site(x, m.site, &s) != 0) {
		fputs("null", stdout);
		return;
	}
	fputs("{\"file\":", stdout);
	str(s.file);
	printf(",\"line\":%" PRIu64 ",\"function\":", s.line);
	str(s.function[0] != '\0' ? s.function : NULL);
	fputs(",\"conversion\":", stdout);
	str(m.conversion);
	fputs(",\"kernel\":", stdout);
	str(callsite_newest_name());
	putchar('}');
}
