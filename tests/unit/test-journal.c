/*
 * test-journal.c - journal export and JSON parsers, native journal files.
 *
 * The real-data tests turn tests/data/x86_64-ubuntu-5.4-oops.dmesg into
 * kernel records as journald stores them (no [ts] prefix; continuation
 * lines joined by a newline, which makes MESSAGE binary), write them as
 * an export stream by hand, turn that into a native journal file with
 * systemd-journal-remote and read it back with journalctl -o export,
 * json, json-seq and json-pretty and with the native reader.  They are
 * skipped when those tools are not installed.  The other tests pin one
 * rule each on small hand-written streams.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kleak.h"

#define BOOT	"6f1b2c3d4e5f40718293a4b5c6d7e8f9"
#define RT0	UINT64_C(1654000000000000)

/* A field, an entry, everything one parse delivered. */
struct cfield {
	char		*name;
	uint8_t		*data;
	size_t		 len;
	uint64_t	 offset;
	int		 exact;
};
struct centry {
	uint64_t	 index;
	uint64_t	 offset;
	uint64_t	 realtime;
	char		*cursor;
	char		*boot_id;
	int		 partial;
	struct cfield	*f;
	size_t		 nf;
};
struct coll {
	struct centry	*e;
	size_t		 n;
	struct kl_error	*err;
	size_t		 nerr;
	size_t		 stop_at;	/* stop when n reaches it, 0 never */
	int		 rc_feed;	/* worst feed return */
	int		 rc_end;
	struct kl_error	 end_err;
	struct kl_jstats st;
};

/* A copy of b[0..n) with a NUL after it. */
static void *
mdup(const void *b, size_t n)
{
	uint8_t *p = malloc(n + 1);

	assert_non_null(p);
	if (n > 0)
		memcpy(p, b, n);
	p[n] = '\0';
	return (p);
}

/* Entry callback: copy the entry. */
static int
on_entry(void *arg, const struct kl_jentry *en)
{
	struct coll *c = arg;
	struct centry *x;
	size_t i;

	c->e = realloc(c->e, (c->n + 1) * sizeof(*c->e));
	assert_non_null(c->e);
	x = &c->e[c->n++];
	memset(x, 0, sizeof(*x));
	x->index = en->index;
	x->offset = en->offset;
	x->realtime = en->realtime;
	x->partial = en->partial;
	if (en->cursor != NULL)
		x->cursor = mdup(en->cursor, strlen(en->cursor));
	if (en->boot_id != NULL)
		x->boot_id = mdup(en->boot_id, strlen(en->boot_id));
	x->nf = en->nfields;
	x->f = calloc(en->nfields + 1, sizeof(*x->f));
	assert_non_null(x->f);
	for (i = 0; i < en->nfields; i++) {
		x->f[i].name = mdup(en->fields[i].name,
		    strlen(en->fields[i].name));
		x->f[i].data = mdup(en->fields[i].data, en->fields[i].len);
		x->f[i].len = en->fields[i].len;
		x->f[i].offset = en->fields[i].offset;
		x->f[i].exact = en->fields[i].exact;
		/* values are NUL-terminated for the caller's convenience */
		assert_int_equal(en->fields[i].data[en->fields[i].len], 0);
	}
	return (c->stop_at != 0 && c->n >= c->stop_at);
}

/* Error callback: copy the error. */
static int
on_error(void *arg, const struct kl_error *e)
{
	struct coll *c = arg;

	c->err = realloc(c->err, (c->nerr + 1) * sizeof(*c->err));
	assert_non_null(c->err);
	c->err[c->nerr++] = *e;
	return (0);
}

/* Free what a parse collected. */
static void
coll_free(struct coll *c)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->e[i].nf; k++) {
			free(c->e[i].f[k].name);
			free(c->e[i].f[k].data);
		}
		free(c->e[i].f);
		free(c->e[i].cursor);
		free(c->e[i].boot_id);
	}
	free(c->e);
	free(c->err);
	memset(c, 0, sizeof(*c));
}

/*
 * Parse b[0..n) as kind, fed in pieces of chunk bytes (0: whole; SIZE_MAX:
 * pseudo-random sizes), errors to the callback when cb.
 */
static void
parse(enum kl_unit_kind kind, const void *b, size_t n, size_t chunk, int cb,
    struct coll *c)
{
	struct kl_journal_ops ops = { c, on_entry, cb ? on_error : NULL };
	struct kl_journal *j;
	struct kl_error err;
	const uint8_t *p = b;
	size_t k, done = 0;
	uint32_t seed = 12345;
	int rc;

	j = kl_journal_new(kind, &ops, &err);
	assert_non_null(j);
	c->rc_feed = 0;
	while (done < n) {
		if (chunk == 0)
			k = n;
		else if (chunk == SIZE_MAX) {
			seed = seed * 1103515245 + 12345;
			k = 1 + (seed >> 16) % 97;
		} else
			k = chunk;
		if (k > n - done)
			k = n - done;
		rc = kl_journal_feed(j, p + done, k, &err);
		if (rc != 0)
			c->rc_feed = rc;
		if (rc == 1)
			break;
		assert_int_not_equal(rc, -1);
		done += k;
	}
	kl_error_clear(&c->end_err);
	c->rc_end = kl_journal_end(j, &c->end_err);
	c->st = *kl_journal_stats(j);
	kl_journal_free(j);
}

/* Are two parses the same, entries, fields and errors? */
static void
same(const struct coll *a, const struct coll *b)
{
	size_t i, k;

	assert_int_equal(a->n, b->n);
	assert_int_equal(a->nerr, b->nerr);
	for (i = 0; i < a->nerr; i++) {
		assert_int_equal(a->err[i].code, b->err[i].code);
		assert_int_equal(a->err[i].line, b->err[i].line);
		assert_string_equal(a->err[i].msg, b->err[i].msg);
	}
	for (i = 0; i < a->n; i++) {
		const struct centry *x = &a->e[i], *y = &b->e[i];

		assert_int_equal(x->index, y->index);
		assert_int_equal(x->offset, y->offset);
		assert_int_equal(x->realtime, y->realtime);
		assert_int_equal(x->partial, y->partial);
		assert_int_equal(x->cursor == NULL, y->cursor == NULL);
		if (x->cursor != NULL)
			assert_string_equal(x->cursor, y->cursor);
		assert_int_equal(x->nf, y->nf);
		for (k = 0; k < x->nf; k++) {
			assert_string_equal(x->f[k].name, y->f[k].name);
			assert_int_equal(x->f[k].len, y->f[k].len);
			assert_memory_equal(x->f[k].data, y->f[k].data,
			    x->f[k].len);
			assert_int_equal(x->f[k].offset, y->f[k].offset);
			assert_int_equal(x->f[k].exact, y->f[k].exact);
		}
	}
	assert_int_equal(a->rc_end, b->rc_end);
	assert_int_equal(a->st.entries, b->st.entries);
	assert_int_equal(a->st.errors, b->st.errors);
	assert_int_equal(a->st.skipped, b->st.skipped);
}

/* Exact fields are the stream's bytes; the rest lie within it. */
static void
check_exact(const struct coll *c, const uint8_t *b, size_t n)
{
	size_t i, k;

	for (i = 0; i < c->n; i++)
		for (k = 0; k < c->e[i].nf; k++) {
			const struct cfield *f = &c->e[i].f[k];

			assert_true(f->offset <= n);
			if (!f->exact)
				continue;
			assert_true(f->len <= n - f->offset);
			assert_memory_equal(f->data, b + f->offset, f->len);
		}
}

/* Parse b whole, then in every other way, and check they agree. */
static void
parse_all(enum kl_unit_kind kind, const void *b, size_t n, struct coll *c)
{
	static const size_t chunks[] = { 1, 2, 3, 5, 8, 13, 64, SIZE_MAX };
	struct coll d;
	size_t i;

	memset(c, 0, sizeof(*c));
	parse(kind, b, n, 0, 1, c);
	check_exact(c, b, n);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		memset(&d, 0, sizeof(d));
		parse(kind, b, n, chunks[i], 1, &d);
		same(c, &d);
		coll_free(&d);
	}
}

/* The k-th field named name of entry e, or NULL. */
static const struct cfield *
get(const struct centry *e, const char *name, int k)
{
	size_t i;

	for (i = 0; i < e->nf; i++)
		if (strcmp(e->f[i].name, name) == 0 && k-- == 0)
			return (&e->f[i]);
	return (NULL);
}

/* Assert field f is name = the literal value. */
static void
is_field(const struct cfield *f, const char *name, const void *v, size_t n,
    uint64_t offset, int exact)
{
	assert_non_null(f);
	assert_string_equal(f->name, name);
	assert_int_equal(f->len, n);
	assert_memory_equal(f->data, v, n);
	assert_int_equal(f->offset, offset);
	assert_int_equal(f->exact, exact);
}
#define IS(f, name, lit, off, ex) is_field(f, name, lit, sizeof(lit) - 1, \
	off, ex)

/*
 * Real data: the tools, a temporary directory, the records and what the
 * tools made of them.
 */
struct rec {
	uint64_t	 ts;		/* microseconds since boot */
	uint8_t		*msg;
	size_t		 len;
};
static struct {
	char		 dir[64];
	int		 have;		/* the tools ran */
	struct rec	*r;
	size_t		 n;
	uint8_t		*exp_in;	/* the hand-written export */
	size_t		 exp_in_len;
	uint8_t		*out[4];	/* export, json, json-seq, json-pretty */
	size_t		 outlen[4];
	char		 journal[128];
} real;

/* Read the whole file at path. */
static uint8_t *
slurp(const char *path, size_t *np)
{
	FILE *fp;
	uint8_t *b = NULL;
	size_t n = 0, cap = 0, k;

	if ((fp = fopen(path, "rb")) == NULL)
		return (NULL);
	for (;;) {
		if (cap - n < 65536) {
			cap = cap * 2 + 65536;
			b = realloc(b, cap);
			assert_non_null(b);
		}
		k = fread(b + n, 1, cap - n, fp);
		if (k == 0)
			break;
		n += k;
	}
	fclose(fp);
	*np = n;
	return (b);
}

/* The first of paths that is executable, or NULL. */
static const char *
tool(const char *const *paths)
{
	for (; *paths != NULL; paths++)
		if (access(*paths, X_OK) == 0)
			return (*paths);
	return (NULL);
}

/* Append a record made of a dmesg line; continuation lines join. */
static void
add_line(const uint8_t *l, size_t n)
{
	struct rec *r;
	size_t i = 0, us = 0, frac = 0;
	int digits = 0;

	if (n > 0 && l[0] == '[') {
		for (i = 1; i < n && l[i] == ' '; i++)
			;
		for (; i < n && l[i] >= '0' && l[i] <= '9'; i++)
			us = us * 10 + (size_t)(l[i] - '0');
		if (i < n && l[i] == '.')
			for (i++; i < n && l[i] >= '0' && l[i] <= '9'; i++) {
				frac = frac * 10 + (size_t)(l[i] - '0');
				digits++;
			}
		assert_int_equal(digits, 6);
		assert_true(i + 1 < n && l[i] == ']' && l[i + 1] == ' ');
		i += 2;
		real.r = realloc(real.r, (real.n + 1) * sizeof(*real.r));
		assert_non_null(real.r);
		r = &real.r[real.n++];
		r->ts = (uint64_t)us * 1000000 + frac;
		r->msg = mdup(l + i, n - i);
		r->len = n - i;
		return;
	}
	/* a continuation line of the record before */
	assert_true(real.n > 0);
	r = &real.r[real.n - 1];
	r->msg = realloc(r->msg, r->len + 1 + n + 1);
	assert_non_null(r->msg);
	r->msg[r->len++] = '\n';
	memcpy(r->msg + r->len, l, n);
	r->len += n;
}

/* Is b[0..n) written as a text field by journalctl? */
static int
textual(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((b[i] < 0x20 && b[i] != '\t') || b[i] >= 0x80)
			return (0);
	return (1);
}

/* Append b[0..n) to the growing buffer *bp of *np bytes. */
static void
app(uint8_t **bp, size_t *np, const void *b, size_t n)
{
	*bp = realloc(*bp, *np + n);
	assert_non_null(*bp);
	memcpy(*bp + *np, b, n);
	*np += n;
}

/* Append a formatted string. */
static void KL_PRINTFLIKE(3, 4)
appf(uint8_t **bp, size_t *np, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	assert_true(k > 0 && (size_t)k < sizeof(b));
	app(bp, np, b, (size_t)k);
}

/* Append one field, as text or binary the way journalctl does. */
static void
app_field(uint8_t **bp, size_t *np, const char *name, const uint8_t *v,
    size_t n)
{
	uint8_t le[8];
	int i;

	app(bp, np, name, strlen(name));
	if (textual(v, n)) {
		app(bp, np, "=", 1);
	} else {
		app(bp, np, "\n", 1);
		for (i = 0; i < 8; i++)
			le[i] = (uint8_t)((uint64_t)n >> (8 * i));
		app(bp, np, le, 8);
	}
	app(bp, np, v, n);
	app(bp, np, "\n", 1);
}

/* Build the records and the export, run the tools. */
static int
real_setup(void **state)
{
	static const char *const remote[] = {
		"/lib/systemd/systemd-journal-remote",
		"/usr/lib/systemd/systemd-journal-remote", NULL
	};
	static const char *const jctl[] = {
		"/usr/bin/journalctl", "/bin/journalctl", NULL
	};
	static const char *const fmt[] = {
		"export", "json", "json-seq", "json-pretty"
	};
	const char *rp, *jp;
	char cmd[512], path[160];
	uint8_t *d, *l, *nl, *e;
	size_t n, i, k;
	struct rec *r;
	FILE *fp;

	(void)state;
	d = slurp(TESTDATA "/x86_64-ubuntu-5.4-oops.dmesg", &n);
	assert_non_null(d);
	for (l = d, e = d + n; l < e; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(e - l));
		if (nl == NULL)
			nl = e;
		if (nl > l)
			add_line(l, (size_t)(nl - l));
	}
	free(d);
	/* 1565 records: 1568 lines, the last three continue line 1113 */
	assert_int_equal(real.n, 1565);
	/* one record holding invalid UTF-8, as kmsg unescaping makes */
	r = &real.r[7];
	assert_int_equal(r->len, 22);
	assert_memory_equal(r->msg, "  zhaoxin   Shanghai", 20);
	r->msg[9] = 0xff;
	r->msg[10] = 0xfe;
	/* one big record (zstd-compressed in the journal file) */
	r = &real.r[real.n - 1];
	for (i = 863, k = 0; i < 909 && k < 3000; i++)
		k += real.r[i].len + 1;
	r->msg = realloc(r->msg, k + 1);
	assert_non_null(r->msg);
	for (i = 863, r->len = 0; r->len < k; i++) {
		memcpy(r->msg + r->len, real.r[i].msg, real.r[i].len);
		r->len += real.r[i].len;
		r->msg[r->len++] = '\n';
	}
	r->len--;

	for (i = 0; i < real.n; i++) {
		r = &real.r[i];
		appf(&real.exp_in, &real.exp_in_len,
		    "__REALTIME_TIMESTAMP=%" PRIu64 "\n"
		    "__MONOTONIC_TIMESTAMP=%" PRIu64 "\n"
		    "_BOOT_ID=" BOOT "\n_TRANSPORT=kernel\nPRIORITY=6\n"
		    "SYSLOG_FACILITY=0\nSYSLOG_IDENTIFIER=kernel\n"
		    "_SOURCE_MONOTONIC_TIMESTAMP=%" PRIu64 "\n",
		    RT0 + r->ts + i, r->ts + i, r->ts);
		if (i == 3)
			appf(&real.exp_in, &real.exp_in_len,
			    "_UDEV_DEVLINK=/dev/disk/by-id/a\n"
			    "_UDEV_DEVLINK=/dev/disk/by-id/b\n");
		app_field(&real.exp_in, &real.exp_in_len, "MESSAGE", r->msg,
		    r->len);
		app(&real.exp_in, &real.exp_in_len, "\n", 1);
	}

	rp = tool(remote);
	jp = tool(jctl);
	if (rp == NULL || jp == NULL)
		return (0);
	strcpy(real.dir, "/tmp/kl-test-journal-XXXXXX");
	assert_non_null(mkdtemp(real.dir));
	snprintf(path, sizeof(path), "%s/in.export", real.dir);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(real.exp_in, 1, real.exp_in_len, fp),
	    real.exp_in_len);
	assert_int_equal(fclose(fp), 0);
	snprintf(real.journal, sizeof(real.journal), "%s/x.journal",
	    real.dir);
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s' >/dev/null 2>&1", rp,
	    real.journal, path);
	if (system(cmd) != 0)
		return (0);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/out.%s", real.dir, fmt[i]);
		snprintf(cmd, sizeof(cmd), "'%s' --file '%s' -o %s > '%s' "
		    "2>/dev/null", jp, real.journal, fmt[i], path);
		if (system(cmd) != 0)
			return (0);
		real.out[i] = slurp(path, &real.outlen[i]);
		assert_non_null(real.out[i]);
	}
	real.have = 1;
	return (0);
}

/* Remove the temporary files. */
static int
real_teardown(void **state)
{
	char cmd[128];
	size_t i;

	(void)state;
	if (real.dir[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", real.dir);
		if (system(cmd) != 0)
			return (-1);
	}
	for (i = 0; i < real.n; i++)
		free(real.r[i].msg);
	free(real.r);
	free(real.exp_in);
	for (i = 0; i < 4; i++)
		free(real.out[i]);
	return (0);
}

/* Every entry of c carries the records' MESSAGE bytes and metadata. */
static void
check_real(const struct coll *c)
{
	const struct cfield *f;
	size_t i;

	assert_int_equal(c->n, real.n);
	assert_int_equal(c->nerr, 0);
	assert_int_equal(c->rc_end, 0);
	for (i = 0; i < c->n; i++) {
		f = get(&c->e[i], "MESSAGE", 0);
		assert_non_null(f);
		assert_int_equal(f->len, real.r[i].len);
		assert_memory_equal(f->data, real.r[i].msg, f->len);
		assert_null(get(&c->e[i], "MESSAGE", 1));
		assert_int_equal(c->e[i].index, i);
		assert_int_equal(c->e[i].realtime, RT0 + real.r[i].ts + i);
		assert_non_null(c->e[i].boot_id);
		assert_string_equal(c->e[i].boot_id, BOOT);
		assert_int_equal(c->e[i].partial, 0);
	}
}

/* The hand-written export, before any tool: what was written. */
static void
t_real_handmade(void **state)
{
	struct coll c;
	size_t i;

	(void)state;
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

/* Skip when the tools did not run. */
#define NEED_TOOLS() do { \
	if (!real.have) \
		skip(); \
} while (0)

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

/* Export: text fields, offsets, entries, metadata. */
static void
t_export_text(void **state)
{
	static const char s[] =
	    "__CURSOR=s=ab;i=1\n"		/* 0, value at 9 */
	    "__REALTIME_TIMESTAMP=42\n"		/* 18, value at 39 */
	    "_BOOT_ID=b1\n"			/* 42, value at 51 */
	    "MESSAGE=x=1\n"			/* 54, value at 62 */
	    "EMPTY=\n"				/* 66, value at 72 */
	    "\n"				/* 73 */
	    "\n"				/* 74: extra blank line */
	    "MESSAGE=two\n"			/* 75, value at 83 */
	    "__NEW_THING=\tok\n"		/* 87, value at 99 */
	    "\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.rc_end, 0);
	assert_int_equal(c.e[0].index, 0);
	assert_int_equal(c.e[0].offset, 0);
	assert_string_equal(c.e[0].cursor, "s=ab;i=1");
	assert_int_equal(c.e[0].realtime, 42);
	assert_string_equal(c.e[0].boot_id, "b1");
	assert_int_equal(c.e[0].nf, 5);
	IS(&c.e[0].f[0], "__CURSOR", "s=ab;i=1", 9, 1);
	IS(&c.e[0].f[1], "__REALTIME_TIMESTAMP", "42", 39, 1);
	IS(&c.e[0].f[2], "_BOOT_ID", "b1", 51, 1);
	IS(&c.e[0].f[3], "MESSAGE", "x=1", 62, 1);
	IS(&c.e[0].f[4], "EMPTY", "", 72, 1);
	assert_int_equal(c.e[1].index, 1);
	assert_int_equal(c.e[1].offset, 75);
	assert_null(c.e[1].cursor);
	assert_int_equal(c.e[1].realtime, 0);
	assert_null(c.e[1].boot_id);
	IS(&c.e[1].f[0], "MESSAGE", "two", 83, 1);
	IS(&c.e[1].f[1], "__NEW_THING", "\tok", 99, 1);
	assert_int_equal(c.st.entries, 2);
	assert_int_equal(c.st.delivered, 2);
	coll_free(&c);
}

/* Export: binary fields (the example of JOURNAL_EXPORT_FORMATS.md). */
static void
t_export_binary(void **state)
{
	static const char s[] =
	    "_TRANSPORT=journal\n"		/* 0 */
	    "MESSAGE\n\x07\0\0\0\0\0\0\0foo\nbar\n"	/* 19, data at 35 */
	    "MESSAGE\n\0\0\0\0\0\0\0\0\n"	/* 43, data at 59 */
	    "CODE_FILE=<string>\n"		/* 60 */
	    "\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.e[0].nf, 4);
	IS(&c.e[0].f[0], "_TRANSPORT", "journal", 11, 1);
	IS(&c.e[0].f[1], "MESSAGE", "foo\nbar", 35, 1);
	IS(&c.e[0].f[2], "MESSAGE", "", 59, 1);
	IS(&c.e[0].f[3], "CODE_FILE", "<string>", 70, 1);
	coll_free(&c);
}

/* Export: a binary length past the end of the stream. */
static void
t_export_past_end(void **state)
{
	static const char s[] =
	    "MESSAGE=one\n\n"			/* entry 0 */
	    "_TRANSPORT=kernel\n"		/* entry 1 at 13 */
	    "MESSAGE\n\x64\0\0\0\0\0\0\0"	/* name at 31, data at 47 */
	    "0123456789";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_int_equal(c.err[0].code, KL_EFORMAT);
	assert_int_equal(c.err[0].line, 4);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 13): binary field "
	    "MESSAGE at offset 31: length 100 runs past the end of the "
	    "stream (10 bytes left)");
	assert_int_equal(c.rc_end, 0);
	/* what was read is delivered, to be scanned */
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[1].partial, 1);
	assert_int_equal(c.e[1].nf, 2);
	IS(&c.e[1].f[1], "MESSAGE", "0123456789", 47, 1);
	coll_free(&c);
}

/* Export: a length of 2^63 is damage; the next entry is read. */
static void
t_export_len_huge(void **state)
{
	static const char s[] =
	    "A=1\n"
	    "MESSAGE\n\0\0\0\0\0\0\0\x80"	/* name at 4 */
	    "garbage\n\n"			/* skipped: 9 bytes */
	    "MESSAGE=next\n\n";			/* entry 1 at 29 */
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): binary field "
	    "MESSAGE at offset 4: length 9223372036854775808 exceeds the 64 "
	    "MiB entry limit; skipping to the next blank line");
	assert_int_equal(c.err[0].line, 2);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 1);
	IS(&c.e[0].f[0], "A", "1", 2, 1);
	assert_int_equal(c.e[1].index, 1);
	assert_int_equal(c.e[1].offset, 29);
	assert_int_equal(c.e[1].partial, 0);
	IS(&c.e[1].f[0], "MESSAGE", "next", 37, 1);
	assert_int_equal(c.st.skipped, 9);
	coll_free(&c);
}

/* Export: bad names; a text field is dropped, a binary one resyncs. */
static void
t_export_bad_names(void **state)
{
	static const char s[] =
	    "message=lower\n"			/* 0: dropped */
	    "1ABC=digit\n"			/* 14: dropped */
	    "OK=yes\n"				/* 25 */
	    "\n"
	    "hello world\n"			/* 33: resync */
	    "BIN\n\x01\0\0\0\0\0\0\0x\n"
	    "\n"
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "=65\n"				/* 60: 65 bytes: dropped */
	    "B=b\n\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 4);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): invalid field "
	    "name \"message\" at offset 0; field dropped");
	assert_int_equal(c.err[0].line, 1);
	assert_string_equal(c.err[1].msg, "entry 0 (offset 0): invalid field "
	    "name \"1ABC\" at offset 14; field dropped");
	assert_string_equal(c.err[2].msg, "entry 1 (offset 33): invalid field "
	    "name \"hello\\x20world\" at offset 33; skipping to the next "
	    "blank line");
	assert_int_equal(c.err[2].line, 5);
	assert_string_equal(c.err[3].msg, "entry 2 (offset 60): invalid field "
	    "name \"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "AAAA\" at offset 60; field dropped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 1);
	IS(&c.e[0].f[0], "OK", "yes", 28, 1);
	assert_int_equal(c.e[1].index, 2);
	assert_int_equal(c.e[1].nf, 1);
	IS(&c.e[1].f[0], "B", "b", 131, 1);
	assert_int_equal(c.st.entries, 3);
	coll_free(&c);
}

/* Export: a line longer than a name with no '=' or newline yet. */
static void
t_export_long_line(void **state)
{
	char s[300];
	struct coll c;

	(void)state;
	memset(s, 'X', 200);
	memcpy(s + 200, " tail\n\nA=1\n\n", 12);
	parse_all(KL_UNIT_EXPORT, s, 212, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): invalid field "
	    "name \"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
	    "XXXXXXX...\" at offset 0 (too long); skipping to the next blank "
	    "line");
	assert_int_equal(c.n, 1);
	assert_int_equal(c.e[0].index, 1);
	IS(&c.e[0].f[0], "A", "1", 209, 1);
	assert_int_equal(c.st.skipped, 206 - 66 + 1);
	coll_free(&c);
}

/* Export: no newline after binary data. */
static void
t_export_no_newline(void **state)
{
	static const char s[] =
	    "A=1\nMESSAGE\n\x03\0\0\0\0\0\0\0abcX\nB=2\n\nC=3\n\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): binary field "
	    "MESSAGE at offset 4: 'X' at offset 23 after its 3 bytes of data, "
	    "not a newline; skipping to the next blank line");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].nf, 1);
	assert_int_equal(c.e[0].partial, 1);
	IS(&c.e[1].f[0], "C", "3", 32, 1);
	coll_free(&c);
}

/* Export: how streams end. */
static void
t_export_ends(void **state)
{
	struct coll c;

	(void)state;
	/* no final blank line: delivered, no error */
	parse_all(KL_UNIT_EXPORT, "A=1\nB=2\n", 8, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.e[0].nf, 2);
	coll_free(&c);
	/* no final newline either */
	parse_all(KL_UNIT_EXPORT, "A=1\nB=2", 7, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	IS(&c.e[0].f[1], "B", "2", 6, 1);
	coll_free(&c);
	/* cut in a name */
	parse_all(KL_UNIT_EXPORT, "A=1\n\nA=1\nMESS", 13, &c);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 5): the stream "
	    "ends inside field name \"MESS\" at offset 9");
	assert_int_equal(c.e[1].partial, 1);
	coll_free(&c);
	/* cut in a length */
	parse_all(KL_UNIT_EXPORT, "A=1\nMESSAGE\n\x03\0\0", 15, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): the stream "
	    "ends inside the length of binary field MESSAGE at offset 4");
	coll_free(&c);
	/* binary data complete, its newline missing: fine */
	parse_all(KL_UNIT_EXPORT, "MESSAGE\n\x02\0\0\0\0\0\0\0ab", 18, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 0);
	IS(&c.e[0].f[0], "MESSAGE", "ab", 16, 1);
	coll_free(&c);
	/* nothing at all, or only blank lines */
	parse_all(KL_UNIT_EXPORT, "\n\n\r\n", 4, &c);
	assert_int_equal(c.n, 0);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.st.entries, 0);
	coll_free(&c);
}

/* Export: CRLF line ends read like LF (text values never end in CR). */
static void
t_export_crlf(void **state)
{
	static const char s[] =
	    "A=1\r\nMESSAGE\r\n\x02\0\0\0\0\0\0\0\r\n\r\n\r\nB=2\r\n\r\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_EXPORT, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	IS(&c.e[0].f[0], "A", "1", 2, 1);
	IS(&c.e[0].f[1], "MESSAGE", "\r\n", 22, 1);
	IS(&c.e[1].f[0], "B", "2", 30, 1);
	coll_free(&c);
}

/* Export: a binary field over the entry limit is skipped exactly. */
static void
t_export_big_field(void **state)
{
	static const uint8_t head[] =
	    "A=1\nCOREDUMP\n\x01\0\0\x04\0\0\0\0";	/* 64 MiB + 1 */
	static const uint8_t tail[] = "\nB=2\n\nC=3\n\n";
	struct kl_journal_ops ops;
	struct kl_journal *j;
	struct kl_error err;
	struct coll c;
	uint8_t *z;
	size_t left;

	(void)state;
	memset(&c, 0, sizeof(c));
	ops.arg = &c;
	ops.entry = on_entry;
	ops.error = on_error;
	j = kl_journal_new(KL_UNIT_EXPORT, &ops, &err);
	assert_non_null(j);
	assert_int_equal(kl_journal_feed(j, head, sizeof(head) - 1, &err), 0);
	z = calloc(1, 1 << 20);
	assert_non_null(z);
	for (left = (64u << 20) + 1; left > 0; ) {
		size_t k = left < (1u << 20) ? left : (1u << 20);

		assert_int_equal(kl_journal_feed(j, z, k, &err), 0);
		left -= k;
	}
	free(z);
	assert_int_equal(kl_journal_feed(j, tail, sizeof(tail) - 1, &err),
	    0);
	assert_int_equal(kl_journal_end(j, &err), 0);
	assert_int_equal(kl_journal_stats(j)->skipped, (64u << 20) + 1);
	kl_journal_free(j);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): binary field "
	    "COREDUMP at offset 4: length 67108865 exceeds the 64 MiB entry "
	    "limit; field skipped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 2);
	IS(&c.e[0].f[1], "B", "2", 67108889, 1);
	assert_int_equal(c.e[1].partial, 0);
	coll_free(&c);
}

/* Export: the entry limit, then the next entry as usual. */
static void
t_export_entry_limit(void **state)
{
	struct kl_journal_ops ops;
	struct kl_journal *j;
	struct kl_error err;
	struct coll c;
	uint8_t *b;
	size_t n = 40u << 20, k;

	(void)state;
	memset(&c, 0, sizeof(c));
	ops.arg = &c;
	ops.entry = on_entry;
	ops.error = on_error;
	j = kl_journal_new(KL_UNIT_EXPORT, &ops, &err);
	assert_non_null(j);
	b = malloc(n + 2);
	assert_non_null(b);
	memset(b, 'x', n);
	b[n] = '\n';
	for (k = 0; k < 2; k++) {
		assert_int_equal(kl_journal_feed(j, k ? "B=" : "A=", 2, &err),
		    0);
		assert_int_equal(kl_journal_feed(j, b, n + 1, &err), 0);
	}
	free(b);
	assert_int_equal(kl_journal_feed(j, "C=c\n\nD=d\n\n", 10, &err), 0);
	assert_int_equal(kl_journal_end(j, &err), 0);
	kl_journal_free(j);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): entry exceeds "
	    "the 64 MiB limit at field B (offset 41943043); the rest of the "
	    "entry is dropped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[0].nf, 1);
	assert_int_equal(c.e[0].f[0].len, n);
	IS(&c.e[1].f[0], "D", "d", 2 * (n + 3) + 7, 1);
	assert_int_equal(c.e[1].partial, 0);
	coll_free(&c);
}

/* Export: the field limit. */
static void
t_export_field_limit(void **state)
{
	uint8_t *b = NULL;
	size_t n = 0, i;
	struct coll c;

	(void)state;
	for (i = 0; i < KL_JOURNAL_FIELDS_MAX + 2; i++)
		app(&b, &n, "F=x\n", 4);
	app(&b, &n, "\nG=y\n\n", 6);
	memset(&c, 0, sizeof(c));
	parse(KL_UNIT_EXPORT, b, n, 7, 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 0 (offset 0): more than 4096 "
	    "fields at field F (offset 16384); the rest of the entry is "
	    "dropped");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].nf, KL_JOURNAL_FIELDS_MAX);
	assert_int_equal(c.e[0].partial, 1);
	assert_int_equal(c.e[1].nf, 1);
	free(b);
	coll_free(&c);
}

/* JSON: strings, escapes, offsets and exactness. */
static void
t_json_strings(void **state)
{
	static const char s[] =
	    "{\"__CURSOR\":\"s=1;i=2\",\"__REALTIME_TIMESTAMP\":\"77\","
	    "\"MESSAGE\":\"a\\nb \\u00e9 \\ud83d\\ude00 \\u0000 \\\"q\\\" \\/\","
	    "\"_BOOT_ID\" : \"bb\" , \"N\":12.5e3,\"T\":true}\n";
	struct coll c;
	const struct cfield *f;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.e[0].offset, 0);
	assert_string_equal(c.e[0].cursor, "s=1;i=2");
	assert_int_equal(c.e[0].realtime, 77);
	assert_string_equal(c.e[0].boot_id, "bb");
	assert_int_equal(c.e[0].nf, 6);
	IS(&c.e[0].f[0], "__CURSOR", "s=1;i=2", 13, 1);
	f = &c.e[0].f[2];
	IS(f, "MESSAGE", "a\nb \xc3\xa9 \xf0\x9f\x98\x80 \0 \"q\" /", 61, 0);
	IS(&c.e[0].f[3], "_BOOT_ID", "bb", 117, 1);
	IS(&c.e[0].f[4], "N", "12.5e3", 127, 1);
	IS(&c.e[0].f[5], "T", "true", 138, 1);
	coll_free(&c);
}

/* JSON: byte arrays, repeated fields, null. */
static void
t_json_arrays(void **state)
{
	static const char s[] =
	    "{\"MESSAGE\":[98,97,100,32,255,0],"		/* [ at 11 */
	    "\"L\":[\"a\",null,[1,2],[],\"b\"],"		/* 31 */
	    "\"Z\":null,\"E\":[]}\n"
	    "{\"MESSAGE\":[ 104 , 105 ]}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[0].nf, 5);
	IS(&c.e[0].f[0], "MESSAGE", "bad \xff\0", 11, 0);
	IS(&c.e[0].f[1], "L", "a", 38, 1);
	IS(&c.e[0].f[2], "L", "\x01\x02", 46, 0);
	IS(&c.e[0].f[3], "L", "", 52, 0);
	IS(&c.e[0].f[4], "L", "b", 56, 1);
	IS(&c.e[1].f[0], "MESSAGE", "hi", 88, 0);
	assert_int_equal(c.e[1].offset, 77);
	assert_int_equal(c.st.nulls, 2);
	coll_free(&c);
}

/* JSON: invalid UTF-8 is kept as it is; lone surrogates are U+FFFD. */
static void
t_json_invalid_utf8(void **state)
{
	static const char s[] =
	    "{\"MESSAGE\":\"bad \xff\xfe \xc3( ok\"}\n"
	    "{\"MESSAGE\":\"\\ud800x\\udc00\\ud800\\u0041\\ud800\"}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	IS(&c.e[0].f[0], "MESSAGE", "bad \xff\xfe \xc3( ok", 12, 1);
	IS(&c.e[1].f[0], "MESSAGE", "\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd"
	    "A\xef\xbf\xbd", 39, 0);
	coll_free(&c);
}

/* JSON: json-seq, and a record cut short by the next RS. */
static void
t_json_seq(void **state)
{
	static const char s[] =
	    "\x1e{\"A\":\"1\"}\n"
	    "\x1e{\"A\":\"2\",\"B\":\"cut\x1e{\"A\":\"3\"}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 12): record "
	    "separator at offset 29 inside an entry: entry truncated");
	assert_int_equal(c.err[0].line, 2);
	assert_int_equal(c.n, 3);
	IS(&c.e[1].f[0], "A", "2", 18, 1);
	assert_int_equal(c.e[1].nf, 1);
	assert_int_equal(c.e[1].partial, 1);
	IS(&c.e[2].f[0], "A", "3", 36, 1);
	assert_int_equal(c.e[2].index, 2);
	coll_free(&c);
}

/* JSON: malformed lines are reported by line; the next lines are read. */
static void
t_json_malformed(void **state)
{
	static const char s[] =
	    "{\"A\":\"1\"}\n"				/* line 1 */
	    "not json\n"				/* 2 */
	    "{\"A\":\"2\",\"B\" \"x\"}\n"		/* 3: no ':' */
	    "{\"a\":\"lower\",\"C\":\"3\"}\n"		/* 4: dropped */
	    "{\"A\":\"x\\q\"}\n"			/* 5: bad escape */
	    "{\"A\":\"new\nline\"}\n"			/* 6 */
	    "{\"A\":[1,\"s\"]}\n"			/* 8 */
	    "{\"A\":[256]}\n"				/* 9 */
	    "{\"A\":{}}\n"				/* 10 */
	    "{\"D\":\"4\"}\n";				/* 11 */
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 8);
	assert_string_equal(c.err[0].msg, "expected '{' at offset 10, found "
	    "'n'");
	assert_int_equal(c.err[0].line, 2);
	assert_string_equal(c.err[1].msg, "entry 1 (offset 19): expected ':' "
	    "at offset 32, found '\"'");
	assert_int_equal(c.err[1].line, 3);
	assert_string_equal(c.err[2].msg, "entry 2 (offset 37): invalid field "
	    "name \"a\" at offset 39; member dropped");
	assert_int_equal(c.err[2].line, 4);
	assert_string_equal(c.err[3].msg, "entry 3 (offset 59): invalid "
	    "escape at offset 66: 'q' after a backslash");
	assert_int_equal(c.err[3].line, 5);
	/* the rest of the broken line is part of the damage: no error */
	assert_string_equal(c.err[4].msg, "entry 4 (offset 71): unterminated "
	    "string at offset 80 (newline)");
	assert_int_equal(c.err[4].line, 6);
	assert_string_equal(c.err[5].msg, "entry 5 (offset 88): string at "
	    "offset 96 in a byte array");
	assert_int_equal(c.err[5].line, 8);
	assert_string_equal(c.err[6].msg, "entry 6 (offset 102): invalid "
	    "value 256 at offset 108");
	assert_int_equal(c.err[6].line, 9);
	assert_string_equal(c.err[7].msg, "entry 7 (offset 114): expected a "
	    "value at offset 119, found '{'");
	assert_int_equal(c.err[7].line, 10);
	assert_int_equal(c.n, 4);
	IS(&c.e[0].f[0], "A", "1", 6, 1);
	IS(&c.e[1].f[0], "A", "2", 25, 1);
	assert_int_equal(c.e[1].partial, 1);
	assert_int_equal(c.e[2].nf, 1);
	IS(&c.e[2].f[0], "C", "3", 55, 1);
	assert_int_equal(c.e[2].partial, 1);
	IS(&c.e[3].f[0], "D", "4", 129, 1);
	assert_int_equal(c.e[3].index, 8);
	assert_int_equal(c.rc_end, 0);
	assert_int_equal(c.st.entries, 9);
	coll_free(&c);
}

/* JSON: json-pretty objects over many lines. */
static void
t_json_pretty(void **state)
{
	static const char s[] =
	    "{\n\t\"A\" : \"1\",\n\t\"B\" : [\n\t\t104,\n\t\t105\n\t]\n}\n"
	    "{\n\t\"A\" : \"2\"\n}\n";
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, s, sizeof(s) - 1, &c);
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.n, 2);
	IS(&c.e[0].f[0], "A", "1", 10, 1);
	IS(&c.e[0].f[1], "B", "hi", 21, 0);
	IS(&c.e[1].f[0], "A", "2", 51, 1);
	coll_free(&c);
}

/* JSON: a truncated last entry: reported, what was read delivered. */
static void
t_json_truncated(void **state)
{
	struct coll c;

	(void)state;
	parse_all(KL_UNIT_JSON, "{\"A\":\"1\"}\n{\"A\":\"2\",\"B\":\"par", 27,
	    &c);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.err[0].msg, "entry 1 (offset 10): the stream "
	    "ends inside the entry (truncated object)");
	assert_int_equal(c.err[0].line, 2);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.e[1].partial, 1);
	IS(&c.e[1].f[1], "B", "par", 24, 1);
	coll_free(&c);
	/* in a name, in a byte array, after a value */
	parse_all(KL_UNIT_JSON, "{\"A\":\"1\",\"BB", 12, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.e[0].nf, 1);
	coll_free(&c);
	parse_all(KL_UNIT_JSON, "{\"A\":[104,105,10", 16, &c);
	assert_int_equal(c.n, 1);
	IS(&c.e[0].f[0], "A", "hi", 5, 0);
	coll_free(&c);
	parse_all(KL_UNIT_JSON, "{\"A\":\"1\"", 8, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nerr, 1);
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
	    "/x86_64-ubuntu-5.4-oops.dmesg", &ops, &err), -1);
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

/* Patch decoded bytes [d, d+n) of the JSON value at raw[at]: 0 or -1. */
static int
patch(char *raw, size_t at, size_t d, const char *repl, size_t *where)
{
	struct kl_error err;

	memset(&err, 0, sizeof(err));
	return (kl_journal_json_patch((uint8_t *)raw, strlen(raw), at, d,
	    (const uint8_t *)repl, strlen(repl), where, &err));
}

/* A string: decoded offsets map back across every kind of escape. */
static void
t_json_patch_string(void **state)
{
	/* \n \" \u00e9 (2 bytes) \ud83d\ude00 (4) \udc00 (U+FFFD, 3) \\ */
	char raw[] = "\"caf\\u00e9 \\\"q\\\"\\n\\ud83d\\ude00\\udc00\\\\ "
	    "R10: ffff888003a1c000 done\"";
	const char *want = "\"caf\\u00e9 \\\"q\\\"\\n\\ud83d\\ude00\\udc00"
	    "\\\\ R10: 0000000000000000 done\"";
	size_t where = 0;

	(void)state;
	/* decoded: "caf" 3 + e9 2 + " \"q\"\n" 5 + 4 + 3 + "\\ R10: " 7 */
	assert_int_equal(patch(raw, 1, 24, "0000000000000000", &where), 0);
	assert_string_equal(raw, want);
	assert_int_equal(where, strstr(want, "0000") - want);
	/* A digit made by an escape is refused, nothing changed. */
	strcpy(raw, "\"R10: \\u0066fff888003a1c000\"");
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), -1);
	assert_string_equal(raw, "\"R10: \\u0066fff888003a1c000\"");
	/* The held bytes end before the span does. */
	strcpy(raw, "\"R10: ffff8880");
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), -1);
	/* The value ends before the span. */
	strcpy(raw, "\"R10\",\"ffff888003a1c000\"");
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), -1);
}

/* A byte array: the numbers rewritten in their own width. */
static void
t_json_patch_array(void **state)
{
	/* "R10: ffff888003a1c000" with white space as json-pretty has */
	char raw[] = ":[82,49,48,58,32,102,102,102,102,56,56,56,48,48,51,97,"
	    "49,99,48, 48 ,48]}";
	char low[] = ":[102,102,102,102,56,56,56,48,48,51,48,48,48,48,49,"
	    "48]";
	size_t where = 0;

	(void)state;
	assert_int_equal(patch(raw, 1, 5, "0000000000000000", &where), 0);
	assert_string_equal(raw, ":[82,49,48,58,32,48,48,48,48,48,48,48,48,"
	    "48,48,48,48,48,48,48,48      ]}");
	assert_int_equal(where, 17);
	/* Hash letters d-f (100-102) fit where wide numbers were... */
	assert_int_equal(patch(low, 1, 0, "00000000d000d000", &where), 0);
	assert_string_equal(low, ":[48,48,48,48,48,48,48,48,100,48,48,48,"
	    "100,48,48,48  ]");
	/* ...and go up to D-F (68-70) when they do not. */
	strcpy(low, ":[102,102,102,102,56,56,56,48,48,51,48,48,48,48,49,48]");
	assert_int_equal(patch(low, 1, 0, "00000000ddddddd0", &where), 0);
	assert_string_equal(low, ":[48,48,48,48,48,48,48,48,68,68,68,68,68,"
	    "68,68,48    ]");
	/* Not a byte array, or cut short: refused. */
	strcpy(low, ":[1,\"x\"]");
	assert_int_equal(patch(low, 1, 0, "00", &where), -1);
	strcpy(low, ":[102,102");
	assert_int_equal(patch(low, 1, 0, "000", &where), -1);
}

/* An entry written back as journalctl -o export prints it. */
static int
export_cat(void *arg, const void *p, size_t n)
{
	struct { char b[256]; size_t n; } *o = arg;

	if (n > sizeof(o->b) - o->n)
		return (-1);
	memcpy(o->b + o->n, p, n);
	o->n += n;
	return (0);
}

/* kl_journal_export: __ fields, _BOOT_ID, the rest; binary when needed. */
static void
t_export_write(void **state)
{
	struct kl_jfield f[] = {
		{ "__CURSOR", (const uint8_t *)"c", 1, 0, 0 },
		{ "MESSAGE", (const uint8_t *)"a\tb", 3, 0, 0 },
		{ "_BOOT_ID", (const uint8_t *)"b1", 2, 0, 0 },
		{ "X", (const uint8_t *)"l1\nl2", 5, 0, 0 },
		{ "Y", (const uint8_t *)"\xff", 1, 0, 0 },
	};
	struct kl_jentry e;
	struct { char b[256]; size_t n; } o;
	const char want[] = "__CURSOR=c\n_BOOT_ID=b1\nMESSAGE=a\tb\n"
	    "X\n\5\0\0\0\0\0\0\0l1\nl2\nY\n\1\0\0\0\0\0\0\0\xff\n\n";

	(void)state;
	memset(&e, 0, sizeof(e));
	e.fields = f;
	e.nfields = 5;
	o.n = 0;
	assert_int_equal(kl_journal_export(&e, export_cat, &o), 0);
	assert_int_equal(o.n, sizeof(want) - 1);
	assert_memory_equal(o.b, want, sizeof(want) - 1);
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
		cmocka_unit_test(t_export_text),
		cmocka_unit_test(t_export_binary),
		cmocka_unit_test(t_export_past_end),
		cmocka_unit_test(t_export_len_huge),
		cmocka_unit_test(t_export_bad_names),
		cmocka_unit_test(t_export_long_line),
		cmocka_unit_test(t_export_no_newline),
		cmocka_unit_test(t_export_ends),
		cmocka_unit_test(t_export_crlf),
		cmocka_unit_test(t_export_big_field),
		cmocka_unit_test(t_export_entry_limit),
		cmocka_unit_test(t_export_field_limit),
		cmocka_unit_test(t_json_strings),
		cmocka_unit_test(t_json_arrays),
		cmocka_unit_test(t_json_invalid_utf8),
		cmocka_unit_test(t_json_seq),
		cmocka_unit_test(t_json_malformed),
		cmocka_unit_test(t_json_pretty),
		cmocka_unit_test(t_json_truncated),
		cmocka_unit_test(t_no_error_callback),
		cmocka_unit_test(t_stop),
		cmocka_unit_test(t_args),
		cmocka_unit_test(t_native_bad),
		cmocka_unit_test(t_empty),
		cmocka_unit_test(t_json_patch_string),
		cmocka_unit_test(t_json_patch_array),
		cmocka_unit_test(t_export_write),
	};

	return (cmocka_run_group_tests(tests, real_setup, real_teardown));
}
