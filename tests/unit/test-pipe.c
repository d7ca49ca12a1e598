/*
 * test-pipe.c - the decompression pipeline: the same units, bytes and
 * errors with the producer thread as without it (KLEAKSCAN_NO_PIPELINE)
 * and on a pipe.
 */

#include "config.h"

#include "input-harness.h"

/*
 * A tar.gz of many members, and a .tar.xz of .gz files: the same units
 * with and without ISA-L and the pipeline; stopping at any data call
 * of the pipeline ends that unit once and nothing follows.
 */
static void
t_pipeline(void **state)
{
	struct ent e[40];
	struct rec r = { 0 };
	char names[40][32], p[256];
	uint8_t *gz;
	size_t i, gzn, k, calls;

	(void)state;
	gz = m_filter(ARCHIVE_FILTER_GZIP, rg353, rg353len, &gzn);
	for (i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "d/%zu.log%s", i,
		    i % 4 == 3 ? ".gz" : "");
		e[i] = (struct ent){ names[i], i % 2 ? oops : rg353,
			i % 2 ? oopslen : rg353len, 0 };
		if (i % 4 == 3)
			e[i] = (struct ent){ names[i], gz, gzn, 0 };
	}
	tpath(p, sizeof(p), "many.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, e,
	    40);
	run_3ways(p, "many.tar.gz", &r);
	assert_int_equal(r.n, 40);
	is_unit(&r.u[0], "many.tar.gz", "{d/0.log}", "gzip", rg353,
	    rg353len);
	is_unit(&r.u[1], "many.tar.gz", "{d/1.log}", "gzip", oops, oopslen);
	is_unit(&r.u[3], "many.tar.gz", "{d/3.log.gz}{3.log}", "gzip", rg353,
	    rg353len);
	is_unit(&r.u[39], "many.tar.gz", "{d/39.log.gz}{39.log}", "gzip",
	    rg353, rg353len);
	rec_free(&r);
	tpath(p, sizeof(p), "many.tar.xz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_XZ, e, 40);
	run_3ways(p, "many.tar.xz", &r);
	assert_int_equal(r.n, 40);
	is_unit(&r.u[7], "many.tar.xz", "{d/7.log.gz}{7.log}", "gzip", rg353,
	    rg353len);
	calls = r.ndata;
	assert_true(calls >= 40);
	rec_free(&r);
	/* Stop at the k-th data call: 1 back, that unit ended once. */
	for (k = 1; k <= calls; k += k < 3 ? 1 : calls / 5) {
		r.stop_data = k;
		assert_int_equal(run_file(p, "many.tar.xz", NULL, &r), 1);
		assert_int_equal(r.ndata, k);
		assert_int_equal(r.nended, r.n);
		assert_int_equal(r.u[r.n - 1].ecode, KL_EOK);
		rec_free(&r);
	}
	free(gz);
}

/*
 * A stream longer than the pipeline's ring (8 slots of 1 MiB) three
 * times over: its slots are reused out of order (the one freed last
 * first), and every byte still comes in order, as without the thread;
 * stopped after the ring has turned, the unit ends once.
 */
static void
t_ring(void **state)
{
	struct rec r = { 0 };
	char p[256];
	uint8_t *b;
	size_t n = 24u << 20, o = 0, i, calls;
	uint64_t want;

	(void)state;
	b = malloc(n);
	assert_non_null(b);
	for (i = 0; o + 64 <= n; i++)
		o += (size_t)snprintf((char *)b + o, 64,
		    "[%5zu.%06zu] line %zu of the ring test\n", i / 1000,
		    i % 1000, i);
	n = o;
	want = fnv(FNV_BASIS, b, n);
	tpath(p, sizeof(p), "ring.log.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, b, n);
	run_3ways(p, "ring.log.gz", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, n);
	assert_true(r.u[0].sum == want);
	calls = r.ndata;
	assert_true(calls > 24);
	rec_free(&r);
	r.stop_data = calls - 2;
	assert_int_equal(run_file(p, "ring.log.gz", NULL, &r), 1);
	assert_int_equal(r.ndata, calls - 2);
	assert_int_equal(r.nended, 1);
	rec_free(&r);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_pipeline),
		cmocka_unit_test(t_ring),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
