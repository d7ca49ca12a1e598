/*
 * fuzz-srcindex.c - libFuzzer harness for the kernel-source indexer
 * (lib/srcindex.c): the C-literal scanner and the printk index parser.
 *
 * The input (a copy of its exact size, so that ASan sees a read past
 * it) is indexed as a C source and, separately, as a printk index.
 * Each index is checked: every site holds a conversion, its format is
 * as long as it says and NUL-terminated, a scanned site's line lies in
 * the input, counters add up.  Each line of the input is then matched
 * as a message (its first hex run as the token): results are real
 * sites, ranked best first, with a conversion.  Finally the source
 * index goes through a cache image and back (identical sites), and a
 * damaged image is refused.  A broken invariant aborts.
 *
 * Seeds (corpus/srcindex/): the real 6.1 sources in tests/data, the
 * hand-written printk index, and small files of the lexer's edge cases
 * (unterminated literals, macros between literals, #define bodies).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Abort unless c holds. */
static void
check(int c)
{
	if (!c)
		abort();
}

/* Check every site of x; lines at most maxline when not 0. */
static void
check_sites(const struct kl_srcidx *x, uint64_t maxline)
{
	struct kl_srcidx_site s;
	size_t i;

	for (i = 0; i < kl_srcidx_count(x); i++) {
		check(kl_srcidx_site(x, i, &s) == 0);
		check(s.file != NULL && s.function != NULL);
		check(s.format != NULL && strlen(s.format) == s.formatlen);
		check(s.formatlen > 0 && memchr(s.format, '%', s.formatlen));
		check(memchr(s.format, '\n', s.formatlen) == NULL);
		check(s.line >= 1 || s.exact);
		check(maxline == 0 || s.line <= maxline);
	}
	check(kl_srcidx_site(x, i, &s) == -1);
}

/* Match each line of data as a message against x. */
static void
check_matches(const struct kl_srcidx *x, const uint8_t *data, size_t len)
{
	struct kl_srcidx_match r[8];
	const uint8_t *p = data, *e = data + len, *nl;
	size_t n, i, t, tl;

	while (p < e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (nl == NULL)
			nl = e;
		for (t = 0; p + t < nl && !((p[t] >= '0' && p[t] <= '9') ||
		    (p[t] >= 'a' && p[t] <= 'f')); t++)
			;
		for (tl = 0; p + t + tl < nl && ((p[t + tl] >= '0' &&
		    p[t + tl] <= '9') || (p[t + tl] >= 'a' &&
		    p[t + tl] <= 'f')); tl++)
			;
		if (tl > 0) {
			n = kl_srcidx_match(x, p, (size_t)(nl - p), t, tl,
			    KL_ARCH_X86_64, r, 8);
			check(n <= 8);
			for (i = 0; i < n; i++) {
				check(r[i].site < kl_srcidx_count(x));
				check(r[i].conversion[0] == '%');
				check(i == 0 || r[i].score <= r[i - 1].score);
			}
		}
		p = nl + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x, *y;
	const struct kl_srcidx_stats *st;
	struct kl_srcidx_site s, t;
	uint8_t *copy, *img;
	uint64_t lines = 1;
	size_t i, ilen;

	if (len > (1 << 20))
		return (0);
	if ((copy = malloc(len ? len : 1)) == NULL)
		return (0);
	memcpy(copy, data, len);
	for (i = 0; i < len; i++)
		lines += copy[i] == '\n';

	/* As a C source. */
	x = kl_srcidx_new(&err);
	check(x != NULL);
	check(kl_srcidx_add_source(x, "fuzz.c", copy, len, &err) == 0);
	check(kl_srcidx_build(x, &err) == 0);
	st = kl_srcidx_stats(x);
	check(st->files + st->skip_binary + st->skip_huge == 1);
	check(st->skip_nokey <= kl_srcidx_count(x));
	check(st->formats <= kl_srcidx_count(x));
	check_sites(x, memchr(copy, '\0', len) ? 0 : lines);
	check_matches(x, copy, len);

	/* Through a cache image and back. */
	check(kl_srcidx_save(x, "k", &img, &ilen, &err) == 0);
	y = kl_srcidx_load(img, ilen, "k", &err);
	check(y != NULL && kl_srcidx_count(y) == kl_srcidx_count(x));
	for (i = 0; i < kl_srcidx_count(x); i++) {
		kl_srcidx_site(x, i, &s);
		kl_srcidx_site(y, i, &t);
		check(s.line == t.line && strcmp(s.format, t.format) == 0 &&
		    strcmp(s.file, t.file) == 0);
	}
	kl_srcidx_free(y);
	img[ilen / 2] ^= 0x55;
	check(kl_srcidx_load(img, ilen, "k", &err) == NULL);
	check(kl_srcidx_load(img, ilen / 2, "k", &err) == NULL);
	free(img);
	kl_srcidx_free(x);

	/* As a printk index. */
	x = kl_srcidx_new(&err);
	check(x != NULL);
	check(kl_srcidx_add_printk_index(x, copy, len, &err) == 0);
	check(kl_srcidx_build(x, &err) == 0);
	st = kl_srcidx_stats(x);
	check(st->pk_sites == kl_srcidx_count(x));
	check(st->pk_malformed <= st->pk_lines);
	check_sites(x, 0);
	check_matches(x, copy, len);
	kl_srcidx_free(x);
	free(copy);
	return (0);
}
