/*
 * test-symdir.c - a directory of symbol maps: which files it indexes and
 * the map of a release, loaded on demand.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
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

#define SLICE	TESTDATA "/x86_64-debian-6.1.0-57-System.map.slice"
#define KSLICE	TESTDATA "/x86_64-qemu-6.1.0-57-kallsyms.slice"
#define CORPUS	TESTDATA "/../../../shared/corpus/qemu"
#define FULLMAP	CORPUS "/System.map-6.1.0-57-amd64.xz"
#define NOKASLR	CORPUS "/x86_64-6.1.0-57-amd64-nokaslr"

static char tmpdir[64];

/* Format the symbol at addr (%pS), or "-" when there is none. */
static const char *
at(const struct kl_symtab *t, uint64_t addr)
{
	static char buf[1200];
	struct kl_sym_hit h;
	int n;

	if (!kl_sym_lookup(t, addr, &h))
		return ("-");
	n = kl_sym_format(&h, buf, sizeof(buf));
	assert_int_equal(n, strlen(buf));
	return (buf);
}

/* Write n bytes of s to path. */
static void
put_file(const char *path, const void *s, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* A directory of maps, loaded on demand. */
static void
t_symdir(void **state)
{
	static const char mods[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 B _end\n"
	    "ffffffffc0001000 t m\t[mod]\n";
	const struct kl_symtab *a, *b;
	char path[256], cmd[1200];
	struct kl_symdir *d;
	struct kl_error err;

	(void)state;
	snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && gzip -c < '%s' > '%s.gz'",
	    SLICE, path, SLICE, path);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/kallsyms-6.1.0-99-test", tmpdir);
	put_file(path, mods, strlen(mods));
	snprintf(path, sizeof(path), "%s/System.map-broken-1", tmpdir);
	put_file(path, "hello\nworld\n", 12);
	snprintf(path, sizeof(path), "%s/README", tmpdir);
	put_file(path, "x\n", 2);

	d = kl_symdir_open(tmpdir, &err);
	assert_non_null(d);
	assert_int_equal(kl_symdir_count(d), 3);
	assert_string_equal(kl_symdir_release(d, 0), "6.1.0-57-amd64");
	assert_string_equal(kl_symdir_release(d, 1), "6.1.0-99-test");
	assert_string_equal(kl_symdir_release(d, 2), "broken-1");
	assert_null(kl_symdir_release(d, 3));
	a = kl_symdir_get(d, "6.1.0-57-amd64", &err);
	assert_non_null(a);
	b = kl_symdir_get(d, "6.1.0-57-amd64", &err);
	assert_ptr_equal(a, b);
	assert_int_equal(kl_sym_count(a), 124);
	a = kl_symdir_get(d, "6.1.0-99-test", &err);
	assert_non_null(a);
	assert_string_equal(at(a, 0xffffffffc0001000ULL), "m+0x0 [mod]");
	assert_null(kl_symdir_get(d, "6.1.0-1-amd64", &err));
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, ENOENT);
	assert_null(kl_symdir_get(d, "broken-1", &err));
	assert_int_equal(err.code, KL_EFORMAT);
	memset(&err, 0, sizeof(err));
	assert_null(kl_symdir_get(d, "broken-1", &err));
	assert_int_equal(err.code, KL_EFORMAT);
	kl_symdir_free(d);

	assert_null(kl_symdir_open(TESTDATA "/no-such-dir", &err));
	assert_int_equal(err.code, KL_EIO);
	snprintf(cmd, sizeof(cmd), "rm -f '%s'/System.map-* '%s'/kallsyms-* "
	    "'%s'/README", tmpdir, tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
}

/* Make the scratch directory. */
static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-symbols.XXXXXX");
	return (mkdtemp(tmpdir) == NULL ? -1 : 0);
}

/* Remove the scratch directory. */
static int
teardown(void **state)
{
	(void)state;
	return (rmdir(tmpdir));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_symdir),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
