/*
 * test-journal-native.c - native journal files read through libsystemd
 * (lib/journal-native.c).
 *
 * The group setup writes a small export stream by hand and makes it a
 * native journal file with systemd-journal-remote in a temporary
 * directory; the reader must give its entries in order with the
 * metadata fields journalctl -o export prints first, then each data
 * field with its bytes (a binary value, an empty one, one stored
 * compressed), offsets 0 and nothing exact, as journalctl -o export of
 * the same file has them.  Those cases are skipped when journal-remote
 * is not installed.  A missing file, a directory and files that are not
 * journals are refused with the reason.  Built without libsystemd,
 * every call gives the documented error and no entry.
 */
#include "config.h"

#include "journal-harness.h"

#include <sys/stat.h>

#define NBIG	2000		/* bytes of BIG: stored compressed */

/* The temporary directory and what the setup made in it. */
static struct {
	char		 dir[64];
	char		 journal[128];	/* x.journal, when made */
	char		 export[128];	/* the export stream written */
	int		 have;		/* journal-remote made x.journal */
	uint8_t		 big[NBIG];
} nat;

/* Skip when systemd-journal-remote did not make the journal file. */
#define NEED_JOURNAL() do { \
	if (!nat.have) \
		skip(); \
} while (0)

/* The error a build without libsystemd gives for any call. */
#define NO_SYSTEMD	"native journal files need libsystemd: reconfigure " \
	"with --with-systemd"

/* Write b[0..n) to the file name in the temporary directory. */
static void
put_file(const char *name, const void *b, size_t n, char *path,
    size_t size)
{
	FILE *fp;

	snprintf(path, size, "%s/%s", nat.dir, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	if (n > 0)
		assert_int_equal(fwrite(b, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* Write the export stream, run journal-remote on it. */
static int
nat_setup(void **state)
{
	static const char *const remote[] = {
		"/lib/systemd/systemd-journal-remote",
		"/usr/lib/systemd/systemd-journal-remote", NULL
	};
	const char *rp;
	char cmd[512], path[128];
	uint8_t *b = NULL;
	size_t n = 0, i;

	(void)state;
	for (i = 0; i < NBIG; i++)
		nat.big[i] = (uint8_t)"0123456789abcdef"[(i * 7 + i / 16) % 16];
	appf(&b, &n, "__REALTIME_TIMESTAMP=1654000000000001\n"
	    "__MONOTONIC_TIMESTAMP=5000001\n_BOOT_ID=" BOOT "\n"
	    "_TRANSPORT=kernel\nPRIORITY=4\n"
	    "MESSAGE=RIP: 0010:ffffffff81234567\n\n");
	/* the fields already stored come first, as sd-journal keeps them */
	appf(&b, &n, "__REALTIME_TIMESTAMP=1654000000000002\n"
	    "__MONOTONIC_TIMESTAMP=5000002\n_BOOT_ID=" BOOT "\n"
	    "_TRANSPORT=kernel\nPRIORITY=6\n");
	app_field(&b, &n, "MESSAGE", (const uint8_t *)"a=1\nb\0c\xff", 8);
	appf(&b, &n, "EMPTY=\nMESSAGE=second\n\n");
	appf(&b, &n, "__REALTIME_TIMESTAMP=1654000000000003\n"
	    "__MONOTONIC_TIMESTAMP=5000003\n_BOOT_ID=" BOOT "\n"
	    "MESSAGE=RIP: 0010:ffffffff81234567\n");
	app_field(&b, &n, "BIG", nat.big, NBIG);
	app(&b, &n, "\n", 1);

	strcpy(nat.dir, "/tmp/kl-test-journal-native-XXXXXX");
	assert_non_null(mkdtemp(nat.dir));
	put_file("in.export", b, n, nat.export, sizeof(nat.export));
	free(b);
	put_file("empty.journal", "", 0, path, sizeof(path));
	snprintf(path, sizeof(path), "%s/dir.journal", nat.dir);
	assert_int_equal(mkdir(path, 0700), 0);
	if ((rp = tool(remote)) == NULL)
		return (0);
	snprintf(nat.journal, sizeof(nat.journal), "%s/x.journal", nat.dir);
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s' >/dev/null 2>&1", rp,
	    nat.journal, nat.export);
	nat.have = system(cmd) == 0;
	return (0);
}

/* Remove the temporary directory. */
static int
nat_teardown(void **state)
{
	char cmd[128];

	(void)state;
	if (nat.dir[0] == '\0')
		return (0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", nat.dir);
	return (system(cmd) == 0 ? 0 : -1);
}

/* Read path into c, errors to the callback when cb; returns the rc. */
static int
read_native(const char *path, int cb, struct coll *c, struct kl_error *err)
{
	struct kl_journal_ops ops;

	memset(c, 0, sizeof(*c));
	ops.arg = c;
	ops.entry = on_entry;
	ops.error = cb ? on_error : NULL;
	kl_error_clear(err);
	return (kl_journal_native(path, &ops, err));
}

/* Is s[0..n) all lower-case hex digits? */
static int
hexrun(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strchr("0123456789abcdef", s[i]) == NULL || s[i] == '\0')
			return (0);
	return (1);
}

/*
 * The cursor sd-journal gives entry seq of the file: s=ID;i=SEQ;b=BOOT;
 * m=MONO;t=REALTIME;x=HASH, the file's sequence number id and the hash
 * of the data not known beforehand.
 */
static void
is_cursor(const char *c, const char *mid)
{
	size_t n = strlen(c), k = strlen(mid);

	assert_true(n > 2 + 32 + k);
	assert_memory_equal(c, "s=", 2);
	assert_true(hexrun(c + 2, 32));
	assert_memory_equal(c + 34, mid, k);
	/* the hash, printed without leading zeros */
	assert_true(n - 34 - k >= 1 && n - 34 - k <= 16);
	assert_true(hexrun(c + 34 + k, n - 34 - k));
}

/* The entries of x.journal, field by field, as written. */
static void
check_entries(const struct coll *c)
{
	const struct centry *e;
	size_t i, k;

	assert_int_equal(c->n, 3);
	for (i = 0; i < 3; i++) {
		e = &c->e[i];
		assert_int_equal(e->index, i);
		assert_int_equal(e->offset, 0);
		assert_int_equal(e->realtime, UINT64_C(1654000000000001) + i);
		assert_int_equal(e->partial, 0);
		assert_non_null(e->boot_id);
		assert_string_equal(e->boot_id, BOOT);
		assert_non_null(e->cursor);
		/* the cursor field first, then the timestamps */
		assert_true(e->nf >= 3);
		assert_string_equal(e->f[0].name, "__CURSOR");
		assert_int_equal(e->f[0].len, strlen(e->cursor));
		assert_memory_equal(e->f[0].data, e->cursor, e->f[0].len);
		for (k = 0; k < e->nf; k++) {
			assert_int_equal(e->f[k].offset, 0);
			assert_int_equal(e->f[k].exact, 0);
		}
	}
	/* m= and t= are the timestamps in hex: 5000001 is 0x4c4b41 */
	is_cursor(c->e[0].cursor, ";i=1;b=" BOOT ";m=4c4b41;"
	    "t=5e04de2756001;x=");
	is_cursor(c->e[1].cursor, ";i=2;b=" BOOT ";m=4c4b42;"
	    "t=5e04de2756002;x=");
	is_cursor(c->e[2].cursor, ";i=3;b=" BOOT ";m=4c4b43;"
	    "t=5e04de2756003;x=");
	/* one sequence number id for the file */
	assert_memory_equal(c->e[0].cursor, c->e[1].cursor, 34);
	assert_memory_equal(c->e[0].cursor, c->e[2].cursor, 34);

	e = &c->e[0];
	assert_int_equal(e->nf, 7);
	IS(&e->f[1], "__REALTIME_TIMESTAMP", "1654000000000001", 0, 0);
	IS(&e->f[2], "__MONOTONIC_TIMESTAMP", "5000001", 0, 0);
	IS(&e->f[3], "_BOOT_ID", BOOT, 0, 0);
	IS(&e->f[4], "_TRANSPORT", "kernel", 0, 0);
	IS(&e->f[5], "PRIORITY", "4", 0, 0);
	IS(&e->f[6], "MESSAGE", "RIP: 0010:ffffffff81234567", 0, 0);

	e = &c->e[1];
	assert_int_equal(e->nf, 9);
	IS(&e->f[1], "__REALTIME_TIMESTAMP", "1654000000000002", 0, 0);
	IS(&e->f[2], "__MONOTONIC_TIMESTAMP", "5000002", 0, 0);
	IS(&e->f[3], "_BOOT_ID", BOOT, 0, 0);
	IS(&e->f[4], "_TRANSPORT", "kernel", 0, 0);
	IS(&e->f[5], "PRIORITY", "6", 0, 0);
	IS(&e->f[6], "MESSAGE", "a=1\nb\0c\xff", 0, 0);
	IS(&e->f[7], "EMPTY", "", 0, 0);
	IS(&e->f[8], "MESSAGE", "second", 0, 0);

	e = &c->e[2];
	assert_int_equal(e->nf, 6);
	IS(&e->f[1], "__REALTIME_TIMESTAMP", "1654000000000003", 0, 0);
	IS(&e->f[2], "__MONOTONIC_TIMESTAMP", "5000003", 0, 0);
	IS(&e->f[3], "_BOOT_ID", BOOT, 0, 0);
	IS(&e->f[4], "MESSAGE", "RIP: 0010:ffffffff81234567", 0, 0);
	is_field(&e->f[5], "BIG", nat.big, NBIG, 0, 0);
}

/* Every entry, every field, with and without an error callback. */
static void
t_entries(void **state)
{
	struct kl_error err;
	struct coll c, d;

	(void)state;
	NEED_JOURNAL();
#ifdef HAVE_SYSTEMD
	assert_int_equal(read_native(nat.journal, 1, &c, &err), 0);
	assert_int_equal(c.nerr, 0);
	check_entries(&c);
	assert_int_equal(read_native(nat.journal, 0, &d, &err), 0);
	assert_int_equal(err.code, KL_EOK);
	same(&c, &d);
	coll_free(&d);
	coll_free(&c);
#else
	assert_int_equal(read_native(nat.journal, 1, &c, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, NO_SYSTEMD);
	assert_int_equal(c.n + c.nerr, 0);
#endif
}

/* The fields and their order are those of journalctl -o export. */
static void
t_as_export(void **state)
{
	static const char *const jctl[] = {
		"/usr/bin/journalctl", "/bin/journalctl", NULL
	};
	struct kl_error err;
	struct coll c, x;
	char cmd[512], path[160];
	const char *jp;
	uint8_t *b;
	size_t n = 0, i, k;

	(void)state;
	NEED_JOURNAL();
#ifndef HAVE_SYSTEMD
	skip();
#endif
	if ((jp = tool(jctl)) == NULL)
		skip();
	snprintf(path, sizeof(path), "%s/x.export", nat.dir);
	snprintf(cmd, sizeof(cmd), "'%s' --file '%s' -o export > '%s' "
	    "2>/dev/null", jp, nat.journal, path);
	assert_int_equal(system(cmd), 0);
	b = slurp(path, &n);
	assert_non_null(b);
	memset(&x, 0, sizeof(x));
	parse(KL_UNIT_EXPORT, b, n, 0, 1, &x);
	free(b);
	assert_int_equal(x.nerr, 0);
	assert_int_equal(read_native(nat.journal, 1, &c, &err), 0);
	assert_int_equal(c.n, x.n);
	for (i = 0; i < c.n; i++) {
		assert_non_null(x.e[i].cursor);
		assert_string_equal(c.e[i].cursor, x.e[i].cursor);
		assert_int_equal(c.e[i].realtime, x.e[i].realtime);
		assert_int_equal(c.e[i].nf, x.e[i].nf);
		for (k = 0; k < c.e[i].nf; k++) {
			assert_string_equal(c.e[i].f[k].name,
			    x.e[i].f[k].name);
			assert_int_equal(c.e[i].f[k].len, x.e[i].f[k].len);
			assert_memory_equal(c.e[i].f[k].data,
			    x.e[i].f[k].data, c.e[i].f[k].len);
		}
	}
	coll_free(&x);
	coll_free(&c);
}

/* An entry callback returning non-zero stops the read: 1. */
static void
t_stop(void **state)
{
	struct kl_journal_ops ops;
	struct kl_error err;
	struct coll c;
	size_t at;

	(void)state;
	NEED_JOURNAL();
	for (at = 1; at <= 3; at++) {
		memset(&c, 0, sizeof(c));
		c.stop_at = at;
		ops.arg = &c;
		ops.entry = on_entry;
		ops.error = on_error;
		kl_error_clear(&err);
#ifdef HAVE_SYSTEMD
		assert_int_equal(kl_journal_native(nat.journal, &ops, &err), 1);
		assert_int_equal(c.n, at);
		assert_int_equal(c.e[at - 1].index, at - 1);
		assert_int_equal(err.code, KL_EOK);
#else
		assert_int_equal(kl_journal_native(nat.journal, &ops, &err),
		    -1);
		assert_int_equal(c.n, 0);
		assert_string_equal(err.msg, NO_SYSTEMD);
#endif
		coll_free(&c);
	}
}

/* No path, no callbacks, no entry callback: refused. */
static void
t_args(void **state)
{
	struct kl_journal_ops ops = { NULL, NULL, on_error };
	struct kl_error err;
#ifdef HAVE_SYSTEMD
	static const char want[] = "journal file read without a path or an "
	    "entry callback";
#else
	static const char want[] = NO_SYSTEMD;
#endif

	(void)state;
	kl_error_clear(&err);
	assert_int_equal(kl_journal_native("x.journal", &ops, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_int_equal(err.errnum, 0);
	assert_string_equal(err.msg, want);
	kl_error_clear(&err);
	assert_int_equal(kl_journal_native("x.journal", NULL, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, want);
	ops.entry = on_entry;
	kl_error_clear(&err);
	assert_int_equal(kl_journal_native(NULL, &ops, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, want);
}

/*
 * What is not a journal file: the error code, errno and reason; no
 * entry.  The message does not name the file: the caller prefixes its
 * name (STYLE.md rule 5).
 */
static void
t_not_journal(void **state)
{
	static const struct {
		const char		*name;	/* in the directory */
		enum kl_errcode		 code;
		int			 errnum;
		const char		*msg;
	} rows[] = {
		{ "missing.journal", KL_EIO, ENOENT,
		    "cannot open journal file: No such file or directory" },
		{ "dir.journal", KL_EIO, EISDIR,
		    "cannot open journal file: Is a directory" },
		{ "empty.journal", KL_EFORMAT, ENODATA,
		    "cannot open journal file: truncated" },
		{ "in.export", KL_EFORMAT, EBADMSG,
		    "cannot open journal file: not a journal file, or "
		    "corrupt" },
	};
	struct kl_error err;
	struct coll c;
	char path[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", nat.dir, rows[i].name);
		assert_int_equal(read_native(path, 1, &c, &err), -1);
		assert_int_equal(c.n + c.nerr, 0);
		assert_int_equal(err.line, 0);
#ifdef HAVE_SYSTEMD
		assert_int_equal(err.code, rows[i].code);
		assert_int_equal(err.errnum, rows[i].errnum);
		assert_string_equal(err.msg, rows[i].msg);
#else
		assert_int_equal(err.code, KL_EINVAL);
		assert_int_equal(err.errnum, 0);
		assert_string_equal(err.msg, NO_SYSTEMD);
#endif
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_entries),
		cmocka_unit_test(t_as_export),
		cmocka_unit_test(t_stop),
		cmocka_unit_test(t_args),
		cmocka_unit_test(t_not_journal),
	};

	return (cmocka_run_group_tests(tests, nat_setup, nat_teardown));
}
