/*
 * test-srctree.c - walking a kernel tree: tools/ and scripts/ are user
 * space, and their printf()s are not read.
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_userspace),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
