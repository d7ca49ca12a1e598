/*
 * unit.c - one unit through the library: a text unit fed to the scanner
 * in --read-size pieces, journal exports and JSON through a journal
 * parser whose entries are scanned field by field as records, native
 * journal files through libsystemd, mail containers message by message
 * (lib/mime.c), binary units skipped; the begin, end and error events of
 * each unit to the printer, its bytes to the rewriter with --redact.  The
 * state of the run (run.c) is handed down by unit_init().
 */
#include "config.h"

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleakscan.h"

static struct run	*run;	/* the run's state (unit_init()) */

static void	mail_sniff(const struct kl_unit *, const uint8_t *, size_t);
static int	mail_data(const struct kl_unit *, const uint8_t *, size_t);
static void	mail_finish(const struct kl_error *);

/*
 * Report an error on an input or unit: stderr (unless -s) and the
 * printer.  The name is the unit's escaped text name when it has one.
 */
void
input_error(struct input *in, uint64_t line, const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	in->errors++;
	run->tot.errors++;
	if (in->disp != NULL)
		log_error_esc(in->disp, line, "%s", msg);
	else
		log_error(in->name, in->namelen, line, "%s", msg);
	if (!run->cli->quiet) {
		run->pr->error(in, line, msg);
		out_check();
	}
}

/* The message of a library error. */
const char *
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

/* Add the counters of one unit to the totals. */
static void
add_totals(const struct kl_stats *st)
{
	size_t	i;

	if (st == NULL)
		return;
	run->tot.bytes += st->bytes;
	run->tot.lines += st->lines;
	run->tot.findings += st->findings;
	run->tot.boots += st->boots;
	run->tot.unhashed += st->unhashed;
	for (i = 0; i < KL_REGION_COUNT; i++)
		run->tot.region[i] += st->region[i];
	for (i = 0; i < KL_SUP_COUNT; i++)
		run->tot.suppressed[i] += st->suppressed[i];
}

/*
 * The counters of the unit: the scanner's, with the findings lines made
 * added and those --baseline held back taken out (they are counted
 * apart, as baselined).
 */
static void
unit_stats(struct unit *u, struct kl_stats *st)
{
	size_t	i;

	*st = *kl_scan_stats(run->scan);
	for (i = 0; i < KL_REGION_COUNT; i++) {
		st->findings += u->made[i];
		st->region[i] += u->made[i];
		/* (a placed finding may have changed its region) */
		st->findings -= u->baselined[i] < st->findings ?
		    u->baselined[i] : st->findings;
		st->region[i] -= u->baselined[i] < st->region[i] ?
		    u->baselined[i] : st->region[i];
		run->tot.baselined += u->baselined[i];
	}
}

/* Get the scanner ready for a new unit; -1 if there is none. */
static int
scan_ready(struct input *in)
{
	struct kl_error	err;

	if (run->scan != NULL) {
		kl_scan_reset(run->scan);
		return (0);
	}
	memset(&err, 0, sizeof(err));
	if ((run->scan = kl_scan_new(run->engine, &run->sink, &err)) == NULL) {
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
	switch (run->cli->format) {
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
int
unit_begin(const char *name, const char *const *members, size_t nmembers,
    enum kl_unit_kind kind)
{
	struct unit	*u = &run->u;

	memset(u, 0, sizeof(*u));
	u->in.name = name;
	u->in.namelen = strlen(name);
	u->in.members = members;
	u->in.nmembers = nmembers;
	u->in.is_stdin = run->is_stdin;
	u->in.disp = print_unit_name(&run->disp, name, u->in.namelen, members,
	    nmembers);
	u->kind = kind;
	if (scan_ready(&u->in) == -1)
		return (-1);
	verdict_unit_begin();
	run->cur = &u->in;
	run->stop = STOP_NONE;
	u->open = 1;
	u->in.begun = 1;
	run->tot.inputs++;
	if (run->defer)
		u->held = 1;	/* until the first bytes say: mail or not */
	else if (!run->cli->quiet) {
		run->pr->begin(&u->in);
		out_check();
	}
	return (0);
}

/* Send the begin event a unit held (see mail_sniff()). */
static void
unit_held(void)
{
	struct unit	*u = &run->u;

	if (!u->held)
		return;
	u->held = 0;
	if (!run->cli->quiet) {
		run->pr->begin(&u->in);
		out_check();
	}
}

/* An error on the open unit. */
void
unit_error(uint64_t line, const char *msg)
{
	input_error(&run->u.in, line, "%s", msg);
}

/*
 * Finish the open unit: flush the journal parser and the scanner, report
 * the error that cut it short (cut, or NULL), send the end event.
 */
void
unit_finish(const struct kl_error *cut)
{
	struct unit	*u = &run->u;
	struct kl_stats	 st;
	struct kl_error	 err;
	int		 rc;

	if (!u->open)
		return;
	unit_held();
	u->open = 0;
	if (run->stop == STOP_ALL)
		goto out;
	if (u->mail != NULL) {
		mail_finish(cut);
		goto out;
	}
	if (u->chunker != NULL) {
		struct kl_chunk_stats cs;

		/*
		 * The rest, so that the scanner stands as after its bytes.
		 * An error on_data() met is said there, and returned again.
		 */
		memset(&err, 0, sizeof(err));
		rc = kl_chunk_end(u->chunker, &cs, &err);
		unit_chunk_note(&cs);
		kl_chunk_free(u->chunker);
		u->chunker = NULL;
		if (rc == -1 && !u->dead && run->stop == STOP_NONE)
			unit_error(err.line, lib_msg(&err));
		if (rc != 0)
			u->dead = 1;
		if (run->stop == STOP_ALL)
			goto out;
	}
	if (u->jr != NULL && !u->dead && run->stop == STOP_NONE) {
		/* A unit cut short ends in a partial entry: say it once. */
		u->cut = cut != NULL;
		memset(&err, 0, sizeof(err));
		if (kl_journal_end(u->jr, &err) == -1 && !u->cut &&
		    run->stop == STOP_NONE)
			unit_error(err.line, lib_msg(&err));
	}
	if (run->stop == STOP_ALL)
		goto out;
	memset(&err, 0, sizeof(err));
	if (!u->in.skipped && kl_scan_end(run->scan, &err) == -1 &&
	    run->stop != STOP_ALL)
		unit_error(err.line, lib_msg(&err));
	memset(&err, 0, sizeof(err));
	if (run->cli->redact && !u->dead && u->kind != KL_UNIT_JOURNAL &&
	    !u->in.skipped && rewrite_unit_end(&err) == -1)
		unit_error(err.line, lib_msg(&err));
	if (run->stop == STOP_ALL)
		goto out;
	if (cut != NULL)
		unit_error(cut->line, lib_msg(cut));
	unit_stats(u, &st);
	if (u->kind == KL_UNIT_EXPORT || u->kind == KL_UNIT_JSON ||
	    u->in.skipped)
		st.bytes = u->bytes;	/* the stream, not the field bytes */
	add_totals(&st);
	if (!run->cli->quiet) {
		run->pr->end(&u->in, &st);
		out_check();
	}
out:
	/* Stopped: the chunks in flight are dropped. */
	kl_chunk_free(u->chunker);
	u->chunker = NULL;
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

	if (run->stop != STOP_NONE || u->dead)
		return (1);
	/* The entries before this one are done: write them out. */
	if (run->cli->redact) {
		memset(&err, 0, sizeof(err));
		if (rewrite_settle_at(run->scan, e->offset, &err) == -1) {
			unit_error(0, lib_msg(&err));
			rewrite_fail();
			u->dead = 1;
			return (1);
		}
	}
	if (run->cli->report)
		report_entry(e);
	realtime = entry_realtime(e);
	/* A new _BOOT_ID starts a new boot segment. */
	if (e->boot_id != NULL) {
		if (u->boot_id != NULL && strcmp(u->boot_id, e->boot_id) != 0 &&
		    kl_scan_new_boot(run->scan) != 0)
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
		rc = kl_scan_record_begin(run->scan, &rec, &err);
		if (rc == 0)
			rc = kl_scan_feed(run->scan, f->data, f->len, &err);
		if (rc == 0)
			rc = kl_scan_record_end(run->scan, &err);
		else
			(void)kl_scan_record_end(run->scan, &err);
		if (rc == -1) {
			unit_error(err.line, lib_msg(&err));
			u->dead = 1;
		}
		if (rc != 0) {
			if (run->stop == STOP_INPUT)
				u->dead = 1;
			return (1);
		}
	}
	return (0);
}

/* A journal parser recovered from damage: an error on the unit. */
int
on_jerror(void *arg, const struct kl_error *err)
{
	(void)arg;
	if (run->stop == STOP_NONE && !run->u.cut)
		unit_error(err->line, lib_msg(err));
	return (run->stop == STOP_ALL);
}

/* Read a native journal file (the whole unit) through libsystemd. */
void
unit_native(const char *path)
{
	struct kl_error	err;

	if (path == NULL)
		unit_error(0, "a native journal can only be read from a file: "
		    "give its name");
	else {
		/* Without libsystemd: an error naming --with-systemd. */
		memset(&err, 0, sizeof(err));
		run->jops.arg = &run->u;
		if (kl_journal_native(path, &run->jops, &err) == -1 &&
		    run->stop != STOP_ALL)
			unit_error(err.line, lib_msg(&err));
	}
	run->u.dead = 1;		/* the bytes of the file are not text */
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
	if (kind == KL_UNIT_BINARY && run->cli->binary_files == BINARY_TEXT)
		kind = KL_UNIT_TEXT;
	return (kind);
}

/* Input layer: a unit starts. */
int
on_begin(void *arg, const struct kl_unit *ku)
{
	struct unit	*u = &run->u;
	struct kl_error	 err;
	char		 msg[256];

	(void)arg;
	if (run->stop == STOP_ALL)
		return (1);
	unit_finish(NULL);
	/* A text unit may be mail: its first bytes say (mail_sniff()). */
	run->defer = begin_kind(ku) == KL_UNIT_TEXT &&
	    run->cli->format == KL_FORMAT_AUTO;
	if (unit_begin(ku->path, ku->members, ku->nmembers,
	    begin_kind(ku)) == -1) {
		run->defer = 0;
		return (1);
	}
	u->sniff = run->defer;
	run->defer = 0;
	/* deslide: a file of a captured system takes its slide. */
	if (run->cli->redact && run->cli->ropt.deslide)
		deslide_unit(ku->path, ku->members, ku->nmembers);
	if (run->cli->redact && rewrite_unit_begin(ku, u->kind, msg,
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
		run->jops.arg = u;
		if ((u->jr = kl_journal_new(u->kind, &run->jops, &err)) ==
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
			unit_native(run->native);
		break;
	default:
		u->in.skipped = 1;
		u->dead = 1;
		run->tot.skipped_binary++;
		log_note(u->in.disp, "skipped: binary file");
		break;
	}
	return (run->stop == STOP_ALL);
}

/* Say what the chunks did (KLEAKSCAN_CHUNK_DEBUG: 1, or 2 with times). */
void
unit_chunk_note(const struct kl_chunk_stats *cs)
{
	const char	*s;

	if ((s = getenv("KLEAKSCAN_CHUNK_DEBUG")) == NULL || *s == '\0')
		return;
	fprintf(stderr, "kleakscan: chunks %" PRIu64 " accepted %" PRIu64
	    " resynced %" PRIu64 " rescanned %" PRIu64 " serial %" PRIu64
	    "\n", cs->chunks, cs->accepted, cs->resynced, cs->rescanned,
	    cs->serial);
	if (strcmp(s, "2") == 0)
		fprintf(stderr, "kleakscan: main thread: replay %.3f s, in "
		    "order %.3f s, waiting %.3f s\n", cs->replay_ns / 1e9,
		    cs->order_ns / 1e9, cs->wait_ns / 1e9);
}

/*
 * A text unit of a compressed stream chunk_kind() took: from its first
 * bytes on, scanned in chunks on threads as they come; NULL (no memory)
 * scans it in order.
 */
static struct kl_chunker *
chunk_begin(void)
{
	struct kl_chunk_opt	opt;
	struct kl_error		err;

	memset(&opt, 0, sizeof(opt));
	opt.threads = run->chunk_threads;
	/*
	 * The chunks in flight, their events and the decoder's buffers stay
	 * within 64 MiB (xz's the most): one chunk more than threads, each
	 * half the size where every line is an event (text and JSON).
	 */
	opt.slots = run->chunk_threads + 1;
	opt.chunk = run->chunk_bytes;
	if (run->sink.line != NULL && run->sink.line_first == NULL)
		opt.chunk /= 2;
	memset(&err, 0, sizeof(err));
	return (kl_chunk_new(run->scan, &opt, &err));
}

/* Input layer: the next bytes of the unit, scanned --read-size at once. */
int
on_data(void *arg, const struct kl_unit *ku, const void *data, size_t n)
{
	struct unit	*u = &run->u;
	struct kl_error	 err;
	const uint8_t	*p = data;
	size_t		 k;
	int		 rc;

	(void)arg;
	if (run->stop == STOP_ALL)
		return (1);
	u->bytes += n;
	if (u->sniff)
		mail_sniff(ku, p, n);
	if (u->mail != NULL)
		return (mail_data(ku, p, n));
	/* From its first bytes on, the text of a stream chunk_kind() took. */
	if (run->chunk_threads > 1 && u->bytes == n && u->jr == NULL &&
	    u->kind == KL_UNIT_TEXT && !run->cli->redact)
		u->chunker = chunk_begin();
	while (n > 0 && u->open && !u->dead && run->stop == STOP_NONE) {
		k = n < run->cli->read_size ? n : run->cli->read_size;
		memset(&err, 0, sizeof(err));
		if (u->jr != NULL) {
			/* Export streams are rewritten as they stand. */
			rc = 0;
			if (run->cli->redact)
				rc = rewrite_data(p, k, &err);
			if (rc == 0)
				rc = kl_journal_feed(u->jr, p, k, &err);
			if (rc == -1 && run->cli->redact)
				rewrite_fail();
		} else if (run->cli->redact) {
			rc = rewrite_data(p, k, &err);
			if (rc == 0)
				rc = kl_scan_feed(run->scan, p, k, &err);
			if (rc == 0)
				rc = rewrite_settle(run->scan, &err);
			if (rc == -1)
				rewrite_fail();
		} else if (u->chunker != NULL)
			rc = kl_chunk_feed(u->chunker, p, k, &err);
		else
			rc = kl_scan_feed(run->scan, p, k, &err);
		if (rc == -1 && run->stop == STOP_NONE) {
			unit_error(err.line, lib_msg(&err));
			u->dead = 1;
		} else if (rc != 0)
			u->dead = 1;
		p += k;
		n -= k;
	}
	/* Nothing more to scan in a unit that is the whole input: stop. */
	if (ku->nmembers == 0 && (u->dead || run->stop != STOP_NONE))
		return (1);
	return (run->stop == STOP_ALL);
}

/* Input layer: the unit is complete, or cut short by err. */
int
on_end(void *arg, const struct kl_unit *ku, const struct kl_error *err)
{
	(void)arg;
	(void)ku;
	unit_finish(err);
	return (run->stop == STOP_ALL);
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
	struct unit		*u = &run->u;
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
	if ((u->mail = kl_mime_new(box, &run->mops, &err)) == NULL) {
		unit_held();
		unit_error(0, lib_msg(&err));
		u->dead = 1;
		return;
	}
	/* The messages are the units: the container sends no events. */
	u->held = 0;
	run->tot.inputs--;
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

	if (run->stop == STOP_ALL)
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
	u->in.disp = print_unit_name(&run->disp, u->in.name, u->in.namelen,
	    u->chain, u->nchain + 1);
	u->in.errors = 0;
	u->in.leaks = u->in.suppressed = u->in.slides = 0;
	memset(u->in.disclosed, 0, sizeof(u->in.disclosed));
	memset(u->made, 0, sizeof(u->made));
	memset(u->baselined, 0, sizeof(u->baselined));
	kl_scan_reset(run->scan);
	verdict_unit_begin();
	run->stop = STOP_NONE;
	u->mopen = 1;
	u->mdead = 0;
	u->mline = msg->line;
	u->nmarks = 0;
	run->tot.inputs++;
	if (!run->cli->quiet) {
		run->pr->begin(&u->in);
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

	if (run->stop == STOP_ALL)
		return (1);
	if (u->mdead || !u->mopen)
		return (0);
	memset(&err, 0, sizeof(err));
	rc = kl_scan_feed(run->scan, p, n, &err);
	if (rc == -1 && run->stop == STOP_NONE)
		unit_error(0, lib_msg(&err));
	if (rc != 0)
		u->mdead = 1;
	return (run->stop == STOP_ALL);
}

/* A message ends: its last findings, its end event. */
static int
mail_end(void *arg, const struct kl_mime_msg *msg)
{
	struct unit	*u = arg;
	struct kl_stats	 st;
	struct kl_error	 err;

	(void)msg;
	if (run->stop == STOP_ALL)
		return (1);
	if (!u->mopen)
		return (0);
	u->mopen = 0;
	memset(&err, 0, sizeof(err));
	if (!u->mdead && kl_scan_end(run->scan, &err) == -1 &&
	    run->stop != STOP_ALL)
		unit_error(0, lib_msg(&err));
	if (run->stop == STOP_ALL)
		return (1);
	unit_stats(u, &st);
	add_totals(&st);
	if (!run->cli->quiet) {
		run->pr->end(&u->in, &st);
		out_check();
	}
	run->stop = STOP_NONE;
	return (0);
}

/*
 * Damage in a mail: an error on the message (or the file); what the
 * reader read past in full (KL_EOK: a charset label it does not know,
 * read as UTF-8) is a note.
 */
static int
mail_error(void *arg, const struct kl_error *err)
{
	struct input	*in = &run->u.in;

	(void)arg;
	if (run->stop == STOP_ALL)
		return (1);
	if (err->code == KL_EOK && in->disp != NULL)
		log_note_at(in->disp, err->line, "%s", err->msg);
	else
		unit_error(err->line, lib_msg(err));
	return (0);
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

	n = kl_scan_marks(run->scan, off);
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
	struct unit	*u = &run->u;
	struct kl_error	 err;
	uint64_t	 dec;
	int		 rc = 0;

	if (u->dead)
		return (ku->nmembers == 0 || run->stop == STOP_ALL);
	memset(&err, 0, sizeof(err));
	if (run->cli->redact)
		rc = rewrite_data(p, n, &err);
	if (rc == 0)
		rc = kl_mime_feed(u->mail, p, n, &err);
	if (rc == 0) {
		/* Between messages everything read is settled. */
		dec = u->mopen ? kl_scan_settled(run->scan) : UINT64_MAX;
		if (run->cli->redact)
			rc = rewrite_settle_to(kl_mime_settled(u->mail, dec),
			    &err);
		/* Too much held: tokens waiting for the arch are decided. */
		if (rc == 0 && run->cli->redact && u->mopen && rewrite_full() &&
		    kl_scan_settle(run->scan) == 0) {
			dec = kl_scan_settled(run->scan);
			rc = rewrite_settle_to(kl_mime_settled(u->mail, dec),
			    &err);
		}
		if (u->mopen) {
			mail_marks(u);
			kl_mime_trim(u->mail, dec);
		}
	}
	if (rc == -1) {
		if (run->cli->redact)
			rewrite_fail();
		if (run->stop == STOP_NONE)
			unit_error(err.line, lib_msg(&err));
	}
	if (rc != 0)
		u->dead = 1;
	if (ku->nmembers == 0 && u->dead)
		return (1);
	return (run->stop == STOP_ALL);
}

/* A mail container ends (cut: the error that cut it short, or NULL). */
static void
mail_finish(const struct kl_error *cut)
{
	struct unit	*u = &run->u;
	struct kl_error	 err;

	memset(&err, 0, sizeof(err));
	if (!u->dead && kl_mime_end(u->mail, &err) == -1 &&
	    run->stop != STOP_ALL)
		unit_error(err.line, lib_msg(&err));
	if (u->mopen)
		(void)mail_end(u, NULL);
	if (run->stop == STOP_ALL)
		return;
	/* Errors after the messages name the container. */
	u->in.members = u->chain;
	u->in.nmembers = u->nchain;
	u->in.disp = print_unit_name(&run->disp, u->in.name, u->in.namelen,
	    u->chain, u->nchain);
	memset(&err, 0, sizeof(err));
	if (run->cli->redact && !u->dead && rewrite_unit_end(&err) == -1)
		unit_error(err.line, lib_msg(&err));
	if (cut != NULL)
		unit_error(cut->line, lib_msg(cut));
}

/*
 * A finding of a message, placed at its token in the file as stored:
 * 0, or -1 when the mail reader cannot say where (f is kept).
 */
int
mail_place(const struct kl_finding *f, struct kl_finding *g)
{
	struct kl_mime_pos	pos;
	uint64_t		diff;

	if (kl_mime_place(run->u.mail, f->offset, &pos) == -1)
		return (-1);
	*g = *f;
	g->offset = pos.offset;
	g->line = pos.line;
	g->column = pos.column;
	/* ltext is the decoded line: the token keeps its place in it. */
	if (f->ltext != NULL && f->column >= f->lcol &&
	    pos.column > (diff = f->column - f->lcol))
		g->lcol = pos.column - diff;
	else if (f->ltext != NULL && f->column >= f->lcol &&
	    (diff = f->column - f->lcol) < f->llen && pos.column >= 1 &&
	    pos.column - 1 <= diff) {
		/*
		 * A quoted-printable continuation: the decoded line began on
		 * an earlier stored line.  Its text from where this stored
		 * line starts, marked cut at the head.
		 */
		diff -= pos.column - 1;
		g->ltext = f->ltext + diff;
		g->llen = f->llen - diff;
		g->lcol = 1;
		g->lmsg = f->lmsg > diff ? f->lmsg - diff : 0;
		g->flags |= KL_F_HEAD_CUT;
	} else {
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
void
mail_boot(const struct kl_boot *b, struct kl_boot *g)
{
	const struct unit	*u = &run->u;
	uint64_t		 line, lline;

	*g = *b;
	if (b->boot == 0)
		g->first_line = u->mline;
	else if (mail_line(u, b->first_offset, &line, &lline) == 0)
		g->first_line = line;
	if (mail_line(u, b->last_offset, &line, &lline) == 0)
		g->last_line = lline;
}

/* Hand the unit layer the state of the run; set up its callbacks. */
void
unit_init(struct run *r)
{
	run = r;
	run->iops.arg = run;
	run->iops.begin = on_begin;
	run->iops.data = on_data;
	run->iops.end = on_end;
	run->jops.arg = &run->u;
	run->jops.entry = on_entry;
	run->jops.error = on_jerror;
	run->mops.arg = &run->u;
	run->mops.begin = mail_begin;
	run->mops.text = mail_text;
	run->mops.end = mail_end;
	run->mops.error = mail_error;
}
