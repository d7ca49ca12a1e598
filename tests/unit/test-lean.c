/*
 * test-lean.c - the lean path: the head search (lean.c) finds what a
 * byte-by-byte search finds, with AVX2 and without; and the scanner,
 * which passes over the lines of a decided segment that nothing reads,
 * gives every event and counter it gives when it frames every line, for
 * every log of the tests (and of the corpus, when it is there), fed in
 * one piece and in small pieces, with each kind of line sink.
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
#include "kleak-int.h"
#include "scan-int.h"
#include "lines-harness.h"

struct head {
	const char	*s;
	int		 anywhere;	/* else at a word start only */
};

/* What a head search must answer, the slow way. */
static size_t
next_ref(const struct head *heads, size_t nh, const char *bytes,
    const uint8_t *p, size_t i, size_t n)
{
	size_t k, h, l;
	int ws;

	for (k = i; k < n; k++) {
		if (bytes != NULL && p[k] != '\0' && strchr(bytes, p[k]))
			return (k);
		/* A word starts after a byte that is no letter or digit. */
		ws = k == 0 || !((p[k - 1] >= '0' && p[k - 1] <= '9') ||
		    ((p[k - 1] | 0x20) >= 'a' && (p[k - 1] | 0x20) <= 'z'));
		for (h = 0; h < nh; h++) {
			l = strlen(heads[h].s) < 4 ? strlen(heads[h].s) : 4;
			if (p[k] != (uint8_t)heads[h].s[0] ||
			    (!ws && !heads[h].anywhere))
				continue;
			/* a head the end cuts short counts */
			if (n - k < 4 || memcmp(p + k, heads[h].s, l) == 0)
				return (k);
		}
	}
	return (n);
}

/* A small generator, the same on every run. */
static uint32_t
rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16);
}

static void
t_next_same(void **state)
{
	static const struct head heads[] = {
		{ "BUG: ", 0 }, { "CPU: ", 0 }, { "Kern", 0 }, { "KASL", 0 },
		{ "Linux version ", 0 }, { "=A0", 1 }, { "=c2", 1 },
		{ "Oops", 0 }, { "Unable to handle", 0 }, { "~x", 1 },
		{ "\xc3\xa9t", 0 }, { "stat", 0 }, { "+0x", 1 }, { "pc ", 0 },
	};
	static const char bytes[] = "*\xa0";
	static const char alpha[] = "BCKLOU=*~ acdeinoprstuxABPSU:2\xa0\xc3\xa9"
	    "0123456789[]\n_@`{+";
	struct kl_lean t;
	uint8_t buf[600];
	uint32_t seed = 7;
	size_t h, i, n, end, want;
	int round, hits = 0;

	(void)state;
	kl_lean_init(&t);
	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++)
		assert_int_equal(kl_lean_head(&t, heads[h].s,
		    strlen(heads[h].s), heads[h].anywhere), 0);
	kl_lean_byte(&t, '*');
	kl_lean_byte(&t, 0xa0);
	for (round = 0; round < 6000; round++) {
		/* Some rounds of any byte at all, to try every class. */
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = round % 5 == 4 ? (uint8_t)rnd(&seed) :
			    (uint8_t)alpha[rnd(&seed) % (sizeof(alpha) - 1)];
		/* Sparse heads: most rounds find one far in, or none. */
		if (round % 3 == 0)
			for (i = 0; i < sizeof(buf); i++)
				if (buf[i] == '*' || buf[i] == 0xa0 ||
				    buf[i] == '=' || buf[i] == 'K' ||
				    buf[i] == 'B' || buf[i] == 0xc3 ||
				    buf[i] == '+' || buf[i] == 's' ||
				    buf[i] == 'p')
					buf[i] = 'z';
		i = rnd(&seed) % 100;
		n = i + rnd(&seed) % (sizeof(buf) - i);
		end = n + rnd(&seed) % (sizeof(buf) - n + 1);
		want = next_ref(heads, sizeof(heads) / sizeof(heads[0]), bytes,
		    buf, i, n);
		assert_int_equal(kl_lean_next_scalar(&t, buf, i, n), want);
		assert_int_equal(kl_lean_next(&t, buf, i, n, end), want);
#ifdef KL_AVX2
		if (__builtin_cpu_supports("avx2"))
			assert_int_equal(kl_lean_next_avx2(&t, buf, i, n, end),
			    want);
#endif
		hits += want < n;
	}
	/* Both kinds of round came up. */
	assert_true(hits > 100 && hits < 5900);
}

/* Bytes that share a high nibble, and more than eight nibbles. */
static void
t_buckets(void **state)
{
	static const char *const heads[] = {
		"\x01" "a", "\x11" "b", "!c", "1d", "Ae", "Qf", "ag", "qh",
		"\x81" "i", "\x91" "j",
	};
	struct kl_lean t;
	uint8_t buf[128];
	size_t h, k;

	(void)state;
	kl_lean_init(&t);
	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++)
		(void)kl_lean_head(&t, heads[h], 2, 1);
	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
		for (k = 0; k < 2; k++) {
			memset(buf, 'z', sizeof(buf));
			memcpy(buf + 40 + k * 30, heads[h], 2);
			assert_int_equal(kl_lean_next(&t, buf, 0, sizeof(buf),
			    sizeof(buf)), 40 + k * 30);
			/* The first byte alone is no head. */
			buf[41 + k * 30] = 'z';
			assert_int_equal(kl_lean_next(&t, buf, 0, sizeof(buf),
			    sizeof(buf)), sizeof(buf));
		}
	}
	/* A full table reads every line with the first byte. */
	kl_lean_init(&t);
	for (h = 0; h < KL_LEAN_HEADS; h++)
		assert_int_equal(kl_lean_head(&t, "Qx", 2, 0), 0);
	assert_int_equal(kl_lean_head(&t, "Ry", 2, 0), -1);
	memset(buf, 'z', sizeof(buf));
	buf[90] = 'R';
	assert_int_equal(kl_lean_next(&t, buf, 0, sizeof(buf), sizeof(buf)),
	    90);
}

/* The events of one scan, as text; the heads its line sink acts on. */
struct evs {
	char		*s;
	size_t		 len, cap;
	const char	*heads;
};

static void
ev_add(struct evs *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(e->s + e->len, e->cap - e->len, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if ((size_t)n < e->cap - e->len)
			break;
		e->cap = e->cap * 2 + (size_t)n + 64;
		assert_non_null(e->s = realloc(e->s, e->cap));
	}
	e->len += (size_t)n;
}

static int
on_finding(void *arg, const struct kl_finding *f)
{
	ev_add(arg, "F %llu %llu %llu %llx %d %d %d %d %s %u %u %llu %zu "
	    "%zu %d\n", (unsigned long long)f->line,
	    (unsigned long long)f->column, (unsigned long long)f->offset,
	    (unsigned long long)f->value, f->arch, f->region, f->severity,
	    f->suppressed, f->rule != NULL ? f->rule : "-", f->boot, f->flags,
	    (unsigned long long)f->lcol, f->llen, f->lmsg, f->confidence);
	return (0);
}

/*
 * A sink that keeps its word (kl_sink.line_heads): it acts on a line
 * whose message starts with a head, or with a byte no head starts with.
 */
static int
on_line(void *arg, const struct kl_line *l)
{
	struct evs *e = arg;
	const uint8_t *m = l->text + l->msg;
	const char *h;
	size_t n = l->len - l->msg;
	int first = 0;

	for (h = e->heads; !l->banner && h != NULL && *h != '\0'; h += 4) {
		if (n >= 4 && memcmp(m, h, 4) == 0)
			break;
		first |= n > 0 && m[0] == (uint8_t)h[0];
	}
	if (!l->banner && h != NULL && *h == '\0' && first)
		return (0);
	ev_add(arg, "L %llu %llu %zu %zu %u %d\n", (unsigned long long)l->line,
	    (unsigned long long)l->offset, l->len, l->msg, l->boot,
	    l->banner);
	return (0);
}

static int
on_boot(void *arg, const struct kl_boot *b)
{
	ev_add(arg, "B %u %llu %llu %d %llu %llu\n", b->boot,
	    (unsigned long long)b->first_line,
	    (unsigned long long)b->last_line, b->arch,
	    (unsigned long long)b->first_offset,
	    (unsigned long long)b->last_offset);
	return (0);
}

/* Where the event lines of a and b first differ. */
static size_t
ev_from(const struct evs *a, const struct evs *b)
{
	size_t i = 0, k = 0;

	while (i < a->len && i < b->len && a->s[i] == b->s[i])
		if (a->s[i++] == '\n')
			k = i;
	return (k);
}

/* The length of a's first event line that b lacks. */
static int
ev_diff(const struct evs *a, const struct evs *b)
{
	size_t k = ev_from(a, b), e = k;

	while (e < a->len && a->s[e] != '\n')
		e++;
	return ((int)(e - k));
}

/* The sinks a scan is given: verdict.c's filter, bytes alone, none. */
enum { SINK_HEADS, SINK_BYTES, SINK_NOLINE, SINKS };

struct lean_run {
	struct kl_engine *eng;
	struct evs	 a, b;
	uint64_t	 passed;	/* lines the lean path passed over */
	uint64_t	 lines;
	size_t		 files;
};

/* Scan data with lean on or off, in pieces of step bytes (0: one). */
static uint64_t
scan_once(struct lean_run *r, const uint8_t *data, size_t size, int sink,
    int lean, size_t step, struct evs *out)
{
	static const char heads[] = "KernKERNKASLCommPHYSMemo";
	uint64_t first[4] = { 0, 0, 0, 0 };
	const struct kl_stats *st;
	struct kl_error err;
	struct kl_sink k;
	struct kl_scan *sc;
	uint64_t passed;
	size_t i, n;
	int c;

	out->len = 0;
	if (out->s != NULL)
		out->s[0] = '\0';
	for (c = 'C'; c <= 'P'; c += 'P' - 'C')
		first[c / 64] |= (uint64_t)1 << (c % 64);
	first['K' / 64] |= (uint64_t)1 << ('K' % 64);
	first['M' / 64] |= (uint64_t)1 << ('M' % 64);
	memset(&k, 0, sizeof(k));
	k.arg = out;
	k.finding = on_finding;
	k.boot = on_boot;
	if (sink != SINK_NOLINE) {
		k.line = on_line;
		k.line_first = first;
		k.line_heads = sink == SINK_HEADS ? heads : NULL;
	}
	out->heads = k.line_heads;
	assert_non_null(sc = kl_scan_new(r->eng, &k, &err));
	kl_scan_set_lean(sc, lean);
	if (step == 0)
		step = size > 0 ? size : 1;
	for (i = 0; i < size; i += n) {
		n = size - i < step ? size - i : step;
		assert_int_equal(kl_scan_feed(sc, data + i, n, &err), 0);
	}
	assert_int_equal(kl_scan_end(sc, &err), 0);
	st = kl_scan_stats(sc);
	ev_add(out, "S %llu %llu %llu %llu %llu %u %d\n",
	    (unsigned long long)st->bytes, (unsigned long long)st->lines,
	    (unsigned long long)st->candidates,
	    (unsigned long long)st->findings, (unsigned long long)st->boots,
	    st->unhashed, st->arch);
	passed = kl_scan_lean_lines(sc);
	kl_scan_free(sc);
	return (passed);
}

/* lh_walk(): one file, each way, each sink, in one piece and in bits. */
static void
both_ways_file(void *arg, const char *path)
{
	struct lean_run *r = arg;
	static const size_t steps[] = { 0, 4093 };
	uint8_t *data;
	size_t size, s;
	long len;
	int sink;
	FILE *f;

	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_true((len = ftell(f)) >= 0);
	rewind(f);
	size = (size_t)len;
	assert_non_null(data = malloc(size + 1));
	assert_int_equal(fread(data, 1, size, f), size);
	(void)fclose(f);
	for (sink = 0; sink < SINKS; sink++) {
		for (s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			(void)scan_once(r, data, size, sink, 0, steps[s],
			    &r->a);
			r->passed += scan_once(r, data, size, sink, 1,
			    steps[s], &r->b);
			if (r->a.len != r->b.len ||
			    memcmp(r->a.s, r->b.s, r->a.len) != 0)
				fail_msg("%s: sink %d, step %zu: framing every "
				    "line gave %.*s, the lean path %.*s", path,
				    sink, steps[s], ev_diff(&r->a, &r->b),
				    r->a.s + ev_from(&r->a, &r->b), ev_diff(&r->b,
				    &r->a), r->b.s + ev_from(&r->a, &r->b));
		}
	}
	r->files++;
	free(data);
}

/* The fast engine: the architecture found, or arch from the start. */
static struct kl_engine *
engine(enum kl_arch_id arch)
{
	struct kl_options o;
	struct kl_error err;
	struct kl_engine *e;

	memset(&o, 0, sizeof(o));
	o.engine = KL_ENGINE_FAST;
	o.arch = arch;
	o.suppressed = 1;
	assert_non_null(e = kl_engine_new(&o, &err));
	return (e);
}

static void
t_scan_same(void **state)
{
	static const enum kl_arch_id arch[] = { KL_ARCH_AUTO, KL_ARCH_X86_64 };
	struct lean_run r;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	for (i = 0; i < sizeof(arch) / sizeof(arch[0]); i++) {
		r.eng = engine(arch[i]);
		assert_true(lh_walk(TESTDATA, 1, both_ways_file, &r) >= 5);
		(void)lh_walk(LH_CORPUS, 6, both_ways_file, &r);
		kl_engine_free(r.eng);
	}
	/* The path ran, and read every log the same. */
	assert_true(r.passed > 1000);
	free(r.a.s);
	free(r.b.s);
}

/*
 * Written lines at the path's edges: a clock going back (a new boot), a
 * head in the caller id's place, a head cut by the end of the window, a
 * quoted-printable no-break space, a line too short to frame.
 */
static void
t_edges(void **state)
{
	static const char log[] =
	    "[    0.000000] Linux version 6.1.0 (gcc) #1 SMP x86_64\n"
	    "[    0.000000] x86/fpu: Supporting XSAVE feature 0x001\n"
	    "[   12.000000] plain words here\n"
	    "[   12.000001] RIP: 0010:ffffffff81000000\n"
	    "[   12.000002] more words\n"
	    "[    1.000000] a clock gone back\n"
	    "[    1.000001] Linux version 6.1.0 (gcc) #2 SMP x86_64\n"
	    "[    1.000002] x86/fpu: Supporting XSAVE feature 0x001\n"
	    "[    2.000000][  T123] Kernel Offset: 0x1000000 from 0x\n"
	    "[    2.000001] a=A0no-break\n"
	    "[    2.000002] sh\n"
	    "[    2.000003] ** This system shows unhashed kernel memory\n"
	    "[    3.000000] CPU: 0 PID: 1 Comm: x Not tainted\n"
	    "[    3.000001] Oops\n"
	    "[    3.000002] last words KASL";
	struct lean_run r;
	size_t step;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.eng = engine(KL_ARCH_X86_64);
	for (step = 0; step < 80; step += 7) {
		(void)scan_once(&r, (const uint8_t *)log, sizeof(log) - 1,
		    SINK_HEADS, 0, step, &r.a);
		r.passed += scan_once(&r, (const uint8_t *)log,
		    sizeof(log) - 1, SINK_HEADS, 1, step, &r.b);
		assert_string_equal(r.a.s, r.b.s);
	}
	assert_true(r.passed > 0);
	/* The clock going back made a second boot, both ways. */
	assert_non_null(strstr(r.b.s, "B 1 "));
	free(r.a.s);
	free(r.b.s);
	kl_engine_free(r.eng);
}

/*
 * Undecided segments, where detection reads: a machine named only by
 * systemd, then only behind a quoted-printable no-break space (a mail's
 * copy of the line has a space there, and its message starts with the
 * name), then only in a "+0x" frame.  Without the line the segment has
 * no architecture, and its boot event says so.
 */
static void
t_edges_auto(void **state)
{
	static const char *const logs[] = {
	    "[    1.000000] words\n"
	    "[    1.000001] systemd[1]: Detected architecture x86-64.\n"
	    "[    1.000002] more words\n",
	    "[    1.000000] words\n"
	    "[    1.000001] =A0systemd[1]: Detected architecture x86-64.\n"
	    "[    1.000002] more words\n",
	    "[    1.000000] words\n"
	    "[    1.000001]  el1h_64_sync+0x6c/0x70\n"
	    "[    1.000002] more words\n",
	};
	struct lean_run r;
	size_t i, step;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.eng = engine(KL_ARCH_AUTO);
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		for (step = 0; step < 40; step += 13) {
			(void)scan_once(&r, (const uint8_t *)logs[i],
			    strlen(logs[i]), SINK_HEADS, 0, step, &r.a);
			r.passed += scan_once(&r, (const uint8_t *)logs[i],
			    strlen(logs[i]), SINK_HEADS, 1, step, &r.b);
			assert_string_equal(r.a.s, r.b.s);
		}
		/* The machine was found: the segment is not left unknown. */
		assert_null(strstr(r.b.s, "B 0 1 3 0 "));
	}
	assert_true(r.passed > 0);
	free(r.a.s);
	free(r.b.s);
	kl_engine_free(r.eng);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_next_same),
		cmocka_unit_test(t_buckets),
		cmocka_unit_test(t_edges),
		cmocka_unit_test(t_edges_auto),
		cmocka_unit_test(t_scan_same),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
