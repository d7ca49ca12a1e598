/*
 * journal-export.c - journalctl -o export: the streaming parser of the
 * export format (text and binary fields, a blank line after each entry)
 * and the writer that puts an entry back in that format.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "journal-int.h"

/*
 * Export: the name line ended with '='.  Start a text field, or drop
 * it (a bad name: the value is read and passed over).
 */
static int
exp_text_start(struct kl_journal *j, uint64_t voff)
{
	char nb[KBUF * 4 + 8];
	int rc;

	kl_jent_open_entry(j, j->koff);
	j->st = E_TEXT;
	if (!kl_jent_name_valid(j)) {
		j->partial = 1;
		j->store = 0;
		j->infield = 0;
		j->named = 0;
		return (kl_jent_report(j,
		    "invalid field name \"%s\" at offset %" PRIu64
		    "; field dropped", kl_jent_name_esc(j, nb, sizeof(nb)),
		    j->koff));
	}
	if ((rc = kl_jent_commit_name(j)) != 0)
		return (rc);
	return (kl_jent_start_field(j, voff, 1));
}

/* Export: the name line ended with LF: a blank line or a binary field. */
static int
exp_name_end(struct kl_journal *j)
{
	char nb[KBUF * 4 + 8];
	int rc;

	if (j->klen > 0 && j->klen <= KBUF && j->kbuf[j->klen - 1] == '\r')
		j->klen--;
	if (j->klen == 0) {
		j->st = E_BOL;
		return (kl_jent_finish(j));
	}
	kl_jent_open_entry(j, j->koff);
	if (!kl_jent_name_valid(j)) {
		rc = kl_jent_report(j,
		    "invalid field name \"%s\" at offset %" PRIu64
		    "; skipping to the next blank line",
		    kl_jent_name_esc(j, nb, sizeof(nb)), j->koff);
		if (rc == 0)
			rc = kl_jent_cut(j);
		if (rc == 0)
			rc = kl_jent_resync(j, 1);
		return (rc);
	}
	if ((rc = kl_jent_commit_name(j)) != 0)
		return (rc);
	j->nlenb = 0;
	j->st = E_BLEN;
	return (0);
}

/* Export: a line start longer than any name, without '=' or LF. */
static int
exp_too_long(struct kl_journal *j)
{
	char nb[KBUF * 4 + 8];
	int rc;

	kl_jent_open_entry(j, j->koff);
	j->klen = KBUF + 1;
	rc = kl_jent_report(j, "invalid field name \"%s\" at offset %" PRIu64
	    " (too long); skipping to the next blank line",
	    kl_jent_name_esc(j, nb, sizeof(nb)), j->koff);
	if (rc == 0)
		rc = kl_jent_cut(j);
	if (rc == 0)
		rc = kl_jent_resync(j, 0);
	return (rc);
}

/* Export: the 8 length bytes are in; check the length. */
static int
exp_len(struct kl_journal *j, uint64_t doff)
{
	char nb[KBUF * 4 + 8];
	uint64_t n = 0;
	int i, rc;

	for (i = 7; i >= 0; i--)
		n = n << 8 | j->lenb[i];
	j->blen = j->need = n;
	j->st = n > 0 ? E_BDATA : E_BNL;
	if (n > KL_JOURNAL_SKIP_MAX) {
		rc = kl_jent_report(j, "binary field %s at offset %" PRIu64
		    ": length %" PRIu64 " exceeds the %u MiB entry limit; "
		    "skipping to the next blank line",
		    kl_jent_name_esc(j, nb, sizeof(nb)), j->koff, n,
		    KL_JOURNAL_ENTRY_MAX >> 20);
		if (rc == 0)
			rc = kl_jent_cut(j);
		if (rc == 0)
			rc = kl_jent_resync(j, j->lenb[7] == '\n');
		return (rc);
	}
	if ((rc = kl_jent_start_field(j, doff, 1)) != 0)
		return (rc);
	if (n > KL_JOURNAL_ENTRY_MAX && !j->drop) {
		j->partial = 1;
		j->store = 0;
		j->infield = 0;
		return (kl_jent_report(j, "binary field %s at offset %" PRIu64
		    ": length %" PRIu64 " exceeds the %u MiB entry limit; "
		    "field skipped", kl_jent_name_esc(j, nb, sizeof(nb)),
		    j->koff, n,
		    KL_JOURNAL_ENTRY_MAX >> 20));
	}
	if (j->store && !kl_jent_fits(j, (size_t)n))
		return (kl_jent_over(j));
	return (0);
}

/* Export: no LF after binary data (byte c at offset o instead). */
static int
exp_no_lf(struct kl_journal *j, uint8_t c, uint64_t o)
{
	char nb[KBUF * 4 + 8], cb[16];
	int rc;

	if (j->infield)
		j->alen = j->cur.data;
	j->store = 0;
	j->infield = 0;
	rc = kl_jent_report(j, "binary field %s at offset %" PRIu64
	    ": %s at offset %"
	    PRIu64 " after its %" PRIu64 " bytes of data, not a newline; "
	    "skipping to the next blank line",
	    kl_jent_name_esc(j, nb, sizeof(nb)),
	    j->koff, kl_jent_byte_esc(c, cb, sizeof(cb)), o, j->blen);
	if (rc == 0)
		rc = kl_jent_cut(j);
	if (rc == 0)
		rc = kl_jent_resync(j, 0);
	return (rc);
}

/* Export: parse b[0..n). */
int
kl_jexp_feed(struct kl_journal *j, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;
	size_t k;
	int rc = 0;

	while (p < e && rc == 0) {
		switch (j->st) {
		case E_BOL:
			if (*p == '\n') {
				p++;
				j->line++;
				rc = kl_jent_finish(j);
				break;
			}
			j->klen = 0;
			j->koff = kl_jent_off_at(j, p);
			j->kline = j->line;
			j->st = E_NAME;
			break;
		case E_NAME:
			while (p < e && *p != '=' && *p != '\n' &&
			    j->klen < KBUF)
				j->kbuf[j->klen++] = *p++;
			if (p == e)
				break;
			if (*p == '=') {
				p++;
				rc = exp_text_start(j, kl_jent_off_at(j, p));
			} else if (*p == '\n') {
				p++;
				j->line++;
				rc = exp_name_end(j);
			} else
				rc = exp_too_long(j);
			break;
		case E_TEXT:
			q = memchr(p, '\n', (size_t)(e - p));
			k = (size_t)((q != NULL ? q : e) - p);
			if ((rc = kl_jent_put(j, p, k)) != 0)
				break;
			p += k;
			if (q == NULL)
				break;
			p++;
			j->line++;
			if (j->store && j->alen > j->cur.data &&
			    j->arena[j->alen - 1] == '\r')
				j->alen--;
			rc = kl_jent_end_field(j);
			j->st = E_BOL;
			break;
		case E_BLEN:
			k = 8 - j->nlenb;
			if (k > (size_t)(e - p))
				k = (size_t)(e - p);
			memcpy(j->lenb + j->nlenb, p, k);
			j->line += kl_jent_count_lf(p, k);
			j->nlenb += (unsigned)k;
			p += k;
			if (j->nlenb == 8)
				rc = exp_len(j, kl_jent_off_at(j, p));
			break;
		case E_BDATA:
			k = (size_t)(e - p);
			if ((uint64_t)k > j->need)
				k = (size_t)j->need;
			if (j->store) {
				if ((rc = kl_jent_put(j, p, k)) != 0)
					break;
			} else
				j->stats.skipped += k;
			j->line += kl_jent_count_lf(p, k);
			j->need -= k;
			p += k;
			if (j->need == 0)
				j->st = E_BNL;
			break;
		case E_BNL:
		case E_BNL_CR:
			if (*p == '\n') {
				p++;
				j->line++;
				rc = kl_jent_end_field(j);
				j->st = E_BOL;
			} else if (*p == '\r' && j->st == E_BNL) {
				p++;
				j->st = E_BNL_CR;
			} else {
				rc = exp_no_lf(j, *p, kl_jent_off_at(j, p));
				p++;
			}
			break;
		case E_SKIP:
			if (j->bol != 0 && *p == '\n') {
				p++;
				j->line++;
				j->stats.skipped++;
				j->st = E_BOL;
				break;
			}
			if (j->bol == 1 && *p == '\r') {
				p++;
				j->stats.skipped++;
				j->bol = 2;
				break;
			}
			q = memchr(p, '\n', (size_t)(e - p));
			k = (size_t)((q != NULL ? q + 1 : e) - p);
			j->stats.skipped += k;
			p += k;
			j->bol = q != NULL;
			if (q != NULL)
				j->line++;
			break;
		}
	}
	return (rc);
}

/* Export: the stream ended. */
int
kl_jexp_end(struct kl_journal *j)
{
	char nb[KBUF * 4 + 8];
	int rc = 0;

	switch (j->st) {
	case E_NAME:
		if (j->klen > 0 && j->kbuf[j->klen - 1] == '\r')
			j->klen--;
		if (j->klen == 0)
			break;
		kl_jent_open_entry(j, j->koff);
		rc = kl_jent_report(j,
		    "the stream ends inside field name \"%s\" at "
		    "offset %" PRIu64, kl_jent_name_esc(j, nb, sizeof(nb)),
		    j->koff);
		if (rc == 0)
			rc = kl_jent_cut(j);
		break;
	case E_TEXT:
		if (j->store && j->alen > j->cur.data &&
		    j->arena[j->alen - 1] == '\r')
			j->alen--;
		rc = kl_jent_end_field(j);
		break;
	case E_BLEN:
		rc = kl_jent_report(j,
		    "the stream ends inside the length of binary "
		    "field %s at offset %" PRIu64,
		    kl_jent_name_esc(j, nb, sizeof(nb)),
		    j->koff);
		if (rc == 0)
			rc = kl_jent_cut(j);
		break;
	case E_BDATA:
		rc = kl_jent_report(j, "binary field %s at offset %" PRIu64
		    ": length %" PRIu64 " runs past the end of the stream (%"
		    PRIu64 " bytes left)", kl_jent_name_esc(j, nb, sizeof(nb)),
		    j->koff, j->blen, j->blen - j->need);
		/* what was read of it is delivered, and scanned */
		if (rc == 0)
			rc = kl_jent_end_field(j);
		if (rc == 0)
			rc = kl_jent_cut(j);
		break;
	case E_BNL:
	case E_BNL_CR:
		rc = kl_jent_end_field(j);
		break;
	default:
		break;
	}
	if (rc == 0)
		rc = kl_jent_finish(j);
	return (rc);
}

/*
 * Is the value printable as journalctl -o export sees it (systemd's
 * utf8_is_printable_newline without newlines): valid UTF-8 without C0
 * controls but tab, nor C1 controls?
 */
static int
export_text(const uint8_t *p, size_t n)
{
	size_t i;

	if (!kl_utf8_valid(p, n))
		return (0);
	for (i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f ||
		    (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f))
			return (0);
	return (1);
}

/* Write field f in the export format through write(arg, bytes, n). */
static int
export_field(const struct kl_jfield *f,
    int (*write)(void *, const void *, size_t), void *arg)
{
	uint8_t len[8];
	size_t k;
	int rc, bin;

	bin = !export_text(f->data, f->len);
	if ((rc = write(arg, f->name, strlen(f->name))) != 0)
		return (rc);
	if (bin) {
		for (k = 0; k < 8; k++)
			len[k] = (uint8_t)((uint64_t)f->len >> (8 * k));
		rc = write(arg, "\n", 1);
		if (rc == 0)
			rc = write(arg, len, 8);
	} else
		rc = write(arg, "=", 1);
	if (rc == 0 && f->len > 0)
		rc = write(arg, f->data, f->len);
	if (rc == 0)
		rc = write(arg, "\n", 1);
	return (rc);
}

/*
 * Write entry e as journalctl -o export prints it, through write(arg,
 * bytes, n): the __ fields, then _BOOT_ID, then the others in order; a
 * text field "NAME=value\n" when the value is printable, else NAME, LF,
 * its length as LE64, the value, LF; a blank line at the end.  Returns
 * 0, or the first non-zero write().
 */
int
kl_journal_export(const struct kl_jentry *e,
    int (*write)(void *, const void *, size_t), void *arg)
{
	const struct kl_jfield *f;
	size_t i, boot = e->nfields;
	int rc, meta;

	for (i = 0; i < e->nfields; i++) {
		f = &e->fields[i];
		if (strncmp(f->name, "__", 2) == 0 &&
		    (rc = export_field(f, write, arg)) != 0)
			return (rc);
		if (boot == e->nfields && strcmp(f->name, "_BOOT_ID") == 0)
			boot = i;
	}
	if (boot < e->nfields &&
	    (rc = export_field(&e->fields[boot], write, arg)) != 0)
		return (rc);
	for (i = 0; i < e->nfields; i++) {
		f = &e->fields[i];
		meta = strncmp(f->name, "__", 2) == 0;
		if (!meta && strcmp(f->name, "_BOOT_ID") != 0 &&
		    (rc = export_field(f, write, arg)) != 0)
			return (rc);
	}
	return (write(arg, "\n", 1));
}

