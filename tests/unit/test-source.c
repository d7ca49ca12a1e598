/*
 * test-source.c - the limits an input is read within: decompression
 * bombs stopped by max_ratio, max_member and max_total cutting units at
 * the exact byte, and a non-blocking descriptor ending the input.
 */

#include "config.h"

#include "input-harness.h"

/*
 * A stream of 10 GiB: 10240 gzip members of 1 MiB of pattern, gzipped
 * twice more (under 2 KB when the pattern repeats).  *outn its size.
 */
static uint8_t *
mk_bomb(const uint8_t *pat, size_t patlen, size_t *outn)
{
	uint8_t *mib, *g1, *cat, *g2, *g3;
	size_t i, g1n, g2n, g3n;

	mib = malloc(1 << 20);
	assert_non_null(mib);
	for (i = 0; i < (1u << 20); i++)
		mib[i] = pat[i % patlen];
	g1 = m_filter(ARCHIVE_FILTER_GZIP, mib, 1 << 20, &g1n);
	cat = malloc(g1n * 10240);
	assert_non_null(cat);
	for (i = 0; i < 10240; i++)
		memcpy(cat + i * g1n, g1, g1n);
	g2 = m_filter(ARCHIVE_FILTER_GZIP, cat, g1n * 10240, &g2n);
	g3 = m_filter(ARCHIVE_FILTER_GZIP, g2, g2n, &g3n);
	free(mib);
	free(g1);
	free(cat);
	free(g2);
	*outn = g3n;
	return (g3);
}

/* Seconds since t0. */
static double
since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return ((double)(t1.tv_sec - t0->tv_sec) +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e9);
}

/* 1 KB that expands to 10 GiB stops fast at the ratio limit. */
static void
t_bomb(void **state)
{
	static const uint8_t line[] = "[    0.000000] bomb\n";
	static const uint8_t zero[1] = { 0 };
	struct timespec t0;
	struct rec r = { 0 };
	char p[256], want[256];
	uint8_t *b;
	size_t n;
	int z;

	(void)state;
	for (z = 0; z <= 1; z++) {
		b = z ? mk_bomb(zero, 1, &n) : mk_bomb(line, sizeof(line) - 1,
		    &n);
		assert_true(n < 2048);
		tpath(p, sizeof(p), "bomb.gz");
		spew(p, b, n);
		free(b);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(run_file(p, "bomb.gz", NULL, &r), 0);
		assert_true(since(&t0) < 10.0);
		assert_int_equal(r.n, 1);
		assert_string_equal(r.u[0].chain, "{bomb}");
		assert_int_equal(r.u[0].kind, KL_UNIT_TEXT);
		/* The 64 MiB floor: 4000 x 1 KB is less. */
		assert_int_equal(r.u[0].total, UINT64_C(64) << 20);
		assert_int_equal(r.u[0].ecode, KL_ELIMIT);
		snprintf(want, sizeof(want), "ratio limit reached: %llu bytes "
		    "expanded from %zu (max_ratio 4000 to 1)",
		    (unsigned long long)(UINT64_C(64) << 20), n);
		assert_string_equal(r.u[0].emsg, want);
		rec_free(&r);

		/* On a pipe: against the bytes read so far. */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(run_pipe(p, "-", NULL, &r, 100), 0);
		assert_true(since(&t0) < 10.0);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.u[0].total, UINT64_C(64) << 20);
		assert_int_equal(r.u[0].ecode, KL_ELIMIT);
		rec_free(&r);
	}
}

/*
 * A tar.gz of sixteen gzip members of 1 GiB of zeros each: stopped in
 * seconds, the whole input with it.
 */
static void
t_bomb16(void **state)
{
	static const uint8_t zeros[1 << 16];
	struct timespec t0;
	struct ent e[16];
	struct rec r = { 0 };
	uint8_t *g1, *gig, *mib;
	size_t g1n, i;
	char names[16][16], p[256];

	(void)state;
	mib = calloc(1, 1 << 20);
	assert_non_null(mib);
	g1 = m_filter(ARCHIVE_FILTER_GZIP, mib, 1 << 20, &g1n);
	free(mib);
	gig = malloc(g1n * 1024);
	assert_non_null(gig);
	for (i = 0; i < 1024; i++)
		memcpy(gig + i * g1n, g1, g1n);
	for (i = 0; i < 16; i++) {
		snprintf(names[i], sizeof(names[i]), "z%zu.gz", i);
		e[i] = (struct ent){ names[i], gig, g1n * 1024, 0 };
	}
	tpath(p, sizeof(p), "b16.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, e, 16);
	free(gig);
	free(g1);
	(void)zeros;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_file(p, "b16.tar.gz", NULL, &r), 0);
	assert_true(since(&t0) < 10.0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "{z0.gz}{z0}");
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_true(strncmp(r.u[0].emsg, "ratio limit reached: ", 21) == 0);
	assert_true(r.u[0].total <= UINT64_C(4000) * 100000);
	rec_free(&r);
}

/* max_member cuts a member exactly; the next member follows. */
static void
t_member_limit(void **state)
{
	struct kl_limits lim = { 0 };
	struct ent e[2];
	struct rec r = { 0 };
	char p[256];
	size_t i;

	(void)state;
	e[0] = (struct ent){ "kern.log", oops, oopslen, 0 };
	e[1] = (struct ent){ "messages", rg353, rg353len, 0 };
	tpath(p, sizeof(p), "two.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, e, 2);
	lim.max_member = 30000;
	assert_int_equal(run_file(p, "two.tar.gz", &lim, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.u[0].total, 30000);
	assert_memory_equal(r.u[0].data, oops, 30000);
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_string_equal(r.u[0].emsg, "member size limit reached: more "
	    "than 30000 bytes (max_member)");
	is_unit(&r.u[1], "two.tar.gz", "{messages}", "gzip", rg353, rg353len);
	rec_free(&r);

	/* A plain input is no member: not cut. */
	lim.max_member = 10;
	assert_int_equal(run_file(LOG1, "x", &lim, &r), 0);
	is_unit(&r.u[0], "x", "", "", oops, oopslen);
	rec_free(&r);

	/* Every member cut. */
	assert_int_equal(run_pipe(p, "-", &lim, &r, 3000), 0);
	assert_int_equal(r.n, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(r.u[i].total, 10);
		assert_int_equal(r.u[i].ecode, KL_ELIMIT);
	}
	rec_free(&r);
}

/* Run on a tar of n members of 10 bytes, with max_total total. */
static void
run_tiny(size_t n, struct kl_limits *lim, uint64_t total, struct rec *r)
{
	struct ent *e;
	char p[256], (*names)[16];
	size_t i;

	e = calloc(n, sizeof(*e));
	names = calloc(n, sizeof(*names));
	assert_true(e != NULL && names != NULL);
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%zu", i);
		e[i] = (struct ent){ names[i], oops, 10, 0 };
	}
	tpath(p, sizeof(p), "tiny.tar");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_NONE, e,
	    n);
	lim->max_total = total;
	assert_int_equal(run_file(p, "tiny.tar", lim, r), 0);
	free(e);
	free(names);
}

/* max_total stops the whole input, exactly where it says. */
static void
t_total_limit(void **state)
{
	struct kl_limits lim = { 0 };
	struct ent e[3];
	struct rec r = { 0 };
	char p[256];

	(void)state;
	tpath(p, sizeof(p), "kern.log.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, oops, oopslen);
	lim.max_total = 50000;
	assert_int_equal(run_file(p, "kern.log.gz", &lim, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, 50000);
	assert_memory_equal(r.u[0].data, oops, 50000);
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_string_equal(r.u[0].emsg, "total size limit reached: 50000 "
	    "bytes expanded (max_total 50000)");
	rec_free(&r);

	/* A plain input counts too. */
	assert_int_equal(run_file(LOG1, "p", &lim, &r), 0);
	assert_int_equal(r.u[0].total, 50000);
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	rec_free(&r);

	/* In an archive, headers count; the third member never comes. */
	e[0] = (struct ent){ "a", oops, oopslen, 0 };
	e[1] = (struct ent){ "b", oops, oopslen, 0 };
	e[2] = (struct ent){ "c", rg353, rg353len, 0 };
	tpath(p, sizeof(p), "three.tar");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_NONE, e, 3);
	lim.max_total = 150000;
	assert_int_equal(run_file(p, "three.tar", &lim, &r), 0);
	assert_int_equal(r.n, 2);
	is_unit(&r.u[0], "three.tar", "{a}", "", oops, oopslen);
	assert_int_equal(r.u[1].ecode, KL_ELIMIT);
	assert_true(r.u[1].total > 0 && r.u[1].total <= 150000 - oopslen);
	assert_memory_equal(r.u[1].data, oops, r.u[1].len);
	assert_true(r.bytes <= 150000);
	rec_free(&r);

	/* Headers and padding count: 1000 members of 10 bytes take 1 MB. */
	run_tiny(1000, &lim, 100000, &r);
	assert_true(r.n < 200);
	assert_true(r.bytes < 2000);
	assert_int_equal(r.last_ecode, KL_ELIMIT);
	assert_true(strncmp(r.last_emsg, "total size limit reached: ", 26) ==
	    0);
	rec_free(&r);
}

/* A non-blocking descriptor with nothing more to read: the end. */
static void
t_nonblock(void **state)
{
	struct kl_error err;
	struct rec r = { 0 };
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(write(p[1], "<6>hello\n", 9), 9);
	assert_int_equal(run_on(p[0], "/dev/kmsg", NULL, &r, &err), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "/dev/kmsg", "", "", (const uint8_t *)"<6>hello\n",
	    9);
	rec_free(&r);
	close(p[0]);
	close(p[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_bomb),
		cmocka_unit_test(t_bomb16),
		cmocka_unit_test(t_member_limit),
		cmocka_unit_test(t_total_limit),
		cmocka_unit_test(t_nonblock),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
