/*
 * test-srctree.c - walking a kernel tree: tools/ and scripts/ are user
 * space, and their printf()s are not read; the tree's MAINTAINERS,
 * .mailmap, release and directories are kept (a directory, its tarball,
 * and through the cache); chosen files are read back.
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

/* Site i is file:line in function with the piece fmt. */
static void
site_is(const struct kl_srcidx *x, size_t i, const char *file,
    uint64_t line, const char *func, const char *fmt)
{
	struct kl_srcidx_site s;

	assert_int_equal(kl_srcidx_site(x, i, &s), 0);
	assert_string_equal(s.file, file);
	assert_int_equal(s.line, line);
	assert_string_equal(s.function, func);
	assert_string_equal(s.format, fmt);
	assert_int_equal(s.formatlen, strlen(fmt));
}

/* Write a file of the text s, its directories made. */
static void
put(const char *dir, const char *rel, const char *s)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		(void)mkdir(path, 0700);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

/* tools/ and scripts/ are user space: their printf()s are not read. */
static void
test_userspace(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	char dir[] = "/tmp/test-srcindex-us.XXXXXX", cmd[600];

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "tools/perf/a.c", "int main(void) { printf(\"t %px\\n\", p); }\n");
	put(dir, "scripts/b.c", "int main(void) { printf(\"s %px\\n\", p); }\n");
	put(dir, "kernel/tools/k.c", "void f(void) { pr_err(\"k %px\\n\", p); }\n");
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_tree(x, dir, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	assert_int_equal(kl_srcidx_stats(x)->files, 1);
	assert_int_equal(kl_srcidx_count(x), 1);
	site_is(x, 0, "kernel/tools/k.c", 1, "f", "k %px");
	kl_srcidx_free(x);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

#define MAINT	"NET\nM:\tA B <ab@example.org>\nF:\tdrivers/net/\n"

/* The tree's other files and directories, in x. */
static void
meta_is(const struct kl_srcidx *x)
{
	size_t n;
	const char *t;

	t = kl_srcidx_meta(x, KL_SRCIDX_MAINTAINERS, &n);
	assert_non_null(t);
	assert_int_equal(n, strlen(MAINT));
	assert_string_equal(t, MAINT);
	t = kl_srcidx_meta(x, KL_SRCIDX_MAILMAP, &n);
	assert_non_null(t);
	assert_string_equal(t, "A B <ab@example.org> <old@example.org>\n");
	t = kl_srcidx_meta(x, KL_SRCIDX_VERSION, &n);
	assert_non_null(t);
	assert_string_equal(t, "6.12.38");
	assert_int_equal(kl_srcidx_isdir(x, "drivers"), 1);
	assert_int_equal(kl_srcidx_isdir(x, "drivers/net"), 1);
	assert_int_equal(kl_srcidx_isdir(x, "drivers/net/eth"), 1);
	assert_int_equal(kl_srcidx_isdir(x, "drivers/net/eth/a.c"), 0);
	assert_int_equal(kl_srcidx_isdir(x, "drivers/ne"), 0);
	assert_int_equal(kl_srcidx_isdir(x, "tools"), 0);
	assert_int_equal(kl_srcidx_isdir(x, "tools/perf"), 0);
	assert_int_equal(kl_srcidx_isdir(x, "Documentation"), 1);
}

/* MAINTAINERS, .mailmap, the release and the directories are kept. */
static void
test_meta(void **state)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x, *y;
	char dir[] = "/tmp/test-srcindex-meta.XXXXXX", cmd[1400], tar[600];
	uint8_t *img;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "linux-6.12/MAINTAINERS", MAINT);
	put(dir, "linux-6.12/.mailmap",
	    "A B <ab@example.org> <old@example.org>\n");
	put(dir, "linux-6.12/Makefile", "# SPDX\nVERSION = 6\n"
	    "PATCHLEVEL = 12\nSUBLEVEL = 38\nEXTRAVERSION =\n");
	put(dir, "linux-6.12/drivers/net/eth/a.c",
	    "void f(void) { pr_err(\"a %px\\n\", p); }\n");
	put(dir, "linux-6.12/Documentation/x.rst", "text\n");
	put(dir, "linux-6.12/tools/perf/b.c", "int main(void) { }\n");
	put(dir, "linux-6.12/kernel/Makefile", "VERSION = 9\n");
	snprintf(tar, sizeof(tar), "%s/linux-6.12", dir);
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_tree(x, tar, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	meta_is(x);
	assert_int_equal(kl_srcidx_save(x, "k", &img, &len, &err), 0);
	kl_srcidx_free(x);
	y = kl_srcidx_load(img, len, "k", &err);
	assert_non_null(y);
	meta_is(y);
	kl_srcidx_free(y);
	free(img);
	/* The tarball of the same tree, read in place. */
	snprintf(tar, sizeof(tar), "%s/t.tar.gz", dir);
	snprintf(cmd, sizeof(cmd), "tar -C '%s' -czf '%s' linux-6.12", dir,
	    tar);
	assert_int_equal(system(cmd), 0);
	x = kl_srcidx_new(&err);
	assert_non_null(x);
	assert_int_equal(kl_srcidx_add_tree(x, tar, &err), 0);
	assert_int_equal(kl_srcidx_build(x, &err), 0);
	meta_is(x);
	kl_srcidx_free(x);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_userspace),
		cmocka_unit_test(test_meta),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
