/*
 * test-input.c - the input layer: the same real log arrives byte for
 * byte as a plain file, through every compression, as a member of every
 * archive format, nested, and on a pipe; names and member chains are
 * exact; limits, bombs and damage end the right unit with the right
 * error; sniffing tells text, binary, journal exports and JSON apart;
 * memory stays flat over many members and a big one.
 *
 * Archives are built at run time with libarchive's writer and, where
 * they are installed, with the real tools (gzip, xz, zstd, bzip2, lz4,
 * zip); a missing tool skips its part, never the test.
 */
#include "config.h"

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

#define LOG1	TESTDATA "/x86_64-ubuntu-5.4-oops.dmesg"
#define LOG2	TESTDATA "/arm64-rg353v-6.4-console.log"	/* has a NUL */
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

/* Group setup: a scratch directory and the two real logs. */
static int
setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/test-input.XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return (-1);
	oops = slurp(LOG1, &oopslen);
	rg353 = slurp(LOG2, &rg353len);
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

/* A plain file is one unit, byte for byte, through the fast path. */
static void
t_plain(void **state)
{
	struct rec r = { 0 };

	(void)state;
	assert_int_equal(run_file(LOG1, "oops.dmesg", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "oops.dmesg", "", "", oops, oopslen);
	assert_int_equal(r.u[0].nmembers, 0);
	rec_free(&r);

	/* On a pipe, in small pieces and in one go. */
	assert_int_equal(run_pipe(LOG1, "-", NULL, &r, 100), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "-", "", "", oops, oopslen);
	rec_free(&r);
	assert_int_equal(run_pipe(LOG2, "-", NULL, &r, 1 << 20), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "-", "", "", rg353, rg353len);
	rec_free(&r);
}

/* Every compression, built by libarchive: one unit, suffix dropped. */
static void
t_compressions(void **state)
{
	static const struct {
		int		 code;
		const char	*file;
		const char	*filter;
	} c[] = {
		{ ARCHIVE_FILTER_GZIP, "oops.dmesg.gz", "gzip" },
		{ ARCHIVE_FILTER_BZIP2, "oops.dmesg.bz2", "bzip2" },
		{ ARCHIVE_FILTER_XZ, "oops.dmesg.xz", "xz" },
		{ ARCHIVE_FILTER_LZMA, "oops.dmesg.lzma", "lzma" },
		{ ARCHIVE_FILTER_ZSTD, "oops.dmesg.zst", "zstd" },
		{ ARCHIVE_FILTER_LZ4, "oops.dmesg.lz4", "lz4" },
		{ ARCHIVE_FILTER_COMPRESS, "oops.dmesg.Z", "compress" },
	};
	struct rec r = { 0 };
	char p[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		tpath(p, sizeof(p), c[i].file);
		w_filter(p, c[i].code, oops, oopslen);
		assert_int_equal(run_file(p, c[i].file, NULL, &r), 0);
		assert_int_equal(r.n, 1);
		is_unit(&r.u[0], c[i].file, "{oops.dmesg}", c[i].filter, oops,
		    oopslen);
		rec_free(&r);
		assert_int_equal(run_pipe(p, c[i].file, NULL, &r, 4096), 0);
		assert_int_equal(r.n, 1);
		is_unit(&r.u[0], c[i].file, "{oops.dmesg}", c[i].filter, oops,
		    oopslen);
		rec_free(&r);
	}
	/* Another suffix, no suffix. */
	tpath(p, sizeof(p), "bundle.tgz");
	w_filter(p, ARCHIVE_FILTER_GZIP, rg353, rg353len);
	assert_int_equal(run_file(p, "dir/bundle.tgz", NULL, &r), 0);
	is_unit(&r.u[0], "dir/bundle.tgz", "{bundle.tar}", "gzip", rg353,
	    rg353len);
	rec_free(&r);
	assert_int_equal(run_file(p, "(standard input)", NULL, &r), 0);
	is_unit(&r.u[0], "(standard input)", "{(standard input)}", "gzip",
	    rg353, rg353len);
	rec_free(&r);
}

/* The real tools, where installed; gzip's header name wins. */
static void
t_tools(void **state)
{
	static const struct {
		const char	*tool;
		const char	*suf;
		const char	*filter;
	} c[] = {
		{ "gzip", ".gz", "gzip" }, { "xz", ".xz", "xz" },
		{ "zstd", ".zst", "zstd" }, { "bzip2", ".bz2", "bzip2" },
		{ "lz4", ".lz4", "lz4" }, { "lzma", ".lzma", "lzma" },
	};
	struct rec r = { 0 };
	char t[256], p[256], name[64], copy[256];
	char *argv[5];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (find_tool(c[i].tool, t, sizeof(t)) == NULL)
			continue;
		snprintf(name, sizeof(name), "kern.log%s", c[i].suf);
		tpath(p, sizeof(p), name);
		argv[0] = t;
		argv[1] = (char *)"-c";
		argv[2] = NULL;
		if (strcmp(c[i].tool, "zstd") == 0 ||
		    strcmp(c[i].tool, "lz4") == 0) {
			argv[2] = (char *)"-q";
			argv[3] = NULL;
		}
		assert_int_equal(tool(argv, LOG1, p, NULL), 0);
		assert_int_equal(run_file(p, name, NULL, &r), 0);
		assert_int_equal(r.n, 1);
		is_unit(&r.u[0], name, "{kern.log}", c[i].filter, oops,
		    oopslen);
		rec_free(&r);
		assert_int_equal(run_pipe(p, "-", NULL, &r, 1000), 0);
		is_unit(&r.u[0], "-", "{-}", c[i].filter, oops, oopslen);
		rec_free(&r);
	}
	/* gzip FILE keeps FILE's name in the header. */
	if (find_tool("gzip", t, sizeof(t)) == NULL)
		return;
	tpath(copy, sizeof(copy), "orig.dmesg");
	spew(copy, oops, oopslen);
	argv[0] = t;
	argv[1] = (char *)"-c";
	argv[2] = copy;
	argv[3] = NULL;
	tpath(p, sizeof(p), "renamed.gz");
	assert_int_equal(tool(argv, NULL, p, NULL), 0);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 65536), 0);
	is_unit(&r.u[0], "-", "{orig.dmesg}", "gzip", oops, oopslen);
	rec_free(&r);
}

/* Every archive format: the regular members, nothing else, in order. */
static void
t_archives(void **state)
{
	static const struct {
		setfmt		 format;
		const char	*file;
		int		 dirs;		/* has directories */
		int		 links;		/* tells links from files */
		int		 pipe;		/* readable from a pipe */
	} f[] = {
		{ archive_write_set_format_ustar, "t.tar", 1, 1, 1 },
		{ archive_write_set_format_pax_restricted, "t-pax.tar", 1, 1,
		    1 },
		{ archive_write_set_format_gnutar, "t-gnu.tar", 1, 1, 1 },
		{ archive_write_set_format_v7tar, "t-v7.tar", 1, 1, 1 },
		{ archive_write_set_format_cpio_newc, "t.cpio", 1, 1, 1 },
		{ archive_write_set_format_cpio, "t-odc.cpio", 1, 1, 1 },
		/* A link's mode is in the central directory: not streamed. */
		{ archive_write_set_format_zip, "t.zip", 1, 0, 1 },
		{ archive_write_set_format_7zip, "t.7z", 1, 1, 0 },
		{ archive_write_set_format_ar_svr4, "t.a", 0, 0, 1 },
		{ archive_write_set_format_iso9660, "t.iso", 1, 1, 1 },
	};
	struct ent e[5];
	struct rec r = { 0 };
	char p[256];
	size_t i, n;
	int piped;

	(void)state;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		n = 0;
		if (f[i].dirs) {
			e[n++] = (struct ent){ "var", NULL, 0, AE_IFDIR };
			e[n++] = (struct ent){ "var/log", NULL, 0, AE_IFDIR };
			e[n++] = (struct ent){ "var/log/kern.log", oops,
			    oopslen, 0 };
			if (f[i].links)
				e[n++] = (struct ent){ "var/log/link", NULL,
				    0, AE_IFLNK };
			e[n++] = (struct ent){ "var/log/messages", rg353,
			    rg353len, 0 };
		} else {
			e[n++] = (struct ent){ "kern.log", oops, oopslen, 0 };
			e[n++] = (struct ent){ "messages", rg353, rg353len, 0 };
		}
		tpath(p, sizeof(p), f[i].file);
		w_archive(p, f[i].format, ARCHIVE_FILTER_NONE, e, n);
		for (piped = 0; piped <= 1; piped++) {
			if (piped)
				assert_int_equal(run_pipe(p, f[i].file, NULL,
				    &r, 8192), 0);
			else
				assert_int_equal(run_file(p, f[i].file, NULL,
				    &r), 0);
			if (piped && !f[i].pipe) {
				/* 7z cannot be read without seeking. */
				assert_int_equal(r.n, 1);
				assert_string_equal(r.u[0].chain, "");
				assert_int_equal(r.u[0].ecode, KL_EFORMAT);
				assert_string_equal(r.u[0].emsg, "t.7z: 7z: "
				    "needs seeking, cannot be read from a pipe"
				    " or inside another archive");
				rec_free(&r);
				continue;
			}
			assert_int_equal(r.n, 2);
			is_unit(&r.u[0], f[i].file, f[i].dirs ?
			    "{var/log/kern.log}" : "{kern.log}", "", oops,
			    oopslen);
			is_unit(&r.u[1], f[i].file, f[i].dirs ?
			    "{var/log/messages}" : "{messages}", "", rg353,
			    rg353len);
			rec_free(&r);
		}
	}
}

/* A .gz inside a .tar.xz: the common case of a log bundle. */
static void
t_gz_in_tar_xz(void **state)
{
	struct ent e[3];
	struct rec r = { 0 };
	uint8_t *gz;
	size_t gzlen;
	char p[256];
	int piped;

	(void)state;
	gz = m_filter(ARCHIVE_FILTER_GZIP, oops, oopslen, &gzlen);
	e[0] = (struct ent){ "var/log/kern.log.1.gz", gz, gzlen, 0 };
	e[1] = (struct ent){ "var/log/messages", rg353, rg353len, 0 };
	e[2] = (struct ent){ "var/log/kern.log", oops, oopslen, 0 };
	tpath(p, sizeof(p), "bundle.tar.xz");
	w_archive(p, archive_write_set_format_pax_restricted, ARCHIVE_FILTER_XZ, e,
	    3);
	for (piped = 0; piped <= 1; piped++) {
		if (piped)
			assert_int_equal(run_pipe(p, "bundle.tar.xz", NULL, &r,
			    512), 0);
		else
			assert_int_equal(run_file(p, "bundle.tar.xz", NULL,
			    &r), 0);
		assert_int_equal(r.n, 3);
		is_unit(&r.u[0], "bundle.tar.xz",
		    "{var/log/kern.log.1.gz}{kern.log.1}", "gzip", oops,
		    oopslen);
		assert_int_equal(r.u[0].nmembers, 2);
		is_unit(&r.u[1], "bundle.tar.xz", "{var/log/messages}", "xz",
		    rg353, rg353len);
		is_unit(&r.u[2], "bundle.tar.xz", "{var/log/kern.log}", "xz",
		    oops, oopslen);
		rec_free(&r);
	}
	free(gz);
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

/* Four levels deep, on a file and on a pipe. */
static void
t_nest(void **state)
{
	struct rec r = { 0 };
	char p[256];
	int piped;

	(void)state;
	mk_nest(tpath(p, sizeof(p), "top.tar"));
	for (piped = 0; piped <= 1; piped++) {
		if (piped)
			assert_int_equal(run_pipe(p, "top.tar", NULL, &r, 777),
			    0);
		else
			assert_int_equal(run_file(p, "top.tar", NULL, &r), 0);
		assert_int_equal(r.n, 3);
		is_unit(&r.u[0], "top.tar",
		    "{l1.zip}{l2.tar.gz}{kern.log.gz}{kern.log}", "gzip", oops,
		    oopslen);
		is_unit(&r.u[1], "top.tar", "{l1.zip}{l2.tar.gz}{after.log}",
		    "gzip", rg353, rg353len);
		is_unit(&r.u[2], "top.tar", "{last.log}", "", rg353, rg353len);
		rec_free(&r);
	}
}

/* Past max_depth: an error for that member, the next one follows. */
static void
t_depth(void **state)
{
	struct kl_limits lim = { 0 };
	struct rec r = { 0 };
	char p[256];

	(void)state;
	mk_nest(tpath(p, sizeof(p), "top.tar"));
	lim.max_depth = 3;
	assert_int_equal(run_file(p, "top.tar", &lim, &r), 0);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.u[0].chain, "{l1.zip}{l2.tar.gz}{kern.log.gz}");
	assert_int_equal(r.u[0].total, 0);
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_string_equal(r.u[0].emsg,
	    "nesting limit reached: more than 3 levels (max_depth)");
	is_unit(&r.u[1], "top.tar", "{l1.zip}{l2.tar.gz}{after.log}", "gzip",
	    rg353, rg353len);
	is_unit(&r.u[2], "top.tar", "{last.log}", "", rg353, rg353len);
	rec_free(&r);

	lim.max_depth = 1;
	assert_int_equal(run_file(p, "top.tar", &lim, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.u[0].chain, "{l1.zip}");
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_string_equal(r.u[0].emsg,
	    "nesting limit reached: more than 1 levels (max_depth)");
	is_unit(&r.u[1], "top.tar", "{last.log}", "", rg353, rg353len);
	rec_free(&r);
}

/*
 * A stream of 10 GiB: 10240 gzip members of 1 MiB of pattern, gzipped
 * twice more (under 2 KB when the pattern repeats).  *outn its size.
 */
static uint8_t *
mk_bomb(const uint8_t *pat, size_t patlen, size_t *outn)
{
	uint8_t *mib, *g1, *cat, *g2, *g3;
	size_t i, g1n, g2n, g3n;

	mib = malloc(1 << 20);
	assert_non_null(mib);
	for (i = 0; i < (1u << 20); i++)
		mib[i] = pat[i % patlen];
	g1 = m_filter(ARCHIVE_FILTER_GZIP, mib, 1 << 20, &g1n);
	cat = malloc(g1n * 10240);
	assert_non_null(cat);
	for (i = 0; i < 10240; i++)
		memcpy(cat + i * g1n, g1, g1n);
	g2 = m_filter(ARCHIVE_FILTER_GZIP, cat, g1n * 10240, &g2n);
	g3 = m_filter(ARCHIVE_FILTER_GZIP, g2, g2n, &g3n);
	free(mib);
	free(g1);
	free(cat);
	free(g2);
	*outn = g3n;
	return (g3);
}

/* Seconds since t0. */
static double
since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return ((double)(t1.tv_sec - t0->tv_sec) +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e9);
}

/* 1 KB that expands to 10 GiB stops fast at the ratio limit. */
static void
t_bomb(void **state)
{
	static const uint8_t line[] = "[    0.000000] bomb\n";
	static const uint8_t zero[1] = { 0 };
	struct timespec t0;
	struct rec r = { 0 };
	char p[256], want[256];
	uint8_t *b;
	size_t n;
	int z;

	(void)state;
	for (z = 0; z <= 1; z++) {
		b = z ? mk_bomb(zero, 1, &n) : mk_bomb(line, sizeof(line) - 1,
		    &n);
		assert_true(n < 2048);
		tpath(p, sizeof(p), "bomb.gz");
		spew(p, b, n);
		free(b);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(run_file(p, "bomb.gz", NULL, &r), 0);
		assert_true(since(&t0) < 10.0);
		assert_int_equal(r.n, 1);
		assert_string_equal(r.u[0].chain, "{bomb}");
		assert_int_equal(r.u[0].kind, KL_UNIT_TEXT);
		/* The 64 MiB floor: 4000 x 1 KB is less. */
		assert_int_equal(r.u[0].total, UINT64_C(64) << 20);
		assert_int_equal(r.u[0].ecode, KL_ELIMIT);
		snprintf(want, sizeof(want), "ratio limit reached: %llu bytes "
		    "expanded from %zu (max_ratio 4000 to 1)",
		    (unsigned long long)(UINT64_C(64) << 20), n);
		assert_string_equal(r.u[0].emsg, want);
		rec_free(&r);

		/* On a pipe: against the bytes read so far. */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(run_pipe(p, "-", NULL, &r, 100), 0);
		assert_true(since(&t0) < 10.0);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.u[0].total, UINT64_C(64) << 20);
		assert_int_equal(r.u[0].ecode, KL_ELIMIT);
		rec_free(&r);
	}
}

/*
 * A tar.gz of sixteen gzip members of 1 GiB of zeros each: stopped in
 * seconds, the whole input with it.
 */
static void
t_bomb16(void **state)
{
	static const uint8_t zeros[1 << 16];
	struct timespec t0;
	struct ent e[16];
	struct rec r = { 0 };
	uint8_t *g1, *gig, *mib;
	size_t g1n, i;
	char names[16][16], p[256];

	(void)state;
	mib = calloc(1, 1 << 20);
	assert_non_null(mib);
	g1 = m_filter(ARCHIVE_FILTER_GZIP, mib, 1 << 20, &g1n);
	free(mib);
	gig = malloc(g1n * 1024);
	assert_non_null(gig);
	for (i = 0; i < 1024; i++)
		memcpy(gig + i * g1n, g1, g1n);
	for (i = 0; i < 16; i++) {
		snprintf(names[i], sizeof(names[i]), "z%zu.gz", i);
		e[i] = (struct ent){ names[i], gig, g1n * 1024, 0 };
	}
	tpath(p, sizeof(p), "b16.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, e, 16);
	free(gig);
	free(g1);
	(void)zeros;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_file(p, "b16.tar.gz", NULL, &r), 0);
	assert_true(since(&t0) < 10.0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "{z0.gz}{z0}");
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_true(strncmp(r.u[0].emsg, "ratio limit reached: ", 21) == 0);
	assert_true(r.u[0].total <= UINT64_C(4000) * 100000);
	rec_free(&r);
}

/* max_member cuts a member exactly; the next member follows. */
static void
t_member_limit(void **state)
{
	struct kl_limits lim = { 0 };
	struct ent e[2];
	struct rec r = { 0 };
	char p[256];
	size_t i;

	(void)state;
	e[0] = (struct ent){ "kern.log", oops, oopslen, 0 };
	e[1] = (struct ent){ "messages", rg353, rg353len, 0 };
	tpath(p, sizeof(p), "two.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, e, 2);
	lim.max_member = 30000;
	assert_int_equal(run_file(p, "two.tar.gz", &lim, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.u[0].total, 30000);
	assert_memory_equal(r.u[0].data, oops, 30000);
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_string_equal(r.u[0].emsg, "member size limit reached: more "
	    "than 30000 bytes (max_member)");
	is_unit(&r.u[1], "two.tar.gz", "{messages}", "gzip", rg353, rg353len);
	rec_free(&r);

	/* A plain input is no member: not cut. */
	lim.max_member = 10;
	assert_int_equal(run_file(LOG1, "x", &lim, &r), 0);
	is_unit(&r.u[0], "x", "", "", oops, oopslen);
	rec_free(&r);

	/* Every member cut. */
	assert_int_equal(run_pipe(p, "-", &lim, &r, 3000), 0);
	assert_int_equal(r.n, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(r.u[i].total, 10);
		assert_int_equal(r.u[i].ecode, KL_ELIMIT);
	}
	rec_free(&r);
}

/* Run on a tar of n members of 10 bytes, with max_total total. */
static void
run_tiny(size_t n, struct kl_limits *lim, uint64_t total, struct rec *r)
{
	struct ent *e;
	char p[256], (*names)[16];
	size_t i;

	e = calloc(n, sizeof(*e));
	names = calloc(n, sizeof(*names));
	assert_true(e != NULL && names != NULL);
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%zu", i);
		e[i] = (struct ent){ names[i], oops, 10, 0 };
	}
	tpath(p, sizeof(p), "tiny.tar");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_NONE, e,
	    n);
	lim->max_total = total;
	assert_int_equal(run_file(p, "tiny.tar", lim, r), 0);
	free(e);
	free(names);
}

/* max_total stops the whole input, exactly where it says. */
static void
t_total_limit(void **state)
{
	struct kl_limits lim = { 0 };
	struct ent e[3];
	struct rec r = { 0 };
	char p[256];

	(void)state;
	tpath(p, sizeof(p), "kern.log.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, oops, oopslen);
	lim.max_total = 50000;
	assert_int_equal(run_file(p, "kern.log.gz", &lim, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, 50000);
	assert_memory_equal(r.u[0].data, oops, 50000);
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	assert_string_equal(r.u[0].emsg, "total size limit reached: 50000 "
	    "bytes expanded (max_total 50000)");
	rec_free(&r);

	/* A plain input counts too. */
	assert_int_equal(run_file(LOG1, "p", &lim, &r), 0);
	assert_int_equal(r.u[0].total, 50000);
	assert_int_equal(r.u[0].ecode, KL_ELIMIT);
	rec_free(&r);

	/* In an archive, headers count; the third member never comes. */
	e[0] = (struct ent){ "a", oops, oopslen, 0 };
	e[1] = (struct ent){ "b", oops, oopslen, 0 };
	e[2] = (struct ent){ "c", rg353, rg353len, 0 };
	tpath(p, sizeof(p), "three.tar");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_NONE, e, 3);
	lim.max_total = 150000;
	assert_int_equal(run_file(p, "three.tar", &lim, &r), 0);
	assert_int_equal(r.n, 2);
	is_unit(&r.u[0], "three.tar", "{a}", "", oops, oopslen);
	assert_int_equal(r.u[1].ecode, KL_ELIMIT);
	assert_true(r.u[1].total > 0 && r.u[1].total <= 150000 - oopslen);
	assert_memory_equal(r.u[1].data, oops, r.u[1].len);
	assert_true(r.bytes <= 150000);
	rec_free(&r);

	/* Headers and padding count: 1000 members of 10 bytes take 1 MB. */
	run_tiny(1000, &lim, 100000, &r);
	assert_true(r.n < 200);
	assert_true(r.bytes < 2000);
	assert_int_equal(r.last_ecode, KL_ELIMIT);
	assert_true(strncmp(r.last_emsg, "total size limit reached: ", 26) ==
	    0);
	rec_free(&r);
}

/* A truncated xz: the bytes read, then the offset it broke at. */
static void
t_truncated_xz(void **state)
{
	struct rec r = { 0 };
	uint8_t *big, *xz;
	size_t i, n, xzn;
	char p[256], want[256];

	(void)state;
	/* Less repetitive than the log repeated: numbered copies. */
	n = 0;
	big = malloc(8 * (oopslen + 16));
	assert_non_null(big);
	for (i = 0; i < 8; i++) {
		n += (size_t)sprintf((char *)big + n, "copy %zu\n", i);
		memcpy(big + n, oops, oopslen);
		n += oopslen;
	}
	xz = m_filter(ARCHIVE_FILTER_XZ, big, n, &xzn);
	tpath(p, sizeof(p), "kern.log.xz");
	spew(p, xz, xzn * 3 / 4);
	assert_int_equal(run_file(p, "kern.log.xz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "{kern.log}");
	assert_true(r.u[0].total > 0 && r.u[0].total < n);
	assert_memory_equal(r.u[0].data, big, r.u[0].len);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(want, sizeof(want), "kern.log: broken at byte %llu: xz: "
	    "lzma library error: no progress is possible",
	    (unsigned long long)r.u[0].total);
	assert_string_equal(r.u[0].emsg, want);
	rec_free(&r);
	free(big);
	free(xz);
}

/* A bad gzip CRC: every byte, then the error at the end. */
static void
t_gzip_crc(void **state)
{
	struct rec r = { 0 };
	uint8_t *gz, *cat;
	size_t n;
	uint32_t good;
	char p[256], want[256];

	(void)state;
	gz = m_filter(ARCHIVE_FILTER_GZIP, oops, oopslen, &n);
	good = (uint32_t)gz[n - 8] | (uint32_t)gz[n - 7] << 8 |
	    (uint32_t)gz[n - 6] << 16 | (uint32_t)gz[n - 5] << 24;
	gz[n - 7] ^= 0x40;
	tpath(p, sizeof(p), "bad.gz");
	spew(p, gz, n);
	assert_int_equal(run_file(p, "bad.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, oopslen);
	assert_memory_equal(r.u[0].data, oops, oopslen);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(want, sizeof(want), "bad: broken at byte %zu: gzip: crc "
	    "mismatch (stored %08x, computed %08x)", oopslen,
	    (unsigned)(good ^ 0x4000), (unsigned)good);
	assert_string_equal(r.u[0].emsg, want);
	rec_free(&r);

	/* In a tar.gz, the damage is the container's. */
	gz[n - 7] ^= 0x40;
	spew(p, gz, n);
	free(gz);

	/* Two members: no false alarm. */
	gz = slurp(p, &n);
	cat = malloc(2 * n + 5);
	assert_non_null(cat);
	memcpy(cat, gz, n);
	memcpy(cat + n, gz, n);
	memcpy(cat + 2 * n, "junk\n", 5);
	tpath(p, sizeof(p), "two.gz");
	spew(p, cat, 2 * n);
	assert_int_equal(run_file(p, "two.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, 2 * oopslen);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	rec_free(&r);
	/* Garbage after them: the data, then the damage. */
	spew(p, cat, 2 * n + 5);
	assert_int_equal(run_file(p, "two.gz", NULL, &r), 0);
	assert_int_equal(r.u[0].total, 2 * oopslen);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	rec_free(&r);
	free(cat);
	free(gz);
}

/* CRC-32 of b[0..n), bit by bit. */
static uint32_t
crc32_of(const uint8_t *b, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= b[i];
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return (~c);
}

/* Append a little-endian value of k bytes. */
static size_t
put_le(uint8_t *p, uint32_t v, int k)
{
	int i;

	for (i = 0; i < k; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return ((size_t)k);
}

/* A stored zip member with the given CRC in its local header. */
static size_t
zip_member(uint8_t *p, const char *name, const uint8_t *d, size_t n,
    uint32_t crc)
{
	size_t o, nl;

	nl = strlen(name);
	o = 0;
	memcpy(p, "PK\003\004", 4);
	o += 4;
	o += put_le(p + o, 20, 2);
	o += put_le(p + o, 0, 2);		/* flags */
	o += put_le(p + o, 0, 2);		/* stored */
	o += put_le(p + o, 0, 4);		/* time, date */
	o += put_le(p + o, crc, 4);
	o += put_le(p + o, (uint32_t)n, 4);
	o += put_le(p + o, (uint32_t)n, 4);
	o += put_le(p + o, (uint32_t)nl, 2);
	o += put_le(p + o, 0, 2);
	memcpy(p + o, name, nl);
	o += nl;
	memcpy(p + o, d, n);
	return (o + n);
}

/*
 * A zip member whose CRC is wrong: all its bytes, then the error; the
 * next member follows.  A gzip damaged in the middle: an error, never
 * silence.
 */
static void
t_damage(void **state)
{
	struct rec r = { 0 };
	uint8_t *b, *gz;
	size_t n, gzn, i;
	char p[256];
	int bad;

	(void)state;
	b = malloc(2 * oopslen + 4096);
	assert_non_null(b);
	n = zip_member(b, "a.log", oops, oopslen, crc32_of(oops, oopslen) ^ 1);
	n += zip_member(b + n, "b.log", rg353, rg353len,
	    crc32_of(rg353, rg353len));
	memcpy(b + n, "PK\005\006", 4);
	memset(b + n + 4, 0, 18);
	n += 22;
	tpath(p, sizeof(p), "crc.zip");
	spew(p, b, n);
	assert_int_equal(run_pipe(p, "crc.zip", NULL, &r, 4096), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.u[0].total, oopslen);
	assert_memory_equal(r.u[0].data, oops, oopslen);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	assert_true(strncmp(r.u[0].emsg, "a.log: broken at byte 111030: zip: "
	    "ZIP bad CRC", 46) == 0);
	is_unit(&r.u[1], "crc.zip", "{b.log}", "", rg353, rg353len);
	rec_free(&r);
	free(b);

	/* Flip a byte at a few places in a gzip: always an error. */
	gz = m_filter(ARCHIVE_FILTER_GZIP, oops, oopslen, &gzn);
	tpath(p, sizeof(p), "flip.gz");
	for (i = 1; i < 8; i++) {
		gz[gzn * i / 8] ^= 0x10;
		spew(p, gz, gzn);
		gz[gzn * i / 8] ^= 0x10;
		assert_int_equal(run_file(p, "flip.gz", NULL, &r), 0);
		assert_int_equal(r.n, 1);
		bad = r.u[0].ecode == KL_EFORMAT;
		assert_true(bad);
		assert_true(strncmp(r.u[0].emsg, "flip: broken at byte ", 21) ==
		    0);
		rec_free(&r);
	}
	/* Cut inside the trailer. */
	spew(p, gz, gzn - 3);
	assert_int_equal(run_file(p, "flip.gz", NULL, &r), 0);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	rec_free(&r);
	/* Zeros after the stream are padding, not damage. */
	b = calloc(1, gzn + 10240);
	assert_non_null(b);
	memcpy(b, gz, gzn);
	spew(p, b, gzn + 10240);
	assert_int_equal(run_pipe(p, "flip.gz", NULL, &r, 1000), 0);
	is_unit(&r.u[0], "flip.gz", "{flip}", "gzip", oops, oopslen);
	rec_free(&r);
	/* Other bytes after it are. */
	memcpy(b + gzn + 5000, "junk", 4);
	spew(p, b, gzn + 10240);
	assert_int_equal(run_pipe(p, "flip.gz", NULL, &r, 1000), 0);
	assert_int_equal(r.u[0].total, oopslen);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	assert_string_equal(r.u[0].emsg, "flip: broken at byte 111030: gzip: "
	    "data after the end of the compressed stream");
	rec_free(&r);
	free(b);
	free(gz);
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

/*
 * Multi-member gzip, as gzip -dc reads it: every member, in order, by
 * ISA-L and by zlib alike, from a file and from a pipe in small pieces.
 */
static void
t_gzip_members(void **state)
{
	struct rec r = { 0 }, q = { 0 };
	uint8_t *g1, *g2, *cat, *want;
	size_t n1, n2, n, wn;
	char p[256];

	(void)state;
	g1 = m_filter(ARCHIVE_FILTER_GZIP, oops, oopslen, &n1);
	g2 = m_filter(ARCHIVE_FILTER_GZIP, rg353, rg353len, &n2);
	n = 2 * n1 + n2;
	cat = malloc(n);
	want = malloc(2 * oopslen + rg353len);
	assert_non_null(cat);
	assert_non_null(want);
	memcpy(cat, g1, n1);
	memcpy(cat + n1, g2, n2);
	memcpy(cat + n1 + n2, g1, n1);
	wn = 0;
	memcpy(want, oops, oopslen);
	wn += oopslen;
	memcpy(want + wn, rg353, rg353len);
	wn += rg353len;
	memcpy(want + wn, oops, oopslen);
	wn += oopslen;
	tpath(p, sizeof(p), "three.log.gz");
	spew(p, cat, n);
	run_3ways(p, "three.log.gz", &r);
	assert_int_equal(r.n, 1);
	/* libarchive's writer leaves the name out: the file's name, cut. */
	is_unit(&r.u[0], "three.log.gz", "{three.log}", "gzip", want, wn);
	assert_int_equal(run_pipe(p, "three.log.gz", NULL, &q, 333), 0);
	same_recs(&q, &r);
	rec_free(&q);
	assert_int_equal(run_pipe(p, "three.log.gz", NULL, &q, 1), 0);
	same_recs(&q, &r);
	rec_free(&q);
	rec_free(&r);

	/* A bad CRC in the middle member: ISA-L checks every member. */
	if (strcmp(kl_input_inflater(), "ISA-L") == 0) {
		cat[n1 + n2 - 7] ^= 0x01;
		spew(p, cat, n);
		assert_int_equal(run_file(p, "three.log.gz", NULL, &r), 0);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.u[0].total, oopslen + rg353len);
		assert_memory_equal(r.u[0].data, want, oopslen + rg353len);
		assert_int_equal(r.u[0].ecode, KL_EFORMAT);
		assert_true(strncmp(r.u[0].emsg, "three.log: broken at byte ",
		    26) == 0);
		assert_non_null(strstr(r.u[0].emsg, ": gzip: crc mismatch ("));
		rec_free(&r);
		cat[n1 + n2 - 7] ^= 0x01;
	}
	free(want);
	free(cat);
	free(g1);
	free(g2);
}

/*
 * A gzip cut short, from a file and on stdin: the bytes inflated
 * before the cut, the same "truncated gzip input" as ever; ISA-L hands
 * out every byte it could inflate, zlib may drop up to 64 KiB.
 */
static void
t_gzip_cut(void **state)
{
	struct rec r = { 0 };
	uint8_t *gz, *big;
	size_t n, bign, i;
	char p[256], want[256];

	(void)state;
	bign = 8 * oopslen;
	big = malloc(bign);
	assert_non_null(big);
	for (i = 0; i < 8; i++)
		memcpy(big + i * oopslen, oops, oopslen);
	gz = m_filter(ARCHIVE_FILTER_GZIP, big, bign, &n);
	tpath(p, sizeof(p), "cut.gz");
	spew(p, gz, n / 2);
	assert_int_equal(run_file(p, "cut.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_true(r.u[0].total < bign);
	assert_memory_equal(r.u[0].data, big, r.u[0].len);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	snprintf(want, sizeof(want), "cut: broken at byte %llu: gzip: "
	    "truncated gzip input", (unsigned long long)r.u[0].total);
	assert_string_equal(r.u[0].emsg, want);
	if (strcmp(kl_input_inflater(), "ISA-L") == 0)
		assert_true(r.u[0].total > bign / 4);
	rec_free(&r);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 4096), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "{-}");
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	assert_non_null(strstr(r.u[0].emsg, ": gzip: truncated gzip input"));
	rec_free(&r);
	free(gz);
	free(big);
}

/*
 * A tar.gz of many members, and a .tar.xz of .gz files: the same units
 * with and without ISA-L and the pipeline; stopping at any data call
 * of the pipeline ends that unit once and nothing follows.
 */
static void
t_pipeline(void **state)
{
	struct ent e[40];
	struct rec r = { 0 };
	char names[40][32], p[256];
	uint8_t *gz;
	size_t i, gzn, k, calls;

	(void)state;
	gz = m_filter(ARCHIVE_FILTER_GZIP, rg353, rg353len, &gzn);
	for (i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "d/%zu.log%s", i,
		    i % 4 == 3 ? ".gz" : "");
		e[i] = (struct ent){ names[i], i % 2 ? oops : rg353,
			i % 2 ? oopslen : rg353len, 0 };
		if (i % 4 == 3)
			e[i] = (struct ent){ names[i], gz, gzn, 0 };
	}
	tpath(p, sizeof(p), "many.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, e,
	    40);
	run_3ways(p, "many.tar.gz", &r);
	assert_int_equal(r.n, 40);
	is_unit(&r.u[0], "many.tar.gz", "{d/0.log}", "gzip", rg353,
	    rg353len);
	is_unit(&r.u[1], "many.tar.gz", "{d/1.log}", "gzip", oops, oopslen);
	is_unit(&r.u[3], "many.tar.gz", "{d/3.log.gz}{3.log}", "gzip", rg353,
	    rg353len);
	is_unit(&r.u[39], "many.tar.gz", "{d/39.log.gz}{39.log}", "gzip",
	    rg353, rg353len);
	rec_free(&r);
	tpath(p, sizeof(p), "many.tar.xz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_XZ, e, 40);
	run_3ways(p, "many.tar.xz", &r);
	assert_int_equal(r.n, 40);
	is_unit(&r.u[7], "many.tar.xz", "{d/7.log.gz}{7.log}", "gzip", rg353,
	    rg353len);
	calls = r.ndata;
	assert_true(calls >= 40);
	rec_free(&r);
	/* Stop at the k-th data call: 1 back, that unit ended once. */
	for (k = 1; k <= calls; k += k < 3 ? 1 : calls / 5) {
		r.stop_data = k;
		assert_int_equal(run_file(p, "many.tar.xz", NULL, &r), 1);
		assert_int_equal(r.ndata, k);
		assert_int_equal(r.nended, r.n);
		assert_int_equal(r.u[r.n - 1].ecode, KL_EOK);
		rec_free(&r);
	}
	free(gz);
}

/* A bad CRC after the last member of a tar.gz: a container error. */
static void
t_targz_crc(void **state)
{
	struct ent e = { "kern.log", NULL, 0, 0 };
	struct rec r = { 0 };
	uint8_t *b;
	size_t n;
	char p[256];

	(void)state;
	e.data = oops;
	e.len = oopslen;
	tpath(p, sizeof(p), "one.tar.gz");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_GZIP, &e, 1);
	b = slurp(p, &n);
	b[n - 8] ^= 1;
	spew(p, b, n);
	free(b);
	assert_int_equal(run_file(p, "one.tar.gz", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	is_unit(&r.u[0], "one.tar.gz", "{kern.log}", "gzip", oops, oopslen);
	assert_string_equal(r.u[1].chain, "");
	assert_int_equal(r.u[1].total, 0);
	assert_int_equal(r.u[1].ecode, KL_EFORMAT);
	assert_true(strstr(r.u[1].emsg, "one.tar.gz: broken at byte ") ==
	    r.u[1].emsg);
	assert_non_null(strstr(r.u[1].emsg, ": gzip: crc mismatch"));
	rec_free(&r);
}

/* A tar cut short: the member's bytes, the offset; cut at a header. */
static void
t_tar_cut(void **state)
{
	struct ent e[2];
	struct rec r = { 0 };
	uint8_t *b;
	size_t n, cut;
	char p[256], q[256];

	(void)state;
	e[0] = (struct ent){ "kern.log", oops, oopslen, 0 };
	e[1] = (struct ent){ "messages", rg353, rg353len, 0 };
	tpath(p, sizeof(p), "whole.tar");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_NONE, e, 2);
	b = slurp(p, &n);
	tpath(q, sizeof(q), "cut.tar");
	spew(q, b, 512 + 70000);
	assert_int_equal(run_file(q, "cut.tar", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].total, 70000);
	assert_memory_equal(r.u[0].data, oops, 70000);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	assert_string_equal(r.u[0].emsg, "kern.log: broken at byte 70000: "
	    "tar: truncated tar archive");
	rec_free(&r);

	/* Cut inside the second header: the archive's own error. */
	cut = 512 + (oopslen + 511) / 512 * 512 + 100;
	spew(q, b, cut);
	assert_int_equal(run_pipe(q, "cut.tar", NULL, &r, 1000), 0);
	assert_int_equal(r.n, 2);
	is_unit(&r.u[0], "cut.tar", "{kern.log}", "", oops, oopslen);
	assert_string_equal(r.u[1].chain, "");
	assert_int_equal(r.u[1].ecode, KL_EFORMAT);
	assert_true(strncmp(r.u[1].emsg, "cut.tar: broken at byte ", 24) ==
	    0);
	rec_free(&r);
	free(b);
}

/* A zip member name with a newline, a brace and an escape sequence. */
static void
t_zip_names(void **state)
{
	static const char nm[] = "we{ird\n\x1b[31mname}.log";
	struct ent e[2];
	struct rec r = { 0 };
	char p[256], t[256], want[128];
	char *argv[6];

	(void)state;
	e[0] = (struct ent){ nm, oops, oopslen, 0 };
	e[1] = (struct ent){ "dir/\xc3\xa9t\xc3\xa9.log", rg353, rg353len, 0 };
	tpath(p, sizeof(p), "names.zip");
	w_archive(p, archive_write_set_format_zip, ARCHIVE_FILTER_NONE, e, 2);
	assert_int_equal(run_pipe(p, "names.zip", NULL, &r, 4096), 0);
	assert_int_equal(r.n, 2);
	snprintf(want, sizeof(want), "{%s}", nm);
	is_unit(&r.u[0], "names.zip", want, "", oops, oopslen);
	is_unit(&r.u[1], "names.zip", "{dir/\xc3\xa9t\xc3\xa9.log}", "", rg353,
	    rg353len);
	rec_free(&r);

	/* The same with the real zip, from a file of that name. */
	if (find_tool("zip", t, sizeof(t)) == NULL)
		return;
	spew(tpath(p, sizeof(p), nm), oops, oopslen);
	argv[0] = t;
	argv[1] = (char *)"-q";
	argv[2] = (char *)"real.zip";
	argv[3] = (char *)nm;
	argv[4] = NULL;
	assert_int_equal(tool(argv, NULL, NULL, tmp), 0);
	assert_int_equal(run_file(tpath(p, sizeof(p), "real.zip"), "real.zip",
	    NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "real.zip", want, "", oops, oopslen);
	rec_free(&r);
}

/* An encrypted zip member: an error for it, the next one follows. */
static void
t_encrypted(void **state)
{
	struct archive_entry *ae;
	struct archive *a;
	struct rec r = { 0 };
	char p[256], t[256];
	char *argv[7];
	int i;

	(void)state;
	tpath(p, sizeof(p), "enc.zip");
	a = archive_write_new();
	assert_int_equal(archive_write_set_format_zip(a), ARCHIVE_OK);
	assert_int_equal(archive_write_set_options(a,
	    "zip:encryption=zipcrypt"), ARCHIVE_OK);
	assert_int_equal(archive_write_set_passphrase(a, "secret"),
	    ARCHIVE_OK);
	assert_int_equal(archive_write_open_filename(a, p), ARCHIVE_OK);
	for (i = 0; i < 2; i++) {
		ae = archive_entry_new();
		archive_entry_set_pathname(ae, i == 0 ? "secret.log" :
		    "more.log");
		archive_entry_set_filetype(ae, AE_IFREG);
		archive_entry_set_perm(ae, 0644);
		archive_entry_set_size(ae, (la_int64_t)rg353len);
		assert_true(archive_write_header(a, ae) >= ARCHIVE_WARN);
		archive_write_data(a, rg353, rg353len);
		archive_entry_free(ae);
	}
	archive_write_close(a);
	archive_write_free(a);
	assert_int_equal(run_file(p, "enc.zip", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.u[0].chain, "{secret.log}");
	assert_int_equal(r.u[0].total, 0);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	assert_string_equal(r.u[0].emsg,
	    "secret.log: zip: encrypted, no passphrase: not read");
	/*
	 * libarchive's writer streams the entry (a data descriptor): a
	 * streaming reader cannot find its end without the passphrase,
	 * so the archive stops there, and says so.
	 */
	assert_string_equal(r.u[1].chain, "");
	assert_int_equal(r.u[1].ecode, KL_EFORMAT);
	assert_non_null(strstr(r.u[1].emsg, "zip: passphrase required"));
	rec_free(&r);

	/* zip -P stores the sizes: every member gets its error. */
	if (find_tool("zip", t, sizeof(t)) == NULL)
		return;
	spew(tpath(p, sizeof(p), "a.log"), rg353, rg353len);
	spew(tpath(p, sizeof(p), "b.log"), oops, oopslen);
	argv[0] = t;
	argv[1] = (char *)"-q";
	argv[2] = (char *)"-Psecret";
	argv[3] = (char *)"enc2.zip";
	argv[4] = (char *)"a.log";
	argv[5] = (char *)"b.log";
	argv[6] = NULL;
	assert_int_equal(tool(argv, NULL, NULL, tmp), 0);
	assert_int_equal(run_file(tpath(p, sizeof(p), "enc2.zip"), "enc2.zip",
	    NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.u[0].chain, "{a.log}");
	assert_string_equal(r.u[0].emsg,
	    "a.log: zip: encrypted, no passphrase: not read");
	assert_string_equal(r.u[1].chain, "{b.log}");
	assert_string_equal(r.u[1].emsg,
	    "b.log: zip: encrypted, no passphrase: not read");
	rec_free(&r);
}

/* Sniffing: NULs in a real log, ELF, exports, JSON, journals. */
static void
t_sniff(void **state)
{
	static const char exp1[] = "__CURSOR=s=1;i=2\n__REALTIME_TIMESTAMP=1\n"
	    "MESSAGE=hello\n\n";
	static const char exp2[] = "__REALTIME_TIMESTAMP=1700000000000000\n"
	    "_BOOT_ID=0123\nMESSAGE\n\x05\0\0\0\0\0\0\0hello\nPRIORITY=6\n\n";
	static const char cfg[] = "CONFIG_X86=y\nCONFIG_SMP=y\nCONFIG_NR=64\n";
	static const char json1[] = "{\"__CURSOR\":\"s=1\",\"MESSAGE\":\"x\"}\n";
	static const char json2[] = "\x1e{ \"MESSAGE\" : [104,105] }\n";
	static const char json3[] = "{\"a\":\"MESSAGE\"}\n";
	static const char journal[] = "LPKSHHRH\0\0\0\0";
	uint8_t *b, rnd[65536];
	size_t i, n;
	uint32_t x;
	char t[256];

	(void)state;
	/* The rg353v log has a NUL: text. */
	assert_non_null(memchr(rg353, 0, rg353len));
	assert_int_equal(kl_input_sniff(rg353, rg353len), KL_UNIT_TEXT);
	assert_int_equal(kl_input_sniff(oops, oopslen), KL_UNIT_TEXT);
	if (find_tool("true", t, sizeof(t)) != NULL) {
		b = slurp(t, &n);
		assert_int_equal(kl_input_sniff(b, n), KL_UNIT_BINARY);
		/* Past the ELF header, still binary by its bytes. */
		assert_int_equal(kl_input_sniff(b + 64, n - 64),
		    KL_UNIT_BINARY);
		free(b);
	}
	assert_int_equal(kl_input_sniff((const uint8_t *)exp1,
	    sizeof(exp1) - 1), KL_UNIT_EXPORT);
	assert_int_equal(kl_input_sniff((const uint8_t *)exp2,
	    sizeof(exp2) - 1), KL_UNIT_EXPORT);
	assert_int_equal(kl_input_sniff((const uint8_t *)cfg, sizeof(cfg) - 1),
	    KL_UNIT_TEXT);
	assert_int_equal(kl_input_sniff((const uint8_t *)json1,
	    sizeof(json1) - 1), KL_UNIT_JSON);
	assert_int_equal(kl_input_sniff((const uint8_t *)json2,
	    sizeof(json2) - 1), KL_UNIT_JSON);
	assert_int_equal(kl_input_sniff((const uint8_t *)json3,
	    sizeof(json3) - 1), KL_UNIT_TEXT);
	assert_int_equal(kl_input_sniff((const uint8_t *)journal,
	    sizeof(journal) - 1), KL_UNIT_JOURNAL);
	assert_int_equal(kl_input_sniff(NULL, 0), KL_UNIT_TEXT);
	/* Random bytes are binary; a block of NULs before text is not. */
	x = 12345;
	for (i = 0; i < sizeof(rnd); i++) {
		x = x * 1103515245u + 12345u;
		rnd[i] = (uint8_t)(x >> 23);
	}
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_BINARY);
	memset(rnd, 0, 40000);
	memcpy(rnd + 40000, oops, sizeof(rnd) - 40000);
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_TEXT);
	memset(rnd, 0, sizeof(rnd));
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_TEXT);
	/* Latin-1 and escape sequences stay text. */
	memcpy(rnd, oops, sizeof(rnd));
	for (i = 0; i < sizeof(rnd); i += 50) {
		rnd[i] = 0xe9;
		rnd[i + 1] = 0x1b;
	}
	assert_int_equal(kl_input_sniff(rnd, sizeof(rnd)), KL_UNIT_TEXT);
}

/* The kinds through kl_input_fd, also compressed; binary has no data. */
static void
t_kinds(void **state)
{
	static const char exp1[] = "__CURSOR=s=1;i=2\n__REALTIME_TIMESTAMP=1\n"
	    "MESSAGE=hello\n\n";
	struct ent e[3];
	struct rec r = { 0 };
	uint8_t *elf;
	size_t elfn;
	char p[256], t[256];

	(void)state;
	tpath(p, sizeof(p), "export.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, (const uint8_t *)exp1,
	    sizeof(exp1) - 1);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 7), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_EXPORT);
	assert_int_equal(r.u[0].total, sizeof(exp1) - 1);
	assert_memory_equal(r.u[0].data, exp1, sizeof(exp1) - 1);
	rec_free(&r);

	if (find_tool("true", t, sizeof(t)) == NULL)
		return;
	elf = slurp(t, &elfn);
	e[0] = (struct ent){ "bin/true", elf, elfn, 0 };
	e[1] = (struct ent){ "kern.log", oops, oopslen, 0 };
	tpath(p, sizeof(p), "mixed.tar.zst");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_ZSTD, e, 2);
	assert_int_equal(run_file(p, "mixed.tar.zst", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.u[0].chain, "{bin/true}");
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, 0);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	is_unit(&r.u[1], "mixed.tar.zst", "{kern.log}", "zstd", oops,
	    oopslen);
	rec_free(&r);
	assert_int_equal(run_file(t, "true", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, 0);
	rec_free(&r);

	/* KL_INPUT_ALL_DATA: a binary unit's bytes, every one. */
	r.flags = KL_INPUT_ALL_DATA;
	assert_int_equal(run_file(p, "mixed.tar.zst", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, elfn);
	assert_memory_equal(r.u[0].data, elf, elfn);
	is_unit(&r.u[1], "mixed.tar.zst", "{kern.log}", "zstd", oops,
	    oopslen);
	rec_free(&r);

	/*
	 * KL_INPUT_TOP_DATA: the named input itself, and its decompressed
	 * stream, are text; an archive member stays binary, without data.
	 */
	r.flags = KL_INPUT_TOP_DATA;
	assert_int_equal(run_file(t, "true", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_TEXT);
	assert_int_equal(r.u[0].total, elfn);
	assert_memory_equal(r.u[0].data, elf, elfn);
	rec_free(&r);
	r.flags = KL_INPUT_TOP_DATA;
	tpath(p, sizeof(p), "true.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, elf, elfn);
	assert_int_equal(run_file(p, "true.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].kind, KL_UNIT_TEXT);
	assert_int_equal(r.u[0].total, elfn);
	rec_free(&r);
	r.flags = KL_INPUT_TOP_DATA;
	tpath(p, sizeof(p), "mixed.tar.zst");
	assert_int_equal(run_file(p, "mixed.tar.zst", NULL, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.u[0].kind, KL_UNIT_BINARY);
	assert_int_equal(r.u[0].total, 0);
	rec_free(&r);
	free(elf);
}

/* Empty things: an empty file, an empty gzip, an empty archive. */
static void
t_empty(void **state)
{
	struct rec r = { 0 };
	char p[256];

	(void)state;
	tpath(p, sizeof(p), "empty");
	spew(p, "", 0);
	assert_int_equal(run_file(p, "empty", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "empty", "", "", (const uint8_t *)"", 0);
	rec_free(&r);
	assert_int_equal(run_pipe(p, "-", NULL, &r, 1), 0);
	assert_int_equal(r.n, 1);
	rec_free(&r);
	tpath(p, sizeof(p), "empty.log.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, (const uint8_t *)"", 0);
	assert_int_equal(run_file(p, "empty.log.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "empty.log.gz", "{empty.log}", "gzip",
	    (const uint8_t *)"", 0);
	rec_free(&r);
	tpath(p, sizeof(p), "empty.tar");
	w_archive(p, archive_write_set_format_ustar, ARCHIVE_FILTER_NONE, NULL, 0);
	assert_int_equal(run_file(p, "empty.tar", NULL, &r), 0);
	/* All zeros: text, nothing in it. */
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	rec_free(&r);
}

/* A callback that stops: 1, and end() still comes once. */
static void
t_stop(void **state)
{
	struct rec r = { 0 };
	char p[256];

	(void)state;
	mk_nest(tpath(p, sizeof(p), "top.tar"));
	r.stop_data = 1;
	assert_int_equal(run_file(p, "top.tar", NULL, &r), 1);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].ended, 1);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	assert_int_equal(r.ndata, 1);
	rec_free(&r);
}

/* Bad arguments and inputs that cannot be read: -1. */
static void
t_args(void **state)
{
	struct kl_input_ops ops = { NULL, cb_begin, cb_data, cb_end, 0 };
	struct kl_limits lim = { 0 };
	struct kl_error err;
	struct rec r = { 0 };
	int fd;

	(void)state;
	ops.arg = &r;
	assert_int_equal(kl_input_fd(-1, "x", NULL, &ops, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_int_equal(kl_input_fd(0, "x", NULL, NULL, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	lim.max_depth = KL_INPUT_DEPTH_MAX + 1;
	assert_int_equal(kl_input_fd(0, "x", &lim, &ops, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, "max_depth 65 is above 64");
	fd = open(tmp, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(kl_input_fd(fd, "dir", NULL, &ops, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, EISDIR);
	close(fd);
	/* A write-only descriptor: read(2) fails before any unit. */
	fd = open(tpath((char[256]){ 0 }, 256, "wo"), O_WRONLY | O_CREAT,
	    0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(kl_input_fd(fd, "wo", NULL, &ops, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, EBADF);
	assert_int_equal(r.n, 0);
	close(fd);
}

/* The hex header of a cpio newc member named by namesize bytes. */
static size_t
newc(char *h, size_t sz, unsigned long namesize)
{
	return ((size_t)snprintf(h, sz, "070701%08X%08X%08X%08X%08X%08X"
	    "%08X%08X%08X%08X%08X%08lX%08X", 1, 0100644, 0, 0, 1, 0, 0, 0, 0,
	    0, 0, namesize, 0));
}

/*
 * A cpio header claiming a 2 GiB name, then 100 MB of zeros, gzipped:
 * libarchive would read the name ahead whole; the reader stops it at
 * 64 MiB, an error for the container.  And the fuzzer's first find, a
 * bare header with a huge name: an error, no crash.
 */
static void
t_header_bomb(void **state)
{
	const size_t zeros = 100u << 20;
	struct rec r = { 0 };
	uint8_t *b;
	size_t n;
	char p[256];

	(void)state;
	b = calloc(1, zeros + 4096);
	assert_non_null(b);
	n = newc((char *)b, 4096, 0x7ffffff0ul);
	memset(b + n, 'a', 1000);
	tpath(p, sizeof(p), "name.cpio.gz");
	w_filter(p, ARCHIVE_FILTER_GZIP, b, zeros);
	free(b);
	assert_int_equal(run_file(p, "name.cpio.gz", NULL, &r), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "");
	assert_int_equal(r.u[0].total, 0);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	assert_string_equal(r.u[0].emsg, "name.cpio.gz: broken at byte 110: "
	    "cpio: a header needs more than 67108864 bytes");
	rec_free(&r);

	b = calloc(1, 512);
	assert_non_null(b);
	n = newc((char *)b, 512, 0x90000000ul);
	memcpy(b + n, "TRAILER!!!", 10);
	tpath(p, sizeof(p), "fuzz-1.cpio");
	spew(p, b, n + 14);
	free(b);
	assert_int_equal(run_pipe(p, "fuzz-1.cpio", NULL, &r, 100), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.u[0].ecode, KL_EFORMAT);
	rec_free(&r);
}

/* A non-blocking descriptor with nothing more to read: the end. */
static void
t_nonblock(void **state)
{
	struct kl_error err;
	struct rec r = { 0 };
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(write(p[1], "<6>hello\n", 9), 9);
	assert_int_equal(run_on(p[0], "/dev/kmsg", NULL, &r, &err), 0);
	assert_int_equal(r.n, 1);
	is_unit(&r.u[0], "/dev/kmsg", "", "", (const uint8_t *)"<6>hello\n",
	    9);
	rec_free(&r);
	close(p[0]);
	close(p[1]);
}

/* Peak RSS in KiB. */
static long
maxrss(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_maxrss);
}

/* Stream a tar of n members (gzipped each if gz) into fd; exit. */
static void
tar_feeder(int fd, size_t n, int gz, const uint8_t *gzb, size_t gzn)
{
	struct archive_entry *ae;
	struct archive *a;
	char name[32];
	size_t i;

	signal(SIGPIPE, SIG_DFL);
	a = archive_write_new();
	archive_write_set_format_ustar(a);
	archive_write_set_bytes_per_block(a, 10240);
	if (archive_write_open_fd(a, fd) != ARCHIVE_OK)
		_exit(1);
	ae = archive_entry_new();
	for (i = 0; i < n; i++) {
		archive_entry_clear(ae);
		snprintf(name, sizeof(name), "m/%zu.log%s", i, gz ? ".gz" : "");
		archive_entry_set_pathname(ae, name);
		archive_entry_set_filetype(ae, AE_IFREG);
		archive_entry_set_perm(ae, 0644);
		archive_entry_set_size(ae, (la_int64_t)(gz ? gzn : 100));
		if (archive_write_header(a, ae) != ARCHIVE_OK)
			_exit(1);
		archive_write_data(a, gz ? gzb : oops, gz ? gzn : 100);
	}
	archive_entry_free(ae);
	archive_write_close(a);
	archive_write_free(a);
	_exit(0);
}

/* Run on a tar of n members streamed through a pipe. */
static void
run_many(size_t n, int gz, struct rec *r)
{
	struct kl_error err;
	uint8_t *gzb;
	size_t gzn;
	pid_t pid;
	int p[2], st;

	gzb = m_filter(ARCHIVE_FILTER_GZIP, oops, 100, &gzn);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		tar_feeder(p[1], n, gz, gzb, gzn);
	}
	close(p[1]);
	assert_int_equal(run_on(p[0], "many.tar", NULL, r, &err), 0);
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(gzb);
}

/* 100,000 small members, and 20,000 gzipped ones: flat memory. */
static void
t_many_members(void **state)
{
	struct rec r = { 0 };
	long before, after;

	(void)state;
	run_many(2000, 1, &r);
	assert_int_equal(r.n, 2000);
	assert_int_equal(r.bytes, 2000 * 100);
	assert_string_equal(r.u[0].chain, "{m/0.log.gz}{0.log}");
	rec_free(&r);
	before = maxrss();
	run_many(100000, 0, &r);
	assert_int_equal(r.n, 100000);
	assert_int_equal(r.bytes, UINT64_C(100000) * 100);
	rec_free(&r);
	run_many(20000, 1, &r);
	assert_int_equal(r.n, 20000);
	assert_int_equal(r.bytes, 20000 * 100);
	rec_free(&r);
	after = maxrss();
	assert_true(after - before < 4096);
}

/* Stream a tar holding one member of size bytes of log text; exit. */
static void
big_feeder(int fd, uint64_t size)
{
	struct archive_entry *ae;
	struct archive *a;
	uint64_t o;
	size_t k;

	signal(SIGPIPE, SIG_DFL);
	a = archive_write_new();
	archive_write_set_format_pax_restricted(a);
	if (archive_write_open_fd(a, fd) != ARCHIVE_OK)
		_exit(1);
	ae = archive_entry_new();
	archive_entry_set_pathname(ae, "huge.log");
	archive_entry_set_filetype(ae, AE_IFREG);
	archive_entry_set_perm(ae, 0644);
	archive_entry_set_size(ae, (la_int64_t)size);
	if (archive_write_header(a, ae) != ARCHIVE_OK)
		_exit(1);
	for (o = 0; o < size; o += k) {
		k = size - o < oopslen ? (size_t)(size - o) : oopslen;
		if (archive_write_data(a, oops, k) != (la_ssize_t)k)
			_exit(1);
	}
	archive_entry_free(ae);
	archive_write_close(a);
	archive_write_free(a);
	_exit(0);
}

/* A 2 GiB member through a pipe: every byte, flat memory. */
static void
t_big_member(void **state)
{
	const uint64_t size = UINT64_C(2) << 30;
	struct kl_error err;
	struct rec r = { 0 };
	long before;
	pid_t pid;
	int p[2], st;

	(void)state;
	before = maxrss();
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		big_feeder(p[1], size);
	}
	close(p[1]);
	assert_int_equal(run_on(p[0], "big.tar", NULL, &r, &err), 0);
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.u[0].chain, "{huge.log}");
	assert_int_equal(r.u[0].total, size);
	assert_int_equal(r.u[0].ecode, KL_EOK);
	assert_memory_equal(r.u[0].data, oops, oopslen);
	/* KEEP bytes kept by the test itself, little else. */
	assert_true(maxrss() - before < (long)(KEEP / 1024) + 4096);
	rec_free(&r);
}

/* kl_input_container(): what the input layer opens, by magic bytes. */
static void
t_container(void **state)
{
	static const uint8_t gz[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
	static const uint8_t xz[] = {0xfd, '7', 'z', 'X', 'Z', 0, 0, 4};
	static const uint8_t zst[] = {0x28, 0xb5, 0x2f, 0xfd, 0, 0};
	static const uint8_t zip[] = {'P', 'K', 3, 4, 20, 0, 0, 0};
	static const uint8_t ar[] = "!<arch>\n";
	static const uint8_t text[] = "[    0.000000] Linux version 5.4\n";
	struct archive *w;
	struct archive_entry *e;
	uint8_t tar[2048];
	size_t used;
	int f, a;

	(void)state;
	assert_int_equal(kl_input_container(gz, sizeof(gz), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_GZIP);
	assert_int_equal(a, 0);
	assert_int_equal(kl_input_container(xz, sizeof(xz), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_XZ);
	assert_int_equal(kl_input_container(zst, sizeof(zst), &f, &a), 1);
	assert_int_equal(f, ARCHIVE_FILTER_ZSTD);
	assert_int_equal(kl_input_container(zip, sizeof(zip), &f, &a), 2);
	assert_int_equal(f, 0);
	assert_int_equal(a, ARCHIVE_FORMAT_ZIP);
	assert_int_equal(kl_input_container(ar, sizeof(ar) - 1, &f, &a), 2);
	assert_int_equal(a, ARCHIVE_FORMAT_AR);
	assert_int_equal(kl_input_container(text, sizeof(text) - 1, &f, &a),
	    0);
	assert_int_equal(f, 0);
	assert_int_equal(a, 0);
	/* A gzip magic cut short is no container. */
	assert_int_equal(kl_input_container(gz, 2, &f, &a), 0);

	/* A ustar header with its checksum, as libarchive writes it. */
	assert_non_null(w = archive_write_new());
	assert_int_equal(archive_write_set_format_ustar(w), ARCHIVE_OK);
	assert_int_equal(archive_write_set_bytes_per_block(w, 0), ARCHIVE_OK);
	assert_int_equal(archive_write_open_memory(w, tar, sizeof(tar), &used),
	    ARCHIVE_OK);
	assert_non_null(e = archive_entry_new());
	archive_entry_set_pathname(e, "kern.log");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, 0);
	assert_int_equal(archive_write_header(w, e), ARCHIVE_OK);
	archive_entry_free(e);
	assert_int_equal(archive_write_close(w), ARCHIVE_OK);
	archive_write_free(w);
	assert_true(used >= 512);
	assert_int_equal(kl_input_container(tar, used, &f, &a), 2);
	assert_int_equal(a, ARCHIVE_FORMAT_TAR);
	tar[148] ^= 1;		/* a bad checksum: not a tar */
	assert_int_equal(kl_input_container(tar, used, &f, &a), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_plain),
		cmocka_unit_test(t_compressions),
		cmocka_unit_test(t_tools),
		cmocka_unit_test(t_archives),
		cmocka_unit_test(t_gz_in_tar_xz),
		cmocka_unit_test(t_nest),
		cmocka_unit_test(t_depth),
		cmocka_unit_test(t_bomb),
		cmocka_unit_test(t_bomb16),
		cmocka_unit_test(t_member_limit),
		cmocka_unit_test(t_total_limit),
		cmocka_unit_test(t_truncated_xz),
		cmocka_unit_test(t_gzip_crc),
		cmocka_unit_test(t_targz_crc),
		cmocka_unit_test(t_gzip_members),
		cmocka_unit_test(t_gzip_cut),
		cmocka_unit_test(t_pipeline),
		cmocka_unit_test(t_damage),
		cmocka_unit_test(t_tar_cut),
		cmocka_unit_test(t_zip_names),
		cmocka_unit_test(t_encrypted),
		cmocka_unit_test(t_sniff),
		cmocka_unit_test(t_container),
		cmocka_unit_test(t_kinds),
		cmocka_unit_test(t_empty),
		cmocka_unit_test(t_stop),
		cmocka_unit_test(t_args),
		cmocka_unit_test(t_header_bomb),
		cmocka_unit_test(t_nonblock),
		cmocka_unit_test(t_many_members),
		cmocka_unit_test(t_big_member),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
