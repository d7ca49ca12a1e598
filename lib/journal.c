/*
 * journal.c - streaming parsers for journalctl -o export and -o json.
 *
 * Bytes come in any pieces (down to one at a time) and go through a byte
 * state machine; the result does not depend on how the stream is split.
 * One entry is built at a time, its names and decoded values copied into
 * one arena (each value NUL-terminated), and handed to ops->entry whole,
 * every field (__ metadata too) in stream order.  cursor, boot_id and
 * realtime come from the first __CURSOR, _BOOT_ID, __REALTIME_TIMESTAMP
 * (NULL or 0 when absent, holding a NUL, or not a decimal).
 *
 * Export (systemd docs/JOURNAL_EXPORT_FORMATS.md): "NAME=value\n" text
 * fields, "NAME\n" + LE64 length + data + "\n" binary fields, a blank line
 * after each entry.  A line with '=' is a text field, one without is the
 * name of a binary field (as systemd's journal-importer reads it).  Names
 * follow journal_field_valid(): 1-64 bytes of A-Z 0-9 _, not starting
 * with a digit; journald never stores others, so others are errors.  A
 * CR before a LF is dropped (text values never end in CR in real output:
 * a control byte makes a value binary), so CRLF copies still parse.  All
 * fields are exact: data[i] is stream byte offset + i.
 *
 * JSON (-o json, json-seq, json-pretty): objects of strings, null, byte
 * arrays (numbers 0-255) and arrays of those (a repeated field: one field
 * per element; null elements and a member's [] give none, a nested [] an
 * empty value).  RS (0x1e) and JSON white space may come between objects.
 * Invalid UTF-8 in a string is kept as it is, a lone surrogate escape
 * becomes U+FFFD, raw control bytes other than LF are kept.  true, false
 * and numbers are taken as their text.  A string without escapes (and a
 * literal) is exact; byte arrays and strings with escapes are not, their
 * offset is that of the '[' or of the first byte after the quote.
 *
 * Limits: an entry holds at most KL_JOURNAL_ENTRY_MAX bytes of names and
 * values and KL_JOURNAL_FIELDS_MAX fields.  Past a limit the entry is
 * cut: one error, nothing more of it stored, the rest parsed and passed
 * over, the stored fields delivered as a partial entry.  Memory is the
 * arena (grown as bytes arrive, never from a declared length) and the
 * field table; big ones are freed after their entry.
 *
 * Errors: each damage is one KL_EFORMAT error naming the entry index and
 * offset, the stream offset and the field, with the line (export: of the
 * field's name; JSON: of the offending byte; lines count every LF), given
 * to ops->error or, without it, counted and the first returned by
 * kl_journal_end.  What was read of a damaged entry before the damage is
 * delivered with partial set (at the end of the stream, the value being
 * read too).  Then the parser resynchronises: export at the next blank
 * line, JSON at the next line starting with '{' or the next RS (one error
 * per damaged region).  A binary length up to KL_JOURNAL_SKIP_MAX is
 * believed and skipped exactly when too long to keep; a larger one is
 * damage.  A field with a bad name (an export text field, a JSON member)
 * is dropped and its entry goes on.
 * Only allocation failure is unrecoverable.
 *
 * For the rewriter: kl_journal_json_patch() finds decoded bytes of a JSON
 * value again in its raw text and writes over them in the same width;
 * kl_journal_export() writes an entry back as journalctl -o export does.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "journal-int.h"

/* A parser for one export (KL_UNIT_EXPORT) or JSON (KL_UNIT_JSON) stream. */
struct kl_journal *
kl_journal_new(enum kl_unit_kind kind, const struct kl_journal_ops *ops,
    struct kl_error *err)
{
	struct kl_journal *j;

	if (kind != KL_UNIT_EXPORT && kind != KL_UNIT_JSON) {
		kl_error_set(err, KL_EINVAL, 0, "%s",
		    kind == KL_UNIT_JOURNAL ? "native journal files are read "
		    "with kl_journal_native" : "not a journal stream kind");
		return (NULL);
	}
	if (ops == NULL || ops->entry == NULL) {
		kl_error_set(err, KL_EINVAL, 0, "journal parser without an "
		    "entry callback");
		return (NULL);
	}
	if ((j = calloc(1, sizeof(*j))) == NULL) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "out of memory");
		return (NULL);
	}
	j->kind = kind;
	j->ops = *ops;
	j->line = 1;
	j->st = kind == KL_UNIT_EXPORT ? E_BOL : J_TOP;
	return (j);
}

/* Check that j can take more input; fills err when not. */
static int
usable(struct kl_journal *j, struct kl_error *err)
{
	if (j->stopped)
		return (1);
	if (j->failed) {
		kl_error_set(err, KL_ENOMEM, ENOMEM, "journal parser failed "
		    "earlier: out of memory");
		return (-1);
	}
	if (j->ended) {
		kl_error_set(err, KL_EINVAL, 0, "journal stream already "
		    "ended");
		return (-1);
	}
	return (0);
}

/*
 * Parse the next n bytes of the stream.  Returns 0, 1 when a callback
 * stopped the parse (later calls do nothing), -1 on failure (err).
 */
int
kl_journal_feed(struct kl_journal *j, const void *buf, size_t n,
    struct kl_error *err)
{
	const uint8_t *p = buf;
	int rc;

	if ((rc = usable(j, err)) != 0)
		return (rc);
	if (n == 0)
		return (0);
	if (buf == NULL) {
		kl_error_set(err, KL_EINVAL, 0, "journal feed without data");
		return (-1);
	}
	j->err = err;
	j->b0 = p;
	if (j->kind == KL_UNIT_EXPORT)
		rc = kl_jexp_feed(j, p, p + n);
	else
		rc = kl_json_feed(j, p, p + n);
	j->base += n;
	j->b0 = NULL;
	j->err = NULL;
	return (rc);
}

/*
 * The stream ended: deliver or report the last entry.  Returns 0, 1 when
 * stopped, -1 on failure or, without ops->error, when the stream had
 * format errors (err holds the first).
 */
int
kl_journal_end(struct kl_journal *j, struct kl_error *err)
{
	int rc;

	if ((rc = usable(j, err)) != 0)
		return (rc);
	j->err = err;
	if (j->kind == KL_UNIT_EXPORT)
		rc = kl_jexp_end(j);
	else
		rc = kl_json_end(j);
	j->err = NULL;
	if (rc != 0)
		return (rc);
	j->ended = 1;
	if (j->have_first) {
		if (err != NULL)
			*err = j->first;
		return (-1);
	}
	return (0);
}

/* Counters of the stream so far. */
const struct kl_jstats *
kl_journal_stats(const struct kl_journal *j)
{
	return (&j->stats);
}

/*
 * The stream offset below which every entry was delivered: the start of
 * the entry being read (of its first field name), else the end of what
 * was fed.  A rewriter may
 * write out the bytes below it once their findings are in.
 */
uint64_t
kl_journal_settled(const struct kl_journal *j)
{
	if (j->open)
		return (j->eoff);
	/* The first field name of the next export entry. */
	if (j->kind == KL_UNIT_EXPORT && j->st == E_NAME)
		return (j->koff);
	return (j->base);
}

/* Free a parser. */
void
kl_journal_free(struct kl_journal *j)
{
	if (j == NULL)
		return;
	free(j->arena);
	free(j->f);
	free(j->out);
	free(j);
}
