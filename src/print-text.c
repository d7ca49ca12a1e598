/*
 * print-text.c - grep-style text reports, -c, -l, -L and --stats.
 *
 *	path:line:col[:offset]: region severity 0xvalue[ [unhashed]]  line
 *	path:line:col[:offset]: suppressed reason 0xvalue  line
 *	path{member}{inner}:line:col: ...		(archive members)
 *	path:CURSOR:FIELD:line:col[:offset]: ...	(journal fields)
 *	path:entryN:FIELD:line:col[:offset]: ...	(journal, no cursor)
 *
 * Everything that came from outside (names, members, cursors, fields,
 * digits, line text) goes through kl_esc_text(), so no control byte or
 * invalid UTF-8 reaches the terminal raw; in names, cursors and fields
 * a brace and a backslash (and in cursors and fields a colon) also get a
 * backslash, so the braces and colons of the location stay unambiguous.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kleakscan.h"

#define SGR_PATH	"\033[35m"
#define SGR_LOC		"\033[32m"
#define SGR_HIGH	"\033[1;31m"
#define SGR_MEDIUM	"\033[33m"
#define SGR_VALUE	"\033[1m"
#define SGR_OFF		"\033[0m"

#define STATS_WIDTH	18

static const struct cli	*pt_cli;
static struct buf	 pt_esc;
static struct buf	 pt_digits;
static struct buf	 pt_name;

/* Write s between an SGR sequence and a reset when color is on. */
static void
put_sgr(const char *sgr, const char *s)
{
	if (pt_cli->use_color)
		printf("%s%s%s", sgr, s, SGR_OFF);
	else
		fputs(s, stdout);
}

/* Write a number in the location color. */
static void
put_loc(uint64_t n)
{
	if (pt_cli->use_color)
		fputs(SGR_LOC, stdout);
	put_u64(n);
	if (pt_cli->use_color)
		fputs(SGR_OFF, stdout);
}

/* Write the escaped name of an input, with its members. */
static void
put_name(const struct input *in)
{
	if (in->disp != NULL)
		put_sgr(SGR_PATH, in->disp);
	else
		put_sgr(SGR_PATH, print_name_esc(&pt_esc, in->name,
		    in->namelen, 0));
}

/* Are names shown for this unit?  Members are, unless -h. */
static int
show_name(const struct input *in)
{
	if (pt_cli->filename >= 0)
		return (pt_cli->filename);
	return (pt_cli->show_names || in->nmembers > 0);
}

/* Write a cursor or field name: escaped, with : \ { } backslashed. */
static void
put_jword(const char *s)
{
	pt_name.len = 0;
	name_append(&pt_name, (const uint8_t *)s, strlen(s), ":{}\\", 0);
	put_sgr(SGR_PATH, pt_name.p);
}

/* Write where a journal field is: CURSOR:FIELD: or entryN:FIELD: */
static void
put_record(const struct kl_record *r)
{
	char	ent[32];

	if (r->cursor != NULL && r->cursor[0] != '\0')
		put_jword(r->cursor);
	else {
		snprintf(ent, sizeof(ent), "entry%" PRIu64, r->entry);
		put_sgr(SGR_PATH, ent);
	}
	putchar(':');
	put_jword(r->field != NULL ? r->field : "");
	putchar(':');
}

/*
 * The value as printed: 0x and the digits lower-cased, escaped; the
 * number itself when the text is words ("Kernel Offset: disabled").
 */
static const char *
value_text(const struct kl_finding *f)
{
	char	*p;
	size_t	 i;

	for (i = 0; f->text != NULL && i < f->textlen; i++)
		if (!isxdigit(f->text[i]))
			break;
	if (f->text == NULL || f->textlen == 0 || i < f->textlen) {
		buf_reserve(&pt_digits, 24);
		snprintf(pt_digits.p, pt_digits.size, "%" PRIx64, f->value);
		pt_digits.len = strlen(pt_digits.p);
	} else {
		buf_reserve(&pt_digits, f->textlen + 1);
		memcpy(pt_digits.p, f->text, f->textlen);
		pt_digits.len = f->textlen;
	}
	p = pt_digits.p;
	for (i = 0; i < pt_digits.len; i++)
		if (p[i] >= 'A' && p[i] <= 'F')
			p[i] = (char)(p[i] - 'A' + 'a');
	return (print_text_esc(&pt_esc, p, pt_digits.len));
}

/* The color of a severity. */
static const char *
severity_sgr(enum kl_severity s)
{
	switch (s) {
	case KL_SEV_HIGH:
		return (SGR_HIGH);
	case KL_SEV_MEDIUM:
		return (SGR_MEDIUM);
	default:
		return (NULL);
	}
}

/* "a b" into dst[0..sz), cut to fit (snprintf's work, without it). */
static void
join2(char *dst, size_t sz, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la > sz - 1)
		la = sz - 1;
	memcpy(dst, a, la);
	if (la < sz - 1)
		dst[la++] = ' ';
	if (lb > sz - 1 - la)
		lb = sz - 1 - la;
	memcpy(dst + la, b, lb);
	dst[la + lb] = '\0';
}

/* Print one finding on one line. */
static void
text_finding(const struct input *in, const struct kl_finding *f,
    const char *sym, const char *who, const char *why)
{
	const char	*sgr;
	char		 what[128];

	if (show_name(in)) {
		put_name(in);
		putchar(':');
	}
	if (f->record != NULL)
		put_record(f->record);
	put_loc(f->line);
	putchar(':');
	put_loc(f->column);
	putchar(':');
	if (pt_cli->byte_offset) {
		/* A journal field decoded from escapes has no exact offset. */
		if (f->record != NULL && !f->record->exact)
			putchar('-');
		else
			put_loc(f->offset);
		putchar(':');
	}
	putchar(' ');
	if (f->suppressed != KL_SUP_NONE) {
		join2(what, sizeof(what), "suppressed",
		    kl_suppress_name(f->suppressed));
		sgr = NULL;
	} else {
		join2(what, sizeof(what), kl_region_name(f->region),
		    kl_severity_name(f->severity));
		sgr = severity_sgr(f->severity);
	}
	if (sgr != NULL)
		put_sgr(sgr, what);
	else
		fputs(what, stdout);
	fputs(" ", stdout);
	if (pt_cli->use_color)
		fputs(SGR_VALUE, stdout);
	fputs("0x", stdout);
	fputs(value_text(f), stdout);
	if (pt_cli->use_color)
		fputs(SGR_OFF, stdout);
	if (sym != NULL) {
		putchar(' ');
		fputs(print_text_esc(&pt_esc, sym, strlen(sym)), stdout);
	}
	if (f->flags & KL_F_UNHASHED)
		fputs(" [unhashed]", stdout);
	if (who != NULL)
		printf(" [%s%s%s]", who, why != NULL ? ": " : "",
		    why != NULL ? why : "");
	fputs("  ", stdout);
	if (f->flags & KL_F_HEAD_CUT)
		fputs("...", stdout);
	if (f->ltext != NULL)
		fputs(print_text_esc(&pt_esc, f->ltext, f->llen), stdout);
	if (f->flags & KL_F_TAIL_CUT)
		fputs("...", stdout);
	putchar('\n');
}

/*
 * --verdict: what one boot segment discloses, in a few lines:
 *
 *   NAME: boot 0, lines 1-808, 6.1.0-57-amd64, x86_64, map FILE
 *     slide: Kernel Offset: 0x4200000 from 0xffffffff81000000 (11 pieces
 *       of evidence: kernel-offset line 808, kallsyms line 357, ...)
 *     disclosed: text 0xffffffff85200000, direct-map 0xffff8880...
 *     KASLR entropy left: 0 bits
 */
static void
text_boot(const struct input *in, const struct bootrep *r)
{
	const struct kl_boot_verdict *v = &r->v;
	const struct kl_arch *a = kl_arch_get(r->b.arch);
	const char	*sep;
	size_t		 i;

	if (!pt_cli->verdict)
		return;
	if (show_name(in) || in->nmembers > 0) {
		put_name(in);
		fputs(": ", stdout);
	}
	printf("boot %u, lines %" PRIu64 "-%" PRIu64 ", %s, %s", r->b.boot,
	    r->b.first_line, r->b.last_line,
	    r->release[0] != '\0' ? print_text_esc(&pt_esc, r->release,
	    strlen(r->release)) : "release unknown",
	    kl_arch_name(r->b.arch));
	if (r->has_map)
		printf(", map %s", print_text_esc(&pt_esc, r->map,
		    strlen(r->map)));
	putchar('\n');
	if (v->has_slide) {
		if (v->kaslr_off)
			printf("  slide: Kernel Offset: disabled");
		else
			printf("  slide: Kernel Offset: 0x%" PRIx64
			    " from 0x%" PRIx64, v->slide, v->text_base -
			    v->slide);
		if (v->slide_votes == 0 && !v->kaslr_off)
			fputs(" (no KASLR: the link address", stdout);
		else
			printf(" (%u piece%s of evidence", v->slide_votes,
			    v->slide_votes == 1 ? "" : "s");
		if (v->conflicts != 0)
			printf(", %u other slide%s disagree", v->conflicts,
			    v->conflicts == 1 ? "" : "s");
		if (v->outside)
			fputs("; the kernel's own statement lies outside the "
			    "modelled range", stdout);
		fputs(")\n", stdout);
	} else
		fputs("  slide: not disclosed\n", stdout);
	fputs("  disclosed:", stdout);
	sep = " ";
	for (i = KL_REGION_TEXT; i < KL_REGION_COUNT; i++) {
		if ((v->disclosed & (1u << i)) == 0)
			continue;
		printf("%s%s %s0x%" PRIx64, sep, kl_region_name(
		    (enum kl_region)i), i == KL_REGION_TEXT &&
		    v->text_exact ? "" : "<= ", v->base[i]);
		sep = ", ";
	}
	if (*sep == ' ')
		fputs(" nothing", stdout);
	putchar('\n');
	if (v->has_phys_offset)
		printf("  direct map: virt = phys + 0x%" PRIx64
		    " (PHYS_OFFSET 0x%" PRIx64 ")\n",
		    v->base[KL_REGION_DIRECT_MAP], v->phys_offset);
	if (v->nev > 0) {
		fputs("  evidence:", stdout);
		for (i = 0; i < v->nev; i++)
			printf("%s%s line %" PRIu64, i == 0 ? " " : ", ",
			    kl_evidence_name(v->ev[i].kind), v->ev[i].line);
		if (v->nev_total > v->nev)
			printf(", and %" PRIu64 " more", v->nev_total - v->nev);
		putchar('\n');
	}
	if (a != NULL && a->kaslr_align != 0)
		printf("  KASLR entropy left: %u bits\n", v->entropy_bits);
}

/* Nothing to print when an input starts. */
static void
text_begin(const struct input *in)
{
	(void)in;
}

/* Errors go to stderr only (log.c). */
static void
text_error(const struct input *in, uint64_t line, const char *msg)
{
	(void)in;
	(void)line;
	(void)msg;
}

/*
 * Print a name for -l or -L.  With -0 it is NUL-ended and raw: the path
 * as it is, each member in braces with only { } \ escaped.
 */
static void
put_listed(const struct input *in)
{
	size_t	i;

	if (pt_cli->null) {
		fwrite(in->name, 1, in->namelen, stdout);
		for (i = 0; i < in->nmembers; i++) {
			putchar('{');
			fputs(print_name_esc(&pt_esc, in->members[i],
			    strlen(in->members[i]), 1), stdout);
			putchar('}');
		}
		putchar('\0');
		return;
	}
	put_name(in);
	putchar('\n');
}

/* At the end of an input: the -c, -l or -L line. */
static void
text_end(const struct input *in, const struct kl_stats *st)
{
	(void)st;
	switch (pt_cli->mode) {
	case MODE_COUNT:
		if (show_name(in)) {
			put_name(in);
			putchar(':');
		}
		printf("%" PRIu64 "\n", in->leaks);
		break;
	case MODE_WITH:
		if (in->leaks > 0)
			put_listed(in);
		break;
	case MODE_WITHOUT:
		if (in->leaks == 0 && in->errors == 0 && !in->skipped)
			put_listed(in);
		break;
	default:
		break;
	}
}

/* Print one --stats row. */
static void
stat_row(const char *indent, const char *name, uint64_t n)
{
	int	w;

	w = STATS_WIDTH - (int)strlen(indent);
	printf("%s%-*s %" PRIu64 "\n", indent, w, name, n);
}

/* The --stats rows of --kernel-source and --printk-index. */
static void
srcidx_stats(void)
{
	const struct kl_srcidx		*x = callsite_index();
	const struct kl_srcidx_stats	*st;

	if (x == NULL)
		return;
	st = kl_srcidx_stats(x);
	stat_row("", "call-sites", kl_srcidx_count(x));
	stat_row("  ", "source-files", st->files);
	stat_row("  ", "formats", st->formats);
	stat_row("  ", "printk-index", st->pk_sites);
	stat_row("  ", "skipped-binary", st->skip_binary);
	stat_row("  ", "skipped-huge", st->skip_huge);
	stat_row("  ", "skipped-unreadable", st->skip_unreadable);
	stat_row("  ", "skipped-unterminated", st->skip_unterminated);
	stat_row("  ", "skipped-macro", st->skip_macro);
	stat_row("  ", "skipped-long", st->skip_long);
	stat_row("  ", "no-key", st->skip_nokey);
	stat_row("  ", "malformed-index-lines", st->pk_malformed);
	stat_row("  ", "cached", (uint64_t)st->cached);
}

/* Print --stats after the results. */
static void
text_summary(const struct totals *t)
{
	size_t		i;
	uint64_t	nsup;

	if (!pt_cli->stats)
		return;
	stat_row("", "inputs", t->inputs);
	if (t->skipped_binary != 0)
		stat_row("  ", "skipped-binary", t->skipped_binary);
	stat_row("", "bytes", t->bytes);
	stat_row("", "lines", t->lines);
	stat_row("", "findings", t->findings);
	for (i = 1; i < KL_REGION_COUNT; i++)
		if (t->region[i] != 0)
			stat_row("  ", kl_region_name((enum kl_region)i),
			    t->region[i]);
	nsup = 0;
	for (i = 1; i < KL_SUP_COUNT; i++)
		nsup += t->suppressed[i];
	stat_row("", "suppressed", nsup);
	for (i = 1; i < KL_SUP_COUNT; i++)
		if (t->suppressed[i] != 0)
			stat_row("  ", kl_suppress_name((enum kl_suppress)i),
			    t->suppressed[i]);
	/* Boot segments, and how many disclose the slide, each region. */
	stat_row("", "boots", t->boots);
	stat_row("  ", "slide", t->slides);
	for (i = KL_REGION_TEXT; i < KL_REGION_COUNT; i++)
		if (t->disclosed[i] != 0)
			stat_row("  ", kl_region_name((enum kl_region)i),
			    t->disclosed[i]);
	if (pt_cli->baseline != NULL)
		stat_row("", "baselined", t->baselined);
	stat_row("", "errors", t->errors);
	srcidx_stats();
}

static const struct printer text_printer = {
	text_begin, text_finding, text_boot, text_error, text_end,
	text_summary
};

/* Set up the text printer for cli. */
const struct printer *
print_text_init(const struct cli *cli)
{
	pt_cli = cli;
	return (&text_printer);
}
