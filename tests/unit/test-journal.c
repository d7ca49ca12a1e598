/*
 * test-journal.c - journal export and JSON parsers, native journal files.
 *
 * The real-data tests turn a real Ubuntu 5.4 boot log of ../shared/corpus
 * (boot/Ubuntu-20.04-FIPS-logs__dmesg.txt; skipped without it) into
 * kernel records as journald stores them (no [ts] prefix; continuation
 * lines joined by a newline, which makes MESSAGE binary), write them as
 * an export stream by hand, turn that into a native journal file with
 * systemd-journal-remote and read it back with journalctl -o export,
 * json, json-seq and json-pretty and with the native reader.  They are
 * skipped when those tools are not installed (tests/cli/journal.sh does
 * the same with the tools on a log written for the tests).  The other
 * tests pin one rule each on small hand-written streams.
 *
 * This file keeps the real-data tests and the stream API; the rules of
 * the entry builder, the export parser and the JSON parser are in
 * test-journal-entry.c, test-journal-export.c and test-json.c, sharing
 * journal-harness.h.
 */
#include "config.h"

#include "journal-harness.h"

/* Skip when the tools did not run. */
#define NEED_TOOLS() do { \
	if (!real.have) \
		skip(); \
} while (0)

/* Skip without the real log (../shared/corpus). */
#define NEED_REAL() do { \
	if (real.n == 0) \
		skip(); \
} while (0)

/* The hand-written export, before any tool: what was written. */
static void
t_real_handmade(void **state)
{
	struct coll c;
	size_t i;

	(void)state;
	NEED_REAL();
	parse_all(KL_UNIT_EXPORT, real.exp_in, real.exp_in_len, &c);
	check_real(&c);
	for (i = 0; i < c.n; i++)
		assert_null(c.e[i].cursor);
	/* binary: the joined record and the invalid UTF-8 one */
	assert_int_equal(c.e[1564].f[8].exact, 1);
	assert_int_equal(c.e[3].nf, 11);
	IS(&c.e[3].f[8], "_UDEV_DEVLINK", "/dev/disk/by-id/a",
	    c.e[3].f[8].offset, 1);
	coll_free(&c);
}


/* journalctl -o export of the journal file, and the native reader. */
static void
t_real_export_native(void **state)
{
	struct kl_journal_ops ops;
	struct kl_error err;
	struct coll c, nat;
	size_t i, k, n;
	uint8_t *b;

	(void)state;
	NEED_TOOLS();
	parse_all(KL_UNIT_EXPORT, real.out[0], real.outlen[0], &c);
	check_real(&c);
	memset(&nat, 0, sizeof(nat));
	ops.arg = &nat;
	ops.entry = on_entry;
	ops.error = on_error;
	assert_int_equal(kl_journal_native(real.journal, &ops, &err), 0);
	assert_int_equal(nat.nerr, 0);
	check_real(&nat);
	for (i = 0; i < c.n; i++) {
		const struct centry *x = &c.e[i], *y = &nat.e[i];

		assert_non_null(x->cursor);
		assert_non_null(y->cursor);
		assert_string_equal(x->cursor, y->cursor);
		assert_int_equal(y->offset, 0);
		/* the same fields in the same order */
		assert_int_equal(x->nf, y->nf);
		for (k = 0; k < x->nf; k++) {
			assert_string_equal(x->f[k].name, y->f[k].name);
			assert_int_equal(x->f[k].len, y->f[k].len);
			assert_memory_equal(x->f[k].data, y->f[k].data,
			    x->f[k].len);
			assert_int_equal(y->f[k].offset, 0);
			assert_int_equal(y->f[k].exact, 0);
		}
	}
	assert_string_equal(c.e[0].f[0].name, "__CURSOR");
	assert_string_equal(c.e[0].f[1].name, "__REALTIME_TIMESTAMP");
	assert_string_equal(c.e[0].f[2].name, "__MONOTONIC_TIMESTAMP");
	/* the big record is stored compressed: it came through zstd */
	b = slurp(real.journal, &n);
	assert_non_null(b);
	assert_int_equal(b[12] & 0x08, 0x08);	/* COMPRESSED-ZSTD */
	assert_null(memmem(b, n, real.r[real.n - 1].msg, 200));
	assert_non_null(memmem(b, n, real.r[0].msg, real.r[0].len));
	free(b);
	/* the native reader stops when asked */
	coll_free(&nat);
	nat.stop_at = 10;
	ops.arg = &nat;
	assert_int_equal(kl_journal_native(real.journal, &ops, &err), 1);
	assert_int_equal(nat.n, 10);
	coll_free(&nat);
	coll_free(&c);
}

/* A journal file cut short (as a *.journal~ can be) is refused. */
static void
t_real_native_truncated(void **state)
{
	struct kl_journal_ops ops;
	struct kl_error err;
	struct coll c;
	char path[160];
	uint8_t *b;
	size_t n;
	FILE *fp;

	(void)state;
	NEED_TOOLS();
	b = slurp(real.journal, &n);
	assert_non_null(b);
	assert_true(n > 4096);
	snprintf(path, sizeof(path), "%s/cut.journal~", real.dir);
	assert_non_null(fp = fopen(path, "wb"));
	assert_int_equal(fwrite(b, 1, 4096, fp), 4096);
	assert_int_equal(fclose(fp), 0);
	free(b);
	memset(&c, 0, sizeof(c));
	ops.arg = &c;
	ops.entry = on_entry;
	ops.error = on_error;
	assert_int_equal(kl_journal_native(path, &ops, &err), -1);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_int_equal(err.errnum, ENODATA);
	assert_string_equal(err.msg, "cannot open journal file: truncated");
	assert_int_equal(c.n, 0);
}

/* Sort the fields of e by name, keeping the order of equal names. */
static void
sort_fields(struct centry *e)
{
	struct cfield t;
	size_t i, k;

	for (i = 1; i < e->nf; i++)
		for (k = i; k > 0 && strcmp(e->f[k - 1].name,
		    e->f[k].name) > 0; k--) {
			t = e->f[k];
			e->f[k] = e->f[k - 1];
			e->f[k - 1] = t;
		}
}

/* journalctl -o json, json-seq and json-pretty: what the export says. */
static void
t_real_json(void **state)
{
	struct coll c, ex;
	size_t i, k, o;

	(void)state;
	NEED_TOOLS();
	memset(&ex, 0, sizeof(ex));
	parse(KL_UNIT_EXPORT, real.out[0], real.outlen[0], 0, 1, &ex);
	for (i = 0; i < ex.n; i++)
		sort_fields(&ex.e[i]);
	for (o = 1; o < 4; o++) {
		parse_all(KL_UNIT_JSON, real.out[o], real.outlen[o], &c);
		check_real(&c);
		assert_int_equal(c.st.nulls, 0);
		for (i = 0; i < c.n; i++) {
			assert_non_null(c.e[i].cursor);
			assert_string_equal(c.e[i].cursor, ex.e[i].cursor);
			sort_fields(&c.e[i]);
			assert_int_equal(c.e[i].nf, ex.e[i].nf);
			for (k = 0; k < c.e[i].nf; k++) {
				const struct cfield *x = &ex.e[i].f[k];
				const struct cfield *y = &c.e[i].f[k];

				assert_string_equal(x->name, y->name);
				assert_int_equal(x->len, y->len);
				assert_memory_equal(x->data, y->data, x->len);
			}
		}
		/* newlines are escaped, invalid UTF-8 is a byte array */
		assert_int_equal(get(&c.e[1564], "MESSAGE", 0)->exact, 0);
		assert_int_equal(get(&c.e[7], "MESSAGE", 0)->exact, 0);
		assert_int_equal(get(&c.e[6], "MESSAGE", 0)->exact, 1);
		coll_free(&c);
	}
	coll_free(&ex);
}

/* Run journalctl on the file j with the options o; parse as kind. */
static void
run_journalctl(const char *j, const char *o, enum kl_unit_kind kind,
    struct coll *c)
{
	static const char *const jctl[] = {
		"/usr/bin/journalctl", "/bin/journalctl", NULL
	};
	char cmd[512], path[160];
	uint8_t *b;
	size_t n;

	snprintf(path, sizeof(path), "%s/run.out", real.dir);
	snprintf(cmd, sizeof(cmd), "'%s' --file '%s' %s > '%s' 2>/dev/null",
	    tool(jctl), j, o, path);
	assert_int_equal(system(cmd), 0);
	b = slurp(path, &n);
	assert_non_null(b);
	memset(c, 0, sizeof(*c));
	parse(kind, b, n, 0, 1, c);
	free(b);
}

/* journalctl -o json writes fields of 4096 bytes and more as null. */
static void
t_real_json_null(void **state)
{
	static const char *const remote[] = {
		"/lib/systemd/systemd-journal-remote",
		"/usr/lib/systemd/systemd-journal-remote", NULL
	};
	char cmd[512], in[160], jf[160];
	uint8_t *b = NULL, *v;
	size_t n = 0;
	struct coll c;
	FILE *fp;

	(void)state;
	NEED_TOOLS();
	v = malloc(5000);
	assert_non_null(v);
	memset(v, 'a', 5000);
	appf(&b, &n, "__REALTIME_TIMESTAMP=%" PRIu64 "\n_BOOT_ID=" BOOT "\n"
	    "_TRANSPORT=kernel\n", RT0);
	app_field(&b, &n, "MESSAGE", v, 5000);
	app(&b, &n, "\n", 1);
	free(v);
	snprintf(in, sizeof(in), "%s/big.export", real.dir);
	snprintf(jf, sizeof(jf), "%s/big.journal", real.dir);
	assert_non_null(fp = fopen(in, "wb"));
	assert_int_equal(fwrite(b, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
	free(b);
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s' >/dev/null 2>&1",
	    tool(remote), jf, in);
	assert_int_equal(system(cmd), 0);

	run_journalctl(jf, "-o json", KL_UNIT_JSON, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	assert_null(get(&c.e[0], "MESSAGE", 0));
	assert_non_null(get(&c.e[0], "_TRANSPORT", 0));
	assert_int_equal(c.st.nulls, 1);
	coll_free(&c);
	run_journalctl(jf, "-o json --all", KL_UNIT_JSON, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(get(&c.e[0], "MESSAGE", 0)->len, 5000);
	assert_int_equal(c.st.nulls, 0);
	coll_free(&c);
	run_journalctl(jf, "-o export", KL_UNIT_EXPORT, &c);
	assert_int_equal(get(&c.e[0], "MESSAGE", 0)->len, 5000);
	coll_free(&c);
}

/* Without an error callback: every entry, then the first error. */
static void
t_no_error_callback(void **state)
{
	static const char s[] = "A=1\n\nmessage=x\nB=2\n\nC=3\n\n";
	struct coll c;

	(void)state;
	memset(&c, 0, sizeof(c));
	parse(KL_UNIT_EXPORT, s, sizeof(s) - 1, 1, 0, &c);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.rc_feed, 0);
	assert_int_equal(c.rc_end, -1);
	assert_int_equal(c.end_err.code, KL_EFORMAT);
	assert_int_equal(c.end_err.line, 3);
	assert_string_equal(c.end_err.msg, "entry 1 (offset 5): invalid field "
	    "name \"message\" at offset 5; field dropped");
	assert_int_equal(c.st.errors, 1);
	coll_free(&c);
}

/* A callback returning non-zero stops the parse for good. */
static void
t_stop(void **state)
{
	struct kl_journal_ops ops;
	struct kl_journal *j;
	struct kl_error err;
	struct coll c;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.stop_at = 1;
	ops.arg = &c;
	ops.entry = on_entry;
	ops.error = NULL;
	j = kl_journal_new(KL_UNIT_EXPORT, &ops, &err);
	assert_non_null(j);
	assert_int_equal(kl_journal_feed(j, "A=1\n\nB=2\n\n", 10, &err), 1);
	assert_int_equal(kl_journal_feed(j, "C=3\n\n", 5, &err), 1);
	assert_int_equal(kl_journal_end(j, &err), 1);
	assert_int_equal(c.n, 1);
	kl_journal_free(j);
	coll_free(&c);
}

/* Arguments the parsers refuse. */
static void
t_args(void **state)
{
	struct kl_journal_ops ops = { NULL, on_entry, NULL };
	struct kl_journal *j;
	struct kl_error err;

	(void)state;
	assert_null(kl_journal_new(KL_UNIT_TEXT, &ops, &err));
	assert_int_equal(err.code, KL_EINVAL);
	assert_null(kl_journal_new(KL_UNIT_JOURNAL, &ops, &err));
	assert_string_equal(err.msg, "native journal files are read with "
	    "kl_journal_native");
	ops.entry = NULL;
	assert_null(kl_journal_new(KL_UNIT_JSON, &ops, &err));
	assert_null(kl_journal_new(KL_UNIT_JSON, NULL, &err));
	ops.entry = on_entry;
	j = kl_journal_new(KL_UNIT_JSON, &ops, &err);
	assert_non_null(j);
	assert_int_equal(kl_journal_feed(j, NULL, 0, &err), 0);
	assert_int_equal(kl_journal_feed(j, NULL, 1, &err), -1);
	assert_int_equal(kl_journal_end(j, &err), 0);
	assert_int_equal(kl_journal_feed(j, "{}", 2, &err), -1);
	assert_string_equal(err.msg, "journal stream already ended");
	kl_journal_free(j);
	kl_journal_free(NULL);
}

/* The native reader refuses what is not a journal file. */
static void
t_native_bad(void **state)
{
	struct kl_journal_ops ops = { NULL, on_entry, on_error };
	struct kl_error err;

	(void)state;
	kl_error_clear(&err);
	assert_int_equal(kl_journal_native("/nonexistent/x.journal", &ops,
	    &err), -1);
#ifdef HAVE_SYSTEMD
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, ENOENT);
	assert_string_equal(err.msg, "cannot open journal file: No such "
	    "file or directory");
	kl_error_clear(&err);
	assert_int_equal(kl_journal_native(TESTDATA
	    "/written/x86_64-oops.dmesg", &ops, &err), -1);
	assert_int_equal(err.code, KL_EFORMAT);
	assert_int_equal(err.errnum, EBADMSG);
	assert_string_equal(err.msg, "cannot open journal file: not a "
	    "journal file, or corrupt");
#else
	assert_string_equal(err.msg, "native journal files need libsystemd: "
	    "reconfigure with --with-systemd");
#endif
}

/* Empty streams and white space only: nothing, no error. */
static void
t_empty(void **state)
{
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, "", 0, &c);
	assert_int_equal(c.n + c.nerr + c.st.entries, 0);
	coll_free(&c);
	parse_all(KL_UNIT_JSON, "", 0, &c);
	assert_int_equal(c.n + c.nerr + c.st.entries, 0);
	coll_free(&c);
	parse_all(KL_UNIT_JSON, " \r\n\t\x1e\n", 6, &c);
	assert_int_equal(c.n + c.nerr + c.st.entries, 0);
	assert_int_equal(c.rc_end, 0);
	coll_free(&c);
	parse_all(KL_UNIT_JSON, "{}\n", 3, &c);
	assert_int_equal(c.n + c.nerr, 0);
	assert_int_equal(c.st.entries, 1);
	coll_free(&c);
}

/*
 * kl_journal_settled(): fed one byte at a time, the settled offset is
 * the start of the entry being read, and the end of what was fed between
 * entries; it never goes back, and every entry below it was delivered.
 */
static void
t_settled(void **state)
{
	static const char exp[] =
	    "__CURSOR=a\nMESSAGE=one\n\n__CURSOR=b\nMESSAGE=two\n\n";
	static const char json[] =
	    "{\"MESSAGE\":\"one\"}\n{\"MESSAGE\":\"two\"}\n";
	static const struct {
		enum kl_unit_kind	 kind;
		const char		*s;
		size_t			 second;	/* its second entry */
	} t[] = {
		{ KL_UNIT_EXPORT, exp, 24 },
		{ KL_UNIT_JSON, json, 18 },
	};
	struct kl_journal_ops ops;
	struct kl_journal *j;
	struct kl_error err;
	struct coll c;
	uint64_t s, last;
	size_t i, k, n;

	(void)state;
	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		n = strlen(t[k].s);
		assert_int_equal(t[k].s[t[k].second - 1], '\n');
		memset(&c, 0, sizeof(c));
		memset(&ops, 0, sizeof(ops));
		ops.arg = &c;
		ops.entry = on_entry;
		j = kl_journal_new(t[k].kind, &ops, &err);
		assert_non_null(j);
		assert_int_equal(kl_journal_settled(j), 0);
		last = 0;
		for (i = 0; i < n; i++) {
			assert_int_equal(kl_journal_feed(j, t[k].s + i, 1,
			    &err), 0);
			s = kl_journal_settled(j);
			assert_true(s >= last);
			last = s;
			if (c.n == 0)		/* the first entry is read */
				assert_int_equal(s, 0);
			else if (i + 1 <= t[k].second)	/* between */
				assert_int_equal(s, i + 1);
			else if (c.n == 1)	/* the second is read */
				assert_int_equal(s, t[k].second);
			else
				assert_int_equal(s, i + 1);
		}
		assert_int_equal(c.n, 2);
		assert_int_equal(last, n);
		assert_int_equal(kl_journal_end(j, &err), 0);
		kl_journal_free(j);
		coll_free(&c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_real_handmade),
		cmocka_unit_test(t_real_export_native),
		cmocka_unit_test(t_real_native_truncated),
		cmocka_unit_test(t_real_json),
		cmocka_unit_test(t_real_json_null),
		cmocka_unit_test(t_no_error_callback),
		cmocka_unit_test(t_stop),
		cmocka_unit_test(t_args),
		cmocka_unit_test(t_native_bad),
		cmocka_unit_test(t_empty),
		cmocka_unit_test(t_settled),
	};

	return (cmocka_run_group_tests(tests, real_setup, real_teardown));
}
