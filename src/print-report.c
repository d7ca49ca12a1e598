/*
 * print-report.c - --report: findings ranked by message template.
 *
 * A printer like the others: each finding of a unit goes to the unit's
 * report (lib/report.c) with its template, region, boot, host and the
 * line as an example; at the end of the unit that report is merged into
 * the run's.  With -j the workers write their units' rows to standard
 * output as text (kl_report_write()), which the parent has pointed at an
 * unlinked temporary file before the workers started; at the end the
 * parent reads them back in input order (kl_report_read()), so the rows
 * are those of -j 1.  At the summary the rows are ranked, marked against
 * --baseline, and printed: an aligned table (text), one "template" event
 * each and the summary (--json), or SARIF (--sarif, print-sarif.c).
 *
 * The table fits the width of the terminal: COLUMNS when set, else the
 * terminal's width when standard output is one; in a pipe or a file
 * (COLUMNS unset) nothing is cut, as ripgrep and ls do.  Each row has a
 * line of columns (the template, cut with "..." to fit a terminal) and
 * indented lines of details.  Addresses in examples are masked
 * (kl_mask_addr()) unless --show-addresses.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "merge.h"

#define REPORT_CALLSITES	4	/* call sites given per row */

#define WIDTH_WHOLE	((size_t)1 << 30)	/* not a terminal: no cut */
#define WIDTH_MIN	40
#define WIDTH_MAX	4096
#define TS_MAX		48

static struct {
	const struct cli	*cli;
	const struct printer	*json;		/* the JSON summary */
	struct kl_report	*all;		/* the run */
	struct kl_report	*cur;		/* the unit */
	int			 capture;	/* -j: rows via a file */
	int			 tmp;		/* that file */
	int			 saved;		/* the real stdout */
	char			*jhost;		/* _HOSTNAME of the entry */
	struct buf		 esc;
	struct buf		 name;
	uint64_t		 baselined;	/* rows of the baseline */
	uint64_t		 fresh;		/* rows not in it */
	int			 done;		/* rows ranked and marked */
	int			 leaked;	/* a leak was found */
	struct mstate		*merged;	/* --merge: what the reports
						   say */
} rp;

/* Give up on the report: out of memory. */
static _Noreturn void
no_memory(void)
{
	log_fatal("out of memory");
}

/* The unit begins: its report is empty. */
static void
rp_begin(const struct input *in)
{
	(void)in;
	kl_report_clear(rp.cur);
	free(rp.jhost);
	rp.jhost = NULL;
}

/* The journal entry being scanned: its _HOSTNAME is the host. */
void
report_entry(const struct kl_jentry *e)
{
	size_t	i;

	free(rp.jhost);
	rp.jhost = NULL;
	for (i = 0; i < e->nfields; i++)
		if (strcmp(e->fields[i].name, "_HOSTNAME") == 0 &&
		    e->fields[i].len > 0 && e->fields[i].len < 256 &&
		    memchr(e->fields[i].data, '\0', e->fields[i].len) == NULL) {
			rp.jhost = xmalloc(e->fields[i].len + 1);
			memcpy(rp.jhost, e->fields[i].data, e->fields[i].len);
			rp.jhost[e->fields[i].len] = '\0';
			return;
		}
}

/* The time of a finding's line as the log gives it, or NULL. */
static const char *
when(const struct kl_finding *f, char *ts, size_t hostoff)
{
	struct kl_frame	fr;
	struct tm	tm;
	time_t		t;
	size_t		n;

	if (f->record != NULL && f->record->realtime != 0) {
		t = (time_t)(f->record->realtime / 1000000);
		if (gmtime_r(&t, &tm) == NULL)
			return (NULL);
		n = strftime(ts, TS_MAX, "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(ts + n, TS_MAX - n, ".%06" PRIu64 "Z",
		    f->record->realtime % 1000000);
		return (ts);
	}
	if (f->ltext == NULL || f->lmsg == 0 || (f->flags & KL_F_HEAD_CUT))
		return (NULL);
	kl_frame_line(f->ltext, f->lmsg, KL_LINE_PLAIN, KL_FORMAT_AUTO, &fr);
	if (fr.has_ts) {
		snprintf(ts, TS_MAX, "%" PRIu64 ".%06" PRIu64,
		    fr.ts_us / 1000000, fr.ts_us % 1000000);
		return (ts);
	}
	/* A syslog date: the prefix before the host. */
	n = hostoff;
	while (n > 0 && (f->ltext[n - 1] == ' ' || f->ltext[n - 1] == '\t'))
		n--;
	if (n == 0 || n >= TS_MAX)
		return (NULL);
	memcpy(ts, f->ltext, n);
	ts[n] = '\0';
	if (memchr(ts, '\0', n) != NULL || !kl_utf8_valid((uint8_t *)ts, n))
		return (NULL);
	return (ts);
}

/* A finding: counted in its template's row of the unit. */
static void
rp_finding(const struct input *in, const struct kl_finding *f,
    const char *sym, const char *who, const char *why)
{
	const struct kl_leak_entry	*src;
	struct kl_template		 t;
	struct kl_report_occ		 o;
	char				 host[256], ts[TS_MAX];
	size_t				 off = 0, len = 0;

	(void)sym;
	(void)who;
	(void)why;
	if (f->suppressed != KL_SUP_NONE)
		return;
	src = verdict_source(f->rule);
	kl_template_finding(f, src, &t);
	memset(&o, 0, sizeof(o));
	o.t = &t;
	o.region = f->region;
	o.severity = f->severity;
	o.arch = f->arch;
	o.boot = f->boot;
	o.unhashed = (f->flags & KL_F_UNHASHED) != 0;
	o.host = in->name;
	if (f->ltext != NULL && f->lmsg > 0 && !(f->flags & KL_F_HEAD_CUT) &&
	    kl_template_host(f->ltext, f->lmsg, &off, &len) && len <
	    sizeof(host)) {
		memcpy(host, f->ltext + off, len);
		host[len] = '\0';
		o.host = host;
	} else if (rp.jhost != NULL)
		o.host = rp.jhost;
	o.path = in->name;
	o.members = in->members;
	o.nmembers = in->nmembers;
	o.line = f->line;
	o.ts = when(f, ts, len > 0 ? off : 0);
	o.text = f->ltext;
	o.textlen = f->ltext != NULL ? f->llen : 0;
	o.ord = shard_place();
	if (src != NULL) {
		o.source = src->id;
		o.fixed = src->fixed;
	}
	if (kl_report_add(rp.cur, &o) == -1)
		no_memory();
}

/* A boot segment ended: the release of its banner goes to its rows. */
static void
rp_boot(const struct input *in, const struct bootrep *r)
{
	(void)in;
	if (kl_report_boot(rp.cur, r->b.boot, r->release) == -1)
		no_memory();
}

/* Errors go to stderr only. */
static void
rp_error(const struct input *in, uint64_t line, const char *msg)
{
	(void)in;
	(void)line;
	(void)msg;
}

/* Write bytes to stdout (kl_report_write()). */
static int
out_bytes(void *arg, const void *p, size_t n)
{
	(void)arg;
	return (fwrite(p, 1, n, stdout) == n ? 0 : -1);
}

/* The unit ended: its rows go to the run, or to the parent. */
static void
rp_end(const struct input *in, const struct kl_stats *st)
{
	(void)in;
	(void)st;
	if (rp.capture) {
		if (kl_report_write(rp.cur, out_bytes, NULL) == -1)
			out_check();
	} else if (kl_report_merge(rp.all, rp.cur) == -1)
		no_memory();
	kl_report_clear(rp.cur);
}

/*
 * -j: point standard output at an unlinked temporary file before the
 * workers start, so that their rows come back in input order.
 */
void
report_jobs(void)
{
	char	path[4096];
	const char *dir;

	if ((dir = getenv("TMPDIR")) == NULL || dir[0] == '\0')
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/kleakscan-report.XXXXXX", dir);
	if ((rp.tmp = mkstemp(path)) == -1)
		log_fatal("cannot make a temporary file in %s: %s", dir,
		    strerror(errno));
	(void)unlink(path);
	if (fflush(stdout) == EOF || (rp.saved = dup(STDOUT_FILENO)) == -1 ||
	    dup2(rp.tmp, STDOUT_FILENO) == -1)
		log_fatal("cannot redirect the workers' output: %s",
		    strerror(errno));
	rp.capture = 1;
}

/* -j, in the parent: read the workers' rows back, restore stdout. */
static void
collect(void)
{
	struct kl_error	 err;
	struct kl_report *one;
	FILE		*f;
	char		*line = NULL;
	size_t		 cap = 0, given = 0;
	ssize_t		 n;
	uint64_t	 no = 0, ord = 0;

	if (fflush(stdout) == EOF || dup2(rp.saved, STDOUT_FILENO) == -1)
		log_fatal("cannot restore standard output: %s",
		    strerror(errno));
	close(rp.saved);
	rp.capture = 0;
	if (lseek(rp.tmp, 0, SEEK_SET) == -1 ||
	    (f = fdopen(rp.tmp, "r")) == NULL)
		log_fatal("cannot read the workers' rows: %s",
		    strerror(errno));
	if ((one = kl_report_new()) == NULL)
		no_memory();
	while ((n = getline(&line, &cap, f)) > 0) {
		no++;
		if (line[n - 1] == '\n')
			n--;
		/* The next input's rows: its place in the listing. */
		if (n == 1 && line[0] == 'I') {
			ord = shard_given(given++);
			continue;
		}
		memset(&err, 0, sizeof(err));
		kl_report_clear(one);
		if (kl_report_read(one, (uint8_t *)line, (size_t)n,
		    &err) == -1)
			log_fatal("a worker's row %" PRIu64 ": %s", no,
			    err.msg);
		if (kl_report_count(one) == 1) {
			kl_report_rows(one)[0]->first.ord = ord;
			kl_report_rows(one)[0]->last.ord = ord;
		}
		if (kl_report_merge(rp.all, one) == -1)
			no_memory();
	}
	kl_report_free(one);
	if (ferror(f))
		log_fatal("cannot read the workers' rows: %s",
		    strerror(errno));
	free(line);
	fclose(f);
}

/* The width of the table: COLUMNS, the terminal's, or no limit. */
static size_t
width(void)
{
	struct winsize	 ws;
	const char	*c;
	char		*end;
	long		 v;

	if ((c = getenv("COLUMNS")) != NULL && *c != '\0') {
		errno = 0;
		v = strtol(c, &end, 10);
		if (errno == 0 && *end == '\0' && v > 0)
			return (v < WIDTH_MIN ? WIDTH_MIN : v > WIDTH_MAX ?
			    WIDTH_MAX : (size_t)v);
	}
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0 && ws.ws_col > 0)
		return (ws.ws_col < WIDTH_MIN ? WIDTH_MIN : ws.ws_col);
	return (WIDTH_WHOLE);
}

/* The text of a mask of regions: "text,direct-map". */
static void
regions_text(char *b, size_t size, unsigned mask)
{
	size_t	i, n = 0;

	b[0] = '\0';
	for (i = 0; i < KL_REGION_COUNT && n < size; i++)
		if (mask & (1u << i))
			n += (size_t)snprintf(b + n, size - n, "%s%s",
			    n > 0 ? "," : "",
			    kl_region_name((enum kl_region)i));
}

/* The text of a mask of architectures. */
static void
arches_text(char *b, size_t size, uint32_t mask)
{
	size_t	i, n = 0;

	b[0] = '\0';
	for (i = 0; i < KL_ARCH_COUNT && i < 32 && n < size; i++)
		if (mask & (UINT32_C(1) << i))
			n += (size_t)snprintf(b + n, size - n, "%s%s",
			    n > 0 ? "," : "", kl_arch_name((enum kl_arch_id)i));
}

/*
 * Print s cut to fit w columns (s is escaped: one byte, one column, but
 * the bytes of a UTF-8 character stay together).
 */
static void
fit(const char *s, size_t w)
{
	size_t	n = strlen(s), k;

	if (n <= w) {
		fputs(s, stdout);
		return;
	}
	k = w > 3 ? w - 3 : w;
	while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	printf("%.*s%s", (int)k, s, w > 3 ? "..." : "");
}

/* Print a detail line: indent, then the text cut to the width. */
static void
detail(size_t w, const char *fmt, ...) KL_PRINTFLIKE(2, 3);
/* Format a detail line, indent it by six and print it cut to w. */
static void
detail(size_t w, const char *fmt, ...)
{
	va_list	ap;
	char	b[8192];

	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	fputs("      ", stdout);
	fit(b, w > 6 ? w - 6 : 0);
	putchar('\n');
}

/* Print an example as a detail line. */
static void
text_example(size_t w, const char *what, const struct kl_report_ex *e)
{
	struct buf	t = { NULL, 0, 0 };
	const uint8_t	*p;
	char		*name;

	if (e->path == NULL)
		return;
	name = xstrdup(print_unit_name(&rp.name, e->path, strlen(e->path),
	    (const char *const *)e->members, e->nmembers));
	p = report_example_text(e, &t);
	detail(w, "%s %s:%" PRIu64 "%s%s%s %s%s", what, name, e->line,
	    e->ts != NULL ? " [" : "", e->ts != NULL ? e->ts : "",
	    e->ts != NULL ? "]" : "", print_text_esc(&rp.esc, p, t.len),
	    e->cut ? "..." : "");
	free(name);
	buf_free(&t);
}

/*
 * The fix state of a row as a detail line (none when unknown); a row
 * without a call site (sited 0) says here that it has none.
 */
static void
text_fix_state(size_t w, const struct kl_report_row *r, int sited)
{
	const struct kl_srcidx	*x = callsite_newest();
	const char		*name = callsite_newest_name();
	struct kl_srcidx_match	 m;
	struct kl_srcidx_site	 s;
	enum fixstate		 st;
	char			*file, *func;

	if (x == NULL)
		return;
	name = xstrdup(print_text_esc(&rp.esc, name, strlen(name)));
	st = callsite_fix_state(r, &m);
	if (!sited)
		detail(w, st == FIX_GONE && x == callsite_index() ?
		    "callsite none: the message is gone from %s" :
		    "callsite unknown", name);
	if (st == FIX_GONE)
		detail(w, "fix_state gone from %s", name);
	else if ((st == FIX_OPEN || st == FIX_FIXED) &&
	    kl_srcidx_site(x, m.site, &s) == 0) {
		file = xstrdup(print_text_esc(&rp.esc, s.file,
		    strlen(s.file)));
		func = xstrdup(print_text_esc(&rp.esc, s.function,
		    strlen(s.function)));
		detail(w, "fix_state %s in %s: %s:%" PRIu64 " %s %s",
		    callsite_fix_name(st), name, file, s.line,
		    func[0] != '\0' ? func : "?", print_text_esc(&rp.esc,
		    m.conversion, strlen(m.conversion)));
		free(file);
		free(func);
	}
	free((char *)name);
}

/* The recipients of a role (to: maintainers, else the others). */
static void
who_text(char *b, size_t size, const struct kl_maint_list *l, int to)
{
	size_t	i, n = 0;

	b[0] = '\0';
	for (i = 0; l != NULL && i < l->n && n < size; i++)
		if ((l->who[i].role == KL_MAINT_MAINTAINER) == to)
			n += (size_t)snprintf(b + n, size - n, "%s%s",
			    n > 0 ? ", " : "", l->who[i].addr);
}

/* --fix-dir: a row's patch or why it has none, and its recipients. */
static void
text_fix(size_t w, const struct kl_report_row *r)
{
	const struct rowfix	*rf = fix_row(r);
	const struct kl_maint_list *l;
	char			 to[1024], cc[2048], *t;

	if (rf == NULL || rf->state == FIXR_NONE)
		return;
	if (rf->state == FIXR_PATCH)
		detail(w, "fix %s", print_text_esc(&rp.esc,
		    fix_patch_name(rf), strlen(fix_patch_name(rf))));
	else
		detail(w, "fix none: %s", print_text_esc(&rp.esc, rf->why,
		    strlen(rf->why)));
	if ((l = fix_who(rf)) != NULL && l->n > 0) {
		who_text(to, sizeof(to), l, 1);
		who_text(cc, sizeof(cc), l, 0);
		t = xstrdup(print_text_esc(&rp.esc, to, strlen(to)));
		detail(w, "to %s; cc %s", t[0] != '\0' ? t : "-",
		    print_text_esc(&rp.esc, cc, strlen(cc)));
		free(t);
	}
}

/*
 * The call sites of a row as detail lines: the best one, its function
 * and conversion, and how many others matched; then each other site
 * printing the same format, with the reason the first was preferred.
 */
static void
text_callsite(size_t w, const struct kl_report_row *r)
{
	const struct kl_srcidx	*x = callsite_index();
	struct kl_srcidx_match	 m[REPORT_CALLSITES];
	struct kl_srcidx_site	 s;
	char			*file, *func;
	size_t			 n, i;

	if (x == NULL)
		return;
	n = callsite_row(r, m, REPORT_CALLSITES);
	for (i = 0; i < n; i++) {
		if (kl_srcidx_site(x, m[i].site, &s) != 0)
			break;
		if (i > 0 && !callsite_same_format(&m[0], &m[i]))
			continue;
		file = xstrdup(print_text_esc(&rp.esc, s.file,
		    strlen(s.file)));
		func = xstrdup(print_text_esc(&rp.esc, s.function,
		    strlen(s.function)));
		if (i == 0)
			detail(w, "callsite %s:%" PRIu64 " %s%s%s%s", file,
			    s.line, func[0] != '\0' ? func : "?",
			    m[0].conversion[0] != '\0' ? " " : "",
			    print_text_esc(&rp.esc, m[0].conversion,
			    strlen(m[0].conversion)), n > 1 ?
			    " (and other candidates)" : "");
		else
			detail(w, "same format at %s:%" PRIu64 " %s; the "
			    "first preferred: %s", file, s.line,
			    func[0] != '\0' ? func : "?",
			    callsite_why(&m[0], &m[i]));
		free(file);
		free(func);
	}
	text_fix_state(w, r, i > 0);
	text_fix(w, r);
}

/* The number of decimal digits of v. */
static int
digits(uint64_t v)
{
	int	n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return (n);
}

/* Print the rows as an aligned table. */
static void
text_rows(struct kl_report_row **row, size_t n, const struct totals *tot)
{
	const struct kl_report_row *r;
	size_t	w = width(), i, used;
	int	wr, wc, wi, wb, wh;
	char	regs[256], arch[512], rel[1024];
	size_t	k, m;

	wr = digits(n) < 1 ? 1 : digits(n);
	wc = 5, wi = 6, wb = 5, wh = 5;
	for (i = 0; i < n; i++) {
		r = row[i];
		wc = digits(r->count) > wc ? digits(r->count) : wc;
		wi = digits(r->inputs) > wi ? digits(r->inputs) : wi;
		wb = digits(r->boots) > wb ? digits(r->boots) : wb;
		wh = digits(r->hosts.n) > wh ? digits(r->hosts.n) : wh;
	}
	used = (size_t)printf("%*s %-11s %-6s %*s %*s %*s %*s %-16s ", wr,
	    "#", "CLASS", "SEV", wc, "COUNT", wi, "INPUTS", wb, "BOOTS", wh,
	    "HOSTS", "FINGERPRINT");
	fit("TEMPLATE", w > used ? w - used : 0);
	putchar('\n');
	for (i = 0; i < n; i++) {
		r = row[i];
		used = (size_t)printf("%*zu %-11s %-6s %*" PRIu64 " %*" PRIu64
		    " %*" PRIu64 " %*zu %-16s ", wr, i + 1,
		    kl_tclass_name(r->t.tclass), kl_severity_name(r->severity),
		    wc, r->count, wi, r->inputs, wb, r->boots, wh, r->hosts.n,
		    r->t.fp);
		fit(print_text_esc(&rp.esc, r->t.text, r->t.len),
		    w > used ? w - used : 0);
		putchar('\n');
		regions_text(regs, sizeof(regs), r->regions);
		arches_text(arch, sizeof(arch), r->arches);
		rel[0] = '\0';
		for (k = 0, m = 0; k < r->releases.n && m < sizeof(rel); k++)
			m += (size_t)snprintf(rel + m, sizeof(rel) - m, "%s%s",
			    k > 0 ? "," : "", print_text_esc(&rp.esc,
			    r->releases.v[k], strlen(r->releases.v[k])));
		detail(w, "regions %s; arches %s; releases %s", regs,
		    arch[0] != '\0' ? arch : "unknown",
		    rel[0] != '\0' ? rel : "unknown");
		if (r->source != NULL)
			detail(w, "source %s (fixed in %s); likely %s%s",
			    r->source, r->fixed != NULL ? r->fixed : "-",
			    report_conversion(r),
			    r->baselined ? "; baselined" : "");
		else
			detail(w, "likely %s%s", report_conversion(r),
			    r->baselined ? "; baselined" : "");
		text_callsite(w, r);
		text_example(w, "first", &r->first);
		text_example(w, "last ", &r->last);
	}
	printf("%zu templates", kl_report_count(rp.all));
	if (n < kl_report_count(rp.all))
		printf(" (%zu shown)", n);
	printf(", %" PRIu64 " findings, %" PRIu64 " inputs", tot->findings,
	    tot->inputs);
	if (rp.cli->baseline != NULL)
		printf("; %" PRIu64 " baselined, %" PRIu64 " new",
		    rp.baselined, rp.fresh);
	putchar('\n');
}

/* Write a JSON array of strings. */
static void
jset(const struct kl_strset *s)
{
	size_t	i;

	putchar('[');
	for (i = 0; i < s->n; i++) {
		if (i > 0)
			putchar(',');
		report_json_cstr(s->v[i]);
	}
	putchar(']');
}

/*
 * The call sites of a row, best first: null without --kernel-source or
 * --printk-index, else a list (empty when none matched).
 */
static void
json_callsite(const struct kl_report_row *r)
{
	const struct kl_srcidx	*x = callsite_index();
	struct kl_srcidx_match	 m[REPORT_CALLSITES];
	struct kl_srcidx_site	 s;
	size_t			 i, n;

	if (x == NULL) {
		fputs("null", stdout);
		return;
	}
	n = callsite_row(r, m, REPORT_CALLSITES);
	putchar('[');
	for (i = 0; i < n; i++) {
		if (kl_srcidx_site(x, m[i].site, &s) != 0)
			continue;
		fputs(i > 0 ? ",{\"file\":" : "{\"file\":", stdout);
		report_json_cstr(s.file);
		printf(",\"line\":%" PRIu64 ",\"function\":", s.line);
		report_json_cstr(s.function[0] != '\0' ? s.function : NULL);
		fputs(",\"format\":", stdout);
		report_json_str(s.format, s.formatlen);
		fputs(",\"conversion\":", stdout);
		report_json_cstr(m[i].conversion);
		printf(",\"exact\":%s,\"same_format\":%s,\"reason\":",
		    s.exact ? "true" : "false", i > 0 &&
		    callsite_same_format(&m[0], &m[i]) ? "true" : "false");
		report_json_cstr(i > 0 ? callsite_why(&m[0], &m[i]) : NULL);
		putchar('}');
	}
	putchar(']');
}

/* A JSON array of the recipients of a role (to: maintainers). */
static void
json_who(const struct kl_maint_list *l, int to)
{
	size_t	i, n = 0;

	putchar('[');
	for (i = 0; l != NULL && i < l->n; i++)
		if ((l->who[i].role == KL_MAINT_MAINTAINER) == to) {
			if (n++ > 0)
				putchar(',');
			report_json_cstr(l->who[i].addr);
		}
	putchar(']');
}

/*
 * "fix" of a row: null without --fix-dir or a call site, else its
 * "patch" (the file's name, or null), the "reason" there is none, and
 * the "to" and "cc" of the call site's file.
 */
static void
json_fix(const struct kl_report_row *r)
{
	const struct rowfix	*rf = fix_row(r);

	fputs(",\"fix\":", stdout);
	if (rf == NULL || rf->state == FIXR_NONE) {
		fputs("null", stdout);
		return;
	}
	printf("{\"kind\":\"%s\",\"patch\":", fix_kind(rf));
	report_json_cstr(fix_patch_name(rf));
	fputs(",\"reason\":", stdout);
	report_json_cstr(rf->state == FIXR_PATCH ? NULL : rf->why);
	fputs(",\"to\":", stdout);
	json_who(fix_who(rf), 1);
	fputs(",\"cc\":", stdout);
	json_who(fix_who(rf), 0);
	putchar('}');
}

/* Write the regions of a mask as a JSON array. */
static void
jregions(unsigned mask)
{
	size_t	i;
	int	first = 1;

	putchar('[');
	for (i = 0; i < KL_REGION_COUNT; i++)
		if (mask & (1u << i)) {
			printf("%s\"%s\"", first ? "" : ",",
			    kl_region_name((enum kl_region)i));
			first = 0;
		}
	putchar(']');
}

/* Write the architectures of a mask as a JSON array. */
static void
jarches(uint32_t mask)
{
	size_t	i;
	int	first = 1;

	putchar('[');
	for (i = 0; i < KL_ARCH_COUNT && i < 32; i++)
		if (mask & (UINT32_C(1) << i)) {
			printf("%s\"%s\"", first ? "" : ",",
			    kl_arch_name((enum kl_arch_id)i));
			first = 0;
		}
	putchar(']');
}

/* One "template" event per row. */
static void
json_rows(struct kl_report_row **row, size_t n)
{
	const struct kl_report_row *r;
	size_t	i;

	for (i = 0; i < n; i++) {
		r = row[i];
		printf("{\"type\":\"template\",\"rank\":%zu,\"template\":",
		    i + 1);
		report_json_str(r->t.text, r->t.len);
		printf(",\"fingerprint\":\"%s\",\"class\":\"%s\","
		    "\"severity\":\"%s\",\"count\":%" PRIu64 ",\"inputs\":%"
		    PRIu64 ",\"boots\":%" PRIu64 ",\"hosts\":%zu,"
		    "\"host_names\":", r->t.fp, kl_tclass_name(r->t.tclass),
		    kl_severity_name(r->severity), r->count, r->inputs,
		    r->boots, r->hosts.n);
		jset(&r->hosts);
		fputs(",\"regions\":", stdout);
		jregions(r->regions);
		fputs(",\"arches\":", stdout);
		jarches(r->arches);
		fputs(",\"releases\":", stdout);
		jset(&r->releases);
		fputs(",\"source\":", stdout);
		report_json_cstr(r->source);
		fputs(",\"fixed\":", stdout);
		report_json_cstr(r->fixed);
		fputs(",\"conversion\":", stdout);
		report_json_cstr(report_conversion(r));
		printf(",\"baselined\":%s,\"examples\":[",
		    r->baselined ? "true" : "false");
		report_json_example(&r->first);
		putchar(',');
		report_json_example(&r->last);
		fputs("],\"callsite\":", stdout);
		json_callsite(r);
		report_fix_state(r, report_json_cstr);
		json_fix(r);
		fputs("}\n", stdout);
	}
}

/* The members the JSON summary gains with --report. */
static void
json_summary_extra(void)
{
	printf(",\"templates\":%zu", kl_report_count(rp.all));
	if (rp.cli->baseline != NULL)
		printf(",\"baselined\":%" PRIu64 ",\"new\":%" PRIu64,
		    rp.baselined, rp.fresh);
}

/* Rank the rows and mark the baselined ones, once. */
static struct kl_report_row **
ranked(void)
{
	struct kl_report_row	**row;
	size_t			  i, n;

	row = kl_report_rows(rp.all);
	if (rp.done)
		return (row);
	n = kl_report_count(rp.all);
	for (i = 0; i < n; i++) {
		row[i]->baselined = rp.cli->baseline != NULL &&
		    baseline_has(row[i]->t.fp);
		if (row[i]->baselined)
			rp.baselined++;
		else
			rp.fresh++;
	}
	rp.done = 1;
	return (row);
}

/* The summary: print the report. */
static void
rp_summary(const struct totals *t)
{
	struct kl_report_row	**row;
	size_t			  n;

	if (rp.capture)
		collect();
	row = ranked();
	n = kl_report_count(rp.all);
	if (rp.cli->top != 0 && rp.cli->top < n)
		n = rp.cli->top;
	fix_rows(row, n);
	if (rp.cli->sarif)
		sarif_print(rp.cli, row, n, t);
	else if (rp.cli->json) {
		json_rows(row, n);
		merge_state_print(rp.cli, rp.all, t, log_errors(),
		    rp.leaked, rp.merged);
		print_json_summary_extra(json_summary_extra);
		rp.json->summary(t);
	} else
		text_rows(row, n, t);
}

/* Templates new to the baseline (all of them without one). */
uint64_t
report_new(void)
{
	(void)ranked();
	return (rp.fresh);
}

/* -j, in a worker: the rows of the next input follow (collect()). */
void
report_input_mark(void)
{
	if (rp.capture && fputs("I\n", stdout) == EOF)
		out_check();
}

/*
 * --merge: the rows of b join the run's, in no order; merged is what the
 * merged reports say (their merge state).
 */
void
report_adopt(const struct kl_report *b, struct mstate *merged)
{
	if (kl_report_merge_any(rp.all, b) == -1)
		no_memory();
	rp.merged = merged;
}

/* Was a leak found in this run (its merge state, at the summary)? */
void
report_leaked(int leaked)
{
	rp.leaked = leaked;
}

static const struct printer report_printer = {
	rp_begin, rp_finding, rp_boot, rp_error, rp_end, rp_summary
};

/* Set up the report printer for cli. */
const struct printer *
print_report_init(const struct cli *cli)
{
	rp.cli = cli;
	report_row_init(cli->show_addresses);
	rp.json = print_json_init(cli);
	rp.tmp = -1;
	rp.saved = -1;
	if ((rp.all = kl_report_new()) == NULL ||
	    (rp.cur = kl_report_new()) == NULL)
		no_memory();
	if (cli->baseline != NULL)
		baseline_load(cli->baseline);
	fix_init(cli);
	return (&report_printer);
}
