/*
 * test-chunk.c - kl_scan_chunked(), and kl_chunk_feed() given the bytes
 * in pieces of every size: one file scanned in chunks on
 * threads gives the sink the events of kl_scan_feed() of the whole file,
 * in the same order, with the same counters, whatever the chunk size and
 * thread count: on logs of several machines one after another (chunks
 * that disagree at their cuts: the logs of tests/data, and real ones of
 * ../shared/corpus when it is there), boots told apart by the clock,
 * over-long lines scanned in windows, CRLF, no final newline; a sink
 * that stops the scan stops it at the same event; bad arguments and a
 * read error are errors.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "kleak.h"

#define CORPUS	TESTDATA "/../../../shared/corpus"

/* Every event, as text. */
struct trace {
	char		*s;
	size_t		 len, cap;
	size_t		 n;		/* events */
	size_t		 stop_at;	/* stop at this event (1-based), 0 */
};

/* Append to the trace. */
static void
tr_add(struct trace *t, const char *fmt, ...)
{
	va_list ap;
	char b[8192];
	int k;

	va_start(ap, fmt);
	k = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	assert_true(k >= 0);
	if ((size_t)k >= sizeof(b))
		k = sizeof(b) - 1;
	if (t->len + (size_t)k + 1 > t->cap) {
		t->cap = (t->len + (size_t)k + 1) * 2;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	memcpy(t->s + t->len, b, (size_t)k + 1);
	t->len += (size_t)k;
}

/* The stop condition after an event. */
static int
tr_stop(struct trace *t)
{
	t->n++;
	return (t->stop_at != 0 && t->n >= t->stop_at);
}

/* Sink: a finding. */
static int
on_finding(void *arg, const struct kl_finding *f)
{
	struct trace *t = arg;

	tr_add(t, "F %llu:%llu@%llu v=%llx %.*s a=%d r=%d s=%d c=%d u=%d "
	    "%s b=%u fl=%x lc=%llu lm=%zu [%.*s]\n",
	    (unsigned long long)f->line, (unsigned long long)f->column,
	    (unsigned long long)f->offset, (unsigned long long)f->value,
	    (int)f->textlen, (const char *)f->text, f->arch, f->region,
	    f->severity, f->confidence, f->suppressed, f->rule, f->boot,
	    f->flags, (unsigned long long)f->lcol, f->lmsg, (int)f->llen,
	    (const char *)f->ltext);
	return (tr_stop(t));
}

/* Sink: a line. */
static int
on_line(void *arg, const struct kl_line *l)
{
	struct trace *t = arg;

	tr_add(t, "L %llu@%llu m=%zu b=%u bn=%d [%.*s]\n",
	    (unsigned long long)l->line, (unsigned long long)l->offset,
	    l->msg, l->boot, l->banner, (int)l->len, (const char *)l->text);
	return (tr_stop(t));
}

/* Sink: a boot segment. */
static int
on_boot(void *arg, const struct kl_boot *b)
{
	struct trace *t = arg;

	tr_add(t, "B %u %llu-%llu %llu-%llu a=%d\n", b->boot,
	    (unsigned long long)b->first_line, (unsigned long long)b->last_line,
	    (unsigned long long)b->first_offset,
	    (unsigned long long)b->last_offset, b->arch);
	return (tr_stop(t));
}

/* The counters, as text. */
static void
tr_stats(struct trace *t, const struct kl_stats *st)
{
	size_t i;

	tr_add(t, "S %llu %llu %llu %llu %llu %u %d", (unsigned long long)
	    st->bytes, (unsigned long long)st->lines,
	    (unsigned long long)st->candidates,
	    (unsigned long long)st->findings, (unsigned long long)st->boots,
	    st->unhashed, st->arch);
	for (i = 0; i < KL_REGION_COUNT; i++)
		tr_add(t, " %llu", (unsigned long long)st->region[i]);
	for (i = 0; i < KL_SUP_COUNT; i++)
		tr_add(t, " %llu", (unsigned long long)st->suppressed[i]);
	tr_add(t, "\n");
}

/* A scanner of arch (window bytes) on a sink that traces into t. */
static struct kl_scan *
scanner(enum kl_arch_id arch, size_t window, struct trace *t,
    struct kl_engine **ep)
{
	static const uint64_t first[4] = { 0, 0x7fffffeULL << 32, 0, 0 };
	struct kl_options o;
	struct kl_error err;
	struct kl_sink sink;
	struct kl_scan *sc;

	memset(&o, 0, sizeof(o));
	o.arch = arch;
	o.window = window;
	o.suppressed = 1;
	*ep = kl_engine_new(&o, &err);
	assert_non_null(*ep);
	memset(&sink, 0, sizeof(sink));
	sink.arg = t;
	sink.finding = on_finding;
	sink.line = on_line;
	sink.boot = on_boot;
	sink.line_first = first;	/* lines starting A-Z: most */
	sc = kl_scan_new(*ep, &sink, &err);
	assert_non_null(sc);
	memset(t, 0, sizeof(*t));
	return (sc);
}

/* The whole file in order: the trace to compare with. */
static void
serial(const char *path, enum kl_arch_id arch, size_t window,
    size_t stop_at, struct trace *t)
{
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_error err;
	char b[65536];
	ssize_t r;
	int fd, rc = 0;

	sc = scanner(arch, window, t, &e);
	t->stop_at = stop_at;
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	while (rc == 0 && (r = read(fd, b, sizeof(b))) > 0)
		rc = kl_scan_feed(sc, b, (size_t)r, &err);
	if (rc == 0)
		rc = kl_scan_end(sc, &err);
	close(fd);
	if (stop_at == 0)
		tr_stats(t, kl_scan_stats(sc));
	kl_scan_free(sc);
	kl_engine_free(e);
}

/*
 * kl_chunk_feed() of the file at fd, in pieces of 1 byte to 64 KiB, as a
 * decompressor gives them; kl_chunk_end().
 */
static int
fed(struct kl_scan *sc, int fd, const struct kl_chunk_opt *opt,
    struct kl_chunk_stats *cs, struct kl_error *err)
{
	static const size_t pieces[] = { 1, 7, 4093, 65536, 100, 30000 };
	struct kl_chunker *ch;
	static char b[65536];
	size_t i = 0;
	ssize_t r;
	int rc = 0;

	ch = kl_chunk_new(sc, opt, err);
	assert_non_null(ch);
	while (rc == 0 && (r = read(fd, b, pieces[i++ % 6])) > 0)
		rc = kl_chunk_feed(ch, b, (size_t)r, err);
	if (rc == 0)
		rc = kl_chunk_end(ch, cs, err);
	else
		assert_int_equal(kl_chunk_end(ch, cs, err), rc);
	kl_chunk_free(ch);
	return (rc);
}

/*
 * The file in chunks of chunk bytes on threads threads, read by
 * kl_scan_chunked() or (feed) given to kl_chunk_feed().
 */
static void
chunked(const char *path, enum kl_arch_id arch, size_t window,
    size_t chunk, unsigned threads, size_t stop_at, struct trace *t,
    struct kl_chunk_stats *cs, int feed)
{
	struct kl_chunk_opt opt;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_error err;
	int fd, rc;

	sc = scanner(arch, window, t, &e);
	t->stop_at = stop_at;
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	memset(&opt, 0, sizeof(opt));
	opt.threads = threads;
	opt.chunk = chunk;
	memset(&err, 0, sizeof(err));
	if (feed)
		rc = fed(sc, fd, &opt, cs, &err);
	else
		rc = kl_scan_chunked(sc, fd, &opt, cs, &err);
	if (stop_at == 0) {
		assert_int_equal(rc, 0);
		rc = kl_scan_end(sc, &err);
		assert_int_equal(rc, 0);
		tr_stats(t, kl_scan_stats(sc));
	} else {
		/* The stop comes in the scan, or at its end. */
		if (rc == 0)
			rc = kl_scan_end(sc, &err);
		assert_int_equal(rc, 1);
	}
	close(fd);
	kl_scan_free(sc);
	kl_engine_free(e);
}

static char tmpdir[] = "/tmp/kleak-test-chunk.XXXXXX";

/*
 * A file in the scratch directory made of the files named, under
 * TESTDATA, or under CORPUS when the name starts with "corpus:" (NULL
 * when one is missing: the corpus is absent).
 */
static const char *
cat_files(const char *name, const char *const *files)
{
	static char path[512];
	char in[512], b[65536];
	FILE *o, *i;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	o = fopen(path, "wb");
	assert_non_null(o);
	for (; *files != NULL; files++) {
		if (strncmp(*files, "corpus:", 7) == 0)
			snprintf(in, sizeof(in), "%s/%s", CORPUS, *files + 7);
		else
			snprintf(in, sizeof(in), "%s/%s", TESTDATA, *files);
		i = fopen(in, "rb");
		if (i == NULL) {
			fclose(o);
			return (NULL);
		}
		while ((n = fread(b, 1, sizeof(b), i)) > 0)
			assert_int_equal(fwrite(b, 1, n, o), n);
		fclose(i);
	}
	fclose(o);
	return (path);
}

/*
 * Chunked = serial for each chunk size and thread count; adds up the
 * chunk counters in tot.
 */
static void
compare(const char *path, enum kl_arch_id arch, size_t window,
    struct kl_chunk_stats *tot)
{
	static const size_t chunks[] = { 300, 1000, 4096, 65536, 1 << 20 };
	struct kl_chunk_stats cs;
	struct trace a, b;
	size_t i;
	unsigned th;
	int feed;

	serial(path, arch, window, 0, &a);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++)
		for (th = 1; th <= 3; th++)
		for (feed = 0; feed < 2; feed++) {
			chunked(path, arch, window, chunks[i], th, 0, &b, &cs,
			    feed);
			if (a.len != b.len || memcmp(a.s, b.s, a.len) != 0)
				fail_msg("%s: chunk %zu, %u threads%s: the "
				    "events differ", path, chunks[i], th,
				    feed ? ", fed" : "");
			free(b.s);
			tot->chunks += cs.chunks;
			tot->accepted += cs.accepted;
			tot->resynced += cs.resynced;
			tot->rescanned += cs.rescanned;
			tot->serial += cs.serial;
		}
	free(a.s);
}

/* Several machines one after another: cuts disagree, resync, rescan. */
static void
mixed(const char *const *files)
{
	struct kl_chunk_stats tot;
	const char *p;

	memset(&tot, 0, sizeof(tot));
	p = cat_files("mixed.log", files);
	if (p == NULL)
		skip();
	compare(p, KL_ARCH_AUTO, 64 << 10, &tot);
	compare(p, KL_ARCH_AUTO, 4096, &tot);
	compare(p, KL_ARCH_X86_64, 64 << 10, &tot);
	assert_true(tot.chunks > 100);
	assert_true(tot.accepted > 0);
	assert_true(tot.resynced > 0);
}

/* The logs of tests/data: the written ones and the QEMU boots. */
static void
test_mixed(void **state)
{
	static const char *const files[] = {
		"written/arm64-boot.dmesg",
		"written/x86_64-oops.dmesg",
		"written/riscv64-boot.dmesg",
		"written/arm-layout.dmesg",
		"x86_64-qemu-6.1-four-boots.console",
		"written/ppc64-oops.log",
		"x86_64-qemu-6.1-no-hash-pointers.console",
		"written/arm64-oops.log", NULL
	};

	(void)state;
	mixed(files);
}

/* Real logs of ../shared/corpus (skipped without it). */
static void
test_mixed_real(void **state)
{
	static const char *const files[] = {
		"corpus:boot/OrangePi5-OpenCL__dmesg.txt",
		"corpus:boot/Ubuntu-20.04-FIPS-logs__dmesg.txt",
		"corpus:boot/orangepi-rv2-notes__dmesg.txt",
		"corpus:boot/anyka-cams__dmesg.txt",
		"x86_64-qemu-6.1-four-boots.console",
		"corpus:syzkaller/report/431",
		"x86_64-qemu-6.1-no-hash-pointers.console",
		"corpus:syzkaller/report/680", NULL
	};

	(void)state;
	mixed(files);
}

/*
 * Boots told apart by the clock alone, a line longer than the window,
 * CRLF line ends, no newline at the end.
 */
static void
test_edges(void **state)
{
	static const char *const files[] = {
		"x86_64-qemu-6.1-four-boots.console", NULL
	};
	struct kl_chunk_stats tot;
	char path[512];
	FILE *o;
	const char *p;
	int i, k;

	(void)state;
	memset(&tot, 0, sizeof(tot));
	snprintf(path, sizeof(path), "%s/edges.log", tmpdir);
	o = fopen(path, "wb");
	assert_non_null(o);
	for (k = 0; k < 4; k++) {
		for (i = 0; i < 200; i++)
			fprintf(o, "[%5d.%06d] pid %d at ffffffff8%07x\r\n",
			    i / 50, i * 997 % 1000000, i, i * 4096);
		for (i = 0; i < 3000; i++)
			fprintf(o, "x ffffffff8%07x ", i * 64);
		fprintf(o, "\n");
	}
	fprintf(o, "[    0.000001] last ffffffff81000000");
	fclose(o);
	compare(path, KL_ARCH_AUTO, 4096, &tot);
	compare(path, KL_ARCH_X86_64, 4096, &tot);
	p = cat_files("four.log", files);
	assert_non_null(p);
	compare(p, KL_ARCH_AUTO, 4096, &tot);
	assert_true(tot.accepted > 0);
}

/*
 * Chunks that record more findings than a huge page holds: under a line
 * filter (this sink's) the first 2 MiB of a slot's lists are a huge
 * page and the rest grows on the heap (lib/chunk.c list_grow()); every
 * finding's fields come through the move.  1 MiB chunks of 17,000 lines,
 * 34,000 findings each, a leak and a hashed value a line.
 */
static void
test_dense(void **state)
{
	struct kl_chunk_stats cs;
	struct trace a, b;
	char path[512];
	FILE *o;
	int i, feed;

	(void)state;
	snprintf(path, sizeof(path), "%s/dense.log", tmpdir);
	o = fopen(path, "wb");
	assert_non_null(o);
	for (i = 0; i < 60000; i++)
		fprintf(o, "[%5d.%06d] Pid %d at ffffffff8%07x "
		    "ptr 00000000%08x\n", i / 1000, i % 1000000, i, i * 64,
		    i * 7919);
	fclose(o);
	serial(path, KL_ARCH_X86_64, 64 << 10, 0, &a);
	for (feed = 0; feed < 2; feed++) {
		chunked(path, KL_ARCH_X86_64, 64 << 10, 1 << 20, 2, 0, &b, &cs,
		    feed);
		assert_true(cs.chunks >= 3);
		assert_true(cs.accepted >= 2);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.s, b.s, a.len);
		free(b.s);
	}
	free(a.s);
}

/* A sink that stops the scan stops it at the same event. */
static void
test_stop(void **state)
{
	static const char *const files[] = {
		"x86_64-qemu-6.1-four-boots.console",
		"x86_64-qemu-6.1-no-hash-pointers.console",
		"written/arm64-boot.dmesg", NULL
	};
	static const size_t at[] = { 1, 10, 100, 200, 420 };
	struct kl_chunk_stats cs;
	struct trace a, b;
	const char *p;
	size_t i;

	(void)state;
	p = cat_files("stop.log", files);
	assert_non_null(p);
	for (i = 0; i < 2 * sizeof(at) / sizeof(at[0]); i++) {
		serial(p, KL_ARCH_AUTO, 64 << 10, at[i / 2], &a);
		chunked(p, KL_ARCH_AUTO, 64 << 10, 2000, 2, at[i / 2], &b, &cs,
		    i % 2);
		assert_int_equal(a.n, at[i / 2]);
		assert_int_equal(b.n, at[i / 2]);
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.s, b.s, a.len);
		free(a.s);
		free(b.s);
	}
}

/* No thread: an error; a read error (a directory): KL_EIO. */
static void
test_errors(void **state)
{
	struct kl_chunk_opt opt;
	struct kl_chunk_stats cs;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_error err;
	struct trace t;
	int fd;

	(void)state;
	sc = scanner(KL_ARCH_AUTO, 64 << 10, &t, &e);
	memset(&opt, 0, sizeof(opt));
	opt.chunk = 4096;
	fd = open(TESTDATA, O_RDONLY);
	assert_true(fd >= 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(kl_scan_chunked(sc, fd, &opt, &cs, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	opt.threads = 2;
	memset(&err, 0, sizeof(err));
	assert_int_equal(kl_scan_chunked(sc, fd, &opt, &cs, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	close(fd);
	opt.threads = 0;
	memset(&err, 0, sizeof(err));
	assert_null(kl_chunk_new(sc, &opt, &err));
	assert_int_equal(err.code, KL_EINVAL);
	kl_scan_free(sc);
	kl_engine_free(e);
	free(t.s);
}

/* Make the scratch directory. */
static int
setup(void **state)
{
	(void)state;
	return (mkdtemp(tmpdir) == NULL ? -1 : 0);
}

/* Remove the scratch directory. */
static int
teardown(void **state)
{
	static const char *const names[] = {
		"mixed.log", "edges.log", "four.log", "stop.log", "dense.log",
		NULL
	};
	char path[512];
	size_t i;

	(void)state;
	for (i = 0; names[i] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
		(void)unlink(path);
	}
	return (rmdir(tmpdir));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_mixed_real),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_dense),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_errors),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
