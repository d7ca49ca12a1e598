/*
 * print-json.c - JSON Lines events: begin, finding, error, end, summary.
 *
 * One event a line, always valid JSON: strings that are valid UTF-8 go out
 * through kl_esc_json(); a path or line that is not goes out as base64 in
 * path_bytes or line_bytes, a member name as {"bytes": base64}.  Every
 * event of a unit carries "path" and "members" (the archive member chain,
 * outermost first, empty for plain files), so streams from many runs
 * concatenate.  Findings in journal fields add "entry", "cursor",
 * "realtime" and "field".
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kleakscan.h"

static struct buf	 pj_buf;
static struct buf	 pj_text;
static struct buf	 pj_out;		/* the event being written */
static void		(*pj_extra)(void);	/* summary members */
static const struct cli	*pj_cli;

/*
 * An event is put together in pj_out and written with one fwrite() at
 * its end (jo_flush()): a finding was some thirty stdio calls, a fifth
 * of the time of --json on a dense log.
 */
static inline void
jo_w(const void *p, size_t n)
{
	if (pj_out.size - pj_out.len < n || pj_out.p == NULL)
		buf_reserve(&pj_out, pj_out.len + n);
	memcpy(pj_out.p + pj_out.len, p, n);
	pj_out.len += n;
}

/* Append a C string to the event. */
static void
jo_s(const char *s)
{
	jo_w(s, strlen(s));
}

/* Append one byte to the event. */
static inline void
jo_c(char c)
{
	jo_w(&c, 1);
}

/* Append n in decimal. */
static void
jo_u64(uint64_t n)
{
	char	 d[20];

	jo_w(d, fmt_u64(d, n));
}

/* Append "0x..." (lower-case hex digits, quoted). */
static void
jo_hex(uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char	 d[24], *p = d + sizeof(d);

	*--p = '"';
	do
		*--p = hex[v & 0xf];
	while ((v >>= 4) > 0);
	*--p = 'x';
	*--p = '0';
	*--p = '"';
	jo_w(p, (size_t)(d + sizeof(d) - p));
}

/* Write the event out. */
static void
jo_flush(void)
{
	if (pj_out.len > 0)
		fwrite(pj_out.p, 1, pj_out.len, stdout);
	pj_out.len = 0;
}

/* Write len bytes of valid UTF-8 as a quoted JSON string. */
static void
json_utf8(const void *s, size_t len)
{
	size_t	n;

	if (len == 0) {
		jo_s("\"\"");
		return;
	}
	buf_reserve(&pj_buf, len + 1);
	n = kl_esc_json(pj_buf.p, pj_buf.size, s, len);
	if (n >= pj_buf.size) {
		buf_reserve(&pj_buf, n + 1);
		n = kl_esc_json(pj_buf.p, pj_buf.size, s, len);
		if (n >= pj_buf.size)
			n = pj_buf.size - 1;
	}
	jo_c('"');
	jo_w(pj_buf.p, n);
	jo_c('"');
}

/* Write bytes as a JSON string; invalid UTF-8 is text-escaped first. */
static void
json_str(const void *s, size_t len)
{
	const char	*e;

	if (len == 0 || kl_utf8_valid(s, len)) {
		json_utf8(s, len);
		return;
	}
	e = print_text_esc(&pj_text, s, len);
	json_utf8(e, pj_text.len);
}

/* Write a C string made by the program or the library. */
static void
json_cstr(const char *s)
{
	if (s == NULL)
		jo_s("null");
	else
		json_str(s, strlen(s));
}

/* Write bytes as a quoted base64 string. */
static void
json_base64(const void *s, size_t len)
{
	size_t	n, want;

	want = len / 3 * 4 + 5;
	buf_reserve(&pj_buf, want);
	n = kl_base64(pj_buf.p, pj_buf.size, s, len);
	if (n >= pj_buf.size) {
		buf_reserve(&pj_buf, n + 1);
		n = kl_base64(pj_buf.p, pj_buf.size, s, len);
		if (n >= pj_buf.size)
			n = pj_buf.size - 1;
	}
	jo_c('"');
	jo_w(pj_buf.p, n);
	jo_c('"');
}

/* Write "key": */
static void
json_key(const char *key)
{
	jo_s(",\"");
	jo_s(key);
	jo_s("\":");
}

/* Start an event of the given type. */
static void
json_type(const char *type)
{
	jo_s("{\"type\":\"");
	jo_s(type);
	jo_c('"');
}

/* Write the "path" (or path_bytes) and "members" of an input. */
static void
json_path(const struct input *in)
{
	size_t	i, n;

	json_key("path");
	if (kl_utf8_valid((const uint8_t *)in->name, in->namelen))
		json_utf8(in->name, in->namelen);
	else {
		jo_s("null");
		json_key("path_bytes");
		json_base64(in->name, in->namelen);
	}
	json_key("members");
	jo_c('[');
	for (i = 0; i < in->nmembers; i++) {
		if (i > 0)
			jo_c(',');
		n = strlen(in->members[i]);
		if (kl_utf8_valid((const uint8_t *)in->members[i], n))
			json_utf8(in->members[i], n);
		else {
			jo_s("{\"bytes\":");
			json_base64(in->members[i], n);
			jo_c('}');
		}
	}
	jo_c(']');
}

/* Write "key":N */
static void
json_u64(const char *key, uint64_t n)
{
	json_key(key);
	jo_u64(n);
}

/* Write "key":true|false */
static void
json_bool(const char *key, int b)
{
	json_key(key);
	jo_s(b ? "true" : "false");
}

/* The begin event of an input. */
static void
json_begin(const struct input *in)
{
	json_type("begin");
	json_path(in);
	jo_s("}\n");
	jo_flush();
}

/*
 * Write the digits lower-cased with 0x as the value; the number itself
 * when the text is words ("Kernel Offset: disabled": 0x0).
 */
static void
json_value(const struct kl_finding *f)
{
	char	v[24];
	size_t	i, n;

	if (f->text == NULL || f->textlen == 0 || f->textlen > 16 ||
	    !kl_hex_all(f->text, f->textlen)) {
		snprintf(v, sizeof(v), "0x%" PRIx64, f->value);
		json_cstr(v);
		return;
	}
	v[0] = '0';
	v[1] = 'x';
	n = f->textlen;
	for (i = 0; i < n; i++) {
		v[i + 2] = (char)f->text[i];
		if (v[i + 2] >= 'A' && v[i + 2] <= 'F')
			v[i + 2] = (char)(v[i + 2] - 'A' + 'a');
	}
	json_str(v, n + 2);
}

/* The journal fields of a finding: entry, cursor, realtime, field. */
static void
json_record(const struct kl_record *r)
{
	json_u64("entry", r->entry);
	json_key("cursor");
	json_cstr(r->cursor);
	if (r->realtime != 0)
		json_u64("realtime", r->realtime);
	else {
		json_key("realtime");
		jo_s("null");
	}
	json_key("field");
	json_cstr(r->field);
}

#define CALLSITES_MAX	4	/* call sites given per finding */

/*
 * "callsite": the lines of the kernel source that printed the token,
 * best first (an empty list when none was found).
 */
static void
json_callsites(const struct kl_srcidx_match *r, size_t n)
{
	const struct kl_srcidx	*x = callsite_index();
	struct kl_srcidx_site	 s;
	size_t			 i;

	json_key("callsite");
	jo_c('[');
	for (i = 0; i < n; i++) {
		if (kl_srcidx_site(x, r[i].site, &s) != 0)
			continue;
		jo_s(i > 0 ? ",{\"file\":" : "{\"file\":");
		json_cstr(s.file);
		json_u64("line", s.line);
		json_key("function");
		json_cstr(s.function[0] != '\0' ? s.function : NULL);
		json_key("format");
		json_str(s.format, s.formatlen);
		json_key("conversion");
		json_cstr(r[i].conversion);
		json_bool("exact", s.exact);
		jo_c('}');
	}
	jo_c(']');
}

/* "kernel_source" of the summary: what the index holds and skipped. */
static void
json_srcidx_summary(void)
{
	const struct kl_srcidx		*x = callsite_index();
	const struct kl_srcidx_stats	*st;

	if (x == NULL)
		return;
	st = kl_srcidx_stats(x);
	json_key("kernel_source");
	jo_s("{\"sites\":");
	jo_u64(kl_srcidx_count(x));
	json_u64("files", st->files);
	json_u64("bytes", st->bytes);
	json_u64("formats", st->formats);
	json_bool("cached", st->cached);
	json_u64("printk_index_sites", st->pk_sites);
	json_key("skipped");
	jo_s("{\"binary\":");
	jo_u64(st->skip_binary);
	json_u64("huge", st->skip_huge);
	json_u64("unreadable", st->skip_unreadable);
	json_u64("unterminated", st->skip_unterminated);
	json_u64("macro", st->skip_macro);
	json_u64("long", st->skip_long);
	json_u64("no_key", st->skip_nokey);
	json_u64("printk_index_malformed", st->pk_malformed);
	jo_s("}}");
}

/* The fingerprint of a finding's message template. */
static void
json_fingerprint(const struct kl_finding *f)
{
	struct kl_template	t;

	kl_template_finding(f, verdict_source(f->rule), &t);
	json_key("fingerprint");
	json_cstr(t.fp);
}

/* A finding event. */
static void
json_finding(const struct input *in, const struct kl_finding *f,
    const char *sym, const char *who, const char *why)
{
	json_type("finding");
	json_path(in);
	json_u64("line", f->line);
	json_u64("column", f->column);
	if (f->record != NULL && !f->record->exact) {
		/* Decoded from escapes: no exact stream offset. */
		json_key("offset");
		jo_s("null");
	} else
		json_u64("offset", f->offset);
	if (f->record != NULL)
		json_record(f->record);
	json_key("text");
	json_str(f->text, f->text != NULL ? f->textlen : 0);
	json_key("value");
	json_value(f);
	json_key("arch");
	json_cstr(kl_arch_name(f->arch));
	json_key("region");
	json_cstr(kl_region_name(f->region));
	json_key("severity");
	json_cstr(kl_severity_name(f->severity));
	json_key("confidence");
	json_cstr(kl_confidence_name(f->confidence));
	json_key("symbol");
	json_cstr(sym);
	json_key("rule");
	json_cstr(f->rule);
	json_key("explain");
	json_cstr(f->note);
	json_key("suppressed");
	if (f->suppressed == KL_SUP_NONE)
		jo_s("null");
	else
		json_cstr(kl_suppress_name(f->suppressed));
	json_u64("boot", f->boot);
	json_bool("unhashed", (f->flags & KL_F_UNHASHED) != 0);
	if (f->ltext == NULL || kl_utf8_valid(f->ltext, f->llen)) {
		/* Checked: no second walk in json_str(). */
		json_key("line_text");
		json_utf8(f->ltext, f->ltext != NULL ? f->llen : 0);
	} else {
		json_key("line_bytes");
		json_base64(f->ltext, f->llen);
	}
	json_u64("line_column", f->lcol);
	json_bool("line_cut",
	    (f->flags & (KL_F_HEAD_CUT | KL_F_TAIL_CUT)) != 0);
	json_fingerprint(f);
	if (callsite_index() != NULL) {
		struct kl_srcidx_match	r[CALLSITES_MAX];

		json_callsites(r, callsite_find(f, r, CALLSITES_MAX));
	}
	if (who != NULL) {
		json_key("readable_by");
		json_cstr(who);
		json_key("readable_reason");
		json_cstr(why);
	}
	jo_s("}\n");
	jo_flush();
}

/* Write "key":"0x..." or null. */
static void
json_hex(const char *key, int have, uint64_t v)
{
	json_key(key);
	if (have)
		jo_hex(v);
	else
		jo_s("null");
}

/* A boot event: what the segment discloses about the layout. */
static void
json_boot(const struct input *in, const struct bootrep *r)
{
	const struct kl_boot_verdict *v = &r->v;
	const char	*sep;
	size_t		 i;

	json_type("boot");
	json_path(in);
	json_u64("boot", r->b.boot);
	json_u64("first_line", r->b.first_line);
	json_u64("last_line", r->b.last_line);
	json_key("release");
	json_cstr(r->release[0] != '\0' ? r->release : NULL);
	json_key("arch");
	json_cstr(kl_arch_name(r->b.arch));
	json_key("map");
	json_cstr(r->has_map ? r->map : NULL);
	json_hex("slide", v->has_slide, v->slide);
	json_bool("kaslr_off", v->kaslr_off);
	json_bool("kaslr_failed", v->kaslr_failed);
	json_u64("slide_evidence", v->slide_votes);
	json_u64("slide_conflicts", v->conflicts);
	json_bool("slide_outside_range", v->outside);
	json_hex("phys_offset", v->has_phys_offset, v->phys_offset);
	json_hex("text_base", v->text_base != 0, v->text_base);
	json_bool("text_base_exact", v->text_exact);
	json_key("bases");
	sep = "{";
	for (i = KL_REGION_TEXT; i < KL_REGION_COUNT; i++) {
		if (i == KL_REGION_LAYOUT || i == KL_REGION_KERNEL)
			continue;
		jo_s(sep);
		json_cstr(kl_region_name((enum kl_region)i));
		jo_c(':');
		if (v->disclosed & (1u << i))
			jo_hex(v->base[i]);
		else
			jo_s("null");
		sep = ",";
	}
	jo_s("}");
	json_key("disclosed");
	sep = "[";
	for (i = KL_REGION_TEXT; i < KL_REGION_COUNT; i++) {
		if ((v->disclosed & (1u << i)) == 0)
			continue;
		jo_s(sep);
		json_cstr(kl_region_name((enum kl_region)i));
		sep = ",";
	}
	jo_s(*sep == '[' ? "[]" : "]");
	json_u64("entropy_bits", v->entropy_bits);
	json_key("evidence");
	sep = "[";
	for (i = 0; i < v->nev; i++) {
		jo_s(sep);
		jo_s("{\"line\":");
		jo_u64(v->ev[i].line);
		json_key("kind");
		json_cstr(kl_evidence_name(v->ev[i].kind));
		json_key("region");
		json_cstr(kl_region_name(v->ev[i].region));
		jo_s(",\"value\":");
		jo_hex(v->ev[i].value);
		jo_c('}');
		sep = ",";
	}
	jo_s(*sep == '[' ? "[]" : "]");
	json_u64("evidence_total", v->nev_total);
	jo_s("}\n");
	jo_flush();
}

/* An error event; line 0 is written as null. */
static void
json_error(const struct input *in, uint64_t line, const char *msg)
{
	json_type("error");
	json_path(in);
	if (line != 0)
		json_u64("line", line);
	else {
		json_key("line");
		jo_s("null");
	}
	json_key("message");
	json_cstr(msg);
	jo_s("}\n");
	jo_flush();
}

/* "slides":N,"disclosed":{region:boots,...}: what boot segments gave. */
static void
json_disclosed(uint64_t slides, const uint64_t *disclosed)
{
	const char	*sep = "{";
	size_t		 i;

	json_u64("slides", slides);
	json_key("disclosed");
	for (i = KL_REGION_TEXT; i < KL_REGION_COUNT; i++) {
		if (disclosed[i] == 0)
			continue;
		jo_s(sep);
		json_cstr(kl_region_name((enum kl_region)i));
		jo_c(':');
		jo_u64(disclosed[i]);
		sep = ",";
	}
	jo_s(*sep == '{' ? "{}" : "}");
}

/* The end event of an input, with its counters. */
static void
json_end(const struct input *in, const struct kl_stats *st)
{
	static const struct kl_stats zero;
	uint64_t	nsup;
	size_t		i;

	if (st == NULL)
		st = &zero;
	nsup = 0;
	for (i = 1; i < KL_SUP_COUNT; i++)
		nsup += st->suppressed[i];
	json_type("end");
	json_path(in);
	json_key("skipped");
	jo_s(in->skipped ? "\"binary\"" : "null");
	jo_s(",\"stats\":{");
	jo_s("\"bytes\":");
	jo_u64(st->bytes);
	json_u64("lines", st->lines);
	json_u64("findings", st->findings);
	json_u64("suppressed", nsup);
	json_u64("boots", st->boots);
	json_key("arch");
	json_cstr(kl_arch_name(st->arch));
	json_u64("unhashed", st->unhashed);
	json_disclosed(in->slides, in->disclosed);
	jo_s("}}\n");
	jo_flush();
}

/* The summary event, once at the very end. */
static void
json_summary(const struct totals *t)
{
	const char	*sep;
	size_t		 i;

	json_type("summary");
	json_u64("inputs", t->inputs);
	json_u64("skipped_binary", t->skipped_binary);
	json_u64("errors", t->errors);
	json_u64("bytes", t->bytes);
	json_u64("lines", t->lines);
	json_u64("findings", t->findings);
	json_key("regions");
	sep = "{";
	for (i = 1; i < KL_REGION_COUNT; i++) {
		if (t->region[i] == 0)
			continue;
		jo_s(sep);
		json_cstr(kl_region_name((enum kl_region)i));
		jo_c(':');
		jo_u64(t->region[i]);
		sep = ",";
	}
	jo_s(*sep == '{' ? "{}" : "}");
	json_key("suppressed");
	sep = "{";
	for (i = 1; i < KL_SUP_COUNT; i++) {
		if (t->suppressed[i] == 0)
			continue;
		jo_s(sep);
		json_cstr(kl_suppress_name((enum kl_suppress)i));
		jo_c(':');
		jo_u64(t->suppressed[i]);
		sep = ",";
	}
	jo_s(*sep == '{' ? "{}" : "}");
	json_u64("boots", t->boots);
	json_disclosed(t->slides, t->disclosed);
	/* (a report's summary says "baselined" of its rows instead) */
	if (pj_cli != NULL && pj_cli->baseline != NULL && !pj_cli->report)
		json_u64("baselined_findings", t->baselined);
	json_srcidx_summary();
	if (pj_extra != NULL) {
		/* It writes to stdout itself. */
		jo_flush();
		pj_extra();
	}
	jo_s("}\n");
	jo_flush();
}

/* Members the summary ends with (--report), printed by fn. */
void
print_json_summary_extra(void (*fn)(void))
{
	pj_extra = fn;
}

static const struct printer json_printer = {
	json_begin, json_finding, json_boot, json_error, json_end,
	json_summary
};

/* Set up the JSON Lines printer for cli. */
const struct printer *
print_json_init(const struct cli *cli)
{
	pj_cli = cli;
	return (&json_printer);
}
