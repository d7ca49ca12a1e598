/*
 * test-input.c - the input layer: the same real log arrives byte for
 * byte as a plain file, through every compression, as a member of every
 * archive format, nested, and on a pipe; names and member chains are
 * exact; limits, bombs and damage end the right unit with the right
 * error; sniffing tells text, binary, journal exports and JSON apart;
 * memory stays flat over many members and a big one.
 *
 * Archives are built at run time with libarchive's writer and, where
 * they are installed, with the real tools (gzip, xz, zstd, bzip2, lz4,
 * zip); a missing tool skips its part, never the test.
 *
 * This file keeps what goes through kl_input_fd() as a whole (plain
 * input, every compression, empty input, arguments, a stop); the tests
 * of each part of the input layer are in test-sniff.c, test-source.c,
 * test-gzip-isal.c, test-archive.c and test-pipe.c, sharing
 * input-harness.h.
 */
#include "config.h"

#include "input-harness.h"

/* A plain file is one unit, byte for byte, through the fast path. */
static void
t_plain(void **state)
{
	struct rec r = { 0 };

	(void)state;
	assert_int_equal(run_file(LOG1, "oops.dmesg", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "oops.dmesg", "", "", oops, oopslen);
	assert_int_equal(r.u[0].nmembers, 0);
	rec_free(&r);

	/* On a pipe, in small pieces and in one go. */
	assert_int_equal(run_pipe(LOG1, "-", NULL, &r, 100), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "-", "", "", oops, oopslen);
	rec_free(&r);
	assert_int_equal(run_pipe(LOG2, "-", NULL, &r, 1 << 20), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "-", "", "", rg353, rg353len);
	rec_free(&r);
}

/* Every compression, built by libarchive: one unit, suffix dropped. */
static void
t_compressions(void **state)
{
	static const struct {
		int		 code;
		const char	*file;
		const char	*filter;
	} c[] = {
		{ ARCHIVE_FILTER_GZIP, "oops.dmesg.gz", "gzip" },
		{ ARCHIVE_FILTER_BZIP2, "oops.dmesg.bz2", "bzip2" },
		{ ARCHIVE_FILTER_XZ, "oops.dmesg.xz", "xz" },
		{ ARCHIVE_FILTER_LZMA, "oops.dmesg.lzma", "lzma" },
		{ ARCHIVE_FILTER_ZSTD, "oops.dmesg.zst", "zstd" },
		{ ARCHIVE_FILTER_LZ4, "oops.dmesg.lz4", "lz4" },
		{ ARCHIVE_FILTER_COMPRESS, "oops.dmesg.Z", "compress" },
	};
	struct rec r = { 0 };
	char p[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		tpath(p, sizeof(p), c[i].file);
		w_filter(p, c[i].code, oops, oopslen);
		assert_int_equal(run_file(p, c[i].file, NULL, &r), 0);
		assert_int_equal(r.n, 1);
		is_unit(&r.u[0], c[i].file, "{oops.dmesg}", c[i].filter, oops,
		    oopslen);
		rec_free(&r);
		assert_int_equal(run_pipe(p, c[i].file, NULL, &r, 4096), 0);
		assert_int_equal(r.n, 1);
		is_unit(&r.u[0], c[i].file, "{oops.dmesg}", c[i].filter, oops,
		    oopslen);
		rec_free(&r);
	}
	/* Another suffix, no suffix. */
	tpath(p, sizeof(p), "bundle.tgz");
	w_filter(p, ARCHIVE_FILTER_GZIP, rg353, rg353len);
	assert_int_equal(run_file(p, "dir/bundle.tgz", NULL, &r), 0);
	is_unit(&r.u[0], "dir/bundle.tgz", "{bundle.tar}", "gzip", rg353,
	    rg353len);
	rec_free(&r);
	assert_int_equal(run_file(p, "(standard input)", NULL, &r), 0);
	is_unit(&r.u[0], "(standard input)", "{(standard input)}", "gzip",
	    rg353, rg353len);
	rec_free(&r);
}

/* The real tools, where installed; gzip's header name wins. */
static void
t_tools(void **state)
{
	static const struct {
		const char	*tool;
		const char	*suf;
		const char	*filter;
	} c[] = {
		{ "gzip", ".gz", "gzip" }, { "xz", ".xz", "xz" },
		{ "zstd", ".zst", "zstd" }, { "bzip2", ".bz2", "bzip2" },
		{ "lz4", ".lz4", "lz4" }, { "lzma", ".lzma", "lzma" },
	};
	struct rec r = { 0 };
	char t[256], p[256], name[64], copy[256];
	char *argv[5];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (find_tool(c[i].tool, t, sizeof(t)) == NULL)
			continue;
		snprintf(name, sizeof(name), "kern.log%s", c[i].suf);
		tpath(p, sizeof(p), name);
		argv[0] = t;
		argv[1] = (char *)"-c";
		argv[2] = NULL;
		if (strcmp(c[i].tool, "zstd") == 0 ||
		    strcmp(c[i].tool, "lz4") == 0) {
			argv[2] = (char *)"-q";
			argv[3] = NULL;
		}
		assert_int_equal(tool(argv, LOG1, p, NULL), 0);
		assert_int_equal(run_file(p, name, NULL, &r), 0);
		assert_int_equal(r.n, 1);
		is_unit(&r.u[0], name, "{kern.log}", c[i].filter, oops,
		    oopslen);
		rec_free(&r);
		assert_int_equal(run_pipe(p, "-", NULL, &r, 1000), 0);
		is_unit(&r.u[0], "-", "{-}", c[i].filter, oops, oopslen);
		rec_free(&r);
	}
	/* gzip FILE keeps FILE's name in the header. */
	if (find_tool("gzip", t, sizeof(t)) == NULL)
		return;
	tpath(copy, sizeof(copy), "orig.dmesg");
	spew(copy, oops, oopslen);
	argv[0] = t;
	argv[1] = (char *)"-c";
	argv[2] = copy;
	argv[3] = NULL;
	tpath(p, sizeof(p), "renamed.gz");
	assert_int_equal(tool(argv, NULL, p, NULL), 0);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 65536), 0);
	is_unit(&r.u[0], "-", "{orig.dmesg}", "gzip", oops, oopslen);
	rec_free(&r);
}

/* Empty things: an empty file, an empty gzip, an empty archive. */
static void
t_empty(void **state)
{
	struct rec r = { 0 };
	char p[256];

	(void)state;
	tpath(p, sizeof(p), "empty");
	spew(p, "", 0);
	assert_int_equal(run_file(p, "empty", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "empty", "", "", (const uint8_t *)"", 0);
	rec_free(&r);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 1), 0);
	assert_int_equal(r.n, 1);
	rec_free(&r);
	tpath(p, sizeof(p), "empty.log.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, (const uint8_t *)"", 0);
	assert_int_equal(run_file(p, "empty.log.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "empty.log.gz", "{empty.log}", "gzip",
	    (const uint8_t *)"", 0);
	rec_free(&r);
	tpath(p, sizeof(p), "empty.tar");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_NONE, NULL, 0);
	assert_int_equal(run_file(p, "empty.tar", NULL, &r), 0);
	/* All zeros: text, nothing in it. */
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	rec_free(&r);
}

/* A callback that stops: 1, and end() still comes once. */
static void
t_stop(void **state)
{
	struct rec r = { 0 };
	char p[256];

	(void)state;
	mk_nest(tpath(p, sizeof(p), "top.tar"));
	r.stop_data = 1;
	assert_int_equal(run_file(p, "top.tar", NULL, &r), 1);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].ended, 1);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	assert_int_equal(r.ndata, 1);
	rec_free(&r);
}

/* Bad arguments and inputs that cannot be read: -1. */
static void
t_args(void **state)
{
	struct kl_input_ops ops = { NULL, cb_begin, cb_data, cb_end, 0 };
	struct kl_limits lim = { 0 };
	struct kl_error err;
	struct rec r = { 0 };
	int fd;

	(void)state;
	ops.arg = &r;
	assert_int_equal(kl_input_fd(-1, "x", NULL, &ops, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_int_equal(kl_input_fd(0, "x", NULL, NULL, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	lim.max_depth = KL_INPUT_DEPTH_MAX + 1;
	assert_int_equal(kl_input_fd(0, "x", &lim, &ops, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, "max_depth 65 is above 64");
	fd = open(tmp, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(kl_input_fd(fd, "dir", NULL, &ops, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, EISDIR);
	close(fd);
	/* A write-only descriptor: read(2) fails before any unit. */
	fd = open(tpath((char[256]){ 0 }, 256, "wo"), O_WRONLY | O_CREAT,
	    0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(kl_input_fd(fd, "wo", NULL, &ops, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, EBADF);
	assert_int_equal(r.n, 0);
	close(fd);
}

/* A truncated xz: the bytes read, then the offset it broke at. */
static void
t_truncated_xz(void **state)
{
	struct rec r = { 0 };
	uint8_t *big, *xz;
	size_t i, n, xzn;
	char p[256], want[256];

	(void)state;
	/* Less repetitive than the log repeated: numbered copies. */
	n = 0;
	big = malloc(8 * (oopslen + 16));
	assert_non_null(big);
	for (i = 0; i < 8; i++) {
		n += (size_t)sprintf((char *)big + n, "copy %zu\n", i);
		memcpy(big + n, oops, oopslen);
		n += oopslen;
	}
	xz = m_filter(ARCHIVE_FILTER_XZ, big, n, &xzn);
	tpath(p, sizeof(p), "kern.log.xz");
	spew(p, xz, xzn * 3 / 4);
	assert_int_equal(run_file(p, "kern.log.xz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "{kern.log}");
	assert_true(r.u[0].total > 0 && r.u[0].total < n);
	assert_memory_equal(r.u[0].data, big, r.u[0].len);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(want, sizeof(want), "kern.log: broken at byte %llu: xz: "
	    "lzma library error: no progress is possible",
	    (unsigned long long)r.u[0].total);
	assert_string_equal(r.u[0].emsg, want);
	rec_free(&r);
	free(big);
	free(xz);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_plain),
		cmocka_unit_test(t_compressions),
		cmocka_unit_test(t_tools),
		cmocka_unit_test(t_truncated_xz),
		cmocka_unit_test(t_empty),
		cmocka_unit_test(t_stop),
		cmocka_unit_test(t_args),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
