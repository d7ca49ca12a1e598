/*
 * fuzz-scan.c - libFuzzer harness for the whole scanning pipeline.
 *
 * The input is scanned three ways: in one piece with the fast finder, in
 * pieces of a size taken from the input with the fast finder and a small
 * window, and in one piece with the PCRE2 reference engine.  The first and
 * the last must give identical findings; all must stay within bounds.
 * Then with a line sink that takes verdict.c's heads, with and without
 * the lean path (scan.c lean_run()), for the architecture found and for
 * x86_64 from the start: the same findings, lines and boots each way.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"
#include "kleak-int.h"
#include "scan-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct rec {
	uint64_t	 line, column, offset, value;
	int		 region, suppressed;
};

struct recs {
	struct rec	 r[4096];
	size_t		 n;
	const uint8_t	*data;
	size_t		 size;
	uint64_t	 ev;		/* FNV-1a of the line and boot events */
	uint64_t	 nev;
	const char	*heads;
};

/* Fold the words of an event into rs->ev. */
static void
ev_fold(struct recs *rs, const uint64_t *w, size_t n)
{
	size_t i, b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++) {
			rs->ev ^= (w[i] >> (8 * b)) & 0xff;
			rs->ev *= UINT64_C(0x100000001b3);
		}
	rs->nev++;
}

/* Sink: a line, taken as verdict.c takes it (kl_sink.line_heads). */
static int
on_line(void *arg, const struct kl_line *l)
{
	struct recs *rs = arg;
	const uint8_t *m = l->text + l->msg;
	size_t n = l->len - l->msg;
	const char *h;
	uint64_t w[6];
	int first = 0;

	if (l->msg > l->len)
		abort();
	for (h = rs->heads; !l->banner && h != NULL && *h != '\0'; h += 4) {
		if (n >= 4 && memcmp(m, h, 4) == 0)
			break;
		first |= n > 0 && m[0] == (uint8_t)h[0];
	}
	if (!l->banner && h != NULL && *h == '\0' && first)
		return (0);
	w[0] = 1;
	w[1] = l->line;
	w[2] = l->offset;
	w[3] = l->len;
	w[4] = l->msg;
	w[5] = (uint64_t)l->boot << 1 | (l->banner != 0);
	ev_fold(rs, w, 6);
	return (0);
}

/* Sink: a boot segment that ended. */
static int
on_boot(void *arg, const struct kl_boot *b)
{
	uint64_t w[6];

	w[0] = 2;
	w[1] = b->boot;
	w[2] = b->first_line;
	w[3] = b->last_line;
	w[4] = (uint64_t)b->arch << 32 | b->first_offset;
	w[5] = b->last_offset;
	ev_fold(arg, w, 6);
	return (0);
}

/* Sink: check the finding points into the input, and record it. */
static int
collect(void *arg, const struct kl_finding *f)
{
	struct recs *rs = arg;

	if (f->offset + f->textlen > rs->size ||
	    memcmp(rs->data + f->offset, f->text, f->textlen) != 0)
		abort();
	if (f->column < f->lcol || f->line == 0 || f->column == 0)
		abort();
	if (f->textlen != 8 && f->textlen != 16)
		abort();
	if (rs->n < sizeof(rs->r) / sizeof(rs->r[0])) {
		rs->r[rs->n].line = f->line;
		rs->r[rs->n].column = f->column;
		rs->r[rs->n].offset = f->offset;
		rs->r[rs->n].value = f->value;
		rs->r[rs->n].region = f->region;
		rs->r[rs->n].suppressed = f->suppressed;
		rs->n++;
	}
	return (0);
}

/* An engine per (engine, window, x86_64) kind, made once. */
static struct kl_engine *
engine_for(enum kl_engine_kind engine, size_t window, int x86)
{
	static struct kl_engine *cache[2][2][2];
	struct kl_options o;
	struct kl_error err;
	struct kl_engine **e =
	    &cache[engine == KL_ENGINE_PCRE2][window != 0][x86 != 0];

	if (*e == NULL) {
		memset(&o, 0, sizeof(o));
		o.engine = engine;
		o.window = window;
		o.arch = x86 ? KL_ARCH_X86_64 : KL_ARCH_AUTO;
		o.suppressed = 1;
		if ((*e = kl_engine_new(&o, &err)) == NULL)
			abort();
	}
	return (*e);
}

/*
 * Scan data once; step 0 means in one piece.  lean: 0 findings only, 1
 * and a line sink, 2 the same without the lean path; x86: x86_64 from
 * the start.
 */
static void
run(const uint8_t *data, size_t size, enum kl_engine_kind engine,
    size_t window, size_t step, int lean, int x86, struct recs *out)
{
	static const char heads[] = "KernKERNKASLCommPHYSMemo";
	static const uint64_t first[4] = {
		0, (UINT64_C(1) << ('C' - 64)) | (UINT64_C(1) << ('K' - 64)) |
		    (UINT64_C(1) << ('M' - 64)) | (UINT64_C(1) << ('P' - 64)),
		0, 0
	};
	struct kl_error err;
	struct kl_engine *e = engine_for(engine, window, x86);
	struct kl_scan *sc;
	struct kl_sink sink;
	size_t i, k;

	out->n = 0;
	out->data = data;
	out->size = size;
	out->ev = UINT64_C(0xcbf29ce484222325);
	out->nev = 0;
	out->heads = heads;
	memset(&sink, 0, sizeof(sink));
	sink.arg = out;
	sink.finding = collect;
	if (lean) {
		sink.line = on_line;
		sink.boot = on_boot;
		sink.line_first = first;
		sink.line_heads = heads;
	}
	if ((sc = kl_scan_new(e, &sink, &err)) == NULL)
		abort();
	kl_scan_set_lean(sc, lean != 2);
	if (step == 0)
		step = size ? size : 1;
	for (i = 0; i < size; i += k) {
		k = size - i < step ? size - i : step;
		if (kl_scan_feed(sc, data + i, k, &err) == -1)
			abort();
	}
	if (kl_scan_end(sc, &err) == -1)
		abort();
	kl_scan_free(sc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct recs a, b, c;
	size_t step;
	int x86;

	run(data, size, KL_ENGINE_FAST, 0, 0, 0, 0, &a);
	run(data, size, KL_ENGINE_PCRE2, 0, 0, 0, 0, &b);
	if (a.n != b.n || memcmp(a.r, b.r, a.n * sizeof(a.r[0])) != 0)
		abort();
	step = size > 0 ? 1 + data[0] % 13 : 1;
	run(data, size, KL_ENGINE_FAST, 0, step, 0, 0, &c);
	if (a.n != c.n || memcmp(a.r, c.r, a.n * sizeof(a.r[0])) != 0)
		abort();
	/* A tiny window only has to stay in bounds (lines get cut). */
	run(data, size, KL_ENGINE_FAST, 64, step, 0, 0, &c);
	/* The lean path, in one piece and in pieces, reads the same. */
	for (x86 = 0; x86 < 2; x86++) {
		run(data, size, KL_ENGINE_FAST, 0, 0, 2, x86, &a);
		run(data, size, KL_ENGINE_FAST, 0, 0, 1, x86, &b);
		run(data, size, KL_ENGINE_FAST, 0, step, 1, x86, &c);
		if (a.n != b.n || a.ev != b.ev || a.nev != b.nev ||
		    memcmp(a.r, b.r, a.n * sizeof(a.r[0])) != 0 ||
		    a.n != c.n || a.ev != c.ev || a.nev != c.nev ||
		    memcmp(a.r, c.r, a.n * sizeof(a.r[0])) != 0)
			abort();
	}
	return (0);
}
