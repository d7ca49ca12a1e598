/*
 * test-xz-mt.c - xz streams through liblzma's threaded decoder: a
 * multi-block stream (as xz -T0 writes) on one, two and every thread,
 * from a file and from a pipe in small pieces; concatenated streams and
 * padding; a cut, a corrupted and a garbage-trailed stream handing out
 * every byte liblzma's single-threaded decoder makes of it, then the
 * libarchive path's message.
 */

#include "config.h"

#include "input-harness.h"

#ifdef HAVE_LZMA_MT
#include <lzma.h>

#define BIGN	(600u << 10)

static uint8_t *big;		/* the real log, repeated to BIGN bytes */

/* b[0..n) as an xz stream of blocks of bs bytes; *outn its length. */
static uint8_t *
enc(const uint8_t *b, size_t n, uint64_t bs, size_t *outn)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_mt mt = { 0 };
	uint8_t *out;
	size_t cap;

	mt.threads = 2;
	mt.block_size = bs;
	mt.preset = 1;
	mt.check = LZMA_CHECK_CRC64;
	assert_int_equal(lzma_stream_encoder_mt(&s, &mt), LZMA_OK);
	cap = n + (64u << 10);
	out = malloc(cap);
	assert_non_null(out);
	s.next_in = b;
	s.avail_in = n;
	s.next_out = out;
	s.avail_out = cap;
	assert_int_equal(lzma_code(&s, LZMA_FINISH), LZMA_STREAM_END);
	*outn = cap - s.avail_out;
	lzma_end(&s);
	return (out);
}

/*
 * What liblzma's single-threaded decoder makes of x[0..n) with all of
 * it given at once: the bytes out (*outn) and its return code.
 */
static lzma_ret
dec1(const uint8_t *x, size_t n, uint8_t *out, size_t cap, size_t *outn)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret;

	assert_int_equal(lzma_stream_decoder(&s, UINT64_C(1) << 30,
	    LZMA_CONCATENATED), LZMA_OK);
	s.next_in = x;
	s.avail_in = n;
	s.next_out = out;
	s.avail_out = cap;
	do
		ret = lzma_code(&s, LZMA_FINISH);
	while (ret == LZMA_OK);
	*outn = cap - s.avail_out;
	lzma_end(&s);
	return (ret);
}

/* The blocks of the xz stream x[0..n) (one stream). */
static uint64_t
nblocks(const uint8_t *x, size_t n)
{
	lzma_stream_flags f;
	lzma_index *idx = NULL;
	uint64_t mem = UINT64_MAX, b;
	size_t pos = 0, isz;

	assert_int_equal(lzma_stream_footer_decode(&f, x + n - 12), LZMA_OK);
	isz = (size_t)f.backward_size;
	assert_int_equal(lzma_index_buffer_decode(&idx, &mem, NULL,
	    x + n - 12 - isz, &pos, isz), LZMA_OK);
	b = lzma_index_block_count(idx);
	lzma_index_end(idx, NULL);
	return (b);
}

/* A multi-block stream: the whole log on 1, 2 and every thread. */
static void
t_multi(void **state)
{
	struct kl_limits lim = { 0 };
	struct rec r = { 0 };
	uint8_t *x;
	size_t n;
	unsigned th;
	char p[256];

	(void)state;
	assert_string_equal(kl_input_xz_decoder(), "liblzma threaded");
	x = enc(big, BIGN, 64u << 10, &n);
	assert_int_equal(nblocks(x, n), BIGN / (64u << 10) + 1);
	tpath(p, sizeof(p), "big.log.xz");
	spew(p, x, n);
	/* 0: every CPU; 1 and 2: the plain decoder; 3, 4: threads. */
	for (th = 0; th <= 4; th++) {
		lim.threads = th;
		assert_int_equal(run_file(p, "big.log.xz", &lim, &r), 0);
		assert_int_equal(r.n, 1);
		is_unit(&r.u[0], "big.log.xz", "{big.log}", "xz", big, BIGN);
		rec_free(&r);
	}
	assert_int_equal(run_pipe(p, "-", NULL, &r, 4096), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "-", "{-}", "xz", big, BIGN);
	rec_free(&r);
	free(x);
}

/* Streams one after the other, padding between and after: as xz -d. */
static void
t_concat(void **state)
{
	struct rec r = { 0 };
	uint8_t *x1, *x2, *cat, *want;
	size_t n1, n2, n;
	char p[256], msg[256];

	(void)state;
	x1 = enc(big, BIGN, 64u << 10, &n1);
	x2 = enc(oops, oopslen, 0, &n2);
	assert_int_equal(nblocks(x2, n2), 1);
	n = n1 + 8 + n2 + 4;
	cat = calloc(1, n);
	want = malloc(BIGN + oopslen);
	assert_non_null(cat);
	assert_non_null(want);
	memcpy(cat, x1, n1);
	memcpy(cat + n1 + 8, x2, n2);
	memcpy(want, big, BIGN);
	memcpy(want + BIGN, oops, oopslen);
	tpath(p, sizeof(p), "cat.xz");
	spew(p, cat, n);
	assert_int_equal(run_file(p, "cat.xz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "cat.xz", "{cat}", "xz", want, BIGN + oopslen);
	rec_free(&r);
	/* Padding that is not a multiple of four bytes is damage. */
	spew(p, cat, n - 1);
	assert_int_equal(run_file(p, "cat.xz", NULL, &r), 0);
	assert_int_equal(r.u[0].total, BIGN + oopslen);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(msg, sizeof(msg), "cat: broken at byte %zu: xz: lzma "
	    "library error: corrupted input data", BIGN + oopslen);
	assert_string_equal(r.u[0].emsg, msg);
	rec_free(&r);
	free(cat);
	free(want);
	free(x1);
	free(x2);
}

/*
 * The damaged stream x[0..n) named name: every byte liblzma's
 * single-threaded decoder makes of it, then the message why.
 */
static void
damaged(const uint8_t *x, size_t n, const char *name, const char *why)
{
	struct rec r = { 0 };
	uint8_t *out;
	size_t got;
	char p[256], want[256];

	out = malloc(BIGN);
	assert_non_null(out);
	assert_int_not_equal(dec1(x, n, out, BIGN, &got), LZMA_STREAM_END);
	tpath(p, sizeof(p), name);
	spew(p, x, n);
	assert_int_equal(run_file(p, name, NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, got);
	assert_memory_equal(r.u[0].data, out, got);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(want, sizeof(want), "%.*s: broken at byte %zu: xz: %s",
	    (int)(strlen(name) - 3), name, got, why);
	assert_string_equal(r.u[0].emsg, want);
	rec_free(&r);
	free(out);
}

/* Cut, corrupted, followed by garbage: the bytes before, one message. */
static void
t_damage(void **state)
{
	uint8_t *x, *y;
	size_t n;

	(void)state;
	x = enc(big, BIGN, 64u << 10, &n);
	damaged(x, n / 2, "half.xz",
	    "lzma library error: no progress is possible");
	damaged(x, n - 1, "last.xz",
	    "lzma library error: no progress is possible");
	damaged(x, 30, "head.xz",
	    "lzma library error: no progress is possible");
	y = malloc(n + 40);
	assert_non_null(y);
	memcpy(y, x, n);
	y[n / 3] ^= 0x55;
	damaged(y, n, "flip.xz", "lzma library error: corrupted input data");
	memcpy(y, x, n);
	memset(y + n, 'j', 40);
	damaged(y, n + 40, "junk.xz",
	    "lzma library error: corrupted input data");
	free(y);
	free(x);
}
#endif

/* Group setup: the harness's, and the long log. */
static int
xsetup(void **state)
{
#ifdef HAVE_LZMA_MT
	size_t i;
#endif

	if (setup(state) != 0)
		return (-1);
#ifdef HAVE_LZMA_MT
	if ((big = malloc(BIGN)) == NULL)
		return (-1);
	for (i = 0; i < BIGN; i++)
		big[i] = oops[i % oopslen];
#endif
	return (0);
}

/* Group teardown. */
static int
xteardown(void **state)
{
#ifdef HAVE_LZMA_MT
	free(big);
#endif
	return (teardown(state));
}

/* Without liblzma 5.4, xz goes through libarchive: say so. */
static void
t_decoder(void **state)
{
	(void)state;
#ifdef HAVE_LZMA_MT
	assert_string_equal(kl_input_xz_decoder(), "liblzma threaded");
#else
	assert_string_equal(kl_input_xz_decoder(), "libarchive");
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_decoder),
#ifdef HAVE_LZMA_MT
		cmocka_unit_test(t_multi),
		cmocka_unit_test(t_concat),
		cmocka_unit_test(t_damage),
#endif
	};

	return (cmocka_run_group_tests(tests, xsetup, xteardown));
}
