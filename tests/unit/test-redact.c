/*
 * test-redact.c - the rewriter behind --redact (lib/redact.c): the
 * output has the input's length and differs only in the digits of the
 * findings the level redacts (zeros, or the keyed hash of %p); pieces
 * of any size give the same bytes, a token across a piece boundary
 * too; the hold limit makes the output flow before the end; a finding
 * whose bytes were already written out is refused; a JSON value made
 * of escapes or byte numbers is rewritten in its raw width.
 *
 * Most cases drive the rewriter as the program does (src/rewrite.c,
 * tests/fuzz/fuzz-redact.c): each piece to kl_redact_data(), then to
 * the scanner, whose findings come back through kl_redact_finding(),
 * then kl_redact_settle() at kl_scan_settled().  Hand-made findings pin
 * the rules the scanner cannot reach (regions, widths, errors).  Hash
 * digits use the key 00..0f of the SipHash paper's vectors; the values
 * (siphash_1u64 masked to 32 bits, siphash_1u32) are test-pk.c's or
 * were computed with an independent Python SipHash-2-4 that reproduces
 * the paper's vectors.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

#define WINDOW	64	/* the scanner's smallest window: it settles often */
#define RIP	"RIP: 0010:ffffffff81234567\n"
#define RIP0	"RIP: 0010:0000000000000000\n"

/* The key of the SipHash reference vectors: bytes 00..0f. */
static const uint8_t key[16] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

/* One rewrite: the bytes written and what happened on the way. */
struct out {
	uint8_t			*buf;
	size_t			 len;
	size_t			 cap;
	size_t			 writes;	/* write callback calls */
	int			 fail;		/* the callback fails: 1 with
						   EPIPE, 2 leaving errno */
	struct kl_redact	*r;
	size_t			 nerr;		/* findings refused */
	struct kl_error		 err;		/* the first one's error */
	size_t			 before_end;	/* written before the end */
	size_t			 max_held;	/* held after settling */
	uint64_t		 changed;	/* tokens rewritten */
};

/* The rewriter's output: append to o, or fail when asked to. */
static int
out_write(void *arg, const void *p, size_t n)
{
	struct out *o = arg;

	if (o->fail) {
		if (o->fail == 1)
			errno = EPIPE;
		return (-1);
	}
	if (n > o->cap - o->len) {
		o->cap = o->len + n + 4096;
		o->buf = realloc(o->buf, o->cap);
		assert_non_null(o->buf);
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	o->writes++;
	return (0);
}

/* Free what a rewrite kept. */
static void
out_free(struct out *o)
{
	kl_redact_free(o->r);
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

/* Assert that o holds exactly the string want. */
static void
out_is(const struct out *o, const char *want)
{
	assert_int_equal(o->len, strlen(want));
	assert_memory_equal(o->buf, want, o->len);
}

/* Make a rewriter of level, style and hold writing into o. */
static void
out_new(struct out *o, int level, enum kl_redact_style style,
    size_t max_hold)
{
	struct kl_redact_opts ro;
	struct kl_error err;

	memset(o, 0, sizeof(*o));
	memset(&ro, 0, sizeof(ro));
	ro.level = level;
	ro.style = style;
	ro.max_hold = max_hold;
	memcpy(ro.key, key, sizeof(ro.key));
	o->r = kl_redact_new(&ro, out_write, o, &err);
	assert_non_null(o->r);
}

/* The scanner's findings go to the rewriter; the first refusal is kept. */
static int
on_finding(void *arg, const struct kl_finding *f)
{
	struct out *o = arg;
	struct kl_error err;

	kl_error_clear(&err);
	if (kl_redact_finding(o->r, f, &err) == -1 && o->nerr++ == 0)
		o->err = err;
	return (0);
}

/* A scanner of arch (suppressed findings too) reporting to o. */
static struct kl_scan *
scanner(enum kl_arch_id arch, struct out *o, struct kl_engine **ep)
{
	struct kl_options opt;
	struct kl_sink sink;
	struct kl_error err;
	struct kl_scan *sc;

	memset(&opt, 0, sizeof(opt));
	opt.arch = arch;
	opt.window = WINDOW;
	opt.suppressed = 1;
	*ep = kl_engine_new(&opt, &err);
	assert_non_null(*ep);
	memset(&sink, 0, sizeof(sink));
	sink.arg = o;
	sink.finding = on_finding;
	sc = kl_scan_new(*ep, &sink, &err);
	assert_non_null(sc);
	return (sc);
}

/*
 * Rewrite in[0..len) at level in style with max_hold, fed step bytes at
 * a time and settled as the program does, into o.
 */
static void
rewrite(const void *in, size_t len, size_t step, enum kl_arch_id arch,
    int level, enum kl_redact_style style, size_t max_hold, struct out *o)
{
	const uint8_t *p = in;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_error err;
	size_t i, k;

	out_new(o, level, style, max_hold);
	sc = scanner(arch, o, &e);
	for (i = 0; i < len; i += k) {
		k = len - i < step ? len - i : step;
		assert_int_equal(kl_redact_data(o->r, p + i, k, &err), 0);
		assert_int_equal(kl_scan_feed(sc, p + i, k, &err), 0);
		assert_int_equal(kl_redact_settle(o->r, kl_scan_settled(sc),
		    &err), 0);
		if (kl_redact_full(o->r)) {
			assert_int_equal(kl_scan_settle(sc), 0);
			assert_int_equal(kl_redact_settle(o->r,
			    kl_scan_settled(sc), &err), 0);
		}
		if (kl_redact_held(o->r) > o->max_held)
			o->max_held = kl_redact_held(o->r);
	}
	o->before_end = o->len;
	assert_int_equal(kl_scan_end(sc, &err), 0);
	assert_int_equal(kl_redact_end(o->r, &err), 0);
	assert_int_equal(kl_redact_held(o->r), 0);
	o->changed = kl_redact_changed(o->r);
	kl_scan_free(sc);
	kl_engine_free(e);
	kl_redact_free(o->r);
	o->r = NULL;
}

/* Rewrite the string s for x86_64, in one piece. */
static void
rewrite_str(const char *s, int level, enum kl_redact_style style,
    struct out *o)
{
	rewrite(s, strlen(s), strlen(s) + 1, KL_ARCH_X86_64, level, style, 0,
	    o);
}

/* A leak of the kernel text: the digits text at unit offset off. */
static void
finding(struct kl_finding *f, const char *text, uint64_t off,
    uint64_t value)
{
	memset(f, 0, sizeof(*f));
	f->line = 1;
	f->offset = off;
	f->value = value;
	f->text = (const uint8_t *)text;
	f->textlen = strlen(text);
	f->region = KL_REGION_TEXT;
	f->severity = KL_SEV_HIGH;
	f->suppressed = KL_SUP_NONE;
}

/* Hold s whole in o's rewriter. */
static void
hold(struct out *o, const char *s)
{
	struct kl_error err;

	assert_int_equal(kl_redact_data(o->r, s, strlen(s), &err), 0);
}

/* Levels other than 2, 3 and 4 are refused; the defaults are taken. */
static void
t_new(void **state)
{
	struct kl_redact_opts ro;
	struct kl_redact *r;
	struct kl_error err;
	char want[64];
	int level;

	(void)state;
	memset(&ro, 0, sizeof(ro));
	for (level = -1; level <= 5; level++) {
		ro.level = level;
		kl_error_clear(&err);
		r = kl_redact_new(&ro, out_write, NULL, &err);
		if (level >= 2 && level <= 4) {
			assert_non_null(r);
			assert_int_equal(kl_redact_held(r), 0);
			assert_int_equal(kl_redact_changed(r), 0);
			/* max_hold 0 is 16 MiB */
			assert_int_equal(kl_redact_full(r), 0);
			kl_redact_free(r);
			continue;
		}
		assert_null(r);
		assert_int_equal(err.code, KL_EINVAL);
		assert_int_equal(err.errnum, 0);
		snprintf(want, sizeof(want), "restriction level %d: must be 2, "
		    "3 or 4", level);
		assert_string_equal(err.msg, want);
	}
	kl_redact_free(NULL);
}

/* Which findings each level rewrites. */
static void
t_wants(void **state)
{
	static const struct {
		enum kl_suppress	 sup;
		enum kl_region		 region;
		int			 want[3];	/* levels 2, 3, 4 */
	} rows[] = {
		{ KL_SUP_NONE, KL_REGION_TEXT, { 1, 1, 1 } },
		{ KL_SUP_NONE, KL_REGION_MODULES, { 1, 1, 1 } },
		{ KL_SUP_NONE, KL_REGION_DIRECT_MAP, { 1, 1, 1 } },
		{ KL_SUP_NONE, KL_REGION_KERNEL, { 1, 1, 1 } },
		{ KL_SUP_NONE, KL_REGION_LAYOUT, { 0, 0, 1 } },
		{ KL_SUP_NONE, KL_REGION_PHYSICAL, { 0, 0, 1 } },
		{ KL_SUP_HASHED, KL_REGION_NONE, { 0, 1, 1 } },
		{ KL_SUP_NOT_KERNEL, KL_REGION_NONE, { 0, 0, 0 } },
		{ KL_SUP_NULL, KL_REGION_NONE, { 0, 0, 0 } },
		{ KL_SUP_ERR_PTR, KL_REGION_NONE, { 0, 0, 0 } },
		{ KL_SUP_HOLE, KL_REGION_NONE, { 0, 0, 0 } },
		{ KL_SUP_CONSTANT, KL_REGION_NONE, { 0, 0, 0 } },
		{ KL_SUP_HEXDUMP, KL_REGION_NONE, { 0, 0, 0 } },
	};
	struct kl_redact_opts ro;
	struct kl_finding f;
	size_t i;
	int level;

	(void)state;
	memset(&ro, 0, sizeof(ro));
	finding(&f, "ffffffff81234567", 0, 0xffffffff81234567ULL);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		for (level = 2; level <= 4; level++) {
			ro.level = level;
			f.suppressed = rows[i].sup;
			f.region = rows[i].region;
			if (kl_redact_wants(&ro, &f) != rows[i].want[level - 2])
				fail_msg("row %zu level %d: wants %d", i, level,
				    !rows[i].want[level - 2]);
		}
}

/* Level 2 writes zeros over exactly the digits, in the token's width. */
static void
t_zero_digits(void **state)
{
	static const char in[] =
	    "RIP: 0010:ffffffff81234567\n"	/* 16 digits at 10 */
	    "EIP: c1234567 x\n"			/* 8 digits at 32 */
	    "odd ffff81234567 FFFFFFFF81000000\n";	/* 12 at 47, 16 at 60 */
	struct kl_finding f;
	struct kl_error err;
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	hold(&o, in);
	finding(&f, in + 10, 10, 0xffffffff81234567ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_where(o.r), 10);
	finding(&f, in + 32, 32, 0xc1234567);
	f.textlen = 8;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	finding(&f, in + 47, 47, 0xffff81234567ULL);
	f.textlen = 12;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	finding(&f, in + 60, 60, 0xffffffff81000000ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_where(o.r), 60);
	assert_int_equal(kl_redact_changed(o.r), 4);
	/* nothing is written before the caller settles */
	assert_int_equal(o.writes, 0);
	assert_int_equal(kl_redact_held(o.r), sizeof(in) - 1);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o,
	    "RIP: 0010:0000000000000000\n"
	    "EIP: 00000000 x\n"
	    "odd 000000000000 0000000000000000\n");
	out_free(&o);
}

/* The scanner's findings in oops lines: only the kernel addresses. */
static void
t_scan_lines(void **state)
{
	static const char in[] =
	    "[   29.368305] RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246\n"
	    "[   29.368305] RAX: 0000000000001000 RBX: 0000565192a027e0 "
	    "RCX: 0000000000000001\n"
	    "[   29.368305] R10: ffff993fa4e1c848 R11: 0000000000000000 "
	    "R12: 0000000000000000\n"
	    "[   29.368305] FS:  00007f6fd6733500(0000) "
	    "GS:ffff993fa4e00000(0000) knlGS:0000000000000000\n"
	    "[   29.368305] RIP: 0010:urandom_read+0x268/0x480\n";
	static const char want[] =
	    "[   29.368305] RSP: 0018:0000000000000000 EFLAGS: 00010246\n"
	    "[   29.368305] RAX: 0000000000001000 RBX: 0000565192a027e0 "
	    "RCX: 0000000000000001\n"
	    "[   29.368305] R10: 0000000000000000 R11: 0000000000000000 "
	    "R12: 0000000000000000\n"
	    "[   29.368305] FS:  00007f6fd6733500(0000) "
	    "GS:0000000000000000(0000) knlGS:0000000000000000\n"
	    "[   29.368305] RIP: 0010:urandom_read+0x268/0x480\n";
	struct out o;
	int arch;

	(void)state;
	for (arch = 0; arch < 2; arch++) {
		rewrite(in, sizeof(in) - 1, 1,
		    arch ? KL_ARCH_X86_64 : KL_ARCH_AUTO, 2, KL_REDACT_ZERO, 0,
		    &o);
		out_is(&o, want);
		assert_int_equal(o.changed, 3);
		assert_int_equal(o.nerr, 0);
		out_free(&o);
	}
}

/* Lines without a finding the level wants pass through unchanged. */
static void
t_unchanged(void **state)
{
	static const char *const in[] = {
		"[    0.000000] Linux version 5.4.0-1051-fips\n",
		"[   29.368305] RIP: 0010:urandom_read+0x268/0x480\n",
		/* user addresses, a hashed %p, NULL: suppressed */
		"RBX: 0000565192a027e0 ptr 00000000deadbeef CR2: "
		"0000000000000000\n",
		"no newline at the end: 0x0",
	};
	struct out o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		rewrite_str(in[i], 2, KL_REDACT_ZERO, &o);
		out_is(&o, in[i]);
		assert_int_equal(o.changed, 0);
		assert_int_equal(o.nerr, 0);
		out_free(&o);
	}
}

/* Empty input: nothing written, the write callback never called. */
static void
t_empty(void **state)
{
	struct kl_error err;
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	assert_int_equal(kl_redact_data(o.r, NULL, 0, &err), 0);
	assert_int_equal(kl_redact_held(o.r), 0);
	assert_int_equal(kl_redact_settle(o.r, 100, &err), 0);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	assert_int_equal(o.writes, 0);
	assert_int_equal(o.len, 0);
	assert_int_equal(kl_redact_changed(o.r), 0);
	out_free(&o);
	rewrite("", 0, 1, KL_ARCH_AUTO, 2, KL_REDACT_ZERO, 0, &o);
	assert_int_equal(o.writes, 0);
	assert_int_equal(o.len, 0);
	out_free(&o);
}

/* Read the file at path whole. */
static char *
slurp(const char *path, size_t *np)
{
	FILE *fp;
	char *b;
	long n;

	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
	b[n] = '\0';
	fclose(fp);
	*np = (size_t)n;
	return (b);
}

/* Write zeros over the one place the digits s are in b. */
static void
zero_once(char *b, const char *s)
{
	char *p;

	p = strstr(b, s);
	assert_non_null(p);
	assert_null(strstr(p + 1, s));
	memset(p, '0', strlen(s));
}

/*
 * The sample oops: its five kernel addresses zeroed, every other byte
 * kept, whatever the piece size and with or without detection.
 */
static void
t_sample(void **state)
{
	static const size_t steps[] = { 1, 2, 3, 7, 63, 64, 65, 1000, 4096 };
	char *in, *want;
	struct out o;
	size_t n, i;
	int arch;

	(void)state;
	in = slurp(SRCDATA "/sample-x86_64-oops.log", &n);
	want = strdup(in);
	assert_non_null(want);
	zero_once(want, "ffffb0a1c1d37d98");
	zero_once(want, "ffffb0a1c1d37dc0");
	zero_once(want, "ffff8e4a3fd2a1c0");
	zero_once(want, "ffffb0a1c1d37e60");
	zero_once(want, "ffff8e4a3fd80000");
	for (arch = 0; arch < 2; arch++)
		for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			rewrite(in, n, steps[i],
			    arch ? KL_ARCH_X86_64 : KL_ARCH_AUTO, 2,
			    KL_REDACT_ZERO, 0, &o);
			assert_int_equal(o.len, n);
			assert_memory_equal(o.buf, want, n);
			assert_int_equal(o.changed, 5);
			assert_int_equal(o.nerr, 0);
			out_free(&o);
		}
	free(want);
	free(in);
}

/* A token across a piece boundary, cut at every byte. */
static void
t_token_split(void **state)
{
	static const char in[] = "a\n" RIP "b\n";
	static const char want[] = "a\n" RIP0 "b\n";
	struct kl_finding f;
	struct kl_error err;
	struct out o;
	size_t cut, n = sizeof(in) - 1;
	int arch;

	(void)state;
	/* by hand: the first half written out before the finding */
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	assert_int_equal(kl_redact_data(o.r, in, 20, &err), 0);
	assert_int_equal(kl_redact_settle(o.r, 12, &err), 0);
	assert_int_equal(o.len, 12);
	assert_int_equal(kl_redact_data(o.r, in + 20, n - 20, &err), 0);
	finding(&f, in + 12, 12, 0xffffffff81234567ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, want);
	out_free(&o);
	/* through the scanner, in two pieces cut anywhere */
	for (arch = 0; arch < 2; arch++)
		for (cut = 1; cut < n; cut++) {
			rewrite(in, n, cut, arch ? KL_ARCH_X86_64 :
			    KL_ARCH_AUTO, 2, KL_REDACT_ZERO, 0, &o);
			out_is(&o, want);
			assert_int_equal(o.changed, 1);
			out_free(&o);
		}
}

/* Level 3 adds hashed %p values; level 4 layout and physical too. */
static void
t_levels(void **state)
{
	static const char in[] = "ptr 00000000deadbeef here\n" RIP;
	static const char phys[] = "phys 000000012345f000\n";
	struct kl_finding f;
	struct kl_error err;
	struct out o;
	int level;

	(void)state;
	rewrite_str(in, 2, KL_REDACT_ZERO, &o);
	out_is(&o, "ptr 00000000deadbeef here\n" RIP0);
	assert_int_equal(o.changed, 1);
	out_free(&o);
	rewrite_str(in, 3, KL_REDACT_ZERO, &o);
	out_is(&o, "ptr 0000000000000000 here\n" RIP0);
	assert_int_equal(o.changed, 2);
	out_free(&o);
	for (level = 2; level <= 4; level++) {
		out_new(&o, level, KL_REDACT_ZERO, 0);
		hold(&o, phys);
		finding(&f, phys + 5, 5, 0x12345f000ULL);
		f.textlen = 16;
		f.region = KL_REGION_PHYSICAL;
		f.severity = KL_SEV_LOW;
		assert_int_equal(kl_redact_finding(o.r, &f, &err),
		    level == 4);
		assert_int_equal(kl_redact_end(o.r, &err), 0);
		out_is(&o, level == 4 ? "phys 0000000000000000\n" : phys);
		out_free(&o);
	}
}

/* The hash style: what %p prints under the key, in the token's case. */
static void
t_hash(void **state)
{
	static const char in[] =
	    "a ffffffff81000000\n"		/* 2 */
	    "b FFFFFFFF81000000\n"		/* 21 */
	    "c c1000000\n"			/* 40 */
	    "d ffff81000000\n";			/* 51 */
	struct kl_finding f;
	struct kl_error err;
	uint8_t d[16];
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_HASH, 0);
	hold(&o, in);
	/* siphash_1u64(0xffffffff81000000) = 0x96f597db48ef57c6 */
	finding(&f, in + 2, 2, 0xffffffff81000000ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_digits(o.r, &f, d), 1);
	assert_memory_equal(d, "0000000048ef57c6", 16);
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	finding(&f, in + 21, 21, 0xffffffff81000000ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	/* siphash_1u32(0xc1000000) = 0x756b1ff5cf2ce6b6 */
	finding(&f, in + 40, 40, 0xc1000000);
	f.textlen = 8;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	/* no pointer width: zeros */
	finding(&f, in + 51, 51, 0xffff81000000ULL);
	f.textlen = 12;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o,
	    "a 0000000048ef57c6\n"
	    "b 0000000048EF57C6\n"
	    "c cf2ce6b6\n"
	    "d 000000000000\n");
	/* a finding the level does not want: no digits */
	f.suppressed = KL_SUP_NOT_KERNEL;
	memset(d, 'x', sizeof(d));
	assert_int_equal(kl_redact_digits(o.r, &f, d), 0);
	assert_int_equal(d[0], 'x');
	out_free(&o);
	/* the scanner's finding: siphash_1u64() is 0xe7f9d4b10d03f6c8 */
	rewrite_str(RIP, 2, KL_REDACT_HASH, &o);
	out_is(&o, "RIP: 0010:000000000d03f6c8\n");
	out_free(&o);
}

/* Held bytes: more than max_hold is full; settling writes them out. */
static void
t_hold_limit(void **state)
{
	static const char in[] = "RIP: 0010:ffffffff81234567\n";
	struct kl_error err;
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 16);
	assert_int_equal(kl_redact_data(o.r, in, 16, &err), 0);
	assert_int_equal(kl_redact_held(o.r), 16);
	assert_int_equal(kl_redact_full(o.r), 0);
	assert_int_equal(kl_redact_data(o.r, in + 16, 1, &err), 0);
	assert_int_equal(kl_redact_held(o.r), 17);
	assert_int_equal(kl_redact_full(o.r), 1);
	assert_int_equal(o.writes, 0);
	assert_int_equal(kl_redact_settle(o.r, 10, &err), 0);
	assert_int_equal(kl_redact_held(o.r), 7);
	assert_int_equal(kl_redact_full(o.r), 0);
	assert_int_equal(o.len, 10);
	assert_memory_equal(o.buf, "RIP: 0010:", 10);
	/* settling below what was written does nothing */
	assert_int_equal(kl_redact_settle(o.r, 4, &err), 0);
	assert_int_equal(kl_redact_settle(o.r, 10, &err), 0);
	assert_int_equal(o.writes, 1);
	/* settling past what is held writes what is held */
	assert_int_equal(kl_redact_settle(o.r, 1000, &err), 0);
	assert_int_equal(o.len, 17);
	assert_int_equal(kl_redact_held(o.r), 0);
	assert_int_equal(kl_redact_data(o.r, in + 17, sizeof(in) - 18, &err),
	    0);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, in);
	out_free(&o);
}

/*
 * Through the scanner without a fixed architecture, its first token
 * waits for detection and so does the output; a hold makes it flow.
 */
static void
t_hold_scan(void **state)
{
	static const char line[] = "[   29.368305] R10: ffff993fa4e1c848 "
	    "R11: 0000000000000000\n";
	static const char zline[] = "[   29.368305] R10: 0000000000000000 "
	    "R11: 0000000000000000\n";
	char in[sizeof(line) * 8], want[sizeof(zline) * 8];
	struct out o;
	size_t n = sizeof(line) - 1, i;

	(void)state;
	for (i = 0; i < 8; i++) {
		memcpy(in + i * n, line, n);
		memcpy(want + i * n, zline, n);
	}
	in[8 * n] = want[8 * n] = '\0';
	rewrite(in, 8 * n, 1, KL_ARCH_AUTO, 2, KL_REDACT_ZERO, 0, &o);
	out_is(&o, want);
	assert_int_equal(o.changed, 8);
	/* held from the first token (at 20) until the end */
	assert_int_equal(o.before_end, 20);
	out_free(&o);
	rewrite(in, 8 * n, 1, KL_ARCH_AUTO, 2, KL_REDACT_ZERO, 64, &o);
	out_is(&o, want);
	assert_int_equal(o.changed, 8);
	assert_int_equal(o.nerr, 0);
	/*
	 * The output flowed: once detection is forced nothing waits for
	 * it, the scanner's window is all that is held, and every line but
	 * the last went out before the end.
	 */
	assert_true(o.max_held <= WINDOW);
	assert_true(o.before_end >= 7 * n);
	out_free(&o);
}

/* A finding whose bytes were written out, or are not held yet. */
static void
t_not_held(void **state)
{
	static const char in[] = "x\n" RIP;
	struct kl_finding f;
	struct kl_error err;
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	hold(&o, "x\nRIP: 0010:ffffffff8123456");	/* 27 of 29 bytes */
	finding(&f, in + 12, 12, 0xffffffff81234567ULL);
	f.textlen = 16;
	/* its last digit not held yet */
	kl_error_clear(&err);
	assert_int_equal(kl_redact_finding(o.r, &f, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, "token at byte 12 is not held by the "
	    "rewriter");
	hold(&o, in + 27);
	/* its first digit already written */
	assert_int_equal(kl_redact_settle(o.r, 13, &err), 0);
	kl_error_clear(&err);
	assert_int_equal(kl_redact_finding(o.r, &f, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_int_equal(err.errnum, 0);
	assert_string_equal(err.msg, "token at byte 12 is not held by the "
	    "rewriter");
	assert_int_equal(kl_redact_changed(o.r), 0);
	/* not wanted: no error, whether held or not */
	f.suppressed = KL_SUP_NOT_KERNEL;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 0);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, in);
	out_free(&o);
}

/*
 * A caller that settles past kl_scan_settled() (the first token still
 * waits for detection): every finding comes too late and is refused,
 * and the output is the input unchanged.
 */
static void
t_settle_too_far(void **state)
{
	static const char in[] = "a\n" RIP "b\n" RIP;
	struct kl_engine *e;
	struct kl_scan *sc;
	struct kl_error err;
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	sc = scanner(KL_ARCH_AUTO, &o, &e);
	hold(&o, in);
	assert_int_equal(kl_scan_feed(sc, in, sizeof(in) - 1, &err), 0);
	assert_int_equal(kl_scan_settled(sc), 0);
	assert_int_equal(kl_redact_settle(o.r, sizeof(in) - 1, &err), 0);
	assert_int_equal(kl_scan_end(sc, &err), 0);
	assert_int_equal(o.nerr, 2);
	assert_int_equal(o.err.code, KL_EINVAL);
	assert_string_equal(o.err.msg, "token at byte 12 is not held by the "
	    "rewriter");
	assert_int_equal(kl_redact_changed(o.r), 0);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, in);
	kl_scan_free(sc);
	kl_engine_free(e);
	out_free(&o);
}

/* A write that fails is an I/O error; the bytes stay held. */
static void
t_write_error(void **state)
{
	struct kl_error err;
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	hold(&o, RIP);
	o.fail = 1;
	kl_error_clear(&err);
	assert_int_equal(kl_redact_settle(o.r, 5, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, EPIPE);
	assert_string_equal(err.msg, "cannot write the output");
	assert_int_equal(kl_redact_held(o.r), sizeof(RIP) - 1);
	kl_error_clear(&err);
	assert_int_equal(kl_redact_end(o.r, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	/* a callback that leaves errno alone: EIO, not a stale errno */
	o.fail = 2;
	errno = ENOENT;
	kl_error_clear(&err);
	assert_int_equal(kl_redact_settle(o.r, 5, &err), -1);
	assert_int_equal(err.code, KL_EIO);
	assert_int_equal(err.errnum, EIO);
	o.fail = 0;
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, RIP);
	out_free(&o);
}

/* A new unit starts at offset 0 with no token counted. */
static void
t_reset(void **state)
{
	struct kl_finding f;
	struct kl_error err;
	struct out o;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	/* written bytes dropped: the held ones start past offset 0 */
	hold(&o, "x\n");
	assert_int_equal(kl_redact_settle(o.r, 2, &err), 0);
	hold(&o, RIP);
	finding(&f, "ffffffff81234567", 12, 0xffffffff81234567ULL);
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	kl_redact_reset(o.r);
	assert_int_equal(kl_redact_changed(o.r), 0);
	assert_int_equal(kl_redact_held(o.r), 0);
	assert_int_equal(kl_redact_where(o.r), 0);
	hold(&o, RIP);
	finding(&f, "ffffffff81234567", 10, 0xffffffff81234567ULL);
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_where(o.r), 10);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, "x\n" RIP0 RIP0);
	out_free(&o);
}

/* kl_redact_hold() gives the held bytes; kl_redact_count() counts. */
static void
t_hold_count(void **state)
{
	struct kl_error err;
	uint64_t base = 99;
	size_t len = 99;
	struct out o;
	uint8_t *b;

	(void)state;
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	hold(&o, "x\n" RIP);
	assert_int_equal(kl_redact_settle(o.r, 2, &err), 0);
	b = kl_redact_hold(o.r, 12, 16, &base, &len);
	assert_non_null(b);
	assert_int_equal(base, 2);
	assert_int_equal(len, sizeof(RIP) - 1);
	assert_memory_equal(b, RIP, len);
	memset(b + 10, '0', 16);
	kl_redact_count(o.r, 12);
	assert_int_equal(kl_redact_changed(o.r), 1);
	assert_int_equal(kl_redact_where(o.r), 12);
	/* below the written, past the held */
	assert_null(kl_redact_hold(o.r, 1, 1, &base, &len));
	assert_null(kl_redact_hold(o.r, 12, 18, &base, &len));
	assert_non_null(kl_redact_hold(o.r, 29, 0, &base, &len));
	assert_null(kl_redact_hold(o.r, 30, 0, &base, &len));
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, "x\n" RIP0);
	out_free(&o);
}

/* The JSON run: the stream's parser, the scanner and the rewriter. */
struct jrun {
	struct out	*o;
	struct kl_scan	*sc;
};

/* A journal entry: scan its fields as records. */
static int
on_jentry(void *arg, const struct kl_jentry *e)
{
	struct jrun *j = arg;
	struct kl_record rec;
	struct kl_error err;
	size_t i;

	for (i = 0; i < e->nfields; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.offset = e->fields[i].offset;
		rec.entry = e->index;
		rec.field = e->fields[i].name;
		rec.exact = e->fields[i].exact;
		assert_int_equal(kl_scan_record_begin(j->sc, &rec, &err), 0);
		assert_int_equal(kl_scan_feed(j->sc, e->fields[i].data,
		    e->fields[i].len, &err), 0);
		assert_int_equal(kl_scan_record_end(j->sc, &err), 0);
	}
	return (0);
}

/* Rewrite the journal JSON s at level 2, held whole, into o. */
static void
rewrite_json(const char *s, struct out *o)
{
	struct kl_journal_ops ops;
	struct kl_journal *jr;
	struct kl_engine *e;
	struct kl_error err;
	struct jrun j;

	out_new(o, 2, KL_REDACT_ZERO, 0);
	j.o = o;
	j.sc = scanner(KL_ARCH_X86_64, o, &e);
	memset(&ops, 0, sizeof(ops));
	ops.arg = &j;
	ops.entry = on_jentry;
	jr = kl_journal_new(KL_UNIT_JSON, &ops, &err);
	assert_non_null(jr);
	hold(o, s);
	assert_int_equal(kl_journal_feed(jr, s, strlen(s), &err), 0);
	assert_int_equal(kl_journal_end(jr, &err), 0);
	assert_int_equal(kl_scan_end(j.sc, &err), 0);
	assert_int_equal(kl_redact_end(o->r, &err), 0);
	o->changed = kl_redact_changed(o->r);
	kl_journal_free(jr);
	kl_scan_free(j.sc);
	kl_engine_free(e);
}

/*
 * JSON values that are not the stream's bytes: an escaped string keeps
 * its escapes, a byte array gets its numbers written again in their
 * width; a token made by \u escapes is refused.
 */
static void
t_json(void **state)
{
	struct out o;

	(void)state;
	rewrite_json("{\"MESSAGE\":\"a\\tRIP: 0010:ffffffff81234567\\n\"}\n",
	    &o);
	out_is(&o, "{\"MESSAGE\":\"a\\tRIP: 0010:0000000000000000\\n\"}\n");
	assert_int_equal(o.changed, 1);
	assert_int_equal(kl_redact_where(o.r), 25);
	assert_int_equal(o.nerr, 0);
	out_free(&o);
	/* "at ffffffff81000000" as journalctl writes invalid UTF-8 */
	rewrite_json("{\"MESSAGE\":[97,116,32,102,102,102,102,102,102,102,102,"
	    "56,49,48,48,48,48,48,48]}\n", &o);
	out_is(&o, "{\"MESSAGE\":[97,116,32,48,48,48,48,48,48,48,48,48,48,48,"
	    "48,48,48,48,48        ]}\n");
	assert_int_equal(o.changed, 1);
	assert_int_equal(o.nerr, 0);
	out_free(&o);
	rewrite_json("{\"MESSAGE\":\"RIP: 0010:\\u0066fffffff81234567\"}\n",
	    &o);
	assert_int_equal(o.nerr, 1);
	assert_int_equal(o.err.code, KL_EFORMAT);
	assert_int_equal(o.err.line, 1);
	assert_string_equal(o.err.msg, "cannot rewrite a value made by JSON "
	    "escapes");
	out_is(&o, "{\"MESSAGE\":\"RIP: 0010:\\u0066fffffff81234567\"}\n");
	assert_int_equal(o.changed, 0);
	out_free(&o);
}

/* A JSON value must be held from the byte before it on. */
static void
t_json_not_held(void **state)
{
	static const char in[] = "{\"MESSAGE\":\"RIP: 0010:ffffffff81234567"
	    "\\n\"}\n";
	struct kl_record rec;
	struct kl_finding f;
	struct kl_error err;
	struct out o;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	rec.offset = 12;
	rec.field = "MESSAGE";
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	hold(&o, in);
	finding(&f, in + 22, 22, 0xffffffff81234567ULL);
	f.textlen = 16;
	f.record = &rec;
	/* the value's quote written out */
	assert_int_equal(kl_redact_settle(o.r, 12, &err), 0);
	kl_error_clear(&err);
	assert_int_equal(kl_redact_finding(o.r, &f, &err), -1);
	assert_int_equal(err.code, KL_EINVAL);
	assert_string_equal(err.msg, "JSON value at byte 12 is not held by "
	    "the rewriter");
	assert_int_equal(kl_redact_changed(o.r), 0);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, in);
	out_free(&o);
	/* held from the quote on: rewritten */
	out_new(&o, 2, KL_REDACT_ZERO, 0);
	hold(&o, in);
	assert_int_equal(kl_redact_settle(o.r, 11, &err), 0);
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_where(o.r), 22);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, "{\"MESSAGE\":\"RIP: 0010:0000000000000000\\n\"}\n");
	out_free(&o);
}

/* Make a deslide rewriter (level 2, the rest in style) writing into o. */
static void
out_deslide(struct out *o, enum kl_redact_style style, size_t max_hold)
{
	struct kl_redact_opts ro;
	struct kl_error err;

	memset(o, 0, sizeof(*o));
	memset(&ro, 0, sizeof(ro));
	ro.level = 2;
	ro.style = style;
	ro.max_hold = max_hold;
	ro.deslide = 1;
	memcpy(ro.key, key, sizeof(ro.key));
	o->r = kl_redact_new(&ro, out_write, o, &err);
	assert_non_null(o->r);
}

/* The tokens kl_redact_resolve() told of, in order. */
struct told {
	size_t			 n;
	struct kl_redact_token	 t[8];
	char			 text[8][17];
};

/* kl_redact_resolve()'s callback: keep a copy of the token. */
static void
tell(void *arg, const struct kl_redact_token *t)
{
	struct told *k = arg;

	assert_true(k->n < 8);
	k->t[k->n] = *t;
	assert_true(t->textlen < 17);
	memcpy(k->text[k->n], t->text, t->textlen);
	k->text[k->n][t->textlen] = '\0';
	k->t[k->n].text = NULL;
	k->n++;
}

/* The image of a boot at slide 0x4200000 of Debian's 6.1 map slice. */
static const struct kl_redact_image img4200 = {
	1, 0x4200000, 0xffffffff85200000ULL, 0xffffffff86e1b000ULL
};

/*
 * deslide: image addresses wait for their boot (nothing from the first
 * on is written), then go out as the link-time value in the token's
 * width and case; the rest goes in the style of the rest; the slide
 * itself is written as 0 at once.
 */
static void
t_deslide(void **state)
{
	static const char in[] =
	    "[<ffffffff85563fa0>] do_sys_openat2+0x0/0x170\n"	/* 2 */
	    "RSP: ffffa667c016fe48 R: FFFFFFFF85C01CB0\n"	/* 51, 71 */
	    "mod ffffffffc0a3e000 end ffffffff86e1b000\n"	/* 92, 113 */
	    "Kernel Offset: 0x4200000 from 0xffffffff81000000\n";
	struct kl_finding f;
	struct kl_error err;
	struct told k;
	struct out o;

	(void)state;
	memset(&k, 0, sizeof(k));
	out_deslide(&o, KL_REDACT_ZERO, 0);
	hold(&o, in);
	finding(&f, in + 2, 2, 0xffffffff85563fa0ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 51, 51, 0xffffa667c016fe48ULL);
	f.textlen = 16;
	f.region = KL_REGION_VMALLOC;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 71, 71, 0xffffffff85c01cb0ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 92, 92, 0xffffffffc0a3e000ULL);
	f.textlen = 16;
	f.region = KL_REGION_MODULES;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 113, 113, 0xffffffff86e1b000ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	/* The slide: zeros at once, at every level. */
	finding(&f, in + 147, 147, 0x4200000);
	f.textlen = 7;
	f.region = KL_REGION_LAYOUT;
	f.flags = KL_F_SLIDE;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 1);
	assert_int_equal(kl_redact_waiting(o.r), 5);
	assert_int_equal(kl_redact_changed(o.r), 1);
	/* Nothing from the first waiting token on goes out. */
	assert_int_equal(kl_redact_settle(o.r, sizeof(in) - 1, &err), 0);
	out_is(&o, "[<");
	assert_false(kl_redact_full(o.r));
	assert_int_equal(kl_redact_resolve(o.r, &img4200, tell, &k, &err), 0);
	assert_int_equal(kl_redact_waiting(o.r), 0);
	assert_int_equal(kl_redact_changed(o.r), 6);
	assert_int_equal(k.n, 5);
	assert_int_equal(k.t[0].how, KL_REDACT_HOW_DESLIDE);
	assert_true(k.t[0].link == 0xffffffff81363fa0ULL);
	assert_true(k.t[0].offset == 2);
	assert_string_equal(k.text[0], "ffffffff85563fa0");
	assert_int_equal(k.t[1].how, KL_REDACT_HOW_ZERO);
	assert_int_equal(k.t[1].region, KL_REGION_VMALLOC);
	assert_int_equal(k.t[2].how, KL_REDACT_HOW_DESLIDE);
	assert_int_equal(k.t[3].how, KL_REDACT_HOW_ZERO);
	/* _end is past the image. */
	assert_int_equal(k.t[4].how, KL_REDACT_HOW_ZERO);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o,
	    "[<ffffffff81363fa0>] do_sys_openat2+0x0/0x170\n"
	    "RSP: 0000000000000000 R: FFFFFFFF81A01CB0\n"
	    "mod 0000000000000000 end 0000000000000000\n"
	    "Kernel Offset: 0x0000000 from 0xffffffff81000000\n");
	out_free(&o);
}

/*
 * deslide: a boot whose slide is not known writes its waiting tokens
 * in the style of the rest (the hash keeps equal pointers equal); no
 * map (hi 0): only region text from the image's start is de-slid; a
 * unit that ends with tokens waiting writes them as the rest, never as
 * they were; kl_redact_digits_as() decides at once.
 */
static void
t_deslide_rest(void **state)
{
	static const char in[] = "a ffffffff85563fa0 b ffff888003a1c000 "
	    "c ffff888003a1c000 d ffffffff85000000\n";
	static const struct kl_redact_image nomap = {
		1, 0x4200000, 0xffffffff85000000ULL, 0
	}, none = { 0, 0, 0, 0 };
	struct kl_finding f;
	struct kl_error err;
	struct out o;
	uint8_t d[16];
	enum kl_redact_how how;
	char h[17];

	(void)state;
	out_deslide(&o, KL_REDACT_HASH, 0);
	hold(&o, in);
	finding(&f, in + 2, 2, 0xffffffff85563fa0ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 21, 21, 0xffff888003a1c000ULL);
	f.textlen = 16;
	f.region = KL_REGION_DIRECT_MAP;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 40, 40, 0xffff888003a1c000ULL);
	f.textlen = 16;
	f.region = KL_REGION_DIRECT_MAP;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	assert_int_equal(kl_redact_resolve(o.r, &none, NULL, NULL, &err), 0);
	assert_int_equal(kl_pk_hash_digits(0xffffffff85563fa0ULL, key, 64, h),
	    16);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	assert_memory_equal(o.buf + 2, h, 16);
	assert_memory_equal(o.buf + 21, o.buf + 40, 16);
	assert_memory_equal(o.buf + 21, "00000000", 8);
	assert_memory_not_equal(o.buf + 21, h, 16);
	out_free(&o);

	/* No map: region text from lo on. */
	out_deslide(&o, KL_REDACT_ZERO, 0);
	hold(&o, in);
	finding(&f, in + 2, 2, 0xffffffff85563fa0ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 21, 21, 0xffff888003a1c000ULL);
	f.textlen = 16;
	f.region = KL_REGION_DIRECT_MAP;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	finding(&f, in + 59, 59, 0xffffffff85000000ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	assert_int_equal(kl_redact_resolve(o.r, &nomap, NULL, NULL, &err), 0);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, "a ffffffff81363fa0 b 0000000000000000 "
	    "c ffff888003a1c000 d ffffffff80e00000\n");
	out_free(&o);

	/* Still waiting at the end: the rest style. */
	out_deslide(&o, KL_REDACT_ZERO, 0);
	hold(&o, in);
	finding(&f, in + 2, 2, 0xffffffff85563fa0ULL);
	f.textlen = 16;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	assert_memory_equal(o.buf, "a 0000000000000000 b", 20);
	assert_int_equal(kl_redact_changed(o.r), 1);

	/* At once. */
	finding(&f, "FFFFFFFF85563FA0", 0, 0xffffffff85563fa0ULL);
	assert_int_equal(kl_redact_digits_as(o.r, &f, &img4200, d, &how), 1);
	assert_int_equal(how, KL_REDACT_HOW_DESLIDE);
	assert_memory_equal(d, "FFFFFFFF81363FA0", 16);
	assert_int_equal(kl_redact_digits_as(o.r, &f, NULL, d, &how), 1);
	assert_int_equal(how, KL_REDACT_HOW_ZERO);
	assert_memory_equal(d, "0000000000000000", 16);
	assert_int_equal(kl_redact_how(o.r, &f, &img4200),
	    KL_REDACT_HOW_DESLIDE);
	f.suppressed = KL_SUP_NULL;
	assert_int_equal(kl_redact_digits_as(o.r, &f, &img4200, d, &how), 0);
	out_free(&o);
}

/*
 * deslide: waiting tokens count toward the bound (the caller then
 * decides them early); a token in a JSON value with escapes waits with
 * its value held from the byte before it.
 */
static void
t_deslide_hold(void **state)
{
	static const char in[] = "{\"MESSAGE\":\"a\\tRIP: 0010:"
	    "ffffffff85563fa0\\n\"}\n";
	struct kl_record rec;
	struct kl_finding f;
	struct kl_error err;
	struct out o;
	size_t i;

	(void)state;
	out_deslide(&o, KL_REDACT_ZERO, 1024);
	hold(&o, "x ffffffff85563fa0\n");
	for (i = 0; !kl_redact_full(o.r); i++) {
		finding(&f, "ffffffff85563fa0", 2, 0xffffffff85563fa0ULL);
		assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
		assert_true(i < 1024);
	}
	assert_true(i > 1 && i * 60 < 1024 * 4);
	assert_int_equal(kl_redact_resolve(o.r, &img4200, NULL, NULL, &err),
	    0);
	assert_false(kl_redact_full(o.r));
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, "x ffffffff81363fa0\n");
	out_free(&o);

	memset(&rec, 0, sizeof(rec));
	rec.offset = 12;
	rec.field = "MESSAGE";
	out_deslide(&o, KL_REDACT_ZERO, 0);
	hold(&o, in);
	/* decoded: "a<TAB>RIP: 0010:" is 12 bytes */
	finding(&f, "ffffffff85563fa0", 24, 0xffffffff85563fa0ULL);
	f.record = &rec;
	assert_int_equal(kl_redact_finding(o.r, &f, &err), 2);
	assert_int_equal(kl_redact_settle(o.r, sizeof(in) - 1, &err), 0);
	out_is(&o, "{\"MESSAGE\":");
	assert_int_equal(kl_redact_resolve(o.r, &img4200, NULL, NULL, &err),
	    0);
	assert_int_equal(kl_redact_end(o.r, &err), 0);
	out_is(&o, "{\"MESSAGE\":\"a\\tRIP: 0010:ffffffff81363fa0\\n\"}\n");
	out_free(&o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_new),
		cmocka_unit_test(t_wants),
		cmocka_unit_test(t_zero_digits),
		cmocka_unit_test(t_scan_lines),
		cmocka_unit_test(t_unchanged),
		cmocka_unit_test(t_empty),
		cmocka_unit_test(t_sample),
		cmocka_unit_test(t_token_split),
		cmocka_unit_test(t_levels),
		cmocka_unit_test(t_hash),
		cmocka_unit_test(t_hold_limit),
		cmocka_unit_test(t_hold_scan),
		cmocka_unit_test(t_not_held),
		cmocka_unit_test(t_settle_too_far),
		cmocka_unit_test(t_write_error),
		cmocka_unit_test(t_reset),
		cmocka_unit_test(t_hold_count),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_json_not_held),
		cmocka_unit_test(t_deslide),
		cmocka_unit_test(t_deslide_rest),
		cmocka_unit_test(t_deslide_hold),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
