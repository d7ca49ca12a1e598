/*
 * test-symmap.c - reading symbol maps: which symbols are kept (types,
 * per-CPU offsets), their order at one address, malformed and all-zero
 * maps, compressed and piped input.
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

/* Load a map from a string. */
static struct kl_symtab *
load_str(const char *s, struct kl_error *err)
{
	return (kl_sym_load_mem(s, strlen(s), "test.map", err));
}

/* Is the program prog installed? */
static int
have(const char *prog)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return (system(cmd) == 0);
}

/*
 * A __per_cpu_end above the text is no per-CPU range (the fuzzer's map):
 * nothing is dropped as a per-CPU offset, and the table keeps the text.
 */
static void
t_percpu_above_text(void **state)
{
	static const char map[] =
	    "0000000000000000 D __per_cpu_start\n"
	    "0000000000034000 d vmw_steal_time\n"
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000100 T do_one\n"
	    "ffffffff81000200 D __per_cpu_end\n";
	struct kl_error err;
	struct kl_symtab *t;
	struct kl_sym_hit h;

	(void)state;
	t = kl_sym_load_mem(map, sizeof(map) - 1, "System.map-x", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_stats(t)->percpu, 0);
	assert_int_equal(kl_sym_count(t), 5);
	assert_int_equal(kl_sym_lookup(t, 0xffffffff81000104ULL, &h), 1);
	assert_string_equal(h.name, "do_one");
	kl_sym_free(t);
}

/* Aliases at one address, in scripts/kallsyms' order. */
static void
t_aliases(void **state)
{
	static const char map[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 W aaa_weak\n"		/* weak last */
	    "ffffffff81000100 T ___strong\n"
	    "ffffffff81000200 D __start_foo\n"		/* PROVIDE-like */
	    "ffffffff81000200 D __x\n"
	    "ffffffff81000300 t __a\n"			/* underscores */
	    "ffffffff81000300 t _b\n"
	    "ffffffff81000400 t zeta\n"			/* file order */
	    "ffffffff81000400 t alpha\n"
	    "ffffffff81000500 D __bss_end\n"		/* __X_end */
	    "ffffffff81000500 D ____y\n"
	    "ffffffff81000600 B _end\n";
	struct kl_error err;
	struct kl_symtab *t;

	(void)state;
	t = load_str(map, &err);
	assert_non_null(t);
	assert_string_equal(at(t, 0xffffffff81000100ULL),
	    "___strong+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff81000201ULL), "__x+0x1/0x100");
	assert_string_equal(at(t, 0xffffffff81000300ULL), "_b+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff81000400ULL), "zeta+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff81000500ULL), "____y+0x0/0x100");
	assert_string_equal(at(t, 0xffffffff810005ffULL), "____y+0xff/0x100");
	kl_sym_free(t);
}

/* Non-addresses: absolute, undefined, debugging, undefined weak. */
static void
t_types(void **state)
{
	static const char map[] =
	    "ffffffff81000000 T _stext\n"
	    "0000000000000000 w weak_undef\n"
	    "0000000000000000 U undef\n"
	    "ffffffff81000080 A abs\n"
	    "ffffffff81000080 a abs_local\n"
	    "ffffffff81000080 N debug\n"
	    "ffffffff81000080 ? unknown\n"
	    "ffffffff81000080 - stab\n"
	    "ffffffff81000100 r ro\n"
	    "ffffffff81000200 b bss\n"
	    "ffffffff81000300 B __crc_x\n"
	    "ffffffff81000300 t $x\n"
	    "ffffffff81000300 t foo_veneer\n"
	    "ffffffff81000400 v weak_obj\n"
	    "ffffffff81000500 B _end\n";
	struct kl_error err;
	struct kl_symtab *t;

	(void)state;
	t = load_str(map, &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 5);
	assert_int_equal(kl_sym_stats(t)->ignored, 10);
	assert_string_equal(at(t, 0xffffffff81000080ULL), "_stext+0x80/0x100");
	assert_string_equal(at(t, 0xffffffff81000300ULL), "bss+0x100/0x200");
	assert_string_equal(at(t, 0xffffffff81000400ULL),
	    "weak_obj+0x0/0x100");
	kl_sym_free(t);
}

/* Malformed lines are skipped and counted; not a map is refused. */
static void
t_malformed(void **state)
{
	char big[3000], *buf;
	struct kl_error err;
	struct kl_symtab *t;
	size_t n;

	(void)state;
	memset(big, 'a', sizeof(big));
	snprintf(big, 40, "ffffffff81000040 t ");
	big[19] = 'a';
	n = strlen("ffffffff81000000 T _stext\r\n\n");
	buf = malloc(sizeof(big) + 1024);
	assert_non_null(buf);
	strcpy(buf, "ffffffff81000000 T _stext\r\n\n");
	memcpy(buf + n, big, sizeof(big));
	n += sizeof(big);
	strcpy(buf + n,
	    "\n"
	    "1ffffffff81000000 T seventeen_digits\n"	/* 4 */
	    "ffffffff81000010 T\n"			/* 5 */
	    "ffffffff81000010 T two words\n"		/* 6 */
	    "ffffffff81000010 t foo\t[]\n"		/* 7 */
	    "ffffffff81000010 t foo\tmod\n"		/* 8 */
	    "ffffffff81000010  T foo\n"			/* 9 */
	    "xyz T foo\n"				/* 10 */
	    "ffffffff81000010 t a1\n"
	    "ffffffff81000020 t a2\n"
	    "ffffffff81000030 t a3\n"
	    "ffffffff81000040 t a4\n"
	    "ffffffff81000050 t a5\n"
	    "ffffffff81000060 t a6\n"
	    "ffffffff81000100 T bar\n"
	    "ffffffff81000200 B _end");			/* no newline */
	t = kl_sym_load_mem(buf, strlen(buf), "x", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 9);
	assert_int_equal(kl_sym_stats(t)->lines, 18);
	assert_int_equal(kl_sym_stats(t)->malformed, 8);
	assert_int_equal(kl_sym_stats(t)->first_bad, 3);
	assert_string_equal(at(t, 0xffffffff81000100ULL), "bar+0x0/0x100");
	kl_sym_free(t);
	free(buf);

	/* a log, not a map */
	t = kl_sym_load(TESTDATA "/written/x86_64-oops.dmesg", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_non_null(strstr(err.msg, "not a symbol map"));
	assert_int_equal(err.line, 1);
	/* nothing */
	t = kl_sym_load_mem("", 0, "empty", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_string_equal(err.msg, "empty: no symbols");
	t = kl_sym_load_mem("0000000000000000 A x\n", 21, "abs", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	/* no such file */
	t = kl_sym_load(TESTDATA "/no-such-map", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, ENOENT);
}

/* kallsyms read without privilege: every address zero. */
static void
t_all_zero(void **state)
{
	struct kl_error err;
	struct kl_symtab *t;
	char *buf;
	size_t n, i;
	FILE *f;

	(void)state;
	f = fopen(KSLICE, "rb");
	assert_non_null(f);
	buf = malloc(1 << 16);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	/* what a non-root reader sees: the same lines, %px of NULL */
	for (i = 0; i < n; i++)
		if ((i == 0 || buf[i - 1] == '\n') && n - i > 16 &&
		    buf[i + 16] == ' ')
			memset(buf + i, '0', 16);
	t = kl_sym_load_mem(buf, n, "kallsyms", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_non_null(strstr(err.msg, "every address is zero"));
	t = load_str("0000000000000000 T _text\n"
	    "0000000000000000 t foo\t[mod]\n", &err);
	assert_null(t);
	assert_int_equal(err.code, KL_EFORMAT);
	free(buf);
}

/* Compressed maps, a pipe, damaged compression. */
static void
t_compressed(void **state)
{
	static const char *const tool[][2] = {
		{ "gzip", "gz" }, { "xz", "xz" }, { "zstd", "zst" },
		{ "bzip2", "bz2" }, { "lz4", "lz4" },
	};
	char path[256], cmd[600], *buf;
	struct kl_error err;
	struct kl_symtab *t;
	struct stat sb;
	size_t i, n, done = 0;
	int fd[2];
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(tool) / sizeof(tool[0]); i++) {
		if (!have(tool[i][0]))
			continue;
		snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64.%s",
		    tmpdir, tool[i][1]);
		snprintf(cmd, sizeof(cmd), "%s -c < '%s' > '%s'", tool[i][0],
		    SLICE, path);
		assert_int_equal(system(cmd), 0);
		t = kl_sym_load(path, &err);
		assert_non_null(t);
		assert_int_equal(kl_sym_count(t), 124);
		assert_int_equal(kl_sym_stats(t)->lines, 137);
		assert_string_equal(kl_sym_release(t), "6.1.0-57-amd64");
		assert_string_equal(at(t, 0xffffffff81a01dc8ULL),
		    "panic+0x118/0x2f4");
		kl_sym_free(t);
		done++;
	}
	if (have("xz")) {
		/* cut short: the xz error, nothing half-loaded */
		snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64.xz",
		    tmpdir);
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(truncate(path, sb.st_size - 12), 0);
		t = kl_sym_load(path, &err);
		assert_null(t);
		assert_int_equal(err.code, KL_EFORMAT);
		assert_non_null(strstr(err.msg, ": xz: "));
		/* not one byte comes out */
		assert_int_equal(truncate(path, 100), 0);
		t = kl_sym_load(path, &err);
		assert_null(t);
		assert_int_equal(err.code, KL_EFORMAT);
		assert_non_null(strstr(err.msg, ": xz: no data: "));
		unlink(path);
	}
	for (i = 0; i < sizeof(tool) / sizeof(tool[0]); i++) {
		snprintf(path, sizeof(path), "%s/System.map-6.1.0-57-amd64.%s",
		    tmpdir, tool[i][1]);
		unlink(path);
	}
	print_message("compressed by %zu tools\n", done);

	/* a pipe: no seeking */
	f = fopen(SLICE, "rb");
	assert_non_null(f);
	buf = malloc(1 << 16);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(write(fd[1], buf, n), (ssize_t)n);
	close(fd[1]);
	t = kl_sym_load_fd(fd[0], "System.map-6.1.0-57-amd64", &err);
	close(fd[0]);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 124);
	assert_string_equal(kl_sym_release(t), "6.1.0-57-amd64");
	kl_sym_free(t);
	/* the same bytes from memory */
	t = kl_sym_load_mem(buf, n, "dir/kallsyms-6.1.0-57-amd64", &err);
	assert_non_null(t);
	assert_int_equal(kl_sym_count(t), 124);
	assert_string_equal(kl_sym_release(t), "6.1.0-57-amd64");
	kl_sym_free(t);
	free(buf);
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
		cmocka_unit_test(t_percpu_above_text),
		cmocka_unit_test(t_aliases),
		cmocka_unit_test(t_types),
		cmocka_unit_test(t_malformed),
		cmocka_unit_test(t_all_zero),
		cmocka_unit_test(t_compressed),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
