/*
 * kleakscan.c - main(): options, inputs, scanning, the exit status.
 *
 * Each input (a file, a walked file, stdin) goes to kl_input_fd(), which
 * opens compressed streams and archives (to --max-depth, within the
 * limits) and hands back units: the input itself or its members, each
 * with the kind its first bytes show.  A text unit is fed in --read-size
 * pieces to one libkleak scanner (reset between units); journal exports
 * and JSON go through a journal parser whose entries are scanned field by
 * field as records; native journal files are read with libsystemd; other
 * binary units are skipped, counted and named on stderr.  Findings come
 * back through the sink and go to the printer in input order.  With
 * --redact, an archive or a compressed input is repacked (repack.c),
 * its text members fed through the same unit callbacks.  Errors are
 * per unit: one line on stderr (and an event with --json), then the next
 * member or input.  The exit status is decided once, at the end: 0 clean,
 * 1 leaks, 2 errors (errors win, except -q with a leak).  With -j N
 * (jobs.c) each input is scanned the same way in a worker process and
 * the parent puts the outputs in input order and sums the counters;
 * when the one input named is an archive, the parent reads it and each
 * of its units goes to a worker (members.c).
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

#define STDIN_NAME	"(standard input)"
#define STDOUT_BUFSIZE	(64 * 1024)

#define JOURNAL_MAGIC	8	/* bytes that tell a native journal */
#define NATIVE_STDIN	"/dev/stdin"
#define PEEK_MAX	(64u << 10)	/* as lib/input.c reads ahead */
#define PEEK_TEXT	4096u

/* Why the scan of an input stopped early. */
enum stop {
	STOP_NONE = 0,
	STOP_INPUT,		/* -l or -L: the answer is known */
	STOP_ALL,		/* -q: a leak was found */
};

/* The unit being scanned: one at a time. */
struct unit {
	struct input		 in;
	enum kl_unit_kind	 kind;		/* how it is scanned */
	struct kl_journal	*jr;		/* export and JSON units */
	int			 open;		/* begun, not finished */
	int			 dead;		/* no more data is scanned */
	int			 cut;		/* cut short by the input layer */
	uint64_t		 bytes;		/* bytes of the unit seen */
	uint64_t		 made[KL_REGION_COUNT]; /* findings that
						   lines made (layout...) */
	char			*boot_id;	/* last _BOOT_ID seen */
	int			 sniff;		/* the first data may be mail */
	int			 held;		/* its begin event waits */
	struct kl_mime		*mail;		/* a mail container's reader */
	int			 mopen;		/* a message is open */
	int			 mdead;		/* ... and is scanned no more */
	const char		**chain;	/* its members, the message */
	size_t			 nchain;	/* members above the message */
	char			*mname;		/* the message's name */
	uint64_t		 mline;		/* its first stored line */
	struct mark {			/* stored lines of scan marks */
		uint64_t	 off;		/* decoded offset */
		uint64_t	 line;		/* its stored line */
		uint64_t	 lline;		/* ... as a line's last byte */
	}			 marks[KL_SCAN_MARKS];
	size_t			 nmarks;
};

/* The state of one run of the program. */
struct run {
	const struct cli	*cli;
	const struct printer	*pr;
	struct kl_engine	*engine;
	struct kl_scan		*scan;
	struct kl_sink		 sink;
	struct kl_input_ops	 iops;
	struct kl_journal_ops	 jops;
	struct input		*cur;
	struct unit		 u;
	struct buf		 disp;		/* the unit's text name */
	const char		*native;	/* path for a native journal */
	int			 is_stdin;	/* the input is stdin */
	enum stop		 stop;
	int			 leaked;	/* a leak was found */
	int			 jobs;		/* inputs go to workers */
	int			 split;		/* ...an archive's members too */
	struct totals		 tot;
	struct kl_mime_ops	 mops;		/* mail containers */
	int			 defer;		/* hold the next begin event */
};

static struct run	 run;

static int	mail_place(const struct kl_finding *, struct kl_finding *);
static void	mail_boot(const struct kl_boot *, struct kl_boot *);
static void	mail_sniff(const struct kl_unit *, const uint8_t *, size_t);
static int	mail_data(const struct kl_unit *, const uint8_t *, size_t);
static void	mail_finish(const struct kl_error *);

/* Printer callbacks that print nothing (--redact writes the logs). */
static void
null_input(const struct input *in)
{
	(void)in;
}

static void
null_finding(const struct input *in, const struct kl_finding *f,
    const char *sym)
{
	(void)in;
	(void)f;
	(void)sym;
}

static void
null_boot(const struct input *in, const struct bootrep *r)
{
	(void)in;
	(void)r;
}

static void
null_error(const struct input *in, uint64_t line, const char *msg)
{
	(void)in;
	(void)line;
	(void)msg;
}

static void
null_end(const struct input *in, const struct kl_stats *st)
{
	(void)in;
	(void)st;
}

static void
null_summary(const struct totals *t)
{
	(void)t;
}

static const struct printer null_printer = {
	null_input, null_finding, null_boot, null_error, null_end,
	null_summary
};

/* The exit status decided from what happened so far. */
static int
exit_status(void)
{
	if (run.leaked && run.cli != NULL && run.cli->quiet)
		return (1);
	if (log_errors() > 0)
		return (2);
	return (run.leaked ? 1 : 0);
}

/* Free what the run holds. */
static void
cleanup(void)
{
	kl_journal_free(run.u.jr);
	run.u.jr = NULL;
	free(run.u.boot_id);
	run.u.boot_id = NULL;
	kl_scan_free(run.scan);
	run.scan = NULL;
	verdict_free();
	kl_engine_free(run.engine);
	run.engine = NULL;
	buf_free(&run.disp);
}

/* Handle a failed write to stdout: quiet on a broken pipe, else fatal. */
static void
out_failed(int errnum)
{
	int	status;

	jobs_write_failed(errnum);	/* a worker's temporary file */
	status = exit_status();
	cleanup();
	if (errnum == EPIPE)
		exit(status);
	log_fatal("cannot write standard output: %s", strerror(errnum));
}

/* Stop quietly or with an error as soon as stdout cannot be written. */
void
out_check(void)
{
	if (ferror(stdout))
		out_failed(errno);
}

/* Flush stdout and exit with status. */
static _Noreturn void
finish(int status)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		out_failed(errno);
	cleanup();
	exit(status);
}

static void	input_error(struct input *, uint64_t, const char *, ...)
		    KL_PRINTFLIKE(3, 4);

/*
 * Report an error on an input or unit: stderr (unless -s) and the
 * printer.  The name is the unit's escaped text name when it has one.
 */
static void
input_error(struct input *in, uint64_t line, const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	in->errors++;
	run.tot.errors++;
	if (in->disp != NULL)
		log_error_esc(in->disp, line, "%s", msg);
	else
		log_error(in->name, in->namelen, line, "%s", msg);
	if (!run.cli->quiet) {
		run.pr->error(in, line, msg);
		out_check();
	}
}

static void	unit_error(uint64_t, const char *);
static void	show_finding(const struct kl_finding *);
static int	on_finding(void *, const struct kl_finding *);

/* The message of a library error. */
static const char *
lib_msg(const struct kl_error *err)
{
	const char	*s;

	/* A rewritten copy that could not be written: say which. */
	if (err->code == KL_EIO && (s = rewrite_werror()) != NULL)
		return (s);
	if (err->msg[0] != '\0')
		return (err->msg);
	if (err->errnum != 0)
		return (strerror(err->errnum));
	return ("scan failed");
}

/* Print a finding now, with its symbol (sym, or NULL). */
static void
print_finding(const struct kl_finding *f, const char *sym)
{
	if (live_squash(run.cur, f, sym))
		return;
	if (sym == NULL)	/* --live: the system's map at its slide */
		sym = live_symbol(f);
	run.pr->finding(run.cur, f, sym);
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
		run.u.made[lf[i].region]++;
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
	struct bootrep	rep;
	size_t		i;

	struct kl_boot	stored;

	(void)arg;
	/* In a mail: the segment's lines in the file as stored. */
	if (run.u.mail != NULL) {
		mail_boot(b, &stored);
		b = &stored;
	}
	verdict_flush(print_finding);
	verdict_boot(b, &rep);
	/* What the boots disclose, per input and in all. */
	if (rep.v.has_slide) {
		run.cur->slides++;
		run.tot.slides++;
	}
	for (i = 0; i < KL_REGION_COUNT; i++)
		if (rep.v.disclosed & (1u << i)) {
			run.cur->disclosed[i]++;
			run.tot.disclosed[i]++;
		}
	if (!run.cli->quiet && run.cli->mode == MODE_LINES &&
	    !run.cli->redact) {
		run.pr->boot(run.cur, &rep);
		out_check();
	}
	return (run.stop == STOP_ALL);
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

/* Add the counters of one unit to the totals. */
static void
add_totals(const struct kl_stats *st)
{
	size_t	i;

	if (st == NULL)
		return;
	run.tot.bytes += st->bytes;
	run.tot.lines += st->lines;
	run.tot.findings += st->findings;
	run.tot.boots += st->boots;
	run.tot.unhashed += st->unhashed;
	for (i = 0; i < KL_REGION_COUNT; i++)
		run.tot.region[i] += st->region[i];
	for (i = 0; i < KL_SUP_COUNT; i++)
		run.tot.suppressed[i] += st->suppressed[i];
}

/* Get the scanner ready for a new unit; -1 if there is none. */
static int
scan_ready(struct input *in)
{
	struct kl_error	err;

	if (run.scan != NULL) {
		kl_scan_reset(run.scan);
		return (0);
	}
	memset(&err, 0, sizeof(err));
	if ((run.scan = kl_scan_new(run.engine, &run.sink, &err)) == NULL) {
		input_error(in, 0, "cannot start a scanner: %s",
		    lib_msg(&err));
		return (-1);
	}
	return (0);
}

/* How a unit of the given sniffed kind is scanned, after --format. */
enum kl_unit_kind
unit_kind(enum kl_unit_kind sniffed)
{
	switch (run.cli->format) {
	case KL_FORMAT_TEXT:
	case KL_FORMAT_KMSG:
		return (KL_UNIT_TEXT);
	case KL_FORMAT_EXPORT:
		return (KL_UNIT_EXPORT);
	case KL_FORMAT_JSON:
		return (KL_UNIT_JSON);
	default:
		return (sniffed);
	}
}

/* Start a unit: name it, ready the scanner, send the begin event. */
static int
unit_begin(const char *name, const char *const *members, size_t nmembers,
    enum kl_unit_kind kind)
{
	struct unit	*u = &run.u;

	memset(u, 0, sizeof(*u));
	u->in.name = name;
	u->in.namelen = strlen(name);
	u->in.members = members;
	u->in.nmembers = nmembers;
	u->in.is_stdin = run.is_stdin;
	u->in.disp = print_unit_name(&run.disp, name, u->in.namelen, members,
	    nmembers);
	u->kind = kind;
	if (scan_ready(&u->in) == -1)
		return (-1);
	verdict_unit_begin();
	run.cur = &u->in;
	run.stop = STOP_NONE;
	u->open = 1;
	u->in.begun = 1;
	run.tot.inputs++;
	if (run.defer)
		u->held = 1;	/* until the first bytes say: mail or not */
	else if (!run.cli->quiet) {
		run.pr->begin(&u->in);
		out_check();
	}
	return (0);
}

/* Send the begin event a unit held (see mail_sniff()). */
static void
unit_held(void)
{
	struct unit	*u = &run.u;

	if (!u->held)
		return;
	u->held = 0;
	if (!run.cli->quiet) {
		run.pr->begin(&u->in);
		out_check();
	}
}

/* An error on the open unit. */
static void
unit_error(uint64_t line, const char *msg)
{
	input_error(&run.u.in, line, "%s", msg);
}

/*
 * Finish the open unit: flush the journal parser and the scanner, report
 * the error that cut it short (cut, or NULL), send the end event.
 */
static void
unit_finish(const struct kl_error *cut)
{
	struct unit	*u = &run.u;
	struct kl_stats	 st;
	struct kl_error	 err;
	size_t		 i;

	if (!u->open)
		return;
	unit_held();
	u->open = 0;
	if (run.stop == STOP_ALL)
		goto out;
	if (u->mail != NULL) {
		mail_finish(cut);
		goto out;
	}
	if (u->jr != NULL && !u->dead && run.stop == STOP_NONE) {
		/* A unit cut short ends in a partial entry: say it once. */
		u->cut = cut != NULL;
		memset(&err, 0, sizeof(err));
		if (kl_journal_end(u->jr, &err) == -1 && !u->cut &&
		    run.stop == STOP_NONE)
			unit_error(err.line, lib_msg(&err));
	}
	if (run.stop == STOP_ALL)
		goto out;
	memset(&err, 0, sizeof(err));
	if (!u->in.skipped && kl_scan_end(run.scan, &err) == -1 &&
	    run.stop != STOP_ALL)
		unit_error(err.line, lib_msg(&err));
	memset(&err, 0, sizeof(err));
	if (run.cli->redact && !u->dead && u->kind != KL_UNIT_JOURNAL &&
	    !u->in.skipped && rewrite_unit_end(&err) == -1)
		unit_error(err.line, lib_msg(&err));
	if (run.stop == STOP_ALL)
		goto out;
	if (cut != NULL)
		unit_error(cut->line, lib_msg(cut));
	st = *kl_scan_stats(run.scan);
	for (i = 0; i < KL_REGION_COUNT; i++) {
		st.findings += u->made[i];
		st.region[i] += u->made[i];
	}
	if (u->kind == KL_UNIT_EXPORT || u->kind == KL_UNIT_JSON ||
	    u->in.skipped)
		st.bytes = u->bytes;	/* the stream, not the field bytes */
	add_totals(&st);
	if (!run.cli->quiet) {
		run.pr->end(&u->in, &st);
		out_check();
	}
out:
	kl_mime_free(u->mail);
	u->mail = NULL;
	free(u->chain);
	u->chain = NULL;
	free(u->mname);
	u->mname = NULL;
	kl_journal_free(u->jr);
	u->jr = NULL;
	free(u->boot_id);
	u->boot_id = NULL;
}

/* The entry's __REALTIME_TIMESTAMP: as parsed, or from its field. */
static uint64_t
entry_realtime(const struct kl_jentry *e)
{
	const struct kl_jfield	*f;
	uint64_t		 v;
	size_t			 i, k;

	if (e->realtime != 0)
		return (e->realtime);
	for (i = 0; i < e->nfields; i++) {
		f = &e->fields[i];
		if (strcmp(f->name, "__REALTIME_TIMESTAMP") != 0)
			continue;
		v = 0;
		for (k = 0; k < f->len; k++) {
			if (f->data[k] < '0' || f->data[k] > '9' ||
			    v > (UINT64_MAX - 9) / 10)
				return (0);
			v = v * 10 + (uint64_t)(f->data[k] - '0');
		}
		return (v);
	}
	return (0);
}

/* Scan the fields of one journal entry as records. */
static int
on_entry(void *arg, const struct kl_jentry *e)
{
	struct unit		*u = arg;
	struct kl_record	 rec;
	struct kl_error		 err;
	const struct kl_jfield	*f;
	uint64_t		 realtime;
	size_t			 i;
	int			 rc;

	if (run.stop != STOP_NONE || u->dead)
		return (1);
	/* The entries before this one are done: write them out. */
	if (run.cli->redact) {
		memset(&err, 0, sizeof(err));
		if (rewrite_settle_at(run.scan, e->offset, &err) == -1) {
			unit_error(0, lib_msg(&err));
			rewrite_fail();
			u->dead = 1;
			return (1);
		}
	}
	if (run.cli->report)
		report_entry(e);
	realtime = entry_realtime(e);
	/* A new _BOOT_ID starts a new boot segment. */
	if (e->boot_id != NULL) {
		if (u->boot_id != NULL && strcmp(u->boot_id, e->boot_id) != 0 &&
		    kl_scan_new_boot(run.scan) != 0)
			return (1);
		if (u->boot_id == NULL || strcmp(u->boot_id, e->boot_id) != 0) {
			free(u->boot_id);
			u->boot_id = xstrdup(e->boot_id);
		}
	}
	for (i = 0; i < e->nfields; i++) {
		f = &e->fields[i];
		/* Address fields (__CURSOR, __REALTIME_TIMESTAMP, ...). */
		if (f->name[0] == '_' && f->name[1] == '_')
			continue;
		memset(&rec, 0, sizeof(rec));
		rec.offset = f->offset;
		rec.entry = e->index;
		rec.field = f->name;
		rec.cursor = e->cursor;
		rec.realtime = realtime;
		rec.exact = f->exact;
		memset(&err, 0, sizeof(err));
		rc = kl_scan_record_begin(run.scan, &rec, &err);
		if (rc == 0)
			rc = kl_scan_feed(run.scan, f->data, f->len, &err);
		if (rc == 0)
			rc = kl_scan_record_end(run.scan, &err);
		else
			(void)kl_scan_record_end(run.scan, &err);
		if (rc == -1) {
			unit_error(err.line, lib_msg(&err));
			u->dead = 1;
		}
		if (rc != 0) {
			if (run.stop == STOP_INPUT)
				u->dead = 1;
			return (1);
		}
	}
	return (0);
}

/* A journal parser recovered from damage: an error on the unit. */
static int
on_jerror(void *arg, const struct kl_error *err)
{
	(void)arg;
	if (run.stop == STOP_NONE && !run.u.cut)
		unit_error(err->line, lib_msg(err));
	return (run.stop == STOP_ALL);
}

/* Read a native journal file (the whole unit) through libsystemd. */
static void
unit_native(const char *path)
{
	struct kl_error	err;

	if (path == NULL)
		unit_error(0, "a native journal can only be read from a file: "
		    "give its name");
	else {
		/* Without libsystemd: an error naming --with-systemd. */
		memset(&err, 0, sizeof(err));
		run.jops.arg = &run.u;
		if (kl_journal_native(path, &run.jops, &err) == -1 &&
		    run.stop != STOP_ALL)
			unit_error(err.line, lib_msg(&err));
	}
	run.u.dead = 1;		/* the bytes of the file are not text */
}

/*
 * How a unit is scanned: a binary one as text when --binary-files=text.
 * (A named input, stdin, or its decompressed stream comes as text from
 * the input layer: never skipped silently, as ripgrep searches files
 * named to it.)
 */
static enum kl_unit_kind
begin_kind(const struct kl_unit *ku)
{
	enum kl_unit_kind	kind;

	kind = unit_kind(ku->kind);
	if (kind == KL_UNIT_BINARY && run.cli->binary_files == BINARY_TEXT)
		kind = KL_UNIT_TEXT;
	return (kind);
}

/* Input layer: a unit starts. */
static int
on_begin(void *arg, const struct kl_unit *ku)
{
	struct unit	*u = &run.u;
	struct kl_error	 err;
	char		 msg[256];

	(void)arg;
	if (run.stop == STOP_ALL)
		return (1);
	unit_finish(NULL);
	/* A text unit may be mail: its first bytes say (mail_sniff()). */
	run.defer = begin_kind(ku) == KL_UNIT_TEXT &&
	    run.cli->format == KL_FORMAT_AUTO;
	if (unit_begin(ku->path, ku->members, ku->nmembers,
	    begin_kind(ku)) == -1) {
		run.defer = 0;
		return (1);
	}
	u->sniff = run.defer;
	run.defer = 0;
	if (run.cli->redact && rewrite_unit_begin(ku, u->kind, msg,
	    sizeof(msg)) == -1) {
		unit_error(0, msg);
		rewrite_fail();
		u->dead = 1;
		return (0);
	}
	switch (u->kind) {
	case KL_UNIT_TEXT:
		break;
	case KL_UNIT_EXPORT:
	case KL_UNIT_JSON:
		memset(&err, 0, sizeof(err));
		run.jops.arg = u;
		if ((u->jr = kl_journal_new(u->kind, &run.jops, &err)) ==
		    NULL) {
			unit_error(err.line, lib_msg(&err));
			u->dead = 1;
		}
		break;
	case KL_UNIT_JOURNAL:
		if (ku->nmembers > 0) {
			unit_error(0, "native journal inside an archive is "
			    "not supported");
			u->dead = 1;
		} else
			unit_native(run.native);
		break;
	default:
		u->in.skipped = 1;
		u->dead = 1;
		run.tot.skipped_binary++;
		log_note(u->in.disp, "skipped: binary file");
		break;
	}
	return (run.stop == STOP_ALL);
}

/* Input layer: the next bytes of the unit, scanned --read-size at once. */
static int
on_data(void *arg, const struct kl_unit *ku, const void *data, size_t n)
{
	struct unit	*u = &run.u;
	struct kl_error	 err;
	const uint8_t	*p = data;
	size_t		 k;
	int		 rc;

	(void)arg;
	if (run.stop == STOP_ALL)
		return (1);
	u->bytes += n;
	if (u->sniff)
		mail_sniff(ku, p, n);
	if (u->mail != NULL)
		return (mail_data(ku, p, n));
	while (n > 0 && u->open && !u->dead && run.stop == STOP_NONE) {
		k = n < run.cli->read_size ? n : run.cli->read_size;
		memset(&err, 0, sizeof(err));
		if (u->jr != NULL) {
			/* Export streams are rewritten as they stand. */
			rc = 0;
			if (run.cli->redact)
				rc = rewrite_data(p, k, &err);
			if (rc == 0)
				rc = kl_journal_feed(u->jr, p, k, &err);
			if (rc == -1 && run.cli->redact)
				rewrite_fail();
		} else if (run.cli->redact) {
			rc = rewrite_data(p, k, &err);
			if (rc == 0)
				rc = kl_scan_feed(run.scan, p, k, &err);
			if (rc == 0)
				rc = rewrite_settle(run.scan, &err);
			if (rc == -1)
				rewrite_fail();
		} else
			rc = kl_scan_feed(run.scan, p, k, &err);
		if (rc == -1 && run.stop == STOP_NONE) {
			unit_error(err.line, lib_msg(&err));
			u->dead = 1;
		} else if (rc != 0)
			u->dead = 1;
		p += k;
		n -= k;
	}
	/* Nothing more to scan in a unit that is the whole input: stop. */
	if (ku->nmembers == 0 && (u->dead || run.stop != STOP_NONE))
		return (1);
	return (run.stop == STOP_ALL);
}

/* Input layer: the unit is complete, or cut short by err. */
static int
on_end(void *arg, const struct kl_unit *ku, const struct kl_error *err)
{
	(void)arg;
	(void)ku;
	unit_finish(err);
	return (run.stop == STOP_ALL);
}

/*
 * Mail: a text unit whose first bytes are an mbox or a message is a
 * container of messages (lib/mime.c).  Each message is a unit of its
 * own, named NAME{Message-ID} (or NAME{#N} by its position), scanned in
 * its decoded text; findings are placed back in the file as stored.
 */
static void
mail_sniff(const struct kl_unit *ku, const uint8_t *p, size_t n)
{
	struct unit		*u = &run.u;
	struct kl_error		 err;
	enum kl_mime_box	 box;
	size_t			 i;

	u->sniff = 0;
	box = kl_mime_sniff(p, n);
	if (box == KL_MIME_NONE || u->dead) {
		unit_held();
		return;
	}
	memset(&err, 0, sizeof(err));
	if ((u->mail = kl_mime_new(box, &run.mops, &err)) == NULL) {
		unit_held();
		unit_error(0, lib_msg(&err));
		u->dead = 1;
		return;
	}
	/* The messages are the units: the container sends no events. */
	u->held = 0;
	run.tot.inputs--;
	u->nchain = ku->nmembers;
	u->chain = xreallocarray(NULL, u->nchain + 1, sizeof(*u->chain));
	for (i = 0; i < u->nchain; i++)
		u->chain[i] = ku->members[i];
	u->chain[u->nchain] = NULL;
}

/* A message starts: a unit of its own. */
static int
mail_begin(void *arg, const struct kl_mime_msg *msg)
{
	struct unit	*u = arg;
	char		 num[32];

	if (run.stop == STOP_ALL)
		return (1);
	free(u->mname);
	if (msg->id != NULL)
		u->mname = xstrdup(msg->id);
	else {
		(void)snprintf(num, sizeof(num), "#%llu",
		    (unsigned long long)msg->index + 1);
		u->mname = xstrdup(num);
	}
	u->chain[u->nchain] = u->mname;
	u->in.members = u->chain;
	u->in.nmembers = u->nchain + 1;
	u->in.disp = print_unit_name(&run.disp, u->in.name, u->in.namelen,
	    u->chain, u->nchain + 1);
	u->in.errors = 0;
	u->in.leaks = u->in.suppressed = u->in.slides = 0;
	memset(u->in.disclosed, 0, sizeof(u->in.disclosed));
	memset(u->made, 0, sizeof(u->made));
	kl_scan_reset(run.scan);
	verdict_unit_begin();
	run.stop = STOP_NONE;
	u->mopen = 1;
	u->mdead = 0;
	u->mline = msg->line;
	u->nmarks = 0;
	run.tot.inputs++;
	if (!run.cli->quiet) {
		run.pr->begin(&u->in);
		out_check();
	}
	return (0);
}

/* Decoded text of a message: scanned. */
static int
mail_text(void *arg, const uint8_t *p, size_t n)
{
	struct unit	*u = arg;
	struct kl_error	 err;
	int		 rc;

	if (run.stop == STOP_ALL)
		return (1);
	if (u->mdead || !u->mopen)
		return (0);
	memset(&err, 0, sizeof(err));
	rc = kl_scan_feed(run.scan, p, n, &err);
	if (rc == -1 && run.stop == STOP_NONE)
		unit_error(0, lib_msg(&err));
	if (rc != 0)
		u->mdead = 1;
	return (run.stop == STOP_ALL);
}

/* A message ends: its last findings, its end event. */
static int
mail_end(void *arg, const struct kl_mime_msg *msg)
{
	struct unit	*u = arg;
	struct kl_stats	 st;
	struct kl_error	 err;
	size_t		 i;

	(void)msg;
	if (run.stop == STOP_ALL)
		return (1);
	if (!u->mopen)
		return (0);
	u->mopen = 0;
	memset(&err, 0, sizeof(err));
	if (!u->mdead && kl_scan_end(run.scan, &err) == -1 &&
	    run.stop != STOP_ALL)
		unit_error(0, lib_msg(&err));
	if (run.stop == STOP_ALL)
		return (1);
	st = *kl_scan_stats(run.scan);
	for (i = 0; i < KL_REGION_COUNT; i++) {
		st.findings += u->made[i];
		st.region[i] += u->made[i];
	}
	add_totals(&st);
	if (!run.cli->quiet) {
		run.pr->end(&u->in, &st);
		out_check();
	}
	run.stop = STOP_NONE;
	return (0);
}

/* Damage in a mail: an error on the message (or the file). */
static int
mail_error(void *arg, const struct kl_error *err)
{
	(void)arg;
	if (run.stop != STOP_ALL)
		unit_error(err->line, lib_msg(err));
	return (run.stop == STOP_ALL);
}

/*
 * The stored line of decoded offset off of the message, and (*lline)
 * of off as the last byte of a line: a newline the reader added to a
 * part that ended without one is stored nowhere, the byte before it
 * counts.  From the map, else from the marks kept: 0, or -1 when
 * neither knows it.
 */
static int
mail_line(const struct unit *u, uint64_t off, uint64_t *line,
    uint64_t *lline)
{
	struct kl_mime_pos	pos, prev;
	size_t			i;

	if (kl_mime_place(u->mail, off, &pos) == 0) {
		*line = *lline = pos.line;
		if (pos.kind == KL_MIME_EXP && off > 0 &&
		    kl_mime_place(u->mail, off - 1, &prev) == 0)
			*lline = prev.line;
		return (0);
	}
	for (i = 0; i < u->nmarks; i++)
		if (u->marks[i].off == off) {
			*line = u->marks[i].line;
			*lline = u->marks[i].lline;
			return (0);
		}
	return (-1);
}

/*
 * Before the map is trimmed: keep the stored lines of the offsets that
 * later boot events may name (kl_scan_marks()), a few in all.
 */
static void
mail_marks(struct unit *u)
{
	struct mark	keep[KL_SCAN_MARKS];
	uint64_t	off[KL_SCAN_MARKS];
	size_t		i, n, k = 0;

	n = kl_scan_marks(run.scan, off);
	for (i = 0; i < n; i++)
		if (mail_line(u, off[i], &keep[k].line, &keep[k].lline) == 0)
			keep[k++].off = off[i];
	memcpy(u->marks, keep, k * sizeof(*keep));
	u->nmarks = k;
}

/* The next stored bytes of a mail container. */
static int
mail_data(const struct kl_unit *ku, const uint8_t *p, size_t n)
{
	struct unit	*u = &run.u;
	struct kl_error	 err;
	uint64_t	 dec;
	int		 rc = 0;

	if (u->dead)
		return (ku->nmembers == 0 || run.stop == STOP_ALL);
	memset(&err, 0, sizeof(err));
	if (run.cli->redact)
		rc = rewrite_data(p, n, &err);
	if (rc == 0)
		rc = kl_mime_feed(u->mail, p, n, &err);
	if (rc == 0) {
		/* Between messages everything read is settled. */
		dec = u->mopen ? kl_scan_settled(run.scan) : UINT64_MAX;
		if (run.cli->redact)
			rc = rewrite_settle_to(kl_mime_settled(u->mail, dec),
			    &err);
		/* Too much held: tokens waiting for the arch are decided. */
		if (rc == 0 && run.cli->redact && u->mopen && rewrite_full() &&
		    kl_scan_settle(run.scan) == 0) {
			dec = kl_scan_settled(run.scan);
			rc = rewrite_settle_to(kl_mime_settled(u->mail, dec),
			    &err);
		}
		if (u->mopen) {
			mail_marks(u);
			kl_mime_trim(u->mail, dec);
		}
	}
	if (rc == -1) {
		if (run.cli->redact)
			rewrite_fail();
		if (run.stop == STOP_NONE)
			unit_error(err.line, lib_msg(&err));
	}
	if (rc != 0)
		u->dead = 1;
	if (ku->nmembers == 0 && u->dead)
		return (1);
	return (run.stop == STOP_ALL);
}

/* A mail container ends (cut: the error that cut it short, or NULL). */
static void
mail_finish(const struct kl_error *cut)
{
	struct unit	*u = &run.u;
	struct kl_error	 err;

	memset(&err, 0, sizeof(err));
	if (!u->dead && kl_mime_end(u->mail, &err) == -1 &&
	    run.stop != STOP_ALL)
		unit_error(err.line, lib_msg(&err));
	if (u->mopen)
		(void)mail_end(u, NULL);
	if (run.stop == STOP_ALL)
		return;
	/* Errors after the messages name the container. */
	u->in.members = u->chain;
	u->in.nmembers = u->nchain;
	u->in.disp = print_unit_name(&run.disp, u->in.name, u->in.namelen,
	    u->chain, u->nchain);
	memset(&err, 0, sizeof(err));
	if (run.cli->redact && !u->dead && rewrite_unit_end(&err) == -1)
		unit_error(err.line, lib_msg(&err));
	if (cut != NULL)
		unit_error(cut->line, lib_msg(cut));
}

/*
 * A finding of a message, placed at its token in the file as stored:
 * 0, or -1 when the mail reader cannot say where (f is kept).
 */
static int
mail_place(const struct kl_finding *f, struct kl_finding *g)
{
	struct kl_mime_pos	pos;
	uint64_t		diff;

	if (kl_mime_place(run.u.mail, f->offset, &pos) == -1)
		return (-1);
	*g = *f;
	g->offset = pos.offset;
	g->line = pos.line;
	g->column = pos.column;
	/* ltext is the decoded line: the token keeps its place in it. */
	if (f->ltext != NULL && f->column >= f->lcol &&
	    pos.column > (diff = f->column - f->lcol))
		g->lcol = pos.column - diff;
	else {
		g->ltext = NULL;
		g->llen = 0;
		g->lcol = pos.column + 1;
	}
	return (0);
}

/*
 * A boot segment of a message, with the lines of the file as stored:
 * the first segment from the message's first line (its header, or its
 * mbox "From " line), the others from the line holding the first byte
 * of their first decoded line; each to the line holding the last byte
 * of its last decoded line (mail_line()).  A line the map cannot say
 * stays decoded.
 */
static void
mail_boot(const struct kl_boot *b, struct kl_boot *g)
{
	const struct unit	*u = &run.u;
	uint64_t		 line, lline;

	*g = *b;
	if (b->boot == 0)
		g->first_line = u->mline;
	else if (mail_line(u, b->first_offset, &line, &lline) == 0)
		g->first_line = line;
	if (mail_line(u, b->last_offset, &line, &lline) == 0)
		g->last_line = lline;
}

/* Is fd a regular file? */
static int
is_reg(int fd)
{
	struct stat	st;

	return (fstat(fd, &st) == 0 && S_ISREG(st.st_mode));
}

/* A native journal file is read by path, not through the input layer. */
static int
is_native(int fd)
{
	uint8_t	b[JOURNAL_MAGIC];
	ssize_t	n;

	if (run.cli->format != KL_FORMAT_AUTO || !is_reg(fd))
		return (0);
	do
		n = pread(fd, b, sizeof(b), 0);
	while (n == -1 && errno == EINTR);
	return (n == (ssize_t)sizeof(b) &&
	    kl_input_sniff(b, sizeof(b)) == KL_UNIT_JOURNAL);
}

/* Report an error on an input that has no unit open. */
static void
whole_error(const char *name, const char *msg)
{
	struct input	in;

	memset(&in, 0, sizeof(in));
	in.name = name;
	in.namelen = strlen(name);
	input_error(&in, 0, "%s", msg);
}

/*
 * --redact: read the first bytes of the input as the input layer does.
 * An archive or a compressed stream is repacked (repack.c).  Anything
 * else is left to kl_input_fd(): a file is seeked back; a pipe is fed to
 * the unit callbacks from here, the bytes already read first.  Returns
 * 1 when the input was dealt with here, 0 when kl_input_fd() reads it.
 */
static int
redact_input(const char *name, int fd)
{
	struct kl_unit	 ku;
	struct kl_error	 err;
	uint8_t		*pre;
	size_t		 n = 0;
	ssize_t		 r;
	off_t		 start;
	int		 f, g;

	start = is_reg(fd) ? lseek(fd, 0, SEEK_CUR) : -1;
	pre = xmalloc(PEEK_MAX);
	memset(&err, 0, sizeof(err));
	while (n < PEEK_MAX) {
		do
			r = read(fd, pre + n, PEEK_MAX - n);
		while (r == -1 && errno == EINTR);
		if (r == -1) {
			kl_error_set(&err, KL_EIO, errno, "%s",
			    strerror(errno));
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n >= PEEK_TEXT && memchr(pre, 0, PEEK_TEXT) == NULL)
			break;
	}
	if (err.code != KL_EOK && n == 0) {
		whole_error(name, lib_msg(&err));
		rewrite_fail();
		free(pre);
		return (1);
	}
	if (err.code == KL_EOK && kl_input_container(pre, n, &f, &g) != 0) {
		(void)repack_input(run.cli, &run.iops, name, fd, start, pre,
		    n);
		free(pre);
		return (1);
	}
	if (err.code == KL_EOK && start != -1 &&
	    lseek(fd, start, SEEK_SET) == start) {
		free(pre);
		return (0);
	}
	/* A pipe: one unit, the bytes read first. */
	memset(&ku, 0, sizeof(ku));
	ku.path = name;
	ku.kind = kl_input_sniff(pre, n);
	if (on_begin(&run, &ku) != 0) {
		free(pre);
		return (1);
	}
	if (n > 0 && on_data(&run, &ku, pre, n) != 0)
		goto end;
	while (err.code == KL_EOK) {
		do
			r = read(fd, pre, PEEK_MAX);
		while (r == -1 && errno == EINTR);
		if (r == -1)
			kl_error_set(&err, KL_EIO, errno, "%s",
			    strerror(errno));
		else if (r == 0 || on_data(&run, &ku, pre, (size_t)r) != 0)
			break;
	}
end:
	(void)on_end(&run, &ku, err.code != KL_EOK ? &err : NULL);
	free(pre);
	return (1);
}

/* --redact, a native journal: an entry goes on as export stream bytes. */
static int
native_bytes(void *arg, const void *p, size_t n)
{
	return (on_data(&run, arg, p, n));
}

/* --redact, a native journal: an entry read by libsystemd. */
static int
native_entry(void *arg, const struct kl_jentry *e)
{
	return (kl_journal_export(e, native_bytes, arg));
}

/*
 * --redact: a native journal file is read as the export stream that
 * journalctl -o export prints of it; that stream is rewritten, and
 * written as a new journal file, or to standard output as it is.
 */
static void
redact_native(const char *name, const char *path, uint64_t errs)
{
	struct kl_journal_ops	 ops;
	struct kl_unit		 ku;
	struct kl_error		 err;
	char			 msg[PATH_MAX + 256];
	int			 rc;

	memset(&ku, 0, sizeof(ku));
	ku.path = name;
	ku.kind = KL_UNIT_EXPORT;
	if (rewrite_native_begin(msg, sizeof(msg)) == -1) {
		whole_error(name, msg);
		rewrite_fail();
	} else if (on_begin(&run, &ku) == 0) {
		memset(&ops, 0, sizeof(ops));
		ops.arg = &ku;
		ops.entry = native_entry;
		ops.error = on_jerror;
		memset(&err, 0, sizeof(err));
		rc = kl_journal_native(path, &ops, &err);
		(void)on_end(&run, &ku, rc == -1 ? &err : NULL);
	}
	if (rewrite_native_end(log_errors() == errs, msg, sizeof(msg)) ==
	    -1 && msg[0] != '\0')
		whole_error(name, msg);
	if (rewrite_input_end(log_errors() == errs, msg, sizeof(msg)) == -1)
		whole_error(name, msg);
}

/* The input layer's flags for an input (walked: met in a walk). */
static unsigned
input_flags(int walked)
{
	unsigned	flags;

	/* Named inputs are scanned even when they look binary. */
	flags = run.iops.flags & ~(unsigned)KL_INPUT_TOP_DATA;
	if (!walked && run.cli->binary_files == BINARY_AUTO)
		flags |= KL_INPUT_TOP_DATA;
	return (flags);
}

/* Scan one input, its members and what they hold; non-zero stops all. */
static int
scan_input(const char *name, const char *path, int fd, int is_stdin,
    int walked)
{
	struct kl_error	err;
	uint64_t	errs;
	char		msg[PATH_MAX + 256];
	int		rc;

	run.is_stdin = is_stdin;
	run.iops.flags = input_flags(walked);
	errs = log_errors();
	if (run.cli->redact && rewrite_input_begin(is_stdin ? NULL : path,
	    is_stdin && run.cli->label == NULL ? "standard-input" : name,
	    fd, msg, sizeof(msg)) == -1) {
		struct input	in;

		memset(&in, 0, sizeof(in));
		in.name = name;
		in.namelen = strlen(name);
		input_error(&in, 0, "%s", msg);
		rewrite_fail();
		return (0);
	}
	run.native = path;
	if (is_stdin)
		run.native = is_reg(fd) ? NATIVE_STDIN : NULL;
	if ((!is_stdin || (run.cli->redact && run.native != NULL)) &&
	    is_native(fd)) {
		if (run.cli->redact) {
			redact_native(name, run.native, errs);
			return (run.stop == STOP_ALL);
		}
		if (unit_begin(name, NULL, 0, KL_UNIT_JOURNAL) == 0) {
			unit_native(path);
			unit_finish(NULL);
		}
		return (run.stop == STOP_ALL);
	}
	memset(&err, 0, sizeof(err));
	if (run.cli->redact && redact_input(name, fd))
		rc = 0;
	else
		rc = kl_input_fd(fd, name, &run.cli->limits, &run.iops, &err);
	if (run.stop == STOP_ALL) {
		unit_finish(NULL);
		return (1);
	}
	if (rc == -1) {
		/* An error outside end(): on the open unit, or the input. */
		if (run.u.open)
			unit_finish(&err);
		else {
			struct input	in;

			memset(&in, 0, sizeof(in));
			in.name = name;
			in.namelen = strlen(name);
			input_error(&in, err.line, "%s", lib_msg(&err));
		}
	} else
		unit_finish(NULL);
	if (run.cli->redact && rewrite_input_end(log_errors() == errs, msg,
	    sizeof(msg)) == -1) {
		struct input	in;

		memset(&in, 0, sizeof(in));
		in.name = name;
		in.namelen = strlen(name);
		input_error(&in, 0, "%s", msg);
	}
	return (0);
}

/*
 * -j on the one input, an archive: its units go to the workers
 * (members.c), the input layer runs here.  Non-zero: -q, stop.
 */
static int
split_input(const char *path, int fd)
{
	struct kl_error	err;
	int		rc, stop;

	memset(&err, 0, sizeof(err));
	run.is_stdin = 0;
	run.native = NULL;
	run.iops.flags = input_flags(0);
	jobs_start();	/* forked before the input layer's thread runs */
	rc = members_input(path, fd, &run.cli->limits, &run.iops, &err,
	    &stop);
	/* A long unit scanned here (members.c) and -q, as scan_input(). */
	if (run.stop == STOP_ALL) {
		unit_finish(NULL);
		return (1);
	}
	if (rc == -1 && !stop)
		jobs_error(path, err.line, lib_msg(&err));
	return (stop);
}

/* Scan an open file (met in a directory walk or not) and close it. */
static int
input_file(const char *path, int fd, int walked)
{
	int	stop;

	if (run.jobs && run.split && !walked && members_split(fd))
		stop = split_input(path, fd);
	else if (run.jobs)
		stop = jobs_input(path, path, fd, 0, walked);
	else
		stop = scan_input(path, path, fd, 0, walked);
	close(fd);
	return (stop);
}

/* Walk callback: a file named by an operand or --files-from. */
static int
on_input(void *arg, const char *path, int fd)
{
	(void)arg;
	return (input_file(path, fd, 0));
}

/* Walk callback: a file met in a directory walk. */
static int
on_walked(void *arg, const char *path, int fd)
{
	(void)arg;
	return (input_file(path, fd, 1));
}

/* Walk callback: a path that could not be opened or walked. */
static void
on_error(void *arg, const char *path, uint64_t line, const char *msg)
{
	struct input	in;

	(void)arg;
	if (run.jobs) {
		jobs_error(path, line, msg);
		return;
	}
	memset(&in, 0, sizeof(in));
	in.name = path;
	in.namelen = strlen(path);
	input_error(&in, line, "%s", msg);
}

/* Scan standard input. */
static int
scan_stdin(void)
{
	const char	*name;

	name = run.cli->label != NULL ? run.cli->label : STDIN_NAME;
	if (run.jobs)
		return (jobs_input(name, NULL, STDIN_FILENO, 1, 0));
	return (scan_input(name, NULL, STDIN_FILENO, 1, 0));
}

/* Worker: scan one input and say what came of it (jobs.c). */
static void
job_scan(void *arg, const char *name, const char *path, int fd,
    int is_stdin, int walked, struct jobres *r)
{
	uint64_t	errs;
	int		stop;

	(void)arg;
	run.jobs = 0;	/* a walk error is the parent's from here */
	memset(&run.tot, 0, sizeof(run.tot));
	run.leaked = 0;
	run.stop = STOP_NONE;	/* -q in an input before: not this one's */
	errs = log_errors();
	if (run.cli->report)
		report_input_mark();	/* its rows' place (print-report.c) */
	stop = scan_input(name, path, fd, is_stdin, walked);
	r->tot = run.tot;
	r->errors = log_errors() - errs;
	r->leaked = run.leaked;
	r->stop = stop;
}

/* Was a leak found (the report's merge state)? */
int
run_leaked(void)
{
	return (run.leaked);
}

/*
 * Worker: scan one unit of an archive that the parent read (members.c),
 * through the callbacks the input layer calls in -j 1.
 */
static void
job_unit(void *arg, int fd, struct jobres *r)
{
	static char	 buf[256 * 1024];
	struct kl_unit	 ku;
	struct kl_error	 cut;
	uint64_t	 errs, len, off;
	ssize_t		 n;
	int		 has_cut;

	(void)arg;
	run.jobs = 0;
	memset(&run.tot, 0, sizeof(run.tot));
	run.leaked = 0;
	run.stop = STOP_NONE;
	run.is_stdin = 0;
	run.native = NULL;
	errs = log_errors();
	if (members_read(fd, &ku, &cut, &has_cut, &len) == -1)
		log_fatal("a worker got a damaged unit");
	if (on_begin(&run, &ku) == 0) {
		for (off = 0; off < len; off += (uint64_t)n) {
			do
				n = pread(fd, buf, len - off < sizeof(buf) ?
				    (size_t)(len - off) : sizeof(buf),
				    (off_t)off);
			while (n == -1 && errno == EINTR);
			if (n <= 0)
				log_fatal("cannot read a unit back: %s",
				    n == -1 ? strerror(errno) : "short");
			if (on_data(&run, &ku, buf, (size_t)n) != 0)
				break;
		}
		(void)on_end(&run, &ku, has_cut ? &cut : NULL);
	}
	if (run.stop == STOP_ALL)
		unit_finish(NULL);
	members_free(&ku);
	r->tot = run.tot;
	r->errors = log_errors() - errs;
	r->leaked = run.leaked;
	r->stop = run.stop == STOP_ALL;
}

/* Add the record r to *into: counters summed, flags kept. */
void
jobres_add(struct jobres *into, const struct jobres *r)
{
	struct totals		*d = &into->tot;
	const struct totals	*t = &r->tot;
	size_t			 i;

	d->inputs += t->inputs;
	d->skipped_binary += t->skipped_binary;
	d->errors += t->errors;
	d->bytes += t->bytes;
	d->lines += t->lines;
	d->findings += t->findings;
	d->boots += t->boots;
	d->unhashed += t->unhashed;
	for (i = 0; i < KL_REGION_COUNT; i++) {
		d->region[i] += t->region[i];
		d->disclosed[i] += t->disclosed[i];
	}
	for (i = 0; i < KL_SUP_COUNT; i++)
		d->suppressed[i] += t->suppressed[i];
	d->slides += t->slides;
	into->errors += r->errors;
	into->leaked |= r->leaked;
	into->stop |= r->stop;
}

/* Parent: add a worker's counters, in input order. */
static void
job_merge(void *arg, const struct jobres *r)
{
	struct jobres	all;

	(void)arg;
	memset(&all, 0, sizeof(all));
	all.tot = run.tot;
	jobres_add(&all, r);
	run.tot = all.tot;
	log_add_errors(r->errors);
	if (r->leaked)
		run.leaked = 1;
}

/* Parent: a walk error, in its place among the inputs. */
static void
job_error(void *arg, const char *path, uint64_t line, const char *msg)
{
	int	jobs;

	jobs = run.jobs;
	run.jobs = 0;
	on_error(arg, path, line, msg);
	run.jobs = jobs;
}

/* The number of workers: -j, else one per online CPU (--redact: one). */
static unsigned
jobs_count(const struct cli *cli)
{
	long	n;

	if (cli->redact || cli->live || cli->live_root != NULL ||
	    cli->squash_by_path || cli->squash_by_filename)
		return (1);
	if (cli->jobs != 0)
		return (cli->jobs);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return (1);
	return (n > JOBS_MAX ? JOBS_MAX : (unsigned)n);
}

/* Is path a directory (following symlinks)? */
static int
is_dir(const char *path)
{
	struct stat	st;

	return (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Decide whether names are shown, as grep does. */
static int
show_names(const struct cli *cli)
{
	if (cli->filename >= 0)
		return (cli->filename);
	if (cli->live || cli->live_root != NULL)
		return (1);
	if (cli->noperands > 1 || cli->files_from != NULL)
		return (1);
	return (cli->noperands == 1 && strcmp(cli->operands[0], "-") != 0 &&
	    is_dir(cli->operands[0]));
}

/* live.c: scan the bytes of a live or captured file, named name. */
static int
live_scan(const char *name, int fd)
{
	return (scan_input(name, NULL, fd, 0, 1));
}

/* Scan every operand, the --files-from list, or stdin. */
static void
scan_all(const struct cli *cli)
{
	struct walk_cb	cb;
	int		i, stop;

	cb.arg = &run;
	cb.input = on_input;
	cb.walked = on_walked;
	cb.error = on_error;
	shard_wrap(&cb);	/* --shard; every input's place */
	stop = 0;
	if (cli->live || cli->live_root != NULL) {
		live_run(cli, live_scan);
		return;
	}
	for (i = 0; !stop && i < cli->noperands; i++) {
		if (strcmp(cli->operands[i], "-") == 0)
			stop = shard_take("-") ? scan_stdin() : 0;
		else
			stop = walk_operand(&cb, cli->operands[i]);
	}
	if (!stop && cli->files_from != NULL)
		stop = walk_list(&cb, cli->files_from, cli->null);
	if (!stop && cli->noperands == 0 && cli->files_from == NULL)
		stop = shard_take("-") ? scan_stdin() : 0;
}

/* Scan the inputs named on the command line and exit. */
int
main(int argc, char **argv)
{
	static char	 obuf[STDOUT_BUFSIZE];
	struct cli	 cli;
	struct kl_error	 err;
	struct jobs_ops	 jops;
	unsigned	 n;
	int		 i;

	/* Big blocks to files and pipes; a terminal keeps line buffering. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	options_parse(argc, argv, &cli);
	run.cli = &cli;
	log_init(cli.no_messages);

	if (cli.version) {
		options_version(&cli);
		finish(0);
	}
	if (cli.merge)
		merge_main(&cli);
	shard_init(cli.shard_k, cli.shard_n);
	if (cli.list_arches)
		finish(options_list_arches(&cli));

	if (cli.noperands == 0 && cli.files_from == NULL &&
	    !cli.live && cli.live_root == NULL && isatty(STDIN_FILENO))
		log_usage("no input: give a FILE, a DIR, or - for standard "
		    "input");
	if (cli.files_from != NULL && strcmp(cli.files_from, "-") == 0)
		for (i = 0; i < cli.noperands; i++)
			if (strcmp(cli.operands[i], "-") == 0)
				log_usage("--files-from - and - cannot both "
				    "read standard input");
	cli.show_names = show_names(&cli);

	run.pr = cli.json ? print_json_init(&cli) : print_text_init(&cli);
	if (cli.report)
		run.pr = print_report_init(&cli);
	if (cli.redact) {
		run.pr = &null_printer;
		rewrite_init(&cli);
	}
	live_prepare(&cli);	/* the live system's arch and map */
	memset(&err, 0, sizeof(err));
	if ((run.engine = kl_engine_new(&cli.kl, &err)) == NULL)
		log_fatal("cannot set up the scanner: %s", lib_msg(&err));
	run.sink.arg = &run;
	run.sink.finding = on_finding;
	run.sink.line = on_line;
	run.sink.boot = on_boot;
	verdict_init(&cli);
	callsite_init(&cli);
	run.sink.line_first = verdict_line_first();
	run.iops.arg = &run;
	run.iops.begin = on_begin;
	run.iops.data = on_data;
	run.iops.end = on_end;
	/* A forced format scans every unit, binary ones too. */
	if (cli.format != KL_FORMAT_AUTO || cli.binary_files == BINARY_TEXT)
		run.iops.flags |= KL_INPUT_ALL_DATA;
	run.jops.arg = &run.u;
	run.jops.entry = on_entry;
	run.jops.error = on_jerror;
	run.mops.arg = &run.u;
	run.mops.begin = mail_begin;
	run.mops.text = mail_text;
	run.mops.end = mail_end;
	run.mops.error = mail_error;

	if ((n = jobs_count(&cli)) > 1) {
		jops.arg = &run;
		jops.scan = job_scan;
		jops.merge = job_merge;
		jops.error = job_error;
		jops.out_failed = out_failed;
		jops.unit = job_unit;
		if (cli.report)
			report_jobs();
		jobs_init(n, &jops);
		run.jobs = 1;
		/* One named file: its members may go to the workers. */
		run.split = cli.noperands == 1 && cli.files_from == NULL &&
		    strcmp(cli.operands[0], "-") != 0 &&
		    !is_dir(cli.operands[0]);
	}
	scan_all(&cli);
	if (run.jobs) {
		jobs_finish();
		run.jobs = 0;
	}

	if (cli.redact) {
		(void)rewrite_finish(log_errors() == 0);
		out_check();
		finish(exit_status());
	}
	if (!cli.live && cli.live_root == NULL && !cli.quiet)
		live_finish(&cli);
	if (!cli.quiet) {
		run.pr->summary(&run.tot);
		out_check();
	}
	/* With a baseline, only new templates are leaks. */
	if (cli.report && cli.baseline != NULL)
		run.leaked = report_new() > 0;
	finish(exit_status());
}
