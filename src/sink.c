/*
 * sink.c - the scanner's sink for the unit being scanned: each finding
 * placed (slide, layout, a mail's stored bytes), named by its leak
 * source, counted, and printed in order or handed to the rewriter; lines
 * that make findings of their own; the verdict of each boot segment.
 * The state of the run (run.c) is handed down by sink_init().
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

static struct run	*run;	/* the run's state (sink_init()) */

static int	on_finding(void *, const struct kl_finding *);

/* Print a finding now, with its symbol (sym, or NULL). */
static void
print_finding(const struct kl_finding *f, const char *sym)
{
	const char	*who, *why;

	if (live_squash(run->cur, f, sym))
		return;
	if (sym == NULL)	/* --live: the system's map at its slide */
		sym = live_symbol(f);
	who = live_who(run->cur, f, &why);
	run->pr->finding(run->cur, f, sym, who, why);
	out_check();
}

/*
 * Print a finding, or keep it until the slide of its boot is known (a
 * map is given): then the waiting ones go out first, in order.
 */
static void
show_finding(const struct kl_finding *f)
{
	struct kl_finding g;

	if (verdict_should_wait()) {
		if (verdict_wait(f) == 0)
			return;
		verdict_flush(print_finding);
	} else
		verdict_flush(print_finding);
	f = verdict_place(f, &g);
	print_finding(f, verdict_symbol(f));
}

/* A line verdict.c wants: its findings (kept apart from on_line()). */
static int
line_findings(void *arg, const struct kl_line *l)
{
	struct kl_finding	lf[VERDICT_LINE_MAX];
	size_t			n, i;

	n = verdict_line(l, lf, VERDICT_LINE_MAX);
	for (i = 0; i < n; i++) {
		run->u.made[lf[i].region]++;
		if (on_finding(arg, &lf[i]) != 0)
			return (1);
	}
	return (0);
}

/*
 * The sink: a framed line (KASLR evidence, layout findings).  Most
 * lines say nothing to verdict.c and cost only the test.
 */
static int
on_line(void *arg, const struct kl_line *l)
{
	if (!verdict_wants(l))
		return (0);
	return (line_findings(arg, l));
}

/* The sink: a boot segment ended; its findings came before. */
static int
on_boot(void *arg, const struct kl_boot *b)
{
	struct bootrep		rep;
	struct kl_boot		stored;
	struct kl_redact_image	img;
	struct kl_error		err;
	size_t			i;

	(void)arg;
	/* In a mail: the segment's lines in the file as stored. */
	if (run->u.mail != NULL) {
		mail_boot(b, &stored);
		b = &stored;
	}
	verdict_flush(print_finding);
	/* --redact-style=deslide: the segment's image, before it goes. */
	if (run->cli->redact && run->cli->ropt.deslide)
		verdict_image(b->arch, &img);
	verdict_boot(b, &rep);
	if (run->cli->redact && run->cli->ropt.deslide) {
		memset(&err, 0, sizeof(err));
		if (rewrite_boot(run->cur, &rep, &img, &err) == -1) {
			unit_error(err.line, lib_msg(&err));
			rewrite_fail();
			return (1);
		}
	}
	/* What the boots disclose, per input and in all. */
	if (rep.v.has_slide) {
		run->cur->slides++;
		run->tot.slides++;
	}
	for (i = 0; i < KL_REGION_COUNT; i++)
		if (rep.v.disclosed & (1u << i)) {
			run->cur->disclosed[i]++;
			run->tot.disclosed[i]++;
		}
	if (!run->cli->quiet && run->cli->mode == MODE_LINES &&
	    !run->cli->redact) {
		run->pr->boot(run->cur, &rep);
		out_check();
	}
	return (run->stop == STOP_ALL);
}

/* Is the finding's template in --baseline (as a report would row it)? */
static int
baselined(const struct kl_finding *f)
{
	struct kl_template	t;

	kl_template_finding(f, verdict_source(f->rule), &t);
	return (baseline_has(t.fp));
}

/* The sink: count a finding, print it or stop the scan. */
static int
on_finding(void *arg, const struct kl_finding *f)
{
	struct run	*r = arg;
	struct input	*in = r->cur;
	struct kl_error	 err;
	struct kl_finding g;
	const char	*rule, *note = NULL;
	struct kl_finding placed, stored;
	const struct kl_finding *dec = f;

	/* In a mail: the place of the token in the file as stored. */
	if (r->u.mail != NULL && mail_place(f, &stored) == 0)
		f = &stored;
	/* Placed with the slide and layout the segment gave so far. */
	f = verdict_place(f, &placed);
	/* A finding inside a known leak source carries its id. */
	if (f->region != KL_REGION_LAYOUT &&
	    (rule = verdict_rule(f, &note)) != NULL) {
		g = *f;
		g.rule = rule;
		g.note = note;
		f = &g;
	}
	if (r->cli->redact) {
		memset(&err, 0, sizeof(err));
		if (r->u.mail != NULL ? rewrite_mail(in, dec, f, r->u.mail,
		    &err) == -1 : rewrite_finding(in, f, &err) == -1) {
			unit_error(err.line, lib_msg(&err));
			rewrite_fail();
			return (1);
		}
		if (f->suppressed == KL_SUP_NONE &&
		    f->region != KL_REGION_PHYSICAL) {
			in->leaks++;
			r->leaked = 1;
			/* deslide: the segment's architecture, its bases */
			if (r->cli->ropt.deslide &&
			    f->region != KL_REGION_LAYOUT)
				verdict_value(f);
		} else if (f->suppressed != KL_SUP_NONE)
			in->suppressed++;
		return (0);
	}
	if (f->suppressed != KL_SUP_NONE) {
		in->suppressed++;
		if (r->cli->kl.suppressed && r->cli->mode == MODE_LINES &&
		    !r->cli->quiet)
			show_finding(f);
		return (0);
	}
	/*
	 * --baseline outside a report: a known template's finding is
	 * neither printed nor counted (a report marks its row instead).
	 */
	if (r->cli->baseline != NULL && !r->cli->report &&
	    baselined(f)) {
		r->u.baselined[f->region < KL_REGION_COUNT ? f->region : 0]++;
		return (0);
	}
	/*
	 * A physical address is reported, but is no leak of the kernel's
	 * virtual layout: every boot prints its memory map.
	 */
	if (f->region == KL_REGION_PHYSICAL) {
		if (r->cli->mode == MODE_LINES && !r->cli->quiet)
			show_finding(f);
		return (0);
	}
	in->leaks++;
	if (live_counts(f))	/* --live: what an unprivileged user reads */
		r->leaked = 1;
	verdict_value(f);
	if (r->cli->quiet) {
		r->stop = STOP_ALL;
		return (1);
	}
	switch (r->cli->mode) {
	case MODE_LINES:
		show_finding(f);
		break;
	case MODE_WITH:
	case MODE_WITHOUT:
		if (!r->cli->stats) {
			r->stop = STOP_INPUT;
			return (1);
		}
		break;
	default:
		break;
	}
	return (0);
}

/* Hand the sink the state of the run; set up its callbacks. */
void
sink_init(struct run *r)
{
	run = r;
	run->sink.arg = run;
	run->sink.finding = on_finding;
	run->sink.line = on_line;
	run->sink.boot = on_boot;
	run->sink.line_first = verdict_line_first();
}
