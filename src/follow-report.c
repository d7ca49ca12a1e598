/*
 * follow-report.c - --follow --report: the report printer (print-report.c)
 * behind a gate that bounds what the report keeps for months of records.
 *
 * The first FR_TEMPLATES templates get rows of their own; the findings
 * of later templates, and those of lines naming a host that their row
 * does not name yet once FR_PAIRS (template, host) pairs are named, are
 * counted in one row, "(other templates)"; kernel releases past the
 * first FR_RELEASES are not named.  A row holds two examples, and its
 * hosts and releases come from bounded sets, so the report stays bounded
 * (a few MB at most) whatever the log says.  The journal's _HOSTNAME,
 * which only journald writes, is not bounded.  With --json a template's
 * first finding is printed at once as a "template" event with "new":
 * true (its fingerprint, class, severity and the example, masked unless
 * --show-addresses), so that an alert can fire on it; the ranked rows
 * and the summary come at the end, as without --follow.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleakscan.h"

#define FR_TEMPLATES	1024	/* templates with a row of their own */
#define FR_PAIRS	8192	/* (template, host) pairs: hosts in rows */
#define FR_RELEASES	16	/* kernel releases named */
#define FR_HOST_MAX	256	/* longer host names are not names */

/* A set of 64-bit hashes, at most max of them (open addressing). */
struct hset {
	uint64_t	*v;		/* 0: empty */
	size_t		 n;
	size_t		 size;		/* slots: a power of two */
};

static struct {
	const struct cli	*cli;
	const struct printer	*rp;		/* the report printer */
	struct hset		 tpl;
	struct hset		 pairs;
	struct hset		 releases;
	struct kl_template	 otpl;		/* the row of the others */
	struct kl_report	*others;
} fr;

/* Make a set for max hashes. */
static void
hset_init(struct hset *s, size_t max)
{
	s->size = 16;
	while (s->size < 2 * max)
		s->size *= 2;
	s->v = xreallocarray(NULL, s->size, sizeof(*s->v));
	memset(s->v, 0, s->size * sizeof(*s->v));
	s->n = 0;
}

/* Is h in s (1); else added (0), or not when s has max already (-1). */
static int
hset_add(struct hset *s, uint64_t h, size_t max)
{
	size_t	i;

	if (h == 0)
		h = 1;
	for (i = (size_t)h & (s->size - 1); s->v[i] != 0;
	    i = (i + 1) & (s->size - 1))
		if (s->v[i] == h)
			return (1);
	if (s->n >= max)
		return (-1);
	s->v[i] = h;
	s->n++;
	return (0);
}

/* Take h out of s again (it was just added: nothing moved past it). */
static void
hset_del(struct hset *s, uint64_t h)
{
	size_t	i;

	if (h == 0)
		h = 1;
	for (i = (size_t)h & (s->size - 1); s->v[i] != h;
	    i = (i + 1) & (s->size - 1))
		;
	s->v[i] = 0;
	s->n--;
}

/* The first finding of a template: a "template" event, "new": true. */
static void
new_event(const struct input *in, const struct kl_finding *f,
    const struct kl_template *t)
{
	const struct kl_leak_entry	*src = verdict_source(f->rule);
	struct kl_report_ex		 e;

	fputs("{\"type\":\"template\",\"new\":true,\"template\":", stdout);
	report_json_str(t->text, t->len);
	printf(",\"fingerprint\":\"%s\",\"class\":\"%s\",\"severity\":\"%s\""
	    ",\"region\":\"%s\",\"arch\":\"%s\",\"rule\":", t->fp,
	    kl_tclass_name(t->tclass), kl_severity_name(f->severity),
	    kl_region_name(f->region), kl_arch_name(f->arch));
	report_json_cstr(f->rule);
	fputs(",\"source\":", stdout);
	report_json_cstr(src != NULL ? src->id : NULL);
	printf(",\"templates\":%zu,\"example\":", fr.tpl.n);
	memset(&e, 0, sizeof(e));
	e.path = (char *)(uintptr_t)in->name;
	e.members = (char **)(uintptr_t)in->members;
	e.nmembers = in->nmembers;
	e.line = f->line;
	e.text = (uint8_t *)(uintptr_t)f->ltext;
	e.textlen = f->ltext != NULL ? f->llen : 0;
	e.cut = (f->flags & (KL_F_HEAD_CUT | KL_F_TAIL_CUT)) != 0;
	report_json_example(&e);
	fputs("}\n", stdout);
}

/* A finding no row may take: counted in the row of the others. */
static void
other(const struct input *in, const struct kl_finding *f)
{
	struct kl_report_occ	o;

	memset(&o, 0, sizeof(o));
	o.t = &fr.otpl;
	o.region = f->region;
	o.severity = f->severity;
	o.arch = f->arch;
	o.boot = f->boot;
	o.unhashed = (f->flags & KL_F_UNHASHED) != 0;
	o.host = in->name;
	o.path = in->name;
	o.members = in->members;
	o.nmembers = in->nmembers;
	o.line = f->line;
	o.text = f->ltext;
	o.textlen = f->ltext != NULL ? f->llen : 0;
	o.ord = shard_place();
	if (kl_report_add(fr.others, &o) == -1)
		log_fatal("out of memory");
}

/* A finding: to its row while rows and hosts last, else to the others. */
static void
fr_finding(const struct input *in, const struct kl_finding *f,
    const char *sym, const char *who, const char *why)
{
	struct kl_template	t;
	size_t			off = 0, len = 0;
	int			k;

	if (f->suppressed != KL_SUP_NONE)
		return;
	kl_template_finding(f, verdict_source(f->rule), &t);
	k = hset_add(&fr.tpl, t.hash, FR_TEMPLATES);
	/* A host named in the line (as the report takes it) in its row. */
	if (k != -1 && f->ltext != NULL && f->lmsg > 0 &&
	    !(f->flags & KL_F_HEAD_CUT) &&
	    kl_template_host(f->ltext, f->lmsg, &off, &len) &&
	    len < FR_HOST_MAX && hset_add(&fr.pairs, fnv64(t.hash,
	    f->ltext + off, len), FR_PAIRS) == -1) {
		if (k == 0)	/* its row is not made after all */
			hset_del(&fr.tpl, t.hash);
		k = -1;
	}
	if (k == -1) {
		other(in, f);
		return;
	}
	fr.rp->finding(in, f, sym, who, why);
	if (k == 0 && fr.cli->json && !fr.cli->quiet)
		new_event(in, f, &t);
}

/* A boot segment ended: its release named while releases last. */
static void
fr_boot(const struct input *in, const struct bootrep *r)
{
	struct bootrep	c;

	if (r->release[0] != '\0' && hset_add(&fr.releases,
	    fnv64(FNV_OFFSET, r->release, strlen(r->release)),
	    FR_RELEASES) == -1) {
		c = *r;
		c.release[0] = '\0';
		r = &c;
	}
	fr.rp->boot(in, r);
}

/* The unit begins. */
static void
fr_begin(const struct input *in)
{
	fr.rp->begin(in);
}

/* An error. */
static void
fr_error(const struct input *in, uint64_t line, const char *msg)
{
	fr.rp->error(in, line, msg);
}

/* The unit ended. */
static void
fr_end(const struct input *in, const struct kl_stats *st)
{
	fr.rp->end(in, st);
}

/* The summary: the row of the others joins the report, which is printed. */
static void
fr_summary(const struct totals *t)
{
	if (kl_report_count(fr.others) > 0)
		report_adopt(fr.others, NULL);
	fr.rp->summary(t);
	kl_report_free(fr.others);
	fr.others = NULL;
	free(fr.tpl.v);
	free(fr.pairs.v);
	free(fr.releases.v);
}

static const struct printer follow_report_printer = {
	fr_begin, fr_finding, fr_boot, fr_error, fr_end, fr_summary
};

/* Put the gate of --follow in front of the report printer rp. */
const struct printer *
follow_report_init(const struct cli *cli, const struct printer *rp)
{
	static const char others[] = "(other templates)";

	fr.cli = cli;
	fr.rp = rp;
	hset_init(&fr.tpl, FR_TEMPLATES);
	hset_init(&fr.pairs, FR_PAIRS);
	hset_init(&fr.releases, FR_RELEASES);
	memset(&fr.otpl, 0, sizeof(fr.otpl));
	memcpy(fr.otpl.text, others, sizeof(others));
	fr.otpl.len = sizeof(others) - 1;
	fr.otpl.tclass = KL_TC_POINTER;
	kl_template_fingerprint(&fr.otpl);
	if ((fr.others = kl_report_new()) == NULL)
		log_fatal("out of memory");
	return (&follow_report_printer);
}
