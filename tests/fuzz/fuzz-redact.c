/*
 * fuzz-redact.c - libFuzzer harness for scan + rewrite (--redact).
 *
 * The input is rewritten at level 2 (zeros) in pieces of a size taken
 * from the input, with a small hold so that the scanner is made to
 * settle early.  Properties, with --arch auto: the output has the length
 * of the input; it differs from the input only inside the digits of
 * findings the level redacts, which are all zeros.  With a fixed
 * profile (no detection, whose guesses depend on where it is made to
 * settle and on the values zeroed), also: rewriting the output again
 * changes nothing, and the input fed in one piece gives the same output.
 *
 * The same input is also read as journal JSON (journalctl -o json), its
 * fields scanned as records and settled at entry starts as the program
 * does: the output has the input's length, a changed byte was a hex
 * digit, a comma or white space and is a digit, a comma or a space (a
 * byte-array number written again), no token is ever found outside the
 * held bytes (only a token made by \u escapes may be refused), and with
 * a fixed profile rewriting twice and in one piece changes nothing.
 *
 * And with the deslide style, its tokens waiting for a boot image that
 * is given when too much is held and at the end (a slide, or none, by
 * the first byte): the output has the input's length and differs only
 * inside the digits of findings, each digit still a hex digit.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define OUT_MAX	(1u << 20)

/* One rewrite: its output and the spans it rewrote. */
struct out {
	uint8_t			*buf;
	size_t			 len;
	uint8_t			*mask;	/* 1 where a redacted digit is */
	size_t			 size;	/* of the input */
	struct kl_redact	*r;
	int			 failed;
};

/* Is c a hex digit? */
static int
ishex(uint8_t c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F'));
}

/* The rewriter's output callback. */
static int
sink_write(void *arg, const void *p, size_t n)
{
	struct out *o = arg;

	if (n > OUT_MAX - o->len)
		abort();
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return (0);
}

/* The scanner's findings go to the rewriter; note what it rewrites. */
static int
on_finding(void *arg, const struct kl_finding *f)
{
	struct out *o = arg;
	struct kl_error err;
	int rc;

	rc = kl_redact_finding(o->r, f, &err);
	if (rc == -1)
		abort();	/* a token the rewriter no longer holds */
	if (rc == 1 || rc == 2) {
		if (f->offset + f->textlen > o->size)
			abort();
		memset(o->mask + f->offset, 1, f->textlen);
	}
	return (0);
}

/* The engines (auto, x86_64), made once for the process. */
static struct kl_engine *
engine(int fixed)
{
	static struct kl_engine *e[2];
	struct kl_options o;
	struct kl_error err;

	if (e[fixed] == NULL) {
		memset(&o, 0, sizeof(o));
		o.suppressed = 1;
		o.window = 256;
		o.arch = fixed ? KL_ARCH_X86_64 : KL_ARCH_AUTO;
		if ((e[fixed] = kl_engine_new(&o, &err)) == NULL)
			abort();
	}
	return (e[fixed]);
}

/*
 * Start a rewrite of size bytes into o: level 2, a small hold; zeros, or
 * the deslide style.
 */
static void
start_as(struct out *o, size_t size, int deslide)
{
	struct kl_redact_opts ro;
	struct kl_error err;

	memset(&ro, 0, sizeof(ro));
	ro.level = 2;
	ro.max_hold = 512;
	ro.deslide = deslide;
	o->len = 0;
	o->size = size;
	if ((o->r = kl_redact_new(&ro, sink_write, o, &err)) == NULL)
		abort();
}

/* Start a rewrite of size bytes into o, writing zeros. */
static void
start(struct out *o, size_t size)
{
	start_as(o, size, 0);
}

/*
 * Rewrite data[0..size) in the deslide style, fed step bytes at a time,
 * the waiting tokens given img when too much is held and at the end.
 */
static void
rewrite_ds(const uint8_t *data, size_t size, size_t step,
    const struct kl_redact_image *img, struct out *o)
{
	struct kl_error err;
	struct kl_scan *sc;
	struct kl_sink sink;
	size_t i, k;

	start_as(o, size, 1);
	memset(o->mask, 0, size);
	memset(&sink, 0, sizeof(sink));
	sink.arg = o;
	sink.finding = on_finding;
	if ((sc = kl_scan_new(engine(1), &sink, &err)) == NULL)
		abort();
	for (i = 0; i < size; i += k) {
		k = size - i < step ? size - i : step;
		if (kl_redact_data(o->r, data + i, k, &err) == -1 ||
		    kl_scan_feed(sc, data + i, k, &err) == -1 ||
		    kl_redact_settle(o->r, kl_scan_settled(sc), &err) == -1)
			abort();
		if (kl_redact_full(o->r) && (kl_scan_settle(sc) == -1 ||
		    kl_redact_resolve(o->r, img, NULL, NULL, &err) == -1 ||
		    kl_redact_settle(o->r, kl_scan_settled(sc), &err) == -1))
			abort();
	}
	if (kl_scan_end(sc, &err) == -1 ||
	    kl_redact_resolve(o->r, img, NULL, NULL, &err) == -1 ||
	    kl_redact_waiting(o->r) != 0 || kl_redact_end(o->r, &err) == -1)
		abort();
	kl_scan_free(sc);
	kl_redact_free(o->r);
	o->r = NULL;
}

/* Rewrite data[0..size) fed step bytes at a time into o. */
static void
rewrite(const uint8_t *data, size_t size, size_t step, int fixed,
    struct out *o)
{
	struct kl_error err;
	struct kl_scan *sc;
	struct kl_sink sink;
	size_t i, k;

	start(o, size);
	memset(o->mask, 0, size);
	memset(&sink, 0, sizeof(sink));
	sink.arg = o;
	sink.finding = on_finding;
	if ((sc = kl_scan_new(engine(fixed), &sink, &err)) == NULL)
		abort();
	for (i = 0; i < size; i += k) {
		k = size - i < step ? size - i : step;
		if (kl_redact_data(o->r, data + i, k, &err) == -1 ||
		    kl_scan_feed(sc, data + i, k, &err) == -1)
			abort();
		if (kl_redact_settle(o->r, kl_scan_settled(sc), &err) == -1)
			abort();
		if (kl_redact_full(o->r)) {
			if (kl_scan_settle(sc) == -1)
				abort();
			if (kl_redact_settle(o->r, kl_scan_settled(sc),
			    &err) == -1)
				abort();
		}
	}
	if (kl_scan_end(sc, &err) == -1 || kl_redact_end(o->r, &err) == -1)
		abort();
	kl_scan_free(sc);
	kl_redact_free(o->r);
	o->r = NULL;
}

/* The JSON path: the stream, its parser, scanner and entry starts. */
struct jrun {
	struct out		*o;
	struct kl_scan		*sc;
	uint64_t		*ent;		/* entry starts still held */
	size_t			 nent;
};

/* A finding in a JSON field: only an escaped token may be refused. */
static int
on_jfinding(void *arg, const struct kl_finding *f)
{
	struct out *o = arg;
	struct kl_error err;

	memset(&err, 0, sizeof(err));
	if (kl_redact_finding(o->r, f, &err) == -1 && err.code != KL_EFORMAT)
		abort();	/* a token the rewriter no longer holds */
	return (0);
}

/* An entry: settle as rewrite.c does, then scan its fields. */
static int
on_jentry(void *arg, const struct kl_jentry *e)
{
	struct jrun *j = arg;
	struct kl_record rec;
	struct kl_error err;
	uint64_t s;
	size_t i, k;

	j->ent[j->nent++] = e->offset;
	s = kl_scan_settled(j->sc);
	if (s > e->offset)
		s = e->offset;
	for (k = 0; k + 1 < j->nent && j->ent[k + 1] <= s; k++)
		;
	if (kl_redact_settle(j->o->r, j->ent[k], &err) == -1)
		abort();
	memmove(j->ent, j->ent + k, (j->nent - k) * sizeof(*j->ent));
	j->nent -= k;
	if (kl_redact_full(j->o->r) && kl_scan_settle(j->sc) == -1)
		abort();
	for (i = 0; i < e->nfields; i++) {
		if (strncmp(e->fields[i].name, "__", 2) == 0)
			continue;
		memset(&rec, 0, sizeof(rec));
		rec.offset = e->fields[i].offset;
		rec.entry = e->index;
		rec.field = e->fields[i].name;
		rec.exact = e->fields[i].exact;
		if (kl_scan_record_begin(j->sc, &rec, &err) == -1 ||
		    kl_scan_feed(j->sc, e->fields[i].data, e->fields[i].len,
		    &err) == -1 || kl_scan_record_end(j->sc, &err) == -1)
			abort();
	}
	return (0);
}

/* Rewrite data[0..size) as journal JSON, fed step bytes at a time. */
static void
rewrite_json(const uint8_t *data, size_t size, size_t step, int fixed,
    struct out *o)
{
	struct kl_journal_ops ops;
	struct kl_journal *jr;
	struct kl_error err;
	struct kl_sink sink;
	struct jrun j;
	size_t i, k;

	start(o, size);
	memset(&sink, 0, sizeof(sink));
	sink.arg = o;
	sink.finding = on_jfinding;
	memset(&j, 0, sizeof(j));
	j.o = o;
	if ((j.sc = kl_scan_new(engine(fixed), &sink, &err)) == NULL ||
	    (j.ent = malloc((size + 1) * sizeof(*j.ent))) == NULL)
		abort();
	memset(&ops, 0, sizeof(ops));
	ops.arg = &j;
	ops.entry = on_jentry;
	if ((jr = kl_journal_new(KL_UNIT_JSON, &ops, &err)) == NULL)
		abort();
	for (i = 0; i < size; i += k) {
		k = size - i < step ? size - i : step;
		if (kl_redact_data(o->r, data + i, k, &err) == -1 ||
		    kl_journal_feed(jr, data + i, k, &err) == -1)
			abort();
	}
	(void)kl_journal_end(jr, &err);	/* format errors are no matter */
	if (kl_scan_end(j.sc, &err) == -1 || kl_redact_end(o->r, &err) == -1)
		abort();
	kl_journal_free(jr);
	kl_scan_free(j.sc);
	free(j.ent);
	kl_redact_free(o->r);
	o->r = NULL;
}

/* The JSON properties of data[0..size). */
static void
check_json(const uint8_t *data, size_t size, size_t step, struct out *a,
    struct out *b, struct out *c)
{
	size_t i;

	rewrite_json(data, size, step, 0, a);
	if (a->len != size)
		abort();
	for (i = 0; i < size; i++)
		if (a->buf[i] != data[i] &&
		    (strchr("0123456789abcdefABCDEF, \t\r\n", data[i]) == NULL ||
		    strchr("0123456789, ", a->buf[i]) == NULL ||
		    data[i] == '\0' || a->buf[i] == '\0'))
			abort();
	rewrite_json(data, size, step, 1, a);
	rewrite_json(a->buf, a->len, step, 1, b);
	if (b->len != a->len || memcmp(b->buf, a->buf, a->len) != 0)
		abort();
	rewrite_json(data, size, size > 0 ? size : 1, 1, c);
	if (c->len != a->len || memcmp(c->buf, a->buf, a->len) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t b1[OUT_MAX], b2[OUT_MAX], b3[OUT_MAX];
	static uint8_t m1[OUT_MAX], m2[OUT_MAX], m3[OUT_MAX];
	struct out a = { b1, 0, m1, 0, NULL, 0 };
	struct out b = { b2, 0, m2, 0, NULL, 0 };
	struct out c = { b3, 0, m3, 0, NULL, 0 };
	static const struct kl_redact_image img = {
		1, 0x4200000, 0xffffffff85200000ULL, 0xffffffff88630000ULL
	};
	size_t i, step;

	if (size > OUT_MAX)
		return (0);
	step = size > 0 ? 1 + data[0] % 61 : 1;
	rewrite(data, size, step, 0, &a);
	if (a.len != size)
		abort();
	for (i = 0; i < size; i++)
		if (a.mask[i] ? a.buf[i] != '0' : a.buf[i] != data[i])
			abort();
	rewrite(data, size, step, 1, &a);
	if (a.len != size)
		abort();
	for (i = 0; i < size; i++)
		if (a.mask[i] ? a.buf[i] != '0' : a.buf[i] != data[i])
			abort();
	/* Idempotence: the output has nothing left to rewrite. */
	rewrite(a.buf, a.len, step, 1, &b);
	if (b.len != a.len || memcmp(b.buf, a.buf, a.len) != 0)
		abort();
	/* The pieces do not matter. */
	rewrite(data, size, size > 0 ? size : 1, 1, &c);
	if (c.len != a.len || memcmp(c.buf, a.buf, a.len) != 0)
		abort();
	check_json(data, size, step, &a, &b, &c);
	/* deslide: at a slide (first byte odd), or none known. */
	rewrite_ds(data, size, step, size > 0 && (data[0] & 1) ? &img :
	    NULL, &a);
	if (a.len != size)
		abort();
	for (i = 0; i < size; i++)
		if (a.buf[i] != data[i] && (!a.mask[i] ||
		    !ishex(a.buf[i]) || !ishex(data[i])))
			abort();
	return (0);
}
