/*
 * journal-harness.h - what the journal tests share: a parser run over a
 * stream in pieces of every size with the entries and errors collected,
 * comparisons of two runs, and the real-data fixture (the oops log as
 * journald stores it, as export, native journal and JSON, made by the
 * group setup with systemd's tools when they are installed).  Static,
 * included once by test-journal, test-journal-entry, test-journal-export,
 * test-journal-native and test-json; what a file does not use is not a
 * warning.
 */
#ifndef JOURNAL_HARNESS_H
#define JOURNAL_HARNESS_H

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#endif

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
 * tools made of them.  The records are the lines of a real Ubuntu 5.4
 * boot log of ../shared/corpus (none without it: real.n is 0).
 */
#define REALLOG	TESTDATA "/../../../shared/corpus/boot/" \
	"Ubuntu-20.04-FIPS-logs__dmesg.txt"
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
	/* The real boot log of ../shared/corpus; the real tests skip
	 * without it (tests/cli/journal.sh runs the tools on written lines). */
	d = slurp(REALLOG, &n);
	if (d == NULL)
		return (0);
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

#endif /* JOURNAL_HARNESS_H */
