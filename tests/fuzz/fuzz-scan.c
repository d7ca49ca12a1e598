/*
 * fuzz-scan.c - libFuzzer harness for the whole scanning pipeline.
 *
 * The input is scanned three ways: in one piece with the fast finder, in
 * pieces of a size taken from the input with the fast finder and a small
 * window, and in one piece with the PCRE2 reference engine.  The first and
 * the last must give identical findings; all must stay within bounds.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

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
};

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

/* An engine per (engine, window) pair, made once for the process. */
static struct kl_engine *
engine_for(enum kl_engine_kind engine, size_t window)
{
	static struct kl_engine *cache[2][2];
	struct kl_options o;
	struct kl_error err;
	struct kl_engine **e = &cache[engine == KL_ENGINE_PCRE2][window != 0];

	if (*e == NULL) {
		memset(&o, 0, sizeof(o));
		o.engine = engine;
		o.window = window;
		o.suppressed = 1;
		if ((*e = kl_engine_new(&o, &err)) == NULL)
			abort();
	}
	return (*e);
}

/* Scan data once; step 0 means in one piece. */
static void
run(const uint8_t *data, size_t size, enum kl_engine_kind engine,
    size_t window, size_t step, struct recs *out)
{
	struct kl_error err;
	struct kl_engine *e = engine_for(engine, window);
	struct kl_scan *sc;
	struct kl_sink sink;
	size_t i, k;

	out->n = 0;
	out->data = data;
	out->size = size;
	memset(&sink, 0, sizeof(sink));
	sink.arg = out;
	sink.finding = collect;
	if ((sc = kl_scan_new(e, &sink, &err)) == NULL)
		abort();
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

	run(data, size, KL_ENGINE_FAST, 0, 0, &a);
	run(data, size, KL_ENGINE_PCRE2, 0, 0, &b);
	if (a.n != b.n || memcmp(a.r, b.r, a.n * sizeof(a.r[0])) != 0)
		abort();
	step = size > 0 ? 1 + data[0] % 13 : 1;
	run(data, size, KL_ENGINE_FAST, 0, step, &c);
	if (a.n != c.n || memcmp(a.r, c.r, a.n * sizeof(a.r[0])) != 0)
		abort();
	/* A tiny window only has to stay in bounds (lines get cut). */
	run(data, size, KL_ENGINE_FAST, 64, step, &c);
	return (0);
}
