/*
 * test-gzip-isal.c - gzip streams: every member of a multi-member file
 * read, the same units with ISA-L, through libarchive and on a pipe;
 * CRC and length mismatches and cut streams reported with the messages
 * of the libarchive path.
 */

#include "config.h"

#include "input-harness.h"

/* A bad gzip CRC: every byte, then the error at the end. */
static void
t_gzip_crc(void **state)
{
	struct rec r = { 0 };
	uint8_t *gz, *cat;
	size_t n;
	uint32_t good;
	char p[256], want[256];

	(void)state;
	gz = m_filter(ARCHIVE_FILTER_GZIP, oops, oopslen, &n);
	good = (uint32_t)gz[n - 8] | (uint32_t)gz[n - 7] << 8 |
	    (uint32_t)gz[n - 6] << 16 | (uint32_t)gz[n - 5] << 24;
	gz[n - 7] ^= 0x40;
	tpath(p, sizeof(p), "bad.gz");
	spew(p, gz, n);
	assert_int_equal(run_file(p, "bad.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, oopslen);
	assert_memory_equal(r.u[0].data, oops, oopslen);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(want, sizeof(want), "bad: broken at byte %zu: gzip: crc "
	    "mismatch (stored %08x, computed %08x)", oopslen,
	    (unsigned)(good ^ 0x4000), (unsigned)good);
	assert_string_equal(r.u[0].emsg, want);
	rec_free(&r);

	/* In a tar.gz, the damage is the container's. */
	gz[n - 7] ^= 0x40;
	spew(p, gz, n);
	free(gz);

	/* Two members: no false alarm. */
	gz = slurp(p, &n);
	cat = malloc(2 * n + 5);
	assert_non_null(cat);
	memcpy(cat, gz, n);
	memcpy(cat + n, gz, n);
	memcpy(cat + 2 * n, "junk\n", 5);
	tpath(p, sizeof(p), "two.gz");
	spew(p, cat, 2 * n);
	assert_int_equal(run_file(p, "two.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, 2 * oopslen);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	rec_free(&r);
	/* Garbage after them: the data, then the damage. */
	spew(p, cat, 2 * n + 5);
	assert_int_equal(run_file(p, "two.gz", NULL, &r), 0);
	assert_int_equal(r.u[0].total, 2 * oopslen);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	rec_free(&r);
	free(cat);
	free(gz);
}

/* A bad CRC after the last member of a tar.gz: a container error. */
static void
t_targz_crc(void **state)
{
	struct ent e = { "kern.log", NULL, 0, 0 };
	struct rec r = { 0 };
	uint8_t *b;
	size_t n;
	char p[256];

	(void)state;
	e.data = oops;
	e.len = oopslen;
	tpath(p, sizeof(p), "one.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, &e, 1);
	b = slurp(p, &n);
	b[n - 8] ^= 1;
	spew(p, b, n);
	free(b);
	assert_int_equal(run_file(p, "one.tar.gz", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	is_unit(&r.u[0], "one.tar.gz", "{kern.log}", "gzip", oops, oopslen);
	assert_string_equal(r.u[1].chain, "");
	assert_int_equal(r.u[1].total, 0);
	assert_int_equal(r.u[1].ecode, KL_EFORMAT);
	assert_true(strstr(r.u[1].emsg, "one.tar.gz: broken at byte ") ==
	    r.u[1].emsg);
	assert_non_null(strstr(r.u[1].emsg, ": gzip: crc mismatch"));
	rec_free(&r);
}

/*
 * Multi-member gzip, as gzip -dc reads it: every member, in order, by
 * ISA-L and by zlib alike, from a file and from a pipe in small pieces.
 */
static void
t_gzip_members(void **state)
{
	struct rec r = { 0 }, q = { 0 };
	uint8_t *g1, *g2, *cat, *want;
	size_t n1, n2, n, wn;
	char p[256];

	(void)state;
	g1 = m_filter(ARCHIVE_FILTER_GZIP, oops, oopslen, &n1);
	g2 = m_filter(ARCHIVE_FILTER_GZIP, rg353, rg353len, &n2);
	n = 2 * n1 + n2;
	cat = malloc(n);
	want = malloc(2 * oopslen + rg353len);
	assert_non_null(cat);
	assert_non_null(want);
	memcpy(cat, g1, n1);
	memcpy(cat + n1, g2, n2);
	memcpy(cat + n1 + n2, g1, n1);
	wn = 0;
	memcpy(want, oops, oopslen);
	wn += oopslen;
	memcpy(want + wn, rg353, rg353len);
	wn += rg353len;
	memcpy(want + wn, oops, oopslen);
	wn += oopslen;
	tpath(p, sizeof(p), "three.log.gz");
	spew(p, cat, n);
	run_3ways(p, "three.log.gz", &r);
	assert_int_equal(r.n, 1);
	/* libarchive's writer leaves the name out: the file's name, cut. */
	is_unit(&r.u[0], "three.log.gz", "{three.log}", "gzip", want, wn);
	assert_int_equal(run_pipe(p, "three.log.gz", NULL, &q, 333), 0);
	same_recs(&q, &r);
	rec_free(&q);
	assert_int_equal(run_pipe(p, "three.log.gz", NULL, &q, 1), 0);
	same_recs(&q, &r);
	rec_free(&q);
	rec_free(&r);

	/* A bad CRC in the middle member: ISA-L checks every member. */
	if (strcmp(kl_input_inflater(), "ISA-L") == 0) {
		cat[n1 + n2 - 7] ^= 0x01;
		spew(p, cat, n);
		assert_int_equal(run_file(p, "three.log.gz", NULL, &r), 0);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.u[0].total, oopslen + rg353len);
		assert_memory_equal(r.u[0].data, want, oopslen + rg353len);
		assert_int_equal(r.u[0].ecode, KL_EFORMAT);
		assert_true(strncmp(r.u[0].emsg, "three.log: broken at byte ",
		    26) == 0);
		assert_non_null(strstr(r.u[0].emsg, ": gzip: crc mismatch ("));
		rec_free(&r);
		cat[n1 + n2 - 7] ^= 0x01;
	}
	free(want);
	free(cat);
	free(g1);
	free(g2);
}

/*
 * A gzip cut short, from a file and on stdin: the bytes inflated
 * before the cut, the same "truncated gzip input" as ever; ISA-L hands
 * out every byte it could inflate, zlib may drop up to 64 KiB.
 */
static void
t_gzip_cut(void **state)
{
	struct rec r = { 0 };
	uint8_t *gz, *big;
	size_t n, bign, i;
	char p[256], want[256];

	(void)state;
	bign = 8 * oopslen;
	big = malloc(bign);
	assert_non_null(big);
	for (i = 0; i < 8; i++)
		memcpy(big + i * oopslen, oops, oopslen);
	gz = m_filter(ARCHIVE_FILTER_GZIP, big, bign, &n);
	tpath(p, sizeof(p), "cut.gz");
	spew(p, gz, n / 2);
	assert_int_equal(run_file(p, "cut.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_true(r.u[0].total < bign);
	assert_memory_equal(r.u[0].data, big, r.u[0].len);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(want, sizeof(want), "cut: broken at byte %llu: gzip: "
	    "truncated gzip input", (unsigned long long)r.u[0].total);
	assert_string_equal(r.u[0].emsg, want);
	if (strcmp(kl_input_inflater(), "ISA-L") == 0)
		assert_true(r.u[0].total > bign / 4);
	rec_free(&r);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 4096), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "{-}");
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	assert_non_null(strstr(r.u[0].emsg, ": gzip: truncated gzip input"));
	rec_free(&r);
	free(gz);
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_gzip_crc),
		cmocka_unit_test(t_targz_crc),
		cmocka_unit_test(t_gzip_members),
		cmocka_unit_test(t_gzip_cut),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
