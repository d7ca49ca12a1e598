/*
 * test-sniff.c - what the first bytes say: text, binary, journal export
 * and JSON told apart on real data, every compression and archive
 * format recognised by its magic bytes (kl_input_sniff(),
 * kl_input_container()), and the kind each unit arrives with.
 */

#include "config.h"

#include "input-harness.h"

/* Sniffing: NULs in a real log, ELF, exports, JSON, journals. */
static void
t_sniff(void **state)
{
	static const char exp1[] = "__CURSOR=s=1;i=2\n__REALTIME_TIMESTAMP=1\n"
	    "MESSAGE=hello\n\n";
	static const char exp2[] = "__REALTIME_TIMESTAMP=1700000000000000\n"
	    "_BOOT_ID=0123\nMESSAGE\n\x05\0\0\0\0\0\0\0hello\nPRIORITY=6\n\n";
	static const char cfg[] = "CONFIG_X86=y\nCONFIG_SMP=y\nCONFIG_NR=64\n";
	static const char json1[] = "{\"__CURSOR\":\"s=1\",\"MESSAGE\":\"x\"}\n";
	static const char json2[] = "\x1e{ \"MESSAGE\" : [104,105] }\n";
	static const char json3[] = "{\"a\":\"MESSAGE\"}\n";
	static const char journal[] = "LPKSHHRH\0\0\0\0";
	uint8_t *b, rnd[65536];
	size_t i, n;
	uint32_t x;
	char t[256];

	(void)state;
	/* The rg353v log has a NUL: text. */
	assert_non_null(memchr(rg353, 0, rg353len));
	assert_int_equal(kl_input_sniff(rg353, rg353len), KL_UNIT_TEXT);
	assert_int_equal(kl_input_sniff(oops, oopslen), KL_UNIT_TEXT);
	if (find_tool("true", t, sizeof(t)) != NULL) {
		b = slurp(t, &n);
		assert_int_equal(kl_input_sniff(b, n), KL_UNIT_BINARY);
		/* Past the ELF header, still binary by its bytes. */
		assert_int_equal(kl_input_sniff(b + 64, n - 64),
		    KL_UNIT_BINARY);
		free(b);
	}
	assert_int_equal(kl_input_sniff((const uint8_t *)exp1,
	    sizeof(exp1) - 1), KL_UNIT_EXPORT);
	assert_int_equal(kl_input_sniff((const uint8_t *)exp2,
	    sizeof(exp2) - 1), KL_UNIT_EXPORT);
	assert_int_equal(kl_input_sniff((const uint8_t *)cfg, sizeof(cfg) - 1),
	    KL_UNIT_TEXT);
	assert_int_equal(kl_input_sniff((const uint8_t *)json1,
	    sizeof(json1) - 1), KL_UNIT_JSON);
	assert_int_equal(kl_input_sniff((const uint8_t *)json2,
	    sizeof(json2) - 1), KL_UNIT_JSON);
	assert_int_equal(kl_input_sniff((const uint8_t *)json3,
	    sizeof(json3) - 1), KL_UNIT_TEXT);
	assert_int_equal(kl_input_sniff((const uint8_t *)journal,
	    sizeof(journal) - 1), KL_UNIT_JOURNAL);
	assert_int_equal(kl_input_sniff(NULL, 0), KL_UNIT_TEXT);
	/* Random bytes are binary; a block of NULs before text is not. */
	x = 12345;
	for (i = 0; i < sizeof(rnd); i++) {
		x = x * 1103515245u + 12345u;
		rnd[i] = (uint8_t)(x >> 23);
	}
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_BINARY);
	memset(rnd, 0, 40000);
	memcpy(rnd + 40000, oops, sizeof(rnd) - 40000);
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_TEXT);
	memset(rnd, 0, sizeof(rnd));
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_TEXT);
	/* Latin-1 and escape sequences stay text. */
	memcpy(rnd, oops, sizeof(rnd));
	for (i = 0; i < sizeof(rnd); i += 50) {
		rnd[i] = 0xe9;
		rnd[i + 1] = 0x1b;
	}
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_TEXT);
}

/* The kinds through kl_input_fd, also compressed; binary has no data. */
static void
t_kinds(void **state)
{
	static const char exp1[] = "__CURSOR=s=1;i=2\n__REALTIME_TIMESTAMP=1\n"
	    "MESSAGE=hello\n\n";
	struct ent e[3];
	struct rec r = { 0 };
	uint8_t *elf;
	size_t elfn;
	char p[256], t[256];

	(void)state;
	tpath(p, sizeof(p), "export.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, (const uint8_t *)exp1,
	    sizeof(exp1) - 1);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 7), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_EXPORT);
	assert_int_equal(r.u[0].total, sizeof(exp1) - 1);
	assert_memory_equal(r.u[0].data, exp1, sizeof(exp1) - 1);
	rec_free(&r);

	if (find_tool("true", t, sizeof(t)) == NULL)
		return;
	elf = slurp(t, &elfn);
	e[0] = (struct ent){ "bin/true", elf, elfn, 0 };
	e[1] = (struct ent){ "kern.log", oops, oopslen, 0 };
	tpath(p, sizeof(p), "mixed.tar.zst");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_ZSTD, e, 2);
	assert_int_equal(run_file(p, "mixed.tar.zst", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.u[0].chain, "{bin/true}");
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, 0);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	is_unit(&r.u[1], "mixed.tar.zst", "{kern.log}", "zstd", oops,
	    oopslen);
	rec_free(&r);
	assert_int_equal(run_file(t, "true", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, 0);
	rec_free(&r);

	/* KL_INPUT_ALL_DATA: a binary unit's bytes, every one. */
	r.flags = KL_INPUT_ALL_DATA;
	assert_int_equal(run_file(p, "mixed.tar.zst", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, elfn);
	assert_memory_equal(r.u[0].data, elf, elfn);
	is_unit(&r.u[1], "mixed.tar.zst", "{kern.log}", "zstd", oops,
	    oopslen);
	rec_free(&r);

	/*
	 * KL_INPUT_TOP_DATA: the named input itself, and its decompressed
	 * stream, are text; an archive member stays binary, without data.
	 */
	r.flags = KL_INPUT_TOP_DATA;
	assert_int_equal(run_file(t, "true", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_TEXT);
	assert_int_equal(r.u[0].total, elfn);
	assert_memory_equal(r.u[0].data, elf, elfn);
	rec_free(&r);
	r.flags = KL_INPUT_TOP_DATA;
	tpath(p, sizeof(p), "true.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, elf, elfn);
	assert_int_equal(run_file(p, "true.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_TEXT);
	assert_int_equal(r.u[0].total, elfn);
	rec_free(&r);
	r.flags = KL_INPUT_TOP_DATA;
	tpath(p, sizeof(p), "mixed.tar.zst");
	assert_int_equal(run_file(p, "mixed.tar.zst", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, 0);
	rec_free(&r);
	free(elf);
}

/* kl_input_container(): what the input layer opens, by magic bytes. */
static void
t_container(void **state)
{
	static const uint8_t gz[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
	static const uint8_t xz[] = {0xfd, '7', 'z', 'X', 'Z', 0, 0, 4};
	static const uint8_t zst[] = {0x28, 0xb5, 0x2f, 0xfd, 0, 0};
	static const uint8_t pz[] = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0,
	    1, 2, 3, 4, 0x5f, 0x2a, 0x4d, 0x18, 0, 0, 0, 0, 0x28, 0xb5,
	    0x2f, 0xfd, 0};
	static const uint8_t plz4[] = {0x5a, 0x2a, 0x4d, 0x18, 1, 0, 0, 0, 9,
	    0x04, 0x22, 0x4d, 0x18, 0x64};
	static const uint8_t plong[] = {0x50, 0x2a, 0x4d, 0x18, 0xff, 0xff,
	    0xff, 0xff, 0x28, 0xb5, 0x2f, 0xfd};
	static const uint8_t zip[] = {'P', 'K', 3, 4, 20, 0, 0, 0};
	static const uint8_t lzma[] = {0x5d, 0, 0, 0x80, 0, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0, 0x2d, 0x8a};
	static const uint8_t dtprop[] = {0x19, 0, 0x20, 0, 0, 0xa0, 5, 0, 0,
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x40, 0x40, 0, 0x40};
	static const uint8_t ar[] = "!<arch>\n";
	static const uint8_t text[] = "[    0.000000] Linux version 5.4\n";
	struct archive *w;
	struct archive_entry *e;
	uint8_t tar[2048];
	size_t used;
	int f, a;

	(void)state;
	assert_int_equal(kl_input_container(gz, sizeof(gz), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_GZIP);
	assert_int_equal(a, 0);
	assert_int_equal(kl_input_container(xz, sizeof(xz), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_XZ);
	assert_int_equal(kl_input_container(zst, sizeof(zst), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_ZSTD);
	assert_int_equal(kl_input_container(zip, sizeof(zip), &f, &a), 2);
	assert_int_equal(f, 0);
	assert_int_equal(a, ARCHIVE_FORMAT_ZIP);
	assert_int_equal(kl_input_container(ar, sizeof(ar) - 1, &f, &a), 2);
	assert_int_equal(a, ARCHIVE_FORMAT_AR);
	assert_int_equal(kl_input_container(text, sizeof(text) - 1, &f, &a),
	    0);
	assert_int_equal(f, 0);
	assert_int_equal(a, 0);
	/* lzma_alone: xz --format=lzma's header (0x5d: lc 3, lp 0, pb 2). */
	assert_int_equal(kl_input_container(lzma, sizeof(lzma), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_LZMA);
	/*
	 * A ppc64 device-tree property (ibm,architecture-vec-5): a valid
	 * dictionary and size, but lc 7 + lp 2 > 4, which liblzma refuses.
	 */
	assert_int_equal(kl_input_container(dtprop, sizeof(dtprop), &f, &a),
	    0);
	/* A gzip magic cut short is no container. */
	assert_int_equal(kl_input_container(gz, 2, &f, &a), 0);
	/* Skippable frames first (pzstd): the frame after them decides. */
	assert_int_equal(kl_input_container(pz, sizeof(pz), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_ZSTD);
	assert_int_equal(kl_input_container(plz4, sizeof(plz4), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_LZ4);
	/* ...a skippable frame longer than the prefix, or nothing after. */
	assert_int_equal(kl_input_container(pz, 11, &f, &a), 0);
	assert_int_equal(kl_input_container(pz, 16, &f, &a), 0);
	assert_int_equal(kl_input_container(plong, sizeof(plong), &f, &a), 0);

	/* A ustar header with its checksum, as libarchive writes it. */
	assert_non_null(w = archive_write_new());
	assert_int_equal(archive_write_set_format_ustar(w), ARCHIVE_OK);
	assert_int_equal(archive_write_set_bytes_per_block(w, 0), ARCHIVE_OK);
	assert_int_equal(archive_write_open_memory(w, tar, sizeof(tar), &used),
	    ARCHIVE_OK);
	assert_non_null(e = archive_entry_new());
	archive_entry_set_pathname(e, "kern.log");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, 0);
	assert_int_equal(archive_write_header(w, e), ARCHIVE_OK);
	archive_entry_free(e);
	assert_int_equal(archive_write_close(w), ARCHIVE_OK);
	archive_write_free(w);
	assert_true(used >= 512);
	assert_int_equal(kl_input_container(tar, used, &f, &a), 2);
	assert_int_equal(a, ARCHIVE_FORMAT_TAR);
	tar[148] ^= 1;		/* a bad checksum: not a tar */
	assert_int_equal(kl_input_container(tar, used, &f, &a), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_sniff),
		cmocka_unit_test(t_container),
		cmocka_unit_test(t_kinds),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
