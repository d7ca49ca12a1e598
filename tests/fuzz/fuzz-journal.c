/*
 * fuzz-journal.c - libFuzzer harness for the journal export and JSON
 * parsers (lib/journal.c).
 *
 * The input is parsed as an export stream and as JSON, each fed whole,
 * in pieces of 1 + data[0] % 61 bytes, and (for inputs up to 4 KiB) one
 * byte at a time; every piece is a copy of its exact size, so that a
 * read past it is caught by ASan.  Each parse is written down as a log
 * of entries, fields and errors; the logs must be identical.  Every
 * delivered field must lie within the stream, exact ones must be the
 * stream's bytes, names must be valid, counts within the limits, and
 * entries must come in stream order.  A broken invariant aborts.
 *
 * Seeds (corpus/journal/): journalctl --file -o export, json, json-seq
 * and json-pretty of a journal made by systemd-journal-remote from
 * kernel records of a real Ubuntu 5.4 boot log (../shared/corpus) (text,
 * binary with a newline, invalid UTF-8, a repeated field, a nested byte
 * array), plus small damaged streams: a binary length past the end, a
 * 2^63 length, CRLF, a json-seq record cut by the next one.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What one parse delivered, written down. */
struct run {
	const uint8_t	*stream;
	size_t		 n;
	uint8_t		*log;
	size_t		 len;
	size_t		 cap;
	uint64_t	 last;		/* offset of the entry before */
	uint64_t	 entries;
};

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Append b[0..n) to the log. */
static void
log_bytes(struct run *r, const void *b, size_t n)
{
	if (r->cap - r->len < n) {
		while (r->cap - r->len < n)
			r->cap = r->cap * 2 + 4096;
		r->log = realloc(r->log, r->cap);
		check(r->log != NULL);
	}
	if (n > 0)
		memcpy(r->log + r->len, b, n);
	r->len += n;
}

/* Append a number to the log. */
static void
log_u64(struct run *r, uint64_t v)
{
	log_bytes(r, &v, sizeof(v));
}

/* Is s a valid field name? */
static int
name_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 64 || (s[0] >= '0' && s[0] <= '9'))
		return (0);
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return (0);
	return (1);
}

/* Entry callback: check the entry, write it down. */
static int
on_entry(void *arg, const struct kl_jentry *e)
{
	struct run *r = arg;
	const struct kl_jfield *f;
	int cursor_seen = e->cursor == NULL, boot_seen = e->boot_id == NULL;
	size_t i;

	check(e->nfields > 0 && e->nfields <= KL_JOURNAL_FIELDS_MAX);
	check(e->offset < r->n);
	check(r->entries == 0 || e->offset > r->last);
	check(e->index >= r->entries);
	check(e->partial == 0 || e->partial == 1);
	r->last = e->offset;
	r->entries++;
	log_u64(r, e->index);
	log_u64(r, e->offset);
	log_u64(r, e->realtime);
	log_u64(r, (uint64_t)e->partial);
	log_u64(r, e->nfields);
	for (i = 0; i < e->nfields; i++) {
		f = &e->fields[i];
		check(name_ok(f->name));
		check(f->len <= KL_JOURNAL_ENTRY_MAX);
		check(f->data[f->len] == '\0');
		check(f->offset >= e->offset && f->offset <= r->n);
		if (f->exact) {
			check(f->len <= r->n - f->offset);
			check(memcmp(f->data, r->stream + f->offset,
			    f->len) == 0);
		}
		if ((const char *)f->data == e->cursor) {
			check(strcmp(f->name, "__CURSOR") == 0);
			check(strlen(e->cursor) == f->len);
			cursor_seen = 1;
		}
		if ((const char *)f->data == e->boot_id) {
			check(strcmp(f->name, "_BOOT_ID") == 0);
			boot_seen = 1;
		}
		log_bytes(r, f->name, strlen(f->name) + 1);
		log_u64(r, f->len);
		log_bytes(r, f->data, f->len);
		log_u64(r, f->offset);
		log_u64(r, (uint64_t)f->exact);
	}
	check(cursor_seen && boot_seen);
	return (0);
}

/* Error callback: check the error, write it down. */
static int
on_error(void *arg, const struct kl_error *e)
{
	struct run *r = arg;
	size_t n = strnlen(e->msg, sizeof(e->msg));

	check(e->code == KL_EFORMAT);
	check(n > 0 && n < sizeof(e->msg));
	check(e->line >= 1);
	log_bytes(r, "E", 1);
	log_u64(r, e->line);
	log_bytes(r, e->msg, n + 1);
	return (0);
}

/*
 * Parse d[0..n) as kind in pieces of step bytes (0: whole), errors to
 * the error callback when cb.
 */
static void
run(enum kl_unit_kind kind, const uint8_t *d, size_t n, size_t step,
    int cb, struct run *r)
{
	struct kl_journal_ops ops = { r, on_entry, cb ? on_error : NULL };
	const struct kl_jstats *st;
	struct kl_journal *j;
	struct kl_error err;
	uint8_t *piece = NULL;
	size_t off, k, have = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->stream = d;
	r->n = n;
	j = kl_journal_new(kind, &ops, &err);
	check(j != NULL);
	for (off = 0; off < n; off += k) {
		k = step == 0 ? n : step;
		if (k > n - off)
			k = n - off;
		if (k != have) {
			/* exactly k bytes, so that ASan sees a read past */
			free(piece);
			piece = malloc(k);
			check(piece != NULL);
			have = k;
		}
		memcpy(piece, d + off, k);
		check(kl_journal_feed(j, piece, k, &err) == 0);
	}
	free(piece);
	rc = kl_journal_end(j, &err);
	st = kl_journal_stats(j);
	/* without the callback, errors come back from end: the first */
	check(rc == (!cb && st->errors > 0 ? -1 : 0));
	check(rc == 0 || (err.code == KL_EFORMAT && err.line >= 1));
	check(st->delivered == r->entries);
	check(st->entries >= st->delivered);
	check(st->partial <= st->delivered);
	check(st->skipped <= n);
	log_u64(r, st->entries);
	log_u64(r, st->errors);
	log_u64(r, st->skipped);
	log_u64(r, st->nulls);
	kl_journal_free(j);
}

/* Parse every way and compare. */
static void
parse(enum kl_unit_kind kind, const uint8_t *d, size_t n)
{
	struct run whole, part;

	run(kind, d, n, 0, 1, &whole);
	run(kind, d, n, 0, 0, &part);
	check(part.entries == whole.entries);
	free(part.log);
	if (n > 0) {
		run(kind, d, n, 1 + d[0] % 61, 1, &part);
		check(part.len == whole.len &&
		    memcmp(part.log, whole.log, whole.len) == 0);
		free(part.log);
	}
	if (n > 1 && n <= 4096) {
		run(kind, d, n, 1, 1, &part);
		check(part.len == whole.len &&
		    memcmp(part.log, whole.log, whole.len) == 0);
		free(part.log);
	}
	free(whole.log);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse(KL_UNIT_EXPORT, data, size);
	parse(KL_UNIT_JSON, data, size);
	return (0);
}
