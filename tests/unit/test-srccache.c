/*
 * test-srccache.c - the cache of a source index: round trip, damage,
 * stale key.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kleak.h"

#define TREE	TESTDATA "/../srcdata/linux-6.1"
#define PKIDX	TESTDATA "/printk-index-6.1.txt"

/* Compare two indexes site by site. */
static void
same_sites(const struct kl_srcidx *a, const struct kl_srcidx *b)
{
	struct kl_srcidx_site s, t;
	size_t i;

	assert_int_equal(kl_srcidx_count(a), kl_srcidx_count(b));
	for (i = 0; i < kl_srcidx_count(a); i++) {
		kl_srcidx_site(a, i, &s);
		kl_srcidx_site(b, i, &t);
		assert_string_equal(s.file, t.file);
		assert_int_equal(s.line, t.line);
		assert_string_equal(s.function, t.function);
		assert_string_equal(s.format, t.format);
	}
}

/* The cache: round trip, damage and other keys refused, rebuilds. */
static void
test_cache(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x, *y;
	char key[32], dir[] = "/tmp/test-srcindex.XXXXXX", path[512];
	uint8_t *img;
	size_t len, i;
	int cached, fd;

	(void)state;
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_tree(x, TREE, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	assert_int_equal(kl_srcidx_tree_key(TREE, key, sizeof(key), &err), 0);
	assert_int_equal(kl_srcidx_save(x, key, &img, &len, &err), 0);
	y = kl_srcidx_load(img, len, key, &err);
	assert_non_null(y);
	assert_int_equal(kl_srcidx_stats(y)->cached, 1);
	same_sites(x, y);
	kl_srcidx_free(y);
	assert_null(kl_srcidx_load(img, len, "0000000000000000", &err));
	assert_int_equal(err.code, KL_EFORMAT);
	/* Any one byte changed is refused. */
	for (i = 0; i < len; i += len / 97 + 1) {
		img[i] ^= 0x20;
		assert_null(kl_srcidx_load(img, len, key, &err));
		img[i] ^= 0x20;
	}
	assert_null(kl_srcidx_load(img, len / 2, key, &err));
	free(img);
	/* Through a cache directory: built, then read, then rebuilt. */
	assert_non_null(mkdtemp(dir));
	y = kl_srcidx_open(TREE, dir, &cached, &err);
	assert_non_null(y);
	assert_int_equal(cached, 0);
	kl_srcidx_free(y);
	y = kl_srcidx_open(TREE, dir, &cached, &err);
	assert_non_null(y);
	assert_int_equal(cached, 1);
	same_sites(x, y);
	kl_srcidx_free(y);
	snprintf(path, sizeof(path), "%s/srcidx-%s", dir, key);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "garbage!", 8, 100), 8);
	close(fd);
	y = kl_srcidx_open(TREE, dir, &cached, &err);
	assert_non_null(y);
	assert_int_equal(cached, 0);
	same_sites(x, y);
	kl_srcidx_free(y);
	unlink(path);
	rmdir(dir);
	kl_srcidx_free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
