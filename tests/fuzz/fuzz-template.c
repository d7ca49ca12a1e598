/*
 * fuzz-template.c - libFuzzer harness for message templates and masking
 * (lib/template.c).
 *
 * Each input line is copied into a buffer of its exact size and made into
 * a template three ways: as it is, quoted for a mail ("> "), and with a
 * CR at its end; the three must be the same template, with the same
 * fingerprint.  A template is NUL-terminated at its length, never longer
 * than KL_TPL_MAX, holds no run of 8 hex digits standing alone (no
 * address gets into a template), and is a function of its input.  The
 * line is also masked: the length stays, only hex digits change, and
 * masking twice changes nothing more.
 *
 * Seeds (corpus/template/): lines of ../shared/corpus
 * (syzkaller/report/10, 472, 661, 747; qemu/x86_64-6.1.0-57-amd64-boot1/
 * console.log; mail/linux-arm-kernel/2196da18b72ade84671dda169200db907e3bebac.eml).
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

/* Is c a word byte? */
static int
word(uint8_t c)
{
	return ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '_');
}

/* Is c a hex digit? */
static int
xdigit(uint8_t c)
{
	return ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' &&
	    (c | 0x20) <= 'f'));
}

/* Check one template. */
static void
valid(const struct kl_template *t)
{
	const uint8_t *p = (const uint8_t *)t->text;
	size_t i, j;

	check(t->len <= KL_TPL_MAX);
	check(t->text[t->len] == '\0');
	check(strlen(t->fp) == KL_FP_LEN);
	for (i = 0; i < t->len; i = j + 1) {
		j = i;
		if (i > 0 && word(p[i - 1]))
			continue;
		while (j < t->len && xdigit(p[j]))
			j++;
		check(j - i < 8 || (j < t->len && word(p[j])));
	}
}

/* Make the template of b[0..n) with prefix and suffix around it. */
static void
make(const uint8_t *b, size_t n, const char *pre, const char *suf,
    struct kl_template *t)
{
	size_t a = strlen(pre), z = strlen(suf);
	uint8_t *q;

	q = malloc(a + n + z + 1);
	check(q != NULL);
	memcpy(q, pre, a);
	if (n > 0)
		memcpy(q + a, b, n);
	memcpy(q + a + n, suf, z);
	kl_template_make(q, a + n + z, 0, t);
	t->tclass = kl_template_class(t, "value", KL_REGION_TEXT, NULL);
	kl_template_fingerprint(t);
	free(q);
}

/* Template and mask one line. */
static void
line(const uint8_t *b, size_t n)
{
	struct kl_template t, u;
	uint8_t *m, *m2;
	size_t i;

	make(b, n, "", "", &t);
	valid(&t);
	make(b, n, "", "", &u);
	check(t.len == u.len && memcmp(t.text, u.text, t.len) == 0 &&
	    t.hash == u.hash);
	make(b, n, "> ", "", &u);
	check(t.len == u.len && memcmp(t.text, u.text, t.len) == 0);
	check(strcmp(t.fp, u.fp) == 0);
	make(b, n, "", "\r", &u);
	check(t.len == u.len && memcmp(t.text, u.text, t.len) == 0);

	m = malloc(n + 1);
	m2 = malloc(n + 1);
	check(m != NULL && m2 != NULL);
	if (n > 0)
		memcpy(m, b, n);
	(void)kl_mask_addr(m, n);
	for (i = 0; i < n; i++)
		check(m[i] == b[i] || (xdigit(b[i]) && m[i] == 'x'));
	if (n > 0)
		memcpy(m2, m, n);
	(void)kl_mask_addr(m2, n);
	check(n == 0 || memcmp(m, m2, n) == 0);
	free(m);
	free(m2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *e = data + size, *nl;
	uint8_t *b;
	size_t n;

	while (p <= e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(e - p);
		b = malloc(n > 0 ? n : 1);
		check(b != NULL);
		if (n > 0)
			memcpy(b, p, n);
		line(b, n);
		free(b);
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return (0);
}
