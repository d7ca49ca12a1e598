/*
 * journal-entry.c - the journal entry being built by the export and JSON
 * parsers: field names checked, names and values copied into the arena
 * within the entry limits, the entry delivered whole or cut short, each
 * damage reported once, and the parser sent to resynchronise.
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

/* Is c a byte of a field name? */
static int
name_byte(uint8_t c)
{
	return ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
}

/* Is the name kbuf[0..klen) valid (systemd's journal_field_valid)? */
int
kl_jent_name_valid(const struct kl_journal *j)
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
const char *
kl_jent_name_esc(const struct kl_journal *j, char *out, size_t sz)
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
const char *
kl_jent_byte_esc(uint8_t c, char *out, size_t sz)
{
	if (c > 0x20 && c < 0x7f && c != '\'' && c != '\\')
		snprintf(out, sz, "'%c'", c);
	else
		snprintf(out, sz, "byte 0x%02x", c);
	return (out);
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
int KL_PRINTFLIKE(2, 3)
kl_jent_report(struct kl_journal *j, const char *fmt, ...)
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
int
kl_jent_fits(const struct kl_journal *j, size_t n)
{
	return (j->alen < KL_JOURNAL_ENTRY_MAX &&
	    n < KL_JOURNAL_ENTRY_MAX - j->alen);
}

/*
 * The entry outgrew its limit at the field being read: report it once,
 * store nothing more.  Returns as report.
 */
int
kl_jent_over(struct kl_journal *j)
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
	return (kl_jent_report(j, "entry exceeds the %u MiB limit at field %s "
	    "(offset %" PRIu64 "); the rest of the entry is dropped",
	    KL_JOURNAL_ENTRY_MAX >> 20, kl_jent_name_esc(j, nb, sizeof(nb)),
	    j->koff));
}

/* Open an entry at stream offset off unless one is open. */
void
kl_jent_open_entry(struct kl_journal *j, uint64_t off)
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
int
kl_jent_commit_name(struct kl_journal *j)
{
	j->named = 0;
	if (j->drop)
		return (0);
	if (!kl_jent_fits(j, j->klen))
		return (kl_jent_over(j));
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
int
kl_jent_start_field(struct kl_journal *j, uint64_t off, int exact)
{
	char nb[KBUF * 4 + 8];

	j->store = 0;
	j->infield = 0;
	if (j->drop || j->mdrop || !j->named)
		return (0);
	if (j->nf >= KL_JOURNAL_FIELDS_MAX) {
		j->partial = 1;
		j->drop = 1;
		return (kl_jent_report(j, "more than %u fields at field %s "
		    "(offset %" PRIu64 "); the rest of the entry is dropped",
		    KL_JOURNAL_FIELDS_MAX, kl_jent_name_esc(j, nb, sizeof(nb)),
		    j->koff));
	}
	if (!kl_jent_fits(j, 0))
		return (kl_jent_over(j));
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
int
kl_jent_put(struct kl_journal *j, const void *b, size_t n)
{
	if (!j->store || n == 0)
		return (0);
	if (!kl_jent_fits(j, n))
		return (kl_jent_over(j));
	if (grow(j, n + 1) == -1)
		return (-1);
	memcpy(j->arena + j->alen, b, n);
	j->alen += n;
	return (0);
}

/* The field being read is complete: NUL-terminate it, add it. */
int
kl_jent_end_field(struct kl_journal *j)
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
		return (0);	/* kl_jent_start_field() refuses these */
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
	/*
	 * kl_jent_start_field() and kl_jent_put() kept a byte of the limit
	 * for this NUL
	 */
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
int
kl_jent_finish(struct kl_journal *j)
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
int
kl_jent_cut(struct kl_journal *j)
{
	if (!j->open)
		return (0);
	j->partial = 1;
	j->store = 0;
	j->infield = 0;
	return (kl_jent_finish(j));
}

/* Number of LF bytes in b[0..n). */
uint64_t
kl_jent_count_lf(const uint8_t *b, size_t n)
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
int
kl_jent_resync(struct kl_journal *j, int bol)
{
	j->st = j->kind == KL_UNIT_EXPORT ? E_SKIP : J_SKIP;
	j->bol = bol;
	return (0);
}
