/*
 * input-harness.h - what the input tests share: the real logs, a scratch
 * directory, callbacks that record every unit kl_input_fd() delivers,
 * runs on a file and on a pipe, and archives written with libarchive or
 * the real tools.  Static, included once by each test-*.c of the input
 * layer (test-input, test-sniff, test-source, test-gzip-isal,
 * test-archive, test-pipe); what a file does not use is not a warning.
 */
#ifndef INPUT_HARNESS_H
#define INPUT_HARNESS_H

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#endif

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>

#include "kleak.h"

/*
 * The two logs, built by setup() in the scratch directory from the logs
 * of tests/data: LOG1 (some 120 KB, the size the limits of test-source.c
 * assume) the project's QEMU console and a written x86_64 oops, twice;
 * LOG2 a serial capture (CRLF line ends, NUL bytes) of a written arm64
 * boot.
 */
#define LOG1	logone
#define LOG2	logtwo
#define LOG1_SRC1	TESTDATA "/x86_64-qemu-6.1-no-hash-pointers.console"
#define LOG1_SRC2	TESTDATA "/written/x86_64-oops.dmesg"
#define LOG2_SRC	TESTDATA "/written/arm64-boot.dmesg"
#define MAXU	64
#define KEEP	(4u << 20)

/* One unit as the callbacks saw it. */
struct urec {
	char		 path[256];
	char		 chain[2048];		/* {m1}{m2}... */
	size_t		 nmembers;
	int		 kind;
	char		 filter[16];		/* "" for NULL */
	uint8_t		*data;			/* first KEEP bytes */
	size_t		 len;
	uint64_t	 total;
	uint64_t	 sum;			/* FNV-1a of every byte */
	int		 ended;
	int		 ecode;			/* KL_EOK when end got NULL */
	char		 emsg[256];
};

/* What one kl_input_fd() call delivered. */
struct rec {
	struct urec	 u[MAXU];
	size_t		 n;			/* units begun */
	size_t		 nended;
	uint64_t	 bytes;			/* all data bytes */
	int		 open;
	int		 bad;			/* protocol violations */
	size_t		 stop_data;		/* return 1 at this data call */
	size_t		 ndata;
	unsigned	 flags;			/* ops.flags to run with */
	int		 last_ecode;		/* of the last unit ended */
	char		 last_emsg[256];
};

static char tmp[64];
static char logone[96], logtwo[96];
static uint8_t *oops, *rg353;
static size_t oopslen, rg353len;

/* Read a whole file. */
static uint8_t *
slurp(const char *path, size_t *lenp)
{
	struct stat st;
	uint8_t *b;
	FILE *f;

	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &st), 0);
	b = malloc((size_t)st.st_size + 1);
	assert_non_null(b);
	*lenp = fread(b, 1, (size_t)st.st_size, f);
	assert_int_equal(*lenp, (size_t)st.st_size);
	fclose(f);
	return (b);
}

/* Write a whole file. */
static void
spew(const char *path, const void *b, size_t n)
{
	FILE *f;

	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* tmp/name in buf. */
static const char *
tpath(char *buf, size_t sz, const char *name)
{
	snprintf(buf, sz, "%s/%s", tmp, name);
	return (buf);
}

#define FNV_BASIS	UINT64_C(0xcbf29ce484222325)

/* FNV-1a of b[0, n) on from h: the order of the bytes counts. */
static uint64_t
fnv(uint64_t h, const void *b, size_t n)
{
	const uint8_t *p = b;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return (h);
}

/* Callback: a unit begins. */
static int
cb_begin(void *arg, const struct kl_unit *u)
{
	struct rec *r = arg;
	struct urec *x;
	size_t i, o, l;

	if (r->open || u == NULL || u->path == NULL ||
	    (u->nmembers > 0 && u->members == NULL))
		r->bad++;
	r->open = 1;
	if (r->n++ >= MAXU)
		return (0);
	x = &r->u[r->n - 1];
	memset(x, 0, sizeof(*x));
	x->sum = FNV_BASIS;
	snprintf(x->path, sizeof(x->path), "%s", u->path);
	o = 0;
	for (i = 0; i < u->nmembers; i++) {
		if (u->members[i] == NULL) {
			r->bad++;
			continue;
		}
		l = strlen(u->members[i]);
		if (o + l + 3 > sizeof(x->chain))
			break;
		x->chain[o++] = '{';
		memcpy(x->chain + o, u->members[i], l);
		o += l;
		x->chain[o++] = '}';
	}
	x->chain[o] = '\0';
	x->nmembers = u->nmembers;
	x->kind = u->kind;
	snprintf(x->filter, sizeof(x->filter), "%s",
	    u->filter != NULL ? u->filter : "");
	return (0);
}

/* Callback: data of the open unit. */
static int
cb_data(void *arg, const struct kl_unit *u, const void *p, size_t n)
{
	struct rec *r = arg;
	struct urec *x;
	size_t k;

	(void)u;
	if (!r->open || n == 0)
		r->bad++;
	r->bytes += n;
	r->ndata++;
	if (r->n <= MAXU) {
		x = &r->u[r->n - 1];
		x->total += n;
		x->sum = fnv(x->sum, p, n);
		k = x->len < KEEP ? KEEP - x->len : 0;
		k = k < n ? k : n;
		if (k > 0) {
			x->data = realloc(x->data, x->len + k);
			assert_non_null(x->data);
			memcpy(x->data + x->len, p, k);
			x->len += k;
		}
	}
	return (r->stop_data != 0 && r->ndata == r->stop_data);
}

/* Callback: the open unit ends. */
static int
cb_end(void *arg, const struct kl_unit *u, const struct kl_error *e)
{
	struct rec *r = arg;
	struct urec *x;

	(void)u;
	if (!r->open)
		r->bad++;
	r->open = 0;
	r->nended++;
	r->last_ecode = e != NULL ? (int)e->code : KL_EOK;
	snprintf(r->last_emsg, sizeof(r->last_emsg), "%s",
	    e != NULL ? e->msg : "");
	if (r->n > MAXU)
		return (0);
	x = &r->u[r->n - 1];
	x->ended++;
	x->ecode = e != NULL ? (int)e->code : KL_EOK;
	if (e != NULL)
		snprintf(x->emsg, sizeof(x->emsg), "%s", e->msg);
	return (0);
}

/* Forget what r holds. */
static void
rec_free(struct rec *r)
{
	size_t i;

	for (i = 0; i < MAXU; i++)
		free(r->u[i].data);
	memset(r, 0, sizeof(*r));
}

/* Show what r holds (TEST_INPUT_DUMP set in the environment). */
static void
dump(const char *name, int ret, const struct rec *r)
{
	size_t i;

	fprintf(stderr, "# %s: ret %d, %zu units, %llu bytes\n", name, ret,
	    r->n, (unsigned long long)r->bytes);
	for (i = 0; i < r->n && i < MAXU; i++)
		fprintf(stderr, "#  %s%s kind %d filter %s: %llu bytes, "
		    "error %d %s\n", r->u[i].path, r->u[i].chain, r->u[i].kind,
		    r->u[i].filter, (unsigned long long)r->u[i].total,
		    r->u[i].ecode, r->u[i].emsg);
}

/* Run kl_input_fd on fd; the callbacks must be balanced. */
static int
run_on(int fd, const char *name, const struct kl_limits *lim,
    struct rec *r, struct kl_error *err)
{
	struct kl_input_ops ops = { r, cb_begin, cb_data, cb_end, 0 };
	int ret;

	ops.flags = r->flags;
	ret = kl_input_fd(fd, name, lim, &ops, err);
	if (getenv("TEST_INPUT_DUMP") != NULL)
		dump(name, ret, r);
	assert_int_equal(r->bad, 0);
	assert_int_equal(r->open, 0);
	assert_int_equal(r->n, r->nended);
	return (ret);
}

/* Run on the file path, shown as name. */
static int
run_file(const char *path, const char *name, const struct kl_limits *lim,
    struct rec *r)
{
	struct kl_error err;
	int fd, ret;

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	ret = run_on(fd, name, lim, r, &err);
	close(fd);
	return (ret);
}

/* Write buf[0..n) to fd in pieces of at most piece bytes, then exit. */
static void
feeder(int fd, const uint8_t *buf, size_t n, size_t piece)
{
	size_t o, k;
	ssize_t w;

	signal(SIGPIPE, SIG_DFL);
	for (o = 0; o < n; o += (size_t)w) {
		k = n - o < piece ? n - o : piece;
		w = write(fd, buf + o, k);
		if (w <= 0)
			_exit(1);
	}
	_exit(0);
}

/* Run on the file path fed through a pipe in pieces. */
static int
run_pipe(const char *path, const char *name, const struct kl_limits *lim,
    struct rec *r, size_t piece)
{
	struct kl_error err;
	uint8_t *buf;
	size_t n;
	pid_t pid;
	int p[2], ret, st;

	buf = slurp(path, &n);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		feeder(p[1], buf, n, piece);
	}
	close(p[1]);
	ret = run_on(p[0], name, lim, r, &err);
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	free(buf);
	return (ret);
}

/* Assert that unit x is the whole of b[0..n), named chain, no error. */
static void
is_unit(const struct urec *x, const char *path, const char *chain,
    const char *filter, const uint8_t *b, size_t n)
{
	assert_string_equal(x->path, path);
	assert_string_equal(x->chain, chain);
	assert_string_equal(x->filter, filter);
	assert_int_equal(x->kind, KL_UNIT_TEXT);
	assert_int_equal(x->ended, 1);
	assert_int_equal(x->ecode, KL_EOK);
	assert_int_equal(x->total, n);
	assert_int_equal(x->len, n);
	assert_memory_equal(x->data, b, n);
}

/* Where a tool is installed, or NULL. */
static const char *
find_tool(const char *name, char *buf, size_t sz)
{
	static const char *const dirs[] = { "/usr/bin", "/bin",
		"/usr/local/bin" };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(buf, sz, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return (buf);
	}
	return (NULL);
}

/* Run argv with stdin from in (or none) and stdout to out; exit code. */
static int
tool(char *const argv[], const char *in, const char *out, const char *cwd)
{
	pid_t pid;
	int fd, st;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (cwd != NULL && chdir(cwd) != 0)
			_exit(126);
		if (in != NULL && (fd = open(in, O_RDONLY)) >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		if (out != NULL &&
		    (fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
			dup2(fd, 1);
			close(fd);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return (WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* An archive entry to write. */
struct ent {
	const char	*name;
	const uint8_t	*data;
	size_t		 len;
	int		 type;			/* 0: regular file */
};

/* A libarchive format setter. */
typedef int (*setfmt)(struct archive *);

/* Write entries with libarchive as format (NULL: raw) through filter. */
static void
w_archive(const char *out, setfmt format, int filter, const struct ent *e,
    size_t n)
{
	struct archive_entry *ae;
	struct archive *a;
	size_t i;

	a = archive_write_new();
	assert_non_null(a);
	if (filter != ARCHIVE_FILTER_NONE)
		assert_int_equal(archive_write_add_filter(a, filter),
		    ARCHIVE_OK);
	if (format == NULL)
		assert_int_equal(archive_write_set_format_raw(a), ARCHIVE_OK);
	else
		assert_int_equal(format(a), ARCHIVE_OK);
	if (format == archive_write_set_format_iso9660)
		assert_true(archive_write_set_options(a, "rockridge") >=
		    ARCHIVE_WARN);
	assert_int_equal(archive_write_open_filename(a, out), ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		ae = archive_entry_new();
		archive_entry_set_pathname(ae, e[i].name);
		archive_entry_set_mtime(ae, 1700000000, 0);
		if (e[i].type == AE_IFDIR) {
			archive_entry_set_filetype(ae, AE_IFDIR);
			archive_entry_set_perm(ae, 0755);
			archive_entry_set_size(ae, 0);
		} else if (e[i].type == AE_IFLNK) {
			archive_entry_set_filetype(ae, AE_IFLNK);
			archive_entry_set_perm(ae, 0777);
			archive_entry_set_symlink(ae, "kern.log");
			archive_entry_set_size(ae, 0);
		} else {
			archive_entry_set_filetype(ae, AE_IFREG);
			archive_entry_set_perm(ae, 0644);
			archive_entry_set_size(ae, (la_int64_t)e[i].len);
		}
		assert_true(archive_write_header(a, ae) >= ARCHIVE_WARN);
		if (e[i].type == 0 && e[i].len > 0)
			assert_int_equal(archive_write_data(a, e[i].data,
			    e[i].len), (la_ssize_t)e[i].len);
		archive_entry_free(ae);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

/* Compress b[0..n) into the file out with libarchive. */
static void
w_filter(const char *out, int filter, const uint8_t *b, size_t n)
{
	struct ent e = { "data", b, n, 0 };

	w_archive(out, NULL, filter, &e, 1);
}

/* Compress b[0..n) into memory with libarchive; *outn is its size. */
static uint8_t *
m_filter(int filter, const uint8_t *b, size_t n, size_t *outn)
{
	char p[128];
	uint8_t *r;

	w_filter(tpath(p, sizeof(p), "m_filter.tmp"), filter, b, n);
	r = slurp(p, outn);
	unlink(p);
	return (r);
}

/* Write the n bytes at b to path; 0, or -1. */
static int
put(const char *path, const uint8_t *b, size_t n)
{
	FILE *f;
	int rc;

	if ((f = fopen(path, "wb")) == NULL)
		return (-1);
	rc = fwrite(b, 1, n, f) == n ? 0 : -1;
	if (fclose(f) != 0)
		rc = -1;
	return (rc);
}

/* Group setup: a scratch directory and the two logs. */
static int
setup(void **state)
{
	uint8_t *a, *b;
	size_t na, nb, i, k;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/test-input.XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return (-1);
	snprintf(logone, sizeof(logone), "%s/oops.log", tmp);
	snprintf(logtwo, sizeof(logtwo), "%s/console.log", tmp);
	a = slurp(LOG1_SRC1, &na);
	b = slurp(LOG1_SRC2, &nb);
	if (a == NULL || b == NULL)
		return (-1);
	oopslen = 2 * (na + nb);
	if ((oops = malloc(oopslen)) == NULL)
		return (-1);
	for (i = 0; i < 2; i++) {
		memcpy(oops + i * (na + nb), a, na);
		memcpy(oops + i * (na + nb) + na, b, nb);
	}
	free(a);
	free(b);
	if ((a = slurp(LOG2_SRC, &na)) == NULL)
		return (-1);
	/* Two NULs first, as a serial line gives at power-on; CRLF. */
	if ((rg353 = malloc(2 * na + 2)) == NULL)
		return (-1);
	rg353[0] = rg353[1] = 0;
	for (i = 0, k = 2; i < na; i++) {
		if (a[i] == '\n')
			rg353[k++] = '\r';
		rg353[k++] = a[i];
	}
	rg353len = k;
	free(a);
	if (put(logone, oops, oopslen) != 0 ||
	    put(logtwo, rg353, rg353len) != 0)
		return (-1);
	signal(SIGPIPE, SIG_IGN);
	return (0);
}

/* Remove one file of the scratch tree. */
static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return (remove(p));
}

/* Group teardown. */
static int
teardown(void **state)
{
	(void)state;
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(oops);
	free(rg353);
	return (0);
}

/* Build top.tar{l1.zip}{l2.tar.gz}{kern.log.gz}, after.log in l2. */
static void
mk_nest(const char *top)
{
	struct ent e[2];
	uint8_t *gz, *l2, *l1;
	size_t gzlen, l2len, l1len;
	char p2[256], p1[256];

	gz = m_filter(ARCHIVE_FILTER_GZIP, oops, oopslen, &gzlen);
	e[0] = (struct ent){ "kern.log.gz", gz, gzlen, 0 };
	e[1] = (struct ent){ "after.log", rg353, rg353len, 0 };
	w_archive(tpath(p2, sizeof(p2), "l2.tar.gz"), archive_write_set_format_ustar,
	    ARCHIVE_FILTER_GZIP, e, 2);
	l2 = slurp(p2, &l2len);
	e[0] = (struct ent){ "l2.tar.gz", l2, l2len, 0 };
	w_archive(tpath(p1, sizeof(p1), "l1.zip"), archive_write_set_format_zip,
	    ARCHIVE_FILTER_NONE, e, 1);
	l1 = slurp(p1, &l1len);
	e[0] = (struct ent){ "l1.zip", l1, l1len, 0 };
	e[1] = (struct ent){ "last.log", rg353, rg353len, 0 };
	w_archive(top, archive_write_set_format_gnutar, ARCHIVE_FILTER_NONE, e, 2);
	free(gz);
	free(l2);
	free(l1);
}

/* Are two runs' records the same: units, chains, bytes, errors? */
static void
same_recs(const struct rec *a, const struct rec *b)
{
	size_t i;

	assert_int_equal(a->n, b->n);
	assert_int_equal(a->bytes, b->bytes);
	for (i = 0; i < a->n && i < MAXU; i++) {
		assert_string_equal(a->u[i].path, b->u[i].path);
		assert_string_equal(a->u[i].chain, b->u[i].chain);
		assert_string_equal(a->u[i].filter, b->u[i].filter);
		assert_int_equal(a->u[i].kind, b->u[i].kind);
		assert_int_equal(a->u[i].total, b->u[i].total);
		assert_true(a->u[i].sum == b->u[i].sum);
		assert_int_equal(a->u[i].len, b->u[i].len);
		if (a->u[i].len > 0)
			assert_memory_equal(a->u[i].data, b->u[i].data,
			    a->u[i].len);
		assert_int_equal(a->u[i].ecode, b->u[i].ecode);
		assert_string_equal(a->u[i].emsg, b->u[i].emsg);
	}
}

/*
 * Run on path three ways: as built (ISA-L and the pipeline), with
 * KLEAKSCAN_NO_PIPELINE=1 (no thread) and with KLEAKSCAN_NO_ISAL=1
 * (gzip through libarchive and zlib): the same units, bytes and errors.
 * r gets the first run.
 */
static void
run_3ways(const char *path, const char *name, struct rec *r)
{
	struct rec *o;

	o = calloc(1, sizeof(*o));
	assert_non_null(o);
	assert_int_equal(run_file(path, name, NULL, r), 0);
	assert_int_equal(setenv("KLEAKSCAN_NO_PIPELINE", "1", 1), 0);
	assert_int_equal(run_file(path, name, NULL, o), 0);
	unsetenv("KLEAKSCAN_NO_PIPELINE");
	same_recs(r, o);
	rec_free(o);
	assert_int_equal(setenv("KLEAKSCAN_NO_ISAL", "1", 1), 0);
	assert_int_equal(run_file(path, name, NULL, o), 0);
	unsetenv("KLEAKSCAN_NO_ISAL");
	same_recs(r, o);
	rec_free(o);
	free(o);
}

/* The hex header of a cpio newc member named by namesize bytes. */
static size_t
newc(char *h, size_t sz, unsigned long namesize)
{
	return ((size_t)snprintf(h, sz, "070701%08X%08X%08X%08X%08X%08X"
	    "%08X%08X%08X%08X%08X%08lX%08X", 1, 0100644, 0, 0, 1, 0, 0, 0, 0,
	    0, 0, namesize, 0));
}

#endif /* INPUT_HARNESS_H */
