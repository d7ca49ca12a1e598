/*
 * test-scan.c - the scanning pipeline: any feed size and any window size
 * give the same findings, long lines are scanned in windows with every
 * token found exactly once, line/column/offset bookkeeping is exact,
 * the line sink sees the lines its first-byte set lets through, boot
 * events give the offsets of their segments' first and last bytes, a
 * drain gives each complete line's findings at once (--follow).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kleak.h"

struct rec {
	uint64_t	 line, column, offset, value, lcol;
	int		 prefix;
	unsigned	 flags;
	int		 suppressed;
	int		 region;
	char		 ltext[80];
	size_t		 llen;
};

struct recs {
	struct rec	*r;
	size_t		 n, cap;
	size_t		 stop_after;
};

/* Sink: record a finding. */
static int
collect(void *arg, const struct kl_finding *f)
{
	struct recs *rs = arg;
	struct rec *r;
	size_t n;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
		assert_non_null(rs->r);
	}
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	r->line = f->line;
	r->column = f->column;
	r->offset = f->offset;
	r->value = f->value;
	r->prefix = f->prefix;
	r->flags = f->flags;
	r->lcol = f->lcol;
	r->suppressed = f->suppressed;
	r->region = f->region;
	r->llen = f->llen;
	n = f->llen < sizeof(r->ltext) - 1 ? f->llen : sizeof(r->ltext) - 1;
	memcpy(r->ltext, f->ltext, n);
	/* The digits reported are the digits in the line at the column. */
	assert_true(f->column >= f->lcol);
	if (f->column - f->lcol + f->textlen <= f->llen)
		assert_memory_equal(f->ltext + (f->column - f->lcol), f->text,
		    f->textlen);
	return (rs->stop_after != 0 && rs->n >= rs->stop_after);
}

/* Scan buf fed in chunks of step bytes with the given window. */
static void
scan(const char *buf, size_t len, size_t step, size_t window,
    enum kl_arch_id arch, struct recs *out, struct kl_stats *st)
{
	struct kl_options o;
	struct kl_error err;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_sink sink;
	size_t i, k;

	memset(&o, 0, sizeof(o));
	o.arch = arch;
	o.window = window;
	o.suppressed = 1;
	e = kl_engine_new(&o, &err);
	assert_non_null(e);
	memset(&sink, 0, sizeof(sink));
	sink.arg = out;
	sink.finding = collect;
	sc = kl_scan_new(e, &sink, &err);
	assert_non_null(sc);
	for (i = 0; i < len; i += k) {
		k = len - i < step ? len - i : step;
		if (kl_scan_feed(sc, buf + i, k, &err) != 0)
			break;
	}
	if (i >= len)
		(void)kl_scan_end(sc, &err);
	if (st != NULL)
		*st = *kl_scan_stats(sc);
	kl_scan_free(sc);
	kl_engine_free(e);
}

/* Two record lists are equal in every coordinate. */
static void
same(const struct recs *a, const struct recs *b, int text)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (a->r[i].offset != b->r[i].offset) {
			fprintf(stderr, "# first difference at %zu: offset %llu vs %llu\n",
			    i, (unsigned long long)a->r[i].offset,
			    (unsigned long long)b->r[i].offset);
			break;
		}
	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		assert_true(a->r[i].line == b->r[i].line);
		assert_true(a->r[i].column == b->r[i].column);
		assert_true(a->r[i].offset == b->r[i].offset);
		assert_true(a->r[i].value == b->r[i].value);
		assert_int_equal(a->r[i].prefix, b->r[i].prefix);
		if (text) {
			assert_string_equal(a->r[i].ltext, b->r[i].ltext);
			assert_true(a->r[i].flags == b->r[i].flags);
		}
	}
}

static const char sample[] =
    "[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)\n"
    "[   12.345678] RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246\r\n"
    "\n"
    "[   12.345679] RAX: 0000000000000000 RBX: ffff993fa4e00000 RCX: 0xffffffff81000000\n"
    "no newline at the end ffffffffc0a1b2c3";

/* Feeding 1, 7 or all bytes at a time gives identical findings. */
static void
t_feed_sizes(void **state)
{
	struct recs a = {0}, b = {0}, c = {0};
	struct kl_stats st;

	(void)state;
	scan(sample, sizeof(sample) - 1, sizeof(sample), 0, KL_ARCH_X86_64,
	    &a, &st);
	scan(sample, sizeof(sample) - 1, 1, 0, KL_ARCH_X86_64, &b, NULL);
	scan(sample, sizeof(sample) - 1, 7, 0, KL_ARCH_X86_64, &c, NULL);
	same(&a, &b, 1);
	same(&a, &c, 1);
	/* Every 16-digit token, suppressed or not, is delivered. */
	assert_int_equal(a.n, 5);
	assert_true(a.r[0].line == 2);
	assert_true(a.r[0].column == 26);
	assert_true(a.r[0].value == 0xffffa667c016fe48ULL);
	/* CRLF: the line text stops before the CR. */
	assert_int_equal(a.r[0].llen, 58);
	assert_true(a.r[1].line == 4);
	assert_true(a.r[1].column == 21);
	assert_true(a.r[3].prefix == 1);
	assert_true(a.r[3].column == 67);
	assert_true(a.r[4].line == 5);
	assert_true(a.r[4].column == 23);
	assert_true(a.r[4].offset == sizeof(sample) - 1 - 16);
	assert_true(st.lines == 5);
	assert_true(st.bytes == sizeof(sample) - 1);
	free(a.r);
	free(b.r);
	free(c.r);
}

/*
 * A line far longer than the window: every planted token is found once,
 * at the same column as with a large window.
 */
static void
t_long_line(void **state)
{
	static const char *seps[] = { " ", ":", "[<", "_", " 0x", "\t" };
	char *buf;
	size_t len = 0, cap = 200000, i, planted = 0;
	struct recs big = {0}, small = {0}, tiny = {0};
	size_t windows[] = { 64, 100, 4096 };
	size_t w;

	(void)state;
	buf = malloc(cap);
	assert_non_null(buf);
	memcpy(buf, "first line\n", 11);
	len = 11;
	for (i = 0; len < cap - 64; i++) {
		const char *sep = seps[i % 6];
		size_t pad = (i * 7) % 23, j;

		for (j = 0; j < pad; j++)
			buf[len++] = (char)('g' + (j % 5));	/* alnum, no hex */
		memcpy(buf + len, sep, strlen(sep));
		len += strlen(sep);
		len += (size_t)snprintf(buf + len, cap - len,
		    "ffff8880%08zx", i);
		buf[len++] = i % 3 == 0 ? ']' : ' ';
		planted++;
	}
	buf[len++] = '\n';
	/* Planted after a letter run are not bounded: count the bounded. */
	scan(buf, len, len, 1 << 20, KL_ARCH_X86_64, &big, NULL);
	assert_true(big.n > planted / 2);
	for (w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
		memset(&small, 0, sizeof(small));
		fprintf(stderr, "# window %zu\n", windows[w]);
		scan(buf, len, 4093, windows[w], KL_ARCH_X86_64, &small, NULL);
		same(&big, &small, 0);
		for (i = 0; i < small.n; i++)
			assert_true(small.r[i].line == 2);
		free(small.r);
	}
	scan(buf, len, 1, 64, KL_ARCH_X86_64, &tiny, NULL);
	same(&big, &tiny, 0);
	free(tiny.r);
	free(big.r);
	free(buf);
}

/*
 * Big feeds are scanned where they lie, small ones are copied; lines
 * longer than the window are cut either way.  Every feed size gives the
 * findings, line texts and flags of a byte-at-a-time feed.
 */
static void
t_inplace(void **state)
{
	char *buf;
	size_t len = 0, cap = 120000, i, j, w, s;
	size_t windows[] = { 256, 4096 };
	size_t steps[] = { 120000, 4093, 1500, 1024, 1023 };
	struct recs ref, got;

	(void)state;
	buf = malloc(cap);
	assert_non_null(buf);
	for (i = 0; len < cap - 2000; i++) {
		len += (size_t)snprintf(buf + len, cap - len,
		    "[%5zu.%06zu] RIP: ffffffff81%06zx", i, i, i);
		/* Every 7th line outgrows a 256-byte window. */
		for (j = 0; i % 7 == 3 && j < 40; j++)
			len += (size_t)snprintf(buf + len, cap - len,
			    " ffff8880%08zx", i * 40 + j);
		buf[len++] = '\n';
	}
	for (w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
		memset(&ref, 0, sizeof(ref));
		scan(buf, len, 1, windows[w], KL_ARCH_X86_64, &ref, NULL);
		assert_true(ref.n > i);
		for (s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			memset(&got, 0, sizeof(got));
			scan(buf, len, steps[s], windows[w], KL_ARCH_X86_64,
			    &got, NULL);
			same(&ref, &got, 1);
			free(got.r);
		}
		free(ref.r);
	}
	free(buf);
}

/* Over-long alphanumeric and hex runs hold no token, and cost no memory. */
static void
t_long_runs(void **state)
{
	size_t n = 100000, len;
	char *buf = malloc(n + 64);
	struct recs r = {0};
	struct kl_stats st;

	(void)state;
	assert_non_null(buf);
	memset(buf, 'a', n / 2);
	memset(buf + n / 2, 'f', n / 2);
	len = n;
	len += (size_t)snprintf(buf + len, 64, " ffffffff81000000\nx\n");
	scan(buf, len, 999, 64, KL_ARCH_X86_64, &r, &st);
	assert_int_equal(r.n, 1);
	assert_true(r.r[0].line == 1);
	assert_true(r.r[0].column == n + 2);
	assert_true(r.r[0].offset == n + 1);
	assert_true(r.r[0].flags & KL_F_HEAD_CUT);
	assert_true(st.lines == 2);
	free(r.r);
	free(buf);
}

/* Empty input, lone newlines and NUL bytes. */
static void
t_odd_input(void **state)
{
	static const char nul[] = "\0\0ffffffff81000000\0\n\n\n";
	struct recs r = {0};
	struct kl_stats st;

	(void)state;
	scan("", 0, 1, 0, KL_ARCH_X86_64, &r, &st);
	assert_int_equal(r.n, 0);
	assert_true(st.lines == 0);
	scan("\n", 1, 1, 0, KL_ARCH_X86_64, &r, &st);
	assert_true(st.lines == 1);
	scan(nul, sizeof(nul) - 1, 3, 0, KL_ARCH_X86_64, &r, &st);
	assert_int_equal(r.n, 1);
	assert_true(r.r[0].column == 3);
	assert_true(st.lines == 3);
	free(r.r);
}

/*
 * Detection reads a line rsyslog glued behind "#012", whatever the feed
 * size, after a '=' or an A0 (the bytes process() marks for the mail
 * test), and past the first 32 bytes.
 */
static void
t_glued(void **state)
{
	static const char *const logs[] = {
	    "Dec  1 10:00:00 h kernel: x#012CPU features: detected: LSE\n"
	    "[    1.000001] hello\n",
	    "Dec  1 10:00:00 h kernel: a=b#012CPU features: detected: LSE\n",
	    "Dec  1 10:00:00 h kernel: a\xa0#012CPU features: detected: LSE\n",
	    "[    1.000000] 0123456789012345678901234567890123456789 x"
	    "#012CPU features: detected: LSE\n",
	};
	struct recs r = {0};
	struct kl_stats st;
	size_t i, step;

	(void)state;
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
		for (step = 1; step <= 4096; step *= 64) {
			scan(logs[i], strlen(logs[i]), step, 0, KL_ARCH_AUTO,
			    &r, &st);
			assert_int_equal(st.arch, KL_ARCH_ARM64);
		}
	/* Unglued, the same words are no evidence. */
	scan("[    1.000000] x CPU features: detected: LSE\n", 44, 4096, 0,
	    KL_ARCH_AUTO, &r, &st);
	assert_int_not_equal(st.arch, KL_ARCH_ARM64);
	free(r.r);
}

/* A sink that returns non-zero stops the scan. */
static void
t_stop(void **state)
{
	struct recs r = {0};

	(void)state;
	r.stop_after = 2;
	scan(sample, sizeof(sample) - 1, 5, 0, KL_ARCH_X86_64, &r, NULL);
	assert_int_equal(r.n, 2);
	free(r.r);
}

/* Line sink: the first byte of each message shown, in a string. */
static int
first_bytes(void *arg, const struct kl_line *l)
{
	char *seen = arg;
	size_t n = strlen(seen);

	assert_true(n + 1 < 16);
	seen[n] = l->len > l->msg ? (char)l->text[l->msg] : '_';
	seen[n + 1] = '\0';
	return (0);
}

/* Scan buf with line_first (NULL: every line); the lines shown. */
static void
scan_lines(const char *buf, const uint64_t *line_first, char *seen)
{
	struct kl_options o;
	struct kl_error err;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_sink sink;

	memset(&o, 0, sizeof(o));
	o.arch = KL_ARCH_X86_64;
	e = kl_engine_new(&o, &err);
	assert_non_null(e);
	memset(&sink, 0, sizeof(sink));
	seen[0] = '\0';
	sink.arg = seen;
	sink.line = first_bytes;
	sink.line_first = line_first;
	sc = kl_scan_new(e, &sink, &err);
	assert_non_null(sc);
	assert_int_equal(kl_scan_feed(sc, buf, strlen(buf), &err), 0);
	assert_int_equal(kl_scan_end(sc, &err), 0);
	kl_scan_free(sc);
	kl_engine_free(e);
}

/*
 * kl_sink.line_first: only the lines whose message starts with a byte
 * of the set reach the line sink, and the banners always; NULL shows
 * every line.
 */
static void
t_line_first(void **state)
{
	static const char log[] =
	    "[    0.000000] Linux version 6.1.0-18-amd64 (gcc) #1 SMP\n"
	    "[    0.000001] Command line: console=ttyS0 nokaslr\n"
	    "[    0.000002] Kernel command line: console=ttyS0 nokaslr\n"
	    "[    0.000003] x86/fpu: Supporting XSAVE feature 0x001\n"
	    "[    0.000004] \n"
	    "[    0.000005] CPU: 0 PID: 1 Comm: swapper/0\n";
	uint64_t set[4];
	char seen[16];

	(void)state;
	scan_lines(log, NULL, seen);
	assert_string_equal(seen, "LCKx_C");
	/* An empty message has no first byte: only NULL shows it. */
	memset(set, 0xff, sizeof(set));
	scan_lines(log, set, seen);
	assert_string_equal(seen, "LCKxC");
	memset(set, 0, sizeof(set));
	scan_lines(log, set, seen);
	assert_string_equal(seen, "L");
	set['K' / 64] |= (uint64_t)1 << ('K' % 64);
	scan_lines(log, set, seen);
	assert_string_equal(seen, "LK");
	set['C' / 64] |= (uint64_t)1 << ('C' % 64);
	scan_lines(log, set, seen);
	assert_string_equal(seen, "LCKC");
}

/* Boot sink: each segment's lines and offsets, in order. */
struct boots {
	struct kl_boot	 b[4];
	size_t		 n;
};

/* Sink: record a boot event. */
static int
boot_seen(void *arg, const struct kl_boot *b)
{
	struct boots *bs = arg;

	assert_true(bs->n < 4);
	bs->b[bs->n++] = *b;
	return (0);
}

/*
 * kl_boot.first_offset and last_offset: the first byte of a segment's
 * first line and the last byte of its last (its newline, or the last
 * byte of an input that ends without one), for any feed size; the open
 * segment's start is among kl_scan_marks() once it is below settled.
 */
static void
t_boot_offsets(void **state)
{
	static const char log[] =
	    "[    0.000000] Linux version 6.1.0-18-amd64 (gcc) #1 SMP\n"
	    "[    1.000000] one\n"
	    "[    0.000000] Linux version 6.1.0-18-amd64 (gcc) #2 SMP\n"
	    "[    2.000000] two";
	const size_t len = sizeof(log) - 1;
	const uint64_t second = (uint64_t)(strstr(log, "[    0.000000] "
	    "Linux version 6.1.0-18-amd64 (gcc) #2") - log);
	struct kl_options o;
	struct kl_error err;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_sink sink;
	struct boots bs;
	uint64_t marks[KL_SCAN_MARKS];
	size_t step, i, k, n, j;
	int found;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.arch = KL_ARCH_X86_64;
	e = kl_engine_new(&o, &err);
	assert_non_null(e);
	for (step = 1; step <= len; step++) {
		memset(&bs, 0, sizeof(bs));
		memset(&sink, 0, sizeof(sink));
		sink.arg = &bs;
		sink.boot = boot_seen;
		sc = kl_scan_new(e, &sink, &err);
		assert_non_null(sc);
		for (i = 0; i < len; i += k) {
			k = len - i < step ? len - i : step;
			assert_int_equal(kl_scan_feed(sc, log + i, k, &err), 0);
			if (bs.n == 0 || kl_scan_settled(sc) <= second)
				continue;
			n = kl_scan_marks(sc, marks);
			assert_true(n <= KL_SCAN_MARKS);
			for (found = 0, j = 0; j < n; j++)
				found |= marks[j] == second;
			assert_true(found);
		}
		assert_int_equal(kl_scan_end(sc, &err), 0);
		assert_int_equal(bs.n, 2);
		assert_int_equal(bs.b[0].first_line, 1);
		assert_int_equal(bs.b[0].last_line, 2);
		assert_int_equal(bs.b[0].first_offset, 0);
		assert_int_equal(bs.b[0].last_offset, second - 1);
		assert_int_equal(log[bs.b[0].last_offset], '\n');
		assert_int_equal(bs.b[1].first_line, 3);
		assert_int_equal(bs.b[1].last_line, 4);
		assert_int_equal(bs.b[1].first_offset, second);
		assert_int_equal(bs.b[1].last_offset, len - 1);
		kl_scan_free(sc);
	}
	kl_engine_free(e);
}

/*
 * kl_scan_drain(): a line fed in pieces gives its finding at the first
 * drain after its newline, never before, and nothing twice; the end of
 * the unit adds nothing (what a follower sees as records arrive).
 */
static void
t_drain(void **state)
{
	static const char *const lines[] = {
		"[    1.000000] a ffff888012345678\n",
		"[    2.000000] no token here\n",
		"[    3.000000] b ffffffff81000000 c ffff888000001000\n",
	};
	static const size_t want[] = { 1, 1, 3 };
	struct kl_options o;
	struct kl_error err;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_sink sink;
	struct recs rs;
	size_t i, k, n, step;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.arch = KL_ARCH_X86_64;
	e = kl_engine_new(&o, &err);
	assert_non_null(e);
	for (step = 1; step <= 8; step++) {
		memset(&rs, 0, sizeof(rs));
		memset(&sink, 0, sizeof(sink));
		sink.arg = &rs;
		sink.finding = collect;
		sc = kl_scan_new(e, &sink, &err);
		assert_non_null(sc);
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			n = strlen(lines[i]);
			/* All but the newline: nothing new yet. */
			for (k = 0; k < n - 1; k += step) {
				assert_int_equal(kl_scan_feed(sc, lines[i] + k,
				    n - 1 - k < step ? n - 1 - k : step, &err),
				    0);
				assert_int_equal(kl_scan_drain(sc, &err), 0);
				assert_int_equal(rs.n, i == 0 ? 0 : want[i - 1]);
			}
			assert_int_equal(kl_scan_feed(sc, "\n", 1, &err), 0);
			assert_int_equal(kl_scan_drain(sc, &err), 0);
			assert_int_equal(rs.n, want[i]);
			if (i != 1)	/* the second line has no token */
				assert_int_equal(rs.r[rs.n - 1].line, i + 1);
			assert_int_equal(kl_scan_settled(sc),
			    (uint64_t)kl_scan_stats(sc)->bytes);
		}
		assert_int_equal(kl_scan_end(sc, &err), 0);
		assert_int_equal(rs.n, 3);
		assert_true(rs.r[2].value == UINT64_C(0xffff888000001000));
		kl_scan_free(sc);
		free(rs.r);
	}
	kl_engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_feed_sizes),
		cmocka_unit_test(t_long_line),
		cmocka_unit_test(t_inplace),
		cmocka_unit_test(t_long_runs),
		cmocka_unit_test(t_odd_input),
		cmocka_unit_test(t_glued),
		cmocka_unit_test(t_stop),
		cmocka_unit_test(t_line_first),
		cmocka_unit_test(t_boot_offsets),
		cmocka_unit_test(t_drain),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
