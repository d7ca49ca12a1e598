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

#define NAME_LEN	64		/* longest valid field name */
#define KBUF		(NAME_LEN + 2)	/* name bytes kept: room for a CR */
#define LIT_MAX		32		/* longest JSON literal */
#define ARENA_KEEP	(1u << 20)	/* larger arenas are freed after use */
#define FIELDS_KEEP	1024
#define RS		0x1e		/* json-seq record separator */

/* Parser states. */
enum {
	E_BOL = 0,	/* export: at a line start */
	E_NAME,		/* a field name */
	E_TEXT,		/* a text value */
	E_BLEN,		/* the 8 length bytes of a binary field */
	E_BDATA,	/* binary data */
	E_BNL,		/* the newline after binary data */
	E_BNL_CR,	/* a CR came where that newline should be */
	E_SKIP,		/* resynchronising: up to a blank line */

	J_TOP,		/* json: between entries */
	J_KEY0,		/* after '{': a name or '}' */
	J_KEY,		/* after ',': a name */
	J_STR,		/* inside a string */
	J_ESC,		/* after a backslash */
	J_HEX,		/* the 4 digits of \u */
	J_LOW_BS,	/* after a high surrogate: expecting '\' */
	J_LOW_U,	/* then 'u' */
	J_COLON,	/* after a name */
	J_VALUE,	/* after ':' */
	J_LIT,		/* inside null, true, false or a number */
	J_ARR0,		/* after '[': an element or ']' */
	J_ELEM,		/* after ',' in an array: an element */
	J_ANEXT,	/* after an element: ',' or ']' */
	J_MNEXT,	/* after a member: ',' or '}' */
	J_SKIP,		/* resynchronising: up to a line starting with '{' */
};

/* What the outer array of a JSON member holds. */
enum { A_NONE = 0, A_BYTES, A_REP };

/* A field of the entry being built: offsets into the arena. */
struct fld {
	size_t		 name;
	size_t		 data;
	size_t		 len;
	uint64_t	 offset;
	int		 exact;
};

struct kl_journal {
	enum kl_unit_kind	 kind;
	struct kl_journal_ops	 ops;
	int			 st;
	int			 stopped;
	int			 failed;	/* out of memory: dead */
	int			 ended;
	struct kl_error		*err;		/* the caller's, during a call */
	const uint8_t		*b0;		/* the piece being fed */
	uint64_t		 base;		/* stream offset of b0[0] */
	uint64_t		 line;		/* line of the byte at hand */

	/* The entry being built. */
	int			 open;
	uint64_t		 index;
	uint64_t		 eoff;
	int			 partial;
	int			 drop;		/* store nothing more of it */
	uint8_t			*arena;
	size_t			 alen;
	size_t			 acap;
	struct fld		*f;
	size_t			 nf;
	size_t			 fcap;
	struct kl_jfield	*out;
	size_t			 outcap;

	/* The field being read. */
	uint8_t			 kbuf[KBUF];	/* its name, raw */
	size_t			 klen;		/* may exceed KBUF */
	uint64_t		 koff;		/* stream offset of the name */
	uint64_t		 kline;		/* its line */
	size_t			 name;		/* arena offset of the name */
	int			 named;		/* name is in the arena */
	int			 store;		/* the value goes to the arena */
	struct fld		 cur;

	/* Export. */
	uint8_t			 lenb[8];
	unsigned		 nlenb;
	uint64_t		 blen;
	uint64_t		 need;
	int			 bol;		/* 1 at a line start, 2 after CR */

	/* JSON. */
	int			 key;		/* the string is a name */
	int			 mdrop;		/* member dropped (bad name) */
	int			 esc;		/* the string had an escape */
	int			 depth;		/* 0 member, 1 array, 2 nested */
	int			 akind;		/* A_* of the outer array */
	int			 infield;	/* cur is a field being filled */
	uint64_t		 aoff;		/* offset of the array's '[' */
	uint32_t		 u;
	uint32_t		 uhi;		/* pending high surrogate, or 0 */
	unsigned		 nu;
	char			 lit[LIT_MAX];
	unsigned		 nlit;
	uint64_t		 litoff;

	struct kl_jstats	 stats;
	struct kl_error		 first;
	int			 have_first;
};

/* Byte classes of JSON strings: bytes that end a plain run. */
static const uint8_t jstop[256] = {
	['"'] = 1, ['\\'] = 1, ['\n'] = 1, [RS] = 1,
};

/* Is c a byte of a field name? */
static int
name_byte(uint8_t c)
{
	return ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
}

/* Is the name kbuf[0..klen) valid (systemd's journal_field_valid)? */
static int
name_valid(const struct kl_journal *j)
{
	size_t i;

	if (j->klen == 0 || j->klen > NAME_LEN)
		return (0);
	if (j->kbuf[0] >= '0' && j->kbuf[0] <= '9')
		return (0);
	for (i = 0; i < j->klen; i++)
		if (!name_byte(j->kbuf[i]))
			return (0);
	return (1);
}

/* The name being read, escaped for a message, in out[0..sz). */
static const char *
name_esc(const struct kl_journal *j, char *out, size_t sz)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, k = 0, n;
	uint8_t c;

	n = j->klen < KBUF ? j->klen : KBUF;
	for (i = 0; i < n && k + 5 < sz; i++) {
		c = j->kbuf[i];
		if (c > 0x20 && c < 0x7f && c != '"' && c != '\\')
			out[k++] = (char)c;
		else {
			out[k++] = '\\';
			out[k++] = 'x';
			out[k++] = hex[c >> 4];
			out[k++] = hex[c & 0xf];
		}
	}
	if (j->klen > n && k + 4 < sz) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
	return (out);
}

/* A byte for a message: 'c' when printable, else 0xNN. */
static const char *
byte_esc(uint8_t c, char *out, size_t sz)
{
	if (c > 0x20 && c < 0x7f && c != '\'' && c != '\\')
		snprintf(out, sz, "'%c'", c);
	else
		snprintf(out, sz, "byte 0x%02x", c);
	return (out);
}

/* Stream offset of the byte at p. */
static uint64_t
off_at(const struct kl_journal *j, const uint8_t *p)
{
	return (j->base + (uint64_t)(p - j->b0));
}

/* Out of memory: the parser is dead.  Returns -1. */
static int
nomem(struct kl_journal *j)
{
	j->failed = 1;
	kl_error_set(j->err, KL_ENOMEM, ENOMEM,
	    "out of memory reading journal entry %" PRIu64, j->index);
	return (-1);
}

/*
 * Report a format error in the stream, prefixed with the entry when one
 * is open.  Returns 1 when ops->error stops the parse, else 0.
 */
static int KL_PRINTFLIKE(2, 3)
report(struct kl_journal *j, const char *fmt, ...)
{
	struct kl_error e;
	va_list ap;
	char body[sizeof(e.msg)];

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	memset(&e, 0, sizeof(e));
	if (j->open)
		kl_error_set(&e, KL_EFORMAT, 0, "entry %" PRIu64
		    " (offset %" PRIu64 "): %s", j->index, j->eoff, body);
	else
		kl_error_set(&e, KL_EFORMAT, 0, "%s", body);
	/* export: the line of the field; JSON: of the byte at hand */
	e.line = j->kind == KL_UNIT_EXPORT ? j->kline : j->line;
	j->stats.errors++;
	if (j->ops.error != NULL) {
		if (j->ops.error(j->ops.arg, &e) != 0) {
			j->stopped = 1;
			return (1);
		}
	} else if (!j->have_first) {
		j->first = e;
		j->have_first = 1;
	}
	return (0);
}

/* Make room for n more arena bytes.  Returns -1 when out of memory. */
static int
grow(struct kl_journal *j, size_t n)
{
	size_t want, cap;
	uint8_t *a;

	if (kl_add(j->alen, n, &want) == -1)
		return (nomem(j));
	if (want <= j->acap)
		return (0);
	cap = j->acap < 4096 ? 4096 : j->acap;
	while (cap < want)
		if (kl_mul(cap, 2, &cap) == -1)
			return (nomem(j));
	a = realloc(j->arena, cap);
	if (a == NULL)
		return (nomem(j));
	j->arena = a;
	j->acap = cap;
	return (0);
}

/* Does n more bytes (and a NUL) fit the entry limit? */
static int
fits(const struct kl_journal *j, size_t n)
{
	return (j->alen < KL_JOURNAL_ENTRY_MAX &&
	    n < KL_JOURNAL_ENTRY_MAX - j->alen);
}

/*
 * The entry outgrew its limit at the field being read: report it once,
 * store nothing more.  Returns as report.
 */
static int
over(struct kl_journal *j)
{
	char nb[KBUF * 4 + 8];

	j->partial = 1;
	j->store = 0;
	if (j->infield)
		j->alen = j->cur.data;
	j->infield = 0;
	if (j->drop)
		return (0);
	j->drop = 1;
	return (report(j, "entry exceeds the %u MiB limit at field %s "
	    "(offset %" PRIu64 "); the rest of the entry is dropped",
	    KL_JOURNAL_ENTRY_MAX >> 20, name_esc(j, nb, sizeof(nb)),
	    j->koff));
}

/* Open an entry at stream offset off unless one is open. */
static void
open_entry(struct kl_journal *j, uint64_t off)
{
	if (j->open)
		return;
	j->open = 1;
	j->eoff = off;
	j->partial = 0;
	j->drop = 0;
	j->alen = 0;
	j->nf = 0;
}

/*
 * Copy the name into the arena for the fields that follow.  Returns 0,
 * 1 to stop, -1 on failure; j->named says whether it is there.
 */
static int
commit_name(struct kl_journal *j)
{
	j->named = 0;
	if (j->drop)
		return (0);
	if (!fits(j, j->klen))
		return (over(j));
	if (grow(j, j->klen + 1) == -1)
		return (-1);
	j->name = j->alen;
	memcpy(j->arena + j->alen, j->kbuf, j->klen);
	j->alen += j->klen;
	j->arena[j->alen++] = '\0';
	j->named = 1;
	return (0);
}

/* Start a field of the committed name, its value at stream offset off. */
static int
start_field(struct kl_journal *j, uint64_t off, int exact)
{
	char nb[KBUF * 4 + 8];

	j->store = 0;
	j->infield = 0;
	if (j->drop || j->mdrop || !j->named)
		return (0);
	if (j->nf >= KL_JOURNAL_FIELDS_MAX) {
		j->partial = 1;
		j->drop = 1;
		return (report(j, "more than %u fields at field %s "
		    "(offset %" PRIu64 "); the rest of the entry is dropped",
		    KL_JOURNAL_FIELDS_MAX, name_esc(j, nb, sizeof(nb)),
		    j->koff));
	}
	if (!fits(j, 0))
		return (over(j));
	j->cur.name = j->name;
	j->cur.data = j->alen;
	j->cur.len = 0;
	j->cur.offset = off;
	j->cur.exact = exact;
	j->store = 1;
	j->infield = 1;
	return (0);
}

/* Append value bytes to the field being read, within the limit. */
static int
put(struct kl_journal *j, const void *b, size_t n)
{
	if (!j->store || n == 0)
		return (0);
	if (!fits(j, n))
		return (over(j));
	if (grow(j, n + 1) == -1)
		return (-1);
	memcpy(j->arena + j->alen, b, n);
	j->alen += n;
	return (0);
}

/* The field being read is complete: NUL-terminate it, add it. */
static int
end_field(struct kl_journal *j)
{
	struct fld *f;
	size_t cap, sz;

	if (!j->store || !j->infield) {
		j->store = 0;
		j->infield = 0;
		return (0);
	}
	j->store = 0;
	j->infield = 0;
	if (j->nf >= KL_JOURNAL_FIELDS_MAX)
		return (0);	/* start_field() refuses these */
	if (j->nf == j->fcap) {
		cap = j->fcap == 0 ? 32 : j->fcap * 2;
		if (cap > KL_JOURNAL_FIELDS_MAX)
			cap = KL_JOURNAL_FIELDS_MAX;
		if (kl_mul(cap, sizeof(*f), &sz) == -1 ||
		    (f = realloc(j->f, sz)) == NULL)
			return (nomem(j));
		j->f = f;
		j->fcap = cap;
	}
	/* start_field() and put() kept a byte of the limit for this NUL */
	if (grow(j, 1) == -1)
		return (-1);
	j->arena[j->alen] = '\0';
	j->cur.len = j->alen - j->cur.data;
	j->alen++;
	j->f[j->nf++] = j->cur;
	return (0);
}

/* Is f named s? */
static int
named(const struct kl_journal *j, const struct fld *f, const char *s)
{
	return (strcmp((const char *)j->arena + f->name, s) == 0);
}

/* The decimal value of b[0..n), or 0 when it is not one. */
static uint64_t
decimal(const uint8_t *b, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0)
		return (0);
	for (i = 0; i < n; i++) {
		if (b[i] < '0' || b[i] > '9')
			return (0);
		if (v > (UINT64_MAX - (uint64_t)(b[i] - '0')) / 10)
			return (0);
		v = v * 10 + (uint64_t)(b[i] - '0');
	}
	return (v);
}

/* Forget the entry; free a big arena. */
static void
reset_entry(struct kl_journal *j)
{
	j->open = 0;
	j->partial = 0;
	j->drop = 0;
	j->mdrop = 0;
	j->store = 0;
	j->infield = 0;
	j->named = 0;
	j->alen = 0;
	j->nf = 0;
	if (j->acap > ARENA_KEEP) {
		free(j->arena);
		j->arena = NULL;
		j->acap = 0;
	}
	if (j->fcap > FIELDS_KEEP) {
		free(j->f);
		free(j->out);
		j->f = NULL;
		j->out = NULL;
		j->fcap = j->outcap = 0;
	}
}

/* The entry is complete (or cut short): deliver what it holds. */
static int
finish(struct kl_journal *j)
{
	struct kl_jentry en;
	struct kl_jfield *o;
	const struct fld *f;
	const uint8_t *d;
	size_t i, sz;
	int rc = 0;

	if (!j->open)
		return (0);
	j->stats.entries++;
	if (j->nf > 0) {
		if (j->outcap < j->nf) {
			if (kl_mul(j->fcap, sizeof(*o), &sz) == -1 ||
			    (o = realloc(j->out, sz)) == NULL)
				return (nomem(j));
			j->out = o;
			j->outcap = j->fcap;
		}
		memset(&en, 0, sizeof(en));
		en.index = j->index;
		en.offset = j->eoff;
		en.partial = j->partial;
		for (i = 0; i < j->nf; i++) {
			f = &j->f[i];
			d = j->arena + f->data;
			o = &j->out[i];
			o->name = (const char *)j->arena + f->name;
			o->data = d;
			o->len = f->len;
			o->offset = f->offset;
			o->exact = f->exact;
			if (memchr(d, '\0', f->len) != NULL)
				continue;
			if (en.cursor == NULL && named(j, f, "__CURSOR"))
				en.cursor = (const char *)d;
			else if (en.boot_id == NULL && named(j, f, "_BOOT_ID"))
				en.boot_id = (const char *)d;
			else if (en.realtime == 0 &&
			    named(j, f, "__REALTIME_TIMESTAMP"))
				en.realtime = decimal(d, f->len);
		}
		en.fields = j->out;
		en.nfields = j->nf;
		j->stats.delivered++;
		if (j->partial)
			j->stats.partial++;
		if (j->ops.entry(j->ops.arg, &en) != 0) {
			j->stopped = 1;
			rc = 1;
		}
	}
	j->index++;
	reset_entry(j);
	return (rc);
}

/* Damage: cut the entry here, delivering what was read before. */
static int
cut(struct kl_journal *j)
{
	if (!j->open)
		return (0);
	j->partial = 1;
	j->store = 0;
	j->infield = 0;
	return (finish(j));
}

/* Number of LF bytes in b[0..n). */
static uint64_t
count_lf(const uint8_t *b, size_t n)
{
	const uint8_t *q, *e = b + n;
	uint64_t c = 0;

	while (b < e && (q = memchr(b, '\n', (size_t)(e - b))) != NULL) {
		c++;
		b = q + 1;
	}
	return (c);
}

/* Start resynchronising; bol says the next byte starts a line. */
static int
resync(struct kl_journal *j, int bol)
{
	j->st = j->kind == KL_UNIT_EXPORT ? E_SKIP : J_SKIP;
	j->bol = bol;
	return (0);
}

/*
 * Export: the name line ended with '='.  Start a text field, or drop
 * it (a bad name: the value is read and passed over).
 */
static int
exp_text_start(struct kl_journal *j, uint64_t voff)
{
	char nb[KBUF * 4 + 8];
	int rc;

	open_entry(j, j->koff);
	j->st = E_TEXT;
	if (!name_valid(j)) {
		j->partial = 1;
		j->store = 0;
		j->infield = 0;
		j->named = 0;
		return (report(j, "invalid field name \"%s\" at offset %"
		    PRIu64 "; field dropped", name_esc(j, nb, sizeof(nb)),
		    j->koff));
	}
	if ((rc = commit_name(j)) != 0)
		return (rc);
	return (start_field(j, voff, 1));
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
		return (finish(j));
	}
	open_entry(j, j->koff);
	if (!name_valid(j)) {
		rc = report(j, "invalid field name \"%s\" at offset %" PRIu64
		    "; skipping to the next blank line",
		    name_esc(j, nb, sizeof(nb)), j->koff);
		if (rc == 0)
			rc = cut(j);
		if (rc == 0)
			rc = resync(j, 1);
		return (rc);
	}
	if ((rc = commit_name(j)) != 0)
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

	open_entry(j, j->koff);
	j->klen = KBUF + 1;
	rc = report(j, "invalid field name \"%s\" at offset %" PRIu64
	    " (too long); skipping to the next blank line",
	    name_esc(j, nb, sizeof(nb)), j->koff);
	if (rc == 0)
		rc = cut(j);
	if (rc == 0)
		rc = resync(j, 0);
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
		rc = report(j, "binary field %s at offset %" PRIu64
		    ": length %" PRIu64 " exceeds the %u MiB entry limit; "
		    "skipping to the next blank line",
		    name_esc(j, nb, sizeof(nb)), j->koff, n,
		    KL_JOURNAL_ENTRY_MAX >> 20);
		if (rc == 0)
			rc = cut(j);
		if (rc == 0)
			rc = resync(j, j->lenb[7] == '\n');
		return (rc);
	}
	if ((rc = start_field(j, doff, 1)) != 0)
		return (rc);
	if (n > KL_JOURNAL_ENTRY_MAX && !j->drop) {
		j->partial = 1;
		j->store = 0;
		j->infield = 0;
		return (report(j, "binary field %s at offset %" PRIu64
		    ": length %" PRIu64 " exceeds the %u MiB entry limit; "
		    "field skipped", name_esc(j, nb, sizeof(nb)), j->koff, n,
		    KL_JOURNAL_ENTRY_MAX >> 20));
	}
	if (j->store && !fits(j, (size_t)n))
		return (over(j));
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
	rc = report(j, "binary field %s at offset %" PRIu64 ": %s at offset %"
	    PRIu64 " after its %" PRIu64 " bytes of data, not a newline; "
	    "skipping to the next blank line", name_esc(j, nb, sizeof(nb)),
	    j->koff, byte_esc(c, cb, sizeof(cb)), o, j->blen);
	if (rc == 0)
		rc = cut(j);
	if (rc == 0)
		rc = resync(j, 0);
	return (rc);
}

/* Export: parse b[0..n). */
static int
exp_feed(struct kl_journal *j, const uint8_t *p, const uint8_t *e)
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
				rc = finish(j);
				break;
			}
			j->klen = 0;
			j->koff = off_at(j, p);
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
				rc = exp_text_start(j, off_at(j, p));
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
			if ((rc = put(j, p, k)) != 0)
				break;
			p += k;
			if (q == NULL)
				break;
			p++;
			j->line++;
			if (j->store && j->alen > j->cur.data &&
			    j->arena[j->alen - 1] == '\r')
				j->alen--;
			rc = end_field(j);
			j->st = E_BOL;
			break;
		case E_BLEN:
			k = 8 - j->nlenb;
			if (k > (size_t)(e - p))
				k = (size_t)(e - p);
			memcpy(j->lenb + j->nlenb, p, k);
			j->line += count_lf(p, k);
			j->nlenb += (unsigned)k;
			p += k;
			if (j->nlenb == 8)
				rc = exp_len(j, off_at(j, p));
			break;
		case E_BDATA:
			k = (size_t)(e - p);
			if ((uint64_t)k > j->need)
				k = (size_t)j->need;
			if (j->store) {
				if ((rc = put(j, p, k)) != 0)
					break;
			} else
				j->stats.skipped += k;
			j->line += count_lf(p, k);
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
				rc = end_field(j);
				j->st = E_BOL;
			} else if (*p == '\r' && j->st == E_BNL) {
				p++;
				j->st = E_BNL_CR;
			} else {
				rc = exp_no_lf(j, *p, off_at(j, p));
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
static int
exp_end(struct kl_journal *j)
{
	char nb[KBUF * 4 + 8];
	int rc = 0;

	switch (j->st) {
	case E_NAME:
		if (j->klen > 0 && j->kbuf[j->klen - 1] == '\r')
			j->klen--;
		if (j->klen == 0)
			break;
		open_entry(j, j->koff);
		rc = report(j, "the stream ends inside field name \"%s\" at "
		    "offset %" PRIu64, name_esc(j, nb, sizeof(nb)), j->koff);
		if (rc == 0)
			rc = cut(j);
		break;
	case E_TEXT:
		if (j->store && j->alen > j->cur.data &&
		    j->arena[j->alen - 1] == '\r')
			j->alen--;
		rc = end_field(j);
		break;
	case E_BLEN:
		rc = report(j, "the stream ends inside the length of binary "
		    "field %s at offset %" PRIu64, name_esc(j, nb, sizeof(nb)),
		    j->koff);
		if (rc == 0)
			rc = cut(j);
		break;
	case E_BDATA:
		rc = report(j, "binary field %s at offset %" PRIu64
		    ": length %" PRIu64 " runs past the end of the stream (%"
		    PRIu64 " bytes left)", name_esc(j, nb, sizeof(nb)),
		    j->koff, j->blen, j->blen - j->need);
		/* what was read of it is delivered, and scanned */
		if (rc == 0)
			rc = end_field(j);
		if (rc == 0)
			rc = cut(j);
		break;
	case E_BNL:
	case E_BNL_CR:
		rc = end_field(j);
		break;
	default:
		break;
	}
	if (rc == 0)
		rc = finish(j);
	return (rc);
}

/* JSON: damage at offset o: report, cut, resynchronise. */
static int KL_PRINTFLIKE(3, 4)
jfail(struct kl_journal *j, int bol, const char *fmt, ...)
{
	char body[256];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	rc = report(j, "%s", body);
	if (rc == 0)
		rc = cut(j);
	if (rc == 0)
		rc = resync(j, bol);
	return (rc);
}

/* JSON: an unexpected byte c at p. */
static int
junexpected(struct kl_journal *j, const uint8_t *p, const char *what)
{
	char cb[16];

	if (*p == RS) {
		/* json-seq: a new record starts; this one was cut */
		int rc = report(j, "record separator at offset %" PRIu64
		    " inside an entry: entry truncated", off_at(j, p));
		if (rc == 0)
			rc = cut(j);
		j->st = J_TOP;
		return (rc);
	}
	return (jfail(j, 0, "expected %s at offset %" PRIu64 ", found %s",
	    what, off_at(j, p), byte_esc(*p, cb, sizeof(cb))));
}

/* Is c JSON white space?  Counts lines. */
static int
jws(struct kl_journal *j, uint8_t c)
{
	if (c == '\n') {
		j->line++;
		return (1);
	}
	return (c == ' ' || c == '\t' || c == '\r');
}

/* JSON: append decoded bytes to the name or the value. */
static int
jput(struct kl_journal *j, const void *b, size_t n)
{
	size_t k;

	if (!j->key)
		return (put(j, b, n));
	for (k = 0; k < n; k++) {
		if (j->klen < KBUF)
			j->kbuf[j->klen] = ((const uint8_t *)b)[k];
		if (j->klen < SIZE_MAX)
			j->klen++;
	}
	return (0);
}

/* JSON: append the UTF-8 form of code point cp. */
static int
jput_cp(struct kl_journal *j, uint32_t cp)
{
	uint8_t b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (uint8_t)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (uint8_t)(0xc0 | cp >> 6);
		b[1] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (uint8_t)(0xe0 | cp >> 12);
		b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (uint8_t)(0xf0 | cp >> 18);
		b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (uint8_t)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return (jput(j, b, n));
}

/* JSON: the state after a value at the current depth. */
static int
jafter(const struct kl_journal *j)
{
	return (j->depth == 0 ? J_MNEXT : J_ANEXT);
}

/* JSON: a member name is complete. */
static int
jkey_done(struct kl_journal *j)
{
	char nb[KBUF * 4 + 8];

	j->key = 0;
	j->st = J_COLON;
	j->mdrop = 0;
	j->named = 0;
	if (!name_valid(j)) {
		j->mdrop = 1;
		j->partial = 1;
		return (report(j, "invalid field name \"%s\" at offset %"
		    PRIu64 "; member dropped", name_esc(j, nb, sizeof(nb)),
		    j->koff));
	}
	return (commit_name(j));
}

/* JSON: a string starts at p (the quote). */
static int
jstr_start(struct kl_journal *j, const uint8_t *p)
{
	int rc = 0;

	j->esc = 0;
	j->uhi = 0;
	j->st = J_STR;
	if (j->key) {
		j->klen = 0;
		j->koff = off_at(j, p) + 1;
		return (0);
	}
	if (j->depth == 1) {
		if (j->akind == A_BYTES)
			return (jfail(j, 0, "string at offset %" PRIu64
			    " in a byte array", off_at(j, p)));
		j->akind = A_REP;
	} else if (j->depth == 2)
		return (jfail(j, 0, "string at offset %" PRIu64
		    " in a byte array", off_at(j, p)));
	rc = start_field(j, off_at(j, p) + 1, 1);
	return (rc);
}

/* JSON: a string ended. */
static int
jstr_done(struct kl_journal *j)
{
	if (j->key)
		return (jkey_done(j));
	if (j->esc)
		j->cur.exact = 0;
	j->st = jafter(j);
	return (end_field(j));
}

/* Is lit[0..nlit) a JSON number? */
static int
lit_number(const struct kl_journal *j)
{
	const char *s = j->lit, *e = j->lit + j->nlit;
	int d;

	if (s < e && *s == '-')
		s++;
	for (d = 0; s < e && *s >= '0' && *s <= '9'; s++)
		d++;
	if (d == 0)
		return (0);
	if (s < e && *s == '.') {
		for (s++, d = 0; s < e && *s >= '0' && *s <= '9'; s++)
			d++;
		if (d == 0)
			return (0);
	}
	if (s < e && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < e && (*s == '+' || *s == '-'))
			s++;
		for (d = 0; s < e && *s >= '0' && *s <= '9'; s++)
			d++;
		if (d == 0)
			return (0);
	}
	return (s == e);
}

/* The byte value of lit, or -1 when it is not an integer 0-255. */
static int
lit_byte(const struct kl_journal *j)
{
	unsigned v = 0, i;

	if (j->nlit == 0)
		return (-1);
	for (i = 0; i < j->nlit; i++) {
		if (j->lit[i] < '0' || j->lit[i] > '9')
			return (-1);
		v = v * 10 + (unsigned)(j->lit[i] - '0');
		if (v > 255)
			return (-1);
	}
	return ((int)v);
}

/* Is lit the keyword s? */
static int
lit_is(const struct kl_journal *j, const char *s)
{
	return (strlen(s) == j->nlit && memcmp(j->lit, s, j->nlit) == 0);
}

/* JSON: a literal ended (the byte after it is not consumed). */
static int
jlit_done(struct kl_journal *j)
{
	uint8_t b;
	int v, rc;

	j->st = jafter(j);
	if (lit_is(j, "null"))
		j->stats.nulls++;
	if (j->depth == 0) {
		if (lit_is(j, "null"))
			return (0);
		if (!lit_is(j, "true") && !lit_is(j, "false") &&
		    !lit_number(j))
			goto bad;
		if ((rc = start_field(j, j->litoff, 1)) != 0)
			return (rc);
		if ((rc = put(j, j->lit, j->nlit)) != 0)
			return (rc);
		return (end_field(j));
	}
	if (j->depth == 1 && j->akind == A_NONE) {
		if (lit_is(j, "null")) {
			j->akind = A_REP;
			return (0);
		}
		if (lit_byte(j) < 0)
			goto bad;
		j->akind = A_BYTES;
		if ((rc = start_field(j, j->aoff, 0)) != 0)
			return (rc);
	} else if (j->depth == 1 && j->akind == A_REP) {
		if (lit_is(j, "null"))
			return (0);
		return (jfail(j, 0, "%.*s at offset %" PRIu64 " in a repeated "
		    "field: expected a string, null or a byte array",
		    (int)j->nlit, j->lit, j->litoff));
	}
	if ((v = lit_byte(j)) < 0)
		goto bad;
	b = (uint8_t)v;
	return (put(j, &b, 1));
bad:
	return (jfail(j, 0, "invalid value %.*s at offset %" PRIu64,
	    (int)j->nlit, j->lit, j->litoff));
}

/* JSON: a value (member value or array element) starts at p. */
static int
jvalue(struct kl_journal *j, const uint8_t *p, int *used)
{
	uint8_t c = *p;

	*used = 1;
	if (c == '"') {
		j->key = 0;
		return (jstr_start(j, p));
	}
	if (c == '[') {
		if (j->depth == 2 || (j->depth == 1 && j->akind == A_BYTES))
			return (jfail(j, 0, "array at offset %" PRIu64
			    " inside a byte array", off_at(j, p)));
		j->st = J_ARR0;
		if (j->depth == 0) {
			j->depth = 1;
			j->akind = A_NONE;
			j->aoff = off_at(j, p);
			return (0);
		}
		j->akind = A_REP;
		j->depth = 2;
		return (start_field(j, off_at(j, p), 0));
	}
	if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' ||
	    c == 'n') {
		j->nlit = 0;
		j->litoff = off_at(j, p);
		j->st = J_LIT;
		*used = 0;
		return (0);
	}
	*used = 0;
	return (junexpected(j, p, "a value"));
}

/* JSON: ']' closes the innermost array. */
static int
jarr_close(struct kl_journal *j)
{
	int rc = 0;

	if (j->depth == 2) {
		rc = end_field(j);
		j->depth = 1;
		j->st = J_ANEXT;
		return (rc);
	}
	if (j->akind == A_BYTES)
		rc = end_field(j);
	j->depth = 0;
	j->st = J_MNEXT;
	return (rc);
}

/* JSON: the escape character c after a backslash. */
static int
jesc(struct kl_journal *j, const uint8_t *p)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *s;
	char cb[16];

	if (*p == 'u') {
		j->st = J_HEX;
		j->u = 0;
		j->nu = 0;
		return (0);
	}
	if (*p == '\0' || (s = strchr(from, *p)) == NULL)
		return (jfail(j, *p == '\n', "invalid escape at offset %"
		    PRIu64 ": %s after a backslash", off_at(j, p) - 1,
		    byte_esc(*p, cb, sizeof(cb))));
	j->st = J_STR;
	return (jput(j, &to[s - from], 1));
}

/* JSON: four hex digits of \u are in. */
static int
jhex_done(struct kl_journal *j)
{
	uint32_t cp = j->u;
	int rc;

	j->st = J_STR;
	if (j->uhi != 0) {
		if (cp >= 0xdc00 && cp <= 0xdfff) {
			cp = 0x10000 + ((j->uhi - 0xd800) << 10) +
			    (cp - 0xdc00);
			j->uhi = 0;
			return (jput_cp(j, cp));
		}
		j->uhi = 0;
		if ((rc = jput_cp(j, 0xfffd)) != 0)
			return (rc);
	}
	if (cp >= 0xd800 && cp <= 0xdbff) {
		j->uhi = cp;
		j->st = J_LOW_BS;
		return (0);
	}
	if (cp >= 0xdc00 && cp <= 0xdfff)
		cp = 0xfffd;
	return (jput_cp(j, cp));
}

/* JSON: parse b[0..n). */
static int
json_feed(struct kl_journal *j, const uint8_t *p, const uint8_t *e)
{
	const uint8_t *q;
	char cb[16];
	uint8_t c;
	int rc = 0, used, h;

	while (p < e && rc == 0) {
		c = *p;
		switch (j->st) {
		case J_TOP:
			if (jws(j, c) || c == RS) {
				p++;
				break;
			}
			if (c != '{') {
				rc = jfail(j, 0, "expected '{' at offset %"
				    PRIu64 ", found %s", off_at(j, p),
				    byte_esc(c, cb, sizeof(cb)));
				p++;
				break;
			}
			j->koff = off_at(j, p);
			open_entry(j, j->koff);
			j->depth = 0;
			j->st = J_KEY0;
			p++;
			break;
		case J_KEY0:
		case J_KEY:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c == '}' && j->st == J_KEY0) {
				p++;
				j->st = J_TOP;
				rc = finish(j);
				break;
			}
			if (c != '"') {
				rc = junexpected(j, p, "a field name");
				p++;
				break;
			}
			j->key = 1;
			rc = jstr_start(j, p);
			p++;
			break;
		case J_STR:
			q = p;
			while (q < e && !jstop[*q])
				q++;
			if (q > p) {
				rc = jput(j, p, (size_t)(q - p));
				p = q;
				break;
			}
			p++;
			if (c == '"')
				rc = jstr_done(j);
			else if (c == '\\') {
				j->esc = 1;
				j->st = J_ESC;
			} else if (c == '\n') {
				rc = jfail(j, 1, "unterminated string at "
				    "offset %" PRIu64 " (newline)",
				    off_at(j, p) - 1);
				j->line++;
			} else
				rc = junexpected(j, p - 1, "a string");
			break;
		case J_ESC:
			if (c == RS) {
				rc = junexpected(j, p, "an escape");
				p++;
				break;
			}
			rc = jesc(j, p);
			if (c == '\n')
				j->line++;
			p++;
			break;
		case J_HEX:
			if (c >= '0' && c <= '9')
				h = c - '0';
			else if (c >= 'a' && c <= 'f')
				h = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				h = c - 'A' + 10;
			else {
				rc = c == RS ? junexpected(j, p, "") :
				    jfail(j, c == '\n', "invalid \\u escape at "
				    "offset %" PRIu64, off_at(j, p));
				if (c == '\n')
					j->line++;
				p++;
				break;
			}
			j->u = j->u << 4 | (uint32_t)h;
			p++;
			if (++j->nu == 4)
				rc = jhex_done(j);
			break;
		case J_LOW_BS:
		case J_LOW_U:
			if (c == (j->st == J_LOW_BS ? '\\' : 'u')) {
				p++;
				if (j->st == J_LOW_BS)
					j->st = J_LOW_U;
				else {
					j->st = J_HEX;
					j->u = 0;
					j->nu = 0;
				}
				break;
			}
			/* a lone high surrogate; c is read again */
			j->uhi = 0;
			j->st = j->st == J_LOW_BS ? J_STR : J_ESC;
			rc = jput_cp(j, 0xfffd);
			break;
		case J_COLON:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c != ':') {
				rc = junexpected(j, p, "':'");
				p++;
				break;
			}
			j->st = J_VALUE;
			p++;
			break;
		case J_VALUE:
		case J_ELEM:
		case J_ARR0:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c == ']' && j->st == J_ARR0) {
				p++;
				rc = jarr_close(j);
				break;
			}
			rc = jvalue(j, p, &used);
			if (used || j->st == J_SKIP || j->st == J_TOP)
				p++;
			break;
		case J_LIT:
			if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    (c >= 'A' && c <= 'Z') || c == '.' || c == '+' ||
			    c == '-') {
				if (j->nlit == LIT_MAX) {
					rc = jfail(j, 0, "literal at offset %"
					    PRIu64 " too long", j->litoff);
					break;
				}
				j->lit[j->nlit++] = (char)c;
				p++;
				break;
			}
			rc = jlit_done(j);
			break;
		case J_ANEXT:
		case J_MNEXT:
			if (jws(j, c)) {
				p++;
				break;
			}
			if (c == ',') {
				p++;
				j->st = j->st == J_ANEXT ? J_ELEM : J_KEY;
				break;
			}
			if (c == ']' && j->st == J_ANEXT) {
				p++;
				rc = jarr_close(j);
				break;
			}
			if (c == '}' && j->st == J_MNEXT) {
				p++;
				j->st = J_TOP;
				rc = finish(j);
				break;
			}
			rc = junexpected(j, p, j->st == J_ANEXT ? "',' or ']'" :
			    "',' or '}'");
			p++;
			break;
		case J_SKIP:
			if (c == RS) {
				p++;
				j->stats.skipped++;
				j->st = J_TOP;
				break;
			}
			if (j->bol) {
				if (c == '{') {
					j->st = J_TOP;
					break;
				}
				if (c == ' ' || c == '\t' || c == '\r' ||
				    c == '\n') {
					if (c == '\n')
						j->line++;
					p++;
					j->stats.skipped++;
					break;
				}
				j->bol = 0;
			}
			q = p;
			while (q < e && *q != '\n' && *q != RS)
				q++;
			j->stats.skipped += (uint64_t)(q - p);
			p = q;
			if (q < e && *q == '\n') {
				p++;
				j->line++;
				j->stats.skipped++;
				j->bol = 1;
			}
			break;
		}
	}
	return (rc);
}

/* JSON: the stream ended. */
static int
json_end(struct kl_journal *j)
{
	int rc = 0;

	if (!j->open || j->st == J_TOP || j->st == J_SKIP)
		return (0);
	rc = report(j, "the stream ends inside the entry (truncated object)");
	/* what was read of a value being read is delivered */
	if (rc == 0 && !j->key && (j->st == J_STR || j->st == J_ESC ||
	    j->st == J_HEX || j->st == J_LOW_BS || j->st == J_LOW_U ||
	    j->depth > 0)) {
		if (j->esc)
			j->cur.exact = 0;
		rc = end_field(j);
	}
	if (rc == 0)
		rc = cut(j);
	return (rc);
}

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
		rc = exp_feed(j, p, p + n);
	else
		rc = json_feed(j, p, p + n);
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
		rc = exp_end(j);
	else
		rc = json_end(j);
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

/* The value of 4 hex digits at p, or -1. */
static long
hex4(const uint8_t *p)
{
	long v = 0;
	int i, h;

	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			h = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			h = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			h = p[i] - 'A' + 10;
		else
			return (-1);
		v = v << 4 | h;
	}
	return (v);
}

/* The length of the UTF-8 form of code point cp. */
static size_t
utf8_len(long cp)
{
	if (cp < 0x80)
		return (1);
	if (cp < 0x800)
		return (2);
	return (cp < 0x10000 ? 3 : 4);
}

/*
 * JSON string: the raw index of decoded byte d of the string starting
 * at raw[0] (after its quote), when decoded bytes [d, d+n) are raw bytes
 * (no escape makes them).  Decodes as json_feed() does: \uXXXX to UTF-8,
 * a surrogate pair to 4 bytes, a lone surrogate to U+FFFD.  Returns the
 * index, -1 when an escape makes a byte of the span, -2 when raw[0..len)
 * ends before the span does.
 */
static long long
jstr_map(const uint8_t *raw, size_t len, size_t d, size_t n)
{
	size_t i = 0, dc = 0, k;
	long cp, lo;

	while (i < len) {
		if (raw[i] == '"')
			return (-1);
		if (raw[i] != '\\') {
			if (dc == d) {
				for (k = 0; k < n; k++)
					if (i + k >= len)
						return (-2);
					else if (raw[i + k] == '\\' ||
					    raw[i + k] == '"')
						return (-1);
				return ((long long)i);
			}
			dc++;
			i++;
			continue;
		}
		if (i + 1 >= len)
			return (-2);
		if (raw[i + 1] != 'u') {
			k = 1;
			i += 2;
		} else {
			if (i + 6 > len)
				return (-2);
			if ((cp = hex4(raw + i + 2)) < 0)
				return (-1);
			i += 6;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				/* A low surrogate must follow. */
				if (i < len && raw[i] == '\\' && i + 1 >= len)
					return (-2);
				if (i < len && raw[i] == '\\' &&
				    raw[i + 1] == 'u') {
					if (i + 6 > len)
						return (-2);
					lo = hex4(raw + i + 2);
					if (lo >= 0xdc00 && lo <= 0xdfff) {
						cp = 0x10000;
						i += 6;
					} else
						cp = 0xfffd;
				} else if (i >= len)
					return (-2);
				else
					cp = 0xfffd;
			} else if (cp >= 0xdc00 && cp <= 0xdfff)
				cp = 0xfffd;
			k = utf8_len(cp);
		}
		/* k decoded bytes from an escape: none may be in the span. */
		if (dc + k > d)
			return (-1);
		dc += k;
	}
	return (-2);
}

/* Is c JSON white space? */
static int
ws_byte(uint8_t c)
{
	return (c == ' ' || c == '\t' || c == '\r' || c == '\n');
}

/*
 * JSON byte array starting at raw[0] ('['): rewrite the numbers of
 * elements [d, d+n) as the bytes repl[0..n), in the raw width of those
 * numbers and what lies between them: the new numbers joined by ',',
 * then spaces.  Letters a-f (97-102) go up to A-F (65-70) when the
 * lower case does not fit.  Returns the raw index of the first number,
 * -1 when the array or the span is not such, -2 when raw[0..len) ends
 * before the span does.
 */
static long long
jarr_patch(uint8_t *raw, size_t len, size_t d, const uint8_t *repl,
    size_t n)
{
	char text[4 * 64];
	size_t i = 1, k = 0, s = 0, e = 0, w, need, m;
	int upper, c;

	if (n == 0 || n > 64)
		return (-1);
	for (;;) {
		while (i < len && ws_byte(raw[i]))
			i++;
		if (i >= len)
			return (-2);
		if (raw[i] < '0' || raw[i] > '9')
			return (-1);
		if (k == d)
			s = i;
		while (i < len && raw[i] >= '0' && raw[i] <= '9')
			i++;
		if (i >= len)
			return (-2);
		if (k == d + n - 1) {
			e = i;
			break;
		}
		k++;
		while (i < len && ws_byte(raw[i]))
			i++;
		if (i >= len)
			return (-2);
		if (raw[i] != ',')
			return (-1);
		i++;
	}
	w = e - s;
	for (upper = 0; upper < 2; upper++) {
		for (k = 0, need = 0; k < n; k++) {
			c = repl[k];
			if (upper && c >= 'a' && c <= 'f')
				c = c - 'a' + 'A';
			m = (size_t)snprintf(text + need, sizeof(text) - need,
			    k > 0 ? ",%d" : "%d", c);
			need += m;
		}
		if (need <= w)
			break;
	}
	if (need > w)
		return (-1);
	memcpy(raw + s, text, need);
	memset(raw + s + need, ' ', w - need);
	return ((long long)s);
}

/*
 * Write the bytes repl[0..n) over decoded bytes [d, d+n) of the JSON
 * value whose raw text starts at raw[at] (the byte after a string's
 * quote, or a byte array's '[': raw[at - 1] tells which), in place and
 * in the same raw width, so that the rest of the stream keeps its
 * bytes.  raw[0..len) is what is held of the stream.  The raw offset of
 * the first byte changed goes to *where.  Returns 0, or -1 (err).
 */
int
kl_journal_json_patch(uint8_t *raw, size_t len, size_t at, size_t d,
    const uint8_t *repl, size_t n, size_t *where, struct kl_error *err)
{
	long long r;

	if (at == 0 || at >= len) {
		kl_error_set(err, KL_EINVAL, 0, "JSON value outside the held "
		    "bytes");
		return (-1);
	}
	if (raw[at - 1] == '"') {
		r = jstr_map(raw + at, len - at, d, n);
		if (r >= 0)
			memcpy(raw + at + r, repl, n);
	} else if (raw[at] == '[')
		r = jarr_patch(raw + at, len - at, d, repl, n);
	else
		r = -1;
	if (r == -2) {
		kl_error_set(err, KL_EINVAL, 0, "JSON value runs past the held "
		    "bytes");
		return (-1);
	}
	if (r < 0) {
		kl_error_set(err, KL_EFORMAT, 0, "cannot rewrite a value made "
		    "by JSON escapes");
		return (-1);
	}
	*where = at + (size_t)r;
	return (0);
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
