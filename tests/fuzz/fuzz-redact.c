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
	if (rc == 1) {
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

/* Rewrite data[0..size) fed step bytes at a time into o. */
static void
rewrite(const uint8_t *data, size_t size, size_t step, int fixed,
    struct out *o)
{
	struct kl_redact_opts ro;
	struct kl_error err;
	struct kl_scan *sc;
	struct kl_sink sink;
	size_t i, k;

	memset(&ro, 0, sizeof(ro));
	ro.level = 2;
	ro.max_hold = 512;
	o->len = 0;
	o->size = size;
	memset(o->mask, 0, size);
	if ((o->r = kl_redact_new(&ro, sink_write, o, &err)) == NULL)
		abort();
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t b1[OUT_MAX], b2[OUT_MAX], b3[OUT_MAX];
	static uint8_t m1[OUT_MAX], m2[OUT_MAX], m3[OUT_MAX];
	struct out a = { b1, 0, m1, 0, NULL, 0 };
	struct out b = { b2, 0, m2, 0, NULL, 0 };
	struct out c = { b3, 0, m3, 0, NULL, 0 };
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
	return (0);
}
