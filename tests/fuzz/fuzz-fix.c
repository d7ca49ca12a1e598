/*
 * fuzz-fix.c - libFuzzer harness for the fix of a call site
 * (lib/srcfix.c) and the recipients of a patch (lib/maint.c).
 *
 * The input (a copy of its exact size, so that ASan sees a read past
 * it) is indexed as a C source; each site found is fixed with each of
 * its conversions as the leaking one.  Every fix is checked: a refusal
 * has no edits; edits are in order, inside the input, not overlapping;
 * the fixed text is the input with them applied, and its diff against
 * the input is a well-formed unified diff (only lines of ' ', '-', '+',
 * '@', '\' after the header) whose '-' and '+' line counts are those of
 * its hunk headers.  The input is then read as a MAINTAINERS file and
 * as a .mailmap, and a few paths are looked up with the input as the
 * file's text: every recipient is a non-empty string, people before
 * lists, none twice.  A broken invariant aborts.
 *
 * Seeds (corpus/fix/): C written in the kernel's style with the calls
 * the fixer rewrites and those it refuses, and a MAINTAINERS and a
 * .mailmap written for the test.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* Check a unified diff: its lines, and its hunks' counts. */
static void
check_diff(const char *d, size_t n)
{
	const char *p = d, *e = d + n, *nl;
	unsigned long a = 0, b = 0, ca = 0, cb = 0;
	int hunk = 0, head = 0;

	check(strlen(d) == n);
	while (p < e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		check(nl != NULL);
		if (head < 3) {
			check(*p == 'd' || *p == '-' || *p == '+');
			head++;
		} else if (*p == '@') {
			check(!hunk || (ca == a && cb == b));
			a = b = 1;
			if (sscanf(p, "@@ -%*u,%lu +%*u,%lu @@", &a, &b) != 2 &&
			    sscanf(p, "@@ -%*u +%*u,%lu @@", &b) != 1 &&
			    sscanf(p, "@@ -%*u,%lu +%*u @@", &a) != 1)
				a = b = 1;
			ca = cb = 0;
			hunk = 1;
		} else {
			check(hunk);
			check(*p == ' ' || *p == '-' || *p == '+' || *p == '\\');
			ca += *p == ' ' || *p == '-';
			cb += *p == ' ' || *p == '+';
		}
		p = nl + 1;
	}
	check(!hunk || (ca == a && cb == b));
}

/* Fix site s of the input with each of its conversions leaking. */
static void
fix_site(const uint8_t *b, size_t n, const struct kl_srcidx_site *s)
{
	struct kl_error err = { 0 };
	struct kl_srcfix fx;
	uint8_t *out;
	char *diff;
	size_t i, k, olen, dlen, grow;

	for (i = 0; i < s->formatlen; i++) {
		if (s->format[i] != '%')
			continue;
		check(kl_srcfix_make(b, n, s->line, s->format, s->formatlen,
		    s->function, &i, 1, &fx, &err) == 0);
		if (fx.why != KL_FIX_OK) {
			check(fx.nedit == 0 && fx.edit == NULL);
			kl_srcfix_free(&fx);
			continue;
		}
		check(fx.nedit > 0);
		grow = 0;
		for (k = 0; k < fx.nedit; k++) {
			check(fx.edit[k].off + fx.edit[k].len <= n);
			check(k == 0 || fx.edit[k].off >= fx.edit[k - 1].off +
			    fx.edit[k - 1].len);
			grow += strlen(fx.edit[k].text);
			check(grow >= strlen(fx.edit[k].text));
		}
		check(kl_srcfix_apply(b, n, &fx, &out, &olen, &err) == 0);
		check(olen <= n + grow);
		check(kl_srcfix_diff(b, n, out, olen, "f.c", &diff, &dlen,
		    &err) == 0);
		check_diff(diff, dlen);
		free(diff);
		free(out);
		kl_srcfix_free(&fx);
	}
}

/* No directory but "drivers". */
static int
isdir(void *arg, const char *p)
{
	(void)arg;
	return (strcmp(p, "drivers") == 0);
}

/* Look a few paths up with the input as MAINTAINERS and .mailmap. */
static void
maintainers(const uint8_t *b, size_t n)
{
	static const char *const paths[] = { "drivers/net/x.c", "mm/slub.c",
	    "MAINTAINERS", "arch/x86/kernel/a.c", "a" };
	struct kl_error err = { 0 };
	struct kl_maint_list l;
	struct kl_maint *m;
	size_t i, k, j;
	int lists;

	m = kl_maint_new((const char *)b, n, (const char *)b, n, isdir, NULL,
	    &err);
	check(m != NULL);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		check(kl_maint_lookup(m, paths[i], i % 2 ? b : NULL, n, &l,
		    &err) == 0);
		lists = 0;
		for (k = 0; k < l.n; k++) {
			check(l.who[k].addr != NULL && l.who[k].addr[0] != '\0');
			if (l.who[k].role == KL_MAINT_LIST)
				lists = 1;
			else
				check(!lists);
			for (j = 0; j < k; j++)
				check(strcmp(l.who[j].addr, l.who[k].addr) != 0);
		}
		kl_maint_list_free(&l);
	}
	kl_maint_free(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct kl_error err = { 0 };
	struct kl_srcidx *x;
	struct kl_srcidx_site s;
	uint8_t *copy;
	size_t i;

	if (len > (1 << 16))
		return (0);
	if ((copy = malloc(len ? len : 1)) == NULL)
		return (0);
	memcpy(copy, data, len);
	x = kl_srcidx_new(&err);
	check(x != NULL);
	check(kl_srcidx_add_source(x, "f.c", copy, len, &err) == 0);
	check(kl_srcidx_build(x, &err) == 0);
	for (i = 0; i < kl_srcidx_count(x) && i < 64; i++) {
		check(kl_srcidx_site(x, i, &s) == 0);
		fix_site(copy, len, &s);
	}
	kl_srcidx_free(x);
	if (memchr(copy, '\0', len) == NULL)
		maintainers(copy, len);
	free(copy);
	return (0);
}
